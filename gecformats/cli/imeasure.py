"""``gecformats imeasure``: I-measure scores of system outputs, as ieval.py gives them."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from gecformats.cli import _engine, app, progress_bar, user_errors
from gecformats.cli.options import (SentenceCheckOpt, EngineName, EngineOpt, IevalFormat, IevalOptimise, JobsOpt,
                                    SchedulerOpt, WorkersOpt)
from gecformats.io import json_text

HypothesesArg = Annotated[list[str], typer.Argument(
    metavar="HYP...", help="System outputs, one tokenised sentence per line; several "
    "are scored against the gold read once.")]
GoldOpt = Annotated[str, typer.Option(
    "--gold", help="The gold: I-measure XML, or M2 (grouped into "
    "loci as 'convert --to ixml --grouping imeasure' does).")]
GoldFormatOpt = Annotated[Optional[str], typer.Option(
    "--gold-format", help="ixml or m2 (default: from the suffix or first line).")]
MaximiseOpt = Annotated[str, typer.Option(
    "--maximise", help="What the reference of each sentence maximises (ieval's "
    "-max:): d (detection) or c (correction) followed by tp, tn, fp, fn, p, r, f, acc, "
    "wacc or i.")]
OptimiseOpt = Annotated[IevalOptimise, typer.Option(
    "--optimise", help="Choose each sentence's reference by its "
    "own scores, or by the running corpus totals (ieval's -opt:).")]
NoMixOpt = Annotated[bool, typer.Option(
    "--no-mix", help="One reference per annotator instead "
    "of every mix of alternatives (ieval's -nomix).")]
BetaOpt = Annotated[float, typer.Option("--beta", help="Beta of F (ieval's -b:).")]
WeightOpt = Annotated[float, typer.Option("--weight", help="Weight w of WAcc (ieval's -w:).")]
PerSentenceOpt = Annotated[bool, typer.Option(
    "--per-sentence", help="Also give each sentence's results (ieval's -per-sent).")]
EnumerateMaxOpt = Annotated[int, typer.Option(
    "--enumerate-max", min=0, help="Sentences with more reference combinations "
    "than this are scored by a search over their loci instead of trying every reference "
    "(the original's way; it cannot finish CoNLL-2014 sentence 333's 2^34).")]
MaxCellsOpt = Annotated[int, typer.Option(
    "--max-cells", min=1, help="The most alignment-table cells one sentence "
    "may fill (a computed one counts 4; at most about 12 bytes and 0.1 µs each); a sentence "
    "past it (a hypothesis several times longer than its source) stops scoring with an "
    "error naming it, never a different score.")]
FormatOpt = Annotated[IevalFormat, typer.Option(
    "--format", help="ieval: the original's tables, byte for byte (one "
    "block per system); json: the numbers and the signature; tsv: one row per system.")]


@app.command()
def imeasure(
    hypotheses: HypothesesArg,
    gold: GoldOpt,
    gold_format: GoldFormatOpt = None,
    maximise: MaximiseOpt = "cwacc",
    optimise: OptimiseOpt = IevalOptimise.sentence,
    no_mix: NoMixOpt = False,
    beta: BetaOpt = 1.0,
    weight: WeightOpt = 2.0,
    per_sentence: PerSentenceOpt = False,
    enumerate_max: EnumerateMaxOpt = 64,
    max_cells: MaxCellsOpt = 80_000_000,
    output_format: FormatOpt = IevalFormat.ieval,
    jobs: JobsOpt = 1,
    engine: EngineOpt = EngineName.local,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    no_sentence_check: SentenceCheckOpt = False,
) -> None:
    """Score systems with the I-measure (Felice & Briscoe 2015), as ieval.py does.

    Exit status: 0 scored, 1 bad input data, 2 bad usage.
    """
    from gecformats.metrics import imeasure as im  # lazily

    _check_parameters(maximise, beta, weight)
    if engine is EngineName.local and (scheduler or workers):
        raise typer.BadParameter("needs --engine dask", param_hint="'--scheduler' / '--workers'")
    warnings: list[str] = []
    with user_errors(), _engine(engine, scheduler, workers, None) as running, _Bar() as bar:
        systems = im.evaluate_files(hypotheses, gold, gold_format=gold_format,
                                    maximise=maximise.lower(), optimise=optimise.value,
                                    mix=not no_mix, beta=beta, weight=weight,
                                    enumerate_max=enumerate_max, max_cells=max_cells,
                                    progress=bar.update, jobs=jobs, engine=running,
                                    check_sentences=not no_sentence_check,
                                    warnings=warnings)
    for warning in warnings:
        typer.echo(f"gecformats: warning: {warning}", err=True)
    if output_format is IevalFormat.json:
        typer.echo(json_text(im.to_json(systems, per_sentence), ensure_ascii=False, indent=2))
    elif output_format is IevalFormat.tsv:
        typer.echo(im.format_tsv(systems), nl=False)
    else:
        typer.echo("".join(im.format_ieval(s, gold, per_sentence) for s in systems), nl=False)


def _check_parameters(maximise: str, beta: float, weight: float) -> None:
    """Refuse a ``--maximise`` the I-measure does not know and a ``--beta`` or ``--weight``
    out of its range.

    Raises:
        typer.BadParameter: naming the option (exit 2).
    """
    from gecformats.metrics import imeasure as im  # lazily

    try:
        im.check_maximise(maximise.lower())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--maximise'") from None
    for hint, value in (("'--beta'", beta), ("'--weight'", weight)):
        if not 0 < value <= im.MAX_PARAMETER:  # also false for NaN
            raise typer.BadParameter(f"must be a number > 0 and at most {im.MAX_PARAMETER:g}, "
                                     f"not {value}", param_hint=hint)


class _Bar:
    """A progress bar on standard error (a terminal only) that opens at the first step,
    once the total is known (the gold counted); :func:`gecformats.cli.progress_bar`."""

    def __init__(self) -> None:
        from contextlib import ExitStack

        self.stack = ExitStack()
        self.step: Any = None
        self.opened = False

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    def update(self, steps: int, total: int | None) -> None:
        if not self.opened:
            self.opened = True
            self.step = self.stack.enter_context(progress_bar(total, label="I-measure"))
        if self.step is not None:
            self.step(steps)

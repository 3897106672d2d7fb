"""``gecformats meta-eval``: which metric agrees with people, on SEEDA, GJG15 and Napoles
et al. (2015), with intervals (the library: :mod:`gecformats.metaeval`)."""

from __future__ import annotations

import os
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from gecformats.cli import app, progress_bar, user_errors
from gecformats.cli.options import AlignOpt, SpacyModelOpt
from gecformats.cli.score import ExtractorOpt
from gecformats.errors import UsageError, install_hint
from gecformats.metrics import METRICS

if TYPE_CHECKING:
    from gecformats.metaeval.run import MetaEvalResult


class DatasetName(str, Enum):
    seeda = "seeda"
    gjg15 = "gjg15"
    napoles2015 = "napoles2015"


class Level(str, Enum):
    system = "system"
    sentence = "sentence"


class Ties(str, Enum):
    loss = "loss"
    skip = "skip"
    neutral = "neutral"


class HumanSource(str, Enum):
    published = "published"
    judgments = "judgments"


class MetaFormat(str, Enum):
    text = "text"
    json = "json"
    tsv = "tsv"
    latex = "latex"


DatasetOpt = Annotated[DatasetName, typer.Option(
    "--dataset", help="seeda (Kobayashi et al. 2024), gjg15 (Grundkiewicz et al. 2015) or "
    "napoles2015 (Napoles et al. 2015).")]
DataOpt = Annotated[str, typer.Option(
    "--data", metavar="DIR", help="The dataset's folder (a copy of tmu-nlp/SEEDA; the GJG15 "
    "data folder with judgments.xml and table3_human_rankings.tsv; cnap/gec-ranking). Nothing "
    "is downloaded.")]
GoldOpt = Annotated[Optional[str], typer.Option(
    "--gold", metavar="COMBINED.m2", help="The CoNLL-2014 combined gold M2 (default: "
    "DIR/../conll14/conll14st-test-data/noalt/official-2014.combined.m2).")]
OutputsOpt = Annotated[Optional[str], typer.Option(
    "--outputs", metavar="DIR", help="gjg15, napoles2015: the CoNLL-2014 system outputs "
    "(default: DIR/../conll14/official_submissions).")]
MetricOpt = Annotated[Optional[list[str]], typer.Option(
    "--metric", metavar="NAME", help="A metric to meta-evaluate (repeat for more): a score "
    f"metric ({', '.join(METRICS)}; gleu with --absent first) or length (output length in "
    "characters, gec-metrics' test pseudo-metric). Default: m2.")]
LevelOpt = Annotated[Level, typer.Option(
    "--level", help="system: correlations with the human system scores; sentence: pairwise "
    "accuracy and Kendall's tau against the human rankings of each sentence.")]
FullOpt = Annotated[bool, typer.Option(
    "--full", help="seeda: score the outputs on all 1,312 test sentences (outputs/all), not "
    "the 391 judged ones.")]
ConfigOpt = Annotated[Optional[list[str]], typer.Option(
    "--config", metavar="NAME", help="Only this system set (repeat for more); seeda: base, "
    "+INPUT, +fluency, all; gjg15: all; napoles2015: all, -INPUT.")]
CiOpt = Annotated[int, typer.Option(
    "--ci", metavar="N", help="Bootstrap resamples for the 95% intervals (0: none); the same "
    "resamples for every metric. System level: of the sentences, every system rescored by "
    "the metric on each; sentence level: of the ranking items.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="The resamples' seed.")]
TiesOpt = Annotated[Ties, typer.Option(
    "--metric-ties", help="Sentence level, a metric tie: loss (SEEDA's and gec-metrics' "
    "convention: the alphabetically earlier system loses), skip (pair left out) or neutral "
    "(counted, agreeing with nobody).")]
CompareOpt = Annotated[bool, typer.Option(
    "--compare", help="Also test every pair of metrics: the bootstrap interval and p value "
    "of the difference of their correlations, and Williams' test.")]
WindowOpt = Annotated[Optional[int], typer.Option(
    "--window", metavar="K", help="Window analysis: correlations within each K adjacent "
    "systems by human score (as gec-metrics).")]
FormatOpt = Annotated[MetaFormat, typer.Option(
    "--format", help="text, json, tsv (one row per metric, config, human score) or latex. "
    "A value that is undefined (a correlation of constant scores, an agreement without "
    "pairs) is n/a in text, nan in TSV and null in JSON.")]
WriteOpt = Annotated[Optional[list[str]], typer.Option(
    "--output", "-o", metavar="FILE", help="Also write the results to FILE in the format of "
    "its suffix: .txt, .json, .tsv or .tex (repeat for several from one run); standard output "
    "then prints only a --format given.")]
PlotOpt = Annotated[Optional[str], typer.Option(
    "--plot", metavar="FILE.svg|png", help="Also draw metric against human scores (first "
    "config and human score; one file per metric, FILE-METRIC.svg with several; PNG needs "
    f"{install_hint('plot')}).")]
HumanOpt = Annotated[HumanSource, typer.Option(
    "--human", help="System level, the human scores: published (SEEDA's scores/human files, "
    "GJG15's Table 3) or judgments (Expected Wins and TrueSkill computed from the judgment "
    "XML on each system set's own systems; TrueSkill needs the metaeval extra).")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", metavar="N", help="Local processes for the per-sentence scoring.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


@app.command("meta-eval")
def metaeval(
    ctx: typer.Context, dataset: DatasetOpt, data: DataOpt, metric: MetricOpt = None,
    level: LevelOpt = Level.system,
    gold: GoldOpt = None, outputs: OutputsOpt = None, full: FullOpt = False,
    config: ConfigOpt = None, ci: CiOpt = 1000, seed: SeedOpt = 12345,
    metric_ties: TiesOpt = Ties.loss, compare: CompareOpt = False, window: WindowOpt = None,
    output_format: FormatOpt = MetaFormat.text, output: WriteOpt = None,
    plot: PlotOpt = None, jobs: JobsOpt = 1,
    quiet: QuietOpt = False, human: HumanOpt = HumanSource.published,
    extractor: ExtractorOpt = None, spacy_model: SpacyModelOpt = None,
    align: AlignOpt = False,
) -> None:
    """Meta-evaluate metrics: how well their scores of the systems of SEEDA, GJG15 or
    Napoles et al. (2015) agree with the human judgments.

    System level: Pearson r and Spearman rho (and Kendall tau-b in json/tsv) of each metric
    with each human score, for each system set, with 95% intervals from resampling the test
    sentences (--ci N). Sentence level: pairwise accuracy and Kendall's tau of the metric's
    sentence scores against each annotator's ranking, under --metric-ties.

    Exit status: 0 done, 1 bad or missing data files, 2 bad usage.
    """
    from gecformats.cli import output_files
    from gecformats.io import atomic_outputs
    from gecformats.metaeval.render import FORMATS, render
    from gecformats.metaeval.run import MetaEvalRequest, count_sentences, run_meta_eval

    request = MetaEvalRequest(
        dataset.value, data, metric or ["m2"], level.value, gold, outputs, full, config,
        ci, seed, metric_ties.value, compare, window, jobs, human.value, extractor,
        spacy_model, align)
    with user_errors():
        files_out = output_files(output, FORMATS)
        _check_plot(plot)
        from gecformats.metaeval.datasets import load

        request.check()
        loaded = load(request.dataset, data, gold=gold, outputs=outputs, full=full)
        total = count_sentences(loaded) * len(loaded.systems) * len(request.metrics)
        with progress_bar(total, enabled=not quiet, label="scoring") as progress:
            result = run_meta_eval(request, progress, loaded)
        for warning in result.warnings:
            typer.echo(f"gecformats: warning: {warning}", err=True)
        texts = [render(result, fmt) for _, fmt in files_out]  # every one from this run
        with atomic_outputs([path for path, _ in files_out]) as files:
            for fh, text in zip(files, texts):
                fh.write(text)
        source = getattr(ctx.get_parameter_source("output_format"), "name", None)
        if not files_out or source in ("COMMANDLINE", "ENVIRONMENT"):
            typer.echo(render(result, output_format.value), nl=False)
        if plot is not None:
            _plot(result, plot)


def _plot(result: MetaEvalResult, path: str) -> None:
    """Write one scatter plot per metric (metric against human score; the first system set
    and human score): ``path`` itself for one metric, ``FILE-METRIC.svg`` for several."""
    from gecformats.metaeval.plot import scatter_png, scatter_svg
    from gecformats.metaeval.run import human_points

    config = result.configs[0]
    human = next(iter(result.dataset.humans))
    names = [s.name for s in result.scored]
    root, suffix = os.path.splitext(path)
    for name in names:
        draw = scatter_png if suffix.lower() == ".png" else scatter_svg
        image = draw(human_points(result, name, config, human), x_label=name, y_label=human,
                     title=f"{result.dataset.name} {config}: {name} vs {human}")
        target = path if len(names) == 1 else f"{root}-{name}{suffix}"
        with open(target, "wb") as out:
            out.write(image if isinstance(image, bytes) else image.encode("utf-8"))


def _check_plot(path: str | None) -> None:
    """Refuse, before any work, a ``--plot`` that is neither .svg nor .png, and .png
    without matplotlib."""
    if path is None:
        return
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"--plot {path}: write an .svg or a .png file")
    if suffix == ".png":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            from gecformats.metaeval.plot import PNG_EXTRA

            raise UsageError(f"--plot {path}: a PNG plot needs matplotlib: {PNG_EXTRA} (or "
                             "write an .svg file, which needs nothing)") from None

"""``gecformats report``: one self-contained HTML page of a score, to look at the errors.

The command only parses and writes: the scoring options are ``score``'s own declarations
(:mod:`gecformats.cli.score`), the request is built as ``score`` builds it, and the page is
:mod:`gecformats.report.html`'s.
"""

from __future__ import annotations

import inspect
import shlex
import sys
from typing import Annotated, Any, Optional

import typer

from gecformats.cli import app, progress_bar, user_errors
from gecformats.cli.options import AlignOpt, JobsOpt, SentenceCheckOpt, SpacyModelOpt, UnitOpt
from gecformats.cli.score import (BetaOpt, CatOpt, CiOpt, CorrectionOpt, ExtractorOpt,
                                  HypothesesArg, IgnoreWsOpt, MaxEdgesOpt, MaxUnchangedOpt,
                                  MetricOpt, PairedArOpt, PairedBsOpt, QuietOpt, RefOpt,
                                  ResamplesOpt, SeedOpt, SourceOpt, StrictOpt, TokenizeOpt,
                                  TrialsOpt)

OutputOpt = Annotated[str, typer.Option(
    "--output", "-o", metavar="FILE.html", help="The HTML file to write (one file: styles, "
    "script and data inline).")]
GoldOpt = Annotated[Optional[str], typer.Option(
    "--gold", metavar="GOLD.m2", help="The gold file (M2, or another token-level format "
    "its name tells: I-measure XML, CoNLL). Or --source and --ref.")]
TitleOpt = Annotated[Optional[str], typer.Option(
    "--title", help="The page's title (default: the gold's file name).")]

_OWN = {"output", "title"}
"""The report's options that are not ``score``'s."""


@app.command()
def report(
    ctx: typer.Context, hypotheses: HypothesesArg, output: OutputOpt, gold: GoldOpt = None,
    source: SourceOpt = None, ref: RefOpt = None, title: TitleOpt = None, metric: MetricOpt = None, tokenize: TokenizeOpt = None,
    strict: StrictOpt = False, no_sentence_check: SentenceCheckOpt = False,
    align: AlignOpt = False, unit: UnitOpt = None,
    quiet: QuietOpt = False, beta: BetaOpt = None,
    max_unchanged_words: MaxUnchangedOpt = None, ignore_whitespace_casing: IgnoreWsOpt = False,
    max_edges: MaxEdgesOpt = None, ci: CiOpt = False, paired_bs: PairedBsOpt = False,
    paired_ar: PairedArOpt = False, resamples: ResamplesOpt = 1000, trials: TrialsOpt = 10000,
    seed: SeedOpt = 12345, correction: CorrectionOpt = None, jobs: JobsOpt = 1,
    cat: CatOpt = None, extractor: ExtractorOpt = None, spacy_model: SpacyModelOpt = None,
) -> None:
    """Write an HTML error-analysis report of system outputs against an M2 gold file: the
    systems table and recall per gold type across systems, then every sentence with each
    system's edits from the exact M2 search, credited (TP), not credited (FP) and the gold
    edits missed (FN), with filters and a side-by-side view. With --metric errant --cat N,
    ERRANT's recall per category across systems too.

    Every count equals `score`'s. The page needs no network; its overview works without
    JavaScript. Exit status: 0 written, 1 bad input data, 2 bad usage.
    """
    with user_errors():
        request = _request(ctx)
        _write(request, output, title, quiet)


report.help_sections = [  # type: ignore[attr-defined]
    ("Inputs and output", ["gold", "source", "ref", "output", "title", "metric", "tokenize", "strict",
                           "no_sentence_check", "align", "unit", "quiet",
                           "jobs"]),
    ("Intervals and tests (every metric)", ["ci", "paired_bs", "paired_ar", "resamples",
                                            "trials", "seed", "correction"]),
    ("M2 (the sentences view)", ["beta", "max_unchanged_words", "ignore_whitespace_casing",
                                 "max_edges"]),
    ("ERRANT (--metric errant)", ["cat", "extractor", "spacy_model"]),
]


def _request(ctx: typer.Context) -> Any:
    """The :class:`~gecformats.metrics.request.ScoreRequest` of the options, as ``score``
    makes it (``score``'s defaults for the options the report does not offer)."""
    from gecformats.cli.score import score
    from gecformats.cli.scoring import given_options, request_from

    defaults = {name: p.default for name, p in inspect.signature(score).parameters.items()
                if p.default is not inspect.Parameter.empty}
    params = {**defaults, **{k: v for k, v in ctx.params.items() if k not in _OWN}}
    given = {k: v for k, v in given_options(ctx).items() if k not in _OWN}
    return request_from(params, given)


def _write(request: Any, output: str, title: str | None, quiet: bool) -> None:
    """Score and write the page, with a progress bar and the warnings on standard error."""
    from gecformats.cli.scoring import _total
    from gecformats.report.build import report_request
    from gecformats.report.html import write_report

    request = report_request(request)  # its M2 metric counted in the progress bar
    command = None
    if sys.argv[1:2] == ["report"]:  # as typed (not when called from Python)
        command = "gecformats report " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    with progress_bar(lambda: _total(request), enabled=not quiet and output != "-") as progress:
        report = write_report(request, output, title, command, progress)
    for note in report.outcome.notes:
        typer.echo(f"gecformats: note: {note}", err=True)
    for warning in report.outcome.warnings:
        typer.echo(f"gecformats: warning: {warning}", err=True)

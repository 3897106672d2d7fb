"""``gecformats align``: a system's text re-segmented onto the gold's sentences."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from gecformats.cli import app, progress_bar, user_errors
from gecformats.cli.options import FORMAT_HELP
from gecformats.errors import UsageError

HypArg = Annotated[str, typer.Argument(
    metavar="HYP", help="The system output, in any segmentation: a sentence, a paragraph or "
    "a document a line, merged and split sentences ('-' for standard input; .gz read "
    "transparently).")]
GoldOpt = Annotated[Optional[str], typer.Option(
    "--gold", metavar="GOLD", help="The gold whose sentences HYP is cut into: any format "
    "gecformats reads (a character format's documents are one sentence each).")]
SourceOpt = Annotated[Optional[str], typer.Option(
    "--source", metavar="SRC", help="Instead of --gold: the source sentences as text, one "
    "per line.")]
GoldFormatOpt = Annotated[Optional[str], typer.Option(
    "--gold-format", metavar="FORMAT", help=f"The gold's format when its name does not tell "
    f"({FORMAT_HELP}).")]
OutputOpt = Annotated[str, typer.Option(
    "--output", "-o", metavar="OUT", help="The aligned text, one line per gold sentence "
    "('-': standard output, the default; a file is written whole or not at all).")]
ReportOpt = Annotated[Optional[str], typer.Option(
    "--report", metavar="R.json", help="Write every link that is not one line for one "
    "sentence (merged, split, missing, dropped) with both sides' text, as JSON.")]
QuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Print no summary and no progress bar.")]


@app.command()
def align(
    hypothesis: HypArg,
    gold: GoldOpt = None,
    source: SourceOpt = None,
    gold_format: GoldFormatOpt = None,
    output: OutputOpt = "-",
    report: ReportOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Re-segment HYP onto the gold's sentences: one line per gold sentence, each a slice
    of HYP's own text (its tokens and spacing kept; pieces of two lines joined with one
    space). A file already aligned comes back byte for byte.

    On standard error: one summary line (lines kept, links of each kind: "2-1" two gold
    sentences cut from one line, "1-2" two lines joined, "1-0" a sentence with no text,
    "0-1" a line dropped); --report lists every such link. Exit status: 0 aligned, 1 bad
    input data (or text that is not the gold's output), 2 bad usage.
    """
    from gecformats.convert.align import align_lines, read_gold, write_alignment
    from gecformats.io import source_name
    from gecformats.metrics.score import read_hypothesis

    with user_errors():
        if hypothesis == "-" and "-" in (gold, source):
            raise UsageError("HYP and the gold cannot both be standard input ('-')")
        sentences = read_gold(gold, source=source, gold_format=gold_format)
        name, gold_name = source_name(hypothesis), source_name(gold or source or "-")
        with progress_bar(len(sentences), not quiet, "aligning") as bar:
            alignment = align_lines(sentences, (line for _, line in read_hypothesis(hypothesis)),
                                    name=name, progress=bar)
        write_alignment(alignment, output, report, hypothesis=name, gold=gold_name)
    if not quiet:
        more = "; every one: --report FILE" if alignment.links and report is None else ""
        typer.echo(f"{alignment.summary(name, gold_name)}{more}", err=True)

"""``gecformats refs``: every reference an annotation allows."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Optional

import typer

from gecformats import formats
from gecformats.cli import app, progress_bar, user_errors
from gecformats.cli.options import FromOpt, Grouping, RefsFormat
from gecformats.io import atomic_output

InputArg = Annotated[str, typer.Argument(
    help="I-measure XML or M2 file ('-' for standard input, needs --from).")]
MixOpt = Annotated[bool, typer.Option(
    "--mix/--no-mix",
    help="Combine the alternatives of all loci (default), or one reference per annotator.")]
CountOpt = Annotated[bool, typer.Option(
    "--count", help="Print how many distinct references each sentence has instead "
    "(exact, or the product bound when there are more combinations than --max).")]
MaxOpt = Annotated[Optional[int], typer.Option(
    "--max", min=1,
    help="With --count, enumerate at most N combinations for an exact count (default "
    "1,000,000); without it, the same as --max-references.")]
MaxReferencesOpt = Annotated[Optional[int], typer.Option(
    "--max-references", min=0, metavar="N",
    help="At most N distinct references per sentence (default 10,000, as gleu; 0 for "
    "all); the sentences cut are reported.")]
FormatOpt = Annotated[RefsFormat, typer.Option(
    "--format",
    help="lines (one reference per line, an empty line after each sentence), tsv "
    "(sentence<TAB>reference) or jsonl.")]
GroupingOpt = Annotated[Grouping, typer.Option(
    help="M2 input: how edits become loci (components: connected "
    "overlap; imeasure: the original converter's rule).")]
OutputOpt = Annotated[str, typer.Option(
    "--output", "-o", help="Output file (written whole or not at all).")]


@app.command()
def refs(
    input: InputArg,
    from_format: FromOpt = None,
    mix: MixOpt = True,
    counts: CountOpt = False,
    max: MaxOpt = None,
    max_references: MaxReferencesOpt = None,
    output_format: FormatOpt = RefsFormat.lines,
    grouping: GroupingOpt = Grouping.components,
    output: OutputOpt = "-",
) -> None:
    """Every reference an annotation allows, from mutually exclusive alternatives (streamed).

    Sentence ids are those of the XML, or 1-based for M2. Nothing is written to a file
    unless the whole input was read.
    """
    from gecformats.convert.refs import (DEFAULT_REFERENCES, Count, capped_note,
                                         read as read_loci, write_references)

    if max_references is not None and (counts or max is not None):
        raise typer.BadParameter("caps the references written: not with --count or --max",
                                 param_hint="'--max-references'")
    limit = max_references if max_references is not None else max
    capped: list[tuple[str | None, Count]] = []
    with user_errors():
        from_format = from_format or formats.infer_input(
            input, f"gecformats refs {input} --from {{format}}", ("ixml", "m2", "conll"))
        sentences = read_loci(input, from_format, grouping.value)
        with _progress(input, from_format) as step, atomic_output(output) as fh:
            write_references(_stepped(sentences, step), fh, mix=mix, max=limit,
                             format=output_format.value, counts=counts, capped=capped)
    if capped:
        note = capped_note(capped, DEFAULT_REFERENCES if limit is None else limit)
        typer.echo(f"gecformats: note: {note}", err=True)


def _progress(path: str, from_format: str) -> Any:
    """A progress bar of the input's sentences on a terminal (counted first, a quick
    read); none for standard input or on a pipe."""
    total = None
    if sys.stderr.isatty() and path != "-":
        total = sum(1 for _ in formats.get(from_format).read(path))
    return progress_bar(total, label="references")


def _stepped(items: Iterable[Any], step: Any) -> Iterator[Any]:
    """``items``, each reported to ``step`` when one is given."""
    for item in items:
        yield item
        if step is not None:
            step(1)

"""The ``gecformats`` command line: thin wrappers around the library functions."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Optional

import typer

from gecformats import __version__, formats
from gecformats.convert import convert as convert_file
from gecformats.errors import GecFormatError
from gecformats.stats import format_stats, stats as count_stats
from gecformats.validate import validate as validate_file

app = typer.Typer(
    name="gecformats",
    help="Read, write, convert, check and count GEC annotation files (M2, ...).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Deletion(str, Enum):
    keep = "keep"
    empty = "empty"
    none = "none"


class Targets(str, Enum):
    keep = "keep"
    first = "first"
    split = "split"


@contextmanager
def user_errors(malformed: int = 1, unreadable: int = 2) -> Iterator[None]:
    """Turn input problems into one ``FILE:LINE: message`` line on stderr and an exit code.

    Malformed input exits ``malformed``; a file that cannot be opened or read exits
    ``unreadable``.
    """
    try:
        yield
    except GecFormatError as exc:
        typer.echo(f"gecformats: {exc}", err=True)
        raise typer.Exit(malformed) from None
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        typer.echo(f"gecformats: {name}: {reason}" if name else f"gecformats: {reason}", err=True)
        raise typer.Exit(unreadable) from None


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gecformats {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Read, write, convert, check and count GEC annotation files."""


FORMAT_HELP = f"Format name ({', '.join(formats.FORMATS)}); inferred from the suffix if omitted."


@app.command()
def convert(
    input: str = typer.Argument(..., help="Input file ('-' for standard input, needs --from)."),
    output: str = typer.Argument(..., help="Output file ('-' for standard output)."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    to_format: Optional[str] = typer.Option(None, "--to", help=FORMAT_HELP),
    deletion: Deletion = typer.Option(
        Deletion.keep, help="M2 output: spell deletions as read (keep), as an empty field, or -NONE-."
    ),
    targets: Targets = typer.Option(
        Targets.keep,
        help="M2 output of ChERRANT files: keep T lines and every alignment; 'first' alignment "
        "of each reference only (what the NUS scorer reads); 'split' every alignment into an "
        "annotator of its own.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing unless something was dropped."),
) -> None:
    """Convert INPUT to OUTPUT (format → edit model → format). The output appears whole or not at all."""
    options: dict[str, object] = {}
    to_name = to_format
    with user_errors():
        to_name = to_format or formats.infer(output)
        if to_name == "m2":
            options["deletion"] = {"keep": None, "empty": "", "none": "-NONE-"}[deletion.value]
            options["targets"] = targets.value
        report = convert_file(input, output, from_format=from_format, to_format=to_name, **options)
    for line in report.lines():
        typer.echo(f"gecformats: {line}", err=True)
    if not quiet:
        typer.echo(f"gecformats: wrote {report.sentences} sentences to {output}", err=True)


@app.command()
def stats(
    file: str = typer.Argument(..., help="Annotation file ('-' for standard input)."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Count sentences, tokens, edits and noop lines per annotator, and error types."""
    with user_errors():
        reader = formats.get(from_format or formats.infer(file))
        result = count_stats(reader.read(file))
    typer.echo(json.dumps(result, ensure_ascii=False, indent=2) if as_json else format_stats(result))


@app.command()
def validate(
    file: str = typer.Argument(..., help="Annotation file ('-' for standard input)."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: {\"problems\": [...]}."),
) -> None:
    """Report every problem with file, line, sentence and kind.

    Exit status: 0 clean, 1 problems found, 2 the file cannot be read.
    """
    problems = []
    # problems in the content are reported, not raised: what is raised means unreadable
    with user_errors(malformed=2, unreadable=2):
        fmt = from_format or formats.infer(file)
        for problem in validate_file(file, fmt):
            problems.append(problem)
            if not as_json:
                typer.echo(str(problem))
    if as_json:
        typer.echo(json.dumps({"problems": [p.to_dict() for p in problems]}, ensure_ascii=False, indent=2))
    elif not problems:
        typer.echo(f"{file}: no problems found", err=True)
    raise typer.Exit(1 if problems else 0)


def main() -> None:
    """Entry point of the ``gecformats`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()

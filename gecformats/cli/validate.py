"""``gecformats validate``: every problem of an annotation file."""

from __future__ import annotations

from typing import Annotated

import typer

from gecformats import formats
from gecformats.cli import app, user_errors, warn_reading
from gecformats.cli.options import FileArg, FromOpt
from gecformats.io import json_text

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON: {\"problems\": [...]}.")]


@app.command()
def validate(
    file: FileArg,
    from_format: FromOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Report every problem with file, line, sentence and kind.

    Exit status: 0 clean, 1 problems found or the file cannot be read, 2 bad usage.
    """
    from gecformats.validate import validate as validate_file  # lazily: every format

    problems = []
    with user_errors():
        fmt = from_format or formats.infer_input(file, f"gecformats validate {file} --from {{format}}")
        warn_reading(fmt)
        for problem in validate_file(file, fmt):
            problems.append(problem)
            if not as_json:
                typer.echo(str(problem))
    if as_json:
        typer.echo(json_text({"problems": [p.to_dict() for p in problems]}, ensure_ascii=False, indent=2))
    elif not problems:
        typer.echo(f"{file}: no problems found", err=True)
    raise typer.Exit(1 if problems else 0)

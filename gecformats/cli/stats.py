"""``gecformats stats``: counts of an annotation file."""

from __future__ import annotations

from typing import Annotated

import typer

from gecformats import formats
from gecformats.cli import app, user_errors, warn_reading
from gecformats.cli.options import FileArg, FromOpt
from gecformats.errors import GecFormatError
from gecformats.io import json_text
from gecformats.metrics.stats import format_stats, stats as count_stats, text_stats

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


@app.command()
def stats(
    file: FileArg,
    from_format: FromOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Count sentences, tokens, edits and noop lines per annotator, and error types (for
    parallel text: sentences, characters and references per position)."""
    with user_errors():
        reader = formats.get(from_format or formats.infer_input(
            file, f"gecformats stats {file} --from {{format}}"))
        warn_reading(reader.NAME)
        if reader.UNIT == "char":
            raise GecFormatError(f"stats counts tokens; convert {reader.NAME} data to M2 first "
                                 f"(gecformats convert {file} OUT.m2 --from {reader.NAME})")
        if reader.UNIT == "text":
            result = text_stats(reader.read(file))
        else:
            result = count_stats(reader.read(file))
    typer.echo(json_text(result, ensure_ascii=False, indent=2) if as_json else format_stats(result))

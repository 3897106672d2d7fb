"""``gecformats correlate``: a metric's system scores against human judgements."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from gecformats.cli import app, user_errors
from gecformats.cli.options import TextOrJson
from gecformats.errors import GecFormatError
from gecformats.io import json_text

ScoresArg = Annotated[str, typer.Argument(
    help="The metric's scores: what 'gecformats score', 'gleu' or 'imeasure' write "
    "(text, TSV with a header, JSON), or 'SYSTEM VALUE' per line ('-' for standard input).")]
HumanArg = Annotated[str, typer.Argument(
    help="The human judgements, same format; a header 'system<TAB>rank' marks ranks "
    "(e.g. fixtures/gleu/human-napoles2015.tsv).")]
ColumnOpt = Annotated[Optional[str], typer.Option(
    "--column", metavar="NAME",
    help="The column (or JSON key) of SCORES to correlate, by its header name, e.g. f, "
    "precision, recall, c_i. Default: the metric's main score (F0.5 of score, GLEU, I of "
    "imeasure), or the only column of numbers.")]
HumanColumnOpt = Annotated[Optional[str], typer.Option(
    "--human-column", metavar="NAME",
    help="The column of HUMAN to correlate with (default: as for --column; 'rank').")]
ExcludeOpt = Annotated[Optional[list[str]], typer.Option(
    "--exclude", metavar="NAME",
    help="Leave this system out of both (repeat for more), e.g. INPUT; the table then "
    "shows the correlations with and without it.")]
FormatOpt = Annotated[TextOrJson, typer.Option(
    "--format", help="text (the columns read, then a table, 3 decimals) "
    "or json.")]


@app.command()
def correlate(
    scores: ScoresArg,
    human: HumanArg,
    column: ColumnOpt = None,
    human_column: HumanColumnOpt = None,
    exclude: ExcludeOpt = None,
    output_format: FormatOpt = TextOrJson.text,
) -> None:
    """Correlate a metric's system scores with human judgements: Pearson r, Spearman rho,
    Kendall tau-b (tie-corrected, as scipy.stats computes them).

    Systems are matched by name (the first field of each line; blank lines and '#' lines
    are ignored; a first line whose second field is not a number is a header naming the
    columns). The value is the column --column names, by default the metric's main score; a
    table with several columns of numbers and none known as the main score is refused.
    Values are scores, higher = better, unless the column is 'rank': ranks (1 = best)
    are negated before correlating, so a positive correlation always means that the metric
    agrees with the humans. Every system must be in both files (or be --exclude'd). The
    first line of the output names the columns read.

    Exit status: 0 done, 1 bad input data (malformed or unreadable files, systems that do
    not match), 2 bad usage (a column that is not there, or a table whose column must be
    named).
    """
    from gecformats.metrics.correlate import (correlate as correlate_scores, correlation_json,
                                              describe_columns, format_table, read_scores)

    excluded = list(dict.fromkeys(exclude or ()))
    everything = None
    with user_errors():
        metric_scores = read_scores(scores, column)
        human_scores = read_scores(human, human_column, option="--human-column")
        result = correlate_scores(metric_scores, human_scores, exclude=excluded)
        if excluded:
            try:
                everything = correlate_scores(metric_scores, human_scores)
            except GecFormatError as exc:  # e.g. an excluded system is in one file only
                typer.echo(f"gecformats: no row for all systems: {exc}", err=True)
    if output_format is TextOrJson.json:
        columns = {"metric": metric_scores.column, "human": human_scores.column}
        typer.echo(json_text(correlation_json(result, everything, columns),
                              ensure_ascii=False, indent=2))
    else:
        typer.echo(format_table(result, everything, excluded,
                                describe_columns(metric_scores, human_scores)))

"""``gecformats explain``: which setting makes a claimed score (the library is
:mod:`gecformats.explain`; this module parses and prints)."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Annotated, Any, Callable, Optional

import typer

from gecformats.cli import app, progress_bar, user_errors
from gecformats.cli.options import JobsOpt, MetricName, TextOrJson
from gecformats.cli.score import QuietOpt
from gecformats.explain.render import TOP
from gecformats.explain.search import DEFAULT_BUDGET

HypothesesArg = Annotated[list[str], typer.Argument(
    metavar="HYP...", help="System outputs (files: text, one tokenised sentence per line, "
    "or M2), named by their file names in --claim-table.")]
GoldOpt = Annotated[str, typer.Option("--gold", help="The gold file (M2, or another "
                                      "token-level format).")]
ClaimOpt = Annotated[Optional[str], typer.Option(
    "--claim", metavar="VALUE", help="The claimed value of one HYP: 0.3501, 35.01 or "
    "35.01% (above 1: a percentage); it matches a score within half a unit of its last "
    "decimal.")]
ClaimTableOpt = Annotated[Optional[str], typer.Option(
    "--claim-table", metavar="FILE", help="Claims of several HYP: SYSTEM<TAB>VALUE rows "
    "(or fields separated by spaces; a header row names the columns).")]
ClaimColumnOpt = Annotated[Optional[str], typer.Option(
    "--claim-column", metavar="NAME|N", help="With --claim-table: the column of the values, "
    "by its header's name or its number (systems: 1; default 2).")]
MetricOpt = Annotated[MetricName, typer.Option(
    "--metric", metavar="NAME", help="The metric of the claim: m2 (default), errant, gleu, "
    "imeasure, sentm2, senterrant, …")]
ColumnOpt = Annotated[Optional[str], typer.Option(
    "--column", metavar="NAME", help="The metric's column claimed (default its main one: "
    "f for m2; precision, recall …).")]
VariantOpt = Annotated[Optional[list[str]], typer.Option(
    "--gold-variant", metavar="FILE", help="Another gold to try instead of --gold (a gold "
    "with alternatives, …; repeat).")]
BudgetOpt = Annotated[int, typer.Option(
    "--budget", min=1, help="The most pipeline runs (each scores every HYP; settings that "
    "share statistics cost none).")]
PairsOpt = Annotated[bool, typer.Option(
    "--pairs/--no-pairs", help="After each factor alone, pairs of factors (with a claim).")]
FactorOpt = Annotated[Optional[list[str]], typer.Option(
    "--factor", metavar="NAME", help="Only this factor (repeat): gold, tokenization, unit, "
    "max-unchanged-words, ignore-whitespace-casing, extractor, gleu-version, iterations, "
    "absent, optimise, beta.")]
TopOpt = Annotated[int, typer.Option(
    "--top", min=0, help="Distinct scores shown per claim (0: all).")]
SaveVariantsOpt = Annotated[Optional[str], typer.Option(
    "--save-variants", metavar="DIR", help="Write the detokenized hypotheses there, so that "
    "their commands run (default: not kept; the commands name DIR).")]
FormatOpt = Annotated[TextOrJson, typer.Option("--format", help="text or json.")]


@app.command()
def explain(
    hypotheses: HypothesesArg, gold: GoldOpt, claim: ClaimOpt = None,
    claim_table: ClaimTableOpt = None, claim_column: ClaimColumnOpt = None,
    metric: MetricOpt = MetricName("m2"), column: ColumnOpt = None,
    gold_variant: VariantOpt = None, budget: BudgetOpt = DEFAULT_BUDGET, pairs: PairsOpt = True,
    factor: FactorOpt = None,
    top: TopOpt = TOP, save_variants: SaveVariantsOpt = None, jobs: JobsOpt = 1,
    output_format: FormatOpt = TextOrJson.text, quiet: QuietOpt = False,
) -> None:
    """Find the setting behind a claimed score: every setting known to move the metric
    (each annotator alone, --gold-variant golds, max_unchanged_words, beta, case and
    whitespace, re-tokenized or detokenized hypotheses, the extractor, GLEU's version,
    iterations and absent annotators, whole documents), one factor at a time, then pairs.

    Prints the settings nearest to the claim, each with its score and the `gecformats
    score` command that reproduces it, then how far each factor alone moves the score.
    Without a claim, the sensitivity alone.  Exit status: 0 explained (whether or not a
    setting matches), 1 bad input data, 2 bad usage.
    """
    from gecformats.explain import explain as run
    from gecformats.explain.render import format_text, to_dict
    from gecformats.io import json_text

    with user_errors():
        claims = _claims(hypotheses, claim, claim_table, claim_column)
        with ExitStack() as stack:
            bar: list[Callable[[int], None] | None] = [None]

            def planned(total: int) -> None:
                bar[0] = stack.enter_context(progress_bar(
                    total, enabled=not quiet and output_format is TextOrJson.text,
                    label="explaining"))

            def progress(n: int) -> None:
                if bar[0] is not None:
                    bar[0](n)

            explanation = run(hypotheses, gold, metric=metric.value, column=column,
                              claims=claims, variants=gold_variant or [], budget=budget,
                              pairs=pairs, factors=factor, jobs=jobs,
                              variants_dir=save_variants,
                              progress=progress, planned=planned)
    if output_format is TextOrJson.json:
        typer.echo(json_text(to_dict(explanation, top), ensure_ascii=False, indent=2))
    else:
        typer.echo(format_text(explanation, top))


def _claims(hypotheses: list[str], claim: str | None, claim_table: str | None,
            claim_column: str | None) -> list[Any]:
    """One claim (or None) per HYP, from --claim or --claim-table; a note per table row
    naming no HYP.  Raises UsageError for options that do not go together."""
    from gecformats.errors import UsageError
    from gecformats.explain import parse_claim
    from gecformats.explain.settings import match_claims, read_claim_table
    from gecformats.metrics.pipeline import system_names

    if claim is not None and claim_table is not None:
        raise UsageError("'--claim' / '--claim-table': give one")
    if claim_column is not None and claim_table is None:
        raise UsageError("'--claim-column' goes with --claim-table")
    if claim is not None:
        if len(hypotheses) != 1:
            raise UsageError("'--claim' is one HYP's value; for several, --claim-table")
        return [parse_claim(claim)]
    if claim_table is None:
        return [None] * len(hypotheses)
    claims, unknown = match_claims(system_names(hypotheses),
                                   read_claim_table(claim_table, claim_column))
    for name in unknown:
        typer.echo(f"gecformats: note: {claim_table}: no HYP named {name}: row left out",
                   err=True)
    return claims

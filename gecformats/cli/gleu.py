"""``gecformats gleu``: GLEU scores of system outputs, in the version named."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from gecformats.cli import app, user_errors
from gecformats.cli.options import FORMAT_HELP, Absent, GleuVersion, SentenceCheckOpt, TextOrJson
from gecformats.errors import GecFormatError
from gecformats.io import json_text
from gecformats.metrics.gleu import DEFAULT_VERSION, ORDER
from gecformats.metrics.gleu import format_text as format_gleu, gleu_files

HypothesesArg = Annotated[list[str], typer.Argument(
    metavar="HYP...", help="System outputs, one tokenised sentence per line ('-': standard input).")]
SourceOpt = Annotated[Optional[str], typer.Option(
    "--source", help="The source sentences, one tokenised sentence per line "
    "(optional with --gold: the gold's source sentences).")]
RefOpt = Annotated[list[str], typer.Option(
    "--ref", metavar="REF", help="A reference file, line-aligned with the source (repeat for several).")]
GoldOpt = Annotated[list[str], typer.Option(
    "--gold", metavar="GOLD", help="Generate the references from an M2 or I-measure XML gold "
    "file instead (repeatable): each annotator's corrected text, or with --mixed every "
    "combination of alternatives.")]
VersionOpt = Annotated[GleuVersion, typer.Option(
    "--version", help="2015: GLEU of the ACL 2015 paper (code 24c806a); "
    "2016: the corrected denominator (6ddf913); plus: GLEU+ with the brevity-penalty fix "
    "(50b5032); plus-2016: GLEU+ as first released (f0e2ee5); plus-py3: plus as its Python 2 code gives "
    "under Python 3, whose randint draws other references (JFLEG's eval/gleu.py today).")]
LambdaOpt = Annotated[Optional[float], typer.Option(
    "--lambda", help="Versions 2015 and 2016: weight of the penalty for n-grams left "
    "unchanged where a reference changed them (default 0).")]
OrderOpt = Annotated[int, typer.Option(
    "--order", help="Version 2015 only: highest n-gram order (its mean keeps 1/4).")]
IterationsOpt = Annotated[Optional[int], typer.Option(
    "--iterations", help="GLEU+: sampling iterations (default 500; 1 when every sentence has one reference).")]
MixedOpt = Annotated[bool, typer.Option(
    "--mixed", help="With --gold: all mixed references, not one per annotator.")]
AbsentOpt = Annotated[Absent, typer.Option(
    "--absent", help="With --gold: what an annotator missing from a sentence "
    "where another made edits gets: the source, or the first annotator's correction "
    "('first', right for the CoNLL-2014 combined file, which omits duplicate lists). "
    "auto: 'first' for a file that writes noop lines beside other annotators' edits (as "
    "that file), else 'source'; the note says which.")]
MaxReferencesOpt = Annotated[int, typer.Option(
    "--max-references", help="With --mixed: the most references used per sentence (reported).")]
GoldFormatOpt = Annotated[Optional[str], typer.Option("--gold-format", help=FORMAT_HELP)]
SentenceLevelOpt = Annotated[bool, typer.Option(
    "--sentence-level", help="Also score each sentence (GLEU+: the mean, deviation "
    "and interval over its references of the smoothed sentence GLEU).")]
CiOpt = Annotated[bool, typer.Option(
    "--ci", help="GLEU+, text output: add the standard deviation over iterations and the 95% interval.")]
FormatOpt = Annotated[TextOrJson, typer.Option(
    "--format", help="text (SYSTEM<TAB>SCORE lines and a '#' signature line) or json.")]


@app.command()
def gleu(
    hypotheses: HypothesesArg,
    source: SourceOpt = None,
    ref: RefOpt = [],
    gold: GoldOpt = [],
    version: VersionOpt = GleuVersion(DEFAULT_VERSION),
    lam: LambdaOpt = None,
    order: OrderOpt = ORDER,
    iterations: IterationsOpt = None,
    mixed: MixedOpt = False,
    absent: AbsentOpt = Absent("auto"),
    max_references: MaxReferencesOpt = 10_000,
    gold_format: GoldFormatOpt = None,
    sentence_level: SentenceLevelOpt = False,
    ci: CiOpt = False,
    output_format: FormatOpt = TextOrJson.text,
    no_sentence_check: SentenceCheckOpt = False,
) -> None:
    """Score system outputs with GLEU, in the version you name (the signature says which).

    Reproduces the original cnap/gec-ranking code of each version digit for digit.  Text
    output is SYSTEM<TAB>SCORE per hypothesis (the file's base name), ready for `gecformats
    correlate`; json is {"results": [{"hypothesis", "system", "score", ...}], "signature",
    "settings"}.  Notes on generated references go to standard error.  Exit status: 0
    scored, 1 bad input data (malformed, misaligned or unreadable), 2 bad usage.
    """
    if ci and not version.value.startswith("plus"):
        raise typer.BadParameter("only GLEU+ samples (use --version plus)", param_hint="'--ci'")
    with user_errors():
        try:
            run = gleu_files(source, hypotheses, refs=ref, gold=gold, mixed=mixed,
                             gold_format=gold_format, version=version.value, lam=lam,
                             order=order, iterations=iterations,
                             sentence_level=sentence_level, max_references=max_references,
                             absent=absent.value, check_sentences=not no_sentence_check)
        except GecFormatError:
            raise
        except ValueError as exc:
            typer.echo(f"gecformats: {exc}", err=True)
            raise typer.Exit(2) from None
    for note in run.notes:
        typer.echo(f"gecformats: note: {note}", err=True)
    if output_format is TextOrJson.json:
        typer.echo(json_text(run.to_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(format_gleu(run, ci=ci))

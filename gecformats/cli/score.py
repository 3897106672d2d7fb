"""``gecformats score``: MaxMatch (M2) and ERRANT scores of system outputs."""

from __future__ import annotations

import json
import math
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any, Optional

import maxmatch
import typer

from gecformats.cli import _engine, app, user_errors, with_progress
from gecformats.cli.options import (EngineName, HypTokenizer, Metric, ScoreFormat, SegmenterName,
                                    SegmentMode)
from gecformats.errors import GecFormatError, UsageError
from gecformats.io import atomic_output
from gecformats.metrics import significance
from gecformats.metrics.score import (ScoredSentence, Scoring, count_lines, describe_sentence,
                                      format_result, format_systems, score_systems,
                                      system_names, write_per_sentence)


@app.command()
def score(
    hypotheses: list[str] = typer.Argument(
        ..., metavar="HYP...", help="System outputs, one tokenised sentence per line (.gz read "
        "transparently; '-' for standard input); several are scored against the gold read once."
    ),
    gold: str = typer.Option(..., "--gold", help="The M2 gold file."),
    beta: float = typer.Option(0.5, help="Beta of F-beta (also drives the per-sentence annotator choice)."),
    max_unchanged_words: int = typer.Option(
        2, help="Largest number of unchanged source tokens inside one system edit."
    ),
    ignore_whitespace_casing: bool = typer.Option(
        False, "--ignore-whitespace-casing", help="Ignore system edits that only change case or spacing."
    ),
    output_format: ScoreFormat = typer.Option(
        ScoreFormat.text, "--format",
        help="text (for people), json, m2scorer (the NUS scorer's three lines, byte for byte; "
        "one system), tsv or latex (a table).",
    ),
    per_sentence: Optional[str] = typer.Option(
        None, "--per-sentence", metavar="FILE.tsv",
        help="Write the chosen annotator and its counts per sentence (TSV; '-' for standard output).",
    ),
    tokenize: Optional[HypTokenizer] = typer.Option(
        None, "--tokenize", help="en: the hypotheses are raw English; tokenize them like the "
        "CoNLL gold (nltk Penn Treebank words) before scoring (recorded in the signature). zh: "
        "raw Chinese against a gold made by `convert --tokenizer zh` (jieba, the same words)."
    ),
    per_type: bool = typer.Option(
        False, "--per-type", help="Also give, per gold error type, the gold edits, the matched "
        "ones and the recall (after the exact M2 alignment and annotator choice), and the "
        "proposed edits that matched nothing (text and json; one system)."
    ),
    strict: bool = typer.Option(
        False, "--strict", help="A hypothesis that looks tokenized unlike the gold (untokenized "
        "English, unsegmented Chinese), or an impossible score (a gold edit listed twice), is "
        "an error (exit 1), not a warning."
    ),
    metric: Metric = typer.Option(
        Metric.m2, "--metric", help="m2: MaxMatch, as the NUS m2scorer; errant: ERRANT's span "
        "metrics, as errant_compare (HYP is an M2 file, or text whose edits are extracted)."
    ),
    mode: Optional[str] = typer.Option(
        None, "--mode", metavar="MODE",
        help="m2: correction (the default: the M2 score), recognition (a system edit with a "
        "gold edit's exact span counts, whatever its correction) or detection (a system edit "
        "overlapping a gold edit counts), the HOO scores on the M2 lattice. errant: cs (the "
        "default), cse, ds or dt, as errant_compare's -cs -cse -ds -dt."
    ),
    single: bool = typer.Option(False, "--single", help="errant: only edits of at most one "
                                "token on each side (errant_compare -single)."),
    multi: bool = typer.Option(False, "--multi", help="errant: only edits of two or more tokens "
                               "on a side (errant_compare -multi)."),
    filters: Optional[list[str]] = typer.Option(
        None, "--filter", metavar="TYPE", help="errant: leave out edits of this type "
        "(repeatable; errant_compare -filt)."),
    cat: Optional[int] = typer.Option(
        None, "--cat", min=1, max=3, help="errant: per-category scores: 1 operation (R, M, U), "
        "2 main type (NOUN), 3 every type (errant_compare -cat); needs ERRANT's types (OP:CAT) "
        "in the gold."),
    bonus: bool = typer.Option(
        False, "--bonus", help="Credit optional gold edits (M2 OPTIONAL) that the system left "
        "alone, as HOO's scores with bonus."
    ),
    ci: bool = typer.Option(
        False, "--ci", help="Give 95% bootstrap intervals of P, R and F (sentences resampled "
        "with replacement; each resample redoes the scorer's annotator choice)."
    ),
    paired_bs: bool = typer.Option(
        False, "--paired-bs", help="Paired bootstrap resampling test of each system's F against "
        "the first system's (the baseline), as sacrebleu: a p value per system."
    ),
    paired_ar: bool = typer.Option(
        False, "--paired-ar", help="Paired approximate randomisation test against the first "
        "system, as sacrebleu: a p value per system."
    ),
    resamples: int = typer.Option(
        significance.DEFAULT_RESAMPLES, "--resamples", min=1,
        help="Bootstrap resamples for --ci and --paired-bs."
    ),
    trials: int = typer.Option(
        significance.DEFAULT_TRIALS, "--trials", min=1, help="Trials of --paired-ar."
    ),
    seed: int = typer.Option(
        significance.DEFAULT_SEED, "--seed", help="Seed of the resamples and trials (in the "
        "signature with the test and the number of resamples)."
    ),
    max_edges: int = typer.Option(
        maxmatch.DEFAULT_MAX_EDGES, "--max-edges", min=1,
        help="The largest edit lattice one sentence may have (about 310 bytes per edge); a "
        "sentence past it stops scoring with an error naming it, never a different score.",
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v",
        help="Show per sentence the source, hypothesis, system edits, gold edits and matches "
        "(on standard error with --format json).",
    ),
    segment: Optional[SegmentMode] = typer.Option(
        None, "--segment",
        help="project: HYPOTHESIS is raw Chinese text (NLPCC 2018); normalise it like the gold, "
        "keep the gold's tokens where it is unchanged and segment the changes like the gold "
        "(approximately the official PKUNLP segmentation).",
    ),
    segmenter: Optional[SegmenterName] = typer.Option(
        None, "--segmenter",
        help="With --segment project: segmenter for strings the gold never cut (zh: jieba, the "
        "default; char: one token per character).",
    ),
    segment_map: Optional[str] = typer.Option(
        None, "--segment-map", metavar="PAIRS",
        help="With --segment project: characters to replace, as pairs FROM TO ('' for none). "
        "Default: those of the NLPCC 2018 gold's normalisation (full-width colon, semicolon "
        "and brackets to ASCII) that the gold's sources show: TO present, FROM never.",
    ),
    engine: EngineName = typer.Option(
        EngineName.local, "--engine", help="local, or dask: the alignments on a Dask cluster "
        "(the annotator choice stays in order here; same result)."),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", metavar="ADDRESS", help="--engine dask: the scheduler's address; "
        "without it a local cluster is started and stopped."),
    workers: Optional[int] = typer.Option(
        None, "--workers", min=1, help="--engine dask without --scheduler: local workers."),
) -> None:
    """Score system outputs against an M2 gold file with MaxMatch (M2), exactly like the NUS m2scorer.

    Several outputs are scored against the gold read once, one row each (text, json: a list
    of the single-system objects, tsv, latex). Nothing is printed or written unless the whole input is scored (a line-count mismatch is
    found at the end). Exit status: 0 scored, 1 bad input data (malformed, misaligned or
    unreadable), 2 bad usage.
    """
    if not math.isfinite(beta) or beta <= 0:
        raise typer.BadParameter(f"must be a finite number > 0, not {beta}", param_hint="'--beta'")
    if max_unchanged_words < 0:
        raise typer.BadParameter(f"must be 0 or more, not {max_unchanged_words}",
                                 param_hint="'--max-unchanged-words'")
    if per_type and output_format not in (ScoreFormat.text, ScoreFormat.json):
        raise typer.BadParameter("goes with --format text or json", param_hint="'--per-type'")
    if tokenize is not None and segment is not None:
        raise typer.BadParameter("--tokenize and --segment exclude each other",
                                 param_hint="'--tokenize'")
    if per_sentence == "-" and output_format is not ScoreFormat.text:
        raise typer.BadParameter(f"standard output already carries the {output_format.value} "
                                 "score; write the per-sentence table to a file",
                                 param_hint="'--per-sentence -'")
    if metric is Metric.errant:
        _score_errant(hypotheses, gold, output_format, mode=mode or "cs", beta=beta,
                      single=single, multi=multi, filters=filters or [], cat=cat,
                      refused={"--bonus": bonus, "--per-type": per_type, "--ci": ci,
                               "--paired-bs": paired_bs, "--paired-ar": paired_ar,
                               "--per-sentence": per_sentence is not None,
                               "--verbose": verbose, "--tokenize": tokenize is not None,
                               "--segment": segment is not None,
                               "--ignore-whitespace-casing": ignore_whitespace_casing,
                               "--engine": engine is not EngineName.local})
        return
    for given, flag in ((single, "--single"), (multi, "--multi"), (bool(filters), "--filter"),
                        (cat is not None, "--cat"),
                        (output_format is ScoreFormat.errant, "--format errant")):
        if given:
            raise typer.BadParameter("goes with --metric errant", param_hint=f"'{flag}'")
    from gecformats.metrics.modes import MODES

    mode = mode or "correction"
    if mode not in MODES:
        raise typer.BadParameter(f"{mode!r} is not one of {', '.join(MODES)}",
                                 param_hint="'--mode'")
    if per_type and (mode != "correction" or bonus):
        raise typer.BadParameter("goes with the M2 score (no --mode, no --bonus)",
                                 param_hint="'--per-type'")
    if paired_bs and paired_ar:
        raise typer.BadParameter("choose one paired test", param_hint="'--paired-bs' / '--paired-ar'")
    test = "paired-bs" if paired_bs else "paired-ar" if paired_ar else None
    if test is not None and len(hypotheses) < 2:
        raise typer.BadParameter("compares systems with the first one (the baseline): give "
                                 "two or more", param_hint=f"'--{test}'")
    if output_format is ScoreFormat.m2scorer and (ci or test):
        raise typer.BadParameter("has no room for intervals or p values",
                                 param_hint="'--format m2scorer'")
    if engine is EngineName.local and (scheduler or workers):
        raise typer.BadParameter("needs --engine dask", param_hint="'--scheduler' / '--workers'")
    if engine is EngineName.dask and (mode != "correction" or bonus):
        raise typer.BadParameter("scores the M2 correction score only", param_hint="'--engine'")
    with user_errors(), _engine(engine, scheduler, workers, None) as running:
        resampling = dict(ci=ci, test=test, resamples=resamples, trials=trials, seed=seed)
        if len(hypotheses) > 1:
            for given, flag in ((per_sentence is not None, "--per-sentence"), (verbose, "--verbose"),
                                (per_type, "--per-type"),
                                (output_format is ScoreFormat.m2scorer, "--format m2scorer")):
                if given:
                    raise typer.BadParameter("is for one system; score the others separately",
                                             param_hint=f"'{flag}'")
            _score_systems(hypotheses, gold, output_format, strict, beta=beta,
                           max_unchanged_words=max_unchanged_words,
                           ignore_whitespace_casing=ignore_whitespace_casing, max_edges=max_edges,
                           segment=segment, segmenter=segmenter, segment_map=segment_map,
                           tokenize=tokenize.value if tokenize else None, resampling=resampling,
                           mode=mode, bonus=bonus, engine=running)
            return
        hypothesis = hypotheses[0]
        scoring = _scoring(hypothesis, gold, beta=beta, max_unchanged_words=max_unchanged_words,
                           ignore_whitespace_casing=ignore_whitespace_casing,
                           per_sentence=per_sentence is not None, segment=segment,
                           max_edges=max_edges, tokenize=tokenize.value if tokenize else None,
                           per_type=per_type, keep_counts=ci, mode=mode, bonus=bonus,
                           segmenter=segmenter, segment_map=segment_map, engine=running)
        with ExitStack() as stack:
            # the trace is held back until the counts are known to match (no partial output)
            trace = stack.enter_context(tempfile.SpooledTemporaryFile(8 << 20, "w+", encoding="utf-8")) if verbose else None
            with user_errors():
                for scored in _with_progress(scoring, hypothesis, enabled=not verbose):
                    if trace is not None:
                        trace.write(describe_sentence(scored))
                result = significance.resample([scoring.result()], **resampling)[0]
                _input_warnings([result], strict)
                if per_sentence is not None:
                    with atomic_output(per_sentence) as fh:
                        write_per_sentence(result, fh)
            if trace is not None:
                trace.seek(0)
                out = sys.stderr if output_format is ScoreFormat.json else sys.stdout
                for chunk in iter(lambda: trace.read(1 << 16), ""):
                    typer.echo(chunk, file=out, nl=False)
        if output_format in (ScoreFormat.tsv, ScoreFormat.latex):
            typer.echo(format_systems(system_names([hypothesis]), [result], output_format.value))
        else:
            typer.echo(format_result(result, output_format.value))
        for number in result.warnings[:1]:
            typer.echo(f"gecformats: {gold}: sentence {number} (and {len(result.warnings) - 1} more) has "
                       "annotator ids the NUS scorer may visit in another order", err=True)


def _score_errant(hypotheses: list[str], gold: str, output_format: ScoreFormat, *, mode: str,
                  beta: float, single: bool, multi: bool, filters: list[str],
                  cat: Optional[int], refused: dict[str, bool]) -> None:
    """The ``score --metric errant`` command: one system, as ``errant_compare``."""
    from gecformats.metrics import errant

    if mode not in errant.MODES:
        raise typer.BadParameter(f"{mode!r} is not one of {', '.join(errant.MODES)} "
                                 "with --metric errant", param_hint="'--mode'")
    if single and multi:
        raise typer.BadParameter("--single and --multi exclude each other",
                                 param_hint="'--single' / '--multi'")
    for flag, given in refused.items():
        if given:
            raise typer.BadParameter("goes with --metric m2", param_hint=f"'{flag}'")
    if len(hypotheses) > 1:
        raise typer.BadParameter("--metric errant scores one system at a time",
                                 param_hint="'HYP...'")
    if output_format not in (ScoreFormat.text, ScoreFormat.json, ScoreFormat.errant):
        raise typer.BadParameter("--metric errant gives text, json or errant",
                                 param_hint="'--format'")
    with user_errors():
        result = errant.errant_files(hypotheses[0], gold, mode=mode, beta=beta, single=single,
                                     multi=multi, filter=filters)
        problem = result.type_problem(cat) if cat else None
        if problem is not None:
            raise GecFormatError(problem[0], (hypotheses[0], gold)[problem[1]])
    if result.extracted:
        typer.echo(f"gecformats: warning: {errant.extraction_warning(hypotheses[0])}", err=True)
    if output_format is ScoreFormat.errant:
        typer.echo(errant.format_errant(result, cat), nl=False)
    elif output_format is ScoreFormat.json:
        typer.echo(json.dumps(result.to_dict(cat), ensure_ascii=False, indent=2))
    else:
        typer.echo(errant.format_text(result, cat))


def _input_warnings(results: list[Any], strict: bool) -> None:
    """Print why a hypothesis looks tokenized unlike the gold, and what makes the gold's
    number doubtful (each once); with ``strict``, stop (1) on the first of the former and on
    an impossible score."""
    for warning in (w for r in results for w in r.input_warnings):
        if strict:
            raise GecFormatError(warning)
        typer.echo(f"gecformats: warning: {warning}", err=True)
    shown: set[str] = set()
    for r in results:
        for warning in r.gold_warnings:
            if strict and r.impossible and "overstated" in warning:
                raise GecFormatError(warning)
            if warning not in shown:
                shown.add(warning)
                typer.echo(f"gecformats: warning: {warning}", err=True)


def _score_systems(hypotheses: list[str], gold: str, output_format: ScoreFormat, strict: bool, *,
                   segment: Optional[SegmentMode], segmenter: Optional[SegmenterName],
                   segment_map: Optional[str], resampling: dict[str, Any],
                   **options: object) -> None:
    """The ``score`` command for several systems: one table (with intervals and p values
    when ``resampling`` asks for them)."""
    first = _scoring(hypotheses[0], gold, segment=segment, segmenter=segmenter,
                     segment_map=segment_map, **options)
    with user_errors():
        try:
            results = score_systems(hypotheses, gold, segment=first.segment,
                                    segmenter=first.segmenter, segment_map=first.segment_map,
                                    keep_counts=bool(resampling["ci"] or resampling["test"]),
                                    **options)
        except GecFormatError:
            raise
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        _input_warnings(results, strict)
        results = significance.resample(results, **resampling)
    typer.echo(format_systems(system_names(hypotheses), results, output_format.value))


def _scoring(hypothesis: str, gold: str, *, segment: Optional[SegmentMode],
             segmenter: Optional[SegmenterName], segment_map: Optional[str],
             **options: object) -> Scoring:
    """The :class:`Scoring` of the ``score`` command; a bad segmentation option exits 2 with
    a usage message."""
    if segment is None and (segmenter is not None or segment_map is not None):
        raise typer.BadParameter("needs --segment project", param_hint="'--segmenter' / '--segment-map'")
    mapping = None
    if segment_map is not None:
        from gecformats.convert.project import parse_map

        try:
            mapping = parse_map(segment_map)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--segment-map'") from None
    return Scoring(hypothesis, gold, segment=segment.value if segment is not None else None,
                   segmenter=segmenter.value if segmenter is not None else "zh",
                   segment_map=mapping, **options)  # type: ignore[arg-type]


def _with_progress(scoring: Scoring, hypothesis: str, enabled: bool) -> Iterator[ScoredSentence]:
    """``scoring``'s sentences, with a progress bar on standard error if it is a terminal."""
    total = count_lines(hypothesis) if enabled and sys.stderr.isatty() else None
    if total is None:
        yield from scoring
        return
    yield from with_progress(scoring, total)

"""The ``score`` command's plumbing: options as given → a library request; progress, warnings
and printing (no scoring logic here: :mod:`gecformats.metrics.request` has it)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from gecformats.cli import _engine, echo, progress_bar, user_errors
from gecformats.errors import GecFormatError, UsageError
from gecformats.io import atomic_output, atomic_outputs

if TYPE_CHECKING:
    import typer


def _v(value: Any) -> Any:
    """An option's plain value (an Enum's, as the command gets it, or the string)."""
    return getattr(value, "value", value)


def given_options(ctx: typer.Context) -> dict[str, Any]:
    """Option name (without ``--``) → value, of the options given on the command line."""
    out: dict[str, Any] = {}
    for param in ctx.command.params:
        if not param.opts or not param.opts[0].startswith("--"):
            continue
        # by name: typer vendors click, whose ParameterSource is not click's
        source = getattr(ctx.get_parameter_source(param.name), "name", None)
        if source in ("COMMANDLINE", "ENVIRONMENT"):
            value = ctx.params[param.name]
            out[param.opts[0][2:]] = [_v(v) for v in value] if isinstance(value, (list, tuple)) else _v(value)
    return out


def run_command(params: dict[str, Any], given: dict[str, Any]) -> None:
    """Run ``score`` with its options' values as click parses them (``params``: each
    parameter's value, a choice as its name, a repeated option as a tuple) and the options
    given on the command line (``given``, :func:`given_options`); the body of both the typer
    command and the fast path (:mod:`gecformats.cli.fast`).

    Exits (:func:`~gecformats.cli.user_errors`) with status 1 for bad input, 2 for bad usage.
    """
    with user_errors():
        outputs = outputs_of(params)
        request = request_from(params, given)
        request.formats = [f for _, f in outputs]
    with user_errors(), _engine(params["engine"], params["scheduler"], params["workers"],
                                None) as running:
        run_request(request, params, running, params["quiet"], outputs,
                    stdout=not outputs or "format" in given)


def request_from(params: dict[str, Any], given: dict[str, Any]) -> Any:
    """The :class:`~gecformats.metrics.request.ScoreRequest` of the command's options
    (:func:`~gecformats.metrics.request.make_request`, after the refusals of what only the
    command line can ask for).

    Raises:
        UsageError: options that exclude each other, or that no chosen metric takes.
    """
    from gecformats.metrics.request import REQUEST_DEFAULTS, make_request

    if params["scheduler"] or params["workers"]:
        if _v(params["engine"]) == "local":
            raise UsageError("'--scheduler' / '--workers' needs --engine dask")
    table_out = not params.get("output") or "format" in given  # -o alone: nothing printed
    if params["per_sentence"] == "-" and _v(params["output_format"]) != "text" and table_out:
        raise UsageError(f"'--per-sentence -': standard output already carries the "
                         f"{_v(params['output_format'])} score; write the per-sentence "
                         "table to a file")
    values = {k: [_v(v) for v in params[k]] if k == "metric" and params[k] else _v(params[k])
              for k in REQUEST_DEFAULTS if k in params}
    return make_request(values, given)


def outputs_of(params: dict[str, Any]) -> list[tuple[str, str]]:
    """The ``-o`` files of ``score`` and the format of each (by suffix).

    Raises:
        UsageError: an unknown suffix, a file named twice, ``--verbose`` with ``-o``.
    """
    from gecformats.cli import output_files
    from gecformats.metrics.render import FORMATS

    outputs = output_files(params["output"], FORMATS)
    if outputs and params["verbose"]:
        raise UsageError("'--verbose' traces to standard output; with -o, score without it")
    named = [p for p, _ in outputs]
    if params["per_sentence"] not in (None, "-") and params["per_sentence"] in named:
        raise UsageError(f"-o {params['per_sentence']} is the --per-sentence file too")
    return outputs


TRACED = ("text", "json", "m2scorer")
"""The formats ``--verbose`` prints from its traced scoring; the tables (``tsv``, ``csv``,
``latex``) are the run's without ``--verbose``, byte for byte, the trace on standard error
(as with ``json``)."""


def run_request(request: Any, params: dict[str, Any], engine: Any, quiet: bool,
                outputs: Sequence[tuple[str, str]] = (), stdout: bool = True) -> None:
    """Run ``request`` and print what it gives (warnings on standard error): the scores on
    standard output (unless ``stdout`` is false) and in each ``outputs`` file (path,
    format), every rendering from the one run; the files and the ``--per-sentence`` table
    are written together or not at all."""
    from gecformats.metrics.request import run_score

    request.engine = engine
    if params["verbose"] and request.output_format in TRACED:
        _verbose(request, params)
        return
    with ExitStack() as stack:
        trace = None
        if params["verbose"]:  # a table: the trace first (held back), then the plain run
            trace = stack.enter_context(_spooled())
            _trace(request, params, trace)
        request.check()
        with progress_bar(lambda: _total(request),
                          enabled=not quiet and request.output_format != "json") as progress:
            outcome = run_score(request, progress)
        for note in outcome.notes:
            echo(f"gecformats: note: {note}", err=True)
        for warning in outcome.warnings:
            echo(f"gecformats: warning: {warning}", err=True)
        texts = [outcome.render(fmt) for _, fmt in outputs]
        per_sentence = [params["per_sentence"]] if params["per_sentence"] not in (None, "-") \
            else []
        with atomic_outputs([p for p, _ in outputs] + per_sentence) as files:
            for fh, text in zip(files, texts):
                fh.write(text + "\n")  # as printed
            if per_sentence:
                outcome.write_per_sentence(files[-1])
        if trace is not None:
            _copy(trace, sys.stderr)
    if stdout:
        echo(outcome.text)
    if params["per_sentence"] == "-":
        outcome.write_per_sentence(sys.stdout)
    _nonstandard(request, outcome)


def _total(request: Any) -> int | None:
    """The progress bar's length: sentence × system × metric steps, then resamples and
    trials; ``None`` when the number of sentences cannot be known beforehand."""
    from gecformats.metrics.score import count_lines

    lines = count_lines(request.hypotheses[0]) if request.hypotheses[0] != "-" else None
    if lines is None:
        return None
    systems, metrics = len(request.hypotheses), len(request.metrics)
    total = lines * systems * metrics
    settings = request.resampling
    if settings is not None and settings.bootstrapped:
        total += settings.resamples * systems * metrics
    if settings is not None and settings.test == "paired-ar":
        total += settings.trials * (systems - 1) * metrics
    return total


def _nonstandard(request: Any, outcome: Any) -> None:
    """The NUS scorer's visiting order of unusual annotator ids (spec §2.6), once."""
    run = outcome.evaluation
    for m, metric in enumerate(run.metrics):
        if metric.name != "m2":
            continue
        numbers = run.totals[m][0].extra.get("nonstandard", ())
        if numbers:
            echo(f"gecformats: {request.gold}: sentence {numbers[0]} (and "
                       f"{len(numbers) - 1} more) has annotator ids the NUS scorer may visit "
                       "in another order", err=True)


def _spooled() -> Any:
    """Where a trace is held back until the counts are known to match (no partial output)."""
    import tempfile

    return tempfile.SpooledTemporaryFile(8 << 20, "w+", encoding="utf-8")


def _copy(trace: Any, out: Any) -> None:
    trace.seek(0)
    for chunk in iter(lambda: trace.read(1 << 16), ""):
        echo(chunk, file=out, nl=False)


def _trace(request: Any, params: dict[str, Any], trace: Any) -> Any:
    """``--verbose``'s trace of one M2 system, sentence by sentence, written to ``trace``;
    returns the :class:`~gecformats.metrics.score.Scoring` that made it (its result).

    Raises:
        UsageError: several systems, another metric, a gold given as text references.
    """
    from gecformats.metrics.score import Scoring, describe_sentence

    metrics = request.metrics
    if len(request.hypotheses) != 1:
        raise UsageError("'--verbose' is for one system; score the others separately")
    if [m.name for m in metrics] != ["m2"]:
        raise UsageError("'--verbose' traces --metric m2 alone")
    if request.refs:
        raise UsageError("'--verbose' traces an M2 gold (--gold); with --source and --ref, "
                         "score without it")
    if request.annotator is not None:
        raise UsageError("'--verbose' traces the whole gold; with --annotator, score without "
                         "it")
    request.check()
    m = metrics[0]
    plain = m.mode == "correction" and not m.bonus
    scoring = Scoring(request.hypotheses[0], request.gold, beta=m.beta,
                      max_unchanged_words=m.max_unchanged_words,
                      ignore_whitespace_casing=m.ignore_whitespace_casing,
                      per_sentence=params["per_sentence"] is not None,
                      segment=request.segment, segmenter=request.segmenter,
                      segment_map=request.segment_map, max_edges=m.max_edges,
                      tokenize=request.tokenize, per_type=m.per_type, mode=m.mode, bonus=m.bonus,
                      keep_counts=request.resampling.ci,
                      engine=request.engine if plain else None,
                      check_sentences=request.check_sentences)
    for scored in scoring:
        trace.write(describe_sentence(scored))
    return scoring


def _verbose(request: Any, params: dict[str, Any]) -> None:
    """``--verbose`` with a :data:`TRACED` format: one M2 system, traced sentence by
    sentence (:class:`~gecformats.metrics.score.Scoring`), its result printed after."""
    from dataclasses import replace

    from gecformats.metrics.inputs import gold_field
    from gecformats.metrics.score import format_result

    settings = request.resampling
    out = sys.stderr if request.output_format == "json" else sys.stdout
    with ExitStack() as stack:
        trace = stack.enter_context(_spooled())
        result = _trace(request, params, trace).result()
        inputs = f"|{gold_field(request.gold)}" + "|sentences:unchecked" * (
            not request.check_sentences)
        result = replace(result, signature=replace(result.signature, inputs=inputs))
        if settings.ci:  # one system: no paired test (ScoreRequest.check)
            from gecformats.metrics import significance

            result = significance.resample([result], ci=True, resamples=settings.resamples,
                                           seed=settings.seed, level=settings.level)[0]
        for warning in (*result.input_warnings, *result.gold_warnings):
            if request.strict:
                raise GecFormatError(warning)
            echo(f"gecformats: warning: {warning}", err=True)
        if params["per_sentence"] is not None:
            from gecformats.metrics.score import write_per_sentence

            with atomic_output(params["per_sentence"]) as fh:
                write_per_sentence(result, fh)
        _copy(trace, out)
    echo(format_result(result, request.output_format))

"""What ``gecformats score`` asks for, carried out: metrics built from their options, the
pipeline run, intervals and tests, and the outputs — the command line only parses and prints.

Each metric declares the options it takes (:attr:`Metric.options`); :func:`build_metrics`
refuses an option that no chosen metric takes, naming the metrics that would, so no
command refuses combinations by hand.  One metric alone keeps its own established outputs
(M2: the NUS scorer's numbers in gecformats' text, JSON, ``m2scorer``, TSV and LaTeX
layouts; ERRANT: ``errant_compare``'s); several metrics make one table
(:class:`~gecformats.metrics.render.Table`).

>>> sorted(METRICS)
['cleme', 'cleme2', 'errant', 'gleu', 'gotoscorer', 'green', 'imeasure', 'm2', 'senterrant', 'sentm2']
>>> build_metrics(["m2"], {"beta": 1.0}, {"beta"})[0].beta
1.0
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import IO, Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.metrics import METRICS as METRICS  # the registry, named here as before
from gecformats.metrics.base import Metric

PIPELINE_OPTIONS = frozenset({
    "gold", "source", "ref", "gold-format", "metric", "format", "per-sentence", "tokenize", "segment", "segmenter",
    "segment-map", "strict", "no-sentence-check", "align", "unit", "annotator", "ci", "paired-bs", "paired-ar", "resamples", "trials", "seed",
    "correction", "jobs", "engine", "scheduler", "workers", "quiet", "verbose", "output"})
"""Options every metric takes (the pipeline's, the statistics', the output's)."""


def metric_class(name: str) -> type[Metric]:
    """The class of metric ``name``.

    Raises:
        UsageError: an unknown name.
    """
    if name not in METRICS:
        raise UsageError(f"unknown metric {name!r} (known: {', '.join(METRICS)})")
    module, cls = METRICS[name].split(":")
    return getattr(importlib.import_module(module), cls)  # type: ignore[no-any-return]


def takers(option: str) -> list[str]:
    """The metrics that take ``option``."""
    out = []
    for name in METRICS:
        try:
            if option in metric_class(name).options:
                out.append(name)
        except (ImportError, AttributeError):  # a metric this installation lacks
            continue
    return out


_HINTS = {"mode": " (ERRANT's modes cs, cse, ds, dt are --errant-mode)",
          "absent": " or --annotator"}
"""What the refusal of an option no chosen metric takes adds, where a like-named option is
meant."""


def build_metrics(names: Sequence[str], options: dict[str, Any], given: Iterable[str],
                  accepted: Iterable[str] = (), warnings: list[str] | None = None
                  ) -> list[Metric]:
    """The metrics ``names`` (``m2`` when empty), each built from the options it takes.

    Args:
        names: ``--metric`` values, in the order the table shows them.
        options: option name (as on the command line, without ``--``) → value.
        given: the options the user gave (the others keep each metric's own default).
        accepted: options this request takes whatever the metrics (``--extractor`` with
            text references: it makes the gold); a metric that declares one still gets it.
        warnings: when given, gets one warning per option given that a chosen metric does
            not follow though a user would expect it to (:attr:`Metric.declines`: ``--beta``
            beside GoToScorer, whose F is F0.5), naming the metric and why.

    Raises:
        UsageError: an unknown or repeated metric, an option no chosen metric takes (naming
            those that would), an option value a metric refuses.
    """
    names = list(names) or ["m2"]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise UsageError(f"--metric {sorted(repeated)[0]} is given twice")
    classes = [metric_class(n) for n in names]
    for option in sorted(set(given) - PIPELINE_OPTIONS - set(accepted)):
        if not any(option in cls.options for cls in classes):
            wanted = " or ".join(f"--metric {n}" for n in takers(option)) or "no metric"
            raise UsageError(f"--{option} goes with {wanted}{_HINTS.get(option, '')}")
        for name, cls in zip(names, classes):
            if option in cls.declines and warnings is not None:
                users = ", ".join(n for n, c in zip(names, classes) if option in c.options)
                warnings.append(f"--{option} applies to {users}, not to --metric {name}: "
                                f"{cls.declines[option]}")
    metrics = []
    for name, cls in zip(names, classes):
        mine = {k: v for k, v in options.items() if k in cls.options and k in set(given)}
        try:
            metrics.append(cls.from_options(mine))
        except ValueError as exc:
            text = str(exc)
            found = [(min(i for i in (text.find(o), text.find(o.replace("-", "_"))) if i >= 0), o)
                     for o in mine if o in text or o.replace("-", "_") in text]
            named = min(found)[1] if found else None  # the option the message names first
            where = f"Invalid value for '--{named}'" if named else f"--metric {name}"
            raise UsageError(f"{where}: {exc}") from None
    return metrics


REQUEST_DEFAULTS: dict[str, Any] = {
    "hypotheses": [], "gold": None, "source": None, "ref": None, "gold_format": None,
    "metric": None, "output_format": "text", "tokenize": None, "segment": None,
    "segmenter": None, "segment_map": None, "strict": False, "no_sentence_check": False,
    "align": False, "unit": None, "annotator": None, "absent": None, "ci": False,
    "paired_bs": False, "paired_ar": False,
    "resamples": 1000, "trials": 10000, "seed": 12345, "correction": None, "jobs": 1,
    "extractor": None, "spacy_model": None}
"""The parameters of :func:`make_request` (the ``score`` command's, by their Python names)
and their defaults, the command line's."""


def make_request(params: Mapping[str, Any], given: Mapping[str, Any]) -> ScoreRequest:
    """The :class:`ScoreRequest` of ``score``'s options: the one way the command line, the
    report and :func:`gecformats.score` make a request.

    Args:
        params: the parameters of :data:`REQUEST_DEFAULTS` (missing ones take its defaults;
            enumerations as their string values; others are ignored).
        given: the options the user gave, by their command-line names without ``--``
            (``beta``, ``errant-mode`` …) → value: the metrics' options are taken from here
            (the others keep each metric's own default).

    Raises:
        UsageError: options that exclude each other, values out of range, options that no
            chosen metric takes.
    """
    from gecformats.metrics.statistics import Resampling

    params = {**REQUEST_DEFAULTS, **params}
    if params["paired_bs"] and params["paired_ar"]:
        raise UsageError("'--paired-bs' / '--paired-ar': choose one paired test")
    if params["segment"] is None and (params["segmenter"] or params["segment_map"] is not None):
        raise UsageError("'--segmenter' / '--segment-map' needs --segment project")
    for name, least in (("resamples", 1), ("trials", 1), ("seed", 0), ("jobs", 1)):
        if not isinstance(params[name], int) or params[name] < least:
            raise UsageError(f"Invalid value for '--{name}': {params[name]!r} is not an "
                             f"integer of at least {least}")
    gold, refs = _gold(params)
    options = dict(given)
    if "filter" in options:
        options["filter"] = tuple(options["filter"])
    # with --ref the extractor makes the gold too: every metric takes it then; with
    # --annotator, --absent says what its absent sentences get
    shared = {"extractor", "spacy-model"} if refs else set()
    if params["annotator"] is not None:
        shared.add("absent")
    declined: list[str] = []
    metrics = build_metrics(list(params["metric"] or []), options, list(options), shared,
                            declined)
    for metric in metrics:  # those that read the gold themselves (GLEU's first pass)
        if hasattr(metric, "gold_format"):
            metric.gold_format = params["gold_format"]
    test = "paired-bs" if params["paired_bs"] else "paired-ar" if params["paired_ar"] else None
    try:
        resampling = Resampling(params["ci"], test, params["resamples"], params["trials"],
                                params["seed"], correction=params["correction"])
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    segment_map = None
    if params["segment_map"] is not None:
        from gecformats.convert.project import parse_map

        try:
            segment_map = parse_map(params["segment_map"])
        except ValueError as exc:
            raise UsageError(f"'--segment-map': {exc}") from None
    return ScoreRequest(
        list(params["hypotheses"]), gold, metrics, params["output_format"],
        params["gold_format"], params["tokenize"], params["segment"],
        params["segmenter"] or "zh", segment_map, resampling, params["strict"], params["jobs"],
        refs=refs, extractor=params["extractor"] or "lcs", spacy_model=params["spacy_model"],
        check_sentences=not params["no_sentence_check"], option_warnings=declined,
        align=params["align"], unit=params["unit"], annotator=params["annotator"],
        absent=params["absent"] or "auto")


def _gold(params: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The gold file, or the source file and the references as text.

    Raises:
        UsageError: neither or both, --ref without --source or the reverse, --gold-format
            with text references.
    """
    gold, source, refs = params["gold"], params["source"], list(params["ref"] or [])
    if gold is not None and (source is not None or refs):
        raise UsageError("'--gold' / '--source' and '--ref': give the gold as a file of edits "
                         "or as text references, not both")
    if gold is not None:
        return gold, []
    if source is None and not refs:
        raise UsageError("Missing option '--gold' (or '--source' with '--ref')")
    if source is None or not refs:
        raise UsageError("'--source' and '--ref' go together: the source sentences and one "
                         "or more corrected files")
    if params["gold_format"] is not None:
        raise UsageError("'--gold-format' is for --gold; --source and --ref are text")
    return source, refs


@dataclass
class ScoreRequest:
    """One ``score`` call: inputs, metrics, pipeline options, statistics and output."""

    hypotheses: list[str]
    gold: str
    metrics: list[Metric]
    output_format: str = "text"
    gold_format: str | None = None
    tokenize: str | None = None
    segment: str | None = None
    segmenter: str = "zh"
    segment_map: dict[str, str] | None = None
    resampling: Any = None
    strict: bool = False
    jobs: int = 1
    engine: Any = None
    names: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    """Reference files given as text: ``gold`` is then their source file, and the gold's
    edits are extracted with ``extractor`` (:mod:`gecformats.metrics.refgold`)."""
    extractor: str = "lcs"
    spacy_model: str | None = None
    check_sentences: bool = True
    """Refuse hypothesis files that are not the gold's sentences (``--no-sentence-check``:
    off)."""
    align: bool = False
    """Re-segment outputs whose lines are not the gold's sentences onto them first
    (``--align``)."""
    unit: str | None = None
    """``document``: each document of the gold one unit; ``sentence``: as ``align``."""
    annotator: int | None = None
    """Score against this annotator of the gold alone (``--annotator``)."""
    absent: str = "auto"
    """With ``annotator``: what a sentence without it gets (``--absent``)."""
    option_warnings: list[str] = field(default_factory=list)
    """Options given that a chosen metric does not follow (:func:`build_metrics`)."""
    formats: list[str] = field(default_factory=list)
    """Other formats the outcome will be rendered in (``score -o``), checked up front with
    ``output_format``."""

    def check(self) -> None:
        """Refuse what the outputs cannot show.

        Raises:
            UsageError: a format that cannot show the run (:func:`check_format`: the
                ``m2scorer``/``errant`` formats with several systems, another metric or
                resampling); a paired test with one system.
        """
        settings = self.resampling
        for fmt in dict.fromkeys([self.output_format, *self.formats]):
            check_format(fmt, self.metrics, len(self.hypotheses), settings)
        if settings is not None and settings.test and len(self.hypotheses) < 2:
            raise UsageError(f"--{settings.test} compares systems with the first one (the "
                             "baseline): give two or more")


@dataclass
class ScoreOutcome:
    """What one scoring run gives: the evaluation and its intervals and tests, rendered in
    any output format without scoring again (:meth:`render`; :attr:`text` in the request's
    own format), the warnings (each once) and the per-sentence rows writer."""

    warnings: list[str]
    evaluation: Any
    significance: list[list[Any]] | None = None
    resampling: Any = None
    output_format: str = "text"

    @property
    def text(self) -> str:
        """The scores in the request's output format (what ``score`` prints)."""
        return self.render(self.output_format)

    def render(self, output_format: str) -> str:
        """The scores in ``output_format`` (:func:`render`), without a final newline.

        Raises:
            UsageError: a format that cannot show this run (:func:`check_format`).
        """
        check_format(output_format, self.evaluation.metrics, len(self.evaluation.paths),
                     self.resampling)
        return render(self.evaluation, self.significance, output_format, self.resampling)

    def signatures(self) -> list[str]:
        """The signatures the text rendering prints, one per metric (:func:`signatures`)."""
        return signatures(self.evaluation, self.significance, self.resampling)

    @property
    def notes(self) -> list[str]:
        """What was done to the inputs (printed as notes, not warnings): each output
        re-segmented by ``--align``, what became of its lines."""
        return list(getattr(self.evaluation, "info", []))

    def write_per_sentence(self, out: IO[str]) -> None:
        """The per-sentence table: ``sentence system metric`` and each metric's fields of
        the chosen candidate (one M2 system alone: the established ``sentence annotator
        correct proposed gold`` table)."""
        run = self.evaluation
        alone = [m.name for m in run.metrics] == ["m2"] and len(run.paths) == 1
        if alone:
            out.write("sentence\tannotator\tcorrect\tproposed\tgold\n")
        else:
            out.write("sentence\tsystem\tmetric\tfields\n")
        for m, metric in enumerate(run.metrics):
            for s, name in enumerate(run.names):
                for i, fields in enumerate(sentence_fields(run, m, s)):
                    if alone:
                        values = "\t".join(str(v) for v in fields.values())
                        out.write(f"{i + 1}\t{values}\n")
                    else:
                        cells = " ".join(f"{k}={v}" for k, v in fields.items())
                        out.write(f"{i + 1}\t{name}\t{metric.name}\t{cells}\n")


def sentence_fields(run: Any, m: int, s: int) -> Iterator[dict[str, Any]]:
    """Per sentence of system ``s``, metric ``m``'s fields of the chosen candidate
    (:meth:`Metric.sentence_fields`: the columns of ``--per-sentence``)."""
    metric = run.metrics[m]
    totals = run.totals[m][s]
    choices = totals.choices
    describe = metric.for_totals(totals)
    for i, st in enumerate(run.stats[m][s]):
        yield describe.sentence_fields(st, choices[i] if i < len(choices) else 0)


def run_score(request: ScoreRequest, progress: Callable[[int], None] | None = None
              ) -> ScoreOutcome:
    """Carry out ``request``: evaluate, resample; the outcome renders the scores in any
    format (:meth:`ScoreOutcome.render`), each from this one run.

    Raises:
        GecFormatError: bad input (located), or with ``strict`` an input warning.
        UsageError: see :meth:`ScoreRequest.check`.
    """
    from gecformats.metrics import statistics
    from gecformats.metrics.pipeline import evaluate

    request.check()
    with ExitStack() as stack:
        gold, origin = request.gold, None
        if request.refs:
            from gecformats.metrics.refgold import extracted_gold

            gold, origin = stack.enter_context(extracted_gold(
                request.gold, request.refs, request.extractor,
                spacy_model=request.spacy_model, tokenize=request.tokenize, jobs=request.jobs))
        run = evaluate(request.hypotheses, gold, request.metrics,
                       gold_format=None if request.refs else request.gold_format,
                       tokenize=request.tokenize, segment=request.segment,
                       segmenter=request.segmenter, segment_map=request.segment_map,
                       jobs=request.jobs, engine=request.engine, progress=progress,
                       gold_name=request.gold if request.refs else None,
                       check_sentences=request.check_sentences, align=request.align,
                       unit=request.unit, annotator=request.annotator,
                       absent=request.absent)
        run.gold_origin = origin
    warnings = list(request.option_warnings) + list(run.warnings) + list(run.notes)
    if request.strict and run.warnings:
        raise GecFormatError(run.warnings[0])
    settings = request.resampling
    significance = None
    if settings is not None and settings.active:
        significance = [statistics.resample(metric, run.stats[m],
                                            [t.values for t in run.totals[m]], settings, progress)
                        for m, metric in enumerate(run.metrics)]
    return ScoreOutcome(list(dict.fromkeys(warnings)), run, significance, settings,
                        request.output_format)


OUTPUT_FORMATS = ("text", "json", "tsv", "csv", "latex", "m2scorer", "errant")
"""Every format of ``score``'s output: the tables (:data:`gecformats.metrics.render.FORMATS`)
and the two single-system layouts of the originals."""


def check_format(output_format: str, metrics: Sequence[Metric], systems: int,
                 resampling: Any = None) -> None:
    """Refuse an output format that cannot show a run of ``metrics`` on ``systems``
    systems with ``resampling``.

    Raises:
        UsageError: an unknown format; ``m2scorer``/``errant`` with several systems, another
            metric or resampling; ``--per-type`` in a format other than text or JSON.
    """
    if output_format not in OUTPUT_FORMATS:
        raise UsageError(f"unknown score format {output_format!r} (known: "
                         f"{', '.join(OUTPUT_FORMATS)})")
    names = [m.name for m in metrics]
    single = {"m2scorer": "m2", "errant": "errant"}.get(output_format)
    if single is not None:
        if systems != 1:
            raise UsageError(f"'--format {output_format}' is for one system; score "
                             "the others separately")
        if names != [single]:
            raise UsageError(f"'--format {output_format}' shows --metric {single} alone")
        if resampling is not None and resampling.active:
            raise UsageError(f"--format {output_format} has no room for intervals or "
                             "p values")
    if any(getattr(m, "per_type", False) for m in metrics) \
            and output_format not in ("text", "json"):
        raise UsageError("'--per-type' goes with --format text or json (-o FILE.txt or "
                         "FILE.json)")


def render(run: Any, significance: list[list[Any]] | None, output_format: str,
           resampling: Any = None) -> str:
    """The scores of one run in ``output_format``, without a final newline: one metric
    alone keeps its established layouts (M2: the NUS scorer's numbers in gecformats' text,
    JSON, ``m2scorer``, TSV and LaTeX layouts; ERRANT on one system: ``errant_compare``'s),
    several metrics make one :class:`~gecformats.metrics.render.Table`.  A function of the
    run alone: every format of one run is rendered without scoring again.

    Args:
        run: the :class:`~gecformats.metrics.pipeline.Evaluation`.
        significance: per metric and system, the intervals and p values, or ``None``.
        output_format: one of :data:`OUTPUT_FORMATS` (checked by :func:`check_format`).
        resampling: the :class:`~gecformats.metrics.statistics.Resampling` settings.
    """
    from gecformats.metrics.render import Table

    if _m2_alone(run, output_format):
        return _render_m2(run, significance, resampling, output_format)
    if _errant_alone(run, significance, output_format):
        return _render_errant(run, output_format)
    return Table(run, significance, resampling).render(output_format)


def signatures(run: Any, significance: list[list[Any]] | None = None,
               resampling: Any = None) -> list[str]:
    """The signatures the text rendering of a run prints (:func:`render`), one per metric."""
    from gecformats.metrics.render import Table

    if _m2_alone(run, "text"):
        return [str(m2_results(run, significance, resampling)[0].signature)]
    if _errant_alone(run, significance, "text"):
        return [_errant_result(run).signature]
    return Table(run, significance, resampling).signatures()


def _m2_alone(run: Any, output_format: str) -> bool:
    return [m.name for m in run.metrics] == ["m2"] and output_format != "csv"


def _errant_alone(run: Any, significance: Any, output_format: str) -> bool:
    return [m.name for m in run.metrics] == ["errant"] and len(run.paths) == 1 \
        and output_format in ("text", "json", "errant") and significance is None


def m2_results(run: Any, significance: list[list[Any]] | None = None, resampling: Any = None,
               m: int = 0) -> list[Any]:
    """The M2 metric's results as :class:`~gecformats.metrics.score.ScoreResult` s (its
    established renderings)."""
    from maxmatch import SentenceChoice

    from gecformats.metrics.score import ScoreResult, Signature

    metric = run.metrics[m]
    out = []
    for s, totals in enumerate(run.totals[m]):
        stats = run.stats[m][s]
        mode = None if metric.mode == "correction" and not metric.bonus else \
            metric.mode + "+bonus" * metric.bonus
        resampled = resampling.signature(len(run.paths)) if resampling is not None \
            and resampling.active else None
        signature = Signature(metric.beta, metric.max_unchanged_words,
                              metric.ignore_whitespace_casing, totals.extra.get("annotators", 1),
                              segment=run.preprocess, mode=mode, resampling=resampled,
                              gold=run.gold_origin, inputs=run.input_fields() or None)
        choices = tuple(SentenceChoice(st.annotators[k] if k >= 0 else -1,
                                       *(st.counts[k] if k >= 0 else (0, 0, 0)))
                        for st, k in zip(stats, totals.choices))
        sig = significance[m][s] if significance is not None else None
        out.append(ScoreResult(
            *totals.values, metric.beta, totals.counts["correct"], totals.counts["proposed"],
            totals.counts["gold"], len(stats), signature, choices,
            totals.extra.get("nonstandard", ()), per_type=totals.extra.get("per_type"),
            ci=sig.ci if sig is not None else None,
            p_value=sig.p_value if sig is not None else None,
            p_bound=sig.p_bound if sig is not None else False,
            impossible=totals.extra.get("impossible", (0, 0))[0]))
    return out


def _render_m2(run: Any, significance: list[list[Any]] | None, resampling: Any,
               fmt: str) -> str:
    from gecformats.metrics.score import format_result, format_systems

    results = m2_results(run, significance, resampling)
    if len(results) == 1 and fmt in ("text", "json", "m2scorer"):
        return format_result(results[0], fmt)
    return format_systems(run.names, results, fmt)


def _errant_result(run: Any) -> Any:
    """ERRANT's result of the run's one system (its established renderings)."""
    from gecformats.metrics import errant

    metric = run.metrics[0]
    totals = run.totals[0][0]
    if metric.cat is not None:  # the raw types, which the renderings group at metric.cat
        every = errant.ErrantMetric(metric.beta, metric.mode, metric.single, metric.multi,
                                    metric.filter, cat=3)
        totals = replace(totals, extra={**totals.extra,
                                        "categories": every.corpus(run.stats[0][0]).extra["categories"]})
    result = errant.ErrantResult(totals.counts["tp"], totals.counts["fp"], totals.counts["fn"],
                                 metric.beta, metric.mode, run.sentences,
                                 totals.extra.get("categories", {}),
                                 totals.extra.get("signature", metric.signature())
                                 + (f"|gold:{run.gold_origin}" if run.gold_origin else "")
                                 + run.input_fields(),
                                 totals.extra.get("extracted", False),
                                 totals.extra.get("kinds", ({}, {})))
    return result


def _render_errant(run: Any, fmt: str) -> str:
    from gecformats.io import json_text

    from gecformats.metrics import errant

    metric = run.metrics[0]
    result = _errant_result(run)
    if fmt == "errant":
        return errant.format_errant(result, metric.cat)[:-1]  # the command adds it back
    if fmt == "json":
        return json_text(result.to_dict(metric.cat), ensure_ascii=False, indent=2)
    return errant.format_text(result, metric.cat)

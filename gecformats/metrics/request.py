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
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import IO, Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.metrics import METRICS as METRICS  # the registry, named here as before
from gecformats.metrics.base import Metric

PIPELINE_OPTIONS = frozenset({
    "gold", "source", "ref", "gold-format", "metric", "format", "per-sentence", "tokenize", "segment", "segmenter",
    "segment-map", "strict", "no-sentence-check", "align", "unit", "annotator", "ci", "paired-bs", "paired-ar", "resamples", "trials", "seed",
    "correction", "jobs", "engine", "scheduler", "workers", "quiet", "verbose"})
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

    def check(self) -> None:
        """Refuse what the outputs cannot show.

        Raises:
            UsageError: ``m2scorer``/``errant`` formats with several systems, another
                metric or resampling; a paired test with one system.
        """
        names = [m.name for m in self.metrics]
        settings = self.resampling
        single = {"m2scorer": "m2", "errant": "errant"}.get(self.output_format)
        if single is not None:
            if len(self.hypotheses) != 1:
                raise UsageError(f"'--format {self.output_format}' is for one system; score "
                                 "the others separately")
            if names != [single]:
                raise UsageError(f"'--format {self.output_format}' shows --metric {single} "
                                 "alone")
            if settings is not None and settings.active:
                raise UsageError(f"--format {self.output_format} has no room for intervals or "
                                 "p values")
        if any(getattr(m, "per_type", False) for m in self.metrics) \
                and self.output_format not in ("text", "json"):
            raise UsageError("'--per-type' goes with --format text or json")
        if settings is not None and settings.test and len(self.hypotheses) < 2:
            raise UsageError(f"--{settings.test} compares systems with the first one (the "
                             "baseline): give two or more")


@dataclass
class ScoreOutcome:
    """What the command prints: ``text`` on standard output, ``warnings`` on standard
    error (each once), and the per-sentence rows writer."""

    text: str
    warnings: list[str]
    evaluation: Any
    significance: list[list[Any]] | None = None

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
        if [m.name for m in run.metrics] == ["m2"] and len(run.paths) == 1:
            out.write("sentence\tannotator\tcorrect\tproposed\tgold\n")
        else:
            out.write("sentence\tsystem\tmetric\tfields\n")
        for m, metric in enumerate(run.metrics):
            for s, name in enumerate(run.names):
                choices = run.totals[m][s].choices
                describe = metric.for_totals(run.totals[m][s])
                for i, st in enumerate(run.stats[m][s]):
                    fields = describe.sentence_fields(st, choices[i] if i < len(choices) else 0)
                    values = "\t".join(str(v) for v in fields.values())
                    if [mm.name for mm in run.metrics] == ["m2"] and len(run.paths) == 1:
                        out.write(f"{i + 1}\t{values}\n")
                    else:
                        cells = " ".join(f"{k}={v}" for k, v in fields.items())
                        out.write(f"{i + 1}\t{name}\t{metric.name}\t{cells}\n")


def run_score(request: ScoreRequest, progress: Callable[[int], None] | None = None
              ) -> ScoreOutcome:
    """Carry out ``request``: evaluate, resample, render.

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
    text = _render(request, run, significance)
    return ScoreOutcome(text, list(dict.fromkeys(warnings)), run, significance)


def _render(request: ScoreRequest, run: Any, significance: list[list[Any]] | None) -> str:
    """The established single-metric outputs, or the table of several metrics."""
    from gecformats.metrics.render import Table

    names = [m.name for m in run.metrics]
    fmt = request.output_format
    if names == ["m2"] and fmt != "csv":
        return _render_m2(request, run, significance)
    if names == ["errant"] and len(run.paths) == 1 and fmt in ("text", "json", "errant") \
            and significance is None:
        return _render_errant(run, fmt)
    return Table(run, significance, request.resampling).render(fmt)


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


def _render_m2(request: ScoreRequest, run: Any, significance: list[list[Any]] | None) -> str:
    from gecformats.metrics.score import format_result, format_systems

    results = m2_results(run, significance, request.resampling)
    fmt = request.output_format
    if len(results) == 1 and fmt in ("text", "json", "m2scorer"):
        return format_result(results[0], fmt)
    return format_systems(run.names, results, fmt)


def _render_errant(run: Any, fmt: str) -> str:
    from gecformats.io import json_text

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
    if fmt == "errant":
        return errant.format_errant(result, metric.cat)[:-1]  # the command adds it back
    if fmt == "json":
        return json_text(result.to_dict(metric.cat), ensure_ascii=False, indent=2)
    return errant.format_text(result, metric.cat)

"""``gecformats meta-eval`` carried out: score a dataset's systems with every metric once,
then correlate (system level) or count pairwise agreements (sentence level).

The systems are scored by the evaluation pipeline (:func:`gecformats.metrics.pipeline.evaluate`):
the gold read once, every system in step, each metric's per-sentence statistics kept.  From
those statistics come

* the system scores (the metric's corpus step) and, for the intervals, the system scores on
  every bootstrap resample of the sentences (the metric's resampler; the same resamples for
  every system and metric) — :mod:`gecformats.metaeval.system`;
* the sentence scores of the sentence level: each sentence scored as a one-sentence corpus
  (for M2 the NUS scorer's F0.5 of that sentence alone), compared pairwise with the human
  rankings by :func:`gecformats.metaeval.sentence.pairwise_counts`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.metaeval.datasets import METRIC_OPTIONS, Dataset, kept, load, subset_gold
from gecformats.metaeval.system import (Comparison, SystemCorrelation, Window, compare,
                                        correlate_system, windows)
from gecformats.metrics.base import Metric
from gecformats.metrics.statistics import DEFAULT_SEED

LEVELS = ("system", "sentence")
TIES = ("loss", "skip", "neutral")
"""Sentence level, a metric tie: ``loss`` (SEEDA's and gec-metrics' convention: the
alphabetically earlier system loses, so a tie agrees when the human preferred the later
one), ``skip`` (the pair is left out), ``neutral`` (counted, agreeing with nobody)."""
HUMAN_SOURCES = ("published", "judgments")
"""Where the human system scores come from: ``published`` (SEEDA's ``scores/human`` files,
GJG15's Table 3, Napoles et al.'s Table 2) or ``judgments`` (computed here from the
judgment files, for each system set on its own systems: Expected Wins by
:func:`~gecformats.metaeval.human.expected_wins`, TrueSkill by
:func:`~gecformats.metaeval.human.trueskill_scores`)."""
EXTRA_METRICS = ("length",)
"""Metrics of the meta-evaluation only (besides every ``gecformats score`` metric)."""


@dataclass
class MetaEvalRequest:
    """What to meta-evaluate (the options of ``gecformats meta-eval``).

    Attributes:
        dataset, data: the dataset name and folder; gold, outputs, full: see
            :func:`gecformats.metaeval.datasets.load`.
        metrics: ``--metric`` names (``score``'s metrics and ``length``).
        level: ``system`` or ``sentence``.
        configs: the system sets to report (default: every one of the dataset).
        resamples: bootstrap resamples for the intervals (0: none); seed: their seed.
        ties: the sentence level's metric-tie convention (:data:`TIES`).
        compare: also compare every pair of metrics (system level).
        window: the window analysis' size (``None``: none).
        jobs: local processes for the per-sentence scoring (1: this process).
        human: where the human system scores come from (:data:`HUMAN_SOURCES`).
        extractor, spacy_model: how the metrics that extract edits from text (errant,
            senterrant) do it, as ``gecformats score --extractor``/``--spacy-model``
            (``None``: the metric's default, ``lcs``).
    """

    dataset: str
    data: str
    metrics: Sequence[str] = ("m2",)
    level: str = "system"
    gold: str | None = None
    outputs: str | None = None
    full: bool = False
    configs: Sequence[str] | None = None
    resamples: int = 1000
    seed: int = DEFAULT_SEED
    ties: str = "loss"
    compare: bool = False
    window: int | None = None
    jobs: int = 1
    human: str = "published"
    extractor: str | None = None
    spacy_model: str | None = None
    align: bool = False
    """Re-segment outputs whose lines are not the gold's sentences onto them first (an
    ``--outputs`` folder of LLM rewrites): ``score --align``."""

    def check(self) -> None:
        """Refuse what cannot be run.

        Raises:
            UsageError: an unknown level or tie convention, a negative number of
                resamples, a repeated metric, a window below 2.
        """
        if self.level not in LEVELS:
            raise UsageError(f"unknown level {self.level!r} (known: {', '.join(LEVELS)})")
        if self.ties not in TIES:
            raise UsageError(f"unknown tie convention {self.ties!r} (known: {', '.join(TIES)})")
        if self.human not in HUMAN_SOURCES:
            raise UsageError(f"unknown human score source {self.human!r} (known: "
                             f"{', '.join(HUMAN_SOURCES)})")
        if self.resamples < 0 or self.seed < 0 or self.jobs < 1:
            raise UsageError("--ci and --seed take 0 or more, --jobs 1 or more")
        if self.window is not None and self.window < 2:
            raise UsageError(f"--window takes 2 or more systems, not {self.window}")
        repeated = sorted({m for m in self.metrics if list(self.metrics).count(m) > 1})
        if repeated:
            raise UsageError(f"--metric {repeated[0]} is given twice")


@dataclass
class Scored:
    """One metric's results on every system: ``scores`` (system → corpus score),
    ``stats`` (system → per-sentence statistics), ``boot`` (system → scores on every
    resample, or ``None``), ``signature`` (what the number depends on)."""

    name: str
    label: str
    scores: dict[str, float]
    stats: dict[str, list[Any]]
    boot: dict[str, Any] | None
    signature: str
    metric: Metric

    cache: dict[str, list[float]] = field(default_factory=dict)

    def sentence_scores(self, system: str) -> list[float]:
        """The system's score on each sentence scored alone (a one-sentence corpus);
        computed once (GLEU+ draws its references 500 times per sentence)."""
        if system not in self.cache:
            main = self.metric.columns.index(self.metric.main)
            self.cache[system] = [float(self.metric.corpus([s]).values[main])
                                  for s in self.stats[system]]
        return self.cache[system]


@dataclass
class SentenceAgreement:
    """Sentence level, one metric × system set × judgment file: the pair counts (a
    :class:`gecformats.metaeval.sentence.PairCounts`), the accuracy and Kendall's τ
    under ``ties``, and under every convention of :data:`TIES` (``conventions``: name →
    (accuracy, τ)); ``intervals``: ``accuracy``/``tau`` → the 95 % bootstrap interval
    under ``ties`` (resampling the ranking items), or ``None`` without resamples."""

    metric: str
    config: str
    judgments: str
    counts: Any
    ties: str
    accuracy: float
    tau: float
    conventions: dict[str, tuple[float, float]] = field(default_factory=dict)
    intervals: dict[str, tuple[float, float]] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (interval bounds ``None`` without resamples)."""
        c = self.counts
        iv = self.intervals or {}
        bounds = {f"{k}_{side}": (iv[k][b] if k in iv else None)
                  for k in ("accuracy", "tau") for b, side in enumerate(("low", "high"))}
        return {"metric": self.metric, "config": self.config, "judgments": self.judgments,
                "ties": self.ties, "accuracy": self.accuracy, "tau": self.tau,
                "pairs": c.n, "concordant": c.concordant, "discordant": c.discordant,
                "ties_human_prefers_first": c.ties_first,
                "ties_human_prefers_second": c.ties_second,
                **{f"{k}_tie_{name}": v for name, (acc, tau) in self.conventions.items()
                   for k, v in (("acc", acc), ("tau", tau))}, **bounds}


@dataclass
class MetaEvalResult:
    """Everything a meta-evaluation gives (what the outputs render); ``humans``: system set
    → human score name → system → score (the published scores, or those computed from the
    judgments on that set's systems)."""

    request: MetaEvalRequest
    dataset: Dataset
    sentences: int
    scored: list[Scored]
    configs: list[str]
    system: list[SystemCorrelation] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    sentence: list[SentenceAgreement] = field(default_factory=list)
    humans: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def build(names: Sequence[str], extractor: str | None = None,
          spacy_model: str | None = None) -> list[Metric]:
    """The metrics ``names``: ``length`` (:class:`~gecformats.metaeval.length.LengthMetric`)
    and every ``gecformats score`` metric, with the options of
    :data:`~gecformats.metaeval.datasets.METRIC_OPTIONS` (GLEU: ``absent="first"``) and,
    for the metrics that take them, ``extractor`` and ``spacy_model`` (``--extractor``,
    ``--spacy-model`` of ``gecformats score``; ``None``: not given).

    Raises:
        UsageError: an unknown metric, an extractor option that no metric named takes
            (naming those that would), a value a metric refuses.
    """
    from gecformats.metaeval.length import LengthMetric
    from gecformats.metrics.request import METRICS, build_metrics, metric_class, takers

    extraction = {k: v for k, v in (("extractor", extractor), ("spacy-model", spacy_model))
                  if v is not None}
    for name in names:
        if name not in METRICS and name not in EXTRA_METRICS:
            known = ", ".join([*METRICS, *EXTRA_METRICS])
            raise UsageError(f"unknown metric {name!r} (known: {known})")
    for option in extraction:
        if not any(option in metric_class(n).options for n in names if n in METRICS):
            wanted = " or ".join(f"--metric {n}" for n in takers(option))
            raise UsageError(f"--{option} goes with {wanted}")
    out: list[Metric] = []
    for name in names:
        if name == "length":
            out.append(LengthMetric())
            continue
        taken = metric_class(name).options
        options = {**METRIC_OPTIONS.get(name, {}),
                   **{k: v for k, v in extraction.items() if k in taken}}
        out += build_metrics([name], dict(options), set(options))
    return out


def extraction_warnings(names: Sequence[str], metrics: Sequence[Metric]) -> list[str]:
    """One warning for every metric among ``metrics`` that extracts the outputs' edits with
    gecformats' ``lcs`` aligner (errant, senterrant without ``--extractor``): its numbers are
    not ERRANT's, and the warning names the option that makes them so."""
    from gecformats.metrics.errant import extraction_warning

    lcs = [n for n, m in zip(names, metrics) if getattr(m, "extractor", None) == "lcs"]
    if not lcs:
        return []
    which = ", ".join(f"--metric {n}" for n in lcs)
    return [extraction_warning(f"{which} on the system outputs")]


def count_sentences(dataset: Dataset) -> int:
    """The number of sentences scored (for a progress bar's length)."""
    if dataset.lines is not None:
        return len(dataset.lines)
    with open(dataset.outputs[dataset.systems[0]], "rb") as handle:
        return sum(1 for _ in handle)


def score(dataset: Dataset, names: Sequence[str], *, resamples: int = 0,
          seed: int = DEFAULT_SEED, progress: Callable[[int], None] | None = None,
          jobs: int = 1, extractor: str | None = None, spacy_model: str | None = None,
          warnings: list[str] | None = None, align: bool = False
          ) -> tuple[int, list[Scored]]:
    """Score every system of ``dataset`` with every metric, once (``jobs`` processes for
    the per-sentence step), and resample (``resamples`` bootstrap resamples; 0: none).

    Returns:
        ``(sentences, scored)``: the number of sentences and one :class:`Scored` per metric;
        ``warnings``, when given, gets the scoring pipeline's warnings about the inputs
        (as ``gecformats score`` gives them: an impossible M2 score, gold edits past their
        sentence's end …).

    Raises:
        GecFormatError: malformed or misaligned files (naming the file and line).
        UsageError: an unknown metric.
    """
    from gecformats.metrics.pipeline import evaluate

    metrics = build(names, extractor, spacy_model)
    from gecformats.metrics.inputs import gold_field

    with subset_gold(dataset.gold, dataset.lines) as gold:
        run = evaluate([dataset.outputs[s] for s in dataset.systems], gold, metrics,
                       progress=progress, jobs=jobs, align=align)
        if warnings is not None:
            where = f"{dataset.gold} (its sentences at the subset ids)"
            warnings.extend(w.replace(gold, where) if gold != dataset.gold else w
                            for w in run.info + run.warnings)
    inputs = f"|{gold_field(dataset.gold)}" + (f"|subset:{len(dataset.lines)}"
                                               if dataset.lines is not None else "")
    inputs += "|align:yes" if align else ""
    weights = None
    if resamples:
        from gecformats.metrics.resampling import bootstrap_weights
        from gecformats.metrics.statistics import _one_blas_thread

        _one_blas_thread()
        weights = bootstrap_weights(run.sentences, resamples, seed)
    out = []
    for m, (name, metric) in enumerate(zip(names, metrics)):
        main = metric.columns.index(metric.main)
        stats = {s: run.stats[m][k] for k, s in enumerate(dataset.systems)}
        scores = {s: float(run.totals[m][k].values[main]) for k, s in enumerate(dataset.systems)}
        boot = None
        if weights is not None:
            import numpy as np

            boot = {s: np.array([float(row[main]) for row in
                                 metric.resampler(stats[s]).scores(weights)])
                    for s in dataset.systems}
        signature = str(run.totals[m][0].extra.get("signature") or metric.signature()) + inputs
        out.append(Scored(name, metric.label, scores, stats, boot, signature, metric))
    return run.sentences, out


def run_meta_eval(request: MetaEvalRequest, progress: Callable[[int], None] | None = None,
                  dataset: Dataset | None = None) -> MetaEvalResult:
    """Carry out ``request``: load the dataset (unless given), score, correlate or count.

    Raises:
        UsageError: bad options (see :meth:`MetaEvalRequest.check`), an unknown
            configuration, the sentence level on a dataset without judgments.
        GecFormatError: missing or malformed data files.
    """
    request.check()
    if dataset is None:
        dataset = load(request.dataset, request.data, gold=request.gold,
                       outputs=request.outputs, full=request.full)
    configs = list(request.configs or dataset.configs)
    for config in configs:
        kept(dataset, config)
    if request.level == "sentence" and not dataset.judgments:
        raise UsageError(f"--level sentence: {dataset.name} has no sentence judgments read "
                         "here (use seeda or gjg15)")
    resamples = request.resamples if request.level == "system" else 0
    warnings: list[str] = []
    sentences, scored = score(dataset, request.metrics, resamples=resamples, seed=request.seed,
                              progress=progress, jobs=request.jobs,
                              extractor=request.extractor, spacy_model=request.spacy_model,
                              warnings=warnings, align=request.align)
    result = MetaEvalResult(request, dataset, sentences, scored, configs)
    result.warnings = warnings + extraction_warnings(request.metrics,
                                                     [one.metric for one in scored])
    if request.level == "sentence":
        result.sentence = sentence_level(dataset, scored, configs, request.ties,
                                         request.resamples, request.seed)
        return result
    result.humans = human_scores(dataset, configs, request.human)
    for one in scored:
        for config in configs:
            systems = kept(dataset, config)
            for human, values in result.humans[config].items():
                result.system.append(correlate_system(one.name, config, human, systems,
                                                      one.scores, values, one.boot))
                if request.window is not None and request.window <= len(systems):
                    result.windows += windows(one.name, config, human, systems, one.scores,
                                              values, request.window)
    if request.compare:
        result.comparisons = comparisons(dataset, scored, configs, result.humans)
    return result


def human_scores(dataset: Dataset, configs: Sequence[str], source: str = "published"
                 ) -> dict[str, dict[str, dict[str, float]]]:
    """The human system scores of each system set: ``published`` (the dataset's, the same
    for every set) or ``judgments`` (Expected Wins and TrueSkill computed from the judgment
    files on the set's own systems, as :data:`Dataset.human_sources` says; each file read
    once).

    Returns:
        system set → human score name → system → score.

    Raises:
        UsageError: ``judgments`` for a dataset whose judgments are not read here
            (napoles2015), or TrueSkill without the ``trueskill`` package.
        GecFormatError: a malformed judgment file (naming the file and line).
    """
    from gecformats.metaeval.human import expected_wins, trueskill_scores
    from gecformats.metaeval.judgments import read_judgments

    if source == "published":
        return {config: dataset.humans for config in configs}
    if not dataset.human_sources:
        raise UsageError(f"--human judgments: the judgments of {dataset.name} are not read "
                         "here (use seeda or gjg15, or --human published)")
    items = {name: list(read_judgments(dataset.judgments[name]))
             for name in dict.fromkeys(j for j, _ in dataset.human_sources.values())}
    out: dict[str, dict[str, dict[str, float]]] = {}
    for config in configs:
        systems = kept(dataset, config)
        out[config] = {}
        for human, (name, kind) in dataset.human_sources.items():
            try:
                out[config][human] = (expected_wins if kind == "EW" else trueskill_scores)(
                    items[name], systems)
            except ImportError as exc:
                raise UsageError(f"--human judgments: {exc}") from None
    return out


def comparisons(dataset: Dataset, scored: Sequence[Scored], configs: Sequence[str],
                humans: dict[str, dict[str, dict[str, float]]] | None = None
                ) -> list[Comparison]:
    """Every ordered pair of metrics (first listed first) on every system set and human
    score, for Pearson's r and Spearman's ρ (``humans``: :func:`human_scores`, default the
    published scores)."""
    scores = {one.name: one.scores for one in scored}
    boot = ({one.name: one.boot for one in scored}
            if all(one.boot is not None for one in scored) else None)
    out = []
    for i, a in enumerate(scored):
        for b in scored[i + 1:]:
            for config in configs:
                systems = kept(dataset, config)
                for human, values in (humans or {}).get(config, dataset.humans).items():
                    for name in ("pearson", "spearman"):
                        out.append(compare(a.name, b.name, config, human, systems, scores,
                                           values, boot, name))  # type: ignore[arg-type]
    return out


def sentence_level(dataset: Dataset, scored: Sequence[Scored], configs: Sequence[str],
                   ties: str, resamples: int = 0, seed: int = DEFAULT_SEED
                   ) -> list[SentenceAgreement]:
    """Pairwise agreement of every metric's sentence scores with every judgment file, on
    every system set; with ``resamples``, 95 % intervals from bootstrap resamples of each
    file's ranking items (the same resamples, from ``seed``, for every metric and set)."""
    import numpy as np

    from gecformats.metaeval.judgments import read_judgments
    from gecformats.metaeval.sentence import PairCounts, agreement, item_counts
    from gecformats.metrics.resampling import bootstrap_weights

    index = src_index(dataset)
    judged = {name: list(read_judgments(path)) for name, path in dataset.judgments.items()}
    weights = {name: bootstrap_weights(len(items), resamples, seed)
               for name, items in judged.items()} if resamples else {}
    out = []
    for one in scored:
        per_system = {s: one.sentence_scores(s) for s in dataset.systems}
        for config in configs:
            systems = kept(dataset, config)
            chosen = {s: per_system[s] for s in systems}
            for name, items in judged.items():
                try:
                    per_item = np.array(list(item_counts(items, chosen, systems, index)),
                                        dtype=np.int64).reshape(-1, 4)
                except GecFormatError as exc:  # a src-id that is no sentence scored
                    if exc.file is not None:
                        raise
                    raise GecFormatError(exc.message, dataset.judgments[name], exc.line,
                                         exc.kind) from None
                except ValueError as exc:  # a src-id past the scored sentences
                    raise GecFormatError(str(exc), dataset.judgments[name]) from None
                c, d, t_first, t_second = (int(v) for v in per_item.sum(axis=0))
                counts = PairCounts(c + d + t_first + t_second, c, d, t_first, t_second)
                every = {t: agreement(counts, t) for t in TIES}
                row = SentenceAgreement(one.name, config, name, counts, ties, *every[ties],
                                        every)
                if name in weights:
                    row.intervals = _item_intervals(per_item, weights[name], ties)
                out.append(row)
    return out


def _item_intervals(per_item: Any, weights: Any, ties: str) -> dict[str, tuple[float, float]]:
    from gecformats.metaeval.sentence import resampled_agreement
    from gecformats.metaeval.system import finite_interval

    acc, tau = resampled_agreement(per_item, weights, ties)
    return {"accuracy": finite_interval(acc), "tau": finite_interval(tau)}


def src_index(dataset: Dataset) -> Callable[[int], int]:
    """The map from a judgment's ``src-id`` to a line of the dataset's outputs: SEEDA's is
    1-based (on the subset: its position in ``subset_ids``), GJG15's 0-based.  It raises
    :class:`GecFormatError` without a file (the caller knows which judgment file) for a
    ``src-id`` that is no sentence: not in the subset, or below the base (SEEDA's 0)."""
    if dataset.lines is not None:
        from gecformats.metaeval.judgments import subset_index

        return subset_index(dataset.lines, one_based=dataset.src_base == 1)
    base = dataset.src_base

    def index(src_id: int) -> int:
        if src_id < base:
            raise GecFormatError(f"src-id {src_id} is below {base}, the first sentence's")
        return src_id - base

    return index


def human_points(result: MetaEvalResult, metric: str, config: str, human: str
                 ) -> dict[str, tuple[float, float]]:
    """System → (metric score, human score) on one system set: a scatter plot's points."""
    one = next(s for s in result.scored if s.name == metric)
    systems = kept(result.dataset, config)
    scores = result.humans.get(config, result.dataset.humans)[human]
    values = [scores[s] for s in systems]
    return {s: (one.scores[s], v) for s, v in zip(systems, values) if math.isfinite(v)}

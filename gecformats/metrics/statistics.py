"""Bootstrap intervals and paired tests for every metric, from its cached statistics.

Written once for all metrics (as sacrebleu's ``significance.py``): a resample or a trial
never redoes the expensive per-sentence work; it gives the metric's corpus step
(:meth:`~gecformats.metrics.base.Metric.resampler`, :meth:`~gecformats.metrics.base.Metric.swapper`)
other weights or other systems' statistics, and the metric redoes its own choice among the
candidates (M2's greedy annotator, ERRANT's best pair …).

* bootstrap: ``resamples`` corpora of ``n`` sentences drawn with replacement, the same for
  every system and metric (what pairs them); a resampled corpus keeps document order, each
  sentence counted as often as it was drawn;
* ``--ci``: the percentile interval of every column;
* ``--paired-bs``: sacrebleu's paired bootstrap p value of the main column against the
  first system (Koehn 2004);
* ``--paired-ar``: sacrebleu's paired approximate randomisation (each trial swaps each
  sentence's statistics between the two systems with probability 1/2);
* ``--correction holm``: Holm–Bonferroni adjustment of the p values across the systems
  (the default with three systems or more).

Every result is deterministic for a seed; a system paired with itself gets p = 1.

>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_RESAMPLES = 1000
"""Bootstrap resamples (``--ci``, ``--paired-bs``), as sacrebleu."""
DEFAULT_TRIALS = 10000
"""Approximate randomisation trials (``--paired-ar``), as sacrebleu."""
DEFAULT_SEED = 12345
"""The seed when none is given (sacrebleu's default seed), so that a score is reproducible."""
LEVEL = 0.95
"""The confidence level of the intervals."""
TESTS = ("paired-bs", "paired-ar")
CORRECTIONS = ("holm", "none")


@dataclass(frozen=True, slots=True)
class Resampling:
    """What to resample.

    Args:
        ci: percentile intervals of every column.
        test: ``paired-bs`` or ``paired-ar`` against the first system, or ``None``.
        resamples, trials, seed, level: as their defaults say.
        correction: ``holm`` or ``none``; ``None``: Holm with three systems or more.

    Raises:
        ValueError: an unknown test or correction, fewer than one resample or trial, a
            negative seed, a level outside (0, 1).
    """

    ci: bool = False
    test: str | None = None
    resamples: int = DEFAULT_RESAMPLES
    trials: int = DEFAULT_TRIALS
    seed: int = DEFAULT_SEED
    level: float = LEVEL
    correction: str | None = None

    def __post_init__(self) -> None:
        if self.test is not None and self.test not in TESTS:
            raise ValueError(f"unknown test {self.test!r} (known: {', '.join(TESTS)})")
        if self.correction is not None and self.correction not in CORRECTIONS:
            raise ValueError(f"unknown correction {self.correction!r} "
                             f"(known: {', '.join(CORRECTIONS)})")
        if not 0 < self.level < 1:
            raise ValueError(f"the confidence level must lie between 0 and 1, not {self.level}")
        if self.seed < 0:  # numpy's generators refuse a negative seed
            raise ValueError(f"the seed must be 0 or more, not {self.seed}")
        if self.resamples < 1 or self.trials < 1:
            raise ValueError("resamples and trials must be 1 or more, not "
                             f"{min(self.resamples, self.trials)}")

    @property
    def active(self) -> bool:
        return self.ci or self.test is not None

    @property
    def bootstrapped(self) -> bool:
        return self.ci or self.test == "paired-bs"

    def corrected(self, systems: int) -> str:
        """The correction applied with ``systems`` systems (``none`` for one comparison)."""
        if self.test is None or systems < 3:
            return "none"
        return self.correction or "holm"

    def signature(self, systems: int) -> str:
        """``ci95+paired-bs|resamples:1000|seed:12345|correction:holm``: the signature field."""
        name = "+".join([f"ci{100 * self.level:g}"] * self.ci + [self.test or ""] * (self.test is not None))
        name += f"|resamples:{self.resamples}" * self.bootstrapped
        name += f"|trials:{self.trials}" * (self.test == "paired-ar")
        name += f"|seed:{self.seed}"
        if self.test is not None and systems >= 3:
            name += f"|correction:{self.corrected(systems)}"
        return name


@dataclass(frozen=True, slots=True)
class Significance:
    """One system's intervals (column → ``(lo, hi)``) and p value against the baseline
    (``None`` for the baseline; ``p_raw`` before the correction)."""

    ci: dict[str, tuple[float, float]] | None = None
    p_value: float | None = None
    p_raw: float | None = None
    p_bound: bool = False
    """Whether ``p_value`` is only an upper bound: it comes from a raw p at the resampling
    floor (no resample or trial reached the observed difference), itself or through Holm's
    adjustment."""


def _one_blas_thread() -> None:
    """Ask the BLAS under NumPy for one thread unless the user chose otherwise: the
    products here are small, and on a machine whose cores are busy (the per-sentence work,
    other jobs) BLAS threads contend and took 1.5x the single thread's time on 13 CoNLL
    systems; the numbers are the same either way (integer sums).  Effective only before
    NumPy is first imported, which gecformats does lazily, here."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` with linear interpolation (numpy's default)."""
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def interval(values: Sequence[float], level: float = LEVEL) -> tuple[float, float]:
    """The central percentile interval holding ``level`` of ``values``."""
    tail = (1 - level) / 2
    return percentile(values, tail), percentile(values, 1 - tail)


def p_value(stats: Sequence[float], observed: float) -> float:
    """The add-one smoothed share of ``stats`` at least ``observed``."""
    # sacrebleu's (from multeval) add-one smoothing, so that a finite number of trials never
    # claims p = 0; but ">=" where sacrebleu has ">": a system compared with itself (every
    # statistic 0, observed 0) then gets p = 1, not a "significant" 1 / (R + 1).
    return (sum(1 for s in stats if s >= observed) + 1) / (len(stats) + 1)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p values, in the order given (each at most 1)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = round(running, 15)
    return out


def holm_bounds(p_values: Sequence[float], floor: float) -> list[bool]:
    """Which of :func:`holm`'s adjusted values are only upper bounds: those whose value comes
    (through Holm's running maximum) from raw p values at the resampling ``floor`` alone,
    which are themselves bounds (the adjustment grows with each p).

    >>> holm_bounds([1 / 1001, 0.04, 1 / 1001], 1 / 1001)
    [True, False, True]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    out = [False] * m
    running, bound = 0.0, False
    for rank, i in enumerate(order):
        value = min(1.0, (m - rank) * p_values[i])
        at_floor = p_values[i] <= floor * (1 + 1e-9)
        if value > running:
            running, bound = value, at_floor
        elif value == running:  # from both: exact when either is exact
            bound = bound and at_floor
        out[i] = bound and running < 1.0
    return out


def paired_bootstrap_p(baseline: Sequence[float], system: Sequence[float],
                       observed: float) -> float:
    """sacrebleu's paired bootstrap p value: the resampled absolute differences of the main
    column, centred on their mean, against the observed absolute difference."""
    diffs = [abs(s - b) for s, b in zip(system, baseline)]
    mean = sum(diffs) / len(diffs) if diffs else 0.0
    return p_value([d - mean for d in diffs], observed)


def resample(metric: Any, stats: Sequence[Sequence[Any]], observed: Sequence[tuple[float, ...]],
             settings: Resampling, progress: Callable[[int], None] | None = None
             ) -> list[Significance]:
    """Intervals and p values of one metric for every system.

    Args:
        metric: the :class:`~gecformats.metrics.base.Metric`.
        stats: per system, its per-sentence statistics (all of one length).
        observed: per system, its corpus values (:attr:`Totals.values`).
        settings: what to compute.
        progress: called with the number of resamples or trials done per system.

    Returns:
        One :class:`Significance` per system (the first is the baseline of a test).

    Raises:
        ValueError: systems of different lengths; a test with fewer than two systems.
    """
    _one_blas_thread()
    from gecformats.metrics.resampling import bootstrap_weights, swaps

    n = len(stats[0]) if stats else 0
    if any(len(s) != n for s in stats):
        raise ValueError("the systems have different numbers of sentences")
    if settings.test is not None and len(stats) < 2:
        raise ValueError(f"{settings.test} compares systems with the first one: give two or more")
    main = metric.columns.index(metric.main)
    boot: list[list[tuple[float, ...]]] = []
    if settings.bootstrapped:
        weights = bootstrap_weights(n, settings.resamples, settings.seed)
        for s in stats:
            boot.append([tuple(map(float, row)) for row in metric.resampler(s).scores(weights)])
            if progress is not None:
                progress(settings.resamples)
    raw: list[float | None] = [None] * len(stats)
    if settings.test == "paired-bs":
        base = [row[main] for row in boot[0]]
        for k in range(1, len(stats)):
            raw[k] = paired_bootstrap_p(base, [row[main] for row in boot[k]],
                                        abs(observed[k][main] - observed[0][main]))
    elif settings.test == "paired-ar":
        rows = swaps(n, settings.trials, settings.seed)
        for k in range(1, len(stats)):
            xs, ys = metric.swapper(stats[0], stats[k]).scores(rows)
            diffs = [abs(float(x[main]) - float(y[main])) for x, y in zip(xs, ys)]
            raw[k] = p_value(diffs, abs(observed[k][main] - observed[0][main]))
            if progress is not None:
                progress(settings.trials)
    adjusted = list(raw)
    count = settings.trials if settings.test == "paired-ar" else settings.resamples
    floor = 1 / (count + 1)
    bounds = [p is not None and p <= floor * (1 + 1e-9) for p in raw]
    if settings.corrected(len(stats)) == "holm":
        tested = [p for p in raw[1:] if p is not None]
        adjusted = [None, *holm(tested)]
        bounds = [False, *holm_bounds(tested, floor)]
    out = []
    for k in range(len(stats)):
        ci = None
        if settings.ci:
            ci = {c: interval([row[j] for row in boot[k]], settings.level)
                  for j, c in enumerate(metric.columns)}
        out.append(Significance(ci, adjusted[k], raw[k], bounds[k]))
    return out

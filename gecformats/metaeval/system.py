"""System level: correlations of metric scores with human scores, with bootstrap intervals.

The point values are those of :mod:`gecformats.metrics.correlate` (Pearson's r, Spearman's
ρ with average ranks for ties, Kendall's τ-b: the values scipy gives, no scipy needed).
The intervals come from resampling the **test set**, not the 12–15 points: each bootstrap
resample draws the sentences with replacement
(:func:`~gecformats.metrics.resampling.bootstrap_weights`,
the same rows for every system and every metric), every system is rescored on it by the
metric's own corpus step from its cached per-sentence statistics (M2's greedy annotator
choice redone, …), and the correlation with the (fixed) human scores is recomputed; the
interval is the central 95 % of those correlations.

Because every metric sees the same resamples, two metrics can be compared pairwise
(:func:`compare`): the bootstrap distribution of the difference of their correlations, and
Williams' test for two dependent correlations sharing the human variable (Williams 1959,
as Graham & Baldwin 2014 use it for MT metrics).  :func:`windows` is gec-metrics' window
analysis: the correlation within every run of ``k`` adjacent systems by human score.

>>> import numpy as np
>>> boot = np.array([[1.0, 2.0, 3.0], [1.0, 3.0, 2.0]])
>>> [round(float(v), 3) for v in pearson_rows(boot, [1.0, 2.0, 3.0])]
[1.0, 0.5]
>>> average_rank_rows(np.array([[0.3, 0.1, 0.3]])).tolist()
[[2.5, 1.0, 2.5]]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gecformats.metrics.correlate import kendall, pearson, spearman
from gecformats.metrics.statistics import LEVEL, interval

COEFFICIENTS = ("pearson", "spearman", "kendall")
"""The coefficients computed, in output order."""


# ------------------------------------------------------------------ coefficients, vectorised


def pearson_rows(matrix: np.ndarray, human: Sequence[float]) -> np.ndarray:
    """Pearson's r of every row of ``matrix`` (resamples × systems) with ``human``; NaN for
    a constant row."""
    x = np.asarray(matrix, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    dx = x - x.mean(axis=1, keepdims=True)
    dy = y - y.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (dx @ dy) / np.sqrt((dx * dx).sum(axis=1) * float(dy @ dy))
    return np.clip(r, -1.0, 1.0)


def average_rank_rows(matrix: np.ndarray) -> np.ndarray:
    """The average ranks (1-based, ties sharing the mean rank, as ``scipy.stats.rankdata``)
    of every row of ``matrix``."""
    x = np.asarray(matrix, dtype=np.float64)
    below = (x[:, None, :] < x[:, :, None]).sum(axis=2)
    equal = (x[:, None, :] == x[:, :, None]).sum(axis=2)
    return below + (equal + 1) / 2.0


def spearman_rows(matrix: np.ndarray, human: Sequence[float]) -> np.ndarray:
    """Spearman's ρ of every row of ``matrix`` with ``human``; NaN for a constant row."""
    ranks = average_rank_rows(np.asarray(human, dtype=np.float64)[None, :])[0]
    return pearson_rows(average_rank_rows(matrix), ranks)


def kendall_rows(matrix: np.ndarray, human: Sequence[float]) -> np.ndarray:
    """Kendall's τ-b of every row of ``matrix`` with ``human``; NaN for a constant row."""
    x = np.asarray(matrix, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    upper = np.triu(np.ones((len(y), len(y)), dtype=bool), 1)
    sx = np.sign(x[:, None, :] - x[:, :, None])[:, upper]
    sy = np.sign(y[None, :] - y[:, None])[upper]
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (sx @ sy) / np.sqrt((sx != 0).sum(axis=1) * float((sy != 0).sum()))
    return np.clip(tau, -1.0, 1.0)


_ROWS = {"pearson": pearson_rows, "spearman": spearman_rows, "kendall": kendall_rows}
_POINT = {"pearson": pearson, "spearman": spearman, "kendall": kendall}


def coefficient(name: str, x: Sequence[float], y: Sequence[float]) -> float:
    """Coefficient ``name`` (:data:`COEFFICIENTS`) of ``x`` and ``y``; NaN when undefined
    (a constant sequence)."""
    try:
        return _POINT[name](x, y)
    except ValueError:
        return math.nan


def finite_interval(values: np.ndarray, level: float = LEVEL) -> tuple[float, float]:
    """The central percentile interval of the finite ``values`` (NaN, NaN when none)."""
    finite = [float(v) for v in values if math.isfinite(v)]
    if not finite:
        return math.nan, math.nan
    return interval(finite, level)


# ------------------------------------------------------------------ correlations


@dataclass(frozen=True, slots=True)
class SystemCorrelation:
    """One metric against one human score on one system set.

    Attributes:
        metric: the ``--metric`` name; config: the system set; human: the human score.
        systems: the systems correlated.
        values: coefficient name → value (NaN when undefined).
        intervals: coefficient name → (low, high) of the bootstrap, or ``None`` without
            resamples.
        resamples: the number of bootstrap resamples (0: none).
    """

    metric: str
    config: str
    human: str
    systems: tuple[str, ...]
    values: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]] | None
    resamples: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN as ``None``)."""
        out: dict[str, Any] = {"metric": self.metric, "config": self.config,
                               "human": self.human, "n": len(self.systems),
                               "systems": list(self.systems)}
        for name in COEFFICIENTS:
            out[name] = _json(self.values[name])
            if self.intervals is not None:
                out[f"{name}_low"], out[f"{name}_high"] = map(_json, self.intervals[name])
        out["resamples"] = self.resamples
        return out


def _json(value: float) -> float | None:
    return value if math.isfinite(value) else None


def correlate_system(metric: str, config: str, human: str, systems: Sequence[str],
                     scores: Mapping[str, float], human_scores: Mapping[str, float],
                     boot: Mapping[str, np.ndarray] | None = None,
                     level: float = LEVEL) -> SystemCorrelation:
    """The correlations of one metric with one human score over ``systems``.

    Args:
        metric, config, human: names for the result.
        systems: the systems of the system set.
        scores: system → the metric's corpus score.
        human_scores: system → the human score (higher is better).
        boot: system → its metric scores on every resample (all of one length; the same
            resamples for every system), or ``None`` for no intervals.
        level: the intervals' confidence level.

    Returns:
        The :class:`SystemCorrelation`.
    """
    x = [scores[s] for s in systems]
    y = [human_scores[s] for s in systems]
    values = {c: coefficient(c, x, y) for c in COEFFICIENTS}
    intervals = None
    resamples = 0
    if boot is not None:
        matrix = np.column_stack([boot[s] for s in systems])
        resamples = matrix.shape[0]
        intervals = {c: finite_interval(_ROWS[c](matrix, y), level) for c in COEFFICIENTS}
    return SystemCorrelation(metric, config, human, tuple(systems), values, intervals, resamples)


# ------------------------------------------------------------------ metric A against metric B


@dataclass(frozen=True, slots=True)
class Comparison:
    """Whether metric ``first`` correlates better than ``second`` with one human score.

    Attributes:
        first, second: the ``--metric`` names; config, human, coefficient: what is compared.
        difference: first's coefficient minus second's.
        interval: the bootstrap interval of the difference (same resamples for both).
        p_bootstrap: one-sided: the add-one smoothed share of resamples where first does
            not correlate better (difference ≤ 0).
        p_williams: one-sided p of Williams' test that first's correlation with the human
            score exceeds second's, given their correlation with each other (n − 3 degrees
            of freedom); NaN when undefined.
    """

    first: str
    second: str
    config: str
    human: str
    coefficient: str
    difference: float
    interval: tuple[float, float] | None
    p_bootstrap: float | None
    p_williams: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN as ``None``)."""
        return {"first": self.first, "second": self.second, "config": self.config,
                "human": self.human, "coefficient": self.coefficient,
                "difference": _json(self.difference),
                "interval": None if self.interval is None else [_json(v) for v in self.interval],
                "p_bootstrap": self.p_bootstrap, "p_williams": _json(self.p_williams)}


def compare(first: str, second: str, config: str, human: str, systems: Sequence[str],
            scores: Mapping[str, Mapping[str, float]], human_scores: Mapping[str, float],
            boot: Mapping[str, Mapping[str, np.ndarray]] | None = None,
            coefficient_name: str = "pearson", level: float = LEVEL) -> Comparison:
    """Compare two metrics' correlations with one human score over ``systems``.

    Args:
        first, second: the metrics (keys of ``scores`` and ``boot``).
        scores: metric → system → corpus score.
        human_scores: system → human score.
        boot: metric → system → resampled scores (the same resamples for both metrics).
        coefficient_name: ``pearson``, ``spearman`` or ``kendall`` (Williams' test is
            applied to the coefficient's values; it is exact for Pearson's r).

    Returns:
        The :class:`Comparison`.
    """
    y = [human_scores[s] for s in systems]
    a = [scores[first][s] for s in systems]
    b = [scores[second][s] for s in systems]
    ra = coefficient(coefficient_name, a, y)
    rb = coefficient(coefficient_name, b, y)
    rab = coefficient(coefficient_name, a, b)
    ci = p_boot = None
    if boot is not None:
        rows = _ROWS[coefficient_name]
        da = rows(np.column_stack([boot[first][s] for s in systems]), y)
        db = rows(np.column_stack([boot[second][s] for s in systems]), y)
        d = (da - db)[np.isfinite(da - db)]
        ci = finite_interval(d, level)
        p_boot = (int((d <= 0).sum()) + 1) / (len(d) + 1)
    return Comparison(first, second, config, human, coefficient_name, ra - rb, ci, p_boot,
                      williams(ra, rb, rab, len(systems)))


def williams(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p value of Williams' test that ``r12 > r13``, where variable 1 (the human
    score) is shared and ``r23`` is the correlation of the two metrics, over ``n`` systems:

    t = (r12 − r13) √((n − 1)(1 + r23))
      / √(2 K (n − 1)/(n − 3) + ((r12 + r13)²/4)(1 − r23)³),
    K = 1 − r12² − r13² − r23² + 2 r12 r13 r23, with n − 3 degrees of freedom.

    Returns NaN when undefined (n ≤ 3, a NaN correlation, a zero denominator).

    >>> round(williams(0.9, 0.6, 0.7, 15), 4)
    0.0056
    """
    if n <= 3 or not all(math.isfinite(v) for v in (r12, r13, r23)):
        return math.nan
    k = 1 - r12 * r12 - r13 * r13 - r23 * r23 + 2 * r12 * r13 * r23
    denominator = 2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4) * (1 - r23) ** 3
    if denominator <= 0:
        return math.nan
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(denominator)
    return student_t_sf(t, n - 3)


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (through the regularised
    incomplete beta function).

    >>> round(student_t_sf(2.228138851986274, 10), 6)
    0.025
    """
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2, 0.5)
    return tail if t >= 0 else 1 - tail


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (Lentz's continued fraction, as
    Numerical Recipes' ``betai``), to about 1e-15."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


# ------------------------------------------------------------------ window analysis


@dataclass(frozen=True, slots=True)
class Window:
    """The correlation within ``k`` adjacent systems by human score (gec-metrics'
    ``window_analysis_system``): ``start``/``end`` are 0-based positions in the human
    order (best first), ``systems`` those systems."""

    metric: str
    config: str
    human: str
    start: int
    end: int
    systems: tuple[str, ...]
    pearson: float
    spearman: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"metric": self.metric, "config": self.config, "human": self.human,
                "start": self.start, "end": self.end, "systems": list(self.systems),
                "pearson": _json(self.pearson), "spearman": _json(self.spearman)}


def windows(metric: str, config: str, human: str, systems: Sequence[str],
            scores: Mapping[str, float], human_scores: Mapping[str, float],
            size: int) -> list[Window]:
    """gec-metrics' window analysis: sort ``systems`` by human score, best first (a stable
    sort: ties keep the system order), and correlate within each run of ``size`` adjacent
    systems.

    Raises:
        ValueError: ``size`` below 2 or above the number of systems.
    """
    if not 2 <= size <= len(systems):
        raise ValueError(f"the window must hold 2 to {len(systems)} systems, not {size}")
    ordered = sorted(systems, key=lambda s: human_scores[s], reverse=True)
    out = []
    for start in range(len(ordered) - size + 1):
        part = ordered[start:start + size]
        x = [scores[s] for s in part]
        y = [human_scores[s] for s in part]
        out.append(Window(metric, config, human, start, start + size - 1, tuple(part),
                          coefficient("pearson", x, y), coefficient("spearman", x, y)))
    return out

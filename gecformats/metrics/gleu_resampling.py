"""GLEU's corpus step over many weightings at once, with NumPy, bit for bit.

:class:`Resampler` and :class:`Swapper` give exactly what
:meth:`GleuMetric.corpus <gecformats.metrics.gleu.GleuMetric.corpus>` gives for every
weight vector (bootstrap) or every swap of two systems' sentences (approximate
randomisation), to the last bit, because every step is the same IEEE operation on the
same numbers:

* totals: GLEU+ statistics are integers, so a matrix product is exact whatever order BLAS
  adds in, as long as every partial sum is an integer below 2**53 (checked; single
  precision when below 2**24, twice as fast); so are ``2015``/``2016`` statistics when
  they are all whole numbers (λ = 0); otherwise (λ > 0) they are added sentence by
  sentence in corpus order, as :meth:`~gecformats.metrics.gleu.GleuMetric.corpus` does;
* the GLEU of the totals: divisions, sums and the minimum elementwise, in the reference
  code's order; logarithms and exponentials by Python's :func:`math.log` and
  :func:`math.exp`, not NumPy's (whose SIMD versions differ from the C library's in the
  last bit of about one value in 300), each distinct logarithm once;
* GLEU+'s mean over iterations: NumPy's pairwise summation as
  :func:`~gecformats.metrics.gleu.spread` does it, column by column over all rows at once.

GLEU+ iteration ``j`` draws reference ``d_j(t)`` for the sentence at corpus position ``t``
(:meth:`GleuMetric.draws <gecformats.metrics.gleu.GleuMetric.draws>`).  The totals of a
weight row ``w`` are ``w @ first`` (every sentence's first reference) plus, for the
columns a draw can change (the reference length and the numerators) and the sentences
whose references differ there, ``w[varying] @ delta`` with ``delta[t, (j, c)] =
stats[t][d_j(t)][c] - stats[t][0][c]``: one ``(rows × varying) @ (varying × J·5)``
product.  A swap between systems ``a`` and ``b`` moves ``Σ_t s_t·(b_t - a_t)[d_j(t)]``,
the same product on the differences.

Cost, 13 CoNLL-2014 systems × 1,000 resamples (1,312 sentences, two references, 500
iterations): about 5 s of one core for GLEU+ (building ~1.4 s, scoring ~3.2 s, mostly the
2.5 million calls of ``math.log``/``math.exp``), about 1 s for ``2015``/``2016``.

numpy is imported here only, when resampling is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

ROWS = 256
"""Weight rows computed at once (bounds the memory of the ``(rows, J)`` arrays)."""

EXACT = 2.0 ** 53
"""Integers in doubles are exact below this; so is a sum whose terms' magnitudes add up to
less, in any order."""


class Resampler:
    """:meth:`GleuMetric.corpus <gecformats.metrics.gleu.GleuMetric.corpus>` of one
    system's statistics under many weight vectors."""

    def __init__(self, metric: Any, stats: Sequence[Any]) -> None:
        self.metric = metric
        self.n = len(stats)
        if metric._plus:
            self.drawn = _Linear(*_flat(metric, stats))
        else:
            self.single = _single_matrix(stats, metric.order)

    def scores(self, weights: Any) -> list[tuple[float, ...]]:
        """Per weight vector (a row of ``weights``: one count per sentence), the values of
        the corpus step."""
        w = np.asarray(weights, dtype=np.float64)
        w = w.reshape(len(w), self.n)
        out: list[tuple[float, ...]] = []
        for start in range(0, len(w), ROWS):
            rows = w[start:start + ROWS]
            if self.metric._plus:
                out += _plus_scores(self.drawn.columns(rows), self.drawn.runs, self.metric)
            else:
                out += _single_scores(_weighted(self.single, rows), self.metric)
        return out


class Swapper:
    """Approximate randomisation between systems ``a`` and ``b``: per row of swaps (0/1 per
    sentence), the corpus values of ``x`` (``a`` with the sentences marked 1 taken from
    ``b``) and of ``y`` (the other way round)."""

    def __init__(self, metric: Any, a: Sequence[Any], b: Sequence[Any]) -> None:
        if len(a) != len(b):
            raise ValueError(f"{len(a)} and {len(b)} sentences: the systems must be aligned")
        self.metric = metric
        self.n = len(a)
        if metric._plus:
            fa, sizes, draws = _flat(metric, a)
            fb, sizes_b, _ = _flat(metric, b)
            if not np.array_equal(sizes, sizes_b):
                raise ValueError("the systems' sentences have different numbers of references")
            ones = np.ones((1, self.n))
            self.a_total = _Linear(fa, sizes, draws).columns(ones)
            self.b_total = _Linear(fb, sizes, draws).columns(ones)
            self.diff = _Linear(fb - fa, sizes, draws)
        else:
            self.a, self.b = _single_matrix(a, metric.order), _single_matrix(b, metric.order)

    def scores(self, swaps: Any) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
        """``(xs, ys)``: the values of ``x`` and ``y`` per row of ``swaps``."""
        s = np.asarray(swaps).astype(bool)
        s = s.reshape(len(s), self.n)
        xs: list[tuple[float, ...]] = []
        ys: list[tuple[float, ...]] = []
        for start in range(0, len(s), ROWS):
            rows = s[start:start + ROWS]
            if self.metric._plus:
                moved = self.diff.columns(rows.astype(np.float64))
                runs = self.diff.runs
                xs += _plus_scores([t + m for t, m in zip(self.a_total, moved)], runs,
                                   self.metric)
                ys += _plus_scores([t - m for t, m in zip(self.b_total, moved)], runs,
                                   self.metric)
            else:
                x, y = _swapped(self.a, self.b, rows)
                xs += _single_scores(x, self.metric)
                ys += _single_scores(y, self.metric)
        return xs, ys


# ------------------------------------------------------------------ 2015 / 2016


class _Single:
    """Statistics of ``2015``/``2016``, one row per sentence, whether they are all whole
    numbers (then sums in any order are exact while small enough) and each row's largest
    magnitude."""

    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix
        self.whole = bool(np.all(np.isfinite(matrix)) and np.all(matrix == np.round(matrix)))
        self.largest = np.abs(matrix).max(axis=1) if matrix.size else np.zeros(len(matrix))


def _single_matrix(stats: Sequence[Sequence[float]], order: int) -> _Single:
    width = 2 * order + 2
    matrix = np.array([list(s) for s in stats], dtype=np.float64).reshape(-1, width)
    return _Single(matrix)


def _weighted(single: _Single, w: np.ndarray) -> np.ndarray:
    """``Σ_i w[:, i]·stats[i]``: one matrix product when exact, else in corpus order."""
    if single.whole and (np.abs(w) @ single.largest).max(initial=0.0) < EXACT:
        return w @ single.matrix
    totals = np.zeros((len(w), single.matrix.shape[1]))
    wt = np.ascontiguousarray(w.T)
    for i, row in enumerate(single.matrix):
        totals = totals + wt[i][:, None] * row
    return totals


def _swapped(a: _Single, b: _Single, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The summed statistics of ``x`` and ``y`` per row of swaps ``s``."""
    if a.whole and b.whole and np.maximum(a.largest, b.largest).sum() * 2 < EXACT:
        moved = s.astype(np.float64) @ (b.matrix - a.matrix)
        return a.matrix.sum(axis=0) + moved, b.matrix.sum(axis=0) - moved
    width = a.matrix.shape[1]
    x = np.zeros((len(s), width))
    y = np.zeros((len(s), width))
    st = np.ascontiguousarray(s.T)
    for i in range(a.matrix.shape[0]):
        take = st[i][:, None]
        x = x + np.where(take, b.matrix[i], a.matrix[i])
        y = y + np.where(take, a.matrix[i], b.matrix[i])
    return x, y


def _single_scores(totals: np.ndarray, metric: Any) -> list[tuple[float, ...]]:
    from gecformats.errors import GecFormatError
    from gecformats.metrics.gleu import _final

    out = []
    for row in totals.tolist():
        try:
            out.append((_final(metric.version, metric._lam, row),))
        except ValueError as exc:
            raise GecFormatError(str(exc)) from None
    return out


# ------------------------------------------------------------------ GLEU+


def _flat(metric: Any, stats: Sequence[Sequence[Sequence[int]]]
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every reference's statistics as one ``(ΣR, width)`` array, the sentences' numbers of
    references, and the ``(J, n)`` draws of the iterations."""
    width = 2 * metric.order + 2
    sizes = [len(s) for s in stats]
    flat = np.array([v for s in stats for v in s], dtype=np.int64).reshape(-1, width)
    runs = metric.iterations_for(sizes)
    if metric.version == "plus-py3":  # Python 3's rejection sampling: no uniform to scale
        draws = np.array(metric.draws(sizes, runs), dtype=np.int64).reshape(runs, len(sizes))
        return flat, np.array(sizes, dtype=np.int64), draws
    uniforms = metric._cache.get("uniform_array")
    if uniforms is None or uniforms.shape != (runs, len(sizes)):
        uniforms = np.array(metric.uniforms(len(sizes), runs), dtype=np.float64)
        metric._cache["uniform_array"] = uniforms.reshape(runs, len(sizes))
    array = np.array(sizes, dtype=np.int64)
    draws = (metric._cache["uniform_array"] * array).astype(np.int64)  # int(u·R), u ≥ 0
    return flat, array, draws


class _Linear:
    """Weighted sums over sentences ``Σ_t W[:, t]·flat[first_t + d_j(t)]`` for every
    iteration ``j``, of integer statistics ``flat`` (every reference of every sentence,
    ``sizes[t]`` of sentence ``t`` from ``first_t``) under the draws ``d``: the part that
    does not depend on the draw (columns and sentences whose references all agree) apart,
    the rest by one matrix product, exact (in single precision when every partial sum is
    an integer below 2**24, else in double precision)."""

    def __init__(self, flat: np.ndarray, sizes: np.ndarray, draws: np.ndarray) -> None:
        self.runs, self.width = draws.shape[0], flat.shape[1]
        starts = np.cumsum(sizes) - sizes
        self.first = flat[starts].astype(np.float64)
        owner = np.repeat(np.arange(len(sizes)), sizes)
        differs = flat != flat[starts][owner]
        self.cols = np.flatnonzero(differs.any(axis=0)).tolist()
        moving = np.zeros(len(sizes), dtype=bool)
        np.logical_or.at(moving, owner, differs[:, self.cols].any(axis=1))
        self.rows = np.flatnonzero(moving)
        varying = flat[:, self.cols]
        picked = varying[starts[self.rows][:, None] + draws[:, self.rows].T]  # (rows, J, cols)
        delta = (picked - varying[starts[self.rows]][:, None, :]).reshape(
            len(self.rows), self.runs * len(self.cols))
        self.largest = np.abs(delta).max(axis=1, initial=0).astype(np.float64)
        self.delta = delta.astype(np.float64)
        self.delta32 = delta.astype(np.float32)
        self.first_largest = np.abs(self.first).max(axis=1, initial=0.0)

    def columns(self, w: np.ndarray) -> list[np.ndarray]:
        """The totals for the weight rows ``w``, per column: ``(rows, J)``, or ``(rows, 1)``
        for a column the same in every iteration."""
        if (np.abs(w) @ self.first_largest).max(initial=0.0) >= EXACT:
            raise OverflowError("GLEU+ totals beyond 2**53: the resampler cannot sum exactly")
        base = w @ self.first
        out = [base[:, c:c + 1] for c in range(self.width)]
        if len(self.rows):
            part = w[:, self.rows]
            bound = (np.abs(part) @ self.largest).max(initial=0.0)
            if bound >= EXACT:
                raise OverflowError("GLEU+ totals beyond 2**53: the resampler cannot sum "
                                    "exactly")
            if bound < 2.0 ** 24:
                moved = (part.astype(np.float32) @ self.delta32).astype(np.float64)
            else:
                moved = part @ self.delta
            moved = moved.reshape(len(w), self.runs, len(self.cols))
            for k, c in enumerate(self.cols):
                out[c] = out[c] + moved[:, :, k]
        return out


def _plus_scores(cols: list[np.ndarray], runs: int, metric: Any) -> list[tuple[float, ...]]:
    """The mean over the ``runs`` iterations of the GLEU of the totals ``cols`` (per
    column, ``(rows, J)`` or ``(rows, 1)`` when the same in every iteration), as
    :func:`gecformats.metrics.gleu._gleu` and :func:`~gecformats.metrics.gleu.spread`."""
    rows = cols[0].shape[0]
    zero = np.zeros((rows, runs), dtype=bool)
    for c in cols:
        zero |= c == 0
    hlen, rlen = cols[0], cols[1]
    c, r = (rlen, hlen) if metric.version == "plus-2016" else (hlen, rlen)
    log_precision = np.zeros((rows, runs))
    for x, y in zip(cols[2::2], cols[3::2]):
        log_precision = log_precision + _log_ratio(x, y, zero)
    ratio = np.where(zero, 1.0, r) / np.where(zero, 1.0, c)
    exponents = np.minimum(0.0, 1.0 - ratio) + log_precision / 4.0
    scores = np.fromiter(map(math.exp, exponents.ravel().tolist()), dtype=np.float64,
                         count=exponents.size).reshape(exponents.shape)
    scores[zero] = 0.0
    means = _pairwise_rows(scores, 0, runs) / runs
    return [(m,) for m in means.tolist()]


def _log_ratio(x: np.ndarray, y: np.ndarray, zero: np.ndarray) -> np.ndarray:
    """``math.log(x / y)`` (``(rows, J)``; 0 where ``zero``) of whole numbers ``x`` and
    ``y``, each distinct value once.  When ``y`` is the same in every iteration (``(rows,
    1)``, GLEU+'s denominators) the distinct numerators of each row are found by marking
    them in a table of the row's range (iterations move a numerator little), not by
    sorting."""
    x = np.broadcast_to(x, zero.shape)
    if y.shape[1] != 1:
        values = np.where(zero, 1.0, x) / np.where(zero, 1.0, np.broadcast_to(y, zero.shape))
        return np.where(zero, 0.0, _exactly(math.log, values))
    xi = x.astype(np.int64)
    lo = np.where(zero, np.iinfo(np.int64).max, xi).min(axis=1, keepdims=True)
    hi = np.where(zero, -1, xi).max(axis=1, keepdims=True)
    sizes = np.maximum(hi - lo + 1, 0).ravel()
    if sizes.sum() > 4 * xi.size:  # wide ranges: sort
        values = np.where(zero, 1.0, x) / np.where(y == 0, 1.0, y)
        return np.where(zero, 0.0, _exactly(math.log, values))
    offsets = (np.cumsum(sizes) - sizes)[:, None]
    index = np.where(zero, 0, offsets + (xi - np.where(zero, 0, lo)))
    marked = np.zeros(int(sizes.sum()) + 1, dtype=bool)
    marked[index[~zero]] = True
    present = np.flatnonzero(marked)
    owner = np.searchsorted(offsets.ravel(), present, side="right") - 1
    numerators = lo.ravel()[owner] + (present - offsets.ravel()[owner])
    table = np.zeros(len(marked))
    table[present] = np.fromiter(map(math.log, (numerators / y.ravel()[owner]).tolist()),
                                 dtype=np.float64, count=len(present))
    return np.where(zero, 0.0, table[index])


def _exactly(function: Any, values: np.ndarray) -> np.ndarray:
    """``function`` (a :mod:`math` function) of every element, each distinct value once."""
    unique, inverse = np.unique(values, return_inverse=True)
    results = np.fromiter(map(function, unique.tolist()), dtype=np.float64, count=len(unique))
    return results[inverse].reshape(values.shape)


def _pairwise_rows(a: np.ndarray, start: int, n: int) -> np.ndarray:
    """:func:`gecformats.metrics.gleu._pairwise_sum` of every row of ``a`` over columns
    ``start … start+n-1`` (NumPy's pairwise summation: blocks of 128, eight accumulators)."""
    if n < 8:
        total = np.zeros(a.shape[0])
        for i in range(start, start + n):
            total = total + a[:, i]
        return total
    if n <= 128:
        r = a[:, start:start + 8].copy()
        i = 8
        while i < n - n % 8:
            r = r + a[:, start + i:start + i + 8]
            i += 8
        total = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + \
            ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
        for j in range(i, n):
            total = total + a[:, start + j]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_rows(a, start, half) + _pairwise_rows(a, start + half, n - half)

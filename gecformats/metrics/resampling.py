"""Vectorised resampling of greedy-choice corpus metrics (NumPy).

A GEC corpus score such as M2 or ERRANT is not a sum of sentence scores: for every sentence
the scorer keeps one *candidate* (an annotator, a hypothesis/reference pair), a vector of
``k`` counts, chosen greedily by a **rule** from the running corpus totals.  A bootstrap
resample (sentence ``i`` repeated ``weights[i]`` times, in document order) or an
approximate-randomisation trial (some sentences taken from another system) has to redo that
choice.  This module redoes it for thousands of resamples at once:

* :func:`bootstrap_weights` and :func:`swaps` draw the resamples and trials;
* :class:`M2Rule` and :class:`ErrantRule` are the choice rules (and the final P, R, F);
* :class:`Greedy` gives one system's corpus totals on every row of a weight matrix,
  :class:`PairedGreedy` those of the two swapped pseudo-systems of every trial.

The work is NumPy arithmetic across the rows, and a Python loop only over the sentences
where the choice is real (after dominated candidates are pruned); the totals equal, exactly,
the plain greedy loop over the expanded corpus (``significance.corpus_counts`` for M2).

This module imports NumPy: import it only when resampling is asked for (``score`` starts
without NumPy).

>>> rule = M2Rule(0.5)
>>> engine = Greedy([((1, 1, 1),), ((0, 1, 1), (1, 1, 1)), ((0, 0, 1),)], rule)
>>> engine.totals(np.array([[1, 1, 1], [0, 2, 0]])).tolist()
[[2, 2, 3], [2, 2, 2]]
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

Candidate = tuple[int, ...]
"""One candidate's counts (``k`` non-negative integers)."""
SentenceCandidates = Sequence[Candidate]
"""One sentence: its candidates in the scorer's visiting order (the first wins exact ties)."""

_U = 2.0 ** -53
"""The unit roundoff of a double."""
EXACT_LIMIT = 2 ** 53 - 1
"""No total may exceed this: every count must convert to a double exactly."""


def bootstrap_weights(n: int, resamples: int, seed: int) -> np.ndarray:
    """Bootstrap resamples of ``n`` sentences, as how often each sentence is drawn.

    ``np.random.default_rng(seed).integers(0, n, size=(resamples, n))`` draws, in one call,
    the ``n`` sentence indices (with replacement) of every resample, row ``r`` being resample
    ``r``; each row is then counted.  The same ``(n, resamples, seed)`` always gives the same
    matrix (what pairs the systems: each is scored on the same rows).

    Returns:
        An ``int64`` array of shape ``(resamples, n)``; every row sums to ``n``.

    Raises:
        ValueError: ``n``, ``resamples`` or ``seed`` negative.
    """
    if min(n, resamples, seed) < 0:
        raise ValueError(f"n, resamples and seed must be 0 or more, not "
                         f"{min(n, resamples, seed)}")
    if n == 0:
        return np.zeros((resamples, 0), dtype=np.int64)
    drawn = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    drawn += np.arange(resamples, dtype=drawn.dtype)[:, None] * n  # row r counts in r·n …
    return np.bincount(drawn.ravel(), minlength=resamples * n).reshape(resamples, n)


def swaps(n: int, trials: int, seed: int) -> np.ndarray:
    """Approximate-randomisation trials: which of ``n`` sentences each trial swaps.

    ``np.random.default_rng(seed).integers(0, 2, size=(trials, n), dtype=np.int8)``: row
    ``t`` is trial ``t``, 1 where the two systems' sentences are swapped (probability 1/2
    each, independently).  Deterministic for a seed.

    Returns:
        An ``int8`` array of 0 and 1, of shape ``(trials, n)``.

    Raises:
        ValueError: ``n``, ``trials`` or ``seed`` negative.
    """
    if min(n, trials, seed) < 0:
        raise ValueError(f"n, trials and seed must be 0 or more, not {min(n, trials, seed)}")
    return np.random.default_rng(seed).integers(0, 2, size=(trials, n), dtype=np.int8)


class Rule(ABC):
    """A greedy choice rule over candidates of ``width`` counts.

    At every sentence the candidate chosen is the first, in visiting order, of those whose
    :meth:`keys` (of the running totals plus the candidate) are best in lexicographic order,
    each key compared by its :attr:`larger` direction.  A rule must reproduce its scorer bit
    for bit: the same float operations, in the same order.
    """

    width: int
    """``k``, the number of counts of a candidate."""
    columns: tuple[str, ...]
    """The names of :meth:`values`' columns."""
    larger: tuple[bool, ...]
    """Per key of :meth:`keys`: whether larger is better (else smaller)."""
    prune_limit: float
    """The largest corpus size (the sum of a total's counts) for which :meth:`dominates` is
    proven; past it nothing is pruned but exact duplicates."""

    @abstractmethod
    def keys(self, totals: np.ndarray) -> tuple[np.ndarray, ...]:
        """The comparison keys of corpus totals, most significant first.

        Args:
            totals: ``float64`` of shape ``(width, ...)`` holding integers (below 2^53, so
                each converts exactly, as Python converts an int in int/float arithmetic):
                ``totals[j]`` is count ``j``.

        Returns:
            One array of shape ``totals.shape[1:]`` per key, never NaN.
        """

    @abstractmethod
    def dominates(self, a: Candidate, b: Candidate) -> bool:
        """Whether candidate ``a`` beats candidate ``b`` (strictly, ``a != b``) whatever the
        running totals, so that ``b`` can be dropped from its sentence: only asked when every
        candidate is :meth:`sound` and every total stays within :attr:`prune_limit`."""

    def sound(self, candidate: Candidate) -> bool:
        """Whether ``candidate`` meets what :meth:`dominates` assumes of the counts (default:
        all non-negative)."""
        return all(x >= 0 for x in candidate)

    @abstractmethod
    def values(self, totals: np.ndarray) -> np.ndarray:
        """The scores of corpus totals, bit for bit as the scorer.

        Args:
            totals: integers of shape ``(R, width)`` (:meth:`Greedy.totals`).

        Returns:
            ``float64`` of shape ``(R, len(columns))``.
        """


def _check_beta(beta: float, sq: float) -> float:
    """``sq`` (β²), which the rules need finite and positive: no NaN key, no tie on a count."""
    if not (math.isfinite(sq) and sq > 0):
        raise ValueError(f"beta must give a finite, positive beta squared, not {beta}")
    return sq


class M2Rule(Rule):
    """MaxMatch's greedy annotator choice (``maxmatch.choose_annotator``) on ``(c, p, g)``:
    larger F' = (1+β²)c / (β²g + p) (on a zero denominator 1.0 if c == 0 else 0.0), then
    larger c, then smaller p + β²g; the first in visiting order wins exact ties.
    :meth:`values` is ``maxmatch.precision_recall_f``.

    Raises:
        ValueError: β² not finite and positive.
    """

    width = 3
    columns = ("precision", "recall", "f")
    larger = (True, True, False)  # F', c, p + β²g

    def __init__(self, beta: float) -> None:
        self.beta = beta
        self.sq = _check_beta(beta, beta * beta)
        self.one = 1 + self.sq
        # p + β²g of two candidates one of which dominates the other differ as doubles while
        # β²g + p < min(β², 1)·2^51 (each rounding moves it by at most 2^-53 of itself,
        # the exact values differ by at least min(β², 1)); g + p ≤ the corpus size
        self.prune_limit = min(self.sq, 1.0) / max(self.sq, 1.0) * 2.0 ** 51

    def keys(self, totals: np.ndarray) -> tuple[np.ndarray, ...]:
        c, p, g = totals
        d = self.sq * g + p  # Python's ``sq * g + p`` (and ``p + sq * g``): two roundings
        if d.all():
            return self.one * c / d, c, d
        with np.errstate(divide="ignore", invalid="ignore"):
            f = self.one * c / d
        zero = d == 0
        f[zero] = np.where(c[zero] == 0, 1.0, 0.0)
        return f, c, d

    def dominates(self, a: Candidate, b: Candidate) -> bool:
        # F' = fl(fl((1+β²)c) / fl(fl(β²g) + p)) is one division of a numerator that only c
        # moves by a denominator that only p and g move; every rounding is monotone, so F'
        # never falls when c rises or p, g fall: a's F' >= b's.  On equal F', a's c >= b's;
        # on equal c, a's p + β²g is smaller (strictly, within prune_limit).  The zero
        # denominator breaks monotony only for a credit with no proposed and no gold edit,
        # which sound() excludes.
        return a != b and a[0] >= b[0] and a[1] <= b[1] and a[2] <= b[2]

    def sound(self, candidate: Candidate) -> bool:
        c, p, g = candidate
        return c >= 0 and p >= 0 and g >= 0 and (c == 0 or p + g > 0)

    def values(self, totals: np.ndarray) -> np.ndarray:
        c, p, g = (totals[:, j].astype(np.float64) for j in range(3))
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(p != 0, c / p, 1.0)
            recall = np.where(g != 0, c / g, 1.0)
            den = self.sq * precision + recall
            f = np.where(den != 0, self.one * precision * recall / den, 0.0)
        return np.stack([precision, recall, f], axis=1)


def round4(values: np.ndarray) -> np.ndarray:
    """``round(x, 4) * 10**4`` of every (finite, ``0 <= x < 1.6``) double, exactly, as
    ``int64``: Python's ``round`` rounds the exact binary value half to even, which
    ``np.round`` (scale, rint, unscale) does not always do.

    ``v = fl(x·10^4)`` is within 2^-40 of the exact ``x·10^4`` (``v < 2^14``); where ``v`` is
    more than 10^-6 from a half-integer, no half-integer lies between them and ``rint(v)`` is
    the exact rounding; the few others are rounded by Python itself."""
    scaled = values * 1e4
    out = np.rint(scaled)
    near = np.abs(np.abs(scaled - out) - 0.5) < 1e-6
    if near.any():
        out[near] = [round(round(float(x), 4) * 1e4) for x in values[near]]
    return out.astype(np.int64)


class ErrantRule(Rule):
    """ERRANT's choice of a hypothesis/reference pair (``errant._best_pair``) on
    ``(tp, fp, fn)``: larger F (``errant.f_score``'s, rounded to 4 places), then larger tp,
    then smaller fp, then smaller fn; the first wins exact ties.  :meth:`values` is
    ``errant.f_score`` (P, R, F each rounded to 4 places).

    Raises:
        ValueError: β² not finite and positive.
    """

    width = 3
    columns = ("precision", "recall", "f")
    larger = (True, True, False, False)  # rounded F, tp, fp, fn

    def __init__(self, beta: float) -> None:
        self.beta = beta
        self.b = _check_beta(beta, beta ** 2)  # as ERRANT writes it
        self.a = 1 + self.b
        # see dominates(): the exact F of a dominating total exceeds the other's by at least
        # min(b, 1) / ((1 + b) N²) for corpus size N, and each double F is within 10u of it
        self.prune_limit = math.sqrt(min(self.b, 1.0) / ((1 + self.b) * 40 * _U))

    def _f(self, tp: np.ndarray, fp: np.ndarray, fn: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unrounded P, R, F as ``errant.f_score`` computes them."""
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(fp != 0, tp / (tp + fp), 1.0)
            r = np.where(fn != 0, tp / (tp + fn), 1.0)
            f = np.where(p + r != 0, self.a * p * r / (self.b * p + r), 0.0)
        return p, r, f

    def keys(self, totals: np.ndarray) -> tuple[np.ndarray, ...]:
        tp, fp, fn = totals
        return round4(self._f(tp, fp, fn)[2]), tp, fp, fn

    def dominates(self, a: Candidate, b: Candidate) -> bool:
        # a = (tp, fp, fn) with tp >= and fp, fn <= b's: its rounded F is >= b's, and the
        # tie rules (tp, fp, fn) then prefer a.  The double F is not monotone (P and R are
        # both in its numerator and its denominator), so the proof goes through exact
        # values: with tp > 0, F is G = (1+b)tp / ((1+b)tp + b·fn + fp) up to 10u relative
        # (u = 2^-53: two quotients, 1+b, 2 products, a product and a sum, a quotient).  a's
        # G exceeds b's by (1+b)(tp_a·E_b - tp_b·E_a) / (y_a·y_b) >= min(b,1) / ((1+b)N²)
        # (E = b·fn + fp, y = (1+b)tp + E <= (1+b)N), more than 20u within prune_limit, so
        # a's double F is larger and so is its rounding (correct rounding is monotone).
        # G ties only when fp = fn = 0 for both (F is exactly 1.0 for both); with tp = 0, F
        # is exactly 0.0 or, when fp = fn = 0 (and then a's too), 1.0.
        return a != b and a[0] >= b[0] and a[1] <= b[1] and a[2] <= b[2]

    def values(self, totals: np.ndarray) -> np.ndarray:
        p, r, f = self._f(*np.asarray(totals, dtype=np.float64).T)
        return np.stack([round4(x) / 1e4 for x in (p, r, f)], axis=1)


def _prune(options: Sequence[Candidate], rule: Rule, dominance: bool) -> list[Candidate]:
    """``options`` without the later copies of a candidate and, with ``dominance``, without
    those another dominates: the greedy choice never lands on them (a copy ties with the
    earlier one, which wins), so the totals do not change."""
    kept: list[Candidate] = []
    for k, o in enumerate(options):
        if o in options[:k]:
            continue
        if dominance and any(rule.dominates(q, o) for q in options):
            continue
        kept.append(o)
    return kept


class _System:
    """One system's candidates, checked: tuples of ints, whether every candidate is
    :meth:`Rule.sound`, and each sentence's largest candidate size (sum of its counts)."""

    def __init__(self, candidates: Sequence[SentenceCandidates], rule: Rule) -> None:
        self.rule = rule
        self.candidates = [tuple(tuple(int(x) for x in o) for o in options)
                           for options in candidates]
        for i, options in enumerate(self.candidates):
            for o in options:
                if len(o) != rule.width:
                    raise ValueError(f"sentence {i + 1}: a candidate of {len(o)} counts, "
                                     f"not {rule.width}")
        self.sound = all(rule.sound(o) for options in self.candidates for o in options)
        self.size = np.array([max((sum(o) for o in options), default=0)
                              for options in self.candidates], dtype=np.float64)
        self._plans: dict[bool, tuple[np.ndarray, dict[int, np.ndarray]]] = {}

    def plan(self, dominance: bool) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """The linear part, ``(n, k)`` (a sentence's single candidate; 0 for a sentence with
        none or with a choice), and the choice sentences, index → ``(m, k)`` candidates;
        all ``float64``."""
        if dominance not in self._plans:
            k = self.rule.width
            matrix = np.zeros((len(self.candidates), k), dtype=np.float64)
            choices: dict[int, np.ndarray] = {}
            for i, options in enumerate(self.candidates):
                kept = _prune(options, self.rule, dominance)
                if len(kept) == 1:
                    matrix[i] = kept[0]
                elif kept:
                    choices[i] = np.array(kept, dtype=np.float64).reshape(len(kept), k)
            self._plans[dominance] = matrix, choices
        return self._plans[dominance]


def _better(rule: Rule, new: tuple[np.ndarray, ...], old: tuple[np.ndarray, ...]
            ) -> np.ndarray:
    """Where keys ``new`` beat keys ``old`` strictly, in lexicographic order."""
    last = len(new) - 1
    gt = eq = None
    for j, (a, b, larger) in enumerate(zip(new, old, rule.larger)):
        wins = a > b if larger else a < b
        gt = wins if gt is None else gt | (eq & wins)
        if j < last:
            eq = a == b if eq is None else eq & (a == b)
    return gt


def _choose(rule: Rule, totals: np.ndarray, options: np.ndarray) -> np.ndarray:
    """The greedy choice of one sentence in every column of ``totals``.

    Args:
        totals: ``(k, R)`` running totals.
        options: ``(m, k)`` candidates for every column, or ``(m, k, R)`` column by column.

    Returns:
        ``(k, R)``: the totals plus each column's chosen candidate (the first of the best:
        a later candidate replaces the best so far only when strictly better).
    """
    if options.ndim == 2:
        options = options[:, :, None]
    best = totals + options[0]
    if len(options) == 1:
        return best
    best_keys = rule.keys(best)
    for j in range(1, len(options)):
        other = totals + options[j]
        other_keys = rule.keys(other)
        wins = _better(rule, other_keys, best_keys)
        best = np.where(wins, other, best)
        if j + 1 < len(options):
            best_keys = tuple(np.where(wins, a, b) for a, b in zip(other_keys, best_keys))
    return best


def _segment(matrix: np.ndarray, rows: np.ndarray, start: int, stop: int) -> np.ndarray:
    """``matrix[start:stop].T @ rows[start:stop]``, ``(k, R)``, in doubles: exact, every
    partial sum being an integer below 2^53."""
    return np.einsum("jc,jr->cr", matrix[start:stop], rows[start:stop], dtype=np.float64,
                     casting="unsafe")


def _check_rows(rows: np.ndarray | Sequence[Sequence[int]], n: int, what: str, top: int | None
                ) -> np.ndarray:
    """``rows`` as an integer array of shape ``(R, n)`` with values in ``[0, top]``."""
    out = np.asarray(rows)
    if out.ndim != 2 or out.shape[1] != n:
        raise ValueError(f"{what} must have shape (R, {n}), not {out.shape}")
    if out.size and (out.dtype.kind not in "iub" or out.min() < 0
                     or (top is not None and out.max() > top)):
        raise ValueError(f"{what} must be integers from 0 to {top}" if top is not None
                         else f"{what} must be non-negative integers")
    return out


class Greedy:
    """One system's greedy corpus totals on many weightings of its sentences at once.

    Args:
        candidates: per sentence (``n`` of them), its candidates in the scorer's visiting
            order, each a tuple of ``rule.width`` integers (a sentence with none adds
            nothing).
        rule: the choice rule.

    Raises:
        ValueError: a candidate of another width than the rule's.
    """

    def __init__(self, candidates: Sequence[SentenceCandidates], rule: Rule) -> None:
        self.rule = rule
        self._system = _System(candidates, rule)
        self.n = len(self._system.candidates)

    @property
    def choice_sentences(self) -> int:
        """How many sentences keep a real choice after pruning (all totals within the
        rule's :attr:`~Rule.prune_limit`): the length of the Python loop."""
        return len(self._system.plan(self._system.sound)[1])

    def totals(self, weights: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """The corpus totals of every row of ``weights``.

        Row ``r`` stands for the corpus that repeats sentence ``i`` ``weights[r][i]`` times,
        in document order (:func:`bootstrap_weights`); its totals equal the plain greedy loop
        over that corpus exactly.

        Args:
            weights: non-negative integers, shape ``(R, n)``.

        Returns:
            ``int64`` of shape ``(R, width)``.

        Raises:
            ValueError: a wrong shape, a negative weight, or totals that could pass 2^53.
        """
        w = _check_rows(weights, self.n, "weights", None)
        reach = float((w.astype(np.float64) @ self._system.size).max()) if w.size else 0.0
        if reach > EXACT_LIMIT:
            raise ValueError("the weighted counts are too large to resample exactly")
        matrix, choices = self._system.plan(
            self._system.sound and reach <= self.rule.prune_limit)
        rows = np.ascontiguousarray(w.T)  # (n, R): a sentence's weights side by side
        totals = np.zeros((self.rule.width, w.shape[0]), dtype=np.float64)
        start = 0
        for i, options in choices.items():
            if i > start:
                totals += _segment(matrix, rows, start, i)
            start = i + 1
            times = rows[i]
            most = int(times.max(initial=0))
            if not most:
                continue
            chosen = _choose(self.rule, totals, options)
            totals = chosen if times.min() else np.where(times > 0, chosen, totals)
            for again in range(2, most + 1):  # the sentence's further copies, where drawn
                at = np.flatnonzero(times >= again)
                totals[:, at] = _choose(self.rule, totals[:, at], options)
        if self.n > start:
            totals += _segment(matrix, rows, start, self.n)
        return np.ascontiguousarray(totals.T).astype(np.int64)

    def scores(self, weights: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """The rule's :meth:`~Rule.values` of :meth:`totals`: ``float64`` of shape
        ``(R, len(rule.columns))``."""
        return self.rule.values(self.totals(weights))


class PairedGreedy:
    """Two systems' swapped pseudo-systems (approximate randomisation), every trial at once.

    Args:
        a, b: the two systems' candidates (as for :class:`Greedy`), of the same length.
        rule: the choice rule.

    Raises:
        ValueError: the systems have different numbers of sentences, or a candidate of
            another width than the rule's.
    """

    def __init__(self, a: Sequence[SentenceCandidates], b: Sequence[SentenceCandidates],
                 rule: Rule) -> None:
        if len(a) != len(b):
            raise ValueError("the systems have different numbers of sentences")
        self.rule = rule
        self._a, self._b = _System(a, rule), _System(b, rule)
        self.n = len(a)
        self._plans: dict[bool, tuple[np.ndarray, np.ndarray, list[tuple[int, np.ndarray]]]] = {}

    def _plan(self, dominance: bool
              ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, np.ndarray]]]:
        """a's linear part, b's minus a's (both 0 at the choice sentences) and, per choice
        sentence of either, the candidates: ``(m, k)`` when a's and b's are the same, else
        ``(m, k, 2)``, ``[..., 0]`` a's and ``[..., 1]`` b's, the shorter list padded with
        copies of its first candidate (a copy never wins: it ties with the original, which
        comes first)."""
        if dominance not in self._plans:
            matrix_a, choices_a = self._a.plan(dominance)
            matrix_b, choices_b = self._b.plan(dominance)
            matrix_a, matrix_b = matrix_a.copy(), matrix_b.copy()
            choices: list[tuple[int, np.ndarray]] = []
            for i in sorted(choices_a.keys() | choices_b.keys()):
                lists = [c.get(i, m[i][None, :]) for c, m in ((choices_a, matrix_a),
                                                              (choices_b, matrix_b))]
                most = max(len(x) for x in lists)
                padded = [np.concatenate([x, np.repeat(x[:1], most - len(x), axis=0)])
                          for x in lists]
                same = np.array_equal(padded[0], padded[1])
                choices.append((i, padded[0] if same else np.stack(padded, axis=2)))
                matrix_a[i] = matrix_b[i] = 0
            self._plans[dominance] = matrix_a, matrix_b - matrix_a, choices
        return self._plans[dominance]

    def totals(self, swap: np.ndarray | Sequence[Sequence[int]]
               ) -> tuple[np.ndarray, np.ndarray]:
        """The totals of both pseudo-systems of every trial.

        Row ``t`` of ``swap`` makes ``x`` from ``a`` with b's candidates at the sentences
        marked 1, and ``y`` the other way round (``b`` with a's at the 1s); each is one
        corpus (every sentence once, in order) with the rule's greedy choice, and its
        totals equal the plain greedy loop over it exactly.

        Args:
            swap: 0/1 of shape ``(T, n)`` (:func:`swaps`).

        Returns:
            ``(xs, ys)``, each ``int64`` of shape ``(T, width)``.

        Raises:
            ValueError: a wrong shape, a value other than 0 and 1, or totals that could
                pass 2^53.
        """
        s = _check_rows(swap, self.n, "swaps", 1)
        trials = s.shape[0]
        reach = float(np.maximum(self._a.size, self._b.size).sum())
        if reach > EXACT_LIMIT:
            raise ValueError("the counts are too large to resample exactly")
        dominance = self._a.sound and self._b.sound and reach <= self.rule.prune_limit
        matrix, diff, choices = self._plan(dominance)
        prefix_a = np.vstack([np.zeros((1, self.rule.width)), np.cumsum(matrix, axis=0)])
        prefix_d = np.vstack([np.zeros((1, self.rule.width)), np.cumsum(diff, axis=0)])
        rows = np.ascontiguousarray(s.T)  # (n, T)
        # the x columns, then the y columns: one pass of NumPy calls serves both
        totals = np.zeros((self.rule.width, 2 * trials), dtype=np.float64)
        x, y = totals[:, :trials], totals[:, trials:]

        def linear(start: int, stop: int) -> None:
            # x gains a's linear counts plus b's minus a's where swapped; y gains b's,
            # i.e. a's plus all of b's minus a's, less x's share of them
            if stop > start:
                swapped = _segment(diff, rows, start, stop)
                x[...] += (prefix_a[stop] - prefix_a[start])[:, None] + swapped
                y[...] += (prefix_a[stop] - prefix_a[start]
                           + prefix_d[stop] - prefix_d[start])[:, None] - swapped

        start = 0
        for i, options in choices:
            linear(start, i)
            start = i + 1
            if options.ndim == 3:
                take_b = np.concatenate([rows[i], 1 - rows[i]]).astype(bool)
                options = np.where(take_b, options[:, :, 1:], options[:, :, :1])
            totals[...] = _choose(self.rule, totals, options)
        linear(start, self.n)
        out = np.ascontiguousarray(totals.T).astype(np.int64)
        return out[:trials], out[trials:]

    def scores(self, swap: np.ndarray | Sequence[Sequence[int]]
               ) -> tuple[np.ndarray, np.ndarray]:
        """The rule's :meth:`~Rule.values` of both :meth:`totals`: two ``float64`` arrays of
        shape ``(T, len(rule.columns))``."""
        xs, ys = self.totals(swap)
        return self.rule.values(xs), self.rule.values(ys)

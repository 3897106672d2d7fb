"""SentM2 and SentERRANT: the mean over sentences of each sentence's own F, as PT-M2 scores them.

PT-M2 (pygongnlp/PT-M2, ``compute_sentm2`` / ``compute_senterrant`` with ``scorer='self'``)
scores every sentence alone: its annotator is the one whose counts give that sentence the
best F_β (ties: more correct, then fewer ``proposed + β²·gold``; the first on a full tie),
with P = 1 when nothing is proposed, R = 1 when nothing is gold and F = 0 when β²P + R = 0.
The corpus score is the plain mean of those F (summed left to right, divided by the number of
sentences), so an unchanged sentence whose chosen annotator has no edit scores 1.

The per-sentence statistics are those of :class:`~gecformats.metrics.m2.M2Metric` (every
annotator's counts from the exact M2 lattice search) and of
:class:`~gecformats.metrics.errant.ErrantMetric` (the hypothesis' ERRANT keys against every
reference annotator, counted as PT-M2 counts them, see :class:`SentErrantMetric`); only the
corpus step differs.  Columns: the means of the per-sentence P, R and F (PT-M2 reports F).

>>> from gecformats.model import Edit, Sentence
>>> from gecformats.metrics.base import Hypothesis
>>> gold = Sentence(("a", "cat", "sat"), {0: (Edit(0, 1, (("the",),), "Det"),), 1: ()})
>>> metric = SentM2Metric()
>>> stats = metric.sentence(metric.prepare(gold), Hypothesis(("a", "cat", "sat"), "a cat sat"))
>>> metric.corpus([stats]).values  # annotator 1 (no edit) fits the unchanged sentence
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import maxmatch
import numpy as np

from gecformats import __version__
from gecformats.metrics.base import Totals
from gecformats.metrics.errant import ErrantGold, ErrantMetric, ErrantStats, RawEdit
from gecformats.metrics.m2 import M2Metric, M2Stats

Counts = tuple[int, int, int]
NOOP = (-1, -1, "-NONE-")


def sentence_prf(counts: Counts, beta: float) -> tuple[float, float, float]:
    """P, R and F_β of one sentence's ``(correct, proposed, gold)`` as PT-M2 computes them:
    P = 1 with nothing proposed, R = 1 with nothing gold, F = 0 when β²P + R = 0."""
    return maxmatch.precision_recall_f(*counts, beta)


def choose(candidates: Sequence[Counts], beta: float) -> int:
    """PT-M2's per-sentence annotator choice among ``(correct, proposed, gold)`` candidates
    (in the gold's annotator order): the highest F of the sentence alone, then the most
    correct, then the fewest ``proposed + β²·gold``; the first on a full tie; -1 with no
    candidate."""
    sq = beta * beta
    best, f_best, c_best, cost_best = -1, float("-inf"), float("-inf"), float("inf")
    for k, (c, p, g) in enumerate(candidates):
        f = sentence_prf((c, p, g), beta)[2]
        if f_best < f or (f_best == f and (c_best < c or (c_best == c and cost_best > p + sq * g))):
            best, f_best, c_best, cost_best = k, f, c, p + sq * g
    return best


def sentence_values(candidates: Sequence[Counts], beta: float
                    ) -> tuple[int, tuple[float, float, float]]:
    """The chosen candidate (:func:`choose`) and its P, R, F; with no candidate, -1 and
    (1, 1, 1) (PT-M2's zero counts)."""
    k = choose(candidates, beta)
    return k, sentence_prf(candidates[k] if k >= 0 else (0, 0, 0), beta)


def mean(values: Sequence[tuple[float, ...]], weights: Sequence[int] | None = None
         ) -> tuple[float, ...]:
    """The mean of each column of ``values`` (one row per sentence), sentence ``i`` counted
    ``weights[i]`` times: summed left to right as PT-M2 sums (``w·x`` for a weight ``w``),
    divided by the number of sentences counted; 0 for an empty corpus.

    Raises:
        ValueError: a negative weight.
    """
    width = len(values[0]) if values else 3
    totals = [0.0] * width
    n = 0
    for i, row in enumerate(values):
        w = 1 if weights is None else int(weights[i])
        if w < 0:
            raise ValueError(f"weight {w} of sentence {i + 1} is negative")
        if w == 0:
            continue
        n += w
        for j, x in enumerate(row):
            totals[j] += x if w == 1 else w * x
    return tuple(t / n for t in totals) if n else (0.0,) * width


class _Means:
    """Resampler and swapper of a sentence mean: the per-sentence values computed once, the
    sums of many rows at once as :func:`mean` makes them, bit for bit (``np.cumsum`` adds
    left to right, as :func:`mean` does; a weight of 0 adds an exact 0)."""

    def __init__(self, a: Sequence[tuple[float, ...]], b: Sequence[tuple[float, ...]] = ()) -> None:
        self.a = np.array(a, dtype=np.float64).reshape(len(a), -1)
        self.b = np.array(b, dtype=np.float64).reshape(len(b), -1) if len(b) else None

    def _sums(self, rows: np.ndarray, values: np.ndarray, weighted: bool
              ) -> list[tuple[float, ...]]:
        out: list[tuple[float, ...]] = []
        if values.shape[0] == 0:
            return [(0.0,) * max(values.shape[1], 3)] * len(rows)
        for start in range(0, len(rows), _CHUNK):
            chunk = rows[start:start + _CHUNK]
            n = chunk.sum(axis=1) if weighted else np.full(len(chunk), chunk.shape[1])
            columns = []
            for j in range(values.shape[1]):
                terms = chunk * values[:, j] if weighted else values[chunk, j]
                columns.append(np.cumsum(terms, axis=1)[:, -1] / np.where(n > 0, n, 1))
            out.extend(tuple(float(c[i]) if n[i] > 0 else 0.0 for c in columns)
                       for i in range(len(chunk)))
        return out

    def scores(self, rows: Sequence[Sequence[int]]) -> Any:
        """Bootstrap (no ``b``): per weight row, the means; approximate randomisation: per
        row of swaps, the means of the two swapped pseudo-systems."""
        matrix = np.asarray(rows, dtype=np.int64).reshape(len(rows), self.a.shape[0])
        if self.b is None:
            return self._sums(matrix, self.a, True)
        both = np.concatenate([self.a, self.b])  # row k of a, row n + k of b
        index = np.arange(self.a.shape[0]) + self.a.shape[0] * (matrix != 0)
        return (self._sums(index, both, False),
                self._sums(np.arange(self.a.shape[0]) + self.a.shape[0] * (matrix == 0), both,
                           False))


_CHUNK = 500
"""Rows summed at once (memory: rows × sentences × 8 bytes per column)."""


class _SentenceMean:
    """The corpus step shared by both metrics: each sentence's choice and values from its
    candidate counts (:meth:`_candidates`), then their mean."""

    beta: float

    def _candidates(self, stats: Any) -> Sequence[Counts]:
        raise NotImplementedError

    def _values(self, stats: Sequence[Any]) -> list[tuple[int, tuple[float, float, float]]]:
        return [sentence_values(self._candidates(s), self.beta) for s in stats]

    def _totals(self, stats: Sequence[Any], weights: Sequence[int] | None, choices: bool
                ) -> Totals:
        if choices and weights is not None:
            raise ValueError("choices are given for the corpus itself, without weights")
        done = self._values(stats)
        chosen = tuple(k for k, _ in done) if choices else ()
        counted = [c for s, (k, _) in zip(stats, done) if k >= 0
                   for c in [self._candidates(s)[k]]]
        counts = {"sentences": len(stats) if weights is None else int(sum(weights)),
                  "correct": sum(c[0] for c in counted), "proposed": sum(c[1] for c in counted),
                  "gold": sum(c[2] for c in counted)} if weights is None else {}
        return Totals(mean([v for _, v in done], weights), counts, chosen)

    def resampler(self, stats: Sequence[Any]) -> Any:
        """The bootstrap of the mean, the per-sentence values computed once."""
        return _Means([v for _, v in self._values(stats)])

    def swapper(self, a: Sequence[Any], b: Sequence[Any]) -> Any:
        """Approximate randomisation of the mean, the per-sentence values computed once."""
        return _Means([v for _, v in self._values(a)], [v for _, v in self._values(b)])

    def _fields(self, stats: Any, choice: int) -> dict[str, Any]:
        c, p, g = self._candidates(stats)[choice] if choice >= 0 else (0, 0, 0)
        sp, sr, sf = sentence_prf((c, p, g), self.beta)
        return {"correct": c, "proposed": p, "gold": g, "p": sp, "r": sr, "f": sf}


@dataclass
class SentM2Metric(_SentenceMean, M2Metric):
    """SentM2: the mean of per-sentence M2 F_β (PT-M2's ``compute_sentm2``, ``scorer='self'``).

    The per-sentence step is :class:`~gecformats.metrics.m2.M2Metric`'s (the NUS lattice
    search against every annotator the M2 block names); the corpus step chooses each
    sentence's annotator by that sentence alone (:func:`choose`) and averages P, R, F.

    Args: as :class:`~gecformats.metrics.m2.M2Metric` (``beta``, ``max_unchanged_words``,
        ``ignore_whitespace_casing``, ``max_edges``, and the HOO ``mode`` and ``bonus``: each
        sentence's P, R, F from that mode's counts).
    """

    name = "sentm2"
    label = "SentM2"
    options = frozenset({"beta", "max-unchanged-words", "ignore-whitespace-casing", "max-edges",
                         "mode", "bonus"})
    declines = {"per-type": "recall per gold type follows M2's corpus-level annotator choice"}

    def _candidates(self, stats: M2Stats) -> Sequence[Counts]:
        return stats.counts

    def corpus(self, stats: Sequence[M2Stats], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """The mean over sentences (``weights[i]`` times sentence ``i``) of each sentence's
        P, R, F with its own best annotator; :attr:`Totals.counts` (corpus itself only):
        ``sentences`` and the chosen annotators' summed ``correct``, ``proposed``, ``gold``.

        Raises:
            ValueError: ``choices`` with ``weights``; a negative weight.
        """
        return self._totals(stats, weights, choices)

    def signature(self) -> str:
        """M2's signature named SentM2:
        ``metric:sentm2|scorer:maxmatch-V|beta:…|max-unchanged:…|ws-case:…|gecformats:V``."""
        return super().signature().replace("metric:m2", "metric:sentm2", 1)

    def sentence_fields(self, stats: M2Stats, choice: int) -> dict[str, Any]:
        """The chosen ``annotator``, its counts and the sentence's ``p``, ``r``, ``f``."""
        return {"annotator": stats.annotators[choice] if choice >= 0 else -1,
                **self._fields(stats, choice)}


class SentErrantMetric(_SentenceMean, ErrantMetric):
    """SentERRANT: the mean of per-sentence ERRANT F_β (PT-M2's ``compute_senterrant``,
    ``scorer='self'``).

    The edits are ERRANT's span-based correction keys ``(start, end, correction)``
    (UNK dropped, duplicates merged, noop left out), as :class:`ErrantMetric` reads them;
    PT-M2 counts them its own way: the hypothesis' keys of every hypothesis annotator in one
    list, credited one by one against each reference annotator's keys from the position
    after the last credited one (so both lists are assumed in the same order, as ERRANT
    writes them); ``proposed``, ``gold`` are the numbers of keys.  One candidate per
    reference annotator; the choice and the mean as :class:`SentM2Metric`.

    Args:
        beta: β of F_β (finite, > 0).
        mode, single, multi, filter: ERRANT's, applied to both sides' keys before they are
            counted (PT-M2 itself counts ``cs`` keys, its default).
        extractor, spacy_model: how the edits of a text hypothesis are extracted (as
            :class:`ErrantMetric`; PT-M2 itself reads the hypothesis' ERRANT M2).

    Raises:
        ValueError: a β that is not finite and positive, an unknown extractor or mode.
    """

    name = "senterrant"
    label = "SentERRANT"
    options = frozenset({"beta", "errant-mode", "single", "multi", "filter", "extractor",
                         "spacy-model"})
    declines = {"cat": "per-category scores are errant_compare's corpus counts"}

    def __init__(self, beta: float = 0.5, extractor: str = "lcs",
                 spacy_model: str | None = None, mode: str = "cs", single: bool = False,
                 multi: bool = False, filter: Collection[str] = ()) -> None:
        super().__init__(beta=beta, mode=mode, single=single, multi=multi, filter=filter,
                         extractor=extractor, spacy_model=spacy_model)

    def __repr__(self) -> str:
        return (f"SentErrantMetric(beta={self.beta!r}, mode={self.mode!r}, "
                f"extractor={self.extractor!r})")

    def _stats(self, prepared: ErrantGold, edits: list[RawEdit], extracted: bool | str
               ) -> ErrantStats:
        """PT-M2's counts of one hypothesis against each reference annotator, in the
        statistics' shape of :class:`ErrantMetric` (candidates ``(correct, proposed −
        correct, gold − correct, ())``, one hypothesis side)."""
        hyp = self._process(edits)
        proposed = [k for keys in hyp.values() for k in keys if k != NOOP]
        candidates = []
        for keys in prepared.references.values():
            gold = [k for k in keys if k != NOOP]
            c = _credited(proposed, gold)
            candidates.append((c, len(proposed) - c, len(gold) - c, ()))
        return (tuple(candidates), -1, tuple(hyp)[:1] or (0,), tuple(prepared.references),
                (), prepared.types, extracted)

    def _candidates(self, stats: ErrantStats) -> Sequence[Counts]:
        return [(tp, tp + fp, tp + fn) for tp, fp, fn, _ in stats[0]]

    def corpus(self, stats: Sequence[ErrantStats], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """As :meth:`SentM2Metric.corpus`; on the corpus itself :attr:`Totals.extra` also
        holds what :meth:`ErrantMetric.corpus` reports of the hypotheses (``hyp``,
        ``signature``, ``extracted``, ``kinds``).

        Raises:
            ValueError: ``choices`` with ``weights``; a negative weight.
        """
        totals = self._totals(stats, weights, choices)
        if weights is not None:
            return totals
        extra = dict(ErrantMetric.corpus(self, stats).extra)
        return Totals(totals.values, totals.counts, totals.choices, extra)

    def sentence_fields(self, stats: ErrantStats, choice: int) -> dict[str, Any]:
        """The chosen ``ref_annotator``, its counts and the sentence's ``p``, ``r``, ``f``."""
        return {"ref_annotator": stats[3][choice] if choice >= 0 else -1,
                **self._fields(stats, choice)}


def _credited(proposed: Sequence[tuple], gold: Sequence[tuple]) -> int:
    """PT-M2's ``matchSeq`` on ERRANT keys: each proposed key is looked for among the gold
    keys from the one after the last credited; the number of credited proposed keys."""
    cursor = credited = 0
    for key in proposed:
        for i in range(cursor, len(gold)):
            if key == gold[i]:
                credited += 1
                cursor = i + 1
    return credited

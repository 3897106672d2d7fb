"""Confidence intervals and significance tests for MaxMatch (M2) scores.

The M2 corpus score is not a sum of sentence scores: each sentence's annotator is chosen
greedily from the running totals (spec §8).  So every resampled corpus redoes that choice
exactly as the scorer would on it, from the per-sentence, per-annotator counts kept while
scoring (``Scoring(keep_counts=True)``): no alignment is redone.  The arithmetic runs in
NumPy across all resamples at once (:mod:`~gecformats.metrics.resampling`, imported only
when resampling is asked for); :func:`corpus_counts` is the plain greedy loop it must equal.

A bootstrap resample draws ``n`` sentences with replacement; the resampled corpus keeps
document order, each sentence repeated as often as it was drawn (the scorer's greedy choice
depends on the order, so the order has to be fixed; this one is the corpus' own).  The
resamples and trials come from ``numpy.random.default_rng(seed)``
(:func:`~gecformats.metrics.resampling.bootstrap_weights`,
:func:`~gecformats.metrics.resampling.swaps`): the same seed gives the same numbers (NumPy
keeps these streams from version to version in practice, though NEP 19 does not promise it).

* :func:`bootstrap` scores every system on the same resamples (what makes the tests paired);
* :func:`interval`: a percentile interval of P, R or F;
* :func:`paired_bootstrap_p`: sacrebleu's paired bootstrap p-value (Koehn 2004);
* :func:`approximate_randomization`: sacrebleu's paired approximate randomisation test.

>>> counts = [((1, 1, 1),), ((0, 1, 1), (1, 1, 1)), ((0, 0, 1),)]
>>> corpus_counts(counts, 0.5)
(2, 2, 3)
>>> corpus_counts(counts, 0.5, order=[1, 1, 2])
(2, 2, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from maxmatch import choose_counts, precision_recall_f

from .score import ScoreResult
from .statistics import (DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, LEVEL, TESTS,
                         Resampling, interval, p_value, percentile)

if TYPE_CHECKING:
    import numpy as np

Counts = tuple[int, int, int]
"""``(correct, proposed, gold)`` of one annotator of one sentence."""
SentenceCounts = tuple[Counts, ...]
"""One sentence: the counts of each annotator, in the scorer's visiting order."""
Scores = tuple[float, float, float]
"""``(precision, recall, f)``."""



def corpus_counts(sentences: Sequence[SentenceCounts], beta: float,
                  order: Sequence[int] | None = None) -> Counts:
    """The corpus totals with the scorer's greedy annotator choice (``maxmatch``'s
    ``choose_annotator``, same tie rules) over ``sentences`` visited in ``order`` (default:
    as given; indices may repeat).  The plain version, and the test oracle of the vectorised
    one (:class:`~gecformats.metrics.resampling.Greedy` with
    :class:`~gecformats.metrics.resampling.M2Rule`)."""
    c_tot = p_tot = g_tot = 0
    for i in (range(len(sentences)) if order is None else order):
        best = choose_counts(sentences[i], c_tot, p_tot, g_tot, beta)
        if best >= 0:
            c0, p0, g0 = sentences[i][best]
            c_tot, p_tot, g_tot = c_tot + c0, p_tot + p0, g_tot + g0
    return c_tot, p_tot, g_tot


def scores_of(counts: Counts, beta: float) -> Scores:
    """P, R, F of corpus totals, bit for bit as the scorer."""
    return precision_recall_f(*counts, beta)


def bootstrap(systems: Sequence[Sequence[SentenceCounts]], beta: float, *,
              resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
              ) -> list[list[Scores]]:
    """Every system's P, R, F on the same ``resamples`` bootstrap resamples.

    Resample ``r`` repeats sentence ``i`` as often as row ``r`` of
    :func:`~gecformats.metrics.resampling.bootstrap_weights` says, in document order; each
    system's totals on it are those of the scorer's greedy choice (:func:`corpus_counts`
    over that corpus), and P, R, F are the scorer's, bit for bit.

    Args:
        systems: per system, the per-sentence counts (``ScoreResult.counts``); all of the
            same length.
        beta: β of F_β (and of the greedy choice).
        resamples, seed: how many resamples, and the seed of their stream.

    Returns:
        ``scores[s][k]``: system ``s`` on resample ``k``.

    Raises:
        ValueError: the systems have different numbers of sentences; β² not finite and
            positive.
    """
    n = len(systems[0]) if systems else 0
    if any(len(s) != n for s in systems):
        raise ValueError("the systems have different numbers of sentences")
    if not systems:
        return []
    from . import resampling

    rule = resampling.M2Rule(beta)
    weights = resampling.bootstrap_weights(n, resamples, seed)
    return [list(map(tuple, resampling.Greedy(s, rule).scores(weights).tolist()))
            for s in systems]


def intervals(scores: Sequence[Scores], level: float = LEVEL
              ) -> dict[str, tuple[float, float]]:
    """``{"precision": (lo, hi), "recall": ..., "f": ...}`` from one system's resampled
    scores (:func:`bootstrap`)."""
    return {name: interval([s[k] for s in scores], level)
            for k, name in enumerate(("precision", "recall", "f"))}


def paired_bootstrap_p(baseline: Sequence[Scores], system: Sequence[Scores],
                       observed: float) -> float:
    """Paired bootstrap resampling p-value of a system's F against the baseline's
    (:func:`gecformats.metrics.statistics.paired_bootstrap_p` on F)."""
    from .statistics import paired_bootstrap_p as on_values

    return on_values([b[2] for b in baseline], [s[2] for s in system], observed)


def approximate_randomization(baseline: Sequence[SentenceCounts],
                              system: Sequence[SentenceCounts], beta: float, *,
                              trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED) -> float:
    """The paired approximate randomisation test (two-sided), as sacrebleu: each trial swaps
    the two systems' counts of every sentence with probability 1/2 (row ``t`` of
    :func:`~gecformats.metrics.resampling.swaps`) and scores both pseudo-systems (greedy
    choice redone); the p-value compares their absolute F differences with the observed one.

    Raises:
        ValueError: the two systems have different numbers of sentences; β² not finite and
            positive.
    """
    if len(system) != len(baseline):
        raise ValueError("the systems have different numbers of sentences")
    from . import resampling

    return _randomization(baseline, system, beta, resampling.swaps(len(baseline), trials, seed))


def _randomization(baseline: Sequence[SentenceCounts], system: Sequence[SentenceCounts],
                   beta: float, swapped: np.ndarray) -> float:
    """:func:`approximate_randomization` on given swaps (the same for every system)."""
    from . import resampling

    observed = abs(scores_of(corpus_counts(system, beta), beta)[2]
                   - scores_of(corpus_counts(baseline, beta), beta)[2])
    rule = resampling.M2Rule(beta)
    xs, ys = resampling.PairedGreedy(baseline, system, rule).scores(swapped)
    stats = abs(xs[:, 2] - ys[:, 2])
    return p_value(stats.tolist(), observed)


def resample(results: Sequence[ScoreResult], *, ci: bool = False, test: str | None = None,
             resamples: int = DEFAULT_RESAMPLES, trials: int = DEFAULT_TRIALS,
             seed: int = DEFAULT_SEED, level: float = LEVEL) -> list[ScoreResult]:
    """Add bootstrap intervals and/or paired p-values to scores made with ``keep_counts``.

    Args:
        results: the systems' results (``Scoring(keep_counts=True)``, or
            ``score_systems(..., keep_counts=True)``), on the same gold; the first is the
            baseline of a paired test.
        ci: give every system percentile intervals of P, R and F (``ScoreResult.ci``).
        test: ``"paired-bs"`` (paired bootstrap resampling) or ``"paired-ar"`` (approximate
            randomisation): every system but the baseline gets ``p_value``.
        resamples: bootstrap resamples (intervals and ``paired-bs``).
        trials: approximate randomisation trials (``paired-ar``).
        seed: the seed of the resamples and trials (the same for every system).
        level: the interval's confidence level.

    Returns:
        The results with ``ci``, ``p_value`` and the signature's ``resampling`` set
        (e.g. ``ci95+paired-bs|resamples:1000|seed:12345``).

    Raises:
        ValueError: a paired test with fewer than two systems, an unknown test, fewer than
            one resample or trial, a negative seed, a level outside (0, 1), or results
            scored without ``keep_counts``.
    """
    if test is not None and test not in TESTS:
        raise ValueError(f"unknown test {test!r} (known: {', '.join(TESTS)})")
    if test is not None and len(results) < 2:
        raise ValueError(f"{test} compares systems with the first one: give two or more")
    if not 0 < level < 1:
        raise ValueError(f"the confidence level must lie between 0 and 1, not {level}")
    if resamples < 1 or trials < 1:
        raise ValueError(f"resamples and trials must be 1 or more, not {min(resamples, trials)}")
    if seed < 0:
        raise ValueError(f"the seed must be 0 or more, not {seed}")
    if not ci and test is None:
        return list(results)
    if any(r.sentences and not r.counts for r in results):
        raise ValueError("resampling needs the per-sentence counts: score with keep_counts=True")
    from .m2 import M2Metric, M2Stats
    from .statistics import resample as resample_any

    settings = Resampling(ci, test, resamples, trials, seed, level, correction="none")
    stats = [[M2Stats(c, tuple(range(len(c))), False) for c in r.counts] for r in results]
    found = resample_any(M2Metric(beta=results[0].beta), stats,
                         [(r.precision, r.recall, r.f) for r in results], settings)
    name = settings.signature(2)  # no correction: its field is left out
    return [replace(r, signature=replace(r.signature, resampling=name), p_value=f.p_value,
                    ci=f.ci) for r, f in zip(results, found)]

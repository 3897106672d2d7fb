"""Confidence intervals and significance tests for MaxMatch (M2) scores.

The M2 corpus score is not a sum of sentence scores: each sentence's annotator is chosen
greedily from the running totals (spec §8).  So every resampled corpus redoes that choice
exactly as the scorer would on it, from the per-sentence, per-annotator counts kept while
scoring (``Scoring(keep_counts=True)``): no alignment is redone.

A bootstrap resample draws ``n`` sentences with replacement; the resampled corpus keeps
document order, each sentence repeated as often as it was drawn (the scorer's greedy choice
depends on the order, so the order has to be fixed; this one is the corpus' own).

* :func:`bootstrap` scores every system on the same resamples (what makes the tests paired);
* :func:`interval`: a percentile interval of P, R or F;
* :func:`paired_bootstrap_p`: sacrebleu's paired bootstrap p-value (Koehn 2004);
* :func:`approximate_randomization`: sacrebleu's paired approximate randomisation test.

>>> counts = [((1, 1, 1),), ((0, 1, 1), (1, 1, 1)), ((0, 0, 1),)]
>>> corpus_counts(counts, 0.5)
(2, 2, 3)
>>> weighted_counts(prepare(counts), 0.5, [1, 1, 1])
(2, 2, 3)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from operator import add, mul

from maxmatch import f_counts, precision_recall_f

from .score import ScoreResult

Counts = tuple[int, int, int]
"""``(correct, proposed, gold)`` of one annotator of one sentence."""
SentenceCounts = tuple[Counts, ...]
"""One sentence: the counts of each annotator, in the scorer's visiting order."""
Scores = tuple[float, float, float]
"""``(precision, recall, f)``."""

DEFAULT_RESAMPLES = 1000
"""Bootstrap resamples (``--ci``, ``--paired-bs``), as sacrebleu."""
DEFAULT_TRIALS = 10000
"""Approximate randomisation trials (``--paired-ar``), as sacrebleu."""
DEFAULT_SEED = 12345
"""The seed when none is given (sacrebleu's default seed), so that a score is reproducible."""
LEVEL = 0.95
"""The confidence level of :func:`interval`."""


def corpus_counts(sentences: Sequence[SentenceCounts], beta: float,
                  order: Sequence[int] | None = None) -> Counts:
    """The corpus totals with the scorer's greedy annotator choice (``maxmatch``'s
    ``choose_annotator``, same tie rules) over ``sentences`` visited in ``order`` (default:
    as given; indices may repeat).  The plain version: :func:`weighted_counts` is the fast
    one, and this is its test oracle."""
    sq = beta * beta
    c_tot = p_tot = g_tot = 0
    for i in (range(len(sentences)) if order is None else order):
        best: Counts | None = None
        f_best, c_best = -1.0, -1.0
        p_best = g_best = float("inf")
        for c0, p0, g0 in sentences[i]:
            c, p, g = c_tot + c0, p_tot + p0, g_tot + g0
            f = f_counts(c, p, g, beta)
            if (f_best < f or (f_best == f and c_best < c)
                    or (f_best == f and c_best == c and p_best + sq * g_best > p + sq * g)):
                best, f_best, c_best, p_best, g_best = (c, p, g), f, c, p, g
        if best is not None:
            c_tot, p_tot, g_tot = best
    return c_tot, p_tot, g_tot


def _undominated(options: SentenceCounts) -> SentenceCounts:
    """``options`` without those another option dominates (at least as many correct, at most
    as many proposed and gold edits), in visiting order.  A dominated option is never the
    greedy choice unless it ties with its dominator on every count (F' is monotone in each
    count and the tie rules compare F', then C, then P + β²G), so the totals do not change.
    F' is monotone because a credit needs a proposed and a gold edit: ``C > 0`` never meets
    the zero denominator ``P = G = 0`` (where the scorer's F' would be 0)."""
    kept: list[Counts] = []
    for k, o in enumerate(options):
        if any(q[0] >= o[0] and q[1] <= o[1] and q[2] <= o[2] and (q != o or j < k)
               for j, q in enumerate(options) if j != k):
            continue
        kept.append(o)
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class Prepared:
    """One system's counts ready for fast resampling (:func:`prepare`).

    ``packed[i]`` holds sentence ``i``'s counts as one integer ``c | p << s | g << 2s`` when
    the sentence has one undominated option (else 0); ``choices`` lists ``(i, options)`` for
    the sentences where the greedy choice still has a choice to make."""

    packed: tuple[int, ...]
    shift: int
    choices: tuple[tuple[int, SentenceCounts], ...]

    def unpack(self, value: int) -> Counts:
        """The ``(c, p, g)`` of a packed sum."""
        mask = (1 << self.shift) - 1
        return value & mask, (value >> self.shift) & mask, value >> (2 * self.shift)


def prepare(sentences: Sequence[SentenceCounts], max_weight: int | None = None) -> Prepared:
    """Pack a system's per-sentence counts for :func:`weighted_counts`.

    ``max_weight``: the largest total weight a resample will give (default: the number of
    sentences, which a bootstrap resample has), so that packed sums never overflow a field.
    """
    n = len(sentences)
    largest = max((x for options in sentences for o in options for x in o), default=0)
    shift = ((max_weight or n or 1) * (largest + 1)).bit_length() + 1
    packed: list[int] = []
    choices: list[tuple[int, SentenceCounts]] = []
    for i, options in enumerate(sentences):
        kept = _undominated(options)
        if len(kept) == 1:
            c, p, g = kept[0]
            packed.append(c | p << shift | g << 2 * shift)
        else:
            packed.append(0)
            choices.append((i, kept))
    return Prepared(tuple(packed), shift, tuple(choices))


def weighted_counts(prepared: Prepared, beta: float, weights: Sequence[int]) -> Counts:
    """The greedy corpus totals of the corpus that repeats sentence ``i`` ``weights[i]``
    times in document order: equal to :func:`corpus_counts` over that corpus, in
    ``O(n)`` C-level work plus Python work only for the sentences with a real choice."""
    prefix = list(accumulate(map(mul, weights, prepared.packed)))
    if not prefix:
        return 0, 0, 0
    sq = beta * beta
    one = 1 + sq
    shift = prepared.shift
    mask = (1 << shift) - 1
    c_more = p_more = g_more = 0  # what the choices added
    for i, options in prepared.choices:
        w = weights[i]
        if not w:
            continue
        base = prefix[i]
        c_tot = (base & mask) + c_more
        p_tot = ((base >> shift) & mask) + p_more
        g_tot = (base >> 2 * shift) + g_more
        for _ in range(w):
            best = None
            f_best, c_best = -1.0, -1.0
            p_best = g_best = float("inf")
            for c0, p0, g0 in options:
                c, p, g = c_tot + c0, p_tot + p0, g_tot + g0
                d = sq * g + p
                f = one * c / d if d else (1.0 if c == 0 else 0.0)
                if (f_best < f or (f_best == f and c_best < c)
                        or (f_best == f and c_best == c and p_best + sq * g_best > p + sq * g)):
                    best, f_best, c_best, p_best, g_best = options, f, c, p, g
            if best is not None:
                c_more += c_best - c_tot
                p_more += p_best - p_tot
                g_more += g_best - g_tot
                c_tot, p_tot, g_tot = c_best, p_best, g_best
    c, p, g = prepared.unpack(prefix[-1])
    return c + c_more, p + p_more, g + g_more


def resample_weights(n: int, resamples: int, seed: int) -> Iterator[list[int]]:
    """``resamples`` bootstrap resamples of ``n`` sentences, each as how often every sentence
    was drawn; the same stream for the same seed (what pairs the systems)."""
    rng = random.Random(seed)
    for _ in range(resamples):
        weights = [0] * n
        for i in rng.choices(range(n), k=n):
            weights[i] += 1
        yield weights


def scores_of(counts: Counts, beta: float) -> Scores:
    """P, R, F of corpus totals, bit for bit as the scorer."""
    return precision_recall_f(*counts, beta)


def bootstrap(systems: Sequence[Sequence[SentenceCounts]], beta: float, *,
              resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
              ) -> list[list[Scores]]:
    """Every system's P, R, F on the same ``resamples`` bootstrap resamples.

    Args:
        systems: per system, the per-sentence counts (``ScoreResult.counts``); all of the
            same length.
        beta: β of F_β (and of the greedy choice).
        resamples, seed: how many resamples, and the seed of their stream.

    Returns:
        ``scores[s][k]``: system ``s`` on resample ``k``.

    Raises:
        ValueError: the systems have different numbers of sentences.
    """
    n = len(systems[0]) if systems else 0
    if any(len(s) != n for s in systems):
        raise ValueError("the systems have different numbers of sentences")
    prepared = [prepare(s) for s in systems]
    scores: list[list[Scores]] = [[] for _ in systems]
    for weights in resample_weights(n, resamples, seed):
        for k, p in enumerate(prepared):
            scores[k].append(scores_of(weighted_counts(p, beta, weights), beta))
    return scores


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


def intervals(scores: Sequence[Scores], level: float = LEVEL
              ) -> dict[str, tuple[float, float]]:
    """``{"precision": (lo, hi), "recall": ..., "f": ...}`` from one system's resampled
    scores (:func:`bootstrap`)."""
    return {name: interval([s[k] for s in scores], level)
            for k, name in enumerate(("precision", "recall", "f"))}


def _p_value(stats: Sequence[float], observed: float) -> float:
    # sacrebleu's (from multeval) add-one smoothed share, so that a finite number of trials
    # never claims p = 0; but ">=" where sacrebleu has ">": a system compared with itself
    # (every statistic 0, observed 0) then gets p = 1, not a "significant" 1 / (R + 1).
    # Elsewhere the two differ only on exact ties of a float statistic.
    return (sum(1 for s in stats if s >= observed) + 1) / (len(stats) + 1)


def paired_bootstrap_p(baseline: Sequence[Scores], system: Sequence[Scores],
                       observed: float) -> float:
    """Paired bootstrap resampling p-value of a system's F against the baseline's, as
    sacrebleu computes it: the resampled absolute F differences, centred on their mean, are
    compared with the observed absolute difference ``observed``."""
    diffs = [abs(s[2] - b[2]) for s, b in zip(system, baseline)]
    mean = sum(diffs) / len(diffs) if diffs else 0.0
    return _p_value([d - mean for d in diffs], observed)


def approximate_randomization(baseline: Sequence[SentenceCounts],
                              system: Sequence[SentenceCounts], beta: float, *,
                              trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED) -> float:
    """The paired approximate randomisation test (two-sided), as sacrebleu: each trial swaps
    the two systems' counts of every sentence with probability 1/2 and scores both
    pseudo-systems (greedy choice redone); the p-value compares their absolute F differences
    with the observed one.

    Raises:
        ValueError: the two systems have different numbers of sentences.
    """
    n = len(baseline)
    if len(system) != n:
        raise ValueError("the systems have different numbers of sentences")
    observed = abs(scores_of(corpus_counts(system, beta), beta)[2]
                   - scores_of(corpus_counts(baseline, beta), beta)[2])
    a, b = prepare(baseline), prepare(system)
    shift = max(a.shift, b.shift)
    a, b = (x if x.shift == shift else _repack(x, shift) for x in (a, b))
    choose_a = dict(a.choices)
    choose_b = dict(b.choices)
    positions = sorted(choose_a.keys() | choose_b.keys())
    ones = [1] * n
    rng = random.Random(seed)
    stats: list[float] = []
    for _ in range(trials):
        swap = rng.choices((0, 1), k=n)
        keep = [1 - x for x in swap]
        packed_x = tuple(map(add, map(mul, keep, a.packed), map(mul, swap, b.packed)))
        packed_y = tuple(map(add, map(mul, swap, a.packed), map(mul, keep, b.packed)))
        choices_x, choices_y = [], []
        for i in positions:
            mine, theirs = (choose_a, choose_b) if not swap[i] else (choose_b, choose_a)
            if i in mine:
                choices_x.append((i, mine[i]))
            if i in theirs:
                choices_y.append((i, theirs[i]))
        x = Prepared(packed_x, shift, tuple(choices_x))
        y = Prepared(packed_y, shift, tuple(choices_y))
        fx = scores_of(weighted_counts(x, beta, ones), beta)[2]
        fy = scores_of(weighted_counts(y, beta, ones), beta)[2]
        stats.append(abs(fx - fy))
    return _p_value(stats, observed)


def _repack(prepared: Prepared, shift: int) -> Prepared:
    """``prepared`` with fields ``shift`` bits wide (two systems summed in one trial)."""
    packed = tuple(c | p << shift | g << 2 * shift
                   for c, p, g in map(prepared.unpack, prepared.packed))
    return Prepared(packed, shift, prepared.choices)


TESTS = ("paired-bs", "paired-ar")
"""The paired tests :func:`resample` runs (first system = baseline)."""


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
            one resample or trial, a level outside (0, 1), or results scored without
            ``keep_counts``.
    """
    if test is not None and test not in TESTS:
        raise ValueError(f"unknown test {test!r} (known: {', '.join(TESTS)})")
    if test is not None and len(results) < 2:
        raise ValueError(f"{test} compares systems with the first one: give two or more")
    if not 0 < level < 1:
        raise ValueError(f"the confidence level must lie between 0 and 1, not {level}")
    if resamples < 1 or trials < 1:
        raise ValueError(f"resamples and trials must be 1 or more, not {min(resamples, trials)}")
    if not ci and test is None:
        return list(results)
    if any(r.sentences and not r.counts for r in results):
        raise ValueError("resampling needs the per-sentence counts: score with keep_counts=True")
    beta = results[0].beta
    counts = [r.counts for r in results]
    bootstrapped = ci or test == "paired-bs"
    scores = bootstrap(counts, beta, resamples=resamples, seed=seed) if bootstrapped else []
    name = "+".join([f"ci{100 * level:g}"] * ci + [test or ""] * (test is not None))
    name += f"|resamples:{resamples}" * bootstrapped + f"|trials:{trials}" * (test == "paired-ar")
    out: list[ScoreResult] = []
    for k, r in enumerate(results):
        p_value = None
        if k and test == "paired-bs":
            p_value = paired_bootstrap_p(scores[0], scores[k], abs(r.f - results[0].f))
        elif k and test == "paired-ar":
            p_value = approximate_randomization(counts[0], counts[k], beta, trials=trials,
                                                seed=seed)
        signature = replace(r.signature, resampling=f"{name}|seed:{seed}")
        out.append(replace(r, signature=signature, p_value=p_value,
                           ci=intervals(scores[k], level) if ci else None))
    return out

"""Sentence-level meta-evaluation: pairwise agreement of a metric with human rankings.

For every ranking item (one annotator, one sentence) and every two systems it ranks
differently, the metric's scores for the two outputs of that sentence either order them
as the human did (concordant), the other way (discordant), or not at all (a metric tie).
Human ties are skipped; every annotator's item counts separately.  Pairs are taken in a
fixed system order (SEEDA: alphabetical; GJG15: gec-metrics' ``MetaEvalGJG.MODELS``), and
a metric tie is recorded by which system of the pair the human preferred, so that any
convention for metric ties can be computed from the counts (:func:`agreement`):

* ``"loss"`` — **the original's convention** (SEEDA ``utils/corr_sentence.py``, gec-metrics
  ``MetaEvalBase.corr_sentence``): a metric tie is scored as "the earlier system of the
  pair loses".  It is *asymmetric*: a tie agrees with the human whenever the human
  preferred the later system, so ``agreements = C + T_second`` and the result depends on
  the system order.  ``Acc = (C + T_second) / N``, ``tau = 2 * Acc - 1``.
* ``"skip"`` — metric ties are removed: ``Acc = C / (C + D)``, ``tau = (C - D) / (C + D)``.
* ``"neutral"`` — metric ties stay in the denominator, neither agreeing nor disagreeing:
  ``Acc = C / N``, ``tau = (C - D) / N``.

``N = C + D + T`` is the number of human-ordered pairs.  Scores are compared with exact
float equality (a tie is ``s_i == s_j``); higher is better.

Intervals (:func:`resampled_agreement`): the ranking items are the unit of resampling —
each bootstrap resample draws the items (one annotator's ranking of one sentence) with
replacement, the counts of :func:`item_counts` are summed with the resample's weights, and
accuracy and τ recomputed; the same resamples for every metric and system set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from gecformats.errors import GecFormatError
from gecformats.metaeval.judgments import RankingItem

TIE_CONVENTIONS = ("loss", "skip", "neutral")
"""The names :func:`agreement` accepts; ``"loss"`` is SEEDA's and gec-metrics'."""


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Counts of human-ordered system pairs by what the metric said.

    Attributes:
        n: pairs the human ordered (``concordant + discordant + ties_first + ties_second``).
        concordant: the metric orders the pair as the human did.
        discordant: the metric orders it the other way.
        ties_first: metric ties where the human preferred the earlier system in ``order``.
        ties_second: metric ties where the human preferred the later system.
    """

    n: int
    concordant: int
    discordant: int
    ties_first: int
    ties_second: int

    @property
    def ties(self) -> int:
        """All metric ties (``ties_first + ties_second``)."""
        return self.ties_first + self.ties_second


def pairwise_counts(items: Iterable[RankingItem], scores: Mapping[str, Sequence[float]],
                    order: Sequence[str], index: Callable[[int], int]) -> PairCounts:
    """Count the concordant, discordant and tied pairs of a metric against human rankings.

    Args:
        items: ranking items (read once), e.g. from
            :func:`~gecformats.metaeval.judgments.read_judgments`.
        scores: per-sentence metric scores of each system in ``order`` (higher = better),
            one list per system, indexed by ``index(src_id)``.
        order: the systems to compare, in the order that decides which system of a pair is
            "first"; systems an item ranks that are not in ``order`` are dropped.
        index: maps an item's ``src_id`` to the position in the score lists (SEEDA:
            :func:`~gecformats.metaeval.judgments.subset_index`; GJG15: ``lambda i: i``).

    Returns:
        The :class:`PairCounts` over all items.

    Raises:
        ValueError: a system of ``order`` has no scores or is named twice, or an item's
            sentence is beyond a system's score list (the message names the item's line).
        GecFormatError: whatever ``index`` raises for an unknown ``src_id`` (given the
            item's line when it has no file and line of its own).
    """
    concordant = discordant = ties_first = ties_second = 0
    for c, d, t_first, t_second in item_counts(items, scores, order, index):
        concordant += c
        discordant += d
        ties_first += t_first
        ties_second += t_second
    n = concordant + discordant + ties_first + ties_second
    return PairCounts(n, concordant, discordant, ties_first, ties_second)


def item_counts(items: Iterable[RankingItem], scores: Mapping[str, Sequence[float]],
                order: Sequence[str], index: Callable[[int], int]
                ) -> Iterator[tuple[int, int, int, int]]:
    """The counts of :func:`pairwise_counts` item by item: for every item, in order,
    ``(concordant, discordant, ties_first, ties_second)`` (all 0 for an item that ranks
    fewer than two systems of ``order``).  Arguments and errors as :func:`pairwise_counts`.
    """
    position = {name: k for k, name in enumerate(order)}
    if len(position) != len(order):
        raise ValueError("a system is named twice in order")
    missing = [name for name in order if name not in scores]
    if missing:
        raise ValueError(f"no sentence scores for system(s) {', '.join(missing)}")
    columns = [scores[name] for name in order]
    for item in items:
        ranked = sorted((position[name], rank) for name, rank in item.ranks if name in position)
        if len(ranked) < 2:
            yield 0, 0, 0, 0
            continue
        try:
            line = index(item.src_id)
        except GecFormatError as exc:  # located here: the item's line
            if exc.file is not None or exc.line is not None:
                raise
            raise GecFormatError(exc.message, None, item.line, exc.kind) from None
        try:
            values = {k: columns[k][line] for k, _ in ranked}
        except IndexError:
            raise ValueError(f"line {item.line}: src-id {item.src_id} maps to sentence {line}, "
                             "beyond the sentence scores of a system") from None
        concordant = discordant = ties_first = ties_second = 0
        for (i, rank_i), (j, rank_j) in combinations(ranked, 2):
            if rank_i == rank_j:
                continue
            human_first = rank_i < rank_j
            s_i, s_j = values[i], values[j]
            if s_i == s_j:
                if human_first:
                    ties_first += 1
                else:
                    ties_second += 1
            elif (s_i > s_j) == human_first:
                concordant += 1
            else:
                discordant += 1
        yield concordant, discordant, ties_first, ties_second


def agreement(counts: PairCounts, ties: str) -> tuple[float, float]:
    """Pairwise accuracy and Kendall's tau from pair counts under a metric-tie convention.

    Args:
        counts: from :func:`pairwise_counts`.
        ties: ``"loss"`` (SEEDA's and gec-metrics' asymmetric convention: a metric tie counts
            as a loss of the earlier system, i.e. an agreement exactly when the human
            preferred the later one), ``"skip"`` (metric ties left out) or ``"neutral"``
            (metric ties in the denominator only); see the module docstring for the formulas.

    Returns:
        ``(accuracy, tau)``; both ``nan`` when the denominator is 0 (no pairs, or only
        metric ties under ``"skip"``).

    Raises:
        ValueError: an unknown ``ties`` name.
    """
    c, d, n = counts.concordant, counts.discordant, counts.n
    if ties == "loss":
        agree = c + counts.ties_second
        return _ratio(agree, n), _ratio(agree - (n - agree), n)
    if ties == "skip":
        return _ratio(c, c + d), _ratio(c - d, c + d)
    if ties == "neutral":
        return _ratio(c, n), _ratio(c - d, n)
    raise ValueError(f"unknown metric-tie convention {ties!r} "
                     f"(one of {', '.join(TIE_CONVENTIONS)})")


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def resampled_agreement(per_item: np.ndarray, weights: np.ndarray, ties: str
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Accuracy and τ on every bootstrap resample of the ranking items.

    Args:
        per_item: shape ``(items, 4)``: :func:`item_counts` of each item.
        weights: shape ``(resamples, items)``: how often each resample draws each item
            (:func:`gecformats.metrics.resampling.bootstrap_weights`).
        ties: the metric-tie convention (as :func:`agreement`).

    Returns:
        ``(accuracy, tau)``, arrays of one value per resample (NaN where undefined).

    Raises:
        ValueError: an unknown ``ties`` name or shapes that do not fit.
    """
    if ties not in TIE_CONVENTIONS:
        raise ValueError(f"unknown metric-tie convention {ties!r} "
                         f"(one of {', '.join(TIE_CONVENTIONS)})")
    totals = np.asarray(weights, dtype=np.float64) @ np.asarray(per_item, dtype=np.float64
                                                                ).reshape(-1, 4)
    c, d, t_first, t_second = totals.T
    n = c + d + t_first + t_second
    if ties == "loss":
        agree, denominator, tau_numerator = c + t_second, n, 2 * (c + t_second) - n
    elif ties == "skip":
        agree, denominator, tau_numerator = c, c + d, c - d
    else:
        agree, denominator, tau_numerator = c, n, c - d
    with np.errstate(invalid="ignore", divide="ignore"):
        safe = np.where(denominator > 0, denominator, np.nan)
        return agree / safe, tau_numerator / safe

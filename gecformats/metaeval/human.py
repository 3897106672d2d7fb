"""Human system rankings from ranking judgments: Expected Wins and TrueSkill.

Both work on the pairwise comparisons a ranking implies: within one
:class:`~gecformats.metaeval.judgments.RankingItem`, every two of the requested systems
that the item ranks form one comparison (a win for the better-ranked one, or a tie), and
every annotator's item counts separately.  A system that shares a collapsed
``<translation>`` with others has their rank, so it ties with them.

How the published scores were made, and what is reproduced here
(tests/test_metaeval_human.py measures it):

* **Expected Wins** (GJG15, SEEDA — SEEDA's README: "human rankings can be created by
  replacing the judgments.xml file in Grundkiewicz et al. (2015)'s repository"):
  ``EW(i) = 1/(|S|-1) * sum_{j != i} wins(i, j) / (wins(i, j) + wins(j, i))``, ties ignored
  (Bojar et al. 2011/2013, the ``wmt-trueskill`` ``EW.py`` and GJG15's ``EW.pl``).  The
  published values are the mean over 1,000 *bootstrap resamples* of the comparisons
  (``EW.py`` run 1,000 times, averaged by ``eval/cluster.py``, printed to 3 decimals): a
  random quantity.  :func:`expected_wins` computes the statistic on all comparisons (what
  ``EW.pl`` prints as its point score and gec-metrics' ``run_expected_wins`` computes),
  the value the bootstrap mean estimates.  Measured: GJG15 Table 3(b) 13/13 equal after
  rounding to 3 decimals (largest difference 0.00050); SEEDA ``EW_edit`` 10/15 and
  ``EW_sent`` 13/15 equal at 3 decimals, largest difference 0.0008 — the size of the Monte
  Carlo error of a 1,000-run bootstrap mean (about 0.013 / sqrt(1000) = 0.0004 per value).
* **TrueSkill**: the published GJG15 / SEEDA TS scores come from ``wmt-trueskill``
  ``TS.py -n 2 -d 0`` run 1,000 times: each run draws its games *at random* (the pair to
  play chosen adaptively from the current ratings, the judgment drawn with replacement)
  with ``beta = sigma * N / 40`` for N judgments, and the means of the runs are printed.
  That cannot be reproduced bit for bit.  :func:`trueskill_scores` plays every comparison
  once, in file order, with gec-metrics' fixed parameters (``metrics/base.py``
  ``run_trueskill``: mu 0, sigma 0.5, beta 0.25, tau 0, draw probability 0.25; a tie is a
  draw), which is deterministic and equals, float for float, gec-metrics' ``run_trueskill``
  fed the same comparisons.  Measured against the published TS (every comparison once, in
  file order; tests/bench/bench_metaeval_human.py): the *ranking* is the published one
  (Spearman 1.0 for GJG15, SEEDA-E and SEEDA-S; Pearson 0.9995-0.9997), the scale is not
  (largest differences 0.49, 0.60, 0.79).  With ``beta = 0.5 * (N + 1) / 40`` for N
  comparisons (the beta ``TS.py`` sets), the scale is the published one: largest
  differences 0.011 (GJG15), 0.037 (SEEDA-E), 0.064 (SEEDA-S), within the spread of the
  randomised originals, Spearman still 1.0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from gecformats.metaeval.judgments import RankingItem

TRUESKILL_PARAMETERS: dict[str, float] = {
    "mu": 0.0, "sigma": 0.5, "beta": 0.25, "tau": 0.0, "draw_probability": 0.25}
"""gec-metrics' fixed TrueSkill environment (``MetricBase.run_trueskill``)."""


def comparisons(items: Iterable[RankingItem],
                systems: Sequence[str]) -> Iterator[tuple[int, int, int]]:
    """The pairwise comparisons the rankings imply, in a fixed order.

    Args:
        items: ranking items (any iterable; read once).
        systems: the systems to compare; others are ignored.  Their order fixes the order
            of the pairs within an item (``itertools.combinations`` of the positions).

    Yields:
        ``(i, j, outcome)`` with ``i < j`` positions in ``systems`` that the item both
        ranks: ``outcome`` is 1 when ``systems[i]`` is ranked better, -1 when worse, 0 for a
        tie.  Items come in the given order.

    Raises:
        ValueError: ``systems`` names a system twice.
    """
    position = {name: k for k, name in enumerate(systems)}
    if len(position) != len(systems):
        raise ValueError("a system is named twice in systems")
    for item in items:
        ranked = sorted((position[name], rank) for name, rank in item.ranks if name in position)
        for (i, rank_i), (j, rank_j) in combinations(ranked, 2):
            yield i, j, (rank_i < rank_j) - (rank_i > rank_j)


def expected_wins(items: Iterable[RankingItem], systems: Sequence[str]) -> dict[str, float]:
    """Expected Wins of each system from ranking judgments (ties ignored).

    ``EW(i) = 1/(n-1) * sum over j != i of wins(i, j) / (wins(i, j) + wins(j, i))`` for the n
    given systems; a pair that was never decided (no wins either way) adds 0, as in
    ``wmt-trueskill`` ``EW.py``.  This is the statistic on all comparisons; the published
    GJG15/SEEDA values are bootstrap means of it (see the module docstring).

    Args:
        items: ranking items, e.g. from :func:`~gecformats.metaeval.judgments.read_judgments`.
        systems: the systems to score (at least two); comparisons with any other system
            are left out.

    Returns:
        ``{system: EW}`` in the order of ``systems``, each in [0, 1].

    Raises:
        ValueError: fewer than two systems, or a system named twice.
    """
    n = len(systems)
    if n < 2:
        raise ValueError("expected wins needs at least two systems")
    wins = [[0] * n for _ in range(n)]
    for i, j, outcome in comparisons(items, systems):
        if outcome > 0:
            wins[i][j] += 1
        elif outcome < 0:
            wins[j][i] += 1
    scores = {}
    for i, name in enumerate(systems):
        total = 0.0
        for j in range(n):
            decided = wins[i][j] + wins[j][i]
            if j != i and decided:
                total += wins[i][j] / decided
        scores[name] = total / (n - 1)
    return scores


def trueskill_scores(items: Iterable[RankingItem], systems: Sequence[str],
                     **params: float) -> dict[str, float]:
    """TrueSkill mean (mu) of each system, every comparison played once in a fixed order.

    The games are the :func:`comparisons` in order (items in file order; within an item
    the pairs in the order of ``systems``); a tie is a draw.  The result is deterministic
    for a given order.  This is how gec-metrics rates systems from pairwise results
    (``MetricBase.run_trueskill``), applied to human judgments.

    Args:
        items: ranking items.
        systems: the systems to rate; comparisons with others are left out.
        **params: the TrueSkill environment, default :data:`TRUESKILL_PARAMETERS` (mu 0,
            sigma 0.5, beta 0.25, tau 0, draw_probability 0.25); any of them can be given.

    Returns:
        ``{system: mu}`` in the order of ``systems``.

    Raises:
        ImportError: the ``trueskill`` package is not installed (the ``metaeval`` extra),
            with the command that installs it.
        TypeError: an unknown parameter name.
        ValueError: a system named twice.
    """
    unknown = set(params) - set(TRUESKILL_PARAMETERS)
    if unknown:
        raise TypeError(f"unknown TrueSkill parameter(s): {', '.join(sorted(unknown))} "
                        f"(known: {', '.join(TRUESKILL_PARAMETERS)})")
    env = _environment({**TRUESKILL_PARAMETERS, **params})
    ratings = [env.create_rating() for _ in systems]
    for i, j, outcome in comparisons(items, systems):
        ranks = (0, 1) if outcome > 0 else (1, 0) if outcome < 0 else (0, 0)
        (ratings[i],), (ratings[j],) = env.rate([(ratings[i],), (ratings[j],)], ranks=ranks)
    return {name: float(rating.mu) for name, rating in zip(systems, ratings)}


def _environment(params: dict[str, float]) -> Any:
    try:
        import trueskill
    except ImportError:
        raise ImportError("TrueSkill rankings need the 'trueskill' package: "
                          "pip install 'gecformats[metaeval]' (or pip install trueskill)") from None
    return trueskill.TrueSkill(**params)

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

import math
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from gecformats.errors import install_hint
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
    (``MetricBase.run_trueskill``), applied to human judgments.  A game is played by
    :class:`_OneVsOne`, the package's arithmetic without its factor graph: the same floats
    as ``trueskill.TrueSkill.rate``, 6-7 times faster (all of GJG15: 1.7 s instead of 12 s).

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
    settings = {**TRUESKILL_PARAMETERS, **params}
    env = _environment(settings)
    game = _OneVsOne(env, settings["tau"])
    ratings = [_rating(float(env.mu), float(env.sigma)) for _ in systems]
    for i, j, outcome in comparisons(items, systems):
        if outcome < 0:
            ratings[j], ratings[i] = game.play(ratings[j], ratings[i], False)
        else:
            ratings[i], ratings[j] = game.play(ratings[i], ratings[j], outcome == 0)
    return {name: mu for name, (mu, _) in zip(systems, ratings)}


class _OneVsOne:
    """One game of two one-player teams, the same floating-point operations in the same
    order as ``trueskill.TrueSkill.rate`` (its factor graph: prior, likelihood, team sum,
    difference, truncation; the schedule's loop until the change is at most 1e-4), without
    building the graph: about 10 times faster, equal float for float (tested against the
    package).  Ratings are ``(mu, sigma)`` pairs, as ``trueskill.Rating`` keeps them."""

    def __init__(self, env: Any, dynamic: float) -> None:
        import trueskill

        self.env = env
        self.dynamic = dynamic
        self.variance = env.beta ** 2
        self.margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
        self.min_delta = trueskill.DELTA

    def _perf(self, rating: tuple[float, float]) -> tuple[float, float, float, float]:
        """Prior then likelihood down: the rating's (pi, tau) and its performance's."""
        mu, sigma = rating
        sigma = math.sqrt(sigma ** 2 + self.dynamic ** 2)
        pi = sigma ** -2
        tau = pi * mu
        a = 1. / (1. + self.variance * pi)
        return pi, tau, a * pi, a * tau

    def play(self, first: tuple[float, float], second: tuple[float, float],
             drawn: bool) -> tuple[tuple[float, float], tuple[float, float]]:
        """The new ratings after ``first`` beat (or, ``drawn``, drew with) ``second``."""
        env = self.env
        v_func, w_func = (env.v_draw, env.w_draw) if drawn else (env.v_win, env.w_win)
        r0pi, r0tau, p0pi, p0tau = self._perf(first)
        r1pi, r1tau, p1pi, p1tau = self._perf(second)
        # team sums (down): one player each
        t0pi = 1. / (1 / p0pi)
        t0tau = t0pi * (p0tau / p0pi)
        t1pi = 1. / (1 / p1pi)
        t1tau = t1pi * (p1tau / p1pi)
        # the difference's message (down) never changes: the teams get no message up yet
        mpi = 1. / (1 / t0pi + 1 / t1pi)
        mtau = mpi * (t0tau / t0pi + -1 * (t1tau / t1pi))
        dpi = dtau = 0.0  # the difference variable
        opi = otau = 0.0  # the difference's message to the truncation so far
        tpi = ttau = 0.0  # the truncation's message
        for _ in range(10):
            dpi, dtau = (dpi - opi) + mpi, (dtau - otau) + mtau
            opi, otau = mpi, mtau
            divpi, divtau = dpi - tpi, dtau - ttau
            sqrt_pi = math.sqrt(divpi)
            args = (divtau / sqrt_pi, self.margin * sqrt_pi)
            v = v_func(*args)
            w = w_func(*args)
            denom = (1. - w)
            pi, tau = divpi / denom, (divtau + sqrt_pi * v) / denom
            tpi, ttau = (pi + tpi) - dpi, (tau + ttau) - dtau
            pi_delta = abs(dpi - pi)
            delta = 0. if pi_delta == math.inf else max(abs(dtau - tau), math.sqrt(pi_delta))
            dpi, dtau = pi, tau
            if delta <= self.min_delta:
                break
        # the difference up to both teams
        api, atau = dpi - opi, dtau - otau
        u0pi, u0tau = _sum_up([(api, atau, 1.0), (t1pi, t1tau, 1.0)])
        t0pi, t0tau = t0pi + u0pi, t0tau + u0tau
        u1pi, u1tau = _sum_up([(t0pi - u0pi, t0tau - u0tau, 1.0), (api, atau, -1.0)])
        t1pi, t1tau = t1pi + u1pi, t1tau + u1tau
        # the team sums up to the performances, the likelihoods up to the ratings
        return (self._rating(t0pi, t0tau, p0pi, p0tau, r0pi, r0tau),
                self._rating(t1pi, t1tau, p1pi, p1tau, r1pi, r1tau))

    def _rating(self, team_pi: float, team_tau: float, perf_pi: float, perf_tau: float,
                pi: float, tau: float) -> tuple[float, float]:
        """The team sum up to the performance, the likelihood up to the rating."""
        down_pi = 1. / (1 / perf_pi)
        down_tau = down_pi * (perf_tau / perf_pi)
        up_pi, up_tau = _sum_up([(team_pi - down_pi, team_tau - down_tau, 1.0)])
        msg_pi = (perf_pi + up_pi) - perf_pi
        msg_tau = (perf_tau + up_tau) - perf_tau
        a = 1. / (1. + self.variance * msg_pi)
        pi, tau = pi + a * msg_pi, tau + a * msg_tau
        return _rating(float(pi and tau / pi), float(math.sqrt(1 / pi) if pi else math.inf))


def _rating(mu: float, sigma: float) -> tuple[float, float]:
    """``(mu, sigma)`` as a ``trueskill.Rating`` made of them gives them back: it keeps the
    precision and the precision-adjusted mean, so ``mu`` may come back one ulp away."""
    pi = sigma ** -2
    tau = pi * mu
    return pi and tau / pi, math.sqrt(1 / pi) if pi else math.inf


def _sum_up(terms: list[tuple[float, float, float]]) -> tuple[float, float]:
    """A sum factor's message: ``terms`` are (pi, tau, coefficient) of the divided values."""
    pi_inv: float = 0
    mu: float = 0
    for pi, tau, coeff in terms:
        mu += coeff * (pi and tau / pi)
        if pi_inv == math.inf:
            continue
        try:
            pi_inv += coeff ** 2 / float(pi)
        except ZeroDivisionError:
            pi_inv = math.inf
    pi = 1. / pi_inv
    return pi, pi * mu


def _environment(params: dict[str, float]) -> Any:
    try:
        import trueskill
    except ImportError:
        raise ImportError("TrueSkill rankings need the 'trueskill' package: "
                          f"{install_hint('metaeval')} (or pip install trueskill)") from None
    return trueskill.TrueSkill(**params)

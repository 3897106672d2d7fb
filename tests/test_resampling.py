"""gecformats.metrics.resampling: the vectorised greedy choice equals the plain greedy loop.

Oracles: ``significance.corpus_counts`` for M2 (the scorer's choice), a plain ERRANT loop
on ``errant.f_score`` with ``_best_pair``'s tie rules, and a plain loop on a toy rule of any
width; each over the expanded corpus (sentence ``i`` repeated ``weights[i]`` times, in
document order) or the swapped pseudo-systems of approximate randomisation.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import assume, example, given, settings, strategies as st

from conftest import FIXTURES
from gecformats.metrics import resampling as rs
from gecformats.metrics.errant import f_score
from gecformats.metrics.significance import corpus_counts
from maxmatch import precision_recall_f

BETAS = st.sampled_from([0.5, 1.0, 2.0, 0.3, 0.1, 3.7])

# M2: a credit needs a proposed edit and a gold edit; small counts make ties frequent
m2_counts = st.tuples(st.integers(0, 4), st.integers(0, 5), st.integers(0, 6)).map(
    lambda t: t if t[1] and t[2] else (0, t[1], t[2]))
errant_counts = st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5))


def corpora(counts: st.SearchStrategy, max_size: int = 14) -> st.SearchStrategy:
    """Sentences of 0 to 4 candidates (copies and dominated ones included)."""
    return st.lists(st.lists(counts, max_size=4).map(tuple), max_size=max_size)


@st.composite
def weight_rows(draw: st.DrawFn, n: int) -> np.ndarray:
    """A few rows of weights: zeros, ones, bootstrap-like and a few large ones."""
    rows = draw(st.integers(1, 5))
    top = draw(st.sampled_from([1, 3, 7, 40]))
    return np.array(draw(st.lists(st.lists(st.integers(0, top), min_size=n, max_size=n),
                                  min_size=rows, max_size=rows)), dtype=np.int64).reshape(rows, n)


def expanded(weights: np.ndarray) -> list[int]:
    return [i for i, w in enumerate(weights) for _ in range(int(w))]


def errant_oracle(sentences, beta: float, order=None) -> tuple[int, int, int]:
    """ERRANT's corpus loop (``errant._best_pair`` on each sentence, in ``order``)."""
    totals = [0, 0, 0]
    for i in (range(len(sentences)) if order is None else order):
        best_tp = best_fp = best_fn = 0
        best_f = -1.0
        for tp, fp, fn in sentences[i]:
            f = f_score(tp + totals[0], fp + totals[1], fn + totals[2], beta)[2]
            if (f > best_f or (f == best_f and tp > best_tp)
                    or (f == best_f and tp == best_tp and fp < best_fp)
                    or (f == best_f and tp == best_tp and fp == best_fp and fn < best_fn)):
                best_tp, best_fp, best_fn, best_f = tp, fp, fn, f
        totals = [totals[0] + best_tp, totals[1] + best_fp, totals[2] + best_fn]
    return tuple(totals)


def swapped(a, b, row):
    x = [bi if s else ai for ai, bi, s in zip(a, b, row)]
    y = [ai if s else bi for ai, bi, s in zip(a, b, row)]
    return x, y


# ---------------------------------------------------------------------- M2


@settings(max_examples=400, deadline=None)
@given(corpora(m2_counts), st.data(), BETAS)
@example([((1, 2, 2), (0, 1, 1))] * 3, None, 0.5)
def test_m2_totals_are_the_greedy_choice_on_the_repeated_corpus(sents, data, beta):
    weights = (np.array([[1, 0, 5]]) if data is None
               else data.draw(weight_rows(len(sents))))
    got = rs.Greedy(sents, rs.M2Rule(beta)).totals(weights)
    assert got.dtype == np.int64 and got.shape == (len(weights), 3)
    for row, w in zip(got.tolist(), weights):
        assert tuple(row) == corpus_counts(sents, beta, expanded(w))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 12).flatmap(lambda n: st.tuples(
    st.lists(st.lists(m2_counts, max_size=3).map(tuple), min_size=n, max_size=n),
    st.lists(st.lists(m2_counts, max_size=3).map(tuple), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=6))),
    BETAS)
def test_m2_swaps_are_the_greedy_choice_on_both_pseudo_systems(case, beta):
    a, b, rows = case
    xs, ys = rs.PairedGreedy(a, b, rs.M2Rule(beta)).totals(np.array(rows).reshape(len(rows), -1))
    for row, x, y in zip(rows, xs.tolist(), ys.tolist()):
        xa, yb = swapped(a, b, row)
        assert tuple(x) == corpus_counts(xa, beta) and tuple(y) == corpus_counts(yb, beta)


def test_a_system_swapped_with_itself_gives_its_own_totals():
    sents = [((0, 1, 2), (1, 1, 1)), ((0, 0, 3),), (), ((2, 3, 2), (1, 1, 4), (2, 3, 2))]
    rows = rs.swaps(len(sents), 50, 1)
    xs, ys = rs.PairedGreedy(sents, sents, rs.M2Rule(0.5)).totals(rows)
    assert (xs == ys).all() and (xs == corpus_counts(sents, 0.5)).all()


@settings(max_examples=200, deadline=None)
@given(corpora(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))), st.data(),
       BETAS)
def test_unsound_counts_are_not_pruned_and_still_exact(sents, data, beta):
    """A credit without a proposed or gold edit (F' = 0 on a zero denominator) breaks the
    monotony dominance relies on: such a system is not pruned, and stays exact."""
    weights = data.draw(weight_rows(len(sents)))
    got = rs.Greedy(sents, rs.M2Rule(beta)).totals(weights)
    for row, w in zip(got.tolist(), weights):
        assert tuple(row) == corpus_counts(sents, beta, expanded(w))


def test_pruning_leaves_only_real_choices():
    sents = [((0, 0, 2), (0, 0, 3)), ((1, 1, 1), (1, 1, 1)), ((1, 2, 2), (0, 1, 1)), ()]
    engine = rs.Greedy(sents, rs.M2Rule(0.5))
    assert engine.choice_sentences == 1  # the third: more credits, but more edits too
    unsound = rs.Greedy(sents + [((1, 0, 0),)], rs.M2Rule(0.5))
    assert unsound.choice_sentences == 2  # only the copy is dropped
    assert rs.Greedy(sents, rs.ErrantRule(0.5)).choice_sentences == 1  # (tp, fp, fn) alike


def test_past_the_prune_limit_nothing_is_pruned_but_the_totals_agree():
    sents = [((0, 0, 2), (0, 0, 3)), ((1, 2, 2), (0, 1, 1))] * 5
    rule = rs.M2Rule(0.5)
    weights = rs.bootstrap_weights(len(sents), 30, 4)
    pruned = rs.Greedy(sents, rule).totals(weights)
    rule.prune_limit = 0
    assert (rs.Greedy(sents, rule).totals(weights) == pruned).all()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6)),
                min_size=1, max_size=20), BETAS)
def test_m2_values_are_the_scorers_bit_for_bit(totals, beta):
    got = rs.M2Rule(beta).values(np.array(totals))
    for row, t in zip(got.tolist(), totals):
        assert tuple(row) == precision_recall_f(*t, beta)


# ---------------------------------------------------------------------- ERRANT


@settings(max_examples=400, deadline=None)
@given(corpora(errant_counts), st.data(), BETAS)
def test_errant_totals_are_erants_loop_on_the_repeated_corpus(sents, data, beta):
    weights = data.draw(weight_rows(len(sents)))
    got = rs.Greedy(sents, rs.ErrantRule(beta)).totals(weights)
    for row, w in zip(got.tolist(), weights):
        assert tuple(row) == errant_oracle(sents, beta, expanded(w))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10).flatmap(lambda n: st.tuples(
    st.lists(st.lists(errant_counts, max_size=3).map(tuple), min_size=n, max_size=n),
    st.lists(st.lists(errant_counts, max_size=3).map(tuple), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=5))),
    BETAS)
def test_errant_swaps_are_erants_loop_on_both_pseudo_systems(case, beta):
    a, b, rows = case
    rule = rs.ErrantRule(beta)
    xs, ys = rs.PairedGreedy(a, b, rule).totals(np.array(rows).reshape(len(rows), -1))
    for row, x, y in zip(rows, xs.tolist(), ys.tolist()):
        xa, yb = swapped(a, b, row)
        assert tuple(x) == errant_oracle(xa, beta) and tuple(y) == errant_oracle(yb, beta)


@settings(max_examples=1000, deadline=None)
@given(st.tuples(st.integers(0, 3000), st.integers(0, 3000), st.integers(0, 3000)),
       st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
       st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), BETAS)
def test_errant_dominance_holds_on_rounded_f(base, a, d, beta):
    """The claim that lets ERRANT prune: a candidate with no fewer TP and no more FP, FN
    never gets a smaller rounded F (so with the tie rules it always wins)."""
    rule = rs.ErrantRule(beta)
    b = (a[0], a[1] + d[1], a[2] + d[2])
    a = (a[0] + d[0], a[1], a[2])
    fa = f_score(*(x + y for x, y in zip(base, a)), beta)[2]
    fb = f_score(*(x + y for x, y in zip(base, b)), beta)[2]
    assert fa >= fb
    assert rule.dominates(a, b) == (a != b)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**5), st.integers(0, 10**5), st.integers(0, 10**5)),
                min_size=1, max_size=20), BETAS)
def test_errant_values_are_f_score_bit_for_bit(totals, beta):
    got = rs.ErrantRule(beta).values(np.array(totals))
    for row, t in zip(got.tolist(), totals):
        assert tuple(row) == f_score(*t, beta)


def python_round4(x: float) -> int:
    return round(round(x, 4) * 10**4)


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.floats(0, 1.5), st.integers(0, 30000).map(lambda m: (2 * m + 1) / 20000),
                 st.integers(0, 15000).map(lambda m: m / 10000)),
       st.integers(-3, 3))
def test_round4_is_pythons_round(x, ulps):
    """Half-way points and their neighbours a few ulps away, where ``np.round`` may differ
    from Python's exact rounding."""
    for _ in range(abs(ulps)):
        x = float(np.nextafter(x, np.inf if ulps > 0 else -np.inf))
    assume(0 <= x < 1.6)
    assert rs.round4(np.array([x])).tolist() == [python_round4(x)]


def test_round4_where_numpy_round_is_wrong():
    xs = [0.00015, 0.00025, 0.12345, 0.5000500000000001, 0.99995, 0.84375]
    assert rs.round4(np.array(xs)).tolist() == [python_round4(x) for x in xs]
    assert any(round(x, 4) != float(np.round(x, 4)) for x in [0.00015, 0.12345, 1.00005])


# ---------------------------------------------------------------------- any width


class Toy(rs.Rule):
    """A rule of any width: larger ``Σ counts[j] · (j + 1) / (total + 1)``, then smaller
    first count; no dominance (so nothing is pruned but copies)."""

    columns = ("score",)
    larger = (True, False)
    prune_limit = 0.0

    def __init__(self, width: int) -> None:
        self.width = width
        self.factors = [float(j + 1) for j in range(width)]

    def _score(self, counts):
        total = sum(counts)
        return sum(f * c for f, c in zip(self.factors, counts)) / (total + 1)

    def keys(self, totals):
        return self._score(list(totals)), totals[0]

    def dominates(self, a, b):
        return False

    def values(self, totals):
        return np.array([[self._score(list(t))] for t in totals.tolist()])


def toy_oracle(rule: Toy, sentences, order) -> tuple[int, ...]:
    totals = (0,) * rule.width
    for i in order:
        best = None
        for o in sentences[i]:
            t = tuple(x + y for x, y in zip(totals, o))
            if best is None or (rule._score(t), -t[0]) > (rule._score(best), -best[0]):
                best = t
        totals = best if best is not None else totals
    return totals


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5).flatmap(lambda k: st.tuples(st.just(k), corpora(
    st.lists(st.integers(0, 4), min_size=k, max_size=k).map(tuple), max_size=10))),
    st.data())
def test_any_width_and_rule(case, data):
    k, sents = case
    rule = Toy(k)
    weights = data.draw(weight_rows(len(sents)))
    got = rs.Greedy(sents, rule).totals(weights)
    assert got.shape == (len(weights), k)
    for row, w in zip(got.tolist(), weights):
        assert tuple(row) == toy_oracle(rule, sents, expanded(w))


# ---------------------------------------------------------------------- draws and edges


def test_bootstrap_weights_are_seeded_counts_of_draws():
    w = rs.bootstrap_weights(50, 200, 7)
    assert w.shape == (200, 50) and w.dtype == np.int64
    assert (w.sum(axis=1) == 50).all() and (w >= 0).all()
    assert (w == rs.bootstrap_weights(50, 200, 7)).all()
    assert not (w == rs.bootstrap_weights(50, 200, 8)).all()
    drawn = np.random.default_rng(7).integers(0, 50, size=(200, 50))
    assert (w[3] == np.bincount(drawn[3], minlength=50)).all()  # as documented
    assert rs.bootstrap_weights(0, 5, 1).shape == (5, 0)


def test_swaps_are_seeded_coin_flips():
    s = rs.swaps(40, 1000, 3)
    assert s.shape == (1000, 40) and set(np.unique(s).tolist()) == {0, 1}
    assert (s == rs.swaps(40, 1000, 3)).all() and not (s == rs.swaps(40, 1000, 4)).all()
    assert 0.45 < s.mean() < 0.55


def test_empty_corpus_and_no_rows():
    for rule in (rs.M2Rule(0.5), rs.ErrantRule(0.5)):
        assert rs.Greedy([], rule).totals(np.zeros((3, 0), dtype=int)).tolist() == [[0, 0, 0]] * 3
        assert rs.Greedy([((1, 1, 1),)], rule).totals(np.zeros((0, 1), dtype=int)).shape == (0, 3)
        xs, ys = rs.PairedGreedy([], [], rule).totals(np.zeros((2, 0), dtype=int))
        assert xs.tolist() == ys.tolist() == [[0, 0, 0]] * 2


def test_refusals():
    rule = rs.M2Rule(0.5)
    with pytest.raises(ValueError, match="sentence 2: a candidate of 2 counts, not 3"):
        rs.Greedy([((1, 1, 1),), ((1, 1),)], rule)
    engine = rs.Greedy([((1, 1, 1),)], rule)
    with pytest.raises(ValueError, match=r"shape \(R, 1\)"):
        engine.totals(np.ones((2, 2), dtype=int))
    with pytest.raises(ValueError, match="non-negative integers"):
        engine.totals(np.array([[-1]]))
    with pytest.raises(ValueError, match="from 0 to 1"):
        rs.PairedGreedy([((1, 1, 1),)], [((1, 1, 1),)], rule).totals(np.array([[2]]))
    with pytest.raises(ValueError, match="different numbers of sentences"):
        rs.PairedGreedy([((1, 1, 1),)], [], rule)
    with pytest.raises(ValueError, match="too large"):
        rs.Greedy([((2**52, 1, 1),)], rule).totals(np.array([[2]]))
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        rs.bootstrap_weights(3, 2, -1)
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        rs.swaps(3, 2, -1)
    for beta in (0.0, float("inf"), float("nan"), 1e-200):
        with pytest.raises(ValueError, match="beta"):
            rs.M2Rule(beta)
        with pytest.raises(ValueError, match="beta"):
            rs.ErrantRule(beta)


def test_plain_score_does_not_import_numpy():
    """NumPy is for resampling only: ``score`` without --ci/--paired-* starts without it."""
    hyp, gold = FIXTURES / "score" / "sample.hyp", FIXTURES / "score" / "sample.m2"
    code = ("import sys; from gecformats.cli import main\n"
            f"sys.argv = ['gecformats', 'score', {str(hyp)!r}, '--gold', {str(gold)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('numpy' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr.strip().splitlines()[-1] == "False"
    assert "F0.5" in out.stdout


def test_scores_are_the_rules_values_of_the_totals():
    sents = [((0, 1, 2), (1, 1, 1)), ((0, 0, 3),), ((2, 3, 2), (1, 1, 4))]
    for rule in (rs.M2Rule(0.5), rs.ErrantRule(1.0)):
        weights = rs.bootstrap_weights(3, 20, 9)
        engine = rs.Greedy(sents, rule)
        assert (engine.scores(weights) == rule.values(engine.totals(weights))).all()
        paired = rs.PairedGreedy(sents, sents[::-1], rule)
        rows = rs.swaps(3, 20, 9)
        for got, totals in zip(paired.scores(rows), paired.totals(rows)):
            assert got.shape == (20, 3) and (got == rule.values(totals)).all()

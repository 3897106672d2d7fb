"""Unit tests of the bundled MaxMatch scorer on small hand-made cases (spec §3-§9)."""

from __future__ import annotations

import pytest

import maxmatch
from maxmatch import split_hypothesis
from maxmatch._text import PY27_WHITESPACE, equals_ignore_whitespace_casing, py27_lower
from maxmatch.corpus import choose_annotator, f_counts, normalise_gold, precision_recall_f
from maxmatch.lattice import LatticeError, base_lattice, close_lattice, remove_noop_arcs
from maxmatch.match import match_edits, shrink_edit
from maxmatch.search import SentenceSearch, backtrack, bellman_ford

# every test on both backends: the pure-Python path and the compiled core
pytestmark = pytest.mark.usefixtures("maxmatch_backend")

EX1_SRC = "The cat sat at mat .".split()
EX1_HYP = "A cat sat on the mat .".split()
EX1_GOLD = {0: [(3, 4, ("on",)), (4, 4, ("the", "a"))]}


# ------------------------------------------------------------------ tokenisation, casing

def test_split_hypothesis_python27_whitespace() -> None:
    assert split_hypothesis("  a\tb  c \r\n") == ["a", "b", "c"]
    assert split_hypothesis("a\u180eb") == ["a", "b"]          # whitespace in Python 2.7
    assert split_hypothesis("a\u200bb \ufeffc") == ["a\u200bb", "\ufeffc"]  # not whitespace
    assert split_hypothesis("a\u3000b\xa0c\x1cd\x85e") == ["a", "b", "c", "d", "e"]
    assert split_hypothesis("") == [] and split_hypothesis(" \t ") == []


def test_whitespace_set_is_python3_set_plus_u180e() -> None:
    py3 = {chr(c) for c in range(0x3001) if chr(c).isspace()}
    assert PY27_WHITESPACE == py3 | {"\u180e"}


def test_py27_lower() -> None:
    assert py27_lower("ABC") == "abc"
    assert py27_lower("\u0130") == "i"                # Python 3 gives two code points
    assert py27_lower("ΟΔΟΣ") == "οδοσ"               # no final sigma
    assert py27_lower("\u13a0") == "\u13a0"           # Cherokee pair added after Unicode 5.2
    assert equals_ignore_whitespace_casing("a b", "AB")
    assert not equals_ignore_whitespace_casing("a\tb", "ab")  # only U+0020 is removed


# ------------------------------------------------------------------ lattice

def test_ex1_lattice_sizes_and_duplicates() -> None:
    lat = base_lattice(EX1_SRC, EX1_HYP)
    assert len(lat.base) == 27                         # spec §5.3 worked example
    pairs = [lat.pair(k) for k in lat.base]
    assert pairs == sorted(pairs)
    # The substitution The -> A lies in both Levenshtein graphs: it occurs twice, adjacent.
    assert pairs.count(((0, 0), (1, 1))) == 2
    close_lattice(lat, 2)
    remove_noop_arcs(lat)
    assert len(lat.edges) == 72


def test_lattice_edits_are_reference_tuples() -> None:
    lat = maxmatch.build_lattice(EX1_SRC, EX1_HYP)
    edits = {lat.pair(k): lat.edit(k) for k in lat.edges}
    assert edits[((0, 0), (1, 1))] == ("sub", 0, 1, "The", "A", 0)
    assert edits[((3, 3), (4, 4))] == ("sub", 3, 4, "at", "on", 0)
    assert edits[((4, 4), (4, 5))] == ("ins", 4, 4, "", "the", 0)
    assert edits[((0, 0), (3, 3))] == ("sub", 0, 3, "The cat sat", "A cat sat", 2)


def test_border_insertions_use_offset_zero_master() -> None:
    lat = maxmatch.build_lattice(["cat"], ["The", "big", "cat"])
    assert lat.edit(lat.edges[0])[:3] == ("ins", 0, 0)
    assert maxmatch.score_sentence(["cat"], ["The", "big", "cat"],
                                   {0: [(0, 0, ("The big",))]}).annotators[0].correct == 1


def test_closure_respects_unchanged_limit() -> None:
    src, hyp = "a b c d e".split(), "X b c d Y".split()
    for limit, has_arc in ((2, False), (3, True)):
        lat = maxmatch.build_lattice(src, hyp, limit)
        assert any(lat.pair(k) == ((0, 0), (5, 5)) for k in lat.edges) is has_arc


def test_closure_rewrites_only_strictly_shorter_and_reappends() -> None:
    # Arcs are appended once per strictly shorter combination: a key may occur twice.
    lat = maxmatch.build_lattice("a b c d".split(), "c d a b".split(), 2)
    arcs = lat.edges[len(lat.base):]
    assert len(arcs) >= len(set(arcs))
    for k in set(arcs):
        assert lat.dist(k) >= 2


def test_noop_arc_removal_skips_the_following_element() -> None:
    lat = base_lattice("a b c d".split(), "a b c d".split())
    close_lattice(lat, 5)
    arcs = lat.edges[len(lat.base):]
    remove_noop_arcs(lat)
    survivors = [k for k in lat.edges[len(lat.base):]]
    # Every arc is a noop arc; each removal shields the next one (list mutated while iterated).
    assert survivors == arcs[1::2]
    assert all(lat.edit(k)[0] == "noop" for k in survivors)


def test_noop_arc_listed_twice_is_reported() -> None:
    lat = base_lattice(["a", "b"], ["a", "b"])
    close_lattice(lat, 5)
    lat.edges.append(lat.edges[-1])       # as if the closure had written the key twice
    lat.rewritten[lat.edges[-1]] = 1
    with pytest.raises(LatticeError):
        remove_noop_arcs(lat)


# ------------------------------------------------------------------ weights and search

def test_ex1_weights() -> None:
    lat = maxmatch.build_lattice(EX1_SRC, EX1_HYP)
    golds, _ = normalise_gold(EX1_GOLD, EX1_SRC)
    state = SentenceSearch(lat, {(3, 4), (4, 4)})
    over = state.weights_for(golds[0])
    weight = {lat.pair(k): over.get(k, state.base_weight(k)) for k in lat.edges}
    assert weight[((0, 0), (1, 1))] == 1.0019999999999998     # duplicated: 1 + ε + ε
    assert weight[((0, 0), (2, 2))] == 2.001
    assert weight[((0, 0), (3, 3))] == 3.001
    assert weight[((3, 3), (4, 4))] == -72
    assert weight[((4, 4), (4, 5))] == -71.999                 # duplicated insertion: R + ε
    pred = bellman_ford(state.relax_list(over), lat.ncells, len(lat.vertices))
    assert backtrack(lat, pred) == [(0, 3, "The cat sat", "A cat sat"), (3, 4, "at", "on"),
                                    (4, 4, "", "the")]


def test_ex1_sentence_result() -> None:
    [res] = maxmatch.score_sentence(EX1_SRC, EX1_HYP, EX1_GOLD).annotators
    assert (res.correct, res.proposed, res.gold) == (2, 3, 2)
    assert [shrink_edit(e) for e in res.edits][0] == (0, 1, "The", "A")


def test_duplicate_insertion_rewarded_once() -> None:
    res = maxmatch.score_sentence("a b".split(), "a X X b".split(), {0: [(1, 1, ("X",))]})
    r = res.annotators[0]
    assert (r.correct, r.proposed, r.gold) == (1, 2, 1)


def test_identity_gold_edit_is_unmatchable() -> None:
    r = maxmatch.score_sentence("a b".split(), "a c".split(), {0: [(0, 1, ("a",))]})
    assert (r.annotators[0].correct, r.annotators[0].proposed) == (0, 1)


def test_empty_sentences() -> None:
    assert maxmatch.score_sentence([], [], {}).annotators[0].edits == ()
    r = maxmatch.score_sentence(["a"], [], {0: [(0, 1, ("",))]}).annotators[0]
    assert r.edits == ((0, 1, "a", ""),) and r.correct == 1
    r = maxmatch.score_sentence([], ["a"], {}).annotators[0]
    assert r.edits == ((0, 0, "", "a"),)


def test_ignore_whitespace_casing_filters_after_search() -> None:
    gold = {0: [(0, 1, ("The",))]}
    plain = maxmatch.score_sentence(["the"], ["The"], gold).annotators[0]
    assert (plain.correct, plain.proposed) == (1, 1)
    flt = maxmatch.score_sentence(["the"], ["The"], gold, ignore_whitespace_casing=True)
    assert (flt.annotators[0].correct, flt.annotators[0].proposed) == (0, 0)


# ------------------------------------------------------------------ matching

def test_matching_has_no_break_and_is_order_dependent() -> None:
    g = (1, 2, "b", ("B",))
    e = (1, 2, "b", "B")
    assert match_edits([e], [g, g]) == [e, e]                       # dupgold: 2 credits
    h = (3, 4, "d", ("D",))
    f = (3, 4, "d", "D")
    assert match_edits([e, f], [g, h, g]) == [e, e]                 # cursor jumps past h
    assert match_edits([e, f], [h, g]) == [e]                       # unsorted gold


def test_shrink_edit() -> None:
    assert shrink_edit((0, 3, "The cat sat", "A cat sat")) == (0, 1, "The", "A")
    assert shrink_edit((2, 4, "a b", "a b c")) == (4, 4, "", "c")
    assert shrink_edit((1, 2, "b", "")) == (1, 2, "b", "")


# ------------------------------------------------------------------ gold and annotators

def test_normalise_gold_rules() -> None:
    src = "a b c".split()
    golds, warn = normalise_gold({1: [(-1, -1, ("",))], 0: [(0, 9, ("x",)), (2, 1, ("y",)),
                                                           (0, 1, ("z",))]}, src)
    assert list(golds) == [0, 1] and not warn
    assert golds[0] == [(2, 1, "", ("y",)), (0, 1, "a", ("z",))]
    assert golds[1] == []
    assert normalise_gold({}, src) == ({0: []}, False)
    assert normalise_gold({8: [], 1: []}, src)[1] is True
    assert normalise_gold({-1: []}, src)[1] is True
    assert normalise_gold({k: [] for k in range(6)} | {20: []}, src)[1] is False


def test_annotator_choice_tie_keeps_earlier() -> None:
    # edgecases/anntie: complete tie, annotator 0 kept
    src, hyp = "x y z p q r s".split(), "X Y z p q r s".split()
    gold = {1: [(0, 1, ("X",))],
            0: [(0, 2, ("X Y",)), (3, 4, ("P",)), (4, 5, ("Q",)), (5, 6, ("R",)),
                (6, 7, ("S",))]}
    res = maxmatch.score_corpus([(src, hyp, gold)])
    assert res.sentences[0] == maxmatch.SentenceChoice(0, 1, 1, 5)
    assert "%.4f %.4f %.4f" % (res.precision, res.recall, res.f) == "1.0000 0.2000 0.5556"


def test_annotator_choice_rules() -> None:
    A = maxmatch.AnnotatorResult
    e = (0, 1, "a", "b")
    r0 = A(0, (e,), ((0, 1, "a", ("c",)),), ())            # 0/1/1
    r1 = A(1, (e,), ((0, 1, "a", ("b",)),), (e,))          # 1/1/1
    assert choose_annotator([r0, r1], 0, 0, 0, 0.5) is r1
    r2 = A(2, (), (), ())                                   # 0/0/0: F 1.0 on empty totals
    assert choose_annotator([r0, r2], 0, 0, 0, 0.5) is r2
    with pytest.raises(ValueError):
        choose_annotator([], 0, 0, 0, 0.5)


def test_scores_formulas() -> None:
    assert precision_recall_f(0, 0, 0, 0.5) == (1.0, 1.0, 1.0)
    assert precision_recall_f(0, 3, 0, 0.5) == (0.0, 1.0, 0.0)
    assert precision_recall_f(0, 0, 4, 0.5) == (1.0, 0.0, 0.0)
    assert precision_recall_f(2, 1, 1, 0.5)[0] == 2.0
    assert f_counts(0, 0, 0, 0.5) == 1.0 and f_counts(1, 0, 0, 0.0) == 0.0
    p, r, f = precision_recall_f(509, 1223, 2378, 0.5)
    assert "%.4f %.4f %.4f" % (p, r, f) == "0.4162 0.2140 0.3501"


def test_score_corpus_streams_an_iterator() -> None:
    items = iter([(EX1_SRC, EX1_HYP, EX1_GOLD), (["a"], ["a"], {})])
    res = maxmatch.score_corpus(items)
    assert (res.correct, res.proposed, res.gold) == (2, 3, 2)
    assert len(res.sentences) == 2

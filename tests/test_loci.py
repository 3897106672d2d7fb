"""Error loci (gecformats.convert.loci): the overlap rules, both groupings, loci ↔ model sentences."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gecformats.convert import loci
from gecformats.convert.loci import (
    GROUPINGS,
    Alternative,
    Change,
    Locus,
    LocusSentence,
    components_overlap,
    group,
    imeasure_overlap,
    loci_of,
    to_sentence,
)
from gecformats.convert.refs import references
from gecformats.model import Edit, Sentence, Tokens

SOURCE = tuple("t0 t1 t2 t3 t4 t5 t6 t7".split())


def E(start: int, end: int, *corrections: str, annotator: int = 0, type: str = "X") -> Edit:
    """An edit; each correction is a space-separated string ("" deletes)."""
    return Edit(start, end, tuple(tuple(c.split()) for c in corrections or ("",)), type,
                annotator=annotator)


def C(start: int, end: int, text: str = "") -> Change:
    return Change(start, end, tuple(text.split()))


def sentence(*edits: Edit, noop: tuple[int, ...] = (), source: Tokens = SOURCE) -> Sentence:
    annotators: dict[int, list[Edit]] = {}
    for e in edits:
        annotators.setdefault(e.annotator, []).append(e)
    for a in noop:
        annotators[a] = []
    return Sentence(source, {a: tuple(es) for a, es in sorted(annotators.items())})


def spans(ls: LocusSentence) -> list[list[tuple[int, int, int]]]:
    """Each locus as its (annotator, start, end) triples, in order."""
    return [[(a.annotator, c.start, c.end) for a in locus.alternatives for c in a.changes]
            for locus in ls.loci]


def test_module_examples() -> None:
    result = doctest.testmod(loci)
    assert result.attempted > 0 and result.failed == 0


# ------------------------------------------------------------------ the overlap tests (§8.2)


def _strictly_inside(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < a[1] and b[0] < a[0] and a[1] < b[1]


@pytest.mark.parametrize(("a", "b", "expected"), [
    ((1, 3), (1, 3), True),    # identical spans
    ((2, 2), (2, 2), True),    # identical insertions
    ((2, 2), (1, 3), True),    # an insertion strictly inside
    ((1, 1), (1, 3), False),   # ... on the start boundary
    ((3, 3), (1, 3), False),   # ... on the end boundary
    ((1, 3), (2, 4), True),    # partial overlaps
    ((2, 4), (1, 3), True),
    ((0, 2), (1, 2), True),    # one's end in (other.start, other.end]
    ((1, 2), (0, 4), True),    # contained
    ((1, 2), (2, 3), False),   # touching spans
    ((2, 3), (1, 2), False),
    ((0, 1), (5, 6), False),
])
def test_imeasure_overlap(a: tuple[int, int], b: tuple[int, int], expected: bool) -> None:
    assert imeasure_overlap(E(*a), E(*b)) is expected
    if not _strictly_inside(a, b) and not _strictly_inside(b, a):  # not symmetric for an insertion inside a span
        assert imeasure_overlap(E(*b), E(*a)) is expected
    assert imeasure_overlap(C(*a), C(*b)) is expected  # works on changes too


def test_imeasure_overlap_is_the_original_one_way_test() -> None:
    # the original tests the shorter edit against the longer: a span containing another is
    # only found that way round (components_overlap takes it both ways)
    assert imeasure_overlap(E(1, 2), E(0, 4))
    assert not imeasure_overlap(E(0, 4), E(1, 2))
    assert components_overlap(E(0, 4), E(1, 2)) and components_overlap(E(1, 2), E(0, 4))


def test_components_overlap_boundary_insertions() -> None:
    # an insertion on the boundary of *another* annotator's edit overlaps ...
    assert components_overlap(E(1, 3, annotator=0), E(3, 3, "x", annotator=1))
    assert components_overlap(E(1, 1, "x", annotator=1), E(1, 3, annotator=0))
    # ... not of its own annotator's, and not between two insertions at different points
    assert not components_overlap(E(1, 3, annotator=0), E(3, 3, "x", annotator=0))
    assert not components_overlap(E(1, 1, "x", annotator=0), E(2, 2, "y", annotator=1))
    # touching replacements of different annotators do not overlap
    assert not components_overlap(E(1, 2, annotator=0), E(2, 3, annotator=1))


# ------------------------------------------------------------------ grouping


def test_grouping_boundary_insertion_of_another_annotator() -> None:
    s = sentence(E(1, 3, "x", annotator=0), E(3, 3, "y", annotator=1))
    assert spans(group(s, "components")) == [[(0, 1, 3), (1, 3, 3)]]
    assert spans(group(s, "imeasure")) == [[(0, 1, 3)], [(1, 3, 3)]]
    own = sentence(E(1, 3, "x", annotator=0), E(3, 3, "y", annotator=0))
    assert spans(group(own, "components")) == [[(0, 1, 3)], [(0, 3, 3)]]


def test_imeasure_clustering_is_neither_transitive_nor_order_free() -> None:
    # X 0-3 and Z 3-6 (longer) start two clusters; Y 2-4 overlaps both but joins only the
    # first one, so imeasure leaves two loci that overlap; components merges them
    x, z, y = E(0, 3, "x", annotator=0), E(3, 6, "z", annotator=1), E(2, 4, "y", annotator=2)
    s = sentence(x, z, y)
    assert spans(group(s, "imeasure")) == [[(0, 0, 3), (2, 2, 4)], [(1, 3, 6)]]
    assert spans(group(s, "components")) == [[(0, 0, 3), (1, 3, 6), (2, 2, 4)]]
    # with equal lengths, the file order decides: Y first takes X and Z into one cluster
    late = sentence(E(0, 2, "x", annotator=0), E(2, 4, "z", annotator=1), E(1, 3, "y", annotator=2))
    early = sentence(E(1, 3, "y", annotator=0), E(0, 2, "x", annotator=1), E(2, 4, "z", annotator=2))
    assert len(group(late, "imeasure").loci) == 2
    assert len(group(early, "imeasure").loci) == 1
    assert len(group(late, "components").loci) == len(group(early, "components").loci) == 1


def test_components_merges_an_edit_contained_in_an_earlier_one() -> None:
    # CoNLL-2014 sentence 120: 26-29 of annotator 0 contains 27-28 of annotator 1
    s = sentence(E(0, 3, "x", annotator=0), E(1, 2, "", annotator=1))
    assert len(group(s, "components").loci) == 1
    assert len(group(s, "imeasure").loci) == 1  # longest first: the contained one is tested


def test_required_and_numann_count_noop_annotators() -> None:
    s = sentence(E(1, 2, "a", annotator=0), E(1, 2, "b", annotator=1), E(4, 5, "c", annotator=1))
    ls = group(s)
    assert ls.numann == 2 and [locus.required for locus in ls.loci] == [True, False]
    with_noop = sentence(E(1, 2, "a", annotator=0), E(1, 2, "b", annotator=1), noop=(2,))
    ls = group(with_noop)
    assert ls.numann == 3 and [locus.required for locus in ls.loci] == [False]
    assert group(sentence(noop=(0, 1))) == LocusSentence(SOURCE, (), 2)
    assert group(Sentence(SOURCE, {})).numann == 0


def test_alternatives_become_alternatives_of_one_annotator() -> None:
    s = sentence(E(1, 2, "a", "b", annotator=0), E(2, 3, "c", annotator=0), E(1, 3, "d", annotator=1))
    [locus] = group(s, "imeasure").loci
    assert [(a.annotator, a.changes) for a in locus.alternatives] == [
        (0, (C(1, 2, "a"), C(2, 3, "c"))),
        (0, (C(1, 2, "b"), C(2, 3, "c"))),
        (1, (C(1, 3, "d"),)),
    ]
    assert locus.required and locus.type == "X" and locus.id == "1" and locus.span == (1, 3)


def test_types_ids_and_order() -> None:
    s = sentence(E(5, 6, "a", annotator=0, type="B"), E(1, 2, "b", annotator=0, type="A"),
                 E(1, 2, "c", annotator=1, type="C"), E(1, 2, "d", annotator=1, type="A"))
    for method in GROUPINGS:
        ls = group(s, method)
        assert [(x.id, x.type, x.span) for x in ls.loci] == [("1", "A/C", (1, 2)), ("2", "B", (5, 6))]


def test_too_many_combinations_and_unknown_method() -> None:
    def five_edits(alternatives: str) -> Sentence:
        return sentence(*(E(i, i + 1, *alternatives, annotator=0) for i in range(5)),
                        E(0, 5, "x", annotator=1))

    [locus] = group(five_edits("abcd"), "imeasure").loci  # 4**5 = MAX_PRODUCT is allowed
    assert len(locus.alternatives) == loci.MAX_PRODUCT + 1
    with pytest.raises(ValueError, match="combinations"):
        group(five_edits("abcde"), "imeasure")
    with pytest.raises(ValueError, match="unknown grouping"):
        group(sentence(), "nope")


# ------------------------------------------------------------------ loci ↔ model sentences


def test_to_sentence_single_alternatives_and_noop_ids() -> None:
    ls = LocusSentence(SOURCE, (
        Locus((Alternative(1, (C(1, 2, "a"), C(0, 0, "b"))), Alternative(3, (C(1, 2, "c"),))), False, "T", "7"),
    ), numann=4, id="s")
    s = to_sentence(ls)
    # annotators 1 and 3 have alternatives; the two others get the smallest unused ids
    assert list(s.annotators) == [0, 1, 2, 3] and s.annotators[0] == s.annotators[2] == ()
    assert [(e.start, e.end, e.corrections, e.type) for e in s.annotators[1]] == [
        (1, 2, (("a",),), "T"), (0, 0, (("b",),), "T")]  # in the order of the changes
    assert s.annotators[1][0].get_meta("ixml.error") == "7"
    assert s.annotators[1][0].get_meta("ixml.req") == "no"
    assert s.id == "s" and s.meta == {"ixml.numann": "4"}


def test_shared_changes_and_one_differing_change_make_an_alternatives_edit() -> None:
    locus = Locus((Alternative(0, (C(0, 1, "A"), C(3, 4, "x"))),
                   Alternative(0, (C(0, 1, "A"), C(3, 4, "y z")))), True, "T", "1")
    ls = LocusSentence(SOURCE, (locus,), 1)
    s = to_sentence(ls)
    assert [(e.start, e.end, e.corrections) for e in s.annotators[0]] == [
        (0, 1, (("A",),)), (3, 4, (("x",), ("y", "z")))]
    assert not any(e.get_meta("ixml.union") for e in s.annotators[0])
    assert loci_of(s) == ls


def test_different_spans_make_a_union_edit() -> None:
    locus = Locus((Alternative(0, (C(1, 2, "a"),)), Alternative(0, (C(3, 3, "b"),))), True, "T", "1")
    ls = LocusSentence(SOURCE, (locus,), 1)
    [e] = to_sentence(ls).annotators[0]
    assert (e.start, e.end, e.corrections) == (1, 3, (("a", "t2"), ("t1", "t2", "b")))
    assert e.get_meta("ixml.union") == "1"
    # read back: one change per alternative over the common span
    [back] = loci_of(to_sentence(ls)).loci
    assert [a.changes for a in back.alternatives] == [(C(1, 3, "a t2"),), (C(1, 3, "t1 t2 b"),)]


def test_to_sentence_refuses_out_of_range_changes() -> None:
    ls = LocusSentence(("a",), (Locus((Alternative(0, (C(0, 2, "x"),)),), True),), 1)
    with pytest.raises(ValueError, match="out of range"):
        to_sentence(ls)


def test_loci_of_groups_unless_loci_are_recorded() -> None:
    s = sentence(E(1, 3, "x", annotator=0), E(3, 3, "y", annotator=1))
    assert loci_of(s, "imeasure") == group(s, "imeasure")
    assert loci_of(s) == group(s, "components")
    recorded = to_sentence(group(s, "imeasure"))
    assert loci_of(recorded, "components") == group(s, "imeasure")  # the recorded loci win
    empty = to_sentence(LocusSentence(SOURCE, (), 3, "9"))
    assert loci_of(empty) == LocusSentence(SOURCE, (), 3, "9")
    mixed = recorded.replace(annotators={**recorded.annotators, 2: (E(0, 1, "z", annotator=2),)})
    with pytest.raises(ValueError, match="some edits"):
        loci_of(mixed)


def test_insertions_at_one_point_keep_their_order() -> None:
    s = sentence(E(2, 2, "x", "y", annotator=0), E(2, 2, "z", annotator=0))
    assert " ".join(to_sentence(group(s)).corrected(0)) == " ".join(s.corrected(0))


def test_identical_alternatives_of_one_annotator() -> None:
    alt = Alternative(0, (C(1, 2, "x"),))
    ls = LocusSentence(SOURCE, (Locus((alt, alt), True, "T", "1"),), 1)
    assert to_sentence(ls).annotators[0]


def test_union_edit_does_not_overlap_shared_changes() -> None:
    locus = Locus((Alternative(0, (C(1, 2, "a"), C(2, 3), C(3, 4, "b"))),
                   Alternative(0, (C(1, 2, "c"), C(2, 3), C(3, 4, "d")))), True, "T", "1")
    s = to_sentence(LocusSentence(SOURCE, (locus,), 1))
    s.corrected(0)  # ValueError: the edits overlap


def test_alternatives_of_one_annotator_come_back_as_one_edit_over_their_span() -> None:
    """Documented behaviour: M2 holds several alternatives of one annotator only as ``||``
    corrections of one edit, so alternatives that differ in more than one change come back
    as one change over their common span.  The references, what the loci are for, are the
    same."""
    locus = Locus((Alternative(0, (C(1, 2, "a"),)), Alternative(0, (C(1, 2, "a"), C(4, 5, "b")))),
                  True, "T", "1")
    ls = LocusSentence(SOURCE, (locus,), 1)
    back = loci_of(to_sentence(ls))
    assert [a.changes for a in back.loci[0].alternatives] == [
        (C(1, 5, "a t2 t3 t4"),), (C(1, 5, "a t2 t3 b"),)]
    assert set(references(back)) == set(references(ls))


def test_loci_of_orders_changes_by_offset_and_alternatives_by_annotator() -> None:
    """Documented behaviour: :func:`loci_of` sorts each alternative's changes by offsets and
    the alternatives by annotator (:mod:`gecformats.formats.ixml` restores a file's own order
    from ``ixml.order``); the references are the same."""
    locus = Locus((Alternative(1, (C(5, 6, "a"), C(1, 2, "b"))), Alternative(0, (C(1, 2, "c"),))),
                  True, "T", "1")
    ls = LocusSentence(SOURCE, (locus,), 2)
    back = loci_of(to_sentence(ls))
    assert [(a.annotator, a.changes) for a in back.loci[0].alternatives] == [
        (0, (C(1, 2, "c"),)), (1, (C(1, 2, "b"), C(5, 6, "a")))]
    assert set(references(back)) == set(references(ls))


# ------------------------------------------------------------------ properties


WORDS = ("a", "b", "c")


def _overlap(a: Edit, b: Edit) -> bool:
    """One annotator's edits overlap (the M2 rule of gecformats.validate)."""
    if a.start == a.end and b.start == b.end:
        return False
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


@st.composite
def sentences(draw: st.DrawFn) -> Sentence:
    """Random sentences with 1-3 annotators (ids 0-4), each with 0-4 non-overlapping edits
    (insertions insert at least one token; 1-2 distinct alternatives)."""
    n = draw(st.integers(1, 7))
    ids = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3, unique=True))
    annotators = {}
    for a in ids:
        edits: list[Edit] = []
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(0, n))
            end = draw(st.integers(start, min(n, start + 3)))
            token_lists = st.lists(st.sampled_from(WORDS), min_size=int(start == end), max_size=2)
            corrections = draw(st.lists(token_lists.map(tuple), min_size=1, max_size=2, unique=True))
            edit = Edit(start, end, tuple(corrections), draw(st.sampled_from(("X", "Y"))), annotator=a)
            if not any(_overlap(edit, other) for other in edits):
                edits.append(edit)
        annotators[a] = tuple(edits)
    return Sentence(SOURCE[:n], annotators)


def _texts(ls: LocusSentence) -> tuple[list[tuple], int]:
    """Each locus with, per annotator, the sorted texts its alternatives make of the span."""
    out = []
    for locus in ls.loci:
        start, end = locus.span
        texts: dict[int, list[Tokens]] = {}
        for alt in locus.alternatives:
            tokens = list(ls.source[start:end])
            for c in sorted(alt.changes, key=lambda c: (c.start, c.end), reverse=True):
                tokens[c.start - start:c.end - start] = c.tokens
            texts.setdefault(alt.annotator, []).append(tuple(tokens))
        out.append((locus.span, locus.required, locus.type, locus.id,
                    {a: sorted(set(t)) for a, t in texts.items()}))
    return out, ls.numann


def _several_alternatives_at_one_point(s: Sentence) -> bool:
    """An annotator with || alternatives and several insertions at one point: when they
    must be merged into one edit over their span, the insertions come back in one order
    (documented limitation of to_sentence)."""
    for edits in s.annotators.values():
        if not any(len(e.corrections) > 1 for e in edits):
            continue
        points = [(e.start, e.end) for e in edits if e.is_insertion]
        if len(points) != len(set(points)):
            return True
    return False


@settings(max_examples=500, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(sentences(), st.sampled_from(GROUPINGS))
def test_loci_round_trip_through_model_sentences(s: Sentence, method: str) -> None:
    """loci_of(to_sentence(group(s))) gives the same loci as group(s): structurally equal,
    or, where to_sentence had to merge alternatives into one edit over their span (its
    documented exception), with the same texts per locus and annotator.  Each annotator's
    edits in the model sentence never overlap, and noop annotators come back."""
    assume(not _several_alternatives_at_one_point(s))
    ls = group(s, method)
    back = to_sentence(ls)
    again = loci_of(back)
    if any(e.get_meta("ixml.union") for e in back.edits):
        assert _texts(again) == _texts(ls)
    else:
        assert again == ls
    for edits in back.annotators.values():
        for a, b in itertools.combinations(edits, 2):
            assert not _overlap(a, b)
    assert len(back.annotators) == len(s.annotators) == ls.numann
    if not any(len(e.corrections) > 1 for e in s.edits):  # without ||: the same edits
        assert {a: sorted((e.start, e.end, e.corrections) for e in es)
                for a, es in back.annotators.items() if es} == {
            a: sorted((e.start, e.end, e.corrections) for e in es)
            for a, es in s.annotators.items() if es}


@settings(max_examples=300, deadline=None)
@given(sentences(), st.sampled_from(GROUPINGS))
def test_both_groupings_cover_every_edit_once(s: Sentence, method: str) -> None:
    ls = group(s, method)
    covered = []
    for locus in ls.loci:
        first: dict[int, Alternative] = {}
        for alt in locus.alternatives:
            first.setdefault(alt.annotator, alt)  # one change per edit of the annotator
        covered += [(a, c.start, c.end) for a, alt in first.items() for c in alt.changes]
        assert locus.required == (len(first) >= ls.numann)
    assert sorted(covered) == sorted((e.annotator, e.start, e.end) for e in s.edits)


@settings(max_examples=300, deadline=None)
@given(sentences())
def test_components_loci_never_overlap(s: Sentence) -> None:
    ls = group(s, "components")
    edits = [[Edit(c.start, c.end, (c.tokens,), annotator=a.annotator)
              for a in locus.alternatives for c in a.changes] for locus in ls.loci]
    for first, second in itertools.combinations(edits, 2):
        assert not any(components_overlap(a, b) or components_overlap(b, a)
                       for a in first for b in second)


# ------------------------------------------------ issue 22: the fuzzer's repeated A lines


def _pairwise_components(edits):
    """The grouping by every pair of edits (the definition, quadratic)."""
    import itertools

    from gecformats.convert.loci import components_overlap

    parent = list(range(len(edits)))

    def find(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(edits)), 2):
        if components_overlap(edits[i], edits[j]):
            parent[find(i)] = find(j)
    groups = {}
    for i, e in enumerate(edits):
        groups.setdefault(find(i), []).append(e)
    return list(groups.values())


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SPAN_EDITS = st.lists(st.tuples(st.integers(0, 6), st.sampled_from((0, 0, 1, 2, 3)),
                                st.integers(0, 2)), max_size=10)


@given(SPAN_EDITS)
@settings(max_examples=500, deadline=None)
def test_components_by_span_equal_the_pairwise_definition(spec):
    from gecformats.convert.loci import _components
    from gecformats.model import make_edit

    edits = [make_edit(a, a + w, (("x",),), "T", True, None, k) for a, w, k in spec]
    assert _components(edits) == _pairwise_components(edits)


def test_thousands_of_a_lines_on_one_span_group_at_once(monkeypatch):
    """A sentence with 10,000 copies of a few A lines (fuzzing.m_repeat_slice) made refs
    run 15 s comparing every pair of edits (50 million); spans are compared now."""
    from gecformats.convert import loci
    from gecformats.model import make_edit

    calls = []
    real = loci._spans_overlap
    monkeypatch.setattr(loci, "_spans_overlap", lambda *a: calls.append(a) or real(*a))
    edits = [make_edit(4 + k % 2, 5 + k % 2, (("x",),), "T", True, None, k % 3)
             for k in range(10_000)]
    assert [len(g) for g in loci._components(edits)] == [5_000, 5_000]
    assert len(calls) == 1  # the two spans, compared once


def test_refs_past_the_alternatives_bound_is_a_clean_error(tmp_path):
    """refs --count on a locus of 2^400 '||' combinations: a traceback printing the product's
    121 digits; now one line naming the file and sentence."""
    from typer.testing import CliRunner

    from gecformats.cli import app

    gold = tmp_path / "alt.m2"
    gold.write_text("S a b c\n" + "A 1 2|||X|||y||z|||REQUIRED|||-NONE-|||0\n" * 400 + "\n")
    result = CliRunner().invoke(app, ["refs", str(gold), "--count"])
    assert result.exit_code == 1
    assert result.stderr == (f"gecformats: {gold}: sentence 1: annotator 0 has more than 1024 "
                             "combinations of || alternatives in one locus\n")

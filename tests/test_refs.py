"""Reference generation from error loci (``gecformats.convert.refs``, ``formats.md`` §8.4).

Hand-built sentences pin down the semantics of the I-measure generator; a hypothesis
property checks the lazy generator (and its fast path that concatenates pre-rendered locus
texts) against a naive enumeration; the CLI is run on a small M2 fixture; the counts of the
CoNLL-2014 conversion are compared with the table measured with the original ``candgen.py``.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.convert import refs
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.convert.loci import Alternative, Change, Locus, LocusSentence
from gecformats.convert.refs import Count, apply, bound, count, options, raw_bound, references

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("refs")

SMALL = FIXTURES / "refs" / "small.m2"
CONLL_M2 = "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"
CONLL_XML = "corpora/imeasure/official-2014.combined.m2.ieval.xml"
REFCOUNTS = "corpora/imeasure/official-2014.combined.m2.ieval.refcounts.tsv"


def alt(annotator: int, *changes: tuple[int, int, str]) -> Alternative:
    """An alternative from ``(start, end, "space separated tokens")`` triples."""
    return Alternative(annotator, tuple(Change(s, e, tuple(t.split())) for s, e, t in changes))


def sent(source: str, *loci: Locus, numann: int = 2, id: str | None = None) -> LocusSentence:
    return LocusSentence(tuple(source.split()), tuple(loci), numann, id)


def req(*alternatives: Alternative) -> Locus:
    return Locus(tuple(alternatives), required=True)


def opt(*alternatives: Alternative) -> Locus:
    return Locus(tuple(alternatives), required=False)


# ---------------------------------------------------------------------------------------
# A naive implementation of §8.4, written from the original candgen.py's description


def naive_options(locus: Locus) -> list[tuple]:
    """Each alternative as a sorted tuple of (start, end, tokens) with same-span changes
    merged in order; identical ones once (first occurrence); "no change" last unless req."""
    out: list[tuple] = []
    for a in locus.alternatives:
        merged: dict[tuple[int, int], tuple[str, ...]] = {}
        for c in a.changes:
            merged[(c.start, c.end)] = merged.get((c.start, c.end), ()) + tuple(c.tokens)
        option = tuple(sorted((s, e, t) for (s, e), t in merged.items()))
        if option not in out:
            out.append(option)
    if not locus.required and () not in out:
        out.append(())
    return out


def naive_apply(source: tuple[str, ...], edits: list[tuple]) -> tuple[str, ...] | None:
    """``correct_sentence`` of the original: same-span edits → not a reference; right to
    left by (start, end); an edit that empties the sentence is undone; empty → source."""
    spans = [(s, e) for s, e, _ in edits]
    if len(spans) != len(set(spans)):
        return None
    corrected = list(source)
    for s, e, tokens in sorted(edits, key=lambda x: (x[0], x[1]), reverse=True):
        before = corrected[:]
        corrected[s:e] = list(tokens)
        if not corrected:
            corrected = before
    return tuple(corrected) if corrected else tuple(source)


def naive_references(s: LocusSentence) -> list[str]:
    per_locus = [o for o in (naive_options(locus) for locus in s.loci) if o]
    out: dict[str, None] = {}
    for combination in itertools.product(*per_locus):
        tokens = apply(s.source, [c for option in combination for c in option])
        if tokens is not None:
            out.setdefault(" ".join(tokens), None)
    return list(out)


def naive_nomix(s: LocusSentence) -> list[str]:
    annotators = sorted({a.annotator for locus in s.loci for a in locus.alternatives})
    out: dict[str, None] = {}
    for ann in annotators:
        edits = []
        for locus in s.loci:
            first = [a for a in locus.alternatives if a.annotator == ann][:1]
            edits += [c for a in first for c in naive_options(req(a))[0]]
        tokens = apply(s.source, edits)
        if tokens is not None:
            out.setdefault(" ".join(tokens), None)
    if len(annotators) < s.numann or s.numann <= 0:
        out.setdefault(" ".join(s.source), None)
    return list(out)


def product(values) -> int:
    total = 1
    for v in values:
        total *= max(v, 1)
    return total


# ---------------------------------------------------------------------------------------
# Semantics on hand-built sentences


DOC = sent("He go home",
           req(alt(0, (1, 2, "goes")), alt(1, (1, 2, "went"))),
           opt(alt(1, (3, 3, "."))))


def test_product_over_loci_in_order() -> None:
    # loci in sentence order, alternatives in file order, "no change" last, last locus fastest
    assert list(references(DOC)) == ["He goes home .", "He goes home", "He went home .", "He went home"]
    assert count(DOC) == Count(4, True, 4)
    assert bound(DOC) == raw_bound(DOC) == 4


def test_required_locus_has_no_no_change_option() -> None:
    both = [alt(0, (0, 1, "A")), alt(1, (0, 1, "B"))]
    assert options(req(*both)) == [((0, 1, ("A",)),), ((0, 1, ("B",)),)]
    assert options(opt(*both)) == [((0, 1, ("A",)),), ((0, 1, ("B",)),), ()]
    assert list(references(sent("a b", req(*both)))) == ["A b", "B b"]
    assert list(references(sent("a b", opt(*both)))) == ["A b", "B b", "a b"]


def test_identical_alternatives_of_different_annotators_collapse() -> None:
    locus = opt(alt(0, (1, 2, "goes")), alt(1, (1, 2, "goes")), alt(2, (1, 2, "went")))
    s = sent("He go home", locus, opt(alt(0, (3, 3, ".")), alt(1, (3, 3, "."))), numann=3)
    assert options(locus) == [((1, 2, ("goes",)),), ((1, 2, ("went",)),), ()]
    assert raw_bound(s) == 4 * 3
    assert bound(s) == 3 * 2
    assert count(s) == Count(6, True, 6)
    # the order of an alternative's changes does not matter (a set in the original)
    two = opt(alt(0, (0, 1, "x"), (2, 3, "y")), alt(1, (2, 3, "y"), (0, 1, "x")))
    assert options(two) == [((0, 1, ("x",)), (2, 3, ("y",))), ()]


def test_same_span_changes_of_one_alternative_are_merged_in_order() -> None:
    locus = req(alt(0, (2, 2, "very"), (0, 1, "The"), (2, 2, "big red")))
    assert options(locus) == [((0, 1, ("The",)), (2, 2, ("very", "big", "red")))]
    assert list(references(sent("the dog barks", locus))) == ["The dog very big red barks"]
    # merged only inside one alternative: across loci the same span is a conflict
    assert options(req(alt(0, (2, 2, "b"), (2, 2, "a")))) == [((2, 2, ("b", "a")),)]


def test_two_changes_of_one_span_across_loci_are_not_a_reference() -> None:
    s = sent("a b c", opt(alt(0, (1, 2, "X"))), opt(alt(1, (1, 2, "Y"))))
    assert apply(s.source, [(1, 2, ("X",)), (1, 2, ("Y",))]) is None
    assert list(references(s)) == ["a X c", "a Y c", "a b c"]
    assert count(s) == Count(3, True, 4)
    # a required pair leaves no reference at all
    assert list(references(sent("a b c", req(alt(0, (1, 1, "X"))), req(alt(1, (1, 1, "Y")))))) == []
    # partial overlaps are not checked: both applied, right to left
    assert apply(("a", "b", "c"), [(0, 2, ("X",)), (1, 3, ("Y",))]) == ("X",)


def test_changes_are_applied_right_to_left() -> None:
    assert apply(("a", "b", "c"), [(0, 1, ("x", "y")), (2, 3, ("z",))]) == ("x", "y", "b", "z")
    # an insertion at the start of a replacement goes before it ((1, 1) < (1, 2))
    assert apply(("a", "b", "c"), [(1, 1, ("i",)), (1, 2, ("r",))]) == ("a", "i", "r", "c")
    assert apply(("a", "b", "c"), [(1, 2, ("r",)), (2, 2, ("i",))]) == ("a", "r", "i", "c")
    assert apply(("a", "b"), []) == ("a", "b")


def test_an_edit_that_would_empty_the_sentence_is_skipped() -> None:
    assert apply(("a",), [(0, 1, ())]) == ("a",)
    # deletion (0, 1) is applied first and would empty the sentence: skipped
    assert apply(("a",), [(0, 1, ()), (0, 0, ("b",))]) == ("b", "a")
    # the insertion at 1 is applied first, so the deletion no longer empties it
    assert apply(("a",), [(0, 1, ()), (1, 1, ("b",))]) == ("b",)
    # two deletions: the right one applies, the left one would empty the sentence
    assert apply(("a", "b"), [(0, 1, ()), (1, 2, ())]) == ("a",)
    # empty result (only possible from an empty source) → the source
    assert apply((), []) == ()
    one = sent("a", req(alt(0, (0, 1, ""))), numann=1)
    assert list(references(one)) == ["a"]
    assert count(one) == Count(1, True, 1)
    both = sent("a", opt(alt(0, (0, 1, ""))), opt(alt(1, (0, 0, "b"))))
    # (deletion skipped + insertion), (deletion skipped), (insertion), (none)
    assert list(references(both)) == ["b a", "a"]


def test_references_are_deduplicated_by_text() -> None:
    # inserting "b" before or after "b" gives the same string
    s = sent("a b", opt(alt(0, (1, 1, "b"))), opt(alt(1, (2, 2, "b"))))
    assert list(references(s)) == ["a b b b", "a b b", "a b"]
    assert count(s) == Count(3, True, 4)
    # the same through the "skip" rule
    t = sent("a a", opt(alt(0, (0, 1, ""))), opt(alt(1, (1, 2, ""))))
    assert list(references(t)) == ["a", "a a"]
    assert count(t) == Count(2, True, 4)


def test_no_mix_one_reference_per_annotator() -> None:
    # the first alternative of each annotator in each locus; annotators in id order
    s = sent("He go home",
             req(alt(1, (1, 2, "went")), alt(0, (1, 2, "goes")), alt(1, (1, 2, "has gone"))),
             opt(alt(1, (3, 3, "."))))
    assert list(references(s, mix=False)) == ["He goes home", "He went home ."]
    assert count(s, mix=False) == Count(2, True, 2)
    # fewer annotators with alternatives than numann: the source too
    s3 = LocusSentence(s.source, s.loci, 3)
    assert list(references(s3, mix=False)) == ["He goes home", "He went home .", "He go home"]
    # numann <= 0: the source too
    for n in (0, -1):
        assert list(references(LocusSentence(s.source, s.loci, n), mix=False))[-1] == "He go home"
    # two annotators giving the same text count once
    same = sent("a b", req(alt(0, (0, 1, "x")), alt(1, (0, 1, "x"))))
    assert list(references(same, mix=False)) == ["x b"]


def test_sentence_without_loci_is_its_source() -> None:
    for numann in (0, 1, 2):
        s = sent("Nothing to do .", numann=numann)
        assert list(references(s)) == ["Nothing to do ."]
        assert list(references(s, mix=False)) == ["Nothing to do ."]
        assert count(s) == Count(1, True, 1)
        assert bound(s) == raw_bound(s) == 1


def test_max_stops_after_that_many_distinct_references() -> None:
    assert list(references(DOC, max=2)) == ["He goes home .", "He goes home"]
    assert list(references(DOC, max=10)) == list(references(DOC))
    assert list(references(DOC, max=0)) == []
    assert list(references(DOC, mix=False, max=1)) == ["He goes home"]


def test_count_gives_the_bound_beyond_max() -> None:
    assert count(DOC, max=3) == Count(4, False, 4)
    assert count(DOC, max=4) == Count(4, True, 4)
    s = sent("a b", opt(alt(0, (1, 1, "b"))), opt(alt(1, (2, 2, "b"))))
    assert count(s, max=3) == Count(4, False, 4)  # inexact: the bound, not the 3 distinct


def test_the_original_example() -> None:
    """The I-measure package's example: candgen.py gives 4 references with -mix, 2 without."""
    gold = shared_file("corpora/imeasure/example/gold.xml")
    outputs = shared_file("corpora/imeasure/reference_outputs/example.candgen.mix.txt").parent

    def original(name: str) -> set[str]:
        text = (outputs / name).read_text(encoding="utf-8")
        return {line[5:] for line in text.splitlines() if line.startswith("REF: ")}

    (s,) = refs.read(gold, "ixml")
    assert set(references(s)) == original("example.candgen.mix.txt")
    assert len(list(references(s))) == 4
    assert set(references(s, mix=False)) == original("example.candgen.nomix.txt")


# ---------------------------------------------------------------------------------------
# Crossing changes inside one alternative (a bug of the fast path, fixed)


def test_crossing_changes_inside_one_alternative_fast_path_matches_apply() -> None:
    s = sent("a b c d e", req(alt(0, (1, 3, "X"), (2, 4, ""))), numann=1)
    assert apply(s.source, options(s.loci[0])[0]) == ("a", "X")
    assert list(references(s)) == naive_references(s) == ["a X"]  # fast path gives 'a X e'


def test_crossing_changes_inside_one_alternative_skip_rule() -> None:
    s = sent("a b c", req(alt(0, (0, 2, ""), (1, 2, ""))), numann=1)
    assert apply(s.source, options(s.loci[0])[0]) == ("a", "c")
    assert list(references(s)) == naive_references(s) == ["a c"]  # fast path gives 'c'


def test_crossing_edits_of_one_m2_annotator(tmp_path: Path) -> None:
    m2 = tmp_path / "cross.m2"
    m2.write_text("S a b c d e\nA 1 3|||R|||X|||REQUIRED|||-NONE-|||0\n"
                  "A 2 4|||U||||||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    assert run("refs", m2) == (0, "a X\n\n", "")  # gives 'a X e'


# ---------------------------------------------------------------------------------------
# Property: lazy generation (fast or slow path) = naive enumeration

WORDS = ["a", "b", "c", "the"]


@st.composite
def changes_in(draw, lo: int, hi: int) -> tuple[Change, ...]:
    """1–2 changes inside ``[lo, hi]``, which may cross each other."""
    out: list[Change] = []
    for _ in range(draw(st.integers(1, 2))):
        start = draw(st.integers(lo, hi))
        end = draw(st.integers(start, min(start + 2, hi)))
        out.append(Change(start, end, tuple(draw(st.lists(st.sampled_from(WORDS), max_size=2)))))
    return tuple(out)


@st.composite
def locus_sentences(draw) -> LocusSentence:
    source = tuple(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8)))
    n = len(source)
    k = draw(st.integers(0, 4))
    if draw(st.booleans()):
        # anywhere: overlapping loci, same spans across loci, whole-sentence deletions
        regions = [(0, n)] * k
    else:
        # disjoint, ordered stretches (the shape of real data; the fast path)
        cuts = sorted(draw(st.lists(st.integers(0, n), min_size=2 * k, max_size=2 * k)))
        regions = [(cuts[2 * i], cuts[2 * i + 1]) for i in range(k)]
    loci = []
    for lo, hi in regions:
        alternatives = tuple(Alternative(draw(st.integers(0, 2)), draw(changes_in(lo, hi)))
                             for _ in range(draw(st.integers(1, 3))))
        loci.append(Locus(alternatives, draw(st.booleans())))
    return LocusSentence(source, tuple(loci), draw(st.integers(-1, 3)))


@settings(max_examples=400, deadline=None)
@given(locus_sentences(), st.integers(1, 5), st.integers(1, 6))
def test_lazy_generation_equals_naive_enumeration(s: LocusSentence, small: int, n: int) -> None:
    calls = []

    def counting_apply(*args):
        calls.append(args)
        return apply(*args)

    with mock.patch.object(refs, "apply", counting_apply):
        full = list(references(s))
    event("slow path" if calls else "fast path")

    for locus in s.loci:
        assert options(locus) == naive_options(locus)
    per_locus = [naive_options(locus) for locus in s.loci]
    for combination in itertools.product(*per_locus):
        edits = [c for option in combination for c in option]
        assert apply(s.source, edits) == naive_apply(s.source, edits)

    expected = naive_references(s)
    assert full == expected  # same set, same order, no duplicates
    assert bound(s) == product(len(o) for o in per_locus)
    assert raw_bound(s) == product(len(locus.alternatives) + (not locus.required) for locus in s.loci)
    assert count(s) == Count(len(set(expected)), True, bound(s))
    if bound(s) > small:
        assert count(s, max=small) == Count(bound(s), False, bound(s))
    else:
        assert count(s, max=small) == Count(len(expected), True, bound(s))
    first = list(references(s, max=n))
    assert first == expected[:n] and len(set(first)) == min(n, len(expected))

    nomix = list(references(s, mix=False))
    assert nomix == naive_nomix(s)
    assert count(s, mix=False) == Count(len(nomix), True, len(nomix))


# ---------------------------------------------------------------------------------------
# Laziness


def forty_loci(shape: str) -> LocusSentence:
    if shape == "fast":  # disjoint loci with a fixed token between them
        source = tuple(f"w{i}" for i in range(80))
        loci = tuple(opt(alt(0, (2 * i, 2 * i + 1, f"x{i}"))) for i in range(40))
    else:  # every token in a locus: combinations are applied one by one
        source = tuple(f"w{i}" for i in range(40))
        loci = tuple(req(alt(0, (i, i + 1, "")), alt(1, (i, i + 1, f"x{i}"))) for i in range(40))
    return LocusSentence(source, loci, 2, "big")


@pytest.mark.parametrize("shape", ["fast", "slow"])
def test_first_reference_and_count_of_2_to_the_40_combinations_at_once(shape: str) -> None:
    s = forty_loci(shape)
    started = time.perf_counter()
    first = next(references(s))
    c = count(s)
    assert time.perf_counter() - started < 1.0  # guard against materialising 2**40 combinations
    assert c == Count(2**40, False, 2**40)
    if shape == "fast":
        assert first == " ".join(f"x{i} w{2 * i + 1}" for i in range(40))
    else:  # every deletion but the leftmost applied, the leftmost would empty it
        assert first == "w0"
    assert len(list(references(s, max=3))) == 3


# ---------------------------------------------------------------------------------------
# write_references


def two_sentences() -> list[LocusSentence]:
    return [LocusSentence(DOC.source, DOC.loci, 2, "s1"), sent("Fine .", numann=2, id="s2")]


def written(**kwargs) -> str:
    out = io.StringIO()
    refs.write_references(two_sentences(), out, **kwargs)
    return out.getvalue()


def test_write_references_lines_tsv_jsonl() -> None:
    assert written() == "He goes home .\nHe goes home\nHe went home .\nHe went home\n\nFine .\n\n"
    assert written(format="tsv", max=2) == "s1\tHe goes home .\ns1\tHe goes home\ns2\tFine .\n"
    assert [json.loads(line) for line in written(format="jsonl", mix=False).splitlines()] == [
        {"sentence": "s1", "reference": "He goes home"},
        {"sentence": "s1", "reference": "He went home ."},
        {"sentence": "s2", "reference": "Fine ."},
    ]


def test_write_references_counts() -> None:
    assert written(counts=True, format="tsv") == "sentence\tcount\tkind\ns1\t4\texact\ns2\t1\texact\n"
    assert written(counts=True, max=3) == "s1\t4\tbound\ns2\t1\texact\n"
    assert [json.loads(line) for line in written(counts=True, format="jsonl", max=3).splitlines()] == [
        {"sentence": "s1", "count": 4, "kind": "bound", "bound": 4},
        {"sentence": "s2", "count": 1, "kind": "exact", "bound": 1},
    ]
    assert written(counts=True, format="tsv", mix=False).endswith("s1\t2\texact\ns2\t1\texact\n")


def test_write_references_caps_at_default_references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refs, "DEFAULT_REFERENCES", 3)
    capped: list = []
    assert written(format="tsv", capped=capped) == (
        "s1\tHe goes home .\ns1\tHe goes home\ns1\tHe went home .\ns2\tFine .\n")
    assert capped == [("s1", Count(4, True, 4))]
    capped.clear()
    assert written(format="tsv", capped=capped, max=10).count("s1\t") == 4  # an explicit max
    assert written(format="tsv", capped=capped, max=0).count("s1\t") == 4  # 0: all
    assert written(format="tsv", capped=capped, mix=False).count("s1\t") == 2
    assert capped == []
    assert written(format="tsv", capped=capped, max=2).count("s1\t") == 2  # an explicit cap
    assert capped == [("s1", Count(4, True, 4))]  # is reported too
    capped.clear()
    # counts use DEFAULT_MAX as the enumeration limit
    monkeypatch.setattr(refs, "DEFAULT_MAX", 3)
    assert written(counts=True, capped=capped) == "s1\t4\tbound\ns2\t1\texact\n"


def test_write_references_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'csv'"):
        written(format="csv")


def test_read_m2_groups_and_numbers_sentences() -> None:
    components = list(refs.read(SMALL))
    imeasure = list(refs.read(SMALL, "m2", "imeasure"))
    assert [s.id for s in components] == [s.id for s in imeasure] == ["1", "2", "3"]
    assert [len(s.loci) for s in components] == [2, 1, 1]
    assert [len(s.loci) for s in imeasure] == [2, 2, 1]
    assert [s.numann for s in components] == [2, 2, 2]
    # the "||" alternative of annotator 1 is kept and collapses with annotator 0's "goes"
    assert (raw_bound(components[0]), bound(components[0])) == (6, 4)
    with pytest.raises(GecFormatError, match="convert hoo2012 data to M2 first"):
        list(refs.read(FIXTURES / "hoo2012", "hoo2012"))


# ---------------------------------------------------------------------------------------
# CLI


def run(*args: object, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


TSV = """\
1\tHe goes to school today .
1\tHe goes to school .
1\tHe went to school today .
1\tHe went to school .
2\tI like cats very much .
2\tI like the cat very much .
3\tThis is fine !
3\tThis is fine .
"""


def test_cli_refs_tsv() -> None:
    assert run("refs", SMALL, "--format", "tsv") == (0, TSV, "")


def test_cli_refs_grouping_imeasure_mixes_boundary_insertions() -> None:
    # the insertion of annotator 1 on the boundary of annotator 0's edit is a locus of its own
    code, out, _ = run("refs", SMALL, "--format", "tsv", "--grouping", "imeasure")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("2\t")] == [
        "2\tI like the cats very much .", "2\tI like the cat very much .",
        "2\tI like cats very much .", "2\tI like cat very much .",
    ]
    assert run("refs", SMALL, "--count", "--grouping", "imeasure")[1] == "1\t4\texact\n2\t4\texact\n3\t2\texact\n"
    assert run("refs", SMALL, "--count", "--grouping", "components")[1] == "1\t4\texact\n2\t2\texact\n3\t2\texact\n"


def test_cli_refs_lines_and_jsonl() -> None:
    code, out, _ = run("refs", SMALL)
    assert code == 0
    blocks = [[line.split("\t")[1] for line in TSV.splitlines() if line.startswith(f"{i}\t")] for i in (1, 2, 3)]
    assert out == "".join("\n".join(b) + "\n\n" for b in blocks)
    code, out, _ = run("refs", SMALL, "--format", "jsonl")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"sentence": line.split("\t")[0], "reference": line.split("\t")[1]} for line in TSV.splitlines()]


def test_cli_refs_no_mix() -> None:
    # annotator 0; annotator 1 with its first "||" alternative; the noop annotator 0 of sentence 3
    assert run("refs", SMALL, "--no-mix", "--format", "tsv") == (0, """\
1\tHe goes to school .
1\tHe went to school today .
2\tI like cats very much .
2\tI like the cat very much .
3\tThis is fine !
3\tThis is fine .
""", "")
    assert run("refs", SMALL, "--no-mix", "--count", "--format", "tsv")[1] == (
        "sentence\tcount\tkind\n1\t2\texact\n2\t2\texact\n3\t2\texact\n")


def test_cli_refs_count_and_max() -> None:
    assert run("refs", SMALL, "--count", "--format", "tsv") == (
        0, "sentence\tcount\tkind\n1\t4\texact\n2\t2\texact\n3\t2\texact\n", "")
    code, out, _ = run("refs", SMALL, "--count", "--format", "jsonl", "--max", "2")
    assert code == 0 and [json.loads(line) for line in out.splitlines()] == [
        {"sentence": "1", "count": 4, "kind": "bound", "bound": 4},
        {"sentence": "2", "count": 2, "kind": "exact", "bound": 2},
        {"sentence": "3", "count": 2, "kind": "exact", "bound": 2},
    ]
    code, out, err = run("refs", SMALL, "--max", "2", "--format", "tsv")
    assert code == 0 and "1 sentence (1) had more than 2 distinct references" in err  # reported
    assert out == "".join(line + "\n" for line in TSV.splitlines() if line not in (
        "1\tHe went to school today .", "1\tHe went to school ."))
    assert run("refs", SMALL, "--max", "0")[0] == 2  # usage error


def test_cli_refs_reports_the_default_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refs, "DEFAULT_REFERENCES", 3)
    code, out, err = run("refs", SMALL, "--format", "tsv")
    assert code == 0
    assert out.count("1\t") == 3 and out.count("2\t") == 2
    assert err == ("gecformats: note: 1 sentence (1) had more than 3 distinct references; "
                   "wrote the first 3 of each (sentence 1 has 4); --max-references N for "
                   "another cap, 0 for all\n")
    assert run("refs", SMALL, "--format", "tsv", "--max", "5") == (0, TSV, "")


def test_cli_refs_output_file(tmp_path: Path) -> None:
    out = tmp_path / "refs.tsv"
    assert run("refs", SMALL, "--format", "tsv", "-o", out) == (0, "", "")
    assert out.read_text(encoding="utf-8") == TSV


def test_cli_refs_stdin() -> None:
    text = SMALL.read_text(encoding="utf-8")
    assert run("refs", "-", "--from", "m2", "--format", "tsv", input=text) == (0, TSV, "")


def test_cli_refs_malformed_input_leaves_no_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.m2"
    text = SMALL.read_text(encoding="utf-8")
    bad.write_text(text + "S Bad .\nA one 2|||Nn|||x|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    line = text.count("\n") + 2
    out = tmp_path / "refs.txt"
    code, stdout, err = run("refs", bad, "-o", out)
    assert code == 1 and stdout == ""
    assert err == f"gecformats: {bad}:{line}: offsets must be two integers, not 'one 2'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.m2"]
    # an existing output file is left as it was
    out.write_text("old\n", encoding="utf-8")
    assert run("refs", bad, "-o", out, "--count")[0] == 1
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.m2", "refs.txt"]


def test_cli_refs_missing_input(tmp_path: Path) -> None:
    code, _, err = run("refs", tmp_path / "missing.m2")
    assert code == 1 and "missing.m2: No such file or directory" in err


# ---------------------------------------------------------------------------------------
# Real data: the CoNLL-2014 conversion measured with the original candgen.py


@pytest.fixture(scope="module")
def refcounts() -> dict[str, dict[str, int]]:
    with shared_file(REFCOUNTS).open(encoding="utf-8", newline="") as fh:
        return {row["sid"]: {k: int(v) for k, v in row.items() if k not in ("sid", "secs")}
                for row in csv.DictReader(fh, delimiter="\t")}


def check_against_refcounts(sentences: list[LocusSentence], table: dict[str, dict[str, int]]) -> None:
    assert len(table) == len(sentences) == 1312
    assert [s.id for s in sentences] == list(table)
    total = enumerated = 0
    for s in sentences:
        row = table[s.id]
        assert (s.numann, len(s.loci)) == (row["numann"], row["errors"]), s.id
        assert (raw_bound(s), bound(s)) == (row["bound_raw"], row["bound_dedup"]), s.id
        assert count(s, mix=False).count == row["n_nomix"], s.id
        if row["n_mix"] < 0:
            continue
        c = count(s)
        assert c.exact and c.count == row["n_mix"], s.id
        total += c.count
        enumerated += 1
    assert (enumerated, total) == (1311, 389_705)
    # sentence 333: 2**45 raw, 2**34 after collapsing; the bound, not an enumeration
    s333 = sentences[332]
    assert (s333.id, len(s333.source), len(s333.loci)) == ("333", 227, 45)
    assert raw_bound(s333) == 2**45 == 35_184_372_088_832
    assert count(s333) == Count(17_179_869_184, False, 2**34)
    assert next(references(s333)).count(" ") > 100


def test_conll14_m2_imeasure_grouping_counts(refcounts) -> None:
    sentences = list(refs.read(shared_file(CONLL_M2), "m2", "imeasure"))
    check_against_refcounts(sentences, refcounts)


def test_conll14_ixml_counts(refcounts) -> None:
    sentences = list(refs.read(shared_file(CONLL_XML), "ixml"))
    check_against_refcounts(sentences, refcounts)


# ---------------------------------------------------------------------------------------
# the default cap (issue 22)


def _many_loci_m2(tokens: int) -> str:
    """One sentence whose every token two annotators correct differently: 2^tokens
    references."""
    words = [f"w{i}" for i in range(tokens)]
    lines = ["S " + " ".join(words)]
    for k in (0, 1):
        lines += [f"A {i} {i + 1}|||R|||{w}{'xy'[k]}|||REQUIRED|||-NONE-|||{k}"
                  for i, w in enumerate(words)]
    return "\n".join(lines) + "\n\nS fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"


def test_refs_caps_references_by_default(tmp_path: Path) -> None:
    """`refs` wrote every reference up to 1,000,000 per sentence (1.69 GB on the CoNLL-2014
    locus XML): now at most 10,000, the cut reported, `--max-references 0` for all; the
    count of a sentence of 2^40 combinations is its bound, not an enumeration."""
    gold = tmp_path / "many.m2"
    gold.write_text(_many_loci_m2(40) + _many_loci_m2(14).replace("w", "v"))
    out = tmp_path / "refs.tsv"
    started = time.monotonic()
    code, _, err = run("refs", gold, "--format", "tsv", "-o", out)
    assert code == 0 and time.monotonic() - started < 30
    rows = out.read_text().splitlines()
    assert sum(r.startswith("1\t") for r in rows) == 10_000
    assert sum(r.startswith("3\t") for r in rows) == 10_000
    assert "2 sentences (1, 3) had more than 10,000 distinct references" in err
    assert "sentence 1 has up to 1,099,511,627,776" in err and "--max-references" in err
    code, _, err = run("refs", gold, "--format", "tsv", "--max-references", "3", "-o", out)
    assert code == 0 and sum(r.startswith("3\t") for r in out.read_text().splitlines()) == 3
    assert "had more than 3 distinct" in err
    small = tmp_path / "small.m2"
    small.write_text(_many_loci_m2(14))
    code, _, err = run("refs", small, "--format", "tsv", "--max-references", "0", "-o", out)
    assert code == 0 and err == "" and len(out.read_text().splitlines()) == 2 ** 14 + 1
    code, _, err = run("refs", small, "--count", "--max-references", "3")
    assert code == 2 and "--max-references" in err


def test_refs_on_the_conll_2014_locus_xml_is_capped(tmp_path: Path) -> None:
    """The original command: `refs official-2014.combined.m2.ieval.xml`."""
    out = tmp_path / "refs.txt"
    code, _, err = run("refs", shared_file(CONLL_XML), "-o", out)
    assert code == 0
    assert out.stat().st_size < 100_000_000  # 1.69 GB before
    assert "3 sentences (333, 334, 335) had more than 10,000" in err
    assert "sentence 333 has up to 17,179,869,184" in err

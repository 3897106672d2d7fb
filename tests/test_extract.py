"""Edit extraction (text → edits) and application (edits → text): gecformats.convert.extract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecformats.convert import extract
from gecformats.convert.extract import (
    NO_ERROR,
    UNANNOTATABLE,
    ExtractionReport,
    align,
    align_edits,
    parallels,
    sentences,
    to_parallel,
)
from gecformats.model import Edit, Parallel, Sentence, apply_edits
from gecformats.tokenize import get_tokenizer

# small alphabets so that tokens repeat and the alignment has choices to make
tokens = st.lists(st.sampled_from("abcd"), max_size=9)
few_tokens = st.lists(st.sampled_from("ab"), max_size=7)


def lcs_length(a: list[str], b: list[str]) -> int:
    """Reference DP for the length of a longest common subsequence."""
    prev = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(prev[j] + 1 if x == y else max(prev[j + 1], row[j]))
        prev = row
    return prev[-1]


def spans(edits: tuple[Edit, ...]) -> list[tuple[int, int, tuple[str, ...], str]]:
    return [(e.start, e.end, e.correction, e.type) for e in edits]


def words(tokenizer: str, text: str) -> tuple[str, ...]:
    return tuple(t.text for t in get_tokenizer(tokenizer).tokenize(text))


# ------------------------------------------------------------------ align: properties


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.tuples(tokens, tokens), st.tuples(few_tokens, few_tokens)))
def test_align_spans_keep_a_longest_common_subsequence(case: tuple[list[str], list[str]]) -> None:
    source, target = case
    found = align(source, target)
    unchanged = 0
    i = j = 0  # end of the previous span in source and target
    for n, (i1, i2, j1, j2) in enumerate(found):
        assert 0 <= i1 <= i2 <= len(source) and 0 <= j1 <= j2 <= len(target)
        assert i1 < i2 or j1 < j2, "an empty span"
        if n:
            # in order, never overlapping and never adjacent: a common token between
            assert i1 > i and j1 > j
        assert i1 - i == j1 - j
        assert source[i:i1] == target[j:j1]
        unchanged += i1 - i
        if sorted(source[i1:i2]) == sorted(target[j1:j2]):
            # a word-order span: merged over the tokens the subsequence kept inside it
            unchanged += lcs_length(source[i1:i2], target[j1:j2])
        else:
            # maximal: nothing in a span could be kept as well
            assert not set(source[i1:i2]) & set(target[j1:j2])
        i, j = i2, j2
    assert source[i:] == target[j:]
    unchanged += len(source) - i
    assert unchanged == lcs_length(source, target)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=120),
       st.lists(st.tuples(st.integers(0, 119), st.sampled_from(["del", "ins", "sub"]),
                          st.sampled_from("abcdefghxy")), max_size=12))
def test_windowed_alignment_is_a_valid_common_subsequence(source: list[str],
                                                         changes: list[tuple[int, str, str]]
                                                         ) -> None:
    """Past MAX_CELLS a stretch is aligned window by window (linear, not quadratic): the
    matches still pair equal tokens in order and the edits still give the target."""
    target = list(source)
    for at, op, token in sorted(changes, reverse=True):
        at = min(at, len(target))
        if op == "del":
            del target[at:at + 1]
        elif op == "ins":
            target.insert(at, token)
        else:
            target[at:at + 1] = [token]
    old = (extract.MAX_CELLS, extract.WINDOW, extract.MAX_WINDOW)
    extract.MAX_CELLS, extract.WINDOW, extract.MAX_WINDOW = 16, 4, 16
    try:
        pairs = extract._windowed(source, target)
        edits = align_edits(source, target)
    finally:
        extract.MAX_CELLS, extract.WINDOW, extract.MAX_WINDOW = old
    assert all(source[x] == target[y] for x, y in pairs)
    assert all(p[0] < q[0] and p[1] < q[1] for p, q in zip(pairs, pairs[1:]))
    assert apply_edits(source, edits) == tuple(target)
    assert len(pairs) <= lcs_length(source, target)


def test_windowed_alignment_work_is_linear() -> None:
    """The cells of every window aligned grow with the text, not with its square (an essay
    of 100,000 words against its correction was 10^10 cells, tens of gigabytes)."""
    import random

    def cells(n: int) -> int:
        rng = random.Random(n)
        source = [rng.choice("abcdefghij") + str(rng.randrange(50)) for _ in range(n)]
        target = [t if rng.random() > 0.05 else "x" for t in source]
        counted = [0]
        real = extract._lcs

        def counting(a: list[str], b: list[str]) -> list[tuple[int, int]]:
            assert len(a) * len(b) <= max(bound, extract.MAX_WINDOW ** 2)  # no table past it
            counted[0] += len(a) * len(b)
            return real(a, b)

        old = extract._lcs, extract.MAX_CELLS
        extract._lcs, extract.MAX_CELLS = counting, bound  # type: ignore[assignment]
        try:
            assert apply_edits(source, align_edits(source, target)) == tuple(target)
        finally:
            extract._lcs, extract.MAX_CELLS = old  # type: ignore[assignment]
        return counted[0]

    bound = 10_000  # the windows, not the exact rest, make the count
    small, large = cells(20_000), cells(80_000)
    assert small < 20_000 * extract.MAX_WINDOW
    assert large / small < 6  # four times the words; quadratic would be 16


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.tuples(tokens, tokens), st.tuples(few_tokens, few_tokens)),
       st.booleans(), st.sampled_from(["errant", "nlpcc"]))
def test_align_edits_reproduce_the_target(case: tuple[list[str], list[str]], split: bool,
                                          types: str) -> None:
    source, target = case
    edits = align_edits(source, target, annotator=3, types=types, split_substitutions=split)
    assert apply_edits(source, edits) == tuple(target)
    assert [(e.start, e.end) for e in edits] == sorted((e.start, e.end) for e in edits)
    insertion, deletion, replacement, order = extract._TYPES[types]
    for e in edits:
        assert e.annotator == 3 and e.required and e.comment == "-NONE-"
        assert len(e.corrections) == 1
        original = e.original(source)
        assert original != e.correction
        if not original:
            assert e.type == insertion
        elif not e.correction:
            assert e.type == deletion
        elif len(original) > 1 and sorted(original) == sorted(e.correction):
            assert e.type == order
        else:
            assert e.type == replacement
    if not split:
        assert len(edits) == len(align(source, target))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcd"), min_size=2, max_size=8), st.data())
def test_split_substitutions_gives_one_edit_per_changed_token(source: list[str],
                                                               data: st.DataObject) -> None:
    target = [data.draw(st.sampled_from("abxy")) for _ in source]
    merged = align_edits(source, target)
    split = align_edits(source, target, split_substitutions=True)
    assert apply_edits(source, split) == tuple(target)
    changed = sum(1 for s, t in zip(source, target) if s != t)
    if all(e.end - e.start == len(e.correction) and e.type != "R:WO" for e in merged):
        # every merged run is n → n: split into exactly the changed tokens
        assert len(split) == changed
        assert all(e.end - e.start == 1 and len(e.correction) == 1 for e in split)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abc"), max_size=6), min_size=1, max_size=3),
       st.lists(st.sampled_from("abc"), max_size=6))
def test_extract_and_back_reproduce_every_reference(refs: list[list[str]], source: list[str]) -> None:
    parallel = Parallel(" ".join(source), tuple(" ".join(r) for r in refs))
    sentence = extract.extract(parallel, "space")
    assert sorted(sentence.annotators) == list(range(len(refs)))
    for k, ref in enumerate(refs):
        assert sentence.corrected(k) == tuple(ref)
        assert all(e.annotator == k for e in sentence.annotators[k])
    assert to_parallel(sentence) == parallel


# ------------------------------------------------------------------ align: examples


def test_align_examples() -> None:
    assert align("a b c d".split(), "a x c d e".split()) == [(1, 2, 1, 2), (4, 4, 4, 5)]
    assert align([], []) == [] and align(["a"], ["a"]) == []
    assert align([], ["a", "b"]) == [(0, 0, 0, 2)]
    assert align(["a", "b"], []) == [(0, 2, 0, 0)]
    # common leading and trailing tokens are kept first: the second "the" goes
    assert align("the the cat".split(), "the cat".split()) == [(1, 2, 1, 1)]


def test_errant_types() -> None:
    src = "He go to school yesterday".split()
    assert spans(align_edits(src, "He went to the school yesterday".split())) == [
        (1, 2, ("went",), "R"), (3, 3, ("the",), "M")]
    assert spans(align_edits(src, "He go school yesterday".split())) == [(2, 3, (), "U")]
    # adjacent changes are one edit
    assert spans(align_edits(["have"], ["has", "been"])) == [(0, 1, ("has", "been"), "R")]


def test_nlpcc_types() -> None:
    src = list("他们去了学校，")
    assert spans(align_edits(src, list("他们去学校。"), types="nlpcc")) == [
        (3, 4, (), "R"), (6, 7, ("。",), "S")]
    assert spans(align_edits(src, list("他们都去了学校，"), types="nlpcc")) == [
        (2, 2, ("都",), "M")]


def test_split_substitutions_example() -> None:
    src, tgt = "firghtenning affects".split(), "frightening effects".split()
    assert spans(align_edits(src, tgt)) == [(0, 2, ("frightening", "effects"), "R")]
    assert spans(align_edits(src, tgt, split_substitutions=True)) == [
        (0, 1, ("frightening",), "R"), (1, 2, ("effects",), "R")]
    # unchanged tokens inside an n → n run get no edit; n → m runs stay whole
    assert spans(align_edits("a b c".split(), "x b z".split(), split_substitutions=True)) == [
        (0, 1, ("x",), "R"), (2, 3, ("z",), "R")]
    assert spans(align_edits(["have"], ["has", "been"], split_substitutions=True)) == [
        (0, 1, ("has", "been"), "R")]
    assert spans(align_edits(list("ab"), list("xy"), types="nlpcc", split_substitutions=True)) == [
        (0, 1, ("x",), "S"), (1, 2, ("y",), "S")]


@pytest.mark.parametrize(("source", "target", "types", "expected"), [
    ("a b", "b a", "errant", [(0, 2, ("b", "a"), "R:WO")]),
    ("I like very much it", "I like it very much", "errant",
     [(2, 5, ("it", "very", "much"), "R:WO")]),
    # ChERRANT's edit for NLPCC 2018 sentence 3 (spec §2.6): A 11 13|||W|||爱 死
    ("这样，你就会尝到泰国人死爱的味道。", "这样，你就会尝到泰国人爱死的味道。", "nlpcc",
     [(11, 13, ("爱", "死"), "W")]),
], ids=["swap", "moved-object", "nlpcc-2018-sentence-3"])
def test_word_order_is_one_edit(source: str, target: str, types: str,
                                expected: list[tuple[int, int, tuple[str, ...], str]]) -> None:
    split = list if types == "nlpcc" else str.split
    assert spans(align_edits(split(source), split(target), types=types)) == expected


def test_unknown_type_scheme() -> None:
    with pytest.raises(ValueError, match="unknown type scheme 'x'"):
        align_edits(["a"], ["b"], types="x")


# ------------------------------------------------------------------ extract()


def test_extract_noop_absent_and_edits() -> None:
    report = ExtractionReport()
    p = Parallel("He go home .", ("He goes home .", None, "He go home ."))
    s = extract.extract(p, "space", report=report, number=4)
    assert s.source == ("He", "go", "home", ".")
    assert spans(s.annotators[0]) == [(1, 2, ("goes",), "R")]
    assert 1 not in s.annotators  # None: absent annotator
    assert s.annotators[2] == ()  # equal to the source: noop annotator
    assert (report.sentences, report.references, report.edits, report.noops, report.absent) == (
        1, 2, 1, 1, 1)
    assert not report.counts
    assert report.versions == {"tokenizer": "space-1"}


def test_extract_keeps_the_id() -> None:
    assert extract.extract(Parallel("a", ("b",), id="7"), "space").id == "7"


def test_extract_no_references_is_a_noop_annotator_0() -> None:
    report = ExtractionReport()
    s = extract.extract(Parallel("我是里阿德。", ()), "char", report=report)
    assert dict(s.annotators) == {0: ()}
    assert (report.references, report.noops, report.edits) == (0, 1, 0)


def test_extract_cherrant_special_references() -> None:
    report = ExtractionReport()
    p = Parallel("他们去了学校，", ("他们去学校。", NO_ERROR, UNANNOTATABLE))
    s = extract.extract(p, "char", report=report, number=2)
    assert sorted(s.annotators) == [0, 1]  # 无法标注 is left out
    assert s.annotators[1] == ()  # 没有错误 is a noop
    assert s.corrected(0) == tuple("他们去学校。")
    assert report.counts == {"unannotatable": 1}
    assert report.examples == {"unannotatable": ["sentence 2, annotator 2"]}
    assert (report.references, report.noops, report.edits) == (2, 1, 2)


def test_extract_only_unannotatable_gives_no_annotator() -> None:
    report = ExtractionReport()
    s = extract.extract(Parallel("我在家里。", (UNANNOTATABLE,)), "char", report=report)
    assert dict(s.annotators) == {}
    assert report.counts["unannotatable"] == 1 and report.references == 0


def test_extract_spacing_only_difference_is_reported() -> None:
    report = ExtractionReport()
    s = extract.extract(Parallel("This is a test .", ("This  is a test . ", "This is a test .")),
                        "space", report=report, number=12)
    assert s.annotators == {0: (), 1: ()}
    assert report.noops == 2
    assert report.counts == {"spacing-only": 1}
    assert report.examples == {"spacing-only": ["sentence 12, annotator 0"]}


@pytest.mark.parametrize(("tokenizer", "source", "reference", "types"), [
    ("en", "He doesn't go home.", "He does not go home.", "errant"),
    ("space", "He go home.", "He goes home.", "errant"),
    ("zh", "我在家里一个人学习中文。", "我在家里自学中文。", "nlpcc"),
    ("char", "我在家里一个人学习中文。", "我在家里自学中文。", "nlpcc"),
], ids=["en", "space", "zh", "char"])
def test_extract_tokenizers(tokenizer: str, source: str, reference: str, types: str) -> None:
    report = ExtractionReport()
    s = extract.extract(Parallel(source, (reference,)), tokenizer, report=report)
    assert s.source == words(tokenizer, source)
    assert s.corrected(0) == words(tokenizer, reference)
    assert {e.type for e in s.edits} <= set(extract._TYPES[types])
    assert report.versions["tokenizer"].startswith(f"{tokenizer}-")
    # a tokenizer object works as well as its name
    assert extract.extract(Parallel(source, (reference,)), get_tokenizer(tokenizer)) == s


def test_extract_tokenizer_specifics() -> None:
    en = extract.extract(Parallel("He doesn't go home.", ("He does not go home.",)), "en")
    assert en.source == ("He", "does", "n't", "go", "home", ".")
    assert spans(en.annotators[0]) == [(2, 3, ("not",), "R")]
    space = extract.extract(Parallel("He go home.", ("He goes home.",)), "space")
    assert space.source == ("He", "go", "home.")
    char = extract.extract(Parallel("我 在\ufeff家。", ("我在家里。",)), "char")
    assert char.source == ("我", "在", "家", "。")
    assert spans(char.annotators[0]) == [(3, 3, ("里",), "M")]


def test_extract_explicit_types_override_the_default() -> None:
    s = extract.extract(Parallel("他们去了学校，", ("他们去学校。",)), "char", types="errant")
    assert [e.type for e in s.edits] == ["U", "R"]
    s = extract.extract(Parallel("a b", ("a c",)), "space", types="nlpcc")
    assert [e.type for e in s.edits] == ["S"]
    assert extract.default_types("zh") == "nlpcc" and extract.default_types("en") == "errant"
    assert extract.joiner_for("zh") == "" and extract.joiner_for("char") == ""
    assert extract.joiner_for("en") == " " and extract.joiner_for(None) == " "


def test_extract_split_substitutions() -> None:
    p = Parallel("firghtenning affects", ("frightening effects",))
    assert len(extract.extract(p, "space").edits) == 1
    assert len(extract.extract(p, "space", split_substitutions=True).edits) == 2


def test_extract_empty_source_and_reference() -> None:
    s = extract.extract(Parallel("", ("Hello .", "")), "space")
    assert s.source == ()
    assert spans(s.annotators[0]) == [(0, 0, ("Hello", "."), "M")]
    assert s.annotators[1] == ()


# ------------------------------------------------------------------ to_parallel()


def test_to_parallel_alternative() -> None:
    s = Sentence(("a", "b", "c"), {0: (Edit(0, 1, (("x",), ("X",))), Edit(2, 3, (("z",),)))})
    assert to_parallel(s).references == ("x b z",)
    report = ExtractionReport()
    assert to_parallel(s, alternative=1, report=report, number=5).references == ("X b z",)
    assert report.counts == {"no-alternative": 1}
    assert report.examples == {"no-alternative": ["sentence 5, annotator 0"]}
    report = ExtractionReport()
    to_parallel(s, alternative=0, report=report)
    assert not report.counts


def test_to_parallel_leaves_out_bad_edits_and_reports_them() -> None:
    report = ExtractionReport()
    s = Sentence(("a", "b", "c"), {
        0: (Edit(0, 1, (("x",),)), Edit(0, 2, (("y",),)), Edit(2, 5, (("z",),)),
            Edit(2, 1, (("w",),))),
        2: (),
    })
    p = to_parallel(s, report=report, number=7)
    assert p.references == ("x b c", None, "a b c")
    assert report.counts == {"overlap": 1, "out-of-range": 2}
    assert report.examples["overlap"] == ["sentence 7, annotator 0: 0 2"]
    # in (start, end) order
    assert report.examples["out-of-range"] == ["sentence 7, annotator 0: 2 1",
                                               "sentence 7, annotator 0: 2 5"]
    assert (report.sentences, report.references, report.edits, report.noops, report.absent) == (
        1, 2, 1, 1, 1)


def test_to_parallel_duplicate_edit_is_an_overlap() -> None:
    # NLPCC 2018 gold sentence 1104 lists one edit twice
    report = ExtractionReport()
    e = Edit(1, 2, (("高二",),))
    p = to_parallel(Sentence(("我", "高中", "了"), {0: (e, e)}), joiner="", report=report)
    assert p.references == ("我高二了",)
    assert report.counts == {"overlap": 1}


def test_to_parallel_noop_edit_and_negative_annotator() -> None:
    report = ExtractionReport()
    s = Sentence(("a", "b"), {0: (Edit(-1, -1, (("x",),), "noop"),), -1: (Edit(0, 1, (("x",),)),)})
    assert to_parallel(s, report=report, number=3).references == ("a b",)
    assert report.counts == {"negative-annotator": 1}


def test_to_parallel_joiner_for_chinese() -> None:
    s = extract.extract(Parallel("他们去了学校，", ("他们去学校。", "他们去了学校，")), "zh")
    assert to_parallel(s, joiner="") == Parallel("他们去了学校，", ("他们去学校。", "他们去了学校，"))
    assert to_parallel(s).source == " ".join(s.source)


def test_insertions_at_one_offset_keep_file_order() -> None:
    # CoNLL-2014 sentence 54: "this is" versus "is this"
    this, is_ = Edit(1, 1, (("this",),)), Edit(1, 1, (("is",),))
    deletion = Edit(1, 2, ((),))
    s = Sentence(("So", "what", "?"), {0: (this, is_, deletion), 1: (deletion, is_, this)})
    assert to_parallel(s).references == ("So this is ?", "So is this ?")


def test_to_parallel_absent_annotators_and_ids() -> None:
    s = Sentence(("a",), {1: (Edit(0, 1, (("b",),)),)}, id="x1")
    report = ExtractionReport()
    assert to_parallel(s, report=report) == Parallel("a", (None, "b"), id="x1")
    assert report.absent == 1
    assert to_parallel(Sentence(("a",), {})) == Parallel("a", ())


def test_parallels_numbers_the_sentences() -> None:
    items = [Sentence(("a",), {0: ()}), Sentence(("b",), {0: (Edit(3, 4, (("x",),)),)})]
    report = ExtractionReport()
    out = list(parallels(items, joiner="", report=report))
    assert [p.references for p in out] == [("a",), ("b",)]
    assert report.examples == {"out-of-range": ["sentence 2, annotator 0: 3 4"]}
    assert (report.sentences, report.references, report.edits, report.noops) == (2, 2, 0, 2)


# ------------------------------------------------------------------ streams and reports


def _mixed_items() -> list[Parallel]:
    out = []
    for i in range(50):
        refs: list[str | None] = [f"a  b c {i}" if i % 3 == 0 else f"a x c {i}"]
        refs.append(None if i % 4 == 0 else UNANNOTATABLE if i % 5 == 0 else f"b c {i} d")
        if i % 7 == 0:
            refs = []
        out.append(Parallel(f"a b c {i}", tuple(refs), id=str(i)))
    return out


@pytest.mark.parametrize(("jobs", "chunk"), [(2, 3), (2, 256), (3, 1), (0, 7)])
def test_sentences_jobs_give_the_same_output_and_report(jobs: int, chunk: int) -> None:
    items = _mixed_items()
    one = ExtractionReport()
    expected = list(sentences(items, "space", report=one))
    many = ExtractionReport()
    got = list(sentences(iter(items), "space", report=many, jobs=jobs, chunk=chunk))
    assert got == expected
    assert [s.id for s in got] == [p.id for p in items]
    assert many.to_dict() == one.to_dict()
    assert one.counts["spacing-only"] and one.counts["unannotatable"] and one.absent


def test_sentences_jobs_zh_and_split() -> None:
    items = [Parallel("我在家里一个人学习中文。", ("我在家里自学中文。",)),
             Parallel("他们去了学校，", ("他们去学校。", "他们去了学校，"))] * 3
    for kwargs in ({}, {"split_substitutions": True}, {"types": "errant"}):
        one, two = ExtractionReport(), ExtractionReport()
        a = list(sentences(items, "zh", report=one, **kwargs))
        b = list(sentences(items, "zh", report=two, jobs=2, chunk=2, **kwargs))
        assert a == b and one.to_dict() == two.to_dict()
        assert {e.type for e in a[0].edits} <= set(extract._TYPES[kwargs.get("types", "nlpcc")])


def test_sentences_jobs_on_an_empty_stream() -> None:
    report = ExtractionReport()
    assert list(sentences([], "space", report=report, jobs=2)) == []
    assert report.sentences == 0


def test_report_summary_json_and_merge(tmp_path: Path) -> None:
    report = ExtractionReport()
    list(sentences(_mixed_items(), "space", report=report))
    summary = report.summary()
    assert summary.startswith(f"50 sentences, {report.references} references, "
                              f"{report.edits} edits, {report.noops} noop references")
    assert f"{report.counts['unannotatable']} unannotatable" in summary
    path = tmp_path / "r.json"
    report.write_json(path)
    assert json.loads(path.read_text(encoding="utf-8")) == report.to_dict()
    # merge keeps only the first three examples of each kind
    total = ExtractionReport()
    total.merge(report)
    total.merge(report)
    assert total.sentences == 100 and total.counts["spacing-only"] == 2 * report.counts["spacing-only"]
    assert all(len(v) <= 3 for v in total.examples.values())
    assert ExtractionReport().summary() == "0 sentences, 0 edits"

"""Word-level M2 → character-level M2: gecformats.convert.chars."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from gecformats.convert.chars import sentences_to_chars, to_chars
from gecformats.convert.extract import ExtractionReport
from gecformats.formats import m2
from gecformats.model import Edit, Sentence, Target, apply_edits

word = st.text(alphabet="ab中文", min_size=1, max_size=3)
words = st.lists(word, max_size=6)


def spans(edits: tuple[Edit, ...]) -> list[tuple[int, int, tuple[str, ...]]]:
    return [(e.start, e.end, e.correction) for e in edits]


@st.composite
def word_sentences(draw: st.DrawFn, *, shuffle: bool) -> Sentence:
    """A word-level sentence with one or two annotators of non-overlapping edits, in
    (start, end) order, or (``shuffle``) in any order that keeps the order of insertions
    at one offset."""
    source = tuple(draw(words))
    annotators = {}
    for k in range(draw(st.integers(1, 2))):
        cuts = sorted(draw(st.lists(st.integers(0, len(source)), max_size=6)))
        edits = []
        for i in range(0, len(cuts) - 1, 2):
            start, end = cuts[i], cuts[i + 1]
            corrections = tuple(tuple(draw(words)) for _ in range(draw(st.integers(1, 2))))
            if start == end and not any(corrections):
                continue
            edits.append(Edit(start, end, corrections, draw(st.sampled_from("MRSW")),
                              draw(st.booleans()), "-NONE-", k))
        if shuffle:
            # insertions at one offset must keep their order: shuffle groups, not members
            groups: dict[tuple[int, int], list[Edit]] = {}
            for e in edits:
                groups.setdefault((e.start, e.end), []).append(e)
            order = draw(st.permutations(list(groups)))
            edits = [e for span in order for e in groups[span]]
        annotators[k] = tuple(edits)
    return Sentence(source, annotators)


def char_text(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple("".join(tokens))


@settings(max_examples=300, deadline=None)
@given(word_sentences(shuffle=True), st.integers(0, 1))
def test_to_chars_is_exact(sentence: Sentence, alternative: int) -> None:
    report = ExtractionReport()
    chars = to_chars(sentence, report=report)
    assert chars.source == char_text(sentence.source)
    assert sorted(chars.annotators) == sorted(sentence.annotators)
    for k, edits in sentence.annotators.items():
        assert chars.corrected(k, alternative) == char_text(sentence.corrected(k, alternative))
        # offsets are cumulative lengths; types, flags, comments and alternatives stay;
        # the edits come in (start, end) order, insertions at one point in file order
        for w, c in zip(sorted(edits, key=lambda e: (e.start, e.end)), chars.annotators[k]):
            assert c.start == len("".join(sentence.source[:w.start]))
            assert c.end == len("".join(sentence.source[:w.end]))
            assert c.corrections == tuple(char_text(x) for x in w.corrections)
            assert (c.type, c.required, c.comment, c.annotator) == (
                w.type, w.required, w.comment, w.annotator)
    assert report.sentences == 1 and report.edits == len(sentence.edits)
    assert not report.counts


@settings(max_examples=300, deadline=None)
@given(word_sentences(shuffle=False))
def test_to_chars_shrink_keeps_the_corrected_text(sentence: Sentence) -> None:
    plain, shrunk = to_chars(sentence), to_chars(sentence, shrink=True)
    assert shrunk.source == plain.source
    for k in sentence.annotators:
        assert shrunk.corrected(k) == plain.corrected(k) == char_text(sentence.corrected(k))
        for p, s in zip(plain.annotators[k], shrunk.annotators[k]):
            assert p.start <= s.start <= s.end <= p.end
            if len(p.corrections) > 1:
                assert s == p  # several alternatives: never shrunk
            elif s.start < s.end and s.correction and plain.source[s.start:s.end] != s.correction:
                # nothing shared is left at either end (identity edits keep their span)
                assert plain.source[s.start] != s.correction[0]
                assert plain.source[s.end - 1] != s.correction[-1]


def test_to_chars_shrink_with_unsorted_edits() -> None:
    # word level: ab → abY, then X inserted before cd: "abYXcd" whatever the file order
    s = Sentence(("ab", "cd"), {0: (Edit(1, 1, (("X",),)), Edit(0, 1, (("abY",),)))})
    assert s.corrected(0) == ("abY", "X", "cd")
    assert "".join(to_chars(s).corrected(0)) == "abYXcd"
    assert "".join(to_chars(s, shrink=True).corrected(0)) == "abYXcd"


def test_doc_example_offsets_and_shrink() -> None:
    s = Sentence(("我", "喜欢", "看书"), {0: (Edit(2, 3, (("看报",),), "S"),)})
    c = to_chars(s)
    assert c.source == ("我", "喜", "欢", "看", "书")
    assert spans(c.annotators[0]) == [(3, 5, ("看", "报"))]
    assert spans(to_chars(s, shrink=True).annotators[0]) == [(4, 5, ("报",))]


def test_shrink_cases() -> None:
    s = Sentence(("他们", "去", "了", "学校", "，"), {0: (
        Edit(0, 2, (("他们", "都", "去"),), "M"),   # 他们去 → 他们都去: insertion of 都
        Edit(2, 3, ((),), "R"),                     # deletion: unchanged
        Edit(3, 5, (("学校", "。"),), "S"),          # 学校， → 学校。
    )})
    shrunk = to_chars(s, shrink=True)
    assert spans(shrunk.annotators[0]) == [(2, 2, ("都",)), (3, 4, ()), (6, 7, ("。",))]
    assert [e.type for e in shrunk.annotators[0]] == ["M", "R", "S"]
    assert "".join(shrunk.corrected(0)) == "他们都去学校。"
    # several alternatives are left alone
    alt = Sentence(("看书",), {0: (Edit(0, 1, (("看报",), ("读书",))),)})
    assert spans(to_chars(alt, shrink=True).annotators[0]) == [(0, 2, ("看", "报"))]


def test_noop_annotators_ids_and_meta_are_kept() -> None:
    s = Sentence(("我", "很好"), {1: (), 0: (Edit(1, 2, (("好",),), "R", False, "c", 0),)},
                 id="s1", meta={"k": "v"})
    c = to_chars(s)
    assert list(c.annotators) == [1, 0] and c.annotators[1] == ()
    assert c.annotators[0] == (Edit(1, 3, (("好",),), "R", False, "c", 0),)
    assert (c.id, dict(c.meta)) == ("s1", {"k": "v"})


def test_ignorable_characters_in_tokens_are_dropped() -> None:
    s = Sentence(("\ufeff我", "在", "家"), {0: (Edit(2, 3, (("家\ufeff里",),)),)})
    c = to_chars(s)
    assert c.source == ("我", "在", "家")
    assert spans(c.annotators[0]) == [(2, 3, ("家", "里"))]


def test_out_of_range_edit_is_reported_and_left_out() -> None:
    # NLPCC 2018 gold sentence 1682: "A 19 202" on a 25-token sentence
    s = Sentence(("我", "去", "学校"), {0: (Edit(2, 202, (("x",),)), Edit(0, 1, (("你",),))),
                                       1: (Edit(2, 1, ((),)),)})
    report = ExtractionReport()
    c = to_chars(s, report=report, number=1682)
    assert spans(c.annotators[0]) == [(0, 1, ("你",))]
    assert c.annotators[1] == ()
    assert report.counts == {"out-of-range": 2}
    assert report.examples["out-of-range"] == ["sentence 1682, annotator 0: 2 202",
                                               "sentence 1682, annotator 1: 2 1"]
    assert report.edits == 1


def _cherrant_word() -> Sentence:
    e0 = Edit(3, 5, (("爱", "死"),), "W", annotator=0)
    e1 = Edit(3, 4, ((),), "R", annotator=0)
    e2 = Edit(5, 5, (("死",),), "M", annotator=0)
    return Sentence(
        ("这样", "，", "泰国人", "死", "爱", "的", "味道", "。"),
        {0: (e0,), 1: ()},
        targets={0: (Target("这样 ， 泰国人 爱 死 的 味道 。", 0, (e0,)),
                     Target("这样 ， 泰国人 爱 死 的 味道 。", 1, (e1, e2))),
                 1: (Target("没有错误", None, ()),)},
    )


def test_cherrant_targets_are_converted() -> None:
    c = to_chars(_cherrant_word())
    assert c.source == tuple("这样，泰国人死爱的味道。")
    assert spans(c.annotators[0]) == [(6, 8, ("爱", "死"))]
    first, second = c.targets[0]
    assert first.text == " ".join("这样，泰国人爱死的味道。") and first.alignment == 0
    assert spans(first.edits) == [(6, 8, ("爱", "死"))]
    assert spans(second.edits) == [(6, 7, ()), (8, 8, ("死",))]
    assert c.targets[1] == (Target("没有错误", None, ()),)
    # written and read back as a ChERRANT char file
    out = io.StringIO()
    m2.write([c], out)
    assert out.getvalue() == (
        "S 这 样 ， 泰 国 人 死 爱 的 味 道 。\n"
        "T0-A0 这 样 ， 泰 国 人 爱 死 的 味 道 。\n"
        "A 6 8|||W|||爱 死|||REQUIRED|||-NONE-|||0\n"
        "T0-A1 这 样 ， 泰 国 人 爱 死 的 味 道 。\n"
        "A 6 7|||R||||||REQUIRED|||-NONE-|||0\n"
        "A 8 8|||M|||死|||REQUIRED|||-NONE-|||0\n"
        "T1 没有错误\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n")


def test_cherrant_report_counts_each_edit_once() -> None:
    report = ExtractionReport()
    to_chars(_cherrant_word(), report=report)
    # the char file holds 3 A lines with edits (and the first alignment's edit is one of them)
    assert report.edits == 3


def test_sentences_to_chars_numbers_the_sentences() -> None:
    items = [Sentence(("我",), {0: ()}), Sentence(("你们",), {0: (Edit(0, 9, (("x",),)),)})]
    report = ExtractionReport()
    out = list(sentences_to_chars(items, report=report, shrink=True))
    assert [s.source for s in out] == [("我",), ("你", "们")]
    assert report.examples == {"out-of-range": ["sentence 2, annotator 0: 0 9"]}
    assert report.sentences == 2


def test_apply_after_to_chars_through_m2() -> None:
    text = ("S 我 喜欢 看书\nA 2 3|||S|||看报|||REQUIRED|||-NONE-|||0\n"
            "A 1 2|||R|||-NONE-|||REQUIRED|||-NONE-|||1\n\n")
    [s] = m2.read(io.StringIO(text))
    c = to_chars(s)
    assert "".join(apply_edits(c.source, c.annotators[1])) == "我看书"
    assert "".join(c.corrected(0)) == "我喜欢看报"

"""gecformats.convert.retokenize: character-offset documents (HOO) ↔ token-offset sentences (M2).

Hand-made documents check each rule of ``formats.md`` §7.5 (exact, widened, dropped and
repaired edits, boundary insertions, paragraph breaks, consistency), the way back
(:func:`to_document`, :func:`to_documents`, :func:`detokenize`), and a hypothesis property
checks that whole-word edits survive HOO → M2 → HOO.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecformats.errors import GecFormatError
from gecformats.model import Document, Edit, Sentence
from gecformats.convert.retokenize import (
    ConversionReport,
    detokenize,
    documents_to_sentences,
    lost_space,
    repair_type,
    to_document,
    to_documents,
    to_sentences,
)
from gecformats.tokenize import PUNKT_ABBREVIATIONS, get_tokenizer

# ------------------------------------------------------------------------------- helpers


def hoo(start: int, end: int, *alternatives: str | None, **kw: Any) -> Edit:
    """A character-offset edit: each alternative is a string, ``None`` a deletion; no
    alternatives at all is a detection-only edit."""
    corrections = tuple(() if a is None else (a,) for a in alternatives)
    return Edit(start, end, corrections, **kw)


def m2(start: int, end: int, *alternatives: str, **kw: Any) -> Edit:
    """A token-offset edit: each alternative is space-separated tokens, "" a deletion."""
    return Edit(start, end, tuple(tuple(a.split()) for a in alternatives), **kw)


def sent(tokens: str, *edits: Edit, **kw: Any) -> Sentence:
    return Sentence(tuple(tokens.split()), {0: tuple(edits)}, **kw)


def at(text: str, piece: str, nth: int = 0) -> int:
    """Character offset of the ``nth`` occurrence of ``piece`` in ``text``."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(piece, pos + 1)
    return pos


def span(text: str, piece: str, nth: int = 0) -> tuple[int, int]:
    start = at(text, piece, nth)
    return start, start + len(piece)


def convert(
    text: str,
    *edits: Edit,
    tokenizer: str = "en",
    sentences: str = "punkt",
    breaks: tuple[int, ...] = (),
    doc_id: str = "d1",
    **options: bool,
) -> tuple[list[Sentence], ConversionReport]:
    """Convert one document; check the report's invariants before returning."""
    report = ConversionReport()
    document = Document(text, tuple(edits), id=doc_id, breaks=breaks)
    out = to_sentences(document, tokenizer, sentences, report, **options)
    check_report(report, len(edits), len(out), options.get("check", True))
    return out, report


def check_report(report: ConversionReport, edits: int, sentences: int,
                 check: bool = True) -> None:
    """Counts agree with the lists; every case says where it is and why."""
    assert report.edits == edits and report.sentences == sentences
    assert report.edits == report.converted + report.dropped
    assert report.dropped == len(report.dropped_edits)
    assert report.widened == len(report.widened_edits)
    checked = report.consistent_sentences + len(report.inconsistent_sentences)
    assert checked == (sentences if check else 0)
    for case in report.dropped_edits + report.widened_edits + report.boundary_insertions:
        assert {"document", "start", "end", "reason"} <= set(case), case
    for case in report.inconsistent_sentences:
        assert {"document", "sentence", "start", "end", "reason"} <= set(case), case


def edits_of(sentences: list[Sentence]) -> list[tuple[Edit, ...]]:
    return [s.annotators[0] for s in sentences]


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# ------------------------------------------------------------------- exact conversion


def test_edits_on_token_boundaries_map_to_exactly_those_tokens() -> None:
    text = "Thanks for you letter. It were fine."
    out, report = convert(text, hoo(*span(text, "you"), "your", type="RD"),
                          hoo(*span(text, "were"), "was", type="AGV"),
                          hoo(*span(text, "fine"), "good", "nice"))
    assert [s.source for s in out] == [("Thanks", "for", "you", "letter", "."),
                                       ("It", "were", "fine", ".")]
    assert edits_of(out) == [(m2(2, 3, "your", type="RD"),),
                             (m2(1, 2, "was", type="AGV"), m2(2, 3, "good", "nice"))]
    assert (report.converted, report.widened, report.dropped) == (3, 0, 0)
    assert report.consistent_sentences == 2 and not report.inconsistent_sentences
    assert [s.id for s in out] == ["d1-1", "d1-2"]
    assert [dict(s.meta) for s in out] == [{"document": "d1", "start": "0", "end": "22"},
                                           {"document": "d1", "start": "23", "end": "36"}]
    # the character offsets the edit came from are kept in its meta
    assert out[0].annotators[0][0].get_meta("chars") == "11 14"


def test_hoo2012_whitespace_in_insertions_and_deletions_is_trimmed() -> None:
    text = "I go to school by the bus every day."
    out, _ = convert(text, hoo(at(text, "school"), at(text, "school"), "the "),
                     hoo(at(text, "the "), at(text, "bus"), None),  # "the " with its space
                     hoo(at(text, " every"), at(text, " day"), " each"))
    assert edits_of(out) == [(m2(3, 3, "the"), m2(5, 6, ""), m2(7, 8, "each"))]


def test_alternatives_stay_alternatives_and_optional_stays_optional() -> None:
    text = "The outcome was good."
    out, report = convert(text, hoo(*span(text, "outcome"), "output", "results", type="RN"),
                          hoo(*span(text, "good"), "fine", required=False))
    assert edits_of(out) == [(m2(1, 2, "output", "results", type="RN"),
                              m2(3, 4, "fine", required=False))]
    assert out[0].annotators[0][1].required is False
    assert report.consistent_sentences == 1


def test_an_alternative_equal_to_the_original_is_kept() -> None:
    text = "The outcome was good."
    out, _ = convert(text, hoo(*span(text, "outcome"), "outcome", "results"))
    assert edits_of(out) == [(m2(1, 2, "outcome", "results"),)]


def test_malformed_type_is_repaired_and_comes_back_on_the_way_back() -> None:
    text = "The outcome was good."
    raw = 'RT cset ="2"'
    out, _ = convert(text, hoo(*span(text, "outcome"), "result", type=raw,
                               meta=(("hoo.index", "0001-0002"),)))
    (edit,) = out[0].annotators[0]
    assert edit.type == "RT" and edit.get_meta("hoo.type") == raw
    assert edit.get_meta("hoo.index") == "0001-0002"
    back = to_document(out, text)
    assert back.edits == (hoo(*span(text, "outcome"), "result", type=raw),)
    assert back.edits[0].get_meta("hoo.index") == "0001-0002"
    assert back.edits[0].get_meta("chars") is None
    assert repair_type('CC set="3"') == ("CC", "3") and repair_type("MD") == ("MD", None)


def test_multi_word_replacement_and_insertion_of_several_words() -> None:
    text = "He go to school yesterday."
    out, _ = convert(text, hoo(at(text, "go"), at(text, " school"), "went"),
                     hoo(at(text, "yesterday"), at(text, "yesterday"), "early in the day "))
    assert edits_of(out) == [(m2(1, 3, "went"), m2(4, 4, "early in the day"))]


# ------------------------------------------------------------------------------ widening


def test_boundary_inside_a_token_widens_and_keeps_the_cut_off_piece() -> None:
    text = "Use paraphrase/nonparaphrase pairs."
    out, report = convert(text, hoo(*span(text, "non"), None, "un", type="RP"))
    assert out[0].source == ("Use", "paraphrase/nonparaphrase", "pairs", ".")
    assert edits_of(out) == [(m2(1, 2, "paraphrase/paraphrase", "paraphrase/unparaphrase",
                                 type="RP"),)]
    assert report.widened == 1 and report.reasons("widened") == {"inside-token": 1}
    (case,) = report.widened_edits
    assert case == {"document": "d1", "start": 15, "end": 18, "reason": "inside-token",
                    "tokens": [1, 2]}
    assert report.consistent_sentences == 1


def test_end_inside_a_token_widens() -> None:
    text = "We went to schools."
    out, report = convert(text, hoo(at(text, "to"), at(text, "s."), "the school"))
    assert edits_of(out) == [(m2(2, 4, "the schools"),)]
    assert report.reasons("widened") == {"inside-token": 1}


def test_a_correction_that_retokenizes_a_neighbour_widens_with_reason_context() -> None:
    # "etc." at the end of a sentence is "etc" + "."; followed by more text it is one token
    text = "We like cats etc."
    out, report = convert(text, hoo(len(text), len(text), " too"))
    assert out[0].source == ("We", "like", "cats", "etc", ".")
    assert edits_of(out) == [(m2(3, 5, "etc. too"),)]
    assert report.reasons("widened") == {"context": 1}
    assert report.widened_edits[0]["tokens"] == [3, 5]
    assert report.consistent_sentences == 1


# ------------------------------------------------------------------------------ dropping


def test_unrepresentable_edits_are_dropped_and_listed() -> None:
    text = "It is good. It is bad."
    edits = [
        hoo(at(text, "good"), at(text, "is", 1), "fine and it"),  # crosses the sentence end
        hoo(*span(text, "It"), type="DD"),                          # detection only
        hoo(*span(text, " ", 1), "   "),                            # white space only
        hoo(*span(text, "bad"), "fine"),                            # converted
        hoo(40, 45, "x"),                                           # outside the text
    ]
    out, report = convert(text, *edits)
    assert edits_of(out) == [(), (m2(2, 3, "fine"),)]
    assert (report.edits, report.converted, report.dropped) == (5, 1, 4)
    assert report.reasons("dropped") == {"cross-sentence": 1, "detection-only": 1,
                                         "no-change": 1, "outside-text": 1}
    assert [(c["start"], c["end"], c["reason"]) for c in report.dropped_edits] == [
        (6, 15, "cross-sentence"), (0, 2, "detection-only"), (5, 6, "no-change"),
        (40, 45, "outside-text")]
    assert all(c["document"] == "d1" for c in report.dropped_edits)


def test_dropped_case_keeps_the_hoo_index() -> None:
    text = "It is good."
    _, report = convert(text, hoo(0, 2, meta=(("hoo.index", "0007-0001"),)))
    assert report.dropped_edits == [{"document": "d1", "start": 0, "end": 2,
                                     "index": "0007-0001", "original": "It",
                                     "corrections": [], "type": "",
                                     "reason": "detection-only"}]


def test_a_dropped_case_shows_original_correction_and_type() -> None:
    """Issue 22 (HOO): the report of a dropped edit shows what was dropped."""
    text = "It is good. It is bad."
    _, report = convert(text, hoo(8, 17, "x y", type="RV"), hoo(6, 10, "good", type="FV"))
    assert [(c["original"], c["corrections"], c["type"], c["reason"])
            for c in report.dropped_edits] == [("od. It is", ["x y"], "RV", "cross-sentence"),
                                               ("good", ["good"], "FV", "no-change")]
    assert report.widened_edits == [] or "original" not in report.widened_edits[0]


def test_replacement_by_the_same_text_is_no_change() -> None:
    text = "It is good."
    _, report = convert(text, hoo(*span(text, "good"), "good"))
    assert report.reasons("dropped") == {"no-change": 1} and report.converted == 0


# -------------------------------------------------------------------- sentence boundaries


@pytest.mark.parametrize("insertion", [".", " and"])
def test_insertion_between_lines_continuing_the_first_goes_to_it(insertion: str) -> None:
    text = "It was fine\nThe hotel was nice."
    pos = at(text, "\n")
    out, report = convert(text, hoo(pos, pos, insertion), sentences="lines")
    assert edits_of(out) == [(m2(3, 3, insertion.strip()),), ()]
    assert report.boundary_insertions == [{"document": "d1", "start": pos, "end": pos,
                                           "reason": "previous", "sentence": 1}]
    assert report.consistent_sentences == 2


def test_insertion_between_sentences_continuing_the_first_goes_to_it() -> None:
    text = "It was fine! The hotel was nice."
    pos = at(text, "!") + 1
    out, report = convert(text, hoo(pos, pos, " and"))
    assert edits_of(out) == [(m2(4, 4, "and"),), ()]
    assert [c["reason"] for c in report.boundary_insertions] == ["previous"]


def test_insertion_at_the_start_of_a_sentence_after_its_space_goes_to_it() -> None:
    text = "It was fine. The hotel was nice."
    pos = at(text, "The")
    out, report = convert(text, hoo(pos, pos, "Concerning "))
    assert edits_of(out) == [(), (m2(0, 0, "Concerning"),)]
    assert report.consistent_sentences == 2


def test_insertion_in_the_gap_between_sentences_starting_the_next_goes_to_it() -> None:
    text = "It was fine. The hotel was nice."
    pos = at(text, ".") + 1  # between "." and " "
    out, report = convert(text, hoo(pos, pos, "Concerning "))
    assert edits_of(out) == [(), (m2(0, 0, "Concerning"),)]
    assert report.boundary_insertions == [{"document": "d1", "start": pos, "end": pos,
                                           "reason": "next", "sentence": 2}]


# ------------------------------------------------------------------------ paragraph breaks

JOINED = "I wrote on summer.The accommodation was nice."  # HOO 2012: <P>s joined with ""
BREAK = at(JOINED, "The")


@pytest.mark.parametrize("splitter", ["punkt", "lines"])
def test_sentences_never_cross_a_paragraph_break(splitter: str) -> None:
    out, _ = convert(JOINED, breaks=(BREAK,), sentences=splitter)
    assert [s.source for s in out] == [("I", "wrote", "on", "summer", "."),
                                       ("The", "accommodation", "was", "nice", ".")]
    assert [(s.meta["start"], s.meta["end"]) for s in out] == [("0", "18"), ("18", "45")]
    # without the break nothing separates the paragraphs
    out, _ = convert(JOINED, sentences=splitter)
    assert len(out) == 1 and "summer.The" in out[0].source


def test_breaks_outside_the_text_are_ignored() -> None:
    out, _ = convert(JOINED, breaks=(0, BREAK, len(JOINED), 999))
    assert len(out) == 2


def test_edit_across_a_paragraph_break_is_cross_sentence() -> None:
    out, report = convert(JOINED, hoo(at(JOINED, "summer"), at(JOINED, " accommodation"),
                                      "summer. Their"), breaks=(BREAK,))
    assert edits_of(out) == [(), ()]
    assert report.reasons("dropped") == {"cross-sentence": 1}
    assert [c["reason"] for c in report.inconsistent_sentences] == [
        "cross-sentence edit dropped"] * 2


def test_insertion_at_a_paragraph_break_starting_the_next_goes_to_it() -> None:
    out, report = convert(JOINED, hoo(BREAK, BREAK, "Concerning ", type="MT"),
                          breaks=(BREAK,))
    assert edits_of(out) == [(), (m2(0, 0, "Concerning", type="MT"),)]
    assert report.consistent_sentences == 2


def test_insertion_at_a_paragraph_break_is_reported() -> None:
    _, report = convert(JOINED, hoo(BREAK, BREAK, "Concerning "), breaks=(BREAK,))
    assert report.boundary_insertions == [{"document": "d1", "start": BREAK, "end": BREAK,
                                           "reason": "next", "sentence": 2}]


@pytest.mark.parametrize("insertion", [".", " and"])
def test_insertion_at_a_paragraph_break_continuing_the_previous_goes_to_it(
    insertion: str,
) -> None:
    text = "I wrote on summerThe accommodation was nice."
    pos = at(text, "The")
    out, report = convert(text, hoo(pos, pos, insertion), breaks=(pos,))
    assert edits_of(out) == [(m2(4, 4, insertion.strip()),), ()]
    assert [c["reason"] for c in report.boundary_insertions] == ["previous"]


# ------------------------------------------------------------------------ lost space repair


def test_insertion_that_lost_its_leading_space_is_repaired() -> None:
    text = "We take this view of it."
    pos = at(text, " of")
    assert lost_space(text, hoo(pos, pos, "set"))
    out, report = convert(text, hoo(pos, pos, "set", type="MP"))
    assert edits_of(out) == [(m2(4, 4, "set", type="MP"),)]
    assert report.repaired_edits == [{"document": "d1", "start": pos, "end": pos,
                                      "reason": "lost leading space"}]
    assert report.reasons("repaired") == {"lost leading space": 1}
    assert report.widened == 0


def test_repair_spaces_false_keeps_the_insertion_literal() -> None:
    text = "We take this view of it."
    pos = at(text, " of")
    out, report = convert(text, hoo(pos, pos, "set"), repair_spaces=False)
    assert edits_of(out) == [(m2(3, 4, "viewset"),)]
    assert report.repaired_edits == [] and report.reasons("widened") == {"context": 1}


@pytest.mark.parametrize("text, pos, correction, expected", [
    ("We take this view of it.", 17, "set", True),     # "viewset"
    ("We take this view of it.", 17, "set up", True),
    ("We take this view, of it.", 17, "s", True),      # before punctuation too
    ("We take this view", 17, "set", True),            # at the end of the text
    ("We take this view of it.", 18, "the ", False),   # at a word start, after a space
    ("We take this view of it.", 15, "e", False),      # inside a word
    ("We take this view of it.", 17, " set", False),   # already has its space
    ("We take this view of it.", 17, ",", False),      # punctuation glues on
    ("We take (this) view.", 9, "s", False),           # after a bracket
])
def test_lost_space_only_for_words_glued_onto_a_word_end(
    text: str, pos: int, correction: str, expected: bool
) -> None:
    assert lost_space(text, hoo(pos, pos, correction)) is expected
    assert not lost_space(text, hoo(pos, pos + 1, "x"))  # not an insertion
    assert not lost_space(text, hoo(pos, pos))            # detection only


# ------------------------------------------------------------------------------- shrink


def test_shrink_trims_shared_edge_tokens() -> None:
    text = "Most of students like it."
    edit = hoo(*span(text, "Most of"), "Most")
    out, _ = convert(text, edit)
    assert edits_of(out) == [(m2(0, 2, "Most"),)]          # the annotator's span is kept
    out, report = convert(text, edit, shrink=True)
    assert edits_of(out) == [(m2(1, 2, ""),)]              # a deletion of "of"
    assert report.consistent_sentences == 1
    back = to_document(out, text)
    assert back.edits == (hoo(*span(text, "of "), None),)


def test_shrink_trims_both_edges() -> None:
    text = "I saw a big dog there."
    edit = hoo(*span(text, "a big dog"), "a small dog")
    out, _ = convert(text, edit, shrink=True)
    assert edits_of(out) == [(m2(3, 4, "small"),)]


# --------------------------------------------------------------------------- consistency


def test_consistency_is_counted_per_sentence() -> None:
    text = "I has a apple. She go home. It is fine."
    out, report = convert(text, hoo(*span(text, "has"), "have"),
                          hoo(*span(text, "a apple"), "an apple"),
                          hoo(*span(text, "go"), "goes"))
    assert len(out) == 3 and report.consistent_sentences == 3
    assert [s.corrected(0) for s in out] == [("I", "have", "an", "apple", "."),
                                             ("She", "goes", "home", "."),
                                             ("It", "is", "fine", ".")]


def test_sentence_touched_by_a_dropped_cross_sentence_edit_is_inconsistent() -> None:
    text = "It is good. It is bad. Fine."
    _, report = convert(text, hoo(at(text, "good"), at(text, "It", 1) + 2, "good and it"))
    assert report.consistent_sentences == 1
    assert [(c["sentence"], c["start"], c["end"], c["reason"])
            for c in report.inconsistent_sentences] == [
        (1, 0, 11, "cross-sentence edit dropped"), (2, 12, 22, "cross-sentence edit dropped")]
    assert report.reasons("inconsistent") == {"cross-sentence edit dropped": 2}


def test_edits_overlapping_after_widening_are_merged() -> None:
    # "etc." → "stuff" retokenizes the final "."; the insertion after it then falls inside
    # the first edit's tokens: an M2 file cannot hold both, so they become one edit
    text = "We like cats etc."
    out, report = convert(text, hoo(*span(text, "etc"), "stuff", type="A"),
                          hoo(len(text), len(text), " too", type="B"))
    assert edits_of(out) == [(m2(3, 5, "stuff . too", type="A+B"),)]
    assert report.consistent_sentences == 1 and report.converted == 1
    assert report.dropped_edits == [{"document": "d1", "start": 17, "end": 17,
                                     "original": "", "corrections": [" too"], "type": "B",
                                     "reason": "merged into an overlapping edit",
                                     "into": [13, 16]}]


def test_check_false_skips_the_consistency_check() -> None:
    text = "It is good. It is bad."
    report = ConversionReport()
    to_sentences(Document(text, (hoo(8, 17, "x"),)), "en", "punkt", report, check=False)
    assert report.consistent_sentences == 0 and report.inconsistent_sentences == []


# ------------------------------------------------------------------------------- Chinese

ZH = "我爱北京天安门。他是学生。"


def test_zh_tokenizer_on_a_chinese_document() -> None:
    out, report = convert(ZH, hoo(2, 4, "上海"), hoo(8, 9, "她"), tokenizer="zh")
    assert [s.source for s in out] == [
        ("我", "爱", "北京", "天安门", "。", "他", "是", "学生", "。")]
    assert edits_of(out) == [(m2(2, 3, "上海"), m2(5, 6, "她"))]
    assert report.consistent_sentences == 1 and report.widened == 0
    back = to_document(out, ZH, tokenizer="zh")
    assert back.edits == (hoo(2, 4, "上海"), hoo(8, 9, "她"))


def test_zh_character_edit_inside_a_word_widens() -> None:
    out, report = convert(ZH, hoo(3, 4, "海"), tokenizer="zh")
    assert edits_of(out) == [(m2(2, 3, "北海"),)]
    assert report.reasons("widened") == {"inside-token": 1}
    back = to_document(out, ZH, tokenizer="zh")
    assert back.edits == (hoo(2, 4, "北海"),)
    assert back.corrected() == "我爱北海天安门。他是学生。"


def test_char_tokenizer_and_lines_splitting() -> None:
    text = "我爱北京天安门。\n他是学生。"
    out, report = convert(text, hoo(2, 4, "上海"), hoo(9, 10, "她"), hoo(13, 13, "们"),
                          tokenizer="char", sentences="lines")
    assert [s.source for s in out] == [tuple("我爱北京天安门。"), tuple("他是学生。")]
    assert edits_of(out) == [(m2(2, 4, "上 海"),), (m2(0, 1, "她"), m2(4, 4, "们"))]
    assert report.consistent_sentences == 2
    back = to_document(out, text, tokenizer="char")
    assert back.edits == (hoo(2, 4, "上海"), hoo(9, 10, "她"), hoo(13, 13, "们"))
    assert back.corrected() == "我爱上海天安门。\n她是学生们。"
    # without the text the tokens are joined by spaces (one sentence per line)
    plain = to_document(out, tokenizer="char")
    assert plain.text == "我 爱 北 京 天 安 门 。\n他 是 学 生 。"
    assert plain.corrected() == "我 爱 上海 天 安 门 。\n她 是 学 生 们。"


def test_lines_splitter_one_sentence_per_non_blank_line() -> None:
    text = "first line here\n\n  second one .  \nthird"
    out, report = convert(text, hoo(*span(text, "one"), "two"), tokenizer="space",
                          sentences="lines")
    assert [s.source for s in out] == [("first", "line", "here"), ("second", "one", "."),
                                       ("third",)]
    assert edits_of(out) == [(), (m2(1, 2, "two"),), ()]
    assert report.consistent_sentences == 3


# ---------------------------------------------------------------------------- to_document


def test_to_document_maps_m2_sentences_back_to_hoo_offsets() -> None:
    text = "Thanks for letter it is very very good.\nBye now."
    sentences = [
        sent("Thanks for letter it is very very good .",
             m2(2, 2, "your", type="MD"),        # insertion of a word: "your " before "letter"
             m2(3, 3, ",", type="MP"),           # a comma is glued to the word before
             m2(5, 6, "", type="UY"),            # a deleted word takes the following space
             m2(7, 8, "", required=False),       # ... before punctuation, the preceding one
             ),
        sent("Bye now .", m2(1, 2, "then", "later")),
    ]
    doc = to_document(sentences, text, id="42", meta={"part": "1"})
    assert doc.id == "42" and doc.meta == {"part": "1"} and doc.text == text
    assert doc.edits == (
        hoo(at(text, "letter"), at(text, "letter"), "your ", type="MD"),
        hoo(at(text, " it"), at(text, " it"), ",", type="MP"),
        hoo(*span(text, "very "), None, type="UY"),
        hoo(*span(text, " good"), None, required=False),
        hoo(*span(text, "now"), "then", "later"),
    )
    assert doc.corrected() == "Thanks for your letter, it is very.\nBye then."


def test_to_document_inverts_to_sentences_on_token_boundaries() -> None:
    text = "Thanks for letter. It were fine, they says."
    edits = (hoo(at(text, "letter"), at(text, "letter"), "your ", type="MD"),
             hoo(*span(text, "were"), "was"),
             hoo(*span(text, "says"), "say", "said", required=False),
             hoo(*span(text, "fine"), "good"))
    out, _ = convert(text, *edits)
    back = to_document(out, text, id="d1")
    assert back.edits == edits
    assert back.corrected() == Document(text, edits).corrected()


def test_to_document_deleted_punctuation_takes_no_space() -> None:
    text = "However, it is good."
    doc = to_document([sent("However , it is good .", m2(1, 2, ""))], text)
    assert doc.edits == (hoo(*span(text, ","), None),)


def test_to_document_deleted_spaced_punctuation_leaves_one_space() -> None:
    text = "However , it is good."
    doc = to_document([sent("However , it is good .", m2(1, 2, ""))], text)
    assert doc.corrected() == "However it is good."


def test_to_document_insertion_at_the_end_of_a_sentence() -> None:
    doc = to_document([sent("It is good", m2(3, 3, "."), m2(3, 3, "indeed"))], "It is good")
    assert doc.corrected() == "It is good. indeed"
    assert [(e.start, e.correction) for e in doc.edits] == [(10, (".",)), (10, (" indeed",))]


def test_to_document_without_text_joins_tokens_one_sentence_per_line() -> None:
    sentences = [sent("It were fine .", m2(1, 2, "was")), sent("Bye now .")]
    doc = to_document(sentences)
    assert doc.text == "It were fine .\nBye now ."
    assert doc.edits == (hoo(3, 7, "was"),) and doc.id is None


def test_to_document_other_annotator() -> None:
    s = Sentence(("It", "were", "fine", "."),
                 {0: (m2(1, 2, "was"),), 1: (m2(2, 3, "good", annotator=1),)})
    doc = to_document([s], "It were fine.", annotator=1)
    assert doc.edits == (hoo(8, 12, "good"),)


def test_to_document_token_not_in_text_names_the_sentence_and_token() -> None:
    sentences = [sent("Hello world ."), sent("Bye now .")]
    with pytest.raises(GecFormatError, match=r"sentence 2, token 1 'now'.*document 7"):
        to_document(sentences, "Hello world. Bye then.", id="7")


def test_to_document_text_left_over_is_an_error() -> None:
    with pytest.raises(GecFormatError, match="left over.*Bye then"):
        to_document([sent("Hello world .")], "Hello world. Bye then.")


def test_to_document_edit_outside_the_sentence_is_an_error() -> None:
    with pytest.raises(GecFormatError, match="outside"):
        to_document([sent("Hello world .", m2(2, 5, "x"))], "Hello world.")


def test_rewritten_quotes_and_brackets_match_the_text() -> None:
    text = 'He said "no (really)".'
    doc = to_document([sent("He said `` no -LRB- really -RRB- '' .", m2(3, 4, "yes"))], text)
    assert doc.edits == (hoo(*span(text, "no"), "yes"),)
    text2 = "a [b] {c} \u201cd\u201d"
    doc = to_document([sent("a -LSB- b -RSB- -LCB- c -RCB- `` d ''", m2(5, 6, "x"))], text2)
    assert doc.edits == (hoo(*span(text2, "c"), "x"),)


def test_to_document_insert_word_before_glued_punctuation() -> None:
    text = "I like it, he said."
    doc = to_document([sent("I like it , he said .", m2(3, 3, "a lot"))], text)
    assert doc.corrected() == "I like it a lot, he said."


@pytest.mark.parametrize("tokens, text, start, expected", [
    ("He said no ( really ) .", "He said no (really).", 3, "He said no really)."),
    ('the " big " dog', 'the "big" dog', 1, 'the big" dog'),
    ("costs $ 5 now", "costs $5 now", 1, "costs 5 now"),
])
def test_to_document_deleted_opening_punctuation_takes_no_space(
    tokens: str, text: str, start: int, expected: str
) -> None:
    doc = to_document([sent(tokens, m2(start, start + 1, ""))], text)
    assert doc.corrected() == expected


@pytest.mark.parametrize("tokens, text, expected", [
    ("a b .", "a b.", "."),
    ("a b .", "a b .", "."),
    ("x a b , y", "x a b, y", "x, y"),
    ("x a b y", "x a b y", "x y"),
    ("x a b", "x a b", "x"),
    ("x ( a b ) y", "x (a b) y", "x () y"),
])
def test_to_document_adjacent_deletions_before_punctuation(
    tokens: str, text: str, expected: str
) -> None:
    """Adjacent deletions share the white space between them as one deletion of all their
    tokens would: 'x a b, y' minus 'a' and 'b' is 'x, y', not 'x , y'."""
    i = tokens.split().index("a")
    doc = to_document([sent(tokens, m2(i, i + 1, ""), m2(i + 1, i + 2, ""))], text)
    first, second = doc.edits
    assert first.end <= second.start, doc.edits
    assert doc.corrected() == expected
    one = to_document([sent(tokens, m2(i, i + 2, ""))], text)
    assert one.corrected() == expected  # the same as one deletion of both


def test_to_document_adjacent_deletions_with_an_insertion_between_keep_their_spaces() -> None:
    """Deletions with an insertion between them are not shared out (the insertion takes its
    own space): each keeps to its tokens, nothing overlaps, the text tokenizes right."""
    doc = to_document([sent("x a b , y", m2(1, 2, ""), m2(2, 2, "z"), m2(2, 3, ""))], "x a b, y")
    assert [(e.start, e.end) for e in doc.edits] == [(2, 3), (4, 4), (4, 5)]
    assert doc.corrected().split() == ["x", "z", ",", "y"]


# --------------------------------------------------------------------------- to_documents

THREE = [sent("A b .", m2(1, 2, "c")), sent("C d ."), sent("E f .", m2(0, 0, "x"))]


def test_to_documents_splits_sentences_over_the_texts() -> None:
    docs = list(to_documents(THREE, [("1", "A b. C d.\n"), ("2", "E f.")]))
    assert [(d.id, d.text) for d in docs] == [("1", "A b. C d.\n"), ("2", "E f.")]
    assert docs[0].edits == (hoo(2, 3, "c"),)
    assert docs[1].edits == (hoo(0, 0, "x "),)


def test_to_documents_empty_text_takes_no_sentence() -> None:
    docs = list(to_documents(THREE, [("1", "A b. C d."), ("empty", " \n"), ("2", "E f.")]))
    assert [d.id for d in docs] == ["1", "empty", "2"] and docs[1].edits == ()


def test_to_documents_sentences_left_over() -> None:
    with pytest.raises(GecFormatError, match="sentence 3 and later"):
        list(to_documents(THREE, [("1", "A b. C d.")]))


def test_to_documents_sentences_missing() -> None:
    with pytest.raises(GecFormatError, match="end before document 3"):
        list(to_documents(THREE, [("1", "A b. C d."), ("2", "E f."), ("3", "G h.")]))


def test_to_documents_sentence_does_not_fit() -> None:
    with pytest.raises(GecFormatError, match=r"sentence 2, token 1 'd'.*document 1"):
        list(to_documents(THREE, [("1", "A b. C x. E f.")]))


def test_to_documents_zh_joined() -> None:
    sentences = [sent("我 爱 北京 。", m2(2, 2, "美丽 的"))]
    (doc,) = to_documents(sentences, [("z", "我爱北京。")], tokenizer="zh")
    assert doc.edits == (hoo(2, 2, "美丽的"),)


# ----------------------------------------------------------------------------- detokenize


@pytest.mark.parametrize("tokens, text", [
    ("Hello , world !", "Hello, world!"),
    ("Wait ; what : no ? yes ...", "Wait; what: no? yes..."),
    ("( see Smith , 2010 ) 's", "(see Smith, 2010)'s"),
    ("a [ b ] { c } $ 5 %", "a [b] {c} $5%"),
    ('on " prologues " .', 'on "prologues".'),
    ('" a " b " c "', '"a" b "c"'),
    ("`` hi '' there", "``hi'' there"),
    ("I ca n't go -- it 's John 's .", "I can't go -- it's John's."),
    ("we 're , you 've , they 'll , I 'd , I 'm", "we're, you've, they'll, I'd, I'm"),
    ("", ""),
])
def test_detokenize(tokens: str, text: str) -> None:
    assert detokenize(tokens.split()) == text


def test_detokenize_joined() -> None:
    assert detokenize(["我", "爱", "北京", "。"], joined=True) == "我爱北京。"
    assert detokenize(["a", "b"], joined=True) == "ab"


# ----------------------------------------------------------------------------- the report


def test_report_to_dict_and_summary() -> None:
    text = "Thanks for you letter. It were fine."
    report = ConversionReport()
    out = list(documents_to_sentences(
        [Document(text, (hoo(11, 14, "your"), hoo(0, 2)), id="a"),
         Document("Use paraphrase/nonparaphrase pairs.", (hoo(15, 18, None),), id="b")],
        report=report))
    assert [s.id for s in out] == ["a-1", "a-2", "b-1"]
    data = report.to_dict()
    fields = ["documents", "sentences", "edits", "converted", "widened", "dropped",
              "consistent_sentences"]
    assert list(data)[:7] == fields
    assert {k: data[k] for k in fields} == {
        "documents": 2, "sentences": 3, "edits": 3, "converted": 2, "widened": 1,
        "dropped": 1, "consistent_sentences": 3}
    assert all(type(data[k]) is int for k in fields)
    assert data["tokenizer"].startswith("en:") and data["sentence_splitter"].startswith("punkt:")
    assert data["reasons"]["dropped"] == {"detection-only": 1}
    assert json.loads(json.dumps(data)) == data
    summary = report.summary()
    assert "\n" not in summary
    assert summary == ("2 documents, 3 sentences, 3 edits: 2 converted (1 widened), "
                       "1 dropped; 3/3 sentences consistent")


def test_documents_to_sentences_passes_options() -> None:
    text = "We take this view of it."
    docs = [Document(text, (hoo(17, 17, "set"),), id="x")]
    report = ConversionReport()
    (s,) = documents_to_sentences(docs, report=report, repair_spaces=False)
    assert s.annotators[0] == (m2(3, 4, "viewset"),) and report.repaired_edits == []


def test_report_write_json(tmp_path: Path) -> None:
    _, report = convert("It is good.", hoo(0, 2))
    path = tmp_path / "report.json"
    report.write_json(path)
    assert json.loads(path.read_text(encoding="utf-8")) == report.to_dict()


def test_document_without_id_and_empty_document() -> None:
    report = ConversionReport()
    out = to_sentences(Document("It is good. Yes."), report=report)
    assert [s.id for s in out] == ["1", "2"]
    assert to_sentences(Document("   \n"), report=report) == []
    assert (report.documents, report.sentences) == (2, 2)


# ------------------------------------------------------------------ property: round trip

AVOID = set(PUNKT_ABBREVIATIONS) | {"cannot", "gimme", "gonna", "gotta", "lemme", "wanna"}
WORDS = st.text(string.ascii_lowercase, min_size=2, max_size=6).filter(lambda w: w not in AVOID)
SETUPS = {
    # tokenizer, splitter, "." written as its own word?, between sentences
    "space-lines": ("space", "lines", True, "\n"),
    "en-lines": ("en", "lines", False, "\n"),
    "en-punkt": ("en", "punkt", False, " "),
}


@st.composite
def hoo_documents(
    draw: st.DrawFn, setup: str
) -> tuple[Document, list[list[str]], list[list[Edit]]]:
    """A document of random sentences "w w w." with random whole-word HOO edits, the
    tokens of each sentence and the M2 edits each should become."""
    _, _, spaced, separator = SETUPS[setup]
    text = ""
    edits: list[Edit] = []
    tokens: list[list[str]] = []
    expected: list[list[Edit]] = []
    for k in range(draw(st.integers(1, 3))):
        if k:
            text += separator
        words = draw(st.lists(WORDS, min_size=1, max_size=6))
        starts = []
        for w in words:
            if starts:
                text += " "
            starts.append(len(text))
            text += w
        period = len(text) + (1 if spaced else 0)
        text += " ." if spaced else "."
        ends = [s + len(w) for s, w in zip(starts, words)]
        starts.append(period)  # the "." is token len(words)
        tokens.append([*words, "."])
        sentence_edits: list[Edit] = []
        i = 0
        n = len(words)
        while i < n:
            op = draw(st.sampled_from(["keep", "keep", "replace", "delete", "insert"]))
            if op == "keep":
                i += 1
            elif op == "insert":
                new = draw(st.lists(WORDS, min_size=1, max_size=2))
                edits.append(hoo(starts[i], starts[i], " ".join(new) + " "))
                sentence_edits.append(m2(i, i, " ".join(new)))
                i += 1
            else:
                size = draw(st.integers(1, min(2, n - i)))
                if op == "replace":
                    new = draw(st.lists(WORDS, min_size=1, max_size=2).filter(
                        lambda ws: ws != words[i:i + size]))
                    edits.append(hoo(starts[i], ends[i + size - 1], " ".join(new)))
                    sentence_edits.append(m2(i, i + size, " ".join(new)))
                else:
                    spaced_after = i + size < n or spaced
                    end = starts[i + size] if spaced_after and draw(st.booleans()) else \
                        ends[i + size - 1]
                    edits.append(hoo(starts[i], end, None))
                    sentence_edits.append(m2(i, i + size, ""))
                i += size
        if draw(st.booleans()):  # an insertion before the final "."
            new = " ".join(draw(st.lists(WORDS, min_size=1, max_size=2)))
            if spaced:
                edits.append(hoo(period, period, new + " "))
            else:
                edits.append(hoo(period, period, " " + new))
            sentence_edits.append(m2(n, n, new))
        expected.append(sentence_edits)
    return Document(text, tuple(edits), id="p"), tokens, expected


def sentence_tokens(text: str, tokenizer: str) -> list[tuple[str, ...]]:
    """The tokens of each "...." sentence of a text whose only periods end sentences."""
    tok = get_tokenizer(tokenizer)
    return [tuple(t.text for t in tok.tokenize(piece)) for piece in re.findall(r"[^.]*\.", text)]


@pytest.mark.parametrize("setup", sorted(SETUPS))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_whole_word_edits_survive_the_round_trip(setup: str, data: st.DataObject) -> None:
    tokenizer, splitter, _, _ = SETUPS[setup]
    document, tokens, expected = data.draw(hoo_documents(setup))
    report = ConversionReport()
    out = to_sentences(document, tokenizer, splitter, report)
    check_report(report, len(document.edits), len(out))

    assert [list(s.source) for s in out] == tokens
    assert [list(e) for e in edits_of(out)] == expected
    assert (report.converted, report.widened, report.dropped) == (len(document.edits), 0, 0)
    assert report.consistent_sentences == len(out), report.inconsistent_sentences

    back = to_document(out, document.text, id="p")
    assert back.text == document.text and len(back.edits) == len(document.edits)
    for old, new in zip(document.edits, back.edits):
        assert trimmed(document.text, old.start, old.end) == \
            trimmed(back.text, new.start, new.end), (old, new)
        assert [("".join(c)).split() for c in old.corrections] == \
            [("".join(c)).split() for c in new.corrections], (old, new)
        assert new.required is old.required

    corrected = [s.corrected(0) for s in out]
    assert sentence_tokens(document.corrected(), tokenizer) == corrected
    assert sentence_tokens(back.corrected(), tokenizer) == corrected

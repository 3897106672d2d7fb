from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, shared_file
from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.model import Edit, Sentence, Target
from gecformats.validate import validate

DIALECT_FIXTURES = sorted(p for p in (FIXTURES / "m2").iterdir() if p.is_file())

LOSSLESS_SHARED = [
    "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2",
    "corpora/conll14/conll14st-test-data/noalt/official-2014.0.m2",
    "corpora/conll14/conll14st-test-data/noalt/official-2014.1.m2",
    "corpora/conll14/conll14st-test-data/alt/official-2014.combined-withalt.m2",
    "corpora/conll14/conll13st-test-data/original/data/official-preprocessed.m2",
    "corpora/nlpcc2018/gold.01.m2",
    "corpora/nlpcc2018/cherrant.nlpcc2018_official.ref.m2.char",
    "corpora/nlpcc2018/cherrant.nlpcc2018_official.ref.m2.word",
]


def roundtrip_bytes(path: Path) -> bytes:
    out = io.StringIO()
    m2.write(m2.read(path), out)
    return out.getvalue().encode("utf-8")


# ------------------------------------------------------------------ lossless round trips


@pytest.mark.parametrize("path", DIALECT_FIXTURES, ids=lambda p: p.name)
def test_fixture_roundtrip_is_byte_exact(path: Path) -> None:
    assert roundtrip_bytes(path) == path.read_bytes()


@pytest.mark.parametrize("relative", LOSSLESS_SHARED, ids=lambda r: r.rsplit("/", 1)[-1])
def test_shared_file_roundtrip_is_byte_exact(relative: str) -> None:
    path = shared_file(relative)
    assert roundtrip_bytes(path) == path.read_bytes()


def test_write_to_path_equals_write_to_stream(tmp_path: Path) -> None:
    path = FIXTURES / "m2" / "conll14.m2"
    out = tmp_path / "out.m2"
    report = m2.write(m2.read(path), out)
    assert out.read_bytes() == path.read_bytes()
    assert report.sentences == 6 and report.lossless


# ------------------------------------------------------------------ dialects


def test_conll_noop_and_empty_blocks() -> None:
    sentences = list(m2.read(FIXTURES / "m2" / "conll14.m2"))
    assert len(sentences) == 6
    assert sentences[1].annotators == {0: (), 1: ()}  # two noop lines
    assert sentences[3].annotators == {}  # no A line at all
    deletion = sentences[2].annotators[0][0]
    assert deletion.corrections == ((),) and deletion.get_meta("m2.deletion") is None


def test_nlpcc_none_deletions_and_annotator_one_only() -> None:
    sentences = list(m2.read(FIXTURES / "m2" / "nlpcc.m2"))
    first = sentences[0].annotators[0][0]
    assert first.corrections == ((),) and first.get_meta("m2.deletion") == "-NONE-"
    assert list(sentences[3].annotators) == [1]
    assert sentences[4].annotators[0][0].corrections == (("死", "爱"),)


def test_errant_types_and_multiword_correction() -> None:
    sentences = list(m2.read(FIXTURES / "m2" / "errant.m2"))
    assert sentences[0].annotators[1][1].type == "U:DET"
    assert sentences[2].annotators[0][0].corrections == (("does", "not"),)
    assert sentences[0].corrected(1) == ("I", "have", "apple", "s", ".")


def test_alternatives_optional_and_comment() -> None:
    first, second = m2.read(FIXTURES / "m2" / "alternatives.m2")
    went, on = first.annotators[0]
    assert went.corrections == (("went",), ("has", "gone"))
    assert on.corrections == (("on",), ()) and on.required is False
    assert second.annotators[0][0].comment == "checked by a second annotator"


def test_cherrant_alignments_are_kept_apart() -> None:
    s1, s2, s3 = m2.read(FIXTURES / "m2" / "cherrant.m2.char")
    assert list(s1.targets) == [0, 1]
    assert [t.alignment for t in s2.targets[0]] == [0, 1]
    first, second = s2.targets[0]
    # the annotator's edit list is the first alignment, never the two pooled
    assert s2.annotators[0] == first.edits and len(first.edits) == 2
    assert second.edits[0].start == 3 and second.edits[0].end == 9
    assert first.text.startswith("她 已 经 大 学")
    assert s3.targets[0] == (Target("没有错误", None, ()),) and s3.annotators == {0: ()}


def test_cherrant_first_alignment_only_reports_the_drop() -> None:
    out = io.StringIO()
    report = m2.write(m2.read(FIXTURES / "m2" / "cherrant.m2.char"), out, targets="first")
    assert "T0" not in out.getvalue()
    assert not report.lossless
    (loss,) = report.losses.values()
    assert loss.count == 1 and loss.examples == ["sentence 2"]
    # the result is plain M2 that reads back without targets
    assert all(not s.targets for s in m2.parse(out.getvalue()))


def test_cherrant_split_gives_every_alignment_an_annotator() -> None:
    text = m2.dumps(m2.read(FIXTURES / "m2" / "cherrant.m2.char"), targets="split")
    s1, s2, _ = m2.parse(text)
    assert list(s1.annotators) == [0, 1]
    assert list(s2.annotators) == [0, 1]
    assert s2.annotators[1][0].end == 9


def test_deletion_spelling_option() -> None:
    sentences = list(m2.read(FIXTURES / "m2" / "nlpcc.m2"))
    empty = m2.dumps(sentences, deletion="")
    assert "-NONE-|||REQUIRED|||-NONE-|||0" not in empty
    assert "A 5 6|||R||||||REQUIRED|||-NONE-|||0" in empty
    assert m2.parse(empty) == sentences  # the spelling is presentation only
    with pytest.raises(ValueError):
        m2.dumps(sentences, deletion="<del>")


def test_writer_adds_noop_for_present_annotator_and_sorts_nothing() -> None:
    s = Sentence(("a", "b"), {2: (), 0: (Edit(1, 2, (("c",),), "X", annotator=0),)})
    assert m2.dumps([s]) == (
        "S a b\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2\n"
        "A 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n\n"
    )


def test_empty_source_is_written_so_the_nus_scorer_reads_it() -> None:
    text = m2.dumps([Sentence((), {0: (Edit(0, 0, (("Hi",),), "M"),)})])
    assert text.startswith("S \n")
    assert m2.parse(text)[0].source == ()


def test_source_tokens_split_like_the_nus_scorer() -> None:
    [s] = m2.parse("S a\tb\u3000c  d\u200be\n\n")
    assert s.source == ("a", "b", "c", "d\u200be")  # U+200B is not white space


def test_noop_only_when_the_type_is_exactly_noop() -> None:
    text = "S a b\nA -1 -1| noop |-NONE-|||REQUIRED|||-NONE-|||0\nA 0 1||| noop |||c|||REQUIRED||| x |||0\n\n"
    text = text.replace("| noop |-NONE-", "|||noop|||-NONE-")
    [s] = m2.parse(text)
    assert s.annotators[0][0].type == " noop " and s.annotators[0][0].comment == " x "


def test_double_space_in_correction_survives() -> None:
    text = "S a b\nA 0 1|||X|||c  d|||REQUIRED|||-NONE-|||0\n\n"
    [s] = m2.parse(text)
    assert s.annotators[0][0].corrections == (("c", "", "d"),)
    assert m2.dumps([s]) == text


# ------------------------------------------------------------------ tolerant input

CLEAN = (FIXTURES / "m2" / "conll14.m2").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "messy",
    [
        CLEAN.replace("\n", "\r\n"),
        "\ufeff" + CLEAN,
        CLEAN.replace("\n", "  \n"),
        CLEAN.replace("\n", " \t\n"),
        CLEAN.rstrip("\n"),
        "\n\n" + CLEAN.replace("\n\n", "\n\n\n\n"),
        "\ufeff" + CLEAN.replace("\n", "\r\n").rstrip("\r\n"),
    ],
    ids=["crlf", "bom", "trailing-spaces", "trailing-tab", "no-final-newline", "blank-runs", "all"],
)
def test_messy_input_reads_like_clean(messy: str, tmp_path: Path) -> None:
    path = tmp_path / "messy.m2"
    path.write_bytes(messy.encode("utf-8"))
    assert list(m2.read(path)) == list(m2.parse(CLEAN))
    assert roundtrip_bytes(path).decode("utf-8") == CLEAN  # output is LF, one blank line


def test_gzip_and_text_and_binary_streams(tmp_path: Path) -> None:
    gz = tmp_path / "a.m2.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as fh:
        fh.write(CLEAN)
    expected = m2.parse(CLEAN)
    assert list(m2.read(gz)) == expected
    assert list(m2.read(io.BytesIO(CLEAN.encode()))) == expected
    assert list(m2.read(io.StringIO(CLEAN))) == expected


def test_reading_is_streaming() -> None:
    lines = iter(["S a b", "A 0 1|||X|||c|||REQUIRED|||-NONE-|||0", "", "S broken", "garbage"])

    class Lazy(io.TextIOBase):
        def __iter__(self):  # type: ignore[override]
            return self

        def __next__(self) -> str:
            return next(lines) + "\n"

    reader = m2.read(Lazy())
    first = next(reader)  # the broken second block has not been read yet
    assert first.source == ("a", "b")
    with pytest.raises(GecFormatError):
        next(reader)


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("S a\nA 0 1|||X|||b|||REQUIRED|||-NONE-\n", 2, "annotator"),
        ("S a\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||zero\n", 2, "annotator must be an integer"),
        ("S a\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||+1\n", 2, "annotator must be an integer"),
        ("S a\nA 0|||X|||b|||REQUIRED|||-NONE-|||0\n", 2, "offsets"),
        ("S a\nA 0 ١|||X|||b|||REQUIRED|||-NONE-|||0\n", 2, "offsets"),
        ("S a\nA 0 1|||X|||b|||MAYBE|||-NONE-|||0\n", 2, "REQUIRED or OPTIONAL"),
        ("S a\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||0|||extra\n", 2, "6"),
        ("\nS a\nS b\n", 3, "second 'S' line"),
        ("S a\n\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||0\n", 3, "does not start with an 'S' line"),
        ("S a\nI 0 1\n", 2, "unexpected line"),
        ("S a\nT0-Ax b\n", 2, "malformed target line"),
        ("S a\nT0-A0 b\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||1\n", 3, "differs from the reference"),
    ],
)
def test_malformed_input_names_file_and_line(text: str, line: int, words: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.m2"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GecFormatError) as info:
        list(m2.read(path))
    assert info.value.file == str(path) and info.value.line == line
    assert words in info.value.message
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.m2"
    path.write_bytes(b"S a\n\nS caf\xe9\n\n")
    with pytest.raises(GecFormatError, match=r"latin1.m2:3: not valid UTF-8"):
        list(m2.read(path))


def test_failed_write_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"

    def sentences():
        yield Sentence(("a",))
        raise GecFormatError("boom", "in.m2", 7)

    with pytest.raises(GecFormatError):
        m2.write(sentences(), out)
    assert list(tmp_path.iterdir()) == []


def test_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    out.write_text("old", encoding="utf-8")
    with pytest.raises(GecFormatError):
        m2.write(m2.read(io.StringIO("S a\nA x\n")), out)
    assert out.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.m2"]


# ------------------------------------------------------------------ property-based round trips

TOKEN = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="|"),
    min_size=1,
    max_size=6,
).filter(lambda t: t != "-NONE-" and t.strip() == t and "\ufeff" not in t)
FIELD = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="|"),
    max_size=8,
).map(str.strip).filter(lambda t: t != "noop")


@st.composite
def sentences(draw: st.DrawFn) -> Sentence:
    source = tuple(draw(st.lists(TOKEN, max_size=8)))
    n = len(source)
    annotators: dict[int, tuple[Edit, ...]] = {}
    for annotator in draw(st.lists(st.integers(-3, 40), unique=True, max_size=4)):
        edits = []
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(0, n + 2))
            end = draw(st.integers(start, n + 3))
            alternatives = tuple(
                tuple(draw(st.lists(TOKEN, max_size=3)))
                for _ in range(draw(st.integers(1, 3)))
            )
            edits.append(
                Edit(
                    start,
                    end,
                    alternatives,
                    draw(FIELD),
                    draw(st.booleans()),
                    draw(FIELD),
                    annotator,
                    draw(st.sampled_from([(), (m2.DELETION_META,)])),
                )
            )
        annotators[annotator] = tuple(edits)
    return Sentence(source, annotators)


@settings(max_examples=300, deadline=None)
@given(st.lists(sentences(), max_size=5))
def test_write_then_read_gives_the_same_sentences(generated: list[Sentence]) -> None:
    text = m2.dumps(generated)
    again = m2.parse(text)
    assert again == generated
    assert m2.dumps(again) == text
    # and the deletion spelling of a lone deletion survives per edit
    for before, after in zip(generated, again):
        for e1, e2 in zip(before.edits, after.edits):
            if e1.corrections == ((),):
                assert (m2.DELETION_META in e1.meta) == (m2.DELETION_META in e2.meta)


def test_deletion_among_alternatives_is_spelled_none() -> None:
    s = Sentence(("a",), {0: (Edit(0, 1, ((), ()), "X"), Edit(0, 1, (("b",), ()), "X"))})
    text = m2.dumps([s])
    assert "|||-NONE-||-NONE-|||" in text and "|||b||-NONE-|||" in text
    assert m2.parse(text) == [s]


@pytest.mark.parametrize(
    "sentence",
    [
        Sentence(("a b",)),
        Sentence(("a", "")),
        Sentence(("a\nb",)),
        Sentence(("a\tb",)),
        Sentence(("a\u3000b",)),
        Sentence(("\u3000",)),
        Sentence(("a",), {0: (Edit(0, 1, (("x y",),)),)}),
        Sentence(("a",), {0: (Edit(0, 1, (("|",),)),)}),
        Sentence(("a",), {0: (Edit(0, 1, (("-NONE-",),)),)}),
        Sentence(("a",), {0: (Edit(0, 1, (("b",), ("-NONE-",))),)}),
        Sentence(("a",), {0: (Edit(0, 1, (("\u3000",),)),)}),
        Sentence(("a",), {0: (Edit(0, 1, (("x",),), "T|"),)}),
        Sentence(("a",), {0: (Edit(0, 1, (("x",),), "T", comment="c\r"),)}),
    ],
)
def test_what_m2_cannot_hold_is_refused(sentence: Sentence) -> None:
    with pytest.raises(ValueError):
        m2.dumps([sentence])


WILD_TOKEN = st.lists(
    st.characters(blacklist_categories=("Cs",))
    | st.sampled_from(["\t", " ", "|", "||", "\r", "\x0c", "\u2028", "\u3000", "-NONE-"]),
    min_size=1,
    max_size=4,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(WILD_TOKEN, max_size=4),
    st.lists(st.lists(WILD_TOKEN, max_size=2), min_size=1, max_size=3),
    st.text(max_size=4),
    st.text(max_size=4),
)
def test_writer_round_trips_or_refuses(
    source: list[str], alternatives: list[list[str]], etype: str, comment: str
) -> None:
    edit = Edit(0, 1, tuple(map(tuple, alternatives)), etype, True, comment, 0)
    sentence = Sentence(tuple(source), {0: (edit,)})
    try:
        text = m2.dumps([sentence])
    except ValueError:
        return
    try:
        again = m2.parse(text)
    except GecFormatError:
        again = None
    assert again == [sentence], text


def test_reading_leaves_the_callers_binary_stream_open() -> None:
    import gc

    stream = io.BytesIO(CLEAN.encode("utf-8"))
    assert list(m2.read(stream)) == m2.parse(CLEAN)
    gc.collect()  # a text wrapper that was closed or collected must not close the stream
    assert not stream.closed


# ------------------------------------------------- UA-GEC documents: nothing lost (issue 34)

_NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"


@pytest.mark.parametrize("ids", [["0001", "0002"], ["0001", "0002", "0003", "0004"]])
def test_uagec_documents_without_sentences_round_trip(ids: list[str]) -> None:
    """Fuzz case: ``S # 0002`` followed by nothing (or by another header) was lost in
    M2 → M2 while validate said "no problems"; it is kept where it was."""
    first, *empty = ids
    text = (f"S # {first}\n{_NOOP}\nS a b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n\n"
            + "".join(f"S # {d}\n{_NOOP}\n" for d in empty[:1])
            + (f"S c\n{_NOOP}\n" if len(empty) > 1 else "")
            + "".join(f"S # {d}\n{_NOOP}\n" for d in empty[1:]))
    sentences = m2.parse(text)
    assert m2.dumps(sentences) == text
    for cut in range(len(sentences) + 1):  # written in parts (--shards), the same text
        assert m2.dumps(sentences[:cut]) + m2.dumps(sentences[cut:]) == text


def test_uagec_headers_without_any_sentence_are_refused(tmp_path: Path) -> None:
    text = f"S # 0001\n{_NOOP}\nS # 0002\n{_NOOP}\n"
    with pytest.raises(GecFormatError, match="without any sentence: no document can be kept"):
        m2.parse(text)
    (tmp_path / "h.m2").write_text(text, encoding="utf-8")
    [problem] = list(validate(tmp_path / "h.m2"))
    assert problem.line == 1 and "without any sentence" in problem.message


def test_a_sentence_that_would_read_back_as_a_header_is_refused() -> None:
    """A ``# NNNN`` sentence without an edit in a document (of UA-GEC M2, or of converted
    documents, which get the headers) would read back as a document header: the writer
    refuses it, whatever comes before it (as the parts of --shards do)."""
    looks = Sentence(("#", "0001"), {0: ()}, meta={"document": "0001"})
    for sentences in ([looks], [Sentence(("a",), {0: ()}, meta={"document": "0001",
                                                               "m2.document_header": "0"}),
                                looks]):
        with pytest.raises(ValueError, match="would read back as a UA-GEC document header"):
            m2.dumps(sentences)
    plain = Sentence(("#", "0001"), {0: ()})  # outside documents it stays a sentence
    text = m2.dumps([Sentence(("a",), {0: ()}), plain])
    assert [s.source for s in m2.parse(text)] == [("a",), ("#", "0001")]
    edited = Sentence(("#", "0001"), {0: (Edit(0, 1, (("x",),)),)})
    assert m2.parse(m2.dumps([edited])) == [edited]


@pytest.mark.parametrize("correction, reason", [
    (("x||y",), "'||' between alternative corrections"),
    (("x|",), "would be read as M2's separators"),
    (("-NONE-",), "would read back as a deletion"),
    (("a b",), "a correction token contains a space"),
])
def test_an_unwritable_edit_says_why_and_shows_the_edit(correction, reason):
    from gecformats.formats.m2 import UnwritableEdit, format_edit
    from gecformats.model import Edit

    edit = Edit(1, 2, (correction,), "R", annotator=3)
    with pytest.raises(UnwritableEdit, match=reason) as info:
        format_edit(edit)
    assert info.value.edit is edit and reason in info.value.reason
    assert str(info.value).endswith(f"edit 1 2 -> {' '.join(correction)!r} of annotator 3")
    assert "Edit(" not in str(info.value)

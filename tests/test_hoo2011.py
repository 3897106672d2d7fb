from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import pytest
from lxml import etree

from conftest import FIXTURES, SHARED, shared_file
from gecformats.errors import GecFormatError
from gecformats.formats import _hoo, hoo2011
from gecformats.model import Document, Edit

HOO = FIXTURES / "hoo2011"
GOLD = '<?xml version="1.0" ?>\n<edits>\n{}</edits>\n'


def edit_xml(start: int, end: int, inner: str, **attributes: str) -> str:
    attrs = " ".join(f'{k}="{v}"' for k, v in sorted({"start": str(start), "end": str(end),
                                                       **attributes}.items()))
    return f"  <edit {attrs}>{inner}</edit>\n"


def parse(text: str | bytes, *edits: str, **options: str) -> Document:
    raw = text.encode() if isinstance(text, str) else text
    return hoo2011.parse(raw, GOLD.format("".join(edits)).encode(), **options)


def by_index(document: Document) -> dict[str, Edit]:
    return {e.get_meta("hoo.index"): e for e in document.edits}


# ---------------------------------------------------------------------------- fixtures


def test_fixture_documents_in_id_order_with_char_offsets() -> None:
    docs = list(hoo2011.read(HOO))
    assert [d.id for d in docs] == ["0001", "0002"]
    first = docs[0]
    assert first.text == (HOO / "Raw" / "0001.txt").read_text(encoding="utf-8")
    e = by_index(first)
    # bytes 9-12 are the three-byte dash after the two two-byte "é"
    assert (e["0001-0001"].start, e["0001-0001"].end) == (7, 8)
    assert first.text[7:8] == "\u2013"
    for edit in first.edits:  # every stored original matches but the pretty-printing loss
        stored = edit.get_meta("hoo.original")
        assert stored is None or (edit.get_meta("hoo.index") == "0001-0004"
                                  and stored == "," and first.text[edit.start:edit.end] == " ,")
    assert first.corrected() == (
        "Résumé : a short note\n\nWe present a system that translates sentences, and its output"
        " are evaluated by humans. It works well in the test data.\n\nThe result is shown in Table 1.")


def test_fixture_edit_forms() -> None:
    e = by_index(next(hoo2011.read(HOO)))
    assert e["0001-0003"].corrections == (("translates",), ("can translate",))
    assert e["0001-0003"].get_meta("hoo.cset") == "1" and e["0001-0007"].get_meta("hoo.cset") == "1"
    detection = e["0001-0005"]
    assert detection.corrections == () and detection.required
    assert detection.get_meta("hoo.corrections") == "none"
    optional = e["0001-0006"]
    assert optional.corrections == (("humans",),) and not optional.required
    assert optional.get_meta("hoo.null") == "0"
    assert e["0001-0008"].type == 'RT cset ="2"'
    assert _hoo.repair_type(e["0001-0008"].type) == ("RT", "2")
    assert e["0001-0009"].corrections == ((),)


def test_crlf_gold_reads_like_lf() -> None:
    text = (HOO / "Raw" / "0002.txt").read_bytes()
    crlf = (HOO / "Gold" / "0002GE.xml").read_bytes()
    assert b"\r\n" in crlf
    a = hoo2011.parse(text, crlf, id="0002")
    b = hoo2011.parse(text, crlf.replace(b"\r\n", b"\n"), id="0002")
    assert a == b and [e.meta for e in a.edits] == [e.meta for e in b.edits]
    insertion, often = a.edits[1], a.edits[2]
    assert insertion.start == insertion.end == 40 and insertion.corrections == (("the ",),)
    assert not insertion.required and insertion.get_meta("hoo.null") == "1"
    assert often.get_meta("hoo.null") == "1"


def test_fixture_round_trip_through_dumps_and_write(tmp_path: Path) -> None:
    docs = list(hoo2011.read(HOO))
    for doc in docs:
        again = hoo2011.parse(doc.text.encode(), hoo2011.dumps(doc).encode(), id=doc.id)
        assert again == doc
        for a, b in zip(again.edits, doc.edits):
            assert [m for m in a.meta] == [m for m in b.meta if m[0] != "hoo.original"]
    report = hoo2011.write(docs, tmp_path)
    assert report.sentences == 2 and report.lossless
    assert list(hoo2011.read(tmp_path)) == docs
    assert (tmp_path / "Raw" / "0001.txt").read_bytes() == (HOO / "Raw" / "0001.txt").read_bytes()
    # the output is the file as it was, but for the original written from the offsets
    expected = (HOO / "Gold" / "0001GE.xml").read_text(encoding="utf-8")
    expected = expected.replace("<original>,</original>", "<original> ,</original>")
    assert (tmp_path / "Gold" / "0001GE.xml").read_text(encoding="utf-8") == expected
    lf = (HOO / "Gold" / "0002GE.xml").read_bytes().replace(b"\r\n", b"\n")
    assert (tmp_path / "Gold" / "0002GE.xml").read_bytes() == lf


# ---------------------------------------------------------------------------- reading


def test_repair_type() -> None:
    assert _hoo.repair_type('RT cset ="2"') == ("RT", "2")
    assert _hoo.repair_type('RT cset = "2"') == ("RT", "2")
    assert _hoo.repair_type('CC set="3"') == ("CC", "3")
    assert _hoo.repair_type("MD") == ("MD", None)
    assert _hoo.repair_type("R cset") == ("R cset", None)


def test_corrections_are_kept_verbatim_and_null_positions_recorded() -> None:
    doc = parse("a b c",
                edit_xml(1, 1, "<corrections><correction> x </correction><correction/>"
                         "<correction><empty/></correction></corrections>"
                         "<original><empty/></original>", index="i1", type="MY"))
    [edit] = doc.edits
    assert edit.corrections == ((" x ",), ()) and not edit.required
    assert edit.get_meta("hoo.null") == "1"
    assert hoo2011.parse(b"a b c", hoo2011.dumps(doc).encode()).edits[0].meta == edit.meta


def test_empty_corrections_element_and_only_null() -> None:
    doc = parse("abc", edit_xml(0, 1, "<corrections/><original>a</original>", index="e"),
                edit_xml(1, 2, "<corrections><correction/></corrections><original>b</original>",
                         index="n"))
    empty, null = doc.edits
    assert empty.corrections == () and empty.required and empty.get_meta("hoo.corrections") == "empty"
    assert null.corrections == () and not null.required and null.get_meta("hoo.null") == "0"
    xml = hoo2011.dumps(doc)
    assert "<corrections/>" in xml and "<correction/>" in xml
    assert [e.meta for e in hoo2011.parse(b"abc", xml.encode()).edits] == [e.meta for e in doc.edits]


def test_children_in_any_order_and_original_whitespace_loss() -> None:
    doc = parse("x and y", edit_xml(1, 5, "<original>and</original><corrections><correction>"
                                   "&amp;</correction></corrections>", index="1"))
    [edit] = doc.edits
    assert edit.corrections == (("&",),) and edit.get_meta("hoo.original") == "and"
    assert "<original> and</original>" in hoo2011.dumps(doc)


def test_byte_offset_inside_a_character_is_an_error() -> None:
    with pytest.raises(GecFormatError) as info:
        parse("caf\u00e9 au lait", edit_xml(4, 8, "<original>x</original>", index="d-0007"),
              gold_name="dGE.xml")
    error = info.value
    assert error.file == "dGE.xml" and error.line == 3 and error.kind == "split-character"
    assert "d-0007" in error.message and "inside" in error.message


@pytest.mark.parametrize("start, end, kind", [(3, 2, "offset-out-of-range"),
                                              (0, 99, "offset-out-of-range"),
                                              ("x", 2, "syntax")])
def test_bad_offsets(start: object, end: object, kind: str) -> None:
    with pytest.raises(GecFormatError) as info:
        parse("abcdef", edit_xml(start, end, "<original>x</original>"))  # type: ignore[arg-type]
    assert info.value.kind == kind and info.value.line == 3


def test_unexpected_elements_and_root() -> None:
    with pytest.raises(GecFormatError, match="<edit>"):
        parse("ab", edit_xml(0, 1, "<foo/>"))
    with pytest.raises(GecFormatError, match="both text and <empty/>"):
        parse("ab", edit_xml(0, 1, "<corrections><correction>x<empty/></correction></corrections>"))
    with pytest.raises(GecFormatError, match="not <edits>"):
        hoo2011.parse(b"ab", b"<other/>")
    with pytest.raises(GecFormatError) as info:
        hoo2011.parse(b"ab", b"<edits>\n<edit>\n</edits>", gold_name="g.xml")
    assert info.value.file == "g.xml" and info.value.line == 3


def test_byte_order_mark_is_kept_and_counted() -> None:
    doc = parse(b"\xef\xbb\xbfab cd", edit_xml(6, 8, "<original>cd</original>"))
    assert doc.text == "\ufeffab cd" and doc.text[doc.edits[0].start:doc.edits[0].end] == "cd"
    assert 'start="6"' in hoo2011.dumps(doc)


def test_invalid_utf8_text_names_file_and_line() -> None:
    with pytest.raises(GecFormatError) as info:
        parse(b"ok\nbad \xff\n", text_name="t.txt")
    assert (info.value.file, info.value.line) == ("t.txt", 2)


def test_extra_attributes_round_trip() -> None:
    doc = parse("ab", edit_xml(0, 1, "<original>a</original>", index="1", foo="bar"))
    assert doc.edits[0].get_meta("hoo.attr.foo") == "bar"
    assert 'foo="bar"' in hoo2011.dumps(doc)


# ---------------------------------------------------------------------------- files


def test_read_accepts_text_gold_and_folders(tmp_path: Path) -> None:
    docs = list(hoo2011.read(HOO))
    assert list(hoo2011.read(HOO / "Raw" / "0002.txt")) == [docs[1]]
    assert list(hoo2011.read(HOO / "Gold" / "0002GE.xml")) == [docs[1]]
    assert hoo2011.read_document(HOO / "Raw" / "0001.txt") == docs[0]
    flat = tmp_path / "flat"
    flat.mkdir()
    for path in [*(HOO / "Raw").iterdir(), *(HOO / "Gold").iterdir()]:
        shutil.copy(path, flat)
    assert list(hoo2011.read(flat)) == docs
    assert list(hoo2011.read(flat / "0001.txt")) == [docs[0]]
    assert list(hoo2011.read(flat / "0001GE.xml")) == [docs[0]]
    assert inspect.isgenerator(hoo2011.read(flat))


def test_unpaired_files_are_errors(tmp_path: Path) -> None:
    (tmp_path / "Raw").mkdir()
    (tmp_path / "Gold").mkdir()
    (tmp_path / "Raw" / "0001.txt").write_text("abc")
    with pytest.raises(GecFormatError, match="no gold file 0001GE.xml"):
        list(hoo2011.read(tmp_path))
    with pytest.raises(GecFormatError, match="no gold file"):
        hoo2011.read_document(tmp_path / "Raw" / "0001.txt")
    (tmp_path / "Raw" / "0001.txt").unlink()
    (tmp_path / "Gold" / "0002GE.xml").write_text("<edits/>")
    with pytest.raises(GecFormatError, match="no text file 0002.txt"):
        list(hoo2011.read(tmp_path))
    with pytest.raises(GecFormatError, match="no HOO 2011 files"):
        list(hoo2011.read(tmp_path / "Raw"))
    with pytest.raises(FileNotFoundError):
        list(hoo2011.read(tmp_path / "nothing"))


def test_writer_numbers_documents_and_edits_and_reports_losses(tmp_path: Path) -> None:
    docs = [
        Document("He go home.", (Edit(3, 5, (("goes",),), "AGV"), Edit(6, 6, (("to ",),), "MT",
                                                                         required=False))),
        Document("Fine.", (), breaks=(2,)),
    ]
    report = hoo2011.write(docs, tmp_path, text=False)
    assert report.sentences == 2 and list(report.losses) == ["paragraph breaks"]
    assert not (tmp_path / "Raw").exists()
    xml = (tmp_path / "Gold" / "0001GE.xml").read_text()
    assert 'index="0001-0001"' in xml and 'index="0001-0002"' in xml
    assert "<correction/>\n      <correction>to </correction>" in xml
    assert (tmp_path / "Gold" / "0002GE.xml").read_text() == '<?xml version="1.0" ?>\n<edits/>\n'
    with pytest.raises(ValueError, match="two documents"):
        hoo2011.write([Document("a", id="x"), Document("b", id="x")], tmp_path)
    with pytest.raises(ValueError, match="file name"):
        hoo2011.write([Document("a", id="../x")], tmp_path)


def test_write_leaves_nothing_behind_on_error(tmp_path: Path) -> None:
    def documents():
        yield Document("a", id="1")
        raise GecFormatError("broken input")

    with pytest.raises(GecFormatError):
        hoo2011.write(documents(), tmp_path / "out")
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []


def test_writer_escapes_and_refuses() -> None:
    doc = Document('a "b" & <c>\r', (Edit(0, 12, (('"x" & <y>\r',),), 'T "1"'),), id="e")
    xml = hoo2011.dumps(doc)
    assert '<correction>&quot;x&quot; &amp; &lt;y&gt;&#13;</correction>' in xml
    assert 'type="T &quot;1&quot;"' in xml
    again = hoo2011.parse(doc.text.encode(), xml.encode())
    assert again.edits == doc.edits and again.edits[0].get_meta("hoo.original") is None
    with pytest.raises(ValueError, match="cannot be written"):
        hoo2011.dumps(Document("a\x0cb", (Edit(0, 3, (("x",),)),)))
    with pytest.raises(ValueError, match="does not fit"):
        hoo2011.dumps(Document("ab", (Edit(1, 5, (("x",),)),)))


def test_non_ascii_offsets_are_written_as_bytes() -> None:
    doc = Document("\u00e9t\u00e9 \u2013 x", (Edit(6, 7, (("y",),), "R"),), id="u")
    xml = hoo2011.dumps(doc)
    assert 'end="11" index="u-0001" start="10"' in xml
    assert hoo2011.parse(doc.text.encode(), xml.encode()).edits == doc.edits


# ---------------------------------------------------------------------------- real data


def _real_documents() -> list[tuple[str, Document]]:
    shared_file("corpora/hoo/hoo2011/develop/Gold/0001GE.xml")
    base = SHARED / "corpora" / "hoo" / "hoo2011"
    return [(part, d) for part in ("develop", "test") for d in hoo2011.read(base / part)]


def test_real_data_figures() -> None:
    docs = _real_documents()
    assert len(docs) == 37
    edits = [e for _, d in docs for e in d.edits]
    assert len(edits) == 2281
    assert sum(len(d.edits) for part, d in docs if part == "develop") == 1264
    assert sum(not e.required for e in edits) == 221
    assert sum(e.get_meta("hoo.corrections") == "none" for e in edits) == 28
    mismatches = [(d, e) for _, d in docs for e in d.edits if e.get_meta("hoo.original") is not None]
    assert len(mismatches) == 16
    for d, e in mismatches:
        stored, actual = e.get_meta("hoo.original"), d.text[e.start:e.end]
        assert stored != actual and stored.strip() == actual.strip()
    malformed = {(d.id, e.type) for _, d in docs for e in d.edits
                 if _hoo.repair_type(e.type)[1] is not None}
    assert malformed == {("1005", 'RT cset ="2"'), ("1005", 'RT cset = "2"'),
                         ("1066", 'CC set="3"')}


def _canonical(element: etree._Element, loose_original: bool) -> tuple[object, ...]:
    text = element.text if element.text is not None and element.text.strip() else None
    if element.tag == "original" and loose_original and text is not None:
        text = text.strip()
    return (element.tag, dict(element.attrib), text,
            [_canonical(c, loose_original) for c in element if isinstance(c.tag, str)])


def test_real_data_round_trip() -> None:
    docs = _real_documents()
    base = SHARED / "corpora" / "hoo" / "hoo2011"
    identical = 0
    for part, doc in docs:
        xml = hoo2011.dumps(doc)
        again = hoo2011.parse(doc.text.encode(), xml.encode(), id=doc.id)
        assert again == doc
        for a, b in zip(again.edits, doc.edits):
            assert a.meta == tuple(m for m in b.meta if m[0] != "hoo.original")
        original = (base / part / "Gold" / f"{doc.id}GE.xml").read_bytes()
        lossy = any(e.get_meta("hoo.original") is not None for e in doc.edits)
        assert (_canonical(etree.fromstring(xml.encode()), lossy)
                == _canonical(etree.fromstring(original), lossy))
        identical += xml.encode() == original.replace(b"\r\n", b"\n")
    # byte for byte (but for CRLF) wherever no stored original had lost its edge space
    assert identical == 25


def test_module_examples() -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module("gecformats.formats.hoo2011"))
    assert result.attempted > 0 and result.failed == 0

from __future__ import annotations

import inspect
import shutil
from itertools import groupby
from pathlib import Path

import pytest

from conftest import FIXTURES, SHARED, shared_file
from gecformats.errors import GecFormatError
from gecformats.formats import hoo2012
from gecformats.model import Document, Edit

HOO = FIXTURES / "hoo2012"
SOURCE = (b'<?xml version="1.0" encoding="utf-8"?>\n<HOO version="2.1"><BODY>'
          b'<PART id="1"><P>One two.</P><P>Three.</P></PART><PART id="b"><P>Four.</P></PART>'
          b"</BODY></HOO>")


def gold(*edits: str) -> bytes:
    return ('<edits file="7">' + "".join(edits) + "</edits>").encode()


def edit_xml(start: int, end: int, part: str = "1", original: str = "x",
             corrections: str = "<corrections><correction>y</correction></corrections>") -> str:
    return (f'<edit end="{end}" file="7" index="0001" part="{part}" start="{start}" type="RT">'
            f"<original>{original}</original>{corrections}</edit>")


def scripts(docs: list[Document]) -> list[list[Document]]:
    return [list(g) for _, g in groupby(docs, key=lambda d: d.id)]


# ---------------------------------------------------------------------------- fixtures


def test_fixture_parts_paragraphs_and_offsets() -> None:
    docs = list(hoo2012.read(HOO))
    assert [(d.id, d.meta["hoo2012.part"]) for d in docs] == [("0001", "1"), ("0001", "2"),
                                                               ("0002", "1")]
    one, two, _ = docs
    assert one.text.startswith("Dear Mrs Müller,I am writing for to")
    assert one.breaks == (16, 88) and two.breaks == (46,)
    assert one.meta["hoo2012.version"] == "2.1"
    assert one.meta["hoo2012.head"].startswith('<HEAD sortkey="XX001*0100*2000*01"')
    assert one.meta["hoo2012.head"].endswith("</HEAD>")
    assert two.text[:47] == "In my opinion, the café is best place in town.F"
    assert "cheap & the" in two.text
    # character offsets, after "ü" and "é"
    assert [(e.start, e.end, one.text[e.start:e.end]) for e in one.edits] == [
        (29, 33, "for "), (80, 82, "on"), (88, 88, "")]
    assert one.edits[0].corrections == ((),)
    assert [e.get_meta("hoo.index") for d in docs for e in d.edits] == [
        "0001", "0002", "0003", "0004", "0005", "0001"]
    assert all(e.get_meta("hoo.original") is None for d in docs for e in d.edits)


def test_insertion_at_a_paragraph_boundary() -> None:
    one = next(hoo2012.read(HOO))
    boundary = one.edits[2]
    assert boundary.start == boundary.end == one.breaks[1] == 88
    assert one.text[88:] == "Best wishes."
    assert one.corrected().endswith("in July.With Best wishes.")


def test_fixture_round_trip_is_byte_identical(tmp_path: Path) -> None:
    docs = list(hoo2012.read(HOO))
    for script in scripts(docs):
        id = script[0].id
        assert hoo2012.dumps_source(script) == (HOO / "Raw" / f"{id}.xml").read_text(encoding="utf-8")
        assert hoo2012.dumps_gold(script) == (HOO / "Gold" / f"{id}GE.xml").read_text(encoding="utf-8")
    report = hoo2012.write(docs, tmp_path)
    assert report.sentences == 3 and report.lossless
    assert list(hoo2012.read(tmp_path)) == docs
    for name in ("Raw/0001.xml", "Gold/0001GE.xml", "Raw/0002.xml", "Gold/0002GE.xml"):
        assert (tmp_path / name).read_bytes() == (HOO / name).read_bytes()


def test_read_accepts_source_gold_and_folders(tmp_path: Path) -> None:
    docs = list(hoo2012.read(HOO))
    assert list(hoo2012.read(HOO / "Raw" / "0002.xml")) == docs[2:]
    assert list(hoo2012.read(HOO / "Gold" / "0001GE.xml")) == docs[:2]
    for path in [*(HOO / "Raw").iterdir(), *(HOO / "Gold").iterdir()]:
        shutil.copy(path, tmp_path)
    assert list(hoo2012.read(tmp_path)) == docs
    assert inspect.isgenerator(hoo2012.read(tmp_path))
    (tmp_path / "0002GE.xml").unlink()
    with pytest.raises(GecFormatError, match="no gold file 0002GE.xml"):
        list(hoo2012.read(tmp_path))


# ---------------------------------------------------------------------------- reading


def test_edits_go_to_their_part_in_file_order() -> None:
    docs = hoo2012.parse(SOURCE, gold(edit_xml(0, 4, "b", "Four"), edit_xml(4, 7, "1", "two"),
                                      edit_xml(8, 8, "1", "<empty/>")))
    assert [d.meta["hoo2012.part"] for d in docs] == ["1", "b"]
    assert [(e.start, e.end) for e in docs[0].edits] == [(4, 7), (8, 8)]
    assert [(e.start, e.end) for e in docs[1].edits] == [(0, 4)]
    assert docs[0].id == "7" and docs[0].breaks == (8,) and docs[1].breaks == ()
    assert "hoo2012.head" not in docs[0].meta


@pytest.mark.parametrize("edit, kind, words", [
    (edit_xml(0, 1, "9"), "unknown-part", "part '9' does not exist"),
    (edit_xml(0, 1).replace(' part="1"', ""), "unknown-part", "no part"),
    (edit_xml(0, 15), "offset-out-of-range", "14 characters of part 1"),
    (edit_xml(3, 2), "offset-out-of-range", "starts after it ends"),
])
def test_bad_edits_are_errors(edit: str, kind: str, words: str) -> None:
    with pytest.raises(GecFormatError) as info:
        hoo2012.parse(SOURCE, gold(edit), gold_name="7GE.xml")
    assert info.value.kind == kind and words in info.value.message
    assert info.value.file == "7GE.xml" and info.value.line == 1


def test_edit_spanning_two_paragraphs_is_read() -> None:
    [doc, _] = hoo2012.parse(SOURCE, gold(edit_xml(4, 10, "1", "two.Th")))
    assert (doc.edits[0].start, doc.edits[0].end) == (4, 10)


def test_stored_original_mismatch_and_other_file_are_kept() -> None:
    edit = edit_xml(0, 3).replace('file="7"', 'file="8"')
    [doc, _] = hoo2012.parse(SOURCE, gold(edit))
    assert doc.edits[0].get_meta("hoo.original") == "x"
    assert doc.edits[0].get_meta("hoo.file") == "8"
    assert 'file="8"' in hoo2012.dumps_gold([doc])
    other_root = gold(edit_xml(0, 3, original="One")).replace(b'<edits file="7">', b'<edits file="6">')
    [doc, _] = hoo2012.parse(SOURCE, other_root, id="7")
    assert doc.meta["hoo2012.file"] == "6" and doc.edits[0].get_meta("hoo.file") is None
    assert '<edits file="6">' in hoo2012.dumps_gold([doc])


def test_bad_sources() -> None:
    cases = {
        b"<TEXT/>": "not <HOO>",
        b"<HOO><HEAD/></HOO>": "no <BODY>",
        b"<HOO><BODY><PART><P>a</P></PART></BODY></HOO>": "without an id",
        b'<HOO><BODY><PART id="1"/><PART id="1"/></BODY></HOO>': "second <PART>",
        b'<HOO><BODY><PART id="1"><P>a<b>c</b></P></PART></BODY></HOO>': "<b> in <P>",
        b'<HOO><BODY><PART id="1"><Q/></PART></BODY></HOO>': "<Q> in <PART>",
    }
    for source, words in cases.items():
        with pytest.raises(GecFormatError, match=words):
            hoo2012.parse(source, b"<edits/>", source_name="s.xml")


# ---------------------------------------------------------------------------- writing


def test_writer_groups_parts_into_scripts(tmp_path: Path) -> None:
    docs = [
        Document("A cat.Sat on mat.", (Edit(13, 13, (("the ",),), "MD"),), breaks=(6,)),
        Document("Two", id="x", meta={"hoo2012.part": "1"}),
        Document("Parts", id="x", meta={"hoo2012.part": "2"}),
    ]
    report = hoo2012.write(docs, tmp_path)
    assert report.sentences == 3
    source = (tmp_path / "Raw" / "0001.xml").read_text()
    assert '<PART id="1">\n      <P>A cat.</P>\n      <P>Sat on mat.</P>' in source
    assert "<HEAD" not in source and '<HOO version="2.1">' in source
    gold = (tmp_path / "Gold" / "0001GE.xml").read_text()
    assert '<edits file="0001">' in gold
    assert '<edit end="13" file="0001" index="0001" part="1" start="13" type="MD">' in gold
    assert (tmp_path / "Gold" / "xGE.xml").read_text().endswith('<edits file="x"/>\n')
    back = list(hoo2012.read(tmp_path))
    assert [(d.id, d.text, d.breaks, d.edits) for d in back] == [
        ("0001", "A cat.Sat on mat.", (6,), docs[0].edits), ("x", "Two", (), ()),
        ("x", "Parts", (), ())]


def test_writer_refusals_and_losses(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not consecutive"):
        hoo2012.write([Document("a", id="x"), Document("b", id="y"), Document("c", id="x")],
                      tmp_path)
    with pytest.raises(ValueError, match="same id"):
        hoo2012.dumps_source([Document("a", id="x"),
                              Document("b", id="x", meta={"hoo2012.part": "1"})])
    with pytest.raises(ValueError, match="does not fit"):
        hoo2012.dumps_gold([Document("ab", (Edit(1, 4, (("x",),)),))])
    edit = Edit(0, 1, (("b",),), "R", meta=(("hoo.cset", "1"),))
    report = hoo2012.write([Document("a", (edit,), id="c")], tmp_path, text=False)
    assert list(report.losses) == ["cset groups"]
    assert not (tmp_path / "Raw" / "c.xml").exists()
    with pytest.raises(ValueError):  # nothing of a failed write appears
        hoo2012.write([Document("a", id="d"), Document("b", id="e"), Document("c", id="d")],
                      tmp_path / "new")
    assert not (tmp_path / "new").exists()


def test_optional_and_detection_only_edits_round_trip() -> None:
    edits = (Edit(0, 3, (("One",),), "RD", required=False), Edit(4, 7, (), "RT"))
    [doc] = hoo2012.parse(hoo2012.dumps_source([Document("one two", edits, id="5")]).encode(),
                          hoo2012.dumps_gold([Document("one two", edits, id="5")]).encode())
    assert doc.edits == edits


# ---------------------------------------------------------------------------- real data


def test_real_sample() -> None:
    shared_file("corpora/hoo/hoo2012/train-sample/Gold/0002GE.xml")
    base = SHARED / "corpora" / "hoo" / "hoo2012" / "train-sample"
    docs = list(hoo2012.read(base))
    assert len({d.id for d in docs}) == 20
    edits = [e for d in docs for e in d.edits]
    assert len(edits) == 181
    assert all(e.get_meta("hoo.original") is None for e in edits)  # slice == stored original
    assert all(e.required and len(e.corrections) == 1 for e in edits)
    for script in scripts(docs):
        id = script[0].id
        assert hoo2012.dumps_source(script) == (base / "Raw" / f"{id}.xml").read_text(encoding="utf-8")
        assert hoo2012.dumps_gold(script) == (base / "Gold" / f"{id}GE.xml").read_text(encoding="utf-8")


def test_real_sample_round_trip_through_files(tmp_path: Path) -> None:
    shared_file("corpora/hoo/hoo2012/train-sample/Gold/0002GE.xml")
    docs = list(hoo2012.read(SHARED / "corpora" / "hoo" / "hoo2012" / "train-sample"))
    hoo2012.write(docs, tmp_path)
    again = list(hoo2012.read(tmp_path))
    assert again == docs
    assert [e.meta for d in again for e in d.edits] == [e.meta for d in docs for e in d.edits]


def test_module_examples() -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module("gecformats.formats.hoo2012"))
    assert result.attempted > 0 and result.failed == 0

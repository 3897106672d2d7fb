"""gecformats.formats.fce: CLC FCE XML (inline NS errors, nested) → documents → M2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.errors import GecFormatError
from gecformats.formats import fce, m2

DOC = FIXTURES / "fce" / "doc1.xml"


def test_reads_text_edits_and_nesting():
    doc, = fce.read(DOC)
    assert doc.id == "doc1"
    assert doc.text.split("\n") == [
        "Dear Mrs Ryan,",
        "I am writing for tell you that I have seen your advertisement and I very much "
        "liked the tour.",
        "The hotell were nice but the food was terrible."]
    assert doc.breaks == (15, 109)
    assert doc.meta["fce.nested"] == "1" and doc.meta["fce.sortkey"] == "TR1*0102*2000*01"
    assert [(doc.text[e.start:e.end], e.corrections, e.type) for e in doc.edits] == [
        ("for", (("to",),), "RT"),
        ("have seen", (("saw",),), "TV"),
        ("", ((",",),), "MP"),                       # no <i>: an insertion
        ("very much liked", (("liked very much",),), "W"),
        ("hotell were", (("hotel was",),), "R"),     # the outer error covers the nested S
        ("the", ((),), "UD"),                        # U code without <c>: a deletion
        ("terrible", (), "X"),                       # marked, not corrected: detection only
    ]


def test_to_m2(tmp_path):
    out = tmp_path / "out.m2"
    report = convert(DOC, out, from_format="fce")
    last = list(m2.read(out))[-1]
    assert [(e.start, e.end, e.corrections, e.type) for e in last.annotators[0]] == [
        (1, 3, (("hotel", "was"),), "R"), (5, 6, ((),), "UD")]
    assert [c["reason"] for c in report.conversion.dropped_edits] == ["detection-only"]


def test_folder(tmp_path):
    for name in ("b.xml", "a.xml"):
        (tmp_path / name).write_bytes(DOC.read_bytes())
    assert [d.id for d in fce.read(tmp_path)] == ["a", "b"]


@pytest.mark.parametrize("data, message", [
    (b"<learner><p>unclosed</learner>", "learner"),
    (b"<learner><text>no paragraphs</text></learner>", "no <p>"),
    (b'<!DOCTYPE x [<!ENTITY e "boom">]><learner><p>&e;</p></learner>', "entit"),
])
def test_bad_xml(tmp_path, data, message):
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    with pytest.raises(GecFormatError, match=message):
        list(fce.read(path))


def test_cli(tmp_path):
    result = CliRunner().invoke(app, ["convert", str(DOC), str(tmp_path / "o.m2"), "--from",
                                      "fce"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["convert", str(tmp_path / "o.m2"), str(tmp_path / "x.xml"),
                                      "--to", "fce"])
    assert result.exit_code == 2 and "read only" in result.stderr

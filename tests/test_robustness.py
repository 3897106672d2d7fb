"""Inputs found by fuzzing: each gives a clean GecFormatError (file, line, problem), never a
traceback, a hang or a memory blow-up.  One test per case (issue 13)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import hoo2012, ixml, m2, nlpcc
from gecformats.model import MAX_ANNOTATORS, MAX_DIGITS

HUGE = "9" * 5000

IXML = """<?xml version="1.0" encoding="UTF-8"?>
{doctype}<scripts><script id="1"><sentence id="1" numann="{numann}"><text>a b c</text><error-list>
<error id="1" req="yes" type="X"><alt ann="0"><c {start}end="2">y</c></alt></error>
</error-list></sentence></script></scripts>
"""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("line", [
    f"A {HUGE} 1|||X|||y|||REQUIRED|||-NONE-|||0",
    f"A 0 1|||X|||y|||REQUIRED|||-NONE-|||{HUGE}",
    f"T{HUGE}-A0 a",
])
def test_m2_numbers_over_the_digit_limit(line: str) -> None:
    with pytest.raises(GecFormatError) as info:
        list(m2.parse(f"S a b\n{line}\n"))
    assert info.value.line == 2 and len(str(info.value)) < 300


@pytest.mark.parametrize("annotator", [MAX_ANNOTATORS, 2147483648, -MAX_ANNOTATORS])
def test_m2_annotator_ids_beyond_the_bound(annotator: int) -> None:
    with pytest.raises(GecFormatError, match="out of range") as info:
        list(m2.parse(f"S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||{annotator}\n"))
    assert info.value.kind == "bad-annotator"


def test_m2_annotator_ids_within_the_bound_read() -> None:
    (s,) = m2.parse(f"S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||{MAX_ANNOTATORS - 1}\n")
    assert list(s.annotators) == [MAX_ANNOTATORS - 1]


def test_validate_reports_a_huge_annotator_id(tmp_path: Path) -> None:
    path = tmp_path / "big.m2"
    path.write_text("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||2147483648\n\n")
    code, output = run("validate", str(path))
    assert code == 1 and "bad-annotator" in output


@pytest.mark.parametrize("numann, start", [(HUGE, 'start="1" '), ("1", f'start="{HUGE}" '),
                                           ("2147483648", 'start="1" ')])
def test_ixml_numbers_beyond_bounds(numann: str, start: str) -> None:
    data = IXML.format(doctype="", numann=numann, start=start).encode()
    with pytest.raises(GecFormatError) as info:
        list(ixml.read(data))
    assert len(str(info.value)) < 300


def test_hoo_offset_over_the_digit_limit(tmp_path: Path) -> None:
    corpus = tmp_path / "hoo"
    shutil.copytree(FIXTURES / "hoo2012", corpus, ignore=shutil.ignore_patterns("invalid"))
    gold = corpus / "Gold" / "0001GE.xml"
    gold.write_text(gold.read_text().replace('start="29"', f'start="{HUGE}"', 1))
    with pytest.raises(GecFormatError, match=f"more than {MAX_DIGITS} digits"):
        list(hoo2012.read(corpus))


def test_nlpcc_count_over_the_digit_limit(tmp_path: Path) -> None:
    path = tmp_path / "x.train"
    path.write_text(f"1\t{HUGE}\t他去学校\n")
    with pytest.raises(GecFormatError, match="N \\(field 2\\)") as info:
        list(nlpcc.read(path))
    assert info.value.line == 1 and len(str(info.value)) < 300


# --------------------------------------------------------------------------- XML


def test_dtd_attribute_defaults_are_ignored() -> None:
    doctype = '<!DOCTYPE scripts [\n<!ATTLIST c start CDATA "1">\n]>\n'
    data = IXML.format(doctype=doctype, numann="1", start="").encode()
    with pytest.raises(GecFormatError, match="without start") as info:
        list(ixml.read(data))
    assert info.value.line == 6  # line numbers are kept


def test_dtd_without_defaults_still_reads() -> None:
    doctype = '<!DOCTYPE scripts [\n<!ELEMENT scripts ANY>\n]>\n'
    (s,) = ixml.read(IXML.format(doctype=doctype, numann="1", start='start="1" ').encode())
    assert s.source == ("a", "b", "c")


# --------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("data", [b"\xef", b"\xef\xbb"])
def test_a_truncated_byte_order_mark_is_invalid_utf8(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bom.m2"
    path.write_bytes(data)
    with pytest.raises(GecFormatError, match="not valid UTF-8") as info:
        list(m2.read(path))
    assert info.value.file == str(path) and info.value.line == 1
    code, output = run("validate", str(path))
    assert code != 0 and "not valid UTF-8" in output


def test_a_whole_byte_order_mark_is_still_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.m2"
    path.write_bytes(b"\xef\xbb\xbfS a b\n\n")
    assert [s.source for s in m2.read(path)] == [("a", "b")]


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_broken_gzip_names_the_file(tmp_path: Path, damage: str) -> None:
    whole = gzip.compress(b"S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||0\n\n" * 50)
    path = tmp_path / "gold.m2.gz"
    path.write_bytes(whole[:len(whole) // 2] if damage == "truncated" else b"not gzip at all")
    with pytest.raises(GecFormatError, match="cannot decompress") as info:
        list(m2.read(path))
    assert info.value.file == str(path)
    for command in (["stats", str(path)], ["validate", str(path)],
                    ["convert", str(path), str(tmp_path / "out.m2")]):
        code, output = run(*command)
        assert code != 0 and f"{path}: cannot decompress" in output and "Aborted" not in output
    assert not (tmp_path / "out.m2").exists()

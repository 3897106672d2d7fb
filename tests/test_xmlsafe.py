from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from gecformats.errors import GecFormatError
from gecformats.xmlsafe import PROLOG_WINDOW, check_prolog, iterparse, parse

BOMB = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + b"".join(
        b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
        for i in range(1, 10)
    )
    + b"]>\n<lolz>&lol9;</lolz>\n"
)
XXE_FILE = b'<?xml version="1.0"?>\n<!DOCTYPE foo [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n<foo>&xxe;</foo>'
XXE_NET = b'<!DOCTYPE foo [<!ENTITY xxe SYSTEM "http://example.invalid/x">]><foo>&xxe;</foo>'
EXTERNAL_DTD = b'<!DOCTYPE foo PUBLIC "-//X//EN" "http://example.invalid/x.dtd"><foo/>'
HOSTILE = {"bomb": BOMB, "file": XXE_FILE, "network": XXE_NET, "external-dtd": EXTERNAL_DTD}


@pytest.mark.parametrize("data", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_doctypes_are_refused_quickly(data: bytes) -> None:
    started = time.perf_counter()
    with pytest.raises(GecFormatError) as info:
        parse(data, name="evil.xml")
    assert time.perf_counter() - started < 1.0  # guards against a hang, not a benchmark
    assert info.value.file == "evil.xml" and info.value.line is not None
    assert "DOCTYPE" in info.value.message
    with pytest.raises(GecFormatError):
        list(iterparse(data, "foo"))


def test_refusal_names_the_doctype_line(tmp_path: Path) -> None:
    path = tmp_path / "evil.xml"
    path.write_bytes(XXE_FILE)
    with pytest.raises(GecFormatError) as info:
        parse(path)
    assert (info.value.file, info.value.line) == (str(path), 2)


def test_utf16_doctype_is_refused_too() -> None:
    with pytest.raises(GecFormatError, match="DOCTYPE"):
        parse(XXE_FILE.replace(b'"1.0"', b'"1.0" encoding="utf-16"').decode().encode("utf-16"))


def test_doctype_not_ending_within_the_window_is_refused() -> None:
    data = b"<!DOCTYPE foo [" + b" " * PROLOG_WINDOW + b"]><foo/>"
    with pytest.raises(GecFormatError, match="does not end"):
        check_prolog(data, "big.xml")


def test_plain_doctype_comments_and_entities_that_are_predefined_are_fine() -> None:
    root = parse(b'<?xml version="1.0"?>\n<!-- <!DOCTYPE x SYSTEM "y"> -->\n<!DOCTYPE a>\n'
                 b'<a t="&quot;q&quot;">&lt;&amp;&gt;&#233;&#x263a;</a>')
    assert root.get("t") == '"q"' and root.text == "<&>\u00e9\u263a"


def test_malformed_xml_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(b"<edits>\n  <edit>\n  </edits>\n")
    with pytest.raises(GecFormatError) as info:
        parse(path)
    assert info.value.file == str(path) and info.value.line == 3 and info.value.kind == "syntax"
    with pytest.raises(GecFormatError) as info:
        parse(b"")
    assert info.value.file == "<string>" and info.value.line == 1


def test_size_limit() -> None:
    with pytest.raises(GecFormatError, match="larger than 10 bytes"):
        parse(b"<a>0123456789</a>", max_bytes=10)
    assert parse(b"<a>01</a>", max_bytes=10).text == "01"


def test_iterparse_streams_and_clears(tmp_path: Path) -> None:
    path = tmp_path / "many.xml"
    with open(path, "wb") as fh:
        fh.write(b'<?xml version="1.0"?>\n<doc>\n')
        for i in range(2000):
            fh.write(b'  <s id="%d"><w>a&amp;b</w><w>%d</w></s>\n' % (i, i))
        fh.write(b"</doc>\n")
    seen = []
    for element in iterparse(path, "s"):
        seen.append((element.get("id"), [w.text for w in element]))
        # the elements before have been removed but for the last one, which is cleared
        # (the parser reads ahead, so some later siblings may already be there)
        previous = element.getprevious()
        assert previous is None or (len(previous) == 0 and previous.getprevious() is None)
        assert len(element.getparent()) < 2000
    assert len(seen) == 2000 and seen[5] == ("5", ["a&b", "5"])


def test_iterparse_from_bytes_and_open_file_with_syntax_error() -> None:
    data = b"<doc><s>1</s>\n<s>2</s>\n<s>3</t></doc>"
    got = []
    with pytest.raises(GecFormatError) as info:
        for element in iterparse(io.BytesIO(data), "s", name="f.xml"):
            got.append(element.text)
    assert got == ["1", "2"] and info.value.file == "f.xml" and info.value.line == 3
    assert [e.text for e in iterparse(b"<d><s>x</s><s>y</s></d>", "s")] == ["x", "y"]


def test_module_examples() -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module("gecformats.xmlsafe"))
    assert result.attempted > 0 and result.failed == 0


# ------------------------------------------------------------ linear time (issue 22)

PROLOG = b"<?x?>\n" * 10_000
"""10,000 processing instructions and no DOCTYPE: the internal-subset pattern backtracked
over them in exponential time (26 lines took 10 s)."""


def _timed(call) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    try:
        call()
    except GecFormatError:
        pass
    return time.perf_counter() - started


@pytest.mark.parametrize("prolog", [PROLOG, b"<!--x-->\n" * 10_000, b"<?x?> <!--y-->\t" * 10_000,
                                    b"<?x?>\n" * 10_000 + b"<!DOCTYPE a [" + b"] " * 10_000,
                                    b"<?x" * 30_000, b"<!--" * 30_000])
def test_the_prolog_scan_is_linear(prolog: bytes) -> None:
    data = prolog + b"<scripts/>"
    assert _timed(lambda: parse(data)) < 1.0
    assert _timed(lambda: list(iterparse(data, "scripts"))) < 1.0


def test_the_internal_subset_is_still_found_after_comments_and_instructions() -> None:
    root = parse(b'\xef\xbb\xbf<?xml version="1.0"?>\n<!-- c -->\n<?p x?>\n'
                 b'<!DOCTYPE c [\n<!ATTLIST c start CDATA "1">\n]>\n<c/>')
    assert root.get("start") is None


@pytest.mark.parametrize("reader", ["ixml", "hoo2011", "hoo2012-source", "hoo2012-gold", "fce",
                                    "imeasure-gold"])
def test_every_xml_reader_reads_many_processing_instructions_in_linear_time(
        tmp_path: Path, reader: str) -> None:
    """The issue's input, ``'<?x?>\\n' * N + '<scripts/>'``, with N = 10,000, to every reader."""
    from gecformats.formats import fce, hoo2011, hoo2012, ixml

    hoo_source = b'<HOO version="2.1"><BODY><PART id="1"><P>Hello.</P></PART></BODY></HOO>'
    calls = {
        "ixml": lambda: list(ixml.read(io.BytesIO(PROLOG + b"<scripts/>"))),
        "hoo2011": lambda: hoo2011.parse(b"Hello.", PROLOG + b"<edits/>"),
        "hoo2012-source": lambda: hoo2012.parse(PROLOG + hoo_source, b"<HOO><edits/></HOO>"),
        "hoo2012-gold": lambda: hoo2012.parse(hoo_source, PROLOG + b"<HOO><edits/></HOO>"),
        "fce": lambda: list(fce.parse(PROLOG + b"<learner><p>Hi.</p></learner>", "x.xml")),
    }
    if reader == "imeasure-gold":
        from typer.testing import CliRunner

        from gecformats.cli import app

        from conftest import FIXTURES

        original = (FIXTURES / "imeasure" / "gold.xml").read_bytes()
        gold = tmp_path / "gold.xml"
        gold.write_bytes(PROLOG + original[original.index(b"?>") + 2:])
        hyp = FIXTURES / "imeasure" / "sys.txt"
        result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(gold)])
        plain = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold",
                                         str(FIXTURES / "imeasure" / "gold.xml")])
        assert result.exit_code == 0
        assert result.stdout.replace(str(gold), "G") == plain.stdout.replace(
            str(FIXTURES / "imeasure" / "gold.xml"), "G")
        calls[reader] = lambda: CliRunner().invoke(
            app, ["imeasure", str(hyp), "--gold", str(gold), "--gold-format", "ixml"])
    assert _timed(calls[reader]) < 1.0

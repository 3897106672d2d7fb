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

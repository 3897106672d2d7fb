"""Parsing untrusted XML with lxml without the classic XML attacks.

HOO gold files, HOO 2012 sources and locus XML come from elsewhere, so every XML reader of
gecformats goes through this module.  It refuses, before parsing, any document whose
``DOCTYPE`` declares entities or names an external DTD (``<!ENTITY``, ``SYSTEM``,
``PUBLIC``): that shuts out entity-expansion bombs ("billion laughs"), external entities
that read local files (``file:///etc/passwd``) and network look-ups.  The parser itself never
substitutes entities, never loads a DTD, never touches the network and keeps libxml2's size
limits (``huge_tree=False``); after parsing, the document's ``docinfo`` is checked again.

A plain ``<!DOCTYPE root>`` is accepted.  Predefined entities (``&quot;``, ``&amp;`` ...)
and character references (``&#233;``) work as usual.

>>> parse(b'<a t="&quot;x&quot;">caf&#233; &amp; co</a>').text
'café & co'
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from typing import IO, Union

from lxml import etree

from gecformats.errors import GecFormatError

MAX_BYTES = 64 * 1024 * 1024
"""The largest document :func:`parse` reads (64 MiB)."""

PROLOG_WINDOW = 1024 * 1024
"""How many bytes at the start of a document are scanned for a ``DOCTYPE`` (1 MiB).

A ``DOCTYPE`` that does not end within this window is refused."""

XmlSource = Union[str, "os.PathLike[str]", bytes]
"""What :func:`parse` accepts: a path or the document's bytes."""

_MISC = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->)*", re.S)
_SUBSET_END = re.compile(r"\]\s*>")
_FORBIDDEN = ("<!ENTITY", "SYSTEM", "PUBLIC")


SAFE_OPTIONS: dict[str, bool] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "dtd_validation": False,
    "huge_tree": False,
    "remove_comments": False,
}
"""The settings of every parser here: no entity substitution, no DTD loading or
validation, no network, libxml2's size limits on (``huge_tree=False``), comments kept."""


def parser() -> etree.XMLParser:
    """A new lxml parser with the safe settings (:data:`SAFE_OPTIONS`)."""
    return etree.XMLParser(**SAFE_OPTIONS)


def parse(source: XmlSource, *, name: str | None = None, max_bytes: int = MAX_BYTES) -> etree._Element:
    """Parse one XML document safely and return its root element.

    Args:
        source: a path, or the document as bytes.
        name: the name used in error messages (default: the path, or ``<string>``).
        max_bytes: the largest document accepted, in bytes.

    Returns:
        The root element (``root.getroottree()`` gives the document; every element has its
        ``sourceline``).

    Raises:
        GecFormatError: the document is larger than ``max_bytes``, has a ``DOCTYPE`` that
            declares entities or names an external DTD, or is not well-formed XML (kind
            ``syntax``; file and line are named).
        OSError: the file cannot be opened or read.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = "<string>" if name is None else name
    else:
        name = os.fspath(source) if name is None else name
        with open(source, "rb") as fh:
            data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise GecFormatError(f"the document is larger than {max_bytes} bytes", name)
    check_prolog(data, name)
    data = ignore_internal_subset(data[:PROLOG_WINDOW], name) + data[PROLOG_WINDOW:]
    try:
        root = etree.fromstring(data, parser())
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, name) from None
    _check_docinfo(root, name)
    return root


def iterparse(
    source: str | os.PathLike[str] | bytes | IO[bytes], tag: str, *, name: str | None = None
) -> Iterator[etree._Element]:
    """Stream the elements named ``tag`` of a large document, safely, in constant memory.

    Each element is yielded when its end tag has been read (it is complete, with its
    children).  Once the consumer asks for the next one, the element is cleared and the
    processed elements before it are removed from the tree, so memory stays bounded however
    long the document is: do not keep references to yielded elements, copy what you need.

    Args:
        source: a path, the document's bytes, or an open binary file (not closed here).
        tag: the element name to yield (``"sentence"``; lxml's ``{ns}name`` for namespaces).
        name: the name used in error messages.

    Yields:
        The complete elements named ``tag``, in document order.

    Raises:
        GecFormatError: a ``DOCTYPE`` that declares entities or names an external DTD, or a
            syntax error (with file and line); raised when the iteration reaches it.
        OSError: the file cannot be opened or read.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        fh: IO[bytes] = io.BytesIO(bytes(source))
        name = "<string>" if name is None else name
        close = False
    elif isinstance(source, (str, os.PathLike)):
        name = os.fspath(source) if name is None else name
        fh = open(source, "rb")
        close = True
    else:
        fh = source
        name = str(getattr(source, "name", "<stream>")) if name is None else name
        close = False
    try:
        head = fh.read(PROLOG_WINDOW)
        check_prolog(head, name, complete=len(head) < PROLOG_WINDOW)
        head = ignore_internal_subset(head, name)
        context = etree.iterparse(
            _Prefixed(head, fh),
            events=("end",),
            tag=tag,
            **SAFE_OPTIONS,
        )
        checked = False
        while True:
            try:
                _event, element = next(context)
            except StopIteration:
                break
            except etree.XMLSyntaxError as exc:
                raise _syntax_error(exc, name) from None
            if not checked:
                _check_docinfo(element, name)
                checked = True
            yield element
            element.clear(keep_tail=True)
            parent = element.getparent()
            if parent is not None:
                while element.getprevious() is not None:
                    del parent[0]
    finally:
        if close:
            fh.close()


class _Prefixed:
    """A binary file whose first bytes were already read into ``head``."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = head
        self._rest = rest

    def read(self, size: int = -1) -> bytes:
        if self._head:
            if size is None or size < 0:
                out, self._head = self._head + self._rest.read(), b""
                return out
            out, self._head = self._head[:size], self._head[size:]
            return out
        return self._rest.read(size)


def check_prolog(data: bytes, name: str | None = None, *, complete: bool = True) -> None:
    """Refuse a document whose ``DOCTYPE`` declares entities or names an external DTD.

    Only the prolog is looked at (the XML declaration, comments, processing instructions and
    the ``DOCTYPE``), in the first :data:`PROLOG_WINDOW` bytes, decoded by the byte-order
    mark or the first bytes (UTF-8, UTF-16 or UTF-32).  A plain ``<!DOCTYPE root>`` passes.

    Args:
        data: the document's first bytes (or all of it).
        name: the file name for the error.
        complete: ``data`` is the whole document (an unterminated ``DOCTYPE`` is then left
            to the parser to report).

    Raises:
        GecFormatError: a forbidden ``DOCTYPE`` (file and line of the ``DOCTYPE``), or one
            that does not end within the window.
    """
    text = _decode_window(data[:PROLOG_WINDOW])
    pos = _MISC.match(text).end()  # type: ignore[union-attr]
    if not text.startswith("<!DOCTYPE", pos):
        return
    line = text.count("\n", 0, pos) + 1
    bracket = text.find("[", pos)
    close = text.find(">", pos)
    if close >= 0 and (bracket < 0 or close < bracket):
        end = close
    else:
        match = _SUBSET_END.search(text, bracket) if bracket >= 0 else None
        if match is None:
            if complete and len(data) < PROLOG_WINDOW:
                end = len(text)
            else:
                raise GecFormatError(
                    f"refusing a DOCTYPE that does not end within its first {PROLOG_WINDOW} bytes",
                    name, line,
                )
        else:
            end = match.end()
    doctype = text[pos:end]
    found = [word for word in _FORBIDDEN if word in doctype]
    if found:
        raise GecFormatError(
            f"refusing a DOCTYPE that declares entities or an external DTD ({', '.join(found)}); "
            "XML with entity declarations is not read, for safety",
            name, line,
        )


_SUBSET_END_BYTES = re.compile(rb"\]\s*>")


def _internal_subset(head: bytes) -> tuple[int, int] | None:
    """Where the internal subset of the ``DOCTYPE`` opening ``head`` lies (between ``[`` and
    the ``]`` of ``]>``), if there is one; UTF-8 or ASCII bytes.

    A scan, not one regular expression: the prolog's comments and processing instructions
    are skipped one after the other, each by a search for its end, so the time is linear in
    ``head`` whatever it holds (a pattern that could backtrack into them took exponential
    time on ``<?x?>`` lines without a ``DOCTYPE``)."""
    pos = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    size = len(head)
    while pos < size:
        if head[pos] in b" \t\r\n\x0b\x0c":
            pos += 1
        elif head.startswith(b"<?", pos):
            end = head.find(b"?>", pos + 2)
            if end < 0:
                return None
            pos = end + 2
        elif head.startswith(b"<!--", pos):
            end = head.find(b"-->", pos + 4)
            if end < 0:
                return None
            pos = end + 3
        else:
            break
    if not head.startswith(b"<!DOCTYPE", pos):
        return None
    bracket = head.find(b"[", pos)
    close = head.find(b">", pos)
    if bracket < 0 or (0 <= close < bracket):
        return None
    end = _SUBSET_END_BYTES.search(head, bracket + 1)
    return None if end is None else (bracket + 1, end.start())


def ignore_internal_subset(head: bytes, name: str | None = None) -> bytes:
    """``head`` with the DOCTYPE's internal subset blanked out (line breaks kept).

    libxml2 applies attribute defaults declared in an internal subset
    (``<!ATTLIST c start CDATA "1">``) whenever an attribute is looked up, so a missing
    attribute would silently get the DTD's value.  Data formats have no DTD: its
    declarations are ignored.  :func:`check_prolog` has already refused entities and
    external DTDs.  Linear time in ``head``.

    Raises:
        GecFormatError: an internal subset with declarations in a UTF-16 or UTF-32
            document (not blanked here: refused).
    """
    span = _internal_subset(head)
    if span is None:
        if "<!ATTLIST" in _decode_window(head[:PROLOG_WINDOW]):
            raise GecFormatError("refusing a DOCTYPE with attribute declarations in a document "
                                 "that is not UTF-8", name, 1)
        return head
    start, end = span
    blank = bytes(b if b == 0x0A else 0x20 for b in head[start:end])
    return head[:start] + blank + head[end:]


def _decode_window(data: bytes) -> str:
    """The bytes decoded well enough to find ASCII markup (encoding by BOM or first bytes)."""
    boms = (
        (b"\xef\xbb\xbf", "utf-8"),
        (b"\xff\xfe\x00\x00", "utf-32-le"),
        (b"\x00\x00\xfe\xff", "utf-32-be"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\xfe\xff", "utf-16-be"),
    )
    for bom, encoding in boms:
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, "replace")
    first = data[:4]
    for pattern, encoding in (
        (b"<\x00\x00\x00", "utf-32-le"),
        (b"\x00\x00\x00<", "utf-32-be"),
        (b"<\x00?\x00", "utf-16-le"),
        (b"\x00<\x00?", "utf-16-be"),
        (b"<\x00!\x00", "utf-16-le"),
        (b"\x00<\x00!", "utf-16-be"),
    ):
        if first.startswith(pattern):
            return data.decode(encoding, "replace")
    return data.decode("latin-1")


def _check_docinfo(element: etree._Element, name: str | None) -> None:
    """The second line of defence: the parsed document declares no entity and no
    external DTD."""
    info = element.getroottree().docinfo
    internal = info.internalDTD
    entities = list(internal.iterentities()) if internal is not None else []
    if entities or info.system_url or info.public_id or info.externalDTD is not None:
        raise GecFormatError(
            "refusing a DOCTYPE that declares entities or an external DTD; "
            "XML with entity declarations is not read, for safety",
            name, 1,
        )


def _syntax_error(exc: etree.XMLSyntaxError, name: str | None) -> GecFormatError:
    message = (exc.msg or str(exc)).strip()
    # libxml2 appends ", line L, column C" (after a line break for some errors): the line is
    # given as ours, and the column of a CRLF file is not its LF twin's
    message = re.sub(r"[\s,]*line \d+, col(umn)? \d+$", "", message)
    if "XML_PARSE_HUGE" in message or "Huge input lookup" in message:
        message = (f"a text or name longer than the XML parser's limit of "
                   f"{HUGE_TEXT:,} characters ({message})")
    return GecFormatError(f"not well-formed XML: {message}", name, exc.lineno or None)


HUGE_TEXT = 10_000_000
"""libxml2's limit on one text node or name without its huge-tree option (which the
readers never set: it would lift the safety limits too)."""

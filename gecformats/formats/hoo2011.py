"""HOO 2011: plain-text fragments with stand-off gold edit XML; reader and writer.

A HOO 2011 document is two files, distributed as ``Raw/nnnn.txt`` (the text, UTF-8) and
``Gold/nnnnGE.xml`` (its edits)::

    <?xml version="1.0" ?>
    <edits>
      <edit cset="1" end="329" index="0001-0002" start="322" type="RN">
        <corrections>
          <correction>output</correction>
          <correction>results</correction>
        </corrections>
        <original>outcome</original>
      </edit>
    </edits>

Each pair becomes a :class:`~gecformats.model.Document`: ``id`` is the file id (``"0001"``),
``text`` the decoded text exactly as stored (no newline normalisation; a UTF-8 byte-order
mark, if any, is kept as ``"\\ufeff"`` at ``text[0]`` so that offsets still count it, as the
HOO tools counted bytes), and the edits use **character** offsets into ``text``.  The file's
offsets are UTF-8 byte offsets; the reader maps them through a byte→character table built
once per document, and the writer maps them back.

An edit's corrections: ``<correction>text</correction>`` → ``("text",)`` (kept verbatim,
edge white space included); ``<correction><empty/></correction>`` → ``()`` (a deletion); the
null correction ``<correction/>`` is no correction but makes the edit optional
(``required=False``); an edit without ``<corrections>`` is detection only
(``corrections == ()``).  ``type`` is the raw attribute, malformed values included
(:func:`repair_type` offers a repair).

``Edit.meta`` keeps what writing back needs (:data:`META_KEYS`):

``hoo.index``, ``hoo.cset``
    the attributes, when present;
``hoo.null``
    the position(s) among the ``<correction>`` children of the null correction
    (``"0"``; several are comma-separated);
``hoo.corrections``
    ``"none"`` when the edit had no ``<corrections>`` element, ``"empty"`` for an empty one;
``hoo.original``
    the stored ``<original>`` text, only when it differs from the text at the offsets (the
    pretty-printing losses of the 2011 data: the writer writes the text at the offsets);
``hoo.attr.NAME``
    any other ``<edit>`` attribute.

``<original><empty/></original>`` marks an insertion (its own text is indentation).

>>> doc = parse("Caf\\u00e9 is open , yes.".encode(), b'''<edits>
...   <edit end="14" index="x-0001" start="13" type="UP"><corrections>
...     <correction><empty/></correction></corrections><original> </original></edit>
... </edits>''', id="x")
>>> doc.edits[0]
Edit(start=12, end=13, corrections=((),), type='UP', required=True, comment='-NONE-', annotator=0)
>>> doc.corrected()
'Café is open, yes.'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import replace as dc_replace
from pathlib import Path

from lxml import etree

from gecformats import xmlsafe
from gecformats.errors import GecFormatError
from gecformats.formats._hoo import (GOLD_SUFFIX, EditMeta, check_id, companion, strip_suffix, corrections_xml,
                                     extra_attributes, format_attributes, offset_attribute,
                                     original_xml, pair_files, read_children, read_limited,
                                     report_edit_losses)
from gecformats.io import atomic_directory, atomic_output, decode_utf8
from gecformats.model import Document, Edit, make_edit
from gecformats.report import Report

NAME = "hoo2011"
UNIT = "char"
SUFFIXES: tuple[str, ...] = ()
"""No suffix inference: ``.txt`` and ``.xml`` are shared with other formats."""

TEXT_SUFFIX = ".txt"

_KNOWN_ATTRIBUTES = frozenset({"start", "end", "index", "cset", "type"})

META_KEYS = ("hoo.index", "hoo.cset", "hoo.null", "hoo.corrections", "hoo.original")
"""The ``Edit.meta`` keys this module reads and writes (plus ``hoo.attr.NAME``)."""


# --------------------------------------------------------------------------------------
# reading


def parse(
    text: bytes,
    gold: bytes,
    *,
    id: str | None = None,
    text_name: str | None = None,
    gold_name: str | None = None,
) -> Document:
    """Parse one HOO 2011 document from the bytes of its text and gold files.

    Args:
        text: the text file's bytes (UTF-8; CRLF line ends are read as LF, as in the gold
            XML, so offsets count one byte per line end; a lone CR is kept).
        gold: the gold edit XML's bytes.
        id: the document id (``"1005"``).
        text_name, gold_name: the file names for error messages.

    Returns:
        The document, edits in file order with character offsets.

    Raises:
        GecFormatError: the text is not UTF-8 or larger than :data:`xmlsafe.MAX_BYTES`,
            the XML is unsafe or malformed, an element or
            attribute is wrong, or an offset is out of range or inside a multi-byte
            character (file, line and edit index are named).
    """
    document, _lines = parse_checked(text, gold, None, id=id, text_name=text_name,
                                     gold_name=gold_name)
    return document


def parse_checked(
    text: bytes,
    gold: bytes,
    problems: list[GecFormatError] | None,
    *,
    id: str | None = None,
    text_name: str | None = None,
    gold_name: str | None = None,
) -> tuple[Document, list[int]]:
    """Parse like :func:`parse`, but record faulty edits instead of stopping at the first.

    Args:
        problems: where edit-level errors go (the edit is then left out); ``None`` raises
            them.  Errors of the whole file (XML syntax, undecodable text) are always raised.

    Returns:
        ``(document, lines)``: the document and the source line of each of its edits.
    """
    gold_name = gold_name or "<gold>"
    if len(text) > xmlsafe.MAX_BYTES:
        raise GecFormatError(f"the text is larger than {xmlsafe.MAX_BYTES} bytes",
                             text_name or "<text>", None, "too-large")
    # CRLF reads as LF, as the XML parser reads the gold's: a CRLF copy of a document reads
    # as the document (offsets count one byte per line end).  A lone CR stays a character
    # (one byte either way, and the writer keeps it: a text holding one round-trips)
    text = text.replace(b"\r\n", b"\n")
    decoded = decode_text(text, text_name or "<text>")
    to_char = _byte_to_char(decoded, len(text))
    root = xmlsafe.parse(gold, name=gold_name)
    if root.tag != "edits":
        raise GecFormatError(f"the root element is <{root.tag}>, not <edits>", gold_name,
                             root.sourceline)
    edits: list[Edit] = []
    lines: list[int] = []
    number = 0
    for element in root:
        if not isinstance(element.tag, str):  # a comment or processing instruction
            continue
        number += 1
        line = element.sourceline
        try:
            if element.tag != "edit":
                raise GecFormatError(f"unexpected element <{element.tag}> in <edits>")
            edit = _read_edit(element, decoded, to_char, len(text))
        except GecFormatError as exc:
            index = element.get("index")
            what = f"edit {number}" + (f" ({index})" if index else "")
            error = GecFormatError(f"{what}: {exc.message}", gold_name, line, exc.kind)
            if problems is None:
                raise error from None
            problems.append(error)
            continue
        edits.append(edit)
        lines.append(line)
    return Document(decoded, tuple(edits), id, (), {}), lines


def decode_text(data: bytes, name: str) -> str:
    """Decode a text file's bytes as strict UTF-8, keeping everything (a BOM included).

    Raises:
        GecFormatError: invalid UTF-8 (the file and line are named).
    """
    return decode_utf8(data, name)


def _byte_to_char(text: str, nbytes: int) -> list[int] | None:
    """Byte offset → character offset (-1 inside a character); ``None`` when they are equal."""
    if len(text) == nbytes:
        return None
    table = [-1] * (nbytes + 1)
    b = 0
    for i, ch in enumerate(text):
        table[b] = i
        o = ord(ch)
        b += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    table[b] = len(text)
    return table


def _read_edit(element: etree._Element, text: str, to_char: list[int] | None, nbytes: int) -> Edit:
    attrib = element.attrib
    start = offset_attribute(attrib.get("start"), "start")
    end = offset_attribute(attrib.get("end"), "end")
    if start > end or end > nbytes:
        why = "starts after it ends" if start > end else f"ends after the text's {nbytes} bytes"
        raise GecFormatError(f"the span {start}-{end} (bytes) {why}", kind="offset-out-of-range")
    if to_char is not None:
        cstart, cend = to_char[start], to_char[end]
        if cstart < 0 or cend < 0:
            bad = start if cstart < 0 else end
            raise GecFormatError(
                f"byte offset {bad} falls inside the multi-byte character "
                f"{text[_char_at(to_char, bad)]!r}", kind="split-character")
        start, end = cstart, cend
    meta: EditMeta = []
    extras: EditMeta = []
    for key, value in attrib.items():
        if key == "index":
            meta.append(("hoo.index", value))
        elif key == "cset":
            meta.append(("hoo.cset", value))
        elif key not in _KNOWN_ATTRIBUTES:
            extras.append((f"hoo.attr.{key}", value))
    corrections, required, stored = read_children(element, meta)
    if stored is not None and stored != text[start:end]:
        meta.append(("hoo.original", stored))
    meta.extend(extras)
    return make_edit(start, end, corrections, attrib.get("type", ""), required, "-NONE-", 0,
                     tuple(meta))


def _char_at(to_char: list[int], byte: int) -> int:
    while to_char[byte] < 0:
        byte -= 1
    return to_char[byte]


# --------------------------------------------------------------------------------------
# files


def read_document(
    text_path: str | os.PathLike[str], gold_path: str | os.PathLike[str] | None = None
) -> Document:
    """Read one document from its text file and its gold file.

    Args:
        text_path: ``nnnn.txt``.
        gold_path: ``nnnnGE.xml``; by default looked for beside the text, then in the
            sibling ``../Gold/`` folder (the distribution layout).

    Raises:
        GecFormatError: no gold file is found, or either file is malformed.
        OSError: a file cannot be read.
    """
    text_path = Path(text_path)
    id = strip_suffix(text_path.name, TEXT_SUFFIX)
    if gold_path is None:
        gold_path = companion(text_path, id + GOLD_SUFFIX, "Gold")
        if gold_path is None:
            raise GecFormatError(f"no gold file {id}{GOLD_SUFFIX} beside the text or in ../Gold/",
                                 str(text_path))
    return parse(read_limited(text_path), read_limited(gold_path), id=id,
                 text_name=str(text_path), gold_name=os.fspath(gold_path))


def read(source: str | os.PathLike[str]) -> Iterator[Document]:
    """Read HOO 2011 documents, one at a time, in id order.

    Args:
        source: a text file ``nnnn.txt`` (its gold beside it or in ``../Gold/``), a gold file
            ``nnnnGE.xml`` (its text in ``../Raw/`` or beside it), or a folder: the
            distribution layout with ``Raw/`` and ``Gold/``, or one holding both kinds of
            files.

    Yields:
        One :class:`~gecformats.model.Document` per text/gold pair.

    Raises:
        GecFormatError: a text without gold or a gold without text (before anything is
            read), or a malformed file.
        OSError: the source does not exist or a file cannot be read.
    """
    for id, text_path, gold_path in pair_files(source, TEXT_SUFFIX, "HOO 2011", strict=True):
        assert text_path is not None and gold_path is not None
        yield parse(read_limited(text_path), read_limited(gold_path), id=id,
                    text_name=str(text_path), gold_name=str(gold_path))


# --------------------------------------------------------------------------------------
# writing


def dumps(document: Document) -> str:
    """The gold edit XML of one document, laid out like the HOO 2011 files.

    ``<?xml version="1.0" ?>``, root ``<edits>``, two-space indentation, ``<edit>``
    attributes in alphabetical order, ``<corrections>`` then ``<original>``, LF line ends.
    Offsets are written as UTF-8 byte offsets of the text as it is read back (CRLF as LF,
    see :func:`lf_text`); ``<original>`` is the text at the offsets (not a stored original).  An edit without ``hoo.index`` gets ``<id>-<k>`` (``k`` its
    1-based position, four digits).

    Raises:
        ValueError: an edit's offsets do not fit the text, or a string holds a character
            XML 1.0 cannot carry.
    """
    lines = ['<?xml version="1.0" ?>']
    if not document.edits:
        lines.append("<edits/>")
        return "\n".join(lines) + "\n"
    lines.append("<edits>")
    document = lf_text(document)
    to_byte = char_to_byte(document.text)
    for k, edit in enumerate(document.edits, 1):
        _check_span(edit, document.text, document.id)
        start, end = (edit.start, edit.end) if to_byte is None else (to_byte[edit.start],
                                                                     to_byte[edit.end])
        attributes = {"end": str(end), "start": str(start)}
        index = edit.get_meta("hoo.index")
        attributes["index"] = index if index is not None else default_index(document.id, k)
        cset = edit.get_meta("hoo.cset")
        if cset is not None:
            attributes["cset"] = cset
        if edit.type:
            attributes["type"] = edit.type
        attributes.update(extra_attributes(edit))
        lines.append(f"  <edit {format_attributes(attributes)}>")
        corrections_xml(edit, "    ", lines, quote=True)
        original_xml(document.text[edit.start:edit.end], "    ", lines, quote=True)
        lines.append("  </edit>")
    lines.append("</edits>")
    return "\n".join(lines) + "\n"


def write(documents: Iterable[Document], dest: str | os.PathLike[str], *, text: bool = True) -> Report:
    """Write documents in the distribution layout: ``dest/Gold/<id>GE.xml`` and, with
    ``text``, ``dest/Raw/<id>.txt`` (UTF-8, exactly ``document.text``).

    The output appears whole or not at all: the files are written into a temporary folder
    beside ``dest`` and moved in once all are written (other files already in ``dest``
    stay; files of the same names are replaced).  Documents without an id are numbered
    ``0001``, ``0002`` ... by their position.  Paragraph breaks (``Document.breaks``),
    comments other than ``-NONE-`` and annotator ids other than 0 have no place in HOO
    2011: they are dropped and reported.

    Args:
        documents: the documents, streamed.
        dest: the output folder (created if needed).
        text: also write the text files.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` counts documents).

    Raises:
        ValueError: two documents have the same id, an id is not a plain file name, or
            :func:`dumps` refuses a document.
    """
    with atomic_directory(dest) as tmp:
        gold_dir, raw_dir = tmp / "Gold", tmp / "Raw"
        gold_dir.mkdir()
        if text:
            raw_dir.mkdir()
        report = Report()
        seen: set[str] = set()
        for n, document in enumerate(documents, 1):
            id = document.id if document.id is not None else f"{n:04d}"
            check_id(id, seen)
            if document.id is None:
                document = document.replace(id=id)
            if document.breaks:
                report.drop("paragraph breaks", f"document {id}: {len(document.breaks)}",
                            len(document.breaks))
            report_edit_losses(document, report)
            crlf = document.text.count("\r\n")
            if crlf:
                report.drop("CRLF line ends (written as LF)", f"document {id}: {crlf}", crlf)
                document = lf_text(document)
            xml = dumps(document)
            with atomic_output(gold_dir / f"{id}{GOLD_SUFFIX}") as fh:
                fh.write(xml)
            if text:
                with atomic_output(raw_dir / f"{id}{TEXT_SUFFIX}") as fh:
                    fh.write(document.text)
            report.sentences += 1
    return report


def lf_text(document: Document) -> Document:
    """``document`` with each CRLF of its text made LF and the edits' offsets moved to
    match: the reader reads a text's CRLF as LF, so this is the document a written text
    reads back as.  The document itself when its text has no CRLF."""
    text = document.text
    if "\r\n" not in text:
        return document
    import bisect

    crs = [i for i in range(len(text) - 1) if text[i] == "\r" and text[i + 1] == "\n"]

    def moved(offset: int) -> int:
        return offset - bisect.bisect_left(crs, offset)  # the CRs of CRLFs before it

    edits = tuple(dc_replace(e, start=moved(e.start), end=moved(e.end)) for e in document.edits)
    return document.replace(text=text.replace("\r\n", "\n"), edits=edits,
                            breaks=tuple(moved(b) for b in document.breaks))


def default_index(id: str | None, k: int) -> str:
    """The index given to the ``k``-th edit (1-based) when it has none: ``<id>-<kkkk>``."""
    return f"{id}-{k:04d}" if id else f"{k:04d}"


def char_to_byte(text: str) -> list[int] | None:
    """Character offset → UTF-8 byte offset for ``0 .. len(text)``; ``None`` if equal."""
    if text.isascii():
        return None
    table = [0] * (len(text) + 1)
    b = 0
    for i, ch in enumerate(text):
        table[i] = b
        o = ord(ch)
        b += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    table[len(text)] = b
    return table


def _check_span(edit: Edit, text: str, id: str | None) -> None:
    if not 0 <= edit.start <= edit.end <= len(text):
        raise ValueError(f"document {id}: edit {edit.start}-{edit.end} does not fit its "
                         f"{len(text)} characters")



"""HOO 2012: learner scripts in HOO 2.1 XML with stand-off gold edits; reader and writer.

A script is two files, distributed as ``Raw/nnnn.xml`` (the source) and ``Gold/nnnnGE.xml``
(its edits)::

    <HOO version="2.1">
      <HEAD sortkey="TR798*0100*2000*01" sourcetype="FCE">...</HEAD>
      <BODY>
        <PART id="1">
          <P>Dear Mr Ryan.</P>
          <P>Thanks for you letter.</P>
        </PART>
      </BODY>
    </HOO>

    <edits file="0002">
      <edit end="106" file="0002" index="0001" part="1" start="106" type="MD">
        <original><empty/></original>
        <corrections><correction>the </correction></corrections>
      </edit>
    </edits>

Each ``<PART>`` becomes a :class:`~gecformats.model.Document`, in document order: ``id`` is
the script id (``"0002"``, the same for every part), ``text`` the concatenation of the
part's ``<P>`` texts with **nothing** in between (the offsets count that string, in
characters), ``breaks`` the offsets where the 2nd, 3rd ... paragraph starts, and ``meta``
holds (:data:`DOCUMENT_META_KEYS`):

``hoo2012.part``
    the PART's ``id``;
``hoo2012.head``
    the ``<HEAD>`` element serialized as a string (absent when the source has none);
``hoo2012.version``
    the ``version`` of ``<HOO>``;
``hoo2012.attr.NAME``
    any other attribute of ``<HOO>``;
``hoo2012.file``
    the gold root's ``file`` attribute, only when it differs from the id.

Edits belong to the PART named by their ``part`` attribute.  Corrections and edit meta are
as in :mod:`gecformats.formats.hoo2011` (``hoo.index``, ``hoo.null``, ``hoo.corrections``,
``hoo.original``, ``hoo.attr.NAME``), plus ``hoo.file`` when an edit's ``file`` attribute
differs from the document's id.  An insertion exactly at a paragraph boundary is kept at
that offset (it is ambiguous: see ``formats.md`` §5.4); an edit spanning two paragraphs is
read, and reported by :mod:`gecformats.validate`.

>>> [doc] = parse(b'<HOO version="2.1"><BODY><PART id="1"><P>Hello.</P><P>I like sea.</P>'
...               b'</PART></BODY></HOO>',
...               b'<edits file="9"><edit end="13" file="9" index="0001" part="1" start="13" '
...               b'type="MD"><original><empty/></original><corrections><correction>the '
...               b'</correction></corrections></edit></edits>', id="9")
>>> doc.text, doc.breaks, doc.corrected()
('Hello.I like sea.', (6,), 'Hello.I like the sea.')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from lxml import etree

from gecformats import xmlsafe
from gecformats.errors import GecFormatError
from gecformats.formats._hoo import (
    GOLD_SUFFIX,
    check_id,
    corrections_xml,
    escape_text,
    extra_attributes,
    format_attributes,
    offset_attribute,
    original_xml,
    pair_files,
    read_children,
    read_limited,
    report_edit_losses,
)
from gecformats.io import atomic_directory, atomic_output
from gecformats.model import Document, Edit, make_edit
from gecformats.report import Report

NAME = "hoo2012"
UNIT = "char"
SUFFIXES: tuple[str, ...] = ()
"""No suffix inference: ``.xml`` is shared with other formats."""

SOURCE_SUFFIX = ".xml"
VERSION = "2.1"
DOCUMENT_META_KEYS = ("hoo2012.part", "hoo2012.head", "hoo2012.version", "hoo2012.file")
"""The ``Document.meta`` keys this module reads and writes (plus ``hoo2012.attr.NAME``)."""

_KNOWN_ATTRIBUTES = frozenset({"start", "end", "index", "part", "file", "type"})
_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>'


# --------------------------------------------------------------------------------------
# reading


def parse(
    source_xml: bytes,
    gold_xml: bytes,
    *,
    id: str | None = None,
    source_name: str | None = None,
    gold_name: str | None = None,
) -> list[Document]:
    """Parse one script from the bytes of its source XML and its gold edit XML.

    Args:
        source_xml: the HOO 2.1 source (``nnnn.xml``).
        gold_xml: the gold edits (``nnnnGE.xml``).
        id: the script id; by default the gold root's ``file`` attribute.
        source_name, gold_name: the file names for error messages.

    Returns:
        One document per ``<PART>``, in document order.

    Raises:
        GecFormatError: unsafe or malformed XML, an unexpected element, an edit naming a
            PART that does not exist, or offsets outside their PART (file and line named).
    """
    documents, _lines = parse_checked(source_xml, gold_xml, None, id=id,
                                      source_name=source_name, gold_name=gold_name)
    return documents


def parse_checked(
    source_xml: bytes,
    gold_xml: bytes,
    problems: list[tuple[int | None, GecFormatError]] | None,
    *,
    id: str | None = None,
    source_name: str | None = None,
    gold_name: str | None = None,
) -> tuple[list[Document], list[list[int]]]:
    """Parse like :func:`parse`, but record faulty edits instead of stopping at the first.

    Args:
        problems: where edit-level errors go, as ``(part, error)`` pairs (``part``: the
            0-based position of the edit's PART, ``None`` when it has none); the edit is
            left out.  ``None`` raises them.  Errors of a whole file (XML syntax, a bad
            source structure) are always raised.

    Returns:
        ``(documents, lines)``: the parts, and for each part the gold line of each edit.
    """
    source_name = source_name or "<source>"
    gold_name = gold_name or "<gold>"
    parts, meta = _read_source(xmlsafe.parse(source_xml, name=source_name), source_name)
    gold = xmlsafe.parse(gold_xml, name=gold_name)
    if gold.tag != "edits":
        raise GecFormatError(f"the root element is <{gold.tag}>, not <edits>", gold_name,
                             gold.sourceline)
    gold_file = gold.get("file")
    if id is None:
        id = gold_file
    if gold_file is not None and gold_file != id:
        meta["hoo2012.file"] = gold_file
    by_part = {part_id: i for i, (part_id, _texts) in enumerate(parts)}
    texts = ["".join(paragraphs) for _part_id, paragraphs in parts]
    edits: list[list[Edit]] = [[] for _ in parts]
    lines: list[list[int]] = [[] for _ in parts]
    number = 0
    for element in gold:
        if not isinstance(element.tag, str):
            continue
        number += 1
        try:
            if element.tag != "edit":
                raise GecFormatError(f"unexpected element <{element.tag}> in <edits>")
            i, edit = _read_edit(element, by_part, texts, id)
        except GecFormatError as exc:
            index = element.get("index")
            what = f"edit {number}" + (f" ({index})" if index else "")
            error = GecFormatError(f"{what}: {exc.message}", gold_name, element.sourceline,
                                   exc.kind)
            if problems is None:
                raise error from None
            problems.append((by_part.get(element.get("part", "")), error))
            continue
        edits[i].append(edit)
        lines[i].append(element.sourceline)
    documents = []
    for i, (part_id, paragraphs) in enumerate(parts):
        breaks = []
        offset = 0
        for paragraph in paragraphs[:-1]:
            offset += len(paragraph)
            breaks.append(offset)
        documents.append(Document(texts[i], tuple(edits[i]), id, tuple(breaks),
                                  {"hoo2012.part": part_id, **meta}))
    return documents, lines


def _read_source(root: etree._Element, name: str) -> tuple[list[tuple[str, list[str]]], dict[str, str]]:
    """The parts (id and paragraph texts) and the script-level meta of a source."""

    def fail(message: str, element: etree._Element) -> GecFormatError:
        return GecFormatError(message, name, element.sourceline)

    if root.tag != "HOO":
        raise fail(f"the root element is <{root.tag}>, not <HOO>", root)
    meta: dict[str, str] = {}
    for key, value in root.attrib.items():
        meta["hoo2012.version" if key == "version" else f"hoo2012.attr.{key}"] = value
    body = None
    for child in root:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "HEAD" and "hoo2012.head" not in meta:
            meta["hoo2012.head"] = etree.tostring(child, encoding="unicode", with_tail=False)
        elif child.tag == "BODY" and body is None:
            body = child
        else:
            raise fail(f"unexpected element <{child.tag}> in <HOO>", child)
    if body is None:
        raise fail("no <BODY> element", root)
    parts: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for part in body:
        if not isinstance(part.tag, str):
            continue
        if part.tag != "PART":
            raise fail(f"unexpected element <{part.tag}> in <BODY>", part)
        part_id = part.get("id")
        if part_id is None:
            raise fail("a <PART> without an id", part)
        if part_id in seen:
            raise fail(f"a second <PART> with the id {part_id!r}", part)
        seen.add(part_id)
        paragraphs = []
        for p in part:
            if not isinstance(p.tag, str):
                continue
            if p.tag != "P":
                raise fail(f"unexpected element <{p.tag}> in <PART>", p)
            inner = [c for c in p if isinstance(c.tag, str)]
            if inner:
                raise fail(f"unexpected element <{inner[0].tag}> in <P>", inner[0])
            paragraphs.append(p.text or "")
        parts.append((part_id, paragraphs))
    return parts, meta


def _read_edit(
    element: etree._Element, by_part: dict[str, int], texts: Sequence[str], id: str | None
) -> tuple[int, Edit]:
    attrib = element.attrib
    part = attrib.get("part")
    if part is None:
        raise GecFormatError("no part attribute", kind="unknown-part")
    i = by_part.get(part)
    if i is None:
        known = ", ".join(repr(p) for p in by_part) or "none"
        raise GecFormatError(f"part {part!r} does not exist in the source (parts: {known})",
                             kind="unknown-part")
    start = offset_attribute(attrib.get("start"), "start")
    end = offset_attribute(attrib.get("end"), "end")
    n = len(texts[i])
    if start > end or end > n:
        why = "starts after it ends" if start > end else f"ends after the {n} characters of part {part}"
        raise GecFormatError(f"the span {start}-{end} (characters) {why}",
                             kind="offset-out-of-range")
    meta: list[tuple[str, str]] = []
    extras: list[tuple[str, str]] = []
    for key, value in attrib.items():
        if key == "index":
            meta.append(("hoo.index", value))
        elif key == "file":
            if value != id:
                meta.append(("hoo.file", value))
        elif key not in _KNOWN_ATTRIBUTES:
            extras.append((f"hoo.attr.{key}", value))
    corrections, required, stored = read_children(element, meta)
    if stored is not None and stored != texts[i][start:end]:
        meta.append(("hoo.original", stored))
    meta.extend(extras)
    return i, make_edit(start, end, corrections, attrib.get("type", ""), required, "-NONE-", 0,
                        tuple(meta))


def read(source: str | os.PathLike[str]) -> Iterator[Document]:
    """Read HOO 2012 scripts, part by part, scripts in id order (one script at a time).

    Args:
        source: a source file ``nnnn.xml`` (its gold beside it or in ``../Gold/``), a gold
            file ``nnnnGE.xml`` (its source in ``../Raw/`` or beside it), or a folder: the
            distribution layout with ``Raw/`` and ``Gold/``, or one holding both kinds.

    Yields:
        One :class:`~gecformats.model.Document` per PART.

    Raises:
        GecFormatError: a source without gold or a gold without source (before anything is
            read), or a malformed file.
        OSError: the source does not exist or a file cannot be read.
    """
    for id, source_path, gold_path in pair_files(source, SOURCE_SUFFIX, "HOO 2012", strict=True):
        assert source_path is not None and gold_path is not None
        yield from parse(read_limited(source_path), read_limited(gold_path), id=id,
                         source_name=str(source_path), gold_name=str(gold_path))


# --------------------------------------------------------------------------------------
# writing


def dumps_source(parts: Sequence[Document]) -> str:
    """The HOO 2.1 source XML of one script (its parts, in order).

    The ``<HEAD>``, the ``version`` and other ``<HOO>`` attributes come from the first
    part's meta; each part's text is cut into ``<P>`` elements at its breaks.  PART ids are
    ``hoo2012.part``, or the part's 1-based position.

    Raises:
        ValueError: two parts have the same id, a break lies outside the text, or the text
            holds a character XML 1.0 cannot carry.
    """
    meta = parts[0].meta if parts else {}
    attributes = {"version": meta.get("hoo2012.version", VERSION)}
    attributes.update({k[13:]: v for k, v in meta.items() if k.startswith("hoo2012.attr.")})
    lines = [_DECLARATION, f"<HOO {format_attributes(attributes)}>"]
    head = meta.get("hoo2012.head")
    if head is not None:
        lines.append(f"  {head}")
    lines.append("  <BODY>")
    for part_id, document in zip(part_ids(parts), parts):
        lines.append(f'    <PART {format_attributes({"id": part_id})}>')
        for paragraph in paragraphs(document):
            lines.append(f"      <P>{escape_text(paragraph, quote=False)}</P>")
        lines.append("    </PART>")
    lines.append("  </BODY>")
    lines.append("</HOO>")
    return "\n".join(lines) + "\n"


def dumps_gold(parts: Sequence[Document]) -> str:
    """The gold edit XML of one script (its parts, in order), laid out like the HOO 2012
    files: ``file`` on the root (``hoo2012.file``, or the id) and ``file`` and ``part`` on
    every edit, attributes in alphabetical order, ``<original>`` (the text at the offsets)
    then ``<corrections>``.
    An edit without ``hoo.index`` gets its 1-based position in the script (four digits).

    Raises:
        ValueError: an edit does not fit its part's text, two parts have the same id, or a
            string holds a character XML 1.0 cannot carry.
    """
    id = parts[0].id if parts and parts[0].id is not None else "0001"
    root = {"file": parts[0].meta.get("hoo2012.file", id) if parts else id}
    lines = [_DECLARATION]
    if not any(document.edits for document in parts):
        lines.append(f"<edits {format_attributes(root)}/>")
        return "\n".join(lines) + "\n"
    lines.append(f"<edits {format_attributes(root)}>")
    k = 0
    for part_id, document in zip(part_ids(parts), parts):
        text = document.text
        for edit in document.edits:
            k += 1
            if not 0 <= edit.start <= edit.end <= len(text):
                raise ValueError(f"script {id}, part {part_id}: edit {edit.start}-{edit.end} "
                                 f"does not fit the part's {len(text)} characters")
            attributes = {
                "end": str(edit.end),
                "file": edit.get_meta("hoo.file") or id,
                "index": edit.get_meta("hoo.index") or f"{k:04d}",
                "part": part_id,
                "start": str(edit.start),
            }
            if edit.type:
                attributes["type"] = edit.type
            attributes.update(extra_attributes(edit))
            lines.append(f"  <edit {format_attributes(attributes)}>")
            original_xml(text[edit.start:edit.end], "    ", lines, quote=False)
            corrections_xml(edit, "    ", lines, quote=False)
            lines.append("  </edit>")
    lines.append("</edits>")
    return "\n".join(lines) + "\n"


def part_ids(parts: Sequence[Document]) -> list[str]:
    """The PART id of each part: ``hoo2012.part``, or its 1-based position.

    Raises:
        ValueError: two parts would have the same id.
    """
    ids = [document.meta.get("hoo2012.part") or str(i) for i, document in enumerate(parts, 1)]
    if len(set(ids)) != len(ids):
        raise ValueError(f"script {parts[0].id}: two parts have the same id ({', '.join(ids)})")
    return ids


def paragraphs(document: Document) -> list[str]:
    """The text cut at the breaks (an empty text without breaks has no paragraph).

    Raises:
        ValueError: the breaks are not ascending within the text.
    """
    text = document.text
    if not text and not document.breaks:
        return []
    out = []
    previous = 0
    for b in document.breaks:
        if not previous <= b <= len(text):
            raise ValueError(f"document {document.id}: break {b} is out of order or outside "
                             f"the text's {len(text)} characters")
        out.append(text[previous:b])
        previous = b
    out.append(text[previous:])
    return out


def write(documents: Iterable[Document], dest: str | os.PathLike[str], *, text: bool = True) -> Report:
    """Write scripts in the distribution layout: ``dest/Raw/<id>.xml`` (with ``text``) and
    ``dest/Gold/<id>GE.xml``.

    Consecutive documents with the same id form one script (its parts); a document without
    an id is a script of its own, numbered ``0001``, ``0002`` ... by its position among the
    scripts.  The output appears whole or not at all, as for
    :func:`gecformats.formats.hoo2011.write`.  Comments other than ``-NONE-``, annotator ids
    other than 0 and HOO 2011 ``cset`` groups have no place in HOO 2012: they are dropped
    and reported.

    Args:
        documents: the documents, streamed.
        dest: the output folder (created if needed).
        text: also write the source files.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` counts documents, i.e. parts).

    Raises:
        ValueError: the same id on non-consecutive documents, two parts of a script with
            the same PART id, an id that is not a plain file name, or a document the XML
            writers refuse.
    """
    with atomic_directory(dest) as tmp:
        gold_dir, raw_dir = tmp / "Gold", tmp / "Raw"
        gold_dir.mkdir()
        if text:
            raw_dir.mkdir()
        report = Report()
        seen: set[str] = set()
        for n, script in enumerate(_scripts(documents), 1):
            id = script[0].id if script[0].id is not None else f"{n:04d}"
            if id in seen and script[0].id is not None:
                raise ValueError(f"the parts of script {id!r} are not consecutive")
            check_id(id, seen)
            if script[0].id is None:
                script = [script[0].replace(id=id)]
            for document in script:
                report_edit_losses(document, report)
                for edit in document.edits:
                    if edit.get_meta("hoo.cset") is not None:
                        report.drop("cset groups", f"document {id}, edit {edit.start}-{edit.end}: "
                                    f"cset {edit.get_meta('hoo.cset')}")
            gold = dumps_gold(script)
            source = dumps_source(script) if text else ""
            with atomic_output(gold_dir / f"{id}{GOLD_SUFFIX}") as fh:
                fh.write(gold)
            if text:
                with atomic_output(raw_dir / f"{id}{SOURCE_SUFFIX}") as fh:
                    fh.write(source)
            report.sentences += len(script)
    return report


def _scripts(documents: Iterable[Document]) -> Iterator[list[Document]]:
    """Group consecutive documents with the same (non-``None``) id."""
    group: list[Document] = []
    for document in documents:
        if group and (document.id is None or document.id != group[0].id):
            yield group
            group = []
        group.append(document)
    if group:
        yield group

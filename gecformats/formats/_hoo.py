"""Helpers shared by the HOO family of formats (HOO 2011, HOO 2012) and the XML writers.

Private to :mod:`gecformats.formats`: the element reading, offset attributes, file pairing
(``Raw/``, ``Gold/``), id checks and XML escaping that :mod:`~gecformats.formats.hoo2011`,
:mod:`~gecformats.formats.hoo2012` and :mod:`~gecformats.formats.ixml` share.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from lxml import etree

from gecformats import xmlsafe
from gecformats.errors import GecFormatError
from gecformats.model import MAX_DIGITS, Document, Edit
from gecformats.report import Report


GOLD_SUFFIX = "GE.xml"




_MALFORMED_TYPE = re.compile(r"\s*([^\s=\"']+)\s+c?set\s*=\s*([\"']?)([^\s\"']*)\2\s*")


Corrections = tuple[tuple[str, ...], ...]


EditMeta = list[tuple[str, str]]


def repair_type(raw: str) -> tuple[str, str | None]:
    """Split a malformed type into which a ``cset`` attribute leaked.

    Args:
        raw: the ``type`` attribute as stored.

    Returns:
        ``(type, cset)``: the repaired type and the recovered cset for a malformed value
        (``'RT cset ="2"'`` → ``("RT", "2")``, ``'CC set="3"'`` → ``("CC", "3")``), or
        ``(raw, None)`` for a well-formed one.

    >>> repair_type('RT cset = "2"'), repair_type("MD")
    (('RT', '2'), ('MD', None))
    """
    match = _MALFORMED_TYPE.fullmatch(raw)
    if match is None:
        return raw, None
    return match.group(1), match.group(3)


def offset_attribute(value: str | None, attribute: str) -> int:
    """An offset attribute's value as an int.

    Raises:
        GecFormatError: the attribute is missing or not a non-negative integer.
    """
    if value is None:
        raise GecFormatError(f"no {attribute} attribute")
    v = value.strip()
    if not (v.isascii() and v.isdigit()):
        raise GecFormatError(f"{attribute} must be a non-negative integer, not {value[:20]!r}")
    if len(v) > MAX_DIGITS:
        raise GecFormatError(f"{attribute} has more than {MAX_DIGITS} digits ({v[:20]}…)")
    return int(v)


def read_children(element: etree._Element, meta: EditMeta) -> tuple[Corrections, bool, str | None]:
    """Read the ``<corrections>`` and ``<original>`` children of one ``<edit>`` (HOO 2011
    and 2012 alike), in any order.

    Args:
        element: the ``<edit>`` element.
        meta: the edit's meta list; ``hoo.null`` and ``hoo.corrections`` are appended.

    Returns:
        ``(corrections, required, stored_original)``: the corrections (see the module
        docstring), ``False`` when there is a null correction, and the stored original
        (``""`` for ``<empty/>``; ``None`` when there is no ``<original>``).

    Raises:
        GecFormatError: an unexpected element, or a second ``<corrections>``/``<original>``.
    """
    corrections: list[tuple[str, ...]] = []
    nulls: list[str] = []
    stored: str | None = None
    seen_corrections = seen_original = False
    for child in element:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag == "corrections":
            if seen_corrections:
                raise GecFormatError("a second <corrections> element")
            seen_corrections = True
            position = 0
            for correction in child:
                if not isinstance(correction.tag, str):
                    continue
                if correction.tag != "correction":
                    raise GecFormatError(f"unexpected element <{correction.tag}> in <corrections>")
                value = _text_or_empty(correction)
                if value is None:
                    nulls.append(str(position))
                else:
                    corrections.append((value,) if value else ())
                position += 1
            if position == 0:
                meta.append(("hoo.corrections", "empty"))
        elif tag == "original":
            if seen_original:
                raise GecFormatError("a second <original> element")
            seen_original = True
            stored = _text_or_empty(child) or ""
        else:
            raise GecFormatError(f"unexpected element <{tag}> in <edit>")
    if not seen_corrections:
        meta.append(("hoo.corrections", "none"))
    if nulls:
        meta.append(("hoo.null", ",".join(nulls)))
    return tuple(corrections), not nulls, stored


def _text_or_empty(element: etree._Element) -> str | None:
    """``""`` for ``<x><empty/></x>``, the text for ``<x>text</x>``, ``None`` for ``<x/>``."""
    children = [c for c in element if isinstance(c.tag, str)]
    if children:
        if len(children) == 1 and children[0].tag == "empty":
            if (element.text or "").strip() or (children[0].tail or "").strip():
                raise GecFormatError(f"<{element.tag}> holds both text and <empty/>")
            return ""
        names = ", ".join(f"<{c.tag}>" for c in children)
        raise GecFormatError(f"unexpected element {names} in <{element.tag}>")
    return element.text or None


def pair_files(
    source: str | os.PathLike[str], text_suffix: str, format: str, *, strict: bool
) -> list[tuple[str, Path | None, Path | None]]:
    """Find the text (or source) and gold files of ``source``, paired by id (HOO 2011 and
    2012).

    Args:
        source: a text file, a gold file (``...GE.xml``) or a folder (``Raw/`` + ``Gold/``,
            or both kinds of file side by side), or a folder of such folders (HOO 2011's
            ``develop/`` and ``test/``: each in name order).
        text_suffix: ``.txt`` (2011) or ``.xml`` (2012).
        format: the format's name for messages.
        strict: raise on a file without its partner (else it is listed with ``None``).

    Returns:
        ``(id, text_path, gold_path)`` triples sorted by id.

    Raises:
        FileNotFoundError: ``source`` does not exist.
        GecFormatError: (strict) a file without its partner; a folder without any file; a
            document id in two subfolders.
    """
    path = Path(source)
    if not path.exists():
        raise FileNotFoundError(2, "No such file or directory", os.fspath(source))
    if path.is_dir() and not _holds_files(path, text_suffix):
        parts = [sub for sub in sorted(path.iterdir())
                 if sub.is_dir() and _holds_files(sub, text_suffix)]
        if parts:  # a corpus folder of distribution folders (HOO 2011's develop/ and test/)
            return _pair_parts(parts, text_suffix, format, strict)
    pairs: dict[str, list[Path | None]] = {}
    if path.is_dir():
        raw, gold = path / "Raw", path / "Gold"
        if raw.is_dir() or gold.is_dir():
            texts = sorted(raw.glob("*" + text_suffix)) if raw.is_dir() else []
            golds = sorted(gold.glob("*" + GOLD_SUFFIX)) if gold.is_dir() else []
        else:
            texts = sorted(path.glob("*" + text_suffix))
            golds = sorted(path.glob("*" + GOLD_SUFFIX))
        for p in texts:
            if not p.name.endswith(GOLD_SUFFIX) and p.is_file():
                pairs.setdefault(strip_suffix(p.name, text_suffix), [None, None])[0] = p
        for p in golds:
            if p.is_file():
                pairs.setdefault(strip_suffix(p.name, GOLD_SUFFIX), [None, None])[1] = p
        if not pairs:
            raise GecFormatError(f"no {format} files ({text_suffix} and {GOLD_SUFFIX}) in this "
                                 "folder, in its Raw/ and Gold/ or in its subfolders",
                                 os.fspath(source))
    elif path.name.endswith(GOLD_SUFFIX):
        id = strip_suffix(path.name, GOLD_SUFFIX)
        pairs[id] = [companion(path, id + text_suffix, "Raw"), path]
    else:
        id = strip_suffix(path.name, text_suffix)
        pairs[id] = [path, companion(path, id + GOLD_SUFFIX, "Gold")]
    result = [(id, texts_gold[0], texts_gold[1]) for id, texts_gold in sorted(pairs.items())]
    if strict:
        for id, text_path, gold_path in result:
            if gold_path is None:
                raise GecFormatError(f"document {id} has no gold file {id}{GOLD_SUFFIX}",
                                     str(text_path))
            if text_path is None:
                raise GecFormatError(f"document {id} has no text file {id}{text_suffix}",
                                     str(gold_path))
    return result


def _holds_files(folder: Path, text_suffix: str) -> bool:
    """Whether ``folder`` is in the distribution layout (``Raw/`` or ``Gold/``) or holds
    text or gold files itself."""
    if (folder / "Raw").is_dir() or (folder / "Gold").is_dir():
        return True
    return any(p.is_file() for pattern in ("*" + text_suffix, "*" + GOLD_SUFFIX)
               for p in folder.glob(pattern))


def _pair_parts(parts: list[Path], text_suffix: str, format: str, strict: bool
                ) -> list[tuple[str, Path | None, Path | None]]:
    """:func:`pair_files` of each subfolder in name order, their documents one after
    another (HOO 2011's ``develop/`` then ``test/``).

    Raises:
        GecFormatError: a document id in two subfolders (which one is meant cannot be told).
    """
    out: list[tuple[str, Path | None, Path | None]] = []
    where: dict[str, Path] = {}
    for part in parts:
        for id, text_path, gold_path in pair_files(part, text_suffix, format, strict=strict):
            if id in where:
                names = ", ".join(str(p) for p in parts)
                raise GecFormatError(f"document {id} is in both {where[id]} and {part}: "
                                     f"convert one of the subfolders ({names})",
                                     os.fspath(part.parent))
            where[id] = part
            out.append((id, text_path, gold_path))
    return out


def companion(path: Path, name: str, sibling: str) -> Path | None:
    """The file ``name`` beside ``path`` or in the folder ``../sibling/``; ``None`` if neither
    exists (beside wins for a text, ``../Raw/`` is tried first for a gold file)."""
    beside = path.parent / name
    other = path.parent.parent / sibling / name
    order = (other, beside) if sibling == "Raw" else (beside, other)
    for candidate in order:
        if candidate.is_file():
            return candidate
    return None


def strip_suffix(name: str, suffix: str) -> str:
    return name[: -len(suffix)] if name.endswith(suffix) else Path(name).stem


def read_limited(path: str | os.PathLike[str]) -> bytes:
    """A gold file's bytes, at most one byte more than :data:`xmlsafe.MAX_BYTES` (the parser
    refuses more)."""
    with open(path, "rb") as fh:
        return fh.read(xmlsafe.MAX_BYTES + 1)


def check_id(id: str, seen: set[str]) -> None:
    """Refuse (``ValueError``) an id used before or one that is not a plain file name."""
    if not id or id in (".", "..") or "/" in id or os.sep in id or "\0" in id:
        raise ValueError(f"document id {id!r} cannot be used as a file name")
    if id in seen:
        raise ValueError(f"two documents have the id {id!r} (each is written to its own "
                         "files; give them distinct ids)")
    seen.add(id)


def report_edit_losses(document: Document, report: Report) -> None:
    """Report comments and annotator ids that HOO cannot hold."""
    for edit in document.edits:
        where = f"document {document.id}, edit {edit.start}-{edit.end}"
        if edit.comment != "-NONE-":
            report.drop("edit comments", f"{where}: {edit.comment!r}")
        if edit.annotator != 0:
            report.drop("annotator ids", f"{where}: annotator {edit.annotator}")


def extra_attributes(edit: Edit) -> dict[str, str]:
    """The ``hoo.attr.NAME`` entries of an edit's meta, as attributes."""
    return {k[9:]: v for k, v in edit.meta if k.startswith("hoo.attr.")}


def corrections_xml(edit: Edit, indent: str, lines: list[str], *, quote: bool) -> None:
    """Append the ``<corrections>`` element of ``edit`` (HOO 2011 and 2012 layout).

    The null correction of an optional edit goes back to its stored position
    (``hoo.null``; first by default).  A detection-only edit gets no element (or
    ``<corrections/>`` when ``hoo.corrections`` is ``empty``).
    """
    children = ["".join(alt) for alt in edit.corrections]
    items: list[str | None] = list(children)
    if not edit.required:
        positions = edit.get_meta("hoo.null") or "0"
        for p in sorted(int(x) for x in positions.split(",") if x.isdigit()) or [0]:
            items.insert(min(p, len(items)), None)
    if not items:
        if edit.get_meta("hoo.corrections") == "empty":
            lines.append(f"{indent}<corrections/>")
        return
    inner = indent + "  "
    lines.append(f"{indent}<corrections>")
    for item in items:
        if item is None:
            lines.append(f"{inner}<correction/>")
        elif item == "":
            lines.extend((f"{inner}<correction>", f"{inner}  <empty/>", f"{inner}</correction>"))
        else:
            lines.append(f"{inner}<correction>{escape_text(item, quote=quote)}</correction>")
    lines.append(f"{indent}</corrections>")


def original_xml(original: str, indent: str, lines: list[str], *, quote: bool) -> None:
    """Append ``<original>`` (``<empty/>`` inside for an insertion)."""
    if original:
        lines.append(f"{indent}<original>{escape_text(original, quote=quote)}</original>")
    else:
        lines.extend((f"{indent}<original>", f"{indent}  <empty/>", f"{indent}</original>"))


_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape_text(value: str, *, quote: bool) -> str:
    """Escape element text: ``& < >`` (and ``"`` with ``quote``, as the 2011 files do);
    ``\\r`` as ``&#13;`` so that it survives parsing.

    Raises:
        ValueError: a character XML 1.0 cannot carry (most control characters).
    """
    bad = _INVALID_XML.search(value)
    if bad:
        raise ValueError(f"the character {bad.group()!r} cannot be written in XML: {value!r}")
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        value = value.replace('"', "&quot;")
    return value.replace("\r", "&#13;")


def format_attributes(attributes: dict[str, str]) -> str:
    """``name="value"`` pairs in alphabetical order, values escaped (white space other than
    the space as character references, so that parsing gives them back)."""
    parts = []
    for key in sorted(attributes):
        value = escape_text(attributes[key], quote=True)
        value = value.replace("\n", "&#10;").replace("\t", "&#9;")
        parts.append(f'{key}="{value}"')
    return " ".join(parts)

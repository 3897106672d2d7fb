"""FCE XML: the Cambridge Learner Corpus FCE dataset (Yannakoudakis et al. 2011).

One file per exam script; each ``<p>`` of an answer's ``<coded_answer>`` is a paragraph and
errors are marked inline::

    <p>I am writing <NS type="RT"><i>for</i><c>to</c></NS> complain.</p>

``<i>`` holds what the learner wrote, ``<c>`` the correction.  An ``NS`` without ``<c>`` is a
deletion when its type is one of the coding scheme's *unnecessary* codes (``U…``: ``UD``,
``UV`` …) and otherwise an error marked without a correction (*detection only*); without
``<i>`` it is an insertion; an ``NS`` with neither is ignored.  ``NS`` elements nest: an error inside another's ``<i>`` or
``<c>`` is part of that text.

Each file reads into one :class:`~gecformats.model.Document`: the learner's text (every
``<i>``, no ``<c>``), paragraphs joined by ``\\n`` with a break at each, and one edit per
*outermost* ``NS``, whose correction is the fully corrected text of its ``<c>`` (nested
errors in it resolved).  Errors nested inside another's ``<i>`` are covered by the enclosing
edit and so are not separate edits: their number is kept in ``meta["fce.nested"]`` and a
conversion says so.  ``id`` is the file name without ``.xml``; ``meta`` keeps the script's
``sortkey``.

The XML is parsed with the safe parser (:mod:`gecformats.xmlsafe`: no entities, no network,
bounded size).  There is no writer (the release's metadata has no place in the edit model);
``convert`` goes from FCE to any other format.

>>> doc, = parse(b'<learner><text><answer1><coded_answer><p>I <NS type="AGV"><i>goes</i>'
...              b'<c>go</c></NS> home<NS type="MP"><c>.</c></NS></p></coded_answer></answer1>'
...              b'</text></learner>', "x.xml")
>>> doc.text, doc.corrected(), [e.type for e in doc.edits]
('I goes home', 'I go home.', ['AGV', 'MP'])
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gecformats import xmlsafe
from gecformats.errors import GecFormatError, UsageError
from gecformats.model import Document, Edit, make_edit
from gecformats.report import Report

NAME = "fce"
UNIT = "char"
SUFFIXES: tuple[str, ...] = ()
"""No suffix inference: ``.xml`` is shared with other formats; name it with ``--from fce``."""


def read(source: str | os.PathLike[str]) -> Iterator[Document]:
    """Stream the scripts of an FCE XML file, or of every ``.xml`` file under a folder (in
    name order, one file at a time).

    Raises:
        GecFormatError: a file that is not well-formed (or safe) XML, or has no ``<p>``
            (kind ``syntax``, file and line named).
        OSError: a file cannot be read.
    """
    path = Path(source)
    files = sorted(path.rglob("*.xml")) if path.is_dir() else [path]
    if path.is_dir() and not files:
        raise GecFormatError("no .xml files in the folder", str(path))
    for file in files:
        yield from parse(None, str(file))


def parse(data: bytes | None, name: str) -> Iterator[Document]:
    """The script of one FCE XML document (``data``, or the file ``name`` when ``None``)."""
    root = xmlsafe.parse(data if data is not None else name, name=name)
    paragraphs = [p for p in root.iter("p")]
    if not paragraphs:
        raise GecFormatError("no <p> element: not an FCE script", name, root.sourceline)
    builder = _Builder(name)
    for k, p in enumerate(paragraphs):
        if k:
            builder._add("\n")
            builder.breaks.append(builder.length)
        builder.walk(p)
    text = "".join(builder.text)
    meta = {"fce.nested": str(builder.nested)}
    head = root.find(".//head")
    if head is not None and head.get("sortkey"):
        meta["fce.sortkey"] = head.get("sortkey", "")
    doc_id = Path(name).stem
    yield Document(text, tuple(builder.edits), doc_id, tuple(builder.breaks), meta)


class _Builder:
    """Walks a paragraph: the learner's text, and one edit per outermost ``NS``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.text: list[str] = []
        self.length = 0
        self.breaks: list[int] = []
        self.edits: list[Edit] = []
        self.nested = 0

    def _add(self, piece: str | None) -> None:
        if piece:
            self.text.append(piece)
            self.length += len(piece)

    def walk(self, element: Any) -> None:
        self._add(element.text)
        for child in element:
            if child.tag == "NS":
                self._error(child)
            elif isinstance(child.tag, str):
                self.walk(child)
            self._add(child.tail)

    def _error(self, ns: Any) -> None:
        wrong = ns.find("i")
        right = ns.find("c")
        start = self.length
        if wrong is not None:
            self.nested += sum(1 for _ in wrong.iter("NS"))
            self._add(_side(wrong, "i"))
        end = self.length
        if wrong is None and right is None:
            return
        etype = ns.get("type", "")
        if right is not None:
            corrections: tuple[tuple[str, ...], ...] = ((_side(right, "c"),),)
            if corrections[0] == ("",):
                corrections = ((),)
        elif etype.startswith("U"):
            corrections = ((),)  # Unnecessary …: the word goes (the coding scheme's U codes)
        else:
            corrections = ()  # marked, not corrected: detection only
        self.edits.append(make_edit(start, end, corrections, etype, True,
                                    "-NONE-", 0, (("fce.line", str(ns.sourceline)),)))


def _side(element: Any, side: str) -> str:
    """The text of ``element`` with nested errors resolved to their ``side`` (``i``: what the
    learner wrote, ``c``: the correction; an error without that side contributes nothing)."""
    out = [element.text or ""]
    for child in element:
        if child.tag == "NS":
            chosen = child.find(side)
            if chosen is not None:
                out.append(_side(chosen, side))
        elif isinstance(child.tag, str):
            out.append(_side(child, side))
        out.append(child.tail or "")
    return "".join(out)


def write(documents: Any, dest: str | os.PathLike[str], **_: Any) -> Report:
    """FCE XML is read only.

    Raises:
        UsageError: always.
    """
    raise UsageError(f"FCE XML is read only: write {os.fspath(dest)} in another format")

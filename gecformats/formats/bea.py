"""BEA-2019 JSON: W&I+LOCNESS and the FCE JSON release, one essay per line.

Each line is a JSON object with the essay's ``text`` and its ``edits`` per annotator, in
character offsets of ``text``::

    {"id": "A1", "text": "He go to school.",
     "edits": [[0, [[3, 5, "goes"], [9, 15, null, "NOUN"]]], [1, []]]}

An edit is ``[start, end, correction]`` or ``[start, end, correction, type]``; a ``null``
correction marks a problem without saying how to fix it (*detection-only*), ``""`` is a
deletion.  Other keys of the object (``cefr``, ``l1`` …) are kept.

Each line reads into a :class:`~gecformats.model.Document`: the text, the edits with their
annotator (``meta["annotators"]`` lists every annotator, those without edits too), ``id``
the ``id`` key (else the line number), ``breaks`` where a line of the text starts.  Detection-
only edits stay in the model; a conversion to a format that cannot hold them reports them
(``gecformats convert X.json Y.m2`` lists them as dropped, reason ``detection-only``).

>>> doc, = parse('{"id": "A1", "text": "He go to school.", "edits": [[0, [[3, 5, "goes"]]]]}')
>>> doc.id, doc.corrected()
('A1', 'He goes to school.')
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from gecformats.errors import GecFormatError
from gecformats.io import atomic_output, json_text, string_lines, text_lines
from gecformats.model import MAX_ANNOTATORS, Document, Edit, make_edit
from gecformats.report import Report

NAME = "bea"
UNIT = "char"
SUFFIXES: tuple[str, ...] = (".json",)
ANNOTATORS = 1000
"""How many annotators a file can hold (converting M2 to this format keeps every one)."""

MAX_LINE = 50_000_000
"""Kept for compatibility: the line cap of every line reader, :data:`gecformats.io.MAX_LINE`
(10 MiB), is lower and applies first."""

_KNOWN = ("text", "edits")


def read(source: str | os.PathLike[str]) -> Iterator[Document]:
    """Stream the essays of a BEA-2019 JSON file, one line at a time.

    Yields:
        One :class:`~gecformats.model.Document` per non-blank line.

    Raises:
        GecFormatError: ``FILE:LINE: message`` for a line that is not a JSON object with a
            string ``text`` and well-formed ``edits`` (offsets that are not integers, do not
            fit the text or run backwards, an annotator id out of range).
        OSError: the file cannot be read.
    """
    with text_lines(source) as lines:
        yield from _documents(lines, os.fspath(source))


def parse(text: str, name: str = "<string>") -> Iterator[Document]:
    """The essays of BEA-2019 JSON ``text`` (see :func:`read`)."""
    yield from _documents(string_lines(text, name), name)


def entries(source: str | os.PathLike[str]) -> Iterator[tuple[int, Document | GecFormatError]]:
    """Every essay line of a BEA-2019 JSON file as :func:`read` reads it (the same lines,
    the same rules), each with its line number: its document, or the error that refuses
    it (``validate`` reports them all; :func:`read` stops at the first).

    Raises:
        GecFormatError: invalid UTF-8 or a line past the line cap (the file's reading).
        OSError: the file cannot be read.
    """
    with text_lines(source) as lines:
        yield from _entries(lines, os.fspath(source))


def _entries(lines: Iterator[str], name: str) -> Iterator[tuple[int, Document | GecFormatError]]:
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield lineno, _document(line, name, lineno)
        except GecFormatError as error:
            yield lineno, error


def _documents(lines: Iterator[str], name: str) -> Iterator[Document]:
    for _, entry in _entries(lines, name):
        if isinstance(entry, GecFormatError):
            raise entry
        yield entry


def _document(line: str, name: str, lineno: int) -> Document:
    def fail(message: str, kind: str = "syntax") -> GecFormatError:
        return GecFormatError(message, name, lineno, kind)

    if line.startswith("\ufeff"):  # the file's own, at its very start, is gone already
        raise fail("a byte-order mark (U+FEFF) starts this line: only the file's start may "
                   "have one (files joined with their marks?); remove it")
    try:
        obj = json.loads(line, parse_constant=_not_json)
    except (ValueError, RecursionError) as exc:  # ValueError: also an over-long integer
        raise fail(f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise fail("each line must be a JSON object")
    text = obj.get("text")
    if not isinstance(text, str):
        raise fail("the object has no string 'text'")
    groups = obj.get("edits", [])
    if not isinstance(groups, list):
        raise fail("'edits' must be a list of [annotator, [edit, ...]]")
    if len(groups) > MAX_ANNOTATORS:
        raise fail(f"{len(groups):,} annotator entries in one essay; at most "
                   f"{MAX_ANNOTATORS:,} (model.MAX_ANNOTATORS applies per document)", "too-large")
    edits: list[Edit] = []
    annotators: set[int] = set()
    for group in groups:
        if not (isinstance(group, list) and len(group) == 2 and isinstance(group[1], list)):
            raise fail(f"an 'edits' entry must be [annotator, [edit, ...]], not {str(group)[:40]}")
        annotator = group[0]
        if isinstance(annotator, bool) or not isinstance(annotator, int) \
                or not 0 <= annotator < MAX_ANNOTATORS:
            raise fail(f"annotator {annotator!r} is not an id from 0 to {MAX_ANNOTATORS - 1}",
                       "bad-annotator")
        annotators.add(annotator)
        for raw in group[1]:
            edits.append(_edit(raw, text, annotator, fail))
    meta = {"annotators": ",".join(map(str, sorted(annotators) or [0]))}
    for key, value in obj.items():
        if key not in _KNOWN:
            meta[f"bea.{key}"] = json_text(value, ensure_ascii=False)
    doc_id = obj.get("id")
    breaks = tuple(i + 1 for i, c in enumerate(text) if c == "\n" and i + 1 < len(text))
    return Document(text, tuple(edits), str(doc_id) if doc_id is not None else str(lineno),
                    breaks, meta)


def _not_json(name: str) -> None:
    """Python's JSON reader takes ``NaN`` and ``Infinity``; JSON has no such values."""
    raise ValueError(f"{name} is not a JSON value")


def _edit(raw: Any, text: str, annotator: int, fail: Any) -> Edit:
    if not (isinstance(raw, list) and len(raw) in (3, 4)):
        raise fail(f"an edit must be [start, end, correction(, type)], not {str(raw)[:40]}")
    start, end, correction = raw[0], raw[1], raw[2]
    for value in (start, end):
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"offset {value!r} is not an integer", "bad-number")
    if not 0 <= start <= end <= len(text):
        raise fail(f"edit {start}-{end} does not fit the text's {len(text)} characters"
                   if start <= end else f"edit {start}-{end} ends before it starts",
                   "offset-out-of-range")
    if correction is not None and not isinstance(correction, str):
        raise fail(f"a correction must be a string or null, not {correction!r}")
    etype = raw[3] if len(raw) == 4 else ""
    if not isinstance(etype, str):
        raise fail(f"an edit type must be a string, not {etype!r}")
    corrections = () if correction is None else ((correction,) if correction else (),)
    return make_edit(start, end, corrections, etype, True, "-NONE-", annotator)


# ------------------------------------------------------------------------------ writing


def to_json(document: Document, report: Report | None = None) -> str:
    """One line of BEA-2019 JSON (without its line end) for ``document``; a second or later
    alternative correction is dropped (reported in ``report``)."""
    obj: dict[str, Any] = {}
    for key, value in document.meta.items():
        if key.startswith("bea."):
            obj[key[4:]] = json.loads(value)
    if document.id is not None and "id" not in obj:
        obj["id"] = document.id
    obj["text"] = document.text
    listed = document.meta.get("annotators")
    ids = [int(a) for a in listed.split(",")] if listed else \
        sorted({e.annotator for e in document.edits}) or [0]
    by_annotator: dict[int, list[Edit]] = {}
    for e in document.edits:
        by_annotator.setdefault(e.annotator, []).append(e)
    groups = []
    for annotator in ids:
        items = []
        for e in by_annotator.get(annotator, ()):
            if len(e.corrections) > 1 and report is not None:
                report.drop("alternatives", f"{document.id}: {e.start}-{e.end}")
            correction = "".join(e.corrections[0]) if e.corrections else None
            items.append([e.start, e.end, correction] + ([e.type] if e.type else []))
        groups.append([annotator, items])
    obj["edits"] = groups
    return json_text(obj, ensure_ascii=False)


def write(documents: Iterable[Document], dest: str | os.PathLike[str]) -> Report:
    """Write documents as BEA-2019 JSON lines, streaming, whole or not at all.

    Returns:
        A report: the documents written, and the alternative corrections beyond the first
        that JSON has no room for.
    """
    report = Report()
    count = 0
    with atomic_output(dest) as fh:
        for count, document in enumerate(documents, 1):
            fh.write(to_json(document, report) + "\n")
    report.sentences = count  # the count the CLI reports: documents, for this format
    return report

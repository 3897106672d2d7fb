"""COWSL2H annotated essays (UC Davis Corpus of Written Spanish, L2 and heritage speakers):
reader and writer.

One essay per file, one file per annotator, the corrections inline::

    Él tiene []{el}<ab:det:art:def> pelo rubio y [favorito]{favorita}<ga:adj> bomba<gat:noun>

An edit is ``[ORIGINAL]{CORRECTION}<TAG>``: ``ORIGINAL`` empty is an insertion,
``CORRECTION`` empty a deletion; a second error type is a second group
(``<col:adj><ga:adj>``); ``WORD<TAG>`` tags a word without changing it.  There is no
escaping and there are no offsets.  Each file reads into a
:class:`~gecformats.model.Document`: ``text`` the original essay (the markup removed, the
``[ORIGINAL]`` kept), edits with **character** offsets into it, ``type`` the tag groups
joined by ``+`` (``col:adj+ga:adj``; none: ``""``), a tagged word a *detection-only* edit
(``corrections == ()``: the text stays).  So ``convert … OUT.m2 --tokenizer unicode``
gives M2 through the character → token conversion.

Malformed markup is common in the corpus (``[asustado]{asustadas}ga:na:adj>``,
``[el][la]<gat:det>``, ``[ella] {}<pr:su:pron>``, nesting …).  It is never guessed at:
every markup character (``[]{}<>``) that is not part of a well-formed edit or tagged word
stays in the text as it is, and each such piece is a *reading problem* naming the file and
line (``FILE:LINE: …``), in ``Document.meta["reading.problems"]`` (one a line), listed by
``gecformats validate`` (kind ``syntax``) and by ``convert`` (noted in its report); with
``strict=True`` the first is an error.  An edit without tags (``[a]{b}``) is read as an
edit without a type and reported too.  ``<<Location>>``-style placeholders are text.

Layouts read: one annotated file; a folder of the corpus (``<prompt>/<TERM>/``, its
``annotated/`` folder, or the corpus root: the files under ``annotated/``; the stray copies
in ``corrected/`` are skipped), the files of one essay and layer merged into one
multi-annotator document (``annotated.txt`` annotator 0, ``annotated (1).txt`` annotator 1;
v1 ``annotatorN`` folders annotator N-1), where their original texts are equal; and the
corpus' CSV dump (``csv/<prompt>.<TERM>.csv``, one document per row and layer, see
:func:`read_csv`).  ``Document.meta``: ``cowsl2h.layer`` (``annotated``, ``verbs``,
``a_personal``, ``gender_number``), ``cowsl2h.essay`` (``F17_Famous``), ``cowsl2h.file.K``
the file of annotator K, ``cowsl2h.bom.K`` a byte-order mark that file had.

The writer gives back the files byte for byte (:func:`dumps`, :func:`write`); what the
format has no place for (alternative corrections, optional edits, comments, paragraph
breaks, a detection-only edit on anything but one word) is refused or reported.

>>> doc = parse('Mi película [favorito]{favorita}<ga:adj> es []{el}<ab:det:art:def> cine<gat:noun>')
>>> doc.text, doc.corrected()
('Mi película favorito es  cine', 'Mi película favorita es el cine')
>>> [(e.start, e.end, e.corrections, e.type) for e in doc.edits]
[(12, 20, (('favorita',),), 'ga:adj'), (24, 24, (('el',),), 'ab:det:art:def'), (25, 29, (), 'gat:noun')]
>>> dumps(doc) == 'Mi película [favorito]{favorita}<ga:adj> es []{el}<ab:det:art:def> cine<gat:noun>'
True
"""

from __future__ import annotations

import bisect
import csv
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from gecformats.errors import GecFormatError
from gecformats.formats._inline import (annotators, chosen_annotator, one_file, ordered_edits,
                                        report_losses, same_text_groups)
from gecformats.io import atomic_directory, atomic_output, decode_utf8
from gecformats.model import MAX_ANNOTATORS, Document, Edit, make_edit
from gecformats.report import Report

NAME = "cowsl2h"
UNIT = "char"
SUFFIXES: tuple[str, ...] = ()
"""None: the corpus' files end in ``.txt`` (and its typos), so the format is named."""
ANNOTATORS = MAX_ANNOTATORS
"""A folder holds any number of annotators (a file each), so a conversion gives the writer
every annotator's edits."""

MAX_DOCUMENT = 20_000_000
"""The most characters one annotated file may have (COWSL2H's largest has about 10,000)."""

PROBLEMS = "reading.problems"
"""``Document.meta`` key: the reading problems, one ``FILE:LINE: message`` a line."""

_PLAIN = r"[^\[\]{}<>\n]"
_TAGS = r"(?:<[^\[\]{}<>\s]+>)"
MARKUP = re.compile(
    rf"(?P<edit>\[(?P<orig>{_PLAIN}*)\]\{{(?P<corr>{_PLAIN}*)\}}"
    rf"(?P<tags>{_TAGS}+|(?![\w\[\]{{}}<>])))"
    rf"|(?P<word>(?<!\w)\w+)(?P<wtags>{_TAGS}+)"
    r"|(?P<place><<[^<>\n]*>>)"
    r"|(?P<stray>[\[\]{}<>])")
"""One piece of markup: an edit (without tags only when no word or markup character
follows: ``[a]{b}ga:adj>`` is broken markup, not an untagged edit), a tagged word, a ``<<placeholder>>`` (text) or a markup
character that is part of neither (kept as text, reported)."""

TAG_JOIN = "+"
"""Joins the tag groups of one edit into its type (``<col:adj><ga:adj>`` → ``col:adj+ga:adj``)."""

LAYERS = ("annotated", "verbs", "a_personal", "gender_number")
"""The annotation layers of the corpus (v2, v2 verbs, v1 personal *a*, v1 gender/number)."""

CSV_COLUMNS = {
    "updated anntoation ann1": ("annotated", 0), "updated annotation ann1": ("annotated", 0),
    "updated annotation ann2": ("annotated", 1),
    "verbs annotation ann1": ("verbs", 0), "verbs annotation ann2": ("verbs", 1),
    "a personal annotator1": ("a_personal", 0), "a personal annotator2": ("a_personal", 1),
    "gender-number annotator1": ("gender_number", 0),
    "gender-number annotator2": ("gender_number", 1),
}
"""CSV column → (layer, annotator); ``anntoation`` is the corpus' own spelling."""


# --------------------------------------------------------------------------------------
# reading


def scan(text: str, *, id: str | None = None, annotator: int = 0, name: str = "<string>",
         first_line: int = 1) -> tuple[Document, list[tuple[int, str]]]:
    """Parse one annotated essay and list its reading problems.

    Args:
        text: the essay's annotated text (line ends LF).
        id: the document id.
        annotator: the annotator id of its edits.
        name: the file name for the problems.
        first_line: the line number of the text's first line in the file (a CSV field).

    Returns:
        The document (original text, character-offset edits in text order; its meta has
        ``annotators`` and, when there are problems, :data:`PROBLEMS`) and the problems as
        ``(line, message)`` pairs.
    """
    out: list[str] = []
    edits: list[Edit] = []
    problems: list[tuple[int, str]] = []
    strays: list[tuple[int, int]] = []  # file offsets of markup characters kept as text
    edit_spans: list[tuple[int, int]] = []
    pos = length = counted = 0
    line = first_line
    for m in MARKUP.finditer(text):
        out.append(text[pos:m.start()])
        length += m.start() - pos
        pos = m.end()
        if m.group("edit") is not None:
            orig, corr, tags = m.group("orig"), m.group("corr"), m.group("tags")
            etype = TAG_JOIN.join(tags[1:-1].split("><")) if tags else ""
            meta: tuple[tuple[str, str], ...] = () if tags else (("cowsl2h.untagged", "1"),)
            if not tags:
                line += text.count("\n", counted, m.start())
                counted = m.start()
                problems.append((line,
                                 f"an edit without tags {m.group()!r}: read as an edit "
                                 "without a type"))
            edits.append(make_edit(length, length + len(orig), ((corr,),) if corr else ((),),
                                   etype, True, "-NONE-", annotator, meta))
            edit_spans.append(m.span())
            out.append(orig)
            length += len(orig)
        elif m.group("word") is not None:
            word, tags = m.group("word"), m.group("wtags")
            edits.append(make_edit(length, length + len(word), (),
                                   TAG_JOIN.join(tags[1:-1].split("><")), True, "-NONE-",
                                   annotator, ()))
            edit_spans.append(m.span())
            out.append(word)
            length += len(word)
        else:
            if m.group("stray") is not None:
                strays.append(m.span())
            out.append(m.group())
            length += len(m.group())
    out.append(text[pos:])
    problems.extend(_stray_problems(text, strays, edit_spans, first_line))
    problems.sort()
    meta = {"annotators": str(annotator)}
    if problems:
        meta[PROBLEMS] = "\n".join(f"{name}:{line}: {message}" for line, message in problems)
    return Document("".join(out), tuple(edits), id, (), meta), problems


def _stray_problems(text: str, strays: list[tuple[int, int]], edit_spans: list[tuple[int, int]],
                    first_line: int) -> list[tuple[int, str]]:
    """One problem per piece of broken markup: markup characters kept as text, grouped
    while only non-space characters (or well-formed markup: nesting) lie between them.
    Linear in the text: the edit spans are in text order and never overlap."""
    starts = [s for s, _ in edit_spans]
    problems = []
    line, counted = first_line, 0
    i = 0
    while i < len(strays):
        start, end = strays[i]
        j = i + 1
        while j < len(strays) and (not any(c.isspace() for c in text[end:strays[j][0]]) or
                                   text[end:strays[j][0] + 1] == " {" or  # [a] {b}<t>
                                   _around(text, start, end, strays[j][0], starts, edit_spans)):
            end = strays[j][1]
            j += 1
        # widen to the whitespace-delimited chunk, for the message
        a = start
        while a > 0 and not text[a - 1].isspace() and start - a < 40:
            a -= 1
        b = end
        while b < len(text) and not text[b].isspace() and b - end < 40:
            b += 1
        what = "nested or broken markup" if _inside(a, b, starts, edit_spans) \
            else "markup that is not [original]{correction}<tags>"
        line += text.count("\n", counted, start)
        counted = start
        problems.append((line, f"{what} kept as text: {text[a:b]!r}"))
        i = j
    return problems


def _inside(a: int, b: int, starts: list[int], edit_spans: list[tuple[int, int]]) -> bool:
    """True when a well-formed edit lies within ``[a, b)``."""
    k = bisect.bisect_left(starts, a)
    return k < len(starts) and edit_spans[k][1] <= b


def _around(text: str, opening: int, end: int, closing: int, starts: list[int],
            edit_spans: list[tuple[int, int]]) -> bool:
    """True when a stray ``[`` at ``opening`` (its piece so far ending at ``end``, on one
    line) and a stray ``]`` at ``closing`` on the same line enclose a well-formed edit:
    nested markup, reported as one piece."""
    return text[opening] == "[" and text[closing] == "]" \
        and "\n" not in text[end:closing] and _inside(opening + 1, closing, starts, edit_spans)


def edit_lines(text: str, first_line: int = 1) -> list[int]:
    """The line of each edit and tagged word of an annotated text, in text order (the
    order of :func:`scan`'s edits)."""
    lines, line, counted = [], first_line, 0
    for m in MARKUP.finditer(text):
        if m.group("edit") is not None or m.group("word") is not None:
            line += text.count("\n", counted, m.start())
            counted = m.start()
            lines.append(line)
    return lines


def parse(text: str, *, id: str | None = None, annotator: int = 0, name: str = "<string>",
          strict: bool = False) -> Document:
    """Parse one annotated essay (see :func:`scan`).

    Raises:
        GecFormatError: with ``strict``, the first reading problem (``FILE:LINE``).
    """
    document, problems = scan(text, id=id, annotator=annotator, name=name)
    if strict and problems:
        raise GecFormatError(problems[0][1], name, problems[0][0], "syntax")
    return document


def _decode(data: bytes, name: str) -> str:
    text = decode_utf8(data, name)
    if len(text) > MAX_DOCUMENT:
        raise GecFormatError(f"more than {MAX_DOCUMENT:,} characters", name, None, "too-large")
    # CRLF and a lone CR read as LF, as every gecformats reader does (COWSL2H's files are LF)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def file_parts(path: str | os.PathLike[str]) -> tuple[str, str, str, int]:
    """What an annotated file's path says: ``(id, essay, layer, annotator)``.

    ``famous/F17/annotated/103377.F17_Famous.annotated (1).txt`` → ``("103377",
    "F17_Famous", "annotated", 1)``; ``…/a_personal/annotator2/129549.F17_FamousAPCL.txt``
    → ``("129549", "F17_Famous", "a_personal", 1)``; ``0001.annotated (1).txt`` (what
    :func:`write` names an essay without a name) → ``("0001", "", "annotated", 1)``.  The
    corpus' typos (``annnotated``, ``annotatede``) and a lower-case prompt are taken as they
    are.
    """
    p = Path(os.fspath(path))
    parts = p.name.split(".")
    id = parts[0]
    essay = parts[1] if len(parts) > 2 else ""
    if len(parts) == 3 and essay.startswith("ann"):  # <id>.annotated.txt, as written for an
        essay = ""                                    # essay without a name
    folders = p.parent.parts
    if "a_personal" in folders or "gender_number" in folders:
        layer = "a_personal" if "a_personal" in folders else "gender_number"
        essay = re.sub(r"(APC[LE]|GN[A-Z]{2})$", "", essay)
        k = re.fullmatch(r"annotator([0-9]+)", p.parent.name)
        annotator = int(k.group(1)) - 1 if k is not None and int(k.group(1)) >= 1 else 0
    else:
        layer = "verbs" if "verb" in p.name else "annotated"
        copy = re.search(r"\(([0-9]{1,3})\)", p.name)  # annotated (1).txt: annotator 1
        annotator = int(copy.group(1)) if copy is not None else 0
    return id, essay, layer, annotator


def read_file(path: str | os.PathLike[str], *, strict: bool = False) -> Document:
    """Read one annotated file (id, layer and annotator from its path, see
    :func:`file_parts`; a byte-order mark is kept in ``meta["cowsl2h.bom.K"]``, not in the
    text).

    Raises:
        GecFormatError: invalid UTF-8 or a file over :data:`MAX_DOCUMENT` characters (file
            and line named); with ``strict``, a reading problem.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(name, "rb") as fh:
        data = fh.read(MAX_DOCUMENT * 4 + 1)
    text = _decode(data, name)
    id, essay, layer, annotator = file_parts(name)
    bom = text.startswith("\ufeff")
    document = parse(text[1:] if bom else text, id=id, annotator=annotator, name=name,
                     strict=strict)
    meta = {**document.meta, "cowsl2h.layer": layer, "cowsl2h.essay": essay,
            f"cowsl2h.file.{annotator}": os.path.basename(name)}
    if bom:
        meta[f"cowsl2h.bom.{annotator}"] = "1"
    return document.replace(meta=meta)


def annotated_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The annotated files of a corpus folder: the ``*.txt`` files under an ``annotated``
    folder (the root, a prompt, a term or ``annotated/`` itself), else every ``*.txt``
    file outside ``essays/``, ``metadata/`` and ``corrected/``; in path order."""
    root = Path(os.fspath(folder))
    files = sorted(root.rglob("*.txt"))
    inside = [f for f in files if "annotated" in f.relative_to(root).parts[:-1]]
    if inside or root.name == "annotated":
        return inside or files
    return [f for f in files if not {"essays", "metadata", "corrected"}
            & set(f.relative_to(root).parts[:-1])]


def read(source: str | os.PathLike[str], *, strict: bool = False) -> Iterator[Document]:
    """Stream COWSL2H annotated essays.

    Args:
        source: one annotated file; a corpus folder (see :func:`annotated_files`): per
            essay and layer one document, the annotators' files merged (see :func:`merge`),
            in essay (id) order, each file read when its essay is reached; or a CSV dump
            (``.csv``, see :func:`read_csv`).
        strict: a reading problem (broken markup) is an error instead of text.

    Raises:
        GecFormatError: (``FILE:LINE``) invalid UTF-8, a CSV that is not the corpus'
            layout, a folder without annotated files; with ``strict``, broken markup.
        OSError: a file cannot be read.
    """
    path = Path(os.fspath(source))
    if path.is_dir():
        groups: dict[tuple[str, str, str, str], list[tuple[int, Path]]] = {}
        for file in annotated_files(path):
            id, essay, layer, k = file_parts(file)
            rel = str(file.parent.relative_to(path))
            where = rel if layer in ("annotated", "verbs") else str(Path(rel).parent)
            groups.setdefault((where, essay, id, layer), []).append((k, file))
        if not groups:
            raise GecFormatError("no COWSL2H annotated files (*.txt) in the folder", str(path))
        for key in sorted(groups, key=lambda g: (g[0], g[1], _number(g[2]), g[2],
                                                  LAYERS.index(g[3]))):
            files = sorted(groups[key])
            yield from merge([_relative(read_file(f, strict=strict), f, path)
                              for _, f in files])
        return
    if path.suffix.lower() == ".csv":
        yield from read_csv(path, strict=strict)
        return
    yield read_file(path, strict=strict)


def _number(id: str) -> int:
    return int(id) if id.isdigit() and len(id) < 16 else -1


def _relative(document: Document, file: Path, root: Path) -> Document:
    """The document with its ``cowsl2h.file.K`` and the files of its reading problems as
paths under the folder read."""
    meta = dict(document.meta)
    relative = file.relative_to(root).as_posix()
    for key in meta:
        if key.startswith("cowsl2h.file."):
            meta[key] = relative
    if PROBLEMS in meta:  # named under the folder read, as the files to write back are
        meta[PROBLEMS] = "\n".join(relative + p[len(str(file)):]
                                   for p in meta[PROBLEMS].split("\n"))
    return document.replace(meta=meta)


def merge(documents: list[Document]) -> Iterator[Document]:
    """The annotators' documents of one essay and layer as one document: the first one's
    text and id, every edit, ``meta["annotators"]`` listing them all (and each one's file,
    byte-order mark and reading problems).  Documents whose original text differs from
    the first's (an annotator changed the essay outside the markup) stay documents of their
    own, with the same id.

    Raises:
        GecFormatError: two documents of the same annotator.
    """
    for group in same_text_groups(documents):
        if len(group) == 1:
            yield group[0]
            continue
        ids = [a for d in group for a in d.meta.get("annotators", "0").split(",")]
        if len(set(ids)) != len(ids):
            raise GecFormatError(f"essay {group[0].id}: two files of the same annotator "
                                 f"({', '.join(d.meta.get('cowsl2h.file.' + d.meta.get('annotators', '0'), '?') for d in group)})")
        meta: dict[str, str] = {}
        for d in group:
            meta.update(d.meta)
        meta["annotators"] = ",".join(ids)
        problems = [d.meta[PROBLEMS] for d in group if PROBLEMS in d.meta]
        if problems:
            meta[PROBLEMS] = "\n".join(problems)
        yield group[0].replace(edits=tuple(e for d in group for e in d.edits), meta=meta)


def read_csv(path: str | os.PathLike[str], *, strict: bool = False) -> Iterator[Document]:
    """Read the corpus' CSV dump (``csv/<prompt>.<TERM>.csv``: RFC 4180 quoting, 27
    columns, a header with the annotation columns of :data:`CSV_COLUMNS`).

    Each row gives one document per layer with text: id the ``id`` column,
    ``meta["cowsl2h.layer"]``, ``cowsl2h.essay`` (``<quarter>_<prompt>``),
    ``cowsl2h.column.K`` the column of annotator K.  The two columns of a layer are two
    annotators, merged as by :func:`merge`; which of the corpus' ``annotated.txt`` /
    ``annotated (1).txt`` lands in ``ann1`` varies by row (spec §3.3), so annotator 0 here
    is the ``ann1`` column, not the file without ``(1)``.  The metadata columns are not
    read (for F20 and S21 they hold other questionnaire fields than their names say).
    Problems name the CSV file and the line of the problem inside its field.

    Raises:
        GecFormatError: (``FILE:LINE``) no ``id`` or annotation column in the header, a
            row of another length than the header, invalid UTF-8, malformed quoting; with
            ``strict``, broken markup.
    """
    name = os.fspath(path)
    with open(name, "rb") as fh:
        data = fh.read(MAX_DOCUMENT * 4 + 1)
    text = _decode(data, name).removeprefix("\ufeff")
    rows = csv.reader(_lines(text), strict=True)
    try:
        header = next(rows, None)
        if header is None:
            return
        columns = {i: CSV_COLUMNS[h] for i, h in enumerate(header) if h in CSV_COLUMNS}
        if "id" not in header or not columns:
            raise GecFormatError("not a COWSL2H CSV dump (no 'id' or annotation column in "
                                 "the header)", name, 1, "syntax")
        at = {h: header.index(h) for h in ("id", "prompt", "quarter") if h in header}
        line = rows.line_num + 1
        for row in rows:
            start, line = line, rows.line_num + 1
            if not row:
                continue
            if len(row) != len(header):
                raise GecFormatError(f"{len(row)} fields, the header has {len(header)}", name,
                                     start, "syntax")
            yield from _row_documents(row, columns, at, name, start, strict)
    except csv.Error as exc:
        raise GecFormatError(f"malformed CSV ({exc})", name, rows.line_num, "syntax") from None


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their line ends, for :mod:`csv`."""
    return (m.group() for m in re.finditer(r"[^\n]*\n|[^\n]+\Z", text))


def _row_documents(row: list[str], columns: dict[int, tuple[str, int]], at: dict[str, int],
                   name: str, start: int, strict: bool) -> Iterator[Document]:
    """The documents of one CSV row (one per layer with text)."""
    id = row[at["id"]]
    essay = "_".join(row[at[h]] for h in ("quarter", "prompt") if h in at)
    by_layer: dict[str, list[Document]] = {}
    for i, (layer, k) in columns.items():
        if not row[i].strip():
            continue
        first_line = start + sum(f.count("\n") for f in row[:i])
        document, problems = scan(row[i], id=id, annotator=k, name=name, first_line=first_line)
        if strict and problems:
            raise GecFormatError(problems[0][1], name, problems[0][0], "syntax")
        meta = {**document.meta, "cowsl2h.layer": layer, "cowsl2h.essay": essay,
                f"cowsl2h.column.{k}": str(i)}
        by_layer.setdefault(layer, []).append(document.replace(meta=meta))
    for layer in LAYERS:
        if layer in by_layer:
            yield from merge(by_layer[layer])


# --------------------------------------------------------------------------------------
# writing


def dumps(document: Document, annotator: int | None = None) -> str:
    """The annotated text of one annotator of ``document`` (without a byte-order mark).

    Args:
        document: the document.
        annotator: whose edits (default: the only annotator it has).

    Raises:
        ValueError: several annotators and none named, or a document that cannot be written
            so that it reads back the same: overlapping edits or edits out of range,
            alternative corrections, markup characters in an edit, a detection-only edit
            on anything but one whole word, or text that would read as markup.
    """
    annotator = chosen_annotator(document, annotator)
    edits = ordered_edits(document, annotator, key=lambda e: (e.start, e.end > e.start))
    text = document.text
    out: list[str] = []
    pos = 0
    for edit in edits:
        if len(edit.corrections) > 1:
            raise ValueError(f"document {document.id}: edit {edit.start}-{edit.end} has "
                             "alternative corrections, which COWSL2H cannot hold")
        out.append(text[pos:edit.start])
        original = text[edit.start:edit.end]
        tags = "".join(f"<{t}>" for t in edit.type.split(TAG_JOIN)) if edit.type else ""
        if not edit.corrections:
            out.append(original + tags)
        else:
            out.append(f"[{original}]{{{''.join(edit.corrections[0])}}}{tags}")
        pos = edit.end
    out.append(text[pos:])
    written = "".join(out)
    again = parse(written, id=document.id, annotator=annotator)
    if again.text != text or [(e.start, e.end, e.corrections, e.type) for e in again.edits] != \
            [(e.start, e.end, _one(e.corrections), e.type) for e in edits]:
        raise ValueError(f"document {document.id}: cannot be written as COWSL2H annotated "
                         "text that reads back the same (markup characters in an edit, a "
                         "type with '<', '>' or a space, a tagged span that is not one word, "
                         "or edits that touch one point)")
    return written


def _one(corrections: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Corrections as the reader gives them back (the strings of one correction joined)."""
    return tuple((("".join(c),) if "".join(c) else ()) for c in corrections)


def _file_name(document: Document, k: int, n: int) -> str:
    """The file of annotator ``k`` of ``document`` (the ``n``-th written)."""
    given = document.meta.get(f"cowsl2h.file.{k}")
    if given:
        return given
    id = document.id if document.id is not None else f"{n:04d}"
    essay = document.meta.get("cowsl2h.essay")
    stem = f"{id}.{essay}" if essay else id
    kind = "annotated_verbs" if document.meta.get("cowsl2h.layer") == "verbs" else "annotated"
    return f"{stem}.{kind}.txt" if k == 0 else f"{stem}.{kind} ({k}).txt"


def write(documents: Iterable[Document], dest: str | os.PathLike[str]) -> Report:
    """Write documents as COWSL2H annotated files, whole or not at all.

    Args:
        documents: the documents, streamed.
        dest: a folder (created if needed): each annotator's file under the name it was
            read from (``meta["cowsl2h.file.K"]``, a path inside the folder), else
            ``<id>[.<essay>].annotated.txt`` for annotator 0 and ``… (K).txt`` for K; or a
            ``.txt`` file, for exactly one document with one annotator.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` counts files); optional
        edits, comments and paragraph breaks, which the format has no place for, are
        reported as dropped.

    Raises:
        UsageError: a ``.txt`` file given for more than one document or annotator (the
            message says to give a folder).
        ValueError: two files of one name, an unsafe file name, or a document :func:`dumps`
            refuses.
    """
    report = Report()
    name = os.fspath(dest)
    if name.endswith(".txt") and not os.path.isdir(name):
        with atomic_output(name) as fh:
            for document in documents:
                one_file(name, document, report.sentences, "COWSL2H")
                report_losses(document, report)
                k = annotators(document)
                fh.write(("\ufeff" if document.meta.get(f"cowsl2h.bom.{k[0]}") else "")
                         + dumps(document))
                report.sentences += 1
        return report
    with atomic_directory(dest) as tmp:
        seen: set[str] = set()
        for n, document in enumerate(documents, 1):
            report_losses(document, report)
            for k in annotators(document):
                file = _file_name(document, k, n)
                parts = Path(file).parts
                if not parts or Path(file).is_absolute() or ".." in parts or "\\" in file:
                    raise ValueError(f"file name {file!r} is not a path inside the folder")
                if file in seen:
                    raise ValueError(f"two documents would be written to {file}")
                seen.add(file)
                (tmp / file).parent.mkdir(parents=True, exist_ok=True)
                with atomic_output(tmp / file) as fh:
                    fh.write(("\ufeff" if document.meta.get(f"cowsl2h.bom.{k}") else "")
                             + dumps(document, k))
                report.sentences += 1
    return report


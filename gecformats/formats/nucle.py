"""NUCLE SGML: the NUS Corpus of Learner English and the CoNLL-2013/2014 test sets.

One ``<DOC nid="…">`` per essay: ``<TEXT>`` holds the paragraphs (``<TITLE>`` and ``<P>``,
numbered together from 0 in file order), ``<ANNOTATION teacher_id="…">`` the mistakes::

    <MISTAKE start_par="1" start_off="42" end_par="1" end_off="46">
    <TYPE>ArtOrDet</TYPE>
    <CORRECTION></CORRECTION>
    </MISTAKE>

Offsets count characters within a paragraph's text.  A paragraph's text is what lies between
its tags minus one leading and one trailing line break, and an element holding only white
space is empty: the NUS reader's rules (``nuclesgmlparser.py``), which the official M2
files were made with.  One file is one annotator (``official-2014.0.sgml`` is annotator 0).

Each ``DOC`` reads into a :class:`~gecformats.model.Document`: its paragraphs joined by
``\\n`` with a break at each paragraph start, its mistakes as character-offset edits (an empty
correction is a deletion; a mistake across paragraphs is kept, and the conversion to tokens
reports it as crossing sentences), ``id`` the ``nid``, ``meta`` the teacher and the
paragraph kinds.  :func:`write` writes documents back as NUCLE SGML.

The file is SGML, not XML (the NUS reader is ``sgmllib``): it is scanned tag by tag, one
``DOC`` at a time, with no entity expansion; a ``DOC`` larger than :data:`MAX_DOCUMENT`
characters is refused.

>>> docs = list(parse('''<DOC nid="7">
... <TEXT>
... <P>
... He go to school .
... </P>
... </TEXT>
... <ANNOTATION teacher_id="1">
... <MISTAKE start_par="0" start_off="3" end_par="0" end_off="5">
... <TYPE>SVA</TYPE>
... <CORRECTION>goes</CORRECTION>
... </MISTAKE>
... </ANNOTATION>
... </DOC>'''))
>>> d = docs[0]
>>> d.id, d.text, d.corrected()
('7', 'He go to school .', 'He goes to school .')
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import replace
from itertools import zip_longest

from gecformats.errors import GecFormatError
from gecformats.io import atomic_output, string_lines, text_lines
from gecformats.model import MAX_DIGITS, Document, Edit, make_edit
from gecformats.report import Report
from gecformats.io import own_lines

NAME = "nucle"
UNIT = "char"
SUFFIXES: tuple[str, ...] = (".sgml",)

MAPPING = "conll"
"""The default character → token mapping of NUCLE → M2 (with ``shrink``): the one that
reproduces the organisers' CoNLL-2013/14 M2 files (see :func:`gecformats.convert.convert`)."""

MAX_DOCUMENT = 20_000_000
"""The most characters one ``DOC`` may have (the largest NUCLE essay has about 20,000)."""

_TAG = re.compile(r"<(/?)([A-Za-z_]+)((?:\s+[A-Za-z_]+\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]*))*)\s*>")
_ATTR = re.compile(r"([A-Za-z_]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]*))")
_OFFSETS = ("start_par", "start_off", "end_par", "end_off")


def read(source: str | os.PathLike[str], *, annotator: int = 0,
         ann: Sequence[str | os.PathLike[str]] = (),
         alt: Sequence[str | os.PathLike[str]] = ()) -> Iterator[Document]:
    """Stream the documents of a NUCLE SGML file, one ``DOC`` at a time.

    Args:
        source: the file (``.gz`` read transparently, ``-`` for standard input).
        annotator: the annotator id of its mistakes (one file is one annotator).
        ann: further annotators' files of the same essays (``official-2014.1.sgml`` beside
            ``official-2014.0.sgml``), read in step with ``source``: file *k* gives
            annotator ``annotator + k``, and each document holds every annotator's edits
            with their ids in ``meta["annotators"]`` (see :func:`combine`).
        alt: alternative-annotation files (CoNLL-2014's ``alternative-team*.sgml``):
            mistakes only, for the sentences each offers another correction of; they
            become the annotators after those of ``source`` and ``ann``, listed in
            ``meta["partial_annotators"]`` (see :func:`combine`).

    Yields:
        One :class:`~gecformats.model.Document` per ``DOC``.

    Raises:
        GecFormatError: ``FILE:LINE: message`` for a malformed document (text outside a
            ``DOC``, an unclosed element, a mistake without offsets or with offsets outside
            its paragraphs, a ``DOC`` over :data:`MAX_DOCUMENT` characters), or annotator
            files whose essays differ (``nid`` or text).
        OSError: the file cannot be read.
    """
    if ann or alt:
        yield from combine([source, *ann], first=annotator, alternatives=alt)
        return
    with text_lines(source) as lines:
        yield from _documents(lines, os.fspath(source), annotator)


def combine(sources: Sequence[str | os.PathLike[str]], *, first: int = 0,
            alternatives: Sequence[str | os.PathLike[str]] = ()) -> Iterator[Document]:
    """Stream the documents of several annotators' SGML files of the same essays, merged.

    The files are read in step, one ``DOC`` from each at a time; file *k* is annotator
    ``first + k``.  Each merged document has the first file's text and metadata, every
    file's mistakes (``Edit.annotator`` telling whose), ``meta["annotators"]`` listing all
    the ids (an annotator without mistakes in an essay is still one of its annotators) and
    ``meta["nucle.teacher_id"]`` the teachers, comma-separated in annotator order.

    ``alternatives`` are files in the layout of CoNLL-2014's ``alternative-team*.sgml``:
    ``DOC`` s without ``TEXT`` (offsets are into the essay of the same ``nid``), only for
    the essays they have something for, in the same order, and mistakes only for the
    sentences they offer an alternative correction of (a ``noop`` mistake over a sentence:
    the sentence may stay as it is).  Alternative file *j* is annotator
    ``first + len(sources) + j``, an annotator only of the sentences it has mistakes in:
    its id goes to ``meta["partial_annotators"]``, not ``meta["annotators"]``.

    Raises:
        GecFormatError: a file ends early or has more essays, an essay's ``nid`` or text
            differs from the first file's, or an alternative file names an essay the first
            file does not have (or not in its order); file and line named.
    """
    names = [os.fspath(s) for s in sources]
    alt_names = [os.fspath(a) for a in alternatives]
    with ExitStack() as stack:
        streams = [_documents(own_lines(stack.enter_context(text_lines(s)), s), n, first + k)
                   for k, (s, n) in enumerate(zip(sources, names))]
        alt_chunks = [_chunks(own_lines(stack.enter_context(text_lines(a)), a), n)
                      for a, n in zip(alternatives, alt_names)]
        pending = [next(c, None) for c in alt_chunks]
        ids = ",".join(str(first + k) for k in range(len(names)))
        alt_ids = [first + len(names) + j for j in range(len(alt_names))]
        for number, docs in enumerate(zip_longest(*streams), 1):
            base = docs[0]
            for name, doc in zip(names[1:], docs[1:]):
                if base is None or doc is None:
                    short = names[0] if base is None else name
                    raise GecFormatError(f"has fewer essays than the other annotator files "
                                         f"(essay {number} is missing)", short)
                if doc.id != base.id or doc.text != base.text:
                    what = "nid" if doc.id != base.id else "text"
                    raise GecFormatError(
                        f"essay {number} (nid {doc.id}) differs in its {what} from "
                        f"{names[0]}'s (nid {base.id}): annotator files must hold the same "
                        "essays in the same order", name, _first_line(doc))
            assert base is not None
            edits = [e for d in docs if d is not None for e in d.edits]
            for j, chunks in enumerate(alt_chunks):
                while pending[j] is not None and _nid(pending[j][0]) == base.id:  # type: ignore[index]
                    chunk, line = pending[j]  # type: ignore[misc]
                    alt = _document(chunk, alt_names[j], line, alt_ids[j], text_of=base)
                    if alt.text != base.text:
                        raise GecFormatError(f"essay nid {base.id} differs in its text from "
                                             f"{names[0]}'s", alt_names[j], line)
                    edits += alt.edits
                    pending[j] = next(chunks, None)
            teachers = ",".join(d.meta.get("nucle.teacher_id", "") for d in docs if d)
            meta = {**base.meta, "annotators": ids, "nucle.teacher_id": teachers}
            if alt_ids:
                meta["partial_annotators"] = ",".join(map(str, alt_ids))
            yield replace(base, edits=tuple(edits), meta=meta)
        for j, left in enumerate(pending):
            if left is not None:
                raise GecFormatError(f"essay nid {_nid(left[0])} is not in {names[0]} (or not "
                                     "in its order)", alt_names[j], left[1])


def _nid(chunk: str) -> str | None:
    """The ``nid`` of a ``<DOC …>`` string."""
    match = _TAG.match(chunk.lstrip())
    return _attributes(match.group(3)).get("nid") if match else None


def _first_line(doc: Document) -> int | None:
    """The line of a document's first mistake, if it has one (for error messages)."""
    for e in doc.edits:
        return int(e.get_meta("nucle.line") or 0) or None
    return None


def parse(text: str, *, annotator: int = 0, name: str = "<string>") -> Iterator[Document]:
    """The documents of NUCLE SGML ``text`` (see :func:`read`)."""
    yield from _documents(string_lines(text, name), name, annotator)


def _documents(lines: Iterator[str], name: str, annotator: int) -> Iterator[Document]:
    """Cut the lines into ``DOC`` s and parse each."""
    for chunk, first in _chunks(lines, name):
        yield _document(chunk, name, first, annotator)


def _chunks(lines: Iterator[str], name: str) -> Iterator[tuple[str, int]]:
    """The ``<DOC>…</DOC>`` strings of the lines, each with its first line number."""
    chunk: list[str] = []
    size = 0
    first = 0
    for lineno, line in enumerate(lines, 1):
        if not chunk:
            if not line.strip():
                continue
            if not line.lstrip().startswith("<DOC"):
                raise GecFormatError(f"expected <DOC>, found {line.strip()[:40]!r}", name,
                                     lineno)
            first = lineno
        chunk.append(line)
        size += len(line)
        if size > MAX_DOCUMENT:
            raise GecFormatError(f"a DOC of more than {MAX_DOCUMENT:,} characters", name,
                                 first, "too-large")
        if "</DOC>" in line:
            yield "".join(chunk), first
            chunk, size = [], 0
    if chunk:
        raise GecFormatError("the DOC is not closed (</DOC> missing)", name, first)


def _data(text: str) -> str:
    """An element's text as the NUS reader keeps it: white space alone is empty, else one
    leading and one trailing line break go."""
    if not text.strip():
        return ""
    if text.startswith("\n"):
        text = text[1:]
    if text.endswith("\n"):
        text = text[:-1]
    return text


def _attributes(raw: str) -> dict[str, str]:
    return {m.group(1).lower(): next(g for g in m.groups()[1:] if g is not None)
            for m in _ATTR.finditer(raw)}


def _document(doc: str, name: str, first_line: int, annotator: int,
              text_of: Document | None = None) -> Document:
    """One ``<DOC>…</DOC>`` string into a document; a ``DOC`` without ``<TEXT>`` (an
    alternative-annotation file's) takes the paragraphs of ``text_of``."""
    paragraphs: list[str] = []
    kinds: list[str] = []
    mistakes: list[dict[str, object]] = []
    meta: dict[str, str] = {}
    stack: list[tuple[str, int, int]] = []  # (tag, end of the start tag, line)
    nid: str | None = None
    teacher: str | None = None

    # where each line starts, so that a tag's line is a bisection, not a count from the
    # start of the DOC (which made a DOC quadratic in its size × its mistakes)
    breaks = [m.start() for m in re.finditer("\n", doc)]

    def line_of(offset: int) -> int:
        return first_line + bisect_left(breaks, offset)

    for match in _TAG.finditer(doc):
        closing, tag = match.group(1) == "/", match.group(2).upper()
        if not closing:
            attrs = _attributes(match.group(3))
            if tag == "DOC":
                nid = attrs.get("nid")
            elif tag == "ANNOTATION":
                teacher = attrs.get("teacher_id")
            elif tag == "MISTAKE":
                try:
                    values = {k: attrs[k] for k in _OFFSETS}
                except KeyError as missing:
                    raise GecFormatError(f"<MISTAKE> without {missing.args[0]}", name,
                                         line_of(match.start())) from None
                for key, value in values.items():
                    if not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS:
                        raise GecFormatError(f"<MISTAKE> {key}={value!r} is not a number", name,
                                             line_of(match.start()), "bad-number")
                mistakes.append({k: int(v) for k, v in values.items()}
                                | {"line": line_of(match.start())})
            stack.append((tag, match.end(), line_of(match.start())))
            continue
        if not stack or stack[-1][0] != tag:
            raise GecFormatError(f"</{tag}> closes nothing open" if not stack else
                                 f"</{tag}> where <{stack[-1][0]}> (line {stack[-1][2]}) is open",
                                 name, line_of(match.start()))
        _, start, _ = stack.pop()
        content = _data(doc[start:match.start()])
        if tag in ("P", "TITLE"):
            paragraphs.append(content)
            kinds.append(tag)
        elif tag in ("TYPE", "CORRECTION", "COMMENT") and stack and stack[-1][0] == "MISTAKE":
            if not mistakes:
                raise GecFormatError(f"<{tag}> outside a <MISTAKE>", name, line_of(start))
            mistakes[-1][tag.lower()] = content
    if stack:
        raise GecFormatError(f"<{stack[-1][0]}> is not closed", name, stack[-1][2])
    if not kinds and text_of is not None:
        paragraphs = _paragraphs(text_of)
        kinds = text_of.meta.get("nucle.paragraphs", "").split(",")
    starts = []
    offset = 0
    for p in paragraphs:
        starts.append(offset)
        offset += len(p) + 1
    text = "\n".join(paragraphs)
    edits: list[Edit] = []
    for m in mistakes:
        where = int(m["line"])  # type: ignore[arg-type]
        spans = []
        for par, off in ((m["start_par"], m["start_off"]), (m["end_par"], m["end_off"])):
            assert isinstance(par, int) and isinstance(off, int)
            if par >= len(paragraphs) or off > len(paragraphs[par]):
                raise GecFormatError(f"<MISTAKE> offset {par}:{off} is outside the document's "
                                     f"{len(paragraphs)} paragraphs", name, where,
                                     "offset-out-of-range")
            spans.append(starts[par] + off)
        start, end = spans
        if end < start:
            raise GecFormatError(f"<MISTAKE> ends ({m['end_par']}:{m['end_off']}) before it "
                                 f"starts ({m['start_par']}:{m['start_off']})", name, where)
        correction = str(m.get("correction", "")).replace("\n", "")
        meta_items: tuple[tuple[str, str], ...] = (("nucle.line", str(where)),)
        if "comment" in m:
            meta_items += (("nucle.comment", str(m["comment"])),)
        edits.append(make_edit(start, end, ((correction,) if correction else (),),
                               str(m.get("type", "")), True, "-NONE-", annotator, meta_items))
    if nid is not None:
        meta["nucle.nid"] = nid
    if teacher is not None:
        meta["nucle.teacher_id"] = teacher
    meta["nucle.paragraphs"] = ",".join(kinds)
    return Document(text, tuple(edits), nid, tuple(starts[1:]), meta)


# ------------------------------------------------------------------------------ writing


def _paragraphs(doc: Document) -> list[str]:
    """A document's paragraphs: its text cut at its breaks (the ``\\n`` before each goes)."""
    bounds = [0, *doc.breaks, len(doc.text) + 1]
    return [doc.text[a:b - 1] if b - 1 >= a else "" for a, b in zip(bounds, bounds[1:])]


def _escape(text: str) -> str:
    if "<" in text or ">" in text:
        raise ValueError(f"NUCLE SGML cannot hold '<' or '>' in text: {text[:40]!r}")
    return text


def dumps(documents: Iterable[Document]) -> str:
    """NUCLE SGML for ``documents`` (see :func:`write`)."""
    out: list[str] = []
    for n, doc in enumerate(documents, 1):
        paragraphs = _paragraphs(doc)
        bounds = [0, *doc.breaks, len(doc.text) + 1]
        kinds = doc.meta.get("nucle.paragraphs", "").split(",")
        nid = doc.meta.get("nucle.nid") or doc.id or str(n)
        out.append(f'<DOC nid="{nid}">\n<TEXT>\n')
        for k, p in enumerate(paragraphs):
            tag = kinds[k] if k < len(kinds) and kinds[k] in ("P", "TITLE") else "P"
            out.append(f"<{tag}>\n{_escape(p)}\n</{tag}>\n")
        out.append("</TEXT>\n")
        teacher = doc.meta.get("nucle.teacher_id", "0")
        out.append(f'<ANNOTATION teacher_id="{teacher}">\n')
        starts = bounds[:-1]

        def locate(offset: int) -> tuple[int, int]:
            par = max(bisect_right(starts, offset) - 1, 0)
            return par, offset - starts[par]

        for e in doc.edits:
            (sp, so), (ep, eo) = locate(e.start), locate(e.end)
            correction = "".join(e.corrections[0]) if e.corrections else ""
            out.append(f'<MISTAKE start_par="{sp}" start_off="{so}" end_par="{ep}" '
                       f'end_off="{eo}">\n<TYPE>{_escape(e.type)}</TYPE>\n'
                       f"<CORRECTION>{_escape(correction)}</CORRECTION>\n")
            comment = dict(e.meta).get("nucle.comment")
            if comment is not None:
                out.append(f"<COMMENT>{_escape(comment)}</COMMENT>\n")
            out.append("</MISTAKE>\n")
        out.append("</ANNOTATION>\n</DOC>\n")
    return "".join(out)


def write(documents: Iterable[Document], dest: str | os.PathLike[str]) -> Report:
    """Write documents as NUCLE SGML, streaming, whole or not at all.

    Paragraphs are the document's text cut at its ``breaks`` (the ``\\n`` before each break
    is the paragraph separator); each edit becomes a ``MISTAKE`` with its first correction.
    What SGML cannot hold is reported: further alternatives and detection-only edits (an
    empty ``CORRECTION`` is a deletion).

    Raises:
        GecFormatError: text with ``<`` or ``>``, naming the document.
        OSError: the file cannot be written.
    """
    report = Report()
    count = 0
    with atomic_output(dest) as fh:
        for count, doc in enumerate(documents, 1):
            for e in doc.edits:
                if len(e.corrections) > 1:
                    report.drop("alternatives", f"{doc.id}: {e.start}-{e.end}")
                if not e.corrections:
                    report.drop("detection-only", f"{doc.id}: {e.start}-{e.end}")
            try:
                fh.write(dumps([doc]))
            except ValueError as exc:
                raise GecFormatError(f"document {count}: {exc}", os.fspath(dest)) from None
    report.sentences = count  # the count the CLI reports: documents, for this format
    return report

"""UA-GEC annotated text (Ukrainian GEC, Syvokon et al. 2023): reader and writer.

One document per file and one file per annotator, ``NNNN.aK.ann`` (annotator ``K``
from 1), the corrections inline::

    "Я не є доктор"{=>,:::error_type=Punctuation} {-=>—:::error_type=Punctuation} сказав я

An annotation is ``{SOURCE=>TARGET:::error_type=T}``: ``SOURCE`` empty is an insertion,
``TARGET`` empty a deletion, ``TARGET`` may hold ``|``-separated alternatives or
``NO_SUGGESTIONS`` (detection only), and the two characters ``\\n`` stand for a line break.
Annotations are found exactly as UA-GEC's own parser finds them (the regex
:data:`ANNOTATION` of ``ua_gec.AnnotatedText`` 2.1.3), and ``\\n`` is unescaped in the whole
text, so the original and corrected texts of a document (:attr:`Document.text`,
:meth:`Document.corrected`) are byte for byte UA-GEC's ``source/`` and ``target/`` files.

Each file reads into a :class:`~gecformats.model.Document`: ``text`` the original text,
the edits with **character** offsets into it (computed on the unescaped text, so they are
right after an escape outside braces too, unlike the official ``Annotation.start``),
``type`` the ``error_type``, ``Edit.annotator`` ``K - 1`` (annotator 0 = ``a1``, as in the
UA-GEC M2 files), ``id`` the document number ``NNNN`` and ``meta["annotators"]`` the
annotator ids.  A folder reads as its documents in number order, the files of one document
merged into one multi-annotator document (their original texts are equal; where they are
not, as for the leading white space of four ``a1`` files of the corpus, each file stays a
document of its own, with the same id).

What writing back needs is kept: ``Edit.meta`` ``uagec.meta`` holds the text after
``:::`` when it is not exactly ``error_type=T`` (other keys), ``uagec.source`` /
``uagec.target`` the escaped source/target as written when escaping the model's strings
would not give it back (a real line break in a source); ``Document.meta``
``uagec.escaped`` the offsets of line breaks written ``\\n`` outside any annotation, and
``uagec.literal`` how many ``{…=>…}`` groups UA-GEC's parser leaves as text because their
correction holds a real line break (train 1049, 1454; kept as text here too).  So the
writer gives back the corpus files byte for byte.

Malformed markup is an error naming the file and line (``FILE:LINE``), never a guess: an
``=>`` outside any annotation (an unclosed ``{``), ``:::`` meta without ``=>``, a
backslash inside an annotation that is not ``\\n`` (an unknown escape), two insertions at
one point (UA-GEC's parser refuses them).  Braces without ``=>`` are text, as for UA-GEC
(``{cк}`` in train 0699).

>>> doc = parse('Він {прийшов=>прийшла:::error_type=G/Gender} додому{=>.:::error_type=Punctuation}')
>>> doc.text, doc.corrected()
('Він прийшов додому', 'Він прийшла додому.')
>>> doc.edits[0]
Edit(start=4, end=11, corrections=(('прийшла',),), type='G/Gender', required=True, comment='-NONE-', annotator=0)
>>> dumps(doc) == 'Він {прийшов=>прийшла:::error_type=G/Gender} додому{=>.:::error_type=Punctuation}'
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from gecformats.errors import GecFormatError
from gecformats.formats._inline import (annotators, chosen_annotator, one_file, ordered_edits,
                                        report_losses, same_text_groups)
from gecformats.io import atomic_directory, atomic_output, decode_utf8
from gecformats.model import MAX_ANNOTATORS, Document, Edit, make_edit
from gecformats.report import Report

NAME = "uagec"
UNIT = "char"
SUFFIXES: tuple[str, ...] = (".ann",)
"""``.ann``; a CoNLL annotation file (``.conll.ann``) is refused with a pointer to its
``.conll`` file."""
ANNOTATORS = MAX_ANNOTATORS
"""A folder holds any number of annotators (a file each), so a conversion gives the writer
every annotator's edits."""

ANNOTATION = re.compile(r"\{([^{]*)=>(.*?)(:::[^:][^}]*)?\}")
"""UA-GEC's own annotation pattern (``ua_gec.AnnotatedText``, used with ``finditer``):
``.`` does not match a line break, so a correction with a real one is no annotation."""

NO_SUGGESTIONS = "NO_SUGGESTIONS"
ESCAPE = "\\n"
MAX_DOCUMENT = 20_000_000
"""The most characters one annotated file may have (UA-GEC's largest has about 300,000)."""

_FILE_NAME = re.compile(r"(?P<id>.+?)\.a(?P<k>[0-9]{1,3})\.ann")
_LITERAL = re.compile(r"\{[^{}]*=>[^{}]*\}")


# --------------------------------------------------------------------------------------
# reading


def parse(text: str, *, id: str | None = None, annotator: int = 0,
          name: str = "<string>") -> Document:
    """Parse one annotated document.

    Args:
        text: the file's text.
        id: the document id (``"0002"``).
        annotator: the annotator id of its edits (``K - 1`` for ``NNNN.aK.ann``).
        name: the file name for error messages.

    Returns:
        The document: original text, character-offset edits in file order.

    Raises:
        GecFormatError: ``FILE:LINE`` malformed markup (see the module docstring).
    """
    pieces: list[str] = []   # the original, still escaped
    spans: list[tuple[int, int, re.Match[str]]] = []  # raw original offsets of each edit
    outside: list[tuple[int, int]] = []  # raw file offsets of the text between annotations
    raw_at: list[tuple[int, int]] = []   # (original raw offset, file offset) of each piece
    pos = length = 0
    for match in ANNOTATION.finditer(text):
        outside.append((pos, match.start()))
        raw_at.append((length, pos))
        pieces.append(text[pos:match.start()])
        length += match.start() - pos
        source = match.group(1)
        raw_at.append((length, match.start(1)))
        spans.append((length, length + len(source), match))
        pieces.append(source)
        length += len(source)
        pos = match.end()
    outside.append((pos, len(text)))
    raw_at.append((length, pos))
    pieces.append(text[pos:])
    literal = _check_outside(text, outside, name)
    raw = "".join(pieces)
    escapes = [m.start() for m in re.finditer(re.escape(ESCAPE), raw)]
    original = raw.replace(ESCAPE, "\n")
    edits: list[Edit] = []
    escaped_outside = _outside_escapes(escapes, spans)
    last_insertion = -1
    line, counted = 1, 0
    for start, end, match in spans:
        line += text.count("\n", counted, match.start())
        counted = match.start()
        cstart, cend = _unescaped(start, escapes), _unescaped(end, escapes)
        if cstart is None or cend is None:
            raise GecFormatError("an annotation starts or ends inside a \\n escape", name, line)
        if cstart == cend:
            if cstart == last_insertion:
                raise GecFormatError("two insertions at one point (UA-GEC's parser refuses "
                                     "them as overlapping)", name, line)
            last_insertion = cstart
        edits.append(_edit(match, cstart, cend, annotator, name, line))
    meta = {"annotators": str(annotator)}
    if escaped_outside:
        meta["uagec.escaped"] = ",".join(str(_unescaped(p, escapes)) for p in escaped_outside)
    if literal:
        meta["uagec.literal"] = str(literal)
    return Document(original, tuple(edits), id, (), meta)


def _check_outside(text: str, outside: list[tuple[int, int]], name: str) -> int:
    """Refuse markup outside the annotations that looks like a broken annotation; return
    how many ``{…=>…}`` groups across a line break UA-GEC's parser leaves as text."""
    literal = 0
    for a, b in outside:
        segment = text[a:b]
        if "=>" not in segment and ":::" not in segment:
            continue
        kept = [(m.start(), m.end()) for m in _LITERAL.finditer(segment) if "\n" in m.group()]
        literal += len(kept)
        for token in ("=>", ":::"):
            for m in re.finditer(re.escape(token), segment):
                if any(s < m.start() < e for s, e in kept):
                    continue
                line = text.count("\n", 0, a + m.start()) + 1
                if token == ":::":
                    why = "':::' meta outside an annotation (an annotation without '=>'?)"
                else:
                    why = "'=>' outside an annotation (an unclosed or unopened brace?)"
                raise GecFormatError(why, name, line, "syntax")
    return literal


def _outside_escapes(escapes: list[int], spans: list[tuple[int, int, re.Match[str]]]) -> list[int]:
    """The raw offsets of the escapes not inside any annotation's source."""
    if not escapes:
        return []
    inside = [(s, e) for s, e, _ in spans]
    return [p for p in escapes if not any(s <= p < e for s, e in inside)]


def _unescaped(offset: int, escapes: list[int]) -> int | None:
    """A raw original offset as an offset into the unescaped text (``None``: inside an escape)."""
    before = 0
    for p in escapes:
        if p + 1 == offset:
            return None
        if p + 2 <= offset:
            before += 1
        else:
            break
    return offset - before


def _edit(match: re.Match[str], start: int, end: int, annotator: int, name: str,
          line: int) -> Edit:
    """The edit of one annotation."""
    source, target, tail = match.group(1), match.group(2), match.group(3)
    for part in (source, target):
        bad = re.search(r"\\(?!n)", part)
        if bad is not None:
            raise GecFormatError(f"unknown escape {part[bad.start():bad.start() + 2]!r} in an "
                                 "annotation (only \\n is one)", name, line, "syntax")
    meta: list[tuple[str, str]] = []
    if target == NO_SUGGESTIONS:
        corrections: tuple[tuple[str, ...], ...] = ()
    else:
        corrections = tuple((s.replace(ESCAPE, "\n"),) if s else ()
                            for s in target.split("|"))
    etype = ""
    if tail is not None:
        body = tail[3:]
        if body.startswith("error_type=") and ":::" not in body and body != "error_type=":
            etype = body[len("error_type="):]
        else:
            meta.append(("uagec.meta", body))
            for item in body.split(":::"):
                if item.startswith("error_type="):
                    etype = item[len("error_type="):]
                    break
    if _escape(source.replace(ESCAPE, "\n")) != source:
        meta.append(("uagec.source", source))
    if corrections and _target(corrections) != target:
        meta.append(("uagec.target", target))
    return make_edit(start, end, corrections, etype, True, "-NONE-", annotator, tuple(meta))


def _escape(text: str) -> str:
    return text.replace("\n", ESCAPE)


def _target(corrections: tuple[tuple[str, ...], ...]) -> str:
    """The target field of ``corrections`` (escaped; ``NO_SUGGESTIONS`` for none)."""
    if not corrections:
        return NO_SUGGESTIONS
    return "|".join(_escape("".join(c)) for c in corrections)


def name_parts(path: str | os.PathLike[str]) -> tuple[str, int]:
    """The document id and annotator id of an annotated file's name: ``0002.a2.ann`` →
    ``("0002", 1)``; another name gives its stem and annotator 0."""
    base = os.path.basename(os.fspath(path))
    match = _FILE_NAME.fullmatch(base)
    if match is not None and 1 <= int(match.group("k")) <= MAX_ANNOTATORS:
        return match.group("id"), int(match.group("k")) - 1
    return (base[:-4] if base.endswith(".ann") else base), 0


def read_file(path: str | os.PathLike[str]) -> Document:
    """Read one annotated file (id and annotator from its name, see :func:`name_parts`;
    CRLF line ends read as LF).

    Raises:
        GecFormatError: malformed markup, invalid UTF-8 or a file over
            :data:`MAX_DOCUMENT` characters (file and line named), or a CoNLL ``.conll.ann``.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    if name.endswith(".conll.ann"):
        raise GecFormatError("a CoNLL annotation file: convert the .conll file beside it "
                             "(--from conll)", name)
    with open(name, "rb") as fh:
        data = fh.read(MAX_DOCUMENT * 4 + 1)
    text = decode_utf8(data, name)
    if len(text) > MAX_DOCUMENT:
        raise GecFormatError(f"more than {MAX_DOCUMENT:,} characters", name, None, "too-large")
    # CRLF and a lone CR read as LF, as every gecformats reader does (UA-GEC's files are LF)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    id, annotator = name_parts(name)
    return parse(text, id=id, annotator=annotator, name=name)


def read(source: str | os.PathLike[str], *,
         ann: Sequence[str | os.PathLike[str]] = ()) -> Iterator[Document]:
    """Stream UA-GEC annotated documents.

    Args:
        source: one ``.ann`` file, or a folder of them (UA-GEC's ``annotated/``): its
            documents in id order, each file read when its document is reached.
        ann: further annotators' files of the document of ``source`` (a file): merged
            into one document (see :func:`merge`).

    Yields:
        One :class:`~gecformats.model.Document` per document (or per file, for the files
        of one document whose original texts differ).

    Raises:
        GecFormatError: malformed markup (``FILE:LINE``); a folder without ``.ann`` files.
        OSError: a file cannot be read.
    """
    path = Path(os.fspath(source))
    if path.is_dir():
        groups: dict[str, list[tuple[int, Path]]] = {}
        for file in sorted(path.glob("*.ann")):
            if file.name.endswith(".conll.ann"):
                continue
            id, k = name_parts(file)
            groups.setdefault(id, []).append((k, file))
        if not groups:
            raise GecFormatError("no UA-GEC annotated files (*.ann) in the folder", str(path))
        for id in sorted(groups):
            yield from merge([read_file(f) for _, f in sorted(groups[id])])
        return
    yield from merge([read_file(path), *(read_file(a) for a in ann)])


def merge(documents: Sequence[Document]) -> Iterator[Document]:
    """The annotators' documents of one text as one document: the first one's text and
    id, every edit, ``meta["annotators"]`` listing them all.  Documents whose original
    text differs from the first's stay documents of their own.

    Raises:
        GecFormatError: two documents of the same annotator.
    """
    if len(documents) <= 1:
        yield from documents
        return
    for group in same_text_groups(documents):
        ids = [a for d in group for a in d.meta.get("annotators", "0").split(",")]
        if len(set(ids)) != len(ids):
            raise GecFormatError(f"document {group[0].id}: annotator files of the same "
                                 f"annotator ({', '.join(ids)})")
        meta = {**group[0].meta, "annotators": ",".join(ids)}
        for d in group[1:]:
            for key in ("uagec.escaped", "uagec.literal"):
                if key in d.meta and d.meta.get(key) != group[0].meta.get(key):
                    meta[f"{key}.{d.meta['annotators']}"] = d.meta[key]
        yield group[0].replace(edits=tuple(e for d in group for e in d.edits), meta=meta)


# --------------------------------------------------------------------------------------
# writing


def dumps(document: Document, annotator: int | None = None) -> str:
    """The annotated text of one annotator of ``document``.

    Args:
        document: the document.
        annotator: whose edits (default: the only annotator it has).

    Raises:
        ValueError: the document has several annotators and none is named, or cannot be
            written so that it reads back the same (overlapping edits, edits out of range,
            a literal ``\\n``, or text that would read as an annotation).
    """
    annotator = chosen_annotator(document, annotator)
    edits = ordered_edits(document, annotator, key=lambda e: (e.start, e.end))
    text = document.text
    key = f"uagec.escaped.{annotator}"
    escaped = {int(p) for p in (document.meta.get(key) or document.meta.get("uagec.escaped")
                                or "").split(",") if p}
    out: list[str] = []
    pos = 0
    for edit in edits:
        out.append(_outside(text, pos, edit.start, escaped))
        source = edit.get_meta("uagec.source")
        if source is None or source.replace(ESCAPE, "\n") != text[edit.start:edit.end]:
            source = _escape(text[edit.start:edit.end])
        target = edit.get_meta("uagec.target")
        if target is None or _target(_split_target(target)) != _target(edit.corrections):
            target = _target(edit.corrections)
        tail = edit.get_meta("uagec.meta")
        if tail is None:
            tail = f"error_type={edit.type}" if edit.type else None
        out.append("{" + source + "=>" + target + (":::" + tail if tail is not None else "") + "}")
        pos = edit.end
    out.append(_outside(text, pos, len(text), escaped))
    written = "".join(out)
    try:
        again = parse(written, id=document.id, annotator=annotator)
    except GecFormatError as exc:  # (its line is the written text's, not the input's)
        raise ValueError(f"document {document.id}, annotator {annotator + 1}: cannot be "
                         f"written as UA-GEC annotated text: {exc.message}") from None
    if again.text != text or [(e.start, e.end, e.corrections, e.type) for e in again.edits] != \
            [(e.start, e.end, e.corrections, e.type) for e in edits]:
        raise ValueError(f"document {document.id}: cannot be written as UA-GEC annotated text "
                         "that reads back the same (braces or '=>' in the text or the edits, "
                         "a literal \\n, or edits that touch one point)")
    return written


def _split_target(target: str) -> tuple[tuple[str, ...], ...]:
    if target == NO_SUGGESTIONS:
        return ()
    return tuple((s.replace(ESCAPE, "\n"),) if s else () for s in target.split("|"))


def _outside(text: str, start: int, end: int, escaped: set[int]) -> str:
    """The text between annotations, with the line breaks that were escapes escaped."""
    piece = text[start:end]
    if not escaped or "\n" not in piece:
        return piece
    return "".join(ESCAPE if ch == "\n" and start + i in escaped else ch
                   for i, ch in enumerate(piece))


def write(documents: Iterable[Document], dest: str | os.PathLike[str]) -> Report:
    """Write documents as UA-GEC annotated files, whole or not at all.

    Args:
        documents: the documents, streamed.
        dest: a folder (created if needed): ``<id>.a<K>.ann`` for each annotator ``K - 1``
            of each document (documents without an id are numbered ``0001`` ...); or a
            ``.ann`` file, for exactly one document with one annotator.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` counts files); paragraph
        breaks and optional or commented edits, which the format has no place for, are
        reported as dropped.

    Raises:
        UsageError: a ``.ann`` file given for more than one document or annotator (the
            message says to give a folder).
        ValueError: two files of the same name, or a document :func:`dumps` refuses.
    """
    report = Report()
    name = os.fspath(dest)
    if name.endswith(".ann") and not os.path.isdir(name):
        with atomic_output(name) as fh:
            for document in documents:
                one_file(name, document, report.sentences, "UA-GEC")
                report_losses(document, report)
                fh.write(dumps(document))
                report.sentences += 1
        return report
    with atomic_directory(dest) as tmp:
        seen: set[str] = set()
        for n, document in enumerate(documents, 1):
            id = document.id if document.id is not None else f"{n:04d}"
            if not id or "/" in id or "\\" in id or id in (".", ".."):
                raise ValueError(f"document id {id!r} is not a plain file name")
            report_losses(document, report)
            for k in annotators(document):
                file = f"{id}.a{k + 1}.ann"
                if file in seen:
                    raise ValueError(f"two documents would be written to {file}")
                seen.add(file)
                with atomic_output(tmp / file) as fh:
                    fh.write(dumps(document, k))
                report.sentences += 1
    return report


"""M2, the CoNLL-2013/2014 edit format, in all its dialects: reader and writer.

A block per sentence, blocks separated by an empty line::

    S This are a test .
    A 1 2|||SVA|||is|||REQUIRED|||-NONE-|||0
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

Dialects read and written back byte for byte:

* CoNLL-2013/2014: single- and multi-annotator files, ``||`` alternatives, ``noop`` lines,
  deletions written as an empty field;
* ERRANT: the same shape, with ``noop`` lines for unchanged references;
* NLPCC 2018 ``gold.01``: deletions written ``-NONE-``, blocks without ``A`` lines;
* ChERRANT: ``T<r>-A<k>`` target lines, each followed by the edits of one alignment of
  reference ``r``.  They become :class:`~gecformats.model.Target` s; ``annotators[r]``
  holds the first alignment's edits, so the alignments are never pooled.

In the model, a ``noop`` line is not an edit: it makes its annotator present with no edits.
Reading is tolerant of CRLF line ends, a UTF-8 byte-order mark, trailing blanks, a missing
final newline and runs of empty lines; writing always produces LF line ends and one empty
line after every block.

``S`` lines are split into tokens as the NUS scorer splits them: on runs of any white space
(Python 2.7's Unicode set, which includes U+3000).  The other fields are kept verbatim; an
``A`` line is a noop line only when its type is exactly ``noop``, as for the NUS scorer.

UA-GEC's M2 files (``gec-*.test.m2``) open each document with a header block, ``S # NNNN``
and a noop line per annotator.  When a file's first block is such a header, every header is
read as a document boundary, not a sentence: the sentences after it carry the document id
in ``meta["document"]`` (and the header's annotators in ``meta["m2.document_header"]``), and
the writer writes the header back before the document's first sentence.  A document without
sentences (a header followed directly by another, or ending the file) is kept in the next
sentence's ``meta["m2.empty_before"]`` (the last sentence's ``meta["m2.empty_after"]``) and
written back where it was.  A sentence of a document (``meta["document"]``) that would read
back as a header (``S # 0001`` with no edit) cannot be written: the writer refuses it.  (Such
a sentence first in a file without documents reads back as a header too; ``convert`` says so
by its counts.)

What a round trip cannot keep (documented losses, never silent in ``validate``): a ``noop``
line of an annotator that also has edits, lines of several annotators interleaved within one
block (they are written grouped by annotator, in order of first appearance), and runs of white
space other than one space between ``S`` tokens.

>>> text = "S This are a test .\\nA 1 2|||SVA|||is|||REQUIRED|||-NONE-|||0\\n\\n"
>>> [s] = parse(text)
>>> s.annotators[0][0]
Edit(start=1, end=2, corrections=(('is',),), type='SVA', required=True, comment='-NONE-', annotator=0)
>>> dumps([s]) == text
True
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Literal

from maxmatch import split_hypothesis

from gecformats.errors import GecFormatError
from gecformats.io import Source, source_name, text_lines, text_output
from gecformats.model import MAX_ANNOTATORS, MAX_DIGITS, Edit, Sentence, Target, make_edit

if TYPE_CHECKING:  # imported by write(): reading M2 (``score``) never needs it
    from gecformats.report import Report

NAME = "m2"
SUFFIXES = (".m2", ".m2.char", ".m2.word")
UNIT = "token"

NOOP_TYPE = "noop"
NONE = "-NONE-"
DELETION_META = ("m2.deletion", NONE)
"""``Edit.meta`` entry of an edit whose deletion was spelled ``-NONE-`` (NLPCC, ChERRANT)."""

TargetMode = Literal["keep", "first", "split"]
_TARGET = re.compile(r"T([0-9]{1,3})(?:-A([0-9]{1,6}))?(?: (.*))?")


def read(source: Source) -> Iterator[Sentence]:
    """Read an M2 file sentence by sentence (streaming).

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.

    Yields:
        One :class:`~gecformats.model.Sentence` per block, in file order.

    Raises:
        GecFormatError: a line cannot be parsed (file, line and the problem are named).
        OSError: the file cannot be opened.
    """
    blocks = _documents(_blocks(source, None), source_name(source), None)
    for _number, _line, sentence, _edit_lines in blocks:
        yield sentence


def parse(text: str) -> list[Sentence]:
    """Parse M2 text held in memory; see :func:`read`."""
    return list(read(io.StringIO(text)))


def read_checked(
    source: Source, problems: list[tuple[int, GecFormatError]]
) -> Iterator[tuple[int, Sentence, dict[int, list[int]]]]:
    """Read like :func:`read` but record malformed lines instead of stopping at the first.

    Unparsable lines (or blocks) are skipped and appended to ``problems`` as
    ``(sentence_number, error)`` pairs (the error's ``kind`` is ``syntax`` or
    ``bad-annotator``).  So are ``noop`` lines of annotators that also have edits, which
    the model (and so any writer) cannot keep.

    Yields:
        ``(sentence_number, sentence, edit_lines)``: the 1-based block number, the sentence,
        and for each annotator the line numbers of its edits (parallel to its edit tuple).
    """
    blocks = _documents(_blocks(source, problems), source_name(source), problems)
    for number, _line, sentence, edit_lines in blocks:
        yield number, sentence, edit_lines


DOCUMENT_META = "document"
"""``Sentence.meta`` key of the document id of a UA-GEC M2 sentence (as the characters →
tokens conversion names a sentence's document)."""
HEADER_META = "m2.document_header"
"""``Sentence.meta`` key of the annotators (comma-separated) of the noop lines of the
``S # NNNN`` header block of a UA-GEC M2 document, on its first sentence (the writer writes
the header before each sentence that has it)."""


def document_header(sentence: Sentence) -> str | None:
    """The document id if ``sentence`` is a UA-GEC M2 document header block (``S # NNNN``,
    four ASCII digits, with noop lines only), else ``None``."""
    source = sentence.source
    if len(source) == 2 and source[0] == "#" and len(source[1]) == 4 and source[1].isascii() \
            and source[1].isdigit() and not sentence.targets \
            and not any(sentence.annotators.values()):
        return source[1]
    return None


EMPTY_BEFORE_META = "m2.empty_before"
"""``Sentence.meta`` key of the UA-GEC M2 documents without a sentence that come right before
the sentence's own document header, as ``ID:ANNOTATORS`` entries joined by ``;``
(``0002:0,1;0003:0,1``)."""
EMPTY_AFTER_META = "m2.empty_after"
"""``Sentence.meta`` key of the UA-GEC M2 documents without a sentence that come after the
sentence (on the file's last sentence), as for :data:`EMPTY_BEFORE_META`."""


def empty_documents(sentence: Sentence | Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The UA-GEC M2 documents without a sentence before and after ``sentence``
    (:data:`EMPTY_BEFORE_META`, :data:`EMPTY_AFTER_META`), each as ``(id, annotators)``
    with the annotators comma-separated as in :data:`HEADER_META`."""
    meta = sentence.meta
    if EMPTY_BEFORE_META not in meta and EMPTY_AFTER_META not in meta:
        return [], []
    return (_empty_entries(meta.get(EMPTY_BEFORE_META)),
            _empty_entries(meta.get(EMPTY_AFTER_META)))


def _empty_entries(value: str | None) -> list[tuple[str, str]]:
    if not value:
        return []
    return [(entry.partition(":")[0], entry.partition(":")[2]) for entry in value.split(";")]


def with_document_headers(sentences: Iterable[Sentence]) -> Iterator[Sentence]:
    """``sentences`` with the UA-GEC M2 dialect's document headers: the first sentence of
    each document (:data:`DOCUMENT_META`, as the characters → tokens conversion names it)
    gets :data:`HEADER_META` (its annotators), so that :func:`write` opens the document
    with an ``S # NNNN`` block, as UA-GEC's own M2 files do."""
    document: str | None = None
    for sentence in sentences:
        doc = sentence.meta.get(DOCUMENT_META)
        if doc is not None and doc != document and HEADER_META not in sentence.meta:
            sentence = Sentence(sentence.source, sentence.annotators, sentence.id,
                                {**sentence.meta,
                                 HEADER_META: ",".join(map(str, sorted(sentence.annotators)))},
                                sentence.targets)
        document = doc
        yield sentence


def _documents(blocks: Iterator[tuple[int, int, Sentence, dict[int, list[int]]]],
               name: str, problems: list[tuple[int, GecFormatError]] | None
               ) -> Iterator[tuple[int, int, Sentence, dict[int, list[int]]]]:
    """The UA-GEC M2 dialect: when the file's first block is a document header
    (:func:`document_header`), every header block is a document boundary, not a sentence:
    it is left out, and each sentence after it carries the document id and the header's
    annotators in its ``meta`` (:data:`DOCUMENT_META`; :data:`HEADER_META` on the
    document's first sentence only), from which :func:`write` writes the header back.
    A document without sentences goes into the next sentence's :data:`EMPTY_BEFORE_META`,
    or the last one's :data:`EMPTY_AFTER_META` (so in this dialect a sentence is given out
    once the next block is read).  Otherwise blocks pass unchanged (a sentence ``S # 2019`` in another file stays
    a sentence).

    Raises:
        GecFormatError: headers without any sentence in the file (nothing could keep them);
            recorded in ``problems`` instead when it is a list.
    """
    dialect: bool | None = None
    meta: dict[str, str] = {}
    empty: list[str] = []  # documents without a sentence, before the next sentence
    held: tuple[int, int, Sentence, dict[int, list[int]]] | None = None
    first_header = (0, 0)
    for block in blocks:
        sentence = block[2]
        doc = document_header(sentence)
        if dialect is None:
            dialect = doc is not None
            first_header = block[0], block[1]
        if dialect and doc is not None:
            if HEADER_META in meta:  # the document before had no sentence
                empty.append(f"{meta[DOCUMENT_META]}:{meta[HEADER_META]}")
            meta = {DOCUMENT_META: doc, HEADER_META: ",".join(map(str, sentence.annotators))}
            continue
        if not dialect:
            yield block
            continue
        if held is not None:
            yield held
        if meta or empty:
            extra = {EMPTY_BEFORE_META: ";".join(empty)} if empty else {}
            sentence = Sentence(sentence.source, sentence.annotators, sentence.id,
                                {**sentence.meta, **extra, **meta}, sentence.targets)
            empty = []
            # the header goes with the document's first sentence only, so that a writer
            # given the sentences in parts (--shards) writes it once, where it was
            meta = {DOCUMENT_META: meta[DOCUMENT_META]} if meta else {}
            block = (block[0], block[1], sentence, block[3])
        held = block
    if HEADER_META in meta:
        empty.append(f"{meta[DOCUMENT_META]}:{meta[HEADER_META]}")
    if empty and held is None:
        error = GecFormatError("UA-GEC M2 document headers (S # NNNN) without any sentence: "
                               "no document can be kept", name, first_header[1], "syntax")
        if problems is None:
            raise error
        problems.append((first_header[0], error))
    elif empty and held is not None:
        sentence = held[2]
        sentence = Sentence(sentence.source, sentence.annotators, sentence.id,
                            {**sentence.meta, EMPTY_AFTER_META: ";".join(empty)},
                            sentence.targets)
        held = (held[0], held[1], sentence, held[3])
    if held is not None:
        yield held


def _blocks(
    source: Source, problems: list[tuple[int, GecFormatError]] | None
) -> Iterator[tuple[int, int, Sentence, dict[int, list[int]]]]:
    name = source_name(source)
    block: list[str] = []
    first_line = 0
    number = 0
    with text_lines(source) as lines:
        for lineno, line in enumerate(lines, 1):
            line = line.rstrip("\r\n \t")
            if line:
                if not block:
                    first_line = lineno
                block.append(line)
            elif block:
                number += 1
                parsed = _parse_block(block, first_line, name, number, problems)
                if parsed is not None:
                    yield number, first_line, parsed[0], parsed[1]
                block = []
        if block:
            number += 1
            parsed = _parse_block(block, first_line, name, number, problems)
            if parsed is not None:
                yield number, first_line, parsed[0], parsed[1]


def _parse_block(
    block: list[str],
    first_line: int,
    name: str,
    number: int,
    problems: list[tuple[int, GecFormatError]] | None,
) -> tuple[Sentence, dict[int, list[int]]] | None:
    """Parse one block; its lines are consecutive, from line number ``first_line``."""

    def problem(lineno: int, message: str, kind: str = "syntax") -> None:
        error = GecFormatError(message, name, lineno, kind)
        if problems is None:
            raise error
        problems.append((number, error))

    first = block[0]
    if first == "S" or first[:2] == "S ":
        source = _tokens(first[2:])
    else:
        problem(first_line, f"sentence {number} does not start with an 'S' line: {first[:40]!r}")
        return None

    annotators: dict[int, list[Edit]] = {}
    edit_lines: dict[int, list[int]] = {}
    targets: dict[int, list[tuple[str, int | None, list[Edit]]]] = {}
    target: tuple[int, list[Edit]] | None = None  # the current T line's reference and edits
    noop_lines: dict[int, int] = {}
    lineno = first_line
    for line in block[1:] if len(block) > 1 else ():
        lineno += 1
        unsafe = _UNSAFE.search(line)
        if unsafe is not None:
            # the NUS scorer splits its input with str.splitlines(): it would end the line here
            problem(lineno, f"the line contains U+{ord(unsafe.group()):04X}, a line break for "
                    "the NUS scorer (str.splitlines)")
            continue
        if line[:2] == "A ":
            try:
                parsed = _parse_a(line[2:])
            except GecFormatError as exc:
                problem(lineno, exc.message, exc.kind)
                continue
            if type(parsed) is int:  # a noop line: the annotator is present, with no edit
                annotator, edit = parsed, None
                if problems is not None:
                    noop_lines[annotator] = lineno
            else:
                annotator, edit = parsed.annotator, parsed  # type: ignore[union-attr]
            edits = annotators.get(annotator)
            if target is not None:
                if annotator != target[0]:
                    problem(
                        lineno,
                        f"annotator {annotator} differs from the reference {target[0]} "
                        "of the preceding T line",
                        "bad-annotator",
                    )
                    continue
                if edit is not None:
                    target[1].append(edit)  # annotators[ref] is the first alignment's list
                    if problems is not None and edits is target[1]:
                        edit_lines[annotator].append(lineno)
                continue
            if edits is None:
                edits = annotators[annotator] = []
                edit_lines[annotator] = []
            if edit is not None:
                edits.append(edit)  # type: ignore[union-attr]
                if problems is not None:
                    edit_lines[annotator].append(lineno)
        elif line[0] == "T":
            match = _TARGET.fullmatch(line)
            if match is None:
                problem(lineno, f"malformed target line {line[:40]!r}")
                continue
            ref = int(match.group(1))
            if ref in annotators and ref not in targets:
                problem(lineno, f"target line for reference {ref} after its untargeted edits")
                continue
            target = (ref, [])
            k = None if match.group(2) is None else int(match.group(2))
            targets.setdefault(ref, []).append((match.group(3) or "", k, target[1]))
            if ref not in annotators:
                annotators[ref] = target[1]
                edit_lines[ref] = []
        elif line == "S" or line[:2] == "S ":
            problem(lineno, f"sentence {number} has a second 'S' line (a missing empty line?)")
        else:
            problem(lineno, f"unexpected line {line[:40]!r} (expected an 'A' or 'T' line)")

    for annotator, lineno in noop_lines.items():
        if annotators.get(annotator) and annotator not in targets:
            problem(lineno, f"annotator {annotator} has a noop line and edits "
                    "(the noop line is not kept)")
    sentence = Sentence(
        source,
        {a: tuple(edits) for a, edits in annotators.items()},
        None,
        {},
        {
            ref: tuple(Target(text, k, tuple(edits)) for text, k, edits in alignments)
            for ref, alignments in targets.items()
        }
        if targets
        else {},
    )
    return sentence, edit_lines


def _cut(text: str, size: int = 20) -> str:
    """``text``, shortened to ``size`` characters for an error message."""
    return text if len(text) <= size else text[:size] + "…"


def _number_error(fields: list[str]) -> None:
    ann = fields[5].strip()
    if not (ann.isascii() and ann.lstrip("-").isdigit() and ann.count("-") <= 1):
        raise GecFormatError(f"annotator must be an integer, not {fields[5]!r}", kind="bad-annotator")
    raise GecFormatError(f"offsets must be two integers, not {fields[0]!r}")


def _tokens(text: str) -> tuple[str, ...]:
    # the NUS scorer's rule: strip, then split on runs of Python 2.7's Unicode white space
    return tuple(split_hypothesis(text))


def _parse_a(body: str) -> Edit | int:
    """Parse the text after ``A ``: an :class:`Edit`, or the annotator id of a noop line."""
    fields = body.split("|||")
    if len(fields) != 6:
        if len(fields) == 5:
            raise GecFormatError(
                "missing annotator field (an 'A' line has 6 fields)", kind="bad-annotator"
            )
        raise GecFormatError(f"an 'A' line has 6 '|||'-separated fields, not {len(fields)}")
    numbers = fields[0] + fields[5]
    if (len(fields[0]) > MAX_DIGITS or len(fields[5]) > MAX_DIGITS) and any(
            len(n) > MAX_DIGITS for n in (fields[0].split() or [""]) + [fields[5].strip()]):
        raise GecFormatError(f"a number of more than {MAX_DIGITS} digits in {_cut(fields[0])!r} "
                             f"or {_cut(fields[5])!r}", kind="bad-number")
    try:
        first, last = fields[0].split()
        start = int(first)
        end = int(last)
        annotator = int(fields[5])
        # int() also takes '+1', '1_0' and non-ASCII digits, which M2 does not
        if not numbers.isascii() or "_" in numbers or "+" in numbers:
            raise ValueError(numbers)
    except ValueError:
        _number_error(fields)
    if abs(annotator) >= MAX_ANNOTATORS:
        raise GecFormatError(f"annotator id {annotator} is out of range (ids are below "
                             f"{MAX_ANNOTATORS})", kind="bad-annotator")
    etype = fields[1]
    if etype == NOOP_TYPE:  # exactly: the NUS scorer keeps a ' noop ' line as an edit
        return annotator
    required_text = fields[3]
    if required_text == "REQUIRED":
        required = True
    elif required_text.strip() in ("REQUIRED", "OPTIONAL"):
        required = required_text.strip() == "REQUIRED"
    else:
        raise GecFormatError(f"field 4 must be REQUIRED or OPTIONAL, not {required_text!r}")
    field2 = fields[2]
    meta: tuple[tuple[str, str], ...] = ()
    if field2 == "":
        corrections: tuple[tuple[str, ...], ...] = ((),)
    elif field2 == NONE:
        corrections = ((),)
        meta = (DELETION_META,)
    elif "||" not in field2:
        field2 = field2.strip()
        # split on single spaces: a double space stays an empty token, as the NUS scorer
        # keeps it (such a correction can never be matched; validate reports it)
        corrections = (tuple(field2.split(" ")) if field2 else (),)
    else:
        alternatives = []
        for piece in field2.split("||"):
            if piece == NONE:  # exactly -NONE-, tested before stripping, as the NUS scorer does
                alternatives.append(())
                meta = (DELETION_META,)
            else:
                piece = piece.strip()
                alternatives.append(tuple(piece.split(" ")) if piece else ())
        corrections = tuple(alternatives)
    return make_edit(start, end, corrections, etype, required, fields[4], annotator, meta)


# ---------------------------------------------------------------------------- writing


class UnwritableEdit(ValueError):
    """An edit an ``A`` line cannot hold: ``reason`` says why in words, ``edit`` is the edit
    (``str()`` is both, the edit shown as its offsets, corrections and annotator)."""

    def __init__(self, reason: str, edit: Edit) -> None:
        self.reason, self.edit = reason, edit
        shown = "||".join(" ".join(c) if c else NONE for c in edit.corrections)
        super().__init__(f"{reason}: edit {edit.start} {edit.end} -> {shown!r} of annotator "
                         f"{edit.annotator}")


def format_edit(edit: Edit, annotator: int | None = None, deletion: str | None = None) -> str:
    """One ``A`` line (without line end) for ``edit``.

    Args:
        edit: the edit.
        annotator: the id to write (default: ``edit.annotator``).
        deletion: how to spell a deletion: ``""`` or ``"-NONE-"``; ``None`` keeps what the
            edit was read with (empty when it was not read from M2).  A deletion among
            several alternatives is always ``-NONE-``: an empty one would run into the
            ``|||`` separators.

    Raises:
        UnwritableEdit: the edit cannot be written as M2 (a token with a space or line
            break, a ``|`` that would be read as a separator, the correction ``-NONE-``).
    """
    if deletion is None:
        deletion = NONE if DELETION_META in edit.meta else ""
    alternatives = edit.corrections
    if len(alternatives) > 1:
        deletion = NONE
    parts = []
    for c in alternatives:
        if c:
            text = " ".join(c)
            if text.count(" ") != len(c) - 1:
                raise UnwritableEdit(f"a correction token contains a space ({c!r})", edit)
            if text[0].isspace() or text[-1].isspace():  # readers strip it (NUS too)
                raise UnwritableEdit(f"a correction starts or ends with white space ({c!r})",
                                     edit)
            if text == NONE:
                raise UnwritableEdit(f"the correction {NONE!r} would read back as a deletion",
                                     edit)
            parts.append(text)
        else:
            parts.append(deletion)
    corrections = "||".join(parts)
    line = (
        f"A {edit.start} {edit.end}|||{edit.type}|||{corrections}|||"
        f"{'REQUIRED' if edit.required else 'OPTIONAL'}|||{edit.comment}|||"
        f"{edit.annotator if annotator is None else annotator}"
    )
    if "|" in corrections or "|" in edit.type or "|" in edit.comment or _unsafe(line):
        _check_edit_line(line, edit)
    return line


# every character the NUS scorer's str.splitlines() takes for a line break
_UNSAFE = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _unsafe(text: str) -> bool:
    return _UNSAFE.search(text) is not None


_BARS = ("a '|' there would be read as M2's separators ('|||' between an A line's fields, "
         "'||' between alternative corrections)")


def _check_edit_line(line: str, edit: Edit) -> None:
    if _unsafe(line):
        raise UnwritableEdit("an edit field contains a line break", edit)
    try:
        again = _parse_a(line[2:])
    except GecFormatError:
        raise UnwritableEdit(_BARS, edit) from None
    if not isinstance(again, Edit) or (again.type, again.corrections, again.comment) != (
        edit.type, edit.corrections, edit.comment
    ):
        raise UnwritableEdit(_BARS, edit)


def format_noop(annotator: int) -> str:
    """The ``noop`` line that says ``annotator`` made no change."""
    return f"A -1 -1|||{NOOP_TYPE}|||{NONE}|||REQUIRED|||{NONE}|||{annotator}"


def format_header(document: str, annotators: str) -> str:
    """The UA-GEC M2 document header block ``S # NNNN`` with a noop line for each of
    ``annotators`` (comma-separated ids), including the empty line that ends it.

    Raises:
        ValueError: ``document`` is not four ASCII digits (it would not read back as a
            header).
    """
    if not (len(document) == 4 and document.isascii() and document.isdigit()):
        raise ValueError(f"UA-GEC M2 document ids are four digits, not {document!r}")
    ids = [int(a) for a in annotators.split(",") if a]
    return "\n".join([f"S # {document}", *(format_noop(a) for a in ids)]) + "\n\n"


def format_sentence(
    sentence: Sentence,
    *,
    deletion: str | None = None,
    targets: TargetMode = "keep",
    report: Report | None = None,
    number: int | None = None,
) -> str:
    """One M2 block, including the empty line that ends it.

    Every annotator present with no edits gets a ``noop`` line.

    Args:
        sentence: the sentence.
        deletion: ``""`` or ``"-NONE-"`` for every deletion; ``None`` keeps each edit's own.
        targets: for ChERRANT sentences: ``keep`` writes the ``T`` lines and every
            alignment; ``first`` writes each reference's first alignment as plain M2 (what
            the NUS scorer can read; the others are reported as dropped); ``split`` writes
            every alignment as an annotator of its own, numbered 0, 1, ... in file order.
        report: where ``first`` records the alignments it drops.
        number: the sentence number used in the report's examples.
    """
    source_line = "S " + " ".join(sentence.source)
    if _tokens(source_line[2:]) != sentence.source:
        raise ValueError(f"a source token is empty or contains white space: {sentence.source!r}")
    lines = [source_line]
    if sentence.targets and targets != "first":
        next_id = 0
        for annotator, edits in sentence.annotators.items():
            alignments = sentence.targets.get(annotator)
            if not alignments:
                alignments = (Target("", None, edits),)
                bare = True
            else:
                bare = False
            for t in alignments:
                out_id = annotator
                if targets == "split":
                    out_id, next_id = next_id, next_id + 1
                elif not bare:
                    label = f"T{annotator}" if t.alignment is None else f"T{annotator}-A{t.alignment}"
                    lines.append(f"{label} {t.text}" if t.text else label)
                if t.edits:
                    lines.extend(format_edit(e, out_id, deletion) for e in t.edits)
                else:
                    lines.append(format_noop(out_id))
    else:
        if sentence.targets and report is not None:
            extra = sum(len(a) - 1 for a in sentence.targets.values())
            if extra:
                report.drop("alternative alignments (T lines after the first of a reference)",
                            f"sentence {number}" if number else "a sentence", extra)
        for annotator, edits in sentence.annotators.items():
            if edits:
                lines.extend(format_edit(e, annotator, deletion) for e in edits)
            else:
                lines.append(format_noop(annotator))
    return "\n".join(lines) + "\n\n"


def write(
    sentences: Iterable[Sentence],
    dest: str | os.PathLike[str] | IO[str],
    *,
    deletion: str | None = None,
    targets: TargetMode = "keep",
) -> Report:
    """Write sentences as M2 (streaming; a path is written whole or not at all).

    Args:
        sentences: any iterable of sentences.
        dest: a path (``-`` is standard output) or an open text file.
        deletion, targets: see :func:`format_sentence`.

    Returns:
        A :class:`~gecformats.report.Report` of what was written and dropped.
    """
    from gecformats.report import Report

    report = Report()
    with text_output(dest) as fh:
        _write(sentences, fh, deletion, targets, report)
    return report


def check_options(deletion: str | None, targets: str) -> None:
    """Refuse writer options :func:`format_sentence` does not know.

    Raises:
        ValueError: ``deletion`` is not ``None``, ``""`` or ``"-NONE-"``, or ``targets`` not
            ``keep``, ``first`` or ``split``.
    """
    if deletion not in (None, "", NONE):
        raise ValueError(f"deletion must be '' or {NONE!r}, not {deletion!r}")
    if targets not in ("keep", "first", "split"):
        raise ValueError(f"targets must be keep, first or split, not {targets!r}")


def _write(
    sentences: Iterable[Sentence],
    fh: IO[str],
    deletion: str | None,
    targets: TargetMode,
    report: Report,
) -> None:
    check_options(deletion, targets)
    n = 0
    for n, sentence in enumerate(sentences, 1):
        before, after = empty_documents(sentence)
        header = sentence.meta.get(HEADER_META)
        # (decided by the sentence alone, so that the parts of --shards decide as the whole)
        if DOCUMENT_META in sentence.meta and document_header(sentence) is not None:
            raise ValueError(f"its tokens {' '.join(sentence.source)!r} without an edit would "
                             "read back as a UA-GEC document header (S # NNNN), and the "
                             "sentence would be lost; change the text (e.g. drop the space)")
        for document, annotators in before:
            fh.write(format_header(document, annotators))
        if header is not None:
            fh.write(format_header(sentence.meta.get(DOCUMENT_META) or "", header))
        fh.write(format_sentence(sentence, deletion=deletion, targets=targets, report=report, number=n))
        for document, annotators in after:
            fh.write(format_header(document, annotators))
    report.sentences = n


def dumps(sentences: Iterable[Sentence], **options: object) -> str:
    """Return the M2 text of ``sentences`` (options as for :func:`write`)."""
    buffer = io.StringIO()
    write(sentences, buffer, **options)  # type: ignore[arg-type]
    return buffer.getvalue()

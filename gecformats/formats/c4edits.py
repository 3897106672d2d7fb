"""C4_200M-style edit files: byte-offset edits against a file of sentences.

The largest synthetic GEC corpus (Stahlberg & Kumar 2021) is distributed as edits, not as
text: each line of an edit file is ``id<TAB>byte start<TAB>byte end<TAB>replacement``, to be
applied to the UTF-8 bytes of the sentence ``id`` of a text file whose lines are
``id<TAB>sentence``.  In C4_200M the sentences are the clean C4 text and the edits make the
ungrammatical side, so a pair reads as :class:`~gecformats.model.Parallel` with the edited
sentence as ``source`` and the original as its one reference (``gecformats convert
edits.tsv pairs.tsv --from c4edits --text sentences.tsv``; ``--to m2`` extracts the edits
again as tokens).

Both files stream in step: the edits of one id are consecutive, and ids come in the text
file's order (sentences without edits give a pair with nothing to correct).  An edit that
does not fit its sentence, overlaps another, splits a UTF-8 character or names an id the text
file does not have (in that place) is an error naming the file and line.

:func:`write` is the reverse: parallel pairs to the edit file (with the text file beside it,
``<dest>.text``), each pair's differing middle as one byte edit.

>>> pairs = list(parse("s1\\t3\\t6\\tis\\n", "s1\\tIt are fine.\\ns2\\tOK.\\n"))
>>> [(p.source, p.references) for p in pairs]
[('It is fine.', ('It are fine.',)), ('OK.', ('OK.',))]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.io import atomic_output, string_lines, text_lines
from gecformats.model import MAX_DIGITS, Parallel
from gecformats.report import Report

NAME = "c4edits"
UNIT = "text"
SUFFIXES: tuple[str, ...] = ()
"""No suffix inference: name it with ``--from c4edits`` (its files are ``.tsv`` shards)."""

Edit4 = tuple[int, int, bytes, int]
"""``(byte start, byte end, replacement bytes, line number)``."""


def read(source: str | os.PathLike[str], *, text: str | os.PathLike[str] | None = None
         ) -> Iterator[Parallel]:
    """Stream the pairs an edit file makes of a text file.

    Args:
        source: the edit file (``.gz`` read transparently).
        text: the text file, ``id<TAB>sentence`` per line.

    Yields:
        One :class:`~gecformats.model.Parallel` per sentence: the edited sentence, the
        original as its reference, ``id`` the sentence id.

    Raises:
        UsageError: no ``text``.
        GecFormatError: a malformed line, an edit that does not fit or overlaps,
            an id out of order or unknown (``FILE:LINE: message``).
        OSError: a file cannot be read.
    """
    if text is None:
        raise UsageError("c4edits needs the sentences the edits apply to: --text FILE")
    with text_lines(source) as edits, text_lines(text) as sentences:
        yield from _pairs(edits, sentences, os.fspath(source), os.fspath(text))


def parse(edits: str, sentences: str) -> Iterator[Parallel]:
    """The pairs of an edit file's and a text file's contents (see :func:`read`)."""
    yield from _pairs(string_lines(edits, "<edits>"),
                      string_lines(sentences, "<text>"), "<edits>", "<text>")


def _edit_lines(lines: Iterator[str], name: str) -> Iterator[tuple[str, Edit4]]:
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if line.endswith("\r"):
            line = line[:-1]
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise GecFormatError(f"an edit line has 4 tab-separated fields (id, byte start, "
                                 f"byte end, replacement), not {len(fields)}", name, lineno)
        ident, start, end, replacement = fields
        for value in (start, end):
            if not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS:
                raise GecFormatError(f"byte offset {value!r} is not a number", name, lineno,
                                     "bad-number")
        yield ident, (int(start), int(end), replacement.encode("utf-8"), lineno)


def _pairs(edit_lines: Iterator[str], text_lines_: Iterator[str], edits_name: str,
           text_name: str) -> Iterator[Parallel]:
    edits = _edit_lines(edit_lines, edits_name)
    pending = next(edits, None)
    for lineno, line in enumerate(text_lines_, 1):
        line = line.rstrip("\n")
        if line.endswith("\r"):
            line = line[:-1]
        if not line:
            continue
        ident, tab, sentence = line.partition("\t")
        if not tab:
            raise GecFormatError("a text line is id<TAB>sentence", text_name, lineno)
        mine: list[Edit4] = []
        while pending is not None and pending[0] == ident:
            mine.append(pending[1])
            pending = next(edits, None)
        yield Parallel(_apply(sentence, mine, edits_name), (sentence,), ident)
    if pending is not None:
        raise GecFormatError(f"edit for id {pending[0]!r}, which the text file does not have "
                             "(at this point: the ids must come in the text file's order)",
                             edits_name, pending[1][3])


def _apply(sentence: str, edits: list[Edit4], name: str) -> str:
    """``sentence`` with the byte edits applied."""
    if not edits:
        return sentence
    data = sentence.encode("utf-8")
    out: list[bytes] = []
    pos = 0
    for start, end, replacement, lineno in sorted(edits, key=lambda e: (e[0], e[1])):
        if not start <= end <= len(data):
            raise GecFormatError(f"bytes {start}-{end} do not fit the sentence's {len(data)} "
                                 "bytes", name, lineno, "offset-out-of-range")
        if start < pos:
            raise GecFormatError(f"bytes {start}-{end} overlap an earlier edit", name, lineno,
                                 "overlap")
        out.append(data[pos:start])
        out.append(replacement)
        pos = end
    out.append(data[pos:])
    try:
        for start, end, _, lineno in edits:
            data[:start].decode("utf-8")
            data[:end].decode("utf-8")
    except UnicodeDecodeError:
        raise GecFormatError(f"bytes {start}-{end} split a UTF-8 character", name, lineno,
                             "split-character") from None
    return b"".join(out).decode("utf-8")


# ------------------------------------------------------------------------------ writing


def _byte_edit(source: str, reference: str) -> tuple[int, int, str] | None:
    """The one edit that turns ``reference`` into ``source``: bytes of ``reference``
    between their common prefix and suffix (whole characters), and what replaces them."""
    if source == reference:
        return None
    p = 0
    while p < min(len(source), len(reference)) and source[p] == reference[p]:
        p += 1
    s = 0
    while (s < min(len(source), len(reference)) - p
           and source[len(source) - 1 - s] == reference[len(reference) - 1 - s]):
        s += 1
    start = len(reference[:p].encode("utf-8"))
    end = len(reference[:len(reference) - s].encode("utf-8"))
    return start, end, source[p:len(source) - s]


def write(pairs: Iterable[Parallel], dest: str | os.PathLike[str], **_: Any) -> Report:
    """Write pairs as an edit file ``dest`` and its text file ``dest.text`` (``id<TAB>
    reference``), both whole or not at all.  Each pair's first reference is the sentence; the
    source is what the edit makes of it.  Pairs without a reference, or with a tab or line
    break in a sentence, cannot be written (reported); later references are dropped
    (reported).

    Raises:
        UsageError: ``dest`` is standard output (``-``).
    """
    report = Report()
    count = 0
    name = os.fspath(dest)
    if name == "-":
        raise UsageError("c4edits writes two files, OUT and OUT.text: give a path, not "
                         "standard output")
    with atomic_output(name) as edits, atomic_output(name + ".text") as texts:
        for number, pair in enumerate(pairs, 1):
            refs = [r for r in pair.references if r is not None]
            if not refs:
                report.drop("pairs without a reference", f"pair {number}")
                continue
            if len(refs) > 1:
                report.drop("references after the first", f"pair {number}", len(refs) - 1)
            if any(c in t for t in (pair.source, refs[0]) for c in "\t\n\r"):
                report.drop("sentences with a tab or line break", f"pair {number}")
                continue
            ident = pair.id or str(number)
            texts.write(f"{ident}\t{refs[0]}\n")
            edit = _byte_edit(pair.source, refs[0])
            if edit is not None:
                edits.write(f"{ident}\t{edit[0]}\t{edit[1]}\t{edit[2]}\n")
            count += 1
    report.sentences = count
    return report


def read_back(dest: str | os.PathLike[str]) -> Iterator[Parallel]:
    """Read what :func:`write` wrote to ``dest``: the edit file with its text file
    ``dest.text``."""
    return read(dest, text=os.fspath(dest) + ".text")

"""The NLPCC 2018 Shared Task 2 training format (spec §9.1): reader and writer.

One learner sentence per line, tab-separated::

    sent_no<TAB>N<TAB>source<TAB>correction_1<TAB>…<TAB>correction_N

``sent_no`` counts the sentences of one essay (it restarts at 1 for every post, so it is
not a unique id); it becomes :attr:`~gecformats.model.Parallel.id`, kept as a string.
``N`` is the number of corrections (0: the sentence was left unchanged); it is kept in
``meta["nlpcc.n"]``, and ``N = 0`` gives ``references=()``.  Every line must have exactly
``N + 3`` fields.  The raw lines are not segmented.

Quirks of the data: corrections contain traditional characters (讓, 來, …) — never converted
here; some fields have white space at their edges (kept unless ``strip_edges``); U+FEFF is
removed anywhere in a line.

>>> import io
>>> text = ("1\\t1\\t我在家里一个人学习中文。\\t我在家里自学中文。\\n"
...         "2\\t0\\t我是里阿德，来自以色列。\\n")
>>> [a, b] = read(io.StringIO(text))
>>> a.id, a.references
('1', ('我在家里自学中文。',))
>>> b.references, b.meta
((), {'nlpcc.n': '0'})
>>> out = io.StringIO()
>>> write([a, b], out).sentences
2
>>> out.getvalue() == text
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import IO

from gecformats.errors import GecFormatError
from gecformats.formats.parallel import check_text
from gecformats.formats.tsv import Problems, rows, write_rows
from gecformats.io import Source
from gecformats.model import MAX_DIGITS, Parallel
from gecformats.report import Report

NAME = "nlpcc"
SUFFIXES = (".train",)
UNIT = "text"

META_N = "nlpcc.n"
"""``Parallel.meta`` key holding the line's ``N`` as read."""

_COUNT = re.compile(r"[0-9]+")
_EDGES = re.compile(r"^[\s\u200b\ufeff]+|[\s\u200b\ufeff]+$")  # \s includes U+3000
_LAYOUT = "sent_no<TAB>N<TAB>source<TAB>correction_1…correction_N"


def read(source: Source, *, strip_edges: bool = False) -> Iterator[Parallel]:
    """Read an NLPCC 2018 training file line by line (streaming).

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.
        strip_edges: remove U+FEFF, U+200B, U+3000 and other white space at the edges of
            every field (off: fields are kept verbatim).

    Yields:
        One :class:`~gecformats.model.Parallel` per line: ``id`` = column 1, ``source`` =
        column 3, ``references`` = the ``N`` corrections, ``meta = {"nlpcc.n": str(N)}``.

    Raises:
        GecFormatError: at the first bad line (file and line named): a blank line, ``N``
            not a non-negative integer (kind ``syntax``), or not exactly ``N + 3`` fields
            (kind ``field-count``); or invalid UTF-8.
        OSError: the file cannot be opened.
    """
    for _number, item in read_checked(source, None, strip_edges=strip_edges):
        yield item


def read_checked(source: Source, problems: Problems | None, *,
                 strip_edges: bool = False) -> Iterator[tuple[int, Parallel]]:
    """Read like :func:`read`, but with ``problems`` a list, record bad lines there (as
    ``(line_number, error)``) and go on.

    Yields:
        ``(line_number, sentence)`` for every good line.
    """

    def parse(fields: list[str], name: str, number: int) -> Parallel:
        return parse_fields(fields, name, number, strip_edges=strip_edges)

    return rows(source, parse, f"N + 3 fields ({_LAYOUT})", problems)


def parse_fields(fields: list[str], name: str, number: int, *,
                 strip_edges: bool = False) -> Parallel:
    """Turn the tab-separated fields of one line into a sentence.

    Args:
        fields: the line split at tabs.
        name, number: the file and line, for errors.
        strip_edges: as for :func:`read`.

    Raises:
        GecFormatError: ``N`` is not a non-negative integer (kind ``syntax``) or the line
            does not have exactly ``N + 3`` fields (kind ``field-count``).
    """
    if strip_edges:
        fields = [_EDGES.sub("", field) for field in fields]
    if len(fields) < 2:
        raise GecFormatError(f"the line has {len(fields)} field; it must be {_LAYOUT}",
                             name, number, "field-count")
    if not _COUNT.fullmatch(fields[1]) or len(fields[1]) > MAX_DIGITS:
        raise GecFormatError(f"N (field 2) must be a non-negative integer of at most "
                             f"{MAX_DIGITS} digits, not {fields[1][:20]!r}", name, number)
    n = int(fields[1])
    if len(fields) != n + 3:
        raise GecFormatError(f"N is {n}, so the line must have {n + 3} fields, but it has "
                             f"{len(fields)}", name, number, "field-count")
    return Parallel(fields[2], tuple(fields[3:]), fields[0], {META_N: str(n)})


def format_line(item: Parallel, number: int, file: str, report: Report) -> str:
    """One sentence as an NLPCC training line (with its line end).

    ``sent_no`` is ``item.id``, or ``number`` when it has none; ``N`` is the number of
    present references, except that ``N = 0`` is written back (without corrections) when
    ``item.meta`` says ``nlpcc.n`` is ``"0"`` and no present reference differs from the
    source.  ``None`` references are left out; when a present one follows, the positions
    shift, which is counted in ``report``.

    Args:
        item: the sentence.
        number: its 1-based position in the output.
        file: the output's name, for errors.
        report: where losses are counted.

    Raises:
        GecFormatError: a text contains a tab or a line break (names the sentence).
    """
    sent_no = item.id if item.id is not None else str(number)
    positions = item.present()
    present = [ref for ref in item.references if ref is not None]
    if item.meta.get(META_N) == "0" and all(ref == item.source for ref in present):
        present = []
    elif positions and positions[-1] + 1 != len(positions):
        report.drop("absent references (left out; later references move up)",
                    f"sentence {number}: references {', '.join(map(str, positions))}")
    fields = [check_text(sent_no, "the sentence number", number, file, tab=True), str(len(present)),
              check_text(item.source, "the source", number, file, tab=True)]
    fields += (check_text(ref, f"correction {i + 1}", number, file, tab=True)
               for i, ref in enumerate(present))
    return "\t".join(fields) + "\n"


def write(items: Iterable[Parallel], dest: str | os.PathLike[str] | IO[str]) -> Report:
    """Write sentences as NLPCC training lines (streaming; a path is written whole or not at
    all).  See :func:`format_line` for the columns.  Scripts are never converted.

    Args:
        items: the sentences.
        dest: a path (``-`` is standard output) or an open text file.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` = lines written).

    Raises:
        GecFormatError: a text or id contains a tab or a line break (names the sentence).
    """
    return write_rows(items, dest, format_line)

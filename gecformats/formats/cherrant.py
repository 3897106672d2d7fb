"""ChERRANT's parallel input (spec §10): ``id<TAB>source<TAB>reference…``, one sentence a line.

The input of ChERRANT's ``parallel_to_m2.py`` and of its comparison script (MuCGEC).  Any
number of references per line, none included (a test file holds ``id<TAB>source``); a
hypothesis file has exactly one output column (``hypothesis=True`` checks that).  The special
reference strings :data:`NO_ERROR` (没有错误, "the source is correct") and
:data:`UNANNOTATABLE` (无法标注, "cannot be annotated") are kept as they are: edit extraction
interprets them.  Nothing else is interpreted either: no spaces are removed and no script is
converted.  U+FEFF is removed anywhere in a line and CRLF line ends are accepted.

A stray line break inside a field breaks the line structure, so every line's fields are
counted: a blank line or a line with fewer than two fields is an error.

>>> import io
>>> [p] = read(io.StringIO("7\\t我在家里自学中文。\\t没有错误"))
>>> p.id, p.references
('7', ('没有错误',))
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO

from gecformats.errors import GecFormatError
from gecformats.formats.parallel import check_text
from gecformats.formats.tsv import Problems, fields_of, rows, write_rows
from gecformats.io import Source
from gecformats.model import Parallel
from gecformats.report import Report

NAME = "cherrant"
SUFFIXES: tuple[str, ...] = ()
UNIT = "text"

NO_ERROR = "没有错误"
"""The reference string that says the source is correct."""

UNANNOTATABLE = "无法标注"
"""The reference string that says the sentence cannot be annotated."""

_LAYOUT = "id<TAB>source<TAB>reference…"


def read(source: Source, *, hypothesis: bool = False) -> Iterator[Parallel]:
    """Read a ChERRANT parallel file line by line (streaming).

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.
        hypothesis: require exactly one output column on every line (a system output).

    Yields:
        One :class:`~gecformats.model.Parallel` per line: ``id`` = field 1, ``source`` =
        field 2, ``references`` = the rest, verbatim (no meta).

    Raises:
        GecFormatError: at the first bad line (file and line named): a blank line (kind
            ``syntax``), fewer than 2 fields, or with ``hypothesis`` not exactly 3 (kind
            ``field-count``); or invalid UTF-8.
        OSError: the file cannot be opened.
    """
    for _number, item in read_checked(source, None, hypothesis=hypothesis):
        yield item


def read_checked(source: Source, problems: Problems | None, *,
                 hypothesis: bool = False) -> Iterator[tuple[int, Parallel]]:
    """Read like :func:`read`, but with ``problems`` a list, record bad lines there (as
    ``(line_number, error)``) and go on.

    Yields:
        ``(line_number, sentence)`` for every good line.
    """

    def parse(fields: list[str], name: str, number: int) -> Parallel:
        if len(fields) < 2:
            raise GecFormatError(f"the line has 1 field; it must be {_LAYOUT}", name, number,
                                 "field-count")
        if hypothesis and len(fields) != 3:
            raise GecFormatError(f"a hypothesis line must have 3 fields (id, source, output), "
                                 f"but this one has {len(fields)}", name, number, "field-count")
        return Parallel(fields[1], tuple(fields[2:]), fields[0])

    expected = "3 fields (id, source, output)" if hypothesis else f"at least 2 fields ({_LAYOUT})"
    return rows(source, parse, expected, problems)


def write(items: Iterable[Parallel], dest: str | os.PathLike[str] | IO[str]) -> Report:
    """Write sentences as ``id<TAB>source<TAB>reference…`` lines (streaming; a path is
    written whole or not at all).

    The id is ``item.id``, or the sentence's 1-based position when it has none.  A ``None``
    reference is written as a copy of the source (reported).

    Args:
        items: the sentences.
        dest: a path (``-`` is standard output) or an open text file.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` = lines written).

    Raises:
        GecFormatError: a text or id contains a tab or a line break (names the sentence).
    """
    return write_rows(items, dest, _line)


def _line(item: Parallel, n: int, name: str, report: Report) -> str:
    id = check_text(item.id if item.id is not None else str(n), "the id", n, name, tab=True)
    return "\t".join([id, *fields_of(item, n, name, report)]) + "\n"

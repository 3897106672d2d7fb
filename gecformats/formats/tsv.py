"""Tab-separated parallel text: ``source<TAB>ref1<TAB>ref2…``, one sentence per line.

The number of references may vary from line to line; a line with only the source has no
references.  Nothing else is interpreted: fields are kept verbatim (white space included),
except that U+FEFF is removed anywhere and CRLF line ends are accepted.  A blank line is an
error (a stray line break inside a field leaves one behind).

The module also holds what the tab-separated formats (``tsv``, ``nlpcc``, ``cherrant``)
share: :func:`rows` (reading with every bad line reported) and :func:`fields_of` (the
references to write).

>>> import io
>>> [p] = read(io.StringIO("He go home .\\tHe goes home .\\tHe went home .\\n"))
>>> p.references
('He goes home .', 'He went home .')
>>> out = io.StringIO()
>>> write([p.replace(references=("He goes home .", None))], out).lines()
['1 absent references: wrote the source (first: sentence 1, reference 1)']
>>> out.getvalue()
'He go home .\\tHe goes home .\\tHe go home .\\n'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.formats.parallel import check_text, lines
from gecformats.io import Source, source_name, text_output
from gecformats.model import Parallel
from gecformats.report import Report

NAME = "tsv"
SUFFIXES = (".tsv",)
UNIT = "text"

ABSENT = "absent references: wrote the source"
"""Report entry of a ``None`` reference written as a copy of the source."""

Problems = list[tuple[int, GecFormatError]]
"""Bad lines found while reading: ``(line_number, error)`` pairs."""

Parse = Callable[[list[str], str, int], Parallel]
"""Turns the fields of one line (file name, line number) into a sentence, or raises."""


def read(source: Source) -> Iterator[Parallel]:
    """Read a tab-separated parallel file line by line (streaming).

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.

    Yields:
        One :class:`~gecformats.model.Parallel` per line: field 1 is the source, the
        others are references ``0, 1, …`` (``id`` ``None``, no meta).

    Raises:
        GecFormatError: a blank line (file and line named), or invalid UTF-8.
        OSError: the file cannot be opened.
    """
    for _number, item in read_checked(source, None):
        yield item


def read_checked(source: Source, problems: Problems | None) -> Iterator[tuple[int, Parallel]]:
    """Read like :func:`read`, but with ``problems`` a list, record bad lines there and go on.

    Yields:
        ``(line_number, sentence)`` for every good line.
    """
    return rows(source, _parse, "a source field", problems)


def _parse(fields: list[str], name: str, number: int) -> Parallel:
    return Parallel(fields[0], tuple(fields[1:]))


def rows(source: Source, parse: Parse, expected: str,
         problems: Problems | None) -> Iterator[tuple[int, Parallel]]:
    """Read a tab-separated file line by line (each line
    :func:`~gecformats.formats.parallel.clean`\\ ed) and parse every line.

    Args:
        source: a path or an open file.
        parse: turns the fields of a line into a sentence; raises :class:`GecFormatError`
            for a bad line.
        expected: the fields every line must have, for the message about a blank line
            (``"blank line; every line must have …"``).
        problems: ``None`` to raise at the first bad line; a list to append
            ``(line_number, error)`` to and go on.

    Yields:
        ``(line_number, sentence)`` for every good line.

    Raises:
        GecFormatError: a bad line (only when ``problems`` is ``None``), or invalid UTF-8.
        OSError: the file cannot be opened.
    """
    name = source_name(source)
    for number, line in lines(source):
        try:
            if not line:
                raise GecFormatError(f"blank line; every line must have {expected}", name, number)
            item = parse(line.split("\t"), name, number)
        except GecFormatError as error:
            if problems is None:
                raise
            problems.append((number, error))
            continue
        yield number, item


def fields_of(item: Parallel, number: int, file: str, report: Report) -> list[str]:
    """The source and the references of ``item`` as tab-separated fields, checked.

    A ``None`` reference is written as a copy of the source and counted in ``report``
    (:data:`ABSENT`).

    Args:
        item: the sentence.
        number: its 1-based number, for messages.
        file: the output's name, for errors.
        report: where the copies are counted.

    Raises:
        GecFormatError: a text contains a tab or a line break (names the sentence).
    """
    fields = [check_text(item.source, "the source", number, file, tab=True)]
    for k, ref in enumerate(item.references):
        if ref is None:
            report.note(ABSENT, f"sentence {number}, reference {k}")
            ref = item.source
        fields.append(check_text(ref, f"reference {k}", number, file, tab=True))
    return fields


def write(items: Iterable[Parallel], dest: str | os.PathLike[str] | IO[str]) -> Report:
    """Write sentences as ``source<TAB>ref…`` lines (streaming; a path is written whole or not
    at all).

    A ``None`` reference is written as a copy of the source (reported); ids cannot be kept
    (reported).

    Args:
        items: the sentences.
        dest: a path (``-`` is standard output) or an open text file.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` = lines written).

    Raises:
        GecFormatError: a text contains a tab or a line break, or a sentence with an empty
            source and no references (it would be a blank line); names the sentence.
    """
    return write_rows(items, dest, _line)


def _line(item: Parallel, n: int, name: str, report: Report) -> str:
    fields = fields_of(item, n, name, report)
    if fields == [""]:
        raise GecFormatError(f"sentence {n}: an empty source without references would "
                             "be a blank line, which tsv does not allow", name)
    if item.id is not None:
        report.drop("sentence ids (tsv has no id column)", f"sentence {n}: {item.id!r}")
    return "\t".join(fields) + "\n"


FormatLine = Callable[[Parallel, int, str, Report], str]
"""Makes one output line: ``(item, 1-based number, file name, report) -> line``."""


def write_rows(items: Iterable[Parallel], dest: str | os.PathLike[str] | IO[str],
               format_line: FormatLine) -> Report:
    """Write one line per sentence with ``format_line`` (streaming; a path is written whole
    or not at all, ``-`` is standard output): the writer of every tab-separated format.

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` = lines written) that
        ``format_line`` filled.
    """
    report = Report()
    name = source_name(dest)
    with text_output(dest) as fh:
        n = 0
        for n, item in enumerate(items, 1):
            fh.write(format_line(item, n, name, report))
        report.sentences = n
    return report


NO_REFERENCE = "lines without a reference column: a noop annotator 0 (judged correct)"
"""Report entry of a tsv line with only a source, extracted as a sentence judged correct."""

EMPTY_REFERENCE = ("empty references of a non-empty source: the whole sentence deleted (write "
                   "the source there where an empty field means no change)")
"""Report entry of an empty reference of a non-empty source (extracted as deleting it all)."""


def checked_references(items: Iterable[Parallel], reader: str, source: Any,
                       report: Any) -> Iterator[Parallel]:
    """``items`` of a text → M2 conversion, refused or reported where their references are
    missing, so that no reference is invented as "no change" silently.

    * ``parallel`` without corrected files (no ``--ref``, or a folder without
      ``annotator-<k>.txt``): an error at the first sentence;
    * ``tsv``: a file in which no line has a reference column is an error (at its end:
      the output is written whole or not at all); lines without one in a file where others
      have them are extracted as judged correct (a noop annotator 0, as NLPCC's ``N = 0``)
      and counted in ``report`` (:data:`NO_REFERENCE`);
    * every format: an empty reference of a non-empty source is counted
      (:data:`EMPTY_REFERENCE`): it deletes the whole sentence, which in some data stands
      for "no change".

    Args:
        items: the reader's sentences.
        reader: the input format's name.
        source: the input (path or open file), for messages.
        report: an :class:`~gecformats.convert.extract.ExtractionReport` (``note``).

    Raises:
        UsageError: parallel text given as a source file without corrected files.
        GecFormatError: a parallel folder without corrected files; a tsv file without any
            reference column.
    """
    name = source_name(source)
    missing = total = 0
    for total, item in enumerate(items, 1):
        if not item.references:
            if reader == "parallel":
                if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
                    raise GecFormatError("no annotator-<k>.txt in the parallel folder: there is "
                                         "no corrected text to extract edits from", name)
                raise UsageError(f"{name}: parallel text → M2 needs the corrected text: give "
                                 "--ref REF (once per annotator), line-aligned with the source")
            if reader == "tsv":
                missing += 1
                report.note(NO_REFERENCE, f"sentence {total}")
        elif item.source.strip():
            for k, ref in enumerate(item.references):
                if ref is not None and not ref.strip():
                    report.note(EMPTY_REFERENCE, f"sentence {total}, reference {k}")
        yield item
    if missing and missing == total:
        raise GecFormatError("no line has a reference column (source<TAB>reference…): there "
                             "is nothing to extract edits from; a file of sources alone is "
                             "--from parallel with --ref REF", name, 1)

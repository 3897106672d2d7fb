"""Parallel sentence files (spec §3): a source file and line-aligned corrected files.

Line *i* of every file belongs to sentence *i*; reference ``k`` of a
:class:`~gecformats.model.Parallel` is the ``k``-th corrected file.  An empty line is a valid
(empty) sentence.  Files are given by path (``read(src, refs=[ref0, ref1])``) or as a folder
in the layout :func:`write` produces::

    out/source.txt
    out/annotator-0.txt
    out/annotator-1.txt

where the integer in ``annotator-<k>.txt`` is the reference position (a missing number in
between makes that position ``None`` in every sentence).  A folder without ``source.txt`` is
read in JFLEG's layout (:func:`jfleg_layout`): ``NAME.src`` and ``NAME.ref0`` …
``NAME.ref3``, lines kept verbatim (JFLEG's dev lines end with a space).

Reading is streaming and tolerant of CRLF line ends and of U+FEFF anywhere in a line (NLPCC
2018's ``source.txt`` has byte-order marks in the middle of the file, §9.2); files with
different numbers of lines are an error naming both counts, never truncated.

The module also holds what the other plain-text formats (``tsv``, ``nlpcc``, ``cherrant``)
share: :func:`clean`, :func:`lines` and :func:`check_text`.

>>> import tempfile, os
>>> folder = os.path.join(tempfile.mkdtemp(), "out")
>>> report = write([Parallel("He go home .", ("He goes home .", None))], folder)
>>> sorted(os.listdir(folder))
['annotator-0.txt', 'source.txt']
>>> list(read(folder))
[Parallel(source='He go home .', references=('He goes home .',), id=None, meta={})]
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, closing
from pathlib import Path
from typing import IO

from gecformats.errors import GecFormatError
from gecformats.io import Source, atomic_directory, lockstep, numbered_lines, source_name
from gecformats.model import Parallel
from gecformats.report import Report

NAME = "parallel"
SUFFIXES: tuple[str, ...] = ()
UNIT = "text"

SOURCE_FILE = "source.txt"
"""The source file's name in a parallel folder."""

ABSENT = "lines of annotators absent from a sentence: wrote the source"
"""Report entry of a ``None`` reference written as a copy of the source line."""

_ANNOTATOR = re.compile(r"annotator-(.*)\.txt")
_LINE_BREAKS = ("\n", "\r")


def annotator_file(k: int) -> str:
    """The file name of reference ``k`` in a parallel folder (``annotator-<k>.txt``)."""
    return f"annotator-{k}.txt"


# ------------------------------------------------------------------ shared by the text formats


def clean(line: str) -> str:
    """A line as every plain-text reader sees it: U+FEFF removed wherever it is (not only at
    the start of the file) and a trailing ``\\r`` (CRLF line ends) removed.

    >>> clean("\\ufeff我\\ufeff在\\r")
    '我在'
    """
    return line.replace("\ufeff", "").rstrip("\r")


def lines(source: Source) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` for each line of ``source``, streaming, :func:`clean`\\ ed.

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.

    Raises:
        GecFormatError: the input is not valid UTF-8 (names the file and line).
        OSError: the file cannot be opened.
    """
    for number, line in numbered_lines(source):
        yield number, clean(line)


def check_text(text: str, what: str, number: int, file: str, *, tab: bool = False) -> str:
    """Check that ``text`` fits on one line (and, with ``tab``, in one tab-separated field).

    Args:
        text: the text to write.
        what: what it is, for the message (``"the source"``, ``"reference 2"``).
        number: the 1-based sentence number, for the message.
        file: the output's name, for the error.
        tab: also refuse a tab.

    Returns:
        ``text`` unchanged.

    Raises:
        GecFormatError: ``text`` holds a line break (``\\n`` or ``\\r``) or, with ``tab``, a
            tab; the message names the sentence.
    """
    if any(c in text for c in _LINE_BREAKS):
        raise GecFormatError(f"sentence {number}: {what} contains a line break, which a "
                             "one-sentence-per-line file cannot hold", file)
    if tab and "\t" in text:
        raise GecFormatError(f"sentence {number}: {what} contains a tab, which a tab-separated "
                             "field cannot hold", file)
    return text


# ----------------------------------------------------------------------------------- reading


def read(source: Source, refs: Sequence[Source] | Source = ()) -> Iterator[Parallel]:
    """Read a source file and its line-aligned corrected files in step (streaming).

    Args:
        source: the source file (a path or an open file), or a folder holding
            ``source.txt`` and ``annotator-<k>.txt`` files (reference position ``k``; a
            number missing in between gives ``None`` at that position).
        refs: with a source file: the corrected files, reference ``k`` = ``refs[k]`` (a
            single path is taken as one reference).  Not allowed with a folder.

    Yields:
        One :class:`~gecformats.model.Parallel` per line (``id`` ``None``, no meta).

    Raises:
        GecFormatError: the files have different numbers of lines (kind ``line-count``;
            names the files and both counts, raised after the aligned sentences were
            yielded), a folder without ``source.txt`` or with a bad ``annotator-*.txt``
            name, or invalid UTF-8.
        OSError: a file cannot be opened.
    """
    files, positions, width = _files(source, refs)
    names = [source_name(f) for f in files]
    with ExitStack() as stack:
        # one generator per file: a decoding error is named by its own file
        streams = [stack.enter_context(closing(lines(f))) for f in files]
        for row in lockstep(list(zip(names, streams)), count_error):
            references: list[str | None] = [None] * width
            for k, (_number, text) in zip(positions, row[1:]):
                references[k] = text
            yield Parallel(row[0][1], tuple(references))  # type: ignore[index]


def line_counts(source: Source, refs: Sequence[Source] | Source = ()) -> list[tuple[str, int]]:
    """The name and number of lines of the source file and of each corrected file.

    Args:
        source, refs: as for :func:`read`.

    Returns:
        ``(name, lines)`` pairs, the source first, then the corrected files in reference
        order.

    Raises:
        GecFormatError: as for :func:`read` (except the line-count mismatch).
        OSError: a file cannot be opened.
    """
    files, _positions, _width = _files(source, refs)
    return [(source_name(f), sum(1 for _ in lines(f))) for f in files]


def count_error(names: Sequence[str], counts: Sequence[int]) -> GecFormatError:
    """The error for line-aligned files with different numbers of lines.

    Args:
        names: the files' names, the source first.
        counts: their numbers of lines, in the same order.

    Returns:
        A :class:`GecFormatError` of kind ``line-count`` naming the first corrected file
        whose count differs from the source's, at the first line without a partner; the
        message names every such file with both counts.
    """
    source, expected = names[0], counts[0]
    differ = [(name, n) for name, n in zip(names[1:], counts[1:]) if n != expected]
    message = "; ".join(f"{name} has {n} lines but {source} has {expected}" for name, n in differ)
    first, n = differ[0]
    return GecFormatError(f"{message} (line-aligned files must have the same number of lines)",
                          first, min(n, expected) + 1, "line-count")


def _files(source: Source, refs: Sequence[Source] | Source) -> tuple[list[Source], list[int], int]:
    """The files to read (source first), the reference position of each corrected file and
    the number of reference positions."""
    if isinstance(refs, (str, os.PathLike)) or hasattr(refs, "read"):
        refs = [refs]  # type: ignore[list-item]
    if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        if refs:
            raise GecFormatError("corrected files cannot be given with a parallel folder "
                                 f"(it holds its own {annotator_file(0)}, …)", os.fspath(source))
        return _folder(Path(source))
    files = [source, *refs]  # type: ignore[misc]
    return files, list(range(len(files) - 1)), len(files) - 1


def _folder(folder: Path) -> tuple[list[Source], list[int], int]:
    if not (folder / SOURCE_FILE).is_file():
        jfleg = jfleg_layout(folder)
        if jfleg is None:
            raise GecFormatError(f"no {SOURCE_FILE} in the parallel folder (nor a JFLEG "
                                 "layout: NAME.src with NAME.ref0, NAME.ref1, …)", str(folder))
        return jfleg
    found: dict[int, Path] = {}
    for path in sorted(folder.iterdir()):
        match = _ANNOTATOR.fullmatch(path.name)
        if match is None or not path.is_file():
            continue
        if not match.group(1).isascii() or not match.group(1).isdigit():
            raise GecFormatError(f"{path.name}: the annotator id must be a non-negative "
                                 f"integer, as in {annotator_file(0)}", str(path))
        k = int(match.group(1))
        if k in found:
            raise GecFormatError(f"{path.name} and {found[k].name} are both annotator {k}",
                                 str(path))
        found[k] = path
    positions = sorted(found)
    files: list[Source] = [folder / SOURCE_FILE, *(found[k] for k in positions)]
    return files, positions, (positions[-1] + 1 if positions else 0)


_JFLEG_REF = re.compile(r"(.+)\.ref(\d+)")


def jfleg_layout(folder: Path) -> tuple[list[Source], list[int], int] | None:
    """The files of a folder in JFLEG's layout, or ``None`` when it is not one.

    JFLEG ships each split as ``NAME.src`` with its references ``NAME.ref0`` …
    ``NAME.ref3`` (``dev/dev.src``, ``dev/dev.ref0`` …); ``NAME.spellchecked.src``, an
    alternative system input without references, is not a source.  Reference ``k`` is
    ``NAME.ref<k>`` (a number missing in between gives ``None`` there, as for
    ``annotator-<k>.txt``).

    Returns:
        ``(files, positions, width)`` as for a ``source.txt`` folder; ``None`` when the folder
        holds no ``NAME.src`` with at least one ``NAME.ref<k>``.

    Raises:
        GecFormatError: several ``NAME.src`` files have references (which one is meant?).
    """
    refs: dict[str, dict[int, Path]] = {}
    for path in sorted(folder.iterdir()):
        match = _JFLEG_REF.fullmatch(path.name)
        if match is not None and match.group(2).isascii() and path.is_file():
            refs.setdefault(match.group(1), {})[int(match.group(2))] = path
    stems = [stem for stem in sorted(refs) if (folder / f"{stem}.src").is_file()]
    if not stems:
        return None
    if len(stems) > 1:
        raise GecFormatError("several JFLEG sources with references in one folder ("
                             + ", ".join(f"{stem}.src" for stem in stems)
                             + "): give one with --ref", str(folder))
    found = refs[stems[0]]
    positions = sorted(found)
    files: list[Source] = [folder / f"{stems[0]}.src", *(found[k] for k in positions)]
    return files, positions, positions[-1] + 1


# ----------------------------------------------------------------------------------- writing


def write(items: Iterable[Parallel], dest: str | os.PathLike[str]) -> Report:
    """Write a parallel folder: ``source.txt`` and ``annotator-<k>.txt`` for every ``k``
    present (not ``None``) in any item; streaming, whole or not at all.

    A ``None`` reference is written as a copy of the source line and counted in the report
    (:data:`ABSENT`); so are the earlier sentences of an annotator that first appears late,
    whose file is back-filled from the source file written so far.  Ids cannot be kept
    (reported).

    Args:
        items: the sentences.
        dest: the folder (created if needed; files of the same names are replaced).

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` = sentences written).

    Raises:
        GecFormatError: a text contains a line break (names the sentence); ``dest`` is a
            file, standard output, or a folder holding an ``annotator-*.txt`` this output
            would not replace (it would read back as an extra annotator).  Nothing is
            written then.
        OSError: the folder cannot be written.
    """
    if not isinstance(dest, (str, os.PathLike)) or os.fspath(dest) == "-":
        raise GecFormatError("parallel output is a folder; give its path")
    target = Path(os.fspath(dest))
    if target.exists() and not target.is_dir():
        raise GecFormatError("parallel output is a folder, but this is a file", str(target))
    report = Report()
    with atomic_directory(target) as tmp:
        written = _write(items, tmp, str(target), report)
        for path in sorted(target.glob("annotator-*.txt")) if target.is_dir() else ():
            if path.name not in written:
                raise GecFormatError(f"the folder already holds {path.name}, which this output "
                                     "does not replace (it would read as an extra annotator); "
                                     "remove it or write to another folder", str(path))
    return report


def _write(items: Iterable[Parallel], tmp: Path, name: str, report: Report) -> set[str]:
    """Write the files into ``tmp``; return the names of the annotator files."""
    outputs: dict[int, IO[str]] = {}
    with ExitStack() as stack:
        source = stack.enter_context(_open(tmp / SOURCE_FILE, "w"))
        n = 0
        for n, item in enumerate(items, 1):
            check_text(item.source, "the source", n, name)
            for k in item.present():
                check_text(item.references[k], f"reference {k}", n, name)  # type: ignore[arg-type]
            if item.id is not None:
                report.drop("sentence ids (a parallel folder has none)",
                            f"sentence {n}: {item.id!r}")
            for k in item.present():
                if k not in outputs:
                    outputs[k] = stack.enter_context(_open(tmp / annotator_file(k), "w"))
                    _backfill(outputs[k], source, tmp / SOURCE_FILE, n - 1, k, report)
            source.write(item.source + "\n")
            for k, out in outputs.items():
                ref = item.references[k] if k < len(item.references) else None
                if ref is None:
                    report.note(ABSENT, f"sentence {n}, annotator {k}")
                    ref = item.source
                out.write(ref + "\n")
        report.sentences = n
    return {annotator_file(k) for k in outputs}


def _backfill(out: IO[str], source: IO[str], path: Path, count: int, k: int,
              report: Report) -> None:
    """Copy the first ``count`` source lines (already written) to annotator ``k``'s file."""
    if count == 0:
        return
    source.flush()
    with _open(path, "r") as written:
        for line in itertools.islice(written, count):
            out.write(line)
    span = "sentence 1" if count == 1 else f"sentences 1-{count}"
    report.note(ABSENT, f"{span}, annotator {k} (first present in sentence {count + 1})", count)


def _open(path: Path, mode: str) -> IO[str]:
    return open(path, mode, encoding="utf-8", newline="\n")

"""Reading input line by line and writing output whole or not at all.

Every reader takes a path or an open file; :func:`numbered_lines` turns either into a stream
of ``(line_number, text)`` pairs with the encoding quirks of real GEC data removed (a UTF-8
byte-order mark, CRLF line ends, a missing final newline).  Every writer writes through
:func:`atomic_output`, so an error half-way leaves no partial file behind.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Union

from gecformats.errors import GecFormatError

Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]
"""What readers accept: a path (``-`` is standard input) or an open text or binary file."""


def source_name(source: Source) -> str:
    """The name used in error messages for ``source``."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        return "<stdin>" if name == "-" else name
    return str(getattr(source, "name", "<stream>"))


def numbered_lines(source: Source) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` for each line of ``source``, streaming.

    Lines are decoded as strict UTF-8 and lose their line terminator (``\\n`` or ``\\r\\n``);
    a UTF-8 byte-order mark at the start of the input is dropped.  A path ending in ``.gz``
    is decompressed.  Line numbers start at 1.

    Raises:
        GecFormatError: a line is not valid UTF-8 (names the file and line).
        OSError: the file cannot be opened.
    """
    name = source_name(source)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            yield from _binary_lines(sys.stdin.buffer, name)
            return
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as fh:  # type: ignore[operator]
            yield from _binary_lines(fh, name)
        return
    if isinstance(source, io.TextIOBase) or _is_text(source):
        for number, line in enumerate(source, 1):  # type: ignore[arg-type]
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            yield number, line.rstrip("\r\n")
        return
    yield from _binary_lines(source, name)  # type: ignore[arg-type]


def _is_text(fh: object) -> bool:
    mode = getattr(fh, "mode", "")
    return isinstance(mode, str) and "b" not in mode and hasattr(fh, "encoding")


def _binary_lines(fh: IO[bytes], name: str) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(fh, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise GecFormatError(
                f"not valid UTF-8 (byte {exc.start + 1} of the line)", name, number
            ) from None
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield number, line.rstrip("\r\n")


@contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """Open ``path`` for writing UTF-8 text (LF line ends) so that it appears whole or not at all.

    The text goes to a temporary file in the same folder, which replaces ``path`` only when
    the ``with`` block ends without an exception; otherwise it is removed and ``path`` is left
    as it was.  ``-`` writes to standard output instead (not atomic).
    """
    target = os.fspath(path)
    if target == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    folder = os.path.dirname(os.path.abspath(target))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the usual mode
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def ensure_parent(path: str | os.PathLike[str]) -> None:
    """Create the folder that will hold ``path`` if it does not exist yet."""
    Path(os.fspath(path)).parent.mkdir(parents=True, exist_ok=True)

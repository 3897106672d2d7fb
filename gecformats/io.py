"""Reading input line by line and writing output whole or not at all.

Every reader takes a path or an open file; :func:`numbered_lines` turns either into a stream
of ``(line_number, text)`` pairs with the encoding quirks of real GEC data removed (a UTF-8
byte-order mark, CRLF line ends, a missing final newline).  Every writer writes through
:func:`atomic_output`, so an error half-way leaves no partial file behind.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import IO, TYPE_CHECKING, Any, Union

from gecformats.errors import USER_ERRORS, GecFormatError

if TYPE_CHECKING:
    import gzip
    from pathlib import Path

# gzip, tempfile, signal, threading and pathlib are imported where they are used: the
# ``maxmatch`` and ``score`` commands read plain files and start measurably faster without

Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]
"""What readers accept: a path (``-`` is standard input) or an open text or binary file."""


def source_name(source: Source) -> str:
    """The name used in error messages for ``source``."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        return "<stdin>" if name == "-" else name
    return str(getattr(source, "name", "<stream>"))


MAX_LINE = 10 * 1024 * 1024
"""The longest line a line reader accepts: 10 MiB (10,485,760 characters; bytes where a
file is read as bytes).  A longer line is refused while it is read, before it is held
whole, with the file and line named (the longest line in the GEC corpora we know is under
100,000 characters)."""


def numbered_lines(source: Source) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` for each line of ``source``, streaming.

    Lines lose their line terminator (``\\n``, ``\\r\\n`` or a lone ``\\r``); see
    :func:`text_lines` for decoding.  Line numbers start at 1.

    Raises:
        GecFormatError: the input is not valid UTF-8, or has a line longer than
            :data:`MAX_LINE` (names the file and line).
        OSError: the file cannot be opened.
    """
    with text_lines(source) as lines:
        for number, line in enumerate(lines, 1):
            yield number, line.rstrip("\r\n")


@contextmanager
def text_lines(source: Source) -> Iterator[Iterator[str]]:
    """Open ``source`` and give an iterator over its lines (each ends in ``\\n``, but for a
    last line without one).

    A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (Python's universal newlines,
    as ``open()`` reads text), and every such end is given as ``\\n``: a file with CRLF or
    CR-only line ends reads exactly as its LF twin.  The text is decoded as strict UTF-8 and
    a byte-order mark at the very start is dropped.  A line longer than :data:`MAX_LINE`
    is refused as soon as that much of it is read.  A path ending in ``.gz`` is
    decompressed; ``-`` is standard input.  The file is closed when the ``with`` block
    ends.  Decoding is done by the C text layer; only when it fails is the input read again
    to find the offending line.

    Raises:
        GecFormatError: (within the ``with`` block) the input is not valid UTF-8 (names the
            file and, for a file given by path, the line), or a line is longer than
            :data:`MAX_LINE` (file and line).
        OSError: the file cannot be opened.
    """
    name = source_name(source)
    if isinstance(source, io.TextIOBase) or _is_text(source):
        with _decoding(source, name):
            yield _bounded(source, name, universal=False)  # type: ignore[arg-type]
        return
    with ExitStack() as stack:
        if isinstance(source, (str, os.PathLike)):
            raw: IO[bytes] = stack.enter_context(open_binary(source))
        else:
            raw = source  # type: ignore[assignment]
        # not "utf-8-sig": its decoder silently drops a file that is only a truncated BOM
        # (b"\xef" or b"\xef\xbb") instead of calling it invalid UTF-8
        text = io.TextIOWrapper(raw, encoding="utf-8", newline=None)
        # detach, not close: the binary file is closed by open_binary, or is the caller's
        stack.callback(_detach, text)
        with _decoding(source, name):
            yield _bounded(text, name, universal=True)


def _detach(text: io.TextIOWrapper) -> None:
    """Detach ``text`` from its binary file, which may be closed already: a reader left
    unfinished by an error is finalized by the garbage collector, in no set order with the
    generator of :func:`open_binary` that closes the file ("Exception ignored ... I/O
    operation on closed file" on standard error otherwise)."""
    try:
        text.detach()
    except ValueError:
        pass


def string_lines(text: str, name: str = "<string>") -> Iterator[str]:
    """The lines of ``text`` as :func:`text_lines` gives a file's (line ends as ``\\n``,
    CRLF and lone CR included, a leading byte-order mark dropped, :data:`MAX_LINE` applied):
    what the ``parse(text)`` functions of the readers split their text with."""
    return _bounded(io.StringIO(text, newline=None), name, universal=True)


def _bounded(text: IO[str], name: str, *, universal: bool) -> Iterator[str]:
    """The lines of ``text``, each read with a bounded ``readline`` (a line longer than
    :data:`MAX_LINE` is refused once that much is read, never held whole), the byte-order
    mark at the very start removed.  Unless ``universal`` (the text layer already turned
    every line end into ``\\n``), a line is also cut at lone CRs and its CRLF made LF."""
    limit = MAX_LINE
    readline = text.readline
    try:
        line = readline(limit + 1)
    except io.UnsupportedOperation:  # a text object that can only be iterated
        lines = iter(text)
        line = next(lines, "")
        readline = lambda _limit: next(lines, "")  # noqa: E731
    number = 0
    while True:
        if number:
            line = readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and line[-1] != "\n":
            raise _too_long(name, number, limit, "characters")
        if number == 1 and line[0] == "\ufeff":
            line = line[1:]
            if not line:
                continue
        if not universal and "\r" in line:
            pieces = line.replace("\r\n", "\n").split("\r")
            last = pieces.pop()
            for piece in pieces:
                yield piece + "\n"
            if last:
                yield last
            continue
        yield line


def binary_lines(fh: IO[bytes], name: str) -> Iterator[bytes]:
    """The lines of a binary file split on ``\\n`` only, each with its ``\\n`` (but a last
    line without one), for the readers that follow an original tool byte for byte (the NUS
    scorer's and GLEU's hypothesis readers).  Each is read with a bounded ``readline``: a
    line longer than :data:`MAX_LINE` bytes is refused once that much is read.

    Raises:
        GecFormatError: a line longer than :data:`MAX_LINE` bytes (file and line).
    """
    limit = MAX_LINE
    readline = fh.readline
    number = 0
    while True:
        raw = readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit and raw[-1:] != b"\n":
            raise _too_long(name, number, limit, "bytes")
        yield raw


def _too_long(name: str, number: int, limit: int, unit: str) -> GecFormatError:
    return GecFormatError(f"the line is longer than {limit:,} {unit} (the limit for one line, "
                          "gecformats.io.MAX_LINE); is this the right file?", name, number,
                          "too-large")


@contextmanager
def _decoding(source: Source, name: str) -> Iterator[None]:
    try:
        yield
    except UnicodeDecodeError as exc:
        raise _decode_error(source, name, exc) from None


@contextmanager
def open_binary(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """Open ``path`` for reading bytes: ``-`` is standard input (left open afterwards), a
    name ending in ``.gz`` is decompressed.

    Raises:
        OSError: the file cannot be opened.
    """
    name = os.fspath(path)
    if name == "-":
        yield sys.stdin.buffer
        return
    if not name.endswith(".gz"):
        with open(name, "rb") as fh:
            yield fh
        return
    import gzip

    with gzip.open(name, "rb") as gz, io.BufferedReader(_CheckedGzip(gz, name), 1 << 16) as fh:
        yield fh


class _CheckedGzip(io.RawIOBase):
    """A gzip stream whose corruption is a :class:`GecFormatError` naming the file
    (``gzip`` raises ``zlib.error``, ``EOFError`` or ``BadGzipFile`` without it)."""

    def __init__(self, gz: gzip.GzipFile, name: str) -> None:
        super().__init__()
        self._gz = gz
        self._name = name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import gzip
        import zlib

        try:
            return self._gz.readinto(buffer)
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
            reason = "truncated" if isinstance(exc, EOFError) else f"corrupt ({exc})"
            raise GecFormatError(f"cannot decompress: the gzip data is {reason}",
                                 self._name) from None


def decode_utf8(data: bytes, name: str) -> str:
    """A whole file's bytes as strict UTF-8, keeping everything (a BOM included).

    Raises:
        GecFormatError: invalid UTF-8, named by line and byte within the line as the
            streaming readers name it (the same in a file's CRLF twin).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise GecFormatError(f"not valid UTF-8 (byte {column} of the line)", name,
                             line) from None


def _decode_error(source: Source, name: str, exc: UnicodeDecodeError) -> GecFormatError:
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-":
        with open_binary(source) as fh:
            found = _first_bad_byte(fh)
        if found is not None:
            return GecFormatError(f"not valid UTF-8 (byte {found[1]} of the line)", name,
                                  found[0])
    return GecFormatError(f"not valid UTF-8 ({exc.reason})", name)


def _first_bad_byte(fh: IO[bytes]) -> tuple[int, int] | None:
    """The line and the byte within it (both from 1) of the first byte of ``fh`` that is not
    valid UTF-8, lines ending as in :func:`text_lines`; read in blocks, in constant memory
    however long a line is.  ``None`` if the whole input is valid."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    line, start, offset, after_cr = 1, 0, 0, False  # start: offset of the line's first byte

    def advance(segment: bytes, at: int) -> None:
        nonlocal line, start, after_cr
        breaks = segment.count(b"\n") + segment.count(b"\r") - segment.count(b"\r\n")
        if after_cr and segment[:1] == b"\n":
            breaks -= 1  # the LF of a CRLF cut between two blocks
        last = max(segment.rfind(b"\n"), segment.rfind(b"\r"))
        if last >= 0:
            start = at + last + 1
        line += breaks
        after_cr = segment.endswith(b"\r") or (after_cr and not segment)

    while True:
        block = fh.read(1 << 16)
        held = len(decoder.getstate()[0])  # bytes of a character begun in the last block
        try:
            decoder.decode(block, not block)
        except UnicodeDecodeError as bad:
            position = offset - held + bad.start
            advance(block[:max(0, position - offset)], offset)
            return line, position - start + 1
        if not block:
            return None
        advance(block, offset)
        offset += len(block)


def _is_text(fh: object) -> bool:
    mode = getattr(fh, "mode", "")
    return isinstance(mode, str) and "b" not in mode and hasattr(fh, "encoding")


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
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", target)
    if special_file(target):  # /dev/null, a FIFO: written in place (nothing to replace)
        with terminations_raise(), open(target, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        return
    import tempfile

    folder = os.path.dirname(os.path.abspath(target))
    with _named_as(target):
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
    try:
        with terminations_raise(), open(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        with _named_as(target):
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the usual mode
            replace_file(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


@contextmanager
def atomic_outputs(paths: Sequence[str | os.PathLike[str]]) -> Iterator[list[IO[str]]]:
    """Several :func:`atomic_output` files that appear together or not at all: each is
    written to a temporary file beside it (all created before any text is written, so a
    folder that does not exist refuses them all), and they replace their targets only when
    the ``with`` block ends without an exception.  Yields their handles, in order."""
    with ExitStack() as stack:
        yield [stack.enter_context(atomic_output(p)) for p in paths]


def own_lines(lines: Iterable[str], source: Source) -> Iterator[str]:
    """The lines of :func:`text_lines` for ``source``, with a decoding error blamed on
    ``source`` itself (file and line) where it happens.

    A reader that reads several files in step (``.conll`` and its ``.conll.ann``) keeps
    each one's errors its own: otherwise the innermost open file's ``with`` block names
    itself for another file's bad byte.

    Raises:
        GecFormatError: ``source`` is not valid UTF-8 (file and, for a path, line named).
    """
    it = iter(lines)
    while True:
        try:
            line = next(it)
        except StopIteration:
            return
        except UnicodeDecodeError as exc:
            raise _decode_error(source, source_name(source), exc) from None
        yield line


@contextmanager
def _named_as(target: str) -> Iterator[None]:
    """OS errors about a temporary file are reported with the path the user gave."""
    try:
        yield
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror or str(exc), target) from None


class Terminated(SystemExit):
    """SIGTERM or SIGHUP arrived while an output was being written; the exit status is
    128 + the signal number, as a shell reports a process ended by the signal."""


@contextmanager
def terminations_raise() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated`, so that the
    ``except`` clauses that remove temporary files run (by default the signals end the
    process at once and leave them behind).  The previous handlers are restored after.
    Only the main thread can set handlers; elsewhere this does nothing."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
              if s is not None]

    owner = os.getpid()

    def raise_terminated(signum: int, _frame: object) -> None:
        if os.getpid() != owner:
            # a forked worker (extract --jobs) inherited the handler: die as by default, so
            # that a pool can stop its workers (it sends SIGTERM) without raising in them
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated(128 + signum)

    previous = {}
    for signum in wanted:
        handler = signal.getsignal(signum)
        if handler in (signal.SIG_DFL, None):  # a handler someone else set is kept
            previous[signum] = handler
            signal.signal(signum, raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


@contextmanager
def text_output(dest: str | os.PathLike[str] | IO[str]) -> Iterator[IO[str]]:
    """Write to ``dest``: a path through :func:`atomic_output` (whole or not at all, ``-``
    for standard output), or an open text file as it is (left open)."""
    if isinstance(dest, (str, os.PathLike)):
        with atomic_output(dest) as fh:
            yield fh
    else:
        yield dest


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def ensure_parent(path: str | os.PathLike[str]) -> None:
    """Create the folder that will hold ``path`` if it does not exist yet."""
    from pathlib import Path

    Path(os.fspath(path)).parent.mkdir(parents=True, exist_ok=True)


@contextmanager
def atomic_directory(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A folder to write many files into, so that they all appear or none does.

    Yields a temporary folder beside ``path``.  When the ``with`` block ends without an
    exception its files are moved into ``path`` (created if needed; files already there
    with other names stay, files with the same names are replaced); otherwise the
    temporary folder is removed and ``path`` is left as it was.  An error about a file in
    the temporary folder names it inside ``path``, as the user would find it.
    """
    import shutil
    import tempfile
    from pathlib import Path

    target = Path(os.fspath(path))
    parent = target.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    with _named_as(os.fspath(path)):
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    try:
        with terminations_raise():
            yield tmp
        if not target.exists():
            os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp creates 0700; give the usual mode
        move_into(tmp, target)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, (OSError, GecFormatError)):
            raise renamed(exc, {str(tmp): os.fspath(path)}) from None
        raise


def special_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` exists and is neither a regular file nor a folder: a device
    (``/dev/null``), a pipe or a socket, which an output is written into, never renamed
    over."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def replace_file(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    """Put the finished file ``src`` in place of ``dst``: renamed over it, except where
    ``dst`` is a device, a pipe or a socket (``-o /dev/null``, a FIFO another process
    reads): then ``src`` is copied into it and removed, and ``dst`` stays what it was (a
    rename run as root replaced ``/dev/null`` with a regular file)."""
    if not special_file(dst):
        os.replace(src, dst)
        return
    import shutil

    with open(src, "rb") as fh, open(dst, "wb") as out:
        shutil.copyfileobj(fh, out)
    os.unlink(src)


def move_into(src: Path, dst: Path) -> None:
    """Move ``src`` to ``dst``: a file replaces ``dst``; a folder becomes ``dst`` when
    there is none, else its files are moved into ``dst`` (files of other names there stay,
    files of the same names are replaced) and ``src`` is removed."""
    import shutil

    if not src.is_dir() or not dst.exists():
        replace_file(src, dst)
        return
    for file in sorted(src.rglob("*")):
        if file.is_file():
            to = dst / file.relative_to(src)
            to.parent.mkdir(parents=True, exist_ok=True)
            replace_file(file, to)
    shutil.rmtree(src, ignore_errors=True)


@contextmanager
def staged_output(dest: str | os.PathLike[str]) -> Iterator[tuple[str, str]]:
    """Write ``dest`` in a staging folder first, so that it can be read back before it
    appears (whole or not at all, as :func:`atomic_output`).

    Yields ``(target, written)``: the path to give the writer (``dest`` inside a new
    temporary folder beside ``dest``, created as a folder when ``dest`` is one; ``-`` for
    standard output, which is then sent to a temporary file) and the path of what it wrote.
    When the block ends without an exception, everything in the staging folder (``dest``
    and the files a writer puts beside it) is moved beside ``dest`` (a folder merged into
    an existing one, as :func:`atomic_directory`), or the text sent to standard output;
    otherwise nothing appears.  Errors name the paths the user gave, not the staging folder.
    """
    import shutil
    import tempfile
    from contextlib import redirect_stdout
    from pathlib import Path

    name = os.fspath(dest)
    if name == "-":
        with tempfile.TemporaryDirectory(prefix="gecformats-") as tmp:
            written = os.path.join(tmp, "stdout")
            try:
                with open(written, "w", encoding="utf-8", newline="\n") as fh, \
                        redirect_stdout(fh):
                    yield "-", written
            except (OSError, GecFormatError) as exc:
                raise renamed(exc, {written: "<stdout>"}) from None
            with open(written, encoding="utf-8", newline="") as fh:
                shutil.copyfileobj(fh, sys.stdout)
            sys.stdout.flush()
        return
    target = Path(name)
    parent = target.absolute().parent
    missing = [d for d in (parent, *parent.parents) if not d.exists()]
    with _named_as(name):
        parent.mkdir(parents=True, exist_ok=True)
        # beside dest, so that the files move by a rename; a device such as /dev/null is
        # written into from a stage in the temporary folder
        stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp",
                                      dir=None if special_file(name) else parent))
    inner = stage / target.name
    folder = os.path.dirname(name)
    names = {str(inner): name, str(stage) + os.sep: folder + os.sep if folder else ""}
    done = False
    try:
        if target.is_dir():
            inner.mkdir()
        with terminations_raise():
            yield str(inner), str(inner)
        if missing and inner.is_file():  # as atomic_output: a file goes in an existing folder
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
        for entry in sorted(stage.iterdir()):
            move_into(entry, parent / entry.name)
        done = True
    except BaseException as exc:
        if isinstance(exc, (OSError, GecFormatError)):
            raise renamed(exc, names) from None
        raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        for created in () if done else missing:  # the folders made for the stage only
            try:
                created.rmdir()
            except OSError:
                break


def renamed(exc: BaseException, names: dict[str, str]) -> BaseException:
    """``exc`` with the paths it names that start with a key of ``names`` (a temporary or
    absolute path) named by its value instead (the path as the user gave it), so that an
    error reads as it would without the temporary or absolute path."""
    def name(text: str | None) -> str | None:
        if text is None:
            return None
        for path in sorted(names, key=len, reverse=True):
            if names[path] != path:
                text = text.replace(path, names[path])
        return text

    if isinstance(exc, GecFormatError):
        return type(exc)(name(exc.message) or "", name(exc.file), exc.line, exc.kind)
    if isinstance(exc, OSError) and exc.filename is not None:
        filename = exc.filename if not isinstance(exc.filename, str) else name(exc.filename)
        return type(exc)(exc.errno, exc.strerror, filename)
    return exc


def json_text(data: object, **options: Any) -> str:
    """``data`` as JSON text (``json.dumps`` with ``options``), every float that is not a
    number or is infinite written ``null``: ``json.dumps`` alone writes ``NaN`` and
    ``Infinity``, which are not JSON (``jq``, JavaScript's ``JSON.parse`` and strict
    parsers refuse the whole document).  Every JSON output of the project goes through here.

    >>> json_text({"tau": float("nan"), "r": [0.5, float("inf")]})
    '{"tau": null, "r": [0.5, null]}'
    """
    import json

    return json.dumps(_finite(data), allow_nan=False, **options)


def _finite(data: Any) -> Any:
    if isinstance(data, float):
        return data if data - data == 0 else None  # NaN and ±inf give NaN
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(v) for v in data]
    return data


def write_json(data: object, path: str | os.PathLike[str]) -> None:
    """Write ``data`` as indented UTF-8 JSON to ``path`` (whole or not at all; a float
    that is not finite as ``null``, see :func:`json_text`)."""
    with atomic_output(path) as fh:
        fh.write(json_text(data, ensure_ascii=False, indent=1))
        fh.write("\n")


def lockstep(streams: Sequence[tuple[str, Iterable[Any]]],
             mismatch: Callable[[list[str], list[int]], Exception]) -> Iterator[tuple[Any, ...]]:
    """Read line-aligned inputs in step: one row per position, one item from each stream.

    The one place where files that must have the same number of lines (a source and its
    references, a gold file and a hypothesis, several system outputs) are read together.

    Args:
        streams: ``(name, items)`` pairs, e.g. a file's name and its lines.
        mismatch: builds the error when a stream ends before another: it gets the names and
            every stream's full count (what is left of each is counted, not kept).

    Yields:
        Tuples of one item per stream, in stream order, as long as every stream has one.

    Raises:
        The exception ``mismatch`` returns, after the aligned rows were yielded.
    """
    iterators = [iter(items) for _, items in streams]
    count = 0
    while True:
        row = [next(it, _END) for it in iterators]
        ended = [cell is _END for cell in row]
        if all(ended):
            return
        if any(ended):
            counts = [count + (not end) + sum(1 for _ in it) for end, it in zip(ended, iterators)]
            raise mismatch([name for name, _ in streams], counts)
        count += 1
        yield tuple(row)


_END = object()
"""The end of a stream in :func:`lockstep` (``None`` can be an item)."""


def chunks(items: Iterable[Any], size: int, settings: Any = None
           ) -> Iterator[tuple[Any, int, list[Any]]]:
    """``(settings, first, batch)`` tasks of ``size`` items (``first`` numbers the batch's
    first item from 1), read from ``items`` as they are asked for: the work of a pipeline,
    done in this process, by ``--jobs`` workers or on a cluster (:mod:`gecformats.dist`).

    Raises:
        USER_ERRORS: what reading ``items`` raised, after the task of the items read
            before it."""
    batch: list[Any] = []
    first = 1
    try:
        for item in items:
            batch.append(item)
            if len(batch) == size:
                yield settings, first, batch
                first += len(batch)
                batch = []
    except USER_ERRORS:
        # the items read before the bad one are still work, as on the plain path, where
        # they are written before the error (which an earlier item's own error precedes)
        if batch:
            yield settings, first, batch
        raise
    if batch:
        yield settings, first, batch

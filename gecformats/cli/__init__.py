"""The ``gecformats`` command line: thin wrappers around the library functions, one module
per command (:mod:`gecformats.cli.convert` ...), and the machinery they share here: one-line
errors and exit statuses, progress bars, ``-o`` files.

The typer application, :data:`app`, is :mod:`gecformats.cli.group`'s, imported on first use:
this module imports neither typer nor a command, so that :func:`main` can hand a plain
``score`` run to :mod:`gecformats.cli.fast` (issue 37: start-up)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

from gecformats.errors import GecFormatError, UsageError

COMMANDS: dict[str, str] = {
    "convert": "convert", "stats": "stats", "validate": "validate", "refs": "refs",
    "score": "score", "gleu": "gleu", "imeasure": "imeasure", "correlate": "correlate",
    "meta-eval": "metaeval", "report": "report", "align": "align", "explain": "explain",
}
"""Command name → the module of this package that defines it (and registers it on
:data:`app` when imported), in the order of ``--help``.  A run imports the module of its
command only: ``score`` does not pay for the option declarations (and their imports) of
the other eleven."""


def load_commands(*names: str) -> None:
    """Import the modules of commands ``names`` (all of them by default), which registers
    them on :data:`app`.

    Raises:
        KeyError: an unknown command name.
    """
    import importlib

    for name in names or COMMANDS:
        importlib.import_module(f"{__name__}.{COMMANDS[name]}")



@contextmanager
def user_errors() -> Iterator[None]:
    """Turn every problem a user can cause into one ``gecformats: FILE:LINE: message`` line on
    standard error and the exit status of the one convention of every command: 1 for bad
    input data (malformed, misaligned, unreadable or missing files), 2 for bad usage (an
    unknown format name, a format that cannot be inferred, an option that does not apply).
    """
    try:
        yield
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(0) from None
    except GecFormatError as exc:
        echo(f"gecformats: {exc}", err=True)
        raise SystemExit(USAGE if isinstance(exc, UsageError) else BAD_DATA) from None
    except UnicodeDecodeError as exc:
        echo(f"gecformats: not valid UTF-8 ({exc.reason})", err=True)
        raise SystemExit(BAD_DATA) from None
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        echo(f"gecformats: {name}: {reason}" if name else f"gecformats: {reason}", err=True)
        raise SystemExit(BAD_DATA) from None
    except (MemoryError, RecursionError) as exc:
        what = "out of memory" if isinstance(exc, MemoryError) else "input nested too deeply"
        echo(f"gecformats: {what}: the input is too large or malformed for this command",
                   err=True)
        raise SystemExit(BAD_DATA) from None


BAD_DATA = 1
"""Exit status for bad input data (malformed, misaligned, unreadable, missing)."""
USAGE = 2
"""Exit status for bad usage (unknown option or format, missing argument, bad value)."""


def warn_reading(format_name: str | None) -> None:
    """Print the warning of a format whose reading cannot reproduce what its files stand
    for (a module's ``WARNING``, e.g. JFLEG's M2), on standard error."""
    from gecformats import formats

    warning = getattr(formats.FORMATS.get(format_name or ""), "WARNING", None)
    if warning:
        echo(f"gecformats: warning: {warning}", err=True)



def _engine(engine: Any, scheduler: str | None, workers: int | None,
            partitions: int | None) -> Any:
    """The Dask engine to run in (a context manager), or a null one for the local path;
    ``engine`` is ``--engine``'s value (its choice or the name)."""
    if getattr(engine, "value", engine) == "local":
        return contextlib.nullcontext(None)
    from gecformats.dist import Engine

    return Engine(scheduler, workers=workers, partitions=partitions)


def with_progress(items: Iterable[T], total: int, label: str = "scoring") -> Iterator[T]:
    """``items``, with a progress bar on standard error that starts once the first item is
    ready: set-up (loading jieba, reading the gold) is not counted against the first item,
    so the estimated time left is the per-item rate times the items left."""
    it = iter(items)
    first = next(it, _NOTHING)
    if first is _NOTHING:
        return
    import typer

    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        bar.update(1)
        yield first  # type: ignore[misc]
        for item in it:
            bar.update(1)
            yield item


@contextlib.contextmanager
def progress_bar(total: int | None | Callable[[], int | None], enabled: bool = True,
                 label: str = "scoring") -> Iterator[Callable[[int], None] | None]:
    """A progress bar of ``total`` steps on standard error, as a callback taking the steps
    just done; ``None`` (no bar) when not ``enabled``, when ``total`` is unknown or when
    standard error is not a terminal (a pipe, a file, a test).  ``total`` may be a function
    giving it, called only when a bar is shown (counting an input's lines costs a pass)."""
    if enabled and sys.stderr.isatty() and callable(total):
        total = total()
    if not enabled or total is None or not sys.stderr.isatty():
        yield None
        return
    assert not callable(total)
    import typer

    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update


_NOTHING = object()
T = TypeVar("T")


def __getattr__(name: str) -> Any:
    # the typer application, made (and typer imported) when a command needs it
    if name == "app":
        from gecformats.cli.group import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def echo(message: str, err: bool = False, file: IO[str] | None = None, nl: bool = True) -> None:
    """Write ``message`` (and a newline unless not ``nl``) to standard output, standard error
    (``err``) or ``file``, and flush: ``typer.echo`` for text, without importing typer."""
    stream = file if file is not None else sys.stderr if err else sys.stdout
    stream.write(message + "\n" if nl else message)
    stream.flush()


def aborted() -> None:
    """End the run for an end of input where a command asked for more (click's ``Abort``):
    one line and exit status 1.  (Ctrl-C ends a run with status 130 and no message.)"""
    echo("gecformats: aborted", err=True)
    sys.exit(BAD_DATA)


# ``-o FILE`` of score and meta-eval: the format from the file's suffix
OUTPUT_SUFFIXES = {".txt": "text", ".json": "json", ".tsv": "tsv", ".csv": "csv", ".tex": "latex"}
"""The suffixes ``-o`` knows and the output format each names."""


def output_files(paths: Iterable[str] | None, formats: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each ``-o FILE`` with the output format its suffix names (case aside), among a
    command's ``formats``.

    Raises:
        UsageError: an unknown suffix (naming the known ones), a format the command cannot
            write, or a file named twice.
    """
    known = {s: f for s, f in OUTPUT_SUFFIXES.items() if f in formats}
    out: list[tuple[str, str]] = []
    for path in paths or []:
        suffix = os.path.splitext(path)[1].lower()
        if suffix not in known:
            raise UsageError(f"-o {path}: the format is chosen by the suffix: "
                             f"{', '.join(f'{s} ({f})' for s, f in known.items())}")
        if any(os.path.abspath(path) == os.path.abspath(p) for p, _ in out):
            raise UsageError(f"-o {path} is given twice")
        out.append((path, known[suffix]))
    return out


def main() -> None:
    """Entry point of the ``gecformats`` console script: a plain ``score`` run goes the fast
    path (:mod:`gecformats.cli.fast`, without typer), every other command line to
    :data:`app`."""
    import gc

    # a run allocates many small objects that live to its end (sentences, edits, counts):
    # the modules' objects are frozen out of the collector's passes and its youngest
    # generation is collected less often (5 % of `score`'s CPU on three CoNLL-2014 systems)
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    from gecformats.cli.fast import run

    if not run(sys.argv[1:]):
        from gecformats.cli.group import app

        app()

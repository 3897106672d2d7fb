"""The ``gecformats`` command line: thin wrappers around the library functions, one module
per command (:mod:`gecformats.cli.convert` ...), and the machinery they share here: the
:data:`app`, one-line errors and exit statuses, progress bars."""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup, TyperOption

from gecformats import __version__
from gecformats.cli.options import EngineName
from gecformats.errors import GecFormatError, UsageError
from gecformats.formats import NAMES as FORMAT_NAMES
from gecformats.metrics import METRICS


def _no_flag_type(display: Any) -> Any:
    """``display_type_rich`` that shows nothing for a switch: typer's rich help would print
    ``<bool>`` beside ``--quiet``, as if it took a value."""

    def display_type_rich(self: Any, ctx: Any) -> Any:
        return None if getattr(self, "is_flag", False) and self.metavar is None else display(self, ctx)

    return display_type_rich


if hasattr(TyperOption, "display_type_rich"):
    TyperOption.display_type_rich = _no_flag_type(TyperOption.display_type_rich)  # type: ignore[method-assign]


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


class _OneLineErrors(TyperGroup):
    """The command group with usage errors on one line: ``gecformats: Invalid value for
    '--beta': ... (try 'gecformats score --help')`` and exit status 2, instead of a framed
    block, so that every error of every command has the same one-line form.

    Its commands are loaded when first looked up (:data:`COMMANDS`)."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            load_commands(cmd_name)
            info = next(i for i in app.registered_commands if _name(i) == cmd_name)
            self.commands[cmd_name] = typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except Exception as exc:  # click's UsageError: no such command
            # typer suggests among the commands loaded; suggest among all of them
            message = getattr(exc, "message", None)
            if args and isinstance(message, str) and "Did you mean" not in message:
                from difflib import get_close_matches

                matches = get_close_matches(args[0], self.list_commands(ctx))
                if matches:
                    exc.message = (f"{message.rstrip('.')}. Did you mean "  # type: ignore[attr-defined]
                                   f"{', '.join(repr(m) for m in matches)}?")
            raise

    def main(self, args: Any = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.Abort:
            if not standalone_mode:
                raise
            typer.echo("gecformats: aborted", err=True)
            sys.exit(BAD_DATA)
        except Exception as exc:
            # click's ClickException (typer >= 0.20 vendors click, so matched by its shape)
            if not standalone_mode or not hasattr(exc, "format_message") or not hasattr(exc, "exit_code"):
                raise
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help())
                sys.exit(USAGE)
            hint = f" (try '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(f"gecformats: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


class _OnceEach(TyperCommand):
    """A command whose single-valued options may be given once: ``score --gold A --gold B``
    is a usage error (exit 2) naming the option, not a silent choice of B.  Options declared
    repeatable (lists: ``--ref``, ``--filter``) stay repeatable; flags count as given once
    whichever spelling (``--mix``/``--no-mix``) was used.  Every command of :data:`app` gets
    this class (see the end of the module)."""

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_args(args: list[str]) -> Any:
            opts, rest, order = parse(args)
            seen: set[int] = set()
            for param in order:
                if (getattr(param, "param_type_name", "") != "option" or param.multiple
                        or getattr(param, "count", False) or param.is_eager):
                    continue
                if id(param) in seen:
                    names = " / ".join(f"'{n}'" for n in [*param.opts, *param.secondary_opts])
                    why = "give it once" if param.is_flag else "it takes one value"
                    ctx.fail(f"Option {names} given more than once: {why}")
                seen.add(id(param))
            return opts, rest, order

        parser.parse_args = parse_args
        return parser

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The arguments, then the options: in the sections the command's function names in
        its ``help_sections`` attribute (``[(title, [parameter names])]``; ``score``
        groups its options by metric), the others under "Options"."""
        sections = getattr(self.callback, "help_sections", None)
        if not sections:
            return super().format_options(ctx, formatter)  # type: ignore[no-any-return]
        records = {p.name: (p.param_type_name, p.get_help_record(ctx))
                   for p in self.get_params(ctx)}
        arguments = [r for kind, r in records.values() if kind == "argument" and r]
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        placed: set[str] = set()
        for title, names in [*sections, ("Options", [n for n in records if n not in
                                                     {m for _, ns in sections for m in ns}])]:
            rows = [records[n][1] for n in names
                    if n in records and records[n][0] == "option" and records[n][1]]
            placed.update(names)
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        return None


def _name(info: Any) -> str:
    """The command name of a registered command (typer's rule: the function's name with
    ``-`` for ``_``, unless named)."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


class _App(typer.Typer):
    """The application: every command it registers gets :class:`_OnceEach` (on top of a
    class of its own, if any) and its docstring reflowed (:func:`_reflow`)."""

    def command(self, name: str | None = None, *, cls: Any = None,  # type: ignore[override]
                **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        base = cls or TyperCommand
        if not issubclass(base, _OnceEach):
            base = _OnceEach if base is TyperCommand else type(base.__name__, (_OnceEach, base), {})
        register = super().command(name, cls=base, **options)

        def decorator(function: Callable[..., Any]) -> Callable[..., Any]:
            if function.__doc__:
                function.__doc__ = _reflow(function.__doc__)
            return register(function)

        return decorator


app = _App(
    cls=_OneLineErrors,
    name="gecformats",
    help=f"Grammatical error correction (GEC) evaluation: {len(FORMAT_NAMES)} data formats "
    f"read, written, checked and converted through one edit model; {len(METRICS)} metrics, "
    "each exact to its original tool, with intervals and tests; meta-evaluation; an HTML "
    "error-analysis report.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # click's plain help, not Rich's tables: at 80 columns Rich squeezed the descriptions
    # into 17 characters (convert --help: 351 lines) and read "[dask]" as markup
    rich_markup_mode=None,
)


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
        raise typer.Exit(0) from None
    except GecFormatError as exc:
        typer.echo(f"gecformats: {exc}", err=True)
        raise typer.Exit(USAGE if isinstance(exc, UsageError) else BAD_DATA) from None
    except UnicodeDecodeError as exc:
        typer.echo(f"gecformats: not valid UTF-8 ({exc.reason})", err=True)
        raise typer.Exit(BAD_DATA) from None
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        typer.echo(f"gecformats: {name}: {reason}" if name else f"gecformats: {reason}", err=True)
        raise typer.Exit(BAD_DATA) from None
    except (MemoryError, RecursionError) as exc:
        what = "out of memory" if isinstance(exc, MemoryError) else "input nested too deeply"
        typer.echo(f"gecformats: {what}: the input is too large or malformed for this command",
                   err=True)
        raise typer.Exit(BAD_DATA) from None


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
        typer.echo(f"gecformats: warning: {warning}", err=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gecformats {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """GEC evaluation data and scores (the group's help is :data:`app`'s)."""


def _engine(engine: EngineName, scheduler: str | None, workers: int | None,
            partitions: int | None) -> Any:
    """The Dask engine to run in (a context manager), or a null one for the local path."""
    if engine is EngineName.local:
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
    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update


_NOTHING = object()
T = TypeVar("T")


def _reflow(doc: str) -> str:
    """A docstring with each paragraph on one line: Rich keeps single line breaks after the
    first paragraph, which wraps ``--help`` text raggedly."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)



def main() -> None:
    """Entry point of the ``gecformats`` console script."""
    import gc

    # a run allocates many small objects that live to its end (sentences, edits, counts):
    # the modules' objects are frozen out of the collector's passes and its youngest
    # generation is collected less often (5 % of `score`'s CPU on three CoNLL-2014 systems)
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    app()


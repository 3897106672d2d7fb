"""The typer application of the ``gecformats`` command line: the command group (its commands
loaded when first looked up, usage errors on one line), the commands' class (single-valued
options given once, options in sections in ``--help``) and the group's ``--version``.

Importing this module imports typer; :mod:`gecformats.cli` loads it on first use of
:data:`app`, so that a run the fast path serves (:mod:`gecformats.cli.fast`) never does."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup, TyperOption

from gecformats import __version__
from gecformats.cli import COMMANDS, USAGE, aborted, load_commands
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
            aborted()
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



def _reflow(doc: str) -> str:
    """A docstring with each paragraph on one line: Rich keeps single line breaks after the
    first paragraph, which wraps ``--help`` text raggedly."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


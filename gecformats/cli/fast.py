"""``gecformats score`` without typer: the fast path of the command line (issue 37: start-up).

Importing typer and building its command takes about 40 ms, more than the rest of a small
``score`` run up to reading the gold. A command line of the commands in :data:`RUNNERS`
is therefore first read here, from a table of the typer command's own parameters
(:mod:`gecformats.cli.fast_spec`, generated from the command by :func:`spec_source`), and
run by the same body as the typer command. Whatever the table does not settle goes to
typer instead (:func:`parse` returns ``None``): ``--help``, an unknown, repeated or
clustered option, a value typer would refuse (an unknown choice, a number out of range,
a value that starts with ``-``), no arguments, shell completion, Windows (where click
expands wildcards). So the fast path never accepts what typer refuses, and what it
accepts it reads as typer does: the same values in the same order, the same options
counted as given (``tests/test_cli_fast.py`` checks this on generated command lines, and
that the table is the command's).

``GECFORMATS_NO_FAST=1`` in the environment sends every command line to typer.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

RUNNERS = {"score": ("gecformats.cli.scoring", "run_command")}
"""The commands with a fast path → the module and function of their body, which takes the
parsed values (as click's ``ctx.params``) and the options given (as
:func:`gecformats.cli.scoring.given_options`)."""

_REFUSED = object()


def _convert(row: tuple[Any, ...], text: str) -> Any:
    """``text`` as the value of option ``row`` as click converts it, or :data:`_REFUSED`
    where click would refuse it (typer then says why)."""
    kind, extra = row[2], row[6]
    if kind == "str":
        return text
    if kind == "choice":
        return text if text in extra else _REFUSED
    try:
        value = int(text) if kind == "int" else float(text) if kind == "float" else _REFUSED
    except ValueError:
        return _REFUSED
    if value is not _REFUSED and extra is not None:  # a range: (min, max, min_open, max_open)
        low, high, low_open, high_open = extra
        if low is not None and (value <= low if low_open else value < low):
            return _REFUSED
        if high is not None and (value >= high if high_open else value > high):
            return _REFUSED
    return value


def parse(command: str, args: list[str]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The values of ``command``'s parameters read from ``args`` (in click's ``ctx.params``
    order: the options given, first use first, then the arguments, then the rest as
    declared) and the options given (name without ``--`` → value, as declared); ``None``
    when typer should read ``args`` (see the module's description)."""
    from gecformats.cli.fast_spec import COMMANDS

    rows = COMMANDS.get(command)
    if rows is None:
        return None
    options = {opt: (row, True) for row in rows if row[2] != "argument" for opt in row[1]}
    options.update({opt: (row, False) for row in rows for opt in row[3]})
    given: dict[str, list[Any]] = {}
    arguments: list[str] = []
    only_arguments = False
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if only_arguments or token == "-" or not token.startswith("-"):
            arguments.append(token)
            continue
        if token == "--":
            only_arguments = True
            continue
        name, equals, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        found = options.get(name)
        if found is None:
            return None
        row, primary = found
        if row[2] == "unsupported":
            return None
        if row[2] == "flag":
            if equals:
                return None
            value: Any = primary
        else:
            if not equals:
                if i == len(args) or (args[i].startswith("-") and args[i] != "-"):
                    return None
                inline = args[i]
                i += 1
            value = _convert(row, inline)
            if value is _REFUSED:
                return None
        if row[0] in given and not row[4]:
            return None  # given twice: typer's error (`_OnceEach`)
        given.setdefault(row[0], []).append(value)
    if not arguments:
        return None  # typer's "Missing argument"
    repeatable = {row[0] for row in rows if row[4]}
    values = {name: tuple(v) if name in repeatable else v[0] for name, v in given.items()}
    argument = next(row for row in rows if row[2] == "argument")
    values[argument[0]] = tuple(arguments)
    for row in rows:
        values.setdefault(row[0], row[5])
    named = {row[1][0][2:]: list(values[row[0]]) if row[4] else values[row[0]]
             for row in rows if row[0] in given and row[1][0].startswith("--")}
    return values, named


def run(argv: list[str]) -> bool:
    """Run the command line ``argv`` (without the program's name) on the fast path, if it
    has one: ``True`` when it ran (its errors exit as the typer command's do), ``False``
    when typer should run it."""
    # on Windows click expands the wildcards of the arguments itself: typer's to do
    if (not argv or argv[0] not in RUNNERS or os.environ.get("GECFORMATS_NO_FAST")
            or sys.platform == "win32"
            or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)):
        return False
    parsed = parse(argv[0], argv[1:])
    if parsed is None:
        return False
    module, function = RUNNERS[argv[0]]
    try:
        getattr(importlib.import_module(module), function)(*parsed)
    except KeyboardInterrupt:
        sys.exit(130)  # typer's way with Ctrl-C: the shell's status for SIGINT, no message
    except EOFError:
        from gecformats.cli import aborted, echo

        echo("", err=True)  # as click does before its Abort
        aborted()
    return True


# ---------------------------------------------------------------- the table, from typer
_KINDS = {"StringParamType": "str", "TyperChoice": "choice", "Choice": "choice",
          "IntParamType": "int", "IntRange": "int", "FloatParamType": "float",
          "FloatRange": "float"}


def _describe(param: Any) -> tuple[Any, ...] | None:
    """The table row of one click parameter but its value when not given: (name, options,
    kind, secondary options, repeatable, choices or range); ``None`` when the parameter acts
    even when not given in a way the table cannot follow (a callback, an environment
    variable, a prompt, eagerness, a required option, an argument other than one list)."""
    if (param.callback is not None or getattr(param, "envvar", None) or param.is_eager
            or getattr(param, "prompt", None) or not param.expose_value):
        return None
    if param.param_type_name == "argument":
        if param.nargs != -1 or not param.required:
            return None
        return (param.name, (), "argument", (), True, None)
    if param.required:
        return None
    type_name = type(param.type).__name__
    secondary = tuple(param.secondary_opts)
    if getattr(param, "is_flag", False):
        bool_flag = getattr(param, "is_bool_flag", False) and not getattr(param, "count", False)
        # the value the flag sets (vendored click renamed the attribute)
        sets = getattr(param, "flag_value", getattr(param, "_depr_flag_value", None))
        kind = "flag" if bool_flag and sets is True else "unsupported"
        return (param.name, tuple(param.opts), kind, secondary, False, None)
    extra: Any = None
    kind = _KINDS.get(type_name, "unsupported")
    if kind == "choice":
        extra = tuple(str(c) for c in param.type.choices)
        if not all(isinstance(c, str) for c in param.type.choices) or \
                not getattr(param.type, "case_sensitive", True):
            kind = "unsupported"
    elif type_name in ("IntRange", "FloatRange"):
        extra = (param.type.min, param.type.max, param.type.min_open, param.type.max_open)
        if param.type.clamp:
            kind = "unsupported"
    if param.nargs != 1 or getattr(param, "_flag_needs_value", False) or \
            getattr(param, "count", False):
        kind = "unsupported"
    return (param.name, tuple(param.opts), kind, secondary, bool(param.multiple), extra)


def spec_source() -> str:
    """The text of :mod:`gecformats.cli.fast_spec`: the table of each command of
    :data:`RUNNERS`, from its typer command (run ``python -m gecformats.cli.fast`` after
    changing one of their options; a test fails until then).

    Raises:
        ValueError: a command whose parameters the table cannot follow.
    """
    import ast

    import typer.main

    from gecformats.cli import load_commands
    from gecformats.cli.group import app

    load_commands(*RUNNERS)
    group = typer.main.get_command(app)
    out = ['"""The fast path\'s table of each command\'s parameters: generated by',
           "``python -m gecformats.cli.fast`` from the typer commands (do not edit).",
           "", "A row: (name, options, kind, secondary options, repeatable, value when not",
           'given, choices or (min, max, min open, max open))."""', "", "COMMANDS = {"]
    for name in RUNNERS:
        command = group.get_command(None, name)  # type: ignore[attr-defined]
        rows = [_describe(p) for p in command.params]
        arguments = [r for r in rows if r is not None and r[2] == "argument"]
        if None in rows or len(arguments) != 1 or command.allow_extra_args or \
                command.ignore_unknown_options or not command.allow_interspersed_args:
            raise ValueError(f"{name}: parameters the fast path cannot follow")
        with command.make_context(name, ["-"]) as ctx:
            defaults = dict(ctx.params)
        out.append(f"    {name!r}: (")
        for row in rows:
            assert row is not None
            default = () if row[2] == "argument" else defaults[row[0]]
            if ast.literal_eval(repr(default)) != default:
                raise ValueError(f"{name} {row[0]}: a default the table cannot hold")
            out.append(f"        {(*row[:5], default, row[5])!r},")
        out.append("    ),")
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fast_spec.py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(spec_source())
    sys.stdout.write(f"wrote {path}\n")

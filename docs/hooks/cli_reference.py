"""The command-line reference (docs/reference/cli.md), generated from the typer app when
the site is built, so that it cannot drift from the commands: a MkDocs hook replaces the
page's marker with :func:`render`'s Markdown, each command's usage, description and
options exactly as its ``--help`` lists them (the same help records, in the same sections).
``tests/test_docs.py`` checks the rendering against the app."""

from __future__ import annotations

import html
import re
from typing import Any

MARKER = "<!-- gecformats-cli-reference -->"
PAGE = "reference/cli.md"


class _Sections:
    """A stand-in for click's ``HelpFormatter`` that keeps the ``(title, rows)`` of each
    section ``format_options`` writes, instead of text."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, list[tuple[str, str]]]] = []
        self._title = "Options"

    def section(self, title: str) -> Any:
        outer = self

        class _Section:
            def __enter__(self) -> None:
                outer._title = title

            def __exit__(self, *exc: object) -> None:
                outer._title = "Options"

        return _Section()

    def write_dl(self, rows: Any, *args: Any, **kwargs: Any) -> None:
        self.sections.append((self._title, [(a, b or "") for a, b in rows]))

    def __getattr__(self, name: str) -> Any:  # indent, dedent, write_paragraph ...
        return lambda *args, **kwargs: None


def escape(text: str) -> str:
    """``text`` as Markdown that shows it literally (help texts hold ``<TAB>``, ``*``, ``_``)."""
    text = html.escape(text, quote=False)
    text = re.sub(r"([\\`*_\[\]{}|!#])", r"\\\1", text)
    return re.sub(r"^(\s*)([-+]|\d+\.)(\s)", r"\1\\\2\3", text, flags=re.M)


def sections(command: Any, ctx: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """The ``(title, [(names, help)])`` sections of ``command --help``, in order."""
    recorder = _Sections()
    command.format_options(ctx, recorder)
    return recorder.sections


def render() -> str:
    """The reference of every command of ``gecformats`` as Markdown."""
    import click
    import typer.main

    from gecformats.cli import app, load_commands

    load_commands()  # a run of gecformats loads its own command only; here every one
    group = typer.main.get_command(app)
    root = click.Context(group, info_name="gecformats")
    commands = group.commands  # type: ignore[attr-defined]
    out = ["| command | what it does |", "|---|---|"]
    for name, command in commands.items():
        first = (command.help or "").split("\n\n")[0]
        out.append(f"| [`{name}`](#{name}) | {escape(first)} |")
    for name, command in commands.items():
        ctx = click.Context(command, info_name=name, parent=root)
        out += ["", f"## `gecformats {name}` {{ #{name} }}", "", "```text",
                " ".join(["Usage:", ctx.command_path, *command.collect_usage_pieces(ctx)]), "```"]
        for paragraph in (command.help or "").split("\n\n"):
            out += ["", escape(paragraph)]
        for title, rows in sections(command, ctx):
            out += ["", f"**{escape(title)}**", ""]
            for names, help_text in rows:
                out += [f"`{names}`", f":   {escape(help_text) if help_text else '&nbsp;'}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """MkDocs hook: the CLI reference page gets :func:`render`'s text at its marker."""
    if page.file.src_uri == PAGE:
        if MARKER not in markdown:
            raise ValueError(f"{PAGE}: the marker {MARKER} is missing")
        return markdown.replace(MARKER, render())
    return markdown

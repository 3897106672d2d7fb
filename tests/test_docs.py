"""Every code block of the README and of the documentation site (docs/) runs: Python blocks
as doctests, console blocks (``$ command`` lines, each followed by its output) as shell
commands whose output must be the one shown; the command-line summary and the exit-status
convention name every option and every command; the modules' examples run as doctests.

A console block runs in a scratch folder holding ``fixtures`` (the project's) and, beside
it, ``../shared`` (the real corpora, when present): a block that names ``../shared`` skips
without it (and fails under ``CI=true``), as the other ../shared tests do."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main

from conftest import ROOT, SHARED, shared_file
from gecformats.cli import app, load_commands

load_commands()  # a run loads its own command only: the reference lists every one

MODULES = ["gecformats.model", "gecformats.report", "gecformats.formats.m2", "gecformats.validate", "gecformats.metrics.stats",
           "gecformats.tokenize", "gecformats.convert.retokenize", "gecformats.convert.loci", "gecformats.convert.refs",
           "gecformats.convert.extract", "gecformats.convert.chars", "gecformats.convert.project", "gecformats.metrics.correlate",
           "gecformats.metrics.gleu", "gecformats.metrics.py2order", "gecformats.formats.nucle", "gecformats.formats.bea",
           "gecformats.formats.c4edits", "gecformats.formats.fce", "gecformats.formats.conll",
           "gecformats.dist", "gecformats.formats", "gecformats.errors", "gecformats.metrics.significance",
           "gecformats.metrics.resampling", "gecformats.metrics.request", "gecformats.convert.align",
           "gecformats.explain.settings"]

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md"))]
FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^\1```[ \t]*$", re.M | re.S)
COMMAND_LINE = DOCS / "reference" / "command-line.md"
EXIT_CODES = DOCS / "reference" / "exit-codes.md"


@dataclass(frozen=True)
class Block:
    """One fenced code block: its page, the line of its opening fence, its language tag and
    its text with the fence's indentation removed."""

    page: Path
    line: int
    lang: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of ``page``, in order."""
    text = page.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        indent = len(m.group(1))
        body = "".join(line[indent:] if line[:indent].isspace() else line
                       for line in m.group(3).splitlines(keepends=True))
        found.append(Block(page, text[:m.start()].count("\n") + 1, m.group(2), body))
    return found


ALL = [b for page in PAGES for b in blocks(page)]
PYTHON = [b for b in ALL if b.lang == "python"]
CONSOLE = [b for b in ALL if b.lang == "console"]


def test_the_site_has_pages_with_examples() -> None:
    assert len(PAGES) > 30 and len(PYTHON) > 10 and len(CONSOLE) > 20


def test_the_readme_is_short_and_its_quick_start_is_the_two_commands() -> None:
    """The README says what gecformats is and links into docs/ (at most 300 lines); its Quick
    start is the two commands .ci/run runs, and each link into docs/ names a page there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count("\n") <= 300
    quick = text[text.index("## Quick start\n"):]
    assert quick.startswith("## Quick start\n\n```sh\n"
                            "pip install . && gecformats score fixtures/score/sample.hyp --gold fixtures/score/sample.m2\n"
                            "pip install '.[test]' && pytest\n```\n")
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert len(links) > 20
    for link in links:
        assert (ROOT / link).is_file(), link


def test_every_example_is_in_a_python_block() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        prompts = sum(line.lstrip().startswith(">>> ") for line in text.splitlines())
        assert prompts == sum(b.text.count(">>> ") for b in PYTHON if b.page == page), page


@pytest.mark.parametrize("block", PYTHON, ids=[b.name for b in PYTHON])
def test_python_block_runs_alone(monkeypatch: pytest.MonkeyPatch, block: Block) -> None:
    # each block pasted alone into a fresh interpreter (in the project folder): no name
    # from an earlier block
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {"__name__": "__main__"}, block.name,
                              str(block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0


def commands(text: str) -> list[tuple[str, str]]:
    """``(command, output)`` of each ``$ `` line of a console block: a line ending in ``\\``
    continues on the next; the output is every line up to the next command."""
    found: list[tuple[str, list[str]]] = []
    lines = text.split("\n")[:-1]
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command += "\n" + lines[i]
            found.append((command, []))
        elif not found:
            raise ValueError(f"output before the first command: {line!r}")
        else:
            found[-1][1].append(line)
        i += 1
    return [(c, "".join(o + "\n" for o in out)) for c, out in found]


MARK = "@@gecformats-docs-end-of-command@@"
"""What the shell prints after each command of a block: where one command's output ends."""


def run_console(block: Block, folder: Path) -> list[tuple[str, str, str]]:
    """Run the commands of ``block`` in one shell in ``folder``/work, with ``fixtures`` and
    ``../shared`` there as in the project; ``(command, wanted output, output)`` each."""
    work = folder / "work"
    if not work.exists():
        work.mkdir()
        (work / "fixtures").symlink_to(ROOT / "fixtures")
        if SHARED.exists():
            (folder / "shared").symlink_to(SHARED)
    steps = commands(block.text)
    script = "exec 2>&1\n" + "".join(f"{c}\nprintf '\\n{MARK}\\n'\n" for c, _ in steps)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "80", "NO_COLOR": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)
    outputs = done.stdout.split(f"\n{MARK}\n")
    assert len(outputs) == len(steps) + 1, f"{block.name}: the shell stopped early:\n{done.stdout}"
    return [(c, want, got) for (c, want), got in zip(steps, outputs)]


def normal(text: str) -> str:
    """``text`` without white space at the end of its lines and of itself: what a page can
    show (editors strip it) is compared, not the padding of a table's last column."""
    return "".join(line.rstrip() + "\n" for line in text.rstrip().split("\n")) if text.strip() else ""


def _shared_paths(text: str) -> list[str]:
    return sorted(set(re.findall(r"\.\./shared/([\w.+-]+(?:/[\w.+-]+)?)", text)))


CONSOLE_PAGES = sorted({b.page for b in CONSOLE})


@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=[str(p.relative_to(ROOT)) for p in CONSOLE_PAGES])
def test_console_blocks_print_what_they_show(tmp_path: Path, page: Path) -> None:
    """The console blocks of a page run in order in one folder, as a reader of the page
    runs them (a block may read what an earlier one wrote)."""
    page_blocks = [b for b in CONSOLE if b.page == page]
    checker = doctest.OutputChecker()
    missing: list[str] = []
    for block in page_blocks:
        needs = [r for r in _shared_paths(block.text) if not (SHARED / r).exists()]
        if needs:  # the page's other blocks still run; the test skips (fails in CI) after
            missing += needs
            continue
        started = time.perf_counter()
        for command, want, got in run_console(block, tmp_path):
            want, got = normal(want), normal(got)
            if not checker.check_output(want, got, doctest.ELLIPSIS):
                example = doctest.Example(command, want)
                pytest.fail(f"{block.name}: $ {command}\n"
                            f"{checker.output_difference(example, got, doctest.ELLIPSIS)}",
                            pytrace=False)
        print(f"{block.name}: {time.perf_counter() - started:.2f} s")
    for relative in missing:
        shared_file(relative)


def test_console_blocks_parse() -> None:
    for block in CONSOLE:
        steps = commands(block.text)
        assert steps, f"{block.name}: a console block without a command"
        for command, _ in steps:
            assert "…" not in command, f"{block.name}: {command!r} cannot run"


def test_examples_on_fixtures_are_console_blocks() -> None:
    """A command shown in another kind of block is not checked: one that reads only the
    project's fixtures costs nothing to run, so it belongs in a console block."""
    for block in ALL:
        if block.lang in ("console", "python"):
            continue
        for line in block.text.splitlines():
            line = line.removeprefix("$ ")
            if (line.startswith("gecformats ") and "fixtures/" in line and "../shared" not in line
                    and "…" not in line and "SYS" not in line):
                pytest.fail(f"{block.name}: {line!r}: show it in a console block, with its output")


def _summary() -> str:
    text = COMMAND_LINE.read_text(encoding="utf-8")
    start = text.index("## Synopsis\n\n```text\n") + len("## Synopsis\n\n```text\n")
    return text[start:text.index("```\n", start)]


def test_command_line_summary_lists_every_option() -> None:
    summary = _summary()
    usages = re.split(r"\n(?=gecformats |maxmatch )", summary)
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        usage = next((u for u in usages if u.startswith(f"gecformats {name} ")), "")
        assert usage, f"no line for {name}"
        for param in command.params:
            longs = [o for o in param.opts if o.startswith("--")]
            if param.param_type_name == "option" and not any(
                    re.search(rf"{re.escape(o)}(?![\w-])", usage) for o in longs):
                pytest.fail(f"{COMMAND_LINE.name}: {name} {longs[0]} missing")


def test_exit_status_convention_names_every_command() -> None:
    text = EXIT_CODES.read_text(encoding="utf-8")
    start = text.index("**One convention for every command**")
    sentence = text[start:text.index(":", start + 40)]
    for name in typer.main.get_command(app).commands:  # type: ignore[attr-defined]
        assert f"`{name}`" in sentence


def _cli_reference():  # the generator, a MkDocs hook (docs/hooks/ is not a package)
    spec = importlib.util.spec_from_file_location("cli_reference", DOCS / "hooks" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_cli_reference_has_every_command_and_option_as_its_help_gives_it() -> None:
    """The generated page holds, for every command, its usage and each option's names and
    help exactly as ``--help`` prints them (the same records, escaped for Markdown)."""
    import click

    reference = _cli_reference()
    text = reference.render()
    group = typer.main.get_command(app)
    root = click.Context(group, info_name="gecformats")
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        assert f"## `gecformats {name}` {{ #{name} }}" in text
        section = text[text.index(f"## `gecformats {name}` "):]
        ctx = click.Context(command, info_name=name, parent=root)
        for param in command.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            names, help_text = record
            assert f"`{names}`" in section, f"{name}: {names}"
            assert reference.escape(help_text) in section, f"{name}: {names}: its help"


def test_cli_reference_page_has_the_marker_the_hook_replaces() -> None:
    reference = _cli_reference()
    assert reference.MARKER in (DOCS / reference.PAGE).read_text(encoding="utf-8")


def test_cli_reference_sections_are_those_of_help() -> None:
    """score groups its options by metric in --help; the page groups them alike."""
    import click

    reference = _cli_reference()
    group = typer.main.get_command(app)
    command = group.commands["score"]  # type: ignore[attr-defined]
    ctx = click.Context(command, info_name="score", parent=click.Context(group, info_name="gecformats"))
    titles = [title for title, _ in reference.sections(command, ctx)]
    help_text = command.get_help(ctx)
    assert len(titles) > 3 and all(f"\n{title}:\n" in help_text for title in titles)


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

"""The README's and the modules' examples run as doctests; the README's command-line summary
and exit-status convention name every option and every command."""

from __future__ import annotations

import doctest
import importlib
import re

import pytest
import typer.main

from conftest import ROOT
from gecformats.cli import app, load_commands

load_commands()  # a run loads its own command only: the README lists every one

MODULES = ["gecformats.model", "gecformats.report", "gecformats.formats.m2", "gecformats.validate", "gecformats.metrics.stats",
           "gecformats.tokenize", "gecformats.convert.retokenize", "gecformats.convert.loci", "gecformats.convert.refs",
           "gecformats.convert.extract", "gecformats.convert.chars", "gecformats.convert.project", "gecformats.metrics.correlate",
           "gecformats.metrics.gleu", "gecformats.metrics.py2order", "gecformats.formats.nucle", "gecformats.formats.bea",
           "gecformats.formats.c4edits", "gecformats.formats.fce", "gecformats.formats.conll",
           "gecformats.dist", "gecformats.formats", "gecformats.errors", "gecformats.metrics.significance",
           "gecformats.metrics.resampling", "gecformats.metrics.request", "gecformats.convert.align"]

README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^( *)```python\n(.*?)^\1```", re.M | re.S)
BLOCKS = [(README[:m.start()].count("\n") + 1, m.group(2)) for m in FENCE.finditer(README)]


def test_every_readme_example_is_in_a_python_block() -> None:
    prompts = sum(line.lstrip().startswith(">>> ") for line in README.splitlines())
    assert BLOCKS and prompts == sum(b.count(">>> ") for _, b in BLOCKS)


@pytest.mark.parametrize("line, block", BLOCKS, ids=[f"README.md:{n}" for n, _ in BLOCKS])
def test_readme_block_runs_alone(monkeypatch: pytest.MonkeyPatch, line: int, block: str) -> None:
    # each block pasted alone into a fresh interpreter (in the project folder): no name
    # from an earlier block
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block, {"__name__": "__main__"}, f"README.md:{line}",
                              str(ROOT / "README.md"), line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0


def _summary() -> str:
    start = README.index("## Command line\n\n```\n") + len("## Command line\n\n```\n")
    return README[start:README.index("```\n", start)]


def test_readme_command_line_lists_every_option() -> None:
    summary = _summary()
    usages = re.split(r"\n(?=gecformats |maxmatch )", summary)
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        usage = next((u for u in usages if u.startswith(f"gecformats {name} ")), "")
        assert usage, f"no line for {name}"
        for param in command.params:
            longs = [o for o in param.opts if o.startswith("--")]
            if param.param_type_name == "option" and not any(
                    re.search(rf"{re.escape(o)}(?![\w-])", usage) for o in longs):
                pytest.fail(f"README's command line: {name} {longs[0]} missing")


def test_readme_exit_status_convention_names_every_command() -> None:
    start = README.index("**One convention for every command**")
    sentence = README[start:README.index(":", start + 40)]
    for name in typer.main.get_command(app).commands:  # type: ignore[attr-defined]
        assert f"`{name}`" in sentence


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

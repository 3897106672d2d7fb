"""What the tests of the pipeline's input checks and of scoring re-segmented outputs share:
the fixtures of fixtures/inputs, the metrics, and the command line run in process."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app

GOLD = FIXTURES / "inputs" / "gold.m2"
SYSTEM = FIXTURES / "inputs" / "system.txt"
METRICS = ["m2", "errant", "gleu", "imeasure", "green", "sentm2", "senterrant", "gotoscorer",
           "cleme", "cleme2"]


def run(*args: object) -> tuple[int, str, str]:
    """``gecformats ARGS`` in this process: exit code, standard output, standard error
    (an exception other than the exit is raised)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def lines() -> list[str]:
    """The lines of fixtures/inputs/system.txt (the gold's 14 sentences, corrected)."""
    return SYSTEM.read_text(encoding="utf-8").splitlines()


def write(path: Path, rows: list[str]) -> Path:
    """``rows`` written to ``path`` one a line; returns ``path``."""
    path.write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return path

"""Shared test helpers: where the fixtures are and the optional real data in ../shared.

A test that needs ../shared skips cleanly where the folder is absent (a user's clone) but
fails under ``CI=true``: CI always has the data, so a skip there would hide a broken test.
Every such test goes through :func:`shared_file` or the ``shared`` mark.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"
CONLL14_SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC",
                   "SJTU", "UFC", "UMC")
"""The 13 CoNLL-2014 submissions of ``../shared/corpora/conll14`` (INPUT: the sources)."""


def in_ci() -> bool:
    """True when the environment says this is CI (``CI=true``, ``1`` or ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing_shared(relative: str) -> None:
    """Skip the running test because ``../shared/relative`` is absent, or fail it under CI."""
    message = f"../shared/{relative} is not available"
    if in_ci():
        pytest.fail(f"{message}, but CI=true: CI must have the shared data", pytrace=False)
    pytest.skip(message)


def shared_file(relative: str) -> Path:
    """The path of a file or folder under ../shared; skips the test when it is not there
    (fails under ``CI=true``)."""
    path = SHARED / relative
    if not path.exists():
        missing_shared(relative)
    return path


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shared(relative): the test needs ../shared/RELATIVE")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("shared"):
        shared_file(*mark.args)


@pytest.fixture(params=["python", "c"])
def maxmatch_backend(request, monkeypatch):
    """The MaxMatch backend a test runs on, each in turn (a module opts in with
    ``pytestmark = pytest.mark.usefixtures("maxmatch_backend")``): the pure-Python path
    (the reference) and the compiled core, in this process and, through
    ``MAXMATCH_PURE_PYTHON``, in the subprocesses the test starts.  Where the core was not
    built the "c" runs skip (fail under ``CI=true``: CI's install builds it)."""
    import maxmatch

    if request.param == "python":
        monkeypatch.setenv("MAXMATCH_PURE_PYTHON", "1")
    else:
        monkeypatch.delenv("MAXMATCH_PURE_PYTHON", raising=False)
    try:
        previous = maxmatch._set_backend(request.param)
    except ImportError as exc:
        if in_ci():
            pytest.fail(f"{exc}, but CI=true: CI builds it", pytrace=False)
        pytest.skip(str(exc))
    yield request.param
    maxmatch._set_backend(previous)


@pytest.fixture
def hide_module(monkeypatch):
    """A function ``hide(name)``: imports of package ``name`` (and its submodules) fail from
    then on in the test, as where an optional extra is not installed."""
    import builtins

    real = builtins.__import__

    def hide(hidden: str) -> None:
        def failing(name, *args, **kwargs):
            if name == hidden or name.startswith(hidden + "."):
                raise ImportError(name)
            return real(name, *args, **kwargs)

        monkeypatch.setattr(builtins, "__import__", failing)

    return hide


@pytest.fixture
def without_trueskill(hide_module):
    """Imports of the ``trueskill`` package fail, as without the ``metaeval`` extra."""
    hide_module("trueskill")


def draw_spans(data, text: str, *, count: int = 6) -> list[tuple[int, int]]:
    """Hypothesis: up to ``count // 2`` ordered, non-overlapping ``(start, end)`` character
    spans of ``text`` (no two starting at one offset), for the inline formats' round trips."""
    from hypothesis import strategies as st

    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=count)))
    spans: list[tuple[int, int]] = []
    last = -1
    for a, b in zip(cuts[::2], cuts[1::2]):
        if a == last:
            continue
        spans.append((a, b))
        last = b
    return spans

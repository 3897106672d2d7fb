"""The README's and the modules' examples run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

from conftest import ROOT

MODULES = ["gecformats.model", "gecformats.report", "gecformats.formats.m2", "gecformats.validate", "gecformats.metrics.stats",
           "gecformats.tokenize", "gecformats.convert.retokenize", "gecformats.convert.loci", "gecformats.convert.refs",
           "gecformats.convert.extract", "gecformats.convert.chars", "gecformats.convert.project", "gecformats.metrics.correlate",
           "gecformats.metrics.gleu", "gecformats.metrics.py2order", "gecformats.formats.nucle", "gecformats.formats.bea",
           "gecformats.formats.c4edits", "gecformats.formats.fce", "gecformats.formats.conll",
           "gecformats.dist"]


def test_readme_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

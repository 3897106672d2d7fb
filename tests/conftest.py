"""Shared test helpers: where the fixtures are and the optional real data in ../shared."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"


def shared_file(relative: str) -> Path:
    """The path of a file under ../shared, or skip the test when it is not there."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"../shared/{relative} is not available")
    return path

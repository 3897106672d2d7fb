"""gecformats.io: the JSON every output writes (its line readers are tested with the formats
that use them, tests/test_line_endings.py and tests/test_robustness.py)."""

from __future__ import annotations

import json

import pytest

from gecformats.io import json_text, write_json


def test_json_text_writes_null_for_values_json_cannot_hold() -> None:
    """``json.dumps`` writes ``NaN``/``Infinity``, which are not JSON."""
    data = {"r": float("nan"), "rows": [(1, float("inf")), {"x": -float("inf"), "y": 0.25}],
            "n": 3, "name": "nan"}
    text = json_text(data, indent=1)
    strict = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} written"))
    assert strict == {"r": None, "rows": [[1, None], {"x": None, "y": 0.25}], "n": 3,
                      "name": "nan"}


def test_write_json_too(tmp_path) -> None:
    path = tmp_path / "report.json"
    write_json({"share": float("nan"), "counts": [1, 2]}, path)
    assert path.read_text(encoding="utf-8") == '{\n "share": null,\n "counts": [\n  1,\n  2\n ]\n}\n'

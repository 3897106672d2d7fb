"""gecformats.io: the JSON every output writes, and outputs written whole or not at all in a
staging or temporary folder (its line readers are tested with the formats that use them,
tests/test_line_endings.py and tests/test_robustness.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gecformats.io import atomic_directory, json_text, staged_output, write_json


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


# ------------------------------------------------- outputs written in a staging folder


def test_staged_output_appears_only_when_the_block_ends(tmp_path) -> None:
    dest = tmp_path / "out.tsv"
    with staged_output(dest) as (target, written):
        assert target == written and target != str(dest)
        Path(target).write_text("a\n", encoding="utf-8")
        Path(target + ".text").write_text("b\n", encoding="utf-8")  # a file beside it
        assert not dest.exists()
    assert dest.read_text(encoding="utf-8") == "a\n"
    assert (tmp_path / "out.tsv.text").read_text(encoding="utf-8") == "b\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tsv", "out.tsv.text"]


def test_staged_output_leaves_nothing_on_an_error_and_names_the_users_path(tmp_path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "old.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(FileNotFoundError) as caught:
        with staged_output(tmp_path / "out") as (target, _):
            assert Path(target).is_dir()  # a folder given stays a folder for the writer
            (Path(target) / "new.txt").write_text("x", encoding="utf-8")
            raise FileNotFoundError(2, "gone", str(Path(target) / "sub" / "f.txt"))
    assert caught.value.filename == str(tmp_path / "out" / "sub" / "f.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["old.txt"]
    with staged_output(tmp_path / "out") as (target, _):  # merged, as atomic_directory
        (Path(target) / "new.txt").write_text("x", encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["new.txt", "old.txt"]


def test_staged_standard_output_is_whole_or_nothing(tmp_path, capsys) -> None:
    with staged_output("-") as (target, written):
        print("a line")
        assert capsys.readouterr().out == ""  # held until the block ends
    assert capsys.readouterr().out == "a line\n"
    with pytest.raises(ValueError):
        with staged_output("-"):
            print("half")
            raise ValueError("stop")
    assert capsys.readouterr().out == ""


def test_a_file_in_a_missing_folder_is_refused_as_by_atomic_output(tmp_path) -> None:
    dest = tmp_path / "no" / "such" / "out.m2"
    with pytest.raises(FileNotFoundError) as caught:
        with staged_output(dest) as (target, _):
            Path(target).write_text("x", encoding="utf-8")
    assert caught.value.filename == str(dest)
    assert list(tmp_path.iterdir()) == []  # the folders made for the stage are gone


def test_atomic_directory_names_the_folder_not_its_temporary_one(tmp_path) -> None:
    with pytest.raises(OSError) as caught:
        with atomic_directory(tmp_path / "out") as tmp:
            (tmp / ("a" * 300)).write_text("x", encoding="utf-8")
    assert caught.value.filename == str(tmp_path / "out" / ("a" * 300))
    assert list(tmp_path.iterdir()) == []


def test_an_output_to_a_device_or_pipe_is_written_into_it(tmp_path):
    """`-o /dev/null` (run as root) replaced /dev/null with a regular file: the temporary
    file was renamed over it.  A FIFO stands in for the device here."""
    import os
    import stat
    import threading

    from gecformats.io import atomic_output, staged_output

    for kind in ("atomic", "staged"):
        fifo = tmp_path / f"{kind}.fifo"
        os.mkfifo(fifo)
        got: list[bytes] = []
        reader = threading.Thread(target=lambda f=fifo: got.append(open(f, "rb").read()))
        reader.start()
        if kind == "atomic":
            with atomic_output(fifo) as fh:
                fh.write("line\n")
        else:
            with staged_output(fifo) as (target, _):
                with open(target, "w", encoding="utf-8") as fh:
                    fh.write("line\n")
        reader.join(10)
        assert got == [b"line\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
        assert sorted(p.name for p in tmp_path.iterdir() if kind in p.name) == [fifo.name]

"""gecformats.convert.shards: sharded output with a manifest, glob input, resumed runs."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.convert.shards import MANIFEST, check, read_manifest
from gecformats.errors import GecFormatError, UsageError
from gecformats.formats import m2

LINES = (FIXTURES / "parallel" / "sample.tsv").read_text(encoding="utf-8").splitlines()


@pytest.fixture
def inputs(tmp_path):
    """The tsv fixture repeated into three input files of 7 pairs and one of 2."""
    folder = tmp_path / "in"
    folder.mkdir()
    lines = (LINES * 10)[:23]
    for k in range(4):
        (folder / f"x{k}.tsv").write_text("\n".join(lines[7 * k:7 * k + 7]) + "\n",
                                          encoding="utf-8")
    whole = tmp_path / "whole.tsv"
    whole.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = tmp_path / "whole.m2"
    convert(whole, expected, tokenizer="space")
    return folder, expected.read_bytes()


def joined(out):
    """The parts of a sharded output, concatenated, and their paths."""
    parts = sorted(out.glob("part-*.m2"))
    return b"".join(p.read_bytes() for p in parts), parts


def test_parts_and_manifest(tmp_path, inputs):
    folder, expected = inputs
    out = tmp_path / "out"
    report = convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=4)
    data, parts = joined(out)
    assert [p.name for p in parts] == [f"part-0000{k}.m2" for k in range(4)]
    assert data == expected
    manifest = read_manifest(out)
    assert manifest["complete"] and manifest["total"] == 23 and manifest["part_size"] == 6
    assert [p["items"] for p in manifest["parts"]] == [6, 6, 6, 5]
    assert [i["path"].rsplit("/", 1)[1] for i in manifest["inputs"]] == [f"x{k}.tsv" for k in range(4)]
    assert manifest["settings"]["tokenizer"].startswith("space:")
    assert report.sentences == 23 and report.conversion.sentences == 23
    assert check(out) == []


def test_a_stopped_run_is_marked_and_resumed(tmp_path, inputs, monkeypatch):
    folder, expected = inputs
    out = tmp_path / "out"
    real = m2.write
    calls = []

    def failing(items, dest, **options):
        calls.append(dest)
        if len(calls) == 3:
            raise RuntimeError("the machine went down")
        return real(items, dest, **options)

    monkeypatch.setattr(m2, "write", failing)
    with pytest.raises(RuntimeError):
        convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=4)
    manifest = read_manifest(out)
    assert not manifest["complete"] and len(manifest["parts"]) == 2
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "part-00000.m2", "part-00001.m2"]
    assert any("did not finish" in p for p in check(out))
    monkeypatch.setattr(m2, "write", real)
    with pytest.raises(UsageError, match="--resume"):
        convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=4)
    report = convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=4,
                     resume=True)
    assert report.conversion.sentences == 11  # the 12 items of the kept parts not converted again
    assert joined(out)[0] == expected
    assert check(out) == []


def test_a_changed_part_is_found_and_rewritten(tmp_path, inputs):
    folder, _ = inputs
    out = tmp_path / "out"
    args = dict(to_format="m2", tokenizer="space", shards=2)
    convert(str(folder / "*.tsv"), out, **args)
    good = (out / "part-00001.m2").read_bytes()
    (out / "part-00001.m2").write_bytes(good[:-10])
    assert any("part-00001.m2 is missing or changed" in p for p in check(out))
    convert(str(folder / "*.tsv"), out, resume=True, **args)
    assert (out / "part-00001.m2").read_bytes() == good


def test_refusals(tmp_path, inputs):
    folder, _ = inputs
    out = tmp_path / "out"
    convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=2)
    with pytest.raises(UsageError, match="another run"):  # other settings
        convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="char", shards=2,
                resume=True)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x", encoding="utf-8")
    with pytest.raises(UsageError, match="not empty"):
        convert(str(folder / "*.tsv"), busy, to_format="m2", tokenizer="space", shards=2)
    with pytest.raises(GecFormatError, match="no file matches"):
        convert(str(folder / "*.nothing"), tmp_path / "o", from_format="tsv", to_format="m2",
                shards=2)
    result = CliRunner().invoke(app, ["convert", str(folder / "x0.tsv"), str(tmp_path / "o.m2"),
                                      "--resume"])
    assert result.exit_code == 2 and "--shards" in result.output


def test_cli(tmp_path, inputs):
    folder, _ = inputs
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["convert", str(folder / "*.tsv"), str(out), "--to", "m2",
                                      "--tokenizer", "space", "--shards", "3"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["complete"]


def test_one_part_per_input_file(tmp_path, inputs, monkeypatch):
    folder, expected = inputs
    out = tmp_path / "out"
    report = convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=0)
    data, parts = joined(out)
    assert len(parts) == 4 and data == expected
    manifest = read_manifest(out)
    assert manifest["complete"] and manifest["total"] == 23
    assert [p["items"] for p in manifest["parts"]] == [7, 7, 7, 2]
    assert [p["input"].rsplit("/", 1)[1] for p in manifest["parts"]] == [f"x{k}.tsv" for k in range(4)]
    assert report.sentences == 23 and report.conversion.sentences == 23
    # a lost part is made again on --resume, the others are kept
    (out / "part-00002.m2").unlink()
    again = convert(str(folder / "*.tsv"), out, to_format="m2", tokenizer="space", shards=0,
                    resume=True)
    assert again.sentences == 7
    assert joined(out)[0] == expected
    assert check(out) == []


@pytest.mark.parametrize("shards", [2, 0])
def test_a_run_failing_before_any_part_leaves_nothing(tmp_path, shards):
    """Found by the fuzz test: bad input left a folder with an incomplete manifest."""
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(b"fine\tfine .\n\xff broken\n")
    out = tmp_path / "out"
    with pytest.raises(GecFormatError):
        convert(bad, out, to_format="m2", tokenizer="space", shards=shards)
    assert not out.exists()

"""gecformats.convert.shards: sharded output with a manifest, glob input, resumed runs."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.convert.shards import MANIFEST, check, part_sizes, read_manifest
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


# ------------------------------------------------------------------ twins (issue 22)

F = FIXTURES
TWINS = [
    # (name, input, plain output's name, options): every input format, and the conversions
    # that change what an item is (documents → sentences, sentences → one document)
    ("m2", F / "m2" / "conll14.m2", "o.m2", {"deletion": "-NONE-"}),
    ("m2-to-tsv", F / "m2" / "conll14.m2", "o.tsv", {"absent": "first"}),
    ("m2-to-nlpcc", F / "m2" / "nlpcc.m2", "o.train", {"tokenizer": "zh"}),
    ("m2-to-cherrant", F / "m2" / "cherrant.m2.char", "o.txt",
     {"to_format": "cherrant", "tokenizer": "char"}),
    ("m2-to-chars", F / "m2" / "conll14.m2", "o.m2", {"tokenizer": "char"}),
    ("m2-to-ixml", F / "m2" / "conll14.m2", "o.ixml", {}),
    ("m2-to-bea", F / "m2" / "conll14.m2", "o.json", {}),
    ("ixml", F / "ixml" / "example.ixml", "o.m2", {}),
    ("hoo2011", F / "hoo2011", "o.m2", {"from_format": "hoo2011"}),
    ("hoo2012", F / "hoo2012", "o.m2", {"from_format": "hoo2012"}),
    ("nucle", F / "nucle" / "sample.sgml", "o.m2",
     {"ann": [F / "nucle" / "sample.1.sgml"], "alt": [F / "nucle" / "sample.alt.sgml"]}),
    ("bea", F / "bea" / "sample.json", "o.m2", {}),
    ("fce", F / "fce", "o.m2", {"from_format": "fce"}),
    ("conll", F / "conll" / "sample.conll", "o.m2",
     {"ann": [F / "conll" / "sample.conll.ann", F / "conll" / "sample.1.conll.ann"]}),
    ("parallel", F / "parallel" / "en", "o.m2", {"from_format": "parallel"}),
    ("parallel-refs", F / "extract" / "en.src", "o.m2",
     {"from_format": "parallel", "refs": [F / "extract" / "en.ref0", F / "extract" / "en.ref1"]}),
    ("tsv", F / "parallel" / "sample.tsv", "o.m2", {"tokenizer": "space"}),
    ("tsv-to-nlpcc", F / "parallel" / "sample.tsv", "o.train", {}),
    ("nlpcc", F / "parallel" / "sample.train", "o.m2", {"tokenizer": "zh"}),
    ("cherrant", F / "parallel" / "sample.cherrant", "o.m2",
     {"from_format": "cherrant", "tokenizer": "char"}),
    ("c4edits", F / "c4edits" / "edits.tsv", "o.m2",
     {"from_format": "c4edits", "text": F / "c4edits" / "sentences.tsv"}),
]


def _plain_and_sharded(tmp_path, source, name, options, shards, engine=None):
    from gecformats import formats

    plain = tmp_path / name
    expected = convert(source, plain, **options)
    to = options.get("to_format") or formats.infer(name)
    out = tmp_path / f"sharded-{shards}"
    report = convert(source, out, shards=shards, engine=engine, **{"to_format": to, **options})
    parts = sorted(p for p in out.iterdir() if p.name.startswith("part-"))
    return plain.read_bytes(), parts, expected, report, read_manifest(out)


@pytest.mark.parametrize("name, source, dest, options", TWINS, ids=[t[0] for t in TWINS])
def test_joined_parts_are_the_plain_conversion(tmp_path, name, source, dest, options):
    """Issue 22: document formats lost sentences (parts sized in documents, cut from the
    sentence stream), folders could not be read, nlpcc and cherrant ids restarted at 1."""
    for shards in (1, 2, 7):
        plain, parts, expected, report, manifest = _plain_and_sharded(
            tmp_path, source, dest, options, shards)
        assert len(parts) == shards
        if not dest.endswith(".ixml"):  # XML: every part is a whole document
            assert b"".join(p.read_bytes() for p in parts) == plain, shards
        assert report.sentences == expected.sentences == manifest["total"]
        assert [p["items"] for p in manifest["parts"]] == part_sizes(manifest["total"], shards)
        assert manifest["complete"] and check(tmp_path / f"sharded-{shards}") == []
        if expected.conversion is not None:
            assert report.conversion.to_dict() == expected.conversion.to_dict()


def test_parts_are_as_many_as_asked(tmp_path):
    """Issue 22: --shards 7 on 30 items wrote 6 parts."""
    source = tmp_path / "30.tsv"
    source.write_text("".join(f"a{k} b\ta{k} c\n" for k in range(30)), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["convert", str(source), str(out), "--to", "m2",
                                      "--tokenizer", "space", "--shards", "7"])
    assert result.exit_code == 0, result.output
    manifest = read_manifest(out)
    assert [p["items"] for p in manifest["parts"]] == [5, 5, 4, 4, 4, 4, 4]
    assert manifest["part_size"] == 5 and manifest["shards"] == 7
    assert len(list(out.glob("part-*.m2"))) == 7


def test_the_issue_command_on_bea(tmp_path, monkeypatch):
    """`convert fixtures/bea/sample.json sh --to m2 --shards 1` wrote 2 sentences of 4."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["convert", str(F / "bea" / "sample.json"), "sh", "--to",
                                      "m2", "--shards", "1"])
    assert result.exit_code == 0, result.output
    assert "wrote 4 sentences to sh" in result.output
    assert (tmp_path / "sh" / "part-00000.m2").read_text(encoding="utf-8").count("\nS ") + 1 == 4


@pytest.mark.parametrize("args", [
    [str(F / "hoo2011"), "--from", "hoo2011"],
    [str(F / "parallel" / "en"), "--from", "parallel"],
    [str(F / "fce"), "--from", "fce"],
])
@pytest.mark.parametrize("shards", ["2", "0"])
def test_a_folder_input(tmp_path, args, shards):
    """Issue 22: a folder input failed with 'Is a directory' under --shards."""
    result = CliRunner().invoke(app, ["convert", *args, str(tmp_path / "o.m2")])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["convert", *args, str(tmp_path / "sh"), "--to", "m2",
                                      "--shards", shards])
    assert result.exit_code == 0, result.output
    joined = b"".join(p.read_bytes() for p in sorted((tmp_path / "sh").glob("part-*")))
    assert joined == (tmp_path / "o.m2").read_bytes()
    # the folder's files are what a resumed run checks
    folder = read_manifest(tmp_path / "sh")["inputs"][0]
    assert folder["sha256"] and folder["bytes"] > 0


def _cli(args, cwd, stdin=None):
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "gecformats", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def test_standard_input_is_read_once(tmp_path):
    """Issue 22: `/dev/stdin` gave "ref has 5 lines but /dev/stdin has 0" (read twice)."""
    src = (F / "extract" / "en.src").read_text(encoding="utf-8")
    ref = str(F / "extract" / "en.ref0")
    proc = _cli(["convert", "/dev/stdin", "sh", "--from", "parallel", "--ref", ref, "--to", "m2",
                 "--shards", "2"], tmp_path, stdin=src)
    assert proc.returncode == 0, proc.stderr
    convert(F / "extract" / "en.src", tmp_path / "o.m2", from_format="parallel", refs=[ref])
    joined = b"".join(p.read_bytes() for p in sorted((tmp_path / "sh").glob("part-*")))
    assert joined == (tmp_path / "o.m2").read_bytes()
    manifest = read_manifest(tmp_path / "sh")
    assert manifest["inputs"][0] == {"path": "/dev/stdin", "bytes": None, "sha256": None}
    assert manifest["inputs"][1]["path"] == ref  # the reference is an input too
    # a stream cannot be checked against the earlier run: no --resume
    for resume in ([], ["--resume"]):
        proc = _cli(["convert", "/dev/stdin", "sh", "--from", "parallel", "--ref", ref, "--to",
                     "m2", "--shards", "2", *resume], tmp_path, stdin=src)
        assert proc.returncode == 2 and "cannot be resumed" in proc.stderr, proc.stderr


def test_a_fifo_is_read_once(tmp_path):
    """Issue 22: a FIFO input hung under --shards (read a second time)."""
    import os
    import threading

    fifo = tmp_path / "in.tsv"
    os.mkfifo(fifo)
    data = (F / "parallel" / "sample.tsv").read_bytes()

    def feed():
        with open(fifo, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    proc = _cli(["convert", str(fifo), "sh", "--from", "tsv", "--to", "m2", "--tokenizer",
                 "space", "--shards", "2"], tmp_path)
    writer.join(5)
    assert proc.returncode == 0, proc.stderr
    convert(F / "parallel" / "sample.tsv", tmp_path / "o.m2", tokenizer="space")
    joined = b"".join(p.read_bytes() for p in sorted((tmp_path / "sh").glob("part-*")))
    assert joined == (tmp_path / "o.m2").read_bytes()


def test_ids_keep_the_numbering_of_the_whole_run(tmp_path):
    """Issue 22: nlpcc and cherrant parts numbered their ids from 1."""
    for k, (source, dest, options) in enumerate([
            (F / "parallel" / "sample.tsv", "o.train", {}),
            (F / "m2" / "cherrant.m2.char", "o.txt", {"to_format": "cherrant", "tokenizer": "char"})]):
        (tmp_path / str(k)).mkdir()
        plain, parts, *_ = _plain_and_sharded(tmp_path / str(k), source, dest, options, 3)
        last = parts[-1].read_text(encoding="utf-8")
        assert last and not last.startswith("1\t")
        assert b"".join(p.read_bytes() for p in parts) == plain


def test_a_document_format_run_is_resumed(tmp_path, monkeypatch):
    """Documents → sentences: the parts are cut in sentences; a resumed run converts again
    and writes only the missing parts."""
    source, args = F / "hoo2011", dict(from_format="hoo2011", to_format="m2", shards=3)
    convert(source, tmp_path / "o.m2", from_format="hoo2011")
    out = tmp_path / "out"
    real = m2.write
    calls = []

    def failing(items, dest, **options):
        calls.append(dest)
        if len(calls) == 2:
            raise RuntimeError("the machine went down")
        return real(items, dest, **options)

    monkeypatch.setattr(m2, "write", failing)
    with pytest.raises(RuntimeError):
        convert(source, out, **args)
    monkeypatch.setattr(m2, "write", real)
    assert [p.name for p in sorted(out.iterdir())] == [MANIFEST, "part-00000.m2"]
    kept = (out / "part-00000.m2").stat().st_mtime_ns
    report = convert(source, out, resume=True, **args)
    assert report.sentences == 4 and (out / "part-00000.m2").stat().st_mtime_ns == kept
    assert b"".join(p.read_bytes() for p in sorted(out.glob("part-*"))) == \
        (tmp_path / "o.m2").read_bytes()
    assert check(out) == []


def test_a_changed_reference_file_is_another_run(tmp_path):
    """The references are inputs too: a resumed run refuses when one changed."""
    ref = tmp_path / "ref.txt"
    ref.write_bytes((F / "extract" / "en.ref0").read_bytes())
    args = dict(from_format="parallel", to_format="m2", refs=[str(ref)], shards=2)
    out = tmp_path / "out"
    convert(F / "extract" / "en.src", out, **args)
    ref.write_text(ref.read_text(encoding="utf-8").replace("e", "a"), encoding="utf-8")
    with pytest.raises(UsageError, match="another run"):
        convert(F / "extract" / "en.src", out, resume=True, **args)


@pytest.mark.parametrize("shards", ["2", "0"])
def test_bad_input_is_named_as_the_plain_conversion_names_it(tmp_path, monkeypatch, shards):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.tsv").write_bytes(b"fine\tfine .\n\xff broken\n")
    plain = CliRunner().invoke(app, ["convert", "bad.tsv", "o.m2"])
    sharded = CliRunner().invoke(app, ["convert", "bad.tsv", "sh", "--to", "m2", "--shards",
                                       shards])
    assert plain.exit_code == sharded.exit_code == 1
    assert sharded.output == plain.output == "gecformats: bad.tsv:2: not valid UTF-8 (byte 1 of the line)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tsv"]


def test_an_input_refused_at_its_end_is_refused_in_shards_too(tmp_path):
    """Fuzzing found it: a tsv without any reference column is refused at its end, which the
    shards path never read past (the parts were cut by count)."""
    from typer.testing import CliRunner

    from gecformats.cli import app

    source = tmp_path / "noref.tsv"
    source.write_text("abc def\n", encoding="utf-8")
    plain = CliRunner().invoke(app, ["convert", str(source), str(tmp_path / "x.m2")])
    sharded = CliRunner().invoke(app, ["convert", str(source), str(tmp_path / "parts"),
                                       "--to", "m2", "--shards", "2"])
    assert plain.exit_code == sharded.exit_code == 1
    assert "no line has a reference column" in sharded.stderr


def test_bad_data_leaves_nothing_behind(tmp_path):
    """Fuzz case (shards, truncated tsv, seed 613255239): an error found at the input's end,
    after every part was written, removes the folder: the same data fails again, so there
    is nothing to resume."""
    from gecformats.errors import GecFormatError

    src = tmp_path / "in.tsv"
    src.write_text("He go to school .\n", encoding="utf-8")  # no reference column at all
    out = tmp_path / "out"
    with pytest.raises(GecFormatError, match="no line has a reference column"):
        convert(str(src), out, to_format="m2", tokenizer="space", shards=2)
    assert not out.exists()


@pytest.mark.parametrize("shards", [1, 3, 0])
def test_sharded_runs_count_as_the_plain_run(tmp_path, inputs, shards):
    """Issue 34: a sharded run reports what it read and what its parts hold, as the plain
    conversion of the same input does."""
    folder, _ = inputs
    plain = convert(tmp_path / "whole.tsv", tmp_path / "plain.m2", tokenizer="space")
    report = convert(str(folder / "*.tsv"), tmp_path / "out", to_format="m2",
                     tokenizer="space", shards=shards)
    expected = plain.counts.to_dict()
    if shards == 0:  # four input files: four documents, each its own part
        for side in ("read", "written"):
            expected[side]["documents"] = 4
    assert report.counts.to_dict() == expected
    assert expected["read"]["sentences"] == expected["written"]["sentences"] == 23


@pytest.mark.parametrize("writer", [w for w in ("m2", "jfleg", "ixml", "nucle", "bea", "tsv",
                                                "nlpcc", "cherrant", "c4edits", "multigec")])
def test_parts_are_counted_as_one_output(tmp_path, writer):
    """The parts of an M2 of UA-GEC documents begin inside a document, whose header only
    the part before has: read one by one they would show other sentences and documents.
    Counted as one output (joined; parts that are files of their own one by one), every
    sharded output counts as the plain one."""
    from gecformats import formats

    source = FIXTURES / "uagec" / "sample.m2"
    suffix = formats.get(writer).SUFFIXES[:1] or ("",)
    plain = convert(source, tmp_path / f"plain{suffix[0]}", to_format=writer)
    for shards in (2, 3):
        report = convert(source, tmp_path / f"s{shards}", to_format=writer, shards=shards)
        assert report.counts.to_dict() == plain.counts.to_dict()

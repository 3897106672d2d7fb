"""gecformats.dist: edit extraction on a Dask cluster (a LocalCluster of 2 worker processes)
gives what the local path gives, byte for byte, or an error and no output."""

from __future__ import annotations

import os
import sys

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.errors import GecFormatError, UsageError

distributed = pytest.importorskip("distributed")

from gecformats import dist  # noqa: E402

EN = FIXTURES / "parallel" / "en"
ZH = FIXTURES / "parallel" / "sample.train"


@pytest.fixture(scope="module")
def engine():
    with dist.Engine(workers=2) as running:
        yield running


@pytest.mark.parametrize("source, options", [
    (EN, {"from_format": "parallel"}),
    (EN, {"from_format": "parallel", "extractor": "native"}),
    (ZH, {"tokenizer": "zh"}),
    (ZH, {"tokenizer": "char"}),
])
def test_same_output_and_report_as_the_local_path(tmp_path, engine, source, options):
    local, remote = tmp_path / "local.m2", tmp_path / "dask.m2"
    expected = convert(source, local, **options)
    got = convert(source, remote, engine=engine, **options)
    assert remote.read_bytes() == local.read_bytes()
    assert got.conversion.to_dict() == expected.conversion.to_dict()
    assert got.sentences == expected.sentences


def test_partitions_cut_the_input(tmp_path, engine):
    engine.partitions = 3
    try:
        assert engine.chunk_size(10) == 4 and engine.chunk_size(None) == dist.DEFAULT_CHUNK
        convert(ZH, tmp_path / "a.m2", tokenizer="char", engine=engine)
    finally:
        engine.partitions = None
    convert(ZH, tmp_path / "b.m2", tokenizer="char")
    assert (tmp_path / "a.m2").read_bytes() == (tmp_path / "b.m2").read_bytes()


def test_chunks_keep_order_and_numbering():
    assert list(dist.chunks(range(5), 2, "s")) == [("s", 1, [0, 1]), ("s", 3, [2, 3]),
                                                   ("s", 5, [4])]


def _fails_on_third(task):
    _, first, items = task
    if first == 3:
        raise ValueError("boom")
    return items


def test_a_failing_task_is_an_error_naming_it(engine):
    with pytest.raises(GecFormatError, match="task 2 failed.*ValueError: boom"):
        list(engine.map_chunks(_fails_on_third, dist.chunks(range(8), 2)))


def _dies_once(task):
    """Kill the worker the first time (a marker file says whether it happened)."""
    marker, first, items = task
    if first == 1 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return items


def test_a_worker_lost_mid_run_is_retried(tmp_path, engine):
    marker = str(tmp_path / "died")
    out = list(engine.map_chunks(_dies_once, dist.chunks(range(6), 2, marker)))
    assert os.path.exists(marker)
    assert out == [[0, 1], [2, 3], [4, 5]]


class _Broken:
    """An engine whose cluster fails after the first chunk."""

    partitions = None

    def chunk_size(self, total, default=None):
        return 2

    def map_chunks(self, function, tasks):
        for k, task in enumerate(tasks):
            if k == 1:
                raise GecFormatError("task 2 failed on the Dask cluster: KilledWorker")
            yield function(task)


def test_no_output_when_the_cluster_fails(tmp_path):
    out = tmp_path / "out.m2"
    with pytest.raises(GecFormatError, match="KilledWorker"):
        convert(ZH, out, tokenizer="char", engine=_Broken())
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_cli(tmp_path):
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(EN), str(out), "--from", "parallel",
                                      "--engine", "dask", "--workers", "2", "--partitions", "2"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("S He go to school every days .")


@pytest.mark.parametrize("args, message", [
    (["--scheduler", "tcp://127.0.0.1:1"], "need --engine dask"),
    (["--engine", "dask", "--jobs", "2"], "--jobs is for --engine local"),
])
def test_cli_usage_errors(tmp_path, args, message):
    result = CliRunner().invoke(app, ["convert", str(EN), str(tmp_path / "o.m2"), "--from",
                                      "parallel", *args])
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("source, dest, options", [
    (FIXTURES / "m2" / "conll14.m2", "o.m2", {"deletion": "-NONE-"}),     # an M2 → M2 rewrite
    (FIXTURES / "m2" / "conll14.m2", "o.xml", {"to_format": "ixml"}),    # format to format
    (FIXTURES / "hoo2012", "o", {"from_format": "hoo2012", "to_format": "hoo2011"}),
])
def test_a_read_write_conversion_runs_whole_on_a_worker(tmp_path, engine, source, dest, options):
    """Nothing to share out sentence by sentence: one task, the worker reads and writes."""
    local, remote = tmp_path / "local", tmp_path / "remote"
    local.mkdir(), remote.mkdir()
    expected = convert(source, local / dest, **options)
    got = convert(source, remote / dest, engine=engine, **options)
    for path in sorted(local.rglob("*")):
        if path.is_file():
            assert (remote / path.relative_to(local)).read_bytes() == path.read_bytes()
    assert (got.sentences, got.lines()) == (expected.sentences, expected.lines())


def test_a_whole_task_needs_files(engine):
    with pytest.raises(UsageError, match="not standard input"):
        convert(FIXTURES / "m2" / "conll14.m2", "-", to_format="m2", engine=engine)


@pytest.mark.parametrize("source, options", [
    (FIXTURES / "hoo2011", {"from_format": "hoo2011"}),
    (FIXTURES / "hoo2012", {"from_format": "hoo2012"}),
    (FIXTURES / "nucle" / "sample.sgml", {"mapping": "conll", "shrink": True}),
    (FIXTURES / "bea" / "sample.json", {}),
    (FIXTURES / "fce" / "doc1.xml", {"from_format": "fce"}),
])
def test_character_offsets_to_tokens(tmp_path, engine, source, options):
    """HOO, NUCLE, BEA and FCE → M2: documents are cut into sentences and tokenized on the
    workers, a few documents per task; output and report as on one machine."""
    local, remote = tmp_path / "local.m2", tmp_path / "dask.m2"
    expected = convert(source, local, to_format="m2", **options)
    engine.partitions = 2  # several tasks even for a two-document fixture
    try:
        got = convert(source, remote, to_format="m2", engine=engine, **options)
    finally:
        engine.partitions = None
    assert remote.read_bytes() == local.read_bytes()
    assert got.conversion.to_dict() == expected.conversion.to_dict()
    assert got.conversion.documents >= 1 and got.sentences == expected.sentences


def test_conversion_reports_merge_like_one_pass():
    from gecformats.convert.retokenize import ConversionReport, to_sentences
    from gecformats.formats import hoo2011

    documents = list(hoo2011.read(FIXTURES / "hoo2011"))
    whole = ConversionReport()
    for document in documents:
        list(to_sentences(document, "en", "punkt", whole))
    merged = ConversionReport()
    for document in documents:
        part = ConversionReport()
        list(to_sentences(document, "en", "punkt", part))
        merged.merge(part)
    assert merged.to_dict() == whole.to_dict()


@pytest.mark.parametrize("dest, options", [
    ("o.tsv", {}),
    ("o.tsv", {"absent": "first"}),
    ("o.m2", {"tokenizer": "char"}),
])
def test_m2_to_text_and_to_characters(tmp_path, engine, dest, options):
    source = FIXTURES / "m2" / "conll14.m2"
    local, remote = tmp_path / ("local-" + dest), tmp_path / ("dask-" + dest)
    expected = convert(source, local, **options)
    got = convert(source, remote, engine=engine, **options)
    assert remote.read_bytes() == local.read_bytes()
    assert got.conversion.to_dict() == expected.conversion.to_dict()


def test_filling_absent_annotators_needs_them_known(engine):
    from gecformats.convert import extract
    from gecformats.formats import m2

    items = m2.read(FIXTURES / "m2" / "conll14.m2")
    with pytest.raises(UsageError, match="known in advance"):
        list(extract.parallels(items, absent="source", engine=engine))


def test_without_dask_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UsageError, match="gecformats\\[dask\\]"):
        with dist.Engine():
            pass


SCORE = FIXTURES / "score"


def test_score_on_the_cluster_equals_local(engine):
    """The alignments on the workers, the annotator choice in order on the client: every
    sentence's choice and counts, and the corpus score, as the local path has them."""
    from gecformats.metrics.score import Scoring

    local = Scoring(SCORE / "sample.hyp", SCORE / "sample.m2", per_sentence=True, keep_counts=True)
    remote = Scoring(SCORE / "sample.hyp", SCORE / "sample.m2", per_sentence=True,
                     keep_counts=True, engine=engine)
    a = [(s.number, s.choice, s.before, s.hypothesis) for s in local]
    b = [(s.number, s.choice, s.before, s.hypothesis) for s in remote]
    assert a == b
    assert remote.result() == local.result()


def test_score_cli_with_the_engine(tmp_path):
    args = ["score", str(SCORE / "sample.hyp"), str(SCORE / "sample.hyp"), "--gold",
            str(SCORE / "sample.m2"), "--format", "json"]
    local = CliRunner().invoke(app, args)
    remote = CliRunner().invoke(app, [*args, "--engine", "dask", "--workers", "2"])
    assert remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout
    refused = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert refused.exit_code == 2 and "needs --engine dask" in refused.output
    # every metric and mode runs on the pipeline, so on the engine too
    local = CliRunner().invoke(app, [*args, "--mode", "detection", "--metric", "m2",
                                     "--metric", "errant"])
    remote = CliRunner().invoke(app, [*args, "--engine", "dask", "--workers", "2", "--mode",
                                      "detection", "--metric", "m2", "--metric", "errant"])
    assert local.exit_code == 0 and remote.stdout == local.stdout  # m2's mode; errant cs
    assert '"mode:detection' not in local.stdout and "|mode:detection|" in local.stdout
    local = CliRunner().invoke(app, [*args, "--mode", "detection"])
    remote = CliRunner().invoke(app, [*args, "--engine", "dask", "--workers", "2", "--mode",
                                      "detection"])
    assert remote.exit_code == 0 and remote.stdout == local.stdout


def test_one_part_per_input_file_on_the_workers(tmp_path, engine):
    """--shards 0: each input shard converted and written by a worker."""
    from gecformats.convert.shards import read_manifest

    inputs = tmp_path / "in"
    inputs.mkdir()
    lines = (FIXTURES / "parallel" / "sample.tsv").read_text(encoding="utf-8").splitlines() * 3
    for k in range(3):
        (inputs / f"x{k}.tsv").write_text("\n".join(lines[k::3]) + "\n", encoding="utf-8")
    local, remote = tmp_path / "local", tmp_path / "remote"
    convert(str(inputs / "*.tsv"), local, to_format="m2", tokenizer="space", shards=0)
    report = convert(str(inputs / "*.tsv"), remote, to_format="m2", tokenizer="space",
                     shards=0, engine=engine)
    for part in sorted(local.glob("part-*")):
        assert (remote / part.name).read_bytes() == part.read_bytes()
    assert read_manifest(remote)["complete"]
    assert report.conversion.sentences == len(lines)


@pytest.mark.parametrize("name, pattern, options", [
    ("m2", "*.m2", {"to_format": "m2", "deletion": "-NONE-"}),          # an M2 → M2 rewrite
    ("ixml", "*.m2", {"to_format": "ixml"}),                             # format to format
    ("hoo", "*.xml", {"from_format": "hoo2011", "to_format": "m2"}),    # characters → tokens
])
def test_read_write_conversions_one_file_per_worker(tmp_path, engine, name, pattern, options):
    """A conversion that only reads and writes runs on the workers one input file each
    (--shards 0)."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    if name == "hoo":
        for path in sorted((FIXTURES / "hoo2011" / "Gold").glob("*.xml")):
            (inputs / path.name).write_bytes(path.read_bytes())
        raw = tmp_path / "Raw"
        raw.mkdir()
        for path in sorted((FIXTURES / "hoo2011" / "Raw").glob("*")):
            (raw / path.name).write_bytes(path.read_bytes())
    else:
        for k in range(2):
            (inputs / f"x{k}.m2").write_bytes((FIXTURES / "m2" / "conll14.m2").read_bytes())
    files = sorted(inputs.glob(pattern))
    local, remote = tmp_path / "local", tmp_path / "remote"
    convert(str(inputs / pattern), local, shards=0, **options)
    convert(str(inputs / pattern), remote, shards=0, engine=engine, **options)
    parts = sorted(local.glob("part-*"))
    assert len(parts) == len(files)
    for part in parts:
        assert (remote / part.name).read_bytes() == part.read_bytes()


def test_workers_write_the_m2_with_the_writer_options(tmp_path, engine):
    """Text → M2 on the cluster: the workers send back M2 text (the client only reads and
    writes); writer options and the writer's report are those of the local path."""
    local, remote = tmp_path / "local.m2", tmp_path / "dask.m2"
    expected = convert(ZH, local, tokenizer="zh", deletion="-NONE-")
    got = convert(ZH, remote, tokenizer="zh", deletion="-NONE-", engine=engine)
    assert remote.read_bytes() == local.read_bytes()
    assert (got.sentences, got.lines()) == (expected.sentences, expected.lines())
    assert got.conversion.to_dict() == expected.conversion.to_dict()


def test_a_sentence_m2_cannot_hold_is_the_same_error(tmp_path, engine):
    source = tmp_path / "bad.tsv"
    source.write_text("d e\td f\na b c\ta x||y c\n", encoding="utf-8")
    messages = []
    for options in ({}, {"engine": engine}):
        with pytest.raises(GecFormatError) as error:
            convert(source, tmp_path / "out.m2", tokenizer="space", **options)
        messages.append(str(error.value))
        assert not (tmp_path / "out.m2").exists()
    assert messages[0] == messages[1] and "sentence 2 cannot be written as m2" in messages[0]


def test_report_merge_is_one_pass():
    from gecformats.report import Report

    whole, first, second = Report(), Report(), Report()
    for report, items in ((first, "ab"), (second, "cde")):
        for item in items:
            whole.drop("x", item)
            report.drop("x", item)
        report.sentences = len(items)
        whole.sentences += len(items)
    first.merge(second)
    assert (first.sentences, first.lines()) == (whole.sentences, whole.lines())


def test_a_dask_bag_runs_the_same_extraction(engine):
    """gecformats.dist.extract_bag: the per-chunk extraction over a dask.bag's partitions."""
    import dask.bag as db

    from gecformats.convert import extract
    from gecformats.formats import m2, parallel

    items = list(parallel.read(EN))
    expected = [m2.format_sentence(s) for s in extract.sentences(items, "en")]
    bag = db.from_sequence(items, npartitions=3)
    got = dist.extract_bag(bag, "en").map(m2.format_sentence).compute()
    assert got == expected


def _raises_with_unpicklable_context(task):
    """A data error raised while handling an exception that cannot be pickled (as lxml's
    errors, whose log cannot); counts its calls in a file."""
    marker, _first, _items = task
    with open(marker, "a", encoding="utf-8") as fh:
        fh.write("x")
    try:
        raise ValueError(lambda: None)  # a lambda does not pickle
    except ValueError:
        raise GecFormatError("bad data", "in.txt", 3) from None


def test_a_data_error_on_a_worker_is_raised_as_it_was_and_not_retried(tmp_path, engine):
    """Issue 22: such errors came back as 'task 1 failed on the Dask cluster: Exception:
    GecFormatError(…)', after a retry."""
    marker = str(tmp_path / "calls")
    with pytest.raises(GecFormatError) as error:
        list(engine.map_chunks(_raises_with_unpicklable_context, dist.chunks(range(2), 2, marker)))
    assert type(error.value) is GecFormatError and str(error.value) == "in.txt:3: bad data"
    assert open(marker, encoding="utf-8").read() == "x"


def _cli(args, cwd, **environment):
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **environment}
    proc = subprocess.run([sys.executable, "-m", "gecformats", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("name, content, args", [
    # read and written whole on a worker: the worker's "Compute Failed … Traceback" blocks
    # came first, then "task 1 failed on the Dask cluster: Exception: GecFormatError(…)"
    ("bad.ixml", '<scripts><script id="1"><sentence id="1"><text>a b</text>\n',
     ["convert", "bad.ixml", "o.m2"]),
    ("syntax.m2", "S a b\nS c d\n\n", ["convert", "syntax.m2", "o.m2", "--to", "m2"]),
    # the scorer's alignments on the workers: a lattice past its limit
    ("huge.hyp", " ".join("abcdefghij"[k * 7 % 10] for k in range(3000)) + "\n"
     + "\n".join((FIXTURES / "score" / "sample.hyp").read_text(encoding="utf-8")
                 .splitlines()[1:]) + "\n",
     ["score", "huge.hyp", "--gold", str(FIXTURES / "score" / "sample.m2")]),
    # the same, and a line too many: the local path fails at the lattice first (the Dask
    # path read the whole chunk and reported the count; found by the fuzzer's Dask twin)
    ("extra.hyp", " ".join("abcdefghij"[k * 7 % 10] for k in range(3000)) + "\n"
     + (FIXTURES / "score" / "sample.hyp").read_text(encoding="utf-8").split("\n", 1)[1]
     + "one line too many\n",
     ["score", "extra.hyp", "--gold", str(FIXTURES / "score" / "sample.m2")]),
])
def test_bad_input_on_the_cluster_reads_as_on_the_local_path(tmp_path, name, content, args):
    """Issue 22: the same one line on standard error and the same exit status as
    --engine local, nothing else (no worker log, no wrapping, no absolute path)."""
    (tmp_path / name).write_text(content, encoding="utf-8")
    local = _cli(args, tmp_path)
    remote = _cli([*args, "--engine", "dask", "--workers", "1"], tmp_path)
    assert local[0] == 1 and local[1].count("\n") == 1 and local[1].startswith("gecformats: ")
    assert remote == local
    assert not (tmp_path / "o.m2").exists()


from test_shards import TWINS  # noqa: E402

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("dist")


@pytest.mark.parametrize("name, source, dest, options", TWINS, ids=[t[0] for t in TWINS])
def test_sharded_on_the_cluster_joins_to_the_plain_conversion(tmp_path, engine, name, source,
                                                             dest, options):
    """Issue 22: for every input format, --shards 2 and --shards 0 with --engine dask (several
    tasks: --partitions 2) write parts that join to the plain local conversion."""
    from gecformats import formats
    from gecformats.convert.shards import read_manifest

    plain = tmp_path / dest
    convert(source, plain, **options)
    to = options.get("to_format") or formats.infer(dest)
    engine.partitions = 2
    try:
        for shards in (2, 0):
            out = tmp_path / f"sharded-{shards}"
            convert(source, out, shards=shards, engine=engine, **{**options, "to_format": to})
            parts = sorted(out.glob("part-*"))
            assert len(parts) == (shards or 1) and read_manifest(out)["complete"]
            if not dest.endswith(".ixml") or shards == 0:
                assert b"".join(p.read_bytes() for p in parts) == plain.read_bytes(), shards
    finally:
        engine.partitions = None


def test_every_metric_scores_alike_here_with_jobs_and_on_the_engine(tmp_path):
    """Issue 23: one pipeline, so every metric on every engine, byte for byte."""
    other = tmp_path / "other.txt"
    other.write_text("The cat sat on mat .\nHe goes to school every days .\n"
                     "This sentence is correct .\nI like the music .\n", encoding="utf-8")
    args = ["score", str(SCORE / "sample.hyp"), str(other), "--gold",
            str(SCORE / "sample.m2"), "--metric", "m2", "--metric", "errant", "--metric", "gleu",
            "--metric", "imeasure", "--ci", "--resamples", "30", "--paired-ar", "--trials", "40",
            "--format", "json", "--per-sentence", "{out}"]

    def run(name, *extra):
        out = tmp_path / f"{name}.tsv"
        result = CliRunner().invoke(app, [a.format(out=out) for a in args] + list(extra))
        return result.exit_code, result.stdout, out.read_text(encoding="utf-8")

    local = run("local")
    assert local[0] == 0 and local == run("jobs", "--jobs", "2")
    assert local == run("dask", "--engine", "dask", "--workers", "2")


def test_imeasure_command_alike_with_jobs_and_on_the_engine():
    """`gecformats imeasure` is a front-end of the pipeline: --jobs and Dask give its bytes."""
    args = ["imeasure", str(FIXTURES / "imeasure" / "sys.txt"), str(FIXTURES / "imeasure" / "sys.txt"),
            "--gold", str(FIXTURES / "imeasure" / "gold.xml"), "--per-sentence"]
    local = CliRunner().invoke(app, args)
    assert local.exit_code == 0
    for extra in (["--jobs", "2"], ["--engine", "dask", "--workers", "2"]):
        twin = CliRunner().invoke(app, [*args, *extra])
        assert (twin.exit_code, twin.stdout) == (0, local.stdout)
    refused = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert refused.exit_code == 2 and "needs --engine dask" in refused.output


def test_chunks_give_the_items_read_before_a_read_error():
    def items():
        yield from (1, 2, 3)
        raise GecFormatError("bad line", "f", 4)

    got = dist.chunks(items(), 2)
    assert next(got) == (None, 1, [1, 2])
    assert next(got) == (None, 3, [3])
    with pytest.raises(GecFormatError, match="bad line"):
        next(got)


@pytest.mark.parametrize("engine_args", [["--jobs", "2"], ["--engine", "dask"]])
def test_an_earlier_sentence_error_wins_over_a_line_count_error(tmp_path, engine_args):
    # found by the fuzz test: the plain path writes sentence 1 (and fails on it) before
    # it reaches the end of the files, where the line counts differ; the engines read the
    # whole (short) input into one task first and reported the count instead
    (tmp_path / "src").write_text("a b c\nd e\nf\n")
    (tmp_path / "ref").write_text("a x|||y c\nd e\nf\ng\nh\n")
    args = ["convert", str(tmp_path / "src"), "--ref", str(tmp_path / "ref"), "--from",
            "parallel", "--tokenizer", "space"]
    plain = CliRunner().invoke(app, args + [str(tmp_path / "plain.m2")])
    twin = CliRunner().invoke(app, args + [str(tmp_path / "twin.m2")] + engine_args)
    assert plain.exit_code == twin.exit_code == 1
    assert "sentence 1 cannot be written" in plain.stderr
    assert twin.stderr == plain.stderr


def test_the_engine_leaves_nothing_in_tmpdir(tmp_path):
    """Issue 34: the local cluster's scratch space (TMPDIR/dask-scratch-space, of the
    scheduler and every worker) was left behind by every run, failed or not."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    (tmp_path / "src").write_text("a b c\nd e\n")
    (tmp_path / "ref").write_text("a x c\nd e\n")
    (tmp_path / "longer").write_text("a x c\nd e\nf\n")
    for ref, status in (("ref", 0), ("longer", 1)):
        args = ["convert", "src", "o.m2", "--ref", ref, "--from", "parallel", "--tokenizer",
                "space", "--engine", "dask", "--workers", "1"]
        assert _cli(args, tmp_path, TMPDIR=str(scratch))[0] == status
        assert not list(scratch.iterdir()), ref

"""--extractor errant: ERRANT's own edits and types, byte for byte with errant_parallel
(the reference files of ../shared/reference/errant), through gecformats' converter."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import in_ci, shared_file
from gecformats.cli import app

if not in_ci():
    pytest.importorskip("errant")
    pytest.importorskip("spacy")

CONLL = "corpora/conll14"


def _head(path, n, out):
    with open(path, encoding="utf-8", newline="") as fh:
        lines = [next(fh) for _ in range(n)]
    out.write_text("".join(lines), encoding="utf-8")
    return out


def _blocks(path, n):
    return "\n\n".join(open(path, encoding="utf-8").read().split("\n\n")[:n]) + "\n\n"


@pytest.mark.parametrize("refs, expected", [
    (["official_submissions/CAMB"], "hyp/CAMB.m2"),
    (["gecmetrics/refs/conll14st-test.tok.trg0", "gecmetrics/refs/conll14st-test.tok.trg1"],
     "ref.m2"),
])
def test_byte_for_byte_with_errant_parallel(tmp_path, refs, expected):
    n = 300
    src = _head(shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src"), n, tmp_path / "src")
    args = ["convert", str(src), str(tmp_path / "out.m2"), "--from", "parallel",
            "--extractor", "errant"]
    for k, ref in enumerate(refs):
        args += ["--ref", str(_head(shared_file(f"{CONLL}/{ref}"), n, tmp_path / f"ref{k}"))]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    got = (tmp_path / "out.m2").read_text(encoding="utf-8")
    assert got == _blocks(shared_file(f"reference/errant/{expected}"), n)


def test_jobs_give_the_same_bytes(tmp_path, monkeypatch):
    from gecformats.convert import errant_extract

    monkeypatch.setattr(errant_extract, "CHUNK", 40)  # several tasks
    n = 100
    src = _head(shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src"), n, tmp_path / "src")
    ref = _head(shared_file(f"{CONLL}/official_submissions/AMU"), n, tmp_path / "ref")
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.m2"
        result = CliRunner().invoke(app, ["convert", str(src), str(out), "--from", "parallel",
                                          "--ref", str(ref), "--extractor", "errant",
                                          "--jobs", jobs])
        assert result.exit_code == 0, result.output
        outs.append(out.read_text(encoding="utf-8"))
    assert outs[0] == outs[1] == _blocks(shared_file("reference/errant/hyp/AMU.m2"), n)


def test_noops_types_and_empty_sources(tmp_path):
    src = tmp_path / "src.txt"
    src.write_text("He go to school .\n\nThis is fine .\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("He goes to school .\nanything\nThis is fine .\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(src), str(tmp_path / "o.m2"), "--from",
                                      "parallel", "--ref", str(ref), "--extractor", "errant"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o.m2").read_text(encoding="utf-8") == (
        "S He go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
        "S This is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")


SOURCES = ["He go to school .", "This is fine .", "She like apples , and he like pears ."]
REF0 = ["He goes to school .", "This is fine .", "She likes apples and he likes pears ."]
REF1 = ["He went to school .", "This is fine !", "She likes apples , and he likes pears ."]
EXPECTED = (  # errant_parallel -orig SRC -cor REF0 REF1 (errant 3.0.2, spaCy 3.8, sm 3.8.0)
    "S He go to school .\n"
    "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
    "A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1\n\n"
    "S This is fine .\n"
    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
    "A 3 4|||R:PUNCT|||!|||REQUIRED|||-NONE-|||1\n\n"
    "S She like apples , and he like pears .\n"
    "A 1 2|||R:SPELL|||likes|||REQUIRED|||-NONE-|||0\n"
    "A 3 4|||U:PUNCT||||||REQUIRED|||-NONE-|||0\n"
    "A 6 7|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n"
    "A 1 2|||R:SPELL|||likes|||REQUIRED|||-NONE-|||1\n"
    "A 6 7|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||1\n\n")


def _convert(args):
    result = CliRunner().invoke(app, ["convert", *args, "--extractor", "errant"])
    assert result.exit_code == 0, result.output
    return result


def test_tsv_rows_are_errant_rows(tmp_path):
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(f"{s}\t{a}\t{b}\n" for s, a, b in zip(SOURCES, REF0, REF1)),
                   encoding="utf-8")
    _convert([str(tsv), str(tmp_path / "o.m2"), "--from", "tsv"])
    assert (tmp_path / "o.m2").read_text(encoding="utf-8") == EXPECTED


def test_nlpcc_rows_and_a_sentence_judged_correct(tmp_path):
    """NLPCC layout in English: N corrections per line; N = 0 is a noop annotator 0 (as
    the lcs extractor has it); a line with fewer corrections has fewer annotators."""
    train = tmp_path / "in.train"
    train.write_text(f"1\t2\t{SOURCES[0]}\t{REF0[0]}\t{REF1[0]}\n2\t0\t{SOURCES[1]}\n"
                     f"3\t1\t{SOURCES[2]}\t{REF1[2]}\n", encoding="utf-8")
    _convert([str(train), str(tmp_path / "o.m2"), "--from", "nlpcc"])
    blocks = EXPECTED.split("\n\n")
    assert (tmp_path / "o.m2").read_text(encoding="utf-8") == (
        blocks[0] + "\n\nS This is fine .\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
        "S She like apples , and he like pears .\n"
        "A 1 2|||R:SPELL|||likes|||REQUIRED|||-NONE-|||0\n"
        "A 6 7|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n\n")


def test_shards_join_to_the_plain_output(tmp_path):
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(f"{s}\t{a}\t{b}\n" for s, a, b in zip(SOURCES, REF0, REF1)),
                   encoding="utf-8")
    _convert([str(tsv), str(tmp_path / "parts"), "--from", "tsv", "--to", "m2",
              "--shards", "2"])
    parts = sorted((tmp_path / "parts").glob("part-*.m2"))
    assert len(parts) == 2
    assert "".join(p.read_text(encoding="utf-8") for p in parts) == EXPECTED
    manifest = (tmp_path / "parts" / "manifest.json").read_text(encoding="utf-8")
    assert '"extractor": "errant-3.0.2+spacy-' in manifest


def test_jobs_and_dask_give_the_bytes_of_the_plain_path(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from gecformats.convert import errant_extract

    monkeypatch.setattr(errant_extract, "CHUNK", 40)  # several tasks (cut in the client)
    n = 120
    src = _head(shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src"), n, tmp_path / "src")
    ref = _head(shared_file(f"{CONLL}/official_submissions/CAMB"), n, tmp_path / "ref")
    outs = []
    for extra in ([], ["--jobs", "2"], ["--engine", "dask", "--workers", "2"]):
        out = tmp_path / f"out{len(outs)}.m2"
        _convert([str(src), str(out), "--from", "parallel", "--ref", str(ref), *extra])
        outs.append(out.read_text(encoding="utf-8"))
    assert outs[0] == outs[1] == outs[2] == _blocks(shared_file("reference/errant/hyp/CAMB.m2"), n)


@pytest.mark.parametrize("extra, message", [
    (["--tokenizer", "space"], "runs without --tokenizer"),
    (["--extractor", "bert"], "unknown extractor 'bert'"),
])
def test_usage_errors(tmp_path, extra, message):
    src = tmp_path / "src.txt"
    src.write_text("a b\n", encoding="utf-8")
    args = ["convert", str(src), str(tmp_path / "o.m2"), "--from", "parallel", "--ref",
            str(src), *(extra if "--extractor" in extra else ["--extractor", "errant", *extra])]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "o.m2").exists()


@pytest.mark.parametrize("command", ["convert", "errant", "gotoscorer", "cleme"])
def test_a_missing_spacy_model_is_a_setup_error(tmp_path, command):
    # it was a usage error (exit 2): the command is right, the installation lacks the model
    src = tmp_path / "src.txt"
    src.write_text("a b\n", encoding="utf-8")
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    out = tmp_path / "o.m2"
    if command == "convert":
        args = ["convert", str(src), str(out), "--from", "parallel", "--ref", str(src)]
    else:
        args = ["score", str(src), "--gold", str(gold), "--metric", command]
    result = CliRunner().invoke(app, [*args, "--extractor", "errant", "--spacy-model",
                                      "no_such_model_xyz"])
    assert result.exit_code == 1 and result.stdout == "" and not out.exists()
    assert result.stderr.startswith("gecformats: --extractor errant needs the spaCy model "
                                    "'no_such_model_xyz', which is neither an installed")
    assert "python -m spacy download en_core_web_sm" in result.stderr
    assert result.stderr.count("\n") == 1


def test_missing_errant_says_what_to_install_from_a_clone_too(monkeypatch):
    import sys

    from gecformats.convert.errant_extract import load
    from gecformats.errors import GecFormatError, UsageError

    monkeypatch.setitem(sys.modules, "errant", None)  # import errant: ImportError
    with pytest.raises(GecFormatError) as caught:
        load()
    assert not isinstance(caught.value, UsageError)
    assert "pip install 'gecformats[errant]', or from a clone pip install '.[errant]'; then " \
        "python -m spacy download en_core_web_sm" in str(caught.value)


def test_score_with_errant_edits_of_text_equals_scoring_errant_parallel_output(tmp_path):
    """score --metric errant --extractor errant on a text output gives what scoring the
    M2 file errant_parallel made of it gives (errant_compare's numbers)."""
    n = 150
    hyp = _head(shared_file(f"{CONLL}/official_submissions/AMU"), n, tmp_path / "AMU")
    gold = tmp_path / "ref.m2"
    gold.write_text(_blocks(shared_file("reference/errant/ref.m2"), n), encoding="utf-8")
    m2 = tmp_path / "AMU.m2"
    m2.write_text(_blocks(shared_file("reference/errant/hyp/AMU.m2"), n), encoding="utf-8")
    run = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(gold), "--metric", "errant",
                                   "--extractor", "errant", "--format", "tsv"])
    ref = CliRunner().invoke(app, ["score", str(m2), "--gold", str(gold), "--metric", "errant",
                                   "--format", "tsv"])
    assert run.exit_code == ref.exit_code == 0, run.output
    assert run.stdout.splitlines()[1].split("\t")[1:] == ref.stdout.splitlines()[1].split("\t")[1:]
    assert "|hyp:extracted-errant-3.0.2+spacy-" in run.stdout and "warning" not in run.stderr


def test_batched_parses_give_the_statistics_of_one_parse_per_sentence():
    """ErrantMetric.sentences (the scoring pipeline's chunk step: spaCy parses in batches,
    a source once for all systems) equals ErrantMetric.sentence, hypothesis by hypothesis;
    an M2 hypothesis with another source fails naming its system."""
    from gecformats.formats import m2
    from gecformats.metrics.base import Hypothesis, SystemFailure
    from gecformats.metrics.errant import ErrantMetric

    gold = list(m2.parse(EXPECTED))
    systems = [REF0, REF1, SOURCES, REF0]  # a noop system, two systems alike
    metric = ErrantMetric(extractor="errant", cat=3)
    prepared = [metric.prepare(g) for g in gold]
    hyps = [[Hypothesis(tuple(s[i].split()), s[i]) for s in systems] for i in range(len(gold))]
    batched = list(metric.sentences(prepared, hyps))
    assert batched == [[metric.sentence(p, h) for h in hs] for p, hs in zip(prepared, hyps)]
    assert batched[0][0][0] != batched[0][1][0]  # the systems' edits differ
    [other] = m2.parse("S He go home .\nA 1 2|||R|||goes|||REQUIRED|||-NONE-|||0\n")
    hyps[1][2] = Hypothesis((), "", other)
    rows = metric.sentences(prepared, hyps)
    assert next(rows) == batched[0]
    with pytest.raises(SystemFailure) as caught:
        next(rows)
    assert caught.value.system == 2 and "differs from the gold" in caught.value.error.message


def test_documents_give_errant_parallel_of_their_sentences(tmp_path):
    """BEA-2019 JSON (and any document format) with --extractor errant: ERRANT's edits of
    each annotator's corrected sentence in gecformats' segmentation, the same bytes as the
    chain JSON → M2 → TSV → --from tsv --extractor errant (errant_parallel of those lines);
    the report records the versions."""
    import json

    from conftest import FIXTURES

    run = lambda *a: CliRunner().invoke(app, ["convert", *map(str, a)])
    src = FIXTURES / "bea" / "sample.json"
    result = run(src, tmp_path / "direct.m2", "--extractor", "errant", "--report",
                 tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert run(src, tmp_path / "plain.m2").exit_code == 0
    assert run(tmp_path / "plain.m2", tmp_path / "plain.tsv", "--to", "tsv",
               "--absent", "source").exit_code == 0
    assert run(tmp_path / "plain.tsv", tmp_path / "chain.m2", "--extractor",
               "errant").exit_code == 0
    assert (tmp_path / "direct.m2").read_text("utf-8") == (tmp_path / "chain.m2").read_text("utf-8")
    assert "R:VERB:SVA" in (tmp_path / "direct.m2").read_text("utf-8")
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert report["extractor"].startswith("errant-3.0.2+spacy-")


def test_documents_refuse_engines_with_errant(tmp_path):
    from conftest import FIXTURES

    result = CliRunner().invoke(app, ["convert", str(FIXTURES / "bea" / "sample.json"),
                                      str(tmp_path / "o.m2"), "--extractor", "errant",
                                      "--shards", "2"])
    assert result.exit_code == 2 and "runs locally" in result.output
    assert not (tmp_path / "o.m2").exists()


ALIGNED = [  # transpositions, case changes, words on one side only, empty sides
    ("He go to school .", "He goes to school ."),
    ("to school he go", "he go to school"),
    ("I like very much it .", "I like it very much ."),
    ("The the cat sat .", "the cat sat ."),
    ("a b c d e", "e d c b a"),
    ("He went home , and the rest .", "He went home . The rest ."),
    ("", "Hello ."),
    ("Hello .", ""),
    ("apples and pears", "pears and apples and pears"),
]


def _assert_aligned_as_errant(annotator, pairs):
    from errant.alignment import Alignment

    from gecformats.convert.errant_extract import _alignment_class

    for orig, cor in pairs:
        o, c = annotator.parse(orig), annotator.parse(cor)
        theirs, ours = Alignment(o, c), _alignment_class()(o, c)
        assert (ours.cost_matrix, ours.op_matrix, ours.align_seq) == \
            (theirs.cost_matrix, theirs.op_matrix, theirs.align_seq), (orig, cor)


def test_the_alignment_is_errants_cell_for_cell():
    """gecformats' alignment (attribute lists, shortcuts that skip work never chosen)
    fills ERRANT's cost and operation matrices cell for cell, and traces the same path."""
    from gecformats.convert.errant_extract import cached

    _assert_aligned_as_errant(cached(), ALIGNED)


def test_the_alignment_is_errants_on_conll14_systems():
    from gecformats.convert.errant_extract import cached

    n = 120
    src = shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src").read_text("utf-8")
    pairs = set()
    for system in ("AMU", "CAMB", "NTHU"):
        hyp = shared_file(f"{CONLL}/official_submissions/{system}").read_text("utf-8")
        pairs |= {(" ".join(o.split()), " ".join(c.split())) for o, c in
                  zip(src.splitlines()[:n], hyp.splitlines()[:n]) if o.split() != c.split()}
    _assert_aligned_as_errant(cached(), sorted(pairs))


def _errant(annotator, orig, cor):
    """ERRANT's own ``annotate`` on fresh parses (its alignment, not gecformats'), as the
    :data:`~gecformats.convert.errant_extract.Edit` tuples an extraction gives."""
    if orig == cor:
        return ()
    return tuple((e.o_start, e.o_end, e.type, e.c_str)
                 for e in annotator.annotate(annotator.parse(orig), annotator.parse(cor)))


def test_each_text_is_parsed_once_and_each_pair_typed_once():
    """An Extraction parses each distinct text of a call once, aligns and types each
    distinct pair once, remakes a kept source instead of parsing it again and reuses kept
    edits; with caches of one entry (every call evicts) the edits are the same: ERRANT's."""
    from gecformats.convert.errant_extract import Extraction, cached

    annotator = cached()
    pairs = list(zip(SOURCES + SOURCES, REF0 + REF1))  # "This is fine ." twice its source
    expected = [_errant(annotator, o, c) for o, c in pairs]
    extraction = Extraction(annotator)
    assert extraction.edits(pairs + pairs) == expected + expected
    # 3 sources with a correction that differs, 5 distinct such corrections
    assert extraction.counts == {"parsed": 8, "remade": 0, "annotated": 5, "reused": 0}
    assert extraction.edits(pairs) == expected
    assert extraction.counts == {"parsed": 8, "remade": 0, "annotated": 5, "reused": 5}
    new = (SOURCES[0], "He goes to the school .")
    assert extraction.edits([new]) == [_errant(annotator, *new)]
    assert extraction.counts == {"parsed": 9, "remade": 1, "annotated": 6, "reused": 5}
    tiny = Extraction(annotator, parses=1, pairs=1)
    assert [tiny.edits([p])[0] for p in pairs + pairs] == expected + expected
    assert tiny.counts == {"parsed": 20, "remade": 0, "annotated": 10, "reused": 0}


def test_a_line_that_differs_from_its_source_by_spaces_only_is_no_noop():
    """errant_parallel compares the stripped line with the source's tokens joined by one
    space: two spaces between words make no noop, and no edit either (ERRANT aligns the
    equal tokens) -- the annotator has no line at all."""
    from gecformats.convert.errant_extract import Extraction, cached, m2_lines

    rows = [("He go to school .", "He go  to school .", " He go to school . ")]
    assert "".join(m2_lines(rows, Extraction(cached()))) == (
        "S He go to school .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n")


def test_systems_scored_together_score_as_alone(tmp_path, monkeypatch):
    """The run's caches (kept parses and edits) change no number: AMU twice and a copy of
    it in one call with ERRANT, CLEME and GoToScorer, the gold extracted from the source
    and the references by ERRANT in the same run, give the output of the same call without
    caches, AMU's three rows are equal, and ERRANT's and CLEME's numbers are those of a
    call on AMU alone with that metric alone (GoToScorer weighs by the systems scored)."""
    from gecformats.convert import errant_extract

    n = 100
    src = _head(shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src"), n, tmp_path / "src")
    refs = [_head(shared_file(f"{CONLL}/gecmetrics/refs/conll14st-test.tok.trg{k}"), n,
                  tmp_path / f"trg{k}") for k in (0, 1)]
    amu = _head(shared_file(f"{CONLL}/official_submissions/AMU"), n, tmp_path / "AMU")
    copy = tmp_path / "copy"
    copy.write_bytes(amu.read_bytes())
    camb = _head(shared_file(f"{CONLL}/official_submissions/CAMB"), n, tmp_path / "CAMB")
    gold = ["--source", str(src), "--ref", str(refs[0]), "--ref", str(refs[1])]

    def score(systems, metrics, keep=True):
        extractions = {} if keep else {None: errant_extract.Extraction(
            errant_extract.cached(), parses=0, pairs=0)}
        monkeypatch.setattr(errant_extract, "_EXTRACTIONS", extractions)
        result = CliRunner().invoke(app, [
            "score", *map(str, systems), *gold, "--extractor", "errant", "--format", "tsv",
            "-q", *(a for m in metrics for a in ("--metric", m))])
        assert result.exit_code == 0, result.output
        return result.stdout

    metrics = ["errant", "cleme", "gotoscorer"]
    together = score([amu, camb, amu, copy], metrics)
    assert together == score([amu, camb, amu, copy], metrics, keep=False)
    rows = [line.split("\t")[1:] for line in together.splitlines()[1:5]]
    assert rows[0] == rows[2] == rows[3] != rows[1]
    for system, row in ((amu, rows[0]), (camb, rows[1])):
        alone = [score([system], [m]).splitlines()[1].split("\t")[1:] for m in metrics[:2]]
        assert row[:len(alone[0]) + len(alone[1])] == alone[0] + alone[1]


def test_the_gold_sources_are_parsed_once_for_the_systems_too(tmp_path, monkeypatch):
    """score --source --ref --extractor errant: the sources parsed for the gold are remade
    for the systems, not parsed again; a system's pair that is a reference's is not typed
    again; the second metric and the second system reuse the edits."""
    from gecformats.convert import errant_extract

    monkeypatch.setattr(errant_extract, "_EXTRACTIONS", {})
    files = {}
    for name, lines in (("src", SOURCES), ("ref", REF0), ("a", REF1), ("b", REF1),
                        ("c", REF0)):
        files[name] = tmp_path / name
        files[name].write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    result = CliRunner().invoke(app, [
        "score", str(files["a"]), str(files["b"]), str(files["c"]), "--source",
        str(files["src"]), "--ref", str(files["ref"]), "--extractor", "errant", "--metric",
        "errant", "--metric", "senterrant", "--format", "tsv"])
    assert result.exit_code == 0, result.output
    # the gold: sources 0 and 2 and their references; the systems: source 1 (its
    # reference was the source itself) and REF1's three lines; c is the reference
    # (the first metric reuses c's two pairs, the second all five)
    assert errant_extract.extraction().counts == {"parsed": 8, "remade": 2, "annotated": 5,
                                                  "reused": 2 + 5}

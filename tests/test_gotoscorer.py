from __future__ import annotations

import csv
import gzip
import json
from functools import lru_cache

import pytest
from typer.testing import CliRunner

from conftest import CONLL14_SYSTEMS, FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.metrics.base import Hypothesis
from gecformats.metrics.gotoscorer import (CORRECT, GENERATOR, GOLD, MODIFIED, GoToScorerMetric,
                                           gecm_chunks, gecm_judge, gts_chunks, gts_judge,
                                           gts_values, gecm_values, read_weights,
                                           write_weights)
from gecformats.metrics.request import build_metrics
from gecformats.model import Edit, Sentence


def hyp(line: str) -> Hypothesis:
    return Hypothesis(tuple(line.split()), line)


def spans(chunks):
    return [(s, e, t) for s, e, t, _, _ in chunks]


# ------------------------------------------------------------------ hand-written cases

def test_gts_chunks_insertion_slots():
    tokens = ["a", "b", "c"]
    # an insertion before b: no extra empty slot before it or before b
    assert spans(gts_chunks(tokens, [(1, 1, "M:DET", "the")])) == [
        (0, 0, ""), (0, 1, "a"), (1, 1, "the"), (1, 2, "b"), (2, 2, ""), (2, 3, "c"), (3, 3, "")]
    # an insertion at the end: no trailing slot; noop/UNK/Um are no chunks
    assert spans(gts_chunks(tokens, [(-1, -1, "noop", "-NONE-"), (0, 1, "UNK", "a"),
                                      (3, 3, "M:PUNCT", ".")]))[-2:] == [(2, 3, "c"), (3, 3, ".")]
    # a two-token replacement is one chunk
    assert spans(gts_chunks(tokens, [(0, 2, "R:OTHER", "x")]))[:3] == [
        (0, 0, ""), (0, 2, "x"), (2, 2, "")]


def test_gecm_chunks_equal_gts_on_ordered_edits():
    tokens = ["a", "b", "c"]
    for edits in ([], [(1, 1, "M:DET", "the")], [(0, 2, "R:OTHER", "x"), (3, 3, "M:PUNCT", ".")]):
        assert spans(gecm_chunks(tokens, edits)) == spans(gts_chunks(tokens, edits))


def test_gts_judgements():
    tokens = ["a", "cat", "sit"]
    gold = gts_chunks(tokens, [(2, 3, "R:VERB", "sat")])
    right = gts_judge(gold, gts_chunks(tokens, [(2, 3, "R:VERB", "sat")]))
    wrong = gts_judge(gold, gts_chunks(tokens, [(2, 3, "R:VERB", "sits")]))
    untouched = gts_judge(gold, gts_chunks(tokens, []))
    over = gts_judge(gold, gts_chunks(tokens, [(0, 1, "R:DET", "the")]))
    edit = 5  # the chunk (2, 3)
    assert right[edit] == GOLD | CORRECT | MODIFIED
    assert wrong[edit] == GOLD | MODIFIED  # FP and FN
    assert untouched[edit] == GOLD  # FN
    assert over[1] == MODIFIED and untouched[1] == CORRECT  # FP / TN
    # an insertion before a token leaves the token's chunk correct
    inserted = gts_judge(gold, gts_chunks(tokens, [(1, 1, "M:ADJ", "big")]))
    assert inserted[2] == MODIFIED and inserted[3] == CORRECT


def test_gecm_generator_compares_a_chunk_with_itself():
    tokens = ["a", "a", "b"]
    reference = gecm_chunks(tokens, [(2, 3, "R:NOUN", "a")])
    hypothesis = gecm_chunks(tokens, [])
    # the reference's "a" at (2, 3) is nowhere in the hypothesis at that span, but the string
    # "a" is (tokens 0 and 1): the generator as published counts it corrected
    assert gecm_judge(reference, hypothesis, False)[5] & GENERATOR
    assert not gecm_judge(reference, hypothesis, True)[5] & GENERATOR
    assert not gecm_judge(reference, hypothesis, False)[5] & CORRECT


def test_zero_conventions_differ():
    assert gts_values(0, 0, 5) == (0, 0, 0)
    assert gecm_values(0.0, 0.0, 5.0) == (1.0, 0.0, 0.0)
    assert gecm_values(0.0, 0.0, 0.0) == (1.0, 1.0, 1.0)


GOLD_SENTENCE = Sentence(("a", "cat", "sit"), {0: (Edit(2, 3, (("sat",),), "R:VERB"),),
                                                1: (Edit(0, 1, (("the",),), "R:DET"),)})


def _run(metric, lines):
    prepared = metric.prepare(GOLD_SENTENCE)
    return metric.complete([[metric.sentence(prepared, hyp(line))] for line in lines])


def test_weights_from_the_systems_and_reference_choice():
    m = GoToScorerMetric()
    done = _run(m, ["a cat sat", "a cat sit", "a cat sit", "a cat sit"])
    # the edit chunk: 1 of 4 correct, weight 0.75; the other chunks: all correct, weight 0
    assert done[0][0].weights[5] == 0.75 and set(done[0][0].weights) - {0.75} == {0.0}
    assert m.corpus(done[0]).counts["tp"] == 0.75
    assert m.corpus(done[1]).counts["fn"] == 0.75
    assert m.signature().startswith("metric:gotoscorer|version:gts|code:5d120c3|ref:0|"
                                    "weights:scored-4|")
    # annotator 1 as the reference
    m1 = GoToScorerMetric(ref=1)
    assert m1.corpus(_run(m1, ["the cat sit"])[0]).values[2] == 0.0  # weight 0: all correct
    assert GoToScorerMetric(ref=1, weighting="none").corpus(
        _run(GoToScorerMetric(ref=1, weighting="none"), ["the cat sit"])[0]).values[2] == 1.0


def test_defaults_follow_each_original():
    assert GoToScorerMetric().weighting == "weighted"
    assert GoToScorerMetric(version="gec-metrics").weighting == "none"
    with pytest.raises(ValueError):
        GoToScorerMetric(version="gts2")
    with pytest.raises(ValueError):
        GoToScorerMetric(weights_from=("a",), weights_file="w")


def test_weight_files_round_trip(tmp_path):
    m = GoToScorerMetric(save_weights=str(tmp_path / "w.txt"))
    _run(m, ["a cat sat", "a cat sit"])
    text = (tmp_path / "w.txt").read_text()
    assert text == "2\n2 2 2 2 2 1 2\n"
    back = read_weights(str(tmp_path / "w.txt"))
    assert back.systems == 2 and back.weights == [(0.0,) * 5 + (0.5, 0.0)]
    with pytest.raises(Exception, match="judgement"):
        write_weights(back, str(tmp_path / "w.json"))
    m = GoToScorerMetric(version="gec-metrics", save_weights=str(tmp_path / "w.json"))
    _run(m, ["a cat sat", "a cat sit"])
    data = json.loads((tmp_path / "w.json").read_text())
    assert data[0]["evaluations"][5] == [1, 0] and data[0]["weights"][5] == 0.5
    assert read_weights(str(tmp_path / "w.json")).correct == [(2, 2, 2, 2, 2, 1, 2)]


def test_a_weight_file_that_does_not_fit_is_refused(tmp_path):
    (tmp_path / "w.txt").write_text("2\n2 2 2\n")
    m = GoToScorerMetric(weights_file=str(tmp_path / "w.txt"))
    m.setup("unused")
    with pytest.raises(GecFormatError, match="chunks"):
        _run(m, ["a cat sat"])
    (tmp_path / "bad.txt").write_text("x\n")
    with pytest.raises(GecFormatError):
        read_weights(str(tmp_path / "bad.txt"))


def test_cli_intervals_paired_test_per_sentence_and_signature(tmp_path):
    saved = tmp_path / "w.txt"
    result = CliRunner().invoke(app, [
        "score", "fixtures/score/errant.hyp", "fixtures/m2/errant.m2", "--gold",
        "fixtures/m2/errant.m2", "--metric", "gotoscorer", "--metric", "m2", "--ci",
        "--resamples", "50", "--paired-bs", "--format", "json", "--save-weights", str(saved),
        "--per-sentence", str(tmp_path / "ps.tsv"), "-q"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    goto = out["errant.hyp"]["gotoscorer"]
    assert "ci" in json.dumps(goto) and "weights:scored-2" in goto["signature"]
    assert "gotoscorer" in (tmp_path / "ps.tsv").read_text()
    again = CliRunner().invoke(app, [
        "score", "fixtures/score/errant.hyp", "--gold", "fixtures/m2/errant.m2", "--metric",
        "gotoscorer", "--weights", str(saved), "--format", "json"])
    assert json.loads(again.stdout)["errant.hyp"]["gotoscorer"]["f"] == goto["f"]
    frm = CliRunner().invoke(app, [
        "score", "fixtures/score/errant.hyp", "--gold", "fixtures/m2/errant.m2", "--metric",
        "gotoscorer", "--weights-from", "fixtures/score/errant.hyp", "--weights-from",
        "fixtures/m2/errant.m2", "--format", "json"])
    assert json.loads(frm.stdout)["errant.hyp"]["gotoscorer"]["f"] == goto["f"]
    refused = CliRunner().invoke(app, ["score", "fixtures/score/errant.hyp", "--gold",
                                       "fixtures/m2/errant.m2", "--weights", str(saved)])
    assert refused.exit_code == 2 and "--metric gotoscorer" in refused.output


def test_build_from_options():
    metric = build_metrics(["gotoscorer"], {"gotoscorer-version": "gec-metrics",
                                            "gotoscorer-ref": 1, "weights-from": ["a", "b"]},
                           {"gotoscorer-version", "gotoscorer-ref", "weights-from"})[0]
    assert (metric.version, metric.ref, metric.weights_from) == ("gec-metrics", 1, ("a", "b"))
    assert "weights:from:a,b" in metric.signature()


# ------------------------------------------------------------------ the originals' outputs

ORACLE = "reference/metrics/gotoscorer"
SYSTEMS = list(CONLL14_SYSTEMS)


@lru_cache(maxsize=None)
def _inputs():
    gold = list(m2.read(str(shared_file("reference/errant/ref.m2"))))
    hyps = [[Hypothesis((), "", s)
             for s in m2.read(str(shared_file(f"reference/errant/hyp/{n}.m2")))] for n in SYSTEMS]
    return gold, hyps


@lru_cache(maxsize=None)
def _stats(version: str, ref: int):
    """Every system's statistics, weighted by the 13 systems (the pipeline's steps)."""
    gold, hyps = _inputs()
    m = GoToScorerMetric(version=version, ref=ref, weighting="weighted")
    prepared = [m.prepare(g) for g in gold]
    done = m.complete([[m.sentence(p, h) for p, h in zip(prepared, system)] for system in hyps])
    return m, done


def _rows(name: str):
    with open(shared_file(f"{ORACLE}/{name}"), encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.mark.parametrize("ref", [0, 1])
def test_official_gts_corpus_scores_and_weight_files(ref, tmp_path):
    m, done = _stats("gts", ref)
    unweighted = GoToScorerMetric(ref=ref, weighting="none")
    for row in _rows("gts_official_corpus.tsv"):
        if row["ref"] != f"ref{ref}":
            continue
        metric = m if row["weighting"] == "weighted" else unweighted
        stats = done[SYSTEMS.index(row["system"])]
        if metric is unweighted:
            stats = [s._replace(weights=None) for s in stats]
        t = metric.corpus(stats)
        mine = {"TP": t.counts["tp"], "FP": t.counts["fp"], "FN": t.counts["fn"],
                "TN": t.counts["tn"], "Precision": t.values[0], "Recall": t.values[1],
                "F0.5": t.values[2], "F1": t.extra["f1"], "Accuracy": t.extra["accuracy"]}
        for key, value in mine.items():
            assert float(row[key]) == float(value), (row["system"], row["weighting"], key)
    write_weights(m._used, str(tmp_path / "w.txt"))
    expected = shared_file(f"{ORACLE}/gts_wfile_13sys_ref{ref}.txt").read_bytes()
    assert (tmp_path / "w.txt").read_bytes() == expected


@pytest.mark.parametrize("ref", [0])  # ref 1 alike (checked once; the suite's time is short)
def test_gec_metrics_corpus_and_sentence_scores(ref):
    m, done = _stats("gec-metrics", ref)
    unweighted = GoToScorerMetric(version="gec-metrics", ref=ref)
    configs = {f"weighted_ref{ref}": m,
               ("default_no_weight_ref0" if ref == 0 else "no_weight_ref1"): unweighted}
    per_sentence = {n: _rows(f"gecmetrics_per_sentence/{n}.tsv") for n in ("AMU", "CAMB", "CUUI")}
    for row in _rows("gecmetrics_corpus.tsv"):
        metric = configs.get(row["config"])
        if metric is None:
            continue
        stats = done[SYSTEMS.index(row["system"])]
        if metric is unweighted:
            stats = [s._replace(weights=None) for s in stats]
        t = metric.corpus(stats)
        mine = {"TP": t.counts["tp"], "FP": t.counts["fp"], "FN": t.counts["fn"],
                "TN": t.counts["tn"], "P": t.values[0], "R": t.values[1], "F0.5": t.values[2]}
        if row["system"] in per_sentence:  # the sentence scores of three systems
            fields = [metric.sentence_fields(s, 0) for s in stats]
            mine["mean_of_sentence_F"] = sum(f["f"] for f in fields) / len(fields)
            for f, r in zip(fields, per_sentence[row["system"]]):
                for key in ("f", "p", "r", "tp", "fp", "fn", "tn"):
                    assert float(r[f"{row['config']}_{key}"]) == f[key], (row["system"], r["sent"])
        for key, value in mine.items():
            assert repr(float(row[key])) == repr(value), (row["system"], row["config"], key)


def test_gec_metrics_weight_file_byte_for_byte(tmp_path):
    m, done = _stats("gec-metrics", 0)
    judged = m._judged([[s._replace(weights=None) for s in system] for system in done], True)
    write_weights(judged, str(tmp_path / "w.json"))
    expected = gzip.decompress(shared_file(f"{ORACLE}/gecmetrics_weights_13sys_ref0.json.gz")
                               .read_bytes())
    assert (tmp_path / "w.json").read_bytes() == expected


def test_weight_files_of_the_originals_give_their_scores():
    gts = read_weights(str(shared_file(f"{ORACLE}/gts_wfile_13sys_ref0.txt")))
    gecm = read_weights(str(shared_file(f"{ORACLE}/gecmetrics_weights_13sys_ref0.json.gz")))
    m, _ = _stats("gts", 0)
    assert gts.weights == m._used.weights
    assert gts.systems == gecm.systems == 13


def test_an_annotator_the_gold_lacks_is_refused_or_noted(tmp_path):
    # --gotoscorer-ref 5 against a gold without annotator 5 scored 0 with exit 0
    gold = FIXTURES / "m2/errant.m2"
    result = CliRunner().invoke(app, ["score", str(gold), "--gold", str(gold), "--metric",
                                      "gotoscorer", "--gotoscorer-ref", "5"])
    assert result.exit_code == 1 and result.stdout == ""
    assert "no sentence of the gold has annotator 5" in result.stderr
    partial = tmp_path / "partial.m2"
    partial.write_text("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n"
                       "A 1 2|||R|||d|||REQUIRED|||-NONE-|||1\n\n"
                       "S e f\nA 0 1|||R|||g|||REQUIRED|||-NONE-|||0\n\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a d\ng f\n")
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(partial), "--metric",
                                      "gotoscorer", "--gotoscorer-ref", "1", "--extractor",
                                      "native"])
    assert result.exit_code == 0
    assert "1 of 2 sentences list other annotators but not annotator 1" in result.stderr
    assert "no A line" not in result.stderr


def test_sentences_without_any_a_line_are_counted_apart(tmp_path):
    # the 136 CoNLL-2014 sentences without an A line were said to have "no annotator 0"
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n"
                    "A 1 2|||R|||d|||REQUIRED|||-NONE-|||1\n\n"
                    "S e f\nA 0 1|||R|||g|||REQUIRED|||-NONE-|||0\n\n"
                    "S h i\n\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a d\ng f\nh i\n")

    def warnings(ref: str) -> list[str]:
        result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(gold), "--metric",
                                          "gotoscorer", "--gotoscorer-ref", ref, "--extractor",
                                          "native"])
        assert result.exit_code == 0
        return [w for w in result.stderr.splitlines() if str(gold) in w]

    # annotator 0: the sentence without an A line has no edit, as it means: nothing to note
    assert warnings("0") == []
    [note] = warnings("1")
    assert "1 of 3 sentences list other annotators but not annotator 1; GoToScorer scores " \
        "them as if annotator 1 made no edit" in note
    assert note.endswith("; 1 more have no A line at all (no annotator edits them) and are "
                         "scored with no gold edit, which is what they mean")
    gold.write_text("S h i\n\nS j\n\n")
    hyp.write_text("h i\nj\n")
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(gold), "--metric",
                                      "gotoscorer", "--extractor", "native"])
    assert result.exit_code == 1 and "no sentence of the gold has annotator 0" in result.stderr

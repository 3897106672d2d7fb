"""gecformats.metrics.pipeline: one pass over the gold for every system and metric; the
same statistics here, with --jobs and on Dask; errors located by file and line."""

from __future__ import annotations

import pickle

import pytest

from conftest import CONLL14_SYSTEMS, FIXTURES, shared_file
from gecformats.errors import GecFormatError, UsageError
from gecformats.metrics.m2 import M2Metric
from gecformats.metrics.pipeline import evaluate
from gecformats.metrics.score import score_files, score_systems

GOLD = FIXTURES / "score" / "sample.m2"
HYP = FIXTURES / "score" / "sample.hyp"
SYSTEMS = list(CONLL14_SYSTEMS)


def _values(run, m=0):
    return [t.values for t in run.totals[m]]


def test_m2_through_the_pipeline_equals_the_scorer(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("The cat sat at mat .\nHe go to school every days .\n"
                     "This sentence is correct .\nI like the the music .\n")
    run = evaluate([HYP, other], GOLD, [M2Metric()])
    old = score_systems([HYP, other], GOLD)
    assert _values(run) == [(r.precision, r.recall, r.f) for r in old]
    assert run.sentences == 4 and run.names == ["sample.hyp", "other.txt"]
    assert [t.counts["correct"] for t in run.totals[0]] == [r.correct for r in old]


@pytest.mark.parametrize("options", [dict(beta=1.0), dict(mode="detection"),
                                     dict(mode="recognition", bonus=True),
                                     dict(max_unchanged_words=0, ignore_whitespace_casing=True)])
def test_m2_options_as_the_scorer(options):
    run = evaluate([HYP], GOLD, [M2Metric(**options)])
    old = score_files(HYP, GOLD, **options)
    assert _values(run) == [(old.precision, old.recall, old.f)]


def test_per_type_recall_as_the_scorer():
    run = evaluate([HYP], GOLD, [M2Metric(per_type=True)])
    old = score_files(HYP, GOLD, per_type=True)
    assert run.totals[0][0].extra["per_type"].rows() == old.per_type.rows()


def test_statistics_are_picklable():
    run = evaluate([HYP], GOLD, [M2Metric(per_type=True)])
    assert pickle.loads(pickle.dumps(run.stats)) == run.stats


def test_jobs_give_the_same_statistics():
    one = evaluate([HYP, HYP], GOLD, [M2Metric()])
    two = evaluate([HYP, HYP], GOLD, [M2Metric()], jobs=2)
    assert one.stats == two.stats and _values(one) == _values(two)


def test_progress_counts_sentences_systems_and_metrics():
    done: list[int] = []
    evaluate([HYP, HYP], GOLD, [M2Metric(), M2Metric(beta=1.0)], progress=done.append)
    assert sum(done) == 4 * 2 * 2


def test_a_line_count_mismatch_names_the_hypothesis(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("A cat sat on the mat .\n")
    with pytest.raises(GecFormatError) as info:
        evaluate([HYP, short], GOLD, [M2Metric()])
    assert info.value.file == str(short)
    assert "1 hypothesis line for 4 gold sentences" in info.value.message


def test_a_lattice_past_its_bound_names_file_and_line(tmp_path):
    with pytest.raises(GecFormatError) as info:
        evaluate([HYP], GOLD, [M2Metric(max_edges=1)])
    assert info.value.file == str(HYP) and info.value.line == 1
    assert info.value.message.startswith("sentence 1: ")


def test_usage_errors():
    with pytest.raises(UsageError):
        evaluate([], GOLD, [M2Metric()])
    with pytest.raises(UsageError):
        evaluate(["-", "-"], GOLD, [M2Metric()])


def test_m2_hypotheses_are_read_as_m2(tmp_path):
    hyp = tmp_path / "hyp.m2"
    hyp.write_text("S The cat sat at mat .\nA 3 4|||R:PREP|||on|||REQUIRED|||-NONE-|||0\n\n"
                   "S He go to school every days .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                   "S This sentence is correct .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                   "S I like the the music .\nA 3 4|||U:DET||||||REQUIRED|||-NONE-|||0\n\n")
    text = tmp_path / "hyp.txt"
    text.write_text("The cat sat on mat .\nHe go to school every days .\n"
                    "This sentence is correct .\nI like the music .\n")
    as_m2 = evaluate([hyp], GOLD, [M2Metric(per_type=True)])
    as_text = evaluate([text], GOLD, [M2Metric()])
    assert as_m2.m2_hypotheses == [True] and _values(as_m2) == _values(as_text)
    table = as_m2.totals[0][0].extra["per_type"]
    assert table.system_rows() == [("R:PREP", 1, 1, 1.0), ("U:DET", 1, 1, 1.0)]


@pytest.mark.parametrize("edits, words", [
    ("A 2 1|||R|||x", "edit 2 1 is out of range for 4 source tokens"),
    ("A 2 9|||R|||x", "edit 2 9 is out of range"),
    ("A 0 2|||R|||x\nA 1 3|||R|||y", "edit 1 3 overlaps an earlier edit ending at 2")])
def test_an_m2_hypothesis_edit_that_cannot_be_applied_names_the_hypothesis(tmp_path, edits,
                                                                            words):
    """It was a ValueError traceback (the M2 reader keeps the offsets the file gives); the
    overlap is tests/test_inputs.py's fuzz finding too."""
    from gecformats.metrics.cleme import ClemeMetric

    gold, hyp = tmp_path / "gold.m2", tmp_path / "hyp.m2"
    gold.write_text("S a b c d\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\n")
    hyp.write_text("S a b c d\n" + "".join(f"{line}|||REQUIRED|||-NONE-|||0\n"
                                             for line in edits.split("\n")) + "\n")
    for metric in (M2Metric(), ClemeMetric()):
        with pytest.raises(GecFormatError) as info:
            evaluate([hyp], gold, [metric])
        assert (info.value.file, info.value.line) == (str(hyp), 1)
        assert info.value.message.startswith(
            f"sentence 1: annotator 0's edits cannot make a corrected sentence: {words}")


def test_thirteen_conll_systems_as_the_nus_scorer_does():
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    folder = shared_file("corpora/conll14/official_submissions")
    hyps = [folder / s for s in SYSTEMS]
    run = evaluate(hyps, gold, [M2Metric()])
    old = score_systems(hyps, gold)
    assert _values(run) == [(r.precision, r.recall, r.f) for r in old]

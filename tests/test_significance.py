"""gecformats.metrics.significance: resampled greedy choice, intervals, paired tests, CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.metrics import significance as sig
from gecformats.metrics.score import Scoring, score_files, score_systems

GOLD = FIXTURES / "score" / "sample.m2"
HYP = FIXTURES / "score" / "sample.hyp"
CONLL = "corpora/conll14"
COMBINED = f"{CONLL}/conll14st-test-data/noalt/official-2014.combined.m2"

# a credit needs a proposed edit and a gold edit: no C > 0 with P = 0 or G = 0
counts = st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 6)).map(
    lambda t: t if t[1] and t[2] else (0, t[1], t[2]))
sentences = st.lists(st.lists(counts, min_size=1, max_size=3).map(tuple), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(sentences, st.data(), st.sampled_from([0.5, 1.0, 2.0, 0.3]))
def test_weighted_counts_is_the_greedy_choice_on_the_repeated_corpus(sents, data, beta):
    """The fast path (dominated options pruned, single options packed and summed in C)
    equals the plain greedy choice over the corpus that repeats each sentence in order."""
    weights = data.draw(st.lists(st.integers(0, 3), min_size=len(sents), max_size=len(sents)))
    order = [i for i, w in enumerate(weights) for _ in range(w)]
    assert sig.weighted_counts(sig.prepare(sents), beta, weights) == \
        sig.corpus_counts(sents, beta, order)


def test_corpus_counts_are_the_scorers_totals():
    result = score_files(HYP, GOLD, keep_counts=True)
    assert len(result.counts) == result.sentences == 4
    assert sig.corpus_counts(result.counts, 0.5) == (result.correct, result.proposed, result.gold)


def test_counts_are_only_kept_when_asked():
    assert score_files(HYP, GOLD).counts == ()
    with pytest.raises(ValueError, match="keep_counts"):
        sig.resample([score_files(HYP, GOLD)], ci=True)


def test_bootstrap_is_reproducible_and_seeded():
    result = score_files(HYP, GOLD, keep_counts=True)
    one = sig.bootstrap([result.counts], 0.5, resamples=50, seed=1)
    assert one == sig.bootstrap([result.counts], 0.5, resamples=50, seed=1)
    assert one != sig.bootstrap([result.counts], 0.5, resamples=50, seed=2)
    assert len(one[0]) == 50


def test_percentile_interpolates_like_numpy():
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert sig.percentile(values, 0.0) == 1.0
    assert sig.percentile(values, 1.0) == 5.0
    assert sig.percentile(values, 0.5) == 3.0
    assert sig.percentile(values, 0.1) == pytest.approx(1.4)
    assert sig.interval(list(map(float, range(101)))) == pytest.approx((2.5, 97.5))


def test_a_system_against_itself_is_not_significant():
    result = score_files(HYP, GOLD, keep_counts=True)
    for test in sig.TESTS:
        out = sig.resample([result, result], test=test, resamples=30, trials=30)
        assert out[0].p_value is None
        assert out[1].p_value == 1.0


def test_resample_records_the_test_in_the_signature():
    result = score_files(HYP, GOLD, keep_counts=True)
    out = sig.resample([result, result], ci=True, test="paired-ar", resamples=20, trials=40,
                       seed=7)
    assert out[0].signature.resampling == "ci95+paired-ar|resamples:20|trials:40|seed:7"
    assert "|test:ci95+paired-ar|resamples:20|trials:40|seed:7|" in str(out[1].signature)
    lo, hi = out[0].ci["f"]
    assert lo <= hi
    assert out[0].to_dict()["p_value"] is None
    assert out[0].to_dict()["ci"]["f"] == [lo, hi]
    # scores and counts are untouched
    assert (out[1].f, out[1].correct) == (result.f, result.correct)


@pytest.mark.parametrize("kwargs, message", [
    (dict(test="paired-bs"), "two or more"),
    (dict(test="t-test"), "unknown test"),
    (dict(ci=True, resamples=0), "1 or more"),
    (dict(ci=True, level=1.0), "between 0 and 1"),
])
def test_resample_refuses(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sig.resample([score_files(HYP, GOLD, keep_counts=True)], **kwargs)


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["score", *(str(a) for a in args)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_cli_ci_for_one_system():
    code, out, _ = run(HYP, "--gold", GOLD, "--ci", "--resamples", "100", "--seed", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Precision  0.8333  [")
    assert lines[2].startswith("F0.5       0.8621  [")
    assert "|test:ci95|resamples:100|seed:3|" in lines[-1]
    code, out, _ = run(HYP, "--gold", GOLD, "--ci", "--resamples", "100", "--format", "json")
    data = json.loads(out)
    assert set(data["ci"]) == {"precision", "recall", "f"}
    assert "p_value" not in data


def test_cli_paired_tests_in_every_table(tmp_path):
    other = tmp_path / "source.txt"
    other.write_text("The cat sat at mat .\nHe go to school every days .\n"
                     "This sentence is correct .\nI like the the music .\n", encoding="utf-8")
    for flag in ("--paired-bs", "--paired-ar"):
        code, out, _ = run(HYP, other, "--gold", GOLD, flag, "--ci", "--resamples", "50",
                           "--trials", "50")
        assert code == 0, out
        header, base, second = out.splitlines()[:3]
        assert header.split()[-4:] == ["F0.5", "95%", "CI", "p"]
        assert base.endswith("base") and second.split()[-1] != "base"
        data = json.loads(run(HYP, other, "--gold", GOLD, flag, "--format", "json",
                              "--resamples", "50", "--trials", "50")[1])
        assert data[0]["p_value"] is None and 0 < data[1]["p_value"] <= 1
        tsv = run(HYP, other, "--gold", GOLD, flag, "--format", "tsv", "--resamples", "50",
                  "--trials", "50")[1].splitlines()
        assert tsv[0].endswith("\tp_value") and tsv[1].endswith("\t")
        latex = run(HYP, other, "--gold", GOLD, flag, "--format", "latex", "--resamples", "50",
                    "--trials", "50")[1]
        assert "& $p$ \\\\" in latex and "& -- \\\\" in latex


@pytest.mark.parametrize("args, message", [
    (["--paired-bs"], "two or more"),
    (["--paired-ar"], "two or more"),
    (["--paired-bs", "--paired-ar", "X"], "choose one paired test"),
    (["--ci", "--format", "m2scorer"], "no room"),
    (["--ci", "--resamples", "0"], "'--resamples'"),
])
def test_cli_resampling_usage_errors(args, message):
    extra = [HYP] if "X" in args else []
    code, _, err = run(HYP, *extra, "--gold", GOLD, *[a for a in args if a != "X"])
    assert code == 2
    assert message in err


@pytest.mark.shared(COMBINED)
def test_conll14_intervals_and_paired_test():
    """The numbers the README quotes (AMU, CAMB)."""
    gold = shared_file(COMBINED)
    systems = [shared_file(f"{CONLL}/official_submissions/{s}") for s in ("AMU", "CAMB")]
    results = score_systems(systems, gold, keep_counts=True)
    for r in results:  # the replica of the greedy choice gives the scorer's totals
        assert sig.corpus_counts(r.counts, r.beta) == (r.correct, r.proposed, r.gold)
    amu, camb = sig.resample(results, ci=True, test="paired-bs")
    assert amu.ci["f"][0] < amu.f < amu.ci["f"][1]
    assert [round(x, 4) for x in amu.ci["f"]] == [0.3283, 0.3717]
    assert round(camb.p_value, 4) == 0.024


def test_scoring_keeps_counts_per_annotator():
    scoring = Scoring(HYP, GOLD, keep_counts=True)
    for _ in scoring:
        pass
    counts = scoring.result().counts
    assert [len(c) for c in counts] == [2, 2, 2, 2]

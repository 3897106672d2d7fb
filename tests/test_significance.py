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


@settings(max_examples=200, deadline=None)
@given(sentences, st.integers(1, 6), st.integers(0, 2**32), st.sampled_from([0.5, 1.0, 2.0, 0.3]))
def test_bootstrap_is_the_scorers_greedy_choice_on_each_resample(sents, resamples, seed, beta):
    """Every resample's scores are the scorer's P, R, F of the plain greedy choice over the
    corpus that repeats each drawn sentence in order (the vectorised engine against the
    oracle; tests/test_resampling.py checks the engine itself)."""
    from gecformats.metrics.resampling import bootstrap_weights

    weights = bootstrap_weights(len(sents), resamples, seed)
    scores = sig.bootstrap([sents], beta, resamples=resamples, seed=seed)[0]
    for w, got in zip(weights, scores):
        order = [i for i, x in enumerate(w) for _ in range(x)]
        assert got == sig.scores_of(sig.corpus_counts(sents, beta, order), beta)


@settings(max_examples=100, deadline=None)
@given(sentences, st.data(), st.sampled_from([0.5, 1.0, 2.0]))
def test_randomization_p_is_sacrebleus_count_on_the_swapped_systems(sents, data, beta):
    """The p value of the vectorised test, recomputed with the plain greedy choice."""
    from gecformats.metrics.resampling import swaps

    other = data.draw(st.lists(st.lists(counts, min_size=1, max_size=3).map(tuple),
                               min_size=len(sents), max_size=len(sents)))
    trials = data.draw(st.integers(1, 30))
    observed = abs(sig.scores_of(sig.corpus_counts(other, beta), beta)[2]
                   - sig.scores_of(sig.corpus_counts(sents, beta), beta)[2])
    stats = []
    for row in swaps(len(sents), trials, 5):
        x = [b if s else a for a, b, s in zip(sents, other, row)]
        y = [a if s else b for a, b, s in zip(sents, other, row)]
        stats.append(abs(sig.scores_of(sig.corpus_counts(x, beta), beta)[2]
                         - sig.scores_of(sig.corpus_counts(y, beta), beta)[2]))
    expected = (sum(s >= observed for s in stats) + 1) / (trials + 1)
    assert sig.approximate_randomization(sents, other, beta, trials=trials, seed=5) == expected


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
    (dict(ci=True, seed=-1), "seed must be 0 or more"),
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
    (["--ci", "--seed", "-1"], "'--seed'"),
])
def test_cli_resampling_usage_errors(args, message):
    extra = [HYP] if "X" in args else []
    code, _, err = run(HYP, *extra, "--gold", GOLD, *[a for a in args if a != "X"])
    assert code == 2
    assert message in err


@pytest.mark.shared(COMBINED)
def test_conll14_intervals_and_paired_test():
    """The numbers the documentation quotes (AMU, CAMB; docs/reference/significance.md)."""
    gold = shared_file(COMBINED)
    systems = [shared_file(f"{CONLL}/official_submissions/{s}") for s in ("AMU", "CAMB")]
    results = score_systems(systems, gold, keep_counts=True)
    for r in results:  # the replica of the greedy choice gives the scorer's totals
        assert sig.corpus_counts(r.counts, r.beta) == (r.correct, r.proposed, r.gold)
    amu, camb = sig.resample(results, ci=True, test="paired-bs")
    assert amu.ci["f"][0] < amu.f < amu.ci["f"][1]
    assert [round(x, 4) for x in amu.ci["f"]] == [0.3293, 0.3722]
    assert round(camb.p_value, 4) == 0.022


def test_scoring_keeps_counts_per_annotator():
    scoring = Scoring(HYP, GOLD, keep_counts=True)
    for _ in scoring:
        pass
    counts = scoring.result().counts
    assert [len(c) for c in counts] == [2, 2, 2, 2]


# ------------------------------------------- issue 22: p at the floor, P and R intervals in tables

from dataclasses import replace  # noqa: E402

from gecformats.metrics.score import format_p_value, format_systems, p_value_trials  # noqa: E402


@pytest.mark.parametrize("p, trials, decimals, expected", [
    (1 / 1001, 1000, 4, "<0.0010"),      # the docs' 0.0010: the smallest p of 1,000 resamples
    (1 / 1001, 1000, 3, "<0.001"),       # LaTeX's 0.001
    (1 / 10001, 10000, 4, "<0.0001"),    # approximate randomisation's 10,000 trials
    (1 / 1000, 999, 4, "<=0.0010"),      # the bound is exact: p is at most it
    (1 / 51, 50, 4, "<0.0197"),          # rounded up, never down
    (2 / 1001, 1000, 4, "0.0020"),       # one resample beyond: a value
    (0.024, 1000, 4, "0.0240"),
    (1 / 1001, None, 4, "0.0010"),       # no test known: the value
])
def test_format_p_value(p, trials, decimals, expected):
    assert format_p_value(p, trials, decimals) == expected


def with_p(results, p):
    return [results[0]] + [replace(r, p_value=p) for r in results[1:]]


@pytest.fixture
def two_systems(tmp_path):
    other = tmp_path / "source.txt"
    other.write_text("The cat sat at mat .\nHe go to school every days .\n"
                     "This sentence is correct .\nI like the the music .\n", encoding="utf-8")
    return [HYP, other]


@pytest.mark.parametrize("test, flag, count", [("paired-bs", "--resamples", 50),
                                               ("paired-ar", "--trials", 40)])
def test_p_at_the_floor_is_a_bound_in_every_table(two_systems, test, flag, count):
    results = sig.resample(score_systems(two_systems, GOLD, keep_counts=True), test=test,
                           resamples=50, trials=40, seed=1)
    assert p_value_trials(results[1]) == count and p_value_trials(results[0]) == count
    floor = with_p(results, 1 / (count + 1))
    names = ["sample.hyp", "source.txt"]
    bound4 = format_p_value(1 / (count + 1), count)
    assert bound4.startswith("<") and float(bound4[1:]) > 1 / (count + 1)
    text = format_systems(names, floor, "text").splitlines()
    assert text[2].split()[-1] == bound4 and text[1].split()[-1] == "base"
    assert text[0].endswith(" p") and len(text[0]) == len(text[2])  # the column is aligned
    assert format_systems(names, floor, "tsv").splitlines()[2].split("\t")[-1] == bound4
    latex = format_systems(names, floor, "latex")
    assert f"& $<${format_p_value(1 / (count + 1), count, 3)[1:]} \\\\" in latex
    # one resample more than the floor: a value, in every table
    above = with_p(results, 2 / (count + 1))
    assert format_systems(names, above, "text").splitlines()[2].split()[-1] == f"{2 / (count + 1):.4f}"
    assert f"& {2 / (count + 1):.3f} \\\\" in format_systems(names, above, "latex")
    # JSON keeps the number
    assert json.loads(format_systems(names, floor, "json"))[1]["p_value"] == 1 / (count + 1)


@pytest.mark.shared(COMBINED)
def test_conll14_latex_prints_the_smallest_p_as_a_bound():
    """The issue's command: LaTeX printed INPUT's p (1/1001, 1,000 resamples) as 0.001."""
    systems = [shared_file(f"{CONLL}/official_submissions/{s}") for s in ("AMU", "CAMB", "INPUT")]
    code, out, _ = run(*systems, "--gold", shared_file(COMBINED), "--paired-bs", "--format",
                       "latex", "--correction", "none")
    assert code == 0
    rows = [line for line in out.splitlines() if " & " in line]
    assert rows[2].endswith("& 0.022 \\\\") and rows[3].endswith("& $<$0.001 \\\\")
    code, out, _ = run(*systems, "--gold", shared_file(COMBINED), "--paired-bs", "--correction",
                       "none")
    assert [line.split()[-1] for line in out.splitlines()[1:4]] == ["base", "0.0220", "<0.0010"]
    # Holm by default with three systems: INPUT's p doubled (two comparisons), CAMB's kept;
    # the doubled floor is a bound still (issue 34 item 8)
    code, out, _ = run(*systems, "--gold", shared_file(COMBINED), "--paired-bs")
    assert [line.split()[-1] for line in out.splitlines()[1:4]] == ["base", "0.0220", "<=0.0020"]
    assert "|correction:holm" in out


@pytest.mark.parametrize("fmt", ["text", "tsv", "latex"])
def test_ci_of_p_r_and_f_in_every_table(two_systems, fmt):
    """`--ci` intervals of P and R were in JSON only; each table now has all three."""
    args = [*two_systems, "--gold", GOLD, "--ci", "--resamples", "50", "--seed", "2"]
    data = json.loads(run(*args, "--format", "json")[1])
    code, out, _ = run(*args, "--format", fmt)
    assert code == 0
    lines = out.splitlines()
    for k, row in enumerate(data):
        ci = row["ci"]
        if fmt == "text":
            assert lines[0].split()[7:] == ["P", "95%", "CI", "R", "95%", "CI", "F0.5", "95%", "CI"]
            shown = [f"[{lo:.4f}, {hi:.4f}]" for lo, hi in (ci["precision"], ci["recall"], ci["f"])]
            assert "  ".join(shown) in lines[k + 1]
        elif fmt == "tsv":
            header = lines[0].split("\t")
            assert header[7:] == ["precision_low", "precision_high", "recall_low", "recall_high",
                                  "F0.5_low", "F0.5_high"]
            cells = lines[k + 1].split("\t")[7:]
            assert cells == [f"{x:.4f}" for m in ("precision", "recall", "f") for x in ci[m]]
        else:
            assert "System & P & R & $F_{0.5}$ & P 95\\% CI & R 95\\% CI & $F_{0.5}$ 95\\% CI \\\\" in out
            assert "\\begin{tabular}{lrrrccc}" in out
            shown = " & ".join(f"[{100 * lo:.2f}, {100 * hi:.2f}]"
                               for lo, hi in (ci["precision"], ci["recall"], ci["f"]))
            assert f" & {shown} \\\\" in lines[4 + k]


@pytest.mark.shared(COMBINED)
def test_conll14_bootstrap_is_one_sided_and_randomisation_two_sided():
    """What the documentation says of the two p values of CAMB against AMU (0.022 and 0.045):
    sacrebleu's bootstrap counts one tail, randomisation both; both tails of the same
    bootstrap give randomisation's value."""
    systems = [shared_file(f"{CONLL}/official_submissions/{s}") for s in ("AMU", "CAMB")]
    amu, camb = score_systems(systems, shared_file(COMBINED), keep_counts=True)
    base, other = sig.bootstrap([amu.counts, camb.counts], amu.beta)
    observed = camb.f - amu.f
    signed = [s[2] - b[2] for s, b in zip(other, base)]
    mean = sum(signed) / len(signed)
    assert min(signed) < 0 < observed and sum(d < 0 for d in signed) == 24
    bs = sig.paired_bootstrap_p(base, other, observed)
    one_tail = (sum(d - mean >= observed for d in signed) + 1) / (len(signed) + 1)
    two_tails = (sum(abs(d - mean) >= observed for d in signed) + 1) / (len(signed) + 1)
    assert round(bs, 3) == 0.022 and abs(one_tail - bs) < 0.005
    assert round(two_tails, 3) == 0.047
    ar = sig.approximate_randomization(amu.counts, camb.counts, amu.beta, trials=2000)
    assert abs(ar - two_tails) < 0.025 and 1.5 < ar / bs < 2.6  # 0.045 with 10,000 trials

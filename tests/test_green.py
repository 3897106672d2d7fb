from __future__ import annotations

import csv
import json
import random
from functools import lru_cache

import pytest
from typer.testing import CliRunner

from conftest import CONLL14_SYSTEMS, shared_file
from gecformats.cli import app
from gecformats.metrics.base import Hypothesis
from gecformats.metrics.green import GreenMetric, aggregate, best, counts, ngrams
from gecformats.metrics.request import build_metrics

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("green")


def hyp(line: str) -> Hypothesis:
    return Hypothesis(tuple(line.split()), line)


def score(metric: GreenMetric, source: str, refs: list[str], line: str):
    return metric.sentence(metric.prepare_texts(source, refs), hyp(line))


# ------------------------------------------------------------------ hand-written cases

def test_counts_by_hand():
    # source "a b", reference "a c" (b → c), hypothesis "a b" (left alone)
    s, h, r = (ngrams(t, 2) for t in ("a b", "a b", "a c"))
    # unigrams: a kept (TP), b under-deleted (FN), c under-inserted (FN)
    # bigrams: "a b" under-deleted (FN), "a c" under-inserted (FN)
    assert counts(s, h, r, 2) == (1, 0, 2, 0, 0, 2)
    # a hypothesis that makes the reference's change: all TP
    assert counts(s, ngrams("a c", 2), r, 2) == (3, 0, 0, 2, 0, 0)
    # an over-insertion and an over-deletion
    s1 = ngrams("a b", 1)
    assert counts(s1, ngrams("a b d", 1), ngrams("a b", 1), 1) == (2, 1, 0)
    assert counts(s1, ngrams("a", 1), ngrams("a b", 1), 1) == (1, 1, 0)


def test_precision_and_recall_are_one_without_errors():
    # no FP and no FN at every order: P = R = 1 even with TP = 0 (a sentence shorter than n)
    assert aggregate((0, 0, 0) * 4, 2.0) == (1.0, 1.0, 1.0)
    # one order with P = 0 makes the geometric mean 0
    p, r, f = aggregate((1, 0, 0, 0, 1, 0), 2.0)
    assert (p, r, f) == (0.0, 1.0, 0.0)


def test_beta_two_is_the_default_and_weighs_recall():
    stats = (1, 0, 1)  # P = 1, R = 0.5
    assert GreenMetric().beta == 2.0
    assert aggregate(stats, 2.0)[2] == pytest.approx(5 * 0.5 / (4 + 0.5))
    assert aggregate(stats, 0.5)[2] == pytest.approx(1.25 * 0.5 / (0.25 + 0.5))


def test_ties_keep_the_first_reference_and_strictly_better_wins():
    assert best([(1, 0, 0), (1, 0, 0)], 2.0) == 0
    assert best([(0, 0, 1), (1, 0, 0)], 2.0) == 1
    m = GreenMetric()
    stats = score(m, "He go .", ["He goes .", "He went ."], "He went .")
    assert m.corpus([stats], choices=True).choices == (1,)
    assert m.sentence_fields(stats, 1) == {"ref": 1, "green": 1.0}


def test_word_units_split_on_single_spaces_and_empty_lines_have_no_ngrams():
    assert ngrams("a  b", 1) == {("a",): 1, ("",): 1, ("b",): 1}
    assert ngrams("", 4) == {}
    assert ngrams("ab", 2, "char") == {("a",): 1, ("b",): 1, ("a", "b"): 1}
    m = GreenMetric()
    # the hypothesis line is stripped first (trailing space, CRLF), as read_lines does
    assert score(m, "a b", ["a c"], " a c \r") == score(m, "a b", ["a c"], "a c")


def test_corpus_sums_the_chosen_counts_and_weights_repeat_sentences():
    m = GreenMetric(order=2)
    a = score(m, "a b", ["a c"], "a b")
    b = score(m, "x y", ["x y"], "x y")
    totals = m.corpus([a, b])
    assert [totals.counts[k] for k in ("tp1", "fp1", "fn1", "tp2", "fp2", "fn2")] == [3, 0, 2, 1, 0, 2]
    twice = m.corpus([a, b], [2, 0])
    assert twice.counts["fn1"] == 4 and twice.counts["tp1"] == 2


def test_resampler_equals_the_corpus_step():
    rng = random.Random(1)
    m = GreenMetric()
    words = "the a cat dog sat on mat".split()
    stats = []
    for _ in range(30):
        src = " ".join(rng.choices(words, k=rng.randint(0, 8)))
        refs = [" ".join(rng.choices(words, k=rng.randint(1, 8))) for _ in range(2)]
        stats.append(score(m, src, refs, " ".join(rng.choices(words, k=rng.randint(0, 8)))))
    weights = [[rng.randint(0, 3) for _ in stats] for _ in range(20)]
    assert m.resampler(stats).scores(weights) == [m.corpus(stats, w).values for w in weights]


def test_options_and_refusals():
    metric = build_metrics(["green"], {"green-beta": 0.5, "green-unit": "char"},
                           {"green-beta", "green-unit"})[0]
    assert (metric.beta, metric.unit, metric.order) == (0.5, "char", 4)
    assert metric.signature().startswith("metric:green|code:320c830|unit:char|n:4|beta:0.5|")
    with pytest.raises(ValueError, match="unit"):
        GreenMetric(unit="byte")
    with pytest.raises(ValueError, match="order"):
        GreenMetric(order=0)


def test_cli_scores_a_gold_with_intervals():
    result = CliRunner().invoke(app, ["score", "fixtures/score/sample.hyp", "--gold",
                                      "fixtures/score/sample.m2", "--metric", "green", "--ci",
                                      "--resamples", "30", "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    green = json.loads(result.stdout)["sample.hyp"]["green"]
    assert 0 <= green["f"] <= 1 and "ci" in json.dumps(green)


# ------------------------------------------------------------------ the original's outputs

CONLL = "corpora/conll14"
ORACLE = "reference/metrics/green"
SYSTEMS = list(CONLL14_SYSTEMS)
CONFIGS = {"word_n4_beta2.0 (default)": {}, "word_n4_beta0.5": {"beta": 0.5},
           "char_n4_beta2.0": {"unit": "char"}}


def _lines(path) -> list[str]:
    """As gec-metrics' read_lines: the file right-stripped, split on newlines, each stripped."""
    return [s.strip() for s in open(path, encoding="utf-8").read().rstrip().split("\n")]


def _stats(config: str, system: str) -> tuple:
    """The sentence statistics of ``system`` under ``config`` (β does not enter them, so
    the configurations of one unit share them)."""
    return _unit_stats(CONFIGS[config].get("unit", "word"), system)


@lru_cache(maxsize=None)
def _prepared(unit: str) -> tuple:
    m = GreenMetric(unit=unit)
    source = _lines(shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src"))
    refs = [_lines(shared_file(f"{CONLL}/gecmetrics/refs/conll14st-test.tok.trg{k}")) for k in (0, 1)]
    return tuple(m.prepare_texts(s, rs) for s, rs in zip(source, zip(*refs)))


@lru_cache(maxsize=None)
def _unit_stats(unit: str, system: str) -> tuple:
    m = GreenMetric(unit=unit)
    hyps = _lines(shared_file(f"{CONLL}/official_submissions/{system}"))
    return tuple(m.sentence(p, hyp(h)) for p, h in zip(_prepared(unit), hyps))


def _oracle_corpus() -> list[dict[str, str]]:
    with open(shared_file(f"{ORACLE}/corpus.tsv"), encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.mark.parametrize("config", list(CONFIGS))
def test_corpus_scores_of_13_systems_equal_gec_metrics(config):
    rows = [r for r in _oracle_corpus() if r["config"] == config]
    assert sorted(r["system"] for r in rows) == sorted(SYSTEMS)
    m = GreenMetric(**CONFIGS[config])
    for row in rows:
        stats = _stats(config, row["system"])
        assert repr(m.corpus(stats).values[2]) == row["corpus"], row["system"]
        mean = sum(m.sentence_fields(s, best(s, m.beta))["green"] for s in stats) / len(stats)
        assert repr(mean) == row["mean_of_sentence_scores"], row["system"]


@pytest.mark.parametrize("system", ["AMU", "CAMB", "CUUI"])
def test_sentence_scores_equal_gec_metrics(system):
    with open(shared_file(f"{ORACLE}/per_sentence/{system}.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for config, kw in CONFIGS.items():
        m = GreenMetric(**kw)
        mine = [repr(m.sentence_fields(s, best(s, m.beta))["green"]) for s in _stats(config, system)]
        assert mine == [r[config] for r in rows], config


def test_cli_with_text_references_equals_gec_metrics_and_gives_intervals():
    source = shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src")
    refs = [shared_file(f"{CONLL}/gecmetrics/refs/conll14st-test.tok.trg{k}") for k in (0, 1)]
    systems = [shared_file(f"{CONLL}/official_submissions/{s}") for s in ("AMU", "IITB")]
    result = CliRunner().invoke(app, ["score", *map(str, systems), "--source", str(source),
                                      "--ref", str(refs[0]), "--ref", str(refs[1]), "--metric",
                                      "green", "--ci", "--resamples", "100", "--format", "json",
                                      "-q"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    expected = {r["system"]: r["corpus"] for r in _oracle_corpus()
                if r["config"] == "word_n4_beta2.0 (default)"}
    for name in ("AMU", "IITB"):
        assert repr(out[name]["green"]["f"]) == expected[name]

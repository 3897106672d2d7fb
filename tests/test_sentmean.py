"""gecformats.metrics.sentmean: SentM2 and SentERRANT, the mean of per-sentence F as PT-M2.

Hand-written cases pin the per-sentence annotator choice, the empty-sentence conventions
and PT-M2's way of crediting ERRANT keys; ../shared/reference/metrics holds PT-M2's own
numbers on the CoNLL-2014 systems (corpus for 13, per sentence for AMU, CAMB, CUUI), which
the pipeline must give to the last digit.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from conftest import shared_file
from gecformats.metrics.base import Hypothesis
from gecformats.metrics.pipeline import evaluate
from gecformats.metrics.request import build_metrics
from gecformats.metrics.sentmean import (SentErrantMetric, SentM2Metric, _credited, choose, mean,
                                         sentence_values)
from gecformats.model import Edit, Sentence

SYSTEMS = ("AMU CAMB CUUI IITB INPUT IPN NTHU PKU POST RAC SJTU UFC UMC").split()
REFERENCE = "reference/metrics"
GOLD_M2 = "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"
SUBMISSIONS = "corpora/conll14/official_submissions"
ERRANT = "reference/errant"


def hyp(text: str) -> Hypothesis:
    return Hypothesis(tuple(text.split()), text)


# ------------------------------------------------------------------ the choice rule


@pytest.mark.parametrize("candidates, chosen", [
    ([(0, 0, 1), (0, 0, 0)], 1),          # an empty annotator fits an unchanged sentence: F = 1
    ([(1, 1, 1), (1, 1, 1)], 0),          # a full tie keeps the first
    ([(0, 1, 0), (0, 1, 1)], 0),          # F 0 both: same correct, fewer proposed + β²·gold
    ([(1, 2, 2), (1, 2, 2), (2, 4, 4)], 2),  # same F, more correct
    ([(0, 2, 0), (0, 0, 3)], 1),          # F 0 both (P 0 / R 0): cost 0.75 < 2
    ([], -1),
])
def test_the_choice_is_the_sentence_alone(candidates, chosen):
    assert choose(candidates, 0.5) == chosen


def test_the_empty_conventions():
    assert sentence_values([(0, 0, 0)], 0.5) == (0, (1.0, 1.0, 1.0))
    assert sentence_values([(0, 0, 2)], 0.5) == (0, (1.0, 0.0, 0.0))
    assert sentence_values([(0, 3, 0)], 0.5) == (0, (0.0, 1.0, 0.0))
    assert sentence_values([], 0.5) == (-1, (1.0, 1.0, 1.0))


def test_the_mean_with_weights_is_the_expanded_mean():
    rows = [(1.0, 0.5, 0.25), (0.0, 1.0, 0.5), (0.5, 0.5, 1.0)]
    assert mean(rows, [2, 0, 1]) == mean([rows[0], rows[0], rows[2]])
    assert mean(rows, [1, 1, 1]) == mean(rows)
    assert mean([], None) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="negative"):
        mean(rows, [1, -1, 1])


# ------------------------------------------------------------------ SentM2


GOLD = [Sentence(("a", "cat", "sat"), {0: (Edit(0, 1, (("the",),), "Det"),), 1: ()}),
        Sentence(("he", "go", "home"), {0: (Edit(1, 2, (("goes",),), "SVA"),)})]


def test_sentm2_is_the_mean_of_each_sentences_best():
    metric = SentM2Metric()
    prepared = [metric.prepare(g) for g in GOLD]
    stats = [metric.sentence(prepared[0], hyp("the cat sat")),
             metric.sentence(prepared[1], hyp("he go home"))]
    totals = metric.corpus(stats, choices=True)
    # sentence 1: annotator 0 credits the edit (F 1); sentence 2: no edit, R 0 → F 0
    assert totals.values == (1.0, 0.5, 0.5) and totals.choices == (0, 0)
    assert totals.counts == {"sentences": 2, "correct": 1, "proposed": 1, "gold": 2}
    assert metric.sentence_fields(stats[1], 0) == {"annotator": 0, "correct": 0, "proposed": 0,
                                                   "gold": 1, "p": 1.0, "r": 0.0, "f": 0.0}
    assert metric.corpus(stats, [0, 3]).values == (1.0, 0.0, 0.0)
    assert metric.resampler(stats).scores([[0, 3], [1, 1]]) == [metric.corpus(stats, [0, 3]).values,
                                                                 totals.values]
    xs, ys = metric.swapper(stats, stats[::-1]).scores([[1, 0]])
    assert xs == [metric.corpus([stats[1], stats[1]]).values]
    assert ys == [metric.corpus([stats[0], stats[0]]).values]
    assert pickle.loads(pickle.dumps(stats)) == stats


def test_sentm2_differs_from_m2_choice():
    """M2 chooses against the running totals, SentM2 by the sentence alone."""
    metric = SentM2Metric()
    stats = [metric.sentence(metric.prepare(GOLD[0]), hyp("a cat sat"))]
    assert metric.corpus(stats, choices=True).choices == (1,)


def test_sentm2_options_and_signature():
    metric = build_metrics(["sentm2"], {"beta": 1.0}, {"beta"})[0]
    assert metric.beta == 1.0 and metric.signature().startswith("metric:sentm2|")
    assert "|beta:1|" in metric.signature()
    # --mode and --bonus apply to SentM2 as to M2 (issue 34: the same option in one table);
    # --per-type is M2's corpus view, which SentM2 declines (a warning names it)
    assert {"mode", "bonus"} <= SentM2Metric.options and "per-type" not in SentM2Metric.options
    assert "per-type" in SentM2Metric.declines
    metric = build_metrics(["sentm2"], {"mode": "detection"}, {"mode"})[0]
    assert metric.mode == "detection" and "|mode:detection|" in metric.signature()


# ------------------------------------------------------------------ SentERRANT


def test_credit_walks_from_the_last_credited_key():
    a, b, c = (0, 1, "x"), (2, 3, "y"), (4, 5, "z")
    assert _credited([a, b, c], [a, b, c]) == 3
    assert _credited([c, a], [a, c]) == 1  # out of order: a is looked for after c
    assert _credited([], [a]) == 0


def errant_sentence(source: str, edits: dict[int, tuple[Edit, ...]]) -> Sentence:
    return Sentence(tuple(source.split()), edits)


def test_senterrant_counts_keys_as_ptm2():
    gold = errant_sentence("a cat sat on mat", {
        0: (Edit(0, 1, (("the",),), "R:DET"), Edit(4, 4, (("the",),), "M:DET")),
        1: (Edit(3, 5, (("on", "the", "mat"),), "UNK"),)})  # UNK dropped: annotator 1 is empty
    system = errant_sentence("a cat sat on mat", {0: (Edit(0, 1, (("the",),), "R:DET"),)})
    metric = SentErrantMetric()
    stats = metric.sentence(metric.prepare(gold), Hypothesis((), "", system))
    assert metric._candidates(stats) == [(1, 1, 2), (0, 1, 0)]
    totals = metric.corpus([stats], choices=True)
    assert totals.choices == (0,) and totals.values == pytest.approx((1.0, 0.5, 0.8333333))
    assert metric.sentence_fields(stats, 0)["ref_annotator"] == 0
    assert totals.extra["signature"].startswith("metric:senterrant|mode:cs|beta:0.5|hyp:m2|")
    empty = errant_sentence("a cat sat on mat", {})
    stats = metric.sentence(metric.prepare(empty), Hypothesis((), "", empty))
    assert metric.corpus([stats]).values == (1.0, 1.0, 1.0)


def test_senterrant_takes_errant_modes_and_filters_not_categories():
    assert SentErrantMetric.options == frozenset({"beta", "errant-mode", "single", "multi",
                                                  "filter", "extractor", "spacy-model"})
    assert "cat" in SentErrantMetric.declines
    metric = build_metrics(["senterrant"], {"errant-mode": "ds"}, {"errant-mode"})[0]
    assert metric.mode == "ds" and metric.signature().startswith("metric:senterrant|mode:ds|")


# ------------------------------------------------------------------ PT-M2's numbers


def oracle_corpus(metric: str) -> dict[str, float]:
    rows = shared_file(f"{REFERENCE}/{metric}/corpus.tsv").read_text().splitlines()[1:]
    return {r.split("\t")[0]: float(r.split("\t")[1]) for r in rows}


def oracle_sentences(metric: str, system: str) -> list[tuple[float, float, float]]:
    rows = shared_file(f"{REFERENCE}/{metric}/per_sentence/{system}.tsv").read_text().splitlines()
    assert rows[0].split("\t") == ["sent", "p", "r", "f"]
    return [tuple(map(float, r.split("\t")[1:])) for r in rows[1:]]


def check(run, metric: str) -> None:
    expected = oracle_corpus(metric)
    assert run.names == list(SYSTEMS)
    for s, name in enumerate(run.names):
        assert run.totals[0][s].values[2] == expected[name], name
        if name in ("AMU", "CAMB", "CUUI"):
            m = run.metrics[0]
            got = [v for _, v in m._values(run.stats[0][s])]
            assert got == oracle_sentences(metric, name), name


@pytest.mark.shared(GOLD_M2)
@pytest.mark.shared(SUBMISSIONS)
@pytest.mark.shared(f"{REFERENCE}/sentm2")
def test_sentm2_is_ptm2_on_the_conll14_systems():
    paths = [shared_file(f"{SUBMISSIONS}/{s}") for s in SYSTEMS]
    check(evaluate(paths, shared_file(GOLD_M2), [SentM2Metric()]), "sentm2")


@pytest.mark.shared(ERRANT)
@pytest.mark.shared(f"{REFERENCE}/senterrant")
def test_senterrant_is_ptm2_on_the_conll14_systems():
    paths = [shared_file(f"{ERRANT}/hyp/{s}.m2") for s in SYSTEMS]
    check(evaluate(paths, shared_file(f"{ERRANT}/ref.m2"), [SentErrantMetric()]), "senterrant")


@pytest.mark.shared(GOLD_M2)
@pytest.mark.shared(SUBMISSIONS)
def test_cli_with_ci_paired_test_and_per_sentence(tmp_path: Path):
    from typer.testing import CliRunner

    from gecformats.cli import app

    out = tmp_path / "sent.tsv"
    paths = [str(shared_file(f"{SUBMISSIONS}/{s}")) for s in ("AMU", "CAMB")]
    result = CliRunner().invoke(app, ["score", *paths, "--gold", str(shared_file(GOLD_M2)),
                                      "--metric", "sentm2", "--metric", "m2", "--ci",
                                      "--resamples", "30", "--paired-bs",
                                      "--per-sentence", str(out)])
    assert result.exit_code == 0, result.output
    assert "SentM2" in result.output and "0.3836" in result.output and "0.3581" in result.output
    assert "metric:sentm2|" in result.output
    lines = out.read_text().splitlines()
    assert "p=1.0 r=1.0 f=1.0" in lines[1]


def random_stats(rng, n: int) -> list:
    from gecformats.metrics.m2 import M2Stats

    out = []
    for _ in range(n):
        k = rng.randint(1, 3)
        counts = []
        for _ in range(k):
            p, g = rng.randint(0, 4), rng.randint(0, 4)
            counts.append((rng.randint(0, min(p, g)), p, g))
        out.append(M2Stats(tuple(counts), tuple(range(k)), False))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_resampler_and_swapper_are_the_corpus_step_bit_for_bit(seed):
    import random

    from gecformats.metrics.resampling import bootstrap_weights, swaps

    rng = random.Random(seed)
    metric = SentM2Metric(beta=rng.choice([0.5, 1.0, 2.0]))
    a, b = random_stats(rng, 57), random_stats(rng, 57)
    weights = bootstrap_weights(57, 40, seed)
    weights[0, :] = 0  # an empty resample
    assert metric.resampler(a).scores(weights) == [metric.corpus(a, list(w)).values
                                                   for w in weights]
    rows = swaps(57, 30, seed)
    xs, ys = metric.swapper(a, b).scores(rows)
    assert xs == [metric.corpus([bi if s else ai for ai, bi, s in zip(a, b, r)]).values
                  for r in rows]
    assert ys == [metric.corpus([ai if s else bi for ai, bi, s in zip(a, b, r)]).values
                  for r in rows]

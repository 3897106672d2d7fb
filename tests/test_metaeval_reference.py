"""The meta-evaluation reproduces ../shared/reference/meta-eval (the numbers of SEEDA's and
gec-metrics' own code) to 1e-6: the length pseudo-metric, M2 (subset and full) and SentM2,
system level on SEEDA and GJG15, and the sentence level's pair counts."""

from __future__ import annotations

import csv
from typing import Any

import pytest

from conftest import shared_file
from gecformats.metaeval.run import MetaEvalRequest, MetaEvalResult, run_meta_eval

NAMES = {"length_chars": "length", "M2_F0.5": "m2", "SentM2": "sentm2"}


def _reference(name: str) -> list[dict[str, str]]:
    path = shared_file(f"reference/meta-eval/{name}")
    with open(path, encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _expected(dataset: str, full: bool) -> dict[tuple[str, str, str], tuple[float, float]]:
    """(metric, config, human) → (pearson, spearman) of the reference rows our run makes."""
    out = {}
    for row in _reference("system_level.tsv"):
        how = row["metric_scores"]
        if row["dataset"] != dataset or row["metric"] not in NAMES or "PAPER" in how:
            continue
        if "gecmetrics" in how or "gjg15/metrics" in how:  # score files given, not computed
            continue
        if dataset == "SEEDA" and ("subset" not in how) != full:
            continue
        config = "all" if row["config"] == "13 entries" else row["config"]
        out[(NAMES[row["metric"]], config, row["human"])] = (float(row["pearson"]),
                                                             float(row["spearman"]))
    return out


def _run(dataset: str, full: bool = False, level: str = "system") -> MetaEvalResult:
    folder = "seeda" if dataset == "seeda" else "gjg15"
    data = shared_file(f"corpora/{folder}")
    shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    metrics = ["m2", "sentm2"] if full else ["length", "m2", "sentm2"]
    if level == "sentence":
        metrics = ["length"]
    return run_meta_eval(MetaEvalRequest(dataset, str(data), metrics, level=level, full=full,
                                         resamples=0))


@pytest.mark.parametrize("dataset, full", [("seeda", False), ("seeda", True), ("gjg15", False)])
def test_system_level_reproduces_the_reference(dataset: str, full: bool) -> None:
    expected = _expected("SEEDA" if dataset == "seeda" else "GJG15", full)
    result = _run(dataset, full)
    got = {(r.metric, r.config, r.human): (r.values["pearson"], r.values["spearman"])
           for r in result.system}
    assert expected and set(expected) <= set(got)
    for key, (r, rho) in expected.items():
        assert got[key][0] == pytest.approx(r, abs=1e-6), key
        assert got[key][1] == pytest.approx(rho, abs=1e-6), key


@pytest.mark.parametrize("dataset", ["seeda", "gjg15"])
def test_sentence_level_reproduces_the_reference(dataset: str) -> None:
    pytest.importorskip("gecformats.metaeval.sentence")
    rows = [r for r in _reference("sentence_level.tsv") if r["dataset"].lower() == dataset]
    by_key: dict[tuple[str, str], Any] = {}
    for ties in ("loss", "skip", "neutral"):
        result = run_meta_eval(MetaEvalRequest(
            dataset, str(shared_file(f"corpora/{dataset}")), ["length"], level="sentence",
            resamples=0, ties=ties))
        for row in result.sentence:
            by_key[(row.config, row.judgments, ties)] = row
    assert rows
    for ref in rows:
        config = "all" if dataset == "gjg15" else ref["config"]
        for ties in ("loss", "skip", "neutral"):
            row = by_key[(config, ref["judgments"], ties)]
            c = row.counts
            assert (c.n, c.concordant, c.discordant, c.ties_first, c.ties_second) == (
                int(ref["n_pairs"]), int(ref["concordant"]), int(ref["discordant"]),
                int(ref["ties_human_prefers_first"]), int(ref["ties_human_prefers_second"]))
            assert row.accuracy == pytest.approx(float(ref[f"acc_tie_{ties}"]), abs=1e-12)
            assert row.tau == pytest.approx(float(ref[f"tau_tie_{ties}"]), abs=1e-12)


def test_napoles2015_equals_correlate_with_the_fixture_ranking() -> None:
    from conftest import FIXTURES
    from gecformats.metrics.correlate import correlate, read_scores

    data = shared_file("corpora/gec-ranking")
    shared_file("corpora/conll14/official_submissions")
    result = run_meta_eval(MetaEvalRequest("napoles2015", str(data), ["length"], resamples=0))
    human = read_scores(str(FIXTURES / "gleu" / "human-napoles2015.tsv"))
    scores = result.scored[0].scores
    for row in result.system:
        exclude = ["INPUT"] if row.config == "-INPUT" else []
        expected = correlate(scores, human, exclude=exclude)
        assert (row.values["pearson"], row.values["spearman"], row.values["kendall"]) == (
            expected.pearson, expected.spearman, expected.kendall)


def test_paper_variant_lm_critic_scored_on_pie_output() -> None:
    """The trap of SEEDA's subset LM-Critic file (a copy of PIE's before December 2024):
    scoring LM-Critic on PIE's output gives the reference's PAPER-REPRODUCTION rows."""
    from gecformats.metaeval.datasets import load

    expected = {(row["config"], row["human"]): (float(row["pearson"]), float(row["spearman"]))
                for row in _reference("system_level.tsv") if "PAPER" in row["metric_scores"]}
    shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    dataset = load("seeda", str(shared_file("corpora/seeda")))
    dataset.outputs["LM-Critic"] = dataset.outputs["PIE"]
    result = run_meta_eval(MetaEvalRequest("seeda", "", ["m2"], resamples=0), dataset=dataset)
    got = {(r.config, r.human): (r.values["pearson"], r.values["spearman"])
           for r in result.system}
    assert len(expected) == 16
    for key, (r, rho) in expected.items():
        assert got[key] == pytest.approx((r, rho), abs=1e-6), key
    assert got[("base", "TS_edit")] == pytest.approx((0.7912, 0.7636), abs=5e-5)

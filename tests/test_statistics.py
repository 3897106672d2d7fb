"""gecformats.metrics.statistics and render: intervals and paired tests for every metric,
deterministic for a seed, p = 1 for a system against itself, the bootstrap equal to the
metric recomputed on each resampled corpus; the table in every format."""

from __future__ import annotations

import csv
import io
import json

import pytest

from conftest import FIXTURES
from gecformats.formats import m2
from gecformats.metrics import statistics
from gecformats.metrics.errant import ErrantMetric
from gecformats.metrics.gleu import GleuMetric
from gecformats.metrics.imeasure import IMeasureMetric
from gecformats.metrics.m2 import M2Metric
from gecformats.metrics.pipeline import evaluate
from gecformats.metrics.render import Table
from gecformats.metrics.score import score_files
from gecformats.metrics.statistics import Resampling, holm

GOLD = FIXTURES / "score" / "sample.m2"
HYP = FIXTURES / "score" / "sample.hyp"
OTHER = ["The cat sat on mat .", "He goes to school every days .", "This sentence is correct .",
         "I like the music ."]


def _metrics():
    return [M2Metric(), ErrantMetric(), GleuMetric(), IMeasureMetric()]


@pytest.fixture()
def systems(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("\n".join(OTHER) + "\n", encoding="utf-8")
    return [HYP, other, HYP]


def _resample(run, settings):
    return [statistics.resample(m, run.stats[k], [t.values for t in run.totals[k]], settings)
            for k, m in enumerate(run.metrics)]


@pytest.mark.parametrize("test", ["paired-bs", "paired-ar"])
def test_every_metric_is_deterministic_and_a_system_against_itself_gets_1(systems, test):
    run = evaluate(systems, GOLD, _metrics())
    settings = Resampling(ci=True, test=test, resamples=200, trials=200, seed=3,
                          correction="none")
    first, again = _resample(run, settings), _resample(run, settings)
    assert first == again
    for per_metric in first:
        assert per_metric[0].p_value is None and per_metric[2].p_value == 1.0
        for sig in per_metric:
            assert all(lo <= hi for lo, hi in sig.ci.values())
    other = _resample(run, Resampling(ci=True, test=test, resamples=200, trials=200, seed=4,
                                      correction="none"))
    assert other != first


def test_the_m2_bootstrap_is_the_scorer_on_each_resampled_corpus(tmp_path):
    from gecformats.metrics.resampling import bootstrap_weights

    run = evaluate([HYP], GOLD, [M2Metric()])
    weights = bootstrap_weights(4, 6, 11)
    fast = M2Metric().resampler(run.stats[0][0]).scores(weights)
    sentences = list(m2.read(GOLD))
    lines = HYP.read_text(encoding="utf-8").splitlines()
    for row, values in zip(weights.tolist(), fast):
        gold, hyp = tmp_path / "g.m2", tmp_path / "h.txt"
        with open(gold, "w", encoding="utf-8") as fh:
            m2.write([s for s, w in zip(sentences, row) for _ in range(w)], fh)
        hyp.write_text("".join(f"{x}\n" for x, w in zip(lines, row) for _ in range(w)),
                       encoding="utf-8")
        old = score_files(hyp, gold)
        assert tuple(values) == (old.precision, old.recall, old.f)


def test_every_resampler_and_swapper_equals_the_corpus_step(systems):
    run = evaluate(systems, GOLD, _metrics())
    rows = [[1, 0, 2, 1], [0, 0, 0, 4], [2, 2, 0, 0]]
    swaps = [[0, 1, 0, 1], [1, 1, 1, 1]]
    for k, metric in enumerate(run.metrics):
        a, b = run.stats[k][0], run.stats[k][1]
        fast = [tuple(map(float, v)) for v in metric.resampler(a).scores(rows)]
        assert fast == [metric.corpus(a, r).values for r in rows], metric.name
        xs, ys = metric.swapper(a, b).scores(swaps)
        for row, x, y in zip(swaps, xs, ys):
            xa = [bi if s else ai for ai, bi, s in zip(a, b, row)]
            ya = [ai if s else bi for ai, bi, s in zip(a, b, row)]
            assert tuple(map(float, x)) == metric.corpus(xa).values, metric.name
            assert tuple(map(float, y)) == metric.corpus(ya).values, metric.name


def test_holm():
    assert holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []
    assert Resampling(test="paired-bs").corrected(3) == "holm"
    assert Resampling(test="paired-bs").corrected(2) == "none"
    assert Resampling(test="paired-bs", correction="none").corrected(5) == "none"


@pytest.mark.parametrize("kwargs", [dict(test="x"), dict(correction="bonferroni"),
                                    dict(level=1.0), dict(resamples=0)])
def test_bad_settings(kwargs):
    with pytest.raises(ValueError):
        Resampling(**kwargs)


@pytest.mark.parametrize("fmt", ["text", "json", "tsv", "csv", "latex"])
def test_the_table_of_several_metrics(systems, fmt):
    run = evaluate(systems, GOLD, [M2Metric(), GleuMetric()])
    settings = Resampling(ci=True, test="paired-bs", resamples=50, seed=1)
    table = Table(run, _resample(run, settings), settings).render(fmt)
    if fmt == "json":
        data = json.loads(table)
        assert list(data) == run.names and run.names[2].endswith("sample.hyp#2")
        first = data[run.names[0]]
        assert set(first) == {"m2", "gleu", "sentences"} and first["m2"]["p_value"] is None
        assert set(first["m2"]["ci"]) == {"precision", "recall", "f"}
    elif fmt in ("tsv", "csv"):
        rows = list(csv.reader(io.StringIO(table), delimiter="\t" if fmt == "tsv" else ","))
        assert rows[0][:5] == ["system", "m2_P", "m2_R", "m2_F0.5", "m2_P_low"]
        assert "gleu_p_value" in rows[0] and len(rows[1]) == len(rows[0])
        assert rows[-1][0].startswith("# metric:gleu")
    elif fmt == "latex":
        assert r"\multicolumn{4}{c}{M2}" in table and r"\multicolumn{2}{c}{GLEU}" in table
        assert "correction:holm" in table
    else:
        lines = table.splitlines()
        assert lines[0].split() == ["M2", "GLEU"] and "95% CI" in lines[1]
        assert lines[2].split()[-1] == "base"


def test_errant_categories_per_system_in_the_table():
    run = evaluate([FIXTURES / "score" / "errant.hyp"] * 2, FIXTURES / "m2" / "errant.m2",
                   [ErrantMetric(cat=1)])
    text = Table(run).render("text")
    assert text.count("ERRANT (lcs edits) per category:") == 2 and "\nR  " in text
    assert json.loads(Table(run).render("json"))[run.names[0]]["errant"]["categories"]

"""The I-measure as a metric of the pipeline: ieval.py's numbers, on the corpus and on any
weighting of it (the brute-force oracle: the resampled files scored)."""

from __future__ import annotations

import pickle
import random

import pytest

from conftest import FIXTURES, shared_file
from gecformats.formats import m2
from gecformats.metrics.imeasure import IMeasureMetric, evaluate_files, scores
from gecformats.metrics.pipeline import evaluate

GOLD = FIXTURES / "imeasure" / "gold.xml"
SYS = FIXTURES / "imeasure" / "sys.txt"


def _expected(run, beta=1.0, weight=2.0):
    c = scores(run.total, beta, weight, run.total_base)[1]
    return c.p, c.r, c.f, c.i


@pytest.mark.parametrize("options", [{}, {"optimise": "corpus"}, {"maximise": "df"},
                                     {"optimise": "corpus", "maximise": "ci"}])
def test_as_ieval_on_the_fixture(options):
    run = evaluate([SYS, SYS], GOLD, [IMeasureMetric(**options)])
    old = evaluate_files([str(SYS)], str(GOLD), **options)[0].run
    assert run.totals[0][0].values == _expected(old) == run.totals[0][1].values


def _m2_gold(tmp_path):
    from gecformats.formats import ixml

    path = tmp_path / "gold.m2"
    with open(path, "w", encoding="utf-8") as fh:
        m2.write(ixml.read(GOLD), fh)
    return path


@pytest.mark.parametrize("optimise", ["sentence", "corpus"])
def test_weights_equal_the_resampled_files_scored(tmp_path, optimise):
    gold = _m2_gold(tmp_path)
    sentences = list(m2.read(gold))
    lines = SYS.read_text(encoding="utf-8").splitlines()
    metric = IMeasureMetric(optimise=optimise)
    run = evaluate([SYS], gold, [metric])
    stats = run.stats[0][0]
    rng = random.Random(7)
    for _ in range(5):
        weights = [rng.randrange(3) for _ in sentences]
        hyp, res = tmp_path / "hyp.txt", tmp_path / "res.m2"
        with open(res, "w", encoding="utf-8") as fh:
            m2.write([s for s, w in zip(sentences, weights) for _ in range(w)], fh)
        hyp.write_text("".join(f"{line}\n" for line, w in zip(lines, weights) for _ in range(w)),
                       encoding="utf-8")
        if not sum(weights):
            continue
        old = evaluate_files([str(hyp)], str(res), gold_format="m2", optimise=optimise)[0].run
        assert metric.corpus(stats, weights).values == _expected(old)
        assert tuple(metric.resampler(stats).scores([weights])[0]) == _expected(old)


def test_statistics_are_picklable():
    run = evaluate([SYS], GOLD, [IMeasureMetric(optimise="corpus")])
    assert pickle.loads(pickle.dumps(run.stats)) == run.stats


def test_options_are_checked():
    with pytest.raises(ValueError):
        IMeasureMetric(optimise="document")
    with pytest.raises(ValueError):
        IMeasureMetric(maximise="xyz")


def test_two_conll_systems_as_ieval():
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    folder = shared_file("corpora/conll14/official_submissions")
    hyps = [folder / "AMU", folder / "UFC"]
    run = evaluate(hyps, gold, [IMeasureMetric()])
    old = evaluate_files([str(h) for h in hyps], str(gold))
    assert [t.values for t in run.totals[0]] == [_expected(o.run) for o in old]

"""System-level meta-evaluation: vectorised coefficients equal the exact ones, bootstrap
intervals from the metrics' own resamplers, comparisons, Williams' test, windows, datasets."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecformats.errors import GecFormatError, UsageError
from gecformats.metaeval import datasets
from gecformats.metaeval.length import LengthMetric
from gecformats.metaeval.run import MetaEvalRequest, build, run_meta_eval, score
from gecformats.metaeval.system import (average_rank_rows, compare, correlate_system,
                                        kendall_rows, pearson_rows, regularized_beta,
                                        spearman_rows, student_t_sf, williams, windows)
from gecformats.metrics.correlate import average_ranks, kendall, pearson, spearman
from gecformats.metrics.resampling import bootstrap_weights
from metaeval_data import SUBSET, write_gjg15, write_seeda


def _matrix(seed: int, rows: int = 40, n: int = 9, ties: bool = False) -> np.ndarray:
    rng = random.Random(seed)
    pick = (lambda: rng.choice([0.1, 0.2, 0.3])) if ties else rng.random
    return np.array([[pick() for _ in range(n)] for _ in range(rows)])


@pytest.mark.parametrize("ties", [False, True])
def test_vectorised_coefficients_equal_the_exact_ones(ties: bool) -> None:
    matrix = _matrix(1, ties=ties)
    human = [0.5, 0.1, 0.9, 0.3, 0.3, 0.7, 0.2, 0.8, 0.4]
    for fast, exact in ((pearson_rows, pearson), (spearman_rows, spearman),
                        (kendall_rows, kendall)):
        got = fast(matrix, human)
        for row, value in zip(matrix, got):
            if len(set(row)) == 1:
                assert math.isnan(value)
            else:
                assert value == pytest.approx(exact(list(row), human), abs=1e-12)


def test_average_ranks_as_scipy() -> None:
    row = [0.3, 0.1, 0.3, 0.2, 0.3]
    assert average_rank_rows(np.array([row]))[0].tolist() == average_ranks(row)


def test_constant_row_is_nan_not_an_error() -> None:
    assert math.isnan(pearson_rows(np.array([[1.0, 1.0, 1.0]]), [1, 2, 3])[0])


def test_student_t_and_beta() -> None:
    assert student_t_sf(0.0, 7) == pytest.approx(0.5)
    assert student_t_sf(1.0, 1) == pytest.approx(0.25)  # Cauchy
    assert student_t_sf(-1.0, 5) == pytest.approx(1 - student_t_sf(1.0, 5))
    assert student_t_sf(2.0150483733330233, 5) == pytest.approx(0.05, abs=1e-12)
    assert regularized_beta(0.3, 2, 3) == pytest.approx(0.3483, abs=1e-12)


def test_williams() -> None:
    # hand computation: K = 0.096, t = 2.9925436..., 12 degrees of freedom
    expected = student_t_sf(2.992543647310037, 12)
    assert williams(0.9, 0.6, 0.7, 15) == pytest.approx(expected, rel=1e-9)
    assert williams(0.6, 0.9, 0.7, 15) > 0.5  # the other way round
    assert math.isnan(williams(0.9, 0.6, 0.7, 3))
    assert math.isnan(williams(math.nan, 0.6, 0.7, 10))


SYSTEMS = ("A", "B", "C", "D", "E")
HUMAN = {"A": 0.9, "B": 0.7, "C": 0.5, "D": 0.5, "E": 0.1}


def test_correlate_system_intervals_from_the_resampled_scores() -> None:
    scores = {"A": 0.6, "B": 0.5, "C": 0.45, "D": 0.4, "E": 0.2}
    rng = np.random.default_rng(3)
    boot = {s: v + rng.normal(0, 0.05, 200) for s, v in scores.items()}
    row = correlate_system("m", "all", "h", SYSTEMS, scores, HUMAN, boot)
    assert row.values["pearson"] == pearson(list(scores.values()), list(HUMAN.values()))
    assert row.resamples == 200 and row.intervals is not None
    for name in ("pearson", "spearman", "kendall"):
        lo, hi = row.intervals[name]
        assert -1 <= lo <= hi <= 1
    assert row.to_dict()["pearson_low"] == row.intervals["pearson"][0]
    assert correlate_system("m", "all", "h", SYSTEMS, scores, HUMAN).intervals is None


def test_compare_a_metric_with_itself_and_a_worse_one() -> None:
    good = {"A": 0.6, "B": 0.5, "C": 0.45, "D": 0.4, "E": 0.2}
    bad = {"A": 0.2, "B": 0.6, "C": 0.45, "D": 0.5, "E": 0.4}
    rng = np.random.default_rng(5)
    boot = {m: {s: v + rng.normal(0, 0.02, 100) for s, v in scores.items()}
            for m, scores in (("good", good), ("bad", bad))}
    scores = {"good": good, "bad": bad}
    same = compare("good", "good", "all", "h", SYSTEMS, scores, HUMAN, boot)
    assert same.difference == 0 and same.p_bootstrap == 1.0
    better = compare("good", "bad", "all", "h", SYSTEMS, scores, HUMAN, boot)
    assert better.difference > 0 and better.p_bootstrap is not None
    assert better.p_bootstrap < 0.05 and better.interval is not None and better.interval[0] > 0
    assert compare("good", "bad", "all", "h", SYSTEMS, scores, HUMAN).interval is None


def test_windows_as_gec_metrics() -> None:
    scores = {"A": 0.6, "B": 0.5, "C": 0.45, "D": 0.4, "E": 0.2}
    out = windows("m", "all", "h", SYSTEMS, scores, HUMAN, 3)
    assert [(w.start, w.end) for w in out] == [(0, 2), (1, 3), (2, 4)]
    assert out[1].systems == ("B", "C", "D")  # C before D: a stable sort of the tie
    assert out[0].pearson == pytest.approx(pearson([0.6, 0.5, 0.45], [0.9, 0.7, 0.5]))
    with pytest.raises(ValueError):
        windows("m", "all", "h", SYSTEMS, scores, HUMAN, 6)


def test_length_metric_resampler_equals_its_corpus_step() -> None:
    metric = LengthMetric()
    stats = [5, 0, 17, 3]
    weights = bootstrap_weights(4, 20, 7)
    assert [r[0] for r in metric.resampler(stats).scores(weights)] == \
        [metric.corpus(stats, list(w)).values[0] for w in weights]


# ------------------------------------------------------------------ datasets and scoring


def test_seeda_dataset_and_its_subset_gold(tmp_path: Path) -> None:
    folder = write_seeda(tmp_path)
    data = datasets.load("seeda", str(folder))
    assert data.systems == datasets.SEEDA_SYSTEMS and data.lines == tuple(SUBSET)
    assert data.configs["base"] == tuple(s for s in datasets.SEEDA_SYSTEMS
                                         if s not in ("GPT-3.5", "INPUT", "REF-F"))
    assert len(data.configs["+fluency"]) == 14 and len(data.configs["all"]) == 15
    assert data.src_base == 1 and set(data.humans) == set(datasets.SEEDA_HUMANS)
    with datasets.subset_gold(data.gold, data.lines) as gold:
        text = Path(gold).read_text()
    assert [line for line in text.splitlines() if line.startswith("S ")] == [
        "S He go to school every days .", "S She like apples .", "S We was late ."]
    assert datasets.load("seeda", str(folder), full=True).lines is None


def test_dataset_errors(tmp_path: Path) -> None:
    folder = write_seeda(tmp_path)
    with pytest.raises(UsageError, match="unknown dataset"):
        datasets.load("wmt", str(folder))
    with pytest.raises(UsageError, match="--outputs"):
        datasets.load("seeda", str(folder), outputs=str(tmp_path))
    (folder / "scores" / "human" / "TS_sent.txt").write_text("0.1\n0.2\n")
    with pytest.raises(GecFormatError, match="2 values for 15 systems"):
        datasets.load("seeda", str(folder))
    (folder / "outputs" / "subset" / "T5.txt").unlink()
    with pytest.raises(GecFormatError, match="T5"):
        datasets.load("seeda", str(folder))
    with pytest.raises(GecFormatError, match="combined"):
        datasets.load("seeda", str(folder), gold=str(tmp_path / "nothing.m2"))


def test_gjg15_dataset(tmp_path: Path) -> None:
    folder = write_gjg15(tmp_path)
    data = datasets.load("gjg15", str(folder))
    assert data.systems[:3] == ("AMU", "RAC", "CAMB") and data.src_base == 0
    assert set(data.humans) == {"EW", "TS"} and list(data.configs) == ["all"]
    with pytest.raises(UsageError, match="--full"):
        datasets.load("gjg15", str(folder), full=True)


def test_score_uses_the_same_resamples_for_every_system_and_metric(tmp_path: Path) -> None:
    data = datasets.load("seeda", str(write_seeda(tmp_path)))
    n, scored = score(data, ["length", "m2"], resamples=30, seed=4)
    assert n == len(SUBSET)
    weights = bootstrap_weights(n, 30, 4)
    length, m2 = scored
    for system in data.systems:
        lengths = np.array(length.stats[system])
        assert length.boot is not None and (length.boot[system] == weights @ lengths).all()
        assert m2.boot is not None
        assert m2.boot[system].tolist() == [
            m2.metric.corpus(m2.stats[system], list(w)).values[2] for w in weights]
    assert m2.scores["BART"] == 0.0 and m2.sentence_scores("BART") == [0.0, 0.0, 0.0]
    assert m2.scores["INPUT"] == 1.0  # system 5 corrects every sentence


def test_run_system_level_rows(tmp_path: Path) -> None:
    folder = write_seeda(tmp_path)
    result = run_meta_eval(MetaEvalRequest("seeda", str(folder), ["m2", "length"], resamples=20,
                                           compare=True, window=4, configs=["base", "all"]))
    assert len(result.system) == 2 * 2 * 4
    assert {(r.metric, r.config) for r in result.system} == {
        (m, c) for m in ("m2", "length") for c in ("base", "all")}
    assert len(result.comparisons) == 2 * 4 * 2
    assert all(w.end - w.start == 3 for w in result.windows)


def test_gleu_gets_absent_first() -> None:
    (gleu,) = build(["gleu"])
    assert gleu.absent == "first"  # type: ignore[attr-defined]
    with pytest.raises(UsageError, match="unknown metric"):
        build(["bleu"])


def test_request_checks() -> None:
    for bad in (dict(level="corpus"), dict(ties="win"), dict(resamples=-1), dict(window=1),
                dict(metrics=["m2", "m2"])):
        with pytest.raises(UsageError):
            MetaEvalRequest("seeda", ".", **bad).check()  # type: ignore[arg-type]


@pytest.mark.parametrize("module", ["gecformats.metaeval.system", "gecformats.metaeval.length"])
def test_module_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_human_score_readers_give_a_located_error_or_values(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scores.txt"
        path.write_bytes(data)
        for read in (lambda: datasets.read_column(str(path), ("A", "B")),
                     lambda: datasets.read_table(str(path), "EW_score", ("A", "B"))):
            try:
                values = read()
            except GecFormatError as exc:
                assert exc.file == str(path)
            else:
                assert set(values) == {"A", "B"}
                assert all(math.isfinite(v) for v in values.values())

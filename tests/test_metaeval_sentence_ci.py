"""Sentence-level 95 % intervals: bootstrap resamples of the ranking items, the same for
every metric and system set (gecformats.metaeval.sentence.item_counts and
resampled_agreement; ``meta-eval --level sentence --ci N``)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gecformats.cli import app
from gecformats.metaeval.judgments import RankingItem
from gecformats.metaeval.run import MetaEvalRequest, run_meta_eval
from gecformats.metaeval.sentence import (agreement, item_counts, pairwise_counts,
                                          resampled_agreement)
from metaeval_data import write_seeda

SCORES = {"A": [1.0, 5.0, 3.0], "B": [2.0, 5.0, 1.0], "C": [2.0, 0.0, 3.0]}
ITEMS = [RankingItem(0, (("A", 1), ("B", 2), ("C", 3)), "j", 0, 1),
         RankingItem(1, (("A", 2), ("B", 1)), "j", 1, 2),
         RankingItem(2, (("C", 1),), "j", 2, 3),
         RankingItem(2, (("B", 1), ("C", 2), ("A", 2)), "k", 3, 4)]


def test_item_counts_sum_to_the_pair_counts() -> None:
    rows = list(item_counts(ITEMS, SCORES, ["A", "B", "C"], lambda i: i))
    assert rows[2] == (0, 0, 0, 0) and len(rows) == 4
    counts = pairwise_counts(ITEMS, SCORES, ["A", "B", "C"], lambda i: i)
    assert tuple(map(sum, zip(*rows))) == (counts.concordant, counts.discordant,
                                           counts.ties_first, counts.ties_second)


@pytest.mark.parametrize("ties", ["loss", "skip", "neutral"])
def test_resampled_agreement_by_hand(ties: str) -> None:
    per_item = np.array(list(item_counts(ITEMS, SCORES, ["A", "B", "C"], lambda i: i)))
    counts = pairwise_counts(ITEMS, SCORES, ["A", "B", "C"], lambda i: i)
    weights = np.array([[1, 1, 1, 1], [4, 0, 0, 0], [0, 0, 4, 0]])
    acc, tau = resampled_agreement(per_item, weights, ties)
    assert (acc[0], tau[0]) == pytest.approx(agreement(counts, ties))
    alone = pairwise_counts(ITEMS[:1], SCORES, ["A", "B", "C"], lambda i: i)
    assert (acc[1], tau[1]) == pytest.approx(agreement(alone, ties))
    assert math.isnan(acc[2]) and math.isnan(tau[2])  # an item without pairs only
    with pytest.raises(ValueError):
        resampled_agreement(per_item, weights, "draw")


def test_intervals_in_every_output_and_shared_across_metrics(tmp_path: Path) -> None:
    seeda = write_seeda(tmp_path)
    request = MetaEvalRequest("seeda", str(seeda), ["m2"], "sentence", resamples=200,
                              configs=["all"])
    alone = run_meta_eval(request).sentence
    request.metrics = ["length", "m2"]
    both = run_meta_eval(request).sentence
    assert [r.intervals for r in alone] == [r.intervals for r in both if r.metric == "m2"]
    for row in both:
        low, high = row.intervals["accuracy"]
        assert low <= row.accuracy <= high
    out = CliRunner().invoke(app, ["meta-eval", "--dataset", "seeda", "--data", str(seeda),
                                   "--level", "sentence", "--ci", "50", "--format", "tsv"])
    header, *rows = out.stdout.splitlines()
    assert header.split("\t")[-4:] == ["accuracy_low", "accuracy_high", "tau_low", "tau_high"]
    assert all(r.split("\t")[-1] for r in rows)
    out = CliRunner().invoke(app, ["meta-eval", "--dataset", "seeda", "--data", str(seeda),
                                   "--level", "sentence", "--ci", "0", "--format", "tsv"])
    assert all(r.split("\t")[-4:] == ["", "", "", ""] for r in out.stdout.splitlines()[1:])
    text = CliRunner().invoke(app, ["meta-eval", "--dataset", "seeda", "--data", str(seeda),
                                    "--level", "sentence", "--ci", "50"]).stdout
    assert "95% intervals over 50 bootstrap resamples of the ranking items" in text

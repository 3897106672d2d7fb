"""Sentence-level pairwise agreement (gecformats.metaeval.sentence): hand-counted pairs, the
three metric-tie conventions, and ../shared/reference/meta-eval/sentence_level.tsv exactly
(the length_chars pseudo-metric on SEEDA-E, SEEDA-S in four configurations and GJG15)."""

from __future__ import annotations

import csv
import math

import pytest

from conftest import shared_file
from gecformats.errors import GecFormatError
from gecformats.metaeval.judgments import RankingItem, read_judgments, subset_index
from gecformats.metaeval.sentence import PairCounts, agreement, pairwise_counts

SEEDA = ("BART BERT-fuse GECToR-BERT GECToR-ens GPT-3.5 INPUT LM-Critic PIE REF-F REF-M "
         "Riken-Tohoku T5 TemplateGEC TransGEC UEDIN-MS").split()
DROPPED = {"base": {"GPT-3.5", "INPUT", "REF-F"}, "+INPUT": {"GPT-3.5", "REF-F"},
           "+fluency": {"INPUT"}, "all": set()}
GJG15 = "AMU RAC CAMB CUUI POST UFC PKU UMC IITB SJTU INPUT NTHU IPN".split()


def item(src_id: int, *ranks: tuple[str, int]) -> RankingItem:
    return RankingItem(src_id, tuple(ranks), "j", 0, 7)


def test_counts_by_hand() -> None:
    scores = {"A": [1.0, 5.0], "B": [2.0, 5.0], "C": [2.0, 0.0], "X": [9.0, 9.0]}
    items = [
        # A>B discordant; A=C a human tie (skipped); C>B a metric tie, human prefers the second
        item(0, ("A", 1), ("B", 2), ("C", 1), ("Z", 3)),
        item(1, ("B", 1), ("A", 2)),            # B>A a metric tie, human prefers the second
        item(1, ("A", 1), ("B", 2), ("C", 3)),  # A>B a metric tie (first); A>C, B>C concordant
        item(0),                                # empty (GJG15 has 13 of these)
    ]
    counts = pairwise_counts(items, scores, ["A", "B", "C"], lambda i: i)
    assert counts == PairCounts(n=6, concordant=2, discordant=1, ties_first=1, ties_second=2)
    assert counts.ties == 3
    assert agreement(counts, "loss") == (4 / 6, 2 / 6)
    assert agreement(counts, "skip") == (2 / 3, 1 / 3)
    assert agreement(counts, "neutral") == (2 / 6, 1 / 6)
    # reversing the order moves the ties to the other side (and so changes "loss" only)
    reverse = pairwise_counts(items, scores, ["C", "B", "A"], lambda i: i)
    assert reverse == PairCounts(n=6, concordant=2, discordant=1, ties_first=2, ties_second=1)
    assert agreement(reverse, "loss") == (3 / 6, 0.0)
    assert agreement(reverse, "skip") == agreement(counts, "skip")
    # systems outside the order are dropped
    assert pairwise_counts(items, scores, ["A", "B"], lambda i: i).n == 3


def test_loss_convention_depends_on_the_order() -> None:
    scores = {"A": [1.0], "B": [1.0]}
    items = [item(0, ("A", 2), ("B", 1))]  # human prefers B, metric ties
    assert agreement(pairwise_counts(items, scores, ["A", "B"], lambda i: i), "loss")[0] == 1.0
    assert agreement(pairwise_counts(items, scores, ["B", "A"], lambda i: i), "loss")[0] == 0.0
    for ties in ("skip", "neutral"):
        first = agreement(pairwise_counts(items, scores, ["A", "B"], lambda i: i), ties)
        second = agreement(pairwise_counts(items, scores, ["B", "A"], lambda i: i), ties)
        assert first == second or all(math.isnan(x) for x in first + second)


def test_empty_and_errors() -> None:
    empty = PairCounts(0, 0, 0, 0, 0)
    assert all(math.isnan(x) for x in agreement(empty, "loss") + agreement(empty, "neutral"))
    assert all(math.isnan(x) for x in agreement(PairCounts(3, 0, 0, 1, 2), "skip"))
    with pytest.raises(ValueError, match="unknown metric-tie convention 'lose'"):
        agreement(empty, "lose")
    with pytest.raises(ValueError, match="no sentence scores for system"):
        pairwise_counts([], {"A": [1.0]}, ["A", "B"], lambda i: i)
    with pytest.raises(ValueError, match="line 7: src-id 5 maps to sentence 5"):
        pairwise_counts([item(5, ("A", 1), ("B", 2))], {"A": [1.0], "B": [2.0]}, ["A", "B"],
                        lambda i: i)
    with pytest.raises(GecFormatError, match="src-id 3 is not a sentence of the subset"):
        pairwise_counts([item(3, ("A", 1), ("B", 2))], {"A": [1.0], "B": [2.0]}, ["A", "B"],
                        subset_index([0]))


def _lengths(path) -> list[int]:
    return [len(line.rstrip()) for line in path.read_text(encoding="utf-8").split("\n")]


def _rows() -> list[dict[str, str]]:
    with shared_file("reference/meta-eval/sentence_level.tsv").open() as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_length_chars_reproduces_sentence_level_tsv() -> None:
    """All 9 rows: the raw counts and the six values, equal as floats (not just to 1e-6)."""
    corpora = shared_file("corpora")
    ids = [int(x) for x in (corpora / "seeda/subset_ids.txt").read_text().split()]
    seeda = {s: _lengths(corpora / f"seeda/outputs/subset/{s}.txt") for s in SEEDA}
    gjg = {s: _lengths(corpora / f"conll14/official_submissions/{s}")
           for s in GJG15 if s != "INPUT"}
    m2 = (corpora / "conll14/conll14st-test-data/noalt/official-2014.combined.m2").read_text(
        encoding="utf-8")
    gjg["INPUT"] = [len(line[2:].rstrip()) for line in m2.split("\n") if line.startswith("S ")]
    judgments = {k: list(read_judgments(corpora / f"seeda/data/judgments_{k}.xml"))
                 for k in ("edit", "sent")}
    rows = _rows()
    assert len(rows) == 9
    for row in rows:
        if row["dataset"] == "SEEDA":
            order = [s for s in SEEDA if s not in DROPPED[row["config"]]]
            kind = "edit" if row["judgments"] == "SEEDA-E" else "sent"
            counts = pairwise_counts(judgments[kind], seeda, order, subset_index(ids))
        else:
            counts = pairwise_counts(read_judgments(corpora / "gjg15/judgments.xml"), gjg, GJG15,
                                     lambda i: i)
        where = (row["dataset"], row["config"], row["judgments"])
        assert (counts.n, counts.concordant, counts.discordant, counts.ties,
                counts.ties_first, counts.ties_second) == tuple(
            int(row[k]) for k in ("n_pairs", "concordant", "discordant", "metric_ties",
                                  "ties_human_prefers_first", "ties_human_prefers_second")), where
        for ties in ("loss", "skip", "neutral"):
            expected = (float(row[f"acc_tie_{ties}"]), float(row[f"tau_tie_{ties}"]))
            assert agreement(counts, ties) == expected, (where, ties)

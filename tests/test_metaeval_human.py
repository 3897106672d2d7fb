"""Human system rankings from judgments (gecformats.metaeval.human): Expected Wins and
TrueSkill on hand-made items, and against the published GJG15 / SEEDA scores.

What is and is not reproducible (the published scores are means of 1,000 randomised runs)
is explained in the module docstring of gecformats.metaeval.human; the numbers asserted
here are the measured ones.  The full-data TrueSkill measurements take ~40 s and live in
tests/bench/bench_metaeval_human.py."""

from __future__ import annotations

import csv
import math
from statistics import NormalDist

import pytest

from conftest import shared_file
from gecformats.metaeval.human import comparisons, expected_wins, trueskill_scores
from gecformats.metaeval.judgments import RankingItem, read_judgments

SEEDA = ("BART BERT-fuse GECToR-BERT GECToR-ens GPT-3.5 INPUT LM-Critic PIE REF-F REF-M "
         "Riken-Tohoku T5 TemplateGEC TransGEC UEDIN-MS").split()


def item(*ranks: tuple[str, int]) -> RankingItem:
    return RankingItem(1, tuple(ranks), None, 0, 1)


ITEMS = [item(("A", 1), ("B", 2), ("C", 2)), item(("B", 1), ("A", 2)),
         item(("C", 1), ("A", 3), ("D", 2)), item(), item(("A", 1), ("B", 1))]


def test_comparisons_follow_the_system_order() -> None:
    assert list(comparisons(ITEMS[:1], ["C", "B", "A"])) == [(0, 1, 0), (0, 2, -1), (1, 2, -1)]
    assert list(comparisons(ITEMS, ["A", "B"])) == [(0, 1, 1), (0, 1, -1), (0, 1, 0)]
    with pytest.raises(ValueError):
        list(comparisons(ITEMS, ["A", "A"]))


def test_expected_wins_by_hand() -> None:
    # A-B: 1 win each (the tie is ignored); A-C: A 1, C 1; A-D: D 1; B-C: tie only; C-D: C 1
    scores = expected_wins(ITEMS, ["A", "B", "C", "D"])
    assert scores == pytest.approx({"A": (0.5 + 0.5 + 0) / 3, "B": 0.5 / 3, "C": (0.5 + 1) / 3,
                                    "D": 1 / 3}, abs=1e-15)
    assert list(scores) == ["A", "B", "C", "D"]
    assert expected_wins(ITEMS, ["B", "D"]) == {"B": 0.0, "D": 0.0}  # never decided
    with pytest.raises(ValueError):
        expected_wins(ITEMS, ["A"])


def test_trueskill_one_game_is_the_closed_form_update() -> None:
    pytest.importorskip("trueskill")
    mu, sigma, beta, p = 0.0, 0.5, 0.25, 0.25
    c = math.sqrt(2 * beta ** 2 + 2 * sigma ** 2)
    eps = NormalDist().inv_cdf((p + 1) / 2) * math.sqrt(2) * beta
    t = (mu - mu - eps) / c
    v = NormalDist().pdf(t) / NormalDist().cdf(t)
    scores = trueskill_scores([item(("A", 1), ("B", 2))], ["A", "B"])
    assert scores["A"] == pytest.approx(sigma ** 2 / c * v, rel=1e-6)
    assert scores["B"] == pytest.approx(-sigma ** 2 / c * v, rel=1e-6)
    draw = trueskill_scores([item(("A", 1), ("B", 1))], ["A", "B"])
    assert draw == {"A": 0.0, "B": 0.0}
    assert trueskill_scores([item(("A", 2), ("B", 1))], ["A", "B"], beta=1.0)["A"] < 0


def test_trueskill_parameters_and_missing_package(without_trueskill) -> None:
    pytest.importorskip("trueskill")
    with pytest.raises(TypeError, match="unknown TrueSkill parameter"):
        trueskill_scores(ITEMS, ["A", "B"], betta=1.0)
    with pytest.raises(ImportError, match=r"pip install 'gecformats\[metaeval\]'"):
        trueskill_scores(ITEMS, ["A", "B"])


# gec-metrics@320c830 metrics/base.py MetricBase.run_trueskill, run unchanged on the first 50
# items of SEEDA judgments_edit.xml (pairwise tables in the 15-system order, None where an item
# does not rank a system): the same games, so the same floats (equal on all 600 items, both
# files, when checked while writing this)
ORACLE_TS_EDIT_50 = [
    -0.10294607953975976, -0.026997105670530593, -0.03157049052749437, -0.024197815962193264,
    0.09222904436061062, -0.17722593771488357, -0.04928267802010822, -0.05145584390081017,
    0.1365876470226682, 0.021915920887693337, 0.0013055253189253263, 0.05308026565588554,
    -0.12858896275107984, 0.05088258659726303, -0.05559659067369495]


def test_trueskill_equals_gec_metrics_run_trueskill() -> None:
    pytest.importorskip("trueskill")
    items = list(read_judgments(shared_file("corpora/seeda/data/judgments_edit.xml")))[:50]
    assert list(trueskill_scores(items, SEEDA).values()) == ORACLE_TS_EDIT_50


def _published(relative: str) -> list[float]:
    return [float(x) for x in shared_file(relative).read_text().split()]


@pytest.mark.parametrize("kind, equal, largest", [("edit", 10, 0.00081), ("sent", 13, 0.00082)])
def test_seeda_expected_wins_against_published(kind: str, equal: int, largest: float) -> None:
    """The published SEEDA EW are bootstrap means (GJG15's pipeline): 3-decimal agreement on
    most systems, every value within 0.001."""
    items = read_judgments(shared_file(f"corpora/seeda/data/judgments_{kind}.xml"))
    scores = list(expected_wins(items, SEEDA).values())
    published = _published(f"corpora/seeda/scores/human/EW_{kind}.txt")
    assert sum(round(s, 3) == p for s, p in zip(scores, published)) == equal
    assert max(abs(s - p) for s, p in zip(scores, published)) < largest


def test_gjg15_expected_wins_reproduce_table3() -> None:
    with shared_file("corpora/gjg15/table3_human_rankings.tsv").open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    systems = [r["system"] for r in rows]
    scores = expected_wins(read_judgments(shared_file("corpora/gjg15/judgments.xml")), systems)
    assert [f"{scores[s]:.3f}" for s in systems] == [r["EW_score"] for r in rows]
    assert max(abs(scores[s] - float(r["EW_score"])) for s, r in zip(systems, rows)) < 0.0005


def _package_trueskill(items: list[RankingItem], systems: list[str], **params: float
                       ) -> dict[str, float]:
    """The games played through ``trueskill.TrueSkill.rate`` (the factor graph)."""
    import trueskill

    from gecformats.metaeval.human import TRUESKILL_PARAMETERS

    env = trueskill.TrueSkill(**{**TRUESKILL_PARAMETERS, **params})
    ratings = [env.create_rating() for _ in systems]
    for i, j, outcome in comparisons(items, systems):
        ranks = (0, 1) if outcome > 0 else (1, 0) if outcome < 0 else (0, 0)
        (ratings[i],), (ratings[j],) = env.rate([(ratings[i],), (ratings[j],)], ranks=ranks)
    return {name: float(r.mu) for name, r in zip(systems, ratings)}


@pytest.mark.parametrize("params", [{}, {"beta": 1.3, "tau": 0.05, "draw_probability": 0.1}])
def test_fast_trueskill_equals_the_package_float_for_float(params: dict[str, float]) -> None:
    """trueskill_scores plays a game without the package's factor graph (~7x faster): the
    same operations in the same order, so the same floats (also on all of SEEDA and GJG15,
    measured when written)."""
    pytest.importorskip("trueskill")
    import random

    rng = random.Random(7)
    systems = ["A", "B", "C", "D", "E"]
    items = [item(*((s, rng.randint(1, 3)) for s in rng.sample(systems, rng.randint(2, 5))))
             for _ in range(150)]
    assert trueskill_scores(items, systems, **params) == _package_trueskill(items, systems,
                                                                            **params)

"""``--human judgments``: the human system scores computed from the judgment files
(gecformats.metaeval.run.human_scores), recorded in every output; on the tiny fixture and
against GJG15's published Table 3 (../shared)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import shared_file
from gecformats.cli import app
from gecformats.errors import UsageError
from gecformats.metaeval.datasets import load
from gecformats.metaeval.human import expected_wins
from gecformats.metaeval.judgments import read_judgments
from gecformats.metaeval.run import human_scores
from metaeval_data import write_gjg15, write_seeda

runner = CliRunner()


@pytest.fixture()
def seeda(tmp_path: Path) -> Path:
    return write_seeda(tmp_path)


def test_expected_wins_per_system_set(seeda: Path) -> None:
    pytest.importorskip("trueskill")
    dataset = load("seeda", str(seeda))
    humans = human_scores(dataset, ["base", "all"], "judgments")
    items = list(read_judgments(seeda / "data" / "judgments_edit.xml"))
    for config in ("base", "all"):
        assert humans[config]["EW_edit"] == expected_wins(items, dataset.configs[config])
        assert set(humans[config]) == {"EW_edit", "EW_sent", "TS_edit", "TS_sent"}
    # item 1 ranks T5 > BART > PIE: on base T5 wins both its pairs (EW 2/11)
    assert humans["base"]["EW_edit"]["T5"] == pytest.approx(2 / 11)
    assert "GPT-3.5" not in humans["base"]["TS_sent"] and humans["all"]["TS_sent"]["GPT-3.5"] > 0
    assert human_scores(dataset, ["base"], "published")["base"] is dataset.humans


def test_cli_records_the_choice(seeda: Path) -> None:
    pytest.importorskip("trueskill")
    base = ["meta-eval", "--dataset", "seeda", "--data", str(seeda), "--ci", "0", "--metric",
            "length", "--config", "base"]
    out = runner.invoke(app, [*base, "--human", "judgments", "--format", "tsv"])
    assert out.exit_code == 0
    header, *rows = out.stdout.splitlines()
    assert header.split("\t")[-1] == "human_source"
    assert {r.split("\t")[-1] for r in rows} == {"judgments"}
    published = runner.invoke(app, [*base, "--format", "tsv"]).stdout.splitlines()
    assert {r.split("\t")[-1] for r in published[1:]} == {"published"}
    assert published[1:] != rows  # other human scores, other correlations
    data = json.loads(runner.invoke(app, [*base, "--human", "judgments", "--format",
                                          "json"]).stdout)
    assert data["human_source"] == "judgments"
    text = runner.invoke(app, [*base, "--human", "judgments"]).stdout
    assert "human scores: computed from the judgments" in text
    latex = runner.invoke(app, [*base, "--human", "judgments", "--format", "latex"]).stdout
    assert latex.rstrip().endswith("gec-metrics' parameters)")


def test_without_trueskill_or_judgments(seeda: Path, tmp_path: Path, without_trueskill) -> None:
    out = runner.invoke(app, ["meta-eval", "--dataset", "seeda", "--data", str(seeda), "--ci",
                              "0", "--metric", "length", "--human", "judgments"])
    assert out.exit_code == 2 and "gecformats[metaeval]" in out.stderr
    assert len(out.stderr.splitlines()) == 1
    with pytest.raises(UsageError, match="napoles2015"):
        human_scores(replace(load("seeda", str(seeda)), name="napoles2015", human_sources={}),
                     ["all"], "judgments")
    (tmp_path / "g").mkdir()
    gjg = write_gjg15(tmp_path / "g")  # judgments.xml without items: a clean data error
    out = runner.invoke(app, ["meta-eval", "--dataset", "gjg15", "--data", str(gjg), "--ci",
                              "0", "--metric", "length", "--human", "judgments"])
    assert out.exit_code == 1 and "judgments.xml" in out.stderr


def test_gjg15_from_judgments_is_table3() -> None:
    """GJG15's Expected Wins computed from judgments.xml equal Table 3(b) at 3 decimals, and
    the TrueSkill ranking is Table 3(c)'s (the published TS are means of randomised runs)."""
    pytest.importorskip("trueskill")
    folder = shared_file("corpora/gjg15")
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    dataset = load("gjg15", str(folder), gold=str(gold))
    humans = human_scores(dataset, ["all"], "judgments")["all"]
    for system, value in dataset.humans["EW"].items():
        assert round(humans["EW"][system], 3) == pytest.approx(value, abs=1e-9)
    order = sorted(dataset.systems, key=humans["TS"].__getitem__)
    assert order == sorted(dataset.systems, key=dataset.humans["TS"].__getitem__)

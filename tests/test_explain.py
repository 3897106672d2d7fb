"""gecformats.explain and `gecformats explain`: claims made with one non-default setting are
found first (text and JSON), every setting's command reproduces its score exactly, a claim
nothing explains is said to be so, claim tables, refusals; on ../shared, a CoNLL-2014 claim
made with --max-unchanged-words 3."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from conftest import FIXTURES, SHARED
from test_inputs import run
from gecformats.errors import GecFormatError, UsageError
from gecformats.explain import Gold, Setting, explain, parse_claim
from gecformats.explain.render import format_text, to_dict
from gecformats.explain.settings import command, match_claims, read_claim_table

HERE = FIXTURES / "explain"
HYP, GOLD, ALT = HERE / "system.txt", HERE / "gold.m2", HERE / "gold-alt.m2"
CONLL = "corpora/conll14"
COMBINED = f"{CONLL}/conll14st-test-data/noalt/official-2014.combined.m2"


def scored(*args: object, column: str = "f") -> float:
    """The value ``gecformats score ARGS --format json`` gives."""
    code, out, err = run("score", *args, "--format", "json", "-q")
    assert code == 0, err
    data = json.loads(out)
    return float(data[column] if column in data else data["results"][0][column])


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory):
    """Every setting on the fixture, singles and pairs (a claim makes the pairs run), the
    detokenized hypothesis kept so that its commands run."""
    folder = tmp_path_factory.mktemp("variants")
    return explain([HYP], GOLD, claims=[parse_claim("0.5")], variants=[ALT],
                   variants_dir=str(folder))


# ------------------------------------------------------------------ claims


@pytest.mark.parametrize("text, value, percent, tolerance", [
    ("0.3501", 0.3501, False, 5e-5), ("35.01", 0.3501, True, 5e-5),
    ("35.01%", 0.3501, True, 5e-5), ("0.35", 0.35, False, 5e-3), ("61", 0.61, True, 5e-3),
    ("1", 1.0, False, 0.5), (".5", 0.5, False, 0.05), ("-2.5", -0.025, True, 5e-4),
    ("0.5%", 0.005, True, 5e-4)])
def test_claims_are_read_as_printed(text: str, value: float, percent: bool,
                                    tolerance: float) -> None:
    claim = parse_claim(text)
    assert claim.value == pytest.approx(value) and claim.percent is percent
    assert claim.tolerance == pytest.approx(tolerance)
    assert claim.matches(value + tolerance * 0.99) and not claim.matches(value + tolerance * 1.01)


@pytest.mark.parametrize("text", ["abc", "", "0.3.5", "1e3", "101", "nan"])
def test_a_claim_that_is_not_a_score_is_refused(text: str) -> None:
    with pytest.raises(UsageError):
        parse_claim(text)


# ------------------------------------------------------------------ the search


SETTINGS = {
    "annotator": (Setting((("gold", Gold(annotator=1)),)), ["--annotator", "1"]),
    "max-unchanged-words": (Setting((("max-unchanged-words", 3),)),
                            ["--max-unchanged-words", "3"]),
    "alternatives": (Setting((("gold", Gold(variant=str(ALT))),)), None),
    "tokenize": (Setting((("tokenization", "en"),)), ["--tokenize", "en"]),
}


@pytest.mark.parametrize("name", list(SETTINGS))
def test_a_claim_made_with_one_setting_finds_it_first(searched, name: str) -> None:
    setting, options = SETTINGS[name]
    gold = ALT if options is None else GOLD
    value = scored(HYP, "--gold", gold, *(options or []))
    searched.claims = [parse_claim(f"{value:.4f}")]
    best = searched.ranked(0)[0]
    assert best.setting == setting and searched.claims[0].matches(best.scores[0])


@pytest.mark.parametrize("name", ["annotator", "alternatives"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_command_line_names_the_setting_and_its_command(name: str, fmt: str) -> None:
    setting, options = SETTINGS[name]
    value = scored(HYP, "--gold", ALT if options is None else GOLD, *(options or []))
    code, out, err = run("explain", HYP, "--gold", GOLD, "--gold-variant", ALT,
                         "--claim", f"{value:.4f}", "--no-pairs", "--format", fmt)
    assert code == 0, err
    expected = command(setting, [str(HYP)], str(GOLD), "m2")
    if fmt == "json":
        data = json.loads(out)
        first = data["candidates"][0]
        assert first["command"] == expected and first["match"] and data["match"]
        assert set(first) >= {"score", "settings", "description", "command"}
        assert {row["description"] for row in data["sensitivity"]} >= {first["description"]}
    else:
        rank = out.split("\n   1  ")[1]
        assert "MATCH" in rank.split("\n")[0] and f"$ {expected}" in rank.split("\n   2  ")[0]
        assert "Sensitivity: each factor alone" in out


def test_every_setting_command_reproduces_its_score(searched) -> None:
    """Each setting scored from shared statistics (β, an annotator alone restricted from
    the whole gold's) and from its own run is what its `score` command prints, exactly."""
    e = searched
    assert e.runs < len(e.outcomes)  # statistics were shared
    checked = 0
    for outcome in e.outcomes:
        names = {k for k, _ in outcome.setting.changes}
        if outcome.setting.size == 2 and not names & {"gold", "beta"}:
            continue  # pairs of their own run are like the singles
        words = shlex.split(command(outcome.setting, e.paths, e.gold, e.metric, e.detokenized))
        assert scored(*words[2:]) == outcome.scores[0], words
        checked += 1
    assert checked > 30


def test_an_annotator_alone_under_source_gets_its_own_run(searched) -> None:
    """Annotator 1 is absent from sentence 2, where annotator 0 has an edit: with
    --absent source no candidate of the whole gold's run has no gold edit there."""
    from gecformats.explain.search import restricted
    from gecformats.metrics.m2 import M2Metric
    from gecformats.metrics.pipeline import evaluate

    stats = evaluate([HYP], GOLD, [M2Metric()]).stats[0][0]
    assert restricted(stats, 1, "source") is None
    assert restricted(stats, 1, "first") is not None
    setting = Setting((("gold", Gold(annotator=1, absent="source")),))
    assert any(o.setting == setting for o in searched.outcomes)


def test_a_claim_nothing_explains_is_reported_with_the_nearest(searched) -> None:
    searched.claims = [parse_claim("0.9876")]
    text = format_text(searched)
    assert "No setting tried explains the claim 0.9876: the nearest are above." in text
    data = to_dict(searched, top=3)
    assert data["match"] is False and len(data["candidates"]) == 3
    nearest = [c["distance"] for c in data["candidates"]]
    assert nearest == sorted(nearest) and not any(c["match"] for c in data["candidates"])


def test_settings_with_one_score_are_shown_once(searched) -> None:
    searched.claims = [parse_claim(f"{searched.default.scores[0]:.4f}")]
    data = to_dict(searched, top=0)
    scores = [c["score"] for c in data["candidates"]]
    assert len(scores) == len(set(scores))
    assert sum(c["others"] + 1 for c in data["candidates"]) == len(searched.outcomes)
    assert data["candidates"][0]["settings"] == {}  # the defaults, the simplest


def test_without_a_claim_the_sensitivity_alone() -> None:
    code, out, err = run("explain", HYP, "--gold", GOLD, "--factor", "max-unchanged-words",
                         "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["claim"] is None and data["candidates"] == []
    changes = {row["settings"]["max-unchanged-words"]: row["change"]
               for row in data["sensitivity"]}
    assert sorted(changes) == [0, 1, 3, 4, 5] and changes[5] > changes[4] > changes[3] > 0
    assert data["runs"] == 6  # the defaults and one per value


def test_a_claim_made_with_whole_essays_finds_the_unit(tmp_path: Path) -> None:
    """A gold that knows its documents adds --unit document; a claim made with it (one
    annotator's text, sentence by sentence) is found first."""
    essays = FIXTURES / "inputs" / "essays.m2"
    code, _, err = run("convert", essays, tmp_path / "text", "--to", "parallel")
    assert code == 0, err
    hyp = tmp_path / "text" / "annotator-1.txt"
    value = scored(hyp, "--gold", essays, "--unit", "document")
    assert value != scored(hyp, "--gold", essays)
    e = explain([hyp], essays, claims=[parse_claim(f"{value:.4f}")], pairs=False)
    assert e.ranked(0)[0].setting == Setting((("unit", "document"),))


def test_the_budget_bounds_the_runs() -> None:
    e = explain([HYP], GOLD, claims=[parse_claim("0.5")], budget=3)
    assert e.runs == 3 and any("past the budget of 3 runs" in n for n in e.left_out)


# ------------------------------------------------------------------ claim tables


def test_a_claim_table_says_which_setting_explains_most_rows(tmp_path: Path) -> None:
    other = tmp_path / "other.txt"
    lines = HYP.read_text(encoding="utf-8").split("\n")
    lines[0] = "My brother have a small garden behind our house ."
    other.write_text("\n".join(lines), encoding="utf-8")
    values = [scored(h, "--gold", GOLD, "--max-unchanged-words", "4") for h in (HYP, other)]
    table = tmp_path / "claims.tsv"
    table.write_text(f"system\tF0.5\nsystem.txt\t{values[0] * 100:.2f}\n"
                     f"other\t{values[1] * 100:.2f}\nnobody\t0.5\n", encoding="utf-8")
    code, out, err = run("explain", HYP, other, "--gold", GOLD, "--claim-table", table,
                         "--factor", "max-unchanged-words", "--factor", "beta")
    assert code == 0, err
    assert "no HYP named nobody" in err
    assert ("The setting that explains the most rows: max_unchanged_words 4 (default 2) "
            "(2 of 2 claims within rounding)") in out
    assert "2 claims, read as percentages" in out
    code, out, err = run("explain", HYP, other, "--gold", GOLD, "--claim-table", table,
                         "--factor", "max-unchanged-words", "--format", "json")
    data = json.loads(out)
    assert data["explains_most"]["matches"] == 2
    assert data["explains_most"]["command"].endswith("--max-unchanged-words 4")
    assert [r["match"] for r in data["rows"]] == [True, True]
    assert set(data["sensitivity"][0]["changes"]) == {"system.txt", "other.txt"}


def test_claim_tables_read_headers_columns_and_spaces(tmp_path: Path) -> None:
    gjg = tmp_path / "scores.m2"
    gjg.write_text("AMU 0.3510 0.4147 0.2174\n\n# a comment\nCAMB 0.3703 0.3924 0.3024\n")
    assert [(s, c.value) for s, c in read_claim_table(str(gjg))] == [("AMU", 0.351),
                                                                      ("CAMB", 0.3703)]
    assert read_claim_table(str(gjg), "3")[1][1].value == 0.3924
    seeda = tmp_path / "readme.tsv"
    seeda.write_text("system\tM2\tSentM2\nBART\t50.3\t51.29\n")
    rows = read_claim_table(str(seeda), "SentM2")
    assert rows[0][0] == "BART" and rows[0][1].value == pytest.approx(0.5129)
    mixed = tmp_path / "mixed.tsv"
    mixed.write_text("system\tM2\nBART\t50.3\nINPUT\t0.0\n")
    zero = read_claim_table(str(mixed))[1][1]  # 0 % among percentages, not a fraction
    assert zero.percent and zero.tolerance == pytest.approx(5e-4)
    claims, unknown = match_claims(["BART.txt", "T5.txt"], rows)
    assert claims[0] is rows[0][1] and claims[1] is None and unknown == []
    with pytest.raises(UsageError, match="header names M2, SentM2"):
        read_claim_table(str(seeda), "PT-M2")
    bad = tmp_path / "bad.tsv"
    bad.write_text("AMU\t0.35\nCAMB\tabout 0.37\n")
    with pytest.raises(GecFormatError, match="bad.tsv:2:"):
        read_claim_table(str(bad))


@pytest.mark.parametrize("args, status, message", [
    (["--claim", "0.5", "--claim-table", "t.tsv"], 2, "give one"),
    (["--claim", "zero"], 2, "is not a number"),
    (["--claim", "0.5", "--column", "gleu"], 2, "--metric m2's columns are"),
    (["--factor", "colour"], 2, "the factors are gold, tokenization"),
    (["--claim-column", "M2"], 2, "goes with --claim-table"),
    (["--budget", "0"], 2, "--budget"),
])
def test_refusals(args: list[str], status: int, message: str) -> None:
    code, out, err = run("explain", HYP, "--gold", GOLD, *args)
    assert code == status and message in err and out == ""
    assert len(err.strip().splitlines()) == 1


def test_one_claim_for_several_systems_and_standard_input_are_refused() -> None:
    code, _, err = run("explain", HYP, HYP, "--gold", GOLD, "--claim", "0.5")
    assert code == 2 and "--claim-table" in err
    code, _, err = run("explain", "-", "--gold", GOLD)
    assert code == 2 and "not standard input" in err


def test_a_gold_that_does_not_fit_is_bad_data(tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("one line\n")
    code, out, err = run("explain", short, "--gold", GOLD, "--claim", "0.5")
    assert code == 1 and out == "" and err.startswith("gecformats: ")


# ------------------------------------------------------------------ CoNLL-2014


@pytest.mark.shared(COMBINED)
def test_conll14_claim_made_with_max_unchanged_words_3_is_found() -> None:
    amu = SHARED / CONLL / "official_submissions/AMU"
    value = scored(amu, "--gold", SHARED / COMBINED, "--max-unchanged-words", "3")
    e = explain([amu], SHARED / COMBINED, claims=[parse_claim(f"{value:.4f}")],
                factors=["max-unchanged-words", "beta"])
    best = e.ranked(0)[0]
    assert best.setting == Setting((("max-unchanged-words", 3),))
    assert f"{best.scores[0]:.4f}" == "0.3546"

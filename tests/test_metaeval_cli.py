"""``gecformats meta-eval`` on a tiny SEEDA-shaped folder: formats, options, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gecformats.cli import app
from gecformats.metaeval.render import SYSTEM_COLUMNS
from metaeval_data import write_gjg15, write_seeda

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["meta-eval", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def seeda(tmp_path: Path) -> Path:
    return write_seeda(tmp_path)


def test_tsv_columns_and_rows(seeda: Path) -> None:
    code, out, _ = _run("--dataset", "seeda", "--data", str(seeda), "--metric", "m2",
                        "--metric", "length", "--ci", "20", "--format", "tsv")
    assert code == 0
    lines = out.splitlines()
    header = lines[0].split("\t")
    assert header == list(SYSTEM_COLUMNS)
    assert header[:5] == ["metric", "config", "human", "pearson", "pearson_low"]
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:]]
    assert len(rows) == 2 * 4 * 4
    assert {r["config"] for r in rows} == {"base", "+INPUT", "+fluency", "all"}
    assert {r["human"] for r in rows} == {"EW_edit", "EW_sent", "TS_edit", "TS_sent"}
    assert {r["metric"] for r in rows} == {"m2", "length"}
    for r in rows:
        assert float(r["pearson_low"]) <= float(r["pearson_high"])


def test_no_intervals_leaves_the_bounds_empty(seeda: Path) -> None:
    code, out, _ = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0",
                        "--format", "tsv", "--config", "all")
    assert code == 0
    row = out.splitlines()[1].split("\t")
    assert row[:3] == ["m2", "all", "EW_edit"] and row[4:6] == ["", ""]


def test_json_text_latex(seeda: Path) -> None:
    base = ["--dataset", "seeda", "--data", str(seeda), "--ci", "10", "--config", "base",
            "--metric", "m2", "--metric", "length"]
    code, out, _ = _run(*base, "--format", "json", "--compare", "--window", "3")
    data = json.loads(out)
    assert code == 0 and data["dataset"] == "seeda" and data["subset"] is True
    assert data["sentences"] == 3 and data["resamples"] == 10
    assert len(data["system"]) == 8 and data["comparisons"] and data["windows"]
    assert data["metrics"][0]["signature"].startswith("metric:m2")
    code, out, _ = _run(*base)
    assert code == 0 and "95% bootstrap intervals over 10 resamples" in out
    code, out, _ = _run(*base, "--format", "latex")
    assert code == 0 and out.startswith("\\begin{tabular}") and "EW\\_edit" in out


def test_json_writes_null_where_a_value_is_undefined(seeda: Path) -> None:
    """One ranking item whose two systems the metric ties: no pair is left under the skip
    convention, its accuracy and tau are undefined.  JSON has no NaN: it was written as
    the token ``NaN``, which JSON parsers refuse; now ``null``."""
    for name in ("edit", "sent"):
        (seeda / "data" / f"judgments_{name}.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n<appraise-results>\n'
            '<error-correction-ranking-result source-language="err" id="t" target-language="cor">\n'
            '  <ranking-item src-id="2" id="1" user="a">\n'
            '    <translation system="BART" rank="1"/>\n    <translation system="PIE" rank="2"/>\n'
            "  </ranking-item>\n</error-correction-ranking-result>\n</appraise-results>\n")
    code, out, _ = _run("--dataset", "seeda", "--data", str(seeda), "--level", "sentence",
                        "--metric", "m2", "--config", "base", "--metric-ties", "skip",
                        "--format", "json", "--quiet")
    assert code == 0 and "NaN" not in out
    rows = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))
    row = rows["sentence"][0]
    assert row["pairs"] == 1 and row["accuracy"] is None and row["tau"] is None
    assert row["acc_tie_skip"] is None and row["acc_tie_loss"] == 0.0


def test_gjg15(tmp_path: Path) -> None:
    folder = write_gjg15(tmp_path)
    code, out, _ = _run("--dataset", "gjg15", "--data", str(folder), "--metric", "length",
                        "--ci", "5", "--format", "tsv")
    assert code == 0
    assert [line.split("\t")[2] for line in out.splitlines()[1:]] == ["EW", "TS"]


def test_usage_errors(seeda: Path, tmp_path: Path) -> None:
    base = ["--dataset", "seeda", "--data", str(seeda), "--ci", "0"]
    assert _run(*base, "--metric", "bleu")[0] == 2
    assert _run(*base, "--config", "big")[0] == 2
    assert _run(*base, "--plot", "x.pdf")[0] == 2
    assert _run(*base, "--window", "1")[0] == 2
    assert _run("--dataset", "wmt", "--data", str(seeda))[0] == 2
    code, _, err = _run("--dataset", "seeda", "--data", str(tmp_path / "none"))
    assert code == 1 and err.startswith("gecformats: ") and len(err.splitlines()) == 1
    code, _, err = _run("--dataset", "napoles2015", "--data", str(seeda), "--level", "sentence")
    assert code == 1  # no all_judgments.csv there


def test_bad_data_names_the_file(seeda: Path) -> None:
    (seeda / "outputs" / "subset" / "PIE.txt").write_text("one line\n")
    code, _, err = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0")
    assert code == 1 and "PIE.txt" in err


@pytest.mark.parametrize("ties, acc, tau", [("loss", 2 / 3, 1 / 3), ("skip", 1.0, 1.0),
                                            ("neutral", 2 / 3, 2 / 3)])
def test_sentence_level(seeda: Path, ties: str, acc: float, tau: float) -> None:
    code, out, _ = _run("--dataset", "seeda", "--data", str(seeda), "--level", "sentence",
                        "--metric-ties", ties, "--format", "tsv")
    assert code == 0
    header, *lines = out.splitlines()
    rows = {(r["config"], r["judgments"]): r for r in
            (dict(zip(header.split("\t"), line.split("\t"))) for line in lines)}
    base = rows[("base", "SEEDA-E")]
    assert (base["pairs"], base["concordant"], base["discordant"]) == ("3", "2", "0")
    assert (base["ties_human_prefers_first"], base["ties_human_prefers_second"]) == ("1", "0")
    assert float(base["accuracy"]) == pytest.approx(acc)
    assert float(base["tau"]) == pytest.approx(tau)
    assert rows[("all", "SEEDA-S")]["discordant"] == "1"


def test_sentence_level_text_and_full(seeda: Path) -> None:
    code, out, _ = _run("--dataset", "seeda", "--data", str(seeda), "--level", "sentence",
                        "--full", "--config", "base")
    assert code == 0 and "metric ties: loss" in out and "5 sentences (all sentences)" in out


def test_plot_writes_svg(seeda: Path, tmp_path: Path) -> None:
    pytest.importorskip("gecformats.metaeval.plot")
    target = tmp_path / "plot.svg"
    code, _, _ = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0", "--config",
                      "base", "--plot", str(target))
    assert code == 0 and target.read_text().lstrip().startswith(("<svg", "<?xml"))
    code, _, _ = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0", "--metric",
                      "m2", "--metric", "length", "--plot", str(target))
    assert code == 0 and (tmp_path / "plot-length.svg").exists()


def test_plot_writes_png(seeda: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "plot.png"
    code, _, _ = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0", "--config",
                      "base", "--plot", str(target))
    assert code == 0 and target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    again = tmp_path / "again.png"
    _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0", "--config", "base",
         "--plot", str(again))
    assert again.read_bytes() == target.read_bytes()  # no timestamp in the file


def test_png_without_matplotlib_is_refused_before_work(seeda: Path, hide_module) -> None:
    hide_module("matplotlib")
    code, out, err = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0",
                          "--plot", "x.png")
    assert code == 2 and out == "" and "gecformats[plot]" in err


def test_a_bad_subset_gold_names_the_gold_and_its_line(seeda: Path) -> None:
    """The subset's gold is a temporary file: its errors name the user's gold and line."""
    gold = seeda.parent / "conll14" / "conll14st-test-data" / "noalt" / "official-2014.combined.m2"
    lines = gold.read_text().splitlines()
    assert lines[8] == "S She like apples ."  # sentence 2 (in the subset), line 9
    lines.insert(9, "A 1 x|||SVA|||likes|||REQUIRED|||-NONE-|||0")
    gold.write_text("\n".join(lines) + "\n")
    code, _, err = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0")
    assert code == 1 and err.startswith(f"gecformats: {gold}:10: ") and "gecformats-metaeval-" not in err
    (seeda / "outputs" / "subset" / "PIE.txt").write_text("one line\n")
    gold.write_text("\n".join(lines[:9] + lines[10:]) + "\n")
    code, _, err = _run("--dataset", "seeda", "--data", str(seeda), "--ci", "0")
    assert code == 1 and "PIE.txt" in err and f"{gold} (its sentences at the subset ids)" in err


def test_a_src_id_that_is_no_sentence_names_its_file_and_line(seeda: Path) -> None:
    """Found by the fuzz target: the message named the other judgment file and no line; and
    with --full, SEEDA's src-id 0 (1-based ids) read the last sentence's scores."""
    path = seeda / "data" / "judgments_sent.xml"
    text = path.read_text()
    path.write_text(text.replace('src-id="5"', 'src-id="4"'))  # 0-based 3: not in the subset
    code, _, err = _run("--dataset", "seeda", "--data", str(seeda), "--level", "sentence")
    assert code == 1 and err == (f"gecformats: {path}:9: src-id 4 is not a sentence of the "
                                 "subset (3 sentences)\n")
    path.write_text(text.replace('src-id="5"', 'src-id="0"'))
    code, _, err = _run("--dataset", "seeda", "--data", str(seeda), "--level", "sentence",
                        "--full")
    assert code == 1 and err.startswith(f"gecformats: {path}:9: src-id 0 is below 1")


def test_several_outputs_from_one_run(seeda: Path, tmp_path: Path) -> None:
    args = ["--dataset", "seeda", "--data", str(seeda), "--ci", "20", "--quiet"]
    files = {"text": "m.txt", "json": "m.json", "tsv": "m.tsv", "latex": "m.tex"}
    code, out, _ = _run(*args, *[x for f in files.values() for x in ("-o", str(tmp_path / f))])
    assert code == 0 and out == ""
    for fmt, name in files.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == _run(*args, "--format", fmt)[1]
    code, out, _ = _run(*args, "--format", "tsv", "-o", str(tmp_path / "again.json"))
    assert code == 0 and out == (tmp_path / "m.tsv").read_text(encoding="utf-8")
    code, _, err = _run(*args, "-o", str(tmp_path / "m.csv"))
    assert code == 2 and ".tex (latex)" in err and ".csv" not in err.split(":", 2)[2]

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats import __version__
from gecformats.cli import app

CONLL = FIXTURES / "m2" / "conll14.m2"


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_convert_m2_to_m2(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    code, _, err = run("convert", CONLL, out)
    assert code == 0 and out.read_bytes() == CONLL.read_bytes()
    assert "wrote 6 sentences" in err


def test_convert_deletion_option(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    assert run("convert", FIXTURES / "m2" / "nlpcc.m2", out, "--deletion", "empty")[0] == 0
    assert "-NONE-|||REQUIRED|||-NONE-|||0" not in out.read_text(encoding="utf-8")


def test_convert_targets_first_reports_the_loss(tmp_path: Path) -> None:
    out = tmp_path / "nus.m2"
    code, _, err = run("convert", FIXTURES / "m2" / "cherrant.m2.char", out, "--targets", "first")
    assert code == 0
    assert "dropped 1 alternative alignments" in err and "sentence 2" in err
    assert "T0" not in out.read_text(encoding="utf-8")


def test_convert_unknown_suffix_needs_a_format(tmp_path: Path) -> None:
    code, _, err = run("convert", CONLL, tmp_path / "out.txt")
    assert code == 2 and "--from/--to" in err
    code, _, err = run("convert", CONLL, tmp_path / "out.txt", "--to", "nope")
    assert code == 2 and "unknown format 'nope'" in err
    assert list(tmp_path.iterdir()) == []


def test_convert_bad_input_leaves_no_output(tmp_path: Path) -> None:
    bad = tmp_path / "bad.m2"
    bad.write_text("S a\n\n" * 100 + "S b\nA 0 x|||X|||y|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    out = tmp_path / "out.m2"
    code, _, err = run("convert", bad, out)
    assert code == 1
    assert err.strip() == f"gecformats: {bad}:202: offsets must be two integers, not '0 x'"
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["bad.m2"]


def test_convert_missing_input(tmp_path: Path) -> None:
    code, _, err = run("convert", tmp_path / "missing.m2", tmp_path / "out.m2")
    assert code == 1 and "missing.m2: No such file or directory" in err


def test_stats_text_and_json() -> None:
    code, out, _ = run("stats", CONLL)
    assert code == 0 and "sentences     6" in out
    code, out, _ = run("stats", CONLL, "--json")
    data = json.loads(out)
    assert set(data) >= {"sentences", "tokens", "annotators", "types", "alternatives"}
    assert data["annotators"]["0"] == {"edits": 7, "noop": 1}


def test_stats_conll14_combined() -> None:
    path = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    data = json.loads(run("stats", path, "--json")[1])
    assert (data["sentences"], data["tokens"]) == (1312, 30144)
    assert data["annotators"] == {"0": {"edits": 2391, "noop": 229}, "1": {"edits": 3207, "noop": 46}}


def test_validate_exit_codes_and_json(tmp_path: Path) -> None:
    code, _, err = run("validate", CONLL)
    assert code == 0 and "no problems" in err
    code, out, _ = run("validate", FIXTURES / "m2" / "invalid" / "overlap.m2")
    assert code == 1 and out.count(": overlap: ") == 2
    code, out, _ = run("validate", FIXTURES / "m2" / "invalid" / "syntax.m2", "--json")
    problems = json.loads(out)["problems"]
    assert code == 1 and [p["kind"] for p in problems] == ["syntax"] * 4
    assert set(problems[0]) == {"file", "line", "sentence", "kind", "message"}
    code, _, err = run("validate", tmp_path / "missing.m2")
    assert code == 1 and "No such file" in err
    latin1 = tmp_path / "latin1.m2"
    latin1.write_bytes(b"S caf\xe9\n")
    code, _, err = run("validate", latin1)
    assert code == 1 and "latin1.m2:1: not valid UTF-8" in err


def test_validate_nlpcc_gold() -> None:
    path = shared_file("corpora/nlpcc2018/gold.01.m2")
    code, out, _ = run("validate", path, "--json")
    found = {(p["sentence"], p["kind"]) for p in json.loads(out)["problems"]}
    assert code == 1 and {(1104, "duplicate-edit"), (1682, "offset-out-of-range")} <= found


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.strip() == f"gecformats {__version__}"


@pytest.mark.parametrize("command", [[sys.executable, "-m", "gecformats"]])
def test_module_entry_point_prints_errors_without_traceback(command: list[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.m2"
    bad.write_text("S a\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||x\n", encoding="utf-8")
    result = subprocess.run(command + ["stats", str(bad)], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.strip() == f"gecformats: {bad}:2: annotator must be an integer, not 'x'"
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------- one convention (issue 13)

COMMANDS = ["convert", "validate", "stats", "refs", "score", "gleu", "correlate"]


def test_top_level_help_names_every_command() -> None:
    code, out, _ = run("--help")
    assert code == 0 and all(command in out for command in COMMANDS)
    assert "score" in out.splitlines()[3] + out.splitlines()[4] or "GLEU" in out


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_renders_switches_as_switches(command: str | None) -> None:
    code, out, _ = run(*([command] if command else []), "--help")
    assert code == 0 and "<bool>" not in out and "BOOLEAN" not in out


@pytest.mark.parametrize("args", [
    ["score", str(CONLL), "--gold", str(CONLL), "--beta", "nan"],
    ["convert", str(CONLL)],
    ["stats", str(CONLL), "--bogus"],
    ["refs", str(CONLL), "--max", "0"],
    ["convert", str(CONLL), "out.m2", "--from", "nope"],
])
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == "" and err.startswith("gecformats: ") and err.count("\n") == 1


@pytest.mark.parametrize("command", [["convert", "{}", "{out}"], ["validate", "{}"], ["stats", "{}"],
                                     ["refs", "{}"], ["score", "{}", "--gold", "{}"]])
def test_missing_input_is_bad_data_exit_1(tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "missing.m2"
    args = [a.format(missing, out=tmp_path / "out.m2") for a in command]
    code, _, err = run(*args)
    assert code == 1 and "missing.m2" in err and err.count("\n") == 1


def test_suffixless_m2_is_recognised(tmp_path: Path) -> None:
    gold = tmp_path / "gold.01"  # NLPCC 2018's gold file has no suffix
    gold.write_bytes(CONLL.read_bytes())
    assert run("stats", gold)[0] == 0
    assert run("validate", gold)[0] == 0
    code, out, _ = run("convert", gold, "-")
    assert code == 0 and out == CONLL.read_text(encoding="utf-8")


def test_an_unknown_suffixless_input_asks_for_from_with_the_command(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_text("hello\n")
    code, _, err = run("convert", plain, tmp_path / "out.m2")
    assert code == 2 and f"gecformats convert {plain} {tmp_path / 'out.m2'} --from parallel" in err


def test_convert_to_standard_output_keeps_the_input_format() -> None:
    code, out, _ = run("convert", CONLL, "-")
    assert code == 0 and out == CONLL.read_text(encoding="utf-8")


def test_standard_input_is_sniffed(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["stats", "-"], input=CONLL.read_text(encoding="utf-8"))
    assert result.exit_code in (0, 2)  # a test runner's stdin cannot be peeked at: --from m2
    result = CliRunner().invoke(app, ["stats", "-", "--from", "m2"], input=CONLL.read_text(encoding="utf-8"))
    assert result.exit_code == 0


def test_a_directory_where_a_file_is_expected(tmp_path: Path) -> None:
    folder = tmp_path / "folder.m2"
    folder.mkdir()
    code, _, err = run("stats", folder)
    assert code == 1 and "folder.m2" in err and "directory" in err.lower()


# ------------------------------------------------------------- issue 22: options given twice

def _click_commands() -> dict[str, object]:
    group = typer.main.get_command(app)
    ctx = group.context_class(group)
    # commands load when looked up (gecformats.cli.COMMANDS): look every one up
    return {name: group.get_command(ctx, name) for name in group.list_commands(ctx)}  # type: ignore[attr-defined]


def test_score_gold_twice_is_a_usage_error() -> None:
    # the original command: `score --gold A --gold B` used to score against B, exit 0
    other = FIXTURES / "score" / "sample.m2"
    code, out, err = run("score", FIXTURES / "score" / "sample.hyp", "--gold", other, "--gold", CONLL)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("gecformats: Option '--gold' given more than once")


def _single_options() -> list[tuple[str, list[str], bool]]:
    found = []
    for name, command in _click_commands().items():
        for param in command.params:  # type: ignore[attr-defined]
            if param.param_type_name == "option" and not param.multiple and not param.is_eager:
                found.append((name, [*param.opts, *param.secondary_opts], param.is_flag))
    return found


@pytest.mark.parametrize("command, names, flag", _single_options(),
                         ids=[f"{c}{n[0]}" for c, n, _ in _single_options()])
def test_every_single_option_of_every_command_refuses_a_repeat(
        command: str, names: list[str], flag: bool) -> None:
    for first, second in {(names[0], names[0]), (names[0], names[-1])}:
        given = [first, second] if flag else [first, "1", second, "2"]
        code, out, err = run(command, *given)
        hint = " / ".join(f"'{n}'" for n in names)
        assert code == 2 and out == ""
        assert err.startswith(f"gecformats: Option {hint} given more than once"), err
        assert err.count("\n") == 1


def test_list_options_stay_repeatable(tmp_path: Path) -> None:
    src = tmp_path / "src.txt"
    src.write_text("a b\n", encoding="utf-8")
    out = tmp_path / "out.m2"
    code, _, err = run("convert", src, out, "--from", "parallel", "--ref", src, "--ref", src)
    assert code == 0, err
    hyp, gold = FIXTURES / "score" / "sample.hyp", FIXTURES / "score" / "sample.m2"
    assert run("gleu", hyp, "--gold", gold, "--gold", gold)[0] == 0


def test_maxmatch_refuses_a_repeated_option() -> None:
    from gecformats.m2scorer_cli import run as maxmatch_run

    hyp, gold = FIXTURES / "score" / "sample.hyp", FIXTURES / "score" / "sample.m2"
    for args in (["--beta", "1", "--beta=0.5"], ["--be", "1", "--beta", "2"], ["-v", "--very_verbose"]):
        out, err = io.StringIO(), io.StringIO()
        assert maxmatch_run([*args, str(hyp), str(gold)], out, err) == 1
        assert out.getvalue() == "" and "given more than once" in err.getvalue().splitlines()[0]
    out, err = io.StringIO(), io.StringIO()
    assert maxmatch_run(["--beta", "1", str(hyp), str(gold)], out, err) == 0


# ------------------------------------------------------------- issue 22: unknown format names

_HYP, _GOLD = FIXTURES / "score" / "sample.hyp", FIXTURES / "score" / "sample.m2"
FORMAT_OPTIONS = {
    ("convert", "--from"): ["convert", CONLL, "{out}"],
    ("convert", "--to"): ["convert", CONLL, "{out}"],
    ("validate", "--from"): ["validate", CONLL],
    ("stats", "--from"): ["stats", CONLL],
    ("refs", "--from"): ["refs", CONLL],
    ("gleu", "--gold-format"): ["gleu", _HYP, "--gold", _GOLD],
    ("imeasure", "--gold-format"): ["imeasure", _HYP, "--gold", _GOLD],
    ("score", "--gold-format"): ["score", _HYP, "--gold", _GOLD],
    ("align", "--gold-format"): ["align", _HYP, "--gold", _GOLD],
}


def test_the_format_table_covers_every_format_option() -> None:
    found = {(name, opt) for name, command in _click_commands().items()
             for param in command.params  # type: ignore[attr-defined]
             for opt in param.opts if opt in ("--from", "--to", "--gold-format")}
    assert found == set(FORMAT_OPTIONS)


@pytest.mark.parametrize("key", list(FORMAT_OPTIONS), ids="".join)
def test_an_unknown_format_name_is_a_usage_error(key: tuple[str, str], tmp_path: Path) -> None:
    # the original command: `validate --from nosuch` exited 1 (bad data)
    args = [str(a).format(out=tmp_path / "out.m2") for a in FORMAT_OPTIONS[key]]
    code, out, err = run(*args, key[1], "nosuch")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "unknown format 'nosuch' (known: m2, " in err
    assert not (tmp_path / "out.m2").exists()


def test_a_format_a_command_cannot_take_is_a_usage_error() -> None:
    code, _, err = run("validate", CONLL, "--from", "fce")
    assert code == 2 and "cannot validate format 'fce'" in err
    code, _, err = run("imeasure", _HYP, "--gold", _GOLD, "--gold-format", "tsv")
    assert code == 2 and "--gold-format ixml or m2" in err


# ------------------------------------------------------------- issue 22: --from from the content

@pytest.mark.parametrize("content, suggested", [
    ("He go home .\nShe like it .\n", "--from parallel --ref REF.txt"),
    ("He go home .\tHe goes home .\n", "--from tsv"),
    ("1\t1\t我在家里一个人学习中文。\t我在家里自学中文。\n2\t0\t我是里阿德，来自以色列。\n", "--from nlpcc"),
    ("7\t我在家里自学中文。\t没有错误\n", "--from cherrant"),
    ('{"id": "A1", "text": "He go.", "edits": []}\n', "--from bea"),
    ('<DOC nid="1">\n<TEXT>\n', "--from nucle"),
    ("s1\t3\t6\tis\n", "--from c4edits"),
    ("\x00\x01\x02", "--from FORMAT"),
    ("", "--from FORMAT"),
])
def test_a_suffixless_input_gets_the_format_its_content_suggests(
        tmp_path: Path, content: str, suggested: str) -> None:
    # the original command: every such file was told `--from m2`
    path = tmp_path / "data"
    path.write_text(content, encoding="utf-8")
    code, out, err = run("convert", path, tmp_path / "out.m2")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"name it, e.g.: gecformats convert {path} {tmp_path / 'out.m2'} {suggested} (" in err
    code, _, err = run("stats", path)
    assert code == 2 and f"gecformats stats {path} {suggested.split(' --ref')[0]} (" in err


def test_the_nlpcc_training_sample_is_told_nlpcc(tmp_path: Path) -> None:
    path = shared_file("corpora/nlpcc2018/data.train.sample73.txt")
    code, _, err = run("convert", path, tmp_path / "out.m2")
    assert code == 2 and f"{path} {tmp_path / 'out.m2'} --from nlpcc (" in err
    assert "NLPCC 2018 training data" in err


def test_shards_without_to_says_the_output_is_a_folder(tmp_path: Path) -> None:
    # the original command: "cannot tell the format of 'sh' from its suffix"
    out = tmp_path / "sh"
    code, _, err = run("convert", FIXTURES / "bea" / "sample.json", out, "--shards", "1")
    assert code == 2 and err.count("\n") == 1
    assert f"with --shards, '{out}' is a folder of parts whose format comes from --to" in err
    assert not out.exists()


# ------------------------------------------------------------- issue 22: source mismatch message

def test_source_mismatch_shows_the_first_differing_token(tmp_path: Path) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S It is a concern that will be with us during our whole life , because "
                    "the ''potential bomb' ' will explode .\n\n", encoding="utf-8")
    src, hyp = tmp_path / "src.txt", tmp_path / "hyp.txt"
    src.write_text(gold.read_text(encoding="utf-8")[2:].strip() + "\n", encoding="utf-8")
    hyp.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    for tokenizer, code_wanted in (("en", 1), ("space", 0)):
        out = tmp_path / f"{tokenizer}.m2"
        assert run("convert", src, out, "--from", "parallel", "--ref", hyp, "--tokenizer", tokenizer, "-q")[0] == 0
        code, _, err = run("score", out, "--gold", gold, "--metric", "errant")
        assert code == code_wanted, err
    assert err == ""
    code, _, err = run("score", tmp_path / "en.m2", "--gold", gold, "--metric", "errant")
    assert err.count("\n") == 1
    assert ('token 17 is "\'\'" in the hypothesis, "\'\'potential" in the gold '
            '("… life , because the \'\' potential bomb \' \' …" vs ') in err
    assert "vs \"… life , because the ''potential bomb' ' will explode …\"" in err
    assert "tokenized differently" in err and "--tokenizer space" in err


def test_source_mismatch_of_other_sentences_says_no_more() -> None:
    from gecformats.errors import source_difference

    said = source_difference("a b c d".split(), "a b x d e".split())
    assert said == "token 3 is \"c\" in the hypothesis, \"x\" in the gold ('a b c d' vs 'a b x d e')"
    assert source_difference(["a"], ["a", "b"]).startswith('token 2 is the end in the hypothesis, "b"')


def test_conll14_source_mismatch_names_the_tokenizer(tmp_path: Path) -> None:
    # the original command: an M2 made with the default tokenizer from the tokenized output
    conll = "corpora/conll14"
    source, amu = shared_file(f"{conll}/official_submissions/INPUT"), shared_file(f"{conll}/official_submissions/AMU")
    gold = shared_file(f"{conll}/conll14st-test-data/noalt/official-2014.combined.m2")
    out = tmp_path / "amu.m2"
    assert run("convert", source, out, "--from", "parallel", "--ref", amu, "-q")[0] == 0
    code, _, err = run("score", out, "--gold", gold, "--metric", "errant")
    assert code == 1 and "sentence 16: " in err and "It is a concern" not in err
    assert 'token 22 is "\'\'" in the hypothesis, "\'\'potential" in the gold' in err
    assert "--tokenizer space" in err


# ------------------------------------------------------------- issue 22: help at 80 columns

def _width(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize("command", [None, *_click_commands()])
def test_help_is_readable_at_80_columns(command: str | None) -> None:
    args = ([command] if command else []) + ["--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and "Usage: gecformats" in lines[0]
    assert all(_width(line) <= 80 for line in lines), max(lines, key=_width)
    # descriptions start at most 34 columns in: 46 characters of text a line at least
    starts = [len(line) - len(line.lstrip()) for line in lines if line.startswith("  ") and "  " in line.strip()]
    assert all(start <= 34 for start in starts)
    assert len(lines) < 160


def test_convert_help_names_the_dask_extra() -> None:
    # the original command: `convert --help` printed pip install 'gecformats'
    result = CliRunner().invoke(app, ["convert", "--help"], env={"COLUMNS": "80"})
    assert "pip install" in result.stdout
    assert "'gecformats[dask]'" in " ".join(result.stdout.split())


def test_a_command_that_cannot_read_the_suggested_format_says_so(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_text("He go home .\n", encoding="utf-8")
    code, _, err = run("imeasure", _HYP, "--gold", plain)
    assert code == 2 and "looks like plain text" in err and "(it reads: ixml, m2)" in err
    assert "--gold-format parallel" not in err
    code, _, err = run("refs", plain)
    assert code == 2 and "(it reads: ixml, m2, conll)" in err


# ------------------------------------------------- convert: what is lost is said (issue 34)

UAGEC_M2 = FIXTURES / "uagec" / "sample.m2"  # two documents, two annotators


def test_convert_says_what_the_output_lost_even_with_q(tmp_path: Path) -> None:
    code, out, err = run("convert", UAGEC_M2, tmp_path / "hoo", "--to", "hoo2011", "-q")
    assert code == 0 and out == ""
    assert err == ("gecformats: the output holds fewer than the input: 2 → 1 annotators, "
                   "3 → 2 edits (every count with --report R.json; --strict refuses this)\n")
    code, out, err = run("convert", UAGEC_M2, tmp_path / "same.m2", "-q")
    assert code == 0 and err == ""


def test_convert_report_has_the_counts_of_every_conversion(tmp_path: Path) -> None:
    """--report wrote nothing for a conversion without a change of unit (M2 → UA-GEC)."""
    code, _, err = run("convert", UAGEC_M2, tmp_path / "hoo", "--to", "hoo2011",
                       "--report", tmp_path / "r.json")
    assert code == 0 and f"every count in {tmp_path / 'r.json'}" in err
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["read"] == {"sentences": 3, "documents": 2, "annotators": 2, "edits": 3,
                              "alternatives": 0}
    assert report["written"] == {"sentences": None, "documents": 2, "annotators": 1,
                                 "edits": 2, "alternatives": 0}
    assert report["difference"] == {"annotators": 1, "edits": 1}
    assert run("convert", UAGEC_M2, tmp_path / "out", "--to", "uagec", "--report",
               tmp_path / "u.json")[0] == 0
    assert json.loads((tmp_path / "u.json").read_text(encoding="utf-8"))["difference"] == {}


def test_convert_strict_refuses_a_loss_and_writes_nothing(tmp_path: Path) -> None:
    code, _, err = run("convert", UAGEC_M2, tmp_path / "hoo", "--to", "hoo2011", "--strict")
    assert code == 1 and "--strict: the conversion would lose something (2 → 1 annotators, " \
        "3 → 2 edits), so nothing is written" in err
    assert list(tmp_path.iterdir()) == []
    assert run("convert", UAGEC_M2, tmp_path / "out", "--to", "uagec", "--strict")[0] == 0
    # more in the output is said, not refused: --text cuts one M2 file into its documents
    run("convert", FIXTURES / "hoo2011", tmp_path / "hoo.m2", "--from", "hoo2011")
    code, _, err = run("convert", tmp_path / "hoo.m2", tmp_path / "back", "--to", "hoo2011",
                       "--text", FIXTURES / "hoo2011" / "Raw", "--strict")
    assert code == 0 and "the output holds more than the input: 1 → 2 documents (every " \
        "count with --report R.json)\n" in err
    code, _, err = run("convert", UAGEC_M2, tmp_path / "parts", "--to", "m2", "--shards", "2",
                       "--strict")
    assert code == 2 and "--strict" in err and not (tmp_path / "parts").exists()


def test_convert_to_standard_output_is_counted_and_whole_or_nothing(tmp_path: Path) -> None:
    code, out, err = run("convert", UAGEC_M2, "-", "--to", "tsv", "-q")
    assert code == 0 and out.count("\n") == 3
    assert "2 → 1 documents" in err  # tsv keeps no document boundaries
    bad = tmp_path / "bad.m2"
    bad.write_text("S a b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n\nS c\ngarbage\n",
                   encoding="utf-8")
    code, out, err = run("convert", bad, "-", "--to", "m2")
    assert code == 1 and out == "" and "garbage" in err


# ------------------------------------------------------------- the help says what the code does (issue 34)

def _option_help(command: str, name: str) -> str:
    """The help text of option ``--name`` of ``command``, on one line."""
    params = _click_commands()[command].params  # type: ignore[attr-defined]
    return " ".join(next(p for p in params if f"--{name}" in p.opts).help.split())


@pytest.mark.parametrize("command", ["score", "report", "meta-eval"])
def test_the_metric_help_names_every_registered_metric(command: str) -> None:
    # meta-eval's list lacked cleme, cleme2 and gotoscorer, which it scores
    import re

    from gecformats.metrics.request import METRICS

    text = _option_help(command, "metric")
    out = " ".join(CliRunner().invoke(app, [command, "--help"]).stdout.split())
    for name in METRICS:
        assert re.search(rf"(?<![\w-]){name}(?![\w-])", text), f"{command} --metric: {name}"
        assert name in out
    choices = _click_commands()[command].params  # type: ignore[attr-defined]
    metric = next(p for p in choices if "--metric" in p.opts)
    if command != "meta-eval":  # a list of names; meta-eval also takes length
        assert list(metric.type.choices) == list(METRICS)


@pytest.mark.parametrize("command", ["score", "report"])
def test_the_max_edges_help_gives_the_default_in_force(command: str) -> None:
    # the help said 1,000,000, the scorer used 2,500,000
    from maxmatch import DEFAULT_MAX_EDGES

    assert f"(default {DEFAULT_MAX_EDGES:,};" in _option_help(command, "max-edges")


def test_every_mention_of_the_edge_limit_gives_the_default_in_force() -> None:
    import re

    from gecformats.m2scorer_cli import USAGE
    from maxmatch import DEFAULT_MAX_EDGES

    assert f"Default {DEFAULT_MAX_EDGES}." in USAGE
    root = Path(__file__).resolve().parent.parent
    docs = "".join(p.read_text(encoding="utf-8") for p in [root / "README.md", *(root / "docs").rglob("*.md")])
    said = re.findall(r"--max-edges N` \(default ([\d,]+)", docs)
    said += re.findall(r"\[--max-edges (\d+)\]", docs)
    assert len(said) >= 3 and {s.replace(",", "") for s in said} == {str(DEFAULT_MAX_EDGES)}


def test_top_level_help_and_description_say_what_there_is() -> None:
    import re

    from gecformats.formats import NAMES
    from gecformats.metrics.request import METRICS, metric_class

    out = " ".join(run("--help")[1].split())
    assert f"{len(NAMES)} data formats" in out and f"{len(METRICS)} metrics" in out
    assert "meta-evaluation" in out and "HTML" in out
    root = Path(__file__).resolve().parent.parent
    description = re.search(r'^description = "(.*)"$', (root / "pyproject.toml").read_text(
        encoding="utf-8"), re.M).group(1)  # type: ignore[union-attr]  (no tomllib in 3.10)
    for name in METRICS:
        assert metric_class(name).label in description


@pytest.mark.parametrize("command", ["score", "report", "meta-eval"])
def test_the_command_line_synopsis_names_every_registered_metric(command: str) -> None:
    import re

    from gecformats.metrics.request import METRICS

    page = Path(__file__).resolve().parent.parent / "docs" / "reference" / "command-line.md"
    text = page.read_text(encoding="utf-8")
    summary = text[text.index("\n## Synopsis"):]
    start = summary.index(f"\ngecformats {command} ")
    names = re.search(r"\[--metric ([\w|]+) \.\.\.\]", summary[start:]).group(1)  # type: ignore[union-attr]
    assert set(METRICS) <= set(names.split("|"))


@pytest.mark.parametrize("command", ["convert", "score", "meta-eval"])
def test_the_spacy_model_help_names_the_models_tried_in_order(command: str) -> None:
    from gecformats.convert.errant_extract import MODELS

    assert f"default {', else '.join(MODELS)})" in _option_help(command, "spacy-model")

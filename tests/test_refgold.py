"""score --source SRC --ref R...: a gold extracted from references given as text
(gecformats.metrics.refgold), for every metric, with the extractor of the hypotheses."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import in_ci, shared_file
from gecformats.cli import app

SOURCE = "He go to school yesterday .\nShe like apple .\nThis is fine .\n"
REF0 = "He went to school yesterday .\nShe likes apples .\nThis is fine .\n"
REF1 = "He went to the school yesterday .\nShe likes an apple .\nThis is fine .\n"
HYP = "He went to school yesterday .\nShe like apples .\nThis is good .\n"


def _files(tmp_path, **texts):
    out = {}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        out[name] = str(tmp_path / name)
    return out


def _run(*args):
    return CliRunner().invoke(app, ["score", *args])


@pytest.fixture
def files(tmp_path):
    return _files(tmp_path, src=SOURCE, ref0=REF0, ref1=REF1, hyp=HYP)


def _gold_m2(files, tmp_path):
    """The same gold made by `convert` (whitespace tokens, lcs)."""
    out = str(tmp_path / "gold.m2")
    result = CliRunner().invoke(app, ["convert", files["src"], out, "--from", "parallel",
                                      "--ref", files["ref0"], "--ref", files["ref1"],
                                      "--tokenizer", "space"])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("metric", ["m2", "errant", "gleu", "imeasure"])
def test_text_references_score_as_the_converted_gold(files, tmp_path, metric):
    gold = _gold_m2(files, tmp_path)
    by_refs = _run(files["hyp"], "--source", files["src"], "--ref", files["ref0"], "--ref",
                   files["ref1"], "--metric", metric, "--format", "json")
    by_gold = _run(files["hyp"], "--gold", gold, "--metric", metric, "--format", "json")
    assert by_refs.exit_code == 0, by_refs.output
    assert by_gold.exit_code == 0, by_gold.output
    got, want = json.loads(by_refs.stdout), json.loads(by_gold.stdout)
    sig_got, sig_want = json.dumps(got).count("gold:extracted-lcs"), 0
    assert sig_got >= 1 and json.dumps(want).count("gold:extracted-lcs") == sig_want

    def numbers(value):
        if isinstance(value, dict):
            return {k: numbers(v) for k, v in value.items() if "signature" not in k}
        if isinstance(value, list):
            return [numbers(v) for v in value]
        return value
    assert numbers(got) == numbers(want)


def test_native_extracts_both_sides(files):
    result = _run(files["hyp"], "--source", files["src"], "--ref", files["ref0"], "--metric",
                  "errant", "--extractor", "native", "--format", "json")
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert "hyp:extracted-native" in got["signature"]
    assert "|gold:extracted-native|gold-file:src@" in got["signature"]


def test_signature_names_the_gold_extraction(files):
    result = _run(files["hyp"], "--source", files["src"], "--ref", files["ref0"],
                  "--metric", "m2", "--metric", "errant")
    assert result.exit_code == 0, result.output
    lines = [x for x in result.stdout.splitlines() if x.startswith("metric:")]
    assert len(lines) == 2 and all("|gold:extracted-lcs" in x for x in lines)


def test_the_extractor_goes_with_any_metric_given_text_references(files):
    result = _run(files["hyp"], "--source", files["src"], "--ref", files["ref0"],
                  "--metric", "m2", "--extractor", "lcs")
    assert result.exit_code == 0, result.output
    # without --ref it is ERRANT's option only
    from gecformats.metrics.refgold import EXTRACTORS
    assert "lcs" in EXTRACTORS
    result = _run(files["hyp"], "--gold", "x.m2", "--metric", "m2", "--extractor", "lcs")
    assert result.exit_code == 2 and "--extractor goes with --metric errant" in result.output


@pytest.mark.parametrize("args, message", [
    (["--gold", "G.m2", "--source", "S"], "not both"),
    (["--source", "S"], "go together"),
    (["--ref", "R"], "go together"),
    ([], "Missing option '--gold'"),
    (["--source", "S", "--ref", "R", "--gold-format", "m2"], "'--gold-format' is for --gold"),
])
def test_usage_errors(files, args, message):
    result = _run(files["hyp"], *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_files_of_different_lengths_are_named(files, tmp_path):
    short = _files(tmp_path, short="He went to school yesterday .\n")["short"]
    result = _run(files["hyp"], "--source", files["src"], "--ref", short)
    assert result.exit_code == 1 and "short" in result.output
    assert "Traceback" not in result.output and "metric:" not in result.output


def test_a_hypothesis_count_error_names_the_source(files, tmp_path):
    hyp = _files(tmp_path, h2="a\n")["h2"]
    result = _run(hyp, "--source", files["src"], "--ref", files["ref0"])
    assert result.exit_code == 1
    assert files["src"] in result.output and "gecformats-gold-" not in result.output


def test_the_temporary_gold_is_removed(files, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = set(tmp_path.iterdir())
    result = _run(files["hyp"], "--source", files["src"], "--ref", files["ref0"])
    assert result.exit_code == 0
    assert set(tmp_path.iterdir()) == before


@pytest.mark.parametrize("token, why", [
    ("good||nice", "'||' between alternative corrections"),
    ("good|||nice", "'|||' between an A line's fields"),
    ("good|", "would be read as M2's separators"),
    ("-NONE-", "would read back as a deletion"),
])
@pytest.mark.parametrize("command", ["score", "report"])
def test_a_reference_token_m2_cannot_hold_names_the_reference_and_line(tmp_path, monkeypatch,
                                                                       token, why, command):
    """It was a ValueError traceback from the M2 writer of the temporary gold."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    f = _files(tmp_path, src=SOURCE, hyp=HYP, ref0=REF0, ref1=REF1.replace("fine", token))
    before = set(tmp_path.iterdir())
    args = [f["hyp"], "--source", f["src"], "--ref", f["ref0"], "--ref", f["ref1"]]
    if command == "report":
        args += ["-o", str(tmp_path / "r.html")]
    result = CliRunner().invoke(app, [command, *args])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"gecformats: {f['ref1']}:3: this reference cannot be scored")
    assert why in result.stderr and "gecformats-gold-" not in result.stderr
    assert set(tmp_path.iterdir()) == before  # no temporary gold, no report left


def test_tokenize_applies_to_the_references_too(tmp_path):
    f = _files(tmp_path, src="He go to school, yesterday.\n", ref="He went to school yesterday.\n",
               hyp="He went to school, yesterday.\n")
    result = _run(f["hyp"], "--source", f["src"], "--ref", f["ref"], "--tokenize", "en",
                  "--format", "json")
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert (got["correct"], got["proposed"], got["gold"]) == (1, 1, 2)
    assert "tokenize-en" in got["signature"]


# ------------------------------------------------------------ ERRANT itself (optional extra)

CONLL = "corpora/conll14"


def _head(path, n, out):
    with open(path, encoding="utf-8", newline="") as fh:
        out.write_text("".join(next(fh) for _ in range(n)), encoding="utf-8")
    return str(out)


def _need_errant():
    if not in_ci():
        pytest.importorskip("errant")
        pytest.importorskip("spacy")


def test_errant_refuses_an_empty_source_line(tmp_path):
    _need_errant()
    f = _files(tmp_path, src="A b .\n\n", ref="A c .\n\n", hyp="A b .\n\n")
    result = _run(f["hyp"], "--source", f["src"], "--ref", f["ref"], "--metric", "errant",
                  "--extractor", "errant")
    assert result.exit_code == 1
    assert f"{f['src']}:2: an empty source line" in result.output


def test_errant_text_gold_and_hypothesis_equal_errant_parallel_files(tmp_path):
    """The first 200 CoNLL-2014 sentences: AMU as text against trg0/trg1 as text, both
    extracted by ERRANT, give errant_compare's numbers and categories of the
    errant_parallel files (hyp/AMU.m2 against ref.m2)."""
    _need_errant()
    n = 200
    src = _head(shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src"), n, tmp_path / "src")
    refs = [_head(shared_file(f"{CONLL}/gecmetrics/refs/conll14st-test.tok.trg{k}"), n,
                  tmp_path / f"ref{k}") for k in (0, 1)]
    hyp = _head(shared_file(f"{CONLL}/official_submissions/AMU"), n, tmp_path / "AMU")
    blocks = lambda p: "\n\n".join(open(p, encoding="utf-8").read().split("\n\n")[:n]) + "\n\n"
    (tmp_path / "ref.m2").write_text(blocks(shared_file("reference/errant/ref.m2")), "utf-8")
    (tmp_path / "AMU.m2").write_text(blocks(shared_file("reference/errant/hyp/AMU.m2")), "utf-8")
    text = _run(hyp, "--source", src, "--ref", refs[0], "--ref", refs[1], "--metric", "errant",
                "--extractor", "errant", "--cat", "3", "--format", "json")
    m2 = _run(str(tmp_path / "AMU.m2"), "--gold", str(tmp_path / "ref.m2"), "--metric", "errant",
              "--cat", "3", "--format", "json")
    assert text.exit_code == 0, text.output
    assert m2.exit_code == 0, m2.output
    got, want = json.loads(text.stdout), json.loads(m2.stdout)
    assert "hyp:extracted-errant-" in got["signature"] and "|gold:extracted-errant-" in got["signature"]
    for key in ("tp", "fp", "fn", "precision", "recall", "f", "categories"):
        assert got[key] == want[key], key
    assert text.stderr == ""  # ERRANT's own edits: no warning about the extraction

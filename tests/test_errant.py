"""gecformats.metrics.errant: ERRANT's errant_compare on M2 files, exactly.

The expected outputs were printed by ERRANT's own ``compare_m2.py`` (chrisjbryant/errant) on
the two hand-written files below; the test needs neither ERRANT nor the network.  They cover
two reference annotators (ties and the best-pair choice), a noop sentence in both, ``-NONE-``
and empty deletions, a ``UNK`` edit (kept only for detection), ``a||b`` alternatives (one
string to ERRANT), multi-token edits and every mode and filter.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import shared_file
from gecformats.cli import app
from gecformats.formats import m2
from gecformats.metrics.errant import MODES, compare, errant_files, f_score, format_errant

HYP = 'S This are a sentence with error .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\nA 5 5|||M:DET|||an|||REQUIRED|||-NONE-|||0\n\nS Nothing wrong here .\nA 0 1|||R:PRON|||Something|||REQUIRED|||-NONE-|||0\n\nS He go to the the school yesterday .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\nA 3 4|||U:DET||||||REQUIRED|||-NONE-|||0\nA 6 7|||UNK|||yesterday|||REQUIRED|||-NONE-|||0\n\nS I has many many book on tables .\nA 1 2|||R:VERB:TENSE|||have|||REQUIRED|||-NONE-|||0\nA 3 5|||R:OTHER|||many books|||REQUIRED|||-NONE-|||0\nA 5 7|||R:PREP|||on the table|||REQUIRED|||-NONE-|||0\n'

REF = 'S This are a sentence with error .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\nA 5 6|||R:NOUN:NUM|||errors||an error|||REQUIRED|||-NONE-|||0\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||1\nA 5 5|||M:DET|||an|||REQUIRED|||-NONE-|||1\n\nS Nothing wrong here .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\nS He go to the the school yesterday .\nA 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0\nA 3 4|||U:DET||||||REQUIRED|||-NONE-|||0\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\nA 4 5|||U:DET|||-NONE-|||REQUIRED|||-NONE-|||1\nA 6 7|||UNK|||yesterday|||REQUIRED|||-NONE-|||1\n\nS I has many many book on tables .\nA 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0\nA 3 5|||R:OTHER|||many books|||REQUIRED|||-NONE-|||0\nA 6 6|||M:DET|||the|||REQUIRED|||-NONE-|||0\nA 6 7|||R:NOUN:NUM|||table|||REQUIRED|||-NONE-|||0\n'

EXPECTED = {
    '': '\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n5\t3\t3\t0.625\t0.625\t0.625\n==============================================\n\n',
    '-cse': '\n=== Span-Based Correction + Classification ===\nTP\tFP\tFN\tPrec\tRec\tF0.5\n4\t4\t4\t0.5\t0.5\t0.5\n==============================================\n\n',
    '-ds': '\n============ Span-Based Detection ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n6\t3\t2\t0.6667\t0.75\t0.6818\n==============================================\n\n',
    '-dt': '\n=========== Token-Based Detection ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n9\t3\t0\t0.75\t1.0\t0.7895\n==============================================\n\n',
    '-single': '\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n4\t2\t3\t0.6667\t0.5714\t0.6452\n==============================================\n\n',
    '-multi': '\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n1\t1\t0\t0.5\t1.0\t0.5556\n==============================================\n\n',
    '-cat 1': '\n===================== Span-Based Correction ======================\nCategory       TP       FP       FN       P        R        F0.5\nM              1        0        1        1.0      0.5      0.8333\nR              3        3        2        0.5      0.6      0.5172\nU              1        0        0        1.0      1.0      1.0\n\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n5\t3\t3\t0.625\t0.625\t0.625\n==============================================\n\n',
    '-cat 2': '\n===================== Span-Based Correction ======================\nCategory       TP       FP       FN       P        R        F0.5\nDET            2        0        1        1.0      0.6667   0.9091\nNOUN:NUM       0        0        1        1.0      0.0      0.0\nOTHER          1        0        0        1.0      1.0      1.0\nPREP           0        1        0        0.0      1.0      0.0\nPRON           0        1        0        0.0      1.0      0.0\nVERB:SVA       2        1        0        0.6667   1.0      0.7143\nVERB:TENSE     0        0        1        1.0      0.0      0.0\n\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n5\t3\t3\t0.625\t0.625\t0.625\n==============================================\n\n',
    '-cat 3': '\n===================== Span-Based Correction ======================\nCategory       TP       FP       FN       P        R        F0.5\nM:DET          1        0        1        1.0      0.5      0.8333\nR:NOUN:NUM     0        0        1        1.0      0.0      0.0\nR:OTHER        1        0        0        1.0      1.0      1.0\nR:PREP         0        1        0        0.0      1.0      0.0\nR:PRON         0        1        0        0.0      1.0      0.0\nR:VERB:SVA     2        1        0        0.6667   1.0      0.7143\nR:VERB:TENSE   0        0        1        1.0      0.0      0.0\nU:DET          1        0        0        1.0      1.0      1.0\n\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n5\t3\t3\t0.625\t0.625\t0.625\n==============================================\n\n',
    '-b 1': '\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF1.0\n5\t3\t3\t0.625\t0.625\t0.625\n==============================================\n\n',
    '-dt -cat 3': '\n===================== Token-Based Detection ======================\nCategory       TP       FP       FN       P        R        F0.5\nM:DET          1        0        0        1.0      1.0      1.0\nR:NOUN:NUM     2        0        0        1.0      1.0      1.0\nR:OTHER        2        0        0        1.0      1.0      1.0\nR:PREP         0        1        0        0.0      1.0      0.0\nR:PRON         0        1        0        0.0      1.0      0.0\nR:VERB:SVA     2        0        0        1.0      1.0      1.0\nR:VERB:TENSE   1        0        0        1.0      1.0      1.0\nU:DET          1        0        0        1.0      1.0      1.0\nUNK            0        1        0        0.0      1.0      0.0\n\n=========== Token-Based Detection ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n9\t3\t0\t0.75\t1.0\t0.7895\n==============================================\n\n',
    '-filt R:VERB:SVA UNK': '\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n3\t3\t3\t0.5\t0.5\t0.5\n==============================================\n\n',
    '-ds -filt UNK': '\n============ Span-Based Detection ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n6\t2\t2\t0.75\t0.75\t0.75\n==============================================\n\n',
}


def options(flags: str) -> tuple[dict, int | None]:
    words = flags.split()
    kwargs: dict = {"mode": next((w[1:] for w in words if w[1:] in MODES), "cs")}
    if "-b" in words:
        kwargs["beta"] = float(words[words.index("-b") + 1])
    kwargs["single"] = "-single" in words
    kwargs["multi"] = "-multi" in words
    if "-filt" in words:
        kwargs["filter"] = words[words.index("-filt") + 1:]
    cat = int(words[words.index("-cat") + 1]) if "-cat" in words else None
    return kwargs, cat


@pytest.mark.parametrize("flags", sorted(EXPECTED))
def test_same_output_as_errant_compare(flags):
    kwargs, cat = options(flags)
    result = compare(m2.parse(HYP), m2.parse(REF), **kwargs)
    assert format_errant(result, cat) == EXPECTED[flags]


@pytest.mark.parametrize("flags", ["", "-cse", "-ds", "-dt -cat 3"])
def test_cli_format_errant(tmp_path, flags):
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text(HYP, encoding="utf-8")
    ref.write_text(REF, encoding="utf-8")
    kwargs, cat = options(flags)
    args = ["score", str(hyp), "--gold", str(ref), "--metric", "errant", "--format", "errant",
            "--errant-mode", kwargs["mode"]] + (["--cat", str(cat)] if cat else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == EXPECTED[flags]


def test_json_and_text(tmp_path):
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text(HYP, encoding="utf-8")
    ref.write_text(REF, encoding="utf-8")
    out = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(ref), "--metric", "errant",
                                   "--format", "json", "--cat", "1"]).stdout
    data = json.loads(out)
    assert (data["tp"], data["fp"], data["fn"], data["f"]) == (5, 3, 3, 0.625)
    assert data["categories"]["M"] == {"tp": 1, "fp": 0, "fn": 1, "precision": 1.0,
                                       "recall": 0.5, "f": 0.8333}
    assert data["signature"].startswith("metric:errant|mode:cs|beta:0.5|hyp:m2|")
    text = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(ref), "--metric",
                                    "errant"]).stdout
    assert text.startswith("Precision  0.6250\n")


def test_text_hypothesis_is_extracted(tmp_path):
    ref = tmp_path / "ref.m2"
    ref.write_text(REF, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("This is a sentence with an error .\nNothing wrong here .\n"
                   "He goes to the school yesterday .\nI have many books on the tables .\n",
                   encoding="utf-8")
    result = errant_files(str(hyp), str(ref))
    assert "|hyp:extracted-lcs|" in result.signature and result.extracted
    # what errant_compare prints for the M2 file of these extracted edits
    assert (result.tp, result.fp, result.fn, result.f) == (4, 3, 4, 0.5556)


@pytest.mark.parametrize("args, message", [
    (["--errant-mode", "detection"], "unknown ERRANT mode 'detection' (known: cs, cse, ds, dt)"),
    (["--mode", "cs"], "--mode goes with --metric m2 or --metric sentm2 (ERRANT's modes cs, "
                       "cse, ds, dt are --errant-mode)"),
    (["--single", "--multi"], "exclude each other"),
    (["--bonus"], "goes with --metric m2"),
    (["--format", "m2scorer"], "shows --metric m2 alone"),
])
def test_cli_errant_usage_errors(tmp_path, args, message):
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text(HYP, encoding="utf-8")
    ref.write_text(REF, encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(ref), "--metric",
                                      "errant", *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_m2_metric_refuses_errant_options(tmp_path):
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    ref.write_text(REF, encoding="utf-8")
    hyp.write_text("x\n" * 4, encoding="utf-8")
    for args in (["--cat", "1"], ["--format", "errant"], ["--single"]):
        result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(ref), *args])
        assert result.exit_code == 2 and "--metric errant" in result.stderr


def test_misaligned_inputs_are_errors(tmp_path):
    from gecformats.errors import GecFormatError

    with pytest.raises(GecFormatError, match="different numbers of sentences"):
        compare(m2.parse(HYP)[:3], m2.parse(REF))
    other = m2.parse("S Something else .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    with pytest.raises(GecFormatError, match="source differs"):
        compare(other, m2.parse(REF)[:1])


def test_f_score_is_errants():
    assert f_score(0, 0, 0, 0.5) == (1.0, 1.0, 1.0)
    assert f_score(0, 3, 0, 0.5) == (0.0, 1.0, 0.0)
    assert f_score(2, 1, 3, 1.0) == (0.6667, 0.4, 0.5)


@pytest.mark.shared("corpora/conll14/official_submissions/AMU")
def test_conll14_amu_text_hypothesis():
    """AMU's plain output against the combined gold: the numbers errant_compare prints for
    the M2 file of the extracted edits (438 TP, 774 FP, 1884 FN, F0.5 0.3054)."""
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    hyp = shared_file("corpora/conll14/official_submissions/AMU")
    result = errant_files(str(hyp), str(gold))
    assert (result.tp, result.fp, result.fn, result.f) == (438, 774, 1884, 0.3054)


# ------------------------------------------------------------------ issue 22

TEXT = ("This is a sentence with an error .\nNothing wrong here .\n"
        "He goes to the school yesterday .\nI have many books on the tables .\n")
# NUCLE's types (as in the CoNLL-2014 gold), not ERRANT's OP:CAT
NUCLE = REF.replace("R:VERB:SVA", "SVA").replace("R:NOUN:NUM", "Nn").replace("M:DET", "ArtOrDet") \
    .replace("U:DET", "ArtOrDet").replace("R:VERB:TENSE", "Vt").replace("R:OTHER", "Mec")


def _run(tmp_path, hyp_text, gold_text, *args):
    hyp, ref = tmp_path / "hyp", tmp_path / "ref.m2"
    hyp.write_text(hyp_text, encoding="utf-8")
    ref.write_text(gold_text, encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(ref), "--metric",
                                      "errant", *args])
    return result, hyp, ref


@pytest.mark.parametrize("args, blamed, words", [
    (["--errant-mode", "cse"], "ref.m2", "--errant-mode cse compares the types of both sides, and the "
                                  "hypothesis' types are ERRANT's ('R:VERB:SVA' in sentence 1), "
                                  "but the gold's types are not ERRANT's ('SVA' in sentence 1"),
    (["--cat", "1"], "ref.m2", "--cat 1 groups the types by ERRANT's operation, the letter "
                               "before ':' ('SVA' would be filed under 'S')"),
    (["--cat", "2"], "ref.m2", "--cat 2 groups the types by ERRANT's category"),
    (["--cat", "3"], "ref.m2", "--cat 3 lists the types of both sides"),
])
def test_a_gold_without_errant_types_refuses_cse_and_cat(tmp_path, args, blamed, words):
    """Issue 22 item 4: against a gold typed like NUCLE, cse gave 0 TP and --cat 1/2 filed
    types under nonsense names: now one line with the reason, exit 1."""
    result, hyp, ref = _run(tmp_path, HYP, NUCLE, *args)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"gecformats: {tmp_path / blamed}: {words}")
    assert result.stderr.count("\n") == 1 and "errant_m2 -gold" in result.stderr
    # cs needs no types: scored as ERRANT scores it
    plain, _, _ = _run(tmp_path, HYP, NUCLE, "--format", "errant")
    assert plain.exit_code == 0 and plain.stdout == EXPECTED[""]


def test_one_scheme_on_both_sides_is_scored(tmp_path):
    """NUCLE types on both sides: cse and --cat 3 compare and list them as ERRANT would."""
    result, _, _ = _run(tmp_path, NUCLE, NUCLE, "--errant-mode", "cse", "--cat", "3", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["fp"] == data["fn"] == 0 and "ArtOrDet" in data["categories"]
    result, _, _ = _run(tmp_path, NUCLE, NUCLE, "--cat", "2")
    assert result.exit_code == 1 and "not ERRANT's ('SVA' in sentence 1" in result.stderr


@pytest.mark.parametrize("args, words", [
    (["--errant-mode", "cse"], "--errant-mode cse compares the types of both sides, and the gold's types are "
                        "ERRANT's ('R:VERB:SVA' in sentence 1), but the hypothesis' edits were "
                        "extracted from text"),
    (["--cat", "2"], "--cat 2 groups the types by ERRANT's category"),
    (["--cat", "3"], "--cat 3 lists the types of both sides"),
])
def test_an_extracted_hypothesis_refuses_what_needs_its_types(tmp_path, args, words):
    result, hyp, _ = _run(tmp_path, TEXT, REF, *args)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"gecformats: {hyp}: {words}") and "--extractor errant" in result.stderr
    # --cat 1 (the operation) is what extracted edits have: scored, with the warning
    result, hyp, _ = _run(tmp_path, TEXT, REF, "--cat", "1")
    assert result.exit_code == 0 and "\nM " in result.stdout
    # ... but not against a gold whose types have no operation
    result, _, ref = _run(tmp_path, TEXT, NUCLE, "--cat", "1")
    assert result.exit_code == 1 and result.stderr.startswith(f"gecformats: {ref}: --cat 1 groups")


def test_a_text_hypothesis_is_said_to_be_extracted_every_time(tmp_path):
    """Issue 22 item 5: a warning (once, on standard error) and the signature say that
    gecformats' aligner made the edits, and how to get ERRANT's own."""
    for fmt in ("text", "json", "errant"):
        result, hyp, _ = _run(tmp_path, TEXT, REF, "--format", fmt)
        assert result.exit_code == 0
        assert result.stderr == (f"gecformats: warning: {hyp}: plain text, whose edits were "
                                 "extracted by gecformats' own aligner (hyp:extracted-lcs), not by ERRANT's, "
                                 "and the two differ (on CoNLL-2014 F0.5 up to 0.034 lower, the "
                                 "top two systems swapped); for ERRANT's own edits and types add "
                                 "--extractor errant (pip install 'gecformats[errant]', or from a "
                                 "clone pip install '.[errant]')\n")
        if fmt != "errant":  # errant_compare's own output has no signature
            assert "|hyp:extracted-lcs|" in result.stdout
    result, _, _ = _run(tmp_path, HYP, REF, "--format", "json")
    assert result.stderr == "" and "|hyp:m2|" in json.loads(result.stdout)["signature"]


@pytest.mark.parametrize("line", ["This is a sentence with an error |||",
                                  "This | is a sentence with an error .",
                                  "This is a ||| sentence with an error . -NONE- ||"])
def test_a_text_hypothesis_with_bars_is_scored(tmp_path, line):
    """Fuzz finding (issue 22): `|` or `|||` in a text hypothesis made the M2 writer's
    ValueError escape.  The extracted edits never go through M2 text: scored, the bars
    being ordinary token characters as in any other correction."""
    text = line + "\n" + TEXT.split("\n", 1)[1]
    result, _, _ = _run(tmp_path, text, REF, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    plain = errant_files(str(tmp_path / "hyp"), str(tmp_path / "ref.m2"))
    assert (data["tp"], data["fp"], data["fn"]) == (plain.tp, plain.fp, plain.fn)
    assert data["fp"] >= 1  # the bar edit is a false positive


@pytest.mark.shared("corpora/conll14/official_submissions/AMU")
@pytest.mark.parametrize("args", [["--errant-mode", "cse"], ["--cat", "1"], ["--cat", "2"]])
def test_conll14_original_commands_are_refused(args):
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    hyp = shared_file("corpora/conll14/official_submissions/AMU")
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(gold), "--metric",
                                      "errant", *args])
    assert result.exit_code == 1 and result.stdout == "" and result.stderr.count("\n") == 1
    assert "the gold's types are not ERRANT's ('ArtOrDet' in sentence 3" in result.stderr

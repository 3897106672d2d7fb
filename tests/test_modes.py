"""gecformats.metrics.modes: detection, recognition and correction, with and without bonus."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.formats import m2
from gecformats.metrics.modes import MODES, ModeScorer, Span, lenient
from gecformats.metrics.score import maxmatch_gold, read_hypothesis, score_files

import maxmatch

GOLD = """\
S The cat sat at mat .
A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0
A 4 4|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0

S He go to school every days .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0
A 5 6|||Noun|||day|||OPTIONAL|||-NONE-|||0
"""


def scores(tmp_path, hypotheses: list[str], mode: str, bonus: bool = False):
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    r = score_files(hyp, gold, mode=mode, bonus=bonus, beta=1.0)
    return (r.correct, r.proposed, r.gold), (round(r.precision, 4), round(r.recall, 4))


SOURCE = ["The cat sat at mat .", "He go to school every days ."]


@pytest.mark.parametrize("hyps, mode, bonus, counts", [
    # wrong preposition, right article: one correction, two spans recognised and detected
    (["The cat sat in the mat .", SOURCE[1]], "correction", False, (1, 2, 4)),
    (["The cat sat in the mat .", SOURCE[1]], "recognition", False, (2, 2, 4)),
    (["The cat sat in the mat .", SOURCE[1]], "detection", False, (2, 2, 4)),
    # 'a' inserted where the gold inserts 'the': recognised (same span), not corrected
    (["The cat sat at a mat .", SOURCE[1]], "correction", False, (0, 1, 4)),
    (["The cat sat at a mat .", SOURCE[1]], "recognition", False, (1, 1, 4)),
    # went for go, each for every: matching nothing, the M2 path merges them across the two
    # unchanged words into one edit 'go to school every' -> 'went to school each', which
    # overlaps the gold 'go' (detected) without having its span (not recognised)
    ([SOURCE[0], "He went to school each days ."], "correction", False, (0, 1, 4)),
    ([SOURCE[0], "He went to school each days ."], "recognition", False, (0, 1, 4)),
    ([SOURCE[0], "He went to school each days ."], "detection", False, (1, 1, 4)),
    # every required correction and nothing else: the optional 'days' left alone
    (["The cat sat on the mat .", "He goes to school every days ."], "correction", False,
     (3, 3, 4)),
    (["The cat sat on the mat .", "He goes to school every days ."], "correction", True,
     (4, 4, 4)),
    (["The cat sat on the mat .", "He goes to school every days ."], "detection", True,
     (4, 4, 4)),
    # nothing touched: only the bonus scores
    (SOURCE, "correction", False, (0, 0, 4)),
    (SOURCE, "correction", True, (1, 1, 4)),
    (SOURCE, "recognition", True, (1, 1, 4)),
    # the optional edit corrected: no bonus for it, a credit instead
    ([SOURCE[0], "He go to school every day ."], "correction", True, (1, 1, 4)),
])
def test_worked_examples(tmp_path, hyps, mode, bonus, counts):
    assert scores(tmp_path, hyps, mode, bonus)[0] == counts


def test_word_level_edits_with_no_unchanged_words(tmp_path):
    """With --max-unchanged-words 0 the two changes stay apart: 'went' is recognised, 'each'
    is spurious."""
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text(f"{SOURCE[0]}\nHe went to school each days .\n", encoding="utf-8")
    for mode, counts in (("recognition", (1, 2, 4)), ("detection", (1, 2, 4))):
        r = score_files(hyp, gold, mode=mode, max_unchanged_words=0)
        assert (r.correct, r.proposed, r.gold) == counts


def test_correction_without_bonus_is_the_m2_score():
    gold, hyp = FIXTURES / "score" / "sample.m2", FIXTURES / "score" / "sample.hyp"
    plain = score_files(hyp, gold)
    moded = score_files(hyp, gold, mode="correction")
    assert moded == plain
    assert "mode:" not in str(plain.signature)
    bonus = score_files(hyp, gold, mode="correction", bonus=True)
    assert "|mode:correction+bonus|" in str(bonus.signature)


@pytest.mark.parametrize("g, s, expected", [
    (Span(2, 4, ("x",)), Span(3, 5, ("y",)), True),        # share token 3
    (Span(2, 4, ("x",)), Span(4, 5, ("y",)), False),       # adjacent
    (Span(3, 3, ("the",)), Span(3, 3, ("a",)), True),      # insertions at the same point
    (Span(3, 3, ("the",)), Span(2, 4, ("y",)), True),      # strictly around the insertion
    (Span(3, 3, ("the",)), Span(1, 3, ("on the",)), True),  # ends there with 'the'
    (Span(3, 3, ("the",)), Span(1, 3, ("on",)), False),
    (Span(3, 3, ("the",)), Span(3, 5, ("the cat",)), True),  # starts there with 'the'
    (Span(3, 3, ()), Span(3, 5, ("x",)), True),             # no correction: any touching edit
    (Span(2, 4, ("x",)), Span(3, 3, ("y",)), True),          # insertion inside the edit
    (Span(2, 4, ("x",)), Span(4, 4, ("y",)), False),
])
def test_lenient(g, s, expected):
    assert lenient(g, s) is expected


def test_unknown_mode():
    with pytest.raises(ValueError, match="unknown mode"):
        ModeScorer(mode="spotting")


def run(*args: object):
    result = CliRunner().invoke(app, ["score", *(str(a) for a in args)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_cli_modes():
    gold, hyp = FIXTURES / "score" / "sample.m2", FIXTURES / "score" / "sample.hyp"
    for mode in MODES:
        code, out, _ = run(hyp, "--gold", gold, "--mode", mode, "--bonus")
        assert code == 0
        assert f"|mode:{mode}+bonus|" in out
    code, _, err = run(hyp, "--gold", gold, "--mode", "spotting")
    assert code == 2 and "unknown mode" in err
    code, _, err = run(hyp, "--gold", gold, "--mode", "detection", "--per-type")
    assert code == 2 and "--per-type" in err


@pytest.mark.shared("corpora/conll14/official_submissions/AMU")
def test_mode_scorer_in_correction_mode_is_the_corpus_scorer():
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    hyp = shared_file("corpora/conll14/official_submissions/AMU")
    plain, moded = maxmatch.CorpusScorer(), ModeScorer(mode="correction")
    for sentence, (_, line) in zip(m2.read(gold), read_hypothesis(hyp)):
        tokens = maxmatch.split_hypothesis(line)
        a = plain.add(sentence.source, tokens, maxmatch_gold(sentence))[1]
        b = moded.add(sentence.source, tokens, maxmatch_gold(sentence))[1]
        assert a == b
    assert plain.result() == moded.result()

"""The checks of the inputs, made once in the scoring pipeline for every metric and command
(gecformats.metrics.inputs; issue 34): hypotheses that are not the gold's sentences, gold
edits that do not fit their sentence, M2 hypotheses with several annotators, output cut
again though it was cut like the gold, options a metric does not follow, and what the
tables and signatures say about it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import FIXTURES, shared_file
from inputs_helpers import GOLD, METRICS, SYSTEM, lines, run, write
from gecformats.errors import GecFormatError
from gecformats.metrics.inputs import (MIN_CHARS, UNLIKE, WINDOW, Correspondence, GoldFit,
                                       gold_field, grams, similarity)
from gecformats.model import Edit, Sentence

CONLL = "corpora/conll14"
COMBINED = f"{CONLL}/conll14st-test-data/noalt/official-2014.combined.m2"


def one_error_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ------------------------------------------------------------------ the measure


def test_similarity_ignores_spacing_and_case() -> None:
    assert similarity(grams("He goes home ."), grams("he goes home.")) == 1.0
    assert similarity(grams(("He", "goes", "home", ".")), grams("He goes home .")) == 1.0
    assert grams("short")[1] == frozenset()  # under MIN_CHARS: says nothing
    assert len("".join("a b c d e f g h i j".split())) == MIN_CHARS
    assert 0.3 < similarity(grams("Thank you for your letter ."),
                            grams("Thanks for the letter.")) < 1


def feed(pairs: list[tuple[str, str]]) -> Correspondence:
    check = Correspondence("out.txt", "gold.m2")
    for n, (src, hyp) in enumerate(pairs, 1):
        check.add(n, n, grams(src), hyp)
    return check


def test_a_shifted_file_is_refused_at_the_first_unlike_line() -> None:
    src = lines()
    hyp = src[:5] + src[6:] + ["Something else entirely that nobody wrote ."]
    with pytest.raises(GecFormatError) as info:
        feed(list(zip(src, hyp)))
    assert info.value.line == 6 and info.value.file == "out.txt"
    assert "each reads like the gold's next sentence (a line missing near line 6?)" in \
        info.value.message
    assert "--no-sentence-check" in info.value.message


def test_an_added_line_is_named_as_added() -> None:
    src = lines()
    hyp = src[:5] + ["A line that the system added here ."] + src[5:-1]
    with pytest.raises(GecFormatError, match="previous sentence .a line added near line 6"):
        feed(list(zip(src, hyp)))


def test_another_test_set_reads_like_no_sentence_near() -> None:
    src = lines()
    other = [f"Completely different sentence number {k} about the weather and trains ."
             for k in range(len(src))]
    with pytest.raises(GecFormatError, match="read like no gold sentence near them") as info:
        feed(list(zip(src, other)))
    assert info.value.line == 1


def test_isolated_unlike_lines_and_short_files_pass() -> None:
    src = lines()
    hyp = list(src)
    for k in (2, 4, 9, 11, 13):  # five unlike lines, never UNLIKE of any WINDOW
        hyp[k] = "Nothing of the kind was ever written by anyone ."
    assert sum(1 for k in (2, 4, 9, 11, 13)) < UNLIKE <= WINDOW
    check = feed(list(zip(src, hyp)))
    assert check.unlike == 5
    # fewer informative lines than UNLIKE: never refused, however unlike
    feed([(s, "zzzz zzzz zzzz zzzz") for s in src[:UNLIKE - 1]])
    # empty and short lines say nothing
    assert feed([(s, "") for s in src]).informative == 0


def test_m2_hypothesis_sources_are_compared(tmp_path: Path) -> None:
    blocks = GOLD.read_text(encoding="utf-8").split("\n\n")
    shifted = blocks[1:] + blocks[:1]
    hyp = tmp_path / "hyp.m2"
    hyp.write_text("\n\n".join(b.strip("\n") for b in shifted) + "\n\n", encoding="utf-8")
    code, _, err = run("score", hyp, "--gold", GOLD, "--metric", "m2")
    assert code == 1 and "are not" in one_error_line(err) and "hyp.m2" in err


# ------------------------------------------------------------------ every command


@pytest.fixture
def shifted(tmp_path: Path) -> Path:
    src = lines()
    return write(tmp_path / "shifted.txt", src[1:] + ["An extra line at the very end ."])


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_refuses_a_shifted_output(shifted: Path, metric: str) -> None:
    code, out, err = run("score", shifted, "--gold", GOLD, "--metric", metric, "-q")
    assert code == 1 and out == ""
    assert one_error_line(err).startswith(f"gecformats: {shifted}:1: from sentence 1 on, the "
                                          f"lines are not {GOLD}'s sentences")


@pytest.mark.parametrize("command", [
    ["score", "-v"], ["score", "--format", "json"], ["score", "--jobs", "2"],
    ["gleu"], ["imeasure"], ["report", "-o", "{tmp}/r.html"]])
def test_every_command_refuses_it(shifted: Path, tmp_path: Path, command: list[str]) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    code, out, err = run(args[0], shifted, "--gold", GOLD, *args[1:])
    assert code == 1 and out == "" and not (tmp_path / "r.html").exists()
    assert re.match(rf"gecformats: {re.escape(str(shifted))}:1: from sentence 1 on", err)


@pytest.mark.parametrize("command", [["score"], ["score", "-v"], ["gleu"],
                                     ["imeasure", "--format", "json"]])
def test_the_check_can_be_turned_off_and_the_signature_says_so(shifted: Path,
                                                               command: list[str]) -> None:
    code, out, _ = run(command[0], shifted, "--gold", GOLD, *command[1:],
                       "--no-sentence-check")
    assert code == 0 and "|sentences:unchecked" in out


def test_a_real_output_is_scored_as_before() -> None:
    code, out, _ = run("score", SYSTEM, "--gold", GOLD)
    assert code == 0 and "F0.5       0.8140" in out and "unchecked" not in out


def test_text_references_are_checked_against_the_source(tmp_path: Path) -> None:
    src = write(tmp_path / "src.txt", lines())
    code, _, err = run("gleu", write(tmp_path / "hyp.txt", lines()[2:] + ["x y z w v u t s"] * 2),
                       "--source", src, "--ref", src)
    assert code == 1 and "hyp.txt:1: from sentence 1 on" in err


@pytest.mark.shared(COMBINED)
def test_conll14_real_outputs_pass_and_broken_ones_are_named() -> None:
    """Issue 34 item 1: every CoNLL-2014 submission and SEEDA output (GPT-3.5's rewrites
    and REF-F included) passes; a lost line is reported where it was lost; another test
    set's gold is refused at once."""
    from gecformats.formats import m2

    gold = [" ".join(s.source) for s in m2.read(shared_file(COMBINED))]
    grams_of = [grams(g) for g in gold]

    def check(path: Path, rows: list[str] | None = None) -> None:
        rows = path.read_text(encoding="utf-8").split("\n") if rows is None else rows
        checker = Correspondence(str(path), "gold")
        for n, (g, h) in enumerate(zip(grams_of, rows), 1):
            checker.add(n, n, g, h)

    submissions = shared_file(f"{CONLL}/official_submissions")
    names = "AMU CAMB CUUI IITB INPUT IPN NTHU PKU POST RAC SJTU UFC UMC".split()
    for name in names:
        check(submissions / name)
    for path in sorted(shared_file("corpora/seeda/outputs/all").iterdir()):
        check(path)
    amu = (submissions / "AMU").read_text(encoding="utf-8").split("\n")
    with pytest.raises(GecFormatError, match="next sentence") as info:
        check(submissions / "AMU", amu[:699] + amu[700:])
    assert info.value.line == 700
    code, _, err = run("score", submissions / "AMU", "--gold", shared_file(
        f"{CONLL}/conll13st-test-data/original/data/official-preprocessed.m2"))
    assert code == 1 and "AMU:1: from sentence 1 on" in err and "another test set" in err


# ------------------------------------------------------------------ the gold's edits


PAST_END = "S a b c d e\nA 1 2|||R:X|||x|||REQUIRED|||-NONE-|||0\nA 4 9|||R:X|||y|||REQUIRED|||-NONE-|||0\n\n"


@pytest.mark.parametrize("metric", METRICS)
def test_one_policy_for_gold_edits_past_the_end(tmp_path: Path, metric: str) -> None:
    """Issue 34 item 6: every metric gives the same warning (count, first sentence, what was
    done, validate) and --strict refuses; CLEME stopped with KeyError."""
    gold = tmp_path / "gold.m2"
    gold.write_text(PAST_END, encoding="utf-8")
    hyp = write(tmp_path / "hyp.txt", ["a x c d e"])
    code, out, err = run("score", hyp, "--gold", gold, "--metric", metric, "-q")
    assert code == 0 and out
    warning = (f"gecformats: warning: {gold}: 1 gold edit past the end of its sentence (first: "
               "sentence 1), left out of the score by every metric, as the NUS scorer leaves "
               f"it out; check the gold with `gecformats validate {gold}` (score --strict "
               "refuses it)")
    assert err.splitlines().count(warning) == 1 and "out-of-range" not in err
    code, out, err = run("score", hyp, "--gold", gold, "--metric", metric, "--strict", "-q")
    assert code == 1 and out == "" and "past the end" in one_error_line(err)


@pytest.mark.parametrize("metric", ["m2", "errant", "cleme", "gleu"])
def test_an_edit_that_starts_after_it_ends_is_refused(tmp_path: Path, metric: str) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b c d e f g\nA 5 4|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n",
                    encoding="utf-8")
    hyp = write(tmp_path / "hyp.txt", ["a b c d e f g"])
    code, out, err = run("score", hyp, "--gold", gold, "--metric", metric, "-q")
    assert code == 1 and out == ""
    assert one_error_line(err) == (f"gecformats: {gold}:1: sentence 1: annotator 0's edit 5 4 "
                                   "starts after it ends: no metric can score it; `gecformats "
                                   f"validate {gold}` lists every problem\n")


def test_goldfit_keeps_what_fits() -> None:
    sentence = Sentence(("a", "b"), {0: (Edit(0, 1, (("x",),)), Edit(1, 3, (("y",),))), 1: ()})
    fit = GoldFit("g.m2")
    kept = fit.fit(3, sentence)
    assert kept.annotators == {0: (Edit(0, 1, (("x",),)),), 1: ()}
    assert fit.fit(4, kept) is kept and (fit.past_end, fit.first) == (1, 3)


# ------------------------------------------------------------------ M2 hypotheses


def test_an_m2_hypothesis_is_scored_by_its_first_annotator_for_every_metric(tmp_path: Path
                                                                            ) -> None:
    """Issue 34 item 2: ERRANT took the best of the hypothesis' annotators per sentence."""
    two = tmp_path / "two.m2"
    text = GOLD.read_text(encoding="utf-8")
    two.write_text(text, encoding="utf-8")  # the gold as a hypothesis: annotators 0 and 1
    first = tmp_path / "first.m2"
    first.write_text("\n".join(x for x in text.split("\n") if not x.endswith("|||1")),
                     encoding="utf-8")
    for metric in METRICS:
        code, out_two, err = run("score", two, "--gold", GOLD, "--metric", metric, "-q",
                                 "--format", "tsv")
        assert code == 0, err
        assert "up to 2 annotators" in err and "first annotator only" in err
        code, out_first, _ = run("score", first, "--gold", GOLD, "--metric", metric, "-q",
                                 "--format", "tsv")
        assert out_two.splitlines()[1].split("\t")[1:] == out_first.splitlines()[1].split("\t")[1:]


def test_an_m2_hypothesis_repeating_an_edit_is_a_clean_error(tmp_path: Path) -> None:
    """Fuzz finding: `A 1 2` twice in an M2 hypothesis was a ValueError traceback."""
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b c d e f g h i j k\n\n", encoding="utf-8")
    hyp = tmp_path / "hyp.m2"
    hyp.write_text("S a b c d e f g h i j k\nA 1 2|||R:X|||x|||REQUIRED|||-NONE-|||0\n"
                   "A 1 2|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    for metric in METRICS:
        code, _, err = run("score", hyp, "--gold", gold, "--metric", metric, "-q")
        assert code == 1 and one_error_line(err).startswith(
            f"gecformats: {hyp}:1: sentence 1: annotator 0's edits cannot make a corrected "
            "sentence")


# ------------------------------------------------------------------ cut again


def test_tokenizing_a_tokenized_output_is_warned(tmp_path: Path) -> None:
    rows = lines()
    rows[4] = "He always tells them that 'patience' is the most important thing ."
    hyp = write(tmp_path / "hyp.txt", rows)
    code, _, err = run("score", hyp, "--gold", GOLD, "--tokenize", "en", "-q")
    assert code == 0
    assert "already looks tokenized like the gold" in err
    assert "changed the tokens of 1 of 14 lines" in err
    assert err.rstrip().endswith(f"score it as given: gecformats score {hyp} --gold {GOLD}")
    code, _, err = run("score", hyp, "--gold", GOLD, "--tokenize", "en", "--strict", "-q")
    assert code == 1


def test_projecting_a_segmented_output_is_warned(tmp_path: Path) -> None:
    from gecformats.formats import m2

    gold = FIXTURES / "project" / "gold.m2"
    rows = [" ".join(s.corrected(min(s.annotators)) if s.annotators else s.source)
            for s in m2.read(gold)]
    hyp = write(tmp_path / "segmented.txt", rows)
    code, _, err = run("score", hyp, "--gold", gold, "--segment", "project", "-q")
    assert code == 0 and "lines are already segmented" in err and "--segment project" in err
    code, _, err = run("score", FIXTURES / "project" / "system.txt", "--gold", gold,
                       "--segment", "project", "-q")
    assert code == 0 and "already segmented" not in err


def test_projecting_onto_a_jieba_gold_is_warned(tmp_path: Path) -> None:
    pairs = ["我们明天去公园玩\t我们明天去公园玩。", "他昨天没有来学校上课\t他昨天没有来学校上课。",
             "这本书非常有意思\t这本书非常有意思。", "我喜欢吃苹果和香蕉\t我喜欢吃苹果和香蕉。"]
    train = tmp_path / "train.txt"
    train.write_text("".join(f"{k}\t1\t{p}\n" for k, p in enumerate(pairs, 1)), encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert run("convert", train, gold, "--from", "nlpcc", "--tokenizer", "zh", "-q")[0] == 0
    hyp = write(tmp_path / "hyp.txt", [p.split("\t")[1] for p in pairs])
    code, _, err = run("score", hyp, "--gold", gold, "--segment", "project", "-q")
    assert code == 0 and "the gold's sources are jieba's words" in err
    assert "--tokenize zh" in err


# ------------------------------------------------------------------ option scope


def test_mode_applies_to_sentm2_and_is_named_in_the_heads() -> None:
    code, out, _ = run("score", SYSTEM, "--gold", GOLD, "--metric", "m2", "--metric", "sentm2",
                       "--mode", "detection", "-q")
    assert code == 0 and "M2 (detection)" in out and "SentM2 (detection)" in out
    assert out.count("|mode:detection|") == 2
    code, _, err = run("score", SYSTEM, "--gold", GOLD, "--metric", "errant", "--mode", "ds")
    assert code == 2 and "--errant-mode" in err
    code, out, _ = run("score", SYSTEM, "--gold", GOLD, "--metric", "errant", "--metric",
                       "senterrant", "--errant-mode", "ds", "-q", "--format", "tsv")
    assert code == 0 and out.startswith("system\terrant-ds-lcs-edits_P")
    assert "metric:senterrant|mode:ds|" in out


def test_an_option_a_chosen_metric_does_not_follow_is_warned() -> None:
    code, _, err = run("score", SYSTEM, "--gold", GOLD, "--metric", "m2", "--metric",
                       "gotoscorer", "--beta", "1", "-q")
    assert code == 0 and "--beta applies to m2, not to --metric gotoscorer: its F is F0.5" in err


def test_filter_refuses_unlike_type_schemes(tmp_path: Path) -> None:
    """ERRANT's --filter M:DET against a NUCLE-typed gold filtered the hypothesis only."""
    gold = tmp_path / "nucle.m2"
    gold.write_text(GOLD.read_text(encoding="utf-8").replace("R:VERB:SVA", "SVA")
                    .replace("R:NOUN:NUM", "Nn").replace("U:DET", "ArtOrDet")
                    .replace("R:VERB:TENSE", "Vt"), encoding="utf-8")
    hyp = tmp_path / "hyp.m2"
    hyp.write_text(GOLD.read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run("score", hyp, "--gold", gold, "--metric", "errant", "--filter", "U:DET")
    assert code == 1 and "--filter leaves out edits by their type on the types of both sides" \
        in one_error_line(err)


# ------------------------------------------------------------------ what the output says


def test_every_signature_names_the_gold_file() -> None:
    field = gold_field(GOLD)
    assert re.fullmatch(r"gold-file:gold\.m2@[0-9a-f]{8}", field)
    code, out, _ = run("score", SYSTEM, "--gold", GOLD, *sum((["--metric", m] for m in METRICS),
                                                              []), "--format", "json", "-q")
    cells = json.loads(out)[SYSTEM.name] if SYSTEM.name in json.loads(out) else \
        next(iter(json.loads(out).values()))
    assert all(field in cells[m]["signature"] for m in METRICS)
    for command in (["gleu"], ["imeasure", "--format", "json"]):
        code, out, _ = run(command[0], SYSTEM, "--gold", GOLD, *command[1:])
        assert code == 0 and field in out


def test_a_warning_for_several_systems_is_given_once(tmp_path: Path) -> None:
    copies = [write(tmp_path / f"sys{k}.txt", lines()) for k in range(4)]
    code, _, err = run("score", *copies, "--gold", GOLD, "--metric", "errant", "-q")
    assert code == 0 and err.count("plain text, whose edits") == 1
    assert err.startswith(f"gecformats: warning: 4 hypotheses ({copies[0]}, {copies[1]}, "
                          f"{copies[2]}, …): plain text")


def test_latex_signatures_are_a_visible_note() -> None:
    code, out, _ = run("score", SYSTEM, SYSTEM, "--gold", GOLD, "--metric", "m2", "--metric",
                       "gleu", "--format", "latex", "-q")
    assert code == 0 and "% metric:" not in out
    note = out[out.index(r"\end{tabular}"):]
    assert r"{\footnotesize\ttfamily\raggedright" in note
    assert r"metric:m2|\allowbreak{}" in note and "gold-file:gold.m2@" in note
    code, out, _ = run("score", SYSTEM, "--gold", GOLD, "--format", "latex", "-q")
    assert r"\end{tabular}" in out and r"\ttfamily" in out


def test_holm_keeps_a_bound_a_bound() -> None:
    from gecformats.metrics.statistics import holm, holm_bounds

    floor = 1 / 1001
    assert holm([floor, floor, 0.5]) == [round(3 * floor, 15), round(3 * floor, 15), 0.5]
    assert holm_bounds([floor, floor, 0.5], floor) == [True, True, False]
    assert holm_bounds([floor, 0.0025], floor) == [True, False]  # 2 x floor < 0.0025


def test_meta_eval_warns_of_an_impossible_m2_score(tmp_path: Path) -> None:
    """Fuzz finding: meta-eval correlated impossible M2 scores (a gold edit listed twice
    gives F above 1) without the warning `score` gives: the pipeline gives it now."""
    import shutil

    data = tmp_path / "seeda"
    shutil.copytree(FIXTURES / "metaeval" / "seeda-tiny", data)
    gold = data / "gold.m2"
    text = gold.read_text(encoding="utf-8")
    gold.write_text(text.replace("A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n",
                                 "A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n" * 2, 1),
                    encoding="utf-8")
    code, out, err = run("meta-eval", "--dataset", "seeda", "--data", data, "--gold", gold,
                         "--metric", "m2", "--quiet")
    assert code == 0 and out
    assert "is overstated" in err and f"{gold} (its sentences at the subset ids)" in err


from hypothesis import given, settings  # noqa: E402  (the property test below)
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="abcd e", min_size=10, max_size=60),
       st.lists(st.tuples(st.integers(0, 60), st.integers(0, 3), st.text(alphabet="abcdx",
                                                                          max_size=3)),
                max_size=5))
def test_surely_like_never_passes_an_unlike_line(source: str, changes) -> None:
    """The shortcut of the sentence check (a bound from the common start and end) says
    "like" only where the trigrams say so too: same decisions, fewer trigram sets."""
    from gecformats.convert.trigram import flat
    from gecformats.metrics.inputs import THRESHOLD, similarity, surely_like

    text = source
    for at, cut, insert in changes:  # a few edits, as a GEC output makes
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut:]
    src, hyp = grams(source), flat(text)
    if src[1] and len(hyp) >= 10 and hyp != src[0] and surely_like(src, hyp):
        assert similarity(src, grams(text)) >= THRESHOLD

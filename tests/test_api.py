"""The Python front door (gecformats.score, read, write, convert, validate, sentence_scores):
the command line's outputs from Python, byte for byte."""

from __future__ import annotations

import inspect
import json
import warnings
from pathlib import Path

import pytest
import gecformats
from conftest import FIXTURES, shared_file
from inputs_helpers import run as cli

SCORE = FIXTURES / "score"
GOLD, HYP = SCORE / "sample.m2", SCORE / "sample.hyp"
GLEU = FIXTURES / "gleu"
SYSTEMS = [GLEU / "system-a.txt", GLEU / "system-b.txt"]
COMBINED = "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"


def quietly(function, *args, **kwargs):  # the fixtures' warnings are not what is tested
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gecformats.GecFormatWarning)
        return function(*args, **kwargs)


# ------------------------------------------------------------------ score


CASES = [
    ([HYP], ["--gold", GOLD], {"gold": GOLD}),
    ([HYP, HYP], ["--gold", GOLD, "--ci", "--paired-bs", "--resamples", "50"],
     {"gold": GOLD, "ci": True, "paired": "bs", "resamples": 50}),
    (SYSTEMS, ["--gold", GLEU / "gold.m2", "--metric", "m2", "--metric", "sentm2", "--metric",
               "gleu", "--beta", "1", "--paired-ar", "--trials", "99", "--seed", "7"],
     {"gold": GLEU / "gold.m2", "metrics": ["m2", "sentm2", "gleu"], "beta": 1.0,
      "paired": "ar", "trials": 99, "seed": 7}),
    ([SYSTEMS[0]], ["--gold", GLEU / "gold.m2", "--metric", "errant", "--errant-mode", "ds"],
     {"gold": GLEU / "gold.m2", "metrics": "errant", "errant_mode": "ds"}),
    ([SYSTEMS[0]], ["--source", GLEU / "source.txt", "--ref", GLEU / "ref0.txt", "--ref",
                    GLEU / "ref1.txt", "--metric", "gleu", "--gleu-version", "2016",
                    "--lambda", "0.5"],
     {"source": GLEU / "source.txt", "refs": [GLEU / "ref0.txt", GLEU / "ref1.txt"],
      "metrics": ["gleu"], "gleu_version": "2016", "lambda_": 0.5}),
]


@pytest.mark.parametrize("hyps, args, kwargs", CASES, ids=range(len(CASES)))
def test_every_format_is_the_command_lines(hyps, args, kwargs) -> None:
    kwargs = dict(kwargs)
    gold = kwargs.pop("gold", None)
    results = quietly(gecformats.score, hyps if len(hyps) > 1 else hyps[0], gold, **kwargs)
    for fmt in ("text", "json", "tsv", "csv", "latex"):
        code, out, _ = cli("score", *hyps, *args, "--format", fmt, "--quiet")
        assert code == 0
        assert results.render(fmt) + "\n" == out, fmt
    assert str(results) == results.render("text")
    assert results.to_json() == results.render("json")
    assert results.to_latex() + "\n" == cli("score", *hyps, *args, "--format", "latex")[1]
    assert results.to_dict() == json.loads(results.to_json())
    text = str(results)
    assert results.signatures and all(s in text for s in results.signatures)


def test_the_established_single_system_layouts() -> None:
    results = gecformats.score(HYP, GOLD)
    assert results.render("m2scorer") + "\n" == cli("score", HYP, "--gold", GOLD, "--format",
                                                    "m2scorer")[1]
    assert results.to_dict()["correct"] == 5 and results.systems == ["sample.hyp"]
    assert results.signatures == [str(results).splitlines()[-1]]
    assert results.warnings == [] and results.notes == []
    with pytest.raises(gecformats.UsageError, match="shows --metric errant alone"):
        results.render("errant")


def test_options_by_python_names_and_their_refusals() -> None:
    results = gecformats.score(HYP, GOLD, beta=1.0, max_unchanged_words=3,
                               ignore_whitespace_casing=True)
    assert "beta:1|max-unchanged:3|ws-case:ignored" in results.signatures[0]
    with pytest.raises(gecformats.UsageError, match=r"errant_mode= goes with metric 'errant'"):
        gecformats.score(HYP, GOLD, errant_mode="ds")
    with pytest.raises(gecformats.UsageError, match="unknown option colour="):
        gecformats.score(HYP, GOLD, colour="red")
    with pytest.raises(ValueError, match="paired="):  # a UsageError is a ValueError
        gecformats.score([HYP, HYP], GOLD, paired="t-test")
    with pytest.raises(gecformats.UsageError, match="resamples"):
        gecformats.score(HYP, GOLD, ci=True, resamples=0)
    with pytest.raises(gecformats.UsageError, match="compares systems"):
        gecformats.score(HYP, GOLD, paired="bs")
    with pytest.raises(gecformats.UsageError, match="unknown metric"):
        gecformats.score(HYP, GOLD, metrics=["m3"])


def test_the_request_defaults_are_the_command_lines() -> None:
    from gecformats.cli.score import score
    from gecformats.metrics.request import REQUEST_DEFAULTS

    defaults = {n: getattr(p.default, "value", p.default)
                for n, p in inspect.signature(score).parameters.items()}
    for name, value in REQUEST_DEFAULTS.items():
        if name != "hypotheses":
            assert defaults[name] == value, name
    api = inspect.signature(gecformats.score).parameters
    assert api["resamples"].default == REQUEST_DEFAULTS["resamples"]
    assert api["seed"].default == REQUEST_DEFAULTS["seed"]


def test_warnings_are_issued_and_kept_and_strict_refuses(tmp_path: Path) -> None:
    hyp = tmp_path / "glued.hyp"  # the gold's marks glued to words: a tokenization warning
    hyp.write_text("The cat sat on the mat.\nHe went to school every day.\nThis sentence "
                   "is correct.\nI like the music.\n", encoding="utf-8")
    with pytest.warns(gecformats.GecFormatWarning, match="tokeniz"):
        results = gecformats.score(hyp, GOLD)
    assert results.warnings and "tokeniz" in results.warnings[0]
    with pytest.raises(gecformats.GecFormatError, match="tokeniz"):
        gecformats.score(hyp, GOLD, strict=True)


def test_errors_name_file_and_line(tmp_path: Path) -> None:
    gold = tmp_path / "bad.m2"
    gold.write_text("S a b\nA x 1|||R|||c|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    hyp = tmp_path / "h.txt"
    hyp.write_text("a c\n", encoding="utf-8")
    with pytest.raises(gecformats.GecFormatError) as caught:
        gecformats.score(hyp, gold)
    assert caught.value.file == str(gold) and caught.value.line == 2
    short = tmp_path / "short.txt"
    short.write_text("A cat sat on the mat .\n", encoding="utf-8")
    with pytest.raises(gecformats.GecFormatError, match="1 hypothesis line for 4 gold"):
        gecformats.score(short, GOLD)


def test_to_pandas_has_the_csv_columns_in_full_precision() -> None:
    pytest.importorskip("pandas")
    results = gecformats.score([HYP, HYP], GOLD, ci=True, paired="bs", resamples=20)
    frame = results.to_pandas()
    csv_head = results.to_csv().splitlines()[0].split(",")
    assert ["system", *frame.columns] == csv_head
    assert list(frame.index) == results.systems == [str(HYP), f"{HYP}#2"]
    assert frame.loc[str(HYP), "m2_F0.5"] == pytest.approx(0.8620689655172415, abs=0)


def test_results_sentences_are_the_per_sentence_rows(tmp_path: Path) -> None:
    results = quietly(gecformats.score, SYSTEMS, GLEU / "gold.m2", metrics=["sentm2", "gleu"])
    code, out, _ = cli("score", *SYSTEMS, "--gold", GLEU / "gold.m2", "--metric", "sentm2",
                       "--metric", "gleu", "--per-sentence", tmp_path / "p.tsv", "-q")
    assert code == 0
    rows = (tmp_path / "p.tsv").read_text(encoding="utf-8").splitlines()[1:]
    mine = [f"{s.index + 1}\t{system}\t{metric}\t" + " ".join(f"{k}={v}" for k, v in
                                                              s.fields.items())
            for metric in ("sentm2", "gleu") for system in results.systems
            for s in results.sentences(system, metric)]
    assert mine == rows


# ------------------------------------------------------------------ read, write, convert, validate


def test_read_write_convert_validate(tmp_path: Path) -> None:
    sentences = list(gecformats.read(GOLD))
    assert len(sentences) == 4 and sentences[0].source[:2] == ("The", "cat")
    report = gecformats.write(sentences, tmp_path / "copy.m2")
    assert report.sentences == 4 and (tmp_path / "copy.m2").read_bytes() == GOLD.read_bytes()
    report = gecformats.convert(GOLD, tmp_path / "gold.xml")
    assert report.counts is not None and (tmp_path / "gold.xml").exists()
    report = gecformats.convert(GOLD, tmp_path / "out", to="parallel")
    assert (tmp_path / "out").is_dir()
    assert gecformats.validate(GOLD) == []
    problems = gecformats.validate(FIXTURES / "m2/invalid/overlap.m2")
    assert [(p.line, p.kind) for p in problems] == [(3, "overlap"), (6, "overlap")]
    (tmp_path / "unknown.xyz").write_text("some text\n", encoding="utf-8")
    with pytest.raises(gecformats.UsageError, match="format='"):
        gecformats.read(tmp_path / "unknown.xyz")
    with pytest.raises(FileNotFoundError):  # missing: not a format to name
        gecformats.read(tmp_path / "missing.xyz")


def test_convert_and_validate_stay_functions_when_their_modules_are_imported() -> None:
    import gecformats.convert.pipeline  # noqa: F401
    import gecformats.validate  # noqa: F401
    from gecformats.validate import Problem  # the module, from where imports look

    assert callable(gecformats.convert) and inspect.isfunction(gecformats.validate)
    assert Problem.__module__ == "gecformats.validate"
    assert set(gecformats.__all__) <= set(dir(gecformats))


def test_the_package_is_typed() -> None:
    assert (Path(gecformats.__file__).parent / "py.typed").exists()


# ------------------------------------------------------------------ sentence_scores


def _per_sentence(tmp_path: Path, hyp: Path, gold: Path, metric: str) -> list[str]:
    table = tmp_path / f"{metric}.tsv"
    code, _, err = cli("score", hyp, "--gold", gold, "--metric", metric, "--per-sentence",
                       table, "-q")
    assert code == 0, err
    return table.read_text(encoding="utf-8").splitlines()


def _rows(records, metric: str, system: str) -> list[str]:
    out = []
    for s in records:
        fields = dict(s.fields)
        if metric in ("m2", "errant"):  # the sentence's p, r, f: not --per-sentence's
            for k in "prf":
                fields.pop(k)
        if metric == "m2":
            out.append("\t".join(map(str, [s.index + 1, *fields.values()])))
        else:
            out.append(f"{s.index + 1}\t{system}\t{metric}\t"
                       + " ".join(f"{k}={v}" for k, v in fields.items()))
    return out


@pytest.mark.parametrize("metric", ["m2", "sentm2", "errant", "senterrant", "gleu", "green",
                                    "cleme", "cleme2", "gotoscorer", "imeasure"])
def test_sentence_scores_are_the_per_sentence_rows(tmp_path: Path, metric: str) -> None:
    gold = GLEU / "gold.m2"
    for hyp in SYSTEMS:
        records = quietly(gecformats.sentence_scores, hyp, gold, metric)
        assert _rows(records, metric, hyp.name) == _per_sentence(tmp_path, hyp, gold, metric)[1:]
        lines = hyp.read_text(encoding="utf-8").splitlines()
        assert quietly(gecformats.sentence_scores, lines, gold, metric) == records
        score = records[-1].score
        assert score is None if metric == "imeasure" else isinstance(score, (int, float))


def test_sentence_scores_of_an_m2_hypothesis_and_raw_text(tmp_path: Path) -> None:
    # an M2 hypothesis: its first annotator, as score reads it
    with pytest.warns(gecformats.GecFormatWarning, match="up to 2 annotators"):
        records = gecformats.sentence_scores(GOLD, GOLD)
    assert _rows(records, "m2", "") == \
        _per_sentence(tmp_path, GOLD, GOLD, "m2")[1:]
    raw = ["The cat sat on the mat.", "He went to school every day.",
           "This sentence is correct.", "I like the music."]
    tokenized = gecformats.sentence_scores(raw, GOLD, tokenize="en")
    hyp = tmp_path / "raw.txt"
    hyp.write_text("\n".join(raw) + "\n", encoding="utf-8")
    code, _, err = cli("score", hyp, "--gold", GOLD, "--tokenize", "en", "--per-sentence",
                       tmp_path / "raw.tsv")
    assert code == 0, err
    rows = (tmp_path / "raw.tsv").read_text(encoding="utf-8").splitlines()[1:]
    assert _rows(tokenized, "m2", "") == rows


def test_sentence_scores_of_m2_and_sentm2() -> None:
    m2 = gecformats.sentence_scores(HYP, GOLD)
    assert [(s.annotator, s.correct, s.proposed, s.gold) for s in m2] == [
        (0, 2, 3, 2), (1, 2, 2, 2), (0, 0, 0, 0), (0, 1, 1, 1)]
    assert m2[0].p == pytest.approx(2 / 3) and m2[0].f == m2[0].score
    assert [round(s.f, 4) for s in gecformats.sentence_scores(HYP, GOLD, "sentm2", beta=1.0)
            ] == [0.8, 1.0, 1.0, 1.0]
    with pytest.raises(AttributeError, match="no field 'gleu'"):
        _ = m2[0].gleu


def test_sentence_scorer_prepares_the_gold_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from gecformats.metrics.m2 import M2Metric

    calls = []
    prepare = M2Metric.prepare
    monkeypatch.setattr(M2Metric, "prepare", lambda self, s: calls.append(1) or prepare(self, s))
    gold = list(gecformats.read(GOLD))
    scorer = gecformats.sentence_scorer(gold, "m2", max_unchanged_words=2)
    lines = HYP.read_text(encoding="utf-8").splitlines()
    first = scorer.score(lines)
    assert len(calls) == 4
    assert gecformats.sentence_scores(lines, scorer) == first == scorer.score(HYP)
    assert len(calls) == 4
    gecformats.sentence_scores(lines, GOLD, max_edges=10_000)
    gecformats.sentence_scores(lines, GOLD, max_edges=10_000)  # the file's scorer, kept
    assert len(calls) == 8


def test_sentence_scores_refusals(tmp_path: Path) -> None:
    lines = HYP.read_text(encoding="utf-8").splitlines()
    with pytest.raises(gecformats.GecFormatError, match="3 hypothesis lines for 4 gold"):
        gecformats.sentence_scores(lines[:3], GOLD)
    other = [f"A sentence about something else entirely, number {i} ." for i in range(4)]
    gold = tmp_path / "long.m2"  # the sentence check needs six informative sentences
    gold.write_text("".join(f"S Completely different words appear in sentence {i} here .\n"
                            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                            for i in range(8)), encoding="utf-8")
    with pytest.raises(gecformats.GecFormatError, match="are not .*'s sentences"):
        gecformats.sentence_scores(other * 2, gold)
    assert len(gecformats.sentence_scores(other * 2, gold, check_sentences=False)) == 8
    with pytest.raises(gecformats.UsageError, match="goes with metric"):
        gecformats.sentence_scores(lines, GOLD, "m2", errant_mode="ds")
    targets = FIXTURES / "m2" / "cherrant.m2.char"  # a gold M2 cannot score: located
    with pytest.raises(gecformats.GecFormatError, match=r"^\S+cherrant.m2.char:2: sentence 1"):
        gecformats.sentence_scorer(targets, gold_format="m2")
    with pytest.raises(gecformats.GecFormatError, match="^<sentences>: sentence 1: has ChERRANT"):
        gecformats.sentence_scorer(gecformats.read(targets, format="m2"))


@pytest.mark.shared(COMBINED)
def test_sentence_scores_on_a_conll14_system(tmp_path: Path) -> None:
    gold = shared_file(COMBINED)
    hyp = shared_file("corpora/conll14/official_submissions/CUUI")
    records = gecformats.sentence_scores(hyp, gold)
    assert _rows(records, "m2", "CUUI") == _per_sentence(tmp_path, hyp, gold, "m2")[1:]


@pytest.mark.parametrize("name", ["gecformats", "gecformats.api", "gecformats.metrics.sentences",
                                  "gecformats.metrics.inputs"])
def test_module_examples(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    import doctest
    import importlib

    from conftest import ROOT

    monkeypatch.chdir(ROOT)
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

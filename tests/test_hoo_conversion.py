"""HOO (character offsets) → token-offset M2 and back: fixtures, the CLI, and the
acceptance figures on the real HOO 2011 / 2012 data (skipped without ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES, SHARED
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.formats import hoo2011, hoo2012, m2
from gecformats.formats._hoo import repair_type
from gecformats.model import Document, Edit
from gecformats.convert.retokenize import ConversionReport, to_document, to_sentences
from gecformats.tokenize import get_tokenizer

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("hoo_conversion")

HOO2011 = SHARED / "corpora" / "hoo" / "hoo2011"
HOO2012 = SHARED / "corpora" / "hoo" / "hoo2012" / "train-sample"
needs_2011 = pytest.mark.shared("corpora/hoo/hoo2011")
needs_2012 = pytest.mark.shared("corpora/hoo/hoo2012/train-sample")

runner = CliRunner()


def trimmed(text: str, edit: Edit) -> tuple[int, int]:
    """An edit's offsets with edge white space left out (an insertion point moved past
    white space): HOO annotators put the space around a word inside or outside the edit
    as they pleased, and the token level cannot tell."""
    a, b = edit.start, edit.end
    if a == b:
        while a < len(text) and text[a].isspace():
            a += 1
        return a, a
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def tokens(correction: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(t.text for t in get_tokenizer("en").tokenize("".join(correction)))


def round_trip(documents: list[Document]) -> tuple[int, int, list[str]]:
    """HOO → sentences → M2 text → sentences → HOO for each document; return how many
    exact edits were compared, how many kept everything, and the failures."""
    compared = kept = 0
    failures = []
    for doc in documents:
        report = ConversionReport()
        sentences = to_sentences(doc, report=report)
        # through the M2 text, so that nothing but what M2 holds survives
        again = list(m2.parse(m2.dumps(sentences)))
        back = to_document(again, doc.text, id=doc.id)
        skip = {(c["start"], c["end"]) for c in report.widened_edits + report.dropped_edits}
        # an edit another was merged into (they touched one token) comes back as the merge
        merged = {tuple(c["into"]) for c in report.dropped_edits if "into" in c}
        converted = [e for e in doc.edits if (e.start, e.end) not in skip]
        assert len(back.edits) == len(converted) + len(report.widened_edits)
        returned = iter(back.edits)
        for edit in doc.edits:
            if (edit.start, edit.end) in merged and (edit.start, edit.end) not in skip:
                next(returned)
                continue
            if (edit.start, edit.end) in skip:
                if (edit.start, edit.end) not in {(c["start"], c["end"]) for c in report.dropped_edits}:
                    next(returned)
                continue
            got = next(returned)
            compared += 1
            same = (
                trimmed(doc.text, got) == trimmed(doc.text, edit)
                and got.type == repair_type(edit.type)[0]
                and got.required == edit.required
                and [tokens(c) for c in got.corrections] == [tokens(c) for c in edit.corrections]
            )
            if same:
                kept += 1
            else:
                failures.append(f"{doc.id} {edit.start} {edit.end} {edit.corrections} -> "
                                f"{got.start} {got.end} {got.corrections}")
    return compared, kept, failures


# --------------------------------------------------------------------- fixtures


def test_fixture_documents_convert_and_come_back() -> None:
    docs = list(hoo2011.read(FIXTURES / "hoo2011"))
    assert docs
    compared, kept, failures = round_trip(docs)
    assert compared and kept == compared, failures


def test_cli_hoo2011_to_m2_and_back(tmp_path: Path) -> None:
    out = tmp_path / "fix.m2"
    report = tmp_path / "r.json"
    result = runner.invoke(app, ["convert", str(FIXTURES / "hoo2011"), str(out), "--from",
                                 "hoo2011", "--report", str(report)])
    assert result.exit_code == 0, result.output
    assert "sentences consistent" in result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    for key in ("documents", "sentences", "edits", "converted", "widened", "dropped",
                "consistent_sentences"):
        assert isinstance(data[key], int)
    assert data["edits"] == data["converted"] + data["dropped"]
    assert len(data["dropped_edits"]) == data["dropped"]
    assert len(data["widened_edits"]) == data["widened"]
    assert data["tokenizer"].startswith("en:nltk-")
    sentences = list(m2.read(out))
    assert len(sentences) == data["sentences"]

    back = tmp_path / "back"
    result = runner.invoke(app, ["convert", str(out), str(back), "--from", "m2", "--to",
                                 "hoo2011", "--text", str(FIXTURES / "hoo2011" / "Raw")])
    assert result.exit_code == 0, result.output
    originals = {d.id: d for d in hoo2011.read(FIXTURES / "hoo2011")}
    for doc in hoo2011.read(back):
        assert doc.text == originals[doc.id].text


def test_cli_m2_to_hoo2011_without_text(tmp_path: Path) -> None:
    src = tmp_path / "a.m2"
    src.write_text("S This are a test .\nA 1 2|||SVA|||is|||REQUIRED|||-NONE-|||0\n\n"
                   "S Fine .\nA 1 1|||Mec|||!|||OPTIONAL|||-NONE-|||0\n\n", encoding="utf-8")
    result = runner.invoke(app, ["convert", str(src), str(tmp_path / "out"), "--to", "hoo2011"])
    assert result.exit_code == 0, result.output
    (doc,) = hoo2011.read(tmp_path / "out")
    assert doc.text == "This are a test .\nFine ."
    assert doc.corrected() == "This is a test .\nFine! ."
    assert [e.required for e in doc.edits] == [True, False]


def test_cli_m2_tokens_not_in_text_is_a_clear_error(tmp_path: Path) -> None:
    src = tmp_path / "a.m2"
    src.write_text("S Something else .\n\n", encoding="utf-8")
    text = tmp_path / "t.txt"
    text.write_text("This is the text.", encoding="utf-8")
    result = runner.invoke(app, ["convert", str(src), str(tmp_path / "out"), "--to", "hoo2011",
                                 "--text", str(text)])
    assert result.exit_code == 1
    assert "sentence 1, token 0 'Something'" in result.output
    assert f"gecformats: {text}: " in result.output  # names the text it was checked against
    assert not (tmp_path / "out").exists()


def test_hoo2012_fixture_converts() -> None:
    report = ConversionReport()
    docs = list(hoo2012.read(FIXTURES / "hoo2012"))
    sentences = [s for d in docs for s in to_sentences(d, report=report)]
    assert report.edits == report.converted + report.dropped
    assert report.consistent_sentences == report.sentences == len(sentences)


# --------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def hoo2011_docs() -> list[Document]:
    return [d for part in ("develop", "test") for d in hoo2011.read(HOO2011 / part)]


@pytest.fixture(scope="module")
def hoo2011_report(hoo2011_docs: list[Document]) -> ConversionReport:
    report = ConversionReport()
    for doc in hoo2011_docs:
        to_sentences(doc, report=report)
    return report


@needs_2011
def test_hoo2011_every_edit_is_converted_or_reported(hoo2011_report: ConversionReport) -> None:
    r = hoo2011_report
    assert r.documents == 37
    assert r.edits == 2281
    assert r.edits == r.converted + r.dropped
    assert len(r.dropped_edits) == r.dropped and len(r.widened_edits) == r.widened
    assert r.reasons("dropped")["detection-only"] == 28
    # "kernel" "," → "and" is "kernel and", not "kerneland" (issue 22)
    assert r.reasons("repaired") == {"lost leading space": 10, "would glue words": 5}
    assert r.reasons("dropped")["merged into an overlapping edit"] == 2  # in "1,825/2,195"
    assert all({"document", "start", "end", "reason"} <= set(c) for c in r.dropped_edits + r.widened_edits)


@needs_2011
def test_hoo2011_consistency_at_least_97_percent(hoo2011_report: ConversionReport) -> None:
    r = hoo2011_report
    assert r.consistent_sentences / r.sentences >= 0.97
    assert len(r.inconsistent_sentences) == r.sentences - r.consistent_sentences
    assert all(c["reason"] for c in r.inconsistent_sentences)


@needs_2011
def test_hoo2011_round_trip_keeps_every_exact_edit(hoo2011_docs: list[Document]) -> None:
    compared, kept, failures = round_trip(hoo2011_docs)
    assert compared > 2100
    assert kept == compared, failures[:10]


@needs_2011
def test_hoo2011_cli_directory_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "test.m2"
    result = runner.invoke(app, ["convert", str(HOO2011 / "test"), str(out), "--from", "hoo2011"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["convert", str(out), str(tmp_path / "back"), "--from", "m2",
                                 "--to", "hoo2011", "--text", str(HOO2011 / "test")])
    assert result.exit_code == 0, result.output
    back = list(hoo2011.read(tmp_path / "back"))
    assert [d.id for d in back] == [d.id for d in hoo2011.read(HOO2011 / "test")]


@needs_2012
def test_hoo2012_sample_converts_and_comes_back() -> None:
    report = ConversionReport()
    docs = list(hoo2012.read(HOO2012))
    for doc in docs:
        to_sentences(doc, report=report)
    assert report.edits == 181 == report.converted + report.dropped
    assert report.consistent_sentences / report.sentences >= 0.97
    compared, kept, failures = round_trip(docs)
    assert kept == compared, failures[:10]


@needs_2012
def test_hoo2012_cli(tmp_path: Path) -> None:
    out = tmp_path / "h.m2"
    report = tmp_path / "r.json"
    result = runner.invoke(app, ["convert", str(HOO2012), str(out), "--from", "hoo2012",
                                 "--report", str(report)])
    assert result.exit_code == 0, result.output
    assert json.loads(report.read_text(encoding="utf-8"))["edits"] == 181


def test_api_convert_returns_the_conversion_report(tmp_path: Path) -> None:
    report = convert(FIXTURES / "hoo2011", tmp_path / "x.m2", from_format="hoo2011", to_format="m2")
    assert report.conversion is not None
    assert report.conversion.sentences == report.sentences


def test_hoo2012_parts_become_hoo2011_documents(tmp_path: Path) -> None:
    result = runner.invoke(app, ["convert", str(FIXTURES / "hoo2012"), str(tmp_path / "out"),
                                 "--from", "hoo2012", "--to", "hoo2011"])
    assert result.exit_code == 0, result.output
    assert "paragraph breaks" in result.output  # HOO 2011 cannot hold them: reported
    parts = list(hoo2012.read(FIXTURES / "hoo2012"))
    docs = list(hoo2011.read(tmp_path / "out"))
    assert sorted(d.id for d in docs) == sorted(f"{p.id}-{p.meta['hoo2012.part']}" for p in parts)
    by_id = {d.id: d for d in docs}
    for p in parts:
        d = by_id[f"{p.id}-{p.meta['hoo2012.part']}"]
        assert d.text == p.text and d.edits == p.edits


def test_stats_on_hoo_data_says_to_convert_first() -> None:
    result = runner.invoke(app, ["stats", str(FIXTURES / "hoo2011"), "--from", "hoo2011"])
    assert result.exit_code == 1
    assert "convert hoo2011 data to M2 first" in result.output


def test_validate_hoo_counts_documents() -> None:
    result = runner.invoke(app, ["validate", str(FIXTURES / "hoo2011"), "--from", "hoo2011"])
    assert result.exit_code == 1
    assert " document " in result.output and "malformed-type" in result.output


# ------------------------------------------------- issue 22: HOO folders, reports, summary


@needs_2011
def test_hoo2011_corpus_folder_with_develop_and_test(tmp_path: Path) -> None:
    """`convert hoo2011/ out.m2 --from hoo2011` (develop/ and test/ inside) converts both,
    develop first; the summary line names --report; a dropped edit's case shows its
    original text, corrections and type."""
    out, report = tmp_path / "all.m2", tmp_path / "r.json"
    result = runner.invoke(app, ["convert", str(HOO2011), str(out), "--from", "hoo2011"])
    assert result.exit_code == 0, result.output
    assert "37 documents" in result.output
    assert "every case listed with --report R.json" in result.output
    parts = []
    for name in ("develop", "test"):
        part = tmp_path / f"{name}.m2"
        convert(HOO2011 / name, part, from_format="hoo2011")
        parts.append(part.read_text(encoding="utf-8"))
    assert out.read_text(encoding="utf-8") == "".join(parts)
    result = runner.invoke(app, ["convert", str(HOO2011), str(out), "--from", "hoo2011",
                                 "--report", str(report)])
    assert result.exit_code == 0 and f"every case in {report}" in result.output
    dropped = json.loads(report.read_text(encoding="utf-8"))["dropped_edits"]
    assert dropped and all({"original", "corrections", "type", "reason"} <= set(case)
                           for case in dropped)
    detection = next(c for c in dropped if c["reason"] == "detection-only")
    assert detection["corrections"] == [] and detection["type"] and detection["original"]


def test_hoo_folder_whose_subfolders_repeat_an_id_says_which_to_take(tmp_path: Path) -> None:
    import shutil

    for name in ("a", "b"):
        shutil.copytree(FIXTURES / "hoo2011", tmp_path / "corpus" / name,
                        ignore=shutil.ignore_patterns("invalid"))
    result = runner.invoke(app, ["convert", str(tmp_path / "corpus"), str(tmp_path / "o.m2"),
                                 "--from", "hoo2011"])
    assert result.exit_code == 1
    assert "document 0001 is in both" in result.output
    assert "convert one of the subfolders" in result.output and str(tmp_path / "corpus" / "b") in result.output
    assert not (tmp_path / "o.m2").exists()
    shutil.rmtree(tmp_path / "corpus" / "b")
    result = runner.invoke(app, ["convert", str(tmp_path / "corpus"), str(tmp_path / "o.m2"),
                                 "--from", "hoo2011"])
    assert result.exit_code == 0, result.output

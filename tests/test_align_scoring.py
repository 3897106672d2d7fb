"""Scoring outputs whose segmentation differs from the gold's (issue 35): ``score --align``,
``report --align``, ``meta-eval --align`` and ``score --unit sentence|document`` on the one
pipeline, for every metric (gecformats.metrics.pipeline, gecformats.convert.documents)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import FIXTURES, shared_file
from inputs_helpers import GOLD, METRICS, SYSTEM, lines, run, write
from gecformats.convert.documents import documents, merge, sizes
from gecformats.formats import m2
from gecformats.metrics.m2 import M2Metric
from gecformats.metrics.pipeline import evaluate

ESSAYS_GOLD = FIXTURES / "inputs" / "essays.m2"
ESSAYS = FIXTURES / "inputs" / "essays.txt"


def resegmented(tmp_path: Path) -> Path:
    rows = lines()
    merged = [rows[0] + " " + rows[1], *rows[2:6], rows[6] + " " + rows[7] + " " + rows[8]]
    split = rows[9].split(" , ")
    merged += [split[0] + " ,", " , ".join(split[1:]), *rows[10:]]
    return write(tmp_path / "resegmented.txt", merged)


# ------------------------------------------------------------------ --align


@pytest.mark.parametrize("metric", METRICS)
def test_align_gives_every_metric_the_numbers_of_the_aligned_output(tmp_path: Path,
                                                                     metric: str) -> None:
    hyp = resegmented(tmp_path)
    code, out, err = run("score", hyp, "--gold", GOLD, "--metric", metric, "--align", "-q",
                         "--format", "tsv")
    assert code == 0, err
    code, want, _ = run("score", SYSTEM, "--gold", GOLD, "--metric", metric, "-q",
                        "--format", "tsv")
    assert out.splitlines()[1].split("\t")[1:] == want.splitlines()[1].split("\t")[1:]
    assert "|align:yes" in out
    assert f"gecformats: note: {hyp}: 12 lines onto 14 sentences of {GOLD}" in err
    assert "2 lines cut into 5 sentences" in err and "1 sentence joined from 2 lines" in err


def test_without_align_the_line_count_error_points_to_it(tmp_path: Path) -> None:
    code, _, err = run("score", resegmented(tmp_path), "--gold", GOLD)
    assert code == 1 and "score it with --align, or re-segment it with `gecformats align" in err
    rows = lines()
    short = write(tmp_path / "short.txt", rows[:-1])
    code, _, err = run("score", short, "--gold", GOLD)  # one line short: the count error
    assert code == 1 and "score --align, or `gecformats align`" in err


def test_a_file_that_is_the_gold_s_sentences_is_taken_as_it_is(tmp_path: Path) -> None:
    """`--align` re-segments only what needs it: an output with the gold's line count that
    passes the sentence check keeps its lines (NTHU's mixed-up lines stay as NTHU wrote
    them)."""
    run_ = evaluate([SYSTEM, resegmented(tmp_path)], GOLD, [M2Metric()], align=True)
    assert run_.alignments[0] is None and run_.alignments[1] is not None
    assert run_.info == [run_.alignments[1].summary(str(tmp_path / "resegmented.txt"),
                                                     str(GOLD))]


@pytest.mark.parametrize("engine", [["--jobs", "2"], ["--unit", "sentence"]])
def test_align_twins(tmp_path: Path, engine: list[str]) -> None:
    hyp = resegmented(tmp_path)
    args = ["score", hyp, SYSTEM, "--gold", GOLD, "--metric", "m2", "--metric", "gleu",
            "--align", "-q"]
    assert run(*args)[1] == run(*args, *engine)[1]


def test_report_shows_the_links_on_the_sentence_cards(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    code, _, err = run("report", resegmented(tmp_path), "--gold", GOLD, "--align", "-o", out,
                       "-q")
    assert code == 0 and "note:" in err
    page = out.read_text(encoding="utf-8")
    data = json.loads(page[page.index('{"systems"'):page.index("</script>", page.index(
        '{"systems"'))].rstrip().rstrip(";"))
    assert data["links"][0]["0"][:3] == ["cut", 1, 1]
    assert data["links"][0]["9"][0] == "joined"


def test_meta_eval_aligns_outputs_that_need_it(tmp_path: Path) -> None:
    import shutil

    data = tmp_path / "seeda"
    shutil.copytree(FIXTURES / "metaeval" / "seeda-tiny", data)
    bart = data / "outputs" / "subset" / "BART.txt"
    rows = bart.read_text(encoding="utf-8").split("\n")
    bart.write_text(rows[0] + " " + rows[1] + "\n" + "\n".join(rows[2:]), encoding="utf-8")
    args = ["meta-eval", "--dataset", "seeda", "--data", data, "--gold", data / "gold.m2",
            "--metric", "m2", "-q"]
    code, _, err = run(*args)
    assert code == 1 and "BART.txt" in err
    code, out, err = run(*args, "--align")
    assert code == 0 and "|align:yes" in out and "BART.txt: 2 lines onto 3 sentences" in err


@pytest.mark.shared("corpora/conll14/official_submissions/AMU")
def test_conll14_resegmented_outputs_score_as_the_originals() -> None:
    """Issue 35 item 3: adjacent lines merged and lines split a few percent each, or runs
    of 5-40 lines joined into paragraphs: the aligned output gives the original F0.5."""
    gold = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    sources = [s.source for s in m2.read(gold)]
    for system, seed in (("AMU", 3), ("CUUI", 4)):
        rows = shared_file(f"corpora/conll14/official_submissions/{system}").read_text(
            encoding="utf-8").split("\n")[:len(sources)]
        rng = random.Random(seed)
        cut: list[str] = []
        i = 0
        while i < len(rows):
            if rng.random() < 0.5:
                n = rng.randint(5, 40)
                cut.append(" ".join(rows[i:i + n]))
                i += n
            else:
                cut.append(rows[i])
                i += 1
        from gecformats.convert.align import align_lines

        aligned = align_lines(sources, cut).lines
        same = sum(a.strip() == b.strip() for a, b in zip(aligned, rows)) / len(rows)
        assert same >= 0.995


# ------------------------------------------------------------------ --unit document


def test_documents_group_the_gold_s_sentences() -> None:
    golds = list(m2.read(ESSAYS_GOLD))
    assert sizes(golds) == [5, 4, 5]
    docs = list(documents(golds))
    assert [d.meta["document"] for d in docs] == ["0001", "0002", "0003"]
    assert docs[0].source == tuple(t for s in golds[:5] for t in s.source)
    assert docs[0].corrected(0) == tuple(t for s in golds[:5] for t in s.corrected(0))
    assert merge(golds[:1]) is golds[0]


@pytest.mark.parametrize("metric", ["m2", "errant", "gleu", "green", "sentm2", "cleme"])
def test_a_document_a_line_or_a_sentence_a_line_give_the_same_units(metric: str) -> None:
    out = []
    for hyp in (ESSAYS, SYSTEM):
        code, text, err = run("score", hyp, "--gold", ESSAYS_GOLD, "--unit", "document",
                              "--metric", metric, "-q", "--format", "tsv")
        assert code == 0, err
        out.append(text.splitlines()[1].split("\t")[1:])
        assert "|unit:document" in text
    assert out[0] == out[1]


def test_any_other_segmentation_is_aligned_then_joined(tmp_path: Path) -> None:
    rows = lines()
    odd = write(tmp_path / "odd.txt", [" ".join(rows[:3]), " ".join(rows[3:7]), *rows[7:]])
    code, out, _ = run("score", odd, "--gold", ESSAYS_GOLD, "--unit", "document", "-q",
                       "--format", "tsv")
    code2, want, _ = run("score", ESSAYS, "--gold", ESSAYS_GOLD, "--unit", "document", "-q",
                         "--format", "tsv")
    assert code == code2 == 0
    assert [r.split("\t")[1:] for r in out.splitlines()[1:]] == \
        [r.split("\t")[1:] for r in want.splitlines()[1:]]


def test_document_units_twins_and_weights(tmp_path: Path) -> None:
    args = ["score", ESSAYS, SYSTEM, "--gold", ESSAYS_GOLD, "--unit", "document", "-q",
            "--metric", "m2", "--metric", "gotoscorer", "--weights-from", SYSTEM]
    code, out, err = run(*args)
    assert code == 0, err
    assert run(*args, "--jobs", "2")[1] == out


def test_a_gold_without_documents_is_refused() -> None:
    code, _, err = run("score", SYSTEM, "--gold", GOLD, "--unit", "document")
    assert code == 1 and "name no document" in err


@pytest.mark.shared("corpora/ua-gec/data/gec-only/test/gec-only.test.subset.m2")
def test_ua_gec_documents_align_onto_the_corpus_sentences() -> None:
    """Issue 35 item 4: each UA-GEC target document aligned onto its source sentences
    gives back the corpus' own target sentences (120 documents, both annotators)."""
    from gecformats.convert.align import align_lines
    from gecformats.io import numbered_lines

    test = shared_file("corpora/ua-gec/data/gec-only/test")
    total = same = 0
    for target in sorted((test / "target").iterdir()):
        doc = target.name.split(".")[0]
        sources = [t for _, t in numbered_lines(test / "source-sentences" / f"{doc}.src.txt")]
        want = [t for _, t in numbered_lines(test / "target-sentences" / target.name)]
        got = align_lines(sources, [t for _, t in numbered_lines(target)]).lines
        total += len(want)
        same += sum(a.strip() == b.strip() for a, b in zip(got, want))
    assert same == total == 1330

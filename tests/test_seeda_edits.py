"""SEEDA edit judgments (gecformats.formats.seeda_edits): [orig→corr|label] candidates, read
into the model with the label per edit and written back (spec formats-more.md §7)."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import m2, seeda_edits
from gecformats.model import Edit, Sentence

FOLDER = FIXTURES / "seeda"
BROKEN = FOLDER / "invalid" / "broken.txt"


def run(*args: object) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_an_item_reads_into_edits_with_their_labels() -> None:
    items = list(seeda_edits.read(FOLDER / "annotator1"))
    assert [i.id for i in items] == ["0", "1"]
    first = items[0]
    assert first.source[:2] == ("Afterall", ",") and sorted(first.annotators) == [0, 1, 2]
    assert [(e.start, e.end, e.correction, e.comment) for e in first.annotators[0]] == [
        (0, 1, ("After", "all"), "True"), (10, 10, (",",), "True"),
        (12, 13, ("family",), "True"), (17, 17, ("-",), "False")]
    assert first.annotators[2] == ()
    assert first.meta[seeda_edits.TARGET_META].endswith("the families [has] a common make up .")
    assert [seeda_edits.validity(e) for e in items[1].annotators[1]] == [True, True, True]


def test_labels_that_are_not_true_or_false() -> None:
    [item] = seeda_edits.read(FOLDER / "annotator2" / "0.txt")
    assert [e.comment for e in item.annotators[0]] == ["True", "False|True"]
    assert [seeda_edits.validity(e) for e in item.annotators[0]] == [True, None]
    assert item.source[-1] == "."  # ']' glued to the next token: still a token of its own


def test_a_folder_reads_in_number_order_with_paths_as_ids(tmp_path: Path) -> None:
    for n in (10, 2, 1):
        (tmp_path / "annotator1").mkdir(exist_ok=True)
        (tmp_path / "annotator1" / f"{n}.txt").write_bytes(
            (FOLDER / "annotator2" / "0.txt").read_bytes())
    assert [i.id for i in seeda_edits.read(tmp_path)] == ["annotator1/1", "annotator1/2",
                                                         "annotator1/10"]


def test_read_then_write_gives_the_files_back(tmp_path: Path) -> None:
    seeda_edits.write(seeda_edits.read(FOLDER / "annotator1"), tmp_path / "out")
    for path in (FOLDER / "annotator1").glob("*.txt"):
        assert (tmp_path / "out" / path.name).read_bytes() == path.read_bytes()
    seeda_edits.write(seeda_edits.read(FOLDER / "annotator1"), tmp_path / "all.txt")
    assert [i.annotators for i in seeda_edits.read(tmp_path / "all.txt")] == \
        [i.annotators for i in seeda_edits.read(FOLDER / "annotator1")]


def test_malformed_markup_is_an_error_naming_file_and_line() -> None:
    with pytest.raises(GecFormatError, match="candidate <s2>: '\\[' outside a well-formed") as info:
        list(seeda_edits.read(BROKEN))
    assert info.value.file == str(BROKEN) and info.value.line == 8


def test_malformed_candidates_can_be_recorded_and_left_out(tmp_path: Path) -> None:
    problems: list = []
    [item] = seeda_edits.read(BROKEN, problems)
    assert [(n, e.line) for n, e in problems] == [(1, 8)]
    assert sorted(item.annotators) == [0, 2] and item.meta[seeda_edits.MALFORMED_META] == "2"
    seeda_edits.write([item], tmp_path / "b.txt")
    assert (tmp_path / "b.txt").read_bytes() == BROKEN.read_bytes()  # kept verbatim


def test_a_candidate_whose_source_differs_is_the_one_blamed() -> None:
    text = BROKEN.read_text().replace(
        "<s2>[Afterall→After all] |True, what affects one family may not affect "
        "[another→other]|True .</s2>", "<s2>Afterall , what affects one family may affect "
        "another .</s2>")
    problems: list = []
    [item] = seeda_edits.read(io.StringIO(text), problems)
    assert "candidate <s2>: its source differs from that of 2 other" in problems[0][1].message
    assert sorted(item.annotators) == [0, 2]


def test_a_line_out_of_place_is_an_error() -> None:
    text = BROKEN.read_text().replace("<Correction>", "<Corrections>")
    with pytest.raises(GecFormatError, match="line 6 of an item must be '<Correction>'"):
        list(seeda_edits.read(io.StringIO(text)))


def test_validate_stats_convert(tmp_path: Path) -> None:
    assert run("validate", FOLDER / "annotator1", "--from", "seeda-edits").exit_code == 0
    result = run("validate", BROKEN, "--from", "seeda-edits")
    assert "broken.txt:8: sentence 1: syntax: candidate <s2>" in result.stdout
    assert "0: 5 edits" in run("stats", FOLDER / "annotator1", "--from", "seeda-edits").stdout
    result = run("convert", FOLDER / "annotator1", tmp_path / "o.m2", "--from", "seeda-edits",
                 "--report", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert "A 17 17||||||-|||REQUIRED|||False|||0" in (tmp_path / "o.m2").read_text()
    result = run("convert", BROKEN, tmp_path / "b.m2", "--from", "seeda-edits")
    assert result.exit_code == 1 and "broken.txt:8:" in result.stderr


def test_the_labels_survive_m2(tmp_path: Path) -> None:
    items = list(seeda_edits.read(FOLDER / "annotator1"))
    back = list(m2.read(io.StringIO(m2.dumps(items))))
    assert [b.annotators for b in back] == [i.annotators for i in items]
    seeda_edits.write(back, tmp_path / "again")
    assert "[families→family|True]" in (tmp_path / "again" / "item-1.txt").read_text()


WORDS = st.sampled_from(["a", "b", "the", ",", ".", "can't", "é"])


@settings(max_examples=80, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8), st.data())
def test_written_candidates_read_back_with_the_same_offsets(tokens: list[str],
                                                            data: st.DataObject) -> None:
    n = len(tokens)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    edits = []
    for i in range(0, len(cuts) - 1, 2):
        correction = tuple(data.draw(st.lists(WORDS, max_size=2)))
        label = data.draw(st.sampled_from(["True", "False", "Truey"]))
        edits.append(Edit(cuts[i], cuts[i + 1], (correction,), "", True, label, 0))
    item = Sentence(tuple(tokens), {0: tuple(edits), 1: ()})
    out = io.StringIO()
    seeda_edits.write([item], out)
    [back] = seeda_edits.read(io.StringIO(out.getvalue()))
    assert back.source == item.source and back.annotators == item.annotators


# ------------------------------------------------------------------- the corpus (../shared)


def test_the_corpus_reads_and_writes_back(tmp_path: Path) -> None:
    folder = shared_file("corpora/seeda/data/EditEval_Step1")
    problems: list = []
    items = list(seeda_edits.read(folder, problems))
    candidates = sum(len(i.annotators) for i in items)
    labels = Counter(seeda_edits.validity(e) for i in items for e in i.edits)
    malformed = sum("outside a well-formed edit" in e.message for _, e in problems)
    differing = sum("source differs" in e.message for _, e in problems)
    print(f"\n{len(items)} items, {candidates} candidates read, {malformed} malformed, "
          f"{differing} with another source; labels {dict(labels)}")
    assert (len(items), candidates, malformed, differing) == (600, 2488, 23, 1)
    assert labels == {True: 5804, False: 592, None: 1}
    seeda_edits.write(items, tmp_path / "out")
    files = sorted(folder.rglob("*.txt"))
    same = sum((tmp_path / "out" / p.relative_to(folder)).read_bytes() == p.read_bytes()
               for p in files)
    assert same == len(files) == 600
    strict = 0
    for path in files:
        try:
            list(seeda_edits.read(path))
            strict += 1
        except GecFormatError:
            pass
    assert strict == 577  # 23 files have a malformed or differing candidate
    result = run("validate", folder, "--from", "seeda-edits")
    assert result.stdout.count(": syntax: ") == 24

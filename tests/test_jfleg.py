"""JFLEG: the NAME.src/NAME.ref<k> layout read as parallel text, and its M2 dialect
(gecformats.formats.jfleg); GLEU versions are in test_gleu.py."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import jfleg, parallel

DEV = FIXTURES / "jfleg" / "dev"
M2 = FIXTURES / "jfleg" / "sample.ref.m2"


def run(*args: object) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_a_jfleg_folder_reads_as_parallel_with_four_references() -> None:
    items = list(parallel.read(DEV))
    assert len(items) == 3 and all(len(p.references) == 4 for p in items)
    assert items[1].source == "They has a cat . "  # verbatim: dev lines end with a space
    assert items[1].references[3] == "They had a cat . "


def test_a_folder_with_two_sources_with_references_is_refused(tmp_path: Path) -> None:
    for name in ("a.src", "a.ref0", "b.src", "b.ref0"):
        (tmp_path / name).write_text("x\n")
    with pytest.raises(GecFormatError, match="several JFLEG sources"):
        list(parallel.read(tmp_path))


def test_validate_stats_convert_of_the_folder(tmp_path: Path) -> None:
    assert run("validate", DEV, "--from", "parallel").exit_code == 0
    assert "3: 3 (1 unchanged" in run("stats", DEV, "--from", "parallel").stdout
    result = run("convert", DEV, tmp_path / "o.m2", "--from", "parallel", "--tokenizer", "space",
                 "--report", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o.m2").read_text().count("S ") == 3


def test_the_dialect_fills_absent_annotators_and_writes_them_back_out() -> None:
    sentences = list(jfleg.read(M2))
    assert [sorted(s.annotators) for s in sentences] == [[0, 1, 2, 3]] * 3
    assert sentences[0].meta[jfleg.ABSENT_META] == "3"
    assert " ".join(sentences[0].corrected(1)) == "newer technology has been introduced into society ."
    assert sentences[2].annotators[0] == ()
    out = io.StringIO()
    jfleg.write(sentences, out)
    assert out.getvalue() == M2.read_text()


def test_reading_the_dialect_warns_what_it_cannot_reproduce(tmp_path: Path) -> None:
    result = run("convert", M2, tmp_path / "out", "--from", "jfleg", "--to", "parallel")
    assert result.exit_code == 0
    assert "warning: JFLEG's M2 is not its references" in result.stderr
    assert (tmp_path / "out" / "annotator-3.txt").read_text().splitlines()[0] == \
        "New and new technology has been introduced to the society ."


@pytest.mark.parametrize("split, exact, case", [
    ("test", (608, 615, 612, 594), (137, 130, 134, 152)),
    ("dev", (582, 582, 612, 605), (144, 145, 117, 122))])
def test_the_corpus_m2_against_its_references(tmp_path: Path, split: str, exact: tuple,
                                              case: tuple) -> None:
    """SOURCE.md's table: annotator k's edits give ref{k} exactly, or but for letter case."""
    m2 = shared_file(f"corpora/jfleg/EACL_exp/m2converter/{split}.ref.m2")
    folder = shared_file(f"corpora/jfleg/{split}")
    out = tmp_path / "refs"
    assert run("convert", m2, out, "--from", "jfleg", "--to", "parallel").exit_code == 0
    for k in range(4):
        ours = (out / f"annotator-{k}.txt").read_text().splitlines()
        theirs = [line.rstrip(" ") for line in (folder / f"{split}.ref{k}").read_text().splitlines()]
        assert sum(a == b for a, b in zip(ours, theirs)) == exact[k]
        assert sum(a != b and a.lower() == b.lower() for a, b in zip(ours, theirs)) == case[k]


def test_the_corpus_m2_round_trips(tmp_path: Path) -> None:
    m2 = shared_file("corpora/jfleg/EACL_exp/m2converter/dev.ref.m2")
    out = tmp_path / "dev.ref.m2"
    assert run("convert", m2, out, "--from", "jfleg", "--to", "jfleg").exit_code == 0
    assert out.read_bytes() == m2.read_bytes()
    test = shared_file("corpora/jfleg/EACL_exp/m2converter/test.ref.m2")
    assert run("convert", test, out, "--from", "jfleg", "--to", "jfleg").exit_code == 0
    assert out.read_bytes() == test.read_bytes() + b"\n"  # its last empty line is missing


def test_the_corpus_folder_reads_as_parallel() -> None:
    items = list(parallel.read(shared_file("corpora/jfleg/test")))
    assert len(items) == 747 and all(len(p.references) == 4 for p in items)

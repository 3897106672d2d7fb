"""The plain-text formats: parallel (folder or files), tsv, nlpcc (NLPCC 2018 training), cherrant."""

from __future__ import annotations

import doctest
import importlib
import io
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats import formats
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import cherrant, nlpcc, parallel, tsv
from gecformats.model import Parallel
from gecformats.validate import FORMATS, TEXT_KINDS, validate, validate_parallel

HERE = FIXTURES / "parallel"
EN = HERE / "en"
INVALID = HERE / "invalid"

EN_ITEMS = [
    Parallel("He go to school every days .",
             ("He goes to school every day .", "He goes to school every day .")),
    Parallel("She have two cat .", ("She has two cats .", "She has two cats .")),
    Parallel("", ("", "")),
    Parallel("I am agree with you .", ("I agree with you .", "I am in agreement with you .")),
]


def write_bytes(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def dumps(module: object, items: list[Parallel]) -> str:
    out = io.StringIO()
    module.write(items, out)  # type: ignore[attr-defined]
    return out.getvalue()


# ----------------------------------------------------------------------------- strategies

# one line, one field: no tab, no line break, no U+FEFF (the readers drop it), no surrogates
TEXT = st.text(st.characters(blacklist_categories=("Cs",),
                             blacklist_characters="\t\n\r\ufeff"), max_size=12)


@st.composite
def parallel_items(draw: st.DrawFn, absent: bool = False, ids: bool = False) -> list[Parallel]:
    items = []
    for _ in range(draw(st.integers(0, 6))):
        refs = draw(st.lists(st.none() | TEXT if absent else TEXT, max_size=4))
        items.append(Parallel(draw(TEXT), tuple(refs), draw(TEXT) if ids else None))
    return items


# ----------------------------------------------------------------------------- registration


def test_registered_and_inferred() -> None:
    for name in ("parallel", "tsv", "nlpcc", "cherrant"):
        module = formats.get(name)
        assert module.NAME == name and module.UNIT == "text" and name in FORMATS
    assert formats.infer("a.tsv") == "tsv"
    assert formats.infer("data.train") == "nlpcc"
    assert formats.infer("data.train.gz") == "nlpcc"
    assert formats.infer("x.m2") == "m2"
    with pytest.raises(GecFormatError, match="cannot tell"):
        formats.infer("source.txt")
    assert set(TEXT_KINDS) == {"syntax", "field-count", "line-count"}


@pytest.mark.parametrize("name", ["parallel", "tsv", "nlpcc", "cherrant"])
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"gecformats.formats.{name}"))
    assert result.attempted > 0 and result.failed == 0


# ---------------------------------------------------------------------------- parallel: read


def test_parallel_folder_and_files_read_the_same() -> None:
    assert list(parallel.read(EN)) == EN_ITEMS
    refs = [EN / "annotator-0.txt", EN / "annotator-1.txt"]
    assert list(parallel.read(EN / "source.txt", refs=refs)) == EN_ITEMS
    # a single path is one reference; an open file is accepted too
    one = list(parallel.read(EN / "source.txt", refs=EN / "annotator-1.txt"))
    assert [p.references for p in one] == [(p.references[1],) for p in EN_ITEMS]
    with open(EN / "source.txt", "rb") as fh:
        assert [p.source for p in parallel.read(fh)] == [p.source for p in EN_ITEMS]


def test_parallel_empty_line_is_a_sentence() -> None:
    items = list(parallel.read(EN))
    assert len(items) == 4 and items[2] == Parallel("", ("", ""))


def test_parallel_missing_annotator_number_is_none() -> None:
    items = list(parallel.read(HERE / "gap"))
    assert items == [Parallel("a b", ("a B", None, "A b")), Parallel("c d", ("c D", None, "C d"))]


def test_parallel_crlf_and_bom_anywhere(tmp_path: Path) -> None:
    src = write_bytes(tmp_path / "src.txt", b"\xef\xbb\xbfa b\r\nc\xef\xbb\xbf d\r\n\r\n")
    ref = write_bytes(tmp_path / "ref.txt", "A b\n\ufeffC d\ufeff\r\n\ufeff\n".encode())
    assert list(parallel.read(src, [ref])) == [
        Parallel("a b", ("A b",)), Parallel("c d", ("C d",)), Parallel("", ("",))]


@pytest.mark.parametrize("ref_lines, shorter", [(2, "ref.txt"), (5, "src.txt")])
def test_parallel_line_count_mismatch_names_both_counts(
    tmp_path: Path, ref_lines: int, shorter: str
) -> None:
    src = write_bytes(tmp_path / "src.txt", b"a\nb\nc\n")
    ref = write_bytes(tmp_path / "ref.txt", b"".join(b"R\n" for _ in range(ref_lines)))
    seen = []
    with pytest.raises(GecFormatError) as err:
        for item in parallel.read(src, [ref]):
            seen.append(item)
    assert len(seen) == min(3, ref_lines)  # the aligned sentences, then the error
    e = err.value
    assert e.kind == "line-count" and e.file == str(ref) and e.line == min(3, ref_lines) + 1
    assert f"{ref} has {ref_lines} lines but {src} has 3" in e.message


def test_parallel_mismatch_names_every_file_that_differs() -> None:
    with pytest.raises(GecFormatError) as err:
        list(parallel.read(INVALID / "mismatch"))
    assert "annotator-0.txt has 2 lines" in str(err.value)
    assert "annotator-1.txt has 5 lines" in str(err.value)
    assert str(err.value).count("source.txt has 3") == 2


def test_parallel_bad_utf8_names_its_own_file(tmp_path: Path) -> None:
    src = write_bytes(tmp_path / "src.txt", b"a\nb\n")
    ref = write_bytes(tmp_path / "ref.txt", b"A\nB\xff\n")
    with pytest.raises(GecFormatError, match="UTF-8") as err:
        list(parallel.read(src, [ref]))
    assert (err.value.file, err.value.line) == (str(ref), 2)


def test_parallel_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(GecFormatError, match="no source.txt"):
        list(parallel.read(tmp_path))
    write_bytes(tmp_path / "source.txt", b"a\n")
    write_bytes(tmp_path / "annotator-1.txt", b"A\n")
    write_bytes(tmp_path / "notes.txt", b"ignored\n")
    assert list(parallel.read(tmp_path)) == [Parallel("a", (None, "A"))]
    with pytest.raises(GecFormatError, match="cannot be given"):
        list(parallel.read(tmp_path, [tmp_path / "annotator-1.txt"]))
    write_bytes(tmp_path / "annotator-01.txt", b"A\n")
    with pytest.raises(GecFormatError, match="both annotator 1"):
        list(parallel.read(tmp_path))
    (tmp_path / "annotator-01.txt").unlink()
    write_bytes(tmp_path / "annotator-x.txt", b"A\n")
    with pytest.raises(GecFormatError, match="non-negative integer"):
        list(parallel.read(tmp_path))


# --------------------------------------------------------------------------- parallel: write


def test_parallel_write_and_read_back(tmp_path: Path) -> None:
    report = parallel.write(EN_ITEMS, tmp_path / "out")
    assert report.sentences == 4 and report.lossless
    for name in ("source.txt", "annotator-0.txt", "annotator-1.txt"):
        assert (tmp_path / "out" / name).read_bytes() == (EN / name).read_bytes()
    assert list(parallel.read(tmp_path / "out")) == EN_ITEMS


def test_parallel_write_backfills_a_late_annotator(tmp_path: Path) -> None:
    items = [Parallel("s1", ()), Parallel("s2", ("r2",)), Parallel("s3", ()),
             Parallel("s4", (None, None, "q4")), Parallel("s5", ("r5", None, "q5"))]
    report = parallel.write(items, tmp_path / "out")
    out = tmp_path / "out"
    assert sorted(os.listdir(out)) == ["annotator-0.txt", "annotator-2.txt", "source.txt"]
    assert (out / "source.txt").read_text() == "s1\ns2\ns3\ns4\ns5\n"
    assert (out / "annotator-0.txt").read_text() == "s1\nr2\ns3\ns4\nr5\n"
    assert (out / "annotator-2.txt").read_text() == "s1\ns2\ns3\nq4\nq5\n"
    notes = report.notes  # an absent annotator loses nothing: a note, not a loss
    count, examples = notes.counts[parallel.ABSENT], notes.examples[parallel.ABSENT]
    # annotator 0: sentences 1, 3, 4; annotator 2: sentences 1-3
    assert count == 6
    assert examples[0] == "sentence 1, annotator 0 (first present in sentence 2)"
    assert "sentences 1-3, annotator 2 (first present in sentence 4)" in examples
    assert report.sentences == 5
    assert list(parallel.read(out)) == [
        Parallel("s1", ("s1", None, "s1")), Parallel("s2", ("r2", None, "s2")),
        Parallel("s3", ("s3", None, "s3")), Parallel("s4", ("s4", None, "q4")),
        Parallel("s5", ("r5", None, "q5"))]


def test_parallel_write_reports_ids(tmp_path: Path) -> None:
    report = parallel.write([Parallel("a", ("b",), "7")], tmp_path / "out")
    assert report.lines() == ["dropped 1 sentence ids (a parallel folder has none) "
                              "(first: sentence 1: '7')"]


def _failing(items: list[Parallel]) -> Iterator[Parallel]:
    yield from items
    raise RuntimeError("the input broke half-way")


def test_parallel_write_is_atomic(tmp_path: Path) -> None:
    dest = tmp_path / "out"
    items = [Parallel("a", ("A",)), Parallel("b", (None, "B"))]
    with pytest.raises(RuntimeError):
        parallel.write(_failing(items), dest)
    assert not dest.exists() and os.listdir(tmp_path) == []
    with pytest.raises(GecFormatError, match="sentence 3: reference 1 contains a line break"):
        parallel.write([*items, Parallel("c", ("C", "x\ny"))], dest)
    assert os.listdir(tmp_path) == []
    # an existing folder is left as it was
    parallel.write(items, dest)
    before = {p.name: p.read_bytes() for p in dest.iterdir()}
    with pytest.raises(GecFormatError, match="sentence 2: the source contains a line break"):
        parallel.write([Parallel("x", ("X",)), Parallel("y\r", ())], dest)
    assert {p.name: p.read_bytes() for p in dest.iterdir()} == before
    assert os.listdir(tmp_path) == ["out"]


def test_parallel_write_refuses_a_stale_annotator_file(tmp_path: Path) -> None:
    dest = tmp_path / "out"
    parallel.write([Parallel("a", ("A", "B"))], dest)
    with pytest.raises(GecFormatError, match="already holds annotator-1.txt"):
        parallel.write([Parallel("c", ("C",))], dest)
    assert list(parallel.read(dest)) == [Parallel("a", ("A", "B"))]
    with pytest.raises(GecFormatError, match="is a file"):
        parallel.write([], dest / "source.txt")
    with pytest.raises(GecFormatError, match="folder"):
        parallel.write([], "-")


@settings(max_examples=60, deadline=None)
@given(parallel_items(absent=True))
def test_parallel_roundtrip(items: list[Parallel]) -> None:
    present = {k for item in items for k in item.present()}
    width = max(present) + 1 if present else 0
    expected = [Parallel(item.source, tuple(
        None if k not in present
        else item.source if k >= len(item.references) or item.references[k] is None
        else item.references[k] for k in range(width))) for item in items]
    with tempfile.TemporaryDirectory() as tmp:
        report = parallel.write(items, Path(tmp) / "out")
        assert report.sentences == len(items)
        copied = sum(1 for i in items for k in present
                     if k >= len(i.references) or i.references[k] is None)
        assert report.notes.counts[parallel.ABSENT] == copied
        assert list(parallel.read(Path(tmp) / "out")) == expected


# ------------------------------------------------------------------------------------- tsv


TSV_ITEMS = [
    Parallel("He go home .", ("He goes home .", "He went home .")),
    Parallel("It is fine .", ()),
    Parallel("  two  spaces ", ("kept  as is ",)),
    Parallel("They was here .", ("They were here .",)),
]


def test_tsv_read_and_write_back_byte_exact() -> None:
    assert list(tsv.read(HERE / "sample.tsv")) == TSV_ITEMS
    assert dumps(tsv, TSV_ITEMS) == (HERE / "sample.tsv").read_text(encoding="utf-8")


def test_tsv_crlf_bom_and_blank_lines() -> None:
    text = "\ufeffa\tb\r\nc\ufeff\td\ufeff\r\n"
    assert list(tsv.read(io.BytesIO(text.encode()))) == [Parallel("a", ("b",)),
                                                          Parallel("c", ("d",))]
    with pytest.raises(GecFormatError) as err:
        list(tsv.read(INVALID / "bad.tsv"))
    assert err.value.line == 2 and "blank line; every line must have" in err.value.message


def test_tsv_writer_checks_and_reports() -> None:
    out = io.StringIO()
    report = tsv.write([Parallel("a", (None, "b"), "id1")], out)
    assert out.getvalue() == "a\ta\tb\n"
    assert report.notes.examples[tsv.ABSENT] == ["sentence 1, reference 0"]
    assert report.losses["sentence ids (tsv has no id column)"].count == 1
    with pytest.raises(GecFormatError, match="sentence 2: reference 0 contains a tab"):
        dumps(tsv, [Parallel("a"), Parallel("b", ("c\td",))])
    with pytest.raises(GecFormatError, match="sentence 1: the source contains a line break"):
        dumps(tsv, [Parallel("a\nb")])
    with pytest.raises(GecFormatError, match="sentence 1: an empty source without references"):
        dumps(tsv, [Parallel("")])
    assert dumps(tsv, [Parallel("", ("",))]) == "\t\n"


def test_tsv_write_is_atomic(tmp_path: Path) -> None:
    with pytest.raises(GecFormatError):
        tsv.write([Parallel("a"), Parallel("b\tc")], tmp_path / "out.tsv")
    assert os.listdir(tmp_path) == []


@settings(max_examples=100, deadline=None)
@given(parallel_items())
def test_tsv_roundtrip(items: list[Parallel]) -> None:
    items = [i for i in items if i.source or i.references]
    assert list(tsv.read(io.StringIO(dumps(tsv, items)))) == items


# ----------------------------------------------------------------------------------- nlpcc


def test_nlpcc_fixture() -> None:
    items = list(nlpcc.read(HERE / "sample.train"))
    assert len(items) == 7
    assert [p.id for p in items] == ["1", "2", "3", "1", "2", "3", "1"]
    assert [p.meta["nlpcc.n"] for p in items] == ["1", "0", "2", "1", "0", "1", "3"]
    assert [len(p.references) for p in items] == [1, 0, 2, 1, 0, 1, 3]
    assert items[1].references == ()
    assert items[3].source == "今天天气很好了。"  # the U+FEFF inside the line is gone
    assert items[4].source == " 我们去公园散步。"  # edges kept unless asked
    assert items[5].references == ("媽媽讓我早点回家。",)  # traditional script kept
    assert items[6].references[2] == items[6].source  # a correction equal to its source
    stripped = list(nlpcc.read(HERE / "sample.train", strip_edges=True))
    assert stripped[4].source == "我们去公园散步。"
    assert [p for i, p in enumerate(stripped) if i != 4] == [p for i, p in enumerate(items) if i != 4]


def test_nlpcc_fixture_writes_back() -> None:
    original = (HERE / "sample.train").read_text(encoding="utf-8").replace("\ufeff", "")
    assert dumps(nlpcc, list(nlpcc.read(HERE / "sample.train"))) == original


def test_nlpcc_strip_edges(tmp_path: Path) -> None:
    path = write_bytes(tmp_path / "x.train",
                       "\u3000 1 \t 1\u200b\t\u200b\u3000源\u3000\t\ufeff 改 \n".encode())
    with pytest.raises(GecFormatError, match="N \\(field 2\\) must be a non-negative integer"):
        list(nlpcc.read(path))
    assert list(nlpcc.read(path, strip_edges=True)) == [
        Parallel("源", ("改",), "1", {"nlpcc.n": "1"})]


def test_nlpcc_crlf_and_bom() -> None:
    data = "\ufeff1\t1\t甲\ufeff乙\t甲丙\r\n2\t0\t丁\r\n".encode()
    assert list(nlpcc.read(io.BytesIO(data))) == [
        Parallel("甲乙", ("甲丙",), "1", {"nlpcc.n": "1"}), Parallel("丁", (), "2", {"nlpcc.n": "0"})]


@pytest.mark.parametrize("line, kind, words", [
    ("2\t2\t源\t改\n", "field-count", ["N is 2", "5 fields", "has 4"]),
    ("2\t0\t源\t改\n", "field-count", ["N is 0", "3 fields", "has 4"]),
    ("2\t1\t源\n", "field-count", ["N is 1", "4 fields", "has 3"]),
    ("2\n", "field-count", ["1 field"]),
    ("2\t-1\t源\n", "syntax", ["non-negative integer", "'-1'"]),
    ("2\t１\t源\t改\n", "syntax", ["non-negative integer"]),
    ("\n", "syntax", ["blank line; every line must have N + 3 fields"]),
])
def test_nlpcc_bad_line(line: str, kind: str, words: list[str]) -> None:
    text = "1\t0\t好\n" + line + "3\t0\t好\n"
    with pytest.raises(GecFormatError) as err:
        list(nlpcc.read(io.StringIO(text)))
    e = err.value
    assert (e.file, e.line, e.kind) == ("<stream>", 2, kind)
    assert all(w in e.message for w in words), e.message
    assert str(e).startswith("<stream>:2: ")


def test_nlpcc_error_names_the_file() -> None:
    with pytest.raises(GecFormatError) as err:
        list(nlpcc.read(INVALID / "bad.train"))
    assert (err.value.file, err.value.line) == (str(INVALID / "bad.train"), 2)


def test_nlpcc_writer() -> None:
    items = [
        Parallel("源", ("改",)),  # no id: the running number
        Parallel("好", ("好",), "5", {"nlpcc.n": "0"}),  # N = 0 read, reference = source
        Parallel("好", ("对",), "6", {"nlpcc.n": "0"}),  # a real correction after all
        Parallel("源", (None, "改"), "7"),
        Parallel("源", ("改", None), "8"),
        Parallel("源", (None, None), "9"),
    ]
    out = io.StringIO()
    report = nlpcc.write(items, out)
    assert out.getvalue() == ("1\t1\t源\t改\n5\t0\t好\n6\t1\t好\t对\n7\t1\t源\t改\n8\t1\t源\t改\n"
                              "9\t0\t源\n")
    assert report.sentences == 6
    assert report.lines() == ["dropped 1 absent references (left out; later references move up) "
                              "(first: sentence 4: references 1)"]
    with pytest.raises(GecFormatError, match="sentence 1: the sentence number contains a tab"):
        dumps(nlpcc, [Parallel("a", (), "1\t2")])
    with pytest.raises(GecFormatError, match="sentence 1: correction 1 contains a line break"):
        dumps(nlpcc, [Parallel("a", ("b\n",))])


@settings(max_examples=100, deadline=None)
@given(parallel_items(ids=True))
def test_nlpcc_roundtrip(items: list[Parallel]) -> None:
    items = [i.replace(meta={"nlpcc.n": str(len(i.references))}) for i in items]
    assert list(nlpcc.read(io.StringIO(dumps(nlpcc, items)))) == items


# -------------------------------------------------------------------------------- cherrant


def test_cherrant_fixture_keeps_special_references() -> None:
    items = list(cherrant.read(HERE / "sample.cherrant"))
    assert [p.id for p in items] == ["1", "2", "3", "4"]
    assert items[1].references == (cherrant.NO_ERROR,) == ("没有错误",)
    assert items[2].references == (cherrant.UNANNOTATABLE,) == ("无法标注",)
    assert items[3] == Parallel("他已经吃饭。", (), "4")
    assert len(items[0].references) == 2
    assert dumps(cherrant, items) == (HERE / "sample.cherrant").read_text(encoding="utf-8")


def test_cherrant_hypothesis_files() -> None:
    assert len(list(cherrant.read(HERE / "hypothesis.cherrant", hypothesis=True))) == 2
    with pytest.raises(GecFormatError, match="must have 3 fields.*has 4") as err:
        list(cherrant.read(HERE / "sample.cherrant", hypothesis=True))
    assert (err.value.line, err.value.kind) == (1, "field-count")


def test_cherrant_bad_lines() -> None:
    with pytest.raises(GecFormatError) as err:
        list(cherrant.read(INVALID / "bad.cherrant"))
    assert (err.value.line, err.value.kind) == (2, "syntax")
    assert "blank line; every line must have at least 2 fields" in err.value.message
    with pytest.raises(GecFormatError) as err:
        list(cherrant.read(io.StringIO("1\ta\n2\n")))
    assert (err.value.line, err.value.kind) == (2, "field-count")


def test_cherrant_writer() -> None:
    out = io.StringIO()
    report = cherrant.write([Parallel("a", ("b",)), Parallel("c", (None,), "x"), Parallel("d")], out)
    assert out.getvalue() == "1\ta\tb\nx\tc\tc\n3\td\n"
    assert report.sentences == 3 and report.notes.counts[tsv.ABSENT] == 1
    with pytest.raises(GecFormatError, match="sentence 1: the id contains a tab"):
        dumps(cherrant, [Parallel("a", (), "1\t2")])


@settings(max_examples=100, deadline=None)
@given(parallel_items(ids=True))
def test_cherrant_roundtrip(items: list[Parallel]) -> None:
    assert list(cherrant.read(io.StringIO(dumps(cherrant, items)))) == items


# -------------------------------------------------------------------------------- validate


def test_validate_lists_every_bad_nlpcc_line() -> None:
    found = [(p.line, p.sentence, p.kind) for p in validate(INVALID / "bad.train", "nlpcc")]
    assert found == [(2, 2, "field-count"), (3, 3, "syntax"), (4, 4, "syntax"), (5, 5, "syntax"),
                     (6, 6, "field-count"), (7, 7, "field-count")]
    assert all(p.file == str(INVALID / "bad.train") for p in validate(INVALID / "bad.train", "nlpcc"))


def test_validate_cherrant_and_tsv() -> None:
    found = [(p.line, p.kind) for p in validate(INVALID / "bad.cherrant", "cherrant")]
    assert found == [(2, "syntax"), (3, "field-count"), (5, "field-count")]
    assert [(p.line, p.kind) for p in validate(INVALID / "bad.tsv", "tsv")] == [
        (2, "syntax"), (4, "syntax")]


def test_validate_parallel_line_counts() -> None:
    found = list(validate(INVALID / "mismatch", "parallel"))
    assert [(Path(p.file).name, p.line, p.sentence, p.kind) for p in found] == [
        ("annotator-0.txt", 3, None, "line-count"), ("annotator-1.txt", 4, None, "line-count")]
    assert "has 2 lines but" in found[0].message and "has 3" in found[0].message
    src = INVALID / "mismatch" / "source.txt"
    assert [p.line for p in validate_parallel(src, [EN / "source.txt"])] == [4]


@pytest.mark.parametrize("path, fmt", [
    (EN, "parallel"), (HERE / "gap", "parallel"), (HERE / "sample.tsv", "tsv"),
    (HERE / "sample.train", "nlpcc"), (HERE / "sample.cherrant", "cherrant"),
    (HERE / "hypothesis.cherrant", "cherrant"),
])
def test_validate_good_files(path: Path, fmt: str) -> None:
    assert list(validate(path, fmt)) == []


def test_cli_validate_and_convert(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(INVALID / "bad.train")])
    assert result.exit_code == 1 and result.stdout.count("\n") == 6
    assert ":3: sentence 3: syntax: blank line" in result.stdout
    result = CliRunner().invoke(app, ["validate", str(INVALID / "mismatch"), "--from", "parallel"])
    assert result.exit_code == 1 and "line-count" in result.stdout
    out = tmp_path / "out.tsv"
    result = CliRunner().invoke(app, ["convert", str(HERE / "sample.train"), str(out)])
    assert result.exit_code == 0, result.output
    assert [p.source for p in tsv.read(out)] == [p.source for p in nlpcc.read(HERE / "sample.train")]


# ------------------------------------------------------------------------------ real data


def test_nlpcc2018_training_sample() -> None:
    path = shared_file("corpora/nlpcc2018/data.train.sample73.txt")
    items = list(nlpcc.read(path))
    assert len(items) == 73
    assert Counter(int(p.meta["nlpcc.n"]) for p in items) == {0: 24, 1: 31, 2: 9, 3: 5, 4: 2,
                                                              6: 1, 8: 1}
    assert sum(len(p.references) for p in items) == 86
    assert sum(p.id == "1" for p in items) == 22  # essays
    assert sum(ref == p.source for p in items for ref in p.references) == 1
    assert any(ch in ref for p in items for ref in p.references for ch in "讓來預為產")
    assert list(validate(path, "nlpcc")) == []
    # two lines have white space at a field's edge; strip_edges removes it there only
    stripped = list(nlpcc.read(path, strip_edges=True))
    assert [i + 1 for i, (a, b) in enumerate(zip(items, stripped)) if a != b] == [51, 52]
    # written back byte for byte (the file has no U+FEFF and no CR)
    assert dumps(nlpcc, items).encode("utf-8") == path.read_bytes()


def test_nlpcc2018_test_source_via_parallel() -> None:
    path = shared_file("corpora/nlpcc2018/source.txt")
    assert path.read_text(encoding="utf-8").count("\ufeff") == 7
    items = list(parallel.read(path))
    assert len(items) == 2000
    assert not any("\ufeff" in p.source for p in items)
    assert all(p.references == () for p in items)


def test_mucgec_test_sources_via_cherrant() -> None:
    path = shared_file("corpora/nlpcc2018/mucgec_test_first2000.idsrc.tsv")
    items = list(cherrant.read(path))
    assert len(items) == 2000
    assert all(p.references == () and "\ufeff" not in p.source for p in items)
    assert [p.id for p in items] == [str(i) for i in range(1, 2001)]
    # with the BOMs gone, the copies differ only on the lines with ASCII spaces (§9.2)
    source = list(parallel.read(shared_file("corpora/nlpcc2018/source.txt")))
    differ = [i for i, (a, b) in enumerate(zip(source, items), 1) if a.source != b.source]
    assert differ == [1199, 1216, 1217, 1327, 1348, 1859, 1863, 1865]

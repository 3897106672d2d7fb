"""gecformats.convert.counts: what a conversion read and wrote, for every reader and writer."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from gecformats import formats
from gecformats.convert import convert
from gecformats.convert.counts import DIMENSIONS, ConversionCounts, Counts, count, count_output
from gecformats.errors import GecFormatError, UsageError
from gecformats.model import Document, Edit, Parallel, Sentence, Target

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

READS: dict[str, tuple[Path, dict[str, Any]]] = {
    "m2": (FIXTURES / "uagec" / "sample.m2", {}),  # two documents, two annotators
    "hoo2011": (FIXTURES / "hoo2011", {}),
    "hoo2012": (FIXTURES / "hoo2012", {}),
    "ixml": (FIXTURES / "ixml" / "example.ixml", {}),
    "nucle": (FIXTURES / "nucle" / "sample.sgml", {"ann": [str(FIXTURES / "nucle" / "sample.1.sgml")]}),
    "bea": (FIXTURES / "bea" / "sample.json", {}),
    "parallel": (FIXTURES / "parallel" / "en", {}),
    "tsv": (FIXTURES / "parallel" / "sample.tsv", {}),
    "nlpcc": (FIXTURES / "parallel" / "sample.train", {}),
    "uagec": (FIXTURES / "uagec" / "annotated", {}),
    "cherrant": (FIXTURES / "parallel" / "sample.cherrant", {}),
    "c4edits": (FIXTURES / "c4edits" / "edits.tsv", {"text": str(FIXTURES / "c4edits" / "sentences.tsv")}),
    "fce": (FIXTURES / "fce" / "doc1.xml", {}),
    "conll": (FIXTURES / "conll" / "sample.conll", {}),
    "jfleg": (FIXTURES / "jfleg" / "sample.ref.m2", {}),
    "multigec": (FIXTURES / "multigec" / "xx-toy-orig-dev.md",
                 {"refs": [str(FIXTURES / "multigec" / f"xx-toy-ref{k}-dev.md") for k in (1, 2)]}),
    "geccc": (FIXTURES / "geccc" / "paragraph.m2", {}),
    "seeda-edits": (FIXTURES / "seeda" / "annotator1", {}),
    "cowsl2h": (FIXTURES / "cowsl2h" / "famous", {}),
}
"""A small fixture of each format, with the options its reader needs; several documents and
annotators where the format has them."""

REFUSED = {
    # the data does not fit the output format: refused with a message, nothing written
    ("hoo2011", "cowsl2h"),   # alternative corrections
    ("hoo2012", "uagec"), ("hoo2012", "cowsl2h"),  # the PARTs of a script share its id
    ("nucle", "cowsl2h"), ("uagec", "cowsl2h"), ("seeda-edits", "cowsl2h"),  # no round trip
    ("uagec", "hoo2011"),     # two documents 0002 (the annotators' texts differ)
    ("cowsl2h", "hoo2011"), ("cowsl2h", "hoo2012"), ("cowsl2h", "uagec"),  # ids repeated
    ("cowsl2h", "nucle"),     # '<' in the text
    ("cowsl2h", "seeda-edits"),  # brackets in a token
    ("multigec", "tsv"), ("multigec", "nlpcc"), ("multigec", "cherrant"),  # tabs
    ("nlpcc", "multigec"),    # essay ids repeated: does not read back
}
"""Pairs whose conversion of the fixture is refused as data that the output cannot hold."""


def test_every_format_has_a_fixture() -> None:
    """A new format joins the pair walk below once it has a fixture here."""
    assert set(READS) == set(formats.FORMATS)


def _convert(reader: str, writer: str, tmp_path: Path) -> tuple[Any, Path]:
    """Convert the fixture of ``reader`` to ``writer``: to a file with the format's suffix,
    or to a folder where one file cannot hold the data (the writer says so)."""
    source, options = READS[reader]
    options = dict(options)
    text = options.pop("text", None)
    module = formats.get(writer)
    names = ([f"out{module.SUFFIXES[0]}"] if module.SUFFIXES else []) + ["out"]
    for name in names:
        dest = tmp_path / name
        try:
            return convert(source, dest, from_format=reader, to_format=writer, text=text,
                           **options), dest
        except UsageError as exc:
            assert not dest.exists()
            if "give a folder" not in str(exc) or name == names[-1]:
                raise
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("reader", "writer"), list(itertools.product(READS, formats.FORMATS)))
def test_every_pair_counts_or_reports_the_difference(reader: str, writer: str,
                                                     tmp_path: Path) -> None:
    """Issue 34, item 3: whatever the pair, the report's counts are those of the input and
    of the output as written (read back from disk here), and its difference is exactly read
    minus written: nothing is lost without being reported."""
    try:
        report, dest = _convert(reader, writer, tmp_path)
    except UsageError as exc:  # a conversion that does not exist (text ↔ documents, FCE …)
        if "pip install" in str(exc):
            pytest.skip(str(exc))
        assert not any(tmp_path.iterdir()), "a refused conversion wrote something"
        return
    except GecFormatError:
        assert (reader, writer) in REFUSED, f"{reader} → {writer} refused"
        assert not any(tmp_path.iterdir()), "a refused conversion wrote something"
        return
    assert (reader, writer) not in REFUSED, f"{reader} → {writer} is no longer refused"
    source, options = READS[reader]
    read = count(formats.get(reader).read(source, **options))
    written = count_output(formats.get(writer), [str(dest)])
    counts = report.counts
    assert counts.read.to_dict() == read.to_dict()
    assert counts.written.to_dict() == written.to_dict()
    expected = {d: read.get(d) - written.get(d) for d in DIMENSIONS  # type: ignore[operator]
                if read.get(d) is not None and written.get(d) is not None
                and read.get(d) != written.get(d)}
    assert counts.difference == expected
    for d, lost in expected.items():
        assert f"{read.get(d)} → {written.get(d)} {d}" in counts.summary()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a staging folder is left"


@pytest.mark.parametrize("reader", ["m2", "uagec", "cowsl2h", "bea", "geccc", "ixml"])
@pytest.mark.parametrize("writer", ["uagec", "cowsl2h"])
def test_inline_formats_keep_every_document_and_annotator(reader: str, writer: str,
                                                          tmp_path: Path) -> None:
    """Issue 34, item 3: M2 → UA-GEC and M2 → COWSL2H kept annotator 0 only and one
    document; now every document and annotator has its file and nothing is lost."""
    if (reader, writer) in REFUSED:
        pytest.skip("the fixture does not fit the format")
    report, dest = _convert(reader, writer, tmp_path)
    assert report.counts.difference == {}
    files = sorted(p.name for p in dest.rglob("*") if p.is_file())
    assert len(files) == report.sentences >= report.counts.read.annotators


def test_counts_of_each_unit() -> None:
    sentence = Sentence(("a", "b"), {0: (Edit(0, 1, (("x",), ("y",), ("z",))),), 2: ()},
                        meta={"document": "0001"},
                        targets={0: (Target("x b", 0), Target("y b", 1))})
    document = Document("a b", (Edit(0, 1, (("x",),)), Edit(2, 3, ())),
                        meta={"annotators": "0,3"})
    parallel = Parallel("a b", ("x b", None, "a b"))
    c = count([sentence, sentence.replace(meta={"document": "0002"}), sentence])
    assert c.to_dict() == {"sentences": 3, "documents": 3, "annotators": 2, "edits": 3,
                           "alternatives": 9}
    assert count([document]).to_dict() == {"sentences": None, "documents": 1, "annotators": 2,
                                           "edits": 2, "alternatives": 0}
    assert count([parallel, parallel]).to_dict() == {"sentences": 2, "documents": 1,
                                                     "annotators": 2, "edits": None,
                                                     "alternatives": 0}
    assert count([]).to_dict() == {"sentences": None, "documents": 0, "annotators": 0,
                                   "edits": None, "alternatives": 0}


def test_counts_merge_as_one_stream() -> None:
    """The parts of one stream (--shards, --shards 0) add up to the stream's counts; a
    document that runs on from one part into the next counts once."""
    items = [Sentence(("a",), {0: ()}, meta={"document": d}) for d in "AABBBC"]
    whole = count(items)
    for cut in range(len(items) + 1):
        merged = count(items[:cut])
        merged.merge(count(items[cut:]))
        assert merged.to_dict() == whole.to_dict() == {
            "sentences": 6, "documents": 3, "annotators": 1, "edits": 0, "alternatives": 0}


def test_empty_uagec_documents_are_counted() -> None:
    from gecformats.formats import m2

    text = ("S # 0001\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
            "S # 0002\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
            "S a\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
            "S # 0003\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    assert count(m2.parse(text)).documents == 3


def test_difference_is_read_minus_written() -> None:
    read, written = Counts(), Counts()
    read.add(Sentence(("a",), {0: (Edit(0, 1),), 1: (Edit(0, 1),)}))
    written.add(Sentence(("a",), {0: (Edit(0, 1),)}))
    counts = ConversionCounts(read, written)
    assert counts.difference == {"annotators": 1, "edits": 1}
    assert counts.summary() == "2 → 1 annotators, 2 → 1 edits"
    assert counts.to_dict()["difference"] == {"annotators": 1, "edits": 1}


def test_a_first_sentence_read_back_as_a_header_is_reported(tmp_path: Path) -> None:
    """A text whose first line is ``# 2019`` (unchanged) makes an M2 whose first block reads
    back as a UA-GEC document header: the sentence is not silently gone, it is counted."""
    (tmp_path / "in.tsv").write_text("# 2019\t# 2019\nHe go .\tHe goes .\n", encoding="utf-8")
    report = convert(tmp_path / "in.tsv", tmp_path / "out.m2", tokenizer="space")
    assert report.counts.lost == {"sentences": 1}
    with pytest.raises(GecFormatError, match="--strict: .*2 → 1 sentences"):
        convert(tmp_path / "in.tsv", tmp_path / "strict.m2", tokenizer="space", strict=True)
    assert not (tmp_path / "strict.m2").exists()

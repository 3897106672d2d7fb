"""UA-GEC: annotated text (gecformats.formats.uagec), its M2 dialect (S # NNNN document
headers, gecformats.formats.m2) and the unicode tokenizer, on hand-written fixtures and
against the corpus' own derived files in ../shared/corpora/ua-gec (spec formats-more §1, §8)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import draw_spans, shared_file
from gecformats.convert import convert
from gecformats.errors import GecFormatError
from gecformats.formats import m2, uagec
from gecformats.model import Document, Edit
from gecformats.tokenize import get_tokenizer

FIXTURES = Path(__file__).parent.parent / "fixtures" / "uagec"
LAYERS = ("gec-only", "gec-fluency")


def test_offsets_types_escapes_and_the_corrected_text() -> None:
    doc = uagec.parse('"Я"{=>,:::error_type=Punctuation} {-=>—:::error_type=Punctuation} сказав'
                      '{ я=>\\nя:::error_type=F/Style}.')
    assert doc.text == '"Я" - сказав я.'
    assert [(e.start, e.end, e.corrections, e.type) for e in doc.edits] == [
        (3, 3, ((",",),), "Punctuation"), (4, 5, (("—",),), "Punctuation"),
        (12, 14, (("\nя",),), "F/Style")]
    assert doc.corrected() == '"Я", — сказав\nя.'


def test_alternatives_no_suggestions_other_meta_and_escapes_outside() -> None:
    text = "a {b=>c|d:::error_type=X:::note=y} {e=>NO_SUGGESTIONS}\\nf {g=>}"
    doc = uagec.parse(text)
    assert doc.text == "a b e\nf g"
    assert [e.corrections for e in doc.edits] == [(("c",), ("d",)), (), ((),)]
    assert doc.edits[0].type == "X" and doc.meta["uagec.escaped"] == "5"
    assert doc.corrected() == "a c e\nf "  # detection only: the text stays
    assert uagec.dumps(doc) == text


@pytest.mark.parametrize("text, line, message", [
    ("ok\n{a=>b:::error_type=X", 2, "'=>' outside an annotation"),
    ("ok\nx a=>b} y", 2, "'=>' outside an annotation"),
    ("{a:::error_type=X}", 1, "':::' meta outside"),
    ("a\n\nb {c\\t=>d}", 3, "unknown escape"),
    ("a {=>b}{=>c}", 1, "two insertions at one point"),
])
def test_malformed_markup_is_an_error_with_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(GecFormatError, match=message) as err:
        uagec.parse(text, name="x.ann")
    assert (err.value.file, err.value.line) == ("x.ann", line)


def test_literal_braces_and_a_real_line_break_in_a_correction_stay_text() -> None:
    text = "Це {cк} і {=>.\n– }{- =>:::error_type=Punctuation}Мій"
    doc = uagec.parse(text)
    assert doc.text == "Це {cк} і {=>.\n– }- Мій" and doc.corrected() == "Це {cк} і {=>.\n– }Мій"
    assert doc.meta["uagec.literal"] == "1" and uagec.dumps(doc) == text


def test_a_folder_merges_the_annotators_of_a_document(tmp_path: Path) -> None:
    docs = list(uagec.read(FIXTURES / "annotated"))
    assert [(d.id, d.meta["annotators"]) for d in docs] == [("0001", "0,1"), ("0002", "0"),
                                                            ("0002", "1")]  # 0002: a1 has a leading space
    out = tmp_path / "out"
    report = uagec.write(docs, out)
    assert report.sentences == 4
    for f in (FIXTURES / "annotated").iterdir():
        assert (out / f.name).read_bytes() == f.read_bytes()


def test_writer_refuses_what_would_not_read_back(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reads back the same"):
        uagec.dumps(Document("a {b=>c} d", ()))
    with pytest.raises(ValueError, match="overlaps"):
        uagec.dumps(Document("abc", (Edit(0, 2, (("x",),)), Edit(1, 3, (("y",),)))))
    with pytest.raises(ValueError, match="one document"):
        uagec.write([Document("a"), Document("b")], tmp_path / "x.ann")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="аб в\n.{}=>:\\n", max_size=30), st.data())
def test_round_trip_of_offsets(text: str, data: st.DataObject) -> None:
    """Random documents the writer accepts read back with the same text and edits."""
    edits = []
    for a, b in draw_spans(data, text):
        corr = data.draw(st.text(alphabet="xy \n.", max_size=3))
        edits.append(Edit(a, b, ((corr,),) if corr else ((),), "Spelling"))
    doc = Document(text, tuple(edits))
    try:
        written = uagec.dumps(doc)
    except ValueError:
        return  # braces, '=>' or a literal \n in the text: refused, not written wrong
    again = uagec.parse(written)
    assert again.text == text
    assert [(e.start, e.end, e.corrections) for e in again.edits] == \
        [(e.start, e.end, e.corrections) for e in edits]


def test_m2_document_headers_are_boundaries_not_sentences(tmp_path: Path) -> None:
    sentences = list(m2.read(FIXTURES / "sample.m2"))
    assert [" ".join(s.source) for s in sentences] == [
        '" Я не є доктор " - сказав я : " Чому ?', "# Логічно ?", "Друге есе"]
    assert [s.meta.get("document") for s in sentences] == ["0001", "0001", "0002"]
    assert m2.dumps(sentences) == (FIXTURES / "sample.m2").read_text(encoding="utf-8")
    convert(FIXTURES / "sample.m2", tmp_path / "par", to_format="parallel")
    assert (tmp_path / "par" / "annotator-0.txt").read_text(encoding="utf-8").splitlines() == [
        '" Я не є доктор " , — сказав я : " Чому ?', "# Логічно ?", "Друге есе ."]


def test_a_header_is_only_a_header_in_a_file_that_opens_with_one() -> None:
    text = "S a\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS # 0002\n" \
           "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    assert [s.source for s in m2.read(io.StringIO(text))] == [("a",), ("#", "0002")]


def test_annotated_text_to_m2_with_the_unicode_tokenizer(tmp_path: Path) -> None:
    report = convert(FIXTURES / "annotated", tmp_path / "out.m2", from_format="uagec",
                     tokenizer="unicode", sentences="lines")
    first = next(m2.read(tmp_path / "out.m2"))
    assert first.corrected(0) == tuple("Наступного ранку рівно об одинадцятій годині дядько "
                                       "Том шастав у готелі .".split())
    assert first.corrected(1)[8:10] == ("шастав", "в")
    assert report.conversion is not None and report.conversion.converted >= 11


# ------------------------------------------------------------------------- the corpus


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_corpus_annotated_to_original_corrected_and_back() -> None:
    """Spec §8: → original = source/ (except the 8 documented a1 files, leading white
    space), → corrected = target/ (all), read → write = the same bytes (all)."""
    root = shared_file("corpora/ua-gec/data")
    files = sorted(root.glob("*/*/annotated/*.ann"))
    original = corrected = same = 0
    misses = []
    for f in files:
        doc = uagec.read_file(f)
        id, k = uagec.name_parts(f)
        layer = f.parent.parent
        if doc.text == _read(layer / "source" / f"{id}.src.txt"):
            original += 1
        else:
            misses.append(f"{layer.parent.name}/{layer.name}/{f.name}")
        corrected += doc.corrected() == _read(layer / "target" / f"{id}.a{k + 1}.txt")
        same += uagec.dumps(doc) == _read(f)
    print(f"UA-GEC .ann files: {len(files)}; original = source/ {original}; "
          f"corrected = target/ {corrected}; read→write same bytes {same}")
    assert len(files) == 254
    assert (corrected, same) == (254, 254)
    assert sorted(misses) == sorted(f"{layer}/{split}/{id}.a1.ann" for layer in LAYERS
                                    for split, id in (("test", "0353"), ("test", "0621"),
                                                      ("test", "0895"), ("train", "0287")))


@pytest.mark.parametrize("layer", LAYERS)
def test_corpus_m2_to_parallel_gives_the_tokenized_sentence_files(layer: str,
                                                                 tmp_path: Path) -> None:
    """Issue 25: `convert X.m2 OUT --to parallel` gives, for annotator k, the lines of
    target-sentences-tokenized/NNNN.a{k+1}.txt in document order (source: the
    source-sentences-tokenized files); the M2 is written back byte for byte."""
    folder = shared_file(f"corpora/ua-gec/data/{layer}/test")
    path = folder / f"{layer}.test.subset.m2"
    ids = re.findall(r"^S # ([0-9]{4})$", _read(path), re.M)
    assert len(ids) == 60
    convert(path, tmp_path / "par", to_format="parallel")
    expect = {"source.txt": [folder / "source-sentences-tokenized" / f"{i}.src.txt" for i in ids]}
    for k in (0, 1):
        expect[f"annotator-{k}.txt"] = [folder / "target-sentences-tokenized" / f"{i}.a{k + 1}.txt"
                                        for i in ids]
    for name, files in expect.items():
        assert (tmp_path / "par" / name).read_text(encoding="utf-8") == \
            "".join(_read(f) for f in files), name
    assert m2.dumps(m2.read(path)) == _read(path)


def test_corpus_unicode_tokenizer_agreement_with_stanza() -> None:
    """The share of sentences (source and target sentence files, both layers, test and
    train) the unicode tokenizer splits exactly as the corpus' Stanza-tokenized files."""
    root = shared_file("corpora/ua-gec/data")
    tok = get_tokenizer("unicode")
    total = same = 0
    for raw_file in sorted(root.glob("*/*/*-sentences/*.txt")):
        tokenized = raw_file.parent.parent / (raw_file.parent.name + "-tokenized") / raw_file.name
        for raw, gold in zip(_read(raw_file).splitlines(), _read(tokenized).splitlines()):
            total += 1
            same += [t.text for t in tok.tokenize(raw)] == gold.split()
    print(f"unicode tokenizer = Stanza (UA-GEC *-tokenized): {same}/{total} = {same / total:.1%}")
    assert total > 4000 and same / total > 0.93


def test_m2_headers_survive_shards(tmp_path: Path) -> None:
    """Fuzz case (m2-uagec, shards twin, seed 296202086): a part that began inside a
    document wrote the document's header again; the parts joined are the plain output."""
    plain = tmp_path / "plain.m2"
    convert(FIXTURES / "sample.m2", plain)
    for shards in (2, 3):
        out = tmp_path / f"s{shards}"
        convert(FIXTURES / "sample.m2", out, to_format="m2", shards=shards)
        joined = "".join(p.read_text(encoding="utf-8") for p in sorted(out.glob("part-*.m2")))
        assert joined == plain.read_text(encoding="utf-8")


def test_annotated_text_to_m2_opens_each_document_with_its_header(tmp_path: Path) -> None:
    """As UA-GEC's own M2: an S # NNNN block before each document's sentences; read back,
    the sentences carry their document ids."""
    out = tmp_path / "out.m2"
    convert(FIXTURES / "annotated", out, from_format="uagec", tokenizer="unicode",
            sentences="lines")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("S # 0001\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                           "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n")
    assert text.count("S # 0002\n") == 1
    back = list(m2.read(out))
    assert {s.meta["document"] for s in back} == {"0001", "0002"}
    assert all(not s.source[:1] == ("#",) for s in back)


# ------------------------------------------------------------- issue 34: nothing lost


def test_an_empty_error_type_round_trips(tmp_path: Path) -> None:
    """Fuzz case: ``{a=>b:::error_type=}`` came back without ``:::error_type=``."""
    text = "Він {прийшов=>прийшла:::error_type=} {додому=>додому.} вчора{=>.:::error_type=P}\n"
    doc = uagec.parse(text)
    assert [e.type for e in doc.edits] == ["", "", "P"]
    assert uagec.dumps(doc) == text
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "0001.a1.ann").write_text(text, encoding="utf-8")
    convert(tmp_path / "in", tmp_path / "out", from_format="uagec", to_format="uagec")
    assert (tmp_path / "out" / "0001.a1.ann").read_text(encoding="utf-8") == text


def test_a_text_line_that_looks_like_a_header_is_refused_not_lost(tmp_path: Path) -> None:
    """Fuzz case: a line ``# 0001`` of an .ann file became ``S # 0001`` with noop lines in
    the M2, which reads back as a document header: its sentence disappeared (stats: 1 of
    2).  The M2 cannot hold it, so the conversion is refused, naming it."""
    ann = tmp_path / "0001.a1.ann"
    ann.write_text("Перше речення.\n# 0001\nДруге {речення=>речення.:::error_type=S}\n",
                   encoding="utf-8")
    with pytest.raises(GecFormatError, match=r"sentence 2 cannot be written as m2: its tokens "
                       r"'# 0001' .* would read back as a UA-GEC document header"):
        convert(ann, tmp_path / "out.m2", tokenizer="space", sentences="lines")
    assert not (tmp_path / "out.m2").exists()
    ann.write_text("Перше речення.\n# 0001 {=>!:::error_type=P}\n", encoding="utf-8")
    report = convert(ann, tmp_path / "out.m2", tokenizer="space", sentences="lines")
    assert report.counts.written.sentences == 2  # with an edit it is no header


def test_m2_to_annotated_text_writes_each_document_and_annotator(tmp_path: Path) -> None:
    """Issue 34, item 3: M2 → UA-GEC kept annotator 0 and merged every document into one
    file (896 UA-GEC edits lost, exit 0).  Each S # NNNN document gets a file per annotator,
    named as in the corpus' annotated/ folder."""
    report = convert(FIXTURES / "sample.m2", tmp_path / "out", to_format="uagec")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "0001.a1.ann", "0001.a2.ann", "0002.a1.ann", "0002.a2.ann"]
    assert (tmp_path / "out" / "0002.a1.ann").read_text(encoding="utf-8") == \
        "Друге есе{=>.:::error_type=Punctuation}"
    assert (tmp_path / "out" / "0002.a2.ann").read_text(encoding="utf-8") == "Друге есе"
    assert report.counts.difference == {} and report.counts.written.edits == 3
    with pytest.raises(GecFormatError, match="give a folder"):
        convert(FIXTURES / "sample.m2", tmp_path / "one.ann")
    assert not (tmp_path / "one.ann").exists()


def test_corpus_m2_to_annotated_text_keeps_every_edit(tmp_path: Path) -> None:
    m2_file = shared_file("corpora/ua-gec/data/gec-only/test/gec-only.test.subset.m2")
    report = convert(m2_file, tmp_path / "out", to_format="uagec")
    assert report.counts.difference == {}
    assert report.counts.written.to_dict() == {"sentences": None, "documents": 60,
                                               "annotators": 2, "edits": 730 + 896,
                                               "alternatives": 0}
    assert len(list((tmp_path / "out").glob("*.ann"))) == 120


def test_an_empty_m2_document_becomes_empty_files(tmp_path: Path) -> None:
    noop = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
    (tmp_path / "in.m2").write_text(f"S # 0001\n{noop}\nS a b\n{noop}\nS # 0002\n{noop}\n",
                                    encoding="utf-8")
    report = convert(tmp_path / "in.m2", tmp_path / "out", to_format="uagec")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["0001.a1.ann", "0002.a1.ann"]
    assert (tmp_path / "out" / "0002.a1.ann").read_text(encoding="utf-8") == ""
    assert report.counts.difference == {} and report.counts.read.documents == 2


def test_two_insertions_at_one_point_are_refused_naming_the_document(tmp_path: Path) -> None:
    """UA-GEC's M2 may hold two insertions at one point (gec-fluency 0109, 0212, 0470),
    which its annotated text cannot (its parser refuses them): the conversion is refused,
    naming the document and annotator, not ``<string>:4``."""
    (tmp_path / "in.m2").write_text(
        "S # 0007\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
        "S a b\nA 1 1|||P|||y|||REQUIRED|||-NONE-|||0\nA 1 1|||O|||x|||REQUIRED|||-NONE-|||0\n\n",
        encoding="utf-8")
    with pytest.raises(GecFormatError, match=r"document 1 cannot be written as uagec: document "
                       r"0007, annotator 1: cannot be written as UA-GEC annotated text: two "
                       r"insertions at one point"):
        convert(tmp_path / "in.m2", tmp_path / "out", to_format="uagec")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.m2"]

"""COWSL2H inline annotation (gecformats.formats.cowsl2h) on hand-written fixtures and
against the corpus' own essay files in ../shared/corpora/cowsl2h (spec formats-more §3, §8)."""

from __future__ import annotations

import collections
import difflib
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import draw_spans, shared_file
from gecformats.convert import convert
from gecformats.errors import GecFormatError, UsageError
from gecformats.formats import cowsl2h, m2
from gecformats.model import Document, Edit
from gecformats.validate import validate

FIXTURES = Path(__file__).parent.parent / "fixtures" / "cowsl2h"
TERM = FIXTURES / "famous" / "F17"


def test_edits_insertions_deletions_tag_groups_and_tagged_words() -> None:
    doc = cowsl2h.parse("Él tiene []{el}<ab:det:art:def> pelo, [Él]{}<pr:su:pron> es "
                        "[favorito persona]{persona favorita}<col:adj><ga:adj> una bomba<gat:noun>.")
    assert doc.text == "Él tiene  pelo, Él es favorito persona una bomba."
    assert [(e.start, e.end, e.corrections, e.type) for e in doc.edits] == [
        (9, 9, (("el",),), "ab:det:art:def"), (16, 18, ((),), "pr:su:pron"),
        (22, 38, (("persona favorita",),), "col:adj+ga:adj"), (43, 48, (), "gat:noun")]
    assert doc.corrected() == "Él tiene el pelo,  es persona favorita una bomba."
    assert "reading.problems" not in doc.meta


@pytest.mark.parametrize("text, piece", [
    ("a\n[asustado]{asustadas}ga:na:adj> b", "'[asustado]{asustadas}ga:na:adj>'"),
    ("a\n[español]{españoles}<na:adj< b", "'[español]{españoles}<na:adj<'"),
    ("a\n[el][la]<gat:det> b", "'[el][la]<gat:det>'"),
    ("a\n[yo}{}<pr:su:pron> b", "'[yo}{}<pr:su:pron>'"),
    ("a\n[ella] {}<pr:su:pron> b", "'[ella] {}<pr:su:pron>'"),
    ("a\n[Ella]{}<pr:su:pro", "'[Ella]{}<pr:su:pro'"),
    ("a\n{b}<na:noun> c", "'{b}<na:noun>'"),
])
def test_broken_markup_is_kept_as_text_and_reported_with_its_line(text: str, piece: str) -> None:
    doc, problems = cowsl2h.scan(text, name="x.txt")
    assert doc.edits == () and doc.text == text
    assert [(line, piece in message) for line, message in problems] == [(2, True)]
    assert doc.meta["reading.problems"].startswith("x.txt:2: ")
    with pytest.raises(GecFormatError, match="kept as text") as err:
        cowsl2h.parse(text, name="x.txt", strict=True)
    assert (err.value.file, err.value.line) == ("x.txt", 2)


def test_nesting_is_reported_as_such_and_the_inner_edit_kept() -> None:
    doc, problems = cowsl2h.scan("x [a [b]{c}<t> d]{e}<u> y")
    assert [e.corrections for e in doc.edits] == [(("c",),)]
    assert len(problems) == 1 and "nested" in problems[0][1] and "[a [b]{c}<t> d]{e}<u>" in problems[0][1]


def test_untagged_edit_is_read_and_reported_placeholders_are_text() -> None:
    doc, problems = cowsl2h.scan("Vive en <<Location>> con [favorita]{favoritas}.")
    assert doc.text == "Vive en <<Location>> con favorita."
    assert [(e.type, e.corrections) for e in doc.edits] == [("", (("favoritas",),))]
    assert [m for _, m in problems] == ["an edit without tags '[favorita]{favoritas}': read "
                                        "as an edit without a type"]
    assert cowsl2h.dumps(doc) == "Vive en <<Location>> con [favorita]{favoritas}."


def test_a_term_folder_merges_annotators_and_writes_back_byte_for_byte(tmp_path: Path) -> None:
    docs = list(cowsl2h.read(TERM))
    assert [(d.id, d.meta["cowsl2h.layer"], d.meta["annotators"]) for d in docs] == [
        ("1001", "annotated", "0,1"), ("1002", "annotated", "0"), ("1002", "verbs", "0"),
        ("1001", "a_personal", "0,1")]
    assert docs[1].meta["cowsl2h.bom.0"] == "1" and not docs[1].text.startswith("\ufeff")
    report = cowsl2h.write(docs, tmp_path / "out")
    assert report.sentences == 6
    for f in cowsl2h.annotated_files(TERM):
        assert (tmp_path / "out" / f.relative_to(TERM)).read_bytes() == f.read_bytes()


def test_the_csv_dump_reads_annotator_columns_with_lines_inside_fields() -> None:
    docs = list(cowsl2h.read(FIXTURES / "famous.F17.csv"))
    assert [(d.id, d.meta["cowsl2h.layer"], d.meta["annotators"], d.meta["cowsl2h.essay"])
            for d in docs] == [("1001", "annotated", "0,1", "F17_famous"),
                               ("1002", "annotated", "0", "F17_famous")]
    files = list(cowsl2h.read(TERM))
    assert docs[0].text == files[0].text
    assert docs[1].meta["reading.problems"].endswith(
        "famous.F17.csv:10: markup that is not [original]{correction}<tags> kept as text: "
        "'[Ella] {}<pr:su:pron>'")


def test_validate_lists_problems_with_file_and_line() -> None:
    problems = list(validate(TERM, "cowsl2h"))
    assert [(Path(p.file).name, p.line, p.kind) for p in problems] == [
        ("1002.F17_Famous.annotated.txt", 1, "syntax"),
        ("1002.F17_Famous.annotated.txt", 1, "syntax"),
        ("1002.F17_Famous.annotated.txt", 2, "syntax"),
        ("1002.F17_Famous.annotated.txt", 1, "identity-edit")]


def test_to_m2_with_the_unicode_tokenizer_notes_the_broken_markup(tmp_path: Path) -> None:
    report = convert(TERM, tmp_path / "out.m2", from_format="cowsl2h", tokenizer="unicode")
    first = next(m2.read(tmp_path / "out.m2"))
    assert first.corrected(0)[:4] == ("Mi", "actor", "favorita", "es")
    assert report.conversion is not None and report.conversion.reasons("dropped") == {
        "detection-only": 1, "no-change": 1}
    assert sum(report.notes.counts.values()) == 3


def test_writer_refuses_what_would_not_read_back(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reads back the same"):
        cowsl2h.dumps(Document("a [b]{c}<t> d", ()))
    with pytest.raises(ValueError, match="reads back the same"):
        cowsl2h.dumps(Document("a bc d", (Edit(1, 2, (), "t"),)))  # a tag on a space
    with pytest.raises(ValueError, match="alternative"):
        cowsl2h.dumps(Document("abc", (Edit(0, 1, (("x",), ("y",))),)))
    with pytest.raises(UsageError, match="several documents: give a folder"):
        cowsl2h.write([Document("a"), Document("b")], tmp_path / "x.txt")
    with pytest.raises(UsageError, match="2 annotators: give a folder"):
        cowsl2h.write([Document("a", (), meta={"annotators": "0,1"})], tmp_path / "x.txt")
    assert not (tmp_path / "x.txt").exists()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab é\n.[]{}<>", max_size=30), st.data())
def test_round_trip_of_offsets(text: str, data: st.DataObject) -> None:
    """Random documents the writer accepts read back with the same text and edits."""
    edits = []
    for a, b in draw_spans(data, text):
        corr = data.draw(st.text(alphabet="xy .", max_size=3))
        tag = data.draw(st.sampled_from(["", "ga:adj", "col:adj+ga:adj"]))
        edits.append(Edit(a, b, ((corr,),) if corr else ((),), tag))
    doc = Document(text, tuple(edits))
    try:
        written = cowsl2h.dumps(doc)
    except ValueError:
        return  # markup characters in the text or an edit: refused, not written wrong
    again = cowsl2h.parse(written)
    assert again.text == text
    assert [(e.start, e.end, e.corrections, e.type) for e in again.edits] == \
        [(e.start, e.end, e.corrections, e.type) for e in edits]


# ------------------------------------------------------------------------- the corpus


def _norm(text: str) -> str:
    """Spec §3.3: NBSP → space, BOM and ZWSP removed, NFC, white space collapsed."""
    text = text.replace("\u00a0", " ").replace("\ufeff", "").replace("\u200b", "")
    return " ".join(unicodedata.normalize("NFC", text).split())


def _unquote(text: str) -> str:
    """A v1 file's CSV-export residue undone: the wrapping '"' and doubled quotes."""
    text = _norm(text)
    if text.startswith('"'):
        text = text[1:]
        if text.endswith('"') and not text.endswith('""'):
            text = text[:-1]
        text = _norm(text.replace('""', '"'))
    return text


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                   if not unicodedata.combining(c))


def _classify(ours: str, essay: str, reported: bool) -> str:
    """Why an annotated file's original differs from the essay, from its word diff."""
    a, b = ours.split(" "), essay.split(" ")
    kinds = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        x, y = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if reported and re.search(r"[\[\]{}<>]", x):
            kinds.add("broken markup (reported)")
        elif x.replace(" ", "") == y.replace(" ", ""):
            kinds.add("spacing changed")
        elif _fold(x) == _fold(y):
            kinds.add("accents/case changed")
        elif re.search(r"<<|\*[A-Z_]+\*", x + y):
            kinds.add("placeholders differ")
        else:
            kinds.add("words changed")
    for kind in ("broken markup (reported)", "words changed", "placeholders differ",
                 "accents/case changed", "spacing changed"):
        if kind in kinds:
            return kind
    return "?"


def test_corpus_annotated_to_essay_and_back() -> None:
    """Spec §8: annotated → original = the essay file after whitespace normalisation (v1
    also without its CSV quoting), the share measured and every failure classified; read →
    write gives every annotated file back byte for byte."""
    root = shared_file("corpora/cowsl2h")
    stages: dict[str, collections.Counter[str]] = {"v2": collections.Counter(),
                                                   "v1": collections.Counter()}
    classes: dict[str, collections.Counter[str]] = {"v2": collections.Counter(),
                                                    "v1": collections.Counter()}
    files = cowsl2h.annotated_files(root)
    same = 0
    for f in files:
        id, _, layer, _ = cowsl2h.file_parts(f)
        v = "v1" if layer in ("a_personal", "gender_number") else "v2"
        term = root.joinpath(*f.relative_to(root).parts[:2])
        essay = next((term / "essays").glob(f"{id}.*.txt")).read_text(encoding="utf-8")
        doc = cowsl2h.read_file(f)
        same += (("\ufeff" if doc.meta.get(f"cowsl2h.bom.{doc.meta['annotators']}") else "")
                 + cowsl2h.dumps(doc)).encode() == f.read_bytes()
        if doc.text == essay:
            stages[v]["exact"] += 1
        elif doc.text.strip() == essay.strip():
            stages[v]["stripped"] += 1
        elif _norm(doc.text) == _norm(essay):
            stages[v]["normalised"] += 1
        elif v == "v1" and _unquote(doc.text) == _norm(essay):
            stages[v]["unquoted"] += 1
        else:
            ours = _unquote(doc.text) if v == "v1" else _norm(doc.text)
            classes[v][_classify(ours, _norm(essay), "reading.problems" in doc.meta)] += 1
    for v in ("v2", "v1"):
        total = sum(stages[v].values()) + sum(classes[v].values())
        print(f"COWSL2H {v}: {sum(stages[v].values())}/{total} essays reproduced "
              f"({sum(stages[v].values()) / total:.1%}) {dict(stages[v])}; "
              f"failures {dict(classes[v])}")
    print(f"read → write same bytes: {same}/{len(files)}")
    assert len(files) == 1225 and same == 1225
    assert sum(stages["v2"].values()) == 522 and sum(stages["v1"].values()) == 465
    assert "?" not in classes["v2"] and "?" not in classes["v1"]
    assert classes["v2"]["broken markup (reported)"] == 52


def test_corpus_csv_reads_the_files_annotations() -> None:
    """Spec §3.3: the CSV's annotation columns give the files' documents after whitespace
    normalisation, the two annotators an unordered pair."""
    root = shared_file("corpora/cowsl2h")
    rows = matched = 0
    for csv_file in sorted((root / "csv").glob("*.csv")):
        prompt, term = csv_file.stem.split(".")
        files: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
        for d in cowsl2h.read(root / prompt / term):
            for k in d.meta["annotators"].split(","):
                files[d.id or "", d.meta["cowsl2h.layer"]].add(_unquote(d.text))
        for d in cowsl2h.read_csv(csv_file):
            rows += 1
            matched += _unquote(d.text) in files.get((d.id or "", d.meta["cowsl2h.layer"]), ())
    print(f"COWSL2H CSV documents whose original is a file's: {matched}/{rows}")
    assert rows > 500 and matched / rows > 0.9


def test_a_utf8_error_is_named_alike_in_the_crlf_twin(tmp_path: Path) -> None:
    """Fuzz case (cowsl2h-csv, flip, seed 388949079): the error named the byte offset in
    the file, which differs in its CRLF twin; now the line and the byte within it."""
    from gecformats.errors import GecFormatError
    from gecformats.formats import cowsl2h

    messages = []
    for end in (b"\n", b"\r\n"):
        path = tmp_path / f"essay{len(end)}.txt"
        path.write_bytes(b"Hola [amigo]{amiga}<ga:noun> ." + end + b"Muy bien \xff ." + end)
        with pytest.raises(GecFormatError) as caught:
            list(cowsl2h.read(path))
        messages.append((caught.value.line, caught.value.message))
    assert messages[0] == messages[1] == (2, "not valid UTF-8 (byte 10 of the line)")


# ------------------------------------------------------------- issue 34: nothing lost


def test_m2_to_annotated_files_writes_every_annotator(tmp_path: Path) -> None:
    """Issue 34, item 3: M2 → COWSL2H kept annotator 0 only (2,094 edits of the corpus'
    second annotators lost, exit 0).  Each annotator gets its file, named as the corpus
    names a second annotation (``annotated (1).txt``), which reads back as annotator 1."""
    (tmp_path / "in.m2").write_text(
        "S Ella es alto .\nA 2 3|||ga:adj|||alta|||REQUIRED|||-NONE-|||0\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"
        "S Yo como .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
        "A 1 2|||conf:v|||bebo|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    report = convert(tmp_path / "in.m2", tmp_path / "out", to_format="cowsl2h")
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["0001.annotated (1).txt",
                                                     "0001.annotated.txt"]
    assert (out / "0001.annotated.txt").read_text(encoding="utf-8") == \
        "Ella es [alto]{alta}<ga:adj> .\nYo como ."
    assert (out / "0001.annotated (1).txt").read_text(encoding="utf-8") == \
        "Ella es alto .\nYo [como]{bebo}<conf:v> ."
    assert report.counts.difference == {} and report.counts.written.edits == 2
    [document] = cowsl2h.read(out)
    assert document.meta["annotators"] == "0,1"
    with pytest.raises(UsageError, match="give a folder"):
        convert(tmp_path / "in.m2", tmp_path / "one.txt", to_format="cowsl2h")


def test_a_third_annotator_reads_back_as_itself(tmp_path: Path) -> None:
    """``annotated (2).txt`` is annotator 2 (it was taken for annotator 0, so a written
    folder of three annotators did not read back)."""
    assert cowsl2h.file_parts("7.F17_Famous.annotated (2).txt")[3] == 2
    assert cowsl2h.file_parts("0001.annotated (1).txt") == ("0001", "", "annotated", 1)
    doc = Document("a b", tuple(Edit(0, 1, (("x",),), "t", annotator=k) for k in range(3)),
                   meta={"annotators": "0,1,2"})
    cowsl2h.write([doc], tmp_path / "out")
    [again] = cowsl2h.read(tmp_path / "out")
    assert again.meta["annotators"] == "0,1,2" and len(again.edits) == 3


def test_corpus_m2_of_the_annotated_files_converts_back_without_loss(tmp_path: Path) -> None:
    folder = shared_file("corpora/cowsl2h/famous/F17/annotated")
    convert(folder, tmp_path / "f17.m2", from_format="cowsl2h", tokenizer="unicode")
    report = convert(tmp_path / "f17.m2", tmp_path / "out", to_format="cowsl2h")
    assert report.counts.difference == {}
    assert report.counts.written.annotators == 2
    assert report.counts.written.edits == report.counts.read.edits > 4000


def test_an_error_names_the_output_folder_not_its_temporary_one(tmp_path: Path) -> None:
    """Fuzz case: an essay id too long for a file name made the error name the writer's
    temporary folder (``.out.abc123.tmp/…``); it names the folder the user gave."""
    (tmp_path / "x.csv").write_text(f"id,prompt,quarter,updated anntoation ann1\n{'a' * 300},"
                                    "p,q,Hola [el]{la}<ga:det> casa\n", encoding="utf-8")
    with pytest.raises(OSError) as caught:
        convert(tmp_path / "x.csv", tmp_path / "out", from_format="cowsl2h",
                to_format="cowsl2h")
    assert caught.value.filename.startswith(str(tmp_path / "out" / ("a" * 300)))
    assert ".tmp" not in caught.value.filename
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv"]

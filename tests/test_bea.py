"""gecformats.formats.bea: BEA-2019 JSON (W&I+LOCNESS, FCE JSON) ↔ documents ↔ M2."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.errors import GecFormatError
from gecformats.formats import bea, infer, m2
from gecformats.validate import validate

SAMPLE = FIXTURES / "bea" / "sample.json"


def test_reads_essays_annotators_and_meta():
    first, second = bea.read(SAMPLE)
    assert first.id == "A1-0001" and second.id == "B2-0002"
    assert first.meta["annotators"] == "0,1" and second.meta["annotators"] == "0"
    assert json.loads(first.meta["bea.cefr"]) == "A2.ii"
    text = first.text
    assert [(text[e.start:e.end], e.corrections, e.type, e.annotator) for e in first.edits] == [
        ("have", (("has",),), "R:VERB:SVA", 0), ("beach", (("beaches",),), "R:NOUN:NUM", 0),
        ("likes", (("like",),), "R:VERB:SVA", 0), ("famous", (), "UNK", 0),
        ("have", (("has",),), "R:VERB:SVA", 1), ("beach", (("beaches",),), "R:NOUN:NUM", 1),
        ("very ", ((),), "U:ADV", 1)]
    assert first.breaks == (text.index("\n") + 1,)
    assert infer("ABC.train.json") == "bea"


def test_to_m2_keeps_every_annotator_and_reports_detection_only(tmp_path):
    out = tmp_path / "out.m2"
    report = convert(SAMPLE, out)
    sentences = list(m2.read(out))
    assert [" ".join(s.source) for s in sentences] == [
        "My town is a very famous place .", "It have many beach and people likes to swim .",
        "I like it there .", "Nothing to correct here ."]
    assert sorted(sentences[0].annotators) == [0, 1]
    assert [(e.start, e.end, e.corrections) for e in sentences[0].annotators[1]] == [(4, 5, ((),))]
    assert [(e.start, e.end) for e in sentences[1].annotators[0]] == [(1, 2), (3, 4), (6, 7)]
    assert [c["reason"] for c in report.conversion.dropped_edits] == ["detection-only"]


def test_round_trip_json_to_json(tmp_path):
    out = tmp_path / "back.json"
    convert(SAMPLE, out)
    before = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    after = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert after == before


def test_m2_to_json_every_annotator(tmp_path):
    mid, out = tmp_path / "mid.m2", tmp_path / "out.json"
    convert(SAMPLE, mid)
    convert(mid, out)
    doc, = bea.read(out)
    assert doc.meta["annotators"] == "0,1"
    assert sorted({e.annotator for e in doc.edits}) == [0, 1]
    second = doc.replace(edits=tuple(e for e in doc.edits if e.annotator == 1))
    assert second.corrected().startswith("My town is a famous place .")  # its deletion


@pytest.mark.parametrize("line, message, kind", [
    ("[1, 2]", "JSON object", "syntax"),
    ('{"edits": []}', "no string 'text'", "syntax"),
    ('{"text": "ab", "edits": [[0, [[0, 5, "x"]]]]}', "does not fit", "offset-out-of-range"),
    ('{"text": "ab", "edits": [[0, [[2, 1, "x"]]]]}', "ends before it starts", "offset-out-of-range"),
    ('{"text": "ab", "edits": [[0, [["0", 1, "x"]]]]}', "not an integer", "bad-number"),
    ('{"text": "ab", "edits": [[-1, []]]}', "annotator", "bad-annotator"),
    ('{"text": "ab", "edits": [[0, [[0, 1, 5]]]]}', "string or null", "syntax"),
    ('{"text": "ab", "edits": [0]}', "[annotator, [edit, ...]]", "syntax"),
    ("{not json", "not JSON", "syntax"),
    ('{"text": "ab", "edits": [], "cefr": NaN}', "NaN is not a JSON value", "syntax"),
    ("\ufeff", "byte-order mark", "syntax"),  # validate: a StopIteration traceback
    ('\ufeff{"text": "cd", "edits": []}', "byte-order mark", "syntax"),  # validate passed it
])
def test_malformed_lines(tmp_path, line, message, kind):
    path = tmp_path / "bad.json"
    path.write_text('{"text": "fine", "edits": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(GecFormatError, match=message) as info:
        list(bea.read(path))
    assert (info.value.line, info.value.kind) == (2, kind)
    problem, = validate(path, "bea")
    assert (problem.line, problem.kind) == (2, kind)


def test_validate_and_convert_read_the_same_lines(tmp_path):
    """One reader (:func:`bea.entries`): the file's own byte-order mark is fine for both, a
    later line's is refused by both, on its line, in one line."""
    good = tmp_path / "good.json"
    good.write_bytes(b'\xef\xbb\xbf{"text": "a b", "edits": []}\n\n')
    assert [d.text for d in bea.read(good)] == ["a b"] and list(validate(good, "bea")) == []
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"text": "a b", "edits": []}\n\xef\xbb\xbf\n')
    for args in (["validate", str(bad), "--from", "bea"],
                 ["convert", str(bad), str(tmp_path / "x.m2"), "--from", "bea"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, args
        assert result.exception is None or isinstance(result.exception, SystemExit), args
        shown = result.stdout if args[0] == "validate" else result.stderr
        assert f"{bad}:2:" in shown and "byte-order mark" in shown, args
    assert [(n, type(e).__name__) for n, e in bea.entries(bad)] == \
        [(1, "Document"), (2, "GecFormatError")]


def test_cli(tmp_path):
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out)])
    assert result.exit_code == 0, result.output
    assert "1 dropped" in result.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{nope\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(bad), str(tmp_path / "x.m2")])
    assert result.exit_code == 1 and f"{bad}:1:" in result.stderr
    assert not (tmp_path / "x.m2").exists()
    assert CliRunner().invoke(app, ["validate", str(SAMPLE)]).exit_code == 0


text = st.text(alphabet="ab .\n", min_size=1, max_size=30)


@settings(max_examples=100, deadline=None)
@given(text, st.data())
def test_offsets_round_trip(essay, data):
    """Any edit reads back at the same characters after writing."""
    a = data.draw(st.integers(0, len(essay)))
    b = data.draw(st.integers(a, len(essay)))
    correction = data.draw(st.one_of(st.none(), st.text(alphabet="xy ", max_size=3)))
    line = json.dumps({"text": essay, "edits": [[0, [[a, b, correction]]]]})
    doc, = bea.parse(line)
    again, = bea.parse(bea.to_json(doc))
    assert again.text == essay and again.edits == doc.edits
    assert json.loads(bea.to_json(again))["edits"] == [[0, [[a, b, correction]]]]


def test_an_over_long_number_is_a_clean_error():
    """Found by the fuzz test: json's 4,300-digit limit raised a bare ValueError."""
    line = '{"text": "a", "edits": [[0, [[0, 1, "b"]]]], "x": ' + "9" * 5000 + "}"
    with pytest.raises(GecFormatError, match="not JSON"):
        list(bea.parse(line, "x.json"))


# ------------------------------------------------------------ many annotators (issue 22)


def _many_annotators(documents: int, annotators: int = 1000) -> str:
    text = " ".join(["He go to school . She have a apple ."] * 5)
    lines = []
    for k in range(documents):
        edits = [[0, [[3, 5, "goes"]]]] + [[a, []] for a in range(1, annotators)]
        lines.append(json.dumps({"id": f"D{k}", "text": text, "edits": edits}))
    return "\n".join(lines) + "\n"


def test_hundreds_of_empty_annotators_are_tokenized_once_per_sentence():
    """Issue 22: a document with hundreds of annotators without edits took about 4 s: each
    sentence was tokenized again for every annotator.  Annotators with the same edits in a
    sentence (here: none) now share one tokenization."""
    from gecformats.convert.retokenize import to_sentences
    from gecformats.tokenize import SpaceTokenizer

    calls = []

    class Counting(SpaceTokenizer):
        def tokenize(self, text):
            calls.append(text)
            return super().tokenize(text)

    doc, = bea.parse(_many_annotators(1))
    sentences = to_sentences(doc, Counting(), "lines")
    assert len(sentences) == 1 and len(sentences[0].annotators) == 1000
    assert len(calls) < 10  # the sentence, its edit, the check: not once per annotator


def test_hundreds_of_empty_annotators_convert_in_linear_time(tmp_path):
    """The fuzzed case: 1,000 annotators, 999 of them empty, in each of 3 documents of 10
    sentences.  The M2 has one noop line per annotator and sentence (an annotator without
    edits says the sentence is right: it counts for the score), so it is bounded by
    MAX_ANNOTATORS lines per sentence; the work is linear in it (the tokenizer is called
    once per sentence and distinct edit set: the test above)."""
    src = tmp_path / "many.json"
    src.write_text(_many_annotators(3), encoding="utf-8")
    out = tmp_path / "many.m2"
    result = CliRunner().invoke(app, ["convert", str(src), str(out)])
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    sentences = text.count("\nS ") + 1
    assert sentences == 30 and text.count("\nA ") == sentences * 1000  # one line each
    assert "30/30 sentences consistent" in result.stderr


def test_more_annotator_entries_than_max_annotators_are_refused():
    from gecformats.model import MAX_ANNOTATORS

    line = json.dumps({"text": "a", "edits": [[0, []]] * (MAX_ANNOTATORS + 1)})
    with pytest.raises(GecFormatError, match="annotator entries in one essay") as info:
        list(bea.parse(line, "x.json"))
    assert (info.value.file, info.value.line, info.value.kind) == ("x.json", 1, "too-large")

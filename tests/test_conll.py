"""gecformats.formats.conll: the CoNLL-2013/14 .conll + .conll.ann release → sentences → M2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.errors import GecFormatError, UsageError
from gecformats.formats import conll, infer, m2
from gecformats.validate import CONLL_KINDS, validate

SAMPLE = FIXTURES / "conll" / "sample.conll"
SECOND = FIXTURES / "conll" / "sample.1.conll.ann"
MISTAKE = ('<MISTAKE nid="1" pid="0" sid="0" start_token="{s}" end_token="{e}">\n'
           "<TYPE>T</TYPE>\n<CORRECTION>{c}</CORRECTION>\n</MISTAKE>\n")


def tokens(*sentences: tuple[str, str]) -> str:
    """``.conll`` text for ``(key, text)`` pairs, key ``"nid pid sid"``."""
    out = []
    for key, text in sentences:
        nid, pid, sid = key.split()
        out += [f"{nid}\t{pid}\t{sid}\t{k}\t{t}\tNN\t-\t-\t*\n" for k, t in enumerate(text.split())]
        out.append("\n")
    return "".join(out)


def test_reads_tokens_ids_and_mistakes():
    sents = list(conll.read(SAMPLE))
    assert infer(SAMPLE) == "conll"
    assert [s.id for s in sents] == ["1-0-0", "1-1-0", "1-1-1", "1-2-0", "2-0-0"]
    assert sents[1].meta == {"conll.nid": "1", "conll.pid": "1", "conll.sid": "0"}
    assert sents[0].annotators == {}  # no mistake: no annotator, as in the CoNLL M2 files
    deletion = sents[2].annotators[0][1]
    assert (deletion.start, deletion.end, deletion.corrections) == (5, 6, ((),))
    assert deletion.get_meta("conll.comment") == "not needed"
    assert deletion.get_meta("conll.line") == "17"


def test_several_annotation_files():
    """File k is annotator k; one without mistakes where another has some is present with
    none (a noop line); a sentence no one annotated has no annotator."""
    sents = list(conll.read(SAMPLE, ann=[str(SAMPLE) + ".ann", SECOND]))
    assert sents[1].annotators[1] == ()
    assert [len(sents[2].annotators[a]) for a in (0, 1)] == [3, 1]
    assert sents[3].annotators == {}
    assert sents[4].annotators[0] == () and len(sents[4].annotators[1]) == 2
    assert m2.format_sentence(sents[4]).splitlines()[1] == \
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


def test_cli_convert(tmp_path):
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == (
        "S Why we go to school\n\n"
        "S He go to school every days .\nA 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n"
        "A 5 6|||Nn|||day|||REQUIRED|||-NONE-|||0\n\n"
        "S When we are diagonosed with a disease , are we suppose to tell ?\n"
        "A 3 4|||Mec|||diagnosed|||REQUIRED|||-NONE-|||0\n"
        "A 5 6|||ArtOrDet||||||REQUIRED|||-NONE-|||0\n"
        "A 10 11|||Vform|||supposed|||REQUIRED|||-NONE-|||0\n\n"
        "S Nothing wrong here .\n\nS A short one .\n\n")
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out), "--ann",
                                      str(SAMPLE) + ".ann", "--ann", str(SECOND)])
    assert result.exit_code == 0, result.output
    assert "|||1\n" in out.read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out), "--ann", str(SECOND)])
    assert out.read_text(encoding="utf-8").count("|||0\n") == 3  # --ann replaces SOURCE.ann
    result = CliRunner().invoke(app, ["convert", str(out), str(tmp_path / "x.conll")])
    assert result.exit_code != 0 and "read only" in result.output


def test_no_annotation_file(tmp_path):
    lone = tmp_path / "lone.conll"
    lone.write_text(tokens(("1 0 0", "A b")), encoding="utf-8")
    with pytest.raises(UsageError, match="--ann"):
        list(conll.read(lone))


@pytest.mark.parametrize("text, annotation, message", [
    ("1\t0\t0\t0\n\n", "", "expected at least 5"),
    ("1\t0\t0\t1\tA\n\n", "", "token id '1', expected 0"),
    ("1\t0\t0\t0\tA\n1\t0\t1\t1\tb\n\n", "", "blank line must end"),
    (tokens(("1 0 0", "A b")), MISTAKE.format(s=1, e=3, c="x"), "does not fit"),
    (tokens(("1 0 0", "A b")), MISTAKE.format(s=2, e=1, c="x"), "does not fit"),
    (tokens(("1 0 0", "A b")), MISTAKE.format(s="x", e=1, c=""), "not a number"),
    (tokens(("1 0 0", "A b")), MISTAKE.format(s=0, e=1, c="x").replace('sid="0"', 'sid="5"'),
     "does not have"),
    (tokens(("1 0 0", "A b"), ("1 0 1", "C d")),
     MISTAKE.format(s=0, e=1, c="x").replace('sid="0"', 'sid="1"') + MISTAKE.format(
         s=0, e=1, c="y"), "after later sentences"),
    (tokens(("1 0 0", "A b"), ("1 0 0", "C d")), "", "appears twice"),
    (tokens(("1 0 0", "A b")), MISTAKE.format(s=0, e=1, c="x")[:-11], "not closed"),
    (tokens(("1 0 0", "A b")), "<MISTAKE nid=\"1\">\n</MISTAKE>\n", "without pid"),
    (tokens(("1 0 0", "A b")), "junk\n", "expected <ANNOTATION>"),
])
def test_malformed_input_names_file_and_line(text, annotation, message):
    with pytest.raises(GecFormatError, match=message) as info:
        list(conll.parse(text, annotation))
    assert info.value.line is not None


def test_validate(tmp_path):
    assert list(validate(SAMPLE, "conll")) == []
    bad = tmp_path / "bad.conll"
    bad.write_text(tokens(("1 0 0", "A b c")), encoding="utf-8")
    (tmp_path / "bad.conll.ann").write_text(
        MISTAKE.format(s=0, e=2, c="x") + MISTAKE.format(s=1, e=3, c="y"), encoding="utf-8")
    problems = list(validate(bad, "conll"))
    assert [(p.kind, p.line, p.sentence) for p in problems] == [("overlap", 5, 1)]
    assert problems[0].file.endswith("bad.conll.ann")
    (tmp_path / "bad.conll.ann").write_text(MISTAKE.format(s=3, e=4, c="z"), encoding="utf-8")
    problems += validate(bad, "conll")
    assert [(p.kind, p.line) for p in problems][1:] == [("offset-out-of-range", 1)]
    assert {p.kind for p in problems} <= set(CONLL_KINDS)
    result = CliRunner().invoke(app, ["validate", str(bad)])
    assert result.exit_code == 1 and "offset-out-of-range" in result.output


CONLL13 = "corpora/conll14/conll13st-test-data"


@pytest.mark.parametrize("annotation, official", [
    ("original/data/official-preprocessed.conll.ann", "original/data/official-preprocessed.m2"),
    ("revised/data/official-preprocessed.conll.ann", "revised/data/official-preprocessed.m2"),
], ids=["original", "revised"])
def test_reproduces_the_conll2013_m2(tmp_path, annotation, official):
    """CoNLL-2013's .conll (one file for both releases) with either .conll.ann gives the
    official M2 byte for byte."""
    out = tmp_path / "out.m2"
    convert(shared_file(f"{CONLL13}/original/data/official-preprocessed.conll"), out,
            ann=[shared_file(f"{CONLL13}/{annotation}")])
    assert out.read_bytes() == shared_file(f"{CONLL13}/{official}").read_bytes()


@pytest.mark.parametrize("k", [0, 1])
def test_reads_the_conll2014_annotation(k):
    """The 2014 release has no .conll: its .conll.ann against the official M2's sentences
    (keys of annotated sentences from the annotation, others made up) gives that M2."""
    noalt = "corpora/conll14/conll14st-test-data/noalt"
    official = shared_file(f"{noalt}/official-2014.{k}.m2").read_text(encoding="utf-8")
    annotation = shared_file(f"{noalt}/official-2014.{k}.conll.ann").read_text(encoding="utf-8")
    keys = list(dict.fromkeys(m[0] for m in conll._mistakes(iter(annotation.splitlines(True)),
                                                            "ann")))
    blocks = official.strip("\n").split("\n\n")
    made, pending = [], iter(keys)
    for n, block in enumerate(blocks):
        key = " ".join(next(pending)) if "\nA " in block else f"x{n} 0 0"
        made.append((key, block.split("\n", 1)[0][2:]))
    sents = list(conll.parse(tokens(*made), annotation))
    assert "".join(m2.format_sentence(s) for s in sents) == official


@pytest.mark.parametrize("bad", ["conll", "ann"])
def test_a_bad_byte_is_blamed_on_its_own_file_and_line(tmp_path, bad):
    """Issue 22: a non-UTF-8 byte in the .conll was reported as the .ann, with no line."""
    source = tmp_path / "x.conll"
    body = tokens(("1 0 0", "He go"), ("1 0 1", "Fine")).encode()
    ann = ("<ANNOTATION>\n" + MISTAKE.format(s=1, e=2, c="goes") + "</ANNOTATION>\n").encode()
    if bad == "conll":
        body = body.replace(b"Fine", b"Fi\xffne")  # line 4
    else:
        ann = ann.replace(b"goes", b"go\xffes")  # line 4
    source.write_bytes(body)
    (tmp_path / "x.conll.ann").write_bytes(ann)
    result = CliRunner().invoke(app, ["convert", str(source), str(tmp_path / "out.m2")])
    assert result.exit_code == 1
    named = source if bad == "conll" else tmp_path / "x.conll.ann"
    assert f"{named}:4: not valid UTF-8" in result.output
    assert not (tmp_path / "out.m2").exists()

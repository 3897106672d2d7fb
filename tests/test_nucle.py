"""gecformats.formats.nucle: NUCLE SGML (CoNLL-2013/14) → documents → token M2, and back."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.convert.retokenize import ConversionReport, to_sentences
from gecformats.errors import GecFormatError
from gecformats.formats import FORMATS, infer, m2, nucle
from gecformats.model import Document, make_edit

SAMPLE = FIXTURES / "nucle" / "sample.sgml"


def test_reads_paragraphs_offsets_and_meta():
    first, second = nucle.read(SAMPLE)
    assert first.id == "1"
    assert first.text.split("\n") == [
        "Why we go to school",
        "He go to school every days. When we are diagonosed out with a disease, are we "
        "suppose to tell?",
        "Nothing wrong here."]
    assert first.breaks == (20, 115)
    assert first.meta["nucle.teacher_id"] == "3"
    assert first.meta["nucle.paragraphs"] == "TITLE,P,P"
    spans = [(first.text[e.start:e.end], e.corrections, e.type) for e in first.edits]
    assert spans[:4] == [("go", (("goes",),), "SVA"), ("days", (("day",),), "Nn"),
                         ("diagonosed ", (("diagnosed",),), "Mec"), ("out", ((),), "Prep")]
    assert dict(first.edits[3].meta)["nucle.comment"] == "not needed"
    assert first.text[first.edits[5].start:first.edits[5].end] == "?\nNothing"  # across paragraphs
    assert second.edits == () and second.text == "A short one."


def test_registered_by_suffix():
    assert infer("official-2014.0.sgml") == "nucle"
    assert FORMATS["nucle"] is nucle


def test_the_nus_readers_text_rules():
    """An element of white space alone is empty; one line break at each end goes."""
    doc, = nucle.parse('<DOC nid="9">\n<TEXT>\n<P>\n  \n</P>\n<P>\n\n two \n\n</P>\n</TEXT>\n'
                       '<ANNOTATION teacher_id="1">\n</ANNOTATION>\n</DOC>\n')
    assert doc.text == "\n\n two \n"
    assert doc.breaks == (1,)


def test_conll_mapping():
    """Edge spaces are ignored, the correction is tokenized alone and shrunk."""
    doc = next(nucle.read(SAMPLE))
    report = ConversionReport()
    sents = to_sentences(doc, report=report, shrink=True, mapping="conll")
    assert [m2.format_sentence(s) for s in sents[1:3]] == [
        "S He go to school every days .\nA 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n"
        "A 5 6|||Nn|||day|||REQUIRED|||-NONE-|||0\n\n",
        "S When we are diagonosed out with a disease , are we suppose to tell ?\n"
        "A 3 4|||Mec|||diagnosed|||REQUIRED|||-NONE-|||0\n"
        "A 4 5|||Prep||||||REQUIRED|||-NONE-|||0\n"
        "A 11 12|||Vform|||supposed|||REQUIRED|||-NONE-|||0\n\n"]
    assert sents[0].annotators == {}  # no edits: no A line, as in the CoNLL files
    assert [c["reason"] for c in report.dropped_edits] == ["cross-sentence"]
    # the exact mapping does what the character edit does, but glues no words (issue 22):
    # "diagonosed " → "diagnosed" keeps the space before "out"
    exact = to_sentences(doc, shrink=True)
    assert exact[2].annotators[0][0].corrections == (("diagnosed",),)
    with pytest.raises(ValueError, match="unknown mapping"):
        to_sentences(doc, mapping="nus")


def test_conll_mapping_partial_tokens_and_context():
    """As the NUS conversion: a partly covered token joins the correction with its untouched
    characters; the correction is tokenized before the rest of its sentence."""
    text = "It is therefore fine. If it is contagious, the carrier knows. A topic arises."
    edits = tuple(make_edit(a, b, ((c,),), t, True, "-NONE-", 0) for a, b, c, t in [
        (6, 7, "T", "Mec"),  # the "t" of "therefore"
        (31, 46, "contagious. The", "Srun"),
        (70, 76, "common dilemma.", "Um")])  # "arises", before the sentence's "."
    sents = to_sentences(Document(text, edits, "d"), shrink=True, mapping="conll")
    got = [(e.start, e.end, e.corrections) for s in sents for e in s.annotators.get(0, ())]
    assert got == [(2, 3, (("Therefore",),)),
                   (4, 6, ((".", "The"),)),  # "contagious" shared, "," "the" → "." "The"
                   (2, 3, (("common", "dilemma."),))]  # "word.." was one token in 2014


def test_cli_convert(tmp_path):
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out), "--mapping", "conll",
                                      "--shrink"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("S Why we go to school\n\nS He go to")
    # the CoNLL way is NUCLE's default (issue 22), and the summary line says so
    default = tmp_path / "default.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(default)])
    assert result.exit_code == 0, result.output
    assert default.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    assert "; --mapping conll --shrink;" in result.output
    assert "every case listed with --report R.json" in result.output
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(default), "--mapping",
                                      "exact"])
    assert result.exit_code == 0 and "; --mapping exact;" in result.output
    assert "diagnosedout" not in default.read_text(encoding="utf-8")


def test_quiet_still_reports_drops(tmp_path):
    """Issue 22, item 10: -q prints nothing unless something was dropped."""
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert result.output.count("\n") == 2 and "1 dropped" in result.output  # cross-sentence
    # and what the M2 holds, counted: one document (M2 has no boundaries), one edit fewer
    assert "fewer than the input: 2 → 1 documents, 6 → 5 edits" in result.output
    clean = tmp_path / "clean.sgml"
    clean.write_text('<DOC nid="1">\n<TEXT>\n<P>\nHe go .\n</P>\n</TEXT>\n<ANNOTATION '
                     'teacher_id="1">\n<MISTAKE start_par="0" start_off="3" end_par="0" '
                     'end_off="5">\n<TYPE>SVA</TYPE>\n<CORRECTION>goes</CORRECTION>\n'
                     '</MISTAKE>\n</ANNOTATION>\n</DOC>\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(clean), str(out), "-q"])
    assert result.exit_code == 0 and result.output == ""
    # the same for M2 → text: an edit that cannot be applied is reported under -q
    gold = tmp_path / "oor.m2"
    gold.write_text("S a b\nA 1 9|||R|||x|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(gold), str(tmp_path / "o.tsv"), "-q"])
    assert result.exit_code == 0 and "1 out-of-range" in result.output


SECOND = FIXTURES / "nucle" / "sample.1.sgml"


def test_combine_annotator_files():
    """File k is annotator k; the teachers and every annotator id are kept."""
    docs = list(nucle.read(SAMPLE, ann=[SECOND]))
    assert [d.meta["annotators"] for d in docs] == ["0,1", "0,1"]
    assert docs[0].meta["nucle.teacher_id"] == "3,8"
    assert [e.annotator for e in docs[0].edits] == [0] * 6 + [1] * 3
    assert [(e.annotator, e.type) for e in docs[1].edits] == [(1, "Wci")]


def test_combined_m2_the_conll_way(tmp_path):
    """An annotator whose mistakes in a sentence equal an earlier one's (types aside) is left
    out of that sentence, as in official-2014.combined.m2; one without edits where another
    has some gets a noop line; a sentence without edits has no A line."""
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out), "--ann", str(SECOND),
                                      "--mapping", "conll", "--shrink"])
    assert result.exit_code == 0, result.output
    blocks = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert blocks[1].endswith("A 5 6|||Nn|||day|||REQUIRED|||-NONE-|||0")  # 1 = 0: left out
    assert blocks[2].endswith("A 11 12|||Vform|||supposed|||REQUIRED|||-NONE-|||1")
    assert blocks[3] == "S Nothing wrong here ."
    assert blocks[4] == ("S A short one .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                         "A 1 2|||Wci|||brief|||REQUIRED|||-NONE-|||1")


ALT = FIXTURES / "nucle" / "sample.alt.sgml"


def test_alternative_annotations(tmp_path):
    """An alternative file (no TEXT, some essays only) annotates only the sentences it has
    mistakes in; a noop mistake makes it present with no edit; annotators left out as
    duplicates are renumbered away, as in official-2014.combined-withalt.m2."""
    docs = list(nucle.read(SAMPLE, ann=[SECOND], alt=[ALT]))
    assert docs[0].meta["partial_annotators"] == "2"
    assert [e.type for e in docs[0].edits if e.annotator == 2] == ["noop", "Mec", "Vform"]
    assert not any(e.annotator == 2 for e in docs[1].edits)  # essay 2 is not in the file
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(out), "--ann", str(SECOND),
                                      "--alt", str(ALT), "--mapping", "conll", "--shrink"])
    assert result.exit_code == 0, result.output
    assert "3/5 sentences consistent" in result.output
    blocks = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert blocks[1].splitlines()[1:] == [  # 1 = 0 is left out; the alternative becomes 1
        "A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0", "A 5 6|||Nn|||day|||REQUIRED|||-NONE-|||0",
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1"]
    assert blocks[2].splitlines()[-2:] == ["A 3 4|||Mec|||diagnosed|||REQUIRED|||-NONE-|||2",
                                           "A 11 12|||Vform|||supposed|||REQUIRED|||-NONE-|||2"]
    assert blocks[3] == "S Nothing wrong here ."
    stray = tmp_path / "stray.sgml"
    stray.write_text(ALT.read_text(encoding="utf-8").replace('nid="1"', 'nid="5"'),
                     encoding="utf-8")
    with pytest.raises(GecFormatError, match="nid 5 is not in") as info:
        list(nucle.read(SAMPLE, alt=[stray]))
    assert info.value.line == 1


def test_combine_refuses_different_essays(tmp_path):
    other = tmp_path / "other.sgml"
    other.write_text(SECOND.read_text(encoding="utf-8").replace('nid="2"', 'nid="9"'),
                     encoding="utf-8")
    with pytest.raises(GecFormatError, match="nid"):
        list(nucle.read(SAMPLE, ann=[other]))
    short = tmp_path / "short.sgml"
    text = SECOND.read_text(encoding="utf-8")
    short.write_text(text[:text.index('<DOC nid="2">')], encoding="utf-8")
    with pytest.raises(GecFormatError, match="fewer essays"):
        list(nucle.read(SAMPLE, ann=[short]))


@pytest.mark.parametrize("text, message", [
    ("<P>\nno doc\n</P>\n", "expected <DOC>"),
    ('<DOC nid="1">\n<TEXT>\n<P>\nx\n</P>\n</TEXT>\n', "not closed"),
    ('<DOC nid="1">\n<TEXT>\n<P>\nx\n</TEXT>\n</DOC>\n', "</TEXT> where <P>"),
    ('<DOC nid="1">\n<TEXT>\n<P>\nx\n</P>\n</TEXT>\n<ANNOTATION>\n<MISTAKE start_par="0" '
     'start_off="0" end_par="0">\n</MISTAKE>\n</ANNOTATION>\n</DOC>\n', "without end_off"),
    ('<DOC nid="1">\n<TEXT>\n<P>\nx\n</P>\n</TEXT>\n<ANNOTATION>\n<MISTAKE start_par="0" '
     'start_off="0" end_par="3" end_off="1">\n</MISTAKE>\n</ANNOTATION>\n</DOC>\n', "outside"),
    ('<DOC nid="1">\n<TEXT>\n<P>\nxyz\n</P>\n</TEXT>\n<ANNOTATION>\n<MISTAKE start_par="0" '
     'start_off="2" end_par="0" end_off="1">\n</MISTAKE>\n</ANNOTATION>\n</DOC>\n', "before it"),
    ('<DOC nid="1">\n<TEXT>\n<P>\nx\n</P>\n</TEXT>\n<ANNOTATION>\n<MISTAKE start_par="0" '
     'start_off="-1" end_par="0" end_off="1">\n</MISTAKE>\n</ANNOTATION>\n</DOC>\n',
     "not a number"),
])
def test_malformed_input_names_the_line(tmp_path, text, message):
    path = tmp_path / "bad.sgml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GecFormatError, match=message) as info:
        list(nucle.read(path))
    assert str(path) in str(info.value)


def _essay(mistakes: int, bad_at: int | None = None) -> str:
    """One DOC of ``mistakes`` mistakes, ten per paragraph; the mistake ``bad_at`` ends
    before it starts."""
    out = ['<DOC nid="1">\n<TEXT>\n']
    out += ["<P>\n" + "He go to school every days . " * 10 + "\n</P>\n"] * (mistakes // 10)
    out.append('</TEXT>\n<ANNOTATION teacher_id="1">\n')
    for k in range(mistakes):
        par, off = k // 10, (k % 10) * 30 + 3
        end = off - 1 if k == bad_at else off + 2
        out.append(f'<MISTAKE start_par="{par}" start_off="{off}" end_par="{par}" '
                   f'end_off="{end}">\n<TYPE>SVA</TYPE>\n<CORRECTION>goes</CORRECTION>\n'
                   "</MISTAKE>\n")
    return "".join(out) + "</ANNOTATION>\n</DOC>\n"


def test_reading_is_linear_in_the_mistakes_of_a_doc():
    """Every tag's line was counted from the DOC's start (16,000 mistakes: 40 s); now a
    bisection.  A loose ratio of two sizes' CPU time (quadratic: 16), never an absolute."""
    import time

    def cpu(mistakes: int) -> float:
        text = _essay(mistakes)
        best = float("inf")
        for _ in range(2):
            started = time.process_time()
            doc, = nucle.parse(text)
            best = min(best, time.process_time() - started)
        assert len(doc.edits) == mistakes
        return best

    small, large = cpu(2_000), cpu(8_000)
    assert large / small < 8, (small, large)


def test_lines_are_still_named_in_a_large_doc(tmp_path):
    text = _essay(3_000, bad_at=2_500)
    line = text[:text.index('start_off="3" end_par="250" end_off="2"')].count("\n") + 1
    with pytest.raises(GecFormatError, match="ends .* before it starts") as info:
        list(nucle.parse(text))
    assert info.value.line == line
    doc, = nucle.parse(_essay(3_000))
    assert doc.edits[-1].get_meta("nucle.line") == str(text.count("\n") - 5)
    again, = nucle.parse(nucle.dumps([doc]))  # the writer finds each paragraph by bisection
    assert [(e.start, e.end) for e in again.edits] == [(e.start, e.end) for e in doc.edits]


def test_cli_error_exit(tmp_path):
    path = tmp_path / "bad.sgml"
    path.write_text("<P>\nno doc\n</P>\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(path), str(tmp_path / "x.m2")])
    assert result.exit_code == 1
    assert f"{path}:1:" in result.stderr
    assert not (tmp_path / "x.m2").exists()


def test_write_round_trip(tmp_path):
    docs = list(nucle.read(SAMPLE))
    path = tmp_path / "back.sgml"
    nucle.write(docs, path)
    again = list(nucle.read(path))
    assert [(d.text, d.breaks, d.edits, d.id) for d in again] == \
        [(d.text, d.breaks, d.edits, d.id) for d in docs]


words = st.text(alphabet="abcdef ", min_size=1, max_size=12)


@settings(max_examples=100, deadline=None)
@given(st.lists(words, min_size=1, max_size=4), st.data())
def test_offsets_round_trip(paragraphs, data):
    """Any edit inside one paragraph survives writing and reading at the same characters."""
    paragraphs = [p.strip() or "a" for p in paragraphs]
    text = "\n".join(paragraphs)
    starts = [sum(len(p) + 1 for p in paragraphs[:k]) for k in range(len(paragraphs))]
    k = data.draw(st.integers(0, len(paragraphs) - 1))
    a = data.draw(st.integers(0, len(paragraphs[k])))
    b = data.draw(st.integers(a, len(paragraphs[k])))
    edit = make_edit(starts[k] + a, starts[k] + b, (("x",),), "T", True, "-NONE-", 0)
    doc = Document(text, (edit,), "1", tuple(starts[1:]), {"nucle.nid": "1"})
    back, = nucle.parse(nucle.dumps([doc]))
    assert back.text == text and back.breaks == doc.breaks
    assert (back.edits[0].start, back.edits[0].end) == (edit.start, edit.end)


CONLL = "corpora/conll14"
OFFICIAL = [
    (f"{CONLL}/conll14st-test-data/noalt/official-2014.0.sgml",
     f"{CONLL}/conll14st-test-data/noalt/official-2014.0.m2"),
    (f"{CONLL}/conll14st-test-data/noalt/official-2014.1.sgml",
     f"{CONLL}/conll14st-test-data/noalt/official-2014.1.m2"),
    (f"{CONLL}/conll13st-test-data/original/data/official.sgml",
     f"{CONLL}/conll13st-test-data/original/data/official-preprocessed.m2"),
    (f"{CONLL}/conll13st-test-data/revised/data/official.sgml",
     f"{CONLL}/conll13st-test-data/revised/data/official-preprocessed.m2"),
]


@pytest.mark.parametrize("sgml, official", OFFICIAL,
                         ids=["2014.0", "2014.1", "2013-original", "2013-revised"])
def test_reproduces_the_official_m2(tmp_path, sgml, official):
    """The share of the official M2 blocks (S line and every A line) reproduced byte for
    byte by --mapping conll --shrink, NUCLE's default; docs/reference/formats/nucle.md lists the measured figures and
    the causes of the rest."""
    out = tmp_path / "out.m2"
    convert(shared_file(sgml), out)  # the default: --mapping conll --shrink (issue 22)

    def blocks(path) -> list[str]:
        return [b.strip("\n") for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]

    ours, theirs = blocks(out), blocks(shared_file(official))
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    same = sum(m.size for m in matcher.get_matching_blocks())
    assert same / len(theirs) >= 0.97


def test_reproduces_the_official_combined_m2(tmp_path):
    """official-2014.0.sgml + .1.sgml → official-2014.combined.m2: the combination rule is
    exact (every block whose two one-annotator blocks are reproduced is reproduced)."""
    noalt = f"{CONLL}/conll14st-test-data/noalt"
    out = tmp_path / "combined.m2"
    convert(shared_file(f"{noalt}/official-2014.0.sgml"), out, mapping="conll", shrink=True,
            ann=[shared_file(f"{noalt}/official-2014.1.sgml")])
    ours = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    theirs = shared_file(f"{noalt}/official-2014.combined.m2").read_text(
        encoding="utf-8").strip("\n").split("\n\n")
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    assert sum(m.size for m in matcher.get_matching_blocks()) / len(theirs) >= 0.97
    singles = []
    for k in (0, 1):
        path = tmp_path / f"{k}.m2"
        convert(shared_file(f"{noalt}/official-2014.{k}.sgml"), path, mapping="conll",
                shrink=True)
        official = shared_file(f"{noalt}/official-2014.{k}.m2").read_text(encoding="utf-8")
        singles.append((path.read_text(encoding="utf-8").strip("\n").split("\n\n"),
                        set(official.strip("\n").split("\n\n"))))
    (ours0, gold0), (ours1, gold1) = singles
    assert len(ours0) == len(ours1) == len(ours)
    wrong = [c for c, a, b in zip(ours, ours0, ours1)
             if a in gold0 and b in gold1 and c not in set(theirs)]
    assert wrong == []


def test_reproduces_the_official_combined_m2_with_alternatives(tmp_path):
    """… + the three alternative-team*.sgml files → official-2014.combined-withalt.m2."""
    test_data = f"{CONLL}/conll14st-test-data"
    out = tmp_path / "withalt.m2"
    convert(shared_file(f"{test_data}/noalt/official-2014.0.sgml"), out, mapping="conll",
            shrink=True, ann=[shared_file(f"{test_data}/noalt/official-2014.1.sgml")],
            alt=[shared_file(f"{test_data}/alt/alternative-team{t}.sgml") for t in "abc"])
    ours = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    theirs = shared_file(f"{test_data}/alt/official-2014.combined-withalt.m2").read_text(
        encoding="utf-8").strip("\n").split("\n\n")
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    assert sum(m.size for m in matcher.get_matching_blocks()) / len(theirs) >= 0.965


def test_validate(tmp_path):
    from gecformats.validate import validate

    problems = list(validate(SAMPLE, "nucle"))
    assert [(p.line, p.sentence, p.kind) for p in problems] == [(35, 1, "paragraph-span")]
    bad = tmp_path / "bad.sgml"
    bad.write_text('<DOC nid="1">\n<TEXT>\n<P>\nx\n</P>\n</TEXT>\n<ANNOTATION>\n<MISTAKE '
                   'start_par="0" start_off="0" end_par="0" end_off="9">\n</MISTAKE>\n'
                   '</ANNOTATION>\n</DOC>\n', encoding="utf-8")
    problem, = validate(bad, "nucle")
    assert (problem.line, problem.kind) == (8, "offset-out-of-range")
    result = CliRunner().invoke(app, ["validate", str(SAMPLE)])
    assert result.exit_code == 1 and "paragraph-span" in result.stdout


@pytest.mark.shared(f"{CONLL}/conll14st-test-data/noalt")
def test_issue22_default_conversion_is_a_valid_gold(tmp_path):
    """Issue 22, item 2: `convert official-2014.0.sgml out.m2` then `validate out.m2` found
    55 overlapping edits and glued words (`diagnosedout`), 43.8 % of the official blocks.
    Now the default reproduces the official M2 and validates; --mapping exact validates too
    and glues no words."""
    noalt = shared_file(f"{CONLL}/conll14st-test-data/noalt")
    runner = CliRunner()
    official = (noalt / "official-2014.0.m2").read_text(encoding="utf-8")
    for options in ([], ["--mapping", "exact"]):
        out = tmp_path / "out.m2"
        result = runner.invoke(app, ["convert", str(noalt / "official-2014.0.sgml"), str(out),
                                     *options])
        assert result.exit_code == 0, result.output
        result = runner.invoke(app, ["validate", str(out)])
        assert result.exit_code == 0, result.output
        text = out.read_text(encoding="utf-8")
        for glued in ("diagnosedout", "offspringeither", "testing.even", "intaketoo"):
            assert glued not in text
        ours = [b.strip("\n") for b in text.split("\n\n") if b.strip()]
        theirs = [b.strip("\n") for b in official.split("\n\n") if b.strip()]
        matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
        same = sum(m.size for m in matcher.get_matching_blocks()) / len(theirs)
        assert same >= (0.97 if not options else 0.40), (options, same)


@pytest.mark.shared(f"{CONLL}/conll13st-test-data/original/data/official.sgml")
def test_overlaps_of_the_annotation_are_kept_with_a_warning(tmp_path):
    """CoNLL-2013's annotation overlaps itself (as its official M2 does): the CoNLL way keeps
    that and says so; --mapping exact resolves it (and reports what it dropped)."""
    sgml = shared_file(f"{CONLL}/conll13st-test-data/original/data/official.sgml")
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(sgml), str(out)])
    assert result.exit_code == 0, result.output
    assert "sentences keep overlapping edits of one annotator" in result.output
    assert "--mapping exact resolves them" in result.output
    result = CliRunner().invoke(app, ["convert", str(sgml), str(out), "--mapping", "exact"])
    assert result.exit_code == 0 and "overlapping" not in result.output
    assert CliRunner().invoke(app, ["validate", str(out)]).exit_code == 0


def test_a_bad_byte_in_a_further_annotator_file_is_its_own(tmp_path):
    """As the conll reader (issue 22): several files read in step each own their errors."""
    bad = tmp_path / "second.sgml"
    bad.write_bytes(SECOND.read_bytes().replace(b"</DOC>", b"\xff</DOC>", 1))
    line = SECOND.read_bytes()[:SECOND.read_bytes().index(b"</DOC>")].count(b"\n") + 1
    result = CliRunner().invoke(app, ["convert", str(SAMPLE), str(tmp_path / "o.m2"), "--ann",
                                      str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:{line}: not valid UTF-8" in result.output

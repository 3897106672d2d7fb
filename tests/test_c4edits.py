"""gecformats.formats.c4edits: C4_200M-style byte-offset edits against a sentence file."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.errors import GecFormatError
from gecformats.formats import c4edits, m2
from gecformats.model import Parallel

EDITS = FIXTURES / "c4edits" / "edits.tsv"
TEXT = FIXTURES / "c4edits" / "sentences.tsv"


def test_reads_pairs_in_step():
    pairs = list(c4edits.read(EDITS, text=TEXT))
    assert [(p.id, p.source, p.references) for p in pairs] == [
        ("s1", "There is many reason why this is so.", ("There are many reasons why this is so.",)),
        ("s2", "She lives here for 2010.", ("She has lived here since 2010.",)),
        ("s3", "Nothing changes here.", ("Nothing changes here.",)),
        ("s4", "Le café est fermée.", ("Le café est fermé.",)),  # byte offsets after 'é'
    ]


def test_streams():
    pairs = c4edits.read(EDITS, text=TEXT)
    assert next(pairs).id == "s1"  # a generator: nothing read past what is asked for


def test_to_m2(tmp_path):
    out = tmp_path / "out.m2"
    convert(EDITS, out, from_format="c4edits", text=TEXT)
    first = next(m2.read(out))
    assert " ".join(first.source) == "There is many reason why this is so ."
    assert [(e.start, e.end, e.corrections) for e in first.annotators[0]] == [
        (1, 2, (("are",),)), (3, 4, (("reasons",),))]


@pytest.mark.parametrize("edits, message, kind", [
    ("s1\t1\t2\n", "4 tab-separated fields", "syntax"),
    ("s1\tx\t2\ty\n", "not a number", "bad-number"),
    ("s1\t0\t99\ty\n", "do not fit", "offset-out-of-range"),
    ("s1\t0\t4\ty\ns1\t2\t5\tz\n", "overlap", "overlap"),
    ("s2\t4\t5\ty\n", "split a UTF-8 character", "split-character"),
    ("s9\t0\t1\ty\n", "id 's9'", "syntax"),
    ("s2\t0\t1\ty\ns1\t0\t1\ty\n", "id 's1'", "syntax"),
])
def test_bad_edits_name_the_line(edits, message, kind):
    with pytest.raises(GecFormatError, match=message) as info:
        list(c4edits.parse(edits, "s1\tThe text.\ns2\tcafé au lait\n"))
    assert info.value.kind == kind and info.value.line is not None


def test_text_is_required(tmp_path):
    from gecformats.errors import UsageError

    with pytest.raises(UsageError, match="--text"):
        list(c4edits.read(EDITS))
    result = CliRunner().invoke(app, ["convert", str(EDITS), str(tmp_path / "x.tsv"), "--from",
                                      "c4edits"])
    assert result.exit_code == 2 and "--text" in result.stderr


def test_write_round_trip(tmp_path):
    pairs = list(c4edits.read(EDITS, text=TEXT))
    out = tmp_path / "out.tsv"
    report = c4edits.write(pairs, out)
    assert report.sentences == 4
    assert list(c4edits.read(out, text=f"{out}.text")) == pairs


def test_cli(tmp_path):
    out = tmp_path / "pairs.tsv"
    result = CliRunner().invoke(app, ["convert", str(EDITS), str(out), "--from", "c4edits",
                                      "--text", str(TEXT)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").splitlines()[1] == \
        "She lives here for 2010.\tShe has lived here since 2010."
    bad = tmp_path / "bad.tsv"
    bad.write_text("s1\t0\t999\tx\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(bad), str(tmp_path / "x.tsv"), "--from",
                                      "c4edits", "--text", str(TEXT)])
    assert result.exit_code == 1 and f"{bad}:1:" in result.stderr


sentence = st.text(alphabet="ab é.", min_size=1, max_size=20).map(str.strip).filter(bool)


@settings(max_examples=100, deadline=None)
@given(sentence, sentence)
def test_any_pair_round_trips(source, reference):
    """Writing any pair as one byte edit and reading it back gives the pair."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "e.tsv"
        c4edits.write([Parallel(source, (reference,), "x")], out)
        back, = c4edits.read(out, text=f"{out}.text")
    assert (back.source, back.references) == (source, (reference,))

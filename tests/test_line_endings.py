"""Line ends (issue 22): every reader reads a CRLF file as its LF twin, and a CR-only file too.

For every format of the registry, on its fixtures: the same files with CRLF (and with CR
alone) read into equal models, and ``convert … OUT.m2`` writes identical bytes.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.formats import FORMATS, NAMES

# format -> (fixture file or folder, reader options with {in} for the copy, convert arguments)
CASES: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "m2": ("m2", {"source": "{in}/conll14.m2"}, ["{in}/conll14.m2"]),
    "hoo2011": ("hoo2011", {"source": "{in}"}, ["{in}", "--from", "hoo2011"]),
    "hoo2012": ("hoo2012", {"source": "{in}"}, ["{in}", "--from", "hoo2012"]),
    "ixml": ("ixml", {"source": "{in}/example.ixml"}, ["{in}/example.ixml"]),
    "nucle": ("nucle", {"source": "{in}/sample.sgml", "ann": ["{in}/sample.1.sgml"],
                        "alt": ["{in}/sample.alt.sgml"]},
              ["{in}/sample.sgml", "--ann", "{in}/sample.1.sgml", "--alt", "{in}/sample.alt.sgml"]),
    "bea": ("bea", {"source": "{in}/sample.json"}, ["{in}/sample.json"]),
    "parallel": ("parallel", {"source": "{in}/en/source.txt",
                              "refs": ["{in}/en/annotator-0.txt", "{in}/en/annotator-1.txt"]},
                 ["{in}/en", "--from", "parallel", "--tokenizer", "space"]),
    "tsv": ("parallel", {"source": "{in}/sample.tsv"}, ["{in}/sample.tsv", "--tokenizer", "space"]),
    "nlpcc": ("parallel", {"source": "{in}/sample.train"},
              ["{in}/sample.train", "--tokenizer", "char"]),
    "cherrant": ("parallel", {"source": "{in}/sample.cherrant"},
                 ["{in}/sample.cherrant", "--from", "cherrant", "--tokenizer", "char"]),
    "c4edits": ("c4edits", {"source": "{in}/edits.tsv", "text": "{in}/sentences.tsv"},
                ["{in}/edits.tsv", "--from", "c4edits", "--text", "{in}/sentences.tsv"]),
    "fce": ("fce", {"source": "{in}"}, ["{in}", "--from", "fce"]),
    "conll": ("conll", {"source": "{in}/sample.conll",
                        "ann": ["{in}/sample.conll.ann", "{in}/sample.1.conll.ann"]},
              ["{in}/sample.conll", "--ann", "{in}/sample.conll.ann",
               "--ann", "{in}/sample.1.conll.ann"]),
    "jfleg": ("jfleg", {"source": "{in}/sample.ref.m2"},
              ["{in}/sample.ref.m2", "--from", "jfleg"]),
    "multigec": ("multigec", {"source": "{in}/xx-toy-orig-dev.md",
                              "refs": ["{in}/xx-toy-ref1-dev.md", "{in}/xx-toy-ref2-dev.md"]},
                 ["{in}/xx-toy-orig-dev.md", "--from", "multigec", "--tokenizer", "space",
                  "--ref", "{in}/xx-toy-ref1-dev.md"]),
    "geccc": ("geccc", {"source": "{in}/paragraph.m2"}, ["{in}/paragraph.m2", "--from", "geccc"]),
    "seeda-edits": ("seeda", {"source": "{in}"}, ["{in}", "--from", "seeda-edits"]),
    "uagec": ("uagec", {"source": "{in}/annotated"},
              ["{in}/annotated", "--from", "uagec", "--tokenizer", "unicode"]),
    "cowsl2h": ("cowsl2h", {"source": "{in}/famous/F17"}, ["{in}/famous/F17", "--from", "cowsl2h", "--tokenizer", "unicode"]),
}

ENDS = {"crlf": b"\r\n", "cr": b"\r"}

CR_KEPT = {"hoo2011"}
"""Formats whose text keeps a lone CR as a character (HOO 2011's raw text: its byte offsets
count it either way, and its writer keeps it); the conversion still splits there."""


def test_every_format_has_a_case() -> None:
    assert set(CASES) == set(NAMES)


def _copy(fixture: str, dest: Path, end: bytes) -> Path:
    """The fixture folder (invalid examples left out) with every LF replaced by ``end``."""
    src = FIXTURES / fixture
    for path in sorted(src.rglob("*")):
        if path.is_file() and "invalid" not in path.relative_to(src).parts:
            target = dest / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = path.read_bytes()
            target.write_bytes(data if end == b"\n" else data.replace(b"\r\n", b"\n")
                               .replace(b"\n", end))
    return dest


def _fill(value: Any, folder: Path) -> Any:
    if isinstance(value, list):
        return [_fill(v, folder) for v in value]
    return value.replace("{in}", str(folder))


def _read(name: str, folder: Path) -> list[Any]:
    fixture, options, _ = CASES[name]
    options = {k: _fill(v, folder) for k, v in options.items()}
    return list(FORMATS[name].read(options.pop("source"), **options))


def _convert(name: str, folder: Path, out: Path) -> tuple[int, str]:
    args = ["convert", *_fill(CASES[name][2][:1], folder), str(out),
            *_fill(CASES[name][2][1:], folder)]
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


@pytest.mark.parametrize("end", ENDS.values(), ids=ENDS.keys())
@pytest.mark.parametrize("name", NAMES)
def test_a_file_with_other_line_ends_reads_as_its_lf_twin(tmp_path: Path, name: str,
                                                          end: bytes) -> None:
    lf = _copy(CASES[name][0], tmp_path / "lf", b"\n")
    other = _copy(CASES[name][0], tmp_path / "other", end)
    expected = _read(name, lf)
    assert expected, "the fixture reads to something"
    got = _read(name, other)
    if end == b"\r" and name in CR_KEPT:
        got = [d.replace(text=d.text.replace("\r", "\n")) for d in got]
    assert got == expected
    code, err = _convert(name, lf, tmp_path / "lf.m2")
    assert code == 0, err
    code, err = _convert(name, other, tmp_path / "other.m2")
    assert code == 0, err
    assert (tmp_path / "other.m2").read_bytes() == (tmp_path / "lf.m2").read_bytes()


def test_nucle_crlf_gives_the_lf_edits(tmp_path: Path) -> None:
    """The issue's reproduction: ``A 0 2|||SVA|||Hgoesgo`` instead of ``A 1 2|||SVA|||goes``."""
    sgml = ('<DOC nid="1">\n<TEXT>\n<P>\nHe go to school .\n</P>\n</TEXT>\n'
            '<ANNOTATION teacher_id="1">\n'
            '<MISTAKE start_par="0" start_off="3" end_par="0" end_off="5">\n'
            '<TYPE>SVA</TYPE>\n<CORRECTION>goes</CORRECTION>\n</MISTAKE>\n'
            '</ANNOTATION>\n</DOC>\n')
    outputs = []
    for end in ("\n", "\r\n", "\r"):
        path = tmp_path / f"in{len(outputs)}.sgml"
        path.write_bytes((sgml * 2).replace('nid="1"', 'nid="2"', 1).replace("\n", end).encode())
        out = tmp_path / f"out{len(outputs)}.m2"
        result = CliRunner().invoke(app, ["convert", str(path), str(out)])
        assert result.exit_code == 0, result.stderr
        outputs.append(out.read_bytes())
    assert b"A 1 2|||SVA|||goes|||" in outputs[0] and outputs[0].count(b"\nS ") == 1
    assert outputs[1] == outputs[0] and outputs[2] == outputs[0]  # two DOCs each, not merged


def test_hoo2011_raw_text_with_crlf_keeps_its_offsets(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "hoo2011", tmp_path / "lf", ignore=shutil.ignore_patterns("invalid"))
    from gecformats.formats import hoo2011

    twin = _copy("hoo2011", tmp_path / "crlf", b"\r\n")
    assert list(hoo2011.read(twin)) == list(hoo2011.read(tmp_path / "lf"))


def test_hoo2011_writer_gives_offsets_of_the_text_as_read_back(tmp_path: Path) -> None:
    """The reader takes a raw text's CRLF as LF, so the writer writes a text with CRLF as LF
    (reported) with offsets to match: ``convert g.m2 OUT --to hoo2011 --text orig.txt``
    with a CRLF ``orig.txt`` reads back as with the LF one (it gave ``aan`` for ``an``)."""
    from gecformats.formats import hoo2011
    from gecformats.model import Document, Edit

    doc = Document("He go .\r\nShe have a apple .\r\n", (Edit(3, 5, (("goes",),), "SVA"),
                                                         Edit(18, 19, (("an",),), "Det")), id="d")
    hoo2011.write([doc], tmp_path / "out")
    back, = hoo2011.read(tmp_path / "out")
    assert back.text == doc.text.replace("\r\n", "\n")
    assert [back.text[e.start:e.end] for e in back.edits] == ["go", "a"]
    assert (tmp_path / "out" / "Raw" / "d.txt").read_bytes() == back.text.encode()
    m2 = tmp_path / "g.m2"
    m2.write_text("S He go to school .\nA 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                  "S She have a apple .\nA 3 4|||Det|||an|||REQUIRED|||-NONE-|||0\n\n")
    outputs = []
    for name, end in (("lf", "\n"), ("crlf", "\r\n")):
        original = tmp_path / f"{name}.txt"
        original.write_bytes(f"He go to school .{end}She have a apple .{end}".encode())
        folder = tmp_path / f"hoo-{name}"
        result = CliRunner().invoke(app, ["convert", str(m2), str(folder), "--to", "hoo2011",
                                          "--text", str(original)])
        assert result.exit_code == 0, result.stderr
        code, err = _convert("hoo2011", folder, tmp_path / f"{name}.m2")
        assert code == 0, err
        outputs.append((tmp_path / f"{name}.m2").read_bytes())
    assert outputs[0] == outputs[1] and b"|||an|||" in outputs[1]

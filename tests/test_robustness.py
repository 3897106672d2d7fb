"""Inputs found by fuzzing: each gives a clean GecFormatError (file, line, problem), never a
traceback, a hang or a memory blow-up.  One test per case (issue 13)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import hoo2012, ixml, m2, nlpcc
from gecformats.model import MAX_ANNOTATORS, MAX_DIGITS

HUGE = "9" * 5000

IXML = """<?xml version="1.0" encoding="UTF-8"?>
{doctype}<scripts><script id="1"><sentence id="1" numann="{numann}"><text>a b c</text><error-list>
<error id="1" req="yes" type="X"><alt ann="0"><c {start}end="2">y</c></alt></error>
</error-list></sentence></script></scripts>
"""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("line", [
    f"A {HUGE} 1|||X|||y|||REQUIRED|||-NONE-|||0",
    f"A 0 1|||X|||y|||REQUIRED|||-NONE-|||{HUGE}",
    f"T{HUGE}-A0 a",
])
def test_m2_numbers_over_the_digit_limit(line: str) -> None:
    with pytest.raises(GecFormatError) as info:
        list(m2.parse(f"S a b\n{line}\n"))
    assert info.value.line == 2 and len(str(info.value)) < 300


@pytest.mark.parametrize("annotator", [MAX_ANNOTATORS, 2147483648, -MAX_ANNOTATORS])
def test_m2_annotator_ids_beyond_the_bound(annotator: int) -> None:
    with pytest.raises(GecFormatError, match="out of range") as info:
        list(m2.parse(f"S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||{annotator}\n"))
    assert info.value.kind == "bad-annotator"


def test_m2_annotator_ids_within_the_bound_read() -> None:
    (s,) = m2.parse(f"S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||{MAX_ANNOTATORS - 1}\n")
    assert list(s.annotators) == [MAX_ANNOTATORS - 1]


def test_validate_reports_a_huge_annotator_id(tmp_path: Path) -> None:
    path = tmp_path / "big.m2"
    path.write_text("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||2147483648\n\n")
    code, output = run("validate", str(path))
    assert code == 1 and "bad-annotator" in output


@pytest.mark.parametrize("numann, start", [(HUGE, 'start="1" '), ("1", f'start="{HUGE}" '),
                                           ("2147483648", 'start="1" ')])
def test_ixml_numbers_beyond_bounds(numann: str, start: str) -> None:
    data = IXML.format(doctype="", numann=numann, start=start).encode()
    with pytest.raises(GecFormatError) as info:
        list(ixml.read(data))
    assert len(str(info.value)) < 300


def test_hoo_offset_over_the_digit_limit(tmp_path: Path) -> None:
    corpus = tmp_path / "hoo"
    shutil.copytree(FIXTURES / "hoo2012", corpus, ignore=shutil.ignore_patterns("invalid"))
    gold = corpus / "Gold" / "0001GE.xml"
    gold.write_text(gold.read_text().replace('start="29"', f'start="{HUGE}"', 1))
    with pytest.raises(GecFormatError, match=f"more than {MAX_DIGITS} digits"):
        list(hoo2012.read(corpus))


def test_nlpcc_count_over_the_digit_limit(tmp_path: Path) -> None:
    path = tmp_path / "x.train"
    path.write_text(f"1\t{HUGE}\t他去学校\n")
    with pytest.raises(GecFormatError, match="N \\(field 2\\)") as info:
        list(nlpcc.read(path))
    assert info.value.line == 1 and len(str(info.value)) < 300


# --------------------------------------------------------------------------- XML


def test_dtd_attribute_defaults_are_ignored() -> None:
    doctype = '<!DOCTYPE scripts [\n<!ATTLIST c start CDATA "1">\n]>\n'
    data = IXML.format(doctype=doctype, numann="1", start="").encode()
    with pytest.raises(GecFormatError, match="without start") as info:
        list(ixml.read(data))
    assert info.value.line == 6  # line numbers are kept


def test_dtd_without_defaults_still_reads() -> None:
    doctype = '<!DOCTYPE scripts [\n<!ELEMENT scripts ANY>\n]>\n'
    (s,) = ixml.read(IXML.format(doctype=doctype, numann="1", start='start="1" ').encode())
    assert s.source == ("a", "b", "c")


# --------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("data", [b"\xef", b"\xef\xbb"])
def test_a_truncated_byte_order_mark_is_invalid_utf8(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bom.m2"
    path.write_bytes(data)
    with pytest.raises(GecFormatError, match="not valid UTF-8") as info:
        list(m2.read(path))
    assert info.value.file == str(path) and info.value.line == 1
    code, output = run("validate", str(path))
    assert code != 0 and "not valid UTF-8" in output


def test_a_whole_byte_order_mark_is_still_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.m2"
    path.write_bytes(b"\xef\xbb\xbfS a b\n\n")
    assert [s.source for s in m2.read(path)] == [("a", "b")]


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_broken_gzip_names_the_file(tmp_path: Path, damage: str) -> None:
    whole = gzip.compress(b"S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||0\n\n" * 50)
    path = tmp_path / "gold.m2.gz"
    path.write_bytes(whole[:len(whole) // 2] if damage == "truncated" else b"not gzip at all")
    with pytest.raises(GecFormatError, match="cannot decompress") as info:
        list(m2.read(path))
    assert info.value.file == str(path)
    for command in (["stats", str(path)], ["validate", str(path)],
                    ["convert", str(path), str(tmp_path / "out.m2")]):
        code, output = run(*command)
        assert code != 0 and f"{path}: cannot decompress" in output and "Aborted" not in output
    assert not (tmp_path / "out.m2").exists()


# --------------------------------------------------------------------------- outputs

KILLED = """
import os, signal, sys, time
from gecformats.io import atomic_directory, atomic_output
with {opener}(sys.argv[1]) as out:
    {write}
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
    time.sleep(30)
"""


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("opener, write", [
    ("atomic_output", "out.write('partial')"),
    ("atomic_directory", "(out / 'a.txt').write_text('partial')"),
])
def test_a_termination_signal_leaves_no_temporary_file(tmp_path: Path, signame: str, opener: str,
                                                        write: str) -> None:
    import signal
    import subprocess
    import sys

    target = tmp_path / "out"
    code = KILLED.format(opener=opener, write=write)
    done = subprocess.run([sys.executable, "-c", code, str(target), signame], timeout=20)
    assert done.returncode == 128 + getattr(signal, signame)
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_output_is_named_as_given(tmp_path: Path) -> None:
    source = FIXTURES / "m2" / "conll14.m2"
    missing = tmp_path / "no" / "such" / "out.m2"
    code, output = run("convert", str(source), str(missing))
    assert code != 0 and f"{missing}:" in output and ".tmp" not in output
    (tmp_path / "dir.m2").mkdir()
    code, output = run("convert", str(source), str(tmp_path / "dir.m2"))
    assert code != 0 and "dir.m2" in output and "directory" in output and ".tmp" not in output


# --------------------------------------------------------------------------- writers


def test_a_bar_in_a_reference_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "pipe.tsv"
    path.write_text("He go home .\tHe goes||went home .\n")
    out = tmp_path / "out.m2"
    code, output = run("convert", str(path), str(out), "--tokenizer", "space")
    assert code == 1 and f"{path}: sentence 1 cannot be written as m2" in output
    assert not out.exists() and list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("to", ["ixml", "hoo2011", "hoo2012"])
def test_control_characters_reaching_xml_writers(tmp_path: Path, to: str) -> None:
    path = tmp_path / "ctl.m2"
    path.write_text("S a\x01 b\nA 0 1|||X|||y\x02|||REQUIRED|||-NONE-|||0\n\n")
    out = tmp_path / ("out.xml" if to == "ixml" else "out")
    code, output = run("convert", str(path), str(out), "--to", to)
    assert code == 1 and "cannot be written in XML" in output and not out.exists()


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d",
                                  "\x1e"])
def test_m2_line_breaks_other_than_newline_in_a_field(tmp_path: Path, char: str) -> None:
    path = tmp_path / "lb.m2"
    path.write_text(f"S a b\nA 0 1|||X|||y{char}z|||REQUIRED|||-NONE-|||0\n\n", newline="")
    code, output = run("validate", str(path))
    assert code == 1 and "a line break for the NUS scorer" in output
    code, output = run("convert", str(path), str(tmp_path / "out.m2"))
    assert code == 1 and "lb.m2:2:" in output


def test_m2_a_lone_cr_in_a_field_ends_the_line(tmp_path: Path) -> None:
    """A lone CR ends a line in every reader (universal newlines, as the NUS scorer's
    str.splitlines() reads the gold): the two halves are each refused."""
    path = tmp_path / "lb.m2"
    path.write_text("S a b\nA 0 1|||X|||y\rz|||REQUIRED|||-NONE-|||0\n\n", newline="")
    code, output = run("validate", str(path))
    assert code == 1 and "lb.m2:2:" in output and "lb.m2:3:" in output
    code, output = run("convert", str(path), str(tmp_path / "out.m2"))
    assert code == 1 and "lb.m2:2:" in output


def test_refs_refuses_an_edit_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "oor.m2"
    path.write_text("S a b c\nA 5 6|||X|||y|||REQUIRED|||-NONE-|||0\n\n")
    code, output = run("refs", str(path))
    assert code == 1 and "edit 5 6 does not fit the sentence's 3 tokens" in output


def test_a_forked_worker_dies_of_sigterm_as_by_default() -> None:
    """A worker forked while an output is written (extract --jobs) inherits the handler; a
    pool stops its workers with SIGTERM, which must end them at once, not raise in them
    (that left a worker holding a queue lock: a hang)."""
    import os
    import signal
    import time

    from gecformats.io import terminations_raise

    with terminations_raise():
        pid = os.fork()
        if pid == 0:  # the worker
            try:
                time.sleep(30)
            finally:
                os._exit(3)  # reached only if SIGTERM raised instead of killing
        time.sleep(0.1)
        os.kill(pid, signal.SIGTERM)
        _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM


# --------------------------------------------------------------------------- huge lines

# (command with {fx} for the copied fixtures and {out} for an output, the file given a long line)
LONG_LINE_CASES = {
    "m2": (["convert", "{fx}/m2/conll14.m2", "{out}.m2"], "m2/conll14.m2"),
    "validate-m2": (["validate", "{fx}/m2/conll14.m2"], "m2/conll14.m2"),
    "nucle": (["convert", "{fx}/nucle/sample.sgml", "{out}.m2"], "nucle/sample.sgml"),
    "bea": (["convert", "{fx}/bea/sample.json", "{out}.m2"], "bea/sample.json"),
    "parallel": (["convert", "{fx}/parallel/en", "{out}.m2", "--from", "parallel", "--tokenizer",
                  "space"], "parallel/en/annotator-0.txt"),
    "tsv": (["convert", "{fx}/parallel/sample.tsv", "{out}.m2", "--tokenizer", "space"],
            "parallel/sample.tsv"),
    "nlpcc": (["convert", "{fx}/parallel/sample.train", "{out}.m2", "--tokenizer", "char"],
              "parallel/sample.train"),
    "cherrant": (["convert", "{fx}/parallel/sample.cherrant", "{out}.m2", "--from", "cherrant",
                  "--tokenizer", "char"], "parallel/sample.cherrant"),
    "c4edits-edits": (["convert", "{fx}/c4edits/edits.tsv", "{out}.m2", "--from", "c4edits",
                       "--text", "{fx}/c4edits/sentences.tsv"], "c4edits/edits.tsv"),
    "c4edits-text": (["convert", "{fx}/c4edits/edits.tsv", "{out}.m2", "--from", "c4edits",
                      "--text", "{fx}/c4edits/sentences.tsv"], "c4edits/sentences.tsv"),
    "conll": (["convert", "{fx}/conll/sample.conll", "{out}.m2", "--ann",
               "{fx}/conll/sample.conll.ann"], "conll/sample.conll"),
    "conll-ann": (["convert", "{fx}/conll/sample.conll", "{out}.m2", "--ann",
                   "{fx}/conll/sample.conll.ann"], "conll/sample.conll.ann"),
    "score-hyp": (["score", "{fx}/score/sample.hyp", "--gold", "{fx}/score/sample.m2"],
                  "score/sample.hyp"),
    "score-gold": (["score", "{fx}/score/sample.hyp", "--gold", "{fx}/score/sample.m2"],
                   "score/sample.m2"),
    "gleu-hyp": (["gleu", "{fx}/gleu/system-a.txt", "--source", "{fx}/gleu/source.txt", "--ref",
                  "{fx}/gleu/ref0.txt"], "gleu/system-a.txt"),
    "gleu-source": (["gleu", "{fx}/gleu/system-a.txt", "--source", "{fx}/gleu/source.txt",
                     "--ref", "{fx}/gleu/ref0.txt"], "gleu/source.txt"),
    "gleu-ref": (["gleu", "{fx}/gleu/system-a.txt", "--source", "{fx}/gleu/source.txt", "--ref",
                  "{fx}/gleu/ref0.txt"], "gleu/ref0.txt"),
    "imeasure-hyp": (["imeasure", "{fx}/imeasure/sys.txt", "--gold", "{fx}/imeasure/gold.xml"],
                     "imeasure/sys.txt"),
    "correlate": (["correlate", "{fx}/gleu/human-napoles2015.tsv",
                   "{fx}/gleu/human-napoles2015.tsv"], "gleu/human-napoles2015.tsv"),
    "maxmatch-hyp": (["maxmatch", "{fx}/score/sample.hyp", "{fx}/score/sample.m2"],
                     "score/sample.hyp"),
    "maxmatch-gold": (["maxmatch", "{fx}/score/sample.hyp", "{fx}/score/sample.m2"],
                      "score/sample.m2"),
}


def _with_long_line(tmp_path: Path, damaged: str, length: int) -> Path:
    """A copy of the fixtures with a line of ``length`` NUL characters as line 2 of ``damaged``."""
    fixtures = tmp_path / "fx"
    top = damaged.split("/")[0]
    shutil.copytree(FIXTURES / top, fixtures / top)
    path = fixtures / damaged
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([lines[0], b"\0" * length, *lines[1:]]))
    return fixtures


def _run_any(args: list[str]) -> tuple[int, str]:
    if args[0] != "maxmatch":
        return run(*args)
    import io

    from gecformats import m2scorer_cli

    out, err = io.StringIO(), io.StringIO()
    code = m2scorer_cli.run(args[1:], out, err)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("case", LONG_LINE_CASES)
def test_a_line_past_the_cap_is_refused_while_read(tmp_path: Path, case: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: a 2 GB line of NUL bytes peaked at 4.2 GB before the refusal (6.3 GB for
    tsv -> m2).  Every line reader refuses a line past ``MAX_LINE`` as it reads it; here the
    cap is lowered to 1,000 and line 2 is 1,001 NUL characters."""
    import gecformats.io
    from gecformats import m2scorer_cli

    assert gecformats.io.MAX_LINE == m2scorer_cli._MAX_LINE == 10 * 1024 * 1024
    monkeypatch.setattr(gecformats.io, "MAX_LINE", 1000)
    monkeypatch.setattr(m2scorer_cli, "_MAX_LINE", 1000)
    command, damaged = LONG_LINE_CASES[case]
    fixtures = _with_long_line(tmp_path, damaged, 1001)
    args = [a.replace("{fx}", str(fixtures)).replace("{out}", str(tmp_path / "out"))
            for a in command]
    code, output = _run_any(args)
    assert code == 1, output
    lines = [line for line in output.splitlines() if line]
    assert lines == [line for line in lines if "longer than 1,000" in line] and len(lines) == 1
    assert f"{fixtures / damaged}:2:" in lines[0]
    assert not list(tmp_path.glob("out*"))


def test_a_line_at_the_cap_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gecformats.io

    monkeypatch.setattr(gecformats.io, "MAX_LINE", 1000)
    path = tmp_path / "a.txt"
    path.write_bytes(b"x" * 1000 + b"\n" + b"y" * 1000)
    assert [len(line) for _, line in gecformats.io.numbered_lines(path)] == [1000, 1000]
    with path.open("rb") as fh:
        assert [len(raw) for raw in gecformats.io.binary_lines(fh, "a")] == [1001, 1000]


def test_an_endless_line_is_refused_after_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused while reading: from a stream of NUL bytes without end, at most about the cap
    is read (a reader that held the line whole would never stop)."""
    import io

    import gecformats.io

    monkeypatch.setattr(gecformats.io, "MAX_LINE", 100_000)

    class Endless(io.RawIOBase):
        given = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
            assert self.given < 10_000_000, "the reader did not stop at the cap"
            buffer[:] = bytes(len(buffer))
            self.given += len(buffer)
            return len(buffer)

    for read in (lambda s: list(gecformats.io.numbered_lines(s)),
                 lambda s: list(gecformats.io.binary_lines(s, "endless"))):
        stream = Endless()
        with pytest.raises(GecFormatError, match="longer than 100,000") as info:
            read(io.BufferedReader(stream))
        assert info.value.line == 1 and stream.given < 1_000_000


def test_tsv_to_m2_with_a_line_past_the_real_cap(tmp_path: Path) -> None:
    """The issue's command (tsv -> m2) with the cap as shipped: 10 MiB and one byte."""
    import gecformats.io

    path = tmp_path / "big.tsv"
    path.write_bytes(b"a\tb\n" + b"\0" * (gecformats.io.MAX_LINE + 1) + b"\n")
    code, output = run("convert", str(path), str(tmp_path / "out.m2"), "--tokenizer", "space")
    assert code == 1 and output.strip() == (
        f"gecformats: {path}:2: the line is longer than 10,485,760 characters (the limit for "
        "one line, gecformats.io.MAX_LINE); is this the right file?")
    assert not (tmp_path / "out.m2").exists()


# --------------------------------------------------------------------------- issue 22, found by the fuzzer's new mutations


def test_a_huge_sentence_of_a_character_offset_document_is_refused_at_once(tmp_path):
    """fuzzing.m_huge in a HOO 2011 raw text: each edit re-tokenized a sentence of 12 MB
    (over 300 s); a sentence past retokenize.MAX_SENTENCE is refused, naming the document."""
    from gecformats.convert.retokenize import MAX_SENTENCE

    corpus = tmp_path / "hoo2011"
    shutil.copytree(FIXTURES / "hoo2011", corpus, ignore=shutil.ignore_patterns("invalid"))
    raw = corpus / "Raw" / "0001.txt"
    data = raw.read_bytes()
    raw.write_bytes(data[:len(data) // 2] + b"a b " * (MAX_SENTENCE // 3) + data[len(data) // 2:])
    code, out = run("convert", str(corpus), str(tmp_path / "out.m2"), "--from", "hoo2011")
    assert code == 1 and "document 0001: the sentence at characters" in out
    assert f"more than {MAX_SENTENCE:,}" in out and out.count("\n") == 1
    assert not (tmp_path / "out.m2").exists()


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_xml_text_past_the_parsers_limit_is_said_in_words_and_no_column(tmp_path, newline):
    """lxml's 'try XML_PARSE_HUGE' with a column that differs between CRLF twins: the
    message names the limit and the line, the same for both line ends."""
    path = tmp_path / "big.xml"
    with open(path, "w", newline=newline) as fh:
        fh.write("<?xml version='1.0'?>\n<scripts>" + "the " * 2_600_000 + "</scripts>\n")
    code, out = run("validate", str(path), "--from", "ixml")
    assert code == 1
    assert out == (f"{path}:2: syntax: not well-formed XML: a text or name longer "
                   "than the XML parser's limit of 10,000,000 characters (Resource limit "
                   "exceeded: Text node too long, try XML_PARSE_HUGE)\n")


def test_a_reader_closed_after_its_file_is_quiet(tmp_path: Path) -> None:
    """A reader's generator and its file in a reference cycle are finalized by the collector
    in any order; the file first made the generator's exit raise ("Exception ignored in:
    <generator object _blocks>", after score's one line; issue 34)."""
    from gecformats.io import text_lines

    path = tmp_path / "a.txt"
    path.write_text("a\nb\n", encoding="utf-8")
    raw = open(path, "rb")
    reading = text_lines(raw)
    lines = reading.__enter__()
    assert next(lines) == "a\n"
    raw.close()
    assert reading.__exit__(None, None, None) is False

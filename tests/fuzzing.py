"""A seeded mutation fuzzer for the ``gecformats`` command line (issue 13).

Each case takes one of the project's own fixtures, mutates its bytes (flips, truncation,
line edits, special characters, huge numbers, gzip damage ...) and runs one command on it
in-process.  The rule every case must keep:

* exit 0 with a result, or a non-zero exit (1 bad data, 2 bad usage) whose standard error
  is ``gecformats: ...`` lines with no traceback (``validate`` may list problems on
  standard output instead);
* no uncaught exception, no hang (a per-case time limit) and no memory blow-up (run
  under an address-space limit; the command's own "out of memory" line counts as one);
* on failure, the output file absent or unchanged and no temporary file left beside it;
* every precision, recall, F or GLEU printed in [0, 1], or a warning on standard error;
  standard output that looks like JSON is JSON (no ``NaN`` or ``Infinity``);
* twins agree (a share of the cases, :data:`TWIN_RATE`, runs one): the input with CRLF line
  ends gives the LF run's exit code, messages and output; ``convert --shards K`` gives parts
  that joined are the plain output (and fails where it fails); ``--engine dask`` (when a
  scheduler is given, see :func:`run_in_children`) gives the plain run's output, messages and
  exit code, for ``convert`` and ``score``.

The mutations include the classes of input that found super-linear work: a line repeated
thousands of times, a slice repeated in place, a line or token of megabytes, and lines of
unrelated words (the worst case of every alignment).

``python tests/fuzzing.py --cases N --seed S`` runs N cases and prints a JSON summary;
``tests/test_fuzz.py`` runs one full round (:func:`full_round`: every command of every
target under every mutation once), ``tests/bench/bench_fuzz.py`` ten thousand or more.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

TIME_LIMIT = 20.0
"""CPU seconds one case may use before it counts as a hang: twice the most work a documented
bound lets one input cost (an I-measure sentence just inside ``--max-cells``, about 8 s);
super-linear work on the mutations' megabyte takes minutes.  CPU time, not wall time,
so that a loaded machine (two xdist workers and the fuzz children on two cores) does not
turn linear work into a false hang."""

WALL_LIMIT = 120.0
"""Wall seconds one case may take: catches a case that waits (a deadlock) rather than
works, which the CPU limit cannot see."""

MEMORY_LIMIT = 3 << 30
"""Address-space limit of the fuzzing process (bytes)."""

SPECIAL = [b"|", b"||", b"|||", b"\t", b"\x00", b"\x01", b"\x1b", "\u0085".encode(),
           "\u2028".encode(), "\u2029".encode(), b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e",
           b"\r", b"\xef", b"\xef\xbb", b"\xef\xbb\xbf", b"\n\xef\xbb\xbf", b"\n\xef\xbb\xbf\n", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80",
           b"9" * 5000, b"2147483648", b"-1", b"-5", b" ", b"  ", b"\n\n", b"S ", b"A ",
           b"noop", b"-NONE-", b"<", b">", b"&", b"&amp;", b"]]>", b"<!--", b'"', b"'",
           b"a/b", b"..", b"/", "没有错误".encode(), "无法标注".encode(), b"T0-A0 ", b"T1 "]
"""Byte strings inserted by the ``special`` mutation."""

DOCTYPES = [b'<!DOCTYPE scripts [\n<!ATTLIST c start CDATA "1">\n]>\n',
            b'<!DOCTYPE scripts [\n<!ENTITY e "xx">\n]>\n',
            b'<!DOCTYPE scripts SYSTEM "http://localhost/x.dtd">\n']


# ------------------------------------------------------------------------- mutations


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def m_flip(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def m_truncate(rng: random.Random, data: bytes) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def m_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.choice(("dup", "del", "swap", "blank"))
    if op == "dup":
        lines.insert(i, lines[j])
    elif op == "del":
        del lines[i]
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, b"")
    return b"\n".join(lines)


def m_special(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(data) + 1)
        data = data[:pos] + rng.choice(SPECIAL) + data[pos:]
    return data


def m_number(rng: random.Random, data: bytes) -> bytes:
    """Replace one run of digits with a huge, negative or boundary number."""
    import re

    runs = list(re.finditer(rb"[0-9]+", data))
    if not runs:
        return m_special(rng, data)
    run = rng.choice(runs)
    new = rng.choice([b"9" * 5000, b"2147483648", b"-1", b"999999999999999999", b"0",
                      b"1" * 16, b"00", b"+1", b"1_0"])
    return data[:run.start()] + new + data[run.end():]


def m_doctype(rng: random.Random, data: bytes) -> bytes:
    end = data.find(b"?>") + 2 if data.startswith(b"<?xml") else 0
    return data[:end] + b"\n" + rng.choice(DOCTYPES) + data[end:]


def m_empty(_rng: random.Random, _data: bytes) -> bytes:
    return b""


def m_repeat(rng: random.Random, data: bytes) -> bytes:
    """Repeat one line (an XML declaration, a comment, an annotator ...) many times: finds
    work that grows faster than linearly in the number of lines or annotators."""
    lines = _lines(data)
    i = rng.randrange(len(lines))
    # at most about a megabyte more: the time limit is for linear work on small inputs
    count = min(rng.choice((30, 300, 3000, 10_000)), max(30, (1 << 20) // (len(lines[i]) + 1)))
    lines[i:i + 1] = [lines[i]] * count
    return b"\n".join(lines)


def m_repeat_slice(rng: random.Random, data: bytes) -> bytes:
    """Repeat a short slice of the bytes in place (an edit, a JSON object, an element)."""
    if not data:
        return data
    start = rng.randrange(len(data))
    piece = data[start:start + rng.randint(1, 200)]
    return data[:start] + piece * rng.choice((50, 500, 5000)) + data[start:]


def m_huge(rng: random.Random, data: bytes) -> bytes:
    """One huge line or token (megabytes): finds work allocated before a size bound; or
    a line of 37,000 short sentences (work per sentence that grows with the line)."""
    pos = rng.randrange(len(data) + 1)
    unit = rng.choice((b"the ", b"x", b"\x00", "错".encode(), b"a b ", b"He go. "))
    # a quarter and one megabyte (linear work stays within the time limit) or past the
    # 10 MiB line cap (refused while read); sentences a quarter (their linear work, Punkt's
    # and the conversions', is some 0.2 ms each)
    size = 1 << 18 if unit == b"He go. " else rng.choice((1 << 18, 1 << 20, 12 << 20))
    # bytes below the cap, characters past it (the text readers' cap counts characters)
    count = size // (len(unit) if size < 10 << 20 else len(unit.decode()))
    return data[:pos] + unit * count + data[pos:]


def m_scramble(rng: random.Random, data: bytes) -> bytes:
    """Replace the words of one or more lines by unrelated words (dissimilar sentences:
    the worst case of every alignment)."""
    lines = _lines(data)
    words = [b"%c%c" % (rng.randrange(97, 123), rng.randrange(97, 123)) for _ in range(60)]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        n = max(len(lines[i].split()), 1) * rng.choice((1, 1, 2, 10))
        lines[i] = b" ".join(rng.choice(words) for _ in range(n))
    return b"\n".join(lines)


def m_swap(rng: random.Random, data: bytes) -> bytes:
    """Make edits end before they start: neighbouring numbers (an M2 ``A 4 5``, a BEA
    ``[4, 5``, attributes), each pair with even odds, swapped or made ``end + 1, end``
    (``A 4 4`` → ``A 5 4``: past the other annotators' edit there, so alone in its chunk).
    Readers keep such edits (validate reports them); metrics must refuse them."""
    pairs = list(re.finditer(rb"([0-9]+)([^0-9\n]{1,3})([0-9]+)", data))
    if not pairs:
        return m_number(rng, data)
    chosen = [m for m in pairs if rng.random() < 0.5] or [rng.choice(pairs)]
    out, at = [], 0
    for m in chosen:
        end = m.group(3)
        # a longer number (b"1" + end) past Python's int-string limit of 4,300 digits
        after = b"%d" % (int(end) + 1) if len(end) < 4000 else b"1" + end
        start = end if m.group(1) != end and rng.random() < 0.5 else after
        out += [data[at:m.start()], start, m.group(2), m.group(1) if start == end else end]
        at = m.end()
    return b"".join(out) + data[at:]


MUTATIONS: dict[str, Callable[[random.Random, bytes], bytes]] = {
    "flip": m_flip, "truncate": m_truncate, "line": m_line, "special": m_special,
    "number": m_number, "doctype": m_doctype, "empty": m_empty, "repeat": m_repeat,
    "repeat-slice": m_repeat_slice, "huge": m_huge, "scramble": m_scramble, "swap": m_swap,
}
HEAVY = {"repeat", "repeat-slice", "huge"}
"""Mutations applied once per case (each already makes its input large)."""


# ------------------------------------------------------------------------- targets


@dataclass
class Target:
    """A fixture to mutate and the commands to run on it.

    ``file`` is relative to ``fixtures/``; a folder (HOO, parallel) gets one of its files
    mutated.  Each command is a list of arguments where ``{in}`` is the mutated input and
    ``{out}`` an output path in a fresh folder.
    """

    name: str
    file: str
    commands: list[list[str]]
    suffix: str = ""


M2_COMMANDS = [
    ["validate", "{in}"], ["stats", "{in}"], ["convert", "{in}", "{out}.m2"],
    ["convert", "{in}", "{out}.xml", "--to", "ixml"], ["convert", "{in}", "{out}", "--to", "parallel"],
    ["convert", "{in}", "{out}.tsv"], ["convert", "{in}", "{out}", "--to", "hoo2012"],
    ["convert", "{in}", "{out}", "--to", "hoo2011"], ["convert", "{in}", "{out}.m2", "--tokenizer", "char"],
    ["refs", "{in}", "-o", "{out}.txt"], ["refs", "{in}", "--count"],
    ["score", "{fixture:score/sample.hyp}", "--gold", "{in}"],
    ["gleu", "{fixture:score/sample.hyp}", "--gold", "{in}"],
]
TEXT_COMMANDS = [
    ["validate", "{in}"], ["stats", "{in}"],
    ["convert", "{in}", "{out}.m2", "--tokenizer", "space"],
    ["convert", "{in}", "{out}.m2", "--tokenizer", "char"],
]
TARGETS = [
    Target("m2-conll", "m2/conll14.m2", M2_COMMANDS, ".m2"),
    Target("m2-alternatives", "m2/alternatives.m2", M2_COMMANDS, ".m2"),
    Target("m2-cherrant", "m2/cherrant.m2.char", M2_COMMANDS[:4], ".m2.char"),
    Target("m2-score", "score/sample.m2", [["score", "{fixture:score/sample.hyp}", "--gold", "{in}"],
                                           ["score", "{fixture:score/sample.hyp}", "--gold", "{in}",
                                            "--format", "json"],
                                           ["score", "{fixture:score/sample.hyp}", "--gold", "{in}",
                                            "--metric", "errant", "--metric", "gleu", "--metric",
                                            "imeasure", "--metric", "green", "--metric", "sentm2",
                                             "--metric", "senterrant", "--metric", "gotoscorer",
                                             "--metric", "cleme", "--metric", "cleme2",
                                             "--format", "json"],
                                           ["maxmatch", "{fixture:score/sample.hyp}", "{in}"]], ".m2"),
    Target("hyp", "score/sample.hyp", [["score", "{in}", "--gold", "{fixture:score/sample.m2}"],
                                       ["score", "{in}", "--gold", "{fixture:score/sample.m2}",
                                        "--per-sentence", "{out}.tsv", "-v"],
                                       ["score", "{in}", "--gold", "{fixture:score/sample.m2}",
                                        "-v", "--format", "latex"],
                                       ["gleu", "{in}", "--gold", "{fixture:score/sample.m2}"],
                                       ["score", "{in}", "--gold", "{fixture:score/sample.m2}",
                                        "--metric", "m2", "--metric", "errant", "--metric", "gleu",
                                        "--metric", "imeasure", "--metric", "green", "--metric",
                                         "sentm2", "--metric", "senterrant", "--metric",
                                         "gotoscorer", "--metric", "cleme",
                                         "--metric", "cleme2", "--ci", "--resamples", "20"],
                                        ["score", "{in}", "--gold", "{fixture:score/sample.m2}",
                                         "--metric", "cleme", "--metric", "cleme2",
                                         "--cleme-assumption", "independent", "--cleme-level",
                                         "sentence", "--cleme-weighting", "length",
                                         "--per-sentence", "{out}.tsv"],
                                       ["score", "{fixture:score/sample.hyp}", "{in}", "--gold",
                                        "{fixture:score/sample.m2}", "--metric", "gleu", "--metric",
                                        "imeasure", "--metric", "green", "--paired-ar", "--trials", "50", "--format",
                                        "csv"],
                                       ["maxmatch", "{in}", "{fixture:score/sample.m2}"]], ".hyp"),
    Target("errant-gold", "m2/errant.m2", [
        ["score", "{fixture:score/errant.hyp}", "--gold", "{in}", "--metric", "errant"],
        ["score", "{fixture:score/errant.hyp}", "--gold", "{in}", "--metric", "errant", "--cat", "3",
         "--format", "json"],
        ["score", "{fixture:m2/errant.m2}", "--gold", "{in}", "--metric", "errant", "--errant-mode", "cse"],
        ["score", "{fixture:m2/errant.m2}", "--gold", "{in}", "--metric", "senterrant",
         "--metric", "gotoscorer", "--gotoscorer-version", "gec-metrics", "--gotoscorer-weighting",
         "weighted"],
        ["score", "{fixture:m2/errant.m2}", "--gold", "{in}", "--metric", "cleme", "--metric",
         "cleme2", "--cleme2-factors", "adapt"]],
           ".m2"),
    Target("errant-hyp", "score/errant.hyp", [
        ["score", "{in}", "--gold", "{fixture:m2/errant.m2}", "--metric", "errant"],
        ["score", "{in}", "--gold", "{fixture:m2/errant.m2}", "--metric", "errant", "--errant-mode", "ds"],
        ["score", "{in}", "--gold", "{fixture:m2/errant.m2}", "--metric", "senterrant",
         "--metric", "sentm2", "--metric", "gotoscorer", "--weights-from",
         "{fixture:m2/errant.m2}", "--per-sentence", "{out}.tsv"],
        ["score", "{in}", "--gold", "{fixture:m2/errant.m2}", "--metric", "cleme", "--metric",
         "cleme2", "--cleme-weighting", "length-sentence"],
        ["score", "{in}", "--gold", "{fixture:m2/errant.m2}", "--metric", "errant", "--extractor",
         "native"]],
           ".hyp"),
    Target("zh-project", "project/system.txt", [
        ["score", "{in}", "--gold", "{fixture:project/gold.m2}", "--segment", "project"],
        ["score", "{in}", "--gold", "{fixture:project/gold.m2}", "--segment", "project",
         "--segmenter", "char", "--format", "json"]], ".txt"),
    Target("align-hyp", "align/system.txt", [
        ["align", "{in}", "--gold", "{fixture:align/gold.m2}", "-o", "{out}.txt"],
        ["align", "{in}", "--source", "{fixture:align/source.txt}"],
        ["align", "{in}", "--gold", "{fixture:score/sample.m2}", "-q"],
        ["score", "{in}", "--gold", "{fixture:align/gold.m2}", "--align", "--metric", "m2",
         "--metric", "gleu"]], ".txt"),
    Target("essays", "inputs/essays.txt", [
        ["score", "{in}", "--gold", "{fixture:inputs/essays.m2}", "--unit", "document",
         "--metric", "m2", "--metric", "errant"]], ".txt"),
    Target("essays-gold", "inputs/essays.m2", [
        ["score", "{fixture:inputs/essays.txt}", "--gold", "{in}", "--unit", "document",
         "--metric", "m2", "--metric", "gleu"]], ".m2"),
    Target("align-gold", "align/gold.m2", [
        ["align", "{fixture:align/system.txt}", "--gold", "{in}", "-o", "{out}.txt"],
        ["align", "{fixture:score/sample.hyp}", "--gold", "{in}", "--gold-format", "m2"]], ".m2"),
    Target("explain-hyp", "explain/system.txt", [
        ["explain", "{in}", "--gold", "{fixture:explain/gold.m2}", "--claim", "0.5", "--budget", "4"],
        ["explain", "{in}", "--gold", "{fixture:explain/gold.m2}", "--factor", "gold",
         "--factor", "beta", "--format", "json"]], ".txt"),
    Target("explain-gold", "explain/gold.m2", [
        ["explain", "{fixture:explain/system.txt}", "--gold", "{in}", "--claim", "61", "--budget", "4",
         "--gold-variant", "{fixture:explain/gold-alt.m2}"]], ".m2"),
    Target("explain-table", "explain/claims.tsv", [
        ["explain", "{fixture:explain/system.txt}", "--gold", "{fixture:explain/gold.m2}",
         "--claim-table", "{in}", "--factor", "max-unchanged-words", "--budget", "3"]], ".tsv"),
    Target("ixml", "ixml/example.ixml", [
        ["validate", "{in}"], ["stats", "{in}"], ["convert", "{in}", "{out}.m2"],
        ["convert", "{in}", "{out}.xml", "--to", "ixml"], ["refs", "{in}", "-o", "{out}.txt"],
        ["refs", "{in}", "--count"]], ".ixml"),
    Target("tsv", "parallel/sample.tsv", TEXT_COMMANDS + [["convert", "{in}", "{out}.train"]], ".tsv"),
    Target("nlpcc", "parallel/sample.train", TEXT_COMMANDS + [
        ["convert", "{in}", "{out}.m2", "--tokenizer", "zh"]], ".train"),
    Target("cherrant", "parallel/sample.cherrant", [
        [*c, "--from", "cherrant"] for c in TEXT_COMMANDS], ".txt"),
    Target("parallel", "parallel/en", [["validate", "{in}", "--from", "parallel"],
                                       ["stats", "{in}", "--from", "parallel"],
                                       ["convert", "{in}", "{out}.m2", "--from", "parallel",
                                        "--tokenizer", "space"],
                                       ["convert", "{in}", "{out}.m2", "--from", "parallel",
                                        "--extractor", "native"]]),
    Target("gleu-source", "gleu/source.txt", [
        ["gleu", "{fixture:gleu/system-a.txt}", "--source", "{in}", "--ref", "{fixture:gleu/ref0.txt}"],
        ["gleu", "{in}", "--source", "{fixture:gleu/source.txt}", "--ref", "{fixture:gleu/ref0.txt}",
         "--version", "2015", "--format", "json"]], ".txt"),
    Target("score-refs", "gleu/ref1.txt", [
        ["score", "{fixture:gleu/system-a.txt}", "--source", "{fixture:gleu/source.txt}", "--ref",
         "{fixture:gleu/ref0.txt}", "--ref", "{in}", "--metric", "m2", "--metric", "cleme"],
        ["report", "{fixture:gleu/system-a.txt}", "--source", "{fixture:gleu/source.txt}", "--ref",
         "{in}", "-o", "{out}.html", "--quiet"]], ".txt"),
    Target("correlate", "gleu/human-napoles2015.tsv", [
        ["correlate", "{in}", "{fixture:gleu/human-napoles2015.tsv}"],
        ["correlate", "{fixture:gleu/human-napoles2015.tsv}", "{in}", "--exclude", "INPUT",
         "--format", "json"]], ".tsv"),
    Target("correlate-score-tsv", "correlate/scores.tsv", [
        ["correlate", "{in}", "{fixture:correlate/human.tsv}"],
        ["correlate", "{in}", "{fixture:correlate/human.tsv}", "--column", "recall"]], ".tsv"),
    Target("correlate-score-json", "correlate/scores.json", [
        ["correlate", "{in}", "{fixture:correlate/human.tsv}", "--format", "json"]], ".json"),
    Target("hoo2011", "hoo2011", [["validate", "{in}", "--from", "hoo2011"],
                                  ["convert", "{in}", "{out}.m2", "--from", "hoo2011"],
                                  ["convert", "{in}", "{out}", "--from", "hoo2011", "--to", "hoo2011"]]),
    Target("hoo2012", "hoo2012", [["validate", "{in}", "--from", "hoo2012"],
                                  ["convert", "{in}", "{out}.m2", "--from", "hoo2012"],
                                  ["convert", "{in}", "{out}", "--from", "hoo2012", "--to", "hoo2012"]]),
    Target("nucle", "nucle", [
        ["validate", "{in}/sample.sgml"], ["convert", "{in}/sample.sgml", "{out}.m2"],
        ["convert", "{in}/sample.sgml", "{out}.m2", "--mapping", "conll", "--shrink",
         "--ann", "{in}/sample.1.sgml", "--alt", "{in}/sample.alt.sgml"],
        ["convert", "{in}/sample.sgml", "{out}.sgml"]]),
    Target("conll", "conll", [
        ["validate", "{in}/sample.conll"], ["stats", "{in}/sample.conll"],
        ["convert", "{in}/sample.conll", "{out}.m2", "--ann", "{in}/sample.conll.ann",
         "--ann", "{in}/sample.1.conll.ann"]]),
    Target("bea", "bea/sample.json", [
        ["validate", "{in}"], ["convert", "{in}", "{out}.m2"], ["convert", "{in}", "{out}.json"]],
           ".json"),
    Target("fce", "fce", [
        ["convert", "{in}", "{out}.m2", "--from", "fce"],
        ["convert", "{in}/doc1.xml", "{out}.json", "--from", "fce", "--to", "bea"]]),
    Target("imeasure-gold", "imeasure/gold.xml", [
        ["imeasure", "{fixture:imeasure/sys.txt}", "--gold", "{in}"],
        ["imeasure", "{fixture:imeasure/sys.txt}", "--gold", "{in}", "--per-sentence",
         "--format", "json", "--enumerate-max", "0"]], ".xml"),
    Target("imeasure-hyp", "imeasure/sys.txt", [
        ["imeasure", "{in}", "--gold", "{fixture:imeasure/gold.xml}", "--no-mix"],
        ["imeasure", "{in}", "--gold", "{fixture:imeasure/gold.xml}", "--format", "tsv"]], ".txt"),
    Target("shards", "parallel/sample.tsv", [
        ["convert", "{in}", "{out}", "--to", "m2", "--tokenizer", "space", "--shards", "2"]],
           ".tsv"),
    Target("shards-per-input", "parallel/sample.tsv", [
        ["convert", "{in}", "{out}", "--to", "m2", "--tokenizer", "space", "--shards", "0"]],
           ".tsv"),
    Target("multigec", "multigec/xx-toy-orig-dev.md", [
        ["validate", "{in}"], ["stats", "{in}"],
        ["convert", "{in}", "{out}.m2", "--from", "multigec", "--tokenizer", "space", "--ref",
         "{fixture:multigec/xx-toy-ref1-dev.md}", "--ref", "{fixture:multigec/xx-toy-ref2-dev.md}"],
        ["convert", "{in}", "{out}", "--from", "multigec", "--to", "parallel", "--unit", "line",
         "--ref", "{fixture:multigec/xx-toy-ref1-dev.md}"],
        ["convert", "{in}", "{out}.tsv", "--from", "multigec", "--unit", "sentence",
         "--ref", "{fixture:multigec/xx-toy-ref1-dev.md}"],
        ["convert", "{in}", "{out}.md"]], ".md"),
    Target("multigec-ref", "multigec/xx-toy-ref1-dev.md", [
        ["convert", "{fixture:multigec/xx-toy-orig-dev.md}", "{out}.tsv", "--from", "multigec",
         "--ref", "{in}"],
        ["convert", "{fixture:multigec/xx-toy-orig-dev.md}", "{out}.tsv", "--from", "multigec",
         "--unit", "sentence", "--ref", "{in}"]], ".md"),
    Target("jfleg-m2", "jfleg/sample.ref.m2", [
        ["validate", "{in}", "--from", "jfleg"], ["stats", "{in}", "--from", "jfleg"],
        ["convert", "{in}", "{out}.m2", "--from", "jfleg", "--to", "jfleg"],
        ["convert", "{in}", "{out}", "--from", "jfleg", "--to", "parallel"]], ".m2"),
    Target("jfleg-folder", "jfleg/dev", [
        ["validate", "{in}", "--from", "parallel"], ["stats", "{in}", "--from", "parallel"],
        ["convert", "{in}", "{out}.m2", "--from", "parallel", "--tokenizer", "space"]]),
    Target("uagec", "uagec/annotated", [
        ["validate", "{in}", "--from", "uagec"],
        ["convert", "{in}", "{out}.m2", "--from", "uagec", "--tokenizer", "unicode"],
        ["convert", "{in}", "{out}", "--from", "uagec", "--to", "uagec"]]),
    Target("cowsl2h", "cowsl2h/famous/F17/annotated", [["validate", "{in}", "--from", "cowsl2h"], ["convert", "{in}", "{out}.m2", "--from", "cowsl2h", "--tokenizer", "unicode"], ["convert", "{in}", "{out}", "--from", "cowsl2h", "--to", "cowsl2h"]]),
    Target("cowsl2h-csv", "cowsl2h/famous.F17.csv", [["validate", "{in}", "--from", "cowsl2h"], ["convert", "{in}", "{out}.m2", "--from", "cowsl2h", "--tokenizer", "unicode"]], ".csv"),
    Target("m2-uagec", "uagec/sample.m2", M2_COMMANDS[:5] + [
        ["convert", "{in}", "{out}", "--to", "uagec", "--tokenizer", "unicode"]], ".m2"),
    Target("geccc", "geccc", [["validate", "{in}/paragraph.m2", "--from", "geccc"], ["stats", "{in}/paragraph.m2", "--from", "geccc"], ["convert", "{in}/paragraph.m2", "{out}", "--from", "geccc", "--to", "geccc"], ["convert", "{in}/paragraph.m2", "{out}", "--from", "geccc", "--to", "parallel"]]),
    Target("seeda-edits", "seeda", [["validate", "{in}", "--from", "seeda-edits"], ["stats", "{in}", "--from", "seeda-edits"], ["convert", "{in}", "{out}.m2", "--from", "seeda-edits"], ["convert", "{in}", "{out}", "--from", "seeda-edits", "--to", "seeda-edits"]]),
    Target("metaeval-judgments", "metaeval/judgments.xml", [
        ["judgments", "{in}"], ["judgments", "{in}", "--systems-split", "|"]], ".xml"),
    Target("meta-eval", "metaeval/seeda-tiny", [
        ["meta-eval", "--dataset", "seeda", "--data", "{in}", "--gold", "{in}/gold.m2", "--quiet",
         "--metric", "m2", "--metric", "sentm2", "--ci", "5", "--format", "tsv"],
        ["meta-eval", "--dataset", "seeda", "--data", "{in}", "--gold", "{in}/gold.m2", "--quiet",
         "--level", "sentence", "--metric", "m2", "--metric", "length", "--metric-ties", "skip",
         "--format", "json"],
        ["meta-eval", "--dataset", "seeda", "--data", "{in}", "--gold", "{in}/gold.m2", "--quiet",
         "--human", "judgments", "--metric", "length", "--metric", "m2", "--ci", "3",
         "--compare", "--window", "3", "--format", "json"]]),
    Target("c4edits", "c4edits", [
        ["convert", "{in}/edits.tsv", "{out}.tsv", "--from", "c4edits", "--text", "{in}/sentences.tsv"],
        ["convert", "{in}/edits.tsv", "{out}.m2", "--from", "c4edits", "--text", "{in}/sentences.tsv"]]),
]

BAD_OPTIONS = [["--beta", "nan"], ["--beta", "inf"], ["--beta", "-1"], ["--beta", "0"],
               ["--max-unchanged-words", "-5"], ["--per-sentence", "-", "--format", "json"],
               ["--format", "nope"], ["--beta", "1e309"]]
"""Options added to a share of the ``score`` cases."""

OTHER_BAD_OPTIONS = {
    "imeasure": [["--beta", "nan"], ["--beta", "1e308"], ["--beta", "inf"], ["--beta", "-1"],
                 ["--weight", "-2"], ["--weight", "inf"], ["--weight", "0"], ["--beta", "0"]],
    "maxmatch": [["--beta", "nan"], ["--beta", "inf"], ["--beta", "0"], ["--beta", "-1"],
                 ["--max_unchanged_words", "-5"], ["--help"]],
    "gleu": [["--order", "0"], ["--iterations", "0"], ["--max-references", "-1"], ["--lambda", "nan"]],
}
"""Bad or boundary options added to a share of the other scoring commands' cases."""


# ------------------------------------------------------------------------- running


@dataclass
class Outcome:
    """What one case did."""

    target: str
    command: list[str]
    mutation: str
    seed: int
    status: str  # ok, bad-data, usage, traceback, hang, memory, bad-exit, bad-message, leftover
    exit_code: int | None = None
    detail: str = ""


@dataclass
class Summary:
    """Counts of outcomes and the failing cases."""

    cases: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.cases += 1
        self.counts[outcome.status] = self.counts.get(outcome.status, 0) + 1
        if outcome.status not in ("ok", "bad-data", "usage"):
            self.failures.append(outcome.__dict__)


class _Timeout(BaseException):
    """Raised by the alarms: the case used more than :data:`TIME_LIMIT` CPU seconds or
    :data:`WALL_LIMIT` wall seconds."""


def _on_alarm(_signum: int, _frame: object) -> None:
    raise _Timeout()


def _prepare(target: Target, rng: random.Random, work: Path, mutation: str | None = None
             ) -> tuple[Path, str]:
    """Copy the target's fixture into ``work``, mutate one file with ``mutation`` (a name
    of :data:`MUTATIONS`; ``None``: one drawn from ``rng``); return the input path and a
    description of the mutation."""
    source = FIXTURES / target.file
    if source.is_dir():
        copy = work / source.name
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("invalid"))
        files = sorted(p for p in copy.rglob("*") if p.is_file())
        victim = rng.choice(files)
        base = copy
    else:
        copy = work / f"input{target.suffix}"
        shutil.copyfile(source, copy)
        victim = base = copy
    name = rng.choice(list(MUTATIONS)) if mutation is None else mutation
    data = victim.read_bytes()
    for _ in range(1 if name in HEAVY else rng.choice((1, 1, 1, 2, 3))):
        data = MUTATIONS[name](rng, data)
    description = f"{name} of {victim.relative_to(work)}"
    if victim is base and rng.random() < 0.08:  # compressed, maybe damaged
        packed = gzip.compress(data)
        if rng.random() < 0.5:
            packed = packed[:rng.randrange(len(packed))]
            description += ", gzipped and truncated"
        else:
            description += ", gzipped"
        victim.unlink()
        victim = base = victim.with_name(victim.name + ".gz")
        data = packed
    victim.write_bytes(data)
    return base, description


def _expand(command: list[str], given: Path, out: Path) -> list[str]:
    args = []
    for a in command:
        if a.startswith("{fixture:"):
            a = str(FIXTURES / a[len("{fixture:"):-1])
        args.append(a.replace("{in}", str(given)).replace("{out}", str(out)))
    return args


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@dataclass
class _Result:
    """What ``CliRunner().invoke`` gives, for the ``maxmatch`` drop-in (not a typer app)."""

    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None


def _drop_in(args: list[str]) -> _Result:
    import io

    from gecformats.m2scorer_cli import run

    out, err = io.StringIO(), io.StringIO()
    try:
        code = run(args, out, err)
    except (_Timeout, MemoryError):
        raise
    except Exception as exc:  # judged as a traceback below
        return _Result(1, out.getvalue(), err.getvalue(), exc)
    return _Result(code, out.getvalue(), err.getvalue(), None)


def _fast(args: list[str]) -> _Result | None:
    """A command line the console script runs on its fast path (gecformats/cli/fast.py,
    ``score`` without typer), run that way; ``None`` when that path leaves it to typer."""
    import contextlib
    import io

    from gecformats.cli import fast

    if not args or args[0] not in fast.RUNNERS or fast.parse(args[0], args[1:]) is None:
        return None
    out, err = io.StringIO(), io.StringIO()
    code, exception = 0, None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            fast.run(args)
    except SystemExit as exc:  # as CliRunner: the exit status, the exception if not 0
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        exception = exc if code else None
    except (_Timeout, MemoryError):
        raise
    except Exception as exc:  # judged as a traceback
        code, exception = 1, exc
    return _Result(code, out.getvalue(), err.getvalue(), exception)


LIBRARY_COMMANDS = ("judgments",)
"""Drop-in commands that call a library reader directly (no CLI command of their own yet):
``judgments FILE [--systems-split SEP]`` reads Appraise ranking XML with
:func:`gecformats.metaeval.judgments.read_judgments` and prints one line per item."""


def _library(args: list[str]) -> _Result:
    """Run a :data:`LIBRARY_COMMANDS` drop-in (``args[0]`` is its name) like the CLI would:
    exit 0 with the items on standard output, or exit 1 with ``gecformats: MESSAGE``."""
    from gecformats.errors import GecFormatError
    from gecformats.metaeval.judgments import read_judgments

    split = args[args.index("--systems-split") + 1] if "--systems-split" in args else " "
    try:
        lines = [f"{i.src_id}\t{i.judge}\t{i.item}\t{i.line}\t{i.ranks}"
                 for i in read_judgments(args[1], systems_split=split)]
    except (_Timeout, MemoryError):
        raise
    except GecFormatError as exc:
        return _Result(1, "", f"gecformats: {exc}\n", None)
    except Exception as exc:  # judged as a traceback
        return _Result(1, "", "", exc)
    return _Result(0, "\n".join(lines) + "\n", "", None)


def _invoke(command: str, args: list[str]) -> Any:
    """Run one command line (``args[0]`` is the command) in-process under the
    :data:`TIME_LIMIT` (CPU) and :data:`WALL_LIMIT` alarms (raises
    :class:`_Timeout` past it); the result has ``exit_code``, ``stdout``, ``stderr`` and
    ``exception`` like typer's ``CliRunner().invoke``."""
    from typer.testing import CliRunner

    from gecformats.cli import app

    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGPROF, _on_alarm)
    signal.setitimer(signal.ITIMER_PROF, TIME_LIMIT)
    signal.setitimer(signal.ITIMER_REAL, WALL_LIMIT)
    try:
        if command == "maxmatch":
            result = _drop_in(args[1:])
        elif command in LIBRARY_COMMANDS:
            result = _library(args)
        elif (fast := _fast(args)) is not None:
            result = fast
        else:
            result = CliRunner().invoke(app, args, catch_exceptions=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
    if isinstance(result.exception, _Timeout):
        raise result.exception
    return result


def _judge(outcome: Outcome, command: list[str], result: Any, before: dict[str, bytes],
           outdir: Path) -> None:
    """Set ``outcome``'s status from one run: the rule of the module docstring."""
    outcome.exit_code = result.exit_code
    exc = result.exception
    if isinstance(exc, MemoryError):
        outcome.status, outcome.detail = "memory", "MemoryError"
    elif exc is not None and not isinstance(exc, SystemExit):
        import traceback

        frames = traceback.extract_tb(exc.__traceback__)
        last = frames[-1] if frames else None
        where = f"{Path(last.filename).name}:{last.name}:{last.lineno}" if last else "?"
        outcome.status, outcome.detail = "traceback", f"{type(exc).__name__}: {str(exc)[:200]} at {where}"
    elif result.exit_code not in (0, 1, 2):
        outcome.status, outcome.detail = "bad-exit", f"exit {result.exit_code}"
    elif result.exit_code != 0:
        outcome.status = "bad-data" if result.exit_code == 1 else "usage"
        err = result.stderr
        if command[0] == "maxmatch":  # a bad option: the NUS scorer's usage follows the line
            err = err.split("Usage: maxmatch", 1)[0]
        lines = err.splitlines()
        listed = command[0] == "validate" and result.stdout.strip()
        prefix = "maxmatch: " if command[0] == "maxmatch" else "gecformats: "
        if "Traceback" in err or (not lines and not listed) or any(
                not line.startswith(prefix) for line in lines):
            outcome.status, outcome.detail = "bad-message", err[-300:]
        elif OUT_OF_MEMORY in err:  # a clean line, but the blow-up the limit is there to find
            outcome.status, outcome.detail = "memory", err[-300:]
        else:
            after = _snapshot(outdir)
            if after != before:
                outcome.status, outcome.detail = "leftover", ", ".join(sorted(set(after) - set(before)))[:300]
    else:
        leftovers = [p for p in _snapshot(outdir) if p.endswith(".tmp") or "/." in "/" + p]
        if leftovers:
            outcome.status, outcome.detail = "leftover", ", ".join(leftovers)[:300]
        else:
            bad = _out_of_range(result)
            if bad:
                outcome.status, outcome.detail = "out-of-range", bad


OUT_OF_MEMORY = "gecformats: out of memory:"
"""The line the command line prints for a MemoryError (the address-space limit reached)."""

SCORE_LINE = re.compile(r"^\s*(Precision|Recall|F_?[0-9][0-9.]*)\s*:?\s+(\S+)\s*$", re.M)
SCORE_KEYS = {"precision", "recall", "f", "gleu"}


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not a JSON value")


def _out_of_range(result: Any) -> str:
    """A precision, recall, F or GLEU score outside [0, 1] (or not a number) that the
    command printed without a warning on standard error; '' when all are in range."""
    values: list[tuple[str, Any]] = [(m.group(1), m.group(2)) for m in SCORE_LINE.finditer(result.stdout)]
    text = result.stdout.strip()
    if text.startswith(("{", "[")):  # JSON, or JSON lines: strict (Python's reader takes NaN)
        try:
            stack = [json.loads(text, parse_constant=_not_json)]
        except ValueError:
            try:
                stack = [json.loads(line, parse_constant=_not_json)
                         for line in text.splitlines() if line.strip()]
            except ValueError as exc:
                return f"standard output is not JSON: {exc}"[:200]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                values += [(k, v) for k, v in item.items()
                           if k in SCORE_KEYS and not isinstance(v, (dict, list))]
                stack += [v for v in item.values() if isinstance(v, (dict, list))]
            elif isinstance(item, list):
                stack += item
    warned = "warning" in result.stderr
    for name, value in values:
        try:
            number = float(value)
        except (TypeError, ValueError):
            return f"{name} is {value!r}"
        if not 0 <= number <= 1 and not warned:
            return f"{name} {number} outside [0, 1] with no warning"
    return ""


# ------------------------------------------------------------------------- twins

LINE_FORMATS = {".m2": "m2", ".tsv": "tsv", ".train": "nlpcc"}
"""Output suffixes whose parts joined in order are the whole file (for the shards twin)."""

TWIN_RATE = 0.3
"""Share of the cases that also run one twin of their command (CRLF input, --shards or,
when :data:`SCHEDULER_ENV` names a scheduler, --engine dask) and compare."""

SCHEDULER_ENV = "GECFUZZ_SCHEDULER"
"""Environment variable: a Dask scheduler's address for the Dask twin."""


def _paths_out(text: str, *roots: Path) -> str:
    for root in roots:
        text = text.replace(str(root), "<dir>")
    return text


def _crlf_copy(given: Path, dest: Path) -> Path | None:
    """A copy of the input with every LF written as CRLF, or ``None`` when the input has
    a CR already or is compressed (no LF twin to compare with)."""
    files = [given] if given.is_file() else sorted(p for p in given.rglob("*") if p.is_file())
    if any(p.suffix == ".gz" or b"\r" in p.read_bytes() for p in files):
        return None
    if given.is_file():
        dest.mkdir()
        copy = dest / given.name
        copy.write_bytes(given.read_bytes().replace(b"\n", b"\r\n"))
        return copy
    shutil.copytree(given, dest / given.name)
    for p in (dest / given.name).rglob("*"):
        if p.is_file():
            p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n"))
    return dest / given.name


def _files(folder: Path) -> dict[str, Any]:
    """The output files of a run, a shards manifest without its input sizes and checksums
    (which differ between twins by design)."""
    files: dict[str, Any] = _snapshot(folder)
    for name, data in files.items():
        if name.endswith("manifest.json"):
            try:
                manifest = json.loads(data)
                manifest.pop("inputs", None)
                for part in manifest.get("parts", []):
                    part.pop("input", None)
                files[name] = manifest
            except ValueError:
                pass
    return files


def _twin(kind: str, command: list[str], args: list[str], given: Path, tmp: Path,
          result: Any, shards: int = 2) -> str:
    """Run one twin of a case and compare it with the case's own run; return what differs
    ('' when the twins agree or the twin does not apply)."""
    outdir, twin_out = tmp / "out", tmp / f"twin-{kind}"
    twin_out.mkdir()
    if kind == "crlf":
        copy = _crlf_copy(given, tmp / "crlf-in")
        if copy is None:
            return ""
        twin_args = [a.replace(str(given), str(copy)).replace(str(outdir), str(twin_out)) for a in args]
        twin = _invoke(command[0], twin_args)
        if twin.exception is not None and not isinstance(twin.exception, SystemExit):
            return f"the CRLF twin raised {type(twin.exception).__name__}: {twin.exception}"[:300]
        roots = (given, copy, outdir, twin_out)
        mine = (result.exit_code, _paths_out(result.stdout, *roots), _files(outdir),
                _paths_out(result.stderr, *roots))
        theirs = (twin.exit_code, _paths_out(twin.stdout, *roots), _files(twin_out),
                  _paths_out(twin.stderr, *roots))
        for name, a, b in zip(("exit code", "standard output", "output files", "standard error"),
                              mine, theirs):
            if a != b:
                if isinstance(a, dict):
                    a, b = sorted(a.items()), sorted(b.items())
                return f"CRLF input: {name} differs: {str(a)[:150]!r} vs {str(b)[:150]!r}"
        return ""
    if kind in ("dask", "jobs") and command[0] == "score":
        if "--engine" in args or "--jobs" in args:
            return ""
        extra = ["--jobs", "2"] if kind == "jobs" else \
            ["--engine", "dask", "--scheduler", os.environ[SCHEDULER_ENV]]
        twin = _invoke(command[0], args + extra)
        if (twin.exit_code, twin.stdout, twin.stderr) != (result.exit_code, result.stdout, result.stderr):
            return (f"score {' '.join(extra[:2])} differs: exit {twin.exit_code} vs {result.exit_code}, "
                    f"stderr {twin.stderr[-150:]!r} vs {result.stderr[-150:]!r}")
        return ""
    output = next((a for a in args if a.startswith(str(outdir))), None)
    suffix = Path(output).suffix if output else ""
    if command[0] != "convert" or "--shards" in args or output is None or suffix not in LINE_FORMATS:
        return ""
    folder = twin_out / "parts"
    twin_args = [str(folder) if a == output else a for a in args]
    if "--to" not in twin_args:
        twin_args += ["--to", LINE_FORMATS[suffix]]
    if kind == "shards":
        twin_args += ["--shards", str(shards)]
    else:
        twin_args[twin_args.index(str(folder))] = str(twin_out / f"result{suffix}")
        twin_args += ["--engine", "dask", "--scheduler", os.environ[SCHEDULER_ENV]]
    twin = _invoke(command[0], twin_args)
    if twin.exception is not None and not isinstance(twin.exception, SystemExit):
        return f"the {kind} twin raised {type(twin.exception).__name__}: {twin.exception}"[:300]
    if twin.exit_code != result.exit_code:
        return f"{kind} twin exit {twin.exit_code} vs {result.exit_code}: {twin.stderr[-200:]!r}"
    if kind == "dask" and _paths_out(twin.stderr, outdir, twin_out) != _paths_out(result.stderr, outdir, twin_out):
        return f"dask twin stderr {twin.stderr[-200:]!r} vs {result.stderr[-200:]!r}"
    if result.exit_code != 0:
        return ""
    plain = Path(output).read_bytes() if Path(output).exists() else b""
    if kind == "shards":
        parts = sorted(folder.glob("part-*"))
        joined = b"".join(p.read_bytes() for p in parts)
    else:
        joined = (twin_out / f"result{suffix}").read_bytes()
    if joined != plain:
        return f"{kind} twin output differs ({len(joined)} vs {len(plain)} bytes)"
    return ""


def run_case(target: Target, command: list[str], seed: int, twins: bool = True,
             mutation: str | None = None) -> Outcome:
    """Run one mutated case in-process and judge it; with ``twins``, a share of the cases
    (:data:`TWIN_RATE`) also runs one twin of the command and compares.  ``mutation``
    names the mutation (as :func:`cases` gives it; ``None``: one drawn from the seed)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="gecfuzz.") as tmp:
        work = Path(tmp) / "in"
        outdir = Path(tmp) / "out"
        work.mkdir()
        outdir.mkdir()
        given, mutation = _prepare(target, rng, work, mutation)
        args = _expand(command, given, outdir / "result")
        if command[0] == "score" and rng.random() < 0.1:
            args += rng.choice(BAD_OPTIONS)
        elif command[0] in OTHER_BAD_OPTIONS and rng.random() < 0.1:
            args[1:1] = rng.choice(OTHER_BAD_OPTIONS[command[0]])
        before = _snapshot(outdir)
        outcome = Outcome(target.name, args, mutation, seed, "ok")
        try:
            result = _invoke(command[0], args)
        except _Timeout:
            outcome.status, outcome.detail = "hang", f"over {TIME_LIMIT:g} CPU s or {WALL_LIMIT:g} s"
            return outcome
        _judge(outcome, command, result, before, outdir)
        if not twins or outcome.status not in ("ok", "bad-data", "usage") or rng.random() >= TWIN_RATE:
            return outcome
        kinds = ["crlf", "shards"] + (["dask"] if os.environ.get(SCHEDULER_ENV) else []) \
            + (["jobs"] if command[0] == "score" else [])
        kind = rng.choice(kinds)
        try:
            differs = _twin(kind, command, args, given, Path(tmp), result, rng.randint(1, 7))
        except _Timeout:
            differs = f"the {kind} twin took over {TIME_LIMIT:g} CPU s"
        if differs:
            outcome.status, outcome.detail = f"twin-{kind}", differs
        return outcome


def cases(count: int, seed: int, targets: list[Target] | None = None
          ) -> list[tuple[Target, list[str], int, str]]:
    """``count`` cases spread evenly over every target and command, with their seeds and
    mutations: case ``i`` takes pair ``i mod P`` (of the P target/command pairs) and mutation
    ``(i div P) mod M`` (of the M :data:`MUTATIONS`), so ``P * M`` cases (:func:`full_round`)
    run every command of every target under every mutation exactly once."""
    pairs = [(t, c) for t in (targets or TARGETS) for c in t.commands]
    names = list(MUTATIONS)
    rng = random.Random(seed)
    return [(*pairs[i % len(pairs)], rng.randrange(1 << 30), names[i // len(pairs) % len(names)])
            for i in range(count)]


def full_round(targets: list[Target] | None = None) -> int:
    """The number of cases that runs every target's every command under every mutation once."""
    return sum(len(t.commands) for t in (targets or TARGETS)) * len(MUTATIONS)


def run(count: int, seed: int, *, progress: bool = False, part: int = 0, parts: int = 1
        ) -> Summary:
    """Run ``count`` cases in this process (under the memory limit) and summarise them; with
    ``parts`` > 1, only every ``parts``-th of them from ``part`` on (one child's share)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    summary = Summary()
    started = time.monotonic()
    mine = cases(count, seed)[part::parts]
    for n, (target, command, case_seed, mutation) in enumerate(mine, 1):
        try:
            summary.add(run_case(target, command, case_seed, mutation=mutation))
        except MemoryError:
            summary.add(Outcome(target.name, command, "?", case_seed, "memory", None, "MemoryError"))
        if progress and n % 500 == 0:
            print(f"{n} cases, {time.monotonic() - started:.0f} s", file=sys.stderr)
    return summary


def run_in_children(count: int, seed: int, workers: int = 2, dask: bool = False) -> Summary:
    """Run the cases in ``workers`` child processes (each under the memory limit) and merge
    their summaries; a child killed outright counts as one ``crash``.  With ``dask``, a local
    Dask cluster (two worker processes) runs for the duration and the twins include
    ``--engine dask`` on it."""
    if dask:
        from distributed import LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0",
                          silence_logs=50) as cluster:
            return _children(count, seed, workers, {SCHEDULER_ENV: cluster.scheduler_address})
    return _children(count, seed, workers, {})


def _children(count: int, seed: int, workers: int, env: dict[str, str]) -> Summary:
    # one list of cases, dealt out in turn (neighbouring cases differ in target and cost)
    procs = [subprocess.Popen([sys.executable, __file__, "--cases", str(count), "--seed", str(seed),
                               "--part", f"{i}/{workers}"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
                              env={**os.environ, **env})
             for i in range(min(workers, count))]
    total = Summary()
    for proc in procs:
        out, _ = proc.communicate()
        try:
            data = json.loads(out)
        except ValueError:
            total.add(Outcome("?", [], "?", seed, "crash", proc.returncode, "child died"))
            continue
        total.cases += data["cases"]
        for status, n in data["counts"].items():
            total.counts[status] = total.counts.get(status, 0) + n
        total.failures += data["failures"]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--part", default="0/1",
                        help="I/N: run only every N-th case from case I on (a child's share)")
    args = parser.parse_args()
    part, parts = (int(x) for x in args.part.split("/"))
    sys.path.insert(0, str(ROOT / "tests"))
    os.environ.setdefault("COLUMNS", "200")
    summary = run(args.cases, args.seed, part=part, parts=parts)
    json.dump(summary.__dict__, sys.stdout)


if __name__ == "__main__":
    main()

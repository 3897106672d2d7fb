"""Benchmark: edit extraction from parallel text (corrected text → M2).

Run:  python tests/bench/bench_parallel.py [--shared ../shared] [--jobs 2]

Measures in one run, on one core unless said otherwise:

* English: the CoNLL-2014 test sources with both annotators' corrected texts
  (``conll14.ref{0,1}.alledits.txt``), 2 × 1,312 sentence pairs, tokenizer ``en`` (nltk)
  and ``space``; pairs per second of CPU time, tokenization included;
* Chinese: the NLPCC 2018 ``gold.01`` sources with every annotator's corrected text
  (2,261 pairs), tokenizer ``zh`` (jieba, fresh block cache) and ``char``;
* the same English run with ``--jobs N`` worker processes (wall-clock, identical output
  checked);
* memory: live traced Python memory while streaming 20 × the English data through extraction
  and the M2 writer, sampled at sentence 2,600 and at the end (flat means streaming).

ERRANT, the usual tool, extracts about 180 English pairs/s; the targets are ≥ 2,000
English and ≥ 5,000 Chinese pairs/s.  Each single-core figure is the best of three runs
(fresh caches each time), with the slowest beside it.  Everything is printed; nothing is
asserted.
"""

from __future__ import annotations

import argparse
import gc
import io
import itertools
import sys
import time
import tracemalloc
from pathlib import Path

from gecformats.convert import extract
from gecformats.formats import m2
from gecformats.model import Parallel
from gecformats.tokenize import ChineseTokenizer, Tokenizer, get_tokenizer

DEFAULT = Path(__file__).resolve().parents[3] / "shared"
ERRANT_PAIRS_PER_SECOND = 180
REPEAT = 3
"""Each single-core figure is the best of this many runs (other processes add noise)."""


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _pairs(items: list[Parallel]) -> int:
    return sum(len(p.present()) for p in items)


def _cpu(items: list[Parallel], tokenizer: Tokenizer, report: extract.ExtractionReport) -> float:
    start = time.process_time()
    for p in items:
        extract.extract(p, tokenizer, report=report)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    corpora = args.shared / "corpora"
    src = corpora / "conll14" / "gecmetrics" / "conll14st-test.tok.src"
    refs = [corpora / "gec-ranking" / "reference_outputs" / f"conll14.ref{k}.alledits.txt"
            for k in (0, 1)]
    gold = corpora / "nlpcc2018" / "gold.01.m2"
    if not (src.exists() and gold.exists()):
        print(f"no CoNLL-2014 / NLPCC 2018 data under {args.shared}; nothing to measure")
        sys.exit(0)

    english = [Parallel(s, (r0, r1)) for s, r0, r1 in
               zip(_lines(src), *(_lines(r) for r in refs))]
    chinese = [extract.to_parallel(s, joiner="") for s in m2.read(gold)]
    print(f"English: {len(english)} sentences, {_pairs(english)} pairs; "
          f"Chinese: {len(chinese)} sentences, {_pairs(chinese)} pairs")

    for name, items in (("en", english), ("space", english), ("zh", chinese), ("char", chinese)):
        runs = []
        for _ in range(REPEAT):
            tok = get_tokenizer(name)
            if name == "zh":  # a fresh block cache, the dictionary already loaded
                tok = ChineseTokenizer()
                tok.tokenize("预热")
                tok._cache.clear()
            report = extract.ExtractionReport()
            runs.append(_cpu(items, tok, report))
        seconds = min(runs)
        rate = _pairs(items) / seconds
        print(f"{name:6s} {seconds:6.2f} s CPU  {rate:8.0f} pairs/s  "
              f"({rate / ERRANT_PAIRS_PER_SECOND:.0f}× ERRANT's ~{ERRANT_PAIRS_PER_SECOND}/s)  "
              f"{report.edits} edits  (best of {REPEAT}; slowest {_pairs(items) / max(runs):.0f}/s)")

    one = list(extract.sentences(english, "en"))
    start = time.perf_counter()
    many = list(extract.sentences(english, "en", jobs=args.jobs, chunk=128))
    wall = time.perf_counter() - start
    print(f"en --jobs {args.jobs}: {wall:.2f} s wall, {_pairs(english) / wall:.0f} pairs/s, "
          f"output identical to --jobs 1: {many == one}")

    tracemalloc.start()
    samples = []
    stream = itertools.chain.from_iterable(itertools.repeat(english, 20))

    def tapped() -> object:
        for number, sentence in enumerate(extract.sentences(stream, "space"), 1):
            if number in (2600, 20 * len(english)):
                gc.collect()  # count live objects, not garbage waiting for the collector
                samples.append((number, tracemalloc.get_traced_memory()[0]))
            yield sentence

    m2.write(tapped(), _Null())  # type: ignore[arg-type]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print("memory while streaming (traced): " + ", ".join(
        f"sentence {n}: {size / 1e6:.1f} MB" for n, size in samples)
        + f"; peak {peak / 1e6:.1f} MB")


class _Null(io.TextIOBase):
    """A text sink that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)


if __name__ == "__main__":
    main()

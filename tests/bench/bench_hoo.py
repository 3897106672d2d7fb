"""Benchmark: HOO 2011 → token-offset M2 conversion throughput on all of HOO 2011.

Run:  python tests/bench/bench_hoo.py [--data ../shared/corpora/hoo/hoo2011] [--repeat 3]

Measures in one run, over the 37 documents of HOO 2011 (develop + test), the best of
``--repeat`` passes:

* read: characters/s and edits/s of ``hoo2011.read`` (text + gold XML → documents);
* tokenize: the sentence splitting and tokenization alone (``punkt`` + ``en``);
* convert: read + split + tokenize + map every edit + consistency check + write M2 (the
  whole ``gecformats convert DIR OUT.m2 --from hoo2011``), and the share of it spent in
  tokenizing.

Everything is printed as figures and ratios; nothing is asserted (this is not a test).
Without ../shared it says so and exits.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from gecformats.convert import convert
from gecformats.formats import hoo2011
from gecformats.tokenize import EnglishTokenizer, PunktSplitter, get_splitter, get_tokenizer

DEFAULT = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "hoo" / "hoo2011"


def best(repeat: int, job):  # type: ignore[no-untyped-def]
    """The shortest CPU time of ``repeat`` runs of ``job()``, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = job()
        times.append(time.process_time() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    parts = [args.data / part for part in ("develop", "test")]
    if not all(p.is_dir() for p in parts):
        print(f"no HOO 2011 data at {args.data}; nothing to measure")
        sys.exit(0)
    get_tokenizer("en"), get_splitter("punkt")  # load nltk outside the timings

    read_time, docs = best(args.repeat, lambda: [d for p in parts for d in hoo2011.read(p)])
    chars = sum(len(d.text) for d in docs)
    edits = sum(len(d.edits) for d in docs)

    def tokenize_all() -> int:
        en, punkt = EnglishTokenizer(), PunktSplitter()
        return sum(len(en.tokenize(s.text)) for d in docs for s in punkt.tokenize(d.text))

    tok_time, tokens = best(args.repeat, tokenize_all)

    with tempfile.TemporaryDirectory() as tmp:
        def convert_all() -> None:
            for p in parts:
                convert(p, os.path.join(tmp, f"{p.name}.m2"), from_format="hoo2011", to_format="m2")

        conv_time, _ = best(args.repeat, convert_all)

    print(f"HOO 2011: {len(docs)} documents, {chars:,} characters, {edits:,} edits, {tokens:,} tokens")
    print(f"read     : {chars / read_time:12,.0f} chars/s {edits / read_time:10,.0f} edits/s  ({read_time:.3f} s)")
    print(f"tokenize : {chars / tok_time:12,.0f} chars/s {'':>17}  ({tok_time:.3f} s)")
    print(f"convert  : {chars / conv_time:12,.0f} chars/s {edits / conv_time:10,.0f} edits/s  ({conv_time:.3f} s)")
    print(f"ratios   : read/convert {read_time / conv_time:.2f}, tokenize/convert {tok_time / conv_time:.2f}")


if __name__ == "__main__":
    main()

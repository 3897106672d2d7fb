"""Benchmark: generating every reference of the CoNLL-2014 test set (I-measure loci).

Run:  python tests/bench/bench_refs.py [--shared ../shared]

Reads ``official-2014.combined.m2.ieval.xml`` (the original converter's loci; falls back
to grouping ``official-2014.combined.m2`` with the ``imeasure`` rule) and measures in one
run:

* generate: CPU seconds to produce all distinct references (mixing) of the 1,311
  sentences whose count is known (all but sentence 333, 2^34 references), and
  references/s; the original generator needs 28 s for sentence 335 alone;
* count: CPU seconds for ``refs --count`` over all 1,312 sentences (exact counts, and
  the bound of sentence 333 at once);
* sentence 335 (262,144 references) on its own.

Everything is printed as figures; nothing is asserted (this is not a test).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gecformats.convert import refs

DEFAULT = Path(__file__).resolve().parents[3] / "shared"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    args = parser.parse_args()
    xml = args.shared / "corpora" / "imeasure" / "official-2014.combined.m2.ieval.xml"
    m2 = args.shared / "corpora" / "conll14" / "conll14st-test-data" / "noalt" / "official-2014.combined.m2"
    try:
        sentences = list(refs.read(xml, "ixml"))
        origin = xml.name
    except Exception:  # no ixml reader or no XML: group the M2 the original way
        if not m2.exists():
            print(f"no CoNLL-2014 data under {args.shared}; nothing to measure")
            sys.exit(0)
        sentences = list(refs.read(m2, "m2", "imeasure"))
        origin = f"{m2.name} (imeasure grouping)"
    enumerable = [s for s in sentences if refs.bound(s) <= refs.DEFAULT_MAX]

    start = time.process_time()
    generated = sum(1 for s in enumerable for _ in refs.references(s))
    generate = time.process_time() - start

    start = time.process_time()
    counts = [refs.count(s) for s in sentences]
    count_time = time.process_time() - start

    big = next(s for s in sentences if s.id == "335")
    start = time.process_time()
    n335 = sum(1 for _ in refs.references(big))
    one = time.process_time() - start

    print(f"input    : {origin}: {len(sentences)} sentences, {len(enumerable)} enumerable")
    print(f"generate : {generated:,} references in {generate:.2f} CPU-s ({generated / generate:,.0f}/s)")
    print(f"count    : {len(counts)} sentences in {count_time:.2f} CPU-s "
          f"({sum(c.count for c in counts if c.exact):,} exact, "
          f"{sum(1 for c in counts if not c.exact)} bound)")
    print(f"s. 335   : {n335:,} references in {one:.2f} CPU-s (the original: 28 s)")


if __name__ == "__main__":
    main()

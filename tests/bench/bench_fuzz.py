"""The long fuzz run of issue 13: ``python tests/bench/bench_fuzz.py [--cases 10000]``.

Runs the seeded mutation fuzzer of ``tests/fuzzing.py`` over every format and command in
two child processes (each under a 3 GB address-space limit, 20 s per case) and prints the
counts: cases, exit 0, exit 1 (bad data), exit 2 (usage), tracebacks, hangs, memory-outs,
bad exits, messages that are not one clean line, leftover outputs, scores out of range,
twins that disagree (CRLF input, --shards, --engine dask on a local cluster); then the first
failing cases with their reproducers.  Every reader, metric and engine has targets there.
Nothing is asserted: it reports.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fuzzing  # noqa: E402

STATUSES = ["ok", "bad-data", "usage", "traceback", "hang", "memory", "bad-exit",
            "bad-message", "leftover", "out-of-range", "twin-crlf", "twin-shards", "twin-dask", "twin-jobs",
            "crash"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true", help="no --engine dask twins")
    args = parser.parse_args()
    started = time.monotonic()
    summary = fuzzing.run_in_children(args.cases, args.seed, args.workers, dask=not args.no_dask)
    wall = time.monotonic() - started
    print(f"{summary.cases} cases in {wall:.0f} s ({summary.cases / wall:.0f}/s, "
          f"{args.workers} processes), {len(fuzzing.TARGETS)} fixtures, "
          f"{sum(len(t.commands) for t in fuzzing.TARGETS)} fixture/command pairs")
    for status in STATUSES:
        print(f"  {status:<12} {summary.counts.get(status, 0)}")
    for failure in summary.failures[:20]:
        print(json.dumps(failure, ensure_ascii=False)[:600])


if __name__ == "__main__":
    main()

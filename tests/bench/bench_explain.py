"""Speed of ``gecformats explain`` (issue 38) on CoNLL-2014.  A script: it prints the
measured times and fails (exit 1) when one system's single factors take over 60 s.

    python tests/bench/bench_explain.py [--systems AMU,CAMB] [--pairs]

For each system, the child process ``gecformats explain SYSTEM --gold COMBINED
--gold-variant WITHALT --claim 0.3510 --no-pairs`` (every factor of M2 alone: each
annotator, the gold with alternatives, three tokenizations, five ``max_unchanged_words``,
case and whitespace, β), its wall and CPU seconds (user + system: the machine may be
shared), and the runs of the pipeline it made against the settings it scored; with
``--pairs``, the same with pairs (within the default budget).  Start-up and reading the
gold are included.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
CONLL = SHARED / "corpora/conll14"
GOLD = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
WITHALT = CONLL / "conll14st-test-data/alt/official-2014.combined-withalt.m2"
BIN = Path(sys.executable).parent
LIMIT = 60.0
"""Seconds one system's single factors may take (the issue's bound)."""


def measure(system: str, pairs: bool) -> tuple[float, float, dict]:
    """Wall and CPU seconds of one ``explain`` child, and its JSON."""
    command = [str(BIN / "gecformats"), "explain", str(CONLL / "official_submissions" / system),
               "--gold", str(GOLD), "--gold-variant", str(WITHALT), "--claim", "0.3510",
               "--format", "json", "-q"] + ([] if pairs else ["--no-pairs"])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", default="AMU", help="comma-separated CoNLL-2014 systems")
    parser.add_argument("--pairs", action="store_true", help="also time singles and pairs")
    args = parser.parse_args()
    if not GOLD.exists():
        print(f"{GOLD} is not available", file=sys.stderr)
        return 2
    slow = False
    for system in args.systems.split(","):
        for pairs in (False, True) if args.pairs else (False,):
            wall, cpu, data = measure(system, pairs)
            what = "singles and pairs" if pairs else "single factors"
            print(f"{system} {what}: {wall:.1f} s wall, {cpu:.1f} s CPU, {data['settings']} "
                  f"settings from {data['runs']} runs")
            slow = slow or (not pairs and wall > LIMIT)
    if slow:
        print(f"over {LIMIT:g} s for one system's single factors", file=sys.stderr)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())

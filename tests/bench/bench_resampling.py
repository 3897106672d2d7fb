"""Cost of resampling M2 scores (the vectorised engine, gecformats.metrics.resampling).
A script, not a test: it prints times and ratios measured in one run, asserts nothing.

    python tests/bench/bench_resampling.py [--skip-commands]

* the 13 CoNLL-2014 systems in one ``gecformats score`` process (``python -m gecformats``
  with this interpreter), plain, with ``--ci --paired-bs`` (1,000 resamples) and with
  ``--paired-ar`` (10,000 trials): wall and CPU seconds of one run each, and the ratios to
  the plain call;
* in process, the engine alone: the 13 systems' totals on 1,000 bootstrap resamples, the 12
  pairs (baseline AMU) on 10,000 swap trials, and how many sentences keep a real choice.

One run each on the development machine (2 cores, other jobs running, so wall > CPU):

=========================  ================  ===============  ==================
                           plain             --ci --paired-bs  --paired-ar
=========================  ================  ===============  ==================
before (Python per row)    2.59 s / 2.30 s   5.27 / 5.14 s    221.6 / 111.7 s
this engine                3.68 s / 2.55 s   6.48 / 4.56 s    5.90 / 5.26 s
=========================  ================  ===============  ==================

(wall / CPU; "before" is the pure-Python greedy replay per resample and trial with
``random.choices``, 86 s on a quiet machine for ``--paired-ar``).  The engine alone: 0.81
CPU s for 13 systems x 1,000 resamples, 2.39 s for 12 pairs x 10,000 trials.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
CONLL = SHARED / "corpora/conll14"
COMBINED = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
SUBMISSIONS = CONLL / "official_submissions"


def run(command: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def commands() -> None:
    systems = [str(p) for p in sorted(SUBMISSIONS.iterdir())]
    base = [sys.executable, "-m", "gecformats", "score", *systems, "--gold", str(COMBINED)]
    run(base)  # warm-up: bytecode and file cache
    plain = run(base)
    print(f"{len(systems)} systems, one `score` process (wall s / CPU s):")
    print(f"  plain                       {plain[0]:6.2f} / {plain[1]:6.2f}")
    for label, extra in (("--ci --paired-bs (1,000)", ["--ci", "--paired-bs"]),
                         ("--paired-ar (10,000)", ["--paired-ar"])):
        wall, cpu = run(base + extra)
        print(f"  {label:27} {wall:6.2f} / {cpu:6.2f}   = {wall / plain[0]:.2f}x wall, "
              f"{cpu / plain[1]:.2f}x CPU of plain")


def engine() -> None:
    from gecformats.metrics import resampling as rs
    from gecformats.metrics.score import score_systems

    systems = [str(p) for p in sorted(SUBMISSIONS.iterdir())]
    counts = [r.counts for r in score_systems(systems, COMBINED, keep_counts=True)]
    n = len(counts[0])
    rule = rs.M2Rule(0.5)
    engines = [rs.Greedy(c, rule) for c in counts]
    print("choice sentences per system:", [e.choice_sentences for e in engines], f"of {n}")
    start = time.process_time()
    weights = rs.bootstrap_weights(n, 1000, 12345)
    for e in engines:
        rule.values(e.totals(weights))
    bootstrap = time.process_time() - start
    start = time.process_time()
    swapped = rs.swaps(n, 10000, 12345)
    for c in counts[1:]:
        xs, ys = rs.PairedGreedy(counts[0], c, rule).totals(swapped)
        rule.values(xs), rule.values(ys)
    pairs = time.process_time() - start
    print(f"engine: 13 systems x 1,000 resamples {bootstrap:.2f} CPU s; "
          f"12 pairs x 10,000 trials {pairs:.2f} CPU s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-commands", action="store_true", help="only the engine in process")
    args = parser.parse_args()
    if not COMBINED.exists():
        print("../shared is not available: nothing to measure")
        return
    if not args.skip_commands:
        commands()
    engine()


if __name__ == "__main__":
    main()

"""Cost of ``gecformats meta-eval`` on SEEDA: every metric that needs no neural model, every
configuration, system and sentence level, 1,000-resample intervals.
A script, not a test: it prints times and ratios measured in one run, asserts nothing.

    python tests/bench/bench_metaeval.py [--jobs 2] [--resamples 1000] [--full]

The systems are scored once (all metrics in one pipeline pass, ``--jobs`` processes), then
resampled (the same 1,000 resamples for every system and metric), then correlated (4
configurations x 4 human scores x 3 coefficients, with intervals, and the paired comparisons
of every two metrics), then scored per sentence and counted against both judgment files
under the three tie conventions.  The target of issue 28 is 2 minutes on the 2-core machine.

One run on the development machine (quiet, 2 cores; 11 metrics):

=====================================================  ========  =====
step                                                   wall s    CPU s
=====================================================  ========  =====
score once, no resamples (reference)                   19.3      20.7
score + 1000 resamples                                 31.8      34.9
system level: 176 correlations, 1760 comparisons       3.0       3.0
sentence level: 264 agreements (3 tie conventions)     9.2       9.2
meta-evaluation (all but the reference scoring)        44.0
=====================================================  ========  =====
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
METRICS = ["length", "m2", "sentm2", "errant", "senterrant", "cleme", "cleme2", "gotoscorer",
           "gleu", "imeasure", "green"]
TARGET = 120.0


def cpu() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--metric", action="append")
    args = parser.parse_args()
    from gecformats.metaeval import datasets
    from gecformats.metaeval.run import comparisons, score, sentence_level
    from gecformats.metaeval.system import correlate_system

    metrics = args.metric or METRICS
    dataset = datasets.load("seeda", str(SHARED / "corpora/seeda"), full=args.full)
    configs = list(dataset.configs)
    steps: list[tuple[str, float, float]] = []
    start, start_cpu = time.perf_counter(), cpu()

    def step(label: str, since: tuple[float, float]) -> tuple[float, float]:
        now = (time.perf_counter(), cpu())
        steps.append((label, now[0] - since[0], now[1] - since[1]))
        return now

    mark = (start, start_cpu)
    _, plain = score(dataset, metrics, resamples=0, jobs=args.jobs)
    mark = step("score once, no resamples (reference)", mark)
    n, scored = score(dataset, metrics, resamples=args.resamples, jobs=args.jobs)
    mark = step(f"score + {args.resamples} resamples", mark)
    rows = [correlate_system(one.name, c, h, datasets.kept(dataset, c), one.scores, v, one.boot)
            for one in scored for c in configs for h, v in dataset.humans.items()]
    pairs = comparisons(dataset, scored, configs)
    mark = step(f"system level: {len(rows)} correlations, {len(pairs)} comparisons", mark)
    sentence = [row for ties in ("loss", "skip", "neutral")
                for row in sentence_level(dataset, scored, configs, ties)]
    mark = step(f"sentence level: {len(sentence)} agreements (3 tie conventions)", mark)
    total = mark[0] - start
    print(f"SEEDA {'full' if args.full else 'subset'}: {n} sentences x 15 systems, "
          f"{len(metrics)} metrics ({', '.join(metrics)}), jobs {args.jobs}")
    print(f"{'step':<58}{'wall s':>8}{'CPU s':>8}")
    for label, wall, used in steps:
        print(f"{label:<58}{wall:>8.1f}{used:>8.1f}")
    work = total - steps[0][1]  # the meta-evaluation proper (the reference run excluded)
    print(f"{'meta-evaluation (all but the reference scoring)':<58}{work:>8.1f}")
    print(f"ratio to the target of {TARGET:.0f} s: {work / TARGET:.2f}; "
          f"to scoring alone: {work / steps[0][1]:.2f}")
    del plain


if __name__ == "__main__":
    main()

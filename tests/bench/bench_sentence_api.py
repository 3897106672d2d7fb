"""Benchmark of the sentence-level API (issue 37 item 3).  A script, not a test.

    python tests/bench/bench_sentence_api.py [--metric m2 --metric sentm2 ...] [--repeat 3]

Scores the 13 CoNLL-2014 outputs (12 systems and INPUT: 17,056 sentences) against the
combined gold with :func:`gecformats.sentence_scorer` (the gold prepared once, not timed
apart from its own line) and :meth:`~gecformats.metrics.sentences.SentenceScorer.score`
on each output given as a list of strings (a training loop's batch), and prints per metric:
sentences per CPU second (best of ``--repeat``), the microseconds per sentence spent in the metric's
per-sentence step (:meth:`Metric.sentences`: for M2 the lattice search, what a compiled core
replaces) and outside it (reading the strings, the checks, the corpus choice, the
records), and for M2 the ratio to the target of 20,000 sentences/s.  Needs ``../shared``;
exits quietly without it.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import gecformats

SHARED = Path(__file__).resolve().parents[3] / "shared"
CONLL = SHARED / "corpora/conll14"
GOLD = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")
TARGET = 20_000  # sentences/s, M2 with the compiled core (issue 37)


def lines(system: str, count: int) -> list[str]:
    """A system output's lines as ``score`` reads them (split on ``\\n`` only)."""
    text = (CONLL / "official_submissions" / system).read_bytes().decode("utf-8")
    return text.split("\n")[:count]


def measure(metric: str, repeat: int) -> None:
    start = time.process_time()
    scorer = gecformats.sentence_scorer(GOLD, metric)
    prepared = time.process_time() - start
    batches = [lines(s, len(scorer)) for s in SYSTEMS]
    total = sum(map(len, batches))
    inner = 0.0
    step = scorer._statistics

    def timed(*args: object) -> object:
        nonlocal inner
        begin = time.process_time()
        try:
            return step(*args)  # type: ignore[arg-type]
        finally:
            inner += time.process_time() - begin

    scorer._statistics = timed  # type: ignore[method-assign]
    best, best_inner = float("inf"), 0.0
    for _ in range(repeat):
        inner = 0.0
        begin = time.process_time()
        for batch in batches:
            scorer.score(batch)
        elapsed = time.process_time() - begin
        if elapsed < best:
            best, best_inner = elapsed, inner
    rate = total / best
    line = (f"{metric:<11} {rate:>9,.0f} sentences/s  ({total:,} in {best:.2f} s; per sentence "
            f"{1e6 * best_inner / total:.1f} us in the metric's step, "
            f"{1e6 * (best - best_inner) / total:.1f} us outside it; gold prepared in "
            f"{prepared:.2f} s)")
    if metric == "m2":
        line += f"  target {TARGET:,}/s: x{rate / TARGET:.2f}"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metric", action="append",
                        help="metrics (default: m2 sentm2 errant senterrant gleu green)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not GOLD.exists():
        print(f"{GOLD} is not there: nothing to measure")
        return
    warnings.simplefilter("ignore", gecformats.GecFormatWarning)
    for metric in args.metric or ["m2", "sentm2", "errant", "senterrant", "gleu", "green"]:
        measure(metric, args.repeat if metric in ("m2", "sentm2") else 1)


if __name__ == "__main__":
    main()

"""Benchmark of GLEU (issue 7 item 4).  A script, not a test.

    python tests/bench/bench_gleu.py [--repeat 3]

Scores the 13 CoNLL-2014 outputs (12 systems and INPUT) against the two annotators'
references in one call per version and prints process CPU seconds (best of ``--repeat``),
the ratio to the target (GLEU+ with 500 iterations in at most 10 s on one core) and to the
reference code's ≈ 40 s, then the same with references generated from the two M2 files.
Needs ``../shared``; exits quietly without it.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from gecformats.metrics.gleu import gleu_files

SHARED = Path(__file__).resolve().parents[3] / "shared"
CONLL = SHARED / "corpora/conll14"
RANKING = SHARED / "corpora/gec-ranking/reference_outputs"
SOURCE = CONLL / "gecmetrics/conll14st-test.tok.src"
REFS = [RANKING / f"conll14.ref{k}.alledits.txt" for k in (0, 1)]
GOLD = [CONLL / f"conll14st-test-data/noalt/official-2014.{k}.m2" for k in (0, 1)]
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")
REFERENCE_SECONDS = 40.0  # the figure for the original GLEU+ code
TARGET_SECONDS = 10.0


def best_of(repeat: int, **options: object) -> float:
    """The smallest process CPU time of ``repeat`` runs of :func:`gleu_files`."""
    hyps = [CONLL / "official_submissions" / s for s in SYSTEMS]
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        gleu_files(SOURCE if "gold" not in options else None, hyps, **options)  # type: ignore[arg-type]
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not SOURCE.exists():
        print("../shared is absent: nothing to measure")
        return
    print(f"13 CoNLL-2014 outputs x 1,312 sentences, 2 references; CPU s, best of {args.repeat}")
    print(f"{'version':<24}{'refs':<10}{'seconds':>8}{'x target':>10}{'x reference':>13}")
    for version in ("plus", "plus-2016", "2015", "2016"):
        for label, options in (("text", {"refs": REFS}), ("from M2", {"gold": GOLD})):
            seconds = best_of(args.repeat, version=version, **options)
            plus = version.startswith("plus")
            name = f"{version} (500 iter.)" if plus else version
            ratios = (f"{seconds / TARGET_SECONDS:>10.2f}{REFERENCE_SECONDS / seconds:>12.1f}x"
                      if plus else f"{'':>10}{'':>13}")
            print(f"{name:<24}{label:<10}{seconds:>8.2f}{ratios}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MB")
    print("x target: share of the 10 s budget used; x reference: speed-up over the ~40 s of "
          "the original GLEU+ code")


if __name__ == "__main__":
    main()

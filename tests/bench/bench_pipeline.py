"""Speed of the evaluation pipeline (issue 23).  A script, not a test: it prints CPU
seconds of child processes and the ratios the issue asks for, measured in one run.

    python tests/bench/bench_pipeline.py [--skip-imeasure]

* 13 CoNLL-2014 systems (hypotheses as ERRANT M2 files) x {m2, errant, gleu}: with
  ``--ci --paired-bs`` (1,000 resamples) against the same call without (target: <= 3x);
* ``--paired-ar`` (10,000 trials) on the 13 systems, M2 (target: <= 1/8 of 86 s);
* the I-measure on the 13 systems in one call (target: <= 1/2.5 of 155 CPU-s);
* M2 alone on the 13 systems (about 1.8 s before the pipeline).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
GOLD = SHARED / "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"
M2_HYPS = SHARED / "reference/errant/hyp"
TEXT_HYPS = SHARED / "corpora/conll14/official_submissions"
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC"]


def cpu(args: list[str]) -> float:
    """CPU seconds of ``gecformats ARGS`` (user + system, the child only)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "gecformats", *args, "-q"], check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-imeasure", action="store_true")
    options = parser.parse_args()
    m2_hyps = [str(M2_HYPS / f"{s}.m2") for s in SYSTEMS]
    text_hyps = [str(TEXT_HYPS / s) for s in SYSTEMS]
    three = ["--metric", "m2", "--metric", "errant", "--metric", "gleu"]
    plain = cpu(["score", *m2_hyps, "--gold", str(GOLD), *three])
    resampled = cpu(["score", *m2_hyps, "--gold", str(GOLD), *three, "--ci", "--paired-bs"])
    print(f"13 systems x m2, errant, gleu: {plain:.1f} CPU-s; with --ci --paired-bs "
          f"{resampled:.1f} CPU-s: {resampled / plain:.2f}x (target <= 3x)")
    m2_only = cpu(["score", *text_hyps, "--gold", str(GOLD)])
    print(f"M2 alone, 13 systems: {m2_only:.2f} CPU-s (about 1.8 before the pipeline)")
    ar = cpu(["score", *text_hyps, "--gold", str(GOLD), "--paired-ar"])
    print(f"--paired-ar, 13 systems: {ar:.1f} CPU-s: 1/{86 / ar:.1f} of 86 s (target 1/8)")
    if not options.skip_imeasure:
        imeasure = cpu(["score", *text_hyps, "--gold", str(GOLD), "--metric", "imeasure"])
        print(f"I-measure, 13 systems in one call: {imeasure:.1f} CPU-s: 1/{155 / imeasure:.1f} "
              "of 155 CPU-s (target 1/2.5)")


if __name__ == "__main__":
    main()

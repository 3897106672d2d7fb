"""Speed of the ``score`` process against the NUS m2scorer, and the cost of resampling
(issue 14, part 6).  A script, not a test: it prints ratios measured in one run.

    python tests/bench/bench_score_speed.py [--nus PATH/m2scorer.py] [--python2 PYTHON2]

* ``gecformats score`` and the ``maxmatch`` drop-in as whole processes (start-up, gold
  reading and scoring) on AMU, CAMB and CUUI, as CPU seconds of the child processes; the
  NUS m2scorer 3.2 run the same way when ``--nus`` (its ``scripts/m2scorer.py``) and a
  Python 2.7 are given, else its per-sentence CPU from
  ``reference/m2scorer/conll14_combined_persentence_cpu.tsv`` (which leaves out its
  start-up and gold reading, so the ratio is then pessimistic);
* the 13 CoNLL-2014 systems in one ``score`` call, without and with ``--ci --paired-bs``
  (1,000 resamples), and with ``--paired-ar`` (10,000 trials);
* the repetition case of spec §11.2 (sentence 333, its first 150 tokens plus 4 copies of a
  phrase) through ``score``.

Bytecode is written and one warm-up run is made first, so start-up is what an installed
package costs (this workspace sets ``PYTHONDONTWRITEBYTECODE``).  Run it with the Python of
an environment where gecformats is installed the way ``.ci/run`` and users install it
(``pip install .``): the commands are taken from that environment's ``bin`` folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
CONLL = SHARED / "corpora/conll14"
COMBINED = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
SUBMISSIONS = CONLL / "official_submissions"
BIN = Path(sys.executable).parent
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
PHRASE = "Hence , there is no legal obligation ."


def cpu(command: list[str]) -> float:
    """CPU seconds (user + system) of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(command: list[str], runs: int = 3) -> float:
    """The least CPU of ``runs`` runs (the noise of a shared machine only adds)."""
    return min(cpu(command) for _ in range(runs))


def reference_cpu() -> dict[str, float]:
    path = SHARED / "reference/m2scorer/conll14_combined_persentence_cpu.tsv"
    lines = path.read_text().splitlines()
    col = lines[0].split("\t").index("t_total")
    totals: dict[str, float] = {}
    for line in lines[1:]:
        fields = line.split("\t")
        totals[fields[0]] = totals.get(fields[0], 0.0) + float(fields[col])
    return totals


def python2() -> str | None:
    """A Python 2.7: a pyenv one first (pyenv's shims fail when 2.7 is not selected)."""
    pyenv = Path.home() / ".pyenv/versions"
    candidates = sorted(pyenv.glob("2.7*/bin/python")) if pyenv.exists() else []
    if candidates:
        return str(candidates[-1])
    return shutil.which("python2.7") or shutil.which("python2")


def processes(nus: str | None, py2: str | None) -> None:
    gecformats, maxmatch = str(BIN / "gecformats"), str(BIN / "maxmatch")
    cpu([gecformats, "score", str(SUBMISSIONS / "AMU"), "--gold", str(COMBINED)])  # warm-up
    reference = reference_cpu()
    use_nus = nus is not None and py2 is not None
    source = "NUS process" if use_nus else "NUS per-sentence sum (no start-up)"
    print(f"{'system':6} {'NUS s':>7} {'score s':>8} {'ratio':>7} {'maxmatch s':>11} {'ratio':>7}"
          f"   NUS = {source}")
    for system in ("AMU", "CAMB", "CUUI"):
        hyp = str(SUBMISSIONS / system)
        ref = cpu([py2, nus, hyp, str(COMBINED)]) if use_nus else reference[system]  # type: ignore[list-item]
        ours = best([gecformats, "score", hyp, "--gold", str(COMBINED)])
        drop_in = best([maxmatch, hyp, str(COMBINED)])
        print(f"{system:6} {ref:7.2f} {ours:8.2f} {'1/%.0f' % (ref / ours):>7} {drop_in:11.2f} "
              f"{'1/%.0f' % (ref / drop_in):>7}")


def resampling() -> None:
    gecformats = str(BIN / "gecformats")
    systems = [str(p) for p in sorted(SUBMISSIONS.iterdir())]
    base = [gecformats, "score", *systems, "--gold", str(COMBINED)]
    plain = best(base, 2)
    with_bs = best(base + ["--ci", "--paired-bs"], 2)
    with_ar = cpu(base + ["--paired-ar"])
    print(f"{len(systems)} systems in one call: {plain:.2f} CPU s; with --ci --paired-bs "
          f"(1,000 resamples) {with_bs:.2f} s = {with_bs / plain:.2f}x; with --paired-ar "
          f"(10,000 trials) {with_ar:.2f} s = {with_ar / plain:.1f}x")


def repetition() -> None:
    from gecformats.formats import m2

    source = next(s for i, s in enumerate(m2.read(COMBINED), 1) if i == 333).source
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.m2"
        hyp = Path(tmp) / "hyp.txt"
        with open(COMBINED, encoding="utf-8") as fh:
            blocks = fh.read().split("\n\n")
        gold.write_text(blocks[332].strip("\n") + "\n\n", encoding="utf-8")
        hyp.write_text(" ".join(list(source[:150]) + [PHRASE] * 4) + "\n", encoding="utf-8")
        seconds = best([str(BIN / "gecformats"), "score", str(hyp), "--gold", str(gold)])
    import time

    import maxmatch
    from gecformats.metrics.score import maxmatch_gold

    sentence = next(s for i, s in enumerate(m2.read(COMBINED), 1) if i == 333)
    hypothesis = list(source[:150]) + PHRASE.split() * 4
    start = time.process_time()
    maxmatch.score_corpus([(source, hypothesis, maxmatch_gold(sentence))])
    alone = time.process_time() - start
    print(f"repetition case (spec §11.2, k = 4, 182 hypothesis tokens): {alone:.2f} CPU s for "
          f"the sentence, {seconds:.2f} s for the whole score process")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nus", help="the NUS m2scorer's scripts/m2scorer.py")
    parser.add_argument("--python2", help="a Python 2.7 to run it (default: found on PATH or pyenv)")
    args = parser.parse_args()
    if not COMBINED.exists():
        print("../shared is not available: nothing to measure")
        return
    processes(args.nus, args.python2 or python2())
    resampling()
    repetition()


if __name__ == "__main__":
    main()

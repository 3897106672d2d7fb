"""Benchmark of the bundled MaxMatch scorer (issues 3 item 3, 37).  A script, not a test.

    python tests/bench/bench_score.py [--skip-k8]

Prints process CPU seconds (``time.process_time``) per CoNLL-2014 system and the ratio to the
reference's CPU time (``reference/m2scorer/conll14_combined_persentence_cpu.tsv``), the slowest
sentence, the NLPCC ``zlyang_ch6`` output against ``gold.01.m2`` and the repetition blow-up of
spec §11.2 for k = 2, 4, 8, each on the compiled core and on the pure-Python path side by side
(``maxmatch._set_backend``; without the core, the pure path only).  Gold reading is not
timed.  Parts needing ``../shared`` are skipped when it is absent.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

import maxmatch

SHARED = Path(__file__).resolve().parents[3] / "shared"
CONLL = SHARED / "corpora/conll14"
COMBINED = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")
PHRASE = "Hence , there is no legal obligation .".split()


def read_gold(path: Path) -> list:
    from gecformats.formats import m2
    from gecformats.metrics.score import maxmatch_gold

    return [(s.source, maxmatch_gold(s)) for s in m2.read(path)]


def read_hyp(path: Path) -> list[list[str]]:
    from gecformats.metrics.score import read_hypothesis

    return [maxmatch.split_hypothesis(line) for _, line in read_hypothesis(path)]


def backends() -> tuple[str, ...]:
    """The backends to measure: the compiled core (when built) and the pure path."""
    try:
        maxmatch._set_backend(maxmatch._set_backend("c"))
    except ImportError:
        return ("python",)
    return ("c", "python")


def on(backend: str, function, *args):  # noqa: ANN001, ANN201
    """``function(*args)`` with the scorer on ``backend``."""
    previous = maxmatch._set_backend(backend)
    try:
        return function(*args)
    finally:
        maxmatch._set_backend(previous)


def run(gold: list, hyps: list) -> tuple[float, float, int, maxmatch.CorpusResult]:
    scorer = maxmatch.CorpusScorer()
    worst, worst_idx = 0.0, 0
    start = time.process_time()
    for idx, ((src, g), h) in enumerate(zip(gold, hyps), 1):
        t = time.process_time()
        scorer.add(src, h, g)
        t = time.process_time() - t
        if t > worst:
            worst, worst_idx = t, idx
    return time.process_time() - start, worst, worst_idx, scorer.result()


def reference_cpu() -> dict[str, float]:
    path = SHARED / "reference/m2scorer/conll14_combined_persentence_cpu.tsv"
    totals: dict[str, float] = defaultdict(float)
    lines = path.read_text().splitlines()
    col = lines[0].split("\t").index("t_total")
    for line in lines[1:]:
        fields = line.split("\t")
        totals[fields[0]] += float(fields[col])
    return totals


def conll() -> None:
    if not COMBINED.exists():
        print("CoNLL-2014: ../shared not available, skipped")
        return
    gold = read_gold(COMBINED)
    ref = reference_cpu()
    names = backends()
    totals = dict.fromkeys(names, 0.0)
    total_ref = 0.0
    worst_all = (0.0, "", 0)
    print(f"{'system':8} {'ref s':>7} " + " ".join(f"{n + ' s':>8} {'ratio':>6}" for n in names)
          + f"  {'slowest sentence (' + names[0] + ')':>24}  F0.5")
    for system in SYSTEMS:
        hyps = read_hyp(CONLL / "official_submissions" / system)
        runs = {n: on(n, run, gold, hyps) for n in names}
        cpu, worst, idx, res = runs[names[0]]
        assert all(r[3] == res for r in runs.values())
        total_ref += ref[system]
        for n in names:
            totals[n] += runs[n][0]
        worst_all = max(worst_all, (worst, system, idx))
        print(f"{system:8} {ref[system]:7.2f} "
              + " ".join(f"{runs[n][0]:8.3f} {ref[system] / runs[n][0]:5.0f}x" for n in names)
              + f"  {worst:11.4f} s (#{idx:4})  {res.f:.4f}")
    print(f"{'all 13':8} {total_ref:7.2f} "
          + " ".join(f"{totals[n]:8.3f} {total_ref / totals[n]:5.0f}x" for n in names)
          + f"  slowest overall: {worst_all[1]} #{worst_all[2]} {worst_all[0]:.4f} s")
    if len(names) == 2:
        print(f"pure path / compiled core, all 13: {totals['python'] / totals['c']:.1f}x")


def nlpcc() -> None:
    gold_path = SHARED / "corpora/nlpcc2018/gold.01.m2"
    outputs = sorted((SHARED / "corpora/nlpcc2018/system-outputs").glob("zlyang_ch6_*"))
    if not gold_path.exists() or not outputs:
        print("NLPCC 2018: ../shared not available, skipped")
        return
    gold = read_gold(gold_path)
    for path in outputs:
        hyps = read_hyp(path)
        runs = {n: on(n, run, gold, hyps) for n in backends()}
        cpu, worst, idx, res = next(iter(runs.values()))
        times = ", ".join(f"{n} {r[0]:.3f} CPU s (slowest #{r[2]} {r[1]:.3f} s)"
                          for n, r in runs.items())
        print(f"NLPCC {path.name[:40]}: {times}{_speedup(runs)} P {res.precision:.4f} "
              f"R {res.recall:.4f} F0.5 {res.f:.4f}")


def _speedup(runs: dict) -> str:
    return (f", pure/compiled {runs['python'][0] / runs['c'][0]:.0f}x;"
            if "c" in runs and "python" in runs else ";")


def blowup(ks: list[int]) -> None:
    if not COMBINED.exists():
        print("repetition blow-up: ../shared not available, skipped")
        return
    src, gold = read_gold(COMBINED)[332]
    for k in ks:
        hyp = list(src[:150]) + PHRASE * k
        runs = {}
        outcome = ""
        for name in backends():
            start = time.process_time()
            try:
                res = on(name, maxmatch.score_corpus, [(src, hyp, gold)])
                outcome = f"P {res.precision:.4f} R {res.recall:.4f} F0.5 {res.f:.4f}"
            except maxmatch.LatticeTooLarge:  # k = 8 passes the default bound
                outcome = f"refused (over {maxmatch.DEFAULT_MAX_EDGES:,} edges)"
            runs[name] = (time.process_time() - start, None)
        times = ", ".join(f"{n} {r[0]:.3f} CPU s" for n, r in runs.items())
        print(f"blow-up k={k}: {len(hyp)} hyp tokens, {times}{_speedup(runs)} {outcome}")


def main() -> None:
    conll()
    nlpcc()
    blowup([2, 4] if "--skip-k8" in sys.argv else [2, 4, 8])


if __name__ == "__main__":
    main()

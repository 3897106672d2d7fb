"""Benchmark of the bundled MaxMatch scorer (issue 3 item 3).  A script, not a test.

    python tests/bench/bench_score.py [--skip-k8]

Prints process CPU seconds (``time.process_time``) per CoNLL-2014 system and the ratio to the
reference's CPU time (``reference/m2scorer/conll14_combined_persentence_cpu.tsv``), the slowest
sentence, the NLPCC ``zlyang_ch6`` output against ``gold.01.m2`` and the repetition blow-up of
spec §11.2 for k = 2, 4, 8.  Gold reading is not timed.  Parts needing ``../shared`` are
skipped when it is absent.
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
    total = total_ref = 0.0
    worst_all = (0.0, "", 0)
    print(f"{'system':8} {'CPU s':>7} {'ref s':>8} {'ratio':>6}  {'slowest sentence':>18}  F0.5")
    for system in SYSTEMS:
        hyps = read_hyp(CONLL / "official_submissions" / system)
        cpu, worst, idx, res = run(gold, hyps)
        total += cpu
        total_ref += ref[system]
        worst_all = max(worst_all, (worst, system, idx))
        print(f"{system:8} {cpu:7.2f} {ref[system]:8.2f} {ref[system] / cpu:5.0f}x  "
              f"{worst:8.3f} s (#{idx:4})  {res.f:.4f}")
    print(f"{'all 13':8} {total:7.2f} {total_ref:8.2f} {total_ref / total:5.0f}x  "
          f"slowest sentence overall: {worst_all[1]} #{worst_all[2]} {worst_all[0]:.3f} s")
    print(f"NTHU vs the reference's AMU ({ref['AMU']:.2f} s): see the NTHU row")


def nlpcc() -> None:
    gold_path = SHARED / "corpora/nlpcc2018/gold.01.m2"
    outputs = sorted((SHARED / "corpora/nlpcc2018/system-outputs").glob("zlyang_ch6_*"))
    if not gold_path.exists() or not outputs:
        print("NLPCC 2018: ../shared not available, skipped")
        return
    gold = read_gold(gold_path)
    for path in outputs:
        cpu, worst, idx, res = run(gold, read_hyp(path))
        print(f"NLPCC {path.name[:40]}: {cpu:.2f} CPU s (slowest #{idx} {worst:.3f} s) "
              f"P {res.precision:.4f} R {res.recall:.4f} F0.5 {res.f:.4f}")


def blowup(ks: list[int]) -> None:
    if not COMBINED.exists():
        print("repetition blow-up: ../shared not available, skipped")
        return
    src, gold = read_gold(COMBINED)[332]
    for k in ks:
        hyp = list(src[:150]) + PHRASE * k
        start = time.process_time()
        res = maxmatch.score_corpus([(src, hyp, gold)])
        cpu = time.process_time() - start
        print(f"blow-up k={k}: {len(hyp)} hyp tokens, {cpu:.2f} CPU s, "
              f"P {res.precision:.4f} R {res.recall:.4f} F0.5 {res.f:.4f}")


def main() -> None:
    conll()
    nlpcc()
    blowup([2, 4] if "--skip-k8" in sys.argv else [2, 4, 8])


if __name__ == "__main__":
    main()

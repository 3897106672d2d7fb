"""Human rankings from judgments against the published scores (issue 28).  A script, not a
test: it prints, for GJG15 and SEEDA-E/-S, how far :func:`expected_wins` and
:func:`trueskill_scores` are from the published EW / TS values, and the time TrueSkill takes.

    python tests/bench/bench_metaeval_human.py [--shared ../shared]

TrueSkill is run twice: with gec-metrics' fixed parameters (beta 0.25) and with the beta that
``wmt-trueskill`` ``TS.py -n 2 -d 0`` sets (``sigma * (N + 1) / 40`` for N comparisons), the
scale of the published scores; the games are every comparison once, in file order (the
published values are means of 1,000 runs with random games, see gecformats.metaeval.human).
Measured on this machine (2026-11): EW, largest |difference| GJG15 0.00050 (13/13 equal at 3
decimals), SEEDA-E 0.00080 (10/15), SEEDA-S 0.00082 (13/15); TS with the wmt beta GJG15
0.0112, SEEDA-E 0.037, SEEDA-S 0.064, Spearman 1.0 with the published TS in all three; with
gec-metrics' beta 0.25 the scale differs (largest differences 0.49, 0.60, 0.79), Spearman 1.0
(r 0.9996, 0.9997, 0.9995).  TrueSkill through the package's factor graph played 1,200-3,000 games/s (SEEDA-E 3.3 s,
GJG15 11.8 s); gecformats' own game (same floats) 6-7 times faster (0.56 s, 1.66 s).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from gecformats.metaeval.human import comparisons, expected_wins, trueskill_scores
from gecformats.metaeval.judgments import read_judgments

DEFAULT = Path(__file__).resolve().parents[3] / "shared"
SEEDA = ("BART BERT-fuse GECToR-BERT GECToR-ens GPT-3.5 INPUT LM-Critic PIE REF-F REF-M "
         "Riken-Tohoku T5 TemplateGEC TransGEC UEDIN-MS").split()


def ranks(values: list[float]) -> list[float]:
    """Average ranks (for a Spearman coefficient without scipy)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        end = k
        while end + 1 < len(order) and values[order[end + 1]] == values[order[k]]:
            end += 1
        for m in range(k, end + 1):
            out[order[m]] = (k + end) / 2
        k = end + 1
    return out


def pearson(a: list[float], b: list[float]) -> float:
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    return cov / (sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b)) ** 0.5


def report(name: str, ours: dict[str, float], systems: list[str], published: list[float]) -> None:
    values = [ours[s] for s in systems]
    diffs = [abs(v - p) for v, p in zip(values, published)]
    equal = sum(f"{v:.3f}" == f"{p:.3f}" for v, p in zip(values, published))
    print(f"  {name:<22} max|diff| {max(diffs):.5f}  equal at 3 decimals {equal}/{len(systems)}"
          f"  r {pearson(values, published):.4f}"
          f"  rho {pearson(ranks(values), ranks(published)):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    corpora = parser.parse_args().shared / "corpora"
    with (corpora / "gjg15/table3_human_rankings.tsv").open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    gjg = [r["system"] for r in rows]
    cases = [("GJG15", corpora / "gjg15/judgments.xml", gjg, [float(r["EW_score"]) for r in rows],
              [float(r["TS_score"]) for r in rows])]
    for kind in ("edit", "sent"):
        human = corpora / "seeda/scores/human"
        path = corpora / f"seeda/data/judgments_{kind}.xml"
        cases.append((f"SEEDA-{kind[0].upper()}", path, SEEDA,
                      [float(x) for x in (human / f"EW_{kind}.txt").read_text().split()],
                      [float(x) for x in (human / f"TS_{kind}.txt").read_text().split()]))
    for name, path, systems, ew, ts in cases:
        items = list(read_judgments(path))
        games = sum(1 for _ in comparisons(items, systems))
        print(f"{name}: {len(items)} items, {games} comparisons")
        report("EW", expected_wins(items, systems), systems, ew)
        start = time.perf_counter()
        report("TS (gec-metrics beta)", trueskill_scores(items, systems), systems, ts)
        seconds = time.perf_counter() - start
        report("TS (wmt beta)", trueskill_scores(items, systems, beta=0.5 * (games + 1) / 40),
               systems, ts)
        print(f"  TrueSkill: {seconds:.1f} s, {games / seconds:.0f} games/s")


if __name__ == "__main__":
    main()

"""Benchmark: how close the ``lcs`` and ``native`` extractors come to ERRANT's edits.

Run:  python tests/bench/bench_extractors.py [--shared ../shared] [--markdown]

Against ERRANT's own M2 files of CoNLL-2014 (``reference/errant``: ``errant_parallel``
3.0.2 with spaCy 3.8, the text already tokenized), in one run:

* for the source → reference 0 and reference 1 pairs, and the source → AMU, CAMB and CUUI
  output pairs (lines stripped, as ERRANT strips them; tokens split on spaces): per
  extractor, the share of sentences whose edit set equals ERRANT's and the share of
  ERRANT's edits it produces too, edits compared as ``(start, end, correction)`` (types
  and noops left out);
* ERRANT F0.5 (span-based correction) of the 13 systems' text outputs against ERRANT's
  reference M2 (``ref.m2``), their edits extracted by each extractor (the library's
  :func:`gecformats.metrics.pipeline.evaluate` with ``ErrantMetric(extractor=…)``), beside
  ERRANT's own numbers (``errant_compare_default.tsv``), and Spearman's ρ of each ranking
  with ERRANT's;
* pairs per second of CPU time of each extractor over the 2 × 1,312 reference pairs and
  the 13 × 1,312 system pairs (:func:`gecformats.convert.extract.align_edits`; best of 3).

Everything is printed (``--markdown``: the tables as Markdown too); nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gecformats.convert.extract import align_edits
from gecformats.formats import m2
from gecformats.metrics.correlate import correlate
from gecformats.metrics.errant import ErrantMetric
from gecformats.metrics.pipeline import evaluate

DEFAULT = Path(__file__).resolve().parents[2].parent / "shared"
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")
PAIRS = ("ref0", "ref1", "AMU", "CAMB", "CUUI")
EXTRACTORS = ("lcs", "native")
REPEAT = 3

Edits = frozenset[tuple[int, int, str]]


def _lines(path: Path) -> list[str]:
    """The lines of a file, stripped (as ERRANT strips them)."""
    return [line.strip() for line in path.read_bytes().decode("utf-8").splitlines()]


def _errant_sets(path: Path, annotator: int) -> list[Edits]:
    """Per sentence, ``annotator``'s edits in an ERRANT M2 file (noops left out)."""
    out = []
    for sentence in m2.read(path):
        edits = sentence.annotators.get(annotator, ())
        out.append(frozenset((e.start, e.end, " ".join(e.corrections[0])) for e in edits
                             if e.start >= 0))
    return out


def _extracted(source: list[str], target: list[str], extractor: str) -> Edits:
    if source == target:
        return frozenset()
    return frozenset((e.start, e.end, " ".join(e.corrections[0]))
                     for e in align_edits(source, target, extractor=extractor))


def load(shared: Path) -> tuple[list[list[str]], dict[str, tuple[list[list[str]], list[Edits]]]]:
    """The source tokens and, per pair name (``ref0``, ``ref1``, each system), the corrected
    tokens and ERRANT's edit sets."""
    conll = shared / "corpora/conll14"
    errant = shared / "reference/errant"
    source = [line.split() for line in _lines(conll / "gecmetrics/conll14st-test.tok.src")]
    pairs = {}
    for k in (0, 1):
        text = _lines(conll / f"gecmetrics/refs/conll14st-test.tok.trg{k}")
        pairs[f"ref{k}"] = ([t.split() for t in text], _errant_sets(errant / "ref.m2", k))
    for system in SYSTEMS:
        text = _lines(conll / "official_submissions" / system)
        pairs[system] = ([t.split() for t in text], _errant_sets(errant / "hyp" / f"{system}.m2", 0))
    return source, pairs


def agreement(source: list[list[str]], target: list[list[str]], gold: list[Edits],
              extractor: str) -> tuple[float, float]:
    """The share of sentences whose extracted edit set is ERRANT's, and the share of
    ERRANT's edits extracted."""
    same = found = total = 0
    for s, t, g in zip(source, target, gold):
        mine = _extracted(s, t, extractor)
        same += mine == g
        found += len(mine & g)
        total += len(g)
    return same / len(gold), found / total if total else 1.0


def speed(source: list[list[str]], targets: list[list[list[str]]], extractor: str) -> float:
    """Pairs per second of CPU time (best of :data:`REPEAT`), each source with all its
    targets in turn (as extraction meets them)."""
    pairs = [(s, t) for i, s in enumerate(source) for t in (ts[i] for ts in targets)]
    best = float("inf")
    for _ in range(REPEAT):
        start = time.process_time()
        for s, t in pairs:
            align_edits(s, t, extractor=extractor)
        best = min(best, time.process_time() - start)
    return len(pairs) / best


def f05(shared: Path) -> dict[str, dict[str, float]]:
    """ERRANT F0.5 per extractor (and ``errant``: ERRANT's own) per system."""
    conll = shared / "corpora/conll14/official_submissions"
    errant = shared / "reference/errant"
    out: dict[str, dict[str, float]] = {"errant": {}}
    for line in (errant / "errant_compare_default.tsv").read_text().splitlines()[1:]:
        fields = line.split("\t")
        out["errant"][fields[0]] = float(fields[-1])
    metrics = [ErrantMetric(extractor=x) for x in EXTRACTORS]
    result = evaluate([str(conll / s) for s in SYSTEMS], str(errant / "ref.m2"), metrics)
    for extractor, totals in zip(EXTRACTORS, result.totals):
        out[extractor] = {s: t.values[2] for s, t in zip(SYSTEMS, totals)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    parser.add_argument("--markdown", action="store_true", help="the tables as Markdown too")
    args = parser.parse_args()
    if not (args.shared / "reference/errant/ref.m2").exists():
        sys.exit(f"no ERRANT reference files under {args.shared}/reference/errant")
    source, pairs = load(args.shared)
    rows = []
    print("pair   " + "".join(f"  {x + ' same sets':>16}  {x + ' edits':>12}" for x in EXTRACTORS))
    for name in PAIRS:
        target, gold = pairs[name]
        values = [v for x in EXTRACTORS for v in agreement(source, target, gold, x)]
        rows.append((name, values))
        print(f"{name:<7}" + "".join(f"  {values[2 * i]:>16.1%}  {values[2 * i + 1]:>12.1%}"
                                     for i in range(len(EXTRACTORS))))
    scores = f05(args.shared)
    print(f"\n{'system':<7}  {'ERRANT':>7}" + "".join(f"  {x:>7}" for x in EXTRACTORS))
    for system in SYSTEMS:
        print(f"{system:<7}  {scores['errant'][system]:>7.4f}"
              + "".join(f"  {scores[x][system]:>7.4f}" for x in EXTRACTORS))
    rho = {x: correlate(scores[x], scores["errant"]).spearman for x in EXTRACTORS}
    print(f"{'ρ':<7}  {1:>7.3f}" + "".join(f"  {rho[x]:>7.3f}" for x in EXTRACTORS))
    refs = [pairs["ref0"][0], pairs["ref1"][0]]
    systems = [pairs[s][0] for s in SYSTEMS]
    rates = {x: (speed(source, refs, x), speed(source, systems, x)) for x in EXTRACTORS}
    print("\npairs/s (CPU, one core): " + ", ".join(
        f"{x} {r:,.0f} (references), {s:,.0f} (systems)" for x, (r, s) in rates.items()))
    if args.markdown:
        print("\n| pair | " + " | ".join(f"{x}: identical edit sets | {x}: ERRANT edits produced"
                                          for x in EXTRACTORS) + " |")
        print("|---" * (1 + 2 * len(EXTRACTORS)) + "|")
        for name, values in rows:
            print(f"| {name} | " + " | ".join(f"{v:.1%}" for v in values) + " |")
        print("\n| system | ERRANT | " + " | ".join(EXTRACTORS) + " |")
        print("|---" * (2 + len(EXTRACTORS)) + "|")
        for system in SYSTEMS:
            print(f"| {system} | {scores['errant'][system]:.4f} | "
                  + " | ".join(f"{scores[x][system]:.4f}" for x in EXTRACTORS) + " |")
        print("| Spearman's ρ with ERRANT | 1 | " + " | ".join(f"{rho[x]:.3f}" for x in EXTRACTORS)
              + " |")


if __name__ == "__main__":
    main()

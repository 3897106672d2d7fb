"""Speed and agreement of SentM2, SentERRANT and GREEN on the 13 CoNLL-2014 systems against
their originals, side by side in one run (issue 27).  A script, not a test: it prints CPU
seconds, ratios and whether the numbers agree; it asserts nothing about time.

    python tests/bench/bench_ptm2_green.py --ptm2 PT_M2_CHECKOUT --gecm GEC_METRICS_CHECKOUT \
        [--systems N] [--senterrant-systems N] [--sentm2-systems N]

* SentM2: pygongnlp/PT-M2 @67ef575 (``--ptm2``), ``PTM2(args).compute_sentm2`` with
  ``scorer='self'``, β 0.5, on ``official_submissions/<SYS>`` against the combined gold M2
  (references re-derived from it, ``reference/metrics/inputs/ptm2_refs_from_gold_m2``),
  against ``gecformats score SYS… --gold official-2014.combined.m2 --metric sentm2``;
* SentERRANT: ``compute_senterrant`` on ``reference/errant/hyp/<SYS>.m2`` (which PT-M2 reads
  as ``<hyp>.m2``) against ``reference/errant/ref.m2``, references ``trg0/trg1``, against
  ``gecformats score <SYS>.m2… --gold ref.m2 --metric senterrant``;
* GREEN: gotutiyan/gec-metrics @320c830 (``--gecm``), ``GREEN(GREEN.Config()).score_corpus``
  (word, n 4, β 2) on the raw text, inputs read with its own ``read_lines``, one scorer for
  all systems (its n-gram cache then serves every system), against ``gecformats score SYS…
  --source tok.src --ref trg0 --ref trg1 --metric green``.

Each side runs in its own child process, all systems in one call; CPU time is the child's
(user + system, imports included), not wall time: the machine may be shared.  The originals
run as ``../shared/reference/metrics/drivers/run_ptm2.py`` and ``run_green.py`` run them:
PT-M2 in its checkout with empty stand-ins for ``bert_score``, ``bart_score`` and (for
``utils.py``'s unused import) ``torch``; gec-metrics submodule by submodule (its package
``__init__`` imports every metric), ``gecommon`` stood in for when absent (GREEN never
calls it).  Agreement: each system's score from the original and from ``gecformats``,
compared by ``repr``.  Needs ``../shared``; exits quietly without it.

One run on the development machine (2 cores shared with other jobs, load about 4), all 13
systems on each side, 7 min 46 s wall (``--sentm2-systems 3`` measures AMU, CAMB, CUUI only):

* SentM2: PT-M2 262 CPU-s (20 s per system on average, the slowest system
  alone 167 s), ours 2.9 CPU-s:
  90x less CPU;
* SentERRANT: PT-M2 1.2 CPU-s (0.09 s per system: it reads ERRANT's M2, no spaCy), ours
  1.1 CPU-s: 1.1x (our fixed cost per call, about 0.5 CPU-s, is half of ours);
* GREEN: gec-metrics 10.0 CPU-s (0.77 s per system), ours 5.9 CPU-s: 1.7x;
* all 39 scores equal the originals' to the last digit (``repr``).

On one system alone the originals that need under a second per system win by our start-up
(SentERRANT 0.3 against 0.5 CPU-s, GREEN 1.0 against 1.1): the fixed cost of a ``score``
call (start-up, reading and preparing the gold) is paid once, and pays back from the second
system on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cleme import child_cpu  # noqa: E402  (the same child CPU measure)

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CONLL = SHARED / "corpora/conll14"
SUBMISSIONS = CONLL / "official_submissions"
GOLD_M2 = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
SOURCE = CONLL / "gecmetrics/conll14st-test.tok.src"
TRG = [CONLL / f"gecmetrics/refs/conll14st-test.tok.trg{k}" for k in (0, 1)]
ERRANT = SHARED / "reference/errant"
PTM2_REFS = SHARED / "reference/metrics/inputs/ptm2_refs_from_gold_m2"
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC"]

PTM2 = r'''
import argparse, os, sys, time, types
for name, cls in (("bart_score", "BARTScorer"), ("bert_score", "BERTScorer")):
    stand = types.ModuleType(name)  # neural scorers: never built with scorer='self'
    setattr(stand, cls, None)
    sys.modules[name] = stand
sys.path.insert(0, os.getcwd())
import metrics
sys.modules["torch"] = types.ModuleType("torch")  # utils.py imports it, load_* never use it
from utils import load_dir, load_file
del sys.modules["torch"]
base, src, refdir, gold, *hyps = sys.argv[1:]
args = argparse.Namespace(beta=0.5, device="cpu", model_type="bert-base-uncased",
                          scorer="self", base=base)
metric = metrics.PTM2(args, corpus=None)
sources, references = load_file(src), load_dir(refdir)
compute = metric.compute_sentm2 if base == "sentm2" else metric.compute_senterrant
for hyp in hyps:
    start = time.process_time()
    score = compute(m2_file=gold, hyp_file=hyp, sources=sources, references=references)
    print(os.path.basename(hyp), repr(float(score)), time.process_time() - start, flush=True)
'''

GREEN = r'''
import importlib, os, sys, time, types
src = sys.argv[1]
for pkg in ("gec_metrics", "gec_metrics.metrics", "gec_metrics.cli"):
    module = types.ModuleType(pkg)  # without the packages' __init__ (every metric, torch)
    module.__path__ = [os.path.join(src, *pkg.split("."))]
    sys.modules[pkg] = module
try:
    import gecommon
except ImportError:
    sys.modules["gecommon"] = types.SimpleNamespace(apply_edits=None)  # GREEN never calls it
base = importlib.import_module("gec_metrics.metrics.base")
green = importlib.import_module("gec_metrics.metrics.green")
for name in ("MetricBaseForReferenceBased", "MetricBaseForReferenceFree",
             "MetricBaseForSourceFree"):
    setattr(sys.modules["gec_metrics.metrics"], name, getattr(base, name))
read_lines = importlib.import_module("gec_metrics.cli.evaluate").read_lines
source, ref0, ref1, *hyps = sys.argv[2:]
srcs, refs = read_lines(source), [read_lines(ref0), read_lines(ref1)]
scorer = green.GREEN(green.GREEN.Config())
for hyp in hyps:
    start = time.process_time()
    score = scorer.score_corpus(srcs, read_lines(hyp), refs)
    print(os.path.basename(hyp), repr(float(score)), time.process_time() - start, flush=True)
'''


def ours(args: list[str], metric: str) -> tuple[float, dict[str, str]]:
    """``gecformats score`` in a child: its CPU seconds and each system's F (``repr``)."""
    cpu, out = child_cpu([sys.executable, "-m", "gecformats", "score", *args, "--metric",
                          metric, "--format", "json", "-q"], cwd=ROOT)
    return cpu, {name: repr(v[metric]["f"]) for name, v in json.loads(out).items()}


def original(script: str, args: list[str], cwd: Path
             ) -> tuple[float, dict[str, str], tuple[str, float]]:
    """An original in a child: its CPU seconds, each system's score (``repr``) and the
    slowest system with its CPU seconds (measured inside the child)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.py"
        path.write_text(script, encoding="utf-8")
        cpu, out = child_cpu([sys.executable, str(path), *args], cwd=cwd,
                             env=dict(os.environ, PYTHONPATH=""))
    rows = [line.split() for line in out.splitlines()]
    slowest = max(rows, key=lambda r: float(r[2]))
    return cpu, {r[0]: r[1] for r in rows}, (slowest[0], float(slowest[2]))


def report(label: str, systems: list[str],
           theirs: tuple[float, dict[str, str], tuple[str, float]],
           mine: tuple[float, dict[str, str]]) -> None:
    """One metric's line: CPU seconds, ratio, agreement."""
    cpu, scores, slowest = theirs
    same = sum(scores.get(s) == mine[1].get(s) for s in systems)
    differing = [s for s in systems if scores.get(s) != mine[1].get(s)]
    print(f"{label}, {len(systems)} systems: original {cpu:.1f} CPU-s "
          f"({cpu / len(systems):.2f} per system, slowest {slowest[0]} {slowest[1]:.2f}), "
          f"ours {mine[0]:.2f} "
          f"CPU-s: {cpu / mine[0]:.1f}x; {same}/{len(systems)} scores equal"
          + (f" (differ: {' '.join(differing)})" if differing else ""))


def sentm2(ptm2: Path, systems: list[str]) -> None:
    """SentM2, PT-M2 against ``--metric sentm2``, on ``systems``."""
    hyps = [str(SUBMISSIONS / s) for s in systems]
    theirs = original(PTM2, ["sentm2", str(SOURCE), str(PTM2_REFS), str(GOLD_M2), *hyps], ptm2)
    report("SentM2", systems, theirs, ours([*hyps, "--gold", str(GOLD_M2)], "sentm2"))


def senterrant(ptm2: Path, systems: list[str]) -> None:
    """SentERRANT, PT-M2 (text and ``<hyp>.m2`` side by side in a scratch directory, as it
    reads them) against ``--metric senterrant`` on the same ERRANT M2."""
    with tempfile.TemporaryDirectory() as tmp:
        refs, hyp = Path(tmp) / "refs", Path(tmp) / "hyp"
        refs.mkdir()
        hyp.mkdir()
        for k, trg in enumerate(TRG):
            (refs / f"ref{k}").symlink_to(trg)
        for s in systems:
            (hyp / s).symlink_to(SUBMISSIONS / s)
            (hyp / f"{s}.m2").symlink_to(ERRANT / f"hyp/{s}.m2")
        theirs = original(PTM2, ["senterrant", str(SOURCE), str(refs), str(ERRANT / "ref.m2"),
                                 *[str(hyp / s) for s in systems]], ptm2)
    mine = ours([*[str(ERRANT / f"hyp/{s}.m2") for s in systems], "--gold",
                 str(ERRANT / "ref.m2")], "senterrant")
    report("SentERRANT", systems, theirs, mine)


def green(gecm: Path, systems: list[str]) -> None:
    """GREEN (defaults), gec-metrics against ``--metric green`` with text references."""
    hyps = [str(SUBMISSIONS / s) for s in systems]
    theirs = original(GREEN, [str(gecm / "src"), str(SOURCE), *map(str, TRG), *hyps], gecm)
    mine = ours([*hyps, "--source", str(SOURCE), "--ref", str(TRG[0]), "--ref", str(TRG[1])],
                "green")
    report("GREEN", systems, theirs, mine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptm2", type=Path, help="a checkout of pygongnlp/PT-M2 @67ef575")
    parser.add_argument("--gecm", type=Path,
                        help="a checkout of gotutiyan/gec-metrics @320c830")
    parser.add_argument("--systems", type=int, default=13, help="the first N of the 13")
    parser.add_argument("--sentm2-systems", type=int,
                        help="the first N for SentM2 only (the original's slowest)")
    parser.add_argument("--senterrant-systems", type=int, help="the first N for SentERRANT")
    args = parser.parse_args()
    if not GOLD_M2.exists():
        print("../shared is absent: nothing to measure")
        return
    if args.ptm2 is not None:
        sentm2(args.ptm2.resolve(), SYSTEMS[:args.sentm2_systems or args.systems])
        senterrant(args.ptm2.resolve(), SYSTEMS[:args.senterrant_systems or args.systems])
    if args.gecm is not None:
        green(args.gecm.resolve(), SYSTEMS[:args.systems])


if __name__ == "__main__":
    main()

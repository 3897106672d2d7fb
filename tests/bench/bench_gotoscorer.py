"""Benchmark of GoToScorer (issue 27) against its originals, side by side.  A script, not a test.

    python tests/bench/bench_gotoscorer.py --gts GTS_CHECKOUT [--gecm GEC_METRICS_CHECKOUT]

GTS (gotutiyan/GTS @5d120c3, a checkout given by ``--gts``): the steps of its ``main()``
(chunk the ERRANT gold and the 13 CoNLL-2014 systems' ERRANT M2, align, weigh, score) against
``gecformats``' pipeline on the same files (``--metric gotoscorer``: weighted by the 13
systems), per reference annotator.  gec-metrics (``--gecm``, a checkout of
gotutiyan/gec-metrics @320c830; needs ERRANT and its spaCy model): ``GoToScorer`` on AMU's
raw text (ERRANT parses the source, hypothesis and reference) against ``gecformats`` on the
same text with ``--extractor errant`` and the ERRANT gold.  Prints process CPU-time ratios
only (original / ours; the machine is shared).  Needs ``../shared``; exits quietly without it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
import types
from pathlib import Path

from gecformats.metrics.gotoscorer import GoToScorerMetric
from gecformats.metrics.pipeline import evaluate

SHARED = Path(__file__).resolve().parents[3] / "shared"
ERRANT = SHARED / "reference/errant"
CONLL = SHARED / "corpora/conll14"
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")
HYP13 = ERRANT / ("hyp13_" + "-".join(SYSTEMS) + ".m2")


def cpu(function) -> float:
    """The process CPU seconds of one call."""
    start = time.process_time()
    function()
    return time.process_time() - start


def gts_run(gts: Path, ref_id: int) -> None:
    """GTS's main() steps, as ``../shared/reference/metrics/drivers/run_gts.py`` runs them."""
    sys.path.insert(0, str(gts))
    import gotoscorer as g
    from scripts import alignmenter, chunker

    gold = chunker.generate_chunk_from_m2(str(ERRANT / "ref.m2"), annotator_id=ref_id)
    systems = chunker.generate_system_chunks(str(HYP13))
    with contextlib.redirect_stderr(io.StringIO()):  # tqdm
        scored = alignmenter.evaluate(gold, systems)
    g.calculate_system_score(g.calculate_weight(scored, 1, 0, 0), len(systems))


def ours(ref: int) -> None:
    evaluate([str(ERRANT / f"hyp/{s}.m2") for s in SYSTEMS], str(ERRANT / "ref.m2"),
             [GoToScorerMetric(ref=ref)])


def gecm_run(gecm: Path) -> None:
    src = gecm / "src"
    for pkg in ("gec_metrics", "gec_metrics.metrics"):  # without the packages' __init__
        module = types.ModuleType(pkg)
        module.__path__ = [str(src.joinpath(*pkg.split(".")))]
        sys.modules[pkg] = module
    import importlib

    try:
        import gecommon  # noqa: F401  (gec-metrics' base imports it; GoToScorer never calls it)
    except ImportError:
        stub = types.SimpleNamespace(apply_edits=None)
        sys.modules["gecommon"] = stub  # type: ignore[assignment]
    import errant

    from gecformats.convert.errant_extract import cached

    nlp = cached(None).nlp  # the installed English model, as en_core_web_sm for the original
    real = errant.load
    errant.load = lambda lang, nlp_=None: real(lang, nlp)
    goto = importlib.import_module("gec_metrics.metrics.gotoscorer")
    read = [(CONLL / p).read_text().rstrip().split("\n") for p in (
        "gecmetrics/conll14st-test.tok.src", "official_submissions/AMU",
        "gecmetrics/refs/conll14st-test.tok.trg0", "gecmetrics/refs/conll14st-test.tok.trg1")]
    lines = [[s.strip() for s in f] for f in read]
    scorer = goto.GoToScorer(goto.GoToScorer.Config())
    scorer.score_corpus(lines[0], lines[1], lines[2:])


def ours_text() -> None:
    evaluate([str(CONLL / "official_submissions/AMU")], str(ERRANT / "ref.m2"),
             [GoToScorerMetric(version="gec-metrics", extractor="errant")])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gts", type=Path, required=True, help="a checkout of gotutiyan/GTS")
    parser.add_argument("--gecm", type=Path, help="a checkout of gotutiyan/gec-metrics")
    args = parser.parse_args()
    if not HYP13.exists():
        print("../shared is absent: nothing to measure")
        return
    print("GoToScorer, 13 CoNLL-2014 systems (ERRANT M2), weighted by the 13: CPU ratio "
          "original / gecformats")
    for ref in (0, 1):
        theirs = cpu(lambda: gts_run(args.gts, ref))
        mine = cpu(lambda: ours(ref))
        print(f"  GTS -ref_id {ref}: {theirs / mine:.1f}x "
              f"(original {theirs / len(SYSTEMS):.2f} CPU-s per system)")
    if args.gecm is not None:
        theirs = cpu(lambda: gecm_run(args.gecm))
        mine = cpu(ours_text)
        print(f"  gec-metrics, AMU from raw text (ERRANT parses): {theirs / mine:.1f}x "
              f"(original {theirs:.1f} CPU-s per system)")
        m2 = cpu(lambda: evaluate([str(ERRANT / "hyp/AMU.m2")], str(ERRANT / "ref.m2"),
                                  [GoToScorerMetric(version="gec-metrics")]))
        print(f"  gec-metrics, AMU from ERRANT's M2 (ours; the original takes text only): "
              f"{theirs / m2:.1f}x")


if __name__ == "__main__":
    main()

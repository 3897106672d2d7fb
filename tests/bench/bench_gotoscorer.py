"""Benchmark of GoToScorer (issue 27) against its originals, side by side.  A script, not a test.

    python tests/bench/bench_gotoscorer.py --gts GTS_CHECKOUT [--gecm GEC_METRICS_CHECKOUT]

GTS (gotutiyan/GTS @5d120c3, a checkout given by ``--gts``): the steps of its ``main()``
(chunk the ERRANT gold and the 13 CoNLL-2014 systems' ERRANT M2, align, weigh, score) against
``gecformats``' pipeline on the same files (``--metric gotoscorer``: weighted by the 13
systems), per reference annotator.  gec-metrics (``--gecm``, a checkout of
gotutiyan/gec-metrics @320c830; needs ERRANT and its spaCy model): ``GoToScorer`` on AMU's
raw text (ERRANT parses the source, hypothesis and reference) against ``gecformats`` on the
same text with ``--extractor errant`` and the ERRANT gold; and the whole 13-system job from raw
text, as gec-metrics' README runs it: for the weighted configuration
``gecmetrics-gen-gotoscorer-weight`` (its ``main()``: parses the source, reference trg0 and the 13
hypotheses) then one ``GoToScorer(Config(no_weight=False, weight_file=...))`` scoring the 13
systems; for the default (``Config()``: no weights) one ``GoToScorer`` scoring the 13 (its parse
cache shared across systems, as favourable to the original as its API allows) -- against one
``gecformats score SYS13 --source SRC --ref TRG0 --extractor errant --metric gotoscorer
--gotoscorer-version gec-metrics [--gotoscorer-weighting weighted]`` each, run in this process,
with a check that the 13 corpus F0.5 are equal.  Prints process CPU-time ratios (original /
ours; the machine is shared).  Needs ``../shared``; exits quietly without it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
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


def gecm_module(gecm: Path, name: str) -> types.ModuleType:
    """A module of gec-metrics' checkout ``gecm``, imported without its packages'
    ``__init__`` (they import every metric: torch, transformers ...), ERRANT on the installed
    English model."""
    if name in sys.modules:
        return sys.modules[name]
    src = gecm / "src"
    for pkg in ("gec_metrics", "gec_metrics.metrics", "gec_metrics.cli"):
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
    sys.modules["gec_metrics.metrics"].GoToScorer = goto.GoToScorer  # type: ignore[attr-defined]
    return importlib.import_module(name)


def gecm_run(gecm: Path) -> None:
    goto = gecm_module(gecm, "gec_metrics.metrics.gotoscorer")
    read = [(CONLL / p).read_text().rstrip().split("\n") for p in (
        "gecmetrics/conll14st-test.tok.src", "official_submissions/AMU",
        "gecmetrics/refs/conll14st-test.tok.trg0", "gecmetrics/refs/conll14st-test.tok.trg1")]
    lines = [[s.strip() for s in f] for f in read]
    scorer = goto.GoToScorer(goto.GoToScorer.Config())
    scorer.score_corpus(lines[0], lines[1], lines[2:])


def ours_text() -> None:
    evaluate([str(CONLL / "official_submissions/AMU")], str(ERRANT / "ref.m2"),
             [GoToScorerMetric(version="gec-metrics", extractor="errant")])


SRC = CONLL / "gecmetrics/conll14st-test.tok.src"
TRG0 = CONLL / "gecmetrics/refs/conll14st-test.tok.trg0"
TEXTS = [CONLL / "official_submissions" / s for s in SYSTEMS]


def gecm_13(gecm: Path, weighted: bool, out: dict[str, float]) -> None:
    """gec-metrics' 13-system job from raw text (module docstring); fills ``out`` with each
    system's corpus F0.5."""
    goto = gecm_module(gecm, "gec_metrics.metrics.gotoscorer")
    config = goto.GoToScorer.Config()
    if weighted:
        gen = gecm_module(gecm, "gec_metrics.cli.gen_gotoscorer_weight")
        with tempfile.TemporaryDirectory() as tmp:
            config = goto.GoToScorer.Config(no_weight=False, weight_file=f"{tmp}/w.json")
            argv = sys.argv
            sys.argv = ["gecmetrics-gen-gotoscorer-weight", "--src", str(SRC), "--ref",
                        str(TRG0), "--hyps", *map(str, TEXTS), "--out", config.weight_file]
            try:
                gen.main()
            finally:
                sys.argv = argv
            scorer = goto.GoToScorer(config)
    else:
        scorer = goto.GoToScorer(config)
    # as gec-metrics' cli/evaluate.py reads
    read = lambda p: open(p).read().rstrip().split("\n")  # noqa: E731
    sources, refs = read(SRC), [read(TRG0)]
    for name, path in zip(SYSTEMS, TEXTS):
        out[name] = scorer.score_corpus(sources, read(path), refs)


def f_scores(table: dict) -> dict[str, float]:
    """Each system's GoToScorer F0.5 in ``gecformats score --format json``'s output."""
    return {name: row["gotoscorer"]["f"] for name, row in table.items()}


def ours_13(weighted: bool, out: dict[str, float]) -> None:
    """The one ``gecformats score`` command of the 13-system job (module docstring), in this
    process; fills ``out`` with each system's corpus F0.5."""
    from gecformats.cli import app

    args = ["score", *map(str, TEXTS), "--source", str(SRC), "--ref", str(TRG0),
            "--extractor", "errant", "--metric", "gotoscorer", "--gotoscorer-version",
            "gec-metrics", "--format", "json", "--quiet"]
    if weighted:
        args += ["--gotoscorer-weighting", "weighted"]
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        try:
            app(args, standalone_mode=False)
        except SystemExit as exc:
            if exc.code:
                raise
    out.update(f_scores(json.loads(text.getvalue())))


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
        print("gec-metrics GoToScorer, the 13-system job from raw text (ERRANT parses), "
              "reference trg0: CPU ratio original / gecformats")
        for weighted in (False, True):
            theirs_f: dict[str, float] = {}
            mine_f: dict[str, float] = {}
            theirs = cpu(lambda: gecm_13(args.gecm, weighted, theirs_f))
            mine = cpu(lambda: ours_13(weighted, mine_f))
            same = all(abs(theirs_f[s] - mine_f[s]) < 1e-9 for s in SYSTEMS)
            print(f"  {'weighted (gen-gotoscorer-weight + 13 runs)' if weighted else 'default'}: "
                  f"{theirs / mine:.1f}x (original {theirs:.0f} CPU-s, gecformats {mine:.0f}; "
                  f"13 F0.5 {'equal' if same else 'DIFFER: ' + repr((theirs_f, mine_f))})")


if __name__ == "__main__":
    main()

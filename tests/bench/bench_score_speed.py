"""Speed of the ``score`` process against the NUS m2scorer, and the cost of resampling
(issues 14 part 6, 37).  A script, not a test: it prints ratios measured in one run.

    python tests/bench/bench_score_speed.py [--nus PATH/m2scorer.py] [--python2 PYTHON2]
                                            [--skip-resampling]

* ``gecformats score`` and the ``maxmatch`` drop-in as whole processes (start-up, gold
  reading and scoring) on AMU, CAMB and CUUI, one process per system, and ``gecformats
  score AMU CAMB CUUI`` as one process, as CPU seconds of the child processes, each on the
  compiled core and on the pure-Python path (``MAXMATCH_PURE_PYTHON=1``) side by side; the
  NUS m2scorer 3.2 run the same way (one process per system) when ``--nus`` (its
  ``scripts/m2scorer.py``) and a Python 2.7 are given, else its per-sentence CPU from
  ``reference/m2scorer/conll14_combined_persentence_cpu.tsv`` (which leaves out its
  start-up and gold reading, so the ratio is then pessimistic);
* start-up: what ``import gecformats.cli`` and what ``score`` imports before it opens the
  gold cost (``-X importtime``, the least of several runs), and the modules imported by then;
* the 13 CoNLL-2014 systems in one ``score`` call, without and with ``--ci --paired-bs``
  (1,000 resamples), and with ``--paired-ar`` (10,000 trials);
* the repetition case of spec §11.2 (sentence 333, its first 150 tokens plus 4 copies of a
  phrase) through ``score``, on both backends.

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


PURE = {**ENV, "MAXMATCH_PURE_PYTHON": "1"}


def cpu(command: list[str], env: dict[str, str] = ENV) -> float:
    """CPU seconds (user + system) of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(command: list[str], runs: int = 3, env: dict[str, str] = ENV) -> float:
    """The least CPU of ``runs`` runs (the noise of a shared machine only adds)."""
    return min(cpu(command, env) for _ in range(runs))


def backend() -> str:
    done = subprocess.run([sys.executable, "-c", "import maxmatch; print(maxmatch.backend())"],
                          capture_output=True, text=True, check=True, env=ENV)
    return done.stdout.strip()


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


def _ratio(reference: float, ours: float) -> str:
    return "%.0fx" % (reference / ours) if ours else "-"


def processes(nus: str | None, py2: str | None) -> None:
    """Whole processes, compiled core and pure path side by side, against the NUS scorer."""
    gecformats, maxmatch = str(BIN / "gecformats"), str(BIN / "maxmatch")
    cpu([gecformats, "score", str(SUBMISSIONS / "AMU"), "--gold", str(COMBINED)])  # warm-up
    reference = reference_cpu()
    use_nus = nus is not None and py2 is not None
    source = "NUS processes" if use_nus else "NUS per-sentence sum (no start-up)"
    core = backend()
    print(f"compiled core in use: {core == 'c'}; NUS = {source}; CPU seconds, least of 3")
    print(f"{'':22}{'NUS':>7} {'score':>7} {'ratio':>6} {'pure':>6} {'ratio':>6}  "
          f"{'maxmatch':>8} {'ratio':>6} {'pure':>6} {'ratio':>6}")
    systems = ("AMU", "CAMB", "CUUI")
    total = 0.0
    for system in systems:
        hyp = str(SUBMISSIONS / system)
        ref = cpu([py2, nus, hyp, str(COMBINED)]) if use_nus else reference[system]  # type: ignore[list-item]
        total += ref
        score_command = [gecformats, "score", hyp, "--gold", str(COMBINED)]
        drop_in = [maxmatch, hyp, str(COMBINED)]
        ours, ours_pure = best(score_command), best(score_command, env=PURE)
        mm, mm_pure = best(drop_in), best(drop_in, env=PURE)
        print(f"{system + ' (one process)':22}{ref:7.2f} {ours:7.2f} {_ratio(ref, ours):>6} "
              f"{ours_pure:6.2f} {_ratio(ref, ours_pure):>6}  {mm:8.2f} {_ratio(ref, mm):>6} "
              f"{mm_pure:6.2f} {_ratio(ref, mm_pure):>6}")
    together = [gecformats, "score", *(str(SUBMISSIONS / s) for s in systems), "--gold",
                str(COMBINED)]
    ours, ours_pure = best(together), best(together, env=PURE)
    print(f"{'AMU CAMB CUUI, one':22}{total:7.2f} {ours:7.2f} {_ratio(total, ours):>6} "
          f"{ours_pure:6.2f} {_ratio(total, ours_pure):>6}  (score process; NUS: its three)")


AT_GOLD = """
import builtins, io, os, sys
gold = sys.argv[sys.argv.index("--gold") + 1]
real = builtins.open
def spy(name, *args, **kwargs):
    if isinstance(name, (str, os.PathLike)) and os.fspath(name) == gold:
        print(len(sys.modules), file=sys.stderr)
        os._exit(0)
    return real(name, *args, **kwargs)
builtins.open = io.open = spy
sys.argv = ["gecformats", *sys.argv[1:]]
from gecformats.cli import main
main()
"""


def _importtime(args: list[str], runs: int = 9) -> tuple[float, int]:
    """The least, over ``runs`` runs, of the summed top-level ``-X importtime`` times (ms) of
    ``python -X importtime ARGS`` (interpreter start-up's own imports included), and the
    modules loaded when it ended."""
    found = []
    for _ in range(runs):
        err = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True,
                             text=True, env=ENV).stderr.splitlines()
        top = [int(line.split("|")[1]) for line in err
               if line.startswith("import time:") and "|" in line
               and not line.split("|")[2].startswith("  ") and "cumulative" not in line]
        modules = int(err[-1]) if err and err[-1].isdigit() else 0
        found.append((sum(top) / 1000, modules))
    return min(found)


def startup() -> None:
    """What importing the command line, and what score imports before the gold, cost."""
    base, base_modules = _importtime(["-c", "import sys; print(len(sys.modules), file=sys.stderr)"])
    typer, typer_modules = _importtime(["-c", "import typer, sys; print(len(sys.modules), file=sys.stderr)"])
    cli, cli_modules = _importtime(["-c", "import gecformats.cli, sys; print(len(sys.modules), file=sys.stderr)"])
    at_gold, gold_modules = _importtime(["-c", AT_GOLD, "score", str(SUBMISSIONS / "AMU"),
                                         "--gold", str(COMBINED)])
    print(f"start-up (-X importtime, least of 9, ms, the interpreter's own {base:.1f} ms and "
          f"{base_modules} modules included; modules loaded): import typer {typer:.1f} "
          f"({typer_modules}); import gecformats.cli {cli:.1f} ({cli_modules}); score up to "
          f"opening the gold {at_gold:.1f} ({gold_modules}), {at_gold - base:.1f} beyond the "
          "interpreter's")


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
    import time

    import maxmatch
    from gecformats.formats import m2
    from gecformats.metrics.score import maxmatch_gold

    sentence = next(s for i, s in enumerate(m2.read(COMBINED), 1) if i == 333)
    source = sentence.source
    hypothesis = list(source[:150]) + PHRASE.split() * 4
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.m2"
        hyp = Path(tmp) / "hyp.txt"
        with open(COMBINED, encoding="utf-8") as fh:
            blocks = fh.read().split("\n\n")
        gold.write_text(blocks[332].strip("\n") + "\n\n", encoding="utf-8")
        hyp.write_text(" ".join(hypothesis) + "\n", encoding="utf-8")
        command = [str(BIN / "gecformats"), "score", str(hyp), "--gold", str(gold)]
        process = {"c": best(command), "python": best(command, env=PURE)}
    alone = {}
    for name in ("c", "python"):
        previous = maxmatch._set_backend(name)
        start = time.process_time()
        maxmatch.score_corpus([(source, hypothesis, maxmatch_gold(sentence))])
        alone[name] = time.process_time() - start
        maxmatch._set_backend(previous)
    print(f"repetition case (spec §11.2, k = 4, 182 hypothesis tokens, 1.24 million edges): "
          f"the sentence {alone['c']:.3f} CPU s compiled, {alone['python']:.2f} pure "
          f"({_ratio(alone['python'], alone['c'])}); the whole score process {process['c']:.2f} "
          f"s, {process['python']:.2f} pure")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nus", help="the NUS m2scorer's scripts/m2scorer.py")
    parser.add_argument("--python2", help="a Python 2.7 to run it (default: found on PATH or pyenv)")
    parser.add_argument("--skip-resampling", action="store_true",
                        help="leave out the 13-system runs with --ci/--paired-bs/--paired-ar")
    args = parser.parse_args()
    if not COMBINED.exists():
        print("../shared is not available: nothing to measure")
        return
    processes(args.nus, args.python2 or python2())
    startup()
    if not args.skip_resampling:
        resampling()
    repetition()


if __name__ == "__main__":
    main()

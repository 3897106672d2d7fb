"""Benchmark: M2 read and write throughput and peak memory on a generated file.

Run:  python tests/bench/bench_m2.py [--sentences 1000000] [--annotators 1]

Generates an M2 file shaped like CoNLL-2014 gold data (5-40 tokens per sentence, 0-4
edits per annotator, noop lines for annotators without edits), then measures in one run:

* read: CPU seconds and sentences/s of ``m2.read`` over the whole file;
* write: sentences/s of ``m2.write`` (read+write minus read);
* peak memory (max RSS) of a process that reads the whole file, and of one that reads a
  tenth of it: their ratio is ~1 when memory does not grow with the file.

Everything is printed as figures and ratios; nothing is asserted (this is not a test).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

from gecformats.formats import m2

TARGET_READ = 50_000  # sentences/s, issue 2

WORDS = ("the a of to and in is was that for it with as on be at by this had not are but "
         "from or have an they which one you were her all she there would their we him "
         "been has when who will more no if out so said what up its about into than them "
         "can only other new some could time these two may then do first any my now such "
         "like our over man me even most made after also did many before must through , . "
         "; ' \" ( ) people genetic testing disease family members risk information").split()
TYPES = ("ArtOrDet", "Prep", "Nn", "Vt", "SVA", "Wci", "Mec", "Rloc-", "Vform", "Trans")


def generate(path: str, sentences: int, annotators: int, seed: int = 1) -> None:
    """Write a CoNLL-2014-like M2 file of ``sentences`` blocks to ``path`` (streaming)."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(sentences):
            n = rng.randint(5, 40)
            lines = ["S " + " ".join(rng.choice(WORDS) for _ in range(n))]
            for annotator in range(annotators):
                k = rng.choice((0, 1, 1, 2, 2, 3, 4))
                if not k:
                    lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}")
                    continue
                for start in sorted(rng.sample(range(n), k)):
                    end = start + rng.choice((0, 1, 1, 1, 2))
                    corr = " ".join(rng.choice(WORDS) for _ in range(rng.choice((0, 1, 1, 2))))
                    lines.append(f"A {start} {min(end, n)}|||{rng.choice(TYPES)}|||{corr}"
                                 f"|||REQUIRED|||-NONE-|||{annotator}")
            fh.write("\n".join(lines) + "\n\n")


def _peak_rss_kib(path: str, limit: int) -> int:
    """Max RSS (KiB) of a fresh process that reads the first ``limit`` sentences of ``path``."""
    code = (
        "import itertools, resource, sys\n"
        "from gecformats.formats import m2\n"
        f"for _ in itertools.islice(m2.read({path!r}), {limit}): pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=1_000_000)
    parser.add_argument("--annotators", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.m2")
        started = time.perf_counter()
        generate(path, args.sentences, args.annotators)
        size = os.path.getsize(path)
        print(f"generated {args.sentences} sentences, {args.annotators} annotator(s), "
              f"{size / 2**20:.0f} MiB in {time.perf_counter() - started:.1f} s")

        t0 = time.process_time()
        count = sum(1 for _ in m2.read(path))
        read_cpu = time.process_time() - t0
        assert count == args.sentences

        out = os.path.join(tmp, "out.m2")
        t0 = time.process_time()
        m2.write(m2.read(path), out)
        both_cpu = time.process_time() - t0
        write_cpu = max(both_cpu - read_cpu, 1e-9)
        same = os.path.getsize(out) == size

        read_rate = count / read_cpu
        write_rate = count / write_cpu
        print(f"read   {read_cpu:7.2f} CPU-s  {read_rate:10,.0f} sentences/s  "
              f"{size / 2**20 / read_cpu:6.1f} MiB/s  ratio to the 50,000/s target {read_rate / TARGET_READ:.2f}")
        print(f"write  {write_cpu:7.2f} CPU-s  {write_rate:10,.0f} sentences/s  "
              f"(read+write {both_cpu:.2f} CPU-s; output identical in size: {same})")

        small = max(args.sentences // 10, 1)
        rss_small = _peak_rss_kib(path, small)
        rss_full = _peak_rss_kib(path, args.sentences)
        print(f"peak memory reading {small:,} sentences: {rss_small / 1024:.1f} MiB; "
              f"{args.sentences:,}: {rss_full / 1024:.1f} MiB; ratio {rss_full / rss_small:.2f} "
              "(1.00 = independent of file size)")


if __name__ == "__main__":
    main()

"""Edit extraction on Dask (issue 17).  A script, not a test: it prints pairs/s measured in
one run, 1 against 2 workers on this machine, the client's peak memory on a large input, and
the extrapolation to C4_200M (2·10^8 pairs) on a 64-worker cluster.

    python tests/bench/bench_dist.py [--pairs 200000] [--shared ../shared]

The input is made by repeating the CoNLL-2014 test sentences with their two references
(English, ``en``) and the NLPCC 2018 ``gold.01`` sources with their references (Chinese,
``zh``) up to ``--pairs`` sentence pairs, written as a ``tsv`` file of source and
reference; each is converted to M2 with ``--engine local`` (one process) and with
``--engine dask`` on a local cluster of 1 and of 2 workers, all three outputs compared.
"""

from __future__ import annotations

import argparse
import itertools
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[3] / "shared"
TARGET_PAIRS = 2 * 10 ** 8
TARGET_WORKERS = 64


def make_input(path: Path, pairs: list[tuple[str, str]], n: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for source, ref in itertools.islice(itertools.cycle(pairs), n):
            out.write(f"{source}\t{ref}\n")


def run(args: list[str]) -> tuple[float, int]:
    """Wall seconds and the peak resident memory (KiB) of a child run."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gecformats", *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200_000)
    parser.add_argument("--shared", type=Path, default=DEFAULT)
    args = parser.parse_args()
    corpora = args.shared / "corpora"
    src = (corpora / "conll14/gecmetrics/conll14st-test.tok.src").read_text(encoding="utf-8").splitlines()
    refs = [(corpora / f"gec-ranking/reference_outputs/conll14.ref{k}.alledits.txt")
            .read_text(encoding="utf-8").splitlines() for k in (0, 1)]
    english = [(s, r) for k in (0, 1) for s, r in zip(src, refs[k])]
    from gecformats.convert import extract
    from gecformats.formats import m2

    chinese = []
    for sentence in m2.read(corpora / "nlpcc2018/gold.01.m2"):
        p = extract.to_parallel(sentence, joiner="")
        chinese += [(p.source, r) for r in p.references if r is not None]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, pairs in (("en", english), ("zh", chinese)):
            data = folder / f"{name}.tsv"
            make_input(data, pairs, args.pairs)
            outputs = {}
            rates = {}
            for label, extra in (("local, 1 process", []),
                                 ("dask, 1 worker", ["--engine", "dask", "--workers", "1"]),
                                 ("dask, 2 workers", ["--engine", "dask", "--workers", "2"])):
                out = folder / f"{name}-{len(outputs)}.m2"
                seconds, peak = run(["convert", str(data), str(out), "--tokenizer", name, *extra])
                outputs[label] = out.read_bytes()
                rates[label] = args.pairs / seconds
                print(f"{name} {label:17s} {seconds:7.1f} s wall  {rates[label]:7.0f} pairs/s  "
                      f"largest process {peak / 1024:.0f} MiB")
            same = len(set(outputs.values())) == 1
            per_worker = rates["dask, 2 workers"] / 2
            hours = TARGET_PAIRS / (per_worker * TARGET_WORKERS) / 3600
            print(f"{name}: outputs identical: {same}; 2 workers / 1 worker: "
                  f"{rates['dask, 2 workers'] / rates['dask, 1 worker']:.2f}x; "
                  f"2·10^8 pairs on {TARGET_WORKERS} such workers: about {hours:.1f} h "
                  "(if the client keeps up)")


if __name__ == "__main__":
    main()

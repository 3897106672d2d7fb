"""Speed of the I-measure (issue 16).  A script, not a test: it prints CPU seconds and the
ratio to the original measured in the same run when it can be run.

    python tests/bench/bench_imeasure.py [--ieval PATH/ieval.py --python2 PYTHON2] [--only-13]

* the first 100 CoNLL-2014 sentences of AMU, ours against ``ieval.py`` (when given: about
  20 CPU-minutes; otherwise against the 1,180 CPU-s recorded in
  ``../shared/corpora/imeasure/SOURCE.md``);
* the whole test set for AMU (sentence 333, 2^34 references, included), then the 13
  systems in one call, with and without mixing; with mixing (the default options), also
  the ratio to the 155 CPU-s that call first took (the target: at most 1/2.5 of it).

CPU time is the child's (user + system), not wall time: the machine may be shared.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
XML = SHARED / "corpora/imeasure/official-2014.combined.m2.ieval.xml"
SUBMISSIONS = SHARED / "corpora/conll14/official_submissions"
RECORDED_FIRST100 = 1180.0
FIRST_13 = 155.0
"""CPU-s of the 13 systems in one call (default options) as first measured."""
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC"]


def child_cpu(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def subset(folder: Path, n: int) -> tuple[Path, Path]:
    from lxml import etree

    tree = etree.parse(str(XML))
    script = tree.getroot()[0]
    for extra in list(script)[n:]:
        script.remove(extra)
    gold = folder / f"subset{n}.xml"
    tree.write(str(gold), xml_declaration=True, encoding="UTF-8")
    hyp = folder / f"AMU.first{n}.txt"
    lines = (SUBMISSIONS / "AMU").read_text(encoding="utf-8").split("\n")
    hyp.write_text("\n".join(lines[:n]) + "\n", encoding="utf-8")
    return gold, hyp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ieval", help="the original ieval.py")
    parser.add_argument("--python2", default="python2", help="a Python 2.7 with numpy")
    parser.add_argument("--only-13", action="store_true",
                        help="only the 13 systems in one call, default options")
    args = parser.parse_args()
    ours = [sys.executable, "-m", "gecformats", "imeasure"]
    if args.only_13:
        thirteen(ours, [])
        return
    with tempfile.TemporaryDirectory() as tmp:
        gold, hyp = subset(Path(tmp), 100)
        mine = child_cpu([*ours, str(hyp), "--gold", str(gold)])
        if args.ieval:
            theirs = child_cpu([args.python2, args.ieval, f"-ref:{gold}", f"-hyp:{hyp}"])
            source = "measured"
        else:
            theirs, source = RECORDED_FIRST100, "recorded"
        print(f"first 100 sentences of AMU: {mine:.1f} CPU-s, ieval.py {theirs:.0f} s "
              f"({source}): 1/{theirs / mine:.0f}")
    whole = child_cpu([*ours, str(SUBMISSIONS / "AMU"), "--gold", str(XML)])
    print(f"whole CoNLL-2014 test set, AMU: {whole:.1f} CPU-s")
    for extra in ([], ["--no-mix"]):
        thirteen(ours, extra)


def thirteen(ours: list[str], extra: list[str]) -> None:
    """Print the CPU-s of the 13 systems in one call (``extra``: more options)."""
    cpu = child_cpu([*ours, *(str(SUBMISSIONS / s) for s in SYSTEMS), "--gold", str(XML),
                     "--format", "tsv", *extra])
    line = f"13 systems in one call{' ' + ' '.join(extra) if extra else ''}: {cpu:.1f} CPU-s"
    if not extra:
        line += (f", {cpu / FIRST_13:.2f} of the {FIRST_13:.0f} s first measured "
                 f"(1/{FIRST_13 / cpu:.1f}; target 1/2.5)")
    print(line)


if __name__ == "__main__":
    main()

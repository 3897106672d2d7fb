"""The scorer's pathological inputs (issues 13, 37): CPU seconds and peak memory of each, one
child process per case and backend (the compiled core, then the pure-Python path:
``MAXMATCH_PURE_PYTHON=1``), with the default ``max_edges`` (``python
tests/bench/bench_maxmatch_limits.py``).  Nothing is asserted: it reports."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
COMBINED = SHARED / "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"


def cases(folder: Path) -> list[tuple[str, Path, Path]]:
    """(name, hypothesis, gold) for each pathological case."""
    out = []

    def case(name: str, gold: str, hyp: str) -> None:
        g, h = folder / f"{name}.m2", folder / f"{name}.txt"
        g.write_text(gold)
        h.write_text(hyp)
        out.append((name, h, g))

    six = "S a b c d e f\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\n\n"
    case("400 x word vs 6 tokens", six, " ".join(["word"] * 400) + "\n")
    case("1000 x word vs 6 tokens", six, " ".join(["word"] * 1000) + "\n")
    very = "S " + " ".join(["very"] * 300) + "\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\n\n"
    case("gold 300 x very, hyp 150 x very", very, " ".join(["very"] * 150) + "\n")
    rng = random.Random(1)
    words = [rng.choice("the a of to in is was that for it".split()) for _ in range(300)]
    case("300-token source repeated 4 times",
         "S " + " ".join(words) + "\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\n\n",
         " ".join(words * 4) + "\n")
    if COMBINED.exists():
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        from gecformats.formats import m2

        blocks = COMBINED.read_text(encoding="utf-8").split("\n\n")
        sentences = [m2.parse(b + "\n")[0] for b in blocks[:200] if b.strip()]
        case("200 CoNLL sentences, hypothesis = source x 4", m2.dumps(sentences),
             "".join(" ".join(list(s.source) * 4) + "\n" for s in sentences))
        s333 = m2.parse(blocks[332] + "\n")[0]
        phrase = "Hence , there is no legal obligation .".split()
        for k in (1, 2, 4, 8):
            case(f"sentence 333, 150 tokens + {k} repeated phrases", m2.dumps([s333]),
                 " ".join(list(s333.source[:150]) + phrase * k) + "\n")
    return out


def child(hyp: Path, gold: Path, env: dict[str, str]) -> tuple[int, float, float, str]:
    """Exit status, CPU seconds, peak MB and the result (or error) of one score process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", "gecformats", "score", str(hyp),
                                 "--gold", str(gold), "--format", "m2scorer"],
                                stdout=out, stderr=err, text=True, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    result = stdout.strip().replace("\n", "  ") if code == 0 else stderr.strip()[:90]
    return code, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, result


def main() -> None:
    compiled = {k: v for k, v in os.environ.items() if k != "MAXMATCH_PURE_PYTHON"}
    pure = {**compiled, "MAXMATCH_PURE_PYTHON": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'case':<48}{'exit':>5}{'CPU s':>8}{'pure':>8}{'ratio':>7}{'peak MB':>9}"
              f"{'pure':>7}  result")
        for name, hyp, gold in cases(Path(tmp)):
            code, cpu, peak, result = child(hyp, gold, compiled)
            code_pure, cpu_pure, peak_pure, result_pure = child(hyp, gold, pure)
            same = "" if (code, result) == (code_pure, result_pure) else "  DIFFERENT ON THE PURE PATH"
            print(f"{name:<48}{code:>5}{cpu:>8.2f}{cpu_pure:>8.2f}{cpu_pure / cpu:>6.1f}x"
                  f"{peak:>9.0f}{peak_pure:>7.0f}  {result}{same}")


if __name__ == "__main__":
    main()

"""Size and speed of the HTML report (issue 26).  A script, not a test: it prints the page's
size, CPU seconds of whole processes and the ratio to the ``score`` call the report is built
from, and, with a browser, how long the page takes to become interactive.

    python tests/bench/bench_report.py [--ci] [--repeat 3]

* ``gecformats report`` of the 13 CoNLL-2014 official submissions against ``gecformats
  score`` of the same files (target: <= 3x; the page at most 10 MB);
* with ``--ci``: both with ``--ci`` (1,000 resamples);
* in headless Chromium (tests/report_browser.py), seconds until the sentences view is
  ready (target: <= 2 s).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_pipeline import cpu  # noqa: E402  (the same CPU measure as the pipeline's bench)
SHARED = HERE.parents[2] / "shared"
GOLD = SHARED / "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"
SYSTEMS = SHARED / "corpora/conll14/official_submissions"


def best(args: list[str], repeat: int) -> float:
    return min(cpu(args) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ci", action="store_true", help="also with --ci")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    options = parser.parse_args()
    hyps = sorted(str(p) for p in SYSTEMS.iterdir())
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        for extra in ([], ["--ci"]) if options.ci else ([],):
            score = best(["score", *hyps, "--gold", str(GOLD), *extra], options.repeat)
            report = best(["report", *hyps, "--gold", str(GOLD), "-o", str(page), *extra],
                          options.repeat)
            label = " ".join(["13 systems", *extra])
            print(f"{label}: score {score:.2f} CPU-s, report {report:.2f} CPU-s: "
                  f"{report / score:.2f}x (target <= 3x)")
        size = page.stat().st_size
        print(f"page: {size / 1e6:.2f} MB for {len(hyps)} systems x 1,312 sentences "
              f"(target <= 10 MB)")
        sys.path[:0] = [str(HERE.parent), str(HERE.parents[1]), str(HERE.parents[1] / "scorer")]
        import report_browser as rb

        found = rb.find_browser()
        if found is None:
            print("no headless browser: interactive time not measured")
            return
        web = rb.start(*found)
        try:
            times = [rb.open_report(web, page) for _ in range(options.repeat)]
            ready = web.execute_script(
                "return performance.now()")  # since navigation start of the last load
            print(f"interactive in Chromium: {min(times):.2f} s (load to script ready, best "
                  f"of {options.repeat}; target <= 2 s); last load's clock {ready / 1000:.2f} s")
        finally:
            web.quit()


if __name__ == "__main__":
    main()

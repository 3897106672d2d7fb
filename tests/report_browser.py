"""Headless Chromium on a gecformats report: the browser tests' driver, and the script that
makes the documentation's screenshots (docs/).

    python tests/report_browser.py docs/

builds the CoNLL-2014 report of the 13 official submissions (../shared) and writes
``docs/report-overview.png``, ``docs/report-sentences.png`` and ``docs/report-side.png``.

Selenium drives Debian's ``chromium`` with its own ``chromium-driver`` (same version, both
from apt): no browser download, nothing but a pure-Python client from PyPI.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
DRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
ROOT = Path(__file__).resolve().parent.parent
CONLL = ROOT.parent / "shared" / "corpora" / "conll14"
GOLD = "conll14st-test-data/noalt/official-2014.combined.m2"


def find_browser() -> tuple[str, str] | None:
    """``(chromium, chromedriver)`` when both and selenium are installed, else ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None
    browser = next((p for p in CHROMIUM if os.path.exists(p)), shutil.which("chromium"))
    driver = next((p for p in DRIVER if os.path.exists(p)), shutil.which("chromedriver"))
    return (browser, driver) if browser and driver else None


def start(browser: str, driver: str, width: int = 1400, height: int = 1000) -> Any:
    """A headless Chromium WebDriver keeping the page's console messages."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


def open_report(web: Any, page: Path) -> float:
    """Load ``page`` and wait until its script is ready; returns the seconds until then."""
    started = time.perf_counter()
    web.get(page.resolve().as_uri())
    deadline = started + 30
    while web.execute_script("return document.body.dataset.ready") != "1":
        if time.perf_counter() > deadline:
            raise TimeoutError(f"{page}: the page's script never got ready")
        time.sleep(0.02)
    return time.perf_counter() - started


def console_errors(web: Any) -> list[str]:
    """The page's console messages of level SEVERE (errors)."""
    return [entry["message"] for entry in web.get_log("browser") if entry["level"] == "SEVERE"]


def select(web: Any, element_id: str, value: str | int) -> None:
    """Choose ``value`` in the ``<select>`` ``element_id`` as a user would."""
    from selenium.webdriver.support.ui import Select

    Select(web.find_element("id", element_id)).select_by_value(str(value))


def check(web: Any, element_id: str, on: bool = True) -> None:
    """Tick (or untick) the checkbox ``element_id``."""
    box = web.find_element("id", element_id)
    if box.is_selected() != on:
        box.click()


def view(web: Any, name: str) -> None:
    """Switch to the ``overview`` or ``sentences`` tab by clicking it."""
    web.find_element("css selector", f"#tabs a[data-view={name}]").click()


def shown_numbers(web: Any) -> list[int]:
    """The numbers (1-based) of the sentence cards drawn."""
    return [int(e.get_attribute("data-n")) for e in web.find_elements("css selector", ".sent")]


def filtered(web: Any) -> list[int]:
    """Every sentence (0-based) the filters keep, drawn or not."""
    return list(web.execute_script("return window.gecReport.filtered()"))


def screenshots(web: Any, page: Path, folder: Path) -> list[Path]:
    """A screenshot of each view of ``page`` (overview; sentences filtered to one system
    and a type; side by side of two systems that differ) written in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    open_report(web, page)
    out = [folder / "report-overview.png", folder / "report-sentences.png",
           folder / "report-side.png"]
    view(web, "overview")
    size = web.get_window_size()
    height = web.execute_script("return document.documentElement.scrollHeight")
    web.set_window_size(size["width"], min(height + 40, 2400))  # the whole overview
    web.execute_script("window.scrollTo(0, 0)")
    web.save_screenshot(str(out[0]))
    web.set_window_size(size["width"], size["height"])
    view(web, "sentences")
    systems = web.execute_script("return JSON.parse(document.getElementById('data')"
                                 ".textContent).systems")
    types = web.execute_script("return JSON.parse(document.getElementById('data')"
                               ".textContent).types")
    select(web, "f-system", 0)
    if "ArtOrDet" in types:
        select(web, "f-type", types.index("ArtOrDet"))
    web.execute_script("window.scrollTo(0, 0)")
    web.save_screenshot(str(out[1]))
    select(web, "f-system", -1)
    select(web, "f-type", -1)
    if len(systems) > 1:
        check(web, "f-differ")
        check(web, "f-side")
    web.execute_script("window.scrollTo(0, 0)")
    web.save_screenshot(str(out[2]))
    return out


def conll_report(output: Path) -> Any:
    """Write the CoNLL-2014 report of the 13 official submissions to ``output``; returns its
    :class:`~gecformats.report.build.ReportData`."""
    from gecformats.metrics.request import ScoreRequest, build_metrics
    from gecformats.report.html import write_report

    systems = sorted(str(p) for p in (CONLL / "official_submissions").iterdir())
    request = ScoreRequest(systems, str(CONLL / GOLD), build_metrics(["m2"], {}, []))
    command = "gecformats report official_submissions/* --gold official-2014.combined.m2 -o report.html"
    return write_report(request, output, "CoNLL-2014: the 13 official submissions", command)


def main(argv: list[str]) -> int:
    """``report_browser.py FOLDER``: the documentation's screenshots in FOLDER."""
    found = find_browser()
    if found is None or not CONLL.exists():
        print("needs selenium, chromium, chromedriver and ../shared/corpora/conll14",
              file=sys.stderr)
        return 1
    folder = Path(argv[0] if argv else "docs")
    page = folder / "conll14-report.html"
    conll_report(page)
    web = start(*found)
    try:
        for path in screenshots(web, page, folder):
            print(path)
    finally:
        web.quit()
        page.unlink()
    return 0


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT), str(ROOT / "scorer")]
    sys.exit(main(sys.argv[1:]))

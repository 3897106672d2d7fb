"""The CoNLL-2014 report (13 official submissions) in headless Chromium: it loads without
console errors, its overview shows the scorer's numbers, the filters keep the right
sentences, the side-by-side view opens, and a screenshot of each view is written.

Like the ../shared tests, these skip where no browser is installed (Debian: ``apt-get install
chromium chromium-driver``, and ``pip install selenium``) but fail under ``CI=true``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import report_browser as rb
from conftest import ROOT, in_ci, shared_file
from test_report import m2_scores

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("report_browser")


@pytest.fixture(scope="module")
def browser() -> Any:
    found = rb.find_browser()
    if found is None:
        message = "no headless browser (chromium, chromedriver and selenium)"
        if in_ci():
            pytest.fail(f"{message}, but CI=true: CI must have it", pytrace=False)
        pytest.skip(message)
    web = rb.start(*found)
    yield web
    web.quit()


@pytest.fixture(scope="module")
def conll(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The report's page and its data."""
    shared_file(f"corpora/conll14/{rb.GOLD}")
    page = tmp_path_factory.mktemp("report") / "conll14.html"
    return page, rb.conll_report(page).payload


@pytest.fixture
def web(browser: Any, conll: tuple[Path, dict[str, Any]]) -> Any:
    """The browser on a freshly loaded report, console emptied."""
    seconds = rb.open_report(browser, conll[0])
    print(f"interactive after {seconds:.2f} s")
    return browser


def expected(data: dict[str, Any], system: int, test: Any) -> list[int]:
    """The sentences where ``test(gold edits, system row)`` holds for ``system``."""
    out = []
    for i, (_, gold, rows) in enumerate(data["sentences"]):
        row = rows[system]
        edits = gold[row[1]][1] if row[1] >= 0 else []
        if test(edits, row):
            out.append(i)
    return out


def test_loads_without_console_errors_and_draws_only_what_is_near(web: Any,
                                                                 conll: Any) -> None:
    assert rb.console_errors(web) == []
    rb.view(web, "sentences")
    assert web.find_element("id", "count").text == "1312 of 1312 sentences"
    drawn = rb.shown_numbers(web)
    assert drawn[0] == 1 and len(drawn) < 100  # the blocks near the screen, not 1,312
    web.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    web.execute_script("return new Promise(r => setTimeout(r, 300))")
    assert 1312 in rb.shown_numbers(web) and 1 not in rb.shown_numbers(web)
    assert rb.console_errors(web) == []


def test_overview_numbers_are_the_scorers(web: Any, conll: Any) -> None:
    systems = sorted(shared_file("corpora/conll14/official_submissions").iterdir())
    gold = shared_file(f"corpora/conll14/{rb.GOLD}")
    done = subprocess.run([sys.executable, "-m", "gecformats", "score", *map(str, systems),
                           "--gold", str(gold), "--format", "json", "-q"],
                          capture_output=True, text=True, cwd=ROOT)
    scores = m2_scores(done.stdout)
    rows = web.find_elements("css selector", "#systems tbody tr")
    assert len(rows) == 13
    for row in rows:
        cells = [c.text for c in row.find_elements("css selector", "th, td")]
        m2 = scores[cells[0]]["m2"]
        assert cells[1:4] == [f"{m2[c]:.4f}" for c in ("precision", "recall", "f")]
    # the heatmap: one cell per type and system, its counts in its hover title
    cells = web.find_elements("css selector", "#heatmap g.cell")
    assert len(cells) == 13 * len(web.find_elements("css selector", "#heatmap text.row"))


def test_filter_by_type(web: Any, conll: Any) -> None:
    _, data = conll
    amu, prep = data["systems"].index("AMU"), data["types"].index("Prep")
    rb.view(web, "sentences")
    rb.select(web, "f-system", amu)
    rb.select(web, "f-type", prep)
    want = expected(data, amu, lambda gold, row: any(g[3] == prep for g in gold))
    assert rb.filtered(web) == want and want
    assert web.find_element("id", "count").text == f"{len(want)} of 1312 sentences"
    shown = rb.shown_numbers(web)
    assert shown == [i + 1 for i in want[:len(shown)]]
    card = web.find_element("css selector", ".sent")
    assert [e.get_attribute("data-system") for e in card.find_elements("css selector", ".sys")] \
        == [str(amu)]
    assert "Prep" in card.text


@pytest.mark.parametrize("outcome", ["TP", "FP", "FN"])
def test_filter_by_outcome(web: Any, conll: Any, outcome: str) -> None:
    _, data = conll
    camb = data["systems"].index("CAMB")
    tests = {
        "TP": lambda gold, row: row[2] > 0,
        "FP": lambda gold, row: any(e[3] == 0 for e in row[5]),
        "FN": lambda gold, row: len(row[6]) < len(gold),
    }
    rb.view(web, "sentences")
    rb.select(web, "f-system", camb)
    rb.select(web, "f-outcome", outcome)
    want = expected(data, camb, tests[outcome])
    assert rb.filtered(web) == want and want
    first = web.find_element("css selector", ".sent")
    assert int(first.get_attribute("data-n")) == want[0] + 1
    assert first.find_elements("css selector", f".e.{outcome.lower()}")


def test_the_legends_and_the_untyped_false_positives_are_explained(web: Any, conll: Any) -> None:
    # a gold type with Outcome FP listed nothing, and nothing said why
    _, data = conll
    camb, prep = data["systems"].index("CAMB"), data["types"].index("Prep")
    legend = web.find_element("id", "heatmap-legend")
    text = " ".join(legend.text.split())
    assert legend.is_displayed() and text.startswith("Colour: recall 0 0.5 1")
    assert "no gold edits of the type" in text
    rb.view(web, "sentences")
    assert "c/p/g correct (credited) / proposed system edits / gold edits" in \
        web.find_element("id", "edit-legend").text
    note = web.find_element("id", "fp-note")
    assert note.is_displayed() and note.text.startswith("False positives carry no gold type")
    rb.select(web, "f-system", camb)
    rb.select(web, "f-type", prep)
    rb.select(web, "f-outcome", "FP")
    assert rb.filtered(web) == []
    assert web.find_element("id", "count").text == (
        "0 of 1312 sentences: false positives carry no gold type; set Gold type to any to "
        "list them")
    rb.select(web, "f-type", -1)  # under "any" they are listed
    assert rb.filtered(web) and web.find_element("id", "count").text.endswith(" sentences")
    card = web.find_element("css selector", ".sent .sys")
    row = data["sentences"][rb.filtered(web)[0]][2][camb]
    assert card.find_element("css selector", ".cnt").text == f"c/p/g {row[2]}/{row[3]}/{row[4]}"
    assert rb.console_errors(web) == []


def test_side_by_side_of_two_systems_that_differ(web: Any, conll: Any) -> None:
    _, data = conll
    a, b = data["systems"].index("AMU"), data["systems"].index("CAMB")
    rb.view(web, "sentences")
    rb.select(web, "f-a", a)
    rb.select(web, "f-b", b)
    rb.check(web, "f-differ")
    rb.check(web, "f-side")
    want = [i for i, s in enumerate(data["sentences"]) if s[2][a][0] != s[2][b][0]]
    assert rb.filtered(web) == want and want
    card = web.find_element("css selector", ".sent")
    assert card.find_elements("css selector", ".rows.side")
    columns = card.find_elements("css selector", ".rows.side > .sys")
    assert [c.get_attribute("data-system") for c in columns] == [str(a), str(b)]
    assert columns[0].location["y"] == columns[1].location["y"]  # side by side
    assert columns[0].location["x"] < columns[1].location["x"]
    assert rb.console_errors(web) == []


def test_a_screenshot_of_each_view(browser: Any, conll: Any, tmp_path: Path) -> None:
    written = rb.screenshots(browser, conll[0], tmp_path / "shots")
    assert [p.name for p in written] == ["report-overview.png", "report-sentences.png",
                                         "report-side.png"]
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    assert rb.console_errors(browser) == []


def test_the_overview_works_without_javascript(conll: Any, tmp_path: Path) -> None:
    found = rb.find_browser()
    if found is None:
        if in_ci():
            pytest.fail("no headless browser, but CI=true: CI must have it", pytrace=False)
        pytest.skip("no headless browser")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    web = webdriver.Chrome(service=Service(found[1]), options=options)
    try:
        web.get(conll[0].resolve().as_uri())
        assert web.find_element("id", "systems").is_displayed()
        assert web.find_element("id", "heatmap").is_displayed()
        assert len(web.find_elements("css selector", "#systems tbody tr")) == 13
        web.save_screenshot(str(tmp_path / "no-javascript.png"))
    finally:
        web.quit()

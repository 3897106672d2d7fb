"""The documentation site: ``mkdocs build --strict`` builds it (a broken link, a missing page
or anchor, a docstring mkdocstrings cannot read all fail the build), the generated pages are
there, and in headless Chromium, served over HTTP as a reader gets it, the home page, a
tutorial and reference pages render without console errors and the search finds "M2".

Like the report's browser tests, these skip where MkDocs (the ``docs`` extra, which the
``test`` extra includes) or a headless browser is missing, but fail under ``CI=true``."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

import report_browser as rb
from conftest import ROOT, in_ci
from gecformats.cli import app, load_commands

load_commands()  # a run loads its own command only: the reference lists every one

# the built site is shared by the tests of this module: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("docs_site")


def _missing(what: str) -> None:
    message = f"{what} is not installed"
    if in_ci():
        pytest.fail(f"{message}, but CI=true: CI must have it", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built with ``mkdocs build --strict`` into a scratch folder."""
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError:
        _missing("mkdocs, mkdocs-material or mkdocstrings (pip install '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    print(f"mkdocs build: {time.perf_counter() - started:.1f} s")
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    assert "WARNING" not in done.stderr, done.stderr
    return out


def test_every_page_of_the_nav_is_built(site: Path) -> None:
    import yaml

    def pages(node: Any) -> Iterator[str]:
        if isinstance(node, str):
            yield node
        elif isinstance(node, list):
            for item in node:
                yield from pages(item)
        elif isinstance(node, dict):
            for value in node.values():
                yield from pages(value)

    # mkdocs.yml is plain YAML (no !tags), so yaml's safe loader reads it
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = list(pages(config["nav"]))
    assert len(nav) > 40
    for page in nav:
        built = site / ("index.html" if page == "index.md" else page.removesuffix(".md").removesuffix("/index") + "/index.html")
        assert built.is_file(), f"{page}: not built"
    # every page of docs/ is in the nav (mkdocs only warns about the others)
    in_docs = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert in_docs == set(nav)
    for picture in ("report-overview.png", "report-sentences.png", "report-side.png"):
        assert (site / picture).is_file()


def test_the_cli_reference_is_generated_into_the_site(site: Path) -> None:
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "gecformats-cli-reference" not in page  # the hook replaced its marker
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        assert f'id="{name}"' in page, name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--"):
                    assert opt in page, f"{name} {opt}"


def test_the_api_reference_is_rendered_from_the_docstrings(site: Path) -> None:
    model = (site / "reference" / "api" / "model" / "index.html").read_text(encoding="utf-8")
    assert 'id="gecformats.model.Sentence"' in model and 'id="gecformats.model.Edit"' in model
    assert "&gt;&gt;&gt;" in model  # the doctest examples, as code
    metrics = (site / "reference" / "api" / "metrics" / "index.html").read_text(encoding="utf-8")
    for name in ("gecformats.metrics.base.Metric", "gecformats.metrics.pipeline.evaluate",
                 "gecformats.metrics.statistics.Resampling", "gecformats.metrics.render.Table"):
        assert f'id="{name}"' in metrics, name


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site over HTTP on 127.0.0.1 (the search runs in a web worker, which file:// does
    not allow); its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    found = rb.find_browser()
    if found is None:
        _missing("a headless browser (chromium, chromedriver and selenium)")
    web = rb.start(*found)
    yield web
    web.quit()


def _open(web: Any, url: str) -> None:
    web.get(url)
    deadline = time.perf_counter() + 30
    while web.execute_script("return document.readyState") != "complete":
        if time.perf_counter() > deadline:
            raise TimeoutError(f"{url}: never finished loading")
        time.sleep(0.05)


@pytest.mark.parametrize("page, text", [
    ("", "Where to start"),
    ("tutorials/results-table/", "The results table of a paper"),
    ("reference/metrics/m2/", "maxmatch"),
    ("reference/cli/", "gecformats score"),
])
def test_pages_render_without_console_errors(browser: Any, served: str, page: str, text: str) -> None:
    rb.console_errors(browser)  # empty the log
    _open(browser, served + page)
    body = browser.find_element("css selector", "article").text
    assert text in body
    assert browser.find_element("css selector", "nav.md-nav")  # the theme's navigation
    assert rb.console_errors(browser) == []


def test_the_search_finds_m2(browser: Any, served: str) -> None:
    _open(browser, served)
    rb.console_errors(browser)
    box = browser.find_element("css selector", "input.md-search__input")
    browser.execute_script("arguments[0].focus()", box)
    box.send_keys("M2")
    deadline = time.perf_counter() + 30
    results: list[Any] = []
    while not results:
        if time.perf_counter() > deadline:
            pytest.fail("the search for 'M2' found nothing within 30 s")
        time.sleep(0.1)
        results = browser.find_elements("css selector", ".md-search-result__item")
    titles = " ".join(r.text for r in results)
    assert "M2" in titles
    assert rb.console_errors(browser) == []

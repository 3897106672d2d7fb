"""The HTML error-analysis report: one self-contained page (styles, script and data inline,
nothing fetched), rendered with Jinja2 from :mod:`gecformats.report.build`'s content.

The overview (the systems table and the per-type heatmap, an inline SVG with the counts in
each cell's ``<title>``) is plain HTML and works with JavaScript off; the sentences view is
drawn by the page's script from the JSON in ``<script type="application/json" id="data">``
(:func:`gecformats.report.build.payload`), only the blocks near the screen at a time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib import resources
from typing import Any

from gecformats.io import json_text
from gecformats.report.build import ReportData, build_report

CELL_WIDTH, CELL_HEIGHT, LABEL_WIDTH, HEAD_HEIGHT = 64, 22, 110, 90
"""The heatmap's geometry (SVG user units)."""


def _asset(name: str) -> str:
    return resources.files("gecformats.report").joinpath("templates", name).read_text("utf-8")


def data_json(payload: dict[str, Any]) -> str:
    """``payload`` as JSON that is safe inside a ``<script>`` element (no ``<`` at all, so
    neither ``</script>`` nor ``<!--`` can occur)."""
    text = json_text(payload, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def heatmap_svg_cells(heatmap: dict[str, Any], unit: str = "gold edits") -> dict[str, Any]:
    """The heatmap's geometry for the template: width, height, and per cell its position,
    fill, text and hover title (``unit``: what the counts count)."""
    systems, types = heatmap["systems"], heatmap["types"]
    cells = []
    for t, kind in enumerate(types):
        for s, system in enumerate(systems):
            matched, gold = heatmap["cells"][t][s]
            recall = matched / gold if gold else None
            cells.append({
                "x": LABEL_WIDTH + s * CELL_WIDTH, "y": HEAD_HEIGHT + t * CELL_HEIGHT,
                "fill": _colour(recall), "dark": recall is not None and recall > 0.55,
                "text": f"{matched}/{gold}", "type": t, "system": s,
                "title": f"{kind} · {system}: {matched} of {gold} {unit} matched"
                         + (f" (recall {recall:.2f})" if recall is not None else "")})
    return {"width": LABEL_WIDTH + len(systems) * CELL_WIDTH + 4,
            "height": HEAD_HEIGHT + len(types) * CELL_HEIGHT + 4, "cells": cells,
            "cell_width": CELL_WIDTH, "cell_height": CELL_HEIGHT, "label_width": LABEL_WIDTH,
            "head_height": HEAD_HEIGHT, "unit": unit, "legend": colour_legend()}


def colour_legend() -> list[tuple[str, str]]:
    """The heatmap's colour key, ``(label, fill)`` from :func:`_colour` itself: recall 0,
    0.5 and 1, and the grey of a type without gold edits."""
    return [(f"{r:g}", _colour(r)) for r in (0, 0.5, 1)] + [("none", _colour(None))]


def _colour(recall: float | None) -> str:
    """White (recall 0) to dark blue (recall 1); grey without gold edits."""
    if recall is None:
        return "#f3f3f3"
    low, high = (247, 251, 255), (8, 69, 148)
    r, g, b = (round(a + (z - a) * recall) for a, z in zip(low, high))
    return f"#{r:02x}{g:02x}{b:02x}"


def render_html(report: ReportData, title: str = "GEC error analysis",
                command: str | None = None) -> str:
    """The page of ``report``.

    Args:
        report: what :func:`~gecformats.report.build.build_report` gathered.
        title: the page's title.
        command: the command that made it (shown under the title).
    """
    import jinja2  # only the report needs it
    from markupsafe import Markup  # Jinja2's own dependency

    from gecformats import __version__

    env = jinja2.Environment(loader=jinja2.PackageLoader("gecformats.report", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    run = report.outcome.evaluation
    return env.get_template("report.html.j2").render(
        title=title, command=command, version=__version__, systems=list(run.names),
        sentences=run.sentences, table=report.table, heatmap=report.heatmap,
        svg=heatmap_svg_cells(report.heatmap), warnings=report.outcome.warnings,
        errant=report.errant_heatmap,
        errant_svg=heatmap_svg_cells(report.errant_heatmap, "reference edits")
        if report.errant_heatmap is not None else None,
        css=Markup(_asset("report.css")),
        script=Markup(_asset("report.js")),
        data=Markup(data_json(report.payload)))


def write_report(request: Any, output: str | os.PathLike[str], title: str | None = None,
                 command: str | None = None,
                 progress: Callable[[int], None] | None = None) -> ReportData:
    """Score ``request`` and write its report to ``output`` (whole or not at all).

    Args:
        request: a :class:`~gecformats.metrics.request.ScoreRequest`.
        output: the HTML file (``-``: standard output).
        title: the page's title (default: the gold's name).
        command: the command line shown on the page.
        progress: as for :func:`~gecformats.metrics.request.run_score`.

    Returns:
        The :class:`~gecformats.report.build.ReportData` written.

    Raises:
        GecFormatError, UsageError: as :func:`~gecformats.metrics.request.run_score`.
        OSError: ``output`` cannot be written.
    """
    from gecformats.io import atomic_output

    report = build_report(request, progress)
    page = render_html(report, title or f"GEC error analysis: {os.path.basename(request.gold)}",
                       command)
    with atomic_output(output) as fh:
        fh.write(page)
    return report

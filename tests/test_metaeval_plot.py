"""The SVG scatter plot (gecformats.metaeval.plot): well-formed XML whatever the names and
values, one labelled point per finite system, round ticks covering the data."""

from __future__ import annotations

import math

import pytest
from lxml import etree

from gecformats.metaeval.plot import nice_ticks, scatter_svg

SVG = "{http://www.w3.org/2000/svg}"


def _parse(text: str) -> etree._Element:
    assert text.startswith("<?xml")
    return etree.fromstring(text.encode("utf-8"))


def test_points_labels_ticks_and_titles() -> None:
    points = {"BART": (0.52, -0.23), "REF-F": (0.4, 0.679), "T5": (0.6, 0.097)}
    root = _parse(scatter_svg(points, x_label="M2 F0.5", y_label="TS (SEEDA-E)", title="base"))
    assert root.tag == f"{SVG}svg" and root.get("width") == "640"
    circles = root.findall(f".//{SVG}circle")
    assert len(circles) == 3
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    for expected in ("BART", "REF-F", "T5", "M2 F0.5", "TS (SEEDA-E)", "base", "0.4", "-0.2"):
        assert expected in texts
    # higher human score = higher on the page (smaller y); larger metric = further right
    at = {"".join(g.find(f"{SVG}text").itertext()): g.find(f"{SVG}circle")
          for g in root.iter(f"{SVG}g")}
    cy = {name: float(circle.get("cy")) for name, circle in at.items()}
    cx = {name: float(circle.get("cx")) for name, circle in at.items()}
    assert cy["REF-F"] < cy["T5"] < cy["BART"] and cx["REF-F"] < cx["BART"] < cx["T5"]
    for circle in circles:  # inside the frame
        assert 72 < float(circle.get("cx")) < 616 and 48 < float(circle.get("cy")) < 424


@pytest.mark.parametrize("points", [
    {}, {"only": (1.0, 1.0)}, {"nan": (math.nan, 1.0), "inf": (1.0, math.inf)},
    {"<&>\"'\x00\x1b\ud800": (0.0, 0.0), "\u2028b": (1e-300, -1e-300)},
    {"a": (-1e308, 1e308), "b": (1e308, -1e308)}, {"a": (5, 5), "b": (5, 5)},
])
def test_always_well_formed(points) -> None:
    root = _parse(scatter_svg(points, x_label="<x>\x01", y_label="&y", title="t\x00"))
    finite = [p for p in points.values() if all(math.isfinite(v) for v in p)]
    assert len(root.findall(f".//{SVG}circle")) == len(finite)


@pytest.mark.parametrize("low, high", [(0.13, 0.79), (-0.797, 0.679), (1e-300, 3e-300), (5.0, 5.0),
                                       (0.0, 0.0), (-3.2e6, 17.0), (0.4999, 0.5001)])
def test_nice_ticks_cover_the_range(low: float, high: float) -> None:
    ticks = nice_ticks(low, high)
    assert ticks == sorted(ticks) and len(set(ticks)) == len(ticks) >= 2
    assert ticks[0] <= low and ticks[-1] >= high
    assert len(ticks) <= 12
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert min(abs(mantissa - m) for m in (1, 2, 5, 10)) < 1e-6

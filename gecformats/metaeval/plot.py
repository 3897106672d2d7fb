"""A metric-against-human scatter plot as a self-contained SVG document (no plotting library).

One labelled point per system, axes with "nice" ticks (1, 2 or 5 times a power of ten), axis
labels and a title.  Every text is XML-escaped, so system names can be anything.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from xml.sax.saxutils import escape

from gecformats.errors import install_hint

WIDTH, HEIGHT = 640, 480
LEFT, RIGHT, TOP, BOTTOM = 72, 24, 48, 56
"""The figure's size and the margins around the plotting area (pixels)."""
GRID = "#e5e5e5"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` evenly spaced round tick values covering ``[low, high]``.

    Args:
        low, high: the data range (finite; ``low <= high``; an empty range is widened).
        count: the number of intervals wanted (at least 1).

    Returns:
        Ascending tick values, a multiple of 1, 2 or 5 times a power of ten apart, the first
        ``<= low`` and the last ``>= high``.
    """
    if high <= low:
        pad = abs(low) * 0.1 or 1.0
        low, high = low - pad, high + pad
    raw = (high - low) / max(count, 1)
    if not math.isfinite(raw) or raw <= 0 or not math.isfinite(low / raw):
        return [low, high]  # a range at the limits of floating point: no rounding
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    digits = max(0, 1 - math.floor(math.log10(step)))
    first = math.floor(low / step)
    last = math.ceil(high / step)
    return [round(k * step, digits) for k in range(first, last + 1)]


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    """``value`` escaped for XML, characters XML 1.0 cannot hold replaced by U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", value))


def _label(value: float) -> str:
    text = f"{value:.6g}"
    return "0" if text in ("-0", "0") else text


def _padded(values: list[float]) -> tuple[float, float]:
    """The range of ``values`` widened by 5 % on each side, so no point sits on the frame."""
    low, high = min(values), max(values)
    pad = (high - low) * 0.05
    return (low - pad, high + pad) if math.isfinite(pad) else (low, high)


def scatter_svg(points: Mapping[str, tuple[float, float]], *, x_label: str, y_label: str,
                title: str) -> str:
    """Draw a labelled scatter plot (e.g. metric score against human score) as SVG.

    Args:
        points: ``{label: (x, y)}``, one point per system; non-finite values are left out.
            Characters XML cannot hold are shown as U+FFFD.
        x_label: the horizontal axis' title (e.g. the metric).
        y_label: the vertical axis' title (e.g. ``"TrueSkill (SEEDA-E)"``).
        title: the figure's title.

    Returns:
        A complete SVG 1.1 document (a string starting ``<?xml``), 640 x 480 pixels, that
        parses as XML; with no finite point, the axes alone on the range [0, 1].
    """
    shown = {name: (float(x), float(y)) for name, (x, y) in points.items()
             if math.isfinite(x) and math.isfinite(y)}
    xs = [x for x, _ in shown.values()] or [0.0, 1.0]
    ys = [y for _, y in shown.values()] or [0.0, 1.0]
    x_ticks = nice_ticks(*_padded(xs))
    y_ticks = nice_ticks(*_padded(ys))
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x_ticks[0]) / (x_ticks[-1] - x_ticks[0]) * (right - LEFT)

    def py(y: float) -> float:
        return bottom - (y - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * (bottom - TOP)

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{WIDTH}" '
           f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" '
           'font-size="11">',
           f'<title>{_text(title)}</title>',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2:g}" y="24" text-anchor="middle" font-size="15">'
           f'{_text(title)}</text>']
    for x in x_ticks:
        out.append(f'<line x1="{px(x):.2f}" y1="{TOP}" x2="{px(x):.2f}" y2="{bottom}" '
                   f'stroke="{GRID}"/>')
        out.append(f'<text x="{px(x):.2f}" y="{bottom + 16}" text-anchor="middle">'
                   f'{_label(x)}</text>')
    for y in y_ticks:
        out.append(f'<line x1="{LEFT}" y1="{py(y):.2f}" x2="{right}" y2="{py(y):.2f}" '
                   f'stroke="{GRID}"/>')
        out.append(f'<text x="{LEFT - 6}" y="{py(y) + 4:.2f}" text-anchor="end">'
                   f'{_label(y)}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{right - LEFT}" height="{bottom - TOP}" '
               'fill="none" stroke="black"/>')
    out.append(f'<text x="{(LEFT + right) / 2:g}" y="{HEIGHT - 14}" text-anchor="middle" '
               f'font-size="13">{_text(x_label)}</text>')
    out.append(f'<text x="18" y="{(TOP + bottom) / 2:g}" text-anchor="middle" font-size="13" '
               f'transform="rotate(-90 18 {(TOP + bottom) / 2:g})">{_text(y_label)}</text>')
    for name, (x, y) in shown.items():
        # a label near the right edge goes to the left of its point, to stay inside
        anchor, dx = ("end", -6) if px(x) > LEFT + 0.75 * (right - LEFT) else ("start", 6)
        out.append(f'<g><title>{_text(name)}: ({_label(x)}, {_label(y)})</title>'
                   f'<circle cx="{px(x):.2f}" cy="{py(y):.2f}" r="4" fill="#1f77b4"/>'
                   f'<text x="{px(x) + dx:.2f}" y="{py(y) - 6:.2f}" text-anchor="{anchor}">'
                   f'{_text(name)}</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


PNG_EXTRA = install_hint("plot")
"""What ``--plot FILE.png`` needs (matplotlib); ``FILE.svg`` needs nothing."""


def scatter_png(points: Mapping[str, tuple[float, float]], *, x_label: str, y_label: str,
                title: str) -> bytes:
    """The scatter plot of :func:`scatter_svg` as a PNG image, drawn by matplotlib (the
    optional ``plot`` extra: PNG needs a rasteriser, which is not worth writing here).

    Args:
        points: ``{label: (x, y)}``, one point per system; non-finite values are left out.
        x_label, y_label, title: the axis labels and the title.

    Returns:
        The PNG file's bytes (640 × 480 pixels; no timestamp, so equal inputs give equal
        bytes).

    Raises:
        ImportError: matplotlib is not installed (the message says how to install it).
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(f"a PNG plot needs matplotlib: {PNG_EXTRA} (or write FILE.svg, "
                          "which needs nothing)") from None
    import io

    kept = {k: v for k, v in points.items() if all(math.isfinite(c) for c in v)}
    figure = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.scatter([x for x, _ in kept.values()], [y for _, y in kept.values()], s=18)
    for label, (x, y) in kept.items():
        axes.annotate(label, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.set_title(title)
    axes.grid(True, color=GRID)
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()

"""Several systems × several metrics as one table: text, JSON, TSV, CSV or LaTeX.

Written once for every metric: a column group per metric (its columns in its own order,
``P R F0.5`` for M2 and ERRANT, ``GLEU``, ``I`` …), with ``--ci`` the interval of the
metric's main column beside it (every column's interval in JSON, TSV and CSV), with a
paired test the p value against the first system (``base`` for the baseline), and the
signatures at the end.  JSON is keyed by system, then by metric.

>>> fmt_p(1 / 1001, 1000)
'<0.0010'
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import Any

from gecformats.io import json_text
from gecformats.metrics.base import Metric

FORMATS = ("text", "json", "tsv", "csv", "latex")
"""The table formats."""

_SHORT = {"precision": "P", "recall": "R", "gleu": "GLEU", "i": "I"}


def header(metric: Metric, column: str) -> str:
    """How a table heads ``column`` of ``metric``: ``P``, ``R``, ``F0.5``, ``GLEU`` …"""
    if column == "f":
        beta = getattr(metric, "beta", None)
        return f"F{beta:g}" if beta is not None else "F"
    return _SHORT.get(column, column)


def fmt_p(p: float, trials: int | None, decimals: int = 4, less: str = "<",
          at_most: str = "<=", bound: bool = False) -> str:
    """A p value rounded to ``decimals``, or a bound at the resampling floor or from it
    (:func:`gecformats.metrics.score.format_p_value`)."""
    from gecformats.metrics.score import format_p_value

    return format_p_value(p, trials, decimals, less, at_most, bound)


class Table:
    """The rows of a results table, built from an :class:`~gecformats.metrics.pipeline.Evaluation`
    and its :class:`~gecformats.metrics.statistics.Significance` per metric and system."""

    def __init__(self, evaluation: Any, significance: Sequence[Sequence[Any]] | None = None,
                 settings: Any = None) -> None:
        self.run = evaluation
        self.sig = significance
        self.settings = settings
        self.has_ci = bool(settings is not None and settings.ci)
        self.has_p = bool(settings is not None and settings.test is not None)
        floor = None
        if self.has_p:
            floor = settings.trials if settings.test == "paired-ar" else settings.resamples
        self.floor = floor

    def signatures(self) -> list[str]:
        """One signature per metric: its options, the hypotheses' pre-processing, the
        resampling."""
        out = []
        for m, metric in enumerate(self.run.metrics):
            # a metric whose signature depends on the system (ERRANT's hyp:m2 or
            # hyp:extracted-lcs) gives it per system; one line when they agree
            own = {t.extra.get("signature") for t in self.run.totals[m]}
            text = own.pop() if len(own) == 1 and None not in own else metric.signature()
            if self.run.preprocess:
                text += f"|hyp:{self.run.preprocess}"
            if getattr(self.run, "gold_origin", None):
                text += f"|gold:{self.run.gold_origin}"
            text += self.run.input_fields()
            if self.settings is not None and self.settings.active:
                text += f"|test:{self.settings.signature(len(self.run.paths))}"
            out.append(text)
        return out

    def qualifiers(self, m: int) -> list[str]:
        """What metric ``m``'s column heads say beside its label, where it changes what the
        columns mean: the metric's non-default settings (:meth:`Metric.qualifiers`), the
        extractor of text hypotheses' edits where gecformats made them (``lcs edits``: not
        the original's numbers) and of a gold made from text references (``gold lcs``)."""
        out = list(self.run.metrics[m].qualifiers())
        hyps = set()
        for t in self.run.totals[m]:
            fields = str(t.extra.get("signature", "")).split("|")
            hyps.update(f[4:] for f in fields if f.startswith("hyp:extracted-"))
        made = sorted(h[len("extracted-"):] for h in hyps if h in ("extracted-lcs",
                                                                    "extracted-native"))
        if made:
            out.append(f"{'/'.join(made)} edits")
        origin = getattr(self.run, "gold_origin", None)
        if origin and origin.startswith("extracted-"):
            out.append("gold " + origin[len("extracted-"):].split("-")[0])
        return out

    def title(self, m: int) -> str:
        """Metric ``m``'s label with its :meth:`qualifiers`: ``ERRANT (lcs edits)``."""
        qualifiers = self.qualifiers(m)
        label = self.run.metrics[m].label
        return f"{label} ({', '.join(qualifiers)})" if qualifiers else label

    def key(self, m: int) -> str:
        """Metric ``m``'s name in flat column names: ``errant``, ``errant-lcs-edits``."""
        return "-".join([self.run.metrics[m].name]
                        + [q.replace(" ", "-") for q in self.qualifiers(m)])

    def _p(self, m: int, s: int) -> float | None:
        return self.sig[m][s].p_value if self.sig is not None else None

    def _bound(self, m: int, s: int) -> bool:
        return bool(self.sig is not None and getattr(self.sig[m][s], "p_bound", False))

    def _ci(self, m: int, s: int) -> dict[str, tuple[float, float]] | None:
        return self.sig[m][s].ci if self.sig is not None else None

    # ------------------------------------------------------------------ formats

    def render(self, output_format: str = "text") -> str:
        """The table in ``output_format`` (one of :data:`FORMATS`), without a final newline.

        Raises:
            ValueError: an unknown format.
        """
        if output_format not in FORMATS:
            raise ValueError(f"unknown format {output_format!r} (known: {', '.join(FORMATS)})")
        return getattr(self, f"_{output_format}")()

    def to_dict(self) -> dict[str, Any]:
        """``{system: {metric: {column: value, …, counts…, "ci": …, "p_value": …,
        "signature": …}}}``."""
        out: dict[str, Any] = {}
        signatures = self.signatures()
        for s, name in enumerate(self.run.names):
            row: dict[str, Any] = {}
            for m, metric in enumerate(self.run.metrics):
                totals = self.run.totals[m][s]
                cell: dict[str, Any] = dict(zip(metric.columns, totals.values))
                cell.update(totals.counts)
                if "per_type" in totals.extra and hasattr(totals.extra["per_type"], "to_dict"):
                    cell["per_type"] = totals.extra["per_type"].to_dict()
                elif "categories" in totals.extra:
                    cell["categories"] = totals.extra["categories"]
                ci = self._ci(m, s)
                if ci is not None:
                    cell["ci"] = {c: list(v) for c, v in ci.items()}
                if self.has_p:
                    cell["p_value"] = self._p(m, s)
                    if self._bound(m, s):
                        cell["p_value_bound"] = True
                cell["signature"] = signatures[m] if "signature" not in totals.extra else \
                    signatures[m].replace(metric.signature(), totals.extra["signature"], 1)
                row[metric.name] = cell
            row["sentences"] = self.run.sentences
            out[name] = row
        return out

    def _json(self) -> str:
        return json_text(self.to_dict(), ensure_ascii=False, indent=2)

    def _cells(self, s: int) -> Iterator[tuple[str, str, Any, int]]:
        """System ``s``'s cells of the flat table (TSV, CSV, :meth:`records`) in column
        order: ``(column, kind, value, metric)``, kind ``value``, ``low``, ``high`` or ``p``
        (``None`` where there is nothing: no interval, the baseline's p)."""
        for m, metric in enumerate(self.run.metrics):
            key = self.key(m)
            for c, v in zip(metric.columns, self.run.totals[m][s].values):
                yield f"{key}_{header(metric, c)}", "value", v, m
            ci = self._ci(m, s) or {}
            for c in metric.columns if self.has_ci else ():
                low, high = ci.get(c, (None, None))
                yield f"{key}_{header(metric, c)}_low", "low", low, m
                yield f"{key}_{header(metric, c)}_high", "high", high, m
            if self.has_p:
                yield f"{key}_p_value", "p", self._p(m, s), m

    def records(self) -> list[dict[str, Any]]:
        """The flat table's rows as numbers, one dict per system: ``system`` and the TSV's
        and CSV's columns (``m2_P``, ``m2_F0.5_low``, ``m2_p_value`` …), in full precision,
        ``None`` where those print nothing."""
        return [{"system": name, **{c: v for c, _, v, _ in self._cells(s)}}
                for s, name in enumerate(self.run.names)]

    def _flat_rows(self) -> list[list[str]]:
        rows = [["system"] + [c for c, _, _, _ in self._cells(0)]]
        for s, name in enumerate(self.run.names):
            row = [name]
            for _, kind, v, m in self._cells(s):
                if v is None:
                    row.append("")
                elif kind == "p":
                    row.append(fmt_p(v, self.floor, bound=self._bound(m, s)))
                else:
                    row.append(f"{v:.4f}")
            rows.append(row)
        return rows

    def _tsv(self) -> str:
        lines = ["\t".join(r) for r in self._flat_rows()]
        return "\n".join(lines + [f"# {sig}" for sig in self.signatures()])

    def _csv(self) -> str:
        import csv  # only here: score's start-up stays small (tests/test_cli_layout.py)

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerows(self._flat_rows())
        return buffer.getvalue().rstrip("\n") + "".join(f"\n# {s}" for s in self.signatures())

    def groups(self, m: int) -> list[tuple[str, list[str]]]:
        """``(header, cells per system)`` of metric ``m``'s columns in a printed table."""
        metric = self.run.metrics[m]
        out: list[tuple[str, list[str]]] = []
        systems = range(len(self.run.names))
        for j, c in enumerate(metric.columns):
            out.append((header(metric, c), [f"{self.run.totals[m][s].values[j]:.4f}" for s in systems]))
            if self.has_ci and c == metric.main:
                cells = []
                for s in systems:
                    ci = self._ci(m, s)
                    cells.append(f"[{ci[c][0]:.4f}, {ci[c][1]:.4f}]" if ci and c in ci else "")
                out.append(("95% CI" if self.settings.level == 0.95
                            else f"{100 * self.settings.level:g}% CI", cells))
        if self.has_p:
            out.append(("p", ["base" if self._p(m, s) is None else
                              fmt_p(self._p(m, s), self.floor, bound=self._bound(m, s))
                              for s in systems]))
        return out

    def _text(self) -> str:
        names = self.run.names
        width = max([len("system"), *map(len, names)])
        top = [" " * width]
        head = [f"{'system':<{width}}"]
        body = [[f"{n:<{width}}"] for n in names]
        for m, metric in enumerate(self.run.metrics):
            groups = self.groups(m)
            widths = [max(len(h), *(len(c) for c in cells)) for h, cells in groups]
            span = sum(widths) + 2 * (len(widths) - 1)
            title = self.title(m)
            for k in range(len(title) - span):  # the group widens to its title, evenly
                widths[-1 - k % len(widths)] += 1
            span = max(span, len(title))
            top.append(f"{title:<{span}}")
            head.append("  ".join(f"{h:>{w}}" for (h, _), w in zip(groups, widths)))
            for s in range(len(names)):
                body[s].append("  ".join(f"{cells[s]:>{w}}" for (_, cells), w in zip(groups, widths)))
        lines = ["   ".join(top).rstrip(), "   ".join(head)] + ["   ".join(b) for b in body]
        lines += self._per_type_text()
        return "\n".join(lines + self.signatures())

    def _per_type_text(self) -> list[str]:
        out: list[str] = []
        for m, metric in enumerate(self.run.metrics):
            for s, name in enumerate(self.run.names):
                extra = self.run.totals[m][s].extra
                table = extra.get("per_type")
                if table is not None and hasattr(table, "format_text"):
                    out += ["", f"{name}, {self.title(m)} per type:", table.format_text()]
                elif extra.get("categories"):
                    from gecformats.metrics.errant import format_categories

                    out += ["", f"{name}, {self.title(m)} per category:",
                            format_categories(extra["categories"], getattr(metric, "beta", 0.5))]
        return out + ([""] if out else [])

    def _latex(self) -> str:
        groups = [self._latex_groups(m) for m in range(len(self.run.metrics))]
        spec = "l" + "".join("r" * len(g) for g in groups)
        tops = " & ".join(rf"\multicolumn{{{len(g)}}}{{c}}{{{tex(self.title(m))}}}"
                          for m, g in enumerate(groups))
        rules = "".join(rf"\cmidrule(lr){{{a}-{a + len(g) - 1}}}"
                        for g, a in zip(groups, _starts(groups)))
        heads = " & ".join(h for g in groups for h, _ in g)
        lines = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule", f" & {tops} \\\\", rules,
                 f"System & {heads} \\\\", r"\midrule"]
        for s, name in enumerate(self.run.names):
            cells = " & ".join(cells[s] for g in groups for _, cells in g)
            lines.append(f"{tex(name)} & {cells} \\\\")
        lines += [r"\bottomrule", r"\end{tabular}"] + latex_note(self.signatures())
        return "\n".join(lines)

    def _latex_groups(self, m: int) -> list[tuple[str, list[str]]]:
        metric = self.run.metrics[m]
        systems = range(len(self.run.names))
        out = []
        for j, c in enumerate(metric.columns):
            head = header(metric, c)
            head = f"$F_{{{head[1:]}}}$" if c == "f" else head
            cells = []
            for s in systems:
                value = f"{100 * self.run.totals[m][s].values[j]:.2f}"
                ci = self._ci(m, s) if c == metric.main else None
                if ci and c in ci:
                    value += rf" {{\scriptsize [{100 * ci[c][0]:.2f}, {100 * ci[c][1]:.2f}]}}"
                cells.append(value)
            out.append((head, cells))
        if self.has_p:
            out.append(("$p$", ["--" if self._p(m, s) is None else
                                fmt_p(self._p(m, s), self.floor, 3, "$<$", r"$\leq$", self._bound(m, s))
                                for s in systems]))
        return out


def latex_note(signatures: Sequence[str]) -> list[str]:
    """The lines that print ``signatures`` under a LaTeX table, as a visible note in small
    typewriter type (a signature may break after any ``|``), so that the table carries
    them into the paper."""
    if not signatures:
        return []
    return [r"\par\smallskip", r"{\footnotesize\ttfamily\raggedright"] + \
        [tex(s).replace("|", r"|\allowbreak{}") + r"\par" for s in signatures] + ["}"]


_TEX = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
        **{c: "\\" + c for c in "&%$#_{}"}}


def tex(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (each once).

    >>> print(tex("a_b {50%} ~"))
    a\\_b \\{50\\%\\} \\textasciitilde{}
    """
    return "".join(_TEX.get(c, c) for c in text)


def _starts(groups: Sequence[Sequence[Any]]) -> list[int]:
    starts, at = [], 2
    for g in groups:
        starts.append(at)
        at += len(g)
    return starts

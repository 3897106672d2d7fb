"""The outputs of ``gecformats meta-eval``: text, JSON, TSV and LaTeX.

The TSV is for scripts: one row per (metric, system set, human score) at the system level,
with the columns :data:`SYSTEM_COLUMNS` (``metric``, ``config``, ``human``, ``pearson``,
``spearman``, their interval bounds, then ``n`` and Kendall's τ); one row per (metric,
system set, judgment file) at the sentence level (:data:`SENTENCE_COLUMNS`).  Numbers are
written in full (Python's shortest round-trip form), an interval bound is empty without
resamples, and an undefined correlation is ``nan`` (``null`` in the JSON, which has no NaN:
:func:`gecformats.io.json_text`).  Where the human system scores come from
(``--human published|judgments``) is in every output: the TSV's ``human_source`` column, the
JSON's ``human_source``, a line of the text, a comment after the LaTeX table.
"""

from __future__ import annotations

import math
from typing import Any

from gecformats.io import json_text
from gecformats.metaeval.run import MetaEvalResult

SYSTEM_COLUMNS = ("metric", "config", "human", "pearson", "pearson_low", "pearson_high",
                  "spearman", "spearman_low", "spearman_high", "n", "kendall", "kendall_low",
                  "kendall_high", "human_source")
"""The system-level TSV header (``human_source``: ``published`` or ``judgments``, the
``--human`` choice)."""
SENTENCE_COLUMNS = ("metric", "config", "judgments", "ties", "accuracy", "tau", "pairs",
                    "concordant", "discordant", "ties_human_prefers_first",
                    "ties_human_prefers_second", "acc_tie_loss", "tau_tie_loss",
                    "acc_tie_skip", "tau_tie_skip", "acc_tie_neutral", "tau_tie_neutral",
                    "accuracy_low", "accuracy_high", "tau_low", "tau_high")
"""The sentence-level TSV header (the interval bounds, of ``accuracy`` and ``tau`` under
``ties``, empty without resamples)."""
FORMATS = ("text", "json", "tsv", "latex")


def render(result: MetaEvalResult, output_format: str = "text") -> str:
    """``result`` in ``output_format`` (:data:`FORMATS`), ending with a newline."""
    if output_format == "json":
        return json_text(to_json(result), ensure_ascii=False, indent=2) + "\n"
    if output_format == "tsv":
        return tsv(result)
    if output_format == "latex":
        return latex(result)
    return text(result)


def to_json(result: MetaEvalResult) -> dict[str, Any]:
    """The JSON object: the dataset, level, sentences, resamples and seed, per metric its
    signature and system scores, then ``system`` (correlations), ``comparisons``,
    ``windows`` and ``sentence`` (agreements), ``notes`` and ``warnings``."""
    request = result.request
    return {
        "dataset": result.dataset.name, "level": request.level,
        "subset": result.dataset.lines is not None, "sentences": result.sentences,
        "resamples": request.resamples,
        "seed": request.seed,
        "human_source": request.human if request.level == "system" else None,
        "metrics": [{"metric": s.name, "signature": s.signature, "scores": s.scores}
                    for s in result.scored],
        "system": [row.to_dict() for row in result.system],
        "comparisons": [c.to_dict() for c in result.comparisons],
        "windows": [w.to_dict() for w in result.windows],
        "sentence": [row.to_dict() for row in result.sentence],
        "notes": result.dataset.notes,
        "warnings": result.warnings,
    }


def _number(value: float) -> str:
    return repr(float(value)) if math.isfinite(value) else "nan"


def tsv(result: MetaEvalResult) -> str:
    """The TSV of the level asked for (header, then one row per result)."""
    if result.request.level == "sentence":
        lines = ["\t".join(SENTENCE_COLUMNS)]
        for row in result.sentence:
            d = row.to_dict()
            lines.append("\t".join("" if d[c] is None else _number(d[c])
                                   if isinstance(d[c], float) else str(d[c])
                                   for c in SENTENCE_COLUMNS))
        return "\n".join(lines) + "\n"
    lines = ["\t".join(SYSTEM_COLUMNS)]
    for row in result.system:
        fields = [row.metric, row.config, row.human]
        for name in ("pearson", "spearman", "kendall"):
            if name == "kendall":
                fields.append(str(len(row.systems)))
            fields.append(_number(row.values[name]))
            bounds = row.intervals[name] if row.intervals is not None else None
            fields += [_number(b) for b in bounds] if bounds is not None else ["", ""]
        fields.append(result.request.human)
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


def _span(bounds: tuple[float, float]) -> str:
    return "[" + ", ".join(f"{b:.3f}" if math.isfinite(b) else "n/a" for b in bounds) + "]"


def _cell(value: float, bounds: tuple[float, float] | None) -> str:
    if not math.isfinite(value):
        return "n/a"
    if bounds is None:
        return f"{value:.3f}"
    lo, hi = (f"{b:.2f}" if math.isfinite(b) else "n/a" for b in bounds)
    return f"{value:.3f} [{lo}, {hi}]"


def text(result: MetaEvalResult) -> str:
    """The tables for people: 3 decimals, intervals as ``[low, high]``."""
    request = result.request
    what = "subset" if result.dataset.lines is not None else "all sentences"
    lines = [f"{result.dataset.name}: {len(result.dataset.systems)} systems, "
             f"{result.sentences} sentences ({what})"]
    if request.level == "sentence":
        other = "skip" if request.ties == "loss" else "loss"
        ci = (f"; 95% intervals over {request.resamples} bootstrap resamples of the ranking "
              "items" if request.resamples else "")
        lines.append(f"sentence level, metric ties: {request.ties} (and {other} beside it){ci}")
        lines.append(f"{'metric':<12}{'config':<10}{'judgments':<10}{'acc':>7}{'tau':>8}"
                     f"{other + ' acc':>10}{'tau':>8}{'pairs':>8}{'C':>7}{'D':>7}{'T':>6}")
        for row in result.sentence:
            c = row.counts
            acc, tau = row.conventions.get(other, (math.nan, math.nan))
            lines.append(f"{row.metric:<12}{row.config:<10}{row.judgments:<10}"
                         f"{row.accuracy:>7.4f}{row.tau:>8.4f}{acc:>10.4f}{tau:>8.4f}"
                         f"{c.n:>8}{c.concordant:>7}{c.discordant:>7}"
                         f"{c.ties_first + c.ties_second:>6}"
                         + (f"  acc {_span(row.intervals['accuracy'])} tau "
                            f"{_span(row.intervals['tau'])}" if row.intervals else ""))
    else:
        ci = f", 95% bootstrap intervals over {request.resamples} resamples of the sentences"
        lines.append("system level: Pearson r, Spearman rho" + (ci if request.resamples else ""))
        lines.append(HUMAN_LINES[request.human])
        lines.append(f"{'metric':<12}{'config':<10}{'human':<9}{'n':>3}  {'r':<22}{'rho':<22}")
        for row in result.system:
            iv = row.intervals
            lines.append(f"{row.metric:<12}{row.config:<10}{row.human:<9}{len(row.systems):>3}  "
                         f"{_cell(row.values['pearson'], iv and iv['pearson']):<22}"
                         f"{_cell(row.values['spearman'], iv and iv['spearman']):<22}")
        if result.comparisons:
            lines += ["", "metric A vs B (difference of correlations; p: A is not better)",
                      f"{'A':<12}{'B':<12}{'config':<10}{'human':<9}{'coef':<9}"
                      f"{'A-B':>7} {'interval':<17}{'p boot':>8}{'p Williams':>11}"]
            for c in result.comparisons:
                span = ("" if c.interval is None
                        else f"[{c.interval[0]:.2f}, {c.interval[1]:.2f}]")
                boot = "" if c.p_bootstrap is None else f"{c.p_bootstrap:.3f}"
                lines.append(f"{c.first:<12}{c.second:<12}{c.config:<10}{c.human:<9}"
                             f"{c.coefficient:<9}{c.difference:>7.3f} {span:<17}{boot:>8}"
                             f"{c.p_williams:>11.3f}")
        if result.windows:
            lines += ["", "window analysis (systems ranked by the human score, best first)",
                      f"{'metric':<12}{'config':<10}{'human':<9}{'ranks':<8}{'r':>7}{'rho':>7}"]
            for w in result.windows:
                ranks = f"{w.start + 1}-{w.end + 1}"
                lines.append(f"{w.metric:<12}{w.config:<10}{w.human:<9}{ranks:<8}"
                             f"{w.pearson:>7.3f}{w.spearman:>7.3f}")
    lines += ["", *(f"{s.name}: {s.signature}" for s in result.scored)]
    lines += [f"note: {n}" for n in result.dataset.notes]
    return "\n".join(lines) + "\n"


HUMAN_LINES = {
    "published": "human scores: published (--human published)",
    "judgments": "human scores: computed from the judgments on each system set's systems "
                 "(--human judgments: Expected Wins; TrueSkill with every comparison once, in "
                 "file order, gec-metrics' parameters)"}
"""The text output's line saying where the human system scores come from."""


def latex(result: MetaEvalResult) -> str:
    """A LaTeX ``tabular``: per metric and system set, r and ρ (with intervals) for each
    human score (system level), or Acc and τ per judgment file (sentence level)."""
    request = result.request
    if request.level == "sentence":
        names = list(result.dataset.judgments)
        head = " & ".join(f"\\multicolumn{{2}}{{c}}{{{n}}}" for n in names)
        lines = [f"\\begin{{tabular}}{{ll{'rr' * len(names)}}}", "\\toprule",
                 f"Metric & Config & {head} \\\\",
                 "& & " + " & ".join(["Acc & $\\tau$"] * len(names)) + " \\\\", "\\midrule"]
        cells: dict[tuple[str, str], list[str]] = {}
        for row in result.sentence:
            cells.setdefault((row.metric, row.config), []).extend(
                [f"{row.accuracy:.3f}", f"{row.tau:.3f}"])
        for (metric, config), values in cells.items():
            lines.append(f"{_tex(metric)} & {_tex(config)} & {' & '.join(values)} \\\\")
        return "\n".join([*lines, "\\bottomrule", "\\end{tabular}"]) + "\n"
    humans = list(result.dataset.humans)
    head = " & ".join(f"\\multicolumn{{2}}{{c}}{{{_tex(h)}}}" for h in humans)
    lines = [f"\\begin{{tabular}}{{ll{'cc' * len(humans)}}}", "\\toprule",
             f"Metric & Config & {head} \\\\",
             "& & " + " & ".join(["$r$ & $\\rho$"] * len(humans)) + " \\\\", "\\midrule"]
    by_row: dict[tuple[str, str], list[str]] = {}
    for row in result.system:
        iv = row.intervals
        by_row.setdefault((row.metric, row.config), []).extend(
            _tex(_cell(row.values[c], iv and iv[c])) for c in ("pearson", "spearman"))
    for (metric, config), values in by_row.items():
        lines.append(f"{_tex(metric)} & {_tex(config)} & {' & '.join(values)} \\\\")
    return "\n".join([*lines, "\\bottomrule", "\\end{tabular}",
                      f"% {HUMAN_LINES[request.human]}"]) + "\n"


def _tex(value: str) -> str:
    return value.replace("_", "\\_").replace("&", "\\&").replace("%", "\\%")

"""What the HTML error-analysis report shows, computed from one scoring run (no HTML here).

The report is a ``score`` call (:func:`~gecformats.metrics.request.run_score`) whose M2
metric keeps, for every hypothesis, the edits of the exact M2 search and their credits
(``M2Metric(details=True)``) and the recall per gold type (``per_type``): the numbers are
the scorer's own, the same run gives the table, the heatmap and the sentences.

The sentences travel to the page as compact arrays (:func:`sentence_rows`); their layout
is :data:`LAYOUT`, which the page's script reads too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

LAYOUT = {
    "sentence": ["source", "gold", "systems"],
    "gold": ["annotator", "edits: [start, end, corrections joined by ||, type index]"],
    "system": ["hypothesis (0: the source unchanged)", "chosen annotator (index in gold, "
               "-1: none)", "correct", "proposed", "gold", "edits: [start, end, correction, "
               "credits]", "indices of the chosen annotator's credited gold edits"],
}
"""The layout of :func:`sentence_rows`' arrays (written into the page beside them)."""


@dataclass
class ReportData:
    """One report's content: the scoring outcome, the index of its M2 metric, the systems
    table, the heatmap and the per-sentence payload."""

    outcome: Any
    m2: int
    table: list[dict[str, Any]]
    heatmap: dict[str, Any]
    payload: dict[str, Any]
    errant_heatmap: dict[str, Any] | None = None
    """ERRANT's categories across systems when ``--metric errant --cat N`` was asked for
    (:func:`errant_heatmap`), else ``None``."""


def report_request(request: Any) -> Any:
    """``request`` with its M2 metric keeping details and per-type counts (M2 added first
    when not asked for: the sentences view is M2's).

    Raises:
        UsageError: an M2 metric with ``mode``/``bonus`` (the report shows the M2 score).
    """
    from gecformats.errors import UsageError
    from gecformats.metrics.m2 import M2Metric

    metrics = list(request.metrics)
    index = next((i for i, m in enumerate(metrics) if m.name == "m2"), None)
    if index is None:
        metrics.insert(0, M2Metric())
        index = 0
    m2 = metrics[index]
    if m2.mode != "correction" or m2.bonus:
        raise UsageError("the report shows the M2 score: no --mode or --bonus")
    metrics[index] = replace(m2, details=True, per_type=True)
    return replace(request, metrics=metrics, output_format="text")


def build_report(request: Any, progress: Callable[[int], None] | None = None) -> ReportData:
    """Score ``request`` (a :class:`~gecformats.metrics.request.ScoreRequest`) and gather
    what the report shows.

    Raises:
        GecFormatError, UsageError: as :func:`~gecformats.metrics.request.run_score`.
    """
    from gecformats.metrics.request import run_score

    request = report_request(request)
    outcome = run_score(request, progress)
    run = outcome.evaluation
    m2 = next(i for i, m in enumerate(run.metrics) if m.name == "m2")
    errant = next((i for i, m in enumerate(run.metrics)
                   if m.name == "errant" and m.cat is not None), None)
    return ReportData(outcome, m2, systems_table(run, outcome.significance, request.resampling),
                      heatmap(run, m2), payload(run, m2),
                      errant_heatmap(run, errant) if errant is not None else None)


def systems_table(run: Any, significance: Any, settings: Any) -> list[dict[str, Any]]:
    """Per metric, ``{"label", "headers", "rows"}``: the cells of ``score``'s text table
    (scores, intervals, p values), one row per system."""
    from gecformats.metrics.render import Table

    table = Table(run, significance, settings)
    signatures = table.signatures()
    out = []
    for m, metric in enumerate(run.metrics):
        groups = table.groups(m)
        out.append({"label": table.title(m), "headers": [h for h, _ in groups],
                    "rows": [[cells[s] for _, cells in groups] for s in range(len(run.names))],
                    "signature": signatures[m]})
    return out


def heatmap(run: Any, m: int) -> dict[str, Any]:
    """The per-type table across systems: ``{"types", "systems", "cells", "unmatched"}``
    with ``cells[t][s] = (matched, gold)`` of gold type ``t`` (the scorer's ``--per-type``
    counts) and ``unmatched[s]`` the proposed edits credited to no gold edit."""
    tables = [t.extra["per_type"] for t in run.totals[m]]
    totals: dict[str, int] = {}
    for table in tables:
        for kind, count in table.gold.items():
            totals[kind] = totals.get(kind, 0) + count
    types = sorted(totals, key=lambda k: (-totals[k], k))
    cells = [[(t.matched.get(kind, 0), t.gold.get(kind, 0)) for t in tables] for kind in types]
    return {"types": types, "systems": list(run.names), "cells": cells,
            "unmatched": [t.unmatched for t in tables]}


def errant_heatmap(run: Any, m: int) -> dict[str, Any]:
    """ERRANT's categories at the metric's ``--cat`` level across systems, in the shape of
    :func:`heatmap`: ``cells[t][s] = (tp, tp + fn)`` of category ``t`` (recall, as
    ``errant_compare -cat`` counts it) and ``unmatched[s]`` the system's false positives
    of every category; plus ``cat`` and ``fp`` (``fp[t][s]``)."""
    tables = [t.extra.get("categories", {}) for t in run.totals[m]]
    totals: dict[str, int] = {}
    for table in tables:
        for kind, (tp, _fp, fn) in table.items():
            totals[kind] = totals.get(kind, 0) + tp + fn
    types = sorted(totals, key=lambda k: (-totals[k], k))
    cells = [[(t.get(kind, (0, 0, 0))[0], t.get(kind, (0, 0, 0))[0] + t.get(kind, (0, 0, 0))[2])
              for t in tables] for kind in types]
    fp = [[t.get(kind, (0, 0, 0))[1] for t in tables] for kind in types]
    return {"types": types, "systems": list(run.names), "cells": cells, "fp": fp,
            "unmatched": [sum(v[1] for v in t.values()) for t in tables],
            "cat": run.metrics[m].cat}


def payload(run: Any, m: int) -> dict[str, Any]:
    """The data the page's script reads: systems, types, the M2 corpus counts, and every
    sentence as :data:`LAYOUT` arrays."""
    types: dict[str, int] = {}
    stats = run.stats[m]
    choices = [t.choices for t in run.totals[m]]
    sentences = [sentence_rows([s[i] for s in stats], [c[i] for c in choices], types)
                 for i in range(run.sentences)]
    totals = [[t.counts["correct"], t.counts["proposed"], t.counts["gold"]] for t in run.totals[m]]
    return {"systems": list(run.names), "types": list(types), "totals": totals,
            "layout": LAYOUT, "sentences": sentences,
            "links": [links(a) for a in getattr(run, "alignments", [])]}


def links(alignment: Any) -> dict[str, list[Any]]:
    """What ``score --align`` did to one system's lines, for the sentence cards: gold
    sentence index (a string, 0-based) → ``[what, first line, last line, the hypothesis
    lines]`` (1-based lines; :class:`~gecformats.convert.align.Link`) for every sentence
    of a link that is not one line for one sentence; empty for a system taken as it was."""
    if alignment is None:
        return {}
    out: dict[str, list[Any]] = {}
    for link in alignment.links:
        first, last = link.hypothesis_lines[0] + 1, link.hypothesis_lines[1]
        for i in range(*link.sentences):
            out[str(i)] = [link.what, first, last, list(link.hypothesis)]
    return out


def sentence_rows(stats: Sequence[Any], choices: Sequence[int], types: dict[str, int]
                  ) -> list[Any]:
    """One sentence for every system (its :class:`~gecformats.metrics.m2.M2Stats` with
    details and the scorer's choice) as :data:`LAYOUT` arrays; ``types`` collects the type
    names (name → index)."""
    from maxmatch import shrink_edit

    first = stats[0].details
    source = " ".join(first.source)
    gold = []
    for side, edits, kinds in zip(first.annotators, first.gold, first.types):
        gold.append([side.annotator, [[s, e, "||".join(c), types.setdefault(k, len(types))]
                                      for (s, e, c), k in zip(edits, kinds)]])
    systems = []
    for st, k in zip(stats, choices):
        d = st.details
        hyp: Any = 0 if d.hypothesis == source else d.hypothesis
        if k < 0:
            systems.append([hyp, -1, 0, 0, 0, [], []])
            continue
        side = d.annotators[k]
        edits = [[start, end, corr, n] for (start, end, _, corr), n
                 in zip(map(shrink_edit, side.edits), side.credits)]
        matched = [i for i, hit in enumerate(side.matched) if hit]
        systems.append([hyp, k, *st.counts[k], edits, matched])
    return [source, gold, systems]


def corpus_counts(data: dict[str, Any]) -> list[tuple[int, int, int]]:
    """Per system, the ``(correct, proposed, gold)`` summed over the payload's sentences
    (equal to the corpus counts of ``data["totals"]``; the tests check both)."""
    out = []
    for s in range(len(data["systems"])):
        rows = [sent[2][s] for sent in data["sentences"]]
        out.append((sum(r[2] for r in rows), sum(r[3] for r in rows), sum(r[4] for r in rows)))
    return out

"""``gecformats explain``'s outputs: the settings nearest to each claim (with the command
that reproduces each), the sensitivity table, as text or JSON.

Settings with the same score are shown once, by the simplest of them (the fewest factors
changed), with how many others give it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from gecformats.explain.search import Explanation, Outcome
from gecformats.explain.settings import command, describe, to_json

TOP = 10
"""Distinct scores shown per claim unless told otherwise."""


def groups(explanation: Explanation, system: int, top: int = TOP
           ) -> list[tuple[Outcome, int]]:
    """The outcomes nearest to system ``system``'s claim, one per distinct score (the
    first in :meth:`Explanation.ranked` order), with how many others share it; at most
    ``top`` (0: all)."""
    out: list[tuple[Outcome, int]] = []
    seen: dict[float, int] = {}
    for outcome in explanation.ranked(system):
        key = round(outcome.scores[system], 12)
        if key in seen:
            first, count = out[seen[key]]
            out[seen[key]] = (first, count + 1)
            continue
        seen[key] = len(out)
        out.append((outcome, 0))
    return out[:top] if top else out


def _command(e: Explanation, outcome: Outcome, systems: Sequence[int]) -> str:
    paths = [e.paths[s] for s in systems]
    detok = [e.detokenized[s] for s in systems] if e.detokenized else None
    return command(outcome.setting, paths, e.gold, e.metric, detok)


def _decimals(e: Explanation) -> int:
    """Decimals to print: 4, or as many as the most precise claim (as a fraction)."""
    return max([4] + [c.decimals + 2 * c.percent for c in e.claims if c is not None])


def _reordered(e: Explanation, outcome: Outcome) -> int:
    """Pairs of systems whose order the setting swaps against the defaults (ties in
    either do not count)."""
    base, new = e.default.scores, outcome.scores
    n = len(base)
    return sum((base[i] - base[j]) * (new[i] - new[j]) < 0
               for i in range(n) for j in range(i + 1, n))


# ------------------------------------------------------------------ text


def format_text(e: Explanation, top: int = TOP) -> str:
    """The explanation as text: per claim the nearest settings, then the sensitivity
    table and what was not tried."""
    d = _decimals(e)
    lines = [f"{e.label} of {_systems(e)} against {os.path.basename(e.gold)}"]
    claimed = [s for s, c in enumerate(e.claims) if c is not None]
    if len(e.names) == 1:
        if claimed:
            lines += _one_claim(e, 0, top, d)
    elif claimed:
        lines += _claim_table(e, claimed, d)
    lines += [""] + _sensitivity(e, d)
    if e.left_out:
        lines += ["", "Not tried:"] + [f"  {note}" for note in e.left_out]
    lines += ["", f"{len(e.outcomes)} settings scored from {e.runs} runs of the pipeline "
                  "(the others shared their statistics)."]
    return "\n".join(lines)


def _systems(e: Explanation) -> str:
    return e.names[0] if len(e.names) == 1 else f"{len(e.names)} systems"


def _one_claim(e: Explanation, system: int, top: int, d: int) -> list[str]:
    claim = e.claims[system]
    assert claim is not None
    default = e.default.scores[system]
    lines = [f"claim {claim.reading()}; a score within {claim.tolerance:.{d + 1}f} matches",
             f"gecformats' defaults give {default:.{d}f} ({abs(default - claim.value):.{d}f} "
             "from the claim)", "",
             f"{'rank':>4}  {'score':<{d + 3}} {'distance':<{d + 4}} settings"]
    shown = groups(e, system, top)
    for rank, (outcome, others) in enumerate(shown, 1):
        score = outcome.scores[system]
        mark = "  MATCH" if claim.matches(score) else ""
        lines.append(f"{rank:>4}  {score:<{d + 3}.{d}f} {abs(score - claim.value):<{d + 4}.{d}f} "
                     f"{describe(outcome.setting, e.auto)}{mark}")
        if others:
            lines.append(f"{'':>6}(and {others} other setting{'s' * (others != 1)} with this "
                         "score)")
        lines.append(f"{'':>6}$ {_command(e, outcome, [system])}")
    if not any(claim.matches(o.scores[system]) for o in e.outcomes):
        lines += ["", f"No setting tried explains the claim {claim.text}: the nearest are "
                      "above."]
    return lines


def _claim_table(e: Explanation, claimed: list[int], d: int) -> list[str]:
    width = max(len(e.names[s]) for s in claimed + [0])
    percent = any(c is not None and c.percent for c in e.claims)
    lines = [f"{len(claimed)} claims, read as percentages (a value above 1), shown as "
             "fractions" if percent else f"{len(claimed)} claims, read as fractions"]
    lines += ["", f"{'system':<{width}}  {'claim':<{d + 3}} {'default':<{d + 3}} "
                 f"{'nearest':<{d + 3}} setting"]
    for s in claimed:
        claim = e.claims[s]
        assert claim is not None
        best = e.ranked(s)[0]
        mark = "  MATCH" if claim.matches(best.scores[s]) else ""
        lines.append(f"{e.names[s]:<{width}}  {claim.value:<{d + 3}.{d}f} "
                     f"{e.default.scores[s]:<{d + 3}.{d}f} {best.scores[s]:<{d + 3}.{d}f} "
                     f"{describe(best.setting, e.auto)}{mark}")
    most = e.explains_most()
    if most is not None:
        outcome, hits = most
        lines += ["", f"The setting that explains the most rows: {describe(outcome.setting, e.auto)}"
                      f" ({hits} of {len(claimed)} claims within rounding)",
                  f"  $ {_command(e, outcome, claimed)}"]
        if not hits:
            lines.append("  No setting tried explains any row within rounding: that one is "
                         "the nearest overall.")
    return lines


def _sensitivity(e: Explanation, d: int) -> list[str]:
    singles = e.singles()
    rows = [(describe(o.setting, e.auto), o) for o in singles]
    width = min(max([len(r[0]) for r in rows] + [7]), 72)
    if len(e.names) == 1:
        base = e.default.scores[0]
        lines = [f"Sensitivity: each factor alone, against the defaults' {base:.{d}f}",
                 f"{'setting':<{width}}  {'score':<{d + 3}} change"]
        for words, o in rows:
            lines.append(f"{_cut(words, width):<{width}}  {o.scores[0]:<{d + 3}.{d}f} "
                         f"{o.scores[0] - base:+.{d}f}")
        return lines
    lines = [f"Sensitivity: each factor alone, the change over the {len(e.names)} systems "
             "(and the pairs of systems it reorders)",
             f"{'setting':<{width}}  {'min':<{d + 4}} {'max':<{d + 4}} {'mean |Δ|':<{d + 3}} "
             "reordered"]
    for words, o in rows:
        changes = [x - b for x, b in zip(o.scores, e.default.scores)]
        mean = sum(abs(c) for c in changes) / len(changes)
        lines.append(f"{_cut(words, width):<{width}}  {min(changes):<+{d + 4}.{d}f} "
                     f"{max(changes):<+{d + 4}.{d}f} {mean:<{d + 3}.{d}f} {_reordered(e, o)}")
    return lines


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


# ------------------------------------------------------------------ JSON


def to_dict(e: Explanation, top: int = TOP) -> dict[str, Any]:
    """The explanation as JSON data.  One system: ``{"system", "claim", "default",
    "candidates": [{"score", "distance", "match", "settings", "description", "command",
    "others"}], "sensitivity": [{"score", "change", "settings", "description",
    "command"}], …}``; several: ``"rows"`` (per system its claim, default and
    candidates), ``"explains_most"`` and per-system ``scores``/``changes`` in the
    sensitivity rows."""
    out: dict[str, Any] = {"metric": e.metric, "column": e.column, "gold": e.gold}
    rows = []
    for s, name in enumerate(e.names):
        claim = e.claims[s]
        row: dict[str, Any] = {"system": name, "claim": claim.to_dict() if claim else None,
                               "default": e.default.scores[s], "candidates": []}
        if claim is not None:
            row["candidates"] = [_candidate(e, o, n, s) for o, n in groups(e, s, top)]
            row["match"] = any(claim.matches(o.scores[s]) for o in e.outcomes)
        rows.append(row)
    if len(e.names) == 1:
        out.update(rows[0])
        base = e.default.scores[0]
        out["sensitivity"] = [{"score": o.scores[0], "change": o.scores[0] - base,
                               **_setting(e, o, [0])} for o in e.singles()]
    else:
        out["rows"] = rows
        most = e.explains_most()
        out["explains_most"] = None if most is None else {
            "matches": most[1], "claims": sum(c is not None for c in e.claims),
            **_setting(e, most[0], [s for s, c in enumerate(e.claims) if c is not None])}
        out["sensitivity"] = [{
            "scores": dict(zip(e.names, o.scores)),
            "changes": {n: x - b for n, x, b in zip(e.names, o.scores, e.default.scores)},
            "reordered": _reordered(e, o), **_setting(e, o, range(len(e.names)))}
            for o in e.singles()]
    out.update(left_out=e.left_out, settings=len(e.outcomes), runs=e.runs)
    return out


def _setting(e: Explanation, outcome: Outcome, systems: Sequence[int]) -> dict[str, Any]:
    return {"settings": to_json(outcome.setting), "description": describe(outcome.setting, e.auto),
            "command": _command(e, outcome, list(systems))}


def _candidate(e: Explanation, outcome: Outcome, others: int, system: int) -> dict[str, Any]:
    claim = e.claims[system]
    assert claim is not None
    score = outcome.scores[system]
    return {"score": score, "distance": abs(score - claim.value), "match": claim.matches(score),
            **_setting(e, outcome, [system]), "others": others}

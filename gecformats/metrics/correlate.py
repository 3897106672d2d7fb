"""Meta-evaluation: how well a metric's system scores agree with a human ranking.

A scores file gives one value per system (``NAME VALUE`` per line, or the JSON of
``gecformats gleu --format json``); :func:`read_scores` reads it and :func:`correlate`
aligns two of them by system name and computes Pearson's r, Spearman's ρ and Kendall's τ-b
(the values scipy.stats gives).  Values marked as ranks (a header ``system<TAB>rank``;
rank 1 is best) are negated first, so a positive correlation always means that the metric
agrees with the humans.

>>> import io
>>> human = read_scores(io.StringIO("system\\trank\\nA\\t1\\nB\\t2\\nC\\t3\\nD\\t4\\n"))
>>> human.ranks, human.values
(True, {'A': 1.0, 'B': 2.0, 'C': 3.0, 'D': 4.0})
>>> result = correlate({"A": 0.64, "B": 0.58, "C": 0.61, "D": 0.50}, human)
>>> round(result.pearson, 3), result.spearman, round(result.kendall, 3)
(0.836, 0.8, 0.667)
>>> correlate({"A": 0.64, "B": 0.58, "C": 0.61, "D": 0.50}, human, exclude=["B"]).spearman
1.0
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from gecformats.errors import GecFormatError
from gecformats.io import Source, numbered_lines, source_name

RANK_HEADERS = ("rank", "ranks")
"""Second header fields (compared case-insensitively) that mark the values as ranks."""


@dataclass(frozen=True, slots=True)
class Scores:
    """One value per system, as read from a scores file.

    Attributes:
        values: system name → value, in file order.
        ranks: the values are ranks (lower is better, 1 = best) rather than scores
            (higher is better).
        file: the file's name as given (``"<stdin>"`` for standard input), used in messages.
    """

    values: dict[str, float] = field(default_factory=dict)
    ranks: bool = False
    file: str = "<scores>"


@dataclass(frozen=True, slots=True)
class Correlation:
    """The agreement of a metric with human judgements over ``n`` systems.

    Attributes:
        n: number of systems compared.
        pearson: Pearson's r of the values.
        spearman: Spearman's ρ (Pearson's r of average ranks).
        kendall: Kendall's τ-b (tie-corrected).
        systems: the systems compared, in the metric file's order.
        excluded: the systems left out on request, in the order given.
    """

    n: int
    pearson: float
    spearman: float
    kendall: float
    systems: tuple[str, ...]
    excluded: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``n``, ``pearson``, ``spearman``, ``kendall``, ``systems``
        and ``excluded`` (both lists)."""
        return {"n": self.n, "pearson": self.pearson, "spearman": self.spearman,
                "kendall": self.kendall, "systems": list(self.systems),
                "excluded": list(self.excluded)}


ScoresLike = Union[Scores, Mapping[str, float]]
"""What :func:`correlate` accepts: a :class:`Scores` or a plain name → value mapping."""


# --- reading -------------------------------------------------------------------------------


def read_scores(source: Source) -> Scores:
    """Read one value per system from ``source``.

    Text format (UTF-8; ``.gz`` and ``-`` for standard input work): blank lines and lines
    starting with ``#`` are ignored; a line's fields are split on TAB, or on runs of white
    space when the line has no TAB; field 1 is the system name, field 2 its value, further
    fields are ignored.  The first non-comment line is a header when its second field is
    not a number; a header whose second field is ``rank`` (or ``ranks``, in any case)
    marks the values as ranks.  If the first non-space character of the input is ``{`` it
    is read as the JSON of ``gecformats gleu --format json``:
    ``{"results": [{"system": NAME, "score": VALUE, ...}, ...]}`` (an entry without
    ``"system"`` is named by the base name of its ``"hypothesis"``).

    Args:
        source: a path or an open file.

    Returns:
        The :class:`Scores`, systems in file order.

    Raises:
        GecFormatError: with file and line: a line with fewer than 2 fields, a value that
            is not a finite number, a system listed twice, no systems at all, malformed JSON.
        OSError: the file cannot be opened.
    """
    name = source_name(source)
    lines = list(numbered_lines(source))
    first = next((text for _, text in lines if text.strip()), "")
    if first.lstrip().startswith("{"):
        return _read_json(lines, name)
    values: dict[str, float] = {}
    first_line: dict[str, int] = {}
    ranks = False
    seen_data = False
    for number, text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = [f.strip() for f in text.split("\t")] if "\t" in text else stripped.split()
        if len(fields) < 2:
            raise GecFormatError(f"expected 'SYSTEM VALUE', found {len(fields)} field", name, number)
        system, raw = fields[0], fields[1]
        value = _number(raw)
        if not seen_data:
            seen_data = True
            if value is None:  # the header
                ranks = raw.lower() in RANK_HEADERS
                continue
        if value is None or not math.isfinite(value):
            raise GecFormatError(f"the value of {system or 'a system'} is not a finite number: "
                                 f"{raw!r}", name, number)
        if not system:
            raise GecFormatError("empty system name", name, number)
        if system in first_line:
            raise GecFormatError(f"system {system} is listed twice (first on line "
                                 f"{first_line[system]})", name, number)
        first_line[system] = number
        values[system] = value
    if not values:
        raise GecFormatError("no systems (expected lines 'SYSTEM VALUE')", name)
    return Scores(values, ranks, name)


def _number(text: str) -> float | None:
    """``text`` as a float, or ``None`` when it is not a number at all."""
    try:
        return float(text)
    except ValueError:
        return None


def _read_json(lines: list[tuple[int, str]], name: str) -> Scores:
    """The scores of the JSON output of ``gecformats gleu``."""
    try:
        data = json.loads("\n".join(text for _, text in lines))
    except json.JSONDecodeError as exc:
        raise GecFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})", name, exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # an over-long integer, nesting too deep
        raise GecFormatError(f"not valid JSON: {exc}", name) from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise GecFormatError('expected a JSON object with a "results" list '
                             "(the output of gecformats gleu --format json)", name)
    values: dict[str, float] = {}
    first_entry: dict[str, int] = {}
    for number, entry in enumerate(results, 1):
        where = f'"results" entry {number}'
        if not isinstance(entry, dict):
            raise GecFormatError(f"{where} is not an object", name)
        system = entry.get("system")
        if system is None and isinstance(entry.get("hypothesis"), str):
            system = os.path.basename(entry["hypothesis"])
        if not isinstance(system, str) or not system:
            raise GecFormatError(f'{where} has no "system" (or "hypothesis") name', name)
        score = entry.get("score")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise GecFormatError(f'{where} ({system}): "score" is not a finite number: {score!r}', name)
        if system in first_entry:
            raise GecFormatError(f"{where}: system {system} is listed twice (first in entry "
                                 f"{first_entry[system]})", name)
        first_entry[system] = number
        values[system] = float(score)
    if not values:
        raise GecFormatError('no systems (the "results" list is empty)', name)
    return Scores(values, False, name)


# --- coefficients --------------------------------------------------------------------------


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's product-moment correlation r of ``x`` and ``y``.

    Two passes: the values are centred on their mean and scaled by a power of two (exact;
    no overflow or underflow); then ``r = Sxy / sqrt(Sxx * Syy)`` with correctly rounded sums
    (:func:`math.fsum`), clipped to [-1, 1].  Exact when the deviations are small integers
    or halves (as ranks are), so identical rankings give exactly 1.0.

    Args:
        x, y: finite values, of equal length.

    Returns:
        r, in [-1, 1].

    Raises:
        ValueError: lengths differ, fewer than 2 values, a value is not finite, or a
            sequence is constant (r is undefined).
    """
    xs, ys = _check(x, y, "pearson")
    dx, dy = _scaled_deviations(xs), _scaled_deviations(ys)
    sxy = math.fsum(a * b for a, b in zip(dx, dy))
    sxx = math.fsum(a * a for a in dx)
    syy = math.fsum(b * b for b in dy)
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation ρ: Pearson's r of the ranks, ties given the mean of the
    ranks they span (as ``scipy.stats.spearmanr``).

    Args:
        x, y: finite values, of equal length.

    Returns:
        ρ, in [-1, 1].

    Raises:
        ValueError: lengths differ, fewer than 2 values, a value is not finite, or a
            sequence is constant (ρ is undefined).
    """
    xs, ys = _check(x, y, "spearman")
    return pearson(average_ranks(xs), average_ranks(ys))


def kendall(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b: ``(C - D) / sqrt((C + D + Tx) * (C + D + Ty))`` over all pairs, where
    C and D count concordant and discordant pairs and Tx (Ty) the pairs tied in x only
    (y only); pairs tied in both count nowhere (as ``scipy.stats.kendalltau``'s default).

    The counts are exact integers (O(n²) pairs: meant for tens of systems, not millions).

    Args:
        x, y: finite values, of equal length.

    Returns:
        τ-b, in [-1, 1].

    Raises:
        ValueError: lengths differ, fewer than 2 values, a value is not finite, or a
            sequence is constant (τ is undefined).
    """
    xs, ys = _check(x, y, "kendall")
    balance = 0  # concordant - discordant
    untied_x = untied_y = 0  # pairs not tied in x, not tied in y
    n = len(xs)
    for i in range(n):
        xi, yi = xs[i], ys[i]
        for j in range(i + 1, n):
            sx = (xs[j] > xi) - (xs[j] < xi)
            sy = (ys[j] > yi) - (ys[j] < yi)
            balance += sx * sy
            untied_x += sx != 0
            untied_y += sy != 0
    tau = balance / math.sqrt(untied_x * untied_y)
    return max(-1.0, min(1.0, tau))


def average_ranks(values: Sequence[float]) -> list[float]:
    """The 1-based ranks of ``values`` (smallest first), ties given the mean of the ranks
    they span, like ``scipy.stats.rankdata(method="average")``.

    >>> average_ranks([0.3, 0.1, 0.3, 0.2])
    [3.5, 1.0, 3.5, 2.0]
    """
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        rank = (start + end + 2) / 2  # mean of the 1-based ranks start+1 .. end+1
        for k in range(start, end + 1):
            ranks[order[k]] = rank
        start = end + 1
    return ranks


def _check(x: Sequence[float], y: Sequence[float], what: str) -> tuple[list[float], list[float]]:
    """``x`` and ``y`` as float lists, or ValueError when ``what`` is undefined for them."""
    xs, ys = [float(v) for v in x], [float(v) for v in y]
    if len(xs) != len(ys):
        raise ValueError(f"{what}: sequences of different lengths ({len(xs)} and {len(ys)})")
    if len(xs) < 2:
        raise ValueError(f"{what}: needs at least 2 values, got {len(xs)}")
    for values in (xs, ys):
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"{what}: values must be finite numbers")
        if all(v == values[0] for v in values):
            raise ValueError(f"{what}: undefined for a constant sequence")
    return xs, ys


def _scaled_deviations(values: list[float]) -> list[float]:
    """The deviations of ``values`` from their mean, scaled by the power of two that brings
    the largest into [0.5, 1) (exactly: only the exponents change)."""
    _, exponent = math.frexp(max(abs(v) for v in values))
    if exponent > 512:  # huge values: bring them down first, so that sums cannot overflow
        values = [math.ldexp(v, -exponent) for v in values]
    mean = math.fsum(values) / len(values)
    deviations = [v - mean for v in values]
    _, exponent = math.frexp(max(abs(d) for d in deviations))  # > 0: not all equal
    return [math.ldexp(d, -exponent) for d in deviations]


# --- alignment -----------------------------------------------------------------------------


def correlate(metric: ScoresLike, human: ScoresLike, *, exclude: Iterable[str] = ()) -> Correlation:
    """Correlate a metric's system scores with human judgements of the same systems.

    Systems are aligned by name.  Values of a :class:`Scores` with ``ranks=True`` are
    negated first (rank 1 = best), so a positive correlation means that the metric agrees
    with the humans.

    Args:
        metric: the metric's values (a :class:`Scores` or a name → value mapping).
        human: the human values or ranks.
        exclude: systems to leave out of both (e.g. ``["INPUT"]``, the unchanged source).

    Returns:
        The :class:`Correlation` over the systems of both, in the metric's order.

    Raises:
        GecFormatError: a system to exclude is in neither; a system is in only one of
            the two (after exclusion); fewer than 3 systems; all values of one side are
            equal (the correlation is undefined).
    """
    metric_values, metric_name = _values(metric, "metric scores")
    human_values, human_name = _values(human, "human scores")
    excluded = tuple(dict.fromkeys(exclude))
    for name in excluded:
        if name not in metric_values and name not in human_values:
            raise GecFormatError(f"cannot exclude {name}: it is neither in {metric_name} nor in "
                                 f"{human_name}")
    dropped = set(excluded)
    systems = tuple(s for s in metric_values if s not in dropped)
    human_systems = [s for s in human_values if s not in dropped]
    only_metric = [s for s in systems if s not in human_values]
    only_human = [s for s in human_systems if s not in metric_values]
    for missing, holder, lacker in ((only_metric, metric_name, human_name),
                                    (only_human, human_name, metric_name)):
        if missing:
            raise GecFormatError(f"no value for {_plural(len(missing), 'system')} "
                                 f"{', '.join(missing)} (listed in {holder}); give values for "
                                 "the same systems, or --exclude them", lacker)
    if len(systems) < 3:
        raise GecFormatError(f"need at least 3 systems to correlate, got {len(systems)}"
                             + (f" ({', '.join(systems)})" if systems else ""))
    xs = [metric_values[s] for s in systems]
    ys = [human_values[s] for s in systems]
    for values, name in ((xs, metric_name), (ys, human_name)):
        if all(v == values[0] for v in values):
            raise GecFormatError(f"the correlation is undefined because all values in {name} "
                                 f"are equal ({len(values)} systems compared)")
    return Correlation(n=len(systems), pearson=pearson(xs, ys), spearman=spearman(xs, ys),
                       kendall=kendall(xs, ys), systems=systems, excluded=excluded)


def _values(scores: ScoresLike, default_name: str) -> tuple[dict[str, float], str]:
    """Name → value (ranks negated) and the name to use in messages."""
    if isinstance(scores, Scores):
        sign = -1.0 if scores.ranks else 1.0
        return {k: sign * v for k, v in scores.values.items()}, scores.file
    return {k: float(v) for k, v in scores.items()}, default_name


def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


# ------------------------------------------------------------------------- rendering


def format_table(result: Correlation, everything: Correlation | None = None,
                 excluded: Sequence[str] = ()) -> str:
    """The correlations as a table for people (3 decimals): a row for all systems when
    ``everything`` is given, then the row of ``result`` (labelled by what was excluded)."""
    rows = [("all", everything)] if everything is not None else []
    rows.append((f"without {', '.join(excluded)}" if excluded else "all", result))
    width = max(22, *(len(label) + 2 for label, _ in rows))
    lines = [f"{'systems':<{width}}{'n':>3}{'pearson':>9}{'spearman':>10}{'kendall':>9}"]
    for label, row in rows:
        assert row is not None
        lines.append(f"{label:<{width}}{row.n:>3}{row.pearson:>9.3f}{row.spearman:>10.3f}"
                     f"{row.kendall:>9.3f}")
    return "\n".join(lines)


def correlation_json(result: Correlation, everything: Correlation | None = None) -> dict[str, Any]:
    """The JSON object of ``gecformats correlate --format json``: ``result``'s fields, and under
    ``all`` the coefficients over every system when ``everything`` is given."""
    data = result.to_dict()
    if everything is not None:
        data["all"] = {k: v for k, v in everything.to_dict().items()
                       if k in ("n", "pearson", "spearman", "kendall")}
    return data

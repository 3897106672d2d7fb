"""Meta-evaluation: how well a metric's system scores agree with a human ranking.

A scores file gives values per system (``NAME VALUE`` per line, or what ``gecformats
score``, ``gleu`` and ``imeasure`` write: text, TSV, JSON); :func:`read_scores` reads one
column of it (by name, by default the metric's main score) and :func:`correlate`
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
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from gecformats.errors import GecFormatError, UsageError
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
        column: the name of the column (or JSON key) the values were read from, e.g.
            ``F0.5``, ``rank``, ``column 2`` (``None`` when not read from a file).
    """

    values: dict[str, float] = field(default_factory=dict)
    ranks: bool = False
    file: str = "<scores>"
    column: str | None = None


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


def read_scores(source: Source, column: str | None = None, *,
                option: str = "--column") -> Scores:
    """Read one value per system from ``source``: what ``gecformats score``, ``gleu`` and
    ``imeasure`` write (text, TSV or JSON), or a hand-made ``SYSTEM VALUE`` list.

    Text format (UTF-8; ``.gz`` and ``-`` for standard input work): blank lines and lines
    starting with ``#`` are ignored (but a signature line ``# metric:NAME|...``, or
    ``metric:NAME|...`` ending ``score``'s text table, says which metric wrote the file); a
    line's fields are split on TAB, or on runs of white space when the line has no TAB;
    field 1 is the system name.  The first non-comment line is a header naming the columns
    when its second field is not a number.  The value read is the column named ``column``
    (case-insensitive; ``f`` also names an ``F0.5``-style column, ``p`` and ``precision``
    each other, ``r`` and ``recall`` too); by default the metric's main score
    (:data:`MAIN_COLUMNS`: the F_β column of ``score``'s table, ``c_i`` of ``imeasure``'s,
    a ``score`` or ``rank`` column, field 2 of ``gleu``'s text output), else the only
    column of numbers.  A column named ``rank`` (or ``ranks``) holds ranks.

    If the first non-space character is ``{`` or ``[`` the input is JSON: the
    ``{"results": [{"system": NAME, ...}, ...]}`` of ``gleu`` and ``imeasure``, or the list
    of ``score --format json`` for several systems (an entry without ``"system"`` is named
    by the base name of its ``"hypothesis"``).  Nested numbers are named ``outer.inner``
    (and as ``imeasure``'s TSV names them: ``correction.i`` is ``c_i``).

    Args:
        source: a path or an open file.
        column: the name of the column (or JSON key) to read; ``None`` for the default.
        option: how the caller lets a user name the column (in messages).

    Returns:
        The :class:`Scores`, systems in file order, with the :attr:`Scores.column` read.

    Raises:
        UsageError: ``column`` is not in the file (or the file has no header to name
            columns by); no ``column`` given and the file has several columns of numbers
            and none is known as the main score.
        GecFormatError: with file and line: a line with fewer fields than the column, a
            value that is not a finite number, a system listed twice, no systems at all,
            malformed JSON, the JSON of a single system, a text table of ``score`` whose
            header and rows do not line up (with intervals).
        OSError: the file cannot be opened.
    """
    name = source_name(source)
    lines = list(numbered_lines(source))
    first = next((text for _, text in lines if text.strip()), "")
    if first.lstrip()[:1] in ("{", "["):
        return _read_json(lines, name, column, option)
    rows: list[tuple[int, list[str]]] = []
    metric = None
    table = False
    for number, text in lines:
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            found = _SIGNATURE.match(stripped)
            if found and metric is None:
                metric = found.group(1)
            continue
        found = _TEXT_SIGNATURE.match(stripped)
        if found:  # the last line of score's text table
            metric, table = metric or found.group(1), True
            continue
        fields = [f.strip() for f in text.split("\t")] if "\t" in text else stripped.split()
        if len(fields) < 2:
            raise GecFormatError(f"expected 'SYSTEM VALUE', found {len(fields)} field", name, number)
        rows.append((number, fields))
    header = rows.pop(0)[1] if rows and _number(rows[0][1][1]) is None else None
    if table and header is not None and any(len(f) != len(header) for _, f in rows):
        raise GecFormatError("a table for people whose header and rows do not line up (the "
                             "text output of gecformats score with --ci or a p value?): give "
                             "correlate its --format tsv or json output", name)
    width = max((len(f) for _, f in rows), default=2)
    names = [(header[k] if header is not None and k < len(header) else f"column {k + 1}")
             for k in range(width)]
    if column is not None:
        if header is None:
            raise UsageError(f"{option} {column}: the file has no header line naming its "
                             "columns", name)
        index = _find_column(names[1:], column, name, option) + 1
    else:
        index = _main_column(names, header is not None, metric, rows, name, option)
    label = names[index] if header is not None else ("score" if metric == "gleu" else names[index])
    values: dict[str, float] = {}
    first_line: dict[str, int] = {}
    for number, fields in rows:
        system = fields[0]
        if len(fields) <= index:
            raise GecFormatError(f"expected 'SYSTEM VALUE', found {len(fields)} field" if index == 1
                                 else f"no {label} (column {index + 1}): found {len(fields)} "
                                 "fields", name, number)
        raw = fields[index]
        value = _number(raw)
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
    return Scores(values, label.lower() in RANK_HEADERS, name, label)


MAIN_COLUMNS = ("F<beta> (score)", "score", "c_i (imeasure)", "rank", "ranks")
"""The column names read by default (in this order) when a file has several columns."""

_SIGNATURE = re.compile(r"#\s*metric:([\w.+-]+)")
_TEXT_SIGNATURE = re.compile(r"metric:([\w.+-]+)\|\S*$")
_F_BETA = re.compile(r"[Ff]\d+(\.\d+)?$")
_ALIASES = {"p": ("precision",), "precision": ("p",), "r": ("recall",), "recall": ("r",)}


def _find_column(names: Sequence[str], wanted: str, file: str, option: str) -> int:
    """The index of the column ``wanted`` in ``names`` (case-insensitive; ``f`` is the one
    F_β column, ``p`` and ``r`` precision and recall), or UsageError listing them."""
    lowered = [n.lower() for n in names]
    key = wanted.lower()
    for candidate in (key, *_ALIASES.get(key, ())):
        if candidate in lowered:
            return lowered.index(candidate)
    if key == "f":
        betas = [k for k, n in enumerate(names) if _F_BETA.match(n)]
        if len(betas) == 1:
            return betas[0]
    raise UsageError(f"{option} {wanted}: no such column (the columns are "
                     f"{', '.join(names)})", file)


def _main_column(names: list[str], has_header: bool, metric: str | None,
                 rows: list[tuple[int, list[str]]], file: str, option: str) -> int:
    """The index of the column read by default (see :func:`read_scores`)."""
    if len(names) == 2 or (not has_header and metric == "gleu"):
        return 1
    if has_header:
        for k, n in enumerate(names[1:], 1):
            if _F_BETA.match(n):
                return k
        lowered = [n.lower() for n in names]
        for main in ("score", "c_i", *RANK_HEADERS):
            if main in lowered[1:]:
                return lowered.index(main, 1)
    numeric = [k for k in range(1, len(names))
               if all(len(f) > k and _finite(f[k]) for _, f in rows)]
    if len(numeric) <= 1:
        return numeric[0] if numeric else 1
    shown = ", ".join(names[k] for k in numeric)
    if not has_header:
        raise UsageError(f"{len(numeric)} columns of numbers ({shown}) and no header line "
                         f"naming them: keep one value per system, or add a header and choose "
                         f"one with {option} NAME", file)
    raise UsageError(f"{len(numeric)} columns of numbers ({shown}) and none is a known main "
                     f"score: choose one with {option} NAME", file)


def _finite(text: str) -> bool:
    value = _number(text)
    return value is not None and math.isfinite(value)


def _number(text: str) -> float | None:
    """``text`` as a float, or ``None`` when it is not a number at all."""
    try:
        return float(text)
    except ValueError:
        return None


def _read_json(lines: list[tuple[int, str]], name: str, column: str | None,
               option: str) -> Scores:
    """The scores of the JSON output of ``gecformats gleu``, ``imeasure`` or ``score``."""
    try:
        data = json.loads("\n".join(text for _, text in lines))
    except json.JSONDecodeError as exc:
        raise GecFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})", name, exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # an over-long integer, nesting too deep
        raise GecFormatError(f"not valid JSON: {exc}", name) from None
    if isinstance(data, dict) and "results" not in data and "f" in data and "signature" in data:
        raise GecFormatError("the score of a single system (no system name): score every "
                             "system in one call (gecformats score SYS1 SYS2 ... --format json)",
                             name)
    results = (data if isinstance(data, list)
               else data.get("results") if isinstance(data, dict) else None)
    if not isinstance(results, list):
        raise GecFormatError('expected a JSON object with a "results" list (the output of '
                             "gecformats gleu or imeasure --format json) or a list of systems "
                             "(gecformats score --format json)", name)
    entries: list[tuple[str, str, dict[str, Any]]] = []
    first_entry: dict[str, int] = {}
    for number, entry in enumerate(results, 1):
        where = f'"results" entry {number}' if isinstance(data, dict) else f"entry {number}"
        if not isinstance(entry, dict):
            raise GecFormatError(f"{where} is not an object", name)
        system = entry.get("system")
        if system is None and isinstance(entry.get("hypothesis"), str):
            system = os.path.basename(entry["hypothesis"])
        if not isinstance(system, str) or not system:
            raise GecFormatError(f'{where} has no "system" (or "hypothesis") name', name)
        if system in first_entry:
            raise GecFormatError(f"{where}: system {system} is listed twice (first in entry "
                                 f"{first_entry[system]})", name)
        first_entry[system] = number
        entries.append((where, system, _flatten(entry)))
    if not entries:
        raise GecFormatError('no systems (the "results" list is empty)', name)
    keys = list(entries[0][2])
    if column is not None:
        key = keys[_find_column(keys, column, name, option)]
    else:
        key = _main_key(keys, entries, name, option)
    label = key
    beta = entries[0][2].get("beta")
    if key == "f" and _is_number(beta):
        label = f"F{beta:g}"
    values: dict[str, float] = {}
    for where, system, flat in entries:
        score = flat.get(key)
        if not _is_number(score) or not math.isfinite(score):
            raise GecFormatError(f'{where} ({system}): "{key}" is not a finite number: '
                                 f"{score!r}", name)
        values[system] = float(score)
    return Scores(values, key.lower() in RANK_HEADERS, name, label)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _flatten(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with nested objects' values as ``outer.inner`` (and ``c_i`` for
    ``correction.i``, ``d_p`` for ``detection.p`` ...)."""
    flat: dict[str, Any] = {}
    for key, value in entry.items():
        if isinstance(value, dict):
            for inner, x in value.items():
                flat[f"{key}.{inner}"] = x
                if key in ("detection", "correction"):  # imeasure's TSV names: c_i
                    flat.setdefault(f"{key[:1]}_{inner}", x)
        else:
            flat[key] = value
    return flat


def _main_key(keys: list[str], entries: list[tuple[str, str, dict[str, Any]]], file: str,
              option: str) -> str:
    """The JSON key read by default: ``score`` (gleu), ``f`` (score), ``correction.i``
    (imeasure), a rank; else the only numeric one."""
    for main in ("score", "f", "correction.i", *RANK_HEADERS):
        if main in keys:
            return main
    numeric = [k for k in keys if "." not in k
               and all(_is_number(flat.get(k)) for _, _, flat in entries)]
    if len(numeric) == 1:
        return numeric[0]
    if not numeric:
        raise GecFormatError("the systems have no numeric value to correlate", file)
    raise UsageError(f"{len(numeric)} numeric values per system ({', '.join(numeric)}) and "
                     f"none is a known main score: choose one with {option} NAME", file)


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


def describe_columns(metric: Scores, human: Scores) -> str:
    """What was correlated, in one line: ``F0.5 (m2.tsv) against rank (human.tsv, 1 = best)``."""
    def one(scores: Scores) -> str:
        ranks = ", 1 = best" if scores.ranks else ""
        return f"{scores.column or 'values'} ({scores.file}{ranks})"
    return f"{one(metric)} against {one(human)}"


def format_table(result: Correlation, everything: Correlation | None = None,
                 excluded: Sequence[str] = (), title: str | None = None) -> str:
    """The correlations as a table for people (3 decimals): a row for all systems when
    ``everything`` is given, then the row of ``result`` (labelled by what was excluded);
    ``title`` (e.g. :func:`describe_columns`) is the first line when given."""
    rows = [("all", everything)] if everything is not None else []
    rows.append((f"without {', '.join(excluded)}" if excluded else "all", result))
    width = max(22, *(len(label) + 2 for label, _ in rows))
    lines = [title] if title is not None else []
    lines.append(f"{'systems':<{width}}{'n':>3}{'pearson':>9}{'spearman':>10}{'kendall':>9}")
    for label, row in rows:
        assert row is not None
        lines.append(f"{label:<{width}}{row.n:>3}{row.pearson:>9.3f}{row.spearman:>10.3f}"
                     f"{row.kendall:>9.3f}")
    return "\n".join(lines)


def correlation_json(result: Correlation, everything: Correlation | None = None,
                     columns: Mapping[str, str | None] | None = None) -> dict[str, Any]:
    """The JSON object of ``gecformats correlate --format json``: ``result``'s fields, under
    ``columns`` the names of the columns read (``{"metric": "F0.5", "human": "rank"}``) when
    given, and under ``all`` the coefficients over every system when ``everything`` is given."""
    data = result.to_dict()
    if columns is not None:
        data["columns"] = dict(columns)
    if everything is not None:
        data["all"] = {k: v for k, v in everything.to_dict().items()
                       if k in ("n", "pearson", "spearman", "kendall")}
    return data

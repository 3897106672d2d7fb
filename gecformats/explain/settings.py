"""The settings ``explain`` varies, a claimed value, and how a setting reads in words and
as the ``gecformats score`` command that reproduces it.

A :class:`Setting` is the set of factors changed from gecformats' defaults (the NUS
scorer's, ERRANT's, GLEU+'s); each factor is a :class:`Factor`, named as the ``score``
option it becomes (``max-unchanged-words``), or ``gold``, ``tokenization`` for the inputs.

>>> claim = parse_claim("35.01")
>>> claim.value, claim.percent, round(claim.tolerance, 7)
(0.3501, True, 5e-05)
>>> s = Setting((("max-unchanged-words", 3),))
>>> describe(s)
'max_unchanged_words 3 (default 2)'
>>> command(s, ["AMU"], "gold.m2", "m2")
'gecformats score AMU --gold gold.m2 --max-unchanged-words 3'
"""

from __future__ import annotations

import math
import os
import re
from decimal import Decimal
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from gecformats.errors import UsageError

# ------------------------------------------------------------------ claims


@dataclass(frozen=True)
class Claim:
    """A value someone reported.

    Attributes:
        text: as given (``35.01``, ``0.3501``, ``35.01%``).
        value: as a fraction (``0.3501``), the scale gecformats scores on.
        percent: whether ``text`` was read as a percentage (a ``%`` sign, or a magnitude
            above 1).
        decimals: the digits after its decimal point.
        tolerance: half a unit of its last decimal, as a fraction: the distance within
            which a score rounds to the claim.
    """

    text: str
    value: float
    percent: bool
    decimals: int
    tolerance: float

    def reading(self) -> str:
        """How the claim was read, in words (``35.01 read as a percentage: 0.3501``)."""
        shown = _fraction(self.value, self.decimals + (2 if self.percent else 0))
        if self.percent:
            return f"{self.text} read as a percentage: {shown}"
        return f"{self.text} read as a fraction"

    def matches(self, score: float) -> bool:
        """Whether ``score`` rounds to the claim (within :attr:`tolerance`)."""
        return abs(score - self.value) <= self.tolerance

    def to_dict(self) -> dict[str, Any]:
        """``{"text", "value", "percent", "tolerance"}``."""
        return {"text": self.text, "value": self.value, "percent": self.percent,
                "tolerance": self.tolerance}


_NUMBER = re.compile(r"[+-]?(\d+)(?:\.(\d*))?|[+-]?\.(\d+)")


def parse_claim(text: str, percent: bool | None = None) -> Claim:
    """A :class:`Claim` from its text: ``0.3501`` (a fraction), ``35.01`` (a magnitude above
    1: a percentage) or ``35.01%``; ``percent``: the scale, when known (a table's rows are
    on one scale: ``0.0`` among percentages is 0 %).

    Raises:
        UsageError: not a plain decimal number, or a percentage above 100.
    """
    raw = text.strip()
    body = raw[:-1].strip() if raw.endswith("%") else raw
    match = _NUMBER.fullmatch(body)
    if match is None:
        raise UsageError(f"claim {text!r} is not a number (give it as printed: 0.3501, "
                         "35.01 or 35.01%)")
    decimals = len(match.group(2) or match.group(3) or "")
    number = float(body)
    if percent is None:
        percent = raw.endswith("%") or abs(number) > 1
    if abs(number) > 100 or (percent and not math.isfinite(number)):
        raise UsageError(f"claim {text!r} is past 100 %: not a score")
    scale = 100 if percent else 1
    # in decimal: 35.01 % is the double nearest 0.3501, as a scorer's 0.3501 is
    return Claim(raw, float(Decimal(body) / scale), percent, decimals,
                 0.5 * 10.0 ** -decimals / scale + 1e-12)


MAX_ROWS = 10_000
"""The most rows a claim table may have (a paper's table has tens)."""


def read_claim_table(path: str, column: str | None = None) -> list[tuple[str, Claim]]:
    """The claims of a table: one row per system, ``SYSTEM<TAB>VALUE`` (or fields
    separated by spaces, as GJG15's ``scores.m2``; more fields are other columns).  A
    first row whose second field is not a number is a header naming the columns; blank
    lines and lines starting with ``#`` are passed over.  The rows are on one scale: all
    percentages when one is (above 1, or with ``%``), else all fractions.

    Args:
        path: the table.
        column: the column of the values: its header's name, or its number (the systems
            are column 1; default: 2).

    Raises:
        GecFormatError: a row without a value, a value that is not a number, a system
            named twice, more than :data:`MAX_ROWS` rows (``FILE:LINE``).
        UsageError: ``column`` without a header naming it.
    """
    from gecformats.errors import GecFormatError
    from gecformats.io import numbered_lines, source_name

    name = source_name(path)
    rows: list[tuple[str, Claim]] = []
    at = 1
    header: list[str] | None = None
    if column is not None and column.isdigit():
        at = int(column) - 1
        if at < 1:
            raise UsageError(f"--claim-column {column}: column 1 names the systems; the "
                             "values are in column 2 or after")
    for number, line in numbered_lines(path):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.rstrip("\r\n").split("\t") if "\t" in line else line.split()
        fields = [f.strip() for f in fields]
        if header is None and not rows and (len(fields) < 2 or
                                            _NUMBER.fullmatch(fields[1].rstrip("%")) is None):
            header = fields
            if column is not None and not column.isdigit():
                if column not in fields[1:]:
                    raise UsageError(f"--claim-column {column}: {name}'s header names "
                                     f"{', '.join(fields[1:]) or 'no column'}")
                at = fields.index(column, 1)
            continue
        if column is not None and not column.isdigit() and header is None:
            raise UsageError(f"--claim-column {column}: {name} has no header row naming "
                             "its columns")
        if len(fields) <= at or not fields[at]:
            raise GecFormatError("a row needs a system name and a value", name, number)
        try:
            claim = parse_claim(fields[at])
        except UsageError as exc:
            raise GecFormatError(exc.message, name, number) from None
        if any(system == fields[0] for system, _ in rows):
            raise GecFormatError(f"{fields[0]} has a row already: one claim per system",
                                 name, number)
        rows.append((fields[0], claim))
        if len(rows) > MAX_ROWS:
            raise GecFormatError(f"more than {MAX_ROWS:,} rows: not a table of systems",
                                 name, number)
    if not rows:
        raise GecFormatError("no claim in the table (SYSTEM<TAB>VALUE rows)", name)
    if any(c.percent for _, c in rows):
        rows = [(system, parse_claim(c.text, True)) for system, c in rows]
    return rows


def match_claims(names: Sequence[str], rows: Sequence[tuple[str, Claim]]
                 ) -> tuple[list[Claim | None], list[str]]:
    """Per system name (a hypothesis' name, e.g. ``AMU`` or ``BART.txt``), the claim of the
    table row that names it (the name, or the name without its extension); and the rows
    that name no system given.

    Raises:
        UsageError: no row names any system, or two rows name one.
    """
    index: dict[str, int] = {}
    for k, name in enumerate(names):
        index.setdefault(name, k)
        index.setdefault(os.path.splitext(os.path.basename(name))[0], k)
    claims: list[Claim | None] = [None] * len(names)
    unknown: list[str] = []
    for system, claim in rows:
        found = index.get(system)
        if found is None:
            unknown.append(system)
            continue
        k = found
        if claims[k] is not None:
            raise UsageError(f"the claim table names {names[k]} twice (as {system})")
        claims[k] = claim
    if not any(claims):
        raise UsageError(f"no row of the claim table names a hypothesis given (rows: "
                         f"{', '.join(s for s, _ in rows[:5])}{' …' * (len(rows) > 5)}; "
                         f"hypotheses: {', '.join(names[:5])}{' …' * (len(names) > 5)})")
    return claims, unknown


def _fraction(value: float, decimals: int) -> str:
    return f"{value:.{max(decimals, 1)}f}"


# ------------------------------------------------------------------ factors and settings


@dataclass(frozen=True)
class Gold:
    """A gold other than the one given: one of its annotators alone (``annotator``, with
    ``absent`` the policy for sentences without it, ``auto`` when the gold's own), or
    another gold file (``variant``: its path)."""

    annotator: int | None = None
    absent: str = "auto"
    variant: str | None = None


@dataclass(frozen=True)
class Factor:
    """One setting that moves a metric: its name (a ``score`` option, or ``gold``,
    ``tokenization``), the values tried besides the default, and what a change costs:
    ``corpus`` (the metric's corpus step on statistics already made), ``pass`` (a new run
    of the pipeline)."""

    name: str
    values: tuple[Any, ...]
    stage: str = "pass"


@dataclass(frozen=True, order=True)
class Setting:
    """The factors changed from the defaults, as ``(factor, value)`` pairs in
    :data:`ORDER`; the empty setting is gecformats' defaults."""

    changes: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        """The value of factor ``name``, or ``default`` when unchanged."""
        return next((v for k, v in self.changes if k == name), default)

    def with_(self, name: str, value: Any) -> Setting:
        """This setting with factor ``name`` set to ``value`` too."""
        changes = [c for c in self.changes if c[0] != name] + [(name, value)]
        return Setting(tuple(sorted(changes, key=lambda c: ORDER.index(c[0]))))

    @property
    def size(self) -> int:
        """How many factors differ from the defaults."""
        return len(self.changes)

    def options(self) -> dict[str, Any]:
        """The metric's options among the changes (``score`` option name → value)."""
        return {k: v for k, v in self.changes if k in METRIC_FACTORS}


ORDER = ("gold", "tokenization", "unit", "max-unchanged-words", "ignore-whitespace-casing",
         "extractor", "gleu-version", "iterations", "absent", "optimise", "beta")
"""The factors, in the order words and commands name them."""

METRIC_FACTORS = frozenset(ORDER[3:])
"""The factors that are options of a metric (the others are the pipeline's)."""

DEFAULTS = {"max-unchanged-words": 2, "ignore-whitespace-casing": False, "extractor": "lcs",
            "gleu-version": "plus", "iterations": 500, "absent": "auto", "optimise": "sentence",
            "beta": 0.5}
"""Each metric factor's default, as ``score`` takes it."""

ALTERNATIVES: dict[str, tuple[Any, ...]] = {
    "max-unchanged-words": (0, 1, 3, 4, 5),
    "ignore-whitespace-casing": (True,),
    "extractor": ("native", "errant"),
    "gleu-version": ("plus-2016", "plus-py3", "2016", "2015"),
    "iterations": (1, 100, 1000),
    "absent": ("first", "source"),
    "optimise": ("corpus",),
    "beta": (1.0,),
}
"""The values tried besides the default, per metric factor (β: F1, the other F of the
literature; ``max_unchanged_words``: the values scorers and ports have shipped or
papers have named)."""

CORPUS_STAGE: dict[str, frozenset[str]] = {
    "m2": frozenset({"beta"}), "sentm2": frozenset({"beta"}),
    "errant": frozenset({"beta"}), "senterrant": frozenset({"beta"}),
    "gleu": frozenset({"iterations"}),
}
"""Per metric, the factors that change only its corpus step (its statistics are the same
for every value): a value is a corpus step on statistics already made."""

PLUS = ("plus", "plus-2016", "plus-py3")
"""GLEU+ versions: the same statistics, other corpus steps (brevity penalty, draws)."""

TOKENIZATIONS = ("en", "detok", "detok+en")
"""The hypothesis as given (the default), re-tokenized with the ``en`` tokenizer,
detokenized, or detokenized then re-tokenized."""


def metric_factors(metric: str, options: frozenset[str], errant: bool) -> list[Factor]:
    """The factors of metric ``metric`` (its ``score`` options ``options``): those of
    :data:`ALTERNATIVES` it takes, ``extractor`` ``errant`` only when ``errant`` (installed)."""
    out = []
    for name in ORDER:
        if name not in options or name not in ALTERNATIVES:
            continue
        values = tuple(v for v in ALTERNATIVES[name] if name != "extractor" or v != "errant"
                       or errant)
        stage = "corpus" if name in CORPUS_STAGE.get(metric, ()) else "pass"
        if metric == "gleu" and name == "gleu-version":
            stage = "corpus"  # within GLEU+; 2015 and 2016 make their own (see stats_options)
        out.append(Factor(name, values, stage))
    return out


def valid(metric: str, setting: Setting) -> bool:
    """Whether the setting's factors go together (GLEU's iterations are GLEU+'s; GLEU's
    ``--absent`` means nothing beside one annotator alone)."""
    version = setting.get("gleu-version", DEFAULTS["gleu-version"])
    if metric == "gleu" and version not in PLUS and setting.get("iterations"):
        return False
    gold = setting.get("gold")
    # with one annotator there is nobody absent: --absent is the annotator's policy then
    return not (gold is not None and gold.annotator is not None and setting.get("absent"))


def stats_options(metric: str, setting: Setting) -> tuple[tuple[str, Any], ...]:
    """The metric options the setting's statistics depend on: its options without those
    of the corpus step alone (GLEU+'s versions share one, ``plus``)."""
    out = []
    for name, value in setting.options().items():
        if name in CORPUS_STAGE.get(metric, ()):
            continue
        if metric == "gleu" and name == "gleu-version":
            if value in PLUS:
                continue
        out.append((name, value))
    return tuple(out)


# ------------------------------------------------------------------ words and commands


def describe(setting: Setting, auto: dict[int, str] | None = None) -> str:
    """The setting in words (``gecformats' defaults`` for none); ``auto``: per annotator,
    the policy ``--absent auto`` takes for the gold."""
    if not setting.changes:
        return "gecformats' defaults (as the original scorers)"
    return "; ".join(_words(k, v, auto or {}) for k, v in setting.changes)


def _words(name: str, value: Any, auto: dict[int, str]) -> str:
    if name == "gold":
        if value.variant is not None:
            return f"gold {os.path.basename(value.variant)} instead"
        policy = value.absent if value.absent != "auto" else auto.get(value.annotator, "")
        how = {"first": "first annotator's edits", "source": "no edit"}.get(policy, "")
        absent = f" (absent → {how}{', as auto' if value.absent == 'auto' else ''})" \
            if how else ""
        return f"annotator {value.annotator} alone{absent}"
    if name == "tokenization":
        return {"en": "hypothesis re-tokenized (--tokenize en, the CoNLL gold's rules)",
                "detok": "hypothesis detokenized, then split on spaces",
                "detok+en": "hypothesis detokenized, then re-tokenized (--tokenize en)"}[value]
    if name == "beta":
        return f"F{_number(value)} (beta {_number(value)}, default 0.5)"
    return WORDS.get(name, f"{name} {{}}").format(value)


WORDS = {
    "unit": "each document of the gold one unit (--unit {})",
    "max-unchanged-words": "max_unchanged_words {} (default 2)",
    "ignore-whitespace-casing": "edits of case or spacing alone ignored (--ignore-whitespace-casing)",
    "extractor": "hypothesis edits by the {} extractor (default lcs)",
    "gleu-version": "GLEU version {} (default plus)",
    "iterations": "GLEU+ with {} iterations (default 500)",
    "absent": "absent annotators' references: {} (default auto)",
    "optimise": "I-measure optimised per {} (default sentence)",
}
"""How a metric factor's value reads (``{}``: the value)."""


def _number(value: float) -> str:
    from gecformats.metrics.score import _number as shortest

    return shortest(value)


def command(setting: Setting, hypotheses: Sequence[str], gold: str, metric: str,
            detokenized: Sequence[str] | None = None) -> str:
    """The ``gecformats score`` command that reproduces the setting's score of
    ``hypotheses`` (paths as given) against ``gold``; ``detokenized``: the paths of their
    detokenized texts, for a setting that scores them."""
    tokenization = setting.get("tokenization")
    hyps = list(detokenized) if tokenization in ("detok", "detok+en") and detokenized \
        else list(hypotheses)
    gold_value = setting.get("gold")
    words = ["gecformats", "score", *hyps, "--gold",
             gold_value.variant if gold_value is not None and gold_value.variant else gold]
    words += [] if metric == "m2" else ["--metric", metric]
    words += list(_flags(setting))
    return " ".join(shlex.quote(w) for w in words)


def _flags(setting: Setting) -> Iterator[str]:
    gold = setting.get("gold")
    if gold is not None and gold.annotator is not None:
        yield from ("--annotator", str(gold.annotator))
        if gold.absent != "auto":
            yield from ("--absent", gold.absent)
    if setting.get("tokenization") in ("en", "detok+en"):
        yield from ("--tokenize", "en")
    if setting.get("unit"):
        yield from ("--unit", setting.get("unit"))
    for name, value in setting.options().items():
        if value is True:
            yield f"--{name}"
        else:
            yield from (f"--{name}", _number(value) if isinstance(value, float) else str(value))


def to_json(setting: Setting) -> dict[str, Any]:
    """The setting as JSON data: factor → value (a gold: ``{"annotator", "absent"}`` or
    ``{"variant"}``)."""
    out: dict[str, Any] = {}
    for name, value in setting.changes:
        if isinstance(value, Gold):
            out[name] = {"variant": value.variant} if value.variant is not None else \
                {"annotator": value.annotator, "absent": value.absent}
        else:
            out[name] = value
    return out

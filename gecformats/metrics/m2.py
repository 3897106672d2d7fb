"""MaxMatch (M2) as a :class:`~gecformats.metrics.base.Metric`: the NUS m2scorer's numbers.

The per-sentence step is the bundled scorer's lattice search against every annotator
(:func:`maxmatch.score_sentence`); its statistics are each annotator's ``(correct,
proposed, gold)`` in the scorer's visiting order (for ``--mode``/``--bonus``, the HOO
counts of :mod:`~gecformats.metrics.modes`).  The corpus step is the scorer's greedy choice
against the running totals (spec §8), bit for bit, on the corpus or on any weighting of it.

>>> from gecformats.model import Edit, Sentence
>>> from gecformats.metrics.base import Hypothesis
>>> gold = Sentence(("a", "cat", "sat"), {0: (Edit(0, 1, (("the",),), "Det"),)})
>>> metric = M2Metric()
>>> stats = metric.sentence(metric.prepare(gold), Hypothesis(("the", "cat", "sat"), "the cat sat"))
>>> stats.counts
((1, 1, 1),)
>>> metric.corpus([stats]).values
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import maxmatch

from gecformats import __version__
from gecformats.errors import GecFormatError
from gecformats.metrics.base import Hypothesis, Metric, Totals
from gecformats.metrics.modes import MODES, annotator_counts, optional_spans
from gecformats.model import Sentence

Counts = tuple[int, int, int]


class M2Gold(NamedTuple):
    """One gold sentence as the M2 metric needs it (made once for every system)."""

    source: tuple[str, ...]
    gold: dict[int, list[Any]]
    """:func:`gecformats.metrics.score.maxmatch_gold`: annotator → ``(start, end, corrections)``."""
    types: dict[int, tuple[str, ...]]
    """Per annotator, the types of its in-range gold edits (for ``per_type``)."""
    optional: dict[int, list[Any]]
    """Per annotator, its optional gold edits (for ``bonus``)."""
    past_end: int
    """Gold edits past the sentence's end (the scorer ignores them)."""
    normalised: maxmatch.NormalisedGold
    """``gold`` as the scorer normalises it (:func:`maxmatch.normalise_gold`), done once
    for every system."""


class M2Stats(NamedTuple):
    """One hypothesis of one sentence: each annotator's counts in visiting order, the
    annotator ids, whether the ids are outside the scorer's known order (spec §2.6), and with
    ``per_type`` each annotator's ``(gold types, matched types, unmatched proposed)``."""

    counts: tuple[Counts, ...]
    annotators: tuple[int, ...]
    nonstandard: bool
    past_end: int = 0
    types: tuple[tuple[tuple[str, ...], tuple[str, ...], int, tuple[tuple[str, bool], ...]],
                 ...] | None = None
    details: M2Details | None = None


class M2Edits(NamedTuple):
    """One annotator's side of one hypothesis, as the exact M2 search left it (what
    ``--verbose`` traces): the system edits of the lattice path (raw, left to right, after
    the whitespace/case filter), how many gold edits each was credited for (the scorer's
    cursor rule, spec §6.7: ``sum(credits) == correct``), and whether each in-range gold
    edit of the annotator was credited."""

    annotator: int
    edits: tuple[tuple[int, int, str, str], ...]
    credits: tuple[int, ...]
    matched: tuple[bool, ...]


class M2Details(NamedTuple):
    """What the HTML report shows of one hypothesis (``M2Metric(details=True)``): its tokens
    joined by spaces, the source's tokens, the gold's in-range edits ``(start, end, corrections)`` and types per
    annotator (visiting order), and each annotator's :class:`M2Edits`."""

    hypothesis: str
    source: tuple[str, ...]
    gold: tuple[tuple[tuple[int, int, tuple[str, ...]], ...], ...]
    types: tuple[tuple[str, ...], ...]
    annotators: tuple[M2Edits, ...]


@dataclass
class M2Metric(Metric):
    """MaxMatch with the NUS scorer's options.

    Args:
        beta: β of F_β (also drives the annotator choice); finite and > 0.
        max_unchanged_words: the largest number of unchanged tokens in one system edit.
        ignore_whitespace_casing: system edits that only change case or spacing are ignored.
        max_edges: the largest lattice one sentence may have (``None``: no bound).
        mode, bonus: the HOO scores (:mod:`~gecformats.metrics.modes`); ``correction``
            without bonus is the M2 score.
        per_type: keep, per annotator, the gold types matched (recall per gold type).
        details: keep each hypothesis' edits and their credits (:class:`M2Details`; the
            HTML report's); the numbers are the same.

    Raises:
        ValueError: ``beta`` not > 0, a negative ``max_unchanged_words``, an unknown mode,
            ``per_type`` with a mode or bonus.
    """

    beta: float = 0.5
    max_unchanged_words: int = 2
    ignore_whitespace_casing: bool = False
    max_edges: int | None = maxmatch.DEFAULT_MAX_EDGES
    mode: str = "correction"
    bonus: bool = False
    per_type: bool = False
    details: bool = False

    name = "m2"
    label = "M2"
    columns = ("precision", "recall", "f")
    main = "f"
    options = frozenset({"beta", "max-unchanged-words", "ignore-whitespace-casing",
                         "max-edges", "mode", "bonus", "per-type"})

    def qualifiers(self) -> list[str]:
        """The HOO mode and bonus when not the plain M2 score (``detection``, ``+bonus``)."""
        if self.mode == "correction" and not self.bonus:
            return []
        return [self.mode + "+bonus" * self.bonus]

    def __post_init__(self) -> None:
        if not (math.isfinite(self.beta) and self.beta > 0):
            raise ValueError(f"beta must be a finite number > 0, not {self.beta}")
        if self.max_unchanged_words < 0:
            raise ValueError(f"max_unchanged_words must be 0 or more, not {self.max_unchanged_words}")
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r} (known: {', '.join(MODES)})")
        if self.per_type and (self.mode != "correction" or self.bonus):
            raise ValueError("per_type goes with the M2 score (mode correction, no bonus)")

    # ------------------------------------------------------------ the two steps

    def prepare(self, gold: Sentence) -> M2Gold:
        from gecformats.metrics.score import maxmatch_gold

        if gold.targets:
            raise GecFormatError("has ChERRANT target (T) lines, which the M2 scorer "
                                 "refuses; keep the first alignment of each reference with "
                                 "`gecformats convert --targets first GOLD GOLD.m2`",
                                 kind="targets")
        edits = maxmatch_gold(gold)
        n = len(gold.source)
        beyond = sum(1 for es in edits.values() for e in es if e[0] > n or e[1] > n)
        types = {a: tuple(e.type for e in es if 0 <= e.start <= n and 0 <= e.end <= n)
                 for a, es in gold.annotators.items()} if self.per_type or self.details else {}
        optional = optional_spans(gold.annotators, n) if self.bonus else {}
        return M2Gold(gold.source, edits, types, optional, beyond,
                      maxmatch.normalise_gold(edits, gold.source))

    def sentence(self, prepared: M2Gold, hypothesis: Hypothesis) -> M2Stats:
        try:
            result = maxmatch.score_sentence(
                prepared.source, hypothesis.tokens, prepared.normalised,
                max_unchanged_words=self.max_unchanged_words,
                ignore_whitespace_casing=self.ignore_whitespace_casing,
                max_edges=self.max_edges)
        except maxmatch.LatticeTooLarge as exc:
            raise GecFormatError(f"{exc}; raise the limit (gecformats score --max-edges) above "
                                 f"{exc.limit:,} only with the memory for it (about 310 bytes "
                                 "per edge)", kind="too-large") from None
        except maxmatch.LatticeError as exc:
            raise GecFormatError(f"the scorer cannot handle this sentence: {exc}") from None
        annotators = result.annotators
        if self.mode == "correction" and not self.bonus:
            counts = tuple((a.correct, a.proposed, a.gold) for a in annotators)
        else:
            counts = tuple(annotator_counts(a, self.mode, prepared.optional.get(a.annotator, ())
                                            if self.bonus else ()) for a in annotators)
        types = None
        if self.per_type:
            system = _system_types(hypothesis.sentence)
            types = tuple(_type_counts(a, prepared.types.get(a.annotator, ()), system)
                          for a in annotators)
        details = _details(prepared, hypothesis, annotators) if self.details else None
        return M2Stats(counts, tuple(a.annotator for a in annotators), result.nonstandard_ids,
                       prepared.past_end, types, details)

    def corpus(self, stats: Sequence[M2Stats], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        beta = self.beta
        c_tot = p_tot = g_tot = 0
        chosen: list[int] = []
        for i, s in enumerate(stats):
            for _ in range(1 if weights is None else weights[i]):
                best = maxmatch.choose_counts(s.counts, c_tot, p_tot, g_tot, beta)
                if best >= 0:  # every F' NaN (beta inf): the scorer chooses nobody
                    c0, p0, g0 = s.counts[best]
                    c_tot, p_tot, g_tot = c_tot + c0, p_tot + p0, g_tot + g0
                if choices and weights is None:
                    chosen.append(best)
        values = maxmatch.precision_recall_f(c_tot, p_tot, g_tot, beta)
        extra: dict[str, Any] = {}
        if choices and weights is None:
            extra["nonstandard"] = tuple(i + 1 for i, s in enumerate(stats) if s.nonstandard)
            extra["past_end"] = _first([s.past_end for s in stats])
            extra["impossible"] = _first([
                k >= 0 and s.counts[k][0] > min(s.counts[k][1], s.counts[k][2])
                for s, k in zip(stats, chosen)])
            extra["annotators"] = len({a for s in stats for a in (s.annotators or (0,))})
            extra["signature"] = self.signature().replace(
                "|gecformats:", f"|annotators:{extra['annotators']}|gecformats:")
            if self.per_type:
                extra["per_type"] = _per_type(stats, chosen)
        return Totals(values, {"correct": c_tot, "proposed": p_tot, "gold": g_tot},
                      tuple(chosen), extra)

    def signature(self) -> str:
        from gecformats.metrics.score import _number

        mode = "" if self.mode == "correction" and not self.bonus else \
            f"|mode:{self.mode}{'+bonus' * self.bonus}"
        ws = "ignored" if self.ignore_whitespace_casing else "significant"
        return (f"metric:m2{mode}|scorer:maxmatch-{maxmatch.__version__}|beta:{_number(self.beta)}"
                f"|max-unchanged:{self.max_unchanged_words}|ws-case:{ws}|gecformats:{__version__}")

    # ------------------------------------------------------------ fast resampling

    def resampler(self, stats: Sequence[M2Stats]) -> Any:
        from gecformats.metrics.resampling import Greedy, M2Rule

        return Greedy([s.counts for s in stats], M2Rule(self.beta))

    def swapper(self, a: Sequence[M2Stats], b: Sequence[M2Stats]) -> Any:
        from gecformats.metrics.resampling import M2Rule, PairedGreedy

        return PairedGreedy([s.counts for s in a], [s.counts for s in b], M2Rule(self.beta))

    def sentence_fields(self, stats: M2Stats, choice: int) -> dict[str, Any]:
        c, p, g = stats.counts[choice] if choice >= 0 else (0, 0, 0)
        return {"annotator": stats.annotators[choice] if choice >= 0 else -1,
                "correct": c, "proposed": p, "gold": g}

    sentence_score = "f"

    def sentence_values(self, stats: M2Stats, choice: int) -> dict[str, Any]:
        """The :meth:`sentence_fields` and the sentence's ``p``, ``r``, ``f`` of the chosen
        counts, by the scorer's arithmetic (P = 1 with nothing proposed, R = 1 with
        nothing gold)."""
        fields = self.sentence_fields(stats, choice)
        if self.sentence_score not in fields:  # SentM2's fields have them already
            fields.update(zip("prf", maxmatch.precision_recall_f(
                fields["correct"], fields["proposed"], fields["gold"], self.beta)))
        return fields


def _first(flags: Sequence[int]) -> tuple[int, int]:
    """``(total, first sentence with one)`` of per-sentence counts (0 when none)."""
    total = sum(flags)
    return total, next((i + 1 for i, f in enumerate(flags) if f), 0)


def _details(prepared: M2Gold, hypothesis: Hypothesis,
             annotators: Sequence[maxmatch.AnnotatorResult]) -> M2Details:
    """:class:`M2Details` of one hypothesis from the scorer's per-annotator results."""
    gold, types, sides = [], [], []
    for a in annotators:
        golds = a.gold_edits
        kinds = prepared.types.get(a.annotator, ())
        if len(kinds) != len(golds):  # a multi-S block (spec §2.5), or annotator 0 made up
            kinds = ("?",) * len(golds)
        gold.append(tuple((g[0], g[1], tuple(g[3])) for g in golds))
        types.append(kinds)
        credits, matched = [], [False] * len(golds)
        cursor = 0
        for e in a.edits:  # the scorer's credit loop (maxmatch.match_edits)
            n = 0
            for i in range(cursor, len(golds)):
                if maxmatch.edit_matches(e, golds[i]):
                    matched[i], cursor, n = True, i + 1, n + 1
            credits.append(n)
        sides.append(M2Edits(a.annotator, tuple(a.edits), tuple(credits), tuple(matched)))
    return M2Details(" ".join(hypothesis.tokens), prepared.source, tuple(gold), tuple(types), tuple(sides))


def _system_types(sentence: Sentence | None) -> tuple[tuple[int, int, str], ...] | None:
    """The edits of an M2 hypothesis as ``(start, end, type)`` (its first annotator's);
    ``None`` for a text hypothesis (its edits have no type)."""
    if sentence is None:
        return None
    for edits in sentence.annotators.values():
        return tuple((e.start, e.end, e.type) for e in edits)
    return ()


def _type_counts(result: maxmatch.AnnotatorResult, types: tuple[str, ...],
                 system: tuple[tuple[int, int, str], ...] | None = None
                 ) -> tuple[tuple[str, ...], tuple[str, ...], int, tuple[tuple[str, bool], ...]]:
    """One annotator's gold types, the types of the gold edits the scorer credited (its
    cursor rule, spec §6.7), the proposed edits credited to none and, for an M2 hypothesis
    (``system``: its own edits), each of its edits' type and whether it lies inside an edit
    the scorer credited.  The scorer's edits are its lattice path's, which may merge or
    split the hypothesis' own: precision per system type is therefore about the
    hypothesis' edits (credited when inside a credited span), not the scorer's count."""
    golds = result.gold_edits
    if len(types) != len(golds):  # a multi-S block (spec §2.5): no types
        types = ("?",) * len(golds)
    matched: list[str] = []
    cursor = credited = 0
    spans: list[tuple[int, int]] = []
    for e in result.edits:  # the scorer's credit loop (maxmatch.match_edits)
        hit = False
        for i in range(cursor, len(golds)):
            if maxmatch.edit_matches(e, golds[i]):
                matched.append(types[i])
                cursor, hit = i + 1, True
        credited += hit
        if hit:
            spans.append((e[0], e[1]))
    proposed = tuple((kind, any(a <= start and end <= b for a, b in spans))
                     for start, end, kind in system or ())
    return types, tuple(matched), len(result.edits) - credited, proposed


def _per_type(stats: Sequence[M2Stats], chosen: Sequence[int]) -> Any:
    """The :class:`~gecformats.metrics.score.PerType` table of the chosen annotators."""
    from gecformats.metrics.score import PerType

    table = PerType()
    for s, k in zip(stats, chosen):
        if k < 0 or s.types is None:
            continue
        gold, matched, unmatched, proposed = s.types[k]
        for kind, hit in proposed:
            table.proposed[kind] = table.proposed.get(kind, 0) + 1
            table.credited[kind] = table.credited.get(kind, 0) + hit
        for kind in gold:
            table.gold[kind] = table.gold.get(kind, 0) + 1
        for kind in matched:
            table.matched[kind] = table.matched.get(kind, 0) + 1
        table.unmatched += unmatched
    return table

"""Detection, recognition and correction scores, with or without bonus, on the M2 lattice.

The HOO shared tasks report three scores that differ only in when a system edit counts
(Dahlmeier & Ng 2012, §4 "Alternative scoring"; spec ``formats.md`` §6.3-6.4), each with or
without a *bonus* for optional gold edits the system left alone.  Here they are computed on
token offsets after the M2 lattice search, one annotator per sentence chosen greedily as the
M2 scorer does (spec §8), from these counts of an annotator:

=============  ==========================  =========================  ===================
mode           credits ``c``               proposed ``p``             gold ``g``
=============  ==========================  =========================  ===================
correction     the M2 credits ``C``        system edits ``S``         gold edits ``G``
recognition    ``Rc``: gold edits with a   ``S``                      ``G``
               system edit of exactly
               their span
detection      ``D``: gold edits with a    ``D + spurious``           ``G``
               leniently aligned system
               edit
=============  ==========================  =========================  ===================

``spurious``: system edits aligned leniently with no gold edit.  With ``bonus``, ``MO``
(optional gold edits, M2 ``OPTIONAL``, that no system edit aligns with leniently) is added to
``c`` and ``p``.  P = c / p, R = c / g and F_β as the M2 scorer computes them.

The system edits are the M2 scorer's: the best path through the edit lattice for the
annotator (the one with the most gold credits), so *correction without bonus is the M2
score, bit for bit*.  For ``recognition`` and ``detection`` each edit is first shrunk as the
M2 scorer's ``-v`` trace shrinks it (common leading and trailing tokens of original and
correction removed): the lattice path may merge an edit that matches nothing with unchanged
neighbours (``cat sat at`` → ``cat sat in``), and the shrunk edit (``at`` → ``in``) is what
has, or has not, the gold edit's span.

Lenient alignment on token spans (HOO's character rules, ``formats.md`` §6.2, on tokens):
two edits with non-empty spans align when they share a token; an insertion at ``p`` aligns
with an insertion at ``p`` and with an edit strictly around ``p``; an edit ending (starting)
at ``p`` aligns with the insertion when that insertion has no correction or the edit's
correction ends (starts) with one of the insertion's corrections.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import maxmatch
from maxmatch import AnnotatorResult, CorpusResult, SentenceChoice, SentenceResult

MODES = ("correction", "recognition", "detection")
"""The ``--mode`` values of the M2 metric."""

Counts = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Span:
    """An edit as the alignment sees it: token span and corrections (token strings)."""

    start: int
    end: int
    corrections: tuple[str, ...]


def _ends_with(text: str, suffix: str) -> bool:
    return bool(suffix) and (text == suffix or text.endswith(" " + suffix))


def _starts_with(text: str, prefix: str) -> bool:
    return bool(prefix) and (text == prefix or text.startswith(prefix + " "))


def lenient(g: Span, s: Span) -> bool:
    """Whether ``s`` aligns leniently with ``g`` (HOO's overlap > 0, on tokens).

    The rules are HOO's, asymmetric as there (spec §6.2): ``g`` is the edit whose insertion
    is tested.  Detection uses ``lenient(gold, system)`` for the detected gold edits and
    ``lenient(system, gold)`` for the spurious system edits."""
    if g.start == g.end:
        p = g.start
        if s.start == s.end:
            return s.start == p
        if s.start < p < s.end:
            return True
        first = s.corrections[0] if s.corrections else ""
        if s.end == p:
            return not g.corrections or any(_ends_with(first, c) for c in g.corrections)
        if s.start == p:
            return not g.corrections or any(_starts_with(first, c) for c in g.corrections)
        return False
    if s.start == s.end:
        return g.start < s.start < g.end
    return s.start < g.end and g.start < s.end


def annotator_counts(result: AnnotatorResult, mode: str, optional: Iterable[Span] = ()
                     ) -> Counts:
    """``(c, p, g)`` of one annotator of one sentence for ``mode`` (see the module table);
    ``optional``: the annotator's optional gold edits when the bonus is on (else empty).

    Raises:
        ValueError: an unknown mode.
    """
    shrunk = result.edits if mode == "correction" else map(maxmatch.shrink_edit, result.edits)
    system = [Span(e[0], e[1], (e[3],)) for e in shrunk]
    gold = [Span(g[0], g[1], tuple(g[3])) for g in result.gold_edits]
    if mode == "correction":
        c, p = result.correct, result.proposed
    elif mode == "recognition":
        spans = {(s.start, s.end) for s in system}
        c, p = sum((g.start, g.end) in spans for g in gold), len(system)
    elif mode == "detection":
        c = sum(any(lenient(g, s) for s in system) for g in gold)
        spurious = sum(not any(lenient(s, g) for g in gold) for s in system)
        p = c + spurious
    else:
        raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
    missed = sum(not any(lenient(o, s) for s in system) for o in optional)
    return c + missed, p + missed, len(gold)


class ModeScorer:
    """A streaming corpus scorer for ``mode``/``bonus`` with :class:`maxmatch.CorpusScorer`'s
    interface (``add``, ``result``, ``count`` and the running totals), plus
    ``last_counts``: the counts of every annotator of the sentence added last."""

    def __init__(self, *, mode: str = "correction", bonus: bool = False, beta: float = 0.5,
                 max_unchanged_words: int = 2, ignore_whitespace_casing: bool = False,
                 keep_sentences: bool = True,
                 max_edges: int | None = maxmatch.DEFAULT_MAX_EDGES) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
        self.mode, self.bonus, self.beta = mode, bonus, beta
        self.options = dict(max_unchanged_words=max_unchanged_words,
                            ignore_whitespace_casing=ignore_whitespace_casing,
                            max_edges=max_edges)
        self.keep_sentences = keep_sentences
        self.correct = self.proposed = self.gold = 0
        self.count = 0
        self.last_counts: tuple[Counts, ...] = ()
        self._choices: list[SentenceChoice] = []
        self._warnings: list[int] = []

    def add(self, source: Sequence[str], hypothesis: Sequence[str],
            gold: Mapping[int, Sequence[maxmatch.GoldEdit]],
            optional: Mapping[int, Sequence[Span]] | None = None
            ) -> tuple[SentenceResult, SentenceChoice]:
        """Score one sentence, choose its annotator greedily on the mode's counts (the M2
        scorer's rule and ties) and update the totals.  ``optional``: per annotator, its
        optional gold edits (used with the bonus)."""
        res = maxmatch.score_sentence(source, hypothesis, gold, **self.options)  # type: ignore[arg-type]
        counts = tuple(annotator_counts(a, self.mode, (optional or {}).get(a.annotator, ())
                                        if self.bonus else ()) for a in res.annotators)
        self.last_counts = counts
        best = maxmatch.choose_counts(counts, self.correct, self.proposed, self.gold, self.beta)
        if best < 0:  # every F' NaN (beta inf): the scorer chooses nobody
            choice = SentenceChoice(-1, 0, 0, 0)
        else:
            choice = SentenceChoice(res.annotators[best].annotator, *counts[best])
        self.correct += choice.correct
        self.proposed += choice.proposed
        self.gold += choice.gold
        if res.nonstandard_ids:
            self._warnings.append(self.count)
        if self.keep_sentences:
            self._choices.append(choice)
        self.count += 1
        return res, choice

    def result(self) -> CorpusResult:
        """The corpus result of the sentences added so far."""
        p, r, f = maxmatch.precision_recall_f(self.correct, self.proposed, self.gold, self.beta)
        return CorpusResult(self.correct, self.proposed, self.gold, p, r, f, self.beta,
                            tuple(self._choices), tuple(self._warnings))


def optional_spans(annotators: Mapping[int, Sequence[object]], length: int
                   ) -> dict[int, list[Span]]:
    """Per annotator, its optional gold edits (model :class:`~gecformats.model.Edit` s with
    ``required`` false) in range of a source of ``length`` tokens, as :class:`Span` s."""
    out: dict[int, list[Span]] = {}
    for annotator, edits in annotators.items():
        spans = [Span(e.start, e.end, tuple(" ".join(c) for c in e.corrections))  # type: ignore[attr-defined]
                 for e in edits
                 if not e.required and 0 <= e.start <= e.end <= length]  # type: ignore[attr-defined]
        if spans:
            out[annotator] = spans
    return out

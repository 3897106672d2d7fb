"""Sentence and corpus scoring: gold normalisation (§2.4, §2.6), per-annotator evaluation (§4),
greedy annotator choice (§8) and the final precision, recall and F (§9)."""

from __future__ import annotations

import os
from collections import namedtuple
from collections.abc import Iterable, Iterator, Mapping, Sequence

from .lattice import (DEFAULT_MAX_EDGES, NOOP_TWICE, LatticeError, LatticeTooLarge, build_lattice,
                      check_cells)
from .match import filter_whitespace_casing, match_edits
from .search import Edit, GoldSpan, SentenceSearch, backtrack, bellman_ford

__all__ = [
    "GoldEdit", "AnnotatorResult", "NormalisedGold", "SentenceResult", "SentenceChoice", "CorpusResult",
    "CorpusScorer", "normalise_gold", "score_sentence", "score_corpus", "choose_annotator",
    "f_counts", "precision_recall_f", "format_scores", "backend",
]


def _load_core():
    """The compiled core (``maxmatch._core``, built by ``pip install`` where a C compiler
    works), or ``None`` where it was not built."""
    try:
        from . import _core
    except ImportError:
        return None
    return _core


# The backend in use: the compiled core unless MAXMATCH_PURE_PYTHON is set (to anything but
# "" or "0") or it was not built; None is the pure-Python path, the reference.
_CORE = None if os.environ.get("MAXMATCH_PURE_PYTHON", "") not in ("", "0") else _load_core()


def backend() -> str:
    """Which implementation scores a sentence: ``"c"`` (the compiled core) or ``"python"``
    (the pure-Python path, used where the core was not built or ``MAXMATCH_PURE_PYTHON=1``).
    Both give the same results, bit for bit."""
    return "python" if _CORE is None else "c"


def _set_backend(name: str) -> str:
    """Switch the backend (a test hook): ``"python"`` or ``"c"``; returns the previous one.
    Raises ``ValueError`` for an unknown name, ``ImportError`` for ``"c"`` without the
    compiled core."""
    global _CORE
    previous = backend()
    if name == "python":
        _CORE = None
    elif name == "c":
        core = _load_core()
        if core is None:
            raise ImportError("maxmatch._core was not built (no C compiler at install time)")
        _CORE = core
    else:
        raise ValueError(f"unknown backend {name!r} (known: 'c', 'python')")
    return previous

#: A gold edit as the M2 reader passes it: ``(start, end, corrections)``, each correction a
#: string of tokens joined by single spaces (``''`` = deletion).  A noop line is
#: ``(-1, -1, ('',))``.
GoldEdit = tuple[int, int, Sequence[str]]

#: One sentence for :func:`score_corpus`: ``(source, hypothesis, gold)`` or
#: ``(source, hypothesis, gold, gold_source)``.
SentenceInput = (
    tuple[Sequence[str], Sequence[str], Mapping[int, Sequence[GoldEdit]]]
    | tuple[Sequence[str], Sequence[str], Mapping[int, Sequence[GoldEdit]], Sequence[str]]
)

# The result records are named tuples, not dataclasses: immutable, compared by value and
# printed with their field names all the same, but made without the ``dataclasses`` module,
# whose import (with ``inspect``) and class generation cost more than scoring a hundred
# sentences, a cost the ``maxmatch`` command pays on every run.


class AnnotatorResult(namedtuple("AnnotatorResult", "annotator edits gold_edits matched")):
    """One annotator's evaluation of one sentence.

    ``annotator``: its id; ``edits``: the chosen system edit sequence
    ``(start, end, orig, corr)`` (a tuple), raw (unshrunk), left to right, after the §7
    filter; ``gold_edits``: the annotator's normalised gold edits
    ``(start, end, orig, corrections)``; ``matched``: the credited system edits (§6.7)."""

    __slots__ = ()
    annotator: int
    edits: tuple[Edit, ...]
    gold_edits: tuple[GoldSpan, ...]
    matched: tuple[Edit, ...]

    @property
    def correct(self) -> int:
        """Number of credits (can exceed ``proposed`` with duplicated gold edits)."""
        return len(self.matched)

    @property
    def proposed(self) -> int:
        """Number of system edits."""
        return len(self.edits)

    @property
    def gold(self) -> int:
        """Number of gold edits of the annotator."""
        return len(self.gold_edits)


class SentenceResult(namedtuple("SentenceResult", "annotators nonstandard_ids")):
    """All annotators of one sentence, in visiting order (ascending ids).

    ``nonstandard_ids`` is true when an id lies outside the range in which the reference's
    dictionary order is ascending (``0..7``, or ``0..31`` with six or more annotators, §2.6):
    the reference may then visit the annotators in another order."""

    __slots__ = ()
    annotators: tuple[AnnotatorResult, ...]
    nonstandard_ids: bool


class SentenceChoice(namedtuple("SentenceChoice", "annotator correct proposed gold")):
    """The greedy choice for one sentence: annotator id and its (not cumulative) counts."""

    __slots__ = ()
    annotator: int
    correct: int
    proposed: int
    gold: int


class CorpusResult(namedtuple("CorpusResult", "correct proposed gold precision recall f beta "
                                             "sentences warnings")):
    """Corpus totals and scores, exactly as the reference computes them (§8, §9).

    ``sentences`` holds one :class:`SentenceChoice` per sentence (empty if not kept);
    ``warnings`` lists 0-based sentence indices with nonstandard annotator ids."""

    __slots__ = ()
    correct: int
    proposed: int
    gold: int
    precision: float
    recall: float
    f: float
    beta: float
    sentences: tuple[SentenceChoice, ...]
    warnings: tuple[int, ...]


class NormalisedGold(namedtuple("NormalisedGold", "golds nonstandard")):
    """A sentence's gold as :func:`normalise_gold` leaves it: ``golds`` (annotator id ->
    normalised edits, ascending ids) and ``nonstandard``.  Given to :func:`score_sentence`
    as its ``gold``, it is used as it is: a gold normalised once serves every hypothesis
    scored against it (several systems)."""

    __slots__ = ()
    golds: dict[int, list[GoldSpan]]
    nonstandard: bool


def normalise_gold(gold: Mapping[int, Sequence[GoldEdit]], gold_source: Sequence[str]
                   ) -> NormalisedGold:
    """Apply the reference's per-sentence gold rules (§2.4, §2.6).

    Inputs: annotator id -> edits ``(start, end, corrections)`` in file order; the token list
    used for the range check and the recomputed originals (the sentence's source tokens, or
    for the k-th ``S`` line of a multi-``S`` block the concatenated tokens of lines 1..k,
    §2.5).  Output: ``(golds, nonstandard)`` (a :class:`NormalisedGold`) where ``golds`` maps
    each id, in ascending order, to its edits with ``0 <= start, end <= len(gold_source)``
    kept as ``(start, end, original, corrections)``; an empty mapping becomes ``{0: []}``.
    Raises ``TypeError``/``ValueError`` for an id or offset that is not an integer."""
    if not gold:
        return NormalisedGold({0: []}, False)
    t = len(gold_source)
    out: dict[int, list[GoldSpan]] = {}
    for ann in sorted(gold):
        if isinstance(ann, bool) or not isinstance(ann, int):
            raise TypeError(f"annotator id must be an int, got {ann!r}")
        kept: list[GoldSpan] = []
        for edit in gold[ann]:
            start, end, corrections = edit[0], edit[1], edit[2]
            if 0 <= start <= t and 0 <= end <= t:
                kept.append((start, end, " ".join(gold_source[start:end]), tuple(corrections)))
        out[ann] = kept
    limit = 8 if len(out) <= 5 else 32
    nonstandard = any(a < 0 or a >= limit for a in out)
    return NormalisedGold(out, nonstandard)


def _evaluate(source: tuple[str, ...], hypothesis: tuple[str, ...],
              golds: dict[int, list[GoldSpan]], max_unchanged_words: int,
              ignore_whitespace_casing: bool,
              max_edges: int | None = DEFAULT_MAX_EDGES) -> list[AnnotatorResult]:
    results: list[AnnotatorResult] = []
    if source == hypothesis:
        # Exact shortcut: both matrices have distance 0, so every lattice edge is a noop and
        # every annotator's best path reports no edit.
        for ann, gs in golds.items():
            results.append(AnnotatorResult(ann, (), tuple(gs), ()))
        return results
    if _CORE is not None:
        if max_edges is not None:
            check_cells(len(source), len(hypothesis), max_edges)
        found = _CORE.evaluate(source, hypothesis, list(golds.values()), max_unchanged_words,
                               max_edges)
        if type(found) is list:
            for (ann, gs), edits in zip(golds.items(), found):
                if ignore_whitespace_casing:
                    edits = filter_whitespace_casing(edits)
                results.append(AnnotatorResult(ann, tuple(edits), tuple(gs),
                                               tuple(match_edits(edits, gs))))
            return results
        if found is not NotImplemented:  # (kind, number): a refusal, as build_lattice's
            kind, number = found
            if kind == 3:
                raise LatticeError(NOOP_TWICE)
            raise LatticeTooLarge(number, max_edges, estimated=kind == 1)  # type: ignore[arg-type]
        # NotImplemented: an input the core does not take (a token that is not a plain str,
        # is empty or holds a space, ...): the pure path below gives its answer
    lat = build_lattice(source, hypothesis, max_unchanged_words, max_edges)
    spans = {(g[0], g[1]) for gs in golds.values() for g in gs}
    state = SentenceSearch(lat, spans)
    nv = len(lat.vertices)
    cache: dict[tuple, list[Edit]] = {}
    for ann, gs in golds.items():
        overrides = state.weights_for(gs)
        sig = tuple(sorted(overrides.items()))
        edits = cache.get(sig)
        if edits is None:
            pred = bellman_ford(state.relax_list(overrides), lat.ncells, nv)
            edits = backtrack(lat, pred)
            if ignore_whitespace_casing:
                edits = filter_whitespace_casing(edits)
            cache[sig] = edits
        results.append(AnnotatorResult(ann, tuple(edits), tuple(gs),
                                       tuple(match_edits(edits, gs))))
    return results


def score_sentence(source: Sequence[str], hypothesis: Sequence[str],
                   gold: Mapping[int, Sequence[GoldEdit]], *, max_unchanged_words: int = 2,
                   ignore_whitespace_casing: bool = False,
                   gold_source: Sequence[str] | None = None,
                   max_edges: int | None = DEFAULT_MAX_EDGES) -> SentenceResult:
    """Evaluate one sentence against every annotator (§4-§7).

    Inputs: source tokens, hypothesis tokens (see :func:`split_hypothesis`), the gold mapping
    ``annotator id -> [(start, end, corrections), ...]`` (file order; see
    :func:`normalise_gold` for the rules applied) or a :class:`NormalisedGold` (used as it
    is), the unchanged-word limit, the §7 flag, and optionally ``gold_source`` (tokens for
    the range check and originals of a mapping; default ``source``).
    Output: a :class:`SentenceResult` with one :class:`AnnotatorResult` per annotator in
    ascending id order.  ``max_edges`` bounds the lattice (memory and time; ``None``: no
    bound).  Raises ``LatticeError`` where the reference crashes (§5.5),
    ``LatticeTooLarge`` past ``max_edges``,
    ``TypeError`` for a non-integer annotator id."""
    src, hyp = tuple(source), tuple(hypothesis)
    if type(gold) is NormalisedGold:
        golds, nonstandard = gold
    else:
        golds, nonstandard = normalise_gold(gold, src if gold_source is None else gold_source)
    results = _evaluate(src, hyp, golds, max_unchanged_words, ignore_whitespace_casing,
                        max_edges)
    return SentenceResult(tuple(results), nonstandard)


def f_counts(c: float, p: float, g: float, beta: float) -> float:
    """The reference's ``comp_f1`` on counts (§8): ``((1+β²)·C) / (β²·G + P)``, or 1.0/0.0 on
    a zero denominator (1.0 iff ``C == 0``)."""
    try:
        return (1 + beta * beta) * c / (beta * beta * g + p)
    except ZeroDivisionError:
        return 1.0 if c == 0 else 0.0


def choose_counts(options: Iterable[Sequence[int]], correct: int, proposed: int, gold: int,
                  beta: float) -> int:
    """The reference's greedy cumulative choice (§8) among options given as ``(correct,
    proposed, gold)`` counts, with the running totals: the index chosen (ties keep the
    earlier option), or -1 when every F is NaN (β = inf: no comparison succeeds)."""
    sq = beta * beta
    best = -1
    f_best, c_best = -1.0, -1.0
    p_best = g_best = float("inf")
    for k, (c0, p0, g0) in enumerate(options):
        c, p, g = correct + c0, proposed + p0, gold + g0
        f = f_counts(c, p, g, beta)
        if (f_best < f or (f_best == f and c_best < c)
                or (f_best == f and c_best == c and p_best + sq * g_best > p + sq * g)):
            best, f_best, c_best, p_best, g_best = k, f, c, p, g
    return best


def choose_annotator(results: Sequence[AnnotatorResult], correct: int, proposed: int,
                     gold: int, beta: float) -> AnnotatorResult:
    """The reference's greedy cumulative choice (§8) given the totals so far.

    Inputs: the sentence's annotator results in visiting order, the running totals, β.
    Output: the chosen result (ties keep the earlier annotator); when every F is NaN (β = inf)
    no comparison succeeds and, like the reference, no annotator is chosen: the result is
    annotator ``-1`` with no edits (counts 0/0/0).  Raises ``ValueError`` on an empty
    sequence."""
    if not results:
        raise ValueError("a sentence needs at least one annotator")
    k = choose_counts(((r.correct, r.proposed, r.gold) for r in results), correct, proposed,
                      gold, beta)
    if k < 0:  # every F' is NaN: the reference keeps chosen_ann = -1 and counts 0
        return AnnotatorResult(-1, (), (), ())
    return results[k]


def precision_recall_f(correct: int, proposed: int, gold: int, beta: float
                       ) -> tuple[float, float, float]:
    """Final P, R, F_β from the totals, bit for bit as the reference (§9)."""
    try:
        p = correct / proposed
    except ZeroDivisionError:
        p = 1.0
    try:
        r = correct / gold
    except ZeroDivisionError:
        r = 1.0
    try:
        f = (1.0 + beta * beta) * p * r / (beta * beta * p + r)
    except ZeroDivisionError:
        f = 0.0
    return p, r, f


class CorpusScorer:
    """Streaming corpus scorer: feed sentences one by one with :meth:`add`, read
    :meth:`result` at any time.  The greedy choice depends only on the sentences already added,
    so any chunking of the input gives the same result."""

    def __init__(self, *, beta: float = 0.5, max_unchanged_words: int = 2,
                 ignore_whitespace_casing: bool = False, keep_sentences: bool = True,
                 max_edges: int | None = DEFAULT_MAX_EDGES) -> None:
        self.beta = beta
        self.max_edges = max_edges
        self.max_unchanged_words = max_unchanged_words
        self.ignore_whitespace_casing = ignore_whitespace_casing
        self.keep_sentences = keep_sentences
        self.correct = self.proposed = self.gold = 0
        self.count = 0
        self._choices: list[SentenceChoice] = []
        self._warnings: list[int] = []

    def add(self, source: Sequence[str], hypothesis: Sequence[str],
            gold: Mapping[int, Sequence[GoldEdit]],
            gold_source: Sequence[str] | None = None) -> tuple[SentenceResult, SentenceChoice]:
        """Score one sentence, make the greedy choice and update the totals.

        Inputs as :func:`score_sentence`.  Output: the sentence's full result and the choice."""
        res = score_sentence(source, hypothesis, gold,
                             max_unchanged_words=self.max_unchanged_words,
                             ignore_whitespace_casing=self.ignore_whitespace_casing,
                             gold_source=gold_source, max_edges=self.max_edges)
        return res, self.add_result(res)

    def add_result(self, res: SentenceResult) -> SentenceChoice:
        """Make the greedy choice for an already evaluated sentence and update the totals
        (lets sentences be evaluated in parallel and the choice replayed in order, §11.3)."""
        best = choose_annotator(res.annotators, self.correct, self.proposed, self.gold,
                                self.beta)
        choice = SentenceChoice(best.annotator, best.correct, best.proposed, best.gold)
        self.correct += choice.correct
        self.proposed += choice.proposed
        self.gold += choice.gold
        if res.nonstandard_ids:
            self._warnings.append(self.count)
        if self.keep_sentences:
            self._choices.append(choice)
        self.count += 1
        return choice

    def result(self) -> CorpusResult:
        """The corpus result for the sentences added so far."""
        p, r, f = precision_recall_f(self.correct, self.proposed, self.gold, self.beta)
        return CorpusResult(self.correct, self.proposed, self.gold, p, r, f, self.beta,
                            tuple(self._choices), tuple(self._warnings))


def score_corpus(sentences: Iterable[SentenceInput], *, beta: float = 0.5,
                 max_unchanged_words: int = 2, ignore_whitespace_casing: bool = False,
                 keep_sentences: bool = True,
                 max_edges: int | None = DEFAULT_MAX_EDGES) -> CorpusResult:
    """Score a corpus with the reference's greedy per-sentence annotator choice (§8, §9).

    Input: an iterable (consumed once, streamed; no ``len()`` needed) of
    ``(source, hypothesis, gold)`` or ``(source, hypothesis, gold, gold_source)`` tuples, in
    file order; options as the reference's (``beta`` also drives the choice).  Output: a
    :class:`CorpusResult`.  Raises as :func:`score_sentence`."""
    scorer = CorpusScorer(beta=beta, max_unchanged_words=max_unchanged_words,
                          ignore_whitespace_casing=ignore_whitespace_casing,
                          keep_sentences=keep_sentences, max_edges=max_edges)
    for item in sentences:
        scorer.add(*item)
    return scorer.result()


def iter_choices(sentences: Iterable[SentenceInput], **options) -> Iterator[SentenceChoice]:
    """Like :func:`score_corpus` but yields each sentence's choice as soon as it is made."""
    scorer = CorpusScorer(keep_sentences=False, **options)
    for item in sentences:
        yield scorer.add(*item)[1]


def format_scores(result: CorpusResult) -> str:
    """The reference's three result lines (§9.1), without a final newline:
    ``Precision   : 0.4162`` / ``Recall      : 0.2140`` / ``F_0.5       : 0.3501``.

    Input: a :class:`CorpusResult` (or any object with ``precision``, ``recall``, ``f`` and
    ``beta``).  Never raises for numbers."""
    return ("Precision   : %.4f\nRecall      : %.4f\nF_%.1f       : %.4f"
            % (result.precision, result.recall, result.beta, result.f))

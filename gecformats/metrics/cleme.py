"""CLEME and CLEME2.0 (Ye et al. 2023, 2025): chunk-level evaluation of GEC, as
THUKElab/CLEME @e90abea (v1.1.0, "CLEME2.0 released") computes it, bit for bit.

**Chunks.**  The edits of the hypothesis and of every reference of a sentence are merged
into one partition of the source: edit intervals that overlap or touch (an edit starting
where the previous merged interval ends, zero-length insertions included) become one chunk;
the tokens between them are unchanged chunks.  Each target (the hypothesis, each
reference) gives every chunk its target tokens; a chunk is *changed* in a target when the
target has an edit inside it.  A changed hypothesis chunk is a true positive when the
reference's chunk has the same target tokens, else a false positive (*necessary* when the
reference changed that chunk, *unnecessary* when not); an unchanged hypothesis chunk is a
false negative when its tokens differ from the reference's, else a true negative.

* ``dependent``: one count per reference, as above.
* ``independent``: one count for all references, repeated per reference: TP when any
  reference's chunk has the hypothesis' tokens, FP necessary when any reference changed it,
  FN only when **every** reference changed the chunk.

**Weights** (``length``): a chunk of length ``L = max(|source tokens|, |target tokens|)``
(of the hypothesis' chunk) weighs ``clip(α / (1 + (α−1)·exp(b − L)))`` as TP or FN and
``clip(α / (1 + (α−1)·exp(L − b)))`` as FP; TN weigh 1.  The bias ``b`` is the mean ``L``
of every changed reference chunk of the corpus (of the partition that includes the
hypothesis' edits, so it depends on the system).  The code's presets: α = 2, clip
[0.75, 1.25] whatever main.py asks (its ``LengthWeigher`` drops its arguments); main.py's
sentence presets (α = 10, TP clip [1, 10] dependent / [2.5, 10] independent, FP [0.25, 1],
FN [1, 1]) are :data:`LENGTH_PRESETS` ``sentence``.  ``none``: every weight 1.

**CLEME** (PRF): P = TP/(TP+FP) (1 when nothing is proposed), R = TP/(TP+FN) (1 when
nothing is missing), F_0.5 (0 when P + R = 0), Acc = (TP+TN)/all, **each rounded to 4
decimals**.  Corpus: each sentence's reference is the one whose counts added to the running
totals give the best *rounded* F, then more TP, fewer FP, fewer FN, more TN (the first on a
full tie).  Sentence (SentCLEME): each sentence's reference by its own (F, P, R, Acc); the
means of the rounded values (numpy's pairwise sum).

**CLEME2.0** (HEUO): with NE = TP + FP_ne + FN, hit = TP/NE, wrong = FP_ne/NE, under = FN/NE
(0 when NE = 0), over = FP_un/(TP+FP) (0 when nothing is proposed), combined =
α_hit·hit + α_wrong·(1−wrong) + α_under·(1−under) + α_over·(1−over) — so a sentence with
nothing to correct and no edit scores 1 − α_hit.  Corpus: reference by the running
combined score, then TP, −FP, −FN, TN; sentence: by (combined, hit, −wrong, −under,
−over); the presets are :data:`FACTORS`.

**Bootstrap** (:meth:`_Chunked.resampler`): per resample the same floats as the corpus
step on it (the length bias redone per resample), its weight-independent work done once
and the corpus level's reference choice taken for all resamples at once.

>>> from gecformats.model import Edit, Sentence
>>> gold = Sentence(("a", "cat", "sit"), {0: (Edit(2, 3, (("sat",),), "R:VERB"),)})
>>> metric = ClemeMetric(weighting="none")
>>> line = "a cat sat"
>>> stats = metric.sentence(metric.prepare(gold), Hypothesis(tuple(line.split()), line))
>>> metric.corpus([stats]).values
(1.0, 1.0, 1.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from gecformats import __version__
from gecformats.errors import GecFormatError
from gecformats.metrics.base import Hypothesis, Metric, Totals, _LoopingSwap
from gecformats.metrics.errant import ErrantMetric, RawEdit, extraction_name, raw_edits
from gecformats.model import Sentence

CODE = "e90abea"
"""The THUKElab/CLEME commit reproduced (v1.1.0)."""

ASSUMPTIONS = ("dependent", "independent")
LEVELS = ("corpus", "sentence")
WEIGHTINGS = ("length", "none")
EMPTY_REFERENCES = ("drop", "keep")

Clip = tuple[float, float, float]
"""``(alpha, min, max)`` of one kind of chunk."""

LENGTH_PRESETS: dict[str, dict[str, tuple[Clip, Clip, Clip]]] = {
    "code": {a: ((2.0, 0.75, 1.25), (2.0, 0.75, 1.25), (2.0, 0.75, 1.25)) for a in ASSUMPTIONS},
    "sentence": {"dependent": ((10.0, 1.0, 10.0), (10.0, 0.25, 1.0), (10.0, 1.0, 1.0)),
                 "independent": ((10.0, 2.5, 10.0), (10.0, 0.25, 1.0), (10.0, 1.0, 1.0))},
}
"""The length weigher's ``(TP, FP, FN)`` clips per assumption: ``code`` (the class defaults,
what every ``LengthWeigher(...)`` of e90abea is) and ``sentence`` (main.py's sentence-level
presets, which only CLEME v1.0 applies)."""

Factors = tuple[float, float, float, float]

FACTORS: dict[str, Factors] = {
    "corpus": (0.45, 0.35, 0.15, 0.05),
    "sentence": (0.35, 0.25, 0.20, 0.20),
    "class": (0.50, 0.40, 0.05, 0.05),
}
"""CLEME2.0's (hit, wrong, under, over) factor presets: README/main.py corpus (the
default), main.py sentence, the ``HEUOEditScorer`` class defaults; ``adapt`` is
:data:`ADAPT`."""

ADAPT: dict[tuple[str, bool], Factors] = {
    ("corpus", False): (0.60, 0.10, 0.10, 0.20),
    ("corpus", True): (0.60, 0.30, 0.05, 0.05),
    ("sentence", False): (0.60, 0.10, 0.05, 0.25),
    ("sentence", True): (0.15, 0.35, 0.35, 0.15),
}
"""``HEUOEditScorer.score(adapt=True)``'s factors per (level, weighted)."""

Target = tuple[list[str], list[tuple[int, int, int, int]]]
"""A target's tokens and its edits ``(start, end, target start, target end)``."""

RefCounts = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...], int]
"""Against one reference: the lengths of the TP chunks, of the FP chunks, whether each FP
is necessary, the lengths of the FN chunks, in chunk order, and the number of TN."""


class ClemeGold(NamedTuple):
    """What :meth:`ClemeMetric.prepare` keeps of a gold sentence."""

    source: tuple[str, ...]
    """The source tokens (as ERRANT-based metrics need them for text hypotheses)."""
    references: tuple[Target, ...]
    """Each reference annotator's target (in order of appearance; the source alone when the
    block has no ``A`` line)."""
    annotators: tuple[int, ...]
    """Their annotator ids."""


class ClemeStats(NamedTuple):
    """One hypothesis of one sentence: its counts against each reference kept."""

    refs: tuple[RefCounts, ...]
    annotators: tuple[int, ...]
    """The ids of the references kept (empty ones dropped unless ``keep``)."""
    bias_sum: int
    """The summed length of the changed chunks of every reference kept."""
    bias_count: int
    """Their number."""
    extracted: bool | str = False
    """The hypothesis' edits: its own (M2, ``False``), extracted by gecformats' aligner
    (``True``) or by ERRANT (``"errant"``)."""


def targets(source: Sequence[str], edits: Sequence[RawEdit]) -> tuple[list[Target], list[int]]:
    """Each annotator's target as CLEME's M2 reader builds it: edits applied in file order
    (``-NONE-`` as first token: a deletion; noop lines skipped), tokens split on white
    space; the annotators in order of appearance (none: the source, id 0)."""
    order: dict[int, list[tuple[int, int, str]]] = {}
    for start, end, _type, correction, annotator in edits:
        order.setdefault(annotator, [])
        if not start == end == -1:
            order[annotator].append((start, end, correction))
    if not order:
        order[0] = []
    out = []
    for raw in order.values():
        tgt, offset, spans = list(source), 0, []
        for start, end, correction in raw:
            toks = correction.strip().split()
            if toks and toks[0] == "-NONE-":
                toks = []
            b = start + offset
            tgt[b:end + offset] = toks
            offset += len(toks) - len(source[start:end])
            spans.append((start, end, b, b + len(toks)))
        out.append((" ".join(tgt).split(), spans))
    return out, list(order)


def _mapping(n: int, spans: Sequence[tuple[int, int, int, int]]) -> dict[int, int]:
    """CLEME's ``map_parallel``: source position → target position, around the edits."""
    mapping: dict[int, int] = {}
    s = t = 0
    for start, end, tb, te in spans:
        mapping[start] = tb
        mapping[end] = te
        while s < start:
            mapping[s] = t
            s += 1
            t += 1
        s, t = end, te
    while s <= n:
        mapping[s] = t
        s += 1
        t += 1
    return mapping


def misfit(n: int, spans: Sequence[tuple[int, int, int, int]]) -> str | None:
    """What is wrong with the first of ``spans`` (a target's edits) that does not fit a
    sentence of ``n`` tokens (a start after its end, before 0 or past the end), in words;
    ``None`` when all fit."""
    for start, end, _, _ in spans:
        if start > end:
            return f"edit {start} {end} starts after it ends"
        if start < 0 or end > n:
            return f"edit {start} {end} does not fit the sentence's {n} tokens"
    return None


def partition(source: Sequence[str], targets: Sequence[Target], merge_distance: int = 0
              ) -> list[list[tuple[tuple[str, ...], bool, int]]]:
    """The chunk partition of ``source`` by all ``targets``' edits: per target, per chunk,
    its target tokens, whether the target changed it, and the chunk's source length.

    Time and memory are linear in the tokens and edits (the edits sorted once).

    Raises:
        GecFormatError: an edit that does not fit the source (:func:`misfit`), naming its
            target by index.
        ValueError: a negative ``merge_distance``.
    """
    if merge_distance < 0:
        raise ValueError(f"merge_distance is at least 0, not {merge_distance}")
    n = len(source)
    for k, (_, spans) in enumerate(targets):
        wrong = misfit(n, spans)
        if wrong is not None:
            raise GecFormatError(f"CLEME cannot chunk this sentence: target {k}'s {wrong}")
    sorted_spans = [sorted(spans, key=lambda e: e[0]) for _, spans in targets]
    shared: list[list[int]] = []
    for start, end, _, _ in sorted([e for spans in sorted_spans for e in spans],
                                   key=lambda e: e[0]):
        if shared and start <= shared[-1][1] + merge_distance:
            shared[-1][1] = max(end, shared[-1][1])
        else:
            shared.append([start, end])
    # the merged intervals are ordered, each within [0, n] and after the previous one's end:
    # every step below moves on, so the loop ends
    intervals: list[tuple[int, int]] = []
    s = k = 0
    while s <= n:
        if k == len(shared):
            if s != n:
                intervals.append((s, n))
            break
        a, b = shared[k]
        if s == a == b:
            intervals.append((a, b))
            k += 1
        elif a <= s < b:
            intervals.append((a, b))
            s = b
            k += 1
        else:
            intervals.append((s, a))
            s = a
    out = []
    for (tokens, _), spans in zip(targets, sorted_spans):
        mapping = _mapping(n, spans)
        changed: dict[tuple[int, int], tuple[int, int]] = {}
        at = 0  # the merged interval of the current span: the last starting at or before it
        for start, end, _, _ in spans:
            while at + 1 < len(shared) and shared[at + 1][0] <= start:
                at += 1
            a, b = shared[at]
            tb = 0 if a == 0 else mapping[a - 1] + 1
            changed[a, b] = (tb, mapping[b])
        chunks = []
        for a, b in intervals:
            if (a, b) in changed:
                tb, te = changed[a, b]
                chunks.append((tuple(tokens[tb:te]), True, b - a))
            else:
                tb = mapping[a]
                te = mapping[b - 1] + 1 if b != 0 else 0
                chunks.append((tuple(tokens[tb:te]), False, b - a))
        out.append(chunks)
    return out


def evaluate(hyp: list[tuple[tuple[str, ...], bool, int]],
             refs: Sequence[list[tuple[tuple[str, ...], bool, int]]], assumption: str
             ) -> tuple[RefCounts, ...]:
    """The hypothesis' chunks classified against each reference (see the module notes)."""
    def length(chunk: tuple[tuple[str, ...], bool, int]) -> int:
        return max(chunk[2], len(chunk[0]))

    if assumption == "dependent":
        out = []
        for ref in refs:
            tp: list[int] = []
            fp: list[int] = []
            ne: list[bool] = []
            fn: list[int] = []
            tn = 0
            for h, r in zip(hyp, ref):
                if h[1]:
                    if h[0] == r[0]:
                        tp.append(length(h))
                    else:
                        fp.append(length(h))
                        ne.append(r[1])
                elif h[0] != r[0]:
                    fn.append(length(h))
                else:
                    tn += 1
            out.append((tuple(tp), tuple(fp), tuple(ne), tuple(fn), tn))
        return tuple(out)
    tp, fp, ne, fn, tn = [], [], [], [], 0
    for c, h in enumerate(hyp):
        at = [ref[c] for ref in refs]
        if h[1]:
            if any(h[0] == r[0] for r in at):
                tp.append(length(h))
            else:
                fp.append(length(h))
                ne.append(any(r[1] for r in at))
        elif all(r[1] for r in at):
            fn.append(length(h))
        else:
            tn += 1
    counts = (tuple(tp), tuple(fp), tuple(ne), tuple(fn), tn)
    return (counts,) * len(refs)


def prf(tp: float, fp: float, fn: float, beta: float = 0.5) -> tuple[float, float, float]:
    """CLEME's ``compute_prf``: P (1 with nothing proposed), R (1 with nothing missed),
    F_β (0 when P + R = 0), each rounded to 4 decimals."""
    p = float(tp) / (tp + fp) if (tp + fp) else 1.0
    r = float(tp) / (tp + fn) if (tp + fn) else 1.0
    f = float((1 + (beta ** 2)) * p * r) / (((beta ** 2) * p) + r) if (p + r) else 0.0
    return round(p, 4), round(r, 4), round(f, 4)


def _rounded_f(tp: float, fp: float, fn: float) -> float:
    """``prf(tp, fp, fn)[2]`` (β = 0.5) without rounding P and R, which F does not use."""
    p = float(tp) / (tp + fp) if (tp + fp) else 1.0
    r = float(tp) / (tp + fn) if (tp + fn) else 1.0
    return round(float(1.25 * p * r) / ((0.25 * p) + r) if (p + r) else 0.0, 4)


def accuracy(tp: float, fp: float, fn: float, tn: float) -> float:
    """CLEME's ``compute_acc``: (TP + TN) / all (0 when there is no chunk), rounded to 4
    decimals."""
    total = tp + fp + fn + tn
    return round(float(tp + tn) / total if total else 0.0, 4)


def heuo(tp: float, fp_ne: float, fn: float, fp_un: float, factors: Factors
         ) -> tuple[float, float, float, float, float]:
    """CLEME2.0's ``compute_comprehensive_indicator``: (hit, wrong, under, over, combined)."""
    ne = tp + fp_ne + fn
    fp = fp_ne + fp_un
    hit = float(tp) / ne if ne else 0.0
    err = float(fp_ne) / ne if ne else 0.0
    und = float(fn) / ne if ne else 0.0
    ove = float(fp_un) / (tp + fp) if (tp + fp) else 0.0
    a, b, c, d = factors
    return hit, err, und, ove, a * hit + b * (1 - err) + c * (1 - und) + d * (1 - ove)


class Weigher:
    """The chunk weights of one corpus (one system): the length weigher's (bias from the
    corpus' changed reference chunks) or all 1 (``None`` clips)."""

    def __init__(self, clips: tuple[Clip, Clip, Clip] | None, bias: float) -> None:
        self.clips, self.bias = clips, bias
        self._cache: dict[tuple[int, int], float] = {}
        self._sums: dict[RefCounts, tuple[float, float, float, float, float, float]] = {}

    def weight(self, kind: int, length: int) -> float:
        """The weight of a chunk of ``length`` as TP (0), FP (1) or FN (2)."""
        key = (kind, length)
        w = self._cache.get(key)
        if w is None:
            if self.clips is None:
                w = 1.0
            else:
                alpha, low, high = self.clips[kind]
                bias = np.float64(self.bias)
                x = (length - bias) if kind == 1 else (-length + bias)
                w = np.clip(alpha * (1 / (1 + (alpha - 1) * np.exp(x))), low, high).item()
                w = w or 1.0  # PRF sums ``weight or 1.0``; a weight is never 0 with these clips
            self._cache[key] = w
        return w

    def sums(self, counts: RefCounts) -> tuple[float, float, float, float, float, float]:
        """``(tp, fp, fn, tn, fp_ne, fp_un)`` weighted, each summed in chunk order as the
        original sums them."""
        done = self._sums.get(counts)
        if done is None:
            done = self._sums[counts] = self._sum(counts)
        return done

    def _sum(self, counts: RefCounts) -> tuple[float, float, float, float, float, float]:
        tp_l, fp_l, ne, fn_l, tn = counts
        tp = sum([self.weight(0, x) for x in tp_l], 0.0)
        fps = [self.weight(1, x) for x in fp_l]
        fn = sum([self.weight(2, x) for x in fn_l], 0.0)
        return (tp, sum(fps, 0.0), fn, float(tn), sum([w for w, n in zip(fps, ne) if n], 0.0),
                sum([w for w, n in zip(fps, ne) if not n], 0.0))


def plain(counts: RefCounts) -> tuple[int, int, int, int, int, int]:
    """``(tp, fp, fn, tn, fp_ne, fp_un)`` counted."""
    tp_l, fp_l, ne, fn_l, tn = counts
    n = sum(ne)
    return len(tp_l), len(fp_l), len(fn_l), tn, n, len(fp_l) - n


def _mean(values: Sequence[float], weights: Sequence[int] | None) -> float:
    """numpy's ``np.average`` (pairwise sum), sentence ``i`` counted ``weights[i]`` times."""
    if weights is None:
        return float(np.average(values)) if len(values) else 0.0
    w = np.asarray(weights, dtype=np.float64)
    return float(np.average(values, weights=w)) if w.sum() > 0 else 0.0


class _Chunked(ErrantMetric):
    """What CLEME and CLEME2.0 share: the chunk statistics (the hypothesis' edits as
    :class:`~gecformats.metrics.errant.ErrantMetric` gets them: an M2 hypothesis' own, a text
    hypothesis' extracted by ``extractor``), the weights, the reference choice."""

    def __init__(self, assumption: str, level: str, weighting: str, length_preset: str,
                 empty_refs: str, extractor: str, spacy_model: str | None) -> None:
        if weighting == "length-sentence":  # the command line's one name for both
            weighting, length_preset = "length", "sentence"
        for value, known, what in ((assumption, ASSUMPTIONS, "assumption"),
                                   (level, LEVELS, "level"),
                                   (weighting, WEIGHTINGS, "weighting"),
                                   (length_preset, tuple(LENGTH_PRESETS), "length preset"),
                                   (empty_refs, EMPTY_REFERENCES, "empty-reference policy")):
            if value not in known:
                raise ValueError(f"unknown CLEME {what} {value!r} (known: {', '.join(known)})")
        ErrantMetric.__init__(self, extractor=extractor, spacy_model=spacy_model)
        self.assumption, self.level, self.weighting = assumption, level, weighting
        self.length_preset, self.empty_refs = length_preset, empty_refs
        self._bias: float | None = None

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(assumption={self.assumption!r}, level={self.level!r}, "
                f"weighting={self.weighting!r}, length_preset={self.length_preset!r}, "
                f"empty_refs={self.empty_refs!r}, extractor={self.extractor!r})")

    def prepare(self, gold: Sentence) -> ClemeGold:
        """The gold sentence's source and each reference annotator's target.

        Raises:
            GecFormatError: a gold edit that does not fit its sentence (:func:`misfit`):
                the gold's fault, whatever the hypothesis.
        """
        refs, ids = targets(gold.source, raw_edits(gold))
        n = len(" ".join(gold.source).split())
        for (_, spans), annotator in zip(refs, ids):
            wrong = misfit(n, spans)
            if wrong is not None:
                raise GecFormatError(f"CLEME cannot chunk this sentence: the gold's {wrong} "
                                     f"(annotator {annotator})")
        return ClemeGold(tuple(gold.source), tuple(refs), tuple(ids))

    def _stats(self, prepared: ClemeGold, edits: list[RawEdit], extracted: bool | str
               ) -> ClemeStats:
        """The chunk counts of one hypothesis (its first annotator) against each reference
        kept.

        Raises:
            GecFormatError: a hypothesis edit that does not fit the sentence
                (:func:`misfit`; the gold's were checked by :meth:`prepare`).
        """
        first = next((e[4] for e in edits), 0)
        hyp, _ = targets(prepared.source, [e for e in edits if e[4] == first])
        refs, ids = list(prepared.references), list(prepared.annotators)
        if self.empty_refs == "drop":
            kept = [i for i, r in enumerate(refs) if r[0]] or [0]
            refs, ids = [refs[i] for i in kept], [ids[i] for i in kept]
        source = " ".join(prepared.source).split()
        wrong = misfit(len(source), hyp[0][1])
        if wrong is not None:
            raise GecFormatError(f"CLEME cannot chunk this sentence: the hypothesis' {wrong}")
        chunks = partition(source, [hyp[0], *refs])
        changed = [max(c[2], len(c[0])) for ref in chunks[1:] for c in ref if c[1]]
        return ClemeStats(evaluate(chunks[0], chunks[1:], self.assumption), tuple(ids),
                          sum(changed), len(changed), extracted)

    def weigher(self, stats: Sequence[ClemeStats], weights: Sequence[int] | None = None
                ) -> Weigher:
        """The weights of this corpus (``weights[i]`` times sentence ``i``)."""
        if self.weighting == "none":
            return Weigher(None, 0.0)
        if weights is None:
            total = sum(s.bias_sum for s in stats)
            count = sum(s.bias_count for s in stats)
        else:
            total = sum(s.bias_sum * w for s, w in zip(stats, weights))
            count = sum(s.bias_count * w for s, w in zip(stats, weights))
        # no changed reference chunk at all: the original's bias is NaN; 0 keeps numbers
        bias = total / count if count else 0.0
        return Weigher(LENGTH_PRESETS[self.length_preset][self.assumption], bias)

    def _candidates(self, stats: Sequence[ClemeStats], weigher: Weigher) -> list[list[tuple]]:
        """Per sentence, the counts against each reference; the first alone when all are
        equal (whatever the totals, the first is chosen then)."""
        count = plain if self.weighting == "none" else weigher.sums
        out = []
        for s in stats:
            cand = [count(c) for c in s.refs]
            out.append(cand if len(cand) > 1 and cand.count(cand[0]) != len(cand) else cand[:1])
        return out

    def for_totals(self, totals: Totals) -> Metric:
        """This metric with the corpus weights of ``totals`` (its ``bias``) fixed, for the
        per-sentence fields of that system."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._bias = totals.extra.get("bias")
        return clone

    def _sentence_weigher(self) -> Weigher:
        if self.weighting == "none":
            return Weigher(None, 0.0)
        return Weigher(LENGTH_PRESETS[self.length_preset][self.assumption],
                       self._bias if self._bias is not None else 0.0)

    def resampler(self, stats: Sequence[ClemeStats]) -> Any:
        """The bootstrap (:class:`_Resampler`): the same floats as :meth:`corpus` per row,
        the weight-independent work done once."""
        return _Resampler(self, stats)

    def swapper(self, a: Sequence[ClemeStats], b: Sequence[ClemeStats]) -> Any:
        """The corpus step twice per row of swaps."""
        return _LoopingSwap(self, a, b)

    def warnings(self) -> list[str]:
        """None: CLEME reads no edit types."""
        return []

    def corpus(self, stats: Sequence[ClemeStats], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """The metric's values (CLEME: P, R, F_0.5, Acc; CLEME2.0: combined, hit, wrong,
        under, over; see the module notes); :attr:`Totals.counts`: the chosen references'
        summed ``tp``, ``fp``, ``fn``, ``tn`` (weighted; CLEME2.0 also ``fp_ne``,
        ``fp_un``); :attr:`Totals.extra`: the length weigher's ``bias``.

        Raises:
            ValueError: ``choices`` with ``weights``; a negative weight.
        """
        weigher, cands = self._weighed(stats, weights, choices)
        return self._score(cands, weights, choices, self._extra(stats, weigher, weights is None))

    def _score(self, cands: Sequence[Sequence[Sequence[float]]], weights: Sequence[int] | None,
               choices: bool, extra: dict[str, Any]) -> Totals:
        """The corpus step after the candidates (each metric its own)."""
        raise NotImplementedError

    def _weighed(self, stats: Sequence[ClemeStats], weights: Sequence[int] | None,
                 choices: bool) -> tuple[Weigher, list[list[tuple]]]:
        """The corpus step's start, shared by CLEME and CLEME2.0: the weigher of ``stats``
        under ``weights`` and each sentence's candidate references.

        Raises:
            ValueError: ``choices`` with ``weights``; a negative weight.
        """
        if choices and weights is not None:
            raise ValueError("choices are given for the corpus itself, without weights")
        if weights is not None and any(w < 0 for w in weights):
            raise ValueError("a negative weight")
        weigher = self.weigher(stats, weights)
        return weigher, self._candidates(stats, weigher)

    def _signature(self, name: str, extra: str = "", hyp: str | None = None) -> str:
        weights = self.weighting if self.weighting == "none" else \
            f"length-{self.length_preset}"
        system = f"|hyp:{hyp}" if hyp is not None else ""
        return (f"metric:{name}|code:{CODE}|assumption:{self.assumption}|level:{self.level}"
                f"|weights:{weights}|empty-refs:{self.empty_refs}{extra}{system}"
                f"|gecformats:{__version__}")

    def _extra(self, stats: Sequence[ClemeStats], weigher: Weigher, corpus: bool
               ) -> dict[str, Any]:
        """:attr:`Totals.extra`: the ``bias``; on the corpus itself also the system's
        ``signature`` with ``hyp:`` (``m2``, ``extracted-lcs``, ``extracted-errant-V``: how
        its edits were had, as ERRANT's)."""
        extra: dict[str, Any] = {"bias": weigher.bias}
        if corpus:
            hyp = "m2"
            if any(s.extracted == "errant" for s in stats):
                from gecformats.convert.errant_extract import cached, version

                hyp = f"extracted-{version(cached(self.spacy_model))}"
            elif any(s.extracted is True for s in stats):
                hyp = extraction_name(self.extractor)
            extra["signature"] = self.signature(hyp)
        return extra


class _Resampler:
    """The corpus step of :class:`_Chunked` per row of bootstrap weights, giving the same
    floats: unweighted, each sentence's candidates once (they do not depend on the
    weights); length-weighted, per row its bias (as :meth:`_Chunked.weigher`), then per
    distinct bias every distinct reference's weighted sums at once (NumPy, the same
    operations in the same order as :class:`Weigher`); at the corpus level the reference
    choice, sentence after sentence, for all rows at once (:meth:`_greedy`); at the
    sentence level the means of each sentence's values (computed once when unweighted)."""

    BLOCK = 1000
    """Rows whose sums are held at once (memory: rows × distinct counts × 6 floats)."""

    def __init__(self, metric: _Chunked, stats: Sequence[ClemeStats]) -> None:
        self.metric = metric
        stats = list(stats)
        self.fixed = metric._candidates(stats, Weigher(None, 0.0)) \
            if metric.weighting == "none" else None
        index: dict[RefCounts, int] = {}
        self.refs = [[index.setdefault(c, len(index)) for c in s.refs] for s in stats]
        self.unique = list(index)
        lengths = sorted({x for c in self.unique for part in (c[0], c[1], c[3]) for x in part})
        self.column = {x: j for j, x in enumerate(lengths)}
        self.lengths = np.array(lengths, dtype=np.float64)
        self.bias_sum = np.array([s.bias_sum for s in stats], dtype=np.int64)
        self.bias_count = np.array([s.bias_count for s in stats], dtype=np.int64)

    def scores(self, weights: Sequence[Sequence[int]]) -> list[tuple[float, ...]]:
        """The corpus step's values for each row of weights.

        Raises:
            ValueError: a negative weight.
        """
        rows = [list(map(int, w)) for w in weights]
        if any(x < 0 for w in rows for x in w):
            raise ValueError("a negative weight")
        out: list[tuple[float, ...]] = []
        if self.fixed is not None and self.metric.level == "sentence":
            return self._sentence_means(rows)
        for start in range(0, len(rows), self.BLOCK):
            block = rows[start:start + self.BLOCK]
            if self.metric.level == "corpus":
                out.extend(self._greedy(block))
            else:
                out.extend(self._sentence_means(block))
        return out

    def _sentence_means(self, rows: list[list[int]]) -> list[tuple[float, ...]]:
        """Sentence level: each sentence's values (once when unweighted; per row, once per
        distinct set of references, when length-weighted), their weighted means per row
        (as the corpus step's ``_mean``)."""
        cleme = isinstance(self.metric, ClemeMetric)
        factors = getattr(self.metric, "factors", None)

        def values(cand: Sequence[Sequence[float]]) -> tuple[float, ...]:
            return sentence_prf(cand)[1] if cleme else sentence_heuo(cand, factors)[1]

        width = 4 if cleme else 5
        if self.fixed is not None:
            fixed = [values(c) for c in self.fixed]
            columns = [[v[j] for v in fixed] for j in range(width)]
        out: list[tuple[float, ...]] = []
        for w, row in zip(rows, self._rows(rows) if self.fixed is None else rows):
            if self.fixed is None:
                memo: dict[tuple[int, ...], tuple[float, ...]] = {}
                per = []
                for refs in self.refs:
                    key = tuple(refs)
                    v = memo.get(key)
                    if v is None:
                        v = memo[key] = values([row[u] for u in refs])
                    per.append(v)
                columns = [[v[j] for v in per] for j in range(width)]
            means = [_mean(col, w) for col in columns]
            out.append((means[1], means[2], means[0], means[3]) if cleme else tuple(means))
        return out

    def _rows(self, block: list[list[int]]) -> list[list[list[float]]]:
        """Per row of ``block``, the length-weighted sums of every distinct reference count
        (:meth:`_sums` under the row's bias)."""
        biases = self._biases(np.array(block, dtype=np.int64).reshape(len(block), -1))
        distinct = list(dict.fromkeys(biases))
        by_bias = dict(zip(distinct, self._sums(np.array(distinct, dtype=np.float64)).tolist()))
        return [by_bias[b] for b in biases]

    def _greedy(self, block: list[list[int]]) -> list[tuple[float, ...]]:
        """The corpus level's reference choice on the running totals, each sentence in
        turn for all rows of ``block`` at once (the same additions in the same order as
        the corpus step; its rounded F through :func:`_round4`)."""
        w = np.array(block, dtype=np.int64).reshape(len(block), -1)
        if self.fixed is not None:
            sums = np.array([plain(c) for c in self.unique], dtype=np.int64)[None]
            which = np.zeros(len(block), dtype=np.int64)
        else:
            biases = self._biases(w)
            distinct = list(dict.fromkeys(biases))
            sums = self._sums(np.array(distinct, dtype=np.float64))
            where = {b: j for j, b in enumerate(distinct)}
            which = np.array([where[b] for b in biases], dtype=np.int64)
        cleme = isinstance(self.metric, ClemeMetric)
        width, fixed = 4 if cleme else 6, self.fixed is not None
        totals = np.zeros((len(block), width), dtype=sums.dtype)
        for i, refs in enumerate(self.refs):
            column = w[:, i]
            for rep in range(int(column.max(initial=0))):
                rows = np.flatnonzero(column > rep)
                t = totals[rows]
                cands = [sums[0, u:u + 1, :width] if fixed else sums[which[rows], u, :width]
                         for u in refs]
                best = cands[0]
                if len(cands) > 1:
                    best = np.broadcast_to(best, t.shape)
                    key = self._key(t, best, cleme)
                    for c in cands[1:]:
                        now = self._key(t, c, cleme)
                        better = now[-1] > key[-1]
                        for x, y in zip(now[-2::-1], key[-2::-1]):
                            better = (x > y) | ((x == y) & better)
                        best = np.where(better[:, None], c, best)
                        key = [np.where(better, x, y) for x, y in zip(now, key)]
                totals[rows] = t + best
        out: list[tuple[float, ...]] = []
        for t in totals.tolist():
            if cleme:
                p, r, f = prf(t[0], t[1], t[2])
                out.append((p, r, f, accuracy(t[0], t[1], t[2], t[3])))
            else:
                hit, err, und, ove, com = heuo(t[0], t[4], t[2], t[5],
                                               self.metric.factors)  # type: ignore[attr-defined]
                out.append((com, hit, err, und, ove))
        return out

    def _key(self, t: np.ndarray, c: np.ndarray, cleme: bool) -> list[np.ndarray]:
        """The corpus step's choice key ``(score, tp, -fp, -fn, tn)`` per row of candidate
        counts ``c`` added to totals ``t``."""
        with np.errstate(divide="ignore", invalid="ignore"):
            if cleme:
                tp, fp, fn = t[:, 0] + c[:, 0], t[:, 1] + c[:, 1], t[:, 2] + c[:, 2]
                p = np.where(tp + fp != 0, tp / (tp + fp), 1.0)
                r = np.where(tp + fn != 0, tp / (tp + fn), 1.0)
                score = _round4(np.where(p + r != 0, (1.25 * p * r) / ((0.25 * p) + r), 0.0))
            else:
                tp, fp_ne = t[:, 0] + c[:, 0], t[:, 4] + c[:, 4]
                fn, fp_un = t[:, 2] + c[:, 2], t[:, 5] + c[:, 5]
                ne = tp + fp_ne + fn
                fp = fp_ne + fp_un
                hit = np.where(ne != 0, tp / ne, 0.0)
                err = np.where(ne != 0, fp_ne / ne, 0.0)
                und = np.where(ne != 0, fn / ne, 0.0)
                ove = np.where(tp + fp != 0, fp_un / (tp + fp), 0.0)
                a, b, g, d = self.metric.factors  # type: ignore[attr-defined]
                score = a * hit + b * (1 - err) + g * (1 - und) + d * (1 - ove)
        return [score, c[:, 0], -c[:, 1], -c[:, 2], c[:, 3]]

    def _biases(self, w: np.ndarray) -> list[float]:
        """Each row's length-weigher bias, as :meth:`_Chunked.weigher` divides."""
        totals, counts = (w @ self.bias_sum).tolist(), (w @ self.bias_count).tolist()
        return [t / c if c else 0.0 for t, c in zip(totals, counts)]

    def _sums(self, bias: np.ndarray) -> np.ndarray:
        """``(biases, distinct counts, 6)``: :meth:`Weigher.sums` of each distinct reference
        count under each bias, element for element the same float operations."""
        clips = LENGTH_PRESETS[self.metric.length_preset][self.metric.assumption]
        tables = []
        for kind, (alpha, low, high) in enumerate(clips):
            x = (self.lengths[None, :] - bias[:, None]) if kind == 1 else \
                ((-self.lengths)[None, :] + bias[:, None])
            tables.append(np.clip(alpha * (1 / (1 + (alpha - 1) * np.exp(x))), low, high))
        out = np.zeros((len(bias), len(self.unique), 6), dtype=np.float64)
        zero = np.zeros(len(bias), dtype=np.float64)
        col = self.column
        for u, (tp_l, fp_l, ne, fn_l, tn) in enumerate(self.unique):
            tp, fp, fn, fp_ne, fp_un = zero, zero, zero, zero, zero
            for x in tp_l:
                tp = tp + tables[0][:, col[x]]
            for x, n in zip(fp_l, ne):
                v = tables[1][:, col[x]]
                fp = fp + v
                if n:
                    fp_ne = fp_ne + v
                else:
                    fp_un = fp_un + v
            for x in fn_l:
                fn = fn + tables[2][:, col[x]]
            out[:, u, 0], out[:, u, 1], out[:, u, 2] = tp, fp, fn
            out[:, u, 3], out[:, u, 4], out[:, u, 5] = float(tn), fp_ne, fp_un
        return out


def _round4(x: np.ndarray) -> np.ndarray:
    """``round(v, 4)`` of each value, as Python rounds (correctly, half to even): the
    nearest integer of ``v·10⁴`` over 10⁴, which is Python's value unless ``v·10⁴`` is
    within a hair of a half (float error), where Python's own ``round`` decides."""
    y = x * 10000.0
    out = np.rint(y) / 10000.0
    near = np.flatnonzero(np.abs(y - np.floor(y) - 0.5) < 1e-6)
    for j in near.tolist():
        out[j] = round(float(x[j]), 4)
    return out


def _options(extra: set[str]) -> frozenset[str]:
    return frozenset({"cleme-assumption", "cleme-level", "cleme-weighting", "extractor",
                      "spacy-model", *extra})


class ClemeMetric(_Chunked):
    """CLEME (``--metric cleme``): chunk-level P, R, F_0.5 and accuracy (see the module
    notes); default dependent, length-weighted, corpus level (the original README's
    example).

    Args:
        assumption: ``dependent`` or ``independent``.
        level: ``corpus`` (greedy reference choice on the running totals) or ``sentence``
            (SentCLEME: the mean of per-sentence values).
        weighting: ``length``, ``none``, or ``length-sentence`` (``length`` with
            ``length_preset`` ``sentence``: the command line's ``--cleme-weighting``).
        length_preset: ``code`` (α = 2, clip [0.75, 1.25]: what e90abea always uses) or
            ``sentence`` (main.py's sentence presets, as CLEME v1.0 applies them).
        empty_refs: ``drop`` (e90abea: a reference that deletes the whole sentence is left
            out, unless all are) or ``keep`` (v1.0).
        extractor, spacy_model: how a text hypothesis' edits are extracted.

    Raises:
        ValueError: an unknown value.
    """

    name = "cleme"
    label = "CLEME"
    columns = ("precision", "recall", "f", "accuracy")
    main = "f"
    options = _options(set())
    declines = {"beta": "CLEME's F is F0.5, as the original's",
                "errant-mode": "CLEME counts chunks, not ERRANT's keys"}
    needs_edits = True

    def __init__(self, assumption: str = "dependent", level: str = "corpus",
                 weighting: str = "length", length_preset: str = "code",
                 empty_refs: str = "drop", extractor: str = "lcs",
                 spacy_model: str | None = None) -> None:
        _Chunked.__init__(self, assumption, level, weighting, length_preset, empty_refs,
                          extractor, spacy_model)

    @classmethod
    def from_options(cls, options: Any) -> Metric:
        """Built from ``--cleme-*`` (prefix dropped), ``--extractor``, ``--spacy-model``."""
        return cls(**{k.removeprefix("cleme-").replace("-", "_"): v for k, v in options.items()})

    def _score(self, cands: Sequence[Sequence[Sequence[float]]], weights: Sequence[int] | None,
               choices: bool, extra: dict[str, Any]) -> Totals:
        """The corpus step after the candidates: each sentence's reference chosen, the
        values of the chosen counts."""
        chosen: list[int] = []
        if self.level == "sentence":
            rows, counts = [], [0, 0, 0, 0]
            for cand in cands:
                k, values = sentence_prf(cand)
                chosen.append(k)
                rows.append(values)
                for j in range(4):
                    counts[j] += cand[k][j]
            f, p, r, acc = (_mean([row[j] for row in rows], weights) for j in range(4))
            return Totals((p, r, f, acc), dict(zip(("tp", "fp", "fn", "tn"), counts)),
                          tuple(chosen) if choices else (), extra)
        tp = fp = fn = tn = 0
        for i, cand in enumerate(cands):
            for _ in range(1 if weights is None else weights[i]):
                best, key = 0, (-1.0, 0, 0, 0, 0)
                for k, c in enumerate(cand if len(cand) > 1 else ()):
                    f = _rounded_f(tp + c[0], fp + c[1], fn + c[2])
                    now = (f, c[0], -c[1], -c[2], c[3])
                    if now > key:
                        best, key = k, now
                c = cand[best]
                tp, fp, fn, tn = tp + c[0], fp + c[1], fn + c[2], tn + c[3]
            if choices:
                chosen.append(best)
        p, r, f = prf(tp, fp, fn)
        return Totals((p, r, f, accuracy(tp, fp, fn, tn)),
                      {"tp": tp, "fp": fp, "fn": fn, "tn": tn}, tuple(chosen), extra)

    def signature(self, hyp: str | None = None) -> str:
        """``metric:cleme|code:e90abea|assumption:…|level:…|weights:…|empty-refs:…``, then
        ``|hyp:HYP`` when given, then ``|gecformats:V``."""
        return self._signature("cleme", "", hyp)

    sentence_score = "f"

    def sentence_fields(self, stats: ClemeStats, choice: int) -> dict[str, Any]:
        """The chosen ``reference`` (annotator id), its ``tp``, ``fp``, ``fn``, ``tn``
        (weighted) and that sentence's own ``p``, ``r``, ``f``, ``acc``."""
        c = self._candidates([stats], self._sentence_weigher())[0][choice]
        p, r, f = prf(c[0], c[1], c[2])
        return {"reference": stats.annotators[choice], "tp": c[0], "fp": c[1], "fn": c[2],
                "tn": c[3], "p": p, "r": r, "f": f, "acc": accuracy(*c[:4])}


def sentence_prf(cand: Sequence[tuple]) -> tuple[int, tuple[float, float, float, float]]:
    """SentCLEME's choice among one sentence's references: the best (F, P, R, Acc) of the
    sentence alone (β = 0.5, first on a tie); its index and ``(f, p, r, acc)``."""
    best, key = 0, (-1.0, -1.0, -1.0, -1.0)
    for k, c in enumerate(cand):
        p, r, f = prf(c[0], c[1], c[2])
        now = (f, p, r, accuracy(*c[:4]))
        if now > key:
            best, key = k, now
    return best, key


class Cleme2Metric(_Chunked):
    """CLEME2.0 (``--metric cleme2``): combined, hit, wrong, under and over (see the module
    notes); default dependent, unweighted, corpus level, the README's corpus factors.

    Args:
        factors: a :data:`FACTORS` name, ``adapt`` (:data:`ADAPT`), or four numbers
            ``hit,wrong,under,over`` summing to 1 (± 1e-5).
        others: as :class:`ClemeMetric` (``weighting`` defaults to ``none``: the original's
            CLEME2.0 weights by BERTScore similarity, out of scope here; ``length`` is the
            paper's length-weighted variant).

    Raises:
        ValueError: an unknown value; factors that do not sum to 1.
    """

    name = "cleme2"
    label = "CLEME2.0"
    columns = ("combined", "hit", "wrong", "under", "over")
    main = "combined"
    options = _options({"cleme2-factors"})
    declines = ClemeMetric.declines
    needs_edits = True

    def __init__(self, assumption: str = "dependent", level: str = "corpus",
                 weighting: str = "none", length_preset: str = "code",
                 empty_refs: str = "drop", factors: str | Sequence[float] = "corpus",
                 extractor: str = "lcs", spacy_model: str | None = None) -> None:
        _Chunked.__init__(self, assumption, level, weighting, length_preset, empty_refs,
                          extractor, spacy_model)
        self.factors_name = factors if isinstance(factors, str) else None
        self.factors = parse_factors(factors, level, weighting != "none")

    @classmethod
    def from_options(cls, options: Any) -> Metric:
        """Built from ``--cleme-*``, ``--cleme2-factors`` (prefixes dropped), ``--extractor``,
        ``--spacy-model``."""
        return cls(**{k.removeprefix("cleme2-").removeprefix("cleme-").replace("-", "_"): v
                      for k, v in options.items()})

    def _score(self, cands: Sequence[Sequence[Sequence[float]]], weights: Sequence[int] | None,
               choices: bool, extra: dict[str, Any]) -> Totals:
        """The corpus step after the candidates: each sentence's reference chosen, the
        values of the chosen counts."""
        names = ("tp", "fp", "fn", "tn", "fp_ne", "fp_un")
        chosen: list[int] = []
        if self.level == "sentence":
            rows, counts = [], [0] * 6
            for cand in cands:
                k, values = sentence_heuo(cand, self.factors)
                chosen.append(k)
                rows.append(values)
                for j in range(6):
                    counts[j] += cand[k][j]
            com, hit, err, und, ove = (_mean([row[j] for row in rows], weights)
                                       for j in range(5))
            return Totals((com, hit, err, und, ove), dict(zip(names, counts)),
                          tuple(chosen) if choices else (), extra)
        t = [0] * 6
        factors = self.factors
        for i, cand in enumerate(cands):
            for _ in range(1 if weights is None else weights[i]):
                best, key = 0, (-1.0, 0, 0, 0, 0)
                for k, c in enumerate(cand if len(cand) > 1 else ()):
                    com = heuo(t[0] + c[0], t[4] + c[4], t[2] + c[2], t[5] + c[5], factors)[4]
                    now = (com, c[0], -c[1], -c[2], c[3])
                    if now > key:
                        best, key = k, now
                c = cand[best]
                t = [x + y for x, y in zip(t, c)]
            if choices:
                chosen.append(best)
        hit, err, und, ove, com = heuo(t[0], t[4], t[2], t[5], factors)
        return Totals((com, hit, err, und, ove), dict(zip(names, t)), tuple(chosen), extra)

    def signature(self, hyp: str | None = None) -> str:
        """``metric:cleme2|code:e90abea|…|factors:NAME-or-numbers``, then ``|hyp:HYP`` when
        given, then ``|gecformats:V``."""
        name = self.factors_name or ",".join(f"{x:g}" for x in self.factors)
        return self._signature("cleme2", f"|factors:{name}", hyp)

    sentence_score = "combined"

    def sentence_fields(self, stats: ClemeStats, choice: int) -> dict[str, Any]:
        """The chosen ``reference`` (annotator id), its ``tp``, ``fp``, ``fn``, ``tn``,
        ``fp_ne``, ``fp_un`` (weighted) and that sentence's own combined, hit, wrong,
        under, over."""
        c = self._candidates([stats], self._sentence_weigher())[0][choice]
        hit, err, und, ove, com = heuo(c[0], c[4], c[2], c[5], self.factors)
        return {"reference": stats.annotators[choice],
                **dict(zip(("tp", "fp", "fn", "tn", "fp_ne", "fp_un"), c)),
                "combined": com, "hit": hit, "wrong": err, "under": und, "over": ove}


def sentence_heuo(cand: Sequence[tuple], factors: Factors
                  ) -> tuple[int, tuple[float, float, float, float, float]]:
    """CLEME2.0's choice among one sentence's references: the best (combined, hit, −wrong,
    −under, −over) of the sentence alone (first on a tie); its index and
    ``(combined, hit, wrong, under, over)``."""
    best, key, values = 0, (-1.0, -1.0, 1.0, 1.0, 1.0), (-1.0, -1.0, -1.0, -1.0, -1.0)
    for k, c in enumerate(cand):
        hit, err, und, ove, com = heuo(c[0], c[4], c[2], c[5], factors)
        now = (com, hit, -err, -und, -ove)
        if now > key:
            best, key, values = k, now, (com, hit, err, und, ove)
    return best, values


def parse_factors(factors: str | Sequence[float], level: str, weighted: bool) -> Factors:
    """CLEME2.0's (hit, wrong, under, over) factors from a preset name (:data:`FACTORS`,
    ``adapt``), ``"a,b,c,d"`` or four numbers.

    Raises:
        ValueError: an unknown name, not four numbers, or a sum other than 1 (± 1e-5).
    """
    if isinstance(factors, str):
        if factors == "adapt":
            return ADAPT[level, weighted]
        if factors in FACTORS:
            return FACTORS[factors]
        try:
            values = tuple(float(x) for x in factors.split(","))
        except ValueError:
            values = ()
        if len(values) != 4:
            raise ValueError(f"CLEME2.0 factors are a preset ({', '.join([*FACTORS, 'adapt'])}) "
                             f"or four numbers hit,wrong,under,over, not {factors!r}")
    else:
        values = tuple(float(x) for x in factors)
        if len(values) != 4:
            raise ValueError(f"CLEME2.0 takes four factors, not {len(values)}")
    if not all(math.isfinite(x) for x in values) or abs(sum(values) - 1.0) > 1e-5:
        raise ValueError(f"CLEME2.0 factors must sum to 1, not {sum(values):g}")
    return values  # type: ignore[return-value]

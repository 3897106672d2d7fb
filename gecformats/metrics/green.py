"""GREEN (Koyama et al. 2024): n-gram F-beta against source and reference, as gec-metrics'
``metrics/green.py`` computes it (gotutiyan/gec-metrics @320c830), bit for bit.

For every n-gram ``g`` of order ``1..order`` and its counts ``s``, ``h``, ``r`` in the source,
hypothesis and one reference, GREEN counts true positives (kept ``min(s, h, r)``, deleted
``max(s − max(r, h), 0)``, inserted ``max(min(r, h) − s, 0)``), false positives (over-deleted
``max(min(s, r) − h, 0)``, over-inserted ``max(h − max(s, r), 0)``) and false negatives
(under-deleted ``max(min(s, h) − r, 0)``, under-inserted ``max(r − max(s, h), 0)``).  Per
order, P = TP/(TP+FP) and R = TP/(TP+FN), each **1 when its denominator's error count is 0**
(even with TP = 0); P and R are the geometric means over the orders (0 if any order is 0);
the score is F_β with **β = 2** by default.  Each sentence takes the reference whose own
sentence F is **strictly** greater than the earlier ones' (ties keep the first), for the
sentence score and for the corpus score alike; the corpus score sums the chosen references'
counts per order.

Units: ``word`` splits the stripped line on single spaces (two spaces make an empty token,
as in the original); ``char`` takes the stripped line's characters, spaces included.

>>> m = GreenMetric()
>>> prepared = m.prepare_texts("She go home .", ["She goes home .", "She went home ."])
>>> line = "She goes home ."
>>> stats = m.sentence(prepared, Hypothesis(tuple(line.split()), line))
>>> round(m.corpus([stats]).values[2], 6), m.corpus([stats], choices=True).choices
(1.0, (0,))
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gecformats import __version__
from gecformats.metrics.base import Hypothesis, Metric, Totals
from gecformats.model import Sentence

CODE = "320c830"
"""The gotutiyan/gec-metrics commit whose ``metrics/green.py`` this reproduces."""

UNITS = ("word", "char")

Counts = dict[tuple[str, ...], int]


def ngrams(text: str, order: int, unit: str = "word") -> Counts:
    """The n-grams of orders ``1..order`` of ``text`` (already stripped) with their counts,
    as gec-metrics' ``cached_get_all_ngrams``: an empty text has none; ``word`` units are
    ``text.split(' ')``, ``char`` units its characters."""
    if text == "":
        return {}
    units: Sequence[str] = text.split(" ") if unit == "word" else text
    grams: Counter[tuple[str, ...]] = Counter()
    for n in range(1, order + 1):
        # the n-grams at i = 0, 1, ... in order (the insertion order of the counts)
        grams.update(zip(*[units[k:] for k in range(n)]))
    return dict(grams)


def counts(source: Counts, hypothesis: Counts, reference: Counts, order: int
           ) -> tuple[int, ...]:
    """The statistics of one hypothesis against one reference: ``(tp_1, fp_1, fn_1, …,
    tp_order, fp_order, fn_order)`` (see the module)."""
    out = [0] * (3 * order)
    get_s, get_h, get_r = source.get, hypothesis.get, reference.get
    for g in set(source) | set(hypothesis) | set(reference):
        s, h, r = get_s(g, 0), get_h(g, 0), get_r(g, 0)
        i = 3 * (len(g) - 1)
        if s == h == r:  # kept alike in all three (most n-grams): min(s, h, r) alone, a TP
            out[i] += s
            continue
        out[i] += max(s - max(r, h), 0) + max(min(r, h) - s, 0) + min(s, h, r)
        out[i + 1] += max(min(s, r) - h, 0) + max(h - max(s, r), 0)
        out[i + 2] += max(min(s, h) - r, 0) + max(r - max(s, h), 0)
    return tuple(out)


def aggregate(stats: Sequence[int], beta: float) -> tuple[float, float, float]:
    """``(P, R, F_β)`` of per-order counts ``(tp_1, fp_1, fn_1, …)``, with gec-metrics'
    ``aggregate_score`` arithmetic (geometric means through ``exp`` of the mean ``log``)."""
    ps = []
    rs = []
    for i in range(0, len(stats), 3):
        tp, fp, fn = stats[i], stats[i + 1], stats[i + 2]
        ps.append(1.0 if fp == 0 else tp / (tp + fp))
        rs.append(1.0 if fn == 0 else tp / (tp + fn))
    k = len(ps)
    prec = 0.0 if 0 in ps else math.exp(sum(math.log(p) for p in ps) / k)
    rec = 0.0 if 0 in rs else math.exp(sum(math.log(r) for r in rs) / k)
    b2 = beta ** 2
    f = float((1 + b2) * prec * rec) / ((b2 * prec) + rec) if prec + rec else 0.0
    return prec, rec, f


def best(candidates: Sequence[Sequence[int]], beta: float) -> int:
    """The reference GREEN chooses: the first whose F is strictly greater than every
    earlier one's (0 when there is none or one)."""
    chosen, top = 0, None
    for k, c in enumerate(candidates):
        f = aggregate(c, beta)[2]
        if top is None or top < f:
            chosen, top = k, f
    return chosen


@dataclass
class GreenMetric(Metric):
    """GREEN as a :class:`~gecformats.metrics.base.Metric`; references are the corrected
    texts of the gold's annotators (one per annotator of the file, as GLEU takes them;
    reference ``k`` of ``score --ref`` is annotator ``k``).

    Statistics (:meth:`sentence`): one tuple ``(tp_1, fp_1, fn_1, …)`` of ints per reference.
    Corpus step: each sentence's reference by :func:`best`, its counts summed
    ``weights[i]`` times per order, then :func:`aggregate`.

    Args:
        beta: β of F_β (CLI ``--green-beta``; default 2, the original's).
        order: the highest n-gram order (default 4).
        unit: ``word`` or ``char`` (CLI ``--green-unit``).
        absent: what stands in for an annotator absent from a sentence (as GLEU's).
        gold_format: the gold's format, as the pipeline reads it.

    Raises:
        ValueError: an unknown unit, ``order`` < 1, ``beta`` < 0.
    """

    beta: float = 2.0
    order: int = 4
    unit: str = "word"
    absent: str = "auto"
    gold_format: str | None = None
    _known: tuple[int, ...] | None = field(default=None, init=False, repr=False)
    _policy: str = field(default="source", init=False, repr=False)
    _notes: tuple[str, ...] = field(default=(), init=False, repr=False)

    name = "green"
    label = "GREEN"
    columns = ("precision", "recall", "f")
    main = "f"
    options = frozenset({"green-beta", "green-order", "green-unit"})
    declines = {"beta": "GREEN's beta is --green-beta (default 2, as gec-metrics)"}

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unknown green unit {self.unit!r} (known: {', '.join(UNITS)})")
        if self.order < 1:
            raise ValueError(f"green order must be at least 1, not {self.order}")
        if self.beta < 0:
            raise ValueError(f"green beta must not be negative, not {self.beta}")

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GreenMetric:
        """From command-line options ``--green-beta``, ``--green-order``, ``--green-unit``."""
        return cls(**{k.removeprefix("green-"): v for k, v in options.items()})

    # ------------------------------------------------------------ the gold

    def setup(self, gold: str, view: Any = None) -> None:
        """The first pass over the gold file: its annotator ids (one reference each) and
        what stands in for an absent annotator, as :class:`~gecformats.metrics.gleu.GleuMetric`.

        Raises:
            UsageError: the gold is standard input (it is read twice).
            GecFormatError: malformed or not token-level gold.
        """
        from gecformats.metrics.gleu import GleuMetric

        helper = GleuMetric(absent=self.absent, gold_format=self.gold_format)
        helper.setup(os.fspath(gold), view)
        self._known, self._policy = helper._known, helper._policy
        self._notes = tuple(n.replace("GLEU", "GREEN") for n in helper.warnings())

    def prepare(self, gold: Sentence) -> tuple[Counts, tuple[Counts, ...]]:
        """The n-grams of the source and of each annotator's corrected text (tokens joined
        by single spaces)."""
        from gecformats.convert.extract import to_parallel
        from gecformats.metrics.gleu import _annotator_references

        parallel = to_parallel(gold)
        known = self._known if self._known is not None else range(len(parallel.references))
        refs, _ = _annotator_references(parallel, list(known), self._policy)
        return self.prepare_texts(parallel.source, refs)

    def prepare_texts(self, source: str, references: Iterable[str]
                      ) -> tuple[Counts, tuple[Counts, ...]]:
        """:meth:`prepare` from texts (each stripped first, as the original)."""
        return (ngrams(source.strip(), self.order, self.unit),
                tuple(ngrams(r.strip(), self.order, self.unit) for r in references))

    # ------------------------------------------------------------ the two steps

    def sentence(self, prepared: tuple[Counts, tuple[Counts, ...]], hypothesis: Hypothesis
                 ) -> tuple[tuple[int, ...], ...]:
        """Per reference, the counts of the hypothesis line (stripped, then split as the
        unit says)."""
        source, refs = prepared
        hyp = ngrams(hypothesis.line.strip(), self.order, self.unit)
        return tuple(counts(source, hyp, r, self.order) for r in refs)

    def corpus(self, stats: Sequence[Any], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """The corpus GREEN: ``values`` = (P, R, F_β) of the chosen references' summed
        counts; ``counts`` = the sums (``tp1 fp1 fn1 …``)."""
        ws = [1] * len(stats) if weights is None else [int(w) for w in weights]
        picked = [best(s, self.beta) if s else -1 for s in stats]
        totals = [0] * (3 * self.order)
        for s, k, w in zip(stats, picked, ws):
            if w and k >= 0:
                totals = [t + w * v for t, v in zip(totals, s[k])]
        names = [f"{kind}{n}" for n in range(1, self.order + 1) for kind in ("tp", "fp", "fn")]
        chosen = tuple(max(k, 0) for k in picked) if choices and weights is None else ()
        return Totals(aggregate(totals, self.beta), dict(zip(names, totals)), chosen)

    # ------------------------------------------------------------ the rest

    def signature(self) -> str:
        """``metric:green|code:320c830|unit:…|n:…|beta:…|refs:annotators|gecformats:…``."""
        beta = repr(float(self.beta)).removesuffix(".0")
        return (f"metric:green|code:{CODE}|unit:{self.unit}|n:{self.order}|beta:{beta}"
                f"|refs:annotators|gecformats:{__version__}")

    sentence_score = "green"

    def sentence_fields(self, stats: Any, choice: int) -> dict[str, Any]:
        """``ref`` (the chosen reference) and ``green``: the sentence's score, as gec-metrics'
        ``score_sentence``."""
        if not stats:
            return {"ref": choice, "green": 0.0}
        return {"ref": choice, "green": aggregate(stats[choice], self.beta)[2]}

    def warnings(self) -> list[str]:
        """The notes of :meth:`setup` (absent annotators filled in, edits left out)."""
        return list(self._notes)

    def resampler(self, stats: Sequence[Any]) -> Any:
        """The corpus step over many weight vectors, equal to :meth:`corpus`: the choice is
        per sentence, so the chosen counts are fixed and only their weighted sums vary."""
        return _Resampler(self, stats)


class _Resampler:
    """Weighted sums of each sentence's chosen counts (NumPy integer matrix product, exact),
    then :func:`aggregate` per row."""

    def __init__(self, metric: GreenMetric, stats: Sequence[Any]) -> None:
        import numpy as np

        self.beta = metric.beta
        width = 3 * metric.order
        rows = [s[best(s, metric.beta)] if s else (0,) * width for s in stats]
        self.counts = np.array(rows, dtype=np.int64).reshape(len(rows), width)

    def scores(self, weights: Sequence[Sequence[int]]) -> list[tuple[float, ...]]:
        import numpy as np

        sums = np.asarray(weights, dtype=np.int64) @ self.counts
        return [aggregate([int(v) for v in row], self.beta) for row in sums]

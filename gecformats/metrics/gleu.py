"""GLEU (Napoles et al. 2015, 2016) in all its published versions, bit for bit.

GLEU compares a system output with the source and with corrected references: n-grams the
references changed are rewarded, n-grams the system left unchanged where a reference
changed them are penalised.  The original code (``cnap/gec-ranking``) exists in versions
that compute different metrics under one name (``../shared/spec/formats.md`` §11); each is
a ``version`` here, reproduced exactly, and named in the score's :class:`Signature`:

=============  ========  =====================================================================
``version``    code      what it computes
=============  ========  =====================================================================
``2015``       24c806a   GLEU_λ of the ACL 2015 paper: references merged by maximum count,
                         corpus statistics, the brevity penalty is always 1 (a quirk of
                         that code), orders 1..``order`` averaged with a fixed ¼
``2016``       6ddf913   the March 2016 corrected denominator; brevity penalty against the
                         closest reference length, inverted (it penalises long output)
``plus``       50b5032   GLEU+ ("GLEU without tuning", the default): per iteration ``j`` one
                         reference per sentence drawn by Python's Mersenne Twister seeded
                         with ``j·101``; the mean over iterations; BLEU's brevity penalty
``plus-2016``  f0e2ee5   GLEU+ as first released, with the inverted brevity penalty
``plus-py3``   50b5032   ``plus`` as that Python 2 code gives under Python 3 (JFLEG's
                         ``eval/gleu.py`` run today): the same statistics, but each draw is
                         Python 3's ``randint(0, R-1)`` (rejection sampling on
                         ``getrandbits``), not Python 2's ``int(random()·R)``
=============  ========  =====================================================================

Tokens are the white-space separated fields of a line, split as Python 2 split its byte
strings (ASCII white space only); files are read as bytes and split on ``\\n``, as the
reference code read them.

>>> run = gleu_files("fixtures/gleu/source.txt", ["fixtures/gleu/system-a.txt"],
...                  refs=["fixtures/gleu/ref0.txt", "fixtures/gleu/ref1.txt"], version="2015")
>>> print(f"{run.results[0].system} {run.results[0].score:.4f}")
system-a.txt 0.7041
>>> print(run.signature)
metric:gleu|version:2015|code:24c806a|n:4|lambda:0|refs:2|references:text|tok:ascii-whitespace|gecformats:0.1.0|gold-file:source.txt+2@49c953f4

In memory, with GLEU+ (the default) and references generated per sentence:

>>> run = gleu(["She have a apple ."], [["She has an apple .", "She has the apple ."]],
...            [["She has an apple ."]])
>>> round(run.results[0].score, 4), run.signature.iterations
(0.484, 500)

As a :class:`~gecformats.metrics.base.Metric` (:class:`GleuMetric`), with references
generated from a gold file, as the evaluation pipeline calls it:

>>> from gecformats.formats import m2
>>> metric = GleuMetric(version="2016")
>>> metric.setup("fixtures/gleu/gold.m2")
>>> gold = next(m2.read("fixtures/gleu/gold.m2"))
>>> line = "He goes to school every day ."
>>> stats = metric.sentence(metric.prepare(gold), Hypothesis(tuple(line.split()), line))
>>> stats[:4], round(metric.corpus([stats]).values[0], 4)
((7, 7, 9.0, 9), 1.0)
"""

from __future__ import annotations

import math
import operator
import os
import random
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from gecformats import __version__
from gecformats.errors import GecFormatError
from gecformats.io import binary_lines, lockstep, open_binary, source_name
from gecformats.metrics import ABSENT
from gecformats.metrics.base import Hypothesis, Metric, Totals
from gecformats.model import Sentence

VERSIONS: dict[str, str] = {
    "2015": "24c806a",
    "2016": "6ddf913",
    "plus": "50b5032",
    "plus-2016": "f0e2ee5",
    "plus-py3": "50b5032",
}
"""Version name → the ``cnap/gec-ranking`` commit it reproduces."""

DEFAULT_VERSION = "plus"
DEFAULT_ITERATIONS = 500
ORDER = 4
"""The highest n-gram order (the only one the 2016 and GLEU+ code use)."""

Z95 = 1.959963984540054
"""The 0.975 quantile of the standard normal distribution (a 95 % normal interval)."""

_FIELD = 8  # bytes per packed statistic (see _PlusAccumulator)

Tokens = tuple[bytes, ...]
Counts = dict[tuple[bytes, ...], int]


def tokens(line: bytes | str) -> Tokens:
    """The tokens of ``line`` as the reference code saw them: a ``str`` is encoded as UTF-8,
    then split on runs of ASCII white space (space, tab, ``\\n``, ``\\r``, ``\\v``, ``\\f``),
    which is what Python 2's ``str.split()`` did.  Other white space (U+00A0, U+3000, ...)
    is part of a token."""
    if isinstance(line, str):
        line = line.encode("utf-8")
    return tuple(line.split())


def ngram_counts(toks: Sequence[bytes], n: int) -> Counts:
    """The multiset of the ``n``-grams of ``toks``, as a ``Counter`` of token tuples."""
    return Counter(zip(*[toks[i:] for i in range(n)]))


# ------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class Signature:
    """What a GLEU score depends on, printed sacrebleu style (``key:value|...``).

    Attributes:
        version: one of :data:`VERSIONS`; ``code`` is derived from it.
        order: the highest n-gram order.
        lam: λ, the weight of the penalty for unchanged n-grams (versions ``2015`` and
            ``2016``; ``None`` for GLEU+, which has none).
        iterations: GLEU+ sampling iterations actually run (``None`` for the others).
        refs: references per sentence (with mixed references: the most any sentence has).
        references: where they came from: ``text`` (files), ``annotators`` (one per
            annotator of a gold file; ``annotators+absent-first`` or ``+absent-source``
            when references of absent annotators were filled in, see :func:`gleu_files`)
            or ``mixed`` (every combination of alternatives).
    """

    version: str
    order: int
    lam: float | None
    iterations: int | None
    refs: int
    references: str = "text"
    tokenizer: str = "ascii-whitespace"
    gecformats: str = __version__
    inputs: str = ""
    """The fields about the inputs: ``|gold-file:NAME@HASH`` (the gold files, or the source
    and its references) and ``|sentences:unchecked`` when the hypotheses were not checked
    to be the source's sentences (:mod:`gecformats.metrics.inputs`)."""

    @property
    def code(self) -> str:
        """The commit of ``cnap/gec-ranking`` this version reproduces."""
        return VERSIONS[self.version]

    def __str__(self) -> str:
        parts = [f"metric:gleu|version:{self.version}|code:{self.code}|n:{self.order}"]
        if self.lam is not None:
            parts.append(f"lambda:{_number(self.lam)}")
        if self.iterations is not None:
            parts.append(f"iterations:{self.iterations}|seed:101j")
        parts.append(f"refs:{self.refs}|references:{self.references}|tok:{self.tokenizer}"
                     f"|gecformats:{self.gecformats}{self.inputs}")
        return "|".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON data: ``version code n lambda iterations refs references
        tokenizer gecformats`` (``lambda``/``iterations`` ``null`` where not applicable)."""
        return {"version": self.version, "code": self.code, "n": self.order,
                "lambda": self.lam, "iterations": self.iterations, "refs": self.refs,
                "references": self.references, "tokenizer": self.tokenizer,
                "gecformats": self.gecformats}


def _number(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True, slots=True)
class Spread:
    """A mean with its population standard deviation and 95 % normal interval, as the
    GLEU+ code prints them (``numpy.mean``, ``numpy.std``, ``scipy.stats.norm.interval``)."""

    mean: float
    std: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """``{"mean", "std", "ci95": [low, high]}``."""
        return {"mean": self.mean, "std": self.std, "ci95": [self.low, self.high]}


def spread(values: Sequence[float]) -> Spread:
    """The :class:`Spread` of ``values``, computed as NumPy does (pairwise summation), so
    that the mean is bit for bit ``numpy.mean``.

    Raises:
        ValueError: ``values`` is empty.
    """
    if not values:
        raise ValueError("no values")
    mean = _pairwise_sum(values, 0, len(values)) / len(values)
    squares = [(v - mean) * (v - mean) for v in values]
    std = math.sqrt(_pairwise_sum(squares, 0, len(squares)) / len(squares))
    return Spread(mean, std, mean - Z95 * std, mean + Z95 * std)


def _pairwise_sum(a: Sequence[float], start: int, n: int) -> float:
    """NumPy's ``pairwise_sum`` for doubles (blocks of 128, eight accumulators)."""
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += a[i]
        return total
    if n <= 128:
        r = list(a[start:start + 8])
        i = 8
        while i < n - n % 8:
            for k in range(8):
                r[k] += a[start + i + k]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for j in range(i, n):
            total += a[start + j]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(a, start, half) + _pairwise_sum(a, start + half, n - half)


@dataclass(frozen=True, slots=True)
class Result:
    """The GLEU of one hypothesis file.

    Attributes:
        hypothesis: the file as given (``-`` for standard input), or its position for
            in-memory input.
        system: its name for tables: the file's base name, as the reference code prints it.
        score: the corpus GLEU (GLEU+: the mean over iterations).
        spread: GLEU+ only: mean, standard deviation and 95 % interval over iterations.
        sentences: the number of sentences.
        sentence_scores: when asked for, one entry per sentence: a float for ``2015`` and
            ``2016`` (that sentence's statistics alone, unsmoothed, as the 2016 ``-d``
            prints; 2015, which had no sentence scores, gives 0 where λ makes a numerator
            negative), a :class:`Spread` over the references for GLEU+ (each reference's
            smoothed sentence GLEU, as ``-d`` prints).
    """

    hypothesis: str
    system: str
    score: float
    sentences: int
    spread: Spread | None = None
    sentence_scores: tuple[float | Spread, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``hypothesis system score sentences`` (+ ``std ci95`` for GLEU+,
        + ``sentence_scores`` when computed)."""
        out: dict[str, Any] = {"hypothesis": self.hypothesis, "system": self.system,
                               "score": self.score, "sentences": self.sentences}
        if self.spread is not None:
            out["std"] = self.spread.std
            out["ci95"] = [self.spread.low, self.spread.high]
        if self.sentence_scores:
            out["sentence_scores"] = [s.to_dict() if isinstance(s, Spread) else s
                                      for s in self.sentence_scores]
        return out


@dataclass(frozen=True, slots=True)
class Run:
    """Scores of several hypotheses against the same source and references.

    ``notes`` says what reference generation had to change (copied sources for absent
    annotators, edits left out), never silently."""

    results: tuple[Result, ...]
    signature: Signature
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"results": [...], "signature": str, "settings": {...}}`` (+ ``"notes"`` when
        there are any); ``settings`` is :meth:`Signature.to_dict`."""
        out: dict[str, Any] = {"results": [r.to_dict() for r in self.results],
                               "signature": str(self.signature),
                               "settings": self.signature.to_dict()}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


# ------------------------------------------------------------------ the statistics


def _overlap(h: Counts, r: Counts) -> int:
    """``|h ∩ r|``: the multiset intersection's size."""
    total = 0
    get = r.get
    for g, c in h.items():
        m = get(g)
        if m:
            total += c if c < m else m
    return total


def _merged(refs: Sequence[Tokens], n: int) -> Counts:
    """Per n-gram the largest count over all references."""
    merged = dict(ngram_counts(refs[0], n))
    for ref in refs[1:]:
        for g, c in ngram_counts(ref, n).items():
            if c > merged.get(g, 0):
                merged[g] = c
    return merged


def _gleu(stats: Sequence[float], swapped: bool, smooth: bool = False) -> float:
    """GLEU of summed statistics ``[hlen, rlen, num1, den1, ...]``, with the reference's
    arithmetic (sequential sums, Python floats).  Any zero statistic gives 0 (with
    ``smooth``, zeros count as 1).  ``swapped``: the brevity penalty reads the lengths the
    other way round, as the 2016 code and the first GLEU+ did."""
    if smooth:
        stats = [s if s != 0 else 1 for s in stats]
    if any(s == 0 for s in stats):
        return 0.0
    c, r = (stats[1], stats[0]) if swapped else (stats[0], stats[1])
    log_precision = 0.0
    for x, y in zip(stats[2::2], stats[3::2]):
        log_precision = log_precision + math.log(float(x) / y)
    return math.exp(min(0.0, 1 - float(r) / c) + log_precision / 4.0)


class _Sentence:
    """One sentence's source and references, prepared once for every hypothesis."""

    __slots__ = ("source", "refs", "s", "per_n", "rlens", "ref_counts")

    def __init__(self, source: Tokens, refs: Sequence[Tokens], version: str, order: int) -> None:
        self.source = source
        self.refs = refs
        self.s = [ngram_counts(source, n) for n in range(1, order + 1)]
        self.rlens = [len(r) for r in refs]
        self.per_n: list[tuple[Counts, Counts, Counts, int]] = []
        self.ref_counts: dict[int, list[tuple[Counts, Counts]]] = {}
        if version == "2015":
            for n, s in enumerate(self.s, 1):
                r = _merged(refs, n)
                r_s = {g: c - s.get(g, 0) for g, c in r.items() if c > s.get(g, 0)}
                s_r = {g: c - r.get(g, 0) for g, c in s.items() if c > r.get(g, 0)}
                self.per_n.append((r, r_s, s_r, sum(r_s.values())))
        elif version == "2016":
            for n, s in enumerate(self.s, 1):
                r = _merged(refs, n)
                r_s = {g: c for g, c in r.items() if g not in s}
                s_r = {g: c for g, c in s.items() if g not in r}
                self.per_n.append((r, r_s, s_r, 0))

    def plus_counts(self, k: int) -> list[tuple[Counts, Counts]]:
        """Reference ``k``'s n-grams and the source n-grams absent from it, per order."""
        counts = self.ref_counts.get(k)
        if counts is None:
            counts = []
            for n, s in enumerate(self.s, 1):
                r = ngram_counts(self.refs[k], n)
                counts.append((r, {g: c for g, c in s.items() if g not in r}))
            self.ref_counts[k] = counts
        return counts


def _stats_2015(h: list[Counts], hlen: int, sent: _Sentence, lam: float) -> list[float]:
    # 24c806a: the closest reference length starts at hlen and never moves, so rlen = hlen
    stats: list[float] = [hlen, hlen]
    for n, (r, r_s, s_r, size) in enumerate(sent.per_n, 1):
        hn = h[n - 1]
        stats.append((_overlap(hn, r_s) + _overlap(hn, r)) - lam * _overlap(hn, s_r))
        stats.append(size + max(hlen + 1 - n, 0))
    return stats


def _stats_2016(h: list[Counts], hlen: int, sent: _Sentence, lam: float) -> list[float]:
    rlen = sent.rlens[0]
    for length in sent.rlens[1:]:  # the closest reference length; the first wins ties
        if abs(length - hlen) < abs(rlen - hlen):
            rlen = length
    stats: list[float] = [hlen, rlen]
    for n, (r, r_s, s_r, _) in enumerate(sent.per_n, 1):
        hn = h[n - 1]
        a = _overlap(hn, r_s)
        stats.append(a + max(_overlap(hn, r) - lam * _overlap(hn, s_r), 0))
        stats.append(a + max(hlen + 1 - n, 0))
    return stats


def _stats_plus(h: list[Counts], hlen: int, sent: _Sentence, k: int) -> list[int]:
    stats = [hlen, sent.rlens[k]]
    for n, (r, s_r) in enumerate(sent.plus_counts(k), 1):
        kept = dropped = 0
        rget, sget = r.get, s_r.get
        for g, c in h[n - 1].items():
            m = rget(g)
            if m:
                kept += c if c < m else m
            else:
                m = sget(g)
                if m:
                    dropped += c if c < m else m
        stats.append(max(kept - dropped, 0))
        stats.append(max(hlen + 1 - n, 0))
    return stats


def _hypothesis_ngrams(hyp: Tokens, order: int) -> list[Counts]:
    return [ngram_counts(hyp, n) for n in range(1, order + 1)]


def _single_stats(sent: _Sentence, hyp: Tokens, version: str, lam: float, order: int
                  ) -> list[float]:
    """The statistics ``[hlen, rlen, num1, den1, ...]`` of hypothesis ``hyp`` against
    ``sent`` for versions ``2015`` and ``2016`` (all references at once)."""
    stats_of = _stats_2015 if version == "2015" else _stats_2016
    return stats_of(_hypothesis_ngrams(hyp, order), len(hyp), sent, lam)


def _plus_stats(sent: _Sentence, hyp: Tokens, order: int, refs: Iterable[int]
                ) -> dict[int, list[int]]:
    """GLEU+: per reference ``k`` of ``refs``, the statistics ``[hlen, rlen_k, num1, den1,
    ...]`` of hypothesis ``hyp`` against ``sent``'s source and reference ``k`` alone."""
    h = _hypothesis_ngrams(hyp, order)
    return {k: _stats_plus(h, len(hyp), sent, k) for k in refs}


def _final(version: str, lam: float | None, stats: Sequence[float]) -> float:
    """The corpus GLEU of summed statistics for versions ``2015`` and ``2016``.

    Raises:
        ValueError: version ``2015`` with a negative numerator and no zero statistic (the
            reference code crashes).
    """
    if version == "2016" or any(x == 0 for x in stats):
        return _gleu(stats, swapped=True)  # a zero statistic gives 0 before any log
    for n, x in enumerate(stats[2::2], 1):
        if x < 0:
            raise ValueError(
                f"GLEU 2015 is undefined here: with λ={_number(lam or 0)} the "
                f"numerator of the {n}-gram precision is negative ({x:g}); the "
                "reference code crashes (math domain error); use a smaller λ")
    # 2015 averages the logs with a fixed ¼ whatever the order (spec §11.1)
    return _gleu(stats, swapped=True)


def _sentence_score(version: str, lam: float | None, stats: Sequence[float]) -> float:
    """A sentence's GLEU for versions ``2015`` and ``2016``: its statistics alone,
    unsmoothed."""
    # the original code has no sentence scores for 2015; a sentence whose numerator a
    # large λ makes negative scores 0 here instead of failing the whole run
    if version == "2015" and any(x < 0 for x in stats[2::2]) and all(stats):
        return 0.0
    return _final(version, lam, stats)


def _plus_sentence(by_ref: Sequence[Sequence[int]], swapped: bool) -> Spread:
    """A sentence's GLEU+: the :class:`Spread` over its references of the smoothed
    sentence GLEU, as the reference code's ``-d`` prints it."""
    return spread([_gleu(stats, swapped, smooth=True) for stats in by_ref])


def _check_options(version: str, lam: float | None, order: int, iterations: int | None
                   ) -> tuple[bool, float | None, int | None]:
    """``(plus, lam, iterations)`` with their defaults filled in (``None`` where the
    version has no such option).

    Raises:
        ValueError: an unknown version or an option the version does not have.
    """
    if version not in VERSIONS:
        raise ValueError(f"unknown GLEU version {version!r} (known: {', '.join(VERSIONS)})")
    plus = version.startswith("plus")
    if plus and lam is not None:
        raise ValueError(f"GLEU {version} has no λ (only versions 2015 and 2016 do)")
    if not plus and iterations is not None:
        raise ValueError(f"GLEU {version} does not sample: iterations are for GLEU+ only")
    if version != "2015" and order != ORDER:
        raise ValueError(f"GLEU {version} always uses n-grams up to 4 (only 2015 has -n)")
    if order < 1:
        raise ValueError(f"the n-gram order must be at least 1, not {order}")
    if lam is not None and not (math.isfinite(lam) and lam >= 0):
        raise ValueError(f"λ must be a finite number ≥ 0, not {lam}")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    return plus, (None if plus else float(lam or 0)), \
        ((iterations or DEFAULT_ITERATIONS) if plus else None)


# ------------------------------------------------------------------ corpus accumulation


class Scorer:
    """Accumulate GLEU statistics sentence by sentence for several hypotheses at once.

    Call :meth:`add` once per sentence (streaming: nothing but the running totals is
    kept, unless ``sentence_level``), then :meth:`results`.  Use :func:`gleu` or
    :func:`gleu_files` unless you feed sentences yourself.

    Args:
        hypotheses: how many hypotheses each :meth:`add` gets.
        version: one of :data:`VERSIONS`.
        lam: λ for ``2015`` and ``2016`` (default 0); must be ``None`` for GLEU+.
        order: highest n-gram order; only ``2015`` can change it (its mean keeps ¼).
        iterations: GLEU+ sampling iterations (default 500; 1 is used when every sentence
            has a single reference, as the reference code does); ``None`` otherwise.
        sentence_level: keep per-sentence scores.

    Raises:
        ValueError: an unknown version or an option the version does not have.
    """

    def __init__(self, hypotheses: int, *, version: str = DEFAULT_VERSION,
                 lam: float | None = None, order: int = ORDER, iterations: int | None = None,
                 sentence_level: bool = False) -> None:
        plus, lam, iterations = _check_options(version, lam, order, iterations)
        self.version = version
        self.plus = plus
        self.lam = lam
        self.order = order
        self.iterations = iterations
        self.hypotheses = hypotheses
        self.sentence_level = sentence_level
        self.sentences = 0
        self.max_refs = 0
        width = 2 * order + 2
        self._totals: list[list[float]] = [[0] * width for _ in range(hypotheses)]
        self._per_sentence: list[list[float | Spread]] = [[] for _ in range(hypotheses)]
        if plus:
            self._random = [random.Random(j * 101).random for j in range(self.iterations or 1)]
            self._py3 = [random.Random(j * 101).randrange for j in range(self.iterations or 1)] \
                if version == "plus-py3" else None
            self._packed = [0] * len(self._random)

    def add(self, source: Sequence[bytes], references: Sequence[Sequence[bytes]],
            hypotheses: Sequence[Sequence[bytes]]) -> None:
        """Add one sentence: its source tokens, its references' tokens (at least one) and
        each hypothesis's tokens (see :func:`tokens`).

        Raises:
            ValueError: no reference, or not one hypothesis per scorer hypothesis.
        """
        if not references:
            raise ValueError(f"sentence {self.sentences + 1} has no reference")
        if len(hypotheses) != self.hypotheses:
            raise ValueError(f"{len(hypotheses)} hypotheses for a scorer of {self.hypotheses}")
        refs = [tuple(r) for r in references]
        sent = _Sentence(tuple(source), refs, self.version, self.order)
        self.sentences += 1
        self.max_refs = max(self.max_refs, len(refs))
        if self.plus:
            self._add_plus(sent, hypotheses)
            return
        seen: dict[tuple[bytes, ...], list[float]] = {}
        for k, hyp in enumerate(hypotheses):
            key = tuple(hyp)
            stats = seen.get(key)
            if stats is None:
                stats = seen[key] = _single_stats(sent, key, self.version, self.lam or 0.0,
                                                  self.order)
            totals = self._totals[k]
            for i, value in enumerate(stats):
                totals[i] = totals[i] + value
            if self.sentence_level:
                self._per_sentence[k].append(_sentence_score(self.version, self.lam, stats))

    def _add_plus(self, sent: _Sentence, hypotheses: Sequence[Sequence[bytes]]) -> None:
        nrefs = len(sent.refs)
        # one draw per iteration, in sentence order: Python 2's randint(0, R-1) for R < 2**53
        if self._py3 is not None:  # Python 3's randint(0, R-1) is randrange(R)
            draws = [rnd(nrefs) for rnd in self._py3]
        else:
            draws = [int(rnd() * nrefs) for rnd in self._random]
        wanted = range(nrefs) if self.sentence_level else sorted(set(draws))
        cache: dict[tuple[bytes, ...], dict[int, list[int]]] = {}
        per_hyp: list[dict[int, list[int]]] = []
        for hyp in hypotheses:
            key = tuple(hyp)
            by_ref = cache.get(key)
            if by_ref is None:
                by_ref = cache[key] = _plus_stats(sent, key, self.order, wanted)
            per_hyp.append(by_ref)
        # all hypotheses' statistics for reference k as one integer of 8-byte fields, so
        # that an iteration's running total is one big-integer addition per sentence
        packed = {k: int.from_bytes(array("Q", [v for by_ref in per_hyp for v in by_ref[k]])
                                    .tobytes(), "little") for k in set(draws)}
        self._packed = list(map(operator.add, self._packed, map(packed.__getitem__, draws)))
        if self.sentence_level:
            swapped = self.version == "plus-2016"
            for k, by_ref in enumerate(per_hyp):
                self._per_sentence[k].append(
                    _plus_sentence([by_ref[r] for r in range(nrefs)], swapped))

    def results(self) -> list[tuple[float, Spread | None, tuple[float | Spread, ...]]]:
        """Per hypothesis ``(score, spread, sentence_scores)``; ``spread`` is ``None``
        except for GLEU+.

        Raises:
            ValueError: GLEU 2015 with a λ that makes a numerator negative.
        """
        out: list[tuple[float, Spread | None, tuple[float | Spread, ...]]] = []
        if not self.plus:
            for k in range(self.hypotheses):
                out.append((_final(self.version, self.lam, self._totals[k]), None,
                            tuple(self._per_sentence[k])))
            return out
        width = 2 * self.order + 2
        used = self._packed if self.max_refs > 1 else self._packed[:1]
        swapped = self.version == "plus-2016"
        nbytes = _FIELD * width * self.hypotheses
        scores: list[list[float]] = [[] for _ in range(self.hypotheses)]
        for total in used:
            fields = array("Q")
            fields.frombytes(total.to_bytes(nbytes, "little"))
            for k in range(self.hypotheses):
                scores[k].append(_gleu(fields[k * width:(k + 1) * width], swapped))
        for k in range(self.hypotheses):
            s = spread(scores[k])  # at least one iteration
            out.append((s.mean, s, tuple(self._per_sentence[k])))
        return out

    def iterations_run(self) -> int | None:
        """GLEU+ iterations that count (1 when no sentence had two references)."""
        if not self.plus:
            return None
        return self.iterations if self.max_refs > 1 else 1


# ------------------------------------------------------------------ front ends


def gleu(source: Iterable[str | bytes], references: Iterable[Sequence[str | bytes]],
         hypotheses: Sequence[Iterable[str | bytes]], *, version: str = DEFAULT_VERSION,
         lam: float | None = None, order: int = ORDER, iterations: int | None = None,
         sentence_level: bool = False, names: Sequence[str] | None = None,
         reference_kind: str = "text") -> Run:
    """GLEU of each hypothesis against ``source`` and ``references``, from lines in memory.

    Args:
        source: the source sentences, one line each.
        references: per sentence, its references (at least one; the number may vary per
            sentence, e.g. all mixed references).
        hypotheses: per system, its lines (as many as ``source``).
        version, lam, order, iterations, sentence_level: see :class:`Scorer`.
        names: the systems' names (default ``"1"``, ``"2"``, ...).
        reference_kind: recorded in the signature (``text``, ``annotators``, ``mixed``).

    Returns:
        A :class:`Run` with one :class:`Result` per hypothesis, in order.

    Raises:
        ValueError: bad options, different numbers of lines, a sentence without reference,
            or an undefined 2015 score.
    """
    scorer = Scorer(len(hypotheses), version=version, lam=lam, order=order,
                    iterations=iterations, sentence_level=sentence_level)
    labels = list(names) if names is not None else [str(k + 1) for k in range(len(hypotheses))]
    streams = [("the source", iter(source)), ("the references", iter(references)),
               *((f"hypothesis {label}", iter(h)) for label, h in zip(labels, hypotheses))]
    for src, refs, *hyps in _lockstep(streams):
        scorer.add(tokens(src), [tokens(r) for r in refs], [tokens(h) for h in hyps])
    return _run(scorer, labels, labels, reference_kind, ())


def _run(scorer: Scorer, paths: Sequence[str], systems: Sequence[str], kind: str,
         notes: Sequence[str], inputs: str = "") -> Run:
    results = tuple(
        Result(path, system, score, scorer.sentences, spread_, per_sentence)
        for path, system, (score, spread_, per_sentence)
        in zip(paths, systems, scorer.results())
    )
    signature = Signature(scorer.version, scorer.order, scorer.lam, scorer.iterations_run(),
                          scorer.max_refs, kind, inputs=inputs)
    return Run(results, signature, tuple(notes))


REFERENCE_KINDS = ("annotators", "mixed")
"""How references are generated from a gold file: one per annotator, or all mixed."""


def gleu_files(source: str | os.PathLike[str] | None, hypotheses: Sequence[str | os.PathLike[str]],
               *, refs: Sequence[str | os.PathLike[str]] = (),
               gold: Sequence[str | os.PathLike[str]] = (), mixed: bool = False,
               gold_format: str | None = None, version: str = DEFAULT_VERSION,
               lam: float | None = None, order: int = ORDER, iterations: int | None = None,
               sentence_level: bool = False, max_references: int = 10_000,
               absent: str = "auto", check_sentences: bool = True) -> Run:
    """GLEU of hypothesis files, streaming all files in step (one sentence in memory).

    Args:
        source: the source file, one tokenised sentence per line; may be ``None`` with
            ``gold`` (then the first gold file's source sentences are used).
        hypotheses: system outputs, one line per source line (``-``: standard input).
        refs: reference files, line-aligned with the source (reference ``k`` = file ``k``).
        gold: instead of ``refs``, M2 or I-measure XML gold files; by default each
            annotator's corrected text is a reference (all annotators of every file, in
            file order then ascending id; see ``absent``); with ``mixed`` every valid
            combination of the alternatives (:func:`gecformats.convert.refs.references`).
        gold_format: the gold files' format (default: from the suffix).
        version, lam, order, iterations, sentence_level: see :class:`Scorer`.
        max_references: with ``mixed``, the most references used for one sentence (the
            first ones in :func:`gecformats.convert.refs.references` order; reported in ``notes``).
        absent: an annotator missing from a sentence where another one made edits gets
            the sentence's source (``"source"``) or the first present annotator's
            correction (``"first"``: right for the CoNLL-2014 combined file, which omits
            annotator 1's edits when they equal annotator 0's); ``"auto"`` (the default)
            takes ``first`` for a file that writes ``noop`` lines beside other annotators'
            edits (so absence is not "no change") and ``source`` otherwise (:data:`ABSENT`);
            a sentence without any edit gives the source for everyone.  Either way it is
            counted in ``notes``, with the policy taken and why.
        check_sentences: refuse a hypothesis whose lines stop matching the source's
            sentences (:class:`gecformats.metrics.inputs.Correspondence`); ``False``
            trusts the files and the signature says ``sentences:unchecked``.  Gold edits
            past the end of their sentence are left out, as every metric leaves them out
            (:class:`gecformats.metrics.inputs.GoldFit`, in ``notes``).

    Returns:
        A :class:`Run`; its ``notes`` say what reference generation changed.

    Raises:
        GecFormatError: files of different lengths (naming them), malformed gold, an
            undefined 2015 score.
        ValueError: bad options (neither or both of ``refs`` and ``gold``, ...).
        OSError: a file cannot be read.
    """
    if bool(refs) == bool(gold):
        raise ValueError("give reference files or gold files (one of the two)")
    if mixed and not gold:
        raise ValueError("mixed references are generated from gold files")
    if absent not in ABSENT:
        raise ValueError(f"unknown absent-annotator policy {absent!r} (known: {', '.join(ABSENT)})")
    if source is None and not gold:
        raise ValueError("a source file is needed with reference files")
    if not hypotheses:
        raise ValueError("no hypothesis to score")
    names = [os.fspath(p) for p in hypotheses]
    inputs = ([os.fspath(source)] if source is not None else []) + [os.fspath(r) for r in refs] + names
    if inputs.count("-") > 1:
        raise ValueError("only one input can be standard input ('-')")
    if any(os.fspath(g) == "-" for g in gold):
        raise ValueError("a gold file cannot be standard input (it is read twice)")
    scorer = Scorer(len(hypotheses), version=version, lam=lam, order=order,
                    iterations=iterations, sentence_level=sentence_level)
    notes: list[str] = []
    with ExitStack() as stack:
        streams: list[tuple[str, Iterator[Any]]] = []
        if source is not None:
            streams.append((source_name(source), stack.enter_context(_lines(source))))
        if refs:
            kind = "text"
            for path in refs:
                streams.append((source_name(path), stack.enter_context(_lines(path))))
        else:
            kind = "mixed" if mixed else "annotators"
            filled_as: set[str] = set()
            generated = _gold_references(gold, gold_format, mixed, max_references, absent, notes,
                                         filled_as)
            streams.append((source_name(gold[0]), generated))
        for path in hypotheses:
            streams.append((source_name(path), stack.enter_context(_lines(path))))
        nrefs = len(refs)
        first_hyp = len(streams) - len(hypotheses)
        from gecformats.metrics.inputs import Correspondence, align_hint, grams

        given = source_name(source if source is not None else gold[0])
        matching = [Correspondence(source_name(h), given, align_hint(
            source_name(h), given, source=source is not None)) for h in hypotheses] \
            if check_sentences else []
        for number, row in enumerate(_lockstep(streams), 1):
            if refs:
                src = row[0]
                ref_lines = row[1:1 + nrefs]
            else:
                gold_src, ref_lines = row[first_hyp - 1]
                src = row[0] if source is not None else gold_src
            if matching:
                text = src.decode("utf-8", "replace") if isinstance(src, bytes) else src
                seen = grams(text)
                for check, hyp in zip(matching, row[first_hyp:]):
                    check.add(number, number, seen, hyp.decode("utf-8", "replace"))
            scorer.add(tokens(src), [tokens(r) for r in ref_lines],
                       [tokens(h) for h in row[first_hyp:]])
    systems = _system_names(names)
    if gold and not mixed and filled_as:  # the references depend on the absent policy taken
        kind += "".join(f"+absent-{policy}" for policy in sorted(filled_as))
    from gecformats.metrics.inputs import gold_field

    inputs = "|" + gold_field([os.fspath(p) for p in ([source] if source is not None else [])
                               + list(refs) + list(gold)])
    inputs += "" if check_sentences else "|sentences:unchecked"
    try:
        return _run(scorer, names, systems, kind, notes, inputs)
    except ValueError as exc:
        raise GecFormatError(str(exc)) from None


def _system_names(paths: Sequence[str]) -> list[str]:
    """Base names as the reference prints them; full paths when two base names collide."""
    bases = [os.path.basename(p) or p for p in paths]
    return bases if len(set(bases)) == len(bases) else list(paths)


@contextmanager
def _lines(path: str | os.PathLike[str]) -> Iterator[Iterator[bytes]]:
    """A file's lines as bytes, split on ``\\n`` only (``.gz`` and ``-`` as in
    :func:`gecformats.io.open_binary`)."""
    with open_binary(path) as fh:
        yield (raw[:-1] if raw.endswith(b"\n") else raw
               for raw in binary_lines(fh, source_name(path)))


def _lockstep(streams: Sequence[tuple[str, Iterator[Any]]]) -> Iterator[tuple[Any, ...]]:
    """Rows of one item per stream (:func:`gecformats.io.lockstep`); a stream that ends
    early or late is an error naming it and both line counts."""
    return lockstep(streams, _count_error)


def _count_error(names: list[str], counts: list[int]) -> GecFormatError:
    """The error for GLEU inputs of different lengths: names the first stream whose count
    differs from the first stream's."""
    name, length = next((n, c) for n, c in zip(names, counts) if c != counts[0])
    return GecFormatError(f"{length} lines (sentences), but {names[0]} has {counts[0]}: the "
                          "source, the references and every hypothesis must have the same "
                          "number of lines", name)


def _gold_references(gold: Sequence[str | os.PathLike[str]], gold_format: str | None,
                     mixed: bool, max_references: int, absent: str, notes: list[str],
                     filled_as: set[str] | None = None
                     ) -> Iterator[tuple[bytes | str, list[str]]]:
    """Per sentence ``(source, references)`` generated from the gold files, in step; the
    policies that filled an absent annotator's reference are added to ``filled_as``."""
    if mixed:
        yield from _mixed_references(gold, gold_format, max_references, notes)
        return
    from gecformats import formats
    from gecformats.convert.extract import ExtractionReport, to_parallel

    modules = [formats.get(gold_format or formats.infer(g)) for g in gold]
    for g, module in zip(gold, modules):
        _check_token_level(module, g)
    # pass 1: the annotators of each file, so that every sentence has the same references,
    # and how the file marks an annotator who changed nothing (for absent="auto")
    ids = []
    policies: list[str] = []
    autos: list[str] = []
    from gecformats.metrics.inputs import GoldFit

    for g, module in zip(gold, modules):
        scan = _AnnotatorScan()
        fit = GoldFit(source_name(g))  # as the pass below sees them
        for number, sentence in enumerate(module.read(g), 1):
            scan.add(fit.fit(number, sentence))
        ids.append(scan.ids())
        autos.append(scan.auto())
        policies.append(absent if absent != "auto" else autos[-1])
    reports = [ExtractionReport() for _ in gold]
    streams = [(source_name(g), module.read(g)) for g, module in zip(gold, modules)]
    filled: Counter[str] = Counter()
    policy_of: dict[str, str] = {}
    auto_of: dict[str, str] = {}
    fits = [GoldFit(source_name(g)) for g in gold]
    for number, row in enumerate(_lockstep(streams), 1):
        refs: list[str] = []
        source = None
        for g, sentence, known, report, policy, auto, fit in zip(gold, row, ids, reports,
                                                                 policies, autos, fits):
            parallel = to_parallel(fit.fit(number, sentence), report=report, number=number)
            if source is None:
                source = parallel.source
            texts, count = _annotator_references(parallel, known, policy)
            if count:
                filled[source_name(g)] += count
                policy_of[source_name(g)] = policy
                auto_of[source_name(g)] = auto
            refs.extend(texts)
        yield source or "", refs
    for name, count in filled.items():
        policy = policy_of[name]
        if filled_as is not None:
            filled_as.add(policy)
        notes.append(_filled_note(name, count, policy, auto_of[name], absent))
    for g, report, fit in zip(gold, reports, fits):
        notes.extend(fit.warnings())
        notes.extend(_report_notes(source_name(g), report))


def _check_token_level(module: Any, gold: str | os.PathLike[str]) -> None:
    if getattr(module, "UNIT", "token") != "token":
        raise GecFormatError(f"references are generated from M2 or I-measure XML gold, "
                             f"not {module.NAME}", source_name(gold))


class _AnnotatorScan:
    """A first pass over a gold file: its annotator ids, and whether it writes ``noop``
    lines beside other annotators' edits (which decides ``absent="auto"``)."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.explicit = False

    def add(self, sentence: Any) -> None:
        """Take one gold sentence (a :class:`gecformats.model.Sentence`) into account."""
        from gecformats.convert.extract import noop_beside_edits

        self.seen.update(k for k in sentence.annotators if k >= 0)
        self.explicit = self.explicit or noop_beside_edits(sentence)

    def ids(self) -> list[int]:
        """The annotators of the file, ascending (``[0]`` for a file without any)."""
        return sorted(self.seen) or [0]

    def auto(self) -> str:
        """The policy ``absent="auto"`` takes for this file."""
        return "first" if self.explicit else "source"


def _annotator_references(parallel: Any, known: Sequence[int], policy: str
                          ) -> tuple[list[str], int]:
    """One sentence's references, one per annotator of ``known`` (a
    :class:`gecformats.model.Parallel`'s texts), and how many of them were filled in for an
    absent annotator by ``policy`` (``first`` or ``source``) because another annotator made
    edits (a sentence without any edit gives the source for everyone, not counted)."""
    present = [t for t in parallel.references if t is not None]
    changed = bool(present) and any(t != parallel.source for t in present)
    refs: list[str] = []
    filled = 0
    for k in known:
        text = parallel.references[k] if k < len(parallel.references) else None
        if text is None:
            # no A line at all: nobody corrected anything; else one annotator is missing
            if changed:
                filled += 1
                text = present[0] if policy == "first" else parallel.source
            else:
                text = parallel.source
        refs.append(text)
    return refs, filled


def _filled_note(name: str, count: int, policy: str, auto: str, absent: str) -> str:
    """The note on the ``count`` references of absent annotators of gold file ``name``
    filled in by ``policy`` (``absent`` as asked, ``auto`` the file's default)."""
    what = "the first annotator's correction" if policy == "first" else "the source"
    if absent != "auto" and policy == auto:
        why = ""
    elif absent != "auto":  # asked for what the file's noop lines speak against
        why = (" (the file writes 'noop' for an annotator who changed nothing, so a missing "
               "one repeats another's edits, as the CoNLL-2014 combined file omits "
               "annotator 1 where its edits equal annotator 0's; the 'first' policy, the "
               "default (auto) for this file, restores them)" if policy == "source" else
               " (the file never writes 'noop' beside another annotator's edits: a missing "
               "annotator may mean no change; --absent source, the default (auto) for "
               "this file, takes the source)")
    elif policy == "first":
        why = (" (--absent auto: the file writes 'noop' for an annotator who changed "
               "nothing, so a missing one repeats another's edits, as the CoNLL-2014 "
               "combined file omits annotator 1 where its edits equal annotator 0's; "
               "--absent source to take the source)")
    else:
        why = (" (--absent auto: the file never writes 'noop' beside another annotator's "
               "edits, so a missing annotator is taken to have changed nothing; --absent "
               "first if the file leaves out duplicate edit lists, as the CoNLL-2014 "
               "combined file does)")
    return (f"{name}: {count} references of annotators missing from a sentence where "
            f"another annotator made edits were taken as {what}{why}")


def _report_notes(name: str, report: Any) -> list[str]:
    """The notes of an :class:`~gecformats.convert.extract.ExtractionReport` of gold file
    ``name`` (edits left out, ...)."""
    return [f"{name}: {count} {what} (e.g. {report.examples[what][0]})"
            for what, count in sorted(report.counts.items())]


def _mixed_references(gold: Sequence[str | os.PathLike[str]], gold_format: str | None,
                      max_references: int, notes: list[str]) -> Iterator[tuple[str, list[str]]]:
    from gecformats.convert.refs import read

    streams = [(source_name(g), read(g, gold_format)) for g in gold]
    capped: list[str] = []
    for number, row in enumerate(_lockstep(streams), 1):
        refs: list[str] = []
        for g, ls in zip(gold, row):
            found, up_to = _mixed_of(ls, max_references)
            if up_to:
                capped.append(f"sentence {number} of {source_name(g)} (up to {up_to})")
            refs.extend(found)
        yield " ".join(row[0].source), refs
    if capped:
        notes.append(_capped_note(capped, max_references))


def _mixed_of(loci: Any, max_references: int) -> tuple[list[str], int]:
    """The first ``max_references`` mixed references of a
    :class:`~gecformats.convert.loci.LocusSentence`, and the bound of their number when
    more were left out (else 0)."""
    from gecformats.convert.refs import bound, references

    found = list(references(loci, max=max_references))
    if len(found) == max_references:
        up_to = bound(loci)
        if up_to > max_references:
            return found, up_to
    return found, 0


def _capped_note(capped: Sequence[str], max_references: int) -> str:
    return (f"{len(capped)} sentences have more than {max_references} mixed references;"
            f" the first {max_references} were used, e.g. {capped[0]}")


def format_text(run: Run, *, ci: bool = False) -> str:
    """``run`` as tab-separated text: per hypothesis ``SYSTEM<TAB>SCORE`` (with ``ci``, for
    GLEU+, also the standard deviation and the 95 % interval), then the signature as a
    ``#`` comment line.  Scores have the reference code's digits: 12 significant digits
    for ``2015`` and ``2016`` (Python 2's ``str``), 6 decimals for GLEU+ (``%f``).  With
    sentence scores, each system's lines ``SYSTEM<TAB>N<TAB>SCORE`` (N from 1) come first
    and the corpus line reads ``SYSTEM<TAB>corpus<TAB>SCORE``."""
    plus = run.signature.version.startswith("plus")
    lines: list[str] = []
    for result in run.results:
        for number, score in enumerate(result.sentence_scores, 1):
            lines.append(f"{result.system}\t{number}\t{_score_text(score, plus, ci)}")
        corpus = "\tcorpus" if result.sentence_scores else ""
        shown = result.spread if plus and result.spread is not None else result.score
        lines.append(f"{result.system}{corpus}\t{_score_text(shown, plus, ci)}")
    lines.append(f"# {run.signature}")
    return "\n".join(lines)


def _score_text(score: float | Spread, plus: bool, ci: bool) -> str:
    if isinstance(score, Spread):
        text = f"{score.mean:f}"
        return text + f"\t{score.std:f}\t({score.low:.3f},{score.high:.3f})" if ci else text
    return f"{score:f}" if plus else f"{score:.12g}"


# ------------------------------------------------------------------ the metric interface


@dataclass
class GleuMetric(Metric):
    """GLEU as a :class:`~gecformats.metrics.base.Metric`: references generated from a
    token-level gold file (M2, I-measure XML), every version bit for bit.

    The gold is read twice: :meth:`setup` makes a first pass over the file (the annotator
    ids, so that every sentence has one reference per annotator of the file; the policy
    ``absent="auto"`` takes; the notes and the signature), then the pipeline reads it
    again, sentence by sentence, for :meth:`prepare`.

    Statistics (:meth:`sentence`), plain tuples of numbers, ``width = 2·order + 2``:

    * ``2015``/``2016``: one tuple ``(hlen, rlen, num_1, den_1, …, num_order,
      den_order)`` of the hypothesis against all references (numerators are floats: λ);
    * GLEU+: one such tuple of ints per reference, in reference order (``R_t`` of them for
      sentence ``t``): the hypothesis against that reference alone.

    Corpus step (:meth:`corpus`): ``2015``/``2016`` sum the statistics (sentence ``i``
    ``weights[i]`` times, as ``weights[i]·stats[i]``, in corpus order) and take the GLEU of
    the sums.  GLEU+ runs ``J = iterations`` iterations (1 when no sentence has two
    references, as the reference code); iteration ``j`` draws for the sentence at corpus
    position ``t`` the reference ``int(u_j[t]·R_t)``, ``u_j`` being the stream of
    ``random.Random(j·101).random()`` (one number per sentence, in corpus order), and its
    totals are ``Σ_t weights[t]·stats[t][d_j(t)]``; the score is the mean over iterations
    (NumPy's pairwise sum, as :func:`spread`).  With all weights 1 this is the reference
    code's score.  With bootstrap weights the draws stay attached to the corpus positions:
    every copy of sentence ``t`` in a resample uses the draw ``d_j(t)`` of position ``t``,
    i.e. the resample is a resampling of the per-iteration sufficient statistics (as
    sacrebleu resamples BLEU's), not a rescoring of a resampled file, which would draw
    anew for the resample's positions.

    Args:
        version, lam, order, iterations: as :class:`Scorer` (CLI ``--version --lambda
            --order --iterations``).
        mixed: every mixed reference of the gold's loci instead of one per annotator
            (``--mixed``).
        absent: what stands in for an annotator absent from a sentence (:data:`ABSENT`,
            ``--absent``).
        max_references: with ``mixed``, the most references of one sentence
            (``--max-references``).
        gold_format: the gold's format, as the pipeline reads it (default: from its
            suffix or first bytes, :func:`gecformats.formats.infer_input`).

    Raises:
        ValueError: an unknown version or absent policy, an option the version does not
            have, ``max_references`` < 1.
    """

    version: str = DEFAULT_VERSION
    lam: float | None = None
    order: int = ORDER
    iterations: int | None = None
    mixed: bool = False
    absent: str = "auto"
    max_references: int = 10_000
    gold_format: str | None = None
    _known: tuple[int, ...] | None = field(default=None, init=False, repr=False)
    _policy: str = field(default="source", init=False, repr=False)
    _refs: int = field(default=0, init=False, repr=False)
    _kind: str = field(default="annotators", init=False, repr=False)
    _notes: tuple[str, ...] = field(default=(), init=False, repr=False)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False,
                                   compare=False)

    name = "gleu"
    label = "GLEU"
    columns = ("gleu",)
    main = "gleu"
    options = frozenset({"gleu-version", "lambda", "order", "iterations", "mixed", "absent",
                         "max-references"})

    def __post_init__(self) -> None:
        self._plus, self._lam, self._iterations = _check_options(
            self.version, self.lam, self.order, self.iterations)
        if self.absent not in ABSENT:
            raise ValueError(f"unknown absent-annotator policy {self.absent!r} "
                             f"(known: {', '.join(ABSENT)})")
        if self.max_references < 1:
            raise ValueError(f"max_references must be at least 1, not {self.max_references}")
        self._kind = "mixed" if self.mixed else "annotators"

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GleuMetric:
        """From command-line options: ``--lambda`` is ``lam``, ``--gleu-version`` (score's
        name for ``gleu --version``) ``version``."""
        renamed = {"lambda": "lam", "gleu-version": "version"}
        return cls(**{renamed.get(k, k.replace("-", "_")): v for k, v in options.items()})

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_cache"] = {}  # random streams and draws: rebuilt where needed
        return state

    # ------------------------------------------------------------ the gold

    def setup(self, gold: str, view: Any = None) -> None:
        """The first pass over the gold file (or over ``view``'s units, as the pipeline
        gives them: :class:`~gecformats.metrics.base.GoldView`): its annotator ids and
        ``auto`` policy, the references' count and the notes (absent annotators filled in,
        edits left out, mixed references capped).

        Raises:
            UsageError: the gold is standard input (it is read twice).
            GecFormatError: malformed gold, not token-level, or (``mixed``) an edit out of
                range.
        """
        from gecformats import formats
        from gecformats.errors import UsageError

        gold = os.fspath(gold)
        if gold == "-":
            raise UsageError("GLEU reads the gold twice (its annotators first): give a file, "
                             "not standard input", "-")
        module = formats.get(self.gold_format or formats.infer_input(gold))
        _check_token_level(module, gold)
        name = source_name(gold)
        # the sentences as the pipeline gives them to prepare(): gold edits past the end
        # of their sentence left out (and warned about) there, once for every metric
        from gecformats.metrics.inputs import GoldFit

        fit = GoldFit(name)
        sentences = view.units() if view is not None else \
            (fit.fit(n, s) for n, s in enumerate(module.read(gold), 1))
        if self.mixed:
            self._setup_mixed(sentences, name)
        else:
            self._setup_annotators(sentences, name)

    def _setup_annotators(self, sentences: Iterable[Sentence], name: str) -> None:
        from gecformats.convert.extract import ExtractionReport, to_parallel

        scan = _AnnotatorScan()
        report = ExtractionReport()
        changed = present = 0
        for number, sentence in enumerate(sentences, 1):
            scan.add(sentence)
            parallel = to_parallel(sentence, report=report, number=number)
            texts = [t for t in parallel.references if t is not None]
            if texts and any(t != parallel.source for t in texts):
                changed += 1
                present += len(texts)
        known = scan.ids()
        auto = scan.auto()
        policy = self.absent if self.absent != "auto" else auto
        # every annotator of the file absent from a sentence where another made edits
        filled = changed * len(known) - present
        notes = [_filled_note(name, filled, policy, auto, self.absent)] if filled else []
        self._known, self._policy, self._refs = tuple(known), policy, len(known)
        self._kind = "annotators" + (f"+absent-{policy}" if filled else "")
        self._notes = tuple(notes + _report_notes(name, report))

    def _setup_mixed(self, sentences: Iterable[Sentence], name: str) -> None:
        capped: list[str] = []
        most = 0
        for number, sentence in enumerate(sentences, 1):
            try:
                loci = _sentence_loci(sentence)
            except GecFormatError as exc:
                raise GecFormatError(f"sentence {number}: {exc.message}", name,
                                     kind=exc.kind) from None
            found, up_to = _mixed_of(loci, self.max_references)
            most = max(most, len(found))
            if up_to:
                capped.append(f"sentence {number} of {name} (up to {up_to})")
        self._refs = most
        self._notes = (_capped_note(capped, self.max_references),) if capped else ()

    def prepare(self, gold: Sentence) -> _Sentence:
        """The sentence's source and references as GLEU tokens, with their n-grams.

        Raises:
            GecFormatError: (``mixed``) an edit out of range, too many alternatives.
            ValueError: :meth:`setup` was not called first (one reference per annotator).
        """
        if self.mixed:
            refs, _ = _mixed_of(_sentence_loci(gold), self.max_references)
            source = " ".join(gold.source)
        else:
            from gecformats.convert.extract import to_parallel

            if self._known is None:
                raise ValueError("GleuMetric.setup(gold) must read the gold file before "
                                 "prepare(): the references are one per annotator of the file")
            parallel = to_parallel(gold)
            refs, _ = _annotator_references(parallel, self._known, self._policy)
            source = parallel.source
        sent = _Sentence(tokens(source), [tokens(r) for r in refs], self.version, self.order)
        if self._plus:
            for k in range(len(refs)):  # once here, not once per system
                sent.plus_counts(k)
        return sent

    # ------------------------------------------------------------ the two steps

    def sentence(self, prepared: _Sentence, hypothesis: Hypothesis) -> tuple[Any, ...]:
        """The statistics of the hypothesis (see the class): the raw line's bytes split on
        ASCII white space, as the reference code."""
        hyp = tokens(hypothesis.line.encode("utf-8", "surrogateescape"))
        if self._plus:
            refs = range(len(prepared.refs))
            by_ref = _plus_stats(prepared, hyp, self.order, refs)
            return tuple(tuple(by_ref[k]) for k in refs)
        return tuple(_single_stats(prepared, hyp, self.version, self._lam or 0.0, self.order))

    def corpus(self, stats: Sequence[Any], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """The corpus GLEU (see the class for the weights).  ``counts``: the summed
        statistics (``2015``/``2016``) or the iterations run (GLEU+); ``extra`` (GLEU+):
        ``std`` and ``ci95`` over iterations.  Every choice is 0 (GLEU chooses no
        candidate: GLEU+ draws one per iteration).

        Raises:
            GecFormatError: GLEU 2015 with a λ that makes a summed numerator negative.
        """
        ws = [1] * len(stats) if weights is None else [int(w) for w in weights]
        chosen = (0,) * len(stats) if choices and weights is None else ()
        if self._plus:
            values = self._plus_values(stats, ws)
            s = spread(values)
            return Totals((s.mean,), {"iterations": len(values)}, chosen,
                          {"std": s.std, "ci95": (s.low, s.high)})
        totals: list[float] = [0] * (2 * self.order + 2)
        for s, w in zip(stats, ws):
            if w == 1:
                totals = list(map(operator.add, totals, s))
            elif w:
                totals = [t + w * v for t, v in zip(totals, s)]
        try:
            score = _final(self.version, self._lam, totals)
        except ValueError as exc:
            raise GecFormatError(str(exc)) from None
        names = ["hlen", "rlen"] + [f"{kind}{n}" for n in range(1, self.order + 1)
                                    for kind in ("num", "den")]
        return Totals((score,), dict(zip(names, totals)), chosen)

    def _plus_values(self, stats: Sequence[Sequence[Sequence[int]]], ws: Sequence[int]
                     ) -> list[float]:
        """GLEU+: the score of every iteration (all fields packed in one integer, so that
        a total is one big-integer sum)."""
        sizes = tuple(len(s) for s in stats)
        runs = self.iterations_for(sizes)
        width = 2 * self.order + 2
        swapped = self.version == "plus-2016"
        const = 0
        varying: list[int] = []
        for i, (s, w) in enumerate(zip(stats, ws)):
            if w:
                if all(v == s[0] for v in s):  # the same whatever the draw
                    const += w * _pack(s[0])
                else:
                    varying.append(i)
        if not varying:
            return [_gleu(_unpack(const, width), swapped)] * runs
        packs = [[_pack(v) for v in stats[i]] for i in varying]
        wv = [ws[i] for i in varying]
        values = []
        for draws in self.draws(sizes, runs):
            picked = map(operator.getitem, packs, map(draws.__getitem__, varying))
            values.append(_gleu(_unpack(const + sum(map(operator.mul, wv, picked)), width),
                                swapped))
        return values

    def iterations_for(self, sizes: Sequence[int]) -> int:
        """GLEU+ iterations run for sentences with ``sizes`` references (1 when none has
        two)."""
        return (self._iterations or 1) if max(sizes, default=0) > 1 else 1

    def uniforms(self, n: int, runs: int) -> list[list[float]]:
        """The first ``n`` numbers of the streams ``random.Random(j·101).random()`` for
        ``j < runs`` (kept and extended)."""
        cache = self._cache.setdefault("uniforms", [])
        while len(cache) < runs:
            cache.append((random.Random(len(cache) * 101), []))
        out = []
        for rng, drawn in cache[:runs]:
            if len(drawn) < n:
                draw = rng.random
                drawn += [draw() for _ in range(n - len(drawn))]
            out.append(drawn[:n] if len(drawn) > n else drawn)
        return out

    def draws(self, sizes: Sequence[int], runs: int) -> list[list[int]]:
        """Per iteration, the reference drawn for each sentence: ``int(u_j[t]·R_t)``
        (Python 2's ``randint(0, R-1)`` for R < 2**53); version ``plus-py3``: Python 3's
        ``randint(0, R_t-1)`` of the stream seeded ``j·101``."""
        key = (tuple(sizes), runs)
        last = self._cache.get("draws")
        if (last is None or last[0] != key) and self.version == "plus-py3":
            rngs = [random.Random(j * 101).randrange for j in range(runs)]
            last = self._cache["draws"] = (key, [[rnd(r) for r in sizes] for rnd in rngs])
        elif last is None or last[0] != key:
            us = self.uniforms(len(sizes), runs)
            last = self._cache["draws"] = (key, [[int(u * r) for u, r in zip(stream, sizes)]
                                                 for stream in us])
        return last[1]

    # ------------------------------------------------------------ the rest

    def signature(self) -> str:
        """As :class:`Signature` (``references`` and ``refs`` known after :meth:`setup`)."""
        iterations = self.iterations_for([self._refs]) if self._plus else None
        return str(Signature(self.version, self.order, self._lam, iterations, self._refs,
                             self._kind))

    sentence_score = "gleu"

    def sentence_fields(self, stats: Any, choice: int) -> dict[str, Any]:
        """``gleu``: the sentence's GLEU as ``gleu --sentence-level`` gives it (GLEU+: the
        mean over its references of the smoothed GLEU, with their ``std``)."""
        if self._plus:
            s = _plus_sentence(stats, self.version == "plus-2016")
            return {"gleu": s.mean, "std": s.std}
        return {"gleu": _sentence_score(self.version, self._lam, stats)}

    def warnings(self) -> list[str]:
        """The notes of :meth:`setup`: references of absent annotators filled in, edits
        left out, mixed references capped."""
        return list(self._notes)

    def resampler(self, stats: Sequence[Any]) -> Any:
        """NumPy's corpus step over many weight vectors, bit for bit :meth:`corpus`
        (:mod:`gecformats.metrics.gleu_resampling`)."""
        from gecformats.metrics.gleu_resampling import Resampler

        return Resampler(self, stats)

    def swapper(self, a: Sequence[Any], b: Sequence[Any]) -> Any:
        """NumPy's approximate-randomisation step, bit for bit :meth:`corpus`
        (:mod:`gecformats.metrics.gleu_resampling`)."""
        from gecformats.metrics.gleu_resampling import Swapper

        return Swapper(self, a, b)


def _pack(stats: Sequence[int]) -> int:
    return int.from_bytes(array("Q", stats).tobytes(), "little")


def _unpack(total: int, width: int) -> array:
    fields = array("Q")
    fields.frombytes(total.to_bytes(_FIELD * width, "little"))
    return fields


def _sentence_loci(sentence: Sentence) -> Any:
    """The loci of a gold sentence (:func:`gecformats.convert.loci.loci_of`, grouped by
    components), as :func:`gecformats.convert.refs.read` makes them.

    Raises:
        GecFormatError: an edit out of range, too many alternatives in one locus.
    """
    from gecformats.convert.refs import sentence_loci

    return sentence_loci(sentence)

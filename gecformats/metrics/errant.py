"""ERRANT's span-based metrics (``errant_compare``, the BEA-2019 metric) on M2 files.

What ERRANT's ``compare_m2.py`` computes from a hypothesis M2 file and a reference M2 file,
with its rules and quirks:

* Each block's edit lines are read as ERRANT reads them: ``start end``, the type, the
  correction field *as written* (``a||b`` is one string, ``-NONE-`` a string) and the
  annotator id (the last field).  A block without edit lines is a ``noop`` of annotator 0.
* Filters, in this order, after the annotator is registered (so an annotator whose edits are
  all filtered out still competes, with no edits): ``UNK`` edits are dropped except in the
  detection modes; ``single`` keeps edits of at most one token on each side, ``multi`` the
  others; ``filter`` drops the given types.
* Modes: ``cs`` compares ``(start, end, correction)``; ``cse`` adds the type; ``ds`` compares
  spans; ``dt`` compares tokens (an edit becomes one ``(i, i + 1)`` per source token it
  covers; an insertion is ``(start, start + 1)``: it affects the token on its right).  Keys
  that occur several times keep every type: a true positive counts once per *reference* type
  of the key, a false positive or negative once per type of its own side.
* Per sentence, every hypothesis annotator is paired with every reference annotator (in
  order of first appearance) and the pair kept that, added to the corpus totals so far,
  gives the highest F (P, R and F rounded to 4 places, as ERRANT compares them), then the
  most true positives, fewest false positives, fewest false negatives.
* P = TP / (TP + FP), 1.0 when FP = 0; R likewise with FN; F_β from the rounded P and R.

:class:`ErrantMetric` is the metric in the two steps of :mod:`gecformats.metrics.base`
(per-sentence candidates, then the corpus step redoing the choice, over any weights);
:func:`compare` and :func:`errant_files` use it to return the counts, :func:`format_errant`
prints what ``errant_compare`` prints, byte for byte.

>>> from gecformats.formats import m2
>>> ref = m2.parse("S He go to school .\\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\\n")
>>> hyp = m2.parse("S He go to school .\\nA 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0\\n")
>>> r = compare(hyp, ref)
>>> (r.tp, r.fp, r.fn), compare(hyp, ref, mode="ds").tp
((0, 1, 1), 1)
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from gecformats import __version__
from gecformats.errors import GecFormatError, install_hint, source_difference
from gecformats.formats.m2 import format_sentence
from gecformats.metrics.base import Hypothesis, Metric, SystemFailure, Totals
from gecformats.model import Sentence

MODES = ("cs", "cse", "ds", "dt")
"""``cs`` span-based correction (the default), ``cse`` span-based correction with the type,
``ds`` span-based detection, ``dt`` token-based detection."""

TITLES = {"dt": " Token-Based Detection ", "ds": " Span-Based Detection ",
          "cse": " Span-Based Correction + Classification ", "cs": " Span-Based Correction "}

RawEdit = tuple[int, int, str, str, int]
"""An edit as ERRANT reads an M2 line: ``(start, end, type, correction field, annotator)``."""

Kinds = tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]]
"""Per side (hypothesis, gold): the first type of each :func:`type_kind` (``errant``,
``operation``, ``other``) and the (1-based) sentence it is in."""

ERRANT_TYPE = re.compile(r"[MRU]:[A-Z]+(?::[A-Z]+)*")
"""ERRANT's edit types: ``OP:CAT`` (``M:DET``, ``R:VERB:SVA``, ``R:WO``); ``UNK`` and
``noop`` are ERRANT's too and say nothing of the scheme."""

EXTRACTION = "extracted-lcs"
"""The signature's ``hyp:`` value of a text hypothesis whose edits gecformats extracted
(:func:`gecformats.convert.extract.align_edits`, a longest-common-subsequence aligner);
``extracted-native`` with ``extractor="native"`` (:func:`extraction_name`)."""


def extraction_name(extractor: str) -> str:
    """The signature's ``hyp:`` value of text hypotheses extracted by gecformats'
    ``extractor`` (``lcs`` or ``native``): ``extracted-lcs``, ``extracted-native``."""
    return EXTRACTION if extractor == "lcs" else f"extracted-{extractor}"


def type_kind(etype: str) -> str | None:
    """``"errant"`` for an ERRANT type (``R:VERB:SVA``), ``"operation"`` for a bare ``R``,
    ``M`` or ``U`` (gecformats' extraction), ``None`` for ``UNK`` and ``noop``, ``"other"``
    for the rest (NUCLE's ``ArtOrDet``, ``Mec``)."""
    if etype in ("UNK", "noop"):
        return None
    if etype in ("R", "M", "U"):
        return "operation"
    return "errant" if ERRANT_TYPE.fullmatch(etype) else "other"


@dataclass(frozen=True, slots=True)
class ErrantResult:
    """Corpus counts and scores of :func:`compare`.

    ``categories`` maps each error type (as written) to ``[tp, fp, fn]`` over the chosen
    annotator pairs; ``categories_at(level)`` groups them as ``-cat 1|2|3`` does."""

    tp: int
    fp: int
    fn: int
    beta: float
    mode: str
    sentences: int
    categories: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    signature: str = ""
    extracted: bool = False
    """The hypothesis was text, its edits extracted by gecformats' aligner, not ERRANT's."""
    kinds: Kinds = field(default_factory=lambda: ({}, {}))
    """Per side (hypothesis, gold): the first type of each :func:`type_kind` (``errant``,
    ``operation``, ``other``) and the sentence it is in."""

    def scheme(self, side: int) -> str | None:
        """The type scheme of a side (0 the hypothesis, 1 the gold): ``other`` when any type
        is not ERRANT's, else ``operation`` when any is a bare ``R``/``M``/``U`` (and for an
        extracted hypothesis), else ``errant``; ``None`` for a side without typed edits."""
        return scheme(self.kinds, self.extracted, side)

    def type_problem(self, cat: int | None = None) -> tuple[str, int] | None:
        """Why the types make ``--mode cse`` (this result's mode) or ``--cat cat`` meaningless
        (one sentence) and the side to blame (0 the hypothesis, 1 the gold), or ``None``
        (see :func:`type_problem`)."""
        return type_problem(self.mode, self.kinds, self.extracted, cat)

    @property
    def scores(self) -> tuple[float, float, float]:
        """P, R, F as ERRANT rounds them (4 places)."""
        return f_score(self.tp, self.fp, self.fn, self.beta)

    @property
    def precision(self) -> float:
        return self.scores[0]

    @property
    def recall(self) -> float:
        return self.scores[1]

    @property
    def f(self) -> float:
        return self.scores[2]

    def categories_at(self, level: int) -> dict[str, tuple[int, int, int]]:
        """``-cat 1`` (operation: ``R``, ``M``, ``U``), ``2`` (main type: ``NOUN``) or ``3``
        (every type) totals; ``UNK`` stays ``UNK``.

        Raises:
            ValueError: a level other than 1, 2 or 3.
        """
        return categories_at(self.categories, level)

    def to_dict(self, cat: int | None = None) -> dict[str, Any]:
        """The JSON form: ``tp fp fn precision recall f beta mode sentences signature`` and
        ``categories`` (each ``{tp, fp, fn, precision, recall, f}``; grouped by ``cat``)."""
        p, r, f = self.scores
        cats = self.categories_at(cat or 3)
        return {
            "tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": p, "recall": r, "f": f,
            "beta": self.beta, "mode": self.mode, "sentences": self.sentences,
            "signature": self.signature,
            "categories": {
                k: dict(zip(("tp", "fp", "fn", "precision", "recall", "f"),
                            (*v, *f_score(*v, self.beta))))
                for k, v in sorted(cats.items())
            },
        }


def categories_at(categories: Mapping[str, Sequence[int]], level: int
                  ) -> dict[str, tuple[int, int, int]]:
    """Per-type ``(tp, fp, fn)`` totals grouped as ``-cat level`` groups them: ``1`` the
    operation (``R``, ``M``, ``U``), ``2`` the main type (``NOUN``), ``3`` every type as
    written; ``UNK`` stays ``UNK``.

    Raises:
        ValueError: a level other than 1, 2 or 3.
    """
    if level not in (1, 2, 3):
        raise ValueError(f"the category level is 1, 2 or 3, not {level}")
    out: dict[str, tuple[int, int, int]] = {}
    for cat, counts in categories.items():
        key = cat if level == 3 or cat == "UNK" else cat[0] if level == 1 else cat[2:]
        prev = out.get(key, (0, 0, 0))
        out[key] = (prev[0] + counts[0], prev[1] + counts[1], prev[2] + counts[2])
    return out


def f_score(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """ERRANT's ``computeFScore``: P, R, F_β rounded to 4 places (P = 1.0 when FP = 0, R =
    1.0 when FN = 0, F = 0.0 when P + R = 0)."""
    p = float(tp) / (tp + fp) if fp else 1.0
    r = float(tp) / (tp + fn) if fn else 1.0
    f = float((1 + (beta ** 2)) * p * r) / (((beta ** 2) * p) + r) if p + r else 0.0
    return round(p, 4), round(r, 4), round(f, 4)


def scheme(kinds: Kinds, extracted: bool, side: int) -> str | None:
    """The type scheme of a side (0 the hypothesis, 1 the gold): ``other`` when any type
    is not ERRANT's, else ``operation`` when any is a bare ``R``/``M``/``U`` (and for an
    extracted hypothesis), else ``errant``; ``None`` for a side without typed edits."""
    if side == 0 and extracted:
        return "operation"
    return next((k for k in ("other", "operation", "errant") if k in kinds[side]), None)


def type_problem(mode: str, kinds: Kinds, extracted: bool, cat: int | None = None,
                 filtered: bool = False) -> tuple[str, int] | None:
    """Why the types make ``--mode cse`` (when ``mode`` is ``cse`` and ``cat`` is None),
    ``--filter`` (when ``filtered`` and ``cat`` is None) or ``--cat cat`` meaningless (one
    sentence) and the side to blame (0 the hypothesis, 1 the gold), or ``None``.

    ``cse``, ``--filter`` and ``--cat 3`` need both sides typed by one scheme (:func:`scheme`):
    a filter by ERRANT's types against a gold typed by NUCLE's would leave out the
    hypothesis' edits of that type and none of the gold's;
    ``--cat 1`` (the operation, the letter before ``:``) needs no ``other`` types,
    ``--cat 2`` (what follows it) ERRANT's ``OP:CAT`` types on both sides.

    Args:
        mode: the ERRANT mode.
        kinds: what :class:`ErrantResult` records as ``kinds``.
        extracted: the hypothesis' edits were extracted from text by gecformats.
        cat: the ``--cat`` level, or None for the check of ``cse``.
    """
    if cat is None and mode != "cse" and not filtered:
        return None
    schemes = (scheme(kinds, extracted, 0), scheme(kinds, extracted, 1))
    if cat in (1, 2):
        bad = ("other",) if cat == 1 else ("other", "operation")
        blamed = next((i for i in (1, 0) if schemes[i] in bad), None)
    elif None not in schemes and schemes[0] != schemes[1]:
        blamed = 1 if schemes[1] != "errant" else 0
    else:
        blamed = None
    if blamed is None:
        return None
    if cat == 1:
        example = kinds[blamed]["other"][0]
        why = (f"--cat 1 groups the types by ERRANT's operation, the letter before ':' "
               f"({example!r} would be filed under {example[0]!r})")
    elif cat == 2:
        why = "--cat 2 groups the types by ERRANT's category, what follows 'OP:'"
    else:
        other = 1 - blamed
        cse = cat is None and mode == "cse"
        why = (("--errant-mode cse compares" if cse else "--filter leaves out edits by their type on"
                if cat is None else "--cat 3 lists")
               + f" the types of both sides, and {_describe(kinds, extracted, other)}")
    fix = ("use a gold typed by ERRANT (errant_m2 -gold)" if blamed else
           "type the hypothesis' edits with ERRANT (--extractor errant)")
    instead = ("--errant-mode cs" if cat is None and mode == "cse" else "leave out --filter"
               if cat is None else
               "--cat 1" if cat != 1 and "other" not in schemes else "leave out --cat")
    return f"{why}, but {_describe(kinds, extracted, blamed)}; {fix}, or {instead}", blamed


def _describe(kinds: Kinds, extracted: bool, side: int) -> str:
    """``the gold's types are ERRANT's ('R:NOUN' in sentence 2)`` and the like."""
    whose = ("the hypothesis'", "the gold's")[side]
    kind = scheme(kinds, extracted, side)
    if side == 0 and extracted:
        return ("the hypothesis' edits were extracted from text by gecformats and carry "
                "only the operation (R, M, U)")
    example, number = kinds[side][kind]  # type: ignore[index]
    where = f"{example!r} in sentence {number}"
    if kind == "errant":
        return f"{whose} types are ERRANT's ({where})"
    if kind == "operation":
        return f"{whose} types are operations only ({where})"
    return f"{whose} types are not ERRANT's ({where}; ERRANT's look like 'R:VERB:SVA')"


def raw_edits(sentence: Sentence) -> list[RawEdit]:
    """The sentence's edits as ERRANT reads its M2 block: the block is written as gecformats
    writes M2 (lossless: the correction field and deletion spelling as read) and each ``A``
    line split as ``compare_m2.py`` splits it."""
    out: list[RawEdit] = []
    for line in format_sentence(sentence).split("\n")[1:]:
        if not line.startswith("A "):
            continue
        fields = line[2:].split("|||")
        span = fields[0].split()
        out.append((int(span[0]), int(span[1]), fields[1], fields[2], int(fields[-1])))
    return out


Keyed = dict[int, dict[tuple, list[str]]]
"""Per annotator (in order of first appearance), its comparison keys and each key's types."""

T = TypeVar("T")


def process(edits: list[RawEdit], mode: str = "cs", *, single: bool = False,
            multi: bool = False, filter: Collection[str] = ()) -> Keyed:
    """ERRANT's ``process_edits``: per annotator, the comparison keys of its edits and the
    types of each key, after the filters (see the module notes)."""
    coders: Keyed = {}
    if not edits:
        edits = [(-1, -1, "noop", "-NONE-", 0)]
    detection = mode in ("dt", "ds")
    for start, end, cat, cor, coder in edits:
        keys = coders.setdefault(coder, {})
        if not detection and cat == "UNK":
            continue
        if single and (end - start >= 2 or len(cor.split()) >= 2):
            continue
        if multi and end - start < 2 and len(cor.split()) < 2:
            continue
        if filter and cat in filter:
            continue
        if mode == "dt":
            if start == -1:
                spans = [(start, start)]
            elif start == end and start >= 0:
                spans = [(start, start + 1)]
            else:
                spans = [(i, i + 1) for i in range(start, end)]
            for key in spans:
                keys.setdefault(key, []).append(cat)
        elif mode == "ds":
            keys.setdefault((start, end), []).append(cat)
        elif mode == "cse":
            keys.setdefault((start, end, cat, cor), []).append(cat)
        else:
            keys.setdefault((start, end, cor), []).append(cat)
    return coders


def compare_keys(hyp: dict[tuple, list[str]], ref: dict[tuple, list[str]]
                 ) -> tuple[int, int, int, dict[str, list[int]]]:
    """ERRANT's ``compareEdits``: TP, FP, FN and per-type ``[tp, fp, fn]`` of one hypothesis
    annotator against one reference annotator."""
    tp = fp = fn = 0
    cats: dict[str, list[int]] = {}
    for key, h_cats in hyp.items():
        if h_cats[0] == "noop":
            continue
        if key in ref:
            for cat in ref[key]:
                tp += 1
                cats.setdefault(cat, [0, 0, 0])[0] += 1
        else:
            for cat in h_cats:
                fp += 1
                cats.setdefault(cat, [0, 0, 0])[1] += 1
    for key, r_cats in ref.items():
        if r_cats[0] == "noop":
            continue
        if key not in hyp:
            for cat in r_cats:
                fn += 1
                cats.setdefault(cat, [0, 0, 0])[2] += 1
    return tp, fp, fn, cats


Candidate = tuple[int, int, int, tuple[tuple[str, int, int, int], ...]]
"""One hypothesis/reference annotator pair of a sentence: ``(tp, fp, fn, cats)``, ``cats``
the per-type ``(type, tp, fp, fn)`` of the pair sorted by type (empty when the metric has
no ``cat``: the corpus step then has no per-type totals to make)."""

ErrantStats = tuple[tuple[Candidate, ...], int, tuple[int, ...], tuple[int, ...],
                    tuple[str, ...], tuple[str, ...], bool]
"""One system's statistics for one sentence (:meth:`ErrantMetric.sentence`):
``(candidates, fixed, hyp_ids, ref_ids, hyp_types, gold_types, extracted)``.

* ``candidates``: one :data:`Candidate` per annotator pair, in ERRANT's loop order
  (hypothesis annotators outer, reference annotators inner): candidate ``k`` pairs
  ``hyp_ids[k // len(ref_ids)]`` with ``ref_ids[k % len(ref_ids)]``;
* ``fixed``: the index of the candidate ERRANT chooses whatever the running totals (one
  with at least the TP and at most the FP and FN of every other, :func:`_fixed`), or -1
  (then the corpus step redoes the choice; with weight w it adds the fixed one w times);
* ``hyp_ids``, ``ref_ids``: the annotator ids in order of first appearance (a sentence
  without edits is annotator 0's ``noop``);
* ``hyp_types``, ``gold_types``: the first type of each :func:`type_kind` in the side's
  edits (before the filters), at most three, for the type checks (``()`` for an extracted
  hypothesis, whose types are the operation only);
* ``extracted``: the hypothesis was text, its edits extracted by gecformats' aligner."""


class ErrantGold(NamedTuple):
    """What :meth:`ErrantMetric.prepare` keeps of a gold sentence."""

    source: tuple[str, ...]
    """The source tokens (a hypothesis M2 sentence must have the same; a text hypothesis's
    edits are extracted against them)."""
    references: Keyed
    """The reference annotators' comparison keys (:func:`process`), in order of first
    appearance."""
    types: tuple[str, ...]
    """The first type of each :func:`type_kind` in the gold edits."""


class ErrantMetric(Metric):
    """ERRANT's span-based metric (``errant_compare``) as a :class:`~gecformats.metrics.base.Metric`.

    Per sentence, one candidate per hypothesis/reference annotator pair; the corpus step
    redoes ERRANT's choice against the running totals (:func:`_choose`).

    Args:
        beta: β of F_β (finite, > 0).
        mode: one of :data:`MODES`.
        single, multi: ERRANT's ``-single`` and ``-multi`` (not both).
        filter: the edit types to leave out (ERRANT's ``-filt``).
        cat: ``1``, ``2`` or ``3`` for per-category totals in :attr:`Totals.extra`
            (``-cat``), or ``None``.

    Raises:
        ValueError: an unknown mode, ``single`` with ``multi``, a β that is not finite and
            positive, a ``cat`` other than 1, 2, 3 or ``None``.
    """

    name = "errant"
    label = "ERRANT"
    columns = ("precision", "recall", "f")
    main = "f"
    options = frozenset({"beta", "errant-mode", "single", "multi", "filter", "cat",
                         "extractor", "spacy-model"})
    needs_edits = True

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Metric:
        """As :meth:`Metric.from_options`, ``--errant-mode`` giving ``mode`` (the name
        ``--mode`` is M2's: its modes are others)."""
        return cls(**{("mode" if k == "errant-mode" else k.replace("-", "_")): v
                      for k, v in options.items()})

    def qualifiers(self) -> list[str]:
        """The mode when not ``cs``, ``single``/``multi``, the types left out."""
        out = [self.mode] if self.mode != "cs" else []
        out += ["single"] * self.single + ["multi"] * self.multi
        return out + ([f"without {','.join(sorted(self.filter))}"] if self.filter else [])

    def __init__(self, beta: float = 0.5, mode: str = "cs", single: bool = False,
                 multi: bool = False, filter: Collection[str] = (), cat: int | None = None,
                 extractor: str = "lcs", spacy_model: str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown ERRANT mode {mode!r} (known: {', '.join(MODES)})")
        if single and multi:
            raise ValueError("ERRANT's single and multi exclude each other (single keeps the "
                             "edits of at most one token on each side, multi the others)")
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) \
                or not math.isfinite(beta) or beta <= 0:
            raise ValueError(f"beta must be a finite number > 0, not {beta!r}")
        if cat not in (None, 1, 2, 3):
            raise ValueError(f"the category level is 1, 2 or 3, not {cat!r}")
        self.beta = beta
        self.mode = mode
        self.single = bool(single)
        self.multi = bool(multi)
        self.filter = frozenset([filter] if isinstance(filter, str) else filter)
        self.cat = cat
        from gecformats.convert.extract import EXTRACTORS

        if extractor not in EXTRACTORS:
            raise ValueError(f"unknown extractor {extractor!r} (known: {', '.join(EXTRACTORS)})")
        self.extractor, self.spacy_model = extractor, spacy_model

    def __repr__(self) -> str:
        return (f"ErrantMetric(beta={self.beta!r}, mode={self.mode!r}, single={self.single}, "
                f"multi={self.multi}, filter={sorted(self.filter)!r}, cat={self.cat!r})")

    def _process(self, edits: list[RawEdit]) -> Keyed:
        return process(edits, self.mode, single=self.single, multi=self.multi,
                       filter=self.filter)

    def prepare(self, gold: Sentence) -> ErrantGold:
        """The gold sentence's source, its reference annotators' keys after the filters and
        the first type of each kind (see :class:`ErrantGold`)."""
        edits = raw_edits(gold)
        return ErrantGold(tuple(gold.source), self._process(edits), _first_types(edits))

    def sentence(self, prepared: ErrantGold, hypothesis: Hypothesis) -> ErrantStats:
        """The statistics of one hypothesis (see :data:`ErrantStats`): the edits of
        ``hypothesis.sentence`` when the hypothesis file is M2, else the edits that
        :func:`gecformats.convert.extract.align_edits` extracts (with this metric's
        ``extractor``, ``lcs`` or ``native``) from the gold source and
        ``hypothesis.tokens`` (annotator 0, typed by operation only), or ERRANT's own.

        Raises:
            GecFormatError: an M2 hypothesis whose source differs from the gold's (no file
                and no sentence number: the caller adds them, as :func:`compare` does).
        """
        if hypothesis.sentence is not None:
            _same_source(hypothesis.sentence.source, prepared.source)
            return self._stats(prepared, raw_edits(hypothesis.sentence), False)
        if self.extractor == "errant":
            return self._stats(prepared, _errant_edits(prepared.source, hypothesis.tokens,
                                                       self.spacy_model), "errant")
        from gecformats.convert.extract import align_edits

        edits = align_edits(prepared.source, hypothesis.tokens, extractor=self.extractor)
        return self._stats(prepared, _model_edits(Sentence(prepared.source, {0: edits})), True)

    def sentences(self, prepared: Sequence[ErrantGold],
                  hypotheses: Sequence[Sequence[Hypothesis]]) -> Iterator[list[ErrantStats]]:
        """:meth:`sentence` for a chunk (see :meth:`Metric.sentences`): with ``--extractor
        errant``, the chunk's pairs go to ERRANT at once (:func:`_errant_parses`): spaCy
        parses their texts in batches (``nlp.pipe``), each source once per run and each
        distinct (source, hypothesis) pair is aligned and typed once, whatever the number
        of systems and metrics that gave it; the statistics are those of :meth:`sentence`.

        Raises:
            SystemFailure: an M2 hypothesis whose source differs from the gold's.
        """
        if self.extractor != "errant":
            yield from super().sentences(prepared, hypotheses)
            return
        parses = _errant_parses(prepared, hypotheses, self.spacy_model)
        for i, (p, hyps) in enumerate(zip(prepared, hypotheses)):
            row = []
            for s, hyp in enumerate(hyps):
                try:
                    row.append(self.sentence(p, hyp) if hyp.sentence is not None else
                               self._stats(p, parses.edits(i, hyp.tokens), "errant"))
                except GecFormatError as exc:
                    raise SystemFailure(exc, s) from None
            yield row

    def _stats(self, prepared: ErrantGold, edits: list[RawEdit], extracted: bool | str
               ) -> ErrantStats:
        """The statistics of one sentence from the hypothesis' raw edits."""
        hyp = self._process(edits)
        refs = prepared.references
        candidates = []
        for h in hyp.values():
            for r in refs.values():
                tp, fp, fn, cats = compare_keys(h, r)
                per_type = tuple(sorted((c, *v) for c, v in cats.items())) if self.cat else ()
                candidates.append((tp, fp, fn, per_type))
        return (tuple(candidates), _fixed(candidates), tuple(hyp), tuple(refs),
                () if extracted is True else _first_types(edits), prepared.types, extracted)

    def corpus(self, stats: Sequence[ErrantStats], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """ERRANT's corpus score: for each sentence in order, counted ``weights[i]`` times
        (the choice made anew each time, as in a corpus with the sentence repeated in
        place), the candidate that, added to the totals so far, gives the best F
        (:func:`_choose`); P, R, F by :func:`f_score`.

        :attr:`Totals.counts` is ``{"tp", "fp", "fn"}``; :attr:`Totals.extra` holds
        ``categories`` (with ``cat``: ``{type: (tp, fp, fn)}`` at that level, the rows of
        ``errant_compare -cat``) and, on the corpus itself (``weights`` None),
        ``extracted`` (any sentence's edits were extracted from text), ``hyp`` (the
        signature's ``hyp:`` value, ``m2``, ``extracted-lcs`` or ``extracted-native``),
        ``signature`` (today's
        full signature of this system), ``kinds`` (as :attr:`ErrantResult.kinds`) and
        ``type_problem`` (``(message, side)`` with side 0 the hypothesis and 1 the gold,
        when ``--mode cse`` or ``--cat`` means nothing for these types, else ``None``).

        Raises:
            ValueError: ``choices`` with ``weights``; a negative weight.
        """
        if choices and weights is not None:
            raise ValueError("choices are given for the corpus itself, without weights")
        beta = self.beta
        track = self.cat is not None
        tp = fp = fn = 0
        cats: dict[str, list[int]] = {}
        chosen: list[int] = []
        for i, (candidates, fixed, *_) in enumerate(stats):
            w = 1 if weights is None else weights[i]
            if w <= 0:
                if w < 0:
                    raise ValueError(f"weight {w} of sentence {i + 1} is negative")
                continue
            single = fixed >= 0  # the same choice every time: counted w times at once
            times = w if single else 1
            for _ in range(1 if single else w):
                best = fixed if single else _choose(candidates, tp, fp, fn, beta)
                c = candidates[best]
                tp += c[0] * times
                fp += c[1] * times
                fn += c[2] * times
                if track:
                    for name, ctp, cfp, cfn in c[3]:
                        total = cats.setdefault(name, [0, 0, 0])
                        total[0] += ctp * times
                        total[1] += cfp * times
                        total[2] += cfn * times
            if choices:
                chosen.append(best)
        extra: dict[str, Any] = {}
        if track:
            extra["categories"] = categories_at(cats, self.cat)  # type: ignore[arg-type]
        if weights is None:
            extracted = any(s[6] is True for s in stats)
            kinds = _kinds(stats)
            hyp = extraction_name(self.extractor) if extracted else "m2"
            if any(s[6] == "errant" for s in stats):  # ERRANT's own edits, typed
                from gecformats.convert.errant_extract import cached, version

                hyp = f"extracted-{version(cached(self.spacy_model))}"
            problem = type_problem(self.mode, kinds, extracted, filtered=bool(self.filter))
            if problem is None and self.cat:
                problem = type_problem(self.mode, kinds, extracted, self.cat)
            extra.update(extracted=extracted, hyp=hyp, signature=self.signature(hyp),
                         kinds=kinds, type_problem=problem)
        return Totals(f_score(tp, fp, fn, beta), {"tp": tp, "fp": fp, "fn": fn},
                      tuple(chosen), extra)

    def signature(self, hyp: str | None = None) -> str:
        """``metric:errant|mode:cs|beta:0.5`` with ``|single``, ``|multi``,
        ``|filter:A,B`` when given, then ``|hyp:HYP`` when ``hyp`` is given (``m2`` or
        ``extracted-lcs``: the full signature of one system, as :func:`compare` gives it;
        see :attr:`Totals.extra`'s ``signature``), then ``|gecformats:VERSION``."""
        filters = "".join(["|single" * self.single, "|multi" * self.multi]
                          + ([f"|filter:{','.join(sorted(self.filter))}"] if self.filter else []))
        system = f"|hyp:{hyp}" if hyp is not None else ""
        return (f"metric:{self.name}|mode:{self.mode}|beta:{self.beta:g}{filters}{system}"
                f"|gecformats:{__version__}")

    def resampler(self, stats: Sequence[ErrantStats]) -> Any:
        """ERRANT's choice on many weightings at once (:class:`~gecformats.metrics.resampling.Greedy`)."""
        from gecformats.metrics.resampling import ErrantRule, Greedy

        return Greedy(_greedy_candidates(stats), ErrantRule(self.beta))

    def swapper(self, a: Sequence[ErrantStats], b: Sequence[ErrantStats]) -> Any:
        """ERRANT's choice on the swapped pseudo-systems of many trials at once."""
        from gecformats.metrics.resampling import ErrantRule, PairedGreedy

        return PairedGreedy(_greedy_candidates(a), _greedy_candidates(b), ErrantRule(self.beta))

    def sentence_fields(self, stats: ErrantStats, choice: int) -> dict[str, Any]:
        """``tp``, ``fp``, ``fn`` of the chosen pair and its ``hyp_annotator`` and
        ``ref_annotator`` ids."""
        candidates, hyp_ids, ref_ids = stats[0], stats[2], stats[3]
        tp, fp, fn, _ = candidates[choice]
        return {"tp": tp, "fp": fp, "fn": fn, "hyp_annotator": hyp_ids[choice // len(ref_ids)],
                "ref_annotator": ref_ids[choice % len(ref_ids)]}

    sentence_score = "f"

    def sentence_values(self, stats: ErrantStats, choice: int) -> dict[str, Any]:
        """The :meth:`sentence_fields` and the sentence's ``p``, ``r``, ``f`` of the chosen
        pair, by ERRANT's ``computeFScore`` (:func:`f_score`, rounded to 4 places)."""
        fields = self.sentence_fields(stats, choice)
        if self.sentence_score not in fields:  # SentERRANT's (and CLEME's) have their own
            fields.update(zip("prf", f_score(fields["tp"], fields["fp"], fields["fn"],
                                             self.beta)))
        return fields


def _same_source(hypothesis: Sequence[str], gold: tuple[str, ...]) -> None:
    """Refuse a hypothesis sentence whose source tokens are not the gold's.

    Raises:
        GecFormatError: they differ (no file, no sentence number: the caller adds them).
    """
    if tuple(hypothesis) != gold:
        raise GecFormatError("the hypothesis source differs from the gold's: "
                             + source_difference(hypothesis, gold))


def _first_types(edits: Iterable[RawEdit]) -> tuple[str, ...]:
    """The first type of each :func:`type_kind` among ``edits``, in order."""
    seen: dict[str, str] = {}
    for edit in edits:
        kind = type_kind(edit[2])
        if kind is not None and kind not in seen:
            seen[kind] = edit[2]
    return tuple(seen.values())


def _kinds(stats: Iterable[ErrantStats]) -> Kinds:
    """Per side, the first type of each kind over the corpus and its sentence number."""
    kinds: Kinds = ({}, {})
    for number, s in enumerate(stats, 1):
        for side, types in ((kinds[0], s[4]), (kinds[1], s[5])):
            for etype in types:
                kind = type_kind(etype)
                if kind is not None and kind not in side:
                    side[kind] = (etype, number)
    return kinds


def _fixed(candidates: Sequence[Candidate]) -> int:
    """The index of the candidate :func:`_choose` picks whatever the totals, or -1.

    A candidate with at least the TP and at most the FP and FN of every other gives the
    totals a P and an R at least as high (rounding keeps the order), so an F at least as
    high, and wins the ties on TP, FP, FN: the first such candidate is always chosen."""
    for k, (tp, fp, fn, _) in enumerate(candidates):
        if all(tp >= b[0] and fp <= b[1] and fn <= b[2] for b in candidates):
            return k
    return -1


def _choose(candidates: Sequence[Candidate], tp: int, fp: int, fn: int, beta: float) -> int:
    """ERRANT's ``evaluate_edits``: the index of the candidate kept for one sentence given
    the totals so far: the highest F (rounded to 4 places) of the totals with it, then the
    most TP, the fewest FP, the fewest FN; the first on a full tie."""
    best = 0
    best_tp = best_fp = best_fn = 0
    best_f = -1.0
    for k, (ctp, cfp, cfn, _) in enumerate(candidates):
        f = f_score(ctp + tp, cfp + fp, cfn + fn, beta)[2]
        if f > best_f or (f == best_f and (
                ctp > best_tp or (ctp == best_tp and (
                    cfp < best_fp or (cfp == best_fp and cfn < best_fn))))):
            best, best_tp, best_fp, best_fn, best_f = k, ctp, cfp, cfn, f
    return best


def compare(hypothesis: Iterable[Sentence], gold: Iterable[Sentence], *, mode: str = "cs",
            beta: float = 0.5, single: bool = False, multi: bool = False,
            filter: Collection[str] = (), names: tuple[str, str] = ("hypothesis", "gold"),
            extracted: bool = False) -> ErrantResult:
    """Score hypothesis sentences against gold sentences exactly as ``errant_compare`` does
    (through :class:`ErrantMetric`).

    Args:
        hypothesis, gold: the two M2 files' sentences (streamed in step).
        mode: one of :data:`MODES`.
        beta: β of F_β.
        single, multi, filter: ERRANT's ``-single``, ``-multi`` and ``-filt``.
        names: the two inputs' names for error messages.
        extracted: the hypothesis edits were extracted from text by gecformats (recorded
            in the signature as ``hyp:extracted-lcs``; an M2 hypothesis is ``hyp:m2``); their
            raw edits are taken from the model, never through M2 text (a token may hold
            ``|``).

    Returns:
        An :class:`ErrantResult`.

    Raises:
        GecFormatError: the files have different numbers of sentences, or a sentence's
            source differs between them (ERRANT would compare unrelated edits); ``cse`` on
            two sides whose types are not of one scheme (:meth:`ErrantResult.type_problem`).
        ValueError: an unknown mode, ``single`` with ``multi``, a β not finite and > 0.
    """
    metric = ErrantMetric(beta=beta, mode=mode, single=single, multi=multi, filter=filter,
                          cat=3)
    stats = []
    for count, (h, g) in enumerate(_pairs(hypothesis, gold, names), 1):
        prepared = metric.prepare(g)
        with _located(count, names[0]):
            if extracted:
                _same_source(h.source, prepared.source)
                stats.append(metric._stats(prepared, _model_edits(h), True))
            else:
                stats.append(metric.sentence(prepared, Hypothesis((), "", h)))
    return _result(metric, stats, names, extracted)


def _result(metric: ErrantMetric, stats: list[ErrantStats], names: tuple[str, str],
            extracted: bool) -> ErrantResult:
    """The :class:`ErrantResult` of ``stats`` (``metric`` has ``cat`` 3); refuses ``cse`` on
    types of two schemes."""
    totals = metric.corpus(stats)
    extracted = extracted or totals.extra["extracted"]
    result = ErrantResult(totals.counts["tp"], totals.counts["fp"], totals.counts["fn"],
                          metric.beta, metric.mode, len(stats), totals.extra["categories"],
                          metric.signature(extraction_name(metric.extractor) if extracted
                                           else "m2"), extracted,
                          totals.extra["kinds"])
    problem = result.type_problem()
    if problem is not None:
        raise GecFormatError(problem[0], names[problem[1]])
    return result


@contextmanager
def _located(count: int, name: str) -> Iterator[None]:
    """Give a :meth:`ErrantMetric.sentence` error without a file its sentence and file."""
    try:
        yield
    except GecFormatError as error:
        if error.file is not None:
            raise
        raise GecFormatError(f"sentence {count}: {error.message}", name, None,
                             error.kind) from None


def _model_edits(sentence: Sentence) -> list[RawEdit]:
    """The raw edits of a sentence made in memory (the extracted hypothesis): what
    :func:`raw_edits` reads from its M2 block, taken from the model (one correction, tokens
    joined by spaces, a deletion empty), so that no token can break an M2 line."""
    out: list[RawEdit] = []
    for annotator, edits in sentence.annotators.items():
        if not edits:
            out.append((-1, -1, "noop", "-NONE-", annotator))
        for e in edits:
            out.append((e.start, e.end, e.type, "||".join(" ".join(c) for c in e.corrections),
                        annotator))
    return out


def _pairs(hypothesis: Iterable[T], gold: Iterable[Sentence], names: tuple[str, str]
           ) -> Iterator[tuple[T, Sentence]]:
    hyp, ref = iter(hypothesis), iter(gold)
    count = 0
    while True:
        h, g = next(hyp, None), next(ref, None)
        if h is None or g is None:
            if h is not None or g is not None:
                longer = names[0] if h is not None else names[1]
                raise GecFormatError(f"{names[0]} and {names[1]} have different numbers of "
                                     f"sentences ({longer} has more than {count})", longer)
            return
        count += 1
        yield h, g


def format_errant(result: ErrantResult, cat: int | None = None) -> str:
    """Exactly what ``errant_compare`` prints for ``result`` (with ``-cat`` when ``cat`` is
    given), including its blank lines; ends with a newline."""
    beta = str(result.beta)
    title = TITLES[result.mode]
    lines: list[str] = []
    if cat:
        lines += ["", "{:=^66}".format(title),
                  " ".join(["Category".ljust(14), "TP".ljust(8), "FP".ljust(8), "FN".ljust(8),
                            "P".ljust(8), "R".ljust(8), "F" + beta])]
        for name, (tp, fp, fn) in sorted(result.categories_at(cat).items()):
            p, r, f = f_score(tp, fp, fn, result.beta)
            lines.append(" ".join([name.ljust(14), str(tp).ljust(8), str(fp).ljust(8),
                                   str(fn).ljust(8), str(p).ljust(8), str(r).ljust(8), str(f)]))
    lines += ["", "{:=^46}".format(title), "\t".join(["TP", "FP", "FN", "Prec", "Rec", "F" + beta]),
              "\t".join(map(str, [result.tp, result.fp, result.fn, *result.scores])),
              "{:=^46}".format(""), ""]
    return "\n".join(lines) + "\n"


def format_text(result: ErrantResult, cat: int | None = None) -> str:
    """For people: P, R, F, the counts, per-category rows with ``cat`` and the signature."""
    p, r, f = result.scores
    rows = [f"Precision  {p:.4f}", f"Recall     {r:.4f}", f"{'F' + format(result.beta, 'g'):<10} {f:.4f}",
            f"{result.tp} TP, {result.fp} FP, {result.fn} FN in {result.sentences} sentences"]
    if cat:
        rows.append(format_categories(result.categories_at(cat), result.beta))
    rows.append(result.signature)
    return "\n".join(rows)


def format_categories(cats: Mapping[str, tuple[int, int, int]], beta: float) -> str:
    """Per category TP, FP, FN and ERRANT's P, R, F: a table, categories in order."""
    width = max([8, *map(len, cats)])
    rows = [f"{'category':<{width}}  {'TP':>5}  {'FP':>5}  {'FN':>5}  {'P':>6}  {'R':>6}  {'F':>6}"]
    for name, (tp, fp, fn) in sorted(cats.items()):
        cp, cr, cf = f_score(tp, fp, fn, beta)
        rows.append(f"{name:<{width}}  {tp:>5}  {fp:>5}  {fn:>5}  {cp:6.4f}  {cr:6.4f}  {cf:6.4f}")
    return "\n".join(rows)


def extraction_warning(hypothesis: str, hyp: str = EXTRACTION) -> str:
    """The warning given with every score of a text hypothesis whose edits gecformats
    extracted (``hyp`` the signature's value: ``extracted-lcs`` or ``extracted-native``)."""
    if hyp == EXTRACTION:
        how = ("(hyp:extracted-lcs), not by ERRANT's, and the two differ (on CoNLL-2014 F0.5 "
               "up to 0.034 lower, the top two systems swapped)")
    else:
        how = (f"(hyp:{hyp}: ERRANT's rules on word classes guessed without spaCy), not by "
               "ERRANT itself, and the two can differ (on CoNLL-2014 about 2 % of the "
               "reference sentences get other edits)")
    return (f"{hypothesis}: plain text, whose edits were extracted by gecformats' own "
            f"aligner {how}; for ERRANT's own edits and types add --extractor errant "
            f"({install_hint('errant')})")


def errant_files(hypothesis: str, gold: str, **options: Any) -> ErrantResult:
    """:func:`compare` on files: the gold M2 file and a hypothesis that is either an M2
    file (recognised by its first line) or plain text, one tokenized sentence per line,
    whose edits are then extracted against the gold's source tokens by
    :func:`gecformats.convert.extract.align_edits`, gecformats' own aligner, which differs
    from ERRANT's (:func:`extraction_warning`; the signature says ``hyp:extracted-lcs``).
    The extracted edits carry the operation only (``R``, ``M``, ``U``): ``cse`` against a
    gold typed otherwise is refused, ``--cat 2`` and ``3`` by
    :meth:`ErrantResult.type_problem`.

    Args:
        hypothesis, gold: paths (``.gz`` read transparently; the hypothesis may be ``-``).
        options: as for :func:`compare` (``mode``, ``beta``, ``single``, ``multi``,
            ``filter``).

    Raises:
        GecFormatError: malformed or misaligned input (see :func:`compare`).
        OSError: a file cannot be read.
    """
    from maxmatch import split_hypothesis

    from gecformats import formats
    from gecformats.formats import m2
    from gecformats.metrics.score import read_hypothesis

    names = (hypothesis, gold)
    if formats._sniff(hypothesis) == "m2":
        return compare(m2.read(hypothesis), m2.read(gold), names=names, **options)
    metric = ErrantMetric(cat=3, **options)
    stats = []
    for count, ((_, line), g) in enumerate(_pairs(read_hypothesis(hypothesis), m2.read(gold),
                                                  names), 1):
        with _located(count, hypothesis):
            stats.append(metric.sentence(metric.prepare(g),
                                         Hypothesis(tuple(split_hypothesis(line)), line)))
    return _result(metric, stats, names, True)


def _greedy_candidates(stats: Sequence[ErrantStats]) -> list[tuple[tuple[int, int, int], ...]]:
    """Per sentence, the ``(tp, fp, fn)`` of its candidates (the fixed one alone where one
    is chosen whatever the totals)."""
    out = []
    for candidates, fixed, *_ in stats:
        if fixed >= 0:
            out.append((tuple(candidates[fixed][:3]),))
        else:
            out.append(tuple(tuple(c[:3]) for c in candidates))
    return out


class _ErrantParses:
    """ERRANT's edits of a chunk's text hypotheses (see :func:`_errant_parses`)."""

    def __init__(self, texts: list[str], found: dict[tuple[str, str], Sequence[Any]]) -> None:
        self.texts, self.found = texts, found

    def edits(self, i: int, tokens: Sequence[str]) -> list[RawEdit]:
        """What :func:`_errant_edits` gives for sentence ``i`` and ``tokens``."""
        cor_text = " ".join(tokens)
        if self.texts[i] == cor_text:
            return [(-1, -1, "noop", "-NONE-", 0)]
        return [(*e, 0) for e in self.found[self.texts[i], " ".join(cor_text.split())]]


def _source_text(source: Sequence[str]) -> str:
    """The text ERRANT compares a hypothesis with: the source's tokens as spaCy's ``Doc``
    of ``" ".join(source).split()`` has them, joined by spaces."""
    return " ".join(" ".join(source).split())


def _errant_parses(prepared: Sequence[ErrantGold], hypotheses: Sequence[Sequence[Hypothesis]],
                   model: str | None) -> _ErrantParses:
    """ERRANT's edits of every text hypothesis of a chunk that differs from its source,
    through the process's :func:`~gecformats.convert.errant_extract.extraction`: each
    distinct (source, hypothesis) pair once, whatever the number of systems (and metrics)
    that gave it, its texts parsed in spaCy batches, each source once per run."""
    from gecformats.convert.errant_extract import extraction

    texts = [_source_text(p.source) for p in prepared]
    pairs: dict[tuple[str, str], None] = {}
    for text, hyps in zip(texts, hypotheses):
        for hyp in hyps:
            cor_text = " ".join(hyp.tokens)
            if hyp.sentence is None and cor_text != text:
                pairs[text, " ".join(cor_text.split())] = None
    return _ErrantParses(texts, dict(zip(pairs, extraction(model).edits(pairs))))


def _errant_edits(source: Sequence[str], tokens: Sequence[str], model: str | None
                  ) -> list[RawEdit]:
    """ERRANT's own edits of a hypothesis (annotator 0, typed), as ``errant_parallel``
    extracts them from the source and the hypothesis tokens (a ``noop`` when they are
    equal): :mod:`gecformats.convert.errant_extract`."""
    return _errant_parses([ErrantGold(tuple(source), {}, ())],
                          [[Hypothesis(tuple(tokens), "")]], model).edits(0, tokens)

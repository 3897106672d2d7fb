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

:func:`compare` returns the counts, :func:`format_errant` prints what ``errant_compare``
prints, byte for byte.

>>> from gecformats.formats import m2
>>> ref = m2.parse("S He go to school .\\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\\n")
>>> hyp = m2.parse("S He go to school .\\nA 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0\\n")
>>> r = compare(hyp, ref)
>>> (r.tp, r.fp, r.fn), compare(hyp, ref, mode="ds").tp
((0, 1, 1), 1)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gecformats import __version__
from gecformats.errors import GecFormatError, source_difference
from gecformats.formats.m2 import format_sentence
from gecformats.model import Sentence

MODES = ("cs", "cse", "ds", "dt")
"""``cs`` span-based correction (the default), ``cse`` span-based correction with the type,
``ds`` span-based detection, ``dt`` token-based detection."""

TITLES = {"dt": " Token-Based Detection ", "ds": " Span-Based Detection ",
          "cse": " Span-Based Correction + Classification ", "cs": " Span-Based Correction "}

RawEdit = tuple[int, int, str, str, int]
"""An edit as ERRANT reads an M2 line: ``(start, end, type, correction field, annotator)``."""


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
        if level not in (1, 2, 3):
            raise ValueError(f"the category level is 1, 2 or 3, not {level}")
        if level == 3:
            return dict(self.categories)
        out: dict[str, tuple[int, int, int]] = {}
        for cat, counts in self.categories.items():
            key = cat if cat == "UNK" else cat[0] if level == 1 else cat[2:]
            prev = out.get(key, (0, 0, 0))
            out[key] = (prev[0] + counts[0], prev[1] + counts[1], prev[2] + counts[2])
        return out

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


def f_score(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """ERRANT's ``computeFScore``: P, R, F_β rounded to 4 places (P = 1.0 when FP = 0, R =
    1.0 when FN = 0, F = 0.0 when P + R = 0)."""
    p = float(tp) / (tp + fp) if fp else 1.0
    r = float(tp) / (tp + fn) if fn else 1.0
    f = float((1 + (beta ** 2)) * p * r) / (((beta ** 2) * p) + r) if p + r else 0.0
    return round(p, 4), round(r, 4), round(f, 4)


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


def compare(hypothesis: Iterable[Sentence], gold: Iterable[Sentence], *, mode: str = "cs",
            beta: float = 0.5, single: bool = False, multi: bool = False,
            filter: Collection[str] = (), names: tuple[str, str] = ("hypothesis", "gold"),
            extracted: bool = False) -> ErrantResult:
    """Score hypothesis sentences against gold sentences exactly as ``errant_compare`` does.

    Args:
        hypothesis, gold: the two M2 files' sentences (streamed in step).
        mode: one of :data:`MODES`.
        beta: β of F_β.
        single, multi, filter: ERRANT's ``-single``, ``-multi`` and ``-filt``.
        names: the two inputs' names for error messages.
        extracted: the hypothesis edits were extracted from text by gecformats (recorded
            in the signature).

    Returns:
        An :class:`ErrantResult`.

    Raises:
        GecFormatError: the files have different numbers of sentences, or a sentence's
            source differs between them (ERRANT would compare unrelated edits).
        ValueError: an unknown mode.
    """
    if mode not in MODES:
        raise ValueError(f"unknown ERRANT mode {mode!r} (known: {', '.join(MODES)})")
    totals = [0, 0, 0]
    categories: dict[str, tuple[int, int, int]] = {}
    count = 0
    options = dict(single=single, multi=multi, filter=frozenset(filter))
    for count, (h, g) in enumerate(_pairs(hypothesis, gold, names), 1):
        if h.source != g.source:
            raise GecFormatError(f"sentence {count}: the hypothesis source differs from the "
                                 f"gold's: {source_difference(h.source, g.source)}", names[0])
        hyp = process(raw_edits(h), mode, **options)  # type: ignore[arg-type]
        ref = process(raw_edits(g), mode, **options)  # type: ignore[arg-type]
        best = _best_pair(hyp, ref, totals, beta)
        for k in range(3):
            totals[k] += best[k]
        for cat, c in best[3].items():
            prev = categories.get(cat, (0, 0, 0))
            categories[cat] = (prev[0] + c[0], prev[1] + c[1], prev[2] + c[2])
    filters = "".join(["|single" * single, "|multi" * multi]
                      + ([f"|filter:{','.join(sorted(filter))}"] if filter else []))
    signature = (f"metric:errant|mode:{mode}|beta:{beta:g}{filters}"
                 f"|hyp:{'extracted' if extracted else 'm2'}|gecformats:{__version__}")
    return ErrantResult(totals[0], totals[1], totals[2], beta, mode, count, categories,
                        signature)


def _pairs(hypothesis: Iterable[Sentence], gold: Iterable[Sentence], names: tuple[str, str]
           ) -> Iterator[tuple[Sentence, Sentence]]:
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


def _best_pair(hyp: Keyed, ref: Keyed, totals: list[int], beta: float
               ) -> tuple[int, int, int, dict[str, list[int]]]:
    """ERRANT's ``evaluate_edits``: the hypothesis/reference annotator pair kept for one
    sentence (its tie rules, on F rounded to 4 places)."""
    best_tp = best_fp = best_fn = 0
    best_f = -1.0
    best_cat: dict[str, list[int]] = {}
    for h in hyp.values():
        for r in ref.values():
            tp, fp, fn, cats = compare_keys(h, r)
            f = f_score(tp + totals[0], fp + totals[1], fn + totals[2], beta)[2]
            if (f > best_f or (f == best_f and tp > best_tp)
                    or (f == best_f and tp == best_tp and fp < best_fp)
                    or (f == best_f and tp == best_tp and fp == best_fp and fn < best_fn)):
                best_tp, best_fp, best_fn, best_f, best_cat = tp, fp, fn, f, cats
    return best_tp, best_fp, best_fn, best_cat


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
        cats = result.categories_at(cat)
        width = max([8, *map(len, cats)])
        rows.append(f"{'category':<{width}}  {'TP':>5}  {'FP':>5}  {'FN':>5}  {'P':>6}  {'R':>6}  {'F':>6}")
        for name, (tp, fp, fn) in sorted(cats.items()):
            cp, cr, cf = f_score(tp, fp, fn, result.beta)
            rows.append(f"{name:<{width}}  {tp:>5}  {fp:>5}  {fn:>5}  {cp:6.4f}  {cr:6.4f}  {cf:6.4f}")
    rows.append(result.signature)
    return "\n".join(rows)


def errant_files(hypothesis: str, gold: str, **options: Any) -> ErrantResult:
    """:func:`compare` on files: the gold M2 file and a hypothesis that is either an M2
    file (recognised by its first line) or plain text, one tokenized sentence per line,
    whose edits are then extracted against the gold's source tokens by
    :func:`gecformats.convert.extract.align_edits` (types ``R``/``M``/``U``: only the
    operation tier is meaningful, and the signature says ``hyp:extracted``).

    Args:
        hypothesis, gold: paths (``.gz`` read transparently; the hypothesis may be ``-``).
        options: as for :func:`compare` (``mode``, ``beta``, ``single``, ``multi``,
            ``filter``).

    Raises:
        GecFormatError: malformed or misaligned input (see :func:`compare`).
        OSError: a file cannot be read.
    """
    from gecformats import formats
    from gecformats.formats import m2

    names = (hypothesis, gold)
    if formats._sniff(hypothesis) == "m2":
        return compare(m2.read(hypothesis), m2.read(gold), names=names, **options)
    return compare(_extracted(hypothesis, m2.read(gold)), m2.read(gold), names=names,
                   extracted=True, **options)


def _extracted(hypothesis: str, gold: Iterable[Sentence]) -> Iterator[Sentence]:
    """Each hypothesis line as a sentence of the gold's source with the edits that turn it
    into the line (annotator 0)."""
    from maxmatch import split_hypothesis

    from gecformats.convert.extract import align_edits
    from gecformats.metrics.score import read_hypothesis

    lines = read_hypothesis(hypothesis)
    for sentence in gold:
        line = next(lines, None)
        if line is None:
            return  # compare reports the shorter input
        edits = align_edits(sentence.source, split_hypothesis(line[1]))
        yield Sentence(sentence.source, {0: edits})
    for _ in lines:  # one more line than the gold has sentences
        yield Sentence(("",), {})

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

import re
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

ERRANT_TYPE = re.compile(r"[MRU]:[A-Z]+(?::[A-Z]+)*")
"""ERRANT's edit types: ``OP:CAT`` (``M:DET``, ``R:VERB:SVA``, ``R:WO``); ``UNK`` and
``noop`` are ERRANT's too and say nothing of the scheme."""

EXTRACTION = "extracted-lcs"
"""The signature's ``hyp:`` value of a text hypothesis whose edits gecformats extracted
(:func:`gecformats.convert.extract.align_edits`, a longest-common-subsequence aligner)."""


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
    kinds: tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]] = field(
        default_factory=lambda: ({}, {}))
    """Per side (hypothesis, gold): the first type of each :func:`type_kind` (``errant``,
    ``operation``, ``other``) and the sentence it is in."""

    def scheme(self, side: int) -> str | None:
        """The type scheme of a side (0 the hypothesis, 1 the gold): ``other`` when any type
        is not ERRANT's, else ``operation`` when any is a bare ``R``/``M``/``U`` (and for an
        extracted hypothesis), else ``errant``; ``None`` for a side without typed edits."""
        if side == 0 and self.extracted:
            return "operation"
        kinds = self.kinds[side]
        return next((k for k in ("other", "operation", "errant") if k in kinds), None)

    def type_problem(self, cat: int | None = None) -> tuple[str, int] | None:
        """Why the types make ``--mode cse`` (this result's mode) or ``--cat cat`` meaningless
        (one sentence) and the side to blame (0 the hypothesis, 1 the gold), or ``None``.

        ``cse`` and ``--cat 3`` need both sides typed by one scheme (:meth:`scheme`);
        ``--cat 1`` (the operation, the letter before ``:``) needs no ``other`` types,
        ``--cat 2`` (what follows it) ERRANT's ``OP:CAT`` types on both sides."""
        if cat is None and self.mode != "cse":
            return None
        schemes = (self.scheme(0), self.scheme(1))
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
            example = self.kinds[blamed]["other"][0]
            why = (f"--cat 1 groups the types by ERRANT's operation, the letter before ':' "
                   f"({example!r} would be filed under {example[0]!r})")
        elif cat == 2:
            why = "--cat 2 groups the types by ERRANT's category, what follows 'OP:'"
        else:
            other = 1 - blamed
            why = (("--mode cse compares" if cat is None else "--cat 3 lists")
                   + f" the types of both sides, and {self._describe(other)}")
        fix = ("use a gold typed by ERRANT (errant_m2 -gold)" if blamed else
               "type the hypothesis' edits with ERRANT (errant_parallel -orig SOURCE -cor HYP "
               "-out HYP.m2)")
        instead = ("--mode cs" if cat is None else
                   "--cat 1" if cat != 1 and "other" not in schemes else "leave out --cat")
        return f"{why}, but {self._describe(blamed)}; {fix}, or {instead}", blamed

    def _describe(self, side: int) -> str:
        """``the gold's types are ERRANT's ('R:NOUN' in sentence 2)`` and the like."""
        whose = ("the hypothesis'", "the gold's")[side]
        scheme = self.scheme(side)
        if side == 0 and self.extracted:
            return ("the hypothesis' edits were extracted from text by gecformats and carry "
                    "only the operation (R, M, U)")
        example, number = self.kinds[side][scheme]  # type: ignore[index]
        where = f"{example!r} in sentence {number}"
        if scheme == "errant":
            return f"{whose} types are ERRANT's ({where})"
        if scheme == "operation":
            return f"{whose} types are operations only ({where})"
        return f"{whose} types are not ERRANT's ({where}; ERRANT's look like 'R:VERB:SVA')"
        hyp, gold = self.kinds
        what = f"--cat {cat}" if cat else "--mode cse"
        instead = "--mode cs" if cat is None else "leave out --cat"
        if "other" in gold and (cat in (1, 2) or "errant" in hyp or self.extracted):
            example, number = gold["other"]
            if cat in (1, 2):
                why = (f"groups ERRANT's OP:CAT types by their {'operation' if cat == 1 else 'category'}"
                       + (f" ({example!r} would be filed under {example[0]!r})" if cat == 1 else ""))
            else:
                verb = "compares the two sides' types" if cat is None else "lists every type as written"
                ex, at = hyp.get("errant", ("R", 0))
                theirs = ("R, M, U (extracted)" if self.extracted
                          else f"ERRANT's ({ex!r} in sentence {at})")
                why = (f"{verb}, and the hypothesis' are {theirs}: "
                       + ("none can match" if cat is None else "the rows would mix two schemes"))
            return (f"{what} {why}, but the gold's types are not ERRANT's ({example!r} in "
                    f"sentence {number}; ERRANT's look like 'R:VERB:SVA'); use a gold typed "
                    f"by ERRANT (errant_m2 -gold), or {instead}", 1)
        if self.extracted and cat != 1:
            return (f"{what} needs the hypothesis' edit types, but its edits were extracted "
                    "from text by gecformats and carry only the operation (R, M, U); run "
                    "ERRANT's errant_parallel on the text and score its M2 file, or use "
                    + ("--mode cs" if cat is None else "--cat 1"), 0)
        if "other" in hyp and (cat in (1, 2) or "errant" in gold):
            example, number = hyp["other"]
            return (f"{what} needs ERRANT's types on both sides, but the hypothesis' are not "
                    f"ERRANT's ({example!r} in sentence {number}; ERRANT's look like "
                    f"'R:VERB:SVA'); type its edits with ERRANT (errant_parallel), or {instead}", 0)
        return None

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
            in the signature as ``hyp:extracted-lcs``; an M2 hypothesis is ``hyp:m2``); their
            raw edits are taken from the model, never through M2 text (a token may hold
            ``|``).

    Returns:
        An :class:`ErrantResult`.

    Raises:
        GecFormatError: the files have different numbers of sentences, or a sentence's
            source differs between them (ERRANT would compare unrelated edits); ``cse`` on
            two sides whose types are not of one scheme (:meth:`ErrantResult.type_problem`).
        ValueError: an unknown mode.
    """
    if mode not in MODES:
        raise ValueError(f"unknown ERRANT mode {mode!r} (known: {', '.join(MODES)})")
    totals = [0, 0, 0]
    categories: dict[str, tuple[int, int, int]] = {}
    count = 0
    options = dict(single=single, multi=multi, filter=frozenset(filter))
    kinds: tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]] = ({}, {})
    for count, (h, g) in enumerate(_pairs(hypothesis, gold, names), 1):
        if h.source != g.source:
            raise GecFormatError(f"sentence {count}: the hypothesis source differs from the "
                                 f"gold's: {source_difference(h.source, g.source)}", names[0])
        h_edits = _model_edits(h) if extracted else raw_edits(h)
        g_edits = raw_edits(g)
        for side, edits in ((kinds[0], () if extracted else h_edits), (kinds[1], g_edits)):
            for edit in edits:
                kind = type_kind(edit[2])
                if kind is not None and kind not in side:
                    side[kind] = (edit[2], count)
        hyp = process(h_edits, mode, **options)  # type: ignore[arg-type]
        ref = process(g_edits, mode, **options)  # type: ignore[arg-type]
        best = _best_pair(hyp, ref, totals, beta)
        for k in range(3):
            totals[k] += best[k]
        for cat, c in best[3].items():
            prev = categories.get(cat, (0, 0, 0))
            categories[cat] = (prev[0] + c[0], prev[1] + c[1], prev[2] + c[2])
    filters = "".join(["|single" * single, "|multi" * multi]
                      + ([f"|filter:{','.join(sorted(filter))}"] if filter else []))
    signature = (f"metric:errant|mode:{mode}|beta:{beta:g}{filters}"
                 f"|hyp:{EXTRACTION if extracted else 'm2'}|gecformats:{__version__}")
    result = ErrantResult(totals[0], totals[1], totals[2], beta, mode, count, categories,
                          signature, extracted, kinds)
    problem = result.type_problem()
    if problem is not None:
        raise GecFormatError(problem[0], names[problem[1]])
    return result


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


def extraction_warning(hypothesis: str) -> str:
    """The warning given with every score of a text hypothesis (``hyp:extracted-lcs``)."""
    return (f"{hypothesis}: plain text: its edits were extracted by gecformats' own aligner "
            "(hyp:extracted-lcs), not by ERRANT's, and the two differ (on CoNLL-2014 F0.5 up "
            "to 0.034 lower, the top two systems swapped); for ERRANT's own edits run "
            "`errant_parallel -orig SOURCE -cor HYP -out HYP.m2` and score HYP.m2")


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

"""GoToScorer (Gotou et al. 2020): edits weighted by how hard they are for N systems.

The gold annotator's edits, every other source token alone, and an empty insertion slot
between them make the **chunks** of a sentence; each system's output is chunked the same
way and judged chunk by chunk against the gold: correct or not, modified or not.  A chunk's
weight is ``1 − n/N``, ``n`` of the ``N`` weighting systems judged correct on it (easy chunks
weigh little).  A scored system then sums the weights of its chunks as TP (modified,
correct), FP (modified, wrong; also FN when the gold changed the chunk), TN (untouched,
correct) and FN (untouched, wrong), and gets P, R and F0.5 of those sums.

Two originals, both reproduced bit for bit (``version``):

* ``gts``: the official code, gotutiyan/GTS @5d120c3 (``gotoscorer.py`` with
  ``scripts/chunker.py``, ``alignmenter.py``, ``w_file.py``, ``infobox.py``): weighted by
  default; P = 0 when TP + FP = 0 and R = 0 when TP + FN = 0; the sums run chunk by chunk
  over the corpus.
* ``gec-metrics``: the port in gotutiyan/gec-metrics @320c830 (``metrics/gotoscorer.py`` and
  ``cli/gen_gotoscorer_weight.py``): unweighted by default; its own chunker and judgement;
  P = 1 when FP = 0 and R = 1 when FN = 0; a sentence's sums are made per error type first.
  Its weight generator compares a reference chunk's span with itself, so a chunk counts as
  corrected by a system whose output has a chunk with the same string *anywhere*;
  ``gec-metrics-intended`` compares spans as intended.

A metric of the scoring pipeline: :meth:`GoToScorerMetric.sentence` judges each gold chunk
(codes, no weight: the weights need every system), :meth:`GoToScorerMetric.complete` (called
by the pipeline with every system's statistics) computes or reads the weights and attaches
them, then :meth:`GoToScorerMetric.corpus` sums.  The weights are fixed before any resample.

>>> from gecformats.model import Edit, Sentence
>>> gold = Sentence(("a", "cat", "sit"), {0: (Edit(2, 3, (("sat",),), "R:VERB"),)})
>>> m = GoToScorerMetric()
>>> prepared = m.prepare(gold)
>>> [c[:3] for c in prepared.chunks]
[(0, 0, ''), (0, 1, 'a'), (1, 1, ''), (1, 2, 'cat'), (2, 2, ''), (2, 3, 'sat'), (3, 3, '')]
>>> stats = [[m.sentence(prepared, Hypothesis(("a", "cat", "sat"), "a cat sat"))],
...          [m.sentence(prepared, Hypothesis(("a", "cat", "sit"), "a cat sit"))]]
>>> done = m.complete(stats)
>>> [m.corpus(s).values[2] for s in done]  # the chunk one of two systems corrected: w = 0.5
[1.0, 0.0]
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import reduce
from itertools import chain, compress, repeat
from operator import add
from typing import Any, ClassVar, NamedTuple

from gecformats import __version__
from gecformats.errors import GecFormatError, UsageError
from gecformats.io import json_text
from gecformats.metrics.base import Hypothesis, Metric, SystemFailure, Totals
from gecformats.model import Sentence

CODES = {"gts": "5d120c3", "gec-metrics": "320c830", "gec-metrics-intended": "320c830"}
"""Each version and the commit of its original (gotutiyan/GTS, gotutiyan/gec-metrics)."""
VERSIONS = tuple(CODES)
WEIGHTINGS = ("weighted", "none")

Chunk = tuple[int, int, str, bool, str]
"""``(start, end, text, modified, type)``: a source span, its (corrected) text, whether an
edit made it, and the edit's type (``DUMMY:DUMMY`` for the others, as gec-metrics)."""

DUMMY = "DUMMY:DUMMY"

# bits of a chunk's code
CORRECT, MODIFIED, GENERATOR, GOLD = 1, 2, 4, 8
"""A chunk's judgement: the system got it right; the system modified (GTS) or tried to edit
it (gec-metrics); gec-metrics' weight generator counts it corrected; the gold edited it."""


def sentence_edits(sentence: Sentence, annotator: int) -> list[tuple[int, int, str, str]]:
    """One annotator's edits ``(start, end, type, correction)`` in file order, the
    correction as its M2 field reads (a deletion empty, or ``-NONE-`` where the file spelled
    it so; alternatives joined by ``||``), as both originals take them."""
    from gecformats.formats.m2 import DELETION_META, NONE

    out = []
    for e in sentence.annotators.get(annotator, ()):
        if len(e.corrections) == 1:
            c = e.corrections[0]
            text = " ".join(c) if c else (NONE if DELETION_META in e.meta else "")
        else:
            text = "||".join(" ".join(c) if c else NONE for c in e.corrections)
        out.append((e.start, e.end, e.type, text))
    return out


def gts_chunks(tokens: Sequence[str], edits: Sequence[tuple[int, int, str, str]]) -> list[Chunk]:
    """GTS's ``generate_chunk_from_m2`` for one sentence: ``edits`` ``(start, end, type,
    correction)`` in file order (``noop``, ``UNK`` and ``Um`` left out), every token outside
    them alone, then an empty insertion chunk before every chunk that is no insertion and
    does not follow one, and one at the end unless the last chunk is an insertion."""
    basic: list[Chunk] = []
    idx = 0
    for start, end, etype, cor in edits:
        if etype in ("noop", "UNK", "Um"):
            continue
        for i in range(idx, start):
            basic.append((i, i + 1, " ".join(tokens[i:i + 1]), False, DUMMY))
        basic.append((start, end, cor, True, etype))
        idx = end
    for i in range(idx, len(tokens)):
        basic.append((i, i + 1, " ".join(tokens[i:i + 1]), False, DUMMY))
    out: list[Chunk] = []
    for i, chunk in enumerate(basic):
        if chunk[0] != chunk[1] and not (i > 0 and basic[i - 1][0] == basic[i - 1][1]):
            out.append((chunk[0], chunk[0], "", False, DUMMY))
        out.append(chunk)
    if not basic or basic[-1][0] != basic[-1][1]:
        out.append((len(tokens), len(tokens), "", False, DUMMY))
    return out


def gecm_chunks(tokens: Sequence[str], edits: Sequence[tuple[int, int, str, str]]) -> list[Chunk]:
    """gec-metrics' ``GoToScorer.generate_chunks``: walking the tokens, an edit that starts at
    the current token becomes a chunk (an edit that starts elsewhere stops the edits), the
    other tokens one each, an insertion at the very end only if it is the last edit; then
    the empty insertion chunks as :func:`gts_chunks`.  ``noop`` and ``UNK`` are left out."""
    kept = [e for e in edits if e[2] not in ("noop", "UNK")]
    chunks: list[Chunk] = []
    k = word = 0
    while word < len(tokens):
        if k < len(kept) and kept[k][0] == word:
            start, end, etype, cor = kept[k]
            chunks.append((start, end, cor, True, etype))
            k += 1
            word = end - 1
        else:
            chunks.append((word, word + 1, tokens[word], False, DUMMY))
        word += 1
    if kept and kept[-1][0] == len(tokens):
        start, end, etype, cor = kept[-1]
        chunks.append((start, end, cor, True, etype))
    out: list[Chunk] = []
    previous_insertion = False
    for chunk in chunks:
        if chunk[0] == chunk[1]:
            previous_insertion = True
            out.append(chunk)
            continue
        if not previous_insertion:
            out.append((chunk[0], chunk[0], "", False, DUMMY))
        out.append(chunk)
        previous_insertion = False
    if not previous_insertion:
        end = chunks[-1][1]
        out.append((end, end, "", False, DUMMY))
    return out


class _Index:
    """A system's chunks indexed for the judgements: the first chunk of each span and text,
    and of each span; every text (built when first needed)."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = chunks
        self.exact: dict[tuple[int, int, str], bool] = {}
        self.first: dict[tuple[int, int], Chunk] = {}
        for c in chunks:
            self.exact.setdefault((c[0], c[1], c[2]), c[3])
            self.first.setdefault((c[0], c[1]), c)
        self._texts: set[str] | None = None

    @property
    def texts(self) -> set[str]:
        """Every chunk's text."""
        if self._texts is None:
            self._texts = {c[2] for c in self.chunks}
        return self._texts

    def near(self, start: int, end: int) -> list[Chunk]:
        """The chunks with the span ``(start, end)`` for an insertion span; for another,
        those that start in ``[start, end)`` or start before ``start`` and end after it (the
        overlap test both originals use)."""
        if start == end:
            return [c for c in self.chunks if c[0] == start and c[1] == end]
        return [c for c in self.chunks if start <= c[0] < end or c[0] <= start < c[1]]


def gts_judge(gold: Sequence[Chunk], system: Sequence[Chunk]) -> bytes:
    """GTS's ``alignmenter.update_evaluation``: per gold chunk, the code of one system (bits
    :data:`CORRECT`, :data:`MODIFIED`, :data:`GOLD`).  A system chunk with the gold chunk's
    span and text makes it correct (modified as the first such chunk); else the overlapping
    chunks (same span, or, for a gold chunk that is no insertion, overlapping) make it
    wrong, modified if any of them is; with none, it is correct iff the gold left it
    unchanged."""
    index = _Index(system)
    exact = index.exact
    out = bytearray()
    for start, end, text, modified, _ in gold:
        code = GOLD if modified else 0
        hit = exact.get((start, end, text))
        if hit is not None:
            code |= CORRECT | (MODIFIED if hit else 0)
        else:
            near = index.near(start, end)
            if near:
                code |= MODIFIED if any(c[3] for c in near) else 0
            elif not modified:
                code |= CORRECT
        out.append(code)
    return bytes(out)


def gecm_judge(reference: Sequence[Chunk], hypothesis: Sequence[Chunk], intended: bool
               ) -> bytes:
    """gec-metrics' ``GoToScorer.annotate`` per reference chunk (:data:`CORRECT`,
    :data:`MODIFIED` = tried to edit, :data:`GOLD`) and its weight generator's judgement
    (:data:`GENERATOR`: a hypothesis chunk with the same string anywhere; ``intended``: with
    the same span and string).  The first hypothesis chunk with the reference chunk's span
    decides both; without one, an insertion chunk is correct and untried, another chunk is
    wrong and tried iff an overlapping hypothesis chunk is an edit."""
    index = _Index(hypothesis)
    exact = index.exact
    out = bytearray()
    for start, end, text, modified, _ in reference:
        code = GOLD if modified else 0
        found = (start, end, text) in exact
        first = index.first.get((start, end))
        if first is not None:
            code |= (CORRECT if first[2] == text else 0) | (MODIFIED if first[3] else 0)
        elif start == end:
            code |= CORRECT if hypothesis else 0
        elif any(c[3] for c in index.near(start, end)):
            code |= MODIFIED
        if found if intended else (text in index.texts):
            code |= GENERATOR
        out.append(code)
    return bytes(out)


OTHERS_ONLY = 1
"""A gold sentence that lists other annotators but not annotator ``ref`` (the CoNLL-2014
combined M2 leaves annotator 1 out where its edits equal annotator 0's): scored as if ``ref``
made no edit, as the originals do, and noted in a warning (the number can mislead)."""
NO_A_LINE = 2
"""A gold sentence with no annotator at all (no ``A`` line: nobody edits it; 136 of the
CoNLL-2014 combined M2): scored with no gold edit, which is what it means, so not noted."""


class GoldChunks(NamedTuple):
    """What :meth:`GoToScorerMetric.prepare` makes of a gold sentence: its source tokens
    (``source``, for the extraction of text hypotheses), the tokens the original splits
    (``tokens``), the gold annotator's chunks and each chunk's type group (the order of
    first appearance of its type; gec-metrics sums per type first)."""

    source: tuple[str, ...]
    tokens: tuple[str, ...]
    chunks: tuple[Chunk, ...]
    groups: tuple[int, ...]
    untouched: bytes
    """The codes of a hypothesis without edits (the commonest)."""
    absent: int = 0
    """0: the gold sentence has annotator ``ref``; else why not (:data:`OTHERS_ONLY`,
    :data:`NO_A_LINE`)."""


class GotoStats(NamedTuple):
    """One system's statistics of one sentence: a code per gold chunk (bits
    :data:`CORRECT`, :data:`MODIFIED`, :data:`GENERATOR`, :data:`GOLD`), the chunks' weights
    (``None``: unweighted, every chunk 1; attached by :meth:`GoToScorerMetric.complete`),
    the chunks' type groups (gec-metrics versions), and how the hypothesis' edits were had
    (``False``: an M2 hypothesis' own; ``True``: extracted by gecformats' ``--extractor``;
    ``"errant"``: by ERRANT), for the signature's ``hyp:``."""

    codes: bytes
    weights: tuple[float, ...] | None
    groups: tuple[int, ...] | None
    extracted: bool | str = False
    absent: int = 0
    """0, or why the gold sentence has no annotator ``ref`` (:data:`OTHERS_ONLY`,
    :data:`NO_A_LINE`; scored as if it made no edit, as the originals do; counted for the
    warning)."""


@dataclass
class Weights:
    """Chunk weights of a corpus: per sentence, per gold chunk, ``n`` of ``systems``
    weighting systems judged correct (``correct``; the GTS weight file's numbers), each
    system's judgement (``evaluations[sentence][chunk][system]``, 0/1; gec-metrics' JSON
    file) when known, and the weights themselves (``1 − n/N``; or as a gec-metrics file
    gives them).  ``origin``: the signature's ``weights:`` value."""

    systems: int
    correct: list[tuple[int, ...]]
    weights: list[tuple[float, ...]]
    evaluations: list[list[list[int]]] | None = None
    origin: str = "scored"


def weight_of(correct: int, systems: int) -> float:
    """GTS's ``weight_f`` with its default ``a = 1, b = 0, c = 0``: ``1 − n/N`` (gec-metrics'
    generator computes the same ``1 − sum/len``)."""
    return 1 - correct / systems


def read_weights(path: str) -> Weights:
    """A weight file: GTS's (``-gen_w_file``: the number of systems, then per sentence the
    number of systems correct on each gold chunk) or gec-metrics' JSON (a list of
    ``{"evaluations": …, "weights": …}`` per sentence); gzip-compressed or not.

    Raises:
        GecFormatError: a malformed file (named, with the line for GTS's format).
        OSError: it cannot be read.
    """
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8")
    name = os.path.basename(path)
    if text.lstrip()[:1] == "[":
        try:
            items = json.loads(text)
            evaluations = [[list(map(int, e)) for e in d["evaluations"]] for d in items]
            weights = [tuple(float(w) for w in d["weights"]) for d in items]
        except (ValueError, KeyError, TypeError) as exc:
            raise GecFormatError(f"not a gec-metrics GoToScorer weight file ({exc})",
                                 path) from None
        systems = max((len(e) for sent in evaluations for e in sent), default=0)
        correct = [tuple(sum(e) for e in sent) for sent in evaluations]
        return Weights(systems, correct, weights, evaluations, f"file:{name}")
    lines = text.rstrip().split("\n")
    try:
        systems = int(lines[0])
    except ValueError:
        raise GecFormatError("the first line of a GTS weight file is the number of systems",
                             path, 1) from None
    if systems < 1:
        raise GecFormatError(f"{systems} systems: a weight file needs one or more", path, 1)
    correct = []
    for number, line in enumerate(lines[1:], 2):
        try:
            counts = tuple(int(x) for x in line.rstrip().split(" "))
        except ValueError:
            raise GecFormatError("a GTS weight line is numbers separated by spaces", path,
                                 number) from None
        if any(not 0 <= c <= systems for c in counts):
            raise GecFormatError(f"a count outside 0..{systems}", path, number)
        correct.append(counts)
    weights = [tuple(weight_of(c, systems) for c in sent) for sent in correct]
    return Weights(systems, correct, weights, None, f"file:{name}")


def write_weights(weights: Weights, path: str) -> None:
    """Save ``weights``: gec-metrics' JSON when ``path`` ends in ``.json`` (byte for byte as
    ``gecmetrics-gen-gotoscorer-weight`` writes it), else GTS's weight file (as
    ``gotoscorer.py -gen_w_file``).

    Raises:
        UsageError: JSON asked for weights whose per-system judgements are unknown (read
            from a GTS weight file).
        OSError: the file cannot be written.
    """
    if path.endswith(".json"):
        if weights.evaluations is None:
            raise UsageError(f"'--save-weights {path}': gec-metrics' JSON lists every "
                             "system's judgement, which a GTS weight file does not keep")
        data = [{"evaluations": e, "weights": list(w)}
                for e, w in zip(weights.evaluations, weights.weights)]
        with open(path, "w", encoding="utf-8") as out:
            out.write(json_text(data, indent=2))
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"{weights.systems}\n")
        for counts in weights.correct:
            out.write(" ".join(map(str, counts)) + "\n")


def gts_values(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """GTS's ``Score.get_PRFA``: P, R (0 on a zero denominator) and F0.5 (0 when P = R = 0)."""
    p = tp / (tp + fp) if tp + fp else 0
    r = tp / (tp + fn) if tp + fn else 0
    f = float(1.25 * p * r) / (0.25 * p + r) if 0.25 * p + r else 0
    return p, r, f


def gecm_values(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """gec-metrics' ``Score``: P = 1 when FP = 0, R = 1 when FN = 0, F0.5 (0 when P + R = 0)."""
    p = 1.0 if fp == 0 else tp / (tp + fp)
    r = 1.0 if fn == 0 else tp / (tp + fn)
    f = float((1 + 0.25) * p * r) / ((0.25 * p) + r) if p + r else 0.0
    return p, r, f


# per code, the sums a chunk adds to: tp, fp, fn, tn
_ADDS = {}
for _code in range(16):
    _mod, _cor, _gold = bool(_code & MODIFIED), bool(_code & CORRECT), bool(_code & GOLD)
    _ADDS[_code] = ((1, 0, 0, 0) if _mod and _cor else (0, 1, int(_gold), 0) if _mod
                    else (0, 0, 0, 1) if _cor else (0, 0, 1, 0))


_TABLES = tuple(bytes(_ADDS[c][k] if c < 16 else 0 for c in range(256)) for k in range(4))
"""Per sum (tp, fp, fn, tn), ``bytes.translate`` tables: code → 1 if the chunk adds to it."""


@dataclass
class GoToScorerMetric(Metric):
    """GoToScorer as a :class:`~gecformats.metrics.base.Metric`.

    The gold is one annotator's edits (``ref``, default 0: GTS's ``-ref_id`` and
    gec-metrics' ``ref_id``; an annotator absent from a sentence has no edit there); a
    hypothesis is an M2 sentence (its first annotator's edits) or text, whose edits
    ``extractor`` extracts (``errant``: ERRANT's, as both originals).

    Args:
        version: ``gts`` (default), ``gec-metrics`` or ``gec-metrics-intended``.
        weighting: ``weighted`` or ``none``; default: GTS weighted, gec-metrics none
            (weighted when ``weights_from`` or ``weights_file`` is given).
        ref: the gold annotator.
        weights_from: the system outputs that weigh the chunks (default: those scored).
        weights_file: read the weights from this file instead (:func:`read_weights`).
        save_weights: write the weights here (:func:`write_weights`).
        extractor, spacy_model: how a text hypothesis' edits are extracted (as ERRANT's).

    Raises:
        ValueError: an unknown version, weighting or extractor; a negative ``ref``;
            ``weights_from`` with ``weights_file``.
    """

    version: str = "gts"
    weighting: str | None = None
    ref: int = 0
    weights_from: tuple[str, ...] = ()
    weights_file: str | None = None
    save_weights: str | None = None
    extractor: str = "lcs"
    spacy_model: str | None = None
    _given: Weights | None = field(default=None, init=False, repr=False)
    _used: Weights | None = field(default=None, init=False, repr=False)
    _judgements: bool = field(default=False, init=False, repr=False)
    _gold: str | None = field(default=None, init=False, repr=False)
    _notes: list[str] = field(default_factory=list, init=False, repr=False)

    beta: ClassVar[float] = 0.5
    """F0.5, as both originals (fixed)."""
    name = "gotoscorer"
    label = "GoToScorer"
    columns = ("precision", "recall", "f")
    main = "f"
    declines = {"beta": "its F is F0.5, as GTS and gec-metrics fix it"}
    options = frozenset({"gotoscorer-version", "gotoscorer-weighting", "gotoscorer-ref",
                         "weights-from", "weights", "save-weights", "extractor", "spacy-model"})
    needs_edits = True

    def __post_init__(self) -> None:
        from gecformats.convert.extract import EXTRACTORS

        if self.version not in VERSIONS:
            raise ValueError(f"unknown gotoscorer version {self.version!r} (known: "
                             f"{', '.join(VERSIONS)})")
        if self.weighting is None:
            given = bool(self.weights_from) or self.weights_file is not None
            self.weighting = "weighted" if self.version == "gts" or given else "none"
        if self.weighting not in WEIGHTINGS:
            raise ValueError(f"unknown gotoscorer weighting {self.weighting!r} (known: "
                             f"{', '.join(WEIGHTINGS)})")
        if self.ref < 0:
            raise ValueError(f"gotoscorer ref is an annotator id, not {self.ref}")
        if self.extractor not in EXTRACTORS:
            raise ValueError(f"unknown extractor {self.extractor!r} (known: "
                             f"{', '.join(EXTRACTORS)})")
        if self.weights_from and self.weights_file:
            raise ValueError("weights_from and weights (a file) exclude each other")
        self.weights_from = tuple(self.weights_from)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GoToScorerMetric:
        """From ``--gotoscorer-version``, ``--gotoscorer-weighting``, ``--gotoscorer-ref``,
        ``--weights-from``, ``--weights``, ``--save-weights``, ``--extractor``,
        ``--spacy-model``."""
        names = {"gotoscorer-version": "version", "gotoscorer-weighting": "weighting",
                 "gotoscorer-ref": "ref", "weights-from": "weights_from",
                 "weights": "weights_file", "save-weights": "save_weights",
                 "extractor": "extractor", "spacy-model": "spacy_model"}
        return cls(**{names[k]: v for k, v in options.items() if v is not None})

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_given"] = state["_used"] = None  # the workers judge; they never weigh
        return state

    @property
    def _gts(self) -> bool:
        return self.version == "gts"

    # ------------------------------------------------------------ the weights

    def setup(self, gold: str, view: Any = None) -> None:
        """Read the weight file, or judge the ``weights_from`` systems (a first run of the
        pipeline over them with this metric, unweighted) to weigh the chunks.

        Raises:
            GecFormatError: a malformed weight file, a bad ``weights_from`` output.
        """
        self._used = None
        self._gold, self._notes = gold, []
        if self.weights_file is not None:
            self._given = read_weights(self.weights_file)
        elif self.weights_from:
            from gecformats.metrics.pipeline import evaluate, system_names

            helper = replace(self, weighting="weighted", weights_from=(), weights_file=None,
                             save_weights=None)
            helper._judgements = (self.save_weights or "").endswith(".json")
            evaluate(list(self.weights_from), gold, [helper],
                     **(dict(view.options) if view is not None else {}))
            assert helper._used is not None
            names = system_names(list(self.weights_from))
            self._given = replace(helper._used, origin="from:" + ",".join(names))

    def _judged(self, stats: Sequence[Sequence[GotoStats]], evaluations: bool) -> Weights:
        """The weights from every system's codes (``stats[system][sentence]``); with
        ``evaluations``, each system's judgement too."""
        bit = CORRECT if self._gts else GENERATOR
        systems = len(stats)
        table = [weight_of(n, systems) for n in range(systems + 1)]
        correct, weights, judged = [], [], []
        for row in zip(*stats):
            counts = [0] * len(row[0].codes)
            for s in row:
                for j, code in enumerate(s.codes):
                    if code & bit:
                        counts[j] += 1
            correct.append(tuple(counts))
            weights.append(tuple(table[n] for n in counts))
            if evaluations:
                judged.append([[int(bool(s.codes[j] & bit)) for s in row]
                               for j in range(len(counts))])
        return Weights(systems, correct, weights, judged if evaluations else None,
                       f"scored-{systems}")

    def complete(self, stats: list[list[GotoStats]]) -> list[list[GotoStats]]:
        """Weigh the chunks (from the weight file, the ``weights_from`` systems or else the
        scored systems: ``stats[system][sentence]``), save the weights when asked, and
        attach them to every statistic (unweighted: left as they are).

        Raises:
            GecFormatError: weights that do not fit the gold's chunks (sentence or chunk
                counts).
        """
        if stats:
            self._check_annotator(stats[0])
        if self._given is None and self.weighting == "none" and self.save_weights is None:
            self._used = None
            return stats
        json_file = self._judgements or (self.save_weights or "").endswith(".json")
        used = self._given if self._given is not None else self._judged(stats, json_file)
        if self._given is None and len(stats) == 1 and self.weighting == "weighted":
            self._notes.append(
                "GoToScorer weighs each chunk by how many of the systems scored fail it, and "
                "only one system is scored here: every chunk it corrects weighs 0, so what it "
                "gets right counts for nothing (P = R = F = 0 for any output); score it with "
                "the other systems, weigh with --weights-from SYS... or --weights FILE, or "
                "give --gotoscorer-weighting none")
        self._used = used
        if stats:
            self._check(used, stats[0])
        if self.save_weights is not None:
            write_weights(used, self.save_weights)
        if self.weighting == "none":
            return stats
        return [[s._replace(weights=w) for s, w in zip(system, used.weights)] for system in stats]

    def _check_annotator(self, stats: Sequence[GotoStats]) -> None:
        """Refuse a ``ref`` no gold sentence has; note the sentences that list other
        annotators but not ``ref`` (:data:`OTHERS_ONLY`), and with them, as a separate
        count, those with no ``A`` line at all (:data:`NO_A_LINE`, alone not noted: they
        mean no edit)."""
        others = sum(1 for s in stats if s.absent == OTHERS_ONLY)
        bare = sum(1 for s in stats if s.absent == NO_A_LINE)
        if stats and others + bare == len(stats):
            raise GecFormatError(f"no sentence of the gold has annotator {self.ref} "
                                 "(--gotoscorer-ref)", self._gold)
        if others:
            more = (f"; {bare} more have no A line at all (no annotator edits them) and are "
                    "scored with no gold edit, which is what they mean") if bare else ""
            self._notes.append(
                f"{self._gold}: {others} of {len(stats)} sentences list other annotators but "
                f"not annotator {self.ref}; GoToScorer scores them as if annotator {self.ref} "
                "made no edit, as its originals do (the CoNLL-2014 combined M2 leaves "
                "annotator 1 out where its edits equal annotator 0's: score against an M2 "
                "that lists every annotator, e.g. ERRANT's of the references, or with "
                f"--source/--ref){more}")

    def warnings(self) -> list[str]:
        """The note on gold sentences without annotator ``ref`` (see :meth:`complete`)."""
        return list(self._notes)

    def _check(self, used: Weights, stats: Sequence[GotoStats]) -> None:
        where = self.weights_file or (self.weights_from[0] if self.weights_from else None)
        if len(used.weights) != len(stats):
            raise GecFormatError(f"weights for {len(used.weights)} sentences, the gold has "
                                 f"{len(stats)}", where)
        for i, (w, s) in enumerate(zip(used.weights, stats)):
            if len(w) != len(s.codes):
                line = i + 2 if where is not None and used.evaluations is None else None
                raise GecFormatError(f"sentence {i + 1} has {len(s.codes)} chunks of gold "
                                     f"annotator {self.ref}, the weights {len(w)} (weights "
                                     "made for another gold or annotator?)", where, line)

    # ------------------------------------------------------------ the two steps

    def prepare(self, gold: Sentence) -> GoldChunks:
        """The chunks of gold annotator ``ref`` (:func:`gts_chunks` or :func:`gecm_chunks`),
        on the source tokens (an empty source is one empty token, as ``''.split(' ')``)."""
        tokens = tuple(gold.source) or ("",)
        chunker = gts_chunks if self._gts else gecm_chunks
        chunks = chunker(tokens, sentence_edits(gold, self.ref))
        seen: dict[str, int] = {}
        groups = tuple(seen.setdefault(c[4], len(seen)) for c in chunks)
        absent = (0 if self.ref in gold.annotators
                  else OTHERS_ONLY if gold.annotators else NO_A_LINE)
        prepared = GoldChunks(tuple(gold.source), tokens, tuple(chunks), groups, b"", absent)
        return prepared._replace(untouched=self._judge(prepared, []).codes)

    def sentence(self, prepared: GoldChunks, hypothesis: Hypothesis) -> GotoStats:
        """The codes of one hypothesis: its edits (M2: its first annotator's; text: extracted)
        chunked and judged against the gold chunks.

        Raises:
            GecFormatError: an M2 hypothesis whose source differs from the gold's.
        """
        if hypothesis.sentence is not None:
            from gecformats.metrics.errant import _same_source

            _same_source(hypothesis.sentence.source, prepared.source)
            first = min(hypothesis.sentence.annotators, default=0)
            return self._judge(prepared, sentence_edits(hypothesis.sentence, first))
        elif self.extractor == "errant":
            from gecformats.metrics.errant import _errant_edits

            edits = _errant_edits(prepared.source, hypothesis.tokens, self.spacy_model)
        else:
            from gecformats.convert.extract import align_edits
            from gecformats.metrics.errant import _model_edits

            found = align_edits(prepared.source, hypothesis.tokens, extractor=self.extractor)
            edits = _model_edits(Sentence(prepared.source, {0: found}))
        first = min((e[4] for e in edits), default=0)
        judged = self._judge(prepared, [(s, e, t, c) for s, e, t, c, a in edits if a == first])
        return judged._replace(extracted="errant" if self.extractor == "errant" else True)

    def _judge(self, prepared: GoldChunks, mine: Sequence[tuple[int, int, str, str]]
               ) -> GotoStats:
        """The statistics of one hypothesis' edits ``(start, end, type, correction)``."""
        skipped = ("noop", "UNK", "Um") if self._gts else ("noop", "UNK")
        if prepared.untouched and all(e[2] in skipped for e in mine):
            return GotoStats(prepared.untouched, None, None if self._gts else prepared.groups,
                             absent=prepared.absent)
        if self._gts:
            return GotoStats(gts_judge(prepared.chunks, gts_chunks(prepared.tokens, mine)),
                             None, None, absent=prepared.absent)
        codes = gecm_judge(prepared.chunks, gecm_chunks(prepared.tokens, mine),
                           self.version == "gec-metrics-intended")
        return GotoStats(codes, None, prepared.groups, absent=prepared.absent)

    def sentences(self, prepared: Sequence[GoldChunks],
                  hypotheses: Sequence[Sequence[Hypothesis]]) -> Iterator[list[GotoStats]]:
        """:meth:`sentence` for a chunk; with ``--extractor errant`` the texts are parsed in
        spaCy batches (as ERRANT's metric does), with equal results.

        Raises:
            SystemFailure: an M2 hypothesis whose source differs from the gold's.
        """
        if self.extractor != "errant" or all(h.sentence is not None for hs in hypotheses
                                             for h in hs):
            yield from super().sentences(prepared, hypotheses)
            return
        from gecformats.metrics.errant import _errant_parses

        parses = _errant_parses(prepared, hypotheses, self.spacy_model)  # type: ignore[arg-type]
        for i, (p, hyps) in enumerate(zip(prepared, hypotheses)):
            row = []
            for s, hyp in enumerate(hyps):
                try:
                    row.append(self.sentence(p, hyp) if hyp.sentence is not None else
                               self._judge(p, [e[:4] for e in parses.edits(i, hyp.tokens)]
                                           )._replace(extracted="errant"))
                except GecFormatError as exc:
                    raise SystemFailure(exc, s) from None
            yield row

    def _sentence_sums(self, s: GotoStats) -> tuple[float, ...]:
        """One sentence's weighted ``(tp, fp, fn, tn, all)`` as the version sums them."""
        ws = s.weights if s.weights is not None else (1 if self._gts else 1.0,) * len(s.codes)
        if self._gts:
            tp = fp = fn = tn = total = 0
            for code, w in zip(s.codes, ws):
                a = _ADDS[code]
                total += w
                if a[0]:
                    tp += w
                if a[1]:
                    fp += w
                if a[2]:
                    fn += w
                if a[3]:
                    tn += w
            return tp, fp, fn, tn, total
        groups: dict[int, list[float]] = {}
        for code, w, g in zip(s.codes, ws, s.groups or ()):
            sums = groups.setdefault(g, [0.0, 0.0, 0.0, 0.0])
            for k, add in enumerate(_ADDS[code]):
                if add:
                    sums[k] += w
        out = [0.0, 0.0, 0.0, 0.0]
        for sums in groups.values():
            out = [o + v for o, v in zip(out, sums)]
        return (*out, 0.0)

    def _values(self, tp: float, fp: float, fn: float) -> tuple[float, float, float]:
        return gts_values(tp, fp, fn) if self._gts else gecm_values(tp, fp, fn)

    def corpus(self, stats: Sequence[GotoStats], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """P, R, F0.5 of the summed weights (GTS: chunk by chunk over the corpus, as
        ``calculate_system_score``; gec-metrics: sentence by sentence); ``counts``: ``tp fp
        fn tn``; ``extra`` (GTS): ``f1`` and ``accuracy``.  With ``weights``: each
        sentence's sums times its weight (the bootstrap's arithmetic)."""
        if weights is not None:
            return Totals(self.resampler(stats).scores([weights])[0])
        if self._gts:
            codes = b"".join(s.codes for s in stats)
            ws = list(chain.from_iterable(s.weights if s.weights is not None
                                          else repeat(1, len(s.codes)) for s in stats))
            # chunk by chunk, left to right, as GTS adds (reduce: no compensated sum)
            tp, fp, fn, tn = (reduce(add, compress(ws, codes.translate(table)), 0)
                              for table in _TABLES)
            total = reduce(add, ws, 0)
        else:
            tp = fp = fn = tn = 0.0
            for s in stats:
                stp, sfp, sfn, stn, _ = self._sentence_sums(s)
                tp, fp, fn, tn = tp + stp, fp + sfp, fn + sfn, tn + stn
            total = 0.0
        values = tuple(float(v) for v in self._values(tp, fp, fn))
        extra: dict[str, Any] = {}
        if self._gts:
            p, r = values[0], values[1]
            extra["f1"] = 2 * p * r / (p + r) if p + r else 0
            extra["accuracy"] = (tp + tn) / total if total else 0
        extra["signature"] = self.signature(_hyp_kind(stats, self))
        chosen = (0,) * len(stats) if choices else ()
        return Totals(values, {"tp": tp, "fp": fp, "fn": fn, "tn": tn}, chosen, extra)

    def resampler(self, stats: Sequence[GotoStats]) -> Any:
        """The bootstrap: each sentence's sums once, then weighted sums (NumPy) per row."""
        return _Sums(self, [self._sentence_sums(s) for s in stats])

    def swapper(self, a: Sequence[GotoStats], b: Sequence[GotoStats]) -> Any:
        """Approximate randomisation on each sentence's sums (computed once)."""
        return _Sums(self, [self._sentence_sums(s) for s in a],
                     [self._sentence_sums(s) for s in b])

    # ------------------------------------------------------------ the rest

    def signature(self, hyp: str | None = None) -> str:
        """``metric:gotoscorer|version:…|code:…|ref:K|weights:…[|hyp:HYP]|gecformats:V``;
        ``weights:`` is ``none``, ``scored-N`` (the N systems scored), ``from:A,B,…`` or
        ``file:NAME``; ``hyp:`` (when given) how the hypotheses' edits were had."""
        if self.weighting == "none":
            origin = "none"
        elif self._used is not None:
            origin = self._used.origin
        elif self.weights_file is not None:
            origin = f"file:{os.path.basename(self.weights_file)}"
        elif self.weights_from:
            from gecformats.metrics.pipeline import system_names

            origin = "from:" + ",".join(system_names(list(self.weights_from)))
        else:
            origin = "scored"
        return (f"metric:gotoscorer|version:{self.version}|code:{CODES[self.version]}"
                f"|ref:{self.ref}|weights:{origin}"
                f"{f'|hyp:{hyp}' if hyp is not None else ''}|gecformats:{__version__}")

    sentence_score = "f"

    def sentence_fields(self, stats: GotoStats, choice: int) -> dict[str, Any]:
        """The sentence's weighted ``tp fp fn tn`` and its ``p r f`` by the version's
        conventions (gec-metrics' ``score_sentence``; GTS has no sentence score)."""
        tp, fp, fn, tn, _ = self._sentence_sums(stats)
        p, r, f = self._values(tp, fp, fn)
        return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "p": p, "r": r, "f": f}


class _Sums:
    """Weighted sums of per-sentence ``(tp, fp, fn, tn, all)`` (NumPy), then the version's
    P, R, F0.5 per row; with ``b``, approximate randomisation's two swapped systems."""

    def __init__(self, metric: GoToScorerMetric, a: Sequence[tuple[float, ...]],
                 b: Sequence[tuple[float, ...]] = ()) -> None:
        import numpy as np

        self.metric = metric
        self.a = np.array(a, dtype=np.float64).reshape(len(a), 5)
        self.b = np.array(b, dtype=np.float64).reshape(len(b), 5) if len(b) else None

    def _rows(self, sums: Any) -> list[tuple[float, ...]]:
        return [self.metric._values(float(r[0]), float(r[1]), float(r[2])) for r in sums]

    def scores(self, rows: Sequence[Sequence[int]]) -> Any:
        """Bootstrap (no ``b``): per weight row, the values; approximate randomisation: per
        row of swaps, the values of the two swapped pseudo-systems."""
        import numpy as np

        matrix = np.asarray(rows, dtype=np.float64).reshape(len(rows), self.a.shape[0])
        if self.b is None:
            return self._rows(matrix @ self.a)
        x = (1 - matrix) @ self.a + matrix @ self.b
        y = matrix @ self.a + (1 - matrix) @ self.b
        return self._rows(x), self._rows(y)


def _hyp_kind(stats: Sequence[GotoStats], metric: GoToScorerMetric) -> str:
    """The signature's ``hyp:`` of one system's statistics: ``m2``, ``extracted-lcs`` …,
    or ``extracted-errant-V+spacy-V+MODEL-V``."""
    from gecformats.metrics.errant import extraction_name

    if any(s.extracted == "errant" for s in stats):
        from gecformats.convert.errant_extract import cached, version

        return f"extracted-{version(cached(metric.spacy_model))}"
    if any(s.extracted is True for s in stats):
        return extraction_name(metric.extractor)
    return "m2"

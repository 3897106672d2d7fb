"""Scoring glue: M2 gold files and hypothesis files into the bundled MaxMatch scorer.

:func:`score_files` scores a system output against an M2 gold file exactly like the NUS
m2scorer (``../shared/spec/maxmatch.md``); :class:`Scoring` does the same sentence by sentence
for callers that want to show progress or a per-sentence trace.  Both stream: the gold is read
with :func:`gecformats.formats.m2.read` and the hypothesis lazily, in step with it.

>>> result = score_files("fixtures/score/cat.hyp", "fixtures/score/cat.m2")
>>> print(f"P {result.precision:.4f}  R {result.recall:.4f}  F0.5 {result.f:.4f}")
P 0.6667  R 1.0000  F0.5 0.7143
>>> print(result.signature)
metric:m2|scorer:maxmatch-0.1.0|beta:0.5|max-unchanged:2|ws-case:significant|annotators:1|gecformats:0.1.0
"""

from __future__ import annotations

import math
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

import maxmatch
from maxmatch import PY27_WHITESPACE, CorpusScorer, SentenceChoice, SentenceResult, split_hypothesis

from gecformats import __version__
from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.io import (binary_lines, chunks, lockstep, numbered_lines, open_binary,
                           source_name)
from gecformats.metrics.modes import ModeScorer, optional_spans
from gecformats.model import Sentence

if TYPE_CHECKING:
    from gecformats.convert.project import Projector
    from gecformats.tokenize import Tokenizer

GoldEdits = dict[int, list[tuple[int, int, tuple[str, ...]]]]

_STRIP = "".join(sorted(PY27_WHITESPACE))

SEGMENT_MODES = (None, "project")
"""Values of the ``segment`` option: ``None`` (tokenised hypotheses) or ``"project"``."""


def maxmatch_gold(sentence: Sentence) -> GoldEdits:
    """The gold edits of ``sentence`` as :mod:`maxmatch` takes them.

    Each annotator maps to its edits in file order as ``(start, end, corrections)``, every
    correction a string of tokens joined by single spaces (``""`` is a deletion), exactly as
    the NUS scorer stores them.  An annotator present with no edits (a ``noop`` line) maps to
    an empty list; a sentence without annotators gives an empty mapping, which the scorer
    reads as "annotator 0, no edits".  Offsets are passed on unchecked: the scorer drops
    out-of-range edits itself, as the reference does.
    """
    return {
        annotator: [(e.start, e.end, tuple(" ".join(c) for c in e.corrections)) for e in edits]
        for annotator, edits in sentence.annotators.items()
    }


# ------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class Signature:
    """What a score depends on, printed sacrebleu style as ``key:value|key:value|...``.

    Attributes:
        beta: the β of F_β.
        max_unchanged_words: the largest number of unchanged tokens inside one edit.
        ignore_whitespace_casing: whether edits that only change case or spacing are dropped.
        annotators: the number of distinct annotator ids in the gold file (a sentence
            without ``A`` lines counts as annotator 0, as the scorer reads it).
        scorer: the ``maxmatch`` version; ``gecformats``: the gecformats version.
        segment: how raw hypotheses were segmented before scoring, e.g.
            ``project+zh-jieba-0.42.1`` (:mod:`gecformats.convert.project`); ``None`` (the default,
            and then absent from the text) when the hypothesis was taken as tokenised.
        mode: the HOO score and bonus when not plain M2 correction, e.g. ``detection`` or
            ``correction+bonus`` (:mod:`gecformats.metrics.modes`); ``None`` (absent) for
            the M2 score.
        resampling: the confidence interval and significance test, with the number of
            resamples and the seed, e.g. ``ci95+paired-bs|resamples:1000|seed:12345``
            (:mod:`gecformats.metrics.significance`); ``None`` (absent) without them.
        gold: how the gold was made when it was not read from a file of edits, e.g.
            ``extracted-lcs`` for references given as text (``score --ref``); ``None``
            (absent) for an M2 gold.
        inputs: the fields the pipeline adds about its inputs (``|gold-file:NAME@HASH``,
            ``|sentences:unchecked``: :meth:`~gecformats.metrics.pipeline.Evaluation.input_fields`),
            or ``None``.
    """

    beta: float
    max_unchanged_words: int
    ignore_whitespace_casing: bool
    annotators: int
    metric: str = "m2"
    scorer: str = f"maxmatch-{maxmatch.__version__}"
    gecformats: str = __version__
    segment: str | None = None
    resampling: str | None = None
    mode: str | None = None
    gold: str | None = None
    inputs: str | None = None

    def __str__(self) -> str:
        ws_case = "ignored" if self.ignore_whitespace_casing else "significant"
        segment = f"|segment:{self.segment}" if self.segment is not None else ""
        gold = f"|gold:{self.gold}" if self.gold is not None else ""
        test = f"|test:{self.resampling}" if self.resampling is not None else ""
        mode = f"|mode:{self.mode}" if self.mode is not None else ""
        return (f"metric:{self.metric}{mode}|scorer:{self.scorer}|beta:{_number(self.beta)}"
                f"|max-unchanged:{self.max_unchanged_words}|ws-case:{ws_case}{segment}"
                f"|annotators:{self.annotators}{gold}{self.inputs or ''}{test}"
                f"|gecformats:{self.gecformats}")


def _number(value: float) -> str:
    """``0.5`` → ``0.5``, ``1.0`` → ``1``: the shortest text that reads back as ``value``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The corpus score of one hypothesis file against one gold file.

    ``precision``, ``recall`` and ``f`` are bit for bit the reference's; ``correct``,
    ``proposed`` and ``gold`` are the counts summed over each sentence's chosen annotator;
    ``sentences`` is the number of sentences; ``choices`` holds one
    :class:`maxmatch.SentenceChoice` per sentence when asked for (``per_sentence=True``),
    else is empty; ``warnings`` lists 1-based sentence numbers whose annotator ids the
    reference might visit in another order (spec §2.6); ``input_warnings`` says why the
    hypothesis looks tokenized unlike the gold (:class:`InputCheck`), with the command that
    fixes it; ``ci`` holds bootstrap intervals ``{"precision": (lo, hi), "recall": ...,
    "f": ...}`` and ``p_value`` the paired test against the baseline (the first system), when
    asked for (:func:`gecformats.metrics.significance.resample`).
    """

    precision: float
    recall: float
    f: float
    beta: float
    correct: int
    proposed: int
    gold: int
    sentences: int
    signature: Signature
    choices: tuple[SentenceChoice, ...] = ()
    warnings: tuple[int, ...] = ()
    input_warnings: tuple[str, ...] = ()
    per_type: PerType | None = None
    counts: tuple[tuple[tuple[int, int, int], ...], ...] = field(default=(), compare=False, repr=False)
    """With ``keep_counts``: every sentence's ``(correct, proposed, gold)`` per annotator, for
    resampling (:mod:`gecformats.metrics.significance`)."""
    ci: Mapping[str, tuple[float, float]] | None = None
    p_value: float | None = None
    p_bound: bool = False
    """``p_value`` is an upper bound (from a p at the resampling floor, Holm-adjusted)."""
    gold_warnings: tuple[str, ...] = ()
    """What makes the number doubtful without changing it, as the NUS scorer computes it:
    gold edits past their sentence's end (ignored), sentences crediting more edits than the
    system proposed (:attr:`impossible`); each with the count, the first sentence and
    ``gecformats validate GOLD``."""
    impossible: int = 0
    """Sentences whose chosen annotator credits more correct edits than the system proposed
    (or than it has gold edits): a gold edit listed twice.  P (or R) is then overstated,
    possibly above 1, as the NUS scorer gives it; ``score --strict`` refuses such a score."""

    def _paired(self) -> bool:
        """Whether a paired test was run (then the baseline's ``p_value`` is ``None``)."""
        return "paired-" in (self.signature.resampling or "")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``precision recall f beta correct proposed gold sentences
        signature`` (the signature as its string), with ``per_type``, ``ci`` (``[lo, hi]``
        per measure) and ``p_value`` (``null`` for the baseline) when computed.  A value that is not finite (``--beta
        inf`` gives an F of NaN, as the reference does) is the string ``"inf"`` or ``"nan"``,
        so that the output stays strict JSON."""
        return {
            "precision": _json_float(self.precision), "recall": _json_float(self.recall),
            "f": _json_float(self.f), "beta": _json_float(self.beta),
            "correct": self.correct, "proposed": self.proposed, "gold": self.gold,
            "sentences": self.sentences, "signature": str(self.signature),
            **({"per_type": self.per_type.to_dict()} if self.per_type is not None else {}),
            **({"ci": {k: list(v) for k, v in self.ci.items()}} if self.ci is not None else {}),
            **({"p_value": self.p_value} if self.p_value is not None or self._paired() else {}),
            **({"p_value_bound": True} if self.p_bound else {}),
        }


class PerType:
    """Gold edits and matched (credited) gold edits per gold error type, after the exact M2
    alignment and annotator choice, and the proposed edits that matched nothing.

    The gold edits are the chosen annotator's (as the scorer keeps them: in range), each
    credit goes to the gold edit the scorer matched (its cursor rule, spec §6.7), so the
    totals equal the corpus counts: ``sum(gold) == gold``, ``sum(matched) == correct``.
    """

    def __init__(self) -> None:
        self.gold: dict[str, int] = {}
        self.matched: dict[str, int] = {}
        self.unmatched = 0
        """Proposed edits credited to no gold edit."""
        self.proposed: dict[str, int] = {}
        """For an M2 hypothesis: proposed edits per system type."""
        self.credited: dict[str, int] = {}
        """For an M2 hypothesis: credited proposed edits per system type."""

    def add(self, sentence: Sentence, result: SentenceResult, annotator: int) -> None:
        """Count one sentence's chosen annotator."""
        chosen = next(a for a in result.annotators if a.annotator == annotator)
        n = len(sentence.source)
        types = [e.type for e in sentence.annotators.get(annotator, ())
                 if 0 <= e.start <= n and 0 <= e.end <= n]
        if len(types) != len(chosen.gold_edits):  # a multi-S block (spec §2.5): no types
            types = ["?"] * len(chosen.gold_edits)
        for kind in types:
            self.gold[kind] = self.gold.get(kind, 0) + 1
        golds = chosen.gold_edits
        cursor, credited = 0, 0
        for e in chosen.edits:  # the scorer's credit loop (maxmatch.match_edits)
            hit = False
            for i in range(cursor, len(golds)):
                if maxmatch.edit_matches(e, golds[i]):
                    self.matched[types[i]] = self.matched.get(types[i], 0) + 1
                    cursor, hit = i + 1, True
            credited += hit
        self.unmatched += len(chosen.edits) - credited

    def rows(self) -> list[tuple[str, int, int, float]]:
        """``(type, gold, matched, recall)`` per type, most gold edits first."""
        return [(k, g, self.matched.get(k, 0), self.matched.get(k, 0) / g if g else 1.0)
                for k, g in sorted(self.gold.items(), key=lambda kv: (-kv[1], kv[0]))] + [
            (k, 0, m, 1.0) for k, m in sorted(self.matched.items()) if k not in self.gold]

    def system_rows(self) -> list[tuple[str, int, int, float]]:
        """For an M2 hypothesis, ``(system type, proposed, credited, precision)`` per type,
        most proposed first."""
        return [(k, p, self.credited.get(k, 0), self.credited.get(k, 0) / p if p else 1.0)
                for k, p in sorted(self.proposed.items(), key=lambda kv: (-kv[1], kv[0]))]

    def to_dict(self) -> dict[str, Any]:
        """``{"types": {type: {"gold", "matched", "recall"}}, "unmatched_proposed": n}``,
        and for an M2 hypothesis ``"system_types": {type: {"proposed", "credited",
        "precision"}}``."""
        out: dict[str, Any] = {
            "types": {k: {"gold": g, "matched": m, "recall": r} for k, g, m, r in self.rows()},
            "unmatched_proposed": self.unmatched}
        if self.proposed:
            out["system_types"] = {k: {"proposed": p, "credited": c, "precision": r}
                                   for k, p, c, r in self.system_rows()}
        return out

    def format_text(self) -> str:
        """A table: type, gold, matched, recall; then the proposed edits matching nothing."""
        rows = self.rows()
        width = max([4, *(len(k) for k, *_ in rows)])
        lines = [f"{'type':<{width}}  {'gold':>6}  {'matched':>7}  {'recall':>6}"]
        lines += [f"{k:<{width}}  {g:>6}  {m:>7}  {r:6.4f}" for k, g, m, r in rows]
        lines.append(f"{self.unmatched} proposed edits matched no gold edit")
        if self.proposed:
            rows = self.system_rows()
            width = max([11, *(len(k) for k, *_ in rows)])
            lines.append(f"{'system type':<{width}}  {'proposed':>8}  {'credited':>8}  {'precision':>9}")
            lines += [f"{k:<{width}}  {p:>8}  {c:>8}  {r:9.4f}" for k, p, c, r in rows]
        return "\n".join(lines)


def _json_float(value: float) -> float | str:
    return value if math.isfinite(value) else str(value)


@dataclass(frozen=True, slots=True)
class ScoredSentence:
    """One sentence as :class:`Scoring` yields it.

    ``number`` is 1-based; ``hypothesis`` is the hypothesis line stripped of surrounding
    whitespace (spec §3), or with ``segment="project"`` the projected tokens joined by single
    spaces; ``result`` holds every annotator's edits and counts, ``choice`` the
    greedy choice, ``before`` the corpus totals ``(correct, proposed, gold)`` before it;
    ``gold`` is the gold sentence as the M2 reader gave it.
    """

    number: int
    source: tuple[str, ...]
    hypothesis: str
    result: SentenceResult
    choice: SentenceChoice
    before: tuple[int, int, int]
    gold: Sentence


# ------------------------------------------------------------------ reading the hypothesis


def read_hypothesis(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` for each line of a system output, as the reference reads
    it (spec §3), streaming.

    The file is read as bytes (``.gz`` decompressed, ``-`` is standard input) and split on
    ``\\n`` only: a final line without ``\\n`` is a line, a file ending in ``\\n\\n`` has one
    extra empty line.  Each line is decoded as strict UTF-8; a CR before the ``\\n`` stays on
    the line (the tokeniser and :func:`strip_hypothesis` drop it).  A byte-order mark is kept:
    the reference glues it to the first token.  A CR-only file is one line (as for the
    reference), so its count differs from the gold's.

    Raises:
        GecFormatError: a line is not valid UTF-8 or longer than
            :data:`gecformats.io.MAX_LINE` bytes (``FILE:LINE: message``).
        OSError: the file cannot be opened.
    """
    with open_binary(path) as fh:
        yield from _decoded(fh, source_name(path))


def _decoded(fh: IO[bytes], name: str) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(binary_lines(fh, name), 1):  # split on b"\n" only
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise GecFormatError(f"not valid UTF-8 (byte {exc.start + 1} of the line)",
                                 name, number) from None
        yield number, line[:-1] if line.endswith("\n") else line


def strip_hypothesis(line: str) -> str:
    """``line`` without surrounding whitespace, with the reference's Python 2.7 whitespace
    set (spec §3): what the ``-v`` trace prints as ``HYPOTHESIS``."""
    return line.strip(_STRIP)


# ------------------------------------------------------------------ scoring


class Scoring:
    """Score a hypothesis file against an M2 gold file sentence by sentence.

    Iterate over it to get one :class:`ScoredSentence` per sentence as soon as it is scored;
    after the iteration ends, :meth:`result` gives the corpus score.  The line counts are
    compared when either file ends, so a mismatch is raised at the end of the iteration:
    callers that print per sentence should hold their output until then.

    Args:
        hypothesis: the system output, one sentence per line (``.gz`` read transparently,
            ``-`` for standard input).
        gold: the M2 gold file.
        beta, max_unchanged_words, ignore_whitespace_casing: the reference's options.
        per_sentence: keep every sentence's choice in :attr:`ScoreResult.choices`.
        segment: ``None`` (the hypothesis is tokenised like the gold: tokens are split on
            white space) or ``"project"``: the hypothesis is raw text, segmented like the
            gold by :class:`gecformats.convert.project.Projector` (NLPCC 2018, spec §9.4).  The gold
            file is then read twice, the first time for the projection lexicon.
        segmenter: with ``segment="project"``, the fallback segmenter for strings the
            gold never cut (``zh``: jieba; ``char``: one token per character).
        segment_map: with ``segment="project"``, the character normalisation map
            (``{}`` maps nothing); by default the pairs of
            :data:`gecformats.convert.project.NLPCC_MAP` the gold's sources show were
            applied (:func:`gecformats.convert.project.gold_map`).
        keep_counts: keep every sentence's per-annotator counts (``ScoreResult.counts``).
        mode, bonus: the HOO score (``correction``, ``recognition``, ``detection``) and
            whether optional gold edits left alone count
            (:mod:`gecformats.metrics.modes`); ``correction`` without bonus is the M2 score.

    Raises:
        ValueError: an unknown ``segment``, ``segmenter`` or ``mode``; ``per_type`` with a
            mode or bonus.

    Raises (while iterating):
        GecFormatError: malformed gold or hypothesis (``FILE:LINE: message``), ChERRANT
            ``T`` lines in the gold, different numbers of hypothesis lines and gold
            sentences (``FILE: 1311 hypothesis lines for 1312 gold sentences in GOLD``), or
            a gold on standard input with ``segment="project"``.
        OSError: a file cannot be read.
    """

    def __init__(self, hypothesis: str | os.PathLike[str], gold: str | os.PathLike[str], *,
                 beta: float = 0.5, max_unchanged_words: int = 2,
                 ignore_whitespace_casing: bool = False, per_sentence: bool = False,
                 segment: str | None = None, segmenter: str = "zh",
                 segment_map: Mapping[str, str] | None = None,
                 max_edges: int | None = maxmatch.DEFAULT_MAX_EDGES,
                 tokenize: str | None = None, per_type: bool = False,
                 keep_counts: bool = False, mode: str = "correction",
                 bonus: bool = False, engine: Any = None, check_sentences: bool = False
                 ) -> None:
        self.hypothesis = os.fspath(hypothesis)
        self.check_sentences = check_sentences
        self.engine = engine
        if engine is not None and (mode != "correction" or bonus):
            raise ValueError("--engine dask scores the M2 correction score (no --mode, no --bonus)")
        self.counts: list[tuple[tuple[int, int, int], ...]] | None = [] if keep_counts else None
        self.types: PerType | None = PerType() if per_type else None
        if tokenize is not None and segment is not None:
            raise ValueError("tokenize and segment exclude each other")
        self.tokenizer: Tokenizer | None = None
        if tokenize is not None:
            from gecformats.tokenize import get_tokenizer  # lazily: start-up of plain scoring

            self.tokenizer = get_tokenizer(tokenize)
        self.check = InputCheck()
        self.max_edges = max_edges
        self.gold = os.fspath(gold)
        self.beta = beta
        self.max_unchanged_words = max_unchanged_words
        self.ignore_whitespace_casing = ignore_whitespace_casing
        if segment not in SEGMENT_MODES:
            raise ValueError(f"unknown segment mode {segment!r} (known: project)")
        self.segment = segment
        self.segmenter = segmenter
        self.segment_map: dict[str, str] | None = None
        if segment is not None or segmenter != "zh" or segment_map is not None:
            # imported only when asked for: the start-up of plain scoring stays short
            from gecformats.convert.project import SEGMENTERS

            if segmenter not in SEGMENTERS:
                raise ValueError(f"unknown segmenter {segmenter!r} (known: {', '.join(SEGMENTERS)})")
            # None: decided from the gold when the projector is built (convert.project.gold_map)
            self.segment_map = None if segment_map is None else dict(segment_map)
        self.projector: Projector | None = None
        self.mode, self.bonus = mode, bonus
        if mode == "correction" and not bonus:
            self._scorer: CorpusScorer | ModeScorer = CorpusScorer(
                beta=beta, max_unchanged_words=max_unchanged_words,
                ignore_whitespace_casing=ignore_whitespace_casing,
                keep_sentences=per_sentence, max_edges=max_edges)
        else:
            if per_type:
                raise ValueError("per_type goes with the M2 score (mode correction, no bonus)")
            self._scorer = ModeScorer(mode=mode, bonus=bonus, beta=beta,
                                      max_unchanged_words=max_unchanged_words,
                                      ignore_whitespace_casing=ignore_whitespace_casing,
                                      keep_sentences=per_sentence, max_edges=max_edges)
        self._annotators: set[int] = set()
        self._done = False
        self._past_end = [0, 0]  # gold edits past their sentence's end, first sentence
        self._impossible = [0, 0]  # sentences crediting more than proposed, first sentence

    def _project(self) -> None:
        """Build the projector of ``segment="project"`` (reads the gold a first time)."""
        if self.segment == "project" and self.projector is None:
            if self.gold == "-":
                raise GecFormatError("--segment project reads the gold twice: give a file, "
                                     "not standard input", self.gold)
            from gecformats.convert.project import Lexicon, Projector, gold_map

            lexicon = Lexicon.from_m2(self.gold)
            if self.segment_map is None:
                self.segment_map = gold_map(lexicon.source_characters)
            self.projector = Projector(lexicon, segmenter=self.segmenter,
                                       mapping=self.segment_map)

    def __iter__(self) -> Iterator[ScoredSentence]:
        self._project()
        streams = [(self.gold, m2.read(self.gold)), (self.hypothesis, read_hypothesis(self.hypothesis))]
        pairs: Iterable[tuple[int, tuple[Sentence, tuple[int, str]]]] = \
            enumerate(lockstep(streams, self._mismatch), 1)
        if self.check_sentences:
            pairs = self._checked(pairs)
        if self.engine is not None:
            yield from self._on_engine(pairs)
        else:
            for number, (sentence, line) in pairs:
                yield self._score(number, sentence, line[1])
        self._done = True

    def _checked(self, pairs: Iterable[tuple[int, tuple[Sentence, tuple[int, str]]]]
                 ) -> Iterator[tuple[int, tuple[Sentence, tuple[int, str]]]]:
        """``pairs``, each checked to be the gold's sentence (as the pipeline checks them:
        :class:`gecformats.metrics.inputs.Correspondence`)."""
        from gecformats.metrics.inputs import Correspondence, GoldFit, align_hint, grams

        name = source_name(self.hypothesis)
        matching = Correspondence(name, self.gold, align_hint(name, self.gold))
        fit = GoldFit(self.gold)
        for number, (sentence, line) in pairs:
            fit.fit(number, sentence)  # refuses what no scorer can score; M2 drops the rest
            matching.add(number, line[0], grams(sentence.source), line[1])
            yield number, (sentence, line)

    def _on_engine(self, pairs: Iterable[tuple[int, tuple[Sentence, tuple[int, str]]]]
                   ) -> Iterator[ScoredSentence]:
        """The alignments on the engine's Dask workers, chunk by chunk; the annotator
        choice, which depends on the running totals, here in sentence order."""
        kept: deque[list[tuple[int, Sentence, str]]] = deque()  # what stays on the client
        settings = (self.max_unchanged_words, self.ignore_whitespace_casing, self.max_edges)
        # an input error met while a chunk is read (a line count that differs, ...) waits
        # until the sentences before it are scored: the local path would have failed at
        # one of those first (a lattice refused on a worker), and the two paths must agree
        pending: list[GecFormatError] = []

        def tasks() -> Iterator[Any]:
            def prepared() -> Iterator[tuple[int, Sentence, list[str], str, Any]]:
                try:
                    for number, (sentence, line) in pairs:
                        yield (number, sentence, *self._prepare(number, sentence, line[1]))
                except GecFormatError as exc:
                    pending.append(exc)
            size = self.engine.chunk_size(None, default=SCORE_CHUNK)
            for task in chunks(prepared(), size, settings):
                kept.append([(n, sentence, shown) for n, sentence, _, shown, _ in task[2]])
                yield task[0], task[1], [(sentence.source, tokens, gold)
                                         for _, sentence, tokens, _, gold in task[2]]

        s = self._scorer
        assert isinstance(s, CorpusScorer)
        for results in self.engine.map_chunks(score_chunk, tasks()):
            for (number, sentence, shown), result in zip(kept.popleft(), results):
                if not isinstance(result, SentenceResult):  # its lattice failed on the worker
                    self._lattice_failure(number, result)
                before = (s.correct, s.proposed, s.gold)
                choice = s.add_result(result)
                self._check_choice(number, choice)
                if self.counts is not None:
                    self.counts.append(tuple((a.correct, a.proposed, a.gold)
                                             for a in result.annotators))
                if self.types is not None:
                    self.types.add(sentence, result, choice.annotator)
                yield ScoredSentence(number, sentence.source, shown, result, choice, before,
                                     sentence)
        if pending:
            raise pending[0]

    def _prepare(self, number: int, sentence: Sentence, line: str
                 ) -> tuple[list[str], str, dict[int, list[Any]]]:
        """The hypothesis tokens, their shown form and the gold of one sentence."""
        if sentence.targets:
            self._refuse_targets(number)
        gold = maxmatch_gold(sentence)
        self._annotators.update(gold or (0,))
        n = len(sentence.source)
        beyond = sum(1 for edits in gold.values() for e in edits if e[0] > n or e[1] > n)
        if beyond:
            self._past_end[0] += beyond
            self._past_end[1] = self._past_end[1] or number
        if self.projector is not None:
            tokens = self.projector.project(sentence.source, line)
            shown = " ".join(tokens)
            self.check.add_segmented(sentence.source, line)
        elif self.tokenizer is not None:
            tokens = [t.text for t in self.tokenizer.tokenize(line)]
            shown = " ".join(tokens)
            self.check.add_retokenized(sentence.source, split_hypothesis(line), tokens)
            if self.tokenizer.name == "zh":
                self.check.add_segmented(sentence.source, line)
        else:
            tokens = split_hypothesis(line)
            shown = strip_hypothesis(line)
            self.check.add(sentence.source, tokens)
        return list(tokens), shown, gold

    def _lattice_failure(self, number: int, failure: tuple[str, str, int]) -> None:
        raise lattice_failure(self.hypothesis, number, failure)

    def _score(self, number: int, sentence: Sentence, line: str) -> ScoredSentence:
        tokens, shown, gold = self._prepare(number, sentence, line)
        s = self._scorer
        before = (s.correct, s.proposed, s.gold)
        try:
            if isinstance(s, ModeScorer):
                optional = optional_spans(sentence.annotators, len(sentence.source)) \
                    if self.bonus else None
                result, choice = s.add(sentence.source, tokens, gold, optional)
                if self.counts is not None:
                    self.counts.append(s.last_counts)
            else:
                result, choice = s.add(sentence.source, tokens, gold)
                if self.counts is not None:
                    self.counts.append(tuple((a.correct, a.proposed, a.gold)
                                             for a in result.annotators))
            if self.types is not None:
                self.types.add(sentence, result, choice.annotator)
            self._check_choice(number, choice)
        except maxmatch.LatticeTooLarge as exc:
            self._lattice_failure(number, ("too-large", str(exc), exc.limit))
        except maxmatch.LatticeError as exc:
            self._lattice_failure(number, ("lattice", str(exc), 0))
        return ScoredSentence(number, sentence.source, shown, result, choice, before, sentence)

    def _check_choice(self, number: int, choice: Any) -> None:
        """Count a sentence whose chosen annotator credits more than it can."""
        if choice.correct > min(choice.proposed, choice.gold):
            self._impossible[0] += 1
            self._impossible[1] = self._impossible[1] or number

    def _mismatch(self, _names: list[str], counts: list[int]) -> GecFormatError:
        sentences, lines = counts
        return count_mismatch(self.hypothesis, self.gold, lines, sentences)

    def _refuse_targets(self, number: int) -> None:
        line = next((n for n, text in numbered_lines(self.gold) if text[:1] == "T"), None)
        raise GecFormatError(
            f"sentence {number} has ChERRANT target (T) lines, which the M2 scorer refuses; "
            "keep the first alignment of each reference with "
            f"`gecformats convert --targets first {self.gold} GOLD.m2`", self.gold, line)

    def result(self) -> ScoreResult:
        """The corpus score; only after the iteration has run to its end.

        Raises:
            RuntimeError: the iteration has not finished.
        """
        if not self._done:
            raise RuntimeError("Scoring.result() needs the iteration to finish first")
        r = self._scorer.result()
        signature = Signature(self.beta, self.max_unchanged_words,
                              self.ignore_whitespace_casing, len(self._annotators),
                              segment=self.projector.version if self.projector else
                              f"tokenize+{self.tokenizer.name}-{self.tokenizer.version}"
                              if self.tokenizer else None,
                              mode=None if isinstance(self._scorer, CorpusScorer) else
                              self.mode + "+bonus" * self.bonus)
        notes = []
        if self._past_end[0]:
            notes.append(past_end_warning(self.gold, *self._past_end))
        if self._impossible[0]:
            notes.append(impossible_warning(self.gold, *self._impossible, r, self.hypothesis))
        return ScoreResult(r.precision, r.recall, r.f, r.beta, r.correct, r.proposed, r.gold,
                           self._scorer.count, signature, r.sentences,
                           tuple(i + 1 for i in r.warnings), tuple(self.input_warnings()),
                           self.types, tuple(self.counts or ()), gold_warnings=tuple(notes),
                           impossible=self._impossible[0])


    def input_warnings(self) -> list[str]:
        """Why the hypothesis looks wrong for this gold (untokenized English against a
        tokenized gold, unsegmented Chinese against a segmented one), each with the command
        that fixes it; empty when it looks right.  Only after the iteration."""
        return input_warnings(self.check, self.hypothesis, self.gold,
                              self.tokenizer.name if self.tokenizer is not None else None,
                              self.segment)


def input_warnings(check: InputCheck, hypothesis: str, gold: str, tokenizer: str | None,
                   segment: str | None = None) -> list[str]:
    """The warnings of a hypothesis that looks tokenized unlike its gold, or that
    ``--tokenize``/``--segment`` re-cut though it was cut like the gold already (``check``:
    what was seen; ``tokenizer``, ``segment``: the options used, if any), each with the
    command that fixes it."""
    fix = f"gecformats score {hypothesis} --gold {gold}"
    out = check.warnings(hypothesis, fix) if tokenizer is None and segment is None else []
    out += check.retokenizing_warnings(hypothesis, gold, fix, tokenizer, segment)
    if tokenizer == "zh" and check.zh_sources:
        from gecformats.convert.project import tokenizer_fits

        if not tokenizer_fits(check.zh_sources, "zh"):
            out.append(f"{hypothesis}: the gold's sources are not jieba's words (not a "
                       "gold made by `gecformats convert --tokenizer zh`), so --tokenize zh "
                       "turns differences of segmentation into edits and its score would be "
                       f"too low; segment it like the gold: {fix} --segment project")
    return out


def count_mismatch(hypothesis: str, gold: str, lines: int, sentences: int) -> GecFormatError:
    """The error of a hypothesis of ``lines`` lines for a gold of ``sentences`` sentences."""
    return GecFormatError(f"{_plural(lines, 'hypothesis line')} for "
                          f"{_plural(sentences, 'gold sentence')} in {gold} (one line per "
                          "sentence; a trailing empty line counts as a sentence); an output "
                          "with other sentence boundaries: score --align, or `gecformats "
                          "align`", hypothesis)


def past_end_warning(gold: str, count: int, first: int) -> str:
    """The warning of ``count`` gold edits past the end of their sentence, the first in
    sentence ``first``: the NUS scorer ignores them, and so does the score
    (:func:`gecformats.metrics.inputs.past_end_warning`)."""
    from gecformats.metrics.inputs import past_end_warning as warning

    return warning(gold, count, first)


def impossible_warning(gold: str, count: int, first: int, result: Any, hypothesis: str) -> str:
    """The warning of an impossible score of ``hypothesis``: in ``count`` sentences (the
    first is ``first``) the chosen annotator credits more correct edits than the system
    proposed or than it has gold edits, as a gold edit listed twice makes the NUS scorer
    do.  ``result`` has ``precision``, ``recall`` and ``f``."""
    return (f"{gold}: the score of {hypothesis} (P {result.precision:.4f} R {result.recall:.4f} "
            f"F {result.f:.4f}) is overstated: {_plural(count, 'sentence')} (first: sentence {first}) "
            f"{'credits' if count == 1 else 'credit'} more correct edits than the system "
            "proposed, as the NUS scorer does when the gold lists an edit twice; check the "
            f"gold with `gecformats validate {gold}` (score --strict refuses such a score)")


def lattice_failure(hypothesis: str, number: int, failure: tuple[str, str, int]
                    ) -> GecFormatError:
    """The error of sentence ``number`` (line ``number`` of ``hypothesis``) whose lattice
    the scorer refused: ``failure`` is ``("too-large", message, limit)`` for
    :class:`maxmatch.LatticeTooLarge`, ``("lattice", message, 0)`` for another
    :class:`maxmatch.LatticeError`.  Shared by ``score`` and the ``maxmatch`` drop-in."""
    kind, message, limit = failure
    if kind == "too-large":
        return GecFormatError(f"sentence {number}: {message}; raise the limit (gecformats "
                              f"score --max-edges, maxmatch --edge-limit) above {limit:,} "
                              "only with the memory for it (about 310 bytes per edge)",
                              hypothesis, number, "too-large")
    return GecFormatError(f"the scorer cannot handle this sentence: {message}",
                          hypothesis, number)


SCORE_CHUNK = 64
"""Sentences per task when scoring on a Dask engine."""


def score_chunk(task: tuple[tuple[int, bool, int | None], int, list[Any]]) -> list[Any]:
    """One task of ``score --engine dask``: evaluate a chunk of sentences against every
    annotator (:func:`maxmatch.score_sentence`, what :class:`~maxmatch.CorpusScorer` does
    before its choice); a sentence whose lattice fails gives ``(kind, message, limit)``."""
    (max_unchanged, ignore, max_edges), _first, items = task
    out: list[Any] = []
    for source, tokens, gold in items:
        try:
            out.append(maxmatch.score_sentence(source, tokens, gold,
                                               max_unchanged_words=max_unchanged,
                                               ignore_whitespace_casing=ignore,
                                               max_edges=max_edges))
        except maxmatch.LatticeTooLarge as exc:
            out.append(("too-large", str(exc), exc.limit))
        except maxmatch.LatticeError as exc:
            out.append(("lattice", str(exc), 0))
    return out


_GLUE = frozenset(".,!?;:")
_CJK = "[\u4e00-\u9fff]"
_SEGMENTED = "[\u4e00-\u9fff][^\\S\n]+[\u4e00-\u9fff]"


def _chinese(text: str) -> bool:
    """Whether ``text`` holds a CJK ideograph.  An ASCII text holds none: English input
    never compiles the pattern (milliseconds of start-up for its 20,992-character class)."""
    return not text.isascii() and re.search(_CJK, text) is not None


class InputCheck:
    """Counts of the signs that a hypothesis is not tokenized like its gold.

    * English: a hypothesis token that glues ``. , ! ? ; :`` to a word (``phone.``) in a
      sentence whose gold source has that mark as a token of its own;
    * Chinese: a hypothesis line without spaces (five characters or more) where the gold
      source of Chinese text has three tokens or more.
    """

    SHARE = 0.3
    """A warning is given when at least this share of the sentences that can show a sign
    show it (and at least :data:`MINIMUM` of them do)."""
    MINIMUM = 3

    def __init__(self) -> None:
        self.glue_seen = self.glued = 0
        self.zh_seen = self.unsegmented = 0
        self.raw_glue_seen = self.raw_glued = 0
        """With ``--tokenize``: the glue signs of the lines as given."""
        self.retokenized = self.changed = 0
        """With ``--tokenize``: lines tokenized, and those whose tokens it changed."""
        self.zh_lines = self.segmented = 0
        """With ``--segment``/``--tokenize zh``: lines with Chinese, and those already
        segmented (white space between Chinese characters)."""
        self.glue_example: str | None = None
        self.zh_example: str | None = None
        self.zh_sources: list[tuple[str, ...]] = []
        """The first Chinese gold sources seen: how the gold was segmented (the fix)."""

    def add_source(self, source: Sequence[str]) -> None:
        """Keep a gold source of Chinese text among :attr:`zh_sources` (up to
        :data:`ZH_SAMPLE`), to tell how the gold was segmented."""
        if len(self.zh_sources) < ZH_SAMPLE and len(source) >= 3 \
                and _chinese("".join(source[:3])):
            self.zh_sources.append(tuple(source))

    def add(self, source: Sequence[str], hypothesis: Sequence[str]) -> None:
        """Look at one sentence: its gold source tokens and the hypothesis tokens."""
        marks = _GLUE.intersection(source)
        if marks:
            self.glue_seen += 1
            glued = next((tok for tok in hypothesis if len(tok) > 1 and tok[-1] in marks
                          and tok[-2].isalnum()), None)
            if glued is not None:
                self.glued += 1
                self.glue_example = self.glue_example or glued
        if len(source) >= 3 and _chinese("".join(source[:3])):
            self.zh_seen += 1
            self.add_source(source)
            if len(hypothesis) == 1 and len(hypothesis[0]) >= 5:
                self.unsegmented += 1
                self.zh_example = self.zh_example or hypothesis[0][:12]

    def add_retokenized(self, source: Sequence[str], raw: Sequence[str],
                        tokens: Sequence[str]) -> None:
        """Look at one line that ``--tokenize`` tokenized: its gold source, its tokens as
        given (split on white space) and as tokenized."""
        marks = _GLUE.intersection(source)
        if marks:
            self.raw_glue_seen += 1
            self.raw_glued += any(len(t) > 1 and t[-1] in marks and t[-2].isalnum() for t in raw)
        self.retokenized += 1
        self.changed += tuple(raw) != tuple(tokens)

    def add_segmented(self, source: Sequence[str], line: str) -> None:
        """Look at one raw Chinese line that ``--segment project`` or ``--tokenize zh`` cuts:
        whether it was segmented already; keep its gold source (how the gold was cut)."""
        if _chinese(line):
            self.zh_lines += 1
            self.segmented += re.search(_SEGMENTED, line) is not None
        self.add_source(source)

    def retokenizing_warnings(self, name: str, gold: str, fix: str, tokenizer: str | None,
                              segment: str | None) -> list[str]:
        """The warnings of re-tokenizing or re-segmenting an output that already is, and of
        ``--segment project`` against a gold not segmented the NLPCC way; ``fix`` is the
        score command without the option."""
        out = []
        looks_tokenized = (self.raw_glue_seen >= self.MINIMUM
                           and self.raw_glued < self.SHARE * self.raw_glue_seen)
        if tokenizer == "en" and looks_tokenized and self.changed:
            out.append(f"{name}: already looks tokenized like the gold ({self.raw_glue_seen - self.raw_glued} "
                       f"of {self.raw_glue_seen} lines keep punctuation apart from words as the "
                       f"gold does), yet --tokenize en changed the tokens of {self.changed} of "
                       f"{self.retokenized} lines, which moves the score; score it as given: {fix}")
        option = "--segment project" if segment == "project" else \
            "--tokenize zh" if tokenizer == "zh" else None
        if option and self.segmented >= self.MINIMUM and self.segmented >= self.SHARE * self.zh_lines:
            out.append(f"{name}: {self.segmented} of {self.zh_lines} lines are already segmented "
                       f"(white space between Chinese words), yet {option} removes the spaces "
                       "and cuts them anew, which moves the score (NLPCC 2018's official 0.3649 "
                       f"becomes 0.3733); an output segmented as the gold is scored as given: {fix}")
        if segment == "project" and self.zh_sources:
            from gecformats.convert.project import tokenizer_fits

            if tokenizer_fits(self.zh_sources, "zh"):
                out.append(f"{gold}: the gold's sources are jieba's words (as `gecformats "
                           "convert --tokenizer zh` writes them), not NLPCC's segmentation that "
                           "--segment project approximates (a perfect output scores below 1); "
                           f"cut the output as the gold was: {fix} --tokenize zh")
        return out

    def warnings(self, name: str, fix: str) -> list[str]:
        """The warnings for hypothesis ``name``; ``fix`` is its score command so far."""
        out = []
        if self.glued >= self.MINIMUM and self.glued >= self.SHARE * self.glue_seen:
            out.append(f"{name}: {self.glued} of {self.glue_seen} lines glue punctuation to a "
                       f"word that the gold separates (e.g. {self.glue_example!r}): the output "
                       f"looks untokenized and its score too low; tokenize it like the gold: "
                       f"{fix} --tokenize en")
        if self.unsegmented >= self.MINIMUM and self.unsegmented >= self.SHARE * self.zh_seen:
            from gecformats.convert.project import tokenizer_fits

            if tokenizer_fits(self.zh_sources, "zh"):
                how = (f"the gold's sources are jieba's words (as `gecformats convert "
                       f"--tokenizer zh` writes them); segment it the same way: {fix} "
                       "--tokenize zh")
            else:
                how = f"segment it like the gold: {fix} --segment project"
            out.append(f"{name}: {self.unsegmented} of {self.zh_seen} lines are unsegmented "
                       f"Chinese (e.g. {self.zh_example!r}) against a segmented gold: its score "
                       f"would be too low; {how}")
        return out


ZH_SAMPLE = 100
"""Chinese gold sources :class:`InputCheck` keeps to tell how the gold was segmented."""


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def score_files(hypothesis: str | os.PathLike[str], gold: str | os.PathLike[str], *,
                beta: float = 0.5, max_unchanged_words: int = 2,
                ignore_whitespace_casing: bool = False, per_sentence: bool = False,
                progress: Callable[[ScoredSentence], None] | None = None,
                segment: str | None = None, segmenter: str = "zh",
                segment_map: Mapping[str, str] | None = None,
                max_edges: int | None = maxmatch.DEFAULT_MAX_EDGES,
                tokenize: str | None = None, per_type: bool = False,
                keep_counts: bool = False, mode: str = "correction",
                bonus: bool = False) -> ScoreResult:
    """Score a system output against an M2 gold file, bit for bit like the NUS m2scorer.

    Args:
        hypothesis: the system output, one tokenised sentence per line (UTF-8; CRLF line ends
            tolerated; ``.gz`` read transparently; ``-`` for standard input).
        gold: the M2 gold file (CoNLL, ERRANT or NLPCC dialect; CRLF tolerated).
        beta: β of F_β, used for the per-sentence annotator choice too.
        max_unchanged_words: the largest number of unchanged source tokens inside one edit.
        ignore_whitespace_casing: drop system edits that only change case or spacing.
        per_sentence: keep each sentence's chosen annotator and counts in ``choices``.
        progress: called with each :class:`ScoredSentence` as soon as it is scored.
        segment: ``"project"`` to score raw (unsegmented) Chinese output against a gold
            segmented by another tool (NLPCC 2018): see :class:`Scoring` and
            :mod:`gecformats.convert.project`.
        segmenter, segment_map: the projection's fallback segmenter (``zh`` or ``char``)
            and normalisation map.
        max_edges: the largest edit lattice of one sentence (``maxmatch.DEFAULT_MAX_EDGES``,
            about 800 MB); a sentence past it is refused, never scored differently.
        tokenize: ``"en"`` to tokenize raw English hypotheses with the ``en`` tokenizer
            first (recorded in the signature); ``None`` takes them as tokenized.
        per_type: keep the per-type breakdown (:class:`PerType`) in ``per_type``.
        keep_counts: keep every sentence's per-annotator counts in ``counts``, for
            :func:`gecformats.metrics.significance.resample`.
        mode, bonus: the HOO score and bonus (:mod:`gecformats.metrics.modes`).

    Returns:
        A :class:`ScoreResult` with P, R, F, the counts and the :class:`Signature`.

    Raises:
        GecFormatError: see :class:`Scoring`.
        ValueError: an unknown ``segment`` or ``segmenter``.
        OSError: a file cannot be read.
    """
    scoring = Scoring(hypothesis, gold, beta=beta, max_unchanged_words=max_unchanged_words,
                      ignore_whitespace_casing=ignore_whitespace_casing,
                      per_sentence=per_sentence, segment=segment, segmenter=segmenter,
                      segment_map=segment_map, max_edges=max_edges, tokenize=tokenize,
                      per_type=per_type, keep_counts=keep_counts, mode=mode, bonus=bonus)
    for scored in scoring:
        if progress is not None:
            progress(scored)
    return scoring.result()


def count_lines(path: str | os.PathLike[str]) -> int | None:
    """The number of hypothesis lines of ``path`` as :func:`read_hypothesis` counts them, read
    fast (for a progress bar); ``None`` for standard input or an unreadable file."""
    name = os.fspath(path)
    if name == "-":
        return None
    try:
        with open_binary(name) as fh:
            count, last = 0, b"\n"
            for block in iter(lambda: fh.read(1 << 20), b""):
                count += block.count(b"\n")
                last = block[-1:]
    except OSError:
        return None
    return count + (last != b"\n")


def format_m2scorer(result: ScoreResult) -> str:
    """The reference's three result lines (spec §9.1), without a final newline:
    ``Precision   : 0.4162`` / ``Recall      : 0.2140`` / ``F_0.5       : 0.3501``."""
    return maxmatch.format_scores(result)


# ------------------------------------------------------------------------- rendering

FORMATS = ("text", "json", "m2scorer")
"""The renderings of a :class:`ScoreResult` (:func:`format_result`)."""


def format_result(result: ScoreResult, output_format: str = "text") -> str:
    """``result`` as ``text`` (for people: P, R, F, counts, signature), ``json`` (see
    :meth:`ScoreResult.to_dict`) or ``m2scorer`` (the reference's three lines), without a
    final newline.

    Raises:
        ValueError: an unknown format.
    """
    if output_format == "m2scorer":
        return format_m2scorer(result)
    if output_format == "json":
        from gecformats.io import json_text

        return json_text(result.to_dict(), ensure_ascii=False, indent=2)
    if output_format != "text":
        raise ValueError(f"unknown score format {output_format!r} (known: {', '.join(FORMATS)})")
    label = f"F{result.beta:g}"
    types = f"{result.per_type.format_text()}\n" if result.per_type is not None else ""
    ci = result.ci or {}

    def span(name: str) -> str:
        return f"  [{ci[name][0]:.4f}, {ci[name][1]:.4f}]" if name in ci else ""

    return (f"Precision  {result.precision:.4f}{span('precision')}\n"
            f"Recall     {result.recall:.4f}{span('recall')}\n"
            f"{label:<10} {result.f:.4f}{span('f')}\n"
            f"{result.correct} correct, {result.proposed} proposed, {result.gold} gold edits "
            f"in {result.sentences} sentences\n{types}"
            f"{result.signature}")


def write_per_sentence(result: ScoreResult, out: IO[str]) -> None:
    """The per-sentence table (``sentence  annotator  correct  proposed  gold``, tab-separated,
    1-based, the chosen annotator and its own counts) of a result scored with
    ``per_sentence=True``."""
    out.write("sentence\tannotator\tcorrect\tproposed\tgold\n")
    for number, c in enumerate(result.choices, 1):
        out.write(f"{number}\t{c.annotator}\t{c.correct}\t{c.proposed}\t{c.gold}\n")


def describe_sentence(scored: ScoredSentence) -> str:
    """The ``--verbose`` block of one sentence: the chosen annotator's edits and matches, and
    the other annotators' counts."""
    from maxmatch import shrink_edit

    chosen = next(a for a in scored.result.annotators if a.annotator == scored.choice.annotator)
    c = scored.choice
    lines = [
        f"sentence {scored.number}: annotator {c.annotator} chosen "
        f"({c.correct} correct, {c.proposed} proposed, {c.gold} gold)",
        f"  source     : {' '.join(scored.source)}",
        f"  hypothesis : {scored.hypothesis}",
        f"  edits      : {_edit_list(shrink_edit(e) for e in chosen.edits)}",
        f"  gold       : {_edit_list(chosen.gold_edits)}",
        f"  matched    : {_edit_list(chosen.matched)}",
    ]
    others = [a for a in scored.result.annotators if a is not chosen]
    if others:
        lines.append("  others     : " + ", ".join(
            f"annotator {a.annotator} {a.correct}/{a.proposed}/{a.gold}" for a in others))
    return "\n".join(lines) + "\n\n"


def _edit_list(edits: Iterator[tuple] | tuple) -> str:
    """``3:4 at -> on; 4:4 '' -> the|a``: offsets, original, correction(s)."""
    shown = []
    for start, end, orig, corr in edits:
        corrs = corr if isinstance(corr, tuple) else (corr,)
        shown.append(f"{start}:{end} {orig or chr(39) * 2} -> "
                     + "|".join(x or chr(39) * 2 for x in corrs))
    return "; ".join(shown) if shown else "-"


# ------------------------------------------------------------------------- several systems


def score_systems(hypotheses: Sequence[str | os.PathLike[str]], gold: str | os.PathLike[str],
                  **options: Any) -> list[ScoreResult]:
    """Score several system outputs against one M2 gold file, read once.

    The gold and every hypothesis are streamed in lockstep, each system with its own greedy
    annotator choice, so each result is exactly :func:`score_files` of that system.

    Args:
        hypotheses: the system outputs (at most one may be ``-``).
        gold: the M2 gold file.
        options: as for :class:`Scoring` (``beta``, ``max_unchanged_words``, ``segment`` ...).

    Returns:
        One :class:`ScoreResult` per hypothesis, in the order given.

    Raises:
        GecFormatError: as :class:`Scoring`, naming the hypothesis whose line count differs.
        ValueError: no hypothesis, or standard input twice.
    """
    if not hypotheses:
        raise ValueError("no hypothesis to score")
    if sum(os.fspath(h) == "-" for h in hypotheses) > 1:
        raise ValueError("only one hypothesis can be standard input ('-')")
    scorings = [Scoring(h, gold, **options) for h in hypotheses]
    first = scorings[0]
    first._project()
    for s in scorings[1:]:
        s.projector = first.projector  # one lexicon for all

    def mismatch(_names: list[str], counts: list[int]) -> GecFormatError:
        k = next(i for i in range(1, len(counts)) if counts[i] != counts[0])
        return scorings[k - 1]._mismatch([], [counts[0], counts[k]])

    if first.engine is not None:  # each system in turn, its alignments on the cluster
        for s in scorings:
            for _ in s:
                pass
        return [s.result() for s in scorings]
    streams: list[tuple[str, Iterator[Any]]] = [(first.gold, m2.read(first.gold))]
    streams += [(s.hypothesis, read_hypothesis(s.hypothesis)) for s in scorings]
    for number, (sentence, *lines) in enumerate(lockstep(streams, mismatch), 1):
        for s, line in zip(scorings, lines):
            s._score(number, sentence, line[1])
    for s in scorings:
        s._done = True
    return [s.result() for s in scorings]


SYSTEM_FORMATS = ("text", "json", "tsv", "latex")
"""The renderings of several systems' results (:func:`format_systems`)."""


def system_names(hypotheses: Sequence[str | os.PathLike[str]]) -> list[str]:
    """Each hypothesis' file name, or its whole path where two file names are the same."""
    bases = [os.path.basename(os.fspath(h)) or os.fspath(h) for h in hypotheses]
    return bases if len(set(bases)) == len(bases) else [os.fspath(h) for h in hypotheses]


def p_value_trials(result: ScoreResult) -> int | None:
    """How many resamples (``paired-bs``) or trials (``paired-ar``) the paired test of
    ``result`` ran, read from its signature; ``None`` when no paired test was run."""
    resampling = result.signature.resampling or ""
    fields = dict(part.split(":", 1) for part in resampling.split("|")[1:] if ":" in part)
    key = ("trials" if "paired-ar" in resampling
           else "resamples" if "paired-bs" in resampling else None)
    count = fields.get(key) if key is not None else None
    return int(count) if count is not None and count.isdigit() else None


def format_p_value(p: float, trials: int | None, decimals: int = 4, less: str = "<",
                   at_most: str = "<=", bound: bool = False) -> str:
    """``p`` rounded to ``decimals``, except the smallest value ``trials`` resamples can give,
    ``1 / (trials + 1)`` (none exceeded the observed difference): then the true p is only
    known to be at most that, printed as ``less`` the bound rounded up (``<0.0010`` for
    1,000 resamples), or ``at_most`` it when the bound is exact (``<=0.0010`` for 999).

    >>> format_p_value(1 / 1001, 1000), format_p_value(1 / 1001, 1000, 3, "$<$")
    ('<0.0010', '$<$0.001')
    >>> format_p_value(1 / 1000, 999), format_p_value(2 / 1001, 1000), format_p_value(0.5, None)
    ('<=0.0010', '0.0020', '0.5000')

    ``bound``: ``p`` is itself only an upper bound (Holm's adjustment of a p at the floor,
    :attr:`gecformats.metrics.statistics.Significance.p_bound`): printed as ``at_most`` it
    rounded up.

    >>> format_p_value(12 / 1001, 1000, bound=True)
    '<=0.0120'
    """
    scale = 10 ** decimals
    if bound and (trials is None or p > 1 / (trials + 1)):
        return at_most + f"{math.ceil(p * scale - 1e-9) / scale:.{decimals}f}"
    if trials is None or p > 1 / (trials + 1):
        return f"{p:.{decimals}f}"
    units = -(-scale // (trials + 1))  # 1 / (trials + 1) rounded up, in units of 10^-decimals
    shown = f"{units / scale:.{decimals}f}"
    return (at_most if units * (trials + 1) == scale else less) + shown


def format_systems(names: Sequence[str], results: Sequence[ScoreResult],
                   output_format: str = "text") -> str:
    """Several systems' results as one table, without a final newline.

    ``text``: a row per system (P, R, F, correct, proposed, gold) and the signature;
    ``json``: a list of the single-system objects (:meth:`ScoreResult.to_dict`) with their
    ``system`` name; ``tsv``: a header, a row per system and a ``#`` signature line;
    ``latex``: a ``tabular`` with the signature as a comment.  Results with intervals or
    p values (:func:`gecformats.metrics.significance.resample`) add interval columns of P,
    R and F and a p column (``base`` for the baseline); a p value at the resampling floor
    is printed as a bound (:func:`format_p_value`: ``<0.0010``, LaTeX ``$<$0.001``).

    Raises:
        ValueError: an unknown format.
    """
    if output_format == "json":
        from gecformats.io import json_text

        return json_text([{"system": n, **r.to_dict()} for n, r in zip(names, results)],
                          ensure_ascii=False, indent=2)
    label = f"F{results[0].beta:g}" if results else "F"
    signature = str(results[0].signature) if results else ""
    has_ci = any(r.ci is not None for r in results)
    has_p = any(r.p_value is not None for r in results)
    measures = (("precision", "P"), ("recall", "R"), ("f", label))

    def cis(r: ScoreResult, template: str, scale: float = 1.0, empty: str = "") -> list[str]:
        return [template.format(scale * r.ci[m][0], scale * r.ci[m][1])
                if r.ci is not None and m in r.ci else empty for m, _ in measures]

    def p_text(r: ScoreResult, decimals: int = 4, base: str = "base", less: str = "<",
               at_most: str = "<=") -> str:
        if r.p_value is None:
            return base
        return format_p_value(r.p_value, p_value_trials(r), decimals, less, at_most, r.p_bound)

    if output_format == "tsv":
        rows = [f"system\tprecision\trecall\t{label}\tcorrect\tproposed\tgold"
                + "".join(f"\t{m if m != 'f' else label}_low\t{m if m != 'f' else label}_high"
                          for m, _ in measures) * has_ci + "\tp_value" * has_p]
        rows += [f"{n}\t{r.precision:.4f}\t{r.recall:.4f}\t{r.f:.4f}\t{r.correct}\t{r.proposed}\t"
                 f"{r.gold}" + "".join(cis(r, "\t{:.4f}\t{:.4f}", empty="\t\t")) * has_ci
                 + ("\t" + p_text(r, base="")) * has_p for n, r in zip(names, results)]
        return "\n".join(rows + [f"# {signature}"])
    if output_format == "latex":
        from gecformats.metrics.render import latex_note, tex

        f_head = f"$F_{{{results[0].beta:g}}}$" if results else "$F$"
        columns = "lrrr" + "ccc" * has_ci + "r" * has_p
        head = (f"System & P & R & {f_head}"
                + f" & P 95\\% CI & R 95\\% CI & {f_head} 95\\% CI" * has_ci
                + " & $p$" * has_p + " \\\\") if results else ""
        rows = [rf"\begin{{tabular}}{{{columns}}}", r"\hline", head, r"\hline"]
        rows += [f"{tex(n)} & {100 * r.precision:.2f} & {100 * r.recall:.2f} & {100 * r.f:.2f}"
                 + "".join(" & " + c for c in cis(r, "[{:.2f}, {:.2f}]", 100)) * has_ci
                 + (" & " + p_text(r, 3, "--", "$<$", "$\\leq$")) * has_p + " \\\\"
                 for n, r in zip(names, results)]
        return "\n".join(rows + [r"\hline", r"\end{tabular}", *latex_note([signature])])
    if output_format != "text":
        raise ValueError(f"unknown format {output_format!r} (known: {', '.join(SYSTEM_FORMATS)})")
    width = max([len("system"), *map(len, names)])
    p_texts = [p_text(r) for r in results]
    p_width = max([6, *map(len, p_texts)])
    rows = [f"{'system':<{width}}  {'P':>6}  {'R':>6}  {label:>6}  {'correct':>7}  "
            f"{'proposed':>8}  {'gold':>6}"
            + "".join(f"  {short + ' 95% CI':<16}" for _, short in measures) * has_ci
            + f"  {'p':>{p_width}}" * has_p]
    rows += [f"{n:<{width}}  {r.precision:6.4f}  {r.recall:6.4f}  {r.f:6.4f}  {r.correct:>7}  "
             f"{r.proposed:>8}  {r.gold:>6}"
             + "".join(f"  {c:<16}" for c in cis(r, "[{:.4f}, {:.4f}]")) * has_ci
             + f"  {p:>{p_width}}" * has_p for n, r, p in zip(names, results, p_texts)]
    rows = [row.rstrip() for row in rows]
    return "\n".join(rows + [signature])

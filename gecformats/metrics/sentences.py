"""Sentence-level scores for training loops: one gold prepared once, any number of
hypothesis lists scored against it, each sentence's record as ``score --per-sentence``
gives it.

:class:`SentenceScorer` reads the gold and runs the metric's first pass and
:meth:`~gecformats.metrics.base.Metric.prepare` once; each :meth:`SentenceScorer.score`
then does only the per-sentence step (for M2 the lattice search, which a compiled core
speeds up without any change here), the metric's own choice of candidates (M2's greedy
choice against the running totals, as the NUS scorer makes it, so the chosen annotator of a
sentence depends on the sentences before it; SentM2 chooses per sentence alone) and the
records.  The statistics, choices and fields are the pipeline's
(:func:`~gecformats.metrics.pipeline.evaluate`) for the same inputs, so the records equal
``score --per-sentence``'s rows.

>>> scorer = SentenceScorer("fixtures/score/sample.m2", "sentm2")
>>> [round(s.f, 4) for s in scorer.score("fixtures/score/sample.hyp")]
[0.7143, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gecformats.errors import GecFormatError, GecFormatWarning, UsageError
from gecformats.metrics.base import GoldView, Hypothesis, Metric, SystemFailure, Totals
from gecformats.model import Sentence


@dataclass(frozen=True, slots=True)
class SentenceScore:
    """One sentence's score.

    Attributes:
        index: the sentence's position, from 0 (``score --per-sentence`` numbers from 1).
        score: the sentence's own score, the metric's
            :attr:`~gecformats.metrics.base.Metric.sentence_score` field (F for M2, SentM2,
            ERRANT, SentERRANT, CLEME and GoToScorer; ``gleu``; ``green``; CLEME2.0's
            ``combined``), or ``None`` for a metric without one (the I-measure).
        fields: everything the metric says of the sentence, in order: the columns of
            ``score --per-sentence`` and, for M2 and ERRANT, the sentence's ``p``, ``r``,
            ``f`` (M2: ``annotator``, ``correct``, ``proposed``, ``gold``, ``p``, ``r``,
            ``f``).

    Each field is also an attribute: ``s.annotator``, ``s.f``, ``s.gleu``.
    """

    index: int
    score: float | None
    fields: Mapping[str, Any]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("index", "score", "fields"):
            raise AttributeError(name)  # not a field (copy and pickle look these up)
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r} (its "
                                 f"fields: {', '.join(self.fields)})") from None


def sentence_records(metric: Metric, stats: Sequence[Any], totals: Totals
                     ) -> list[SentenceScore]:
    """The :class:`SentenceScore` of every sentence of one system, from its statistics and
    its corpus totals (their :attr:`~gecformats.metrics.base.Totals.choices`)."""
    describe = metric.for_totals(totals)
    key = metric.sentence_score
    choices = totals.choices
    out = []
    for i, st in enumerate(stats):
        fields = describe.sentence_values(st, choices[i] if i < len(choices) else 0)
        out.append(SentenceScore(i, fields.get(key) if key is not None else None, fields))
    return out


class SentenceScorer:
    """A gold file (or parsed gold sentences) prepared once for one metric, to score many
    hypothesis lists sentence by sentence.

    Args:
        gold: a token-level gold file (M2, I-measure XML, CoNLL; by its name or
            ``gold_format``), or its sentences (:class:`~gecformats.model.Sentence` s).
        metric: a metric name (:data:`gecformats.metrics.METRICS`) or a built metric.
        gold_format: the gold file's format when its name does not tell.
        tokenize: ``en``/``zh``: tokenize text hypotheses first (``score --tokenize``).
        check_sentences: refuse hypotheses whose lines stop matching the gold's sentences
            (``score --no-sentence-check`` turns it off).
        options: the metric's options by their command-line names (``beta``,
            ``max-unchanged-words``), as :func:`~gecformats.metrics.request.build_metrics`
            takes them.

    The gold's warnings (edits past the end of their sentence, the metric's notes) are kept
    in :attr:`warnings` and issued once, as :class:`~gecformats.errors.GecFormatWarning`.

    Raises:
        GecFormatError: a malformed gold, or a gold sentence the metric cannot score.
        UsageError: an unknown metric or option, a value the metric refuses.
    """

    def __init__(self, gold: str | os.PathLike[str] | Iterable[Sentence],
                 metric: str | Metric = "m2", *, gold_format: str | None = None,
                 tokenize: str | None = None, check_sentences: bool = True,
                 options: Mapping[str, Any] | None = None) -> None:
        from gecformats.metrics.inputs import GoldFit, grams
        from gecformats.metrics.pipeline import _Failure, _Hypotheses, _read_gold
        from gecformats.metrics.request import build_metrics

        if isinstance(metric, Metric):
            if options:
                raise UsageError("options go with a metric name, not with a built metric")
            self.metric = metric
        else:
            given = dict(options or {})
            if "filter" in given:
                given["filter"] = tuple(given["filter"])
            self.metric = build_metrics([metric], given, list(given))[0]
        on_file = isinstance(gold, (str, os.PathLike))
        self.gold = os.fspath(gold) if on_file else "<sentences>"  # type: ignore[arg-type]
        if hasattr(self.metric, "gold_format"):  # those that read the gold themselves
            self.metric.gold_format = gold_format if on_file else "m2"
        fit = GoldFit(self.gold)
        read = _read_gold(self.gold, gold_format) if on_file else iter(gold)  # type: ignore[arg-type]
        self.sentences: list[Sentence] = [fit.fit(n, s) for n, s in enumerate(read, 1)]
        units = self.sentences
        self.metric.setup(self.gold, GoldView(lambda: iter(units), {}))
        self.prepared: list[Any] = []
        for number, sentence in enumerate(self.sentences, 1):
            try:
                self.prepared.append(self.metric.prepare(sentence))
            except GecFormatError as exc:
                if not on_file:  # nothing to read a line from
                    raise GecFormatError(f"sentence {number}: {exc.message}", self.gold,
                                         None, exc.kind) from None
                raise _Failure(exc, None).error([], self.gold, number) from None
        self._sources = [grams(s.source) for s in self.sentences] if check_sentences else None
        # the reader of hypotheses given as strings (never M2, never a file)
        self._reader = _Hypotheses(["<hypotheses>"], self.gold, tokenize, None, "zh", None,
                                   reader=lambda _: iter(()))
        self.tokenize = tokenize
        self.warnings: list[str] = fit.warnings() + self.metric.warnings()
        for warning in self.warnings:
            warnings.warn(warning, GecFormatWarning, stacklevel=2)

    def __len__(self) -> int:
        """The number of gold sentences."""
        return len(self.sentences)

    def score(self, hypotheses: str | os.PathLike[str] | Iterable[str]) -> list[SentenceScore]:
        """Score one system's output, sentence by sentence.

        Args:
            hypotheses: a hypothesis file (text, one sentence a line, read as ``score``
                reads it; or M2, its first annotator), or the hypothesis sentences as
                strings (tokens separated by white space, or raw text with ``tokenize``).

        Returns:
            One :class:`SentenceScore` per gold sentence, in order; equal to the rows of
            ``gecformats score HYP --gold GOLD --metric METRIC --per-sentence FILE``.

        Raises:
            GecFormatError: another number of hypotheses than gold sentences, lines that
                are not the gold's sentences, a sentence the metric cannot score (located).
            OSError: the file cannot be read.
        """
        name, hyps = self._hypotheses(hypotheses)
        stats = self._statistics(name, hyps)
        stats = self.metric.complete([stats])[0]
        totals = self.metric.corpus(stats, choices=True)
        return sentence_records(self.metric, stats, totals)

    def _hypotheses(self, hypotheses: str | os.PathLike[str] | Iterable[str]
                    ) -> tuple[str, list[Hypothesis]]:
        """The hypotheses' name and each one as the pipeline makes it, checked against the
        gold's sentences as ``score`` checks them."""
        from gecformats.metrics.inputs import Correspondence, align_hint
        from gecformats.metrics.pipeline import _count_error, _Hypotheses
        from gecformats.metrics.score import InputCheck

        if isinstance(hypotheses, (str, os.PathLike)):
            name = os.fspath(hypotheses)
            reader = _Hypotheses([name], self.gold, self.tokenize, None, "zh", None)
            items = list(reader.lines(0))
        else:
            name, reader = "<hypotheses>", self._reader
            items = list(enumerate(hypotheses, 1))
        if len(items) != len(self.sentences):
            raise _count_error(name, self.gold, len(items), len(self.sentences))
        check = InputCheck()
        matching = Correspondence(name, self.gold, align_hint(name, self.gold)) \
            if self._sources is not None else None
        out = []
        for number, (gold, item) in enumerate(zip(self.sentences, items), 1):
            if matching is not None:
                line, text = reader.text(0, item)
                matching.add(number, line, self._sources[number - 1], text)  # type: ignore[index]
            out.append(reader.hypothesis(0, number, gold, item, check))
        for warning in reader.warnings(0, check):
            warnings.warn(warning, GecFormatWarning, stacklevel=3)
        return name, out

    def _statistics(self, name: str, hyps: Sequence[Hypothesis]) -> list[Any]:
        """The metric's per-sentence statistics of one system (the pipeline's step)."""
        from gecformats.metrics.pipeline import _Failure

        rows: list[Any] = []
        try:
            for row in self.metric.sentences(self.prepared, [(h,) for h in hyps]):
                rows.append(row[0])
        except SystemFailure as exc:
            raise _Failure(exc.error, exc.system).error([name], self.gold,
                                                        len(rows) + 1) from None
        return rows

"""The one shape every metric has: per-sentence sufficient statistics, then a corpus step.

A GEC corpus score is not a sum of sentence scores: each metric chooses, for every
sentence, one of several candidates (an annotator, a reference, a pair of annotators) by
its own rule, often against the running corpus totals.  So a metric here is split in the
two steps sacrebleu splits BLEU in, adapted to that choice:

* :meth:`Metric.prepare` turns a gold sentence into what the metric needs of it, once for
  every system (the annotators' gold edits, the references' n-grams, the candidates of
  the I-measure);
* :meth:`Metric.sentence` does the expensive work for one system's hypothesis (lattice
  search, alignment, n-gram matching) and returns **plain sufficient statistics** (tuples
  of numbers, picklable) with one entry per candidate the metric may choose between;
* :meth:`Metric.corpus` turns a sequence of statistics, visited in corpus order with given
  weights (how often each sentence is in the corpus: all 1 for the corpus itself, bootstrap
  counts for a resample), into the score, redoing the metric's own choice.

Everything else — reading the gold once, several systems in lockstep, engines, tables,
bootstrap intervals, paired tests, per-sentence output, progress — is written once, in
:mod:`~gecformats.metrics.pipeline`, :mod:`~gecformats.metrics.statistics` and
:mod:`~gecformats.metrics.render`, for every metric.

>>> from gecformats.metrics.base import Totals
>>> Totals((0.5, 0.25, 0.4167), {"correct": 1}, (0, 1)).values[0]
0.5
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gecformats.errors import GecFormatError
from gecformats.model import Sentence


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """One system's output for one sentence, as the pipeline gives it to every metric.

    ``tokens``: the corrected sentence's tokens as the M2 scorer splits a line (or
    tokenized/projected when ``score --tokenize/--segment`` asks; for an M2 hypothesis,
    its first annotator's corrected text); ``line``: the line as read, without its newline
    and otherwise untouched (metrics with their own splitting, as GLEU's bytes split, start
    from it; for an M2 hypothesis, the corrected tokens joined by spaces); ``sentence``: for
    a hypothesis file in M2, the system's annotated sentence (its edits and types), else
    ``None``."""

    tokens: tuple[str, ...]
    line: str
    sentence: Sentence | None = None


@dataclass(frozen=True, slots=True)
class Totals:
    """What :meth:`Metric.corpus` returns.

    ``values``: the scores in the order of :attr:`Metric.columns`; ``counts``: the summed
    counts behind them (named, e.g. ``correct``/``proposed``/``gold``), for the tables and
    JSON; ``choices``: per sentence, the index of the candidate chosen (only when asked
    for, i.e. on the corpus itself, for per-type and per-sentence output); ``extra``: what
    else the metric reports (per-type tables, the baseline's scores of the I-measure …)."""

    values: tuple[float, ...]
    counts: Mapping[str, int | float] = field(default_factory=dict)
    choices: tuple[int, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


class Metric(ABC):
    """A metric: its name, columns and options, and its two steps.

    A subclass is built from the options the user gave (each also a field of
    :meth:`signature`); it must be picklable (the per-sentence step runs in worker
    processes and on Dask workers)."""

    name: ClassVar[str]
    """The ``--metric`` value: ``m2``, ``errant``, ``gleu``, ``imeasure``."""
    label: ClassVar[str]
    """How tables name the metric (``M2``, ``ERRANT``, ``GLEU``, ``I-measure``)."""
    columns: ClassVar[tuple[str, ...]]
    """The names of the values of :attr:`Totals.values` (``precision``, ``recall``, ``f``)."""
    main: ClassVar[str]
    """The column intervals and tests are about when one is meant (``f``, ``gleu``, ``i``)."""
    options: ClassVar[frozenset[str]] = frozenset()
    """The command-line options (without ``--``) this metric takes; the command refuses an
    option that no chosen metric takes."""
    declines: ClassVar[Mapping[str, str]] = {}
    """Options other chosen metrics take that a user would expect this metric to follow but
    it does not, with why (GoToScorer's F is F0.5 whatever ``--beta`` says): given with
    this metric among the chosen ones, the command refuses them, naming it."""
    needs_edits: ClassVar[bool] = False
    """Whether :meth:`sentence` reads :attr:`Hypothesis.sentence` (the system's own edits)
    when the hypothesis file is M2."""

    @classmethod
    def qualifiers(self) -> list[str]:
        """The settings a table's column heads name beside :attr:`label`, where they change
        what the columns mean (M2's ``detection``, ERRANT's ``ds``); empty for the defaults."""
        return []

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Metric:
        """The metric built from command-line options (names without ``--``, only those it
        takes and the user gave): each becomes the keyword of its name with ``_`` for ``-``.

        Raises:
            ValueError: a value the metric refuses.
        """
        return cls(**{k.replace("-", "_"): v for k, v in options.items()})

    @abstractmethod
    def prepare(self, gold: Sentence) -> Any:
        """What the metric needs of one gold sentence, made once for every system
        (picklable).

        Raises:
            GecFormatError: the gold sentence cannot be scored by this metric.
        """

    @abstractmethod
    def sentence(self, prepared: Any, hypothesis: Hypothesis) -> Any:
        """The sufficient statistics of one hypothesis of one sentence: plain picklable
        values, one entry per candidate the corpus step chooses between.

        Raises:
            GecFormatError: the sentence cannot be scored (e.g. a lattice past its bound).
        """

    def sentences(self, prepared: Sequence[Any], hypotheses: Sequence[Sequence[Hypothesis]]
                  ) -> Iterator[list[Any]]:
        """The per-sentence step on a chunk: for each sentence ``i``, in order, the list
        ``[sentence(prepared[i], h) for h in hypotheses[i]]`` (every system's statistics).
        The default calls :meth:`sentence`, sentence by sentence; a metric that gains by
        seeing the chunk at once (ERRANT's spaCy parses, batched) overrides it, with equal
        results.

        Raises:
            SystemFailure: hypothesis ``system`` of the next sentence (the one after the
                rows yielded) cannot be scored.
        """
        for p, hyps in zip(prepared, hypotheses):
            row = []
            for s, hyp in enumerate(hyps):
                try:
                    row.append(self.sentence(p, hyp))
                except GecFormatError as exc:
                    raise SystemFailure(exc, s) from None
            yield row

    @abstractmethod
    def corpus(self, stats: Sequence[Any], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """The corpus score of ``stats`` (one system, every sentence in corpus order),
        sentence ``i`` counted ``weights[i]`` times (default: once), with the metric's own
        choice among each sentence's candidates.  ``choices``: also give the per-sentence
        choices (only with ``weights`` None)."""

    @abstractmethod
    def signature(self) -> str:
        """Every option that changes the number, as ``metric:m2|beta:0.5|…``."""

    def resampler(self, stats: Sequence[Any]) -> Any:
        """A fast corpus step over many weight vectors for one system: an object with
        ``scores(weights) -> list[tuple[float, ...]]`` where ``weights`` is a sequence of
        weight vectors (rows).  The default calls :meth:`corpus` once per row; metrics
        with vectorised arithmetic override it (the result must be equal)."""
        return _Looping(self, stats)

    def swapper(self, a: Sequence[Any], b: Sequence[Any]) -> Any:
        """A fast pair of corpus steps for approximate randomisation between systems ``a``
        and ``b``: an object with ``scores(swaps) -> (xs, ys)`` where each row of ``swaps``
        (0/1 per sentence) builds ``x`` from ``a`` with the sentences marked 1 taken from
        ``b``, and ``y`` the other way round; ``xs``/``ys`` are their values per row.  The
        default calls :meth:`corpus` twice per row; metrics with vectorised arithmetic
        override it (the result must be equal)."""
        return _LoopingSwap(self, a, b)

    def for_totals(self, totals: Totals) -> Metric:
        """The metric whose :meth:`sentence_fields` describe the sentences of the system
        whose corpus step gave ``totals`` (a metric whose sentence values depend on the
        whole corpus, as CLEME's length weights, fixes them from ``totals``).  Default:
        the metric itself."""
        return self

    def sentence_fields(self, stats: Any, choice: int) -> dict[str, Any]:
        """The per-sentence output of one sentence whose candidate ``choice`` was chosen:
        plain values (columns of ``--per-sentence``)."""
        return {"choice": choice}

    sentence_score: ClassVar[str | None] = None
    """The field of :meth:`sentence_values` that is the sentence's own score (``f``,
    ``gleu`` …), or ``None`` for a metric without one."""

    def sentence_values(self, stats: Any, choice: int) -> dict[str, Any]:
        """What :func:`gecformats.sentence_scores` gives of one sentence: the
        :meth:`sentence_fields`, and where they leave it out the sentence's own score
        (M2's and ERRANT's ``p``, ``r``, ``f`` of the chosen counts).  Default: the
        :meth:`sentence_fields`."""
        return self.sentence_fields(stats, choice)

    def setup(self, gold: str, view: GoldView | None = None) -> None:
        """Read what the metric needs of the whole gold file before the sentences are
        scored: a first, streaming pass (GLEU's annotator ids and absent-annotator policy,
        the projection lexicon of ``--segment project``).  ``view``, from the pipeline:
        the gold's units as :meth:`prepare` will get them (gold edits that do not fit left
        out, documents merged with ``--unit document``) and the pipeline's options, for a
        metric that runs it itself (GoToScorer's ``--weights-from``).  Default: nothing.

        Raises:
            GecFormatError: the gold does not suit the metric.
        """

    def complete(self, stats: list[list[Any]]) -> list[list[Any]]:
        """Finish the statistics with what needs every system's (``stats[system][sentence]``,
        called once after the per-sentence step, before any corpus step): GoToScorer's
        chunk weights, made from the outputs of all the systems.  Returns the statistics the
        corpus steps, resamples and per-sentence output then use; they stay fixed.
        Default: ``stats`` unchanged.

        Raises:
            GecFormatError: what the whole does not allow (weights that do not fit).
        """
        return stats

    def warnings(self) -> list[str]:
        """What makes this metric's number doubtful on this gold (each naming the
        command that fixes or checks it); called once after every sentence is scored."""
        return []


@dataclass(frozen=True)
class GoldView:
    """The gold as the pipeline gives it to :meth:`Metric.prepare`, for
    :meth:`Metric.setup`'s first pass.

    Attributes:
        units: a new iterator over the gold's units at each call (sentences, or documents
            with ``--unit document``; gold edits that do not fit left out, not warned
            about again).
        options: the keyword arguments of :func:`~gecformats.metrics.pipeline.evaluate`
            that shape the units and hypotheses (``unit``, ``align``), for a metric that
            runs the pipeline itself.
    """

    units: Callable[[], Iterable[Sentence]]
    options: Mapping[str, Any] = field(default_factory=dict)


class SystemFailure(Exception):
    """What :meth:`Metric.sentences` raises when one hypothesis cannot be scored: the
    :class:`~gecformats.errors.GecFormatError` (``error``) and the system's index
    (``system``); the sentence is the one after those yielded."""

    def __init__(self, error: GecFormatError, system: int) -> None:
        super().__init__(error.message)
        self.error, self.system = error, system


class _Looping:
    """:meth:`Metric.resampler`'s default: the corpus step, once per weight vector."""

    def __init__(self, metric: Metric, stats: Sequence[Any]) -> None:
        self.metric = metric
        self.stats = list(stats)

    def scores(self, weights: Sequence[Sequence[int]]) -> list[tuple[float, ...]]:
        return [self.metric.corpus(self.stats, list(map(int, w))).values for w in weights]


class _LoopingSwap:
    """:meth:`Metric.swapper`'s default: two corpus steps per row of swaps."""

    def __init__(self, metric: Metric, a: Sequence[Any], b: Sequence[Any]) -> None:
        self.metric = metric
        self.a, self.b = list(a), list(b)

    def scores(self, swaps: Sequence[Sequence[int]]
               ) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
        xs, ys = [], []
        for row in swaps:
            x = [bi if s else ai for ai, bi, s in zip(self.a, self.b, row)]
            y = [ai if s else bi for ai, bi, s in zip(self.a, self.b, row)]
            xs.append(self.metric.corpus(x).values)
            ys.append(self.metric.corpus(y).values)
        return xs, ys

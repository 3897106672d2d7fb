"""The Python front door: :func:`score`, :func:`read`, :func:`write`, :func:`convert`,
:func:`validate` and :func:`sentence_scores`, re-exported by :mod:`gecformats`.

Each function is the command line's library path, called from Python: :func:`score` makes
the same :class:`~gecformats.metrics.request.ScoreRequest` as ``gecformats score`` and runs
it the same way (:func:`~gecformats.metrics.request.run_score`), so ``score(...).to_json()``
is what ``gecformats score … --format json`` prints; :func:`convert` is
:func:`gecformats.convert.pipeline.convert`, :func:`validate` is
:func:`gecformats.validate.validate`.  Errors are :class:`~gecformats.errors.GecFormatError`
with the file and line, as on the command line (:class:`~gecformats.errors.UsageError`,
a subclass, for a request that is wrong whatever the data).

Nothing heavy is imported here: ``import gecformats`` stays cheap for the command line.

>>> import gecformats
>>> results = gecformats.score("fixtures/score/sample.hyp", "fixtures/score/sample.m2")
>>> round(results.to_dict()["f"], 4)
0.8621
"""

from __future__ import annotations

import os
import warnings as _warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gecformats.errors import GecFormatWarning, UsageError

if TYPE_CHECKING:
    from gecformats.metrics.sentences import SentenceScore, SentenceScorer
    from gecformats.report import Report
    from gecformats.validate import Problem

PathLike = str | os.PathLike[str]

_SCORE_PARAMETERS = frozenset({
    "gold_format", "tokenize", "segment", "segmenter", "segment_map", "strict", "align",
    "unit", "jobs", "trials", "correction", "extractor", "spacy_model"})
"""The keywords of :func:`score` beyond its named ones that are the pipeline's (the rest of
``**options`` are the metrics' options)."""


def _option_name(name: str) -> str:
    """A Python keyword's command-line option name: ``max_unchanged_words`` →
    ``max-unchanged-words``, ``lambda_`` → ``lambda``, ``filters`` → ``filter``."""
    name = name.rstrip("_").replace("_", "-")
    return {"filters": "filter", "lam": "lambda"}.get(name, name)


def _metric_options(options: Mapping[str, Any], metrics: Sequence[str]) -> dict[str, Any]:
    """``options`` (Python keywords) by their command-line names, refusing those that no
    chosen metric takes, as the command line refuses them but in Python's words.

    Raises:
        UsageError: an unknown keyword, or one that no chosen metric takes (naming those
            that would).
    """
    from gecformats.metrics.request import metric_class, takers

    classes = [metric_class(m) for m in metrics]
    out: dict[str, Any] = {}
    for key, value in options.items():
        name = _option_name(key)
        if not any(name in cls.options for cls in classes):
            who = takers(name)
            if not who:
                raise UsageError(f"unknown option {key}= (the metrics' options are the "
                                 "command line's, with _ for -: max_unchanged_words=3, "
                                 "errant_mode='ds' …)")
            raise UsageError(f"{key}= goes with metric {' or '.join(map(repr, who))}, not "
                             f"with {', '.join(map(repr, metrics))}")
        out[name] = list(value) if name == "filter" else value
    return out


def score(hypotheses: PathLike | Sequence[PathLike], gold: PathLike | None = None, *,
          source: PathLike | None = None, refs: Sequence[PathLike] | None = None,
          metrics: str | Sequence[str] = ("m2",), ci: bool = False, paired: str | None = None,
          resamples: int = 1000, seed: int = 12345, **options: Any) -> Results:
    """Score system outputs against a gold file, as ``gecformats score`` does.

    Args:
        hypotheses: one system output or several (text, one tokenised sentence a line,
            ``.gz`` read transparently; or M2 files, their first annotator); the first is
            the baseline of a paired test.
        gold: the gold file (M2, I-measure XML, CoNLL; by its name or ``gold_format``).
        source, refs: instead of ``gold``: the source sentences and corrected texts (text
            references; reference k is annotator k), edits extracted with ``extractor``.
        metrics: metric names (:data:`gecformats.metrics.METRICS`): ``m2`` (default),
            ``errant``, ``gleu``, ``imeasure``, ``green``, ``gotoscorer``, ``sentm2``,
            ``senterrant``, ``cleme``, ``cleme2``; a column group each.
        ci: 95 % bootstrap intervals (``--ci``).
        paired: ``"bs"`` (paired bootstrap, ``--paired-bs``) or ``"ar"`` (approximate
            randomisation, ``--paired-ar``) of each system against the first.
        resamples, seed: the bootstrap's resamples and the seed of resamples and trials.
        options: the command line's other options by their Python names: the metrics'
            (``beta=1.0``, ``max_unchanged_words=3``, ``errant_mode="ds"``,
            ``gleu_version="2016"``, ``lambda_=0.1`` …) and the pipeline's
            (``gold_format``, ``tokenize``, ``segment``, ``segmenter``, ``segment_map``,
            ``strict``, ``align``, ``unit``, ``jobs``, ``trials``, ``correction``,
            ``extractor``, ``spacy_model``, ``check_sentences=False`` for
            ``--no-sentence-check``).

    Returns:
        The :class:`Results`, which render as the command line prints them.  Its warnings
        (what makes a number doubtful) are also issued as
        :class:`~gecformats.errors.GecFormatWarning` (``strict=True`` makes the first one
        an error, as ``--strict``); the notes (what was done to the inputs) are only kept.

    Raises:
        GecFormatError: bad input, located by file and line.
        UsageError: a wrong request: options that exclude each other, an unknown option or
            one no chosen metric takes, a value out of range.
        OSError: a file cannot be read.
    """
    from gecformats.metrics.request import make_request, run_score

    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if paired not in (None, "bs", "ar", "paired-bs", "paired-ar"):
        raise UsageError(f"paired={paired!r}: 'bs' (paired bootstrap) or 'ar' (approximate "
                         "randomisation)")
    test = paired[-2:] if paired else None
    files = [hypotheses] if isinstance(hypotheses, (str, os.PathLike)) else list(hypotheses)
    params: dict[str, Any] = {
        "hypotheses": [os.fspath(h) for h in files],
        "gold": os.fspath(gold) if gold is not None else None,
        "source": os.fspath(source) if source is not None else None,
        "ref": [os.fspath(r) for r in refs or []], "metric": names, "ci": ci,
        "paired_bs": test == "bs", "paired_ar": test == "ar", "resamples": resamples,
        "seed": seed}
    pipeline = {k: options.pop(k) for k in list(options) if k in _SCORE_PARAMETERS}
    if "check_sentences" in options:
        params["no_sentence_check"] = not options.pop("check_sentences")
    params.update(pipeline)
    given = _metric_options(options, names or ["m2"])
    given.update({_option_name(k): v for k, v in pipeline.items()
                  if k in ("extractor", "spacy_model")})  # metric options as well
    request = make_request(params, given)
    return Results(run_score(request))


class Results:
    """The scores of one :func:`score` call, rendered in any of ``score``'s formats without
    scoring again.

    ``str(results)`` is the text table; :meth:`to_json`, :meth:`to_latex`, :meth:`to_tsv`,
    :meth:`to_csv` are ``--format json``, ``latex``, ``tsv``, ``csv`` (each without the
    final newline the command line adds); :meth:`to_dict` is the JSON as Python objects;
    :meth:`to_pandas` a data frame.
    """

    def __init__(self, outcome: Any) -> None:
        self._outcome = outcome
        for warning in outcome.warnings:
            _warnings.warn(warning, GecFormatWarning, stacklevel=3)

    def render(self, output_format: str = "text") -> str:
        """The scores in ``output_format``: ``text``, ``json``, ``tsv``, ``csv``,
        ``latex``, ``m2scorer`` (M2, one system) or ``errant`` (ERRANT, one system) —
        what ``gecformats score --format FORMAT`` prints, without its final newline.

        Raises:
            UsageError: a format that cannot show these scores.
        """
        return str(self._outcome.render(output_format))

    def __str__(self) -> str:
        return self.render("text")

    def __repr__(self) -> str:
        run = self._outcome.evaluation
        return (f"<Results of {', '.join(m.name for m in run.metrics)} for "
                f"{', '.join(run.names)}: {run.sentences} sentences>")

    def to_json(self) -> str:
        """``--format json``: what ``gecformats score … --format json`` prints, without the
        final newline."""
        return self.render("json")

    def to_latex(self) -> str:
        """``--format latex`` (booktabs, scores × 100, the signatures as a note)."""
        return self.render("latex")

    def to_tsv(self) -> str:
        """``--format tsv``."""
        return self.render("tsv")

    def to_csv(self) -> str:
        """``--format csv``."""
        return self.render("csv")

    def to_dict(self) -> Any:
        """The JSON of :meth:`to_json` as Python objects (M2 alone on one system: one
        object; M2 alone on several: a list of them; otherwise ``{system: {metric:
        {...}}}``)."""
        import json

        return json.loads(self.to_json())

    def to_pandas(self) -> Any:
        """A :class:`pandas.DataFrame`, a row per system (the index) and the columns of
        the CSV (``m2_P``, ``m2_R``, ``m2_F0.5``, with intervals ``…_low``/``…_high``, with
        a test ``…_p_value``) in full precision.  Needs pandas (not a dependency).

        Raises:
            ImportError: pandas is not installed.
        """
        import pandas as pd

        from gecformats.metrics.render import Table

        outcome = self._outcome
        rows = Table(outcome.evaluation, outcome.significance, outcome.resampling).records()
        return pd.DataFrame(rows).set_index("system")

    @property
    def signatures(self) -> list[str]:
        """The signatures the text shows, one per metric (every option that changes the
        number, the gold file's hash, the resampling)."""
        return list(self._outcome.signatures())

    @property
    def warnings(self) -> list[str]:
        """What makes a number doubtful (the command line's ``warning:`` lines), each
        once; also issued as :class:`~gecformats.errors.GecFormatWarning`."""
        return list(self._outcome.warnings)

    @property
    def notes(self) -> list[str]:
        """What was done to the inputs (the command line's ``note:`` lines: each output
        re-segmented with ``align=True``)."""
        return list(self._outcome.notes)

    @property
    def systems(self) -> list[str]:
        """The systems' names, as the table shows them."""
        return list(self._outcome.evaluation.names)

    def sentences(self, system: int | str = 0, metric: int | str = 0) -> list[SentenceScore]:
        """One system's per-sentence records for one metric (by position or name): the
        rows of ``--per-sentence`` as :class:`SentenceScore` s
        (:func:`sentence_scores`' records).

        Raises:
            KeyError: an unknown system or metric name.
        """
        from gecformats.metrics.sentences import sentence_records

        run = self._outcome.evaluation
        s = system if isinstance(system, int) else _position(run.names, system, "system")
        m = metric if isinstance(metric, int) else \
            _position([x.name for x in run.metrics], metric, "metric")
        return sentence_records(run.metrics[m], run.stats[m][s], run.totals[m][s])


def _position(names: Sequence[str], name: str, what: str) -> int:
    try:
        return list(names).index(name)
    except ValueError:
        raise KeyError(f"no {what} {name!r} (known: {', '.join(names)})") from None


def read(path: PathLike, format: str | None = None) -> Iterator[Any]:
    """The items of an annotation file, streamed: :class:`~gecformats.model.Sentence` s of
    token formats (M2, I-measure XML …), :class:`~gecformats.model.Document` s of character
    formats (HOO), :class:`~gecformats.model.Parallel` s of text formats.

    Args:
        path: the file (``.gz`` read transparently; some formats take a folder).
        format: a format name (:data:`gecformats.formats.NAMES`); default: from the name's
            suffix or the first line.

    Raises:
        UsageError: an unknown format, or one that cannot be told from the file.
        GecFormatError: malformed input (``FILE:LINE: message``), as the items are read.
    """
    from gecformats import formats

    name = format or formats.infer_input(path, f"gecformats.read({os.fspath(path)!r}, "
                                               "format='{format}')")
    return formats.get(name).read(path)  # type: ignore[no-any-return]


def write(items: Iterable[Any], path: PathLike, format: str | None = None,
          **options: Any) -> Report:
    """Write model items to a file in one format, whole or not at all.

    Args:
        items: what the format writes (see :func:`read`).
        path: the output (``-`` for standard output; a folder for some formats).
        format: a format name; default: from the suffix.
        options: the format writer's options.

    Returns:
        The :class:`~gecformats.report.Report`: what was written, dropped and noted.

    Raises:
        UsageError: an unknown format, one that cannot be told from the suffix.
        GecFormatError: items the format cannot hold.
    """
    from gecformats import formats

    return formats.get(format or formats.infer(path)).write(items, path, **options)


def convert(src: PathLike, dst: PathLike, *, from_: str | None = None, to: str | None = None,
            **options: Any) -> Report:
    """Convert an annotation file from one format to another, as ``gecformats convert``
    (:func:`gecformats.convert.pipeline.convert`, whose keywords ``options`` are:
    ``tokenizer``, ``sentences``, ``refs``, ``alternative``, ``absent``, ``extractor`` …).

    Returns:
        The :class:`~gecformats.report.Report`: ``report.counts`` holds what was read and
        written (sentences, annotators, edits), ``report.dropped`` what could not be kept.

    Raises:
        UsageError: an unknown format or option, a conversion that cannot be made.
        GecFormatError: malformed input, located by file and line.
    """
    from gecformats.convert.pipeline import convert as run

    return run(src, dst, from_format=from_, to_format=to, **options)


def validate(path: PathLike, format: str | None = None) -> list[Problem]:
    """Every problem of an annotation file, as ``gecformats validate`` lists them.

    Returns:
        The :class:`~gecformats.validate.Problem` s (file, line, sentence, kind, message),
        in file order; empty for a clean file.

    Raises:
        UsageError: an unknown format, or one that cannot be told from the file.
        OSError: the file cannot be read.
    """
    from gecformats import formats
    from gecformats.validate import validate as problems

    name = format or formats.infer_input(path, f"gecformats.validate({os.fspath(path)!r}, "
                                               "format='{format}')")
    return list(problems(path, name))


_SCORERS: OrderedDict[tuple[Any, ...], SentenceScorer] = OrderedDict()
"""The gold files :func:`sentence_scores` prepared last, by path, modification time, size,
metric and options."""
_KEEP = 4


def sentence_scorer(gold: PathLike | Iterable[Any], metric: str = "m2", **options: Any
                    ) -> SentenceScorer:
    """A :class:`~gecformats.metrics.sentences.SentenceScorer`: ``gold`` read and
    prepared once for ``metric``, to score many hypothesis lists
    (:meth:`~gecformats.metrics.sentences.SentenceScorer.score`).

    Args:
        gold: a token-level gold file, or its :class:`~gecformats.model.Sentence` s.
        metric: a metric name.
        options: the metric's options by Python names (as :func:`score`'s), and
            ``gold_format``, ``tokenize``, ``check_sentences``.

    Raises:
        GecFormatError: a malformed gold.
        UsageError: an unknown metric or option.
    """
    from gecformats.metrics.sentences import SentenceScorer

    own = {k: options.pop(k) for k in ("gold_format", "tokenize", "check_sentences")
           if k in options}
    given = _metric_options(options, [metric])
    source = gold if isinstance(gold, (str, os.PathLike)) else list(gold)
    return SentenceScorer(source, metric, options=given, **own)


def sentence_scores(hypotheses: PathLike | Iterable[str],
                    gold: PathLike | Iterable[Any] | SentenceScorer, metric: str = "m2",
                    **options: Any) -> list[SentenceScore]:
    """Each sentence's score of one system: the chosen candidate (annotator, reference),
    its counts and the sentence's own score, equal to the rows of ``gecformats score HYP
    --gold GOLD --metric METRIC --per-sentence FILE``.

    Meant for training loops and reranking: a gold file is read and prepared once and kept
    (the last few, by path, modification time, metric and options), so later calls only do
    the per-sentence work; for parsed gold sentences make a :func:`sentence_scorer` once.

    Args:
        hypotheses: a hypothesis file, or the hypothesis sentences as strings (tokens
            separated by spaces, as the gold's; raw text with ``tokenize="en"``).
        gold: a token-level gold file, its parsed :class:`~gecformats.model.Sentence` s, or
            a :func:`sentence_scorer`.
        metric: ``m2`` (default), ``sentm2``, ``errant``, ``senterrant``, ``gleu``,
            ``green``, ``gotoscorer``, ``cleme``, ``cleme2`` or ``imeasure``.  M2 chooses
            each sentence's annotator greedily against the running totals, as the NUS
            scorer does: a sentence's record depends on the sentences before it.  SentM2
            (and SentERRANT, GREEN, CLEME) choose per sentence alone: a reward that depends
            on its own sentence only.
        options: as :func:`sentence_scorer`'s.

    Returns:
        One :class:`~gecformats.metrics.sentences.SentenceScore` per gold sentence:
        ``index`` (from 0), ``score`` (the sentence's F, GLEU, GREEN …) and ``fields``
        (M2 and SentM2: ``annotator``, ``correct``, ``proposed``, ``gold``, ``p``, ``r``,
        ``f``; each also an attribute).

    Raises:
        GecFormatError: another number of hypotheses than gold sentences, lines that are
            not the gold's sentences, a malformed input (located).
        UsageError: an unknown metric or option.
    """
    from gecformats.metrics.sentences import SentenceScorer

    if isinstance(gold, SentenceScorer):
        if options or metric != "m2" and metric != gold.metric.name:
            raise UsageError("a SentenceScorer has its metric and options already")
        return gold.score(hypotheses)
    if not isinstance(gold, (str, os.PathLike)):
        return sentence_scorer(gold, metric, **options).score(hypotheses)
    stat = os.stat(gold)
    key = (os.path.abspath(gold), stat.st_mtime_ns, stat.st_size, metric,
           tuple(sorted((k, repr(v)) for k, v in options.items())))
    scorer = _SCORERS.get(key)
    if scorer is None:
        scorer = sentence_scorer(gold, metric, **options)
        _SCORERS[key] = scorer
        while len(_SCORERS) > _KEEP:
            _SCORERS.popitem(last=False)
    _SCORERS.move_to_end(key)
    return scorer.score(hypotheses)

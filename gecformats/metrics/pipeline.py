"""One evaluation pipeline for every metric: gold read once, systems in lockstep, engines.

:func:`evaluate` reads the gold file once and every system output in step with it
(:func:`gecformats.io.lockstep`), turns each output line into a
:class:`~gecformats.metrics.base.Hypothesis` (split as the M2 scorer splits, tokenized with
``tokenize``, projected with ``segment="project"``, or read from an M2 file), runs every
metric's per-sentence step on chunks of sentences — here, in ``jobs`` local processes or on
a Dask :class:`~gecformats.dist.Engine`, with the very same chunk function, so the three
give the same statistics — keeps the statistics, and makes each metric's corpus score.
The statistics are what :mod:`~gecformats.metrics.statistics` resamples.

Memory: the statistics of every sentence of every system and metric are kept (tens of
bytes per candidate: 10^6 sentences × 13 systems of M2 fit in a few GB); the inputs are
streamed, a chunk of :data:`CHUNK` sentences at a time.

>>> from gecformats.metrics.m2 import M2Metric
>>> run = evaluate(["fixtures/score/sample.hyp"], "fixtures/score/sample.m2", [M2Metric()])
>>> [round(v, 4) for v in run.totals[0][0].values]
[0.8333, 1.0, 0.8621]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.io import chunks, lockstep, source_name
from gecformats.metrics.base import GoldView, Hypothesis, Metric, SystemFailure, Totals
from gecformats.metrics.inputs import Correspondence, GoldFit, align_hint, grams
from gecformats.model import Sentence

CHUNK = 64
"""Sentences per task (local processes, Dask)."""


@dataclass
class Evaluation:
    """What :func:`evaluate` gives: per metric and system, the statistics and the corpus
    totals (``stats[m][s][i]``, ``totals[m][s]``), the systems' names, the number of
    sentences, the warnings about the input (each naming the command that fixes it) and how
    hypotheses were pre-processed (a signature field, or ``None``)."""

    paths: list[str]
    names: list[str]
    metrics: list[Metric]
    stats: list[list[list[Any]]]
    totals: list[list[Totals]]
    sentences: int
    warnings: list[str] = field(default_factory=list)
    """What makes a number doubtful (``score --strict`` refuses the first)."""
    preprocess: str | None = None
    m2_hypotheses: list[bool] = field(default_factory=list)
    gold_origin: str | None = None
    """How the gold was made when not read from a file of edits (``extracted-lcs`` …, a
    signature field), else ``None``."""
    gold_file: str = ""
    """The gold's name and content hash (:func:`~gecformats.metrics.inputs.gold_field`)."""
    checked: bool = True
    """Whether each hypothesis was checked to be the gold's sentences."""
    unit: str | None = None
    """``document`` when each document of the gold was scored as one unit (``--unit``)."""
    aligned: bool = False
    """Whether the hypotheses were re-segmented onto the gold's sentences where they
    needed it (``score --align``)."""
    alignments: list[Any] = field(default_factory=list)
    """Per system, the :class:`~gecformats.convert.align.Alignment` its text was
    re-segmented by, or ``None`` (taken as it was)."""
    annotator: str | None = None
    """``annotator:K`` (``+absent-first`` …) when scored against one annotator of the gold
    (``--annotator``), else ``None``."""
    info: list[str] = field(default_factory=list)
    """What was done to the inputs, said as notes (each re-segmented hypothesis: what
    became of its lines)."""
    notes: list[str] = field(default_factory=list)
    """What the reader should know of how the number was made (edits that gecformats
    extracted where the original reads ERRANT's), printed as warnings too but never
    refused by ``--strict``."""

    def input_fields(self) -> str:
        """What every signature of this run adds about its inputs:
        ``|gold-file:NAME@HASH``, ``|align:yes`` when the hypotheses were re-segmented
        where they needed it (``--align``), and ``|sentences:unchecked`` when they were not
        checked to be the gold's sentences (``--no-sentence-check``); ``|annotator:K`` when
        scored against one annotator of the gold (``--annotator``)."""
        fields = f"|{self.gold_file}" if self.gold_file else ""
        fields += "|align:yes" if self.aligned else ""
        fields += "|unit:document" if self.unit == "document" else ""
        fields += f"|{self.annotator}" if self.annotator else ""
        return fields + ("" if self.checked else "|sentences:unchecked")


def system_names(paths: Sequence[str]) -> list[str]:
    """Each hypothesis' file name (without ``.m2`` when every one is an M2 file), or its
    whole path where two file names are the same (``#2`` … where two paths are)."""
    bases = [os.path.basename(p) or p for p in paths]
    if all(b.endswith(".m2") and len(b) > 3 for b in bases):  # ERRANT's M2 outputs: AMU.m2
        bases = [b[:-3] for b in bases]
    names = bases if len(set(bases)) == len(bases) else list(paths)
    seen: dict[str, int] = {}
    out = []
    for name in names:  # the same file twice: told apart (a table's rows, JSON's keys)
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def evaluate(hypotheses: Sequence[str | os.PathLike[str]], gold: str | os.PathLike[str],
             metrics: Sequence[Metric], *, gold_format: str | None = None,
             tokenize: str | None = None, segment: str | None = None, segmenter: str = "zh",
             segment_map: Mapping[str, str] | None = None, jobs: int = 1, engine: Any = None,
             progress: Callable[[int], None] | None = None,
             gold_items: Iterable[Any] | None = None,
             lines: Callable[[str], Iterator[tuple[int, str]]] | None = None,
             mismatch: Callable[[str, int, int], GecFormatError] | None = None,
             gold_name: str | None = None, check_sentences: bool = True,
             align: bool = False, unit: str | None = None, annotator: int | None = None,
             absent: str = "auto") -> Evaluation:
    """Score every hypothesis file with every metric against one gold file, read once.

    Args:
        hypotheses: system outputs: text, one sentence per line (``.gz`` read
            transparently, at most one ``-``), or M2 files (recognised by their first line).
        gold: the gold file (M2 unless ``gold_format`` names another token-level format).
        metrics: the metrics, built from their options.
        tokenize: ``en``/``zh``: tokenize text hypotheses with that tokenizer first.
        segment, segmenter, segment_map: ``segment="project"``: raw Chinese hypotheses,
            projected on the gold's segmentation (:class:`gecformats.convert.project.Projector`).
        jobs: local processes for the per-sentence steps (1: in this process).
        engine: a running :class:`gecformats.dist.Engine` instead of local processes.
        progress: called with the number of sentence × system × metric steps done, as
            chunks finish.
        gold_items, lines, mismatch: for a front-end that reads as its original does
            (``gecformats imeasure``): the gold's items already being read (instead of the
            format's sentences), how to read a hypothesis file as ``(number, line)`` (instead
            of the NUS scorer's way; the files are then text, never M2), and the error of a
            hypothesis with ``lines`` lines for ``sentences`` gold sentences.
        gold_name: the gold's name in messages, when ``gold`` is a file made for the run
            (a gold extracted from text references: the source file's name).
        check_sentences: refuse a hypothesis file whose lines stop matching the gold's
            sentences (:class:`~gecformats.metrics.inputs.Correspondence`); ``False`` (the
            command line's ``--no-sentence-check``) trusts the files, and the signature
            says so.
        align: re-segment each text hypothesis that needs it onto the gold's sentences
            first (:func:`gecformats.convert.align.align_lines`): one whose number of lines
            differs from the gold's sentences, or whose lines stop matching them (a file
            that is the gold's sentences is taken as it is); :attr:`Evaluation.alignments`
            keeps what was done, a note per file says it, the signature says ``align:yes``.
            The aligned text is held in memory (align reads a file whole).
        unit: ``None`` (each hypothesis line is one gold sentence, or what ``align``
            makes it), ``sentence`` (the same, aligned where needed: ``align``) or
            ``document``: each document of the gold (its sentences' ``meta["document"]``,
            :mod:`gecformats.convert.documents`) is scored as one unit, as the MultiGEC-2025
            evaluation scores essays; a hypothesis gives each document one line (a
            document a line), or one line per gold sentence (joined), or any other
            segmentation (aligned onto the sentences, then joined).  The signature says
            ``unit:document``.
        annotator, absent: score against annotator ``annotator`` of the gold alone
            (:class:`~gecformats.metrics.inputs.OneAnnotator`; ``absent``: what a sentence
            without it where another annotator made edits gets, ``auto``, ``first`` or
            ``source``); the signature says ``annotator:K``.  The gold is read twice (a
            file, not standard input).

    The checks of the inputs are made here, once, for every metric: the gold's edits past
    the end of their sentence are left out with one warning
    (:class:`~gecformats.metrics.inputs.GoldFit`), an M2 hypothesis is scored by its first
    annotator only, and each hypothesis file must be the gold's sentences.

    Returns:
        An :class:`Evaluation`.

    Raises:
        GecFormatError: malformed input or a sentence a metric cannot score
            (``FILE:LINE: message``), hypotheses whose line counts differ from the gold's
            number of sentences (after every aligned sentence was read), or whose lines are
            not the gold's sentences.
        UsageError: no hypothesis, or standard input twice.
        OSError: a file cannot be read.
    """
    options = {k: v for k, v in locals().items() if k not in ("hypotheses", "gold", "metrics")}
    made = os.fspath(gold)
    if gold_name is None or made == gold_name:
        return _evaluate(hypotheses, gold, metrics, **options)
    try:  # the gold was made for the run: messages name what the user gave instead
        run = _evaluate(hypotheses, gold, metrics, **options)
    except GecFormatError as exc:
        raise GecFormatError(exc.message.replace(made, gold_name),
                             gold_name if exc.file == made else exc.file,
                             None if exc.file == made else exc.line, exc.kind) from None
    run.warnings = [w.replace(made, gold_name) for w in run.warnings]
    return run


def _evaluate(hypotheses: Sequence[str | os.PathLike[str]], gold: str | os.PathLike[str],
              metrics: Sequence[Metric], *, gold_format: str | None, tokenize: str | None,
              segment: str | None, segmenter: str, segment_map: Mapping[str, str] | None,
              jobs: int, engine: Any, progress: Callable[[int], None] | None,
              gold_items: Iterable[Any] | None,
              lines: Callable[[str], Iterator[tuple[int, str]]] | None,
              mismatch: Callable[[str, int, int], GecFormatError] | None,
              gold_name: str | None, check_sentences: bool, align: bool,
              unit: str | None, annotator: int | None = None, absent: str = "auto"
              ) -> Evaluation:
    """:func:`evaluate`'s work (its arguments, all given)."""
    from gecformats.metrics.score import InputCheck

    paths = [os.fspath(h) for h in hypotheses]
    gold = os.fspath(gold)
    if not paths:
        raise UsageError("no hypothesis to score")
    if sum(p == "-" for p in paths) > 1:
        raise UsageError("only one hypothesis can be standard input ('-')")
    if not metrics:
        raise UsageError("no metric to score with")
    label = gold_name or gold
    reader = _Hypotheses(paths, gold, tokenize, segment, segmenter, segment_map, lines, label)
    if unit not in (None, "sentence", "document"):
        raise UsageError(f"unknown unit {unit!r} (known: sentence, document)")
    align = align or unit == "sentence"
    front_end = gold_items is not None  # a command that reads the gold its own way
    if (align or unit) and front_end:
        raise UsageError("--align and --unit are for `gecformats score`")
    fit = GoldFit(label)
    one = None
    if annotator is not None:
        from gecformats.metrics.inputs import OneAnnotator

        if front_end:
            raise UsageError("--annotator is for `gecformats score`")
        if gold == "-":
            raise UsageError("--annotator reads the gold twice (its annotators first): give "
                             "a file, not standard input")
        one = OneAnnotator(label, annotator, absent, _read_gold(gold, gold_format))

    def read_gold(count: bool = False) -> Iterator[Sentence]:
        sentences = _read_gold(gold, gold_format)
        return sentences if one is None else (one.keep(s, count) for s in sentences)

    if unit == "document":  # imported here, used by units() below as well
        from gecformats.convert.documents import documents

        reader.documents(gold, gold_format)
        gold_items = documents(fit.fit(n, s) for n, s in enumerate(read_gold(True), 1))
    elif align:
        reader.align(gold, gold_format, label)
    view = None
    if not front_end:
        def units() -> Iterable[Sentence]:
            quiet = GoldFit(label)  # warned about once, by the pipeline's own
            fitted = (quiet.fit(n, s) for n, s in enumerate(read_gold(), 1))
            return documents(fitted) if unit == "document" else fitted

        view = GoldView(units, {"unit": unit, "align": align})
    for metric in metrics:
        metric.setup(gold, view)
    checks = [InputCheck() for _ in paths]
    matching = [Correspondence(source_name(p), label, align_hint(
        source_name(p), label, source=gold_name is not None)) for p in paths] \
        if check_sentences else None
    gold_stream = read_gold(True) if gold_items is None else gold_items

    def differ(_names: list[str], counts: list[int]) -> GecFormatError:
        k = next(i for i in range(1, len(counts)) if counts[i] != counts[0])
        if mismatch is not None:
            return mismatch(paths[k - 1], counts[k], counts[0])
        return _count_error(paths[k - 1], label, counts[k], counts[0])

    streams: list[tuple[str, Iterable[Any]]] = [(label, gold_stream)]
    streams += [(p, reader.lines(k)) for k, p in enumerate(paths)]

    def rows() -> Iterator[tuple[Sentence, list[Hypothesis]]]:
        for number, (sentence, *raw) in enumerate(lockstep(streams, differ), 1):
            sentence = fit.fit(number, sentence)
            if matching is not None and hasattr(sentence, "source"):
                source = grams(sentence.source)
                for k, item in enumerate(raw):
                    line, text = reader.text(k, item)
                    matching[k].add(number, line, source, text)
            hyps = [reader.hypothesis(k, number, sentence, item, checks[k])
                    for k, item in enumerate(raw)]
            yield sentence, hyps

    stats: list[list[list[Any]]] = [[[] for _ in paths] for _ in metrics]
    steps = len(paths) * len(metrics)
    metric_tuple = tuple(metrics)
    # an error met while reading (a line count that differs, a malformed line) is raised
    # after the sentences read before it are scored: a sentence that cannot be scored
    # comes first in corpus order, on every engine alike
    unread: list[GecFormatError] = []
    tasks = ((metric_tuple, first, batch)
             for _, first, batch in chunks(_until_error(rows(), unread), CHUNK))
    count = 0
    for first, results in _run(tasks, jobs, engine):
        for offset, sentence_stats in enumerate(results):
            number = first + offset
            if isinstance(sentence_stats, _Failure):
                raise sentence_stats.error(paths, label, number)
            for m, per_system in enumerate(sentence_stats):
                for s, value in enumerate(per_system):
                    stats[m][s].append(value)
        count += len(results)
        if progress is not None:
            progress(len(results) * steps)
    if unread:
        # taken out of the list: the error's traceback holds this frame, and a frame holding
        # its own error is a cycle that only the collector frees, closing the input files
        # in any order (a reader's generator then found its file closed: "Exception ignored")
        raise unread.pop()
    stats = [metric.complete(stats[m]) for m, metric in enumerate(metrics)]
    totals = [[metric.corpus(stats[m][s], choices=True) for s in range(len(paths))]
              for m, metric in enumerate(metrics)]
    warnings: list[str] = fit.warnings()
    notes: list[str] = []
    for k, path in enumerate(paths):
        warnings += reader.warnings(k, checks[k])
    for m, metric in enumerate(metrics):
        warnings += metric.warnings()
        more, said = _metric_warnings(metric, totals[m], paths, label)
        warnings += more
        notes += said
    from gecformats.metrics.inputs import gold_field

    return Evaluation(paths, system_names(paths), list(metrics), stats, totals, count,
                      once(warnings, paths), reader.preprocess, reader.m2,
                      gold_file=gold_field(gold, gold_name), checked=check_sentences,
                      notes=once(notes + (one.notes() if one is not None else []), paths),
                      aligned=align, unit=unit,
                      annotator=one.field() if one is not None else None,
                      alignments=list(reader.alignments),
                      info=[a.summary(source_name(p), label)
                            for p, a in zip(paths, reader.alignments) if a is not None])


def _metric_warnings(metric: Metric, totals: Sequence[Totals], paths: Sequence[str],
                     gold: str) -> tuple[list[str], list[str]]:
    """The warnings and notes a metric's corpus results carry (an impossible M2 score,
    edits of text hypotheses extracted otherwise than by the original), for every command
    that scores.

    Raises:
        GecFormatError: types the metric's options cannot compare (ERRANT's ``--mode cse``,
            ``--cat``, ``--filter`` across type schemes), naming the side to blame.
    """
    warnings: list[str] = []
    notes: list[str] = []
    for t, path in zip(totals, paths):
        count, first = t.extra.get("impossible", (0, 0))
        if count and metric.name == "m2":
            from gecformats.metrics.score import impossible_warning

            values = SimpleNamespace(**dict(zip(("precision", "recall", "f"), t.values)))
            warnings.append(impossible_warning(gold, count, first, values, path))
        problem = t.extra.get("type_problem")
        if problem is not None:
            raise GecFormatError(problem[0], (source_name(path), gold)[problem[1]])
        # every metric of edits (errant, senterrant, cleme, cleme2, gotoscorer) whose
        # originals read ERRANT's edits: a text hypothesis extracted otherwise gets other
        # numbers
        fields = str(t.extra.get("signature", "")).split("|")
        hyp = next((f[4:] for f in fields if f.startswith("hyp:")), None)
        if hyp in ("extracted-lcs", "extracted-native"):
            from gecformats.metrics.errant import extraction_warning

            notes.append(extraction_warning(source_name(path), hyp))
    return warnings, notes


def once(warnings: Sequence[str], paths: Sequence[str]) -> list[str]:
    """``warnings`` without repeats, and a warning given alike for several hypothesis files
    (``FILE: the same text``) given once, with their number and first names."""
    names = sorted({source_name(p) for p in paths} | set(paths), key=len, reverse=True)
    groups: dict[str, list[str]] = {}
    for warning in dict.fromkeys(warnings):
        name = next((n for n in names if warning.startswith(f"{n}: ")), None)
        key, who = (warning[len(name) + 2:], name) if name is not None else (warning, "")
        groups.setdefault(key, []).append(who)
    out = []
    for text, who in groups.items():
        if len(who) == 1:
            out.append(f"{who[0]}: {text}" if who[0] else text)
        else:
            shown = ", ".join(who[:3]) + (", …" if len(who) > 3 else "")
            out.append(f"{len(who)} hypotheses ({shown}): {text}")
    return out


# ------------------------------------------------------------------ the per-sentence step


class _Failure:
    """A sentence a metric could not score, sent back from a worker as data."""

    def __init__(self, exc: GecFormatError, system: int | None) -> None:
        self.message, self.kind, self.system = exc.message, exc.kind, system
        self.file, self.line = exc.file, exc.line

    def error(self, paths: Sequence[str], gold: str, number: int) -> GecFormatError:
        if self.file is not None:
            return GecFormatError(self.message, self.file, self.line, self.kind)
        if self.kind == "targets":  # located at the gold's first T line, as the reader can't
            from gecformats.io import numbered_lines

            line = next((n for n, text in numbered_lines(gold) if text[:1] == "T"), None)
            message = self.message.replace("GOLD GOLD.m2", f"{gold} GOLD.m2")
            return GecFormatError(f"sentence {number} {message}", gold, line, self.kind)
        if self.kind == "gold":  # the metric names the sentence: the gold's fault
            return GecFormatError(self.message, gold)
        if self.system is None:
            return GecFormatError(f"sentence {number}: {self.message}", gold, None, self.kind)
        return GecFormatError(f"sentence {number}: {self.message}", paths[self.system], number,
                              self.kind)


def score_chunk(task: tuple[tuple[Metric, ...], int, list[tuple[Sentence, list[Hypothesis]]]]
                ) -> tuple[int, list[Any]]:
    """One task: every metric's per-sentence step on a chunk of sentences, for every
    system (:meth:`Metric.sentences`, the chunk at once).  Returns ``(first, results)``: per
    sentence, ``[metric][system]`` statistics, up to the first sentence that a metric could
    not score, which is a :class:`_Failure` (the data error, located by the client) and
    ends the results, as it ends the run."""
    metrics, first, batch = task
    hypotheses = [hyps for _, hyps in batch]
    failed_at, failure = len(batch), None
    columns: list[list[list[Any]]] = []
    for metric in metrics:
        prepared: list[Any] = []
        error = None
        for sentence, _ in batch[:failed_at]:
            try:
                prepared.append(metric.prepare(sentence))
            except GecFormatError as exc:
                error = _Failure(exc, None)
                break
        rows: list[list[Any]] = []
        try:
            rows.extend(metric.sentences(prepared, hypotheses[:len(prepared)]))
        except SystemFailure as exc:
            error = _Failure(exc.error, exc.system)
        # at one sentence, the first metric's failure is the one reported
        if error is not None and len(rows) < failed_at:
            failed_at, failure = len(rows), error
        columns.append(rows)
    out: list[Any] = [[rows[i] for rows in columns] for i in range(failed_at)]
    if failure is not None:
        out.append(failure)
    return first, out


def _until_error(items: Iterable[Any], unread: list[GecFormatError]) -> Iterator[Any]:
    """``items`` until a read error, which ends them and is put in ``unread``."""
    try:
        yield from items
    except GecFormatError as exc:
        unread.append(exc)


def _run(tasks: Iterator[Any], jobs: int, engine: Any) -> Iterator[tuple[int, list[Any]]]:
    """:func:`score_chunk` on every task, results in task order."""
    if engine is not None:
        yield from engine.map_chunks(score_chunk, tasks)
        return
    if jobs <= 1:
        for task in tasks:
            yield score_chunk(task)
        return
    from gecformats.dist import process_map

    yield from process_map(score_chunk, tasks, jobs)


# ------------------------------------------------------------------ reading


def gold_sentences(gold: str, gold_format: str | None = None) -> Iterator[Sentence]:
    """The sentences of a token-level gold file as :func:`evaluate` reads them (before
    the edits that do not fit are left out), streaming.

    Raises:
        GecFormatError: a gold that is not token-level, or malformed.
        UsageError: a format that cannot be inferred.
    """
    return _read_gold(gold, gold_format)


def _read_gold(gold: str, gold_format: str | None) -> Iterator[Sentence]:
    from gecformats import formats

    name = gold_format or formats.infer_input(gold, "gecformats score HYP --gold GOLD "
                                              "--gold-format {format}", ("m2", "ixml", "conll"))
    module = formats.get(name)
    if getattr(module, "UNIT", "token") != "token":
        raise GecFormatError(f"the gold must be token-level (M2, I-measure XML …), not {name}",
                             source_name(gold))
    return module.read(gold)


def _grouped(items: Iterable[Any], sizes: Sequence[int], merge: Callable[[list[Any]], Any]
             ) -> Iterator[Any]:
    """``items`` taken ``sizes[i]`` at a time, each group merged (what is left over, one
    item a group: the line counts then differ, as lockstep says)."""
    iterator = iter(items)
    for n in sizes:
        group = [item for _, item in zip(range(n), iterator)]
        if not group:
            return
        yield merge(group)
    yield from iterator


def _matches(lines: Sequence[str], sources: Sequence[Any], path: str, gold: str) -> bool:
    """Whether ``lines`` pass the sentence check against the gold ``sources``
    (:func:`~gecformats.metrics.inputs.grams` of each)."""
    check = Correspondence(path, gold)
    try:
        for n, (line, source) in enumerate(zip(lines, sources), 1):
            check.add(n, n, source, line)
    except GecFormatError:
        return False
    return True


def _looks_m2(path: str) -> bool:
    """Whether a hypothesis file is M2: its first line an ``S`` line and the next an ``A``
    line or the blank line that ends the block (a text output whose first sentence starts
    with "S " stays text)."""
    from gecformats import formats

    head = formats._head(path)
    if head is None or formats._sniff_text(head) != "m2":
        return False
    second = head.replace("\r\n", "\n").split("\n")[1:2]
    return not second or second[0][:2] in ("A ", "T ", "")


def _count_error(hypothesis: str, gold: str, lines: int, sentences: int) -> GecFormatError:
    from gecformats.metrics.score import count_mismatch

    return count_mismatch(hypothesis, gold, lines, sentences)


class _Hypotheses:
    """The hypothesis files: their lines (or M2 sentences) and their pre-processing."""

    def __init__(self, paths: list[str], gold: str, tokenize: str | None,
                 segment: str | None, segmenter: str, segment_map: Mapping[str, str] | None,
                 reader: Callable[[str], Iterator[tuple[int, str]]] | None = None,
                 label: str | None = None) -> None:
        if tokenize is not None and segment is not None:
            raise UsageError("--tokenize and --segment exclude each other")
        self.paths, self.gold, self.reader = paths, gold, reader
        self.label = label or gold
        self.m2 = [reader is None and p != "-" and _looks_m2(p) for p in paths]
        self.several = [(0, 0) for _ in paths]
        """Per M2 hypothesis: sentences with several annotators, the most annotators."""
        self.alignments: list[Any] = [None for _ in paths]
        self._aligned: list[list[str] | None] = [None for _ in paths]
        self.sizes: list[int] | None = None
        """With ``--unit document``: the gold sentences of each document."""
        self.tokenizer = self.projector = None
        self.preprocess: str | None = None
        if tokenize is not None:
            from gecformats.tokenize import get_tokenizer

            self.tokenizer = get_tokenizer(tokenize)
            self.preprocess = f"tokenize+{self.tokenizer.name}-{self.tokenizer.version}"
        if segment is not None:
            if segment != "project":
                raise UsageError(f"unknown segment mode {segment!r} (known: project)")
            if gold == "-":
                raise GecFormatError("--segment project reads the gold twice: give a file, "
                                     "not standard input", gold)
            from gecformats.convert.project import Lexicon, Projector, gold_map

            lexicon = Lexicon.from_m2(gold)
            mapping = gold_map(lexicon.source_characters) if segment_map is None \
                else dict(segment_map)
            self.projector = Projector(lexicon, segmenter=segmenter, mapping=mapping)
            self.preprocess = self.projector.version

    def lines(self, k: int) -> Iterator[Any]:
        from gecformats.formats import m2
        from gecformats.metrics.score import read_hypothesis

        if self.m2[k]:
            if self.sizes is not None:  # --unit document: grouped as the gold's
                from gecformats.convert.documents import merge

                return _grouped(m2.read(self.paths[k]), self.sizes, merge)
            return m2.read(self.paths[k])
        aligned = self._aligned[k]
        if aligned is not None:  # line n: the text of gold sentence n
            return iter(enumerate(aligned, 1))
        return (self.reader or read_hypothesis)(self.paths[k])

    def documents(self, gold: str, gold_format: str | None) -> list[int]:
        """Make each hypothesis a document a line for ``--unit document``: a file with one
        line per document of the gold is taken as it is, one with a line per gold sentence
        has its lines joined per document (by one space), any other is aligned onto the
        gold's sentences first (:func:`gecformats.convert.align.align_lines`); an M2
        hypothesis' sentences are grouped as the gold's.  Returns the sentences of each
        document.

        Raises:
            GecFormatError: a gold without documents; a hypothesis that reads like no
                stretch of the gold.
        """
        from gecformats.convert.align import align_lines
        from gecformats.convert.documents import document_id, sizes
        from gecformats.metrics.score import read_hypothesis

        sentences = list(_read_gold(gold, gold_format))
        if not any(document_id(s) for s in sentences):
            raise GecFormatError("--unit document: the gold's sentences name no document "
                                 "(UA-GEC M2 with S # NNNN headers, GECCC, or an M2 that "
                                 "`gecformats convert` wrote from essays has them)", self.label)
        counts = sizes(sentences)
        self.sizes = counts
        sources = [s.source for s in sentences]
        for k, path in enumerate(self.paths):
            if self.m2[k]:
                continue
            lines = [line for _, line in read_hypothesis(path)]
            if len(lines) == len(counts):
                self._aligned[k] = lines
                continue
            if len(lines) != len(sources):
                alignment = align_lines(sources, lines, name=source_name(path))
                self.alignments[k] = alignment
                lines = alignment.lines
            joined, at = [], 0
            for n in counts:
                joined.append(" ".join(x.strip() for x in lines[at:at + n] if x.strip()))
                at += n
            self._aligned[k] = joined
        return counts

    def align(self, gold: str, gold_format: str | None, label: str) -> None:
        """Re-segment each text hypothesis that needs it onto the gold's sentences
        (:func:`gecformats.convert.align.align_lines`): one whose line count differs from
        the gold's sentences or whose lines stop matching them; the others are kept as
        they are (read into memory once, as the aligned ones).

        Raises:
            GecFormatError: a hypothesis that reads like no stretch of the gold, or a
                malformed gold or hypothesis.
        """
        from gecformats.convert.align import align_lines
        from gecformats.metrics.score import read_hypothesis

        sources = [s.source for s in _read_gold(gold, gold_format)]
        seen = [grams(s) for s in sources]
        for k, path in enumerate(self.paths):
            if self.m2[k]:  # an M2 file is its sentences: nothing to align
                continue
            lines = [line for _, line in read_hypothesis(path)]
            if len(lines) != len(sources) or not _matches(lines, seen, path, label):
                alignment = align_lines(sources, lines, name=source_name(path))
                self.alignments[k] = alignment
                lines = alignment.lines
            self._aligned[k] = lines

    def text(self, k: int, item: Any) -> tuple[int | None, Any]:
        """Hypothesis ``k``'s line number and text of one item (an M2 hypothesis: no line
        number, its source tokens), for the check that it is the gold's sentence."""
        if self.m2[k]:
            return None, item.source
        return item[0], item[1]

    def hypothesis(self, k: int, number: int, gold: Sentence, item: Any, check: Any
                   ) -> Hypothesis:
        from maxmatch import split_hypothesis

        if self.m2[k]:
            annotators = sorted(item.annotators)
            if len(annotators) > 1:  # one rule for every metric: the first annotator
                self.several[k] = (self.several[k][0] + 1, max(self.several[k][1],
                                                                len(annotators)))
                item = replace(item, annotators={annotators[0]: item.annotators[annotators[0]]})
            try:
                tokens = item.corrected(annotators[0]) if annotators else item.source
            except ValueError as exc:  # edits that overlap: no corrected text
                from gecformats.metrics.inputs import _gold_line

                raise GecFormatError(f"sentence {number}: annotator {annotators[0]}'s edits "
                                     f"cannot make a corrected sentence: {exc}", self.paths[k],
                                     _gold_line(self.paths[k], number)) from None
            return Hypothesis(tuple(tokens), " ".join(tokens), item)
        line = item[1]
        if self.projector is not None:
            from gecformats.convert.project import MAX_PROJECTED

            if len(line) > MAX_PROJECTED:
                raise GecFormatError(f"a hypothesis of {len(line):,} characters: --segment "
                                     f"project segments at most {MAX_PROJECTED:,} per line "
                                     "(is the file one sentence per line?)", self.paths[k],
                                     item[0])
            tokens = tuple(self.projector.project(gold.source, line))
            check.add_segmented(gold.source, line)
        elif self.tokenizer is not None:
            tokens = tuple(t.text for t in self.tokenizer.tokenize(line))
            check.add_retokenized(gold.source, split_hypothesis(line), tokens)
            if self.tokenizer.name == "zh":
                check.add_segmented(gold.source, line)
        else:
            tokens = tuple(split_hypothesis(line))
            check.add(gold.source, tokens)
        return Hypothesis(tokens, line)

    def warnings(self, k: int, check: Any) -> list[str]:
        from gecformats.metrics.score import input_warnings

        out = input_warnings(check, self.paths[k], self.label,
                             self.tokenizer.name if self.tokenizer is not None else None,
                             "project" if self.projector is not None else None)
        sentences, most = self.several[k]
        if sentences:
            name = source_name(self.paths[k])
            out.append(f"{name}: an M2 hypothesis with up to {most} annotators ({sentences} "
                       "sentences with several): every metric scores its first annotator "
                       "only, as a system's output (the best of several per sentence would "
                       "be an oracle, not a system); to score each annotator as a system: "
                       f"gecformats convert {name} DIR --to parallel, then score "
                       "DIR/annotator-*.txt")
        return out

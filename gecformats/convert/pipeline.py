"""Format → model → format conversion of whole files.

Formats count in tokens (M2, I-measure XML: :class:`~gecformats.model.Sentence`), in
characters (HOO: :class:`~gecformats.model.Document`; their modules say ``UNIT = "char"``)
or hold plain text (the parallel formats: :class:`~gecformats.model.Parallel`, ``UNIT =
"text"``).  Between characters and tokens the conversion goes through
:mod:`gecformats.convert.retokenize`, with a tokenizer and a sentence splitter; between text and
tokens through :mod:`gecformats.convert.extract` (edit extraction one way, applying edits the
other); word-level M2 becomes character-level M2 through :mod:`gecformats.convert.chars`.
Everything a conversion could not carry over exactly is in the report.

For every reader and writer, :func:`convert` counts what was read (sentences, documents,
annotators, edits, alternatives) and what was written, in this one place
(:mod:`gecformats.convert.counts`).  The output is counted by reading it back with its
format's reader, not from what the format declares it can hold: a declaration says what a
format could keep, not what this run kept (M2 → UA-GEC once kept one annotator of two and
one document of sixty into a format that holds them all).  So the writer writes into a
staging folder beside the output (standard output: a temporary file), the output is read
back there, and only then moved into place (:func:`gecformats.io.staged_output`): a loss
refused by ``strict`` leaves nothing behind, and files already in an output folder are not
counted as written.
"""

from __future__ import annotations

import glob
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from gecformats.convert import extract
from gecformats import formats
from gecformats.formats import tsv
from gecformats.convert.chars import sentences_to_chars
from gecformats.convert.counts import ConversionCounts, Counts, count_output
from gecformats.errors import GecFormatError, UsageError
from gecformats.convert.extract import ExtractionReport
from gecformats.io import Source, renamed, source_name, staged_output, text_output
from gecformats.model import Document, Parallel, Sentence
from gecformats.report import Report
from gecformats.convert.retokenize import ConversionReport, documents_to_sentences, to_document, to_documents

READER_OPTIONS = ("refs", "strip_edges", "ann", "alt", "unit")
"""Options :func:`convert` hands to the reader instead of the writer."""


def convert(
    source: Source,
    dest: str | os.PathLike[str],
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    tokenizer: str | None = None,
    sentences: str = "punkt",
    text: str | os.PathLike[str] | None = None,
    shrink: bool | None = None,
    mapping: str | None = None,
    alternative: int = 0,
    absent: str | None = None,
    types: str | None = None,
    split_substitutions: bool = False,
    simplify: bool = False,
    jobs: int = 1,
    engine: Any = None,
    shards: int | None = None,
    resume: bool = False,
    extractor: str = "lcs",
    spacy_model: str | None = None,
    progress: Callable[[int], None] | None = None,
    strict: bool = False,
    **options: Any,
) -> Report:
    """Read ``source`` in one format and write ``dest`` in another, streaming.

    What was read and what was written are counted (sentences, documents, annotators,
    edits, alternatives: :mod:`gecformats.convert.counts`), the output by reading it back
    before it appears; ``report.counts`` holds both and their difference.

    Args:
        source: input path (or open file when ``from_format`` is given).  For HOO formats:
            one document (its text file with the gold edits beside it) or a directory in
            the distribution layout (``Raw/`` and ``Gold/``).  For ``parallel``: the source
            file (references in ``refs``), or a directory written by the ``parallel``
            writer.
        dest: output path; it appears whole or not at all (``-`` is standard output).  For
            HOO formats and ``parallel`` a directory.
        from_format, to_format: format names; inferred from the suffixes when omitted.
        tokenizer: ``en``, ``zh``, ``char`` or ``space``.  Characters → tokens (HOO → M2)
            and text → tokens (edit extraction): how to tokenize (default ``en``).  Tokens
            → characters or text: what the tokens are (``zh`` and ``char`` tokens are
            joined without spaces, others with one space).  M2 → M2: ``char`` converts word
            tokens to one token per character (exact offsets); no other value is allowed.
        sentences: characters → tokens: the sentence splitter (``punkt``, ``lines``).
        text: tokens → characters only: the original text the sentences come from (a text
            file, or a directory of ``*.txt`` files or with a ``Raw/`` folder, taken in file
            name order, one document each).  Without it the text is the tokens joined by
            spaces, one sentence per line, in one document.
        mapping: characters → tokens: ``exact`` or ``conll`` (see
            :func:`gecformats.convert.retokenize.to_sentences`); ``None``: the reader's
            ``MAPPING`` (NUCLE: ``conll``, which reproduces the CoNLL-2013/14 M2 files),
            else ``exact``.
        shrink: characters → tokens: trim tokens an edit's original and correction share
            (the CoNLL way) instead of keeping the annotator's span; words → characters:
            trim shared characters the same way.  ``None``: on with the ``conll`` mapping,
            off otherwise.
        alternative: tokens → text: which alternative correction of each edit to apply.
        absent: tokens → text: what an annotator absent from a sentence gets (``source``,
            ``first`` or ``skip``, :data:`gecformats.convert.extract.ABSENT`); ``None``: the
            output format's way (parallel and tsv write the source, nlpcc leaves it out);
            ``skip`` only where a reference can be left out (nlpcc).
        types, split_substitutions: text → tokens: the edit type scheme and whether an
            n → n token replacement becomes n one-token edits (see
            :func:`gecformats.convert.extract.extract`).
        simplify: text → tokens: convert references from traditional to simplified
            Chinese first (needs an installed converter, see :mod:`gecformats.convert.t2s`).
        jobs: text → tokens: worker processes (same output for any value).
        progress: called with 1 as each input sentence of a text → M2 extraction is taken
            (a progress bar; the output does not depend on it).
        extractor, spacy_model: text → M2: ``lcs`` (gecformats' aligner), ``native``
            (ERRANT's rules on guessed word classes,
            :mod:`gecformats.convert.native_extract`) or ``errant``
            (ERRANT's own edits and types, byte for byte with ``errant_parallel``, on the
            spaCy pipeline ``spacy_model``; :mod:`gecformats.convert.errant_extract`).
        engine: a :class:`gecformats.dist.Engine` (open): text → tokens, tokens → text and
            words → characters run on its Dask workers (same output).
        shards: write ``dest`` as a folder of exactly this many parts (joined, the plain
            conversion's output) and a manifest (:mod:`gecformats.convert.shards`), reading
            ``source`` once; ``source`` may then also be a glob pattern of input files,
            read in name order; 0: one part per input file.
        resume: with ``shards``: continue an earlier run into the same folder.
        strict: refuse a conversion that loses anything (a count lower in the output
            than in the input, what the writer or the conversion reports dropped); nothing
            is written.  Not with
            ``shards``, whose parts appear as they are written.
        options: reader options (``refs``, ``strip_edges``, ``ann``, ``alt``, ``unit``) and writer options of the
            output format (e.g. ``deletion``, ``targets`` for M2).

    Returns:
        The writer's :class:`~gecformats.report.Report` (what was written and lost);
        ``report.counts`` the :class:`~gecformats.convert.counts.ConversionCounts` (``None``
        for an open file as ``dest``, which cannot be read back); after a change of unit,
        ``report.conversion`` holds the
        :class:`~gecformats.convert.retokenize.ConversionReport` (characters → tokens) or the
        :class:`~gecformats.convert.extract.ExtractionReport` (text ↔ tokens, words → characters).

    Raises:
        GecFormatError: malformed input, a format that cannot be inferred, a conversion
            that does not exist, an output that does not read back, or with ``strict`` a
            loss; no output is left behind.
        OSError: the input cannot be read or the output written.
    """
    given = dict(locals())  # the settings, handed on to _convert as they were given
    for name in ("source", "dest", "strict", "options"):
        del given[name]
    writer = formats.get(to_format or formats.infer(dest))
    given["to_format"] = writer.NAME
    read = Counts()
    if shards is not None:
        if strict:
            raise UsageError("--strict checks the whole output before it appears, and --shards "
                             "writes its parts as it goes: leave out one of them")
        report = _convert(source, dest, read, **given, **options)
        if report.counts is None:  # (--shards 0 brings the parts' counts)
            from gecformats.convert.shards import count_parts

            report.counts = ConversionCounts(read, count_parts(writer, dest))
        return report
    if not isinstance(dest, (str, os.PathLike)):  # an open file: nothing to read back
        return _convert(source, dest, read, **given, **options)
    with staged_output(dest) as (target, written):
        report = _convert(source, target, read, **given, **options)
        if report.counts is None:  # (a conversion run whole on a worker brings its own)
            report.counts = ConversionCounts(read, _read_back(writer, written))
        if strict:
            _refuse_losses(report)
    return report


def _convert(source: Source, dest: str | os.PathLike[str], counted: Counts, *,
             from_format: str | None, to_format: str, tokenizer: str | None, sentences: str,
             text: str | os.PathLike[str] | None, shrink: bool | None, mapping: str | None,
             alternative: int, absent: str | None, types: str | None,
             split_substitutions: bool, simplify: bool, jobs: int, engine: Any,
             shards: int | None, resume: bool, extractor: str, spacy_model: str | None,
             progress: Callable[[int], None] | None, **options: Any) -> Report:
    """The conversion of :func:`convert`, writing ``dest`` (a staging path) and counting in
    ``counted`` the items read."""
    reader = formats.get(from_format or formats.infer(_path(source)))
    writer = formats.get(to_format)
    if mapping is None:
        mapping = getattr(reader, "MAPPING", "exact")
    if shrink is None:
        shrink = mapping == "conll"
    read_options = {k: options.pop(k) for k in READER_OPTIONS if options.get(k) is not None}
    if reader.NAME == "c4edits":  # its edits apply to the sentences of --text
        read_options["text"], text = text, None
    files: list[Any] = [source]
    if shards is not None:
        files = _input_files(source)
        raw: Iterator[Any] = itertools.chain.from_iterable(
            reader.read(f, **read_options) for f in files)
    else:
        raw = iter(reader.read(source, **read_options))
    reading = Report()
    raw = counted.counting(_noting_problems(raw, reading))
    items: Iterable[Any] = raw
    conversion: ConversionReport | ExtractionReport | None = None
    units = (reader.UNIT, writer.UNIT)
    if absent is not None and units != ("token", "text"):
        raise UsageError("--absent applies only to M2 → text")
    if absent == "skip" and writer.NAME in ("parallel", "tsv"):
        raise UsageError(f"--absent skip: {writer.NAME} keeps every annotator's reference in "
                         "its place, so an absent one cannot be left out; use --absent "
                         "source|first, or --to nlpcc")
    # Edit extraction, M2 → text, words → characters and characters → tokens share their
    # sentences out among the workers; a conversion that only reads and writes has nothing
    # to share out, so on an engine it runs whole, as one task (below), or one input file
    # per task (--shards 0)
    whole_task = engine is not None and shards is None and \
        units not in (("text", "token"), ("token", "text"), ("char", "token")) and \
        not (units == ("token", "token") and tokenizer is not None)
    _check_options(units, alternative=alternative, types=types,
                   split_substitutions=split_substitutions, simplify=simplify, jobs=jobs)
    if extractor not in extract.EXTRACTORS:
        raise UsageError(f"unknown extractor {extractor!r} (known: "
                         f"{', '.join(extract.EXTRACTORS)})")
    if extractor == "native" and units != ("text", "token"):
        raise UsageError("--extractor native extracts edits from parallel text")
    if extractor == "errant":
        if units not in (("text", "token"), ("char", "token")) or writer.NAME != "m2":
            raise UsageError("--extractor errant extracts edits from parallel text or from "
                             "documents (BEA-2019 JSON, HOO, NUCLE, FCE, UA-GEC …) to M2")
        if units == ("char", "token"):
            if engine is not None or shards is not None:
                raise UsageError("--extractor errant from documents runs locally (--jobs N), "
                                 "without --engine or --shards")
        elif tokenizer or types or split_substitutions or simplify:
            raise UsageError("--extractor errant runs without --tokenizer, --types, "
                             "--split-substitutions or --t2s (the text is split on spaces, "
                             "as errant_parallel without -tok)")
    # the conversion's settings, for the runs that hand whole files to the local pipeline
    settings = {"tokenizer": tokenizer, "sentences": sentences, "shrink": shrink,
                "mapping": mapping, "alternative": alternative, "absent": absent,
                "types": types, "split_substitutions": split_substitutions, "simplify": simplify}
    if extractor != "lcs":  # (kept out of the settings of lcs runs: their manifests stay)
        settings.update(extractor=extractor, spacy_model=spacy_model)
    if whole_task:
        return _on_one_worker(engine, source, dest,
                              {"from_format": reader.NAME, "to_format": writer.NAME,
                               "text": text, **settings, **read_options, **options})
    if units == ("token", "token") and tokenizer not in (None, "char"):
        raise UsageError(f"M2 → M2 can only split words into characters (--tokenizer "
                         f"char), not re-tokenize with {tokenizer!r}")
    if "text" in units and units not in (("text", "text"), ("text", "token"), ("token", "text")):
        raise UsageError(f"no conversion between {reader.NAME} and {writer.NAME}: convert "
                         "through M2")
    total = None
    if engine is not None and engine.partitions and shards is None and _rereadable(source):
        total = sum(1 for _ in reader.read(source, **read_options))  # to cut partitions
    if units == ("text", "token") and engine is not None and shards is None \
            and writer.NAME == "m2" and extractor != "errant":
        # the workers write the M2 too: the client only reads and writes text
        conversion = ExtractionReport()
        items = tsv.checked_references(items, reader.NAME, source, conversion)
        if simplify:
            items = _simplified(items, conversion)
        blocks = extract.m2_blocks(items, tokenizer or "en", engine, types=types,
                                   split_substitutions=split_substitutions, extractor=extractor,
                                   report=conversion, total=total, **options)
        report = _write_blocks(blocks, dest, writer, source)
        report.conversion = conversion
        return report

    def transform(items: Iterable[Any], total: int | None,
                  replay: Callable[[], Iterable[Any]] | None) -> Iterable[Any]:
        """The conversion of the items read (``total`` of them when known; ``replay()``
        reads them again)."""
        nonlocal conversion, absent
        if units == ("text", "token") and progress is not None:
            items = _reporting(items, progress)
        if units == ("char", "token"):
            conversion = ConversionReport()
            items = documents_to_sentences(items, tokenizer or "en", sentences, conversion,
                                           engine=engine, total=total, shrink=shrink,
                                           mapping=mapping)
            if extractor == "errant":
                items = _errant_of_documents(items, conversion, spacy_model, jobs)
            if reader.NAME == "uagec" and writer.NAME == "m2":
                # as UA-GEC's own M2 files: each document opens with an S # NNNN block
                items = formats.get("m2").with_document_headers(items)
        elif units == ("token", "char"):
            # a format with room for several annotators (BEA JSON) takes every one; the
            # others take annotator 0
            items = _documents(items, text, tokenizer or "en",
                               None if getattr(writer, "ANNOTATORS", 1) > 1 else 0)
        elif units == ("text", "token") and extractor == "errant":
            from gecformats.convert.errant_extract import sentences as errant_sentences

            conversion = ExtractionReport()
            items = errant_sentences(tsv.checked_references(items, reader.NAME, source,
                                                            conversion), spacy_model,
                                     conversion, jobs, engine, total)
        elif units == ("text", "token"):
            conversion = ExtractionReport()
            items = tsv.checked_references(items, reader.NAME, source, conversion)
            if hasattr(reader, "one_line"):  # MultiGEC: note the essays kept whole
                items = reader.one_line(items, conversion, flatten=False, count=False)
            if simplify:
                items = _simplified(items, conversion)
            items = extract.sentences(items, tokenizer or "en", types=types,
                                      report=conversion, jobs=jobs,
                                      split_substitutions=split_substitutions,
                                      engine=engine, total=total, extractor=extractor)
        elif units == ("token", "text"):
            conversion = ExtractionReport()
            known: set[int] = set()
            if absent in ("source", "first") or absent is None and writer.NAME in ("parallel", "tsv"):
                # a first pass, so that an annotator first seen late is filled from
                # sentence 1; by default, 'first' for a file whose noop lines show that a
                # missing annotator did not mean "no change" (the CoNLL-2014 combined
                # file), else the source
                again = replay() if replay is not None else \
                    reader.read(source, **read_options) if _rereadable(source) else ()
                explicit = False
                for s in again:
                    known.update(k for k in s.annotators if k >= 0)
                    explicit = explicit or extract.noop_beside_edits(s)
                if absent is None and explicit:
                    absent, conversion.absent_policy = "first", extract.AUTO_FIRST
            items = extract.parallels(items, alternative=alternative,
                                      joiner=extract.joiner_for(tokenizer), report=conversion,
                                      absent=absent, annotators=known, engine=engine,
                                      total=total)
        elif units == ("token", "token") and tokenizer is not None:
            conversion = ExtractionReport()
            items = sentences_to_chars(items, shrink=shrink, report=conversion, engine=engine,
                                       total=total)
        elif reader.NAME == "hoo2012" and writer.NAME == "hoo2011":
            items = _part_ids(items)
        elif units == ("text", "text") and hasattr(reader, "one_line") \
                and writer.NAME != reader.NAME:
            # MultiGEC essays to one-line text: each line break a TAB, as split_to_parfiles
            conversion = ExtractionReport()
            items = reader.one_line(items, conversion)
        return items

    counted = _Counted(())
    try:
        if shards is not None:
            # one output item of each input item, except where documents and sentences meet
            # (ERRANT leaves out a sentence whose source is empty, as errant_parallel does)
            per_item = units not in (("char", "token"), ("token", "char")) \
                and extractor != "errant"
            report = _sharded(reader, writer, files, raw, transform, dest, shards, resume,
                              read_options, options, engine, settings, per_item,
                              [v for k, v in (("text", text), *read_options.items())
                               if k in ("text", *READER_OPTIONS)])
        else:
            counted = _Counted(transform(items, total, None))
            report = writer.write(counted, dest, **options)
    except GecFormatError:
        raise
    except ValueError as exc:  # what the output format cannot hold (a '|' in an M2 field ...)
        raise _unwritable(writer, getattr(exc, "number", counted.count), str(exc),
                          source) from None
    if report.conversion is None:  # a per-input sharded run brings its merged report
        report.conversion = conversion
    report.notes.merge(reading.notes)
    return report


READING_PROBLEMS = "reading problems: broken markup kept as text (gecformats validate lists each)"
"""How :func:`convert` notes the reading problems a reader left in an item's
``meta["reading.problems"]`` (COWSL2H's broken markup)."""


def _noting_problems(items: Iterator[Any], reading: Report) -> Iterator[Any]:
    """``items``, noting in ``reading`` the ``FILE:LINE: ...`` reading problems each one
    carries in ``meta["reading.problems"]``."""
    for item in items:
        problems = getattr(item, "meta", {}).get("reading.problems")
        if problems:
            for line in problems.split("\n"):
                reading.note(READING_PROBLEMS, line)
        yield item


def _read_back(writer: Any, written: str) -> Counts:
    """The counts of the output ``written`` (:func:`count_output`).

    Raises:
        GecFormatError: the output does not read back as its format (a writer's fault, so
            nothing is written rather than a file gecformats cannot read).
    """
    try:
        return count_output(writer, [written])
    except GecFormatError as exc:
        raise GecFormatError(f"the output does not read back as {writer.NAME}, so it is not "
                             f"written: {exc}", written) from None


def _refuse_losses(report: Report) -> None:
    """Refuse a conversion that lost something (``--strict``).

    Raises:
        GecFormatError: the output holds fewer of something than the input, or the
            writer or the conversion dropped something; the message says what.
    """
    lost = []
    if report.counts is not None and report.counts.lost:
        lost.append(report.counts.summary(lost=True))
    lost += [f"{loss.count} {what}" for what, loss in report.losses.items()]
    dropped = getattr(report.conversion, "dropped", 0)
    if dropped:
        lost.append(f"{dropped} dropped in the conversion ({report.conversion.summary()})")
    if lost:
        raise GecFormatError(f"--strict: the conversion would lose something ({'; '.join(lost)}"
                             "), so nothing is written", kind="lossy")


def _unwritable(writer: Any, number: int, message: str, source: Source) -> GecFormatError:
    """The error for item ``number``, which ``writer``'s format cannot hold."""
    unit = "document" if writer.UNIT == "char" else "sentence"
    return GecFormatError(f"{unit} {number} cannot be written as {writer.NAME}: {message}",
                          source_name(source), kind="unwritable")


def _on_one_worker(engine: Any, source: Source, dest: str | os.PathLike[str],
                   settings: dict[str, Any]) -> Report:
    """A conversion that only reads and writes, run whole on one of ``engine``'s workers by
    the local pipeline (the worker reads ``source`` and writes ``dest`` itself: a shared file
    system, as for ``--shards 0``); its report.

    Raises:
        UsageError: standard input or output, which a worker cannot reach.
        GecFormatError: what the conversion raises on the worker.
    """
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-" \
            or os.fspath(dest) == "-":
        raise UsageError("this conversion only reads and writes, so --engine dask runs it "
                         "whole on a worker, which reads and writes files: give file names, "
                         "not standard input or output (or use --engine local)")

    def absolute(value: Any) -> Any:  # the worker may run in another folder
        if isinstance(value, (str, os.PathLike)):
            return os.path.abspath(value)
        if isinstance(value, (list, tuple)):
            return type(value)(absolute(v) for v in value)
        return value

    given = {k: v for k, v in settings.items()
             if k in ("text", "refs", "ann", "alt") and v is not None}
    paths = {k: absolute(v) for k, v in given.items()}
    task = ({**settings, **paths}, 1, [(os.path.abspath(source), os.path.abspath(dest))])
    names = {os.path.abspath(n): os.fspath(n) for v in (source, dest, *given.values())
             for n in (v if isinstance(v, (list, tuple)) else [v])
             if isinstance(n, (str, os.PathLike))}
    try:
        return next(iter(engine.map_chunks(_convert_whole, [task])))
    except (GecFormatError, OSError) as exc:
        raise renamed(exc, names) from None


def _convert_whole(task: tuple[dict[str, Any], int, list[tuple[str, str]]]) -> Report:
    """The task of :func:`_on_one_worker`."""
    settings, _first, [(source, dest)] = task
    return convert(source, dest, **settings)


def _write_blocks(blocks: Iterable[tuple[str, Report, tuple[int, str] | None]],
                  dest: str | os.PathLike[str], writer: Any, source: Source) -> Report:
    """Write text made on an engine's workers (:func:`extract.m2_blocks`) to ``dest``, whole
    or not at all, and merge the parts' writer reports.

    Raises:
        GecFormatError: a sentence the output format cannot hold, named as the local path
            names it; no output is left behind.
    """
    report = Report()
    with text_output(dest) as fh:
        for text, written, failure in blocks:
            fh.write(text)
            report.merge(written)
            if failure is not None:
                raise _unwritable(writer, *failure, source)
    return report


def _input_files(source: Source) -> list[str]:
    """The input files of a sharded run: ``source`` itself, or the files a glob pattern
    matches, in name order.

    Raises:
        GecFormatError: a pattern that matches nothing.
    """
    path = _path(source)
    if os.path.exists(path) or not any(c in path for c in "*?["):
        return [path]
    files = sorted(glob.glob(path))
    if not files:
        raise GecFormatError("no file matches the pattern", path)
    return files


def _sharded(reader: Any, writer: Any, files: list[str], raw: Iterable[Any], transform: Any,
             dest: str | os.PathLike[str], shards: int, resume: bool,
             read_options: dict[str, Any], options: dict[str, Any], engine: Any,
             conversion: dict[str, Any], per_item: bool, others: list[Any]) -> Report:
    """Write the conversion as ``shards`` parts and a manifest, or one part per input file
    when ``shards`` is 0 (see :mod:`gecformats.convert.shards`); ``others`` are the other
    files read (references, texts), described in the manifest with the inputs."""
    from gecformats.convert.shards import describe_inputs, write_per_input, write_sharded
    from gecformats.tokenize import get_tokenizer

    if shards < 0:
        raise UsageError("--shards must be 0 (one part per input file) or more")
    if os.fspath(dest) == "-" or (shards == 0 and "-" in files):
        raise UsageError("--shards reads files and writes a folder, not standard input/output")
    if writer.NAME in ("parallel", "hoo2011", "hoo2012", "seeda-edits", "geccc", "uagec",
                       "cowsl2h"):
        raise UsageError(f"--shards writes one file per part; {writer.NAME} output is a folder "
                         "or several files")
    settings = {"from": reader.NAME, "to": writer.NAME,
                "options": {k: v for k, v in sorted({**conversion, **options}.items())
                            if v is not None and v is not False}}
    name = conversion.get("tokenizer")
    if name:
        tok = get_tokenizer(name)
        settings["tokenizer"] = f"{tok.name}:{tok.version}"
    if conversion.get("extractor") == "errant":  # the edits depend on errant, spaCy, model
        from gecformats.convert import errant_extract

        settings["extractor"] = errant_extract.version(
            errant_extract.cached(conversion.get("spacy_model")))
    suffix = writer.SUFFIXES[0] if writer.SUFFIXES else ".txt"
    if shards == 0:
        kwargs = {"from_format": reader.NAME, "to_format": writer.NAME,
                  **{k: v for k, v in conversion.items() if v is not None}, **read_options,
                  **options}
        return write_per_input(files, dest, suffix=suffix, settings=settings, options=kwargs,
                               engine=engine, resume=resume)
    extra = [f for v in others for f in (v if isinstance(v, (list, tuple)) else [v])
             if isinstance(f, (str, os.PathLike))]

    def reread() -> Iterator[Any]:
        return itertools.chain.from_iterable(reader.read(f, **read_options) for f in files)

    return write_sharded(writer, raw, transform, dest, shards=shards, suffix=suffix,
                         settings=settings, inputs=describe_inputs([*files, *extra]),
                         resume=resume, per_item=per_item, reread=reread, **options)


class _Counted:
    """An iterable that counts the items taken from it: a writer that fails on an item
    streams, so the failing item is the last one taken."""

    def __init__(self, items: Iterable[Any]) -> None:
        self._items = items
        self.count = 0

    def __iter__(self) -> Iterator[Any]:
        for item in self._items:
            self.count += 1
            yield item


_TEXT_TO_TOKENS = {"types": "--types", "split_substitutions": "--split-substitutions",
                   "simplify": "--t2s", "jobs": "--jobs"}


def _check_options(units: tuple[str, str], **given: Any) -> None:
    """Refuse options that the conversion at hand would silently ignore."""
    if units != ("text", "token"):
        for name, flag in _TEXT_TO_TOKENS.items():
            value = given[name]
            if value is not None and value is not False and not (name == "jobs" and value == 1):
                raise UsageError(f"{flag} applies only to text → M2 (edit extraction)")
    if units != ("token", "text") and given["alternative"]:
        raise UsageError("--alternative applies only to M2 → text")


def _simplified(items: Iterable[Parallel], report: ExtractionReport) -> Iterator[Parallel]:
    """References converted from traditional to simplified script (sources stay)."""
    from gecformats.convert.t2s import converter

    simplify, name = converter()
    report.versions["simplifier"] = name
    for number, item in enumerate(items, 1):
        refs = tuple(None if r is None else simplify(r) for r in item.references)
        if refs != item.references:
            report.note("simplified", f"sentence {number}")
        yield item.replace(references=refs)


def _documents(
    sentences: Iterable[Sentence], text: str | os.PathLike[str] | None, tokenizer: str,
    annotator: int | None = 0,
) -> Iterator[Document]:
    """Token sentences as documents of character offsets: one per original text of ``text``
    (a file or a folder of them), else one per document the sentences name
    (``meta["document"]``: UA-GEC M2's ``S # NNNN`` headers, including its documents
    without a sentence), else one, ``0001``; with ``annotator`` ``None`` every annotator's
    edits, else that one's."""
    if text is None:
        for id, group, ids in _by_document(sentences):
            yield to_document(group, None, id=id or "0001", tokenizer=tokenizer,
                              annotator=annotator, meta={"annotators": ids} if ids else None)
        return
    path = Path(text)
    try:
        if path.is_dir():
            raw = path / "Raw" if (path / "Raw").is_dir() else path
            files = sorted(raw.glob("*.txt"))
            if not files:
                raise GecFormatError("no .txt files to take the original texts from", file=str(path))
            texts = ((f.stem, _read_text(f)) for f in files)
            yield from to_documents(sentences, texts, tokenizer=tokenizer, annotator=annotator)
        else:
            yield to_document(sentences, _read_text(path), id=path.stem, tokenizer=tokenizer,
                              annotator=annotator)
    except GecFormatError as exc:
        if exc.file is not None:
            raise
        # the sentences do not fit the original text: name the text it was checked against
        raise GecFormatError(exc.message, file=str(path), kind=exc.kind) from None


def _by_document(sentences: Iterable[Sentence]
                 ) -> Iterator[tuple[str | None, list[Sentence], str | None]]:
    """The sentences of each document in turn, as ``(id, sentences, annotators)``: runs of
    one ``meta["document"]``, and the UA-GEC M2 documents without a sentence
    (:func:`gecformats.formats.m2.empty_documents`) with no sentences and the annotators of
    their header (``None`` for the others)."""
    from gecformats.formats.m2 import empty_documents

    group: list[Sentence] = []
    current: str | None = None
    for sentence in sentences:
        before, after = empty_documents(sentence)
        document = sentence.meta.get("document")
        if group and (document != current or before):
            yield current, group, None
            group = []
        for id, ids in before:
            yield id, [], ids
        current = document
        group.append(sentence)
        if after:
            yield current, group, None
            group = []
            for id, ids in after:
                yield id, [], ids
    if group:
        yield current, group, None


def _part_ids(documents: Iterable[Document]) -> Iterator[Document]:
    """HOO 2011 has no parts: each HOO 2012 PART becomes a document ``<id>-<part>``."""
    for doc in documents:
        part = doc.meta.get("hoo2012.part")
        yield doc.replace(id=f"{doc.id}-{part}") if part is not None and doc.id else doc


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GecFormatError(f"not UTF-8 at byte {exc.start}", file=str(path)) from None


def _rereadable(source: Source) -> bool:
    """Whether ``source`` can be read a second time: a file or a folder, not standard input,
    a pipe or an open file."""
    return isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-" \
        and (os.path.isfile(source) or os.path.isdir(source))


def _path(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", ""))


def _errant_of_documents(sentences: Iterable[Any], conversion: ConversionReport,
                         spacy_model: str | None, jobs: int) -> Iterator[Any]:
    """``--extractor errant`` from documents: each sentence of gecformats' segmentation and
    tokenization becomes the source and each annotator's corrected tokens a reference
    (an annotator absent from a sentence: unchanged), whose edits and types ERRANT then
    extracts as ``errant_parallel`` would from those lines.  The BEA-2019 organisers made
    their M2 with ``json_to_m2.py -auto`` (their own line splitting, normalisation and
    spaCy 2 tokenization), which this does not reproduce; the edits are ERRANT's, the
    segmentation gecformats'."""
    from gecformats.convert.errant_extract import sentences as errant_sentences

    side = ExtractionReport()
    yield from errant_sentences(extract.parallels(sentences, absent="source"), spacy_model,
                                side, jobs)
    conversion.extractor = side.versions.get("extractor", "errant")


def _reporting(items: Iterable[Any], progress: Callable[[int], None]) -> Iterator[Any]:
    """``items``, calling ``progress(1)`` as each is taken."""
    for item in items:
        progress(1)
        yield item

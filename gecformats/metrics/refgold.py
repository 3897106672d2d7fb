"""A gold made from references given as text: ``score HYP --source SRC --ref R0 --ref R1``.

Many test sets ship as a source file and corrected files, no M2 (JFLEG, the BEA-2019 and
CoNLL-2014 references as text, a lab's own data).  :func:`extracted_gold` extracts each
reference's edits from the source with the chosen extractor (``lcs``, ``native`` or
``errant``: the one the ERRANT metric uses on text hypotheses, so that both sides of the
comparison are cut the same way), reference ``k`` becoming annotator ``k``, and writes
the gold as M2 to a temporary file that every metric of the pipeline reads as it reads any
M2 gold (GLEU reads it twice), removed afterwards.  Memory stays flat: sentences stream
from the text files through the extractor to the file.

The text is read as tokenised already (split on whitespace, as the hypotheses are), unless
``tokenize`` names a tokenizer, which then tokenizes the source and references as it
tokenizes the hypotheses.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from gecformats.convert.extract import EXTRACTORS
from gecformats.errors import GecFormatError, UsageError


def _errant_items(items: Iterable[Any], source: str) -> Iterator[Any]:
    """``items`` unchanged, refusing an empty source line: ``errant_parallel`` skips it, and
    the gold would no longer be aligned with the hypotheses."""
    for number, item in enumerate(items, 1):
        if not item.source.strip():
            raise GecFormatError("an empty source line: ERRANT (errant_parallel) skips it, so "
                                 "the gold would no longer align with the hypotheses; remove "
                                 "the line from every file, or use --extractor lcs", source,
                                 number)
        yield item


def gold_sentences(source: str, refs: Sequence[str], extractor: str = "lcs", *,
                   spacy_model: str | None = None, tokenize: str | None = None,
                   report: Any = None, jobs: int = 1) -> Iterator[Any]:
    """The gold sentences of a source file and its line-aligned reference files.

    Args:
        source, refs: the text files (one sentence per line; reference ``k`` is annotator
            ``k``).
        extractor: ``lcs`` (gecformats' aligner), ``native`` (its ERRANT-like rules) or
            ``errant`` (ERRANT itself: the optional extra).
        spacy_model: the spaCy pipeline of ``errant``.
        tokenize: a tokenizer name for raw text (``lcs``/``native`` only); default: split on
            whitespace.
        report: an :class:`~gecformats.convert.extract.ExtractionReport` to fill.
        jobs: local processes for the extraction (the same sentences).

    Yields:
        One :class:`~gecformats.model.Sentence` per line.

    Raises:
        UsageError: no reference, an unknown extractor, ``tokenize`` with ``errant``.
        GecFormatError: files of different lengths, invalid UTF-8, an empty source line with
            ``errant``.
    """
    from gecformats.formats import parallel

    if not refs:
        raise UsageError("--source needs at least one --ref (a corrected file)")
    if extractor not in EXTRACTORS:
        raise UsageError(f"unknown extractor {extractor!r} (known: {', '.join(EXTRACTORS)})")
    items = parallel.read(source, list(refs))
    if extractor == "errant":
        if tokenize:
            raise UsageError("--extractor errant reads tokenised text (as errant_parallel "
                             "without -tok): drop --tokenize, or tokenise the files first")
        from gecformats.convert import errant_extract

        yield from errant_extract.sentences(_errant_items(items, os.fspath(source)),
                                            spacy_model, report, jobs)
        return
    from gecformats.convert import extract

    yield from extract.sentences(items, tokenize or "space", report=report, jobs=jobs,
                                 extractor=extractor)


@contextmanager
def extracted_gold(source: str, refs: Sequence[str], extractor: str = "lcs", *,
                   spacy_model: str | None = None, tokenize: str | None = None,
                   jobs: int = 1) -> Iterator[tuple[str, str]]:
    """A temporary M2 file holding :func:`gold_sentences`, and the gold's signature value.

    Yields:
        ``(path, origin)``: the file (removed on exit) and ``extracted-<extractor version>``
        for the signature's ``gold:`` field.

    Raises:
        as :func:`gold_sentences`; GecFormatError: a reference whose correction M2 cannot
            hold (a ``||`` in a token, the token ``-NONE-`` …), naming the reference file and
            line (never the temporary file).
    """
    from gecformats.convert.extract import ExtractionReport
    from gecformats.formats import m2

    report = ExtractionReport()
    fd, path = tempfile.mkstemp(prefix="gecformats-gold-", suffix=".m2")
    os.close(fd)
    try:
        read = [0]

        def counted(sentences: Iterable[Any]) -> Iterator[Any]:
            for read[0], sentence in enumerate(sentences, 1):
                yield sentence

        try:
            m2.write(counted(gold_sentences(source, refs, extractor, spacy_model=spacy_model,
                                            tokenize=tokenize, report=report, jobs=jobs)),
                     path)
        except m2.UnwritableEdit as exc:  # sentence k is line k of every file
            raise GecFormatError(
                f"this reference cannot be scored through the M2 gold that --source and --ref "
                f"are turned into: {exc.reason} (its correction "
                f"{' '.join(exc.edit.correction)!r} of source tokens {exc.edit.start}-"
                f"{exc.edit.end}); change the token or score with a gold file",
                refs[exc.edit.annotator], read[0], "unwritable") from None
        origin = report.versions.get("extractor", extractor) if extractor == "errant" \
            else extractor
        if tokenize:
            origin += f"+tokenize-{tokenize}"
        yield path, f"extracted-{origin}"
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass

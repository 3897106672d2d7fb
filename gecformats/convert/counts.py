"""What a conversion read and what it wrote, counted the same way on both sides.

:func:`gecformats.convert.convert` counts, for every reader and every writer, five things
(:data:`DIMENSIONS`):

``sentences``
    sentences (token formats) or sentence pairs (text formats); ``None`` for documents of
    character offsets, which have no sentences;
``documents``
    documents of character offsets; for sentences and texts, runs of consecutive items
    with the same ``meta["document"]`` (an M2 file without UA-GEC ``S # NNNN`` headers is
    one document), counting the UA-GEC M2 documents without a sentence too;
``annotators``
    distinct annotator ids (a text format's reference positions);
``edits``
    every annotator's edits; ``None`` for texts, which hold corrected sentences, not edits;
``alternatives``
    alternative corrections beyond an edit's first, and ChERRANT alignments beyond a
    reference's first.

The input is counted as the reader gives it, before any conversion; the output by
**reading back what the writer wrote**, with the output format's own reader
(:func:`count_output`), not by asking the format what it can hold.  Declared capabilities
say what a format could keep, not what a run kept: the M2 → UA-GEC conversion that
took annotator 0 only and merged every document into one (896 UA-GEC edits gone, exit 0)
wrote to a format that holds every annotator and document, so no capability would have
shown the loss; only counting the output finds it, whatever step loses it (a reader, a
conversion, a writer), today and in formats still to come.  The cost is one more read of
the output, in linear time, which is small beside the conversion.

Where both sides have a number and the numbers differ, the difference (read minus
written: positive is lost) is the conversion's: ``convert`` prints it, even with ``-q``, and
writes it to ``--report``; with ``--strict`` a loss refuses the conversion (an output that
holds more, such as the documents ``--text`` cuts an M2 file into, is said, not refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gecformats.model import Document, Parallel, Sentence

DIMENSIONS = ("sentences", "documents", "annotators", "edits", "alternatives")
"""What is counted, in the order it is shown."""

_UNSET = object()


@dataclass(slots=True)
class Counts:
    """The counts of one stream of model items (see the module documentation).

    >>> c = Counts()
    >>> c.add(Sentence(("a",), {0: (), 1: ()}))
    >>> c.to_dict()
    {'sentences': 1, 'documents': 1, 'annotators': 2, 'edits': 0, 'alternatives': 0}
    """

    sentences: int | None = None
    documents: int = 0
    edits: int | None = None
    alternatives: int = 0
    annotator_ids: set[int] = field(default_factory=set)
    first_document: Any = _UNSET
    """The document of the first item (to merge the counts of consecutive parts)."""
    last_document: Any = _UNSET
    """The document of the last item counted."""

    @property
    def annotators(self) -> int:
        """How many distinct annotators."""
        return len(self.annotator_ids)

    def add(self, item: Sentence | Document | Parallel) -> None:
        """Count one model item."""
        if isinstance(item, Document):
            self.documents += 1
            self.edits = (self.edits or 0) + len(item.edits)
            self.alternatives += _alternatives(item.edits)
            self.annotator_ids.update(_document_annotators(item))
            return
        self.sentences = (self.sentences or 0) + 1
        before, after = _empty_documents(item)
        self.documents += before + after
        document = item.meta.get("document")
        if document != self.last_document or before:
            self.documents += 1
        if self.first_document is _UNSET:
            self.first_document = document
        self.last_document = document if not after else _UNSET
        if isinstance(item, Parallel):
            self.annotator_ids.update(item.present())
            return
        self.annotator_ids.update(item.annotators)
        self.edits = (self.edits or 0) + sum(len(e) for e in item.annotators.values())
        self.alternatives += sum(_alternatives(e) for e in item.annotators.values())
        self.alternatives += sum(max(len(t) - 1, 0) for t in item.targets.values())

    def counting(self, items: Iterable[Any]) -> Iterator[Any]:
        """``items``, each counted as it is taken."""
        for item in items:
            self.add(item)
            yield item

    def merge(self, other: Counts) -> None:
        """Add the counts of ``other``, the next part of the same stream (a document that
        runs on from this part into the next counts once)."""
        if other.sentences is not None:
            self.sentences = (self.sentences or 0) + other.sentences
        if other.edits is not None:
            self.edits = (self.edits or 0) + other.edits
        self.documents += other.documents
        if other.first_document is not _UNSET and other.first_document is not None \
                and other.first_document == self.last_document:
            self.documents -= 1
        self.alternatives += other.alternatives
        self.annotator_ids |= other.annotator_ids
        if self.first_document is _UNSET:
            self.first_document = other.first_document
        if other.last_document is not _UNSET or other.first_document is not _UNSET:
            self.last_document = other.last_document

    def get(self, dimension: str) -> int | None:
        """The count of one of :data:`DIMENSIONS` (``None``: not counted on this side)."""
        return getattr(self, dimension)

    def to_dict(self) -> dict[str, int | None]:
        """The counts by dimension, in :data:`DIMENSIONS` order."""
        return {d: self.get(d) for d in DIMENSIONS}


@dataclass(slots=True)
class ConversionCounts:
    """What a conversion read and what it wrote.

    Attributes:
        read: the counts of the input, as the reader gave it.
        written: the counts of the output, as its format's reader reads it back.
    """

    read: Counts = field(default_factory=Counts)
    written: Counts = field(default_factory=Counts)

    @property
    def difference(self) -> dict[str, int]:
        """Read minus written (positive: lost) for each dimension counted on both sides
        whose numbers differ."""
        out = {}
        for d in DIMENSIONS:
            a, b = self.read.get(d), self.written.get(d)
            if a is not None and b is not None and a != b:
                out[d] = a - b
        return out

    @property
    def lost(self) -> dict[str, int]:
        """The differences where the output holds fewer than the input (what ``--strict``
        refuses)."""
        return {d: n for d, n in self.difference.items() if n > 0}

    def merge(self, other: ConversionCounts) -> None:
        """Add the counts of ``other``, the conversion of the next part."""
        self.read.merge(other.read)
        self.written.merge(other.written)

    def summary(self, lost: bool | None = None) -> str:
        """The differences in one line (``2 → 1 annotators, 1626 → 730 edits``), or ``""``;
        only the losses (``lost=True``) or only the gains (``False``)."""
        return ", ".join(f"{self.read.get(d)} → {self.written.get(d)} {d}"
                         for d, n in self.difference.items() if lost is None or lost == (n > 0))

    def to_dict(self) -> dict[str, Any]:
        """``read``, ``written`` and ``difference`` (read minus written) as JSON-ready data."""
        return {"read": self.read.to_dict(), "written": self.written.to_dict(),
                "difference": self.difference}


def count(items: Iterable[Any]) -> Counts:
    """The counts of ``items`` (model items of any unit)."""
    counts = Counts()
    for item in items:
        counts.add(item)
    return counts


def count_output(writer: Any, paths: Iterable[Any]) -> Counts:
    """The counts of what ``writer`` wrote to ``paths`` (its output, or its parts in
    order; paths or open files), read back by the format's own reader: its
    ``read_back(path)`` where the format has one (a format whose files need the files
    written beside them, such as C4's text file), else ``read(path)``.

    Raises:
        GecFormatError: the output does not read back (from the reader).
    """
    read = getattr(writer, "read_back", writer.read)
    counts = Counts()
    for path in paths:
        for item in read(path):
            counts.add(item)
    return counts


def _alternatives(edits: Iterable[Any]) -> int:
    return sum(len(e.corrections) - 1 for e in edits if len(e.corrections) > 1)


def _document_annotators(document: Document) -> list[int]:
    from gecformats.convert.retokenize import document_annotators

    return document_annotators(document)


def _empty_documents(item: Sentence | Parallel) -> tuple[int, int]:
    """How many UA-GEC M2 documents without a sentence come before and after ``item``."""
    from gecformats.formats.m2 import empty_documents

    before, after = empty_documents(item)
    return len(before), len(after)

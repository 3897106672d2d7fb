"""Sentences grouped into their documents: one :class:`~gecformats.model.Sentence` per
document, for scoring whole essays as units (``score --unit document``).

A gold knows its documents when its sentences carry ``meta["document"]``: UA-GEC's M2
(``S # NNNN`` headers), GECCC's, and the M2 that ``convert`` writes from MultiGEC essays,
UA-GEC annotated text or any other document format.  Consecutive sentences with the same
id make one document: their source tokens joined in order, each annotator's edits moved
by the tokens before them.  An annotator present in any sentence of the document is
present in it (with the edits it made where it made them); a sentence without a document
id is a document of its own.

>>> from gecformats.model import Edit, Sentence
>>> a = Sentence(("He", "go", "."), {0: (Edit(1, 2, (("goes",),)),)}, meta={"document": "7"})
>>> b = Sentence(("It", "rain", "."), {0: (Edit(1, 2, (("rains",),)),), 1: ()},
...              meta={"document": "7"})
>>> [d] = documents([a, b])
>>> d.source, [(e.start, e.end) for e in d.annotators[0]], sorted(d.annotators)
(('He', 'go', '.', 'It', 'rain', '.'), [(1, 2), (4, 5)], [0, 1])
>>> d.corrected(0)
('He', 'goes', '.', 'It', 'rains', '.')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from gecformats.model import Sentence

DOCUMENT_META = "document"
"""``Sentence.meta`` key of a sentence's document id (as :data:`gecformats.formats.m2.DOCUMENT_META`)."""


def document_id(sentence: Sentence) -> str | None:
    """The document ``sentence`` belongs to, or ``None``."""
    return sentence.meta.get(DOCUMENT_META) if sentence.meta else None


def documents(sentences: Iterable[Sentence]) -> Iterator[Sentence]:
    """``sentences`` grouped into documents: each run of consecutive sentences with one
    document id becomes one sentence (:func:`merge`); a sentence without an id stays as it
    is.  Streaming: one document in memory."""
    group: list[Sentence] = []
    current: str | None = None
    for sentence in sentences:
        doc = document_id(sentence)
        if group and (doc is None or doc != current):
            yield merge(group)
            group = []
        if doc is None:
            yield sentence
            current = None
            continue
        group.append(sentence)
        current = doc
    if group:
        yield merge(group)


def merge(group: Sequence[Sentence]) -> Sentence:
    """The sentences of one document as one sentence: sources joined, each annotator's
    edits moved by the tokens before their sentence (an annotator of any sentence is one
    of the document; ChERRANT targets are not carried)."""
    if len(group) == 1 and not group[0].targets:
        return group[0]
    source: list[str] = []
    edits: dict[int, list] = {}
    for sentence in group:
        offset = len(source)
        for annotator, own in sentence.annotators.items():
            moved = edits.setdefault(annotator, [])
            moved.extend(replace(e, start=e.start + offset, end=e.end + offset) if offset
                         else e for e in own)
        source.extend(sentence.source)
    meta = {DOCUMENT_META: document_id(group[0]) or ""}
    return Sentence(tuple(source), {a: tuple(e) for a, e in sorted(edits.items())},
                    id=group[0].id, meta=meta)


def sizes(sentences: Iterable[Sentence]) -> list[int]:
    """How many sentences each document of ``sentences`` has, in order (:func:`documents`'
    grouping), without keeping them."""
    out: list[int] = []
    current: str | None = None
    for sentence in sentences:
        doc = document_id(sentence)
        if out and doc is not None and doc == current:
            out[-1] += 1
        else:
            out.append(1)
        current = doc
    return out

"""Scoring glue: turning the edit model into the bundled MaxMatch scorer's input."""

from __future__ import annotations

from gecformats.model import Sentence

GoldEdits = dict[int, list[tuple[int, int, tuple[str, ...]]]]


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

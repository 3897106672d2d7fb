"""Matching system edits against gold edits (spec §6.7), the §7 filter and edit shrinking."""

from __future__ import annotations

from collections.abc import Sequence

from ._text import equals_ignore_whitespace_casing
from .search import Edit, GoldSpan

__all__ = ["edit_matches", "match_edits", "filter_whitespace_casing", "shrink_edit"]


def edit_matches(edit: Edit, gold: GoldSpan) -> bool:
    """The reference's ``matchEdit``: same start, end and original, correction among the gold
    corrections (exact, case-sensitive string equality)."""
    return (edit[0] == gold[0] and edit[1] == gold[1] and edit[2] == gold[2]
            and edit[3] in gold[3])


def match_edits(edits: Sequence[Edit], golds: Sequence[GoldSpan]) -> list[Edit]:
    """Credits of a system edit sequence (§6.7), with the reference's quirks.

    Inputs: system edits left to right, the annotator's gold list in file order.  Output: the
    credited system edits in credit order; an edit is credited once per matching gold edit at
    or after the cursor (no ``break``), and the cursor moves past the last match, so the result
    can be longer than ``edits``."""
    credits: list[Edit] = []
    cursor = 0
    n = len(golds)
    for e in edits:
        for i in range(cursor, n):
            if edit_matches(e, golds[i]):
                credits.append(e)
                cursor = i + 1
    return credits


def filter_whitespace_casing(edits: Sequence[Edit]) -> list[Edit]:
    """Drop edits whose original and correction differ only in U+0020 spaces and case (§7)."""
    return [e for e in edits if not equals_ignore_whitespace_casing(e[2], e[3])]


def shrink_edit(edit: Edit) -> Edit:
    """The reference's ``shrinkEdit`` used by the ``-v`` trace (§9.2): remove the longest
    common token prefix, then the longest common token suffix of the rest."""
    start, end, orig, corr = edit
    o, c = orig.split(), corr.split()
    i = 0
    lim = min(len(o), len(c))
    while i < lim and o[i] == c[i]:
        i += 1
    j = 1
    while j <= lim - i and o[len(o) - j] == c[len(c) - j]:
        j += 1
    return (start + i, end - (j - 1), " ".join(o[i:len(o) - (j - 1)]),
            " ".join(c[i:len(c) - (j - 1)]))

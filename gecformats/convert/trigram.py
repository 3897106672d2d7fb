"""Texts as the alignment (:mod:`gecformats.convert.align`) and the pipeline's sentence
check (:mod:`gecformats.metrics.inputs`) compare them: without white space, casefolded, and
their character trigrams.  A module of its own: the check runs on every ``score`` and
needs these two functions, not the alignment.

>>> flat(["He", "goes", "home", "."])
'hegoeshome.'
>>> sorted(trigrams("abcd"))
[('a', 'b', 'c'), ('b', 'c', 'd')]
"""

from __future__ import annotations

from collections.abc import Sequence


def flat(text: str | Sequence[str]) -> str:
    """``text`` (a string, or tokens) without white space, casefolded: what the alignment
    (and the pipeline's sentence check) compares, whatever the tokenization."""
    return "".join(text.split() if isinstance(text, str) else text).casefold()


def trigrams(text: str) -> frozenset[tuple[str, str, str]]:
    """The set of character trigrams of ``text`` (a :func:`flat` text)."""
    return frozenset(zip(text, text[1:], text[2:]))

"""The texts the alignment and the sentence check compare: one definition for both."""

from __future__ import annotations

import doctest

from gecformats.convert import align, trigram
from gecformats.metrics import inputs


def test_examples() -> None:
    result = doctest.testmod(trigram)
    assert result.attempted > 0 and result.failed == 0


def test_the_alignment_and_the_check_compare_alike() -> None:
    assert align.flat is trigram.flat and align.trigrams is trigram.trigrams
    assert inputs.grams(["He", "goes", "home", "today", "."]) == (
        trigram.flat("He goes  home today ."), trigram.trigrams("hegoeshometoday."))

from __future__ import annotations

import io

from conftest import FIXTURES, shared_file
from gecformats.formats import m2
from gecformats.metrics.stats import format_stats, stats


def test_fixture_counts() -> None:
    result = stats(m2.read(FIXTURES / "m2" / "conll14.m2"))
    assert result["sentences"] == 6
    assert result["tokens"] == sum(len(s.source) for s in m2.read(FIXTURES / "m2" / "conll14.m2"))
    assert result["annotators"] == {"0": {"edits": 7, "noop": 1}, "1": {"edits": 6, "noop": 2}}
    assert result["types"]["WOinc"] == 3 and result["alternatives"] == 0


def test_alternatives_and_alignments() -> None:
    assert stats(m2.read(FIXTURES / "m2" / "alternatives.m2"))["alternatives"] == 2
    cherrant = stats(m2.read(FIXTURES / "m2" / "cherrant.m2.char"))
    assert cherrant["alignments"] == 1
    assert cherrant["annotators"] == {"0": {"edits": 4, "noop": 1}, "1": {"edits": 1, "noop": 0}}


def test_format_stats_mentions_everything() -> None:
    text = format_stats(stats(m2.read(FIXTURES / "m2" / "cherrant.m2.char")))
    assert "sentences     3" in text and "alignments" in text and "W" in text


def test_empty_input() -> None:
    assert stats([]) == {"sentences": 0, "tokens": 0, "annotators": {}, "types": {},
                         "alternatives": 0, "alignments": 0}


def test_conll14_combined() -> None:
    path = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    result = stats(m2.read(path))
    assert result["sentences"] == 1312 and result["tokens"] == 30144
    assert result["annotators"] == {"0": {"edits": 2391, "noop": 229}, "1": {"edits": 3207, "noop": 46}}


def test_text_stats_of_a_training_file() -> None:
    from gecformats.formats import nlpcc
    from gecformats.metrics.stats import text_stats

    result = text_stats(nlpcc.read(io.StringIO("1\t0\t我好。\n2\t2\t他去。\t他去了。\t他去。\n")))
    assert result == {"sentences": 2, "characters": 6, "without_references": 1,
                      "references": {"0": {"present": 1, "unchanged": 0, "absent": 0},
                                     "1": {"present": 1, "unchanged": 1, "absent": 0}}}
    assert "without any   1 sentences" in format_stats(result)

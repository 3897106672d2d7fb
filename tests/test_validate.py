from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import FIXTURES, shared_file
from gecformats.validate import KINDS, Problem, check_sentence, validate
from gecformats.model import Edit, Sentence

INVALID = FIXTURES / "m2" / "invalid"


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_has_a_fixture_that_shows_it(kind: str) -> None:
    problems = list(validate(INVALID / f"{kind}.m2"))
    assert problems and {p.kind for p in problems} == {kind}
    for p in problems:
        assert p.file == str(INVALID / f"{kind}.m2") and p.line and p.sentence


def test_fixture_details() -> None:
    overlap = list(validate(INVALID / "overlap.m2"))
    assert [(p.line, p.sentence) for p in overlap] == [(3, 1), (6, 1)]
    syntax = list(validate(INVALID / "syntax.m2"))
    assert [(p.line, p.sentence) for p in syntax] == [(3, 1), (4, 1), (5, 1), (8, 2)]
    dup = list(validate(INVALID / "duplicate-edit.m2"))
    assert dup[0].line == 4 and "line 2" in dup[0].message


@pytest.mark.parametrize("path", sorted((FIXTURES / "m2").glob("*.m2*")), ids=lambda p: p.name)
def test_clean_fixtures_have_no_problems(path: Path) -> None:
    assert list(validate(path)) == []


def test_noop_line_with_edits_is_reported() -> None:
    text = "S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n"
    [p] = validate(io.StringIO(text))
    assert p.kind == "syntax" and p.line == 2 and "noop" in p.message


def test_validation_goes_on_after_a_broken_block() -> None:
    text = "A 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n\nS a b\nA 0 1|||X|||a|||REQUIRED|||-NONE-|||0\n"
    kinds = [(p.sentence, p.kind) for p in validate(io.StringIO(text))]
    assert kinds == [(1, "syntax"), (2, "identity-edit")]


def test_insertions_at_one_point_and_touching_spans_do_not_overlap() -> None:
    s = Sentence(("a", "b", "c"), {0: (
        Edit(1, 1, (("x",),)), Edit(1, 1, (("y",),)), Edit(0, 1, (("z",),)), Edit(1, 2, (("w",),)),
    )})
    assert list(check_sentence(s, "f", 1)) == []


def test_insertion_strictly_inside_a_span_overlaps() -> None:
    s = Sentence(("a", "b", "c"), {0: (Edit(0, 2, (("x",),)), Edit(1, 1, (("y",),)))})
    [p] = check_sentence(s, "f", 1)
    assert p.kind == "overlap" and p.line is None


def test_problem_text_and_dict() -> None:
    p = Problem("f.m2", 3, 2, "overlap", "msg")
    assert str(p) == "f.m2:3: sentence 2: overlap: msg"
    assert p.to_dict() == {"file": "f.m2", "line": 3, "sentence": 2, "kind": "overlap", "message": "msg"}


def test_nlpcc_gold_problems() -> None:
    path = shared_file("corpora/nlpcc2018/gold.01.m2")
    problems = [(p.sentence, p.kind) for p in validate(path)]
    assert (1104, "duplicate-edit") in problems
    assert (1682, "offset-out-of-range") in problems


def test_conll14_gold_is_clean() -> None:
    path = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    assert list(validate(path)) == []

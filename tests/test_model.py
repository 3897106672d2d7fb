from __future__ import annotations

import pytest

from gecformats.model import Edit, Sentence, Target, apply_edits

SOURCE = ("Moreover", "it", "is", "is", "not", "good", ".")


def edit(start: int, end: int, *alternatives: str, **kw: object) -> Edit:
    return Edit(start, end, tuple(tuple(a.split()) for a in alternatives) or ((),), **kw)  # type: ignore[arg-type]


def test_apply_replacement_deletion_insertion() -> None:
    edits = [edit(1, 1, ","), edit(3, 4), edit(5, 6, "right")]
    assert apply_edits(SOURCE, edits) == ("Moreover", ",", "it", "is", "not", "right", ".")


def test_insertions_at_one_offset_keep_their_order() -> None:
    # CoNLL-2014 sentence 54: applying the list reversed turns "this is" into "is this"
    edits = [edit(1, 4), edit(4, 4, "this"), edit(4, 4, "is")]
    assert apply_edits(SOURCE, edits)[:4] == ("Moreover", "this", "is", "not")
    assert apply_edits(SOURCE, list(reversed(edits)))[:4] == ("Moreover", "is", "this", "not")


def test_replacement_listed_before_insertion_at_its_start() -> None:
    # official-2014.combined-withalt.m2 sentence 780 lists "3 4" before "3 3"
    edits = [edit(3, 4, "was"), edit(3, 3, "still")]
    assert apply_edits(SOURCE, edits)[2:5] == ("is", "still", "was")


def test_alternatives() -> None:
    e = edit(5, 6, "bad", "wrong")
    assert apply_edits(SOURCE, [e], alternative=1)[5] == "wrong"
    assert apply_edits(SOURCE, [e], alternative=7)[5] == "bad"  # falls back to the first


def test_insertion_at_end() -> None:
    assert apply_edits(("a",), [edit(1, 1, "b c")]) == ("a", "b", "c")


@pytest.mark.parametrize("bad", [edit(6, 9, "x"), edit(-1, 0, "x"), edit(3, 2, "x")])
def test_out_of_range_edit_is_refused(bad: Edit) -> None:
    with pytest.raises(ValueError, match="out of range"):
        apply_edits(SOURCE, [bad])


def test_overlap_is_refused() -> None:
    with pytest.raises(ValueError, match="overlaps"):
        apply_edits(SOURCE, [edit(1, 3, "x"), edit(2, 4, "y")])
    with pytest.raises(ValueError, match="overlaps"):
        apply_edits(SOURCE, [edit(1, 3, "x"), edit(2, 2, "y")])


def test_edit_meta_takes_no_part_in_equality() -> None:
    a = Edit(1, 2, ((),), "R", meta=(("m2.deletion", "-NONE-"),))
    b = Edit(1, 2, ((),), "R")
    assert a == b and hash(a) == hash(b)
    assert a.get_meta("m2.deletion") == "-NONE-" and b.get_meta("m2.deletion") is None
    assert "meta" not in repr(a)


def test_edit_is_frozen() -> None:
    e = edit(1, 2, "x")
    with pytest.raises(AttributeError):
        e.start = 3  # type: ignore[misc]
    assert e.correction == ("x",) and not e.is_insertion
    assert e.original(SOURCE) == ("it",)


def test_sentence_helpers() -> None:
    s = Sentence(SOURCE, {0: (edit(3, 4),), 1: ()})
    assert s.corrected(0) == ("Moreover", "it", "is", "not", "good", ".")
    assert s.corrected(1) == SOURCE  # present with no edits: no change
    assert s.edits == (edit(3, 4),)
    with pytest.raises(KeyError):
        s.corrected(2)
    assert s.replace(id="x").id == "x"


def test_target_holds_one_alignment() -> None:
    t = Target("a b", 1, (edit(0, 1, "a"),))
    assert t.alignment == 1 and t.edits[0].correction == ("a",)


def test_make_edit_equals_the_dataclass_constructor() -> None:
    from gecformats.model import make_edit

    args = (1, 2, (("x",), ()), "R", False, "c", 3, (("k", "v"),))
    fast, slow = make_edit(*args), Edit(*args)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert type(fast) is Edit and fast.meta == slow.meta
    with pytest.raises(AttributeError):
        fast.type = "S"  # type: ignore[misc]

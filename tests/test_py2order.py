"""gecformats.metrics.py2order: Python 2.7's hashes and dict/set iteration order.

Expected values printed by CPython 2.7.18 (64-bit, UCS-4, no -R)."""

from __future__ import annotations

import pytest

from gecformats.metrics.py2order import Table, py2_hash, set_order

WORDS = ["He goes home .", "This machine is designed to help people .", "caf\xe9 au lait", "",
         "a", "These machines are designed for helping people ."] + [f"w{i} x y" for i in range(40)]
FROZEN = [frozenset(), frozenset([(0, 1, "These"), (2, 3, "are")]), frozenset([(1, 2, "machine")]),
          frozenset([(5, 6, "helping")]), frozenset([(3, 4, "")])]


@pytest.mark.parametrize("value, expected", [
    ("He goes home .", -3666246572481253738),
    ("This machine is designed to help people .", 6489410766486529320),
    ("caf\xe9 au lait", -5516814691870640833),  # a unicode object in Python 2
    ("", 0), ("a", 12416037344), (-1, -2), (7, 7),
    ((0, 1, "These"), 6138676315073439618), ((3, 4, ""), 5050912105990807438),
    (FROZEN[0], 133156838395276), (FROZEN[1], 2720490664046446009),
    (FROZEN[4], -4978517960869863216),
])
def test_hashes(value, expected):
    assert py2_hash(value) == expected


def test_dict_order_through_resizes():
    table = Table()
    for word in WORDS:
        assert table.add(word)
    assert not table.add(WORDS[0])  # already there: nothing moves
    assert [WORDS.index(k) for k in table.keys()][:12] == [3, 24, 25, 16, 23, 20, 21, 8, 6, 7, 0, 11]
    assert len(table) == len(WORDS) and "a" in table


def test_set_of_frozensets_order():
    assert [FROZEN.index(f) for f in set_order(FROZEN + [FROZEN[2]])] == [3, 1, 2, 0, 4]


def test_unsupported_type():
    with pytest.raises(TypeError):
        py2_hash(1.5)

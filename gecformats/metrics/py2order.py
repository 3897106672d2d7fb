"""The iteration order of Python 2.7's ``dict`` and ``set`` (and its ``str(float)``), for
reproducing old tools exactly.

Felice & Briscoe's ``ieval.py`` keeps the first of several equally good references, and the
order in which it tries them is the order of a Python 2.7 ``dict`` keyed by the reference
strings, filled from a cartesian product of Python 2.7 ``set`` s of ``frozenset`` s.  That
order follows from CPython 2.7's hash functions (no hash randomisation, a 64-bit build) and
its open-addressing tables, which this module emulates:

* :func:`py2_hash` of ``int``, ``str`` (hashed over code points, as ``unicode`` and ASCII
  ``str`` are), ``tuple`` and ``frozenset``;
* :class:`Table`: insertion into a table of 8 slots and more, probing with
  ``i = 5*i + perturb + 1; perturb >>= 5``, growing to the smallest power of two above
  4 × the number of keys once two thirds of the slots are used, re-inserting in slot order.

Keys are never removed, so there are no dummy slots.

>>> t = Table()
>>> for word in ["b", "a", "c"]:
...     _ = t.add(word)
>>> t.keys()
['a', 'c', 'b']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any

_MASK64 = (1 << 64) - 1


def _signed(x: int) -> int:
    """``x`` as a C ``long`` (64-bit two's complement)."""
    x &= _MASK64
    return x - (1 << 64) if x >> 63 else x


def py2_hash(obj: Any) -> int:
    """CPython 2.7's ``hash(obj)`` on a 64-bit build without ``-R``.

    Supports ``int`` (and ``bool``), ``str`` (the hash of ``unicode``, equal to that of an
    ASCII ``str``; over code points, a UCS-4 build), ``tuple`` and ``frozenset`` of these.

    Raises:
        TypeError: another type.
    """
    if isinstance(obj, str):
        return _str_hash(obj)
    if isinstance(obj, int):
        h = _signed(obj)  # small ints hash to themselves
        return -2 if h == -1 else h
    if isinstance(obj, tuple):
        x = 0x345678
        mult = 1000003
        n = len(obj)
        for item in obj:
            n -= 1
            x = _signed((x ^ py2_hash(item)) * mult)
            mult = _signed(mult + 82520 + n + n)
        x = _signed(x + 97531)
        return -2 if x == -1 else x
    if isinstance(obj, frozenset):
        h = _signed(1927868237 * (len(obj) + 1))
        for item in obj:
            e = py2_hash(item)
            h = _signed(h ^ _signed((e ^ _signed(e << 16) ^ 89869747) * 3644798167))
        h = _signed(h * 69069 + 907133923)
        return 590923713 if h == -1 else h
    raise TypeError(f"no Python 2 hash for {type(obj).__name__}")


def _str_hash(text: str) -> int:
    if not text:
        return 0
    x = ord(text[0]) << 7
    for ch in text:
        x = ((1000003 * x) ^ ord(ch)) & _MASK64
    x = _signed(x ^ len(text))
    return -2 if x == -1 else x


class Table:
    """The slots of a Python 2.7 ``dict`` or ``set`` filled by inserting keys in order.

    ``add`` inserts a key unless an equal one is there; ``keys`` lists them in iteration
    order.  A value can ride along with each key (``dict``)."""

    __slots__ = ("_slots", "_index", "_hashes")

    def __init__(self) -> None:
        self._slots: list[Any] = [None] * 8  # (key, hash) or None
        self._index: dict[Hashable, int] = {}
        self._hashes: dict[Hashable, int] = {}

    def __contains__(self, key: Hashable) -> bool:
        return key in self._index

    def __len__(self) -> int:
        return len(self._index)

    def add(self, key: Hashable, h: int | None = None) -> bool:
        """Insert ``key`` (with its Python 2 hash ``h``, computed when omitted); ``False``
        if an equal key was there already."""
        if key in self._index:
            return False
        if h is None:
            h = py2_hash(key)
        self._place(key, h)
        used = len(self._index)
        if used * 3 >= len(self._slots) * 2:
            self._resize(4 * used if used <= 50000 else 2 * used)
        return True

    def _place(self, key: Hashable, h: int) -> None:
        slots = self._slots
        mask = len(slots) - 1
        perturb = h & _MASK64
        i = perturb & mask
        while slots[i & mask] is not None:
            i = (5 * i + perturb + 1) & _MASK64
            perturb >>= 5
        slots[i & mask] = (key, h)
        self._index[key] = i & mask

    def _resize(self, minused: int) -> None:
        size = 8
        while size <= minused:
            size <<= 1
        old = [s for s in self._slots if s is not None]
        self._slots = [None] * size
        self._index.clear()
        for key, h in old:
            self._place(key, h)

    def keys(self) -> list[Any]:
        """The keys in the table's iteration order (slot order)."""
        return [s[0] for s in self._slots if s is not None]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys())


def py2_float(value: float) -> str:
    """Python 2's ``str(float)``: ``%.12g``, with ``.0`` added to a bare integer."""
    text = "%.12g" % value
    if not any(mark in text for mark in (".", "e", "inf", "nan")):
        text += ".0"
    return text


def set_order(items: Iterable[Hashable]) -> list[Any]:
    """The iteration order of a Python 2.7 ``set`` built by adding ``items`` in order
    (duplicates dropped)."""
    table = Table()
    for item in items:
        table.add(item)
    return table.keys()

"""Text rules of the reference scorer (spec §3 and §7): Python 2.7 whitespace and lower case.

The reference runs under Python 2.7 (Unicode 5.2).  Python 3 differs in two places that matter:
U+180E is no longer whitespace, and ``str.lower`` knows case pairs added after Unicode 5.2 and
the multi-character/contextual mappings (U+0130, final sigma).  This module fixes both sets.
"""

from __future__ import annotations

import re

__all__ = ["PY27_WHITESPACE", "split_hypothesis", "py27_lower", "equals_ignore_whitespace_casing"]

#: The characters ``unicode.split()`` of Python 2.7 splits on (spec §3 item 4).
PY27_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u180e"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_WS_CLASS = "[" + "".join(sorted(PY27_WHITESPACE)) + "]"
_WS_RUN = re.compile(_WS_CLASS + "+")


def split_hypothesis(line: str) -> list[str]:
    """Tokenise one hypothesis line exactly like the reference (spec §3).

    Input: one decoded line (its line terminator may still be attached).  Output: the tokens,
    obtained by stripping and splitting on runs of the fixed Python 2.7 whitespace set (which
    contains U+180E and excludes U+200B and U+FEFF); an empty or blank line gives ``[]``.
    Never raises.
    """
    if line.isascii():
        # ASCII whitespace is identical in Python 2.7 and 3 (\t\n\v\f\r, \x1c-\x1f, space).
        return line.split()
    return [tok for tok in _WS_RUN.split(line) if tok]


# Python 2.7's one-to-one lower-case mapping (Unicode 5.2): runs of
# (first code point, count, step, delta), generated from Python 2.7.18's unicode.lower().
_LOWER_RUNS = (
    (0x41, 26, 1, 32), (0xC0, 23, 1, 32), (0xD8, 7, 1, 32), (0x100, 24, 2, 1),
    (0x130, 1, 1, -199), (0x132, 3, 2, 1), (0x139, 8, 2, 1), (0x14A, 23, 2, 1),
    (0x178, 1, 1, -121), (0x179, 3, 2, 1), (0x181, 1, 1, 210), (0x182, 2, 2, 1),
    (0x186, 1, 1, 206), (0x187, 1, 1, 1), (0x189, 2, 1, 205), (0x18B, 1, 1, 1),
    (0x18E, 1, 1, 79), (0x18F, 1, 1, 202), (0x190, 1, 1, 203), (0x191, 1, 1, 1),
    (0x193, 1, 1, 205), (0x194, 1, 1, 207), (0x196, 1, 1, 211), (0x197, 1, 1, 209),
    (0x198, 1, 1, 1), (0x19C, 1, 1, 211), (0x19D, 1, 1, 213), (0x19F, 1, 1, 214),
    (0x1A0, 3, 2, 1), (0x1A6, 1, 1, 218), (0x1A7, 1, 1, 1), (0x1A9, 1, 1, 218),
    (0x1AC, 1, 1, 1), (0x1AE, 1, 1, 218), (0x1AF, 1, 1, 1), (0x1B1, 2, 1, 217),
    (0x1B3, 2, 2, 1), (0x1B7, 1, 1, 219), (0x1B8, 1, 1, 1), (0x1BC, 1, 1, 1), (0x1C4, 1, 1, 2),
    (0x1C5, 1, 1, 1), (0x1C7, 1, 1, 2), (0x1C8, 1, 1, 1), (0x1CA, 1, 1, 2), (0x1CB, 9, 2, 1),
    (0x1DE, 9, 2, 1), (0x1F1, 1, 1, 2), (0x1F2, 2, 2, 1), (0x1F6, 1, 1, -97),
    (0x1F7, 1, 1, -56), (0x1F8, 20, 2, 1), (0x220, 1, 1, -130), (0x222, 9, 2, 1),
    (0x23A, 1, 1, 10795), (0x23B, 1, 1, 1), (0x23D, 1, 1, -163), (0x23E, 1, 1, 10792),
    (0x241, 1, 1, 1), (0x243, 1, 1, -195), (0x244, 1, 1, 69), (0x245, 1, 1, 71),
    (0x246, 5, 2, 1), (0x370, 2, 2, 1), (0x376, 1, 1, 1), (0x386, 1, 1, 38), (0x388, 3, 1, 37),
    (0x38C, 1, 1, 64), (0x38E, 2, 1, 63), (0x391, 17, 1, 32), (0x3A3, 9, 1, 32),
    (0x3CF, 1, 1, 8), (0x3D8, 12, 2, 1), (0x3F4, 1, 1, -60), (0x3F7, 1, 1, 1),
    (0x3F9, 1, 1, -7), (0x3FA, 1, 1, 1), (0x3FD, 3, 1, -130), (0x400, 16, 1, 80),
    (0x410, 32, 1, 32), (0x460, 17, 2, 1), (0x48A, 27, 2, 1), (0x4C0, 1, 1, 15),
    (0x4C1, 7, 2, 1), (0x4D0, 43, 2, 1), (0x531, 38, 1, 48), (0x10A0, 38, 1, 7264),
    (0x1E00, 75, 2, 1), (0x1E9E, 1, 1, -7615), (0x1EA0, 48, 2, 1), (0x1F08, 8, 1, -8),
    (0x1F18, 6, 1, -8), (0x1F28, 8, 1, -8), (0x1F38, 8, 1, -8), (0x1F48, 6, 1, -8),
    (0x1F59, 4, 2, -8), (0x1F68, 8, 1, -8), (0x1F88, 8, 1, -8), (0x1F98, 8, 1, -8),
    (0x1FA8, 8, 1, -8), (0x1FB8, 2, 1, -8), (0x1FBA, 2, 1, -74), (0x1FBC, 1, 1, -9),
    (0x1FC8, 4, 1, -86), (0x1FCC, 1, 1, -9), (0x1FD8, 2, 1, -8), (0x1FDA, 2, 1, -100),
    (0x1FE8, 2, 1, -8), (0x1FEA, 2, 1, -112), (0x1FEC, 1, 1, -7), (0x1FF8, 2, 1, -128),
    (0x1FFA, 2, 1, -126), (0x1FFC, 1, 1, -9), (0x2126, 1, 1, -7517), (0x212A, 1, 1, -8383),
    (0x212B, 1, 1, -8262), (0x2132, 1, 1, 28), (0x2160, 16, 1, 16), (0x2183, 1, 1, 1),
    (0x24B6, 26, 1, 26), (0x2C00, 47, 1, 48), (0x2C60, 1, 1, 1), (0x2C62, 1, 1, -10743),
    (0x2C63, 1, 1, -3814), (0x2C64, 1, 1, -10727), (0x2C67, 3, 2, 1), (0x2C6D, 1, 1, -10780),
    (0x2C6E, 1, 1, -10749), (0x2C6F, 1, 1, -10783), (0x2C70, 1, 1, -10782), (0x2C72, 1, 1, 1),
    (0x2C75, 1, 1, 1), (0x2C7E, 2, 1, -10815), (0x2C80, 50, 2, 1), (0x2CEB, 2, 2, 1),
    (0xA640, 16, 2, 1), (0xA662, 6, 2, 1), (0xA680, 12, 2, 1), (0xA722, 7, 2, 1),
    (0xA732, 31, 2, 1), (0xA779, 2, 2, 1), (0xA77D, 1, 1, -35332), (0xA77E, 5, 2, 1),
    (0xA78B, 1, 1, 1), (0xFF21, 26, 1, 32), (0x10400, 40, 1, 40),)


def _build_lower_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for first, count, step, delta in _LOWER_RUNS:
        for k in range(count):
            cp = first + k * step
            table[cp] = cp + delta
    return table


_LOWER_TABLE = _build_lower_table()


def py27_lower(text: str) -> str:
    """Lower-case ``text`` with Python 2.7's simple Unicode 5.2 mapping (spec §7).

    Input: any string.  Output: a string of the same length.  Unlike ``str.lower`` it maps
    U+0130 to ``i``, never produces a final sigma, and leaves letters whose case pair was added
    after Unicode 5.2 unchanged.  Never raises.
    """
    if text.isascii():
        return text.lower()
    return text.translate(_LOWER_TABLE)


def equals_ignore_whitespace_casing(a: str, b: str) -> bool:
    """The reference's ``equals_ignore_whitespace_casing``: compare after deleting U+0020 and
    lower-casing both sides with :func:`py27_lower` (spec §7)."""
    return py27_lower(a.replace(" ", "")) == py27_lower(b.replace(" ", ""))

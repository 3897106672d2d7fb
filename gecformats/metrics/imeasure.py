"""The I-measure (Felice & Briscoe 2015): token-level detection and correction scores of a
system against every reference its gold loci allow, as ``ieval.py`` computes them.

For each sentence, source, hypothesis and a reference are aligned three ways (sum of pairs:
match 0, gap 2, mismatch 3; the backtrace prefers no gap, then one, then two), and each
column counts (``s`` source, ``h`` hypothesis, ``r`` reference)::

    s = h = r          TN
    s = h ≠ r          FN
    s ≠ h, s = r       FP
    s ≠ h ≠ r, h = r   TP (detection and correction)
    s ≠ h ≠ r, h ≠ r   TP for detection; FP, FN and FPN for correction

From the counts: ``P = TP/(TP+FP)`` and ``R = TP/(TP+FN)`` (1 when the denominator is 0),
``F_β``, ``Acc = (TP+TN)/(TP+TN+FP+FN−FPN)``, ``WAcc = (w·TP+TN)/(w·(TP+FP)+TN+FN−(w+1)·FPN/2)``,
the same for the *baseline* (the source as hypothesis, against the same reference), and
``I = (WAcc−WAcc_b)/(1−WAcc_b)`` when better than the baseline, ``WAcc/WAcc_b − 1`` when worse,
``⌊WAcc⌋`` when equal.

Per sentence the reference that maximises the chosen metric (default: correction WAcc) is
kept; ties go to correction I, WAcc, Acc, then the same four of the other aspect, then to the
reference tried first.  With ``optimise="corpus"`` the comparison is made on the running
corpus totals instead.  The corpus result sums the kept counts.

Exactness with the original (``mfelice/imeasure``, ``ieval.py`` under Python 2.7): the
references are tried in the original's order, which is that of a Python 2.7 ``dict`` keyed by
the reference strings (:mod:`gecformats.metrics.py2order`), so ties are broken as it breaks
them.  Where the original fails (a hypothesis file with fewer lines than the gold has
sentences: it scores empty hypotheses; an ``<error>`` without alternatives: it crashes),
gecformats stops with an error naming the file.  On an empty sentence the original divides
by zero (Acc and WAcc of no column); gecformats takes them as 1, as P and R are 1 when
their denominator is 0.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import compress, islice
from operator import add
from typing import Any

from gecformats.errors import GecFormatError
from gecformats.io import text_lines
from gecformats.metrics.base import Metric, Totals, _Looping, _LoopingSwap
from gecformats.metrics.py2order import Table, py2_float, set_order
from gecformats.model import LocusSentence

ASPECTS = ("d", "c")
"""Detection, correction."""

METRICS = ("tp", "tn", "fp", "fn", "p", "r", "f", "acc", "wacc", "i")
"""What ``maximise`` may name after the aspect letter (``cwacc``, ``df`` …)."""

COUNT_NAMES = ("tp", "tn", "fp", "fn", "fpn")

GAP = 2
MISMATCH = 3

Counts = tuple[int, int, int, int, int, int, int, int, int, int]
"""``(tp, tn, fp, fn, fpn)`` for detection, then for correction."""

ZERO: Counts = (0,) * 10  # type: ignore[assignment]


# ------------------------------------------------------------------------- alignment


def _pair_table(a: Sequence[str], b: Sequence[str], budget: CellBudget | None = None
                ) -> list[list[int]]:
    n, m = len(a), len(b)
    if budget is not None:
        budget.take(COMPUTED * (n + 1) * (m + 1))
    rows = [[j * GAP for j in range(m + 1)]]
    for i in range(1, n + 1):
        rows.append(_next_row(rows[-1], i, a[i - 1], b))
    return rows


def _next_row(prev: list[int], i: int, x: str, b: Sequence[str],
              head: list[int] | None = None) -> list[int]:
    """Row ``i`` of a pairwise table (its token ``x`` against ``b``) from row ``i − 1``;
    ``head``, when given, is the row's first cells, already known."""
    if head is None:
        cur = [i * GAP]
        p = 0
    else:
        cur = head
        p = len(head) - 1
    left = cur[-1]
    append = cur.append
    for d, up, y in zip(islice(prev, p, None), islice(prev, p + 1, None), islice(b, p, None)):
        if x != y:
            d += MISMATCH
        up += GAP
        if up < d:
            d = up
        left += GAP
        if d < left:
            left = d
        append(left)
    return cur


def _pair_backtrace(t: list[list[int]], a: Sequence[str], b: Sequence[str]
                    ) -> tuple[list[str], list[str]]:
    la: list[str] = []
    lb: list[str] = []
    i, j = len(a), len(b)
    while i or j:
        if i and j and t[i][j] == t[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else MISMATCH):
            la.append(a[i - 1])
            lb.append(b[j - 1])
            i, j = i - 1, j - 1
        elif i and t[i][j] == t[i - 1][j] + GAP:
            la.append(a[i - 1])
            lb.append("")
            i -= 1
        else:
            la.append("")
            lb.append(b[j - 1])
            j -= 1
    return la[::-1], lb[::-1]


BIG = 1 << 60

DEFAULT_MAX_CELLS = 80_000_000
"""The most alignment-table cells one sentence may fill (``max_cells``: the three-way and
pairwise tables of all the references tried for it, summed; a computed cell counts
:data:`COMPUTED`, one only allocated counts 1) unless told otherwise.

Measured, a unit costs at most about 12 bytes and 0.1 µs (a 9-token source against a
262,153-token line: 87 million units, 8 s, 1 GB), so this keeps a sentence under about
1 GB and 8 s.  The largest CoNLL-2014 sentence needs 59 million (NTHU's line 40, another
sentence than the source, against 960 references), the next 12 million.  Before each
three-way table an upper bound of its cost (its pairwise tables and the whole cube) must
fit in what is left, so hypotheses several times longer than their source (a 400-token
sentence against three copies of itself, a line of 1 MB) are refused at once.  Systems
scored together share their work on a sentence (:class:`SentenceWork`), but each is
charged what it would fill alone: the same sentences are refused whichever systems are
scored with it."""


COMPUTED = 4
"""What a computed table cell counts for against ``max_cells``: an allocated one that is
never computed (the unused ends of the band's rows) holds a shared object, 8 bytes and no
time; a computed one up to 36 bytes (its int) and 0.3 µs."""


class AlignmentTooLarge(ValueError):
    """A sentence's alignments need more than ``max_cells`` table cells: aligning it would
    take more memory and time than allowed.  Never a different score: the sentence is refused.

    Attributes:
        limit: the ``max_cells`` in force.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"its alignments need over {limit:,} table cells (the limit, "
                         "max_cells): the hypothesis is probably several times longer than "
                         "the source")


class CellBudget:
    """The table cells one sentence may still fill (``limit`` ``None``: no limit);
    :meth:`take` raises :class:`AlignmentTooLarge` before a table past it is made.  It also
    keeps the sentence's pairwise tables that its references share (``cache``)."""

    __slots__ = ("cache", "left", "limit")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.left: float = float("inf") if limit is None else limit
        self.cache: dict[Any, Any] = {}

    def take(self, cells: int) -> None:
        """Count ``cells`` more cells.

        Raises:
            AlignmentTooLarge: the sentence's limit would be passed.
        """
        self.left -= cells
        if self.left < 0:
            raise AlignmentTooLarge(self.limit)  # type: ignore[arg-type]

    def need(self, cells: int) -> None:
        """Check, before any work, that ``cells`` more (an upper bound) would fit.

        Raises:
            AlignmentTooLarge: they would not.
        """
        if cells > self.left:
            raise AlignmentTooLarge(self.limit)  # type: ignore[arg-type]


def _three_way(s1: Sequence[str], s2: Sequence[str], s3: Sequence[str],
               budget: CellBudget | None = None) -> tuple[list[str], list[str], list[str]]:
    """The sum-of-pairs alignment of ``align.py`` (its cost table and backtrace order),
    computed on a band that provably holds every cell of every minimum-cost path.

    The cost of a three-way alignment is the sum of the costs of the three pairwise
    alignments it induces, so a path through cell ``(i, j, k)`` costs at least
    ``LB = Σ_pairs`` (the pair's cheapest alignment through that pair of cells: its prefix
    and suffix optima; Carrillo & Lipman 1988).  Cells with ``LB`` above an upper bound
    ``U`` of the optimum are left out (their value stays larger than any path cost): every
    cell of an optimal path, and its optimal predecessor, is inside, with its exact value,
    and a cell inside never has a value below its exact one, so the backtrace takes the
    same steps as on the full table.  ``U`` starts at the sum of the pairwise optima plus a
    margin; if the banded optimum exceeds ``U`` it becomes ``U`` and the table is made once
    more.

    Raises:
        AlignmentTooLarge: the tables would take more cells than ``budget`` has left.
    """
    if budget is None:
        budget = CellBudget(None)
    budget.need(_three_way_bound(len(s1), len(s2), len(s3)))
    pair = _pair_tables(s1, s2, budget)
    side13 = _side(s1, s3, budget.cache, budget)
    side23 = _side(s2, s3, budget.cache, budget)
    return _three_way_from(s1, s2, s3, pair, side13, side23, budget)


def _three_way_bound(n1: int, n2: int, n3: int) -> int:
    """An upper bound, known beforehand, of what a three-way table of sequences of these
    lengths costs: its pairwise tables, the band's fixed part, the whole cube."""
    return (COMPUTED * (3 * (n1 + 1) * (n2 + 1) + 4 * (n1 + n2 + 2) * (n3 + 1))
            + (n1 + 1) * (n2 + 1) * (n3 + 1))


def _three_way_from(s1: Sequence[str], s2: Sequence[str], s3: Sequence[str], pair: _Pair,
                    side13: _Side, side23: _Side, budget: CellBudget | None
                    ) -> tuple[list[str], list[str], list[str]]:
    """:func:`_three_way` once its pairwise tables are made."""
    n1, n2, n3 = len(s1), len(s2), len(s3)
    # the pairwise optima add up to a lower bound of the optimum, usually close to it
    lowest = pair.best + side13.best + side23.best
    bound = lowest + 6
    while True:
        d = _banded_table(s1, s2, s3, pair, side13, side23, bound - lowest, budget)
        total = _cell(d, n1, n2, n3)
        if total <= bound:
            break
        bound = total if total < BIG else 2 * bound - lowest + 6
    return _three_way_backtrace(d, s1, s2, s3, pair.t, side13.t, side23.t)


class _Pair:
    """The pairwise table ``t`` of two sequences (the source and the hypothesis), its
    optimum, and per slack the cells of each row whose excess (the cheapest alignment
    through the cell minus the optimum) is within it."""

    __slots__ = ("t", "back", "best", "rows")

    def __init__(self, forward: list[list[int]], backward: list[list[int]]) -> None:
        self.t = forward
        self.back = backward
        self.best = forward[-1][-1]
        self.rows: dict[int, list[list[tuple[int, int]]]] = {}

    def within(self, slack: int) -> list[list[tuple[int, int]]]:
        """Per row ``i``, the ``(j, excess)`` with ``j >= 1`` and the excess at most
        ``slack``, by ``j``."""
        rows = self.rows.get(slack)
        if rows is None:
            best, n = self.best, len(self.t) - 1
            top = best + slack
            rows = []
            for i, row in enumerate(self.t):
                values = list(map(add, row, reversed(self.back[n - i])))
                rows.append([(j, values[j] - best)
                             for j in compress(range(1, len(values)),
                                               map(top.__ge__, values[1:]))])
            self.rows[slack] = rows
        return rows


class _Side:
    """The pairwise table ``t[i][k]`` of the source or the hypothesis (``i``) and a
    reference (``k``), with the table of the reversed sequences, the optimum, and the
    excess hulls (:meth:`hulls`) per slack."""

    __slots__ = ("t", "back", "best", "cache", "costs")

    def __init__(self, t: list[tuple[int, ...]], backward: list[list[int]]) -> None:
        self.t = t
        self.back: list[tuple[int, ...]] = list(zip(*backward))
        self.best = t[-1][-1]
        self.cache: dict[int, list[tuple[list[int], list[int]]]] = {}
        self.costs: list[list[int]] | None = None

    def hulls(self, slack: int) -> list[tuple[list[int], list[int]]]:
        """Per row ``i`` of the excess table (the cheapest alignment through the cell minus
        the optimum), for each threshold ``t`` in ``[0, slack]``: the first and last column
        whose excess is at most ``t`` (``(len, -1)`` when none)."""
        out = self.cache.get(slack)
        if out is None:
            best = self.best
            top = best + slack
            out = []
            width = len(self.t[0])
            n, n3 = len(self.t) - 1, width - 1
            # aligning prefixes (or suffixes) whose lengths differ by d costs at least d
            # gaps: only the columns k near the row i can be within the slack
            shift = n3 - n
            reach = (top - GAP * abs(shift)) // (2 * GAP)
            before, after = min(0, shift) - reach, max(0, shift) + reach
            no_lo, no_hi = [width] * (slack + 1), [-1] * (slack + 1)
            for i, (row, back) in enumerate(zip(self.t, reversed(self.back))):
                first = i + before if i + before > 0 else 0
                last = i + after if i + after < n3 else n3
                values = list(map(add, row[first:last + 1],
                                  reversed(back[n3 - last:n3 - first + 1])))
                ks = [k for k, v in enumerate(values, first) if v <= top]
                # scanned from either end, each new smallest excess e sets the thresholds
                # from e up to the previous smallest
                lo = no_lo[:]
                above = slack + 1
                for k in ks:
                    e = values[k - first] - best
                    if e < above:
                        lo[e:above] = [k] * (above - e)
                        if not e:
                            break
                        above = e
                hi = no_hi[:]
                above = slack + 1
                for k in reversed(ks):
                    e = values[k - first] - best
                    if e < above:
                        hi[e:above] = [k] * (above - e)
                        if not e:
                            break
                        above = e
                out.append((lo, hi))
            self.cache[slack] = out
        return out

    def mismatches(self, a: Sequence[str], ref: Sequence[str]) -> list[list[int]]:
        """Per token of ``a`` (the row ``i``, from 1), the cost of matching it with each
        token of the reference (from column 1; column 0 unused)."""
        if self.costs is None:
            self.costs = [[]] + [[0] + [0 if x == c else MISMATCH for c in ref] for x in a]
        return self.costs


def _pair_tables(a: Sequence[str], b: Sequence[str], budget: CellBudget) -> _Pair:
    """The pairwise tables of ``a`` and ``b`` (:class:`_Pair`), made once per sentence
    (every reference is aligned with the same source and hypothesis)."""
    key = ("pair", tuple(a), tuple(b))
    tables = budget.cache.get(key)
    if tables is None:
        forward = _pair_table(a, b, budget)
        tables = budget.cache[key] = _Pair(forward, _pair_table(a[::-1], b[::-1], budget))
    return tables  # type: ignore[no-any-return]


def _side(a: Sequence[str], ref: Sequence[str], cache: dict[Any, Any],
          budget: CellBudget | None = None, like: Sequence[str] | None = None) -> _Side:
    """As :func:`_pair_tables` for ``a`` (the source or the hypothesis) and a reference.

    The references of a sentence share long prefixes and suffixes, so the tables are made
    with the reference's tokens as rows, each row kept in a trie of the references seen
    (a row depends only on the tokens before it), and transposed.  ``like``: a sequence
    whose tables of ``ref`` are in ``cache``: the cells of the tokens ``a`` shares with
    it at the start (forward) or the end (backward) are taken from them."""
    seeds: tuple[tuple[Any, int] | None, tuple[Any, int] | None] = (None, None)
    if like is not None:
        start = _common_start(a, like)
        end = _common_start(a[::-1], like[::-1])
        seeds = ((cache[("forward", tuple(like))], start),
                 (cache[("backward", tuple(like[::-1]))], end))
    return _Side(list(zip(*_trie_rows(ref, a, cache, "forward", budget, seeds[0]))),
                 _trie_rows(ref[::-1], a[::-1], cache, "backward", budget, seeds[1]))


def _common_start(a: Sequence[str], b: Sequence[str]) -> int:
    """How many tokens ``a`` and ``b`` share at the start."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _trie_rows(seq: Sequence[str], other: Sequence[str], cache: dict[Any, Any], side: str,
               budget: CellBudget | None = None, seed: tuple[Any, int] | None = None
               ) -> list[list[int]]:
    """The rows of ``_pair_table(seq, other)``, each made once per ``cache`` (a sentence)
    for all the sequences with the same tokens before it; ``budget`` is charged for the
    rows made.  ``seed``: the root of a trie holding ``seq`` against a sequence whose first
    ``p`` tokens are ``other``'s, and ``p``: a new row's first ``p + 1`` cells are its."""
    key = (side, tuple(other))
    node = cache.get(key)
    if node is None:
        node = cache[key] = ([j * GAP for j in range(len(other) + 1)], {})
    known, p = seed if seed is not None and seed[1] else (None, 0)
    rows = [node[0]]
    for i, x in enumerate(seq, 1):
        if known is not None:
            known = known[1][x]
        child = node[1].get(x)
        if child is None:
            if budget is not None:
                budget.take(COMPUTED * (len(other) + 1))
            head = known[0][:p + 1] if known is not None else None
            child = node[1][x] = (_next_row(node[0], i, x, other, head), {})
        rows.append(child[0])
        node = child
    return rows


def _cell(d: list[list[list[int] | None]], i: int, j: int, k: int) -> int:
    row = d[i][j]
    return BIG if row is None else row[k]


def _band(n1: int, pair: _Pair, side13: _Side, side23: _Side, slack: int
          ) -> list[list[tuple[int, int, int]]]:
    """Per ``i`` in ``[1, n1]``, the rows ``(j, k_lo, k_hi)`` (``j >= 1``) of the band whose
    cells may be on a path costing at most the pairwise optima plus ``slack``: the pair
    (1, 2) leaves ``t = slack − x12[i][j]``, and ``k`` must keep both ``x13[i][k]`` and
    ``x23[j][k]`` within ``t`` (the hull of those ``k``)."""
    h13, h23 = side13.hulls(slack), side23.hulls(slack)
    within = pair.within(slack)
    band: list[list[tuple[int, int, int]]] = [[]]
    for i in range(1, n1 + 1):
        rows = []
        lo13, hi13 = h13[i]
        for j, x in within[i]:
            t = slack - x
            lo23, hi23 = h23[j]
            lo = lo13[t]
            k = lo23[t]
            if k > lo:
                lo = k
            hi = hi13[t]
            k = hi23[t]
            if k < hi:
                hi = k
            if lo <= hi:
                rows.append((j, lo, hi))
        band.append(rows)
    return band


def _plane_row(d: list[list[list[int] | None]], i: int, j: int, t12: list[list[int]],
               t13: list[tuple[int, ...]], t23: list[tuple[int, ...]]) -> list[int]:
    """Row ``(i, j)`` of the planes ``i = 0`` or ``j = 0`` (made when first needed: their
    cells are the pairwise tables' plus the gaps of the third sequence)."""
    row = d[i][j]
    if row is None:
        if i == 0:
            row = [v + (j + k) * GAP for k, v in enumerate(t23[j])]
        else:
            row = [v + (i + k) * GAP for k, v in enumerate(t13[i])]
        row[0] = t12[i][j] + (i + j) * GAP
        d[i][j] = row
    return row


def _banded_table(s1: Sequence[str], s2: Sequence[str], s3: Sequence[str], pair: _Pair,
                  side13: _Side, side23: _Side, slack: int,
                  budget: CellBudget | None = None) -> list[list[list[int] | None]]:
    n1, n2, n3 = len(s1), len(s2), len(s3)
    if budget is not None:  # first the work of any table: the band's search over (i, j) and
        # its hulls, the planes i = 0 and j = 0 and the row pointers
        budget.take(COMPUTED * ((n1 + 1) * (n2 + 1) + 2 * (n1 + n2 + 2) * (n3 + 1)))
    band = _band(n1, pair, side13, side23, slack)
    if budget is not None:  # the band's rows
        budget.take(sum(map(len, band)) * (n3 + 1)
                    + (COMPUTED - 1) * sum(hi - lo + 1 for rows in band for _, lo, hi in rows))
    t12, t13, t23 = pair.t, side13.t, side23.t
    g2 = 2 * GAP
    big_row = [BIG] * (n3 + 1)
    d: list[list[list[int] | None]] = [[None] * (n2 + 1) for _ in range(n1 + 1)]
    costs13 = side13.mismatches(s1, s3)
    for i in range(1, n1 + 1):
        a = s1[i - 1]
        plane, back = d[i], d[i - 1]
        c13 = costs13[i]
        for j, k_lo, k_hi in band[i]:
            b = s2[j - 1]
            c12 = 0 if a == b else MISMATCH
            row = [BIG] * (n3 + 1)
            row[0] = t12[i][j] + (i + j) * GAP
            if i == 1:
                _plane_row(d, 0, j, t12, t13, t23)
                _plane_row(d, 0, j - 1, t12, t13, t23)
            if j == 1:
                _plane_row(d, i, 0, t12, t13, t23)
                _plane_row(d, i - 1, 0, t12, t13, t23)
            row_j = plane[j - 1] or big_row
            back_j = back[j] or big_row
            back_jj = back[j - 1] or big_row
            # each cell's (k - 1) neighbours are the previous cell's k ones
            k = k_lo if k_lo > 1 else 1
            diag, up, side, left = back_jj[k - 1], back_j[k - 1], row_j[k - 1], row[k - 1]
            for k in range(k, k_hi + 1):
                c23 = 0 if b == s3[k - 1] else MISMATCH
                c_13 = c13[k]
                v = diag + c12 + c_13 + c23
                diag = back_jj[k]
                x = diag + c12 + g2
                if x < v:
                    v = x
                x = up + c_13 + g2
                if x < v:
                    v = x
                x = side + c23 + g2
                if x < v:
                    v = x
                up = back_j[k]
                side = row_j[k]
                x = up if up < side else side
                if left < x:
                    x = left
                x += g2
                if x < v:
                    v = x
                row[k] = left = v
            plane[j] = row
    if not n1 or not n2:  # the whole table is a plane
        _plane_row(d, n1, n2, t12, t13, t23)
    return d


def _three_way_backtrace(d: list[list[list[int] | None]], s1: Sequence[str],
                         s2: Sequence[str], s3: Sequence[str], t12: list[list[int]],
                         t13: list[tuple[int, ...]], t23: list[tuple[int, ...]]
                         ) -> tuple[list[str], list[str], list[str]]:
    g2 = 2 * GAP

    def cell(i: int, j: int, k: int) -> int:
        row = d[i][j]
        if row is None:
            if i and j:
                return BIG
            row = _plane_row(d, i, j, t12, t13, t23)
        return row[k]

    la: list[str] = []
    lb: list[str] = []
    lc: list[str] = []
    i, j, k = len(s1), len(s2), len(s3)
    while i or j or k:
        here = cell(i, j, k)
        c12 = (0 if s1[i - 1] == s2[j - 1] else MISMATCH) if i and j else 0
        c13 = (0 if s1[i - 1] == s3[k - 1] else MISMATCH) if i and k else 0
        c23 = (0 if s2[j - 1] == s3[k - 1] else MISMATCH) if j and k else 0
        if i and j and k and here == cell(i - 1, j - 1, k - 1) + c12 + c13 + c23:
            step = (1, 1, 1)
        elif i and j and here == cell(i - 1, j - 1, k) + c12 + g2:
            step = (1, 1, 0)
        elif i and k and here == cell(i - 1, j, k - 1) + c13 + g2:
            step = (1, 0, 1)
        elif j and k and here == cell(i, j - 1, k - 1) + c23 + g2:
            step = (0, 1, 1)
        elif i and here == cell(i - 1, j, k) + g2:
            step = (1, 0, 0)
        elif j and here == cell(i, j - 1, k) + g2:
            step = (0, 1, 0)
        else:
            step = (0, 0, 1)
        la.append(s1[i - 1] if step[0] else "")
        lb.append(s2[j - 1] if step[1] else "")
        lc.append(s3[k - 1] if step[2] else "")
        i, j, k = i - step[0], j - step[1], k - step[2]
    return la[::-1], lb[::-1], lc[::-1]


def align(source: Sequence[str], hypothesis: Sequence[str], reference: Sequence[str],
          budget: CellBudget | None = None) -> tuple[list[str], list[str], list[str]]:
    """The three-way alignment ``ieval.py`` uses: columns of source, hypothesis and
    reference tokens, ``""`` for a gap.

    As the original: when all three are equal nothing is aligned; when the source equals
    the hypothesis or the reference, a pairwise alignment of the other two stands for it;
    otherwise (also when only hypothesis and reference are equal, a quirk of the original)
    the full three-way alignment is computed.

    Raises:
        AlignmentTooLarge: the tables would take more cells than ``budget`` has left.
    """
    src, hyp, ref = list(source), list(hypothesis), list(reference)
    if src == hyp == ref:
        return src, hyp, ref
    if src == hyp:
        a, b = _pair_backtrace(_pair_table(hyp, ref, budget), hyp, ref)
        return a, a[:], b
    if src == ref:
        a, b = _pair_backtrace(_pair_table(ref, hyp, budget), ref, hyp)
        return a, b, a[:]
    return _three_way(src, hyp, ref, budget)


def counts(alignment: tuple[Sequence[str], Sequence[str], Sequence[str]]) -> Counts:
    """The detection and correction counts of an alignment (see the module documentation)."""
    dtp = dtn = dfp = dfn = ctp = cfp = cfn = cfpn = 0
    for s, h, r in zip(*alignment):
        if s == h:
            if h == r:
                dtn += 1
            elif s == r:  # unreachable (s == h, h != r), kept as the original has it
                dfp += 1
                cfp += 1
            else:
                dfn += 1
        elif s == r:
            dfp += 1
            cfp += 1
        else:
            dtp += 1
            if h == r:
                ctp += 1
            else:
                cfp += 1
                cfn += 1
                cfpn += 1
    return (dtp, dtn, dfp, dfn, 0, ctp, dtn, cfp, dfn + cfn, cfpn)


def _add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b))  # type: ignore[return-value]


# ------------------------------------------------------------------------- scores


@dataclass(frozen=True, slots=True)
class AspectScores:
    """The counts and scores of one aspect (detection or correction)."""

    tp: int
    tn: int
    fp: int
    fn: int
    fpn: int
    p: float
    r: float
    f: float
    acc: float
    wacc: float
    i: float = 0.0

    def get(self, name: str) -> float:
        """The value called ``name`` (one of :data:`METRICS`)."""
        return getattr(self, name)  # type: ignore[no-any-return]


def _p(tp: int, fp: int) -> float:
    return tp / (tp + fp) if tp + fp > 0 else 1.0


def _f(p: float, r: float, beta: float) -> float:
    try:
        return (1 + beta ** 2) * ((p * r) / ((beta ** 2) * p + r))
    except ZeroDivisionError:
        return 0.0


# Acc and WAcc of no column at all (an empty source, hypothesis and reference: ieval.py
# divides by zero there) are 1, as P and R are 1 when their denominator is 0: nothing could
# be got wrong.  With w > 0 no other counts give a zero denominator.
def _acc(tp: int, tn: int, fp: int, fn: int, fpn: int) -> float:
    den = tp + tn + fp + fn - fpn
    return (tp + tn) / den if den else 1.0


def _wacc(tp: int, tn: int, fp: int, fn: int, fpn: int, w: float) -> float:
    den = w * (tp + fp) + tn + fn - (w + 1) * (float(fpn) / 2)
    return float(w * tp + tn) / den if den else 1.0


def improvement(wacc: float, base: float) -> float:
    """I: the relative improvement of ``wacc`` over the baseline's (see the module doc)."""
    if wacc == base:
        return float(math.floor(wacc))
    if wacc > base:
        return (wacc - base) / (1.0 - base)
    return wacc / base - 1.0


def aspect_scores(c: Counts, aspect: int, beta: float, w: float,
                  base: Counts | None = None) -> AspectScores:
    """Scores of aspect ``aspect`` (0 detection, 1 correction) from ``c``; ``I`` against
    ``base`` when given (else 0)."""
    tp, tn, fp, fn, fpn = c[5 * aspect:5 * aspect + 5]
    p, r = _p(tp, fp), _p(tp, fn)
    wacc = _wacc(tp, tn, fp, fn, fpn, w)
    i = improvement(wacc, _wacc(*base[5 * aspect:5 * aspect + 5], w)) if base else 0.0
    return AspectScores(tp, tn, fp, fn, fpn, p, r, _f(p, r, beta), _acc(tp, tn, fp, fn, fpn),
                        wacc, i)


Scores = tuple[AspectScores, AspectScores]


def scores(c: Counts, beta: float, w: float, base: Counts | None = None) -> Scores:
    """Detection and correction scores of counts ``c`` (``I`` against ``base``)."""
    return aspect_scores(c, 0, beta, w, base), aspect_scores(c, 1, beta, w, base)


def better(cur: Scores, best: Scores | None, aspect: int, metric: str) -> bool:
    """``ieval.py``'s ``compare_scores``: is ``cur`` strictly better than ``best``?  The
    metric of the aspect, then its I, WAcc and Acc, then the metric, I, WAcc and Acc of the
    other aspect."""
    if best is None:
        return True
    a, o = cur[aspect], best[aspect]
    other = 1 - aspect
    keys = [(a.get(metric), o.get(metric)), (a.i, o.i), (a.wacc, o.wacc), (a.acc, o.acc),
            (cur[other].get(metric), best[other].get(metric)), (cur[other].i, best[other].i),
            (cur[other].wacc, best[other].wacc), (cur[other].acc, best[other].acc)]
    for x, y in keys:
        if x > y:
            return True
        if x != y:
            return False
    return False


# ------------------------------------------------------------------------- references


@dataclass(frozen=True, slots=True)
class GoldSentence:
    """A gold sentence as ``ieval.py`` sees it: the raw ``<text>`` and, per ``<error>``, its
    requirement and its alternatives (annotator id string, changes ``(start, end, text)``)."""

    text: str
    numann: int
    errors: tuple[tuple[bool, tuple[tuple[str, tuple[tuple[int, int, str], ...]], ...]], ...]
    id: str | None = None

    @property
    def source(self) -> list[str]:
        """The source tokens."""
        return self.text.split()

    @classmethod
    def from_loci(cls, ls: LocusSentence, text: str | None = None) -> GoldSentence:
        """From loci (as read from I-measure XML or grouped from M2); ``text`` is the raw
        ``<text>`` content when known (it decides the order of references), else the
        tokens joined by single spaces."""
        errors = tuple(
            (locus.required,
             tuple((str(alt.annotator), tuple((c.start, c.end, " ".join(c.tokens))
                                              for c in alt.changes))
                   for alt in locus.alternatives))
            for locus in ls.loci)
        return cls(" ".join(ls.source) if text is None else text, ls.numann, errors, ls.id)


def _merged(changes: Iterable[tuple[int, int, str]]) -> frozenset[tuple[int, int, str]]:
    """``_mergeCorrections``: changes of one alternative with the same span joined."""
    index: dict[tuple[int, int], str] = {}
    for s, e, text in changes:
        index[(s, e)] = index[(s, e)] + " " + text if (s, e) in index else text
    return frozenset((s, e, t) for (s, e), t in index.items())


def _correct(tokens: list[str], edits: list[tuple[int, int, str]]) -> str:
    """``correct_sentence``: apply right to left; an edit that would empty the sentence is
    skipped; an empty result is the source."""
    corrected = tokens[:]
    for s, e, text in sorted(edits, key=lambda x: (x[0], x[1]), reverse=True):
        last = corrected[:]
        corrected[s:e] = text.split()
        if not corrected:
            corrected = last
    out = " ".join(corrected)
    return out if out.strip() else " ".join(tokens)


def candidates(gold: GoldSentence, mix: bool = True) -> list[list[str]]:
    """The references ``ieval.py`` tries for a sentence, as token lists, in its order.

    Mixing: every combination of one option per locus (its alternatives, and "no change"
    when it is not required), combinations with two changes of the same span left out,
    de-duplicated by text.  No mixing: each annotator's corrections, plus the source when
    fewer annotators than ``numann`` have alternatives.

    Raises:
        ValueError: a required locus without alternatives (the original crashes there).
    """
    targets = Table()
    src = gold.text
    tokens = src.split()
    fewest: dict[str, int] = {}

    def offer(key: str, n: int) -> None:
        if targets.add(key):
            fewest[key] = n
        elif n < fewest[key]:
            fewest[key] = n

    if mix:
        if not gold.errors:
            return [tokens]
        clusters = []
        for required, alts in gold.errors:
            members: list[frozenset[Any]] = [] if required else [frozenset()]
            members += [_merged(changes) for _, changes in alts]
            clusters.append(set_order(members))
        for combination in itertools.product(*clusters):
            edits = [c for option in combination for c in option]
            if not edits:
                offer(src, 0)
            elif len({(s, e) for s, e, _ in edits}) == len(edits):
                offer(_correct(tokens, edits), len(edits))
        if not len(targets):
            raise ValueError("a required locus without alternatives: no reference")
    else:
        annotators: list[str] = []
        if gold.numann <= 0:
            offer(src, 0)
        else:
            annotators = set_order(ann for _, alts in gold.errors for ann, _ in alts)
            if len(annotators) < gold.numann:
                offer(src, 0)
        for ann in annotators:
            edits = [c for _, alts in gold.errors
                     for option in set_order(_merged(ch) for a, ch in alts if a == ann)
                     for c in option]
            offer(_correct(tokens, edits) if edits else src, len(edits))
    return [key.split() for key in targets.keys()]


# ------------------------------------------------------------------------- search

ENUMERATE_MAX = 64
"""Sentences with at most this many reference combinations are scored as the original
scores them, one reference at a time; larger ones by :func:`search` (which chose the same
counts on every CoNLL-2014 sentence of up to 1,024 combinations for the systems compared,
in both optimisation modes, at a hundredth of the time)."""


SEGMENT_MAX = 4096
"""The most reference combinations one stretch of a searched sentence may have."""


def _locus_options(gold: GoldSentence) -> list[list[frozenset[tuple[int, int, str]]]]:
    """Each locus's distinct options in the original's order (mixing)."""
    out = []
    for required, alts in gold.errors:
        members: list[frozenset[Any]] = [] if required else [frozenset()]
        members += [_merged(changes) for _, changes in alts]
        out.append(set_order(members))
    return out


def combinations(gold: GoldSentence, mix: bool = True) -> int:
    """How many references the original would try before de-duplication (mixing: the
    product of the loci's distinct options; without: at most the annotators plus one)."""
    if not mix:
        return len({a for _, alts in gold.errors for a, _ in alts}) + 1
    total = 1
    for options in _locus_options(gold):
        total *= len(options)
    return total


@dataclass
class Segment:
    """A stretch of the sentence that is aligned on its own: source and hypothesis slices
    and the counts of each of its reference options."""

    options: list[tuple[list[str], Counts, Counts]]


def segments(gold: GoldSentence, hypothesis: Sequence[str], limit: int = SEGMENT_MAX,
             budget: CellBudget | None = None) -> list[Segment] | None:
    """Cut a sentence into stretches whose references and alignments are independent.

    A cut goes between source tokens ``b−1`` and ``b`` when no locus spans it, inserts
    there or changes either token, and the source–hypothesis alignment matches both tokens
    to consecutive hypothesis tokens: every reference has those two tokens there too, so
    the three-way alignment matches them in all three.  Each stretch's references are the combinations
    of its loci's options.  ``None`` when a stretch has more than ``limit`` combinations.

    Raises:
        AlignmentTooLarge: the alignments would take more cells than ``budget`` has left.
    """
    src = gold.source
    hyp = list(hypothesis)
    n = len(src)
    loci = _locus_options(gold)
    regions = []
    blocked: set[int] = set()  # boundaries b that may not be cut
    for options in loci:
        changes = [c for option in options for c in option]
        lo = min((c[0] for c in changes), default=0)
        hi = max((c[1] for c in changes), default=0)
        regions.append((lo, hi, options))
        blocked.update(range(lo + 1, hi))  # inside a locus
        for x, y, _ in changes:
            if x == y:
                blocked.add(x)  # an insertion there
            else:
                blocked.update((x, y))  # a changed token on either side
    a_src, a_hyp = _pair_backtrace(_pair_table(src, hyp, budget), src, hyp)
    hyp_at: dict[int, int] = {}  # source index -> hypothesis index of a matched token
    i = j = 0
    for x, y in zip(a_src, a_hyp):
        if x and y and x == y:
            hyp_at[i] = j
        i += bool(x)
        j += bool(y)
    cuts = [(0, 0)]
    for b in range(1, n):
        if b in blocked or b - 1 not in hyp_at or b not in hyp_at:
            continue
        if hyp_at[b] != hyp_at[b - 1] + 1:
            continue
        cuts.append((b, hyp_at[b]))
    cuts.append((n, len(hyp)))
    out = []
    for (a, ha), (b, hb) in zip(cuts, cuts[1:]):
        inside = [opts for lo, hi, opts in regions if a <= lo and hi <= b and opts]
        total = 1
        for opts in inside:
            total *= len(opts)
        if total > limit:
            return None
        s_seg, h_seg = src[a:b], hyp[ha:hb]
        seen: set[tuple[str, ...]] = set()
        options = []
        for combination in itertools.product(*inside):
            edits = [c for option in combination for c in option]
            if len({(x, y) for x, y, _ in edits}) != len(edits):
                continue
            if a == 0 and b == n:  # the whole sentence: the original's emptying rules apply
                ref = _correct(src, edits).split()
            else:
                ref = list(s_seg)
                for x, y, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
                    ref[x - a:y - a] = text.split()
            key = tuple(ref)
            if key in seen:
                continue
            seen.add(key)
            options.append((ref, counts(align(s_seg, h_seg, ref, budget)),
                            counts(align(s_seg, s_seg, ref, budget))))
        if not options:
            return None
        out.append(Segment(options))
    return out


def _ratio_terms(c: Counts, aspect: int, metric: str, w: float, beta: float
                 ) -> tuple[float, float]:
    """Numerator and denominator of a ratio metric (WAcc for the others) of counts ``c``."""
    tp, tn, fp, fn, fpn = c[5 * aspect:5 * aspect + 5]
    if metric == "acc":
        return tp + tn, tp + tn + fp + fn - fpn
    if metric == "p":
        return tp, tp + fp
    if metric == "r":
        return tp, tp + fn
    if metric == "f":
        return (1 + beta ** 2) * tp, (1 + beta ** 2) * tp + beta ** 2 * fn + fp
    return w * tp + tn, w * (tp + fp) + tn + fn - (w + 1) * fpn / 2


def search(segs: list[Segment], run: IMeasure, start: Counts = ZERO,
           start_base: Counts = ZERO) -> tuple[list[int], Counts, Counts]:
    """Choose one option per segment to maximise the run's metric on ``start`` plus the
    chosen counts (``start`` is the corpus total with ``optimise="corpus"``).

    The metric's ratio (WAcc, Acc, P, R, F; WAcc when the metric is a count or I) is
    maximised exactly with Dinkelbach's method (per segment the best ``N − λ·D``), then
    options are swapped one segment at a time while :func:`better` says the totals
    improve (the tie-breaking keys).  Returns the option indices and the counts.
    """
    aspect, metric = run.aspect, run.metric
    ratio_metric = metric if metric in ("acc", "p", "r", "f") else "wacc"
    terms = [[_ratio_terms(c, aspect, ratio_metric, run.weight, run.beta) for _, c, _ in seg.options]
             for seg in segs]
    n0, d0 = _ratio_terms(start, aspect, ratio_metric, run.weight, run.beta)
    choice = [0] * len(segs)
    lam = None
    for _ in range(100):
        num = n0 + sum(t[k][0] for t, k in zip(terms, choice))
        den = d0 + sum(t[k][1] for t, k in zip(terms, choice))
        new = num / den if den else 1.0
        if lam is not None and new <= lam:
            break
        lam = new
        choice = [max(range(len(t)), key=lambda k, t=t: (t[k][0] - lam * t[k][1], -k))
                  for t in terms]

    def totals(ch: list[int]) -> tuple[Counts, Counts]:
        c, b = start, start_base
        for seg, k in zip(segs, ch):
            c = _add(c, seg.options[k][1])
            b = _add(b, seg.options[k][2])
        return c, b

    c, b = totals(choice)
    best = scores(c, run.beta, run.weight, b)
    improved = True
    while improved:
        improved = False
        for s_index, seg in enumerate(segs):
            for k in range(len(seg.options)):
                if k == choice[s_index]:
                    continue
                trial = choice[:]
                trial[s_index] = k
                # the totals of the trial: one segment's option swapped
                old, new = seg.options[choice[s_index]], seg.options[k]
                tc = _add(_sub(c, old[1]), new[1])
                tb = _add(_sub(b, old[2]), new[2])
                sc = scores(tc, run.beta, run.weight, tb)
                if better(sc, best, aspect, metric):
                    choice, best, c, b, improved = trial, sc, tc, tb, True
    return choice, _sub(c, start), _sub(b, start_base)


def _sub(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b))  # type: ignore[return-value]


# ------------------------------------------------------------------------- shared work


class _LoggedBudget(CellBudget):
    """A :class:`CellBudget` that also logs what is asked of it (a take as its cells, a
    need as ``~cells``; consecutive takes summed, which passes or fails as they would one
    by one), so that the same work asked again can be replayed on a fresh budget
    (:func:`_replay`) instead of being redone."""

    __slots__ = ("log",)

    def __init__(self, limit: int | None) -> None:
        super().__init__(limit)
        self.log: list[int] = []

    def take(self, cells: int) -> None:
        """As :meth:`CellBudget.take`, logged."""
        log = self.log
        if log and log[-1] >= 0:
            log[-1] += cells
        else:
            log.append(cells)
        super().take(cells)

    def need(self, cells: int) -> None:
        """As :meth:`CellBudget.need`, logged."""
        self.log.append(~cells)
        super().need(cells)


def _replay(log: list[int], limit: int | None) -> None:
    """Ask a fresh budget of ``limit`` cells what ``log`` asked.

    Raises:
        AlignmentTooLarge: where the logged work would have raised it.
    """
    if limit is None:
        return
    budget = CellBudget(limit)
    for cells in log:
        if cells >= 0:
            budget.take(cells)
        else:
            budget.need(~cells)


class SentenceWork:
    """The work on one gold sentence that every system scored on it shares: its references
    (``refs``, ``None`` when there are too many to try and its segments are searched), the
    baseline's counts against each, the pairwise tables of the source and each reference,
    and per distinct hypothesis (often the source, or another system's line) its counts
    against each reference or its segments.

    What each hypothesis asks of the sentence's cell budget is what :func:`align` and
    :func:`segments` ask when the system is scored alone (the same checks, the same
    cells in the same order), so ``max_cells`` refuses the same sentences whichever
    systems are scored together.  Make it with :meth:`IMeasure.prepare`."""

    def __init__(self, gold: GoldSentence, refs: list[list[str]] | None) -> None:
        self.gold = gold
        self.source = gold.source
        self.refs = refs
        self.cache: dict[Any, Any] = {}
        n = len(refs) if refs is not None else 0
        self._base: list[Counts] = [ZERO] * n
        self._base_made = [False] * n
        self._sides: list[_Side | None] = [None] * n
        self._tables: list[list[tuple[int, ...]] | None] = [None] * n
        self.choices: dict[tuple[Any, ...], Any] = {}
        """Optimising per sentence, what a hypothesis and options chose: the reference
        kept, or :func:`search`'s choice and counts."""
        self._new_rows: list[int] | None = None
        self._hypotheses: dict[tuple[str, ...], tuple[list[Counts], list[int]]] = {}
        self._segments: dict[tuple[str, ...], tuple[list[Segment] | None, list[int]]] = {}

    def counts(self, hypothesis: list[str], limit: int | None
               ) -> tuple[list[Counts], list[Counts]]:
        """Per reference, the counts of ``hypothesis`` and of the baseline.

        Raises:
            AlignmentTooLarge: scored alone against these references, the hypothesis would
                need more than ``limit`` cells (``None``: no limit).
        """
        assert self.refs is not None
        key = tuple(hypothesis)
        known = self._hypotheses.get(key)
        if known is None:
            budget = _LoggedBudget(limit)
            known = self._hypotheses[key] = (self._count(hypothesis, budget), budget.log)
        else:
            _replay(known[1], limit)
        return known[0], self._base

    def _count(self, hyp: list[str], budget: CellBudget) -> list[Counts]:
        """:meth:`counts` made, each table charged to ``budget`` as :func:`align` charges
        it (before it is made) though the tables of the source are shared."""
        src, refs = self.source, self.refs
        assert refs is not None
        n, m = len(src), len(hyp)
        same = hyp == src
        pair: _Pair | None = None
        out = []
        for r, ref in enumerate(refs):
            if same:  # align(src, src, ref): the baseline
                if ref != src:
                    budget.take(COMPUTED * (n + 1) * (len(ref) + 1))
                c = self._baseline(r)
            elif ref == src:  # a pairwise table of reference and hypothesis
                budget.take(COMPUTED * (len(ref) + 1) * (m + 1))
                c = counts(align(src, hyp, ref))
            else:
                budget.need(_three_way_bound(n, m, len(ref)))
                if pair is None:
                    budget.take(2 * COMPUTED * (n + 1) * (m + 1))
                    pair = _Pair(_pair_table(src, hyp), _pair_table(src[::-1], hyp[::-1]))
                # the rows the references' tries of source and hypothesis gain
                budget.take(COMPUTED * self._trie_rows_added(r) * (n + m + 2))
                side13 = self._side(r)  # first: the hypothesis's rows start from it
                c = counts(_three_way_from(src, hyp, ref, pair, side13,
                                           _side(hyp, ref, self.cache, like=src), budget))
            out.append(c)
            if ref != src:  # align(src, src, ref)
                budget.take(COMPUTED * (n + 1) * (len(ref) + 1))
            self._baseline(r)
        return out

    def _baseline(self, r: int) -> Counts:
        """The counts of the source against reference ``r`` (``align(src, src, ref)``)."""
        if not self._base_made[r]:
            assert self.refs is not None
            src, ref = self.source, self.refs[r]
            if src == ref:
                self._base[r] = counts((src, src, ref))
            else:
                a, b = _pair_backtrace(self._forward(r), src, ref)
                self._base[r] = counts((a, a, b))
            self._base_made[r] = True
        return self._base[r]

    def _forward(self, r: int) -> list[tuple[int, ...]]:
        """The pairwise table ``t[i][k]`` of the source and reference ``r``."""
        t = self._tables[r]
        if t is None:
            assert self.refs is not None
            t = self._tables[r] = list(zip(*_trie_rows(self.refs[r], self.source, self.cache,
                                                       "forward")))
        return t

    def _side(self, r: int) -> _Side:
        """The pairwise tables of the source and reference ``r``."""
        side = self._sides[r]
        if side is None:
            assert self.refs is not None
            src, ref = self.source, self.refs[r]
            side = self._sides[r] = _Side(self._forward(r), _trie_rows(
                ref[::-1], src[::-1], self.cache, "backward"))
        return side

    def _trie_rows_added(self, r: int) -> int:
        """How many rows :func:`_trie_rows` makes for reference ``r`` in a trie of the
        forward and one of the backward references, the references other than the source
        before it being in them (the tries of the three-way alignments of one system)."""
        if self._new_rows is None:
            assert self.refs is not None
            added = []
            forward: dict[Any, Any] = {}
            backward: dict[Any, Any] = {}
            for ref in self.refs:
                made = 0
                if ref != self.source:
                    for trie, seq in ((forward, ref), (backward, ref[::-1])):
                        node = trie
                        for x in seq:
                            child = node.get(x)
                            if child is None:
                                child = node[x] = {}
                                made += 1
                            node = child
                added.append(made)
            self._new_rows = added
        return self._new_rows[r]

    def segments(self, hypothesis: list[str], limit: int | None) -> list[Segment] | None:
        """:func:`segments` of the sentence and ``hypothesis`` (with a budget of ``limit``
        cells, ``None``: no limit).

        Raises:
            AlignmentTooLarge: the alignments would need more than ``limit`` cells.
        """
        key = tuple(hypothesis)
        known = self._segments.get(key)
        if known is None:
            budget = _LoggedBudget(limit)
            known = self._segments[key] = (segments(self.gold, hypothesis, budget=budget),
                                           budget.log)
        else:
            _replay(known[1], limit)
        return known[0]


# ------------------------------------------------------------------------- scoring


@dataclass
class SentenceResult:
    """The kept reference of one sentence and its counts."""

    id: str | None
    reference: list[str]
    counts: Counts
    base: Counts
    references: int
    searched: bool = False
    """True when the reference was found by :func:`search`, not by trying every one."""


@dataclass
class IMeasure:
    """A running I-measure evaluation (``ieval.py``'s main loop).

    Args:
        maximise: aspect letter and metric (``cwacc``, ``df`` …).
        optimise: ``sentence`` or ``corpus``.
        mix: mix alternatives of different annotators.
        beta: β of F.
        weight: w of WAcc.
        enumerate_max: sentences with more reference combinations are scored by
            :func:`search` instead of trying every reference.
        max_cells: the most alignment-table cells one sentence may fill
            (:data:`DEFAULT_MAX_CELLS`; ``None``: no limit); past it :meth:`add` raises
            :class:`AlignmentTooLarge`.

    Raises:
        ValueError: an unknown ``maximise`` or ``optimise``; ``beta`` or ``weight`` not a
            number > 0 and at most :data:`MAX_PARAMETER`; ``max_cells`` below 1.
    """

    maximise: str = "cwacc"
    optimise: str = "sentence"
    mix: bool = True
    beta: float = 1.0
    weight: float = 2.0
    enumerate_max: int = ENUMERATE_MAX
    max_cells: int | None = DEFAULT_MAX_CELLS
    total: Counts = ZERO
    total_base: Counts = ZERO
    sentences: list[SentenceResult] = field(default_factory=list)
    inputs: str = ""
    """What the pipeline adds to the signature about its inputs (``|gold-file:…``)."""

    def __post_init__(self) -> None:
        check_maximise(self.maximise)
        if self.optimise not in ("sentence", "corpus"):
            raise ValueError(f"optimise must be sentence or corpus, not {self.optimise!r}")
        check_parameter("beta", self.beta)
        check_parameter("weight", self.weight)
        if self.max_cells is not None and self.max_cells < 1:
            raise ValueError(f"max_cells must be 1 or more, not {self.max_cells}")

    @property
    def aspect(self) -> int:
        return ASPECTS.index(self.maximise[0])

    @property
    def metric(self) -> str:
        return self.maximise[1:]

    def prepare(self, gold: GoldSentence) -> SentenceWork:
        """The work on ``gold`` that every system scored with these options shares: pass it
        to :meth:`add` of each.

        Raises:
            ValueError: a required locus without alternatives.
        """
        if self.mix and combinations(gold) > self.enumerate_max:
            return SentenceWork(gold, None)
        return SentenceWork(gold, candidates(gold, self.mix))

    def add(self, gold: GoldSentence, hypothesis: Sequence[str],
            refs: list[list[str]] | None = None, work: SentenceWork | None = None
            ) -> SentenceResult:
        """Score one sentence: choose its reference and add its counts to the totals.

        ``refs``: the sentence's :func:`candidates` when already made; ``work``: what
        :meth:`prepare` made of ``gold`` (several systems share its work; ``refs`` is then
        unused).

        Raises:
            AlignmentTooLarge: the alignments need more than ``max_cells`` cells (nothing
                is added).
        """
        hyp = list(hypothesis)
        if work is None:
            work = SentenceWork(gold, refs) if refs is not None else self.prepare(gold)
        refs = work.refs
        if refs is None:
            return self._add_searched(work, hyp)
        hyp_counts, base_counts = work.counts(hyp, self.max_cells)
        corpus = self.optimise == "corpus"
        key = (tuple(hyp), self.maximise, self.beta, self.weight)
        kept = -1 if corpus else work.choices.get(key, -1)
        if kept < 0:
            best: Scores | None = None
            for r, (c, b) in enumerate(zip(hyp_counts, base_counts)):
                if corpus:
                    cum = _add(self.total, c)
                    cum_b = _add(self.total_base, b)
                    compared = scores(cum, self.beta, self.weight, cum_b)
                else:
                    compared = scores(c, self.beta, self.weight, b)
                if better(compared, best, self.aspect, self.metric):
                    best, kept = compared, r
            if not corpus:
                work.choices[key] = kept
        result = SentenceResult(gold.id, refs[kept], hyp_counts[kept], base_counts[kept],
                                len(refs))
        self.total = _add(self.total, result.counts)
        self.total_base = _add(self.total_base, result.base)
        self.sentences.append(result)
        return result

    def _add_searched(self, work: SentenceWork, hyp: list[str]) -> SentenceResult:
        """A sentence with too many references to try: :func:`search` over its segments."""
        gold = work.gold
        segs = work.segments(hyp, self.max_cells)
        if segs is None:
            raise ValueError(f"sentence {gold.id}: {combinations(gold):,} references, and "
                             "its loci cannot be cut into stretches small enough to search")
        corpus = self.optimise == "corpus"
        key = ("searched", tuple(hyp), self.maximise, self.beta, self.weight)
        found = None if corpus else work.choices.get(key)
        if found is None:
            found = search(segs, self, self.total if corpus else ZERO,
                           self.total_base if corpus else ZERO)
            if not corpus:
                work.choices[key] = found
        choice, c, b = found
        ref = [t for seg, k in zip(segs, choice) for t in seg.options[k][0]]
        result = SentenceResult(gold.id, ref, c, b, combinations(gold), searched=True)
        self.total = _add(self.total, c)
        self.total_base = _add(self.total_base, b)
        self.sentences.append(result)
        return result

    def result(self) -> tuple[Scores, Scores]:
        """The corpus scores of the system (I against the baseline) and of the baseline."""
        return (scores(self.total, self.beta, self.weight, self.total_base),
                scores(self.total_base, self.beta, self.weight))


MAX_PARAMETER = 1e100
"""The largest ``beta`` and ``weight``: past it β² or w·counts could overflow (``inf``, then
NaN); far past any weighting anyone uses."""


def check_parameter(name: str, value: float) -> None:
    """Raise ``ValueError`` unless ``value`` (``beta`` or ``weight``) is a number > 0 and at
    most :data:`MAX_PARAMETER`: ieval.py divides by zero, overflows or prints NaN otherwise."""
    if not (0 < value <= MAX_PARAMETER):  # also false for NaN
        raise ValueError(f"{name} must be a number > 0 and at most {MAX_PARAMETER:g}, not {value}")


def check_maximise(name: str) -> None:
    """Raise ``ValueError`` unless ``name`` is an aspect letter and a metric (``cwacc``)."""
    if len(name) < 2 or name[0] not in ASPECTS or name[1:] not in METRICS:
        raise ValueError(f"--maximise must be d or c followed by one of "
                         f"{', '.join(METRICS)} (e.g. cwacc), not {name!r}")


# ------------------------------------------------------------------------- files


def read_gold(source: str | os.PathLike[str], gold_format: str | None = None
              ) -> Iterator[GoldSentence]:
    """The gold sentences of an I-measure XML file, or of an M2 file grouped into loci as
    ``gecformats convert --to ixml --grouping imeasure`` groups them (streaming).

    Raises:
        UsageError: a format that cannot be told, is unknown or is not a gold format.
        GecFormatError: malformed input.
    """
    from gecformats import formats
    from gecformats.errors import UsageError
    from gecformats.formats import ixml, m2

    name = gold_format or formats.infer_input(source, f"gecformats imeasure HYP --gold {source}"
                                                       " --gold-format {format}", ("ixml", "m2"))
    if name == "ixml":
        for ls in ixml.read_loci(source):
            yield GoldSentence.from_loci(ls, ls.text)
    elif name == "m2":
        for n, sentence in enumerate(m2.read(source), 1):
            yield GoldSentence.from_loci(ixml.loci_for(sentence, "imeasure", number=n))
    else:
        formats.get(name)  # an unknown name: UsageError, with the known ones
        raise UsageError(f"the gold must be I-measure XML or M2 (--gold-format ixml or m2), "
                         f"not {name}", str(source))


def hypothesis_tokens(line: str) -> list[str]:
    """A hypothesis line's tokens as ``ieval.py`` reads them: a byte string split on ASCII
    white space."""
    if line.isascii():
        return line.split()
    return [t.decode("utf-8") for t in line.encode("utf-8").split()]


@dataclass
class SystemRun:
    """One hypothesis file's evaluation."""

    hypothesis: str
    run: IMeasure

    @property
    def name(self) -> str:
        """The file's base name."""
        return os.path.basename(self.hypothesis)


def _line_count(path: str) -> int | None:
    """The lines of a regular file as :func:`text_lines` gives them (read once more, without
    scoring); ``None`` for standard input, a pipe or an unreadable file (it is then counted
    while scoring)."""
    if path == "-" or not os.path.isfile(path):
        return None
    try:
        with text_lines(path) as lines:
            return sum(1 for _ in lines)
    except OSError:
        return None


def _sentence_count(gold: str, gold_format: str | None) -> int | None:
    """The gold's sentences, read once without making references (``None`` unless the gold
    is a regular file)."""
    if gold == "-" or not os.path.isfile(gold):
        return None
    return sum(1 for _ in read_gold(gold, gold_format))


def _count_error(hypothesis: str, lines: int, gold: str, sentences: int) -> GecFormatError:
    if lines < sentences:
        return GecFormatError(f"has fewer lines than {gold} has sentences (line {lines + 1} "
                              "is missing)", hypothesis)
    return GecFormatError(f"has {lines} lines, {gold} has {sentences} sentences", hypothesis)


def evaluate_files(hypotheses: Sequence[str], gold: str, *, gold_format: str | None = None,
                   progress: Callable[[int, int | None], None] | None = None,
                   jobs: int = 1, engine: Any = None, check_sentences: bool = True,
                   warnings: list[str] | None = None, **options: Any) -> list[SystemRun]:
    """Score each hypothesis file against the gold, read once, through the evaluation
    pipeline (:func:`gecformats.metrics.pipeline.evaluate` with :class:`IMeasureMetric`):
    each sentence's work is made once for all systems; here, in ``jobs`` processes or on a
    Dask ``engine``, with the same result.  Files are read as ``ieval.py`` reads them (the
    gold's raw ``<text>``, hypothesis lines with universal newlines).

    When the gold and a hypothesis are regular files, their sentences and lines are counted
    before any scoring, so a mismatch is reported at once.  ``progress`` is called with the
    systems scored on each chunk of sentences and the total to expect (``None`` when
    unknown).  ``check_sentences``: refuse a hypothesis whose lines are not the gold's
    sentences (the pipeline's check); ``warnings``, when given, gets the pipeline's warnings
    about the inputs (gold edits past their sentence's end …).

    Raises:
        GecFormatError: malformed gold, a gold without sentences, a hypothesis whose lines
            stop matching the gold's sentences, a hypothesis file whose
            number of lines differs from the gold's number of sentences (both counts named),
            or a sentence whose alignments need more than ``max_cells`` table cells (the
            hypothesis file and line named).
        ValueError: bad options.
    """
    from gecformats.metrics.pipeline import evaluate

    metric = IMeasureMetric(details=True, **options)
    line_counts = [_line_count(h) for h in hypotheses]
    sentences = None
    if any(n is not None for n in line_counts):
        sentences = _sentence_count(gold, gold_format)
        if sentences is not None:
            for h, n in zip(hypotheses, line_counts):
                if n is not None and n != sentences:
                    raise _count_error(h, n, gold, sentences)
    total = sentences * len(hypotheses) if sentences is not None else None
    run = evaluate(list(hypotheses), gold, [metric], gold_items=read_gold(gold, gold_format),
                   lines=_numbered_lines, jobs=jobs, engine=engine,
                   mismatch=lambda h, lines, count: _count_error(h, lines, gold, count),
                   progress=(lambda steps: progress(steps, total)) if progress else None,
                   check_sentences=check_sentences)
    if warnings is not None:
        warnings.extend(run.warnings + run.notes)
    if not run.sentences:
        raise GecFormatError("has no sentences: there is nothing to score", gold)
    systems = [metric.system_run(stats, h) for stats, h in zip(run.stats[0], hypotheses)]
    for system in systems:
        system.run.inputs = run.input_fields()
    return systems


def _numbered_lines(path: str) -> Iterator[tuple[int, str]]:
    """A hypothesis file's lines as ``ieval.py`` reads them (:func:`text_lines`)."""
    with text_lines(path) as lines:
        yield from enumerate(lines, 1)


# ------------------------------------------------------------------------- rendering

RULE = "-" * 117


def format_info(hyp_name: str, gold_name: str, run: IMeasure) -> str:
    """The original's header block."""
    return "\n".join([
        RULE,
        f"Hypothesis file    : {hyp_name}",
        f"Gold standard file : {gold_name}",
        f"Maximising metric  : {run.metric.upper()} - "
        f"{'DETECTION' if run.aspect == 0 else 'CORRECTION'}",
        f"Optimise for       : {'SENTENCE' if run.optimise == 'sentence' else 'CORPUS'}",
        f"WAcc weight        : {py2_float(run.weight)}",
        f"F beta             : {py2_float(run.beta)}",
        RULE,
    ]) + "\n"


def format_header(beta: float, per_sentence: bool = False) -> str:
    """The column header of a results table."""
    cols = "SID     Asp.  " if per_sentence else "Aspect        "
    return (f"{RULE}\n{cols}    TP      TN      FP      FN     FPN       P       R  "
            f"F_{beta:3.2f}     Acc   Acc_b    WAcc  WAcc_b       I \n{RULE}\n")


def format_rows(ss: Scores, sb: Scores, sid: str | None = None) -> str:
    """Two rows, detection and correction (per sentence when ``sid`` is given)."""
    labels = (sid.ljust(6) + "  Det ", sid.ljust(6) + "  Cor ") if sid else \
        ("Detection   ", "Correction  ")
    out = []
    for label, s, b in zip(labels, ss, sb):
        out.append(label + "  {:6d}  {:6d}  {:6d}  {:6d}  {:6d}  {:6.2f}  {:6.2f}  {:6.2f}  "
                   "{:6.2f}  {:6.2f}  {:6.2f}  {:6.2f}  {:6.2f}".format(
                       s.tp, s.tn, s.fp, s.fn, s.fpn, s.p * 100, s.r * 100, s.f * 100,
                       s.acc * 100, b.acc * 100, s.wacc * 100, b.wacc * 100, s.i * 100))
    return "\n".join(out) + "\n"


def sentence_scores(run: IMeasure, result: SentenceResult) -> tuple[Scores, Scores]:
    """The kept reference's scores (I against its baseline) and the baseline's."""
    return (scores(result.counts, run.beta, run.weight, result.base),
            scores(result.base, run.beta, run.weight))


def scores_dict(s: Scores, b: Scores) -> dict[str, Any]:
    """JSON-ready numbers of one result: per aspect the counts and scores and the
    baseline's Acc and WAcc."""
    out: dict[str, Any] = {}
    for name, x, y in zip(("detection", "correction"), s, b):
        out[name] = {"tp": x.tp, "tn": x.tn, "fp": x.fp, "fn": x.fn, "fpn": x.fpn,
                     "p": x.p, "r": x.r, "f": x.f, "acc": x.acc, "acc_b": y.acc,
                     "wacc": x.wacc, "wacc_b": y.wacc, "i": x.i}
    return out


def format_ieval(system: SystemRun, gold_name: str, per_sentence: bool = False) -> str:
    """The original's whole standard output for one system (``--format ieval``)."""
    run = system.run
    out = [format_info(system.hypothesis, gold_name, run)]
    if per_sentence:
        out.append("\nSENTENCE RESULTS\n")
        out.append(format_header(run.beta, True))
        for k, result in enumerate(run.sentences, 1):
            out.append(format_rows(*sentence_scores(run, result), result.id or str(k)))
    out.append("\nOVERALL RESULTS\n")
    out.append(format_header(run.beta))
    out.append(format_rows(*run.result()))
    out.append("\n")
    return "".join(out)


def format_tsv(systems: Sequence[SystemRun]) -> str:
    """One row per system: P, R, F, Acc, WAcc and I of detection and correction (percent,
    two decimals), and a ``#`` signature line."""
    cols = ["system"] + [f"{a}_{m}" for a in ("d", "c") for m in ("p", "r", "f", "acc", "wacc", "i")]
    lines = ["\t".join(cols)]
    for system in systems:
        ss, _ = system.run.result()
        values = [f"{getattr(x, m) * 100:.2f}" for x in ss for m in ("p", "r", "f", "acc", "wacc", "i")]
        lines.append("\t".join([system.name, *values]))
    if systems:
        lines.append("# " + signature(systems[0].run))
    return "\n".join(lines) + "\n"


def signature(run: IMeasure) -> str:
    """What the numbers depend on, in one line."""
    from gecformats import __version__

    return (f"metric:imeasure|maximise:{run.maximise}|optimise:{run.optimise}|"
            f"mix:{'yes' if run.mix else 'no'}|beta:{py2_float(run.beta)}|"
            f"w:{py2_float(run.weight)}|align:sp-0-2-3|gecformats:{__version__}{run.inputs}")


def to_json(systems: Sequence[SystemRun], per_sentence: bool = False) -> dict[str, Any]:
    """The results as JSON-ready data: per system the corpus numbers (and per sentence)."""
    results = []
    for system in systems:
        run = system.run
        item: dict[str, Any] = {"hypothesis": system.hypothesis, "system": system.name,
                                **scores_dict(*run.result())}
        if per_sentence:
            item["sentences"] = [
                {"id": r.id or str(k), "references": r.references,
                 "reference": " ".join(r.reference), **scores_dict(*sentence_scores(run, r))}
                for k, r in enumerate(run.sentences, 1)]
        results.append(item)
    first = systems[0].run if systems else IMeasure()
    return {"results": results, "signature": signature(first)}


__all__ = ["AlignmentTooLarge", "AspectScores", "CellBudget", "DEFAULT_MAX_CELLS", "GoldSentence",
           "IMeasure", "MAX_PARAMETER", "align", "better", "candidates", "check_parameter",
           "counts", "evaluate_files", "format_header", "format_info", "format_rows",
           "improvement", "scores", "search", "segments"]


# ------------------------------------------------------------------------- the metric


class IMeasureMetric(Metric):
    """The I-measure as a :class:`~gecformats.metrics.base.Metric` (``score --metric
    imeasure``, and the pipeline behind ``gecformats imeasure``): per sentence the
    references' counts, then ``ieval.py``'s choice.

    Statistics of one hypothesis of one sentence:

    * ``optimise="sentence"``: ``(counts, baseline counts, info)`` of the reference kept
      (the choice does not depend on the corpus);
    * ``optimise="corpus"``: ``("all", ((counts, baseline counts), …), infos)``, every
      reference in the original's order, the choice redone against the running totals by
      the corpus step; or ``("search", segments, info)`` for a sentence with more
      references than ``enumerate_max``, searched from the running totals, as
      :meth:`IMeasure.add` does.

    ``info`` is ``None`` unless ``details`` (what ``gecformats imeasure``'s per-sentence
    output shows): ``(sentence id, reference tokens, references, searched)``.  Columns: the
    correction aspect's P, R, F_β and I against the baseline (the source as hypothesis).

    ``score`` reads the gold as sentences (M2, or I-measure XML): the references are
    ordered from the tokens joined by single spaces, which is the XML's ``<text>`` whenever
    it is written with single spaces (CoNLL-2014's is); ``gecformats imeasure`` gives the
    raw ``<text>`` (:func:`read_gold`).
    """

    name = "imeasure"
    label = "I-measure"
    columns = ("precision", "recall", "f", "i")
    main = "i"
    options = frozenset({"maximise", "optimise"})
    declines = {"beta": "the I-measure's F is F1, as ieval.py's (gecformats imeasure --beta)"}
    needs_edits = False

    def __init__(self, maximise: str = "cwacc", optimise: str = "sentence", mix: bool = True,
                 beta: float = 1.0, weight: float = 2.0, enumerate_max: int = ENUMERATE_MAX,
                 max_cells: int | None = DEFAULT_MAX_CELLS, details: bool = False) -> None:
        self.run = IMeasure(maximise, optimise, mix, beta, weight, enumerate_max, max_cells)
        self.beta = beta
        self.details = details

    def prepare(self, gold: Any) -> SentenceWork:
        """The gold sentence's loci and the work every system shares on it
        (:meth:`IMeasure.prepare`: its references, the baseline's counts, the tables)."""
        from gecformats.formats.ixml import loci_for

        g = gold if isinstance(gold, GoldSentence) else \
            GoldSentence.from_loci(loci_for(gold, "imeasure"))
        try:
            return self.run.prepare(g)
        except ValueError as exc:
            raise GecFormatError(str(exc)) from None

    def sentence(self, prepared: SentenceWork, hypothesis: Any) -> tuple[Any, ...]:
        hyp = hypothesis_tokens(hypothesis.line)
        run, gold, details = self.run, prepared.gold, self.details
        try:
            if run.optimise == "sentence":
                one = IMeasure(run.maximise, run.optimise, run.mix, run.beta, run.weight,
                               run.enumerate_max, run.max_cells)
                kept = one.add(gold, hyp, work=prepared)
                info = (gold.id, tuple(kept.reference), kept.references, kept.searched)
                return (kept.counts, kept.base, info if details else None)
            if prepared.refs is None:
                segs = prepared.segments(hyp, run.max_cells)
                if segs is None:
                    raise ValueError(f"sentence {gold.id}: {combinations(gold):,} references, "
                                     "and its loci cannot be cut into stretches small enough "
                                     "to search")
                return ("search", segs, (gold.id, (), combinations(gold), True) if details
                        else None)
            hyp_counts, base_counts = prepared.counts(hyp, run.max_cells)
            infos = tuple((gold.id, tuple(r), len(prepared.refs), False)
                          for r in prepared.refs) if details else None
            return ("all", tuple(zip(hyp_counts, base_counts)), infos)
        except AlignmentTooLarge as exc:
            raise GecFormatError(f"{exc}; raise the limit (gecformats imeasure --max-cells) "
                                 f"above {exc.limit:,} only with the memory and time for it "
                                 "(at most about 12 bytes and 0.1 µs per cell)",
                                 kind="too-large") from None
        except ValueError as exc:  # the gold's sentence, as ieval.py would fail on it
            raise GecFormatError(str(exc), kind="gold") from None

    def chosen(self, stats: Sequence[Any], weights: Sequence[int] | None = None
               ) -> tuple[Counts, Counts, list[tuple[int, Counts, Counts, Any]]]:
        """The corpus totals and baseline totals, and per sentence (without ``weights``)
        ``(candidate kept, its counts, its baseline counts, its info)`` (see the class)."""
        run = self.run
        total, base = ZERO, ZERO
        kept: list[tuple[int, Counts, Counts, Any]] = []
        for i, s in enumerate(stats):
            for _ in range(1 if weights is None else weights[i]):
                k, info = 0, None
                if s[0] == "search":
                    choice, c, b = search(s[1], run, total, base)
                    if s[2] is not None:
                        ref = tuple(t for seg, j in zip(s[1], choice) for t in seg.options[j][0])
                        info = (s[2][0], ref, s[2][2], True)
                elif s[0] == "all":
                    best = None
                    for j, (c, b) in enumerate(s[1]):
                        compared = scores(_add(total, c), run.beta, run.weight, _add(base, b))
                        if better(compared, best, run.aspect, run.metric):
                            best, k = compared, j
                    c, b = s[1][k]
                    info = s[2][k] if s[2] is not None else None
                else:
                    c, b, info = s
                total, base = _add(total, c), _add(base, b)
                if weights is None:
                    kept.append((k, c, b, info))
        return total, base, kept

    def corpus(self, stats: Sequence[Any], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        total, base, kept = self.chosen(stats, weights)
        return Totals(self._values(total, base),
                      dict(zip(("tp", "tn", "fp", "fn", "fpn"), total[5:])),
                      tuple(k for k, *_ in kept) if choices else ())

    def _values(self, total: Counts, base: Counts) -> tuple[float, float, float, float]:
        c = scores(total, self.run.beta, self.run.weight, base)[1]
        return c.p, c.r, c.f, c.i

    def signature(self) -> str:
        return signature(self.run)

    def resampler(self, stats: Sequence[Any]) -> Any:
        """Linear with ``optimise="sentence"`` (each sentence's choice is its own): the
        weighted sums as one matrix product; otherwise the choice redone per weighting."""
        if self.run.optimise != "sentence":
            return _Looping(self, stats)
        return _LinearIMeasure(self, [(s[0], s[1]) for s in stats])

    def swapper(self, a: Sequence[Any], b: Sequence[Any]) -> Any:
        return _LoopingSwap(self, a, b)

    def sentence_fields(self, stats: Any, choice: int) -> dict[str, Any]:
        if stats[0] == "search":
            return {"reference": "searched"}
        c = stats[1][choice][0] if stats[0] == "all" else stats[0]
        return {"reference": choice, **dict(zip(("tp", "tn", "fp", "fn", "fpn"), c[5:]))}

    def system_run(self, stats: Sequence[Any], hypothesis: str) -> SystemRun:
        """One system's statistics (made with ``details``) as :func:`evaluate_files`'s
        :class:`SystemRun`: its totals and its per-sentence results."""
        total, base, kept = self.chosen(stats)
        run = IMeasure(self.run.maximise, self.run.optimise, self.run.mix, self.run.beta,
                       self.run.weight, self.run.enumerate_max, self.run.max_cells)
        run.total, run.total_base = total, base
        for _, c, b, info in kept:
            run.sentences.append(SentenceResult(info[0], list(info[1]), c, b, info[2], info[3]))
        return SystemRun(hypothesis, run)


class _LinearIMeasure:
    """The I-measure optimised per sentence over many weightings: sums, then scores."""

    def __init__(self, metric: IMeasureMetric, kept: Sequence[tuple[Counts, Counts]]) -> None:
        self.metric = metric
        self.kept = [c + b for c, b in kept]

    def scores(self, weights: Any) -> list[tuple[float, ...]]:
        import numpy as np

        if not self.kept:
            return [self.metric._values(ZERO, ZERO) for _ in weights]
        sums = (np.asarray(weights, dtype=np.int64) @ np.asarray(self.kept, dtype=np.int64)).tolist()
        return [self.metric._values(tuple(row[:10]), tuple(row[10:])) for row in sums]  # type: ignore[arg-type]

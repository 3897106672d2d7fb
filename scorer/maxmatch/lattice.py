"""The edit lattice of one source/hypothesis pair (spec §5).

Representation (an exact re-encoding of the reference's data, chosen for speed):

* a vertex is the cell ``(i, j)`` encoded as the integer ``i * (m + 1) + j``; integer order is
  the reference's lexicographic vertex order;
* an edge key ``(u, w)`` is the integer ``u * NC + w`` with ``NC = (n + 1) * (m + 1)``; integer
  order is the reference's edge sort order;
* the edit carried by a key is not stored as a 6-tuple: ``start``/``end`` are the rows of ``u``
  and ``w``, ``orig`` is ``source[start:end]`` and ``corr`` is ``hypothesis[j_u:j_w]`` (both
  joined by single spaces), and the kind is ``ins`` when ``start == end``, ``del`` when
  ``j_u == j_w``, ``noop`` when every step is unchanged, ``sub`` otherwise.  The only
  path-dependent parts, the step count ``dist`` and the number ``unchanged`` of noop steps, are
  packed into one integer ``dist << 32 | unchanged`` per key (kind noop iff ``unchanged == dist``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["Lattice", "LatticeError", "LatticeTooLarge", "DEFAULT_MAX_EDGES", "MAX_CELLS", "build_lattice", "base_lattice", "check_cells",
           "close_lattice", "remove_noop_arcs", "min_edges", "SHIFT", "MASK"]

SHIFT = 32
MASK = (1 << SHIFT) - 1
_BASE_SUB = 1 << SHIFT            # packed (dist 1, unchanged 0)
_BASE_NOOP = (1 << SHIFT) | 1     # packed (dist 1, unchanged 1)
_MISSING = 1 << 62                # larger than any packed value: "no such arc" in the closure


class LatticeError(ValueError):
    """The reference would crash on this sentence (a noop arc key listed twice, spec §5.5)."""


NOOP_TWICE = "noop arc listed twice: the reference scorer crashes here"


DEFAULT_MAX_EDGES = 2_500_000
"""The most lattice edges one sentence may have (``max_edges``) unless told otherwise.

Building and searching a lattice takes about 310 bytes per edge (measured), so this keeps any
sentence under about 800 MB; CoNLL-2014's largest lattice (NTHU, sentence 41) has 155,461 edges.  Lattices
past it come from hypotheses that repeat long stretches of the source (spec §11.2, the
repetition blow-up), where the reference runs for hours."""


MAX_CELLS = 25_000_000
"""The most cells ``(n + 1) * (m + 1)`` the two Levenshtein matrices of one sentence may have
while ``max_edges`` is in force (10 per edge when ``max_edges`` allows more): their rows take
memory in proportion even when the lattice is small (two 4,000-token sides with two changes:
500 MB), so 5,000 tokens a side (about 800 MB, as the default edge limit) is the bound."""


class LatticeTooLarge(LatticeError):
    """The sentence's lattice grew past ``max_edges`` edges: scoring it would take more memory
    (and time) than allowed.  Never a different score: the sentence is refused.

    Attributes:
        edges: how many edges the lattice had when building stopped, or (``estimated``)
            the lower bound :func:`min_edges` that refused it before building.
        limit: the ``max_edges`` in force.
    """

    def __init__(self, edges: int, limit: int, estimated: bool = False,
                 message: str | None = None) -> None:
        self.edges = edges
        self.limit = limit
        if message is not None:
            super().__init__(message)
        elif estimated:  # refused by min_edges before anything was built
            super().__init__(f"its edit lattice would have over {limit:,} edges (at least "
                             f"{edges:,}; the limit, max_edges): too many of the hypothesis' "
                             "tokens differ from the source's")
        else:
            super().__init__(f"its edit lattice has over {limit:,} edges (the limit, max_edges): "
                             f"the hypothesis probably repeats long stretches of the source")


class Lattice:
    """One sentence's lattice: vertices, edge list (with duplicates, reference order), edges' data.

    ``base`` is the merged, sorted base edge list (§5.3); ``edges`` the final list after the
    closure (§5.4) and the noop-arc removal (§5.5), i.e. the list the search relaxes and whose
    length is ``|E|``.  ``info`` maps every existing key to ``dist << 32 | unchanged``.
    ``noop_positions``, ``rewritten`` and ``survivors`` are the bookkeeping of the closure
    (positions in ``edges`` of new noop arcs, keys appended more than once with their extra
    occurrence count) and of the removal (surviving noop arcs).

    A plain slotted class (not a dataclass: see :mod:`maxmatch.corpus`); the building steps
    fill its containers in place.
    """

    __slots__ = ("source", "hypothesis", "vertices", "base", "edges", "info",
                 "noop_positions", "rewritten", "survivors")

    def __init__(self, source: tuple[str, ...], hypothesis: tuple[str, ...], vertices: list[int],
                 base: list[int], edges: list[int], info: dict[int, int]) -> None:
        self.source = source
        self.hypothesis = hypothesis
        self.vertices = vertices
        self.base = base
        self.edges = edges
        self.info = info
        self.noop_positions: list[int] = []
        self.rewritten: dict[int, int] = {}
        self.survivors: set[int] = set()

    def __repr__(self) -> str:
        return (f"Lattice({len(self.source)} source tokens, {len(self.hypothesis)} hypothesis "
                f"tokens, {len(self.vertices)} vertices, {len(self.edges)} edges)")

    @property
    def width(self) -> int:
        """``m + 1``: cells per matrix row."""
        return len(self.hypothesis) + 1

    @property
    def ncells(self) -> int:
        """``(n + 1) * (m + 1)``: the key radix."""
        return (len(self.source) + 1) * (len(self.hypothesis) + 1)

    def cell(self, vertex: int) -> tuple[int, int]:
        """Decode a vertex id into its matrix cell ``(i, j)``."""
        return divmod(vertex, self.width)

    def pair(self, key: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Decode an edge key into ``((i, j), (i', j'))``."""
        u, w = divmod(key, self.ncells)
        return self.cell(u), self.cell(w)

    def edit(self, key: int) -> tuple[str, int, int, str, str, int]:
        """The reference's 6-tuple ``(kind, start, end, orig, corr, unchanged)`` of a key.

        Raises ``KeyError`` if the key does not exist (any more)."""
        packed = self.info[key]
        (i0, j0), (i1, j1) = self.pair(key)
        dist, unchanged = packed >> SHIFT, packed & MASK
        if i0 == i1:
            kind = "ins"
        elif j0 == j1:
            kind = "del"
        elif unchanged == dist:
            kind = "noop"
        else:
            kind = "sub"
        return (kind, i0, i1, " ".join(self.source[i0:i1]), " ".join(self.hypothesis[j0:j1]),
                unchanged)

    def dist(self, key: int) -> int:
        """Step count of an existing key."""
        return self.info[key] >> SHIFT


def _banded_matrices(source: Sequence[str], hyp: Sequence[str]
                     ) -> tuple[list[list[int]], list[list[int]]]:
    """The Levenshtein matrices with substitution cost 1 and 2, exact on every cell of a
    minimum-cost path (§5.1), computed in one sweep (they share every comparison).

    Exact shortcut: a cell ``(i, j)`` on a minimum-cost path of total ``T`` satisfies
    ``|i-j| + |(n-m)-(i-j)| <= T`` (every step that changes ``i-j`` costs at least 1), so only
    the diagonals ``i-j`` in ``[min(0, n-m) - x, max(0, n-m) + x]`` with ``2x >= T - |n-m|``
    are computed; the other cells hold a value larger than any path cost, so they never
    attain a minimum.  ``x`` starts small and is widened once if the banded total of the
    cost-2 matrix (an upper bound of both totals, which it never exceeds) shows it was too
    small.  A band wider than one matrix needs only makes more of its cells exact."""
    n, m = len(source), len(hyp)
    width = m + 1
    delta = n - m
    big = n + m + 3
    # Rows 0..P of a common prefix of length P are exact without the recurrence: source[:i]
    # is then a prefix of hyp[:j] or the reverse, so both distances are |i - j| (slices of
    # one ramp, made in C).
    common = 0
    limit = min(n, m)
    while common < limit and source[common] == hyp[common]:
        common += 1
    ramp = list(range(m, 0, -1)) + list(range(m + 1))  # ramp[k] == |k - m|
    prefix = [ramp[m - i:2 * m - i + 1] for i in range(common + 1)]
    x = 2
    while True:
        lo, hi = min(0, delta) - x, max(0, delta) + x
        rows1 = prefix[:]
        rows2 = prefix[:]
        prev1 = prev2 = prefix[-1]
        for i in range(common + 1, n + 1):
            s = source[i - 1]
            cur1 = [big] * width
            cur2 = [big] * width
            jlo, jhi = i - hi, min(m, i - lo)
            if jlo <= 0:
                cur1[0] = cur2[0] = i
                jlo = 1
            left1 = cur1[jlo - 1]
            left2 = cur2[jlo - 1]
            for j in range(jlo, jhi + 1):
                diag1 = prev1[j - 1]
                diag2 = prev2[j - 1]
                if hyp[j - 1] != s:
                    diag1 += 1
                    diag2 += 2
                up = prev1[j] + 1
                if up < diag1:
                    diag1 = up
                up = prev2[j] + 1
                if up < diag2:
                    diag2 = up
                left1 += 1
                if left1 > diag1:
                    left1 = diag1
                left2 += 1
                if left2 > diag2:
                    left2 = diag2
                cur1[j] = left1
                cur2[j] = left2
            rows1.append(cur1)
            rows2.append(cur2)
            prev1, prev2 = cur1, cur2
        total = prev2[m]
        if total - abs(delta) <= 2 * x:
            return rows1, rows2
        x = (total - abs(delta) + 1) // 2


def _graph(source: Sequence[str], hyp: Sequence[str], sub_cost: int, rows: list[list[int]],
           edges: list[int], info: dict[int, int]) -> set[int]:
    """The edit graph of the Levenshtein matrix ``rows`` with cost scheme ``sub_cost`` (§5.2).

    Appends the graph's edge keys to ``edges`` (order irrelevant, sorted later), records their
    packed data in ``info`` and returns the vertex set (cells on a minimum-cost path)."""
    n, m = len(source), len(hyp)
    width = m + 1
    nc = (n + 1) * width
    # Walk back from (n, m); every reached cell contributes all its optimal back-pointers.
    reached = {n * width + m}
    stack = [(n, m)]
    append_edge = edges.append
    while stack:
        i, j = stack.pop()
        w = i * width + j
        val = rows[i][j]
        if i and j:
            diag_eq = source[i - 1] == hyp[j - 1]
            if rows[i - 1][j - 1] + (0 if diag_eq else sub_cost) == val:
                u = w - width - 1
                append_edge(u * nc + w)
                info[u * nc + w] = _BASE_NOOP if diag_eq else _BASE_SUB
                if u not in reached:
                    reached.add(u)
                    stack.append((i - 1, j - 1))
        if i and rows[i - 1][j] + 1 == val:
            u = w - width
            append_edge(u * nc + w)
            info[u * nc + w] = _BASE_SUB
            if u not in reached:
                reached.add(u)
                stack.append((i - 1, j))
        if j and rows[i][j - 1] + 1 == val:
            u = w - 1
            append_edge(u * nc + w)
            info[u * nc + w] = _BASE_SUB
            if u not in reached:
                reached.add(u)
                stack.append((i, j - 1))
    return reached


def base_lattice(source: Sequence[str], hypothesis: Sequence[str]) -> Lattice:
    """Both Levenshtein graphs merged (§5.1-5.3): sorted vertices, sorted edge list in which a
    key present in both graphs occurs twice.  ``edges`` is a copy of ``base``."""
    src, hyp = tuple(source), tuple(hypothesis)
    edges: list[int] = []
    info: dict[int, int] = {}
    rows1, rows2 = _banded_matrices(src, hyp)
    v1 = _graph(src, hyp, 1, rows1, edges, info)
    v2 = _graph(src, hyp, 2, rows2, edges, info)
    edges.sort()
    return Lattice(src, hyp, sorted(v1 | v2), edges, list(edges), info)


def close_lattice(lat: Lattice, max_unchanged_words: int,
                  max_edges: int | None = DEFAULT_MAX_EDGES) -> None:
    """Add the phrase-level arcs in place (§5.4), visiting the reference's (i, k, j) triples.

    For pivot ``k`` the reference's triple loop only does work for current in-neighbours ``i``
    and current out-neighbours ``j`` of ``k`` (§11.3).  Arcs created at pivot ``k`` start at
    vertices smaller than ``k``, so the out-neighbours of ``k`` at its turn are its base
    successors; its in-neighbours are base predecessors plus arcs of earlier pivots, sorted at
    its turn.  Appends to ``lat.edges`` in the reference's order, including re-appends of keys
    overwritten by a strictly shorter combination.  Raises :class:`LatticeTooLarge` as soon as
    the edge list is longer than ``max_edges`` (``None``: no limit)."""
    nc = lat.ncells
    cap = max_edges if max_edges is not None else float("inf")
    if len(lat.edges) > cap:
        raise LatticeTooLarge(len(lat.edges), max_edges)  # type: ignore[arg-type]
    info = lat.info
    edges = lat.edges
    append = edges.append
    noop_positions = lat.noop_positions
    rewritten = lat.rewritten
    inn: dict[int, list[int]] = {v: [] for v in lat.vertices}
    # out-arcs of each vertex as (j, packed, noop?, inn[j].append): the flag and the bound
    # method are looked up once per base arc instead of once per combination
    base_out: dict[int, list[tuple[int, int, bool, object]]] = {}
    last = last_u = -1
    outs: list[tuple[int, int, bool, object]] = []
    for key in lat.base:
        if key == last:
            continue
        last = key
        u, w = divmod(key, nc)
        packed = info[key]
        add_in = inn[w].append
        if u != last_u:  # the base list is sorted: one vertex's out-arcs are consecutive
            outs = base_out[u] = []
            last_u = u
        outs.append((w, packed, packed == _BASE_NOOP, add_in))
        add_in(u)
    limit = max_unchanged_words
    get = info.get
    add_noop = noop_positions.append
    shift, mask = SHIFT, MASK
    missing = _MISSING
    # no pivot can pass the cap while the list is at most this long (a pivot has fewer
    # in-neighbours than there are vertices, and each adds at most 3 edges)
    safe = cap - 3 * len(lat.vertices)
    # Every base arc k -> j has length 1 and 0 (substitution, insertion, deletion) or 1
    # (noop) unchanged words, so for an in-arc i -> k of length d and u unchanged words the
    # combination has length d + 1: it overwrites an existing arc iff that one is longer
    # than d + 1 (packed >= (d + 2) << SHIFT), and it passes the unchanged limit iff
    # u + u_kj <= limit, i.e. all out-arcs when u < limit, only the changing ones when
    # u == limit, none above.
    for k in lat.vertices:
        outs = base_out.get(k)  # type: ignore[assignment]
        if outs is None:
            continue
        ins = inn[k]
        if not ins:
            continue
        ins.sort()
        near_cap = len(edges) > safe and len(edges) + 3 * len(ins) > cap
        # at most one out-arc (the diagonal) is a noop
        changing = [out for out in outs if not out[2]] if len(outs) > 1 or outs[0][2] else outs
        for i in ins:
            if near_cap and len(edges) > cap:  # per in-neighbour: one adds at most 3 edges
                raise LatticeTooLarge(len(edges), max_edges)  # type: ignore[arg-type]
            inc = i * nc
            pik = info[inc + k]
            unchanged = pik & mask
            if unchanged < limit:
                targets = outs
            elif unchanged == limit and changing:
                targets = changing
            else:
                continue
            dist = pik >> shift
            all_noop = unchanged == dist
            longer = (dist + 2) << shift
            for j, pkj, noop, add_in in targets:
                key = inc + j
                cur = get(key, missing)
                if cur >= longer:  # a new arc (missing is larger than any length) or shorter
                    if all_noop and noop:
                        add_noop(len(edges))
                    append(key)
                    info[key] = pik + pkj
                    if cur == missing:
                        add_in(i)
                    else:
                        rewritten[key] = rewritten.get(key, 0) + 1
    if len(edges) > cap:
        raise LatticeTooLarge(len(edges), max_edges)  # type: ignore[arg-type]


def remove_noop_arcs(lat: Lattice) -> None:
    """Remove noop arcs with the reference's skip quirk (§5.5), in place.

    The reference deletes from the list it iterates, so the element following each removed
    arc is not examined (it survives even if it is a noop arc).  Only noop arcs can be
    removed, so the walk is simulated over their positions (recorded by the closure).
    Raises :class:`LatticeError` where the reference would crash (a noop arc key listed
    twice)."""
    edges = lat.edges
    info = lat.info
    if any((info[key] & MASK) == info[key] >> SHIFT for key in lat.rewritten):
        # A noop arc key listed twice: whichever occurrence the walk meets, the reference
        # deletes the key's edit while an occurrence stays listed, and fails later (§5.5).
        raise LatticeError(NOOP_TWICE)
    removed: list[int] = []
    prev = -2
    survivors = lat.survivors
    for pos in lat.noop_positions:
        if pos == prev + 1:             # shielded by the removal just before it
            survivors.add(edges[pos])
            prev = -2
        else:
            removed.append(pos)
            prev = pos
    if not removed:
        return
    kept: list[int] = edges[:removed[0]]
    for a, b in zip(removed, removed[1:]):
        kept += edges[a + 1:b]
    kept += edges[removed[-1] + 1:]
    for pos in removed:
        del info[edges[pos]]
    edges[:] = kept


def min_edges(source: Sequence[str], hypothesis: Sequence[str]) -> int:
    """A lower bound of the edge count :func:`close_lattice` reaches, in linear time.

    Why it holds, for any ``max_unchanged_words`` (0 included): the cost-1 graph holds a whole
    minimum-cost path from ``(0, 0)`` to ``(n, m)``; it has at least ``max(n, m)`` steps, of
    which at most ``k`` (the size of the multiset intersection of the two token lists)
    keep a token, so ``c >= max(n, m) - k`` steps change one, in at most ``k + 1`` runs that
    no kept token interrupts.  The closure joins every stretch of a run into one arc (an arc
    with a changing step appended always passes the unchanged-word limit, and pivots are
    visited in path order), so a run of ``s`` steps gives ``s (s + 1) / 2`` distinct keys;
    with ``c`` steps in ``k + 1`` runs that is at least ``c (c + k + 1) / (2 (k + 1))``.  The
    edge list holds at least the distinct keys.

    >>> min_edges("a b c".split(), "a b c".split()), min_edges(["a"] * 9, ["w"] * 1000)
    (0, 500500)
    """
    n, m = len(source), len(hypothesis)
    shorter, longer = (source, hypothesis) if n <= m else (hypothesis, source)
    counts = Counter(shorter)
    kept = sum(min(c, counts[t]) for t, c in Counter(longer).items() if t in counts)
    changing = max(n, m) - kept
    runs = kept + 1
    return changing * (changing + runs) // (2 * runs)


def check_cells(n: int, m: int, max_edges: int) -> None:
    """Refuse (:class:`LatticeTooLarge`) a sentence of ``n`` source and ``m`` hypothesis
    tokens whose matrices would pass :data:`MAX_CELLS` cells (or 10 per edge of
    ``max_edges`` when more); both backends check it first."""
    cells = (n + 1) * (m + 1)
    bound = max(MAX_CELLS, 10 * max_edges)
    if cells > bound:
        raise LatticeTooLarge(cells, max_edges, message=(
            f"its edit matrices would have {cells:,} cells ({n:,} source by {m:,} hypothesis "
            f"tokens), over the {bound:,} allowed (MAX_CELLS, or 10 per edge of max_edges "
            "when more)"))


def build_lattice(source: Sequence[str], hypothesis: Sequence[str],
                  max_unchanged_words: int = 2,
                  max_edges: int | None = DEFAULT_MAX_EDGES) -> Lattice:
    """The complete lattice of §5: base graphs, merge, phrase arcs, noop-arc removal.

    Inputs: source and hypothesis tokens (non-empty strings), the unchanged-word limit.
    Output: a :class:`Lattice`.  Raises :class:`LatticeError` where the reference crashes,
    :class:`LatticeTooLarge` when the lattice would exceed ``max_edges`` edges: before
    anything is built when :func:`min_edges` already exceeds it (a 3 MB line against a
    9-token source is refused at once, not after gigabytes of matrices), else while building;
    with ``max_edges`` in force, also before building when the matrices would pass
    :data:`MAX_CELLS` cells (or 10 per edge of ``max_edges`` when more)."""
    if max_edges is not None:
        check_cells(len(source), len(hypothesis), max_edges)
        floor = min_edges(source, hypothesis)
        if floor > max_edges:
            raise LatticeTooLarge(floor, max_edges, estimated=True)
    lat = base_lattice(source, hypothesis)
    close_lattice(lat, max_unchanged_words, max_edges)
    remove_noop_arcs(lat)
    return lat

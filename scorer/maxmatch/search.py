"""Weights, Bellman-Ford search and backtracking (spec §6.1-6.6)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .lattice import MASK, SHIFT, Lattice

_NOOP1 = (1 << SHIFT) | 1  # packed data of an elementary noop edge

__all__ = ["EPSILON", "GoldSpan", "Relaxation", "SentenceSearch", "insertion_sweep", "bellman_ford", "backtrack"]

#: The reference's tie-breaking constant ε (§6.1).
EPSILON = 0.001

#: A normalised gold edit: (start, end, original, corrections).
GoldSpan = tuple[int, int, str, tuple[str, ...]]

Edit = tuple[int, int, str, str]


def insertion_sweep(group: Sequence[int], corr_of: dict[int, str], golds: Sequence[GoldSpan],
                    weight: dict[int, float], reward: int, nc: int) -> None:
    """The two-pointer weighting of one insertion group (§6.3), exactly as the reference.

    ``group``: the sorted occurrences (keys, duplicates included) of one ``start == end`` span;
    ``corr_of``: key -> correction string; ``golds``: the annotator's gold edits of that span in
    file order (all with original ``''``); ``weight``: key -> weight, updated in place;
    ``reward``: ``-|E|``."""
    left, right = 0, len(group) - 1
    cur = left
    gl, gr = 0, len(golds) - 1
    size = len(group)
    while left <= right:
        key = group[cur]
        corr = corr_of[key]
        from_left = cur == left
        found = -1
        if from_left:
            for q in range(gl, gr + 1):
                g = golds[q]
                if g[2] == "" and corr in g[3]:
                    found = q
                    break
        else:
            for q in range(gr, gl - 1, -1):
                g = golds[q]
                if g[2] == "" and corr in g[3]:
                    found = q
                    break
        if found >= 0:
            weight[key] = reward
            if from_left:
                gl = found + 1
                left += 1
                target = key % nc
                while left < size and group[left] // nc != target:
                    weight[group[left]] += EPSILON
                    left += 1
                cur = left
            else:
                gr = found - 1
                right -= 1
                source = key // nc
                while right >= 0 and group[right] % nc != source:
                    weight[group[right]] += EPSILON
                    right -= 1
                cur = right
        else:
            weight[key] += EPSILON
            if from_left:
                left += 1
                cur = right
            else:
                right -= 1
                cur = left


class Relaxation:
    """The relaxation list ``(u, v, weight)`` of a lattice, held as three flat lists.

    It behaves as the list of triples where the search needs it (iteration, ``len``,
    indexing); :meth:`copy` shares the vertex lists and copies only the weights, the one
    part an annotator's overrides change.  ``ordered``: how many leading triples are the
    base edges, sorted by source vertex, the rest being the closure's arcs in the order it
    appended them (as :class:`SentenceSearch` builds it); :func:`bellman_ford` uses that
    order to skip what provably changes nothing.  ``0``: no order is assumed."""

    __slots__ = ("us", "vs", "ws", "ordered")

    def __init__(self, us: list[int], vs: list[int], ws: list[float], ordered: int = 0) -> None:
        self.us, self.vs, self.ws, self.ordered = us, vs, ws, ordered

    def __iter__(self) -> Iterator[tuple[int, int, float]]:
        return zip(self.us, self.vs, self.ws)

    def __len__(self) -> int:
        return len(self.ws)

    def __getitem__(self, index: int) -> tuple[int, int, float]:
        return self.us[index], self.vs[index], self.ws[index]

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (Relaxation, list)) else NotImplemented

    def copy(self) -> Relaxation:
        """A copy whose weights can be changed without touching this one."""
        return Relaxation(self.us, self.vs, self.ws.copy(), self.ordered)


class SentenceSearch:
    """Per-sentence search state shared by all annotators (§11.3 "weights" and grouping).

    Built once per lattice: the annotator-independent weights (every non-noop occurrence of a
    key adds one ε to the key's weight), the relaxation list ``(u, v, weight)`` (adjacent
    duplicate occurrences dropped: relaxing the same key twice in a row can never succeed the
    second time) and, per gold span, the sorted occurrence group of §6.1, found by
    enumerating the vertices of the span's two rows instead of scanning the edge list."""

    __slots__ = ("lat", "nc", "width", "reward", "relax", "_nbase", "_base_pos", "_counts",
                 "_rows", "_arc_pos")

    def __init__(self, lat: Lattice, gold_spans: set[tuple[int, int]] | None = None) -> None:
        self.lat = lat
        nc = self.nc = lat.ncells
        self.width = lat.width
        info = lat.info
        edges = lat.edges
        self.reward = -len(edges)
        us: list[int] = []
        vs: list[int] = []
        ws: list[float] = []
        base_pos: dict[int, int] = {}
        counts: dict[int, int] = {}
        last = -1
        for key in lat.base:
            if key == last:
                counts[key] = 2
                if info[key] != _NOOP1:
                    ws[-1] += EPSILON
                continue
            last = key
            base_pos[key] = len(ws)
            u, v = divmod(key, nc)
            us.append(u)
            vs.append(v)
            ws.append(1.0 if info[key] == _NOOP1 else 1 + EPSILON)
        self._nbase = len(ws)
        self._base_pos = base_pos
        for key, extra in lat.rewritten.items():
            counts[key] = 1 + extra
        self._counts = counts
        special = {key: self.base_weight(key) for key in lat.rewritten}
        for key in lat.survivors:
            special[key] = float(info[key] >> SHIFT)
        arcs = edges[len(lat.base):]
        # three flat lists, not a list of 10^6 tuples: cheaper to build (no tuple per arc
        # for the garbage collector to track) and iterated as zip() (one reused tuple)
        if len(arcs) > 20 * nc:
            # ... and, in a large lattice, every vertex and weight one shared object (from
            # tables), not a new int or float per arc: a million arcs take 100 MB less
            cells = list(range(nc))
            us += [cells[k // nc] for k in arcs]
            vs += [cells[k % nc] for k in arcs]
            weight = [d + EPSILON for d in range(self.width + nc // self.width + 1)]
            ws += [special[k] if k in special else weight[info[k] >> SHIFT] for k in arcs]
        else:
            us += [k // nc for k in arcs]
            vs += [k % nc for k in arcs]
            ws += [special[k] if k in special else (info[k] >> SHIFT) + EPSILON for k in arcs]
        self.relax = Relaxation(us, vs, ws, self._nbase)
        self._rows: dict[int, list[int]] | None = None
        self._arc_pos: dict[int, list[int]] | None = None

    def base_weight(self, key: int) -> float:
        """The annotator-independent weight of an existing key: ``dist`` plus one ε per
        occurrence, or ``dist`` for a noop edge or surviving noop arc."""
        p = self.lat.info[key]
        d = p >> SHIFT
        if (p & MASK) == d:
            return float(d)
        w: float = d
        for _ in range(self._counts.get(key, 1)):
            w += EPSILON
        return w

    def _group(self, span: tuple[int, int]) -> list[int]:
        """Sorted occurrences (duplicates repeated) of the keys whose edit has ``span``."""
        if self._rows is None:
            rows: dict[int, list[int]] = {}
            width = self.width
            for v in self.lat.vertices:
                rows.setdefault(v // width, []).append(v)
            self._rows = rows
        rows = self._rows
        info, nc, counts = self.lat.info, self.nc, self._counts
        group: list[int] = []
        for u in rows.get(span[0], ()):
            for v in rows.get(span[1], ()):
                if u < v:
                    key = u * nc + v
                    if key in info:
                        group += [key] * counts.get(key, 1)
        return group

    def weights_for(self, golds: Sequence[GoldSpan]) -> dict[int, float]:
        """Keys whose weight differs from :meth:`base_weight`, for one annotator (§6.2-6.3).

        ``golds``: the annotator's normalised gold list (§2.4), file order."""
        if not golds:
            return {}
        lat = self.lat
        hyp = lat.hypothesis
        width, nc = self.width, self.nc
        by_span: dict[tuple[int, int], list[GoldSpan]] = {}
        for g in golds:
            if g[0] <= g[1]:
                by_span.setdefault((g[0], g[1]), []).append(g)
        out: dict[int, float] = {}
        reward = self.reward
        for span, gs in by_span.items():
            group = self._group(span)
            if not group:
                continue
            corr_of = {}
            for key in group:
                if key not in corr_of:
                    u, v = divmod(key, nc)
                    corr_of[key] = " ".join(hyp[u % width:v % width])
            if span[0] == span[1]:
                local = {key: float(lat.info[key] >> SHIFT) for key in corr_of}
                insertion_sweep(group, corr_of, gs, local, reward, nc)
                for key, w in local.items():
                    if w != self.base_weight(key):
                        out[key] = w
            else:
                orig = " ".join(lat.source[span[0]:span[1]])
                for key, corr in corr_of.items():
                    for g in gs:
                        if g[2] == orig and corr in g[3]:
                            out[key] = reward
                            break
        return out

    def _positions(self, key: int) -> list[int]:
        pos = self._base_pos.get(key)
        if pos is not None:
            return [pos]
        if self._arc_pos is None:
            self._arc_pos = {}
        found = self._arc_pos.get(key)
        if found is None:
            us, vs = self.relax.us, self.relax.vs
            u, v = divmod(key, self.nc)
            found = [x for x in range(self._nbase, len(vs)) if vs[x] == v and us[x] == u]
            self._arc_pos[key] = found
        return found

    def relax_list(self, overrides: dict[int, float]) -> Relaxation:
        """The relaxation list with an annotator's weight overrides applied."""
        if not overrides:
            return self.relax
        relax = self.relax.copy()
        ws = relax.ws
        for key, w in overrides.items():
            for pos in self._positions(key):
                ws[pos] = w
        return relax


def bellman_ford(relax: Iterable[tuple[int, int, float]], ncells: int, nvertices: int) -> list[int]:
    """The reference's Bellman-Ford from vertex 0 with strict relaxation (§6.5).

    Passes over ``relax`` in list order, stopping after the first pass without a change (exact:
    a pass that changes nothing leaves every later pass unchanged) or after ``|V| - 1`` passes.
    Returns the predecessor array (``-1`` = none).

    For a :class:`Relaxation` with ``ordered`` set (base edges sorted by source, then the
    closure's arcs in closure order) less is tried, with the same result.  Exact, because a
    relaxation can only succeed if its source's distance dropped since the relaxation was
    last tried.  A distance lowered among the base edges is lowered before any edge leaving
    that vertex is tried in the same pass (they all come later); one lowered by a phrase arc
    is lowered after the vertex's base edges were tried, unless the vertex is the last one,
    which has no out-edge, so when no other vertex changed after the base edges the next pass
    would change nothing and is not run.  And since every arc into a vertex precedes every
    arc out of it, a later pass tries an arc only if its source was lowered in that pass."""
    inf = float("inf")
    d = [inf] * ncells
    d[0] = 0.0
    pred = [-1] * ncells
    ordered = relax.ordered if isinstance(relax, Relaxation) else 0
    if not ordered:
        for _ in range(nvertices - 1):
            changed = False
            for u, v, w in relax:
                nd = d[u] + w
                if nd < d[v]:
                    d[v] = nd
                    pred[v] = u
                    changed = True
            if not changed:
                break
        return pred
    assert isinstance(relax, Relaxation)
    base = relax.us[:ordered], relax.vs[:ordered], relax.ws[:ordered]
    arcs = relax.us[ordered:], relax.vs[ordered:], relax.ws[ordered:]
    sink = ncells - 1
    if nvertices < 2:
        return pred
    # the first pass tries every edge
    for u, v, w in zip(*base):
        nd = d[u] + w
        if nd < d[v]:
            d[v] = nd
            pred[v] = u
    again = False
    for u, v, w in zip(*arcs):
        nd = d[u] + w
        if nd < d[v]:
            d[v] = nd
            pred[v] = u
            if v != sink:
                again = True
    # Later passes try a phrase arc only if its source was lowered in the same pass.  Exact:
    # the closure appends every arc into a vertex (at a pivot before it) ahead of every arc
    # out of it (at a pivot after it), so within a pass a vertex is lowered before its
    # out-arcs come; an arc whose source was not lowered meets the distance it met one pass
    # earlier, and fails as it did then (or after it succeeded: distances only drop).
    for _ in range(nvertices - 2):
        if not again:
            break
        lowered = [False] * ncells
        for u, v, w in zip(*base):
            nd = d[u] + w
            if nd < d[v]:
                d[v] = nd
                pred[v] = u
                lowered[v] = True
        again = False
        for u, v, w in zip(*arcs):
            if lowered[u]:
                nd = d[u] + w
                if nd < d[v]:
                    d[v] = nd
                    pred[v] = u
                    lowered[v] = True
                    if v != sink:
                        again = True
    return pred


def backtrack(lat: Lattice, pred: list[int]) -> list[Edit]:
    """Edits of the best path, left to right, noop edits dropped (§6.6)."""
    width, nc = lat.width, lat.ncells
    src, hyp, info = lat.source, lat.hypothesis, lat.info
    out: list[Edit] = []
    v = nc - 1
    u = pred[v]
    while u >= 0:
        p = info[u * nc + v]
        d = p >> SHIFT
        i0, j0 = divmod(u, width)
        i1, j1 = divmod(v, width)
        if not ((p & MASK) == d and i0 != i1 and j0 != j1):
            out.append((i0, i1, " ".join(src[i0:i1]), " ".join(hyp[j0:j1])))
        v = u
        u = pred[v]
    out.reverse()
    return out

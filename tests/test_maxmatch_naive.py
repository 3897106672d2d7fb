"""Differential tests: the fast ``maxmatch`` against a literal, slow transcription of the spec.

The transcription below follows ``spec/maxmatch.md`` §5-§6 step by step (tuples for cells,
6-tuple edits, the O(|V|^3) triple-loop closure, the list mutated while iterated, the literal
weighting procedure, |V|-1 Bellman-Ford passes without early exit).  Hypothesis generates small
sentences over tiny vocabularies, where ties and co-optimal alignments abound, and gold edits
drawn from the lattice itself so that rewards, duplicate insertions and sweeps are exercised.
Spec §12 item 6: same lattice and edge-list order, closure with neighbour lists = triple loop,
early-terminated search = full search (edge lists and edit sequences compared, not only scores).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maxmatch
from maxmatch.corpus import normalise_gold
from maxmatch.search import SentenceSearch, backtrack, bellman_ford

# every test on both backends: the pure-Python path and the compiled core
pytestmark = pytest.mark.usefixtures("maxmatch_backend")

EPS = 0.001


# ----------------------------------------------------------------- literal transcription

def naive_matrix(S, H, sub):
    n, m = len(S), len(H)
    D = [[0] * (m + 1) for _ in range(n + 1)]
    bp = {}
    for i in range(1, n + 1):
        D[i][0] = i
        bp[(i, 0)] = [((i - 1, 0), ("del", i - 1, i, S[i - 1], "", 0))]
    for j in range(1, m + 1):
        D[0][j] = j
        bp[(0, j)] = [((0, j - 1), ("ins", 0, 0, "", H[j - 1], 0))]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            eq = S[i - 1] == H[j - 1]
            diag = D[i - 1][j - 1] + (0 if eq else sub)
            up, left = D[i - 1][j] + 1, D[i][j - 1] + 1
            best = min(diag, up, left)
            D[i][j] = best
            ptrs = []
            if diag == best:
                ptrs.append(((i - 1, j - 1), ("noop", i - 1, i, S[i - 1], H[j - 1], 1) if eq
                             else ("sub", i - 1, i, S[i - 1], H[j - 1], 0)))
            if up == best:
                ptrs.append(((i - 1, j), ("del", i - 1, i, S[i - 1], "", 0)))
            if left == best:
                ptrs.append(((i, j - 1), ("ins", i, i, "", H[j - 1], 0)))
            bp[(i, j)] = ptrs
    return bp


def naive_graph(S, H, sub):
    bp = naive_matrix(S, H, sub)
    V, E, dist, edits = [], [], {}, {}
    queue = [(len(S), len(H))]
    while queue:
        v = queue.pop(0)
        if v in V:
            continue
        V.append(v)
        for u, e in bp.get(v, []):
            E.append((u, v))
            dist[(u, v)] = 1
            edits[(u, v)] = e
            if u not in queue:
                queue.append(u)
    return V, E, dist, edits


def naive_merge_edit(e1, e2):
    kinds = {e1[0], e2[0]}
    kind = e1[0] if len(kinds) == 1 else "sub"
    orig = " ".join(x for x in (e1[3], e2[3]) if x)
    corr = " ".join(x for x in (e1[4], e2[4]) if x)
    return (kind, e1[1], e2[2], orig, corr, e1[5] + e2[5])


def naive_lattice(S, H, max_unchanged):
    V1, E1, d1, ed1 = naive_graph(S, H, 1)
    V2, E2, d2, ed2 = naive_graph(S, H, 2)
    V = sorted(set(V1) | set(V2))
    E = sorted(E1 + E2)
    base = list(E)
    dist = {**d2, **d1}
    edits = {**ed2, **ed1}
    for k in V:
        for i in V:
            if (i, k) not in edits:
                continue
            for j in V:
                if (k, j) not in edits:
                    continue
                d = dist[(i, k)] + dist[(k, j)]
                if d < dist.get((i, j), float("inf")):
                    e = naive_merge_edit(edits[(i, k)], edits[(k, j)])
                    if e[5] <= max_unchanged:
                        E.append((i, j))
                        dist[(i, j)] = d
                        edits[(i, j)] = e
    c = 0
    while c < len(E):
        x = E[c]
        c += 1
        if edits[x][0] == "noop" and dist[x] > 1:
            E.remove(x)
            dist[x] = float("inf")
            del edits[x]
    return V, base, E, dist, edits


def naive_weights(E, dist, edits, gold):
    w = dict(dist)
    M, G = {}, {}
    for edge in E:
        M.setdefault(edits[edge][1:3], []).append(edge)
    for g in gold:
        G.setdefault((g[0], g[1]), []).append(g)

    def match(e, g):
        return e[1] == g[0] and e[2] == g[1] and e[3] == g[2] and e[4] in g[3]

    for k in sorted(M):
        L = sorted(M[k])
        Gk = G.get(k, [])
        if k[0] == k[1]:
            left, right, cur, gl, gr = 0, len(L) - 1, 0, 0, len(Gk) - 1
            while left <= right:
                x = L[cur]
                side_left = cur == left
                order = range(gl, gr + 1) if side_left else range(gr, gl - 1, -1)
                found = None
                for q in order:
                    if match(edits[x], Gk[q]):
                        found = q
                        break
                if found is not None:
                    w[x] = -len(E)
                    if side_left:
                        gl = found + 1
                        left += 1
                        while left < len(L) and L[left][0] != x[1]:
                            w[L[left]] += EPS
                            left += 1
                        cur = left
                    else:
                        gr = found - 1
                        right -= 1
                        while right >= 0 and L[right][1] != x[0]:
                            w[L[right]] += EPS
                            right -= 1
                        cur = right
                else:
                    w[x] += EPS
                    if side_left:
                        left += 1
                        cur = right
                    else:
                        right -= 1
                        cur = left
        else:
            for x in L:
                if any(match(edits[x], g) for g in Gk):
                    w[x] = -len(E)
                elif edits[x][0] != "noop":
                    w[x] += EPS
    return w


def naive_search(V, E, w, edits):
    d = {v: float("inf") for v in V}
    d[(0, 0)] = 0
    pred = {}
    for _ in range(len(V) - 1):
        for (u, v) in E:
            if d[u] + w[(u, v)] < d[v]:
                d[v] = d[u] + w[(u, v)]
                pred[v] = u
    v = max(V)
    seq = []
    while v in pred:
        u = pred[v]
        e = edits[(u, v)]
        if e[0] != "noop":
            seq.append(e[1:5])
        v = u
    return seq[::-1]


# ----------------------------------------------------------------- strategies

words = st.sampled_from(["a", "b", "c", "the", "A"])
sentences = st.lists(words, max_size=7)


@st.composite
def cases(draw):
    S = draw(sentences)
    H = draw(sentences)
    n = len(S)
    gold = {}
    for ann in range(draw(st.integers(0, 2))):
        edits = []
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(0, n))
            end = draw(st.integers(start, min(n, start + 2)))
            corr = draw(st.lists(st.lists(words, max_size=2).map(" ".join), min_size=1,
                                 max_size=2))
            edits.append((start, end, tuple(corr)))
        gold[ann] = edits
    return S, H, gold, draw(st.integers(0, 3))


def fast_view(lat):
    return ([lat.cell(v) for v in lat.vertices], [lat.pair(k) for k in lat.base],
            [lat.pair(k) for k in lat.edges],
            {lat.pair(k): lat.edit(k) for k in set(lat.edges)})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_fast_equals_literal_transcription(case) -> None:
    S, H, gold, limit = case
    V, base, E, dist, edits = naive_lattice(S, H, limit)
    lat = maxmatch.build_lattice(S, H, limit)
    fV, fbase, fE, fedits = fast_view(lat)
    assert fV == V
    assert fbase == base
    assert fE == E
    assert fedits == {x: edits[x] for x in set(E)}
    golds, _ = normalise_gold(gold, S)
    spans = {(g[0], g[1]) for gs in golds.values() for g in gs}
    state = SentenceSearch(lat, spans)
    for ann, gs in golds.items():
        w = naive_weights(E, dist, edits, gs)
        over = state.weights_for(gs)
        fw = {lat.pair(k): over.get(k, state.base_weight(k)) for k in set(lat.edges)}
        assert fw == {x: w[x] for x in set(E)}
        expected = naive_search(V, E, w, edits)
        pred = bellman_ford(state.relax_list(over), lat.ncells, len(lat.vertices))
        assert backtrack(lat, pred) == expected
        res = maxmatch.score_sentence(S, H, gold, max_unchanged_words=limit)
        [mine] = [r for r in res.annotators if r.annotator == ann]
        assert list(mine.edits) == expected

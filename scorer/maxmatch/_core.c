/* maxmatch._core: the compiled core of the MaxMatch scorer (one sentence, every annotator).
 *
 * A C rendering of the pure-Python path that stays the reference: lattice.py
 * (_banded_matrices, _graph, base_lattice, close_lattice, remove_noop_arcs, min_edges) and
 * search.py (SentenceSearch, weights_for, insertion_sweep, bellman_ford, backtrack), step
 * for step and in the same order, so that every tie, every floating-point sum and every
 * refusal comes out as there.  Only the representation differs: tokens are interned to
 * integers, a vertex is its index in the sorted vertex list (an order-preserving renumbering
 * of the cells), a key (u, w) has one entry (dist, unchanged, flags) in dense arrays, the
 * key -> entry dictionary is each vertex's list of in-arcs sorted by source (the closure
 * merges these lists, see close_lattice), and weights are kept per entry (every occurrence
 * of a key in the relaxation list has the same).
 *
 * evaluate(source, hypothesis, golds, max_unchanged_words, max_edges) -> result
 *   source, hypothesis: tuples of str; golds: a list (one per annotator, visiting order) of
 *   lists of normalised gold edits (start, end, original, corrections-tuple);
 *   max_edges: an int or None.
 *   result: a list (one per annotator) of lists of edits (start, end, orig, corr), noop
 *   edits dropped, left to right (an annotator whose weights equal an earlier one's shares
 *   its list);
 *   or (1, floor): refused by the min_edges estimate; (2, edges): the lattice passed
 *   max_edges while being built; (3, 0): a noop arc listed twice (LatticeError);
 *   or NotImplemented: an input this core does not take (a token that is not a str, is
 *   empty or holds a space; a gold field of another type; sizes past 32-bit indices): the
 *   caller runs the pure-Python path, which gives the answer (or the error) for it.
 *
 * The MAX_CELLS refusal is the caller's (it comes first and needs no lattice).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EPSILON 0.001
#define F_REMOVED 1  /* deleted from the reference's dictionary (a removed noop arc) */
#define F_DUP 2      /* a base key listed twice (in both Levenshtein graphs) */
#define F_SURVIVOR 4 /* a noop arc the removal's skip quirk kept */

typedef struct {
    int32_t *a;
    Py_ssize_t n, cap;
} Vec32;

static int vec_grow(Vec32 *v) {
    Py_ssize_t cap = v->cap ? 2 * v->cap : 64;
    int32_t *a = (int32_t *)realloc(v->a, (size_t)cap * sizeof(int32_t));
    if (!a) return -1;
    v->a = a;
    v->cap = cap;
    return 0;
}

static inline int vec_push(Vec32 *v, int32_t x) {
    if (v->n == v->cap && vec_grow(v) < 0) return -1;
    v->a[v->n++] = x;
    return 0;
}

/* an arc into a vertex, as that vertex's in-arc list holds it: the source vertex and the
 * entry */
typedef struct {
    int32_t i, e;
} InArc;

typedef struct {
    /* sizes */
    int32_t n, m;          /* source and hypothesis lengths */
    int32_t nv;            /* vertices */
    /* tokens, interned */
    int32_t *src, *hyp;
    /* band layout of the matrices and of the cell -> vertex map */
    int32_t common, lo, hi, wb, big;
    int32_t *rows1, *rows2; /* (n + 1) * wb, rows above `common` only */
    int32_t *vid;           /* (n + 1) * wb: vertex index of a cell, -1 if none */
    uint8_t *reached;       /* (n + 1) * wb: bit 1 cost-1 graph, bit 2 cost-2 graph */
    /* vertices */
    int32_t *vi, *vj;       /* cell of each vertex */
    int32_t *row_start;     /* n + 2: first vertex of each row */
    /* entries: one per distinct key */
    int32_t ne, cape;
    int32_t *eu, *ew, *edist, *eunch, *eextra;
    uint8_t *eflag;
    int32_t nbase_entries;  /* entries 0 .. nbase_entries - 1 are the base keys */
    /* the key -> entry map: each vertex's in-arcs, sorted by source (a key is looked up
     * by a binary search there; the closure merges these lists) */
    InArc **in;
    int32_t *in_len;
    /* the edge list (entry per occurrence), the base list being its first nbase_list */
    Vec32 edges;
    Py_ssize_t nbase_list;
    Vec32 noop_positions;
    Vec32 rewritten;        /* entries appended more than once */
    /* the relaxation list is the base entries (entry e at position e: they were made in
     * the base list's order, its adjacent duplicates dropped) and then the arcs of the edge
     * list; every occurrence of a key has the same weight, kept per entry */
    double *wt;
} Lat;

static void lat_free(Lat *L) {
    free(L->src); free(L->hyp);
    free(L->rows1); free(L->rows2); free(L->vid); free(L->reached);
    free(L->vi); free(L->vj); free(L->row_start);
    free(L->eu); free(L->ew); free(L->edist); free(L->eunch);
    free(L->eextra); free(L->eflag);
    if (L->in)
        for (int32_t v = 0; v < L->nv; v++) free(L->in[v]);
    free(L->in); free(L->in_len);
    free(L->edges.a); free(L->noop_positions.a); free(L->rewritten.a);
    free(L->wt);
}

/* ------------------------------------------------------------------ keys and entries */

#define KEY(L, e) ((uint64_t)(L)->eu[e] * (uint64_t)(L)->nv + (uint64_t)(L)->ew[e])

/* the entry of the key u -> v, or -1 */
static int32_t find(const Lat *L, int32_t u, int32_t v) {
    const InArc *a = L->in[v];
    int32_t lo = 0, hi = L->in_len[v];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (a[mid].i < u) lo = mid + 1; else hi = mid;
    }
    return lo < L->in_len[v] && a[lo].i == u ? a[lo].e : -1;
}

static int grow_entries(Lat *L) {
    int32_t cap = L->cape ? 2 * L->cape : 1024;
    if (L->cape > 0x3fffffff) return -1;
#define GROW(field, type) do { \
        type *p = (type *)realloc(L->field, (size_t)cap * sizeof(type)); \
        if (!p) return -1; \
        L->field = p; \
    } while (0)
    GROW(eu, int32_t); GROW(ew, int32_t); GROW(edist, int32_t);
    GROW(eunch, int32_t); GROW(eextra, int32_t); GROW(eflag, uint8_t);
#undef GROW
    L->cape = cap;
    return 0;
}

/* a new entry (its key not present), -1 on memory failure */
static inline int32_t add_entry(Lat *L, int32_t u, int32_t w, int32_t dist, int32_t unch) {
    if (L->ne == L->cape && grow_entries(L) < 0) return -1;
    int32_t e = L->ne++;
    L->eu[e] = u; L->ew[e] = w; L->edist[e] = dist; L->eunch[e] = unch;
    L->eextra[e] = 0; L->eflag[e] = 0;
    return e;
}

/* ------------------------------------------------------------------ matrices (§5.1) */

/* a cell's value: the common-prefix rows are |i - j|, the others hold their band (column 0
 * is i when the band reaches it) and `big` elsewhere, as _banded_matrices' rows */
static inline int32_t cell(const Lat *L, const int32_t *rows, int32_t i, int32_t j) {
    if (i <= L->common) return i > j ? i - j : j - i;
    if (j == 0) return i - L->hi <= 0 ? i : L->big;
    int32_t off = j - (i - L->hi);
    if (off < 0 || off >= L->wb || j > L->m) return L->big;
    return rows[(size_t)i * L->wb + off];
}

static int matrices(Lat *L) {
    int32_t n = L->n, m = L->m, delta = n - m;
    int32_t adelta = delta < 0 ? -delta : delta;
    L->big = n + m + 3;
    int32_t limit = n < m ? n : m, common = 0;
    while (common < limit && L->src[common] == L->hyp[common]) common++;
    L->common = common;
    int32_t x = 2;
    for (;;) {
        L->lo = (delta < 0 ? delta : 0) - x;
        L->hi = (delta > 0 ? delta : 0) + x;
        L->wb = L->hi - L->lo + 1;
        size_t size = (size_t)(n + 1) * L->wb;
        free(L->rows1); free(L->rows2);
        L->rows1 = (int32_t *)malloc(size * sizeof(int32_t));
        L->rows2 = (int32_t *)malloc(size * sizeof(int32_t));
        if (!L->rows1 || !L->rows2) return -1;
        for (int32_t i = common + 1; i <= n; i++) {
            int32_t s = L->src[i - 1];
            int32_t *cur1 = L->rows1 + (size_t)i * L->wb, *cur2 = L->rows2 + (size_t)i * L->wb;
            int32_t base = i - L->hi; /* the column of offset 0 */
            int32_t jlo = base, jhi = i - L->lo < m ? i - L->lo : m;
            int32_t left1, left2;
            if (jlo <= 0) {
                left1 = left2 = i;
                jlo = 1;
            } else {
                left1 = left2 = L->big;
            }
            for (int32_t j = jlo; j <= jhi; j++) {
                int32_t diag1 = cell(L, L->rows1, i - 1, j - 1);
                int32_t diag2 = cell(L, L->rows2, i - 1, j - 1);
                if (L->hyp[j - 1] != s) {
                    diag1 += 1;
                    diag2 += 2;
                }
                int32_t up = cell(L, L->rows1, i - 1, j) + 1;
                if (up < diag1) diag1 = up;
                up = cell(L, L->rows2, i - 1, j) + 1;
                if (up < diag2) diag2 = up;
                left1 += 1;
                if (left1 > diag1) left1 = diag1;
                left2 += 1;
                if (left2 > diag2) left2 = diag2;
                cur1[j - base] = left1;
                cur2[j - base] = left2;
            }
        }
        int32_t total = cell(L, L->rows2, n, m);
        if (total - adelta <= 2 * x) return 0;
        x = (total - adelta + 1) / 2;
    }
}

/* ------------------------------------------------------------------ graphs (§5.2-5.3) */

static inline size_t slot_of(const Lat *L, int32_t i, int32_t j) {
    return (size_t)i * L->wb + (size_t)(j - i + L->hi);
}

/* every cell of a minimum-cost path lies in the band (see _banded_matrices): a cell outside
 * it means a broken assumption, and the caller takes the pure path rather than guess */
#define IN_BAND(L, i, j) ((j) - (i) + (L)->hi >= 0 && (j) - (i) + (L)->hi < (L)->wb)

/* the edit graph of one matrix: marks reached cells with `bit`, appends its edge keys
 * (cell key << 1 | noop) to `keys` */
static int graph(Lat *L, const int32_t *rows, int32_t sub_cost, uint8_t bit, uint64_t **keys,
                 size_t *nkeys, size_t *capkeys, int32_t **stack, size_t *capstack) {
    int32_t n = L->n, m = L->m, width = m + 1;
    uint64_t nc = (uint64_t)(n + 1) * width;
    size_t top = 0;
#define PUSH_CELL(ii, jj) do { \
        if (top + 2 > *capstack) { size_t c = *capstack ? 2 * *capstack : 256; \
            int32_t *p = (int32_t *)realloc(*stack, c * sizeof(int32_t)); if (!p) return -1; \
            *stack = p; *capstack = c; } \
        (*stack)[top++] = (ii); (*stack)[top++] = (jj); } while (0)
#define ADD_KEY(uu, ww, noop) do { \
        if (*nkeys == *capkeys) { size_t c = *capkeys ? 2 * *capkeys : 256; \
            uint64_t *p = (uint64_t *)realloc(*keys, c * sizeof(uint64_t)); if (!p) return -1; \
            *keys = p; *capkeys = c; } \
        (*keys)[(*nkeys)++] = (((uint64_t)(uu) * nc + (uint64_t)(ww)) << 1) | (noop); } while (0)
    L->reached[slot_of(L, n, m)] |= bit;
    PUSH_CELL(n, m);
    while (top) {
        int32_t j = (*stack)[--top];
        int32_t i = (*stack)[--top];
        uint64_t w = (uint64_t)i * width + j;
        int32_t val = cell(L, rows, i, j);
        if (i && j) {
            int diag_eq = L->src[i - 1] == L->hyp[j - 1];
            if (cell(L, rows, i - 1, j - 1) + (diag_eq ? 0 : sub_cost) == val) {
                if (!IN_BAND(L, i - 1, j - 1)) return -2;
                ADD_KEY(w - width - 1, w, diag_eq);
                size_t s = slot_of(L, i - 1, j - 1);
                if (!(L->reached[s] & bit)) {
                    L->reached[s] |= bit;
                    PUSH_CELL(i - 1, j - 1);
                }
            }
        }
        if (i && cell(L, rows, i - 1, j) + 1 == val) {
            if (!IN_BAND(L, i - 1, j)) return -2;
            ADD_KEY(w - width, w, 0);
            size_t s = slot_of(L, i - 1, j);
            if (!(L->reached[s] & bit)) {
                L->reached[s] |= bit;
                PUSH_CELL(i - 1, j);
            }
        }
        if (j && cell(L, rows, i, j - 1) + 1 == val) {
            if (!IN_BAND(L, i, j - 1)) return -2;
            ADD_KEY(w - 1, w, 0);
            size_t s = slot_of(L, i, j - 1);
            if (!(L->reached[s] & bit)) {
                L->reached[s] |= bit;
                PUSH_CELL(i, j - 1);
            }
        }
    }
#undef PUSH_CELL
#undef ADD_KEY
    return 0;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* base_lattice: vertices, entries of the base keys, the sorted base list */
static int base_lattice(Lat *L) {
    int32_t n = L->n, m = L->m, width = m + 1;
    uint64_t nc = (uint64_t)(n + 1) * width;
    if (matrices(L) < 0) return -1;
    size_t size = (size_t)(n + 1) * L->wb;
    L->reached = (uint8_t *)calloc(size, 1);
    L->vid = (int32_t *)malloc(size * sizeof(int32_t));
    if (!L->reached || !L->vid) return -1;
    uint64_t *keys = NULL;
    int32_t *stack = NULL;
    size_t nkeys = 0, capkeys = 0, capstack = 0;
    int rc = graph(L, L->rows1, 1, 1, &keys, &nkeys, &capkeys, &stack, &capstack);
    if (rc == 0) rc = graph(L, L->rows2, 2, 2, &keys, &nkeys, &capkeys, &stack, &capstack);
    free(stack);
    free(L->rows1); free(L->rows2);
    L->rows1 = L->rows2 = NULL;
    if (rc < 0) { free(keys); return rc; }
    /* vertices: reached cells in cell order */
    int32_t nv = 0;
    L->row_start = (int32_t *)malloc((size_t)(n + 2) * sizeof(int32_t));
    if (!L->row_start) { free(keys); return -1; }
    for (int32_t i = 0; i <= n; i++) {
        L->row_start[i] = nv;
        for (int32_t off = 0; off < L->wb; off++) {
            size_t s = (size_t)i * L->wb + off;
            L->vid[s] = -1;
            int32_t j = i - L->hi + off;
            if (j < 0 || j > m || !L->reached[s]) continue;
            if (nv == INT32_MAX) { free(keys); return -2; }
            L->vid[s] = nv++;
        }
    }
    L->row_start[n + 1] = nv;
    L->nv = nv;
    L->vi = (int32_t *)malloc((size_t)(nv ? nv : 1) * sizeof(int32_t));
    L->vj = (int32_t *)malloc((size_t)(nv ? nv : 1) * sizeof(int32_t));
    if (!L->vi || !L->vj) { free(keys); return -1; }
    for (int32_t i = 0; i <= n; i++)
        for (int32_t off = 0; off < L->wb; off++) {
            int32_t v = L->vid[(size_t)i * L->wb + off];
            if (v >= 0) { L->vi[v] = i; L->vj[v] = i - L->hi + off; }
        }
    free(L->reached);
    L->reached = NULL;
    /* the base list: both graphs' keys sorted (the noop bit never splits equal keys: the
     * same cell pair has the same kind in both graphs) */
    qsort(keys, nkeys, sizeof(uint64_t), cmp_u64);
    int32_t last = -1;
    uint64_t last_key = UINT64_MAX;
    for (size_t k = 0; k < nkeys; k++) {
        uint64_t cellkey = keys[k] >> 1;
        int noop = (int)(keys[k] & 1);
        int32_t e;
        if (cellkey == last_key) {
            e = last;
            L->eflag[e] |= F_DUP;
        } else {
            uint64_t uc = cellkey / nc, wc = cellkey % nc;
            int32_t u = L->vid[slot_of(L, (int32_t)(uc / width), (int32_t)(uc % width))];
            int32_t w = L->vid[slot_of(L, (int32_t)(wc / width), (int32_t)(wc % width))];
            e = add_entry(L, u, w, 1, noop);
            if (e < 0) { free(keys); return -1; }
            last = e;
            last_key = cellkey;
        }
        if (vec_push(&L->edges, e) < 0) { free(keys); return -1; }
    }
    free(keys);
    free(L->vid);
    L->vid = NULL;
    L->nbase_list = L->edges.n;
    L->nbase_entries = L->ne;
    /* the in-arc lists of the base keys: made in key order, so sorted by source */
    L->in = (InArc **)calloc((size_t)(nv ? nv : 1), sizeof(InArc *));
    L->in_len = (int32_t *)calloc((size_t)(nv ? nv : 1), sizeof(int32_t));
    if (!L->in || !L->in_len) return -1;
    for (int32_t e = 0; e < L->ne; e++) L->in_len[L->ew[e]]++;
    for (int32_t v = 0; v < nv; v++) {
        if (!L->in_len[v]) continue;
        L->in[v] = (InArc *)malloc((size_t)L->in_len[v] * sizeof(InArc));
        if (!L->in[v]) return -1;
        L->in_len[v] = 0;
    }
    for (int32_t e = 0; e < L->ne; e++) {
        InArc *a = &L->in[L->ew[e]][L->in_len[L->ew[e]]++];
        a->i = L->eu[e]; a->e = e;
    }
    return 0;
}

/* ------------------------------------------------------------------ closure (§5.4) */

/* the in-arcs made into one out-arc's target at the current pivot (ascending sources) */
typedef struct {
    InArc *a;
    int32_t n, cap;
} NewArcs;

/* merge `add` (sorted) into vertex v's in-arc list (sorted, no source in common), in
 * place from the end */
static int merge_in(Lat *L, int32_t v, const NewArcs *add) {
    int32_t n = L->in_len[v], total = n + add->n;
    InArc *a = (InArc *)realloc(L->in[v], (size_t)total * sizeof(InArc));
    if (!a) return -1;
    int32_t x = n - 1, y = add->n - 1, k = total - 1;
    while (y >= 0) a[k--] = x >= 0 && a[x].i > add->a[y].i ? a[x--] : add->a[y--];
    L->in[v] = a;
    L->in_len[v] = total;
    return 0;
}

/* Returns 0, -1 (memory), -3 (interrupted), or 2 with *edges_at set (past max_edges).
 *
 * At pivot k the reference combines each in-neighbour i, in ascending order, with each
 * out-neighbour j (at most three: right, down, diagonal; all base arcs), looking the key
 * i -> j up.  The in-arc lists are sorted by source and arcs into j are made only at the
 * turns of j's predecessors, so each look-up is a step of a merge of k's list with j's, and
 * the arcs made into j at this turn (ascending sources again) are merged into j's list
 * after it: memory is read in order, and no table of keys is needed. */
static int close_lattice(Lat *L, int64_t limit, int has_cap, int64_t cap, Py_ssize_t *edges_at) {
    int32_t nv = L->nv;
    if (has_cap && L->edges.n > cap) { *edges_at = L->edges.n; return 2; }
    int32_t *out_start = (int32_t *)malloc((size_t)(nv + 1) * sizeof(int32_t));
    NewArcs fresh[8];
    memset(fresh, 0, sizeof(fresh));
    int rc = 0;
    if (!out_start) { rc = -1; goto done; }
    /* base entries are in key order: each vertex's out-arcs are consecutive */
    {
        int32_t e = 0;
        for (int32_t v = 0; v <= nv; v++) {
            while (e < L->nbase_entries && L->eu[e] < v) e++;
            out_start[v] = e;
        }
    }
    int64_t safe = has_cap ? cap - 3 * (int64_t)nv : 0;
    uint64_t work = 0;
    for (int32_t k = 0; k < nv; k++) {
        int32_t o0 = out_start[k], o1 = out_start[k + 1];
        int32_t nins = L->in_len[k];
        if (o0 == o1 || !nins) continue;
        if (o1 - o0 > 8) { rc = -1; goto done; } /* cannot happen: a cell has three successors */
        const InArc *ins = L->in[k];
        int64_t len = L->edges.n;
        int near_cap = has_cap && len > safe && len + 3 * (int64_t)nins > cap;
        /* the out-arcs (the diagonal is the only one that can be a noop), the changing ones
         * among them, and per out-arc its target and a cursor in the target's list */
        int nouts = o1 - o0, nchanging = 0;
        int outs[8], changing[8], out_noop[8];
        int32_t target[8], cursor[8], out_dist[8], out_unch[8];
        for (int q = 0; q < nouts; q++) {
            int32_t e = o0 + q;
            outs[q] = q;
            out_noop[q] = L->eunch[e] == L->edist[e];
            if (!out_noop[q]) changing[nchanging++] = q;
            target[q] = L->ew[e];
            out_dist[q] = L->edist[e];
            out_unch[q] = L->eunch[e];
            cursor[q] = 0;
            fresh[q].n = 0;
        }
        for (int32_t t = 0; t < nins; t++) {
            if (near_cap && L->edges.n > cap) { *edges_at = L->edges.n; rc = 2; goto done; }
            int32_t ein = ins[t].e, i = ins[t].i;
            int32_t dist = L->edist[ein], unchanged = L->eunch[ein];
            const int *targets;
            int ntargets;
            if (unchanged < limit) {
                targets = outs; ntargets = nouts;
            } else if (unchanged == limit && nchanging) {
                targets = changing; ntargets = nchanging;
            } else {
                continue;
            }
            int all_noop = unchanged == dist;
            for (int x = 0; x < ntargets; x++) {
                int q = targets[x];
                int32_t j = target[q];
                int noop = out_noop[q];
                int32_t ndist = dist + out_dist[q], nunch = unchanged + out_unch[q];
                InArc *arcs = L->in[j];
                int32_t c = cursor[q], len_j = L->in_len[j];
                while (c < len_j && arcs[c].i < i) c++;
                cursor[q] = c;
                if (c < len_j && arcs[c].i == i) {
                    int32_t cur = arcs[c].e;
                    if (L->edist[cur] < dist + 2) continue; /* not strictly longer: kept */
                    if (all_noop && noop && vec_push(&L->noop_positions, (int32_t)L->edges.n) < 0) {
                        rc = -1; goto done;
                    }
                    if (vec_push(&L->edges, cur) < 0) { rc = -1; goto done; }
                    L->edist[cur] = ndist;
                    L->eunch[cur] = nunch;
                    if (L->eextra[cur]++ == 0 && vec_push(&L->rewritten, cur) < 0) {
                        rc = -1; goto done;
                    }
                } else {
                    if (all_noop && noop && vec_push(&L->noop_positions, (int32_t)L->edges.n) < 0) {
                        rc = -1; goto done;
                    }
                    int32_t e = add_entry(L, i, j, ndist, nunch);
                    if (e < 0 || vec_push(&L->edges, e) < 0) { rc = -1; goto done; }
                    NewArcs *f = &fresh[q];
                    if (f->n == f->cap) {
                        int32_t grown = f->cap ? 2 * f->cap : 64;
                        InArc *p = (InArc *)realloc(f->a, (size_t)grown * sizeof(InArc));
                        if (!p) { rc = -1; goto done; }
                        f->a = p;
                        f->cap = grown;
                    }
                    InArc *a = &f->a[f->n++];
                    a->i = i; a->e = e;
                }
            }
            if (L->edges.n >= INT32_MAX - 8) { rc = -1; goto done; }
        }
        for (int q = 0; q < nouts; q++)
            if (fresh[q].n && merge_in(L, target[q], &fresh[q]) < 0) { rc = -1; goto done; }
        work += (uint64_t)nins;
        if (work > (1u << 20)) {
            work = 0;
            if (PyErr_CheckSignals() < 0) { rc = -3; goto done; }
        }
    }
    if (has_cap && L->edges.n > cap) { *edges_at = L->edges.n; rc = 2; }
done:
    free(out_start);
    for (int q = 0; q < 8; q++) free(fresh[q].a);
    return rc;
}

/* ------------------------------------------------------------------ noop arcs (§5.5) */

/* 0, -1 (memory) or 3 (a noop arc listed twice) */
static int remove_noop_arcs(Lat *L) {
    for (Py_ssize_t r = 0; r < L->rewritten.n; r++) {
        int32_t e = L->rewritten.a[r];
        if (L->eunch[e] == L->edist[e]) return 3;
    }
    Py_ssize_t np = L->noop_positions.n;
    if (!np) return 0;
    int32_t *edges = L->edges.a;
    uint8_t *drop = (uint8_t *)calloc((size_t)L->edges.n, 1);
    if (!drop) return -1;
    int64_t prev = -2;
    int any = 0;
    for (Py_ssize_t k = 0; k < np; k++) {
        int64_t pos = L->noop_positions.a[k];
        if (pos == prev + 1) {
            L->eflag[edges[pos]] |= F_SURVIVOR;
            prev = -2;
        } else {
            drop[pos] = 1;
            any = 1;
            prev = pos;
        }
    }
    if (any) {
        Py_ssize_t out = 0;
        for (Py_ssize_t p = 0; p < L->edges.n; p++) {
            if (drop[p]) {
                L->eflag[edges[p]] |= F_REMOVED;
                continue;
            }
            edges[out++] = edges[p];
        }
        L->edges.n = out;
    }
    free(drop);
    return 0;
}

/* ------------------------------------------------------------------ search (§6) */

static double base_weight(const Lat *L, int32_t e) {
    int32_t d = L->edist[e];
    if (L->eunch[e] == d) return (double)d;
    int32_t count = (L->eflag[e] & F_DUP) ? 2 : 1 + L->eextra[e];
    double w = (double)d;
    for (int32_t c = 0; c < count; c++) w += EPSILON;
    return w;
}

/* the weights of SentenceSearch: per entry, as every occurrence of a key has the same */
static int relaxation(Lat *L) {
    L->wt = (double *)malloc((size_t)(L->ne ? L->ne : 1) * sizeof(double));
    if (!L->wt) return -1;
    int32_t last = -1;
    for (Py_ssize_t p = 0; p < L->nbase_list; p++) {
        int32_t e = L->edges.a[p];
        int noop1 = L->edist[e] == 1 && L->eunch[e] == 1;
        if (e == last) { /* a base key listed twice (adjacent) */
            if (!noop1) L->wt[e] += EPSILON;
            continue;
        }
        last = e;
        L->wt[e] = noop1 ? 1.0 : 1 + EPSILON;
    }
    for (Py_ssize_t p = L->nbase_list; p < L->edges.n; p++) {
        int32_t e = L->edges.a[p];
        if (L->eextra[e])
            L->wt[e] = base_weight(L, e);
        else if (L->eflag[e] & F_SURVIVOR)
            L->wt[e] = (double)L->edist[e];
        else
            L->wt[e] = (double)L->edist[e] + EPSILON;
    }
    return 0;
}

/* bellman_ford of search.py over the relaxation list (the base entries, then the arcs of
 * the edge list), with its ordered shortcuts */
static void bellman_ford(const Lat *L, double *d, int32_t *pred, uint8_t *lowered) {
    int32_t nv = L->nv;
    const int32_t *eu = L->eu, *ew = L->ew, *arcs = L->edges.a;
    const double *wt = L->wt;
    int32_t nb = L->nbase_entries;
    Py_ssize_t a0 = L->nbase_list, a1 = L->edges.n;
    for (int32_t v = 0; v < nv; v++) {
        d[v] = Py_HUGE_VAL;
        pred[v] = -1;
    }
    d[0] = 0.0;
#define RELAX(e, then) do { \
        int32_t u_ = eu[e], v_ = ew[e]; \
        double nd = d[u_] + wt[e]; \
        if (nd < d[v_]) { d[v_] = nd; pred[v_] = u_; then; } \
    } while (0)
    if (!nb) { /* no order to use (not reached: a changed sentence has base edges) */
        for (int32_t pass = 0; pass < nv - 1; pass++) {
            int changed = 0;
            for (Py_ssize_t p = a0; p < a1; p++) RELAX(arcs[p], changed = 1);
            if (!changed) break;
        }
        return;
    }
    int32_t sink = nv - 1;
    if (nv < 2) return;
    for (int32_t e = 0; e < nb; e++) RELAX(e, (void)0);
    int again = 0;
    for (Py_ssize_t p = a0; p < a1; p++) RELAX(arcs[p], if (v_ != sink) again = 1);
    for (int32_t pass = 0; pass < nv - 2; pass++) {
        if (!again) break;
        memset(lowered, 0, (size_t)nv);
        for (int32_t e = 0; e < nb; e++) RELAX(e, lowered[v_] = 1);
        again = 0;
        for (Py_ssize_t p = a0; p < a1; p++) {
            int32_t e = arcs[p];
            if (!lowered[eu[e]]) continue;
            RELAX(e, lowered[v_] = 1; if (v_ != sink) again = 1);
        }
    }
#undef RELAX
}

/* ------------------------------------------------------------------ golds */

typedef struct {
    int32_t start, end;
    PyObject *orig;       /* borrowed */
    int32_t ncorr, corr0; /* corrections: entries corr0 .. corr0 + ncorr - 1 of the pools */
} Gold;

typedef struct {
    Gold *golds;
    Py_ssize_t ngolds, capgolds;
    int32_t *clen, *coff; /* per correction: token count (-1: matches no hypothesis span), offset */
    Py_ssize_t ncorr, capcorr;
    Vec32 ids;            /* correction tokens */
    Py_ssize_t *ann_start; /* golds of annotator a: ann_start[a] .. ann_start[a + 1] - 1 */
} Golds;

static void golds_free(Golds *G) {
    free(G->golds); free(G->clen); free(G->coff); free(G->ids.a); free(G->ann_start);
}

/* a correction as hypothesis token ids: "" is the empty span, any other string matches a
 * span iff its parts between single spaces are the span's tokens (hypothesis tokens are
 * non-empty and hold no space) */
static int add_correction(Golds *G, PyObject *corr, PyObject *vocab, PyObject *space) {
    if (G->ncorr == G->capcorr) {
        Py_ssize_t c = G->capcorr ? 2 * G->capcorr : 64;
        int32_t *a = (int32_t *)realloc(G->clen, (size_t)c * sizeof(int32_t));
        if (!a) return -1;
        G->clen = a;
        a = (int32_t *)realloc(G->coff, (size_t)c * sizeof(int32_t));
        if (!a) return -1;
        G->coff = a;
        G->capcorr = c;
    }
    Py_ssize_t k = G->ncorr++;
    G->coff[k] = (int32_t)G->ids.n;
    G->clen[k] = 0;
    if (PyUnicode_GET_LENGTH(corr) == 0) return 0;
    PyObject *parts = PyUnicode_Split(corr, space, -1);
    if (!parts) return -1;
    Py_ssize_t np = PyList_GET_SIZE(parts);
    int32_t len = 0;
    for (Py_ssize_t p = 0; p < np; p++) {
        PyObject *id = PyDict_GetItemWithError(vocab, PyList_GET_ITEM(parts, p));
        if (!id) {
            if (PyErr_Occurred()) { Py_DECREF(parts); return -1; }
            len = -1; /* a part that is no hypothesis token (or empty): never a span */
            break;
        }
        if (vec_push(&G->ids, (int32_t)PyLong_AsLong(id)) < 0) { Py_DECREF(parts); return -1; }
        len++;
    }
    Py_DECREF(parts);
    G->clen[k] = len;
    return 0;
}

/* 0, -1 (error set), 1 (a shape this core does not take: NotImplemented) */
static int parse_golds(PyObject *list, Golds *G, PyObject *vocab, PyObject *space) {
    if (!PyList_CheckExact(list)) return 1;
    Py_ssize_t nann = PyList_GET_SIZE(list);
    G->ann_start = (Py_ssize_t *)malloc((size_t)(nann + 1) * sizeof(Py_ssize_t));
    if (!G->ann_start) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t a = 0; a < nann; a++) {
        G->ann_start[a] = G->ngolds;
        PyObject *edits = PyList_GET_ITEM(list, a);
        if (!PyList_CheckExact(edits)) return 1;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(edits); k++) {
            PyObject *g = PyList_GET_ITEM(edits, k);
            if (!PyTuple_CheckExact(g) || PyTuple_GET_SIZE(g) != 4) return 1;
            PyObject *s = PyTuple_GET_ITEM(g, 0), *e = PyTuple_GET_ITEM(g, 1);
            PyObject *orig = PyTuple_GET_ITEM(g, 2), *corrs = PyTuple_GET_ITEM(g, 3);
            if (!PyLong_CheckExact(s) || !PyLong_CheckExact(e) || !PyUnicode_CheckExact(orig)
                || !PyTuple_CheckExact(corrs)) return 1;
            int overflow = 0;
            long start = PyLong_AsLongAndOverflow(s, &overflow);
            if (overflow) return 1;
            long end = PyLong_AsLongAndOverflow(e, &overflow);
            if (overflow) return 1;
            if (G->ngolds == G->capgolds) {
                Py_ssize_t c = G->capgolds ? 2 * G->capgolds : 16;
                Gold *p = (Gold *)realloc(G->golds, (size_t)c * sizeof(Gold));
                if (!p) { PyErr_NoMemory(); return -1; }
                G->golds = p;
                G->capgolds = c;
            }
            Gold *gold = &G->golds[G->ngolds++];
            /* offsets past the int32 range lie past every row: no lattice key has them */
            gold->start = start < -1 ? -1 : start > INT32_MAX - 1 ? INT32_MAX - 1 : (int32_t)start;
            gold->end = end < -1 ? -1 : end > INT32_MAX - 1 ? INT32_MAX - 1 : (int32_t)end;
            if (start > end) gold->start = gold->end + 1; /* keep start > end */
            gold->orig = orig;
            gold->corr0 = (int32_t)G->ncorr;
            gold->ncorr = (int32_t)PyTuple_GET_SIZE(corrs);
            for (Py_ssize_t c = 0; c < PyTuple_GET_SIZE(corrs); c++) {
                PyObject *corr = PyTuple_GET_ITEM(corrs, c);
                if (!PyUnicode_CheckExact(corr)) return 1;
                if (add_correction(G, corr, vocab, space) < 0) {
                    if (!PyErr_Occurred()) PyErr_NoMemory();
                    return -1;
                }
            }
        }
    }
    G->ann_start[nann] = G->ngolds;
    return 0;
}

/* is the hypothesis span j0..j1 among gold g's corrections */
static inline int corr_in(const Lat *L, const Golds *G, const Gold *g, int32_t j0, int32_t j1) {
    int32_t len = j1 - j0;
    for (int32_t c = g->corr0; c < g->corr0 + g->ncorr; c++) {
        if (G->clen[c] != len) continue;
        const int32_t *ids = G->ids.a + G->coff[c];
        int32_t t = 0;
        while (t < len && ids[t] == L->hyp[j0 + t]) t++;
        if (t == len) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ one annotator's weights */

typedef struct {
    int32_t *e;
    double *w;
    Py_ssize_t n, cap;
} Overrides;

static int ov_push(Overrides *o, int32_t e, double w) {
    if (o->n == o->cap) {
        Py_ssize_t c = o->cap ? 2 * o->cap : 16;
        int32_t *a = (int32_t *)realloc(o->e, (size_t)c * sizeof(int32_t));
        if (!a) return -1;
        o->e = a;
        double *b = (double *)realloc(o->w, (size_t)c * sizeof(double));
        if (!b) return -1;
        o->w = b;
        o->cap = c;
    }
    o->e[o->n] = e;
    o->w[o->n] = w;
    o->n++;
    return 0;
}

typedef struct {
    Vec32 group;       /* occurrences (entries) */
    Vec32 distinct;    /* distinct entries, group order */
    Vec32 local_of;    /* occurrence -> index in distinct */
    double *local;
    Py_ssize_t caplocal;
    int32_t *span_golds;
    Py_ssize_t capspan;
    int32_t (*spans)[2];
    Py_ssize_t capspans;
} Scratch;

static void scratch_free(Scratch *S) {
    free(S->group.a); free(S->distinct.a); free(S->local_of.a); free(S->local);
    free(S->span_golds); free(S->spans);
}

/* insertion_sweep of search.py over the occurrences S->group; gs: the span's golds */
static void insertion_sweep(const Lat *L, const Golds *G, Scratch *S, const int32_t *gs,
                            Py_ssize_t ngs, double reward) {
    const int32_t *group = S->group.a;
    const int32_t *lof = S->local_of.a;
    double *weight = S->local;
    Py_ssize_t size = S->group.n;
    Py_ssize_t left = 0, right = size - 1, cur = left;
    Py_ssize_t gl = 0, gr = ngs - 1;
    while (left <= right) {
        int32_t key = group[cur];
        int32_t j0 = L->vj[L->eu[key]], j1 = L->vj[L->ew[key]];
        int from_left = cur == left;
        Py_ssize_t found = -1;
        if (from_left) {
            for (Py_ssize_t q = gl; q <= gr; q++) {
                const Gold *g = &G->golds[gs[q]];
                if (PyUnicode_GET_LENGTH(g->orig) == 0 && corr_in(L, G, g, j0, j1)) { found = q; break; }
            }
        } else {
            for (Py_ssize_t q = gr; q >= gl; q--) {
                const Gold *g = &G->golds[gs[q]];
                if (PyUnicode_GET_LENGTH(g->orig) == 0 && corr_in(L, G, g, j0, j1)) { found = q; break; }
            }
        }
        if (found >= 0) {
            weight[lof[cur]] = reward;
            if (from_left) {
                gl = found + 1;
                left += 1;
                int32_t target = L->ew[key];
                while (left < size && L->eu[group[left]] != target) {
                    weight[lof[left]] += EPSILON;
                    left += 1;
                }
                cur = left;
            } else {
                gr = found - 1;
                right -= 1;
                int32_t source = L->eu[key];
                while (right >= 0 && L->ew[group[right]] != source) {
                    weight[lof[right]] += EPSILON;
                    right -= 1;
                }
                cur = right;
            }
        } else {
            weight[lof[cur]] += EPSILON;
            if (from_left) {
                left += 1;
                cur = right;
            } else {
                right -= 1;
                cur = left;
            }
        }
    }
}

/* weights_for: the annotator's overrides, in the order search.py adds them */
static int weights_for(const Lat *L, const Golds *G, Py_ssize_t g0, Py_ssize_t g1,
                       PyObject *source, PyObject *space, Scratch *S, Overrides *out) {
    out->n = 0;
    Py_ssize_t ng = g1 - g0;
    if (!ng) return 0;
    double reward = -(double)L->edges.n;
    /* spans in first-appearance order, each with its golds in file order */
    if (S->capspans < ng) {
        int32_t (*p)[2] = realloc(S->spans, (size_t)ng * sizeof(*S->spans));
        if (!p) return -1;
        S->spans = p;
        S->capspans = ng;
    }
    if (S->capspan < ng) {
        int32_t *p = (int32_t *)realloc(S->span_golds, (size_t)ng * sizeof(int32_t));
        if (!p) return -1;
        S->span_golds = p;
        S->capspan = ng;
    }
    Py_ssize_t nspans = 0;
    for (Py_ssize_t k = g0; k < g1; k++) {
        const Gold *g = &G->golds[k];
        if (g->start > g->end) continue;
        Py_ssize_t s = 0;
        while (s < nspans && !(S->spans[s][0] == g->start && S->spans[s][1] == g->end)) s++;
        if (s == nspans) {
            S->spans[nspans][0] = g->start;
            S->spans[nspans][1] = g->end;
            nspans++;
        }
    }
    for (Py_ssize_t s = 0; s < nspans; s++) {
        int32_t s0 = S->spans[s][0], s1 = S->spans[s][1];
        Py_ssize_t ngs = 0;
        for (Py_ssize_t k = g0; k < g1; k++)
            if (G->golds[k].start == s0 && G->golds[k].end == s1) S->span_golds[ngs++] = (int32_t)k;
        /* the group: sorted occurrences of the span's keys */
        S->group.n = S->distinct.n = S->local_of.n = 0;
        if (s0 < 0 || s1 > L->n) continue;
        for (int32_t u = L->row_start[s0]; u < L->row_start[s0 + 1]; u++)
            for (int32_t v = L->row_start[s1]; v < L->row_start[s1 + 1]; v++) {
                if (u >= v) continue;
                int32_t e = find(L, u, v);
                if (e < 0 || (L->eflag[e] & F_REMOVED)) continue;
                int32_t count = (L->eflag[e] & F_DUP) ? 2 : 1 + L->eextra[e];
                int32_t idx = (int32_t)S->distinct.n;
                if (vec_push(&S->distinct, e) < 0) return -1;
                for (int32_t c = 0; c < count; c++)
                    if (vec_push(&S->group, e) < 0 || vec_push(&S->local_of, idx) < 0) return -1;
            }
        if (!S->group.n) continue;
        if (s0 == s1) {
            if (S->caplocal < S->distinct.n) {
                double *p = (double *)realloc(S->local, (size_t)S->distinct.n * sizeof(double));
                if (!p) return -1;
                S->local = p;
                S->caplocal = S->distinct.n;
            }
            for (Py_ssize_t d = 0; d < S->distinct.n; d++)
                S->local[d] = (double)L->edist[S->distinct.a[d]];
            insertion_sweep(L, G, S, S->span_golds, ngs, reward);
            for (Py_ssize_t d = 0; d < S->distinct.n; d++) {
                int32_t e = S->distinct.a[d];
                if (S->local[d] != base_weight(L, e) && ov_push(out, e, S->local[d]) < 0) return -1;
            }
        } else {
            /* which golds have the span's original (the reference compares strings) */
            PyObject *slice = PyTuple_GetSlice(source, s0, s1);
            if (!slice) return -2;
            PyObject *orig = PyUnicode_Join(space, slice);
            Py_DECREF(slice);
            if (!orig) return -2;
            Py_ssize_t nok = 0;
            for (Py_ssize_t q = 0; q < ngs; q++) {
                int eq = PyUnicode_Compare(G->golds[S->span_golds[q]].orig, orig) == 0;
                if (PyErr_Occurred()) { Py_DECREF(orig); return -2; }
                if (eq) S->span_golds[nok++] = S->span_golds[q];
            }
            Py_DECREF(orig);
            for (Py_ssize_t d = 0; d < S->distinct.n; d++) {
                int32_t e = S->distinct.a[d];
                int32_t j0 = L->vj[L->eu[e]], j1 = L->vj[L->ew[e]];
                for (Py_ssize_t q = 0; q < nok; q++) {
                    if (corr_in(L, G, &G->golds[S->span_golds[q]], j0, j1)) {
                        if (ov_push(out, e, reward) < 0) return -1;
                        break;
                    }
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ evaluate */

static PyObject *space_str; /* " " */

static PyObject *backtrack(const Lat *L, const int32_t *pred, PyObject *source, PyObject *hypothesis) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int32_t v = L->nv - 1, u = pred[v];
    while (u >= 0) {
        int32_t e = find(L, u, v);
        int32_t d = L->edist[e];
        int32_t i0 = L->vi[u], j0 = L->vj[u], i1 = L->vi[v], j1 = L->vj[v];
        if (!(L->eunch[e] == d && i0 != i1 && j0 != j1)) {
            PyObject *s = PyTuple_GetSlice(source, i0, i1);
            PyObject *orig = s ? PyUnicode_Join(space_str, s) : NULL;
            Py_XDECREF(s);
            PyObject *h = orig ? PyTuple_GetSlice(hypothesis, j0, j1) : NULL;
            PyObject *corr = h ? PyUnicode_Join(space_str, h) : NULL;
            Py_XDECREF(h);
            PyObject *edit = corr ? Py_BuildValue("(iiNN)", i0, i1, orig, corr) : NULL;
            if (!edit) {
                if (!corr) Py_XDECREF(orig);
                Py_DECREF(out);
                return NULL;
            }
            int rc = PyList_Append(out, edit);
            Py_DECREF(edit);
            if (rc < 0) { Py_DECREF(out); return NULL; }
        }
        v = u;
        u = pred[v];
    }
    if (PyList_Reverse(out) < 0) { Py_DECREF(out); return NULL; }
    return out;
}

static int intern(PyObject *tokens, int32_t *ids, PyObject *vocab, int hypothesis) {
    Py_ssize_t n = PyTuple_GET_SIZE(tokens);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *tok = PyTuple_GET_ITEM(tokens, k);
        if (!PyUnicode_CheckExact(tok)) return 1;
        if (hypothesis && (PyUnicode_GET_LENGTH(tok) == 0 || PyUnicode_FindChar(
                tok, ' ', 0, PyUnicode_GET_LENGTH(tok), 1) != -1)) return 1;
        PyObject *id = PyDict_GetItemWithError(vocab, tok);
        if (!id) {
            if (PyErr_Occurred()) return -1;
            id = PyLong_FromSsize_t(PyDict_GET_SIZE(vocab));
            if (!id) return -1;
            int rc = PyDict_SetItem(vocab, tok, id);
            Py_DECREF(id);
            if (rc < 0) return -1;
            ids[k] = (int32_t)(PyDict_GET_SIZE(vocab) - 1);
        } else {
            ids[k] = (int32_t)PyLong_AsLong(id);
        }
    }
    return 0;
}

/* the multiset intersection of the two token lists (min_edges) */
static int64_t kept_tokens(const Lat *L, int32_t nvocab) {
    int32_t *count = (int32_t *)calloc((size_t)(nvocab ? nvocab : 1), sizeof(int32_t));
    if (!count) return -1;
    for (int32_t k = 0; k < L->n; k++) count[L->src[k]]++;
    int64_t kept = 0;
    for (int32_t k = 0; k < L->m; k++)
        if (count[L->hyp[k]] > 0) { count[L->hyp[k]]--; kept++; }
    free(count);
    return kept;
}

static PyObject *not_implemented(void) {
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "evaluate() takes 5 arguments");
        return NULL;
    }
    PyObject *source = args[0], *hypothesis = args[1], *golds = args[2];
    PyObject *limit_obj = args[3], *cap_obj = args[4];
    if (!PyTuple_CheckExact(source) || !PyTuple_CheckExact(hypothesis)
        || !PyLong_Check(limit_obj) || (cap_obj != Py_None && !PyLong_Check(cap_obj)))
        return not_implemented();
    Py_ssize_t n = PyTuple_GET_SIZE(source), m = PyTuple_GET_SIZE(hypothesis);
    /* cell keys (u * cells + w) << 1 must fit 64 bits */
    if (n >= (1 << 30) || m >= (1 << 30) || (uint64_t)(n + 1) * (uint64_t)(m + 1) >= ((uint64_t)1 << 31))
        return not_implemented();
    int overflow = 0;
    long long limit = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
    if (overflow > 0 || limit > ((long long)1 << 40)) limit = (long long)1 << 40;
    if (overflow < 0 || limit < -1) limit = -1; /* every arc has 0 or more unchanged words */
    int has_cap = cap_obj != Py_None;
    long long cap = 0;
    if (has_cap) {
        cap = PyLong_AsLongLongAndOverflow(cap_obj, &overflow);
        /* past anything memory allows: the same as no bound, but checked the same way */
        if (overflow > 0 || cap > ((long long)1 << 58)) cap = (long long)1 << 58;
        if (overflow < 0 || cap < -1) cap = -1;
    }
    if (PyErr_Occurred()) return NULL;

    Lat L;
    memset(&L, 0, sizeof(L));
    Golds G;
    memset(&G, 0, sizeof(G));
    Scratch S;
    memset(&S, 0, sizeof(S));
    Overrides ov;
    memset(&ov, 0, sizeof(ov));
    PyObject *vocab = NULL, *result = NULL, *lists = NULL;
    Overrides *seen = NULL; /* the overrides of each annotator, sorted, for the cache */
    double *d = NULL;
    int32_t *pred = NULL;
    uint8_t *lowered = NULL;
    Py_ssize_t nann = 0;
    int rc;

    L.n = (int32_t)n;
    L.m = (int32_t)m;
    L.src = (int32_t *)malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    L.hyp = (int32_t *)malloc((size_t)(m ? m : 1) * sizeof(int32_t));
    vocab = PyDict_New();
    if (!L.src || !L.hyp || !vocab) goto nomem;
    rc = intern(hypothesis, L.hyp, vocab, 1);
    if (rc == 0) rc = intern(source, L.src, vocab, 0);
    if (rc < 0) goto error;
    if (rc > 0) { result = not_implemented(); goto cleanup; }
    rc = parse_golds(golds, &G, vocab, space_str);
    if (rc < 0) goto error;
    if (rc > 0) { result = not_implemented(); goto cleanup; }
    nann = PyList_GET_SIZE(golds);

    if (has_cap) { /* min_edges */
        int64_t kept = kept_tokens(&L, (int32_t)PyDict_GET_SIZE(vocab));
        if (kept < 0) goto nomem;
        int64_t changing = (n > m ? n : m) - kept, runs = kept + 1;
        if (changing >= ((int64_t)1 << 30)) { result = not_implemented(); goto cleanup; }
        int64_t floor = changing * (changing + runs) / (2 * runs);
        if (floor > cap) { result = Py_BuildValue("(iL)", 1, (long long)floor); goto cleanup; }
    }
    Py_BEGIN_ALLOW_THREADS
    rc = base_lattice(&L);
    Py_END_ALLOW_THREADS
    if (rc == -2) { result = not_implemented(); goto cleanup; }
    if (rc < 0) goto nomem;
    {
        Py_ssize_t at = 0;
        rc = close_lattice(&L, limit, has_cap, cap, &at);
        if (rc == 2) { result = Py_BuildValue("(in)", 2, at); goto cleanup; }
        if (rc == -3) goto error;
        if (rc < 0) goto nomem;
    }
    rc = remove_noop_arcs(&L);
    if (rc == 3) { result = Py_BuildValue("(ii)", 3, 0); goto cleanup; }
    if (rc < 0 || relaxation(&L) < 0) goto nomem;

    d = (double *)malloc((size_t)L.nv * sizeof(double));
    pred = (int32_t *)malloc((size_t)L.nv * sizeof(int32_t));
    lowered = (uint8_t *)malloc((size_t)L.nv);
    seen = (Overrides *)calloc((size_t)(nann ? nann : 1), sizeof(Overrides));
    lists = PyList_New(nann);
    if (!d || !pred || !lowered || !seen || !lists) goto nomem;
    for (Py_ssize_t a = 0; a < nann; a++) {
        rc = weights_for(&L, &G, G.ann_start[a], G.ann_start[a + 1], source, space_str, &S, &ov);
        if (rc == -2) goto error;
        if (rc < 0) goto nomem;
        /* sorted by key, as the pure path's cache signature */
        for (Py_ssize_t x = 1; x < ov.n; x++) {
            int32_t e = ov.e[x];
            double w = ov.w[x];
            Py_ssize_t y = x;
            while (y > 0 && KEY(&L, ov.e[y - 1]) > KEY(&L, e)) {
                ov.e[y] = ov.e[y - 1];
                ov.w[y] = ov.w[y - 1];
                y--;
            }
            ov.e[y] = e;
            ov.w[y] = w;
        }
        PyObject *edits = NULL;
        for (Py_ssize_t b = 0; b < a && !edits; b++) {
            if (seen[b].n != ov.n) continue;
            Py_ssize_t x = 0;
            while (x < ov.n && seen[b].e[x] == ov.e[x] && seen[b].w[x] == ov.w[x]) x++;
            if (x == ov.n) edits = PyList_GET_ITEM(lists, b);
        }
        for (Py_ssize_t x = 0; x < ov.n; x++)
            if (ov_push(&seen[a], ov.e[x], ov.w[x]) < 0) goto nomem;
        if (edits) {
            Py_INCREF(edits);
        } else {
            /* the overrides set their keys' weights (every position of a key has its
             * entry's), for this search only */
            double *old = (double *)malloc((size_t)(ov.n ? ov.n : 1) * sizeof(double));
            if (!old) goto nomem;
            for (Py_ssize_t x = 0; x < ov.n; x++) {
                old[x] = L.wt[ov.e[x]];
                L.wt[ov.e[x]] = ov.w[x];
            }
            bellman_ford(&L, d, pred, lowered);
            for (Py_ssize_t x = ov.n - 1; x >= 0; x--) L.wt[ov.e[x]] = old[x];
            free(old);
            edits = backtrack(&L, pred, source, hypothesis);
            if (!edits) goto error;
        }
        PyList_SET_ITEM(lists, a, edits);
    }
    result = lists;
    lists = NULL;
    goto cleanup;

nomem:
    if (!PyErr_Occurred()) PyErr_NoMemory();
error:
    result = NULL;
cleanup:
    Py_XDECREF(lists);
    Py_XDECREF(vocab);
    if (seen) {
        for (Py_ssize_t a = 0; a < nann; a++) { free(seen[a].e); free(seen[a].w); }
        free(seen);
    }
    free(ov.e); free(ov.w);
    free(d); free(pred); free(lowered);
    scratch_free(&S);
    golds_free(&G);
    lat_free(&L);
    return result;
}

static PyMethodDef methods[] = {
    {"evaluate", (PyCFunction)(void (*)(void))evaluate, METH_FASTCALL,
     "evaluate(source, hypothesis, golds, max_unchanged_words, max_edges): one sentence's "
     "system edits for every annotator (see the module's source for the protocol)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "maxmatch._core",
    "The compiled MaxMatch core: lattice and search of one sentence (maxmatch.backend()).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    space_str = PyUnicode_InternFromString(" ");
    if (!space_str) return NULL;
    return PyModule_Create(&module);
}

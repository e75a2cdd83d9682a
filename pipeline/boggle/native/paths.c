/* A board class's word paths (every way to spell a word on the class, as a key, a first digit and a word; see
   proof.h) with the sum/union bound, and the paths sorted by first digit then key, each (key, word) once. */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "nodes.h"
#include "proof.h"

#define RADIX_BITS 8 /* bits of a key sorted per pass: 256 places to write to at a time stay in the caches */
#define RADIX (1 << RADIX_BITS)

/* One class's walk: the class and dictionary, each cell's letters and digits, and the paths found so far. */
typedef struct {
    const uint64_t *nodes;
    uint64_t n_nodes;
    const int32_t *values;
    int64_t n_values;
    const int32_t *nbrs;
    const int32_t *ncount;
    int first_cell;
    uint32_t letter_set[MAX_PROOF_CELLS];         /* a cell's letters, as a mask of letter codes */
    uint64_t digit_of[MAX_PROOF_CELLS][LETTERS];  /* a letter's digit at a cell, in place in the key */
    uint64_t cell_clear[MAX_PROOF_CELLS];         /* the key without the cell's digit: key & cell_clear */
    uint64_t *seen;                               /* a bit per trie node: its word counted in the union */
    uint64_t *keys;
    uint32_t *wcs;
    uint8_t *firsts;
    int64_t capacity; /* paths the arrays hold; the others are counted, not kept */
    int64_t count;
    int64_t sum_union;
    int broken; /* a node or points class outside the dictionary was reached */
} PathWalk;

/* The trie record of `node`, or a record without children when it lies outside the dictionary (walk broken). */
static uint64_t record_of(PathWalk *w, uint64_t node)
{
    if (node >= w->n_nodes || node_class(w->nodes[node]) >= w->n_values) {
        w->broken = 1;
        return 0;
    }
    return w->nodes[node];
}

/* From `cell`, reached with the trie node `node` (its record `rec`) on the path of cells `used` with that key
   and first digit: keep the word ending here, then step through the cell's unused neighbours in order and,
   for each, the letters of its set that continue the prefix (in letter order). */
static void walk(PathWalk *w, int cell, uint64_t node, uint64_t rec, uint64_t used, uint64_t key, uint8_t first)
{
    unsigned cls = node_class(rec);
    if (cls) {
        uint64_t bit = UINT64_C(1) << (node & 63);
        if (!(w->seen[node >> 6] & bit)) {
            w->seen[node >> 6] |= bit;
            w->sum_union += w->values[cls];
        }
        if (w->count < w->capacity) {
            w->keys[w->count] = key;
            w->wcs[w->count] = (uint32_t)node << WC_SHIFT | cls;
            w->firsts[w->count] = first;
        }
        w->count++;
    }
    uint32_t kids = node_children(rec);
    for (int k = 0; k < w->ncount[cell]; k++) {
        int nb = w->nbrs[cell * 8 + k];
        if (used >> nb & 1)
            continue;
        for (uint32_t todo = kids & w->letter_set[nb]; todo; todo &= todo - 1) {
            int letter = __builtin_ctz(todo);
            uint64_t child = child_of(rec, letter), child_rec = record_of(w, child), path = used | UINT64_C(1) << nb;
            if (nb == w->first_cell)
                walk(w, nb, child, child_rec, path, key, (uint8_t)w->digit_of[nb][letter]);
            else
                walk(w, nb, child, child_rec, path, (key & w->cell_clear[nb]) | w->digit_of[nb][letter], first);
        }
    }
}

/* Every word path of the class from each cell and letter in turn. */
static void class_paths(PathWalk *w, const Layout *lay)
{
    int n = lay->n;
    w->first_cell = lay->order[0];
    for (int cell = 0; cell < n; cell++) {
        w->letter_set[cell] = 0;
        w->cell_clear[cell] = ~UINT64_C(0);
        memset(w->digit_of[cell], 0, sizeof w->digit_of[cell]);
    }
    for (int pos = 1; pos < n; pos++)
        w->cell_clear[lay->order[pos]] = ~(((UINT64_C(1) << lay->digits[pos]) - 1) << lay->shift[pos]);
    for (int pos = 0; pos < n; pos++) {
        int cell = lay->order[pos];
        int64_t shift = pos == 0 ? 0 : lay->shift[pos];
        for (int i = 0; i < lay->n_letters[cell]; i++) {
            int letter = lay->letters[cell * lay->width + i];
            w->letter_set[cell] |= 1u << letter;
            w->digit_of[cell][letter] = (uint64_t)(i + 1) << shift;
        }
    }
    uint64_t root = w->nodes[0];
    for (int start = 0; start < n; start++)
        for (uint32_t todo = node_children(root) & w->letter_set[start]; todo; todo &= todo - 1) {
            int letter = __builtin_ctz(todo);
            uint64_t node = child_of(root, letter);
            uint64_t rec = record_of(w, node);
            if (start == w->first_cell)
                walk(w, start, node, rec, UINT64_C(1) << start, 0, (uint8_t)w->digit_of[start][letter]);
            else
                walk(w, start, node, rec, UINT64_C(1) << start, w->digit_of[start][letter], 0);
        }
}

/* word_paths(nodes, values, nbrs, ncount, lay, keys, wcs, firsts, seen): the class's word paths written into keys
   (uint64), wcs (uint32) and firsts (uint8) as far as they hold them (seen: a uint64 bit per trie node, cleared
   here); returns (paths found, sum/union). More paths than the arrays hold: the caller gives longer ones. */
PyObject *proof_word_paths(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *nodes_obj, *values_obj, *nbrs_obj, *ncount_obj, *lay_obj, *keys_obj, *wcs_obj, *firsts_obj, *seen_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO:word_paths", &nodes_obj, &values_obj, &nbrs_obj, &ncount_obj, &lay_obj,
                          &keys_obj, &wcs_obj, &firsts_obj, &seen_obj))
        return NULL;
    Held held = {.function = "word_paths"};
    Layout lay;
    Py_buffer *nodes = hold(&held, nodes_obj, "nodes", "uint64", 1, 0);
    Py_buffer *values = nodes ? hold(&held, values_obj, "values", "int32", 1, 0) : NULL;
    Py_buffer *nbrs = values ? hold(&held, nbrs_obj, "nbrs", "int32", 2, 0) : NULL;
    Py_buffer *ncount = nbrs ? hold(&held, ncount_obj, "ncount", "int32", 1, 0) : NULL;
    int laid = ncount && hold_layout(&held, lay_obj, &lay);
    Py_buffer *keys = laid ? hold(&held, keys_obj, "keys", "uint64", 1, 1) : NULL;
    Py_buffer *wcs = keys ? hold(&held, wcs_obj, "wcs", "uint32", 1, 1) : NULL;
    Py_buffer *firsts = wcs ? hold(&held, firsts_obj, "firsts", "uint8", 1, 1) : NULL;
    Py_buffer *seen = firsts ? hold(&held, seen_obj, "seen", "uint64", 1, 1) : NULL;
    if (!seen || !check_shape(&held, nbrs, "nbrs", 0, lay.n) || !check_shape(&held, nbrs, "nbrs", 1, 8) ||
        !check_shape(&held, ncount, "ncount", 0, lay.n) || !check_shape(&held, wcs, "wcs", 0, keys->shape[0]) ||
        !check_shape(&held, firsts, "firsts", 0, keys->shape[0]))
        return release(&held), NULL;
    if (seen->shape[0] < (nodes->shape[0] + 63) / 64) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "word_paths(): seen must hold a bit per node");
    }
    if (nodes->shape[0] < 1 || nodes->shape[0] > (INT64_C(1) << (32 - WC_SHIFT)) || values->shape[0] < 1) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "word_paths(): a dictionary has a root, at most 2**26 nodes and a "
                                              "points class");
    }
    const int32_t *nb = nbrs->buf, *nc = ncount->buf;
    for (int cell = 0; cell < lay.n; cell++) {
        int bad = nc[cell] < 0 || nc[cell] > 8;
        for (int k = 0; k < 8 && !bad; k++)
            bad = k < nc[cell] && (nb[cell * 8 + k] < 0 || nb[cell * 8 + k] >= lay.n);
        if (bad) {
            release(&held);
            return PyErr_Format(PyExc_ValueError, "word_paths(): cell %d's neighbours are out of range", cell);
        }
    }
    PathWalk *w = malloc(sizeof *w);
    if (!w)
        return release(&held), PyErr_NoMemory();
    *w = (PathWalk){.nodes = nodes->buf, .n_nodes = (uint64_t)nodes->shape[0], .values = values->buf,
                    .n_values = values->shape[0], .nbrs = nb, .ncount = nc, .seen = seen->buf, .keys = keys->buf,
                    .wcs = wcs->buf, .firsts = firsts->buf, .capacity = keys->shape[0]};
    Py_BEGIN_ALLOW_THREADS
    memset(w->seen, 0, (size_t)seen->shape[0] * sizeof *w->seen);
    class_paths(w, &lay);
    Py_END_ALLOW_THREADS
    release(&held);
    int64_t count = w->count, sum_union = w->sum_union;
    int broken = w->broken;
    free(w);
    if (broken)
        return PyErr_Format(PyExc_ValueError, "word_paths(): a node's child or points class is out of range");
    return Py_BuildValue("LL", (long long)count, (long long)sum_union);
}

/* Sort the paths into a (keys) and aw (words), by first digit then key, with b and bw as scratch: at[x] is where
   first digit x's run starts (at[n_first + 1] the count). A counting pass on the first digit, then within each
   run a least-significant-digit radix sort of the keys, a byte a pass, skipping passes whose byte never
   changes; then in each run of equal keys (a few words at most) each word is kept once, since a board counts a
   word once however many paths spell it. Returns the paths kept. */
static int64_t sort_runs(const uint64_t *keys, const uint32_t *wcs, const uint8_t *firsts, int64_t n_keys,
                         int64_t key_bits, int64_t n_first, uint64_t *a, uint32_t *aw, uint64_t *b, uint32_t *bw,
                         int64_t *at, int64_t *fill)
{
    memset(at, 0, (size_t)(n_first + 2) * sizeof *at);
    for (int64_t i = 0; i < n_keys; i++)
        at[firsts[i] + 1]++;
    for (int64_t x = 0; x <= n_first; x++)
        at[x + 1] += at[x];
    memcpy(fill, at, (size_t)(n_first + 1) * sizeof *fill);
    for (int64_t i = 0; i < n_keys; i++) {
        int64_t j = fill[firsts[i]]++;
        a[j] = keys[i];
        aw[j] = wcs[i];
    }
    int passes = key_bits > 0 ? (int)((key_bits + RADIX_BITS - 1) / RADIX_BITS) : 1;
    int64_t counts[8][RADIX], offsets[RADIX];
    for (int64_t x = 0; x <= n_first; x++) {
        int64_t lo = at[x], hi = at[x + 1];
        if (hi - lo < 2)
            continue;
        memset(counts, 0, sizeof counts);
        for (int64_t i = lo; i < hi; i++)
            for (int p = 0; p < passes; p++)
                counts[p][(a[i] >> (p * RADIX_BITS)) & (RADIX - 1)]++;
        uint64_t *src = a, *dst = b;
        uint32_t *src_w = aw, *dst_w = bw;
        for (int p = 0; p < passes; p++) {
            int64_t start = lo;
            int single = 0;
            for (int digit = 0; digit < RADIX; digit++) {
                single |= counts[p][digit] == hi - lo;
                offsets[digit] = start;
                start += counts[p][digit];
            }
            if (single)
                continue;
            for (int64_t i = lo; i < hi; i++) {
                int64_t j = offsets[(src[i] >> (p * RADIX_BITS)) & (RADIX - 1)]++;
                dst[j] = src[i];
                dst_w[j] = src_w[i];
            }
            uint64_t *t = src;
            src = dst;
            dst = t;
            uint32_t *tw = src_w;
            src_w = dst_w;
            dst_w = tw;
        }
        if (src == b) {
            memcpy(a + lo, b + lo, (size_t)(hi - lo) * sizeof *a);
            memcpy(aw + lo, bw + lo, (size_t)(hi - lo) * sizeof *aw);
        }
    }
    int64_t m = 0;
    for (int64_t x = 0; x <= n_first; x++) { /* keep each (key, word) once, run by run */
        int64_t lo = at[x], hi = at[x + 1], run = m;
        at[x] = m;
        for (int64_t i = lo; i < hi; i++) {
            if (i == lo || a[i] != a[i - 1])
                run = m;
            else {
                int repeat = 0;
                for (int64_t j = run; j < m; j++)
                    repeat |= aw[j] == aw[i];
                if (repeat)
                    continue;
            }
            a[m] = a[i];
            aw[m] = aw[i];
            m++;
        }
    }
    at[n_first + 1] = m;
    return m;
}

/* sort_paths(keys, wcs, firsts, n_keys, key_bits, n_first, a, aw, at): the distinct paths among the first n_keys
   sorted into a (uint64) and aw (uint32), n_keys long, by first digit then key; at (int64, n_first + 2) where
   each first digit's run starts; returns how many were kept. */
PyObject *proof_sort_paths(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *keys_obj, *wcs_obj, *firsts_obj, *a_obj, *aw_obj, *at_obj;
    Py_ssize_t n_keys, key_bits, n_first;
    if (!PyArg_ParseTuple(args, "OOOnnnOOO:sort_paths", &keys_obj, &wcs_obj, &firsts_obj, &n_keys, &key_bits,
                          &n_first, &a_obj, &aw_obj, &at_obj))
        return NULL;
    Held held = {.function = "sort_paths"};
    Py_buffer *keys = hold(&held, keys_obj, "keys", "uint64", 1, 0);
    Py_buffer *wcs = keys ? hold(&held, wcs_obj, "wcs", "uint32", 1, 0) : NULL;
    Py_buffer *firsts = wcs ? hold(&held, firsts_obj, "firsts", "uint8", 1, 0) : NULL;
    Py_buffer *a = firsts ? hold(&held, a_obj, "a", "uint64", 1, 1) : NULL;
    Py_buffer *aw = a ? hold(&held, aw_obj, "aw", "uint32", 1, 1) : NULL;
    Py_buffer *at = aw ? hold(&held, at_obj, "at", "int64", 1, 1) : NULL;
    if (!at || !check_shape(&held, a, "a", 0, n_keys) || !check_shape(&held, aw, "aw", 0, n_keys) ||
        !check_shape(&held, at, "at", 0, n_first + 2))
        return release(&held), NULL;
    if (n_keys < 0 || n_keys > keys->shape[0] || n_keys > wcs->shape[0] || n_keys > firsts->shape[0] ||
        key_bits < 0 || key_bits > 64 || n_first < 0 || n_first > 255) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "sort_paths(): n_keys within the arrays, key_bits 0 to 64 and "
                                              "n_first 0 to 255");
    }
    const uint8_t *f = firsts->buf;
    for (Py_ssize_t i = 0; i < n_keys; i++)
        if (f[i] > n_first) {
            release(&held);
            return PyErr_Format(PyExc_ValueError, "sort_paths(): path %zd's first digit is above n_first", i);
        }
    uint64_t *b = malloc((size_t)(n_keys ? n_keys : 1) * sizeof *b);
    uint32_t *bw = malloc((size_t)(n_keys ? n_keys : 1) * sizeof *bw);
    int64_t *fill = malloc((size_t)(n_first + 1) * sizeof *fill);
    if (!b || !bw || !fill) {
        free(b), free(bw), free(fill);
        return release(&held), PyErr_NoMemory();
    }
    int64_t kept;
    Py_BEGIN_ALLOW_THREADS
    kept = sort_runs(keys->buf, wcs->buf, f, n_keys, key_bits, n_first, a->buf, aw->buf, b, bw, at->buf, fill);
    Py_END_ALLOW_THREADS
    free(b), free(bw), free(fill);
    release(&held);
    return PyLong_FromLongLong(kept);
}

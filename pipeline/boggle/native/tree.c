/* A board class's orderly tree (proof.h), written into the arena in one pass over its sorted word paths: keys
   sharing a prefix of choices are neighbours, so only the previous key's path is open, and nodes are written as
   they close, children first, their bounds computed as they close. */
#include "kernels.h"
#include "proof.h"

/* x shifted right by s bits, 0 when s is 64 or more. */
static inline uint64_t shr(uint64_t x, int64_t s)
{
    return s < 64 ? x >> s : 0;
}

/* A uint64 of its s lowest bits set (s = 0..64). */
static inline uint64_t low_bits(int64_t s)
{
    return s < 64 ? (UINT64_C(1) << s) - 1 : ~UINT64_C(0);
}

/* Write a finished sum node whose choice children are pending[lo:hi] in decreasing position (sorted keys meet a
   sum node's later cells first); a leaf of few points is the interned one. Room was made by the caller. */
static int64_t close_sum(Arena *arena, int64_t points, int64_t bound, const int32_t *pending, int64_t lo, int64_t hi)
{
    if (hi == lo && points < INTERNED)
        return 3 * points;
    int32_t *mem = arena->mem;
    int64_t node = arena->tip;
    mem[node + POINTS] = (int32_t)points;
    mem[node + BOUND] = (int32_t)bound;
    mem[node + COUNT] = (int32_t)(hi - lo);
    for (int64_t t = 0; t < hi - lo; t++)
        mem[node + KIDS + t] = pending[hi - 1 - t];
    arena->tip = node + KIDS + hi - lo;
    return node;
}

/* The open nodes of the one-pass build, per depth: the sum node (points plus its finished children, its own
   points, where its finished children start on the pending stack, the letter it stands for) and the choice node
   below it (its best finished child, position, letter mask, where its finished children start). */
typedef struct {
    int64_t s_acc[MAX_PROOF_CELLS + 1], s_pts[MAX_PROOF_CELLS + 1], s_from[MAX_PROOF_CELLS + 1];
    int64_t s_letter[MAX_PROOF_CELLS + 1];
    int64_t c_acc[MAX_PROOF_CELLS + 1], c_pos[MAX_PROOF_CELLS + 1], c_mask[MAX_PROOF_CELLS + 1];
    int64_t c_from[MAX_PROOF_CELLS + 1];
    int32_t pending[(MAX_PROOF_CELLS + 1) * (MAX_PROOF_CELLS + MAX_LETTERS + 1)];
} Open;

int64_t paths_tree(Arena *arena, const uint64_t *keys, const uint32_t *wcs, int64_t lo, int64_t hi,
                   const int32_t *values, int64_t n_values, const Layout *lay)
{
    Open open = {0}, *o = &open;
    int64_t n = lay->n, top = 0, m = 0, result = 0;
    const int64_t *shift = lay->shift, *digits = lay->digits;
    uint64_t prev = 0, prev_nz = 0;
    int32_t *pending = o->pending;
    for (int64_t i = lo; i <= hi && result == 0; i++) {
        int last = i == hi;
        uint64_t body = last ? 0 : keys[i];
        if (body & ~(lay->high | lay->lows)) {
            result = BAD_LETTER;
            break;
        }
        uint64_t nz = (((body & lay->lows) + lay->lows) | body) & lay->high; /* the top bit of each non-zero digit */
        int64_t q = 0, h = 0;
        int share = 0;
        if (!last) {
            uint64_t diff = body ^ prev;
            if (diff == 0) {
                q = n;
                h = m;
            } else {
                q = lay->pos_at_bit[63 - __builtin_clzll(diff)];
                h = __builtin_popcountll(shr(nz, shift[q] + digits[q]));
            }
            share = q < n && (nz >> (shift[q] + digits[q] - 1) & 1) && (prev_nz >> (shift[q] + digits[q] - 1) & 1);
        }
        for (int64_t j = m; j > h; j--) { /* close the previous path's nodes below the shared part */
            if (!arena_room(arena, 3 + top - o->s_from[j])) {
                result = TREE_FULL;
                break;
            }
            int64_t node = close_sum(arena, o->s_pts[j], o->s_acc[j], pending, o->s_from[j], top);
            top = o->s_from[j];
            pending[top++] = (int32_t)node;
            o->c_mask[j - 1] |= INT64_C(1) << o->s_letter[j];
            if (o->s_acc[j] > o->c_acc[j - 1])
                o->c_acc[j - 1] = o->s_acc[j];
            if (j - 1 > h || !share) {
                if (!arena_room(arena, 3 + top - o->c_from[j - 1])) {
                    result = TREE_FULL;
                    break;
                }
                int32_t *mem = arena->mem;
                node = arena->tip;
                mem[node + POS] = (int32_t)o->c_pos[j - 1];
                mem[node + BOUND] = (int32_t)o->c_acc[j - 1];
                mem[node + MASK] = (int32_t)o->c_mask[j - 1];
                int64_t tip = node + KIDS;
                for (int64_t t = o->c_from[j - 1]; t < top; t++)
                    mem[tip++] = pending[t];
                arena->tip = tip;
                top = o->c_from[j - 1];
                pending[top++] = (int32_t)node;
                o->s_acc[j - 1] += o->c_acc[j - 1];
            }
        }
        if (last || result)
            break;
        int64_t j = h;
        uint64_t rest = q < n ? nz & low_bits(shift[q] + digits[q]) : 0;
        while (rest) { /* open the new key's remaining choices */
            int64_t p = lay->pos_at_bit[63 - __builtin_clzll(rest)];
            rest &= low_bits(shift[p]);
            if (!(j == h && share)) {
                o->c_pos[j] = p;
                o->c_acc[j] = 0;
                o->c_mask[j] = 0;
                o->c_from[j] = top;
            }
            int64_t letter = (int64_t)((body >> shift[p]) & ((UINT64_C(1) << digits[p]) - 1)) - 1;
            if (letter >= lay->n_letters[lay->order[p]]) {
                result = BAD_LETTER;
                break;
            }
            o->s_letter[j + 1] = letter;
            o->s_acc[j + 1] = 0;
            o->s_pts[j + 1] = 0;
            o->s_from[j + 1] = top;
            j++;
        }
        if (result)
            break;
        if ((int64_t)(wcs[i] & 63) >= n_values) {
            result = BAD_WORD;
            break;
        }
        int64_t points = values[wcs[i] & 63];
        o->s_acc[j] += points;
        o->s_pts[j] += points;
        m = j;
        prev = body;
        prev_nz = nz;
    }
    if (result == 0) {
        if (arena_room(arena, 3 + top))
            result = close_sum(arena, o->s_pts[0], o->s_acc[0], pending, 0, top);
        else
            result = TREE_FULL;
    }
    return result;
}

/* The class's orderly tree from its sorted paths bucketed by first digit (at[x]: where bucket x starts): the tree
   of the paths that skip position 0's cell, with one choice node for that cell in front whose letter x holds
   the tree of bucket x. Its root, or why not (as paths_tree). */
static int64_t class_tree(Arena *arena, const uint64_t *keys, const uint32_t *wcs, const int64_t *at,
                          const int32_t *values, int64_t n_values, const Layout *lay)
{
    int64_t n_first = lay->n_letters[lay->order[0]], kids[MAX_LETTERS] = {0}, mask = 0, best = 0;
    for (int64_t x = 1; x <= n_first; x++)
        if (at[x + 1] > at[x]) {
            kids[x - 1] = paths_tree(arena, keys, wcs, at[x], at[x + 1], values, n_values, lay);
            if (kids[x - 1] < 0)
                return kids[x - 1];
            mask |= INT64_C(1) << (x - 1);
            if (arena->mem[kids[x - 1] + BOUND] > best)
                best = arena->mem[kids[x - 1] + BOUND];
        }
    int64_t rest = paths_tree(arena, keys, wcs, at[0], at[1], values, n_values, lay);
    if (rest < 0 || !mask)
        return rest;
    int32_t *mem = arena->mem;
    int64_t k = mem[rest + COUNT];
    if (!arena_room(arena, 2 * KIDS + n_first + k + 1))
        return TREE_FULL;
    int64_t choice = arena->tip, tip = choice + KIDS;
    mem[choice + POS] = 0;
    mem[choice + BOUND] = (int32_t)best;
    mem[choice + MASK] = (int32_t)mask;
    for (int64_t x = 0; x < n_first; x++)
        if (mask >> x & 1)
            mem[tip++] = (int32_t)kids[x];
    int64_t root = tip;
    mem[root + POINTS] = mem[rest + POINTS];
    mem[root + BOUND] = mem[rest + BOUND] + (int32_t)best;
    mem[root + COUNT] = (int32_t)(k + 1);
    mem[root + KIDS] = (int32_t)choice;
    for (int64_t t = 0; t < k; t++)
        mem[root + KIDS + 1 + t] = mem[rest + KIDS + t];
    arena->tip = root + KIDS + k + 1;
    return root;
}

/* Take the arena (int32, writable) and its first free slot: 1, or 0 with an error. */
static int hold_arena(Held *held, PyObject *mem_obj, Py_ssize_t tip, Arena *arena)
{
    Py_buffer *mem = hold(held, mem_obj, "mem", "int32", 1, 1);
    if (!mem)
        return 0;
    if (mem->shape[0] > MAX_SLOTS || tip < 3 * INTERNED || tip > mem->shape[0]) {
        PyErr_Format(PyExc_ValueError, "%s(): mem holds at most 2**31 slots, tip lies past its interned leaves and "
                     "within it", held->function);
        return 0;
    }
    *arena = (Arena){mem->buf, mem->shape[0], tip, 0};
    return 1;
}

/* (tip, root, needed) after a tree was written: needed > 0 when the arena was full (the caller grows it to at
   least that many slots and builds again), or an error for paths the layout does not allow. */
static PyObject *tree_result(const char *function, const Arena *arena, int64_t root)
{
    if (root == BAD_LETTER)
        return PyErr_Format(PyExc_ValueError,
                            "%s(): a key's digits lie outside the layout or past their cells' letters", function);
    if (root == BAD_WORD)
        return PyErr_Format(PyExc_ValueError, "%s(): a word's points class lies past values", function);
    return Py_BuildValue("LLL", (long long)arena->tip, (long long)(root < 0 ? 0 : root),
                         (long long)(root < 0 ? arena->needed : 0));
}

/* build_tree(keys, wcs, lo, hi, values, lay, mem, tip): the orderly tree of the sorted paths keys[lo:hi]
   (uint64, with their uint32 words) written into the arena mem (int32) from slot tip; returns (tip, root,
   needed), needed > 0 when the arena is too short. */
PyObject *proof_build_tree(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *keys_obj, *wcs_obj, *values_obj, *lay_obj, *mem_obj;
    Py_ssize_t lo, hi, tip;
    if (!PyArg_ParseTuple(args, "OOnnOOOn:build_tree", &keys_obj, &wcs_obj, &lo, &hi, &values_obj, &lay_obj,
                          &mem_obj, &tip))
        return NULL;
    Held held = {.function = "build_tree"};
    Layout lay;
    Arena arena;
    Py_buffer *keys = hold(&held, keys_obj, "keys", "uint64", 1, 0);
    Py_buffer *wcs = keys ? hold(&held, wcs_obj, "wcs", "uint32", 1, 0) : NULL;
    Py_buffer *values = wcs ? hold(&held, values_obj, "values", "int32", 1, 0) : NULL;
    if (!values || !hold_layout(&held, lay_obj, &lay) || !hold_arena(&held, mem_obj, tip, &arena))
        return release(&held), NULL;
    if (lo < 0 || lo > hi || hi > keys->shape[0] || hi > wcs->shape[0]) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "build_tree(): lo and hi must lie in order within the paths");
    }
    int64_t root;
    Py_BEGIN_ALLOW_THREADS
    root = paths_tree(&arena, keys->buf, wcs->buf, lo, hi, values->buf, values->shape[0], &lay);
    Py_END_ALLOW_THREADS
    release(&held);
    return tree_result("build_tree", &arena, root);
}

/* class_tree(keys, wcs, at, values, lay, mem, tip): the class's orderly tree from its sorted paths bucketed by
   first digit (at: int64, where each bucket starts, then the count) written into the arena mem (int32) from
   slot tip; returns (tip, root, needed), needed > 0 when the arena is too short. */
PyObject *proof_class_tree(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *keys_obj, *wcs_obj, *at_obj, *values_obj, *lay_obj, *mem_obj;
    Py_ssize_t tip;
    if (!PyArg_ParseTuple(args, "OOOOOOn:class_tree", &keys_obj, &wcs_obj, &at_obj, &values_obj, &lay_obj, &mem_obj,
                          &tip))
        return NULL;
    Held held = {.function = "class_tree"};
    Layout lay;
    Arena arena;
    Py_buffer *keys = hold(&held, keys_obj, "keys", "uint64", 1, 0);
    Py_buffer *wcs = keys ? hold(&held, wcs_obj, "wcs", "uint32", 1, 0) : NULL;
    Py_buffer *at = wcs ? hold(&held, at_obj, "at", "int64", 1, 0) : NULL;
    Py_buffer *values = at ? hold(&held, values_obj, "values", "int32", 1, 0) : NULL;
    if (!values || !hold_layout(&held, lay_obj, &lay) || !hold_arena(&held, mem_obj, tip, &arena) ||
        !check_shape(&held, at, "at", 0, lay.n_letters[lay.order[0]] + 2))
        return release(&held), NULL;
    const int64_t *starts = at->buf;
    for (Py_ssize_t x = 0; x < at->shape[0]; x++)
        if (starts[x] < 0 || starts[x] > keys->shape[0] || starts[x] > wcs->shape[0] ||
            (x > 0 && starts[x] < starts[x - 1])) {
            release(&held);
            return PyErr_Format(PyExc_ValueError, "class_tree(): at must rise within the paths");
        }
    int64_t root;
    Py_BEGIN_ALLOW_THREADS
    root = class_tree(&arena, keys->buf, wcs->buf, starts, values->buf, values->shape[0], &lay);
    Py_END_ALLOW_THREADS
    release(&held);
    return tree_result("class_tree", &arena, root);
}

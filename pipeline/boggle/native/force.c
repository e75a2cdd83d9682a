/* Forcing a cell of a class's orderly tree (proof.h): the tree of the boards with one letter at the next cell
   of the split order is that letter's subtree merged with the root's other children. Choice nodes of the same
   cell that different words reached merge letter by letter, their common letters' sum nodes recursively, and
   every subtree that meets nothing to merge with is shared, not copied: the best letter of a cell is then
   chosen once for the sum of the words through it, which makes the bound tight. */
#include "kernels.h"
#include "proof.h"

#define FAR (INT64_C(1) << 30) /* a position past every cell */

/* A merge in progress at one level (a row of frames): the sum nodes merged, the new node and where its children
   go, and the choice node being merged in it, if any. */
enum { F_A, F_B_FROM, F_B_N, F_S, F_I, F_J, F_SLOT, F_BOUND, F_CA, F_CB, F_C, F_REST, F_IA, F_IB, F_C_SLOT, F_BEST };

/* Start merging sum node `a` with the choice nodes mem[b_from : b_from + b_n] and b_points more points: the
   finished node for a leaf, or -1 with a new frame (depth one deeper) when it has children; 0 when the arena is
   full (arena->needed set). */
static int64_t enter(Arena *arena, int64_t (*frames)[FRAME], int64_t *depth, int64_t a, int64_t b_from, int64_t b_n,
                     int64_t b_points)
{
    const int32_t *mem = arena->mem;
    int64_t a_n = mem[a + COUNT], i = 0, j = 0, k = 0;
    while (i < a_n && j < b_n) {
        int64_t pa = mem[mem[a + KIDS + i] + POS], pb = mem[mem[b_from + j] + POS];
        i += pa <= pb;
        j += pb <= pa;
        k++;
    }
    k += a_n - i + b_n - j;
    int64_t points = mem[a + POINTS] + b_points;
    if (k == 0 && points < INTERNED)
        return 3 * points;
    if (!arena_room(arena, KIDS + k))
        return 0;
    int64_t s = arena->tip;
    arena->tip = s + KIDS + k;
    arena->mem[s + POINTS] = (int32_t)points;
    arena->mem[s + COUNT] = (int32_t)k;
    int64_t *f = frames[(*depth)++];
    f[F_A] = a, f[F_B_FROM] = b_from, f[F_B_N] = b_n, f[F_S] = s;
    f[F_I] = 0, f[F_J] = 0, f[F_SLOT] = s + KIDS, f[F_BOUND] = points, f[F_C] = -1;
    return -1;
}

/* A new sum node: sum node `a` merged with the choice nodes mem[b_from : b_from + b_n] (increasing position) and
   b_points more points, on an explicit stack of frames; 0 when the arena is full (arena->needed set). */
static int64_t merge(Arena *arena, int64_t (*frames)[FRAME], int64_t a, int64_t b_from, int64_t b_n, int64_t b_points)
{
    int32_t *mem = arena->mem;
    int64_t depth = 0;
    int64_t done = enter(arena, frames, &depth, a, b_from, b_n, b_points);
    while (depth > 0 && !arena->needed) {
        int64_t *f = frames[depth - 1];
        if (f[F_C] >= 0) { /* a choice node being merged: its next letters */
            int64_t ca = f[F_CA], cb = f[F_CB], ma = mem[ca + MASK], mb = mem[cb + MASK];
            if (done >= 0) { /* a common letter's merged sum node is finished */
                mem[f[F_C_SLOT]++] = (int32_t)done;
                if (mem[done + BOUND] > f[F_BEST])
                    f[F_BEST] = mem[done + BOUND];
                done = -1;
            }
            int deeper = 0;
            while (f[F_REST] && !deeper) {
                int64_t bit = f[F_REST] & -f[F_REST], t;
                f[F_REST] ^= bit;
                if (ma & bit && mb & bit) {
                    int64_t sb = mem[cb + KIDS + f[F_IB]];
                    t = enter(arena, frames, &depth, mem[ca + KIDS + f[F_IA]], sb + KIDS, mem[sb + COUNT],
                              mem[sb + POINTS]);
                    deeper = t < 0;
                } else if (ma & bit)
                    t = mem[ca + KIDS + f[F_IA]];
                else
                    t = mem[cb + KIDS + f[F_IB]];
                f[F_IA] += (ma & bit) != 0;
                f[F_IB] += (mb & bit) != 0;
                if (!deeper) {
                    mem[f[F_C_SLOT]++] = (int32_t)t;
                    if (mem[t + BOUND] > f[F_BEST])
                        f[F_BEST] = mem[t + BOUND];
                }
            }
            if (deeper)
                continue;
            mem[f[F_C] + BOUND] = (int32_t)f[F_BEST];
            mem[f[F_SLOT]++] = (int32_t)f[F_C];
            f[F_BOUND] += f[F_BEST];
            f[F_C] = -1;
        }
        int64_t a_at = f[F_A], s = f[F_S], a_n = mem[a_at + COUNT], from = f[F_B_FROM], b_count = f[F_B_N];
        while (f[F_SLOT] < s + KIDS + mem[s + COUNT]) { /* the next child: shared, or two choice nodes to merge */
            int64_t i = f[F_I], j = f[F_J];
            int64_t ca = i < a_n ? mem[a_at + KIDS + i] : 0, cb = j < b_count ? mem[from + j] : 0;
            int64_t pa = i < a_n ? mem[ca + POS] : FAR, pb = j < b_count ? mem[cb + POS] : FAR;
            f[F_I] += pa <= pb;
            f[F_J] += pb <= pa;
            if (pa != pb) {
                int64_t child = pa < pb ? ca : cb;
                mem[f[F_SLOT]++] = (int32_t)child;
                f[F_BOUND] += mem[child + BOUND];
                continue;
            }
            int64_t mask = mem[ca + MASK] | mem[cb + MASK];
            if (!arena_room(arena, KIDS + mask_count(mask)))
                break;
            int64_t c = arena->tip;
            arena->tip = c + KIDS + mask_count(mask);
            mem[c + POS] = (int32_t)pa;
            mem[c + MASK] = (int32_t)mask;
            f[F_CA] = ca, f[F_CB] = cb, f[F_C] = c, f[F_REST] = mask;
            f[F_IA] = 0, f[F_IB] = 0, f[F_C_SLOT] = c + KIDS, f[F_BEST] = 0;
            break;
        }
        if (f[F_C] >= 0 || arena->needed)
            continue;
        mem[s + BOUND] = (int32_t)f[F_BOUND];
        done = s;
        depth--;
    }
    return arena->needed ? 0 : done;
}

int64_t force(Arena *arena, int64_t (*frames)[FRAME], int64_t root, int64_t pos, int64_t letter)
{
    const int32_t *mem = arena->mem;
    int64_t k = mem[root + COUNT];
    int64_t top = k && mem[mem[root + KIDS] + POS] == pos ? mem[root + KIDS] : -1;
    int64_t skip = top >= 0, chosen = 0; /* no word through the cell with this letter: the other children alone */
    if (top >= 0 && (mem[top + MASK] >> letter & 1))
        chosen = mem[top + KIDS + mask_count(mem[top + MASK] & ((INT64_C(1) << letter) - 1))];
    int64_t tree = merge(arena, frames, chosen, root + KIDS + skip, k - skip, mem[root + POINTS]);
    return arena->needed ? TREE_FULL : tree;
}

/* force_tree(mem, tip, root, pos, letter): the tree of `root`'s boards with letter index `letter` at split
   position `pos` written into the arena mem (int32) from slot tip; returns (tip, tree, needed), needed > 0 when
   the arena is too short. The arena is trusted to hold the trees class_tree and force_tree wrote. */
PyObject *proof_force_tree(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *mem_obj;
    Py_ssize_t tip, root, pos, letter;
    if (!PyArg_ParseTuple(args, "Onnnn:force_tree", &mem_obj, &tip, &root, &pos, &letter))
        return NULL;
    Held held = {.function = "force_tree"};
    Py_buffer *mem = hold(&held, mem_obj, "mem", "int32", 1, 1);
    if (!mem)
        return NULL;
    if (mem->shape[0] > MAX_SLOTS || tip < 3 * INTERNED || tip > mem->shape[0] || root < 0 || root >= tip ||
        letter < 0 || letter >= MAX_LETTERS) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "force_tree(): tip within mem, root below it, letter 0 to 25");
    }
    Arena arena = {mem->buf, mem->shape[0], tip, 0};
    int64_t frames[MAX_FRAMES][FRAME], tree;
    Py_BEGIN_ALLOW_THREADS
    tree = force(&arena, frames, root, pos, letter);
    Py_END_ALLOW_THREADS
    release(&held);
    return Py_BuildValue("LLL", (long long)arena.tip, (long long)(tree < 0 ? 0 : tree),
                         (long long)(tree < 0 ? arena.needed : 0));
}

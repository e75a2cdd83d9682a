/* Breaking a class's orderly tree (proof.h) into the boards whose bound reaches the floor, as hybrid-boggle's
   HybridTreeBreaker does: the tree is forced cell by cell (force.c) while its bound is above `switch` and fewer
   than `max_force` cells are chosen, then searched depth first (search.c). */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "proof.h"

/* What a breaking counts per split position: trees forced there, trees dropped on their bound, trees searched
   from there, and the search's partial choices visited and dropped there. */
typedef struct {
    int64_t *forced, *eliminated, *searched, *visited, *dropped;
} Counts;

enum { BROKEN = 0 };

/* Break the tree at `root` (positions 0..n-1, n_letters[pos] letters each): its candidate boards into `out` and
   its counts. BROKEN, TREE_FULL (the arena too short for a forced tree), or a search's failure. */
static int break_tree(Arena *arena, int64_t root, const int64_t *n_letters, int64_t n, int64_t floor,
                      int64_t switch_at, int64_t max_force, Boards *out, Counts *counts)
{
    int64_t frames[MAX_FRAMES][FRAME];
    int64_t frame_root[MAX_PROOF_CELLS + 1], frame_letter[MAX_PROOF_CELLS + 1], frame_tip[MAX_PROOF_CELLS + 1];
    int64_t chosen[MAX_PROOF_CELLS + 1] = {0};
    int64_t depth = -1; /* the deepest open frame: frames 0..depth are the cells being forced */
    int64_t tree = root, pos = 0;
    const int32_t *mem = arena->mem;
    for (;;) {
        if (tree >= 0) { /* a tree to judge: drop it, search it or force its next cell */
            if (mem[tree + BOUND] < floor)
                counts->eliminated[pos]++;
            else if (mem[tree + BOUND] <= switch_at || pos >= max_force) {
                counts->searched[pos]++;
                int64_t before = out->count;
                int status = search(mem, tree, pos, n_letters, n, floor, out, counts->visited, counts->dropped);
                if (status != SEARCHED)
                    return status;
                for (int64_t b = before; b < out->count; b++)
                    for (int64_t p = 0; p < pos; p++)
                        out->picks[b * n + p] = (int8_t)chosen[p];
            } else {
                depth = pos;
                frame_root[pos] = tree;
                frame_letter[pos] = 0;
                frame_tip[pos] = arena->tip;
            }
            tree = -1;
        }
        if (depth < 0)
            return BROKEN;
        pos = depth;
        if (frame_letter[pos] >= n_letters[pos]) {
            depth--;
            continue;
        }
        arena->tip = frame_tip[pos]; /* the previous letter's tree is done with: reuse its slots */
        int64_t child = force(arena, frames, frame_root[pos], pos, frame_letter[pos]);
        if (child < 0)
            return TREE_FULL;
        counts->forced[pos]++;
        chosen[pos] = frame_letter[pos]++;
        tree = child;
        pos++;
    }
}

/* break_tree(mem, tip, root, n_letters, floor, switch, max_force, forced, eliminated, searched, visited,
   dropped): break the tree at `root` in the arena mem (int32, free from slot tip; positions 0..n-1 with
   n_letters (int64) letters each), counting per position into the five int64 arrays of n entries; returns
   (the candidate boards as bytes, n letter indices per board, 0), or (None, needed) when the arena needs more
   slots (the caller grows it and breaks again). The arena is trusted to hold the tree class_tree wrote. */
PyObject *proof_break_tree(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *mem_obj, *n_letters_obj, *count_objs[5];
    Py_ssize_t tip, root, floor, switch_at, max_force;
    if (!PyArg_ParseTuple(args, "OnnOnnnOOOOO:break_tree", &mem_obj, &tip, &root, &n_letters_obj, &floor, &switch_at,
                          &max_force, &count_objs[0], &count_objs[1], &count_objs[2], &count_objs[3], &count_objs[4]))
        return NULL;
    static const char *count_names[5] = {"forced", "eliminated", "searched", "visited", "dropped"};
    Held held = {.function = "break_tree"};
    Py_buffer *mem = hold(&held, mem_obj, "mem", "int32", 1, 1);
    Py_buffer *n_letters = mem ? hold(&held, n_letters_obj, "n_letters", "int64", 1, 0) : NULL;
    if (!n_letters)
        return release(&held), NULL;
    Py_ssize_t n = n_letters->shape[0];
    int64_t *count_arrays[5];
    for (int i = 0; i < 5; i++) {
        Py_buffer *view = hold(&held, count_objs[i], count_names[i], "int64", 1, 1);
        if (!view || !check_shape(&held, view, count_names[i], 0, n))
            return release(&held), NULL;
        count_arrays[i] = view->buf;
    }
    const int64_t *letters = n_letters->buf;
    int bad = n < 1 || n > MAX_PROOF_CELLS || max_force >= n;
    for (Py_ssize_t p = 0; p < n && !bad; p++)
        bad = letters[p] < 1 || letters[p] > MAX_LETTERS;
    if (bad || mem->shape[0] > MAX_SLOTS || tip < 3 * INTERNED || tip > mem->shape[0] || root < 0 || root >= tip) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "break_tree(): 1 to %d positions of 1 to 26 letters, max_force below "
                            "them, tip within mem and root below it", MAX_PROOF_CELLS);
    }
    Arena arena = {mem->buf, mem->shape[0], tip, 0};
    Counts counts = {count_arrays[0], count_arrays[1], count_arrays[2], count_arrays[3], count_arrays[4]};
    Boards out = {.n = n};
    int status;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < 5; i++)
        memset(count_arrays[i], 0, (size_t)n * sizeof(int64_t));
    status = break_tree(&arena, root, letters, n, floor, switch_at, max_force, &out, &counts);
    Py_END_ALLOW_THREADS
    release(&held);
    PyObject *result = NULL;
    if (status == BROKEN) {
        PyObject *picks = PyBytes_FromStringAndSize((const char *)out.picks, (Py_ssize_t)(out.count * n));
        result = picks ? Py_BuildValue("NL", picks, 0LL) : NULL;
    } else if (status == TREE_FULL)
        result = Py_BuildValue("OL", Py_None, (long long)arena.needed);
    else if (status == SEARCH_NO_MEMORY)
        PyErr_NoMemory();
    else
        PyErr_Format(PyExc_ValueError, "break_tree(): a choice node holds a letter past its position's letters");
    free(out.picks);
    return result;
}

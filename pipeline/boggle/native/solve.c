/* Solving Boggle boards: a depth-first walk of a board's paths and the dictionary's trie together, listing the
   word nodes found in order of discovery (one board) or scoring them (many). A board is an array of letter codes
   (A = 0; Q is the Qu cube, and the dictionary spells QU as Q); nbrs[cell] holds a cell's neighbours, -1 padded
   to 8. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__) /* a fast PEXT (microcoded on Zen 1, 2) */
#include <immintrin.h>
#define FAST_PEXT 1
#endif

#include "arrays.h"
#include "kernels.h"
#include "nodes.h"

#define MAX_CELLS 64 /* a path is a 64-bit set of cells */

/* One board's walk: the board, its grid, the dictionary, and the words found so far. */
typedef struct {
    const int8_t *board;
    const int32_t *nbrs;
    const uint64_t *nodes;
    uint64_t n_nodes;
    const int32_t *values;
    Py_ssize_t n_values;
    uint32_t *mark;  /* per node: the stamp of the last board that reached it */
    uint32_t stamp;  /* this board's */
    int32_t *found;  /* the word nodes found, in order of discovery (NULL: only counted and scored) */
    Py_ssize_t words;
    int64_t score;
    int broken;                         /* a node or points class outside the dictionary was reached */
    uint32_t near_letters[MAX_CELLS];   /* per cell: the letters of its neighbours */
    uint64_t cell_sets[MAX_CELLS * 32]; /* per cell: its neighbours showing each subset of those letters */
} Walk;

/* The bits of x selected by mask m, packed into the low bits. */
static inline uint32_t pext32(uint32_t x, uint32_t m)
{
#ifdef FAST_PEXT
    return _pext_u32(x, m);
#else
    uint32_t out = 0;
    for (uint32_t k = 0; m; m &= m - 1, k++)
        out |= (uint32_t)((x & m & -m) != 0) << k;
    return out;
#endif
}

/* out[x] = the union of sets[j] over the bits j of x, for the 16 subsets x of 4 sets. */
static void subset_unions(const uint64_t *sets, uint64_t *out)
{
    out[0] = 0;
    for (int j = 0; j < 4; j++)
        for (int x = 0; x < 1 << j; x++)
            out[(1 << j) + x] = out[x] | sets[j];
}

/* Per cell of the board: the letters around it, and the neighbours showing any subset of them as two 16-entry
   tables (subsets of its first four letters in alphabetical order, then of the next four). */
static void board_tables(Walk *w, int cells)
{
    for (int cell = 0; cell < cells; cell++) {
        const int32_t *nbrs = w->nbrs + cell * 8;
        uint32_t letters = 0;
        uint64_t sets[8] = {0};
        for (int i = 0; i < 8; i++)
            if (nbrs[i] >= 0)
                letters |= 1u << w->board[nbrs[i]];
        for (int i = 0; i < 8; i++)
            if (nbrs[i] >= 0)
                sets[__builtin_popcount(letters & ((1u << w->board[nbrs[i]]) - 1))] |= 1ull << nbrs[i];
        w->near_letters[cell] = letters;
        subset_unions(sets, w->cell_sets + 32 * cell);
        subset_unions(sets + 4, w->cell_sets + 32 * cell + 16);
    }
}

/* The neighbours of `cell` whose letter is one of `letters` (a node's child mask), as a set of cells: the child
   letters present around the cell, squeezed together, index its two tables. */
static inline uint64_t next_cells(const Walk *w, int cell, uint32_t letters)
{
    uint32_t x = pext32(letters, w->near_letters[cell]);
    const uint64_t *tables = w->cell_sets + 32 * cell;
    return tables[x & 15] | tables[16 | x >> 4];
}

/* Step to `node`: list the word ending there the first time the board reaches it; returns the packed node (a
   node outside the dictionary, or with a points class outside it, marks the walk broken and has no children). */
static uint64_t visit(Walk *w, uint64_t node)
{
    if (node >= w->n_nodes || (Py_ssize_t)node_class(w->nodes[node]) >= w->n_values) {
        w->broken = 1;
        return 0;
    }
    uint64_t record = w->nodes[node];
    if (w->mark[node] != w->stamp) {
        w->mark[node] = w->stamp;
        int32_t points = w->values[node_class(record)];
        w->score += points;
        if (points > 0) {
            if (w->found)
                w->found[w->words] = (int32_t)node;
            w->words++;
        }
    }
    return record;
}

/* From the node `record`, reached by the path `used`, step to its children on `cells` (all of them first, in
   cell order), then walk on from each child that has unused neighbours continuing it, in cell order. */
static void expand(Walk *w, uint64_t record, uint64_t cells, uint64_t used)
{
    int here[8];
    uint64_t kids[8], nexts[8];
    int n = 0;
    for (; cells; cells &= cells - 1, n++) {
        here[n] = __builtin_ctzll(cells);
        kids[n] = visit(w, child_of(record, w->board[here[n]]));
        nexts[n] = next_cells(w, here[n], node_children(kids[n])) & ~(used | 1ull << here[n]);
    }
    for (int i = 0; i < n; i++)
        if (nexts[i])
            expand(w, kids[i], nexts[i], used | 1ull << here[i]);
}

/* Walk every path of the board from each cell in turn; the words found are w->found[:w->words]. */
static void solve(Walk *w, int cells)
{
    board_tables(w, cells);
    uint64_t root = w->nodes[0];
    for (int start = 0; start < cells; start++) {
        if (!(node_children(root) >> w->board[start] & 1))
            continue;
        uint64_t record = visit(w, child_of(root, w->board[start]));
        uint64_t used = 1ull << start;
        expand(w, record, next_cells(w, start, node_children(record)) & ~used, used);
    }
}

/* The index of the first cell whose letter is not A-Z or whose neighbour is not a cell of the board, or -1. */
static Py_ssize_t bad_cell(const int8_t *board, const int32_t *nbrs, Py_ssize_t cells)
{
    for (Py_ssize_t cell = 0; cell < cells; cell++) {
        if (board[cell] < 0 || board[cell] >= LETTERS)
            return cell;
        for (int i = 0; i < 8; i++)
            if (nbrs[cell * 8 + i] < -1 || nbrs[cell * 8 + i] >= cells)
                return cell;
    }
    return -1;
}

/* boggle_solve(board, nbrs, ncount, nodes, values, rank, found): write the word nodes found on one board (int8
   letter codes; int32 neighbours, cells x 8, and their counts; the dictionary's uint64 nodes, int32 points of
   each class and int32 ranks) into found (int32, one entry per node), in order of discovery; returns how many. */
PyObject *boggle_solve(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *board_obj, *nbrs_obj, *ncount_obj, *nodes_obj, *values_obj, *rank_obj, *found_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOO:boggle_solve", &board_obj, &nbrs_obj, &ncount_obj, &nodes_obj,
                          &values_obj, &rank_obj, &found_obj))
        return NULL;
    Held held = {.function = "boggle_solve"};
    Py_buffer *board = hold(&held, board_obj, "board", "int8", 1, 0);
    Py_buffer *nbrs = board ? hold(&held, nbrs_obj, "nbrs", "int32", 2, 0) : NULL;
    Py_buffer *ncount = nbrs ? hold(&held, ncount_obj, "ncount", "int32", 1, 0) : NULL;
    Py_buffer *nodes = ncount ? hold(&held, nodes_obj, "nodes", "uint64", 1, 0) : NULL;
    Py_buffer *values = nodes ? hold(&held, values_obj, "values", "int32", 1, 0) : NULL;
    Py_buffer *rank = values ? hold(&held, rank_obj, "rank", "int32", 1, 0) : NULL;
    Py_buffer *found = rank ? hold(&held, found_obj, "found", "int32", 1, 1) : NULL;
    Py_ssize_t cells = board ? board->shape[0] : 0, n_nodes = nodes ? nodes->shape[0] : 0;
    if (!found || !check_shape(&held, nbrs, "nbrs", 0, cells) || !check_shape(&held, nbrs, "nbrs", 1, 8) ||
        !check_shape(&held, ncount, "ncount", 0, cells) || !check_shape(&held, rank, "rank", 0, n_nodes) ||
        !check_shape(&held, found, "found", 0, n_nodes))
        return release(&held), NULL;
    if (cells > MAX_CELLS || n_nodes < 1 || n_nodes > INT32_MAX || values->shape[0] < 1) {
        release(&held);
        return PyErr_Format(PyExc_ValueError,
                            "boggle_solve(): a board has at most %d cells, a dictionary a root and a points class",
                            MAX_CELLS);
    }
    uint32_t *mark = calloc((size_t)n_nodes, sizeof *mark);
    if (!mark)
        return release(&held), PyErr_NoMemory();
    Walk w = {.board = board->buf, .nbrs = nbrs->buf, .nodes = nodes->buf, .n_nodes = (uint64_t)n_nodes,
              .values = values->buf, .n_values = values->shape[0], .mark = mark, .stamp = 1, .found = found->buf};
    Py_ssize_t bad_at_cell;
    Py_BEGIN_ALLOW_THREADS
    bad_at_cell = bad_cell(board->buf, nbrs->buf, cells);
    if (bad_at_cell < 0)
        solve(&w, (int)cells);
    Py_END_ALLOW_THREADS
    free(mark);
    release(&held);
    if (bad_at_cell >= 0)
        return PyErr_Format(PyExc_ValueError, "boggle_solve(): cell %zd's letter or neighbours are out of range",
                            bad_at_cell);
    if (w.broken)
        return PyErr_Format(PyExc_ValueError, "boggle_solve(): a node's child or points class is out of range");
    return PyLong_FromSsize_t(w.words);
}

/* boggle_scores(boards, nbrs, ncount, nodes, values, scores): the score of each board (int8 letter codes, one board
   per row; the grid's int32 neighbours and counts; the dictionary's uint64 nodes and int32 points of each class)
   into scores (int32, one per board): the points of the distinct words on it. */
PyObject *boggle_scores(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *boards_obj, *nbrs_obj, *ncount_obj, *nodes_obj, *values_obj, *scores_obj;
    if (!PyArg_ParseTuple(args, "OOOOOO:boggle_scores", &boards_obj, &nbrs_obj, &ncount_obj, &nodes_obj, &values_obj,
                          &scores_obj))
        return NULL;
    Held held = {.function = "boggle_scores"};
    Py_buffer *boards = hold(&held, boards_obj, "boards", "int8", 2, 0);
    Py_buffer *nbrs = boards ? hold(&held, nbrs_obj, "nbrs", "int32", 2, 0) : NULL;
    Py_buffer *ncount = nbrs ? hold(&held, ncount_obj, "ncount", "int32", 1, 0) : NULL;
    Py_buffer *nodes = ncount ? hold(&held, nodes_obj, "nodes", "uint64", 1, 0) : NULL;
    Py_buffer *values = nodes ? hold(&held, values_obj, "values", "int32", 1, 0) : NULL;
    Py_buffer *scores = values ? hold(&held, scores_obj, "scores", "int32", 1, 1) : NULL;
    Py_ssize_t n_boards = boards ? boards->shape[0] : 0, cells = boards ? boards->shape[1] : 0;
    Py_ssize_t n_nodes = nodes ? nodes->shape[0] : 0;
    if (!scores || !check_shape(&held, nbrs, "nbrs", 0, cells) || !check_shape(&held, nbrs, "nbrs", 1, 8) ||
        !check_shape(&held, ncount, "ncount", 0, cells) || !check_shape(&held, scores, "scores", 0, n_boards))
        return release(&held), NULL;
    if (cells > MAX_CELLS || n_nodes < 1 || n_nodes > INT32_MAX || values->shape[0] < 1) {
        release(&held);
        return PyErr_Format(PyExc_ValueError,
                            "boggle_scores(): a board has at most %d cells, a dictionary a root and a points class",
                            MAX_CELLS);
    }
    uint32_t *mark = calloc((size_t)n_nodes, sizeof *mark);
    if (!mark)
        return release(&held), PyErr_NoMemory();
    const int8_t *rows = boards->buf;
    int32_t *out = scores->buf;
    Walk w = {.nbrs = nbrs->buf, .nodes = nodes->buf, .n_nodes = (uint64_t)n_nodes, .values = values->buf,
              .n_values = values->shape[0], .mark = mark};
    Py_ssize_t bad_board = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t b = 0; b < n_boards && !w.broken; b++) {
        w.board = rows + b * cells;
        if (bad_cell(w.board, w.nbrs, cells) >= 0) {
            bad_board = b;
            break;
        }
        if (++w.stamp == 0) { /* the stamps wrapped around: forget every mark */
            memset(mark, 0, (size_t)n_nodes * sizeof *mark);
            w.stamp = 1;
        }
        w.score = 0;
        solve(&w, (int)cells);
        out[b] = (int32_t)w.score;
    }
    Py_END_ALLOW_THREADS
    free(mark);
    release(&held);
    if (bad_board >= 0)
        return PyErr_Format(PyExc_ValueError, "boggle_scores(): board %zd's letters or the neighbours are out of range",
                            bad_board);
    if (w.broken)
        return PyErr_Format(PyExc_ValueError, "boggle_scores(): a node's child or points class is out of range");
    Py_RETURN_NONE;
}

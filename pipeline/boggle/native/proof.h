/* The Boggle proof's shared layouts (docs/boggle-prove.md): a board class's letters and word keys, and the arena
   of int32 records its orderly tree lives in.

   A class gives each cell a set of letters, letters[cell * width + i] for i < n_letters[cell] (letter codes, Q
   the Qu cube). Cells are split in an order, order[pos] being the cell split at position pos. A word path is
   kept as a 64-bit key with one digit per split position 1..n-1 (position 1 most significant; the letter index
   + 1, 0 where the path does not use the cell; bits shift[pos] to shift[pos] + digits[pos] - 1), the digit of
   position 0 apart (`first`), and the word (`wc`: its trie node << WC_SHIFT | its points class).

   The arena: a sum node at offset s is points, bound, k, then its k choice children (increasing position); a
   choice node at offset c is position, bound, letter mask, then one sum child per bit of the mask (increasing
   letter index). A sum node's bound is its points plus its children's bounds, a choice node's the largest of
   its children's. Offsets 0, 3, ..., 3 * (INTERNED - 1) hold the leaf sum nodes of 0 .. INTERNED - 1 points. */
#ifndef WORDSTATS_PROOF_H
#define WORDSTATS_PROOF_H

#include "arrays.h"

#include <stdint.h>

#define POINTS 0 /* a sum node's fields */
#define BOUND 1
#define COUNT 2
#define KIDS 3
#define POS 0 /* a choice node's position and letter mask (its bound at BOUND, its children from KIDS) */
#define MASK 2
#define INTERNED 128
#define WC_SHIFT 6
#define MAX_SLOTS (INT64_C(1) << 31) /* int32 offsets address this many slots, no more */
#define MAX_PROOF_CELLS 64           /* a path's cells are a 64-bit set */
#define MAX_LETTERS 26               /* letters of a cell's set */
#define FRAME 16                     /* int64s of a merge's frame (force.c) */
#define MAX_FRAMES (MAX_PROOF_CELLS + 2)

/* A class's layout: its cells' letters, the split order, and the word keys' digits per split position. */
typedef struct {
    int n;                      /* cells */
    const int8_t *letters;      /* cells x width letter codes */
    int64_t width;              /* the letters' row length */
    const int32_t *n_letters;   /* per cell */
    const int32_t *order;       /* the cell split at each position */
    const int64_t *shift;       /* per position: its digit's lowest bit */
    const int64_t *digits;      /* per position: its digit's bits */
    const int64_t *pos_at_bit;  /* per bit of a key: the position whose digit holds it */
    uint64_t high;              /* the top bit of every digit */
    uint64_t lows;              /* every other bit of every digit */
} Layout;

/* Take the layout named tuple (letters, n_letters, order, pos_of, shift, width, pos_at_bit, high, lows, key_bits)
   of pipeline.boggle.prove: 1, or 0 with TypeError or ValueError when it is not a valid layout. */
int hold_layout(Held *held, PyObject *obj, Layout *lay);

/* An arena being written: its slots, how many, and the first free one. When a write does not fit, `needed` is
   set to the slots it would take and the kernel stops: its caller grows the arena and starts again (the
   kernels never change what lies below the tip they were given, so a new start gives the same tree). */
typedef struct {
    int32_t *mem;
    int64_t size;
    int64_t tip;
    int64_t needed;
} Arena;

/* Whether `need` more slots fit after the tip; when not, the arena is marked full. */
static inline int arena_room(Arena *a, int64_t need)
{
    if (a->tip + need <= a->size)
        return 1;
    if (!a->needed)
        a->needed = a->tip + need;
    return 0;
}

/* The number of letters in a letter mask. */
static inline int64_t mask_count(int64_t mask)
{
    return __builtin_popcount((uint32_t)mask);
}

enum { TREE_FULL = -1, BAD_WORD = -2, BAD_LETTER = -3 }; /* why no tree was written */

/* The orderly tree of the sorted paths keys[lo:hi] (positions 1..n-1; values: the points of each of the
   n_values points classes) written into the arena (tree.c): its root, or why not (a key's bits outside the
   digits or a digit past its cell's letters, a word's points class past values, or the arena full). */
int64_t paths_tree(Arena *arena, const uint64_t *keys, const uint32_t *wcs, int64_t lo, int64_t hi,
                   const int32_t *values, int64_t n_values, const Layout *lay);

/* The tree of the boards of `root`'s class with letter index `letter` at split position `pos` (force.c), or
   TREE_FULL. */
int64_t force(Arena *arena, int64_t (*frames)[FRAME], int64_t root, int64_t pos, int64_t letter);

/* Candidate boards: letter indices per split position, n to a board. */
typedef struct {
    int8_t *picks;
    int64_t n;
    int64_t count;
    int64_t capacity;
} Boards;

/* Room for one more board (doubling); 0 when memory ran out. */
int boards_room(Boards *out);

enum { SEARCHED = 0, SEARCH_NO_MEMORY = -1, SEARCH_BAD_TREE = -2 };

/* Depth first over positions start..n-1 of the tree at `root` (search.c): every board whose bound reaches
   `floor` is appended to `out` (its positions before `start` left to the caller), the partial choices visited
   and dropped counted per position. SEARCHED, or why not. */
int search(const int32_t *mem, int64_t root, int64_t start, const int64_t *n_letters, int64_t n, int64_t floor,
           Boards *out, int64_t *visited, int64_t *dropped);

#endif

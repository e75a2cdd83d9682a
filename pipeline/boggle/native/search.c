/* The depth-first search of a class's orderly tree (proof.h) over its remaining cells, without changing the tree:
   a stack of each open cell's choice nodes and a running sum of their bounds. On reaching a cell, the sum nodes
   below its stacked choice nodes are bucketed by letter once, so a letter's bound (the points so far, the open
   cells' bounds, and its own sum nodes' bounds) is known before anything is pushed: a dropped letter costs one
   pass over its own sum nodes. */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "proof.h"

int boards_room(Boards *out)
{
    if (out->count < out->capacity)
        return 1;
    int64_t capacity = out->capacity ? 2 * out->capacity : 16;
    int8_t *grown = realloc(out->picks, (size_t)(capacity * out->n));
    if (!grown)
        return 0;
    out->picks = grown;
    out->capacity = capacity;
    return 1;
}

/* A search's work space: per position its stack of choice nodes (`cap` each) and their bounds' sum, saved at
   each depth; the points reached, the bound of the other open cells, the letter tried; the sum nodes bucketed
   by letter (bucket[letter_first[d][l] : letter_first[d][l + 1]] for letter l at depth d). */
typedef struct {
    int64_t n, cap, width;
    int32_t *stack;
    int64_t top[MAX_PROOF_CELLS], sums[MAX_PROOF_CELLS];
    int64_t *saved_top, *saved_sums; /* (n + 1) x n */
    int64_t base[MAX_PROOF_CELLS + 1], rest_after[MAX_PROOF_CELLS + 1], li[MAX_PROOF_CELLS + 1];
    int64_t *letter_first; /* n x (width + 1) */
    int32_t *bucket;
    int64_t bucket_size;
    int64_t bucket_at[MAX_PROOF_CELLS + 1];
} Space;

/* Push choice node c on position p's stack (doubling every stack when full): 0 when memory ran out. */
static int push(Space *sp, const int32_t *mem, int64_t c)
{
    int64_t p = mem[c + POS];
    if (sp->top[p] == sp->cap) {
        int32_t *grown = malloc((size_t)(sp->n * 2 * sp->cap) * sizeof *grown);
        if (!grown)
            return 0;
        for (int64_t q = 0; q < sp->n; q++)
            memcpy(grown + q * 2 * sp->cap, sp->stack + q * sp->cap, (size_t)sp->cap * sizeof *grown);
        free(sp->stack);
        sp->stack = grown;
        sp->cap *= 2;
    }
    sp->stack[p * sp->cap + sp->top[p]++] = (int32_t)c;
    sp->sums[p] += mem[c + BOUND];
    return 1;
}

/* Sort the sum nodes below the choice nodes stacked for position d by letter, written from bucket_at[d] on
   (bucket grown when needed); sets bucket_at[d + 1]. SEARCHED, or why not. */
static int bucket_letters(Space *sp, const int32_t *mem, int64_t d, int64_t n_letters_d)
{
    int64_t *first = sp->letter_first + d * (sp->width + 1), fill[MAX_LETTERS];
    const int32_t *stacked = sp->stack + d * sp->cap;
    for (int64_t letter = 0; letter <= n_letters_d; letter++)
        first[letter] = 0;
    for (int64_t k = 0; k < sp->top[d]; k++)
        for (int64_t rest = mem[stacked[k] + MASK]; rest; rest &= rest - 1) {
            int64_t letter = __builtin_ctzll((uint64_t)rest);
            if (letter >= n_letters_d)
                return SEARCH_BAD_TREE;
            first[letter + 1]++;
        }
    first[0] = sp->bucket_at[d];
    for (int64_t letter = 0; letter < n_letters_d; letter++)
        first[letter + 1] += first[letter];
    int64_t end = first[n_letters_d];
    if (end > sp->bucket_size) {
        int32_t *grown = malloc((size_t)(2 * end) * sizeof *grown);
        if (!grown)
            return SEARCH_NO_MEMORY;
        memcpy(grown, sp->bucket, (size_t)sp->bucket_at[d] * sizeof *grown);
        free(sp->bucket);
        sp->bucket = grown;
        sp->bucket_size = 2 * end;
    }
    memcpy(fill, first, (size_t)n_letters_d * sizeof *fill);
    for (int64_t k = 0; k < sp->top[d]; k++) {
        int64_t c = stacked[k], j = 0;
        for (int64_t rest = mem[c + MASK]; rest; rest &= rest - 1)
            sp->bucket[fill[__builtin_ctzll((uint64_t)rest)]++] = mem[c + KIDS + j++];
    }
    sp->bucket_at[d + 1] = end;
    return SEARCHED;
}

/* Save the stacks' tops and sums at depth d. */
static void save(Space *sp, int64_t d)
{
    memcpy(sp->saved_top + d * sp->n, sp->top, (size_t)sp->n * sizeof *sp->top);
    memcpy(sp->saved_sums + d * sp->n, sp->sums, (size_t)sp->n * sizeof *sp->sums);
}

/* The search itself over a prepared work space. */
static int search_from(Space *sp, const int32_t *mem, int64_t root, int64_t start, const int64_t *n_letters,
                       int64_t floor, Boards *out, int64_t *visited, int64_t *dropped)
{
    int64_t n = sp->n;
    sp->base[start] = mem[root + POINTS];
    for (int64_t t = 0; t < mem[root + COUNT]; t++)
        if (!push(sp, mem, mem[root + KIDS + t]))
            return SEARCH_NO_MEMORY;
    if (mem[root + BOUND] < floor)
        return SEARCHED;
    int64_t d = start;
    sp->li[d] = -1;
    save(sp, d);
    sp->rest_after[d] = mem[root + BOUND] - sp->base[d] - sp->sums[d];
    int status = bucket_letters(sp, mem, d, n_letters[d]);
    while (d >= start && status == SEARCHED) {
        if (++sp->li[d] >= n_letters[d]) {
            d--;
            continue;
        }
        int64_t letter = sp->li[d], *first = sp->letter_first + d * (sp->width + 1);
        int64_t bound = sp->base[d] + sp->rest_after[d];
        for (int64_t k = first[letter]; k < first[letter + 1]; k++)
            bound += mem[sp->bucket[k] + BOUND];
        visited[d]++;
        if (bound < floor) {
            dropped[d]++;
            continue;
        }
        memcpy(sp->top, sp->saved_top + d * n, (size_t)n * sizeof *sp->top);
        memcpy(sp->sums, sp->saved_sums + d * n, (size_t)n * sizeof *sp->sums);
        int64_t points = sp->base[d];
        for (int64_t k = first[letter]; k < first[letter + 1]; k++) {
            int64_t t = sp->bucket[k];
            points += mem[t + POINTS];
            for (int64_t j = 0; j < mem[t + COUNT]; j++)
                if (!push(sp, mem, mem[t + KIDS + j]))
                    return SEARCH_NO_MEMORY;
        }
        if (d == n - 1) {
            if (!boards_room(out))
                return SEARCH_NO_MEMORY;
            int8_t *row = out->picks + out->count++ * n;
            for (int64_t p = start; p < n; p++)
                row[p] = (int8_t)sp->li[p];
            continue;
        }
        d++;
        sp->base[d] = points;
        sp->li[d] = -1;
        save(sp, d);
        sp->rest_after[d] = bound - points - sp->sums[d];
        status = bucket_letters(sp, mem, d, n_letters[d]);
    }
    return status;
}

int search(const int32_t *mem, int64_t root, int64_t start, const int64_t *n_letters, int64_t n, int64_t floor,
           Boards *out, int64_t *visited, int64_t *dropped)
{
    Space sp = {.n = n, .cap = 256, .width = 1, .bucket_size = 1024};
    for (int64_t p = 0; p < n; p++)
        if (n_letters[p] > sp.width)
            sp.width = n_letters[p];
    sp.stack = malloc((size_t)(n * sp.cap) * sizeof *sp.stack);
    sp.saved_top = malloc((size_t)((n + 1) * n) * sizeof *sp.saved_top);
    sp.saved_sums = malloc((size_t)((n + 1) * n) * sizeof *sp.saved_sums);
    sp.letter_first = calloc((size_t)(n * (sp.width + 1)), sizeof *sp.letter_first);
    sp.bucket = malloc((size_t)sp.bucket_size * sizeof *sp.bucket);
    int status = SEARCH_NO_MEMORY;
    if (sp.stack && sp.saved_top && sp.saved_sums && sp.letter_first && sp.bucket)
        status = search_from(&sp, mem, root, start, n_letters, floor, out, visited, dropped);
    free(sp.stack), free(sp.saved_top), free(sp.saved_sums), free(sp.letter_first), free(sp.bucket);
    return status;
}

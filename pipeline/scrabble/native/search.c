/* The best plays first: the strips of the board by their score bound, a full rack's plays by letter hash, the
   other plays by anchor walks cut where no strip they could still make reaches the best found so far. */
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#define ANCHORS (2 * N * N) /* anchor k = (orientation * N + line) * N + square; heap items from here on: strips */

/* A max-heap of (bound, item) pairs; ties: the smaller item first. */
typedef struct {
    double *bound;
    int64_t *item;
    int64_t n;
} Heap;

/* Whether (b1, i1) comes out of the heap before (b2, i2). */
static inline bool heap_above(double b1, int64_t i1, double b2, int64_t i2) { return b1 > b2 || (b1 == b2 && i1 < i2); }

/* Add an item to the heap. */
static void heap_push(Heap *h, double bound, int64_t item) {
    int64_t i = h->n;
    while (i > 0) {
        int64_t up = (i - 1) >> 1;
        if (h->bound[up] > bound || (h->bound[up] == bound && h->item[up] < item)) break;
        h->bound[i] = h->bound[up], h->item[i] = h->item[up];
        i = up;
    }
    h->bound[i] = bound, h->item[i] = item;
    h->n++;
}

/* Remove the top of the heap. */
static void heap_pop(Heap *h) {
    int64_t n = --h->n;
    double bound = h->bound[n];
    int64_t item = h->item[n], i = 0;
    for (;;) {
        int64_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && heap_above(h->bound[child + 1], h->item[child + 1], h->bound[child], h->item[child]))
            child++;
        if (heap_above(bound, item, h->bound[child], h->item[child])) break;
        h->bound[i] = h->bound[child], h->item[i] = h->item[child];
        i = child;
    }
    h->bound[i] = bound, h->item[i] = item;
}

/* The bounds an anchor walk from square a prunes with, from the anchor's live strips (j, then next_strip[j]...):
   reach[0][s][p] (p >= a) the best bound of the strips from s ending at or after p, reach[1][p][a] of those
   starting at or before p. */
static void anchor_reach(const Strips *strips, const double *bounds, int64_t j, const int64_t *next_strip,
                         const bool *dead, int a, Reach reach) {
    for (int s = 0; s <= a; s++)
        for (int p = a; p < N; p++) reach[0][s][p] = NO_BOUND;
    for (; j >= 0; j = next_strip[j]) {
        if (dead[j]) continue;
        int64_t s = strips->rows[j][STRIP_START];
        double b = bounds[j];
        for (int64_t p = a; p <= strips->rows[j][STRIP_END]; p++)
            if (b > reach[0][s][p]) reach[0][s][p] = b;
    }
    double best = NO_BOUND;
    for (int p = 0; p <= a; p++) {
        if (reach[0][p][a] > best) best = reach[0][p][a];
        reach[1][p][a] = best;
    }
}

/* The search's working arrays beside the strips. */
typedef struct {
    Strips strips;
    double *bounds;
    int64_t *next_strip;
    bool *dead;         /* no word of the rack and the board letters fits the strip */
    Heap heap;          /* anchors (k < ANCHORS) and full-rack strips */
    FillMemo *fill;
} Work;

/* Free the search's working arrays. */
static void free_work(Work *w) {
    free(w->strips.rows), free(w->bounds), free(w->next_strip), free(w->dead);
    free(w->heap.bound), free(w->heap.item);
    if (w->fill) free(w->fill->sub_keys);
    free(w->fill);
}

/* Drop the anchor's strips of CHECKED_TILES or more empty squares that may reach the bar but that no word fits;
   the best bound of its live strips (NO_BOUND: none). */
static double check_strips(const Tables *tab, const Position *pos, Work *w, int64_t j, int o, int line, double bar) {
    double better = NO_BOUND;
    for (; j >= 0; j = w->next_strip[j]) {
        const int64_t *strip = w->strips.rows[j];
        if (strip[STRIP_EMPTY] >= CHECKED_TILES && w->bounds[j] >= bar &&
            !may_fill(tab, pos->tiles[o][line], pos->masks[o][line], (int)strip[STRIP_START], (int)strip[STRIP_END],
                      strip[STRIP_EMPTY], w->fill))
            w->dead[j] = true;
        if (!w->dead[j] && w->bounds[j] > better) better = w->bounds[j];
    }
    return better;
}

/* The `keep` best plays (kept->keep >= 1), highest bound first until a bound falls below the bar; the strips a
   full rack covers (at most two blanks on it) are searched by full_rack_plays, the other plays by anchor walks.
   Returns the plays scored, or -1 out of memory. */
static int64_t best_plays(const Tables *tab, const Position *pos, Rack *rack, Kept *kept) {
    if (rack->tiles == 0) return 0;
    const LongWords *lw = &tab->long_words;
    Work w = {0};
    int64_t caps[2][N][N];
    square_caps(tab, pos, rack, caps);
    if (!strip_bounds(tab, pos, rack, caps, &w.strips)) goto no_memory;
    int64_t in_rack = rack->tiles, n_strips = w.strips.n;
    bool by_hash = in_rack == tab->rack_size && rack->counts[BLANK_SLOT] <= 2 && lw->n_words > 0;
    int64_t limit = by_hash ? in_rack - 1 : in_rack; /* the most tiles a walk places */
    bool checking = rack->counts[BLANK_SLOT] == 0 && lw->n_words > 0;
    size_t n_alloc = (size_t)(n_strips ? n_strips : 1);
    w.bounds = malloc(n_alloc * sizeof *w.bounds);
    w.next_strip = malloc(n_alloc * sizeof *w.next_strip);
    w.dead = calloc(n_alloc, sizeof *w.dead);
    w.heap.bound = malloc((size_t)(ANCHORS + n_strips) * sizeof *w.heap.bound);
    w.heap.item = malloc((size_t)(ANCHORS + n_strips) * sizeof *w.heap.item);
    if (!w.bounds || !w.next_strip || !w.dead || !w.heap.bound || !w.heap.item) goto no_memory;
    if (checking) {
        w.fill = calloc(1, sizeof *w.fill);
        if (!w.fill || !rack_subsets(rack, tab->letter_hash, w.fill)) goto no_memory;
    }
    double anchor_bound[ANCHORS];
    int64_t anchor_strip[ANCHORS]; /* the anchor's first strip, then by next_strip */
    bool checked[ANCHORS] = {false};
    for (int k = 0; k < ANCHORS; k++) anchor_bound[k] = NO_BOUND, anchor_strip[k] = -1;
    for (int64_t j = 0; j < n_strips; j++) w.bounds[j] = (double)w.strips.rows[j][STRIP_BOUND];
    for (int64_t j = n_strips - 1; j >= 0; j--) {
        const int64_t *strip = w.strips.rows[j];
        double b = w.bounds[j];
        if (by_hash && strip[STRIP_EMPTY] == in_rack) {
            w.dead[j] = true; /* not the walks' business */
            if (strip[STRIP_WORD]) heap_push(&w.heap, b, ANCHORS + j);
            continue;
        }
        int64_t k = (strip[STRIP_DIR] * N + strip[STRIP_LINE]) * N + strip[STRIP_ANCHOR];
        w.next_strip[j] = anchor_strip[k];
        anchor_strip[k] = j;
        if (b > anchor_bound[k]) anchor_bound[k] = b;
    }
    for (int k = 0; k < ANCHORS; k++)
        if (anchor_bound[k] != NO_BOUND) heap_push(&w.heap, anchor_bound[k], k);
    Reach reach;
    memset(reach, 0, sizeof reach);
    int64_t total = 0;
    while (w.heap.n > 0) {
        double b = w.heap.bound[0], bar = bar_of(kept);
        int64_t k = w.heap.item[0];
        if (b < bar) break;
        heap_pop(&w.heap);
        if (k >= ANCHORS) {
            const int64_t *strip = w.strips.rows[k - ANCHORS];
            total += full_rack_plays(tab, pos, (int)strip[STRIP_DIR], (int)strip[STRIP_LINE], (int)strip[STRIP_START],
                                     (int)strip[STRIP_END], rack, kept);
            continue;
        }
        int o = (int)(k / (N * N)), line = (int)(k % (N * N) / N), a = (int)(k % N);
        if (checking && !checked[k]) { /* drop the anchor's strips that no word fits, then queue it anew */
            checked[k] = true;
            double better = check_strips(tab, pos, &w, anchor_strip[k], o, line, bar);
            if (better < b) {
                if (better != NO_BOUND) heap_push(&w.heap, better, k);
                continue;
            }
        }
        anchor_reach(&w.strips, w.bounds, anchor_strip[k], w.next_strip, w.dead, a, reach);
        total += anchor_walk(tab, pos, o, line, a, rack, limit, kept, reach);
    }
    free_work(&w);
    return total;
no_memory:
    free_work(&w);
    return -1;
}

bool board_plays(const Tables *tab, const int8_t tiles[N][N], const bool blanks[N][N],
                 const int64_t rack_counts[RACK_SLOTS], Kept *kept, int64_t *total) {
    Position pos;
    position_of(tab, tiles, blanks, &pos);
    Rack rack = rack_of(rack_counts);
    *total = kept->keep == 0 ? generate_plays(tab, &pos, &rack, kept) : best_plays(tab, &pos, &rack, kept);
    return *total >= 0 && !kept->no_memory;
}

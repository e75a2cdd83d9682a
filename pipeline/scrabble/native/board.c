/* The position: both orientations, cross-checks from GADDAG walks, cross sums and anchors. */
#include "board.h"

/* The letters whose arc out of `node` ends a string, as bits. */
static int32_t accepted_letters(const uint32_t *arcs, int64_t node) {
    int32_t mask = 0;
    if (node == 0) return 0;
    for (int64_t i = node;; i++) {
        uint32_t a = arcs[i];
        int64_t t = a >> TILE_SHIFT;
        if (t > 0 && (a & ARC_ACCEPTS)) mask |= (int32_t)1 << (t - 1);
        if (a & ARC_END) break;
    }
    return mask;
}

/* Whether the tiles rows r+1..bottom of column c spell a path from `node` ending a string. */
static bool spells_below(const uint32_t *arcs, int64_t node, const Position *pos, int o, int r, int bottom, int c) {
    uint32_t last = 0;
    bool any = false;
    for (int k = r + 1; k <= bottom; k++) {
        int64_t j = arc_index(arcs, node, pos->tiles[o][k][c] + 1);
        if (j < 0) return false;
        last = arcs[j];
        any = true;
        node = last & CHILD_MASK;
    }
    return any && (last & ARC_ACCEPTS);
}

/* The letters that fit between the tiles above (top..r-1) and below (r+1..bottom): reverse(above) SEP letter
   below, each of the node's letters tried against the tiles below. */
static int32_t letters_between(const uint32_t *arcs, int64_t node, const Position *pos, int o, int r, int top,
                               int bottom, int c) {
    for (int k = r - 1; k >= top; k--) {
        int64_t i = arc_index(arcs, node, pos->tiles[o][k][c] + 1);
        if (i < 0) return 0;
        node = arcs[i] & CHILD_MASK;
    }
    int64_t i = arc_index(arcs, node, SEP);
    if (i < 0) return 0;
    node = arcs[i] & CHILD_MASK;
    if (node == 0) return 0;
    int32_t mask = 0;
    for (int64_t j = node;; j++) {
        uint32_t a = arcs[j];
        int64_t t = a >> TILE_SHIFT;
        if (t > 0) {
            if (r == bottom ? (a & ARC_ACCEPTS) != 0 : spells_below(arcs, a & CHILD_MASK, pos, o, r, bottom, c))
                mask |= (int32_t)1 << (t - 1);
        }
        if (a & ARC_END) break;
    }
    return mask;
}

/* The letters that end the tiles below (r+1..bottom) from above: the full reversal of below, then the letter. */
static int32_t letters_above(const uint32_t *arcs, int64_t node, const Position *pos, int o, int r, int bottom,
                             int c) {
    for (int k = bottom; k > r; k--) {
        int64_t i = arc_index(arcs, node, pos->tiles[o][k][c] + 1);
        if (i < 0) return 0;
        node = arcs[i] & CHILD_MASK;
    }
    return accepted_letters(arcs, node);
}

/* Set the cross-check of the empty square (r, c) of orientation o, whether it has crossing tiles, their value. */
static void cross_at(const Tables *tab, Position *pos, int o, int r, int c) {
    int top = r, bottom = r;
    while (top > 0 && pos->tiles[o][top - 1][c] >= 0) top--;
    while (bottom < N - 1 && pos->tiles[o][bottom + 1][c] >= 0) bottom++;
    if (top == r && bottom == r) {
        pos->masks[o][r][c] = (int32_t)ALL_LETTERS;
        pos->crossed[o][r][c] = false;
        pos->sums[o][r][c] = 0;
        return;
    }
    pos->crossed[o][r][c] = true;
    int64_t total = 0;
    for (int k = top; k <= bottom; k++)
        if (k != r && !pos->blanks[o][k][c]) total += tab->values[pos->tiles[o][k][c]];
    pos->sums[o][r][c] = (int32_t)total;
    int64_t root = tab->arcs[0] & CHILD_MASK;
    pos->masks[o][r][c] = top < r ? letters_between(tab->arcs, root, pos, o, r, top, bottom, c)
                                  : letters_above(tab->arcs, root, pos, o, r, bottom, c);
}

void position_of(const Tables *tab, const int8_t tiles[N][N], const bool blanks[N][N], Position *pos) {
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            pos->tiles[0][r][c] = pos->tiles[1][c][r] = tiles[r][c];
            pos->blanks[0][r][c] = pos->blanks[1][c][r] = blanks[r][c];
        }
    bool any_tile = false;
    for (int o = 0; o < 2; o++)
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++) {
                const int8_t (*tt)[N] = pos->tiles[o];
                pos->masks[o][r][c] = 0;
                pos->crossed[o][r][c] = false;
                pos->sums[o][r][c] = 0;
                pos->anchors[o][r][c] = false;
                if (tt[r][c] >= 0) {
                    any_tile = true;
                    continue;
                }
                if ((r > 0 && tt[r - 1][c] >= 0) || (r < N - 1 && tt[r + 1][c] >= 0)) {
                    cross_at(tab, pos, o, r, c);
                    pos->anchors[o][r][c] = true;
                } else {
                    pos->masks[o][r][c] = (int32_t)ALL_LETTERS;
                    pos->anchors[o][r][c] = (c > 0 && tt[r][c - 1] >= 0) || (c < N - 1 && tt[r][c + 1] >= 0);
                }
            }
    if (!any_tile) {
        pos->anchors[0][tab->centre_r][tab->centre_c] = true;
        pos->anchors[1][tab->centre_c][tab->centre_r] = true;
    }
}

/* The GADDAG walk: from an anchor square, the part of a play left of it spelled backwards, then the separator
   and the squares right of it; every play is found once, from the leftmost anchor it covers. */
#include "movegen.h"

/* One depth of a walk: its square, phase (0 left of the anchor, 1 right), GADDAG node, letter bits still to
   try (natural tiles, blanks), rack slot in use, stage, child node, and, written by the frame before it, the
   main-word sum, word multiplier, cross-word sum and tiles placed so far; and the leftmost square. */
typedef struct {
    int64_t sq, phase, node, natural, blanked, used, stage, child, main, mult, cross, placed, left;
} Frame;

Rack rack_of(const int64_t counts[RACK_SLOTS]) {
    Rack rack = {.have = 0, .tiles = counts[BLANK_SLOT]};
    for (int k = 0; k < RACK_SLOTS; k++) rack.counts[k] = counts[k];
    for (int k = 0; k < LETTERS; k++) {
        rack.tiles += counts[k];
        if (counts[k] > 0) rack.have |= INT64_C(1) << k;
    }
    return rack;
}

/* The choices of a frame at a node (its tileset word): the board tile t it must spell (natural = 1), or the
   letters it may place (the cross-check, the rack's letters, any letter when there are blanks). */
static inline void enter(int64_t tileset, int64_t t, int64_t mask, const Rack *rack, Frame *f) {
    int64_t ts = tileset >> NODE_SHIFT;
    if (t >= 0) {
        f->natural = (ts >> (t + 1)) & 1;
        f->blanked = 0;
        return;
    }
    int64_t fits = (ts >> 1) & mask;
    f->natural = fits & rack->have;
    f->blanked = rack->counts[BLANK_SLOT] > 0 ? fits : 0;
}

/* The index of the arc of `tile` (1 + letter) of the node whose tiles are ts, by the tiles before it. */
static inline int64_t arc_of(int64_t node, int64_t ts, int64_t letter) {
    return node + __builtin_popcountll((uint64_t)(ts & ((INT64_C(1) << (letter + 1)) - 1)));
}

/* Take a tile off the rack (a letter, or a blank). */
static inline void take(Rack *rack, int64_t slot) {
    rack->counts[slot]--;
    if (slot < BLANK_SLOT && rack->counts[slot] == 0) rack->have &= ~(INT64_C(1) << slot);
}

/* Put a tile back on the rack. */
static inline void put_back(Rack *rack, int64_t slot) {
    if (slot < BLANK_SLOT && rack->counts[slot] == 0) rack->have |= INT64_C(1) << slot;
    rack->counts[slot]++;
}

int64_t anchor_walk(const Tables *tab, const Position *pos, int o, int line, int a, Rack *rack, int64_t limit,
                    Kept *kept, Reach reach) {
    const int64_t *tilesets = tab->tilesets, *values = tab->values;
    const int64_t *lmul = tab->lmul[o][line], *wmul = tab->wmul[o][line];
    const int8_t *lt = pos->tiles[o][line];
    const bool *bb = pos->blanks[o][line], *crossed = pos->crossed[o][line], *anchors = pos->anchors[o][line];
    const int32_t *masks = pos->masks[o][line], *sums = pos->sums[o][line];
    int64_t root = tab->arcs[0] & CHILD_MASK;
    Frame f[N + 1];
    int64_t word[N] = {0}, blank[N] = {0}, isnew[N] = {0};
    int64_t total = 0;
    double bar = bar_of(kept);
    bool right_free = a == N - 1 || lt[a + 1] < 0;
    f[0] = (Frame){.sq = a, .phase = 0, .node = root, .used = -1, .stage = 0, .main = 0, .mult = 1, .cross = 0,
                   .placed = 0, .left = a};
    int64_t fits = (tilesets[root] >> (NODE_SHIFT + 1)) & masks[a];
    f[0].natural = fits & rack->have;
    f[0].blanked = rack->counts[BLANK_SLOT] > 0 ? fits : 0;
    int d = 0;
    while (d >= 0) {
        Frame *fd = &f[d], *fe = &f[d + 1];
        int s = (int)fd->sq;
        int64_t st = fd->stage;
        if (st == 0) { /* the next tile for square s */
            if (fd->used >= 0) {
                put_back(rack, fd->used);
                fd->used = -1;
            }
            int64_t t = lt[s], nd = fd->node, ts = tilesets[nd] >> NODE_SHIFT, ai;
            if (t >= 0) { /* a board tile: the walk must spell it */
                if (fd->natural == 0) {
                    d--;
                    continue;
                }
                fd->natural = 0;
                ai = arc_of(nd, ts, t);
                fe->main = fd->main + (bb[s] ? 0 : values[t]);
                fe->mult = fd->mult, fe->cross = fd->cross, fe->placed = fd->placed;
                word[s] = t, blank[s] = 0, isnew[s] = 0;
            } else { /* an empty square: the next letter the cross-check and the rack allow */
                int64_t letter, is_blank, slot;
                if (fd->natural != 0) {
                    letter = __builtin_ctzll((uint64_t)fd->natural);
                    fd->natural &= fd->natural - 1;
                    is_blank = 0, slot = letter;
                } else if (fd->blanked != 0) {
                    letter = __builtin_ctzll((uint64_t)fd->blanked);
                    fd->blanked &= fd->blanked - 1;
                    is_blank = 1, slot = BLANK_SLOT;
                } else {
                    d--;
                    continue;
                }
                take(rack, slot);
                fd->used = slot;
                ai = arc_of(nd, ts, letter);
                int64_t value = is_blank ? 0 : values[letter] * lmul[s], wm = wmul[s];
                fe->main = fd->main + value;
                fe->mult = fd->mult * wm;
                fe->cross = fd->cross + (crossed[s] ? (sums[s] + value) * wm : 0);
                fe->placed = fd->placed + 1;
                word[s] = letter, blank[s] = is_blank, isnew[s] = 1;
            }
            int64_t arc = tilesets[ai] & ARC_MASK;
            fd->child = arc & CHILD_MASK;
            fd->stage = st = 1;
            if (arc & ARC_ACCEPTS) {
                bool ok;
                int start, end;
                if (fd->phase == 0) {
                    ok = right_free && (s == 0 || lt[s - 1] < 0);
                    start = s, end = a;
                } else {
                    ok = s == N - 1 || lt[s + 1] < 0;
                    start = (int)fd->left, end = s;
                }
                /* (a one-tile play that also makes an across word is reported across only) */
                if (ok && !(o == 1 && fe->placed == 1 && crossed[a])) {
                    total++;
                    int64_t score = fe->main * fe->mult + fe->cross + (fe->placed == tab->rack_size ? tab->bingo : 0);
                    if ((double)score >= bar) {
                        Found play = {score, o, line, start, end - start + 1, word, blank, isnew};
                        keep_play(kept, &play);
                        bar = bar_of(kept);
                    }
                }
            }
        }
        if (st == 1) { /* go on: left while left of the anchor, else right */
            fd->stage = 2;
            int64_t c = fd->child;
            if (c == 0) {
                fd->stage = 0;
                continue;
            }
            bool spare = fe->placed < limit, go;
            int nxt;
            if (fd->phase == 0) {
                nxt = s - 1;
                go = s > 0 && (lt[nxt] >= 0 || (spare && !anchors[nxt])) && reach[1][nxt][a] >= bar;
            } else {
                nxt = s + 1;
                go = s < N - 1 && (lt[nxt] >= 0 || spare) && reach[0][fd->left][nxt] >= bar;
            }
            if (go) {
                enter(tilesets[c], lt[nxt], masks[nxt], rack, fe);
                go = fe->natural != 0 || fe->blanked != 0; /* some tile fits the next square */
            }
            if (go) {
                fe->sq = nxt, fe->phase = fd->phase, fe->node = c, fe->used = -1, fe->stage = 0;
                fe->left = fe->phase == 0 ? nxt : fd->left;
                d++;
                continue;
            }
            st = 2;
        }
        if (st == 2) { /* after the left part, SEP and the squares right of the anchor */
            fd->stage = 0;
            int64_t c = fd->child;
            if (fd->phase == 1 || a == N - 1 || (s > 0 && lt[s - 1] >= 0)) continue;
            if (((tilesets[c] >> NODE_SHIFT) & 1) == 0) continue;
            int64_t c2 = tilesets[c] & CHILD_MASK;
            int nxt = a + 1;
            if (c2 == 0 || (lt[nxt] < 0 && fe->placed >= limit)) continue;
            if (reach[0][s][nxt] < bar) continue;
            enter(tilesets[c2], lt[nxt], masks[nxt], rack, fe);
            if (fe->natural == 0 && fe->blanked == 0) continue;
            fe->sq = nxt, fe->phase = 1, fe->node = c2, fe->used = -1, fe->stage = 0, fe->left = s;
            d++;
        }
    }
    return total;
}

int64_t generate_plays(const Tables *tab, const Position *pos, Rack *rack, Kept *kept) {
    Reach open; /* no bound: every branch is walked */
    for (int i = 0; i < 2; i++)
        for (int p = 0; p < N; p++)
            for (int q = 0; q <= N; q++) open[i][p][q] = -NO_BOUND;
    int64_t total = 0;
    if (rack->tiles == 0) return 0;
    for (int o = 0; o < 2; o++)
        for (int line = 0; line < N; line++)
            for (int a = 0; a < N; a++)
                if (pos->anchors[o][line][a]) total += anchor_walk(tab, pos, o, line, a, rack, rack->tiles, kept, open);
    return total;
}

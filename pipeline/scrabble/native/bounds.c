/* The best-first search's score bounds: every strip of squares a play could cover exactly, with an upper bound
   of its plays' scores (the bingo bonus only where the rack and the strip's board letters hash to those of some
   long word). */
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#define WORD_MEMO 64 /* maybe_word's table of answers */

void square_caps(const Tables *tab, const Position *pos, const Rack *rack, int64_t caps[2][N][N]) {
    int64_t top = 0;
    for (int k = 0; k < LETTERS; k++)
        if (rack->counts[k] > 0 && tab->values[k] > top) top = tab->values[k];
    for (int o = 0; o < 2; o++)
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++) {
                caps[o][r][c] = 0;
                if (pos->tiles[o][r][c] >= 0) continue;
                if (pos->masks[o][r][c] == ALL_LETTERS) {
                    caps[o][r][c] = top;
                    continue;
                }
                int64_t bits = pos->masks[o][r][c] & rack->have, best = 0;
                while (bits) {
                    int64_t v = tab->values[__builtin_ctzll((uint64_t)bits)];
                    if (v > best) best = v;
                    bits &= bits - 1;
                }
                caps[o][r][c] = best;
            }
}

/* Whether a long word may hold the letters of hash `key` plus `blanks` blanks (more than 2 always may, and any
   letters may when the tables have no long words); answers remembered in a small open-addressing table (values 0
   empty, 1 yes, 2 no). */
static bool maybe_word(const Tables *tab, uint64_t key, int64_t blanks, uint64_t *memo_keys, int64_t *memo_values) {
    if (blanks > 2 || tab->long_words.n_words == 0) return true;
    const uint64_t *letter_hash = tab->letter_hash;
    int64_t slot = (int64_t)((key >> 40) % WORD_MEMO);
    for (int i = 0; i < WORD_MEMO; i++) {
        if (memo_values[slot] == 0) break;
        if (memo_keys[slot] == key) return memo_values[slot] == 1;
        slot = (slot + 1) % WORD_MEMO;
    }
    bool found = false;
    if (blanks == 0) {
        found = first_word(&tab->long_words, key) >= 0;
    } else if (blanks == 1) {
        for (int x = 0; x < LETTERS && !found; x++) found = first_word(&tab->long_words, key + letter_hash[x]) >= 0;
    } else {
        for (int x = 0; x < LETTERS && !found; x++)
            for (int y = x; y < LETTERS && !found; y++)
                found = first_word(&tab->long_words, key + letter_hash[x] + letter_hash[y]) >= 0;
    }
    if (memo_values[slot] == 0) {
        memo_keys[slot] = key;
        memo_values[slot] = found ? 1 : 2;
    }
    return found;
}

/* The coefficients of a strip's m empty squares (letter multiplier times the word multiplier w plus the square's
   own in a cross word), highest first. */
static void sort_coefficients(const int64_t *lm, const int64_t *xw, int64_t w, int m, int64_t *coef) {
    for (int j = 0; j < m; j++) {
        int64_t c = lm[j] * (w + xw[j]);
        int i = j;
        while (i > 0 && coef[i - 1] < c) {
            coef[i] = coef[i - 1];
            i--;
        }
        coef[i] = c;
    }
}

/* Append a strip; false when out of memory. */
static bool add_strip(Strips *out, const Strip strip) {
    if (out->n == out->cap) {
        int64_t bigger = out->cap ? 2 * out->cap : 512;
        Strip *rows = realloc(out->rows, (size_t)bigger * sizeof *rows);
        if (!rows) return false;
        out->rows = rows;
        out->cap = bigger;
    }
    memcpy(out->rows[out->n++], strip, sizeof(Strip));
    return true;
}

/* The rack's letter values, highest first (blanks left out, 0 past them). */
static void rack_values(const Tables *tab, const Rack *rack, int64_t vals[N]) {
    int k = 0;
    memset(vals, 0, N * sizeof *vals);
    for (int letter = 0; letter < LETTERS; letter++)
        for (int64_t i = 0; i < rack->counts[letter] && k < N; i++) {
            int64_t v = tab->values[letter];
            int j = k++;
            while (j > 0 && vals[j - 1] < v) {
                vals[j] = vals[j - 1];
                j--;
            }
            vals[j] = v;
        }
}

/* Per start square of a line: the empty squares up to and including the next anchor (N + 1: none). */
static void anchor_gaps(const int8_t *lt, const bool *anchors, int64_t reach[N + 1]) {
    int64_t gap = N + 1;
    reach[N] = gap;
    for (int s = N - 1; s >= 0; s--) {
        if (anchors[s]) gap = 1;
        else if (lt[s] < 0 && gap <= N) gap++;
        reach[s] = gap;
    }
}

bool strip_bounds(const Tables *tab, const Position *pos, const Rack *rack, int64_t caps[2][N][N], Strips *out) {
    const int64_t *values = tab->values;
    const uint64_t *letter_hash = tab->letter_hash;
    int64_t in_rack = rack->tiles;
    int64_t avail = rack->counts[BLANK_SLOT] > 0 ? ALL_LETTERS : rack->have;
    int64_t vals[N];
    rack_values(tab, rack, vals);
    uint64_t rack_key = 0;
    for (int letter = 0; letter < LETTERS; letter++)
        for (int64_t i = 0; i < rack->counts[letter]; i++) rack_key += letter_hash[letter];
    uint64_t memo_keys[WORD_MEMO] = {0};
    int64_t memo_values[WORD_MEMO] = {0};
    int64_t lm[N], xw[N], coef[N], cp[N], reach[N + 1];
    out->n = 0;
    for (int o = 0; o < 2; o++)
        for (int line = 0; line < N; line++) {
            const int8_t *lt = pos->tiles[o][line];
            const bool *bb = pos->blanks[o][line], *crossed = pos->crossed[o][line];
            const bool *anchors = pos->anchors[o][line];
            const int32_t *masks = pos->masks[o][line], *sums = pos->sums[o][line];
            const int64_t *lmul = tab->lmul[o][line], *wmul = tab->wmul[o][line];
            anchor_gaps(lt, anchors, reach);
            for (int s = 0; s < N; s++) {
                if ((s > 0 && lt[s - 1] >= 0) || reach[s] > in_rack) continue; /* too far from an anchor */
                int m = 0, first_anchor = -1, single = -1;
                int64_t board_sum = 0, w = 1, fixed = 0;
                uint64_t key = rack_key;
                for (int e = s; e < N; e++) {
                    int64_t t = lt[e];
                    if (t >= 0) {
                        key += letter_hash[t];
                        if (!bb[e]) board_sum += values[t];
                    } else {
                        if ((masks[e] & avail) == 0 || m == in_rack) break;
                        int64_t wm = wmul[e];
                        lm[m] = lmul[e];
                        xw[m] = crossed[e] ? wm : 0;
                        if (crossed[e]) fixed += sums[e] * wm;
                        w *= wm;
                        cp[m] = caps[o][line][e];
                        m++;
                        single = e;
                        if (first_anchor < 0 && anchors[e]) first_anchor = e;
                    }
                    if (e == s || m == 0 || first_anchor < 0 || (e < N - 1 && lt[e + 1] >= 0)) continue;
                    if (o == 1 && m == 1 && crossed[single]) continue; /* reported across */
                    sort_coefficients(lm, xw, w, m, coef);
                    int64_t base = board_sum * w + fixed;
                    bool maybe = m == tab->rack_size &&
                                 maybe_word(tab, key, rack->counts[BLANK_SLOT], memo_keys, memo_values);
                    if (maybe) base += tab->bingo;
                    int64_t bound = base, other = base;
                    for (int j = 0; j < m; j++) bound += vals[j] * coef[j];
                    for (int j = 0; j < m; j++) other += lm[j] * (w + xw[j]) * cp[j];
                    if (other < bound) bound = other;
                    Strip strip = {bound, o, line, s, e, first_anchor, m, maybe};
                    if (!add_strip(out, strip)) return false;
                }
            }
        }
    return true;
}

/* Plays found by letter hash rather than by a walk: plays of a whole full rack, looked up among the long words by
   the letter hash of the rack and a strip's board letters; and the check that some word fits a strip of many
   empty squares at all, before a walk may cover it. */
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

/* Whether a long word's row is exactly `length` letters long. */
static inline bool has_length(const int8_t *row, int length) {
    return row[length - 1] >= 0 && (length >= N || row[length] < 0);
}

/* Whether the word spells the strip's board tiles and each empty square's cross-check allows its letter;
   counts[letter] gets the letters it puts on empty squares. */
static bool word_fits(const int8_t *row, const int8_t *lt, const int32_t *masks, int s, int e, int64_t *counts) {
    memset(counts, 0, LETTERS * sizeof *counts);
    for (int j = s; j <= e; j++) {
        int64_t letter = row[j - s];
        if (lt[j] >= 0) {
            if (lt[j] != letter) return false;
        } else if (((masks[j] >> letter) & 1) == 0) {
            return false;
        } else {
            counts[letter]++;
        }
    }
    return true;
}

/* The score of the word's play with the blanks on squares j1 (and j2), each at most -1 for none: the full score
   less the value of each blanked letter on its square, in the main word and its cross word. */
static int64_t less_blanks(const Tables *tab, const Position *pos, int o, int line, const int8_t *row, int s,
                           int64_t full, int64_t w, int j1, int j2) {
    int64_t score = full;
    const int64_t *lmul = tab->lmul[o][line], *wmul = tab->wmul[o][line];
    const bool *crossed = pos->crossed[o][line];
    if (j2 >= 0) {
        int64_t v = tab->values[row[j2 - s]] * lmul[j2];
        score -= v * (w + (crossed[j2] ? wmul[j2] : 0));
    }
    if (j1 >= 0) {
        int64_t v = tab->values[row[j1 - s]] * lmul[j1];
        score -= v * (w + (crossed[j1] ? wmul[j1] : 0));
    }
    return score;
}

int64_t full_rack_plays(const Tables *tab, const Position *pos, int o, int line, int s, int e, const Rack *rack,
                        Kept *kept) {
    const int8_t *lt = pos->tiles[o][line];
    const bool *lb = pos->blanks[o][line], *crossed = pos->crossed[o][line];
    const int32_t *masks = pos->masks[o][line], *sums = pos->sums[o][line];
    const int64_t *values = tab->values, *lmul = tab->lmul[o][line], *wmul = tab->wmul[o][line];
    const uint64_t *letter_hash = tab->letter_hash;
    const LongWords *lw = &tab->long_words;
    const int64_t *have = rack->counts;
    int64_t word[N] = {0}, blank[N] = {0}, isnew[N] = {0}, count[LETTERS];
    int spots[N];
    int length = e - s + 1;
    int64_t n_blanks = have[BLANK_SLOT];
    uint64_t key = 0;
    int64_t board_main = 0, w = 1;
    for (int j = s; j <= e; j++) {
        int64_t t = lt[j];
        if (t >= 0) {
            key += letter_hash[t];
            if (!lb[j]) board_main += values[t];
        } else {
            w *= wmul[j];
        }
    }
    for (int letter = 0; letter < LETTERS; letter++)
        for (int64_t i = 0; i < have[letter]; i++) key += letter_hash[letter];
    int64_t scored = 0;
    for (int x = n_blanks > 0 ? 0 : 25; x < LETTERS; x++)
        for (int y = n_blanks > 1 ? x : 25; y < LETTERS; y++) {
            uint64_t probe = key + (n_blanks > 0 ? letter_hash[x] : 0) + (n_blanks > 1 ? letter_hash[y] : 0);
            for (int64_t i = first_word(lw, probe); 0 <= i && i < lw->n_words && lw->hashes[i] == probe; i++) {
                const int8_t *row = lw->words[i];
                if (!has_length(row, length) || !word_fits(row, lt, masks, s, e, count)) continue;
                int64_t need = 0;
                bool ok = true;
                for (int letter = 0; letter < LETTERS; letter++) {
                    int64_t extra = count[letter] - have[letter];
                    if (extra < 0) ok = false;
                    need += extra;
                }
                if (!ok || need != n_blanks) continue; /* a hash collision */
                int64_t main = board_main, cross = 0;
                int n_pos = 0;
                for (int j = s; j <= e; j++) {
                    int64_t letter = row[j - s];
                    word[j] = letter, blank[j] = 0, isnew[j] = lt[j] < 0;
                    if (lt[j] < 0) {
                        int64_t value = values[letter] * lmul[j];
                        main += value;
                        if (crossed[j]) cross += (sums[j] + value) * wmul[j];
                        if (count[letter] > have[letter]) spots[n_pos++] = j; /* a square a blank may take */
                    }
                }
                int64_t full = main * w + cross + tab->bingo;
                /* the blanks: on one or two of the candidate squares, each letter taking as many as it lacks */
                for (int p1 = 0; p1 < (n_blanks > 0 ? n_pos : 1); p1++)
                    for (int p2 = n_blanks > 1 ? p1 + 1 : 0; p2 < (n_blanks > 1 ? n_pos : 1); p2++) {
                        int j1 = -1, j2 = -1;
                        if (n_blanks > 0) {
                            j1 = spots[p1];
                            if (n_blanks > 1) {
                                j2 = spots[p2];
                                int64_t l1 = row[j1 - s], l2 = row[j2 - s];
                                if (l1 == l2 ? count[l1] - have[l1] != 2
                                             : count[l1] - have[l1] != 1 || count[l2] - have[l2] != 1)
                                    continue;
                                blank[j2] = 1;
                            }
                            blank[j1] = 1;
                        }
                        int64_t score = less_blanks(tab, pos, o, line, row, s, full, w, j1, j2);
                        scored++;
                        Found play = {score, o, line, s, length, word, blank, isnew};
                        keep_play(kept, &play);
                        if (j1 >= 0) blank[j1] = 0;
                        if (j2 >= 0) blank[j2] = 0;
                    }
            }
        }
    return scored;
}

bool rack_subsets(const Rack *rack, const uint64_t *letter_hash, FillMemo *memo) {
    int letters[LETTERS], n_letters = 0;
    int64_t total = 1;
    for (int letter = 0; letter < LETTERS; letter++)
        if (rack->counts[letter] > 0) {
            letters[n_letters++] = letter;
            total *= rack->counts[letter] + 1;
        }
    uint64_t *keys = malloc((size_t)total * sizeof *keys);
    int64_t *sizes = malloc((size_t)total * sizeof *sizes);
    memo->sub_keys = malloc((size_t)total * sizeof *memo->sub_keys);
    if (!keys || !sizes || !memo->sub_keys) {
        free(keys), free(sizes), free(memo->sub_keys);
        memo->sub_keys = NULL;
        return false;
    }
    int64_t choice[LETTERS] = {0}, size = 0;
    uint64_t key = 0;
    for (int64_t n = 0; n < total; n++) { /* every choice of counts, in mixed radix */
        keys[n] = key, sizes[n] = size;
        int i = 0;
        while (i < n_letters && choice[i] == rack->counts[letters[i]]) {
            for (int64_t k = 0; k < choice[i]; k++) key -= letter_hash[letters[i]];
            size -= choice[i];
            choice[i] = 0;
            i++;
        }
        if (i < n_letters) {
            choice[i]++;
            key += letter_hash[letters[i]];
            size++;
        }
    }
    int64_t *first = memo->sub_first, fill[N + 2];
    memset(first, 0, (N + 2) * sizeof *first);
    for (int64_t n = 0; n < total; n++) first[(sizes[n] < N ? sizes[n] : N) + 1]++;
    for (int m = 0; m <= N; m++) first[m + 1] += first[m];
    memcpy(fill, first, sizeof fill);
    for (int64_t n = 0; n < total; n++) {
        int64_t m = sizes[n] < N ? sizes[n] : N;
        memo->sub_keys[fill[m]++] = keys[n];
    }
    free(keys), free(sizes);
    return true;
}

/* Append to hits the index of the first word of each hash base + keys[first..end) among the long words; returns
   the new number of hits. The table's slots are read in one pass and the hashes they point at in another, so
   that the memory reads of one pass overlap. */
static int64_t look_up(const LongWords *lw, uint64_t base, const uint64_t *keys, int64_t first, int64_t end,
                       int64_t *hits, int64_t n_hits) {
    int64_t size = table_size(lw->n_slots);
    if (size == 0) {
        for (int64_t k = first; k < end; k++) {
            int64_t i = first_word(lw, base + keys[k]);
            if (i >= 0) hits[n_hits++] = i;
        }
        return n_hits;
    }
    uint64_t mask = (uint64_t)(size - 1);
    int64_t start = n_hits;
    for (int64_t k = first; k < end; k++) { /* each hash's first slot (0: empty, else 1 + a word) */
        uint64_t probe = base + keys[k];
        hits[start + k - first] = may_hold(lw->slots, size, probe) ? lw->slots[probe & mask] : 0;
    }
    for (int64_t k = first; k < end; k++) {
        uint64_t probe = base + keys[k];
        int64_t v = hits[start + k - first];
        if (v == 0) continue;
        int64_t i = lw->hashes[v - 1] == probe ? v - 1 : first_word(lw, probe);
        if (i >= 0) hits[n_hits++] = i;
    }
    return n_hits;
}

bool may_fill(const Tables *tab, const int8_t *lt, const int32_t *lm, int s, int e, int64_t m, FillMemo *memo) {
    const int64_t *sub_first = memo->sub_first;
    if (m > N || sub_first[m] == sub_first[m + 1]) return false;
    const LongWords *lw = &tab->long_words;
    uint64_t board_key = 0;
    for (int j = s; j <= e; j++)
        if (lt[j] >= 0) board_key += tab->letter_hash[lt[j]];
    int64_t rows = memo->memo[MEMO_ROWS][0], r = 0;
    while (r < rows && (memo->memo_keys[r] != board_key || memo->memo[r][0] != m)) r++;
    if (r == rows) { /* not looked up yet */
        int64_t n_hits = memo->memo[MEMO_ROWS][1];
        if (rows == MEMO_ROWS || n_hits + sub_first[m + 1] - sub_first[m] > MEMO_HITS) return true;
        memo->memo_keys[r] = board_key, memo->memo[r][0] = m, memo->memo[r][1] = n_hits;
        n_hits = look_up(lw, board_key, memo->sub_keys, sub_first[m], sub_first[m + 1], memo->hits, n_hits);
        memo->memo[r][2] = n_hits;
        memo->memo[MEMO_ROWS][0] = rows + 1, memo->memo[MEMO_ROWS][1] = n_hits;
    }
    int length = e - s + 1;
    for (int64_t h = memo->memo[r][1]; h < memo->memo[r][2]; h++) {
        int64_t i = memo->hits[h];
        uint64_t probe = lw->hashes[i];
        for (; i < lw->n_words && lw->hashes[i] == probe; i++) {
            const int8_t *row = lw->words[i];
            if (!has_length(row, length)) continue;
            bool ok = true;
            for (int j = s; j <= e && ok; j++) {
                int64_t letter = row[j - s];
                ok = lt[j] >= 0 ? lt[j] == letter : ((lm[j] >> letter) & 1) != 0;
            }
            if (ok) return true;
        }
    }
    return false;
}

/* Play records in the reference generator's rank order. */
#include "records.h"

#include <stdlib.h>
#include <string.h>

/* Whether the play ranks before the record: a higher score, or the same score and earlier in the reference
   generator's order (across first, then by line, start square, and letter by letter, a letter before its blank,
   a word before its extensions). */
static bool ranks_before(const Found *p, const int32_t *rec) {
    if (p->score != rec[PLAY_SCORE]) return p->score > rec[PLAY_SCORE];
    int ro = rec[PLAY_DIR];
    if (p->o != ro) return p->o < ro;
    int rline = ro == 0 ? rec[PLAY_ROW] : rec[PLAY_COL];
    if (p->line != rline) return p->line < rline;
    int rstart = ro == 0 ? rec[PLAY_COL] : rec[PLAY_ROW];
    if (p->start != rstart) return p->start < rstart;
    int rlen = rec[PLAY_LEN], rblanks = rec[PLAY_BLANKS];
    int shorter = p->length < rlen ? p->length : rlen;
    for (int k = 0; k < shorter; k++) {
        int64_t mine = 2 * p->word[p->start + k] + (p->blank[p->start + k] ? 1 : 0);
        int64_t theirs = 2 * (int64_t)rec[PLAY_LETTERS + k] + ((rblanks >> k) & 1);
        if (mine != theirs) return mine < theirs;
    }
    return p->length < rlen;
}

/* Write a play's record. */
static void write_play(int32_t *rec, const Found *p) {
    int32_t blank_mask = 0, placed_mask = 0;
    for (int k = 0; k < p->length; k++) {
        if (p->blank[p->start + k]) blank_mask |= 1 << k;
        if (p->placed[p->start + k]) placed_mask |= 1 << k;
        rec[PLAY_LETTERS + k] = (int32_t)p->word[p->start + k];
    }
    for (int k = p->length; k < N; k++) rec[PLAY_LETTERS + k] = -1;
    rec[PLAY_SCORE] = (int32_t)p->score;
    rec[PLAY_ROW] = p->o == 0 ? p->line : p->start;
    rec[PLAY_COL] = p->o == 0 ? p->start : p->line;
    rec[PLAY_DIR] = p->o;
    rec[PLAY_LEN] = p->length;
    rec[PLAY_BLANKS] = blank_mask;
    rec[PLAY_PLACED] = placed_mask;
}

/* Twice the rows (zeroed past the copied ones, as numpy's zeros); false when out of memory. */
static bool grow(Kept *kept) {
    int64_t bigger = kept->cap > 0 ? 2 * kept->cap : 256;
    Record *rows = calloc((size_t)bigger, sizeof *rows);
    if (!rows) return false;
    memcpy(rows, kept->rows, (size_t)kept->n * sizeof *rows);
    if (kept->owned) free(kept->rows);
    kept->rows = rows;
    kept->cap = bigger;
    kept->owned = true;
    return true;
}

void keep_play(Kept *kept, const Found *play) {
    int64_t j;
    if (kept->keep > 0) {
        if (kept->n == kept->keep && !ranks_before(play, kept->rows[kept->n - 1])) return;
        if (kept->n < kept->keep) j = kept->n++;
        else j = kept->keep - 1;
        while (j > 0 && ranks_before(play, kept->rows[j - 1])) {
            memcpy(kept->rows[j], kept->rows[j - 1], sizeof(Record));
            j--;
        }
    } else {
        if (kept->n == kept->cap && !grow(kept)) {
            kept->no_memory = true;
            return;
        }
        j = kept->n++;
    }
    write_play(kept->rows[j], play);
}

double bar_of(const Kept *kept) {
    if (kept->keep > 0 && kept->n == kept->keep) return (double)kept->rows[kept->keep - 1][PLAY_SCORE];
    return NO_BOUND;
}

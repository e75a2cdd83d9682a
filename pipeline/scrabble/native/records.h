/* Play records (one row of int32 each, the layout of movegen/kernels/layout.py) and the list of plays a
   generation keeps: all of them, or the `keep` best in rank order. */
#ifndef WORDSTATS_RECORDS_H
#define WORDSTATS_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "tables.h"

/* A play record: score, row, column, direction (0 across, 1 down), length of the main word, blank mask and
   placed mask (bit k: the word's k-th square holds a new blank / a new tile), then the main word's letter codes,
   -1 past its end. */
enum { PLAY_SCORE, PLAY_ROW, PLAY_COL, PLAY_DIR, PLAY_LEN, PLAY_BLANKS, PLAY_PLACED, PLAY_LETTERS };
#define RECORD (PLAY_LETTERS + N)
#define NO_BOUND (-1099511627776.0) /* -2**40: below every bound of a search */

typedef int32_t Record[RECORD];

/* The plays kept: the caller's rows, replaced by a larger copy when every play is kept and they fill up. */
typedef struct {
    Record *rows;
    int64_t cap;
    int64_t n;
    int64_t keep;     /* 0: every play; else the `keep` best */
    bool owned;       /* rows is a copy of ours, to be freed */
    bool no_memory;   /* a copy could not be made: the plays after it are lost */
} Kept;

/* A play found: its squares start..start+length-1 of a line, with per square its letter, blank and new flags. */
typedef struct {
    int64_t score;
    int o, line, start, length;
    const int64_t *word, *blank, *placed;
} Found;

/* Add a play: all of them (growing the rows) or the `keep` best in rank order. */
void keep_play(Kept *kept, const Found *play);
/* The score a play must reach to be kept: the keep-th best's once there are keep, else NO_BOUND. */
double bar_of(const Kept *kept);

#endif

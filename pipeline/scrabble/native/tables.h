/* What the move generator reads besides the position and the rack (movegen/tables.py's Tables): a lexicon's
   GADDAG with its long words, and a variant's scoring with its squares in both orientations. */
#ifndef WORDSTATS_TABLES_H
#define WORDSTATS_TABLES_H

#include <stdint.h>

#include "lexicon.h"

#define N 15                                  /* board size */
#define BLANK_SLOT 26                         /* rack counts: 26 letters, then blanks */
#define RACK_SLOTS 27
#define ALL_LETTERS ((INT64_C(1) << 26) - 1)

/* The Tables named tuple's fields, borrowed from the caller's arrays. */
typedef struct {
    const uint32_t *arcs;          /* the GADDAG's packed arcs */
    int64_t n_arcs;
    const int64_t *tilesets;       /* each arc, and a node's tiles beside its first arc */
    LongWords long_words;          /* bingos, bingo_words, bingo_slots */
    const uint64_t *letter_hash;   /* 26 */
    const int64_t *values;         /* 26 letter values */
    const int64_t (*lmul)[N][N];   /* letter multipliers, both orientations */
    const int64_t (*wmul)[N][N];   /* word multipliers, both orientations */
    int64_t centre_r, centre_c;
    int64_t bingo;                 /* the bonus for playing a full rack */
    int64_t rack_size;
} Tables;

#endif

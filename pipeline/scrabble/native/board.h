/* The position the move generator reads: a board in both orientations (index 1 transposed, so that down plays
   are across plays of it) with each empty square's cross-check, cross-word value and whether it is an anchor. */
#ifndef WORDSTATS_BOARD_H
#define WORDSTATS_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "tables.h"

typedef struct {
    int8_t tiles[2][N][N];    /* letter code, -1 empty */
    bool blanks[2][N][N];     /* a blank played as that letter */
    int32_t masks[2][N][N];   /* the letters that make a word with the tiles above and below */
    bool crossed[2][N][N];    /* whether there are such tiles */
    int32_t sums[2][N][N];    /* their value */
    bool anchors[2][N][N];    /* empty squares next to a tile (the centre on an empty board) */
} Position;

/* The position of a board (tiles: letter codes, -1 empty; blanks), cross-checks and anchors included. */
void position_of(const Tables *tab, const int8_t tiles[N][N], const bool blanks[N][N], Position *pos);

#endif

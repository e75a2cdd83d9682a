/* The move generator: GADDAG walks from anchor squares (walk.c), score bounds of the strips of squares a play
   may cover (bounds.c), plays of a full rack found by letter hash (hashed.c) and the best-first search over
   them (search.c); the numba kernels of pipeline/scrabble/movegen/kernels/, byte for byte. */
#ifndef WORDSTATS_MOVEGEN_H
#define WORDSTATS_MOVEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "records.h"
#include "tables.h"

/* A strip of strip_bounds: its score bound, orientation, line, first and last square, leftmost anchor, number
   of empty squares, and whether its board letters and the rack may make a long word. */
enum { STRIP_BOUND, STRIP_DIR, STRIP_LINE, STRIP_START, STRIP_END, STRIP_ANCHOR, STRIP_EMPTY, STRIP_WORD, STRIP };
#define CHECKED_TILES 4 /* strips of this many empty squares or more are checked by letter hash before a walk */
#define MEMO_ROWS 64    /* the board letters and tile counts whose words may_fill remembers */
#define MEMO_HITS 1024  /* the first words may_fill remembers */

typedef int64_t Strip[STRIP];

/* The strips of a position, in the order strip_bounds finds them. */
typedef struct {
    Strip *rows;
    int64_t n, cap;
} Strips;

/* The bounds an anchor walk prunes with: reach[0][s][p] the best bound of the strips from s ending at or after
   p, reach[1][p][q] of those starting at or before p and ending at or after q. */
typedef double Reach[2][N][N + 1];

/* A rack as the walks change it: 27 counts and the set of its letters as bits. */
typedef struct {
    int64_t counts[RACK_SLOTS];
    int64_t have;
    int64_t tiles;
} Rack;

/* What may_fill remembers of a search: the rack's letter multisets by size and the words looked up. */
typedef struct {
    uint64_t *sub_keys;             /* letter hashes of the rack's sub-multisets, by size */
    int64_t sub_first[N + 2];       /* those of size m at sub_first[m]..sub_first[m + 1] */
    uint64_t memo_keys[MEMO_ROWS];
    int64_t memo[MEMO_ROWS + 1][3];
    int64_t hits[MEMO_HITS];
} FillMemo;

/* The rack of 27 counts, with its letters and tile count. */
Rack rack_of(const int64_t counts[RACK_SLOTS]);

/* Every play whose leftmost anchor is square a of a line, by a GADDAG walk, kept in `kept`; branches whose
   strips cannot reach the bar are cut (reach). Returns how many plays were scored. */
int64_t anchor_walk(const Tables *tab, const Position *pos, int o, int line, int a, Rack *rack, int64_t limit,
                    Kept *kept, Reach reach);
/* Every legal play by a walk from every anchor of both orientations; returns how many there are. */
int64_t generate_plays(const Tables *tab, const Position *pos, Rack *rack, Kept *kept);

/* Per empty square of both orientations, the highest value of a rack letter its cross-check allows. */
void square_caps(const Tables *tab, const Position *pos, const Rack *rack, int64_t caps[2][N][N]);
/* Every strip a play may cover exactly, with an upper bound of its plays' scores; false when out of memory. */
bool strip_bounds(const Tables *tab, const Position *pos, const Rack *rack, int64_t caps[2][N][N], Strips *out);

/* Every play covering exactly squares s..e of a line with the whole (full) rack, found by letter hash; returns
   how many were scored. */
int64_t full_rack_plays(const Tables *tab, const Position *pos, int o, int line, int s, int e, const Rack *rack,
                        Kept *kept);
/* The rack's letter multisets (blanks left out) by size, for may_fill; false when out of memory. */
bool rack_subsets(const Rack *rack, const uint64_t *letter_hash, FillMemo *memo);
/* Whether some long word covers exactly squares s..e of a line with m of the rack's letters. */
bool may_fill(const Tables *tab, const int8_t *lt, const int32_t *lm, int s, int e, int64_t m, FillMemo *memo);

/* The plays of a board and rack: every legal one (kept->keep == 0) or the `keep` best, searched best first.
   `total` gets the number of plays scored; false when out of memory. */
bool board_plays(const Tables *tab, const int8_t tiles[N][N], const bool blanks[N][N],
                 const int64_t rack[RACK_SLOTS], Kept *kept, int64_t *total);

#endif

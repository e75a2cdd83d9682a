/* The lexicon graph: a GADDAG stored as packed uint32 arcs (as pipeline/scrabble/lexicon/kernels.py builds it),
   each node's tiles beside its first arc, word look-ups, and the long words by letter hash. */
#ifndef WORDSTATS_LEXICON_H
#define WORDSTATS_LEXICON_H

#include <stdbool.h>
#include <stdint.h>

#define CHILD_BITS 22                                 /* bits 0-21 of an arc: its child node (0 = none) */
#define CHILD_MASK ((INT64_C(1) << CHILD_BITS) - 1)
#define ARC_END (INT64_C(1) << 22)                    /* the last arc of its node */
#define ARC_ACCEPTS (INT64_C(1) << 23)                /* a string of the GADDAG ends with this arc */
#define TILE_SHIFT 24                                 /* bits 24-31: the tile, SEP or 1 + letter code */
#define SEP 0
#define NODE_SHIFT 32                                 /* a node's tiles as bits from here on, at its first arc */
#define ARC_MASK ((INT64_C(1) << 32) - 1)
#define LONGEST 15                                    /* the longest word: the board's width */
#define FILTER_BITS 8                                 /* the long words' hash table: filter bits per slot */
#define LETTERS 26

/* The long words by letter hash, as the move generator reads them (borrowed arrays). */
typedef struct {
    const uint64_t *hashes;        /* sorted letter hashes */
    const int8_t (*words)[LONGEST]; /* the words in the same order, -1 past the end */
    int64_t n_words;
    const int64_t *slots;          /* an open-addressing table of the distinct hashes, then its filter */
    int64_t n_slots;
} LongWords;

/* The long words as read_long_words makes them (owned arrays). */
typedef struct {
    uint64_t *hashes;
    int8_t (*words)[LONGEST];
    int64_t n_words;
    int64_t *slots;
    int64_t n_slots;
} WordTable;

/* The index of the arc of `node` with `tile`, or -1. */
int64_t arc_index(const uint32_t *arcs, int64_t node, int64_t tile);
/* Whether the word of letter codes is in the GADDAG (walked as its full reversal). */
bool gaddag_has(const uint32_t *arcs, int64_t n_arcs, const int64_t *codes, int64_t n);
/* Each arc widened to int64, with the tiles of its node as bits from NODE_SHIFT on at the node's first arc. */
void node_tilesets(const uint32_t *arcs, int64_t n_arcs, int64_t *out);
/* The words of at least `shortest` letters read off the GADDAG, by letter hash; 0, or -1 out of memory. */
int read_long_words(const uint32_t *arcs, int64_t n_arcs, int64_t shortest, const uint64_t *letter_hash,
                    WordTable *out);
/* Free what read_long_words made. */
void free_long_words(WordTable *table);
/* The number of hash-table slots of a long-word table (the filter's words follow them). */
int64_t table_size(int64_t n_slots);
/* Whether the table's filter lets the letter hash through (always, when the hash is in the table). */
bool may_hold(const int64_t *slots, int64_t size, uint64_t key);
/* The index of the first long word whose hash is `key`, or -1. */
int64_t first_word(const LongWords *lw, uint64_t key);

#endif

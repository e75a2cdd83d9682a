"""Every layout the move generator's kernels read, named once for the cache unit: the board, the GADDAG's packed
arc, the long-word table, the play record, the strips of the best-first search, a game's log and state, the
players' strategies and leave keys; and the position's tables.

Boards come in both orientations, index 0 as is and index 1 transposed, so that down plays are across plays of
the transposed board and every line is a contiguous row."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

N = 15  # board size
BLANK_SLOT = 26  # rack counts: 26 letters, then blanks
ALL_LETTERS = (1 << 26) - 1

# The packed arc of the GADDAG (as the lexicon's kernels build it): the child node, whether it ends its node,
# whether a string ends with it, its tile.
CHILD_MASK = (1 << 22) - 1  # bits 0-21: the child node (the index of its first arc; 0 = none)
END = 1 << 22  # the last arc of its node
ACCEPTS = 1 << 23  # a string of the GADDAG ends with this arc
TILE_SHIFT = 24  # bits 24-31: the tile, SEP or 1 + letter code
SEP = 0
# The walk reads Tables.tilesets: per arc index the arc in the low 32 bits and, at the first arc of a node, the
# node's tiles as bits from NODE_SHIFT on (bit NODE_SHIFT the separator, NODE_SHIFT + 1 + l letter l), so that
# a node's tiles and its arcs share a cache line.
ARC_MASK = (1 << 32) - 1
NODE_SHIFT = 32
FILTER_BITS = 8  # the long words' hash table: filter bits per slot (see the lexicon's long_words)

# A play record (one row of int32): score, row, column, direction (0 across, 1 down), length of the main
# word, blank mask and placed mask (bit k = the word's k-th square holds a new blank / new tile), then the
# main word's letter codes (A = 0), -1 past its end.
PLAY_SCORE, PLAY_ROW, PLAY_COL, PLAY_DIR, PLAY_LEN, PLAY_BLANKS, PLAY_PLACED, PLAY_LETTERS = range(8)
RECORD = PLAY_LETTERS + N

# A strip of strip_bounds: its score bound, orientation, line, first and last square, leftmost anchor, number
# of empty squares, and whether its board letters and the rack may make a long word (only tested when the
# strip takes a full rack).
STRIP_BOUND, STRIP_DIR, STRIP_LINE, STRIP_START, STRIP_END, STRIP_ANCHOR, STRIP_EMPTY, STRIP_WORD = range(8)
STRIP = 8
CHECKED_TILES = 4  # strips of this many empty squares or more are checked by letter hash before a walk
MEMO_ROWS = 64  # the board letters and tile counts whose words may_fill remembers

# The rows of an anchor walk's work array: per depth of the walk its square, phase (0 left of the anchor, 1
# right), GADDAG node, letter bits still to try (natural tiles, blanks), rack slot in use, stage, child node,
# main-word sum, word multiplier, cross-word sum, tiles placed and leftmost square; per square the word's letter,
# whether it is a blank and whether it is new.
W_SQ, W_PHASE, W_NODE, W_NATURAL, W_BLANKED, W_USED, W_STAGE, W_CHILD, W_MAIN, W_MULT = range(10)
W_CROSS, W_PLACED, W_LEFT, W_WORD, W_BLANK, W_NEW = range(10, 16)
WORK = 16

# A game: the kernel stops for the caller to shuffle the bag (after an exchange), at the end of the game, or for
# the caller to choose the move of a player who solves its endgame, once the bag is empty (ENDGAME: the caller
# writes the move into the turn's log row, TURN_ACTION and TURN_RECORD, and sets S_CHOSEN).
GAME_OVER, SHUFFLE, ENDGAME = 0, 1, 2
# A turn of the move log: player, action, then the play record (zero unless a play).
TURN_PLAYER, TURN_ACTION, TURN_RECORD = 0, 1, 2
TURN = TURN_RECORD + RECORD
PLAY, EXCHANGE, PASS = 0, 1, 2
# A game's state between kernel calls.
S_PLAYER, S_SCORELESS, S_TURNS, S_BAG, S_OVER, S_WENT_OUT, S_CHOSEN = range(7)
STATE = 7
# How a player chooses its move (the game's strategies): the highest score, or the highest equity (score plus
# the value of the leave) while the bag holds a full rack; EVERY_PLAY is the equity player's move found from every
# play rather than best first (the reference the best-first search is tested and measured against).
GREEDY, EQUITY, EVERY_PLAY = 0, 1, 2
SOLVES_ENDGAME = 8  # added to a kind: with the bag empty, the player's moves are the caller's (ENDGAME)
KIND = 7  # the bits of a kind without SOLVES_ENDGAME

# A leave is 27 tile counts (A-Z, then blanks); its key is the number whose base-RADIX digits are its tile
# codes + 1 in ascending order, the first tile the lowest digit (the equity wing computes the same keys).
RADIX = 28  # 27 tile codes + 1 (a digit 0 ends the key)
MAX_LEAVE = 6  # leaves of more tiles are worth 0 (a leave of 7 is a pass)
NO_PLAY = -1  # best_move's answer when an exchange (or nothing) beats every play
NO_BOUND = -float(1 << 40)  # below every bound of a search: nothing cut yet


class Position(NamedTuple):
    """A board in both orientations with what move generation reads of it: per square the tile (letter code,
    -1 empty), whether it is a blank, the cross-check (the letters that make a word with the tiles above and
    below), whether there are such tiles, their value, and whether the square is an anchor."""

    tiles: np.ndarray  # int8 (2, N, N)
    blanks: np.ndarray  # bool (2, N, N)
    masks: np.ndarray  # int32 (2, N, N)
    crossed: np.ndarray  # bool (2, N, N)
    sums: np.ndarray  # int32 (2, N, N)
    anchors: np.ndarray  # bool (2, N, N)


class Keeping(NamedTuple):
    """How a best-first search ranks the plays it keeps: by score (by_equity False; the other fields are not read),
    or by equity, score plus the value of the leave. A leave, a sub-multiset of the rack, is numbered by its counts
    of the rack's distinct tile codes `kinds` in mixed radix (the sum of count * weight); `worth` is each one's
    value, sizes its number of tiles, spent the values of the tiles placed to keep it (highest first), caps[p] the
    best value of a leave after p tiles are placed, `floor` the equity a play must reach (the best exchange's, or
    the pass's), and equity[i] that of the i-th play kept."""

    by_equity: bool
    kinds: np.ndarray  # int64 (distinct codes,)
    weights: np.ndarray  # int64 (distinct codes,)
    worth: np.ndarray  # float64 (leaves,)
    sizes: np.ndarray  # int64 (leaves,)
    spent: np.ndarray  # int64 (leaves, tiles on the rack)
    caps: np.ndarray  # float64 (N + 1,)
    floor: float
    equity: np.ndarray  # float64 (keep,)


LOSS_TOP = 4  # the best plays a measured game keeps for the losses of the words of the best (word_losses)


class Found(NamedTuple):
    """What a measured game writes (kernels/losses.py): per row the turn, a word the turn's best play formed (its
    letter codes, -1 past the end) and the loss of not knowing it; written[0] is the number of rows. A game with no
    rows to write (zero of them) is not measured."""

    turns: np.ndarray  # int64 (rows,)
    words: np.ndarray  # int8 (rows, N)
    losses: np.ndarray  # float64 (rows,)
    written: np.ndarray  # int64 (1,)

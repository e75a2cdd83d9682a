"""What not knowing a word costs a turn, in the kernels (playability/losses.py: the definition and the slow
references): the words a play forms, whether another play forms a word, and each word's loss from the best plays
an equity search kept, or from every play when all the kept ones form it."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.layout import (
    EXCHANGE,
    PASS,
    PLAY,
    PLAY_COL,
    PLAY_DIR,
    PLAY_LEN,
    PLAY_LETTERS,
    PLAY_PLACED,
    PLAY_ROW,
    PLAY_SCORE,
    RECORD,
    N,
)
from pipeline.scrabble.movegen.kernels.leaves import rack_keeping, take_tiles
from pipeline.scrabble.movegen.kernels.search import search
from pipeline.scrabble.movegen.kernels.walk import generate_plays, leave_index


@njit(cache=True, inline="always")
def cross_run(tiles, o, line, sq):
    """The first and last square of the cross word through square sq of a line (orientation o): the run of
    tiles across it in the other orientation."""
    row = tiles[1 - o, sq]
    top, bottom = line, line
    while top > 0 and row[top - 1] >= 0:
        top -= 1
    while bottom < N - 1 and row[bottom + 1] >= 0:
        bottom += 1
    return top, bottom


@njit(cache=True)
def record_words(pos, rec, words, lengths):
    """The distinct words a play record forms on the position (its main word and each cross word), as letter
    codes in the rows of `words` (-1 past the end) with their lengths; returns how many."""
    o, length, placed = rec[PLAY_DIR], rec[PLAY_LEN], rec[PLAY_PLACED]
    line = rec[PLAY_ROW] if o == 0 else rec[PLAY_COL]
    start = rec[PLAY_COL] if o == 0 else rec[PLAY_ROW]
    words[:, :] = -1
    for k in range(length):
        words[0, k] = rec[PLAY_LETTERS + k]
    lengths[0] = length
    n = 1
    for k in range(length):
        sq = start + k
        if (placed >> k) & 1 == 0 or not pos.crossed[o, line, sq]:
            continue
        top, bottom = cross_run(pos.tiles, o, line, sq)
        for c in range(top, bottom + 1):
            words[n, c - top] = rec[PLAY_LETTERS + k] if c == line else pos.tiles[1 - o, sq, c]
        lengths[n] = bottom - top + 1
        same = False
        for j in range(n):
            if lengths[j] == lengths[n] and np.array_equal(words[j, : lengths[n]], words[n, : lengths[n]]):
                same = True
        if same:
            words[n, :] = -1
        else:
            n += 1
    return n


@njit(cache=True)
def forms(pos, rec, word, length):
    """Whether a play record forms the word (letter codes, `length` of them) on the position."""
    o, n, placed = rec[PLAY_DIR], rec[PLAY_LEN], rec[PLAY_PLACED]
    if n == length:
        k = 0
        while k < n and rec[PLAY_LETTERS + k] == word[k]:
            k += 1
        if k == n:
            return True
    line = rec[PLAY_ROW] if o == 0 else rec[PLAY_COL]
    start = rec[PLAY_COL] if o == 0 else rec[PLAY_ROW]
    for k in range(n):
        sq = start + k
        if (placed >> k) & 1 == 0 or not pos.crossed[o, line, sq]:
            continue
        top, bottom = cross_run(pos.tiles, o, line, sq)
        if bottom - top + 1 != length:
            continue
        c = top
        while c <= bottom and (rec[PLAY_LETTERS + k] if c == line else pos.tiles[1 - o, sq, c]) == word[c - top]:
            c += 1
        if c > bottom:
            return True
    return False


@njit(cache=True)
def best_without(tab, pos, rack, word, length, keeping, every, n_every, left):
    """The best equity of a play of every play (`every`, n_every of them) that does not form the word, from
    keeping.floor up (rack: the player's; left: scratch of 27 counts)."""
    alt = keeping.floor
    for i in range(n_every):
        left[:] = rack
        take_tiles(every[i], left)
        value = every[i, PLAY_SCORE] + keeping.worth[leave_index(left, keeping)]
        if value > alt and not forms(pos, every[i], word, length):
            alt = value
    return alt


@njit(cache=True)
def word_losses(tab, pos, rack, top, n, keeping, found, turn):
    """Write to `found` the loss of each word the best play top[0] forms: its equity less the best equity of a
    move forming no such word (the first of the kept plays that does not form it, else the floor when fewer
    than all were kept, else the best of every play that does not form it)."""
    words = np.full((N + 1, N), -1, dtype=np.int8)
    lengths = np.zeros(N + 1, dtype=np.int64)
    n_words = record_words(pos, top[0], words, lengths)
    every = np.zeros((0, RECORD), dtype=np.int32)
    n_every = -1
    left = np.zeros(27, dtype=np.int64)
    for j in range(n_words):
        alt, settled = keeping.floor, n < top.shape[0]
        for i in range(1, n):
            if keeping.equity[i] <= alt:
                settled = True
                break
            if not forms(pos, top[i], words[j], lengths[j]):
                alt, settled = keeping.equity[i], True
                break
        if not settled:  # every kept play forms the word: the best of the others, from every play
            if n_every < 0:
                every, n_every, _ = generate_plays(tab, pos, rack, np.int64(0), np.zeros((256, RECORD), dtype=np.int32))
            alt = best_without(tab, pos, rack, words[j], lengths[j], keeping, every, n_every, left)
        row = found.written[0]
        found.turns[row] = turn
        found.words[row, :] = words[j]
        found.losses[row] = keeping.equity[0] - alt
        found.written[0] = row + 1


@njit(cache=True)
def measured_move(tab, pos, keys, values, rack, bag_n, top, kept, gone, found, turn):
    """An equity player's move, as choose_move makes it (by equity while the bag holds a full rack, else by score
    alone), from the best plays it keeps in `top`; for a play, the loss of each word it forms is written to
    `found` (word_losses). Returns the action and the play's record."""
    gone[:] = 0
    if bag_n >= tab.rack_size:
        keeping = rack_keeping(rack, keys, values, tab.values, top.shape[0], kept)
    else:  # no leave counts, the pass is the floor
        keeping = rack_keeping(rack, keys[:0], values[:0], tab.values, top.shape[0], kept)
    top, n, _ = search(tab, pos, rack, top.shape[0], top, keeping)
    if n == 0:
        if bag_n >= tab.rack_size:
            gone[:] = rack - kept
            return EXCHANGE, top[0].copy()
        return PASS, top[0].copy()
    word_losses(tab, pos, rack, top, n, keeping, found, turn)
    return PLAY, top[0].copy()

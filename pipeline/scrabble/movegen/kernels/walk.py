"""The GADDAG walk of the move generator: from an anchor square, the part of a play left of it spelled backwards,
then the separator and the squares right of it; every play is found once, from the leftmost anchor it covers.
Plays are kept as play records, all of them or the best few in rank order."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.bits import lowest, popcount
from pipeline.scrabble.movegen.kernels.layout import (
    ACCEPTS,
    ARC_MASK,
    BLANK_SLOT,
    CHILD_MASK,
    NODE_SHIFT,
    PLAY_BLANKS,
    PLAY_COL,
    PLAY_DIR,
    PLAY_LEN,
    PLAY_LETTERS,
    PLAY_PLACED,
    PLAY_ROW,
    PLAY_SCORE,
    W_BLANK,
    W_BLANKED,
    W_CHILD,
    W_CROSS,
    W_LEFT,
    W_MAIN,
    W_MULT,
    W_NATURAL,
    W_NEW,
    W_NODE,
    W_PHASE,
    W_PLACED,
    W_SQ,
    W_STAGE,
    W_USED,
    W_WORD,
    WORK,
    N,
)


@njit(cache=True, inline="always")
def before(score, o, line, start, length, word, blank, rec):
    """Whether the play (score, orientation, line, start and its squares' letters) ranks before the
    record: a higher score, or the same score and earlier in the reference generator's order (across
    first, then by line, start square, and letter by letter, a letter before its blank, a word before
    its extensions)."""
    if score != rec[PLAY_SCORE]:
        return score > rec[PLAY_SCORE]
    ro = rec[PLAY_DIR]
    if o != ro:
        return o < ro
    rline = rec[PLAY_ROW] if ro == 0 else rec[PLAY_COL]
    if line != rline:
        return line < rline
    rstart = rec[PLAY_COL] if ro == 0 else rec[PLAY_ROW]
    if start != rstart:
        return start < rstart
    rlen = rec[PLAY_LEN]
    rblanks = rec[PLAY_BLANKS]
    for k in range(min(length, rlen)):
        mine = 2 * word[start + k] + (1 if blank[start + k] else 0)
        theirs = 2 * rec[PLAY_LETTERS + k] + ((rblanks >> k) & 1)
        if mine != theirs:
            return mine < theirs
    return length < rlen


@njit(cache=True)
def keep_play(out, n_out, keep, score, o, line, start, length, word, blank, new):
    """Add a play record: all of them (keep = 0, growing `out`) or the `keep` best in rank order."""
    if keep > 0:
        if n_out == keep and not before(score, o, line, start, length, word, blank, out[n_out - 1]):
            return out, n_out
        if n_out < keep:
            j = n_out
            n_out += 1
        else:
            j = keep - 1
        while j > 0 and before(score, o, line, start, length, word, blank, out[j - 1]):
            out[j, :] = out[j - 1, :]
            j -= 1
    else:
        if n_out == out.shape[0]:
            bigger = np.zeros((2 * out.shape[0], out.shape[1]), dtype=np.int32)
            bigger[:n_out, :] = out[:n_out, :]
            out = bigger
        j = n_out
        n_out += 1
    blank_mask, placed_mask = 0, 0
    for k in range(length):
        if blank[start + k]:
            blank_mask |= 1 << k
        if new[start + k]:
            placed_mask |= 1 << k
        out[j, PLAY_LETTERS + k] = word[start + k]
    for k in range(length, N):
        out[j, PLAY_LETTERS + k] = -1
    out[j, PLAY_SCORE] = score
    out[j, PLAY_ROW] = line if o == 0 else start
    out[j, PLAY_COL] = start if o == 0 else line
    out[j, PLAY_DIR] = o
    out[j, PLAY_LEN] = length
    out[j, PLAY_BLANKS] = blank_mask
    out[j, PLAY_PLACED] = placed_mask
    return out, n_out


@njit(cache=True)
def rack_facts(rack):
    """The number of tiles on a rack and the set of its letters as bits."""
    in_rack = rack[BLANK_SLOT]
    have = 0
    for k in range(26):
        in_rack += rack[k]
        if rack[k] > 0:
            have |= 1 << k
    return in_rack, have


@njit(cache=True, inline="always")
def enter(tileset, t, mask, have, blanks):
    """The choices of a frame at a GADDAG node (its tileset word): the board tile t it must spell, or the
    letters it may place (the cross-check mask, the rack's letters `have`, any letter when `blanks`), as the
    (natural, blanked) letter bits. Takes no arrays, so that the walk's loop moves no reference counts."""
    ts = tileset >> NODE_SHIFT
    if t >= 0:
        return (ts >> (t + 1)) & 1, 0
    fits = (ts >> 1) & mask
    return fits & have, (fits if blanks else 0)


@njit(cache=True)
def walk_tables(tab):
    """The parts of the Tables an anchor walk reads: the GADDAG's root node, the bingo bonus, the rack size,
    the tilesets, letter values and letter and word multipliers."""
    return tab.arcs[0] & CHILD_MASK, tab.bingo, tab.rack_size, tab.tilesets, tab.values, tab.lmul, tab.wmul


@njit(cache=True)
def board_tables(pos):
    """The parts of the Position an anchor walk reads: tiles, blanks, cross-checks, crossed flags, cross sums
    and anchors."""
    return pos.tiles, pos.blanks, pos.masks, pos.crossed, pos.sums, pos.anchors


@njit(cache=True, inline="always")
def anchor_walk(game, board, o, line, a, rack, have, in_rack, keep, out, n_out, work, reach):
    """Every play whose leftmost anchor is square a of a line, by a GADDAG walk (the left part backwards from
    a while the squares are free of anchors, SEP, then rightwards), kept as in keep_play. Once the keep best
    are found (keep > 0), a branch stops when the score bound of every strip it could still make cannot
    reach the keep-th best: reach[0, s, p] bounds the strips from s ending at or after p, reach[1, p, q]
    those starting at or before p and ending at or after q. Returns the records, their number, and how
    many plays were scored. `game` and `board` are the few parts of the Tables and the Position it reads
    (walk_tables, board_tables), taken once per search rather than once per anchor."""
    root, bingo, rack_size, tilesets, values, lmul, wmul = game
    tiles, bb, masks, crossed, sums, anchors = board
    lt = tiles[o, line]
    total = 0
    right_free = a == N - 1 or lt[a + 1] < 0
    d = 0
    work[W_SQ, 0], work[W_PHASE, 0], work[W_NODE, 0], work[W_USED, 0], work[W_STAGE, 0] = a, 0, root, -1, 0
    work[W_MAIN, 0], work[W_MULT, 0], work[W_CROSS, 0], work[W_PLACED, 0], work[W_LEFT, 0] = 0, 1, 0, 0, a
    fits = (tilesets[root] >> (NODE_SHIFT + 1)) & masks[o, line, a]
    work[W_NATURAL, 0] = fits & have
    work[W_BLANKED, 0] = fits if rack[BLANK_SLOT] > 0 else 0
    while d >= 0:
        s = work[W_SQ, d]
        st = work[W_STAGE, d]
        e = d + 1
        if st == 0:  # the next tile for square s
            slot = work[W_USED, d]
            if slot >= 0:
                if rack[slot] == 0 and slot < BLANK_SLOT:
                    have |= 1 << slot
                rack[slot] += 1
                work[W_USED, d] = -1
            t = lt[s]
            nd = work[W_NODE, d]
            ts = tilesets[nd] >> NODE_SHIFT
            if t >= 0:  # a board tile: the walk must spell it
                if work[W_NATURAL, d] == 0:
                    d -= 1
                    continue
                work[W_NATURAL, d] = 0
                ai = nd + popcount(ts & ((1 << (t + 1)) - 1))
                work[W_MAIN, e] = work[W_MAIN, d] + (0 if bb[o, line, s] else values[t])
                work[W_MULT, e], work[W_CROSS, e], work[W_PLACED, e] = (
                    work[W_MULT, d],
                    work[W_CROSS, d],
                    work[W_PLACED, d],
                )
                work[W_WORD, s], work[W_BLANK, s], work[W_NEW, s] = t, 0, 0
            else:  # an empty square: the next letter the cross-check and the rack allow
                if work[W_NATURAL, d] != 0:
                    bits = work[W_NATURAL, d]
                    letter = lowest(bits)
                    work[W_NATURAL, d] = bits & (bits - 1)
                    is_blank = 0
                    slot = letter
                    rack[slot] -= 1
                    if rack[slot] == 0:
                        have &= ~(1 << slot)
                elif work[W_BLANKED, d] != 0:
                    bits = work[W_BLANKED, d]
                    letter = lowest(bits)
                    work[W_BLANKED, d] = bits & (bits - 1)
                    is_blank = 1
                    slot = BLANK_SLOT
                    rack[slot] -= 1
                else:
                    d -= 1
                    continue
                work[W_USED, d] = slot
                ai = nd + popcount(ts & ((1 << (letter + 1)) - 1))
                value = 0 if is_blank else values[letter] * lmul[o, line, s]
                wm = wmul[o, line, s]
                work[W_MAIN, e] = work[W_MAIN, d] + value
                work[W_MULT, e] = work[W_MULT, d] * wm
                work[W_CROSS, e] = work[W_CROSS, d] + ((sums[o, line, s] + value) * wm if crossed[o, line, s] else 0)
                work[W_PLACED, e] = work[W_PLACED, d] + 1
                work[W_WORD, s], work[W_BLANK, s], work[W_NEW, s] = letter, is_blank, 1
            arc = tilesets[ai] & ARC_MASK
            work[W_CHILD, d] = arc & CHILD_MASK
            work[W_STAGE, d] = 1
            st = 1
            if arc & ACCEPTS:
                if work[W_PHASE, d] == 0:
                    ok = right_free and (s == 0 or lt[s - 1] < 0)
                    start, end = s, a
                else:
                    ok = s == N - 1 or lt[s + 1] < 0
                    start, end = work[W_LEFT, d], s
                if ok and not (o == 1 and work[W_PLACED, e] == 1 and crossed[o, line, a]):
                    # (a one-tile play that also makes an across word is reported across only)
                    total += 1
                    score = (
                        work[W_MAIN, e] * work[W_MULT, e]
                        + work[W_CROSS, e]
                        + (bingo if work[W_PLACED, e] == rack_size else 0)
                    )
                    if keep == 0 or n_out < keep or score >= out[keep - 1, PLAY_SCORE]:  # else keep_play drops it
                        out, n_out = keep_play(
                            out,
                            n_out,
                            keep,
                            score,
                            o,
                            line,
                            start,
                            end - start + 1,
                            work[W_WORD],
                            work[W_BLANK],
                            work[W_NEW],
                        )
        if st == 1:  # go on: left while left of the anchor, else right
            work[W_STAGE, d] = 2
            c = work[W_CHILD, d]
            if c == 0:
                work[W_STAGE, d] = 0
                continue
            spare = work[W_PLACED, e] < in_rack
            if work[W_PHASE, d] == 0:
                nxt = s - 1
                go = s > 0 and (lt[nxt] >= 0 or (spare and not anchors[o, line, nxt]))
                if go and keep > 0 and n_out == keep:
                    target = out[keep - 1, PLAY_SCORE]
                    go = reach[1, nxt, a] >= target
            else:
                nxt = s + 1
                go = s < N - 1 and (lt[nxt] >= 0 or spare)
                if go and keep > 0 and n_out == keep:
                    target = out[keep - 1, PLAY_SCORE]
                    go = reach[0, work[W_LEFT, d], nxt] >= target
            if go:
                work[W_NATURAL, e], work[W_BLANKED, e] = enter(
                    tilesets[c], lt[nxt], masks[o, line, nxt], have, rack[BLANK_SLOT] > 0
                )
                go = work[W_NATURAL, e] != 0 or work[W_BLANKED, e] != 0  # some tile fits the next square
            if go:
                d = e
                work[W_SQ, d], work[W_PHASE, d], work[W_NODE, d], work[W_USED, d], work[W_STAGE, d] = (
                    nxt,
                    work[W_PHASE, d - 1],
                    c,
                    -1,
                    0,
                )
                work[W_LEFT, d] = nxt if work[W_PHASE, d] == 0 else work[W_LEFT, d - 1]
                continue
            st = 2
        if st == 2:  # after the left part, SEP and the squares right of the anchor
            work[W_STAGE, d] = 0
            c = work[W_CHILD, d]
            if work[W_PHASE, d] == 1 or a == N - 1 or (s > 0 and lt[s - 1] >= 0):
                continue
            if (tilesets[c] >> NODE_SHIFT) & 1 == 0:
                continue
            c2 = tilesets[c] & CHILD_MASK
            nxt = a + 1
            if c2 == 0 or (lt[nxt] < 0 and work[W_PLACED, e] >= in_rack):
                continue
            if keep > 0 and n_out == keep:
                target = out[keep - 1, PLAY_SCORE]
                if reach[0, s, nxt] < target:
                    continue
            work[W_NATURAL, e], work[W_BLANKED, e] = enter(
                tilesets[c2], lt[nxt], masks[o, line, nxt], have, rack[BLANK_SLOT] > 0
            )
            if work[W_NATURAL, e] == 0 and work[W_BLANKED, e] == 0:
                continue
            d = e
            work[W_SQ, d], work[W_PHASE, d], work[W_NODE, d], work[W_USED, d], work[W_STAGE, d] = nxt, 1, c2, -1, 0
            work[W_LEFT, d] = s
    return out, n_out, total


@njit(cache=True)
def generate_plays(tab, pos, rack, keep, out):
    """Every legal play (keep = 0) or the `keep` best (rank order: see before), by a GADDAG walk from
    every anchor of both orientations; returns the records, how many there are, and the number of legal
    plays. `rack` (27 counts) is used as scratch and restored."""
    in_rack, have = rack_facts(rack)
    n_out, total = 0, 0
    if in_rack == 0:
        return out, 0, 0
    work = np.zeros((WORK, N + 1), dtype=np.int64)
    reach = np.full((2, N, N + 1), 1 << 40, dtype=np.int64)  # no bound: every branch is walked
    game, board = walk_tables(tab), board_tables(pos)
    for o in range(2):
        for line in range(N):
            for a in range(N):
                if pos.anchors[o, line, a]:
                    out, n_out, count = anchor_walk(
                        game, board, o, line, a, rack, have, in_rack, keep, out, n_out, work, reach
                    )
                    total += count
    return out, n_out, total

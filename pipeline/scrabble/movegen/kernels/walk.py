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
    NO_BOUND,
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
    Keeping,
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
    write_play(out[j], score, o, line, start, length, word, blank, new)
    return out, n_out


@njit(cache=True, inline="always")
def ranks_before(value, score, o, line, start, length, word, blank, rec_value, rec):
    """Whether a play of equity `value` ranks before a kept record of equity rec_value: a higher equity, or the same
    and before it by score and the generator's order (see before)."""
    if value != rec_value:
        return value > rec_value
    return before(score, o, line, start, length, word, blank, rec)


@njit(cache=True)
def keep_ranked(out, n_out, keep, value, score, o, line, start, length, word, blank, new, equity):
    """Add a play of equity `value` to the `keep` best by equity (rank order: ranks_before), their equities in
    `equity`."""
    if n_out == keep and not ranks_before(
        value, score, o, line, start, length, word, blank, equity[n_out - 1], out[n_out - 1]
    ):
        return out, n_out
    if n_out < keep:
        j = n_out
        n_out += 1
    else:
        j = keep - 1
    while j > 0 and ranks_before(value, score, o, line, start, length, word, blank, equity[j - 1], out[j - 1]):
        out[j, :] = out[j - 1, :]
        equity[j] = equity[j - 1]
        j -= 1
    write_play(out[j], score, o, line, start, length, word, blank, new)
    equity[j] = value
    return out, n_out


@njit(cache=True, inline="always")
def write_play(rec, score, o, line, start, length, word, blank, new):
    """Write a play's record (the squares start..start+length-1 of `word`, `blank` and `new`)."""
    blank_mask, placed_mask = 0, 0
    for k in range(length):
        if blank[start + k]:
            blank_mask |= 1 << k
        if new[start + k]:
            placed_mask |= 1 << k
        rec[PLAY_LETTERS + k] = word[start + k]
    for k in range(length, N):
        rec[PLAY_LETTERS + k] = -1
    rec[PLAY_SCORE] = score
    rec[PLAY_ROW] = line if o == 0 else start
    rec[PLAY_COL] = start if o == 0 else line
    rec[PLAY_DIR] = o
    rec[PLAY_LEN] = length
    rec[PLAY_BLANKS] = blank_mask
    rec[PLAY_PLACED] = placed_mask


@njit(cache=True)
def by_score():
    """The Keeping of a search by score alone."""
    none, no_codes = np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.int64)
    return Keeping(False, no_codes, no_codes, none, no_codes, np.zeros((0, 0), dtype=np.int64), none, 0.0, none)


@njit(cache=True, inline="always")
def bar_of(out, n_out, keep, keeping):
    """The bound a branch must reach to add a play to those kept: the keep-th best's score or equity once there
    are keep, else the floor (by equity) or nothing (by score)."""
    if keeping.by_equity:
        return keeping.equity[keep - 1] if n_out == keep else keeping.floor
    if keep > 0 and n_out == keep:
        return float(out[keep - 1, PLAY_SCORE])
    return NO_BOUND


@njit(cache=True, inline="always")
def leave_index(rack, keeping):
    """The number of the leave on `rack` among the sub-multisets of the rack (Keeping)."""
    at = 0
    for k in range(keeping.kinds.shape[0]):
        at += rack[keeping.kinds[k]] * keeping.weights[k]
    return at


@njit(cache=True, inline="always")
def keep_found(out, n_out, keep, score, o, line, start, length, word, blank, new, rack, placed, keeping, bar):
    """Keep a play found by a walk (its tiles off `rack`, which holds its leave) by score or by equity, if it can
    reach the bar; returns the records, their number and the new bar."""
    if keeping.by_equity:
        if score + keeping.caps[placed] < bar:
            return out, n_out, bar
        value = score + keeping.worth[leave_index(rack, keeping)]
        if value < bar:
            return out, n_out, bar
        out, n_out = keep_ranked(
            out, n_out, keep, value, score, o, line, start, length, word, blank, new, keeping.equity
        )
    else:
        if score < bar:
            return out, n_out, bar
        out, n_out = keep_play(out, n_out, keep, score, o, line, start, length, word, blank, new)
    return out, n_out, bar_of(out, n_out, keep, keeping)


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
def anchor_walk(game, board, o, line, a, rack, have, in_rack, keep, out, n_out, work, reach, keeping):
    """Every play whose leftmost anchor is square a of a line, by a GADDAG walk (the left part backwards from
    a while the squares are free of anchors, SEP, then rightwards), kept by score as in keep_play or by equity
    as in keep_ranked (`keeping`). A branch stops when the bound of every strip it could still make cannot
    reach the bar (bar_of: the keep-th best's score or equity, or the floor): reach[0, s, p] bounds the strips
    from s ending at or after p, reach[1, p, q] those starting at or before p and ending at or after q
    (float64; scores, or equities by the best leave). Returns the records, their number, and how many plays
    were scored. `game` and `board` are the few parts of the Tables and the Position it reads
    (walk_tables, board_tables), taken once per search rather than once per anchor."""
    root, bingo, rack_size, tilesets, values, lmul, wmul = game
    tiles, bb, masks, crossed, sums, anchors = board
    lt = tiles[o, line]
    by_equity, caps = keeping.by_equity, keeping.caps
    total = 0
    bar = bar_of(out, n_out, keep, keeping)
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
                    if score + (caps[work[W_PLACED, e]] if by_equity else 0.0) >= bar:  # else not kept:
                        # checked before keep_found, whose array arguments move reference counts
                        out, n_out, bar = keep_found(
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
                            rack,
                            work[W_PLACED, e],
                            keeping,
                            bar,
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
                go = go and reach[1, nxt, a] >= bar
            else:
                nxt = s + 1
                go = s < N - 1 and (lt[nxt] >= 0 or spare)
                go = go and reach[0, work[W_LEFT, d], nxt] >= bar
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
            if reach[0, s, nxt] < bar:
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
    n_out, total = np.int64(0), np.int64(0)
    if in_rack == 0:
        return out, 0, 0
    work = np.zeros((WORK, N + 1), dtype=np.int64)
    reach = np.full((2, N, N + 1), -NO_BOUND, dtype=np.float64)  # no bound: every branch is walked
    game, board, keeping = walk_tables(tab), board_tables(pos), by_score()
    for o in range(2):
        for line in range(N):
            for a in range(N):
                if pos.anchors[o, line, a]:
                    out, n_out, count = anchor_walk(
                        game, board, o, line, a, rack, have, in_rack, keep, out, n_out, work, reach, keeping
                    )
                    total += count
    return out, n_out, total

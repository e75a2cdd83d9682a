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
def enter(d, nd, t, mask, tilesets, rack, have, natural, blanked):
    """Set up the choices of a frame: the board tile it must spell, or the letters it may place."""
    ts = tilesets[nd] >> NODE_SHIFT
    if t >= 0:
        natural[d] = (ts >> (t + 1)) & 1
        blanked[d] = 0
    else:
        fits = (ts >> 1) & mask
        natural[d] = fits & have
        blanked[d] = fits if rack[BLANK_SLOT] > 0 else 0


@njit(cache=True)
def anchor_walk(tab, pos, o, line, a, rack, have, in_rack, keep, out, n_out, work, reach):
    """Every play whose leftmost anchor is square a of a line, by a GADDAG walk (the left part backwards from
    a while the squares are free of anchors, SEP, then rightwards), kept as in keep_play. Once the keep best
    are found (keep > 0), a branch stops when the score bound of every strip it could still make cannot
    reach the keep-th best: reach[0, s, p] bounds the strips from s ending at or after p, reach[1, p, q]
    those starting at or before p and ending at or after q. Returns the records, their number, and how
    many plays were scored."""
    sq, phase, node, natural, blanked, used, stage, child, main, mult, cross, placed, left = (
        work[0],
        work[1],
        work[2],
        work[3],
        work[4],
        work[5],
        work[6],
        work[7],
        work[8],
        work[9],
        work[10],
        work[11],
        work[12],
    )
    word, blank, new = work[13], work[14], work[15]
    arcs, tilesets, values, lmul, wmul = tab.arcs, tab.tilesets, tab.values, tab.lmul, tab.wmul
    bingo, rack_size = tab.bingo, tab.rack_size
    lt, bb, masks, crossed, sums, anchors = (
        pos.tiles[o, line],
        pos.blanks,
        pos.masks,
        pos.crossed,
        pos.sums,
        pos.anchors,
    )
    root = arcs[0] & CHILD_MASK
    total = 0
    right_free = a == N - 1 or lt[a + 1] < 0
    d = 0
    sq[0], phase[0], node[0], used[0], stage[0] = a, 0, root, -1, 0
    main[0], mult[0], cross[0], placed[0], left[0] = 0, 1, 0, 0, a
    fits = (tilesets[root] >> (NODE_SHIFT + 1)) & masks[o, line, a]
    natural[0] = fits & have
    blanked[0] = fits if rack[BLANK_SLOT] > 0 else 0
    while d >= 0:
        s = sq[d]
        st = stage[d]
        e = d + 1
        if st == 0:  # the next tile for square s
            slot = used[d]
            if slot >= 0:
                if rack[slot] == 0 and slot < BLANK_SLOT:
                    have |= 1 << slot
                rack[slot] += 1
                used[d] = -1
            t = lt[s]
            nd = node[d]
            ts = tilesets[nd] >> NODE_SHIFT
            if t >= 0:  # a board tile: the walk must spell it
                if natural[d] == 0:
                    d -= 1
                    continue
                natural[d] = 0
                ai = nd + popcount(ts & ((1 << (t + 1)) - 1))
                main[e] = main[d] + (0 if bb[o, line, s] else values[t])
                mult[e], cross[e], placed[e] = mult[d], cross[d], placed[d]
                word[s], blank[s], new[s] = t, 0, 0
            else:  # an empty square: the next letter the cross-check and the rack allow
                if natural[d] != 0:
                    bits = natural[d]
                    letter = lowest(bits)
                    natural[d] = bits & (bits - 1)
                    is_blank = 0
                    slot = letter
                    rack[slot] -= 1
                    if rack[slot] == 0:
                        have &= ~(1 << slot)
                elif blanked[d] != 0:
                    bits = blanked[d]
                    letter = lowest(bits)
                    blanked[d] = bits & (bits - 1)
                    is_blank = 1
                    slot = BLANK_SLOT
                    rack[slot] -= 1
                else:
                    d -= 1
                    continue
                used[d] = slot
                ai = nd + popcount(ts & ((1 << (letter + 1)) - 1))
                value = 0 if is_blank else values[letter] * lmul[o, line, s]
                wm = wmul[o, line, s]
                main[e] = main[d] + value
                mult[e] = mult[d] * wm
                cross[e] = cross[d] + ((sums[o, line, s] + value) * wm if crossed[o, line, s] else 0)
                placed[e] = placed[d] + 1
                word[s], blank[s], new[s] = letter, is_blank, 1
            arc = tilesets[ai] & ARC_MASK
            child[d] = arc & CHILD_MASK
            stage[d] = 1
            st = 1
            if arc & ACCEPTS:
                if phase[d] == 0:
                    ok = right_free and (s == 0 or lt[s - 1] < 0)
                    start, end = s, a
                else:
                    ok = s == N - 1 or lt[s + 1] < 0
                    start, end = left[d], s
                if ok and not (o == 1 and placed[e] == 1 and crossed[o, line, a]):
                    # (a one-tile play that also makes an across word is reported across only)
                    total += 1
                    score = main[e] * mult[e] + cross[e] + (bingo if placed[e] == rack_size else 0)
                    if keep == 0 or n_out < keep or score >= out[keep - 1, PLAY_SCORE]:  # else keep_play drops it
                        out, n_out = keep_play(
                            out, n_out, keep, score, o, line, start, end - start + 1, word, blank, new
                        )
        if st == 1:  # go on: left while left of the anchor, else right
            stage[d] = 2
            c = child[d]
            if c == 0:
                stage[d] = 0
                continue
            spare = placed[e] < in_rack
            if phase[d] == 0:
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
                    go = reach[0, left[d], nxt] >= target
            if go:
                enter(e, c, lt[nxt], masks[o, line, nxt], tilesets, rack, have, natural, blanked)
                go = natural[e] != 0 or blanked[e] != 0  # some tile fits the next square
            if go:
                d = e
                sq[d], phase[d], node[d], used[d], stage[d] = nxt, phase[d - 1], c, -1, 0
                left[d] = nxt if phase[d] == 0 else left[d - 1]
                continue
            st = 2
        if st == 2:  # after the left part, SEP and the squares right of the anchor
            stage[d] = 0
            c = child[d]
            if phase[d] == 1 or a == N - 1 or (s > 0 and lt[s - 1] >= 0):
                continue
            if (tilesets[c] >> NODE_SHIFT) & 1 == 0:
                continue
            c2 = tilesets[c] & CHILD_MASK
            nxt = a + 1
            if c2 == 0 or (lt[nxt] < 0 and placed[e] >= in_rack):
                continue
            if keep > 0 and n_out == keep:
                target = out[keep - 1, PLAY_SCORE]
                if reach[0, s, nxt] < target:
                    continue
            enter(e, c2, lt[nxt], masks[o, line, nxt], tilesets, rack, have, natural, blanked)
            if natural[e] == 0 and blanked[e] == 0:
                continue
            d = e
            sq[d], phase[d], node[d], used[d], stage[d] = nxt, 1, c2, -1, 0
            left[d] = s
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
    work = np.zeros((16, N + 1), dtype=np.int64)
    reach = np.full((2, N, N + 1), 1 << 40, dtype=np.int64)  # no bound: every branch is walked
    for o in range(2):
        for line in range(N):
            for a in range(N):
                if pos.anchors[o, line, a]:
                    out, n_out, count = anchor_walk(
                        tab, pos, o, line, a, rack, have, in_rack, keep, out, n_out, work, reach
                    )
                    total += count
    return out, n_out, total

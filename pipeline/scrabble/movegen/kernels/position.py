"""The position the move generator reads: a board in both orientations with each empty square's cross-check,
cross-word value and whether it is an anchor; built once per board, updated around a play's new tiles."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.bits import arc
from pipeline.scrabble.movegen.kernels.layout import (
    ACCEPTS,
    ALL_LETTERS,
    CHILD_MASK,
    END,
    PLAY_BLANKS,
    PLAY_COL,
    PLAY_DIR,
    PLAY_LEN,
    PLAY_LETTERS,
    PLAY_PLACED,
    PLAY_ROW,
    SEP,
    TILE_SHIFT,
    N,
    Position,
)


@njit(cache=True, inline="always")
def cross_at(tab, pos, o, r, c):
    """Set the cross-check of the empty square (r, c) of orientation o: the letters that make a word with
    the tiles above and below it, whether there are such tiles, and their value."""
    arcs, tiles, blanks, masks = tab.arcs, pos.tiles, pos.blanks, pos.masks
    top, bottom = r, r
    while top > 0 and tiles[o, top - 1, c] >= 0:
        top -= 1
    while bottom < N - 1 and tiles[o, bottom + 1, c] >= 0:
        bottom += 1
    if top == r and bottom == r:
        masks[o, r, c] = ALL_LETTERS
        pos.crossed[o, r, c] = False
        pos.sums[o, r, c] = 0
        return
    pos.crossed[o, r, c] = True
    total = 0
    for k in range(top, bottom + 1):
        if k != r and not blanks[o, k, c]:
            total += tab.values[tiles[o, k, c]]
    pos.sums[o, r, c] = total
    mask = 0
    node = arcs[0] & CHILD_MASK
    if top < r:  # reverse(above) SEP letter below
        for k in range(r - 1, top - 1, -1):
            i = arc(arcs, node, tiles[o, k, c] + 1)
            if i < 0:
                masks[o, r, c] = 0
                return
            node = arcs[i] & CHILD_MASK
        i = arc(arcs, node, SEP)
        if i < 0:
            masks[o, r, c] = 0
            return
        node = arcs[i] & CHILD_MASK
        if node != 0:
            i = node
            while True:
                a = arcs[i]
                t = a >> TILE_SHIFT
                if t > 0:
                    ok = True
                    last = a
                    nd = a & CHILD_MASK
                    for k in range(r + 1, bottom + 1):
                        j = arc(arcs, nd, tiles[o, k, c] + 1)
                        if j < 0:
                            ok = False
                            break
                        last = arcs[j]
                        nd = last & CHILD_MASK
                    if ok and last & ACCEPTS:
                        mask |= 1 << (t - 1)
                if a & END:
                    break
                i += 1
    else:  # reverse(below) then the letter, a full reversal
        for k in range(bottom, r, -1):
            i = arc(arcs, node, tiles[o, k, c] + 1)
            if i < 0:
                masks[o, r, c] = 0
                return
            node = arcs[i] & CHILD_MASK
        if node != 0:
            i = node
            while True:
                a = arcs[i]
                t = a >> TILE_SHIFT
                if t > 0 and a & ACCEPTS:
                    mask |= 1 << (t - 1)
                if a & END:
                    break
                i += 1
    masks[o, r, c] = mask


@njit(cache=True)
def position_tables(tab, tiles, blanks):
    """The Position of a board (tiles: int8 (N, N) letter codes, -1 empty; blanks: bool (N, N)): both
    orientations, cross-checks, crossed flags, cross sums and anchors (empty squares next to a tile; on an
    empty board, the centre)."""
    pos = Position(
        np.empty((2, N, N), dtype=np.int8),
        np.empty((2, N, N), dtype=np.bool_),
        np.zeros((2, N, N), dtype=np.int32),
        np.zeros((2, N, N), dtype=np.bool_),
        np.zeros((2, N, N), dtype=np.int32),
        np.zeros((2, N, N), dtype=np.bool_),
    )
    tt, bb, masks, anchors = pos.tiles, pos.blanks, pos.masks, pos.anchors
    for r in range(N):
        for c in range(N):
            tt[0, r, c] = tiles[r, c]
            tt[1, c, r] = tiles[r, c]
            bb[0, r, c] = blanks[r, c]
            bb[1, c, r] = blanks[r, c]
    any_tile = False
    for o in range(2):
        for r in range(N):
            for c in range(N):
                if tt[o, r, c] >= 0:
                    any_tile = True
                    continue
                if (r > 0 and tt[o, r - 1, c] >= 0) or (r < N - 1 and tt[o, r + 1, c] >= 0):
                    cross_at(tab, pos, o, r, c)
                    anchors[o, r, c] = True
                else:  # no crossing word: the call is left out, as it costs more than the few stores
                    masks[o, r, c] = ALL_LETTERS
                    anchors[o, r, c] = (c > 0 and tt[o, r, c - 1] >= 0) or (c < N - 1 and tt[o, r, c + 1] >= 0)
    if not any_tile:
        anchors[0, tab.centre_r, tab.centre_c] = True
        anchors[1, tab.centre_c, tab.centre_r] = True
    return pos


@njit(cache=True)
def refresh(tab, pos, o, r, c):
    """Recompute the cross-checks of the empty squares at both ends of the run of tiles through (r, c)
    in orientation o (the run across the orientation's lines)."""
    tt = pos.tiles
    top, bottom = r, r
    while top > 0 and tt[o, top - 1, c] >= 0:
        top -= 1
    while bottom < N - 1 and tt[o, bottom + 1, c] >= 0:
        bottom += 1
    if top > 0:
        cross_at(tab, pos, o, top - 1, c)
    if bottom < N - 1:
        cross_at(tab, pos, o, bottom + 1, c)


@njit(cache=True)
def place(tab, pos, rec):
    """Put a play record's new tiles on the board (both orientations) and update cross-checks and anchors."""
    tt, bb, anchors = pos.tiles, pos.blanks, pos.anchors
    o, length = rec[PLAY_DIR], rec[PLAY_LEN]
    line = rec[PLAY_ROW] if o == 0 else rec[PLAY_COL]
    start = rec[PLAY_COL] if o == 0 else rec[PLAY_ROW]
    for k in range(length):
        if (rec[PLAY_PLACED] >> k) & 1:
            r, c = (line, start + k) if o == 0 else (start + k, line)
            letter = rec[PLAY_LETTERS + k]
            is_blank = (rec[PLAY_BLANKS] >> k) & 1 == 1
            tt[0, r, c] = letter
            tt[1, c, r] = letter
            bb[0, r, c] = is_blank
            bb[1, c, r] = is_blank
            anchors[0, r, c] = False
            anchors[1, c, r] = False
    along = True  # the run along the play is the same for each new tile: its ends are refreshed once
    for k in range(length):
        if (rec[PLAY_PLACED] >> k) & 1:
            r, c = (line, start + k) if o == 0 else (start + k, line)
            if o == 0 or along:
                refresh(tab, pos, 0, r, c)
            if o == 1 or along:
                refresh(tab, pos, 1, c, r)
            along = False
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < N and 0 <= cc < N and tt[0, rr, cc] < 0:
                    anchors[0, rr, cc] = True
                    anchors[1, cc, rr] = True

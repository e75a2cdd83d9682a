"""The reference move generator's kernels (numba): Appel and Jacobson's left parts and right extensions over a
trie, cross-checks and anchors; the slow, plain generator the GADDAG engine is checked against."""

from __future__ import annotations

import numpy as np
from numba import njit

# A play record (one row of int32): score, row, column, direction (0 across, 1 down), length of the
# main word, blank mask and placed mask (bit k = the word's k-th square holds a new blank / new tile),
# then the main word's letter codes (A = 0).
PLAY_SCORE, PLAY_ROW, PLAY_COL, PLAY_DIR, PLAY_LEN, PLAY_BLANKS, PLAY_PLACED, PLAY_LETTERS = range(8)
BLANK_SLOT = 26  # rack counts: 26 letters, then blanks


@njit(cache=True)
def cross_checks(tiles, blanks, children, word_at, values):
    """Per empty square: letters that make a word with the tiles above and below, whether there are any,
    and the value of those tiles."""
    n = tiles.shape[0]
    masks = np.zeros((n, n), dtype=np.int32)
    crossed = np.zeros((n, n), dtype=np.bool_)
    sums = np.zeros((n, n), dtype=np.int32)
    for r in range(n):
        for c in range(n):
            if tiles[r, c] >= 0:
                continue
            top, bottom = r, r
            while top > 0 and tiles[top - 1, c] >= 0:
                top -= 1
            while bottom < n - 1 and tiles[bottom + 1, c] >= 0:
                bottom += 1
            if top == r and bottom == r:
                masks[r, c] = (1 << 26) - 1
                continue
            crossed[r, c] = True
            total = 0
            for k in range(top, bottom + 1):
                if k != r and not blanks[k, c]:
                    total += values[tiles[k, c]]
            sums[r, c] = total
            node = 0
            for k in range(top, r):
                node = children[node, tiles[k, c]]
                if node < 0:
                    break
            if node < 0:
                continue
            mask = 0
            for letter in range(26):
                nd = children[node, letter]
                k = r + 1
                while nd >= 0 and k <= bottom:
                    nd = children[nd, tiles[k, c]]
                    k += 1
                if nd >= 0 and word_at[nd] >= 0:
                    mask |= 1 << letter
            masks[r, c] = mask
    return masks, crossed, sums


@njit(cache=True)
def anchor_squares(tiles, centre_r, centre_c):
    """Empty squares next to a tile; on an empty board, the centre."""
    n = tiles.shape[0]
    anchors = np.zeros((n, n), dtype=np.bool_)
    any_tile = False
    for r in range(n):
        for c in range(n):
            if tiles[r, c] >= 0:
                any_tile = True
                continue
            if (
                (r > 0 and tiles[r - 1, c] >= 0)
                or (r < n - 1 and tiles[r + 1, c] >= 0)
                or (c > 0 and tiles[r, c - 1] >= 0)
                or (c < n - 1 and tiles[r, c + 1] >= 0)
            ):
                anchors[r, c] = True
    if not any_tile:
        anchors[centre_r, centre_c] = True
    return anchors


@njit(cache=True)
def _keep_play(out, n_out, keep, score, row, col, direction, length, blank_mask, placed_mask, letters):
    """Add a play record: all of them (keep = 0, growing `out`) or the `keep` best, earliest first on ties."""
    if keep > 0:
        if n_out == keep and score <= out[n_out - 1, PLAY_SCORE]:
            return out, n_out
        if n_out < keep:
            j = n_out
            n_out += 1
        else:
            j = keep - 1
        while j > 0 and out[j - 1, PLAY_SCORE] < score:
            out[j, :] = out[j - 1, :]
            j -= 1
    else:
        if n_out == out.shape[0]:
            bigger = np.zeros((2 * out.shape[0], out.shape[1]), dtype=np.int32)
            bigger[:n_out, :] = out[:n_out, :]
            out = bigger
        j = n_out
        n_out += 1
    out[j, PLAY_SCORE] = score
    out[j, PLAY_ROW] = row
    out[j, PLAY_COL] = col
    out[j, PLAY_DIR] = direction
    out[j, PLAY_LEN] = length
    out[j, PLAY_BLANKS] = blank_mask
    out[j, PLAY_PLACED] = placed_mask
    for k in range(out.shape[1] - PLAY_LETTERS):
        out[j, PLAY_LETTERS + k] = letters[k] if k < length else -1
    return out, n_out


@njit(cache=True)
def _line_plays(
    line,
    direction,
    tiles,
    blanks,
    lmul,
    wmul,
    anchors,
    masks,
    crossed,
    sums,
    rack,
    children,
    word_at,
    values,
    bingo,
    rack_size,
    keep,
    out,
    n_out,
):
    """Every play along one line (a row of the oriented board), by a left-to-right walk of the trie from
    each start square (Appel & Jacobson's left parts and right extensions in one pass); returns the
    records and how many plays there were."""
    n = tiles.shape[1]
    lt, lb = tiles[line], blanks[line]
    in_rack = 0
    for k in range(rack.shape[0]):
        in_rack += rack[k]
    letters = np.zeros(n, dtype=np.int32)
    node = np.zeros(n + 1, dtype=np.int32)
    choice = np.zeros(n + 1, dtype=np.int32)
    used = np.full(n + 1, -1, dtype=np.int32)
    main = np.zeros(n + 1, dtype=np.int32)  # main word's letter score so far
    mult = np.ones(n + 1, dtype=np.int32)  # main word's word multiplier so far
    cross = np.zeros(n + 1, dtype=np.int32)  # cross-words' scores so far
    placed = np.zeros(n + 1, dtype=np.int32)
    covered = np.zeros(n + 1, dtype=np.bool_)  # an anchor square got a tile
    first_crossed = np.zeros(n + 1, dtype=np.bool_)  # the first new tile makes a cross-word
    blank_mask = np.zeros(n + 1, dtype=np.int32)
    placed_mask = np.zeros(n + 1, dtype=np.int32)
    count = 0
    for start in range(n):
        if start > 0 and lt[start - 1] >= 0:
            continue  # a word starts after an empty square or the edge
        need, k, reachable = 0, start, False
        while k < n:  # rack tiles needed to reach the first anchor
            if lt[k] < 0:
                need += 1
                if anchors[line, k]:
                    reachable = True
                    break
            k += 1
        if not reachable or need > in_rack:
            continue
        d = 0
        node[0], choice[0], used[0] = 0, 0, -1
        main[0], mult[0], cross[0], placed[0] = 0, 1, 0, 0
        covered[0], first_crossed[0], blank_mask[0], placed_mask[0] = False, False, 0, 0
        while d >= 0:
            if used[d] >= 0:  # back from the deeper square: the tile placed here returns to the rack
                rack[used[d]] += 1
                used[d] = -1
            i = start + d
            if i >= n:
                d -= 1
                continue
            e = d + 1
            if lt[i] >= 0:  # a board tile: the word must go through it
                if choice[d] != 0:
                    d -= 1
                    continue
                choice[d] = 1
                letter = lt[i]
                child = children[node[d], letter]
                if child < 0:
                    d -= 1
                    continue
                main[e] = main[d] + (0 if lb[i] else values[letter])
                mult[e], cross[e], placed[e] = mult[d], cross[d], placed[d]
                covered[e], first_crossed[e] = covered[d], first_crossed[d]
                blank_mask[e], placed_mask[e] = blank_mask[d], placed_mask[d]
            else:  # an empty square: the next rack tile (or blank) that the trie and cross-check allow
                k = choice[d]
                allowed = masks[line, i]
                child, letter, is_blank = -1, 0, 0
                while k < 52:
                    letter, is_blank = k >> 1, k & 1
                    k += 1
                    if (allowed >> letter) & 1 == 0:
                        k += 1 - is_blank
                        continue
                    if rack[BLANK_SLOT if is_blank else letter] == 0:
                        continue
                    child = children[node[d], letter]
                    if child >= 0:
                        break
                    k += 1 - is_blank
                choice[d] = k
                if child < 0:
                    d -= 1
                    continue
                slot = BLANK_SLOT if is_blank else letter
                rack[slot] -= 1
                used[d] = slot
                value = 0 if is_blank else values[letter] * lmul[line, i]
                mult[e] = mult[d] * wmul[line, i]
                main[e] = main[d] + value
                cross[e] = cross[d] + ((sums[line, i] + value) * wmul[line, i] if crossed[line, i] else 0)
                placed[e] = placed[d] + 1
                covered[e] = covered[d] or anchors[line, i]
                first_crossed[e] = first_crossed[d] if placed[d] > 0 else crossed[line, i]
                blank_mask[e] = blank_mask[d] | (is_blank << d)
                placed_mask[e] = placed_mask[d] | (1 << d)
            letters[d] = letter
            node[e] = child
            if (
                e >= 2
                and placed[e] > 0
                and covered[e]
                and word_at[child] >= 0
                and (i + 1 == n or lt[i + 1] < 0)
                and not (direction == 1 and placed[e] == 1 and first_crossed[e])
            ):
                # (a one-tile play that also makes an across word is reported across only)
                count += 1
                score = main[e] * mult[e] + cross[e] + (bingo if placed[e] == rack_size else 0)
                row, col = (line, start) if direction == 0 else (start, line)
                out, n_out = _keep_play(
                    out, n_out, keep, score, row, col, direction, e, blank_mask[e], placed_mask[e], letters
                )
            choice[e], used[e] = 0, -1
            d = e
    return out, n_out, count


@njit(cache=True)
def scrabble_plays(
    tiles, blanks, rack, children, word_at, values, lmul, wmul, centre_r, centre_c, bingo, rack_size, keep
):
    """Every legal play for a board and rack (keep = 0) or the `keep` best, and the number of legal plays.

    tiles: int8 (n, n) letter codes, -1 empty; blanks: bool (n, n); rack: int32 (27,) counts, blanks last;
    values: int32 (26,); lmul, wmul: int32 (n, n) letter and word multipliers of the squares."""
    n = tiles.shape[0]
    out = np.zeros((keep if keep > 0 else 256, PLAY_LETTERS + n), dtype=np.int32)
    n_out, total = 0, 0
    work = rack.copy()
    for direction in range(2):
        if direction == 0:
            t, b, lm, wm = tiles, blanks, lmul, wmul
            cr, cc = centre_r, centre_c
        else:
            t, b = np.ascontiguousarray(tiles.T), np.ascontiguousarray(blanks.T)
            lm, wm = np.ascontiguousarray(lmul.T), np.ascontiguousarray(wmul.T)
            cr, cc = centre_c, centre_r
        masks, crossed, sums = cross_checks(t, b, children, word_at, values)
        anchors = anchor_squares(t, cr, cc)
        for line in range(n):
            out, n_out, count = _line_plays(
                line,
                direction,
                t,
                b,
                lm,
                wm,
                anchors,
                masks,
                crossed,
                sums,
                work,
                children,
                word_at,
                values,
                bingo,
                rack_size,
                keep,
                out,
                n_out,
            )
            total += count
    return out[:n_out], total

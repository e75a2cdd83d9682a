"""The best-first search's score bounds: every strip of squares a play could cover exactly, with an upper bound of
the score of its plays (the bingo bonus only where the rack and the strip's board letters hash to those of some
long word)."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.bits import first_word, lowest
from pipeline.scrabble.movegen.kernels.layout import (
    ALL_LETTERS,
    BLANK_SLOT,
    NO_BOUND,
    STRIP,
    STRIP_ANCHOR,
    STRIP_BOUND,
    STRIP_DIR,
    STRIP_EMPTY,
    STRIP_END,
    STRIP_LINE,
    STRIP_START,
    STRIP_WORD,
    N,
)


@njit(cache=True)
def square_caps(tab, pos, rack):
    """Per empty square of both orientations, the highest value of a rack letter its cross-check allows
    (a blank scores 0)."""
    tt, masks, values = pos.tiles, pos.masks, tab.values
    caps = np.zeros((2, N, N), dtype=np.int64)
    have, top = 0, 0
    for k in range(26):
        if rack[k] > 0:
            have |= 1 << k
            top = max(top, values[k])
    for o in range(2):
        for r in range(N):
            for c in range(N):
                if tt[o, r, c] >= 0:
                    continue
                if masks[o, r, c] == ALL_LETTERS:
                    caps[o, r, c] = top
                    continue
                bits = masks[o, r, c] & have
                best = 0
                while bits:
                    v = values[lowest(bits)]
                    if v > best:
                        best = v
                    bits &= bits - 1
                caps[o, r, c] = best
    return caps


@njit(cache=True, inline="always")
def maybe_word(tab, key, blanks, memo_keys, memo_values):
    """Whether a word may hold the letters whose hash is `key` plus `blanks` (0 to 2) blanks; more blanks
    are always allowed (tab.bingos: the sorted letter hashes of the long words); answers are
    remembered in the small open-addressing table memo_keys / memo_values (0: empty). Without long words (tables
    made without word maps) any letters may: the bound keeps the bingo bonus."""
    if blanks > 2 or tab.bingos.shape[0] == 0:
        return True
    bingos, slots, letter_hash = tab.bingos, tab.bingo_slots, tab.letter_hash
    size = memo_keys.shape[0]
    slot = np.int64((key >> np.uint64(40)) % np.uint64(size))
    for _ in range(size):
        if memo_values[slot] == 0:
            break
        if memo_keys[slot] == key:
            return memo_values[slot] == 1
        slot = (slot + 1) % size
    found = False
    if blanks == 0:
        found = first_word(bingos, slots, key) >= 0
    elif blanks == 1:
        for x in range(26):
            if first_word(bingos, slots, key + letter_hash[x]) >= 0:
                found = True
                break
    else:
        for x in range(26):
            for y in range(x, 26):
                if first_word(bingos, slots, key + letter_hash[x] + letter_hash[y]) >= 0:
                    found = True
                    break
            if found:
                break
    if memo_values[slot] == 0:
        memo_keys[slot] = key
        memo_values[slot] = 1 if found else 2
    return found


@njit(cache=True, inline="always")
def sort_coefficients(lm, xw, w, m, coef):
    """The coefficients of a strip's m empty squares (letter multiplier times the word multiplier w plus the
    square's own in a cross word, xw) into coef, highest first (insertion sort)."""
    for j in range(m):
        c = lm[j] * (w + xw[j])
        i = j
        while i > 0 and coef[i - 1] < c:
            coef[i] = coef[i - 1]
            i -= 1
        coef[i] = c


@njit(cache=True)
def strip_bounds(tab, pos, rack, caps):
    """Every strip (squares s..e of a line that a play may cover exactly: edges free, 1 to rack-size empty
    squares each allowing some rack tile, an anchor among them) with an upper bound of its plays' scores:
    the board tiles and cross sums as they are, and the least of the rack's highest values on the best
    squares and each square's best allowed rack letter; the bingo bonus only where the rack and the strip's
    board letters may make a word (their letter hash is among tab.bingos, the hashes of the long words).
    Returns an (n, STRIP) int64 array (STRIP_*: bound, orientation, line, s, e, leftmost anchor, empty
    squares, whether the bingo test passed)."""
    tt, bb, masks, crossed, sums, anchors = pos.tiles, pos.blanks, pos.masks, pos.crossed, pos.sums, pos.anchors
    values, lmul, wmul, letter_hash = tab.values, tab.lmul, tab.wmul, tab.letter_hash
    in_rack = 0
    have = 0
    for k in range(26):
        in_rack += rack[k]
        if rack[k] > 0:
            have |= 1 << k
    in_rack += rack[BLANK_SLOT]
    avail = ALL_LETTERS if rack[BLANK_SLOT] > 0 else have
    vals = np.zeros(N, dtype=np.int64)  # rack values, highest first
    k = 0
    for letter in range(26):
        for _ in range(rack[letter]):
            vals[k] = values[letter]
            k += 1
    vals[:k] = np.sort(vals[:k])[::-1]
    rack_key = np.uint64(0)
    for letter in range(26):
        for _ in range(rack[letter]):
            rack_key += letter_hash[letter]
    out = np.empty((512, STRIP), dtype=np.int64)
    n_out = 0
    memo_keys = np.zeros(64, dtype=np.uint64)
    memo_values = np.zeros(64, dtype=np.int64)
    lm = np.zeros(N, dtype=np.int64)
    xw = np.zeros(N, dtype=np.int64)
    coef = np.zeros(N, dtype=np.int64)
    cp = np.zeros(N, dtype=np.int64)
    reach = np.empty(N + 1, dtype=np.int64)  # per start square: the empty squares up to the next anchor
    for o in range(2):
        for line in range(N):
            lt = tt[o, line]
            gap = N + 1  # no anchor from here on
            reach[N] = gap
            for s in range(N - 1, -1, -1):
                if anchors[o, line, s]:
                    gap = 1
                elif lt[s] < 0 and gap <= N:
                    gap += 1
                reach[s] = gap
            for s in range(N):
                if (s > 0 and lt[s - 1] >= 0) or reach[s] > in_rack:
                    continue  # (a strip from s would take more tiles than the rack holds to reach an anchor)
                m, board_sum, w, fixed, first_anchor, single = 0, 0, 1, 0, -1, -1
                key = rack_key
                for e in range(s, N):
                    t = lt[e]
                    if t >= 0:
                        key += letter_hash[t]
                        if not bb[o, line, e]:
                            board_sum += values[t]
                    else:
                        if masks[o, line, e] & avail == 0 or m == in_rack:
                            break
                        wm = wmul[o, line, e]
                        lm[m] = lmul[o, line, e]
                        xw[m] = wm if crossed[o, line, e] else 0
                        if crossed[o, line, e]:
                            fixed += sums[o, line, e] * wm
                        w *= wm
                        cp[m] = caps[o, line, e]
                        m += 1
                        single = e
                        if first_anchor < 0 and anchors[o, line, e]:
                            first_anchor = e
                    if e == s or m == 0 or first_anchor < 0 or (e < N - 1 and lt[e + 1] >= 0):
                        continue
                    if o == 1 and m == 1 and crossed[o, line, single]:
                        continue  # a one-tile play that makes an across word is reported across
                    sort_coefficients(lm, xw, w, m, coef)
                    base = board_sum * w + fixed
                    maybe = m == tab.rack_size and maybe_word(tab, key, rack[BLANK_SLOT], memo_keys, memo_values)
                    if maybe:
                        base += tab.bingo
                    bound = base
                    for j in range(m):
                        bound += vals[j] * coef[j]
                    other = base
                    for j in range(m):
                        other += lm[j] * (w + xw[j]) * cp[j]
                    if other < bound:
                        bound = other
                    if n_out == out.shape[0]:
                        bigger = np.empty((2 * n_out, STRIP), dtype=np.int64)
                        bigger[:n_out] = out
                        out = bigger
                    out[n_out, STRIP_BOUND], out[n_out, STRIP_DIR], out[n_out, STRIP_LINE] = bound, o, line
                    out[n_out, STRIP_START], out[n_out, STRIP_END], out[n_out, STRIP_ANCHOR] = s, e, first_anchor
                    out[n_out, STRIP_EMPTY], out[n_out, STRIP_WORD] = m, maybe
                    n_out += 1
    return out[:n_out]


@njit(cache=True)
def equity_bound(tab, pos, strip, keeping, held, scratch):
    """An upper bound of the equity of a strip's plays (strip: a row of strip_bounds; keeping: by equity, of a
    rack of `held` tiles), tighter than its score bound plus the best leave: over each leave its plays can keep,
    the values of the tiles they place on the strip's best coefficients (at most the strip's score bound) plus
    the leave's value. `scratch`: three int64 rows of N."""
    o, line, s, e = strip[STRIP_DIR], strip[STRIP_LINE], strip[STRIP_START], strip[STRIP_END]
    tt, bb, values = pos.tiles[o, line], pos.blanks[o, line], tab.values
    lm, xw, coef = scratch[0], scratch[1], scratch[2]
    board_sum, w, fixed, m = 0, 1, 0, 0
    for sq in range(s, e + 1):
        t = tt[sq]
        if t >= 0:
            if not bb[sq]:
                board_sum += values[t]
        else:
            wm = tab.wmul[o, line, sq]
            lm[m] = tab.lmul[o, line, sq]
            xw[m] = wm if pos.crossed[o, line, sq] else 0
            if pos.crossed[o, line, sq]:
                fixed += pos.sums[o, line, sq] * wm
            w *= wm
            m += 1
    sort_coefficients(lm, xw, w, m, coef)
    base = board_sum * w + fixed + (tab.bingo if strip[STRIP_WORD] else 0)
    best = NO_BOUND
    for at in range(keeping.worth.shape[0]):
        if keeping.sizes[at] != held - m:
            continue
        score = base
        for i in range(m):
            score += coef[i] * keeping.spent[at, i]
        score = min(score, strip[STRIP_BOUND])
        if score + keeping.worth[at] > best:
            best = score + keeping.worth[at]
    return best

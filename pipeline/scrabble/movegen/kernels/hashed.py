"""Plays found by letter hash rather than by a walk: plays of a whole full rack, looked up among the long words
by the letter hash of the rack and a strip's board letters; and the check that some word fits a strip of many
empty squares at all, before a walk may cover it."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.bits import first_word, may_hold, table_size
from pipeline.scrabble.movegen.kernels.layout import BLANK_SLOT, MEMO_ROWS, N
from pipeline.scrabble.movegen.kernels.walk import keep_play, keep_ranked


@njit(cache=True)
def full_rack_plays(tab, pos, o, line, s, e, rack, keep, out, n_out, scratch, keeping):
    """Every play that covers exactly the squares s..e of a line with the whole rack (a full one, at most
    two blanks), found by letter hash among the long words (tab.bingos, tab.bingo_words) rather than by a walk:
    each word of the strip's length whose letters are the rack's and the board's (a blank any letter),
    spelling the board tiles and allowed by each empty square's cross-check, once per way to place the
    blanks. Kept by score as in keep_play, or by equity as in keep_ranked (`keeping`: the empty leave's value
    added, from the floor up); returns the records, their number and how many plays were scored."""
    word, blank, new, count, spots = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    lt, lb, masks, crossed, sums = pos.tiles[o, line], pos.blanks[o, line], pos.masks, pos.crossed, pos.sums
    values, lmul, wmul, letter_hash = tab.values, tab.lmul, tab.wmul, tab.letter_hash
    bingos, bingo_words, slots = tab.bingos, tab.bingo_words, tab.bingo_slots
    length = e - s + 1
    n_blanks = rack[BLANK_SLOT]
    key = np.uint64(0)
    board_main, w = 0, 1
    for j in range(s, e + 1):
        t = lt[j]
        if t >= 0:
            key += letter_hash[t]
            if not lb[j]:
                board_main += values[t]
        else:
            w *= wmul[o, line, j]
    for letter in range(26):
        for _ in range(rack[letter]):
            key += letter_hash[letter]
    n_words = bingos.shape[0]
    scored = 0
    first_x = 0 if n_blanks > 0 else 25
    for x in range(first_x, 26):
        first_y = x if n_blanks > 1 else 25
        for y in range(first_y, 26):
            probe = key
            if n_blanks > 0:
                probe += letter_hash[x]
            if n_blanks > 1:
                probe += letter_hash[y]
            i = first_word(bingos, slots, probe)
            while 0 <= i < n_words and bingos[i] == probe:
                row = bingo_words[i]
                i += 1
                if row[length - 1] < 0 or (length < N and row[length] >= 0):
                    continue
                for letter in range(26):
                    count[letter] = 0
                ok = True
                for j in range(s, e + 1):
                    letter = row[j - s]
                    if lt[j] >= 0:
                        if lt[j] != letter:
                            ok = False
                            break
                    elif (masks[o, line, j] >> letter) & 1 == 0:
                        ok = False
                        break
                    else:
                        count[letter] += 1
                if not ok:
                    continue
                need = 0
                for letter in range(26):
                    extra = count[letter] - rack[letter]
                    if extra < 0:
                        ok = False
                    need += extra
                if not ok or need != n_blanks:
                    continue  # a hash collision
                main, cross = board_main, 0
                n_pos = 0
                for j in range(s, e + 1):
                    letter = row[j - s]
                    word[j], blank[j], new[j] = letter, 0, 1 if lt[j] < 0 else 0
                    if lt[j] < 0:
                        value = values[letter] * lmul[o, line, j]
                        main += value
                        if crossed[o, line, j]:
                            cross += (sums[o, line, j] + value) * wmul[o, line, j]
                        if count[letter] > rack[letter]:  # a square a blank may take
                            spots[n_pos] = j
                            n_pos += 1
                full = main * w + cross + tab.bingo
                # the blanks: on one or two of the candidate squares, each letter taking as many as it lacks
                for p1 in range(n_pos if n_blanks > 0 else 1):
                    for p2 in range(p1 + 1 if n_blanks > 1 else 0, n_pos if n_blanks > 1 else 1):
                        score = full
                        if n_blanks > 0:
                            j1 = spots[p1]
                            l1 = row[j1 - s]
                            if n_blanks > 1:
                                j2 = spots[p2]
                                l2 = row[j2 - s]
                                if l1 == l2:
                                    if count[l1] - rack[l1] != 2:
                                        continue
                                elif count[l1] - rack[l1] != 1 or count[l2] - rack[l2] != 1:
                                    continue
                                v = values[l2] * lmul[o, line, j2]
                                score -= v * (w + (wmul[o, line, j2] if crossed[o, line, j2] else 0))
                                blank[j2] = 1
                            v = values[l1] * lmul[o, line, j1]
                            score -= v * (w + (wmul[o, line, j1] if crossed[o, line, j1] else 0))
                            blank[j1] = 1
                        scored += 1
                        if not keeping.by_equity:
                            out, n_out = keep_play(out, n_out, keep, score, o, line, s, length, word, blank, new)
                        elif score + keeping.worth[0] >= keeping.floor:
                            value = score + keeping.worth[0]
                            out, n_out = keep_ranked(
                                out, n_out, keep, value, score, o, line, s, length, word, blank, new, keeping.equity
                            )
                        if n_blanks > 0:
                            blank[spots[p1]] = 0
                            if n_blanks > 1:
                                blank[spots[p2]] = 0
    return out, n_out, scored


@njit(cache=True)
def rack_subsets(rack, letter_hash):
    """The distinct multisets of a rack's letters (blanks left out) by size: their letter hashes, those of
    size m at first[m]..first[m + 1]."""
    letters = np.empty(26, dtype=np.int64)
    n_letters = 0
    total = 1
    for letter in range(26):
        if rack[letter] > 0:
            letters[n_letters] = letter
            n_letters += 1
            total *= rack[letter] + 1
    keys = np.empty(total, dtype=np.uint64)
    sizes = np.empty(total, dtype=np.int64)
    choice = np.zeros(n_letters, dtype=np.int64)
    key = np.uint64(0)
    size = 0
    for n in range(total):  # every choice of counts, in mixed radix
        keys[n], sizes[n] = key, size
        i = 0
        while i < n_letters and choice[i] == rack[letters[i]]:
            for _ in range(choice[i]):
                key -= letter_hash[letters[i]]
            size -= choice[i]
            choice[i] = 0
            i += 1
        if i < n_letters:
            choice[i] += 1
            key += letter_hash[letters[i]]
            size += 1
    first = np.zeros(N + 2, dtype=np.int64)
    for n in range(total):
        first[min(sizes[n], N) + 1] += 1
    for m in range(N + 1):
        first[m + 1] += first[m]
    out = np.empty(total, dtype=np.uint64)
    fill = first.copy()
    for n in range(total):
        m = min(sizes[n], N)
        out[fill[m]] = keys[n]
        fill[m] += 1
    return out, first


@njit(cache=True, inline="always")
def look_up(bingos, slots, base, keys, first, end, hits, n_hits):
    """Append to `hits` the index of the first word of each hash base + keys[first:end] among the sorted
    hashes; returns the new number of hits. The hash table's slots are read in one pass and the hashes they
    point at in another, so that the memory reads of one pass overlap."""
    size = table_size(slots)
    if size == 0:
        for k in range(first, end):
            i = first_word(bingos, slots, base + keys[k])
            if i >= 0:
                hits[n_hits] = i
                n_hits += 1
        return n_hits
    mask = np.uint64(size - 1)
    start = n_hits
    for k in range(first, end):  # the first slot of each hash the filter lets through (0: empty, else 1 + a word)
        probe = base + keys[k]
        hits[start + k - first] = slots[probe & mask] if may_hold(slots, size, probe) else 0
    for k in range(first, end):
        probe = base + keys[k]
        v = hits[start + k - first]
        if v == 0:
            continue
        i = v - 1 if bingos[v - 1] == probe else first_word(bingos, slots, probe)
        if i >= 0:
            hits[n_hits] = i
            n_hits += 1
    return n_hits


@njit(cache=True, inline="always")
def may_fill(tab, lt, lm, s, e, m, sub_keys, sub_first, memo_keys, memo, hits):
    """Whether some word covers exactly the squares s..e of a line (board tiles lt, cross-check masks lm)
    with m of the rack's letters: a word of the strip's length among the long words (tab.bingos,
    tab.bingo_words) with the letters of the board tiles and of m rack tiles, spelling the board tiles and
    allowed by each empty square's cross-check. When there is none, no play covers exactly s..e.
    The words with the board tiles' letters and m rack letters are looked up once per board letters and m:
    row r of `memo` (m, first, end) holds those of board letter hash memo_keys[r] as indices of `hits`
    (the first word of each hash); memo[MEMO_ROWS, 0] counts the rows, memo[MEMO_ROWS, 1] the hits. When
    the memo is full the answer is yes."""
    if m > N or sub_first[m] == sub_first[m + 1]:
        return False
    bingos, bingo_words, letter_hash, slots = tab.bingos, tab.bingo_words, tab.letter_hash, tab.bingo_slots
    board_key = np.uint64(0)
    for j in range(s, e + 1):
        if lt[j] >= 0:
            board_key += letter_hash[lt[j]]
    rows = memo[MEMO_ROWS, 0]
    r = 0
    while r < rows and (memo_keys[r] != board_key or memo[r, 0] != m):
        r += 1
    if r == rows:  # not looked up yet
        n_hits = memo[MEMO_ROWS, 1]
        if rows == MEMO_ROWS or n_hits + sub_first[m + 1] - sub_first[m] > hits.shape[0]:
            return True
        memo_keys[r], memo[r, 0], memo[r, 1] = board_key, m, n_hits
        n_hits = look_up(bingos, slots, board_key, sub_keys, sub_first[m], sub_first[m + 1], hits, n_hits)
        memo[r, 2] = n_hits
        memo[MEMO_ROWS, 0], memo[MEMO_ROWS, 1] = rows + 1, n_hits
    length = e - s + 1
    n_words = bingos.shape[0]
    for h in range(memo[r, 1], memo[r, 2]):
        i = hits[h]
        probe = bingos[i]
        while i < n_words and bingos[i] == probe:
            row = bingo_words[i]
            i += 1
            if row[length - 1] < 0 or (length < N and row[length] >= 0):
                continue
            ok = True
            for j in range(s, e + 1):
                letter = row[j - s]
                if (lt[j] >= 0 and lt[j] != letter) or (lt[j] < 0 and (lm[j] >> letter) & 1 == 0):
                    ok = False
                    break
            if ok:
                return True
    return False

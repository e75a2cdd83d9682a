"""Numba kernels of the GADDAG move generator: the packed arc array, cross-checks, anchors, plays, self-play.

A GADDAG (Gordon, 1994) holds, for every word w and every split 1 <= i <= len(w), the string
reverse(w[:i]) + SEP + w[i:] (the SEP left out when i = len(w)). Walking it from an anchor square, a move
generator spells the part of a play left of the anchor backwards, then (after SEP) the part to its right,
so every play is found once, from the leftmost anchor it covers. The structure is stored like a KWG:
one uint32 per arc; a node is the run of its arcs, sorted by tile, the last one flagged; node 0 is "no
node" and arc 0 points at the root.

Boards come in both orientations, index 0 as is and index 1 transposed, so that down plays are across
plays of the transposed board and every line is a contiguous row.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

CHILD_BITS = 22
CHILD_MASK = (1 << CHILD_BITS) - 1  # bits 0-21: the child node (the index of its first arc; 0 = none)
END = 1 << 22  # the last arc of its node
ACCEPTS = 1 << 23  # a string of the GADDAG ends with this arc
TILE_SHIFT = 24  # bits 24-31: the tile, SEP or 1 + letter code
SEP = 0
# The walk reads `tilesets` (Gaddag.tilesets): per arc index the arc in the low 32 bits and, at the first arc of
# a node, the node's tiles as bits from NODE_SHIFT on (bit NODE_SHIFT the separator, NODE_SHIFT + 1 + l letter l),
# so that a node's tiles and its arcs share a cache line.
ARC_MASK = (1 << 32) - 1
NODE_SHIFT = 32
MAX_STRING = 16  # a word of 15 letters and the separator
N = 15  # board size
BLANK_SLOT = 26  # rack counts: 26 letters, then blanks
ALL_LETTERS = (1 << 26) - 1
FILTER_BITS = 8  # long_words' filter: bits per hash-table slot

# A play record (one row of int32): score, row, column, direction (0 across, 1 down), length of the main
# word, blank mask and placed mask (bit k = the word's k-th square holds a new blank / new tile), then the
# main word's letter codes (A = 0), -1 past its end.
PLAY_SCORE, PLAY_ROW, PLAY_COL, PLAY_DIR, PLAY_LEN, PLAY_BLANKS, PLAY_PLACED, PLAY_LETTERS = range(8)
RECORD = PLAY_LETTERS + N

# Self-play: the kernel stops for the caller to shuffle the bag (exchange) or at the end of the game.
GAME_OVER, SHUFFLE = 0, 1
# A turn of the move log: player, action (0 play, 1 exchange, 2 pass), then the play record.
TURN_PLAYER, TURN_ACTION, TURN_RECORD = 0, 1, 2
TURN = TURN_RECORD + RECORD
PLAY, EXCHANGE, PASS = 0, 1, 2


@intrinsic
def _ctpop64(typingctx, x):
    """The number of set bits of an int64 (the CPU's popcount)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz64(typingctx, x):
    """The index of the lowest set bit of a non-zero int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@njit(cache=True, inline="always")
def _popcount(x):
    """The number of set bits of a non-negative int64."""
    return _ctpop64(x)


@njit(cache=True, inline="always")
def _lowest(x):
    """The index of the lowest set bit of a non-zero int64."""
    return _cttz64(x)


# ---- building ----------------------------------------------------------------------------------------


@njit(cache=True)
def gaddag_strings(codes, offsets):
    """Every GADDAG string of every word (tiles: SEP, 1 + letter) as an (m, MAX_STRING) uint8 matrix,
    and the length of each."""
    n_words = offsets.shape[0] - 1
    m = offsets[n_words] - offsets[0]
    out = np.zeros((m, MAX_STRING), dtype=np.uint8)
    lengths = np.zeros(m, dtype=np.int64)
    j = 0
    for w in range(n_words):
        a, b = offsets[w], offsets[w + 1]
        n = b - a
        for i in range(1, n + 1):
            k = 0
            for p in range(i - 1, -1, -1):
                out[j, k] = codes[a + p] + 1
                k += 1
            if i < n:
                out[j, k] = SEP
                k += 1
                for p in range(i, n):
                    out[j, k] = codes[a + p] + 1
                    k += 1
            lengths[j] = k
            j += 1
    return out, lengths


@njit(cache=True)
def sort_keys(strings, lengths):
    """Two uint64 keys per string (5 bits a tile, 0 past the end) whose lexicographic order is the strings'."""
    m = strings.shape[0]
    hi = np.zeros(m, dtype=np.uint64)
    lo = np.zeros(m, dtype=np.uint64)
    for j in range(m):
        h = np.uint64(0)
        for k in range(12):
            v = np.uint64(strings[j, k] + 1) if k < lengths[j] else np.uint64(0)
            h = (h << np.uint64(5)) | v
        g = np.uint64(0)
        for k in range(12, MAX_STRING):
            v = np.uint64(strings[j, k] + 1) if k < lengths[j] else np.uint64(0)
            g = (g << np.uint64(5)) | v
        hi[j] = h
        lo[j] = g
    return hi, lo


@njit(cache=True)
def _arc_hash(packed, n):
    """A 64-bit hash of a node's packed arcs."""
    h = np.uint64(14695981039346656037)
    for k in range(n):
        h = (h ^ np.uint64(packed[k])) * np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def _register(packed, n, arcs, n_arcs, table, n_nodes):
    """The node with these n packed arcs: an equal one already stored, else a new one appended.
    Returns (node, arcs, n_arcs, table, n_nodes)."""
    if n == 0:
        return 0, arcs, n_arcs, table, n_nodes
    size = table.shape[0]
    if 2 * (n_nodes + 1) > size:  # grow the hash table
        bigger = np.full(2 * size, -1, dtype=np.int64)
        for s in range(size):
            node = table[s]
            if node < 0:
                continue
            k = 0
            while arcs[node + k] & END == 0:
                k += 1
            slot = _arc_hash(arcs[node:], k + 1) & np.uint64(2 * size - 1)
            while bigger[slot] >= 0:
                slot = (slot + np.uint64(1)) & np.uint64(2 * size - 1)
            bigger[slot] = node
        table = bigger
        size = 2 * size
    mask = np.uint64(size - 1)
    slot = _arc_hash(packed, n) & mask
    while table[slot] >= 0:
        node = table[slot]
        same = True
        for k in range(n):
            if arcs[node + k] != packed[k]:
                same = False
                break
        if same:
            return node, arcs, n_arcs, table, n_nodes
        slot = (slot + np.uint64(1)) & mask
    if n_arcs + n > arcs.shape[0]:
        bigger_arcs = np.zeros(2 * arcs.shape[0] + n, dtype=np.uint32)
        bigger_arcs[:n_arcs] = arcs[:n_arcs]
        arcs = bigger_arcs
    node = n_arcs
    for k in range(n):
        arcs[node + k] = packed[k]
    table[slot] = node
    return node, arcs, n_arcs + n, table, n_nodes + 1


@njit(cache=True)
def _freeze(depth, p_tile, p_accepts, p_child, p_n, packed, arcs, n_arcs, table, n_nodes):
    """Register the node under construction at `depth`; returns its node id and the grown structures."""
    n = p_n[depth]
    for k in range(n):
        arc = (np.uint32(p_tile[depth, k]) << np.uint32(TILE_SHIFT)) | np.uint32(p_child[depth, k])
        if p_accepts[depth, k]:
            arc |= np.uint32(ACCEPTS)
        if k == n - 1:
            arc |= np.uint32(END)
        packed[k] = arc
    return _register(packed, n, arcs, n_arcs, table, n_nodes)


@njit(cache=True)
def gaddag_build(strings, lengths, order):
    """The minimal acyclic automaton of the strings taken in sorted `order` (Daciuk's incremental
    algorithm), as packed arcs; arc 0 points at the root. Returns (arcs, number of nodes), or an empty
    array when the arcs would not fit the child field."""
    depth_max = MAX_STRING + 1
    p_tile = np.zeros((depth_max, 32), dtype=np.int64)
    p_accepts = np.zeros((depth_max, 32), dtype=np.bool_)
    p_child = np.zeros((depth_max, 32), dtype=np.int64)
    p_n = np.zeros(depth_max, dtype=np.int64)
    packed = np.zeros(32, dtype=np.uint32)
    arcs = np.zeros(1 << 16, dtype=np.uint32)
    n_arcs = 1
    table = np.full(1 << 16, -1, dtype=np.int64)
    n_nodes = 0
    prev = np.zeros(MAX_STRING, dtype=np.uint8)
    prev_len = 0
    for j in order:
        length = lengths[j]
        p = 0
        while p < length and p < prev_len and strings[j, p] == prev[p]:
            p += 1
        for d in range(prev_len, p, -1):
            node, arcs, n_arcs, table, n_nodes = _freeze(
                d, p_tile, p_accepts, p_child, p_n, packed, arcs, n_arcs, table, n_nodes
            )
            p_child[d - 1, p_n[d - 1] - 1] = node
            p_n[d] = 0
        for i in range(p, length):
            k = p_n[i]
            p_tile[i, k] = strings[j, i]
            p_accepts[i, k] = i == length - 1
            p_child[i, k] = 0
            p_n[i] = k + 1
            p_n[i + 1] = 0
        if p == length and p == prev_len:
            continue  # a duplicate
        for i in range(length):
            prev[i] = strings[j, i]
        prev_len = length
    for d in range(prev_len, 0, -1):
        node, arcs, n_arcs, table, n_nodes = _freeze(
            d, p_tile, p_accepts, p_child, p_n, packed, arcs, n_arcs, table, n_nodes
        )
        p_child[d - 1, p_n[d - 1] - 1] = node
        p_n[d] = 0
    root, arcs, n_arcs, table, n_nodes = _freeze(
        0, p_tile, p_accepts, p_child, p_n, packed, arcs, n_arcs, table, n_nodes
    )
    if n_arcs > CHILD_MASK:
        return np.zeros(0, dtype=np.uint32), n_nodes
    arcs[0] = np.uint32(root) | np.uint32(END)
    return arcs[:n_arcs].copy(), n_nodes


# ---- look-ups ------------------------------------------------------------------------------------------


@njit(cache=True)
def arc_tilesets(arcs):
    """Each arc widened to int64, with the tiles of its node as bits from NODE_SHIFT on (NODE_SHIFT the
    separator, NODE_SHIFT + 1 + l letter l) at the node's first arc (arc 0, the root pointer, alone)."""
    out = arcs.astype(np.int64)
    first = 1
    tiles = np.int64(0)
    for i in range(1, arcs.shape[0]):
        tiles |= np.int64(1) << (arcs[i] >> TILE_SHIFT)
        if arcs[i] & END:
            out[first] |= tiles << NODE_SHIFT
            first = i + 1
            tiles = np.int64(0)
    return out


@njit(cache=True)
def _radix_order(keys):
    """The stable sorting permutation of uint64 keys (least significant byte first)."""
    n = keys.shape[0]
    order, spare = np.arange(n), np.empty(n, dtype=np.int64)
    now, later = keys.copy(), np.empty(n, dtype=np.uint64)
    counts = np.empty(257, dtype=np.int64)
    for shift in range(0, 64, 8):
        counts[:] = 0
        for i in range(n):
            counts[np.int64((now[i] >> np.uint64(shift)) & np.uint64(255)) + 1] += 1
        if counts.max() == n:  # every key has the same byte here
            continue
        for digit in range(256):
            counts[digit + 1] += counts[digit]
        for i in range(n):
            at = np.int64((now[i] >> np.uint64(shift)) & np.uint64(255))
            spare[counts[at]] = order[i]
            later[counts[at]] = now[i]
            counts[at] += 1
        order, spare = spare, order
        now, later = later, now
    return order


@njit(cache=True)
def long_words(arcs, shortest, letter_hash):
    """The words of at least `shortest` letters, read off the GADDAG's full reversals (its strings without
    SEP), by their letter hash (the sum of letter_hash over their letters): the sorted hashes and the words'
    letter codes in the same order (an int8 row of N each, -1 past the end), and an open-addressing table of
    the distinct hashes (slot: the hash's low bits, then the next ones; 1 + the index of the first word with
    that hash, 0 empty) followed by a filter of FILTER_BITS bits per slot (the bit of each hash's high bits
    set), so that most hashes not in the table are turned away without reading the table."""
    words = np.full((1024, N), -1, dtype=np.int8)
    hashes = np.zeros(1024, dtype=np.uint64)
    n_words = 0
    pos = np.zeros(N + 1, dtype=np.int64)
    spelled = np.zeros(N + 1, dtype=np.int64)
    key = np.zeros(N + 1, dtype=np.uint64)
    d = 0
    pos[0] = arcs[0] & CHILD_MASK
    while d >= 0:
        i = pos[d]
        if i <= 0:
            d -= 1
            continue
        a = arcs[i]
        pos[d] = -1 if a & END else i + 1
        t = a >> TILE_SHIFT
        if t == SEP:
            continue
        spelled[d] = t - 1
        key[d + 1] = key[d] + letter_hash[t - 1]
        if a & ACCEPTS and d + 1 >= shortest:
            if n_words == words.shape[0]:
                bigger = np.full((2 * n_words, N), -1, dtype=np.int8)
                bigger[:n_words] = words
                words = bigger
                more = np.zeros(2 * n_words, dtype=np.uint64)
                more[:n_words] = hashes
                hashes = more
            for k in range(d + 1):  # the path spells the word backwards
                words[n_words, k] = spelled[d - k]
            hashes[n_words] = key[d + 1]
            n_words += 1
        child = a & CHILD_MASK
        if child != 0 and d + 1 < N:
            d += 1
            pos[d] = child
    order = _radix_order(hashes[:n_words])
    hashes, words = hashes[:n_words][order], words[:n_words][order]
    size = 16
    while size < 2 * n_words:
        size *= 2
    slots = np.zeros(size + size * FILTER_BITS // 64, dtype=np.int64)
    for i in range(n_words):
        if i == 0 or hashes[i] != hashes[i - 1]:
            slot = hashes[i] & np.uint64(size - 1)
            while slots[slot] != 0:
                slot = (slot + np.uint64(1)) & np.uint64(size - 1)
            slots[slot] = i + 1
            bit = _filter_bit(hashes[i], size)
            slots[size + (bit >> 6)] |= np.int64(1) << (bit & 63)
    return hashes, words, slots


@njit(cache=True, inline="always")
def _table_size(slots):
    """The number of hash-table slots of a long_words table (the filter's words follow them)."""
    return slots.shape[0] * 64 // (64 + FILTER_BITS)


@njit(cache=True, inline="always")
def _filter_bit(key, size):
    """The filter bit of a letter hash in a table of `size` slots: from the hash's high bits, as the slot is
    from its low ones."""
    return np.int64((key >> np.uint64(32)) & np.uint64(FILTER_BITS * size - 1))


@njit(cache=True, inline="always")
def _may_hold(slots, size, key):
    """Whether the table's filter lets the letter hash through (always, when the hash is in the table)."""
    bit = _filter_bit(key, size)
    return (slots[size + (bit >> 6)] >> (bit & 63)) & 1 != 0


@njit(cache=True, inline="always")
def _arc(arcs, node, tile):
    """The index of the arc of `node` with `tile`, or -1."""
    if node == 0:
        return -1
    i = node
    while True:
        a = arcs[i]
        t = a >> TILE_SHIFT
        if t == tile:
            return i
        if t > tile or a & END:
            return -1
        i += 1


@njit(cache=True)
def gaddag_contains(arcs, codes):
    """Whether the word of letter codes is in the GADDAG (walked as its full reversal)."""
    node = arcs[0] & CHILD_MASK
    i = -1
    for k in range(codes.shape[0] - 1, -1, -1):
        i = _arc(arcs, node, codes[k] + 1)
        if i < 0:
            return False
        node = arcs[i] & CHILD_MASK
    return i >= 0 and arcs[i] & ACCEPTS != 0


# ---- cross-checks and anchors ------------------------------------------------------------------------


@njit(cache=True)
def _cross_at(arcs, tiles, blanks, values, masks, crossed, sums, o, r, c):
    """Set the cross-check of the empty square (r, c) of orientation o: the letters that make a word with
    the tiles above and below it, whether there are such tiles, and their value."""
    top, bottom = r, r
    while top > 0 and tiles[o, top - 1, c] >= 0:
        top -= 1
    while bottom < N - 1 and tiles[o, bottom + 1, c] >= 0:
        bottom += 1
    if top == r and bottom == r:
        masks[o, r, c] = ALL_LETTERS
        crossed[o, r, c] = False
        sums[o, r, c] = 0
        return
    crossed[o, r, c] = True
    total = 0
    for k in range(top, bottom + 1):
        if k != r and not blanks[o, k, c]:
            total += values[tiles[o, k, c]]
    sums[o, r, c] = total
    mask = 0
    node = arcs[0] & CHILD_MASK
    if top < r:  # reverse(above) SEP letter below
        for k in range(r - 1, top - 1, -1):
            i = _arc(arcs, node, tiles[o, k, c] + 1)
            if i < 0:
                masks[o, r, c] = 0
                return
            node = arcs[i] & CHILD_MASK
        i = _arc(arcs, node, SEP)
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
                        j = _arc(arcs, nd, tiles[o, k, c] + 1)
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
            i = _arc(arcs, node, tiles[o, k, c] + 1)
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
def position_tables(arcs, tiles, blanks, values, centre_r, centre_c):
    """Both orientations of a board (tiles, blanks) with their cross-check masks, crossed flags, cross
    sums and anchors (empty squares next to a tile; on an empty board, the centre)."""
    tt = np.empty((2, N, N), dtype=np.int8)
    bb = np.empty((2, N, N), dtype=np.bool_)
    for r in range(N):
        for c in range(N):
            tt[0, r, c] = tiles[r, c]
            tt[1, c, r] = tiles[r, c]
            bb[0, r, c] = blanks[r, c]
            bb[1, c, r] = blanks[r, c]
    masks = np.zeros((2, N, N), dtype=np.int32)
    crossed = np.zeros((2, N, N), dtype=np.bool_)
    sums = np.zeros((2, N, N), dtype=np.int32)
    anchors = np.zeros((2, N, N), dtype=np.bool_)
    any_tile = False
    for o in range(2):
        for r in range(N):
            for c in range(N):
                if tt[o, r, c] >= 0:
                    any_tile = True
                    continue
                if (r > 0 and tt[o, r - 1, c] >= 0) or (r < N - 1 and tt[o, r + 1, c] >= 0):
                    _cross_at(arcs, tt, bb, values, masks, crossed, sums, o, r, c)
                    anchors[o, r, c] = True
                else:  # no crossing word: the call is left out, as it costs more than the few stores
                    masks[o, r, c] = ALL_LETTERS
                    anchors[o, r, c] = (c > 0 and tt[o, r, c - 1] >= 0) or (c < N - 1 and tt[o, r, c + 1] >= 0)
    if not any_tile:
        anchors[0, centre_r, centre_c] = True
        anchors[1, centre_c, centre_r] = True
    return tt, bb, masks, crossed, sums, anchors


# ---- plays -------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _before(score, o, line, start, length, word, blank, rec):
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
def _keep(out, n_out, keep, score, o, line, start, length, word, blank, new):
    """Add a play record: all of them (keep = 0, growing `out`) or the `keep` best in rank order."""
    if keep > 0:
        if n_out == keep and not _before(score, o, line, start, length, word, blank, out[n_out - 1]):
            return out, n_out
        if n_out < keep:
            j = n_out
            n_out += 1
        else:
            j = keep - 1
        while j > 0 and _before(score, o, line, start, length, word, blank, out[j - 1]):
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
def _anchor_walk(
    arcs,
    tilesets,
    lt,
    o,
    line,
    a,
    bb,
    masks,
    crossed,
    sums,
    anchors,
    lmul,
    wmul,
    values,
    rack,
    have,
    in_rack,
    bingo,
    rack_size,
    keep,
    out,
    n_out,
    work,
    reach,
):
    """Every play whose leftmost anchor is square a of a line, by a GADDAG walk (the left part backwards from
    a while the squares are free of anchors, SEP, then rightwards), kept as in _keep. Once the keep best
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
                ai = nd + _popcount(ts & ((1 << (t + 1)) - 1))
                main[e] = main[d] + (0 if bb[o, line, s] else values[t])
                mult[e], cross[e], placed[e] = mult[d], cross[d], placed[d]
                word[s], blank[s], new[s] = t, 0, 0
            else:  # an empty square: the next letter the cross-check and the rack allow
                if natural[d] != 0:
                    bits = natural[d]
                    letter = _lowest(bits)
                    natural[d] = bits & (bits - 1)
                    is_blank = 0
                    slot = letter
                    rack[slot] -= 1
                    if rack[slot] == 0:
                        have &= ~(1 << slot)
                elif blanked[d] != 0:
                    bits = blanked[d]
                    letter = _lowest(bits)
                    blanked[d] = bits & (bits - 1)
                    is_blank = 1
                    slot = BLANK_SLOT
                    rack[slot] -= 1
                else:
                    d -= 1
                    continue
                used[d] = slot
                ai = nd + _popcount(ts & ((1 << (letter + 1)) - 1))
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
                    if keep == 0 or n_out < keep or score >= out[keep - 1, PLAY_SCORE]:  # else _keep drops it
                        out, n_out = _keep(out, n_out, keep, score, o, line, start, end - start + 1, word, blank, new)
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
                _enter(e, c, lt[nxt], masks[o, line, nxt], tilesets, rack, have, natural, blanked)
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
            _enter(e, c2, lt[nxt], masks[o, line, nxt], tilesets, rack, have, natural, blanked)
            if natural[e] == 0 and blanked[e] == 0:
                continue
            d = e
            sq[d], phase[d], node[d], used[d], stage[d] = nxt, 1, c2, -1, 0
            left[d] = s
    return out, n_out, total


@njit(cache=True)
def _rack_facts(rack):
    """The number of tiles on a rack and the set of its letters as bits."""
    in_rack = rack[BLANK_SLOT]
    have = 0
    for k in range(26):
        in_rack += rack[k]
        if rack[k] > 0:
            have |= 1 << k
    return in_rack, have


@njit(cache=True)
def generate_plays(
    arcs, tilesets, tt, bb, masks, crossed, sums, anchors, lmul, wmul, values, rack, bingo, rack_size, keep, out
):
    """Every legal play (keep = 0) or the `keep` best (rank order: see _before), by a GADDAG walk from
    every anchor of both orientations; returns the records, how many there are, and the number of legal
    plays. `rack` (27 counts) is used as scratch and restored; lmul, wmul are (2, N, N) like the board."""
    in_rack, have = _rack_facts(rack)
    n_out, total = 0, 0
    if in_rack == 0:
        return out, 0, 0
    work = np.zeros((16, N + 1), dtype=np.int64)
    reach = np.full((2, N, N + 1), 1 << 40, dtype=np.int64)  # no bound: every branch is walked
    for o in range(2):
        for line in range(N):
            for a in range(N):
                if anchors[o, line, a]:
                    out, n_out, count = _anchor_walk(
                        arcs,
                        tilesets,
                        tt[o, line],
                        o,
                        line,
                        a,
                        bb,
                        masks,
                        crossed,
                        sums,
                        anchors,
                        lmul,
                        wmul,
                        values,
                        rack,
                        have,
                        in_rack,
                        bingo,
                        rack_size,
                        keep,
                        out,
                        n_out,
                        work,
                        reach,
                    )
                    total += count
    return out, n_out, total


@njit(cache=True, inline="always")
def _enter(d, nd, t, mask, tilesets, rack, have, natural, blanked):
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
def board_plays(
    arcs,
    tilesets,
    tiles,
    blanks,
    rack,
    values,
    lmul,
    wmul,
    centre_r,
    centre_c,
    bingo,
    rack_size,
    keep,
    out,
    bingos,
    letter_hash,
    bingo_words,
    bingo_slots,
):
    """The plays of a board (tiles: int8 (N, N) letter codes, -1 empty; blanks: bool (N, N)) and rack (27
    counts): every legal one by generate_plays (keep = 0) or the `keep` best by best_plays."""
    tt, bb, masks, crossed, sums, anchors = position_tables(arcs, tiles, blanks, values, centre_r, centre_c)
    if keep == 0:
        return generate_plays(
            arcs, tilesets, tt, bb, masks, crossed, sums, anchors, lmul, wmul, values, rack, bingo, rack_size, keep, out
        )
    return best_plays(
        arcs,
        tilesets,
        tt,
        bb,
        masks,
        crossed,
        sums,
        anchors,
        lmul,
        wmul,
        values,
        rack,
        bingo,
        rack_size,
        keep,
        out,
        bingos,
        letter_hash,
        bingo_words,
        bingo_slots,
    )


# ---- self-play -----------------------------------------------------------------------------------------


@njit(cache=True)
def _refresh(arcs, tt, bb, values, masks, crossed, sums, o, r, c):
    """Recompute the cross-checks of the empty squares at both ends of the run of tiles through (r, c)
    in orientation o (the run across the orientation's lines)."""
    top, bottom = r, r
    while top > 0 and tt[o, top - 1, c] >= 0:
        top -= 1
    while bottom < N - 1 and tt[o, bottom + 1, c] >= 0:
        bottom += 1
    if top > 0:
        _cross_at(arcs, tt, bb, values, masks, crossed, sums, o, top - 1, c)
    if bottom < N - 1:
        _cross_at(arcs, tt, bb, values, masks, crossed, sums, o, bottom + 1, c)


@njit(cache=True)
def _place(arcs, tt, bb, masks, crossed, sums, anchors, values, rec):
    """Put a play record's new tiles on the board (both orientations) and update cross-checks and anchors."""
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
                _refresh(arcs, tt, bb, values, masks, crossed, sums, 0, r, c)
            if o == 1 or along:
                _refresh(arcs, tt, bb, values, masks, crossed, sums, 1, c, r)
            along = False
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < N and 0 <= cc < N and tt[0, rr, cc] < 0:
                    anchors[0, rr, cc] = True
                    anchors[1, cc, rr] = True


@njit(cache=True)
def draw(rack, bag, bag_n, rack_size):
    """Refill a rack from the end of the bag; returns the bag's new length."""
    held = 0
    for k in range(27):
        held += rack[k]
    while held < rack_size and bag_n > 0:
        bag_n -= 1
        rack[bag[bag_n]] += 1
        held += 1
    return bag_n


@njit(cache=True)
def _rack_value(rack, values):
    """The face value of the tiles on a rack (blanks 0)."""
    total = 0
    for k in range(26):
        total += rack[k] * values[k]
    return total


# self-play state: scalars of a game in progress
S_PLAYER, S_SCORELESS, S_TURNS, S_BAG, S_OVER, S_WENT_OUT = range(6)
STATE = 6
# A strip of strip_bounds: its score bound, orientation, line, first and last square, leftmost anchor, number
# of empty squares, and whether its board letters and the rack may make a long word (only tested when the
# strip takes a full rack).
STRIP_BOUND, STRIP_DIR, STRIP_LINE, STRIP_START, STRIP_END, STRIP_ANCHOR, STRIP_EMPTY, STRIP_WORD = range(8)
STRIP = 8
# Strips of this many empty squares or more are checked by letter hash before a walk may cover them.
CHECKED_TILES = 4
MEMO_ROWS = 64  # the board letters and tile counts whose words _may_fill remembers


@njit(cache=True)
def selfplay_turns(
    arcs,
    tilesets,
    tt,
    bb,
    masks,
    crossed,
    sums,
    anchors,
    lmul,
    wmul,
    values,
    bingo,
    rack_size,
    max_scoreless,
    racks,
    bag,
    scores,
    state,
    log,
    rack_log,
    bingos,
    letter_hash,
    bingo_words,
    bingo_slots,
):
    """Play greedy turns (the highest-scoring play, else exchange the whole rack when the bag holds a full
    rack, else pass) until the game ends (GAME_OVER) or an exchange needs the bag shuffled (SHUFFLE).
    Each turn appends a row to `log` (TURN_*) and the rack before it to `rack_log`."""
    players = racks.shape[0]
    out = np.zeros((1, RECORD), dtype=np.int32)
    old = np.zeros(27, dtype=np.int64)
    while True:
        p = state[S_PLAYER]
        rack = racks[p]
        turn = state[S_TURNS]
        row = log[turn]
        rack_log[turn, :] = rack
        row[TURN_PLAYER] = p
        out, n_out, _ = best_plays(
            arcs,
            tilesets,
            tt,
            bb,
            masks,
            crossed,
            sums,
            anchors,
            lmul,
            wmul,
            values,
            rack,
            bingo,
            rack_size,
            1,
            out,
            bingos,
            letter_hash,
            bingo_words,
            bingo_slots,
        )
        shuffle = False
        if n_out > 0:
            rec = out[0]
            row[TURN_ACTION] = PLAY
            row[TURN_RECORD:] = rec
            _place(arcs, tt, bb, masks, crossed, sums, anchors, values, rec)
            for k in range(rec[PLAY_LEN]):
                if (rec[PLAY_PLACED] >> k) & 1:
                    if (rec[PLAY_BLANKS] >> k) & 1:
                        rack[BLANK_SLOT] -= 1
                    else:
                        rack[rec[PLAY_LETTERS + k]] -= 1
            scores[p] += rec[PLAY_SCORE]
            state[S_BAG] = draw(rack, bag, state[S_BAG], rack_size)
            state[S_SCORELESS] = 0
        else:
            row[TURN_RECORD:] = 0
            if state[S_BAG] >= rack_size:
                row[TURN_ACTION] = EXCHANGE
                old[:] = rack
                rack[:] = 0
                bag_n = draw(rack, bag, state[S_BAG], rack_size)
                for _ in range(old[BLANK_SLOT]):  # the old rack goes back in its sorted order (? before A)
                    bag[bag_n] = BLANK_SLOT
                    bag_n += 1
                for k in range(26):
                    for _ in range(old[k]):
                        bag[bag_n] = k
                        bag_n += 1
                state[S_BAG] = bag_n
                shuffle = True
            else:
                row[TURN_ACTION] = PASS
            state[S_SCORELESS] += 1
        state[S_TURNS] = turn + 1
        held = 0
        for k in range(27):
            held += rack[k]
        if held == 0 and state[S_BAG] == 0:
            for q in range(players):
                if q != p:
                    value = _rack_value(racks[q], values)
                    scores[q] -= value
                    scores[p] += value
            state[S_OVER] = 1
            state[S_WENT_OUT] = p
            return SHUFFLE if shuffle else GAME_OVER
        if state[S_SCORELESS] >= max_scoreless:
            for q in range(players):
                scores[q] -= _rack_value(racks[q], values)
            state[S_OVER] = 1
            state[S_WENT_OUT] = -1
            return SHUFFLE if shuffle else GAME_OVER
        state[S_PLAYER] = (p + 1) % players
        if shuffle:
            return SHUFFLE


# ---- the best plays first: strips by their score bound -------------------------------------------------


@njit(cache=True)
def square_caps(tt, masks, values, rack):
    """Per empty square of both orientations, the highest value of a rack letter its cross-check allows
    (a blank scores 0)."""
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
                    v = values[_lowest(bits)]
                    if v > best:
                        best = v
                    bits &= bits - 1
                caps[o, r, c] = best
    return caps


@njit(cache=True, inline="always")
def _first_word(bingos, slots, key):
    """The index of the first of the sorted hashes equal to `key`, or -1: by the table `slots` (see
    long_words), or by bisection when it is empty."""
    size = _table_size(slots)
    if size == 0:
        i = np.searchsorted(bingos, key)
        return i if i < bingos.shape[0] and bingos[i] == key else -1
    if not _may_hold(slots, size, key):
        return -1
    slot = key & np.uint64(size - 1)
    while slots[slot] != 0:
        i = slots[slot] - 1
        if bingos[i] == key:
            return i
        slot = (slot + np.uint64(1)) & np.uint64(size - 1)
    return -1


@njit(cache=True)
def _maybe_word(bingos, slots, letter_hash, key, blanks, memo_keys, memo_values):
    """Whether a word may hold the letters whose hash is `key` plus `blanks` (0 to 2) blanks; more blanks
    are always allowed. `bingos` is the sorted hashes of the words' letter multisets; answers are
    remembered in the small open-addressing table memo_keys / memo_values (0: empty)."""
    if blanks > 2:
        return True
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
        found = _first_word(bingos, slots, key) >= 0
    elif blanks == 1:
        for x in range(26):
            if _first_word(bingos, slots, key + letter_hash[x]) >= 0:
                found = True
                break
    else:
        for x in range(26):
            for y in range(x, 26):
                if _first_word(bingos, slots, key + letter_hash[x] + letter_hash[y]) >= 0:
                    found = True
                    break
            if found:
                break
    if memo_values[slot] == 0:
        memo_keys[slot] = key
        memo_values[slot] = 1 if found else 2
    return found


@njit(cache=True)
def strip_bounds(
    tt, bb, masks, crossed, sums, anchors, lmul, wmul, values, rack, bingo, rack_size, caps, bingos, letter_hash, slots
):
    """Every strip (squares s..e of a line that a play may cover exactly: edges free, 1 to rack-size empty
    squares each allowing some rack tile, an anchor among them) with an upper bound of its plays' scores:
    the board tiles and cross sums as they are, and the least of the rack's highest values on the best
    squares and each square's best allowed rack letter; the bingo bonus only where the rack and the strip's
    board letters may make a word (their letter hash is among `bingos`, the hashes of the long words).
    Returns an (n, STRIP) int64 array (STRIP_*: bound, orientation, line, s, e, leftmost anchor, empty
    squares, whether the bingo test passed)."""
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
                    for j in range(m):  # coefficients, highest first (insertion sort)
                        c = lm[j] * (w + xw[j])
                        i = j
                        while i > 0 and coef[i - 1] < c:
                            coef[i] = coef[i - 1]
                            i -= 1
                        coef[i] = c
                    base = board_sum * w + fixed
                    maybe = m == rack_size and _maybe_word(
                        bingos, slots, letter_hash, key, rack[BLANK_SLOT], memo_keys, memo_values
                    )
                    if maybe:
                        base += bingo
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
def _full_rack_plays(
    o,
    line,
    s,
    e,
    lt,
    lb,
    masks,
    crossed,
    sums,
    lmul,
    wmul,
    values,
    rack,
    bingo,
    keep,
    out,
    n_out,
    bingos,
    bingo_words,
    letter_hash,
    slots,
    scratch,
):
    """Every play that covers exactly the squares s..e of a line with the whole rack (a full one, at most
    two blanks), found by letter hash among the long words (`bingos`, `bingo_words`) rather than by a walk:
    each word of the strip's length whose letters are the rack's and the board's (a blank any letter),
    spelling the board tiles and allowed by each empty square's cross-check, once per way to place the
    blanks. Kept as in _keep; returns the records, their number and how many plays were scored."""
    word, blank, new, count, pos = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
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
            i = _first_word(bingos, slots, probe)
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
                            pos[n_pos] = j
                            n_pos += 1
                full = main * w + cross + bingo
                # the blanks: on one or two of the candidate squares, each letter taking as many as it lacks
                for p1 in range(n_pos if n_blanks > 0 else 1):
                    for p2 in range(p1 + 1 if n_blanks > 1 else 0, n_pos if n_blanks > 1 else 1):
                        score = full
                        if n_blanks > 0:
                            j1 = pos[p1]
                            l1 = row[j1 - s]
                            if n_blanks > 1:
                                j2 = pos[p2]
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
                        out, n_out = _keep(out, n_out, keep, score, o, line, s, length, word, blank, new)
                        if n_blanks > 0:
                            blank[pos[p1]] = 0
                            if n_blanks > 1:
                                blank[pos[p2]] = 0
    return out, n_out, scored


@njit(cache=True, inline="always")
def _heap_push(heap_bound, heap_item, n, bound, item):
    """Add an item to the max-heap of (bound, item) pairs of n entries (ties: the smaller item first);
    returns the new size."""
    i = n
    while i > 0:
        up = (i - 1) >> 1
        if heap_bound[up] > bound or (heap_bound[up] == bound and heap_item[up] < item):
            break
        heap_bound[i], heap_item[i] = heap_bound[up], heap_item[up]
        i = up
    heap_bound[i], heap_item[i] = bound, item
    return n + 1


@njit(cache=True, inline="always")
def _heap_pop(heap_bound, heap_item, n):
    """Remove the top of the max-heap of n entries; returns the new size."""
    n -= 1
    bound, item = heap_bound[n], heap_item[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and (
            heap_bound[child + 1] > heap_bound[child]
            or (heap_bound[child + 1] == heap_bound[child] and heap_item[child + 1] < heap_item[child])
        ):
            child += 1
        if bound > heap_bound[child] or (bound == heap_bound[child] and item < heap_item[child]):
            break
        heap_bound[i], heap_item[i] = heap_bound[child], heap_item[child]
        i = child
    heap_bound[i], heap_item[i] = bound, item
    return n


@njit(cache=True)
def _rack_subsets(rack, letter_hash):
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
def _look_up(bingos, slots, base, keys, first, end, hits, n_hits):
    """Append to `hits` the index of the first word of each hash base + keys[first:end] among the sorted
    hashes; returns the new number of hits. The hash table's slots are read in one pass and the hashes they
    point at in another, so that the memory reads of one pass overlap."""
    size = _table_size(slots)
    if size == 0:
        for k in range(first, end):
            i = _first_word(bingos, slots, base + keys[k])
            if i >= 0:
                hits[n_hits] = i
                n_hits += 1
        return n_hits
    mask = np.uint64(size - 1)
    start = n_hits
    for k in range(first, end):  # the first slot of each hash the filter lets through (0: empty, else 1 + a word)
        probe = base + keys[k]
        hits[start + k - first] = slots[probe & mask] if _may_hold(slots, size, probe) else 0
    for k in range(first, end):
        probe = base + keys[k]
        v = hits[start + k - first]
        if v == 0:
            continue
        i = v - 1 if bingos[v - 1] == probe else _first_word(bingos, slots, probe)
        if i >= 0:
            hits[n_hits] = i
            n_hits += 1
    return n_hits


@njit(cache=True)
def _may_fill(lt, lm, s, e, m, sub_keys, sub_first, bingos, bingo_words, letter_hash, slots, memo_keys, memo, hits):
    """Whether some word covers exactly the squares s..e of a line (board tiles lt, cross-check masks lm)
    with m of the rack's letters: a word of the strip's length among the long words (`bingos`,
    `bingo_words`) with the letters of the board tiles and of m rack tiles, spelling the board tiles and
    allowed by each empty square's cross-check. When there is none, no play covers exactly s..e.
    The words with the board tiles' letters and m rack letters are looked up once per board letters and m:
    row r of `memo` (m, first, end) holds those of board letter hash memo_keys[r] as indices of `hits`
    (the first word of each hash); memo[MEMO_ROWS, 0] counts the rows, memo[MEMO_ROWS, 1] the hits. When
    the memo is full the answer is yes."""
    if m > N or sub_first[m] == sub_first[m + 1]:
        return False
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
        n_hits = _look_up(bingos, slots, board_key, sub_keys, sub_first[m], sub_first[m + 1], hits, n_hits)
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


@njit(cache=True)
def _anchor_reach(strips, j, next_strip, dead, a, reach, none):
    """The bounds an anchor walk from square a prunes with, from the anchor's live strips (j, then
    next_strip[j] ...; the plays of the walk are theirs): reach[0, s, p] (p >= a) the best bound of the
    strips from s ending at or after p, reach[1, p, a] of those starting at or before p."""
    for s in range(a + 1):
        for p in range(a, N):
            reach[0, s, p] = none
    while j >= 0:
        if not dead[j]:
            s, b = strips[j, STRIP_START], strips[j, STRIP_BOUND]
            for p in range(a, strips[j, STRIP_END] + 1):
                if b > reach[0, s, p]:
                    reach[0, s, p] = b
        j = next_strip[j]
    best = none
    for p in range(a + 1):
        if reach[0, p, a] > best:
            best = reach[0, p, a]
        reach[1, p, a] = best


@njit(cache=True)
def best_plays(
    arcs,
    tilesets,
    tt,
    bb,
    masks,
    crossed,
    sums,
    anchors,
    lmul,
    wmul,
    values,
    rack,
    bingo,
    rack_size,
    keep,
    out,
    bingos,
    letter_hash,
    bingo_words,
    bingo_slots,
):
    """The `keep` best plays (keep >= 1; the records and rank order of generate_plays), highest score bound
    first until a bound falls below the keep-th best score: the strips a full rack covers (at most two
    blanks on it) by _full_rack_plays when `bingo_words` holds the words of `bingos`, the other plays by
    anchor walks, inside which the branches whose strips cannot reach the keep-th best are cut. Without
    blanks on the rack, an anchor's strips of CHECKED_TILES or more empty squares are first checked by
    _may_fill: those no word fits are dropped and the anchor waits in the queue under its new bound.
    Returns the records, their number, and how many plays were scored."""
    in_rack, have = _rack_facts(rack)
    if in_rack == 0:
        return out, 0, 0
    caps = square_caps(tt, masks, values, rack)
    strips = strip_bounds(
        tt,
        bb,
        masks,
        crossed,
        sums,
        anchors,
        lmul,
        wmul,
        values,
        rack,
        bingo,
        rack_size,
        caps,
        bingos,
        letter_hash,
        bingo_slots,
    )
    by_hash = in_rack == rack_size and rack[BLANK_SLOT] <= 2 and bingo_words.shape[0] == bingos.shape[0]
    by_hash = by_hash and bingos.shape[0] > 0
    limit = in_rack - 1 if by_hash else in_rack  # the most tiles a walk places
    # strips of CHECKED_TILES or more empty squares are checked by letter hash before their anchor is walked
    checking = rack[BLANK_SLOT] == 0 and bingos.shape[0] > 0
    if checking:
        sub_keys, sub_first = _rack_subsets(rack, letter_hash)
    else:  # never read
        sub_keys, sub_first = np.empty(0, dtype=np.uint64), np.zeros(N + 2, dtype=np.int64)
    memo_keys = np.empty(MEMO_ROWS, dtype=np.uint64)  # _may_fill's look-ups
    memo = np.zeros((MEMO_ROWS + 1, 3), dtype=np.int64)
    hits = np.empty(1024, dtype=np.int64)
    none = -(1 << 40)
    n_strips = strips.shape[0]
    anchor_bound = np.full(2 * N * N, none, dtype=np.int64)
    anchor_strip = np.full(2 * N * N, -1, dtype=np.int64)  # the anchor's first strip, then by next_strip
    next_strip = np.empty(n_strips, dtype=np.int64)
    dead = np.zeros(n_strips, dtype=np.bool_)  # no word of the rack and the board letters fits it
    heap_bound = np.empty(2 * N * N + n_strips, dtype=np.int64)  # anchors (k < 2 N N) and full-rack strips
    heap_item = np.empty(2 * N * N + n_strips, dtype=np.int64)
    n_heap = 0
    for j in range(n_strips - 1, -1, -1):
        b, o, line = strips[j, STRIP_BOUND], strips[j, STRIP_DIR], strips[j, STRIP_LINE]
        if by_hash and strips[j, STRIP_EMPTY] == in_rack:
            dead[j] = True  # not the walks' business
            if strips[j, STRIP_WORD]:
                n_heap = _heap_push(heap_bound, heap_item, n_heap, b, 2 * N * N + j)
            continue
        k = (o * N + line) * N + strips[j, STRIP_ANCHOR]
        next_strip[j] = anchor_strip[k]
        anchor_strip[k] = j
        if b > anchor_bound[k]:
            anchor_bound[k] = b
    for k in range(2 * N * N):
        if anchor_bound[k] != none:
            n_heap = _heap_push(heap_bound, heap_item, n_heap, anchor_bound[k], k)
    checked = np.zeros(2 * N * N, dtype=np.bool_)
    work = np.zeros((16, N + 1), dtype=np.int64)
    scratch = np.zeros((5, 32), dtype=np.int64)
    reach = np.zeros((2, N, N + 1), dtype=np.int64)
    n_out, total = 0, 0
    while n_heap > 0:
        b, k = heap_bound[0], heap_item[0]
        if n_out == keep and b < out[keep - 1, PLAY_SCORE]:
            break
        n_heap = _heap_pop(heap_bound, heap_item, n_heap)
        if k >= 2 * N * N:
            j = k - 2 * N * N
            o, line = strips[j, STRIP_DIR], strips[j, STRIP_LINE]
            out, n_out, count = _full_rack_plays(
                o,
                line,
                strips[j, STRIP_START],
                strips[j, STRIP_END],
                tt[o, line],
                bb[o, line],
                masks,
                crossed,
                sums,
                lmul,
                wmul,
                values,
                rack,
                bingo,
                keep,
                out,
                n_out,
                bingos,
                bingo_words,
                letter_hash,
                bingo_slots,
                scratch,
            )
            total += count
            continue
        o, rest = k // (N * N), k % (N * N)
        line, a = rest // N, rest % N
        if checking and not checked[k]:  # drop the anchor's strips that no word fits, then queue it anew
            checked[k] = True
            target = out[keep - 1, PLAY_SCORE] if n_out == keep else none
            better = none
            j = anchor_strip[k]
            while j >= 0:
                if strips[j, STRIP_EMPTY] >= CHECKED_TILES and strips[j, STRIP_BOUND] >= target:
                    if not _may_fill(
                        tt[o, line],
                        masks[o, line],
                        strips[j, STRIP_START],
                        strips[j, STRIP_END],
                        strips[j, STRIP_EMPTY],
                        sub_keys,
                        sub_first,
                        bingos,
                        bingo_words,
                        letter_hash,
                        bingo_slots,
                        memo_keys,
                        memo,
                        hits,
                    ):
                        dead[j] = True
                if not dead[j] and strips[j, STRIP_BOUND] > better:
                    better = strips[j, STRIP_BOUND]
                j = next_strip[j]
            if better < b:
                if better != none:
                    n_heap = _heap_push(heap_bound, heap_item, n_heap, better, k)
                continue
        _anchor_reach(strips, anchor_strip[k], next_strip, dead, a, reach, none)
        out, n_out, count = _anchor_walk(
            arcs,
            tilesets,
            tt[o, line],
            o,
            line,
            a,
            bb,
            masks,
            crossed,
            sums,
            anchors,
            lmul,
            wmul,
            values,
            rack,
            have,
            limit,
            bingo,
            rack_size,
            keep,
            out,
            n_out,
            work,
            reach,
        )
        total += count
    return out, n_out, total

"""Numba kernels of the lexicon graph: the GADDAG built from words as a packed arc array, each node's tiles
beside its first arc, its words by letter hash, and word look-ups.

A GADDAG (Gordon, 1994) holds, for every word w and every split 1 <= i <= len(w), the string
reverse(w[:i]) + SEP + w[i:] (the SEP left out when i = len(w)). It is stored like a KWG: one uint32 per
arc; a node is the run of its arcs, sorted by tile, the last one flagged; node 0 is "no node" and arc 0
points at the root. These kernels form one numba cache unit (this file): the node layout below is named here
once, and the move generator's kernels (another unit) name it again for themselves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The packed arc: the child node, whether it ends its node, whether a string ends with it, its tile.
CHILD_BITS = 22
CHILD_MASK = (1 << CHILD_BITS) - 1  # bits 0-21: the child node (the index of its first arc; 0 = none)
END = 1 << 22  # the last arc of its node
ACCEPTS = 1 << 23  # a string of the GADDAG ends with this arc
TILE_SHIFT = 24  # bits 24-31: the tile, SEP or 1 + letter code
SEP = 0
NODE_SHIFT = 32  # arc_tilesets: a node's tiles as bits from here on (this bit the separator, then letters)
MAX_STRING = 16  # a word of 15 letters and the separator
LONGEST = 15  # the longest word: the board's width
FILTER_BITS = 8  # long_words' filter: bits per hash-table slot


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
    n_arcs = np.int64(1)  # np.int64, not literals: numba compiles a callee once more for each literal argument
    table = np.full(1 << 16, -1, dtype=np.int64)
    n_nodes = np.int64(0)
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
        np.int64(0), p_tile, p_accepts, p_child, p_n, packed, arcs, n_arcs, table, n_nodes
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
    letter codes in the same order (an int8 row of LONGEST each, -1 past the end), and an open-addressing table of
    the distinct hashes (slot: the hash's low bits, then the next ones; 1 + the index of the first word with
    that hash, 0 empty) followed by a filter of FILTER_BITS bits per slot (the bit of each hash's high bits
    set), so that most hashes not in the table are turned away without reading the table."""
    words = np.full((1024, LONGEST), -1, dtype=np.int8)
    hashes = np.zeros(1024, dtype=np.uint64)
    n_words = 0
    pos = np.zeros(LONGEST + 1, dtype=np.int64)
    spelled = np.zeros(LONGEST + 1, dtype=np.int64)
    key = np.zeros(LONGEST + 1, dtype=np.uint64)
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
                bigger = np.full((2 * n_words, LONGEST), -1, dtype=np.int8)
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
        if child != 0 and d + 1 < LONGEST:
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
def _filter_bit(key, size):
    """The filter bit of a letter hash in a table of `size` slots: from the hash's high bits, as the slot is
    from its low ones."""
    return np.int64((key >> np.uint64(32)) & np.uint64(FILTER_BITS * size - 1))


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

"""Compiled (numba) kernels of the Boggle proof, first half: a board class's word paths, sorted, and their
orderly tree (the second half, forcing cells and the depth-first bound, is `breaking`).

A board class gives each cell a set of letters, `letters[cell, :n_letters[cell]]` (letter codes, Q = the Qu
cube); a letter of a cell is named by its index in that row. Cells are split in an order, `order[pos]` being
the cell split at position `pos`. Every way to spell a word on the class is a *word path*: a set of (cell,
letter) choices. A path is kept as three numbers:

* `key` (uint64): one digit per split position 1..n-1, position 1 most significant, each the letter index + 1
  at that cell (0: the path does not use it). Digit widths differ by cell (enough bits for its letters), so
  a 4×4 class of hybrid-boggle's partition fits 64 bits;
* `first` (uint8): the digit of position 0, kept apart (it is the first cell forced, so it buckets the keys);
* `wc` (uint32): the word's trie node << 6 | its points class (`values[class]` points).

The orderly tree is written into an *arena*, one int32 array of variable-length records (offsets are int32, so
an arena holds at most MAX_SLOTS slots; `new_arena` reserves them all at once and the system commits a page
only when it is first written, so the arena never grows by copying):

* a sum node at offset s: points, bound, k, then the offsets of its k choice children (increasing position);
* a choice node at offset c: position, bound, letter mask, then the offsets of its sum children, one per bit
  of the mask (increasing letter index).

A sum node's bound is its points plus its children's bounds; a choice node's is the largest of its children's.
Offsets 0, 3, ..., 3 * (INTERNED - 1) hold the leaf sum nodes of 0 .. INTERNED - 1 points, shared by all.

The dictionary is the project's compact trie: node i is one uint64 with its child letters in bits 0-25, the
class of its points in bits 26-31 and its first child's index in bits 32-63, children in letter order.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from pipeline.boggle.kernels.bits import ctlz64, ctpop32, ctpop64, cttz32
from pipeline.boggle.kernels.nodes import NODE_CLASS_MASK, NODE_CLASS_SHIFT, NODE_FIRST_SHIFT

# The arena's records (breaking.py reads them from here).
POINTS, BOUND, COUNT, KIDS = 0, 1, 2, 3  # a sum node's fields
POS, MASK = 0, 2  # a choice node's position and letter mask (its bound is at BOUND, children from KIDS)
INTERNED = 128  # leaf sum nodes of 0..127 points live at offsets 0, 3, ...
WC_SHIFT = 6  # wc = trie node << WC_SHIFT | points class
MAX_SLOTS = 1 << 31  # int32 offsets address this many arena slots (8 GiB), no more
RADIX_BITS = 8  # bits of a key sorted per pass: 256 places to write to at a time stay in the caches

Lexicon = namedtuple("Lexicon", ["nodes", "values", "nbrs", "ncount"])
Layout = namedtuple(
    "Layout",
    ["letters", "n_letters", "order", "pos_of", "shift", "width", "pos_at_bit", "high", "lows", "key_bits"],
)

_U64 = np.uint64
_LETTERS = _U64((1 << NODE_CLASS_SHIFT) - 1)


@njit(cache=True, inline="always")
def _shr(x, s):
    """x shifted right by s bits, 0 when s is 64 or more."""
    return x >> _U64(s) if s < 64 else _U64(0)


@njit(cache=True, inline="always")
def _low_bits(s):
    """A uint64 of its s lowest bits set (s = 0..64)."""
    return (_U64(1) << _U64(s)) - _U64(1) if s < 64 else ~_U64(0)


@njit(cache=True, inline="always")
def _kid(record, letter):
    """The index of a trie node's child for `letter` (one of its child letters)."""
    kids = np.uint32(record & _LETTERS)
    bit = np.uint32(1) << np.uint32(letter)
    return np.int64(np.uint32(record >> _U64(NODE_FIRST_SHIFT)) + ctpop32(kids & (bit - np.uint32(1))))


@njit(cache=True)
def word_paths(lex, lay, keys, wcs, firsts, seen):
    """Every word path of the class: its key, first digit and word (grown when the arrays are too short), their
    number, and the sum/union bound: the points of every distinct word some board of the class has (`seen` is
    a bit per trie node, cleared here). A depth-first walk of the class and the trie together, one level per
    cell of the path; each level steps through its unused neighbours and, for each, the letters of its set
    that continue the prefix."""
    nodes, values, nbrs, ncount = lex.nodes, lex.values, lex.nbrs, lex.ncount
    n = lay.letters.shape[0]
    first_cell = lay.order[0]
    cell_shift = np.zeros(n, dtype=np.uint64)
    cell_mask = np.zeros(n, dtype=np.uint64)
    for p in range(1, n):
        cell_shift[lay.order[p]] = lay.shift[p]
        cell_mask[lay.order[p]] = (_U64(1) << _U64(lay.width[p])) - _U64(1)
    letter_set = np.zeros(n, dtype=np.uint32)
    digit_of = np.zeros((n, 26), dtype=np.uint64)  # a letter's digit at a cell, in place in the key
    for cell in range(n):
        for li in range(lay.n_letters[cell]):
            letter_set[cell] |= np.uint32(1) << np.uint32(lay.letters[cell, li])
            digit_of[cell, lay.letters[cell, li]] = _U64(li + 1) << cell_shift[cell]
    seen[:] = 0
    n_keys = 0
    union = 0
    st_cell = np.empty(n + 1, dtype=np.int64)  # per level: the cell, its trie record,
    st_rec = np.empty(n + 1, dtype=np.uint64)
    st_k = np.empty(n + 1, dtype=np.int64)  # the next neighbour slot to try,
    st_todo = np.empty(n + 1, dtype=np.uint32)  # the letters still to try at the current neighbour,
    st_nb = np.empty(n + 1, dtype=np.int64)  # and that neighbour
    root = nodes[0]
    for start in range(n):
        start_todo = np.uint32(root & _LETTERS) & letter_set[start]
        while start_todo:
            letter = cttz32(start_todo)
            start_todo &= start_todo - np.uint32(1)
            node = _kid(root, letter)
            rec = nodes[node]
            d = 0
            st_cell[0], st_rec[0], st_k[0], st_todo[0] = start, rec, 0, 0
            used = np.int64(1) << start
            first = np.int64(digit_of[start, letter] >> cell_shift[start]) if start == first_cell else 0
            key = _U64(0) if start == first_cell else digit_of[start, letter]
            while d >= 0:
                cls = (rec >> _U64(NODE_CLASS_SHIFT)) & _U64(NODE_CLASS_MASK)
                if cls:  # the prefix just made is a word
                    bit = _U64(1) << _U64(node & 63)
                    if not seen[node >> 6] & bit:
                        seen[node >> 6] |= bit
                        union += values[cls]
                    if n_keys == keys.shape[0]:
                        keys, wcs, firsts = _grown_paths(keys, wcs, firsts, n_keys)
                    keys[n_keys] = key
                    wcs[n_keys] = (np.uint32(node) << np.uint32(WC_SHIFT)) | np.uint32(cls)
                    firsts[n_keys] = first
                    n_keys += 1
                while d >= 0:  # the next step from the deepest prefix that has one, stepping back as needed
                    todo = st_todo[d]
                    if not todo:
                        kids = np.uint32(st_rec[d] & _LETTERS)
                        cell = st_cell[d]
                        k = st_k[d]
                        while k < ncount[cell]:
                            nb = nbrs[cell, k]
                            k += 1
                            if not (used >> nb) & 1:
                                todo = kids & letter_set[nb]
                                if todo:
                                    st_nb[d] = nb
                                    break
                        st_k[d] = k
                        if not todo:
                            used &= ~(np.int64(1) << cell)
                            if cell == first_cell:
                                first = 0
                            else:
                                key &= ~(cell_mask[cell] << cell_shift[cell])
                            d -= 1
                            continue
                    letter = cttz32(todo)
                    st_todo[d] = todo & (todo - np.uint32(1))
                    node = _kid(st_rec[d], letter)
                    rec = nodes[node]
                    nb = st_nb[d]
                    d += 1
                    st_cell[d], st_rec[d], st_k[d], st_todo[d] = nb, rec, 0, 0
                    used |= np.int64(1) << nb
                    if nb == first_cell:
                        first = np.int64(digit_of[nb, letter] >> cell_shift[nb])
                    else:
                        key = (key & ~(cell_mask[nb] << cell_shift[nb])) | digit_of[nb, letter]
                    break
    return keys, wcs, firsts, n_keys, union


@njit(cache=True)
def _grown_paths(keys, wcs, firsts, n):
    """The three path arrays, twice as long, their first n entries kept."""
    size = max(1024, 2 * keys.shape[0])
    k = np.empty(size, dtype=np.uint64)
    w = np.empty(size, dtype=np.uint32)
    f = np.empty(size, dtype=np.uint8)
    k[:n] = keys[:n]
    w[:n] = wcs[:n]
    f[:n] = firsts[:n]
    return k, w, f


@njit(cache=True)
def sort_paths(keys, wcs, firsts, n_keys, key_bits, n_first):
    """The distinct (first, key, word) paths among the first n_keys, sorted by first digit then key, and where
    each first digit's run starts (`at[x]`, x = 0..n_first; at[n_first + 1] = the count). A counting pass on
    the first digit, then within each of its runs a least-significant-digit radix sort of the keys, a byte a
    pass (passes whose byte never changes skipped); in a run of equal keys (a few words at most) each word is
    kept once, since a board counts a word once however many paths spell it."""
    at = np.zeros(n_first + 2, dtype=np.int64)
    for i in range(n_keys):
        at[firsts[i] + 1] += 1
    for x in range(n_first + 1):
        at[x + 1] += at[x]
    a = np.empty(n_keys, dtype=np.uint64)
    aw = np.empty(n_keys, dtype=np.uint32)
    fill = at[: n_first + 1].copy()
    for i in range(n_keys):
        j = fill[firsts[i]]
        a[j], aw[j] = keys[i], wcs[i]
        fill[firsts[i]] = j + 1
    b = np.empty_like(a)
    bw = np.empty_like(aw)
    radix = _U64(RADIX_BITS)
    mask = _U64((1 << RADIX_BITS) - 1)
    passes = max(1, (key_bits + RADIX_BITS - 1) // RADIX_BITS)
    counts = np.zeros((passes, 1 << RADIX_BITS), dtype=np.int64)
    offsets = np.empty(1 << RADIX_BITS, dtype=np.int64)
    for x in range(n_first + 1):
        lo, hi = at[x], at[x + 1]
        if hi - lo < 2:
            continue
        counts[:, :] = 0
        for i in range(lo, hi):
            k = a[i]
            for p in range(passes):
                counts[p, (k >> (_U64(p) * radix)) & mask] += 1
        src, dst, src_w, dst_w = a, b, aw, bw
        for p in range(passes):
            shift = _U64(p) * radix
            start = lo
            single = False
            for digit in range(1 << RADIX_BITS):
                c = counts[p, digit]
                single |= c == hi - lo
                offsets[digit] = start
                start += c
            if single:
                continue
            for i in range(lo, hi):
                digit = (src[i] >> shift) & mask
                j = offsets[digit]
                dst[j], dst_w[j] = src[i], src_w[i]
                offsets[digit] = j + 1
            src, dst, src_w, dst_w = dst, src, dst_w, src_w
        if src is b:
            a[lo:hi], aw[lo:hi] = b[lo:hi], bw[lo:hi]
    m = 0
    for x in range(n_first + 1):  # keep each (key, word) once, run by run
        lo, hi = at[x], at[x + 1]
        at[x] = m
        run = m
        for i in range(lo, hi):
            if i == lo or a[i] != a[i - 1]:
                run = m
            else:
                repeat = False
                for j in range(run, m):
                    repeat |= aw[j] == aw[i]
                if repeat:
                    continue
            a[m], aw[m] = a[i], aw[i]
            m += 1
    at[n_first + 1] = m
    return a[:m], aw[:m], at


def new_arena(size):
    """An arena of `size` int32 slots (at most MAX_SLOTS) holding the interned leaf sum nodes; returns it and the
    first free slot. numpy's zeroed allocation maps fresh pages, so the slots cost memory only once written."""
    mem = np.zeros(min(max(size, 3 * INTERNED + 1024), MAX_SLOTS), dtype=np.int32)
    mem[0 : 3 * INTERNED : 3] = np.arange(INTERNED)  # POINTS
    mem[1 : 3 * INTERNED : 3] = np.arange(INTERNED)  # BOUND
    return mem, 3 * INTERNED


@njit(cache=True, inline="always")
def _room(mem, tip, need):
    """`mem` itself when `need` more slots fit after `tip`, else a copy twice as long, at most MAX_SLOTS (offsets
    stay valid); MemoryError when even that is too short."""
    if tip + need <= mem.shape[0]:
        return mem
    size = min(max(2 * mem.shape[0], tip + need + 1024), MAX_SLOTS)
    if tip + need > size:
        raise MemoryError("a class tree needs more arena slots than int32 offsets address")
    grown = np.zeros(size, dtype=np.int32)
    grown[:tip] = mem[:tip]
    return grown


@njit(cache=True)
def build_tree(keys, wcs, lo, hi, values, lay, mem, tip):
    """The orderly tree of the sorted paths keys[lo:hi] (positions 1..n-1) written into the arena in one pass
    (keys sharing a prefix of choices are neighbours, so only the previous key's path is open; nodes are
    written as they close, children first). Returns the arena (grown when needed), the next free slot and the
    root sum node's offset."""
    n = lay.letters.shape[0]
    s_acc = np.zeros(n + 1, dtype=np.int64)  # the open sum node at each depth: points plus finished children
    s_pts = np.zeros(n + 1, dtype=np.int64)
    s_from = np.zeros(n + 1, dtype=np.int64)  # where its finished children start on the pending stack
    s_letter = np.zeros(n + 1, dtype=np.int64)
    c_acc = np.zeros(n + 1, dtype=np.int64)  # the open choice node below it: its best finished child
    c_pos = np.zeros(n + 1, dtype=np.int64)
    c_mask = np.zeros(n + 1, dtype=np.int64)
    c_from = np.zeros(n + 1, dtype=np.int64)
    pending = np.empty(64 * (n + 1), dtype=np.int32)
    top = 0
    prev = _U64(0)
    prev_nz = _U64(0)
    m = 0
    for i in range(lo, hi + 1):
        last = i == hi
        body = _U64(0) if last else keys[i]
        nz = (((body & lay.lows) + lay.lows) | body) & lay.high  # the top bit of every non-zero digit
        if last:
            q, h, share = np.int64(0), np.int64(0), False
        else:
            diff = body ^ prev
            if diff == 0:
                q, h = np.int64(n), np.int64(m)
            else:
                q = np.int64(lay.pos_at_bit[63 - np.int64(ctlz64(diff))])
                h = np.int64(ctpop64(_shr(nz, lay.shift[q] + lay.width[q])))
            share = (
                q < n
                and ((nz >> _U64(lay.shift[q] + lay.width[q] - 1)) & _U64(1)) != 0
                and ((prev_nz >> _U64(lay.shift[q] + lay.width[q] - 1)) & _U64(1)) != 0
            )
        for j in range(m, h, -1):  # close the previous path's nodes below the shared part
            mem = _room(mem, tip, 3 + top - s_from[j])
            node, tip = _close_sum(mem, tip, s_pts[j], s_acc[j], pending, s_from[j], top)
            top = s_from[j]
            pending[top] = node
            top += 1
            c_mask[j - 1] |= np.int64(1) << s_letter[j]
            c_acc[j - 1] = max(c_acc[j - 1], s_acc[j])
            if j - 1 > h or not share:
                mem = _room(mem, tip, 3 + top - c_from[j - 1])
                node = tip
                mem[node + POS] = c_pos[j - 1]
                mem[node + BOUND] = c_acc[j - 1]
                mem[node + MASK] = c_mask[j - 1]
                tip = node + KIDS
                for t in range(c_from[j - 1], top):
                    mem[tip] = pending[t]
                    tip += 1
                top = c_from[j - 1]
                pending[top] = node
                top += 1
                s_acc[j - 1] += c_acc[j - 1]
        if last:
            break
        j = int(h)
        rest = nz & _low_bits(lay.shift[q] + lay.width[q]) if q < n else _U64(0)
        while rest:  # open the new key's remaining choices
            p = lay.pos_at_bit[63 - np.int64(ctlz64(rest))]
            rest &= _low_bits(lay.shift[p])
            if not (j == h and share):
                c_pos[j] = p
                c_acc[j] = 0
                c_mask[j] = 0
                c_from[j] = top
            s_letter[j + 1] = np.int64((body >> _U64(lay.shift[p])) & ((_U64(1) << _U64(lay.width[p])) - _U64(1))) - 1
            s_acc[j + 1] = 0
            s_pts[j + 1] = 0
            s_from[j + 1] = top
            j += 1
        pts = values[wcs[i] & np.uint32(NODE_CLASS_MASK)]
        s_acc[j] += pts
        s_pts[j] += pts
        m = j
        prev = body
        prev_nz = nz
    mem = _room(mem, tip, 3 + top)
    root, tip = _close_sum(mem, tip, s_pts[0], s_acc[0], pending, 0, top)
    return mem, tip, root


@njit(cache=True, inline="always")
def _close_sum(mem, tip, pts, bound, pending, lo, hi):
    """Write a finished sum node whose choice children are pending[lo:hi] in decreasing position (sorted keys
    meet a sum node's later cells first); a leaf of few points is the interned one. Returns (offset, tip)."""
    if hi == lo and pts < INTERNED:
        return 3 * np.int64(pts), tip
    node = tip
    mem[node + POINTS] = pts
    mem[node + BOUND] = bound
    mem[node + COUNT] = hi - lo
    for t in range(hi - lo):
        mem[node + KIDS + t] = pending[hi - 1 - t]
    return node, node + KIDS + hi - lo


@njit(cache=True)
def class_tree(keys, wcs, at, values, lay, mem, tip):
    """The class's orderly tree from its sorted paths bucketed by first digit: the tree of the paths that skip
    position 0's cell, with one choice node for that cell in front whose letter x holds the tree of bucket x.
    Returns the arena, the next free slot and the root's offset."""
    n_first = lay.n_letters[lay.order[0]]
    kids = np.zeros(n_first, dtype=np.int64)
    mask = 0
    best = 0
    for x in range(1, n_first + 1):
        if at[x + 1] > at[x]:
            mem, tip, kids[x - 1] = build_tree(keys, wcs, at[x], at[x + 1], values, lay, mem, tip)
            mask |= 1 << (x - 1)
            best = max(best, mem[kids[x - 1] + BOUND])
    mem, tip, rest = build_tree(keys, wcs, at[0], at[1], values, lay, mem, tip)
    if not mask:
        return mem, tip, rest
    k = mem[rest + COUNT]
    mem = _room(mem, tip, 2 * KIDS + n_first + k + 1)
    choice = tip
    mem[choice + POS] = 0
    mem[choice + BOUND] = best
    mem[choice + MASK] = mask
    tip = choice + KIDS
    for x in range(n_first):
        if (mask >> x) & 1:
            mem[tip] = kids[x]
            tip += 1
    root = tip
    mem[root + POINTS] = mem[rest + POINTS]
    mem[root + BOUND] = mem[rest + BOUND] + best
    mem[root + COUNT] = k + 1
    mem[root + KIDS] = choice
    for t in range(k):
        mem[root + KIDS + 1 + t] = mem[rest + KIDS + t]
    return mem, root + KIDS + k + 1, root

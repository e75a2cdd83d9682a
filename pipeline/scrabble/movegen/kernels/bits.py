"""Bit operations of the move generator's kernels: the processor's popcount and lowest set bit, an arc of a
GADDAG node, and the long words' hash table (found by the letter hash of a multiset of letters)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from pipeline.scrabble.movegen.kernels.layout import END, FILTER_BITS, TILE_SHIFT


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
def popcount(x):
    """The number of set bits of a non-negative int64."""
    return _ctpop64(x)


@njit(cache=True, inline="always")
def lowest(x):
    """The index of the lowest set bit of a non-zero int64."""
    return _cttz64(x)


@njit(cache=True, inline="always")
def arc(arcs, node, tile):
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


@njit(cache=True, inline="always")
def table_size(slots):
    """The number of hash-table slots of a long-word table (the filter's words follow them)."""
    return slots.shape[0] * 64 // (64 + FILTER_BITS)


@njit(cache=True, inline="always")
def filter_bit(key, size):
    """The filter bit of a letter hash in a table of `size` slots: from the hash's high bits, as the slot is
    from its low ones."""
    return np.int64((key >> np.uint64(32)) & np.uint64(FILTER_BITS * size - 1))


@njit(cache=True, inline="always")
def may_hold(slots, size, key):
    """Whether the table's filter lets the letter hash through (always, when the hash is in the table)."""
    bit = filter_bit(key, size)
    return (slots[size + (bit >> 6)] >> (bit & 63)) & 1 != 0


@njit(cache=True, inline="always")
def first_word(bingos, slots, key):
    """The index of the first of the sorted hashes equal to `key`, or -1: by the table `slots`, or by
    bisection when it is empty."""
    size = table_size(slots)
    if size == 0:
        i = np.searchsorted(bingos, key)
        return i if i < bingos.shape[0] and bingos[i] == key else -1
    if not may_hold(slots, size, key):
        return -1
    slot = key & np.uint64(size - 1)
    while slots[slot] != 0:
        i = slots[slot] - 1
        if bingos[i] == key:
            return i
        slot = (slot + np.uint64(1)) & np.uint64(size - 1)
    return -1

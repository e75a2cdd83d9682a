"""The packed trie node of a Boggle dictionary, its layout named once for the unit, and trie compaction."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.boggle.kernels.bits import ctpop32

# A Boggle dictionary is a compact trie (built as `mask`, `first` by trie_compact): node i is one uint64
# `nodes[i]` holding its child letters (bits 0-25), the class of its points (bits 26-31; the points are
# `values[class]`, > 0 when a countable word ends there) and the index of its first child (bits 32-63; its
# children are stored together, in letter order); `rank[i]` is that word's place, longest first then
# alphabetical.

# The packed node's bit layout, named once in the kernels' cache unit so that numba's cache of the kernels that
# read it follows any change (dictionary.pack_nodes writes nodes with it, read through the engine).
NODE_CLASS_SHIFT = 26  # bits 0-25: the child letters
NODE_CLASS_MASK = 63  # bits 26-31: the points class (class 0: no word ends here)
NODE_FIRST_SHIFT = 32  # bits 32-63: the index of the first child

_U64 = np.uint64


@njit(cache=True)
def trie_compact(children, word_at):
    """A trie's children table as (mask, first, word_at) in breadth-first order, children of a node adjacent."""
    n = children.shape[0]
    alphabet = children.shape[1]
    order = np.empty(n, dtype=np.int32)  # new index -> old node
    new_of = np.empty(n, dtype=np.int32)  # old node -> new index
    order[0] = 0
    new_of[0] = 0
    tail = 1
    mask = np.zeros(n, dtype=np.uint32)
    first = np.zeros(n, dtype=np.int32)
    out_word = np.empty(n, dtype=np.int32)
    for head in range(n):
        old = order[head]
        first[head] = tail
        m = np.uint32(0)
        for c in range(alphabet):
            child = children[old, c]
            if child >= 0:
                m |= np.uint32(1) << np.uint32(c)
                order[tail] = child
                new_of[child] = tail
                tail += 1
        mask[head] = m
        out_word[head] = word_at[old]
    return mask, first, out_word


_LETTERS = _U64((1 << NODE_CLASS_SHIFT) - 1)
_CLASS_SHIFT = _U64(NODE_CLASS_SHIFT)
_CLASS_MASK = _U64(NODE_CLASS_MASK)
_FIRST_SHIFT = _U64(NODE_FIRST_SHIFT)


@njit(cache=True, inline="always")
def node_children(record):
    """A packed node's child letters, as a 26-bit mask."""
    return np.uint32(record & _LETTERS)


@njit(cache=True, inline="always")
def node_points(record, values):
    """A packed node's points (0 when no countable word ends there)."""
    return values[(record >> _CLASS_SHIFT) & _CLASS_MASK]


@njit(cache=True, inline="always")
def child_of(record, letter):
    """The index of a packed node's child for `letter`, which must be one of its child letters."""
    children = node_children(record)
    letter_bit = np.uint32(1) << np.uint32(letter)
    return np.uint32(record >> _FIRST_SHIFT) + ctpop32(children & (letter_bit - np.uint32(1)))

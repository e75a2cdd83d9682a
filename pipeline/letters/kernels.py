"""Compiled (numba) kernels of the letter trie: node count and fill."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def trie_node_count(codes, offsets):
    """Distinct prefixes (root included) of sorted words given as letter codes with offsets."""
    nodes = 1
    prev_start, prev_len = 0, 0
    for i in range(offsets.shape[0] - 1):
        start, length = offsets[i], offsets[i + 1] - offsets[i]
        common = 0
        while common < length and common < prev_len and codes[start + common] == codes[prev_start + common]:
            common += 1
        nodes += length - common
        prev_start, prev_len = start, length
    return nodes


@njit(cache=True)
def trie_fill(codes, offsets, n_nodes, alphabet):
    """Children table (n_nodes × alphabet, -1 = none) and the word index ending at each node (-1 = none)."""
    children = np.full((n_nodes, alphabet), -1, dtype=np.int32)
    word_at = np.full(n_nodes, -1, dtype=np.int32)
    used = 1
    for i in range(offsets.shape[0] - 1):
        node = 0
        for j in range(offsets[i], offsets[i + 1]):
            c = codes[j]
            nxt = children[node, c]
            if nxt < 0:
                nxt = used
                used += 1
                children[node, c] = nxt
            node = nxt
        word_at[node] = i
    return children, word_at

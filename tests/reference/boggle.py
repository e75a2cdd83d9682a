"""The Boggle references: a plain recursive solver over a dict trie, dice matched to letters, the proof's brute
force on tiny grids."""

from __future__ import annotations

import itertools

import numpy as np

from pipeline.boggle.classes import canonical_board
from pipeline.boggle.rules import Dice, Rules
from pipeline.boggle.solver import board_texts, score_boards


def dict_trie(words, min_length):
    """A trie of nested dicts; '$' marks a word's end."""
    root: dict = {}
    for w in words:
        if len(w) >= min_length:
            node = root
            for ch in w:
                node = node.setdefault(ch, {})
            node["$"] = w
    return root


def reference_words(letters: str, rows: int, cols: int, trie: dict) -> set[str]:
    """Every word spelled by a path of adjacent, distinct cubes (the Q cube spells QU)."""
    found: set[str] = set()

    def neighbours(i):
        r, c = divmod(i, cols)
        return [
            rr * cols + cc
            for rr in range(r - 1, r + 2)
            for cc in range(c - 1, c + 2)
            if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
        ]

    def walk(i, node, used):
        for ch in "QU" if letters[i] == "Q" else letters[i]:
            node = node.get(ch)
            if node is None:
                return
        if "$" in node:
            found.add(node["$"])
        for j in neighbours(i):
            if j not in used:
                walk(j, node, used | {j})

    for i in range(rows * cols):
        walk(i, trie, {i})
    return found


def reference_score(words: set[str], rules: Rules) -> int:
    """Total points of a set of words, by the scoring table written out."""
    table = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}
    return sum(table.get(len(w), 11) for w in words if len(w) >= rules.min_length)


def rollable(letters: str, dice: Dice) -> bool:
    """Whether distinct dice can show these letters (bipartite matching by augmenting paths)."""
    owner: dict[int, int] = {}

    def place(cell, seen):
        for d, faces in enumerate(dice.faces):
            if letters[cell] in faces and d not in seen:
                seen.add(d)
                if d not in owner or place(owner[d], seen):
                    owner[d] = cell
                    return True
        return False

    return all(place(cell, set()) for cell in range(len(letters)))


def brute_force(rows: int, cols: int, alphabet: str, dictionary, floor: int) -> dict[str, int]:
    """Every board over the alphabet scoring at least `floor`, by scoring all of them, canonicalised."""
    codes = np.array([ord(c) - 65 for c in alphabet], dtype=np.int8)
    n = rows * cols
    boards = np.array(list(itertools.product(codes, repeat=n)), dtype=np.int8)
    scores = score_boards(boards, rows, cols, dictionary).scores
    keep = np.flatnonzero(scores >= floor)
    return {canonical_board(t, rows, cols): int(s) for t, s in zip(board_texts(boards[keep]), scores[keep].tolist())}

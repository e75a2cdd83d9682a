"""The Boggle kernels' C extension (pipeline/boggle/native/, pipeline.boggle.engine): exactly the numba kernels'
results on random boards and dictionaries, the same node layout, arguments checked, and no numba on its path."""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.engine import kernels
from pipeline.boggle.kernels import nodes, solve
from pipeline.boggle.rules import Rules, neighbours
from pipeline.core import native
from pipeline.letters import kernels as letters
from pipeline.letters.trie import build_trie
from tests.conftest import ENABLE, ROOT

pytestmark = pytest.mark.numba_reference  # the numba kernels called directly, as the reference

LETTERS = "EEEEEEEEEAAAAAAIIIIIIOOOOOSSSSSRRRRRTTTTTNNNNNLLLLCCCDDDUUUGGPPMMHHBYFVKWZXJQQQ"  # as in words, Q often
STANDARD = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))


@cache
def enable() -> list[str]:
    """The ENABLE word list, upper case."""
    return ENABLE.read_text().upper().split()


@cache
def sample(seed: int, size: int) -> list[str]:
    """A seeded random sample of ENABLE."""
    return random.Random(seed).sample(enable(), size)


@cache
def dictionary(seed: int, size: int, min_length: int, points: tuple[int, ...]):
    """The Boggle dictionary of a sample of ENABLE under some rules."""
    return compile_dictionary(sample(seed, size), Rules("t", min_length, points))


def same(ours, theirs) -> bool:
    """Whether two tuples of arrays hold the same dtypes, shapes and values."""
    return all(a.dtype == b.dtype and a.shape == b.shape and (a == b).all() for a, b in zip(ours, theirs, strict=True))


def test_the_node_layout_is_the_numba_kernels():
    module = native.load("pipeline.boggle")
    assert module.NODE_CLASS_SHIFT == kernels().NODE_CLASS_SHIFT == nodes.NODE_CLASS_SHIFT
    assert module.NODE_FIRST_SHIFT == kernels().NODE_FIRST_SHIFT == nodes.NODE_FIRST_SHIFT
    assert native.status("pipeline.boggle") == native.COMPILED


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**16), st.sampled_from([1, 50, 2000, 20000]))
def test_the_trie_kernels_give_the_numba_kernels_results(seed, size):
    words = sample(seed, size)
    ours, theirs = build_trie(words, kernels()), build_trie(words, letters)
    assert same((ours.children, ours.word_at), (theirs.children, theirs.word_at))
    assert same(kernels().trie_compact(ours.children, ours.word_at), nodes.trie_compact(ours.children, ours.word_at))


@settings(max_examples=60, deadline=None)  # each example compiles a dictionary of up to 100,000 words
@given(
    st.integers(2, 5),
    st.integers(2, 5),
    st.randoms(use_true_random=False),
    st.integers(0, 3),
    st.sampled_from([3000, 100000]),
    st.integers(1, 4),
    st.lists(st.integers(0, 12), min_size=2, max_size=9).map(tuple),
)
@pytest.mark.slow
def test_solving_gives_the_numba_kernels_results(rows, cols, rng, seed, size, min_length, points):
    board = np.array([ord(rng.choice(LETTERS)) - 65 for _ in range(rows * cols)], dtype=np.int8)
    d = dictionary(seed, size, min_length, points)
    assert same(kernels().boggle_neighbours(rows, cols), solve.boggle_neighbours(rows, cols))
    grid = neighbours(rows, cols)
    found = kernels().boggle_solve(board, *grid, *d.arrays)
    assert same((found,), (solve.boggle_solve(board, *grid, *d.arrays),))


def test_a_full_enable_board_gives_the_numba_kernels_results():
    d = compile_dictionary(enable(), STANDARD)
    board = np.frombuffer(b"PERSLATGSINETERS", dtype=np.int8) - np.int8(65)
    grid = neighbours(4, 4)
    found = kernels().boggle_solve(board, *grid, *d.arrays)
    assert same((found,), (solve.boggle_solve(board, *grid, *d.arrays),)) and len(found) > 1000
    assert len(set(found.tolist())) == len(found) and (d.points[found] > 0).all()


def test_arguments_are_checked():
    k, module = kernels(), native.load("pipeline.boggle")
    d = dictionary(0, 3000, 3, STANDARD.points)
    grid, board = neighbours(2, 2), np.zeros(4, dtype=np.int8)
    with pytest.raises(TypeError, match=r"boggle_solve\(\): board must be a 1-d int8 array, not a 1-d int64 array"):
        k.boggle_solve(board.astype(np.int64), *grid, *d.arrays)
    with pytest.raises(TypeError, match="nodes must be a 1-d uint64 array, not a 1-d int64 array"):
        k.boggle_solve(board, *grid, d.nodes.astype(np.int64), d.values, d.rank)
    with pytest.raises(TypeError, match="nbrs must be a 2-d int32 array, not a 1-d int32 array"):
        k.boggle_solve(board, grid[0].ravel(), grid[1], *d.arrays)
    with pytest.raises(TypeError, match="board must be a 1-d int8 array, not list"):
        k.boggle_solve([0, 0, 0, 0], *grid, *d.arrays)
    with pytest.raises(ValueError, match="nbrs must have 4 entries along axis 0, not 9"):
        k.boggle_solve(board, *neighbours(3, 3), *d.arrays)
    with pytest.raises(ValueError, match="cell 1's letter or neighbours are out of range"):
        k.boggle_solve(np.array([0, 26, 0, 0], dtype=np.int8), *grid, *d.arrays)
    broken = np.array([1 | 5 << 32], dtype=np.uint64)  # the root's child for A lies past the last node
    with pytest.raises(ValueError, match="a node's child or points class is out of range"):
        k.boggle_solve(board, *grid, broken, d.values, np.zeros(1, dtype=np.int32))
    with pytest.raises(ValueError, match="at most 64 cells"):
        k.boggle_solve(np.zeros(72, dtype=np.int8), *neighbours(8, 9), *d.arrays)
    children = np.array([[1, -1], [-1, -1]], dtype=np.int32)
    word_at = np.array([-1, 0], dtype=np.int32)
    assert same(k.trie_compact(children, word_at), nodes.trie_compact(children, word_at))
    with pytest.raises(TypeError, match="children must be a 2-d int32 array, not a 2-d int64 array"):
        k.trie_compact(children.astype(np.int64), word_at)
    with pytest.raises(ValueError, match="children must be a C-contiguous array"):
        k.trie_compact(np.repeat(children, 2, axis=1)[:, ::2], word_at)
    with pytest.raises(ValueError, match="children is not a tree"):
        k.trie_compact(np.array([[1, 1], [-1, -1]], dtype=np.int32), word_at)
    out = np.zeros(2, dtype=np.uint32), np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int32)
    out[1].flags.writeable = False
    with pytest.raises(ValueError, match="first must be writable"):
        module.trie_compact(children, word_at, *out)
    codes, offsets = np.array([0, 1], dtype=np.uint8), np.array([0, 2], dtype=np.int64)
    with pytest.raises(TypeError, match="codes must be a 1-d uint8 array, not a 1-d float64 array"):
        k.trie_node_count(codes.astype(np.float64), offsets)
    with pytest.raises(TypeError, match="offsets must be a 1-d int64 array, not a 1-d int32 array"):
        k.trie_fill(codes, offsets.astype(np.int32), 3, 26)
    with pytest.raises(ValueError, match="word 0's offsets are out of order"):
        k.trie_node_count(codes, np.array([0, 3], dtype=np.int64))
    with pytest.raises(ValueError, match="not below the alphabet's size"):
        k.trie_fill(codes, offsets, 3, 1)
    with pytest.raises(ValueError, match="need more nodes"):
        k.trie_fill(codes, offsets, 2, 26)
    with pytest.raises(TypeError, match="takes exactly 4 arguments"):
        module.boggle_neighbours(2, 2)
    with pytest.raises(ValueError, match="no grid of -1 x 2 cells"):
        k.boggle_neighbours(-1, 2)


def test_solving_imports_no_numba():
    script = """
import sys
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.rules import Rules, parse_board
from pipeline.boggle.solver import solve
d = compile_dictionary(["TEA", "EAT", "QUA", "TAQUE", "TEAS"], Rules("t", 3, (0, 1)))
print(sorted(f.word for f in solve(parse_board("TEAQ", "2x2"), d)))
assert not [m for m in sys.modules if m.split(".")[0] in ("numba", "llvmlite")]
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "['EAT', 'QUA', 'TAQUE', 'TEA']"

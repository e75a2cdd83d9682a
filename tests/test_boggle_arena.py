"""The Boggle proof's arena: reserved whole at no memory cost, and the same trees and boards wherever it ends (the C
kernels then stop, and the engine calls them again on a longer arena)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from pipeline.boggle import prove as prove_module
from pipeline.boggle.classes import split_order
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.engine import kernels
from pipeline.boggle.prove import Problem, parse_partition, prove_shard, reserved_arena
from tests.support.boggle_prove import (
    MOBY,
    STANDARD,
    assert_proof_is_brute_force,
    class_tree,
    one_thread_fixture,  # noqa: F401  (a fixture)
    synthetic_dictionary,
)

pytestmark = pytest.mark.usefixtures("one_thread")

MIB = 1 << 20
K = kernels()
LETTERS_3X3 = ["AEST", "RLNT", "AEIO", "STRD", "AEIO", "NRST", "EAO", "LRST", "AEIU"]  # a heavy 3x3 class


@pytest.fixture(scope="module")
def moby():
    """The Moby dictionary under standard rules."""
    return compile_dictionary(sorted(set(MOBY.read_text().upper().split())), STANDARD)


def resident_bytes(array: np.ndarray) -> int:
    """The resident memory of the mappings that hold `array` (from /proc/self/smaps: other allocations of this
    process, freed or made meanwhile, do not count)."""
    start, stop = array.ctypes.data, array.ctypes.data + array.nbytes
    total, inside = 0, False
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split()[0]
            if "-" in head and all(c in "0123456789abcdef-" for c in head):
                low, high = (int(x, 16) for x in head.split("-"))
                inside = low < stop and start < high
            elif inside and head == "Rss:":
                total += int(line.split()[1]) * 1024
    return total


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="needs Linux's /proc")
def test_the_reserved_arena_costs_memory_only_where_written():
    arena, base = reserved_arena()
    assert arena.shape[0] == K.MAX_SLOTS  # every int32 offset addressable: it never grows by copying
    assert arena[3 * 5 + K.POINTS] == 5 and arena[3 * 5 + K.BOUND] == 5 and base == 3 * K.INTERNED
    assert resident_bytes(arena) < 16 * MIB  # 8 GiB reserved, a few pages written
    arena[K.MAX_SLOTS // 2 : K.MAX_SLOTS // 2 + 64 * MIB // 4] = 1  # 64 MiB written far out
    assert 32 * MIB < resident_bytes(arena) < 90 * MIB  # the pages written (less any the system reclaimed)


def test_a_class_tree_is_the_same_wherever_its_arena_ends(moby):
    tree = class_tree(moby, 3, 3, LETTERS_3X3)
    base = 3 * K.INTERNED
    slots = tree.tip - base
    assert slots > 10_000, "the tree must cross many arena ends"
    expected = tree.arena[: tree.tip]
    for size in sorted({base + 1, base + 7, *range(base + 13, tree.tip + 50, max(1, slots // 97)), tree.tip}):
        arena = K.new_arena(0)[0]
        arena = np.concatenate([arena[:base], np.zeros(size - base, dtype=np.int32)])
        mem, tip, root = K.class_tree(tree.keys, tree.wcs, tree.at, moby.values, tree.layout, arena, base)
        assert (tip, root) == (tree.tip, tree.root), size
        assert np.array_equal(mem[:tip], expected), size


def test_breaking_a_tree_is_the_same_wherever_its_arena_ends(moby):
    tree = class_tree(moby, 3, 3, LETTERS_3X3)
    n_letters = tree.layout.n_letters[split_order(3, 3)].astype(np.int64)
    floor = int(tree.arena[tree.root + K.BOUND]) // 6
    args = (tree.root, n_letters, floor, int(1.7 * floor), 9 - 4)
    roomy = K.break_tree(np.concatenate([tree.arena[: tree.tip], np.zeros(1 << 24, np.int32)]), tree.tip, *args)
    boards, forced = roomy[1], roomy[2]
    assert boards.shape[0] > 10 and forced.sum() > 20, "the floor must leave boards to find and trees to force"
    for extra in (1, 9, 100, 1000, 5000, 30_000):  # the arena ends inside the forced trees: it grows
        got = K.break_tree(np.concatenate([tree.arena[: tree.tip], np.zeros(extra, np.int32)]), tree.tip, *args)
        assert got[0].shape[0] > tree.tip + extra
        for mine, theirs in zip(got[1:], roomy[1:]):
            assert np.array_equal(mine, theirs), extra


def proof_from_a_tiny_growing_arena(tmp_path, monkeypatch, rows: int, cols: int) -> None:
    """A proof over every board of R and T whose arena starts at 1,408 slots and grows many times: the boards
    brute force finds, and a class's tree alone outgrew the first arena."""
    monkeypatch.setattr(prove_module, "reserved_arena", lambda: K.new_arena(0))
    dictionary = synthetic_dictionary("RT", 6, 0.3, seed=12)
    assert_proof_is_brute_force(tmp_path, rows, cols, "RT", dictionary, ["RT", "R T, center: RT"], 0, (1.0, 1.7))
    problem = Problem(rows, cols, dictionary, parse_partition("RT"), 1)
    classes = prove_shard(problem, problem.space.canonical_ids())["classes"]
    assert classes["tree_slots"].max() > 1408


def test_a_proof_from_a_tiny_growing_arena_equals_brute_force_on_3x3(tmp_path, monkeypatch):
    proof_from_a_tiny_growing_arena(tmp_path, monkeypatch, 3, 3)  # 512 boards


@pytest.mark.slow
def test_a_proof_from_a_tiny_growing_arena_equals_brute_force(tmp_path, monkeypatch):
    proof_from_a_tiny_growing_arena(tmp_path, monkeypatch, 3, 4)  # 4,096 boards

"""The Boggle proof's C kernels (pipeline/boggle/native/: paths.c, tree.c, force.c, search.c, break.c, through
pipeline.boggle.engine) against their numba reference (kernels.prove, kernels.breaking): the same word paths, sorted
paths, trees, forced trees, candidate boards and counts, scores, and the same proof class by class, on random
classes, dictionaries and floors; the arguments checked."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.boggle.classes import parse_partition, split_order
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.engine import kernels
from pipeline.boggle.prove import Layout, Lexicon, Problem, Prover, chosen_class, class_layout
from pipeline.boggle.rules import neighbours
from tests.conftest import ENABLE
from tests.support.boggle_prove import NUMBA, STANDARD, class_tree

pytestmark = pytest.mark.numba_reference  # the numba kernels called directly, as the reference

LETTERS = "ABCDEFGHIKLMNOPQRSTUWY"  # Q is the Qu cube
SIZES = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]


@cache
def dictionary(seed: int, size: int):
    """The standard dictionary of a seeded sample of ENABLE."""
    words = ENABLE.read_text().upper().split()
    return compile_dictionary(random.Random(seed).sample(words, min(size, len(words))), STANDARD)


def same_arrays(ours, theirs) -> bool:
    """Whether two sequences of arrays hold the same dtypes, shapes and values."""
    return all(a.dtype == b.dtype and a.shape == b.shape and (a == b).all() for a, b in zip(ours, theirs, strict=True))


def random_class(data, rows: int, cols: int, most: int = 4) -> list[str]:
    """A random class: each cell 1 to `most` letters, sorted."""
    sets = st.sets(st.sampled_from(LETTERS), min_size=1, max_size=most)
    return ["".join(sorted(data.draw(sets))) for _ in range(rows * cols)]


def problem_class(data):
    """A random grid, class and dictionary, heavier classes on smaller grids."""
    rows, cols = data.draw(st.sampled_from(SIZES))
    most = 2 if rows * cols == 16 else 4
    d = dictionary(data.draw(st.integers(0, 3)), data.draw(st.sampled_from([2000, 20000, 200000])))
    return rows, cols, random_class(data, rows, cols, most), d


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_word_paths_sorting_and_trees_are_numbas(data):
    rows, cols, letters, d = problem_class(data)
    order = split_order(rows, cols)
    lay = class_layout(letters, order)
    lex = Lexicon(d.nodes, d.values, *neighbours(rows, cols))
    got = {}
    for name, k in (("c", kernels()), ("numba", NUMBA)):
        seen = np.full(d.nodes.shape[0] // 64 + 1, 7, dtype=np.uint64)  # cleared by the kernel
        small = (np.empty(3, dtype=np.uint64), np.empty(3, dtype=np.uint32), np.empty(3, dtype=np.uint8))
        keys, wcs, firsts, n, union = k.word_paths(lex, lay, *small, seen)
        paths = (keys[:n], wcs[:n], firsts[:n])
        n_first = int(lay.n_letters[order[0]])
        ordered = k.sort_paths(keys, wcs, firsts, n, lay.key_bits, n_first)
        arena, base = k.new_arena(0)  # far too short: the tree grows it
        mem, tip, root = k.class_tree(*ordered, d.values, lay, arena, base)
        lo, hi = int(ordered[2][0]), int(ordered[2][1])
        single = k.build_tree(ordered[0], ordered[1], lo, hi, d.values, lay, k.new_arena(0)[0], base)
        got[name] = (paths, int(union), ordered, mem[:tip], (tip, root), single[0][: single[1]], single[1:])
    c, numba = got["c"], got["numba"]
    assert same_arrays(c[0], numba[0]) and c[1] == numba[1]
    assert same_arrays(c[2], numba[2])
    assert same_arrays((c[3],), (numba[3],)) and c[4] == numba[4]
    assert same_arrays((c[5],), (numba[5],)) and c[6] == numba[6]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_forced_trees_are_numbas(data):
    rows, cols, letters, d = problem_class(data)
    n = rows * cols
    order = split_order(rows, cols)
    trees = {name: class_tree(d, rows, cols, letters, by=k) for name, k in (("c", kernels()), ("numba", NUMBA))}
    state = {name: (t.arena, t.tip, t.root) for name, t in trees.items()}
    for pos in range(data.draw(st.integers(1, n - 1))):
        letter = data.draw(st.integers(0, len(letters[int(order[pos])]) - 1))
        for name, k in (("c", kernels()), ("numba", NUMBA)):
            mem, tip, node = state[name]
            state[name] = k.force_tree(mem, tip, node, pos, letter)
        (mem_c, tip_c, node_c), (mem_n, tip_n, node_n) = state["c"], state["numba"]
        assert (tip_c, node_c) == (tip_n, node_n)
        assert np.array_equal(mem_c[:tip_c], mem_n[:tip_n])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_breaking_a_tree_is_numbas(data):
    rows, cols, letters, d = problem_class(data)
    n = rows * cols
    order = split_order(rows, cols)
    tree = class_tree(d, rows, cols, letters)
    bound = int(tree.arena[tree.root + kernels().BOUND])
    floor = max(1, round(bound * data.draw(st.sampled_from([0.05, 0.1, 0.2, 0.4, 0.7, 1.0]))))
    switch = int(data.draw(st.sampled_from([1.0, 1.7, 100.0])) * floor)
    max_force = n - data.draw(st.integers(1, min(4, n)))
    n_letters = tree.layout.n_letters[order].astype(np.int64)
    extra = data.draw(st.sampled_from([1, 100, 1 << 20]))  # room for forced trees: little (they grow it) or much
    got = []
    for k in (kernels(), NUMBA):
        arena = np.concatenate([tree.arena[: tree.tip], np.zeros(extra, np.int32)])
        got.append(k.break_tree(arena, tree.tip, tree.root, n_letters, floor, switch, max_force))
    (c, *c_rest), (numba, *numba_rest) = got
    assert np.array_equal(c[: tree.tip], numba[: tree.tip])
    assert same_arrays(c_rest, numba_rest)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SIZES + [(5, 5)]), st.randoms(use_true_random=False), st.integers(0, 3), st.integers(1, 300))
def test_scores_are_numbas(size, rng, seed, n_boards):
    rows, cols = size
    d = dictionary(seed, 100000)
    boards = np.array(
        [[ord(rng.choice(LETTERS)) - 65 for _ in range(rows * cols)] for _ in range(n_boards)], dtype=np.int8
    )
    grid = neighbours(rows, cols)
    ours = kernels().boggle_scores(boards, *grid, d.nodes, d.values)
    assert same_arrays((ours,), (NUMBA.boggle_scores(boards, *grid, d.nodes, d.values),))


def numba_prover(problem: Problem) -> Prover:
    """A prover of the problem that runs the numba kernels."""
    prover = Prover(problem)
    prover.kernels = NUMBA
    prover.arena, prover.base = NUMBA.new_arena(1 << 12)
    return prover


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_proof_is_numbas_class_by_class(data):
    rows, cols = data.draw(st.sampled_from([(2, 2), (2, 3), (3, 3)]))
    most = 8 if rows * cols < 9 else 5  # letters of the partition: 5**9 boards of 3x3 at most
    alphabet = "".join(sorted(data.draw(st.sets(st.sampled_from(LETTERS), min_size=2, max_size=most))))
    cut = data.draw(st.integers(1, len(alphabet) - 1))
    partition = parse_partition(f"{alphabet[:cut]} {alphabet[cut:]}")
    d = dictionary(data.draw(st.integers(0, 3)), 200000)
    floor = data.draw(st.integers(1, 40) if rows * cols < 9 else st.integers(30, 150))
    problem = Problem(rows, cols, d, partition, floor, switch=data.draw(st.sampled_from([1.0, 1.7, 100.0])))
    ours, theirs = Prover(problem), numba_prover(problem)
    for class_id in problem.space.canonical_ids().tolist():
        c_boards, c_row, _ = ours.prove(class_id)
        n_boards, n_row, _ = theirs.prove(class_id)
        assert (c_boards, c_row) == (n_boards, n_row), class_id


@pytest.mark.slow
def test_heavy_3x3_classes_are_numbas():
    """Whole 3x3 classes of ENABLE with many words, at a floor that leaves candidate boards."""
    d = compile_dictionary(ENABLE.read_text().upper().split(), STANDARD)
    problem = Problem(3, 3, d, parse_partition("AEIO LNRST"), 250)
    ours, theirs = Prover(problem), numba_prover(problem)
    scored = 0
    for board in ("SEATLRATE", "AISTRNESE", "TEARSLION", "RETAINERS", "LENTOSAIR"):
        class_id = chosen_class(problem, board)
        c_boards, c_row, _ = ours.prove(class_id)
        n_boards, n_row, _ = theirs.prove(class_id)
        assert (c_boards, c_row) == (n_boards, n_row), class_id
        scored += c_row["boards_scored"]
    assert scored > 100, "the floor must leave boards to score"


def test_arguments_are_checked():
    k, module = kernels(), kernels().module
    d = dictionary(0, 2000)
    order = split_order(2, 2)
    lay = class_layout(["E", "AE", "RST", "T"], order)
    lex = Lexicon(d.nodes, d.values, *neighbours(2, 2))
    seen = np.zeros(d.nodes.shape[0] // 64 + 1, dtype=np.uint64)
    buffers = (np.empty(8, np.uint64), np.empty(8, np.uint32), np.empty(8, np.uint8))
    with pytest.raises(TypeError, match=r"word_paths\(\): lay must be a Layout of 10 fields"):
        module.word_paths(*lex, tuple(lay)[:9], *buffers, seen)
    with pytest.raises(TypeError, match="lay.letters must be a 2-d int8 array, not a 2-d int64 array"):
        k.word_paths(lex, lay._replace(letters=lay.letters.astype(np.int64)), *buffers, seen)
    with pytest.raises(ValueError, match="order is not a permutation of the cells"):
        k.word_paths(lex, lay._replace(order=np.zeros(4, np.int32)), *buffers, seen)
    with pytest.raises(ValueError, match="a letter code is not 0 to 25"):
        k.word_paths(lex, lay._replace(letters=lay.letters + np.int8(30)), *buffers, seen)
    with pytest.raises(ValueError, match="digit does not hold its cell's letters"):
        k.word_paths(lex, lay._replace(width=np.ones(4, np.int64)), *buffers, seen)
    with pytest.raises(ValueError, match="high and lows are not the digits' top and other bits"):
        k.word_paths(lex, lay._replace(high=np.uint64(1)), *buffers, seen)
    with pytest.raises(ValueError, match="pos_at_bit does not name them"):
        k.word_paths(lex, lay._replace(pos_at_bit=np.zeros(64, np.int64)), *buffers, seen)
    with pytest.raises(ValueError, match="seen must hold a bit per node"):
        k.word_paths(lex, lay, *buffers, seen[:1])
    with pytest.raises(ValueError, match="wcs must have 8 entries along axis 0, not 4"):
        module.word_paths(*lex, lay, buffers[0], buffers[1][:4], buffers[2], seen)
    keys, wcs, firsts, n, _ = k.word_paths(lex, lay, *buffers, seen)
    with pytest.raises(ValueError, match="path 0's first digit is above n_first"):
        k.sort_paths(keys, wcs, np.full(keys.shape[0], 9, np.uint8), n, lay.key_bits, 1)
    with pytest.raises(ValueError, match="key_bits 0 to 64"):
        k.sort_paths(keys, wcs, firsts, n, 65, 1)
    keys, wcs, at = k.sort_paths(keys, wcs, firsts, n, lay.key_bits, 1)
    arena, base = k.new_arena(0)
    with pytest.raises(ValueError, match="at must rise within the paths"):
        k.class_tree(keys, wcs, at[::-1].copy(), d.values, lay, arena, base)
    with pytest.raises(ValueError, match="tip lies past its interned leaves"):
        k.class_tree(keys, wcs, at, d.values, lay, arena, 5)
    assert order.tolist() == [0, 1, 2, 3] and lay.width[1] == 2  # position 1: cell 1, AE, digits 1 and 2
    for key in (3 << int(lay.shift[1]), 1 << 63):  # a third letter of AE; a bit past the digits
        with pytest.raises(ValueError, match="a key's digits lie outside the layout or past their cells' letters"):
            k.build_tree(np.full(1, key, np.uint64), wcs[:1], 0, 1, d.values, lay, arena, base)
    with pytest.raises(ValueError, match="a word's points class lies past values"):
        k.build_tree(keys, wcs, 0, keys.shape[0], d.values[:1], lay, arena, base)
    with pytest.raises(ValueError, match="lo and hi must lie in order within the paths"):
        k.build_tree(keys, wcs, 1, 0, d.values, lay, arena, base)
    arena.flags.writeable = False
    with pytest.raises(ValueError, match="mem must be writable"):
        k.class_tree(keys, wcs, at, d.values, lay, arena, base)
    mem, tip, root = k.class_tree(keys, wcs, at, d.values, lay, k.new_arena(0)[0], base)
    n_letters = lay.n_letters[order].astype(np.int64)
    with pytest.raises(ValueError, match="max_force below them"):
        k.break_tree(mem, tip, root, n_letters, 1, 1, 4)
    with pytest.raises(ValueError, match="root below it"):
        k.break_tree(mem, tip, tip, n_letters, 1, 1, 0)
    with pytest.raises(TypeError, match="n_letters must be a 1-d int64 array, not a 1-d int32 array"):
        k.break_tree(mem, tip, root, n_letters.astype(np.int32), 1, 1, 0)
    with pytest.raises(ValueError, match="letter 0 to 25"):
        k.force_tree(mem, tip, root, 0, 26)
    with pytest.raises(ValueError, match="board 1's letters or the neighbours are out of range"):
        k.boggle_scores(np.array([[0, 1, 2, 3], [0, 26, 0, 0]], np.int8), *neighbours(2, 2), d.nodes, d.values)
    with pytest.raises(ValueError, match="scores must have 2 entries along axis 0, not 1"):
        module.boggle_scores(np.zeros((2, 4), np.int8), *neighbours(2, 2), d.nodes, d.values, np.zeros(1, np.int32))
    assert Layout._fields[:3] == ("letters", "n_letters", "order")  # the positions layout.c reads

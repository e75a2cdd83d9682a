"""The Boggle proof's tests' helpers: small dictionaries, class trees (by the C engine the proof runs, or by the
numba kernels, its reference), proofs checked against brute force."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from pipeline.boggle.classes import parse_partition, split_order
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.engine import kernels
from pipeline.boggle.kernels import breaking as bk
from pipeline.boggle.kernels import prove as pk
from pipeline.boggle.prove import Lexicon, Problem, class_layout, prove
from pipeline.boggle.rules import Rules, neighbours
from tests.conftest import ROOT
from tests.reference.boggle import brute_force

STANDARD = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
MOBY = ROOT / "data" / "raw" / "moby-words.txt"


@pytest.fixture(scope="module", name="moby_words")
def moby_words_fixture() -> list[str]:
    """The `moby_words` fixture: the project's Moby word list, upper case."""
    return sorted(set(MOBY.read_text().upper().split()))


def small_dictionary(words: list[str], alphabet: str, longest: int):
    """The Boggle dictionary of the words spelled with `alphabet` (QU counts as the Q cube) that fit."""
    allowed = set(alphabet) | ({"U"} if "Q" in alphabet else set())
    kept = [
        w
        for w in words
        if set(w) <= allowed
        and len(w.replace("QU", "Q")) <= longest
        and ("U" not in w or "U" in alphabet or w.count("U") == w.count("QU"))
    ]
    return compile_dictionary(kept, STANDARD)


@pytest.fixture(name="one_thread")
def one_thread_fixture():
    """The `one_thread` fixture: the references (brute force, the bounds' checks) score on one numba thread (a
    shared machine); the proof itself scores in C, on one."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@dataclass
class Tree:
    """A class's orderly tree in its arena, with what built it."""

    arena: np.ndarray
    tip: int
    root: int
    union: int
    layout: object
    keys: np.ndarray
    wcs: np.ndarray
    at: np.ndarray


class NumbaKernels:
    """The proof's numba kernels under the C engine's names and arguments (pipeline.boggle.engine.Kernels): the
    reference the C is checked against. A test that uses them is marked `numba_reference`."""

    POINTS, BOUND, COUNT, KIDS, POS, MASK = pk.POINTS, pk.BOUND, pk.COUNT, pk.KIDS, pk.POS, pk.MASK
    INTERNED, WC_SHIFT, MAX_SLOTS = pk.INTERNED, pk.WC_SHIFT, pk.MAX_SLOTS
    sort_paths = staticmethod(pk.sort_paths)
    new_arena = staticmethod(pk.new_arena)
    force_tree = staticmethod(bk.force_tree)
    break_tree = staticmethod(bk.break_tree)

    @staticmethod
    def word_paths(lex, lay, keys, wcs, firsts, seen):
        """pk.word_paths, its named tuples its own."""
        return pk.word_paths(pk.Lexicon(*lex), pk.Layout(*lay), keys, wcs, firsts, seen)

    @staticmethod
    def build_tree(keys, wcs, lo, hi, values, lay, mem, tip):
        """pk.build_tree, its layout its own."""
        return pk.build_tree(keys, wcs, lo, hi, values, pk.Layout(*lay), mem, tip)

    @staticmethod
    def class_tree(keys, wcs, at, values, lay, mem, tip):
        """pk.class_tree, its layout its own."""
        return pk.class_tree(keys, wcs, at, values, pk.Layout(*lay), mem, tip)

    @staticmethod
    def boggle_scores(boards, nbrs, ncount, nodes, values):
        """The scores of the solver's numba kernel on one thread."""
        from pipeline.boggle.kernels.solve import boggle_score_boards

        rank = np.zeros(nodes.shape[0], dtype=np.int32)
        boards = np.ascontiguousarray(boards, dtype=np.int8)
        return boggle_score_boards(boards, nbrs, ncount, nodes, values, rank, 1, False)[0]


NUMBA = NumbaKernels()


def class_tree(dictionary, rows, cols, letters: list[str], order=None, by=None) -> Tree:
    """The orderly tree of the board class giving cell i the letters letters[i], built by the kernels `by` (the C
    engine's by default; NUMBA for the reference) from arrays and an arena too short, so that they grow."""
    k = by or kernels()
    order = split_order(rows, cols) if order is None else np.asarray(order, dtype=np.int32)
    lay = class_layout(letters, order)
    lex = Lexicon(dictionary.nodes, dictionary.values, *neighbours(rows, cols))
    seen = np.zeros(dictionary.nodes.shape[0] // 64 + 1, dtype=np.uint64)
    small = (np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.uint32), np.empty(4, dtype=np.uint8))
    keys, wcs, firsts, n, union = k.word_paths(lex, lay, *small, seen)
    keys, wcs, at = k.sort_paths(keys, wcs, firsts, n, lay.key_bits, int(lay.n_letters[order[0]]))
    arena, base = k.new_arena(1 << 10)
    arena, tip, root = k.class_tree(keys, wcs, at, dictionary.values, lay, arena, base)
    return Tree(arena, tip, root, int(union), lay, keys, wcs, at)


def class_bound(dictionary, rows, cols, letters: list[str]) -> tuple[int, int]:
    """(orderly tree bound, sum/union bound) of the board class giving cell i the letters letters[i]."""
    tree = class_tree(dictionary, rows, cols, letters)
    return int(tree.arena[tree.root + kernels().BOUND]), tree.union


def synthetic_dictionary(alphabet: str, longest: int, keep: float, seed: int):
    """A dictionary of a seeded share of every string of 3..longest letters over `alphabet`: many words on a
    tiny alphabet, so that every board of a small grid can be scored by brute force."""
    rng = np.random.default_rng(seed)
    words = ["".join(t) for n in range(3, longest + 1) for t in itertools.product(alphabet, repeat=n)]
    return compile_dictionary([w for w in words if rng.random() < keep], STANDARD)


ONE_SHARD = 10**6  # classes per shard: a whole proof in one (any shard size gives the same proof: test_boggle_prove)


def assert_proof_is_brute_force(tmp_path, rows, cols, alphabet, dictionary, partitions, floor, switches=(1.7,)):
    """Each partition's proof (at each switch) finds exactly the boards that brute force finds."""
    everything = brute_force(rows, cols, alphabet, dictionary, 0)
    floor = floor if floor > 0 else max(everything.values())
    expected = {b: s for b, s in everything.items() if s >= floor}
    assert 0 < len(expected) < len(everything)
    for partition in partitions:
        for switch in switches:
            problem = Problem(rows, cols, dictionary, parse_partition(partition), floor, switch=switch)
            got = prove(problem, tmp_path / f"{partition}-{switch}", shard_size=ONE_SHARD)
            assert dict(zip(got.boards["board"].to_list(), got.boards["score"].to_list())) == expected, partition

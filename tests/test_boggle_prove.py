"""The Boggle proof: its board set equals brute force on tiny grids, its bounds never undercut a board."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.boggle.classes import (
    ClassSpace,
    canonical_board,
    parse_partition,
    split_order,
    symmetries,
)
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.engine import kernels
from pipeline.boggle.prove import (
    Problem,
    prove,
    prove_shard,
)
from pipeline.boggle.solver import score_boards
from pipeline.core.errors import WordstatsError
from tests.conftest import corpus
from tests.reference.boggle import brute_force
from tests.support.boggle_prove import (  # noqa: F401  (moby_words_fixture, one_thread_fixture: fixtures)
    ONE_SHARD,
    STANDARD,
    assert_proof_is_brute_force,
    class_bound,
    class_tree,
    moby_words_fixture,
    one_thread_fixture,
    small_dictionary,
    synthetic_dictionary,
)


def proof_boards(tmp_path, rows, cols, dictionary, partition, floor) -> dict[str, int]:
    """The proof's boards as {canonical board: score}."""
    problem = Problem(rows, cols, dictionary, parse_partition(partition), floor)
    result = prove(problem, tmp_path / "jobs", shard_size=ONE_SHARD)
    return dict(zip(result.boards["board"].to_list(), result.boards["score"].to_list()))


CASES = [
    # rows, cols, partition (its letters are the alphabet), floor
    (2, 2, "AE RST", 4),
    (2, 2, "AEO LNRST", 6),
    pytest.param(2, 3, "AE RST", 10, marks=pytest.mark.slow),
    pytest.param(2, 3, "AEI NRST", 14, marks=pytest.mark.slow),
    pytest.param(3, 2, "AEQ RSTU", 18, marks=pytest.mark.slow),
    pytest.param(2, 3, "E R S T A", 12, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("rows, cols, partition, floor", CASES)
def test_proof_equals_brute_force(tmp_path, moby_words, rows, cols, partition, floor, one_thread):
    alphabet = parse_partition(partition).alphabet
    dictionary = small_dictionary(moby_words, alphabet, rows * cols)
    expected = brute_force(rows, cols, alphabet, dictionary, floor)
    assert expected, "the floor must leave some boards, or the test proves nothing"
    assert len(expected) < len(brute_force(rows, cols, alphabet, dictionary, 0)), "the floor must drop boards"
    assert proof_boards(tmp_path, rows, cols, dictionary, partition, floor) == expected


def test_chunked_scoring_and_freed_path_buffers_give_the_same_proof(tmp_path, moby_words, one_thread, monkeypatch):
    from pipeline.boggle import prove as prove_module

    rows, cols, partition, floor = 2, 3, "AEI NRST", 14
    alphabet = parse_partition(partition).alphabet
    dictionary = small_dictionary(moby_words, alphabet, rows * cols)
    expected = brute_force(rows, cols, alphabet, dictionary, floor)
    monkeypatch.setattr(prove_module, "SCORE_CHUNK", 3)  # many chunks per class, some ending mid-class
    monkeypatch.setattr(prove_module, "KEPT_PATHS", 0)  # every class's word-path buffers freed after its tree
    problem = Problem(rows, cols, dictionary, parse_partition(partition), floor)
    got = prove(problem, tmp_path)
    assert int(got.summary["boards_scored"]) > 3 * got.summary["top_level_classes"]
    assert dict(zip(got.boards["board"].to_list(), got.boards["score"].to_list())) == expected


def test_proof_equals_brute_force_for_every_floor(tmp_path, moby_words, one_thread):
    alphabet = "AERST"
    dictionary = small_dictionary(moby_words, alphabet, 4)
    everything = brute_force(2, 2, alphabet, dictionary, 1)
    for floor in sorted(set(everything.values())):
        expected = {b: s for b, s in everything.items() if s >= floor}
        got = proof_boards(tmp_path / str(floor), 2, 2, dictionary, "AE RST", floor)
        assert got == expected, floor


# ---- the bound never undercuts a board of its class -------------------------------------------------


@pytest.fixture(scope="module")
def enable_like(moby_words):
    """The Moby dictionary under standard rules."""
    return compile_dictionary(moby_words, STANDARD)


LETTERS = "ABCDEFGHIKLMNOPQRSTUWY"


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4)]), data=st.data())
def test_bound_is_never_below_a_board_of_the_class(enable_like, size, data):
    rows, cols = size
    n = rows * cols
    cells = [data.draw(st.sets(st.sampled_from(LETTERS), min_size=1, max_size=4)) for _ in range(n)]
    letters = ["".join(sorted(c)) for c in cells]
    tree_bound, union = class_bound(enable_like, rows, cols, letters)
    boards = np.array([[ord(data.draw(st.sampled_from(x))) - 65 for x in letters] for _ in range(25)], dtype=np.int8)
    scores = score_boards(boards, rows, cols, enable_like).scores
    assert scores.max() <= tree_bound
    assert scores.max() <= union


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.sampled_from([(2, 2), (3, 3)]), data=st.data())
def test_bound_of_a_single_board_is_at_least_its_score_and_sum_union_is_exact(enable_like, size, data):
    rows, cols = size
    letters = [data.draw(st.sampled_from(LETTERS)) for _ in range(rows * cols)]
    board = np.array([[ord(x) - 65 for x in letters]], dtype=np.int8)
    score = int(score_boards(board, rows, cols, enable_like).scores[0])
    tree_bound, union = class_bound(enable_like, rows, cols, letters)
    assert union == score  # one board: the distinct words found are exactly its words
    assert tree_bound >= score


@settings(max_examples=60, deadline=None)
@given(
    bits=st.integers(1, 64),
    word_bits=st.integers(1, 26),
    n=st.integers(0, 3000),
    n_first=st.integers(0, 25),
    seed=st.integers(0, 2**32 - 1),
)
def test_sorted_paths_are_the_distinct_paths_by_first_digit_then_key(bits, word_bits, n, n_first, seed):
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False) >> np.uint64(64 - bits)
    wcs = rng.integers(0, 2**word_bits, n, dtype=np.uint32)
    firsts = rng.integers(0, n_first + 1, n, dtype=np.uint8)
    if n and seed % 3 == 0:
        keys[:] = keys[0]  # every digit of the keys the same: their passes skipped
    if n and seed % 4 == 0:
        pick = rng.integers(0, n, n)
        keys, wcs, firsts = keys[pick], wcs[pick], firsts[pick]  # repeated paths
    expected = sorted({(int(f), int(k), int(w)) for f, k, w in zip(firsts, keys, wcs)})
    got_keys, got_wcs, at = kernels().sort_paths(keys, wcs, firsts, n, bits, n_first)
    got_firsts = np.repeat(np.arange(n_first + 1), np.diff(at))
    got = list(zip(got_firsts.tolist(), got_keys.tolist(), got_wcs.tolist()))
    assert sorted(got) == expected
    assert [(f, k) for f, k, _ in got] == [(f, k) for f, k, _ in expected]  # ordered by first digit, then key


FORCING_SWITCHES = (1.0, 1.7, 100.0)  # force until the last cells, as hybrid-boggle does, or search at once


def test_forcing_proof_equals_brute_force_on_3x3(tmp_path, one_thread):
    dictionary = synthetic_dictionary("RT", 6, 0.3, seed=12)  # all 512 boards of R and T
    partitions = ["RT", "R T, center: RT"]
    assert_proof_is_brute_force(tmp_path, 3, 3, "RT", dictionary, partitions, 0, FORCING_SWITCHES)


@pytest.mark.slow
def test_forcing_proof_equals_brute_force_on_3x4(tmp_path, one_thread):
    dictionary = synthetic_dictionary("RT", 6, 0.3, seed=12)  # all 4,096 boards of R and T
    partitions = ["RT", "R T, center: RT"]
    assert_proof_is_brute_force(tmp_path, 3, 4, "RT", dictionary, partitions, 0, FORCING_SWITCHES)


@pytest.mark.slow
def test_4x4_proof_equals_brute_force_over_65536_boards(tmp_path, one_thread):
    dictionary = synthetic_dictionary("ES", 5, 0.25, seed=16)
    assert_proof_is_brute_force(tmp_path, 4, 4, "ES", dictionary, ["ES", "E S, corner: ES"], 0, (1.0, 1.7))


@pytest.mark.slow
def test_3x3_proof_equals_brute_force_over_262144_boards(tmp_path, moby_words, one_thread):
    dictionary = small_dictionary(moby_words, "AERT", 9)
    partitions = ["AE RT", "A E R T, corner: AERT", "AERT, edge: A E RT"]
    assert_proof_is_brute_force(tmp_path, 3, 3, "AERT", dictionary, partitions, 80, (1.0, 1.7))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.sampled_from([(3, 3), (3, 4)]), data=st.data())
def test_forced_trees_bound_every_board_with_the_forced_letters(enable_like, size, data):
    rows, cols = size
    n = rows * cols
    letters = ["".join(sorted(data.draw(st.sets(st.sampled_from(LETTERS), min_size=1, max_size=4)))) for _ in range(n)]
    tree = class_tree(enable_like, rows, cols, letters)
    order = split_order(rows, cols)
    k = kernels()
    mem, tip, node = tree.arena, tree.tip, tree.root
    chosen: dict[int, str] = {}
    for pos in range(data.draw(st.integers(1, n - 1))):
        cell = int(order[pos])
        index = data.draw(st.integers(0, len(letters[cell]) - 1))
        mem, tip, child = k.force_tree(mem, tip, node, pos, index)
        assert mem[child + k.BOUND] <= mem[node + k.BOUND]
        if pos == 0:  # one cell forced: the merged tree is the tree of the paths that skip it or use the letter
            at = tree.at
            keys = np.concatenate([tree.keys[at[0] : at[1]], tree.keys[at[index + 1] : at[index + 2]]])
            wcs = np.concatenate([tree.wcs[at[0] : at[1]], tree.wcs[at[index + 1] : at[index + 2]]])
            keys, wcs, at1 = k.sort_paths(keys, wcs, np.zeros(keys.shape[0], np.uint8), keys.shape[0], 64, 0)
            mem2, _, root2 = k.build_tree(keys, wcs, 0, keys.shape[0], enable_like.values, tree.layout, mem.copy(), tip)
            assert mem2[root2 + k.BOUND] == mem[child + k.BOUND]
        chosen[cell] = letters[cell][index]
        node = child
    boards = [
        [ord(chosen[c] if c in chosen else data.draw(st.sampled_from(letters[c]))) - 65 for c in range(n)]
        for _ in range(20)
    ]
    scores = score_boards(np.array(boards, dtype=np.int8), rows, cols, enable_like).scores
    assert scores.max() <= mem[node + k.BOUND]


# ---- symmetry, partitions, classes ---------------------------------------------------------------------


def test_symmetries_are_the_dihedral_group():
    for rows, cols, count in [(3, 3, 8), (4, 4, 8), (3, 4, 4), (2, 3, 4)]:
        images = symmetries(rows, cols)
        assert len(images) == count
        assert len({tuple(i) for i in images}) == count
        for a in images:  # closed under composition
            for b in images:
                assert any((a[b] == c).all() for c in images)


def test_canonical_board_is_the_least_image():
    assert canonical_board("STREAEDLP", 3, 3) == "DESLATPER"
    board = "PERSLATESIND"
    forms = {canonical_board("".join(board[i] for i in image), 3, 4) for image in symmetries(3, 4)}
    assert forms == {canonical_board(board, 3, 4)}


@pytest.mark.parametrize(
    "rows, cols, partition",
    [(2, 2, "A B C"), (2, 3, "A B"), (3, 3, "A B"), (3, 3, "A B C, corner: AB C"), (3, 4, "A B, corner: A B")],
)
def test_canonical_classes_cover_every_class_once_up_to_symmetry(rows, cols, partition):
    space = ClassSpace(rows, cols, parse_partition(partition))
    canon = set(space.canonical_ids().tolist())
    images = symmetries(rows, cols)
    orbits = set()
    for class_id in range(space.total):
        digits = space.digits(np.array([class_id]))[0]
        orbit = min(int(space.ids(digits[image][None, :])[0]) for image in images)
        orbits.add(orbit)
    assert canon == orbits


def test_class_ids_are_hybrid_boggles():
    """hybrid-boggle's board_id tool: PERSLATGSINETERS lies in 4x4 class 3130573, canonically 705707, and
    PERSLATESIND in 3x4 class 88213, canonically 16762 (its partition with corner groups)."""
    partition = parse_partition("aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz")
    four, three = ClassSpace(4, 4, partition), ClassSpace(3, 4, partition)
    assert four.class_of("PERSLATGSINETERS") == 3130573
    assert int(four.canonical(np.array([3130573]))[0]) == 705707
    assert three.class_of("PERSLATESIND") == 88213
    assert int(three.canonical(np.array([88213]))[0]) == 16762
    assert four.total == 3**12 * 2**4
    assert four.name(705707).split()[:4] == ["BCDFGHJKLMNPQRTVWXZ", "HKLNRSTY", "HKLNRSTY", "BCDFGHJKLMNPQRTVWXZ"]


def test_split_order_starts_in_the_middle():
    assert split_order(3, 3).tolist()[0] == 4
    assert sorted(split_order(3, 4).tolist()) == list(range(12))
    assert split_order(3, 4).tolist()[:2] == [5, 6]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "give groups"),
        ("AB CA", "more than one group"),
        ("AB C1", "not a letter"),
    ],
)
def test_bad_partitions(text, message):
    with pytest.raises(WordstatsError, match=message):
        parse_partition(text)


def test_shard_is_a_pure_function(moby_words, one_thread):
    dictionary = small_dictionary(moby_words, "AERST", 6)
    problem = Problem(2, 3, dictionary, parse_partition("AE RST"), 10)
    classes = problem.space.canonical_ids()
    a = prove_shard(problem, classes[:5])
    b = prove_shard(problem, classes[:5])
    assert a["boards"].equals(b["boards"]) and a["classes"].equals(b["classes"])
    assert a["timing"]["class"].to_list() == a["classes"]["class"].to_list()


def test_rerun_computes_only_the_missing_shards(tmp_path, moby_words, one_thread):
    dictionary = small_dictionary(moby_words, "AEIRST", 6)
    problem = Problem(2, 3, dictionary, parse_partition("AEI RST"), 12)
    first = prove(problem, tmp_path, shard_size=3)
    (folder,) = tmp_path.iterdir()
    shards = sorted(folder.glob("shard-*.boards.parquet"))
    assert len(shards) == first.summary["shards"] == first.summary["shards_computed"] > 2
    for path in shards[:2]:
        path.unlink()
    again = prove(problem, tmp_path, shard_size=3)
    assert (again.summary["shards_computed"], again.summary["shards_reused"]) == (2, len(shards) - 2)
    assert again.boards.equals(first.boards)
    drop = ("shards_computed", "shards_reused", "wall_seconds", "driver_cpu_seconds", "peak_rss_mib", "cpu_seconds")
    drop += ("seconds",)  # the recomputed shards took their own time
    assert {k: v for k, v in again.summary.items() if k not in drop} == {
        k: v for k, v in first.summary.items() if k not in drop
    }


def test_any_shard_size_gives_the_same_proof(tmp_path, moby_words, one_thread):
    dictionary = small_dictionary(moby_words, "AEIRST", 6)
    problem = Problem(2, 3, dictionary, parse_partition("AEI RST"), 12)
    whole = prove(problem, tmp_path / "one", shard_size=10**6)
    assert whole.summary["shards"] == 1
    for size in (1, 4):
        split = prove(problem, tmp_path / str(size), shard_size=size)
        assert split.summary["shards"] == -(-whole.summary["top_level_classes"] // size)
        assert split.boards.equals(whole.boards)
        for key in ("classes_examined", "classes_eliminated", "boards_scored", "tightness", "subclasses_by_split"):
            assert split.summary[key] == whole.summary[key], key


def test_enable2k_3x3_best_class_bound_holds_the_best_board():
    words = corpus("enable2k/enable2k.txt").read_text().upper().split()
    dictionary = compile_dictionary(words, STANDARD)
    groups = parse_partition("AEIJOU BCDFGMPQVWXZ HKLNRSTY").groups
    board = "DESLATPER"  # the proven best 3x3 board, 545 points
    letters = [next(g for g in groups if ch in g) for ch in board]
    bound, _ = class_bound(dictionary, 3, 3, letters)
    assert int(score_boards(np.array([[ord(c) - 65 for c in board]], dtype=np.int8), 3, 3, dictionary).scores[0]) == 545
    assert bound >= 545


def test_kernel_files_agree_on_the_layouts_they_share():
    """Each numba cache unit names the layouts it reads itself (numba's cache follows its own file only):
    the trie node's (with the solver's kernels) and the arena's records (between the proof's two halves, and with
    the C the proof runs, pipeline/boggle/native/proof.h); the C reads the class layout's fields by position."""
    from pipeline.boggle.kernels import breaking as bk
    from pipeline.boggle.kernels import nodes
    from pipeline.boggle.kernels import prove as pk
    from pipeline.boggle.prove import Layout, Lexicon

    for name in ("NODE_CLASS_SHIFT", "NODE_CLASS_MASK", "NODE_FIRST_SHIFT"):
        assert getattr(pk, name) == getattr(nodes, name), name
    for name in ("POINTS", "BOUND", "COUNT", "KIDS", "POS", "MASK", "INTERNED"):
        assert getattr(pk, name) == getattr(bk, name) == getattr(kernels(), name), name
    assert pk.WC_SHIFT == kernels().WC_SHIFT and pk.MAX_SLOTS == bk.MAX_SLOTS == kernels().MAX_SLOTS
    assert Layout._fields == pk.Layout._fields and Lexicon._fields == pk.Lexicon._fields

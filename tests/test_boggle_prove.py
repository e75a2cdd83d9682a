"""The Boggle proof: its board set equals brute force on tiny grids, its bounds never undercut a board."""

from __future__ import annotations

import itertools
import json

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.boggle import prove_kernels as pk
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.prove import (
    Problem,
    canonical_board,
    parse_partition,
    prove,
    prove_shard,
    split_order,
    symmetries,
    top_classes,
)
from pipeline.boggle.rules import Rules, neighbours
from pipeline.boggle.solver import board_texts, score_boards
from pipeline.core.errors import WordstatsError
from tests.conftest import ROOT, corpus

STANDARD = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
MOBY = ROOT / "data" / "raw" / "moby-words.txt"


@pytest.fixture(scope="module")
def moby_words() -> list[str]:
    """The project's Moby word list, upper case."""
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


def brute_force(rows: int, cols: int, alphabet: str, dictionary, floor: int) -> dict[str, int]:
    """Every board over the alphabet scoring at least `floor`, by scoring all of them, canonicalised."""
    codes = np.array([ord(c) - 65 for c in alphabet], dtype=np.int8)
    n = rows * cols
    boards = np.array(list(itertools.product(codes, repeat=n)), dtype=np.int8)
    scores = score_boards(boards, rows, cols, dictionary).scores
    keep = np.flatnonzero(scores >= floor)
    return {canonical_board(t, rows, cols): int(s) for t, s in zip(board_texts(boards[keep]), scores[keep].tolist())}


def proof_boards(tmp_path, rows, cols, dictionary, partition, floor, workers=1) -> dict[str, int]:
    """The proof's boards as {canonical board: score}."""
    problem = Problem(rows, cols, dictionary, parse_partition(partition), floor)
    result = prove(problem, tmp_path / "jobs", workers=workers)
    return dict(zip(result.boards["board"].to_list(), result.boards["score"].to_list()))


CASES = [
    # rows, cols, partition (its letters are the alphabet), floor
    (2, 2, "AE RST", 4),
    (2, 2, "AEO LNRST", 6),
    (2, 3, "AE RST", 10),
    (2, 3, "AEI NRST", 14),
    (3, 2, "AEQ RSTU", 18),
    (2, 3, "E R S T A", 12),
]


@pytest.mark.parametrize("rows, cols, partition, floor", CASES)
def test_proof_equals_brute_force(tmp_path, moby_words, rows, cols, partition, floor, one_thread):
    alphabet = parse_partition(partition).alphabet
    dictionary = small_dictionary(moby_words, alphabet, rows * cols)
    expected = brute_force(rows, cols, alphabet, dictionary, floor)
    assert expected, "the floor must leave some boards, or the test proves nothing"
    assert len(expected) < len(brute_force(rows, cols, alphabet, dictionary, 0)), "the floor must drop boards"
    assert proof_boards(tmp_path, rows, cols, dictionary, partition, floor) == expected


def test_proof_equals_brute_force_for_every_floor(tmp_path, moby_words, one_thread):
    alphabet = "AERST"
    dictionary = small_dictionary(moby_words, alphabet, 4)
    everything = brute_force(2, 2, alphabet, dictionary, 1)
    for floor in sorted(set(everything.values())):
        expected = {b: s for b, s in everything.items() if s >= floor}
        got = proof_boards(tmp_path / str(floor), 2, 2, dictionary, "AE RST", floor)
        assert got == expected, floor


@pytest.fixture
def one_thread():
    """Score on one numba thread (a shared machine)."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


# ---- the bound never undercuts a board of its class -------------------------------------------------


def class_bound(dictionary, rows, cols, letters: list[str]) -> tuple[int, int]:
    """(orderly tree bound, sum/union bound) of the board class giving cell i the letters letters[i]."""
    n = rows * cols
    width = max(len(x) for x in letters)
    codes = np.zeros((n, width), dtype=np.int8)
    for i, x in enumerate(letters):
        codes[i, : len(x)] = [ord(c) - 65 for c in x]
    n_letters = np.array([len(x) for x in letters], dtype=np.int32)
    bits = int(width + 1).bit_length()
    class_bits = max(1, int(dictionary.values.shape[0] - 1).bit_length())
    nbrs, ncount = neighbours(rows, cols)
    seen = np.zeros(dictionary.nodes.shape[0], dtype=np.int32)
    keys, n_keys, union = pk.word_keys(
        dictionary.nodes,
        dictionary.values,
        nbrs,
        ncount,
        codes,
        n_letters,
        split_order(rows, cols),
        bits,
        class_bits,
        np.empty(8, dtype=np.uint64),
        seen,
        1,
    )
    tree = pk.orderly_tree(np.sort(keys[:n_keys]), dictionary.values, n, bits, class_bits)
    return int(tree[0]), int(union)


@pytest.fixture(scope="module")
def enable_like(moby_words):
    """The Moby dictionary under standard rules."""
    return compile_dictionary(moby_words, STANDARD)


LETTERS = "ABCDEFGHIKLMNOPQRSTUWY"


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


def test_top_classes_cover_every_class_once_up_to_symmetry():
    for rows, cols, k in [(2, 2, 3), (2, 3, 2), (3, 3, 2)]:
        canon = {tuple(r) for r in top_classes(k, rows, cols).tolist()}
        images = symmetries(rows, cols)
        orbits = set()
        for t in itertools.product(range(k), repeat=rows * cols):
            orbit = min(tuple(t[i] for i in image) for image in images)
            orbits.add(orbit)
            assert orbit in canon
        assert canon == orbits


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
    classes = top_classes(2, 2, 3)
    a = prove_shard(problem, classes[:5])
    b = prove_shard(problem, classes[:5])
    assert a.boards.equals(b.boards)
    assert a.stats["tops"] == b.stats["tops"]


def test_rerun_resumes_from_finished_shards(tmp_path, moby_words, one_thread):
    dictionary = small_dictionary(moby_words, "AEIRST", 6)
    problem = Problem(2, 3, dictionary, parse_partition("AEI RST"), 12)
    first = prove(problem, tmp_path)
    folder = next(tmp_path.iterdir())
    shards = sorted(folder.glob("shard-*.parquet"))
    assert len(shards) == first.summary["shards"] > 1
    shards[0].unlink()
    shards[1].write_bytes(b"damaged")
    ran: list[int] = []
    again = prove(problem, tmp_path, on_shard=ran.append)
    assert sorted(ran) == [0, 1]
    assert again.summary["shards_resumed"] == first.summary["shards"] - 2
    assert again.boards.equals(first.boards)


# ---- the CLI ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory, moby_words):
    """An ad hoc lexicon of the Moby words over a few letters, built with the real CLI."""
    from tests.conftest import run_cli

    root = tmp_path_factory.mktemp("prove")
    source = root / "words.txt"
    source.write_text("\n".join(w for w in moby_words if set(w) <= set("AEIRST")) + "\n")
    data = root / "out"
    res = run_cli("run", "--source", source, "--lexicon", "tiny", "--data-dir", data, "ingest")
    assert res.exit_code == 0, res
    return data


def test_cli_prove_prints_boards_and_writes_a_table(cli, small_lexicon, tmp_path, moby_words):
    out = tmp_path / "boards.parquet"
    res = cli(
        "boggle",
        "prove",
        "--size",
        "2x3",
        "--floor",
        "14",
        "--classes",
        "AEI RST",
        "--lexicon",
        "tiny",
        "--data-dir",
        small_lexicon,
        "--out",
        out,
        "--json",
    )
    assert res.exit_code == 0, res
    got = json.loads(res.stdout)
    table = pl.read_parquet(out)
    dictionary = small_dictionary([w for w in moby_words if set(w) <= set("AEIRST")], "AEIRST", 6)
    expected = brute_force(2, 3, "AEIRST", dictionary, 14)
    assert dict(zip(table["board"], table["score"])) == expected
    assert {b["board"]: b["score"] for b in got["boards"]} == expected
    summary = got["summary"]
    assert summary["boards"] == len(expected) and summary["partition"] == "AEI RST"
    from pipeline.core.store import read_provenance

    provenance = read_provenance(out)
    assert json.loads(provenance["summary"])["boards"] == len(expected)
    again = cli(
        "boggle",
        "prove",
        "--size",
        "2x3",
        "--floor",
        "14",
        "--classes",
        "AEI RST",
        "--lexicon",
        "tiny",
        "--data-dir",
        small_lexicon,
        "--csv",
    )
    assert again.exit_code == 0, again
    assert again.stdout.splitlines()[0].startswith("board,score")
    assert len(again.stdout.splitlines()) == len(expected) + 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "3y3", "--floor", "100"], "board size"),
        (["--size", "2x2", "--floor", "0"], "--floor"),
        (["--size", "2x2", "--floor", "100", "--classes", "AB A"], "more than one group"),
        (["--size", "9x9", "--floor", "100"], "at most 64"),
        (["--size", "5x5", "--floor", "100"], "word keys"),
        (["--size", "4x4", "--floor", "100", "--classes", "AB CD EF GH IJ KL MN OP"], "top-level classes"),
        (["--size", "2x2", "--floor", "100", "--out", "x.csv"], ".parquet"),
    ],
)
def test_cli_prove_bad_input_is_one_line(cli, small_lexicon, args, message):
    res = cli("boggle", "prove", *args, "--lexicon", "tiny", "--data-dir", small_lexicon)
    assert res.exit_code == 2, res
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_enable2k_3x3_best_class_bound_holds_the_best_board():
    words = corpus("enable2k/enable2k.txt").read_text().upper().split()
    dictionary = compile_dictionary(words, STANDARD)
    groups = parse_partition("AEIJOU BCDFGMPQVWXZ HKLNRSTY").groups
    board = "DESLATPER"  # the proven best 3x3 board, 545 points
    letters = [next(g for g in groups if ch in g) for ch in board]
    bound, _ = class_bound(dictionary, 3, 3, letters)
    assert int(score_boards(np.array([[ord(c) - 65 for c in board]], dtype=np.int8), 3, 3, dictionary).scores[0]) == 545
    assert bound >= 545


def test_executor_shard_work_gives_the_same_proof(tmp_path, moby_words, one_thread):
    from dataclasses import dataclass

    from pipeline.boggle.prove import merge_tables, shard_ranges, shard_work

    @dataclass(frozen=True)
    class Shard:
        index: int
        start: int
        stop: int

    dictionary = small_dictionary(moby_words, "AEIRST", 6)
    problem = Problem(2, 3, dictionary, parse_partition("AEI RST"), 12)
    classes = top_classes(2, 2, 3)
    parts = [shard_work(Shard(i, lo, hi), (problem, classes)) for i, (lo, hi) in enumerate(shard_ranges(len(classes)))]
    proof = merge_tables(
        problem, pl.concat([p["boards"] for p in parts]), pl.concat([p["stats"] for p in parts]), 0.0, 1
    )
    direct = prove(problem, tmp_path)
    assert proof.boards.equals(direct.boards)
    assert proof.summary["boards_scored"] == direct.summary["boards_scored"]
    assert proof.summary["top_level_classes"] == direct.summary["top_level_classes"] == len(classes)

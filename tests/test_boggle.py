"""Boggle: exact scores on the Princeton boards, the fast kernel against a plain recursive solver, dice,
board parsing and its errors, and the search (the stage and the CLI: tests/test_boggle_stage.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.boggle.best import SearchParams, anneal
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.rules import (
    MAX_CELLS,
    Board,
    Rules,
    parse_board,
    parse_board_file,
    read_board_file,
)
from pipeline.boggle.sampling import roll, summarise
from pipeline.boggle.solver import board_texts, score, score_boards, solve
from pipeline.boggle.stage import word_of_nodes
from pipeline.core.errors import WordstatsError
from tests.conftest import CORPORA, SMALL_CONFIG, corpus, corpus_words
from tests.reference.boggle import dict_trie, reference_score, reference_words, rollable
from tests.support.boggle import CONFIG, MOBY, STANDARD, moby_fixture, moby_words_fixture  # noqa: F401  (fixtures)

PRINCETON = "princeton-boggle"


@pytest.fixture(scope="module")
def moby_trie(moby_words):
    return dict_trie(moby_words, 3)


# ---- exact scores on the Princeton assignment's boards -------------------------------------------


def princeton_points_boards():
    files = sorted((CORPORA / PRINCETON).glob("board-points*.txt")) if (CORPORA / PRINCETON).is_dir() else []
    return [pytest.param(p.name, int(re.search(r"points(\d+)", p.name).group(1)), id=p.stem) for p in files] or [
        pytest.param("board-points0.txt", 0, id="absent")
    ]


@pytest.fixture(scope="module")
def yawl():
    return compile_dictionary(corpus_words(f"{PRINCETON}/dictionary-yawl.txt"), STANDARD)


@pytest.mark.slow
@pytest.mark.parametrize("name, points", princeton_points_boards())
def test_princeton_board_scores_exactly_its_points(name, points, yawl):
    board = read_board_file(corpus(f"{PRINCETON}/{name}"))
    assert score(board, yawl) == points
    assert sum(f.points for f in solve(board, yawl)) == points


@pytest.mark.slow
def test_princeton_points_boards_are_all_there():
    corpus(f"{PRINCETON}/dictionary-yawl.txt")
    assert len(princeton_points_boards()) == 21


@pytest.mark.slow
def test_princeton_algs4_boards_via_the_cli(cli, build):
    data = build(corpus(f"{PRINCETON}/dictionary-algs4.txt"), "ingest", lexicon="algs4")
    res = cli(
        "boggle",
        "score",
        corpus(f"{PRINCETON}/board-q.txt"),
        corpus(f"{PRINCETON}/board4x4.txt"),
        "--lexicon",
        "algs4",
        "--data-dir",
        data,
        "--config",
        SMALL_CONFIG,
    )
    assert res.exit_code == 0, res
    assert [line.split()[-1] for line in res.stdout.splitlines()[2:]] == ["84", "33"]


def test_best_known_enable2k_board_scores_3625():
    enable = compile_dictionary(corpus_words("enable2k/enable2k.txt"), STANDARD)
    assert score(parse_board("PERSLATGSINETERS"), enable) == 3625
    assert score(parse_board("sretenisgtalsrep"), enable) == 3625  # the same board turned round


# ---- the fast kernel against the reference ----------------------------------------------------------


def check_against_reference(letters, rows, cols, dictionary, trie):
    board = Board(rows, cols, letters)
    expected = reference_words(letters, rows, cols, trie)
    found = solve(board, dictionary, paths=True)
    assert {f.word for f in found} == expected
    assert score(board, dictionary) == reference_score(expected, dictionary.rules)
    for f in found:  # each path is adjacent, distinct cubes spelling the word
        assert len(set(f.path)) == len(f.path)
        assert "".join(board.cube(c) for c in f.path).upper() == f.word
        for a, b in zip(f.path, f.path[1:]):
            assert max(abs(a // cols - b // cols), abs(a % cols - b % cols)) == 1


LETTERS = "AAAEEEIIOOUSSTTRRNNLLDCMPBGHQYKWFVXZJ"


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), data=st.data())
def test_kernel_agrees_with_reference_on_random_grids(rows, cols, data, moby, moby_trie):
    letters = "".join(data.draw(st.lists(st.sampled_from(LETTERS), min_size=rows * cols, max_size=rows * cols)))
    check_against_reference(letters, rows, cols, moby, moby_trie)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dice_name=st.sampled_from(sorted(CONFIG.dice)), seed=st.integers(0, 2**32), index=st.integers(0, 10**6))
def test_kernel_agrees_with_reference_on_rolled_boards(dice_name, seed, index, moby_words, moby, moby_trie):
    dice = CONFIG.dice[dice_name]
    letters = board_texts(roll(dice, seed, 1, start=index))[0]
    assert rollable(letters, dice)
    if dice.variant == "standard":
        check_against_reference(letters, dice.rows, dice.cols, moby, moby_trie)
    else:
        rules = CONFIG.rules(dice.variant)
        assert rules.min_length == 4
        big = compile_dictionary(moby_words, rules)
        expected = {w for w in reference_words(letters, dice.rows, dice.cols, moby_trie) if len(w) >= 4}
        assert {f.word for f in solve(Board(dice.rows, dice.cols, letters), big)} == expected


@pytest.fixture
def one_thread():
    """A context in which numba runs on one thread."""
    import contextlib

    import numba

    @contextlib.contextmanager
    def single():
        before = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            yield
        finally:
            numba.set_num_threads(before)

    return single


@pytest.mark.slow
def test_many_boards_scored_at_once_match_one_at_a_time(moby, one_thread):
    dice = CONFIG.dice["new"]
    boards = roll(dice, 11, 400)
    result = score_boards(boards, 4, 4, moby, count_words=True)
    with one_thread():
        alone = score_boards(boards, 4, 4, moby, count_words=True)
    for a, b in zip(vars(result).values(), vars(alone).values()):
        assert np.array_equal(a, b)  # the same on any number of threads
    texts = board_texts(boards)
    singles = [solve(Board(4, 4, t), moby) for t in texts]
    assert result.scores.tolist() == [sum(f.points for f in s) for s in singles]
    assert result.n_words.tolist() == [len(s) for s in singles]
    counts = {}
    for s in singles:
        for f in s:
            counts[f.word] = counts.get(f.word, 0) + 1
    by_word = {moby.words[moby.word_at[n]]: int(c) for n, c in enumerate(result.node_counts) if c}
    assert by_word == counts
    longest = word_of_nodes(moby, result.longest)
    for s, w in zip(singles, longest):
        assert w == min((f.word for f in s), key=lambda x: (-len(x), x), default=None)


def plain_pext(x: int, mask: int) -> int:
    """The bits of x where mask has ones, packed to the low end (the reference for the kernel's PEXT)."""
    selected = [x >> i & 1 for i in range(32) if mask >> i & 1]
    return sum(bit << k for k, bit in enumerate(selected))


@pytest.fixture(scope="module")
def pext_kernels():
    """The kernels' bit extraction as used (the CPU instruction where fast) and its portable loop."""
    from numba import njit

    from pipeline.boggle.kernels.bits import pext32, pext32_loop

    return njit(lambda a, b: pext32(a, b)), pext32_loop


@pytest.mark.numba_reference  # the portable loop called directly, as no kernel calls it on a PEXT machine
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(x=st.integers(0, 2**32 - 1), mask=st.integers(0, 2**32 - 1))
def test_bit_extraction_matches_plain_version(x, mask, pext_kernels):
    want = plain_pext(x, mask)
    for pext in pext_kernels:
        assert pext(np.uint32(x), np.uint32(mask)) == want


# ---- rules ------------------------------------------------------------------------------------------


def test_points_by_length_and_min_length():
    assert [STANDARD.word_points(n) for n in range(1, 12)] == [0, 0, 1, 1, 2, 3, 5, 11, 11, 11, 11]
    assert CONFIG.rules("big").word_points(3) == 0 and CONFIG.rules("big").word_points(4) == 1
    assert CONFIG.rules("standard", min_length=5).word_points(4) == 0


def test_any_points_table_with_up_to_63_values_scores_exactly():
    alphabet = "ABCDEFGHIJKLMNOPRSTUVWXYZ"  # no Q: its cube spells QU
    snake = [r * 8 + (c if r % 2 == 0 else 7 - c) for r in range(8) for c in range(8)]  # a path through all cells
    cells = [""] * 64
    for t, cell in enumerate(snake):
        cells[cell] = alphabet[t % len(alphabet)]
    board = Board(8, 8, "".join(cells))
    words = ["".join(alphabet[t % len(alphabet)] for t in range(n)) for n in range(1, 65)]
    rules = Rules("many", 1, tuple(range(1000, 1064)))  # 63 different points for 1..63 letters and more
    found = {f.word: f.points for f in solve(board, compile_dictionary(words, rules))}
    assert found == {w: 1000 + min(len(w), 63) for w in words}
    too_many = Rules("too_many", 1, tuple(range(1000, 1065)))
    with pytest.raises(WordstatsError, match="at most 63 different"):
        compile_dictionary(words, too_many)


def test_qu_cube_spells_qu_and_counts_two_letters():
    words = ["QUA", "QUARK", "ARK", "QAT", "QI", "AQUA", "QUQU", "SUQ"]
    dictionary = compile_dictionary([w for w in words], STANDARD)
    found = {f.word: f.points for f in solve(parse_board("QuARK"), dictionary)}
    assert found == {"QUA": 1, "QUARK": 2, "ARK": 1}  # QUA is 3 letters on 2 cubes; QAT, QI can't be formed
    two = parse_board("QQAU")  # Qu, Qu, A, U: a U after the Qu cube is a cube of its own
    assert two.letters == "QQAU"
    assert {f.word for f in solve(two, dictionary)} == {"QUA", "QUQU"}
    assert "SUQ" not in dictionary.words and "QI" not in dictionary.words


# ---- boards: parsing and errors ----------------------------------------------------------------------


def test_board_strings():
    assert parse_board("perslatgsineters").letters == "PERSLATGSINETERS"
    assert parse_board("PERS LATG SINE TERS").size == "4x4"
    b = parse_board("QuaBcQUdeFGhqUIjklmnoqrstuvw")  # Qu, Q and qU all name the Qu cube; 25 cells
    assert b.size == "5x5" and b.letters.count("Q") == 4
    assert parse_board("ABCDEF", size="2x3").size == "2x3"
    assert parse_board("ABC DEF").size == "2x3"
    assert Board(2, 2, "QABC").grid() == ["Qu A", "B  C"]


@pytest.mark.parametrize(
    "text, size, message",
    [
        ("ABCDE", None, "not a square"),
        ("ABCD1FGHI", None, "not a letter"),
        ("ABCDEFGHI", "4x4", "a 4x4 board has 16"),
        ("ABCD", "0x4", "at least one row"),
        ("ABCD", "four", "RxC"),
        ("AB CDE", None, "different numbers"),
        ("", None, "empty"),
        ("A" * 81, None, "at most 64"),
        ("BQUSEEIOHMTBLOOC", None, r"15 cells \(QU is one cell, the Qu cube\) is not a square"),
    ],
)
def test_malformed_board_strings(text, size, message):
    with pytest.raises(WordstatsError, match=message):
        parse_board(text, size)


def test_a_board_file_with_digits_of_another_script_is_one_line():
    """Superscript or Arabic-Indic digits are not a size ('¹²'.isdigit() is true; int() may refuse them)."""
    for header in ("\u00b9 \u00b2", "\u0664 \u0664"):
        with pytest.raises(WordstatsError, match="the first line must be 'rows cols'"):
            parse_board_file(f"{header}\nA B C D\n", "f.txt")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["board0x4.txt", "board4x0.txt"])
def test_princeton_zero_size_boards_are_one_line_errors(cli, name, build):
    data = build(["cat"], "ingest")
    res = cli(
        "boggle", "score", corpus(f"{PRINCETON}/{name}"), "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG
    )
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "at least one row and one column" in res.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ("4 4\nA B C D\nE F G H\nI J K L\nM N O\n", "15 cells, a 4x4 board has 16"),
        ("2 2\nA B\nC 7\n", "not a letter"),
        ("2 2\nA B\nC DE\n", "a cell is one letter"),
        ("two two\nA B\nC D\n", "rows cols"),
        ("", "rows cols"),
    ],
)
def test_malformed_board_files(cli, build, tmp_path, content, message):
    data = build(["cat"], "ingest")
    path = tmp_path / "bad.txt"
    path.write_text(content)
    for command in ("score", "solve"):
        res = cli("boggle", command, path, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
        assert res.exit_code == 2, res
        assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1 and message in res.stderr
        assert "Traceback" not in res.stderr


def test_bad_board_arguments_on_the_cli(cli, build):
    data = build(["cat"], "ingest")
    common = ("--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    for args in (
        ("solve", "ABC?"),
        ("solve", "ABCDE"),
        ("score", "missing.txt"),
        ("solve", "ABCD", "--size", "3x3"),
        ("random", "--dice", "nope"),
        ("best", "--dice", "new", "--size", "5x5"),
    ):
        res = cli("boggle", *args, *common)
        assert res.exit_code == 2, (args, res)
        assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1


@given(rows=st.integers(1, 8), cols=st.integers(1, 8), data=st.data())
@settings(max_examples=40, deadline=None)
def test_board_text_round_trips(rows, cols, data):
    if rows * cols > MAX_CELLS:
        return
    letters = "".join(data.draw(st.lists(st.sampled_from("ABCDEQUXYZ"), min_size=rows * cols, max_size=rows * cols)))
    written = "".join("Qu" if ch == "Q" else ch for ch in letters)
    board = parse_board(written.lower(), size=f"{rows}x{cols}")
    assert board.letters == letters
    again = parse_board_file(f"{rows} {cols}\n" + "\n".join(board.grid()), "f")
    assert again == board


# ---- dice and random boards ------------------------------------------------------------------------


def test_dice_sets_are_the_boxes():
    assert [len(CONFIG.dice[n].faces) for n in ("classic", "new", "big")] == [16, 16, 25]
    assert CONFIG.dice["new"].faces[14] == "HIMNQU" and CONFIG.dice["big"].variant == "big"
    assert all(len(f) == 6 for d in CONFIG.dice.values() for f in d.faces)


def test_rolls_are_seeded_prefix_stable_and_rollable():
    dice = CONFIG.dice["classic"]
    a = roll(dice, 5, 300)
    assert np.array_equal(a, roll(dice, 5, 300))
    assert np.array_equal(a[100:200], roll(dice, 5, 100, start=100))
    assert not np.array_equal(a, roll(dice, 6, 300))
    texts = board_texts(a)
    assert all(rollable(t, dice) for t in texts)
    assert len(set(texts)) == 300
    # every die lands in every cell: the first die's letters show up in each cell over many boards
    many = board_texts(roll(dice, 1, 4000))
    assert all(any(t[cell] in "AACIOT" for t in many) for cell in range(16))


def test_score_summary():
    stats = summarise(np.array([1, 2, 3, 4, 10]), [50, 90])
    assert stats["mean"] == 4.0 and stats["max"] == 10 and stats["min"] == 1
    assert stats["percentiles"] == {"p50": 3.0, "p90": 7.6}
    assert stats["std"] == pytest.approx(np.std([1, 2, 3, 4, 10], ddof=1), abs=1e-4)


# ---- search -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_annealing_is_seeded_and_scores_are_true(moby, one_thread):
    params = SearchParams(300, 50.0, 1.0)
    runs = anneal(moby, 4, 4, 3, 0, 2, params)
    again = anneal(moby, 4, 4, 3, 1, 1, params)
    assert runs[1] == again[0]
    with one_thread():
        assert anneal(moby, 4, 4, 3, 0, 2, params) == runs
    for r in runs:
        assert r.score == score(r.board, moby) > 0
    dice = CONFIG.dice["new"]
    for r in anneal(moby, 4, 4, 9, 0, 2, params, dice):
        assert rollable(r.board.letters, dice) and r.score == score(r.board, moby)


@pytest.mark.slow
def test_annealing_climbs_far_above_random_boards(moby):
    random_mean = score_boards(roll(CONFIG.dice["new"], 1, 2000), 4, 4, moby).scores.mean()
    best = max(r.score for r in anneal(moby, 4, 4, 1, 0, 2, SearchParams(3000, 100.0, 1.0)))
    assert random_mean < 200 and best > 1000

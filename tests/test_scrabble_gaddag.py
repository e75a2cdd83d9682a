"""The GADDAG move generator against the trie generator (the reference): every play, every score, the same
order and ties; identical self-play games; the stored structure."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.scrabble.lexicon import kernels as lk
from pipeline.scrabble.lexicon.gaddag import build_gaddag, check_arcs, from_table, gaddag_table
from pipeline.scrabble.lexicon.words import Lexicon, load_lexicon
from pipeline.scrabble.movegen.generate import generate, record_tiles
from pipeline.scrabble.movegen.kernels import layout as gk
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.summary import game_row, log_row
from pipeline.scrabble.play.turns import game_of, game_rng
from pipeline.scrabble.rules.board import Board, Tile, parse_board
from pipeline.scrabble.rules.variant import variants
from tests.conftest import DEFAULT_CONFIG, ROOT, SMALL_CONFIG, corpus_words
from tests.reference.scrabble import generate_reference, reference_game

MOBY = ROOT / "data" / "raw" / "moby-words.txt"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture(scope="module")
def games():
    """The variants of the default config."""
    return variants(load_config(DEFAULT_CONFIG))


def moby_sample() -> Lexicon:
    """A real lexicon of a few thousand Moby words (every word of up to three letters, a seeded sample of the
    rest)."""
    words = MOBY.read_text().upper().split()
    rng = random.Random(17)
    short = [w for w in words if len(w) <= 3 and w.isalpha()]
    longer = rng.sample([w for w in words if 4 <= len(w) <= 15 and w.isalpha()], 4000)
    return Lexicon(short + longer)


@pytest.fixture(scope="module")
def small():
    """moby_sample(), once per module."""
    return moby_sample()


@pytest.fixture(scope="module")
def enable():
    """ENABLE (skipped when ../shared is absent)."""
    return Lexicon(corpus_words("enable/enable1.txt"))


def random_rack(rng: random.Random, blanks: int, size: int = 7) -> str:
    """`size` tiles: `blanks` blanks and random letters, vowels likelier."""
    letters = "AAEEIIOOU" + ALPHABET
    return "".join(rng.choice(letters) for _ in range(size - blanks)) + "?" * blanks


def random_board(lexicon: Lexicon, game, seed: int, plays: int) -> Board:
    """A board after `plays` random legal plays (by the reference generator) from random racks."""
    rng = random.Random(seed)
    board = Board()
    for _ in range(plays):
        records, _ = generate_reference(board, random_rack(rng, rng.randrange(3)), game, lexicon)
        if len(records):
            board.put(record_tiles(records[rng.randrange(len(records))])[0])
    return board


def assert_agree(board: Board, rack: str, game, lexicon: Lexicon) -> int:
    """Both generators give the same records in the same order (all plays, the best one, the best five)."""
    expected, total = generate_reference(board, rack, game, lexicon)
    found, count = generate(board, rack, game, lexicon)
    assert count == total == len(expected)
    assert found.shape == expected.shape and (found == expected).all(), (board.text(), rack)
    for keep in (1, 5):
        a, _ = generate_reference(board, rack, game, lexicon, keep=keep)
        b, scored = generate(board, rack, game, lexicon, keep=keep)
        assert scored <= total
        assert b.shape == a.shape and (b == a).all(), (board.text(), rack, keep)
    return total


# ---- the structure ------------------------------------------------------------------------------------


def test_gaddag_of_a_few_words():
    g = build_gaddag(["CAT", "CATS", "AT", "ACT", "X", "TOOLONGFORABOARDX"])
    assert [w in g for w in ["CAT", "CATS", "AT", "ACT", "X", "CA", "TA", "ACTS", "TOOLONGFORABOARDX"]] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    # CAT's strings C^AT, AC^T, TAC share nodes with CATS's and ACT's: minimal, far fewer arcs than letters
    assert check_arcs(g.arcs) == g.n_nodes
    layout = ("CHILD_MASK", "END", "ACCEPTS", "TILE_SHIFT", "SEP", "NODE_SHIFT")  # each cache unit names it once
    assert [getattr(lk, name) for name in layout] == [getattr(gk, name) for name in layout]


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.text(alphabet="ABCDE", min_size=1, max_size=7), max_size=60),
    st.lists(st.text(alphabet="ABCDE", min_size=1, max_size=8), max_size=40),
)
def test_gaddag_holds_exactly_its_words(words, probes):
    g = build_gaddag(words) if any(2 <= len(w) <= 15 for w in words) else None
    for w in list(words) + probes:
        expected = w in words and 2 <= len(w) <= 15
        assert (g is not None and w in g) == expected, w


def arcs_checked_slowly(arcs: list[int]) -> int:
    """check_arcs, spelled out arc by arc: the nodes (arcs ending one, after the root pointer), or -(1 + index) of
    the first arc whose child is outside the array or whose tile is past Z, or -1 for bad ends."""
    n = len(arcs)
    if n < 2 or not arcs[0] & lk.END or not arcs[-1] & lk.END or not arcs[0] & lk.CHILD_MASK:
        return -1
    for i, arc in enumerate(arcs):
        if arc & lk.CHILD_MASK >= n or arc >> lk.TILE_SHIFT > 26:
            return -(1 + i)
    return sum(1 for arc in arcs[1:] if arc & lk.END)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_damaged_arcs_are_found_as_the_slow_check_finds_them(small, data):
    arcs = [int(a) for a in small.gaddag.arcs[: data.draw(st.integers(0, 300))]]
    for _ in range(data.draw(st.integers(0, 3))):
        if arcs:
            arcs[data.draw(st.integers(0, len(arcs) - 1))] = data.draw(st.integers(0, 2**32 - 1))
    assert check_arcs(np.array(arcs, dtype=np.uint32)) == arcs_checked_slowly(arcs)


def test_board_bytes_and_numpy_views_are_one_board():
    board = Board()
    board.tiles[7, 7] = 4  # E, written through the numpy view
    board.put([Tile(7, 8, "x")])  # a blank X, written to the bytes
    assert board.letter(7, 7) == "E" and board.blanks[7, 8] and board.tiles[7, 8] == 23 and not board.is_empty
    tiles, blanks = board.views()
    assert tiles[7, 7] == 4 and tiles[0, 0] == -1 and blanks[7, 8] and tiles.format == "b" and blanks.format == "?"
    copied = pickle.loads(pickle.dumps(board))
    assert copied == board == board.copy() == parse_board(board.text()) and repr(board).startswith("parse_board(")
    copied.put([Tile(0, 0, "A")])
    assert copied != board and board.letter(0, 0) == ""


def test_gaddag_table_round_trip_and_damage(small):
    g = small.gaddag
    table = gaddag_table(g)
    assert table.schema == {"arc": pl.Int32} and table.height == len(g.arcs)
    back = from_table(table)
    assert (back.arcs == g.arcs).all() and back.n_nodes == g.n_nodes
    bad = g.arcs.copy()
    bad[5] = (bad[5] & ~np.uint32(lk.CHILD_MASK)) | np.uint32(len(bad) + 3)  # a child past the end
    with pytest.raises(WordstatsError, match="damaged GADDAG"):
        from_table(pl.DataFrame({"arc": bad.astype(np.uint32).view(np.int32)}, schema={"arc": pl.Int32}))
    with pytest.raises(WordstatsError, match="not a GADDAG table"):
        from_table(pl.DataFrame({"word": ["CAT"]}))


# ---- agreement with the reference generator -----------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 10),
    blanks=st.integers(0, 2),
    variant=st.sampled_from(["scrabble", "wwf"]),
)
def test_agrees_with_the_reference_on_random_positions(seed, plays, blanks, variant, small, games):
    game = games[variant]
    board = random_board(small, game, seed, plays)
    assert_agree(board, random_rack(random.Random(seed + 1), blanks), game, small)


@settings(max_examples=30, deadline=None)
@given(rack=st.text(alphabet=ALPHABET + "?", min_size=1, max_size=7), seed=st.integers(0, 10**6))
def test_agrees_on_any_rack(rack, seed, small, games):
    assert_agree(random_board(small, games["scrabble"], seed, 4), "".join(sorted(rack)), games["scrabble"], small)


@pytest.mark.slow
def test_agrees_on_selfplay_positions_of_enable(enable, games):
    """A seeded sweep: every turn of greedy games on ENABLE, each with its own rack and a random one."""
    rng = random.Random(3)
    plays = 0
    for variant in ("scrabble", "wwf"):
        game = games[variant]
        log = play_game(game, enable, game_rng(11, variant, 1))
        for turn in game_of(log, game, enable).turns[::2]:
            plays += assert_agree(turn.board, turn.rack, game, enable)
            plays += assert_agree(turn.board, random_rack(rng, rng.randrange(3)), game, enable)
    assert plays > 5_000


def bingo_rack(rng: random.Random, lexicon: Lexicon, blanks: int) -> str:
    """Seven tiles of a random seven-letter word of the lexicon, `blanks` of them turned into blanks, so that
    plays of the whole rack exist."""
    word = rng.choice(sorted(w for w in lexicon.words if len(w) == 7))
    letters = rng.sample(word, 7 - blanks)
    return "".join(sorted(letters)) + "?" * blanks


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 8),
    blanks=st.integers(0, 2),
    variant=st.sampled_from(["scrabble", "wwf"]),
)
def test_best_plays_with_the_whole_rack_match_every_play(seed, plays, blanks, variant, small, games):
    """The score bounds and the long-word look-up never lose the best plays: the best one and the best five
    are the head of every legal play in rank order, on racks that make bingos (0, 1 or 2 blanks)."""
    game = games[variant]
    board = random_board(small, game, seed, plays)
    rack = bingo_rack(random.Random(seed), small, blanks)
    every, _ = generate(board, rack, game, small)
    ranked = every[np.argsort(-every[:, gk.PLAY_SCORE], kind="stable")]
    for keep in (1, 5):
        best, _ = generate(board, rack, game, small, keep=keep)
        assert best.shape == ranked[:keep].shape and (best == ranked[:keep]).all(), (board.text(), rack, keep)


def strips_with_a_play(records: np.ndarray) -> set[tuple[int, int, int, int]]:
    """The strips (orientation, line, first and last square) that the plays of the records cover."""
    covered = set()
    for r in records:
        o = int(r[gk.PLAY_DIR])
        line, start = (int(r[gk.PLAY_ROW]), int(r[gk.PLAY_COL]))[:: 1 if o == 0 else -1]
        covered.add((o, line, start, start + int(r[gk.PLAY_LEN]) - 1))
    return covered


@pytest.mark.slow
@pytest.mark.numba_reference  # calls the move generator's kernels one by one, as no command does
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(1, 10), variant=st.sampled_from(["scrabble", "wwf"]))
def test_strip_checks_keep_exactly_the_strips_a_play_covers(seed, plays, variant, small, games):
    """The letter-hash check of a strip of many empty squares (racks without blanks) says yes exactly when
    some legal play covers the strip: it never drops a play, and drops every strip no word fits."""
    from pipeline.letters.tiles import rack_counts
    from pipeline.scrabble.movegen.kernels.bounds import square_caps, strip_bounds
    from pipeline.scrabble.movegen.kernels.hashed import may_fill, rack_subsets
    from pipeline.scrabble.movegen.kernels.position import position_tables
    from pipeline.scrabble.movegen.tables import variant_tables

    game = games[variant]
    board = random_board(small, game, seed, plays)
    rack = random_rack(random.Random(seed + 2), 0)
    tab, counts = variant_tables(small, game), rack_counts(rack)
    pos = position_tables(tab, board.tiles, board.blanks)
    strips = strip_bounds(tab, pos, counts, square_caps(tab, pos, counts))
    covered = strips_with_a_play(generate(board, rack, game, small)[0])
    sub_keys, sub_first = rack_subsets(counts, tab.letter_hash)
    for strip in strips[strips[:, gk.STRIP_EMPTY] >= gk.CHECKED_TILES]:
        o, line, s, e, m = (
            int(strip[k]) for k in (gk.STRIP_DIR, gk.STRIP_LINE, gk.STRIP_START, gk.STRIP_END, gk.STRIP_EMPTY)
        )
        memo_keys, memo, hits = (
            np.zeros(gk.MEMO_ROWS, np.uint64),
            np.zeros((gk.MEMO_ROWS + 1, 3), np.int64),
            np.zeros(1024, np.int64),
        )
        fits = may_fill(
            tab, pos.tiles[o, line], pos.masks[o, line], s, e, m, sub_keys, sub_first, memo_keys, memo, hits
        )
        assert fits == ((o, line, s, e) in covered), (board.text(), rack, o, line, s, e)


def test_the_letter_hashes_are_the_seeded_draw():
    from pipeline.scrabble.lexicon.gaddag import LETTER_HASH

    drawn = np.random.default_rng(20261201).integers(1, 2**63, size=26, dtype=np.uint64)
    assert LETTER_HASH.dtype == np.uint64 and LETTER_HASH.tolist() == drawn.tolist()


@pytest.mark.numba_reference  # the lexicon kernels' long_words called directly: the C engine's reference
def test_long_words_are_read_off_the_gaddag(small):
    """The words of seven letters or more, by letter hash: every one once, hashes sorted and matching."""
    from pipeline.scrabble.lexicon.gaddag import LETTER_HASH

    hashes, words, slots = lk.long_words(small.gaddag.arcs, 7, LETTER_HASH)
    text = ["".join(ALPHABET[c] for c in row if c >= 0) for row in words]
    assert sorted(text) == sorted(w for w in small.words if len(w) >= 7)
    assert (np.diff(hashes.astype(np.float64)) >= 0).all()
    firsts = [i for i in range(len(hashes)) if i == 0 or hashes[i] != hashes[i - 1]]
    table = slots[: len(slots) * 64 // (64 + lk.FILTER_BITS)]  # the filter's words follow the slots
    assert sorted(table[table > 0] - 1) == firsts  # every distinct hash once, at its first word
    assert all(h == sum(int(LETTER_HASH[ALPHABET.index(ch)]) for ch in w) % 2**64 for h, w in zip(hashes, text))


def test_ties_keep_the_reference_order(small, games):
    """On an empty board a bingo scores the same from several squares: the earliest square comes first."""
    game = games["scrabble"]
    lexicon = Lexicon(list(small.words) + ["RETAINS"])
    a, _ = generate_reference(Board(), "AEINRST", game, lexicon, keep=4)
    b, _ = generate(Board(), "AEINRST", game, lexicon, keep=4)
    assert (a == b).all() and len(set(a[:, gk.PLAY_SCORE])) < 4


# ---- self-play ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["scrabble", "wwf"])
def test_self_play_plays_the_reference_games(variant, small, games):
    game = games[variant]
    for number in range(1, 6):
        expected = reference_game(game, small, game_rng(4, variant, number))
        log = play_game(game, small, game_rng(4, variant, number))
        assert log_row(log, number, game) == game_row(expected, number)
        replayed = game_of(log, game, small)
        assert [t.rack for t in replayed.turns] == [t.rack for t in expected.turns]
        assert all((t.board.tiles == u.board.tiles).all() for t, u in zip(replayed.turns, expected.turns))


@pytest.mark.slow
def test_self_play_on_enable_plays_the_reference_games(enable, games):
    game = games["scrabble"]
    for number in (1, 2, 3):
        expected = game_row(reference_game(game, enable, game_rng(0, "scrabble", number)), number)
        assert log_row(play_game(game, enable, game_rng(0, "scrabble", number)), number, game) == expected


def test_stage_stores_the_gaddag_and_best_loads_it(build, small, cli):
    words = sorted(small.words)[:3000]
    data = build(words, "scrabble")
    from pipeline.core.store import Store

    store = Store(data, "t")
    lexicon = load_lexicon(store)
    assert "gaddag" in lexicon.__dict__  # loaded, not rebuilt
    assert (lexicon.gaddag.arcs == build_gaddag(words).arcs).all()
    common = ["--empty", "--rack", "AEINRST", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
    res = cli("scrabble", "best", "--json", *common)
    assert res.exit_code == 0, res
    best = generate_reference(Board(), "AEINRST", variants(load_config(SMALL_CONFIG))["scrabble"], lexicon, keep=1)[0]
    assert json.loads(res.stdout)[0]["score"] == best[0, gk.PLAY_SCORE]
    path = data / "t" / "gaddag.parquet"
    arcs = pl.read_parquet(path)["arc"].to_numpy().copy().view(np.uint32)
    arcs[3] = np.uint32(0xFFFFFFFF)
    pl.DataFrame({"arc": arcs.astype(np.uint32).view(np.int32)}, schema={"arc": pl.Int32}).write_parquet(path)
    res = cli("scrabble", "best", *common)
    assert res.exit_code == 2 and "damaged GADDAG" in res.stderr, res
    assert len(res.stderr.strip().splitlines()) == 1


# ---- the move generator's cache unit ------------------------------------------------------------------


def test_the_move_generator_kernels_are_one_declared_cache_unit():
    """The move generator's kernels call each other across files: the package is declared one cache unit
    (the mechanism itself is tested in tests/test_kernels_rule.py)."""
    from pipeline.core.cache_units import UNITS
    from pipeline.scrabble.movegen import kernels

    assert kernels.UNIT in UNITS and kernels.UNIT == ROOT / "pipeline" / "scrabble" / "movegen" / "kernels"
    assert len(list(kernels.UNIT.glob("*.py"))) > 1

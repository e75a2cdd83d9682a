"""Scrabble's C extension (pipeline/scrabble/native, what one-off commands run): exactly the numba kernels' play
records, counts and look-ups on ENABLE, the same layouts, its arguments checked, and no numba to load it."""

from __future__ import annotations

import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.engine import LAYOUT, kernels
from pipeline.scrabble.lexicon import kernels as lk
from pipeline.scrabble.lexicon.gaddag import LETTER_HASH, MIN_LETTERS, build_gaddag
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import best_plays, mirrored_opening, play_rows, record_tiles
from pipeline.scrabble.movegen.kernels import layout, search
from pipeline.scrabble.movegen.tables import engine_tables, generation_key, generation_order, read_only_tables, tables
from pipeline.scrabble.rules.board import Board
from pipeline.scrabble.rules.variant import variants
from tests.conftest import DEFAULT_CONFIG, ENABLE, ROOT, SMALL_CONFIG, build_lexicon

pytestmark = pytest.mark.numba_reference  # the numba kernels called directly, as the reference

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture(scope="module")
def enable():
    """ENABLE, its GADDAG, and the move generator's tables of both variants."""
    lexicon = Lexicon(ENABLE.read_text().upper().split())
    games = variants(load_config(DEFAULT_CONFIG))
    return lexicon, {name: tables(lexicon.gaddag, game) for name, game in games.items()}


@pytest.fixture(scope="module")
def bare(enable):
    """The tables of both variants without word maps (no long words: the anchor walks find every play)."""
    lexicon, _ = enable
    return {
        name: tables(lexicon.gaddag, game, word_maps=False)
        for name, game in variants(load_config(DEFAULT_CONFIG)).items()
    }


def plays(board_plays, tab, board: Board, rack: str, keep: int) -> tuple[np.ndarray, int]:
    """The records (their n rows) and the count of a board_plays kernel for a position."""
    out = np.zeros((keep or 256, layout.RECORD), dtype=np.int32)
    tiles, blanks = board.tiles.astype(np.int8), np.ascontiguousarray(board.blanks, dtype=np.bool_)
    records, n, total = board_plays(tab, tiles, blanks, rack_counts(rack), keep, out)
    return records[:n], total


def random_rack(rng: random.Random, size: int, blanks: int) -> str:
    """`size` tiles, `blanks` of them blanks, the letters random (vowels likelier)."""
    return "".join(rng.choice("AAEEIIOOU" + LETTERS) for _ in range(size - blanks)) + "?" * blanks


def random_board(tab, seed: int, moves: int) -> Board:
    """A board after `moves` random legal plays (by the numba generator) from random racks."""
    rng = random.Random(seed)
    board = Board()
    for _ in range(moves):
        records, _ = plays(search.board_plays, tab, board, random_rack(rng, 7, rng.randrange(3)), 0)
        if len(records):
            board.put(record_tiles(records[rng.randrange(len(records))])[0])
    return board


@settings(max_examples=30, deadline=None)  # each example plays up to 12 moves of a game to reach a position
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 12),
    variant=st.sampled_from(["scrabble", "wwf"]),
    size=st.integers(1, 7),
    blanks=st.integers(0, 2),
    bingo=st.booleans(),
)
@pytest.mark.slow
def test_board_plays_are_the_numba_kernels_records(enable, bare, seed, moves, variant, size, blanks, bingo):
    """Both engines give the same records and counts, with word maps or without; and the same plays either way."""
    lexicon, tabs = enable
    tab, rng = tabs[variant], random.Random(seed)
    board = random_board(tab, seed, moves)
    blanks = min(blanks, size)
    rack = random_rack(rng, size, blanks)
    if bingo:  # a full rack that spells a word: its plays are found by letter hash
        word = rng.choice(sorted(w for w in lexicon.words if len(w) == 7))
        rack = "".join(rng.sample(word, 7 - blanks)) + "?" * blanks
    for keep in (0, 1, 3, 10):
        ours, total = plays(kernels().board_plays, tab, board, rack, keep)
        theirs, expected = plays(search.board_plays, tab, board, rack, keep)
        assert total == expected and ours.shape == theirs.shape and (ours == theirs).all(), (board.text(), rack, keep)
        walked, walked_total = plays(kernels().board_plays, bare[variant], board, rack, keep)
        numba_walked, numba_total = plays(search.board_plays, bare[variant], board, rack, keep)
        assert walked_total == numba_total and (walked == numba_walked).all(), (board.text(), rack, keep)
        if keep == 0:  # every play, in the order each search found them
            walked, ours = walked[generation_order(walked)], ours[generation_order(ours)]
        assert walked.shape == ours.shape and (walked == ours).all(), (board.text(), rack, keep)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 10),
    variant=st.sampled_from(["scrabble", "wwf"]),
    blanks=st.integers(0, 2),
)
def test_the_numpy_free_path_gives_the_same_plays(enable, bare, seed, moves, variant, blanks):
    """What `scrabble best` runs without numpy (the engine on plain buffers: engine_tables, Board.views, play_rows,
    generation_key) gives the numpy path's records, in the reference generator's order."""
    lexicon, tabs = enable
    game = variants(load_config(DEFAULT_CONFIG))[variant]
    board = random_board(tabs[variant], seed, moves)
    rack = random_rack(random.Random(seed), 7, blanks)
    buffers = engine_tables(lexicon.gaddag, game)
    assert all(isinstance(f, memoryview) for f in buffers[:9])
    for made, expected in zip(read_only_tables(*buffers), bare[variant], strict=True):
        assert np.array_equal(made, expected) and np.asarray(made).dtype == np.asarray(expected).dtype
    for keep in (4, 0):
        rows = play_rows(kernels(), buffers, board, rack, keep)
        records, _ = plays(search.board_plays, bare[variant], board, rack, keep)
        assert np.array_equal(np.array(rows, dtype=np.int32).reshape(-1, layout.RECORD), records)
    k = kernels()  # rows, records: every play
    ordered = sorted(rows, key=lambda row: generation_key(row, k))
    assert np.array_equal(
        np.array(ordered, dtype=np.int32).reshape(-1, layout.RECORD), records[generation_order(records)]
    )
    best = best_plays(board, rack, game, lexicon, top=5)
    listed = [r for r in rows if r[k.PLAY_DIR] == 0] if mirrored_opening(board, game) else rows  # once each
    assert [p.score for p in best] == sorted((r[k.PLAY_SCORE] for r in listed), reverse=True)[:5]


def test_scrabble_best_imports_neither_numpy_nor_numba(tmp_path):
    """A one-off `scrabble best` from a stored GADDAG, on a board, starts without numpy or numba, and prints what the
    same command prints in a process that has them."""
    words = ["QI", "QUIRES", "RETAINS", "CAT", "CATS", "CA", "AX", "AXE", "TA", "AT", "AXES", "TAXES"]
    data = build_lexicon(tmp_path / "out", words, "ingest", "gaddag")
    board = tmp_path / "board.txt"
    board.write_text("\n".join(["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7) + "\n")
    args = ["scrabble", "best", "--board", str(board), "--rack", "XAES?", "--json"]
    args += ["--lexicon", "t", "--data-dir", str(data), "--config", str(SMALL_CONFIG)]
    shown = "import atexit, sys; atexit.register(lambda: print(sorted({'numpy', 'numba'} & set(sys.modules))))\n"
    alone = subprocess.run(
        [sys.executable, "-c", shown + "from pipeline.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert alone.returncode == 0, alone.stderr
    *document, imported = alone.stdout.rstrip("\n").split("\n")
    assert imported == "[]"
    with_numpy = subprocess.run(
        [sys.executable, "-c", "import numpy; from pipeline.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert with_numpy.returncode == 0, with_numpy.stderr
    assert "\n".join(document) + "\n" == with_numpy.stdout and '"word": "' in with_numpy.stdout


def test_every_play_outgrows_the_callers_rows(enable):
    _, tabs = enable
    board = random_board(tabs["scrabble"], 5, 6)
    ours, total = plays(kernels().board_plays, tabs["scrabble"], board, "AEIRST?", 0)
    theirs, expected = plays(search.board_plays, tabs["scrabble"], board, "AEIRST?", 0)
    assert len(ours) == total == expected > 256 and (ours == theirs).all()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="ABCDEQSZ", min_size=2, max_size=15), max_size=40),
    st.lists(st.text(alphabet="ABCDEQSZ", min_size=1, max_size=16), max_size=20),
)
def test_look_ups_are_the_numba_kernels(words, probes):
    arcs = build_gaddag(words).arcs
    assert (kernels().arc_tilesets(arcs) == lk.arc_tilesets(arcs)).all()
    for shortest in (2, 7):
        found = kernels().long_words(arcs, shortest, LETTER_HASH), lk.long_words(arcs, shortest, LETTER_HASH)
        for ours, theirs in zip(*found, strict=True):
            assert ours.dtype == theirs.dtype and ours.shape == theirs.shape and (ours == theirs).all()
    for word in words + probes:
        codes = np.frombuffer(word.encode(), dtype=np.uint8).astype(np.int64) - 65
        assert kernels().gaddag_contains(arcs, codes) == lk.gaddag_contains(arcs, codes) == (word in words)


def test_look_ups_on_enable(enable):
    lexicon, tabs = enable
    arcs = lexicon.gaddag.arcs
    assert (kernels().arc_tilesets(arcs) == lk.arc_tilesets(arcs)).all()
    for ours, theirs in zip(tabs["wwf"][2:5], lk.long_words(arcs, MIN_LETTERS, LETTER_HASH), strict=True):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape and (ours == theirs).all()
    words = sorted(lexicon.words)
    for word in words[::997] + [w[::-1] for w in words[::991]] + [w + "Q" for w in words[::983]]:
        codes = np.frombuffer(word.encode(), dtype=np.uint8).astype(np.int64) - 65
        assert kernels().gaddag_contains(arcs, codes) == (word in lexicon.words)


def test_layouts_are_the_numba_kernels():
    for name in LAYOUT:
        kernel_module = lk if name in ("CHILD_BITS", "CHILD_MASK", "END", "TILE_SHIFT") else layout
        assert getattr(kernels(), name) == getattr(kernel_module, name), name
    assert kernels().CHILD_MASK == layout.CHILD_MASK and kernels().END == layout.END


def test_arguments_are_checked(enable):
    _, tabs = enable
    tab, c = tabs["scrabble"], kernels()
    tiles, blanks = np.full((15, 15), -1, dtype=np.int8), np.zeros((15, 15), dtype=np.bool_)
    rack, out = rack_counts("RETAINS"), np.zeros((10, layout.RECORD), dtype=np.int32)
    assert c.board_plays(tab, tiles, blanks, rack, 10, out)[1] == 10
    wrong = {
        1: [tiles.astype(np.int64), np.full((15, 30), -1, np.int8)[:, ::2], tiles.tolist()],
        2: [blanks.astype(np.int8)],
        3: [rack.astype(np.int32), rack[None, :]],
        4: [2.0, "3"],
        5: [out.astype(np.int64), out[:, ::2], np.zeros((10, 22), np.int32)[::-1], out.copy().T],
    }
    for at, values in wrong.items():
        for value in values:
            with pytest.raises(TypeError):
                c.board_plays(*[value if i == at else a for i, a in enumerate((tab, tiles, blanks, rack, 10, out))])
    read_only = out.copy()
    read_only.flags.writeable = False
    for bad in (tab[:12], list(tab), tab._replace(arcs=tab.arcs.astype(np.int64)), tab._replace(centre_r=1.5)):
        with pytest.raises(TypeError):
            c.board_plays(bad, tiles, blanks, rack, 10, out)
    with pytest.raises(TypeError, match="writable"):
        c.board_plays(tab, tiles, blanks, rack, 10, read_only)
    too_many, negative, high = rack_counts("AAAAAAAAAAAAAAAA"), rack.copy(), tiles.copy()
    negative[3], high[7, 7] = -1, 26
    for args in (
        (tab._replace(values=tab.values[:25]), tiles, blanks, rack, 10, out),
        (tab._replace(bingo_words=tab.bingo_words[:-1]), tiles, blanks, rack, 10, out),
        (tab._replace(centre_r=15), tiles, blanks, rack, 10, out),
        (tab, tiles[:14], blanks, rack, 10, out),
        (tab, tiles, blanks, rack[:26], 10, out),
        (tab, tiles, blanks, rack, 11, out),
        (tab, tiles, blanks, rack, -1, out),
        (tab, tiles, blanks, too_many, 10, out),
        (tab, tiles, blanks, negative, 10, out),
        (tab, high, blanks, rack, 10, out),
    ):
        with pytest.raises(ValueError):
            c.board_plays(*args)
    with pytest.raises(TypeError):
        c.gaddag_contains(tab.arcs.astype(np.int64), np.zeros(2, dtype=np.int64))
    with pytest.raises(TypeError):
        c.long_words(tab.arcs, 2, LETTER_HASH.astype(np.int64))


def test_searches_run_side_by_side_in_threads(enable):
    _, tabs = enable
    boards = [random_board(tabs["wwf"], seed, 8) for seed in range(4)]
    alone = [plays(kernels().board_plays, tabs["wwf"], b, "EIRST??", 5) for b in boards]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda b: plays(kernels().board_plays, tabs["wwf"], b, "EIRST??", 5), boards * 4))
    assert all((a[0] == b[0]).all() and a[1] == b[1] for a, b in zip(alone * 4, together, strict=True))


def test_the_engine_loads_without_numba():
    code = "import sys; from pipeline.scrabble.engine import kernels; kernels(); print(*sorted(sys.modules))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    imported = set(run.stdout.split())
    assert "pipeline.scrabble._native" in imported and not {m for m in imported if m.split(".")[0] == "numba"}

"""The equity player's best-first search: the same move as the move of highest equity among every play (the
EVERY_PLAY reference kind), ties included, on random positions and over whole seeded games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.core.config import load_config
from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.play.game import play_game, players_of
from pipeline.scrabble.play.strategy import GREEDY
from pipeline.scrabble.play.turns import game_of, game_rng
from pipeline.scrabble.rules.variant import variants
from tests.conftest import DEFAULT_CONFIG

# whole points, so that equities tie often; fractions, so that they seldom do
TIED = {"?": 25.0, "S": 8.0, "ES": 10.0, "R": 1.0, "E": 2.0, "Q": -7.0, "V": -5.0, "VV": -14.0, "U": -3.0, "EQU": 4.0}
FRACTIONS = {k: v + 0.37 * (i % 5) - 0.11 for i, (k, v) in enumerate(TIED.items())}
TILES = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ"


@pytest.fixture(scope="module", params=["scrabble", "wwf"])
def variant(request):
    """Both variants of the default config."""
    return variants(load_config(DEFAULT_CONFIG))[request.param]


def kernel_choice(variant, lexicon, board, rack: str, bag: int, leaves: LeaveValues, every_play: bool):
    """choose_move's answer for an equity player: the action, its record and the tiles it returns."""
    from pipeline.letters.tiles import rack_counts
    from pipeline.scrabble.movegen.kernels.game import choose_move
    from pipeline.scrabble.movegen.kernels.layout import RECORD
    from pipeline.scrabble.movegen.kernels.position import position_tables
    from pipeline.scrabble.movegen.tables import variant_tables

    tab = variant_tables(lexicon, variant)
    pos = position_tables(tab, np.ascontiguousarray(board.tiles, dtype=np.int8), np.ascontiguousarray(board.blanks))
    players = players_of((Equity(leaves, every_play=every_play),))
    counts = rack_counts(rack).astype(np.int64)
    one, every = np.zeros((1, RECORD), dtype=np.int32), np.zeros((256, RECORD), dtype=np.int32)
    kept, gone = np.zeros(27, dtype=np.int64), np.zeros(27, dtype=np.int64)
    action, record, _ = choose_move(tab, pos, players, 0, counts, bag, one, every, kept, gone)
    return int(action), (record.tolist() if action == 0 else None), gone.tolist()


def random_positions(variant, lexicon, seed: int, count: int):
    """Boards of seeded greedy games at random turns, each with a random rack of 0 to 2 blanks (from the tiles
    of the English set) and a bag of about a rack."""
    rng = random.Random(seed)
    found = []
    for number in range(count):
        game = game_of(play_game(variant, lexicon, game_rng(seed, variant.name, number)), variant, lexicon)
        board = game.turns[rng.randrange(len(game.turns))].board
        blanks = rng.choice([0, 0, 1, 2])
        rack = "".join(rng.sample(TILES, variant.rack_size - blanks)) + "?" * blanks
        found.append((board, rack, rng.choice([variant.rack_size - 1, variant.rack_size, variant.rack_size + 1, 50])))
    return found


@pytest.mark.parametrize("values", [TIED, FRACTIONS], ids=["tied", "fractions"])
def test_best_first_equity_is_every_plays_best_on_random_positions(variant, lexicon, values):
    """The same action, play record (ties to the higher score, then the generator's order) and exchanged tiles."""
    leaves = LeaveValues.of(values)
    for board, rack, bag in random_positions(variant, lexicon, 17, 30):
        fast = kernel_choice(variant, lexicon, board, rack, bag, leaves, every_play=False)
        assert fast == kernel_choice(variant, lexicon, board, rack, bag, leaves, every_play=True), (rack, bag)


def test_equity_games_are_the_same_best_first(lexicon):
    """Seeded games between equity players (and against a greedy one): the same logs, byte for byte."""
    scrabble = variants(load_config(DEFAULT_CONFIG))["scrabble"]
    for number, values in enumerate((TIED, FRACTIONS, TIED, FRACTIONS), start=1):
        leaves = LeaveValues.of(values)
        fast, full = Equity(leaves), Equity(leaves, every_play=True)
        second = (fast, full) if number % 2 else (GREEDY, GREEDY)
        a = play_game(scrabble, lexicon, game_rng(8, "scrabble", number), (fast, second[0]))
        b = play_game(scrabble, lexicon, game_rng(8, "scrabble", number), (full, second[1]))
        for field in ("turns", "racks", "scores", "exchanged"):
            assert getattr(a, field).tobytes() == getattr(b, field).tobytes(), (number, field)
        assert a.went_out == b.went_out

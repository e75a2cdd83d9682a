"""Self-play with the exact endgame (opt-in: `scrabble selfplay --endgame`): the games are the plain ones until the
bag is empty; from then on each move is the first move of the endgame search on that position (both racks known,
a budget of positions), and where that search proves its value the game ends with exactly that spread from there;
and the command plays them, the same games each time."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.scrabble.endgame import solve
from pipeline.scrabble.movegen.generate import record_tiles
from pipeline.scrabble.movegen.kernels import layout as ly
from pipeline.scrabble.play.game import play_game, rack_text
from pipeline.scrabble.play.strategy import GREEDY, SolvesEndgame
from pipeline.scrabble.play.turns import game_rng
from pipeline.scrabble.requests import SELFPLAY_ENDGAME_POSITIONS
from pipeline.scrabble.rules.board import Board
from tests.conftest import DEFAULT_CONFIG
from tests.support.datasets import default_data

SOLVING = SolvesEndgame(GREEDY, SELFPLAY_ENDGAME_POSITIONS)


def positions_before(log, size: int):
    """Each turn's board, scores and scoreless run before it, and whether the bag was empty then (the tiles on the
    board and both racks are the whole set; the opponent's rack is the one it holds at its next turn, so the last
    turn's is not known: None)."""
    board, scores, run = Board(), [0, 0], 0
    for t, row in enumerate(log.turns):
        mover = int(log.racks[t].sum())
        other = int(log.racks[t + 1].sum()) if t + 1 < len(log.turns) else None
        on_board = int((board.tiles >= 0).sum())
        empty = None if other is None else on_board + mover + other == size
        yield t, board.copy(), list(scores), run, empty
        if row[ly.TURN_ACTION] == ly.PLAY:
            record = row[ly.TURN_RECORD :]
            board.put(record_tiles(record)[0])
            scores[int(row[ly.TURN_PLAYER])] += int(record[ly.PLAY_SCORE])
        run = run + 1 if row[ly.TURN_ACTION] != ly.PLAY or row[ly.TURN_RECORD + ly.PLAY_SCORE] == 0 else 0


@pytest.mark.slow  # whole ENABLE games, their endgames searched
@pytest.mark.parametrize("number", [1, 3, 4])
def test_endgame_moves_are_the_searchs_and_proven_values_are_played_out(scrabble, lexicon, number):
    plain = play_game(scrabble, lexicon, game_rng(1, scrabble.name, number))
    solving = play_game(scrabble, lexicon, game_rng(1, scrabble.name, number), (SOLVING, SOLVING))
    endgame_turns, proven = 0, 0
    for t, board, scores, run, empty in positions_before(solving, scrabble.tile_set.size):
        if empty is None:  # the last turn
            continue
        if not empty:
            assert np.array_equal(solving.turns[t], plain.turns[t]), t  # before the bag empties: the plain game
            continue
        endgame_turns += 1
        p = int(solving.turns[t, ly.TURN_PLAYER])
        mover, other = rack_text(solving.racks[t]), rack_text(solving.racks[t + 1])
        found = solve(board, mover, other, scrabble, lexicon, scoreless=run, positions=SELFPLAY_ENDGAME_POSITIONS)
        best = found.best.record
        played = solving.turns[t]
        assert played[ly.TURN_ACTION] == (ly.PASS if best is None else ly.PLAY), t
        assert tuple(played[ly.TURN_RECORD :]) == (tuple([0] * ly.RECORD) if best is None else best), t
        if found.proven:  # best play by both from here: the spread the game ends with is the value
            proven += 1
            final = solving.scores
            assert (final[p] - scores[p]) - (final[1 - p] - scores[1 - p]) == found.value, t
    assert endgame_turns >= 1 and proven >= 1
    assert not np.array_equal(solving.turns, plain.turns) or number == 3  # the search changed the ending


@pytest.mark.slow  # whole ENABLE games, their endgames searched
def test_selfplay_cli_plays_endgames_the_same_each_time_and_refuses_them_with_compare(cli, tmp_path_factory):
    data = default_data(tmp_path_factory, {"enable": ("ingest", "gaddag")})
    common = ["--lexicon", "enable", "--data-dir", data, "--config", DEFAULT_CONFIG]
    solving = cli("scrabble", "selfplay", "--games", "2", "--seed", "4", "--endgame", "--json", *common)
    assert solving.exit_code == 0, solving
    rows = json.loads(solving.stdout)
    assert [r["game"] for r in rows] == [1, 2] and rows == json.loads(
        cli("scrabble", "selfplay", "--games", "2", "--seed", "4", "--endgame", "--json", *common).stdout
    )
    refused = cli("scrabble", "selfplay", "--endgame", "--compare", *common)
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1 and "--endgame" in refused.stderr, refused

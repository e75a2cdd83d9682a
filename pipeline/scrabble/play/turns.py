"""Games as turns a person reads: each turn's board and rack before it, and its play checked and scored by the
rules; a game's random stream."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import record_tiles
from pipeline.scrabble.play.game import GameLog, play_game, rack_text
from pipeline.scrabble.play.strategy import GREEDY, Strategy
from pipeline.scrabble.rules.board import Board
from pipeline.scrabble.rules.scoring import Play, evaluate
from pipeline.scrabble.rules.variant import MAX_SCORELESS, Variant

ACTIONS = ("play", "exchange", "pass")  # by the game log's action codes (movegen/kernels/layout.py)


@dataclass
class Turn:
    """One turn of a game: who, the board and rack before it, and what they did."""

    player: int
    board: Board
    rack: str
    action: str  # "play", "exchange" or "pass"
    play: Play | None = None
    exchanged: str = ""  # the tiles an exchange returned ("" when unknown: the whole rack)

    @property
    def score(self) -> int:
        """Points the turn scored."""
        return self.play.score if self.play else 0


@dataclass
class Game:
    """A finished game: its turns, final scores (end-of-game rack adjustments included)."""

    variant: str
    turns: list[Turn]
    scores: list[int]
    went_out: int | None  # the player who used their last tile, if any
    final_racks: list[str] | None = None  # each player's rack at the end, when known


def game_of(log: GameLog, variant: Variant, lexicon: Lexicon) -> Game:
    """A game log as turns with boards, racks and plays checked and scored by the rules."""
    from pipeline.scrabble.movegen.kernels import layout as ly

    board, turns = Board(), []
    for k, (row, counts) in enumerate(zip(log.turns, log.racks)):
        action = ACTIONS[int(row[ly.TURN_ACTION])]
        turn = Turn(int(row[ly.TURN_PLAYER]), board.copy(), rack_text(counts), action)
        if action == "exchange":
            turn.exchanged = rack_text(log.exchanged[k])
        if action == "play":
            record = row[ly.TURN_RECORD :]
            tiles, direction = record_tiles(record)
            turn.play = evaluate(board, tiles, variant, lexicon, direction)
            if turn.play.score != record[ly.PLAY_SCORE]:
                raise RuntimeError(
                    f"move generator scored {turn.play} {record[ly.PLAY_SCORE]}, rules say {turn.play.score}"
                )
            board.put(tiles)
        turns.append(turn)
    return Game(log.variant, turns, [int(x) for x in log.scores], None if log.went_out < 0 else log.went_out)


def self_play(
    variant: Variant,
    lexicon: Lexicon,
    rng: np.random.Generator,
    strategies: tuple[Strategy, ...] = (GREEDY, GREEDY),
    max_scoreless: int = MAX_SCORELESS,
) -> Game:
    """A game between players of these strategies (play_game), its turns checked and scored by the rules."""
    return game_of(play_game(variant, lexicon, rng, strategies, max_scoreless), variant, lexicon)


def game_rng(seed: int, variant: str, game: int) -> np.random.Generator:
    """The random stream of one game: seed, variant name and game number."""
    return np.random.default_rng([seed, zlib.crc32(variant.encode()), game])

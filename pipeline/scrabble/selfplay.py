"""Greedy self-play games and their summary."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import polars as pl

from pipeline.core.config import BLANK, LETTERS
from pipeline.scrabble.board import Board, leave
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.movegen import generate, record_tiles
from pipeline.scrabble.rules import Play, evaluate
from pipeline.scrabble.variant import Variant


@dataclass
class Turn:
    """One turn of a game: who, the board and rack before it, and what they did."""

    player: int
    board: Board
    rack: str
    action: str  # "play", "exchange" or "pass"
    play: Play | None = None

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


def rack_value(rack: str, variant: Variant) -> int:
    """The face value of the tiles on a rack (blanks 0)."""
    return sum(variant.tile_set.values.get(ch, 0) for ch in rack)


def self_play(
    variant: Variant, lexicon: Lexicon, rng: np.random.Generator, players: int = 2, max_scoreless: int = 6
) -> Game:
    """A game between greedy players: each plays its highest-scoring move, else exchanges its whole rack
    (when the bag holds a full rack) or passes. It ends when a player goes out with the bag empty
    (they gain the others' rack values, which the others lose) or after `max_scoreless` scoreless turns
    in a row (each player loses their rack value)."""
    bag = [ch for ch in LETTERS + BLANK for _ in range(variant.tile_set.counts.get(ch, 0))]
    rng.shuffle(bag)
    racks = [""] * players

    def draw(rack: str) -> str:
        """The rack refilled from the bag, sorted."""
        while len(rack) < variant.rack_size and bag:
            rack += bag.pop()
        return "".join(sorted(rack))

    racks = [draw(r) for r in racks]
    board, scores, turns, scoreless, player = Board(), [0] * players, [], 0, 0
    while True:
        records, _ = generate(board, racks[player], variant, lexicon, keep=1)
        turn = Turn(player, board.copy(), racks[player], "pass")
        if len(records):
            tiles, direction = record_tiles(records[0])
            turn.play = evaluate(board, tiles, variant, lexicon, direction)
            if turn.play.score != records[0][0]:
                raise RuntimeError(f"move generator scored {turn.play} {records[0][0]}, rules say {turn.play.score}")
            turn.action = "play"
            board.put(tiles)
            scores[player] += turn.play.score
            racks[player] = draw(leave(racks[player], tiles))
            scoreless = 0
        else:
            if len(bag) >= variant.rack_size:
                turn.action = "exchange"
                old = racks[player]
                racks[player] = draw("")
                bag.extend(old)
                rng.shuffle(bag)
            scoreless += 1
        turns.append(turn)
        if not racks[player] and not bag:
            for other in range(players):
                if other != player:
                    left = rack_value(racks[other], variant)
                    scores[other] -= left
                    scores[player] += left
            return Game(variant.name, turns, scores, player)
        if scoreless >= max_scoreless:
            for p in range(players):
                scores[p] -= rack_value(racks[p], variant)
            return Game(variant.name, turns, scores, None)
        player = (player + 1) % players


def game_rng(seed: int, variant: str, game: int) -> np.random.Generator:
    """The random stream of one game: seed, variant name and game number."""
    return np.random.default_rng([seed, zlib.crc32(variant.encode()), game])


def game_row(game: Game, number: int) -> dict:
    """One game as a selfplay.parquet row."""
    plays = [t for t in game.turns if t.play]
    best = max(game.scores)
    winners = [p for p, s in enumerate(game.scores) if s == best]
    return {
        "variant": game.variant,
        "game": number,
        "score_1": game.scores[0],
        "score_2": game.scores[1],
        "winner": winners[0] + 1 if len(winners) == 1 else 0,
        "moves": len(plays),
        "move_points": sum(t.score for t in plays),
        "bingos": sum(1 for t in plays if t.play is not None and t.play.bingo),
        "exchanges": sum(1 for t in game.turns if t.action == "exchange"),
        "passes": sum(1 for t in game.turns if t.action == "pass"),
        "plays": [
            f"{t.player + 1}: {t.play} {t.score}" if t.play else f"{t.player + 1}: {t.action}" for t in game.turns
        ],
    }


SELFPLAY_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "variant": pl.String,
    "game": pl.UInt32,
    "score_1": pl.Int32,
    "score_2": pl.Int32,
    "winner": pl.UInt8,
    "moves": pl.UInt32,
    "move_points": pl.Int32,
    "bingos": pl.UInt32,
    "exchanges": pl.UInt32,
    "passes": pl.UInt32,
    "plays": pl.List(pl.String),
}


def selfplay_summary(games: pl.DataFrame) -> dict:
    """Per variant: games, moves, average score per move, average final and winning scores, bingos."""
    out = {}
    for (name,), g in games.group_by(["variant"], maintain_order=True):
        finals = g["score_1"].to_list() + g["score_2"].to_list()
        winning = [max(a, b) for a, b in zip(g["score_1"], g["score_2"])]
        moves = int(g["moves"].sum())
        out[name] = {
            "games": g.height,
            "moves": moves,
            "average_score_per_move": round(int(g["move_points"].sum()) / moves, 3) if moves else None,
            "average_moves_per_game": round(moves / g.height, 3),
            "average_final_score": round(sum(finals) / len(finals), 3),
            "average_winning_score": round(sum(winning) / len(winning), 3),
            "bingos_per_game": round(int(g["bingos"].sum()) / g.height, 3),
        }
    return out

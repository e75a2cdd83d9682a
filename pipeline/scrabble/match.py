"""Games between strategies: score-only (greedy) and equity (score + leave value, exchanges considered)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from pipeline.core.config import BLANK, LETTERS
from pipeline.scrabble.equity import LeaveValues, best_move
from pipeline.scrabble.equity_play import LeaveTable, strategy_play_log, uses_leaves
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.movegen import generate, record_tiles
from pipeline.scrabble.rules.board import Board, leave
from pipeline.scrabble.rules.scoring import evaluate
from pipeline.scrabble.rules.variant import Variant
from pipeline.scrabble.selfplay import Game, Turn, game_rng, rack_value

SCORE, EQUITY = "score", "equity"
STRATEGIES = (SCORE, EQUITY)


@dataclass(frozen=True)
class Player:
    """A strategy: rank by score alone, or by equity with these leave values."""

    strategy: str
    leaves: LeaveValues | None = None


def play_game(variant: Variant, lexicon: Lexicon, rng: np.random.Generator, players: tuple[Player, Player]) -> Game:
    """A game under self-play's rules (self_play), played with the rules module and the ranked moves of
    equity.py: the slow reference of equity_play.strategy_play_log. Each player moves by its strategy; the
    equity player counts leave values and may exchange any tiles while the bag holds a full rack
    (equity_play.uses_leaves), and plays by score after."""
    bag = [ch for ch in LETTERS + BLANK for _ in range(variant.tile_set.counts.get(ch, 0))]
    rng.shuffle(bag)

    def draw(rack: str) -> str:
        """The rack refilled from the bag, sorted."""
        while len(rack) < variant.rack_size and bag:
            rack += bag.pop()
        return "".join(sorted(rack))

    racks = [draw(""), draw("")]
    board, scores, turns, scoreless, p = Board(), [0, 0], [], 0, 0
    while True:
        turn = Turn(p, board.copy(), racks[p], "pass")
        me = players[p]
        exchanged, tiles, direction = None, None, None
        if me.strategy == EQUITY and me.leaves is not None and uses_leaves(len(bag), variant.rack_size):
            move = best_move(board, racks[p], variant, lexicon, me.leaves, True)
            if move is not None and move.play is None:
                exchanged = move.exchange
            elif move is not None and move.play is not None:
                tiles, direction = list(move.play.tiles), move.play.direction
        else:
            records, _ = generate(board, racks[p], variant, lexicon, keep=1)
            tiles, direction = record_tiles(records[0]) if len(records) else (None, None)
            if tiles is None and len(bag) >= variant.rack_size:
                exchanged = racks[p]
        if tiles is not None:
            turn.play = evaluate(board, tiles, variant, lexicon, direction)
            turn.action = "play"
            board.put(tiles)
            scores[p] += turn.play.score
            racks[p] = draw(leave(racks[p], tiles))
            scoreless = 0
        else:
            if exchanged:
                turn.action = "exchange"
                turn.exchanged = exchanged  # type: ignore[attr-defined]
                kept = list(racks[p])
                for ch in exchanged:
                    kept.remove(ch)
                racks[p] = draw("".join(kept))
                bag.extend(exchanged)
                rng.shuffle(bag)
            scoreless += 1
        turns.append(turn)
        if not racks[p] and not bag:
            left = rack_value(racks[1 - p], variant)
            scores[1 - p] -= left
            scores[p] += left
            return Game(variant.name, turns, scores, p)
        if scoreless >= 6:
            for q in range(2):
                scores[q] -= rack_value(racks[q], variant)
            game = Game(variant.name, turns, scores, None)
            game.final_racks = list(racks)  # type: ignore[attr-defined]
            return game
        p = 1 - p


def compare_strategies(
    variant: Variant, lexicon: Lexicon, leaves: LeaveTable, games: int, seed: int, progress=None
) -> pl.DataFrame:
    """Equity against score-only play over seeded games (game k: the random stream of game_rng(seed, k)),
    the equity player moving first in odd-numbered games: one row per game with both final scores."""
    rows = []
    for number in range(1, games + 1):
        equity_first = number % 2 == 1
        pair = (leaves, None) if equity_first else (None, leaves)
        log = strategy_play_log(variant, lexicon, game_rng(seed, variant.name, number), pair)
        e, s = (0, 1) if equity_first else (1, 0)
        rows.append((number, equity_first, int(log.scores[e]), int(log.scores[s])))
        if progress is not None:
            progress.advance()
    return pl.DataFrame(
        rows,
        schema={"game": pl.Int64, "equity_first": pl.Boolean, "equity_score": pl.Int64, "score_only": pl.Int64},
        orient="row",
    )


def comparison_summary(table: pl.DataFrame) -> dict:
    """Games, mean scores, the equity player's win rate (ties count half) and its 95% interval."""
    n = table.height
    equity = table["equity_score"].to_numpy().astype(np.float64)
    score = table["score_only"].to_numpy().astype(np.float64)
    diff = equity - score
    wins = float((diff > 0).sum() + 0.5 * (diff == 0).sum())
    rate = wins / n if n else 0.0
    half = 1.96 * (rate * (1 - rate) / n) ** 0.5 if n else 0.0
    return {
        "games": n,
        "equity_mean_score": round(float(equity.mean()), 2) if n else 0.0,
        "score_only_mean_score": round(float(score.mean()), 2) if n else 0.0,
        "mean_spread": round(float(diff.mean()), 2) if n else 0.0,
        "equity_win_rate": round(rate, 4),
        "win_rate_ci95": [round(rate - half, 4), round(rate + half, 4)],
    }

"""Equity against score-only play: seeded games between the two strategies, each moving first in every other
game, and their summary (mean scores, the equity player's win rate)."""

from __future__ import annotations

import numpy as np
import polars as pl

from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.strategy import GREEDY
from pipeline.scrabble.play.turns import game_rng
from pipeline.scrabble.rules.variant import Variant


def compare_strategies(
    variant: Variant, lexicon: Lexicon, leaves: LeaveValues, games: int, seed: int, progress=None
) -> pl.DataFrame:
    """Equity against score-only play over seeded games (game k: the random stream of game_rng(seed, k)),
    the equity player moving first in odd-numbered games: one row per game with both final scores."""
    rows = []
    for number in range(1, games + 1):
        equity_first = number % 2 == 1
        pair = (Equity(leaves), GREEDY) if equity_first else (GREEDY, Equity(leaves))
        log = play_game(variant, lexicon, game_rng(seed, variant.name, number), pair)
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

"""Equity against score-only play: seeded pairs of games between the two strategies, the two games of a pair
drawing from the same random stream with the players swapped, and their summary (mean scores, the equity
player's win rate with a 95% interval over the pairs)."""

from __future__ import annotations

import numpy as np
import polars as pl

from pipeline.scrabble.equity.fit import Z95
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
    """Equity against score-only play over seeded games in pairs: games 2p-1 and 2p play the random stream
    game_rng(seed, p), the equity player moving first in the odd-numbered one: one row per game with both
    final scores."""
    rows = []
    for number in range(1, games + 1):
        equity_first = number % 2 == 1
        pair = (Equity(leaves), GREEDY) if equity_first else (GREEDY, Equity(leaves))
        log = play_game(variant, lexicon, game_rng(seed, variant.name, pair_of(number)), pair)
        e, s = (0, 1) if equity_first else (1, 0)
        rows.append((number, equity_first, int(log.scores[e]), int(log.scores[s])))
        if progress is not None:
            progress.advance()
    return pl.DataFrame(
        rows,
        schema={"game": pl.Int64, "equity_first": pl.Boolean, "equity_score": pl.Int64, "score_only": pl.Int64},
        orient="row",
    )


def pair_of(number: int) -> int:
    """The pair of game `number` (games 1 and 2 are pair 1)."""
    return (number + 1) // 2


def comparison_summary(table: pl.DataFrame) -> dict:
    """Games, mean scores, the equity player's win rate (ties count half) and its 95% interval: the normal
    interval of the mean of the pairs' win rates (a pair's two games share their tiles, so they are not
    independent; an unpaired last game counts as a pair)."""
    n = table.height
    equity = table["equity_score"].to_numpy().astype(np.float64)
    score = table["score_only"].to_numpy().astype(np.float64)
    diff = equity - score
    won = (diff > 0) + 0.5 * (diff == 0)
    _, pair = np.unique((table["game"].to_numpy() + 1) // 2, return_inverse=True)
    per_pair = np.bincount(pair, weights=won) / np.bincount(pair) if n else np.zeros(0)
    rate = float(won.mean()) if n else 0.0
    half = Z95 * float(per_pair.std(ddof=1)) / len(per_pair) ** 0.5 if len(per_pair) > 1 else 0.0
    return {
        "games": n,
        "equity_mean_score": round(float(equity.mean()), 2) if n else 0.0,
        "score_only_mean_score": round(float(score.mean()), 2) if n else 0.0,
        "mean_spread": round(float(diff.mean()), 2) if n else 0.0,
        "equity_win_rate": round(rate, 4),
        "win_rate_ci95": [round(rate - half, 4), round(rate + half, 4)],
    }

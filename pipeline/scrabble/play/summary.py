"""Self-play games as selfplay.parquet rows, and their summary per variant."""

from __future__ import annotations

import numpy as np
import polars as pl

from pipeline.letters.alphabet import LETTERS
from pipeline.scrabble.play.game import GameLog
from pipeline.scrabble.play.turns import Game
from pipeline.scrabble.rules.notation import position
from pipeline.scrabble.rules.variant import SIZE, Variant


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


def log_row(log: GameLog, number: int, variant: Variant) -> dict:
    """One game log as a selfplay.parquet row (the row game_row makes of the same game)."""
    from pipeline.scrabble.movegen.kernels import layout as ly

    tiles = np.full((SIZE, SIZE), -1, dtype=np.int64)
    blanks = np.zeros((SIZE, SIZE), dtype=np.bool_)
    plays, moves, points, bingos, exchanges, passes = [], 0, 0, 0, 0, 0
    for row in log.turns.tolist():
        player, action = row[ly.TURN_PLAYER] + 1, row[ly.TURN_ACTION]
        if action != ly.PLAY:
            plays.append(f"{player}: {'exchange' if action == ly.EXCHANGE else 'pass'}")
            exchanges += action == ly.EXCHANGE
            passes += action == ly.PASS
            continue
        rec = row[ly.TURN_RECORD :]
        r, c, direction = rec[ly.PLAY_ROW], rec[ly.PLAY_COL], rec[ly.PLAY_DIR]
        dr, dc = (0, 1) if direction == 0 else (1, 0)
        blank_mask, placed_mask = rec[ly.PLAY_BLANKS], rec[ly.PLAY_PLACED]
        out, inside, n_placed = [], False, 0
        for k in range(rec[ly.PLAY_LEN]):
            rr, cc = r + k * dr, c + k * dc
            on_board = not placed_mask >> k & 1
            if on_board != inside:
                out.append("(" if on_board else ")")
                inside = on_board
            if on_board:
                letter = LETTERS[tiles[rr, cc]]
                out.append(letter.lower() if blanks[rr, cc] else letter)
            else:
                n_placed += 1
                letter = LETTERS[rec[ly.PLAY_LETTERS + k]]
                is_blank = bool(blank_mask >> k & 1)
                tiles[rr, cc], blanks[rr, cc] = rec[ly.PLAY_LETTERS + k], is_blank
                out.append(letter.lower() if is_blank else letter)
        score = rec[ly.PLAY_SCORE]
        plays.append(f"{player}: {position(r, c, direction)} {''.join(out)}{')' if inside else ''} {score}")
        moves += 1
        points += score
        bingos += n_placed == variant.rack_size and variant.bingo_bonus > 0
    scores = [int(x) for x in log.scores]
    best = max(scores)
    winners = [p for p, x in enumerate(scores) if x == best]
    return {
        "variant": log.variant,
        "game": number,
        "score_1": scores[0],
        "score_2": scores[1],
        "winner": winners[0] + 1 if len(winners) == 1 else 0,
        "moves": moves,
        "move_points": points,
        "bingos": bingos,
        "exchanges": exchanges,
        "passes": passes,
        "plays": plays,
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

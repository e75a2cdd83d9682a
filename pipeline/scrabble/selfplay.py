"""Greedy self-play games and their summary."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import polars as pl

from pipeline.core.config import BLANK, LETTERS
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.movegen import record_tiles
from pipeline.scrabble.rules.board import Board
from pipeline.scrabble.rules.scoring import Play, evaluate
from pipeline.scrabble.rules.variant import SIZE, Variant


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


@dataclass(frozen=True)
class GameLog:
    """A game as arrays: one row per turn (gaddag_kernels.TURN_*: player, action, play record), the racks
    before each turn (27 counts, blanks last), final scores, who went out (-1: nobody), and the tiles each
    turn exchanged (27 counts a turn; None: an exchange returns the whole rack)."""

    variant: str
    turns: np.ndarray
    racks: np.ndarray
    scores: np.ndarray
    went_out: int
    exchanged: np.ndarray | None = None


def deal(tab, rng: np.random.Generator, players: int) -> tuple[np.ndarray, int, np.ndarray]:
    """A shuffled bag of the tile set's tiles (27 codes, blanks last), the tiles left in it, and each
    player's first rack as 27 counts, drawn in turn."""
    from pipeline.scrabble import gaddag_kernels as gk

    bag = np.repeat(np.arange(27, dtype=np.int64), tab.counts)
    rng.shuffle(bag)
    racks = np.zeros((players, 27), dtype=np.int64)
    bag_n = bag.shape[0]
    for p in range(players):
        bag_n = gk.draw(racks[p], bag, bag_n, tab.rack_size)
    return bag, bag_n, racks


def empty_position(g, tab) -> tuple[np.ndarray, ...]:
    """The GADDAG kernels' tables of an empty board (tiles, blanks, cross-check masks, cross-scores, anchors)."""
    from pipeline.scrabble import gaddag_kernels as gk

    return gk.position_tables(
        g.arcs,
        np.full((SIZE, SIZE), -1, dtype=np.int8),
        np.zeros((SIZE, SIZE), dtype=np.bool_),
        tab.values,
        tab.centre[0],
        tab.centre[1],
    )


def self_play_log(
    variant: Variant, lexicon: Lexicon, rng: np.random.Generator, players: int = 2, max_scoreless: int = 6
) -> GameLog:
    """A game between greedy players: each plays its highest-scoring move, else exchanges its whole rack (when the
    bag holds a full rack) or passes; it ends when a player goes out with the bag empty (they gain the others'
    rack values, which the others lose) or after `max_scoreless` scoreless turns in a row (each loses their rack
    value). Played in one numba kernel over the GADDAG; it stops only for the bag shuffles of exchanges."""
    from pipeline.scrabble import gaddag_kernels as gk
    from pipeline.scrabble.gaddag import LETTER_HASH, variant_tables

    g = lexicon.gaddag
    tab = variant_tables(lexicon, variant)
    bag, bag_n, racks = deal(tab, rng, players)
    n_tiles = bag.shape[0]
    tt, bb, masks, crossed, sums, anchors = empty_position(g, tab)
    state = np.zeros(gk.STATE, dtype=np.int64)
    state[gk.S_BAG] = bag_n
    scores = np.zeros(players, dtype=np.int64)
    rows = max_scoreless * (n_tiles + 2)  # each play places a tile; at most max_scoreless - 1 turns between
    log = np.zeros((rows, gk.TURN), dtype=np.int32)
    rack_log = np.zeros((rows, 27), dtype=np.int64)
    while True:
        status = gk.selfplay_turns(
            g.arcs,
            g.tilesets,
            tt,
            bb,
            masks,
            crossed,
            sums,
            anchors,
            tab.lmul,
            tab.wmul,
            tab.values,
            tab.bingo,
            tab.rack_size,
            max_scoreless,
            racks,
            bag,
            scores,
            state,
            log,
            rack_log,
            tab.bingos,
            LETTER_HASH,
            tab.bingo_words,
            tab.bingo_slots,
        )
        if status == gk.SHUFFLE:
            rng.shuffle(bag[: state[gk.S_BAG]])
        if state[gk.S_OVER]:
            break
    n = int(state[gk.S_TURNS])
    return GameLog(variant.name, log[:n], rack_log[:n], scores, int(state[gk.S_WENT_OUT]))


def rack_text(counts: np.ndarray) -> str:
    """A rack's 27 counts as its sorted text (blanks first, as sorted() puts ? before A)."""
    return BLANK * int(counts[26]) + "".join(ch * int(n) for ch, n in zip(LETTERS, counts[:26]))


def game_of(log: GameLog, variant: Variant, lexicon: Lexicon) -> Game:
    """A game log as turns with boards, racks and plays checked and scored by the rules."""
    from pipeline.scrabble import gaddag_kernels as gk

    board, turns = Board(), []
    for k, (row, counts) in enumerate(zip(log.turns, log.racks)):
        action = ("play", "exchange", "pass")[int(row[gk.TURN_ACTION])]
        turn = Turn(int(row[gk.TURN_PLAYER]), board.copy(), rack_text(counts), action)
        if action == "exchange" and log.exchanged is not None:
            turn.exchanged = rack_text(log.exchanged[k])  # type: ignore[attr-defined]
        if action == "play":
            record = row[gk.TURN_RECORD :]
            tiles, direction = record_tiles(record)
            turn.play = evaluate(board, tiles, variant, lexicon, direction)
            if turn.play.score != record[gk.PLAY_SCORE]:
                raise RuntimeError(
                    f"move generator scored {turn.play} {record[gk.PLAY_SCORE]}, rules say {turn.play.score}"
                )
            board.put(tiles)
        turns.append(turn)
    return Game(log.variant, turns, [int(x) for x in log.scores], None if log.went_out < 0 else log.went_out)


def self_play(
    variant: Variant, lexicon: Lexicon, rng: np.random.Generator, players: int = 2, max_scoreless: int = 6
) -> Game:
    """A game between greedy players (see self_play_log), played by the GADDAG engine; its turns
    are then checked and scored by the rules."""
    return game_of(self_play_log(variant, lexicon, rng, players, max_scoreless), variant, lexicon)


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


def log_row(log: GameLog, number: int, variant: Variant) -> dict:
    """One game log as a selfplay.parquet row (the row game_row makes of the same game)."""
    from pipeline.scrabble import gaddag_kernels as gk
    from pipeline.scrabble.rules.notation import position

    tiles = np.full((SIZE, SIZE), -1, dtype=np.int64)
    blanks = np.zeros((SIZE, SIZE), dtype=np.bool_)
    plays, moves, points, bingos, exchanges, passes = [], 0, 0, 0, 0, 0
    for row in log.turns.tolist():
        player, action = row[gk.TURN_PLAYER] + 1, row[gk.TURN_ACTION]
        if action != gk.PLAY:
            plays.append(f"{player}: {'exchange' if action == gk.EXCHANGE else 'pass'}")
            exchanges += action == gk.EXCHANGE
            passes += action == gk.PASS
            continue
        rec = row[gk.TURN_RECORD :]
        r, c, direction = rec[gk.PLAY_ROW], rec[gk.PLAY_COL], rec[gk.PLAY_DIR]
        dr, dc = (0, 1) if direction == 0 else (1, 0)
        blank_mask, placed_mask = rec[gk.PLAY_BLANKS], rec[gk.PLAY_PLACED]
        out, inside, n_placed = [], False, 0
        for k in range(rec[gk.PLAY_LEN]):
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
                letter = LETTERS[rec[gk.PLAY_LETTERS + k]]
                is_blank = bool(blank_mask >> k & 1)
                tiles[rr, cc], blanks[rr, cc] = rec[gk.PLAY_LETTERS + k], is_blank
                out.append(letter.lower() if is_blank else letter)
        score = rec[gk.PLAY_SCORE]
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

"""The one game loop: a game between players who each move by their Strategy, played in the game kernel
(movegen/kernels/game.py) over the GADDAG, which stops only for the bag shuffles of exchanges (numpy's, so
that a game is the same for the same random stream as the reference games of tests/reference)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from pipeline.letters.alphabet import BLANK, LETTERS
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.tables import variant_tables
from pipeline.scrabble.play.strategy import GREEDY, Strategy
from pipeline.scrabble.rules.variant import MAX_SCORELESS, SIZE, Variant


@dataclass(frozen=True)
class GameLog:
    """A game as arrays: one row per turn (movegen/kernels/layout.py TURN_*: player, action, play record), the
    racks before each turn (27 counts, blanks last), final scores, who went out (-1: nobody), and the tiles
    each turn exchanged (27 counts a turn)."""

    variant: str
    turns: np.ndarray
    racks: np.ndarray
    scores: np.ndarray
    went_out: int
    exchanged: np.ndarray


class Players(NamedTuple):
    """The players' strategies as the game kernel reads them: each one's kind, and the leave keys and values
    of all of them end to end (player p's from starts[p] to starts[p + 1])."""

    kinds: np.ndarray  # int64 (players,)
    keys: np.ndarray  # int64
    values: np.ndarray  # float64
    starts: np.ndarray  # int64 (players + 1,)


@lru_cache(maxsize=2)
def players_of(strategies: tuple[Strategy, ...]) -> Players:
    """The kernel's view of the players' strategies, made once for the games of the same players (an equity
    player's leave values are large: copying them took a fifth of an equity game's time)."""
    parts = [s.kernel() for s in strategies]
    sizes = [len(keys) for _, keys, _ in parts]
    return Players(
        np.array([kind for kind, _, _ in parts], dtype=np.int64),
        np.ascontiguousarray(np.concatenate([keys for _, keys, _ in parts]).astype(np.int64)),
        np.ascontiguousarray(np.concatenate([values for _, _, values in parts]).astype(np.float64)),
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
    )


def bag_counts(variant: Variant) -> np.ndarray:
    """The tile set's 27 counts (A-Z, then blanks)."""
    return np.array([variant.tile_set.counts.get(ch, 0) for ch in LETTERS + BLANK], dtype=np.int64)


def deal(variant: Variant, rng: np.random.Generator, players: int) -> tuple[np.ndarray, int, np.ndarray]:
    """A shuffled bag of the tile set's tiles (27 codes, blanks last), the tiles left in it, and each
    player's first rack as 27 counts, drawn in turn."""
    from pipeline.scrabble.movegen.kernels.game import draw

    bag = np.repeat(np.arange(27, dtype=np.int64), bag_counts(variant))
    rng.shuffle(bag)
    racks = np.zeros((players, 27), dtype=np.int64)
    bag_n = bag.shape[0]
    for p in range(players):
        bag_n = draw(racks[p], bag, bag_n, variant.rack_size)
    return bag, bag_n, racks


def endgame_move(variant: Variant, lexicon: Lexicon, pos, racks: np.ndarray, state, log, strategy) -> None:
    """The move of a player who solves its endgame (play.strategy.SolvesEndgame), the bag empty: the exact search's
    first move against the opponent's rack, within the strategy's budget of positions, written into the turn's
    log row for the game kernel to play (S_CHOSEN)."""
    from pipeline.scrabble.endgame import solve
    from pipeline.scrabble.movegen.kernels import layout as ly
    from pipeline.scrabble.rules.board import Board

    p = int(state[ly.S_PLAYER])
    if racks.shape[0] != 2:
        raise ValueError("an endgame is solved between two players")
    board = Board(np.ascontiguousarray(pos.tiles[0]), np.ascontiguousarray(pos.blanks[0]))
    mover, other = (rack_text(racks[q]) for q in (p, 1 - p))
    scoreless = int(state[ly.S_SCORELESS])
    best = solve(board, mover, other, variant, lexicon, scoreless=scoreless, positions=strategy.positions).best
    row = log[int(state[ly.S_TURNS])]
    row[ly.TURN_ACTION] = ly.PASS if best.record is None else ly.PLAY
    row[ly.TURN_RECORD :] = 0 if best.record is None else best.record
    state[ly.S_CHOSEN] = 1


def rack_text(counts: np.ndarray) -> str:
    """A rack's 27 counts as its sorted text (blanks first, as sorted() puts ? before A)."""
    return BLANK * int(counts[26]) + "".join(ch * int(n) for ch, n in zip(LETTERS, counts[:26]))


def log_rows(variant: Variant, max_scoreless: int = MAX_SCORELESS) -> int:
    """The most turns a game can take: each play places a tile, at most max_scoreless - 1 turns between plays."""
    return max_scoreless * (variant.tile_set.size + 2)


def play_game(
    variant: Variant,
    lexicon: Lexicon,
    rng: np.random.Generator,
    strategies: Sequence[Strategy] = (GREEDY, GREEDY),
    max_scoreless: int = MAX_SCORELESS,
    found=None,
) -> GameLog:
    """A game between players who each move by their strategy (see movegen/kernels/game.py: choose_move). It
    ends when a player goes out with the bag empty (they gain the others' rack values, which the others lose)
    or after `max_scoreless` scoreless turns in a row (each player loses their rack value). With `found` (a
    kernels.layout.Found of found_rows rows), equity players' turns are measured into it as they are played."""
    from pipeline.scrabble.movegen.kernels import game as gm
    from pipeline.scrabble.movegen.kernels import layout as ly
    from pipeline.scrabble.movegen.kernels.position import position_tables

    tab = variant_tables(lexicon, variant)
    bag, bag_n, racks = deal(variant, rng, len(strategies))
    pos = position_tables(tab, np.full((SIZE, SIZE), -1, dtype=np.int8), np.zeros((SIZE, SIZE), dtype=np.bool_))
    state = np.zeros(ly.STATE, dtype=np.int64)
    state[ly.S_BAG] = bag_n
    scores = np.zeros(len(strategies), dtype=np.int64)
    rows = log_rows(variant, max_scoreless)
    log = np.zeros((rows, ly.TURN), dtype=np.int32)
    rack_log = np.zeros((rows, 27), dtype=np.int64)
    swapped = np.zeros((rows, 27), dtype=np.int64)
    players = players_of(tuple(strategies))
    if max_scoreless != MAX_SCORELESS and (players.kinds & ly.SOLVES_ENDGAME).any():
        raise ValueError(f"the endgame search ends a game after {MAX_SCORELESS} scoreless turns, not {max_scoreless}")
    if found is None:
        found = ly.Found(np.zeros(0, np.int64), np.zeros((0, ly.N), np.int8), np.zeros(0), np.zeros(1, np.int64))
    while True:
        status = gm.game_turns(
            tab, pos, players, max_scoreless, racks, bag, scores, state, log, rack_log, swapped, found
        )
        if status == ly.SHUFFLE:
            rng.shuffle(bag[: state[ly.S_BAG]])
        elif status == ly.ENDGAME:
            endgame_move(variant, lexicon, pos, racks, state, log, strategies[int(state[ly.S_PLAYER])])
        if state[ly.S_OVER]:
            break
    n = int(state[ly.S_TURNS])
    return GameLog(variant.name, log[:n], rack_log[:n], scores, int(state[ly.S_WENT_OUT]), swapped[:n])

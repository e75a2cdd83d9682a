"""Equity: a move's score plus the value of the tiles it keeps; plays and exchanges ranked by it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.equity.strategy import uses_leaves
from pipeline.scrabble.equity.values import TILES, LeaveValues, leave_key, rack_leaves
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import generate, record_tiles
from pipeline.scrabble.rules.board import Board
from pipeline.scrabble.rules.scoring import Play, evaluate
from pipeline.scrabble.rules.variant import Variant


@dataclass(frozen=True)
class Move:
    """A ranked move: a play, or an exchange (`play` None, `exchange` the tiles returned to the bag)."""

    play: Play | None
    exchange: str
    score: int
    leave: str
    leave_value: float

    @property
    def equity(self) -> float:
        """Score plus leave value."""
        return self.score + self.leave_value

    @property
    def notation(self) -> str:
        """The move as GCG writes it: "8H WORD", or "-TILES" for an exchange."""
        return str(self.play) if self.play is not None else f"-{self.exchange}"


def record_leaves(records: np.ndarray, rack: str) -> list[str]:
    """The leave of each play record (the rack minus the tiles it places)."""
    from pipeline.scrabble.engine import kernels

    k = kernels()
    n = records.shape[0]
    if n == 0:
        return []
    width = records.shape[1] - k.PLAY_LETTERS
    bits = 1 << np.arange(width)
    placed = (records[:, k.PLAY_PLACED, None] & bits) != 0
    blank = (records[:, k.PLAY_BLANKS, None] & bits) != 0
    codes = np.where(blank, 26, np.maximum(records[:, k.PLAY_LETTERS :], 0))
    used = np.zeros((n, 27), dtype=np.int64)
    rows = np.repeat(np.arange(n), width).reshape(n, width)
    np.add.at(used, (rows[placed], codes[placed]), 1)
    left = rack_counts(rack).astype(np.int64)[None, :] - used
    unique, inverse = np.unique(left, axis=0, return_inverse=True)
    names = ["".join(TILES[i] * int(c) for i, c in enumerate(row)) for row in unique]
    return [names[i] for i in inverse.ravel()]


def unseen_bag(board: Board, rack: str, variant: Variant) -> int:
    """The tiles in the bag as a player sees it in a two-player game: the tile set less the board, the rack
    and a full opponent's rack."""
    on_board = int((board.tiles >= 0).sum())
    return max(variant.tile_set.size - on_board - len(rack) - variant.rack_size, 0)


def ranked_moves(
    board: Board,
    rack: str,
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveValues,
    top: int = 10,
    exchanges: bool = True,
    bag: int | None = None,
) -> list[Move]:
    """The `top` moves by equity (score + leave value), plays and (when `exchanges`) every exchange;
    ties keep the higher score, then the generator's order. With `bag` (tiles in the bag) short of a full
    rack, leave values are not counted and nothing is exchanged (equity.strategy.uses_leaves): score alone."""
    if bag is not None and not uses_leaves(bag, variant.rack_size):
        leaves, exchanges = LeaveValues.of({}), False
    records, kept, worth = ranked_records(board, rack, variant, lexicon, leaves, top, exchanges)
    moves = []
    for record, keep in zip(records, kept):
        tiles, direction = record_tiles(record)
        play = evaluate(board, tiles, variant, lexicon, direction)
        moves.append(Move(play, "", play.score, keep, worth[keep]))
    if exchanges:
        for keep in rack_leaves(rack):
            if len(keep) < len(rack):
                returned = leave_key(_minus(rack, keep))
                moves.append(Move(None, returned, 0, keep, worth[keep]))
    moves.sort(key=lambda m: (-m.equity, -m.score))
    return moves[:top]


def ranked_records(
    board: Board, rack: str, variant: Variant, lexicon: Lexicon, leaves: LeaveValues, top: int, exchanges: bool = False
) -> tuple[np.ndarray, list[str], dict[str, float]]:
    """The records of the `top` plays by equity (score + leave value; ties keep the higher score, then the
    generator's order), the leave of each, and the values of the leaves looked up (every exchange's too, when
    `exchanges`)."""
    from pipeline.scrabble.engine import kernels

    records, _ = generate(board, rack, variant, lexicon)
    kept = record_leaves(records, rack)
    worth = leaves.lookup(sorted(set(kept) | (set(rack_leaves(rack)) if exchanges else set())))
    scores = records[:, kernels().PLAY_SCORE].astype(np.float64) if len(records) else np.zeros(0)
    equity = scores + np.array([worth[k] for k in kept], dtype=np.float64)
    order = np.lexsort((-scores, -equity))[:top] if len(records) else np.zeros(0, dtype=np.int64)
    return records[order], [kept[i] for i in order], worth


def best_move(
    board: Board, rack: str, variant: Variant, lexicon: Lexicon, leaves: LeaveValues, exchanges: bool
) -> Move | None:
    """The move of highest equity, or None when there is neither a play nor an allowed exchange."""
    moves = ranked_moves(board, rack, variant, lexicon, leaves, 1, exchanges)
    return moves[0] if moves else None


def _minus(rack: str, keep: str) -> str:
    """The tiles of `rack` not in `keep`."""
    left = list(rack)
    for ch in keep:
        left.remove(ch)
    return "".join(left)

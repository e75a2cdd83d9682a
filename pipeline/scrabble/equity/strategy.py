"""The equity player (macondo's equity): the move of highest score plus leave value, exchanges considered, while
the bag holds a full rack; by score alone after that."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.scrabble.equity.values import LeaveValues


def uses_leaves(bag: int, rack_size: int) -> bool:
    """Whether an equity player counts leave values with `bag` tiles in the bag before its move: while the
    bag still holds a full rack. Closer to the end the tiles kept are soon the tiles stuck, and a player
    moves by score alone."""
    return bag >= rack_size


@dataclass(frozen=True)
class Equity:
    """A player by equity with these leave values (a Strategy: play.strategy). Its move is found best first, or
    with `every_play` from every play ranked (the same moves, slower: the reference for tests and benchmarks)."""

    leaves: LeaveValues
    name: str = "equity"
    every_play: bool = False

    def kernel(self) -> tuple[int, np.ndarray, np.ndarray]:
        """The equity kind, with the leave values as sorted keys and values."""
        from pipeline.scrabble.movegen.kernels.layout import EQUITY, EVERY_PLAY

        return (EVERY_PLAY if self.every_play else EQUITY, *self.leaves.arrays)

    def digest(self) -> str:
        """The digest of the leave values."""
        return self.leaves.digest()

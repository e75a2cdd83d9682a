"""How a player chooses its move: the seam every game goes through (pytudes' play_game(strategies=...), macondo's
equity calculators). The game kernel reads a strategy as a kind and the leave values it counts; Python-side
analysis ranks moves by the same rule (equity.moves)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


class Strategy(Protocol):
    """A player's way of choosing a move."""

    @property
    def name(self) -> str:
        """What it is called (the --first / --second choices: score, equity)."""
        ...

    def kernel(self) -> tuple[int, np.ndarray, np.ndarray]:
        """How the game kernel plays it: its kind (movegen/kernels/layout.py: GREEDY, EQUITY), and the sorted
        leave keys and values it counts (empty for a greedy player)."""
        ...

    def digest(self) -> str:
        """What tells it apart in a job's parameters ('' for a greedy player)."""
        ...


@dataclass(frozen=True)
class Greedy:
    """The highest-scoring play; with none, an exchange of the whole rack when the bag holds a full rack, else a
    pass."""

    name: str = "score"

    def kernel(self) -> tuple[int, np.ndarray, np.ndarray]:
        """The greedy kind, no leave values."""
        from pipeline.scrabble.movegen.kernels.layout import GREEDY

        return GREEDY, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)

    def digest(self) -> str:
        """Greedy players need no parameters."""
        return ""


GREEDY = Greedy()


@dataclass(frozen=True)
class SolvesEndgame:
    """A strategy that, once the bag is empty, plays the first move of the exact endgame search (scrabble/endgame.py)
    against the opponent's known rack, within `positions` positions a move; before that, the inner strategy."""

    inner: Strategy
    positions: int  # the search's budget a move (scrabble/requests.py SELFPLAY_ENDGAME_POSITIONS)

    @property
    def name(self) -> str:
        """The inner strategy's name, with the endgame."""
        return f"{self.inner.name}+endgame"

    def kernel(self) -> tuple[int, np.ndarray, np.ndarray]:
        """The inner strategy's kind with SOLVES_ENDGAME, and its leave values."""
        from pipeline.scrabble.movegen.kernels.layout import SOLVES_ENDGAME

        kind, keys, values = self.inner.kernel()
        return kind | SOLVES_ENDGAME, keys, values

    def digest(self) -> str:
        """The inner strategy's digest and the endgame's budget."""
        return f"{self.inner.digest()}+endgame{self.positions}"

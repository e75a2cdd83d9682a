"""Endgame positions for the tests: two greedy players (the best play by score, a pass when there is none) from
a seeded shuffle of the tile set, until the bag is empty."""

from __future__ import annotations

import random

from pipeline.scrabble.movegen.generate import best_plays
from pipeline.scrabble.rules.board import Board, leave


def endgame_position(seed: int, variant, lexicon) -> tuple[Board, str, str]:
    """The board and both racks (the player to move first) when a seeded greedy game empties the bag."""
    rng = random.Random(seed)
    bag = [tile for tile, n in sorted(variant.tile_set.counts.items()) for _ in range(n)]
    rng.shuffle(bag)
    board, racks, mover = Board(), ["", ""], 0
    for player in (0, 1):
        racks[player] = "".join(bag.pop() for _ in range(variant.rack_size))
    while True:
        plays = best_plays(board, racks[mover], variant, lexicon, 1)
        if plays:
            board.put(plays[0].tiles)
            racks[mover] = leave(racks[mover], plays[0].tiles)
        racks[mover] += "".join(bag.pop() for _ in range(min(variant.rack_size - len(racks[mover]), len(bag))))
        if not bag:
            return board, racks[mover ^ 1], racks[mover]  # the other player moves next
        mover ^= 1


def late_endgame(seed: int, variant, lexicon, tiles: int) -> tuple[Board, str, str]:
    """An endgame position played on greedily from `endgame_position` until the racks hold at most `tiles` tiles
    between them (each still holding one): the board and both racks, the player to move first."""
    board, mover, other = endgame_position(seed, variant, lexicon)
    passes = 0
    while len(mover) + len(other) > tiles and passes < 2:  # two passes in a row: neither can play
        plays = best_plays(board, mover, variant, lexicon, 1)
        left = leave(mover, plays[0].tiles) if plays else mover
        if not left:
            break
        if plays:
            board.put(plays[0].tiles)
        passes = 0 if plays else passes + 1
        mover, other = other, left
    return board, mover, other

"""The endgame by brute force: plain minimax over every legal play and the pass, to the end of the game on every
line (no pruning, no window, no move order, no depth limit; a position met again is looked up, not searched
again), each end settled as the rules say, for the tests to check the endgame search against. The plays and
their scores are the move generator's (checked play for play against the reference generator and the rules'
scorer elsewhere: tests/test_scrabble_gaddag.py)."""

from __future__ import annotations

from collections import Counter

from pipeline.scrabble.movegen.generate import generate, record_tiles
from pipeline.scrabble.rules.board import Board

SCORELESS_TURNS_END = 6  # the rules: six scoreless turns in a row end the game


def tiles_value(rack: str, variant) -> int:
    """What the tiles of a rack count at the end: their face values (blanks 0)."""
    return sum(0 if ch == "?" else variant.tile_set.values[ch] for ch in rack)


def rack_less(rack: str, tiles) -> str:
    """The rack after placing `tiles` (a lower-case letter is a blank from the rack)."""
    left = Counter(rack)
    left.subtract("?" if t.letter.islower() else t.letter for t in tiles)
    assert min(left.values(), default=0) >= 0
    return "".join(sorted(left.elements()))


def brute_endgame(board: Board, mover: str, other: str, variant, lexicon, scoreless: int = 0, seen=None) -> int:
    """The final spread the mover gains from here with best play by both: every line played to its end."""
    seen = {} if seen is None else seen
    key = (board.tiles.tobytes() + board.blanks.tobytes(), "".join(sorted(mover)), "".join(sorted(other)), scoreless)
    if key not in seen:
        seen[key] = _minimax(board, mover, other, variant, lexicon, scoreless, seen)
    return seen[key]


def _minimax(board: Board, mover: str, other: str, variant, lexicon, scoreless: int, seen: dict) -> int:
    """brute_endgame of one position, its moves each searched."""
    best = None
    from pipeline.scrabble.engine import kernels

    records, _ = generate(board, mover, variant, lexicon)
    for record in records:
        tiles, _ = record_tiles(record)
        score = int(record[kernels().PLAY_SCORE])
        left = rack_less(mover, tiles)
        if not left:  # out: the opponent's tiles count twice, to the one and against the other
            value = score + 2 * tiles_value(other, variant)
        elif score == 0 and scoreless + 1 == SCORELESS_TURNS_END:
            value = tiles_value(other, variant) - tiles_value(left, variant)
        else:
            after = board.copy()
            after.put(tiles)
            value = score - brute_endgame(after, other, left, variant, lexicon, 0 if score else scoreless + 1, seen)
        best = value if best is None else max(best, value)
    if scoreless + 1 == SCORELESS_TURNS_END:  # the pass ends the game: each loses their own tiles
        passed = tiles_value(other, variant) - tiles_value(mover, variant)
    else:
        passed = -brute_endgame(board, other, mover, variant, lexicon, scoreless + 1, seen)
    return passed if best is None else max(best, passed)

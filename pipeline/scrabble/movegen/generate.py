"""Move generation: every legal play of a rack on a board, and the best ones."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pipeline.letters.alphabet import LETTERS
from pipeline.letters.racks import rack_slots
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.rules.board import Board, Tile
from pipeline.scrabble.rules.notation import step
from pipeline.scrabble.rules.scoring import Play, evaluate
from pipeline.scrabble.rules.variant import ACROSS, KEEP_MAX, Variant

if TYPE_CHECKING:
    import numpy as np


def generate(
    board: Board, rack: str, variant: Variant, lexicon: Lexicon, keep: int = 0, word_maps: bool = True
) -> tuple[np.ndarray, int]:
    """Play records (see kernels.PLAY_*) of every legal play (keep = 0) or the `keep` best (highest score
    first, earlier generated first on ties), by the GADDAG generator: the same records in the same order as
    the reference generator (tests/reference). With them the number of legal plays (keep = 0), or of the plays
    scored before the search could stop (keep > 0: the strips of squares whose score bound cannot reach the best
    are skipped). Without `word_maps` the tables have no long words (movegen.tables): the same records."""
    from pipeline.scrabble.engine import kernels
    from pipeline.scrabble.movegen.tables import generation_order, variant_tables

    records, total = board_plays(kernels(), variant_tables(lexicon, variant, word_maps), board, rack, keep)
    if keep == 0:
        records = records[generation_order(records)]
    return records, total


def board_plays(k, tab, board: Board, rack: str, keep: int) -> tuple[np.ndarray, int]:
    """The play records of `k.board_plays` (k: the engine's kernels, or a namespace of the numba kernels under
    the same names) for a position, in the kernel's order, and the count that goes with them (see generate).
    Every argument is built here or by movegen.tables with the kernel's types, so `unchecked` is called."""
    import numpy as np

    from pipeline.letters.tiles import rack_counts

    tiles = np.ascontiguousarray(board.tiles, dtype=np.int8)
    blanks = np.ascontiguousarray(board.blanks, dtype=np.bool_)
    if tiles.shape != (k.N, k.N) or blanks.shape != (k.N, k.N):
        raise ValueError(f"a board is {k.N}x{k.N} squares, not {tiles.shape} and {blanks.shape}")
    out = np.zeros((keep if keep > 0 else 256, k.RECORD), dtype=np.int32)
    records, n_out, total = k.unchecked.board_plays(tab, tiles, blanks, rack_counts(rack), keep, out)
    return records[:n_out], int(total)


def record_tiles(record: np.ndarray | Sequence[int]) -> tuple[list[Tile], int]:
    """The tiles a play record places, and its direction."""
    from pipeline.scrabble.engine import kernels

    k = kernels()
    row, col, direction = int(record[k.PLAY_ROW]), int(record[k.PLAY_COL]), int(record[k.PLAY_DIR])
    blanks, placed = int(record[k.PLAY_BLANKS]), int(record[k.PLAY_PLACED])
    dr, dc = step(direction)
    tiles = []
    for i in range(int(record[k.PLAY_LEN])):
        if placed >> i & 1:
            letter = LETTERS[record[k.PLAY_LETTERS + i]]
            tiles.append(Tile(row + i * dr, col + i * dc, letter.lower() if blanks >> i & 1 else letter))
    return tiles, direction


def mirrored_opening(board: Board, variant: Variant) -> bool:
    """Whether every play on the board has a mirror image of the same score: an empty board whose layout is
    symmetric about its diagonal (each down play mirrors an across play)."""
    return board.is_empty and all(
        line[c] == variant.layout[c][r] for r, line in enumerate(variant.layout) for c in range(len(line))
    )


def best_plays(board: Board, rack: str, variant: Variant, lexicon: Lexicon, top: int = 10) -> list[Play]:
    """The `top` highest-scoring legal plays, best first (earlier in the reference generator's order on ties); an
    opening on a symmetric board is listed once (its down play mirrors an across play of the same score). One
    position: the compiled engine on plain buffers (movegen.tables.engine_tables), no word maps, no numpy."""
    from pipeline.scrabble.engine import kernels
    from pipeline.scrabble.movegen.tables import generation_key, variant_buffers

    k = kernels()
    mirrored = mirrored_opening(board, variant)
    keep = 0 if mirrored or top > KEEP_MAX else top  # else the generator would make room for `top` plays
    rows = play_rows(k, variant_buffers(lexicon, variant), board, rack, keep)
    if keep == 0:
        if mirrored:
            rows = [row for row in rows if row[k.PLAY_DIR] == ACROSS]
        rows = sorted(rows, key=lambda row: (-row[k.PLAY_SCORE], generation_key(row, k)))[:top]
    plays = []
    for row in rows:
        tiles, direction = record_tiles(row)
        plays.append(evaluate(board, tiles, variant, lexicon, direction))
    return plays


def play_rows(k, tab, board: Board, rack: str, keep: int) -> list[tuple[int, ...]]:
    """The play records of the compiled engine (k: its kernels; tab: engine_tables) for a position, in its order,
    as tuples of ints: every legal play (keep = 0) or the `keep` best."""
    tiles, blanks = board.views()
    out = memoryview(bytearray(4 * k.RECORD * (keep or 256))).cast("i", (keep or 256, k.RECORD))
    records, n, _ = k.board_rows(tab, tiles, blanks, array("q", rack_slots(rack)), keep, out)
    flat: Any = (records if isinstance(records, memoryview) else memoryview(records)).cast("B").cast("i")
    return [tuple(flat[i * k.RECORD : (i + 1) * k.RECORD]) for i in range(n)]

"""The GADDAG of a lexicon: built once from its words, stored as one column of packed arcs, walked by the
move generator in gaddag_kernels."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

import numpy as np

from pipeline.trie import encode

MAX_LETTERS = 15  # the longest playable word: the board's width


@dataclass(frozen=True)
class Gaddag:
    """Packed arcs (uint32, see gaddag_kernels) and the number of nodes."""

    arcs: np.ndarray
    n_nodes: int

    @cached_property
    def tilesets(self) -> np.ndarray:
        """int64 per arc index: the tiles of the node starting there as bits (see gaddag_kernels)."""
        from pipeline import gaddag_kernels as gk

        return gk.node_tilesets(self.arcs)

    @property
    def nbytes(self) -> int:
        """Size of the arcs in bytes."""
        return int(self.arcs.nbytes)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (upper case) is one of the words."""
        from pipeline import gaddag_kernels as gk

        codes = np.frombuffer(word.encode("ascii"), dtype=np.uint8).astype(np.int64) - 65
        return len(word) >= 1 and bool(gk.gaddag_contains(self.arcs, codes))


def build_gaddag(words: Iterable[str]) -> Gaddag:
    """The minimal GADDAG of the upper-case A-Z words of 2 to MAX_LETTERS letters among `words`."""
    from pipeline import gaddag_kernels as gk

    ordered = sorted({w for w in words if 2 <= len(w) <= MAX_LETTERS})
    bad = next((w for w in ordered if not (w.isascii() and w.isalpha() and w.isupper())), None)
    if bad is not None:
        raise ValueError(f"GADDAG words must be upper-case A-Z, got {bad!r}")
    codes, offsets = encode(ordered)
    strings, lengths = gk.gaddag_strings(codes, offsets)
    hi, lo = gk.sort_keys(strings, lengths)
    order = np.lexsort((lo, hi))
    arcs, n_nodes = gk.gaddag_build(strings, lengths, order)
    if len(arcs) == 0:
        raise ValueError(f"the GADDAG of {len(ordered):,} words has more arcs than fit in {gk.CHILD_BITS} bits")
    return Gaddag(arcs, int(n_nodes))


def generation_order(records: np.ndarray) -> np.ndarray:
    """The permutation that puts play records in the reference generator's order: across first, then by
    line, start square, and letter by letter (a letter before its blank, a word before its extensions)."""
    from pipeline import gaddag_kernels as gk

    n = gk.N
    direction = records[:, gk.PLAY_DIR]
    line = np.where(direction == 0, records[:, gk.PLAY_ROW], records[:, gk.PLAY_COL])
    start = np.where(direction == 0, records[:, gk.PLAY_COL], records[:, gk.PLAY_ROW])
    letters = records[:, gk.PLAY_LETTERS:gk.PLAY_LETTERS + n].astype(np.int64)
    blank_bits = (records[:, gk.PLAY_BLANKS, None] >> np.arange(n)) & 1
    codes = np.where(letters >= 0, 2 * letters + blank_bits, -1)
    keys = [codes[:, k] for k in range(n - 1, -1, -1)] + [start, line, direction]
    return np.lexsort(keys)


@dataclass(frozen=True)
class Tables:
    """A variant's squares in both orientations (as gaddag_kernels wants them), with the GADDAG."""

    gaddag: Gaddag
    values: np.ndarray  # int64 (26,)
    lmul: np.ndarray  # int64 (2, N, N)
    wmul: np.ndarray
    centre: tuple[int, int]
    bingo: int
    rack_size: int
    counts: np.ndarray  # int64 (27,): the bag, blanks last


def tables(gaddag: Gaddag, variant) -> Tables:
    """The move generator's view of a variant."""
    from pipeline import tiles as tl
    from pipeline.config import BLANK, LETTERS

    def both(grid: np.ndarray) -> np.ndarray:
        """A grid and its transpose, stacked."""
        return np.ascontiguousarray(np.stack([grid, grid.T]).astype(np.int64))

    counts = np.array([variant.tile_set.counts.get(ch, 0) for ch in LETTERS + BLANK], dtype=np.int64)
    return Tables(gaddag, tl.letter_values(variant.tile_set).astype(np.int64), both(variant.letter_mult),
                  both(variant.word_mult), variant.centre, variant.bingo_bonus, variant.rack_size, counts)


def generate(board, rack: str, tab: Tables, keep: int = 0) -> tuple[np.ndarray, int]:
    """Play records (gaddag_kernels.PLAY_*) of every legal play (keep = 0, in the reference generator's
    order) or the `keep` best (highest score first, then that order), and the number of legal plays."""
    from pipeline import gaddag_kernels as gk
    from pipeline import tiles as tl

    g = tab.gaddag
    tt, bb, masks, crossed, sums, anchors = gk.position_tables(g.arcs, board.tiles, board.blanks, tab.values,
                                                               tab.centre[0], tab.centre[1])
    out = np.zeros((keep if keep > 0 else 256, gk.RECORD), dtype=np.int32)
    records, n_out, total = gk.generate_plays(g.arcs, g.tilesets, tt, bb, masks, crossed, sums, anchors, tab.lmul,
                                              tab.wmul, tab.values, tl.rack_counts(rack).astype(np.int64),
                                              tab.bingo, tab.rack_size, keep, out)
    records = records[:n_out]
    if keep == 0:
        records = records[generation_order(records)]
    return records, int(total)


@dataclass(frozen=True)
class GameLog:
    """A greedy self-play game as arrays: one row per turn (gaddag_kernels.TURN_*), the racks before each
    turn (27 counts), final scores, and who went out (-1: nobody)."""

    turns: np.ndarray
    racks: np.ndarray
    scores: np.ndarray
    went_out: int


def self_play(tab: Tables, rng: np.random.Generator, players: int = 2, max_scoreless: int = 6) -> GameLog:
    """A game between greedy players, turn for turn the game of the reference engine for the same random
    stream: each plays its highest-scoring move (ties: the reference generator's first), else exchanges its
    whole rack (when the bag holds a full rack) or passes; it ends when a player goes out with the bag empty
    (they gain the others' rack values, which the others lose) or after `max_scoreless` scoreless turns in
    a row (each player loses their rack value)."""
    from pipeline import gaddag_kernels as gk

    g = tab.gaddag
    n_tiles = int(tab.counts.sum())
    bag = np.repeat(np.arange(27, dtype=np.int64), tab.counts)
    rng.shuffle(bag)
    racks = np.zeros((players, 27), dtype=np.int64)
    bag_n = n_tiles
    for p in range(players):
        bag_n = gk._draw(racks[p], bag, bag_n, tab.rack_size)
    empty = np.full((gk.N, gk.N), -1, dtype=np.int8)
    tt, bb, masks, crossed, sums, anchors = gk.position_tables(g.arcs, empty, np.zeros((gk.N, gk.N), np.bool_),
                                                               tab.values, tab.centre[0], tab.centre[1])
    state = np.zeros(gk.STATE, dtype=np.int64)
    state[gk.S_BAG] = bag_n
    scores = np.zeros(players, dtype=np.int64)
    rows = max_scoreless * (n_tiles + 2)
    log = np.zeros((rows, gk.TURN), dtype=np.int32)
    rack_log = np.zeros((rows, 27), dtype=np.int64)
    while True:
        status = gk.selfplay_turns(g.arcs, g.tilesets, tt, bb, masks, crossed, sums, anchors, tab.lmul, tab.wmul,
                                   tab.values, tab.bingo, tab.rack_size, max_scoreless, racks, bag, scores, state,
                                   log, rack_log)
        if status == gk.SHUFFLE:
            rng.shuffle(bag[:state[gk.S_BAG]])
        if state[gk.S_OVER]:
            break
    n = int(state[gk.S_TURNS])
    return GameLog(log[:n], rack_log[:n], scores, int(state[gk.S_WENT_OUT]))

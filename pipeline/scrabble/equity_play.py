"""Self-play by equity: each player moves by score plus leave value (exchanges considered), or by score
alone (greedy), on the GADDAG engine. Games are GameLogs, like greedy self-play's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.rules.variant import Variant
from pipeline.scrabble.selfplay import GameLog, deal, empty_position

MAX_LEAVE = 6  # leaves of more tiles are worth 0 (a leave of 7 is a pass)


@dataclass(frozen=True)
class LeaveTable:
    """Leave values as the kernels read them: sorted leave keys (leave_kernels.leave_key) and their values."""

    keys: np.ndarray  # int64, sorted
    values: np.ndarray  # float64

    def value(self, counts: np.ndarray) -> float:
        """The value of a leave given as 27 tile counts."""
        from pipeline.scrabble import leave_kernels as lk

        return float(lk.leave_value(self.keys, self.values, np.asarray(counts, dtype=np.int64), MAX_LEAVE))


def uses_leaves(bag: int, rack_size: int) -> bool:
    """Whether an equity player counts leave values with `bag` tiles in the bag before its move: while the
    bag still holds a full rack. Closer to the end the tiles kept are soon the tiles stuck, and a player
    moves by score alone."""
    return bag >= rack_size


def strategy_play_log(
    variant: Variant,
    lexicon: Lexicon,
    rng: np.random.Generator,
    leaves: Sequence[LeaveTable | None],
    max_scoreless: int = 6,
) -> GameLog:
    """A game between players who each move by equity with their LeaveTable (exchanging any tiles when the
    bag holds a full rack), or greedily (None: the highest-scoring play, else exchange the whole rack when
    the bag holds a full rack, else pass). The rules of greedy self-play; a player with leave values moves
    by score alone once the bag holds less than a full rack."""
    from pipeline.scrabble import gaddag_kernels as gk
    from pipeline.scrabble import leave_kernels as lk
    from pipeline.scrabble.gaddag import LETTER_HASH, variant_tables

    players = len(leaves)
    g = lexicon.gaddag
    tab = variant_tables(lexicon, variant)
    bag, bag_n, racks = deal(tab, rng, players)
    tt, bb, masks, crossed, sums, anchors = empty_position(g, tab)
    scores = np.zeros(players, dtype=np.int64)
    turns, rack_log, swapped = [], [], []
    one = np.zeros((1, gk.RECORD), dtype=np.int32)
    every = np.zeros((256, gk.RECORD), dtype=np.int32)
    kept = np.zeros(27, dtype=np.int64)
    scoreless, p, went_out = 0, 0, -1
    while True:
        rack = racks[p]
        row = np.zeros(gk.TURN, dtype=np.int32)
        row[gk.TURN_PLAYER] = p
        rack_log.append(rack.copy())
        table = leaves[p]
        record, exchange = None, None
        if table is not None and uses_leaves(bag_n, tab.rack_size):
            every, n, _ = gk.generate_plays(
                g.arcs, g.tilesets, tt, bb, masks, crossed, sums, anchors, tab.lmul, tab.wmul, tab.values,
                rack, tab.bingo, tab.rack_size, 0, every,
            )  # fmt: skip
            best, _ = lk.best_move(every, n, rack, table.keys, table.values, MAX_LEAVE, 1.0, True, kept)
            if best != lk.NO_PLAY:
                record = every[best].copy()
            else:
                exchange = rack - kept
        else:
            one, n, _ = gk.best_plays(
                g.arcs, g.tilesets, tt, bb, masks, crossed, sums, anchors, tab.lmul, tab.wmul, tab.values,
                rack, tab.bingo, tab.rack_size, 1, one, tab.bingos, LETTER_HASH, tab.bingo_words, tab.bingo_slots,
            )  # fmt: skip
            if n:
                record = one[0].copy()
            elif bag_n >= tab.rack_size:
                exchange = rack.copy()
        gone = np.zeros(27, dtype=np.int64)
        if record is not None:
            row[gk.TURN_ACTION] = gk.PLAY
            row[gk.TURN_RECORD :] = record
            gk._place(g.arcs, tt, bb, masks, crossed, sums, anchors, tab.values, record)
            left = np.zeros(27, dtype=np.int64)
            lk.play_leave(record, rack, left)
            rack[:] = left
            scores[p] += record[gk.PLAY_SCORE]
            bag_n = gk.draw(rack, bag, bag_n, tab.rack_size)
            scoreless = 0
        elif exchange is not None:
            row[gk.TURN_ACTION] = gk.EXCHANGE
            gone = exchange
            rack -= exchange
            bag_n = gk.draw(rack, bag, bag_n, tab.rack_size)
            order = np.roll(np.arange(27, dtype=np.int64), 1)  # returned in sorted order, blanks first
            returned = np.repeat(order, exchange[order])
            bag[bag_n : bag_n + len(returned)] = returned
            bag_n += len(returned)
            rng.shuffle(bag[:bag_n])
            scoreless += 1
        else:
            row[gk.TURN_ACTION] = gk.PASS
            scoreless += 1
        turns.append(row)
        swapped.append(gone)
        if rack.sum() == 0 and bag_n == 0:
            for q in range(players):
                if q != p:
                    value = int(racks[q, :26] @ tab.values)
                    scores[q] -= value
                    scores[p] += value
            went_out = p
            break
        if scoreless >= max_scoreless:
            for q in range(players):
                scores[q] -= int(racks[q, :26] @ tab.values)
            break
        p = (p + 1) % players
    return GameLog(
        variant.name,
        np.array(turns, dtype=np.int32).reshape(-1, gk.TURN),
        np.array(rack_log, dtype=np.int64).reshape(-1, 27),
        scores,
        went_out,
        np.array(swapped, dtype=np.int64).reshape(-1, 27),
    )

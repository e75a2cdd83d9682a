"""Two-ply Monte Carlo rollouts of candidate plays: for each draw of the unseen tiles, each candidate is played,
the opponent replies and we move again, each move chosen by the game's strategy (game.choose_move), so a rollout
plays exactly the moves a game between those players would."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.game import choose_move, draw, rack_value
from pipeline.scrabble.movegen.kernels.layout import (
    EXCHANGE,
    MAX_LEAVE,
    PLAY,
    PLAY_SCORE,
    RECORD,
    Position,
)
from pipeline.scrabble.movegen.kernels.leaves import leave_value, take_tiles
from pipeline.scrabble.movegen.kernels.position import place


@njit(cache=True)
def position_copy(pos):
    """A Position of the same shapes, to be overwritten (copy_into)."""
    return Position(
        pos.tiles.copy(), pos.blanks.copy(), pos.masks.copy(), pos.crossed.copy(), pos.sums.copy(), pos.anchors.copy()
    )


@njit(cache=True)
def copy_into(src, dst):
    """Overwrite the Position dst with src."""
    dst.tiles[:] = src.tiles
    dst.blanks[:] = src.blanks
    dst.masks[:] = src.masks
    dst.crossed[:] = src.crossed
    dst.sums[:] = src.sums
    dst.anchors[:] = src.anchors


@njit(cache=True)
def held(rack):
    """The number of tiles on a rack of 27 counts."""
    n = 0
    for k in range(27):
        n += rack[k]
    return n


@njit(cache=True)
def rollout(tab, work, players, candidate, rack, order, ours, theirs, one, every, kept, gone, out):
    """One rollout of a candidate play on `work` (the position before it, changed in place) for one draw `order`
    of the unseen tiles: the opponent's rack is its first rack_size tiles and the bag the rest (drawn from its
    end, as game.draw draws). We play the candidate and draw; the opponent moves (player 0's strategy of
    `players`), then we do. Writes into `out` the value (our points - theirs, going-out bonuses counted, + the
    value of the leave of our second move when the strategy counts leaves then), the reply's score and our
    second move's score; returns `every` (it may grow)."""
    size = tab.rack_size
    theirs[:] = 0
    n_opp = min(size, order.shape[0])
    for k in range(n_opp):
        theirs[order[k]] += 1
    bag = order[n_opp:]
    ours[:] = rack
    place(tab, work, candidate)
    take_tiles(candidate, ours)
    us, them = candidate[PLAY_SCORE], 0
    bag_n = draw(ours, bag, bag.shape[0], size)
    reply, second, worth = 0, 0, 0.0
    action, rec, every = choose_move(tab, work, players, np.int64(0), theirs, bag_n, one, every, kept, gone)
    if action == PLAY:
        reply = rec[PLAY_SCORE]
        them += reply
        place(tab, work, rec)
        take_tiles(rec, theirs)
        bag_n = draw(theirs, bag, bag_n, size)
        if held(theirs) == 0 and bag_n == 0:  # they went out: our tiles count for them and against us
            left = rack_value(ours, tab.values)
            out[0], out[1], out[2] = us - them - 2 * left, reply, 0
            return every
    elif action == EXCHANGE:
        theirs -= gone  # the tiles they draw do not change what we hold, nor how many are in the bag
    counted = bag_n >= size  # what the strategy counts on our second move: leave values while the bag holds a rack
    action, rec, every = choose_move(tab, work, players, np.int64(0), ours, bag_n, one, every, kept, gone)
    if action == PLAY:
        second = rec[PLAY_SCORE]
        us += second
        take_tiles(rec, ours)
        if held(ours) == 0 and bag_n == 0:  # we went out
            left = rack_value(theirs, tab.values)
            us += left
            them -= left
    elif action == EXCHANGE:
        ours -= gone
    if counted:
        worth = leave_value(players.keys, players.values, ours, np.int64(MAX_LEAVE))
    out[0], out[1], out[2] = us - them + worth, reply, second
    return every


@njit(cache=True)
def rollouts(tab, pos, players, candidates, rack, orders, values, replies, seconds):
    """Every candidate's rollout (rollout) for each draw of `orders` (one row per iteration: the unseen tiles in
    the order of that draw, the same draw for every candidate, so that their differences are not the draws'),
    into values, replies and seconds (iterations x candidates)."""
    work = position_copy(pos)
    one = np.zeros((1, RECORD), dtype=np.int32)
    every = np.zeros((256, RECORD), dtype=np.int32)
    kept = np.zeros(27, dtype=np.int64)
    gone = np.zeros(27, dtype=np.int64)
    ours = np.zeros(27, dtype=np.int64)
    theirs = np.zeros(27, dtype=np.int64)
    out = np.zeros(3, dtype=np.float64)
    for i in range(orders.shape[0]):
        for c in range(candidates.shape[0]):
            copy_into(pos, work)
            every = rollout(
                tab, work, players, candidates[c], rack, orders[i], ours, theirs, one, every, kept, gone, out
            )
            values[i, c], replies[i, c], seconds[i, c] = out[0], out[1], out[2]

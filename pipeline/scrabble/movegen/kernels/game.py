"""A whole game in one kernel: each player moves by its strategy (greedy or by equity), tiles are drawn from the
bag, and the kernel returns to its caller only to have the bag shuffled after an exchange (numpy's shuffle,
so that games follow the random stream of the references), to be given the move of a player who solves its
endgame (the bag empty: the exact search is the caller's), or at the end of the game."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.layout import (
    BLANK_SLOT,
    ENDGAME,
    EQUITY,
    EVERY_PLAY,
    EXCHANGE,
    GAME_OVER,
    KIND,
    LOSS_TOP,
    MAX_LEAVE,
    NO_PLAY,
    PASS,
    PLAY,
    PLAY_SCORE,
    RECORD,
    S_BAG,
    S_CHOSEN,
    S_OVER,
    S_PLAYER,
    S_SCORELESS,
    S_TURNS,
    S_WENT_OUT,
    SHUFFLE,
    SOLVES_ENDGAME,
    TURN_ACTION,
    TURN_PLAYER,
    TURN_RECORD,
)
from pipeline.scrabble.movegen.kernels.leaves import best_move, rack_keeping, take_tiles
from pipeline.scrabble.movegen.kernels.losses import measured_move
from pipeline.scrabble.movegen.kernels.position import place
from pipeline.scrabble.movegen.kernels.search import best_plays, search
from pipeline.scrabble.movegen.kernels.walk import generate_plays


@njit(cache=True)
def draw(rack, bag, bag_n, rack_size):
    """Refill a rack from the end of the bag; returns the bag's new length."""
    held = 0
    for k in range(27):
        held += rack[k]
    while held < rack_size and bag_n > 0:
        bag_n -= 1
        rack[bag[bag_n]] += 1
        held += 1
    return bag_n


@njit(cache=True)
def rack_value(rack, values):
    """The face value of the tiles on a rack (blanks 0)."""
    total = 0
    for k in range(26):
        total += rack[k] * values[k]
    return total


@njit(cache=True)
def choose_move(tab, pos, players, p, rack, bag_n, one, every, kept, gone):
    """Player p's move by its strategy: PLAY with the play's record, or EXCHANGE with the tiles returned in
    `gone`, or PASS. Greedy: the highest-scoring play, else the whole rack when the bag holds a full rack.
    By equity, while the bag holds a full rack: the play or exchange of highest score + leave value (the
    player's leave values), best first (search), or from every play (EVERY_PLAY: best_move); with fewer tiles in
    the bag, as greedy. `one` and `every` hold the plays (`every` may grow)."""
    gone[:] = 0
    # Counts are passed as np.int64(n), not as literals: numba compiles a callee once more for each literal argument.
    kind = players.kinds[p] & KIND
    if kind == EQUITY and bag_n >= tab.rack_size:
        first, stop = players.starts[p], players.starts[p + 1]
        keeping = rack_keeping(
            rack, players.keys[first:stop], players.values[first:stop], tab.values, np.int64(1), kept
        )
        one, n, _ = search(tab, pos, rack, np.int64(1), one, keeping)
        if n > 0:
            return PLAY, one[0].copy(), every
        gone[:] = rack - kept
        return EXCHANGE, one[0].copy(), every
    if kind == EVERY_PLAY and bag_n >= tab.rack_size:
        first, stop = players.starts[p], players.starts[p + 1]
        every, n, _ = generate_plays(tab, pos, rack, np.int64(0), every)
        keys, values = players.keys[first:stop], players.values[first:stop]
        best, _ = best_move(every, n, rack, keys, values, MAX_LEAVE, 1.0, True, kept)
        if best != NO_PLAY:
            return PLAY, every[best].copy(), every
        gone[:] = rack - kept
        return EXCHANGE, every[0].copy(), every
    one, n, _ = best_plays(tab, pos, rack, np.int64(1), one)
    if n > 0:
        return PLAY, one[0].copy(), every
    if bag_n >= tab.rack_size:
        gone[:] = rack
        return EXCHANGE, one[0].copy(), every
    return PASS, one[0].copy(), every


@njit(cache=True)
def game_turns(tab, pos, players, max_scoreless, racks, bag, scores, state, log, rack_log, swapped, found):
    """Play turns, each player by its strategy (choose_move; in a measured game, with rows in `found`, equity
    players by measured_move, which writes each play's words' losses there), until the game ends (GAME_OVER) or
    an exchange needs the bag shuffled (SHUFFLE). A game ends when a player uses their last tile with the bag
    empty (they gain the others' rack values, which the others lose) or after max_scoreless scoreless turns in a
    row (each loses their rack value). Each turn appends a row to `log` (TURN_*), the rack before it to
    `rack_log` and the tiles it exchanged to `swapped`. With the bag empty, a player whose kind has SOLVES_ENDGAME
    moves as its caller says: the kernel returns ENDGAME before the turn, and plays the turn's log row when called
    again with S_CHOSEN set."""
    n_players = racks.shape[0]
    one = np.zeros((1, RECORD), dtype=np.int32)
    every = np.zeros((256, RECORD), dtype=np.int32)
    kept = np.zeros(27, dtype=np.int64)
    top = np.zeros((LOSS_TOP, RECORD), dtype=np.int32)
    measured = found.losses.shape[0] > 0
    while True:
        p = state[S_PLAYER]
        rack = racks[p]
        turn = state[S_TURNS]
        row = log[turn]
        rack_log[turn, :] = rack
        row[TURN_PLAYER] = p
        if state[S_CHOSEN]:  # the caller's move (ENDGAME), written into this turn's row
            state[S_CHOSEN] = 0
            action, rec = row[TURN_ACTION], row[TURN_RECORD:].copy()
        elif state[S_BAG] == 0 and players.kinds[p] & SOLVES_ENDGAME and not measured:
            return ENDGAME
        elif measured:
            first, stop = players.starts[p], players.starts[p + 1]
            keys, values = players.keys[first:stop], players.values[first:stop]
            action, rec = measured_move(
                tab, pos, keys, values, rack, state[S_BAG], top, kept, swapped[turn], found, turn
            )
        else:
            action, rec, every = choose_move(tab, pos, players, p, rack, state[S_BAG], one, every, kept, swapped[turn])
        row[TURN_ACTION] = action
        shuffle = False
        if action == PLAY:
            row[TURN_RECORD:] = rec
            place(tab, pos, rec)
            take_tiles(rec, rack)
            scores[p] += rec[PLAY_SCORE]
            state[S_BAG] = draw(rack, bag, state[S_BAG], tab.rack_size)
            state[S_SCORELESS] = 0
        else:
            row[TURN_RECORD:] = 0
            if action == EXCHANGE:
                gone = swapped[turn]
                rack -= gone
                bag_n = draw(rack, bag, state[S_BAG], tab.rack_size)
                for _ in range(gone[BLANK_SLOT]):  # the tiles go back in their sorted order (? before A)
                    bag[bag_n] = BLANK_SLOT
                    bag_n += 1
                for k in range(26):
                    for _ in range(gone[k]):
                        bag[bag_n] = k
                        bag_n += 1
                state[S_BAG] = bag_n
                shuffle = True
            state[S_SCORELESS] += 1
        state[S_TURNS] = turn + 1
        held = 0
        for k in range(27):
            held += rack[k]
        if held == 0 and state[S_BAG] == 0:
            for q in range(n_players):
                if q != p:
                    value = rack_value(racks[q], tab.values)
                    scores[q] -= value
                    scores[p] += value
            state[S_OVER] = 1
            state[S_WENT_OUT] = p
            return SHUFFLE if shuffle else GAME_OVER
        if state[S_SCORELESS] >= max_scoreless:
            for q in range(n_players):
                scores[q] -= rack_value(racks[q], tab.values)
            state[S_OVER] = 1
            state[S_WENT_OUT] = -1
            return SHUFFLE if shuffle else GAME_OVER
        state[S_PLAYER] = (p + 1) % n_players
        if shuffle:
            return SHUFFLE

"""Monte Carlo simulation of a position (`scrabble best --sim N`): the candidates of highest static equity, each
played out two plies deep over N seeded draws of the unseen tiles (the opponent's rack and the bag), the same
draws for every candidate. In each rollout the opponent replies and we move again by the equity player's
strategy (movegen/kernels/rollout.py); a candidate's value is its score - the reply's + our next score + the
value of the leave we then keep."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from pipeline.core.errors import FieldError, NotFound, WordstatsError
from pipeline.core.results import Provenance, provenance
from pipeline.core.session import Session
from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.requests import SIM_CANDIDATES as DEFAULT_CANDIDATES
from pipeline.scrabble.requests import SIM_SEED as DEFAULT_SEED
from pipeline.scrabble.requests import BestRequest, board_of, rack_of, variant_of
from pipeline.scrabble.rules.board import Board
from pipeline.scrabble.rules.scoring import Play
from pipeline.scrabble.rules.variant import Variant

CHUNK = 1024  # iterations drawn at a time
ROLLOUTS_PER_CALL = 256  # rollouts (iterations x candidates) per kernel call: a fraction of a second, so Ctrl-C is
# answered at once (Python takes a signal only between calls)


class Candidate(NamedTuple):
    """A candidate play and what its rollouts found: the means over the iterations of its value, of the
    opponent's reply score and of our next score, and the standard error of the mean value."""

    play: Play
    rank: int  # by static equity (0 = the highest): its column of Simulation.values
    leave: str
    equity: float  # static: score + leave value
    value: float
    stderr: float
    reply: float
    next: float


class Simulation(NamedTuple):
    """A simulated position: the candidates by mean value (best first), the per-iteration values (iterations x
    candidates, the candidates in static order), the draws' seed, and the time the rollouts took."""

    variant: Variant
    board: Board
    rack: str
    candidates: tuple[Candidate, ...]
    values: np.ndarray
    iterations: int
    seed: int
    seconds: float
    cpu_seconds: float
    provenance: Provenance | None = None


def unseen_counts(board: Board, rack: str, variant: Variant) -> np.ndarray:
    """The 27 counts (A-Z, then blanks) of the tiles we cannot see: the tile set less the board and our rack."""
    from pipeline.scrabble.play.game import bag_counts

    counts = bag_counts(variant) - rack_counts(rack)
    tiles = board.tiles[board.tiles >= 0]
    blanks = board.blanks[board.tiles >= 0]
    np.add.at(counts, tiles[~blanks].astype(np.int64), -1)
    counts[26] -= int(blanks.sum())
    return counts


def draw_orders(unseen: np.ndarray, seed: int, iterations: int, chunk: int = CHUNK) -> Iterator[np.ndarray]:
    """The draws of the unseen tiles, `chunk` iterations at a time: each row the tiles (codes, blanks 26) in a
    random order, the opponent's rack first. Iteration i's draw depends on the seed and i alone (each row is the
    argsort of its own uniform keys, taken from the stream in order), so a longer run begins with a shorter one."""
    tiles = np.repeat(np.arange(27, dtype=np.int64), unseen)
    rng = np.random.default_rng(seed)
    for start in range(0, iterations, chunk):
        keys = rng.random((min(chunk, iterations - start), tiles.shape[0]))
        yield np.ascontiguousarray(tiles[np.argsort(keys, axis=1, kind="stable")])


def rollout_values(
    tab, pos, players, records: np.ndarray, rack: str, orders: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each candidate's rollout value, reply score and next score for each draw (iterations x candidates)."""
    from pipeline.scrabble.movegen.kernels.rollout import rollouts

    shape = (orders.shape[0], records.shape[0])
    values, replies, seconds = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    rollouts(tab, pos, players, records, rack_counts(rack), orders, values, replies, seconds)
    return values, replies, seconds


def simulate_position(
    board: Board,
    rack: str,
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveValues,
    iterations: int,
    candidates: int = DEFAULT_CANDIDATES,
    seed: int = DEFAULT_SEED,
) -> Simulation:
    """The `candidates` plays of highest static equity simulated over `iterations` draws (see the module)."""
    from pipeline.scrabble.engine import kernels
    from pipeline.scrabble.equity.moves import ranked_records, unseen_bag
    from pipeline.scrabble.equity.strategy import Equity, uses_leaves
    from pipeline.scrabble.movegen.generate import mirrored_opening, record_tiles
    from pipeline.scrabble.movegen.kernels.position import position_tables
    from pipeline.scrabble.movegen.tables import variant_tables
    from pipeline.scrabble.play.game import players_of
    from pipeline.scrabble.rules.scoring import evaluate
    from pipeline.scrabble.rules.variant import ACROSS

    unseen = unseen_counts(board, rack, variant)
    if unseen_bag(board, rack, variant) == 0:
        raise WordstatsError(
            f"--sim: the bag is empty ({int(unseen.sum())} unseen tiles, no more than the opponent's rack): an "
            "endgame, which has no draws to simulate: solve it with `wordstats scrabble endgame`"
        )
    static = leaves if uses_leaves(unseen_bag(board, rack, variant), variant.rack_size) else LeaveValues.of({})
    records, kept, worth = ranked_records(board, rack, variant, lexicon, static, 2 * candidates)
    if mirrored_opening(board, variant):  # each down play mirrors an across play: simulated once
        across = [i for i, r in enumerate(records) if r[kernels().PLAY_DIR] == ACROSS]
        records, kept = records[across], [kept[i] for i in across]
    records, kept = records[:candidates], kept[:candidates]
    if not len(records):
        raise NotFound(f"no legal play for rack {rack} on this board")
    tab = variant_tables(lexicon, variant)
    pos = position_tables(
        tab, np.ascontiguousarray(board.tiles, dtype=np.int8), np.ascontiguousarray(board.blanks, dtype=np.bool_)
    )
    players = players_of((Equity(leaves),))
    rollout_values(tab, pos, players, records, rack, np.zeros((0, int(unseen.sum())), dtype=np.int64))  # compiled
    start, cpu = time.perf_counter(), time.process_time()
    chunk = max(1, ROLLOUTS_PER_CALL // len(records))
    parts = [rollout_values(tab, pos, players, records, rack, o) for o in draw_orders(unseen, seed, iterations, chunk)]
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    values, replies, nexts = (np.concatenate([p[k] for p in parts]) for k in range(3))
    plays = [evaluate(board, tiles, variant, lexicon, direction) for tiles, direction in map(record_tiles, records)]
    found = [
        Candidate(
            play,
            c,
            leave,
            play.score + worth[leave],
            float(values[:, c].mean()),
            float(values[:, c].std(ddof=1) / np.sqrt(iterations)),
            float(replies[:, c].mean()),
            float(nexts[:, c].mean()),
        )
        for c, (play, leave) in enumerate(zip(plays, kept))
    ]
    ranked = sorted(found, key=lambda x: -x.value)  # stable: equal values keep the static order
    return Simulation(variant, board, rack, tuple(ranked), values, iterations, seed, seconds, cpu_seconds)


def simulate(s: Session, request: BestRequest) -> Simulation:
    """The use case of `scrabble best --sim N`: the request's position simulated with the lexicon's leave
    values (leaves.parquet)."""
    from pipeline.scrabble.equity.values import load_leaves
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.rules.scoring import check_bag

    if request.sim is None:
        raise FieldError("{sim} N: give the number of iterations")
    variant = variant_of(s.config, request.where.variant)
    rack = rack_of(request.rack, variant)
    board = board_of(request.where)
    check_bag(board, rack, (), variant)
    candidates = DEFAULT_CANDIDATES if request.candidates is None else request.candidates
    seed = DEFAULT_SEED if request.seed is None else request.seed
    found = simulate_position(
        board, rack, variant, load_lexicon(s.store), load_leaves(s.store, variant), request.sim, candidates, seed
    )
    params = {"rack": rack, "variant": variant.name, "sim": request.sim, "candidates": candidates, "seed": seed}
    return found._replace(provenance=provenance(s, "best", params, ("gaddag", "leaves")))

"""Leave values: what keeping a set of tiles is worth, estimated from greedy self-play games.

A leave is the tiles a player keeps after a play (before drawing), written with letters sorted and blanks
(?) last. Its observed value is the mean score of the player's next turn after keeping it, minus the mean
next-turn score over all leaves kept (so the average kept leave is worth 0). Rare leaves borrow from their
sub-leaves (backoff): the prior of a leave of n >= 2 tiles is the mean, over its distinct tiles t, of
value(leave - t) + value(t); its value is (count * observed + K * prior) / (count + K), K the prior weight.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import polars as pl

from pipeline.core.config import BLANK, LETTERS
from pipeline.scrabble.board import leave as rack_leave
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.selfplay import Game, game_rng, self_play
from pipeline.scrabble.variant import Variant

TILES = LETTERS + BLANK  # leave order: letters, then blanks
MAX_LEAVE = 6
Z95 = 1.959963984540054

OBSERVATION_SCHEMA = {"leave": pl.String, "next_score": pl.Int32}
LEAVES_SCHEMA = {
    "leave": pl.String,
    "length": pl.UInt8,
    "value": pl.Float64,
    "count": pl.UInt32,
    "observed": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "prior": pl.Float64,
}


def leave_key(tiles: Iterable[str]) -> str:
    """A leave as stored: letters sorted, blanks last ('?' for a blank)."""
    return "".join(sorted(tiles, key=lambda ch: (ch == BLANK, ch)))


def every_leave(counts: dict[str, int], most: int = MAX_LEAVE) -> Iterator[str]:
    """Every leave of 1 to `most` tiles a bag with these tile counts can give, shortest first."""
    kinds = [(ch, counts.get(ch, 0)) for ch in TILES if counts.get(ch, 0) > 0]
    for size in range(1, most + 1):
        yield from _leaves_of(kinds, 0, size, "")


def _leaves_of(kinds: list[tuple[str, int]], start: int, size: int, prefix: str) -> Iterator[str]:
    """The leaves of exactly `size` more tiles from kinds[start:], after `prefix` (in leave order)."""
    if size == 0:
        yield prefix
        return
    for i in range(start, len(kinds)):
        ch, have = kinds[i]
        for n in range(min(have, size), 0, -1):
            yield from _leaves_of(kinds, i + 1, size - n, prefix + ch * n)


def game_observations(game: Game, variant: Variant) -> list[tuple[str, int]]:
    """(leave, next-turn score) for each play after which its player kept tiles, drew, and played again
    while the bag still held a full rack (leaves matter before the endgame)."""
    bag = variant.tile_set.size - variant.rack_size * len(game.scores)
    pending: dict[int, str] = {}
    out = []
    for turn in game.turns:
        if turn.player in pending:
            out.append((pending.pop(turn.player), turn.score))
        if turn.action == "play" and turn.play is not None:
            kept = rack_leave(turn.rack, turn.play.tiles)
            bag -= len(turn.play.tiles)
            if 0 < len(kept) <= MAX_LEAVE and bag >= variant.rack_size:
                pending[turn.player] = kept
    return out


def observe(variant: Variant, lexicon: Lexicon, seed: int, games: Iterable[int]) -> pl.DataFrame:
    """Leave observations of the seeded greedy games numbered `games` (one block of the leaves job: a pure
    function of its inputs; blocks merge in any order with merge_observations)."""
    rows: list[tuple[str, int]] = []
    for number in games:
        rows.extend(game_observations(self_play(variant, lexicon, game_rng(seed, variant.name, number)), variant))
    return pl.DataFrame(rows, schema=OBSERVATION_SCHEMA, orient="row")


def summarise(observations: pl.DataFrame) -> pl.DataFrame:
    """Per leave: count, sum and sum of squares of next-turn scores (sums merge in any order)."""
    score = pl.col("next_score").cast(pl.Float64)
    return observations.group_by("leave").agg(
        pl.len().cast(pl.UInt32).alias("count"), score.sum().alias("total"), (score * score).sum().alias("squares")
    )


def merge_summaries(parts: Iterable[pl.DataFrame]) -> pl.DataFrame:
    """Several blocks' summaries as one, the same whatever their order."""
    parts = list(parts)
    if not parts:
        return pl.DataFrame(schema={"leave": pl.String, "count": pl.UInt32, "total": pl.Float64, "squares": pl.Float64})
    both = pl.concat(parts)
    return (
        both.group_by("leave")
        .agg(pl.col("count").sum().cast(pl.UInt32), pl.col("total").sum(), pl.col("squares").sum())
        .sort("leave")
    )


def leave_values(summary: pl.DataFrame, counts: dict[str, int], prior_weight: float) -> pl.DataFrame:
    """The value of every leave of 1 to 6 tiles: observed mean next-turn score minus the overall mean, with a
    95% confidence interval, shrunk towards the backoff prior of its sub-leaves (see the module docstring)."""
    n_all = int(summary["count"].sum()) if summary.height else 0
    mean_all = float(summary["total"].sum()) / n_all if n_all else 0.0
    seen_keys = _keys_of(_codes(summary["leave"].to_list())) if summary.height else np.zeros(0, dtype=np.int64)
    order = np.argsort(seen_keys)
    seen_keys = seen_keys[order]
    seen_n = summary["count"].to_numpy().astype(np.float64)[order] if summary.height else np.zeros(0)
    seen_total = summary["total"].to_numpy().astype(np.float64)[order] if summary.height else np.zeros(0)
    seen_squares = summary["squares"].to_numpy().astype(np.float64)[order] if summary.height else np.zeros(0)
    limits = np.array([counts.get(ch, 0) for ch in TILES], dtype=np.int64)
    parts = []
    level_keys: list[np.ndarray] = []
    level_values: list[np.ndarray] = []
    for size in range(1, MAX_LEAVE + 1):
        codes = _multisets(size, limits)
        keys = _keys_of(codes)
        at = np.searchsorted(seen_keys, keys)
        hit = (
            (at < len(seen_keys)) & (seen_keys[np.minimum(at, len(seen_keys) - 1)] == keys) if len(seen_keys) else None
        )
        n = np.zeros(len(keys))
        total = np.zeros(len(keys))
        squares = np.zeros(len(keys))
        if hit is not None:
            n[hit], total[hit], squares[hit] = seen_n[at[hit]], seen_total[at[hit]], seen_squares[at[hit]]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / n
            observed = np.where(n > 0, mean - mean_all, np.nan)
            var = np.maximum(squares - n * mean * mean, 0.0) / (n - 1)
            half = np.where(n >= 2, Z95 * np.sqrt(var / n), np.nan)
        if size == 1:
            prior = np.zeros(len(keys))
        else:
            sums = np.zeros(len(keys))
            distinct = np.zeros(len(keys))
            for j in range(size):
                first = np.ones(len(keys), dtype=bool) if j == 0 else codes[:, j] != codes[:, j - 1]
                sub = np.delete(codes, j, axis=1)
                sub_value = level_values[size - 2][np.searchsorted(level_keys[size - 2], _keys_of(sub))]
                tile_value = level_values[0][np.searchsorted(level_keys[0], _keys_of(codes[:, j : j + 1]))]
                sums += np.where(first, sub_value + tile_value, 0.0)
                distinct += first
            prior = sums / distinct
        value = np.where(n > 0, (n * np.nan_to_num(observed) + prior_weight * prior) / (n + prior_weight), prior)
        level_keys.append(keys)
        level_values.append(value)
        parts.append(
            pl.DataFrame(
                {
                    "leave": _texts(codes),
                    "length": np.full(len(keys), size, dtype=np.uint8),
                    "value": value,
                    "count": n.astype(np.uint32),
                    "observed": observed,
                    "ci_low": observed - half,
                    "ci_high": observed + half,
                    "prior": prior,
                }
            ).with_columns(pl.col("observed", "ci_low", "ci_high").fill_nan(None))
        )
    return pl.concat(parts).cast(LEAVES_SCHEMA).sort("length", "leave")  # type: ignore[arg-type]


RADIX = len(TILES) + 1  # a leave's key: its tile codes + 1, sorted, as digits of a number in this base


def _codes(leaves: list[str]) -> np.ndarray:
    """Leaves as rows of sorted tile codes (A = 0, ? = 26), padded with -1 to MAX_LEAVE + 1 columns."""
    out = np.full((len(leaves), MAX_LEAVE + 1), -1, dtype=np.int64)
    for i, leave in enumerate(leaves):
        row = sorted(TILES.index(ch) for ch in leave[: MAX_LEAVE + 1])
        out[i, : len(row)] = row
    return out


def _keys_of(codes: np.ndarray) -> np.ndarray:
    """The key of each row of sorted codes: sum of (code + 1) * RADIX**position."""
    weights = RADIX ** np.arange(codes.shape[1], dtype=np.int64)
    return ((codes + 1) * weights[None, :]).sum(axis=1)


def _multisets(size: int, limits: np.ndarray) -> np.ndarray:
    """Every sorted row of `size` tile codes that the bag's counts allow."""
    from itertools import combinations_with_replacement

    rows = np.array(list(combinations_with_replacement(range(len(TILES)), size)), dtype=np.int64)
    used = np.zeros((len(rows), len(TILES)), dtype=np.int64)
    for j in range(size):
        np.add.at(used, (np.arange(len(rows)), rows[:, j]), 1)
    return rows[(used <= limits[None, :]).all(axis=1)]


def _texts(codes: np.ndarray) -> list[str]:
    """Rows of sorted tile codes as leave text (letters, then ? for blanks)."""
    letters = np.frombuffer(TILES.encode(), dtype=np.uint8)
    chars = letters[codes].astype(np.uint8)
    return [s.decode() for s in np.ascontiguousarray(chars).view(f"S{codes.shape[1]}").ravel()]


def leaves_for(table: pl.DataFrame) -> dict[str, float]:
    """A leaves table as {leave: value} (the empty leave is worth 0)."""
    out = dict(zip(table["leave"].to_list(), table["value"].to_list()))
    out[""] = 0.0
    return out


def rack_leaves(rack: str) -> list[str]:
    """Every leave a rack can keep (sub-multisets, the empty one and the whole rack included)."""
    kinds = [(ch, rack.count(ch)) for ch in dict.fromkeys(leave_key(rack))]
    out = [""]
    for ch, have in kinds:
        out = [k + ch * n for k in out for n in range(have + 1)]
    return sorted({leave_key(k) for k in out})


def bag_counts_array(variant: Variant) -> np.ndarray:
    """The tile set's 27 counts (A-Z, then blanks)."""
    return np.array([variant.tile_set.counts.get(ch, 0) for ch in TILES], dtype=np.int64)

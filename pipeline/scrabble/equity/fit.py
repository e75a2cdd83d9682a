"""Leave values learnt from seeded self-play in rounds: the observations of a game, and the values fitted to them.

A leave is the tiles a player keeps after a play or an exchange (before drawing), written with letters
sorted and blanks (?) last; its value is in points, relative to keeping nothing. Round 1 plays greedy games
(highest score); each later round plays equity games with the previous round's values (both players),
which keep and exchange the way the values say, so good leaves are seen often. In every round each leave
kept while the bag holds a full rack gives an observation whose target is the player's next move's score
plus the value (previous round's) of the leave that move keeps: a bootstrapped target, so that a leave's
worth over several turns, not one, accumulates over the rounds.

The values of a round: an additive model (an intercept, a value per tile, per extra copy of a tile and per
pair of distinct tiles) is fitted to the observations by ridge-penalised least squares. Keeping nothing is
worth what keeping as many tiles drawn at random is worth (the tiles kept and the tiles drawn then come from
the same bag), so for each leave length the empty leave's worth (its `baseline`) is the additive model's
expected target of a leave of that length drawn at random from the full bag: a random leave of any length is
worth 0 on average, and how many tiles a player keeps (which goes with the state of the board, open or
closed) does not by itself move the values. A leave's prior is the model's value less that baseline; its
observed value is its mean target less the baseline; its value is (count * observed + K * prior) / (count + K),
K the prior weight, so rare leaves take the model's value and often-seen ones their own mean. Its standard
error `se` weighs the same way the standard error of the observed mean (the leave's own spread, or the pooled
one for a single observation) and the prior's: the additive model's sampling error (from the covariance of its
coefficients, for the leave's features less the random leave's) and its misfit (the spread of observed minus
prior among leaves of the length seen twice or more, less what sampling explains). A leave never observed has
the prior's alone.
"""

from __future__ import annotations

import functools
import math
import zlib
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np
import polars as pl

from pipeline.core.blas import one_thread
from pipeline.core.settings import default_of
from pipeline.scrabble.equity.strategy import uses_leaves
from pipeline.scrabble.equity.values import MAX_LEAVE, RADIX, TILES, LeaveValues, keys_of, texts_of_codes
from pipeline.scrabble.manifest import SETTINGS
from pipeline.scrabble.play.game import GameLog
from pipeline.scrabble.rules.variant import Variant

Z95 = 1.959963984540054
SCALE = 256  # targets are summed as integers in 1/SCALE points: merged sums are exact in any order
RIDGE = 25.0  # the additive model's penalty: a coefficient is pulled to 0 like this many observations
PRIOR_WEIGHT = default_of(
    SETTINGS, "scrabble.leaves.prior_weight"
)  # observations before its own mean outweighs the model
FIT_CHUNK = 20_000  # leaves per block of the least-squares sums
VALUE_GRID = 1024  # published values are whole 1/1024 points: BLAS kernels differ by CPU in the last bits

SUMMARY_SCHEMA = {"key": pl.Int64, "count": pl.Int64, "total": pl.Int64, "squares": pl.Int64}
LEAVES_SCHEMA = {
    "leave": pl.String,
    "length": pl.Int32,
    "value": pl.Float64,
    "count": pl.Int32,
    "observed": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "prior": pl.Float64,
    "se": pl.Float64,
}


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


def rounds_rng(seed: int, variant: str, round_: int, game: int) -> np.random.Generator:
    """The random stream of one game of one round of the leaves job."""
    return np.random.default_rng([seed, zlib.crc32(variant.encode()), round_, game])


def log_observations(log: GameLog, variant: Variant, table: LeaveValues | None) -> tuple[list[int], list[int]]:
    """The (leave key, target in 1/SCALE points) pairs of a game: for each play or exchange made while its
    player counted leave values (equity.strategy.uses_leaves) and after which that player moved again, the
    leave kept and the target: the player's next move's score plus the value (by `table`, if any) of the
    leave that move kept, when it too was made while leave values counted."""
    from pipeline.scrabble.movegen.kernels import layout as gk
    from pipeline.scrabble.movegen.kernels import leaves as lk

    players = len(log.scores)
    bag = variant.tile_set.size - variant.rack_size * players
    kept: list[np.ndarray | None] = []
    scores: list[int] = []
    for k, row in enumerate(log.turns):
        action = row[gk.TURN_ACTION]
        counts: np.ndarray | None = None
        if action == gk.PLAY:
            counts = np.zeros(27, dtype=np.int64)
            lk.play_leave(row[gk.TURN_RECORD :], log.racks[k], counts)
        elif action == gk.EXCHANGE:
            counts = log.racks[k] - log.exchanged[k]
        if counts is not None and not (uses_leaves(bag, variant.rack_size) and counts.sum() <= MAX_LEAVE):
            counts = None
        kept.append(counts)
        scores.append(int(row[gk.TURN_RECORD + gk.PLAY_SCORE]) if action == gk.PLAY else 0)
        if action == gk.PLAY:
            bag -= min(bag, _placed(row))
    keys, targets = [], []
    for k, counts in enumerate(kept):
        if counts is None or k + players >= len(kept):
            continue
        after = kept[k + players]
        future = table.value(after) if table is not None and after is not None else 0.0
        keys.append(int(lk.leave_key(counts)))
        targets.append(int(round((scores[k + players] + future) * SCALE)))
    return keys, targets


def _placed(row: np.ndarray) -> int:
    """The number of tiles a log row's play placed."""
    from pipeline.scrabble.movegen.kernels import layout as gk

    return int(row[gk.TURN_RECORD + gk.PLAY_PLACED]).bit_count()


def summarise(keys: list[int], targets: list[int]) -> pl.DataFrame:
    """Per leave key: the number of observations and the sum and sum of squares of their targets (integers
    in 1/SCALE points, so that summaries merge exactly, in any order)."""
    obs = pl.DataFrame({"key": keys, "target": targets}, schema={"key": pl.Int64, "target": pl.Int64})
    return merge_summaries(
        [
            obs.group_by("key").agg(
                pl.len().cast(pl.Int64).alias("count"),
                pl.col("target").sum().alias("total"),
                (pl.col("target") * pl.col("target")).sum().alias("squares"),
            )
        ]
    )


def merge_summaries(parts: Iterable[pl.DataFrame]) -> pl.DataFrame:
    """Several blocks' summaries as one, the same whatever their order (sorted by key)."""
    parts = [p for p in parts if p.height]
    if not parts:
        return pl.DataFrame(schema=SUMMARY_SCHEMA)
    return (
        pl.concat(parts)
        .group_by("key")
        .agg(pl.col("count").sum(), pl.col("total").sum(), pl.col("squares").sum())
        .sort("key")
        .cast(SUMMARY_SCHEMA)  # type: ignore[arg-type]
    )


PAIRS = np.triu_indices(len(TILES), 1)  # the pairs of distinct tiles, for the synergy terms
N_FEATURES = 1 + 2 * len(TILES) + len(PAIRS[0])  # intercept, tiles, extra copies, pairs


def features(counts: np.ndarray) -> np.ndarray:
    """The additive model's features of leaves given as rows of 27 tile counts: 1 (the empty leave), the
    count of each tile, its copies beyond the first, and whether each pair of distinct tiles is kept."""
    present = counts > 0
    return np.hstack(
        [
            np.ones((len(counts), 1)),
            counts,
            np.maximum(counts - 1, 0),
            present[:, PAIRS[0]] & present[:, PAIRS[1]],
        ]
    ).astype(np.float64)


def fit_additive(summary: pl.DataFrame, ridge: float = RIDGE) -> np.ndarray:
    """The coefficients of the additive model (features) fitted to the observations by least squares,
    ridge-penalised (all but the intercept) so that tiles and pairs seldom seen stay near 0."""
    return _solve(*_normal_equations(summary, ridge))


def _solve(gram: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """The least-squares solution of the normal equations (unseen features, unpenalised: 0)."""
    return np.linalg.lstsq(gram, rhs, rcond=None)[0]


def _normal_equations(summary: pl.DataFrame, ridge: float) -> tuple[np.ndarray, np.ndarray]:
    """The ridge-penalised normal equations of the additive model: X'X + penalty and X'y."""
    gram = np.zeros((N_FEATURES, N_FEATURES))
    rhs = np.zeros(N_FEATURES)
    keys = summary["key"].to_numpy()
    n = summary["count"].to_numpy().astype(np.float64)
    total = summary["total"].to_numpy().astype(np.float64) / SCALE
    for first in range(0, len(keys), FIT_CHUNK):
        x = features(_counts_of_keys(keys[first : first + FIT_CHUNK]))
        gram += (x * n[first : first + FIT_CHUNK, None]).T @ x
        rhs += x.T @ total[first : first + FIT_CHUNK]
    penalty = np.full(N_FEATURES, ridge)
    penalty[0] = 0.0
    return gram + np.diag(penalty), rhs


def coefficient_covariance(gram: np.ndarray, noise: float) -> np.ndarray:
    """The covariance of the additive model's coefficients, (X'X + penalty)^-1 times the variance `noise` of
    one target, with a last row and column of zeros (the slot of no feature)."""
    out = np.zeros((N_FEATURES + 1, N_FEATURES + 1))
    out[:N_FEATURES, :N_FEATURES] = np.linalg.pinv(gram) * noise
    return out


def prior_variances(
    codes: np.ndarray, covariance: np.ndarray, draw: np.ndarray, where: np.ndarray | None = None
) -> np.ndarray:
    """The sampling variance of the additive model's value of each leave (rows of sorted tile codes, -1
    padding) less that of a leave of as many tiles drawn at random (`draw`: each row's probability):
    (x - m)' covariance (x - m), x the leave's features less the empty leave's and m their mean under `draw`
    (`where`: the rows' feature slots, when already made)."""
    from pipeline.scrabble.equity.kernels import slot_forms, slot_means

    where = _feature_slots(codes) if where is None else where
    mean = slot_means(where, np.ascontiguousarray(draw, dtype=np.float64), N_FEATURES + 1)
    mean[N_FEATURES] = 0.0  # the slot of no feature
    shared = covariance @ mean
    out = slot_forms(where, np.ascontiguousarray(covariance, dtype=np.float64), np.ascontiguousarray(shared))
    return np.maximum(out + mean @ shared, 0.0)


def draw_probabilities(codes: np.ndarray, limits: tuple[int, ...]) -> np.ndarray:
    """The probability of each leave (rows of sorted tile codes of one length, -1 padding) among the leaves of
    that length drawn at random from a full bag with these tile counts (hypergeometric: they sum to 1)."""
    counts = _counts_of_codes(codes)
    most = int(counts.max(initial=0))
    ways = np.array([[math.comb(n, c) for c in range(most + 1)] for n in limits], dtype=np.float64)
    size = int((codes[0] >= 0).sum()) if len(codes) else 0
    return ways[np.arange(len(limits))[None, :], counts].prod(axis=1) / math.comb(sum(limits), size)


def _feature_slots(codes: np.ndarray) -> np.ndarray:
    """For each row of sorted tile codes, the feature of each term of its features (a tile per tile, an extra
    copy per repeated tile, a pair per two distinct tiles), N_FEATURES where a slot holds nothing (int16)."""
    k, none, width = len(TILES), N_FEATURES, codes.shape[1]
    pair_of = np.full((k + 1, k + 1), none, dtype=np.int16)
    pair_of[PAIRS] = 1 + 2 * k + np.arange(len(PAIRS[0]))
    first = np.ones(codes.shape, dtype=bool)
    first[:, 1:] = codes[:, 1:] != codes[:, :-1]
    real = codes >= 0
    out = np.empty((len(codes), 2 * width + width * (width - 1) // 2), dtype=np.int16)
    out[:, :width] = np.where(real, 1 + codes, none)
    out[:, width : 2 * width] = np.where(real & ~first, 1 + k + codes, none)
    column = 2 * width
    for i in range(width):
        for j in range(i + 1, width):
            both = real[:, i] & real[:, j] & first[:, i] & first[:, j]
            out[:, column] = np.where(both, pair_of[codes[:, i], codes[:, j]], none)
            column += 1
    return out


def additive_values(codes: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """The additive model's value of leaves given as rows of sorted tile codes (-1 padding), relative to the
    empty leave."""
    k = len(TILES)
    tile, extra = np.append(beta[1 : 1 + k], 0.0), np.append(beta[1 + k : 1 + 2 * k], 0.0)  # code -1: nothing
    synergy = np.zeros((k + 1, k + 1))
    synergy[PAIRS] = beta[1 + 2 * k :]
    first = np.ones(codes.shape, dtype=bool)  # the first copy of its tile in the row
    first[:, 1:] = codes[:, 1:] != codes[:, :-1]
    out = np.zeros(len(codes))
    for i in range(codes.shape[1]):
        out += np.where(first[:, i], tile[codes[:, i]], tile[codes[:, i]] + extra[codes[:, i]])
        for j in range(i + 1, codes.shape[1]):
            out += np.where(first[:, i] & first[:, j], synergy[codes[:, i], codes[:, j]], 0.0)
    return out


def leave_values(
    summary: pl.DataFrame, counts: dict[str, int], prior_weight: float, longest: int = MAX_LEAVE
) -> pl.DataFrame:
    """The value of every leave of 1 to `longest` tiles (see the module docstring): its observed mean target
    minus the empty leave's worth (the additive model's for a random leave of its length), with a 95%
    confidence interval, shrunk towards the additive model's value (`prior`, less the same) with weight
    `prior_weight`; with the value's standard error. BLAS runs on one thread, so that one machine gives the same
    bits every time (other CPUs' kernels move them by about 1e-11: `published` rounds that away)."""
    with one_thread():
        return _leave_values(summary, counts, prior_weight, longest)


def published(values: pl.DataFrame) -> pl.DataFrame:
    """Leave values as the leaves stage publishes them: each value rounded to 1/VALUE_GRID of a point, so that
    the same observations give the same bits on any CPU (its BLAS kernels move them by about 1e-11)."""
    return values.with_columns((pl.col("value") * VALUE_GRID).round() / VALUE_GRID + 0.0)  # + 0.0: no -0.0


def _leave_values(summary: pl.DataFrame, counts: dict[str, int], prior_weight: float, longest: int) -> pl.DataFrame:
    """leave_values, on whatever BLAS threads there are."""
    gram, rhs = _normal_equations(summary, RIDGE)
    beta = _solve(gram, rhs)
    seen = _seen(summary)
    pooled = _pooled_variance(seen)
    covariance = coefficient_covariance(gram, pooled)
    limits = tuple(counts.get(ch, 0) for ch in TILES)
    parts, misfit = [], 0.0
    for size, (codes, keys, texts, draw, where) in enumerate(_all_leaves(limits, longest), start=1):
        n, total, squares = _lookup(seen, keys)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / n
            observed = np.where(n > 0, mean - beta[0], np.nan)
            var = np.maximum(squares - n * mean * mean, 0.0) / (n - 1)
            half = np.where(n >= 2, Z95 * np.sqrt(var / n), np.nan)
            se_observed = np.sqrt(np.where(n >= 2, var, pooled) / n)
        model = additive_values(codes, beta)
        baseline = float(draw @ model)  # a random leave of this length, less the intercept
        observed -= baseline
        prior = model - baseline
        sampled = prior_variances(codes, covariance, draw, where)
        misfit = _misfit(observed - prior, se_observed**2 + sampled, n, misfit)
        model = np.sqrt(sampled + misfit**2)
        weight = n / (n + prior_weight) if prior_weight else np.where(n > 0, 1.0, 0.0)
        value = np.where(n > 0, weight * np.nan_to_num(observed) + (1 - weight) * prior, prior)
        sampling = np.where(n > 0, weight * np.where(n > 0, se_observed, 0.0), 0.0)
        se = np.sqrt(sampling**2 + (1 - weight) ** 2 * model**2)
        parts.append(
            pl.DataFrame(
                {
                    "leave": texts,
                    "length": np.full(len(keys), size, dtype=np.int64),
                    "value": value,
                    "count": n.astype(np.int64),
                    "observed": observed,
                    "ci_low": observed - half,
                    "ci_high": observed + half,
                    "prior": prior,
                    "se": se,
                }
            ).with_columns(pl.col("observed", "ci_low", "ci_high").fill_nan(None))
        )
    return pl.concat(parts).cast(LEAVES_SCHEMA).sort("length", "leave")  # type: ignore[arg-type]


def _seen(summary: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A summary as arrays: sorted keys, counts, sums and sums of squares of the targets (in points)."""
    return (
        summary["key"].to_numpy(),
        summary["count"].to_numpy().astype(np.float64),
        summary["total"].to_numpy().astype(np.float64) / SCALE,
        summary["squares"].to_numpy().astype(np.float64) / SCALE**2,
    )


def _lookup(seen: tuple[np.ndarray, ...], keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The count, sum and sum of squares of the targets of each leave key (0 when never observed)."""
    seen_keys, *columns = seen
    if not len(seen_keys):
        return tuple(np.zeros(len(keys)) for _ in columns)  # type: ignore[return-value]
    at = np.minimum(np.searchsorted(seen_keys, keys), len(seen_keys) - 1)
    hit = seen_keys[at] == keys
    n, total, squares = (np.where(hit, c[at], 0.0) for c in columns)
    return n, total, squares


def _pooled_variance(seen: tuple[np.ndarray, ...]) -> float:
    """The variance of a target about its leave's mean, pooled over the leaves observed twice or more."""
    _, n, total, squares = seen
    many = n >= 2
    if not many.any():
        return 0.0
    within = squares[many] - total[many] ** 2 / n[many]
    return float(max(within.sum(), 0.0) / (n[many] - 1).sum())


def _misfit(gap: np.ndarray, sampling: np.ndarray, n: np.ndarray, shorter: float) -> float:
    """The additive model's error on leaves of one length beyond its sampling error: the root mean square of
    observed minus prior over the leaves seen twice or more, less the variance sampling explains (that of
    the observed mean and of the prior); that of the shorter leaves (`shorter`) when none of this length was."""
    many = n >= 2
    if not many.any():
        return shorter
    return float(np.sqrt(max(np.mean(gap[many] ** 2 - sampling[many]), 0.0)))


def _counts_of_codes(codes: np.ndarray) -> np.ndarray:
    """Rows of tile codes (-1 padding) as rows of 27 counts."""
    width = len(TILES) + 1  # the last column counts the padding
    cells = np.where(codes < 0, len(TILES), codes) + width * np.arange(len(codes))[:, None]
    counts = np.bincount(cells.ravel(), minlength=len(codes) * width).reshape(len(codes), width)
    return counts[:, : len(TILES)]


def _counts_of_keys(keys: np.ndarray) -> np.ndarray:
    """Leave keys as rows of 27 counts."""
    digits = (keys[:, None] // RADIX ** np.arange(MAX_LEAVE + 1, dtype=np.int64)[None, :]) % RADIX
    return _counts_of_codes(digits - 1)


@functools.lru_cache(maxsize=2)
def _all_leaves(limits: tuple[int, ...], longest: int) -> list[Leaves]:
    """For each leave length 1..longest, every leave a bag with these tile counts allows (made once for all
    rounds)."""
    out = []
    for codes in _multisets(longest, np.array(limits, dtype=np.int64)):
        draw = draw_probabilities(codes, limits)
        out.append(Leaves(codes, keys_of(codes), texts_of_codes(codes), draw, _feature_slots(codes)))
    return out


class Leaves(NamedTuple):
    """The leaves of one length: rows of sorted tile codes, their keys, texts, probabilities of being drawn at
    random from a full bag, and feature slots."""

    codes: np.ndarray
    keys: np.ndarray
    texts: list[str]
    draw: np.ndarray
    where: np.ndarray


def _multisets(longest: int, limits: np.ndarray) -> list[np.ndarray]:
    """For each size 1..longest, every sorted row of that many tile codes that the bag's counts allow, in
    lexicographic order: each size's rows are the last size's with one more code, no smaller than their last."""
    k = len(TILES)
    rows, counts, out = np.zeros((1, 0), dtype=np.int64), np.zeros((1, k), dtype=np.int16), []
    for _ in range(longest):
        last = rows[:, -1] if rows.shape[1] else np.zeros(1, dtype=np.int64)
        grow, code = np.nonzero((np.arange(k)[None, :] >= last[:, None]) & (counts < limits[None, :]))  # by row
        rows = np.hstack([rows[grow], code[:, None]])
        counts = counts[grow]
        counts[np.arange(len(grow)), code] += 1
        out.append(rows)
    return out

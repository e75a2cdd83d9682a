"""The leaves reference (data/raw/leaves-enable.parquet): its values rank as the published ones do, every leave of
one to three tiles has a standard error, and the command that makes it gives the same bytes again."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from pipeline.scrabble.equity.compare import comparison_summary, pair_of
from pipeline.scrabble.equity.fit import (
    N_FEATURES,
    PRIOR_WEIGHT,
    draw_probabilities,
    features,
    leave_values,
    prior_variances,
)
from pipeline.scrabble.equity.published import (
    SOURCES,
    common_leaves,
    published,
    sign_disagreements,
    single_tile_spearman,
)
from pipeline.scrabble.equity.reference import read_reference
from pipeline.scrabble.equity.values import TILES
from tests.conftest import ENABLE, ROOT, SMALL_CONFIG, build_lexicon, run_cli
from tests.support.leaves import COUNTS, REFERENCE

SPEARMAN_FLOOR = 0.9
# the common leaves whose sign is not Macondo's (docs/scrabble.md): within a point of 0 by ours, and 2 to 5 standard
# errors from Macondo's NWL23 values (ENABLE is not NWL23)
SIGN_GAPS = {"A", "T", "AE", "P", "AIT"}
NEAR_ZERO = 1.0


@pytest.fixture(scope="module")
def short_leaves():
    """The reference's values of the leaves of one to four tiles (the common ones among them), fitted as the
    leaves stage fits them."""
    return leave_values(read_reference(REFERENCE), COUNTS, PRIOR_WEIGHT, longest=4)


def test_reference_single_tiles_rank_as_published(short_leaves):
    rho = single_tile_spearman(short_leaves, published())
    assert set(rho) == set(SOURCES)
    assert all(r >= SPEARMAN_FLOOR for r in rho.values()), rho


def test_reference_common_leaves_mostly_have_the_published_signs(short_leaves):
    """Of the 100 leaves the reference saw most often (none longer than 4 tiles), all but five have Macondo's
    sign, and those five are worth less than a point either way by ours."""
    common = common_leaves(short_leaves)
    assert common.height == 100 and common["count"].min() > 0
    assert (
        common["leave"].to_list()
        == common_leaves(pl.read_parquet(REFERENCE).filter(pl.col("leave") != "").with_columns(value=0))[
            "leave"
        ].to_list()
    )
    gaps = sign_disagreements(short_leaves, published())
    assert gaps["macondo"].null_count() == 0  # every common leave is in the published table
    assert set(gaps["leave"]) == SIGN_GAPS and (gaps["value"].abs() < NEAR_ZERO).all(), gaps


def test_every_short_leave_has_a_standard_error(short_leaves):
    short = short_leaves.filter(pl.col("length") <= 3)
    assert short.height == 27 + 373 + 3509
    se = short["se"]
    assert se.null_count() == 0 and not se.is_nan().any() and se.min() > 0
    seen = short.filter(pl.col("count") >= 1000)
    assert seen.height and (seen["se"] < 1.5).all()  # often-seen leaves: well under a point and a half


def test_a_random_leave_of_any_length_is_worth_nothing(short_leaves):
    """The empty leave's worth is that of a leave of as many tiles drawn at random: for every length the values
    of the priors weighted by the leaves' draw probabilities (which sum to 1) average 0, as Macondo's do."""
    for size, part in short_leaves.group_by("length"):
        codes = _codes(part["leave"].to_list())
        draw = draw_probabilities(codes, tuple(COUNTS.get(ch, 0) for ch in TILES))
        assert draw.sum() == pytest.approx(1.0, abs=1e-12), size
        assert float(draw @ part["prior"].to_numpy()) == pytest.approx(0.0, abs=1e-9), size


def test_draw_probabilities_are_hypergeometric():
    bag = "AAB?"  # six draws of two: AA once, AB twice, A? twice, B? once
    codes = _codes(["AA", "AB", "A?", "B?"])
    limits = tuple(bag.count(ch) for ch in TILES)
    assert draw_probabilities(codes, limits) == pytest.approx([1 / 6, 2 / 6, 2 / 6, 1 / 6])


def test_prior_variances_are_those_of_the_leave_less_a_random_one():
    """x' covariance x in the slots of a leave's features, less the random leave's mean features m: the same as
    (x - m)' covariance (x - m) computed from the features in full."""
    rng = np.random.default_rng(4)
    leaves = ["AB", "AA", "B?", "??", "A?"]
    codes = _codes(leaves)
    draw = rng.dirichlet(np.ones(len(leaves)))
    root = rng.normal(size=(N_FEATURES, N_FEATURES))
    covariance = np.zeros((N_FEATURES + 1, N_FEATURES + 1))
    covariance[:N_FEATURES, :N_FEATURES] = root @ root.T
    x = features(np.array([[leave.count(ch) for ch in TILES] for leave in leaves]))
    x[:, 0] = 0.0  # the intercept is in every leave and in the random one
    gap = x - draw @ x
    want = np.einsum("ij,jk,ik->i", gap, covariance[:N_FEATURES, :N_FEATURES], gap)
    assert prior_variances(codes, covariance, draw) == pytest.approx(want, rel=1e-9)


def _codes(leaves: list[str]) -> np.ndarray:
    """Leaves of one length as rows of sorted tile codes."""
    return np.array([[TILES.index(ch) for ch in leave] for leave in leaves], dtype=np.int64)


def test_published_values_are_the_recorded_ones():
    values = published()
    one = {r["leave"]: r for r in values.filter(pl.col("leave").str.len_chars() == 1).iter_rows(named=True)}
    assert len(one) == 27 and all(r["macondo"] is not None and r["quackle"] is not None for r in one.values())
    assert one["?"]["macondo"] == 28.656 and one["?"]["quackle"] == 21.7777  # as data/raw/SOURCES.md gives them
    assert one["Q"]["macondo"] == -6.29 and one["Q"]["quackle"] == -7.5409


def test_pairs_share_a_stream_and_the_interval_is_over_pairs():
    assert [pair_of(n) for n in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    games = pl.DataFrame(
        {
            "game": [1, 2, 3, 4, 5, 6],
            "equity_first": [True, False] * 3,
            "equity_score": [400, 380, 390, 390, 300, 420],
            "score_only": [350, 390, 380, 390, 310, 400],
        }
    )
    got = comparison_summary(games)
    per_pair = np.array([0.5, 0.75, 0.5])  # wins (ties half) per pair
    half = 1.959963984540054 * per_pair.std(ddof=1) / math.sqrt(3)
    assert got["games"] == 6 and got["equity_win_rate"] == round(3.5 / 6, 4)
    assert got["win_rate_ci95"] == [round(3.5 / 6 - half, 4), round(3.5 / 6 + half, 4)]


@pytest.mark.slow
def test_the_reference_command_gives_the_same_bytes(tmp_path):
    """The command of `make leaves-reference`, with few games: two runs in fresh data folders, with other shard
    sizes, write the same reference table, which the leaves stage then reads."""
    written = []
    for run, shard in (("a", "2"), ("b", "3")):
        data = build_lexicon(tmp_path / run, ENABLE, "ingest", lexicon="t")
        out = tmp_path / f"{run}.parquet"
        res = run_cli(
            "scrabble", "leaves", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--games", "6",
            "--rounds", "2", "--seed", "3", "--shard-size", shard, "--reference", out, "--quiet",
        )  # fmt: skip
        assert res.exit_code == 0, res
        written.append(out.read_bytes())
    assert written[0] == written[1]
    table = read_reference(tmp_path / "a.parquet")
    assert table.height > 0 and table["count"].sum() > 0 and table["key"].is_sorted()


VALUES_DIGEST = """
import hashlib
from pipeline.scrabble.equity.fit import PRIOR_WEIGHT, leave_values, published
from pipeline.scrabble.equity.reference import read_reference
from tests.support.leaves import COUNTS, REFERENCE
values = leave_values(read_reference(REFERENCE), COUNTS, PRIOR_WEIGHT)
for table in (values, published(values)):
    print(hashlib.sha256(table["value"].to_numpy().tobytes()).hexdigest())
"""


@pytest.mark.slow
def test_published_values_have_the_same_bits_under_every_blas_kernel():
    """The values fitted from the reference differ in their last bits between OpenBLAS's CPU kernels; rounded as
    the leaves stage publishes them they are identical (fitted here under the oldest and the newest of them, in fresh
    processes)."""
    import os
    import subprocess
    import sys

    raw, digests = set(), set()
    for kernel in ("Prescott", "Haswell"):
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
        out = subprocess.run([sys.executable, "-c", VALUES_DIGEST], env=env, cwd=ROOT, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        fitted, rounded = out.stdout.split()
        raw.add(fitted)
        digests.add(rounded)
    assert len(raw) > 1  # the kernels do differ: the rounding is what makes them agree
    assert len(digests) == 1

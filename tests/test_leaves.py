"""Leave values and equity: every leave, the additive model and its shrunk means, exact merges, the players'
observations, equity moves and games, and the leaves command's table."""

from __future__ import annotations

import hashlib
import json
import random
import re

import numpy as np
import polars as pl
import pytest

from pipeline.core.config import load_config
from pipeline.scrabble.equity.fit import (
    SCALE,
    additive_values,
    every_leave,
    features,
    fit_additive,
    leave_values,
    log_observations,
    merge_summaries,
    summarise,
)
from pipeline.scrabble.equity.moves import ranked_moves, record_leaves, unseen_bag
from pipeline.scrabble.equity.strategy import Equity, uses_leaves
from pipeline.scrabble.equity.values import MAX_LEAVE, LeaveValues, keys_of_texts
from pipeline.scrabble.movegen.generate import generate, record_tiles
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.strategy import GREEDY
from pipeline.scrabble.play.turns import game_of, game_rng, self_play
from pipeline.scrabble.records.gcg import game_gcg, parse_gcg, replay
from pipeline.scrabble.rules.board import Board, leave
from pipeline.scrabble.rules.variant import variants
from tests.conftest import DEFAULT_CONFIG
from tests.reference.scrabble import reference_game
from tests.support.players import cli_in, data_fixture  # noqa: F401  (the data fixture)

# ---- leaves -------------------------------------------------------------------------------------


def test_every_leave_matches_the_generating_function(scrabble):
    # the number of sub-multisets of size k of the bag: the coefficient of x^k in prod (1 + x + ... + x^count)
    poly = np.array([1], dtype=object)
    for n in scrabble.tile_set.counts.values():
        poly = np.convolve(poly, np.ones(n + 1, dtype=object))
    small = {"A": 2, "B": 1, "?": 2}
    assert sorted(every_leave(small, 3)) == sorted(
        {"".join(sorted(c, key=lambda ch: (ch == "?", ch))) for k in range(1, 4) for c in _subsets("AAB??", k)}
    )
    assert sum(poly[1 : MAX_LEAVE + 1]) == 914_624  # Quackle's superleaves file has as many


def _subsets(tiles: str, k: int) -> set[tuple[str, ...]]:
    """The distinct k-tile sub-multisets of `tiles`."""
    from itertools import combinations

    return {tuple(sorted(c)) for c in combinations(tiles, k)}


def _counts(leave: str) -> np.ndarray:
    """A leave's 27 tile counts."""
    return np.array([leave.count(ch) for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"], dtype=np.int64)


def _summary(pairs: list[tuple[str, float]]) -> pl.DataFrame:
    """The summary of (leave, target) observations, in two blocks merged."""
    keys = [int(k) for k in keys_of_texts([leave for leave, _ in pairs])]
    targets = [round(t * SCALE) for _, t in pairs]
    half = len(pairs) // 2
    return merge_summaries([summarise(keys[half:], targets[half:]), summarise(keys[:half], targets[:half])])


def test_additive_model_recovers_an_additive_truth():
    rng = random.Random(3)
    tiles = "AEIRSTQU?"
    truth = {"": 20.0, "A": 1.0, "E": 2.0, "I": -1.0, "R": 1.5, "S": 7.0, "T": 0.5, "Q": -8.0, "U": -3.0, "?": 24.0}
    extra = {"E": -2.0, "S": -4.0, "?": -10.0}
    pair = {("Q", "U"): 9.0, ("E", "R"): 1.0}

    def value(leave: str) -> float:
        """The additive truth of a leave."""
        kinds = sorted(set(leave))
        v = sum(truth[ch] for ch in leave) + sum(extra.get(ch, 0.0) * (leave.count(ch) - 1) for ch in kinds)
        return v + sum(w for (x, y), w in pair.items() if x in leave and y in leave)

    leaves = [
        "".join(sorted(rng.choices(tiles, k=rng.randint(0, 4)), key=lambda c: (c == "?", c))) for _ in range(3000)
    ]
    leaves = [k for k in leaves if all(k.count(ch) <= 2 for ch in k)]
    summary = _summary([(k, truth[""] + value(k)) for k in leaves])
    beta = fit_additive(summary, ridge=0.0)
    assert beta[0] == pytest.approx(20.0, abs=1e-6)
    codes = np.full((4, MAX_LEAVE + 1), -1, dtype=np.int64)
    for i, k in enumerate(["S", "QU", "?ER", "EES"]):
        codes[i, : len(k)] = ["ABCDEFGHIJKLMNOPQRSTUVWXYZ?".index(ch) for ch in k]
    got = additive_values(codes, beta)
    assert got == pytest.approx([value(k) for k in ["S", "QU", "?ER", "EES"]], abs=1e-6)
    x = features(np.array([_counts("EES")]))[0]
    assert x @ beta == pytest.approx(20.0 + value("EES"), abs=1e-6)


@pytest.mark.slow
def test_leave_values_shrink_observed_means_towards_the_model():
    obs = [("S", 30.0), ("S", 20.0), ("", 10.0), ("", 14.0), ("Q", 2.0), ("QS", 9.0)] * 3
    summary = _summary(obs)
    table = leave_values(summary, {"S": 4, "Q": 1}, 5)
    got = {r["leave"]: r for r in table.iter_rows(named=True)}
    assert set(got) == {"S", "SS", "SSS", "SSSS", "Q", "QS", "QSS", "QSSS", "QSSSS"}
    beta = fit_additive(summary)
    empty = beta[0] + (4 * beta[19] + beta[17]) / 5  # a random tile of the bag SSSSQ: S 4 times in 5, Q once
    s = got["S"]
    assert s["count"] == 6 and s["observed"] == pytest.approx(25.0 - empty)
    assert s["value"] == pytest.approx((6 * (25.0 - empty) + 5 * s["prior"]) / 11)
    assert s["ci_low"] == pytest.approx(25.0 - empty - 1.959963984540054 * (30.0**0.5) / 6**0.5)
    assert got["SSS"]["count"] == 0 and got["SSS"]["observed"] is None
    assert got["SSS"]["value"] == pytest.approx(got["SSS"]["prior"])
    assert got["S"]["value"] > 0 > got["Q"]["value"]  # S was followed by more than a random tile, Q by less
    assert 4 * got["S"]["prior"] + got["Q"]["prior"] == pytest.approx(0.0, abs=1e-9)
    assert got["QSSSS"]["value"] == pytest.approx(0.0, abs=1e-9)  # the whole bag: the only leave of five


def test_summaries_merge_exactly_in_any_order():
    rng = random.Random(5)
    pairs = [(rng.choice(["A", "S", "QU", "?", ""]), rng.uniform(-20, 80)) for _ in range(500)]
    keys = [int(k) for k in keys_of_texts([k for k, _ in pairs])]
    targets = [round(t * SCALE) for _, t in pairs]
    parts = [summarise(keys[i : i + 50], targets[i : i + 50]) for i in range(0, 500, 50)]
    assert merge_summaries(parts).equals(merge_summaries(parts[::-1]))
    assert merge_summaries(parts).equals(summarise(keys, targets))


def test_observations_follow_the_players_next_turns(scrabble, lexicon):
    table = LeaveValues.of({"?": 25.0, "S": 8.0, "Q": -7.0})
    for log in (
        play_game(scrabble, lexicon, game_rng(3, "scrabble", 1)),
        play_game(scrabble, lexicon, game_rng(3, "scrabble", 2), (Equity(table), Equity(table))),
    ):
        game = game_of(log, scrabble, lexicon)
        keys, targets = log_observations(log, scrabble, table)
        expected, bag = [], 100 - 14
        kept_at = []
        for t in game.turns:
            kept = None
            if t.action == "play":
                kept = leave(t.rack, t.play.tiles)
            elif t.action == "exchange":
                kept = leave(t.rack, [])
                for ch in t.exchanged or t.rack:
                    kept = kept.replace(ch, "", 1)
            if kept is not None and (not uses_leaves(bag, 7) or len(kept) > MAX_LEAVE):
                kept = None
            kept_at.append(kept)
            bag -= min(bag, len(t.play.tiles)) if t.play else 0
        for i, kept in enumerate(kept_at):
            if kept is None or i + 2 >= len(game.turns):
                continue
            after = kept_at[i + 2]
            future = {"?": 25.0, "S": 8.0, "Q": -7.0}.get(after, 0.0) if after is not None else 0.0
            key = int(keys_of_texts(["".join(sorted(kept, key=lambda c: (c == "?", c)))])[0])
            expected.append((key, round((game.turns[i + 2].score + future) * SCALE)))
        assert list(zip(keys, targets)) == expected and keys


@pytest.mark.slow
def test_equity_engine_plays_the_reference_games(scrabble, lexicon, data):
    """The game kernel plays the reference's games turn for turn, for equity players (both, or against a greedy
    one) with the leave values of the leaves stage, exchanges included."""
    values = LeaveValues(pl.read_parquet(data / "t" / "leaves.parquet"))
    exchanges = 0
    for number in range(1, 7):
        pair = (Equity(values), Equity(values) if number % 2 else GREEDY)
        ref = reference_game(scrabble, lexicon, game_rng(5, "scrabble", number), pair)
        log = play_game(scrabble, lexicon, game_rng(5, "scrabble", number), pair)
        fast = game_of(log, scrabble, lexicon)
        assert [(t.action, str(t.play), t.exchanged) for t in fast.turns] == [
            (t.action, str(t.play), t.exchanged and "".join(sorted(t.exchanged))) for t in ref.turns
        ]
        assert [int(x) for x in log.scores] == ref.scores
        exchanges += sum(t.action == "exchange" for t in ref.turns)
        steps = replay(parse_gcg(game_gcg(fast, scrabble)), scrabble, lexicon)
        assert not any(s.problems for s in steps)
    assert exchanges > 0


@pytest.mark.slow
def test_leaves_stage_table(data):
    table = pl.read_parquet(data / "t" / "leaves.parquet")
    assert table.height == 914_624 and table["leave"].n_unique() == table.height
    counts = variants(load_config(DEFAULT_CONFIG))["scrabble"].tile_set.counts
    assert set(table["leave"]) == set(every_leave(counts))  # the vectorised enumeration and the recursive one
    assert table["count"].sum() > 0 and (table.filter(pl.col("count") == 0)["observed"].null_count() > 0)
    import zipfile

    with zipfile.ZipFile(data / "t" / "leaves_games.zip") as zf:
        names = zf.namelist()
        assert names == [f"game-{k:06d}.gcg" for k in range(1, 5)]  # the first games of the last round
        assert parse_gcg(zf.read(names[0]).decode()).events


# ---- equity -------------------------------------------------------------------------------------


def test_record_leaves_match_the_rules(scrabble, lexicon):
    rng = random.Random(4)
    board = self_play(scrabble, lexicon, game_rng(9, "scrabble", 1)).turns[8].board
    for _ in range(5):
        rack = "".join(rng.sample("AEEIORSTNLD?", 7))
        records, _ = generate(board, rack, scrabble, lexicon)
        kept = record_leaves(records, rack)
        for record, k in zip(records, kept):
            tiles, _ = record_tiles(record)
            assert k == leave(rack, tiles)


def test_equity_with_zero_leaves_is_best_score(scrabble, lexicon):
    board = self_play(scrabble, lexicon, game_rng(9, "scrabble", 2)).turns[6].board
    moves = ranked_moves(board, "AEINRT?", scrabble, lexicon, LeaveValues.of({}), 5, exchanges=False)
    records, _ = generate(board, "AEINRT?", scrabble, lexicon, keep=5)
    assert [m.score for m in moves] == [int(r[0]) for r in records]


def test_equity_counts_no_leave_once_the_bag_is_short(scrabble, lexicon):
    swap = LeaveValues.of({"?": 100.0, "S": 100.0, "Q": -100.0})
    assert unseen_bag(Board(), "QVVWUU?", scrabble) == 100 - 7 - 7
    for bag, counted in ((7, True), (6, False), (0, False)):
        top = ranked_moves(Board(), "QVVWUU?", scrabble, lexicon, swap, 3, bag=bag)
        plain = ranked_moves(Board(), "QVVWUU?", scrabble, lexicon, LeaveValues.of({}), 3, exchanges=False)
        if counted:
            assert top[0].play is None and top[0].leave == "?"  # exchange, keep the blank
        else:
            assert [(m.notation, m.equity) for m in top] == [(m.notation, m.equity) for m in plain]


def test_equity_prefers_keeping_good_tiles_and_exchanges(scrabble, lexicon):
    good = LeaveValues.of({"S": 100.0})
    top = ranked_moves(Board(), "ABEST?S", scrabble, lexicon, good, 1, exchanges=False)[0]
    assert top.leave == "S" and top.equity == pytest.approx(top.score + 100.0)
    swap = LeaveValues.of({"?": 100.0})
    top = ranked_moves(Board(), "QVVWUU?", scrabble, lexicon, swap, 1)[0]
    assert top.play is None and top.exchange == "QUUVVW" and top.leave == "?"


def test_score_strategy_games_equal_the_reference(scrabble, lexicon):
    for number in (1, 2):
        reference = reference_game(scrabble, lexicon, game_rng(11, "scrabble", number), (GREEDY, GREEDY))
        ours = self_play(scrabble, lexicon, game_rng(11, "scrabble", number))
        assert ours.scores == reference.scores
        assert [str(t.play) for t in ours.turns] == [str(t.play) for t in reference.turns]


def test_equity_games_round_trip_as_gcg(scrabble, lexicon):
    leaves = LeaveValues.of({"?": 25.0, "S": 8.0, "Q": -7.0, "V": -5.0})
    game = reference_game(scrabble, lexicon, game_rng(2, "scrabble", 1), (Equity(leaves), GREEDY))
    steps = replay(parse_gcg(game_gcg(game, scrabble)), scrabble, lexicon)
    assert not any(s.problems for s in steps)
    finals = {s.event.player: s.our_total for s in steps}
    assert [finals[0], finals[1]] == game.scores


@pytest.mark.slow
def test_best_equity_cli(cli, data):
    res = cli_in(cli, data, "scrabble", "best", "--empty", "--rack", "qvvwuu?", "--equity", "--json", "--limit", "3")
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    assert len(rows) == 3 and rows[0]["equity"] >= rows[1]["equity"] >= rows[2]["equity"]
    assert all(r["equity"] == pytest.approx(r["score"] + r["leave_value"], abs=0.02) for r in rows)
    shown = cli_in(cli, data, "scrabble", "best", "--empty", "--rack", "retains", "--show")
    assert shown.exit_code == 0 and "triple word" in shown.stdout
    assert re.search(r"\n8[A-H] [A-Z]{7} 66\n", shown.stdout)  # the top play, then the board with it


@pytest.mark.slow
def test_leaves_cli_writes_a_table(cli, data, tmp_path):
    out = tmp_path / "l.parquet"
    res = cli_in(cli, data, "scrabble", "leaves", "--games", "3", "--rounds", "2", "--out", out)
    assert res.exit_code == 0, res
    assert "914,624 leaves from 2 rounds of 3 games" in res.stdout
    table = pl.read_parquet(out)
    assert table.height == 914_624 and int(table["count"].sum()) > 0
    again = cli_in(cli, data, "scrabble", "leaves", "--games", "3", "--rounds", "2", "--out", out)
    assert again.exit_code == 2 and "file exists" in again.stderr


@pytest.mark.slow
def test_leaves_cli_commits_through_the_store(cli, data, tmp_path):
    """Without --out, the table goes into the lexicon's store as a commit: the manifest lists the new file, no
    journal or temporary file is left behind."""
    import shutil

    from pipeline.core.files import read_provenance
    from pipeline.core.layout import JOURNAL, MANIFEST

    shutil.copytree(data, tmp_path / "out")
    folder = tmp_path / "out" / "t"
    before = json.loads((folder / MANIFEST).read_text())["tables"]["leaves.parquet"]
    res = cli_in(cli, tmp_path / "out", "scrabble", "leaves", "--games", "2", "--rounds", "1")
    assert res.exit_code == 0, res
    entry = json.loads((folder / MANIFEST).read_text())["tables"]["leaves.parquet"]
    path = folder / "leaves.parquet"
    assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest() != before["sha256"]
    assert entry["stage"] == "leaves" and entry["rows"] == 914_624
    assert read_provenance(path)["params"] == {
        "variant": "scrabble",
        "games": 2,
        "rounds": 1,
        "seed": 14,
        "prior_weight": 1000,
    }
    assert not (folder / JOURNAL).exists() and not list(folder.glob(".*.tmp"))

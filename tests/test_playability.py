"""Playability: what not knowing a word costs a turn (exact figures on real positions, the fast scan against the
slow reference), over games, as a job and a stage."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import executor
from pipeline.core.config import load_config
from pipeline.scrabble.equity.moves import record_leaves
from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import LeaveValues, keys_of_texts
from pipeline.scrabble.movegen.generate import generate
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.turns import game_of, game_rng, rack_text
from pipeline.scrabble.playability.job import LOSSES_SCHEMA, playability_job
from pipeline.scrabble.playability.losses import (
    game_losses,
    kernel_losses,
    measured_game,
    milli,
    record_leave_keys,
    reference_losses,
    scan_losses,
    turn_losses,
    word_losses,
)
from pipeline.scrabble.playability.table import stability
from pipeline.scrabble.rules.board import Board
from pipeline.words.playability import playability_table
from tests.conftest import DEFAULT_CONFIG, ENABLE, ROOT, build_lexicon

FULL_BAG, SHORT_BAG = 86, 3  # tiles in the bag: leaves count, and they do not (equity.strategy.uses_leaves)
# a few leave values of the usual signs, so that equity and score disagree
SOME_LEAVES = {"?": 25.0, "S": 8.0, "ES": 10.5, "R": 1.5, "E": 2.0, "Q": -7.0, "V": -5.5, "VV": -14.0, "U": -3.0}


@pytest.fixture(scope="module")
def leaves():
    """SOME_LEAVES as leave values."""
    return LeaveValues.of(SOME_LEAVES)


# ---- one turn: figures worked by hand -------------------------------------------------------------


def test_xi_alone_costs_its_whole_score(scrabble, lexicon):
    """IQVVWWX on the empty board makes XI and nothing else (ENABLE has no QI): not knowing XI costs its 18
    points, a pass being the alternative."""
    none = LeaveValues.of({})
    assert turn_losses(Board(), "IQVVWWX", SHORT_BAG, scrabble, lexicon, none) == {"XI": 18.0}
    assert reference_losses(Board(), "IQVVWWX", SHORT_BAG, scrabble, lexicon, none) == {"XI": 18.0}


def test_xi_beside_hi_costs_the_difference(scrabble, lexicon):
    """With an H as well, HI (10 points on the double word) is what a player without XI plays: XI costs 8, and
    HI, not played, nothing."""
    none = LeaveValues.of({})
    assert turn_losses(Board(), "HIQVVWX", SHORT_BAG, scrabble, lexicon, none) == {"XI": 8.0}


def test_a_word_with_an_equal_alternative_costs_nothing(scrabble, lexicon):
    """JOW and VOX both score 26 on the empty board: whichever is played, the other is as good."""
    none = LeaveValues.of({})
    losses = turn_losses(Board(), "IJOVVWX", SHORT_BAG, scrabble, lexicon, none)
    assert list(losses.values()) == [0.0] and set(losses) <= {"JOW", "VOX"}


def test_an_exchange_is_the_alternative_while_leaves_count(scrabble, lexicon):
    """Keeping C is worth 10 here: with a full bag the exchange keeping it is the move without XI (18 - 10), with
    a short bag leaves do not count and the pass is (18 - 0)."""
    keep_c = LeaveValues.of({"C": 10.0})
    assert turn_losses(Board(), "CIVVWWX", FULL_BAG, scrabble, lexicon, keep_c) == {"XI": 8.0}
    assert reference_losses(Board(), "CIVVWWX", FULL_BAG, scrabble, lexicon, keep_c) == {"XI": 8.0}
    assert turn_losses(Board(), "CIVVWWX", SHORT_BAG, scrabble, lexicon, keep_c) == {"XI": 18.0}


def test_a_best_exchange_loses_no_word(scrabble, lexicon):
    swap = LeaveValues.of({"C": 30.0})
    assert turn_losses(Board(), "CIVVWWX", FULL_BAG, scrabble, lexicon, swap) == {}
    assert reference_losses(Board(), "CIVVWWX", FULL_BAG, scrabble, lexicon, swap) == {}


# ---- real positions: the fast scan is the reference ----------------------------------------------


def equity_log(scrabble, lexicon, leaves, number):
    """Seeded game `number` between two equity players with these leave values."""
    return play_game(scrabble, lexicon, game_rng(27, "scrabble", number), (Equity(leaves), Equity(leaves)))


def test_fast_losses_are_the_reference_on_real_positions(scrabble, lexicon, leaves):
    """Turns of an equity game, leaves counted or not: the same words, the same losses (to the bit)."""
    log = equity_log(scrabble, lexicon, leaves, 1)
    game = game_of(log, scrabble, lexicon)
    rng = random.Random(3)
    for k in sorted(rng.sample(range(len(game.turns)), 4)):
        turn = game.turns[k]
        for bag in (FULL_BAG, SHORT_BAG):
            fast = turn_losses(turn.board, turn.rack, bag, scrabble, lexicon, leaves)
            assert fast == reference_losses(turn.board, turn.rack, bag, scrabble, lexicon, leaves), (k, bag)


def test_game_losses_follow_the_games_own_plays(scrabble, lexicon, leaves):
    """Every play turn of a game is analysed (the game's play is the best move found), each loss at least 0
    and the words of the play itself."""
    log = equity_log(scrabble, lexicon, leaves, 2)
    game = game_of(log, scrabble, lexicon)
    found = list(game_losses(log, scrabble, lexicon, leaves))
    plays = [k for k, t in enumerate(game.turns) if t.action == "play"]
    assert [t.turn for t in found] == plays
    for t in found:
        play = game.turns[t.turn].play
        assert set(t.losses) == {play.main.word, *(w.word for w in play.cross)}
        assert all(v >= 0 for v in t.losses.values())
        assert game.turns[t.turn].rack == rack_text(log.racks[t.turn])


def test_leave_keys_of_records_are_the_leaves_keys(scrabble, lexicon, leaves):
    """The vectorised leave keys are the keys of the leaves the rules give (blanks included)."""
    board = game_of(equity_log(scrabble, lexicon, leaves, 1), scrabble, lexicon).turns[6].board
    for rack in ("AEINRT?", "EEQSUU?", "??ABCDE"):
        records, _ = generate(board, rack, scrabble, lexicon)
        assert len(records) and np.array_equal(
            record_leave_keys(records, rack), keys_of_texts(record_leaves(records, rack))
        )


@pytest.mark.slow
def test_whole_game_against_the_reference(scrabble, lexicon, leaves):
    """Every play turn of a game, with the game's own bag: the fast losses are the reference's."""
    log = equity_log(scrabble, lexicon, leaves, 3)
    game = game_of(log, scrabble, lexicon)
    bag = scrabble.tile_set.size - 2 * scrabble.rack_size
    found = {t.turn: t.losses for t in game_losses(log, scrabble, lexicon, leaves)}
    for k, turn in enumerate(game.turns):
        if turn.action == "play":
            assert found[k] == reference_losses(turn.board, turn.rack, bag, scrabble, lexicon, leaves), k
            bag = max(bag - len(turn.play.tiles), 0)
    assert found


# ---- properties ------------------------------------------------------------------------------------

WORDS = st.frozensets(st.sampled_from(["QI", "ZA", "XI", "JO", "AX", "OX"]), max_size=3)
MOVES = st.lists(st.tuples(st.integers(-20, 60).map(float), WORDS), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(MOVES, st.integers(-5, 15).map(float), st.randoms(use_true_random=False))
def test_losses_are_nonnegative_for_the_best_words_and_any_order(moves, floor, rng):
    """Over made-up moves: the scan down the ranked list is the brute force; losses are at least 0, only the
    best move's words get one, and the order the other moves come in changes nothing."""
    ranked = sorted(moves, key=lambda m: -m[0])
    best, words = ranked[0]
    if best < max(floor, 0.0):
        return  # the best move would be an exchange
    floor = max(floor, 0.0)
    brute = word_losses(best, words, [(floor, frozenset())] + ranked[1:])
    equity = np.array([e for e, _ in ranked])
    assert scan_losses(equity, floor, lambda i: ranked[i][1]) == brute
    assert set(brute) == set(words) and all(v >= 0 for v in brute.values())
    others = [(floor, frozenset())] + ranked[1:]
    rng.shuffle(others)
    assert word_losses(best, words, others) == brute


# ---- the job, the table, the stage -------------------------------------------------------------------


@pytest.mark.slow
def test_job_sums_the_games_losses_for_any_shard_size(scrabble, lexicon, leaves):
    """The merged losses are the games' own sums (thousandths, per word and half) and the same table for shards
    of 1, 2 or all games."""
    games = 4
    expected: dict[tuple[str, int], list[int]] = {}
    for number in range(1, games + 1):
        log = play_game(scrabble, lexicon, game_rng(11, "scrabble", number), (Equity(leaves), Equity(leaves)))
        for turn in game_losses(log, scrabble, lexicon, leaves):
            for word, loss in turn.losses.items():
                entry = expected.setdefault((word, number % 2), [0, 0])
                entry[0] += round(loss * 1000)
                entry[1] += 1
    results = [
        executor.run(playability_job(scrabble, lexicon, leaves, 11, games, size), None, "t") for size in (1, 2, games)
    ]
    for size, result in zip((1, 2, games), results):  # each shard's own CPU seconds, one row a shard
        cpu = result.tables["cpu"]
        assert cpu["shard"].to_list() == list(range(games // size)) and cpu["games"].to_list() == [size] * (
            games // size
        )
        assert (cpu["seconds"] > 0).all()
    tables = [result.tables["losses"] for result in results]
    assert all(t.equals(tables[0]) for t in tables[1:])
    got = {(w, h): [m, t] for w, h, m, t in tables[0].iter_rows()}
    assert got == expected and tables[0]["word"].is_sorted()


def test_table_ranks_every_word_and_stability_compares_the_halves():
    losses = pl.DataFrame(
        [("XI", 0, 9000, 2), ("XI", 1, 7000, 1), ("JO", 0, 3000, 1), ("JO", 1, 5000, 2), ("OX", 1, 8000, 1)],
        schema=LOSSES_SCHEMA,
        orient="row",
    )
    table = playability_table(losses, ["AA", "JO", "OX", "XI", "ZZZ"])
    assert table.rows() == [
        ("AA", 0.0, 0, 4),
        ("JO", 8.0, 3, 2),
        ("OX", 8.0, 1, 2),
        ("XI", 16.0, 3, 1),
        ("ZZZ", 0.0, 0, 4),
    ]
    # top 3: XI (9, 7), JO (3, 5), OX (0, 8): ranks by half (3, 1, 2) and (2, 1, 3): rho = 1 - 6 * 6 / 24 = -0.5
    found = stability(losses, table)
    assert found.words == 3 and found.spearman == pytest.approx(-0.5)
    assert stability(losses, table, top=1).spearman is None


@pytest.mark.slow
def test_playability_stage(tmp_path):
    """The stage of the small test config (4 games) on ENABLE: every word, ranks, the summary; the same bytes
    when built again."""
    data = build_lexicon(tmp_path / "out", ENABLE, "ingest", "leaves", "playability")
    table = pl.read_parquet(data / "t" / "playability.parquet")
    assert table.columns == ["word", "playability", "turns", "rank"] and table.height == 172_820
    needed = table.filter(pl.col("playability") > 0)
    assert needed.height > 50 and (needed["turns"] > 0).all()
    assert table.filter(pl.col("rank") == 1)["playability"].item() == table["playability"].max()
    summary = json.loads((data / "t" / "playability_summary.json").read_text())
    assert summary["games"] == 4 and summary["top"][0]["rank"] == 1
    assert summary["stability"]["top_words"] == needed.height
    first = (data / "t" / "playability.parquet").read_bytes()
    build_lexicon(tmp_path / "out", ENABLE, "playability")
    assert (data / "t" / "playability.parquet").read_bytes() == first


def test_the_stage_seed_defaults_to_the_configs_and_the_commands(tmp_path):
    """A config without [scrabble.playability] seed plays the games of the default config and of the command."""
    from pipeline.scrabble.playability.api import PlayabilityRun
    from pipeline.scrabble.playability.stage import params

    head, section, tail = DEFAULT_CONFIG.read_text().partition("[scrabble.playability]\n")
    seeded = re.search(r"^seed = 27 .*\n", tail, re.M)
    assert section and seeded
    (tmp_path / "configs").mkdir()
    unseeded = tmp_path / "configs" / "default.toml"
    unseeded.write_text((head + section + tail.replace(seeded.group(0), "", 1)).replace('"../', f'"{ROOT}/'))
    seeds = {params(load_config(path), None)["seed"] for path in (unseeded, DEFAULT_CONFIG)}
    assert seeds == {PlayabilityRun().seed} == {27}


# ---- playability beside the other tables: anagram, words, study, wordlist ---------------------------------


@pytest.fixture(scope="module")
def short_data(tmp_path_factory):
    """ENABLE's words of 2 to 5 letters built with the small config, playability included (4 games)."""
    words = [w for w in ENABLE.read_text().upper().split() if len(w) <= 5]
    return build_lexicon(tmp_path_factory.mktemp("play") / "out", words, "ingest", "indexes", "leaves", "playability")


def cli_on(data, *args, input: str | None = None):
    """A command on the short lexicon (`input`: its standard input)."""
    from tests.conftest import SMALL_CONFIG, run_cli

    return run_cli(*args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, input=input)


def points(data) -> dict[str, float]:
    """Each word's playability, from the table."""
    table = pl.read_parquet(data / "t" / "playability.parquet")
    return dict(zip(table["word"].to_list(), table["playability"].to_list()))


@pytest.mark.slow
def test_anagram_and_words_order_by_playability(short_data):
    known = points(short_data)
    res = cli_on(short_data, "anagram", "AEST", "--order", "playability", "--json")
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    words = [r["word"] for r in rows]
    assert set(words) == {"ATES", "EAST", "EATS", "ETAS", "SATE", "SEAT", "SETA", "TAES", "TEAS"} & set(known)
    assert words == sorted(words, key=lambda w: (-known[w], w))
    assert [r["playability"] for r in rows] == [known[w] for w in words]
    res = cli_on(short_data, "anagram", "-", "--order", "playability", "--json", input="AEST\nEINT\n")
    assert res.exit_code == 0, res
    batch = json.loads(res.stdout)
    racks = [r["rack"] for r in batch]
    assert racks == sorted(racks, key=["AEST", "EINT"].index)  # each rack's words together, racks in input order
    for rack in ("AEST", "EINT"):
        mine = [r["word"] for r in batch if r["rack"] == rack]
        assert mine == sorted(mine, key=lambda w: (-known[w], w))
    res = cli_on(short_data, "words", "QIXZAJO", "--order", "playability", "--json")
    rows = json.loads(res.stdout)
    assert rows and [r["word"] for r in rows] == sorted((r["word"] for r in rows), key=lambda w: (-known[w], w))


@pytest.mark.slow
def test_study_deck_by_playability(short_data, tmp_path):
    """The 2-letter alphagrams of highest summed playability, worked out from the tables."""
    known = points(short_data)
    anagrams = pl.read_parquet(short_data / "t" / "anagrams.parquet").filter(pl.col("length") == 2)
    summed = {a: sum(known.get(w, 0.0) for w in ws) for a, ws in zip(anagrams["alphagram"], anagrams["words"])}
    order = dict(zip(anagrams["alphagram"], anagrams["probability_order"]))
    expected = sorted(summed, key=lambda a: (-summed[a], order[a]))[:5]
    out = tmp_path / "deck.csv"
    res = cli_on(short_data, "study", "--length", "2", "--to", "5", "--order", "playability", "--out", out)
    assert res.exit_code == 0, res
    fronts = [line.split(" (#")[0].strip('"') for line in out.read_text().splitlines() if " (#" in line]
    assert fronts[:5] == expected


@pytest.mark.slow
def test_wordlist_sorted_by_playability(short_data):
    known = points(short_data)
    res = cli_on(short_data, "wordlist", "--length", "2", "--sort", "playability", "--allow-all", "--upper", "--json")
    assert res.exit_code == 0, res
    words = [r["word"] for r in json.loads(res.stdout)]
    assert len(words) > 50 and words == sorted(words, key=lambda w: (-known[w], w))


def test_playability_order_needs_the_table(tmp_path):
    data = build_lexicon(tmp_path / "out", ["AB", "BA", "CAB"], "ingest", "indexes")
    res = cli_on(data, "anagram", "AB", "--order", "playability")
    assert res.exit_code == 2 and "--order playability needs playability.parquet" in res.stderr
    assert "wordstats run playability --lexicon t" in res.stderr and "Traceback" not in res.stderr


# ---- the kernel's losses: the same as the Python replay and the reference -------------------------------


@pytest.mark.numba_reference  # a measured game's kernel called from Python, one turn at a time, as no command does
def test_kernel_losses_are_the_reference_on_hand_worked_turns(scrabble, lexicon):
    none, keep_c = LeaveValues.of({}), LeaveValues.of({"C": 10.0})
    assert kernel_losses(Board(), "IQVVWWX", SHORT_BAG, scrabble, lexicon, none) == {"XI": 18.0}
    assert kernel_losses(Board(), "HIQVVWX", SHORT_BAG, scrabble, lexicon, none) == {"XI": 8.0}
    assert kernel_losses(Board(), "CIVVWWX", FULL_BAG, scrabble, lexicon, keep_c) == {"XI": 8.0}
    assert kernel_losses(Board(), "CIVVWWX", SHORT_BAG, scrabble, lexicon, keep_c) == {"XI": 18.0}
    assert kernel_losses(Board(), "CIVVWWX", FULL_BAG, scrabble, lexicon, LeaveValues.of({"C": 30.0})) == {}


@pytest.mark.slow
@pytest.mark.numba_reference  # as above
@settings(max_examples=15, deadline=None)
@given(st.integers(1, 6), st.integers(0, 40), st.sampled_from([0, 1, 2]), st.sampled_from([SHORT_BAG, 7, FULL_BAG]))
def test_kernel_losses_are_the_reference_on_random_positions(scrabble, lexicon, leaves, number, turn, blanks, bag):
    """A board of an equity game, a random rack of 0 to 2 blanks: the kernel's losses are the slow reference's
    and the Python scan's, to the bit, from the measured game's best plays and from only one or two (so that
    every play is scanned for the words all of those form)."""
    game = game_of(equity_log(scrabble, lexicon, leaves, number), scrabble, lexicon)
    board = game.turns[turn % len(game.turns)].board
    rng = random.Random(turn * 7 + number)
    rack = "".join(rng.sample("AAEEIIOUNRSTLDGBCMPFHVWYKJXQZ", scrabble.rack_size - blanks)) + "?" * blanks
    fast = kernel_losses(board, rack, bag, scrabble, lexicon, leaves)
    assert fast == turn_losses(board, rack, bag, scrabble, lexicon, leaves)
    assert fast == reference_losses(board, rack, bag, scrabble, lexicon, leaves)
    for top in (1, 2):
        assert kernel_losses(board, rack, bag, scrabble, lexicon, leaves, top) == fast


def test_kernel_losses_from_fewer_best_plays_on_real_positions(scrabble, lexicon, leaves):
    """Turns of an equity game with the game's racks: the same losses from 1, 2 or the measured game's best plays
    (with fewer, more words are formed by all of them and found among every play)."""
    log = equity_log(scrabble, lexicon, leaves, 4)
    game = game_of(log, scrabble, lexicon)
    for k in range(0, len(game.turns), 3):
        turn = game.turns[k]
        for bag in (FULL_BAG, SHORT_BAG):
            found = [kernel_losses(turn.board, turn.rack, bag, scrabble, lexicon, leaves, top) for top in (1, 2, 0)]
            assert (
                found[0] == found[1] == found[2] == turn_losses(turn.board, turn.rack, bag, scrabble, lexicon, leaves)
            )


def test_measured_games_lose_what_their_replay_loses(scrabble, lexicon, leaves):
    """Seeded games measured as they are played: the same turns, players and losses as game_losses of the log."""
    for number in (1, 2, 3):
        log, turns = measured_game(scrabble, lexicon, game_rng(27, "scrabble", number), leaves)
        replayed = game_losses(log, scrabble, lexicon, leaves)
        assert [(t.turn, t.player, t.losses) for t in turns] == [(t.turn, t.player, t.losses) for t in replayed]
        plain = equity_log(scrabble, lexicon, leaves, number)
        assert log.turns.tobytes() == plain.turns.tobytes() and log.scores.tolist() == plain.scores.tolist()


@pytest.mark.slow
def test_job_losses_are_the_python_replays_on_50_games(scrabble, lexicon):
    """The job's losses table on 50 seeded ENABLE games with the reference leave values: the rows the Python
    replay (game_losses) gives, thousandth for thousandth."""
    from pipeline.scrabble.equity.fit import PRIOR_WEIGHT, leave_values
    from pipeline.scrabble.equity.reference import read_reference

    counts = scrabble.tile_set.counts
    values = LeaveValues(leave_values(read_reference(ROOT / "data/raw/leaves-enable.parquet"), counts, PRIOR_WEIGHT))
    games = 50
    expected: dict[tuple[str, int], list[int]] = {}
    for number in range(1, games + 1):
        log = play_game(scrabble, lexicon, game_rng(27, "scrabble", number), (Equity(values), Equity(values)))
        for turn in game_losses(log, scrabble, lexicon, values):
            for word, loss in turn.losses.items():
                entry = expected.setdefault((word, number % 2), [0, 0])
                entry[0] += milli(loss)
                entry[1] += 1
    table = executor.run(playability_job(scrabble, lexicon, values, 27, games, 25), None, "t").tables["losses"]
    assert sorted((w, h, m, t) for (w, h), (m, t) in expected.items()) == table.rows()

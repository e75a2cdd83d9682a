"""Hangman: the reference solver, the weighted solver, the difficulty table, its summary and the CLI."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.errors import WordstatsError
from pipeline.hangman.api import replay as trace
from pipeline.hangman.difficulty import difficulty_table
from pipeline.hangman.settings import defaults, setter_weights
from pipeline.hangman.solver import solve_length, solve_lexicon, solve_plain
from tests.conftest import SMALL_CONFIG, build_lexicon, config_with, corpus
from tests.reference.hangman import replay
from tests.reference.stats import spearman

SEVEN = ["deed", "even", "eyes", "heel", "mere", "peep", "star"]
SEVEN_SOLVED = [
    (0, 1, "MERE", "E"),
    (0, 2, "DEED", "ED"),
    (0, 2, "EVEN", "EN"),
    (1, 1, "STAR", "E"),
    (1, 2, "EYES", "EN"),
    (1, 3, "HEEL", "EDH"),
    (2, 3, "PEEP", "EDH"),
]


def heuristic(word: str, vowels="AEIOU", order="ETAOINSHRDLCUMWFGYPBVKJXQZ") -> int:
    """The heuristic score, spelled out: (distinct letters) × (7 − vowels) × frequency places."""
    distinct = set(word)
    return len(distinct) * (7 - sum(ch in vowels for ch in word)) * sum(order.index(ch) + 1 for ch in distinct)


@pytest.fixture(scope="module")
def words4k(tmp_path_factory):
    """Norvig's words4k built through ingest and hangman with the small config: (data dir, words, table)."""
    data = build_lexicon(
        tmp_path_factory.mktemp("hangman") / "out", corpus("norvig-words4k/words4k.txt"), "hangman", lexicon="w4k"
    )
    words = pl.read_parquet(data / "w4k" / "words.parquet")
    table = pl.read_parquet(data / "w4k" / "hangman.parquet")
    return data, words, table


# ---- the solver ------------------------------------------------------------------------------------------


def test_seven_word_example_exactly():
    words = sorted(w.upper() for w in SEVEN)
    misses, guesses, sequences = solve_length(words)
    assert sorted(zip(misses.tolist(), guesses.tolist(), words, sequences)) == SEVEN_SOLVED
    plain = solve_plain(words)
    assert sorted((m, g, w, s) for w, (m, g, s) in plain.items()) == SEVEN_SOLVED
    assert sorted((*replay(w, words)[:2], w, replay(w, words)[2]) for w in words) == SEVEN_SOLVED


def test_first_guess_of_the_deed_dead_dare_example():
    # D and E cost no miss (ties go to the first letter), A would cost one (DEED), R two
    steps = trace("DARE", ["DARE", "DEAD", "DEED"])
    assert steps[0]["guess"] == "D" and steps[0]["result"] == "hit"
    weighted = trace("DARE", ["DARE", "DEAD", "DEED"], np.array([1, 1, 5]))
    assert weighted[0]["guess"] == "D"


def test_a_word_alone_in_its_length_needs_no_guess():
    table = solve_lexicon(["CAT", "DOG", "ZEBRAS"])
    assert table.filter(pl.col("word") == "ZEBRAS").row(0) == ("ZEBRAS", 0, 0, "")
    assert table.filter(pl.col("word") == "CAT").row(0) == ("CAT", 0, 1, "A")
    assert table.filter(pl.col("word") == "DOG").row(0) == ("DOG", 1, 1, "A")


@pytest.mark.slow
def test_every_word_replays_on_a_real_lexicon(words4k):
    _, words, table = words4k
    lexicon = words["word"].to_list()
    got = {w: (m, g, s) for w, m, g, s in table.select("word", "misses", "guesses", "sequence").iter_rows()}
    assert solve_plain(lexicon) == got  # the plain recursive solver, every word
    for word in random.Random(6).sample(lexicon, 600):  # the obvious per-word game, a sample
        assert replay(word, lexicon) == got[word], word


def test_weighted_solver_replays_with_the_setter_prior(words4k):
    _, words, table = words4k
    lexicon = words["word"].to_list()
    zipf = dict(zip(lexicon, words["zipf"].to_list()))
    weight = {w: round(10 ** ((z if z > 0 else 0.0) + 3)) for w, z in zipf.items()}
    assert setter_weights(words["zipf"].to_numpy()).tolist() == [weight[w] for w in lexicon]
    got = {
        w: (m, g, s)
        for w, m, g, s in table.select("word", "misses_weighted", "guesses_weighted", "sequence_weighted").iter_rows()
    }
    assert solve_plain(lexicon, weight) == got
    for word in random.Random(7).sample(lexicon, 150):
        assert replay(word, lexicon, weight.get) == got[word], word
    differ = sum(got[w][2] != s for w, s in table.select("word", "sequence").iter_rows())
    assert differ > 100  # the prior changes many games


def test_setter_weights():
    assert setter_weights(np.array([0.0, 1.0, 3.5])).tolist() == [1000, 10000, round(10**6.5)]
    assert setter_weights(np.array([0.0, 2.0]), unknown_zipf=1.0).tolist() == [10000, 100000]
    assert setter_weights(np.array([0.0, 7.0]), prior="uniform").tolist() == [1, 1]


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.text("ABCDE", min_size=4, max_size=4), min_size=1, max_size=40),
    st.lists(st.integers(1, 1000), min_size=40, max_size=40),
)
def test_solver_matches_replay_on_random_lexicons(words, raw_weights):
    words = sorted(words)
    weights = dict(zip(words, raw_weights))
    for prior in (None, weights):
        misses, guesses, sequences = solve_length(words, None if prior is None else [prior[w] for w in words])
        for word, m, g, s in zip(words, misses.tolist(), guesses.tolist(), sequences):
            assert (m, g, s) == replay(word, words, prior.get if prior else (lambda w: 1))


def test_words_longer_than_the_kernel_takes():
    base = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 3
    words = sorted({base[:70], base[1:71], "Z" * 70, "Q" + base[:69]})
    misses, guesses, sequences = solve_length(words)
    assert [(m, g, s) for m, g, s in zip(misses.tolist(), guesses.tolist(), sequences)] == [
        replay(w, words) for w in words
    ]


# ---- the table and the summary -------------------------------------------------------------------------


def test_seven_word_table_through_the_stage(build):
    """Hardest first by expected misses over fair tie-breaks (DEED: 0 misses by the alphabetical tie-break, 7/6
    expected), then the deterministic misses and guesses."""
    data = build(SEVEN, "hangman")
    table = pl.read_parquet(data / "t" / "hangman.parquet").sort("rank_in_length")
    assert table.select("word", "misses", "guesses", "sequence", "rank_in_length").rows() == [
        ("PEEP", 2, 3, "EDH", 1),
        ("DEED", 0, 2, "ED", 2),
        ("STAR", 1, 1, "E", 3),
        ("HEEL", 1, 3, "EDH", 4),
        ("EYES", 1, 2, "EN", 5),
        ("EVEN", 0, 2, "EN", 6),
        ("MERE", 0, 1, "E", 7),
    ]
    assert table["expected_misses"].to_list() == pytest.approx([7 / 6, 7 / 6, 1, 2 / 3, 1 / 2, 1 / 2, 0], abs=1e-9)
    # strictly easier words of the length (fewer expected misses), as a share: PEEP and DEED beat 5 of the 7
    assert table["percentile_in_length"].to_list() == pytest.approx(
        [100 * 5 / 7, 100 * 5 / 7, 100 * 4 / 7, 100 * 3 / 7, 100 * 1 / 7, 100 * 1 / 7, 0.0], abs=1e-3
    )
    assert table["band"].to_list() == ["hard", "hard", "medium", "medium", "easy", "easy", "easy"]
    assert table["heuristic_score"].to_list() == [heuristic(w) for w in table["word"]]
    assert dict(zip(table["word"], table["heuristic_score"]))["MERE"] == 3 * 5 * (14 + 1 + 9)
    summary = json.loads((data / "t" / "hangman_summary.json").read_text())
    four = summary["lengths"][0]
    assert four["length"] == 4 and four["words"] == 7
    assert four["mean_misses"] == pytest.approx(5 / 7, abs=1e-6)
    assert four["mean_expected_misses"] == pytest.approx((7 / 6 * 2 + 1 + 2 / 3 + 1 / 2 * 2) / 7, abs=1e-6)
    assert four["share_within_gallows"] == 1.0
    assert [h["word"] for h in four["hardest"]] == ["PEEP", "DEED", "STAR", "HEEL", "EYES", "EVEN", "MERE"]
    assert four["heuristic_spearman"] == pytest.approx(
        spearman(table["heuristic_score"].to_list(), table["misses"].to_list()), abs=1e-6
    )


def test_ranks_percentiles_and_bands_within_each_length(words4k):
    _, _, table = words4k
    for (_length,), group in table.group_by("length"):
        n = group.height
        assert sorted(group["rank_in_length"].to_list()) == list(range(1, n + 1))  # a permutation
        rows = group.sort("rank_in_length").select("word", "expected_misses", "misses", "guesses").rows()
        assert rows == sorted(rows, key=lambda r: (-r[1], -r[2], -r[3], r[0]))
        lo, hi = group["heuristic_score"].min(), group["heuristic_score"].max()
        values = group["expected_misses"].to_list()
        for word, e, pct, band, score, hband in group.select(
            "word", "expected_misses", "percentile_in_length", "band", "heuristic_score", "heuristic_band"
        ).iter_rows():
            easier = sum(e2 < e for e2 in values)
            assert pct == pytest.approx(100 * easier / n, abs=1e-3)
            assert band == ("easy" if easier / n < 1 / 3 else "medium" if easier / n < 2 / 3 else "hard")
            assert score == heuristic(word)
            third = (score - lo) / (hi - lo) if hi > lo else 0.5
            assert hband == ("easy" if third < 1 / 3 else "medium" if third < 2 / 3 else "hard")


def test_summary_per_length(words4k):
    data, _, table = words4k
    summary = json.loads((data / "w4k" / "hangman_summary.json").read_text())
    assert summary["words"] == table.height
    assert [s["length"] for s in summary["lengths"]] == sorted(set(table["length"]))
    for entry in summary["lengths"]:
        group = table.filter(pl.col("length") == entry["length"])
        misses = group["misses"].to_list()
        assert entry["words"] == len(misses)
        assert entry["mean_misses"] == pytest.approx(sum(misses) / len(misses), abs=1e-6)
        assert entry["mean_expected_misses"] == pytest.approx(group["expected_misses"].mean(), abs=1e-6)
        assert entry["share_within_gallows"] == pytest.approx(sum(m <= 6 for m in misses) / len(misses), abs=1e-6)
        top = group.sort("rank_in_length").head(10)
        assert [h["word"] for h in entry["hardest"]] == top["word"].to_list()
        if len(misses) >= 3 and len(set(misses)) > 1:
            assert entry["heuristic_spearman"] == pytest.approx(
                spearman(group["heuristic_score"].to_list(), misses), abs=1e-6
            )


def test_bands_by_config_thresholds():
    words = pl.DataFrame({"word": [w.upper() for w in SEVEN]}).with_columns(
        length=pl.lit(4, pl.UInt32),
        letter_mask=pl.lit(0, pl.UInt32),
        vowels=pl.lit(0, pl.UInt32),
        distinct_letters=pl.lit(0, pl.UInt8),
        zipf=pl.lit(0.0),
    )
    table = difficulty_table(words, replace(defaults(), bands="misses", easy_max_misses=0, hard_min_misses=1))
    bands = dict(zip(table["word"], table["band"]))
    assert bands == {  # by expected misses: MERE 0; EVEN, EYES 1/2; HEEL 2/3; STAR 1; DEED, PEEP 7/6
        "MERE": "easy",
        "EVEN": "medium",
        "EYES": "medium",
        "HEEL": "medium",
        "STAR": "hard",
        "DEED": "hard",
        "PEEP": "hard",
    }


def test_stage_output_is_byte_identical_on_rebuild(build, tmp_path):
    first = build(SEVEN + ["cat", "dog", "cow"], "hangman")
    saved = (first / "t" / "hangman.parquet").read_bytes()
    shutil.rmtree(first / "t")
    again = build(SEVEN + ["cat", "dog", "cow"], "hangman")
    assert (again / "t" / "hangman.parquet").read_bytes() == saved


@pytest.mark.parametrize(
    "field, bad, says",
    [
        (
            'bands = "tertiles"',
            'bands = "quartiles"',
            "hangman.bands: expected one of 'tertiles', 'misses', got 'quartiles'",
        ),
        (
            "unknown_zipf = 0.0",
            "unknown_zipf = nan",
            "hangman.unknown_zipf: expected a number, got nan",
        ),  # passed lo/hi
    ],
)
def test_bad_config_field_is_named(cli, tmp_path, word_file, field, bad, says):
    config = config_with(tmp_path, field, bad)
    res = cli(
        "run",
        "hangman",
        "--source",
        word_file(SEVEN),
        "--lexicon",
        "t",
        "--data-dir",
        tmp_path / "out",
        "--config",
        config,
        "--quiet",
    )
    assert res.exit_code == 2 and says in res.stderr, res


# ---- the use cases ---------------------------------------------------------------------------------------


def test_game_and_ranking_use_cases_carry_their_provenance(build):
    import dataclasses

    from pipeline.core.session import open_session
    from pipeline.core.store import Store
    from pipeline.hangman import api, render

    data = build(SEVEN, "hangman")
    recorded = Store(data, "t").manifest()["tables"]
    with open_session(SMALL_CONFIG, data, "t") as s:
        game = api.game(s, api.GameRequest("peep"))
        hard = api.ranking(s, api.RankingRequest(length=(4, 4), hardest=2))
    assert (game.word, game.misses, game.guesses, game.sequence, game.ranking["rank_in_length"]) == (
        "PEEP",
        2,
        3,
        "EDH",
        1,
    )
    assert game.provenance.inputs == {t: recorded[t]["sha256"] for t in ("words.parquet", "hangman.parquet")}
    assert game.provenance.request == {"word": "peep", "weighted": False} and game.provenance.lexicon == "t"
    assert render.game_verdict(game).startswith(
        "solved: 2 misses in 3 guesses (EDH); 1.17 misses expected when ties are broken at random; rank 1 of the 4-"
    )
    assert render.game_json(game)["steps"][0] == {
        "step": 1,
        "guess": "E",
        "result": "hit",
        "pattern": "_ E E _",
        "candidates": 3,
        "misses": 0,
    }
    assert hard.table["word"].to_list() == ["PEEP", "DEED"]
    assert hard.provenance.request["length"] == [4, 4]
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.word = "DEED"  # type: ignore[misc]
    with pytest.raises(WordstatsError, match="--band"):
        api.RankingRequest(band="tricky")


# ---- the CLI ----------------------------------------------------------------------------------------------


def test_cli_trace(cli, build):
    data = build(SEVEN, "hangman")
    res = cli("hangman", "heel", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 0, res
    lines = res.stdout.splitlines()
    assert lines[0].startswith("HEEL: 4 letters, 7 candidates")
    assert [line.split() for line in lines[3:6]] == [
        ["1", "E", "hit", "_", "E", "E", "_", "3", "0"],
        ["2", "D", "miss", "_", "E", "E", "_", "2", "1"],
        ["3", "H", "hit", "H", "E", "E", "_", "1", "1"],
    ]
    assert lines[6].startswith(
        "solved: 1 miss in 3 guesses (EDH); 0.667 misses expected when ties are broken at random; rank 4 of the "
        "4-letter words"
    )
    doc = json.loads(
        cli("hangman", "PEEP", "--json", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG).stdout
    )
    assert (doc["misses"], doc["guesses"], doc["sequence"], doc["rank_in_length"]) == (2, 3, "EDH", 1)
    assert doc["expected_misses"] == pytest.approx(7 / 6, abs=1e-9)
    assert [s["result"] for s in doc["steps"]] == ["hit", "miss", "miss"]
    csv = cli("hangman", "mere", "--csv", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG).stdout
    assert csv.splitlines() == ["step,guess,result,pattern,candidates,misses", "1,E,hit,_ E _ E,1,0"]


def test_cli_trace_agrees_with_the_table(cli, words4k):
    data, words, table = words4k
    sequences = dict(table.select("word", "sequence").iter_rows())
    weighted = dict(table.select("word", "sequence_weighted").iter_rows())
    for word in random.Random(8).sample(words["word"].to_list(), 15):
        doc = json.loads(
            cli(
                "hangman", word.lower(), "--json", "--lexicon", "w4k", "--data-dir", data, "--config", SMALL_CONFIG
            ).stdout
        )
        assert doc["sequence"] == sequences[word]
        for step in doc["steps"]:  # what is revealed is the word's, and the game ends at one candidate
            assert all(p in ("_", ch) for p, ch in zip(step["pattern"].split(), word))
        ones = [s["candidates"] == 1 for s in doc["steps"]]
        assert ones == ([False] * (len(ones) - 1) + [True] if ones else [])
        doc = json.loads(
            cli(
                "hangman",
                word,
                "--weighted",
                "--json",
                "--lexicon",
                "w4k",
                "--data-dir",
                data,
                "--config",
                SMALL_CONFIG,
            ).stdout
        )
        assert doc["sequence"] == weighted[word]


def test_cli_unknown_word_says_so(cli, build):
    data = build(SEVEN, "hangman")
    res = cli("hangman", "boat", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 0 and res.stdout == "" and res.stderr.startswith("note: ")
    assert "BOAT is not in lexicon 't'" in res.stderr and "only knows the lexicon" in res.stderr
    bad = cli("hangman", "bo-at", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert bad.exit_code == 2 and "letters A-Z" in bad.stderr
    both = cli("hangman", "heel", "--json", "--csv", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert both.exit_code == 2 and "choose one of --json and --csv" in both.stderr
    for word in ("ﬁx", "ßtar"):  # capitalised by str.upper these are FIX and SSTAR, still not words typed A-Z
        bad = cli("hangman", word, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
        assert bad.exit_code == 2 and "letters A-Z" in bad.stderr, bad


def test_cli_lists(cli, words4k):
    data, words, table = words4k
    common = dict(words.select("word", "zipf").iter_rows())

    def listed(*args):
        """The words `wordstats hangman ARGS --json` lists."""
        res = cli("hangman", *args, "--json", "--lexicon", "w4k", "--data-dir", data, "--config", SMALL_CONFIG)
        assert res.exit_code == 0, res
        return json.loads(res.stdout)

    six = table.filter(pl.col("length") == 6)
    hardest = listed("--length", "6", "--limit", "20")
    assert [r["word"] for r in hardest] == six.sort("rank_in_length").head(20)["word"].to_list()
    assert [r["rank_in_length"] for r in hardest] == list(range(1, 21))
    easiest = listed("--length", "6", "--easiest", "--limit", "20")
    keyed = sorted(six.select("expected_misses", "misses", "guesses", "word").rows())
    assert [r["word"] for r in easiest] == [row[-1] for row in keyed[:20]]
    hard_common = listed("--band", "hard", "--common")
    expected = {w for w, b in table.select("word", "band").iter_rows() if b == "hard" and common[w] >= 3.0}
    assert {r["word"] for r in hard_common} == expected and len(expected) > 50
    assert [(r["expected_misses"], r["misses"], r["guesses"]) for r in hard_common] == sorted(
        ((r["expected_misses"], r["misses"], r["guesses"]) for r in hard_common), reverse=True
    )
    csv = cli(
        "hangman",
        "--length",
        "3",
        "--limit",
        "2",
        "--csv",
        "--lexicon",
        "w4k",
        "--data-dir",
        data,
        "--config",
        SMALL_CONFIG,
    ).stdout.splitlines()
    assert csv[0].startswith("word,length,misses,guesses,sequence,expected_misses,rank_in_length") and len(csv) == 3


def test_cli_list_errors(cli, build):
    data = build(SEVEN, "ingest")
    args = ("--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    missing = cli("hangman", "--limit", "3", *args)
    assert missing.exit_code == 2 and "hangman.parquet not found" in missing.stderr
    data = build(SEVEN, "hangman")
    for bad, message in (
        (["--band", "tricky"], "--band"),
        (["--length", "x"], "--length"),
        (["heel", "--length", "4"], "WORD"),
        (["--length", "0"], "--length"),
    ):
        res = cli("hangman", *bad, *args)
        assert res.exit_code == 2 and message in res.stderr, res
    none = cli("hangman", "--length", "9", *args)
    assert none.exit_code == 0 and "no words in lexicon 't' match (length 9)" in none.stderr
    every = cli("hangman", "--json", *args).stdout
    for many in ((), ("--easiest",)):  # --limit 0: every word
        res = cli("hangman", *many, "--limit", "0", "--json", *args)
        assert res.exit_code == 0 and len(json.loads(res.stdout)) == len(json.loads(every)) == len(SEVEN), res

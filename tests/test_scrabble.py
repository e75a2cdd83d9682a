"""Scrabble: the move generator against a brute-force reference, known scores, parsing, stage and CLI."""

from __future__ import annotations

import csv as csv_module
import io
import json
import random
from collections import Counter

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import LETTERS
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import best_plays, generate, record_tiles
from pipeline.scrabble.play.summary import game_row
from pipeline.scrabble.play.turns import game_rng, self_play
from pipeline.scrabble.render import plays_table
from pipeline.scrabble.rules.board import Board, Tile, leave, parse_board, parse_rack
from pipeline.scrabble.rules.notation import IllegalPlay
from pipeline.scrabble.rules.openings import blanks_needed
from pipeline.scrabble.rules.openings import openings as sc_openings
from pipeline.scrabble.rules.scoring import evaluate, score_play
from pipeline.scrabble.rules.variant import KEEP_MAX, Variant, variants
from tests.conftest import (
    DEFAULT_CONFIG,
    ROOT,
    SMALL_CONFIG,
    build_lexicon,
    config_with,
)
from tests.reference.scrabble import brute_force

MOBY = ROOT / "data" / "raw" / "moby-words.txt"


@pytest.fixture(scope="module")
def games():
    """The variants of the default config."""
    return variants(load_config(DEFAULT_CONFIG))


@pytest.fixture(scope="module")
def small_words():
    """A small real lexicon: every two-letter Moby word and a seeded sample of longer ones."""
    words = MOBY.read_text().upper().split()
    rng = random.Random(8)
    short = [w for w in words if len(w) == 2]
    longer = rng.sample([w for w in words if 3 <= len(w) <= 8], 500)
    return sorted(set(short + longer))


def board_of(rows: list[str]) -> Board:
    """A board from up to 15 text rows (missing rows and columns empty)."""
    rows = [r.ljust(15, ".") for r in rows] + ["." * 15] * (15 - len(rows))
    return parse_board("\n".join(rows))


# ---- the move generator against the brute-force reference ---------------------------------------


def fast(board: Board, rack: str, lexicon: Lexicon, game: Variant) -> dict:
    """{placed tiles: score} of every play the move generator finds (each exactly once)."""
    records, total = generate(board, rack, game, lexicon)
    assert total == len(records)
    plays = {}
    for record in records:
        tiles, _ = record_tiles(record)
        key = frozenset((t.row, t.col, t.letter) for t in tiles)
        assert key not in plays, f"play generated twice: {sorted(key)}"
        plays[key] = int(record[0])
    return plays


def random_rack(rng: random.Random, game: Variant, blanks: int) -> str:
    """Seven tiles from the bag: two vowels, then any, then `blanks` blanks."""
    bag = [ch for ch, n in game.tile_set.counts.items() for _ in range(n) if ch != "?"]
    return "".join(rng.sample("AEIOU", 2) + rng.sample(bag, 5 - blanks)) + "?" * blanks


def random_position(seed: int, lexicon: Lexicon, game: Variant) -> tuple[Board, random.Random]:
    """A board after 0 to 8 random legal plays from random racks, and the random stream that made it."""
    rng = random.Random(seed)
    board = Board()
    for _ in range(seed % 9):
        records, _ = generate(board, random_rack(rng, game, 1), game, lexicon)
        if len(records):
            board.put(record_tiles(records[rng.randrange(len(records))])[0])
    return board, rng


@pytest.mark.parametrize("variant", ["scrabble", "wwf"])
@pytest.mark.parametrize("seed", range(16))
def test_generator_matches_brute_force(seed, variant, games, small_words):
    game = games[variant]
    lexicon = Lexicon(small_words)
    board, rng = random_position(seed, lexicon, game)
    for _ in range(5):  # racks with 0, 1 or 2 blanks, until one has a legal play
        rack = random_rack(rng, game, seed % 3)
        expected = brute_force(board, rack, small_words, game)
        assert fast(board, rack, lexicon, game) == expected
        if expected:
            break
    assert expected, "a test position without legal plays proves little"
    if board.is_empty:  # an opening and its mirror image across the diagonal are listed once
        expected = {min(tuple(sorted(k)), tuple(sorted((c, r, x) for r, c, x in k))): v for k, v in expected.items()}
    best = sorted(expected.values(), reverse=True)[:5]
    assert [p.score for p in best_plays(board, rack, game, lexicon, top=5)] == best


def test_generator_matches_brute_force_on_a_crowded_board(games, small_words):
    game = games["scrabble"]
    lexicon = Lexicon(small_words)
    board, rng = random_position(6, lexicon, game)
    for _ in range(40):
        records, _ = generate(board, random_rack(rng, game, 1), game, lexicon)
        if len(records):
            board.put(record_tiles(records[rng.randrange(len(records))])[0])
    assert (board.tiles >= 0).sum() > 30
    expected = brute_force(board, "AEIRST?", small_words, game)
    assert fast(board, "AEIRST?", lexicon, game) == expected


def test_generated_plays_obey_the_rules_checker(games, small_words):
    game = games["wwf"]
    lexicon = Lexicon(small_words)
    board, rng = random_position(5, lexicon, game)
    records, _ = generate(board, random_rack(rng, game, 1), game, lexicon)
    assert len(records) > 20
    for record in records:
        tiles, direction = record_tiles(record)
        assert evaluate(board, tiles, game, lexicon, direction).score == record[0]


# ---- known scores -------------------------------------------------------------------------------


LEX = Lexicon(["QI", "QUIRES", "RETAINS", "CAT", "CATS", "CA", "AX", "AXE", "TA", "AT", "ZA", "ZAX"])


@pytest.mark.parametrize(
    "variant, play, score",
    [
        ("scrabble", "8H QI", 22),  # centre doubles the word
        ("wwf", "8H QI", 11),  # the WWF centre does not
        ("scrabble", "8D QUIRES", 50),  # Q on the double letter 8D: (20 + 5) × 2
        ("scrabble", "8H RETAINS", 66),  # I on 8L doubled: (1+1+1+1+2+1+1) × 2 + 50
        ("scrabble", "8H RETAiNS", 62),  # the blank I scores 0 even on 8L: 6 × 2 + 50
        ("wwf", "8H RETAINS", 51),  # 8L is a double word in WWF; N is worth 2: 8 × 2 + 35
        ("scrabble", "H8 QI", 22),  # down through the centre
    ],
)
def test_opening_scores(variant, play, score, games):
    result = score_play(Board(), play, games[variant], LEX)
    assert result.score == score


def test_cross_words_and_premiums_only_under_new_tiles(games):
    board = board_of([""] * 7 + ["......CAT"])  # CAT on 8G-8I, its A on the centre square
    play = score_play(board, "9G AX", games["scrabble"], LEX)
    # AX: A on the double letter 9G (2) + X 8 = 10; CA: C 3 + A 1×2 = 5; AX down: A on the old centre
    # square earns no premium: 1 + 8 = 9.
    assert [(w.word, w.score) for w in (play.main, *play.cross)] == [("AX", 10), ("CA", 5), ("AX", 9)]
    assert play.score == 24


def test_blank_on_the_board_scores_zero(games):
    board = board_of([""] * 7 + ["......CaT"])
    play = score_play(board, "8G (CaT)S", games["scrabble"], LEX)
    assert play.score == 3 + 0 + 1 + 1
    assert play.display == "(CaT)S"


def test_bingo_bonus_needs_all_seven_tiles(games):
    rack = "AEINRST"
    best = best_plays(Board(), rack, games["scrabble"], LEX, top=1)[0]
    assert (best.display, best.score, best.bingo) == ("RETAINS", 66, 50)
    assert plays_table([best], rack)["leave"].to_list() == [""]


def test_one_tile_play_is_reported_once(games):
    board = board_of([""] * 7 + ["......Z", ".......T"])  # Z on 8G, T on 9H
    lexicon = Lexicon(["ZA", "AT", "TA"])
    plays = fast(board, "A", lexicon, games["scrabble"])
    assert plays == brute_force(board, "A", ["ZA", "AT", "TA"], games["scrabble"])
    assert plays == {
        frozenset({(7, 7, "A")}): 22 + 4,  # ZA across and AT down, both doubled by the centre
        frozenset({(8, 6, "A")}): 3 + 12,  # AT across, A on 9G's double letter; ZA down
        frozenset({(9, 7, "A")}): 2,  # TA down
        frozenset({(8, 8, "A")}): 3,  # TA across, A on 9I's double letter
    }
    positions = {p.position for p in best_plays(board, "A", games["scrabble"], lexicon)}
    assert positions == {"8G", "9G", "H9", "9H"}  # a tile making an across word is written across


@pytest.mark.parametrize(
    "play, reason",
    [
        ("8A QUIRES", "centre"),
        ("8H QUIRE", "not a word"),
        ("8H Q", "one letter"),
        ("8K QUIRES", "off the board"),
    ],
)
def test_illegal_openings(play, reason, games):
    with pytest.raises(IllegalPlay, match=reason):
        score_play(Board(), play, games["scrabble"], LEX)


def test_illegal_later_plays(games):
    board = board_of([""] * 7 + ["......CAT"])
    game = games["scrabble"]
    with pytest.raises(IllegalPlay, match="does not touch"):
        score_play(board, "1A QI", game, LEX)
    with pytest.raises(IllegalPlay, match="holds A"):
        score_play(board, "8G CXT", game, LEX)
    with pytest.raises(IllegalPlay, match="continues into"):
        score_play(board, "8H (AT)S", game, LEX)
    with pytest.raises(IllegalPlay, match="rack"):
        score_play(board, "9G AX", game, LEX, rack="AAB")
    with pytest.raises(IllegalPlay, match="CX is not a word"):  # a cross-word
        score_play(board, "9G XA", game, Lexicon(["XA", "AA"]))
    # XA: X on 9G's double letter 16 + A 1; CX: C 3 + X 16 (the premium counts in both words); AA: 2
    assert score_play(board, "9G XA", game, Lexicon(["XA", "AA", "CX"])).score == 17 + 19 + 2


# ---- boards and racks ----------------------------------------------------------------------------


def test_board_round_trip_and_empty_file():
    board = board_of([""] * 7 + ["......CaT"])
    assert parse_board(board.text()).text() == board.text()
    assert parse_board(board.text().replace("\n", "\r\n")).text() == board.text()
    assert parse_board("").is_empty and parse_board("\n\n").is_empty
    assert board.letter(7, 7) == "a" and board.letter(7, 6) == "C"


@pytest.mark.parametrize(
    "text, where",
    [
        ("." * 15 + "\n" + "....#" + "." * 10 + "\n" + ("." * 15 + "\n") * 13, "line 2, column 5"),
        (("." * 15 + "\n") * 3 + "." * 14 + "\n" + ("." * 15 + "\n") * 11, "line 4, column 15"),
        (("." * 15 + "\n") * 3 + "." * 16 + "\n" + ("." * 15 + "\n") * 11, "line 4, column 16"),
        (("." * 15 + "\n") * 14, "line 15"),
        (("." * 15 + "\n") * 16, "line 16"),
        ("." * 14 + "1\n" + ("." * 15 + "\n") * 14, "line 1, column 15"),
    ],
)
def test_board_errors_name_line_and_column(text, where):
    with pytest.raises(WordstatsError, match=where) as info:
        parse_board(text, "b.txt")
    assert "\n" not in str(info.value) and str(info.value).startswith("b.txt")


SQUARES = st.sampled_from(".....ABCXYZqz")
ROWS = st.lists(st.text(SQUARES, min_size=15, max_size=15), min_size=15, max_size=15)


@settings(max_examples=40, deadline=None)
@given(rows=ROWS, row=st.integers(0, 14), col=st.integers(0, 14), bad=st.sampled_from("#1 _-*é"))
def test_board_parse_property(rows, row, col, bad):
    text = "\n".join(rows) + "\n"
    board = parse_board(text)
    assert board.text() == text
    assert int((board.tiles >= 0).sum()) == sum(ch != "." for r in rows for ch in r)
    broken = rows[:row] + [rows[row][:col] + bad + rows[row][col + 1 :]] + rows[row + 1 :]
    with pytest.raises(WordstatsError, match=f"line {row + 1}, column {col + 1}:"):
        parse_board("\n".join(broken))


@pytest.mark.parametrize(
    "rack, message",
    [("ABCDEFGH", "at most 7"), ("AB1", "character 3"), ("", "empty"), ("ß", "character 1"), ("AEıRST", "character 3")],
)
def test_rack_errors(rack, message):
    with pytest.raises(WordstatsError, match=message):
        parse_rack(rack)


def test_rack_and_leave():
    assert parse_rack("ab?c") == "AB?C"
    assert leave("AB?CE?", [Tile(0, 0, "B"), Tile(0, 1, "x")]) == "ACE?"


# ---- openings and self-play -----------------------------------------------------------------------


def test_openings_match_the_move_generator(games, small_words):
    sample = random.Random(3).sample([w for w in small_words if len(w) <= 7], 25) + ["ZZZ", "PIZZA"]
    for name, game in games.items():
        table = {r["word"]: r for r in sc_openings(sample, game).iter_rows(named=True)}
        for word in sample:
            blanks = sum(blanks_needed(word, game).values())
            rack = (
                "".join(
                    sorted((Counter(word) - Counter({ch: n for ch, n in blanks_needed(word, game).items()})).elements())
                )
                + "?" * blanks
            )
            records, _ = generate(Board(), rack, game, Lexicon(small_words + [word]))
            scores = [
                int(r[0])
                for r in records
                if "".join(LETTERS[c] for c in r[7 : 7 + int(r[4])]) == word and int(r[4]) == len(word)
            ]
            assert table[word]["score"] == max(scores), (name, word)
            assert table[word]["bingo"] == (len(word) == 7)
    assert table["ZZZ"]["blanks"] == 2 and table["PIZZA"]["blanks"] == 1


def test_openings_known_values(games):
    table = sc_openings(["QI", "MUZJIKS", "ZZZZ", "A"], games["scrabble"])
    rows = {r["word"]: r for r in table.iter_rows(named=True)}
    assert set(rows) == {"QI", "MUZJIKS", "ZZZZ"}
    assert (rows["QI"]["score"], rows["QI"]["position"]) == (22, "8G")
    # MUZJIKS from 8B: M3 U1 Z10×2 (8D) J8 I1 K5 S1 = 38, × 2 + 50
    assert (rows["MUZJIKS"]["score"], rows["MUZJIKS"]["position"], rows["MUZJIKS"]["bingo"]) == (128, "8B", True)
    assert rows["ZZZZ"]["score"] is None  # one Z and two blanks cannot spell it


def test_self_play_is_seeded_and_keeps_every_tile(games, small_words):
    game = games["scrabble"]
    lexicon = Lexicon(small_words)
    one = self_play(game, lexicon, game_rng(5, "scrabble", 1))
    two = self_play(game, lexicon, game_rng(5, "scrabble", 1))
    assert game_row(one, 1) == game_row(two, 1)
    row = game_row(one, 1)
    assert row["moves"] > 3
    last = one.turns[-1]
    board = last.board.copy()
    if last.play:
        board.put(last.play.tiles)
    assert (board.tiles >= 0).sum() == sum(len(t.play.tiles) for t in one.turns if t.play)
    adjustments = sum(one.scores) - row["move_points"]
    assert adjustments <= 0  # going out moves points between players; passing out only loses them


# ---- the stage and the CLI ------------------------------------------------------------------------


def test_stage_tables(build, small_words):
    data = build(small_words, "scrabble")
    openings = pl.read_parquet(data / "t" / "openings.parquet")
    assert openings.columns[:2] == ["word", "length"]
    assert {"scrabble_score", "scrabble_position", "wwf_score", "wwf_bingo"} <= set(openings.columns)
    assert openings["word"].to_list() == sorted(w for w in small_words if len(w) <= 7)
    games = pl.read_parquet(data / "t" / "selfplay.parquet")
    assert games.height == 4 and games["variant"].to_list() == ["scrabble"] * 2 + ["wwf"] * 2
    summary = json.loads((data / "t" / "selfplay_summary.json").read_text())
    moves = games.filter(pl.col("variant") == "scrabble")["moves"].sum()
    points = games.filter(pl.col("variant") == "scrabble")["move_points"].sum()
    assert summary["scrabble"]["average_score_per_move"] == round(points / moves, 3)
    first = (data / "t" / "selfplay.parquet").read_bytes()
    build(small_words, "scrabble")
    assert (data / "t" / "selfplay.parquet").read_bytes() == first


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory):
    """A data folder with a tiny lexicon's words.parquet."""
    return build_lexicon(
        tmp_path_factory.mktemp("scrabble") / "out",
        ["QI", "QUIRES", "RETAINS", "CAT", "CATS", "CA", "AX", "AXE", "TA", "AT"],
        "ingest",
    )


def test_cli_best_opening(cli, lexicon_dir):
    res = cli(
        "scrabble",
        "best",
        "--empty",
        "--rack",
        "AEINRST",
        "--limit",
        "3",
        "--json",
        "--lexicon",
        "t",
        "--data-dir",
        lexicon_dir,
        "--config",
        SMALL_CONFIG,
    )
    assert res.exit_code == 0, res
    plays = json.loads(res.stdout)
    # RETAINS scores 66 from 12 starts (a premium letter doubled, × 2, + 50); ties keep board order
    assert plays[0] == {
        "position": "8B",
        "word": "RETAINS",
        "score": 66,
        "tiles": 7,
        "bingo": True,
        "cross_words": [],
        "leave": "",
    }
    assert [(p["position"], p["word"], p["score"]) for p in plays[1:]] == [("8C", "RETAINS", 66), ("8D", "RETAINS", 66)]


def test_cli_best_without_a_play_says_so_and_prints_empty_json(cli, lexicon_dir):
    """No legal play: a note on stderr, exit 0, and with --json an empty list (valid JSON), never nothing."""
    common = ("--lexicon", "t", "--data-dir", lexicon_dir, "--config", SMALL_CONFIG)
    res = cli("scrabble", "best", "--empty", "--rack", "VVCCJQZ", "--json", *common)
    assert res.exit_code == 0 and json.loads(res.stdout) == [] and "no legal play" in res.stderr, res


def test_cli_best_on_a_board(cli, lexicon_dir, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(board_of([""] * 7 + ["......CAT"]).text())
    res = cli(
        "scrabble",
        "best",
        "--board",
        board,
        "--rack",
        "XAE",
        "--lexicon",
        "t",
        "--data-dir",
        lexicon_dir,
        "--config",
        SMALL_CONFIG,
    )
    assert res.exit_code == 0, res
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["position", "word", "score", "tiles", "bingo", "cross_words", "leave"]
    plays = json.loads(
        cli(
            "scrabble",
            "best",
            "--board",
            board,
            "--rack",
            "XAE",
            "--lexicon",
            "t",
            "--json",
            "--data-dir",
            lexicon_dir,
            "--config",
            SMALL_CONFIG,
        ).stdout
    )
    reference = brute_force(
        board_of([""] * 7 + ["......CAT"]),
        "XAE",
        ["QI", "QUIRES", "RETAINS", "CAT", "CATS", "CA", "AX", "AXE", "TA", "AT"],
        variants(load_config(SMALL_CONFIG))["scrabble"],
    )
    assert [p["score"] for p in plays] == sorted(reference.values(), reverse=True)[:10]
    assert lines[2].split()[:3] == [plays[0]["position"], plays[0]["word"], str(plays[0]["score"])]
    csv = cli(
        "scrabble",
        "best",
        "--board",
        board,
        "--rack",
        "XAE",
        "--lexicon",
        "t",
        "--csv",
        "--limit",
        "1",
        "--data-dir",
        lexicon_dir,
        "--config",
        SMALL_CONFIG,
    ).stdout.splitlines()
    best = plays[0]
    assert csv[1] == (
        f"{best['position']},{best['word']},{best['score']},{best['tiles']},false,"
        f"{' '.join(best['cross_words'])},{best['leave']}"
    )


def test_cli_score_breakdown_and_illegal(cli, lexicon_dir, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(board_of([""] * 7 + ["......CAT"]).text())
    common = ["--lexicon", "t", "--data-dir", lexicon_dir, "--config", SMALL_CONFIG]
    res = cli("scrabble", "score", "--board", board, "--play", "9G AX", "--json", *common)
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    assert [(r["part"], r["word"], r["score"]) for r in rows] == [
        ("main", "AX", 10),
        ("cross", "CA", 5),
        ("cross", "AX", 9),
        ("total", "9G AX", 24),
    ]
    res = cli("scrabble", "score", "--board", board, "--play", "1A QI", *common)
    assert res.exit_code == 1 and "does not touch" in res.stdout
    res = cli("scrabble", "score", "--board", board, "--play", "1A QI", "--csv", *common)
    assert res.exit_code == 1 and list(csv_module.DictReader(io.StringIO(res.stdout))) == [
        {"play": "1A QI", "legal": "false", "reason": "the play does not touch any tile on the board"}
    ]
    res = cli("scrabble", "score", "--board", board, "--play", "1A QI", "--json", "--csv", *common)
    assert res.exit_code == 2 and "choose one of --json and --csv" in res.stderr
    res = cli("scrabble", "score", "--board", board, "--play", "9G", *common)
    assert res.exit_code == 2 and "expected a position and a word" in res.stderr
    res = cli("scrabble", "score", "--empty", "--play", "8H RETAINS", "--variant", "wwf", *common)
    assert res.exit_code == 0 and res.stdout.splitlines()[-1].split()[-1] == "51"


def test_cli_user_errors(cli, lexicon_dir, tmp_path):
    common = ["--lexicon", "t", "--data-dir", lexicon_dir, "--config", SMALL_CONFIG]
    bad = tmp_path / "bad.txt"
    bad.write_text(("." * 15 + "\n") * 2 + "..3" + "." * 12 + "\n" + ("." * 15 + "\n") * 12)
    res = cli("scrabble", "best", "--board", bad, "--rack", "AB", *common)
    assert res.exit_code == 2 and "line 3, column 3" in res.stderr and len(res.stderr.splitlines()) == 1
    res = cli("scrabble", "best", "--empty", "--rack", "ABCDEFGH", *common)
    assert res.exit_code == 2 and "at most 7" in res.stderr
    res = cli("scrabble", "best", "--rack", "AB", *common)
    assert res.exit_code == 2 and "--empty" in res.stderr
    res = cli("scrabble", "best", "--empty", "--rack", "AB", "--variant", "nope", *common)
    assert res.exit_code == 2 and "unknown variant" in res.stderr
    res = cli("scrabble", "best", "--board", tmp_path / "missing.txt", "--rack", "AB", *common)
    assert res.exit_code == 2 and "not found" in res.stderr
    res = cli("scrabble", "best", "--empty", "--rack", "VV", *common)
    assert res.exit_code == 0 and "no legal play" in res.stderr
    res = cli("scrabble", "best", "--empty", "--rack", "QQ", *common)  # the bag has one Q
    assert res.exit_code == 2 and "2 Q tiles" in res.stderr


def test_best_plays_with_a_huge_top_lists_every_play_best_first(games, small_words):
    lexicon, board = Lexicon(small_words), board_of([""] * 7 + [".....CAT"])
    every = best_plays(board, "AEIRST?", games["scrabble"], lexicon, top=KEEP_MAX)
    assert len(every) < KEEP_MAX  # all of them
    huge = best_plays(board, "AEIRST?", games["scrabble"], lexicon, top=10**12)  # no room made for 10**12
    assert [(p.position, p.display, p.score) for p in huge] == [(p.position, p.display, p.score) for p in every]


def test_negative_selfplay_seed_is_a_config_error(cli, tmp_path):
    config = config_with(tmp_path, "seed = 8", "seed = -1")  # numpy's generator takes no negative seed
    words = tmp_path / "w.txt"
    words.write_text("qi\nza\n")
    res = cli(
        "run", "scrabble", "--source", words, "--lexicon", "t", "--data-dir", tmp_path / "out", "--config", config
    )
    assert res.exit_code == 2 and "field scrabble.selfplay.seed: must be at least 0, got -1" in res.stderr, res

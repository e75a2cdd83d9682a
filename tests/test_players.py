"""Word-game players: ENABLE as the default lexicon, boards shown and played, GCG games, leave values, equity."""

from __future__ import annotations

import hashlib
import json
import random
import re
import xml.etree.ElementTree as ET

import numpy as np
import polars as pl
import pytest

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
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
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import generate, record_tiles
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.strategy import GREEDY
from pipeline.scrabble.play.summary import log_row
from pipeline.scrabble.play.turns import game_of, game_rng, self_play
from pipeline.scrabble.records.gcg import (
    CHALLENGE,
    END_PENALTY,
    END_POINTS,
    EXCHANGE,
    PASS,
    PLAY,
    TIME,
    WITHDRAWN,
    decode_gcg,
    game_gcg,
    parse_gcg,
    read_gcg,
    replay,
)
from pipeline.scrabble.records.render import board_png, board_svg, board_text
from pipeline.scrabble.rules.board import Board, leave, parse_board
from pipeline.scrabble.rules.notation import parse_play
from pipeline.scrabble.rules.scoring import check_bag, score_play
from pipeline.scrabble.rules.variant import variants
from tests.conftest import DEFAULT_CONFIG, ENABLE, ROOT, build_lexicon, config_with, run_cli
from tests.reference.scrabble import reference_game
from tests.support.gcg import HAND

ENABLE_SHA256 = "d3fbe8485022088fcf527edcde2fbdc18b4bbc141ac58123c9adb462e086eaf7"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """ENABLE built into a data folder (ingest and a few-game leaves stage) with the small test config."""
    out = tmp_path_factory.mktemp("players") / "out"
    return build_lexicon(out, ENABLE, "ingest", "indexes", "leaves", lexicon="t")


def cli_in(cli, data, *args, input: str | None = None):
    """A command on the ENABLE test lexicon."""
    from tests.conftest import SMALL_CONFIG

    return cli(*args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, input=input)


# ---- ENABLE, the default game lexicon -------------------------------------------------------------


def test_enable_is_bundled_and_the_default():
    assert hashlib.sha256(ENABLE.read_bytes()).hexdigest() == ENABLE_SHA256
    assert ENABLE_SHA256 in (ROOT / "data" / "raw" / "SOURCES.md").read_text()
    config = load_config(DEFAULT_CONFIG)
    assert config.default_lexicon == "enable"
    assert {"enable", "moby", "web2"} <= set(config.lexicons)
    assert config.lexicons["enable"].sources[0].sha256 == ENABLE_SHA256


def test_enable_has_the_classic_words_and_not_the_later_ones(enable_words):
    words = set(enable_words)
    assert len(words) == 172_820
    assert {"AA", "RETAINS", "ZYZZYVA", "BOUSTROPHEDONIC", "MUZJIKS"} <= words
    assert not {"QI", "KI", "ZA"} & words  # ENABLE predates them (docs/lexicons.md says so)


def test_docs_name_the_lexicons_and_the_missing_words():
    text = (ROOT / "docs" / "lexicons.md").read_text()
    for name in ("`enable`", "`moby`", "`web2`", "QI, KI and ZA", "default_lexicon"):
        assert name in text


# ---- notation and rules ---------------------------------------------------------------------------


def board_of(rows: list[str]) -> Board:
    """A board from up to 15 rows (missing squares empty)."""
    rows = [r.ljust(15, ".") for r in rows] + ["." * 15] * (15 - len(rows))
    return parse_board("\n".join(rows))


RETAINS = board_of([""] * 7 + ["...RETAINS"])


def test_one_tile_play_in_either_direction(scrabble, lexicon):
    down = score_play(RETAINS, "D9 E", scrabble, lexicon)  # RE down from D8
    across = score_play(RETAINS, "9D E", scrabble, lexicon)
    assert down.score == across.score == 2 and down.main.word == across.main.word == "RE"
    assert str(down) == "D8 (R)E"
    # a tile that makes an across word only: written down, it still scores that word
    board = board_of([""] * 7 + ["...RETAIN"])
    a = score_play(board, "8J S", scrabble, lexicon)
    d = score_play(board, "J8 S", scrabble, lexicon)
    assert a.score == d.score == 7 and a.main.word == "RETAINS"  # R1 E1 T1 A1 I1 N1 S1, no premium left


def test_lower_case_is_a_blank_and_the_bag_limits_blanks(scrabble, lexicon):
    with pytest.raises(WordstatsError, match="7 blanks .* has 2"):
        score_play(Board(), "8H retains", scrabble, lexicon)
    play = score_play(Board(), "8D RETAiNs", scrabble, lexicon)
    assert play.score == (2 + 1 + 1 + 1 + 0 + 1 + 0) * 2 + 50  # R on a double letter, blanks 0
    with pytest.raises(WordstatsError, match="2 Z tiles"):
        check_bag(board_of([""] * 7 + ["......ZA"]), "Z", [], scrabble)
    with pytest.raises(WordstatsError, match="3 blanks"):
        check_bag(board_of([""] * 7 + ["......aB"]), "??", [], scrabble)


def test_played_through_tiles_need_no_parentheses(scrabble, lexicon):
    tiles, _ = parse_play("D8 RAJ", RETAINS)
    assert [t.letter for t in tiles] == ["A", "J"]
    assert score_play(RETAINS, "D8 (R)AJ", scrabble, lexicon).score == 10


# ---- show and play through the CLI --------------------------------------------------------------


def test_play_writes_the_new_board_and_prints_the_leave(cli, data, tmp_path):
    out = tmp_path / "b.txt"
    res = cli_in(cli, data, "scrabble", "play", "--empty", "--play", "8D RETAINS", "--rack", "aeinrst", "--out", out)
    assert res.exit_code == 0, res
    assert re.search(r"total\s+8D RETAINS\s+66", res.stdout) and "leave: (none)" in res.stdout
    assert out.read_text() == RETAINS.text()
    res = cli_in(cli, data, "scrabble", "play", "--board", out, "--play", "9F OD", "--rack", "DO?", "--json")
    doc = json.loads(res.stdout)
    assert doc["score"] == 12 and doc["leave"] == "?"  # OD 1 + 2x2, TO 2, AD 1 + 2x2
    assert doc["board"][9].split()[6:8] == ["O", "D"]  # row 9, columns F and G
    again = cli_in(cli, data, "scrabble", "play", "--board", out, "--play", "9F OD", "--out", out)
    assert again.exit_code == 0, again  # continuing a game in its own file
    assert "OD" in out.read_text().splitlines()[8]


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--empty", "--play", "8H retains"], 2, "7 blanks"),
        (["--empty", "--play", "8H RETAINS", "--rack", "A???"], 2, "3 blanks, at most 2"),
        (["--empty", "--play", "8H RETAINX"], 1, "RETAINX is not a word"),
        (["--empty", "--play", "8H RETAINS", "--rack", "RETAIN"], 1, "has no S"),
        (["--empty", "--play", "9 RETAINS"], 2, "bad position"),
    ],
)
def test_bad_plays_are_one_line(cli, data, args, code, message):
    res = cli_in(cli, data, "scrabble", "play", *args)
    assert res.exit_code == code, res
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_show_text_svg_png(cli, data, tmp_path, scrabble):
    path = tmp_path / "b.txt"
    path.write_text(board_of([""] * 7 + ["...RETAiNS"]).text())
    res = cli(*["scrabble", "show", path])
    assert res.exit_code == 0, res
    lines = res.stdout.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert lines[8].split() == ["8", "=", ".", ".", "R", "E", "T", "A", "i", "N", "S", ".", "'", ".", ".", "="]
    assert lines[1].split()[1] == "=" and "triple word" in lines[-1]
    svg = ET.fromstring(board_svg(parse_board(path.read_text()), scrabble))
    rects = [e for e in svg.iter() if e.tag.endswith("rect")]
    assert len(rects) == 1 + 225
    png = tmp_path / "b.png"
    assert cli("scrabble", "show", path, "--out", png).exit_code == 0
    from PIL import Image

    image = Image.open(png)
    assert image.size == (626, 626) and png.read_bytes() == board_png(parse_board(path.read_text()), scrabble)
    assert cli("scrabble", "show", path, "--out", png).exit_code == 2  # exists: needs --force
    bad = cli("scrabble", "show", path, "--out", tmp_path / "b.gif")
    assert bad.exit_code == 2 and "use .svg, .png" in bad.stderr


def test_board_text_marks_premiums(scrabble):
    text = board_text(Board(), scrabble).splitlines()
    assert text[8].split()[1:] == list("=..'...*...'..=")


# ---- GCG ----------------------------------------------------------------------------------------


def test_hand_written_gcg_parses_every_event():
    game = parse_gcg(HAND)
    assert game.players == [("ann", "Ann Example"), ("bob", "Bob Example")]
    kinds = [e.kind for e in game.events]
    assert kinds == [PLAY, PLAY, PLAY, PLAY, WITHDRAWN, CHALLENGE, EXCHANGE, PASS, TIME, END_PENALTY, END_POINTS]
    assert game.events[1].note.startswith("R on the board")
    assert game.events[6].move == "QUX" and game.events[10].move == "ABC"


def test_hand_written_gcg_replays_clean(scrabble, lexicon):
    steps = replay(parse_gcg(HAND), scrabble, lexicon)
    assert [s.problems for s in steps] == [[]] * len(steps)
    assert steps[3].phonies == ["QI", "QN"]  # a phony on ENABLE, withdrawn next
    assert steps[4].board.text() == steps[2].board.text()  # QI came off the board
    assert [s.our_total for s in steps][-2:] == [63, 14]


def test_replay_reports_each_discrepancy(scrabble, lexicon, cli, data, tmp_path):
    wrong = HAND.replace(">ann: DEGIOUY 9F OD +12 78", ">ann: DEGIOUY 9F OD +15 81")
    steps = replay(parse_gcg(wrong), scrabble, lexicon)
    bad = {s.number: s.problems for s in steps if s.problems}
    assert "score +15 in the record, +12 by the rules" in bad[3][0]
    assert list(bad) == [3, 6]  # and the record's 83 after the bonus does not follow its own 81 + 5
    path = tmp_path / "g.gcg"
    path.write_text(wrong)
    res = cli_in(cli, data, "scrabble", "replay", path, "--json")
    assert res.exit_code == 1
    rows = json.loads(res.stdout)
    assert rows[2]["problems"] and rows[0]["best_score"] >= 66 and rows[0]["equity"] is not None
    shown = cli_in(cli, data, "scrabble", "replay", path, "--move", "3", "--no-best")
    assert shown.exit_code == 0 and "= . . R E T A I N S" in shown.stdout


@pytest.mark.parametrize(
    "text, message",
    [
        ("#player1 a A\n#player2 b B\n>c: ABC 8H CAB +14 14\n", "line 3: unknown player 'c'"),
        ("#player1 a A\n#player2 b B\n>a: ABC 8H CAB +x 14\n", "line 3: expected '+score total'"),
        ("#player1 a A\n>a: ABC 8H CAB +14 14\n", "needs #player1 and #player2"),
        ("#player1 a A\n#player2 b B\nhello\n", "line 3: expected '#pragma'"),
    ],
)
def test_bad_gcg_is_a_one_line_error(text, message):
    with pytest.raises(WordstatsError, match=re.escape(message)):
        parse_gcg(text)


# A record as other programs write it: CRLF line ends, a note over several lines, a `#-` continuation.
DOS = (
    "#character-encoding UTF-8\r\n#player1 ann Ann Example\r\n#player2 bob Bob Example\r\n"
    "#description a club game\r\n#- second round\r\n"
    ">ann: AEINRST 8D RETAINS +66 66\r\n#note a bingo first\r\nand the note goes on here\r\n"
    "#- and here\r\n>bob: ADEJOQU D8 .AJ +10 10\r\n"
)


def test_gcg_from_other_programs_reads_as_written():
    """Notes over several lines, `#-` continuations and CRLF line ends, with line numbers as an editor shows."""
    game = parse_gcg(DOS)
    assert game.events[0].note == "a bingo first\nand the note goes on here\nand here"
    assert game.pragmata["description"] == "a club game\nsecond round"
    assert [e.line for e in game.events] == [6, 10]
    for ending in ("\r\n", "\r", "\n"):
        bad = DOS.replace("\r\n", ending) + f"#player3 cy{ending}>ann: X{ending}"
        with pytest.raises(WordstatsError, match="line 12: "):
            parse_gcg(bad)
    with pytest.raises(WordstatsError, match="line 4: expected '#pragma'"):
        parse_gcg(DOS.replace("#description a club game\r\n#- second round", "a stray line\r\n#title t"))
    with pytest.raises(WordstatsError, match="line 1: '#-' continues"):
        parse_gcg("#- nothing before\n" + HAND)


@pytest.mark.parametrize(
    "data, name",
    [
        ("#character-encoding ISO-8859-1\n#player1 césar César\n".encode("latin-1"), "césar"),
        ("#player1 césar César\n".encode("latin-1"), "césar"),  # no header, not UTF-8: the spec's ISO-8859-1
        ("#player1 césar César\n".encode(), "césar"),  # no header, valid UTF-8
        ("#character-encoding UTF-8\r\n#player1 césar César\r\n".encode("utf-8-sig"), "césar"),
    ],
)
def test_gcg_encodings(data, name):
    text = decode_gcg(data + b"#player2 bob Bob\n>bob: ABC 8H CAB +14 14\n")
    assert parse_gcg(text).players[0][0] == name


@pytest.mark.parametrize(
    "data, message",
    [
        ("#character-encoding UTF-8\n\n#player1 césar C\n".encode("latin-1"), "line 3: not UTF-8 text, as its"),
        (b"#character-encoding KLINGON\n", "line 1: unknown character encoding 'KLINGON'"),
    ],
)
def test_gcg_wrong_encoding_is_one_line(data, message):
    with pytest.raises(WordstatsError, match=re.escape(message)):
        decode_gcg(data)


def test_gcg_encoding_line_first_and_tiles_of_english(tmp_path):
    with pytest.raises(WordstatsError, match="line 2: #character-encoding must be the first line"):
        parse_gcg("#player1 a A\n#character-encoding UTF-8\n#player2 b B\n>a: ABC 8H CAB +14 14\n")
    polish = "#player1 a A\n#player2 b B\n>a: ĆĘIKPST 8G STĘPIĆ +46 46\n"
    path = tmp_path / "pl.gcg"
    path.write_text(polish, encoding="utf-8")
    with pytest.raises(WordstatsError, match=r"pl.gcg: line 3: 'ĆĘIKPST' has letters beyond A to Z"):
        read_gcg(path)


def test_replay_of_a_dos_record_from_the_cli(cli, data, tmp_path):
    path = tmp_path / "dos.gcg"
    path.write_bytes(DOS.encode())
    res = cli_in(cli, data, "scrabble", "replay", path, "--no-best")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "2 moves; final: ann 66, bob 10; 0 with a discrepancy"


@pytest.fixture(scope="module")
def real_games(scrabble, lexicon):
    """GCG records of whole self-play games, and the hand-written one."""
    return [HAND] + [game_gcg(self_play(scrabble, lexicon, game_rng(9, "scrabble", n)), scrabble) for n in range(4)]


def _wrong_scores(text: str, rng: random.Random, carried: bool) -> tuple[str, set[int]]:
    """The record with 1 to 3 plays' scores made wrong (their totals carried on, or left as they were); the
    line numbers changed."""
    lines = text.split("\n")
    plays = [i for i, line in enumerate(lines) if re.match(r">\S+: \S+ \w+ \S+ \+\d+ -?\d+$", line)]
    changed = set(rng.sample(plays, rng.randint(1, min(3, len(plays)))))
    for i in sorted(changed):
        nick, rack, where, word, score, total = lines[i].split()
        delta = rng.choice([d for d in range(-int(score[1:]), 21) if d])
        lines[i] = f"{nick} {rack} {where} {word} +{int(score) + delta} {int(total) + delta if carried else total}"
        for j in range(i + 1, len(lines)) if carried else ():
            parts = lines[j].split()
            if lines[j].startswith(nick):
                lines[j] = " ".join([*parts[:-1], str(int(parts[-1]) + delta)])
    return "\n".join(lines), {i + 1 for i in changed}


@pytest.mark.parametrize("carried", [True, False], ids=["totals-carried", "totals-left"])
def test_replay_totals_are_the_rules_whatever_the_record_says(scrabble, lexicon, real_games, carried):
    """1 to 3 wrong scores at random plays of real games: our totals are the true ones at every move, and
    each wrong line is reported once (its score; its total too when the record's own sum breaks there)."""
    rng = random.Random(23)
    for text in real_games:
        truth = [s.our_total for s in replay(parse_gcg(text), scrabble, lexicon)]
        for _ in range(6):
            wrong, lines = _wrong_scores(text, rng, carried)
            steps = replay(parse_gcg(wrong), scrabble, lexicon)
            assert [s.our_total for s in steps] == truth
            reported = {s.event.line: s.problems for s in steps if s.problems}
            assert set(reported) == lines
            for problems in reported.values():
                assert problems[0].startswith("score ") and len(problems) == (1 if carried else 2)


def test_selfplay_gcg_round_trip(scrabble, lexicon):
    for number in range(1, 4):
        game = self_play(scrabble, lexicon, game_rng(5, "scrabble", number))
        text = game_gcg(game, scrabble)
        steps = replay(parse_gcg(text), scrabble, lexicon)
        assert all(not s.problems and not s.phonies for s in steps), text
        finals = {}
        for s in steps:
            finals[s.event.player] = s.our_total
        assert [finals[0], finals[1]] == game.scores
        plays = [s for s in steps if s.event.kind == PLAY]
        assert [s.play.score for s in plays] == [t.play.score for t in game.turns if t.play]


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


def test_best_equity_cli(cli, data):
    res = cli_in(cli, data, "scrabble", "best", "--empty", "--rack", "qvvwuu?", "--equity", "--json", "--limit", "3")
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    assert len(rows) == 3 and rows[0]["equity"] >= rows[1]["equity"] >= rows[2]["equity"]
    assert all(r["equity"] == pytest.approx(r["score"] + r["leave_value"], abs=0.02) for r in rows)
    shown = cli_in(cli, data, "scrabble", "best", "--empty", "--rack", "retains", "--show")
    assert shown.exit_code == 0 and "triple word" in shown.stdout
    assert re.search(r"\n8[A-H] [A-Z]{7} 66\n", shown.stdout)  # the top play, then the board with it


# ---- study --------------------------------------------------------------------------------------


def test_judge_club_style(cli, data, enable_words):
    res = cli_in(cli, data, "judge", "qi", "RETAINS", "za")
    assert res.exit_code == 1
    assert res.stdout.splitlines()[:3] == ["QI       NOT VALID", "RETAINS  VALID", "ZA       NOT VALID"]
    assert "NOT ACCEPTABLE" in res.stdout
    ok = cli_in(cli, data, "judge", "zyzzyva", "aa")
    assert ok.exit_code == 0 and "the play is ACCEPTABLE" in ok.stdout
    rng = random.Random(1)
    sample = rng.sample(enable_words, 30) + ["XQ", "RETAINSS"]
    rows = json.loads(cli_in(cli, data, "judge", "-", "--json", input=" ".join(sample)).stdout)
    assert [r["valid"] for r in rows] == [w in set(enable_words) for w in sample]


def test_hooks_beside_anagrams(cli, data, enable_words):
    words = set(enable_words)
    rows = json.loads(cli_in(cli, data, "anagram", "AEINRST", "--hooks", "--json").stdout)
    assert [r["word"] for r in rows] == sorted(w for w in words if sorted(w) == sorted("AEINRST"))
    for r in rows:
        w = r["word"]
        assert r["front_hooks"] == [ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch + w in words]
        assert r["back_hooks"] == [ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if w + ch in words]
        assert r["hooked"] == ("·" if w[1:] in words else "") + w + ("·" if w[:-1] in words else "")
        assert r["probability_order"] >= 1
    batch = json.loads(cli_in(cli, data, "anagram", "-", "--json", input="AEINRST\nQIS\n").stdout)
    assert {r["rack"] for r in batch} == {"AEINRST"}  # ENABLE has no anagram of QIS
    pat = json.loads(cli_in(cli, data, "pattern", "-", "--hooks", "--json", input="QU?Z\nZYZZYV?").stdout)
    assert {(r["pattern"], r["word"]) for r in pat} == {("QU?Z", "QUIZ"), ("ZYZZYV?", "ZYZZYVA")}


def test_study_deck_and_csv(cli, data, tmp_path):
    csv_path = tmp_path / "s.csv"
    res = cli_in(cli, data, "study", "--length", "7", "--from", "1", "--to", "5", "--out", csv_path)
    assert res.exit_code == 0, res
    import csv

    rows = list(csv.DictReader(csv_path.open()))
    alphas = [r for r in rows if r["tags"] == "alphagram"]
    assert all(re.match(r"^[A-Z]{7} \(#\d+\)$", r["front"]) for r in alphas)
    orders = [int(r["front"].split("#")[1].rstrip(")")) for r in alphas]
    assert orders == sorted(orders) and orders[0] == 1 and max(orders) <= 5
    hooks = [r for r in rows if r["tags"] == "hooks"]
    assert len(hooks) == sum(len(r["back"].splitlines()) for r in alphas)
    apkg = tmp_path / "s.apkg"
    assert cli_in(cli, data, "study", "--to", "5", "--out", apkg).exit_code == 0
    import sqlite3
    import zipfile

    with zipfile.ZipFile(apkg) as zf:
        (tmp_path / "c").write_bytes(zf.read("collection.anki2"))
    notes = sqlite3.connect(tmp_path / "c").execute("select flds, tags from notes").fetchall()
    assert len(notes) == len(rows)
    again = tmp_path / "t.apkg"
    cli_in(cli, data, "study", "--to", "5", "--out", again)
    assert again.read_bytes() == apkg.read_bytes()  # stable ids and timestamps: the same deck, byte for byte
    bad = cli_in(cli, data, "study", "--out", tmp_path / "x.txt")
    assert bad.exit_code == 2 and "use .apkg, .csv" in bad.stderr


def test_selfplay_cli_writes_gcg_that_replays(cli, data, tmp_path, scrabble, lexicon):
    folder = tmp_path / "games"
    res = cli_in(cli, data, "scrabble", "selfplay", "--games", "2", "--seed", "3", "--gcg-dir", folder, "--json")
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    for row in rows:
        text = (folder / f"game-{row['game']:06d}.gcg").read_text()
        steps = replay(parse_gcg(text), scrabble, lexicon)
        assert not any(s.problems for s in steps)
        finals = {s.event.player: s.our_total for s in steps}
        assert [finals[0], finals[1]] == [row["score_1"], row["score_2"]]
    bad = cli_in(cli, data, "scrabble", "selfplay", "--first", "greedy")
    assert bad.exit_code == 2 and "unknown strategy" in bad.stderr


def test_leaves_cli_writes_a_table(cli, data, tmp_path):
    out = tmp_path / "l.parquet"
    res = cli_in(cli, data, "scrabble", "leaves", "--games", "3", "--rounds", "2", "--out", out)
    assert res.exit_code == 0, res
    assert "914,624 leaves from 2 rounds of 3 games" in res.stdout
    table = pl.read_parquet(out)
    assert table.height == 914_624 and int(table["count"].sum()) > 0
    again = cli_in(cli, data, "scrabble", "leaves", "--games", "3", "--rounds", "2", "--out", out)
    assert again.exit_code == 2 and "file exists" in again.stderr


def test_leaves_cli_commits_through_the_store(cli, data, tmp_path):
    """Without --out, the table goes into the lexicon's store as a commit: the manifest lists the new file, no
    journal or temporary file is left behind."""
    import shutil

    from pipeline.core.files import read_provenance
    from pipeline.core.store import JOURNAL, MANIFEST

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


SELFPLAY_SECTION = '[scrabble.selfplay]\nvariants = ["scrabble", "wwf"]'


def test_selfplay_stage_plays_by_equity_when_the_config_says_so(enable_words, scrabble, tmp_path):
    config = config_with(
        tmp_path, SELFPLAY_SECTION, '[scrabble.selfplay]\nstrategy = "equity"\nvariants = ["scrabble"]'
    )
    words = enable_words[::25] + ["RETAINS", "QUIRES", "ZA", "QI"]
    data = build_lexicon(tmp_path / "out", words, "ingest", "gaddag", "leaves", "scrabble", config=config)
    games = pl.read_parquet(data / "t" / "selfplay.parquet")
    lexicon = Lexicon([w.upper() for w in words])
    player = Equity(LeaveValues(pl.read_parquet(data / "t" / "leaves.parquet")))
    for row in games.iter_rows(named=True):
        log = play_game(scrabble, lexicon, game_rng(8, "scrabble", row["game"]), (player, player))
        assert log_row(log, row["game"], scrabble) == row
    assert games.height == 2 and games["variant"].to_list() == ["scrabble", "scrabble"]
    mixed = config_with(tmp_path, SELFPLAY_SECTION, '[scrabble.selfplay]\nstrategy = "equity"\nvariants = ["wwf"]')
    res = run_cli("run", "scrabble", "--lexicon", "t", "--data-dir", data, "--config", mixed)
    assert res.exit_code == 2 and "scrabble.selfplay.strategy" in res.stderr and "variants = ['scrabble']" in res.stderr

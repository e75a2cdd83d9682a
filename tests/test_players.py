"""Word-game players: ENABLE as the default lexicon, boards shown and played, GCG games, study (leave values and
equity: tests/test_leaves.py)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import xml.etree.ElementTree as ET

import polars as pl
import pytest

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.summary import log_row
from pipeline.scrabble.play.turns import game_rng, self_play
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
from pipeline.scrabble.render import board_png, board_svg, board_text
from pipeline.scrabble.rules.board import Board, parse_board
from pipeline.scrabble.rules.notation import parse_play
from pipeline.scrabble.rules.scoring import check_bag, score_play
from tests.conftest import DEFAULT_CONFIG, ENABLE, ROOT, build_lexicon, config_with, run_cli
from tests.support.gcg import HAND
from tests.support.players import cli_in, data_fixture  # noqa: F401  (the data fixture)

ENABLE_SHA256 = "d3fbe8485022088fcf527edcde2fbdc18b4bbc141ac58123c9adb462e086eaf7"


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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


# ---- study --------------------------------------------------------------------------------------


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


SELFPLAY_SECTION = '[scrabble.selfplay]\nvariants = ["scrabble", "wwf"]'


@pytest.mark.slow
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

"""GCG records as a hostile or careless hand leaves them: mutations of real games (self-play's records and a
hand-written one; one to three edits, searched by Hypothesis) are replayed through the real CLI and each ends
in a replay (exit 0), a replay that reports what differs from the rules (exit 1) or one line naming the file
(exit 2), never a traceback or a hang; an event that cannot be replayed is one line naming its line; tiles
missing from a stated rack (or an exchange) are reported and the replay goes on; players, racks, scores and
the number of moves are checked as the GCG format and docs/scrabble.md say."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK
from pipeline.scrabble.records import gcg
from pipeline.scrabble.records.gcg import MAX_EVENTS, MAX_GCG_BYTES, MAX_POINTS
from tests.conftest import ROOT, SMALL_CONFIG, build_lexicon, run_cli, special_file
from tests.support.gcg import HAND

MOBY = ROOT / "data" / "raw" / "moby-words.txt"
HAND_WORDS = ("RETAINS", "JAR", "RAJ", "OD", "DO", "QI", "AD", "JO", "ZA")
MUTANTS = 400  # mutated records replayed (each in well under 0.1 s)
QUICK = 5  # seconds a refused record may take at most (a limit, not a benchmark: the real figure is far less)


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A lexicon of every 10th moby word and the hand-written game's words (words and the GADDAG)."""
    words = sorted(set(MOBY.read_text().split()[::10]) | {w.lower() for w in HAND_WORDS})
    return build_lexicon(tmp_path_factory.mktemp("gcg") / "out", words, "ingest", "gaddag")


@pytest.fixture(scope="module")
def games(data, tmp_path_factory) -> list[str]:
    """Three self-play games as GCG, written by the real CLI, and the hand-written game."""
    folder = tmp_path_factory.mktemp("games")
    res = run_cli("scrabble", "selfplay", "--games", "3", "--gcg-dir", folder, *lexicon_args(data))
    assert res.exit_code == 0, res
    return [p.read_text() for p in sorted(folder.glob("*.gcg"))] + [HAND]


def lexicon_args(data: Path) -> tuple:
    """The options that point a command at the test lexicon."""
    return ("--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)


def replay(data: Path, path: Path, *args):
    """`scrabble replay` of a file, through the real CLI."""
    return run_cli("scrabble", "replay", path, *args, *lexicon_args(data))


def write(tmp_path: Path, text: str, name: str = "game.gcg") -> Path:
    """A GCG file."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_one_line(res, path: Path, *needles: str) -> None:
    """Exit 2, one line naming the file and holding every needle, no traceback."""
    assert res.exit_code == 2, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}"), res
    assert "Traceback" not in res.stderr + res.stdout
    for needle in needles:
        assert needle in lines[0], res


# ---- racks --------------------------------------------------------------------------------------


def without_a_played_tile(text: str, which: int, variant) -> tuple[str, int]:
    """The record with the stated rack of a play (the `which`-th, modulo their number, among plays with a
    rack) one tile short of those the play placed (a tile it placed taken off with its spare copies; a rack
    left empty holds another tile instead): (the text, the move's number among the events)."""
    steps = [s for s in gcg.replay(gcg.parse_gcg(text), variant, set()) if s.play is not None and s.event.rack]
    step = steps[which % len(steps)]
    assert step.play is not None
    placed = Counter(BLANK if t.letter.islower() else t.letter for t in step.play.tiles)
    tile = sorted(placed)[which % len(placed)]
    rack = step.event.rack.replace(tile, "") + tile * (placed[tile] - 1) or ("Q" if tile == BLANK else BLANK)
    lines = text.splitlines()
    nick, rest = lines[step.event.line - 1].split(":", 1)
    assert rest.split()[0] == step.event.rack, lines[step.event.line - 1]
    lines[step.event.line - 1] = f"{nick}: {rack} {rest.split(maxsplit=1)[1]}"
    return "\n".join(lines) + "\n", step.number


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],  # tmp_path: one file, written anew each time
)
@given(game=st.integers(0, 3), which=st.integers(0, 2**16))
def test_tiles_missing_from_a_stated_rack_are_reported_and_the_replay_goes_on(
    data, games, scrabble, tmp_path, game, which
):
    text, move = without_a_played_tile(games[game], which, scrabble)
    path = write(tmp_path, text)
    res = replay(data, path, "--json", "--no-best")
    assert res.exit_code == 1, res
    rows = json.loads(res.stdout)
    assert len(rows) == text.count("\n>") + text.startswith(">")  # every move replayed
    problems = {row["move"]: row["problems"] for row in rows if row["problems"]}
    assert any("tiles not on the stated rack" in p for p in problems[move]), problems


@pytest.mark.parametrize(
    "rack, says",
    [
        ("AEINRSTXY", "has 9 tiles; a scrabble rack holds at most 7"),
        ("???AEIN", "has 3 blanks (?); the scrabble tile set has 2"),
    ],
)
def test_a_rack_the_tile_set_does_not_allow_is_reported(data, tmp_path, rack, says):
    path = write(tmp_path, HAND.replace(">ann: AEINRST 8D RETAINS", f">ann: {rack} 8D RETAINS"))
    res = replay(data, path, "--json")
    assert res.exit_code == 1, res
    rows = json.loads(res.stdout)
    assert any(says in p for p in rows[0]["problems"]), rows[0]
    assert rows[0]["best"] is None and rows[2]["best"] is not None  # no best move for a rack no one can hold
    assert len(rows) == 11


# ---- players ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, says",
    [
        ("#player1 ann Ann\n#player2 ann Annie\n", "line 2: #player2 has the nickname 'ann' of #player1"),
        ("#player1 ann Ann\n#player1 bob Bob\n", "line 2: #player1 is declared twice"),
        ("#player1 ann Ann\n#player2 bob Bob\n#player2 cy Cy\n", "line 3: #player2 is declared twice"),
        ("#player1 ann Ann\n", "unknown player 'bob' (players: ann)"),
        ("#player1 \n#player2 bob Bob\n", "line 1: #player1 needs a nickname"),
    ],
)
def test_players_are_declared_once_each_with_their_own_nickname(data, tmp_path, players, says):
    body = "\n".join(line for line in HAND.splitlines() if not line.startswith(("#player", "#character-encoding")))
    path = write(tmp_path, players + body + "\n")
    assert_one_line(replay(data, path), path, says)


def test_players_are_numbered_by_their_pragma_not_their_order(data, tmp_path):
    from pipeline.scrabble.records.gcg import parse_gcg

    swapped = HAND.replace("#player1 ann Ann Example\n#player2 bob Bob Example", "#player2 bob Bob\n#player1 ann Ann")
    assert parse_gcg(swapped).players == [("ann", "Ann"), ("bob", "Bob")]
    res = replay(data, write(tmp_path, swapped), "--json", "--no-best")
    assert res.exit_code == 0 and json.loads(res.stdout)[0]["player"] == "ann", res


# ---- events ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, says",
    [
        (">bob: DEIOQUX -QUX +0 10", ">bob: DEIOQUX -Q1X +0 10", "line 12: bad exchange '-Q1X'"),
        (">bob: DEIOQUX -QUX +0 10", ">bob: DEIOQUX -\u00b9\u00b2 +0 10", "line 12: bad exchange"),
        (">bob: ADEJOQU D8 .AJ +10 10", ">bob: ADEJOQU -- -10 -10", "line 6: a play is withdrawn, but bob made none"),
        (">bob: ADEJOQU D8 .AJ +10 10", ">bob: ADEJOQU 8B AD +2 2", "line 6: 8B AD: the word continues into the tile"),
    ],
)
def test_an_event_that_cannot_be_replayed_is_one_line(data, tmp_path, old, new, says):
    path = write(tmp_path, HAND.replace(old, new))
    assert_one_line(replay(data, path), path, says)


NO_TOTAL = r"expected '\+score total' after the move|a play needs a position, a word, a score and a total"


def test_an_event_without_its_total_is_an_error_naming_its_line():
    lines = HAND.splitlines()
    events = [n for n, line in enumerate(lines, 1) if line.startswith(">")]
    for n in events:  # every kind of event: plays, a withdrawn one, bonus, exchange, pass, penalties, going out
        cut = lines[: n - 1] + [lines[n - 1].rsplit(" ", 1)[0]] + lines[n:]
        with pytest.raises(WordstatsError, match=rf"^f: line {n}: ({NO_TOTAL})$"):
            gcg.parse_gcg("\n".join(cut) + "\n", "f")
    assert len(events) == 11


def test_an_exchange_of_tiles_not_on_the_stated_rack_is_reported_and_the_replay_goes_on(data, tmp_path):
    path = write(tmp_path, HAND.replace(">bob: DEIOQUX -QUX +0 10", ">bob: DEIOQUX -QUZ +0 10"))
    res = replay(data, path, "--json", "--no-best")
    assert res.exit_code == 1, res
    rows = json.loads(res.stdout)
    assert len(rows) == 11 and [row["move"] for row in rows if row["problems"]] == [7], rows
    assert rows[6]["problems"][0].startswith("exchange QUZ: the rack DEIOQUX has no Z left"), rows[6]


# ---- sizes ----------------------------------------------------------------------------------------


def timed(fn):
    """fn() and the seconds it took."""
    started = time.monotonic()
    out = fn()
    return out, time.monotonic() - started


@pytest.mark.parametrize(
    "score, says",
    [
        ("+" + "9" * 5000, "score +99999999999... (5,000 digits) is beyond"),
        ("+3000000000", "score +3000000000 is beyond"),
        (f"+{MAX_POINTS + 1}", "is beyond 100,000 points"),
    ],
)
def test_a_score_beyond_any_game_is_one_line(data, tmp_path, score, says):
    path = write(tmp_path, HAND.replace("8D RETAINS +66 66", f"8D RETAINS {score} 66"))
    res, seconds = timed(lambda: replay(data, path))
    assert_one_line(res, path, "line 5:", says)
    assert seconds < QUICK


def test_a_total_beyond_any_game_is_one_line(data, tmp_path):
    path = write(tmp_path, HAND.replace("8D RETAINS +66 66", "8D RETAINS +66 -3000000000"))
    assert_one_line(replay(data, path), path, "line 5: total -3000000000 is beyond")


def test_more_moves_than_a_game_has_are_refused_at_once(data, tmp_path):
    head = "#player1 a A\n#player2 b B\n"
    passes = "".join(f">{'ab'[i % 2]}: - +0 0\n" for i in range(200_001))[: MAX_GCG_BYTES - len(head)]
    path = write(tmp_path, head + passes)
    res, seconds = timed(lambda: replay(data, path))
    assert_one_line(res, path, f"line {MAX_EVENTS + 3}: more than {MAX_EVENTS:,} moves")
    assert seconds < QUICK


def test_a_record_larger_than_any_game_is_refused_unread(data, tmp_path):
    path = write(tmp_path, HAND + "#note " + "x" * MAX_GCG_BYTES + "\n")
    assert_one_line(replay(data, path), path, "larger than the limit")


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_special_file_is_refused_unread(data, tmp_path, kind):
    path = special_file(tmp_path / "game.gcg", kind)
    res, seconds = timed(lambda: replay(data, path))
    assert_one_line(res, path)
    assert seconds < QUICK


# ---- mutations --------------------------------------------------------------------------------------

ALPHABET = "ABCXYZaqz?.()+-#>:0123456789 \t\u00e9\u0661\x00\ufeff"
KINDS = ("change", "insert", "delete", "drop line", "repeat line", "swap lines", "double token")
# an edit: its kind, the line (an index taken modulo the record's lines), the place in the line (modulo its
# length, or its tokens') and the character a change or an insertion writes
EDITS = st.tuples(st.sampled_from(KINDS), st.integers(0, 2**16), st.integers(0, 2**16), st.sampled_from(ALPHABET))


def edited(text: str, edit: tuple[str, int, int, str]) -> str:
    """The record after one edit: a character changed, inserted or deleted, a line dropped, repeated or swapped
    with the next, a token doubled (an edit that cannot apply to its line doubles a token instead)."""
    kind, at, where, char = edit
    lines = text.splitlines()
    i = at % len(lines)
    line = lines[i]
    if kind == "change" and line:
        k = where % len(line)
        lines[i] = line[:k] + char + line[k + 1 :]
    elif kind == "insert":
        k = where % (len(line) + 1)
        lines[i] = line[:k] + char + line[k:]
    elif kind == "delete" and line:
        k = where % len(line)
        lines[i] = line[:k] + line[k + 1 :]
    elif kind == "drop line":
        del lines[i]
    elif kind == "repeat line":
        lines.insert(i, line)
    elif kind == "swap lines" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    else:
        tokens = line.split()
        if tokens:
            k = where % len(tokens)
            lines[i] = " ".join(tokens[: k + 1] + tokens[k:])
    return "\n".join(lines) + "\n"


def check_mutant(data: Path, path: Path, text: str) -> int:
    """Replay a mutated record: a replay, a reported replay or one line naming the file; its exit code."""
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    res, seconds = timed(lambda: replay(data, path, "--no-best"))
    assert res.exit_code in (0, 1, 2), res
    assert "Traceback" not in res.stderr + res.stdout, res
    if res.exit_code == 2:
        assert_one_line(res, path)
    assert seconds < 30, "a mutated record of one game replays in seconds"
    return res.exit_code


@pytest.mark.slow
def test_a_mutated_record_replays_reports_or_is_one_line(data, games, tmp_path):
    """One to three edits of one of the four games; across the examples, every outcome is reached."""
    outcomes: Counter[int] = Counter()

    @settings(max_examples=MUTANTS, deadline=None, derandomize=True, database=None)
    @given(game=st.integers(0, len(games) - 1), edits=st.lists(EDITS, min_size=1, max_size=3))
    def mutant(game: int, edits: list[tuple[str, int, int, str]]) -> None:
        text = games[game]
        for edit in edits:
            text = edited(text, edit)
        outcomes[check_mutant(data, tmp_path / "mutant.gcg", text)] += 1

    mutant()
    assert set(outcomes) == {0, 1, 2}, outcomes

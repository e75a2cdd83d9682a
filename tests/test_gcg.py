"""GCG records as a hostile or careless hand leaves them: every mutation of a real game (self-play's records
and a hand-written one) is replayed through the real CLI and ends in a replay (exit 0), a replay that
reports what differs from the rules (exit 1) or one line naming the file (exit 2), never a traceback or a
hang; tiles missing from a stated rack are reported and the replay goes on; players, racks, scores and the
number of moves are checked as the GCG format and docs/scrabble.md say."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from pipeline.scrabble.records.gcg import MAX_EVENTS, MAX_GCG_BYTES, MAX_POINTS
from tests.conftest import ROOT, SMALL_CONFIG, build_lexicon, run_cli, special_file
from tests.support.gcg import HAND

MOBY = ROOT / "data" / "raw" / "moby-words.txt"
HAND_WORDS = ("RETAINS", "JAR", "RAJ", "OD", "DO", "QI", "AD", "JO", "ZA")
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


def without_a_played_tile(text: str, which: int) -> tuple[str, int]:
    """The record with one tile of the `which`-th play (counted among plays with a rack) taken off its
    stated rack: (the text, the move's number among the events)."""
    lines, event, seen = text.splitlines(), 0, 0
    for i, line in enumerate(lines):
        if not line.startswith(">"):
            continue
        event += 1
        nick, rest = line.split(":", 1)
        tokens = rest.split()
        if len(tokens) >= 5 and tokens[1][0].isalnum() and tokens[0].isalpha() and not tokens[1].startswith("("):
            if seen == which:
                word = tokens[2].replace(".", "")
                letter = next(ch for ch in word if ch.isupper() and ch in tokens[0])
                tokens[0] = tokens[0].replace(letter, "", 1) or "?"
                lines[i] = f"{nick}: {' '.join(tokens)}"
                return "\n".join(lines) + "\n", event
            seen += 1
    raise AssertionError("no such play")


@pytest.mark.parametrize("game", range(4))
@pytest.mark.parametrize("which", [0, 3])
def test_tiles_missing_from_a_stated_rack_are_reported_and_the_replay_goes_on(data, games, tmp_path, game, which):
    text, move = without_a_played_tile(games[game], which)
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


def mutate(text: str, rng: random.Random) -> str:
    """The record with one random edit: a character changed, inserted or deleted, a line dropped, repeated
    or swapped with the next, a token doubled."""
    lines = text.splitlines()
    i = rng.randrange(len(lines))
    line = lines[i]
    kind = rng.randrange(7)
    if kind == 0 and line:
        k = rng.randrange(len(line))
        lines[i] = line[:k] + rng.choice(ALPHABET) + line[k + 1 :]
    elif kind == 1:
        k = rng.randrange(len(line) + 1)
        lines[i] = line[:k] + rng.choice(ALPHABET) + line[k:]
    elif kind == 2 and line:
        k = rng.randrange(len(line))
        lines[i] = line[:k] + line[k + 1 :]
    elif kind == 3:
        del lines[i]
    elif kind == 4:
        lines.insert(i, line)
    elif kind == 5 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    else:
        tokens = line.split()
        if tokens:
            k = rng.randrange(len(tokens))
            lines[i] = " ".join(tokens[: k + 1] + tokens[k:])
    return "\n".join(lines) + "\n"


def check_mutant(data: Path, tmp_path: Path, text: str) -> int:
    """Replay a mutated record: a replay, a reported replay or one line naming the file; its exit code."""
    path = tmp_path / "mutant.gcg"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    res, seconds = timed(lambda: replay(data, path, "--no-best"))
    assert res.exit_code in (0, 1, 2), res
    assert "Traceback" not in res.stderr + res.stdout, res
    if res.exit_code == 2:
        assert_one_line(res, path)
    assert seconds < 30, "a mutated record of one game replays in seconds"
    return res.exit_code


def mutants(count: int, seed: int) -> list:
    """(game, seed of the mutations, edits) for parametrize."""
    rng = random.Random(seed)
    return [
        pytest.param(rng.randrange(4), rng.randrange(2**32), 1 + rng.randrange(3), id=f"m{k}") for k in range(count)
    ]


def mutated(text: str, seed: int, edits: int) -> str:
    """A record after `edits` seeded random mutations."""
    rng = random.Random(seed)
    for _ in range(edits):
        text = mutate(text, rng)
    return text


@pytest.mark.parametrize("game, seed, edits", mutants(40, 29))
def test_a_mutated_record_replays_reports_or_is_one_line(data, games, tmp_path, game, seed, edits):
    check_mutant(data, tmp_path, mutated(games[game], seed, edits))


@pytest.mark.slow
@pytest.mark.parametrize("game, seed, edits", mutants(400, 2029))
def test_many_mutated_records_replay_report_or_are_one_line(data, games, tmp_path, game, seed, edits):
    check_mutant(data, tmp_path, mutated(games[game], seed, edits))

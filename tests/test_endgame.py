"""The exact endgame: the search's value equals plain minimax to the end of the game (tests/reference) on small
endgames of real positions and of a tiny lexicon (blanks, scoreless plays and six-pass endings), its line plays
out to that value, a time limit returns a line not proven, and `scrabble endgame` answers or refuses in one line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.scrabble.endgame import solve
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.rules.board import Board, rack_value
from tests.conftest import SMALL_CONFIG, build_lexicon
from tests.reference.scrabble_endgame import brute_endgame
from tests.support.endgames import endgame_position, late_endgame

TINY_WORDS = ["AA", "AB", "BA", "AAA", "BAA", "ABA", "ZA", "ZAX", "AX", "XU", "QUA"]


def played_out(found, mover: str, other: str, variant) -> int:
    """The spread of the line played to its end by the rules: each move's score from the first mover's side, then
    the tiles left (the other's rack twice to whoever played out, or each their own after six scoreless turns)."""
    racks, spread = [mover, other], 0
    for turn in found.line:
        spread += turn.score if turn.player == 0 else -turn.score
        racks[turn.player] = turn.leave
    last = found.line[-1]
    if last.tiles and not last.leave:
        return spread + (1 if last.player == 0 else -1) * 2 * rack_value(racks[1 - last.player], variant)
    assert [t.score for t in found.line[-6:]] == [0] * 6
    return spread + rack_value(racks[1], variant) - rack_value(racks[0], variant)


@pytest.fixture(scope="module")
def positions(lexicon, scrabble):
    """Endgame positions of seeded greedy games on ENABLE."""
    return [endgame_position(seed, scrabble, lexicon) for seed in range(6)]


@pytest.mark.slow
@settings(max_examples=8, deadline=None, derandomize=True)
@given(data=st.data())
def test_small_endgames_of_real_positions_equal_brute_force(positions, lexicon, scrabble, data):
    board, mover, other = data.draw(st.sampled_from(positions))
    mine = "".join(data.draw(st.lists(st.sampled_from(sorted(mover)), min_size=1, max_size=2, unique_by=id)))
    theirs = "".join(data.draw(st.lists(st.sampled_from(sorted(other)), min_size=1, max_size=2, unique_by=id)))
    mine, theirs = subset(mover, mine), subset(other, theirs)
    found = solve(board, mine, theirs, scrabble, lexicon)
    assert found.proven and found.value == brute_endgame(board, mine, theirs, scrabble, lexicon)
    assert found.line[0].player == 0 and played_out(found, mine, theirs, scrabble) == found.value


def move_values(board, mover: str, other: str, variant, lexicon) -> list[int]:
    """Each move's value at the root, its reply position solved on its own (a fresh search, a full window:
    `played_value`)."""
    from pipeline.scrabble.endgame import Search, board_key, played_value, sorted_rack

    mover = sorted_rack(mover)
    moves = Search(variant, lexicon).moves(board, board_key(board), mover)
    return [played_value(board, mover, other, tuple(m.tiles()), m.score, variant, lexicon) for m in moves]


@pytest.mark.slow  # real ENABLE endgames, each reply solved again on its own
@pytest.mark.parametrize("seed", [5, 10])
def test_the_value_is_the_best_moves_score_less_the_reply_solved_on_its_own(positions_late, seed):
    """Real endgames of 9 tiles: the value is the best over the moves of score minus the reply's value, each reply
    solved by a search of its own (a reply's window is the move's score less the position's: in these two
    positions a window without the score gives 6 and 29, where brute force gives 4 and 28)."""
    board, mover, other, lexicon, scrabble = positions_late[seed]
    found = solve(board, mover, other, scrabble, lexicon)
    assert found.proven and found.value == max(move_values(board, mover, other, scrabble, lexicon))
    assert played_out(found, found_rack(mover), found_rack(other), scrabble) == found.value


@pytest.fixture(scope="module")
def positions_late(lexicon, scrabble):
    """Endgames of seeded greedy games played on until the racks hold 9 tiles, by seed."""
    return {seed: (*late_endgame(seed, scrabble, lexicon, 9), lexicon, scrabble) for seed in (5, 10)}


def subset(rack: str, drawn: str) -> str:
    """The drawn letters, as many of each as the rack holds at most."""
    left, kept = list(rack), []
    for ch in drawn:
        if ch in left:
            left.remove(ch)
            kept.append(ch)
    return "".join(kept)


@pytest.fixture(scope="module")
def tiny():
    """A lexicon of a few words with A, B, X, Z, Q and U: blanks make scoreless plays, and most racks stick."""
    return Lexicon(TINY_WORDS)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    st.text(alphabet="ABXZQU?", min_size=1, max_size=3),
    st.text(alphabet="ABXZQU?", min_size=1, max_size=3),
    st.sampled_from(["", "8G BAA", "8H AX", "H7 ZAX"]),
)
def test_tiny_endgames_with_blanks_and_passes_equal_brute_force(tiny, scrabble, mover, other, start):
    from pipeline.scrabble.rules.notation import parse_play

    board = Board()
    if start:
        tiles, _ = parse_play(start, board)
        board.put(tiles)
    found = solve(board, mover, other, scrabble, tiny)
    assert found.proven and found.value == brute_endgame(board, mover, other, scrabble, tiny)
    assert played_out(found, found_rack(mover), found_rack(other), scrabble) == found.value


def found_rack(rack: str) -> str:
    """A rack as the search writes it (letters sorted, blanks last)."""
    return "".join(sorted(rack, key=lambda ch: (ch == "?", ch)))


def test_stuck_racks_pass_six_times_and_lose_their_own_tiles(tiny, scrabble):
    found = solve(Board(), "Q", "V", scrabble, tiny)  # no word either can play
    assert found.proven and [t.text for t in found.line] == ["pass"] * 6
    assert found.value == rack_value("V", scrabble) - rack_value("Q", scrabble) == -6


def test_a_time_limit_returns_the_deepest_line_not_proven(positions, lexicon, scrabble):
    board, mover, other = positions[0]
    assert len(mover) == 7 and len(other) >= 5  # too many lines to finish in the time
    found = solve(board, mover, other, scrabble, lexicon, seconds=0.3)
    assert not found.proven and found.depth >= 1 and found.line and found.seconds < 5
    assert found.line[0].text != "" and found.nodes > 0


@pytest.fixture(scope="module")
def endgame_cli(tmp_path_factory, enable_words):
    """ENABLE built, and a board file of a real endgame with both racks."""
    from pipeline.core.config import load_config
    from pipeline.scrabble.rules.variant import variant

    tmp = tmp_path_factory.mktemp("endgame")
    data = build_lexicon(tmp / "out", enable_words, "ingest", "gaddag")
    scrabble = variant(load_config(SMALL_CONFIG), "scrabble")
    lexicon = Lexicon(enable_words)
    board, mover, other = endgame_position(3, scrabble, lexicon)
    path = tmp / "board.txt"
    path.write_text(board.text())
    board, late, late_other = late_endgame(5, scrabble, lexicon, 9)
    (tmp / "late.txt").write_text(board.text())
    return data, path, mover, other, (tmp / "late.txt", late, late_other)


@pytest.mark.slow  # real endgames of ENABLE through the CLI
def test_cli_solves_an_endgame(cli, endgame_cli):
    data, board, mover, other, _ = endgame_cli
    common = ["--board", board, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
    shown = cli("scrabble", "endgame", "--rack", mover.lower(), "--seconds", "2", "--json", *common)
    assert shown.exit_code == 0, shown
    doc = json.loads(shown.stdout)
    assert doc["rack"] == found_rack(mover) and doc["opponent"] == found_rack(other)
    assert doc["line"][0]["player"] == "you" and doc["depth"] >= 1 and isinstance(doc["proven"], bool)
    same = cli("scrabble", "endgame", "--rack", mover, "--opponent", other, "--seconds", "2", "--json", *common)
    assert json.loads(same.stdout)["line"][0] == doc["line"][0] or not doc["proven"]
    table = cli("scrabble", "endgame", "--rack", mover, "--seconds", "1", "--show", *common)
    assert table.exit_code == 0 and "spread" in table.stdout
    assert table.stdout.startswith(("best: ", "best found: "))


@pytest.mark.slow  # real endgames of ENABLE through the CLI
def test_best_with_the_bag_empty_puts_the_endgames_play_first(cli, endgame_cli):
    data, *_, (board, mover, other) = endgame_cli
    common = ["--board", board, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
    solved = json.loads(cli("scrabble", "endgame", "--rack", mover, "--json", *common).stdout)
    assert solved["proven"] and solved["opponent"] == found_rack(other)
    for extra in ((), ("--equity",)):
        best = cli("scrabble", "best", "--rack", mover, "--limit", "3", "--json", *common, *extra)
        assert best.exit_code == 0, best
        assert (
            f"the bag is empty, an endgame: best: {solved['line'][0]['move']}, spread {solved['value']:+d}"
            in best.stderr
        )
        first = json.loads(best.stdout)[0]
        shown = first["move"] if extra else f"{first['position']} {first['word']}"
        assert shown == solved["line"][0]["move"]


@pytest.mark.slow  # real endgames of ENABLE through the CLI
def test_replay_gives_each_endgame_move_the_best_line_and_the_spread_it_lost(cli, endgame_cli, tmp_path):
    data, *_ = endgame_cli
    common = ["--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
    made = cli("scrabble", "selfplay", "--games", "1", "--seed", "3", "--gcg-dir", tmp_path, *common)
    assert made.exit_code == 0, made
    game = tmp_path / "game-000001.gcg"
    rows = json.loads(cli("scrabble", "replay", game, "--seconds", "0.5", "--json", *common).stdout)
    ending = [r for r in rows if r["endgame_value"] is not None]
    assert ending and all(r["rack"] for r in ending)  # the moves after the bag empties, each with its rack
    before = [r for r in rows if r["endgame_value"] is None and r["best"] is not None]  # judged by equity
    assert before and before[-1]["move"] < ending[0]["move"]
    for r in ending:
        assert r["endgame_line"].startswith(r["best"]) and r["endgame_lost"] >= 0
        if r["play"] == r["best"] and not r["endgame_line"].endswith("(not proven)"):
            assert r["endgame_lost"] == 0
    last = ending[-1]  # the last move: one that plays out, or a pass of a stuck rack, solved at once
    assert not last["endgame_line"].endswith("(not proven)")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--empty", "--rack", "AB"], ["bag is not empty"]),
        (["--rack", "ZZZ"], ["Z tiles", "tile set has 1"]),
        (["--rack", "{mover}", "--opponent", "{first}"], ["--opponent", "the bag still holds"]),
        (["--rack", "{mover}", "--seconds", "0"], ["--seconds"]),
        (["--rack", "{mover}", "--seconds", "nan"], ["--seconds"]),
        (["--rack", "A!"], ["rack"]),
    ],
)
@pytest.mark.slow  # real endgames of ENABLE through the CLI
def test_cli_refuses_what_is_no_endgame_in_one_line(cli, endgame_cli, args, words):
    data, board, mover, other, _ = endgame_cli
    where = [] if "--empty" in args else ["--board", board]
    args = [a.format(mover=mover, first=other[0]) for a in args]
    res = cli("scrabble", "endgame", *where, *args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 2, res
    line = res.stderr.strip()
    assert "\n" not in line and "Traceback" not in line and all(w in line for w in words), line

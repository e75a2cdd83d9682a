"""Monte Carlo simulation (`scrabble best --sim N`): the rollout kernel against a plain reference played by the
rules, a position where simulation overturns static equity, seeds and prefixes, and bad input."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import TILES, LeaveValues
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.strategy import GREEDY
from pipeline.scrabble.play.turns import game_of, game_rng
from pipeline.scrabble.rules.board import Board, leave, rack_value
from pipeline.scrabble.rules.scoring import Play, evaluate
from pipeline.scrabble.sim import draw_orders, simulate_position, unseen_counts
from tests.conftest import ENABLE, SMALL_CONFIG, build_lexicon, run_cli
from tests.reference.scrabble import reference_move

MEGRIMS = "\n".join("...MEGRIMS....." if r == 7 else "." * 15 for r in range(15)) + "\n"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """ENABLE built into a data folder with its leave values (the reference's)."""
    out = tmp_path_factory.mktemp("sim") / "out"
    return build_lexicon(out, ENABLE, "ingest", "leaves", lexicon="t")


@pytest.fixture(scope="module")
def leaves(data):
    """The leave values of the leaves stage."""
    return LeaveValues(pl.read_parquet(data / "t" / "leaves.parquet"))


@pytest.fixture(scope="module")
def megrims(tmp_path_factory):
    """A board with MEGRIMS at 8D, as a file."""
    path = tmp_path_factory.mktemp("boards") / "megrims.txt"
    path.write_text(MEGRIMS)
    return path


def board_of_text(text: str) -> Board:
    """A board from its file's text."""
    from pipeline.scrabble.rules.board import parse_board

    return parse_board(text)


def sim_cli(data, *args):
    """`scrabble best` on the ENABLE test lexicon."""
    return run_cli("scrabble", "best", *args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)


# ---- the reference ------------------------------------------------------------------------------------


def reference_rollout(board: Board, rack: str, candidate: Play, order, variant, lexicon, leaves) -> float:
    """One rollout played plainly by the rules: the opponent holds the draw's first rack and the bag the rest
    (drawn from its end); we play the candidate and draw, the opponent moves by the equity player's rule (every
    play and exchange ranked: tests/reference/scrabble.py reference_move), then we do; going out gains the
    other's rack value, which they lose. Our points - theirs + the value of the leave we keep (while the bag
    held a full rack before our move)."""
    size, strategy = variant.rack_size, Equity(leaves)
    letters = [TILES[c] for c in order]
    theirs, bag = "".join(sorted(letters[:size])), letters[size:]

    def draw(held: str) -> str:
        while len(held) < size and bag:
            held += bag.pop()
        return "".join(sorted(held))

    board = board.copy()
    board.put(candidate.tiles)
    us, them = candidate.score, 0
    ours = draw(leave(rack, candidate.tiles))
    placed, _ = reference_move(strategy, board, theirs, len(bag), variant, lexicon)
    if placed is not None:
        tiles, direction = placed
        reply = evaluate(board, tiles, variant, lexicon, direction)
        them += reply.score
        board.put(tiles)
        theirs = draw(leave(theirs, tiles))
        if not theirs and not bag:
            return us - them - 2 * rack_value(ours, variant)
    counted = len(bag) >= size
    placed, exchanged = reference_move(strategy, board, ours, len(bag), variant, lexicon)
    if placed is not None:
        tiles, direction = placed
        us += evaluate(board, tiles, variant, lexicon, direction).score
        ours = leave(ours, tiles)
        if not ours and not bag:
            us, them = us + rack_value(theirs, variant), them - rack_value(theirs, variant)
    elif exchanged:
        kept = list(ours)
        for ch in exchanged:
            kept.remove(ch)
        ours = "".join(sorted(kept, key=lambda ch: (ch == "?", ch)))
    worth = leaves.lookup([ours])[ours] if counted and 0 < len(ours) <= 6 else 0.0
    return us - them + worth


def late_position(variant, lexicon, seed: int, bag_left: range) -> tuple[Board, str]:
    """The board and the rack of the player to move at the first turn of a seeded greedy game whose bag, as the
    player sees it, holds a number of tiles in `bag_left`."""
    from pipeline.scrabble.equity.moves import unseen_bag

    game = game_of(play_game(variant, lexicon, game_rng(seed, "scrabble", 1), (GREEDY, GREEDY)), variant, lexicon)
    for turn in game.turns:
        rack = "".join(sorted(turn.rack, key=lambda ch: (ch == "?", ch)))
        if unseen_bag(turn.board, rack, variant) in bag_left:
            return turn.board, rack
    raise AssertionError(f"no turn of game {seed} with a bag of {bag_left}")


def assert_kernel_matches_reference(board, rack, variant, lexicon, leaves, iterations: int, candidates: int):
    """Every candidate's value in each of the first iterations equals the reference rollout's on the same draw."""
    found = simulate_position(board, rack, variant, lexicon, leaves, iterations, candidates, seed=3)
    orders = next(draw_orders(unseen_counts(board, rack, variant), 3, iterations))
    static = sorted(found.candidates, key=lambda c: c.rank)
    assert found.values.shape == (iterations, len(found.candidates)) == (iterations, candidates)
    assert [c.rank for c in static] == list(range(candidates))
    assert all(a.equity >= b.equity for a, b in zip(static, static[1:]))
    for i in range(iterations):
        expected = [reference_rollout(board, rack, c.play, orders[i], variant, lexicon, leaves) for c in static]
        assert found.values[i].tolist() == pytest.approx(expected, abs=1e-9), i
    return found


# ---- the kernel against the reference ------------------------------------------------------------------


@pytest.mark.slow
def test_rollouts_equal_the_reference_mid_game(scrabble, lexicon, leaves):
    board = board_of_text(MEGRIMS)
    assert_kernel_matches_reference(board, "HIKRTVZ", scrabble, lexicon, leaves, iterations=3, candidates=4)


def test_rollouts_equal_the_reference_near_the_end(scrabble, lexicon, leaves):
    """With a few tiles in the bag: moves by score alone, going out, no leave counted."""
    for seed in (2, 5):
        board, rack = late_position(scrabble, lexicon, seed, range(1, 5))
        assert_kernel_matches_reference(board, rack, scrabble, lexicon, leaves, iterations=4, candidates=3)


# ---- what a simulation finds -------------------------------------------------------------------------------


def test_simulation_overturns_static_equity(scrabble, lexicon, leaves):
    """ZITH(E)R scores more and has the higher static equity, but opens the board: its mean reply is far higher,
    and H(E)RTZ, lower by static equity, has the higher mean value by many standard errors."""
    found = simulate_position(board_of_text(MEGRIMS), "HIKRTVZ", scrabble, lexicon, leaves, 400, 5, seed=0)
    by = {str(c.play): c for c in found.candidates}
    zither, hertz = by["E4 ZITH(E)R"], by["E7 H(E)RTZ"]
    assert max(found.candidates, key=lambda c: c.equity) is zither
    assert found.candidates[0] is hertz
    assert hertz.value - zither.value > 3 * (hertz.stderr**2 + zither.stderr**2) ** 0.5
    assert zither.reply - hertz.reply > 5


def test_draws_are_common_to_candidates_and_a_longer_run_begins_with_a_shorter(scrabble, lexicon, leaves):
    board = board_of_text(MEGRIMS)
    short = simulate_position(board, "HIKRTVZ", scrabble, lexicon, leaves, 10, 3, seed=9)
    long = simulate_position(board, "HIKRTVZ", scrabble, lexicon, leaves, 30, 3, seed=9)
    assert np.array_equal(long.values[:10], short.values)
    unseen = unseen_counts(board, "HIKRTVZ", scrabble)
    chunks = np.concatenate(list(draw_orders(unseen, 9, 30, chunk=7)))
    assert np.array_equal(chunks, next(draw_orders(unseen, 9, 30)))
    assert all(np.array_equal(np.bincount(row, minlength=27), unseen) for row in chunks)


# ---- the command -------------------------------------------------------------------------------------------


def test_same_seed_same_output(data, megrims):
    args = ("--board", megrims, "--rack", "ZIKRVTH", "--sim", "20", "--candidates", "3")
    first, again = sim_cli(data, *args, "--seed", "4"), sim_cli(data, *args, "--seed", "4")
    other = sim_cli(data, *args, "--seed", "5")
    assert first.exit_code == again.exit_code == other.exit_code == 0, first
    assert first.stdout == again.stdout and first.stdout != other.stdout
    assert "E7 H(E)RTZ" in first.stdout and "3 candidates x 20 iterations (seed 4)" in first.stderr


def test_json_rows(data, megrims):
    res = sim_cli(data, "--board", megrims, "--rack", "ZIKRVTH", "--sim", "8", "--candidates", "2", "--json")
    assert res.exit_code == 0, res
    import json

    rows = json.loads(res.stdout)
    assert len(rows) == 2 and set(rows[0]) == {"move", "score", "leave", "equity", "value", "stderr", "reply", "next"}
    assert rows[0]["value"] >= rows[1]["value"]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--sim", "1"), "--sim"),
        (("--sim", "100001"), "--sim"),
        (("--sim", "10", "--candidates", "0"), "--candidates"),
        (("--sim", "10", "--candidates", "51"), "--candidates"),
        (("--candidates", "3"), "--candidates"),
        (("--seed", "3"), "--seed"),
    ],
)
def test_bad_options_are_one_line(data, megrims, args, named):
    res = sim_cli(data, "--board", megrims, "--rack", "ZIKRVTH", *args)
    assert res.exit_code == 2, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "Traceback" not in res.stderr


def test_an_endgame_is_refused(data, scrabble, lexicon, tmp_path):
    board, rack = late_position(scrabble, lexicon, 2, range(0, 1))
    path = tmp_path / "end.txt"
    path.write_text(board.text())
    res = sim_cli(data, "--board", path, "--rack", rack, "--sim", "10")
    assert res.exit_code == 2, res
    assert "--sim" in res.stderr and "endgame" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_an_opening_simulates_each_play_once(scrabble, lexicon, leaves):
    """On the empty board each down play mirrors an across play of the same score: only the across ones are
    candidates."""
    from pipeline.scrabble.rules.variant import ACROSS

    found = simulate_position(Board(), "HIKRTVZ", scrabble, lexicon, leaves, 5, 6)
    assert len(found.candidates) == 6 and all(c.play.direction == ACROSS for c in found.candidates)
    assert len({str(c.play) for c in found.candidates}) == 6


@pytest.mark.slow
def test_ctrl_c_stops_a_long_simulation_within_two_seconds(data, megrims):
    """A real `scrabble best --sim 100000 --candidates 50` process, interrupted once it has spent 2.5 CPU-seconds
    (well into its rollouts), ends within 2 s with one line and exit code 130."""
    from tests.support.jobs import interrupted

    args = ["scrabble", "best", "--board", str(megrims), "--rack", "ZIKRVTH", "--sim", "100000", "--candidates", "50"]
    took, code, err = interrupted([*args, "--lexicon", "t", "--data-dir", str(data), "--config", str(SMALL_CONFIG)])
    assert took < 2 and code == 130, (took, err)
    assert err.strip() == "error: interrupted (Ctrl-C)"

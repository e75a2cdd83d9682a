"""The options of the Scrabble commands: for each request of pipeline/scrabble/api.py (a named tuple, cheaper for a
one-off command to define than a dataclass), the Query of the vocabulary's Fields that fills it
(pipeline/core/fields.py), named for its attributes and taking its defaults."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipeline.core.fields import FORCE, LIMIT, MAX_LIMIT, OUT, RAY, SEED, SHARD_SIZE, Field, Query
from pipeline.scrabble.api import BestRequest, LeaveRun, PlayRequest, ReplayRequest, SelfPlayRequest, ShowRequest
from pipeline.scrabble.playability.api import PlayabilityRun

MAX_MOVES = 10_000  # a move of a replayed game
MAX_SELFPLAY_GAMES = 1_000_000
MAX_LEAVE_GAMES = 10_000_000  # games of one round of `leaves`
MAX_PLAYABILITY_GAMES = 100_000_000
MAX_ROUNDS = 20
MAX_PRIOR_WEIGHT = 10**6
MAX_SIM = 100_000  # iterations of a simulation
MAX_CANDIDATES = 50  # plays a simulation plays out


# The options of where a request plays, shared by its commands.
BOARD = Field("board", Path, "Board file: 15 lines of 15 characters (. empty, A-Z tiles, a-z blanks).")
EMPTY = Field("empty", bool, "Start from an empty board (an opening move).")
VARIANT = Field("variant", str, "Game variant: scrabble or wwf (from the config; any case).", metavar="[scrabble|wwf]")


def all_plays(limit: int) -> int:
    """--limit as the request holds it: 0 (all) is MAX_LIMIT."""
    return limit or MAX_LIMIT


BEST = Query(
    BestRequest,
    (
        Field("rack", str, "Tiles in hand: letters and ? for a blank (at most 7).", metavar="TILES", required=True),
        BOARD,
        EMPTY,
        VARIANT,
        replace(LIMIT, help="How many plays to show (0 = all).", parse=all_plays),
        Field("equity", bool, "Rank by equity: score + the leave's value (leaves.parquet); exchanges too."),
        Field(
            "sim",
            int,
            "Simulate: play the best plays by equity out two plies over N seeded draws of the unseen tiles; "
            "rank them by mean value.",
            metavar="N",
            lo=2,
            hi=MAX_SIM,
        ),
        Field(
            "candidates",
            int,
            "With --sim: how many plays of highest static equity to simulate (default 10).",
            metavar="K",
            lo=1,
            hi=MAX_CANDIDATES,
        ),
        replace(SEED, help="With --sim: the seed of the draws (default 0)."),
    ),
)
SHOW = Field("show", bool, "Also print the board with the top play on it.")  # how the command line shows them


PLAY = Field(
    "play", str, 'The play: "8H WORD" across, "H8 WORD" down; lower case = blank.', metavar="PLAY", required=True
)
RACK = Field("rack", str, "The player's tiles (? = blank, any case): checked, leave shown.", metavar="TILES")
SCORE = Query(  # a play checked and scored
    PlayRequest,
    (
        replace(
            PLAY,
            help='The play in notation: "8H WORD" across, "H8 WORD" down; '
            "lower case = blank, board tiles may be in parentheses.",
        ),
        BOARD,
        EMPTY,
        replace(RACK, help="Also check the tiles come from this rack."),
        VARIANT,
    ),
)
PLAYED = Query(  # a play made: checked, scored, and the new board written
    PlayRequest,
    (PLAY, BOARD, EMPTY, RACK, replace(OUT, help="Write the new board file here."), FORCE, VARIANT),
)


SHOWN = Query(
    ShowRequest,
    (
        Field(
            "board",
            Path,
            "Board file (15 lines of 15: . empty, A-Z, a-z blanks).",
            argument=True,
            metavar="BOARD_FILE",
        ),
        VARIANT,
        replace(OUT, help="Write a picture: FILE.svg or FILE.png."),
        FORCE,
    ),
)


REPLAY = Query(
    ReplayRequest,
    (
        Field("game", Path, "A GCG game record.", argument=True, metavar="GAME_FILE"),
        Field("move", int, "Show the board after move N (1 = the first).", lo=1, hi=MAX_MOVES),
        Field("best", bool, "The best move and its equity beside each play.", negatable=True),
        VARIANT,
    ),
)


GAME_SEED = replace(SEED, help="Seed of the games.")
STRATEGY = Field("first", str, "Strategy of the first player: score or equity.", metavar="[score|equity]")
SELFPLAY = Query(
    SelfPlayRequest,
    (
        Field("games", int, "How many games.", lo=1, hi=MAX_SELFPLAY_GAMES),
        GAME_SEED,
        STRATEGY,
        replace(STRATEGY, name="second", help="Strategy of the second player: score or equity."),
        Field("gcg_dir", Path, "Write each game as GCG into this folder."),
        replace(FORCE, help="With --gcg-dir, replace existing game files."),
        Field("compare", bool, "Equity against score-only in seeded pairs, players swapped: mean scores, win rate."),
        VARIANT,
        RAY,
        SHARD_SIZE,
    ),
)


LEAVES = Query(
    LeaveRun,
    (
        Field("games", int, "Self-play games per round to learn from.", lo=1, hi=MAX_LEAVE_GAMES),
        Field("rounds", int, "Rounds: a greedy one, then equity with the values before.", lo=1, hi=MAX_ROUNDS),
        Field("last_games", int, "Games of the last round, whose values are kept.", lo=1, hi=MAX_LEAVE_GAMES),
        GAME_SEED,
        Field("prior_weight", int, "Observations that outweigh the additive model.", lo=0, hi=MAX_PRIOR_WEIGHT),
        VARIANT,
        replace(OUT, help="Write FILE.parquet (default: the lexicon's leaves.parquet)."),
        replace(FORCE, help="With --out or --reference, replace an existing file."),
        RAY,
        SHARD_SIZE,
        Field("reference", Path, "Also write the last round's observations as a reference table.", metavar="FILE"),
    ),
)


PLAYABILITY = Query(
    PlayabilityRun,
    (
        Field("games", int, "Self-play games between two equity players to measure.", lo=1, hi=MAX_PLAYABILITY_GAMES),
        GAME_SEED,
        replace(OUT, help="Write FILE.parquet and its summary FILE.json (default: the lexicon's playability.parquet)."),
        replace(
            FORCE, help="With --out, replace an existing file; with --reference, remove its parts and play it again."
        ),
        RAY,
        SHARD_SIZE,
        Field(
            "reference",
            Path,
            "Grow this reference table (a folder of Parquet parts) towards --games games, a part per block, instead "
            "of writing the lexicon's.",
            metavar="DIR",
        ),
        Field("blocks", int, "With --reference: play at most this many blocks now.", lo=1, hi=MAX_PLAYABILITY_GAMES),
        Field("block", int, "With --reference: games per block (default 20000).", lo=1, hi=MAX_PLAYABILITY_GAMES),
        Field(
            "verify",
            int,
            "With --reference: play K of the table's blocks (picked at random with its seed) again and compare "
            "their sums with its parts.",
            lo=1,
            hi=MAX_PLAYABILITY_GAMES,
            metavar="K",
        ),
    ),
)

"""What the Scrabble use cases take (pipeline/scrabble/api.py re-exports them): frozen requests whose fields are
declared with their options (pipeline/core/fields.py `option`), each value parsed once, where a client gives it;
and what a request names, read: its rack for the variant, its board, its variant.
The command line builds its options from them; this module imports nothing heavy (every command's start reads it)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pipeline.core.errors import FieldError, WordstatsError
from pipeline.core.fields import FORCE, LIMIT, MAX_LIMIT, OUT, RAY, SEED, SHARD_SIZE, Field, option
from pipeline.core.settings import default_of
from pipeline.scrabble.manifest import SETTINGS

if TYPE_CHECKING:
    from pipeline.core.config import Config
    from pipeline.scrabble.rules.board import Board
    from pipeline.scrabble.rules.variant import Variant

MAX_MOVES = 10_000  # a move of a replayed game
MAX_SELFPLAY_GAMES = 1_000_000
MAX_LEAVE_GAMES = 10_000_000  # games of one round of `leaves`
MAX_PLAYABILITY_GAMES = 100_000_000
MAX_ROUNDS = 20
MAX_PRIOR_WEIGHT = 10**6
MAX_SIM = 100_000  # iterations of a simulation
MAX_CANDIDATES = 50  # plays a simulation plays out
SIM_CANDIDATES = 10  # plays a simulation plays out unless the request says
SIM_SEED = 0  # the simulation's draws' seed unless the request says
ENDGAME_SECONDS = 30.0  # an endgame's time limit unless the request says
REPLAY_ENDGAME_SECONDS = 10.0  # a replay's limit for each endgame search (the best move's, the played move's)
MAX_ENDGAME_SECONDS = 86_400.0
SELFPLAY_ENDGAME_POSITIONS = 20_000  # a self-play endgame move's search budget in positions (not seconds, so that a
# game repeats on any machine)
REFERENCE_BLOCK = 20_000  # games per block of the playability reference: its games done are a multiple of it
PLAYABILITY_SEED = default_of(
    SETTINGS, "scrabble.playability.seed"
)  # when neither the command line nor the config names one

# Where a request plays, shared by its requests.
BOARD = Field("board", Path, "Board file: 15 lines of 15 characters (. empty, A-Z tiles, a-z blanks).")
EMPTY = Field("empty", bool, "Start from an empty board (an opening move).", default=False)
VARIANT = Field(
    "variant",
    str,
    "Game variant: scrabble or wwf (from the config; any case).",
    metavar="[scrabble|wwf]",
    default="scrabble",
)
RACK = Field("rack", str, "The player's tiles (? = blank, any case): checked, leave shown.", metavar="TILES")
PLAY = Field(
    "play", str, 'The play: "8H WORD" across, "H8 WORD" down; lower case = blank.', metavar="PLAY", required=True
)
GAME_SEED = replace(SEED, help="Seed of the games.")
STRATEGY = Field(
    "first", str, "Strategy of the first player: score or equity.", metavar="[score|equity]", default="score"
)


class Where(NamedTuple):
    """Where a request plays: a board file or the empty board (exactly one), and the variant's name."""

    board: Path | None = None
    empty: bool = False
    variant: str = "scrabble"


class Placed:
    """A request that plays on a board file or the empty board of a variant."""

    board: Path | None
    empty: bool
    variant: str

    @property
    def where(self) -> Where:
        """Where the request plays."""
        return Where(self.board, self.empty, self.variant)


def rack_of(text: str, variant: Variant) -> str:
    """A rack as typed (any case, ? a blank), at most the variant's rack size and blanks."""
    from pipeline.scrabble.rules.board import parse_rack

    return parse_rack(text, variant.rack_size, variant.tile_set.counts.get("?", 0))


def board_of(where: Where) -> Board:
    """The board of a board file, or the empty board (exactly one of them)."""
    from pipeline.scrabble.rules.board import read_board

    if where.board is None and not where.empty:
        raise WordstatsError("give --board FILE, or --empty for an opening move")
    if where.board is not None and where.empty:
        raise WordstatsError("give either --board FILE or --empty, not both")
    return read_board(where.board)


def variant_of(config: Config, name: str) -> Variant:
    """The variant `name` of the config (any case), or an error naming the known ones."""
    from pipeline.scrabble.rules.variant import variant

    return variant(config, name)


def all_plays(limit: int) -> int:
    """A limit as the request holds it: 0 (all) is MAX_LIMIT."""
    return limit or MAX_LIMIT


@dataclass(frozen=True)
class BestRequest(Placed):
    """The best plays for a rack on a board: by score, or by equity (score + leave value; exchanges too); or the
    best by equity played out over seeded draws (`sim`)."""

    rack: str = option(
        kind=str, help="Tiles in hand: letters and ? for a blank (at most 7).", metavar="TILES", required=True
    )
    board: Path | None = option(BOARD)
    empty: bool = option(EMPTY)
    variant: str = option(VARIANT)
    limit: int = option(LIMIT, help="How many plays to show (0 = all).", parse=all_plays, default=10)
    equity: bool = option(
        kind=bool, help="Rank by equity: score + the leave's value (leaves.parquet); exchanges too.", default=False
    )
    sim: int | None = option(
        kind=int,
        help="Simulate: play the best plays by equity out two plies over N seeded draws of the unseen tiles; "
        "rank them by mean value.",
        metavar="N",
        lo=2,
        hi=MAX_SIM,
    )
    candidates: int | None = option(
        kind=int,
        help=f"With --sim: how many plays of highest static equity to simulate (default {SIM_CANDIDATES}).",
        metavar="K",
        lo=1,
        hi=MAX_CANDIDATES,
    )
    seed: int | None = option(SEED, help=f"With --sim: the seed of the draws (default {SIM_SEED}).")

    def __post_init__(self):
        for name in ("candidates", "seed"):  # they go with a simulation
            if self.sim is None and getattr(self, name) is not None:
                raise FieldError("{" + name + "} goes with {sim} N (a simulation)")


@dataclass(frozen=True)
class EndgameRequest(Placed):
    """The exact endgame of a position whose bag is empty: both racks known, the move that maximises the final
    spread, searched until proven or for at most `seconds`."""

    rack: str = option(kind=str, help="Your tiles, to move: letters and ? for a blank.", metavar="TILES", required=True)
    opponent: str | None = option(
        kind=str,
        help="The opponent's tiles (default: every tile not on the board or your rack: the bag is empty).",
        metavar="TILES",
    )
    board: Path | None = option(BOARD)
    empty: bool = option(EMPTY)
    variant: str = option(VARIANT)
    seconds: float = option(
        kind=float,
        help=f"Time limit: past it, the line of the deepest search finished, not proven (default {ENDGAME_SECONDS:g}).",
        metavar="S",
        default=ENDGAME_SECONDS,
        lo=0.001,
        hi=MAX_ENDGAME_SECONDS,
    )


@dataclass(frozen=True)
class ScoreRequest(Placed):
    """One play in notation on a board, checked and scored, optionally from a rack."""

    play: str = option(
        PLAY,
        help='The play in notation: "8H WORD" across, "H8 WORD" down; lower case = blank, board tiles may be in '
        "parentheses.",
    )
    board: Path | None = option(BOARD)
    empty: bool = option(EMPTY)
    rack: str | None = option(RACK, help="Also check the tiles come from this rack.")
    variant: str = option(VARIANT)
    out: Path | None = None  # a play made writes the new board (PlayRequest); a play scored writes nothing
    force: bool = False


@dataclass(frozen=True)
class PlayRequest(Placed):
    """A play made: checked, scored, and the new board written to `out`."""

    play: str = option(PLAY)
    board: Path | None = option(BOARD)
    empty: bool = option(EMPTY)
    rack: str | None = option(RACK)
    out: Path | None = option(OUT, help="Write the new board file here.")
    force: bool = option(FORCE)
    variant: str = option(VARIANT)


@dataclass(frozen=True)
class ShowRequest:
    """A board file, shown as text or drawn into `out` (FILE.svg or FILE.png)."""

    board: Path = option(
        kind=Path, help="Board file (15 lines of 15: . empty, A-Z, a-z blanks).", argument=True, metavar="BOARD_FILE"
    )
    variant: str = option(VARIANT)
    out: Path | None = option(OUT, help="Write a picture: FILE.svg or FILE.png.")
    force: bool = option(FORCE)


@dataclass(frozen=True)
class ReplayRequest:
    """A GCG game record to replay; `best` adds each move's best move and the equity it lost."""

    game: Path = option(kind=Path, help="A GCG game record.", argument=True, metavar="GAME_FILE")
    move: int | None = option(kind=int, help="Show the board after move N (1 = the first).", lo=1, hi=MAX_MOVES)
    best: bool = option(kind=bool, help="The best move and its equity beside each play.", negatable=True, default=True)
    variant: str = option(VARIANT)
    seconds: float = option(
        kind=float,
        help="Once the bag is empty: the time limit of each endgame search (default "
        f"{REPLAY_ENDGAME_SECONDS:g}; the best move's and the played move's).",
        metavar="S",
        default=REPLAY_ENDGAME_SECONDS,
        lo=0.001,
        hi=MAX_ENDGAME_SECONDS,
    )


@dataclass(frozen=True)
class SelfPlayRequest:
    """Seeded games between two strategies (score or equity): listed one row a game (optionally written as GCG
    into `gcg_dir`), compared (equity against score-only), or run as a sharded job (`ray` or `shard_size`)."""

    games: int = option(kind=int, help="How many games.", lo=1, hi=MAX_SELFPLAY_GAMES, default=10)
    seed: int = option(GAME_SEED, default=1)
    first: str = option(STRATEGY)
    second: str = option(STRATEGY, help="Strategy of the second player: score or equity.")
    gcg_dir: Path | None = option(kind=Path, help="Write each game as GCG into this folder.")
    force: bool = option(FORCE, help="With --gcg-dir, replace existing game files.")
    compare: bool = option(
        kind=bool,
        help="Equity against score-only in seeded pairs, players swapped: mean scores, win rate.",
        default=False,
    )
    endgame: bool = option(
        kind=bool,
        help="Once the bag is empty, both players play the exact endgame search's first move (both racks known; "
        f"{SELFPLAY_ENDGAME_POSITIONS:,} positions a move).",
        default=False,
    )
    variant: str = option(VARIANT)
    ray: str | None = option(RAY)
    shard_size: int | None = option(SHARD_SIZE)


@dataclass(frozen=True)
class LeaveRun:
    """Leave values learnt from rounds of seeded self-play games, written to the lexicon's leaves.parquet (or
    to `out`): a sharded job that resumes, on this machine or a Ray cluster."""

    games: int = option(
        kind=int, help="Self-play games per round to learn from.", lo=1, hi=MAX_LEAVE_GAMES, default=1000
    )
    rounds: int = option(
        kind=int, help="Rounds: a greedy one, then equity with the values before.", lo=1, hi=MAX_ROUNDS, default=3
    )
    last_games: int | None = option(
        kind=int, help="Games of the last round, whose values are kept.", lo=1, hi=MAX_LEAVE_GAMES
    )  # None: `games`
    seed: int = option(GAME_SEED, default=14)
    prior_weight: int = option(
        kind=int, help="Observations that outweigh the additive model.", lo=0, hi=MAX_PRIOR_WEIGHT, default=1000
    )  # equity.fit.PRIOR_WEIGHT
    variant: str = option(VARIANT)
    out: Path | None = option(OUT, help="Write FILE.parquet (default: the lexicon's leaves.parquet).")
    force: bool = option(FORCE, help="With --out or --reference, replace an existing file.")
    ray: str | None = option(RAY)
    shard_size: int | None = option(SHARD_SIZE)
    reference: Path | None = option(
        kind=Path, help="Also write the last round's observations as a reference table.", metavar="FILE"
    )


@dataclass(frozen=True)
class PlayabilityRun:
    """Playability measured over seeded games between two equity players (the lexicon's leaves.parquet): a
    sharded job that resumes, on this machine or a Ray cluster."""

    games: int = option(
        kind=int,
        help="Self-play games between two equity players to measure.",
        lo=1,
        hi=MAX_PLAYABILITY_GAMES,
        default=1000,
    )
    seed: int = option(GAME_SEED, default=PLAYABILITY_SEED)
    out: Path | None = option(
        OUT, help="Write FILE.parquet and its summary FILE.json (default: the lexicon's playability.parquet)."
    )
    force: bool = option(
        FORCE, help="With --out, replace an existing file; with --reference, remove its parts and play it again."
    )
    ray: str | None = option(RAY)
    shard_size: int | None = option(SHARD_SIZE)
    reference: Path | None = option(
        kind=Path,
        help="Grow this reference table (a folder of Parquet parts) towards --games games, a part per block, instead "
        "of writing the lexicon's.",
        metavar="DIR",
    )  # grow this reference table (playability/reference.py) towards `games` instead
    blocks: int | None = option(
        kind=int, help="With --reference: play at most this many blocks now.", lo=1, hi=MAX_PLAYABILITY_GAMES
    )  # None: up to `games`
    block: int | None = option(
        kind=int, help=f"With --reference: games per block (default {REFERENCE_BLOCK}).", lo=1, hi=MAX_PLAYABILITY_GAMES
    )  # None: REFERENCE_BLOCK
    verify: int | None = option(
        kind=int,
        help="With --reference: play K of the table's blocks (picked at random with its seed) again and compare "
        "their sums with its parts.",
        lo=1,
        hi=MAX_PLAYABILITY_GAMES,
        metavar="K",
    )

"""Scrabble's use cases: a typed request in, a frozen result out carrying its provenance, the same for the command line
and any other client. The requests are frozen dataclasses declaring their options (scrabble/requests.py, re-exported
here); the results are named tuples (a one-off command pays less to define them). Each use case takes a Session
(pipeline.core.session: the config, the data folder and a lexicon's store); render.py renders the results; the
CLI only parses, calls and renders. The one write to the data folder, `leaves`, goes through the Store; files a
person asked for (a board, a picture, GCG games, a leaves table elsewhere) are written atomically after the output
checks.

This module imports only what every request needs, so that one-off commands start quickly."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import polars as pl

    from pipeline.core.config import Config
    from pipeline.core.session import Session
    from pipeline.scrabble.endgame import Endgame
    from pipeline.scrabble.equity.moves import Move
    from pipeline.scrabble.records.gcg import GcgGame, Step
    from pipeline.scrabble.rules.board import Board
    from pipeline.scrabble.rules.scoring import Play
    from pipeline.scrabble.rules.variant import Variant

from pipeline.core.errors import FieldError
from pipeline.core.results import Provenance, footer, provenance
from pipeline.scrabble.manifest import STRATEGIES
from pipeline.scrabble.requests import BestRequest as BestRequest  # the requests, as clients find them here
from pipeline.scrabble.requests import EndgameRequest as EndgameRequest
from pipeline.scrabble.requests import LeaveRun as LeaveRun
from pipeline.scrabble.requests import PlayabilityRun as PlayabilityRun
from pipeline.scrabble.requests import PlayRequest as PlayRequest
from pipeline.scrabble.requests import ReplayRequest as ReplayRequest
from pipeline.scrabble.requests import ScoreRequest as ScoreRequest
from pipeline.scrabble.requests import SelfPlayRequest as SelfPlayRequest
from pipeline.scrabble.requests import ShowRequest as ShowRequest
from pipeline.scrabble.requests import Where as Where
from pipeline.scrabble.requests import board_of, rack_of, variant_of


def __getattr__(name: str) -> Any:
    """IllegalPlay, the error of a play that breaks the rules (exit code 1), read where it is defined when a
    client asks for it (the rules' module is more than a one-off command should import unasked)."""
    if name == "IllegalPlay":
        from pipeline.scrabble.rules.notation import IllegalPlay

        return IllegalPlay
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


GAME_BYTES = 2048  # one game held in memory: its row, its moves in notation, the leaves it observed


# ---- best plays --------------------------------------------------------------------------------------


class BestPlays(NamedTuple):
    """The best plays (or moves by equity) of a position, best first; when the bag is empty, the play the endgame
    search found first, then the others by score (or equity), with the search's result."""

    variant: Variant
    board: Board
    rack: str
    plays: tuple[Play, ...]  # by score; by equity, the plays among the moves
    moves: tuple[Move, ...] | None  # by equity: every move listed, exchanges included
    provenance: Provenance | None = None
    endgame: Endgame | None = None  # the bag is empty: the endgame's value and line


def best(s: Session, request: BestRequest) -> BestPlays:
    """The highest-scoring plays, or the moves of highest equity, for a rack on a board; NotFound when there
    is none. When the bag is empty (an endgame: the opponent holds every unseen tile), the play that maximises the
    final spread comes first (scrabble/endgame.py, within ENDGAME_SECONDS)."""
    from pipeline.core.errors import NotFound
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.movegen.generate import best_plays
    from pipeline.scrabble.rules.scoring import check_bag

    variant = variant_of(s.config, request.where.variant)
    rack = rack_of(request.rack, variant)
    board = board_of(request.where)
    check_bag(board, rack, (), variant)
    words = load_lexicon(s.store)
    params = {"rack": rack, "variant": variant.name, "limit": request.limit, "equity": request.equity}
    if request.equity:
        from pipeline.scrabble.equity.moves import ranked_moves, unseen_bag
        from pipeline.scrabble.equity.strategy import uses_leaves
        from pipeline.scrabble.equity.values import LeaveValues, load_leaves

        bag = unseen_bag(board, rack, variant)
        counted = uses_leaves(bag, variant.rack_size)  # near the end a leave counts nothing: none is read
        values = load_leaves(s.store, variant) if counted else LeaveValues.of({})
        moves = ranked_moves(board, rack, variant, words, values, request.limit, bag=bag)
        if not moves:
            raise NotFound(f"no legal play or exchange for rack {rack} on this board")
        plays = tuple(m.play for m in moves if m.play is not None)
        source = provenance(s, "best", params, ("gaddag", "leaves") if counted else ("gaddag",))
        found = BestPlays(variant, board, rack, plays, tuple(moves), source)
    else:
        scored = best_plays(board, rack, variant, words, request.limit)
        if not scored:
            raise NotFound(f"no legal play for rack {rack} on this board")
        found = BestPlays(variant, board, rack, tuple(scored), None, provenance(s, "best", params, ("gaddag",)))
    return endgame_first(found, words, request.limit)


def endgame_first(found: BestPlays, words, limit: int) -> BestPlays:
    """The best plays with, when the bag is empty, the endgame search's first play at their head."""
    from pipeline.scrabble.endgame import solve, unseen_tiles
    from pipeline.scrabble.requests import ENDGAME_SECONDS
    from pipeline.scrabble.rules.scoring import evaluate

    variant, board, rack = found.variant, found.board, found.rack
    unseen = unseen_tiles(board, rack, variant)
    if not 0 < len(unseen) <= variant.rack_size:  # tiles in the bag, or none left for the opponent
        return found
    solved = solve(board, rack, unseen, variant, words, ENDGAME_SECONDS)
    first = solved.best
    if not first.tiles:  # passing is best: the plays stay as they are, the endgame says so
        return found._replace(endgame=solved)
    play = evaluate(board, list(first.tiles), variant, words, first.direction)
    same = set(play.tiles)
    others = tuple(p for p in found.plays if set(p.tiles) != same)
    moves = found.moves
    if moves is not None:  # by equity: the endgame's play heads the moves too (a leave has no value now)
        from pipeline.scrabble.equity.moves import Move
        from pipeline.scrabble.rules.board import leave

        ahead = Move(play, "", play.score, leave(rack, play.tiles), 0.0)
        moves = (ahead, *(m for m in moves if m.play is None or set(m.play.tiles) != same))[:limit]
    return found._replace(plays=(play, *others)[:limit], moves=moves, endgame=solved)


# ---- the endgame -------------------------------------------------------------------------------------


class SolvedEndgame(NamedTuple):
    """An endgame solved: the position, both racks, and the search's value and line."""

    variant: Variant
    board: Board
    rack: str
    opponent: str
    endgame: Endgame
    provenance: Provenance | None = None


def endgame(s: Session, request: EndgameRequest) -> SolvedEndgame:
    """The move that maximises the final spread when the bag is empty and both racks are known."""
    from pipeline.scrabble.endgame import opponent_rack, solve, sorted_rack
    from pipeline.scrabble.lexicon.words import load_lexicon

    variant = variant_of(s.config, request.where.variant)
    rack = sorted_rack(rack_of(request.rack, variant))
    board = board_of(request.where)
    opponent = opponent_rack(
        board, rack, None if request.opponent is None else rack_of(request.opponent, variant), variant
    )
    found = solve(board, rack, opponent, variant, load_lexicon(s.store), request.seconds)
    params = {"rack": rack, "opponent": opponent, "variant": variant.name, "seconds": request.seconds}
    return SolvedEndgame(variant, board, rack, opponent, found, provenance(s, "endgame", params, ("gaddag",)))


# ---- a play ------------------------------------------------------------------------------------------


class ScoredPlay(NamedTuple):
    """A legal play, scored word by word, with the board after it and the leave (when the rack is known)."""

    variant: Variant
    play: Play
    before: Board
    after: Board
    leave: str | None
    wrote: Path | None = None
    provenance: Provenance | None = None


def play(s: Session, request: ScoreRequest | PlayRequest) -> ScoredPlay:
    """Check a play (legal, valid words, tiles in the rack and the bag) and score it; IllegalPlay (exit code 1)
    says why it is not legal. With `out`, write the new board file (an existing one needs `force`, except
    the request's own board file)."""
    from pipeline.core.files import write_text
    from pipeline.core.outputs import check_out
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.rules.board import leave
    from pipeline.scrabble.rules.scoring import score_play

    variant = variant_of(s.config, request.where.variant)
    rack = rack_of(request.rack, variant) if request.rack is not None else None
    board = board_of(request.where)
    out, own = request.out, request.where.board
    same_file = out is not None and own is not None and out.resolve() == own.resolve()
    check_out(out, request.force or same_file, None, s.data_dir)
    scored = score_play(board, request.play, variant, load_lexicon(s.store), rack)
    after = board.copy()
    after.put(scored.tiles)
    if out is not None:
        write_text(out, after.text())
    params = {"play": request.play, "rack": rack, "variant": variant.name}
    kept = leave(rack, scored.tiles) if rack is not None else None
    return ScoredPlay(variant, scored, board, after, kept, out, provenance(s, "play", params, ("gaddag",)))


# ---- a board shown -----------------------------------------------------------------------------------


class ShownBoard(NamedTuple):
    """A board and its variant, and the picture written (if any)."""

    variant: Variant
    board: Board
    wrote: Path | None = None
    provenance: Provenance | None = None


def show(config: Config, request: ShowRequest) -> ShownBoard:
    """Read a board file; with `out`, draw it there (a board needs no lexicon: no session)."""
    from pipeline.core.config import resolve_data_dir
    from pipeline.core.files import write_bytes, write_text
    from pipeline.core.outputs import check_out
    from pipeline.scrabble.render import picture
    from pipeline.scrabble.rules.board import read_board

    check_out(request.out, request.force, (".svg", ".png"), resolve_data_dir(None, config.path)[0])
    variant = variant_of(config, request.variant)
    board = read_board(request.board)
    if request.out is not None:
        data = picture(board, variant, request.out)
        if isinstance(data, str):
            write_text(request.out, data)
        else:
            write_bytes(request.out, data)
    origin = Provenance("show", {"board": str(request.board), "variant": variant.name}, config_sha256=config.sha256)
    return ShownBoard(variant, board, request.out, origin)


# ---- a GCG game replayed -----------------------------------------------------------------------------


class Replay(NamedTuple):
    """A replayed game: one row per event (REPLAY_SCHEMA), its steps, and the record."""

    variant: Variant
    record: GcgGame
    table: pl.DataFrame
    steps: tuple[Step, ...]
    provenance: Provenance | None = None

    @property
    def problems(self) -> int:
        """How many events have a discrepancy."""
        return int(self.table["problems"].list.len().gt(0).sum())

    def totals(self) -> tuple[dict[str, int], dict[str, int]]:
        """Each player's final total by our scores, and by the record."""
        ours, theirs = {}, {}
        for step in self.steps:
            nick = self.record.players[step.event.player][0]
            ours[nick], theirs[nick] = step.our_total, step.event.total
        return ours, theirs


def replay(s: Session, request: ReplayRequest) -> Replay:
    """Replay a GCG game: every score and total checked with our scorer, phonies flagged, and (with `best`)
    each move's best move by equity (by score when leaves.parquet is not built)."""
    from pipeline.scrabble.equity.review import replay_table
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.records.gcg import read_gcg

    variant = variant_of(s.config, request.variant)
    record = read_gcg(request.game)
    words = load_lexicon(s.store)
    table, steps = replay_table(record, variant, words, s.store, request.best, str(request.game), request.seconds)
    if request.move is not None and request.move > len(steps):
        raise FieldError("{move} {got}: the game has {moves} moves", got=request.move, moves=len(steps))
    params = {"game": str(request.game), "best": request.best, "variant": variant.name, "seconds": request.seconds}
    return Replay(variant, record, table, tuple(steps), provenance(s, "replay", params, ("gaddag", "leaves")))


# ---- self-play ---------------------------------------------------------------------------------------


class SelfPlayGames(NamedTuple):
    """Self-play's answer: one row a game, the comparison's one row, or the job's one row of averages."""

    table: pl.DataFrame
    gcg_dir: Path | None = None
    job: Any = None  # the job's result, when the games ran as a sharded job
    provenance: Provenance | None = None


def check_games_memory(games: int, what: str, shard_size: int, kept: bool) -> None:
    """Refuse a number of games (and shards) that would not fit in memory: a shard's games, and every game's
    row when `kept`."""
    from pipeline.core.memory import check_memory, job_bytes

    needed = job_bytes(games, shard_size, shard_item_bytes=GAME_BYTES, kept_item_bytes=GAME_BYTES if kept else 0)
    check_memory(needed, what)


def gcg_path(folder: Path, number: int) -> Path:
    """The GCG file of self-play game `number` in a folder."""
    return folder / f"game-{number:06d}.gcg"


def check_gcg_dir(folder: Path | None, games: int, force: bool, data_dir: Path) -> None:
    """Refuse a GCG folder that is no folder or lies in the data folder, or whose game files exist (without
    `force`), before any game is played."""
    from pipeline.core.outputs import check_out, check_out_folder

    if folder is None:
        if force:
            raise FieldError("{force} applies to {gcg_dir} DIR")
        return
    check_out_folder(folder, data_dir, field="gcg_dir")
    names = {gcg_path(folder, number).name for number in range(1, games + 1)}
    for path in sorted(folder.glob("game-*.gcg")) if folder.is_dir() else []:
        if path.name in names:
            check_out(path, force, None, data_dir, field="gcg_dir")


def check_selfplay(request: SelfPlayRequest) -> None:
    """Refuse a self-play request before anything is read: an unknown strategy, more games than memory holds, a
    sharded job asked for GCG or a comparison."""
    from pipeline.core.errors import WordstatsError
    from pipeline.scrabble.play.jobs import SELFPLAY_SHARD

    for name, value in (("--first", request.first), ("--second", request.second)):
        if value not in STRATEGIES:
            raise WordstatsError(f"{name}: unknown strategy {value!r} (score or equity)")
    check_games_memory(
        request.games, "{games} " + f"{request.games:,}", request.shard_size or SELFPLAY_SHARD, kept=True
    )
    if (request.ray is not None or request.shard_size is not None) and (request.compare or request.gcg_dir):
        raise FieldError("{ray} and {shard_size} give a row of averages: no {gcg_dir} or {compare}")
    if request.endgame and request.compare:
        raise FieldError("{endgame} goes with games between {first} and {second}, not with {compare}")


def selfplay(s: Session, request: SelfPlayRequest, progress=None) -> SelfPlayGames:
    """Play seeded games between the request's strategies (see SelfPlayRequest); `progress` (a Progress) shows
    the comparison's or the job's advance."""
    import polars as pl

    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.strategy import GREEDY

    check_selfplay(request)
    check_gcg_dir(request.gcg_dir, request.games, request.force, s.data_dir)
    variant = variant_of(s.config, request.variant)
    leaves = None
    if request.compare or "equity" in (request.first, request.second):
        from pipeline.scrabble.equity.values import load_leaves

        leaves = load_leaves(s.store, variant)
        leaves.table()  # read whole: every game's moves look leaves up
    strategies = tuple(
        equity_player(leaves) if name == "equity" else GREEDY for name in (request.first, request.second)
    )
    if request.endgame:
        from pipeline.scrabble.play.strategy import SolvesEndgame
        from pipeline.scrabble.requests import SELFPLAY_ENDGAME_POSITIONS

        strategies = tuple(SolvesEndgame(player, SELFPLAY_ENDGAME_POSITIONS) for player in strategies)
    params = {k: v for k, v in vars(request).items() if k not in ("gcg_dir", "force")}
    tables = ("gaddag", "leaves") if leaves is not None else ("gaddag",)
    origin = provenance(s, "selfplay", {**params, "variant": variant.name}, tables)
    if request.ray is not None or request.shard_size is not None:
        table, job = selfplay_job_row(s, request, variant, strategies, progress)
        return SelfPlayGames(table, job=job, provenance=origin)
    words = load_lexicon(s.store)
    if request.compare and leaves is not None:
        summary = compared(variant, words, leaves, request, progress)
        return SelfPlayGames(pl.DataFrame([summary]), provenance=origin)  # one row, as every listing
    return SelfPlayGames(played_games(s, request, variant, words, strategies), request.gcg_dir, provenance=origin)


def equity_player(leaves):
    """The equity strategy with these leave values."""
    from pipeline.scrabble.equity.strategy import Equity

    return Equity(leaves)


def compared(variant: Variant, words, leaves, request: SelfPlayRequest, progress) -> dict:
    """Equity against score-only play over the request's games: mean scores and the equity player's win rate."""
    from pipeline.scrabble.equity.compare import compare_strategies, comparison_summary

    if progress is None:
        return comparison_summary(compare_strategies(variant, words, leaves, request.games, request.seed))
    with progress.task("equity against score-only games", total=request.games) as task:
        return comparison_summary(compare_strategies(variant, words, leaves, request.games, request.seed, task))


def played_games(s: Session, request: SelfPlayRequest, variant: Variant, words, strategies) -> pl.DataFrame:
    """The request's games one after another, a row each (game, final scores, turns), each written as GCG
    into the request's folder when it names one."""
    import polars as pl

    from pipeline.core.files import write_text
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.turns import game_of, game_rng
    from pipeline.scrabble.records.gcg import game_gcg

    rows = []
    names = (request.first + "1", request.second + "2")
    for number in range(1, request.games + 1):
        log = play_game(variant, words, game_rng(request.seed, variant.name, number), strategies)
        if request.gcg_dir is not None:
            text = game_gcg(game_of(log, variant, words), variant, names, s.lexicon)
            write_text(gcg_path(request.gcg_dir, number), text)
        rows.append(
            {"game": number, "score_1": int(log.scores[0]), "score_2": int(log.scores[1]), "turns": len(log.turns)}
        )
    return pl.DataFrame(rows)


def selfplay_job_row(s: Session, request: SelfPlayRequest, variant: Variant, strategies, progress):
    """The request's games as a sharded job: one row of averages and the job's facts, and the job's result."""
    import polars as pl

    from pipeline.core import executor
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.jobs import SELFPLAY_SHARD, local_processes, selfplay_job
    from pipeline.scrabble.play.summary import selfplay_summary

    shard = request.shard_size or SELFPLAY_SHARD
    job = selfplay_job(variant, load_lexicon(s.store), request.seed, request.games, shard, strategies)
    address = executor.cluster_address(s.config, request.ray)
    with executor.engine_session(address, local_processes(request.games)) as engine:
        result = executor.run(job, s.data_dir, s.lexicon, engine, progress)
    rate = result.items_per_second
    facts = {
        "variant": request.variant,
        "seed": request.seed,
        **selfplay_summary(result.tables["games"])[request.variant],
        "seconds": round(result.seconds, 2),
        "games_per_second": round(rate, 3) if rate else None,
        **job_facts(result),
    }
    return pl.DataFrame([facts]), (result, engine.name)


def job_facts(result) -> dict:
    """What a command's output says about the job that computed it."""
    return {
        "job": result.job.job_id,
        "shards": result.computed + result.reused,
        "shards_computed": result.computed,
        "shards_reused": result.reused,
        "job_folder": str(result.folder),
    }


# ---- leave values ------------------------------------------------------------------------------------


class LeaveResult(NamedTuple):
    """The leave values of a run's last round, where they were written, and what the run did."""

    table: pl.DataFrame
    path: Path
    seconds: float
    played: int  # games played (those of shards reused are not counted)
    computed: int  # shards computed
    reused: int  # shards reused from an earlier run
    engine: str
    provenance: dict[str, Any]  # the table's, as its Parquet footer holds it


def learn_leaves(
    config: Config | Path | None, data_dir: Path | None, lexicon: str | None, run: LeaveRun, progress=None
) -> LeaveResult:
    """Learn leave values (equity/job.py) and write them: into the lexicon's store through Store.write (its
    manifest and journal; the lexicon's read lock is let go first, so that the commit waits for no reader of
    this process), or to `run.out`."""
    import time

    from pipeline.core import executor
    from pipeline.core.files import sha256_file, write_parquet
    from pipeline.core.outputs import check_out
    from pipeline.core.session import open_session
    from pipeline.scrabble.equity.job import LEAVES_SHARD, learn
    from pipeline.scrabble.equity.reference import reference_provenance, reference_table
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.jobs import local_processes

    shard = run.shard_size or LEAVES_SHARD
    check_games_memory(run.games, "{games} " + f"{run.games:,}", shard, kept=False)
    if run.last_games is not None:
        check_games_memory(run.last_games, "{last_games} " + f"{run.last_games:,}", shard, kept=False)
    with open_session(config, data_dir, lexicon) as s:
        variant = variant_of(s.config, run.variant)
        check_out(run.out, run.force and run.out is not None, (".parquet",), s.data_dir)
        force_reference = run.force and run.reference is not None
        check_out(run.reference, force_reference, (".parquet",), s.data_dir, field="reference")
        if run.force and run.out is None and run.reference is None:
            raise FieldError("{force} applies to {out} FILE or {reference} FILE")
        words = load_lexicon(s.store)
        started = time.perf_counter()
        address = executor.cluster_address(s.config, run.ray)
        with executor.engine_session(address, local_processes(run.games)) as engine:
            frames, results = learn(
                variant, words, run.games, run.seed, run.prior_weight, run.rounds, engine, s.data_dir, s.lexicon,
                progress, shard, run.last_games,
            )  # fmt: skip
        seconds = time.perf_counter() - started
        params = {"variant": variant.name, "games": run.games, "rounds": run.rounds, "seed": run.seed}
        if run.last_games is not None:
            params["last_games"] = run.last_games
        inputs = {name: sha256_file(s.store.path(name)) for name in ("words", "gaddag") if s.store.exists(name)}
        params = {**params, "prior_weight": run.prior_weight}
        origin = footer("leaves", s.lexicon, s.config.sha256, inputs, params, [r.job.job_id for r in results])
        store, engine_name = s.store, engine.name
    table = frames[-1]
    if run.reference is not None:
        reference = reference_table(results[-1].tables["summary"])
        write_parquet(run.reference, reference, reference_provenance(origin, results))
    if run.out is not None:
        write_parquet(run.out, table, origin)
    else:
        store.write({"leaves": table}, origin)
    played = sum(r.items_computed for r in results)
    computed, reused = sum(r.computed for r in results), sum(r.reused for r in results)
    path = run.out if run.out is not None else store.path("leaves")
    return LeaveResult(table, path, seconds, played, computed, reused, engine_name, origin)


# ---- playability and simulation (their wings hold them; imported when called) -----------------------------------


def measure_playability(config, data_dir, lexicon, run: PlayabilityRun, progress=None):
    """Every word's playability over the run's games, written to the lexicon's playability.parquet or `out`."""
    from pipeline.scrabble.playability import api

    return api.measure_playability(config, data_dir, lexicon, run, progress)


def grow_reference(config, data_dir, lexicon, run: PlayabilityRun, progress=None):
    """The run's reference table grown by its next blocks, a part each."""
    from pipeline.scrabble.playability import api

    return api.grow_reference(config, data_dir, lexicon, run, progress)


def verify_reference(config, data_dir, lexicon, run: PlayabilityRun, progress=None):
    """Some of the reference table's blocks played again and compared with its parts."""
    from pipeline.scrabble.playability import api

    return api.verify_reference(config, data_dir, lexicon, run, progress)


def simulate(s: Session, request: BestRequest):
    """The best plays by equity played out over `request.sim` seeded draws, ranked by mean value."""
    from pipeline.scrabble import sim

    return sim.simulate(s, request)

"""A GCG game reviewed by equity: each move replayed and checked (records/gcg.py), with the best move and the equity
it lost; once the bag is empty, by the exact endgame (scrabble/endgame.py): its best line, and the spread each
move lost against it."""

from __future__ import annotations

import polars as pl

from pipeline.core.errors import WordstatsError
from pipeline.scrabble.equity.moves import ranked_moves, unseen_bag
from pipeline.scrabble.equity.strategy import uses_leaves
from pipeline.scrabble.equity.values import LeaveValues, leave_key, load_leaves
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.records.gcg import EXCHANGE, PASS, PLAY, GcgGame, Step, replay
from pipeline.scrabble.rules.board import leave
from pipeline.scrabble.rules.variant import Variant

REPLAY_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "move": pl.UInt32,
    "player": pl.String,
    "rack": pl.String,
    "play": pl.String,
    "score": pl.Int32,
    "our_score": pl.Int32,
    "total": pl.Int32,
    "record_total": pl.Int32,
    "phonies": pl.List(pl.String),
    "best": pl.String,
    "best_score": pl.Int32,
    "best_equity": pl.Float64,
    "equity": pl.Float64,
    "equity_lost": pl.Float64,
    "endgame_value": pl.Int32,
    "endgame_lost": pl.Int32,
    "endgame_line": pl.String,
    "problems": pl.List(pl.String),
}


def _notation(step: Step) -> str:
    """The move as the record writes it."""
    ev = step.event
    if ev.kind == PLAY:
        return ev.move
    if ev.kind == EXCHANGE:
        return f"-{ev.move}"
    if ev.kind == PASS:
        return "-"
    return {"withdrawn": "--", "challenge_bonus": "(challenge)", "time_penalty": "(time)"}.get(ev.kind, f"({ev.move})")


def replay_table(
    game: GcgGame,
    variant: Variant,
    lexicon: Lexicon,
    store,
    best: bool = True,
    where: str = "game",
    seconds: float = float("inf"),
) -> tuple[pl.DataFrame, list[Step]]:
    """One row per event: the record's and our scores, the total, phonies, discrepancies and (with `best`,
    for moves whose rack is known) the best move by equity (by score when leaves.parquet is not built), or once
    the bag is empty by the endgame (each search within `seconds`)."""
    steps = replay(game, variant, lexicon, where)
    leaves = None
    if best and store.exists("leaves"):
        try:
            leaves = load_leaves(store, variant)
        except WordstatsError:
            leaves = None
    zero = LeaveValues.of({})
    rows = []
    for step in steps:
        ev = step.event
        row = {
            "move": step.number,
            "player": game.players[ev.player][0],
            "rack": ev.rack,
            "play": _notation(step),
            "score": ev.score,
            "our_score": step.our_score,
            "total": step.our_total,
            "record_total": ev.total,
            "phonies": step.phonies,
            "best": None,
            "best_score": None,
            "best_equity": None,
            "equity": None,
            "equity_lost": None,
            "endgame_value": None,
            "endgame_lost": None,
            "endgame_line": None,
            "problems": step.problems,
        }
        known = best and step.rack_known
        ending = known and ev.kind in (PLAY, PASS) and endgame_of(step, variant, lexicon, row, seconds)
        if best and step.rack_known and ev.kind in (PLAY, EXCHANGE, PASS) and not ending:
            counting = leaves is not None and uses_leaves(
                unseen_bag(step.board_before, ev.rack, variant), variant.rack_size
            )  # near the end of the bag, moves are judged by score alone
            values = leaves if leaves is not None and counting else zero
            moves = ranked_moves(step.board_before, ev.rack, variant, lexicon, values, 1, counting)
            if moves:
                top = moves[0]
                row["best"], row["best_score"], row["best_equity"] = top.notation, top.score, round(top.equity, 2)
                mine: float | None
                if ev.kind == PLAY and step.play is not None:
                    kept = leave(ev.rack, step.play.tiles)
                    mine = step.play.score + values.lookup([kept])[kept]
                elif ev.kind == EXCHANGE and not ev.move.isdigit():
                    kept_or_none = _minus(ev.rack, ev.move)
                    mine = values.lookup([kept_or_none])[kept_or_none] if kept_or_none is not None else None
                else:
                    mine = values.lookup([leave_key(ev.rack)])[leave_key(ev.rack)] if counting else 0.0
                if mine is not None:
                    row["equity"] = round(mine, 2)
                    row["equity_lost"] = round(max(top.equity - mine, 0.0), 2)
        rows.append(row)
    return pl.DataFrame(rows, schema=REPLAY_SCHEMA), steps


def endgame_of(step: Step, variant: Variant, lexicon: Lexicon, row: dict, seconds: float) -> bool:
    """Fill the row's endgame columns when the bag was empty before the move (the opponent held every unseen tile):
    the best line and its value, the best move, and the spread the move played lost against it. False when the
    bag still held tiles."""
    from pipeline.scrabble.endgame import played_value, solve, unseen_tiles

    rack, board = step.event.rack, step.board_before
    other = unseen_tiles(board, rack, variant)
    if not 0 < len(other) <= variant.rack_size:
        return False
    found = solve(board, rack, other, variant, lexicon, seconds)
    play = step.play if step.event.kind == PLAY else None
    tiles, score = (tuple(play.tiles), play.score) if play is not None else ((), 0)
    # the scoreless turns before the move are not counted (a record's run of them is not carried)
    played = played_value(board, rack, other, tiles, score, variant, lexicon, seconds)
    best = found.best
    row["best"], row["best_score"] = best.text, best.score
    row["endgame_value"] = found.value
    row["endgame_lost"] = max(found.value - played, 0)
    row["endgame_line"] = "; ".join(t.text for t in found.line) + ("" if found.proven else " (not proven)")
    return True


def _minus(rack: str, tiles: str) -> str | None:
    """The leave after exchanging `tiles` from `rack` (None when the rack lacks them)."""
    left = list(rack)
    for ch in tiles:
        if ch not in left:
            return None
        left.remove(ch)
    return leave_key(left)

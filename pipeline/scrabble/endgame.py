"""Exact endgames: with the bag empty and both racks known, the move that maximises the final spread, found by
negamax with alpha-beta pruning, iterative deepening and a transposition table (as Macondo and MAGPIE solve
them). A move is a play or a pass; a player who plays out gains twice the other's rack value, and after
MAX_SCORELESS scoreless turns in a row each player loses their own rack value. A time limit returns the line of
the deepest search finished, and says it is not proven."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field

from pipeline.core.errors import FieldError, WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS
from pipeline.scrabble.engine import kernels
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.rules.board import Board, Tile, leave, rack_value
from pipeline.scrabble.rules.notation import position, step
from pipeline.scrabble.rules.variant import MAX_SCORELESS, Variant

EXACT, LOWER, UPPER = 0, 1, 2  # what a transposition table value is: the value, or a bound from below or above
SOLVED = 1 << 30  # the depth of a table entry whose search reached the end of the game on every line
INFINITY = 1 << 30
CHECK_CLOCK = 256  # nodes between looks at the clock
MAX_MOVE_LISTS = 200_000  # move lists kept for positions seen again (a new search clears them past this)


class Move:
    """A turn of the endgame: a play (its generator record: where, which tiles, the score) or a pass."""

    __slots__ = ("record", "score", "out", "left")

    def __init__(self, record: tuple[int, ...] | None, score: int, out: bool):
        self.record = record  # None for a pass
        self.score = score
        self.out = out  # plays the mover's last tile
        self.left: str | None = None  # the leave, once asked for (a move list belongs to one rack)

    @property
    def is_pass(self) -> bool:
        """Whether the move places nothing."""
        return self.record is None

    def tiles(self) -> list[Tile]:
        """The tiles the play places."""
        from pipeline.scrabble.movegen.generate import record_tiles

        return [] if self.record is None else record_tiles(self.record)[0]

    def leave(self, rack: str) -> str:
        """The rack after the move (the move list's rack: a play is made for one rack; the pass, shared, for any)."""
        if self.record is None:
            return rack
        if self.left is None:
            self.left = self.rack_left(rack)
        return self.left

    def rack_left(self, rack: str) -> str:
        """The rack after the move, worked out."""
        if self.record is None:
            return rack
        k, r, left = kernels(), self.record, list(rack)
        placed, blanks = r[k.PLAY_PLACED], r[k.PLAY_BLANKS]
        for i in range(r[k.PLAY_LEN]):
            if placed >> i & 1:
                left.remove(BLANK if blanks >> i & 1 else LETTERS[r[k.PLAY_LETTERS + i]])
        return "".join(left)

    def text(self, board: Board) -> str:
        """The move as people write it: position and main word (blanks lower case, board tiles in
        parentheses), or "pass"."""
        if self.record is None:
            return "pass"
        k, r = kernels(), self.record
        row, col, direction = r[k.PLAY_ROW], r[k.PLAY_COL], r[k.PLAY_DIR]
        dr, dc = step(direction)
        word = []
        for i in range(r[k.PLAY_LEN]):
            letter = LETTERS[r[k.PLAY_LETTERS + i]]
            if r[k.PLAY_PLACED] >> i & 1:
                word.append(letter.lower() if r[k.PLAY_BLANKS] >> i & 1 else letter)
            else:
                word.append(f"({board.letter(row + i * dr, col + i * dc)})")
        return f"{position(row, col, direction)} {''.join(word).replace(')(', '')}"


PASS = Move(None, 0, False)


@dataclass(frozen=True)
class Turn:
    """A move of an endgame's line, for people: who, what, the points and the rack left."""

    player: int  # 0 the player to move at the start, 1 the opponent
    text: str
    score: int
    tiles: tuple[Tile, ...]
    leave: str
    direction: int = 0  # of a play: ACROSS or DOWN
    record: tuple[int, ...] | None = None  # of a play: the generator's record (None for a pass)


@dataclass(frozen=True)
class Endgame:
    """A solved (or time-limited) endgame: the spread the player to move gains from here to the end with best
    play by both, the line that gets it, and how far the search went."""

    value: int
    line: tuple[Turn, ...]
    proven: bool
    depth: int  # plies of the deepest search finished
    nodes: int
    seconds: float

    @property
    def best(self) -> Turn:
        """The first move of the line."""
        return self.line[0]


class OutOfTime(Exception):
    """The time limit (or the budget of positions) passed during a search."""


def sorted_rack(rack: str) -> str:
    """A rack in the order leaves are written: letters sorted, blanks last."""
    return "".join(sorted(rack, key=lambda ch: (ch == "?", ch)))


def unseen_tiles(board: Board, rack: str, variant: Variant) -> str:
    """The tiles of the set neither on the board nor on the rack (a blank as ?), as a sorted rack."""
    from pipeline.scrabble.rules.scoring import tiles_on

    left = Counter(variant.tile_set.counts)
    left.subtract(tiles_on(board))
    left.subtract(rack)
    return sorted_rack("".join(left.elements()))


def opponent_rack(board: Board, rack: str, opponent: str | None, variant: Variant) -> str:
    """The opponent's rack of an endgame: as given, or every tile unseen; a one-line error when the tiles do not
    fit the set or the bag is not empty (an endgame starts when it is)."""
    from pipeline.scrabble.rules.scoring import check_bag

    check_bag(board, rack + (opponent or ""), (), variant)
    unseen = unseen_tiles(board, rack, variant)
    if opponent is None:
        if len(unseen) > variant.rack_size:
            raise WordstatsError(
                f"--board: {len(unseen)} tiles are neither on the board nor on your rack, more than a rack holds: "
                "the bag is not empty yet (an endgame starts when it is)"
            )
        if not unseen:
            raise FieldError("{opponent}: every tile is on the board or your rack: the game is over")
        return unseen
    bag = sum((Counter(unseen) - Counter(opponent)).values())
    if bag:
        raise WordstatsError(
            f"--opponent: the bag still holds {bag} tile{'s' * (bag != 1)} (the set less the board and both "
            "racks): an endgame starts when the bag is empty"
        )
    return sorted_rack(opponent)


def played_value(
    board: Board,
    mover: str,
    other: str,
    tiles: tuple[Tile, ...],
    score: int,
    variant: Variant,
    lexicon: Lexicon,
    seconds: float = float("inf"),
    scoreless: int = 0,
) -> int:
    """The spread the mover gains by placing `tiles` (none: a pass) for `score` after `scoreless` scoreless turns,
    and best play by both after it: the tiles left when it plays out or ends a run of scoreless turns, else minus
    the reply's value (each search within `seconds`)."""
    left = leave(mover, tiles) if tiles else mover
    if tiles and not left:
        return score + 2 * rack_value(other, variant)
    run = scoreless + 1 if score == 0 else 0
    if run >= MAX_SCORELESS:
        return score + rack_value(other, variant) - rack_value(left, variant)
    after = board
    if tiles:
        after = board.copy()
        after.put(tiles)
    return score - solve(after, other, left, variant, lexicon, seconds, run).value


def board_key(board: Board) -> bytes:
    """A position's board as a key: a 128-bit digest of its tiles and blanks (a table of millions of positions
    keeps 16 bytes of each board, not 450; two boards share a digest with odds of about 2^-128 a pair)."""
    return hashlib.blake2b(board.cells + board.blank_cells, digest_size=16).digest()


@dataclass
class Search:
    """One endgame's search: its move lists, transposition table and counters."""

    variant: Variant
    lexicon: Lexicon
    deadline: float = float("inf")
    budget: float = float("inf")  # positions searched in all, past which a round stops (as the deadline does)
    nodes: int = 0
    horizon: int = 0  # positions valued by the estimate, not played to the end
    table: dict = field(default_factory=dict)
    move_lists: dict = field(default_factory=dict)

    def moves(self, board: Board, key: bytes, rack: str) -> list[Move]:
        """Every legal play of the rack, and the pass: plays that go out first, then by score (the generator's
        order on ties)."""
        found = self.move_lists.get((key, rack))
        if found is not None:
            return found
        import numpy as np

        from pipeline.scrabble.movegen.generate import board_plays
        from pipeline.scrabble.movegen.tables import variant_tables

        k = kernels()
        records, _ = board_plays(k, variant_tables(self.lexicon, self.variant), board, rack, 0)
        scores = records[:, k.PLAY_SCORE]
        out = np.bitwise_count(records[:, k.PLAY_PLACED]) == len(rack)
        order = np.lexsort((-scores, ~out))
        rows, outs, points = records[order].tolist(), out[order].tolist(), scores[order].tolist()
        found = [Move(tuple(r), p, o) for r, p, o in zip(rows, points, outs)]
        found.append(PASS)
        if len(self.move_lists) >= MAX_MOVE_LISTS:
            self.move_lists.clear()
        self.move_lists[(key, rack)] = found
        return found

    def estimate(self, mover: str, other: str) -> int:
        """The value of a position the search stops short of: the racks' difference, as if the game ended here."""
        return rack_value(other, self.variant) - rack_value(mover, self.variant)

    def value_of(
        self, board: Board, key: bytes, mover: str, other: str, run: int, move: Move, depth: int, alpha: int, beta: int
    ) -> int:
        """The spread the mover gains by `move` and best play after it (depth plies left after this one)."""
        if move.out:
            return move.score + 2 * rack_value(other, self.variant)
        left = move.leave(mover)
        scoreless = run + 1 if move.score == 0 else 0
        if scoreless >= MAX_SCORELESS:
            return move.score + rack_value(other, self.variant) - rack_value(left, self.variant)
        if move.is_pass:
            after, after_key = board, key
        else:
            after = board.copy()
            after.put(move.tiles())
            after_key = board_key(after)
        return move.score - self.negamax(
            after, after_key, other, left, scoreless, depth - 1, move.score - beta, move.score - alpha
        )

    def negamax(
        self, board: Board, key: bytes, mover: str, other: str, run: int, depth: int, alpha: int, beta: int
    ) -> int:
        """The spread the mover gains from this position with best play by both, searched `depth` plies deep
        (exact when no line is cut short; else within the alpha-beta window's usual meaning)."""
        self.nodes += 1
        if self.nodes > self.budget or (self.nodes % CHECK_CLOCK == 0 and time.monotonic() > self.deadline):
            raise OutOfTime
        entry_key = (key, mover, other, run)
        entry = self.table.get(entry_key)
        first = None
        if entry is not None:
            stored_depth, kind, value, first = entry
            if stored_depth >= depth and (
                kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha)
            ):
                if stored_depth != SOLVED:
                    self.horizon += 1
                return value
        if depth == 0:
            self.horizon += 1
            return self.estimate(mover, other)
        start_alpha, start_horizon = alpha, self.horizon
        best, best_move = -INFINITY, None
        moves = self.moves(board, key, mover)
        if first is not None:
            moves = [first, *(m for m in moves if m != first)]
        for move in moves:
            value = self.value_of(board, key, mover, other, run, move, depth, alpha, beta)
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        kind = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[entry_key] = (SOLVED if self.horizon == start_horizon else depth, kind, best, best_move)
        return best

    def line(self, board: Board, mover: str, other: str, run: int, value: int | None, depth: int) -> list[Turn]:
        """The line of best play. Given the position's proven value, in each position the first move (in search
        order) whose value is the position's, searched again with a window around it (the table answers most of
        it), until the game ends; else (a depth-limited search: estimates) each position's best move in the
        table, for as many plies as the search looked."""
        turns: list[Turn] = []
        self.deadline = self.budget = float("inf")
        while depth > 0:
            key = board_key(board)
            chosen = self.best_move(board, key, mover, other, run, value)
            if chosen is None:
                break
            left = chosen.leave(mover)
            tiles = tuple(chosen.tiles())
            direction = 0 if chosen.record is None else chosen.record[kernels().PLAY_DIR]
            turn = Turn(len(turns) % 2, chosen.text(board), chosen.score, tiles, left, direction, chosen.record)
            turns.append(turn)
            run = run + 1 if chosen.score == 0 else 0
            if chosen.out or run >= MAX_SCORELESS:
                break
            if tiles:
                board = board.copy()
                board.put(tiles)
            mover, other, depth = other, left, depth - 1
            value = None if value is None else chosen.score - value
        return turns

    def best_move(self, board: Board, key: bytes, mover: str, other: str, run: int, value: int | None) -> Move | None:
        """A move of the position's proven value (the first in search order), or without one the table's best."""
        if value is None:
            entry = self.table.get((key, mover, other, run))
            return None if entry is None else entry[3]
        for move in self.moves(board, key, mover):
            if self.value_of(board, key, mover, other, run, move, SOLVED, value - 1, value + 1) == value:
                return move
        return None


def solve(
    board: Board,
    mover: str,
    other: str,
    variant: Variant,
    lexicon: Lexicon,
    seconds: float = float("inf"),
    scoreless: int = 0,
    positions: float = float("inf"),
) -> Endgame:
    """The endgame of `mover` (to move) against `other` on `board`: iterative deepening, one ply more each round,
    until a round reaches the end of the game on every line it looks at (proven) or the time limit passes or the
    search has looked at `positions` positions (the deepest round finished gives the line; the first round always
    finishes). A budget of positions, unlike a time limit, gives the same line on every machine."""
    started = time.monotonic()
    mover, other = sorted_rack(mover), sorted_rack(other)
    search = Search(variant, lexicon)
    key = board_key(board)
    result = None
    depth = 0
    while True:
        depth += 1
        search.horizon = 0
        search.deadline = float("inf") if depth == 1 else started + seconds
        search.budget = float("inf") if depth == 1 else positions
        try:
            value = search.negamax(board, key, mover, other, scoreless, depth, -INFINITY, INFINITY)
        except OutOfTime:
            break
        proven = search.horizon == 0
        line = tuple(search.line(board, mover, other, scoreless, value if proven else None, depth))
        result = Endgame(value, line, proven, depth, search.nodes, time.monotonic() - started)
        if proven:
            break
    assert result is not None
    return Endgame(result.value, result.line, result.proven, result.depth, search.nodes, time.monotonic() - started)

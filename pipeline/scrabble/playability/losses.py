"""What not knowing a word costs on one turn, and over a game.

On a turn the mover ranks its moves as its strategy does (equity.moves: score plus leave value while the bag
holds a full rack, else score alone; equity.strategy.uses_leaves). For each distinct word W that the best move
forms (its main word and every cross word), the loss is

    loss(W) = equity(best) - max(equity of the moves that form no W)

where exchanges and the pass form no word: the pass is worth 0, and while leaves count every exchange is a move
(keeping nothing is worth 0, so the alternative is never below 0). A word the best move does not form loses
nothing. Ties: the best move is the one the game plays (higher equity, then higher score, then the move
generator's order; a play before an exchange of equal equity), and only equities enter a loss, so how ties among
the other moves are broken never changes it. A turn whose best move is an exchange or a pass costs nothing.

Losses are kept in integer thousandths of a point (MILLI), so that sums over games are exact in any order.

measured_game finds them in the game kernel as the game is played (movegen/kernels/losses.py: each word's
alternative among the best plays the equity search keeps, or among every play when all of those form it);
game_losses replays a game's log here in Python, and reference_losses ranks every move by the rules: the slow
references it is tested against."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np

from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.equity.moves import Move, ranked_moves
from pipeline.scrabble.equity.strategy import Equity, uses_leaves
from pipeline.scrabble.equity.values import RADIX, TILES, LeaveValues, keys_of_texts, rack_leaves
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import generate, record_tiles
from pipeline.scrabble.play.game import GameLog, log_rows, play_game, rack_text
from pipeline.scrabble.rules.board import Board
from pipeline.scrabble.rules.scoring import Play, evaluate
from pipeline.scrabble.rules.variant import Variant
from pipeline.words.playability import MILLI

PASS_EQUITY = 0.0  # the pass: no score, the whole rack kept (a leave of a full rack is worth 0)


def play_words(play: Play) -> frozenset[str]:
    """The distinct words a play forms: its main word and every cross word (upper case)."""
    return frozenset([play.main.word, *(w.word for w in play.cross)])


def move_words(move: Move) -> frozenset[str]:
    """The words a move forms (none for an exchange)."""
    return play_words(move.play) if move.play is not None else frozenset()


def word_losses(best: float, words: frozenset[str], others: Iterable[tuple[float, frozenset[str]]]) -> dict[str, float]:
    """loss(W) for each word W of the best move (equity `best`), given every other move as (equity, words)."""
    others = list(others)
    return {w: best - max([PASS_EQUITY] + [e for e, formed in others if w not in formed]) for w in words}


def reference_losses(
    board: Board, rack: str, bag: int, variant: Variant, lexicon: Lexicon, leaves: LeaveValues
) -> dict[str, float]:
    """loss(W) for each word W of the best move, from every move ranked and checked by the rules (slow)."""
    moves = ranked_moves(board, rack, variant, lexicon, leaves, top=1 << 30, exchanges=True, bag=bag)
    if not moves or moves[0].play is None:
        return {}
    return word_losses(moves[0].equity, move_words(moves[0]), [(m.equity, move_words(m)) for m in moves[1:]])


@dataclass(frozen=True)
class Ranked:
    """A turn's plays by equity, best first (the game's order), with the best exchange's (or the pass's) equity."""

    records: np.ndarray  # play records, best first
    equity: np.ndarray  # float64, theirs
    floor: float  # the best move that is not a play: an exchange, or the pass

    @property
    def best_is_play(self) -> bool:
        """Whether a play is the best move (a play beats an exchange of equal equity)."""
        return len(self.records) > 0 and self.equity[0] >= self.floor


def ranked_plays(board: Board, rack: str, bag: int, variant: Variant, lexicon: Lexicon, leaves: LeaveValues) -> Ranked:
    """Every play of the rack in the game's order (equity, then score, then the generator's order) and the best
    equity of a move that is not a play."""
    from pipeline.scrabble.engine import kernels

    records, _ = generate(board, rack, variant, lexicon)
    scores = records[:, kernels().PLAY_SCORE].astype(np.float64)
    floor = PASS_EQUITY
    equity = scores
    if uses_leaves(bag, variant.rack_size):
        swaps = [keep for keep in rack_leaves(rack) if len(keep) < len(rack)]
        equity = scores + key_worth(leaves, record_leave_keys(records, rack))
        floor = max(PASS_EQUITY, float(key_worth(leaves, keys_of_texts(swaps)).max()))
    order = np.lexsort((-scores, -equity))
    return Ranked(records[order], equity[order], floor)


def record_leave_keys(records: np.ndarray, rack: str) -> np.ndarray:
    """The key of each play record's leave (equity.values: its tile codes + 1, ascending, as base-RADIX
    digits), from the rack's counts less the tiles each record places."""
    from pipeline.scrabble.engine import kernels

    k = kernels()
    n = records.shape[0]
    left = np.repeat(rack_counts(rack).astype(np.int64)[None, :], n, axis=0)
    rows = np.arange(n)
    for i in range(records.shape[1] - k.PLAY_LETTERS):
        placed = (records[:, k.PLAY_PLACED] >> i) & 1 == 1
        blank = (records[:, k.PLAY_BLANKS] >> i) & 1 == 1
        code = np.where(blank, len(TILES) - 1, records[:, k.PLAY_LETTERS + i])
        left[rows[placed], code[placed]] -= 1
    start = np.cumsum(left, axis=1) - left  # the digit where each code's run starts
    run = (RADIX**left - 1) // (RADIX - 1)  # 1 + RADIX + ... for each tile of the run
    return ((np.arange(1, len(TILES) + 1)[None, :] * RADIX**start) * run).sum(axis=1)


def key_worth(leaves: LeaveValues, wanted: np.ndarray) -> np.ndarray:
    """The value of each leave (by key), looked up as the game kernel does (0 when not listed)."""
    keys, values = leaves.arrays
    if not len(keys):
        return np.zeros(len(wanted))
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[at], 0.0)


def record_words(board: Board, record: np.ndarray, variant: Variant, lexicon: Lexicon) -> frozenset[str]:
    """The words a play record forms (by the rules)."""
    tiles, direction = record_tiles(record)
    return play_words(evaluate(board, tiles, variant, lexicon, direction))


def scan_losses(equity: np.ndarray, floor: float, words: Callable[[int], frozenset[str]]) -> dict[str, float]:
    """loss(W) for each word of move 0, the moves given best first by `equity` with their `words(i)`, and the
    best move that forms no word at `floor`: down the list to the first move without W (the best of them), or to
    the floor when no move above it lacks W. Only the moves read are asked for their words."""
    best = float(equity[0])
    losses = {}
    for word in words(0):
        other = floor
        for i in range(1, len(equity)):
            if equity[i] <= other:
                break
            if word not in words(i):
                other = float(equity[i])
                break
        losses[word] = best - other
    return losses


def ranked_losses(ranked: Ranked, board: Board, variant: Variant, lexicon: Lexicon) -> dict[str, float]:
    """loss(W) for each word of the best play of a turn (scan_losses over its plays, each evaluated once)."""
    if not ranked.best_is_play:
        return {}
    words = cache(lambda i: record_words(board, ranked.records[i], variant, lexicon))
    return scan_losses(ranked.equity, ranked.floor, words)


def turn_losses(
    board: Board, rack: str, bag: int, variant: Variant, lexicon: Lexicon, leaves: LeaveValues
) -> dict[str, float]:
    """loss(W) for each word W of the best move of the turn (the fast way: reference_losses gives the same)."""
    return ranked_losses(ranked_plays(board, rack, bag, variant, lexicon, leaves), board, variant, lexicon)


def milli(points: float) -> int:
    """Points as integer thousandths."""
    return int(round(points * MILLI))


@dataclass(frozen=True)
class TurnLoss:
    """One play turn of a game: the mover and loss(W) for the words of its best move."""

    turn: int
    player: int
    losses: dict[str, float]


def game_losses(log: GameLog, variant: Variant, lexicon: Lexicon, leaves: LeaveValues) -> Iterator[TurnLoss]:
    """Each play turn of a game between equity players with these leave values: loss(W) of its words. The game's
    own play must be the best move found here (else RuntimeError: the ranking differs from the game's)."""
    from pipeline.scrabble.movegen.kernels import layout as ly

    board, bag = Board(), variant.tile_set.size
    for _ in log.scores:  # each player's first rack
        bag -= min(variant.rack_size, bag)
    for k, (row, counts) in enumerate(zip(log.turns, log.racks)):
        if int(row[ly.TURN_ACTION]) != ly.PLAY:
            continue
        record = row[ly.TURN_RECORD :]
        ranked = ranked_plays(board, rack_text(counts), bag, variant, lexicon, leaves)
        if not ranked.best_is_play or not np.array_equal(ranked.records[0], record):
            raise RuntimeError(f"turn {k + 1}: the game played {record.tolist()}, the ranking's best differs")
        yield TurnLoss(k, int(row[ly.TURN_PLAYER]), ranked_losses(ranked, board, variant, lexicon))
        tiles, _ = record_tiles(record)
        board.put(tiles)
        bag = max(bag - len(tiles), 0)


def found_rows(rows: int):
    """An empty kernels.layout.Found of `rows` rows."""
    from pipeline.scrabble.movegen.kernels import layout as ly

    return ly.Found(
        np.zeros(rows, dtype=np.int64),
        np.full((rows, ly.N), -1, dtype=np.int8),
        np.zeros(rows, dtype=np.float64),
        np.zeros(1, dtype=np.int64),
    )


def found_words(found) -> Iterator[tuple[int, str, float]]:
    """The rows a measured game or turn wrote: turn, word, loss."""
    n = int(found.written[0])
    for turn, codes, loss in zip(found.turns[:n].tolist(), found.words[:n], found.losses[:n].tolist()):
        yield turn, (codes[codes >= 0] + ord("A")).astype(np.uint8).tobytes().decode(), loss


def measured_game(variant: Variant, lexicon: Lexicon, rng: np.random.Generator, leaves: LeaveValues):
    """A game between two equity players with these leave values, and loss(W) of the words of each play turn,
    found in the game kernel as the game is played (the same as game_losses of the log, far faster)."""
    from pipeline.scrabble.movegen.kernels import layout as ly

    player = Equity(leaves)
    found = found_rows(log_rows(variant) * (variant.rack_size + 1))
    log = play_game(variant, lexicon, rng, (player, player), found=found)
    turns: dict[int, dict[str, float]] = {}
    for turn, word, loss in found_words(found):
        turns.setdefault(turn, {})[word] = loss
    return log, [TurnLoss(k, int(log.turns[k, ly.TURN_PLAYER]), losses) for k, losses in turns.items()]


def kernel_losses(
    board: Board, rack: str, bag: int, variant: Variant, lexicon: Lexicon, leaves: LeaveValues, top: int = 0
) -> dict[str, float]:
    """loss(W) for each word W of the best move of the turn, as a measured game finds it (the kernel's way), from
    the `top` best plays (a measured game's LOSS_TOP unless given) or every play when all of those form W."""
    from pipeline.letters.tiles import rack_counts
    from pipeline.scrabble.movegen.kernels import layout as ly
    from pipeline.scrabble.movegen.kernels.losses import measured_move
    from pipeline.scrabble.movegen.kernels.position import position_tables
    from pipeline.scrabble.movegen.tables import variant_tables

    tab = variant_tables(lexicon, variant)
    pos = position_tables(tab, np.ascontiguousarray(board.tiles, dtype=np.int8), np.ascontiguousarray(board.blanks))
    keys, values = leaves.arrays
    found = found_rows(variant.rack_size + 1)
    best = np.zeros((top or ly.LOSS_TOP, ly.RECORD), dtype=np.int32)
    kept, gone = np.zeros(27, dtype=np.int64), np.zeros(27, dtype=np.int64)
    counts = rack_counts(rack).astype(np.int64)
    measured_move(tab, pos, keys, values, counts, bag, best, kept, gone, found, 0)
    return {word: loss for _, word, loss in found_words(found)}

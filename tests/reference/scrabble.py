"""The Scrabble references: the trie move generator, and games between strategies played with it and the rules,
written plainly, for the tests and benchmarks to check the GADDAG engine against (every play, score and order;
every game of a seed)."""

from __future__ import annotations

import numpy as np

from pipeline.core.config import BLANK, LETTERS
from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.equity.moves import best_move
from pipeline.scrabble.equity.strategy import Equity, uses_leaves
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import record_tiles
from pipeline.scrabble.play.strategy import GREEDY, Strategy
from pipeline.scrabble.play.turns import Game, Turn, rack_value
from pipeline.scrabble.rules.board import Board, leave
from pipeline.scrabble.rules.scoring import evaluate
from pipeline.scrabble.rules.variant import Variant

_TRIES: dict[int, tuple[Lexicon, object]] = {}


def trie_of(lexicon: Lexicon):
    """The flat-array trie of a lexicon's words (built once per lexicon)."""
    from pipeline.letters.trie import build_trie

    hit = _TRIES.get(id(lexicon))
    if hit is None or hit[0] is not lexicon:
        hit = _TRIES[id(lexicon)] = (lexicon, build_trie(sorted(lexicon.words)))
    return hit[1]


def generate_reference(
    board: Board, rack: str, variant: Variant, lexicon: Lexicon, keep: int = 0
) -> tuple[np.ndarray, int]:
    """Play records of every legal play (keep = 0) or the `keep` best, by the trie generator (Appel and
    Jacobson's left parts and right extensions), with the number of legal plays: what the GADDAG generator
    (movegen.generate) must give, record for record and in the same order."""
    from tests.reference.scrabble_kernels import scrabble_plays

    trie = trie_of(lexicon)
    records, total = scrabble_plays(
        board.tiles,
        board.blanks,
        rack_counts(rack).astype(np.int32),
        trie.children,
        trie.word_at,
        variant.letter_values,
        variant.letter_mult,
        variant.word_mult,
        variant.centre[0],
        variant.centre[1],
        variant.bingo_bonus,
        variant.rack_size,
        keep,
    )
    return records, int(total)


def reference_move(strategy: Strategy, board: Board, rack: str, bag: int, variant: Variant, lexicon: Lexicon):
    """A player's move by its strategy, found plainly: (tiles, direction) of its play, or the tiles it exchanges,
    or neither (a pass). Greedy: the reference generator's best play, else the whole rack when the bag holds a
    full rack. By equity while the bag holds a full rack: the move of highest equity among every play and
    exchange (equity.moves.ranked_moves); with fewer tiles in the bag, greedy."""
    if isinstance(strategy, Equity) and uses_leaves(bag, variant.rack_size):
        move = best_move(board, rack, variant, lexicon, strategy.leaves, True)
        if move is not None and move.play is not None:
            return (list(move.play.tiles), move.play.direction), ""
        return None, move.exchange if move is not None else ""
    records, _ = generate_reference(board, rack, variant, lexicon, keep=1)
    if len(records):
        return record_tiles(records[0]), ""
    return None, rack if bag >= variant.rack_size else ""


def reference_game(
    variant: Variant,
    lexicon: Lexicon,
    rng: np.random.Generator,
    strategies: tuple[Strategy, ...] = (GREEDY, GREEDY),
    max_scoreless: int = 6,
) -> Game:
    """A game between players of these strategies (reference_move), played with the reference generator and the
    rules: what the game kernel (play.game.play_game) must play, turn for turn. It ends when a player goes out
    with the bag empty (they gain the others' rack values, which the others lose) or after `max_scoreless`
    scoreless turns in a row (each player loses their rack value)."""
    bag = [ch for ch in LETTERS + BLANK for _ in range(variant.tile_set.counts.get(ch, 0))]
    rng.shuffle(bag)

    def draw(rack: str) -> str:
        """The rack refilled from the bag, sorted."""
        while len(rack) < variant.rack_size and bag:
            rack += bag.pop()
        return "".join(sorted(rack))

    racks = [draw("") for _ in strategies]
    board, scores, turns, scoreless, player = Board(), [0] * len(strategies), [], 0, 0
    while True:
        turn = Turn(player, board.copy(), racks[player], "pass")
        placed, exchanged = reference_move(strategies[player], board, racks[player], len(bag), variant, lexicon)
        if placed is not None:
            tiles, direction = placed
            turn.play = evaluate(board, tiles, variant, lexicon, direction)
            turn.action = "play"
            board.put(tiles)
            scores[player] += turn.play.score
            racks[player] = draw(leave(racks[player], tiles))
            scoreless = 0
        else:
            if exchanged:
                turn.action, turn.exchanged = "exchange", exchanged
                kept = list(racks[player])
                for ch in exchanged:
                    kept.remove(ch)
                racks[player] = draw("".join(kept))
                bag.extend(sorted(exchanged))  # back in sorted order, as the kernel returns them
                rng.shuffle(bag)
            scoreless += 1
        turns.append(turn)
        if not racks[player] and not bag:
            for other in range(len(strategies)):
                if other != player:
                    left = rack_value(racks[other], variant)
                    scores[other] -= left
                    scores[player] += left
            return Game(variant.name, turns, scores, player)
        if scoreless >= max_scoreless:
            for p in range(len(strategies)):
                scores[p] -= rack_value(racks[p], variant)
            return Game(variant.name, turns, scores, None, list(racks))
        player = (player + 1) % len(strategies)

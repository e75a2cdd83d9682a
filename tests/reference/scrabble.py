"""The Scrabble references: the trie move generator and greedy self-play on it, written plainly, for the tests and
benchmarks to check the GADDAG engine against (every play, score and order; every game of a seed)."""

from __future__ import annotations

import numpy as np

from pipeline.core.config import BLANK, LETTERS
from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.movegen import record_tiles
from pipeline.scrabble.rules.board import Board, leave
from pipeline.scrabble.rules.scoring import evaluate
from pipeline.scrabble.rules.variant import Variant
from pipeline.scrabble.selfplay import Game, Turn, rack_value

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


def self_play_reference(
    variant: Variant, lexicon: Lexicon, rng: np.random.Generator, players: int = 2, max_scoreless: int = 6
) -> Game:
    """A game between greedy players: each plays its highest-scoring move, else exchanges its whole rack
    (when the bag holds a full rack) or passes. It ends when a player goes out with the bag empty
    (they gain the others' rack values, which the others lose) or after `max_scoreless` scoreless turns
    in a row (each player loses their rack value). Played with the reference generator and rules."""
    bag = [ch for ch in LETTERS + BLANK for _ in range(variant.tile_set.counts.get(ch, 0))]
    rng.shuffle(bag)
    racks = [""] * players

    def draw(rack: str) -> str:
        """The rack refilled from the bag, sorted."""
        while len(rack) < variant.rack_size and bag:
            rack += bag.pop()
        return "".join(sorted(rack))

    racks = [draw(r) for r in racks]
    board, scores, turns, scoreless, player = Board(), [0] * players, [], 0, 0
    while True:
        records, _ = generate_reference(board, racks[player], variant, lexicon, keep=1)
        turn = Turn(player, board.copy(), racks[player], "pass")
        if len(records):
            tiles, direction = record_tiles(records[0])
            turn.play = evaluate(board, tiles, variant, lexicon, direction)
            if turn.play.score != records[0][0]:
                raise RuntimeError(f"move generator scored {turn.play} {records[0][0]}, rules say {turn.play.score}")
            turn.action = "play"
            board.put(tiles)
            scores[player] += turn.play.score
            racks[player] = draw(leave(racks[player], tiles))
            scoreless = 0
        else:
            if len(bag) >= variant.rack_size:
                turn.action = "exchange"
                old = racks[player]
                racks[player] = draw("")
                bag.extend(old)
                rng.shuffle(bag)
            scoreless += 1
        turns.append(turn)
        if not racks[player] and not bag:
            for other in range(players):
                if other != player:
                    left = rack_value(racks[other], variant)
                    scores[other] -= left
                    scores[player] += left
            return Game(variant.name, turns, scores, player)
        if scoreless >= max_scoreless:
            for p in range(players):
                scores[p] -= rack_value(racks[p], variant)
            return Game(variant.name, turns, scores, None)
        player = (player + 1) % players

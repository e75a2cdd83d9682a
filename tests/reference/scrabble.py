"""The Scrabble references: the trie move generator, games between strategies played with it and the rules, and
the brute force (every word at every square, checked one by one), written plainly, for the tests and benchmarks to
check the GADDAG engine against (every play, score and order; every game of a seed)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from pipeline.letters.alphabet import BLANK, LETTERS
from pipeline.letters.tiles import rack_counts
from pipeline.scrabble.equity.moves import best_move
from pipeline.scrabble.equity.strategy import Equity, uses_leaves
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import record_tiles
from pipeline.scrabble.play.strategy import GREEDY, Strategy
from pipeline.scrabble.play.turns import Game, Turn
from pipeline.scrabble.rules.board import Board, leave, rack_value
from pipeline.scrabble.rules.scoring import evaluate
from pipeline.scrabble.rules.variant import Variant

_TRIES: dict[int, tuple[Lexicon, object]] = {}


def trie_of(lexicon: Lexicon):
    """The flat-array trie of a lexicon's words (built once per lexicon, by the C engine's trie builder, as the
    Boggle dictionary builds its own: the letter trie's numba kernels are only the C's reference)."""
    from pipeline.boggle.engine import kernels
    from pipeline.letters.trie import build_trie

    hit = _TRIES.get(id(lexicon))
    if hit is None or hit[0] is not lexicon:
        hit = _TRIES[id(lexicon)] = (lexicon, build_trie(sorted(lexicon.words), kernels()))
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


def brute_force(board: Board, rack: str, words: list[str], game: Variant) -> dict:
    """{placed tiles: score} of every legal play: every word at every square in both directions, checked
    against the rules one by one, with every way of using the rack's blanks."""
    grid = board.text().splitlines()
    lexicon = set(words)
    centre = game.centre
    empty = all(ch == "." for row in grid for ch in row)

    def tile(r, c):
        """The letter on a square as the board file writes it, or None."""
        return grid[r][c] if 0 <= r < 15 and 0 <= c < 15 and grid[r][c] != "." else None

    def value(ch):
        """A tile's value: 0 for a blank (lower case)."""
        return 0 if ch.islower() else game.tile_set.values[ch]

    def word_score(squares, new):
        """A word's score: premiums only under new tiles."""
        total, mult = 0, 1
        for sq in squares:
            if sq in new:
                total += value(new[sq]) * int(game.letter_mult[sq])
                mult *= int(game.word_mult[sq])
            else:
                total += value(tile(*sq))
        return total * mult

    def run(r, c, dr, dc, new):
        """The squares of the line of tiles (old and new) through (r, c) in direction (dr, dc)."""
        while tile(r - dr, c - dc) or (r - dr, c - dc) in new:
            r, c = r - dr, c - dc
        squares = []
        while tile(r, c) or (r, c) in new:
            squares.append((r, c))
            r, c = r + dr, c + dc
        return squares

    plays = {}
    rack_letters, rack_blanks = Counter(rack.replace("?", "")), rack.count("?")
    lines = {(0, 1): grid, (1, 0): ["".join(row[c] for row in grid) for c in range(15)]}
    near = {
        (r, c)
        for r in range(15)
        for c in range(15)
        if any(tile(r + x, c + y) for x, y in ((0, 1), (0, -1), (1, 0), (-1, 0)))
    }
    by_length = {n: [w for w in words if len(w) == n] for n in range(2, 16)}
    for (dr, dc), texts in lines.items():
        for k, text in enumerate(texts):
            for n, same_length in by_length.items():
                for start in range(16 - n):
                    segment = text[start : start + n]
                    spot = {(k, start + i) if dr == 0 else (start + i, k) for i in range(n)}
                    if "." not in segment or not (centre in spot if empty else spot & near):
                        continue  # quick skip: no square to fill, or none that could touch a tile
                    if (start > 0 and text[start - 1] != ".") or (start + n < 15 and text[start + n] != "."):
                        continue
                    for word in same_length:
                        if not all(s == "." or s.upper() == w for s, w in zip(segment, word)):
                            continue
                        r, c = (k, start) if dr == 0 else (start, k)
                        squares = [(r + i * dr, c + i * dc) for i in range(n)]
                        new_squares = [(sq, ch) for sq, ch, s in zip(squares, word, segment) if s == "."]
                        if len(new_squares) > len(rack):
                            continue
                        if empty and centre not in squares:
                            continue
                        if (
                            not empty
                            and len(new_squares) == n
                            and not any(
                                tile(a + x, b + y)
                                for (a, b), _ in new_squares
                                for x, y in ((0, 1), (0, -1), (1, 0), (-1, 0))
                            )
                        ):
                            continue
                        new = dict(new_squares)
                        crosses = [run(a, b, dc, dr, new) for (a, b) in new]
                        crosses = [sqs for sqs in crosses if len(sqs) > 1]
                        if any("".join((tile(*q) or new[q]).upper() for q in sqs) not in lexicon for sqs in crosses):
                            continue
                        for n_blanks in range(min(rack_blanks, len(new_squares)) + 1):
                            for blank_at in combinations(range(len(new_squares)), n_blanks):
                                real = Counter(ch for i, (_, ch) in enumerate(new_squares) if i not in blank_at)
                                if real - rack_letters:
                                    continue
                                placed = {
                                    sq: ch.lower() if i in blank_at else ch for i, (sq, ch) in enumerate(new_squares)
                                }
                                score = word_score(squares, placed) + sum(word_score(s, placed) for s in crosses)
                                score += game.bingo_bonus if len(placed) == game.rack_size else 0
                                plays[frozenset((a, b, ch) for (a, b), ch in placed.items())] = score
    return plays

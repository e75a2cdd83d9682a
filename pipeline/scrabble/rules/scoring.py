"""Scrabble plays: legality, and scores with their breakdown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK
from pipeline.scrabble.rules.board import Board, Tile
from pipeline.scrabble.rules.notation import IllegalPlay, parse_play, position, step
from pipeline.scrabble.rules.variant import ACROSS, DOWN, SIZE, Variant


class Words(Protocol):
    """What the rules ask of a lexicon: whether a word (upper case) is playable."""

    def __contains__(self, word: str) -> bool: ...


@dataclass(frozen=True)
class WordScore:
    """One word a play forms and how it scores."""

    word: str  # upper case
    squares: tuple[tuple[int, int], ...]
    letters: str  # each letter with its value and premium, e.g. "Q10×2 U1 (I1) Z10"
    letter_sum: int
    word_mult: int

    @property
    def score(self) -> int:
        """Letter sum times word multiplier."""
        return self.letter_sum * self.word_mult


@dataclass(frozen=True)
class Play:
    """A legal play: where, which tiles, the words it forms and its score."""

    row: int  # of the main word's first square
    col: int
    direction: int  # ACROSS or DOWN
    display: str  # the main word, blanks lower case, board tiles in parentheses
    tiles: tuple[Tile, ...]
    main: WordScore
    cross: tuple[WordScore, ...]
    bingo: int

    @property
    def position(self) -> str:
        """Standard notation: row then column across (8H), column then row down (H8)."""
        return position(self.row, self.col, self.direction)

    @property
    def score(self) -> int:
        """Main word, cross-words and bingo bonus."""
        return self.main.score + sum(w.score for w in self.cross) + self.bingo

    def __str__(self) -> str:
        """The play in standard notation: position and word."""
        return f"{self.position} {self.display}"


def _run(board: Board, new: dict, row: int, col: int, direction: int) -> list[tuple[int, int]]:
    """The squares of the maximal line of tiles (board and new) through (row, col) in `direction`."""
    dr, dc = step(direction)

    def filled(r, c):
        """Whether the square is on the board and holds a tile (old or new)."""
        return 0 <= r < SIZE and 0 <= c < SIZE and (board.occupied(r, c) or (r, c) in new)

    while filled(row - dr, col - dc):
        row, col = row - dr, col - dc
    squares = []
    while filled(row, col):
        squares.append((row, col))
        row, col = row + dr, col + dc
    return squares


def _word_score(board: Board, new: dict, squares: list, variant: Variant) -> WordScore:
    """A word's letters and score: premiums count only under new tiles."""
    letter_sum, mult, parts = 0, 1, []
    for r, c in squares:
        if (r, c) in new:
            letter = new[(r, c)]
            lm, wm = variant.premiums[r][c]
            value = variant.value(letter) * lm
            mult *= wm
            parts.append(f"{letter}{variant.value(letter)}" + (f"×{lm}" if lm > 1 else ""))
        else:
            letter = board.letter(r, c)
            value = variant.value(letter)
            parts.append(f"({letter}{value})")
        letter_sum += value
    word = "".join(new.get(sq) or board.letter(*sq) for sq in squares).upper()
    return WordScore(word, tuple(squares), " ".join(parts), letter_sum, mult)


def _display(board: Board, new: dict, squares: list) -> str:
    """The main word in notation: new tiles as played, board tiles grouped in parentheses."""
    out, inside = [], False
    for sq in squares:
        on_board = sq not in new
        if on_board != inside:
            out.append("(" if on_board else ")")
            inside = on_board
        out.append(new[sq] if not on_board else board.letter(*sq))
    return "".join(out) + (")" if inside else "")


def evaluate(
    board: Board, tiles: Iterable[Tile], variant: Variant, lexicon: Words, direction: int | None = None
) -> Play:
    """The play of `tiles` on `board`, scored, or IllegalPlay saying which rule it breaks.

    A one-tile play's direction is `direction` when given, else across when it makes an across word."""
    tiles = tuple(tiles)
    if not tiles:
        raise IllegalPlay("a play places at least one tile")
    if len(tiles) > variant.rack_size:
        raise IllegalPlay(f"a play places at most {variant.rack_size} tiles, this one {len(tiles)}")
    new: dict[tuple[int, int], str] = {}
    for t in tiles:
        if not (0 <= t.row < SIZE and 0 <= t.col < SIZE):
            raise IllegalPlay("the word runs off the board")
        if board.occupied(t.row, t.col) or (t.row, t.col) in new:
            raise IllegalPlay(f"square {position(t.row, t.col, ACROSS)} is already taken")
        new[(t.row, t.col)] = t.letter
    rows, cols = {t.row for t in tiles}, {t.col for t in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay("the tiles are not in one row or one column")
    if len(tiles) > 1:
        direction = ACROSS if len(rows) == 1 else DOWN
    else:  # a one-tile play may be written in either direction: its main word is the longer line
        t = tiles[0]
        across = len(_run(board, new, t.row, t.col, ACROSS)) > 1
        if direction is None or len(_run(board, new, t.row, t.col, direction)) < 2:
            direction = ACROSS if across else DOWN
    first = min(new)
    squares = _run(board, new, first[0], first[1], direction)
    if not all(sq in squares for sq in new):
        raise IllegalPlay("the tiles leave a gap")
    if len(squares) < 2:
        raise IllegalPlay("the main word has only one letter")
    if board.is_empty:
        if variant.centre not in new:
            raise IllegalPlay(f"the first play must cover the centre square {position(*variant.centre, ACROSS)}")
    elif len(squares) == len(new) and not any(
        0 <= r + dr < SIZE and 0 <= c + dc < SIZE and board.occupied(r + dr, c + dc)
        for r, c in new
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
    ):
        raise IllegalPlay("the play does not touch any tile on the board")
    main = _word_score(board, new, squares, variant)
    cross = []
    for r, c in sorted(new):
        run = _run(board, new, r, c, 1 - direction)
        if len(run) > 1:
            cross.append(_word_score(board, new, run, variant))
    for word in [main, *cross]:
        if word.word not in lexicon:
            raise IllegalPlay(f"{word.word} is not a word in the lexicon")
    bingo = variant.bingo_bonus if len(tiles) == variant.rack_size else 0
    return Play(
        squares[0][0],
        squares[0][1],
        direction,
        _display(board, new, squares),
        tuple(Tile(r, c, new[(r, c)]) for r, c in sorted(new)),
        main,
        tuple(cross),
        bingo,
    )


def check_rack(tiles: Iterable[Tile], rack: str) -> None:
    """Raise IllegalPlay when the rack lacks a tile the play needs."""
    left = Counter(rack)
    for t in tiles:
        need = BLANK if t.letter.islower() else t.letter
        if left[need] <= 0:
            raise IllegalPlay(
                f"the rack {rack} has no {'blank' if need == BLANK else need} left for {position(t.row, t.col, ACROSS)}"
            )
        left[need] -= 1


def tiles_on(board: Board) -> Counter:
    """The tiles on the board as the tile set counts them: each letter, and every blank as ?."""
    return Counter(BLANK if ch.islower() else ch for ch in board.text() if ch.isalpha())


def check_bag(board: Board, rack: str | None, tiles: Iterable[Tile], variant: Variant) -> None:
    """A one-line error when the board, the rack and the play's tiles (those not from the rack) hold more
    of a tile, or more blanks, than the tile set has."""
    used = tiles_on(board)
    used.update(rack or "")
    if rack is None:
        used.update(BLANK if t.letter.islower() else t.letter for t in tiles)
    for tile, n in sorted(used.items()):
        have = variant.tile_set.counts.get(tile, 0)
        if n > have:
            what = "blanks" if tile == BLANK else f"{tile} tiles"
            raise WordstatsError(
                f"{n} {what} on the board{', rack' if rack else ''} and play, but the {variant.name} tile set "
                f"has {have} (lower case in a play is a blank; ? in a rack)"
            )


def score_play(board: Board, text: str, variant: Variant, lexicon: Words, rack: str | None = None) -> Play:
    """Validate and score a play written in notation."""
    tiles, direction = parse_play(text, board)
    check_bag(board, rack, tiles, variant)
    if rack is not None:
        check_rack(tiles, rack)
    return evaluate(board, tiles, variant, lexicon, direction)

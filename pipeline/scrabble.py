"""Scrabble and Words With Friends: variants, boards, racks, rules, scoring, the best play, openings, self-play.

Squares are (row, column) from (0, 0) at the top left; standard notation names them 1-15 and A-O: an
across play is written row then column (`8H`), a down play column then row (`H8`). Letters are codes
A = 0 ... Z = 25 inside, upper-case text outside; a blank played as a letter is that letter in lower case.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

import numpy as np
import polars as pl

from pipeline import tiles as tl
from pipeline.config import BLANK, LETTERS, Config, LexiconSpec, Section, TileSet
from pipeline.errors import WordstatsError
from pipeline.trie import letter_codes

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
ACROSS, DOWN = 0, 1
EMPTY = "."
KEEP_MAX = 10_000  # best_plays: up to this many plays the generator keeps only the best
PREMIUMS = {".": (1, 1), "*": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}  # (letter, word)


# ---- game data ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """A game: its tile set (counts and values), the premium layout, rack size and bingo bonus."""

    name: str
    tile_set: TileSet
    layout: tuple[str, ...]  # SIZE strings over PREMIUMS' keys
    rack_size: int
    bingo_bonus: int
    centre_doubles_word: bool

    @cached_property
    def centre(self) -> tuple[int, int]:
        """The start square."""
        return next((r, c) for r, line in enumerate(self.layout) for c, ch in enumerate(line) if ch == "*")

    @cached_property
    def letter_values(self) -> np.ndarray:
        """int32 (26,): the value of each letter tile."""
        return tl.letter_values(self.tile_set).astype(np.int32)

    @cached_property
    def letter_mult(self) -> np.ndarray:
        """int32 (SIZE, SIZE): the letter multiplier of each square."""
        return np.array([[PREMIUMS[ch][0] for ch in line] for line in self.layout], dtype=np.int32)

    @cached_property
    def word_mult(self) -> np.ndarray:
        """int32 (SIZE, SIZE): the word multiplier of each square (the centre's per centre_doubles_word)."""
        mult = np.array([[PREMIUMS[ch][1] for ch in line] for line in self.layout], dtype=np.int32)
        mult[self.centre] = 2 if self.centre_doubles_word else 1
        return mult

    def value(self, letter: str) -> int:
        """The value of a tile as written: 0 for a blank (lower case), else the letter's value."""
        return 0 if letter.islower() else self.tile_set.values[letter]


def variants(config: Config) -> dict[str, Variant]:
    """Every variant declared under [scrabble.variants], validated."""
    sec = config.section("scrabble")
    sec.allow("variants", "openings", "selfplay")
    found = {name: _variant(name, v, config) for name, v in sec.sections("variants").items()}
    if not found:
        sec.fail("variants", "declare at least one variant, e.g. [scrabble.variants.scrabble]")
    return found


def variant(config: Config, name: str) -> Variant:
    """The variant `name`, or an error naming the known ones."""
    known = variants(config)
    if name not in known:
        raise WordstatsError(f"unknown variant {name!r} (in {config.path}: {', '.join(known)})")
    return known[name]


def _variant(name: str, sec: Section, config: Config) -> Variant:
    """The variant [scrabble.variants.NAME], validated (its tile set defaults to [tiles.NAME])."""
    sec.allow("tiles", "rack_size", "bingo_bonus", "centre_doubles_word", "layout")
    tile_set = tl.tile_set(config, sec.str("tiles", name), f"{sec.where}.tiles")
    layout = tuple(sec.list("layout"))
    if len(layout) != SIZE:
        sec.fail("layout", f"expected {SIZE} rows, got {len(layout)}")
    for i, line in enumerate(layout, 1):
        if len(line) != SIZE:
            sec.fail("layout", f"row {i} has {len(line)} squares, expected {SIZE}")
        bad = next((ch for ch in line if ch not in PREMIUMS), None)
        if bad is not None:
            sec.fail("layout", f"row {i}: {bad!r} is not one of {''.join(PREMIUMS)}")
    if "".join(layout).count("*") != 1:
        sec.fail("layout", "mark exactly one centre square with *")
    return Variant(name=name, tile_set=tile_set, layout=layout,
                   rack_size=sec.int("rack_size", 7, lo=1, hi=SIZE),
                   bingo_bonus=sec.int("bingo_bonus", lo=0),
                   centre_doubles_word=sec.bool("centre_doubles_word"))


# ---- lexicon --------------------------------------------------------------------------------------


class Lexicon:
    """The playable words (2 to SIZE letters): a set for checking, a trie (built on demand) for generating."""

    def __init__(self, words: Iterable[str]):
        self.words = frozenset(w for w in words if 2 <= len(w) <= SIZE)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (any case) is a playable word."""
        return word.upper() in self.words

    @cached_property
    def trie(self):
        """The flat-array trie of the words (numba-built)."""
        from pipeline.trie import build_trie

        return build_trie(sorted(self.words))


def load_lexicon(store) -> Lexicon:
    """The lexicon of a built words.parquet."""
    return Lexicon(store.read("words", columns=["word"])["word"].to_list())


# ---- boards and racks -----------------------------------------------------------------------------


@dataclass
class Board:
    """The tiles on the board: letter codes (-1 empty) and which of them are blanks."""

    tiles: np.ndarray = field(default_factory=lambda: np.full((SIZE, SIZE), -1, dtype=np.int8))
    blanks: np.ndarray = field(default_factory=lambda: np.zeros((SIZE, SIZE), dtype=np.bool_))

    @property
    def is_empty(self) -> bool:
        """No tile yet: the next play is an opening."""
        return not (self.tiles >= 0).any()

    def occupied(self, row: int, col: int) -> bool:
        """Whether the square holds a tile."""
        return bool(self.tiles[row, col] >= 0)

    def letter(self, row: int, col: int) -> str:
        """The tile on a square as written (lower case for a blank), or '' when empty."""
        code = int(self.tiles[row, col])
        if code < 0:
            return ""
        return LETTERS[code].lower() if self.blanks[row, col] else LETTERS[code]

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.tiles.copy(), self.blanks.copy())

    def put(self, tiles: Iterable[Tile]) -> None:
        """Place tiles (in place)."""
        for t in tiles:
            self.tiles[t.row, t.col] = LETTERS.index(t.letter.upper())
            self.blanks[t.row, t.col] = t.letter.islower()

    def text(self) -> str:
        """The board file text: SIZE lines of SIZE characters."""
        return "".join("".join(self.letter(r, c) or EMPTY for c in range(SIZE)) + "\n" for r in range(SIZE))


def parse_board(text: str, where: str = "board") -> Board:
    """A board from its file text; an empty text is an empty board. Errors name line and column."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    board = Board()
    if not lines:
        return board
    if len(lines) > SIZE:
        raise WordstatsError(f"{where}: line {SIZE + 1}: more than {SIZE} lines (a board is {SIZE} lines "
                             f"of {SIZE} characters)")
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if c >= SIZE:
                raise WordstatsError(f"{where}: line {r + 1}, column {c + 1}: line is longer than {SIZE} characters")
            if ch == EMPTY:
                continue
            if not ("A" <= ch <= "Z" or "a" <= ch <= "z"):
                raise WordstatsError(f"{where}: line {r + 1}, column {c + 1}: {ch!r} is not a square "
                                     f"(use . for empty, A-Z for tiles, a-z for blanks)")
            board.tiles[r, c] = ord(ch.upper()) - 65
            board.blanks[r, c] = ch.islower()
        if len(line) < SIZE:
            raise WordstatsError(f"{where}: line {r + 1}, column {len(line) + 1}: line has {len(line)} "
                                 f"characters, expected {SIZE}")
    if len(lines) < SIZE:
        raise WordstatsError(f"{where}: line {len(lines) + 1}: board ends after {len(lines)} lines, "
                             f"expected {SIZE}")
    return board


def read_board(path: Path | str | None) -> Board:
    """The board in a file (None: an empty board)."""
    if path is None:
        return Board()
    path = Path(path)
    if not path.is_file():
        raise WordstatsError(f"{path}: board file not found" if not path.exists() else f"{path}: not a file")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: board file is not UTF-8 text") from None
    return parse_board(text, str(path))


def parse_rack(text: str, rack_size: int = 7) -> str:
    """A rack as typed, in capitals: 1 to rack_size tiles, letters and ? (any of them blanks)."""
    return tl.rack_text(text, most=rack_size, most_blanks=rack_size)


def leave(rack: str, tiles: Iterable[Tile]) -> str:
    """The rack after playing `tiles`: letters sorted, blanks last."""
    left = Counter(rack)
    for t in tiles:
        left[BLANK if t.letter.islower() else t.letter] -= 1
    return "".join(sorted(left.elements(), key=lambda ch: (ch == BLANK, ch)))


# ---- plays, rules and scores ---------------------------------------------------------------------


class IllegalPlay(WordstatsError):
    """A play the rules forbid; the message says why."""

    exit_code = 1


@dataclass(frozen=True)
class Tile:
    """A tile placed by a play: its square and letter (lower case for a blank)."""

    row: int
    col: int
    letter: str


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


def position(row: int, col: int, direction: int) -> str:
    """A square in standard notation for a play in `direction`."""
    return f"{row + 1}{COLUMNS[col]}" if direction == ACROSS else f"{COLUMNS[col]}{row + 1}"


def _step(direction: int) -> tuple[int, int]:
    """The (row, column) step of one square in `direction`."""
    return (0, 1) if direction == ACROSS else (1, 0)


def _run(board: Board, new: dict, row: int, col: int, direction: int) -> list[tuple[int, int]]:
    """The squares of the maximal line of tiles (board and new) through (row, col) in `direction`."""
    dr, dc = _step(direction)

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
            lm, wm = int(variant.letter_mult[r, c]), int(variant.word_mult[r, c])
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


def evaluate(board: Board, tiles: Iterable[Tile], variant: Variant, lexicon: Lexicon,
             direction: int | None = None) -> Play:
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
    elif direction is None:
        t = tiles[0]
        direction = ACROSS if len(_run(board, new, t.row, t.col, ACROSS)) > 1 else DOWN
    first = min(new)
    squares = _run(board, new, first[0], first[1], direction)
    if not all(sq in squares for sq in new):
        raise IllegalPlay("the tiles leave a gap")
    if len(squares) < 2:
        raise IllegalPlay("the main word has only one letter")
    if board.is_empty:
        if variant.centre not in new:
            raise IllegalPlay(f"the first play must cover the centre square "
                              f"{position(*variant.centre, ACROSS)}")
    elif len(squares) == len(new) and not any(
        0 <= r + dr < SIZE and 0 <= c + dc < SIZE and board.occupied(r + dr, c + dc)
        for r, c in new for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
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
    return Play(squares[0][0], squares[0][1], direction, _display(board, new, squares),
                tuple(Tile(r, c, new[(r, c)]) for r, c in sorted(new)), main, tuple(cross), bingo)


_POSITION = re.compile(r"^(?:(\d{1,2})([A-Oa-o])|([A-Oa-o])(\d{1,2}))$")
_WORD = re.compile(r"^(?:[A-Za-z]|\([A-Za-z]+\))+$")


def parse_play(text: str, board: Board) -> tuple[list[Tile], int]:
    """The tiles and direction of a play in notation ("8H QU(I)Z", "H8 word"): letters on taken squares
    must match the board (parentheses optional), lower-case letters on empty squares are blanks."""
    parts = text.split()
    if len(parts) != 2:
        raise WordstatsError(f"play {text!r}: expected a position and a word, e.g. \"8H WORD\" or \"H8 WORD\"")
    where, word = parts
    match = _POSITION.match(where)
    if not match:
        raise WordstatsError(f"play {text!r}: bad position {where!r} (across: row then column, 8H; "
                             f"down: column then row, H8)")
    if match.group(1):
        direction, row, col = ACROSS, int(match.group(1)) - 1, COLUMNS.index(match.group(2).upper())
    else:
        direction, row, col = DOWN, int(match.group(4)) - 1, COLUMNS.index(match.group(3).upper())
    if not 0 <= row < SIZE:
        raise WordstatsError(f"play {text!r}: row {row + 1} is off the board (rows 1-{SIZE})")
    if not _WORD.match(word):
        raise WordstatsError(f"play {text!r}: the word may hold only letters, with board tiles "
                             f"optionally in parentheses")
    dr, dc = _step(direction)
    tiles, bracketed, r, c = [], False, row, col
    if 0 <= r - dr and 0 <= c - dc and board.occupied(r - dr, c - dc):
        raise IllegalPlay(f"the word continues into the tile at {position(r - dr, c - dc, ACROSS)}; "
                          f"start the play there")
    for ch in word:
        if ch in "()":
            bracketed = ch == "("
            continue
        if not (r < SIZE and c < SIZE):
            raise IllegalPlay("the word runs off the board")
        square = position(r, c, ACROSS)
        if board.occupied(r, c):
            if board.letter(r, c).upper() != ch.upper():
                raise IllegalPlay(f"square {square} holds {board.letter(r, c)}, not {ch}")
        elif bracketed:
            raise IllegalPlay(f"square {square} is empty, but {ch} is in parentheses (a board tile)")
        else:
            tiles.append(Tile(r, c, ch))
        r, c = r + dr, c + dc
    if r < SIZE and c < SIZE and board.occupied(r, c):
        raise IllegalPlay(f"the word continues into the tile at {position(r, c, ACROSS)}; include it")
    return tiles, direction


def check_rack(tiles: Iterable[Tile], rack: str) -> None:
    """Raise IllegalPlay when the rack lacks a tile the play needs."""
    left = Counter(rack)
    for t in tiles:
        need = BLANK if t.letter.islower() else t.letter
        if left[need] <= 0:
            raise IllegalPlay(f"the rack {rack} has no {'blank' if need == BLANK else need} left for "
                              f"{position(t.row, t.col, ACROSS)}")
        left[need] -= 1


def score_play(board: Board, text: str, variant: Variant, lexicon: Lexicon, rack: str | None = None) -> Play:
    """Validate and score a play written in notation."""
    tiles, direction = parse_play(text, board)
    if rack is not None:
        check_rack(tiles, rack)
    return evaluate(board, tiles, variant, lexicon, direction)


def breakdown(play: Play) -> pl.DataFrame:
    """A play's score, word by word: main word, cross-words, bingo bonus, total."""
    rows = [("main", play.main), *(("cross", w) for w in play.cross)]
    table = {
        "part": [k for k, _ in rows] + (["bingo"] if play.bingo else []) + ["total"],
        "word": [w.word for _, w in rows] + ([""] if play.bingo else []) + [str(play)],
        "letters": [w.letters for _, w in rows] + ([""] if play.bingo else []) + [""],
        "letter_sum": [w.letter_sum for _, w in rows] + ([None] if play.bingo else []) + [None],
        "word_mult": [w.word_mult for _, w in rows] + ([None] if play.bingo else []) + [None],
        "score": [w.score for _, w in rows] + ([play.bingo] if play.bingo else []) + [play.score],
    }
    return pl.DataFrame(table, schema={"part": pl.String, "word": pl.String, "letters": pl.String,
                                       "letter_sum": pl.Int32, "word_mult": pl.Int32, "score": pl.Int32})


# ---- move generation -----------------------------------------------------------------------------


def generate(board: Board, rack: str, variant: Variant, lexicon: Lexicon, keep: int = 0) -> tuple[np.ndarray, int]:
    """Play records (see kernels.PLAY_*) of every legal play (keep = 0) or the `keep` best (highest score
    first, earlier generated first on ties), and the number of legal plays."""
    from pipeline import kernels

    trie = lexicon.trie
    records, total = kernels.scrabble_plays(
        board.tiles, board.blanks, tl.rack_counts(rack).astype(np.int32), trie.children, trie.word_at,
        variant.letter_values, variant.letter_mult, variant.word_mult, variant.centre[0], variant.centre[1],
        variant.bingo_bonus, variant.rack_size, keep)
    return records, int(total)


def record_tiles(record: np.ndarray) -> tuple[list[Tile], int]:
    """The tiles a play record places, and its direction."""
    from pipeline import kernels as k

    row, col, direction = int(record[k.PLAY_ROW]), int(record[k.PLAY_COL]), int(record[k.PLAY_DIR])
    blanks, placed = int(record[k.PLAY_BLANKS]), int(record[k.PLAY_PLACED])
    dr, dc = _step(direction)
    tiles = []
    for i in range(int(record[k.PLAY_LEN])):
        if placed >> i & 1:
            letter = LETTERS[record[k.PLAY_LETTERS + i]]
            tiles.append(Tile(row + i * dr, col + i * dc, letter.lower() if blanks >> i & 1 else letter))
    return tiles, direction


def best_plays(board: Board, rack: str, variant: Variant, lexicon: Lexicon, top: int = 10) -> list[Play]:
    """The `top` highest-scoring legal plays, best first."""
    if top <= KEEP_MAX:
        records, _ = generate(board, rack, variant, lexicon, keep=top)
    else:  # the generator would make room for `top` plays: take every play, best first (earlier on ties)
        from pipeline.kernels import PLAY_SCORE

        records, _ = generate(board, rack, variant, lexicon)
        records = records[np.argsort(-records[:, PLAY_SCORE], kind="stable")[:top]]
    plays = []
    for record in records:
        tiles, direction = record_tiles(record)
        plays.append(evaluate(board, tiles, variant, lexicon, direction))
    return plays


def plays_table(plays: list[Play], rack: str) -> pl.DataFrame:
    """Plays as rows: position, word, score, tiles played, cross-words, leave."""
    return pl.DataFrame({
        "position": [p.position for p in plays],
        "word": [p.display for p in plays],
        "score": [p.score for p in plays],
        "tiles": [len(p.tiles) for p in plays],
        "bingo": [p.bingo > 0 for p in plays],
        "cross_words": [[w.word for w in p.cross] for p in plays],
        "leave": [leave(rack, p.tiles) for p in plays],
    }, schema={"position": pl.String, "word": pl.String, "score": pl.Int32, "tiles": pl.UInt8,
               "bingo": pl.Boolean, "cross_words": pl.List(pl.String), "leave": pl.String})


# ---- openings ------------------------------------------------------------------------------------


def opening_placements(variant: Variant, length: int) -> list[tuple[int, int, int]]:
    """(row, col, direction) of every first play of `length` tiles: across the centre row, then down the
    centre column, each from its leftmost (topmost) start."""
    cr, cc = variant.centre
    across = [(cr, c, ACROSS) for c in range(max(0, cc - length + 1), min(cc, SIZE - length) + 1)]
    down = [(r, cc, DOWN) for r in range(max(0, cr - length + 1), min(cr, SIZE - length) + 1)]
    return across + down


def blanks_needed(word: str, variant: Variant) -> dict[str, int]:
    """Per letter, how many of the word's tiles must be blanks because the bag has too few of it."""
    need = Counter(word)
    bag = variant.tile_set.counts
    return {ch: n - bag[ch] for ch, n in need.items() if n > bag[ch]}


def opening_score(word: str, row: int, col: int, direction: int, variant: Variant) -> tuple[int, int]:
    """The score of `word` as a first play from (row, col), and the blanks it needs; the blanks go on
    the squares with the smallest letter premium."""
    dr, dc = _step(direction)
    squares = [(row + i * dr, col + i * dc) for i in range(len(word))]
    blank_at = set()
    for ch, extra in blanks_needed(word, variant).items():
        spots = sorted((variant.letter_mult[sq], i) for i, sq in enumerate(squares) if word[i] == ch)
        blank_at.update(i for _, i in spots[:extra])
    letter_sum = sum(0 if i in blank_at else variant.tile_set.values[ch] * int(variant.letter_mult[sq])
                     for i, (ch, sq) in enumerate(zip(word, squares)))
    mult = int(np.prod([variant.word_mult[sq] for sq in squares]))
    bingo = variant.bingo_bonus if len(word) == variant.rack_size else 0
    return letter_sum * mult + bingo, len(blank_at)


def openings(words: Iterable[str], variant: Variant) -> pl.DataFrame:
    """For each word of 2 to rack_size letters: its best opening score, where (standard notation), with
    how many blanks, and whether it is a bingo; score null when the bag (blanks included) cannot spell it."""
    by_length: dict[int, list[str]] = {}
    for w in sorted(set(words)):
        if 2 <= len(w) <= variant.rack_size:
            by_length.setdefault(len(w), []).append(w)
    out_words, scores, places, blanks = [], [], [], []
    values = variant.letter_values
    for length, group in sorted(by_length.items()):
        placements = opening_placements(variant, length)
        letter_values = values[letter_codes(group)]  # (n, length)
        totals = np.stack([
            (letter_values * _line(variant.letter_mult, p, length)).sum(axis=1)
            * int(np.prod(_line(variant.word_mult, p, length)))
            for p in placements], axis=1)
        best = totals.argmax(axis=1)  # first best: across before down, leftmost first
        bingo = variant.bingo_bonus if length == variant.rack_size else 0
        for i, word in enumerate(group):
            extra = blanks_needed(word, variant)
            if not extra:
                score, p, used = int(totals[i, best[i]]) + bingo, placements[best[i]], 0
            elif sum(extra.values()) > variant.tile_set.counts.get(BLANK, 0):
                score, p, used = None, None, None
            else:
                options = [(opening_score(word, *q, variant), k) for k, q in enumerate(placements)]
                (score, used), k = max(options, key=lambda o: (o[0][0], -o[1]))
                p = placements[k]
            out_words.append(word)
            scores.append(score)
            places.append(position(*p) if p else None)
            blanks.append(used)
    return pl.DataFrame({"word": out_words, "score": scores, "position": places, "blanks": blanks,
                         "bingo": [len(w) == variant.rack_size for w in out_words]},
                        schema={"word": pl.String, "score": pl.UInt16, "position": pl.String,
                                "blanks": pl.UInt8, "bingo": pl.Boolean})


def _line(grid: np.ndarray, placement: tuple[int, int, int], length: int) -> np.ndarray:
    """The `length` squares of `grid` a placement covers."""
    row, col, direction = placement
    return grid[row, col:col + length] if direction == ACROSS else grid[row:row + length, col]


# ---- self-play ------------------------------------------------------------------------------------


@dataclass
class Turn:
    """One turn of a game: who, the board and rack before it, and what they did."""

    player: int
    board: Board
    rack: str
    action: str  # "play", "exchange" or "pass"
    play: Play | None = None

    @property
    def score(self) -> int:
        """Points the turn scored."""
        return self.play.score if self.play else 0


@dataclass
class Game:
    """A finished game: its turns, final scores (end-of-game rack adjustments included)."""

    variant: str
    turns: list[Turn]
    scores: list[int]
    went_out: int | None  # the player who used their last tile, if any


def rack_value(rack: str, variant: Variant) -> int:
    """The face value of the tiles on a rack (blanks 0)."""
    return sum(variant.tile_set.values.get(ch, 0) for ch in rack)


def self_play(variant: Variant, lexicon: Lexicon, rng: np.random.Generator, players: int = 2,
              max_scoreless: int = 6) -> Game:
    """A game between greedy players: each plays its highest-scoring move, else exchanges its whole rack
    (when the bag holds a full rack) or passes. It ends when a player goes out with the bag empty
    (they gain the others' rack values, which the others lose) or after `max_scoreless` scoreless turns
    in a row (each player loses their rack value)."""
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
        records, _ = generate(board, racks[player], variant, lexicon, keep=1)
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


def game_rng(seed: int, variant: str, game: int) -> np.random.Generator:
    """The random stream of one game: seed, variant name and game number."""
    return np.random.default_rng([seed, zlib.crc32(variant.encode()), game])


def game_row(game: Game, number: int) -> dict:
    """One game as a selfplay.parquet row."""
    plays = [t for t in game.turns if t.play]
    best = max(game.scores)
    winners = [p for p, s in enumerate(game.scores) if s == best]
    return {
        "variant": game.variant,
        "game": number,
        "score_1": game.scores[0],
        "score_2": game.scores[1],
        "winner": winners[0] + 1 if len(winners) == 1 else 0,
        "moves": len(plays),
        "move_points": sum(t.score for t in plays),
        "bingos": sum(1 for t in plays if t.play.bingo),
        "exchanges": sum(1 for t in game.turns if t.action == "exchange"),
        "passes": sum(1 for t in game.turns if t.action == "pass"),
        "plays": [f"{t.player + 1}: {t.play} {t.score}" if t.play else f"{t.player + 1}: {t.action}"
                  for t in game.turns],
    }


SELFPLAY_SCHEMA = {"variant": pl.String, "game": pl.UInt32, "score_1": pl.Int32, "score_2": pl.Int32,
                   "winner": pl.UInt8, "moves": pl.UInt32, "move_points": pl.Int32, "bingos": pl.UInt32,
                   "exchanges": pl.UInt32, "passes": pl.UInt32, "plays": pl.List(pl.String)}


def selfplay_summary(games: pl.DataFrame) -> dict:
    """Per variant: games, moves, average score per move, average final and winning scores, bingos."""
    out = {}
    for (name,), g in games.group_by(["variant"], maintain_order=True):
        finals = g["score_1"].to_list() + g["score_2"].to_list()
        winning = [max(a, b) for a, b in zip(g["score_1"], g["score_2"])]
        moves = int(g["moves"].sum())
        out[name] = {
            "games": g.height,
            "moves": moves,
            "average_score_per_move": round(int(g["move_points"].sum()) / moves, 3) if moves else None,
            "average_moves_per_game": round(moves / g.height, 3),
            "average_final_score": round(sum(finals) / len(finals), 3),
            "average_winning_score": round(sum(winning) / len(winning), 3),
            "bingos_per_game": round(int(g["bingos"].sum()) / g.height, 3),
        }
    return out


# ---- the stage: openings.parquet, selfplay.parquet, selfplay_summary.json ----------------------


def params(config: Config, spec: LexiconSpec | None) -> dict:
    """The variants and the openings / self-play settings (validated)."""
    known = variants(config)
    sec = config.section("scrabble")

    def chosen(sub: Section) -> list[str]:
        """The variants a sub-section lists (default all), each a declared one."""
        names = sub.list("variants", list(known))
        for name in names:
            if name not in known:
                sub.fail("variants", f"unknown variant {name!r} (declared: {', '.join(known)})")
        return names

    opening_sec, selfplay_sec = sec.section("openings", {}), sec.section("selfplay", {})
    opening_sec.allow("variants")
    selfplay_sec.allow("variants", "games", "seed")
    return {
        "variants": {name: {"layout": list(v.layout), "rack_size": v.rack_size, "bingo_bonus": v.bingo_bonus,
                            "centre_doubles_word": v.centre_doubles_word, "values": v.tile_set.values,
                            "counts": v.tile_set.counts} for name, v in known.items()},
        "openings": {"variants": chosen(opening_sec)},
        "selfplay": {"variants": chosen(selfplay_sec), "games": selfplay_sec.int("games", 10, lo=0),
                     "seed": selfplay_sec.int("seed", 0, lo=0)},
    }


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """Best opening scores of every short word, and seeded greedy self-play games."""
    known = variants(ctx.config)
    words = inputs["words"]["word"].to_list()
    lexicon = Lexicon(words)
    table = None
    for name in ctx.params["openings"]["variants"]:
        part = openings(lexicon.words, known[name])
        part = part.rename({c: f"{name}_{c}" for c in part.columns if c != "word"})
        table = part if table is None else table.join(part, on="word", how="full", coalesce=True)
    if table is None:
        table = pl.DataFrame({"word": []}, schema={"word": pl.String})
    table = table.sort("word").with_columns(pl.col("word").str.len_chars().cast(pl.UInt8).alias("length"))
    table = table.select("word", "length", pl.exclude("word", "length"))
    sp = ctx.params["selfplay"]
    rows = []
    with ctx.progress.task("self-play games", total=sp["games"] * len(sp["variants"])) as task:
        for name in sp["variants"]:
            for number in range(1, sp["games"] + 1):
                game = self_play(known[name], lexicon, game_rng(sp["seed"], name, number))
                rows.append(game_row(game, number))
                task.advance()
    games = pl.DataFrame(rows, schema=SELFPLAY_SCHEMA)
    return {"openings.parquet": table, "selfplay.parquet": games, "selfplay_summary.json": selfplay_summary(games)}

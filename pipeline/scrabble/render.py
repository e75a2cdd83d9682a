"""Scrabble for people: boards as plain text, in rich colours on a terminal, as SVG and PNG pictures; plays,
scores and moves as the tables the commands print."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.errors import WordstatsError
from pipeline.scrabble.rules.board import Board, leave
from pipeline.scrabble.rules.scoring import Play
from pipeline.scrabble.rules.variant import COLUMNS, SIZE, Variant

if TYPE_CHECKING:
    import polars as pl

    from pipeline.scrabble.endgame import Endgame

# Premium squares in text (Quackle's symbols, so that lower-case letters stay free for blanks).
SYMBOLS = {(1, 3): "=", (1, 2): "-", (3, 1): '"', (2, 1): "'", (1, 1): "."}
CENTRE_SYMBOL = "*"
LEGEND = "= triple word  - double word  \" triple letter  ' double letter  * centre  a-z blank"
# Square colours (terminal styles and picture fills).
COLOURS = {
    (1, 3): "#d9534f",  # triple word: red
    (1, 2): "#f4a6b6",  # double word: pink
    (3, 1): "#3c7dd9",  # triple letter: blue
    (2, 1): "#a9d4f5",  # double letter: light blue
    (1, 1): "#cfe3c8",  # plain: pale green
}
TILE_COLOUR, NEW_TILE_COLOUR, INK = "#f2d9a0", "#ffe76a", "#222222"
PICTURE_FORMATS = (".svg", ".png")


def premium(variant: Variant, row: int, col: int) -> tuple[int, int]:
    """The (letter, word) multipliers the layout gives a square (the centre counts as plain here)."""
    letter, word = variant.premiums[row][col]
    return letter, 1 if (row, col) == variant.centre else word


def square_text(board: Board, variant: Variant, row: int, col: int) -> str:
    """What a square shows: its tile (lower case for a blank), else its premium symbol."""
    tile = board.letter(row, col)
    if tile:
        return tile
    return CENTRE_SYMBOL if (row, col) == variant.centre else SYMBOLS[premium(variant, row, col)]


def board_text(board: Board, variant: Variant) -> str:
    """The board as plain text: column letters on top, row numbers at the left, premium symbols."""
    lines = ["    " + " ".join(COLUMNS[:SIZE])]
    for r in range(SIZE):
        lines.append(f"{r + 1:>2}  " + " ".join(square_text(board, variant, r, c) for c in range(SIZE)))
    return "\n".join(lines) + "\n"


def board_rich(board: Board, variant: Variant, new: Iterable[tuple[int, int]] = ()):
    """The board as a rich Text: coloured premium squares, tiles on tan (the latest play's on yellow)."""
    from rich.text import Text

    fresh = set(new)
    text = Text("    " + " ".join(f"{ch}" for ch in COLUMNS[:SIZE]) + "\n", style="bold")
    for r in range(SIZE):
        text.append(f"{r + 1:>2}  ", style="bold")
        for c in range(SIZE):
            tile = board.letter(r, c)
            if tile:
                back = NEW_TILE_COLOUR if (r, c) in fresh else TILE_COLOUR
                style = f"bold {INK} on {back}" + (" italic" if tile.islower() else "")
            else:
                style = f"{INK} on {COLOURS[premium(variant, r, c)]}"
            text.append(square_text(board, variant, r, c) + " ", style=style)
        text.append("\n")
    return text


def print_board(board: Board, variant: Variant, new: Iterable[tuple[int, int]] = ()) -> None:
    """Print the board: in colour on a terminal, as plain text (with a legend) otherwise."""
    import sys

    if sys.stdout.isatty():
        from rich.console import Console

        Console(highlight=False).print(board_rich(board, variant, new), end="")
    else:
        sys.stdout.write(board_text(board, variant))
    sys.stdout.write(LEGEND + "\n")


CELL = 40  # picture square size in pixels (SVG user units)
MARGIN = 24  # room for the coordinates


def board_svg(board: Board, variant: Variant, new: Iterable[tuple[int, int]] = ()) -> str:
    """The board as an SVG picture: coloured squares, tiles with their values, coordinates."""
    fresh, size = set(new), MARGIN + SIZE * CELL + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{size}" height="{size}" fill="white"/>',
    ]
    for i in range(SIZE):
        mid = MARGIN + i * CELL + CELL // 2
        out.append(f'<text x="{mid}" y="17" font-size="14" text-anchor="middle">{COLUMNS[i]}</text>')
        out.append(f'<text x="{MARGIN - 4}" y="{mid + 5}" font-size="14" text-anchor="end">{i + 1}</text>')
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            tile = board.letter(r, c)
            fill = (NEW_TILE_COLOUR if (r, c) in fresh else TILE_COLOUR) if tile else COLOURS[premium(variant, r, c)]
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="white"/>')
            if tile:
                colour = "#b22222" if tile.islower() else INK
                out.append(
                    f'<text x="{x + CELL // 2}" y="{y + 28}" font-size="24" font-weight="bold" '
                    f'text-anchor="middle" fill="{colour}">{tile}</text>'
                )
                value = variant.value(tile)
                out.append(
                    f'<text x="{x + CELL - 4}" y="{y + CELL - 4}" font-size="10" text-anchor="end">{value}</text>'
                )
            else:
                label = _premium_label(variant, r, c)
                if label:
                    out.append(
                        f'<text x="{x + CELL // 2}" y="{y + 24}" font-size="12" text-anchor="middle">{label}</text>'
                    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _premium_label(variant: Variant, row: int, col: int) -> str:
    """The short label a picture prints on an empty premium square."""
    if (row, col) == variant.centre:
        return "★"
    return {(1, 3): "TW", (1, 2): "DW", (3, 1): "TL", (2, 1): "DL"}.get(premium(variant, row, col), "")


def board_png(board: Board, variant: Variant, new: Iterable[tuple[int, int]] = ()) -> bytes:
    """The board as a PNG picture (the same drawing as the SVG)."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    fresh, size = set(new), MARGIN + SIZE * CELL + 2
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    big, small, label_font = _font(ImageFont, 24), _font(ImageFont, 10), _font(ImageFont, 12)
    for i in range(SIZE):
        mid = MARGIN + i * CELL + CELL // 2
        draw.text((mid, 12), COLUMNS[i], fill="black", font=label_font, anchor="mm")
        draw.text((MARGIN - 4, mid), str(i + 1), fill="black", font=label_font, anchor="rm")
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            tile = board.letter(r, c)
            fill = (NEW_TILE_COLOUR if (r, c) in fresh else TILE_COLOUR) if tile else COLOURS[premium(variant, r, c)]
            draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=fill, outline="white")
            if tile:
                colour = "#b22222" if tile.islower() else INK
                draw.text((x + CELL // 2, y + CELL // 2), tile, fill=colour, font=big, anchor="mm")
                draw.text((x + CELL - 4, y + CELL - 3), str(variant.value(tile)), fill=INK, font=small, anchor="rs")
            else:
                label = _premium_label(variant, r, c).replace("★", "*")
                if label:
                    draw.text((x + CELL // 2, y + CELL // 2), label, fill=INK, font=label_font, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _font(image_font, size: int):
    """A TrueType font of `size` (matplotlib's bundled DejaVu Sans), else Pillow's default."""
    try:
        import matplotlib

        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
        return image_font.truetype(str(path), size)
    except (ImportError, OSError):
        return image_font.load_default(size)


def picture(board: Board, variant: Variant, path: Path, new: Iterable[tuple[int, int]] = ()) -> bytes | str:
    """The picture for `path`'s format (.svg or .png), or a one-line error for another suffix."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        return board_svg(board, variant, new)
    if suffix == ".png":
        return board_png(board, variant, new)
    raise WordstatsError(f"{path}: unknown picture format {path.suffix or '(none)'!r} (use .svg or .png)")


# ---- results as tables -------------------------------------------------------------------------------


def plays_table(plays: Sequence[Play], rack: str) -> pl.DataFrame:
    """Plays as rows: position, word, score, tiles played, cross-words, leave."""
    import polars as pl

    return pl.DataFrame(
        {
            "position": [p.position for p in plays],
            "word": [p.display for p in plays],
            "score": [p.score for p in plays],
            "tiles": [len(p.tiles) for p in plays],
            "bingo": [p.bingo > 0 for p in plays],
            "cross_words": [[w.word for w in p.cross] for p in plays],
            "leave": [leave(rack, p.tiles) for p in plays],
        },
        schema={
            "position": pl.String,
            "word": pl.String,
            "score": pl.Int32,
            "tiles": pl.UInt8,
            "bingo": pl.Boolean,
            "cross_words": pl.List(pl.String),
            "leave": pl.String,
        },
    )


def equity_table(moves: Sequence) -> pl.DataFrame:
    """Moves (equity.moves.Move) as rows: move, score, leave, leave value, equity."""
    import polars as pl

    return pl.DataFrame(
        {
            "move": [m.notation for m in moves],
            "score": [m.score for m in moves],
            "leave": [m.leave for m in moves],
            "leave_value": [round(m.leave_value, 2) for m in moves],
            "equity": [round(m.equity, 2) for m in moves],
        },
        schema={
            "move": pl.String,
            "score": pl.Int32,
            "leave": pl.String,
            "leave_value": pl.Float64,
            "equity": pl.Float64,
        },
    )


def sim_table(candidates: Sequence) -> pl.DataFrame:
    """Simulated candidates (sim.Candidate) as rows, best mean value first: play, score, leave, static equity,
    mean value and its standard error, mean reply score, mean next score."""
    import polars as pl

    return pl.DataFrame(
        {
            "move": [str(c.play) for c in candidates],
            "score": [c.play.score for c in candidates],
            "leave": [c.leave for c in candidates],
            "equity": [round(c.equity, 2) for c in candidates],
            "value": [round(c.value, 2) for c in candidates],
            "stderr": [round(c.stderr, 2) for c in candidates],
            "reply": [round(c.reply, 2) for c in candidates],
            "next": [round(c.next, 2) for c in candidates],
        },
        schema={
            "move": pl.String,
            "score": pl.Int32,
            "leave": pl.String,
            "equity": pl.Float64,
            "value": pl.Float64,
            "stderr": pl.Float64,
            "reply": pl.Float64,
            "next": pl.Float64,
        },
    )


def best_table(plays: Sequence[Play], moves: Sequence | None, rack: str) -> pl.DataFrame:
    """The best plays as `scrabble best` lists them: the moves by equity, or the plays by score."""
    return equity_table(moves) if moves is not None else plays_table(plays, rack)


def breakdown(play: Play) -> pl.DataFrame:
    """A play's score, word by word: main word, cross-words, bingo bonus, total."""
    import polars as pl

    rows = [("main", play.main), *(("cross", w) for w in play.cross)]
    table = {
        "part": [k for k, _ in rows] + (["bingo"] if play.bingo else []) + ["total"],
        "word": [w.word for _, w in rows] + ([""] if play.bingo else []) + [str(play)],
        "letters": [w.letters for _, w in rows] + ([""] if play.bingo else []) + [""],
        "letter_sum": [w.letter_sum for _, w in rows] + ([None] if play.bingo else []) + [None],
        "word_mult": [w.word_mult for _, w in rows] + ([None] if play.bingo else []) + [None],
        "score": [w.score for _, w in rows] + ([play.bingo] if play.bingo else []) + [play.score],
    }
    return pl.DataFrame(
        table,
        schema={
            "part": pl.String,
            "word": pl.String,
            "letters": pl.String,
            "letter_sum": pl.Int32,
            "word_mult": pl.Int32,
            "score": pl.Int32,
        },
    )


def illegal_table(play: str, exc: Exception) -> pl.DataFrame:
    """An illegal play as a row: the play, not legal, and why."""
    import polars as pl

    return pl.DataFrame({"play": [play], "legal": [False], "reason": [str(exc)]})


def play_json(play: Play, leave: str | None, after: Board, variant: Variant) -> dict:
    """A play made, as `scrabble play --json` prints it: the play, its score and breakdown, the leave and the
    new board's lines."""
    return {
        "play": str(play),
        "score": play.score,
        "breakdown": breakdown(play).to_dicts(),
        "leave": leave,
        "board": board_text(after, variant).splitlines(),
    }


def with_play(board: Board, play: Play) -> Board:
    """A copy of the board with the play's tiles on it."""
    after = board.copy()
    after.put(play.tiles)
    return after


def new_squares(play: Play | None) -> list[tuple[int, int]]:
    """The squares a play puts tiles on (none for no play)."""
    return [(t.row, t.col) for t in play.tiles] if play is not None else []


# ---- an endgame --------------------------------------------------------------------------------------


def endgame_table(found: Endgame) -> pl.DataFrame:
    """The endgame's line as rows: turn, who moves, the move, its score, the leave, and the spread so far from
    the side of the player to move first; a last row for the tiles left when the line ends the game."""
    import polars as pl

    rows, spread = [], 0
    for n, turn in enumerate(found.line, 1):
        spread += turn.score if turn.player == 0 else -turn.score
        who = "you" if turn.player == 0 else "opponent"
        rows.append(
            {"turn": n, "player": who, "move": turn.text, "score": turn.score, "leave": turn.leave, "spread": spread}
        )
    if found.proven and found.value != spread:
        rows.append(
            {"turn": None, "player": "", "move": "(tiles left)", "score": None, "leave": "", "spread": found.value}
        )
    schema = {"turn": pl.Int32, "player": pl.String, "move": pl.String, "score": pl.Int32, "leave": pl.String}
    return pl.DataFrame(rows, schema={**schema, "spread": pl.Int32}, orient="row")


def endgame_summary(found: Endgame) -> str:
    """One line: the best move, the spread it gains, and whether the search proved it (how long it took is
    standard error's: endgame_time)."""
    if found.proven:
        return (
            f"best: {found.best.text}, spread {found.value:+d} to the end of the game (proven: {found.depth} plies, "
            f"{found.nodes:,} positions)"
        )
    return (
        f"best found: {found.best.text}, spread {found.value:+d} estimated (not proven: the time limit passed after "
        f"a search {found.depth} plies deep, {found.nodes:,} positions)"
    )


def endgame_time(found: Endgame) -> str:
    """How long the search took, and its rate."""
    rate = found.nodes / found.seconds if found.seconds > 0 else 0.0
    return f"searched in {found.seconds:.2f} s ({rate:,.0f} positions a second)"


def endgame_json(found: Endgame, rack: str, opponent: str) -> dict:
    """The endgame as a JSON object: racks, value, whether proven, the search's figures and the line."""
    return {
        "rack": rack,
        "opponent": opponent,
        "value": found.value,
        "proven": found.proven,
        "depth": found.depth,
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
        "line": [
            {"player": "you" if t.player == 0 else "opponent", "move": t.text, "score": t.score, "leave": t.leave}
            for t in found.line
        ],
    }

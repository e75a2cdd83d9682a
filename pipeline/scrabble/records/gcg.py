"""GCG game records (John Chew's format, as Quackle, Macondo and cross-tables write them): read, write, replay.

Events, one a line: `>nick: RACK 8H WORD +score total` (a play; lower case = blank), `>nick: RACK -TILES +0 total`
(an exchange; `-N` when only the number is known), `>nick: RACK - +0 total` (a pass), `>nick: RACK -- -score
total` (the previous play withdrawn as a phony), `>nick: RACK (challenge) +N total` (challenge bonus),
`>nick: RACK (time) -N total` (time penalty), `>nick: (RACK) +N total` (going out: twice the value of the
opponent's RACK, or once when the opponent's own line loses it), `>nick: RACK (RACK) -N total` (end-of-game
rack penalty).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS
from pipeline.scrabble.play.turns import Game
from pipeline.scrabble.rules.board import Board, rack_value
from pipeline.scrabble.rules.notation import IllegalPlay, parse_play
from pipeline.scrabble.rules.scoring import Play, check_rack, evaluate
from pipeline.scrabble.rules.variant import Variant

PLAY, EXCHANGE, PASS, WITHDRAWN, CHALLENGE, TIME, END_POINTS, END_PENALTY = (
    "play",
    "exchange",
    "pass",
    "withdrawn",
    "challenge_bonus",
    "time_penalty",
    "end_points",
    "end_penalty",
)
_COORD = re.compile(r"^(?:\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})$")
_RACK = re.compile(r"^[A-Za-z?]*$")
_SCORE = re.compile(r"^[+-]\d+$")
_TOTAL = re.compile(r"^-?\d+$")
MAX_GCG_BYTES = 1 << 20  # a game record is a few kilobytes
MAX_EVENTS = 1000  # moves, exchanges, passes and end-of-game lines of one game (a real one has under 100)
MAX_POINTS = 100_000  # the largest score or total a line may claim (a play scores under 2,000)
PLAYERS = ("player1", "player2")
ENCODING = "character-encoding"  # the pragma naming the file's encoding, on its first line only
DEFAULT_ENCODING = "iso-8859-1"  # the spec's encoding of a file without that pragma (unless it is valid UTF-8)
_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass
class Event:
    """One event line: who, their rack, what they did, the points it claims and the claimed total."""

    line: int
    player: int  # 0 or 1
    rack: str  # upper case, ? for blanks ("" when not given)
    kind: str
    move: str = ""  # "8H WORD" for a play; the exchanged tiles; the rack in parentheses at the end
    score: int = 0
    total: int = 0
    note: str = ""


@dataclass
class GcgGame:
    """A game record: the players (nickname, full name), other pragmata and the events in order."""

    players: list[tuple[str, str]]
    events: list[Event]
    pragmata: dict[str, str] = field(default_factory=dict)


def _fail(where: str, line: int, message: str) -> WordstatsError:
    """A one-line error naming the file and line."""
    return WordstatsError(f"{where}: line {line}: {message}")


def parse_gcg(text: str, where: str = "game") -> GcgGame:
    """A GCG record from its text; an error names the line that is not GCG (counted as an editor does: CRLF,
    LF and CR each end one line). A note may go on over the lines after it; `#- text` continues the pragma
    or note before it."""
    declared: dict[str, tuple[str, str]] = {}
    pragmata: dict[str, str] = {}
    events: list[Event] = []
    last = ""  # the pragma the previous line set ("note" for a move's note), which a continuation extends
    for number, raw in enumerate(_LINE_END.split(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#-") and (len(line) == 2 or line[2].isspace()):
            if not last:
                raise _fail(where, number, "'#-' continues a pragma or note, but none comes before it")
            _extend(events, pragmata, last, line[2:].strip())
            continue
        if line.startswith("#"):
            key, _, rest = line[1:].partition(" ")
            if key in PLAYERS:
                declared[key] = _player(key, rest, declared, number, where)
            elif key == ENCODING and number != 1:
                raise _fail(where, number, "#character-encoding must be the first line of the file")
            elif key == "note" and events:
                _extend(events, pragmata, "note", rest.strip())
            else:
                pragmata[key] = rest.strip()
            last = "note" if key == "note" and events else key
            continue
        if not line.startswith(">"):
            if last == "note":  # a note's text goes on over several lines (as Quackle and Macondo write them)
                _extend(events, pragmata, "note", line)
                continue
            raise _fail(where, number, f"expected '#pragma' or '>player: ...', got {line[:30]!r}")
        if len(events) == MAX_EVENTS:
            raise _fail(where, number, f"more than {MAX_EVENTS:,} moves: not the record of one game")
        events.append(_event(line, number, [declared[k] for k in PLAYERS if k in declared], where))
        last = ""
    if len(declared) != 2:
        raise WordstatsError(f"{where}: a game needs #player1 and #player2 lines")
    if not events:
        raise WordstatsError(f"{where}: no moves")
    return GcgGame([declared[k] for k in PLAYERS], events, pragmata)


def _extend(events: list[Event], pragmata: dict[str, str], key: str, more: str) -> None:
    """Add a line of text to the last move's note (key "note") or to a pragma."""
    if key == "note" and events:
        events[-1].note = f"{events[-1].note}\n{more}".strip("\n")
    else:
        pragmata[key] = f"{pragmata.get(key, '')}\n{more}".strip("\n")


def _player(key: str, rest: str, declared: dict[str, tuple[str, str]], number: int, where: str) -> tuple[str, str]:
    """A #player1 or #player2 line's (nickname, full name): declared once, with a nickname of its own (the
    nickname is how event lines name the player)."""
    nick, _, name = rest.strip().partition(" ")
    if not nick:
        raise _fail(where, number, f"#{key} needs a nickname")
    if key in declared:
        raise _fail(where, number, f"#{key} is declared twice")
    for other, (taken, _) in declared.items():
        if taken == nick:
            raise _fail(where, number, f"#{key} has the nickname {nick!r} of #{other}: each player needs their own")
    return nick, name.strip() or nick


def _event(line: str, number: int, players: list[tuple[str, str]], where: str) -> Event:
    """One '>nick: ...' line as an Event."""
    nick, colon, rest = line[1:].partition(":")
    if not colon:
        raise _fail(where, number, "expected '>nickname: ...'")
    nicks = [p[0] for p in players]
    if nick.strip() not in nicks:
        raise _fail(where, number, f"unknown player {nick.strip()!r} (players: {', '.join(nicks) or 'none declared'})")
    player = nicks.index(nick.strip())
    tokens = rest.split()
    foreign = [t for t in tokens[:2] if not t.isascii() and t.strip("().").isalpha()]
    if foreign:
        raise _fail(where, number, f"{foreign[0]!r} has letters beyond A to Z: a record of another language's tiles")
    rack = ""
    if tokens and not tokens[0].startswith("(") and _RACK.match(tokens[0]) and len(tokens) >= 3:
        if not (tokens[0] in ("-", "--") or _COORD.match(tokens[0])):
            rack = tokens.pop(0).upper()
    if len(tokens) < 2:
        raise _fail(where, number, "expected a move, a score and a total")
    head = tokens[0]

    def numbers(i: int) -> tuple[int, int]:
        """The score and total at tokens[i], tokens[i + 1], each within MAX_POINTS."""
        if len(tokens) < i + 2 or not _SCORE.match(tokens[i]) or not _TOTAL.match(tokens[i + 1]):
            raise _fail(where, number, "expected '+score total' after the move")
        return _points(tokens[i], "score", number, where), _points(tokens[i + 1], "total", number, where)

    if _COORD.match(head):
        if len(tokens) < 4:
            raise _fail(where, number, "a play needs a position, a word, a score and a total")
        score, total = numbers(2)
        return Event(number, player, rack, PLAY, f"{head} {tokens[1]}", score, total)
    if head == "--":
        score, total = numbers(1)
        return Event(number, player, rack, WITHDRAWN, "", score, total)
    if head == "-":
        score, total = numbers(1)
        return Event(number, player, rack, PASS, "", score, total)
    if head.startswith("-"):
        score, total = numbers(1)
        tiles = head[1:].upper()
        if not ((tiles.isascii() and tiles.isdigit()) or _RACK.match(tiles)):
            raise _fail(where, number, f"bad exchange {head!r}")
        return Event(number, player, rack, EXCHANGE, tiles, score, total)
    if head.lower() == "(challenge)":
        score, total = numbers(1)
        return Event(number, player, rack, CHALLENGE, "", score, total)
    if head.lower() == "(time)":
        score, total = numbers(1)
        return Event(number, player, rack, TIME, "", score, total)
    if head.startswith("(") and head.endswith(")") and _RACK.match(head[1:-1]):
        score, total = numbers(1)
        kind = END_PENALTY if score < 0 or rack else END_POINTS
        return Event(number, player, rack, kind, head[1:-1].upper(), score, total)
    raise _fail(where, number, f"unknown move {head!r}")


def _points(token: str, what: str, number: int, where: str) -> int:
    """A score or total as written (digits checked by the caller), refused beyond MAX_POINTS."""
    digits = token.lstrip("+-")
    if len(digits) > len(str(MAX_POINTS)) or int(digits) > MAX_POINTS:
        shown = token if len(token) <= 12 else f"{token[:12]}... ({len(digits):,} digits)"
        raise _fail(where, number, f"{what} {shown} is beyond {MAX_POINTS:,} points")
    return int(token)


def read_gcg(path: Path | str) -> GcgGame:
    """The GCG record in a file: a regular file of at most MAX_GCG_BYTES, in its stated encoding."""
    from pipeline.core.sections import read_regular_file

    path = Path(path)
    data = read_regular_file(path, "GCG file", MAX_GCG_BYTES)
    if b"\0" in data:
        raise WordstatsError(f"{path}: binary data, not a GCG file")
    return parse_gcg(decode_gcg(data, str(path)), str(path))


def decode_gcg(data: bytes, where: str = "game") -> str:
    """A GCG file's text: in the encoding its first line names (`#character-encoding UTF-8`); without that line,
    UTF-8 when the bytes are valid UTF-8 (most files written today), else ISO-8859-1 as the spec says."""
    import codecs

    data = data.removeprefix(codecs.BOM_UTF8)
    first = _LINE_END.split(data[:200].decode("ascii", "replace"), 1)[0].strip()
    if first.startswith(f"#{ENCODING}"):
        name = first[len(ENCODING) + 1 :].strip()
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            raise _fail(where, 1, f"unknown character encoding {name!r}") from None
        try:
            return data.decode(codec)
        except UnicodeDecodeError as exc:
            line = len(re.split(rb"\r\n|\r|\n", data[: exc.start]))
            raise _fail(where, line, f"not {name} text, as its #character-encoding line says") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode(DEFAULT_ENCODING)


# ---- replay ---------------------------------------------------------------------------------------


class _AnyWord:
    """A lexicon that takes every word: a phony is scored as played, and checked separately."""

    def __contains__(self, word: str) -> bool:
        return True


@dataclass
class Step:
    """A replayed event: the event, our score for it, totals, the board after it and what is wrong."""

    number: int
    event: Event
    our_score: int | None
    our_total: int
    board: Board
    board_before: Board
    play: Play | None = None
    problems: list[str] = field(default_factory=list)
    phonies: list[str] = field(default_factory=list)
    rack_known: bool = False  # the event states a rack the tile set allows (the best move can be found)


def replay(game: GcgGame, variant: Variant, lexicon, where: str = "game") -> list[Step]:
    """Replay the events on a board: score every play with our scorer and report each difference from the
    record (a score, a total that does not follow from the record's own previous total and score, a stated
    rack the tile set does not allow, tiles not on the rack) and go on; our totals are the sums of our scores
    alone, whatever the record says. A play that cannot be placed is an error naming its line. Withdrawn
    plays come off the board."""
    board, totals, recorded, steps = Board(), [0, 0], [0, 0], []  # our totals; the record's
    last_play: dict[int, tuple[Board, int]] = {}
    for i, ev in enumerate(game.events, 1):
        before = board.copy()
        ours: int | None = ev.score
        step = Step(i, ev, None, 0, board, before)
        rack_problem = _rack_problem(ev.rack, variant)
        step.rack_known = bool(ev.rack) and rack_problem is None
        if rack_problem is not None:
            step.problems.append(rack_problem)
        if ev.kind == PLAY:
            try:
                tiles, direction = parse_play(_fill_dots(ev.move, board), board)
                play = evaluate(board, tiles, variant, _AnyWord(), direction)
            except WordstatsError as exc:
                raise WordstatsError(f"{where}: line {ev.line}: {ev.move}: {exc}") from None
            if ev.rack:
                try:
                    check_rack(tiles, ev.rack)
                except IllegalPlay as exc:
                    step.problems.append(f"{ev.move}: tiles not on the stated rack: {exc}")
            step.play, ours = play, play.score
            step.phonies = [w.word for w in [play.main, *play.cross] if w.word not in lexicon]
            last_play[ev.player] = (board.copy(), play.score)
            board = board.copy()
            board.put(play.tiles)
        elif ev.kind == WITHDRAWN:
            if ev.player not in last_play:
                raise WordstatsError(f"{where}: line {ev.line}: a play is withdrawn, but {_nick(game, ev)} made none")
            board, previous = last_play.pop(ev.player)
            ours = -previous
        elif ev.kind in (EXCHANGE, PASS):
            ours = 0
            if ev.kind == EXCHANGE and ev.rack and not ev.move.isdigit():
                try:
                    check_rack([_tile(ch) for ch in ev.move], ev.rack)
                except IllegalPlay as exc:
                    step.problems.append(f"exchange {ev.move}: {exc}")
        elif ev.kind == END_POINTS:  # twice the rack (NASPA), or once when the opponent lost it (WESPA)
            value = rack_value(ev.move, variant)
            ours = value if ev.score == value and _penalised(game, ev) else 2 * value
        elif ev.kind == END_PENALTY:
            ours = -rack_value(ev.move, variant)
        totals[ev.player] += ours if ours is not None else ev.score
        step.our_score, step.our_total, step.board = ours, totals[ev.player], board
        if ours is not None and ours != ev.score:
            step.problems.append(f"score {ev.score:+d} in the record, {ours:+d} by the rules")
        sums = recorded[ev.player] + ev.score
        if ev.total != sums:  # the record's own arithmetic; a wrong score alone is reported once, above
            step.problems.append(
                f"total {ev.total} in the record, where its {recorded[ev.player]} {ev.score:+d} make {sums}"
                f" ({totals[ev.player]} by the rules)"
            )
        recorded[ev.player] = ev.total
        steps.append(step)
    return steps


def _rack_problem(rack: str, variant: Variant) -> str | None:
    """What is wrong with a stated rack (more tiles than a rack holds, or more of a tile than the tile set
    has), or None."""
    if len(rack) > variant.rack_size:
        return f"rack {rack} has {len(rack)} tiles; a {variant.name} rack holds at most {variant.rack_size}"
    for tile, n in sorted(Counter(rack).items()):
        have = variant.tile_set.counts.get(tile, 0)
        if n > have:
            what = "blanks (?)" if tile == BLANK else f"{tile} tiles"
            return f"rack {rack} has {n} {what}; the {variant.name} tile set has {have}"
    return None


def _penalised(game: GcgGame, ev: Event) -> bool:
    """Whether the opponent lost the same rack in an end-of-game penalty line."""
    return any(e.kind == END_PENALTY and e.player != ev.player and e.move == ev.move for e in game.events)


def _fill_dots(move: str, board: Board) -> str:
    """A play with its played-through tiles written '.' (as Macondo does) spelled out from the board."""
    where, _, word = move.partition(" ")
    if "." not in word:
        return move
    match = re.match(r"^(\d+)([A-Oa-o])$|^([A-Oa-o])(\d+)$", where)
    if not match:
        return move
    if match.group(1):
        row, col, dr, dc = int(match.group(1)) - 1, ord(match.group(2).upper()) - 65, 0, 1
    else:
        row, col, dr, dc = int(match.group(4)) - 1, ord(match.group(3).upper()) - 65, 1, 0
    out = []
    for k, ch in enumerate(word):
        r, c = row + k * dr, col + k * dc
        out.append(board.letter(r, c) or "." if ch == "." and 0 <= r < 15 and 0 <= c < 15 else ch)
    return f"{where} {''.join(out)}"


def _tile(ch: str):
    """A pseudo-tile for rack checks of an exchange (a ? is a blank)."""
    from pipeline.scrabble.rules.board import Tile

    return Tile(0, 0, "a" if ch == BLANK else ch)


def _nick(game: GcgGame, ev: Event) -> str:
    """The nickname of the event's player."""
    return game.players[ev.player][0]


# ---- writing --------------------------------------------------------------------------------------


def play_notation(play: Play) -> str:
    """A play as GCG writes it: the position, then the whole word (blanks lower case)."""
    word = play.display.replace("(", "").replace(")", "")
    return f"{play.position} {word}"


def game_gcg(game: Game, variant: Variant, names: tuple[str, str] = ("p1", "p2"), lexicon: str = "") -> str:
    """A self-play game as a GCG record (racks before each move, exchanges, passes, end-of-game racks)."""
    lines = ["#character-encoding UTF-8"]
    for k, nick in enumerate(names, 1):
        lines.append(f"#player{k} {nick} {nick}")
    if lexicon:
        lines.append(f"#lexicon {lexicon}")
    totals = [0] * len(game.scores)
    board = Board()
    for turn in game.turns:
        rack = _gcg_rack(turn.rack)
        totals[turn.player] += turn.score
        if turn.action == "play" and turn.play is not None:
            move = play_notation(turn.play)
            board.put(turn.play.tiles)
        elif turn.action == "exchange":
            move = f"-{_gcg_rack(getattr(turn, 'exchanged', '') or turn.rack)}"
        else:
            move = "-"
        lines.append(f">{names[turn.player]}: {rack} {move} +{turn.score} {totals[turn.player]}")
    lines.extend(line for _, line in _end_lines(game, variant, board, totals, names))
    return "\n".join(lines) + "\n"


def _end_lines(game: Game, variant: Variant, board: Board, totals: list[int], names) -> list[tuple[int, str]]:
    """The end-of-game lines: going-out points, or each player's rack penalty."""
    out = []
    if game.went_out is not None:  # self-play's rule: the others lose their racks' value, which the winner gains
        winner = game.went_out
        left = Counter(ch for ch in LETTERS + BLANK for _ in range(variant.tile_set.counts.get(ch, 0)))
        left.subtract(BLANK if ch.islower() else ch for ch in board.text() if ch.isalpha())
        rack = _gcg_rack("".join(left.elements()))
        points = rack_value(rack, variant)
        for p in range(len(game.scores)):
            if p != winner and rack:
                totals[p] -= points
                out.append((p, f">{names[p]}: {rack} ({rack}) -{points} {totals[p]}"))
        totals[winner] += points
        out.append((winner, f">{names[winner]}: ({rack}) +{points} {totals[winner]}"))
        return out
    finals = getattr(game, "final_racks", None)
    for p in range(len(game.scores)):
        rack = finals[p] if finals else _last_rack(game, p)
        penalty = rack_value(rack, variant)
        if rack:
            totals[p] -= penalty
            out.append((p, f">{names[p]}: {_gcg_rack(rack)} ({_gcg_rack(rack)}) -{penalty} {totals[p]}"))
    return out


def _last_rack(game: Game, player: int) -> str:
    """A player's rack at the end of a game that ended on scoreless turns (their last turn was a pass)."""
    for turn in reversed(game.turns):
        if turn.player == player:
            return turn.rack
    return ""


def _gcg_rack(rack: str) -> str:
    """A rack as GCG writes it: letters sorted, blanks as ? first."""
    return "".join(sorted(rack))

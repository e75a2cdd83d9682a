"""Every file a command writes goes through one guard: each command that takes --out (or writes files) is run
against each kind of target, and writes only a new or a forced regular file outside the data folder; every
other target is a one-line error (exit 2) that changes nothing, there or in the data folder."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import socket
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import hypothesis
import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from tests.conftest import SMALL_CONFIG, build_lexicon, run_cli

WORDS = (
    "RETAINS STAINER NASTIER RETINAS ANESTRI SATIRE STARE TEARS RATES ASTER CAT ACT TILES ISLET STONE NOTES "
    "ONSET TONES QUA QI ZA OD DO IT TI AT TA ON NO EN NE OR RE AR ER ES IN IS SI ST ARISTAE ASTERIA ATRESIA"
).split()
WAIT = 180  # seconds before a command that blocks (on a pipe, say) fails its test instead of hanging the suite
# (long enough for a first self-play to compile its kernels on a busy machine)
LEXICON = "t"


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A data folder with the tables the commands read (words, indexes, stems, leave values)."""
    return build_lexicon(tmp_path_factory.mktemp("outputs") / "out", WORDS, "ingest", "indexes", "stems", "leaves")


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> Path:
    """A board file with RETAINS across the centre."""
    path = tmp_path_factory.mktemp("board") / "game.txt"
    rows = ["." * 15] * 15
    rows[7] = "...RETAINS....."
    path.write_text("\n".join(rows) + "\n")
    return path


@dataclass(frozen=True)
class Command:
    """A command that writes a file: its arguments before --out, the suffix it writes, and whether it reads
    the lexicon (it then takes --lexicon and --data-dir)."""

    name: str
    args: Callable[[Path], tuple]
    suffix: str
    reads_lexicon: bool = True
    slow: bool = False

    @property
    def marks(self) -> list:
        """The command's pytest marks (slow commands are marked slow)."""
        return [pytest.mark.slow] if self.slow else []

    def argv(self, data: Path, board: Path, target: Path, force: bool) -> list:
        """The full command line writing to `target`."""
        common = ["--config", SMALL_CONFIG]
        if self.reads_lexicon:
            common += ["--lexicon", LEXICON, "--data-dir", data]
        elif self.name == "make-rules":
            common += ["--data-dir", data]
        return [*self.args(board), "--out", target, *(["--force"] if force else []), *common]


COMMANDS = (
    Command("stems", lambda b: ("stems",), ".csv"),
    Command("sql", lambda b: ("sql", "SELECT word FROM words"), ".csv"),
    Command("wordlist", lambda b: ("wordlist", "--length", "2-7"), ".csv"),
    Command("study", lambda b: ("study", "--length", "7", "--to", "5"), ".csv"),
    Command("scrabble play", lambda b: ("scrabble", "play", "--empty", "--play", "8D RETAINS"), ".txt"),
    Command("scrabble show", lambda b: ("scrabble", "show", b), ".svg", reads_lexicon=False),
    Command("make-rules", lambda b: ("make-rules",), ".mk", reads_lexicon=False),
    Command(
        "boggle prove",
        lambda b: ("boggle", "prove", "--size", "2x3", "--floor", "14", "--classes", "AEI RST", "--workers", "1"),
        ".parquet",
    ),
    Command(
        "scrabble leaves", lambda b: ("scrabble", "leaves", "--games", "2", "--rounds", "1"), ".parquet", slow=True
    ),
    Command("scrabble playability", lambda b: ("scrabble", "playability", "--games", "2"), ".parquet", slow=True),
)


# ---- the kinds of target -----------------------------------------------------------------------


def new_file(tmp: Path, data: Path, suffix: str) -> Path:
    """A path where nothing is yet."""
    return tmp / f"new{suffix}"


def existing_file(tmp: Path, data: Path, suffix: str) -> Path:
    """A file of someone's that is already there."""
    path = tmp / f"mine{suffix}"
    path.write_text("someone's file\n")
    return path


def table(tmp: Path, data: Path, suffix: str) -> Path:
    """A table of the lexicon."""
    return data / LEXICON / "words.parquet"


def in_lexicon_folder(tmp: Path, data: Path, suffix: str) -> Path:
    """A new file beside the tables."""
    return data / LEXICON / f"extra{suffix}"


def in_data_folder(tmp: Path, data: Path, suffix: str) -> Path:
    """A new file at the top of the data folder."""
    return data / f"extra{suffix}"


def in_another_data_folder(tmp: Path, data: Path, suffix: str) -> Path:
    """A new file in a folder of tables that this command's --data-dir does not name."""
    other = tmp / "elsewhere" / "lex"
    other.mkdir(parents=True)
    for marker in (".commit.lock", ".manifest.lock"):
        (other / marker).touch()
    return other / f"extra{suffix}"


def dev_null(tmp: Path, data: Path, suffix: str) -> Path:
    """The null device."""
    return Path("/dev/null")


def dev_full(tmp: Path, data: Path, suffix: str) -> Path:
    """The device that is always full (and reads as endless zeros)."""
    return Path("/dev/full")


def fifo(tmp: Path, data: Path, suffix: str) -> Path:
    """A named pipe (opening it to write blocks until someone reads)."""
    path = tmp / f"pipe{suffix}"
    os.mkfifo(path)
    return path


def unix_socket(tmp: Path, data: Path, suffix: str) -> Path:
    """A Unix socket bound to a file."""
    path = tmp / f"sock{suffix}"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


def folder(tmp: Path, data: Path, suffix: str) -> Path:
    """A folder named like an output file."""
    path = tmp / f"folder{suffix}"
    path.mkdir()
    (path / "inside.txt").write_text("kept\n")
    return path


def link_to_dev_null(tmp: Path, data: Path, suffix: str) -> Path:
    """A symbolic link to the null device."""
    path = tmp / f"null{suffix}"
    path.symlink_to("/dev/null")
    return path


def link_to_table(tmp: Path, data: Path, suffix: str) -> Path:
    """A symbolic link to a table."""
    path = tmp / f"table{suffix}"
    path.symlink_to(data / LEXICON / "words.parquet")
    return path


REFUSED = (
    existing_file,
    table,
    in_lexicon_folder,
    in_data_folder,
    in_another_data_folder,
    dev_null,
    dev_full,
    fifo,
    unix_socket,
    folder,
    link_to_dev_null,
    link_to_table,
)
FORCED = {existing_file}  # refused without --force only; every other kind is refused with it too


# ---- what a refusal must leave -------------------------------------------------------------------


def state(path: Path) -> tuple:
    """What is at `path`: its kind, and its bytes' digest for a regular file (a pipe or device is never read)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return ("absent",)
    if stat.S_ISLNK(mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(mode):
        return ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    if stat.S_ISDIR(mode):
        return ("folder", tuple(sorted(p.name for p in path.iterdir())))
    return ("special", stat.S_IFMT(mode))


def tree(root: Path) -> dict[str, tuple]:
    """The state of every file under a folder."""
    return {str(p.relative_to(root)): state(p) for p in sorted(root.rglob("*"))}


@contextlib.contextmanager
def deadline(seconds: int):
    """Fail the block with TimeoutError if it runs longer than `seconds` (a blocked open is interrupted)."""

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(argv: list, data: Path):
    """The real CLI in-process, within the deadline; the data folder is also the default one."""
    with deadline(WAIT):
        return run_cli(*argv, env={"WORDSTATS_DATA": str(data)})


def params(kinds, slow_commands: bool = True):
    """(command, kind) pairs for parametrize, slow commands marked."""
    return [
        pytest.param(c, k, id=f"{c.name}-{k.__name__}", marks=[pytest.mark.slow] if c.slow else [])
        for c in COMMANDS
        for k in kinds
        if slow_commands or not c.slow
    ]


# ---- the tests ------------------------------------------------------------------------------------


REFUSAL_EXAMPLES = 8  # (kind of target, --force or not) pairs drawn per command and run, of 23 (new ones each run)


@pytest.mark.parametrize(
    "command", [pytest.param(c, id=c.name, marks=[pytest.mark.slow] if c.slow else []) for c in COMMANDS]
)
@hypothesis.settings(max_examples=REFUSAL_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(REFUSED), force=st.booleans())
def test_every_command_refuses_every_unsafe_target_and_changes_nothing(command, kind, force, data, board):
    hypothesis.assume(not (kind in FORCED and force))  # a forced replacement of one's own file is allowed
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        target = kind(tmp_path, data, command.suffix)
        before, tables = state(target), tree(data)
        res = run(command.argv(data, board, target, force), data)
        assert res.exit_code == 2, res
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and str(target) in lines[0], res
        assert "Traceback" not in res.stderr + res.stdout
        assert state(target) == before
        assert tree(data) == tables
        assert not list(tmp_path.rglob(".*.tmp"))


@pytest.mark.parametrize("command, kind", params([new_file, existing_file]))
def test_every_command_writes_a_new_file_or_a_forced_one_atomically(command, kind, data, board, tmp_path):
    target = kind(tmp_path, data, command.suffix)
    before, tables = state(target), tree(data)
    res = run(command.argv(data, board, target, force=kind is existing_file), data)
    assert res.exit_code == 0, res
    assert state(target)[0] == "file" and state(target) != before and target.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary left
    assert tables_of(tree(data)) == tables_of(tables)


def tables_of(files: dict[str, tuple]) -> dict[str, tuple]:
    """The tables of a data folder's tree, without the pipeline's own job shards and make fingerprints."""
    return {name: s for name, s in files.items() if s[0] != "folder" and not {"jobs", ".make"} & set(Path(name).parts)}


def test_every_command_that_writes_a_file_is_tested_here():
    from tests.support.cli_docs import commands, long_options

    writers = {
        path.removeprefix("wordstats ")
        for path, cmd in commands().items()
        if "--out" in long_options(cmd) or "--gcg-dir" in long_options(cmd)
    }
    assert writers == {c.name for c in COMMANDS} | {"scrabble selfplay"}


def test_make_rules_replaces_its_own_file_in_the_data_folder_without_force(data, tmp_path):
    rules = data / ".rules.mk"
    argv = ["make-rules", "--out", rules, "--data-dir", data, "--config", SMALL_CONFIG]
    assert run(argv, data).exit_code == 0
    first = rules.read_text()
    assert first.startswith("# Generated by `wordstats make-rules`")
    assert run(argv, data).exit_code == 0 and rules.read_text() == first  # its own file: no --force needed
    mine = tmp_path / "Makefile.inc"
    mine.write_text("# my rules\n")
    res = run(["make-rules", "--out", mine, "--data-dir", data, "--config", SMALL_CONFIG], data)
    assert res.exit_code == 2 and "file exists" in res.stderr and mine.read_text() == "# my rules\n"


# ---- a folder of files: selfplay --gcg-dir --------------------------------------------------------


def gcg_dir_argv(data: Path, folder: Path, force: bool = False) -> list:
    """`scrabble selfplay` writing two games into `folder`."""
    return [
        *("scrabble", "selfplay", "--games", "2", "--gcg-dir", folder),
        *(["--force"] if force else []),
        *("--lexicon", LEXICON, "--data-dir", data, "--config", SMALL_CONFIG),
    ]


def game_in_the_way(tmp: Path, data: Path) -> Path:
    """A folder holding someone's file named like the first game."""
    path = tmp / "games"
    path.mkdir()
    (path / "game-000001.gcg").write_text("someone's game\n")
    return path


def fifo_game(tmp: Path, data: Path) -> Path:
    """A folder whose first game file is a named pipe."""
    path = tmp / "games"
    path.mkdir()
    os.mkfifo(path / "game-000001.gcg")
    return path


def plain_file(tmp: Path, data: Path) -> Path:
    """A file where the folder should be."""
    path = tmp / "games"
    path.write_text("not a folder\n")
    return path


@pytest.mark.parametrize(
    "kind, force",
    [
        (game_in_the_way, False),
        (fifo_game, True),
        (plain_file, True),
        (lambda tmp, data: data / LEXICON, True),
        (lambda tmp, data: data, True),
        (lambda tmp, data: Path("/dev"), True),
        (lambda tmp, data: Path("/dev/shm/wordstats-games"), True),
    ],
    ids=["existing-game", "fifo-game", "file", "lexicon-folder", "data-folder", "dev", "dev-shm"],
)
def test_gcg_dir_refuses_unsafe_folders_and_changes_nothing(kind, force, data, tmp_path):
    target = kind(tmp_path, data)
    before, tables = state(target), tree(data)
    res = run(gcg_dir_argv(data, target, force), data)
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1 and "--gcg-dir" in res.stderr, res
    assert state(target) == before and tree(data) == tables


def test_gcg_dir_writes_new_games_and_forced_ones(data, tmp_path):
    games = game_in_the_way(tmp_path, data)
    assert run(gcg_dir_argv(data, games, force=True), data).exit_code == 0
    assert sorted(p.name for p in games.iterdir()) == ["game-000001.gcg", "game-000002.gcg"]
    assert (games / "game-000001.gcg").read_text().startswith("#character-encoding")
    assert run(gcg_dir_argv(data, tmp_path / "fresh"), data).exit_code == 0
    assert len(list((tmp_path / "fresh").glob("game-*.gcg"))) == 2


# ---- the library: an atomic write never replaces a special file -----------------------------------


@pytest.mark.parametrize("kind", [fifo, unix_socket, folder], ids=["fifo", "socket", "folder"])
def test_an_atomic_write_never_replaces_a_special_file_or_a_folder(kind, tmp_path):
    from pipeline.core.errors import WordstatsError
    from pipeline.core.files import write_text

    target = kind(tmp_path, tmp_path, ".txt")
    before = state(target)
    with deadline(WAIT), pytest.raises(WordstatsError, match="not a regular file|is a folder"):
        write_text(target, "text")
    assert state(target) == before
    assert not list(tmp_path.glob(".*.tmp"))

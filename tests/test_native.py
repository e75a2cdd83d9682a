"""The compiled extensions (pipeline/<package>/native/, built by `make install`): every one current after the
install, a stale one refused with a one-line error naming the fix, `wordstats info` saying which are current, and
the one-off commands that run them starting without numba. Their results against the numba kernels:
tests/test_boggle_native.py and tests/test_scrabble_native.py."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import native
from tests.bench.timing import imported_modules
from tests.conftest import ENABLE, ROOT, SMALL_CONFIG, build_lexicon, project_copy, project_env

BOARD = """\
...............
...............
...............
...............
...............
.....Z.........
.....E.........
...AGREE.......
.....O.........
....RE.........
...DID.........
...OF..........
...ME..........
mISERY.........
.....OVULE.....
"""

GAME = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8D RETAINS +66 66
>bob: ADEJOQU D8 .AJ +10 10
"""


def test_every_extension_is_current_after_the_install():
    assert {p.rsplit(".", 1)[1] for p in native.packages()} >= {"boggle", "scrabble"}
    assert [native.problem(p) for p in native.packages()] == [None] * len(native.packages())


@pytest.mark.slow
def test_an_edited_source_makes_its_extension_refused_in_one_line(tmp_path):
    project = project_copy(tmp_path / "project")
    solve = project / "pipeline" / "boggle" / "native" / "solve.c"
    solve.write_text(solve.read_text() + "\n/* edited */\n")
    env = project_env(project)
    current = subprocess.run(
        [sys.executable, "-m", "pipeline.core.native", "--current"],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
    )
    assert current.returncode == 1 and "boggle engine is older than its sources" in current.stdout
    assert "scrabble" not in current.stdout
    words = tmp_path / "words.txt"
    words.write_text("cat\ndogs\ntoga\n")
    run = subprocess.run(  # the dictionary stage builds the Boggle trie with the extension
        [sys.executable, "-m", "pipeline", "run", "ingest", "dictionary", "--source", str(words), "--lexicon", "t"]
        + ["--data-dir", str(tmp_path / "out"), "--config", str(SMALL_CONFIG)],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines()[-1].endswith("run `make install`"), run.stderr


def test_info_says_which_extensions_are_current(cli, tmp_path):
    res = cli("info", "--data-dir", tmp_path)
    assert res.exit_code == 0, res
    line = next(x for x in res.stderr.splitlines() if x.startswith("one-off commands' kernels: "))
    said = "; ".join(f"{p.rsplit('.', 1)[1]} {native.status(p)}" for p in sorted(native.packages()))
    assert line == f"one-off commands' kernels: {said}"
    assert "boggle C extension" in line and "scrabble C extension" in line


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """ENABLE built (words, the GADDAG, a few games of leave values) with the small test config."""
    out = tmp_path_factory.mktemp("engine") / "out"
    return build_lexicon(out, ENABLE, "ingest", "indexes", "gaddag", "leaves", lexicon="t")


@pytest.mark.parametrize(
    "args",
    [
        ["scrabble", "best", "--board", "{board}", "--rack", "AFJOPRW"],
        ["scrabble", "best", "--board", "{board}", "--rack", "AFJOP?W", "--equity"],
        ["scrabble", "best", "--empty", "--rack", "RETAINS", "--show"],
        ["scrabble", "play", "--board", "{board}", "--play", "G7 F(E)W", "--rack", "AFJOPRW"],
        ["scrabble", "replay", "{game}"],
        ["scrabble", "show", "{board}"],
        ["judge", "JO", "QAT", "OXO"],
        ["boggle", "solve", "PERSLATGSINETERS"],
        ["boggle", "score", "PERSLATGSINETERS"],
    ],
    ids=["best", "equity", "best-show", "play", "replay", "show", "judge", "boggle-solve", "boggle-score"],
)
@pytest.mark.slow
def test_one_off_commands_start_without_numba(data, tmp_path, args):
    board, game = tmp_path / "board.txt", tmp_path / "game.gcg"
    board.write_text(BOARD)
    game.write_text(GAME)
    argv = [a.format(board=board, game=game) for a in args]
    if argv[0] != "scrabble" or argv[1] != "show":
        argv += ["--lexicon", "t", "--data-dir", str(data)]
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pipeline", *argv, "--config", str(SMALL_CONFIG)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    imported = imported_modules(run.stderr)
    assert "pipeline.cli" in imported
    assert not {m for m in imported if m.split(".")[0] in ("numba", "llvmlite", "pyarrow")}
    assert run.stdout.strip()


@pytest.mark.slow
@pytest.mark.numba_reference  # the letter trie's numba kernels: the reference of the C engine's (commands use C)
@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ABCZaz-É1 ", max_size=5), max_size=8))
def test_trie_takes_exactly_upper_case_words(words):
    from pipeline.letters.trie import build_trie

    valid = all(w and all("A" <= ch <= "Z" for ch in w) for w in words)
    try:
        trie = build_trie(words)
    except ValueError:
        assert not valid
    else:
        assert valid and trie.words == tuple(sorted(set(words)))
        assert all(w in trie for w in words)

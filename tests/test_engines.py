"""The kernels compiled ahead of time (pipeline.core.aot; the Boggle solver, built by `make install`): the same
results as the numba kernels they are built from, never used when stale or damaged; and one-off commands that
start without numba (Scrabble's run its C extension: tests/test_scrabble_native.py)."""

from __future__ import annotations

import ast
import importlib
import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.boggle import engine as boggle_engine
from pipeline.core import native
from pipeline.core.aot import (
    AHEAD_OF_TIME,
    COMPILERS,
    ENGINES,
    engine_named,
    load_build,
    module_path,
    numba_kernels,
    record_path,
    source_key,
    status,
)
from pipeline.core.config import load_config
from tests.bench.timing import imported_modules
from tests.conftest import ENABLE, ROOT, SMALL_CONFIG, build_lexicon

MOBY = ROOT / "data" / "raw" / "moby-words.txt"


def current_build(engine):
    """The engine's build that `make install` made (the suite runs after it: `make test`); skipped only on a
    machine without a C compiler, where make records that nothing could be built."""
    if not any(shutil.which(cc) for cc in COMPILERS):
        pytest.skip("no C compiler: the kernels are not compiled ahead of time")
    module = load_build(engine, engine.build_path())
    assert module is not None, f"{engine.name}: {status(engine)}"
    return module


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_commands_use_the_current_build(name):
    engine = engine_named(name)
    built, numba = current_build(engine), numba_kernels(engine)
    assert engine.build_path().name == f"wordstats_{name}_aot.so"
    assert aot_kernels(name).compiled == AHEAD_OF_TIME == status(engine)
    assert all(callable(getattr(built, f)) and callable(getattr(built.unchecked, f)) for f, _, _ in engine.exports)
    assert [getattr(built, c) for c, _ in engine.constants] == [getattr(numba, c) for c, _ in engine.constants]


def aot_kernels(name: str):
    """What the game's one-off commands call."""
    return importlib.import_module(ENGINES[name]).kernels()


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_stale_missing_or_damaged_build_is_not_used(name, tmp_path):
    engine = engine_named(name)
    current_build(engine)
    path = engine.build_path()
    assert load_build(engine, path, key=source_key(engine) ^ 1) is None
    assert load_build(engine, tmp_path / "absent.so") is None
    copy = tmp_path / "copy.so"
    copy.write_bytes(path.read_bytes())
    record_path(copy).write_bytes(record_path(path).read_bytes())
    assert load_build(engine, copy) is not None  # a whole copy loads
    cut = tmp_path / "cut.so"
    cut.write_bytes(path.read_bytes()[:4096])  # cut short: never handed to the dynamic loader
    record_path(cut).write_bytes(record_path(path).read_bytes())
    assert load_build(engine, cut) is None
    record = json.loads(record_path(path).read_text())
    record_path(copy).write_text(json.dumps({**record, "processor": "another"}))
    assert load_build(engine, copy) is None  # built on another machine
    assert "another processor" in status(engine, copy)
    record_path(copy).write_text("{garbage")
    assert load_build(engine, copy) is None
    record_path(copy).unlink()
    assert load_build(engine, copy) is None


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


@pytest.mark.slow
def test_build_without_a_compiler_says_so(tmp_path):
    engine = engine_named("boggle")
    run = subprocess.run(
        [sys.executable, "-m", "pipeline.core.aot", "boggle", str(tmp_path / "x.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": str(tmp_path), "HOME": str(tmp_path)},
    )
    assert run.returncode == 0 and "no C compiler" in run.stdout and not (tmp_path / "x.so").exists()
    assert status(engine, tmp_path / "x.so") == "numba (not built: no C compiler (cc, gcc, clang))"
    assert load_build(engine, tmp_path / "x.so") is None


@pytest.mark.slow
def test_a_failing_compiler_leaves_numba_in_use_and_make_going(tmp_path):
    engine = engine_named("boggle")
    tools = tmp_path / "bin"
    tools.mkdir()
    for cc in COMPILERS:  # a compiler that fails, as one missing Python's headers does
        (tools / cc).write_text("#!/bin/sh\necho 'fatal error: Python.h: No such file or directory' >&2\nexit 1\n")
        (tools / cc).chmod(0o755)
    run = subprocess.run(
        [sys.executable, "-m", "pipeline.core.aot", "boggle", str(tmp_path / "x.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": f"{tools}:/usr/bin:/bin", "HOME": str(tmp_path), "CC": str(tools / "cc")},
    )
    assert run.returncode == 0 and run.stdout.startswith("warning: boggle kernels not compiled"), run
    assert status(engine, tmp_path / "x.so").startswith("numba (not built: the compiler failed")
    assert load_build(engine, tmp_path / "x.so") is None


def test_compiled_functions_check_their_arguments():
    engine = engine_named("boggle")
    built, numba = current_build(engine), numba_kernels(engine)
    children = np.array([[1, -1], [-1, -1]], dtype=np.int32)
    word_at = np.array([-1, 0], dtype=np.int32)
    for a, b in zip(built.trie_compact(children, word_at), numba.trie_compact(children, word_at), strict=True):
        assert (a == b).all()
    wide = np.array([[1, 9, -1, 9], [-1, 9, -1, 9]], dtype=np.int32)
    for bad in ([children.astype(np.int64), word_at], [wide[:, ::2], word_at], [children.tolist(), word_at]):
        with pytest.raises(TypeError, match="argument 0 must be a C-ordered 2-d int32 array"):
            built.trie_compact(*bad)
    with pytest.raises(TypeError, match="argument 0 must be a int64 scalar, not float"):
        built.boggle_neighbours(2.5, 2)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        built.boggle_neighbours(2)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_kernel_modules_take_nothing_from_other_modules_of_the_package(name):
    """A build is current when its sources are: a constant a kernel took from elsewhere would escape that. (A
    kernel module may take from its own cache unit, every file of which is a source of the build.)"""
    engine = engine_named(name)
    sources = set(engine.sources())
    kernels = {module_path(m) for _, m, _ in engine.exports} | {module_path(m) for _, m in engine.constants}
    kernels |= {p for unit in engine.units for p in module_path(f"{unit}.__init__").parent.glob("*.py")}
    for path in kernels:
        tree = ast.parse(path.read_text())
        imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        outside = [m for m in imported if m and m.split(".")[0] == "pipeline" and module_path(m) not in sources]
        assert not outside, (path, outside)
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level], path  # no relative


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_compiled_boggle_kernels_give_the_numba_kernels_results(seed):
    from pipeline.boggle.dictionary import compile_dictionary
    from pipeline.boggle.kernels import nodes, solve
    from pipeline.boggle.rules import neighbours
    from pipeline.boggle.sampling import roll
    from pipeline.boggle.settings import boggle_config
    from pipeline.boggle.solver import score_boards
    from pipeline.letters import kernels as lk
    from pipeline.letters.trie import build_trie

    built = current_build(boggle_engine.ENGINE)
    words = [w for w in MOBY.read_text().upper().split() if w.isalpha() and w.isascii()]
    ours, theirs = build_trie(words[seed::3], built), build_trie(words[seed::3], lk)
    assert (ours.children == theirs.children).all() and (ours.word_at == theirs.word_at).all()
    for a, b in zip(built.trie_compact(ours.children, ours.word_at), nodes.trie_compact(ours.children, ours.word_at)):
        assert (a == b).all()
    config = boggle_config(load_config(SMALL_CONFIG))
    dictionary = compile_dictionary(words, config.rules("standard"))
    for rows, dice in ((4, "new"), (5, "big")):
        if dice not in config.dice:
            continue
        assert all(
            (a == b).all() for a, b in zip(built.boggle_neighbours(rows, rows), solve.boggle_neighbours(rows, rows))
        )
        boards = roll(config.dice[dice], seed, 60)
        grid = neighbours(rows, rows)
        totals = []
        for codes in boards:
            found = built.boggle_solve(codes, *grid, *dictionary.arrays)
            assert (found == solve.boggle_solve(codes, *grid, *dictionary.arrays)).all()
            totals.append(int(dictionary.points[found].sum()))
        assert totals == score_boards(boards, rows, rows, dictionary).scores.tolist()  # the parallel kernel
        assert sum(totals) > 0


@pytest.mark.slow
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


def test_info_says_which_kernels_one_off_commands_use(cli, tmp_path):
    res = cli("info", "--data-dir", tmp_path)
    assert res.exit_code == 0, res
    line = next(x for x in res.stderr.splitlines() if x.startswith("one-off commands' kernels: "))
    kernels = {n: status(engine_named(n)) for n in ENGINES}
    kernels |= {p.rsplit(".", 1)[1]: native.status(p) for p in native.packages()}
    said = "; ".join(f"{n} {how}" for n, how in sorted(kernels.items())) or "none"
    assert line == f"one-off commands' kernels: {said}"
    assert "scrabble C extension" in line
    assert all(f"{n} {AHEAD_OF_TIME}" in line for n in ENGINES) or not any(shutil.which(c) for c in COMPILERS)

"""The kernels compiled ahead of time (pipeline.core.aot; the Scrabble move generator, built by `make install`):
the same results as the numba kernels they are built from, never used when stale or damaged, and one-off
commands (Scrabble's, and Boggle's on its compiled extension: tests/test_boggle_native.py) that start without
numba."""

from __future__ import annotations

import ast
import json
import random
import shutil
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
from pipeline.scrabble import engine as scrabble_engine
from pipeline.scrabble.lexicon import kernels as lk
from pipeline.scrabble.lexicon.gaddag import LETTER_HASH
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.movegen.generate import board_plays
from pipeline.scrabble.movegen.tables import tables
from pipeline.scrabble.rules.variant import variants
from tests.bench.timing import imported_modules
from tests.conftest import DEFAULT_CONFIG, ENABLE, ROOT, SMALL_CONFIG, build_lexicon
from tests.test_scrabble_gaddag import moby_sample, random_board, random_rack


def current_build(engine):
    """The engine's build that `make install` made (the suite runs after it: `make test`); skipped only on a
    machine without a C compiler, where make records that nothing could be built."""
    if not any(shutil.which(cc) for cc in COMPILERS):
        pytest.skip("no C compiler: the kernels are not compiled ahead of time")
    module = load_build(engine, engine.build_path())
    assert module is not None, f"{engine.name}: {status(engine)}"
    return module


@pytest.fixture(scope="module")
def built():
    """The Scrabble move generator's build."""
    return current_build(scrabble_engine.ENGINE)


@pytest.fixture(scope="module")
def small():
    """moby_sample(), once per module."""
    return moby_sample()


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
    return {"scrabble": scrabble_engine.kernels}[name]()


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


@pytest.mark.parametrize("variant", ["scrabble", "wwf"])
@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 4))])
def test_compiled_kernels_give_the_numba_kernels_results(built, small, variant, seed):
    game = variants(load_config(DEFAULT_CONFIG))[variant]
    numba = numba_kernels(scrabble_engine.ENGINE)
    rng = random.Random(seed)
    tab = tables(small.gaddag, game)
    arcs = small.gaddag.arcs
    assert (built.arc_tilesets(arcs) == lk.arc_tilesets(arcs)).all()
    for ours, theirs in zip(built.long_words(arcs, 7, LETTER_HASH), lk.long_words(arcs, 7, LETTER_HASH), strict=True):
        assert (ours == theirs).all()
    compared = 0
    for plays in (0, 3, 8):
        board = random_board(small, game, 100 * seed + plays, plays)
        for blanks in (0, 1, 2):
            rack = random_rack(rng, blanks)
            for keep in (0, 1, 10):
                ours, total = board_plays(built, tab, board, rack, keep)
                theirs, expected_total = board_plays(numba, tab, board, rack, keep)
                assert total == expected_total and ours.shape == theirs.shape and (ours == theirs).all()
                compared += len(ours)
    assert compared > 100
    words = sorted(small.words)
    probes = words[::97] + [w[::-1] for w in words[::89]] + [w + "Q" for w in words[::83]]
    for word in probes:
        codes = np.frombuffer(word.encode(), dtype=np.uint8).astype(np.int64) - 65
        assert built.gaddag_contains(arcs, codes) == lk.gaddag_contains(arcs, codes) == (word in small.words)


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
        ["scrabble", "show", "{board}"],
        ["judge", "JO", "QAT", "OXO"],
        ["boggle", "solve", "PERSLATGSINETERS"],
        ["boggle", "score", "PERSLATGSINETERS"],
    ],
    ids=["best", "equity", "best-show", "play", "show", "judge", "boggle-solve", "boggle-score"],
)
@pytest.mark.slow
def test_one_off_commands_start_without_numba(built, data, tmp_path, args):
    board = tmp_path / "board.txt"
    board.write_text(BOARD)
    argv = [a.format(board=board) for a in args]
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


@pytest.mark.slow
def test_build_without_a_compiler_says_so(tmp_path):
    engine = engine_named("scrabble")
    run = subprocess.run(
        [sys.executable, "-m", "pipeline.core.aot", "scrabble", str(tmp_path / "x.json")],
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
    engine = engine_named("scrabble")
    tools = tmp_path / "bin"
    tools.mkdir()
    for cc in COMPILERS:  # a compiler that fails, as one missing Python's headers does
        (tools / cc).write_text("#!/bin/sh\necho 'fatal error: Python.h: No such file or directory' >&2\nexit 1\n")
        (tools / cc).chmod(0o755)
    run = subprocess.run(
        [sys.executable, "-m", "pipeline.core.aot", "scrabble", str(tmp_path / "x.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": f"{tools}:/usr/bin:/bin", "HOME": str(tmp_path), "CC": str(tools / "cc")},
    )
    assert run.returncode == 0 and run.stdout.startswith("warning: scrabble kernels not compiled"), run
    assert status(engine, tmp_path / "x.so").startswith("numba (not built: the compiler failed")
    assert load_build(engine, tmp_path / "x.so") is None


def test_compiled_functions_check_their_arguments(built):
    arcs = Lexicon(["AT", "TA", "QI"]).gaddag.arcs
    assert (built.arc_tilesets(arcs) == lk.arc_tilesets(arcs)).all()
    wide = np.repeat(arcs, 2)
    for bad in (arcs.astype(np.int64), wide[::2], arcs.tolist()):
        with pytest.raises(TypeError, match="argument 0 must be a C-ordered 1-d uint32 array"):
            built.arc_tilesets(bad)
    with pytest.raises(TypeError, match="argument 1 must be a int64 scalar, not float"):
        built.long_words(arcs, 2.5, LETTER_HASH)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        built.long_words(arcs, 7)


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
    kernels = [f"{n} {status(engine_named(n))}" for n in ENGINES]
    kernels += [f"{p.rpartition('.')[2]} {native.status(p)}" for p in native.packages()]
    assert line == "one-off commands' kernels: " + "; ".join(kernels)
    assert f"boggle {native.COMPILED}" in line
    assert all(f"{n} {AHEAD_OF_TIME}" in line for n in ENGINES) or not any(shutil.which(c) for c in COMPILERS)

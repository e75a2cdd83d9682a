"""The Boggle stage and commands: the stage's tables, deterministic and reproduced by `boggle random`, the CLI's
shapes and help, and the stored dictionary."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.rules import Board, parse_size
from pipeline.boggle.settings import boggle_config
from pipeline.boggle.solver import score, solve
from pipeline.core.config import load_config
from tests.conftest import ROOT, SMALL_CONFIG
from tests.reference.boggle import dict_trie, reference_words, rollable
from tests.support.boggle import CONFIG, MOBY, STANDARD, moby_fixture, moby_words_fixture  # noqa: F401  (fixtures)

# ---- the stage --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stage_out(tmp_path_factory):
    from pipeline.core.config import adhoc_lexicon
    from pipeline.core.progress import Progress
    from pipeline.core.stages import run

    out = tmp_path_factory.mktemp("boggle")
    config = load_config(SMALL_CONFIG)
    spec = adhoc_lexicon("m", [MOBY], min_length=2)
    run(config, out, "m", ["boggle"], spec=spec, progress=Progress(quiet=True))
    return out / "m"


@pytest.mark.slow
def test_stage_tables(stage_out, moby, moby_words):
    boards = pl.read_parquet(stage_out / "boggle_boards.parquet")
    words = pl.read_parquet(stage_out / "boggle_words.parquet")
    summary = json.loads((stage_out / "boggle_summary.json").read_text())
    best = pl.read_parquet(stage_out / "boggle_best.parquet")
    assert boards.columns == ["dice", "seed", "index", "board", "score", "n_words", "longest"]
    assert words.columns == ["word", "dice", "points", "boards_found", "find_rate", "expected_points"]
    assert boards.height == CONFIG.boards * len(CONFIG.dice_sets)
    assert words.height == len(CONFIG.dice_sets) * pl.read_parquet(stage_out / "words.parquet").height
    for name in CONFIG.dice_sets:
        mine = boards.filter(pl.col("dice") == name)
        w = words.filter(pl.col("dice") == name)
        s = summary["dice_sets"][name]
        assert s["boards"] == mine.height and s["max"] == mine["score"].max()
        assert s["mean"] == pytest.approx(mine["score"].mean(), abs=1e-3)
        # expected points add up to the mean score; words found add up to words on boards
        assert w["expected_points"].sum() == pytest.approx(mine["score"].mean(), rel=1e-9)
        assert w["boards_found"].sum() == mine["n_words"].sum()
    new = boards.filter(pl.col("dice") == "new").head(20)
    for row in new.iter_rows(named=True):
        found = solve(Board(4, 4, row["board"]), moby)
        assert row["score"] == sum(f.points for f in found) and row["n_words"] == len(found)
        assert row["longest"] == min((f.word for f in found), key=lambda x: (-len(x), x), default=None)
    assert best["search"].unique().sort().to_list() == ["dice big", "dice classic", "dice new", "free 4x4"]
    for row in best.iter_rows(named=True):
        rows, cols = parse_size(row["size"])
        rules = CONFIG.rules(row["variant"])
        d = moby if rules == STANDARD else compile_dictionary(moby_words, rules)
        assert score(Board(rows, cols, row["board"]), d) == row["score"]
        if row["dice"]:
            assert rollable(row["board"], CONFIG.dice[row["dice"]])


@pytest.mark.slow
def test_stage_words_table_counts_boards(stage_out, moby_words):
    boards = pl.read_parquet(stage_out / "boggle_boards.parquet").filter(pl.col("dice") == "classic")
    words = pl.read_parquet(stage_out / "boggle_words.parquet").filter(pl.col("dice") == "classic")
    trie = dict_trie(moby_words, 3)
    sample = boards.head(60)["board"].to_list()
    counts: dict[str, int] = {}
    for t in sample:
        for w in reference_words(t, 4, 4, trie):
            counts[w] = counts.get(w, 0) + 1
    # a word found on every sampled board's reference is at least that often in the whole table
    top = max(counts, key=counts.get)
    row = words.filter(pl.col("word") == top).row(0, named=True)
    assert row["boards_found"] >= counts[top]
    assert row["find_rate"] == row["boards_found"] / boards.height
    unformable = words.filter(pl.col("word").str.contains("Q([^U]|$)"))
    assert unformable.height > 10 and unformable["boards_found"].max() == 0 and unformable["points"].max() == 0


@pytest.mark.slow
def test_stage_is_deterministic(stage_out, tmp_path):
    from pipeline.core.config import adhoc_lexicon
    from pipeline.core.progress import Progress
    from pipeline.core.stages import run

    run(
        load_config(SMALL_CONFIG),
        tmp_path,
        "m",
        ["boggle"],
        spec=adhoc_lexicon("m", [MOBY], min_length=2),
        progress=Progress(quiet=True),
    )
    for name in ("boggle_boards.parquet", "boggle_words.parquet", "boggle_best.parquet", "boggle_summary.json"):
        assert (tmp_path / "m" / name).read_bytes() == (stage_out / name).read_bytes(), name


@pytest.mark.slow
def test_cli_random_reproduces_the_stage_boards(cli, stage_out):
    boards = pl.read_parquet(stage_out / "boggle_boards.parquet").filter(pl.col("dice") == "new").head(5)
    res = cli(
        "boggle",
        "random",
        "--dice",
        "new",
        "--sample",
        5,
        "--seed",
        boards["seed"][0],
        "--json",
        "--lexicon",
        "m",
        "--data-dir",
        stage_out.parent,
        "--config",
        SMALL_CONFIG,
    )
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    assert rows == [{"board": b, "score": s} for b, s in zip(boards["board"], boards["score"])]
    default = cli(
        "boggle",
        "random",
        "--dice",
        "new",
        "--sample",
        5,
        "--json",
        "--lexicon",
        "m",
        "--data-dir",
        stage_out.parent,
        "--config",
        SMALL_CONFIG,
    )
    assert json.loads(default.stdout) == rows  # the default seed is the stage's


# ---- CLI shapes -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from pipeline.core.config import adhoc_lexicon
    from pipeline.core.progress import Progress
    from pipeline.core.stages import run

    out = tmp_path_factory.mktemp("tiny")
    path = out / "tiny.txt"
    path.write_text("\n".join(["QUARK", "QUA", "ARK", "QAT", "RAT", "TAR", "ART", "KART", "STAR", "RATS", "TSAR"]))
    run(
        load_config(SMALL_CONFIG),
        out,
        "tiny",
        ["ingest"],
        spec=adhoc_lexicon("tiny", [path]),
        progress=Progress(quiet=True),
    )
    return ("--lexicon", "tiny", "--data-dir", out, "--config", SMALL_CONFIG)


def test_cli_solve_json_and_paths(cli, tiny):
    res = cli("boggle", "solve", "QARK", "--json", *tiny)
    assert res.exit_code == 0, res
    doc = json.loads(res.stdout)
    assert doc["board"] == "QARK" and doc["score"] == 4
    assert doc["words"] == [{"word": "QUARK", "points": 2}, {"word": "ARK", "points": 1}, {"word": "QUA", "points": 1}]
    res = cli("boggle", "solve", "Qu A R K", "--paths", "--json", *tiny)
    doc = json.loads(res.stdout)
    assert doc["board"] == "QARK" and doc["size"] == "4x1"
    assert doc["words"][0] == {"word": "QUARK", "points": 2, "path": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    text = cli("boggle", "solve", "qark", "--paths", *tiny).stdout
    assert "Qu A" in text and "4 points, 3 words" in text and "0,0 0,1 1,0 1,1" in text


def test_cli_score_lines_and_json(cli, tiny, tmp_path):
    f = tmp_path / "b.txt"
    f.write_text("2 2\nQu A\nR K\n")
    res = cli("boggle", "score", "STAR", f, "ABCDEFGHI", *tiny)
    assert res.exit_code == 0, res
    assert [line.split()[-1] for line in res.stdout.splitlines()[2:]] == ["6", "4", "0"]
    doc = json.loads(cli("boggle", "score", "STAR", "--json", *tiny).stdout)
    assert doc == [{"source": "STAR", "board": "STAR", "score": 6}]
    assert cli("boggle", "score", "STAR", "--min-length", 4, "--csv", *tiny).stdout.splitlines()[1] == "STAR,STAR,3"


def test_cli_random_summary_and_best(cli, tiny):
    res = cli("boggle", "random", "--dice", "big", "--sample", 500, "--seed", 3, "--summary", "--json", *tiny)
    assert res.exit_code == 0, res
    stats = json.loads(res.stdout)
    assert stats["boards"] == 500 and stats["size"] == "5x5" and stats["min_length"] == 4
    assert {"mean", "std", "max", "max_board", "percentiles", "boards_per_second"} <= set(stats)
    text = cli("boggle", "random", "--sample", 300, "--summary", *tiny).stdout
    assert "boards/s" in text and "p50" in text
    res = cli(
        "boggle", "best", "--size", "2x2", "--minutes", 1, "--steps", 3000, "--target", 6, "--seed", 4, "--json", *tiny
    )
    assert res.exit_code == 0, res
    doc = json.loads(res.stdout)
    assert doc["score"] == 6 and doc["size"] == "2x2" and doc["seed"] == 4  # STAR/TSAR/RATS/...: 6 points
    res = cli("boggle", "best", "--dice", "new", "--minutes", 0.001, "--steps", 100, "--target", 1, *tiny)
    assert res.exit_code == 0, res
    found = re.search(r"(\d+) (points?), (\d+) (words?):", res.stdout)  # singular exactly for 1
    assert found and (found[2] == "point") == (found[1] == "1") and (found[4] == "word") == (found[3] == "1"), res


def test_empty_board_and_variant_help(cli):
    res = cli("boggle", "solve", "")
    assert res.exit_code == 2 and "empty board" in res.stderr
    assert "standard (3+ letters) or big" in help_text(cli, "boggle", "solve")
    assert "scrabble or wwf" in help_text(cli, "scrabble", "best")


def help_text(cli, *command: str) -> str:
    """A command's --help as one line of words (the boxes' borders removed)."""
    return " ".join(cli(*command, "--help").stdout.replace("│", " ").split())


def test_point_classes_fit_the_packed_node():
    """The config's limit on distinct points is what a node's points class can hold, and pack_nodes
    puts each field where the kernels read it."""
    from pipeline.boggle.dictionary import MAX_POINT_VALUES, pack_nodes
    from pipeline.boggle.kernels import nodes as kernels

    assert MAX_POINT_VALUES == kernels.NODE_CLASS_MASK
    assert kernels.NODE_CLASS_MASK + 1 == 1 << (kernels.NODE_FIRST_SHIFT - kernels.NODE_CLASS_SHIFT)
    nodes, values = pack_nodes(np.array([0b101]), np.array([7]), np.array([11]), "test")
    node = int(nodes[0])
    assert node & ((1 << kernels.NODE_CLASS_SHIFT) - 1) == 0b101
    assert values[(node >> kernels.NODE_CLASS_SHIFT) & kernels.NODE_CLASS_MASK] == 11
    assert node >> kernels.NODE_FIRST_SHIFT == 7


def test_the_stored_dictionary_is_the_compiled_one(tmp_path):
    """boggle_dictionary.parquet holds, per variant, exactly the dictionary compiled from the words; boggle
    solve gives the same answer from it as from words it compiles (another --min-length)."""
    import numpy as np

    from pipeline.boggle.dictionary import compile_dictionary, stored_dictionary
    from pipeline.core.config import load_config
    from pipeline.core.store import Store
    from tests.conftest import build_lexicon, run_cli

    words = (ROOT / "data" / "raw" / "moby-words.txt").read_text().split()[::7]
    data = build_lexicon(tmp_path / "out", words, "ingest", "dictionary")
    store = Store(data, "t")
    table = store.read("boggle_dictionary")
    variants = boggle_config(load_config(SMALL_CONFIG)).variants
    assert sorted(table["variant"].to_list()) == sorted(variants)
    import pyarrow.parquet as pq

    assert pq.ParquetFile(store.path("boggle_dictionary")).metadata.num_row_groups == len(variants)  # one read
    upper = store.read("words")["word"].to_list()
    for rules in variants.values():
        stored, compiled = stored_dictionary(table, rules), compile_dictionary(upper, rules)
        assert stored is not None and tuple(stored.words) == compiled.words  # read as asked for: one by one, or all
        assert len(stored.words) == len(compiled.words) and stored.words[-1] == compiled.words[-1]
        assert stored.words[3:6] == list(compiled.words[3:6])
        buffered = stored_dictionary(table, rules, buffers=True)  # read without numpy, as `boggle solve` reads it
        assert buffered is not None
        for name in ("nodes", "values", "points", "rank", "word_at", "letter_weights"):
            assert np.array_equal(getattr(stored, name), getattr(compiled, name)), name
            assert isinstance(getattr(buffered, name), memoryview), name
            assert np.array_equal(np.asarray(getattr(buffered, name)), getattr(compiled, name)), name
    common = ["--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--json"]
    a = run_cli("boggle", "solve", "PERSLATGSINETERS", *common)
    b = run_cli("boggle", "solve", "PERSLATGSINETERS", "--min-length", "3", "--variant", "big", *common)
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout  # standard rules from the table; big rules at 3 letters (the same points) compiled
    shown = "import atexit, sys; atexit.register(lambda: print(sorted({'numpy', 'numba'} & set(sys.modules))))\n"
    process = subprocess.run(
        [
            sys.executable,
            "-c",
            shown + "from pipeline.cli import main; main()",
            "boggle",
            "solve",
            "PERSLATGSINETERS",
            *map(str, common),
            "--paths",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert process.returncode == 0, process.stderr
    *document, imported = process.stdout.rstrip("\n").split("\n")
    assert imported == "[]"  # one board solved from the stored dictionary: neither numpy nor numba imported
    solved, expected = json.loads("\n".join(document)), json.loads(a.stdout)
    assert [{k: w[k] for k in ("word", "points")} for w in solved["words"]] == expected["words"]
    assert all(len(w["path"]) == len(w["word"].replace("QU", "Q")) for w in solved["words"])


@pytest.mark.slow
def test_ctrl_c_stops_boggle_best_within_two_seconds(tiny):
    """Ctrl-C in a real `boggle best` process, well into its parallel annealing, ends it within 2 s with one line
    and exit code 130 (before, a SystemError traceback from inside the parallel kernel)."""
    from tests.support.jobs import interrupted

    took, code, err = interrupted(["boggle", "best", "--minutes", "5", "--size", "4x4", *map(str, tiny)])
    assert took < 2 and code == 130, (took, err)
    assert err.strip().splitlines()[-1] == "error: interrupted (Ctrl-C)" and "Traceback" not in err

"""Reference tables that cannot regress (pipeline/core/parts.py `growing`, the proof table and the playability
reference): two real runs growing one table at once, with other block sizes, end with the whole table; a run
paused while another grows the table goes on from it and never shrinks it; `--verify` names a table that is not
a prefix of the class order (a class left out or twice) and a playability part whose sums are not its games'."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from pipeline.boggle import proof_table as pt
from pipeline.core import parts
from tests.conftest import ENABLE, SMALL_CONFIG, build_lexicon, run_cli

LETTERS = set("AEILNRST")
# 3x3 boards of ENABLE's words over eight letters, two groups: 102 canonical classes, a few CPU-seconds
PROVE = ("boggle", "prove", "--size", "3x3", "--classes", "AEI LNRST", "--lexicon", "small", "--floor", "350")
WORDSTATS = [sys.executable, "-m", "pipeline"]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """ENABLE's words over LETTERS, built as the lexicon `small`, and its whole proof table proved at once."""
    root = tmp_path_factory.mktemp("growing")
    source = root / "words.txt"
    source.write_text("\n".join(w for w in ENABLE.read_text().upper().split() if set(w) <= LETTERS) + "\n")
    data = root / "out"
    res = run_cli("run", "--source", source, "--lexicon", "small", "--data-dir", data, "ingest", "-q")
    assert res.exit_code == 0, res
    once = root / "once"
    res = run_cli(*PROVE, "--data-dir", data, "--reference", once, "--block", "1000", "--workers", "1", "-q")
    assert res.exit_code == 0, res
    return data, pt.read_table(once)


def prove(data: Path, table: Path, *more: str) -> subprocess.Popen:
    """A real `boggle prove --reference` process growing `table` on the small lexicon."""
    args = [*WORDSTATS, *PROVE, "--data-dir", str(data), "--reference", str(table), "--workers", "1", "-q", *more]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(proc: subprocess.Popen) -> tuple[int, str]:
    """A process's exit code and standard error, once it ends."""
    try:
        _, err = proc.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()  # never left running
        proc.wait()
        raise
    return proc.returncode, err


@pytest.mark.slow
def test_two_runs_of_other_block_sizes_at_once_end_with_the_whole_table(small, tmp_path):
    data, once = small
    table = tmp_path / "table"
    runs = [prove(data, table, "--block", "3"), prove(data, table, "--block", "5")]
    for proc in runs:
        code, err = finished(proc)
        assert code == 0 and "Traceback" not in err, err
    grown = pt.read_table(table)
    assert grown.rows.equals(once.rows) and not grown.partial  # every class once, in order
    assert all(b - a in (1, 2, 3, 4, 5) for a, b in zip((0, *grown.stops), grown.stops))
    cpu = pt.read_cpu(table)
    assert [(b["start"], b["stop"]) for b in cpu] == list(zip((0, *grown.stops), grown.stops))  # a sidecar each


@pytest.mark.slow
def test_a_paused_run_never_shrinks_a_table_another_run_grew(small, tmp_path):
    """The issue's laptop case: a run is stopped (SIGSTOP) while another grows the table to the end, then goes
    on (SIGCONT): it keeps the other run's parts and ends with the whole table."""
    data, once = small
    table = tmp_path / "table"
    paused = prove(data, table, "--block", "2")
    deadline = time.monotonic() + 300
    while not (table / "part-00000.parquet").exists():
        assert paused.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(paused.pid, signal.SIGSTOP)
    try:
        code, err = finished(prove(data, table, "--block", "25"))
        assert code == 0, err
        grown = {p.name: p.read_bytes() for p in parts.part_files(table)}
        assert pt.read_table(table).rows.equals(once.rows)
    finally:
        os.kill(paused.pid, signal.SIGCONT)
    code, err = finished(paused)
    assert code == 0 and "Traceback" not in err, err
    assert {p.name: p.read_bytes() for p in parts.part_files(table)} == grown  # nothing rewritten, nothing lost
    assert pt.read_table(table).rows.equals(once.rows)


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["left out", "twice"])
def test_verify_names_a_table_that_is_not_a_prefix_of_the_order(small, tmp_path, damage):
    """A table whose rows were changed and its checksums made again (what no run writes): a class left out, or
    one proved twice, is named by --verify before any class is proved again."""
    data, once = small
    rows = once.rows.head(20)
    changed = rows.filter(pl.int_range(pl.len()) != 5) if damage == "left out" else pl.concat([rows, rows.slice(5, 1)])
    pt.write_table(tmp_path / "t", replace(once, rows=changed, stops=()))
    res = run_cli(*PROVE, "--data-dir", data, "--reference", tmp_path / "t", "--verify", "3")
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1, res
    assert "part-00000.parquet: class" in res.stderr and "where the order has" in res.stderr


# ---- the playability reference -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_letters(tmp_path_factory):
    """ENABLE's words of two and three letters as lexicon t, with its GADDAG and leave values."""
    words = [w for w in ENABLE.read_text().upper().split() if len(w) <= 3]
    return build_lexicon(tmp_path_factory.mktemp("play") / "out", words, "ingest", "leaves")


def playability(data: Path, table: Path, *args):
    """`scrabble playability --reference table` on lexicon t (seed 3, 6 games)."""
    return run_cli(
        "scrabble", "playability", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--seed", "3",
        "--games", "6", "--reference", table, "--quiet", *args,
    )  # fmt: skip


def damaged_copy(good: Path, copy: Path, index: int, change) -> None:
    """The reference table `good` written again as `copy`, part `index` holding `change(its sums)`, footers and
    checksums consistent (a damage no checksum can see)."""
    from dataclasses import replace

    from pipeline.scrabble.playability import reference as rf

    ref = rf.read_reference(good)
    table = replace(ref, losses=ref.losses.clear(), games=0, stops=())
    for i, (block, games) in enumerate(zip(rf.reference_blocks(good), ref.stops)):
        block = change(block) if i == index else block
        table = rf.grown(table, block, games)
        rf.write_part(copy, table, block)


@pytest.mark.slow
def test_playability_verify_plays_blocks_again_and_names_a_part_of_other_sums(two_letters, tmp_path):
    table = tmp_path / "ref"
    assert playability(two_letters, table, "--block", "2").exit_code == 0
    res = playability(two_letters, table, "--verify", "5")
    assert res.exit_code == 0 and "3 blocks played again (games 1-2, 3-4, 5-6): the same sums" in res.stdout, res
    for change, says in (
        (lambda rows: rows.with_columns(milli=pl.lit(0).cast(rows.schema["milli"])), "milli"),
        (lambda rows: rows.head(rows.height // 2), "rows stored"),
    ):
        damaged = tmp_path / f"damaged-{says.split()[0]}"
        damaged_copy(table, damaged, 1, change)
        res = playability(two_letters, damaged, "--verify", "3")
        assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1, res
        assert "part-00001.parquet: its sums of games 3 to 4 differ" in res.stderr and says in res.stderr


@pytest.mark.slow
def test_two_playability_runs_at_once_end_with_every_game(two_letters, tmp_path):
    """The issue's case: `--games N --block B` and, at once, `--block 2B --blocks 1` on the same table: it ends with
    all N games, the sums of the games played at once."""
    from pipeline.scrabble.playability import reference as rf

    common = ["scrabble", "playability", "--lexicon", "t", "--data-dir", str(two_letters), "--config",
              str(SMALL_CONFIG), "--seed", "3", "--games", "8", "--quiet"]  # fmt: skip
    runs = [
        subprocess.Popen(
            [*WORDSTATS, *common, "--reference", str(tmp_path / "t"), *more],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )  # fmt: skip
        for more in (["--block", "2"], ["--block", "4", "--blocks", "1"])
    ]
    for proc in runs:
        code, err = finished(proc)
        assert code == 0 and "Traceback" not in err, err
    assert run_cli(*common[:-1], "--reference", tmp_path / "once", "--block", "8").exit_code == 0
    grown, once = rf.read_reference(tmp_path / "t"), rf.read_reference(tmp_path / "once")
    assert grown.games == 8 and grown.losses.equals(once.losses)

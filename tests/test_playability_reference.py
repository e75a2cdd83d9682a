"""The playability reference (data/raw/playability-enable/, a folder of parts, one per block): a table grown block
by block holds the sums of one played at once and of the playability job, the same blocks the same bytes; a table
of other leave values is refused (--force plays it again); the stage and the words table take their playability
from it; the committed table is the one `make all` can use."""

from __future__ import annotations

import json
from dataclasses import replace

import polars as pl
import pytest

from pipeline.core import executor, parts
from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import words_digest
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.playability import reference as rf
from pipeline.scrabble.playability.job import LOSSES_SCHEMA, playability_job
from pipeline.scrabble.playability.table import stability
from pipeline.scrabble.requests import REFERENCE_BLOCK
from pipeline.scrabble.rules.variant import variants
from pipeline.words.playability import playability_table, reference_file
from tests.conftest import ENABLE, ROOT, SMALL_CONFIG, build_lexicon, config_with, run_cli

REFERENCE = ROOT / "data" / "raw" / "playability-enable"


def losses(*rows) -> pl.DataFrame:
    """A losses table of (word, half, milli, turns) rows."""
    return pl.DataFrame(list(rows), schema=LOSSES_SCHEMA, orient="row")


def some_reference(games: int = 40, target: int = 100, **keys) -> rf.Reference:
    """A small table with made-up sums."""
    sums = losses(("JO", 0, 3000, 1), ("JO", 1, 5000, 2), ("XI", 0, 9000, 2), ("XI", 1, 7000, 1))
    made = rf.Reference(sums, "enable", "scrabble", 27, "leaves-digest", "words-digest", games, target)
    return replace(made, **keys)


# ---- the table: blocks, footer, keys -----------------------------------------------------------------------


def test_blocks_end_on_multiples_of_the_block_size_and_at_the_target():
    assert [rf.next_stop(done, 50_000, 20_000) for done in (0, 2_000, 20_000, 40_000, 45_000)] == [
        20_000,
        20_000,
        40_000,
        50_000,
        50_000,
    ]


def test_growing_adds_the_sums_per_word_and_half():
    grown = rf.grown(some_reference(), losses(("AX", 1, 2000, 1), ("XI", 1, 1000, 1)), 60)
    assert grown.games == 60 and grown.target == 100 and grown.partial
    assert grown.losses.rows() == [
        ("AX", 1, 2000, 1),
        ("JO", 0, 3000, 1),
        ("JO", 1, 5000, 2),
        ("XI", 0, 9000, 2),
        ("XI", 1, 8000, 2),
    ]
    assert rf.grown(grown, losses(), 100).state() == "complete: 100 of 100 games"
    assert grown.state() == "partial: 60 of 100 games"


def test_a_table_grows_only_with_its_own_keys():
    mine = some_reference()
    assert rf.mismatch(mine, some_reference(games=0, target=1_000)) is None
    assert "other leave values" in (rf.mismatch(mine, some_reference(leaves="new")) or "")
    assert "other words" in (rf.mismatch(mine, some_reference(words="new")) or "")
    assert "other seed" in (rf.mismatch(mine, some_reference(seed=1)) or "")


def test_the_footer_round_trips_with_the_stability_and_the_command(tmp_path):
    mine = some_reference()
    path = tmp_path / "ref"
    rf.write_reference(path, mine)
    back = rf.read_reference(path)
    assert back.losses.equals(mine.losses) and replace(back, losses=mine.losses) == replace(mine, stops=(40,))
    table = playability_table(mine.losses, ["JO", "XI"])
    steady = rf.stored_stability(path)  # XI ahead of JO in both halves
    assert steady == stability(mine.losses, table).as_dict() and steady["spearman"] == pytest.approx(1.0)
    meta = reference_file(path)[1]
    assert meta["partial"] == "true" and "--games 100 --reference FILE" in meta["command"]


def test_a_folder_that_is_not_a_reference_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad"
    parts.append(bad, 0, pl.DataFrame({"word": ["XI"]}), {"stage": "words"})
    with pytest.raises(WordstatsError, match="part-00000.parquet: not a playability reference table's part"):
        rf.read_reference(bad)
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "part-00000.parquet").write_text("junk")
    with pytest.raises(WordstatsError, match="junk/part-00000.parquet: no checksum beside it"):
        rf.read_reference(tmp_path / "junk")
    (tmp_path / "file.parquet").write_text("junk")
    with pytest.raises(WordstatsError, match="file.parquet: not a playability reference table"):
        rf.read_reference(tmp_path / "file.parquet")


# ---- the command on real ENABLE ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def enable_data(tmp_path_factory):
    """ENABLE as lexicon t with its GADDAG and leave values (the small config: the leaves reference's values)."""
    return build_lexicon(tmp_path_factory.mktemp("ref") / "out", ENABLE, "ingest", "leaves")


def grow(data, out, *args):
    """`scrabble playability --reference out` on lexicon t."""
    res = run_cli(
        "scrabble", "playability", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--seed", "5",
        "--reference", out, "--quiet", *args,
    )  # fmt: skip
    assert res.exit_code == 0, res
    return res.stdout


def folder_bytes(path):
    """Each part's (and sidecar's) name and bytes."""
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def part_count(path) -> int:
    """The parts in a folder."""
    return len(parts.part_files(path))


@pytest.mark.slow
def test_grown_block_by_block_is_played_at_once_and_is_the_jobs_sums(enable_data, lexicon, tmp_path):
    """Two blocks then one give the bytes of the same three blocks at once (and add a part, rewriting none), the
    sums of blocks of another size, and the sums of the playability job over the same games (any shard size)."""
    pieces, once, other = (tmp_path / name for name in ("pieces", "once", "other"))
    first = grow(enable_data, pieces, "--games", "6", "--block", "2", "--blocks", "2", "--shard-size", "1")
    assert "games 1 to 4 (partial: 4 of 6 games)" in first and "began" not in first
    assert rf.read_reference(pieces).partial
    kept = folder_bytes(pieces)
    assert "games 1 to 6 (complete: 6 of 6 games); 2 played now" in grow(
        enable_data, pieces, "--games", "6", "--block", "2", "--blocks", "1", "--shard-size", "1"
    )
    assert {k: v for k, v in folder_bytes(pieces).items() if k in kept} == kept and part_count(pieces) == 3
    grow(enable_data, once, "--games", "6", "--block", "2", "--shard-size", "2")
    grow(enable_data, other, "--games", "6", "--block", "5", "--shard-size", "3")
    assert folder_bytes(pieces) == folder_bytes(once)
    assert part_count(other) == 2 and reference_file(other)[1] == reference_file(pieces)[1]
    made = rf.read_reference(pieces)
    assert made.losses.equals(rf.read_reference(other).losses) and made.stops == (2, 4, 6)
    assert not made.partial and made.games == 6 and made.seed == 5
    config = load_config(SMALL_CONFIG)
    scrabble = variants(config)["scrabble"]
    leaves = LeaveValues(pl.read_parquet(enable_data / "t" / "leaves.parquet").select("leave", "value"))
    assert made.leaves == leaves.digest() and made.words == words_digest(sorted(lexicon.words))
    job = executor.run(playability_job(scrabble, lexicon, leaves, 5, 6, 4), None, "t").tables["losses"]
    assert made.losses.equals(job) and made.losses.height > 20
    block = executor.run(playability_job(scrabble, lexicon, leaves, 5, 2, 1, before=4), None, "t").tables["losses"]
    assert pl.read_parquet(pieces / "part-00002.parquet").equals(block)  # a part holds its block's own sums


@pytest.mark.slow
def test_a_table_of_other_leave_values_is_refused_and_force_plays_it_again(enable_data, tmp_path):
    fresh, stale = tmp_path / "fresh", tmp_path / "stale"
    grow(enable_data, fresh, "--games", "2", "--block", "2")
    rf.write_reference(stale, replace(rf.read_reference(fresh), leaves="0" * 64, losses=losses(("ZA", 1, 1, 1))))
    kept = folder_bytes(stale)
    res = run_cli(
        "scrabble", "playability", "--lexicon", "t", "--data-dir", enable_data, "--config", SMALL_CONFIG, "--seed",
        "5", "--reference", stale, "--games", "2", "--block", "2",
    )  # fmt: skip
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "stale/part-00000.parquet: it was played with other leave values" in res.stderr
    assert folder_bytes(stale) == kept
    said = grow(enable_data, stale, "--games", "2", "--block", "2", "--force")
    assert "began" in said and "again from game 1: --force" in said
    assert folder_bytes(stale) == folder_bytes(fresh)
    assert "0 played now" in grow(enable_data, fresh, "--games", "2")  # nothing left to play: the parts as they were
    assert folder_bytes(stale) == folder_bytes(fresh)
    res = run_cli(
        "scrabble", "playability", "--lexicon", "t", "--data-dir", enable_data, "--config", SMALL_CONFIG, "--seed",
        "5", "--reference", fresh, "--games", "1",
    )  # fmt: skip
    assert res.exit_code == 2 and "holds 2 games, more than --games 1" in res.stderr and "Traceback" not in res.stderr
    assert folder_bytes(stale) == folder_bytes(fresh)


def test_reference_options_are_checked(tmp_path):
    res = run_cli("scrabble", "playability", "--blocks", "2", "--data-dir", tmp_path, "--config", SMALL_CONFIG)
    assert res.exit_code == 2 and "--blocks, --block and --verify go with --reference DIR" in res.stderr
    res = run_cli(
        "scrabble", "playability", "--reference", tmp_path / "r", "--out", tmp_path / "o.parquet",
        "--data-dir", tmp_path, "--config", SMALL_CONFIG,
    )  # fmt: skip
    assert res.exit_code == 2 and "--out and --reference" in res.stderr and "Traceback" not in res.stderr


# ---- the stage, the words table and sql read it ------------------------------------------------------------


@pytest.mark.slow
def test_the_stage_and_the_words_table_take_the_reference(enable_data, tmp_path):
    """With [playability] reference, ENABLE's playability.parquet and the words table's columns are the
    reference's; a lexicon of other words gets null columns and plays its own sample; sql sees both."""
    table_path = tmp_path / "ref"
    grow(enable_data, table_path, "--games", "4", "--block", "2", "--blocks", "1")
    config = config_with(tmp_path, 'reference = ""     #', f'reference = "{table_path}"  #')
    data = build_lexicon(tmp_path / "out", ENABLE, "ingest", "playability", config=config)
    ref = rf.read_reference(table_path)
    table = pl.read_parquet(data / "t" / "playability.parquet")
    assert table.equals(playability_table(ref.losses, ENABLE.read_text().upper().split()))
    summary = json.loads((data / "t" / "playability_summary.json").read_text())
    assert summary["source"] == "reference" and summary["partial"] and (summary["games"], summary["target"]) == (2, 4)
    words = pl.read_parquet(data / "t" / "words.parquet", columns=["word", "playability", "playability_rank"])
    assert words.equals(table.select("word", "playability", pl.col("rank").alias("playability_rank")))
    res = run_cli(
        "sql", "SELECT count(*) AS n FROM words JOIN playability USING (word) WHERE words.playability = "
        "playability.playability AND playability_rank = rank AND words.playability > 0", "--lexicon", "t",
        "--data-dir", data, "--config", config, "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res
    assert json.loads(res.stdout) == [{"n": int((table["playability"] > 0).sum())}] and (table["playability"] > 0).any()
    other = build_lexicon(
        tmp_path / "other", ["JO", "XI", "ZA", "QI", "AX", "OX"], "ingest", "playability", config=config
    )
    assert pl.read_parquet(other / "t" / "words.parquet")["playability"].is_null().all()
    summary = json.loads((other / "t" / "playability_summary.json").read_text())
    assert summary["source"] == "sample" and summary["games"] == 4


# ---- the committed table -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_committed_reference_was_played_with_the_leave_values_make_all_fits(tmp_path):
    """data/raw/playability-enable/: ENABLE's words, the leave values the leaves stage fits from the leaves
    reference (when these change, `make playability-reference` plays it again from game 1), its stability. The
    stage runs as `make all` runs it, in a process of its own: the kernels compiled ahead of time there and the
    numba kernels of this process fit values that differ in their last bits."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "pipeline", "run", "leaves", "--lexicon", "enable"]
    config = ["--data-dir", tmp_path, "--config", ROOT / "configs" / "default.toml", "--quiet"]
    done = subprocess.run([str(a) for a in command + config], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    ref = rf.read_reference(REFERENCE)
    assert ref.leaves == LeaveValues.stored(tmp_path / "enable" / "leaves.parquet").digest()
    assert rf.covers(ref, ENABLE.read_text().upper().split()) and ref.seed == 27 and ref.target == rf.REFERENCE_TARGET
    assert ref.games > 0 and (ref.games % REFERENCE_BLOCK == 0 or ref.games < REFERENCE_BLOCK)
    table = playability_table(ref.losses, ref.losses["word"].unique().to_list())
    assert rf.stored_stability(REFERENCE) == stability(ref.losses, table).as_dict()

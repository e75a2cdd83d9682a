"""Parted tables (pipeline/core/parts.py): a folder of parts reads as one table with polars and DuckDB, in part
order; a part is created once (a second writer of other bytes fails naming the file and changes nothing, the same
bytes are left as they are); a missing, extra or damaged part is a one-line error naming the file; and a Boggle
proof table and a playability reference grown block by block hold the rows of one grown at once, the same blocks
the same bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core import parts
from pipeline.core.errors import WordstatsError
from tests.conftest import ENABLE, SMALL_CONFIG, build_lexicon, run_cli

SCHEMA = {"id": pl.Int64, "word": pl.String, "scores": pl.List(pl.Int32)}
ROWS = st.lists(
    st.tuples(st.integers(-(2**62), 2**62), st.text("ABCQ", max_size=6), st.lists(st.integers(0, 3000), max_size=3)),
    max_size=40,
)


def frame(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def write_blocks(folder: Path, blocks: list[pl.DataFrame]) -> None:
    for index, block in enumerate(blocks):
        assert parts.append(folder, index, block, {"stage": "test", "params": {"rows": block.height}})


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ROWS, min_size=1, max_size=5))
def test_parts_read_as_one_table_in_part_order_by_polars_and_duckdb(tmp_path_factory, blocks):
    folder = tmp_path_factory.mktemp("parts") / "table"
    frames = [frame(rows) for rows in blocks]
    write_blocks(folder, frames)
    whole = pl.concat(frames)
    assert parts.read(folder).equals(whole)
    assert parts.scan(folder).collect().equals(whole)
    from_duckdb = duckdb.sql(f"SELECT * FROM {parts.duckdb_source(folder)}").pl()
    assert from_duckdb.cast(SCHEMA).equals(whole)  # type: ignore[arg-type]
    again = folder.parent / "again"
    write_blocks(again, frames)
    assert files(again) == files(folder)  # the same blocks, the same bytes


def test_a_second_writer_cannot_replace_a_part(tmp_path):
    folder = tmp_path / "table"
    write_blocks(folder, [frame([(1, "A", [1])]), frame([(2, "B", [])])])
    kept = files(folder)
    assert not parts.append(folder, 1, frame([(2, "B", [])]), {"stage": "test", "params": {"rows": 1}})  # same
    with pytest.raises(WordstatsError, match=r"part-00001\.parquet: exists with other bytes") as err:
        parts.append(folder, 1, frame([(3, "C", [])]), {"stage": "test", "params": {"rows": 1}})
    assert len(str(err.value).splitlines()) == 1 and err.value.exit_code == 2
    with pytest.raises(WordstatsError, match=r"part-00003\.parquet: missing"):
        parts.append(folder, 4, frame([]), {"stage": "test"})
    assert files(folder) == kept  # nothing changed, no temporary file left


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda f: (f / "part-00001.parquet").unlink(), r"part-00001\.parquet: missing"),
        (lambda f: (f / "part-00001.parquet").write_bytes(b"PAR1 junk"), r"part-00001\.parquet: damaged"),
        (lambda f: flip_a_byte(f / "part-00001.parquet"), r"part-00001\.parquet: damaged"),
        (lambda f: (f / "part-00002.sha256.json").unlink(), r"part-00002\.parquet: no checksum beside it"),
        (lambda f: (f / "part-00000.sha256.json").write_text("{"), r"part-00000\.sha256\.json: not a part's checksum"),
        (lambda f: (f / "notes.txt").write_text("x"), r"notes\.txt: not a part of the table"),
        (lambda f: (f / "part-00007.cpu.json").write_text("{}"), r"part-00007\.cpu\.json: a sidecar without its"),
    ],
)
def test_a_missing_or_damaged_part_is_a_one_line_error_naming_it(tmp_path, damage, message):
    folder = tmp_path / "table"
    write_blocks(folder, [frame([(i, "A", [])]) for i in range(3)])
    damage(folder)
    for read in (parts.read, parts.scan, parts.digest):
        with pytest.raises(WordstatsError, match=message) as err:
            read(folder)
        assert len(str(err.value).splitlines()) == 1


def flip_a_byte(part: Path) -> None:
    """Change one byte in the middle of a part (what a bad disk does): often still a readable Parquet file."""
    data = bytearray(part.read_bytes())
    data[len(data) // 3] ^= 0x01
    part.write_bytes(bytes(data))


def test_sidecars_of_a_block_being_written_are_passed_over_and_replaced(tmp_path):
    """A block's sidecars go first, then its part: a run killed between them leaves sidecars past the last part,
    which readers pass over and the next writer of that block (of any size) replaces."""
    folder = tmp_path / "table"
    write_blocks(folder, [frame([(1, "A", [])])])
    (folder / "part-00001.sha256.json").write_text('{"bytes": 1, "sha256": "00"}\n')
    (folder / "part-00001.cpu.json").write_text("{}")
    assert parts.read(folder).height == 1
    assert parts.append(folder, 1, frame([(2, "B", [])]), {"stage": "test"}, {".cpu.json": b'{"s": 1}'})
    assert parts.read(folder)["id"].to_list() == [1, 2]
    assert (folder / "part-00001.cpu.json").read_bytes() == b'{"s": 1}'


def test_record_checksums_adds_only_the_missing_ones(tmp_path):
    folder = tmp_path / "table"
    write_blocks(folder, [frame([(i, "A", [])]) for i in range(2)])
    kept = (folder / "part-00000.sha256.json").read_bytes()
    (folder / "part-00001.sha256.json").unlink()
    assert parts.record_checksums(folder) == 1 and parts.read(folder).height == 2
    assert (folder / "part-00000.sha256.json").read_bytes() == kept


def test_a_file_is_not_a_parted_table(tmp_path):
    (tmp_path / "t.parquet").write_bytes(b"")
    with pytest.raises(WordstatsError, match=r"t\.parquet: not a folder of parts"):
        parts.read(tmp_path / "t.parquet")
    with pytest.raises(WordstatsError, match="no parts"):
        parts.read(tmp_path / "none")


# ---- a tiny Boggle proof table ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def problem():
    """2x2 boards over AERST with a few words: 6 canonical classes, proved in a moment."""
    from pipeline.boggle.classes import parse_partition
    from pipeline.boggle.dictionary import compile_dictionary
    from pipeline.boggle.prove import Problem
    from pipeline.boggle.rules import Rules

    words = ["ARE", "EAR", "ERA", "RATE", "SEAT", "EAST", "EATS", "TEAS", "STAR", "RATS", "TEA", "SEA", "ATE"]
    dictionary = compile_dictionary(words, Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11)))
    return Problem(2, 2, dictionary, parse_partition("AE RST"), 1)


def proved(problem, folder: Path, blocks: list[int | None], block_size: list[int]) -> None:
    from pipeline.boggle import proof_table as pt
    from pipeline.core import executor

    def run_block(job):
        result = executor.run(job, None, "t")
        return result.tables, result.computed

    for n, size in zip(blocks, block_size):
        pt.grow(problem, folder, pt.empty(problem, "t"), run_block, n, size)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3))
def test_a_proof_table_grown_block_by_block_is_grown_at_once(problem, tmp_path_factory, sizes):
    from pipeline.boggle import proof_table as pt

    root = tmp_path_factory.mktemp("proof")
    proved(problem, root / "once", [None], [1000])
    proved(problem, root / "pieces", [1] * len(sizes) + [None], [*sizes, 1])
    proved(problem, root / "again", [1] * len(sizes) + [None], [*sizes, 1])
    once, pieces = pt.read_table(root / "once"), pt.read_table(root / "pieces")
    assert once.rows.equals(pieces.rows) and once.done == once.total == 6 and pieces.stops[-1] == 6
    assert parts.footers(parts.part_files(root / "once"))[-1] == parts.footers(parts.part_files(root / "pieces"))[-1]
    tables = {
        name: {k: v for k, v in files(root / name).items() if k.endswith(".parquet")} for name in ("pieces", "again")
    }
    assert tables["pieces"] == tables["again"]
    assert len(tables["pieces"]) == len(pieces.stops) and [b["stop"] for b in pt.read_cpu(root / "pieces")] == list(
        pieces.stops
    )
    duck = duckdb.sql(f"SELECT class FROM {parts.duckdb_source(root / 'pieces')}").pl()["class"]
    assert duck.to_list() == once.rows["class"].to_list()


def test_a_proof_table_part_of_another_problem_is_named(problem, tmp_path):
    from dataclasses import replace

    from pipeline.boggle import proof_table as pt

    proved(problem, tmp_path / "t", [2], [2])
    table = pt.read_table(tmp_path / "t")
    pt.write_part(tmp_path / "t", replace(pt.grown(table, table.rows.head(1)), floor=7))
    with pytest.raises(WordstatsError, match=r"part-00002\.parquet: not a part of the table .* another floor"):
        pt.read_table(tmp_path / "t")


def test_a_run_that_finds_the_table_grown_meanwhile_goes_on_from_it(problem, tmp_path, capsys):
    """Two runs read the same table; the other one adds the next part first (of another block size). This run
    reads the table again before it adds its block, drops the block, and goes on from the table it finds: the
    other run's part is kept and no class is proved twice or left out."""
    from pipeline.boggle import proof_table as pt
    from pipeline.core import executor

    proved(problem, tmp_path / "t", [1], [2])
    proved(problem, tmp_path / "other", [1, 1], [2, 1])  # its second part: the third class alone
    proved(problem, tmp_path / "once", [None], [1000])
    theirs = {p.name: p.read_bytes() for p in (tmp_path / "other").glob("part-00001.*")}

    def run_block(job):
        if not (tmp_path / "t" / "part-00001.parquet").exists():  # the other run finishes first
            for name in sorted(theirs, key=lambda n: n.endswith(".parquet")):  # sidecars, then the part
                (tmp_path / "t" / name).write_bytes(theirs[name])
        result = executor.run(job, None, "t")
        return result.tables, result.computed

    grown = pt.grow(problem, tmp_path / "t", pt.empty(problem, "t"), run_block, 1, 4)
    assert "another run changed the table meanwhile (2 -> 3 classes)" in capsys.readouterr().err
    assert {n: (tmp_path / "t" / n).read_bytes() for n in theirs} == theirs  # theirs is kept
    table = pt.read_table(tmp_path / "t")
    assert table.stops == (2, 3, 4) and grown.table.done == 4 and len(grown.blocks) == 1
    assert table.rows.equals(pt.read_table(tmp_path / "once").rows.head(4))


# ---- a tiny playability run ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, message", [({"seed": 1}, "another run's keys"), ({"games": 4}, "does not hold games after")]
)
def test_a_playability_part_of_another_run_is_named(tmp_path, change, message):
    from dataclasses import replace

    from pipeline.scrabble.playability import reference as rf
    from pipeline.scrabble.playability.job import LOSSES_SCHEMA
    from pipeline.words.playability import reference_file

    block = pl.DataFrame([("XI", 0, 3000, 1)], schema=LOSSES_SCHEMA, orient="row")
    first = rf.grown(rf.Reference(block.clear(), "t", "scrabble", 27, "l", "w", 0, 10), block, 4)
    rf.write_part(tmp_path / "t", first, block)
    rf.write_part(tmp_path / "t", replace(rf.grown(first, block, 8), **change), block)
    for read in (reference_file, rf.read_reference):
        with pytest.raises(WordstatsError, match=r"t/part-00001\.parquet: .*" + message):
            read(tmp_path / "t")


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory):
    """ENABLE's words of two and three letters as lexicon t, with its GADDAG and leave values."""
    words = [w for w in ENABLE.read_text().upper().split() if len(w) <= 3]
    return build_lexicon(tmp_path_factory.mktemp("play") / "out", words, "ingest", "leaves")


def play(data: Path, folder: Path, *args: str) -> None:
    res = run_cli(
        "scrabble", "playability", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--seed", "3",
        "--games", "6", "--reference", folder, "--quiet", *args,
    )  # fmt: skip
    assert res.exit_code == 0, res


@pytest.mark.slow
def test_a_playability_table_grown_block_by_block_is_played_at_once(small_lexicon, tmp_path):
    from pipeline.scrabble.playability import reference as rf

    play(small_lexicon, tmp_path / "pieces", "--block", "2", "--blocks", "1")
    play(small_lexicon, tmp_path / "pieces", "--block", "2")
    play(small_lexicon, tmp_path / "once", "--block", "2", "--shard-size", "3")
    play(small_lexicon, tmp_path / "whole", "--block", "6")
    assert files(tmp_path / "pieces") == files(tmp_path / "once") and len(parts.part_files(tmp_path / "once")) == 3
    pieces, whole = rf.read_reference(tmp_path / "pieces"), rf.read_reference(tmp_path / "whole")
    assert pieces.losses.equals(whole.losses) and pieces.stops == (2, 4, 6) and whole.stops == (6,)
    footers = [parts.footers(parts.part_files(tmp_path / n))[-1] for n in ("pieces", "whole")]
    assert footers[0] == footers[1] and json.loads(footers[0]["params"]["games"] and "6") == 6


@pytest.mark.slow
def test_a_reference_table_is_never_grown_in_a_data_lexicon_or_system_folder(small_lexicon, tmp_path):
    """--reference goes through the output guard: not inside the data folder or a lexicon's folder, not under
    /dev, not a file or a named pipe (refused without being read); nothing is written there."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    common = ("--lexicon", "t", "--data-dir", small_lexicon, "--config", SMALL_CONFIG, "--games", "2")
    for place, says in (
        (small_lexicon / "t" / "ref", "inside the data folder"),
        (Path("/dev/shm/wordstats-ref-test"), "inside /dev"),
        (pipe, "folder of parts"),
        (small_lexicon / "t" / "words.parquet", "folder of parts"),
    ):
        for command in (("scrabble", "playability"), ("boggle", "prove", "--size", "2x2", "--floor", "10")):
            res = run_cli(
                *command, "--reference", place, *common[:6], *(common[6:] if command[0] == "scrabble" else ())
            )
            assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1, (
                command,
                place,
                res,
            )
    assert not (small_lexicon / "t" / "ref").exists() and not Path("/dev/shm/wordstats-ref-test").exists()


def test_a_damaged_cpu_sidecar_is_named_not_passed_over_silently(problem, tmp_path, capsys):
    from pipeline.boggle import proof_table as pt

    proved(problem, tmp_path / "t", [2], [2])
    (tmp_path / "t" / "part-00000.cpu.json").write_text("{not json")
    assert [b["start"] for b in pt.read_cpu(tmp_path / "t")] == [2]
    assert "part-00000.cpu.json: not a block's CPU seconds" in capsys.readouterr().err

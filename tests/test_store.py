"""The store never loses a file: a stage commits all its outputs or none, one writer per lexicon, interrupted
commits are finished, leftovers removed, full disks and read-only folders are one-line errors, and the manifest
can be rebuilt from the tables' footers."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from pipeline.core import commits
from pipeline.core.errors import WordstatsError
from pipeline.core.files import read_provenance
from pipeline.core.layout import JOURNAL, MANIFEST
from pipeline.core.locks import release_read_locks
from pipeline.core.store import Store
from tests.conftest import ROOT, SMALL_CONFIG
from tests.support.store import (
    KILL_BETWEEN_RENAMES,
    WORDS_A,
    WORDS_B,
    assert_consistent,
    assert_manifest_matches,
    built_twice,
    digest,
    snapshot,
    tmpfs,
    write_words,
)

WORDSTATS = [sys.executable, "-m", "pipeline"]


def temporaries(folder: Path) -> list[Path]:
    """Leftover temporary files and commit journals in a folder."""
    return sorted(folder.glob(".*.tmp")) + sorted(folder.glob(JOURNAL))


def wordstats(*args, **kwargs) -> subprocess.CompletedProcess:
    """Run the real `wordstats` command in a new process."""
    env = {**os.environ, "WORDSTATS_QUIET": "1", "NUMBA_NUM_THREADS": "1"}
    return subprocess.run(
        [*WORDSTATS, *map(str, args)], capture_output=True, text=True, env=env, cwd=ROOT, check=False, **kwargs
    )


# -- a stage's outputs go in together -----------------------------------------------------------


def test_a_failure_while_writing_leaves_the_previous_set(tmp_path, monkeypatch):
    store = Store(tmp_path, "lex")
    store.write({"a.parquet": pl.DataFrame({"w": ["A"]}), "b.json": {"k": 1}}, {"stage": "demo"})
    before = snapshot(store.root)
    real = commits._write_output

    def fail_on_json(path, name, obj, provenance, tables):
        if name.endswith(".json"):
            raise OSError(28, "No space left on device")
        return real(path, name, obj, provenance, tables)

    monkeypatch.setattr(commits, "_write_output", fail_on_json)
    with pytest.raises(WordstatsError, match=r"b.json: cannot write \(No space left on device\)"):
        store.write({"a.parquet": pl.DataFrame({"w": ["B"]}), "b.json": {"k": 2}}, {"stage": "demo"})
    assert snapshot(store.root) == before
    assert temporaries(store.root) == []
    assert_consistent(store.root)


def test_an_interrupted_commit_is_finished_by_the_next_writer(tmp_path, monkeypatch):
    store = Store(tmp_path, "lex")
    store.write({"a.parquet": pl.DataFrame({"w": ["A"]}), "b.json": {"k": 1}}, {"stage": "demo"})
    real, calls = os.replace, []

    def die_after_first(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as if killed between two renames
        real(src, dst)

    monkeypatch.setattr(commits.os, "replace", die_after_first)
    with pytest.raises(KeyboardInterrupt):
        store.write({"a.parquet": pl.DataFrame({"w": ["B"]}), "b.json": {"k": 2}}, {"stage": "demo"})
    monkeypatch.setattr(commits.os, "replace", real)
    assert (store.root / JOURNAL).exists()  # half done: a.parquet new, b.json old
    with store.writer():
        pass
    assert store.read("a")["w"].to_list() == ["B"] and store.read_json("b.json") == {"k": 2}
    assert temporaries(store.root) == []
    assert_consistent(store.root)


def test_leftover_temporary_files_are_removed_by_the_next_run(tmp_path):
    store = Store(tmp_path, "lex")
    store.write({"a.parquet": pl.DataFrame({"w": ["A"]})}, {"stage": "demo"})
    (store.root / ".a.parquet.x1y2.tmp").write_bytes(b"half a file")
    store.write({"a.parquet": pl.DataFrame({"w": ["B"]})}, {"stage": "demo"})
    assert temporaries(store.root) == []


def test_a_deleted_or_stale_manifest_is_rebuilt_by_info(cli, build, tmp_path):
    data = build(WORDS_A, "ingest", "indexes")
    root = data / "t"
    manifest = json.loads((root / MANIFEST).read_text())
    (root / MANIFEST).unlink()
    res = cli("info", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--json")
    assert res.exit_code == 0, res
    shown = {row["file"]: row for row in json.loads(res.stdout)}
    assert (
        set(shown)
        == set(manifest["tables"])
        == {
            "words.parquet",
            "ingest_report.json",
            "anagrams.parquet",
            "prefixes.parquet",
            "hooks.parquet",
        }
    )
    assert shown["words.parquet"]["rows"] == len(WORDS_A) and shown["anagrams.parquet"]["stage"] == "indexes"
    rebuilt = json.loads((root / MANIFEST).read_text())
    for name, entry in manifest["tables"].items():
        assert {k: rebuilt["tables"][name][k] for k in ("rows", "bytes", "sha256", "stage")} == {
            k: entry[k] for k in ("rows", "bytes", "sha256", "stage")
        }
    # stale: a table missing from the manifest is found again
    del rebuilt["tables"]["hooks.parquet"]
    (root / MANIFEST).write_text(json.dumps(rebuilt))
    res = cli("info", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--json")
    assert "hooks.parquet" in {row["file"] for row in json.loads(res.stdout)}
    assert_consistent(root)


# -- one writer per lexicon ------------------------------------------------------------------------


def test_a_second_writer_waits_or_refuses(tmp_path):
    store = Store(tmp_path, "lex")
    holding, release = threading.Event(), threading.Event()

    def hold():
        with Store(tmp_path, "lex").writer():
            holding.set()
            release.wait(5)

    thread = threading.Thread(target=hold)
    thread.start()
    holding.wait(5)
    with pytest.raises(WordstatsError, match="another wordstats run is building lexicon 'lex'"):
        with store.writer(wait=False):
            pass
    started = time.monotonic()
    threading.Timer(0.5, release.set).start()
    with store.writer():
        waited = time.monotonic() - started
    thread.join()
    assert waited >= 0.4


def test_a_reader_never_sees_a_half_replaced_stage(tmp_path):
    store = Store(tmp_path, "lex")
    store.write({"a.parquet": pl.DataFrame({"w": ["A"]}), "b.json": {"k": 1}}, {"stage": "demo"})
    Store(tmp_path, "lex").read_lock()  # a query command reading the tables
    done = threading.Event()

    def commit():
        store.write({"a.parquet": pl.DataFrame({"w": ["B"]}), "b.json": {"k": 2}}, {"stage": "demo"})
        done.set()

    writer = threading.Thread(target=commit)
    writer.start()
    time.sleep(0.5)
    assert not done.is_set()  # the renames wait for the reader
    assert store.read("a")["w"].to_list() == ["A"] and store.read_json("b.json") == {"k": 1}
    release_read_locks()  # the command ends
    writer.join(5)
    assert done.is_set()
    assert store.read("a")["w"].to_list() == ["B"] and store.read_json("b.json") == {"k": 2}


def test_source_onto_a_config_lexicon_is_refused_without_force(cli, tmp_path):
    path = write_words(tmp_path / "class.txt", WORDS_A)
    data = tmp_path / "out"
    res = cli("run", "ingest", "--source", path, "--lexicon", "moby", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "lexicon 'moby' is declared in" in res.stderr and "--force" in res.stderr
    assert not (data / "moby" / "words.parquet").exists()
    res = cli(
        "run", "ingest", "--source", path, "--lexicon", "moby", "--data-dir", data, "--config", SMALL_CONFIG, "--force"
    )
    assert res.exit_code == 0, res
    assert pl.read_parquet(data / "moby" / "words.parquet").height == len(WORDS_A)


def test_source_onto_an_ad_hoc_lexicon_from_another_file_is_refused_without_force(cli, tmp_path):
    a, b = write_words(tmp_path / "a.txt", WORDS_A), write_words(tmp_path / "b.txt", WORDS_B)
    data = tmp_path / "out"

    def ingest(path: Path, *extra: str):
        return cli("run", "ingest", "--source", path, "-l", "mix", "--data-dir", data, "--config", SMALL_CONFIG, *extra)

    assert ingest(a).exit_code == 0
    before = snapshot(data / "mix")
    res = ingest(b)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert f"was built from {a.resolve()}, not {b.resolve()}" in res.stderr
    assert snapshot(data / "mix") == before
    write_words(a, WORDS_A + ["zebra"])  # the same file, edited: rebuilt without --force
    assert ingest(a).exit_code == 0
    assert "ZEBRA" in pl.read_parquet(data / "mix" / "words.parquet")["word"].to_list()
    assert ingest(b, "--force").exit_code == 0
    assert set(pl.read_parquet(data / "mix" / "words.parquet")["word"]) == {w.upper() for w in WORDS_B}


def run_concurrently(tmp_path: Path, delay: float, *extra: str) -> list[subprocess.CompletedProcess]:
    """Start two runs of lexicon `mix` with different sources, `delay` seconds apart; their results."""
    data = tmp_path / "out"
    a, b = write_words(tmp_path / "a.txt", WORDS_A), write_words(tmp_path / "b.txt", WORDS_B)
    env = {**os.environ, "WORDSTATS_QUIET": "1", "NUMBA_NUM_THREADS": "1"}
    procs = []
    for source in (a, b):
        args = ["run", "ingest", "indexes", "--source", source, "-l", "mix", "--data-dir", data]
        cmd = [*WORDSTATS, *map(str, args), "--config", str(SMALL_CONFIG), *extra]
        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        procs.append(subprocess.Popen(cmd, **pipes, text=True, env=env, cwd=ROOT))
        time.sleep(delay)
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        results.append(subprocess.CompletedProcess(p.args, p.returncode, out, err))
    return results


@pytest.mark.slow
def test_concurrent_runs_never_mix_sources(tmp_path):
    results = run_concurrently(tmp_path, random.Random().uniform(0.0, 3.0))
    codes = sorted(r.returncode for r in results)
    assert codes == [0, 2], [r.stderr for r in results]  # the second waits, then is refused: another file
    refused = next(r for r in results if r.returncode == 2)
    assert refused.stderr.count("\n") == 1 and "was built from" in refused.stderr
    root = tmp_path / "out" / "mix"
    assert_consistent(root)
    label = next(iter(read_provenance(root / "words.parquet")["inputs"]))
    assert digest(tmp_path / label) == read_provenance(root / "words.parquet")["inputs"][label]
    assert {p.name for p in root.glob("*.parquet")} == {
        "words.parquet",
        "anagrams.parquet",
        "prefixes.parquet",
        "hooks.parquet",
    }


@pytest.mark.slow
def test_concurrent_forced_runs_leave_one_source_whole(tmp_path):
    results = run_concurrently(tmp_path, random.Random(5).uniform(0.0, 3.0), "--force")
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    assert_consistent(tmp_path / "out" / "mix")


# -- faults: SIGKILL, read-only folder, full disk ---------------------------------------------------


def indexes_are_one_set(root: Path) -> None:
    """anagrams, prefixes and hooks all come from one words table, and the manifest agrees with the files."""
    inputs = {json.dumps(read_provenance(root / f"{t}.parquet")["inputs"]) for t in ("anagrams", "prefixes", "hooks")}
    assert len(inputs) == 1, inputs


@pytest.mark.slow
def test_sigkill_between_renames_is_finished_by_the_next_reader_or_writer(cli, tmp_path):
    data, root, args = built_twice(cli, tmp_path)
    killed = subprocess.run([sys.executable, "-c", KILL_BETWEEN_RENAMES, *args], cwd=ROOT, capture_output=True)
    assert killed.returncode == -signal.SIGKILL
    assert (root / JOURNAL).exists()
    res = wordstats("info", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)  # a reader finishes it
    assert res.returncode == 0, res.stderr
    assert not (root / JOURNAL).exists()
    indexes_are_one_set(root)
    assert_consistent(root)  # the commit was finished: indexes from the new words


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_old_or_new_outputs_whole(cli, tmp_path):
    data, root, args = built_twice(cli, tmp_path)
    started = time.monotonic()
    assert wordstats(*args).returncode == 0
    duration = time.monotonic() - started
    rng = random.Random(20251201)
    for i in range(3):
        source = tmp_path / ("a.txt" if i % 2 == 0 else "b.txt")
        assert cli("run", "ingest", "--source", source, "--force", *args[2:]).exit_code == 0
        proc = subprocess.Popen([*WORDSTATS, *args], cwd=ROOT, env={**os.environ, "WORDSTATS_QUIET": "1"})
        time.sleep(rng.uniform(0.3, 1.1) * duration)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with Store(data, "t").writer():  # what the next run does first
            pass
        assert temporaries(root) == []
        indexes_are_one_set(root)  # old or new, never both
        assert_manifest_matches(root)
    assert wordstats(*args).returncode == 0
    indexes_are_one_set(root)
    assert_consistent(root)


def test_read_only_folder_is_a_one_line_error_and_changes_nothing(cli, tmp_path):
    path = write_words(tmp_path / "a.txt", WORDS_A)
    with tmpfs(tmp_path / "disk", "8m") as disk:
        data = disk / "out"
        base = ["--source", path, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
        assert cli("run", "ingest", "indexes", *base).exit_code == 0
        before = snapshot(data / "t")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        res = cli("run", "ingest", "indexes", *base)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
        assert "Read-only file system" in res.stderr
        assert snapshot(data / "t") == before
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        assert cli("run", "ingest", "indexes", *base).exit_code == 0
        assert_consistent(data / "t")


def test_full_disk_is_a_one_line_error_and_changes_nothing(cli, tmp_path):
    path = write_words(tmp_path / "a.txt", WORDS_A)
    with tmpfs(tmp_path / "disk", "4m") as disk:
        data = disk / "out"
        base = ["--source", path, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
        assert cli("run", "ingest", "indexes", *base).exit_code == 0
        before = snapshot(data / "t")
        filler = disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
        os.close(fd)
        for stages in (["indexes"], ["ingest", "indexes"]):  # Parquet (a polars ComputeError) and JSON outputs
            res = cli("run", *stages, *base)
            assert res.exit_code == 2, res
            assert res.stderr.count("\n") == 1 and "No space left on device" in res.stderr, res.stderr
            assert snapshot(data / "t") == before
            assert temporaries(data / "t") == []
        filler.unlink()
        res = cli("run", "ingest", "indexes", *base)
        assert res.exit_code == 0, res
        assert_consistent(data / "t")


# -- what a store is handed ----------------------------------------------------------------------


class OneTable:
    """A catalog that declares one table, `toy`, with one column `n` of i32, written by no stage."""

    @staticmethod
    def mismatch(table, schema):
        if table != "toy":
            return None
        found = schema.get("n")
        return None if found == pl.Int32 else ("n", "Int32", None if found is None else str(found))

    @staticmethod
    def conform(table, df):
        return df.with_columns(pl.col("n").cast(pl.Int32)) if table == "toy" else df

    @staticmethod
    def footer(table, df):
        return {"columns": {"n": "a number"}} if table == "toy" else {}

    @staticmethod
    def row_group_rows(table):
        return None

    @staticmethod
    def producer(file):
        return None


def test_a_store_checks_tables_against_the_catalog_it_is_handed(tmp_path):
    """A Store reads and writes by the declarations it was made with, not the packages' (none declares `toy`)."""
    store = Store(tmp_path, "lex", OneTable())
    store.write({"toy.parquet": pl.DataFrame({"n": [1, 2]})}, {"stage": "toy"})  # conformed to Int32 on write
    assert store.read("toy")["n"].dtype == pl.Int32
    assert read_provenance(store.path("toy"))["columns"] == {"n": "a number"}
    pl.DataFrame({"n": ["x"]}).write_parquet(store.path("toy"))
    with pytest.raises(WordstatsError, match=r"toy.parquet: damaged table: column 'n' is String, not Int32"):
        store.read("toy")
    assert "wordstats run --lexicon lex" in str(pytest.raises(WordstatsError, store.read, "toy").value)
    assert Store(tmp_path, "lex").tables is not store.tables  # the packages' declarations unless handed others

"""Unbounded sources and bounded work: FIFOs and /dev/zero refused within seconds, binary lists, huge words,
package sources and pickles checked, a search bounded by its deadline, memory estimated before any work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import ROOT, SMALL_CONFIG, run_cli
from tests.support.vocabulary import data_fixture  # noqa: F401  (the data fixture)

# ---- unbounded sources --------------------------------------------------------------------------------


def _wordstats(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The installed console script, in a subprocess (a hang would block the test process itself)."""
    exe = Path(sys.executable).with_name("wordstats")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_fifo_and_dev_zero_are_refused_within_seconds(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for source in (fifo, Path("/dev/zero")):
        started = time.perf_counter()
        res = _wordstats("run", "ingest", "--source", str(source), "-l", "x", "--data-dir", str(tmp_path / "o"), "-q")
        assert res.returncode == 2 and "not a regular file" in res.stderr, res
        assert time.perf_counter() - started < 30
    res = _wordstats("info", "--config", str(fifo))
    assert res.returncode == 2 and "not a regular file" in res.stderr
    assert not (tmp_path / "o" / "x" / "words.parquet").exists()


@pytest.mark.parametrize(
    "content",
    [
        bytes(range(1, 32)) * 200,  # control bytes, no NUL
        bytes(range(128, 256)) * 100,  # not UTF-8
    ],
)
def test_binary_without_nul_is_refused(cli, tmp_path, content):
    source = tmp_path / "list.txt"
    source.write_bytes(content)
    res = cli("run", "ingest", "--source", source, "-l", "x", "--data-dir", tmp_path / "o", "-q")
    # the whole line: the file's path holds the test's name ("...binary_without_nul..."), so "binary" alone
    # is found in any refusal of it, "no word kept" included
    refusal = f"error: {source}: looks like a binary file (many control or undecodable bytes), not a word list\n"
    assert res.exit_code == 2 and res.stderr == refusal, res


def test_a_huge_word_is_dropped_as_too_long(cli, tmp_path):
    source = tmp_path / "list.txt"
    source.write_bytes(b"cat\n" + b"a" * 10_000_000 + b"\ndog\n" + b"b" * 46 + b"\n" + b"c" * 45 + b"\n")
    res = cli("run", "ingest", "--source", source, "-l", "x", "--data-dir", tmp_path / "o", "-q")
    assert res.exit_code == 0, res
    report = json.loads((tmp_path / "o" / "x" / "ingest_report.json").read_text())
    assert report["dropped"]["too_long"]["count"] == 2
    words = pl.read_parquet(tmp_path / "o" / "x" / "words.parquet")
    assert words["word"].to_list() == ["CAT", "C" * 45, "DOG"] and words.schema["length"] == pl.Int32


@pytest.mark.parametrize(
    "source, says",
    [
        ('{ package = "english_words", resource = "../../../../etc/passwd", format = "pickle" }', "inside the package"),
        ('{ package = "os", resource = "x.pickle", format = "pickle" }', "not a package"),
        ('{ package = "no_such_pkg_zz", resource = "x.pickle", format = "pickle" }', "not installed"),
        ('{ package = "os;rm", resource = "x", format = "pickle" }', "not a package name"),
        ('{ path = "words.pickle", format = "pickle" }', "installed package"),
    ],
)
def test_package_sources_stay_in_their_package(cli, tmp_path, source, says):
    config = tmp_path / "c.toml"
    text = SMALL_CONFIG.read_text().replace('"../../', f'"{ROOT}/')
    config.write_text(text + f"\n[lexicons.evil]\nsources = [{source}]\n")
    res = cli("run", "ingest", "-l", "evil", "--config", config, "--data-dir", tmp_path / "o", "-q")
    assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1, res


def test_pickles_are_type_and_size_checked(tmp_path):
    import pickle

    from pipeline.core.config import Source
    from pipeline.core.errors import WordstatsError
    from pipeline.ingest.sources import SourceText, pickled_entries

    src = Source(label="pkg:x.pickle", package="pkg", resource="x.pickle", format="pickle")
    for obj, says in ((5, "holds a int"), ({"a": 1}, "not a set")):
        with pytest.raises(WordstatsError, match=says):
            pickled_entries(SourceText(src, pickle.dumps(obj)))
    shared = "a" * 1_000_000
    with pytest.raises(WordstatsError, match="more than"):
        pickled_entries(SourceText(src, pickle.dumps([shared] * 1000)))


@pytest.mark.slow
def test_boggle_best_minutes_bounds_the_search(data):
    started = time.perf_counter()
    res = run_cli("boggle", "best", "--minutes", "0.02", "--size", "4x4", "-l", "t", "--data-dir", data, "--json")
    assert res.exit_code == 0 and time.perf_counter() - started < 30, res
    # a round of 10^9 steps a run would take hours: the deadline stops it, each run with its best board so far
    started = time.perf_counter()
    res = run_cli(
        "boggle", "best", "--minutes", "0.02", "--steps", "1000000000", "-l", "t", "--data-dir", data, "--json"
    )
    facts = json.loads(res.stdout)
    assert res.exit_code == 0 and time.perf_counter() - started < 60, res
    assert facts["runs"] == 0 and facts["runs_cut"] >= 1 and 0 < facts["evaluations"] < 10**9
    assert facts["score"] > 0 and len(facts["board"]) == 16
    for bad in ("nan", "0", "-1", "inf", "1e9"):
        res = run_cli("boggle", "best", "--minutes", bad, "-l", "t", "--data-dir", data)
        assert res.exit_code == 2 and "--minutes" in res.stderr, res


def test_memory_estimated_before_allocating(data):
    res = run_cli("boggle", "random", "--sample", str(10**9), "-l", "t", "--data-dir", data)
    assert res.exit_code == 2 and "at most" in res.stderr
    res = run_cli("boggle", "random", "--sample", str(10**12), "-l", "t", "--data-dir", data)
    assert res.exit_code == 2 and "--sample" in res.stderr


@pytest.mark.parametrize(
    "args, says",
    [
        (["boggle", "best", "--runs", "1000000000", "--steps", "10"], "--runs 1,000,000,000"),
        (["boggle", "random", "--summary", "--sample", "10000000000", "--shard-size", "1"], "--sample 10,000,000,000"),
        (["boggle", "prove", "--floor", "10", "--workers", "1024"], "--workers 1024"),
    ],
)
def test_counts_that_would_not_fit_in_memory_are_refused_before_any_work(data, args, says):
    from pipeline.core.memory import available_bytes

    res = run_cli(*args, "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    if "1024" in says and (available_bytes() or 0) > 400 * 2**30:
        pytest.skip("this machine has memory for 1024 workers")
    assert res.exit_code == 2 and says in res.stderr and "of memory" in res.stderr, res
    assert len(res.stderr.strip().splitlines()) == 1


def test_memory_estimate_message():
    from pipeline.core.errors import WordstatsError
    from pipeline.core.memory import check_memory, human, job_bytes

    assert [human(512), human(3.2e9), human(4.2e12)] == ["512 bytes", "3.2 GB", "4.2 TB"]
    check_memory(1e9, "--sample 5", available=2 * 10**9)
    with pytest.raises(WordstatsError, match=r"^--sample 5 needs about 1.9 GB of memory, more than the 1.6 GB"):
        check_memory(1.9e9, "--sample 5", available=2 * 10**9)
    assert job_bytes(10, 3, 100.0, 1.0) == 4 * 4096 + 3 * 100 + 10


def test_seeds_beyond_64_bits_are_refused(data):
    res = run_cli("boggle", "random", "--seed", "99999999999999999999999", "-l", "t", "--data-dir", data)
    assert res.exit_code == 2 and "--seed" in res.stderr and len(res.stderr.strip().splitlines()) == 1

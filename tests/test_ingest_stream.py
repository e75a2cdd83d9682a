"""Ingest reads a word list a block at a time: its lines are exactly those of the whole file however the
blocks fall (a CRLF split between two blocks included), and its peak memory follows the words it keeps, not
the size of the list (a list of repeated words costs no more than the words once)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.config import MAX_SOURCE_BYTES, Source
from pipeline.ingest.sources import line_batches
from tests.conftest import ENABLE, ROOT, SMALL_CONFIG, special_file

HEADROOM_MIB = 128  # what a large list of repeated words may cost over the words once (the old reader: 1 GB+)


@dataclass
class Blocks:
    """A source whose bytes arrive in the blocks given (as a file read a block at a time delivers them)."""

    source: Source
    parts: list[bytes]

    def blocks(self) -> Iterator[bytes]:
        """The blocks, in order."""
        yield from self.parts


def whole_lines(data: bytes) -> list[bytes]:
    """The lines of bytes read whole: CR, LF and CRLF end a line; a byte order mark at the start dropped."""
    lines = data.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return lines[:-1] if lines[-1] == b"" else lines


def cut(data: bytes, points: list[int]) -> list[bytes]:
    """`data` cut at the given points."""
    edges = [0, *sorted(p % (len(data) + 1) for p in points), len(data)]
    return [data[a:b] for a, b in zip(edges, edges[1:])]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"ab", b"c", b"\r", b"\n", b"\r\n", b" ", b"#", b"\xc3\xa9", b"\xef\xbb\xbf"]), max_size=60
    ),
    st.lists(st.integers(0, 10_000), max_size=12),
)
def test_lines_are_those_of_the_whole_file_however_the_blocks_fall(pieces, points):
    data = b"".join(pieces)
    batches = line_batches(Blocks(Source(label="t"), cut(data, points)))  # type: ignore[arg-type]
    assert [line for batch in batches for line in batch] == whole_lines(data)


def test_a_crlf_split_between_two_blocks_ends_one_line():
    parts = [b"cat\r", b"\ndog\r", b"\r\nbird"]
    lines = [line for batch in line_batches(Blocks(Source(label="t"), parts)) for line in batch]  # type: ignore[arg-type]
    assert lines == [b"cat", b"dog", b"", b"bird"]


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_special_file_is_refused_before_it_is_read(cli, tmp_path, kind):
    path = special_file(tmp_path / "list.txt", kind)
    res = cli("run", "ingest", "--source", path, "--lexicon", "t", "--data-dir", tmp_path / "out")
    assert res.exit_code == 2 and res.stderr.startswith(f"error: {path}") and len(res.stderr.splitlines()) == 1, res
    assert not (tmp_path / "out" / "t" / "words.parquet").exists()


def test_a_list_larger_than_the_limit_is_refused_unread(cli, tmp_path):
    path = tmp_path / "list.txt"
    with open(path, "wb") as fh:
        fh.truncate(MAX_SOURCE_BYTES + 1)  # sparse: nothing to read, the size says it all
    res = cli("run", "ingest", "--source", path, "--lexicon", "t", "--data-dir", tmp_path / "out")
    assert res.exit_code == 2 and "larger than the limit" in res.stderr, res


def test_a_source_changed_from_its_pinned_hash_is_refused_and_nothing_written(cli, tmp_path):
    from tests.conftest import config_with

    config = config_with(tmp_path, "b134e7aba7aaeb79bbc1db45d13ddcd0b9399b780b74fbe9a81c0949575a3ce7", "0" * 64)
    res = cli("run", "ingest", "--lexicon", "moby", "--data-dir", tmp_path / "out", "--config", config)
    assert res.exit_code == 2 and "config expects 000" in res.stderr, res
    assert not (tmp_path / "out" / "moby" / "words.parquet").exists()


# ---- memory ----------------------------------------------------------------------------------------


def peak_mib(source: Path, data: Path) -> float:
    """The peak resident memory of `wordstats run ingest` on a list, in MiB (the kernel's count)."""
    args = [sys.executable, "-m", "pipeline", "run", "ingest", "--source", str(source), "--lexicon", "big"]
    proc = subprocess.Popen([*args, "--data-dir", str(data), "--config", str(SMALL_CONFIG), "--quiet"], cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss / 1024


@pytest.mark.slow
def test_a_large_list_of_repeated_words_costs_what_the_words_cost_once(tmp_path):
    words = ENABLE.read_text().split()
    rng = random.Random(3)
    big = tmp_path / "big.txt"
    with open(big, "w") as fh:
        for _ in range(15):  # about 26 MB: the old reader held some 15 times a list in memory
            rng.shuffle(words)
            fh.write("\n".join(words) + "\n")
    once = peak_mib(ENABLE, tmp_path / "once")
    many = peak_mib(big, tmp_path / "many")
    import polars as pl

    assert pl.read_parquet(tmp_path / "once/big/words.parquet").equals(
        pl.read_parquet(tmp_path / "many/big/words.parquet")
    )
    assert many < once + HEADROOM_MIB, (once, many)

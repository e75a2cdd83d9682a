"""Damaged commit journals and commits no one can finish: a journal that is not a plan of renames is reported
and set aside (never a traceback, readers included, and never a rename outside the lexicon's folder); a
commit cut short in a folder that is then read-only is read as if finished, never half applied."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.core.layout import DAMAGED_JOURNAL, JOURNAL
from tests.conftest import ROOT, SMALL_CONFIG, run_cli
from tests.support.store import (
    KILL_BETWEEN_RENAMES,
    WORDS_A,
    assert_consistent,
    built_twice,
    snapshot,
    tmpfs,
    write_words,
)

READERS = (("info",), ("anagram", "RETAINS"), ("hooks", "STONE"), ("word", "RETAINS"), ("sql", "SELECT * FROM words"))
WRITERS = (("run", "indexes", "--quiet"),)


def escape_plan(outside: Path) -> str:
    """A plan that would rename a file outside the lexicon's folder over one inside it."""
    return json.dumps({"renames": [[f"../../{outside.name}", "words.parquet"]], "entries": {}})


def journals(outside: Path) -> list[tuple[str, object]]:
    """Damaged journals: (name, its bytes, or a callable making it)."""
    return [
        ("not-json", b"{not json"),
        ("empty", b""),
        ("binary", bytes(range(256))),
        ("a-list", b"[1, 2]"),
        ("no-renames", b'{"entries": {}}'),
        ("renames-not-pairs", b'{"renames": [5], "entries": {}}'),
        ("entries-not-objects", b'{"renames": [], "entries": {"words.parquet": 3}}'),
        ("escapes-the-folder", escape_plan(outside).encode()),
        ("into-a-path", b'{"renames": [[".x.parquet.1.tmp", "../x.parquet"]], "entries": {}}'),
        ("not-utf8", b'{"renames": "\xff\xfe"}'),
        ("too-large", b"[" + b"0," * (1 << 20) + b"0]"),
        ("a-folder", lambda path: path.mkdir()),
        ("a-fifo", lambda path: os.mkfifo(path)),
    ]


def lay(path: Path, journal) -> None:
    """Put a damaged journal at `path`."""
    if callable(journal):
        journal(path)
    else:
        path.write_bytes(journal)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A data folder with a lexicon's words and indexes."""
    root = tmp_path_factory.mktemp("journal")
    source = write_words(root / "a.txt", WORDS_A + ["stone", "stones", "tones", "notes"])
    res = run_cli("run", "ingest", "indexes", "--source", source, "--lexicon", "t", "--data-dir", root / "out")
    assert res.exit_code == 0, res
    return root / "out"


@pytest.fixture
def lexicon(built, tmp_path) -> tuple[Path, Path, Path]:
    """A copy of the built lexicon, and a file outside its data folder: (data, its folder, the file)."""
    data = tmp_path / "out"
    shutil.copytree(built, data)
    outside = tmp_path / "precious.txt"
    outside.write_text("not a table\n")
    return data, data / "t", outside


@pytest.mark.parametrize("kind", [j[0] for j in journals(Path("x"))])
@pytest.mark.parametrize("command", READERS + WRITERS, ids=lambda c: "-".join(c[:2]))
def test_a_damaged_journal_is_reported_and_set_aside(cli, lexicon, kind, command):
    data, root, outside = lexicon
    journal = dict(journals(outside))[kind]
    tables = {k: v for k, v in snapshot(root).items() if k != "manifest.json"}
    lay(root / JOURNAL, journal)
    res = cli(*command, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 0, res
    assert "Traceback" not in res.stderr + res.stdout
    notes = [line for line in res.stderr.splitlines() if JOURNAL in line]
    assert len(notes) == 1 and notes[0].startswith(f"note: {root / JOURNAL}: damaged commit journal"), res.stderr
    assert "wordstats run --lexicon t" in notes[0]
    assert not os.path.lexists(root / JOURNAL) and list(root.glob(f"{DAMAGED_JOURNAL}*"))
    assert outside.read_text() == "not a table\n"
    if command[0] != "run":
        assert {k: v for k, v in snapshot(root).items() if k != "manifest.json"} == tables
    again = cli(*command, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert again.exit_code == 0 and JOURNAL not in again.stderr  # reported once


def test_a_damaged_journal_leaves_make_to_rebuild_the_lexicon(cli, lexicon):
    data, root, outside = lexicon
    fingerprints = root / ".make"
    fingerprints.mkdir()
    (fingerprints / "indexes.settings").write_text("{}\n")  # as make-rules writes them
    (root / JOURNAL).write_text("{not json")
    assert cli("info", "--lexicon", "t", "--data-dir", data).exit_code == 0
    assert not list(fingerprints.glob("*.settings"))  # a missing fingerprint: make reruns its stage


# ---- a commit cut short in a folder that is then read-only ----------------------------------------


def kill_between_renames(args: list[str]) -> None:
    """Run `args` and kill it with SIGKILL after its second table is renamed into place."""
    killed = subprocess.run([sys.executable, "-c", KILL_BETWEEN_RENAMES, *args], cwd=ROOT, capture_output=True)
    assert killed.returncode == -signal.SIGKILL


def ask(cli, data: Path, *args):
    """A query on lexicon t."""
    return cli(*args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)


@pytest.mark.slow
def test_a_read_only_folder_with_a_commit_cut_short_is_read_as_finished(cli, tmp_path):
    with tmpfs(tmp_path / "disk", "16m") as disk:
        data, root, args = built_twice(cli, disk)
        kill_between_renames(args)  # anagrams and prefixes from list B, hooks still from list A
        assert (root / JOURNAL).exists()
        before = snapshot(root)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        try:
            found = ask(cli, data, "anagram", "QUIZ")
            hooks = ask(cli, data, "hooks", "QUIZ")
            gone = ask(cli, data, "hooks", "STARE")
            sql = ask(cli, data, "sql", "SELECT count(*) AS n FROM hooks WHERE word = 'QUIZ'", "--csv")
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        assert found.exit_code == 0 and "QUIZ" in found.stdout, found
        assert hooks.exit_code == 0 and "QUIZ" in hooks.stdout, hooks  # the new hooks, not yet in place
        assert "not a word" in gone.stderr, gone  # the old hooks are not read
        assert sql.exit_code == 0 and sql.stdout.split() == ["n", "1"], sql
        assert snapshot(root) == before
        assert ask(cli, data, "info").exit_code == 0  # writable again: a reader finishes the commit
        assert not (root / JOURNAL).exists()
        assert_consistent(root)


@pytest.mark.slow
def test_a_read_only_folder_with_a_damaged_journal_of_a_commit_cut_short_is_refused(cli, tmp_path):
    with tmpfs(tmp_path / "disk", "16m") as disk:
        data, root, args = built_twice(cli, disk)
        kill_between_renames(args)
        (root / JOURNAL).write_text("{damaged")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        try:
            res = ask(cli, data, "hooks", "QUIZ")
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1, res
        assert "damaged commit journal" in res.stderr and "half replaced" in res.stderr


def test_a_damaged_shard_is_named_set_aside_and_computed_again(tmp_path, capsys):
    """A shard part that does not match the checksum written after it (empty, cut short by a crash, a byte
    changed by a bad disk while it still reads as Parquet, or no checksum at all) is named, kept aside as
    NAME.damaged and computed again: the resumed job gives the same tables, never "cannot read the tables"."""
    from pipeline.core.executor import LocalEngine, run
    from pipeline.core.jobs import checksum_path
    from pipeline.hangman.lengths import lengths_job

    words = ["AB", "BA", "ABC", "BCA", "CAB", "ABCD", "DCBA", "BADC"]
    first = run(lengths_job(words, 1 << 20, 1 << 20), tmp_path, "t", LocalEngine())
    shards = sorted(tmp_path.rglob("shard-*.parquet"))
    whole = shards[1].read_bytes()
    changed = bytearray(whole)
    changed[4 + (len(whole) - 12) // 3] ^= 1  # inside the data pages
    damages = {b"": "does not match its checksum", whole[: len(whole) // 2]: "does not match its checksum"}
    damages[bytes(changed)] = "does not match its checksum"
    for damage, says in [*damages.items(), (None, "has no checksum")]:
        if damage is None:
            checksum_path(shards[1]).unlink()
        else:
            shards[1].write_bytes(damage)
        again = run(lengths_job(words, 1 << 20, 1 << 20), tmp_path, "t", LocalEngine())
        assert again.computed == 1 and again.tables["lengths"].equals(first.tables["lengths"])
        assert shards[1].with_name(shards[1].name + ".damaged").is_file()
        assert f"{shards[1]} {says}" in capsys.readouterr().err

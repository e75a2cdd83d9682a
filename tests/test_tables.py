"""Atomic writes, provenance in Parquet footers, the manifest, and byte-identical rebuilds."""

from __future__ import annotations

import hashlib
import json

import polars as pl
import pytest

from pipeline.core.errors import WordstatsError
from pipeline.core.files import read_provenance, write_parquet
from pipeline.core.store import Store
from tests.conftest import DEFAULT_CONFIG, SMALL_CONFIG

WORDS = ["listen", "silent", "enlist", "tinsel", "inlets", "stone", "notes", "onset"]


def test_same_inputs_give_byte_identical_parquet_anywhere(cli, tmp_path, word_file):
    path = word_file(WORDS)
    for where in ("one", "deeper/two"):
        res = cli(
            "run", "ingest", "--source", path, "-l", "t", "--data-dir", tmp_path / where, "--config", SMALL_CONFIG
        )
        assert res.exit_code == 0, res
    one, two = (tmp_path / "one/t/words.parquet").read_bytes(), (tmp_path / "deeper/two/t/words.parquet").read_bytes()
    assert one == two
    assert str(tmp_path).encode() not in one  # no absolute paths inside


def test_provenance_in_footer(build, word_file):
    data = build(WORDS, "ingest")
    meta = read_provenance(data / "t/words.parquet")
    assert meta["stage"] == "ingest" and meta["lexicon"] == "t"
    layers = SMALL_CONFIG.read_bytes() + DEFAULT_CONFIG.read_bytes()  # the overlay and the config it extends
    assert meta["config_sha256"] == hashlib.sha256(layers).hexdigest()
    source_sha = hashlib.sha256(("\n".join(WORDS) + "\n").encode()).hexdigest()
    assert meta["inputs"] == {"t.txt": source_sha}
    assert meta["params"]["min_length"] == 1 and meta["params"]["tile_values"]["Z"] == 10
    assert meta["version"]


def test_manifest_matches_files(build):
    data = build(WORDS, "ingest")
    manifest = json.loads((data / "t/manifest.json").read_text())
    entry = manifest["tables"]["words.parquet"]
    assert entry["rows"] == len(WORDS) and entry["stage"] == "ingest"
    assert entry["sha256"] == hashlib.sha256((data / "t/words.parquet").read_bytes()).hexdigest()
    assert "ingest_report.json" in manifest["tables"]


def test_failed_write_leaves_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "x.parquet"
    write_parquet(target, pl.DataFrame({"a": [1, 2]}), {"stage": "t"})
    before = target.read_bytes()

    def explode(self, file, **kwargs):
        with open(file, "wb") as fh:
            fh.write(b"half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", explode)
    with pytest.raises(WordstatsError, match=r"x.parquet: cannot write \(No space left on device\)"):
        write_parquet(target, pl.DataFrame({"a": [3]}), {"stage": "t"})
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.parquet"]


def test_store_writes_json_text_and_records_each(tmp_path):
    store = Store(tmp_path, "lex")
    store.write({"a.parquet": pl.DataFrame({"w": ["A"]}), "b.json": {"k": 1}, "c.html": "<p>hi</p>"}, {"stage": "demo"})
    assert store.read("a")["w"].to_list() == ["A"]
    assert store.read_json("b.json") == {"k": 1}
    assert set(store.manifest()["tables"]) == {"a.parquet", "b.json", "c.html"}


def test_unwritable_output_names_the_file_not_a_temporary(cli, build, tmp_path):
    data = build(WORDS, "ingest")
    (tmp_path / "taken.csv").mkdir()  # a folder where the file should go
    (tmp_path / "plain").write_text("a file where a folder should be")
    for target, says in (
        (tmp_path / "taken.csv", "taken.csv: is a folder"),
        (tmp_path / "plain" / "r.csv", "r.csv: cannot create its folder"),
    ):
        res = cli("sql", "SELECT word FROM words", "-l", "t", "--data-dir", data, "--out", target)
        assert res.exit_code == 2 and says in res.stderr and ".tmp" not in res.stderr, res
        assert len(res.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary left


def test_damaged_or_older_tables_are_one_line_errors_naming_the_file(cli, build):
    data = build(WORDS, "indexes")
    ask = ("--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    anagrams, hooks, words = (data / "t" / f"{name}.parquet" for name in ("anagrams", "hooks", "words"))
    anagrams.write_bytes(anagrams.read_bytes()[: anagrams.stat().st_size // 2])  # cut short
    hooks.write_text("not parquet")
    pl.read_parquet(words).drop("zipf").write_parquet(words)  # as an older version might have written it
    for args, path, says in (
        (("anagram", "LISTEN"), anagrams, "not a readable Parquet table"),
        (("words", "LISTEN"), anagrams, "not a readable Parquet table"),
        (("hooks", "STONE"), hooks, "not a readable Parquet table"),
        (("word", "STONE"), words, "has no column 'zipf'"),  # words is checked first
        (("wordlist", "--length", "5"), words, "has no column 'zipf'"),
        (("hangman", "STONE"), words, "has no column 'zipf'"),
    ):
        res = cli(*args, *ask)
        assert res.exit_code == 2 and res.stderr.startswith(f"error: {path}") and says in res.stderr, res
        assert len(res.stderr.strip().splitlines()) == 1 and "rebuild it with `wordstats run " in res.stderr
        assert "--lexicon t`" in res.stderr


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "\udcff"])
def test_damaged_manifest_is_rebuilt_from_the_tables(cli, build, text):
    data = build(WORDS, "ingest")
    manifest = data / "t" / "manifest.json"
    for args in (("info", "--lexicon", "t"), ("run", "indexes", "--lexicon", "t", "--quiet")):
        manifest.write_bytes(text.encode("utf-8", "surrogateescape"))
        res = cli(*args, "--data-dir", data, "--config", SMALL_CONFIG)
        assert res.exit_code == 0, res
        tables = json.loads(manifest.read_text())["tables"]
        assert tables["words.parquet"]["rows"] == len(WORDS) and "ingest_report.json" in tables

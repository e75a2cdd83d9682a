"""`wordstats sql` on DuckDB: views over every table, --lexicon all, the sandbox, --out with provenance."""

from __future__ import annotations

import json

import polars as pl
import pyarrow.parquet as pq
import pytest

from pipeline.core.files import sha256_file
from tests.conftest import SMALL_CONFIG, build_lexicon, run_cli

WORDS = ["cat", "act", "tac", "dog", "god", "bird", "ox"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Two lexicons, t (WORDS: ingest and indexes) and u (three words: ingest only)."""
    root = tmp_path_factory.mktemp("sql")
    out = root / "out"
    build_lexicon(out, WORDS, "ingest", "indexes", lexicon="t")
    build_lexicon(out, ["zebra", "yak", "ox"], "ingest", lexicon="u")
    return out


def sql(cli, data, query, *args, lexicon="t"):
    """Run `wordstats sql` on the test data."""
    return cli("sql", query, "-l", lexicon, "--data-dir", data, "--config", SMALL_CONFIG, *args)


def one_line_error(res, *needles):
    """Assert exit 2 and a single stderr line holding every needle."""
    assert res.exit_code == 2, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res
    for needle in needles:
        assert needle in lines[0], res


def test_every_table_is_a_view(cli, data):
    res = sql(cli, data, "SELECT table_name FROM information_schema.tables ORDER BY 1", "--json")
    assert res.exit_code == 0, res
    assert [r["table_name"] for r in json.loads(res.stdout)] == ["anagrams", "hooks", "prefixes", "words"]
    res = sql(cli, data, "SELECT alphagram, len(words) AS n FROM anagrams WHERE len(words) > 1 ORDER BY 1", "--json")
    assert json.loads(res.stdout) == [{"alphagram": "ACT", "n": 3}, {"alphagram": "DGO", "n": 2}]


def test_duckdb_functions_data_users_expect(cli, data):
    res = sql(cli, data, "SELECT count(*) AS n FROM (SELECT * FROM words USING SAMPLE 3 ROWS)", "--json")
    assert json.loads(res.stdout) == [{"n": 3}]


def test_lexicon_all_adds_a_lexicon_column(cli, data):
    res = sql(cli, data, "SELECT lexicon, count(*) AS n FROM words GROUP BY 1 ORDER BY 1", "--json", lexicon="all")
    assert res.exit_code == 0, res
    assert json.loads(res.stdout) == [{"lexicon": "t", "n": 7}, {"lexicon": "u", "n": 3}]
    res = sql(cli, data, "SELECT DISTINCT lexicon FROM anagrams", "--json", lexicon="ALL")
    assert json.loads(res.stdout) == [{"lexicon": "t"}]  # only t has built the indexes


@pytest.mark.parametrize(
    "query, needle",
    [
        ("SELECT * FROM read_csv('/etc/passwd', header = false)", "refused by the sandbox"),
        ("SELECT * FROM read_text('/etc/passwd')", "refused by the sandbox"),
        ("SELECT * FROM glob('/etc/*')", "refused by the sandbox"),
        ("SELECT * FROM read_parquet('/tmp/*/*.parquet')", "refused by the sandbox"),
        ("SELECT * FROM read_csv('https://example.com/x.csv')", "refused by the sandbox"),
        ("SELECT * FROM read_parquet('s3://bucket/x.parquet')", "refused by the sandbox"),
        ("COPY words TO 'stolen.csv'", "COPY statements are refused"),
        ("SELECT 1; COPY words TO 'words.parquet'", "exactly one statement"),
        ("CREATE TABLE x AS SELECT 1", "CREATE statements are refused"),
        ("ATTACH 'other.db'", "ATTACH statements are refused"),
        ("INSTALL httpfs", "statements are refused"),
        ("LOAD httpfs", "LOAD statements are refused"),
        ("SET enable_external_access = true", "statements are refused"),
        ("PRAGMA enable_external_access", "statements are refused"),
        pytest.param("SELECT list(range) FROM range(400000000)", "Out of Memory", marks=pytest.mark.slow),
        ("SELEC 1", "SQL error"),
        ("", "empty SQL query"),
    ],
)
def test_sandbox_refuses_on_one_line(cli, data, query, needle):
    one_line_error(sql(cli, data, query), needle)


def test_sandbox_refuses_files_in_the_data_folder_beside_the_tables(cli, data):
    secret = data / "secret.csv"
    secret.write_text("a\n1\n")
    one_line_error(sql(cli, data, f"SELECT * FROM read_csv('{secret}')"), "refused by the sandbox")


def test_a_long_query_is_stopped_by_the_timeout(cli, data):
    query = "SELECT count(*) FROM range(100000000) a, range(1000000) b"
    one_line_error(sql(cli, data, query, "--timeout", "1"), "stopped after 1 s")


@pytest.mark.parametrize("value", ["nan", "0", "-1", "1e9", "inf"])
def test_timeout_range(cli, data, value):
    one_line_error(sql(cli, data, "SELECT 1", "--timeout", value), "--timeout")


def test_out_writes_provenance_and_refuses_to_overwrite(cli, data, tmp_path):
    query = "SELECT word FROM words ORDER BY word"
    target = tmp_path / "r.parquet"
    assert sql(cli, data, query, "--out", target).exit_code == 0
    assert pl.read_parquet(target)["word"].to_list() == sorted(w.upper() for w in WORDS)
    meta = {k.decode(): v.decode() for k, v in pq.read_metadata(target).metadata.items()}
    assert meta["wordstats.sql"] == query and meta["wordstats.lexicon"] == "t"
    inputs = json.loads(meta["wordstats.inputs"])
    assert set(inputs) == {"t/words.parquet"}  # the table the query names, the one it could read
    assert inputs == {name: sha256_file(data / name) for name in inputs}  # the manifest's, equal to the bytes'
    listing = tmp_path / "views.parquet"  # a query naming no table may read every view: every table is an input
    assert sql(cli, data, "SELECT view_name FROM duckdb_views() WHERE NOT internal", "--out", listing).exit_code == 0
    shown = set(pl.read_parquet(listing)["view_name"].to_list())
    read = {name.split("/")[1].removesuffix(".parquet") for name in parquet_inputs(listing)}
    assert shown == {"words", "anagrams", "hooks", "prefixes"} == read
    before = target.read_bytes()
    one_line_error(sql(cli, data, "SELECT 1 AS x", "--out", target), "file exists", "--force")
    assert target.read_bytes() == before
    assert sql(cli, data, "SELECT 1 AS x", "--out", target, "--force").exit_code == 0
    assert pl.read_parquet(target).to_dicts() == [{"x": 1}]
    for suffix in ("csv", "json"):
        text_out = tmp_path / f"r.{suffix}"
        assert sql(cli, data, query, "--out", text_out).exit_code == 0
        prov = json.loads((tmp_path / f"r.{suffix}.provenance.json").read_text())
        assert prov["sql"] == query and prov["inputs"] == inputs


def test_out_never_writes_into_the_data_folder(cli, data):
    target = data / "t" / "words.parquet"
    before = target.read_bytes()
    one_line_error(sql(cli, data, "SELECT 1 AS x", "--out", target, "--force"), "inside the data folder")
    assert target.read_bytes() == before


def test_empty_result_is_a_note_not_an_error(cli, data):
    res = sql(cli, data, "SELECT word FROM words WHERE word = 'QQQ'")
    assert res.exit_code == 0 and res.stdout == "" and "note: no results" in res.stderr
    res = sql(cli, data, "SELECT word FROM words WHERE word = 'QQQ'", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout) == []


def test_limit_caps_terminal_output(cli, data):
    res = sql(cli, data, "SELECT word FROM words ORDER BY word", "--limit", "2", "--json")
    assert [r["word"] for r in json.loads(res.stdout)] == ["ACT", "BIRD"]
    assert "showing 2 of 7 rows" in res.stderr


def test_data_found_from_the_config_project_wherever_the_command_runs(cli, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    (project / "configs").mkdir(parents=True)
    config = project / "configs" / "c.toml"
    config.write_text(SMALL_CONFIG.read_text().replace('"../../', f'"{SMALL_CONFIG.parents[2]}/'))
    (project / "data").mkdir()
    build_lexicon(project / "data" / "out", WORDS, "ingest", lexicon="t", config=config)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("WORDSTATS_DATA", raising=False)
    res = cli("sql", "SELECT count(*) AS n FROM words", "-l", "t", "--config", config, "--json")
    assert res.exit_code == 0 and json.loads(res.stdout) == [{"n": 7}], res
    res = cli("info", "-l", "t", "--config", config, "--json")
    assert f"data folder: {project / 'data' / 'out'} (from the project of {config})" in res.stderr
    assert {r["file"] for r in json.loads(res.stdout)} >= {"words.parquet"}
    res = cli("info", "--config", config, "--json", env={"WORDSTATS_DATA": str(tmp_path / "none")})
    assert "(from WORDSTATS_DATA)" in res.stderr


@pytest.mark.slow
def test_a_text_column_past_2_gib_is_read(cli, data):
    res = sql(cli, data, "SELECT repeat('x', 1048576) AS s FROM range(2100)", "--limit", "1", "--csv")
    assert res.exit_code == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert res.stdout.splitlines()[1] == "x" * 1048576
    assert "showing 1 of 2,100 rows" in res.stderr


def test_a_damaged_table_the_query_names_is_one_line(cli, data, tmp_path):
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(data, copy)
    pl.read_parquet(copy / "t" / "words.parquet").drop("length").write_parquet(copy / "t" / "words.parquet")
    res = cli("sql", "SELECT count(*) FROM words", "-l", "t", "--data-dir", copy, "--config", SMALL_CONFIG)
    one_line_error(res, "words.parquet has no column 'length'", "rebuild it with `wordstats run ingest")
    fine = cli("sql", "SELECT count(*) AS n FROM anagrams", "-l", "t", "--data-dir", copy, "--config", SMALL_CONFIG)
    assert fine.exit_code == 0, fine  # a query that does not name the damaged table reads the others


def test_provenance_hashes_a_table_the_manifest_does_not_record(cli, data, tmp_path):
    """An input's sha256 is the manifest's (as every query's provenance); a Parquet file the manifest does not
    record at its size is hashed."""
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(data, copy)
    pl.read_parquet(copy / "t" / "words.parquet").head(2).write_parquet(copy / "t" / "words.parquet")
    pl.DataFrame({"x": [1]}).write_parquet(copy / "t" / "extra.parquet")
    target = tmp_path / "r.parquet"
    assert sql(cli, copy, "SELECT * FROM extra", "--out", target).exit_code == 0
    inputs = json.loads(pq.read_metadata(target).metadata[b"wordstats.inputs"])
    assert inputs == {name: sha256_file(copy / name) for name in inputs} and "t/extra.parquet" in inputs


def test_sums_of_integers_are_integers_in_every_format(data, tmp_path):
    """DuckDB sums integers into 128-bit decimals: the result is an integer in the table, JSON, CSV and Parquet."""
    import json as jsonlib

    query = "SELECT sum(length) AS s, count(*) AS n FROM words"
    res = run_cli("sql", query, "--json", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    row = jsonlib.loads(res.stdout)[0]
    assert isinstance(row["s"], int) and isinstance(row["n"], int) and row["s"] > row["n"] > 0
    csv = run_cli("sql", query, "--csv", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert csv.stdout.splitlines()[1] == f"{row['s']},{row['n']}"
    out = tmp_path / "s.parquet"
    run_cli("sql", query, "--out", out, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert pl.read_parquet_schema(out)["s"] == pl.Int64


@pytest.mark.slow
def test_ctrl_c_stops_a_query_within_a_second(data):
    """SIGINT during a long query: one line, exit code 130, within a second."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    exe = str(Path(sys.executable).with_name("wordstats"))
    query = "SELECT sum(a.range * b.range) FROM range(300000) a, range(300000) b"
    args = [exe, "sql", query, "--lexicon", "t", "--data-dir", str(data), "--config", str(SMALL_CONFIG)]
    default_sigint = lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)  # noqa: E731 (a pytest-xdist worker ignores it)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    deadline = time.monotonic() + 60
    while cpu_seconds(proc.pid) < 3.0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)  # until the query runs (start-up takes about 1 CPU-second, however loaded the machine)
    assert proc.poll() is None, proc.communicate()
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert time.perf_counter() - sent < 5.0  # a fraction of a second on a quiet machine (bench: sql interrupt)
    assert err.strip().splitlines() == ["error: SQL query interrupted (Ctrl-C)"]


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user and system, from /proc)."""
    import os

    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def parquet_inputs(path) -> dict[str, str]:
    """The inputs recorded in a result's Parquet footer."""
    return json.loads(pq.read_metadata(path).metadata[b"wordstats.inputs"])

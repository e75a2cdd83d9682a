"""The CLI: run, info, sql, output formats, and one-line errors for bad input."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys

import polars as pl
import pytest

from tests.conftest import ROOT, SMALL_CONFIG

WORDS = ["cat", "act", "tac", "dog", "god", "bird", "ox"]


@pytest.fixture
def data(build):
    """A lexicon `t` of WORDS, ingested."""
    return build(WORDS, "ingest")


def test_sql_json_csv_and_table(cli, data):
    query = "SELECT alphagram, count(*) AS n FROM words GROUP BY alphagram HAVING count(*) > 1 ORDER BY alphagram"
    res = cli("sql", query, "--lexicon", "t", "--data-dir", data, "--json")
    assert res.exit_code == 0, res
    assert json.loads(res.stdout) == [{"alphagram": "ACT", "n": 3}, {"alphagram": "DGO", "n": 2}]
    res = cli("sql", query, "--lexicon", "t", "--data-dir", data, "--csv")
    assert list(csv.DictReader(io.StringIO(res.stdout))) == [
        {"alphagram": "ACT", "n": "3"},
        {"alphagram": "DGO", "n": "2"},
    ]
    res = cli("sql", query, "--lexicon", "t", "--data-dir", data)
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["alphagram", "n"] and lines[2].split() == ["ACT", "3"]


def test_json_has_no_nan_or_infinity(cli, data, tmp_path):
    query = "SELECT 1/0 AS x, CAST('nan' AS DOUBLE) AS y, -1/0 AS z, CAST(0.5 AS DOUBLE) AS half"

    def strict(text):  # json.loads accepts NaN and Infinity; JSON does not
        return json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in JSON output"))

    res = cli("sql", query, "-l", "t", "--data-dir", data, "--json")
    assert res.exit_code == 0 and strict(res.stdout) == [{"x": None, "y": None, "z": None, "half": 0.5}]
    assert cli("sql", query, "-l", "t", "--data-dir", data, "--out", tmp_path / "r.json").exit_code == 0
    assert strict((tmp_path / "r.json").read_text()) == [{"x": None, "y": None, "z": None, "half": 0.5}]


def test_sql_out_files(cli, data, tmp_path):
    for suffix in ("parquet", "csv", "json", "md"):
        target = tmp_path / f"r.{suffix}"
        res = cli("sql", "SELECT word FROM words ORDER BY word", "-l", "t", "--data-dir", data, "--out", target)
        assert res.exit_code == 0, res
        assert target.stat().st_size > 0
    assert pl.read_parquet(tmp_path / "r.parquet")["word"].to_list() == sorted(w.upper() for w in WORDS)
    assert "| word |" in (tmp_path / "r.md").read_text()


@pytest.mark.parametrize(
    "args, message",
    [
        (["sql", "SELECT nope FROM words", "-l", "t"], "SQL error"),
        (["sql", "SELECT * FROM words", "--lexicon", "nope"], "unknown lexicon 'nope'"),
        (["sql", "SELECT * FROM words", "--lexicon", "../etc"], "invalid lexicon name"),
        (["sql", "SELECT * FROM words", "--lexicon", ""], "invalid lexicon name ''"),  # not the default lexicon
        (["info", "--lexicon", "nope"], "unknown lexicon 'nope'"),
        (["run", "nosuchstage", "--lexicon", "t"], "unknown stage 'nosuchstage'"),
        (["run", "--source", "x.txt"], "--source needs exactly one --lexicon"),
        (["sql", "SELECT 1", "-l", "t", "--json", "--csv"], "choose one of --json and --csv"),
        (["sql", "SELECT * FROM words", "-l", "t", "--out", "r.xlsx"], "unknown output format"),
    ],
)
def test_bad_arguments_are_one_line_errors(cli, data, args, message):
    res = cli(*args, "--data-dir", data)
    assert res.exit_code == 2, res
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_unbuilt_lexicon_says_how_to_build(cli, tmp_path):
    res = cli("sql", "SELECT * FROM words", "--data-dir", tmp_path, "--config", SMALL_CONFIG)
    assert res.exit_code == 2 and "wordstats run --lexicon moby" in res.stderr


@pytest.mark.parametrize(
    "text, message",
    [
        ("default_lexicon = 3\n[lexicons.a]\nsources = [{path = 'x'}]\n", "field default_lexicon: expected a string"),
        (
            "[lexicons.a]\nsources = [{path = 'x'}]\nmin_length = 'x'\n",
            "field lexicons.a.min_length: expected an integer",
        ),
        ("[lexicons.a]\nsources = [{path = 'x'}]\nmax_lenght = 4\n", "field lexicons.a.max_lenght: unknown field"),
        ("[lexicons.a]\nsources = []\n", "field lexicons.a.sources: expected a non-empty list"),
        ("[lexicons.a]\nsources = [{path = 'x', format = 'xml'}]\n", "field lexicons.a.sources[0].format"),
        ("lexicons = [\n", "invalid TOML"),
        ("[hangmn]\nbands = 'x'\n[lexicons.a]\nsources = [{path = 'x'}]\n", "field hangmn: unknown field"),
        (
            "[tiles.s]\ncounts = {A = 1}\nvalues = {}\n[lexicons.a]\nsources = [{path = 'x'}]\n",
            "field tiles.s.counts.B: missing",
        ),
    ],
)
def test_invalid_config_names_file_and_field(cli, tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    res = cli("info", "--config", path, "--data-dir", tmp_path)
    assert res.exit_code == 2, res
    assert str(path) in res.stderr and message in res.stderr


def test_config_with_a_byte_order_mark(cli, tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SMALL_CONFIG.read_bytes().replace(b"../../", str(ROOT).encode() + b"/"))
    res = cli("wordlist", "--presets", "--config", path, "--data-dir", tmp_path, "--json")
    assert res.exit_code == 0 and "spelling-k2" in res.stdout, res


def test_missing_config(cli, tmp_path):
    res = cli("info", "--config", tmp_path / "none.toml")
    assert res.exit_code == 2 and "none.toml: config file not found" in res.stderr


def test_info_lists_tables(cli, data):
    res = cli("info", "--data-dir", data, "--config", SMALL_CONFIG, "--json")
    rows = json.loads(res.stdout)
    mine = {r["file"]: r for r in rows if r["lexicon"] == "t"}
    assert mine["words.parquet"]["rows"] == len(WORDS)
    assert {r["lexicon"] for r in rows} >= {"moby", "web2", "t"}


def test_quiet_and_progress(cli, tmp_path, word_file):
    path = word_file(WORDS)
    loud = cli("run", "ingest", "--source", path, "-l", "t", "--data-dir", tmp_path / "a", env={"WORDSTATS_QUIET": ""})
    assert "ingest" in loud.stderr and "rows" in loud.stderr
    quiet = cli("run", "ingest", "--source", path, "-l", "t", "--data-dir", tmp_path / "b", "--quiet")
    assert quiet.stderr == ""


@pytest.mark.slow
def test_console_script_and_module_entry_points(tmp_path):
    for cmd in ([str(ROOT / ".venv/bin/wordstats")], [sys.executable, "-m", "pipeline"]):
        res = subprocess.run(
            cmd + ["sql", "SELECT 1", "--data-dir", str(tmp_path), "--lexicon", "nope"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert res.returncode == 2 and res.stderr.startswith("error: unknown lexicon 'nope'"), res
        assert "Traceback" not in res.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["words", "AB", "--limit", "-1"], "Invalid value for '--limit'"),
        (["hangman", "--length", "abc"], "--length 'abc'"),
        (["scrabble", "best", "--empty", "--rack", "QI", "--limit", "-1"], "Invalid value for '--limit'"),
        (["scrabble", "best", "--empty"], "Missing option '--rack'"),
        (["anagram", "AB", "--bogus"], "No such option: --bogus"),
        (["words"], "Missing argument"),
        (["bogus"], "No such command 'bogus'"),
    ],
)
def test_usage_errors_are_one_line(cli, args, message):
    res = cli(*args)
    assert res.exit_code == 2, res
    assert res.stderr.startswith(f"error: {message}") and len(res.stderr.strip().splitlines()) == 1, res


def test_bare_command_still_shows_help(cli):
    assert "Usage" in cli().stdout + cli().stderr
    assert "best" in cli("scrabble").stdout + cli("scrabble").stderr


# ---- the one table renderer ---------------------------------------------------------------------------


class Terminal(io.StringIO):
    """A text stream that says it is a terminal, as stdout does in an interactive shell."""

    def isatty(self) -> bool:
        return True


TABLE = pl.DataFrame(
    {
        "word": ["QI", "[b]ZA"],
        "score": [11, 1],
        "find_rate": [0.004220000000000001, 0.5],
        "tiny": [9.36843e-05, 0.000127411],
        "letters": [["S"], []],
    }
)


def test_plain_text_when_not_a_terminal():
    from pipeline.core.display import print_table

    out = io.StringIO()
    print_table(TABLE, out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["word", "score", "find_rate", "tiny", "letters"]
    assert lines[2].split() == ["QI", "11", "0.00422", "0.0000937", "S"]  # fixed decimals per column, no noise
    assert lines[3].split() == ["[b]ZA", "1", "0.50000", "0.0001274"]


def test_rich_table_on_a_terminal_shows_the_same_cells():
    from pipeline.core.display import print_table

    out = Terminal()
    print_table(TABLE, out)
    text = out.getvalue()
    assert "─" in text and "[b]ZA" in text  # rich's rule; a cell is never read as markup
    for cell in ("0.00422", "0.0000937", "0.50000", "0.0001274", "11"):
        assert cell in text
    wide = pl.DataFrame({f"column_{i}": [123456789] for i in range(40)})  # wider than any terminal: plain text
    out = Terminal()
    print_table(wide, out)
    assert out.getvalue().splitlines()[1].startswith("---")


def test_plural_summaries_everywhere():
    from pipeline.cli.options import plural

    assert [plural(1, "word"), plural(2, "word"), plural(1, "miss"), plural(3, "guess")] == [
        "1 word",
        "2 words",
        "1 miss",
        "3 guesses",
    ]
    sources = "\n".join(p.read_text() for p in (ROOT / "pipeline" / "cli").glob("*.py"))
    counted = re.findall(r"\{[^{}]*:,\} (?:boards|words|games|moves|leaves|points|runs|cards)\b", sources)
    counted = [c for c in counted if "MAX_" not in c and "per_second" not in c]  # a limit or a rate: always many
    assert not counted, counted  # a count beside a noun goes through plural()


# ---- one command's module alone: the declared names ------------------------------------------------------------

REGISTERED_BY_EACH = """
import json
from pipeline.cli.app import app, command_modules, command_name

def names():
    return {g.name for g in app.registered_groups} | {command_name(c) for c in app.registered_commands}

found = {}
for module in command_modules():
    before = names()
    __import__(module)
    found[module] = sorted(names() - before)
print(json.dumps(found))
"""

CALLED_BY_NAME = """
import sys
from pipeline.cli.app import app_for

try:
    app_for(sys.argv[1:])(sys.argv[1:], prog_name="wordstats")
finally:
    print(*sorted(m for m in sys.modules if m.startswith("pipeline.cli.")), file=sys.stderr)
"""


def fresh(code: str, *args: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh Python process (nothing of the CLI imported yet), with a wide help."""
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env)


def declared_names() -> list[str]:
    """Every command and command group name the command modules declare."""
    from pipeline.cli.app import command_modules

    return [name for names in command_modules().values() for name in names]


def test_each_command_module_registers_the_names_it_declares():
    """Imported alone, in the declared order, each command module registers exactly the names it declares (the
    build module's in pipeline/cli/app.py, each package's in its manifest): a command is found by its name."""
    from pipeline.cli.app import command_modules

    done = fresh(REGISTERED_BY_EACH)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {module: sorted(names) for module, names in command_modules().items()}


@pytest.mark.parametrize("name", declared_names())
def test_a_command_called_by_name_imports_its_module_alone(name):
    from pipeline.cli.app import module_of

    done = fresh(CALLED_BY_NAME, name, "--help")
    assert done.returncode == 0 and done.stdout.split()[:3] == ["Usage:", "wordstats", name], done
    assert done.stderr.split() == sorted({"pipeline.cli.app", "pipeline.cli.options", str(module_of(name))})


def test_the_help_and_a_misspelt_name_see_every_command():
    from pipeline.cli import whole_app
    from pipeline.cli.app import command_name

    app = whole_app()
    registered = [command_name(c) for c in app.registered_commands] + [str(g.name) for g in app.registered_groups]
    assert sorted(registered) == sorted(declared_names())
    done = fresh(CALLED_BY_NAME, "--help")
    assert re.findall(r"^│ ([a-z][a-z-]*) ", done.stdout, re.M) == registered, done.stdout
    done = fresh(CALLED_BY_NAME, "hangmn")
    assert done.returncode == 2 and "Did you mean 'hangman'" in done.stderr, done.stderr


def test_the_cyclic_collector_is_back_when_the_command_runs(monkeypatch):
    import gc
    import importlib

    cli_app = importlib.import_module("pipeline.cli.app")  # the module (pipeline.cli.app is also the App)
    seen = {}
    monkeypatch.setattr(
        cli_app, "app_for", lambda args: lambda: seen.update(on=gc.isenabled(), frozen=gc.get_freeze_count())
    )
    monkeypatch.setattr(sys, "argv", ["wordstats", "info"])
    try:
        cli_app.main()
    finally:
        gc.unfreeze()
    assert seen["on"] and seen["frozen"] > 0  # the modules' objects left out, the command's garbage collected


@pytest.mark.slow
def test_the_app_for_one_command_answers_as_the_whole_app():
    from typer.testing import CliRunner

    from pipeline.cli import whole_app
    from pipeline.cli.app import app_for, command_name

    app = whole_app()
    names = [g.name for g in app.registered_groups] + [command_name(c) for c in app.registered_commands]
    assert len(names) == len(set(names)) > 15
    called = [[name] for name in names] + [
        [str(g.name), command_name(c)] for g in app.registered_groups for c in g.typer_instance.registered_commands
    ]
    for words in called + [["scrabble", "bst"], ["boggle"]]:
        slim = app_for(words)
        assert slim is not app and len(slim.registered_groups) + len(slim.registered_commands) == 1
        for args in (words + ["--help"], words + ["--no-such-option"]):
            ours, theirs = CliRunner().invoke(slim, args), CliRunner().invoke(app, args)
            assert (ours.exit_code, ours.stdout, ours.stderr) == (theirs.exit_code, theirs.stdout, theirs.stderr)
    assert app_for(["anagrm"]) is app and app_for(["--help"]) is app and app_for([]) is app
    assert len(app_for(["scrabble", "best"]).registered_groups[0].typer_instance.registered_commands) == 1

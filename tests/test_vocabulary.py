"""One voice for the CLI: the vocabulary rules over every command (found by walking the click app), every
command under each class of bad argument, damaged tables of each kind (unbounded sources: tests/test_limits.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import hypothesis
import polars as pl
import pytest
import typer
import typer.core
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from typer._click import types as click_types

from pipeline.cli import whole_app
from tests.conftest import ROOT, SMALL_CONFIG, run_cli
from tests.support.vocabulary import WORDS, data_fixture  # noqa: F401  (the data fixture)


def commands() -> dict:
    """Every leaf command of the app by its full name ('anagram', 'boggle solve', ...)."""
    found: dict = {}

    def walk(cmd, prefix: str) -> None:
        """Collect leaves under `cmd`."""
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                walk(sub, f"{prefix} {name}".strip())
        else:
            found[prefix] = cmd

    walk(typer.main.get_command(whole_app()), "")
    return found


COMMANDS = commands()


def options(cmd) -> dict:
    """A command's options by their long name."""
    return {
        next(o for o in p.opts if o.startswith("--")): p
        for p in cmd.params
        if isinstance(p, typer.core.TyperOption) and any(o.startswith("--") for o in p.opts)
    }


# ---- the vocabulary, over every command -----------------------------------------------------------


OLD_NAMES = {"--top", "--count", "--export", "--hardest", "--min-length", "--max-length"}
BUILD_RULES = {"run": {"--min-length", "--max-length"}}  # an ad hoc list's ingest rules, not a query filter
BOARD_RULES = {"--min-length"}  # Boggle's shortest word is a rule of the game, not a length filter


def test_every_command_is_found():
    assert {"run", "info", "sql", "anagram", "words", "hunt", "pattern", "hooks", "word", "stems", "stem"} <= set(
        COMMANDS
    )
    assert {"boggle solve", "boggle score", "boggle random", "boggle best", "hangman", "wordlist"} <= set(COMMANDS)
    assert {"scrabble best", "scrabble score"} <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_one_name_per_idea(name):
    opts = set(options(COMMANDS[name]))
    allowed = BUILD_RULES.get(name, set()) | (BOARD_RULES if name.startswith("boggle") else set())
    assert not (opts & OLD_NAMES) - allowed, f"{name} uses {sorted((opts & OLD_NAMES) - allowed)}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_json_help_says_array_or_object(name):
    opt = options(COMMANDS[name]).get("--json")
    if opt is not None:
        assert "JSON array" in opt.help or "JSON object" in opt.help, name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_listings_have_limit_json_and_csv(name):
    opts = options(COMMANDS[name])
    if "--limit" in opts:
        assert {"--json", "--csv"} <= set(opts), name
        limit = opts["--limit"]
        assert isinstance(limit.type, click_types.IntRange) and limit.type.min == 0 and limit.type.max, name


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"make-rules"}))  # make-rules: make's own rules file
def test_out_comes_with_force(name):
    opts = options(COMMANDS[name])
    if "--out" in opts:
        assert "--force" in opts and "replace" in opts["--force"].help, name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_count_seed_and_size_has_a_range(name):
    for long, opt in options(COMMANDS[name]).items():
        if opt.type is click_types.INT or isinstance(opt.type, click_types.IntRange):
            assert isinstance(opt.type, click_types.IntRange) and opt.type.max is not None, f"{name} {long}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_length_is_a_number_or_a_range(name):
    opt = options(COMMANDS[name]).get("--length")
    if opt is not None:
        assert opt.type is click_types.STRING or isinstance(opt.type, click_types.StringParamType), name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_names_what_each_option_takes(name):
    for long, opt in options(COMMANDS[name]).items():
        if not opt.is_flag and (opt.type is click_types.STRING or isinstance(opt.type, click_types.StringParamType)):
            assert opt.metavar, f"{name} {long}: help would show <str>; give a metavar (a NAME, or [a|b|c] choices)"


def typer_calls(path: Path) -> list[str]:
    """The typer.Option / typer.Argument calls a module makes (by either spelling), as 'name:line'."""
    import ast

    tree = ast.parse(path.read_text())
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "typer"
        for alias in node.names
        if alias.name in ("Option", "Argument")
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        direct = (
            isinstance(f, ast.Attribute) and f.attr in ("Option", "Argument") and getattr(f.value, "id", "") == "typer"
        )
        if direct or (isinstance(f, ast.Name) and f.id in imported):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_commands_take_their_options_from_the_vocabulary():
    """No command module writes a typer option: every option and argument is a Field (pipeline/core/fields.py,
    the games' api and options modules), built into typer's by pipeline/cli/options.py; the app's own --version
    is the one option of the root."""
    cli = ROOT / "pipeline" / "cli"
    calls = {p.name: typer_calls(p) for p in sorted(cli.glob("*.py")) if p.name != "options.py"}
    assert len(calls["app.py"]) == 1, calls["app.py"]  # --version
    assert not [c for name, found in calls.items() if name != "app.py" for c in found]
    assert typer_calls(cli / "options.py"), "the builder of typer options is found"


def test_requests_declare_their_options():
    """Every request a command takes is a frozen dataclass whose options are its fields, declared with option():
    each Field is named for a field and takes its default, a required option is a field with no default, and the
    command line's options come in the request's order."""
    import dataclasses

    from pipeline.cli.app import whole_app
    from pipeline.core.errors import WordstatsError
    from pipeline.core.fields import MAX_LIMIT, fields_of
    from pipeline.scrabble import api as scrabble

    def commands(group):
        yield from group.registered_commands
        for g in group.registered_groups:
            yield from commands(g.typer_instance)

    requests = set()
    for c in commands(whole_app()):
        request = getattr(c.callback, "request", None)
        if request is not None:
            requests.add(request)
    assert len(requests) >= 12, sorted(r.__name__ for r in requests)
    for request in requests:
        assert dataclasses.is_dataclass(request) and request.__dataclass_params__.frozen, request.__name__
        declared = {f.name: f for f in dataclasses.fields(request)}
        for f in fields_of(request):
            field = declared[f.name]
            no_default = field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
            assert f.required == no_default, (request.__name__, f.name)
            if not no_default and not f.many:
                assert f.default == field.default, (request.__name__, f.name)
    best = fields_of(scrabble.BestRequest)
    assert [f.flag for f in best][:6] == ["--rack", "--board", "--empty", "--variant", "--limit", "--equity"]
    assert [f.flag for f in best][6:] == ["--sim", "--candidates", "--seed"]
    assert scrabble.BestRequest(rack="QI", limit=best[4].value(0)).limit == MAX_LIMIT  # 0 = all
    with pytest.raises(WordstatsError, match="--seed goes with --sim"):
        scrabble.BestRequest(rack="QI", seed=3)


def test_help_states_the_defaults_the_code_uses():
    """An option whose default is decided in the code (its request holds None) says that default in its help from
    the constant the code uses, so the two cannot drift apart."""
    from pipeline.boggle import requests as boggle
    from pipeline.core.api import Build
    from pipeline.core.config import MAX_WORD_LENGTH
    from pipeline.core.fields import fields_of
    from pipeline.scrabble import requests as scrabble
    from pipeline.wordlists.fields import BY_NAME, MIN_FIND_RATE

    def help_of(request, name):
        return next(f.help for f in fields_of(request) if f.name == name)

    assert f"(default {scrabble.SIM_CANDIDATES})" in help_of(scrabble.BestRequest, "candidates")
    assert f"(default {scrabble.SIM_SEED})" in help_of(scrabble.BestRequest, "seed")
    assert f"(default {scrabble.REFERENCE_BLOCK})" in help_of(scrabble.PlayabilityRun, "block")
    assert f"(default {boggle.PROOF_BLOCK})" in help_of(boggle.ProveRequest, "block")
    assert "(default 4x4, " in help_of(boggle.BestRequest, "size") and boggle.BEST_SIZE == (4, 4)
    assert f"(default {MAX_WORD_LENGTH})" in help_of(Build, "max_length")
    assert f"(default {MIN_FIND_RATE:g})" in BY_NAME["min_find_rate"].help


def test_version():
    res = run_cli("--version")
    assert res.exit_code == 0 and res.stdout.startswith("wordstats ")


# ---- every command, each class of bad argument -------------------------------------------------------


BASE = {  # arguments that make each command valid and quick
    "info": [],
    "sql": ["SELECT word FROM words"],
    "anagram": ["RETAINS"],
    "words": ["RETAINS"],
    "hunt": ["RETAINS"],
    "pattern": ["R?T*"],
    "hooks": ["RETAINS"],
    "word": ["RETAINS"],
    "stems": [],
    "stem": ["RETAIN"],
    "boggle solve": ["PERSLATGSINETERS"],
    "boggle score": ["PERSLATGSINETERS"],
    "boggle random": ["--sample", "3"],
    "boggle best": ["--minutes", "0.001", "--steps", "50", "--size", "3x3"],
    "hangman": [],
    "wordlist": ["--length", "3-5", "--allow-all"],
    "scrabble best": ["--empty", "--rack", "RETAINS"],
    "scrabble score": ["--empty", "--play", "8H RETAINS"],
    "scrabble play": ["--empty", "--play", "8H RETAINS"],
    "scrabble selfplay": ["--games", "1"],
    "boggle prove": ["--size", "2x2", "--floor", "6", "--classes", "AE RST", "--workers", "1"],
    "judge": ["RETAINS"],
    "study": [
        "--length",
        "3",
        "--to",
        "3",
        "--out",
        str(Path(tempfile.gettempdir()) / "wordstats-cards.csv"),
        "--force",
    ],
}
WORD_ARGS = ["", "retains", "ÀÉÎÕÜ", "ABCDEFGHIJKLMNOPQRST", "*" * 40, "?" * 20, "A" * 5000, "nan", "a\x00b", "8H"]
VALUES = ["", "nan", "-1", "0", "inf", "1e400", "99999999999999999999999", "ÿ", "*" * 40, "MOBY", "mboy"]
SKIP_OPTIONS = {"--config", "--data-dir", "--help", "--out", "--gcg-dir", "--reference"}  # options naming what to write


def cases() -> list[tuple[str, list[str]]]:
    """(command, arguments) for every command: each bad positional, and each bad value of each option."""
    out = []
    for name, base in BASE.items():
        cmd = COMMANDS[name]
        takes_word = any(isinstance(p, typer.core.TyperArgument) for p in cmd.params) and name not in ("sql", "info")
        if takes_word:
            out += [(name, [w, *base[1:]]) for w in WORD_ARGS]
        for long, opt in options(cmd).items():
            if opt.is_flag or long in SKIP_OPTIONS:
                continue
            out += [(name, [*base, long, v]) for v in VALUES]
    out += [("sql", [q]) for q in ("", "SELECT * FROM nope", "SELECT 1/0", "DROP TABLE words", "SELECT '\x00'")]
    return out


CASES = cases()


def check_clean(res, args) -> None:
    """A clean outcome: exit 0 (maybe an empty result with a note), or exit 2 with one error line."""
    assert "Traceback" not in res.stderr + res.stdout, (args, res)
    if res.exit_code == 0:
        return
    if res.exit_code == 1 and res.stdout.startswith("illegal: "):  # scrabble score's verdict on a play
        assert len(res.stdout.strip().splitlines()) == 1, (args, res)
        return
    if res.exit_code == 1 and res.stdout.rstrip().endswith(" NOT ACCEPTABLE in t"):  # judge's verdict on words
        assert not res.stderr, (args, res)
        return
    lines = res.stderr.strip().splitlines()
    assert res.exit_code in (1, 2) and len(lines) == 1 and lines[0].startswith(("error: ", "illegal: ")), (args, res)


def test_bad_arguments_count():
    assert len(CASES) > 900  # the closing note reports this number
    print(f"bad-argument cases: {len(CASES)}")


BAD_ARGUMENT_EXAMPLES = 12  # cases drawn per command and run (of about 50 each; new ones at every run)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BASE))
@hypothesis.settings(max_examples=BAD_ARGUMENT_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.data())
def test_every_command_with_each_class_of_bad_argument(data, name, case):
    args = case.draw(st.sampled_from([args for command, args in CASES if command == name]), label="args")
    res = run_cli(*name.split(), *args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    check_clean(res, [name, *args])


@pytest.mark.parametrize(
    "args, says",
    [
        (["anagram", "RETAINS", "--lexicon", "mboy"], "did you mean"),
        (["wordlist", "--preset", "spellng-k2"], "did you mean 'spelling-k2'"),
        (["scrabble", "best", "--empty", "--rack", "QI", "--variant", "wwff"], "did you mean 'wwf'"),
        (["boggle", "random", "--dice", "neww"], "did you mean 'new'"),
        (["stems", "--order", "usefulnes"], "did you mean 'usefulness'"),
    ],
)
def test_unknown_names_suggest(data, args, says):
    res = run_cli(*args, "--data-dir", data, "--config", SMALL_CONFIG, *([] if "--lexicon" in args else ["-l", "t"]))
    assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1, res


@pytest.mark.parametrize(
    "args",
    [
        ["scrabble", "best", "--empty", "--rack", "QI", "--variant", "WWF"],
        ["boggle", "random", "--dice", "NEW", "--sample", "2"],
        ["wordlist", "--preset", "Spelling-K2"],
        ["hangman", "--band", "HARD"],
        ["stems", "--order", "LETTERS"],
        ["anagram", "retains", "--lexicon", "T"],
    ],
)
def test_choices_ignore_case(data, args):
    res = run_cli(*args, "--data-dir", data, "--config", SMALL_CONFIG, *([] if "--lexicon" in args else ["-l", "t"]))
    assert res.exit_code == 0, res


@pytest.mark.parametrize(
    "args",
    [
        ["anagram", "XYZQ"],
        ["hangman", "--length", "40", "--limit", "3"],
        ["wordlist", "--starts-with", "QX", "--common"],
        ["scrabble", "best", "--empty", "--rack", "VVCCKQJ"],
        ["pattern", "QQQ*"],
        ["sql", "SELECT * FROM words WHERE false"],
    ],
)
def test_empty_results_exit_0_with_a_note(data, args):
    res = run_cli(*args, "--data-dir", data, "--config", SMALL_CONFIG, "-l", "t")
    assert res.exit_code == 0 and res.stderr.startswith("note: ") and res.stdout.strip() in ("", "[]"), res


def test_json_is_two_space_with_short_arrays_on_one_line(data):
    res = run_cli("boggle", "solve", "PERSLATGSINETERS", "--paths", "--json", "-l", "t", "--data-dir", data)
    text = res.stdout
    assert res.exit_code == 0 and isinstance(json.loads(text), dict)
    assert '\n  "' in text and '\n "' not in text  # two spaces a level
    paths = [line for line in text.splitlines() if '"path": ' in line]
    assert paths and all(line.strip().startswith('"path": [[') and line.rstrip(",").endswith("]]") for line in paths)
    assert len(text.splitlines()) <= 8 + 5 * len(paths)  # a word in five lines, its path in one
    res = run_cli("anagram", "RETAINS", "--json", "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert isinstance(json.loads(res.stdout), list)


def test_blanks_are_marked_explicitly(data):
    rows = json.loads(run_cli("anagram", "RETAIN?", "--json", "-l", "t", "--data-dir", data).stdout)
    assert rows and all("blanks" in r for r in rows)


def test_plural_summaries(data):
    res = run_cli(
        "boggle", "best", "--minutes", "0.001", "--steps", "50", "--size", "2x2", "-l", "t", "--data-dir", data
    )
    assert res.exit_code == 0 and " 1 words" not in res.stdout and " 1 points" not in res.stdout


def test_limit_caps_terminal_output_and_zero_means_all(data):
    res = run_cli("pattern", "*", "--limit", "3", "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert len(res.stdout.splitlines()) == 5 and "showing 3 of" in res.stderr
    every = run_cli("pattern", "*", "--limit", "0", "--json", "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert len(json.loads(every.stdout)) == len(set(WORDS))


def test_out_refuses_to_overwrite(data, tmp_path):
    target = tmp_path / "list.csv"
    target.write_text("keep me")
    for args in (["stems", "--out", target], ["wordlist", "--length", "3", "--out", target]):
        res = run_cli(*args, "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
        assert res.exit_code == 2 and "--force" in res.stderr and target.read_text() == "keep me", res
    res = run_cli("stems", "--out", target, "--force", "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 0 and target.read_text() != "keep me"


# ---- damaged tables -------------------------------------------------------------------------------------


def damage(path: Path, kind: str) -> None:
    """Damage a Parquet table in one of five ways."""
    if kind == "missing":
        path.unlink()
    elif kind == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif kind == "garbage":
        path.write_bytes(os.urandom(2048))
    elif kind == "wrong_schema":
        pl.DataFrame({"nothing": [1, 2], "useful": ["a", "b"]}).write_parquet(path)
    elif kind == "wrong_types":
        df = pl.read_parquet(path)
        df.select([_stringify(df, c) for c in df.columns]).write_parquet(path)


def _stringify(df: pl.DataFrame, column: str) -> pl.Expr:
    """The column as text (lists and structs as JSON-ish text): right names, wrong types."""
    dtype = df.schema[column]
    if isinstance(dtype, (pl.List, pl.Struct, pl.Array)):
        return pl.col(column).map_elements(str, return_dtype=pl.String)
    return pl.col(column).cast(pl.String) if dtype != pl.String else pl.col(column).str.len_chars()


KINDS = ["missing", "truncated", "garbage", "wrong_schema", "wrong_types"]
QUERIES = {k: v for k, v in BASE.items() if k not in ("boggle best", "boggle prove", "scrabble selfplay")}  # searches


DAMAGE_EXAMPLES = 40  # (damage, table, command) triples drawn per run, of about 2,500 (new ones at every run)


@pytest.mark.slow
@hypothesis.settings(max_examples=DAMAGE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.data())
def test_damaged_tables_give_one_line_errors(data, case):
    """Any query command on a lexicon with any one table damaged in any way ends cleanly: an answer, or one
    line naming the table (every damage of every table against the store's read path: tests/test_damaged.py)."""
    tables = sorted(p.name for p in (data / "t").glob("*.parquet"))
    kind = case.draw(st.sampled_from(KINDS), label="damage")
    table = case.draw(st.sampled_from(tables), label="table")
    name = case.draw(st.sampled_from(sorted(QUERIES)), label="command")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "out"
        shutil.copytree(data, copy)
        (copy / "t" / "manifest.json").unlink(missing_ok=True)
        damage(copy / "t" / table, kind)
        res = run_cli(*name.split(), *QUERIES[name], "--lexicon", "t", "--data-dir", copy, "--config", SMALL_CONFIG)
    check_clean(res, [name, table, kind])
    if res.exit_code == 2 and kind != "missing":
        assert "rebuild" in res.stderr or "SQL" in res.stderr or "not found" in res.stderr, (name, res)


# ---- what the output looks like -----------------------------------------------------------------------


def test_word_prints_multi_row_facts_as_rows(data):
    res = run_cli("word", "RETAINS", "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 0, res
    sections = {block.splitlines()[0]: block.splitlines()[1:] for block in res.stdout.strip().split("\n\n")}
    boggle = next(lines for title, lines in sections.items() if title.startswith("boggle_words: "))
    rows = pl.read_parquet(data / "t" / "boggle_words.parquet").filter(pl.col("word") == "RETAINS")
    assert rows.height > 1 and boggle[0].split() == rows.columns and len(boggle) == 2 + rows.height
    assert [line.split()[1] for line in boggle[2:]] == rows["dice"].to_list()  # one line per row
    assert sections["words"][0].split() == ["column", "value"]  # one row: read top to bottom
    assert not re.search(r"\d\.\d*0000000\d", res.stdout)  # no float noise such as 0.004220000000000001


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        '{"tables": 5}',
        '{"tables": {"words.parquet": 3}}',
        '{"tables": {"words.parquet": {"bytes": "x", "stage": 5}}}',
        "garbage{",
        '"\\u0000"',
    ],
)
def test_a_manifest_of_the_wrong_shape_is_rebuilt(data, tmp_path, text):
    copy = tmp_path / "out"
    shutil.copytree(data, copy, ignore=shutil.ignore_patterns("jobs"))
    (copy / "t" / "manifest.json").write_text(text)
    for args in (["info"], ["hooks", "RETAINS"], ["sql", "SELECT count(*) AS n FROM words"]):
        res = run_cli(*args, "-l", "t", "--data-dir", copy, "--config", SMALL_CONFIG)
        check_clean(res, [*args, text])
        assert res.exit_code == 0, res
    rebuilt = json.loads((copy / "t" / "manifest.json").read_text())
    assert rebuilt["tables"]["words.parquet"]["stage"] == "ingest"


@pytest.mark.parametrize("name", sorted(n for n in BASE if "--json" in options(COMMANDS[n])))
def test_every_json_is_indented_two_spaces(data, name):
    res = run_cli(*name.split(), *BASE[name], "--json", "-l", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    if res.exit_code == 1 and name == "judge":
        res.exit_code = 0  # a word not valid: still JSON
    assert res.exit_code == 0, res
    parsed = json.loads(res.stdout)
    help_text = options(COMMANDS[name])["--json"].help
    assert isinstance(parsed, list if "JSON array" in help_text else dict), (name, help_text)
    for line in res.stdout.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, (name, line)
        if line.strip().startswith("[") and line.strip().endswith(("]", "],")):
            assert len(line.strip()) <= 120, (name, line)  # a short array on one line, a long one wrapped

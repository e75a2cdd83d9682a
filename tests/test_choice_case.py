"""Choice names in any case: every choice of every command's options, in lower, upper and title case, parses
where it is given to the same canonical value (all of them, in process), so no filter, sheet or page sees another
spelling; and whole commands, sampled with a budget, print (or write) the same for a choice in upper or title case
as in lower case: the Field choices, the presets, the lexicon, the variant, the dice and the orders named in the
config."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DEFAULT_CONFIG, ROOT, run_cli
from tests.support.cli_docs import commands
from tests.support.datasets import default_data

CASES = {"upper": str.upper, "title": str.title}
SHEET_OPTIONS = ("--sheet", "--paper", "--font", "--difficulty")  # what a printed sheet shows, not the list


def fields_of_command(cmd) -> tuple:
    """The Fields a command was declared with (pipeline/cli/options.py `command`), or none."""
    fn = cmd.callback
    while fn is not None and not hasattr(fn, "fields"):
        fn = getattr(fn, "__wrapped__", None)
    return getattr(fn, "fields", ())


def choice_fields() -> list[tuple[str, object]]:
    """(command, Field) for every option of every command that takes one of a set of names."""
    return [(name, f) for name, cmd in commands().items() for f in fields_of_command(cmd) if f.choices]


def test_every_choice_of_every_command_parses_to_its_name_in_any_case():
    checked = 0
    for command, f in choice_fields():
        for choice in f.choices:
            want = f.value(choice)
            for case in (str.lower, *CASES.values()):
                given = case(choice)
                assert f.value([given] if f.many else given) == ([want] if f.many else want), (command, f.flag, given)
                checked += 1
    assert checked >= 3 * 97  # 97 choices in 17 options of 5 commands when this was written


def config_names() -> list[tuple[str, ...]]:
    """Commands naming something the config declares: each preset, and a lexicon, variant, dice set and orders."""
    presets = tomllib.loads((ROOT / "configs" / "wordlists.toml").read_text())["presets"]
    runs = [("wordlist", "--limit", "20", "--preset", name) for name in presets]
    return runs + [
        ("anagram", "retains", "--lexicon", "scowl"),
        ("scrabble", "score", "--empty", "--play", "8H RETAINS", "--variant", "scrabble"),
        ("boggle", "random", "--sample", "2", "--seed", "3", "--dice", "new"),
        ("stems", "--limit", "5", "--order", "letters"),
        ("hangman", "--limit", "5", "--band", "hard"),
    ]


def field_runs() -> list[tuple[str, ...]]:
    """A whole command for each choice of the word-list and study commands' options."""
    runs: list[tuple[str, ...]] = []
    for command, f in choice_fields():
        for choice in f.choices:
            if command == "wordstats wordlist" and f.flag in SHEET_OPTIONS:
                runs.append(("wordlist", "--length", "4", "--sample", "8", "--seed", "1", f.flag, choice.lower()))
            elif command == "wordstats wordlist":
                runs.append(("wordlist", "--length", "4-5", "--limit", "30", f.flag, choice.lower()))
            elif command in ("wordstats anagram", "wordstats words"):
                runs.append(
                    (command.split()[1], "RETAIN?" if "words" in command else "RETAINS", f.flag, choice.lower())
                )
    return runs


RUNS = field_runs() + config_names()


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """The default config's data folder with the teacher lexicon's words, indexes, Hangman and phonics."""
    return default_data(
        tmp_path_factory, {"scowl": ("ingest", "indexes", "phonics", "hangman", "hangman_children", "stems")}
    )


def outcome(data: Path, args: tuple[str, ...], out: Path) -> tuple:
    """A command's exit code, output and first error line (lower-cased: it may quote the name as given), and the
    bytes of the sheet it wrote, when it printed one."""
    sheet = any(a in SHEET_OPTIONS for a in args)
    more = ("--out", out, "--force") if sheet else ()
    lexicon = () if "--lexicon" in args else ("--lexicon", "scowl")
    res = run_cli(*args, *more, *lexicon, "--data-dir", data, "--config", DEFAULT_CONFIG)
    assert "Traceback" not in res.stderr, res
    first = (res.stderr.strip().splitlines() or [""])[0].lower()
    return res.exit_code, res.stdout, first, out.read_bytes() if sheet and res.exit_code == 0 else b""


@pytest.mark.slow  # builds the teacher lexicon's stages
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=st.sampled_from(RUNS), case=st.sampled_from(sorted(CASES)))
def test_a_command_answers_the_same_for_a_name_in_any_case(data, tmp_path_factory, run, case):
    tmp = tmp_path_factory.mktemp("case")
    *head, name = run
    lower = outcome(data, (*head, name.lower()), tmp / "lower.pdf")
    other = outcome(data, (*head, CASES[case](name)), tmp / "other.pdf")
    assert other == lower, (run, case)


def test_the_sampled_runs_cover_every_choice_and_preset():
    assert len(RUNS) >= 90 + 45

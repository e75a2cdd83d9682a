"""The docs against the product: every built table's columns and types are in docs/tables.md, every command
and option is in docs/cli.md, every example in a `console` block of the README and docs/ runs, and so does every
Python example in a `pycon` block (docs/python-api.md)."""

from __future__ import annotations

import doctest
import functools
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import DEFAULT_CONFIG, ROOT, Result, build_lexicon, run_cli
from tests.support.cli_docs import commands, long_options
from tests.support.datasets import default_data as shared_default_data
from tests.support.docs import TABLES_MD, column_rows, sections

DOCS = ROOT / "docs"
CLI_MD = DOCS / "cli.md"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 200
SHARED_OPTIONS = "Options every command shares"  # the docs/cli.md section that documents them once
LEXICON = "t"


# ---- helpers ---------------------------------------------------------------------------------------------


def short_type(dtype: pl.DataType) -> str:
    """A polars type as docs/tables.md writes it: str, u32, f64, list[str], struct{a: str, b: u8}."""
    if isinstance(dtype, pl.List):
        return f"list[{short_type(dtype.inner)}]"
    if isinstance(dtype, pl.Struct):
        return "struct{" + ", ".join(f"{f.name}: {short_type(f.dtype)}" for f in dtype.fields) + "}"
    names = {
        pl.String: "str",
        pl.Boolean: "bool",
        pl.UInt8: "u8",
        pl.UInt16: "u16",
        pl.UInt32: "u32",
        pl.UInt64: "u64",
        pl.Int8: "i8",
        pl.Int16: "i16",
        pl.Int32: "i32",
        pl.Int64: "i64",
        pl.Float32: "f32",
        pl.Float64: "f64",
        pl.Date: "date",
        pl.Datetime: "datetime",
    }
    for cls, name in names.items():
        if dtype == cls:
            return name
    return str(dtype)


def stage_files() -> list[str]:
    """Every file a stage of the registry writes."""
    from pipeline.core.stages import STAGES

    return [name for s in STAGES for name in s.outputs]


def cli_sections() -> dict[str, str]:
    """docs/cli.md's text per command heading (any level), keyed by the command (`wordstats boggle solve`)."""
    parts = re.split(r"^#+ (.+)$", CLI_MD.read_text(), flags=re.M)
    return {parts[i].strip().strip("`"): parts[i + 1] for i in range(1, len(parts), 2)}


def code_blocks(path: Path) -> list[tuple[str, str, int]]:
    """The fenced code blocks of a Markdown file: (info string, body, line number of the fence)."""
    out, lines = [], path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(.*)$", lines[i])
        if m:
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((m.group(1).strip(), "\n".join(body), start))
        i += 1
    return out


@dataclass(frozen=True)
class Example:
    """One `$ wordstats ...` line of a ```console block and the output shown under it."""

    page: str
    line: int
    command: str
    code: int  # the exit code it must end with: a trailing `# exit N` comment, else 0
    output: tuple[str, ...]


def examples() -> list[Example]:
    """Every example of every ```console block of the README and docs/, with the lines up to the next `$ `."""
    out = []
    for page in PAGES:
        for info, body, start in code_blocks(page):
            if info != "console":
                continue
            lines = body.splitlines()
            for k, line in enumerate(lines):
                if line.startswith("$ wordstats "):
                    code = re.search(r"#\s*exit (\d+)\s*$", line)
                    shown = []
                    for later in lines[k + 1 :]:
                        if later.startswith("$ "):
                            break
                        shown.append(later)
                    out.append(
                        Example(page.name, start + k + 1, line[2:], int(code.group(1)) if code else 0, tuple(shown))
                    )
    return out


# Placeholders an example's output may use where the output varies between runs (docs/development.md).
PLACEHOLDERS = {
    "<TIME>": r"[0-9][0-9.,]* ?(?:s|ms|µs|min|h)",
    "<NUMBER>": r"-?[0-9][0-9.,]*",
    "<PATH>": r"\S+",
    "<TEXT>": r".*",
}
ELLIPSIS = "..."  # a line of its own: any number of lines


def line_pattern(expected: str) -> re.Pattern:
    """The regex of one expected output line: literal text, placeholders as their patterns."""
    parts = re.split("(" + "|".join(map(re.escape, PLACEHOLDERS)) + ")", expected.rstrip())
    return re.compile("".join(PLACEHOLDERS.get(p, re.escape(p)) for p in parts) + r"\s*")


def output_matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether the lines printed match the lines shown (`...` lines match any run of lines)."""

    @functools.cache
    def match(i: int, j: int) -> bool:
        """expected[i:] against actual[j:]."""
        if i == len(expected):
            return j == len(actual)
        if expected[i].strip() == ELLIPSIS:
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line_pattern(expected[i]).fullmatch(actual[j]) is not None and match(i + 1, j + 1)

    return match(0, 0)


def example_files() -> dict[str, str]:
    """Files the examples read, from ```text file=NAME blocks (a Scrabble board, ...)."""
    files = {}
    for page in PAGES:
        for info, body, _ in code_blocks(page):
            m = re.match(r"^\w+\s+file=(\S+)$", info)
            if m:
                files[m.group(1)] = body + "\n"
    return files


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Every stage built for a small lexicon (every 20th moby word), via the real CLI."""
    base = tmp_path_factory.mktemp("docs")
    moby = (ROOT / "data" / "raw" / "moby-words.txt").read_text().split()
    return build_lexicon(base / "out", sorted(set(moby[::20])), lexicon=LEXICON)


# The stages the examples read, per lexicon of the default config (built once for the examples' test).
EXAMPLE_STAGES = {
    "enable": ["ingest", "indexes", "stems", "hangman", "gaddag", "leaves", "playability"],
    "scowl": ["ingest", "phonics", "hangman", "hangman_children"],
    "web2": ["ingest", "hangman"],
}


@pytest.fixture(scope="module")
def default_data(tmp_path_factory) -> Path:
    """The stages the examples read, built with the default config, as `make all` would (the session's shared
    data folder: other modules' stages are built there once too)."""
    return shared_default_data(tmp_path_factory, {name: tuple(stages) for name, stages in EXAMPLE_STAGES.items()})


# ---- tests -----------------------------------------------------------------------------------------------


def test_readme_is_short():
    n = len((ROOT / "README.md").read_text().splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines; keep it to {README_MAX_LINES}, move reference to docs/"


def test_every_stage_file_is_documented():
    documented = sections(TABLES_MD.read_text())
    missing = [name for name in stage_files() if name not in documented]
    assert not missing, f"docs/tables.md has no '## NAME' section for {missing}: add one with its columns"


@pytest.mark.slow  # builds every stage of a small lexicon
def test_built_tables_match_docs(built):
    documented = sections(TABLES_MD.read_text())
    problems = []
    for path in sorted((built / LEXICON).glob("*.parquet")):
        if path.name not in documented:
            problems.append(f"{path.name}: no '## {path.name}' section in docs/tables.md")
            continue
        actual = [(name, short_type(dtype)) for name, dtype in pl.read_parquet_schema(path).items()]
        doc = column_rows(documented[path.name])
        if actual != doc:
            missing = [f"`{c}` ({t})" for c, t in actual if (c, t) not in doc]
            extra = [f"`{c}` ({t})" for c, t in doc if (c, t) not in actual]
            order = "" if missing or extra else " (same columns, different order)"
            problems.append(
                f"{path.name}: columns differ from docs/tables.md{order}; "
                f"add or fix rows {missing}, remove or fix rows {extra}; the table has "
                + ", ".join(f"{c} {t}" for c, t in actual)
            )
    assert not problems, "\n".join(problems)


@pytest.mark.slow  # builds every stage of a small lexicon
def test_built_json_keys_are_documented(built):
    documented = sections(TABLES_MD.read_text())
    problems = []
    for path in sorted((built / LEXICON).glob("*.json")):
        section = documented.get(path.name)
        if section is None:
            problems.append(f"{path.name}: no '## {path.name}' section in docs/tables.md")
            continue
        named = set(re.findall(r"`([^`]+)`", section))
        data = json.loads(path.read_text())
        for key, value in data.items():
            if key in named:
                continue
            if isinstance(value, dict) and set(value) <= named:  # keyed by a name (a variant): its fields count
                continue
            problems.append(f"{path.name}: key `{key}` is not named in its docs/tables.md section")
    assert not problems, "\n".join(problems)


def test_every_command_and_option_is_in_cli_md():
    documented = cli_sections()
    shared = documented.get(SHARED_OPTIONS, "")
    problems = []
    for name, cmd in commands().items():
        if name == "wordstats":
            continue
        if name not in documented:
            problems.append(f"docs/cli.md has no heading for `{name}`: add '### `{name}`' with its options")
            continue
        for option in long_options(cmd):
            if option in ("--help", "-h"):
                continue
            if f"`{option}" not in documented[name] and f"`{option}" not in shared:
                problems.append(f"docs/cli.md: `{name}` does not document its option `{option}`")
    assert not problems, "\n".join(problems)


def test_cli_md_documents_only_real_commands():
    real = set(commands())
    stale = [h for h in cli_sections() if h.startswith("wordstats") and h not in real]
    assert not stale, f"docs/cli.md documents commands the CLI does not have: {stale}"


def test_examples_are_found():
    found = examples()
    assert len(found) >= 20, found  # the README tour and each page's examples
    assert any(e.page == "README.md" for e in found)


def test_every_example_shows_its_output():
    """Each console example states what it prints: a command printing nothing is shown with no lines, and a
    long output is cut with `...` lines, never left out."""
    bare = [f"{e.page}:{e.line}: `{e.command}`" for e in examples() if not e.output and not printless(e.command)]
    assert not bare, "examples that show no output:\n" + "\n".join(bare)


def printless(command: str) -> bool:
    """Whether the example says it prints nothing: a trailing `# prints nothing` comment."""
    return bool(re.search(r"#.*\bprints nothing\b", command))


def test_placeholders_match_what_they_say():
    """The output comparison: literal lines, <TIME>, <NUMBER>, <PATH>, <TEXT> and `...` lines."""
    assert output_matches(("a in <TIME>", "..."), ["a in 0.82 s", "b", "c"])
    assert output_matches(("x <NUMBER> y",), ["x 1,234 y"])
    assert not output_matches(("a in <TIME>",), ["a in soon"])
    assert not output_matches(("one", "two"), ["one"])
    assert output_matches(("...", "last"), ["first", "last"])


def run_example(command: str, data: Path) -> Result:
    """Run one documented example as a user would after `make all`: the default config, the data folder."""
    args = shlex.split(command, comments=True)[1:]
    return run_cli(*args, env={"WORDSTATS_DATA": str(data), "WORDSTATS_CONFIG": str(DEFAULT_CONFIG)})


def printed(res: Result) -> list[str]:
    """What a command printed, as a terminal shows it: standard error (its summary) then standard output."""
    return [line.rstrip() for line in (res.stderr + res.stdout).splitlines()]


@pytest.mark.slow  # builds the examples' stages with the default config
def test_every_console_example_prints_what_the_docs_show(default_data, tmp_path, monkeypatch):
    files = example_files()
    failures = []
    for i, e in enumerate(examples()):
        here = tmp_path / str(i)  # each example in a folder of its own: files it writes never meet another's
        here.mkdir()
        for name, text in files.items():
            (here / name).write_text(text)
        monkeypatch.chdir(here)
        res = run_example(e.command, default_data)
        if res.exit_code != e.code:
            failures.append(
                f"{e.page}:{e.line}: `{e.command}` exited {res.exit_code}, expected {e.code}: {res.stderr.strip()}"
            )
        elif not output_matches(e.output, printed(res)):
            shown = "\n".join(printed(res)[:40])
            failures.append(f"{e.page}:{e.line}: `{e.command}` printed something else:\n{shown}")
    assert not failures, "\n\n".join(failures)


def python_examples() -> list[tuple[Path, int, str]]:
    """The ```pycon blocks of the README and docs/: (page, line of the fence, the block's text)."""
    return [(page, line, body) for page in PAGES for info, body, line in code_blocks(page) if info == "pycon"]


def test_python_examples_are_found():
    found = python_examples()
    assert len(found) >= 4 and {page.name for page, _, _ in found} >= {"python-api.md"}


@pytest.mark.slow  # builds the examples' stages with the default config
def test_every_python_example_gives_what_the_docs_show(default_data, monkeypatch):
    """Each page's pycon blocks run in order in one namespace (doctest), on the data `make all` would build."""
    monkeypatch.setenv("WORDSTATS_DATA", str(default_data))
    monkeypatch.setenv("WORDSTATS_CONFIG", str(DEFAULT_CONFIG))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    shown: list[str] = []
    names: dict[Path, dict] = {}
    for page, line, body in python_examples():
        where = f"{page.relative_to(ROOT)}:{line}"
        test = doctest.DocTestParser().get_doctest(body, names.setdefault(page, {}), where, str(page), line)
        runner.run(test, out=shown.append, clear_globs=False)
        names[page].update(test.globs)  # a page's later blocks see what its earlier ones defined
    failed, tried = runner.summarize(verbose=False)
    assert tried >= 15 and failed == 0, "".join(shown)


def test_paths_the_docs_name_exist():
    missing = []
    for page in PAGES:
        for path in sorted(set(re.findall(r"`((?:pipeline|tests|configs|data/raw)/[\w./-]*\w)`", page.read_text()))):
            if "<" not in path and not (ROOT / path).exists():
                missing.append(f"{page.name}: `{path}` does not exist")
    assert not missing, "\n".join(missing)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_pages_resolve():
    anchors = {
        page.resolve(): {anchor(h) for h in re.findall(r"^#+ (.+)$", page.read_text(), flags=re.M)} for page in PAGES
    }
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"^[a-z]+:", target):
                continue  # a web address
            file, _, fragment = target.partition("#")
            path = (page.parent / file).resolve() if file else page.resolve()
            if not path.exists():
                broken.append(f"{page.name}: link to {target}: no file {file}")
            elif fragment and path in anchors and fragment not in anchors[path]:
                broken.append(f"{page.name}: link to {target}: no heading with anchor #{fragment} in {path.name}")
    assert not broken, "\n".join(broken)


def test_code_never_cites_an_issue_number():
    """Comments and docstrings say what the code does, not which issue asked for it."""
    files = [ROOT / "Makefile", *ROOT.glob("configs/*.toml"), *ROOT.glob("tests/configs/*.toml")]
    files += [p for folder in ("pipeline", "tests") for p in (ROOT / folder).rglob("*.py")]
    cited = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bissues? \d+|\(issues? \d", line, re.I) and p != Path(__file__).resolve()
    ]
    assert not cited, "say what the code does instead:\n" + "\n".join(cited)


def documented_options(section: str) -> list[str]:
    """The options an option table of a cli.md section documents: the `--name`s of its first column."""
    found = []
    for line in section.splitlines():
        if line.startswith("|"):
            first = line.strip().strip("|").split("|")[0]
            found += re.findall(r"`(--[a-z][a-z0-9-]*)", first)
    return found


def test_every_documented_option_is_real():
    """The other direction: each option cli.md documents for a command is an option of that command (or a
    shared one)."""
    documented = cli_sections()
    shared = set(documented_options(documented.get(SHARED_OPTIONS, "")))
    problems = []
    for name, cmd in commands().items():
        if name == "wordstats" or name not in documented:
            continue
        real = set(long_options(cmd))
        for cmd_opt in getattr(cmd, "params", []):
            real |= {o for o in getattr(cmd_opt, "secondary_opts", []) if o.startswith("--")}
        for option in documented_options(documented[name]):
            if option not in real and option not in shared:
                problems.append(f"docs/cli.md: `{name}` documents `{option}`, which it does not have")
    assert not problems, "\n".join(problems)

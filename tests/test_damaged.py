"""Damaged tables, as a careless hand or a failing disk leaves them: a column dropped or of another type, a
file cut short, garbage or empty. Every query and every stage that reads such a table stops with one line
naming the file and the command that rebuilds it (exit 2, no traceback, nothing changed), and that command
does rebuild it."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from pipeline.core.schemas import TABLES
from tests.conftest import SMALL_CONFIG, build_lexicon, run_cli

MOBY = Path(__file__).resolve().parents[1] / "data" / "raw" / "moby-words.txt"
EXTRA = tuple("RETAINS STAINER SATIRE STONE NOTES QUA QI ZA CAT ACT THE AND".split())
LEXICON = "t"
FAST_STAGES = ("ingest", "indexes", "stems")
SLOW_STAGES = ("boggle", "dictionary", "hangman", "gaddag", "scrabble", "phonics")

# the queries that read each table (every one exits 0 on the whole tables)
READERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "words": (("word", "STONE"), ("judge", "STONE"), ("wordlist", "--length", "5"), ("sql", "SELECT * FROM words")),
    "anagrams": (("anagram", "RETAINS"), ("word", "STONE"), ("sql", "SELECT * FROM anagrams")),
    "prefixes": (("word", "STONE"), ("sql", "SELECT * FROM prefixes")),
    "hooks": (("hooks", "STONE"), ("word", "STONE")),
    "stems": (("stems",), ("stem", "SATIRE"), ("word", "STONE")),
    "hangman": (("hangman", "STONE"), ("hangman", "--length", "5")),
    "boggle_boards": (("sql", "SELECT * FROM boggle_boards"),),
    "boggle_words": (("word", "STONE"), ("wordlist", "--length", "5", "--boggle-findable")),
    "boggle_best": (("sql", "SELECT * FROM boggle_best"),),
    "boggle_dictionary": (("boggle", "solve", "PERSLATGSINETERS"),),
    "gaddag": (("scrabble", "best", "--empty", "--rack", "RETAINS"),),
    "openings": (("word", "STONE"),),
    "selfplay": (("sql", "SELECT * FROM selfplay"),),
    "leaves": (("scrabble", "best", "--empty", "--rack", "RETAINS", "--equity"),),
    "phonics": (
        ("word", "STONE"),
        ("wordlist", "--children"),
        ("wordlist", "--grade", "1"),
        ("wordlist", "--syllables", "1"),
    ),
}
FAST_TABLES = ("words", "anagrams", "prefixes", "hooks", "stems")


def sample_words() -> list[str]:
    """Every 60th moby word and the words the queries name."""
    return sorted(set(MOBY.read_text().split()[::60]) | {w.lower() for w in EXTRA})


@pytest.fixture(scope="module")
def fast_data(tmp_path_factory) -> Path:
    """A data folder with the words, the indexes and the stems."""
    return build_lexicon(tmp_path_factory.mktemp("damaged") / "out", sample_words(), *FAST_STAGES)


@pytest.fixture(scope="module")
def full_data(tmp_path_factory) -> Path:
    """A data folder with every table (leave values from a short run of self-play)."""
    data = build_lexicon(tmp_path_factory.mktemp("damaged_all") / "out", sample_words(), *FAST_STAGES, *SLOW_STAGES)
    res = run_cli("scrabble", "leaves", "--games", "2", "--rounds", "1", *ask_args(data))
    assert res.exit_code == 0, res
    return data


def ask_args(data: Path) -> tuple:
    """The options that point a command at the test lexicon."""
    return ("--lexicon", LEXICON, "--data-dir", data, "--config", SMALL_CONFIG)


# ---- the damages ---------------------------------------------------------------------------------


def other_type(dtype: pl.DataType) -> pl.DataType:
    """A type a column of `dtype` is not."""
    return pl.Int64() if dtype == pl.String else pl.String()


def drop(column: str) -> Callable[[Path], None]:
    """Rewrite the table without `column`."""

    def damage(path: Path) -> None:
        pl.read_parquet(path).drop(column).write_parquet(path)

    damage.__name__ = f"without-{column}"
    return damage


def retype(column: str, dtype: pl.DataType) -> Callable[[Path], None]:
    """Rewrite the table with `column` of another type (its values gone)."""

    def damage(path: Path) -> None:
        table = pl.read_parquet(path)
        table.with_columns(pl.lit(None, dtype=other_type(dtype)).alias(column)).write_parquet(path)

    damage.__name__ = f"{column}-as-{other_type(dtype)}"
    return damage


def cut_short(path: Path) -> None:
    """Keep the first half of the file."""
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage(path: Path) -> None:
    """Replace the file with text."""
    path.write_text("not a parquet file\n")


def emptied(path: Path) -> None:
    """Leave the file empty."""
    path.write_bytes(b"")


def damages(table: str) -> list[Callable[[Path], None]]:
    """Every damage of a table: each declared column dropped and of another type, then the whole file's."""
    columns = TABLES[table].items()
    return [drop(c) for c, _ in columns] + [retype(c, t) for c, (t, _) in columns] + [cut_short, garbage, emptied]


def cases(tables) -> list:
    """(table, damage, query) for parametrize."""
    return [
        pytest.param(table, damage, query, id=f"{table}-{damage.__name__}-{'_'.join(query[:2])}")
        for table in tables
        for damage in damages(table)
        for query in READERS[table]
    ]


# ---- checking a refusal ---------------------------------------------------------------------------


def digest(path: Path) -> str:
    """A file's sha256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(root: Path) -> dict[str, str]:
    """Every table file of a lexicon folder and its sha256 (the manifest aside: a run brings it up to date
    with the files, damaged ones included)."""
    return {
        p.name: digest(p)
        for p in sorted(root.iterdir())
        if p.is_file() and not p.name.startswith(".") and p.name != "manifest.json"
    }


def damaged_copy(data: Path, tmp_path: Path, table: str, damage) -> tuple[Path, Path]:
    """A copy of the data folder with one table damaged: (the copy, the damaged file)."""
    copy = tmp_path / "out"
    shutil.copytree(data, copy, ignore=shutil.ignore_patterns("jobs"))
    path = copy / LEXICON / f"{table}.parquet"
    damage(path)
    return copy, path


def assert_refused(res, path: Path, stage: str) -> str:
    """One line naming the file and the command that rebuilds it, exit 2, no traceback; that command."""
    assert res.exit_code == 2, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}"), res
    assert "Traceback" not in res.stderr + res.stdout
    command = re.search(r"rebuild it with `(wordstats run [^`]+)`", lines[0])
    assert command and command.group(1).split()[2] == stage and f"--lexicon {LEXICON}" in command.group(1), res
    return command.group(1)


def producer(table: str) -> str:
    """The stage that writes a table."""
    from pipeline.core.stages import producer as stage_of

    return stage_of(table).name


def check_query(data: Path, tmp_path: Path, table: str, damage, query: tuple) -> None:
    """A query on a damaged table is refused in one line and changes nothing."""
    assert run_cli(*query, *ask_args(data)).exit_code in (0, 1)  # the whole tables answer
    copy, path = damaged_copy(data, tmp_path, table, damage)
    before = snapshot(copy / LEXICON)
    assert_refused(run_cli(*query, *ask_args(copy)), path, producer(table))
    assert snapshot(copy / LEXICON) == before


# ---- queries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("table, damage, query", cases(FAST_TABLES))
def test_a_query_on_a_damaged_table_names_it_and_its_rebuild(fast_data, tmp_path, table, damage, query):
    check_query(fast_data, tmp_path, table, damage, query)


@pytest.mark.slow
@pytest.mark.parametrize("table, damage, query", cases([t for t in READERS if t not in FAST_TABLES]))
def test_a_query_on_any_damaged_table_names_it_and_its_rebuild(full_data, tmp_path, table, damage, query):
    check_query(full_data, tmp_path, table, damage, query)


def flipped_pages(path: Path) -> None:
    """Flip bytes inside the file's pages (its size, schema and footer kept), as a failing disk might."""
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 4, len(data) // 2, 997):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("table, query", [(t, q) for t in ("words", "anagrams", "hooks") for q in READERS[t]])
def test_a_table_damaged_in_place_is_never_a_traceback(fast_data, tmp_path, table, query):
    copy, path = damaged_copy(fast_data, tmp_path, table, flipped_pages)
    res = run_cli(*query, *ask_args(copy))
    assert "Traceback" not in res.stderr + res.stdout, res
    if res.exit_code == 2:  # a page that no longer decodes: the file named, found by its manifest's sha256
        assert_refused(res, path, producer(table))


def test_a_words_table_without_its_word_column_is_damaged_not_empty(fast_data, tmp_path):
    copy, path = damaged_copy(fast_data, tmp_path, "words", drop("word"))
    res = run_cli("word", "RETAINS", *ask_args(copy))
    assert "not a word" not in res.stdout + res.stderr
    assert_refused(res, path, "ingest")


def test_the_rebuild_command_rebuilds_the_table(fast_data, tmp_path):
    for table, query in (("words", ("word", "STONE")), ("anagrams", ("anagram", "RETAINS")), ("stems", ("stems",))):
        copy, path = damaged_copy(fast_data, tmp_path / table, table, cut_short)
        command = assert_refused(run_cli(*query, *ask_args(copy)), path, producer(table))
        args = command.split()[1:]
        res = run_cli(*args, "--data-dir", copy, "--config", SMALL_CONFIG, "--quiet")
        assert res.exit_code == 0, res
        assert run_cli(*query, *ask_args(copy)).exit_code == 0
        assert digest(path) == digest(fast_data / LEXICON / f"{table}.parquet")


# ---- stages ---------------------------------------------------------------------------------------


def stage_cases(slow: bool) -> list:
    """(stage, input table, damage) for parametrize: a declared column dropped, one of another type, a file
    cut short."""
    from pipeline.core.stages import STAGES

    out = []
    for s in STAGES:
        if s.name == "ingest" or (s.name in FAST_STAGES) == slow or s.name == "report":
            continue
        for table in s.inputs + s.optional_inputs:
            first, (dtype, _) = next(iter(TABLES[table].items()))
            for damage in (drop(first), retype(first, dtype), cut_short):
                out.append(pytest.param(s.name, table, damage, id=f"{s.name}-{table}-{damage.__name__}"))
    return out


def check_stage(data: Path, tmp_path: Path, stage: str, table: str, damage) -> None:
    """A stage whose input table is damaged stops in one line naming it, and writes nothing."""
    copy, path = damaged_copy(data, tmp_path, table, damage)
    before = snapshot(copy / LEXICON)
    res = run_cli("run", stage, "--quiet", *ask_args(copy))
    assert_refused(res, path, producer(table))
    assert snapshot(copy / LEXICON) == before


@pytest.mark.parametrize("stage, table, damage", stage_cases(slow=False))
def test_a_stage_with_a_damaged_input_names_it_and_writes_nothing(fast_data, tmp_path, stage, table, damage):
    check_stage(fast_data, tmp_path, stage, table, damage)


@pytest.mark.slow
@pytest.mark.parametrize("stage, table, damage", stage_cases(slow=True))
def test_every_stage_with_a_damaged_input_names_it_and_writes_nothing(full_data, tmp_path, stage, table, damage):
    check_stage(full_data, tmp_path, stage, table, damage)


@pytest.mark.slow
@pytest.mark.parametrize("table", ["words", "anagrams", "hangman", "openings"])
def test_the_report_stage_with_a_damaged_input_names_it(full_data, tmp_path, table):
    check_stage(full_data, tmp_path, "report", table, cut_short)


# ---- the declared schemas -------------------------------------------------------------------------


def test_every_table_a_stage_writes_has_a_declared_schema():
    from pipeline.core.stages import STAGES

    written = {name.removesuffix(".parquet") for s in STAGES for name in s.outputs if name.endswith(".parquet")}
    assert written == set(TABLES)


def test_the_declared_schemas_are_the_documented_ones():
    from pipeline.core.schemas import VARIANT_COLUMNS, type_name
    from tests.support.docs import TABLES_MD, column_rows, sections

    documented = sections(TABLES_MD.read_text())
    for table, columns in TABLES.items():
        rows = column_rows(documented[f"{table}.parquet"])
        assert rows == [(c, type_name(t)) for c, (t, _) in columns.items()], table
    assert set(VARIANT_COLUMNS) <= set(TABLES)


def test_a_stage_output_that_breaks_its_schema_is_never_written(tmp_path):
    from pipeline.core.store import Store

    store = Store(tmp_path, "lex")
    with pytest.raises(RuntimeError, match="column 'length' is str, its schema declares i32"):
        store.write({"words.parquet": pl.DataFrame({"word": ["A"], "length": ["1"]})}, {"stage": "ingest"})
    assert not (store.root / "words.parquet").exists()

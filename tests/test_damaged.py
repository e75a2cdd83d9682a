"""Damaged tables, as a careless hand or a failing disk leaves them: a column dropped or of another type, a
file cut short, garbage or empty. The store's read path, which every query and every stage reads a table
through, refuses every damage of every table with one line naming the file and the command that rebuilds it
(nothing changed); each query and each stage that reads a table, given it damaged, stops with that line (exit
2, no traceback, nothing changed); and that command does rebuild it."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from pipeline.core.errors import WordstatsError
from pipeline.core.schemas import TABLES
from pipeline.core.store import Store
from tests.conftest import SMALL_CONFIG, build_lexicon, run_cli

MOBY = Path(__file__).resolve().parents[1] / "data" / "raw" / "moby-words.txt"
EXTRA = tuple("RETAINS STAINER SATIRE STONE NOTES QUA QI ZA CAT ACT THE AND".split())
LEXICON = "t"
FAST_STAGES = ("ingest", "indexes", "stems")
SLOW_STAGES = ("boggle", "dictionary", "phonics", "hangman", "hangman_children", "gaddag", "scrabble", "gallery")

# the queries that read each table (every one exits 0 on the whole tables)
READERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "words": (("word", "STONE"), ("judge", "STONE"), ("wordlist", "--length", "5"), ("sql", "SELECT * FROM words")),
    "anagrams": (("anagram", "RETAINS"), ("word", "STONE"), ("sql", "SELECT * FROM anagrams")),
    "prefixes": (("word", "STONE"), ("sql", "SELECT * FROM prefixes")),
    "hooks": (("hooks", "STONE"), ("word", "STONE")),
    "stems": (("stems",), ("stem", "SATIRE"), ("word", "STONE")),
    "hangman": (
        ("hangman", "STONE"),
        ("hangman", "--length", "5"),
        ("wordlist", "--length", "5", "--sort", "difficulty"),
    ),
    "hangman_children": (("wordlist", "--children", "--hangman", "easy"),),
    "boggle_boards": (("sql", "SELECT * FROM boggle_boards"),),
    "boggle_words": (("word", "STONE"), ("wordlist", "--length", "5", "--boggle-findable")),
    "boggle_best": (("sql", "SELECT * FROM boggle_best"),),
    "boggle_dictionary": (("boggle", "solve", "PERSLATGSINETERS"),),
    "gaddag": (("scrabble", "best", "--empty", "--rack", "RETAINS"),),
    "openings": (("word", "STONE"),),
    "selfplay": (("sql", "SELECT * FROM selfplay"),),
    "leaves": (("scrabble", "best", "--empty", "--rack", "RETAINS", "--equity"),),
    "playability": (("wordlist", "--length", "5", "--sort", "playability"),),
    "gallery": (("sql", "SELECT * FROM gallery"),),
    "phonics": (
        ("word", "STONE"),
        ("wordlist", "--children"),
        ("wordlist", "--grade", "1"),
        ("wordlist", "--syllables", "1"),
    ),
}
FAST_TABLES = ("words", "anagrams", "prefixes", "hooks", "stems")
SLOW_TABLES = tuple(t for t in TABLES if t not in FAST_TABLES)


def sample_words() -> list[str]:
    """Every 60th moby word and the words the queries name."""
    return sorted(set(MOBY.read_text().split()[::60]) | {w.lower() for w in EXTRA})


@pytest.fixture(scope="module")
def fast_data(tmp_path_factory) -> Path:
    """A data folder with the words, the indexes and the stems."""
    return build_lexicon(tmp_path_factory.mktemp("damaged") / "out", sample_words(), *FAST_STAGES)


@pytest.fixture(scope="module")
def full_data(tmp_path_factory) -> Path:
    """A data folder with every table (leave values from a short run of self-play, and the playability they
    give)."""
    data = build_lexicon(tmp_path_factory.mktemp("damaged_all") / "out", sample_words(), *FAST_STAGES, *SLOW_STAGES)
    res = run_cli("scrabble", "leaves", "--games", "2", "--rounds", "1", *ask_args(data))
    assert res.exit_code == 0, res
    res = run_cli("run", "playability", "--quiet", *ask_args(data))
    assert res.exit_code == 0, res
    assert {p.stem for p in (data / LEXICON).glob("*.parquet")} == set(TABLES)
    return data


def ask_args(data: Path) -> tuple:
    """The options that point a command at the test lexicon."""
    return ("--lexicon", LEXICON, "--data-dir", data, "--config", SMALL_CONFIG)


# ---- the damages ---------------------------------------------------------------------------------

Damage = Callable[[Path], None]


def other_type(dtype: pl.DataType) -> pl.DataType:
    """A type a column of `dtype` is not."""
    return pl.Int64() if dtype == pl.String else pl.String()


def drop(column: str) -> Damage:
    """Rewrite the table without `column`."""

    def damage(path: Path) -> None:
        pl.read_parquet(path).drop(column).write_parquet(path)

    damage.__name__ = f"without-{column}"
    return damage


def retype(column: str, dtype: pl.DataType) -> Damage:
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


def damages(table: str) -> list[Damage]:
    """Every damage of a table: each declared column dropped and of another type, then the whole file's."""
    columns = TABLES[table].items()
    return [drop(c) for c, _ in columns] + [retype(c, t) for c, (t, _) in columns] + [cut_short, garbage, emptied]


def in_turn(table: str, k: int, kinds: tuple[str, ...]) -> Damage:
    """The `k`-th case's damage of a table, its kind in turn among `kinds` ("drop", "retype": a column's;
    "cut", "garbage", "empty": the file's), the column of a column's in turn too."""
    columns = list(TABLES[table].items())
    column, (dtype, _) = columns[k // len(kinds) % len(columns)]
    kind = kinds[k % len(kinds)]
    return {"drop": drop(column), "retype": retype(column, dtype), "cut": cut_short, "garbage": garbage}.get(
        kind, emptied
    )


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


def stats(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file of a lexicon folder (hidden ones too) and its inode, size and modification time: what any
    write, replacement or removal changes, without reading the files."""
    return {p.name: (p.stat().st_ino, p.stat().st_size, p.stat().st_mtime_ns) for p in root.iterdir() if p.is_file()}


def folder_copy(data: Path, tmp_path: Path) -> Path:
    """A copy of a data folder (its jobs aside)."""
    copy = tmp_path / "out"
    shutil.copytree(data, copy, ignore=shutil.ignore_patterns("jobs"))
    return copy


def damaged_copy(data: Path, tmp_path: Path, table: str, damage: Damage) -> tuple[Path, Path]:
    """A copy of the data folder with one table damaged: (the copy, the damaged file)."""
    copy = folder_copy(data, tmp_path)
    path = copy / LEXICON / f"{table}.parquet"
    damage(path)
    return copy, path


def assert_names_rebuild(line: str, path: Path, stage: str) -> str:
    """A refusal's one line names the file first and the command that rebuilds it (the stage, for this
    lexicon); that command."""
    assert "\n" not in line and line.startswith(str(path)), line
    command = re.search(r"rebuild it with `(wordstats run [^`]+)`", line)
    assert command and command.group(1).split()[2] == stage and f"--lexicon {LEXICON}" in command.group(1), line
    return command.group(1)


def assert_refused(res, path: Path, stage: str) -> str:
    """One line naming the file and the command that rebuilds it, exit 2, no traceback; that command."""
    assert res.exit_code == 2, res
    assert "Traceback" not in res.stderr + res.stdout, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res
    return assert_names_rebuild(lines[0].removeprefix("error: "), path, stage)


def producer(table: str) -> str:
    """The stage that writes a table."""
    from pipeline.core.stages import producer as stage_of

    return stage_of(table).name


# ---- the store's read path, in process: every damage of every table ------------------------------------


def refusals(data: Path, tmp_path: Path, table: str) -> list[str]:
    """Read each damage of a table in a copy of the data folder through the store (as stages and, by
    Store.require, queries do): what went otherwise than a WordstatsError of one line naming the file and the
    command that rebuilds it, with every file of the folder unchanged."""
    root = folder_copy(data, tmp_path) / LEXICON
    path = root / f"{table}.parquet"
    whole = path.read_bytes()
    assert Store(root.parent, LEXICON).read(table).columns  # the whole table reads
    wrong = []
    for damage in damages(table):
        damage(path)
        before = stats(root), digest(path)
        try:
            Store(root.parent, LEXICON).read(table)
        except WordstatsError as exc:
            try:
                assert_names_rebuild(str(exc), path, producer(table))
            except AssertionError as failed:
                wrong.append(f"{damage.__name__}: {failed}")
        except Exception as exc:  # anything else is a traceback for the user: each one is reported below
            wrong.append(f"{damage.__name__}: {type(exc).__name__}: {exc}")
        else:
            wrong.append(f"{damage.__name__}: read as if whole")
        if (stats(root), digest(path)) != before:
            wrong.append(f"{damage.__name__}: the folder changed")
        path.write_bytes(whole)
    return wrong


@pytest.mark.parametrize("table", FAST_TABLES)
def test_the_store_refuses_every_damage_of_a_table(fast_data, tmp_path, table):
    assert refusals(fast_data, tmp_path, table) == []


@pytest.mark.slow
@pytest.mark.parametrize("table", SLOW_TABLES)
def test_the_store_refuses_every_damage_of_any_table(full_data, tmp_path, table):
    assert refusals(full_data, tmp_path, table) == []


# ---- queries, through the CLI: each one that reads a table, given it damaged --------------------------


def reader_cases(tables) -> list:
    """(table, query, damages) for parametrize: every query that reads each table, with a damage of its columns
    and one of its file, in turn."""
    pairs = [(table, query) for table in tables for query in READERS[table]]
    cases = []
    for k, (table, query) in enumerate(pairs):
        both = (in_turn(table, k, ("drop", "retype")), in_turn(table, k, ("cut", "garbage", "empty")))
        name = f"{table}-{'_'.join(query[:2])}-{'+'.join(d.__name__ for d in both)}"
        cases.append(pytest.param(table, query, both, id=name))
    return cases


def check_query(data: Path, tmp_path: Path, table: str, damages: tuple[Damage, ...], query: tuple) -> None:
    """A query on a damaged table is refused in one line and changes nothing, whatever the damage; the whole
    tables answer as before (nothing of the damaged copy is kept in the process)."""
    whole = run_cli(*query, *ask_args(data))
    assert whole.exit_code in (0, 1), whole
    for damage in damages:
        copy, path = damaged_copy(data, tmp_path / damage.__name__, table, damage)
        before = snapshot(copy / LEXICON)
        assert_refused(run_cli(*query, *ask_args(copy)), path, producer(table))
        assert snapshot(copy / LEXICON) == before
    again = run_cli(*query, *ask_args(data))
    assert (again.exit_code, again.stdout) == (whole.exit_code, whole.stdout), again


@pytest.mark.parametrize("table, query, damages", reader_cases(FAST_TABLES))
def test_a_query_on_a_damaged_table_names_it_and_its_rebuild(fast_data, tmp_path, table, query, damages):
    check_query(fast_data, tmp_path, table, damages, query)


@pytest.mark.slow
@pytest.mark.parametrize("table, query, damages", reader_cases(SLOW_TABLES))
def test_a_query_on_any_damaged_table_names_it_and_its_rebuild(full_data, tmp_path, table, query, damages):
    check_query(full_data, tmp_path, table, damages, query)


def test_every_table_has_a_query_that_reads_it():
    assert set(READERS) == set(TABLES)


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


# ---- stages, through the CLI: each input of each stage, given it damaged ------------------------------


def stage_cases(slow: bool) -> list:
    """(stage, input table, damage) for parametrize: every input of every stage (optional ones too), with a
    declared column dropped, one of another type or the file cut short in turn."""
    from pipeline.core.stages import STAGES

    pairs = [
        (s.name, table)
        for s in STAGES
        if s.name != "ingest" and (s.name not in FAST_STAGES) == slow
        for table in s.inputs + s.optional_inputs
    ]
    return [
        pytest.param(stage, table, damage, id=f"{stage}-{table}-{damage.__name__}")
        for k, (stage, table) in enumerate(pairs)
        for damage in [in_turn(table, k, ("drop", "retype", "cut"))]
    ]


def check_stage(data: Path, tmp_path: Path, stage: str, table: str, damage: Damage) -> None:
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
    store = Store(tmp_path, "lex")
    with pytest.raises(RuntimeError, match="column 'length' is str, its schema declares i32"):
        store.write({"words.parquet": pl.DataFrame({"word": ["A"], "length": ["1"]})}, {"stage": "ingest"})
    assert not (store.root / "words.parquet").exists()

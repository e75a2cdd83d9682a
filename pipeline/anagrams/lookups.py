"""Lookups in the lexicon's tables by key, without the anagram index (no numpy, so they start fast): letters
as typed, the anagrams of a rack, a word's hooks, every row about a word, bingo stems."""

from __future__ import annotations

from itertools import combinations_with_replacement
from pathlib import Path

import polars as pl

from pipeline.core.errors import FieldError, NotFound, WordstatsError, pick
from pipeline.core.store import MAX_ROWS
from pipeline.letters.alphabet import BLANK, LETTERS, parse_letters
from pipeline.letters.racks import rack_text

STEM_LENGTHS = (6, 7)  # a bingo stem has 6 or 7 letters (the stems stage makes them)

# ---- letters as typed (racks and hands: tiles.parse_rack) ---------------------------------------


# ---- the anagrams of a rack, by alphagram --------------------------------------------------------------


def blank_choices(rack: str) -> dict[str, str]:
    """For a rack in capitals, each alphagram its tiles can spell with every tile used: the rack's letters and,
    for its blanks, each choice of letters (as many as 20,475 for 4 blanks), by the letters the blanks stand
    for (sorted)."""
    letters = rack.replace(BLANK, "")
    choices = map("".join, combinations_with_replacement(LETTERS, len(rack) - len(letters)))
    return {"".join(sorted(letters + chosen)): chosen for chosen in choices}


def lower_first(word: str, blanks: str) -> str:
    """The word with, for each blank letter, its first upper-case occurrence in lower case: SULTaNA."""
    for letter in blanks:
        at = word.find(letter)
        word = word[:at] + letter.lower() + word[at + 1 :]
    return word


def anagrams(store, values: dict[str, int], rack: str) -> pl.DataFrame:
    """Every word that uses all the tiles of the rack (? = blank), blank-played letters in lower case, found by
    alphagram in anagrams.parquet (row groups pruned by their statistics): word, score (blanks score 0), blanks
    (the letters they stand for), probability_order; the anagram index's rows for one rack (queries.anagram),
    without loading the index."""
    text = rack_text(rack)
    choices = blank_choices(text)
    families = (
        store.scan("anagrams", ["alphagram", "words", "probability_order"])
        .filter(pl.col("alphagram").is_in(list(choices)))
        .select("alphagram", "words", "probability_order")
        .collect()
    )
    rows = sorted(
        (word, choices[alphagram], order) for alphagram, words, order in families.iter_rows() for word in words
    )
    score = sum(values[letter] for letter in text if letter != BLANK)
    return pl.DataFrame(
        {
            "word": pl.Series([lower_first(word, blanks) for word, blanks, _ in rows], dtype=pl.String),
            "score": pl.Series([score] * len(rows), dtype=pl.Int64),
            "blanks": pl.Series([blanks for _, blanks, _ in rows], dtype=pl.String),
            "probability_order": pl.Series([order for _, _, order in rows], dtype=pl.UInt32),
        }
    )


# ---- one word: hooks and everything the tables know ---------------------------------------------------


def _lookup(path: Path, column: str, value: str) -> pl.DataFrame:
    """The rows of a Parquet table whose `column` equals `value` (row groups pruned by their statistics)."""
    return pl.scan_parquet(path).filter(pl.col(column) == value).collect()


HOOK_COLUMNS = ["word", "front_hooks", "back_hooks", "front_inner", "back_inner"]


def hooks(store, word: str) -> pl.DataFrame:
    """The word's front and back hooks and whether it stays a word minus its first / last letter."""
    word = parse_letters(word, "word")
    found = _lookup(store.require("hooks", HOOK_COLUMNS), "word", word)
    if found.is_empty():
        raise NotFound(f"{word} is not a word of lexicon {store.lexicon!r}")
    return found


def family(store, word: str) -> list[str]:
    """The words of the word's alphagram in anagrams.parquet (the word itself among them when it is one), sorted."""
    key = "".join(sorted(word))
    found = _lookup(store.require("anagrams", ["alphagram", "words"]), "alphagram", key)
    return sorted(w for words in found["words"].to_list() for w in words)


def row_of(store, table: str, word: str, columns: tuple[str, ...]) -> dict | None:
    """The word's row of a table (these columns), or None when the table is not built or has no row for it."""
    if not store.exists(table):
        return None
    rows = store.scan(table, list(columns)).filter(pl.col("word") == word).select(columns).collect()
    return rows.row(0, named=True) if rows.height else None


# tables keyed by something other than `word`: (column, key from the word)
_KEYED = {
    "anagrams": ("alphagram", lambda w: "".join(sorted(w))),
    "prefixes": ("prefix", lambda w: w),
    "stems": ("stem", lambda w: "".join(sorted(w))),
}


def word_facts(store, word: str) -> dict[str, pl.DataFrame]:
    """Every row about the word in every table of the lexicon that exists (words first), by table name."""
    word = parse_letters(word, "word")
    store.require("words")
    facts: dict[str, pl.DataFrame] = {}
    for name in sorted(store.parquet_tables(), key=lambda n: (n != "words", n)):
        path = store.require(name)  # checked against its declared schema
        schema = store.schema(name)
        column, key = _KEYED.get(name, ("word", lambda w: w))
        if schema.get(column) != pl.String:
            continue
        rows = _lookup(path, column, key(word))
        if rows.height:
            facts[name] = rows
    if "words" not in facts:
        raise NotFound(f"{word} is not a word of lexicon {store.lexicon!r}")
    return facts


def facts_table(facts: dict[str, pl.DataFrame], max_chars: int | None = None) -> pl.DataFrame:
    """word_facts as one long table: table, row, column, value (as text, cut to max_chars when given)."""
    from pipeline.core.display import flatten

    parts = []
    for name, rows in facts.items():
        text = flatten(rows).with_columns(pl.all().cast(pl.String))
        if max_chars:
            cut = pl.all().str.slice(0, max_chars - 1) + "…"
            text = text.with_columns(pl.when(pl.all().str.len_chars() > max_chars).then(cut).otherwise(pl.all()))
        parts.append(
            text.with_row_index("row", offset=1)
            .unpivot(index="row", variable_name="column", value_name="value")
            .select(pl.lit(name).alias("table"), pl.col("row").cast(pl.UInt32), "column", "value")
        )
    return pl.concat(parts)


# ---- stems --------------------------------------------------------------------------------------------

STEM_ORDERS = {
    "letters": (["n_letters", "n_bingos", "stem_length", "stem"], [True, True, False, False]),
    "bingos": (["n_bingos", "n_letters", "stem_length", "stem"], [True, True, False, False]),
    "usefulness": (["usefulness", "stem_length", "stem"], [True, False, False]),
}
STEM_COLUMNS = [
    "stem",
    "stem_length",
    "letters",
    "n_letters",
    "n_bingos",
    "has_s",
    "stem_probability",
    "draw_chance",
    "usefulness",
]


def top_stems(
    store, length: int | None = None, order: str = "usefulness", top: int | None = 50, min_letters: int = 1
) -> pl.DataFrame:
    """The best stems by `order` (letters, bingos or usefulness), numbered from 1 (rank) in that order."""
    order = pick(order, STEM_ORDERS, "--order")
    if length is not None and length not in STEM_LENGTHS:
        raise FieldError("{length} {got}: stems are 6 or 7 letters", got=length)
    stems = store.scan("stems", STEM_COLUMNS + ["bingos"])
    if length is not None:
        stems = stems.filter(pl.col("stem_length") == length)
    by, descending = STEM_ORDERS[order]
    stems = stems.filter(pl.col("n_letters") >= min_letters).sort(by, descending=descending)
    if top:
        stems = stems.head(min(top, MAX_ROWS))
    return stems.select(*STEM_COLUMNS, "bingos").with_row_index("rank", offset=1).collect()


STUDY_FORMATS = (".csv", ".md")


def check_export(path: Path) -> Path:
    """The study-list file, if its extension is one we write (.csv or .md)."""
    if Path(path).suffix.lower() not in STUDY_FORMATS:
        raise FieldError("{out} {path}: give a .csv or .md file", path=path)
    return Path(path)


def study_list(stems: pl.DataFrame) -> pl.DataFrame:
    """Stems as a study list: rank, stem, letters, and the bingos as text (A: WORD WORD; B: ...)."""
    bingos = ["; ".join(f"{b['letter']}: {' '.join(b['words'])}" for b in row) for row in stems["bingos"].to_list()]
    return stems.select("rank", "stem", "letters", "n_bingos").with_columns(
        pl.Series("bingos", bingos, dtype=pl.String)
    )


def stem(store, text: str) -> pl.DataFrame:
    """For each letter that combines with the stem (letters in any order), its bingos."""
    letters = parse_letters(text, "stem")
    if len(letters) not in STEM_LENGTHS:
        raise WordstatsError(f"bad stem {text!r}: a stem has 6 or 7 letters, not {len(letters)}")
    key = "".join(sorted(letters))
    found = _lookup(store.require("stems", ["stem", "bingos"]), "stem", key)
    if found.is_empty():
        raise NotFound(f"stem {key} makes no bingo in lexicon {store.lexicon!r}")
    return (
        found.select(pl.col("bingos").explode())
        .unnest("bingos")
        .select("letter", pl.col("words").list.len().cast(pl.UInt32).alias("n_words"), "words")
    )

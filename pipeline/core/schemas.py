"""The declared schema of every built table: each column's type, a one-line description, and the sort order.

Stage outputs are conformed on write (every integer signed: Int32, or Int64 for seeds and counts of
combinations; a column of nulls takes its declared type), must then match their schema, and carry the
descriptions and the sort order in the Parquet footer. Every table is checked against its schema when it is
read (queries and stages alike): a missing column or one of another type is a damaged table, told in one
line with the command that rebuilds it. Columns a table does not declare are allowed (and not checked)."""

from __future__ import annotations

from typing import Any

import polars as pl

STR, BOOL, I32, I64, F64 = pl.String(), pl.Boolean(), pl.Int32(), pl.Int64(), pl.Float64()
STRS = pl.List(pl.String())  # a set of letters or words
BINGOS = pl.List(pl.Struct({"letter": pl.String(), "words": pl.List(pl.String())}))  # stems: per letter, its bingos
Column = tuple[pl.DataType, str]  # the declared type and a one-line description

TABLES: dict[str, dict[str, Column]] = {
    "words": {
        "word": (STR, "the word, upper-case A-Z"),
        "length": (I32, "number of letters"),
        "alphagram": (STR, "the word's letters in alphabetical order"),
        "letter_mask": (I64, "bit k set when the word uses letter k (A = bit 0)"),
        "vowels": (I32, "number of vowels (A, E, I, O, U)"),
        "distinct_letters": (I32, "number of different letters"),
        "scrabble_value": (I32, "sum of the word's Scrabble tile values"),
        "zipf": (F64, "English Zipf frequency from wordfreq (0 when unknown)"),
    },
    "anagrams": {
        "alphagram": (STR, "letters in alphabetical order"),
        "length": (I32, "number of letters"),
        "words": (STRS, "the words made of exactly these letters, sorted"),
        "n_words": (I32, "number of words"),
        "combinations": (I64, "ways to draw these tiles from a full bag"),
        "probability": (F64, "chance that a rack of this size is these tiles"),
        "probability_order": (I32, "rank by probability among alphagrams of this length (1 = likeliest)"),
    },
    "prefixes": {
        "prefix": (STR, "a prefix of at least one word"),
        "length": (I32, "number of letters"),
        "is_word": (BOOL, "whether the prefix is itself a word"),
        "n_words": (I32, "number of words that start with it"),
        "next_letters": (STRS, "letters that can follow it, sorted (empty for a whole word only)"),
    },
    "hooks": {
        "word": (STR, "the word"),
        "front_hooks": (STRS, "letters that make a word in front of it, sorted"),
        "back_hooks": (STRS, "letters that make a word behind it, sorted"),
        "front_inner": (BOOL, "whether the word minus its first letter is a word"),
        "back_inner": (BOOL, "whether the word minus its last letter is a word"),
    },
    "stems": {
        "stem": (STR, "the stem's letters in alphabetical order"),
        "stem_length": (I32, "6 or 7"),
        "letters": (STRS, "letters that make the stem a bingo, sorted"),
        "n_letters": (I32, "number of such letters"),
        "n_bingos": (I32, "number of bingos over all those letters"),
        "bingos": (BINGOS, "for each letter, the bingos it makes"),
        "has_s": (BOOL, "whether the stem holds an S"),
        "stem_probability": (F64, "chance of drawing the stem's tiles"),
        "draw_chance": (F64, "chance of drawing one of the combining letters next"),
        "usefulness": (F64, "stem probability times draw chance"),
        "rank_letters": (I32, "rank by number of letters (1 = most)"),
        "rank_bingos": (I32, "rank by number of bingos"),
        "rank_usefulness": (I32, "rank by usefulness"),
    },
    "boggle_dictionary": {
        "variant": (STR, "the variant's name"),
        "min_length": (I32, "its shortest word"),
        "points_table": (pl.List(pl.Int32()), "its points by word length"),
        "words": (STRS, "the words it scores, in the trie's order"),
        "nodes": (pl.List(pl.UInt64()), "the trie's nodes: child letters, points class, first child"),
        "values": (pl.List(pl.Int32()), "the points of each points class"),
        "points": (pl.List(pl.Int32()), "the points of the word ending at each node, 0 when none"),
        "rank": (pl.List(pl.Int32()), "that word's place, longest first then alphabetical"),
        "word_at": (pl.List(pl.Int32()), "that word's index in words, -1 when none"),
        "letter_weights": (pl.List(pl.Float64()), "cumulative counts of each cube letter in the words (+1 each)"),
    },
    "hangman": {
        "word": (STR, "the word"),
        "length": (I32, "number of letters"),
        "misses": (I32, "wrong guesses the reference solver makes"),
        "guesses": (I32, "guesses the reference solver makes"),
        "sequence": (STR, "the solver's guesses in order"),
        "rank_in_length": (I32, "rank among words of this length (1 = hardest)"),
        "percentile_in_length": (F64, "percentile among words of this length"),
        "band": (STR, "easy, medium or hard"),
        "misses_weighted": (I32, "wrong guesses of the frequency-weighted solver"),
        "guesses_weighted": (I32, "guesses of the frequency-weighted solver"),
        "sequence_weighted": (STR, "the weighted solver's guesses"),
        "heuristic_score": (I32, "difficulty by letter rarity"),
        "heuristic_band": (STR, "band by the heuristic"),
    },
    "boggle_boards": {
        "dice": (STR, "dice set"),
        "seed": (I64, "seed of the random sequence"),
        "index": (I32, "board number in the sequence"),
        "board": (STR, "cells in row order"),
        "score": (I32, "total points of every word on the board"),
        "n_words": (I32, "number of words"),
        "longest": (STR, "a longest word"),
    },
    "boggle_words": {
        "word": (STR, "the word"),
        "dice": (STR, "dice set"),
        "points": (I32, "points the word scores"),
        "boards_found": (I32, "boards of the sample that hold it"),
        "find_rate": (F64, "share of boards that hold it"),
        "expected_points": (F64, "points per board on average"),
    },
    "boggle_best": {
        "search": (STR, "which search"),
        "dice": (STR, "dice set (empty: any letters)"),
        "size": (STR, "rows x columns"),
        "variant": (STR, "rules"),
        "seed": (I64, "seed of the search"),
        "run": (I32, "run number"),
        "board": (STR, "cells in row order"),
        "score": (I32, "total points"),
        "n_words": (I32, "number of words"),
    },
    "openings": {
        "word": (STR, "the word"),
        "length": (I32, "number of letters"),
        "scrabble_score": (I32, "best opening score in Scrabble"),
        "scrabble_position": (STR, "where that play goes"),
        "scrabble_blanks": (I32, "blanks it needs from a full bag"),
        "scrabble_bingo": (BOOL, "whether it uses all seven tiles"),
        "wwf_score": (I32, "best opening score in Words With Friends"),
        "wwf_position": (STR, "where that play goes"),
        "wwf_blanks": (I32, "blanks it needs"),
        "wwf_bingo": (BOOL, "whether it uses all seven tiles"),
    },
    "selfplay": {
        "variant": (STR, "game variant"),
        "game": (I32, "game number"),
        "score_1": (I32, "final score of player 1"),
        "score_2": (I32, "final score of player 2"),
        "winner": (I32, "1, 2, or 0 for a tie"),
        "moves": (I32, "number of moves"),
        "move_points": (I32, "points scored by plays"),
        "bingos": (I32, "number of bingos"),
        "exchanges": (I32, "number of exchanges"),
        "passes": (I32, "number of passes"),
        "plays": (STRS, "the moves in notation"),
    },
    "gaddag": {
        "arc": (I32, "a packed arc: child node, last-arc and end-of-word bits, tile"),
    },
    "leaves": {
        "leave": (STR, "the tiles kept: letters sorted, ? (blanks) last"),
        "length": (I32, "tiles in the leave"),
        "value": (F64, "the leave's value in points, relative to keeping nothing"),
        "count": (I32, "observations"),
        "observed": (F64, "mean target minus the empty leave's (null when unobserved)"),
        "ci_low": (F64, "lower end of the 95% interval of observed"),
        "ci_high": (F64, "upper end of the 95% interval of observed"),
        "prior": (F64, "the additive model's value"),
    },
    "phonics": {
        "word": (STR, "the word"),
        "in_cmu": (BOOL, "whether the CMU dictionary has the word"),
        "pronunciations": (STRS, "every CMU pronunciation, most common first"),
        "phonemes": (STRS, "the sounds of the first pronunciation, stress removed"),
        "syllables": (I32, "vowel sounds of the first pronunciation (else pyphen's count)"),
        "syllables_source": (STR, "cmu or pyphen"),
        "stress": (STR, "one digit per syllable: 1 primary, 2 secondary, 0 none"),
        "cvc": (BOOL, "consonant, short vowel, consonant"),
        "pattern": (STR, "CVC, CCVC, CVCC...: one syllable, a letter per sound, one short vowel"),
        "blends": (STRS, "consonant blends at the start or end"),
        "digraphs": (STRS, "digraphs spelling their sound"),
        "magic_e": (BOOL, "vowel + consonant + silent e, the vowel long"),
        "vowel_teams": (STRS, "vowel teams"),
        "r_controlled": (STRS, "r-controlled vowels"),
        "short_vowels": (STRS, "vowel letters making their short sound"),
        "long_vowels": (STRS, "vowel letters making their long sound"),
        "double_letters": (BOOL, "a doubled consonant letter"),
        "regular": (BOOL, "every letter group spells its sound by a regular correspondence"),
        "base": (STR, "the base word of a form with an inflectional ending, whose features it takes"),
        "uk_phase": (I32, "the first Letters and Sounds phase (2 to 5) at which the word is decodable"),
        "us_step": (I32, "the first step (1 to 7) of the US scope and sequence at which the word is decodable"),
        "graphemes": (STRS, "the graphemes of that decoding (a_e for a split digraph; empty for a tricky word)"),
        "dolch": (STR, "Dolch level, or null"),
        "dale_chall": (STR, "listed, inflected, or null"),
        "grade": (I32, "grade estimate: 0 = kindergarten ... 6 = beyond primary, null = not a school word"),
        "spelling": (STR, "uk, us, or null"),
        "other_spelling": (STR, "the other side's spelling, or null"),
    },
}

# Columns named per variant of the config ([scrabble.openings] variants): V_score, V_position, V_blanks, V_bingo.
# A table holds them for its config's variants, so only their types are declared (by the end of the name).
VARIANT_COLUMNS: dict[str, dict[str, pl.DataType]] = {
    "openings": {"_score": I32, "_position": STR, "_blanks": I32, "_bingo": BOOL},
}

# Tables read a row at a time: each row is a row group, so that a reader filtering on a column skips the others
# by their statistics (boggle solve reads one variant's dictionary).
ROW_GROUP_ROWS: dict[str, int] = {"boggle_dictionary": 1}

SORTED_BY: dict[str, list[str]] = {
    "words": ["word"],
    "anagrams": ["alphagram"],
    "prefixes": ["prefix"],
    "hooks": ["word"],
    "hangman": ["word"],
    "openings": ["word"],
}

WIDE = {"seed", "combinations", "letter_mask"}  # integers that keep 64 bits


def declared(table: str, schema: dict[str, Any]) -> dict[str, pl.DataType]:
    """The columns `table` must have, with their types: its fixed columns, and every per-variant column of each
    variant that one of `schema`'s columns names (a table holds the variants of the config it was built with)."""
    fixed = {c: t for c, (t, _) in TABLES.get(table, {}).items() if not _per_variant(table, c)}
    families = VARIANT_COLUMNS.get(table, {})
    variants = {c[: -len(e)] for c in schema for e in families if c.endswith(e) and c not in fixed and len(c) > len(e)}
    for variant in sorted(variants):
        fixed.update({f"{variant}{ending}": dtype for ending, dtype in families.items()})
    return fixed


def _per_variant(table: str, column: str) -> bool:
    """Whether a declared column is one of the per-variant columns (present only for the config's variants)."""
    return any(column.endswith(ending) for ending in VARIANT_COLUMNS.get(table, {}))


def mismatch(table: str, schema: dict[str, Any]) -> tuple[str, str, str | None] | None:
    """The first declared column of `table` that `schema` lacks or holds with another type: (column, the
    declared type, the type found, None when missing); None when the schema is the declared one."""
    for column, dtype in declared(table, schema).items():
        if column not in schema:
            return column, type_name(dtype), None
        if schema[column] != dtype:
            return column, type_name(dtype), type_name(schema[column])
    return None


SHORT_NAMES = {
    pl.String: "str",
    pl.Boolean: "bool",
    pl.Int8: "i8",
    pl.Int16: "i16",
    pl.Int32: "i32",
    pl.Int64: "i64",
    pl.UInt8: "u8",
    pl.UInt16: "u16",
    pl.UInt32: "u32",
    pl.UInt64: "u64",
    pl.Float32: "f32",
    pl.Float64: "f64",
}


def type_name(dtype: Any) -> str:
    """A polars type as docs/tables.md writes it: str, i32, f64, list[str], struct{letter: str, ...}."""
    if isinstance(dtype, pl.List):
        return f"list[{type_name(dtype.inner)}]"
    if isinstance(dtype, pl.Struct):
        return "struct{" + ", ".join(f"{f.name}: {type_name(f.dtype)}" for f in dtype.fields) + "}"
    for cls, name in SHORT_NAMES.items():
        if dtype == cls:
            return name
    return str(dtype)


def conform(table: str, df: pl.DataFrame) -> pl.DataFrame:
    """A stage output with every integer column signed (Int64 for WIDE columns, Int32 for the rest) and each
    declared column that holds only nulls (or lists of them) cast to its declared type."""
    wanted = declared(table, df.schema)
    casts = []
    for name, dtype in df.schema.items():
        if name in wanted and wanted[name] != dtype and (_has_null(dtype) or dtype.is_integer()):
            casts.append(pl.col(name).cast(wanted[name]))
        elif dtype.is_integer():
            target = pl.Int64 if name in WIDE or dtype in (pl.Int64, pl.UInt64) else pl.Int32
            if dtype != target:
                casts.append(pl.col(name).cast(target))
    return df.with_columns(casts) if casts else df


def _has_null(dtype: Any) -> bool:
    """Whether a type is polars' Null type, or a list or struct of it (what a column of only nulls becomes)."""
    if dtype == pl.Null:
        return True
    if isinstance(dtype, pl.List):
        return _has_null(dtype.inner)
    if isinstance(dtype, pl.Struct):
        return any(_has_null(f.dtype) for f in dtype.fields)
    return False


def footer(table: str, df: pl.DataFrame) -> dict[str, Any]:
    """Footer entries for a table: each known column's description, and the sort order when the rows keep it."""
    known = TABLES.get(table, {})
    out: dict[str, Any] = {"columns": {c: known[c][1] for c in df.columns if c in known}}
    keys = [k for k in SORTED_BY.get(table, []) if k in df.columns]
    if keys and df.height and df[keys[0]].is_sorted():
        out["sorted_by"] = keys
    return out

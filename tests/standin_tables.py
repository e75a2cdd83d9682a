"""Tables for report and word-list tests: the real stage when it is registered, else a stand-in.

A stand-in has the columns the stage's issue specifies (3, 4, 5, 6, 8). Anagrams and stems are computed
exactly (slowly) from the words; Boggle, Hangman and opening figures are seeded random numbers of the
right shape, which is all the report and the word-list filters need: they must reflect whatever the
tables say.
"""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import polars as pl

# table → stage that builds it (issues 3-8)
PRODUCERS = {"anagrams": "indexes", "stems": "stems", "boggle_boards": "boggle", "boggle_words": "boggle",
             "hangman": "hangman", "openings": "scrabble"}


def registered(stage: str) -> bool:
    """Whether the real stage exists in this checkout."""
    from pipeline.stages import STAGES

    return any(s.name == stage for s in STAGES)


def anagrams(words: list[str]) -> pl.DataFrame:
    """One row per alphagram, with a stand-in probability (fewer distinct letters first)."""
    families = defaultdict(list)
    for w in words:
        families["".join(sorted(w))].append(w)
    rows = [{"alphagram": a, "length": len(a), "words": sorted(ws), "n_words": len(ws),
             "probability": 1.0 / (1 + len(set(a)) + sum(map(ord, a)) % 97)} for a, ws in families.items()]
    df = pl.DataFrame(rows).sort("alphagram")
    return df.with_columns(
        pl.col("probability").rank("ordinal", descending=True).over("length").cast(pl.UInt32)
        .alias("probability_order")).with_columns(pl.col("length").cast(pl.UInt32), pl.col("n_words").cast(pl.UInt32))


def stems(words: list[str]) -> pl.DataFrame:
    """Six- and seven-letter stems and the letters that make bingos with them (brute force)."""
    alpha = defaultdict(list)
    for w in words:
        alpha["".join(sorted(w))].append(w)
    rows = []
    for n in (6, 7):
        seen = {a[:i] + a[i + 1:] for a in alpha if len(a) == n + 1 for i in range(n + 1)}
        for stem in sorted(seen):
            letters, bingos = [], set()
            for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
                found = alpha.get("".join(sorted(stem + c)))
                if found:
                    letters.append(c)
                    bingos.update(found)
            rows.append({"stem": stem, "stem_length": n, "letters": "".join(letters), "n_letters": len(letters),
                         "n_bingos": len(bingos), "has_s": "S" in stem})
    return pl.DataFrame(rows)


def boggle(words: list[str], boards: int = 300, seed: int = 5) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Stand-in boggle_boards (two dice sets) and boggle_words."""
    rng = random.Random(seed)
    board_rows = []
    for dice in ("classic", "new"):
        for i in range(boards):
            score = int(rng.gammavariate(2.0, 40 if dice == "new" else 30))
            board_rows.append({"board": "".join(rng.choice("ABCDEFGHIKLMNOPRSTU") for _ in range(16)),
                               "dice": dice, "seed": i, "score": score, "n_words": score // 2 + rng.randint(0, 5),
                               "longest": rng.randint(3, 9)})
    word_rows = []
    for w in words:
        found = 0 if len(w) < 3 else int(boards * 2 * rng.random() ** (len(w) * 1.5))
        word_rows.append({"word": w, "boards_found": found, "find_rate": found / (boards * 2),
                          "expected_points": found / (boards * 2)})
    return pl.DataFrame(board_rows), pl.DataFrame(word_rows)


def hangman(words: list[str]) -> pl.DataFrame:
    """Stand-in Hangman difficulty: misses from rare letters, ranks and tertile bands per length."""
    rare = set("JQXZKVWYBFGP")
    rows = []
    for w in words:
        misses = min(12, sum(c in rare for c in set(w)) + (3 if len(w) <= 4 else 0) + len(w) % 2)
        rows.append({"word": w, "length": len(w), "misses": misses, "guesses": misses + len(set(w)),
                     "sequence": "".join(sorted(set(w)))})
    df = pl.DataFrame(rows).with_columns(pl.col("length").cast(pl.UInt32))
    df = df.sort(["length", "misses", "guesses", "word"], descending=[False, True, True, False])
    df = df.with_columns((pl.int_range(pl.len()).over("length") + 1).alias("rank_in_length"))
    df = df.with_columns((pl.col("rank_in_length") / pl.len().over("length")).alias("percentile_in_length"))
    return df.with_columns(
        pl.when(pl.col("percentile_in_length") <= 1 / 3).then(pl.lit("hard"))
        .when(pl.col("percentile_in_length") <= 2 / 3).then(pl.lit("medium")).otherwise(pl.lit("easy"))
        .alias("band")).sort("word")


def openings(words: pl.DataFrame) -> pl.DataFrame:
    """Stand-in best opening scores: twice the tile values (a double-word square), plus 50 for 7 tiles."""
    short = words.filter(pl.col("length").is_between(2, 7))
    bonus = pl.when(pl.col("length") == 7).then(50).otherwise(0)
    return short.select(
        "word",
        (pl.col("scrabble_value").cast(pl.Int64) * 2 + bonus).alias("scrabble_score"),
        (pl.col("scrabble_value").cast(pl.Int64) * 2 + bonus * 35 // 50).alias("wwf_score"),
    )


def add_tables(cli, data: Path, lexicon: str, tables: tuple[str, ...], config: Path) -> dict[str, str]:
    """Give the lexicon in `data` each table: built by its real stage if registered, else a stand-in.

    Returns table → the stage that built it, or "stand-in".
    """
    store = data / lexicon
    words_df = pl.read_parquet(store / "words.parquet")
    words = words_df["word"].to_list()
    how = {}
    for table in tables:
        stage = PRODUCERS[table]
        if registered(stage):
            if stage in how.values() or (store / f"{table}.parquet").exists():
                how[table] = stage
                continue  # one stage builds several tables
            res = cli("run", stage, "--lexicon", lexicon, "--data-dir", data, "--config", config, "--quiet")
            assert res.exit_code == 0, res
            how[table] = stage
            continue
        how[table] = "stand-in"
        if table == "anagrams":
            anagrams(words).write_parquet(store / "anagrams.parquet")
        elif table == "stems":
            stems(words).write_parquet(store / "stems.parquet")
        elif table in ("boggle_boards", "boggle_words"):
            boards, found = boggle(words)
            boards.write_parquet(store / "boggle_boards.parquet")
            found.write_parquet(store / "boggle_words.parquet")
        elif table == "hangman":
            hangman(words).write_parquet(store / "hangman.parquet")
        elif table == "openings":
            openings(words_df).write_parquet(store / "openings.parquet")
    return how


def sample_words(path: Path, every: int, extra: tuple[str, ...] = ()) -> list[str]:
    """Every `every`-th line of a word list (plus `extra`), for a lexicon of a chosen size."""
    lines = path.read_text().split()
    return sorted(set(lines[::every]) | set(extra))

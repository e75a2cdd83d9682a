"""Hangman: the reference solver, its frequency-weighted twin, the difficulty table and the solver's trace.

The solver knows the lexicon. Candidates are the words of the secret's length consistent with everything
revealed so far. It guesses the unguessed letter that leaves the fewest candidates without it (the weighted
solver: the least setter probability of a miss), ties to the alphabetically first letter; the candidates
then split by where the guessed letter occurs. A word is solved when it is the only candidate left.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import polars as pl

from pipeline.config import LETTERS
from pipeline.errors import NotFound, WordstatsError
from pipeline.tables import MAX_ROWS
from pipeline.trie import letter_codes

FREQUENCY_ORDER = "ETAOINSHRDLCUMWFGYPBVKJXQZ"  # heuristic: E = 1, T = 2, ..., Z = 26
BANDS = ("easy", "medium", "hard")
KERNEL_MAX_LENGTH = 63  # a position pattern is a bit mask in an int64; longer words use the plain solver


# ---- settings -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """The [hangman] section of the config."""

    bands: str = "tertiles"  # "tertiles" within each length, or "misses" (the thresholds below)
    easy_max_misses: int = 1
    hard_min_misses: int = 4
    prior: str = "wordfreq"  # the weighted solver's setter prior: "wordfreq" (∝ 10^zipf) or "uniform"
    unknown_zipf: float = 0.0  # zipf given to words wordfreq does not know (zipf 0.0 in words.parquet)
    gallows: int = 6  # misses a classic gallows allows
    summary_hardest: int = 10  # hardest words listed per length in hangman_summary.json
    common_zipf: float = 3.0  # `wordstats hangman --common`: zipf at least this


def settings(config) -> Settings:
    """The validated [hangman] settings (defaults for absent fields)."""
    sec, d = config.section("hangman"), Settings()
    sec.allow(*asdict(d))
    s = Settings(
        bands=sec.str("bands", d.bands, choices=("tertiles", "misses")),
        easy_max_misses=sec.int("easy_max_misses", d.easy_max_misses, lo=0, hi=25),
        hard_min_misses=sec.int("hard_min_misses", d.hard_min_misses, lo=1, hi=26),
        prior=sec.str("prior", d.prior, choices=("wordfreq", "uniform")),
        unknown_zipf=sec.float("unknown_zipf", d.unknown_zipf, lo=0.0, hi=9.0),
        gallows=sec.int("gallows", d.gallows, lo=0, hi=26),
        summary_hardest=sec.int("summary_hardest", d.summary_hardest, lo=0, hi=1000),
        common_zipf=sec.float("common_zipf", d.common_zipf, lo=0.0, hi=9.0),
    )
    if s.hard_min_misses <= s.easy_max_misses:
        sec.fail("hard_min_misses", f"must be above easy_max_misses ({s.easy_max_misses}), got {s.hard_min_misses}")
    return s


def params(config, spec) -> dict:
    """The hangman parameters recorded in provenance."""
    return asdict(settings(config))


def setter_weights(zipf: np.ndarray, prior: str = "wordfreq", unknown_zipf: float = 0.0) -> np.ndarray:
    """The setter's prior as integer weights: uses per trillion words, round(10^(zipf + 3)), or all 1."""
    zipf = np.asarray(zipf, dtype=np.float64)
    if prior == "uniform":
        return np.ones(zipf.shape[0], dtype=np.int64)
    known = np.where(zipf > 0, zipf, unknown_zipf)
    return np.rint(10.0 ** (known + 3)).astype(np.int64)


# ---- the solver ---------------------------------------------------------------------------------------


def solve_length(words: list[str], weights=None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Misses, guesses and guess sequence of the solver against each of these distinct words."""
    misses, guesses, letters = solve_codes(words, weights)
    return misses, guesses, sequences(letters, guesses).to_list()


def solve_codes(words: list[str], weights=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The solver against distinct words of any lengths, aligned with `words`: misses, guesses, and the
    guessed letters as an (n, 26) matrix of codes (-1 after the last guess)."""
    n = len(words)
    weights = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    misses, guesses = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)
    letters = np.full((n, 26), -1, dtype=np.int8)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
    for length in np.unique(lengths):
        idx = np.flatnonzero(lengths == length)
        group = [words[i] for i in idx.tolist()]
        if length <= KERNEL_MAX_LENGTH:
            from pipeline.kernels import hangman_solve

            misses[idx], guesses[idx], letters[idx] = hangman_solve(letter_codes(group), weights[idx])
        else:
            games = solve_plain(group, dict(zip(group, weights[idx].tolist())))
            for i, word in zip(idx, group):
                misses[i], guesses[i], sequence = games[word]
                letters[i, :len(sequence)] = [ord(ch) - ord("A") for ch in sequence]
    return misses, guesses, letters


def sequences(letters: np.ndarray, guesses: np.ndarray) -> pl.Series:
    """Rows of letter codes (the first guesses[i] of row i) as the string column `sequence`."""
    import pyarrow as pa

    offsets = np.zeros(len(guesses) + 1, dtype=np.int32)
    np.cumsum(guesses, out=offsets[1:])
    data = (letters[letters >= 0].astype(np.uint8) + ord("A")).tobytes()  # each row's codes are a prefix
    column = pa.StringArray.from_buffers(len(guesses), pa.py_buffer(offsets.tobytes()), pa.py_buffer(data))
    return pl.Series("sequence", column, dtype=pl.String)


def solve_lexicon(words: list[str], weights=None) -> pl.DataFrame:
    """The solver against every word of a lexicon (distinct words, any lengths): word, misses, guesses, sequence."""
    misses, guesses, letters = solve_codes(words, weights)
    return pl.DataFrame([
        pl.Series("word", words, dtype=pl.String),
        pl.Series("misses", misses, dtype=pl.UInt8),
        pl.Series("guesses", guesses, dtype=pl.UInt8),
        sequences(letters, guesses),
    ])


def solve_plain(words: list[str], weights: dict[str, int] | None = None) -> dict[str, tuple[int, int, str]]:
    """The same solver as plain recursive Python: word → (misses, guesses, sequence). Slow; the baseline."""
    weights = weights or dict.fromkeys(words, 1)
    results: dict[str, tuple[int, int, str]] = {}

    def play(candidates: list[str], guessed: frozenset, sequence: str, misses: int) -> None:
        """Play out the games of these candidates from here, recording each word's result."""
        if len(candidates) == 1:
            results[candidates[0]] = (misses, len(sequence), sequence)
            return
        mass: dict[str, int] = {}
        for word in candidates:
            for letter in set(word) - guessed:
                mass[letter] = mass.get(letter, 0) + weights[word]
        guess = min(mass, key=lambda letter: (-mass[letter], letter))
        groups: dict[tuple, list[str]] = {}
        for word in candidates:
            groups.setdefault(tuple(i for i, ch in enumerate(word) if ch == guess), []).append(word)
        for where, group in groups.items():
            play(group, guessed | {guess}, sequence + guess, misses + (not where))

    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    for group in by_length.values():
        play(group, frozenset(), "", 0)
    return results


# ---- the difficulty table -----------------------------------------------------------------------------


def heuristic_score() -> pl.Expr:
    """(distinct letters) × (7 − vowels) × (sum of the distinct letters' places in ETAOINSHRDLCUMWFGYPBVKJXQZ)."""
    mask = pl.col("letter_mask").cast(pl.Int64)
    places = pl.sum_horizontal(
        ((mask // (1 << LETTERS.index(c))) % 2) * (FREQUENCY_ORDER.index(c) + 1) for c in LETTERS
    )
    return (pl.col("distinct_letters").cast(pl.Int64) * (7 - pl.col("vowels").cast(pl.Int64)) * places)


def thirds(value: pl.Expr, lo: pl.Expr, hi: pl.Expr) -> pl.Expr:
    """easy / medium / hard by which third of [lo, hi] the value falls in (medium when lo = hi)."""
    span, above = hi - lo, (value - lo) * 3
    return (pl.when(span == 0).then(pl.lit("medium"))
            .when(above < span).then(pl.lit("easy"))
            .when(above < 2 * span).then(pl.lit("medium"))
            .otherwise(pl.lit("hard")))


def difficulty_table(words: pl.DataFrame, s: Settings) -> pl.DataFrame:
    """hangman.parquet: both solvers, rank, percentile and band within the length, and the heuristic."""
    words = words.sort("word")
    names = words["word"].to_list()
    weights = setter_weights(words["zipf"].to_numpy(), s.prior, s.unknown_zipf)
    plain, weighted = (solve_lexicon(names, prior).drop("word") for prior in (None, weights))
    difficulty = pl.col("misses").cast(pl.Int64) * 32 + pl.col("guesses").cast(pl.Int64)
    n = pl.len().over("length")
    easier = difficulty.rank("min").over("length").cast(pl.Int64) - 1  # words of the length strictly easier
    if s.bands == "tertiles":
        band = (pl.when(easier * 3 < n).then(pl.lit("easy"))
                .when(easier * 3 < n * 2).then(pl.lit("medium")).otherwise(pl.lit("hard")))
    else:
        band = (pl.when(pl.col("misses") <= s.easy_max_misses).then(pl.lit("easy"))
                .when(pl.col("misses") >= s.hard_min_misses).then(pl.lit("hard")).otherwise(pl.lit("medium")))
    # hardest first: most misses, then most guesses, then word (the rows are in word order)
    hardest_first = -difficulty * words.height + pl.int_range(pl.len(), dtype=pl.Int64)
    table = (
        words.select("word", "length", heuristic_score().alias("heuristic_score"))
        .hstack(plain)
        .hstack(weighted.rename(lambda column: f"{column}_weighted"))
        .with_columns(
            rank_in_length=hardest_first.rank("ordinal").over("length").cast(pl.UInt32),
            percentile_in_length=(100.0 * easier / n).round(3),
            band=band,
            heuristic_band=thirds(pl.col("heuristic_score"), pl.col("heuristic_score").min().over("length"),
                                  pl.col("heuristic_score").max().over("length")),
        )
    )
    return table.select(
        "word", "length", "misses", "guesses", "sequence", "rank_in_length", "percentile_in_length", "band",
        "misses_weighted", "guesses_weighted", "sequence_weighted",
        pl.col("heuristic_score").cast(pl.Int32), "heuristic_band",
    )


def spearman(a: pl.Series, b: pl.Series) -> float | None:
    """Spearman rank correlation (average ranks for ties); None when undefined (under 3 words, or constant)."""
    if a.len() < 3:
        return None
    ra, rb = a.rank("average").to_numpy(), b.rank("average").to_numpy()
    if ra.std() == 0 or rb.std() == 0:
        return None
    return round(float(np.corrcoef(ra, rb)[0, 1]), 6)


def summary(table: pl.DataFrame, s: Settings) -> dict:
    """hangman_summary.json: per length, mean misses, share solved within the gallows, hardest words, Spearman."""
    lengths = []
    for (length,), group in table.sort("length").group_by("length", maintain_order=True):
        hardest = group.sort("rank_in_length").head(s.summary_hardest)
        lengths.append({
            "length": int(length),
            "words": group.height,
            "mean_misses": round(float(group["misses"].mean()), 6),
            "share_within_gallows": round(float((group["misses"] <= s.gallows).mean()), 6),
            "max_misses": int(group["misses"].max()),
            "mean_misses_weighted": round(float(group["misses_weighted"].mean()), 6),
            "heuristic_spearman": spearman(group["heuristic_score"], group["misses"]),
            "hardest": hardest.select("word", "misses", "guesses", "sequence").to_dicts(),
        })
    return {
        "words": table.height,
        "gallows": s.gallows,
        "mean_misses": round(float(table["misses"].mean()), 6) if table.height else None,
        "share_within_gallows": round(float((table["misses"] <= s.gallows).mean()), 6) if table.height else None,
        "lengths": lengths,
        "about": {
            "share_within_gallows": f"share of the words the solver finds with at most {s.gallows} misses",
            "heuristic_spearman": "Spearman rank correlation of heuristic_score with misses among the words of "
                                  "the length (null under 3 words or when either is constant)",
            "hardest": "the words of rank_in_length 1, 2, ... (most misses, then most guesses, then word)",
        },
    }


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """The hangman stage: words.parquet → hangman.parquet, hangman_summary.json."""
    s = settings(ctx.config)
    table = difficulty_table(inputs["words"], s)
    return {"hangman.parquet": table, "hangman_summary.json": summary(table, s)}


# ---- queries ------------------------------------------------------------------------------------------


def trace(word: str, words: list[str], weights: np.ndarray | None = None) -> list[dict]:
    """The solver's game against `word` (one of `words`, all its length): each guess, hit or miss, what is left."""
    codes = letter_codes(words).astype(np.int64)
    n = len(words)
    weights = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    has = np.zeros((n, 26), dtype=bool)
    has[np.repeat(np.arange(n), codes.shape[1]), codes.ravel()] = True
    secret = codes[words.index(word)]
    alive, guessed, revealed, misses, steps = np.ones(n, dtype=bool), np.zeros(26, dtype=bool), ["_"] * len(word), 0, []
    while alive.sum() > 1:
        mass = (has[alive] * weights[alive, None]).sum(axis=0)
        mass[guessed] = -1
        guess = int(np.argmax(mass))  # the first of the heaviest: ties to the alphabetically first letter
        guessed[guess] = True
        hit = secret == guess
        alive &= ((codes == guess) == hit).all(axis=1)
        misses += not hit.any()
        for i in np.flatnonzero(hit):
            revealed[i] = LETTERS[guess]
        steps.append({"step": len(steps) + 1, "guess": LETTERS[guess], "result": "hit" if hit.any() else "miss",
                      "pattern": " ".join(revealed), "candidates": int(alive.sum()), "misses": misses})
    return steps


TRACE_SCHEMA = {"step": pl.Int64, "guess": pl.String, "result": pl.String, "pattern": pl.String,
                "candidates": pl.Int64, "misses": pl.Int64}


def trace_word(store, config, word: str, weighted: bool = False) -> tuple[pl.DataFrame, dict]:
    """The solver's game against `word` in the store's lexicon, a row per guess, and facts about it
    (candidates, misses, rank if built)."""
    from pipeline.queries import parse_letters

    text = parse_letters(word, "word")
    words = (store.scan("words", ["word", "length", "zipf"]).filter(pl.col("length") == len(text))
             .select("word", "zipf").collect().sort("word"))
    names = words["word"].to_list()
    if text not in names:
        raise NotFound(f"{text} is not in lexicon {store.lexicon!r}: the solver only knows the lexicon's words")
    weights = None
    if weighted:
        s = settings(config)
        weights = setter_weights(words["zipf"].to_numpy(), s.prior, s.unknown_zipf)
    steps = trace(text, names, weights)
    facts = {"word": text, "length": len(text), "candidates": len(names), "weighted": weighted,
             "misses": steps[-1]["misses"] if steps else 0, "guesses": len(steps),
             "sequence": "".join(step["guess"] for step in steps)}
    if store.exists("hangman"):
        row = (store.scan("hangman", ["word", "rank_in_length", "band", "percentile_in_length"])
               .filter(pl.col("word") == text).select("rank_in_length", "band", "percentile_in_length").collect())
        if row.height:
            facts.update(row.to_dicts()[0])
    return pl.DataFrame(steps, schema=TRACE_SCHEMA), facts


LIST_COLUMNS = ["word", "length", "misses", "guesses", "sequence", "rank_in_length", "percentile_in_length", "band",
                "misses_weighted", "heuristic_band"]  # of hangman.parquet, as the lists show them


def select(store, config, length: int | None = None, hardest: int | None = None, easiest: int | None = None,
           band: str | None = None, common: bool = False) -> pl.DataFrame:
    """Words from hangman.parquet: filtered by length, band, commonness; hardest or easiest first."""
    if hardest is not None and easiest is not None:
        raise WordstatsError("choose one of --hardest and --easiest")
    if band is not None and band.lower() not in BANDS:
        raise WordstatsError(f"bad --band {band!r}: use one of {', '.join(BANDS)}")
    for name, value in (("--hardest", hardest), ("--easiest", easiest), ("--length", length)):
        if value is not None and value < 1:
            raise WordstatsError(f"{name} must be at least 1, got {value}")
    table = store.scan("hangman", LIST_COLUMNS).join(store.scan("words", ["word", "zipf"]).select("word", "zipf"),
                                                     on="word", how="left")
    if length is not None:
        table = table.filter(pl.col("length") == length)
    if band is not None:
        table = table.filter(pl.col("band") == band.lower())
    if common:
        table = table.filter(pl.col("zipf") >= settings(config).common_zipf)
    if easiest is not None:
        table = table.sort(["misses", "guesses", "word"]).head(min(easiest, MAX_ROWS))
    else:
        table = table.sort(["misses", "guesses", "word"], descending=[True, True, False])
        table = table.head(min(hardest, MAX_ROWS)) if hardest is not None else table
    found = table.select(*LIST_COLUMNS, "zipf").collect()
    if found.is_empty():
        asked = [f"length {length}" if length is not None else "", f"band {band.lower()}" if band else "",
                 "common" if common else ""]
        raise NotFound(f"no words in lexicon {store.lexicon!r} match ({', '.join(a for a in asked if a) or 'all'})")
    return found

"""The report's sections, one per table."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import cast

import polars as pl

from pipeline.core.registry import setting
from pipeline.report.model import Section, Skip, Tables
from pipeline.report.plots import (
    plot_family_sizes,
    plot_findable,
    plot_hardest,
    plot_histogram,
    plot_lengths,
    plot_misses,
    plot_openings,
    plot_optimal,
    plot_stems,
)


def overview_section(t: Tables, p: dict) -> Section:
    """How many rows each table has."""
    union = " UNION ALL ".join(
        f"SELECT '{name}.parquet' AS table_name, count(*) AS rows FROM {name}" for name in t.frames
    )
    s = Section("overview", "Tables", "every table", "The tables this report reads and their sizes.")
    s.parts.append(t.part("rows", "Rows per table", f"SELECT * FROM ({union}) ORDER BY table_name"))
    return s


def words_section(t: Tables, p: dict) -> Section:
    """The lexicon: size, word lengths, common words."""
    t.need("words", "word", "length", "zipf")
    z = p["common_zipf"]
    s = Section(
        "words",
        "Words",
        "words.parquet",
        f"The lexicon after ingest. Common words have a Zipf frequency of at least {z:g} (wordfreq).",
    )
    s.parts.append(
        t.part(
            "summary",
            "Key numbers",
            f"""
        SELECT count(*) AS words, round(avg(length), 2) AS mean_length, max(length) AS longest,
               sum(CASE WHEN zipf >= {z} THEN 1 ELSE 0 END) AS common_words FROM words""",
            show="figures",
        )
    )
    s.parts.append(
        t.part(
            "lengths",
            "Word length distribution",
            f"""
        SELECT length, count(*) AS words, sum(CASE WHEN zipf >= {z} THEN 1 ELSE 0 END) AS common_words
        FROM words GROUP BY length ORDER BY length""",
            show="plot",
            plot=plot_lengths,
        )
    )
    s.parts.append(
        t.part(
            "longest",
            "The longest words",
            f"""
        SELECT word, length, zipf FROM words ORDER BY length DESC, word LIMIT {min(p["top"], 10)}""",
        )
    )
    return s


def anagrams_section(t: Tables, p: dict) -> Section:
    """Anagram families: how many, how big, the largest and the most probable."""
    t.need("anagrams", "alphagram", "length", "words", "n_words", "probability", "probability_order")
    s = Section(
        "anagrams",
        "Anagram families",
        "anagrams.parquet",
        "One row per alphagram (the word's letters sorted); a family is an alphagram with two or more words.",
    )
    s.parts.append(
        t.part(
            "summary",
            "Key numbers",
            """
        SELECT count(*) AS alphagrams, sum(CASE WHEN n_words >= 2 THEN 1 ELSE 0 END) AS families,
               max(n_words) AS largest_family FROM anagrams""",
            show="figures",
        )
    )
    s.parts.append(
        t.part(
            "sizes",
            "Anagram family sizes",
            """
        SELECT n_words, count(*) AS alphagrams FROM anagrams GROUP BY n_words ORDER BY n_words""",
            show="plot",
            plot=plot_family_sizes,
        )
    )
    s.parts.append(
        t.part(
            "largest",
            "The largest families",
            f"""
        SELECT alphagram, n_words, words FROM anagrams ORDER BY n_words DESC, alphagram LIMIT {min(p["top"], 10)}""",
        )
    )
    s.parts.append(
        t.part(
            "probable7",
            "The most probable seven-letter racks that make words",
            f"""
        SELECT alphagram, words, probability_order FROM anagrams WHERE length = 7
        ORDER BY probability_order LIMIT {min(p["top"], 10)}""",
        )
    )
    return s


def stems_section(t: Tables, p: dict) -> Section:
    """Bingo stems: how many, and the ones that combine with the most letters."""
    t.need("stems", "stem", "stem_length", "letters", "n_letters", "n_bingos")
    s = Section(
        "stems",
        "Bingo stems",
        "stems.parquet",
        "Six- and seven-letter stems and the letters that turn them into bingos.",
    )
    s.parts.append(
        t.part(
            "summary",
            "Stems per length",
            """
        SELECT stem_length, count(*) AS stems, max(n_letters) AS most_letters, max(n_bingos) AS most_bingos
        FROM stems GROUP BY stem_length ORDER BY stem_length""",
        )
    )
    for n in sorted(set(t.frames["stems"]["stem_length"].to_list())):  # the lengths the stems stage made
        s.parts.append(
            t.part(
                f"top{n}",
                f"Top {n}-letter stems by combining letters",
                f"""
            SELECT stem, n_letters, n_bingos, letters FROM stems WHERE stem_length = {n}
            ORDER BY n_letters DESC, n_bingos DESC, stem LIMIT {p["top"]}""",
                show="plot",
                plot=plot_stems,
            )
        )
    return s


def boggle_section(t: Tables, p: dict) -> Section:
    """Random Boggle boards: scores per dice set."""
    t.need("boggle_boards", "dice", "score", "n_words", "longest")
    best = int(cast(int, t.frames["boggle_boards"]["score"].max()) or 0)
    width = max(1, math.ceil((best + 1) / p["bins"]))
    s = Section(
        "boggle",
        "Boggle boards",
        "boggle_boards.parquet",
        "Random boards rolled from each dice set and scored with the lexicon.",
    )
    s.parts.append(
        t.part(
            "summary",
            "Scores per dice set",
            """
        SELECT dice, count(*) AS boards, round(avg(score), 1) AS mean_score, median(score) AS median_score,
               max(score) AS best_score, round(avg(n_words), 1) AS mean_words,
               max(length(longest)) AS longest_word_letters
        FROM boggle_boards GROUP BY dice ORDER BY dice""",
        )
    )
    s.parts.append(
        t.part(
            "histogram",
            f"Score histogram per dice set (bins of {width} points)",
            f"""
        SELECT dice, CAST(floor(score / {width}) * {width} AS INTEGER) AS bin, count(*) AS boards
        FROM boggle_boards GROUP BY dice, bin ORDER BY dice, bin""",
            show="plot",
            plot=plot_histogram,
        )
    )
    return s


def boggle_words_section(t: Tables, p: dict) -> Section:
    """Which words turn up most often on random Boggle boards."""
    t.need("boggle_words", "word", "boards_found", "find_rate")
    s = Section(
        "boggle_words",
        "Findable Boggle words",
        "boggle_words.parquet",
        "The share of random boards on which each word can be traced.",
    )
    per_dice = "dice" in t.frames["boggle_words"].columns  # one rate per word and dice set
    stats = (
        "count(*) AS words, sum(CASE WHEN boards_found > 0 THEN 1 ELSE 0 END) AS words_ever_found, "
        "max(find_rate) AS best_find_rate"
    )
    if per_dice:
        s.parts.append(
            t.part(
                "summary",
                "Key numbers per dice set",
                f"SELECT dice, {stats} FROM boggle_words GROUP BY dice ORDER BY dice",
            )
        )
    else:
        s.parts.append(t.part("summary", "Key numbers", f"SELECT {stats} FROM boggle_words", show="figures"))
    dice = "dice, " if per_dice else ""
    s.parts.append(
        t.part(
            "top",
            "The most findable words",
            f"""
        SELECT {dice}word, find_rate, boards_found FROM boggle_words
        ORDER BY find_rate DESC, word{", dice" if per_dice else ""} LIMIT {p["top"]}""",
            show="plot",
            plot=plot_findable,
        )
    )
    return s


def hangman_section(t: Tables, p: dict) -> Section:
    """Hangman: how many misses the reference solver makes, by word length."""
    t.need("hangman", "word", "length", "misses", "guesses", "sequence", "expected_misses")
    gallows, classic = p["gallows"], setting("hangman.gallows").default  # the configured one, the default
    s = Section(
        "hangman",
        "Hangman difficulty",
        "hangman.parquet",
        "Misses the reference solver makes on each word (it knows the lexicon and guesses the letter "
        "least likely to miss). "
        f"{gallows} misses complete the gallows ([hangman] gallows; a classic one allows {classic}).",
    )
    s.parts.append(
        t.part(
            "summary",
            "Key numbers",
            f"""
        SELECT count(*) AS words, round(avg(misses), 2) AS mean_misses,
               round(avg(expected_misses), 2) AS mean_expected_misses, max(misses) AS most_misses,
               sum(CASE WHEN misses <= {gallows} THEN 1 ELSE 0 END) AS solved_within_{gallows}_misses FROM hangman""",
            show="figures",
        )
    )
    s.parts.append(
        t.part(
            "by_length",
            "Hangman misses by word length",
            f"""
        SELECT length, count(*) AS words, round(avg(misses), 2) AS mean_misses, max(misses) AS most_misses,
               round(avg(CASE WHEN misses <= {gallows} THEN 1.0 ELSE 0.0 END), 4) AS share_within_{gallows}
        FROM hangman GROUP BY length ORDER BY length""",
            show="plot",
            plot=functools.partial(plot_misses, gallows=gallows),
        )
    )
    if "optimal_misses" in t.frames["hangman"].columns:
        s.parts.append(
            t.part(
                "optimal",
                "Greedy against optimal guessing by word length",
                """
        SELECT length, count(*) AS words, round(avg(misses), 4) AS greedy_mean_misses,
               round(avg(optimal_misses), 4) AS optimal_mean_misses, count(optimal_misses) AS proved_words
        FROM hangman GROUP BY length ORDER BY length""",
                show="plot",
                plot=plot_optimal,
            )
        )
    if "optimal_misses" in t.frames["hangman"].columns:
        s.parts.append(
            t.part(
                "hardest_by_measure",
                "The hardest word of each length by the optimal strategy (where proved), the greedy solver with "
                "fair tie-breaks and with ties broken alphabetically: its misses, the first such word, how many",
                """
        WITH peak AS (
            SELECT length, max(optimal_misses) AS optimal_most, max(expected_misses) AS fair_most,
                   max(misses) AS greedy_most
            FROM hangman GROUP BY length)
        SELECT peak.length, peak.optimal_most,
               min(CASE WHEN h.optimal_misses = peak.optimal_most THEN h.word END) AS optimal_word,
               sum(CASE WHEN h.optimal_misses = peak.optimal_most THEN 1 ELSE 0 END) AS optimal_words,
               round(peak.fair_most, 3) AS fair_most,
               min(CASE WHEN h.expected_misses = peak.fair_most THEN h.word END) AS fair_word,
               sum(CASE WHEN h.expected_misses = peak.fair_most THEN 1 ELSE 0 END) AS fair_words,
               peak.greedy_most,
               min(CASE WHEN h.misses = peak.greedy_most THEN h.word END) AS greedy_word,
               sum(CASE WHEN h.misses = peak.greedy_most THEN 1 ELSE 0 END) AS greedy_words
        FROM hangman h JOIN peak ON h.length = peak.length
        GROUP BY peak.length, peak.optimal_most, peak.fair_most, peak.greedy_most ORDER BY peak.length""",
                show="plot",
                plot=plot_hardest,
            )
        )
    s.parts.append(
        t.part(
            "hardest",
            "The hardest words (most expected misses when ties are broken at random)",
            f"""
        SELECT word, length, round(expected_misses, 3) AS expected_misses, misses, guesses, sequence FROM hangman
        ORDER BY expected_misses DESC, misses DESC, guesses DESC, word LIMIT {min(p["top"], 10)}""",
        )
    )
    return s


def openings_section(t: Tables, p: dict) -> Section:
    """Scrabble and Words With Friends: the best opening-move score of each word."""
    t.need("openings", "word")
    columns = opening_score_columns(t.frames["openings"])
    if not columns:
        raise Skip("openings.parquet has no score columns")
    s = Section(
        "openings",
        "Opening scores",
        "openings.parquet",
        "The best score each word earns as the first move on an empty board.",
    )
    stats = ", ".join(f"round(avg({c}), 1) AS mean_{c}, max({c}) AS best_{c}" for c in columns)
    s.parts.append(t.part("summary", "Key numbers", f"SELECT count(*) AS words, {stats} FROM openings", show="figures"))
    width = 5
    scores = " UNION ALL ".join(
        f"SELECT '{c.replace('_score', '').replace('score_', '')}' AS game, "
        f"CAST(floor({c} / {width}) * {width} AS INTEGER) AS score_from, count(*) AS words FROM openings "
        f"WHERE {c} IS NOT NULL GROUP BY score_from"
        for c in columns
    )
    s.parts.append(
        t.part(
            "histogram",
            f"Best opening scores (bins of {width} points)",
            f"SELECT * FROM ({scores}) ORDER BY game, score_from",
            show="plot",
            plot=plot_openings,
        )
    )
    first = columns[0]
    s.parts.append(
        t.part(
            "top",
            f"The best openings ({first})",
            f"""
        SELECT word, {", ".join(columns)} FROM openings ORDER BY {first} DESC, word LIMIT {min(p["top"], 10)}""",
        )
    )
    return s


def opening_score_columns(df: pl.DataFrame) -> list[str]:
    """The best-score columns of the openings table, one per game (names containing 'score')."""
    return [c for c, dtype in df.schema.items() if "score" in c and dtype.is_numeric()]


SECTIONS: tuple[Callable[[Tables, dict], Section], ...] = (
    words_section,
    anagrams_section,
    stems_section,
    boggle_section,
    boggle_words_section,
    hangman_section,
    openings_section,
)

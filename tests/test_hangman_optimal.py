"""Optimal Hangman: the exact search against brute force over every strategy, its games, and known values."""

from __future__ import annotations

import json
import random
import shutil
from collections import defaultdict
from functools import cache

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.hangman import optimal
from pipeline.hangman.solver import solve_length

UZZLE = ["GUZZLE", "MUZZLE", "NUZZLE", "PUZZLE"]  # ENABLE's -UZZLE words


def brute_force(words: list[str], weights: list[int] | None = None) -> int:
    """The least total miss weight over every strategy, by trying every letter of the alphabet at every turn
    (letters already guessed, absent or splitting nothing included) until one word is left."""
    weight = dict(zip(words, weights or [1] * len(words)))
    alphabet = sorted(set("".join(words)) | {"Z"})

    @cache
    def cost(candidates: tuple[str, ...], guessed: frozenset) -> int:
        """The least miss weight from here."""
        if len(candidates) <= 1:
            return 0
        best = None
        for letter in alphabet:
            if letter in guessed:
                continue
            answers = defaultdict(list)
            for word in candidates:
                answers[tuple(i for i, ch in enumerate(word) if ch == letter)].append(word)
            value = sum(weight[w] for w in answers.get((), ())) + sum(
                cost(tuple(group), guessed | {letter}) for group in answers.values()
            )
            best = value if best is None else min(best, value)
        return best

    return cost(tuple(sorted(words)), frozenset())


def games(words: list[str], found: optimal.Search) -> dict[str, tuple[int, str]]:
    """Each word's misses and guessed letters under the strategy the search played out."""
    assert found.misses is not None and found.letters is not None and found.guesses is not None
    return {
        w: (int(found.misses[i]), "".join(chr(65 + c) for c in found.letters[i, : found.guesses[i]]))
        for i, w in enumerate(words)
    }


def check_strategy(words: list[str], found: optimal.Search, weights: list[int]) -> None:
    """The games are one strategy: each word's guesses replayed against the words end with it alone, its misses
    are its guesses it lacks, two words answered alike so far guess alike next, and the misses add up."""
    played = games(words, found)
    for word, (misses, sequence) in played.items():
        left = list(words)
        for letter in sequence:
            assert len(left) > 1, (word, sequence)  # no guess after the word is known
            left = [w for w in left if all((a == letter) == (b == letter) for a, b in zip(w, word))]
        assert left == [word], (word, sequence)
        assert misses == sum(letter not in word for letter in sequence)
    for a in words:
        for b in words:
            sa, sb = played[a][1], played[b][1]
            same = 0
            while same < min(len(sa), len(sb)) and sa[same] == sb[same]:
                if any((x == sa[same]) != (y == sa[same]) for x, y in zip(a, b)):
                    break  # answered differently: the games part here
                same += 1
            else:
                if same < min(len(sa), len(sb)):
                    assert sa[same] == sb[same], (a, b, sa, sb)
    assert sum(m * w for (m, _), w in zip(played.values(), weights)) == found.upper


word_sets = st.integers(1, 4).flatmap(
    lambda n: st.lists(st.text("ABCDE", min_size=n, max_size=n), min_size=1, max_size=12, unique=True)
)


@settings(max_examples=150, deadline=None)
@given(word_sets, st.lists(st.integers(1, 9), min_size=12, max_size=12))
def test_search_equals_brute_force_over_every_strategy(words, raw_weights):
    words = sorted(words)
    for weights in ([1] * len(words), raw_weights[: len(words)]):
        found = optimal.search(words, np.array(weights))
        assert found.proved and found.lower == brute_force(words, weights), (words, weights)
        check_strategy(words, found, weights)
        greedy_misses = solve_length(words, weights)[0]
        assert found.upper <= int(np.dot(greedy_misses, weights))


@settings(max_examples=40, deadline=None)
@given(word_sets)
def test_a_small_memo_gives_the_same_optimum(words):
    words = sorted(words)
    small = optimal.search(words, memo_bits=4)  # states are evicted and searched again
    assert small.proved and small.lower == optimal.search(words).lower
    check_strategy(words, small, [1] * len(words))


@settings(max_examples=40, deadline=None)
@given(word_sets, st.integers(1, 6))
def test_a_search_stopped_early_bounds_the_optimum(words, limit):
    words = sorted(words)
    found = optimal.search(words, limit=limit)
    exact = brute_force(words)
    assert found.lower <= exact <= found.upper
    assert found.proved == (found.misses is not None)


def test_the_seed_articles_examples():
    assert optimal.search(["DARE", "DEAD", "DEED"]).upper == 0  # D and E split them with no miss
    uzzle = optimal.search(UZZLE)
    assert uzzle.proved and uzzle.upper == 0 + 1 + 2 + 3  # each first letter peels one word off the rest
    assert sorted(uzzle.misses.tolist()) == [0, 1, 2, 3]
    assert optimal.adversary(UZZLE).lower == 3 and optimal.adversary(["DARE", "DEAD", "DEED"]).lower == 0


def test_free_letters_and_peeling_sets_are_exact():
    seven = sorted(["DEED", "EVEN", "EYES", "HEEL", "MERE", "PEEP", "STAR"])
    found = optimal.search(seven)
    assert found.upper == brute_force(seven) == 5  # the reference solver is optimal here
    weights = [5, 1, 1, 9]
    assert optimal.search(UZZLE, np.array(weights)).upper == 9 * 0 + 5 * 1 + 1 * 2 + 1 * 3


def brute_force_minimax(words: list[str]) -> int:
    """The least, over every strategy, of the most misses any word costs (every letter tried at every turn)."""
    alphabet = sorted(set("".join(words)) | {"Z"})

    @cache
    def worst(candidates: tuple[str, ...], guessed: frozenset) -> int:
        """The minimax value from here."""
        if len(candidates) <= 1:
            return 0
        best = None
        for letter in alphabet:
            if letter in guessed:
                continue
            answers = defaultdict(list)
            for word in candidates:
                answers[tuple(i for i, ch in enumerate(word) if ch == letter)].append(word)
            if len(answers) == 1 and () not in answers:
                continue  # a letter every word holds alike: guessing it changes nothing
            value = max((not where) + worst(tuple(group), guessed | {letter}) for where, group in answers.items())
            best = value if best is None else min(best, value)
        return best

    return worst(tuple(sorted(words)), frozenset())


@settings(max_examples=150, deadline=None)
@given(word_sets)
def test_minimax_equals_brute_force_over_every_strategy(words):
    words = sorted(words)
    found = optimal.adversary(words)
    assert found.proved and found.lower == brute_force_minimax(words), words
    assert int(found.misses.max()) == found.lower
    greedy_worst = int(solve_length(words)[0].max())
    assert found.upper <= greedy_worst
    for limit in (0, 1, 2):  # stopped early: proved only when the greedy strategy meets the bound, and then played
        early = optimal.adversary(words, limit=limit)
        assert early.lower <= found.lower <= early.upper
        assert (early.misses is not None) == early.proved
        assert early.misses is None or int(early.misses.max()) == found.lower


# ---- into the data: the stage's columns, the per-length job, the trace ------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.lists(word_sets, min_size=1, max_size=3), st.integers(1, 40))
def test_the_stage_columns_are_the_optimal_games_where_proved(groups, states):
    from pipeline.hangman.difficulty import optimal_play

    names = sorted({w for group in groups for w in group})
    table, proofs = optimal_play(names, states)
    assert table.height == len(names)
    for length, proof in proofs.items():
        words = [w for w in names if len(w) == length]
        rows = table.filter(pl.Series([len(w) == length for w in names]))
        exact = brute_force(words)
        assert proof["lower_bound"] <= round(exact / len(words), 6) <= proof["expected_misses"]
        if proof["proved"]:
            assert int(rows["optimal_misses"].sum()) == exact
            for word, misses, sequence in zip(words, rows["optimal_misses"], rows["optimal_sequence"]):
                assert misses == sum(letter not in word for letter in sequence)
        else:
            assert rows["optimal_misses"].null_count() == len(words) and proof["states"] >= states


def test_the_per_length_job_against_brute_force(tmp_path):
    from pipeline.core.executor import LocalEngine, run
    from pipeline.hangman.lengths import lengths_job

    rng = random.Random(7)
    words = sorted({"".join(rng.choice("ABCDE") for _ in range(n)) for n in (2, 3, 4) for _ in range(9)})
    result = run(lengths_job(words, 1 << 40, 1 << 40), tmp_path, "t", LocalEngine())
    rows = result.tables["lengths"].sort("length").to_dicts()
    assert [r["length"] for r in rows] == [2, 3, 4] and result.computed == 3
    for row in rows:
        group = [w for w in words if len(w) == row["length"]]
        greedy = solve_length(group)[0]
        assert row["words"] == len(group) and row["proved"] and row["minimax_proved"]
        assert row["optimal"] == row["lower"] == round(brute_force(group) / len(group), 6)
        assert row["greedy"] == round(greedy.sum() / len(group), 6) and row["greedy"] >= row["optimal"]
        assert row["minimax"] == row["minimax_upper"] == brute_force_minimax(group)
        assert row["minimax_count"] >= 1 and row["greedy_hardest_misses"] == greedy.max()
        games = result.tables["words"].filter(pl.col("word").is_in(group))
        assert row["hardest_misses"] == games["optimal_misses"].max()
        hardest = games.filter(pl.col("optimal_misses") == row["hardest_misses"])["word"].to_list()
        assert row["hardest_words"] == " ".join(hardest[:12]) and row["hardest_count"] == len(hardest)
    again = run(lengths_job(words, 1 << 40, 1 << 40), tmp_path, "t", LocalEngine())
    assert again.computed == 0 and again.tables["lengths"].equals(result.tables["lengths"])


def test_the_weighted_per_length_job_against_brute_force(tmp_path):
    from pipeline.core.executor import LocalEngine, run
    from pipeline.hangman.lengths import weighted_job

    rng = random.Random(8)
    words = sorted({"".join(rng.choice("ABCDE") for _ in range(n)) for n in (2, 3, 4) for _ in range(9)})
    weights = [rng.randint(1, 9) for _ in words]
    weight_of = dict(zip(words, weights))
    result = run(weighted_job(words, weights, 1 << 40), tmp_path, "t", LocalEngine())
    rows = result.tables["weighted"].to_dicts()
    assert [r["length"] for r in rows] == [4, 3, 2]  # longest first
    for row in rows:
        group = [w for w in words if len(w) == row["length"]]
        wt = [weight_of[w] for w in group]
        greedy = solve_length(group, np.array(wt))[0]
        assert row["words"] == len(group) and row["proved"] and row["gap"] == 0.0
        assert row["optimal"] == row["lower"] == round(brute_force(group, wt) / sum(wt), 6)
        assert row["greedy"] == round(float(greedy @ np.array(wt)) / sum(wt), 6) >= row["optimal"]


def test_a_traced_game_follows_the_optimal_strategy(build):
    from tests.conftest import SMALL_CONFIG, run_cli

    data = build(["DARE", "DEAD", "DEED", *UZZLE], "hangman")
    table = pl.read_parquet(data / "t" / "hangman.parquet")
    assert dict(zip(table["word"], table["optimal_misses"])) == {
        "DARE": 0, "DEAD": 0, "DEED": 0, "GUZZLE": 0, "MUZZLE": 1, "NUZZLE": 2, "PUZZLE": 3
    }  # fmt: skip
    summary = json.loads((data / "t" / "hangman_summary.json").read_text())
    six = next(e for e in summary["lengths"] if e["length"] == 6)
    assert six["optimal"]["proved"] and six["optimal"]["expected_misses"] == 1.5
    common = ["--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
    res = run_cli("hangman", "puzzle", *common)
    assert res.exit_code == 0, res
    lines = res.stdout.splitlines()
    at = lines.index("optimal strategy (fewest expected misses over the 6-letter words of t, proved):")
    assert [line.split()[1:3] for line in lines[at + 3 : at + 6]] == [["G", "miss"], ["M", "miss"], ["N", "miss"]]
    assert lines[at + 6] == "optimal: 3 misses in 3 guesses (GMN); the solver above: 3 misses"
    doc = json.loads(run_cli("hangman", "MUZZLE", "--json", *common).stdout)
    assert doc["optimal"]["misses"] == 1 and doc["optimal"]["sequence"] == "GM"
    assert [s["candidates"] for s in doc["optimal"]["steps"]] == [3, 1]


def test_the_per_length_tool_refuses_bad_options_in_one_line(tmp_path, capsys):
    from pipeline.hangman.lengths import main

    (tmp_path / "t").mkdir()
    pl.DataFrame({"word": ["AB", "ABC", "BCA"], "zipf": [3.0, 2.0, 0.0]}).write_parquet(tmp_path / "t/words.parquet")
    out = tmp_path / "out.csv"
    common = ["t", "--states", "100", "--data-dir", str(tmp_path), "--out", str(out)]
    refusals = {
        "no words of 40 to": ["--weighted", "--min-length", "40"],
        "--min-length 3 is more than --max-length 2": ["--weighted", "--min-length", "3", "--max-length", "2"],
        "--adversary-states is required unless --weighted": [],
        "--processes 0: give 1 to": ["--adversary-states", "100", "--processes", "0"],
    }
    for message, args in refusals.items():
        assert main(common + args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and "error" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t"] and sorted(
        p.name for p in (tmp_path / "t").iterdir()
    ) == ["words.parquet"]


@pytest.mark.slow  # every ENABLE word solved
def test_the_committed_enable_table_is_bounded_by_the_fair_greedy_expectation(enable_words):
    """docs/data/hangman_optimal_enable.csv against ENABLE itself: each length's word count, and the optimum (the
    proved lower bound where not proved) never above the greedy solver's expectation over fair tie-breaks, nor the
    lower bound above the optimum."""
    from pipeline.hangman.expected import expected_misses
    from tests.conftest import ROOT

    table = pl.read_csv(ROOT / "docs" / "data" / "hangman_optimal_enable.csv")
    by_length: dict[int, list[str]] = defaultdict(list)
    for word in enable_words:
        by_length[len(word)].append(word)
    assert table["length"].to_list() == sorted(n for n in by_length if n >= 2)
    for row in table.iter_rows(named=True):
        words = sorted(by_length[row["length"]])
        fair = float(np.mean(expected_misses(words)))
        assert row["words"] == len(words) and row["lower"] <= row["optimal"] <= row["greedy"] + 1e-6, row
        assert row["lower"] <= fair + 1e-6 and (not row["proved"] or row["optimal"] <= fair + 1e-6), (row, fair)
        assert row["proved"] == (row["gap"] == 0.0), row


def table_rows(lexicon: str) -> list[str]:
    """docs/hangman.md's table rows for a committed per-length table: expected misses (bold where proved, else the
    proved lower bound and the best strategy found), the minimax (a range where not proved) and its first words,
    and the CPU seconds of both searches (from the .cpu.json beside the table)."""
    from tests.conftest import ROOT

    table = pl.read_csv(
        ROOT / "docs" / "data" / f"hangman_optimal_{lexicon}.csv", schema_overrides={"minimax_words": pl.String}
    )
    cpu = json.loads((ROOT / "docs" / "data" / f"hangman_optimal_{lexicon}.cpu.json").read_text())
    seconds = {e["length"]: e["optimal_seconds"] + e["minimax_seconds"] for e in cpu["lengths"]}
    rows = []
    for r in table.iter_rows(named=True):
        best = f"**{r['optimal']:.6f}**" if r["proved"] else f"{r['lower']:.3f}–{r['optimal']:.3f}"
        minimax = str(r["minimax"]) if r["minimax_proved"] else f"{r['minimax']}–{r['minimax_upper']}"
        words = (r["minimax_words"] or "").split() if r["minimax_proved"] else []
        more = (r["minimax_count"] or 0) - 4
        shown = " ".join(words[:4]) + (f" (+{more})" if more > 0 else "")
        rows.append(
            f"| {r['length']} | {r['words']:,} | {r['greedy']:.6f} | {best} | {minimax} | {shown} | "
            f"{seconds[r['length']]:.1f} |"
        )
    return rows


def test_the_docs_tables_are_the_committed_tables():
    from tests.conftest import ROOT

    page = (ROOT / "docs" / "hangman.md").read_text().splitlines()
    for lexicon in ("enable", "web2"):
        rows = table_rows(lexicon)
        assert rows[0] in page, lexicon
        start = page.index(rows[0])
        assert page[start : start + len(rows)] == rows, lexicon


def test_the_per_length_tool_writes_the_same_table_in_worker_processes(tmp_path):
    from pipeline.hangman.lengths import main

    words = ["AB", "AD", "BA", "ABC", "BCA", "CAB", "DAB", "ABCD", "BADE", "DEAD", "BEAD", "CEDE", "ACED", "DACE"]
    (tmp_path / "t").mkdir()
    pl.DataFrame({"word": words}).write_parquet(tmp_path / "t/words.parquet")
    tables = []
    for processes in ("1", "2"):
        out = tmp_path / f"{processes}.csv"
        common = ["--states", "1000", "--adversary-states", "1000", "--data-dir", str(tmp_path), "--out", str(out)]
        assert main(["t", *common, "--processes", processes]) == 0
        tables.append(out.read_bytes())
        for job in (tmp_path / "t" / "jobs").iterdir():  # the second run computes again, in worker processes
            shutil.rmtree(job)
    assert tables[0] == tables[1] and tables[0].count(b"\n") == 4


def hardest_rows(words: list[str]) -> list[str]:
    """docs/hangman.md's hardest words of each proved length of ENABLE up to 17 letters (from 18 the greedy solver
    is optimal): under the optimal strategy (the committed table), under the greedy solver with fair tie-breaks
    (the highest expected misses) and with ties broken alphabetically; the first four words and how many more."""
    from pipeline.hangman.expected import expected_misses
    from tests.conftest import ROOT

    def shown(found: list[str], count: int) -> str:
        """The first four words, and how many more."""
        return " ".join(found[:4]) + (f" (+{count - 4})" if count > 4 else "")

    by_length: dict[int, list[str]] = defaultdict(list)
    for word in words:
        by_length[len(word)].append(word)
    table = pl.read_csv(
        ROOT / "docs" / "data" / "hangman_optimal_enable.csv", schema_overrides={"hardest_words": pl.String}
    )
    rows = []
    for r in table.filter(pl.col("proved") & (pl.col("length") <= 17)).iter_rows(named=True):
        group = sorted(by_length[r["length"]])
        fair, misses = np.array(expected_misses(group)), solve_length(group)[0]
        fair_top = [w for w, x in zip(group, fair) if x >= fair.max() - 1e-9]
        greedy_top = [w for w, m in zip(group, misses) if m == misses.max()]
        rows.append(
            f"| {r['length']} | {r['hardest_misses']} | {shown(r['hardest_words'].split(), r['hardest_count'])} | "
            f"{fair.max():.3f} | {shown(fair_top, len(fair_top))} | {misses.max()} | "
            f"{shown(greedy_top, len(greedy_top))} |"
        )
    return rows


@pytest.mark.slow  # every ENABLE word solved
def test_the_docs_hardest_words_are_each_measures(enable_words):
    from tests.conftest import ROOT

    page = (ROOT / "docs" / "hangman.md").read_text().splitlines()
    rows = hardest_rows(enable_words)
    assert len(rows) >= 11 and rows[0] in page
    start = page.index(rows[0])
    assert page[start : start + len(rows)] == rows

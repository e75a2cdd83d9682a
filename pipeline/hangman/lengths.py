"""Optimal Hangman per word length: the exact search, the adversary's minimax and the hardest words under the
optimal guesser, one length at a time, as a sharded job of the executor (a shard per length, shortest first).

`python -m pipeline.hangman.lengths LEXICON --states N --out docs/data/hangman_optimal_LEXICON.csv` runs it on
a built lexicon's words.parquet and writes the per-length table; the job's shards stay in the lexicon's jobs/
folder, so the same command resumes or reuses them. The states budgets make every figure reproducible; only the
CPU seconds (written beside the table, in a .cpu.json file) vary between runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.core.jobs import Job, Parts, Shard, words_digest

if TYPE_CHECKING:
    from pipeline.hangman.optimal import Search

LISTED = 12  # words listed per length for the minimax value and the hardest words
ROUND = 6  # decimals of the expected misses
PROG = "python -m pipeline.hangman.lengths"
LENGTH_TABLE = {
    "length": pl.Int32,
    "words": pl.Int64,
    "greedy": pl.Float64,  # expected misses of the greedy (reference) solver
    "optimal": pl.Float64,  # of the best strategy found (the optimum when proved)
    "lower": pl.Float64,  # no strategy misses fewer on average
    "proved": pl.Boolean,
    "gap": pl.Float64,  # optimal - lower
    "states": pl.Int64,  # states the search expanded
    "budget": pl.Int64,  # of states
    "minimax": pl.Int32,  # the most misses an evil setter can force (its lower bound when not proved)
    "minimax_upper": pl.Int32,
    "minimax_proved": pl.Boolean,
    "minimax_count": pl.Int64,  # words that cost `minimax` misses under the minimax strategy found
    "minimax_words": pl.String,  # the first LISTED of them
    "minimax_states": pl.Int64,
    "minimax_budget": pl.Int64,
    "hardest_misses": pl.Int32,  # the most misses of a word under the optimal strategy (null unless proved)
    "hardest_count": pl.Int64,
    "hardest_words": pl.String,
    "greedy_hardest_misses": pl.Int32,
    "greedy_hardest_words": pl.String,
}
CPU_TABLE = {"length": pl.Int32, "optimal_seconds": pl.Float64, "minimax_seconds": pl.Float64}
WEIGHTED_TABLE = {
    "length": pl.Int32,
    "words": pl.Int64,
    "greedy": pl.Float64,  # expected misses of the frequency-weighted solver against the frequency-weighted setter
    "optimal": pl.Float64,  # of the best strategy found against that setter (the optimum when proved)
    "lower": pl.Float64,
    "proved": pl.Boolean,
    "gap": pl.Float64,
    "states": pl.Int64,
    "budget": pl.Int64,
    "seconds": pl.Float64,  # CPU seconds of the search (the one column that varies between runs)
}
WORD_TABLE = {"word": pl.String, "optimal_misses": pl.Int32, "optimal_guesses": pl.Int32, "optimal_sequence": pl.String}


@dataclass(frozen=True)
class Lengths:
    """A job's input: the distinct words of each length (shortest length first) and the budgets per length."""

    words: tuple[tuple[str, ...], ...]
    states: tuple[int, ...]  # the optimal search's budget of states for each length
    adversary_states: tuple[int, ...]  # the minimax search's


def listed(words: list[str]) -> str:
    """The first LISTED words, space-separated."""
    return " ".join(words[:LISTED])


def search_columns(found: Search, states: int) -> dict[str, Any]:
    """A row's columns of the optimal search `found`, run with a budget of `states`."""
    return {
        "optimal": round(found.expected, ROUND),
        "lower": round(found.lower / found.total_weight, ROUND),
        "proved": found.proved,
        "gap": round(found.gap, ROUND),
        "states": found.expanded,
        "budget": states,
    }


def length_figures(words: list[str], states: int, adversary_states: int) -> tuple[dict[str, Any], Parts]:
    """One length's row (optimal against greedy, minimax, hardest words), its words' optimal games, and the CPU
    seconds of both searches."""
    from pipeline.hangman import optimal

    words = sorted(words)
    greedy = optimal.solve_length_misses(words)
    found = optimal.search(words, limit=states)
    evil = optimal.adversary(words, limit=adversary_states)
    realising: list[str] = []
    if evil.misses is not None:
        realising = [w for w, m in zip(words, evil.misses) if m == evil.lower]
    hardest: list[str] = []
    if found.misses is not None:
        hardest = [w for w, m in zip(words, found.misses) if m == found.misses.max()]
    worst = int(greedy.max())
    row = {
        "length": len(words[0]),
        "words": len(words),
        "greedy": round(float(greedy.sum()) / len(words), ROUND),
        **search_columns(found, states),
        "minimax": evil.lower,
        "minimax_upper": evil.upper,
        "minimax_proved": evil.proved,
        "minimax_count": len(realising),
        "minimax_words": listed(realising) if realising else None,
        "minimax_states": evil.expanded,
        "minimax_budget": adversary_states,
        "hardest_misses": int(found.misses.max()) if found.misses is not None else None,
        "hardest_count": len(hardest) if found.misses is not None else None,
        "hardest_words": listed(hardest) if hardest else None,
        "greedy_hardest_misses": worst,
        "greedy_hardest_words": listed([w for w, m in zip(words, greedy) if m == worst]),
    }
    games = pl.DataFrame(
        {
            "word": words,
            "optimal_misses": found.misses if found.misses is not None else [None] * len(words),
            "optimal_guesses": found.guesses if found.guesses is not None else [None] * len(words),
            "optimal_sequence": found.sequences(),
        },
        schema=WORD_TABLE,
    )
    cpu = pl.DataFrame(
        {"length": [row["length"]], "optimal_seconds": [found.seconds], "minimax_seconds": [evil.seconds]},
        schema=CPU_TABLE,
    )
    return row, {"lengths": pl.DataFrame([row], schema=LENGTH_TABLE), "words": games, "cpu": cpu}


@dataclass(frozen=True)
class Weighted:
    """A weighted job's input: the distinct words of each length, their setter weights, the budget per length."""

    words: tuple[tuple[str, ...], ...]
    weights: tuple[tuple[int, ...], ...]
    states: tuple[int, ...]


def weighted_figures(words: list[str], weights: list[int], states: int) -> pl.DataFrame:
    """One length's row against the frequency-weighted setter: the frequency-weighted solver's expected misses
    and the optimal search's, with the setter's weights (words sorted, weights aligned)."""
    import numpy as np

    from pipeline.hangman import optimal
    from pipeline.hangman.solver import solve_codes

    wt = np.asarray(weights, dtype=np.int64)
    greedy = solve_codes(words, wt)[0].astype(np.int64)
    found = optimal.search(words, wt, limit=states)
    row = {
        "length": len(words[0]),
        "words": len(words),
        "greedy": round(float(greedy @ wt) / float(wt.sum()), ROUND),
        **search_columns(found, states),
        "seconds": round(found.seconds, 1),
    }
    return pl.DataFrame([row], schema=WEIGHTED_TABLE)


def weighted_work(shard: Shard, shared: Weighted) -> Parts:
    """The lengths start..stop-1 of a weighted job: their rows."""
    rows = [
        weighted_figures(list(shared.words[i]), list(shared.weights[i]), shared.states[i])
        for i in range(shard.start, shard.stop)
    ]
    return {"weighted": pl.concat(rows) if rows else pl.DataFrame(schema=WEIGHTED_TABLE)}


def weighted_job(words: list[str], weights: list[int], states: int, states_for: dict[int, int] | None = None) -> Job:
    """The per-length job of the optimal search against the frequency-weighted setter (`weights` aligned with
    `words`), one shard per length, longest first (the cheap ones), with budgets of states per length."""
    weight_of = dict(zip(words, weights))
    groups = tuple(reversed(by_length(words)))
    weighted = tuple(tuple(weight_of[w] for w in group) for group in groups)
    states_per = budgets(groups, states, states_for or {})
    digest = words_digest([f"{w}:{weight_of[w]}" for w in sorted(weight_of)])
    return Job(
        "hangman-optimal-weighted",
        {"words": digest, "states": list(states_per)},
        len(groups),
        1,
        0,
        weighted_work,
        ("weighted",),
        Weighted(groups, weighted, states_per),
        unit="lengths",
    )


def lengths_work(shard: Shard, shared: Lengths) -> Parts:
    """The lengths start..stop-1 of the job: their rows, games and CPU seconds."""
    parts: list[Parts] = [
        length_figures(list(shared.words[i]), shared.states[i], shared.adversary_states[i])[1]
        for i in range(shard.start, shard.stop)
    ]
    schemas: dict[str, dict[str, Any]] = {"lengths": LENGTH_TABLE, "words": WORD_TABLE, "cpu": CPU_TABLE}
    return {
        name: pl.concat([p[name] for p in parts]) if parts else pl.DataFrame(schema=s) for name, s in schemas.items()
    }


def by_length(words: list[str]) -> tuple[tuple[str, ...], ...]:
    """Distinct words grouped by length, shortest first, each group sorted."""
    groups: dict[int, set[str]] = {}
    for w in words:
        groups.setdefault(len(w), set()).add(w)
    return tuple(tuple(sorted(groups[n])) for n in sorted(groups) if n >= 1)


def budgets(groups: tuple[tuple[str, ...], ...], states: int, given: dict[int, int]) -> tuple[int, ...]:
    """The budget of each length: `given` for the lengths it names, else `states`."""
    return tuple(given.get(len(group[0]), states) for group in groups)


def lengths_job(
    words: list[str],
    states: int,
    adversary_states: int,
    states_for: dict[int, int] | None = None,
    adversary_states_for: dict[int, int] | None = None,
) -> Job:
    """The per-length job over a word list: one shard per length, shortest first (the hard ones); budgets of
    states per length (`states_for` and `adversary_states_for` name lengths given other budgets)."""
    groups = by_length(words)
    optimal, evil = (
        budgets(groups, states, states_for or {}),
        budgets(groups, adversary_states, adversary_states_for or {}),
    )
    params = {"words": words_digest(sorted(set(words))), "states": list(optimal), "adversary_states": list(evil)}
    return Job(
        "hangman-optimal",
        params,
        len(groups),
        1,
        0,
        lengths_work,
        ("lengths", "words", "cpu"),
        Lengths(groups, optimal, evil),
        unit="lengths",
    )


MAX_PROCESSES = 256  # --processes: more worker processes than this is a mistyped number


def pairs(given: list[str]) -> dict[int, int]:
    """LENGTH=N options as a mapping."""
    return {int(k): int(v) for k, _, v in (g.partition("=") for g in given)}


def fail(message: str) -> int:
    """Say what is wrong with the command line on one line of stderr; the exit code of bad input."""
    sys.stderr.write(f"{PROG}: error: {message}\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the per-length job on a built lexicon and write its table (and the CPU seconds beside it); with
    --weighted, the optimal search against the frequency-weighted setter only."""
    from pipeline.core.executor import LocalEngine, run

    ask = argparse.ArgumentParser(prog=PROG, description=main.__doc__)
    ask.add_argument("lexicon")
    ask.add_argument("--states", type=int, required=True, help="the optimal search's budget of states per length")
    ask.add_argument("--adversary-states", type=int, help="the minimax search's, per length (not with --weighted)")
    ask.add_argument("--states-for", action="append", default=[], metavar="LENGTH=N", help="another budget")
    ask.add_argument("--adversary-states-for", action="append", default=[], metavar="LENGTH=N")
    ask.add_argument("--weighted", action="store_true", help="against the frequency-weighted setter (wordfreq)")
    ask.add_argument("--min-length", type=int, default=1, help="with --weighted: only lengths of at least this")
    ask.add_argument("--max-length", type=int, default=1 << 20, help="with --weighted: only lengths of at most this")
    ask.add_argument("--data-dir", type=Path, default=Path("data/out"))
    ask.add_argument("--out", type=Path, required=True, help="the per-length CSV")
    ask.add_argument(
        "--processes", type=int, default=1, help="lengths searched at once, each in a worker process (default 1)"
    )
    a = ask.parse_args(argv)
    if not 1 <= a.processes <= MAX_PROCESSES:
        return fail(f"--processes {a.processes}: give 1 to {MAX_PROCESSES}")
    if a.weighted:
        return weighted_main(a)
    if a.adversary_states is None:
        return fail("--adversary-states is required unless --weighted")
    words = pl.read_parquet(a.data_dir / a.lexicon / "words.parquet", columns=["word"])["word"].to_list()
    job = lengths_job(words, a.states, a.adversary_states, pairs(a.states_for), pairs(a.adversary_states_for))
    result = run(job, a.data_dir, a.lexicon, LocalEngine(a.processes))
    tables = result.tables
    tables["lengths"].write_csv(a.out)
    cpu = tables["cpu"].to_dicts()
    total = round(sum(r["optimal_seconds"] + r["minimax_seconds"] for r in cpu), 1)
    summary = {"lexicon": a.lexicon, "job": result.job.job_id, "cpu_seconds": total, "lengths": cpu}
    a.out.with_suffix(".cpu.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{a.out}: {tables['lengths'].height} lengths, {total} CPU seconds ({result.summary()})")
    return 0


def weighted_main(a: argparse.Namespace) -> int:
    """The weighted job: the words of --min-length to --max-length letters with their wordfreq weights (the
    default config's unknown_zipf, 0.0); the table, and its CPU seconds beside it."""
    from pipeline.core.executor import LocalEngine, run
    from pipeline.hangman.settings import defaults, setter_weights

    if a.min_length > a.max_length:
        return fail(f"--min-length {a.min_length} is more than --max-length {a.max_length}")
    source = a.data_dir / a.lexicon / "words.parquet"
    table = pl.read_parquet(source, columns=["word", "zipf"])
    table = table.filter(pl.col("word").str.len_chars().is_between(a.min_length, a.max_length)).sort("word")
    if table.is_empty():
        return fail(f"{source}: no words of {a.min_length} to {a.max_length} letters")
    weights = setter_weights(table["zipf"].to_numpy(), "wordfreq", defaults().unknown_zipf).tolist()
    job = weighted_job(table["word"].to_list(), weights, a.states, pairs(a.states_for))
    result = run(job, a.data_dir, a.lexicon, LocalEngine(a.processes))
    found = result.tables["weighted"].sort("length")
    found.drop("seconds").write_csv(a.out)
    cpu = found.select("length", "seconds").to_dicts()
    total = round(float(found["seconds"].sum()), 1)
    summary = {"lexicon": a.lexicon, "job": result.job.job_id, "cpu_seconds": total, "lengths": cpu}
    a.out.with_suffix(".cpu.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{a.out}: {found.height} lengths, {total} CPU seconds ({result.summary()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

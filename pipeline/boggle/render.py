"""Boggle results for people: the text the command line prints for a solution, random boards, the best
board and a proof."""

from __future__ import annotations

from typing import Any

import polars as pl


def plural(n: int, noun: str) -> str:
    """'1 board', '2,000 boards' (Boggle's nouns all take an s)."""
    return f"{n:,} {noun if n == 1 else noun + 's'}"


def solution_head(solution) -> str:
    """The board as a grid, then its score and word count."""
    return "\n".join(
        [
            *solution.board.grid(),
            f"{plural(solution.score, 'point')}, {plural(len(solution.words), 'word')} ({solution.lexicon})",
        ]
    )


def solution_table(solution, paths: bool) -> pl.DataFrame:
    """The words of a solution with their points (and paths as 'row,col row,col ...')."""
    rows = [{**w, "path": " ".join(f"{r},{c}" for r, c in w["path"])} if paths else w for w in solution.words]
    schema = {"word": pl.String, "points": pl.Int64, **({"path": pl.String} if paths else {})}
    return pl.DataFrame(rows) if rows else pl.DataFrame(schema=schema)


def random_summary_text(random) -> str:
    """The statistics of a random-boards summary: count, spread, percentiles and speed."""
    stats = random.stats
    pct = "  ".join(f"{k} {v:g}" for k, v in stats["percentiles"].items())
    lines = [
        f"{plural(stats['boards'], 'board')} from the {random.dice} dice (seed {random.seed}), {random.lexicon}, "
        f"words of {stats['min_length']}+ letters",
        f"mean {stats['mean']:.2f}  sd {stats['std']:.2f}  min {stats['min']}  "
        f"max {stats['max']} ({stats['max_board']})",
        pct,
    ]
    if stats["boards_per_second"]:
        lines.append(f"{stats['boards_per_second']:,} boards/s (rolling and scoring, {stats['seconds']:.2f} s)")
    return "\n".join(lines)


def best_round_text(rounds: int, best, elapsed: float) -> str:
    """A best-board search's progress after a round."""
    return f"round {rounds}: best {best.score} ({best.board.letters}, run {best.run}) at {elapsed:.1f} s"


def best_text(best) -> str:
    """The best board as a grid, then its score, words and how it was found."""
    f = best.facts
    if best.job is not None:
        runs = f"{plural(f['runs'], 'run')} of {plural(f['steps_per_run'], 'step')}"
        how = f"(seed {f['seed']}, best of {runs}: run {f['run']})"
    else:
        cut = f" and {plural(f['runs_cut'], 'run')} stopped at the deadline" if f["runs_cut"] else ""
        how = (
            f"(seed {f['seed']}, run {f['run']}, found after {f['seconds_to_best']:.1f} s; "
            f"{plural(f['runs'], 'run')} of {plural(f['steps_per_run'], 'step')}{cut} in {f['seconds']:.1f} s)"
        )
    head = f"{plural(best.score, 'point')}, {plural(f['words'], 'word')}: {best.board.letters} {how}"
    return "\n".join([*best.board.grid(), head])


def engine_text(summary: dict[str, Any]) -> str:
    """Where a proof's shards ran."""
    if summary["engine"] == "local":
        return plural(summary["workers"] or 1, "local worker")
    return f"Ray ({summary['address']})"


def proof_text(summary: dict[str, Any]) -> str:
    """A proof's summary: what was proven, the partition and bound, the classes, the time and the job."""
    sec = summary["seconds"]
    best = f"best {summary['best']}" if summary["best"] is not None else "no board"
    return "\n".join(
        [
            f"{plural(summary['boards'], 'board')} of {summary['size']} scoring at least {summary['floor']} ({best}), "
            f"one per symmetry class ({summary['symmetries']} symmetries), lexicon {summary['lexicon']}",
            f"partition: {summary['partition']}",
            f"bound: {summary['bound_method']}",
            f"classes: {summary['top_level_classes']:,} top-level ({summary['top_level_dropped']:,} eliminated there), "
            f"{summary['classes_examined']:,} examined, {summary['classes_eliminated']:,} eliminated by the bound; "
            f"{plural(summary['boards_scored'], 'board')} scored individually",
            f"time: {summary['wall_seconds']:.1f} s wall, {summary['cpu_seconds']:.1f} s CPU "
            f"(bounding {sec['bounding']:.1f}, splitting {sec['splitting']:.1f}, scoring {sec['scoring']:.1f}); "
            f"{engine_text(summary)}, {plural(summary['shards'], 'shard')} ({summary['shards_reused']:,} reused); "
            f"peak memory {summary['peak_rss_mib']:,.0f} MiB",
            f"job: {summary['job']}",
        ]
    )


def count_classes(n: int) -> str:
    """'1 class', '256 classes'."""
    return f"{n:,} class" if n == 1 else f"{n:,} classes"


def proof_table_text(summary: dict[str, Any]) -> str:
    """What `boggle prove --reference` did: why the table began again, the classes it holds now, its best board
    and boards so far, this run's blocks and CPU seconds, and the projection of the whole proof; or which
    classes `--verify` proved again."""
    where = summary["reference"]
    if "verified" in summary:
        return f"{where} ({summary['state']}): {count_classes(len(summary['verified']))} proved again, the same rows"
    lines = [f"began {where} again from the first class: {summary['restarted']}"] if summary["restarted"] else []
    state = "partial" if summary["partial"] else "complete"
    best = summary["best"]
    found = (
        f"best {best['board']} {best['score']} (class {best['class']})"
        if best
        else "none yet"
        if summary["partial"]
        else "none"
    )
    lines.append(
        f"wrote {where} ({state}): {summary['classes_done']:,} of {summary['classes_total']:,} classes of "
        f"{summary['size']} at floor {summary['floor']}, lexicon {summary['lexicon']}; "
        f"{plural(summary['boards'], 'board')} {'so far' if summary['partial'] else 'in all'}, {found}"
    )
    now = summary["blocks_now"]
    if now:
        cpu = sum(b["cpu_seconds"] for b in now)
        lines.append(
            f"now: {count_classes(summary['classes_proved_now'])} in {plural(len(now), 'block')}, "
            f"{cpu:,.1f} CPU-s, {sum(b['wall_seconds'] for b in now):,.0f} s wall on {summary['engine']}"
        )
    if summary.get("classes_timed"):
        lines.append(
            f"CPU: {summary['cpu_seconds']:,.1f} s over {summary['classes_timed']:,} classes (median "
            f"{summary['median_class_cpu_seconds']:.3f} s, mean {summary['mean_class_cpu_seconds']:.3f} s, "
            f"max {summary['max_class_cpu_seconds']:.1f} s); the whole proof projected at "
            f"{summary['projected_cpu_hours']:.2f} CPU-h ({summary['projected_cpu_hours_low']:.2f} to "
            f"{summary['projected_cpu_hours_high']:.2f})"
        )
    return "\n".join(lines)

"""The proof table (`make boggle-proof`: data/raw/boggle-proof-enable2k-3x4-1500.parquet): one row per canonical
top-level class proven so far, with the boards of that class scoring at least the floor, grown a block of
classes at a time until every class of the partition is done.

The classes are proven in a fixed order, a seeded shuffle of the canonical ids (`class_order`), so that any
prefix of the table is a random sample of the classes: a partial table projects the cost of the rest. A row
holds only what a proof of its class must give whatever the code that proved it (the class's sum/union bound
and its boards, best first), never work counts or times, so a table grown block by block, by any code that
proves correctly, holds the same bytes as one proved at once. The CPU seconds of each block go to a sidecar
JSON file beside the table (`FILE.cpu.json`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pipeline.boggle.prove import Problem, Proving, dictionary_hash, prove_merge, prove_work
from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import Job

STAGE = "boggle proof"
ORDER_SEED = 26  # the seed of the class order, fixed once: a table keeps it for good
PROOF_BLOCK = 256  # classes per block: the table's classes done are a multiple of it until the last block
BLOCK_SHARDS = 16  # a block's job is cut into about this many shards, so an interrupted block resumes
TABLE_SCHEMA: dict[str, Any] = {
    "class": pl.Int64,  # the canonical top-level class id (hybrid-boggle's numbering)
    "sum_union": pl.Int64,  # points of every word some board of the class holds: a bound on the class
    "boards": pl.List(pl.String),  # the class's boards scoring at least the floor, canonical, best first
    "scores": pl.List(pl.Int32),  # their scores
}
KEYS = ("size", "floor", "partition", "dictionary", "seed")  # what a table must share with a run that grows it
MIX = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)  # splitmix64's constants


def mixed(ids: np.ndarray, seed: int) -> np.ndarray:
    """splitmix64 of each id offset by the seed: a fixed pseudo-random key per class (any numpy, any machine)."""
    with np.errstate(over="ignore"):
        z = ids.astype(np.uint64) + np.uint64(seed) * np.uint64(MIX[0]) + np.uint64(MIX[0])
        z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX[1])
        z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX[2])
        return z ^ (z >> np.uint64(31))


def class_order(canonical: np.ndarray, seed: int = ORDER_SEED) -> np.ndarray:
    """The canonical class ids in the order the table proves them: by their mixed key, then by id."""
    ids = np.asarray(canonical, dtype=np.int64)
    return ids[np.lexsort((ids, mixed(ids, seed)))]


@dataclass(frozen=True)
class ProofTable:
    """The classes proven so far (rows in proof order) and what they were proven for."""

    rows: pl.DataFrame  # TABLE_SCHEMA
    lexicon: str
    size: str
    floor: int
    partition: str
    dictionary: str  # prove.dictionary_hash: the trie and points the proof read
    seed: int  # of the class order
    total: int  # canonical classes of the partition

    @property
    def done(self) -> int:
        """Classes proven."""
        return self.rows.height

    @property
    def partial(self) -> bool:
        """Whether some classes are still to be proven."""
        return self.done < self.total

    def state(self) -> str:
        """The classes done, and whether that is all of them."""
        done = f"{self.done:,} of {self.total:,} classes"
        return f"partial: {done}" if self.partial else f"complete: {done}"

    def boards(self) -> pl.DataFrame:
        """Every board found so far (board, score, class): best first, then alphabetical."""
        flat = self.rows.select("class", "boards", "scores").explode(["boards", "scores"]).drop_nulls("boards")
        table = flat.select(board=pl.col("boards"), score=pl.col("scores"), **{"class": pl.col("class")})
        return table.sort(["score", "board"], descending=[True, False])

    def provenance(self) -> dict[str, Any]:
        """The footer: what the table proves, how far it has got, and the command that grows it."""
        boards = self.boards()
        return {
            "stage": STAGE,
            "lexicon": self.lexicon,
            "params": {"size": self.size, "floor": self.floor, "partition": self.partition},
            "order": {"seed": self.seed, "method": "canonical class ids by splitmix64(id + seed), then id"},
            "inputs": {"dictionary_sha256": self.dictionary},
            "classes_done": self.done,
            "classes_total": self.total,
            "partial": self.partial,
            "boards": boards.height,
            "best": boards.row(0, named=True) if boards.height else None,
            "command": command(self.lexicon, self.size, self.floor),
        }


def command(lexicon: str, size: str, floor: int) -> str:
    """The command that grows (or makes again) such a table."""
    return (
        f"wordstats boggle prove --lexicon {lexicon} --size {size} --floor {floor} --reference FILE "
        "(make boggle-proof; the size's default partition unless --classes)"
    )


def empty(problem: Problem, lexicon: str, seed: int = ORDER_SEED) -> ProofTable:
    """A table of the problem with no class proven yet."""
    return ProofTable(
        pl.DataFrame(schema=TABLE_SCHEMA),
        lexicon,
        f"{problem.rows}x{problem.cols}",
        problem.floor,
        problem.partition.text,
        dictionary_hash(problem.dictionary),
        seed,
        int(problem.space.canonical_ids().shape[0]),
    )


def mismatch(table: ProofTable, wanted: ProofTable) -> str | None:
    """Why a table cannot be grown by a run for `wanted` (None when it can)."""
    names = {"dictionary": "dictionary", "partition": "partition", "seed": "class order"}
    for key in KEYS:
        have, want = getattr(table, key), getattr(wanted, key)
        if have != want:
            return f"it proves another {names.get(key, key)} ({have!s:.16} there, not {want!s:.16})"
    return None


def next_stop(done: int, total: int, block: int = PROOF_BLOCK) -> int:
    """Where the block after `done` classes ends: the next multiple of the block size, at most the total."""
    return min(total, (done // block + 1) * block)


def block_job(problem: Problem, classes: np.ndarray, start: int, shard_size: int | None = None) -> Job:
    """Classes order[start:start+len(classes)] of the table as a sharded job of their own."""
    from pipeline.boggle.prove import PARTS, job_params

    light = replace(problem, dictionary=replace(problem.dictionary, words=()))
    ids = np.asarray(classes, dtype=np.int64)
    params = {**job_params(problem), "block_start": start, "block_classes": ids.tolist()}
    size = shard_size or max(1, -(-ids.shape[0] // BLOCK_SHARDS))
    return Job(
        "boggle-proof-block", params, int(ids.shape[0]), size, 0, prove_work, PARTS, Proving(light, ids), prove_merge
    )


def block_rows(classes: np.ndarray, parts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """A block's rows of the table, in the block's order, from its job's merged `boards` and `classes`."""
    found = parts["boards"].sort(["score", "board"], descending=[True, False])
    per_class = found.group_by("class", maintain_order=True).agg(
        pl.col("board").alias("boards"), pl.col("score").alias("scores")
    )
    order = pl.DataFrame({"class": np.asarray(classes, dtype=np.int64)})
    rows = order.join(parts["classes"].select("class", "sum_union"), on="class", how="left", maintain_order="left")
    rows = rows.join(per_class, on="class", how="left", maintain_order="left")
    rows = rows.with_columns(
        pl.col("boards").fill_null(pl.lit([], dtype=pl.List(pl.String))),
        pl.col("scores").fill_null(pl.lit([], dtype=pl.List(pl.Int32))),
    )
    return rows.select(list(TABLE_SCHEMA)).cast(TABLE_SCHEMA)  # type: ignore[arg-type]


def grown(table: ProofTable, rows: pl.DataFrame) -> ProofTable:
    """The table with a block's rows appended."""
    return replace(table, rows=pl.concat([table.rows, rows.cast(TABLE_SCHEMA)]))  # type: ignore[arg-type]


def read_table(path: Path) -> ProofTable:
    """A proof table with its footer; a one-line error naming the file when it is not one."""
    from pipeline.core.files import read_provenance

    try:
        rows = pl.read_parquet(path)
        meta = read_provenance(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is the same one-line error
        raise WordstatsError(f"{path}: not a readable Parquet file ({type(exc).__name__})") from None
    if dict(rows.schema) != TABLE_SCHEMA or meta.get("stage") != STAGE:
        raise WordstatsError(f"{path}: not a Boggle proof table (columns {list(rows.schema)})")
    try:
        p, order, inputs = (_parsed(meta[k]) for k in ("params", "order", "inputs"))
        keys = (p["size"], int(p["floor"]), p["partition"], inputs["dictionary_sha256"], int(order["seed"]))
        return ProofTable(rows, meta.get("lexicon", ""), *keys, int(meta["classes_total"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise WordstatsError(f"{path}: not a Boggle proof table (its footer lacks {exc})") from None


def _parsed(value: Any) -> Any:
    """A footer value as its JSON (read_provenance parses only some keys)."""
    return json.loads(value) if isinstance(value, str) else value


def write_table(path: Path, table: ProofTable) -> None:
    """Write the table atomically with its footer."""
    from pipeline.core.files import write_parquet

    write_parquet(path, table.rows, table.provenance())


# ---- the CPU seconds of each block: a sidecar beside the table ----------------------------------------


def cpu_path(path: Path) -> Path:
    """The sidecar JSON of a table's CPU seconds: FILE.cpu.json."""
    return path.with_suffix(".cpu.json")


def read_cpu(path: Path) -> list[dict[str, Any]]:
    """The blocks recorded in a table's sidecar (none when it is missing or unreadable)."""
    try:
        return list(json.loads(cpu_path(path).read_text())["blocks"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def write_cpu(path: Path, blocks: list[dict[str, Any]]) -> None:
    """Write the sidecar atomically."""
    from pipeline.core.files import write_json

    write_json(cpu_path(path), {"table": path.name, "blocks": blocks})


def block_cpu(start: int, classes: np.ndarray, timing: pl.DataFrame, wall: float, computed: int) -> dict[str, Any]:
    """A block's entry of the sidecar: its classes' place in the order, CPU seconds in all and per class."""
    per = dict(zip(timing["class"].to_list(), timing["cpu"].to_list()))
    seconds = [round(float(per.get(c, 0.0)), 3) for c in np.asarray(classes).tolist()]
    return {
        "start": start,
        "stop": start + len(seconds),
        "cpu_seconds": round(sum(seconds), 3),
        "wall_seconds": round(wall, 1),
        "shards_computed": computed,
        "class_cpu_seconds": seconds,
    }


def cpu_figures(blocks: list[dict[str, Any]], done: int, total: int) -> dict[str, Any]:
    """CPU seconds of the table's classes so far (the blocks the sidecar holds that lie within the table), the
    median per class, and the whole proof projected from them (the classes come in random order) with the
    mean's spread (plus or minus two standard errors)."""
    per = np.array([s for b in blocks if b["stop"] <= done for s in b["class_cpu_seconds"]], dtype=np.float64)
    if not per.size:
        return {"classes_timed": 0}
    mean, sem = float(per.mean()), float(per.std(ddof=1) / np.sqrt(per.size)) if per.size > 1 else 0.0
    return {
        "classes_timed": int(per.size),
        "cpu_seconds": round(float(per.sum()), 1),
        "median_class_cpu_seconds": round(float(np.median(per)), 3),
        "mean_class_cpu_seconds": round(mean, 3),
        "max_class_cpu_seconds": round(float(per.max()), 1),
        "projected_cpu_hours": round(mean * total / 3600, 2),
        "projected_cpu_hours_low": round(max(0.0, mean - 2 * sem) * total / 3600, 2),
        "projected_cpu_hours_high": round((mean + 2 * sem) * total / 3600, 2),
    }


def verify_classes(table: ProofTable, k: int, seed: int = ORDER_SEED) -> np.ndarray:
    """`k` of the table's classes picked at random with the seed (all of them when it holds fewer)."""
    ids = table.rows["class"].to_numpy()
    if k >= ids.shape[0]:
        return ids
    return ids[np.sort(np.random.default_rng(seed).choice(ids.shape[0], size=k, replace=False))]


def verify(table: ProofTable, problem: Problem, k: int, seed: int = ORDER_SEED) -> np.ndarray:
    """Prove `k` seeded random classes of the table again here and compare their rows; a one-line error naming
    the first class whose row differs. The classes checked."""
    from pipeline.boggle.prove import prove_shard

    picked = verify_classes(table, k, seed)
    again = block_rows(picked, prove_shard(problem, picked))
    stored = table.rows.filter(pl.col("class").is_in(picked.tolist()))
    stored = pl.DataFrame({"class": picked}).join(stored, on="class", how="left", maintain_order="left")
    for have, got in zip(stored.iter_rows(named=True), again.iter_rows(named=True)):
        if have != got:
            raise WordstatsError(
                f"class {got['class']}: the table holds {have['boards']} {have['scores']} (sum/union "
                f"{have['sum_union']}), proved again {got['boards']} {got['scores']} (sum/union {got['sum_union']})"
            )
    return picked


# ---- growing a table -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Growth:
    """A proof table grown by some blocks: the table now, why an older one was set aside, and the run."""

    table: ProofTable
    path: Path
    restarted: str | None  # why the table found there was not grown but begun again from the first class
    before: int  # classes the table held when the run began
    blocks: tuple[dict[str, Any], ...]  # the sidecar's entries of the blocks proved now
    figures: dict[str, Any]  # cpu_figures of the whole table
    engine: str

    @property
    def boards(self) -> pl.DataFrame:
        """Every board found so far, best first."""
        return self.table.boards()

    def summary(self) -> dict[str, Any]:
        """The table's state, best board and boards so far, this run's blocks and the CPU figures (JSON)."""
        boards = self.boards
        return {
            "reference": str(self.path),
            "lexicon": self.table.lexicon,
            "size": self.table.size,
            "floor": self.table.floor,
            "partition": self.table.partition,
            "classes_done": self.table.done,
            "classes_total": self.table.total,
            "partial": self.table.partial,
            "boards": boards.height,
            "best": boards.row(0, named=True) if boards.height else None,
            "restarted": self.restarted,
            "classes_proved_now": self.table.done - self.before,
            "blocks_now": [{k: v for k, v in b.items() if k != "class_cpu_seconds"} for b in self.blocks],
            "engine": self.engine,
            **self.figures,
        }


def start_table(path: Path, wanted: ProofTable, force: bool) -> tuple[ProofTable, str | None]:
    """The table to grow at `path`, and why one found there is begun again (None when it is grown)."""
    if force and path.exists():
        return wanted, "--force"
    if not path.exists():
        return wanted, None
    found = read_table(path)
    reason = mismatch(found, wanted)
    if reason is not None:
        return wanted, reason
    return replace(wanted, rows=found.rows), None


def grow(
    problem: Problem,
    path: Path,
    wanted: ProofTable,
    run_block,
    blocks: int | None,
    block: int = PROOF_BLOCK,
    force: bool = False,
) -> Growth:
    """Grow the table at `path` by at most `blocks` blocks (None: to the end), writing it and its sidecar after
    each; `run_block(job)` runs a block's job and returns (merged tables, wall seconds, shards computed)."""
    import time

    table, restarted = start_table(path, wanted, force)
    order = class_order(problem.space.canonical_ids(), table.seed)
    history = [] if restarted is not None else read_cpu(path)
    history = [b for b in history if b["stop"] <= table.done]
    before, now = table.done, []
    if restarted is not None or not path.exists():
        write_table(path, table)
        write_cpu(path, history)
    for _ in range(blocks if blocks is not None else table.total):
        if not table.partial:
            break
        start = table.done
        classes = order[start : next_stop(start, table.total, block)]
        began = time.perf_counter()
        parts, computed = run_block(block_job(problem, classes, start))
        table = grown(table, block_rows(classes, parts))
        now.append(block_cpu(start, classes, parts["timing"], time.perf_counter() - began, computed))
        write_table(path, table)
        write_cpu(path, [*history, *now])
    return Growth(
        table, path, restarted, before, tuple(now), cpu_figures([*history, *now], table.done, table.total), ""
    )

"""The proof table (`make boggle-proof`: data/raw/boggle-proof-enable2k-3x4-1500/): one row per canonical top-level
class proven so far, with the boards of that class scoring at least the floor, grown a block of classes at a time
until every class of the partition is done.

The classes are proven in a fixed order, a seeded shuffle of the canonical ids (`class_order`), so that any
prefix of the table is a random sample of the classes: a partial table projects the cost of the rest. A row
holds only what a proof of its class must give whatever the code that proved it (the class's sum/union bound
and its boards, best first), never work counts or times, so a table grown block by block, by any code that
proves correctly, holds the same rows as one proved at once.

The table is a parted table (pipeline.core.parts): a folder with one Parquet part per block, its rows the
block's, its footer the table as it stood once the block was added (the problem, the classes done, the boards
so far and the best), so that the last part's footer describes the whole table. A block adds a part and
rewrites none; the same blocks give the same bytes. The CPU seconds of each block go to a sidecar beside its
part (`part-NNNNN.cpu.json`), written with it. Runs growing one table take turns (parts.growing): each reads the
table again before it adds a block, and a block another run has added meanwhile is kept, never proved over."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pipeline.boggle.prove import Problem, Proving, dictionary_hash, prove_merge, prove_work
from pipeline.boggle.requests import PROOF_BLOCK
from pipeline.core import parts
from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import Job

STAGE = "boggle proof"
ORDER_SEED = 26  # the seed of the class order, fixed once: a table keeps it for good
BLOCK_SHARDS = 16  # a block's job is cut into about this many shards, so an interrupted block resumes
TABLE_SCHEMA: dict[str, Any] = {
    "class": pl.Int64,  # the canonical top-level class id (hybrid-boggle's numbering)
    "sum_union": pl.Int64,  # points of every word some board of the class holds: a bound on the class
    "boards": pl.List(pl.String),  # the class's boards scoring at least the floor, canonical, best first
    "scores": pl.List(pl.Int32),  # their scores
}
KEYS = ("size", "floor", "partition", "dictionary", "seed")  # what a table must share with a run that grows it
CPU_SUFFIX = ".cpu.json"  # a part's sidecar of CPU seconds
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
    stops: tuple[int, ...] = ()  # the classes done at the end of each part, in order

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


def block_rows(classes: np.ndarray, merged: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """A block's rows of the table, in the block's order, from its job's merged `boards` and `classes`."""
    found = merged["boards"].sort(["score", "board"], descending=[True, False])
    per_class = found.group_by("class", maintain_order=True).agg(
        pl.col("board").alias("boards"), pl.col("score").alias("scores")
    )
    order = pl.DataFrame({"class": np.asarray(classes, dtype=np.int64)})
    rows = order.join(merged["classes"].select("class", "sum_union"), on="class", how="left", maintain_order="left")
    rows = rows.join(per_class, on="class", how="left", maintain_order="left")
    rows = rows.with_columns(
        pl.col("boards").fill_null(pl.lit([], dtype=pl.List(pl.String))),
        pl.col("scores").fill_null(pl.lit([], dtype=pl.List(pl.Int32))),
    )
    return rows.select(list(TABLE_SCHEMA)).cast(TABLE_SCHEMA)  # type: ignore[arg-type]


def grown(table: ProofTable, rows: pl.DataFrame) -> ProofTable:
    """The table with a block's rows appended as a new part."""
    rows = rows.cast(TABLE_SCHEMA)  # type: ignore[arg-type]
    return replace(table, rows=pl.concat([table.rows, rows]), stops=(*table.stops, table.done + rows.height))


def check_folder(path: Path) -> None:
    """A one-line error when `path` is a file: a proof table is a folder of parts."""
    if path.exists() and not path.is_dir():
        raise WordstatsError(f"{path}: a proof table is a folder of parts (part-NNNNN.parquet), not a file")


def read_table(path: Path) -> ProofTable:
    """The proof table in the folder `path`, its parts checked: each is a proof table's part of the same problem
    as the first, holding the classes its footer adds to the part before it; a one-line error naming the part
    otherwise (or the folder, when it holds no part)."""
    check_folder(path)
    files = parts.part_files(path)
    if not files:
        raise WordstatsError(f"{path}: not a Boggle proof table (no parts)")
    table: ProofTable | None = None
    for part, meta in zip(files, parts.footers(files)):
        rows = parts.read_part(part)
        if dict(rows.schema) != TABLE_SCHEMA or meta.get("stage") != STAGE:
            raise WordstatsError(f"{part}: not a Boggle proof table's part (columns {list(rows.schema)})")
        try:
            p, order, inputs = (_parsed(meta[k]) for k in ("params", "order", "inputs"))
            keys = (p["size"], int(p["floor"]), p["partition"], inputs["dictionary_sha256"], int(order["seed"]))
            found = ProofTable(rows, meta.get("lexicon", ""), *keys, int(meta["classes_total"]))
            done = int(meta["classes_done"])
        except (KeyError, TypeError, ValueError) as exc:
            raise WordstatsError(f"{part}: not a Boggle proof table's part (its footer lacks {exc})") from None
        if table is None:
            table = replace(found, rows=found.rows.clear())
        reason = mismatch(found, table) or (None if found.total == table.total else "another number of classes")
        if reason is not None:
            raise WordstatsError(f"{part}: not a part of the table its first part begins ({reason})")
        if done != table.done + rows.height:
            raise WordstatsError(
                f"{part}: its footer says {done:,} classes done, the parts up to it hold {table.done + rows.height:,}"
            )
        table = grown(table, rows)
    assert table is not None
    return table


def _parsed(value: Any) -> Any:
    """A footer value as its JSON (read_provenance parses only some keys)."""
    return json.loads(value) if isinstance(value, str) else value


def write_part(path: Path, table: ProofTable, cpu: dict[str, Any] | None = None) -> bool:
    """Add the table's last block as its next part (table.provenance() in its footer) with its CPU seconds'
    sidecar when given: True when written, False when that part exists with the same bytes; a one-line error
    naming it when it exists with other bytes."""
    start = table.stops[-2] if len(table.stops) > 1 else 0
    sidecars = {CPU_SUFFIX: (json.dumps(cpu, sort_keys=True, separators=(",", ":")) + "\n").encode()} if cpu else {}
    return parts.append(path, len(table.stops) - 1, table.rows.slice(start), table.provenance(), sidecars)


def write_table(path: Path, table: ProofTable) -> None:
    """Write a whole table as a new folder of parts, one per block of `table.stops` (a table of one part when
    it records none): the parts a run growing it block by block writes."""
    stops = table.stops or (table.done,)
    for stop in stops:
        write_part(path, replace(table, rows=table.rows.head(stop), stops=stops[: stops.index(stop) + 1]))


# ---- the CPU seconds of each block: a sidecar beside its part ---------------------------------------------


def cpu_path(path: Path, index: int) -> Path:
    """The sidecar JSON of part `index`'s CPU seconds: part-NNNNN.cpu.json."""
    return parts.sidecar_path(parts.part_path(path, index), CPU_SUFFIX)


def read_cpu(path: Path) -> list[dict[str, Any]]:
    """The blocks recorded in the parts' sidecars, in part order; a missing sidecar is passed over and an
    unreadable one named in a note (CPU seconds are not the table)."""
    from pipeline.core.errors import note

    blocks = []
    for index in range(len(parts.part_files(path))):
        target = cpu_path(path, index)
        try:
            blocks.append(dict(json.loads(target.read_text())))
        except FileNotFoundError:
            continue
        except (OSError, ValueError, TypeError):
            note(f"{target}: not a block's CPU seconds (damaged?); its block is left out of the CPU figures")
    return blocks


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
    """The table to grow at `path` (the parts found there, or none), and "--force" when `force` removed the parts
    found there to prove the table again; a one-line error naming the first part when they prove another
    problem."""
    check_folder(path)
    if force and parts.part_files(path, checked=False):
        with parts.growing(path):
            parts.remove(path)
        return wanted, "--force"
    return current(path, wanted), None


def current(path: Path, wanted: ProofTable) -> ProofTable:
    """The table at `path` as it stands (`wanted` with no class proven when it holds no part); a one-line error
    naming the first part when it proves another problem."""
    if not parts.part_files(path):
        return wanted
    found = read_table(path)
    reason = mismatch(found, wanted)
    if reason is not None:
        raise WordstatsError(
            f"{parts.part_path(path, 0)}: {reason}; give another folder, or --force to prove the table again "
            "(its parts removed)"
        )
    return replace(wanted, rows=found.rows, stops=found.stops)


def check_order(path: Path, table: ProofTable, order: np.ndarray) -> None:
    """A one-line error naming the first part whose classes are not the next ones of the order (a class twice,
    one left out, or one out of place)."""
    have = table.rows["class"].to_numpy()
    if have.shape[0] > order.shape[0]:
        raise WordstatsError(f"{path}: holds {have.shape[0]:,} classes, the partition has {order.shape[0]:,}")
    wrong = np.flatnonzero(have != order[: have.shape[0]])
    if wrong.size:
        index = int(np.searchsorted(np.asarray(table.stops), int(wrong[0]), side="right"))
        raise WordstatsError(
            f"{parts.part_path(path, index)}: class {int(have[wrong[0]])} where the order has "
            f"{int(order[wrong[0]])} (row {int(wrong[0]):,} of the table)"
        )


def grow(
    problem: Problem,
    path: Path,
    wanted: ProofTable,
    run_block,
    blocks: int | None,
    block: int = PROOF_BLOCK,
    force: bool = False,
) -> Growth:
    """Grow the table in the folder `path` by at most `blocks` blocks (None: to the end), adding a part with its
    sidecar after each; `run_block(job)` runs a block's job and returns (merged tables, shards computed). Before
    it adds a block the run reads the table again under its lock: when another run has changed it meanwhile,
    the block is dropped and the run goes on from the table it finds (never from fewer classes)."""
    import time

    from pipeline.core.errors import note

    table, restarted = start_table(path, wanted, force)
    order = class_order(problem.space.canonical_ids(), table.seed)
    check_order(path, table, order)
    before, now = table.done, list[dict[str, Any]]()
    while table.partial and (blocks is None or len(now) < blocks):
        start = table.done
        classes = order[start : next_stop(start, table.total, block)]
        began = time.perf_counter()
        merged, computed = run_block(block_job(problem, classes, start))
        entry = block_cpu(start, classes, merged["timing"], time.perf_counter() - began, computed)
        with parts.growing(path):
            found = current(path, wanted)
            if found.stops != table.stops:
                check_order(path, found, order)
                note(
                    f"{path}: another run changed the table meanwhile ({table.done:,} -> {found.done:,} classes); "
                    "going on from it"
                )
                table = found
                continue
            table = grown(table, block_rows(classes, merged))
            write_part(path, table, entry)
        now.append(entry)
    return Growth(table, path, restarted, before, tuple(now), cpu_figures(read_cpu(path), table.done, table.total), "")

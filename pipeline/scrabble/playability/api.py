"""The playability use case: a long run of the playability job (`wordstats scrabble playability`), written to the
lexicon's playability.parquet and playability_summary.json through the Store, or to a file a person names."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

from pipeline.core.config import Config
from pipeline.core.errors import FieldError
from pipeline.scrabble.requests import REFERENCE_BLOCK, PlayabilityRun


class PlayabilityResult(NamedTuple):
    """The table, the run's summary (top words, stability), where it went and what the run did."""

    table: pl.DataFrame
    summary: dict[str, Any]
    path: Path
    seconds: float
    cpu_seconds: float  # of every shard's games, summed over the processes that ran them (reused shards too)
    played: int  # games played (those of shards reused are not counted)
    computed: int
    reused: int
    engine: str
    provenance: dict[str, Any]


def measure_playability(
    config: Config | Path | None, data_dir: Path | None, lexicon: str | None, run: PlayabilityRun, progress=None
) -> PlayabilityResult:
    """Run the playability job and write its table and summary: into the lexicon's store (Store.write, after the
    read lock is let go) or, with `run.out`, the table to that file and the summary beside it (FILE.json)."""
    import time

    from pipeline.core import executor
    from pipeline.core.files import sha256_file, write_json, write_parquet
    from pipeline.core.outputs import check_out
    from pipeline.core.results import footer
    from pipeline.core.session import open_session
    from pipeline.scrabble.equity.values import load_leaves
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.jobs import local_processes
    from pipeline.scrabble.playability.job import PLAYABILITY_SHARD, playability_job
    from pipeline.scrabble.playability.stage import params as stage_params
    from pipeline.scrabble.playability.table import summary
    from pipeline.scrabble.rules.variant import declared_variant
    from pipeline.words.playability import playability_table

    with open_session(config, data_dir, lexicon) as s:  # the inputs read, the lexicon's read lock let go
        variant = declared_variant(s.config, stage_params(s.config, None)["variant"])
        check_out(run.out, run.force, (".parquet",), s.data_dir)
        if run.out is not None:  # the summary beside it
            check_out(run.out.with_suffix(".json"), run.force, (".json",), s.data_dir)
        words = load_lexicon(s.store)
        every = s.store.read("words", columns=["word"])["word"].to_list()  # the table lists every word
        leaves = load_leaves(s.store, variant)
        job = playability_job(variant, words, leaves, run.seed, run.games, run.shard_size or PLAYABILITY_SHARD)
        address, folder, name = executor.cluster_address(s.config, run.ray), s.data_dir, s.lexicon
        inputs = {table: sha256_file(s.store.path(table)) for table in ("words", "gaddag", "leaves")}
        params = {"variant": variant.name, "games": run.games, "seed": run.seed}
        origin = footer("playability", s.lexicon, s.config.sha256, inputs, params, [job.job_id])
        store = s.store
    started = time.perf_counter()
    with executor.engine_session(address, local_processes(run.games)) as engine:
        result = executor.run(job, folder, name, engine, progress)
        engine_name = engine.name
    seconds, cpu = time.perf_counter() - started, float(result.tables["cpu"]["seconds"].sum())
    losses = result.tables["losses"]
    table = playability_table(losses, every)
    found = summary(table, losses, run.games, variant.name, run.seed)
    if run.out is not None:
        write_parquet(run.out, table, origin)
        write_json(run.out.with_suffix(".json"), found)
        path = run.out
    else:
        store.write({"playability": table, "playability_summary.json": found}, origin)
        path = store.path("playability")
    return PlayabilityResult(
        table, found, path, seconds, cpu, result.items_computed, result.computed, result.reused, engine_name, origin
    )


class ReferenceGrowth(NamedTuple):
    """A reference table grown by some blocks: the table now, why an older one was set aside, and the run."""

    reference: Any  # reference.Reference
    path: Path
    restarted: str | None  # why the table found there was not grown but played again from game 1
    before: int  # games the table held when the run began
    seconds: float
    cpu_seconds: float  # of the shards of the blocks played (reused shards too)
    computed: int
    reused: int
    engine: str
    table: pl.DataFrame  # every word's playability from the table's games
    summary: dict[str, Any]


def grow_reference(
    config: Config | Path | None, data_dir: Path | None, lexicon: str | None, run: PlayabilityRun, progress=None
) -> ReferenceGrowth:
    """Grow the table in the folder `run.reference` block by block towards `run.games` games (at most
    `run.blocks` blocks), adding a part after each block; a table played with other keys (seed, leave values,
    words) is refused, and `run.force` removes its parts and plays it again from game 1. Each block is a job of
    its own, so an interrupted block resumes from its shards."""
    import time

    from pipeline.core import executor, parts
    from pipeline.core.errors import note
    from pipeline.core.outputs import check_out_folder
    from pipeline.core.session import open_session
    from pipeline.scrabble.equity.values import load_leaves
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.jobs import local_processes
    from pipeline.scrabble.playability import reference as rf
    from pipeline.scrabble.playability.job import PLAYABILITY_SHARD, playability_job
    from pipeline.scrabble.playability.stage import params as stage_params
    from pipeline.scrabble.playability.table import summary
    from pipeline.scrabble.rules.variant import declared_variant

    assert run.reference is not None
    path, block = run.reference, run.block or REFERENCE_BLOCK
    rf.check_folder(path)
    with open_session(config, data_dir, lexicon) as s:
        check_out_folder(path, s.data_dir, "reference")  # never a data, lexicon or system folder
        variant = declared_variant(s.config, stage_params(s.config, None)["variant"])
        words, leaves = load_lexicon(s.store), load_leaves(s.store, variant)
        every = s.store.read("words", columns=["word"])["word"].to_list()
        wanted = rf.empty(s.lexicon, variant.name, run.seed, leaves.digest(), every, run.games)
        address, folder, name = executor.cluster_address(s.config, run.ray), s.data_dir, s.lexicon
    ref, restarted = wanted, None
    if parts.part_files(path, checked=False) and run.force:
        with parts.growing(path):
            parts.remove(path)
        restarted = "--force"
    else:
        ref = current_reference(path, wanted, run.games)
    before, cpu, computed, reused, engine_name = ref.games, 0.0, 0, 0, "local"
    started, added = time.perf_counter(), 0
    with executor.engine_session(address, local_processes(block)) as engine:
        engine_name = engine.name
        while ref.games < run.games and (run.blocks is None or added < run.blocks):
            stop = rf.next_stop(ref.games, run.games, block)
            shard = run.shard_size or PLAYABILITY_SHARD
            job = playability_job(variant, words, leaves, run.seed, stop - ref.games, shard, before=ref.games)
            result = executor.run(job, folder, name, engine, progress)
            cpu += float(result.tables["cpu"]["seconds"].sum())
            computed, reused = computed + result.computed, reused + result.reused
            with parts.growing(path):  # another run may have grown the table meanwhile: read it again
                found = current_reference(path, wanted, run.games)
                if found.stops != ref.stops:
                    note(
                        f"{path}: another run changed the table meanwhile ({ref.games:,} -> {found.games:,} games); "
                        "going on from it"
                    )
                    ref = found
                    continue
                ref = rf.grown(ref, result.tables["losses"], stop)
                rf.write_part(path, ref, result.tables["losses"])
            added += 1
    table = ref.table(every)
    summed = summary(table, ref.losses, ref.games, variant.name, run.seed)
    seconds = time.perf_counter() - started
    return ReferenceGrowth(ref, path, restarted, before, seconds, cpu, computed, reused, engine_name, table, summed)


def current_reference(path: Path, wanted, games: int):
    """The reference table at `path` as it stands (`wanted`, of no games, when it holds no part); a one-line error
    when it was played with other keys or holds more games than `games`."""
    from dataclasses import replace

    from pipeline.core import parts
    from pipeline.scrabble.playability import reference as rf

    if not parts.part_files(path):
        return wanted
    found = rf.read_reference(path)
    reason = rf.mismatch(found, wanted)
    if reason is not None:
        raise FieldError(
            "{part}: {reason}; give another folder, or {force} to play the table again from game 1 (its parts removed)",
            part=parts.part_path(path, 0),
            reason=reason,
        )
    if found.games > games:
        raise FieldError(
            "{path} holds {found:,} games, more than {games} {asked:,}: give at least that many ({force} plays the "
            "table again from game 1)",
            path=path,
            found=found.games,
            asked=games,
        )
    return replace(wanted, losses=found.losses, games=found.games, stops=found.stops)


class Verified(NamedTuple):
    """Blocks of a reference table played again: which parts, their games, and the table's state."""

    path: Path
    parts: tuple[int, ...]
    games: tuple[tuple[int, int], ...]  # each part's first and last game
    state: str


def verify_reference(
    config: Config | Path | None, data_dir: Path | None, lexicon: str | None, run: PlayabilityRun, progress=None
) -> Verified:
    """Play `run.verify` of the reference table's blocks again (picked at random with the run's seed, all of them
    when it holds fewer), each from scratch, and compare their sums with its parts; a one-line error naming the
    first part whose sums differ."""
    import random
    import tempfile

    from pipeline.core import executor
    from pipeline.core.errors import WordstatsError
    from pipeline.core.session import open_session
    from pipeline.scrabble.equity.values import load_leaves
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.jobs import local_processes
    from pipeline.scrabble.playability import reference as rf
    from pipeline.scrabble.playability.job import LOSSES_SCHEMA, PLAYABILITY_SHARD, playability_job
    from pipeline.scrabble.playability.stage import params as stage_params
    from pipeline.scrabble.rules.variant import declared_variant

    assert run.reference is not None and run.verify is not None
    path = run.reference
    if not path.is_dir():
        raise FieldError("{reference} {path}: no such table to verify", path=path)
    with open_session(config, data_dir, lexicon) as s:
        variant = declared_variant(s.config, stage_params(s.config, None)["variant"])
        words, leaves = load_lexicon(s.store), load_leaves(s.store, variant)
        every = s.store.read("words", columns=["word"])["word"].to_list()
        ref = rf.read_reference(path)
        wanted = rf.empty(s.lexicon, ref.variant, ref.seed, leaves.digest(), every, ref.target)
        address = executor.cluster_address(s.config, run.ray)
    reason = rf.mismatch(ref, wanted) or (None if variant.name == ref.variant else f"variant {ref.variant}")
    if reason is not None:
        raise FieldError("{reference} {path}: cannot be played again here ({reason})", path=path, reason=reason)
    starts = (0, *ref.stops[:-1])
    picked = sorted(random.Random(ref.seed).sample(range(len(ref.stops)), min(run.verify, len(ref.stops))))
    blocks = rf.reference_blocks(path)
    with executor.engine_session(address, local_processes(max(ref.stops[i] - starts[i] for i in picked))) as engine:
        for index in picked:
            n = ref.stops[index] - starts[index]
            job = playability_job(
                variant, words, leaves, ref.seed, n, run.shard_size or PLAYABILITY_SHARD, before=starts[index]
            )
            with tempfile.TemporaryDirectory(prefix="wordstats-verify-") as tmp:  # nothing reused: every game again
                again = executor.run_job(job, Path(tmp) / "job", engine, progress).tables["losses"]
            again = again.cast(LOSSES_SCHEMA).sort("word", "half")  # type: ignore[arg-type]
            stored = blocks[index].cast(LOSSES_SCHEMA).sort("word", "half")  # type: ignore[arg-type]
            if not again.equals(stored):
                where = rf.first_difference(stored, again)
                raise WordstatsError(
                    f"{rf.parts.part_path(path, index)}: its sums of games {starts[index] + 1:,} to "
                    f"{ref.stops[index]:,} differ from the same games played again ({where})"
                )
    games = tuple((starts[i] + 1, ref.stops[i]) for i in picked)
    return Verified(path, tuple(picked), games, ref.state())

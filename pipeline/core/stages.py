"""The stages of every package (declared in each one's manifest, gathered by pipeline.core.registry) and `run`
in dependency order."""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Union, runtime_checkable

import polars as pl

from pipeline.core import fingerprint, registry
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.core.files import sha256_file, write_json
from pipeline.core.layout import MANIFEST, SOURCE_RECORD, fingerprint_path
from pipeline.core.manifest import Stage
from pipeline.core.progress import Progress
from pipeline.core.results import footer
from pipeline.core.store import Store, adhoc_sources

Output = Union[pl.DataFrame, dict, list, str, bytes]  # Parquet, JSON, or text (HTML)


@runtime_checkable
class StageModule(Protocol):
    """A stage's module: its parameters from the config, and the build from input tables to outputs."""

    def params(self, config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
        """The stage's settings, validated (recorded in each output's provenance)."""
        ...

    def build(self, inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
        """The stage's outputs (ctx.result(...)) from its input tables."""
        ...


@runtime_checkable
class SourceStage(StageModule, Protocol):
    """A stage that reads word list files rather than tables (ingest)."""

    def read_sources(self, ctx: StageContext) -> dict[str, str]:
        """Read the lexicon's sources into ctx.sources; their sha256 by label (for provenance)."""
        ...


def stage_module(s: Stage) -> StageModule:
    """The stage's module: a StageModule, and a SourceStage exactly when its manifest says it reads sources."""
    module = importlib.import_module(s.module)
    if not isinstance(module, StageModule):
        raise TypeError(f"{s.module} lacks params() or build()")
    if isinstance(module, SourceStage) != s.reads_sources:
        raise TypeError(f"{s.module}: read_sources() and the manifest's reads_sources={s.reads_sources} disagree")
    return module


# Every stage of the packages pipeline/games.py lists, in dependency order: a stage appears after every stage
# whose outputs it reads (each package declares its stages in its manifest).
STAGES: tuple[Stage, ...] = registry.stages()
# What `run --source` builds unless stages are named: what a plain word list needs (word facts, anagram indexes,
# Hangman, phonics, the report); the game stages (Boggle boards, the GADDAG, leaves, self-play) opt in.
WORD_LIST_STAGES = tuple(s.name for s in STAGES if s.word_list)


def stage(name: str) -> Stage:
    """The stage called `name`, or an error listing them."""
    for s in STAGES:
        if s.name == name:
            return s
    raise WordstatsError(f"unknown stage {name!r} (stages: {', '.join(s.name for s in STAGES)})")


def producer(table: str) -> Stage:
    """The stage that writes table `table`."""
    maker = registry.producer(table)
    if maker is None:
        raise WordstatsError(f"no stage writes table {table!r}")
    return maker


@dataclass
class StageContext:
    """What a stage function may use besides its input tables."""

    config: Config
    lexicon: str
    spec: LexiconSpec | None
    params: dict[str, Any]
    progress: Progress
    outputs: tuple[str, ...] = ()  # the files the stage writes, from the registry
    sources: list[Any] = field(default_factory=list)  # what a source-reading stage's read_sources made of them
    data_dir: Path | None = None  # where sharded jobs keep their folders (data_dir/<lexicon>/jobs/)
    cluster: str = ""  # where sharded jobs run ([cluster] address: where, not what, so not a setting)

    def result(self, **tables: Output) -> dict[str, Output]:
        """The stage's outputs by file name, given by table name: ctx.result(words=df, ingest_report=report)."""
        by_stem = {name.partition(".")[0]: name for name in self.outputs}
        if set(tables) != set(by_stem):
            raise RuntimeError(f"stage outputs {sorted(tables)} differ from the registry's {sorted(by_stem)}")
        return {by_stem[stem]: value for stem, value in tables.items()}


def _cluster_address(config: Config) -> str:
    """The config's [cluster] address (the executor, and numpy with it, is imported only when a stage runs)."""
    from pipeline.core.executor import cluster_address

    return cluster_address(config)


def with_inputs(names: set[str]) -> set[str]:
    """The stages `names` and every stage whose tables they read (optional inputs aside)."""
    wanted = set(names)
    changed = True
    while changed:
        changed = False
        for s in STAGES:
            if s.name in wanted:
                for table in s.inputs:
                    if producer(table).name not in wanted:
                        wanted.add(producer(table).name)
                        changed = True
    return wanted


def lexicon_stages(spec: LexiconSpec | None) -> list[Stage]:
    """The stages a lexicon builds by default (its `stages` and what they read; every stage when unset), in order."""
    if spec is None or spec.stages is None:
        return list(STAGES)
    wanted = with_inputs(set(spec.stages))
    return [s for s in STAGES if s.name in wanted]


def plan(names: list[str], store: Store, spec: LexiconSpec | None = None) -> list[Stage]:
    """The stages to run for `names` (the lexicon's stages when empty), plus producers of missing inputs, in
    order."""
    wanted = {stage(n).name for n in names} if names else {s.name for s in lexicon_stages(spec)}
    changed = True
    while changed:
        changed = False
        for s in STAGES:
            if s.name not in wanted:
                continue
            for table in s.inputs:
                maker = producer(table)
                if maker.name not in wanted and not store.exists(table):
                    wanted.add(maker.name)
                    changed = True
    return [s for s in STAGES if s.name in wanted]


def run_stage(
    s: Stage,
    config: Config,
    store: Store,
    spec: LexiconSpec | None,
    progress: Progress,
    adhoc: bool = False,
    cluster: str | None = None,
) -> dict:
    """Run one stage: read its inputs, call it, commit its outputs together with provenance (and, for an ad hoc
    word list, the files it came from); its sharded jobs run on `cluster` (default: the config's)."""
    module = stage_module(s)
    params, reads = fingerprint.stage_settings(s, config, spec)
    build_reads = fingerprint.Reads()
    watched, watched_spec = fingerprint.tracked(config, spec, build_reads)
    ctx = StageContext(
        watched,
        store.lexicon,
        watched_spec,
        params,
        progress,
        s.outputs,
        data_dir=store.data_dir,
        cluster=_cluster_address(config) if cluster is None else cluster,
    )
    inputs: dict[str, pl.DataFrame] = {}
    input_hashes: dict[str, str] = {}
    if isinstance(module, SourceStage):  # its manifest says so (stage_module)
        if spec is None:
            raise WordstatsError(
                f"lexicon {store.lexicon!r} is not in {config.path}; give its word list with --source PATH"
            )
        input_hashes = module.read_sources(ctx)
    for table in s.inputs + s.optional_inputs:
        if table in s.optional_inputs and not store.exists(table):
            continue
        inputs[table] = store.read(table)  # checked against its declared schema first
        path = store.path(table)
        input_hashes[path.name] = sha256_file(path)
    started = time.perf_counter()
    with progress.task(f"{s.name} ({store.lexicon}): {s.description}"):
        outputs = module.build(inputs, ctx)
    if set(outputs) != set(s.outputs):
        raise RuntimeError(f"stage {s.name} returned {sorted(outputs)}, not {sorted(s.outputs)}")
    provenance = footer(s.name, store.lexicon, config.sha256, dict(sorted(input_hashes.items())), ctx.params)
    files: dict[str, Any] = {name: outputs[name] for name in s.outputs}
    reads_sources = s.reads_sources
    if reads_sources and adhoc and spec is not None:
        files[SOURCE_RECORD] = source_record(spec)
    entries = store.commit(files, provenance)
    if reads_sources and not adhoc:
        (store.root / SOURCE_RECORD).unlink(missing_ok=True)
    if reads_sources and adhoc and store.lexicon in config.lexicons:  # --force: `make` rebuilds it from the config
        fingerprint_path(store.data_dir, store.lexicon, s.name).unlink(missing_ok=True)
    return {
        "stage": s.name,
        "seconds": round(time.perf_counter() - started, 3),
        "outputs": entries,
        "reads": (reads, build_reads),
    }


def source_record(spec: LexiconSpec) -> dict[str, Any]:
    """What an ad hoc lexicon was built from: its word list files (absolute paths) and length limits."""
    return {
        "sources": [str(Path(src.path).resolve()) if src.path else src.label for src in spec.sources],
        "min_length": spec.min_length,
        "max_length": spec.max_length,
    }


def check_source(config: Config, store: Store, spec: LexiconSpec, force: bool) -> None:
    """Refuse --source onto a lexicon of the config, or onto an ad hoc lexicon built from other files."""
    if force:
        return
    if store.lexicon in config.lexicons:
        raise WordstatsError(
            f"lexicon {store.lexicon!r} is declared in {config.path}: --source would replace its words "
            f"(choose another --lexicon name, or add --force)"
        )
    if not store.exists("words"):
        return
    before = adhoc_sources(store)
    now = source_record(spec)["sources"]
    if before != now:
        was = ", ".join(before) if before else "an unknown word list"
        raise WordstatsError(
            f"lexicon {store.lexicon!r} in {store.data_dir} was built from {was}, not {', '.join(now)} "
            f"(choose another --lexicon name, or add --force)"
        )


def current_manifest(store: Store, holding_lock: bool = False) -> dict:
    """The lexicon's manifest; when it is missing, damaged or disagrees with the files, rebuilt from the tables'
    footers and saved (unless another run is building the lexicon right now)."""
    producers = {name: s.name for s in STAGES for name in s.outputs}
    try:
        if not store.manifest_is_stale(producers):
            return store.manifest()
    except WordstatsError:  # a damaged manifest is rebuilt too
        pass
    manifest = store.rebuild_manifest(producers)
    if manifest["tables"]:
        if holding_lock:
            write_json(store.root / MANIFEST, manifest)
        else:
            with contextlib.suppress(WordstatsError, OSError), store.writer(wait=False):
                write_json(store.root / MANIFEST, manifest)
    return manifest


def run(
    config: Config,
    data_dir: Path,
    lexicon: str,
    names: list[str],
    spec: LexiconSpec | None = None,
    progress: Progress | None = None,
    force: bool = False,
    cluster: str | None = None,
) -> list[dict]:
    """Run the named stages (all when empty) for one lexicon, in dependency order, as its only writer (sharded
    jobs inside a stage run on `cluster`, default the config's)."""
    store = Store(data_dir, lexicon)
    adhoc = spec is not None
    with store.writer():
        current_manifest(store, holding_lock=True)
        if spec is not None:
            check_source(config, store, spec, force)
            names = names or list(WORD_LIST_STAGES)
        elif lexicon in config.lexicons:
            spec = config.lexicons[lexicon]
        else:  # an ad hoc lexicon built earlier with --source: its words table is its only source
            if not store.exists("words"):
                config.lexicon(lexicon)  # raises: unknown lexicon
            names = names or [n for n in WORD_LIST_STAGES if not stage(n).reads_sources]
        progress = progress or Progress()
        return [run_stage(s, config, store, spec, progress, adhoc, cluster) for s in plan(names, store, spec)]


def lexicon_task(config: Config, data_dir: Path, lexicon: str, names: list[str]) -> list[dict]:
    """One lexicon's stages as a cluster task: quiet, and the stages' own jobs stay on the task's node."""
    results = run(config, data_dir, lexicon, names, progress=Progress(quiet=True), cluster="")
    return [{k: v for k, v in r.items() if k != "reads"} for r in results]


def run_lexicons(
    config: Config, data_dir: Path, lexicons: list[str], names: list[str], address: str
) -> Iterator[tuple[str, list[dict]]]:
    """Run the named stages for several lexicons on the Ray cluster of `address`, one task (one core) per
    lexicon, yielding (lexicon, results) as each finishes; `data_dir` must be the same folder on every node."""
    from pipeline.core.cluster import remote_calls

    calls = [(config, data_dir, name, names) for name in lexicons]
    for index, results in remote_calls(address, lexicon_task, calls):
        yield lexicons[index], results

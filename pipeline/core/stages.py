"""The stage registry (name → inputs, outputs, function) and `run` in dependency order."""

from __future__ import annotations

import contextlib
import importlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Union, runtime_checkable

import polars as pl

from pipeline import __version__
from pipeline.core import fingerprint
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.core.progress import Progress
from pipeline.core.store import MANIFEST, Store, fingerprint_path, sha256_file, write_json

Output = Union[pl.DataFrame, dict, list, str, bytes]  # Parquet, JSON, or text (HTML)
SOURCE_RECORD = ".source.json"  # the word list files an ad hoc lexicon was built from
# What `run --source` builds unless stages are named: what a plain word list needs (word facts, anagram indexes,
# Hangman, phonics, the report); the game stages (Boggle boards, the GADDAG, leaves, self-play) opt in.
WORD_LIST_STAGES = ("ingest", "indexes", "hangman", "phonics", "report")


@dataclass(frozen=True)
class Stage:
    """A pure function from input tables to output files, and what it needs."""

    name: str
    module: str  # the module holding `build(inputs, ctx)` and `params(config, spec)`
    inputs: tuple[str, ...]  # tables it reads (by name: "words" → words.parquet)
    outputs: tuple[str, ...]  # files it writes
    optional_inputs: tuple[str, ...] = ()  # tables read when they exist
    description: str = ""

    def load(self) -> StageModule:
        """The stage's module."""
        module = importlib.import_module(self.module)
        if not isinstance(module, StageModule):
            raise TypeError(f"{self.module} lacks params() or build()")
        return module

    def settings(self, config: Config, spec: LexiconSpec | None) -> tuple[dict[str, Any], fingerprint.Reads]:
        """The stage's parameters (recorded in provenance), and what they read from the config."""
        reads = fingerprint.Reads()
        watched, watched_spec = fingerprint.tracked(config, spec, reads)
        return self.load().params(watched, watched_spec), reads

    def fingerprint(self, config: Config, spec: LexiconSpec | None) -> str:
        """The settings this stage depends on for one lexicon, as text (a config error becomes part of it)."""
        try:
            params, reads = self.settings(config, spec)
        except WordstatsError as exc:
            return fingerprint.text({"error": str(exc)})
        return fingerprint.text(fingerprint.settings(config, spec, reads, params))


# In dependency order: a stage appears after every stage whose outputs it reads.
STAGES: tuple[Stage, ...] = (
    Stage(
        "ingest",
        "pipeline.ingest.stage",
        (),
        ("words.parquet", "ingest_report.json"),
        description="read and normalise the word list",
    ),
    # -- anagram indexes and bingo stems
    Stage(
        "indexes",
        "pipeline.anagrams.indexes",
        ("words",),
        ("anagrams.parquet", "prefixes.parquet", "hooks.parquet"),
        description="anagram families with probabilities, prefixes, hooks",
    ),
    Stage(
        "stems", "pipeline.anagrams.stems", ("anagrams",), ("stems.parquet",), description="6- and 7-letter bingo stems"
    ),
    # -- boggle
    Stage(
        "boggle",
        "pipeline.boggle.stage",
        ("words",),
        ("boggle_boards.parquet", "boggle_words.parquet", "boggle_summary.json", "boggle_best.parquet"),
        description="random Boggle boards per dice set, per-word findability, best-board search",
    ),
    Stage(
        "dictionary",
        "pipeline.boggle.dictionary_stage",
        ("words",),
        ("boggle_dictionary.parquet",),
        description="each Boggle variant's compiled dictionary, read by boggle solve and boggle score",
    ),
    # -- hangman
    Stage(
        "hangman",
        "pipeline.hangman.stage",
        ("words",),
        ("hangman.parquet", "hangman_summary.json"),
        description="Hangman difficulty of every word (two solvers)",
    ),
    # -- scrabble
    Stage(
        "gaddag",
        "pipeline.scrabble.lexicon.stage",
        ("words",),
        ("gaddag.parquet",),
        description="the GADDAG for Scrabble move generation",
    ),
    Stage(
        "leaves",
        "pipeline.scrabble.equity.stage",
        ("words", "gaddag"),
        ("leaves.parquet", "leaves_games.zip"),
        description="leave values from rounds of greedy and equity self-play (and games as GCG)",
    ),
    Stage(
        "scrabble",
        "pipeline.scrabble.stage",
        ("words", "gaddag"),
        ("openings.parquet", "selfplay.parquet", "selfplay_summary.json"),
        optional_inputs=("leaves",),
        description="best opening scores, self-play games (greedy or by equity)",
    ),
    # -- phonics: sounds, syllables, phonics features and grade levels for teachers' lists
    Stage(
        "phonics",
        "pipeline.phonics.stage",
        ("words",),
        ("phonics.parquet",),
        description="pronunciations (CMU), syllables, phonics features, Dolch and grade levels",
    ),
    # -- report: last, it reads every table that exists
    Stage(
        "report",
        "pipeline.report.stage",
        ("words",),
        ("report.html",),
        optional_inputs=("anagrams", "stems", "boggle_boards", "boggle_words", "hangman", "openings"),
        description="the HTML report of every table that exists",
    ),
)


def stage(name: str) -> Stage:
    """The stage called `name`, or an error listing them."""
    for s in STAGES:
        if s.name == name:
            return s
    raise WordstatsError(f"unknown stage {name!r} (stages: {', '.join(s.name for s in STAGES)})")


def producer(table: str) -> Stage:
    """The stage that writes table `table`."""
    for s in STAGES:
        if f"{table}.parquet" in s.outputs or table in s.outputs:
            return s
    raise WordstatsError(f"no stage writes table {table!r}")


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
    module = s.load()
    params, reads = s.settings(config, spec)
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
    if isinstance(module, SourceStage):
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
    provenance = {
        "stage": s.name,
        "lexicon": store.lexicon,
        "config_sha256": config.sha256,
        "inputs": dict(sorted(input_hashes.items())),
        "params": ctx.params,
        "version": __version__,
    }
    files: dict[str, Any] = {name: outputs[name] for name in s.outputs}
    reads_sources = isinstance(module, SourceStage)
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


def adhoc_sources(store: Store) -> list[str] | None:
    """The word list files a lexicon was last built from with --source (None when built from the config)."""
    try:
        sources = json.loads((store.root / SOURCE_RECORD).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return [str(s) for s in sources] if isinstance(sources, list) else None


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
            names = names or [n for n in WORD_LIST_STAGES if not isinstance(stage(n).load(), SourceStage)]
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
    from pipeline.core.executor import remote_calls

    calls = [(config, data_dir, name, names) for name in lexicons]
    for index, results in remote_calls(address, lexicon_task, calls):
        yield lexicons[index], results

"""The stage registry (name → inputs, outputs, function) and `run` in dependency order."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import __version__
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.core.progress import Progress
from pipeline.core.store import Store, sha256_file


@dataclass(frozen=True)
class Stage:
    """A pure function from input tables to output files, and what it needs."""

    name: str
    module: str  # the module holding `build(inputs, ctx)` and `params(config, spec)`
    inputs: tuple[str, ...]  # tables it reads (by name: "words" → words.parquet)
    outputs: tuple[str, ...]  # files it writes
    optional_inputs: tuple[str, ...] = ()  # tables read when they exist
    description: str = ""

    def load(self) -> Any:
        """The stage's module."""
        return importlib.import_module(self.module)


# In dependency order: a stage appears after every stage whose outputs it reads.
STAGES: tuple[Stage, ...] = (
    Stage(
        "ingest",
        "pipeline.ingest.stage",
        (),
        ("words.parquet", "ingest_report.json"),
        description="read and normalise the word list",
    ),
    # -- indexes and stems (issues 3, 4)
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
    # -- boggle (issue 5)
    Stage(
        "boggle",
        "pipeline.boggle.stage",
        ("words",),
        ("boggle_boards.parquet", "boggle_words.parquet", "boggle_summary.json", "boggle_best.parquet"),
        description="random Boggle boards per dice set, per-word findability, best-board search",
    ),
    # -- hangman (issue 6)
    Stage(
        "hangman",
        "pipeline.hangman.stage",
        ("words",),
        ("hangman.parquet", "hangman_summary.json"),
        description="Hangman difficulty of every word (two solvers)",
    ),
    # -- scrabble (issue 8)
    Stage(
        "scrabble",
        "pipeline.scrabble.stage",
        ("words",),
        ("openings.parquet", "selfplay.parquet", "selfplay_summary.json"),
        description="best opening scores, greedy self-play games",
    ),
    # -- report (issue 7): last, it reads every table that exists
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
    sources: list = field(default_factory=list)  # ingest only: the raw SourceTexts
    data_dir: Path | None = None  # where sharded jobs keep their folders (data_dir/<lexicon>/jobs/)


def plan(names: list[str], store: Store) -> list[Stage]:
    """The stages to run for `names` (all when empty), plus producers of missing inputs, in order."""
    wanted = {stage(n).name for n in names} if names else {s.name for s in STAGES}
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


def stage_params(s: Stage, config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The stage's parameters (recorded in provenance), from its module's `params` function."""
    fn: Callable | None = getattr(s.load(), "params", None)
    return fn(config, spec) if fn else {}


def run_stage(s: Stage, config: Config, store: Store, spec: LexiconSpec | None, progress: Progress) -> dict:
    """Run one stage: read its inputs, call it, write its outputs atomically with provenance."""
    module = s.load()
    ctx = StageContext(config, store.lexicon, spec, stage_params(s, config, spec), progress, data_dir=store.data_dir)
    inputs: dict[str, pl.DataFrame] = {}
    input_hashes: dict[str, str] = {}
    if s.name == "ingest":
        if spec is None:
            raise WordstatsError(
                f"lexicon {store.lexicon!r} is not in {config.path}; give its word list with --source PATH"
            )
        from pipeline.ingest.sources import read_source

        ctx.sources = [read_source(src) for src in spec.sources]
        input_hashes = {t.source.label: t.sha256 for t in ctx.sources}
    for table in s.inputs + s.optional_inputs:
        if table in s.optional_inputs and not store.exists(table):
            continue
        path = store.require(table)
        inputs[table] = pl.read_parquet(path)
        input_hashes[path.name] = sha256_file(path)
    started = time.perf_counter()
    with progress.task(f"{s.name} ({store.lexicon}): {s.description}"):
        outputs = module.build(inputs, ctx)
    missing = set(s.outputs) - set(outputs)
    if missing:
        raise RuntimeError(f"stage {s.name} did not produce {sorted(missing)}")
    provenance = {
        "stage": s.name,
        "lexicon": store.lexicon,
        "config_sha256": config.sha256,
        "inputs": dict(sorted(input_hashes.items())),
        "params": ctx.params,
        "version": __version__,
    }
    entries = store.write({name: outputs[name] for name in s.outputs}, provenance)
    return {"stage": s.name, "seconds": round(time.perf_counter() - started, 3), "outputs": entries}


def run(
    config: Config,
    data_dir: Path,
    lexicon: str,
    names: list[str],
    spec: LexiconSpec | None = None,
    progress: Progress | None = None,
) -> list[dict]:
    """Run the named stages (all when empty) for one lexicon, in dependency order."""
    store = Store(data_dir, lexicon)
    if spec is None and lexicon in config.lexicons:
        spec = config.lexicons[lexicon]
    if spec is None:  # an ad hoc lexicon built earlier with --source: its words table is its only source
        if not store.exists("words"):
            config.lexicon(lexicon)  # raises: unknown lexicon
        names = names or [s.name for s in STAGES if s.name != "ingest"]
    progress = progress or Progress()
    return [run_stage(s, config, store, spec, progress) for s in plan(names, store)]

"""The leaves stage: leaves.parquet (the value of every leave of 1 to 6 tiles: equity/fit.py) and the GCG records
of the first games of its last round (leaves_games.zip). With [scrabble.leaves] reference (the default config's
data/raw/leaves-enable.parquet, the observations of a long run's last round: `make leaves-reference`), the
values are fitted from that table in seconds and the games are those of equity players with them; without it,
they are learnt from rounds of seeded self-play here."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.settings import read
from pipeline.scrabble.equity.fit import leave_values, published
from pipeline.scrabble.equity.job import Learning, learn, round_game
from pipeline.scrabble.equity.reference import read_reference
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.gaddag import from_table
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.manifest import SETTINGS
from pipeline.scrabble.play.jobs import local_processes
from pipeline.scrabble.play.turns import game_of
from pipeline.scrabble.records.gcg import game_gcg
from pipeline.scrabble.rules.variant import Variant, declared_variant

GCG_KEPT = 20  # GCG records kept in leaves_games.zip (the first games of the last round)


def params(config: Config, spec: LexiconSpec | None) -> dict:
    """The variant, games per round, rounds, seed and prior weight of [scrabble.leaves] (validated), and the
    reference table's path and sha256 (empty when the values are learnt here)."""
    sec = config.section("scrabble").section("leaves", {})
    leaves = read(sec, SETTINGS)
    name = leaves["variant"]
    declared = config.section("scrabble").sections("variants")
    if name not in declared:
        sec.fail("variant", f"unknown variant {name!r} (declared: {', '.join(declared)})")
    declared_variant(config, name)  # validated; only this variant's tile set is read
    return {
        "variant": name,
        **{key: leaves[key] for key in ("games", "rounds", "seed", "prior_weight")},
        **reference_params(config, leaves["reference"]),
    }


def reference_params(config: Config, name: str) -> dict:
    """The reference table's path (relative to the config that names it) and sha256, so that the stage is
    stale when the table changes; nothing when no reference is named."""
    if not name:
        return {}
    path = config.folder("scrabble", "leaves", "reference") / name
    if not path.is_file():
        config.section("scrabble").section("leaves").fail("reference", f"no such file: {path}")
    return {"reference": str(path), "reference_sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def gcg_zip(records: list[tuple[str, str]]) -> bytes:
    """GCG records as a zip (fixed timestamps, so the same games give the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in records:
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text)
    return buffer.getvalue()


def last_round_records(
    variant: Variant, lexicon: Lexicon, seed: int, rounds: int, values: pl.DataFrame | None, games: int
) -> list[tuple[str, str]]:
    """The GCG records of the first `games` games of the last round (replayed: every game is a pure
    function of its seed, round and number), played with the values the last round read."""
    learning = Learning(variant, lexicon, seed, rounds, LeaveValues(values) if values is not None else None)
    return [
        (f"game-{n:06d}.gcg", game_gcg(game_of(round_game(learning, n), variant, lexicon), variant, lexicon=""))
        for n in range(1, games + 1)
    ]


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """Leave values from rounds of seeded self-play, and the GCG records of the last round's first games."""
    from pipeline.core import executor

    p = ctx.params
    variant = declared_variant(ctx.config, p["variant"])
    lexicon = Lexicon(inputs["words"]["word"].to_list())
    lexicon.__dict__["gaddag"] = from_table(inputs["gaddag"])
    if "reference" in p:
        fitted = leave_values(read_reference(Path(p["reference"])), variant.tile_set.counts, p["prior_weight"])
        values = published(fitted)
        records = last_round_records(variant, lexicon, p["seed"], p["rounds"], values, min(GCG_KEPT, p["games"]))
        return {"leaves.parquet": values, "leaves_games.zip": gcg_zip(records)}
    with executor.engine_session(ctx.cluster, local_processes(p["games"])) as engine:
        frames, _ = learn(
            variant,
            lexicon,
            p["games"],
            p["seed"],
            p["prior_weight"],
            p["rounds"],
            engine,
            ctx.data_dir,
            ctx.lexicon,
            ctx.progress,
        )
    read = frames[-2] if len(frames) > 1 else None
    records = last_round_records(variant, lexicon, p["seed"], p["rounds"], read, min(GCG_KEPT, p["games"]))
    return {"leaves.parquet": published(frames[-1]), "leaves_games.zip": gcg_zip(records)}

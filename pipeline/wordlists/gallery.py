"""The gallery stage: each preset's words as the teacher's page previews them (its sheet's words, in order), made
with the tables so that a fresh page shows every card at once. The page uses the table only while it is current:
made from the tables and settings in force (its footer's inputs and params); otherwise it makes a preview on
request, as it does for a lexicon other than the teacher's (whose table is empty)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.core.stages import Output, StageContext
from pipeline.wordlists.manifest import MANIFEST
from pipeline.words.classroom import classroom_files

TABLE = "gallery"
OPTIONAL = MANIFEST.stages[0].optional_inputs  # tables a list reads when they exist
SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "preset": pl.String,
    "words": pl.List(pl.String),
    "note": pl.String,
}


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """Whether the lexicon is the teacher's (the gallery's), the files its lists are chosen by (the word-list
    settings, their block list and classroom review; the config's [wordlists] section is a setting read here),
    and the code that chooses them: its source files and lemminflect, whose forms the block list is expanded by."""
    from importlib.metadata import version

    from pipeline.wordlists.settings import load_settings

    return {
        "teacher": spec is not None and spec.name == config.teacher_lexicon,
        "files": classroom_files(load_settings(config).classroom),
        "code": code_digest(),
        "lemminflect": version("lemminflect"),
    }


def code_digest() -> str:
    """The sha256 of the source files the gallery's lists run (this module's import closure)."""
    from pipeline.core.modules import closure

    h = hashlib.sha256()
    for path in closure(__name__):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def gallery_table(store, config: Config) -> pl.DataFrame:
    """Each preset's printed words on the store's lexicon (a preset that gives none: no words, and why)."""
    from pipeline.wordlists.select import word_list
    from pipeline.wordlists.settings import load_settings

    rows = []
    for name in load_settings(config).presets:
        try:
            words, note = list(word_list(store, config, name, printed=True).words), None
        except WordstatsError as exc:
            words, note = [], str(exc)
        rows.append({"preset": name, "words": words, "note": note})
    return pl.DataFrame(rows, schema=SCHEMA)


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The gallery stage: the teacher lexicon's tables → gallery.parquet (empty for another lexicon)."""
    from pipeline.core.store import Store

    if not ctx.params["teacher"] or ctx.data_dir is None:
        return ctx.result(gallery=pl.DataFrame(schema=SCHEMA))
    return ctx.result(gallery=gallery_table(Store(ctx.data_dir, ctx.lexicon), ctx.config))


def current_previews(store, config: Config) -> dict[str, tuple[str, ...]] | None:
    """The stored previews by preset when gallery.parquet is current (made from the tables the store holds now
    and the settings in force), else None."""
    from pipeline.core.files import read_provenance, sha256_file

    path = store.path(TABLE)
    try:
        made = read_provenance(path)
        now = json.loads(json.dumps(params(config, config.lexicons.get(store.lexicon))))
        if made.get("params") != now or not isinstance(made.get("inputs"), dict) or not made["inputs"]:
            return None
        read = {name: store.root / name for name in made["inputs"]}
        if any(not p.is_file() or sha256_file(p) != sha for p, sha in zip(read.values(), made["inputs"].values())):
            return None
        if any(store.exists(t) and f"{t}.parquet" not in read for t in ("words", "phonics", *OPTIONAL)):
            return None  # a table built since, which the lists may read
        table = pl.read_parquet(path)
        if table.schema != pl.Schema(SCHEMA) or table.is_empty():
            return None
        return {preset: tuple(words) for preset, words, note in table.iter_rows() if note is None and words is not None}
    except Exception:  # noqa: BLE001 (a damaged or foreign table: the page makes its previews itself)
        return None

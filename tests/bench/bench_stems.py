"""The stems stage on ENABLE against a straightforward version (a Python dict of alphagrams, stems × 26 letters).

Target: the stage under 3 s.
"""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from tests.bench import enable

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def straightforward(words: list[str], tiles) -> dict[str, dict]:
    """Stems the plain way: a dict of alphagrams, every stem of every 7/8-letter word, each letter A–Z tried."""
    families = defaultdict(list)
    for w in words:
        families["".join(sorted(w))].append(w)
    stems = {a[:i] + a[i + 1 :] for a in families if len(a) in (7, 8) for i in range(len(a))}
    bag = {c: tiles.counts[c] for c in LETTERS}
    table = {}
    for stem in stems:
        bingos = {}
        for c in LETTERS:
            key = "".join(sorted(stem + c))
            if key in families:
                bingos[c] = sorted(families[key])
        held = Counter(stem)
        ways = math.prod(math.comb(bag[c], n) for c, n in held.items())
        completing = tiles.counts["?"] + sum(max(bag[c] - held[c], 0) for c in bingos)
        probability = ways / math.comb(tiles.size, len(stem))
        draw = completing / (tiles.size - len(stem))
        table[stem] = {
            "letters": list(bingos),
            "n_bingos": sum(map(len, bingos.values())),
            "bingos": bingos,
            "stem_probability": probability,
            "draw_chance": draw,
            "usefulness": probability * draw,
            "has_s": "S" in stem,
        }
    for size in (6, 7):
        group = [s for s in table if len(s) == size]
        for column, key in (
            ("rank_letters", lambda s: (-len(table[s]["letters"]), -table[s]["n_bingos"], s)),
            ("rank_bingos", lambda s: (-table[s]["n_bingos"], -len(table[s]["letters"]), s)),
            ("rank_usefulness", lambda s: (-table[s]["usefulness"], s)),
        ):
            for rank, s in enumerate(sorted(group, key=key), 1):
                table[s][column] = rank
    return table


def run() -> dict:
    """The stems stage on ENABLE against the straightforward version."""
    skipped = enable.missing()
    if skipped:
        return skipped
    import polars as pl

    from pipeline.anagrams.stems import build, params, stem_tiles
    from pipeline.core.config import load_config
    from pipeline.core.progress import SILENT
    from pipeline.core.stages import StageContext, run_stage, stage
    from pipeline.core.store import Store

    config = load_config(enable.CONFIG)
    with tempfile.TemporaryDirectory() as tmp:
        data = enable.build(Path(tmp), ["indexes"])
        store = Store(data, enable.LEXICON)
        anagrams = pl.read_parquet(store.path("anagrams"))
        words = pl.read_parquet(store.path("words"), columns=["word"])["word"].to_list()
        ctx = StageContext(config, enable.LEXICON, None, params(config, None), SILENT)
        times, table = [], None
        for _ in range(3):
            started = time.perf_counter()
            table = build({"anagrams": anagrams}, ctx)["stems.parquet"]
            times.append(time.perf_counter() - started)
        started = time.perf_counter()
        run_stage(stage("stems"), config, store, None, SILENT)
        with_io = time.perf_counter() - started

    _, tiles = stem_tiles(config)
    started = time.perf_counter()
    plain = straightforward(words, tiles)
    plain_s = time.perf_counter() - started
    rows = {r["stem"]: r for r in table.select("stem", "letters", "n_bingos", "rank_usefulness").iter_rows(named=True)}
    agrees = set(rows) == set(plain) and all(
        rows[s]["letters"] == p["letters"]
        and rows[s]["n_bingos"] == p["n_bingos"]
        and rows[s]["rank_usefulness"] == p["rank_usefulness"]
        for s, p in plain.items()
    )
    stage_s = statistics.median(times)
    return {
        "lexicon": f"ENABLE ({enable.ENABLE.name}), {len(words):,} words",
        "stems": table.height,
        "stage_seconds": round(stage_s, 3),
        "stage_seconds_runs": [round(t, 3) for t in times],
        "stage_with_io_seconds": round(with_io, 3),
        "straightforward_seconds": round(plain_s, 3),
        "speedup": round(plain_s / stage_s, 1),
        "agrees_with_straightforward": agrees,
        "notes": {
            "stage": "median of 3 calls of stems.build on anagrams.parquet already in memory",
            "stage_with_io": "one run_stage: read anagrams.parquet, build, write stems.parquet with provenance",
            "straightforward": "dict of alphagrams; each stem of each 7/8-letter alphagram × 26 letters looked "
            "up; probabilities with math.comb; ranks with sorted()",
        },
        "targets": {"stage_under_3_s": stage_s < 3},
    }

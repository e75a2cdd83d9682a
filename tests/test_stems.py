"""The stems stage against a brute-force reference (every stem × every letter looked up), and its queries."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter, defaultdict
from itertools import combinations_with_replacement

import polars as pl
import pytest

from pipeline.core.config import load_config
from pipeline.letters.alphabet import LETTERS
from tests.conftest import ROOT, SMALL_CONFIG, ask, build_lexicon, config_with, corpus

LEXICON_LETTERS = "ADEILNRST"


@pytest.fixture(scope="module")
def small_words() -> list[str]:
    """The Moby words (bundled in data/raw) spelled only with ADEILNRST: about 4,000 words."""
    lines = (ROOT / "data" / "raw" / "moby-words.txt").read_text().split()
    return sorted({w.upper() for w in lines if w.isalpha() and w.islower() and set(w.upper()) <= set(LEXICON_LETTERS)})


def reference_stems(words: list[str], tiles) -> dict[str, dict]:
    """Every 6- and 7-letter multiset of the lexicon's letters, with each letter A–Z looked up directly."""
    families = defaultdict(list)
    for w in words:
        families["".join(sorted(w))].append(w)
    bag = {c: tiles.counts[c] for c in LETTERS}
    stems = {}
    for size in (6, 7):
        # a stem's letters are all in some word, so the lexicon's letters are all a stem can hold
        for letters in combinations_with_replacement(LEXICON_LETTERS, size):
            stem = "".join(letters)
            bingos = {
                c: sorted(families["".join(sorted(stem + c))]) for c in LETTERS if "".join(sorted(stem + c)) in families
            }
            if not bingos:
                continue
            held = Counter(stem)
            ways = math.prod(math.comb(bag[c], n) for c, n in held.items())
            completing = tiles.counts["?"] + sum(max(bag[c] - held[c], 0) for c in bingos)
            stems[stem] = {
                "stem_length": size,
                "letters": list(bingos),
                "n_letters": len(bingos),
                "n_bingos": sum(map(len, bingos.values())),
                "bingos": [{"letter": c, "words": ws} for c, ws in bingos.items()],
                "has_s": "S" in stem,
                "stem_probability": ways / math.comb(tiles.size, size),
                "draw_chance": completing / (tiles.size - size),
            }
    for row in stems.values():
        row["usefulness"] = row["stem_probability"] * row["draw_chance"]
    for size in (6, 7):
        group = [s for s in stems if len(s) == size]
        orders = {
            "rank_letters": lambda s: (-stems[s]["n_letters"], -stems[s]["n_bingos"], s),
            "rank_bingos": lambda s: (-stems[s]["n_bingos"], -stems[s]["n_letters"], s),
            "rank_usefulness": lambda s: (-stems[s]["usefulness"], s),
        }
        for column, key in orders.items():
            for rank, s in enumerate(sorted(group, key=key), 1):
                stems[s][column] = rank
    return stems


@pytest.mark.parametrize("tile_set", ["scrabble", "wwf"])
def test_stems_table_matches_brute_force(build, tmp_path, small_words, tile_set):
    config = config_with(tmp_path, '[stems]\ntiles = "scrabble"', f'[stems]\ntiles = "{tile_set}"')
    data = build(small_words, "stems", config=config)
    table = pl.read_parquet(data / "t" / "stems.parquet")
    expected = reference_stems(small_words, load_config(config).tiles[tile_set])
    assert table.height == len(expected) > 1000
    assert table.select("stem_length", "stem").rows() == sorted((len(s), s) for s in expected)
    for row in table.iter_rows(named=True):
        want = expected[row.pop("stem")]
        for column in ("stem_probability", "draw_chance", "usefulness"):
            assert row.pop(column) == pytest.approx(want.pop(column), rel=1e-12)
        assert row == want


@pytest.mark.slow
def test_enable2k_satire_stem_takes_18_letters(build, cli):
    data = build(corpus("enable2k/enable2k.txt"), "stems")
    row = pl.read_parquet(data / "t" / "stems.parquet").filter(pl.col("stem") == "AEIRST").row(0, named=True)
    assert row["n_letters"] == 18 and row["letters"] == list("ABCDEFGHILMNPRSTVW")
    res = cli("stem", "satire", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--json")
    letters = json.loads(res.stdout)
    assert len(letters) == 18 and letters[0] == {
        "letter": "A",
        "n_words": 3,
        "words": ["ARISTAE", "ASTERIA", "ATRESIA"],
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory, small_words):
    """The small lexicon with its stems built."""
    return build_lexicon(tmp_path_factory.mktemp("stems") / "out", small_words, "stems")


@pytest.mark.parametrize(
    "order, key",
    [
        ("letters", lambda r: (-r["n_letters"], -r["n_bingos"], r["stem"])),
        ("bingos", lambda r: (-r["n_bingos"], -r["n_letters"], r["stem"])),
        ("usefulness", lambda r: (-r["usefulness"], r["stem"])),
    ],
)
def test_cli_stems_ranked(cli, built, order, key):
    everything = pl.read_parquet(built / "t" / "stems.parquet").filter(pl.col("stem_length") == 6)
    rows = json.loads(ask(cli, built, "stems", "--length", "6", "--order", order, "--limit", "10", "--json").stdout)
    expected = sorted(everything.filter(pl.col("n_letters") >= 1).to_dicts(), key=key)[:10]
    assert [r["stem"] for r in rows] == [r["stem"] for r in expected]
    assert [r["rank"] for r in rows] == list(range(1, 11)) == [r[f"rank_{order}"] for r in expected]
    few = json.loads(ask(cli, built, "stems", "--min-letters", "5", "--limit", "0", "--json").stdout)
    assert (
        len(few)
        == everything.filter(pl.col("n_letters") >= 5).height
        + pl.read_parquet(built / "t" / "stems.parquet")
        .filter((pl.col("stem_length") == 7) & (pl.col("n_letters") >= 5))
        .height
    )


def test_cli_stem_export(cli, built, tmp_path):
    target = tmp_path / "study.csv"
    res = ask(cli, built, "stems", "--order", "letters", "--limit", "5", "--out", target)
    assert res.exit_code == 0 and "wrote 5 stems" in res.stderr
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [r["rank"] for r in rows] == ["1", "2", "3", "4", "5"] and list(rows[0]) == [
        "rank",
        "stem",
        "letters",
        "n_bingos",
        "bingos",
    ]
    first = json.loads(ask(cli, built, "stem", rows[0]["stem"][::-1], "--json").stdout)  # any letter order
    assert rows[0]["bingos"] == "; ".join(f"{r['letter']}: {' '.join(r['words'])}" for r in first)
    markdown = tmp_path / "study.md"
    assert ask(cli, built, "stems", "--limit", "3", "--out", markdown).exit_code == 0
    lines = markdown.read_text().splitlines()
    assert lines[0] == "| rank | stem | letters | n_bingos | bingos |" and len(lines) == 5
    missing = ask(cli, built, "stem", "QQQQQQ")
    assert missing.exit_code == 0 and "QQQQQQ" in missing.stderr


def test_cli_huge_top_lists_every_stem(cli, built):
    every = json.loads(ask(cli, built, "stems", "--limit", "0", "--json").stdout)
    huge = ask(cli, built, "stems", "--limit", str(10**7), "--json")
    assert huge.exit_code == 0 and json.loads(huge.stdout) == every
    absurd = ask(cli, built, "stems", "--limit", str(10**12), "--json")
    assert absurd.exit_code == 2 and "--limit" in absurd.stderr

"""Ingest: reading word lists, normalising, the report, and the words table."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.config import (
    LexiconSpec,
    Source,
    adhoc_lexicon,
    load_config,
)
from pipeline.core.errors import WordstatsError
from pipeline.ingest.normalise import merge_sources, normalise, read_words
from pipeline.ingest.sources import SourceText
from pipeline.ingest.words import word_table
from pipeline.letters.alphabet import LETTERS
from tests.conftest import DEFAULT_CONFIG, corpus

SCRABBLE = load_config(DEFAULT_CONFIG).tiles["scrabble"]


def parse_words(texts: list[SourceText], spec: LexiconSpec) -> tuple[list[str], dict]:
    """The lexicon's distinct words, sorted, and the report of what was dropped and why, as ingest reads them."""
    words, report = merge_sources([read_words(t, spec) for t in texts], spec)
    return words.to_list(), report


def parse_bytes(data: bytes, **rules) -> tuple[list[str], dict]:
    """Parse raw bytes as one ad hoc source with the given rules."""
    spec = LexiconSpec(name="t", sources=(Source(label="t.txt"),), **rules)
    return parse_words([SourceText(spec.sources[0], data)], spec)


def ingest_cli(cli, tmp_path, data: bytes, *extra: str, name: str = "list.txt"):
    """Run the real CLI's ingest on a file holding `data`."""
    path = tmp_path / name
    path.write_bytes(data)
    return cli("run", "ingest", "--source", path, "--lexicon", "t", "--data-dir", tmp_path / "out", *extra)


def test_crlf_bom_comments_and_blank_lines():
    words, report = parse_bytes(b"\xef\xbb\xbfcat\r\ndog\r\n\r\n# a comment\r\n  bird   # trailing comment\r\n")
    assert words == ["BIRD", "CAT", "DOG"]
    assert report["lines_read"] == 5
    assert report["blank_or_comment_lines"] == 2
    assert report["entries"] == report["kept"] == 3


def test_whitespace_separated_and_lf_cr_mix():
    words, report = parse_bytes(b"cat dog\tbird\rfish\n\n")
    assert words == ["BIRD", "CAT", "DOG", "FISH"]
    assert report["lines_read"] == 3  # "cat dog\tbird", "fish", "" (CR alone ends a line too)


def test_latin1_line_is_dropped_and_counted():
    words, report = parse_bytes("café\n".encode("latin-1") + b"dog\nnaive\n")
    assert words == ["DOG", "NAIVE"]
    assert report["dropped"]["undecodable"]["count"] == 1
    assert report["dropped"]["undecodable"]["examples"] == ["caf\\xe9"]


def test_digits_apostrophes_hyphens_are_non_letters():
    words, report = parse_bytes("don't\nx-ray\nabc123\n42\nok\nstraße\n".encode())
    assert words == ["OK"]
    assert report["dropped"]["non_letter"]["count"] == 5
    assert report["dropped"]["non_letter"]["examples"] == ["don't", "x-ray", "abc123", "42", "straße"]


def test_accents_folded_or_dropped():
    folded, _ = parse_bytes("café\nnaïve\nÉCLAIR\n".encode())
    assert folded == ["CAFE", "ECLAIR", "NAIVE"]
    kept, report = parse_bytes("café\nnaïve\nplain\n".encode(), fold_accents=False)
    assert kept == ["PLAIN"]
    assert report["dropped"]["accented"]["count"] == 2


def test_duplicates_and_mixed_case():
    words, report = parse_bytes(b"cat\nCat\nCAT\ncAt\ndog\n")
    assert words == ["CAT", "DOG"]
    assert report["duplicates"] == 3
    kept, report = parse_bytes(b"cat\nParis\nNASA\ndog\n", drop_capitalised=True)
    assert kept == ["CAT", "DOG"]
    assert report["dropped"]["capitalised"] == {"count": 2, "examples": ["Paris", "NASA"]}


def test_length_rules():
    words, report = parse_bytes(b"a\nan\nant\nantelope\n", min_length=2, max_length=3)
    assert words == ["AN", "ANT"]
    assert report["dropped"]["too_short"]["count"] == 1
    assert report["dropped"]["too_long"] == {"count": 1, "examples": ["antelope"]}


@pytest.mark.slow
def test_ten_megabyte_line(cli, tmp_path):
    long_word = b"ab" * 5_000_000
    res = ingest_cli(cli, tmp_path, b"cat\n" + long_word + b"\ndog\n", "--max-length", "20")
    assert res.exit_code == 0, res
    report = json.loads((tmp_path / "out/t/ingest_report.json").read_text())
    assert report["kept"] == 2
    assert report["dropped"]["too_long"]["count"] == 1
    assert report["dropped"]["too_long"]["examples"][0].endswith("(10,000,000 chars)")
    # the same line of many short words separated by spaces: all read, duplicates counted
    words, report = parse_bytes(b"ab " * 3_333_333)
    assert words == ["AB"] and report["duplicates"] == 3_333_332


@pytest.mark.parametrize(
    "data, message",
    [
        (b"cat\x00dog\n", "binary file"),
        (b"", "empty"),
        (b"\n\n# only comments\n", "empty"),
        (b"123\n4-5\n", "no word kept"),
    ],
)
def test_bad_lists_are_one_line_errors_and_touch_nothing(cli, tmp_path, data, message):
    good = ingest_cli(cli, tmp_path, b"cat\n", name="good.txt")
    assert good.exit_code == 0
    before = (tmp_path / "out/t/words.parquet").read_bytes()
    res = ingest_cli(cli, tmp_path, data, "--force")  # another file onto lexicon t: --force
    assert res.exit_code == 2
    assert message in res.stderr and "list.txt" in res.stderr
    assert res.stderr.strip().count("\n") == 0 and "Traceback" not in res.stderr
    assert (tmp_path / "out/t/words.parquet").read_bytes() == before
    assert not list((tmp_path / "out/t").glob(".*.tmp"))


def test_missing_file_and_directory(cli, tmp_path):
    res = cli("run", "ingest", "--source", tmp_path / "nope.txt", "--lexicon", "t", "--data-dir", tmp_path)
    assert res.exit_code == 2 and "nope.txt: word list not found" in res.stderr
    res = cli("run", "ingest", "--source", tmp_path, "--lexicon", "t", "--data-dir", tmp_path / "out")
    assert res.exit_code == 2 and "is a directory" in res.stderr


def test_word_table_columns():
    table = word_table(["CAT", "QUIZ", "AA"], SCRABBLE).sort("word")
    cat = table.row(1, named=True)
    assert cat["word"] == "CAT" and cat["alphagram"] == "ACT" and cat["length"] == 3
    assert cat["letter_mask"] == (1 << 0) | (1 << 2) | (1 << 19)
    assert cat["vowels"] == 1 and cat["distinct_letters"] == 3 and cat["scrabble_value"] == 5
    quiz = table.row(2, named=True)
    assert quiz["scrabble_value"] == 22 and quiz["vowels"] == 2 and quiz["alphagram"] == "IQUZ"
    assert table.row(0, named=True)["distinct_letters"] == 1
    assert table.schema["letter_mask"] == pl.Int64  # as the words table's schema declares it


def test_zipf_matches_wordfreq():
    import random

    import wordfreq

    words = sorted(
        {"THE", "CAT", "AARDVARK", "ZYZZYVA", "QWXZ", "OF", "RHYTHM", "SYZYGY"}
        | set(random.Random(7).sample(sorted(load_words_moby()), 1500))
    )
    table = word_table(words, SCRABBLE)
    for word, zipf in zip(table["word"], table["zipf"]):
        assert zipf == wordfreq.zipf_frequency(word.lower(), "en"), word


def load_words_moby() -> list[str]:
    """The bundled Moby list, upper-cased."""
    return Path(DEFAULT_CONFIG.parent / "../data/raw/moby-words.txt").read_text().upper().split()


def reference_parse(lines: list[str], spec: LexiconSpec) -> tuple[list[str], dict[str, int], int]:
    """Slow reference: split each line, stop at #, normalise each entry, keep first occurrences."""
    kept, dropped, duplicates = [], {}, 0
    for line in lines:
        for token in line.split():
            if token.startswith("#"):
                break
            word, reason = normalise(token, spec)
            if reason:
                dropped[reason] = dropped.get(reason, 0) + 1
            elif word in kept:
                duplicates += 1
            else:
                kept.append(word)
    return sorted(kept), dropped, duplicates


entry = st.text(alphabet=st.sampled_from(list("abcXYZéÉñ-'9 #")), min_size=0, max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(entry, min_size=1, max_size=30),
    fold=st.booleans(),
    caps=st.booleans(),
    lo=st.integers(1, 3),
    span=st.integers(0, 5),
)
def test_vectorised_ingest_matches_reference(lines, fold, caps, lo, span):
    spec = LexiconSpec(
        name="t",
        sources=(Source(label="t"),),
        min_length=lo,
        max_length=lo + span,
        drop_capitalised=caps,
        fold_accents=fold,
    )
    want, dropped, duplicates = reference_parse(lines, spec)
    try:
        words, report = parse_words([SourceText(spec.sources[0], "\n".join(lines).encode())], spec)
    except WordstatsError as exc:  # the fast path refuses exactly the lists that keep nothing
        assert not want, exc
        return
    assert words == want
    assert report["duplicates"] == duplicates
    assert {r: d["count"] for r, d in report["dropped"].items() if d["count"]} == dropped
    assert report["entries"] == report["kept"] + report["duplicates"] + report["dropped_total"]


@pytest.mark.slow
def test_default_lexicons_real_counts(tmp_path, cli):
    res = cli("run", "ingest", "--data-dir", tmp_path, "--config", DEFAULT_CONFIG)
    assert res.exit_code == 0, res
    enable = pl.read_parquet(tmp_path / "enable/words.parquet")
    assert enable.height == 172_820 and {"AA", "ZYZZYVA", "RETAINS"} <= set(enable["word"])
    assert not {"QI", "KI", "ZA"} & set(enable["word"])  # ENABLE predates them
    moby = pl.read_parquet(tmp_path / "moby/words.parquet")
    assert moby.height == 113_809
    assert moby["word"].is_sorted() and moby["word"].str.contains("^[A-Z]+$").all()
    web2 = json.loads((tmp_path / "web2/ingest_report.json").read_text())
    assert web2["entries"] == 235_970 and web2["kept"] == 210_768
    assert web2["dropped"]["capitalised"]["count"] + web2["dropped"]["non_letter"]["count"] == 25_202
    assert web2["dropped"]["non_letter"]["examples"] == ["Jean-Christophe", "Jean-Pierre"]


@pytest.mark.slow
def test_enable_counts(tmp_path, cli):
    path = corpus("enable/enable1.txt")
    res = cli("run", "ingest", "--source", path, "--lexicon", "enable1", "--data-dir", tmp_path)
    assert res.exit_code == 0, res
    report = json.loads((tmp_path / "enable1/ingest_report.json").read_text())
    assert report["kept"] == 172_820 and report["lines_read"] == 172_820 and report["dropped_total"] == 0
    table = pl.read_parquet(tmp_path / "enable1/words.parquet")
    reference = sorted(path.read_text().upper().split())
    assert table["word"].to_list() == reference
    assert (table["alphagram"] == pl.Series(["".join(sorted(w)) for w in reference])).all()
    counts = table.select(pl.col("length").value_counts(sort=True)).unnest("length")
    assert counts.filter(pl.col("length") == 7)["count"].item() == sum(len(w) == 7 for w in reference)


def test_adhoc_spec_keeps_any_length():
    spec = adhoc_lexicon("x", [Path("a.txt")])
    assert spec.min_length == 1 and spec.max_length is None and not spec.drop_capitalised
    assert all(ch in LETTERS for ch in "".join(parse_bytes(b"I\na\nsupercalifragilistic\n")[0]))
    words, _ = parse_words([SourceText(spec.sources[0], b"I\na\nsupercalifragilistic\nMoby\n")], spec)
    assert words == ["A", "I", "MOBY", "SUPERCALIFRAGILISTIC"]  # one letter, long and capitalised all kept

"""Study as word-game players do (Zyzzyva-style): hooks beside words, judging words, flashcard decks."""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path

import polars as pl

from pipeline.words.playability import PLAYABILITY, playability_scan

PROBABILITY = "probability"  # the deck's default order: likeliest alphagram first
DECK_ORDERS = (PROBABILITY, PLAYABILITY)
ORDER_COLUMN = {PROBABILITY: "probability_order", PLAYABILITY: "playability_order"}
INNER = "·"  # Zyzzyva's inner-hook mark: the word stays a word without its first (or last) letter


def with_hooks(store, table: pl.DataFrame, column: str = "word") -> pl.DataFrame:
    """The table with each word's hooks beside it, as Zyzzyva shows them: front hooks, the word with inner-hook
    dots (·WORD·: still a word without its first / last letter), back hooks; then the columns from `column`
    on, and the probability order when the table lacks it (lower-case blanks allowed in `column`)."""
    key = pl.col(column).str.to_uppercase()
    hooks = pl.scan_parquet(store.require("hooks", ["word", "front_hooks", "back_hooks", "front_inner", "back_inner"]))
    words = table.select(key.alias("_key")).unique()
    found = hooks.join(words.lazy(), left_on="word", right_on="_key", how="semi").collect()
    out = table.with_columns(key.alias("_key")).join(
        found.rename({"word": "_key"}), on="_key", how="left", maintain_order="left"
    )
    dotted = pl.concat_str(
        pl.when(pl.col("front_inner")).then(pl.lit(INNER)).otherwise(pl.lit("")),
        pl.col(column),
        pl.when(pl.col("back_inner")).then(pl.lit(INNER)).otherwise(pl.lit("")),
    )
    out = out.with_columns(dotted.alias("hooked"))
    if "probability_order" not in out.columns:
        orders = probability_orders(store, out["_key"].to_list())
        out = out.join(orders, on="_key", how="left", maintain_order="left")
    at = table.columns.index(column)
    before, after = table.columns[:at], table.columns[at + 1 :]
    extra = ["probability_order"] if "probability_order" not in table.columns else []
    return out.select(*before, "front_hooks", "hooked", "back_hooks", column, *after, *extra)


def hook_text(column: str) -> pl.Expr:
    """A column of hook letters (a list) as one string, as a card prints it ("DST"; "" for none)."""
    return pl.col(column).list.join("").fill_null("")


def probability_orders(store, words: list[str]) -> pl.DataFrame:
    """For each word (upper case), the probability order of its alphagram (1 = likeliest of its length)."""
    keys = pl.DataFrame({"_key": words}, schema={"_key": pl.String}).unique()
    keys = keys.with_columns(
        pl.col("_key").str.split("").list.sort().list.join("").alias("alphagram"),
    )
    anagrams = pl.scan_parquet(store.require("anagrams", ["alphagram", "probability_order"]))
    found = anagrams.select("alphagram", "probability_order").join(
        keys.lazy().select("alphagram").unique(), on="alphagram", how="semi"
    )
    return keys.lazy().join(found, on="alphagram", how="left").select("_key", "probability_order").collect()


def judge(store, words: list[str]) -> pl.DataFrame:
    """Each word and whether the lexicon has it (any case; a word with non-letters is invalid)."""
    wanted = [w.strip().upper() for w in words]
    path = store.require("words", ["word"])
    found = set(pl.scan_parquet(path).filter(pl.col("word").is_in(wanted)).select("word").collect()["word"])
    return pl.DataFrame(
        {"word": wanted, "valid": [w in found for w in wanted]}, schema={"word": pl.String, "valid": pl.Boolean}
    )


# ---- decks ----------------------------------------------------------------------------------------


def alphagram_cards(store, length: int, first: int, last: int, order: str = PROBABILITY) -> pl.DataFrame:
    """Alphagrams of `length` letters from first to last in `order` (probability order, or by the summed
    playability of their words, highest first, ties by probability order): the alphagram, its probability
    order, its anagrams with hooks (front hooks, word with inner dots, back hooks), one card each."""
    scan = (
        pl.scan_parquet(store.require("anagrams", ["alphagram", "length", "words", "probability_order"]))
        .filter(pl.col("length") == length)
        .select("alphagram", "probability_order", "words")
    )
    if order == PLAYABILITY:
        scan = by_words_playability(store, scan)
    column = ORDER_COLUMN[order]
    anagrams = (
        scan.filter(pl.col(column).is_between(first, last))
        .sort(column, "alphagram")
        .select("alphagram", "probability_order", "words")
        .collect()
    )
    words = anagrams.explode("words").rename({"words": "word"})
    hooked = with_hooks(store, words.select("word"))
    lines = hooked.select(
        "word",
        pl.concat_str(hook_text("front_hooks"), "hooked", hook_text("back_hooks"), separator=" ")
        .str.strip_chars()
        .alias("line"),
    )
    back = (
        words.join(lines, on="word", how="left", maintain_order="left")
        .group_by("alphagram", maintain_order=True)
        .agg(pl.col("line"))
    )
    return anagrams.join(back, on="alphagram", how="left", maintain_order="left").select(
        "alphagram", "probability_order", "words", pl.col("line").alias("answers")
    )


def by_words_playability(store, anagrams: pl.LazyFrame) -> pl.LazyFrame:
    """The alphagrams with their playability order: 1 = the highest summed playability of their words (ties by
    probability order)."""
    scores = (
        anagrams.select("alphagram", "words")
        .explode("words")
        .join(playability_scan(store, "--order playability"), left_on="words", right_on="word", how="left")
        .group_by("alphagram")
        .agg(pl.col("playability").fill_null(0).sum().round(3).alias("_points"))  # thousandths: exact ties
    )
    ranked = anagrams.join(scores, on="alphagram", how="left").sort(
        ["_points", "probability_order"], descending=[True, False]
    )
    return ranked.with_row_index("playability_order", offset=1).drop("_points")


def hook_cards(store, words: list[str]) -> pl.DataFrame:
    """Hook cards of the words: the word on the front, its front and back hooks on the back."""
    table = with_hooks(store, pl.DataFrame({"word": words}, schema={"word": pl.String}))
    return table.select("word", hook_text("front_hooks"), hook_text("back_hooks"), "hooked").unique(
        "word", maintain_order=True
    )


def cards_csv(alphas: pl.DataFrame, hooks: pl.DataFrame) -> str:
    """Both kinds of cards as CSV (front, back, tags), as Anki's and other tools' text import reads it."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["front", "back", "tags"])
    for row in alphas.iter_rows(named=True):
        writer.writerow([f"{row['alphagram']} (#{row['probability_order']})", "\n".join(row["answers"]), "alphagram"])
    for row in hooks.iter_rows(named=True):
        writer.writerow(
            [row["word"], f"{row['front_hooks'] or '-'} {row['hooked']} {row['back_hooks'] or '-'}", "hooks"]
        )
    return buffer.getvalue()


def _stable_id(text: str) -> int:
    """A stable 31-bit positive id from text (genanki model and deck ids must not change between builds)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF | 1 << 30


def anki_package(alphas: pl.DataFrame, hooks: pl.DataFrame, title: str, path: Path) -> None:
    """Write an Anki deck (.apkg): alphagram cards and hook cards, stable ids so re-imports update cards."""
    import genanki

    model = genanki.Model(
        _stable_id("wordstats alphagram model"),
        "wordstats alphagram",
        fields=[{"name": "Front"}, {"name": "Order"}, {"name": "Back"}],
        templates=[
            {
                "name": "Card",
                "qfmt": '<div class="q">{{Front}}</div><div class="o">{{Order}}</div>',
                "afmt": '{{FrontSide}}<hr id="answer"><div class="a">{{Back}}</div>',
            }
        ],
        css=".card{font-family:monospace;font-size:28px;text-align:center}.o{font-size:14px;color:#777}"
        ".a{font-size:24px;line-height:1.5}",
    )
    deck = genanki.Deck(_stable_id(f"wordstats deck {title}"), title)
    for row in alphas.iter_rows(named=True):
        back = "<br>".join(row["answers"])
        note = genanki.Note(
            model=model,
            fields=[row["alphagram"], f"probability order {row['probability_order']}", back],
            guid=genanki.guid_for("alphagram", title, row["alphagram"]),
            tags=["alphagram"],
        )
        deck.add_note(note)
    for row in hooks.iter_rows(named=True):
        back = f"{row['front_hooks'] or '-'} {row['hooked']} {row['back_hooks'] or '-'}"
        deck.add_note(
            genanki.Note(
                model=model,
                fields=[row["word"], "hooks?", back],
                guid=genanki.guid_for("hooks", title, row["word"]),
                tags=["hooks"],
            )
        )
    import tempfile
    import zipfile

    from pipeline.core.files import write_bytes

    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch) / "deck.apkg"
        genanki.Package(deck).write_to_file(str(raw), timestamp=0)
        buffer = io.BytesIO()
        with zipfile.ZipFile(raw) as src, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as dst:
            for name in sorted(src.namelist()):  # fixed entry times: the same cards give the same bytes
                dst.writestr(zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0)), src.read(name))
    write_bytes(path, buffer.getvalue())

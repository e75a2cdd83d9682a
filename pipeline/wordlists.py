"""Teacher word lists: filters that combine, presets, the block list, and CSV / Markdown / HTML / PDF sheets."""

from __future__ import annotations

import hashlib
import html
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import polars as pl

from pipeline.config import PROJECT_ROOT, Config, Section, parse_toml, upper_ascii
from pipeline.errors import NotFound, WordstatsError
from pipeline.tables import MAX_ROWS, Store, write_bytes, write_text

SETTINGS_FILE = PROJECT_ROOT / "configs" / "wordlists.toml"
BANDS = ("easy", "medium", "hard")
SORTS = ("alpha", "frequency", "difficulty")
PAPERS = ("A4", "Letter")
# Preset fields and their types; each is also a command-line option (min_zipf → --min-zipf).
FIELDS: dict[str, type] = {
    "title": str, "length": str, "common": bool, "min_zipf": float, "top_frequent": int,
    "contains": str, "starts_with": str, "ends_with": str, "pattern": str, "hangman": str,
    "boggle_findable": bool, "min_find_rate": float, "count": int, "seed": int, "sort": str, "blanks": bool,
}
# On/off options given as bare flags (--common): absent means "as the preset says".
FLAGS = ("common", "boggle_findable")
# Options that replace each other: giving one on the command line drops the others from the preset.
GROUPS = ({"common", "min_zipf"},)


def flag(name: str) -> str:
    """The command-line option of field `name` (min_zipf → --min-zipf)."""
    return "--" + name.replace("_", "-")


# ---- settings: presets and the block list ---------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """The word-list settings file: defaults, presets and the block-list policy."""

    path: Path
    common_zipf: float
    min_find_rate: float
    boggle_dice: str
    paper: str
    presets: dict[str, dict[str, Any]]
    blocklist: Path
    blocklist_sha256: str | None
    allow: tuple[str, ...]
    add: tuple[str, ...]


def load_settings(config: Config) -> Settings:
    """The settings file named by the config's [wordlists] file (default: configs/wordlists.toml)."""
    sec = config.section("wordlists")
    sec.allow("file")
    path = config.path.parent / sec.str("file") if sec.has("file") else SETTINGS_FILE
    if not path.is_file():
        raise WordstatsError(f"{path}: word-list settings file not found (field wordlists.file of {config.path})")
    top = Section(parse_toml(path.read_bytes(), path, "word-list settings file"), "", path)
    top.allow("common_zipf", "min_find_rate", "boggle_dice", "paper", "presets", "blocklist")
    block = top.section("blocklist")
    block.allow("file", "sha256", "allow", "add")
    presets = {name: _preset(sec) for name, sec in top.sections("presets").items()}
    return Settings(
        path=path,
        common_zipf=top.float("common_zipf", 3.0, lo=0, hi=8),
        min_find_rate=top.float("min_find_rate", 0.01, lo=0, hi=1),
        boggle_dice=top.str("boggle_dice", "new"),
        paper=top.str("paper", "A4", choices=PAPERS),
        presets=presets,
        blocklist=path.parent / block.str("file"),
        blocklist_sha256=block.str("sha256", None, pattern=r"[0-9a-f]{64}"),
        allow=tuple(w.upper() for w in block.list("allow", [])),
        add=tuple(w.upper() for w in block.list("add", [])),
    )


def _preset(sec: Section) -> dict[str, Any]:
    """One preset's fields, type-checked and each value validated as the command line would."""
    sec.allow(*FIELDS)
    out: dict[str, Any] = {}
    for key in sec.keys():
        kind = FIELDS[key]
        value = {str: sec.str, bool: sec.bool, int: sec.int, float: sec.float}[kind](key)
        try:
            check_option(key, value)
        except WordstatsError as exc:
            sec.fail(key, str(exc))
        out[key] = value
    return out


def blocked_words(settings: Settings) -> frozenset[str]:
    """The upper-case words the block list keeps out: its entries, our additions, and their plurals."""
    path = settings.blocklist
    if not path.is_file():
        raise WordstatsError(f"{path}: block list not found (field blocklist.file of {settings.path})")
    data = path.read_bytes()
    if settings.blocklist_sha256 and hashlib.sha256(data).hexdigest() != settings.blocklist_sha256:
        raise WordstatsError(f"{path}: sha256 differs from field blocklist.sha256 of {settings.path}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: block list is not UTF-8 text (field blocklist.file of {settings.path})") from None
    listed = set()
    for line in text.splitlines():
        entry = re.sub(r"[\s\-]", "", line).upper()  # phrases joined: "god damn" → GODDAMN
        if entry and entry.isascii() and entry.isalpha():
            listed.add(entry)
    for word in settings.allow:
        if word not in listed:
            raise WordstatsError(f"{settings.path}: field blocklist.allow: {word.lower()!r} is not on the block list")
    base = (listed - set(settings.allow)) | set(settings.add)
    return frozenset(base | {plural(w) for w in base})


def plural(word: str) -> str:
    """The regular English plural: +ES after S, X, Z, CH, SH, else +S."""
    return word + ("ES" if word.endswith(("S", "X", "Z", "CH", "SH")) else "S")


# ---- options ---------------------------------------------------------------------------------------

def parse_length(text: str) -> tuple[int, int]:
    """A length option, "5" or "4-6", as (shortest, longest)."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", str(text))
    if not match:
        raise WordstatsError(f"--length {text!r}: give a number of letters (5) or a range (4-6)")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    if lo < 1:
        raise WordstatsError(f"--length {text!r}: a word has at least 1 letter")
    if lo > hi:
        raise WordstatsError(f"--length {text}: the range is backwards (the shorter length comes first: {hi}-{lo})")
    return lo, hi


def letters(text: str, option: str) -> str:
    """Upper-case letters of an option such as --contains, or an error naming the bad character."""
    word = upper_ascii(text.strip())
    if not word:
        raise WordstatsError(f"{option}: give at least one letter")
    for ch in word:
        if not ("A" <= ch <= "Z"):
            raise WordstatsError(f"{option} {text!r}: letters only (bad character {ch!r})")
    return word


def pattern_for_list(pattern: str) -> str:
    """The anchored regex of a word-list pattern (the pattern query's syntax; it must name a letter)."""
    from pipeline.queries import pattern_regex

    regex = pattern_regex(pattern)
    if not re.search(r"[A-Za-z]", pattern):
        raise WordstatsError(
            f"--pattern {pattern!r} has no letters: a word-list pattern needs at least one letter "
            f"(*IGHT, ?A?E); for a word length use --length"
        )
    return regex


def check_option(name: str, value: Any) -> None:
    """Raise a one-line error when an option's value is out of range."""
    if name == "length":
        parse_length(value)
    elif name in ("contains", "starts_with", "ends_with"):
        letters(value, flag(name))
    elif name == "pattern":
        pattern_for_list(value)
    elif name == "hangman" and value not in BANDS:
        raise WordstatsError(f"--hangman {value!r}: choose easy, medium or hard")
    elif name == "sort" and value not in SORTS:
        raise WordstatsError(f"--sort {value!r}: choose alpha, frequency or difficulty")
    elif name in ("count", "top_frequent") and value < 1:
        raise WordstatsError(f"{flag(name)} {value}: must be at least 1")
    elif name == "min_zipf" and not 0 <= value <= 8:
        raise WordstatsError(f"--min-zipf {value}: Zipf frequencies run from 0 to 8")
    elif name == "min_find_rate" and not 0 <= value <= 1:
        raise WordstatsError(f"--min-find-rate {value}: a find rate is between 0 and 1")


def merge(settings: Settings, preset: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The options in force: the preset's, replaced by those given on the command line."""
    options: dict[str, Any] = {}
    if preset is not None:
        if preset not in settings.presets:
            known = ", ".join(settings.presets) or "none"
            raise WordstatsError(f"unknown preset {preset!r} (presets in {settings.path}: {known})")
        options = dict(settings.presets[preset])
    # None is "not given"; so is an unset flag (False), which must not undo the preset's.
    given = {k: v for k, v in given.items() if v is not None and not (k in FLAGS and v is False)}
    for key in given:
        if key not in FIELDS:
            raise WordstatsError(f"unknown word-list option {key!r}")
        for group in GROUPS:
            if key in group:
                for other in group:
                    options.pop(other, None)
    if given.get("common") and "min_zipf" in given:
        raise WordstatsError("give --common or --min-zipf, not both")
    for key, value in given.items():
        check_option(key, value)
    options.update(given)
    return options


# ---- selecting words -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One filter: the option that adds it, what it does in plain words, and the polars step."""

    option: str
    words: str
    apply: Callable[[pl.LazyFrame], pl.LazyFrame]
    loosen: bool = True  # may the empty-result hint suggest loosening it?


@dataclass
class WordList:
    """A finished list: its title, the filters in plain words, the words, and how to print it."""

    title: str
    lexicon: str
    filters: list[str]
    table: pl.DataFrame
    blanks: bool = False
    hangman: bool = False
    note: str | None = None
    paper: str = "A4"

    @property
    def words(self) -> list[str]:
        """The words, in order."""
        return self.table["word"].to_list()


COLUMNS = {"words": ["word", "length", "zipf"], "hangman": ["word", "band", "misses", "guesses"],
           "boggle_words": ["word", "find_rate"]}  # what the filters read of each table


def need_table(store: Store, table: str, option: str) -> pl.LazyFrame:
    """Scan a table a filter needs, or a one-line error naming it and how to build it."""
    if not store.exists(table):
        from pipeline.stages import producer

        raise WordstatsError(
            f"{option} needs {table}.parquet, which is not built for lexicon {store.lexicon!r}: "
            f"run `wordstats run {producer(table).name} --lexicon {store.lexicon}` (or `make all`)"
        )
    return store.scan(table, COLUMNS.get(table, ()))


def per_million(zipf: float) -> str:
    """A Zipf frequency in plain words: how often per million words of English."""
    n = 10 ** (zipf - 3)
    if round(n, 1) == 1:
        return "at least once per million words"
    times = f"{n:,.0f}" if n >= 10 else f"{n:.1f}".removesuffix(".0") if n >= 1 else f"{n:.2g}"
    return f"at least {times} times per million words"


def steps(store: Store, settings: Settings, options: dict[str, Any], allow_all: bool) -> list[Step]:
    """The filters of `options`, in the order they are applied."""
    out: list[Step] = []
    if not allow_all:
        blocked = sorted(blocked_words(settings))
        out.append(Step("--allow-all", "offensive and adult words left out",
                        lambda lf: lf.filter(~pl.col("word").is_in(blocked)), loosen=False))
    if "top_frequent" in options:
        n = options["top_frequent"]
        top = (store.scan("words", COLUMNS["words"]).filter(pl.col("zipf") > 0).sort(["zipf", "word"], descending=[True, False])
               .head(min(n, MAX_ROWS)).select("word").collect()["word"].to_list())
        out.append(Step("--top-frequent", f"among the {n:,} most frequent words of the word list",
                        lambda lf: lf.filter(pl.col("word").is_in(top))))
    if "length" in options:
        lo, hi = parse_length(options["length"])
        words = f"{lo} letters" if lo == hi else f"{lo} to {hi} letters"
        out.append(Step("--length", words, lambda lf: lf.filter(pl.col("length").is_between(lo, hi))))
    if options.get("common") or "min_zipf" in options:
        z = options["min_zipf"] if "min_zipf" in options else settings.common_zipf
        option = "--min-zipf" if "min_zipf" in options else "--common"
        label = "common words: used" if option == "--common" else "used"
        out.append(Step(option, f"{label} {per_million(z)} (Zipf {z:g} or more)",
                        lambda lf: lf.filter(pl.col("zipf") >= z)))
    for name, how, fn in (("starts_with", "starting with", "starts_with"), ("ends_with", "ending with", "ends_with"),
                          ("contains", "containing", "contains")):
        if name in options:
            part = letters(options[name], flag(name))
            expr = (getattr(pl.col("word").str, fn)(part, literal=True) if fn == "contains"
                    else getattr(pl.col("word").str, fn)(part))
            out.append(Step(flag(name), f"{how} {part.lower()}", lambda lf, e=expr: lf.filter(e)))
    if "pattern" in options:
        regex = pattern_for_list(options["pattern"])
        out.append(Step("--pattern", f"matching the pattern {options['pattern'].strip().upper()} "
                                     "(? one letter, * any letters)",
                        lambda lf: lf.filter(pl.col("word").str.contains(regex))))
    if "hangman" in options:
        band = options["hangman"]
        table = need_table(store, "hangman", "--hangman").select("word", "band", "misses", "guesses")
        out.append(Step("--hangman", f"Hangman difficulty {band} (how a good guesser fares, within each length)",
                        lambda lf: lf.join(table, on="word", how="inner").filter(pl.col("band") == band)))
    if options.get("boggle_findable"):
        rate = options.get("min_find_rate", settings.min_find_rate)
        table = boggle_rates(need_table(store, "boggle_words", "--boggle-findable"), settings.boggle_dice)
        out.append(Step("--boggle-findable", f"found on at least {rate:.2%} of random Boggle boards".replace(".00%", "%"),
                        lambda lf: lf.join(table, on="word", how="inner").filter(pl.col("find_rate") >= rate)))
    return out


def boggle_rates(words: pl.LazyFrame, dice: str) -> pl.LazyFrame:
    """Each word's Boggle find rate (for `dice` when the table has a rate per dice set)."""
    names = words.collect_schema().names()
    if "dice" in names:
        has = words.filter(pl.col("dice") == dice).select(pl.len()).collect().item() > 0
        if has:
            words = words.filter(pl.col("dice") == dice)
        return words.group_by("word").agg(pl.col("find_rate").max())
    return words.select("word", "find_rate")


def apply(lf: pl.LazyFrame, chosen: list[Step]) -> pl.LazyFrame:
    """The words left after every step."""
    for step in chosen:
        lf = step.apply(lf)
    return lf


def loosen_hint(base: pl.LazyFrame, chosen: list[Step]) -> str:
    """Which single filter to loosen so that some words match, in one sentence."""
    best = None
    for i, step in enumerate(chosen):
        if not step.loosen:
            continue
        n = apply(base, chosen[:i] + chosen[i + 1:]).select(pl.len()).collect().item()
        if n and (best is None or n > best[1]):
            best = (step, n)
    if best is None:
        loosenable = [s.option for s in chosen if s.loosen]
        if not loosenable:
            return "the word list has no words that pass the block list"
        return f"no single filter is to blame: loosen several of {', '.join(dict.fromkeys(loosenable))}"
    step, n = best
    return f"loosen {step.option} ({step.words}): without it {n:,} words match"


def word_list(store: Store, config: Config, preset: str | None = None, given: dict[str, Any] | None = None,
              allow_all: bool = False, upper: bool = False) -> WordList:
    """Select a teacher's word list from the lexicon's tables."""
    settings = load_settings(config)
    options = merge(settings, preset, given or {})
    base = store.scan("words", COLUMNS["words"]).select("word", "length", "zipf")
    chosen = steps(store, settings, options, allow_all)
    sort = options.get("sort", "alpha")
    lf = apply(base, chosen)
    if sort == "difficulty" and "hangman" not in options:
        hang = need_table(store, "hangman", "--sort difficulty").select("word", "misses", "guesses")
        lf = lf.join(hang, on="word", how="left")
    df = lf.sort("word").collect()
    described = [s.words for s in chosen if s.option != "--allow-all"]
    described.append("offensive and adult words left out" if not allow_all else "no words left out (--allow-all)")
    if df.height == 0:
        raise NotFound(f"no words match: {'; '.join(described)}. To get some, {loosen_hint(base, chosen)}")
    note = None
    if "count" in options:
        k, seed = options["count"], options.get("seed", 0)
        if k < df.height:
            picked = sorted(random.Random(seed).sample(range(df.height), k))
            df = df[picked]
        else:
            note = f"only {df.height:,} words match, fewer than --count {k}: all are listed"
        described.append(f"{min(k, df.height):,} words picked at random (seed {seed})")
    df = sort_words(df, sort)
    described.append({"alpha": "in alphabetical order", "frequency": "most common first",
                      "difficulty": "easiest Hangman words first"}[sort])
    df = df.with_columns(pl.col("zipf").round(2))
    if not upper:
        df = df.with_columns(pl.col("word").str.to_lowercase())
    lexicon_note = f"from the {store.lexicon} word list"
    return WordList(
        title=options.get("title") or "Word list",
        lexicon=store.lexicon,
        filters=[lexicon_note] + described,
        table=df,
        blanks=bool(options.get("blanks", False)),
        hangman="hangman" in options,
        note=note,
        paper=settings.paper,
    )


def sort_words(df: pl.DataFrame, sort: str) -> pl.DataFrame:
    """Words in the chosen order, ties by word."""
    if sort == "frequency":
        return df.sort(["zipf", "word"], descending=[True, False])
    if sort == "difficulty":
        return df.sort(["misses", "guesses", "word"], nulls_last=True)
    return df.sort("word")


def presets_table(config: Config) -> pl.DataFrame:
    """One row per preset: its name, title and filters as command-line options."""
    settings = load_settings(config)
    rows = []
    for name, fields in settings.presets.items():
        opts = []
        for key, value in fields.items():
            if key == "title":
                continue
            if isinstance(value, bool):
                if value:
                    opts.append(flag(key))
            else:
                opts.append(f"{flag(key)} {value}")
        rows.append({"preset": name, "title": fields.get("title", ""), "options": " ".join(opts)})
    return pl.DataFrame(rows, schema={"preset": pl.String, "title": pl.String, "options": pl.String})


# ---- sheets: CSV, Markdown, HTML, PDF ----------------------------------------------------------------

def save(wl: WordList, path: Path) -> None:
    """Write the list to `path`; the extension picks the format (.csv, .md, .html, .pdf)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        write_text(path, wl.table.write_csv())
    elif suffix == ".md":
        write_text(path, to_markdown(wl))
    elif suffix in (".html", ".htm"):
        write_text(path, to_html(wl))
    elif suffix == ".pdf":
        write_bytes(path, to_pdf(wl))
    else:
        raise WordstatsError(f"{path}: unknown output format {suffix or '(none)'!r} (use .csv, .md, .html or .pdf)")


def blank(word: str) -> str:
    """The Hangman board of a word: one underscore per letter."""
    return " ".join("_" * len(word))


def to_markdown(wl: WordList, columns: int = 4) -> str:
    """The list as Markdown: title, filters, the words in columns, then the test or answer-key page."""
    out = [f"# {wl.title}", ""] + [f"- {f}" for f in wl.filters] + [""]
    words = wl.words
    if wl.hangman:
        out += ["## Puzzles", ""] + [f"{i}. `{blank(w)}` ({len(w)} letters)" for i, w in enumerate(words, 1)]
        out += ["", "## Answer key", ""]
    rows = -(-len(words) // columns)
    cells = [f"{i + 1}. {w}" for i, w in enumerate(words)]
    grid = [[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(columns)] for r in range(rows)]
    out += ["| " + " | ".join([" "] * columns) + " |", "|" + "---|" * columns]
    out += ["| " + " | ".join(row) + " |" for row in grid]
    if wl.blanks:
        out += ["", "## Spelling test", "", "Name: ____________________", ""]
        out += [f"{i}. ______________________" for i in range(1, len(words) + 1)]
    return "\n".join(out) + "\n"


HTML_STYLE = """
body { font-family: "Helvetica", "Arial", sans-serif; margin: 2em; color: #111; }
h1 { font-size: 28pt; margin-bottom: 0.2em; }
ul.filters { font-size: 12pt; color: #444; margin-top: 0; }
ol.words { columns: 4 11em; font-size: 24pt; line-height: 1.7; padding-left: 1.6em; }
ol.puzzles { font-size: 22pt; line-height: 2.2; font-family: "Courier New", monospace; }
ol.puzzles small { font-family: "Helvetica", sans-serif; font-size: 11pt; color: #555; }
ol.lines { columns: 2; font-size: 16pt; line-height: 2.6; }
ol.lines li::after { content: ""; display: inline-block; width: 12em; border-bottom: 1px solid #000; }
.page { break-before: page; page-break-before: always; }
@page { margin: 15mm; }
"""


def to_html(wl: WordList) -> str:
    """The list as one print-ready HTML page (large type, columns, page breaks before test and key)."""
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{e(wl.title)}</title>",
             f"<style>{HTML_STYLE}</style></head><body>", f"<h1>{e(wl.title)}</h1>", '<ul class="filters">']
    parts += [f"<li>{e(f)}</li>" for f in wl.filters] + ["</ul>"]
    words = wl.words
    if wl.hangman:
        parts.append('<ol class="puzzles">')
        parts += [f"<li>{e(blank(w))} <small>({len(w)} letters)</small></li>" for w in words]
        parts += ["</ol>", f'<section class="page"><h1>Answer key: {e(wl.title)}</h1>']
    parts.append('<ol class="words">' + "".join(f"<li>{e(w)}</li>" for w in words) + "</ol>")
    if wl.hangman:
        parts.append("</section>")
    if wl.blanks:
        parts += ['<section class="page"><h1>Spelling test</h1>', "<p>Name: ______________________</p>",
                  '<ol class="lines">' + "<li></li>" * len(words) + "</ol></section>"]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _latin1(text: str) -> str:
    """Text the PDF core fonts can print (characters outside Latin-1 become '?')."""
    return text.encode("latin-1", "replace").decode("latin-1")


def to_pdf(wl: WordList) -> bytes:
    """The list as a printable PDF: title, filters, words in columns in large type, test and key pages."""
    from fpdf import FPDF

    pdf = FPDF(format=wl.paper)
    pdf.set_title(_latin1(wl.title))
    pdf.set_creator("wordstats")
    pdf.set_auto_page_break(False)
    words = wl.words
    if wl.hangman:
        _pdf_header(pdf, wl.title, wl.filters)
        _pdf_puzzles(pdf, words)
        _pdf_header(pdf, f"Answer key: {wl.title}", [])
        _pdf_columns(pdf, words, wl.title)
    else:
        _pdf_header(pdf, wl.title, wl.filters)
        _pdf_columns(pdf, words, wl.title)
    if wl.blanks:
        _pdf_header(pdf, "Spelling test", [])
        _pdf_lines(pdf, len(words))
    return bytes(pdf.output())


def _pdf_header(pdf, title: str, filters: list[str]) -> None:
    """Start a page with a large title and the filters in plain words."""
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 24)
    pdf.multi_cell(0, 11, _latin1(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.set_text_color(80, 80, 80)
    for f in filters:
        pdf.multi_cell(0, 5.5, _latin1(f"- {f}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.ln(6)


def _pdf_columns(pdf, words: list[str], title: str, size: int = 22, row: float = 12.0) -> None:
    """Numbered words in columns, filled down then across, continuing on new pages."""
    pdf.set_font("Helvetica", "", size)
    number_w = 12.0
    widest = max(pdf.get_string_width(w) for w in words) + number_w + 8
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    ncols = max(1, min(4, int(usable // widest)))
    col_w = usable / ncols
    i = 0
    while i < len(words):
        top = pdf.get_y()
        nrows = max(1, int((pdf.h - pdf.b_margin - top) // row))
        chunk = words[i:i + nrows * ncols]
        per_col = -(-len(chunk) // ncols)
        for j, word in enumerate(chunk):
            x = pdf.l_margin + (j // per_col) * col_w
            y = top + (j % per_col) * row
            pdf.set_xy(x, y)
            pdf.set_font("Helvetica", "", 12)
            pdf.set_text_color(110, 110, 110)
            pdf.cell(number_w, row, f"{i + j + 1}.", align="R")
            pdf.set_font("Helvetica", "", size)
            pdf.set_text_color(0, 0, 0)
            pdf.cell(col_w - number_w, row, f" {_latin1(word)}")
        i += len(chunk)
        if i < len(words):
            _pdf_header(pdf, f"{title} (continued)", [])
            pdf.set_font("Helvetica", "", size)


def _pdf_puzzles(pdf, words: list[str], row: float = 13.0) -> None:
    """One Hangman board per line: the blanks and the number of letters."""
    pdf.set_font("Courier", "B", 22)
    board_w = max(pdf.get_string_width(blank(w)) for w in words) + 12
    for i, word in enumerate(words, 1):
        if pdf.get_y() + row > pdf.h - pdf.b_margin:
            _pdf_header(pdf, "Hangman (continued)", [])
        pdf.set_font("Helvetica", "", 12)
        pdf.cell(12, row, f"{i}.", align="R")
        pdf.set_font("Courier", "B", 22)
        pdf.cell(board_w, row, " " + blank(word))
        pdf.set_font("Helvetica", "", 11)
        pdf.cell(0, row, f"({len(word)} letters)", new_x="LMARGIN", new_y="NEXT")


def _pdf_lines(pdf, n: int, row: float = 14.0) -> None:
    """A name line and n numbered blank lines for a spelling test, in two columns."""
    pdf.set_font("Helvetica", "", 14)
    pdf.cell(0, 10, "Name: ______________________________", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    col_w = usable / 2
    i = 0
    while i < n:
        top = pdf.get_y()
        nrows = max(1, int((pdf.h - pdf.b_margin - top) // row))
        chunk = min(n - i, nrows * 2)
        per_col = -(-chunk // 2)
        for j in range(chunk):
            x = pdf.l_margin + (j // per_col) * col_w
            y = top + (j % per_col) * row
            pdf.set_xy(x, y)
            pdf.cell(12, row, f"{i + j + 1}.", align="R")
            pdf.line(x + 14, y + row - 3, x + col_w - 8, y + row - 3)
        i += chunk
        if i < n:
            _pdf_header(pdf, "Spelling test (continued)", [])
            pdf.set_font("Helvetica", "", 14)

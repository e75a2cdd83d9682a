"""Teacher word lists: filters against a slow reference, the block list, presets, errors and printable output."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.errors import NotFound, WordstatsError
from pipeline.core.store import Store
from pipeline.wordlists.choices import Choices
from pipeline.wordlists.select import presets_table, word_list
from pipeline.words.classroom import blocked_words, excluded_words, exclusions, load_classroom
from pipeline.words.safety import Exclusions
from tests.conftest import ROOT, SMALL_CONFIG, build_lexicon, config_with, run_cli, sample_words

MOBY = ROOT / "data" / "raw" / "moby-words.txt"
ORDINARY = (
    "class",
    "assist",
    "butter",
    "spicy",
    "spices",
    "titer",
    "titter",
    "bass",
    "grass",
    "scatter",
    "cocoon",
    "shaggy",
    "wristwatch",
    "saltwater",
    "snigger",
)
TOPICS = ("kill", "drunk", "cocktail", "gun", "drug", "beer", "wine", "bomb", "hell", "dumb", "fat", "hate", "naked")
OFFENSIVE = (
    "fuck",
    "fucks",
    "shit",
    "shits",
    "whore",
    "cunts",
    "goddamn",
    "nigger",
    "bitch",
    "bitches",
    "ass",
    "asses",
    "sex",
    "sexes",
    "dyke",
    "raped",
    "retarded",
    "homo",
    "horny",
    "erection",
    "prick",
    "shag",
    "stripper",
    "condom",
    "bugger",
    "bloody",
    "slutty",
    "motherfucking",
)


def call(*args) -> tuple[int, str, str]:
    """The real CLI in-process: (exit code, stdout, stderr)."""
    res = run_cli(*args)
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture(scope="module")
def lex(tmp_path_factory):
    """A third of the Moby list plus known ordinary and offensive words, with Hangman and Boggle tables (without
    the optimal search's columns, which no word list reads: most of the Hangman stage's time)."""
    root = tmp_path_factory.mktemp("wordlists")
    return build_lexicon(
        root / "out",
        sample_words(MOBY, 3, ORDINARY + OFFENSIVE + TOPICS),
        "hangman",
        "boggle",
        config=config_with(root, "optimal_states = 200", "optimal_states = 0"),
    )


@pytest.fixture(scope="module")
def store(lex):
    """The test lexicon's tables."""
    return Store(lex, "t")


@pytest.fixture(scope="module")
def config():
    """The small test config."""
    return load_config(SMALL_CONFIG)


@pytest.fixture(scope="module")
def rows(store):
    """(word, length, zipf) for every word of the test lexicon."""
    return store.read("words", ["word", "length", "zipf"]).rows()


def wl(lex, *args):
    """Run `wordstats wordlist` on the test lexicon; returns (exit code, stdout, stderr)."""
    return call("wordlist", *args, "--lexicon", "t", "--data-dir", lex, "--config", SMALL_CONFIG)


def listed(lex, *args) -> list[str]:
    """The words `wordstats wordlist ARGS --json` prints, in order."""
    code, out, err = wl(lex, *args, "--json")
    assert code == 0, err
    return [r["word"] for r in json.loads(out)]


# ---- a slow, obviously correct reference -----------------------------------------------------------


def reference_regex(pattern: str) -> str:
    """The pattern syntax spelled out: ? one letter, * any letters, [..] a class as written."""
    out, i, p = "", 0, pattern.upper()
    while i < len(p):
        if p[i] == "[":
            j = p.index("]", i)
            out += p[i : j + 1]
            i = j + 1
            continue
        out += {"?": "[A-Z]", "*": "[A-Z]*"}.get(p[i], p[i])
        i += 1
    return out


def reference(rows, opts: dict, blocked: Exclusions, allow_all: bool) -> list[str]:
    """Each word checked against each filter in plain Python."""
    top = None
    if "top_frequent" in opts:
        ranked = sorted((r for r in rows if r[2] > 0), key=lambda r: (-r[2], r[0]))
        top = {r[0] for r in ranked[: opts["top_frequent"]]}
    out = []
    for word, length, zipf in rows:
        if not allow_all and blocked.excluded(word):
            continue
        if "length" in opts:
            lo, hi = map(int, opts["length"].split("-"))
            if not lo <= length <= hi:
                continue
        if opts.get("common") and zipf < 3.0:
            continue
        if "min_zipf" in opts and zipf < opts["min_zipf"]:
            continue
        if top is not None and word not in top:
            continue
        if "contains" in opts and opts["contains"] not in word:
            continue
        if "starts_with" in opts and not word.startswith(opts["starts_with"]):
            continue
        if "ends_with" in opts and not word.endswith(opts["ends_with"]):
            continue
        if "pattern" in opts and not re.fullmatch(reference_regex(opts["pattern"]), word):
            continue
        out.append(word)
    return sorted(out)


filters = st.fixed_dictionaries(
    {},
    optional={
        "length": st.tuples(st.integers(1, 12), st.integers(0, 4)).map(lambda t: f"{t[0]}-{t[0] + t[1]}"),
        "min_zipf": st.sampled_from([0.0, 1.5, 3.0, 4.2]),
        "top_frequent": st.sampled_from([50, 800, 6000]),
        "contains": st.sampled_from(["A", "IGH", "QU", "ST", "SS"]),
        "starts_with": st.sampled_from(["S", "TH", "UN", "C", "GOD"]),
        "ends_with": st.sampled_from(["S", "ING", "Y", "ED", "K"]),
        "pattern": st.sampled_from(["*IGHT", "?A?E", "[BC]AT*", "*[^AEIOU]Y", "S*S", "*Q[^U]*", "??CK"]),
    },
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(opts=filters, allow_all=st.booleans())
def test_filters_match_slow_reference(store, config, rows, opts, allow_all):
    blocked = exclusions(load_classroom(config))
    expected = reference(rows, opts, blocked, allow_all)
    try:
        got = word_list(store, config, None, Choices.of(opts), allow_all=allow_all, upper=True).words
    except NotFound:
        got = []
    assert got == expected


@pytest.mark.slow
def test_common_flag_is_zipf_3(store, config, rows):
    got = word_list(store, config, None, Choices.of({"common": True, "length": "5-5"}), upper=True).words
    assert got == reference(rows, {"common": True, "length": "5-5"}, exclusions(load_classroom(config)), False)
    assert got


@pytest.mark.slow
def test_top_frequent_beyond_polars_head_limit(store, config, rows):
    opts = {"top_frequent": 10**12, "length": "4-4"}  # more than head() takes: every word with a frequency
    got = word_list(store, config, None, Choices.of(opts), upper=True).words
    assert got == reference(rows, opts, exclusions(load_classroom(config)), False) and got


# ---- the block list ---------------------------------------------------------------------------------


def test_block_list_blocks_slurs_and_vulgarity_not_ordinary_words(config):
    blocked = blocked_words(load_classroom(config))
    for word in OFFENSIVE:
        assert word.upper() in blocked or exclusions(load_classroom(config)).reason(word) == "offensive", word
    for word in ORDINARY:
        assert word.upper() not in blocked, word
    assert "GOD" not in blocked and "KILL" not in blocked and "DRUNK" not in blocked  # topics, not offensive
    everything = exclusions(load_classroom(config))
    for word in TOPICS:
        assert word.upper() in excluded_words(load_classroom(config)) and everything.reason(word) not in (None,), word
    for word in ORDINARY:
        assert not everything.excluded(word), word


@pytest.mark.slow
def test_blocked_words_never_listed_by_default_and_listed_with_allow_all(lex):
    default = set(listed(lex, "--length", "2-15"))
    everything = set(listed(lex, "--length", "2-15", "--allow-all"))
    for word in OFFENSIVE:
        assert word not in default, word
        assert word in everything, word
    for word in ("class", "butter", "spicy"):
        assert word in default, word
    for word in ("kill", "drunk", "cocktail", "god"):
        assert word not in default and word in everything, word


def test_block_list_file_is_ldnoobw_verbatim(config):
    s = load_classroom(config)
    assert s.blocklist.name == "ldnoobw-en.lst"
    text = s.blocklist.read_text()
    assert "rosy palm and her 5 sisters" in text and "god damn" in text  # phrases kept as published
    assert re.search(r"^god$|^kill$|^drunk$", text, re.M) is None


def settings_file(tmp_path: Path, body: str) -> Path:
    """A config whose [wordlists] file is a settings file with `body` (and the real block list)."""
    lst = ROOT / "data" / "raw" / "ldnoobw-en.lst"
    (tmp_path / "wl.toml").write_text(f'[blocklist]\nfile = "{lst}"\n' + body)
    cfg = SMALL_CONFIG.read_text().replace('"../../', f'"{ROOT}/') + '\n[wordlists]\nfile = "wl.toml"\n'
    (tmp_path / "c.toml").write_text(cfg)
    return tmp_path / "c.toml"


def test_allow_entry_must_be_on_the_list(tmp_path, lex):
    cfg = settings_file(tmp_path, 'allow = ["kitten"]\n')
    code, _, err = call("wordlist", "--lexicon", "t", "--data-dir", lex, "--config", cfg)
    assert code == 2 and "'kitten' is not on the block list" in err and len(err.strip().splitlines()) == 1


def test_block_list_not_utf8_is_one_line(tmp_path, lex):
    cfg = settings_file(tmp_path, "")
    binary = tmp_path / "list.bin"
    binary.write_bytes(bytes(range(128, 256)))
    (tmp_path / "wl.toml").write_text(f'[blocklist]\nfile = "{binary}"\n')
    code, _, err = call("wordlist", "--lexicon", "t", "--data-dir", lex, "--config", cfg)
    assert code == 2 and "list.bin: block list is not UTF-8 text" in err and len(err.strip().splitlines()) == 1


def test_settings_file_with_a_byte_order_mark(tmp_path, lex):
    cfg = settings_file(tmp_path, '[presets.mine]\nlength = "3"\n')
    (tmp_path / "wl.toml").write_bytes(b"\xef\xbb\xbf" + (tmp_path / "wl.toml").read_bytes())
    code, out, err = call("wordlist", "--presets", "--lexicon", "t", "--data-dir", lex, "--config", cfg, "--csv")
    assert code == 0 and out.splitlines()[1:] == ['mine,"",--length 3'], err


def test_block_list_hash_is_checked(tmp_path, lex):
    cfg = settings_file(tmp_path, 'sha256 = "' + "0" * 64 + '"\n')
    code, _, err = call("wordlist", "--lexicon", "t", "--data-dir", lex, "--config", cfg)
    assert code == 2 and "sha256" in err


# ---- count, seed, sort ------------------------------------------------------------------------------


def test_count_and_seed_pick_reproducibly(lex, store, config, rows):
    pool = set(reference(rows, {"length": "5-6", "min_zipf": 3.0}, exclusions(load_classroom(config)), False))
    a = listed(lex, "--length", "5-6", "--min-zipf", "3", "--sample", "25", "--seed", "7", "--upper")
    b = listed(lex, "--length", "5-6", "--min-zipf", "3", "--sample", "25", "--seed", "7", "--upper")
    c = listed(lex, "--length", "5-6", "--min-zipf", "3", "--sample", "25", "--seed", "8", "--upper")
    assert a == b and a != c
    assert len(a) == len(set(a)) == 25 and set(a) <= pool and set(c) <= pool
    assert a == sorted(a)


def test_count_larger_than_matches_lists_all(lex):
    code, out, err = wl(lex, "--pattern", "*IGHT", "--length", "5", "--sample", "100000", "--json")
    assert code == 0 and "fewer than --sample" in err
    assert all(w.endswith("ight") and len(w) == 5 for w in (r["word"] for r in json.loads(out)))


def test_sort_frequency_and_alpha(lex):
    out = json.loads(wl(lex, "--length", "4", "--common", "--sort", "frequency", "--json")[1])
    keys = [(-r["zipf"], r["word"]) for r in out]
    assert keys == sorted(keys) and len(out) > 100
    assert listed(lex, "--length", "4", "--common") == sorted(r["word"] for r in out)


def test_choice_names_in_any_case_are_the_choice(lex):
    """A choice named in capitals (--sort FREQUENCY, --hangman EASY, --sheet LIST) is that choice, as docs/cli.md
    says: the same words as in lower case, never an empty list or a traceback (the page: tests/test_web.py)."""
    for args in (("--sort", "frequency"), ("--hangman", "easy"), ("--sheet", "list"), ("--paper", "a4")):
        shouted = wl(lex, "--length", "4", "--common", args[0], args[1].upper(), "--json")
        assert shouted[0] == 0 and "Traceback" not in shouted[2], (args, shouted[2])
        assert json.loads(shouted[1]) == json.loads(wl(lex, "--length", "4", "--common", *args, "--json")[1]), args


# ---- tables from other stages -------------------------------------------------------------------------


@pytest.mark.slow
def test_hangman_band_filter_matches_table(lex, store, config, rows):
    table = store.read("hangman")
    for band in ("easy", "medium", "hard"):
        expected = sorted(
            set(table.filter(pl.col("band") == band)["word"])
            & set(reference(rows, {"length": "4-6"}, exclusions(load_classroom(config)), False))
        )
        got = listed(lex, "--hangman", band, "--length", "4-6", "--upper")
        assert got == expected and got


def test_sort_difficulty_orders_by_expected_misses(lex, store):
    out = json.loads(wl(lex, "--length", "5", "--common", "--sort", "difficulty", "--json")[1])
    table = store.read("hangman", ["word", "expected_misses", "misses", "guesses"])
    key = {w: (e, m, g) for w, e, m, g in table.iter_rows()}
    order = [key[r["word"].upper()] for r in out]
    assert order == sorted(order) and [(r["expected_misses"], r["misses"], r["guesses"]) for r in out] == order


def test_boggle_findable_uses_find_rate(lex, store, config, rows):
    table = store.read("boggle_words")
    if "dice" in table.columns:
        table = table.filter(pl.col("dice") == "new")
    for rate, args in ((0.01, ()), (0.1, ("--min-find-rate", "0.1"))):
        findable = set(table.filter(pl.col("find_rate") >= rate)["word"])
        expected = sorted(findable & set(reference(rows, {"length": "3-5"}, exclusions(load_classroom(config)), False)))
        assert listed(lex, "--boggle-findable", "--length", "3-5", "--upper", *args) == expected


@pytest.mark.parametrize(
    "args, table, stage",
    [
        (("--hangman", "easy"), "hangman.parquet", "hangman"),
        (("--sort", "difficulty"), "hangman.parquet", "hangman"),
        (("--boggle-findable",), "boggle_words.parquet", "boggle"),
    ],
)
def test_missing_table_is_one_line_naming_table_and_stage(build, cli, args, table, stage):
    data = build(["cat", "dog", "bird"], "ingest")
    res = cli("wordlist", *args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1
    assert table in res.stderr and f"wordstats run {stage} --lexicon t" in res.stderr


# ---- bad filters and empty results ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, says",
    [
        (("--length", "6-4"), "backwards"),
        (("--length", "four"), "--length"),
        (("--length", "0"), "lengths run from 1 to 45"),
        (("--syllables", "99999999999999999999"), "syllables run from 1 to 12"),
        (("--preset", "spelling-k9"), "unknown preset 'spelling-k9'"),
        (("--pattern", "???"), "no letters"),
        (("--pattern", "*"), "no letters"),
        (("--pattern", "*IGHT!"), "bad pattern"),
        (("--contains", "a1"), "bad character '1'"),
        (("--starts-with", "é"), "letters only"),
        (("--contains", "ß"), "bad character 'ß'"),  # not SS
        (("--hangman", "extreme"), "easy, medium or hard"),
        (("--sort", "random"), "alpha, frequency, difficulty or playability"),
        (("--common", "--min-zipf", "4"), "not both"),
        (("--sample", "0"), "--sample"),
        (("--min-find-rate", "2", "--boggle-findable"), "between 0 and 1"),
        (("--out", "list.docx"), "unknown output format"),
    ],
)
def test_bad_filters_are_one_line_exit_2(lex, tmp_path, args, says):
    args = tuple(str(tmp_path / a) if a == "list.docx" else a for a in args)
    code, out, err = wl(lex, *args)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error:") and says in err
    assert "Traceback" not in err


def test_no_words_says_which_filter_to_loosen(lex):
    code, out, err = wl(lex, "--length", "4", "--common", "--starts-with", "QX")
    assert code == 0 and out == ""
    assert "no words match" in err and "loosen --starts-with" in err and len(err.strip().splitlines()) == 1


# ---- presets ------------------------------------------------------------------------------------------


def test_presets_load(config):
    table = presets_table(config)
    names = table["preset"].to_list()
    for grade in "k12345":
        assert f"spelling-{grade}" in names
    for name in ("cvc-a", "cvc-u", "blends", "digraphs", "magic-e", "vowel-teams", "r-controlled", "dolch-primer"):
        assert name in names
    assert {"hangman-easy", "hangman-medium", "hangman-hard", "clap-1", "clap-4", "word-search"} <= set(names)
    assert all(table["title"])


def test_preset_without_phonics_table_says_how_to_build_it(lex):
    code, _, err = wl(lex, "--preset", "spelling-k2")
    assert code == 2 and "phonics.parquet" in err and "wordstats run phonics" in err
    assert len(err.strip().splitlines()) == 1


def test_bad_preset_field_names_file_and_field(tmp_path, lex):
    cfg = settings_file(tmp_path, '[presets.mine]\nlength = "6-4"\n')
    code, _, err = call("wordlist", "--preset", "mine", "--lexicon", "t", "--data-dir", lex, "--config", cfg)
    assert code == 2 and "wl.toml" in err and "presets.mine.length" in err


# ---- output files ----------------------------------------------------------------------------------------


def pdf_text(data: bytes) -> str:
    """The text of a PDF's content streams (inflated), enough to find the words it prints."""
    out = []
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(match.group(1)).decode("latin-1"))
        except zlib.error:
            out.append(match.group(1).decode("latin-1"))
    return "\n".join(out)


def test_screen_output_names_filters(lex):
    code, out, err = wl(lex, "--length", "4-5", "--ends-with", "ing", "--common")
    assert code == 0
    assert (
        "4 to 5 letters" in err
        and "ending with ing" in err
        and "offensive words and topics not for the classroom left out" in err
    )
    assert out.splitlines()[0].split() == ["word", "length", "zipf"]
    body = [line.split() for line in out.splitlines()[2:]]
    assert body and all(w.endswith("ing") and int(n) in (4, 5) and float(z) >= 3.0 for w, n, z in body)


def test_word_list_rejects_unknown_option(store, config):
    with pytest.raises(WordstatsError, match="unknown word-list option 'colour'"):
        word_list(store, config, None, Choices.of({"colour": "red"}))


def test_settings_are_parsed_once_per_version_of_the_file(tmp_path):
    """The page asks for the settings several times a request: the same bytes give the same (read-only) settings,
    an edit of the same size at once gives the new ones."""
    from pipeline.core.config import load_config
    from pipeline.wordlists.settings import load_settings

    config = load_config(settings_file(tmp_path, ""))
    settings = tmp_path / "wl.toml"
    settings.write_text("common_zipf = 3.5\n" + settings.read_text())  # a top-level key: before the sections
    first = load_settings(config)
    assert load_settings(config) is first and first.common_zipf == 3.5
    with pytest.raises(TypeError):
        first.presets["mine"] = {}  # type: ignore[index]  (one Settings serves every caller: read-only)
    settings.write_text(settings.read_text().replace("3.5", "2.5"))  # the same size, at once
    assert load_settings(config).common_zipf == 2.5

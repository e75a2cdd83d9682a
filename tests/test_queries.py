"""Word-finding queries against slow references that check every word of the lexicon directly.

The lexicon is ENABLE when ../shared is present, otherwise a list this module writes.
"""

from __future__ import annotations

import fnmatch
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pipeline.anagrams.lookups import anagrams
from pipeline.anagrams.queries import (
    WordIndex,
    anagram,
    anagram_plus,
    hunt,
    open_index,
    pattern,
    subanagrams,
)
from pipeline.core.config import load_config
from pipeline.core.store import Store
from pipeline.letters.alphabet import LETTERS
from tests.conftest import CORPORA, SMALL_CONFIG, ask, build_lexicon

CONFIG = load_config(SMALL_CONFIG)
TILES = CONFIG.tiles["scrabble"]
VALUES = {c: TILES.values[c] for c in LETTERS}
BAG = "".join(c * TILES.counts[c] for c in LETTERS)
ENABLE = CORPORA / "enable" / "enable1.txt"
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def written_list(path: Path) -> Path:
    """20,000 random strings drawn from the tile bag (many anagram families among the short ones)."""
    rng = random.Random(2024)
    words = {"".join(rng.choice(BAG) for _ in range(rng.randint(2, 9))) for _ in range(20_000)}
    words |= {"SULTANA", "RETAINS", "NASTIER", "SATIRE", "QI", "ZA", "AA"}
    path.write_text("\n".join(sorted(words)) + "\n")
    return path


@dataclass
class Lexicon:
    """The test lexicon: its data folder, words and loaded index."""

    data: Path
    words: list[str]
    index: WordIndex
    is_enable: bool

    def of_length(self, n: int) -> list[str]:
        """The words of n letters."""
        return [w for w in self.words if len(w) == n]


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory) -> Lexicon:
    """ENABLE (or a written list) with its indexes built, as a Lexicon."""
    tmp = tmp_path_factory.mktemp("queries")
    source = ENABLE if ENABLE.is_file() else written_list(tmp / "written.txt")
    data = build_lexicon(tmp / "out", source, "indexes", lexicon="lex")
    words = pl.read_parquet(data / "lex" / "words.parquet")["word"].to_list()
    return Lexicon(data, words, open_index(Store(data, "lex"), CONFIG), ENABLE.is_file())


# ---- the references: every word, letter counts against the rack -----------------------------------


def stand_ins(word: str, rack: str) -> Counter | None:
    """The letters the rack's blanks must stand for to spell the word from some of the rack, or None."""
    tiles = rack.replace("?", "")
    if sum(ch not in tiles for ch in word) > len(rack) - len(tiles):
        return None  # more letters the rack lacks altogether than it has blanks (a quick test before counting)
    missing = Counter(word) - Counter(tiles)
    return missing if sum(missing.values()) <= rack.count("?") else None


def shown(word: str, blanks: Counter) -> str:
    """The word with the first occurrences of each blank letter in lower case."""
    left, out = Counter(blanks), []
    for ch in word:
        out.append(ch.lower() if left[ch] > 0 else ch)
        left[ch] -= 1 if left[ch] > 0 else 0
    return "".join(out)


def play(word: str, blanks: Counter) -> dict:
    """What a query shows for a word spelled with blanks: word, blanks, score."""
    return {
        "word": shown(word, blanks),
        "blanks": "".join(sorted(blanks.elements())),
        "score": sum(VALUES[c] for c in word) - sum(VALUES[c] for c in blanks.elements()),
    }


def reference_anagrams(words: list[str], rack: str) -> dict[str, dict]:
    """Every word that uses all the rack's tiles, checked one by one."""
    found = {}
    for w in words:
        if len(w) == len(rack) and (blanks := stand_ins(w, rack)) is not None:
            found[w] = play(w, blanks)
    return found


def reference_subanagrams(words: list[str], hand: str, lo: int = 1, hi: int = 99) -> dict[str, dict]:
    """Every word of lo..hi letters made from some of the hand, checked one by one."""
    found = {}
    for w in words:
        if lo <= len(w) <= min(hi, len(hand)) and (blanks := stand_ins(w, hand)) is not None:
            found[w] = play(w, blanks)
    return found


def result(df: pl.DataFrame, key: str = "word") -> dict[str, dict]:
    """A query's rows by upper-case word: word, blanks, score."""
    return {row[key].upper(): {k: row[k] for k in ("word", "blanks", "score")} for row in df.iter_rows(named=True)}


@st.composite
def racks(draw, words_of_size: list[str], size: int, blanks: int) -> str:
    """A rack of `size` tiles with `blanks` blanks: a word's letters or tiles from the bag."""
    if words_of_size and draw(st.booleans()):
        tiles = list(draw(st.sampled_from(words_of_size)))
    else:
        tiles = draw(st.lists(st.sampled_from(BAG), min_size=size, max_size=size))
    for position in draw(st.permutations(range(size)))[:blanks]:
        tiles[position] = "?"
    return "".join(tiles)


# ---- anagrams, subanagrams, plus ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "blanks", [pytest.param(0, marks=pytest.mark.slow), 1, pytest.param(2, marks=pytest.mark.slow)]
)
@SETTINGS
@given(data=st.data())
def test_anagram_matches_reference(lexicon, blanks, data):
    rack = data.draw(racks(lexicon.of_length(7), 7, blanks))
    found = anagram(lexicon.index, rack.lower())
    assert result(found) == reference_anagrams(lexicon.words, rack)
    plain = [w.upper() for w in found["word"].to_list()]
    assert plain == sorted(plain)
    assert anagrams(Store(lexicon.data, "lex"), VALUES, rack.lower()).equals(found)  # by alphagram, no index


@pytest.mark.parametrize("rack", ["??", "E???", "AE????", "RETAIN??"])
def test_anagrams_by_alphagram_with_many_blanks(lexicon, rack):
    found = anagrams(Store(lexicon.data, "lex"), VALUES, rack)
    assert found.equals(anagram(lexicon.index, rack)) and result(found) == reference_anagrams(lexicon.words, rack)


@pytest.mark.slow
@pytest.mark.parametrize("blanks", [0, 1, 2])
@SETTINGS
@given(data=st.data(), size=st.integers(2, 9))
def test_anagram_other_sizes_match_reference(lexicon, blanks, data, size):
    rack = data.draw(racks(lexicon.of_length(size), size, min(blanks, size)))
    found = anagram(lexicon.index, rack)
    assert result(found) == reference_anagrams(lexicon.words, rack)
    assert anagrams(Store(lexicon.data, "lex"), VALUES, rack).equals(found)


@pytest.mark.slow
@pytest.mark.parametrize("blanks", [0, 1, 2])
@SETTINGS
@given(data=st.data())
def test_subanagrams_match_reference(lexicon, blanks, data):
    hand = data.draw(racks(lexicon.of_length(7), 7, blanks))
    lo, hi = data.draw(st.sampled_from([(1, 99), (3, 5), (7, 7)]))
    found = subanagrams(lexicon.index, hand, lo, None if hi == 99 else hi)
    assert result(found) == reference_subanagrams(lexicon.words, hand, lo, hi)
    order = [(-r["length"], -r["score"], r["word"].upper()) for r in found.iter_rows(named=True)]
    assert order == sorted(order)


@pytest.mark.slow
@pytest.mark.parametrize("blanks", [0, 1, 2])
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)  # a slow reference: no shrinking
@given(data=st.data())
def test_anagram_plus_matches_reference(lexicon, blanks, data):
    rack = data.draw(racks([w[:7] for w in lexicon.of_length(8)], 7, blanks))
    through = data.draw(st.sampled_from([None, "S", "AEIRST", "QXZ"]))
    found = anagram_plus(lexicon.index, rack, through)
    expected = {}
    for w in lexicon.of_length(8):
        for letter in sorted(set(w) & set(through or LETTERS)):
            if (blanks_used := stand_ins(w, rack + letter)) is not None:
                expected[(letter, w)] = play(w, blanks_used)
    got = {
        (r["through"], r["word"].upper()): {k: r[k] for k in ("word", "blanks", "score")}
        for r in found.iter_rows(named=True)
    }
    assert got == expected


# ---- hunt and pattern -------------------------------------------------------------------------------


@SETTINGS
@given(letters=st.sets(st.sampled_from(BAG), min_size=1, max_size=8), data=st.data(), min_length=st.integers(1, 5))
def test_hunt_matches_reference(lexicon, letters, data, min_length):
    center = data.draw(st.none() | st.sampled_from(sorted(letters)))
    found = hunt(lexicon.index, "".join(letters).lower(), center, min_length)
    expected = {
        w: set(w) == letters
        for w in lexicon.words
        if set(w) <= letters and len(w) >= min_length and (center is None or center in w)
    }
    assert dict(zip(found["word"].to_list(), found["pangram"].to_list())) == expected
    assert found.height == len(expected)


tokens = st.sampled_from(["?", "*", "A", "E", "S", "T", "R", "[AEIOU]", "[^AEIOU]", "[ST]"])


@SETTINGS
@given(parts=st.lists(tokens, min_size=1, max_size=7))
def test_pattern_matches_reference(lexicon, parts):
    text = "".join(parts)
    glob = text.replace("[^", "[!")  # fnmatch's negated class
    expected = [w for w in lexicon.words if fnmatch.fnmatchcase(w, glob)]
    assert pattern(lexicon.index, text.lower())["word"].to_list() == expected


@SETTINGS
@given(regex=st.sampled_from(["q[^u].*", "(ab|ba).*s", "[aeiou]{5,}", ".*(ing|ed)", "z.z.*", "x"]))
def test_regex_matches_reference(lexicon, regex):
    expected = [w for w in lexicon.words if re.fullmatch(regex, w, re.IGNORECASE)]
    assert pattern(lexicon.index, regex, regex=True)["word"].to_list() == expected


def test_enable_known_answers(lexicon):
    if not lexicon.is_enable:
        pytest.skip("ENABLE (../shared) not present")
    assert anagram(lexicon.index, "AEINRST")["word"].to_list() == [
        "ANESTRI",
        "ANTSIER",
        "NASTIER",
        "RATINES",
        "RETAINS",
        "RETINAS",
        "RETSINA",
        "STAINER",
        "STEARIN",
    ]
    assert "SULTaNA" in anagram(lexicon.index, "SULTNA?")["word"].to_list()
    assert pattern(lexicon.index, "QU*Z")["word"].to_list() == ["QUARTZ", "QUIZ"]


# ---- the CLI -----------------------------------------------------------------------------------------

SMALL = [
    "SULTANA",
    "SULTANAS",
    "SULTAN",
    "ALNUS",
    "QI",
    "QIS",
    "AA",
    "AAS",
    "RETAINS",
    "NASTIER",
    "STAINER",
    "RETINAS",
    "SATIRE",
    "STRIAE",
    "TERAIS",
    "AIREST",
    "BAITERS",
    "TASTIER",
    "ATTIRES",
    "CAT",
    "SCAT",
]


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """A small ad hoc lexicon `t` with indexes and stems built."""
    return build_lexicon(tmp_path_factory.mktemp("small") / "out", SMALL, "indexes", "stems")


def test_cli_anagram_marks_blank_letters(cli, small):
    res = ask(cli, small, "anagram", "sultna?")
    assert res.exit_code == 0, res
    assert res.stdout.splitlines()[0].split() == ["word", "score", "blanks", "probability_order"]
    assert [line.split()[0] for line in res.stdout.splitlines()[2:]] == ["SULTaNA"]
    rows = json.loads(ask(cli, small, "anagram", "ULTANA?", "--json").stdout)
    assert [(r["word"], r["blanks"], r["score"]) for r in rows] == [("sULTANA", "S", 6)]


def test_cli_many_racks_load_the_index_and_print_the_same(cli, small, monkeypatch):
    from pipeline.anagrams import api

    racks = "\n".join(["sultna?", "AEIRST?", "CAT", "ZZZ", "??"] * 4)  # more than KEYED_RACKS: the index
    indexed = cli("anagram", "-", "--csv", "--lexicon", "t", "--data-dir", small, "--config", SMALL_CONFIG, input=racks)
    monkeypatch.setattr(api, "KEYED_RACKS", 20)
    keyed = cli("anagram", "-", "--csv", "--lexicon", "t", "--data-dir", small, "--config", SMALL_CONFIG, input=racks)
    assert keyed.exit_code == indexed.exit_code == 0 and keyed.stdout == indexed.stdout, (keyed, indexed)
    assert "SULTaNA" in keyed.stdout and len(keyed.stdout.splitlines()) > 20


def test_cli_anagram_plus_and_through(cli, small):
    rows = json.loads(ask(cli, small, "anagram", "SULTAN", "--plus", "--json").stdout)
    assert {(r["through"], r["word"]) for r in rows} == {("A", "SULTANA")}
    lines = ask(cli, small, "anagram", "ULTANA?", "--through", "SX", "--csv").stdout.splitlines()
    assert lines[0] == "through,word,score,blanks,probability_order" and len(lines) == 2
    assert lines[1].startswith("S,sULTANAS,7,S,")  # the board S is a real tile; the blank is an S too


def test_cli_words_lengths(cli, small):
    rows = json.loads(ask(cli, small, "words", "QISA?", "--json").stdout)
    plain = {r["word"].upper(): r for r in rows}
    assert set(plain) == {"QIS", "QI", "AAS", "AA"} and plain["AAS"]["word"] == "aAS" and plain["QI"]["blanks"] == ""
    rows = json.loads(ask(cli, small, "words", "QISA?", "--length", "3", "--json").stdout)
    assert [r["word"].upper() for r in rows] == ["QIS", "AAS"]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("anagram", "AB1"), "character 3 ('1')"),
        (("anagram", "SUL TAN"), "character 4 (' ')"),
        (("anagram", "A" * 21), "21 tiles, at most 20"),
        (("anagram", "?????A"), "5 blanks, at most 4"),
        (("words", "QI-S"), "character 3 ('-')"),
        (("anagram", "SULTAN", "--through", "S1"), "character 2 ('1')"),
        (("hunt", "AB?"), "character 3 ('?')"),
        (("hunt", "ABC", "--center", "D"), "--center"),
        (("hunt", "ABC", "--center", ""), "empty --center letter"),  # not ignored
        (("anagram", "SULTAN", "--through", ""), "empty --through letters"),
        (("pattern", "A{3}"), "character 2 ('{')"),
        (("words", "straße"), "character 5 ('ß')"),  # not STRASSE: str.upper turns ß into SS
        (("hooks", "ıt"), "character 1 ('ı')"),  # and ı into I
        (("hunt", "ABC", "--center", "ß"), "character 1 ('ß')"),
        (("pattern", "*ß"), "character 2 ('ß')"),
        (("pattern", "(", "--regex"), "bad regex '(': unclosed group"),  # why, not just "regex parse error:"
        (("stem", "AEI"), "6 or 7 letters"),
        (("stems", "--order", "length"), "--order"),
        (("stems", "--out", "list.pdf"), ".csv or .md"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(cli, small, args, fragment):
    res = ask(cli, small, *args)
    assert res.exit_code == 2, res
    assert fragment in res.stderr and len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("error:")


def test_cli_hunt_pattern_hooks(cli, small):
    rows = json.loads(ask(cli, small, "hunt", "AQIS", "--center", "Q", "--json").stdout)
    assert rows == [{"word": "QIS", "length": 3, "pangram": False}, {"word": "QI", "length": 2, "pangram": False}]
    rows = json.loads(ask(cli, small, "pattern", "S*[^S]", "--json").stdout)
    assert [r["word"] for r in rows] == ["SATIRE", "SCAT", "STAINER", "STRIAE", "SULTAN", "SULTANA"]
    assert ask(cli, small, "pattern", "s.*a", "--regex", "--csv").stdout.split() == ["word,length", "SULTANA,7"]
    hooks = json.loads(ask(cli, small, "hooks", "qi", "--json").stdout)
    assert hooks == [{"word": "QI", "front_hooks": [], "back_hooks": ["S"], "front_inner": False, "back_inner": False}]
    missing = ask(cli, small, "hooks", "ZZZ")
    assert missing.exit_code == 0 and "ZZZ" in missing.stderr and missing.stderr.startswith("note: ")


def test_cli_word_reads_every_table_keyed_by_word(cli, small):
    extra = small / "t" / "notes.parquet"  # any later table keyed by `word` (hangman, boggle_words, ...)
    pl.DataFrame({"word": ["SATIRE", "QI"], "misses": [3, 5]}).write_parquet(extra)
    try:
        facts = json.loads(ask(cli, small, "word", "satire", "--json").stdout)
        assert facts["word"] == "SATIRE"
        assert set(facts["tables"]) == {"words", "anagrams", "hooks", "prefixes", "stems", "notes"}
        assert facts["tables"]["notes"] == [{"word": "SATIRE", "misses": 3}]
        assert facts["tables"]["anagrams"][0]["words"] == ["AIREST", "SATIRE", "STRIAE", "TERAIS"]
        assert facts["tables"]["stems"][0]["letters"] == ["B", "N", "T"]  # BAITERS, RETAINS..., TASTIER ATTIRES
        lines = ask(cli, small, "word", "SATIRE", "--csv").stdout.splitlines()
        assert lines[0] == "table,row,column,value" and "notes,1,misses,3" in lines
    finally:
        extra.unlink()
    assert ask(cli, small, "word", "SATIRES").exit_code == 0


def test_cli_missing_tables_say_how_to_build(cli, tmp_path, word_file):
    res = cli(
        "run",
        "ingest",
        "--source",
        word_file(SMALL),
        "--lexicon",
        "bare",
        "--data-dir",
        tmp_path,
        "--config",
        SMALL_CONFIG,
        "--quiet",
    )
    assert res.exit_code == 0
    res = cli("anagram", "SATIRE", "--lexicon", "bare", "--data-dir", tmp_path, "--config", SMALL_CONFIG)
    assert res.exit_code == 2 and "anagrams.parquet" in res.stderr and "wordstats run" in res.stderr

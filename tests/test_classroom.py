"""Classroom safety by construction: every word a children's sheet may print has a review decision, children's
lists print only kept words, and puzzles never spell or suggest an unsafe word."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import hypothesis
import polars as pl
import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.core.store import Store
from pipeline.phonics.grades import SCHOOL_ZIPF, UNSEEN_ZIPF, dolch
from pipeline.phonics.stage import DEFAULT_DOLCH, dolch_path, phonics_table
from pipeline.wordlists.choices import Choices
from pipeline.wordlists.pools import common_words, review
from pipeline.wordlists.puzzles import Banned, fits, other_answers, shared_letters, state
from pipeline.wordlists.select import pick, word_list
from pipeline.wordlists.settings import load_settings, puzzle_banned
from pipeline.words.classroom import classroom_vocabulary, offensive_words
from pipeline.words.vocabulary import CATEGORIES, parse_review
from tests.conftest import DEFAULT_CONFIG, ROOT, run_cli
from tests.support.datasets import default_data

REVIEW = ROOT / "data" / "raw" / "classroom-review.tsv"
POOL_GRADES = (0, 5)  # a children's pool: grades K to 5, and the Dolch words
# Words found on children's sheets before the review (the examples): each must be excluded.
FOUND = ("spank", "whips", "screwing", "knob", "puss", "hanged", "lovers", "gay", "stupid", "dead")


@pytest.fixture(scope="module")
def config():
    """The default config: the bundled lexicons, presets, block list and review."""
    return load_config(DEFAULT_CONFIG)


@pytest.fixture(scope="module")
def settings(config):
    """The default word-list settings."""
    return load_settings(config)


CLASSROOM_STAGES = ("ingest", "phonics", "hangman_children")


@pytest.fixture(scope="module")
def teacher(tmp_path_factory, config):
    """The teacher lexicon built (words and phonics)."""
    return default_data(tmp_path_factory, {config.teacher_lexicon: CLASSROOM_STAGES})


@pytest.fixture(scope="module")
def every(tmp_path_factory, config):
    """Every bundled lexicon's words built (the ingest stage)."""
    return default_data(tmp_path_factory, {name: ("ingest",) for name in config.lexicons})


def pool(data: Path, lexicon: str) -> list[str]:
    """Every word of a lexicon a children's list can reach: grade K to 5 or a Dolch word."""
    return pool_of(pl.read_parquet(data / lexicon / "phonics.parquet", columns=["word", "grade", "dolch"]))


def pool_of(phonics: pl.DataFrame) -> list[str]:
    """The words of a phonics table a children's list can reach."""
    lo, hi = POOL_GRADES
    return sorted(phonics.filter(pl.col("grade").is_between(lo, hi) | pl.col("dolch").is_not_null())["word"])


def candidates_pool(data: Path, lexicon: str, config) -> list[str]:
    """The same pool from the phonics of the lexicon's candidate words alone: the Dolch words and those at least
    as common as a graded word must be (a word's grade reads its own letters, sounds and frequency only, never
    the rest of its lexicon: test_the_pool_needs_only_the_candidate_words checks it on a whole lexicon)."""
    return candidates_pools(data, (lexicon,), config)[lexicon]


def candidates_pools(data: Path, lexicons: tuple[str, ...], config) -> dict[str, list[str]]:
    """candidates_pool of each lexicon, from one phonics table of their candidates: a word's phonics reads its
    own row alone (its letters and frequency, the same in every lexicon), so a word the lexicons share is read
    once."""
    levels = dolch(dolch_path(config))
    listed = levels["word"].str.to_uppercase()
    floor = min(UNSEEN_ZIPF, SCHOOL_ZIPF)
    candidates = {
        name: pl.read_parquet(data / name / "words.parquet", columns=["word", "zipf"]).filter(
            (pl.col("zipf") >= floor) | pl.col("word").is_in(listed.implode())
        )
        for name in lexicons
    }
    distinct = pl.concat(candidates.values()).unique(maintain_order=True)
    assert distinct["word"].is_unique().all(), "a word of two frequencies: its phonics differ by lexicon"
    table = phonics_table(distinct, levels)
    return {name: pool_of(table.join(rows, on="word", how="semi")) for name, rows in candidates.items()}


# ---- the review file -------------------------------------------------------------------------------------


def test_review_file_is_whole_and_valid(settings):
    """Every row of the shipped review parses; every Dolch word is kept; the words found on sheets are out."""
    decisions = parse_review(REVIEW.read_bytes(), REVIEW)
    assert len(decisions) > 9_000
    excluded = {w for w, d in decisions.items() if d.decision == "exclude"}
    assert {d.category for w, d in decisions.items() if w in excluded} <= set(CATEGORIES)
    dolch_words = {w.upper() for w in dolch(DEFAULT_DOLCH)["word"].to_list() if w.isalpha() and w.islower()}
    assert dolch_words - {w for w, d in decisions.items() if d.decision == "keep"} == set()
    for word in FOUND:
        assert decisions[word.upper()].decision == "exclude", word


@pytest.mark.parametrize(
    "row, message",
    [
        ("cat\tmaybe\t\t", "choose keep or exclude"),
        ("cat\texclude\trude\t", "category 'rude'"),
        ("cat\tkeep\tsexual\t", "takes no category"),
        ("Cat\tkeep\t\t", "not a lower-case word"),
        ("cat\tkeep\t", "expected 4 tab-separated fields"),
    ],
)
def test_bad_review_rows_name_the_line(row, message):
    """A malformed review row is a one-line error naming the file and line."""
    data = ("word\tdecision\tcategory\tnote\ndog\tkeep\t\t\n" + row + "\n").encode()
    with pytest.raises(WordstatsError, match=f"line 3: .*{message}|line 3: {message}"):
        parse_review(data, Path("review.tsv"))


def test_a_word_reviewed_twice_is_refused():
    """The same word twice is an error, not a silent last-wins."""
    data = b"word\tdecision\tcategory\tnote\ndog\tkeep\t\t\ndog\texclude\tarchaic\t\n"
    with pytest.raises(WordstatsError, match="reviewed twice"):
        parse_review(data, Path("review.tsv"))


# ---- pools: every word reviewed, only kept words printed ---------------------------------------------------


@pytest.mark.slow
def test_teacher_lexicon_pool_is_reviewed(teacher, config, settings):
    """Every word of the teacher lexicon's children's pool has a decision (fast: one lexicon)."""
    vocab = classroom_vocabulary(settings.classroom)
    words = pool(teacher, config.teacher_lexicon)
    assert len(words) > 9_000
    assert sorted(set(words) - set(vocab.decisions)) == []


@pytest.mark.slow
def test_the_pool_needs_only_the_candidate_words(teacher, config):
    """The teacher lexicon's pool, from its whole phonics table, is the pool of its candidate words' phonics."""
    assert candidates_pool(teacher, config.teacher_lexicon, config) == pool(teacher, config.teacher_lexicon)


@pytest.mark.slow
def test_every_pool_of_every_bundled_lexicon_is_reviewed(every, config, settings):
    """Every word that can reach a children's sheet, over every bundled lexicon, has a review decision: a new
    lexicon, preset or filter cannot bring words in silently."""
    vocab = classroom_vocabulary(settings.classroom)
    missing = {}
    for name, words in candidates_pools(every, tuple(config.lexicons), config).items():
        assert len(words) > 5_000, name
        missing[name] = sorted(set(words) - set(vocab.decisions))
    assert missing == {name: [] for name in config.lexicons}


def children_options() -> list[tuple[str | None, dict]]:
    """Every children's preset and every --children and --grade filter, as (preset, options)."""
    grades = ["K", "1", "2", "3", "4", "5", "K-2", "3-5", "K-5"]
    return [(None, {"children": True})] + [(None, {"grade": g}) for g in grades]


@pytest.mark.slow
def test_children_lists_print_only_kept_words(teacher, config, settings):
    """The whole pool of every children's preset and filter holds only words the review keeps: zero unreviewed
    and zero excluded words printed (the selection reads no lexicon's words but the given one's: the other
    lexicons' pools are all reviewed, above)."""
    vocab = classroom_vocabulary(settings.classroom)
    cases = [(name, {}) for name in settings.presets] + children_options()
    store = Store(teacher, config.teacher_lexicon)
    for preset, options in cases:
        opts = {**options, "count": 10**6, "sheet": "list"}
        if preset and settings.presets[preset].get("hangman"):
            continue  # the Hangman presets read the hangman stage; checked below
        wl = word_list(store, config, preset, Choices.of(opts))
        assert wl.reviewed and wl.unreviewed == 0, (preset, options)
        assert set(w.upper() for w in wl.words) <= vocab.kept, (preset, options)


@pytest.mark.slow
def test_teacher_lexicon_presets_print_only_kept_words(teacher, config, settings):
    """Every preset on the teacher lexicon prints only kept words, with its own sheet's rules applied."""
    vocab = classroom_vocabulary(settings.classroom)
    store = Store(teacher, config.teacher_lexicon)
    sizes = {}
    for name in settings.presets:
        wl = word_list(store, config, name, Choices.of({"count": 10**6}))
        assert wl.unreviewed == 0 and set(w.upper() for w in wl.words) <= vocab.kept, name
        sizes[name] = wl.pool
    assert all(n >= 10 for n in sizes.values()), sizes


@pytest.mark.slow
def test_unreviewed_words_are_left_out_and_counted(tmp_path, config):
    """A children's list on a word list with words nobody reviewed prints only reviewed words and counts the
    rest; without a children's filter the words are listed (the block list still applies)."""
    words = tmp_path / "class.txt"
    words.write_text("cat\ndog\nsun\nzorbing\nblorple\nspank\n")
    data = tmp_path / "out"
    assert run_cli("run", "--source", words, "--lexicon", "mine", "--data-dir", data).exit_code == 0
    res = run_cli("wordlist", "--lexicon", "mine", "--data-dir", data, "--grade", "K-5", "--csv")
    plain = run_cli("wordlist", "--lexicon", "mine", "--data-dir", data, "--csv")
    assert plain.exit_code == 0 and "zorbing" in plain.stdout
    if res.exit_code == 0:
        listed = {line.split(",")[0] for line in res.stdout.splitlines()[1:]}
        assert listed <= {"cat", "dog", "sun"}
    store = Store(data, "mine")
    df = store.scan("words", ["word", "length", "zipf"]).collect()
    r = review(df, load_settings(config))
    assert set(r.kept["word"]) == {"CAT", "DOG", "SUN"}
    assert (r.excluded, r.unreviewed) == (1, 2)  # spank; zorbing and blorple


@pytest.mark.slow
def test_teachers_overrule_decisions_in_the_config(tmp_path, teacher):
    """[review] keep and exclude in the word-list settings replace the shipped decisions."""
    text = (ROOT / "configs" / "wordlists.toml").read_text()
    text = text.replace('file = "../data/raw/ldnoobw-en.lst"', f'file = "{ROOT}/data/raw/ldnoobw-en.lst"')
    text += '\n[review]\nkeep = ["bar"]\nexclude = { cat = "archaic" }\n'
    (tmp_path / "wordlists.toml").write_text(text)
    config_text = DEFAULT_CONFIG.read_text().replace('"../data/', f'"{ROOT}/data/')
    config_text = config_text.replace('file = "wordlists.toml"', f'file = "{tmp_path}/wordlists.toml"')
    (tmp_path / "config.toml").write_text(config_text)
    vocab = classroom_vocabulary(load_settings(load_config(tmp_path / "config.toml")).classroom)
    assert "BAR" in vocab.kept and "CAT" not in vocab.kept
    assert vocab.decision("cat").by == "teacher"


@pytest.mark.slow
def test_a_bad_override_is_one_line(tmp_path, teacher, config):
    """An unknown category in [review] exclude is a one-line error naming the field, exit 2."""
    text = (ROOT / "configs" / "wordlists.toml").read_text()
    text = text.replace('file = "../data/raw/ldnoobw-en.lst"', f'file = "{ROOT}/data/raw/ldnoobw-en.lst"')
    (tmp_path / "wordlists.toml").write_text(text + '\n[review]\nexclude = { cat = "rude" }\n')
    config_text = DEFAULT_CONFIG.read_text().replace('"../data/', f'"{ROOT}/data/')
    config_text = config_text.replace('file = "wordlists.toml"', f'file = "{tmp_path}/wordlists.toml"')
    (tmp_path / "config.toml").write_text(config_text)
    res = run_cli("wordlist", "--grade", "1", "--config", tmp_path / "config.toml", "--data-dir", teacher)
    assert res.exit_code == 2
    assert "review.exclude.cat" in res.stderr and "category 'rude'" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


# ---- word searches ------------------------------------------------------------------------------------------


DIRECTIONS8 = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def spelled_outside_words(grid: tuple[str, ...], placements, strings: frozenset[str]) -> list[str]:
    """The slow, obvious check: along every line of the grid in each of the eight directions, every run of
    three or more cells whose letters form a banned string, unless all its cells belong to one placed word."""
    side = len(grid)
    owned = [set(p.cells()) for p in placements]
    found = []
    for dr, dc in DIRECTIONS8:
        for r, c in itertools.product(range(side), range(side)):
            if 0 <= r - dr < side and 0 <= c - dc < side:
                continue  # not the first cell of its line in this direction
            cells = []
            while 0 <= r < side and 0 <= c < side:
                cells.append((r, c))
                r, c = r + dr, c + dc
            text = "".join(grid[y][x] for y, x in cells)
            for a in range(len(text)):
                for b in range(a + 3, len(text) + 1):
                    if text[a:b] in strings and not any(set(cells[a:b]) <= mine for mine in owned):
                        found.append(text[a:b])
    return found


SEARCH_EXAMPLES = 400  # seeds drawn per run, each tried on every word-search preset


@pytest.fixture(scope="module")
def searches(teacher, config, settings) -> tuple[list[tuple[str, pl.DataFrame, int, str]], Banned]:
    """Every word-search preset as the CLI picks from it (name, its words, how many, difficulty), and the banned
    strings."""
    store = Store(teacher, config.teacher_lexicon)
    presets = []
    for name, preset in settings.presets.items():
        if preset.get("sheet") == "word-search":
            wl = word_list(store, config, name, Choices.of({"count": 10**6}))
            presets.append(
                (name, pl.DataFrame({"word": [w.upper() for w in wl.words]}), preset["count"], wl.difficulty)
            )
    assert presets
    return presets, puzzle_banned(settings)


@pytest.mark.slow
@hypothesis.settings(max_examples=SEARCH_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_word_search_never_spells_a_banned_string(searches, seed):
    """For any seed of every word-search preset, no banned string (block list, topics, review exclusions,
    offensive strings) reads in any direction anywhere in the grid, filler included, unless inside a listed
    word: the words are picked as the CLI picks them, the grid made as the sheet makes it."""
    from pipeline.wordlists.puzzles import word_search

    presets, banned = searches
    for name, table, k, difficulty in presets:
        words = pick(table, k, seed)["word"].to_list()
        grid = word_search(words, difficulty, seed, banned)
        assert not spelled_outside_words(grid.grid, grid.placements, banned.strings | set(words)), (name, seed)


@pytest.fixture(scope="module")
def every_preset_as_a_search(teacher, config, settings) -> list[tuple[str, pl.DataFrame, int, str]]:
    """Every preset's pool printed as a word search (name, its words, how many the preset picks, difficulty)."""
    store = Store(teacher, config.teacher_lexicon)
    out = []
    for name, preset in settings.presets.items():
        wl = word_list(store, config, name, Choices.of({"count": 10**6, "sheet": "word-search"}), printed=True)
        words = pl.DataFrame({"word": [w.upper() for w in wl.words]})
        out.append((name, words, preset.get("count", words.height), wl.difficulty))
    return out


@pytest.mark.slow
@hypothesis.settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_preset_prints_as_word_searches(every_preset_as_a_search, settings, seed):
    """Any preset's list, printed as a word search, fits (over several grids when one does not hold it), hides no
    word under three letters, and reads no banned string and no second copy of a word anywhere."""
    from pipeline.wordlists.puzzles import MIN_TARGET, word_searches

    banned = puzzle_banned(settings)
    for name, table, k, difficulty in every_preset_as_a_search:
        words = pick(table, k, seed)["word"].to_list()
        assert min(map(len, words)) >= MIN_TARGET, name
        for grid in word_searches(words, difficulty, seed, banned):
            hidden = {p.word for p in grid.placements}
            assert not spelled_outside_words(grid.grid, grid.placements, banned.strings | hidden), (name, seed)


@pytest.mark.slow
def test_word_search_from_the_cli_matches_the_library(teacher, config, tmp_path):
    """The CLI's word-search sheet holds the grid the library makes for the same preset and seed."""
    from pipeline.wordlists.sheets import puzzles

    store = Store(teacher, config.teacher_lexicon)
    wl = word_list(store, config, "word-search", Choices.of({"seed": 12}), printed=True)
    out = tmp_path / "ws.md"
    res = run_cli("wordlist", "--preset", "word-search", "--seed", "12", "--out", out, "--data-dir", teacher)
    assert res.exit_code == 0, res
    assert "\n".join(" ".join(row) for row in puzzles(wl)[0].grid) in out.read_text()


# ---- scrambles -----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_scrambles_are_never_words_and_the_key_gives_every_answer(teacher, config, settings):
    """For 30 seeds of the scramble preset: no scrambled letters spell a word of the lexicon or hold a banned
    string; every other answer a child may know is a kept word and is in the key."""
    store = Store(teacher, config.teacher_lexicon)
    lexicon = frozenset(store.scan("words", ["word"]).collect()["word"].to_list())
    vocab = classroom_vocabulary(settings.classroom)
    known = frozenset(vocab.decisions) | frozenset(common_words(store, settings))
    banned = puzzle_banned(settings)
    for seed in range(30):
        wl = word_list(store, config, "scramble", Choices.of({"seed": seed}), printed=True)
        words = [w.upper() for w in wl.words]
        assert len(wl.scrambled) == len(words)
        for word, letters in zip(words, wl.scrambled):
            assert sorted(letters) == sorted(word) and letters not in lexicon, (seed, word, letters)
            assert not [s for s in banned.strings if s in letters], (seed, word, letters)
        answers = other_answers(words, known)
        for word in words:
            assert set(answers[word]) <= vocab.kept
            assert wl.answers.get(word, []) == answers[word]


# ---- Hangman -------------------------------------------------------------------------------------------------


def misleading_by_brute_force(word: str, unsafe: frozenset[str], known: frozenset[str]) -> bool:
    """Every reveal state of `word` (every set of its letters shown, half the letters or more): does an unsafe
    word fit it, with unsafe words a quarter or more of all the words that fit?"""
    letters = sorted(set(word))
    same = [w for w in unsafe | known if len(w) == len(word)]
    for size in range(1, len(letters)):
        for shown in itertools.combinations(letters, size):
            shown_set = frozenset(shown)
            board = state(word, shown_set)
            if sum(ch != "_" for ch in board) * 2 < len(word):
                continue
            fit = [w for w in same if fits(board, shown_set, w)]
            bad = [w for w in fit if w in unsafe and w != word]
            if bad and len(bad) * 4 >= len([w for w in fit if w in unsafe or w in known]):
                return True
    return False


@pytest.mark.slow
def test_hangman_words_have_no_misleading_reveal_state(teacher, config, settings):
    """No word of the Hangman presets' pools has a reveal state that an offensive word fits as a likely
    reading (checked by brute force over every set of shown letters on a sample); BEGGARS, which shows
    _ _ G G _ R S, is left out, and CENTS and AUNTS (C _ N T S, _ _ N T S), which inflections no dictionary
    lists would read as."""
    store = Store(teacher, config.teacher_lexicon)
    vocab = classroom_vocabulary(settings.classroom)
    known = frozenset(vocab.decisions) | frozenset(common_words(store, settings))
    lexicon = frozenset(store.scan("words", ["word"]).collect()["word"].to_list())
    unsafe = offensive_words(settings.classroom, lexicon | known)
    assert misleading_by_brute_force("BEGGARS", unsafe, known)
    assert state("BEGGARS", shared_letters("BEGGARS", "BUGGERS")) == "B_GG_RS"
    assert {"CUNTS", "TURDS", "FUCKS", "DICKS", "JAPS"} <= unsafe
    rng = random.Random(3)
    for name in ("hangman-easy", "hangman-medium", "hangman-hard"):
        wl = word_list(store, config, name, Choices.of({"count": 10**6}), printed=True)
        assert not {"beggars", "cents", "aunts"} & set(wl.words), name
        for word in rng.sample(wl.words, min(25, len(wl.words))):
            assert not misleading_by_brute_force(word.upper(), unsafe, known), (name, word)


def test_banned_finds_every_occurrence():
    """Banned.spelled finds each banned string inside a text, overlapping ones included."""
    banned = Banned.of({"ASS", "SSA", "XY"})
    assert banned.spelled("CLASSASS") == [(2, 5), (3, 6), (5, 8)]


@pytest.mark.slow
def test_the_review_worksheet_lists_the_undecided_pool_words(tmp_path):
    """python -m pipeline.wordlists.review lists a lexicon's children's words that have no decision yet (with
    WordNet's glosses when Debian's wordnet-base is installed), and a children's list says it left them out."""
    from pipeline.wordlists.review import WORDNET, main

    words = tmp_path / "class.txt"
    words.write_text("website\nsmartphone\nemail\nblog\n")
    data = tmp_path / "out"
    assert (
        run_cli("run", "--source", words, "--lexicon", "mine", "--data-dir", data, "ingest", "phonics").exit_code == 0
    )
    out = tmp_path / "sheet.tsv"
    assert main(["--lexicon", "mine", "--data-dir", str(data), "--out", str(out)]) == 0
    sheet = pl.read_csv(out, separator="\t")
    assert sheet["word"].to_list() == ["smartphone", "website"]
    if (WORDNET / "data.noun").is_file():
        assert "internet" in sheet.filter(pl.col("word") == "website")["senses"][0]
    res = run_cli("wordlist", "--lexicon", "mine", "--data-dir", data, "--grade", "K-5", "--csv")
    assert res.exit_code == 0 and "2 matching words left out: smartphone (no classroom review" in res.stderr
    assert {line.split(",")[0] for line in res.stdout.splitlines()[1:]} == {"blog", "email"}


@pytest.mark.slow
def test_a_teachers_own_list_names_every_word_it_leaves_out_and_can_keep_them(tmp_path):
    """A teacher's own word list printed as a sheet: every word left out is named with why, on the command line
    and on the sheet's teacher page; the worksheet (--every-word) lists each of them; Keep my words keeps the
    words the review has not read or leaves out, and never an offensive one."""
    from pipeline.wordlists.review import main

    words = tmp_path / "mine.txt"
    words.write_text("website\nsmartphone\nemail\nblog\nspank\nshit\n")
    data = tmp_path / "out"
    assert (
        run_cli("run", "--source", words, "--lexicon", "mine", "--data-dir", data, "ingest", "phonics").exit_code == 0
    )
    sheet = tmp_path / "sheet.md"
    res = run_cli("wordlist", "--lexicon", "mine", "--data-dir", data, "--out", sheet)
    why = {
        "shit": "offensive",
        "smartphone": "no classroom review decision yet",
        "spank": "the classroom review leaves it out",
        "website": "no classroom review decision yet",
    }
    assert res.exit_code == 0 and "4 matching words left out: " in res.stderr
    for word, reason in why.items():
        assert f"{word} ({reason}" in res.stderr and f"{word} ({reason}" in sheet.read_text().split("\n---\n")[-1]
    teacher, student = sheet.read_text().split("\n---\n")[-1], sheet.read_text().split("\n---\n")[0]
    assert all(w not in student for w in why) and teacher
    out = tmp_path / "every.tsv"
    assert main(["--lexicon", "mine", "--data-dir", str(data), "--out", str(out), "--every-word"]) == 0
    listed = pl.read_csv(out, separator="\t")
    assert sorted(listed["word"]) == sorted(why) and listed.filter(pl.col("word") == "spank")["review"][0]
    kept = run_cli("wordlist", "--lexicon", "mine", "--data-dir", data, "--out", sheet, "--keep-mine", "--force")
    assert kept.exit_code == 0 and "1 matching word left out: shit (offensive)" in kept.stderr
    student = sheet.read_text().split("\n---\n")[0]
    assert all(w in student for w in ("blog", "email", "smartphone", "spank", "website")) and "shit" not in student

"""The setter models and the guesser that learns its setter: the posterior against exact fractions, the one-game
kernel against the solver's, the benchmark against the built tables, and the command's errors."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.hangman import learning, setters
from pipeline.hangman.kernels import distinct_letters, hangman_game
from pipeline.hangman.solver import solve_codes, solve_plain
from pipeline.letters.trie import letter_codes
from tests.conftest import ROOT, ask, build_lexicon

TINY = ("BAD", "BED", "BID", "CAT", "COT", "CUT", "DOG")


def lexicon_of(words) -> setters.Lexicon:
    """A Lexicon of these words (sorted), zipf 0."""
    words = tuple(sorted(words))
    return setters.Lexicon(words, np.array([len(w) for w in words], dtype=np.int64), np.zeros(len(words)))


def model(name: str, weights) -> setters.Setter:
    """A setter model with these integer weights."""
    return setters.setter(name, name, np.array(weights, dtype=np.int64))


# ---- the posterior -------------------------------------------------------------------------------------------


def exact_posterior(weights: list[list[int]], secrets: list[int]) -> list[Fraction]:
    """The posterior over models after these games, in exact fractions: uniform prior, each model's word
    probability smoothed by FLOOR, the product over the games, normalised."""
    floor = Fraction(learning.FLOOR)
    n = len(weights[0])
    scores = []
    for w in weights:
        total = sum(w)
        likelihood = Fraction(1)
        for s in secrets:
            likelihood *= (1 - floor) * Fraction(w[s], total) + floor / n
        scores.append(likelihood)
    return [x / sum(scores) for x in scores]


def test_posterior_matches_exact_fractions():
    weights = [[1] * 7, [0, 0, 0, 5, 3, 1, 1], [1, 1, 1, 0, 0, 0, 0]]
    models = [model(f"m{i}", w) for i, w in enumerate(weights)]
    probabilities = learning.model_probabilities(models)
    secrets = [0, 1, 3, 2, 0, 6]
    rows = learning.posteriors(probabilities, np.array(secrets))
    for k in range(len(secrets) + 1):
        expected = [float(x) for x in exact_posterior(weights, secrets[:k])]
        assert rows[k].tolist() == pytest.approx(expected, rel=1e-12, abs=1e-300)
    assert rows[0].tolist() == [1 / 3] * 3
    # a word outside a model's support lowers it but does not rule it out (the floor)
    assert 0 < rows[3][2] < rows[2][2] / 50


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 9), min_size=6, max_size=6).filter(any), min_size=1, max_size=4),
    st.lists(st.integers(0, 5), max_size=30),
)
def test_posterior_is_a_distribution_whatever_the_order(weights, secrets):
    probabilities = learning.model_probabilities([model(f"m{i}", w) for i, w in enumerate(weights)])
    rows = learning.posteriors(probabilities, np.array(secrets, dtype=np.int64))
    assert rows.shape == (len(secrets) + 1, len(weights))
    assert np.all(rows >= 0)
    assert np.allclose(rows.sum(axis=1), 1.0)
    shuffled = random.Random(len(secrets)).sample(secrets, len(secrets))
    again = learning.posteriors(probabilities, np.array(shuffled, dtype=np.int64))
    assert np.allclose(again[-1], rows[-1])  # the games are exchangeable: only which words were set counts
    if all(w == weights[0] for w in weights):
        assert np.allclose(rows, 1 / len(weights))  # models that agree stay alike


# ---- the one-game kernel -------------------------------------------------------------------------------------


def one_length(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' view of words of one length."""
    codes = letter_codes(words).astype(np.int8)
    distinct, n_distinct = distinct_letters(codes)
    return codes, distinct, n_distinct


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.lists(st.text("ABCDEFG", min_size=n, max_size=n), min_size=1, max_size=40, unique=True)
    ),
    st.lists(st.integers(0, 5), min_size=40, max_size=40),
)
def test_one_game_is_the_solvers_game(words, raw):
    words = sorted(words)
    weights = np.array(raw[: len(words)], dtype=np.int64)
    weights[0] = max(weights[0], 1)
    codes, distinct, n_distinct = one_length(words)
    misses, guesses, _ = solve_codes(words, weights)
    plain = solve_plain(words, dict(zip(words, weights.tolist()))) if weights.all() else None
    for i, word in enumerate(words):
        if weights[i] == 0:
            continue  # a word the setter never sets: the solver's path to it is not a game
        assert hangman_game(codes, distinct, n_distinct, weights, i) == (misses[i], guesses[i])
        if plain is not None:
            assert plain[word][:2] == (misses[i], guesses[i])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text("ABCDE", min_size=1, max_size=4), min_size=1, max_size=30, unique=True),
    st.lists(st.lists(st.integers(1, 3), min_size=30, max_size=30), min_size=1, max_size=4),
    st.sets(st.integers(1, 4)),
)
def test_solved_lengths_are_the_solvers_misses_whatever_was_seen_before(words, rounds, lengths):
    lex = lexicon_of(words)
    solved = learning.Solved(lex)
    support = np.isin(lex.lengths, sorted(lengths))
    for raw in rounds + rounds:  # each weighting twice: the second from what was kept
        weights = np.array(raw[: len(words)], dtype=np.int64)
        misses, _, _ = solve_codes(list(lex.words), weights)
        assert solved.misses(weights).tolist() == misses.tolist()
        assert solved.misses(weights, support=support).tolist() == np.where(support, misses, 0).tolist()


def test_the_mixture_is_exact_in_units():
    models = [model("a", [1, 0, 0, 0, 0, 0, 0]), model("b", [1] * 7)]
    probabilities = learning.model_probabilities(models)
    weights = learning.mixture(np.array([0.5, 0.5]), probabilities)
    assert weights.dtype == np.int64 and np.all(weights > 0)
    assert weights.sum() == pytest.approx(learning.UNIT, abs=len(weights))  # the mixture sums to one
    f = learning.FLOOR
    first, other = 0.5 * ((1 - f) + f / 7) + 0.5 / 7, 0.5 * f / 7 + 0.5 / 7
    assert weights.tolist() == [round(first * 2**52)] + [round(other * 2**52)] * 6


# ---- setters -------------------------------------------------------------------------------------------------


def test_a_seeded_setter_draws_by_its_weights():
    lex = lexicon_of(TINY)
    s = model("frequency", [1, 2, 7, 0, 0, 0, 0])
    drawn = s.draw(5, 50_000)
    assert np.array_equal(drawn, s.draw(5, 50_000))
    assert not np.array_equal(drawn, s.draw(6, 50_000))
    counts = np.bincount(drawn, minlength=len(lex.words))
    assert counts[3:].sum() == 0  # never a word outside its support
    assert counts[:3] / 50_000 == pytest.approx([0.1, 0.2, 0.7], abs=0.01)
    assert np.array_equal(s.draw(5, 100)[:40], s.draw(5, 40))  # more games extend the same sequence


def test_setter_models_of_a_lexicon(tmp_path):
    lex = lexicon_of(TINY)
    assert setters.uniform(lex).probabilities.tolist() == [1 / 7] * 7
    assert setters.children(lex, frozenset({"CAT", "DOG", "ZEBRA"})).weights.tolist() == [0, 0, 0, 1, 0, 0, 1]
    assert setters.hard(lex, np.array([7, 2, 4, 3, 5, 1, 6])).weights.tolist() == [0, 0, 0, 0, 0, 1, 0]
    plurals, fives = ["BADS", "BEDS", "BIDS"], [c * 5 for c in "ABCDEFGHIJK"]
    mixed = lexicon_of(plurals + fives)
    rank = {"BEDS": 1, "BADS": 2, "BIDS": 3} | {w: i + 1 for i, w in enumerate(reversed(fives))}
    chosen = setters.hard(mixed, np.array([rank[w] for w in mixed.words]))
    hardest = {w for w, x in zip(mixed.words, chosen.weights) if x}
    assert hardest == {"BEDS", "KKKKK", "JJJJJ"}  # ceil(10% of 3) = 1 and ceil(10% of 11) = 2
    path = tmp_path / "mine.txt"
    path.write_text("cat dog # pets\nzebra\nDON'T\n")
    words = setters.read_list(path)
    assert words == ["CAT", "DOG", "DON'T", "ZEBRA"]
    listed, left_out = setters.listed(lex, words, path)
    assert (listed.weights.tolist(), left_out) == ([0, 0, 0, 1, 0, 0, 1], 2)
    csv = tmp_path / "mine.csv"
    csv.write_text("word,level\nbed,1\ncut,2\n")
    assert setters.read_list(csv) == ["BED", "CUT"]
    csv.write_bytes("\ufeffWord,level\nbed,1\ncut,2\n".encode())  # a byte order mark, a capital W
    assert setters.read_list(csv) == ["BED", "CUT"]


@pytest.mark.parametrize(
    "name, text, says",
    [
        ("none.txt", None, "word list not found"),
        ("empty.txt", "# nothing\n", "holds no words"),
        ("bad.csv", "name\ncat\n", "needs a `word` column"),
        ("latin1.txt", b"caf\xe9\n", "not UTF-8"),
        ("folder", "", "is a directory"),
        ("huge.csv", "word\n" + "x" * 140_000 + "\n", "not a readable CSV word list"),
    ],
)
def test_bad_word_lists_are_one_line_errors(tmp_path, name, text, says):
    from pipeline.core.errors import WordstatsError

    path = tmp_path / name
    if name == "folder":
        path.mkdir()
    elif isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    with pytest.raises(WordstatsError, match=says):
        setters.read_list(path)


def test_a_setter_with_no_word_of_the_lexicon_is_refused():
    from pipeline.core.errors import WordstatsError

    with pytest.raises(WordstatsError, match="none of its words is in the lexicon"):
        setters.children(lexicon_of(TINY), frozenset({"ZEBRA"}))


# ---- games to within 5% of the oracle ------------------------------------------------------------------------


def test_checkpoints():
    assert learning.checkpoints(5) == [0, 1, 2, 3, 4, 5]
    assert learning.checkpoints(1000)[29:] == [29, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 500, 600, 800, 1000]
    assert learning.checkpoints(45)[-3:] == [30, 40, 45]


def slow_games_to_oracle(curve: list[tuple[int, float]], oracle: float) -> int | None:
    """The definition: the first checkpoint from which every later one is within 5%."""
    for i, (k, _) in enumerate(curve):
        if all(e <= 1.05 * oracle for _, e in curve[i:]):
            return k
    return None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.floats(1.0, 3.0), min_size=1, max_size=40), st.floats(1.0, 3.0))
def test_games_to_oracle_is_its_definition(expected, oracle):
    curve = list(enumerate(expected))
    assert learning.games_to_oracle(curve, oracle) == slow_games_to_oracle(curve, oracle)


# ---- on a built lexicon --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every 25th moby word through ingest and hangman (small config): (data dir, lexicon, hangman table)."""
    moby = (ROOT / "data" / "raw" / "moby-words.txt").read_text().split()
    data = build_lexicon(tmp_path_factory.mktemp("learning") / "out", sorted(set(moby[::25])), "hangman")
    table = pl.read_parquet(data / "t" / "hangman.parquet").sort("word")
    words = pl.read_parquet(data / "t" / "words.parquet").sort("word")
    lex = setters.Lexicon(
        tuple(words["word"].to_list()), words["length"].cast(pl.Int64).to_numpy(), words["zipf"].to_numpy()
    )
    return data, lex, table


def models_of(lex: setters.Lexicon, table: pl.DataFrame) -> list[setters.Setter]:
    """The four built-in models on the built lexicon (children: the words of the classroom review it holds)."""
    from pipeline.core.config import load_config
    from pipeline.words.classroom import classroom_vocabulary, excluded_words, load_classroom

    classroom = load_classroom(load_config(ROOT / "tests" / "configs" / "small.toml"))
    kept = classroom_vocabulary(classroom).kept - excluded_words(classroom)
    rank = table["rank_in_length"].to_numpy()
    return [setters.uniform(lex), setters.frequency(lex), setters.children(lex, kept), setters.hard(lex, rank)]


@pytest.mark.slow  # builds a lexicon
def test_oracle_and_uniform_guessers_are_the_two_solvers(built):
    _, lex, table = built
    models = models_of(lex, table)
    run = learning.benchmark(lex, models, 1, 400, 3)
    by_word = table.select("word", "misses", "misses_weighted")
    secrets = pl.DataFrame({"word": [lex.words[i] for i in run.secrets]}).join(by_word, on="word", how="left")
    assert run.oracle.tolist() == secrets["misses_weighted"].to_list()  # the frequency-weighted solver's misses
    assert run.uniform.tolist() == secrets["misses"].to_list()  # the reference solver's


@pytest.mark.slow  # builds a lexicon
@pytest.mark.parametrize("truth", range(4))
def test_the_learner_converges_to_the_true_setter(built, truth):
    _, lex, table = built
    models = models_of(lex, table)
    run = learning.benchmark(lex, models, truth, 300, 11)
    assert run.posterior[truth] > 0.99
    path = learning.posteriors(learning.model_probabilities(models), run.secrets)
    assert all(int(np.argmax(p)) == truth for p in path[60:])  # and stays there
    assert run.games_to_oracle is not None and run.games_to_oracle <= 30
    expected = dict(run.curve)
    assert abs(expected[300] - run.expected_oracle) <= 0.02 * run.expected_oracle
    q = models[truth].probabilities  # the expected misses are those of playing each word
    codes = {n: g for n, g in learning.groups(lex)[0].items()}
    weights = learning.mixture(path[300], learning.model_probabilities(models))
    from pipeline.hangman.kernels import hangman_game

    played = 0.0
    for group in codes.values():
        for r, i in enumerate(group.indices.tolist()):
            if q[i] > 0:
                misses, _ = hangman_game(group.codes, group.distinct, group.n_distinct, weights[group.indices], r)
                played += q[i] * misses
    assert played == pytest.approx(expected[300], rel=1e-12)


@pytest.mark.slow  # builds a lexicon
def test_cli_benchmark(cli, built, tmp_path):
    data, lex, _ = built
    words = tmp_path / "words.txt"
    words.write_text("\n".join(lex.words[::7]) + "\nnotaword\n")
    res = ask(cli, data, "hangman-learn", "--games", "120", "--seed", "2", "--list", words, "--json")
    assert res.exit_code == 0, res
    rows = json.loads(res.stdout)
    assert [r["setter"] for r in rows] == ["uniform", "frequency", "children", "hard", "list"]
    assert "1 words of words.txt are not in lexicon 't': left out" in res.stderr
    for r in rows:
        assert r["games"] == 120 and 0.0 <= r["posterior"] <= 1.0
        assert r["extra_misses"] == round(120 * (r["learning"] - r["oracle"]))
    again = ask(
        cli, data, "hangman-learn", "--games", "120", "--seed", "2", "--list", words, "--setter", "HARD", "--csv"
    )
    assert again.exit_code == 0, again
    hard = pl.read_csv(again.stdout.encode()).to_dicts()
    assert hard == [r for r in rows if r["setter"] == "hard"]  # a setter's games depend on the seed and its name


@pytest.mark.parametrize(
    "args, says",
    [
        (["--setter", "bogus"], "--setter 'bogus': choose uniform, frequency, children, hard or list"),
        (["--setter", "list"], "--setter list needs --list FILE"),
        (["--games", "0"], "--games"),
        (["--games", "99999999999"], "--games"),
        (["--list", "/no/such/list.txt"], "/no/such/list.txt: word list not found"),
    ],
)
def test_cli_errors(cli, tmp_path, args, says):
    from tests.conftest import SMALL_CONFIG

    data = tmp_path / "out"
    if "--list" in args:  # a missing list is found after the tables are opened
        build_lexicon(data, list(TINY), "hangman")
    res = cli("hangman-learn", *args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG)
    assert res.exit_code == 2, res
    assert says in res.stderr and len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_cli_needs_the_hangman_table(cli, build):
    data = build(list(TINY), "ingest")
    res = ask(cli, data, "hangman-learn", "--games", "5")
    assert res.exit_code == 2, res
    assert "need hangman.parquet" in res.stderr and "wordstats run hangman --lexicon t" in res.stderr

"""Hangman: every word's difficulty by two solvers, and the hangman command."""

from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.settings import Setting

GALLOWS = 6  # misses a classic gallows allows: head, body, two arms, two legs

SETTINGS = (
    Setting("hangman", "bands", "text", "tertiles",
            'band within each length: "tertiles" (thirds by percentile_in_length) or "misses"',
            choices=("tertiles", "misses")),
    Setting("hangman", "easy_max_misses", "integer", 1, 'bands = "misses": at most this many misses is easy',
            lo=0, hi=25),
    Setting("hangman", "hard_min_misses", "integer", 4, 'bands = "misses": at least this many misses is hard',
            lo=1, hi=26),
    Setting("hangman", "prior", "text", "wordfreq",
            'weighted solver\'s setter prior: "wordfreq" (weight ∝ 10^zipf) or "uniform"',
            choices=("wordfreq", "uniform")),
    Setting("hangman", "unknown_zipf", "number", 0.0,
            "zipf given to words wordfreq does not know (zipf 0.0 in words.parquet)", lo=0.0, hi=9.0),
    Setting("hangman", "gallows", "integer", GALLOWS,
            "misses a classic gallows allows (hangman_summary.json: share solved within it; the report)",
            lo=0, hi=26),
    Setting("hangman", "summary_hardest", "integer", 10, "hardest words listed per length in hangman_summary.json",
            lo=0, hi=1000),
    Setting("hangman", "common_zipf", "number", 3.0, "`wordstats hangman --common`: words with zipf at least this",
            lo=0.0, hi=9.0),
    Setting("hangman", "optimal_states", "integer", 1000,
            "the optimal search's budget of states per length (0: none); optimal_misses is null for a length it "
            "does not prove (docs/data/hangman_optimal_*.csv: longer runs)", lo=0, hi=1 << 40),
    Setting("hangman", "optimal_max_words", "integer", 6000,
            "lengths with more words than this are not searched (they would not prove)", lo=0, hi=1 << 40),
)  # fmt: skip

MANIFEST = Manifest(
    "hangman",
    sections=("hangman",),
    stages=(
        Stage(
            "hangman",
            "pipeline.hangman.stage",
            ("words",),
            ("hangman.parquet", "hangman_summary.json"),
            description="Hangman difficulty of every word (two solvers)",
            word_list=True,
        ),
        Stage(
            "hangman_children",
            "pipeline.hangman.children",
            ("words", "phonics"),
            ("hangman_children.parquet",),
            description="Hangman difficulty within the children's pool (the children's Hangman lists)",
            word_list=True,
        ),
    ),
    tables=(
        Table(
            "hangman",
            {
                "word": ("str", "the word"),
                "length": ("i32", "number of letters"),
                "misses": ("i32", "wrong guesses the reference solver makes"),
                "guesses": ("i32", "guesses the reference solver makes"),
                "sequence": ("str", "the solver's guesses in order"),
                "expected_misses": ("f64", "expected wrong guesses when the solver breaks ties at random"),
                "rank_in_length": ("i32", "rank among words of this length (1 = hardest)"),
                "percentile_in_length": ("f64", "percentile among words of this length"),
                "band": ("str", "easy, medium or hard"),
                "misses_weighted": ("i32", "wrong guesses of the frequency-weighted solver"),
                "guesses_weighted": ("i32", "guesses of the frequency-weighted solver"),
                "sequence_weighted": ("str", "the weighted solver's guesses"),
                "heuristic_score": ("i32", "difficulty by letter rarity"),
                "heuristic_band": ("str", "band by the heuristic"),
                "optimal_misses": ("i32", "wrong guesses under the optimal strategy (null unless proved)"),
                "optimal_guesses": ("i32", "guesses under the optimal strategy (null unless proved)"),
                "optimal_sequence": ("str", "the optimal strategy's guesses (null unless proved)"),
            },
            sorted_by=("word",),
        ),
        Table(
            "hangman_children",
            {
                "word": ("str", "a word of the children's pool (grade K to 4, kept by the classroom review)"),
                "band": ("str", "easy, medium or hard: the pool's thirds by expected_misses, misses, guesses"),
                "expected_misses": ("f64", "expected wrong guesses against the pool, ties broken at random"),
                "misses": ("i32", "wrong guesses of the reference solver against the pool"),
                "guesses": ("i32", "guesses of the reference solver against the pool"),
            },
            sorted_by=("word",),
        ),
    ),
    commands={"pipeline.cli.hangman": ("hangman", "hangman-learn")},
    settings=SETTINGS,
    warmup=(
        ("hangman", "CAT", "--json"),
        ("hangman-learn", "--games", "3", "--json"),
        # the per-length reference tool (docs/hangman.md): the optimal search's and the minimax's kernels
        ("-m", "pipeline.hangman.lengths", "{lexicon}", "--states", "50", "--adversary-states", "50")
        + ("--data-dir", "{data}", "--out", "{tmp}/lengths.csv"),
    ),
)

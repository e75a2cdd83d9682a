"""Hangman: every word's difficulty by two solvers, and the hangman command."""

from pipeline.core.manifest import Manifest, Stage, Table

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
    ),
    commands={"pipeline.cli.hangman": ("hangman", "hangman-learn")},
    warmup=(
        ("hangman", "CAT", "--json"),
        ("hangman-learn", "--games", "3", "--json"),
        # the per-length reference tool (docs/hangman.md): the optimal search's and the minimax's kernels
        ("-m", "pipeline.hangman.lengths", "{lexicon}", "--states", "50", "--adversary-states", "50")
        + ("--data-dir", "{data}", "--out", "{tmp}/lengths.csv"),
    ),
)

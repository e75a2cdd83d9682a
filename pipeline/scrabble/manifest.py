"""Scrabble: the GADDAG, leave values, best openings and self-play, and the scrabble commands."""

from pipeline.core.manifest import Manifest, Stage, Table

MANIFEST = Manifest(
    "scrabble",
    sections=("scrabble", "playability"),
    stages=(
        Stage(
            "gaddag",
            "pipeline.scrabble.lexicon.stage",
            ("words",),
            ("gaddag.parquet",),
            description="the GADDAG for Scrabble move generation",
        ),
        Stage(
            "leaves",
            "pipeline.scrabble.equity.stage",
            ("words", "gaddag"),
            ("leaves.parquet", "leaves_games.zip"),
            description="leave values from rounds of greedy and equity self-play (and games as GCG)",
        ),
        Stage(
            "playability",
            "pipeline.scrabble.playability.stage",
            ("words", "gaddag", "leaves"),
            ("playability.parquet", "playability_summary.json"),
            description="the points lost without each word over seeded games between equity players",
        ),
        Stage(
            "scrabble",
            "pipeline.scrabble.stage",
            ("words", "gaddag"),
            ("openings.parquet", "selfplay.parquet", "selfplay_summary.json"),
            optional_inputs=("leaves",),
            description="best opening scores, self-play games (greedy or by equity)",
        ),
    ),
    tables=(
        Table(
            "gaddag",
            {
                "arc": ("i32", "a packed arc: child node, last-arc and end-of-word bits, tile"),
            },
        ),
        Table(
            "leaves",
            {
                "leave": ("str", "the tiles kept: letters sorted, ? (blanks) last"),
                "length": ("i32", "tiles in the leave"),
                "value": ("f64", "the leave's value in points, relative to keeping nothing"),
                "count": ("i32", "observations"),
                "observed": ("f64", "mean target minus the empty leave's worth (null when unobserved)"),
                "ci_low": ("f64", "lower end of the 95% interval of observed"),
                "ci_high": ("f64", "upper end of the 95% interval of observed"),
                "prior": ("f64", "the additive model's value, less the empty leave's worth"),
                "se": ("f64", "standard error of value: the observations' and the additive model's"),
            },
        ),
        Table(
            "playability",
            {
                "word": ("str", "the word"),
                "playability": ("f64", "points the players would have lost over the games without it"),
                "turns": ("i32", "turns whose best move formed it"),
                "rank": ("i32", "1 = most points; equal playability, equal rank"),
            },
            sorted_by=("word",),
        ),
        Table(
            "openings",
            {
                "word": ("str", "the word"),
                "length": ("i32", "number of letters"),
                "scrabble_score": ("i32", "best opening score in Scrabble"),
                "scrabble_position": ("str", "where that play goes"),
                "scrabble_blanks": ("i32", "blanks it needs from a full bag"),
                "scrabble_bingo": ("bool", "whether it uses all seven tiles"),
                "wwf_score": ("i32", "best opening score in Words With Friends"),
                "wwf_position": ("str", "where that play goes"),
                "wwf_blanks": ("i32", "blanks it needs"),
                "wwf_bingo": ("bool", "whether it uses all seven tiles"),
            },
            variant_columns={"_score": "i32", "_position": "str", "_blanks": "i32", "_bingo": "bool"},
            sorted_by=("word",),
        ),
        Table(
            "selfplay",
            {
                "variant": ("str", "game variant"),
                "game": ("i32", "game number"),
                "score_1": ("i32", "final score of player 1"),
                "score_2": ("i32", "final score of player 2"),
                "winner": ("i32", "1, 2, or 0 for a tie"),
                "moves": ("i32", "number of moves"),
                "move_points": ("i32", "points scored by plays"),
                "bingos": ("i32", "number of bingos"),
                "exchanges": ("i32", "number of exchanges"),
                "passes": ("i32", "number of passes"),
                "plays": ("list[str]", "the moves in notation"),
            },
        ),
    ),
    commands={"pipeline.cli.scrabble": ("scrabble",)},
    warmup=(
        ("scrabble", "best", "--empty", "--rack", "RETAIN?", "--json"),
        ("scrabble", "best", "--empty", "--rack", "RETAINS", "--equity", "--json"),
        ("scrabble", "best", "--empty", "--rack", "RETAINS", "--sim", "2", "--candidates", "2", "--json"),
        ("scrabble", "selfplay", "--games", "1", "--json", "--quiet"),
        ("scrabble", "selfplay", "--games", "1", "--first", "equity", "--second", "equity", "--json", "--quiet"),
        ("scrabble", "playability", "--games", "2", "--quiet"),
        ("scrabble", "leaves", "--games", "2", "--rounds", "2", "--quiet"),
    ),
)

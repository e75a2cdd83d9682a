"""The toy game: how many words start with each letter (initials.parquet), and the `toy` command."""

from pipeline.core.manifest import Manifest, Stage, Table

MANIFEST = Manifest(
    "toy",
    sections=("toy",),
    stages=(
        Stage(
            "toy",
            "pipeline.toy.stage",
            ("words",),
            ("initials.parquet",),
            description="how many words start with each letter",
        ),
    ),
    tables=(
        Table(
            "initials",
            {
                "letter": ("str", "a first letter"),
                "words": ("i32", "words of at least min_length letters that start with it"),
            },
            sorted_by=("letter",),
        ),
    ),
    commands={"pipeline.toy.cli": ("toy",)},
)

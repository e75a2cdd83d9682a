"""The children's word pool, which every game may read: the words of grade K to 4 (Dolch and Dale-Chall familiar
words, from the phonics table) that pass the block list and the topics and that the classroom review keeps."""

from __future__ import annotations

import polars as pl

from pipeline.words.classroom import Classroom, classroom_vocabulary, exclusions

CHILDREN_GRADE = 4  # the children's pool: grade K to 4, the words familiar to fourth graders


def children_pool(words: pl.LazyFrame, phonics: pl.LazyFrame, classroom: Classroom) -> list[str]:
    """The children's pool of a lexicon (its words and its phonics table's grades), sorted."""
    grades = phonics.filter(pl.col("grade").is_between(0, CHILDREN_GRADE)).select("word")
    kept = sorted(classroom_vocabulary(classroom).kept)
    pool = words.select("word").join(grades, on="word", how="semi").filter(exclusions(classroom).keep())
    return sorted(pool.filter(pl.col("word").is_in(kept)).collect()["word"].to_list())

"""The review worksheet: every word of a lexicon's children's pool that has no classroom decision yet, with the
signals a reviewer reads beside it (block-list hits, WordNet usage and topic labels, glosses).

    python -m pipeline.wordlists.review --lexicon mine [--every-word] [--data-dir DIR] [--out sheet.tsv]

With --every-word it lists every word of the lexicon a children's list or a printed sheet leaves out: those with
no decision and those the review excludes (column `review`), with the block list's reason beside each.

WordNet 3.0 is read from the database files of Debian's `wordnet-base` (/usr/share/wordnet) when present; the
worksheet serves the word-by-word read, and only the decisions a reviewer writes go into the review file
(docs/wordlists.md). `make all` needs none of this."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

WORDNET = Path("/usr/share/wordnet")
PARTS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
POOL_GRADES = (0, 5)  # the grades a children's list reaches (and the Dolch words)
GLOSSES = 5  # senses shown per word
GLOSS_CHARS = 70


@dataclass
class WordNet:
    """The senses of each lemma, most frequent first: (part of speech, gloss, usage labels, topic labels)."""

    senses: dict[str, list[tuple[str, str, frozenset[str], frozenset[str]]]] = field(default_factory=dict)


def read_wordnet(root: Path = WORDNET) -> WordNet | None:
    """WordNet's senses from its database files, or None when they are not installed."""
    if not (root / "data.noun").is_file():
        return None
    synsets: dict[tuple[str, str], tuple[list[str], list[tuple[str, str, str]], str]] = {}
    for part, p in PARTS.items():
        for line in (root / f"data.{part}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            head, _, gloss = line.partition(" | ")
            f = head.split()
            n = int(f[3], 16)
            words = [f[4 + 2 * i].lower() for i in range(n)]
            i = 4 + 2 * n
            pointers = [(f[i + 1 + 4 * k], f[i + 2 + 4 * k], f[i + 3 + 4 * k]) for k in range(int(f[i]))]
            synsets[(p, f[0])] = (words, pointers, gloss.strip())
    name = {key: words[0] for key, (words, _, _) in synsets.items()}
    wn = WordNet()
    for part, p in PARTS.items():
        for line in (root / f"index.{part}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            f = line.split()
            offsets = f[4 + int(f[3]) + 2 :]
            for offset in offsets:
                words, pointers, gloss = synsets[(p, offset)]
                usage = frozenset(name.get(_key(pp, o), "?") for sym, o, pp in pointers if sym == ";u")
                topic = frozenset(name.get(_key(pp, o), "?") for sym, o, pp in pointers if sym == ";c")
                wn.senses.setdefault(f[0], []).append((p, gloss.split(";")[0].strip('" '), usage, topic))
    return wn


def _key(part: str, offset: str) -> tuple[str, str]:
    """A synset key from a pointer's part of speech (satellite adjectives are adjectives)."""
    return ("a" if part == "s" else part, offset)


def pool(data_dir: Path, lexicon: str) -> list[str]:
    """The lexicon's children's pool: words of grade K to 5 and the Dolch words (phonics.parquet)."""
    table = pl.read_parquet(data_dir / lexicon / "phonics.parquet", columns=["word", "grade", "dolch"])
    lo, hi = POOL_GRADES
    return table.filter(pl.col("grade").is_between(lo, hi) | pl.col("dolch").is_not_null())["word"].to_list()


def worksheet(
    words: list[str], reasons: dict[str, str], wn: WordNet | None, decisions: dict[str, str] | None = None
) -> pl.DataFrame:
    """One row per word: the review's decision (empty: none yet), its lemmas, the block list's reason, WordNet's
    labels and first glosses."""
    import lemminflect

    rows = defaultdict(list)
    for word in words:
        w = word.lower()
        lemmas = {lemma.lower() for forms in lemminflect.getAllLemmas(w).values() for lemma in forms} | {w}
        senses = [
            s for lemma in sorted(lemmas, key=lambda x: (x != w, x)) for s in (wn.senses.get(lemma, []) if wn else [])
        ]
        rows["word"].append(w)
        rows["review"].append((decisions or {}).get(word, ""))
        rows["lemmas"].append(" ".join(sorted(lemmas - {w})))
        rows["blocklist"].append(reasons.get(word, ""))
        rows["usage"].append(" ".join(sorted({u for s in senses for u in s[2]})))
        rows["topics"].append(" ".join(sorted({t for s in senses for t in s[3]})))
        rows["senses"].append(" | ".join(f"{p}:{g[:GLOSS_CHARS]}" for p, g, _, _ in senses[:GLOSSES]))
    return pl.DataFrame(
        rows, schema={k: pl.String for k in ("word", "review", "lemmas", "blocklist", "usage", "topics", "senses")}
    )


def main(argv: list[str] | None = None) -> int:
    """Write the worksheet of a lexicon's unreviewed children's words (tab-separated) to --out or stdout."""
    from pipeline.core.config import load_config, resolve_data_dir
    from pipeline.core.errors import WordstatsError
    from pipeline.wordlists.settings import load_settings
    from pipeline.words.classroom import classroom_vocabulary, exclusions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", required=True)
    parser.add_argument("--config")
    parser.add_argument("--data-dir")
    parser.add_argument("--out")
    parser.add_argument("--every-word", action="store_true", help="every word a printed sheet leaves out")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
        data_dir, _ = resolve_data_dir(Path(args.data_dir) if args.data_dir else None, config.path)
        settings = load_settings(config)
        vocab = classroom_vocabulary(settings.classroom)
        if args.every_word:
            every = pl.read_parquet(data_dir / args.lexicon / "words.parquet", columns=["word"])["word"].to_list()
            words = sorted(set(every) - vocab.kept)
        else:
            words = sorted(set(pool(data_dir, args.lexicon)) - set(vocab.decisions))
    except (WordstatsError, OSError, pl.exceptions.PolarsError) as exc:
        print(f"error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    excl = exclusions(settings.classroom)
    wn = read_wordnet()
    if wn is None:
        print(
            f"note: WordNet not found in {WORDNET} (Debian's wordnet-base): no usage labels or glosses", file=sys.stderr
        )
    excluded = {w: f"excluded: {vocab.excluded[w]}" for w in words if w in vocab.excluded}
    sheet = worksheet(words, {w: r for w in words if (r := excl.reason(w))}, wn, excluded)
    text = sheet.write_csv(separator="\t")
    if args.out:
        from pipeline.core.files import write_text

        write_text(Path(args.out), text)
    else:
        sys.stdout.write(text)
    what = "words a printed sheet leaves out" if args.every_word else "children's words have no decision yet"
    print(f"{sheet.height:,} {what} ({args.lexicon})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

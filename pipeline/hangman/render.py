"""How Hangman results read: a game's heading and closing line, and its JSON object."""

from __future__ import annotations

from typing import Any

from pipeline.hangman.api import Game


def counted(n: int, noun: str, nouns: str) -> str:
    """'1 miss', '4 misses', '1,000 guesses'."""
    return f"1 {noun}" if n == 1 else f"{n:,} {nouns}"


def game_heading(g: Game) -> str:
    """The line above a game's steps: the word, its candidates, the solver and the empty pattern."""
    solver = "frequency-weighted solver" if g.weighted else "reference solver"
    return (
        f"{g.word}: {g.length} letters, {g.candidates:,} candidates in {g.lexicon} ({solver}), "
        f"start {' '.join('_' * g.length)}"
    )


def game_verdict(g: Game) -> str:
    """The line below a game's steps: misses and guesses, the sequence, and the word's rank when built."""
    rank = ""
    if g.ranking:
        by = " by the reference solver" if g.weighted else ""
        fair = g.ranking.get("expected_misses")
        expected = f"; {fair:.3g} misses expected when ties are broken at random" if fair is not None else ""
        rank = (
            f"{expected}; rank {g.ranking['rank_in_length']:,} of the {g.length}-letter words{by} (1 = hardest), "
            f"band {g.ranking['band']}"
        )
    return (
        f"solved: {counted(g.misses, 'miss', 'misses')} in {counted(g.guesses, 'guess', 'guesses')} "
        f"({g.sequence or 'no guess needed'}){rank}"
    )


def optimal_heading(g: Game) -> str:
    """The line above the optimal strategy's steps (the strategy with the fewest expected misses)."""
    return f"optimal strategy (fewest expected misses over the {g.length}-letter words of {g.lexicon}, proved):"


def optimal_verdict(g: Game) -> str:
    """The line below the optimal strategy's steps: its misses and guesses beside the solver's."""
    o = g.optimal_facts() or {}
    return (
        f"optimal: {counted(o['misses'], 'miss', 'misses')} in {counted(o['guesses'], 'guess', 'guesses')} "
        f"({o['sequence'] or 'no guess needed'}); the solver above: {counted(g.misses, 'miss', 'misses')}"
    )


def game_json(g: Game) -> dict[str, Any]:
    """The game as one JSON object: its facts, its steps, then the optimal strategy's game (null when unknown,
    with the reason in optimal_note)."""
    optimal = g.optimal_facts()
    if optimal is not None and g.optimal is not None:
        optimal["steps"] = g.optimal.to_dicts()
    found = {"optimal": optimal} if optimal is not None else {"optimal": None, "optimal_note": g.optimal_note}
    return {**g.facts(), "steps": g.steps.to_dicts(), **found}

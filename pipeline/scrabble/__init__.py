"""Scrabble: variants and layouts, boards and racks, rules and scoring, move generation, openings, self-play."""

"""Scrabble's rules and board: variants (tile sets, premium layouts), boards and racks, notation, legality and
scores, and the best opening of every word."""

"""Scrabble records for people: GCG game records (read, written, replayed with every score checked), and boards
drawn as text, in colour on a terminal, and as SVG and PNG pictures."""

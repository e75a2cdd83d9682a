"""Scrabble games: the Strategy seam by which players choose their moves, the one game loop every game goes
through (a numba kernel), games as checked turns, seeded self-play games as a sharded job and their summary."""

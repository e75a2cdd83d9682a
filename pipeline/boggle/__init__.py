"""Boggle: rules and dice, boards, the dictionary, the solver kernel, random boards, best-board search."""

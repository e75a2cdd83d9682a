"""Anagrams: the alphagram index, prefixes, hooks, bingo stems, and the word-finding queries."""

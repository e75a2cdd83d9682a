"""Letters and tiles: the alphabet, tile sets and bag arithmetic, racks, the letter trie."""

"""Equity and leave values: what keeping a set of tiles is worth (one LeaveValues type, learnt from rounds of
seeded self-play by the leaves job and stage), the equity strategy, and moves ranked by score plus leave value."""

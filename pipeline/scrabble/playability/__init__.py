"""Playability: the points a player would lose over many games by not knowing each word (Zyzzyva's playability
order), measured in seeded self-play games between equity players, as a sharded job and a stage."""

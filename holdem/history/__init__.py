"""Hand histories: a finished hand replayed through the engine from its record, so every amount
written or shown is the engine's own, to the chip (replay, story, pokerstars, replayer)."""

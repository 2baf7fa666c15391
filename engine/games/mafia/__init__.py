"""Classic Mafia: the 16-card party game of hidden roles, with the engine as its host."""

"""arbiter's engine: the game-independent core and the games' rules. No Click, no printing."""

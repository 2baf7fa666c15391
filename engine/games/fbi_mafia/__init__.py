"""FBI vs Mafia: the team mode of a hidden-identity grid deduction game."""

"""Magic Maze: Hidden Roles: the role deck, and (to come) the state, votes and bots that play it
on top of Magic Maze."""

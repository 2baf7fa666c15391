"""What the tests of the Python API (``test_api.py``, ``test_api_arguments.py``,
``test_api_agents.py``) share: a game's whole record as a value to compare before and after a
refusal (``snapshot``), a game read back from its transcript (``load_game_text``), an agent that
draws its inputs (``Drawn``), and the inputs that open a Hidden Roles vote (``OPEN_VOTE``)."""

from __future__ import annotations

import random
from pathlib import Path

from arbiter.engine.api import Game, load_game


def snapshot(game: Game) -> tuple:
    """The game's transcript, events, host view and clock: what a refusal must leave as it was."""
    return (game.transcript(), [e.as_dict() for e in game.events()], game.view(), game.time)


def load_game_text(game: Game) -> Game:
    """``game`` saved to a transcript and loaded back."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return load_game(game.save(Path(folder) / "t.yaml"))


class Drawn:
    """Plays a legal input drawn by its own seeded generator (never the game's resign)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: str, choices):
        return self.rng.choice(choices.legal)


OPEN_VOTE = [("p2", "eye p1"), ("p1", "accuse p4"), ("p4", "stare p1"), ("p2", "move green south 1"),
             ("p4", "move purple north 1"), ("p4", "pawn p1")]
"""Hidden Roles, scenario 1, 4 players, seed 1: p1 accuses p4 at 2 s; at 6 s the vote is open
until 7 s, the clock's next step."""

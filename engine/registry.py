"""The games arbiter knows, by name."""

from __future__ import annotations

from engine.errors import UnknownCommandError
from engine.game import Rules
from engine.scenario import Node
from engine.games.fbi_mafia.rules import FbiMafiaRules
from engine.games.magic_maze.rules import MagicMazeRules
from engine.games.mafia.rules import MafiaRules

_GAMES: dict[str, Rules] = {r.name: r for r in (FbiMafiaRules(), MafiaRules(), MagicMazeRules())}


def games() -> list[Rules]:
    return list(_GAMES.values())


def names() -> list[str]:
    """The games' names, sorted."""
    return sorted(_GAMES)


def get(name: str) -> Rules:
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownCommandError(f"no game named {name!r}", sorted(_GAMES)) from None


def validate_document(doc: Node) -> None:
    """Check one scenario YAML document with the rules of the game its ``game:`` key names."""
    game = doc.key("game").text(sorted(_GAMES))
    _GAMES[game].validate_document(doc)

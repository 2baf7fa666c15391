"""The games arbiter knows, by name. A game's rules are imported the first time they are asked
for, so a command playing one game never loads the others."""

from __future__ import annotations

import importlib

from arbiter.engine.errors import SetupError, quoted
from arbiter.engine.game import Rules
from arbiter.engine.scenario import Node

_WHERE: dict[str, tuple[str, str]] = {
    "fbi-mafia": ("arbiter.engine.games.fbi_mafia.rules", "FbiMafiaRules"),
    "mafia": ("arbiter.engine.games.mafia.rules", "MafiaRules"),
    "magic-maze": ("arbiter.engine.games.magic_maze.rules", "MagicMazeRules"),
}
"""Each game's name, and the module and class of its rules (the order ``games`` lists them in)."""
_GAMES: dict[str, Rules] = {}


def games() -> list[Rules]:
    return [get(name) for name in _WHERE]


def names() -> list[str]:
    """The games' names, sorted."""
    return sorted(_WHERE)


def get(name: str) -> Rules:
    rules = _GAMES.get(name)
    if rules is None:
        if name not in _WHERE:
            raise SetupError(f"no game named {quoted(name)}", sorted(_WHERE))
        module, cls = _WHERE[name]
        rules = _GAMES[name] = getattr(importlib.import_module(module), cls)()
        assert rules.name == name, f"{module}.{cls} is named {rules.name!r}, not {name!r}"
    return rules


def validate_document(doc: Node) -> None:
    """Check one scenario YAML document with the rules of the game its ``game:`` key names. A
    transcript (``format``, ``seed`` and ``log`` keys) is named as one, with the command that
    checks it, rather than as data missing its ``kind``."""
    if isinstance(doc.value, dict) and {"format", "seed", "log"} <= doc.value.keys():
        raise doc.fail("this is a transcript (the record of a game), not scenario data: "
                       "check it with `arbiter replay FILE`")
    game = doc.key("game").text(sorted(_WHERE))
    get(game).validate_document(doc)

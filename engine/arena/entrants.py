"""Entrants: the named bots of a tournament (``NAME=SPEC``), checked before anything runs.

A spec is what ``engine.bots.make_bot`` makes: a built-in kind of the game (``random``, ...),
``exec:COMMAND`` (a program speaking the protocol) or ``py:MODULE:CLASS`` (an in-process agent).

>>> parse_entrant("me=exec:python3 bot.py", ("random",))
Entrant(name='me', spec='exec:python3 bot.py')
>>> parse_entrant("random", ("random",))
Entrant(name='random', spec='random')
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from arbiter.engine.agents import load_agent
from arbiter.engine.arena.schedule import check_entrant_count
from arbiter.engine.errors import COMMAND_CHARS, ArbiterError, quoted

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}")
"""An entrant's name: a word of letters, digits and ``_.+-``, at most 32 characters (it names
files and columns)."""


@dataclass(frozen=True)
class Entrant:
    name: str
    spec: str


def check_spec(spec: str, kinds: tuple[str, ...], directory: str | None = None) -> str:
    """``spec`` when it names a bot: a built-in kind, ``exec:COMMAND`` (a command the shell's
    quoting rules read, as ``shlex.split`` does, naming a program), or ``py:MODULE:CLASS``
    whose agent can be made now (so a bad one fails before any game, not in every game), its
    module looked for in ``directory`` (where the games will run; by default here)."""
    spec = spec.strip()
    if spec.startswith("py:") and spec[3:].strip():
        load_agent(spec[3:].strip(), directory)
        return spec
    if spec.startswith("exec:"):
        try:  # as the bot is started (``engine.programs``): a command that cannot be read fails here, not in every game
            argv = shlex.split(spec[5:])
        except ValueError as exc:
            raise ArbiterError(f"{quoted(spec, COMMAND_CHARS)}: the command cannot be read ({exc}); quote it as a shell would") from None
        if not argv or not argv[0]:  # (nothing after exec:, or an empty word: exec:"")
            raise ArbiterError(f"{quoted(spec, COMMAND_CHARS)}: the command names no program")
        return spec
    if spec in kinds:
        return spec
    raise ArbiterError(f"unknown bot {quoted(spec, COMMAND_CHARS)}: use one of the game's built-in bots ({', '.join(kinds)}), "
                       "exec:COMMAND or py:MODULE:CLASS")


def parse_entrant(text: str, kinds: tuple[str, ...]) -> Entrant:
    """``NAME=SPEC``; a built-in kind alone (``random``) is its own name."""
    name, sep, spec = text.partition("=")
    if not sep:
        if text.strip() in kinds:
            return Entrant(text.strip(), text.strip())
        raise ArbiterError(f"{quoted(text, COMMAND_CHARS)}: expected NAME=SPEC, e.g. mine=exec:./mybot or base=random, or one of the "
                           f"game's built-in bots alone ({', '.join(kinds)})")
    name = name.strip()
    if not NAME.fullmatch(name):
        raise ArbiterError(f"{quoted(name)} is not an entrant name: letters, digits and _.+- only, at most 32, "
                           "starting with a letter or digit")
    return Entrant(name, check_spec(spec, kinds))


def check_entrants(entrants: list[Entrant]) -> list[Entrant]:
    """Two or more entrants with distinct names, no more than a tournament may have
    (``schedule.check_entrant_count``)."""
    if len(entrants) < 2:
        raise ArbiterError(f"a tournament needs two or more entrants, not {len(entrants)}")
    check_entrant_count(len(entrants))
    seen: set[str] = set()
    for e in entrants:
        if e.name in seen:
            raise ArbiterError(f"two entrants are named {quoted(e.name)}; give each its own NAME=")
        seen.add(e.name)
    return entrants

"""The configuration a tournament's folder holds (``tournament.json``), checked when a run
resumes it: every key a run writes, of the type and in the range a new run's options allow,
with the same checks (``check_games``, ``Sprt``, ``check_entrants``, ``check_spec``, the game's
modes), so a file changed by hand is refused whole, naming the file and the key, before any
game is played or anything in the folder changes.

>>> check_configuration({"format": 1, "game": "mafia"}, "t/tournament.json")
Traceback (most recent call last):
arbiter.engine.errors.ArbiterError: t/tournament.json: "modes" is missing (the file was changed by hand?)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.engine import registry
from arbiter.engine.arena.entrants import NAME, Entrant, check_entrants, check_spec
from arbiter.engine.arena.schedule import check_games
from arbiter.engine.arena.sprt import Sprt
from arbiter.engine.errors import ArbiterError, quoted
from arbiter.engine.scenario import Node
from arbiter.engine.session import MAX_SEED, bot_timeout_seconds

KEYS = ("format", "game", "modes", "players", "roles", "deck", "entrants", "games", "seed", "bot_timeout",
        "reuse", "max_moves", "sprt", "cwd")
"""What a run writes in ``tournament.json``, every one of them."""

LATER_KEYS = {"roles": None, "deck": None}
"""Keys a folder written before they were added lacks, and what their absence means there
(``roles``: no Hidden Roles level; ``deck``: no custom deck), so such a folder resumes as it was."""

DECK_SOURCE = "the tournament's deck"
"""What a recorded custom deck is called in a refusal of it (``scenario.deck_document``)."""


def recorded_deck(config: dict[str, Any]) -> Node | None:
    """The custom deck a configuration holds (the document its ``--deck`` file held), to set
    each game up with; None when it holds none."""
    deck = config.get("deck")
    if deck is None:
        return None
    node = Node(deck, DECK_SOURCE)
    node.recorded = True  # (the version that made the tournament set its games up from it)
    return node


SPRT_KEYS = ("elo0", "elo1", "alpha", "beta")


def check_configuration(config: dict[str, Any], source: str | Path) -> dict[str, Any]:
    """``config`` (read from ``source``) when it is one a run could have written; else an
    ``ArbiterError`` saying which key is wrong and what is allowed there."""
    config = {**LATER_KEYS, **config}
    missing = [k for k in KEYS if k not in config]
    if missing:
        raise ArbiterError(f'{source}: "{missing[0]}" is missing (the file was changed by hand?)')
    unknown = sorted(set(config) - set(KEYS))
    if unknown:
        raise ArbiterError(f'{source}: "{unknown[0]}" is not a key of a tournament\'s configuration', KEYS)
    for key, check in _CHECKS:
        try:
            check(config)
        except ArbiterError as exc:
            raise ArbiterError(f"{source}: {key}: {exc.message}", exc.allowed) from None
    return config


def _game(config: dict[str, Any]) -> None:
    if not isinstance(config["game"], str):
        raise ArbiterError(f"a game's name, not {quoted(config['game'])}", registry.names())
    registry.get(config["game"])


def _modes(config: dict[str, Any]) -> None:
    """A list of the game's modes that fit its player count, level and deck (none: the game's
    default)."""
    modes, rules = config["modes"], registry.get(config["game"])
    if not isinstance(modes, list) or not all(isinstance(m, str) for m in modes):
        raise ArbiterError(f"a list of the game's modes, not {quoted(modes)}")
    for mode in modes or [None]:
        rules.choose_setup(mode, config["players"], recorded_deck(config), config["roles"])


def _players(config: dict[str, Any]) -> None:
    if config["players"] is not None:
        _whole(config["players"], 1)


def _deck(config: dict[str, Any]) -> None:
    """None, or a custom deck's document (the game's own check, with the modes, says more)."""
    if config["deck"] is not None and not isinstance(config["deck"], dict):
        raise ArbiterError(f"null or a custom deck (a mapping, as its file holds), not {quoted(config['deck'])}")


def _roles(config: dict[str, Any]) -> None:
    """None, or a Hidden Roles level (``--roles``; the game's own check says which games and
    levels, with the modes)."""
    if config["roles"] is not None:
        _whole(config["roles"], 1)


def _entrants(config: dict[str, Any]) -> None:
    """Two or more ``{"name": NAME, "spec": SPEC}`` with distinct names and specs of the game's
    bots (a ``py:`` agent made from where the games run, as a new run makes it)."""
    shape = 'a list of two or more {"name": NAME, "spec": SPEC}'
    entrants = config["entrants"]
    if not isinstance(entrants, list):
        raise ArbiterError(f"{shape}, not {quoted(entrants)}")
    for e in entrants:
        if not (isinstance(e, dict) and set(e) == {"name", "spec"} and all(isinstance(v, str) for v in e.values())):
            raise ArbiterError(f"{shape}, not {quoted(e)} in it")
        if not NAME.fullmatch(e["name"]):
            raise ArbiterError(f"{quoted(e['name'])} is not an entrant name: letters, digits and _.+- only, at most 32, "
                               "starting with a letter or digit")
    for e in check_entrants([Entrant(e["name"], e["spec"]) for e in entrants]):
        check_spec(e.spec, registry.get(config["game"]).bot_kinds, config["cwd"])


def _sprt(config: dict[str, Any]) -> None:
    """None, or the four numbers of a test ``Sprt`` accepts, of a tournament of two entrants."""
    sprt = config["sprt"]
    if sprt is None:
        return
    if not isinstance(sprt, dict) or set(sprt) != set(SPRT_KEYS):
        shape = ", ".join(f'"{k}": NUMBER' for k in SPRT_KEYS)
        raise ArbiterError(f"null or {{{shape}}}, not {quoted(sprt)}")
    check_sprt(Sprt(**sprt), len(config["entrants"]))


def check_sprt(sprt: Sprt | None, entrants: int) -> None:
    """An SPRT compares two entrants."""
    if sprt is not None and entrants != 2:
        raise ArbiterError(f"an SPRT compares two entrants; this tournament has {entrants}")


def _whole(value: object, least: int | None = None) -> None:
    """A whole number (not ``true``), ``least`` or more if given."""
    if isinstance(value, bool) or not isinstance(value, int) or (least is not None and value < least):
        raise ArbiterError(f"a whole number{'' if least is None else f' from {least} up'}, not {quoted(value)}")


def _seed(config: dict[str, Any]) -> None:
    """A whole number of at most as many digits as ``--seed`` takes (``session.MAX_SEED``)."""
    seed, digits = config["seed"], len(str(MAX_SEED)) - 1
    _whole(seed)
    if not -MAX_SEED < seed < MAX_SEED:  # type: ignore[operator]
        shown = str(seed)
        raise ArbiterError(f"a whole number of at most {digits} digits (as --seed), not one of "
                           f"{len(shown.lstrip('-'))} digits ({shown[:20]}...)")


def _bot_timeout(value: object) -> None:
    """Seconds as ``bot_timeout_seconds`` takes them (as ``--bot-timeout`` does)."""
    try:
        bot_timeout_seconds(value)
    except (TypeError, ValueError) as exc:
        raise ArbiterError(f"{exc}, not {quoted(value)}") from None


def _reuse(config: dict[str, Any]) -> None:
    if not isinstance(config["reuse"], bool):
        raise ArbiterError(f"true or false, not {quoted(config['reuse'])}")


def _cwd(config: dict[str, Any]) -> None:
    """None, or the folder the bots start in (whether it is still there is asked of a run that
    has games left for a program to play: ``missing_cwd``)."""
    if config["cwd"] is not None and not isinstance(config["cwd"], str):
        raise ArbiterError(f"the folder the bots start in, or null, not {quoted(config['cwd'])}")


def missing_cwd(config: dict[str, Any], specs: list[str]) -> str | None:
    """Why the games left cannot be played here, when a program plays in them (``specs``:
    theirs) and the folder the bots start in is no longer there: a run resumed after it was
    moved started its bots wherever the resume was typed, and an ``exec:`` bot named by a
    relative path crashed in every game left, each a forfeit counted against its entrant."""
    cwd = config.get("cwd")
    programs = any(spec.strip().startswith(("exec:", "py:")) for spec in specs)
    if cwd is None or not programs or os.path.isdir(cwd):
        return None
    return (f'"cwd": the folder the bots start in, {quoted(cwd, 4096)}, is not there (moved or deleted?): the '
            "entrants' commands and modules are found from there; put it back, or write where it is now")


_CHECKS: tuple[tuple[str, Callable[[dict[str, Any]], object]], ...] = (
    ('"game"', _game),
    ('"players"', _players),
    ('"roles"', _roles),
    ('"deck"', _deck),
    ('"modes" with "players", "roles" and "deck"', _modes),
    ('"cwd"', _cwd),
    ('"entrants"', _entrants),
    ('"games"', lambda c: check_games(c["games"])),
    ('"seed"', _seed),
    ('"bot_timeout"', lambda c: _bot_timeout(c["bot_timeout"])),
    ('"reuse"', _reuse),
    ('"max_moves"', lambda c: _whole(c["max_moves"], 1)),
    ('"sprt"', _sprt),
)
"""Each key's check, as its errors name it (``format`` is checked as the file is read), in an
order where a check may rely on the keys before it."""

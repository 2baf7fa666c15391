"""arbiter as a library: one small surface to start, play, watch and record games.

>>> game = new_game("fbi-mafia", "duel-3v3", seed=1)
>>> game.seats
('mafia', 'fbi')
>>> game.awaiting()
['mafia']
>>> game.legal("mafia")[:2]
['shift row 1 left', 'shift row 1 right']
>>> [e.kind for e in game.play("mafia", "shift row 1 left")]
['shift', 'turn']
>>> game.play("mafia", "kill a1")
Traceback (most recent call last):
...
arbiter.engine.errors.NotYourTurnError: mafia is not awaited: waiting for fbi (...); any seat may surrender at any time
>>> _ = game.play("fbi", "surrender")
>>> game.over, game.returns()
(True, {'mafia': 1, 'fbi': 0})

The ``Game`` itself is ``engine/api_game.py``, the checks of the arguments ``engine/api_arguments.py``;
the full guide, with a multi-agent loop, is ``docs/api.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.agents import Agent, agent_info
from arbiter.engine.api_arguments import checked_count, checked_path, fs_path, number_named, seconds_name
from arbiter.engine.api_game import REFUSALS_IN_A_ROW, Game
from arbiter.engine.errors import InputError, SetupError, UnknownSeatError, quoted
from arbiter.engine.game import Result
from arbiter.engine.session import MAX_SEED, Choices, Session, whole_number


def new_game(game: str, variant: str | None = None, *, players: int | None = None, deck: str | Path | None = None,
             roles: int | None = None, seed: int | None = None) -> Game:
    """A new game of ``game`` (see ``games()``): its mode or scenario, a player count (games
    set up by it), a custom deck file, a Hidden Roles level, and the seed (chosen when None).
    A value of the wrong type is a ``TypeError`` naming it: ``players="8"`` was refused as "decks
    are for 6 to 12 players, not 8", and the scenario ``1`` (an int) as "no scenario 1".

    >>> new_game("magic-maze", 1)
    Traceback (most recent call last):
    ...
    TypeError: new_game: variant is a mode's or scenario's name (a str, as '1'), not int

    A game that cannot be set up as asked (a game, mode or scenario unknown, a player count,
    level or deck that does not fit) is a ``SetupError`` (a ``ValueError``), never one of the
    refusals of a move (an ``InputError``); a deck file that cannot be read, or is broken, a
    ``ScenarioError``.

    >>> new_game("mafia", players=3)
    Traceback (most recent call last):
    ...
    arbiter.engine.errors.SetupError: Classic Mafia's default decks are for 6 to 12 players, not 3

    A seed is a whole number from 0, of at most 100 digits: Python's generator deals ``-5`` as it
    deals ``5``, so a negative seed is a ``SetupError`` too (a transcript an older version wrote
    with one still loads and replays: ``load_game``, ``replay``).

    >>> new_game("mafia", players=6, seed=-5)
    Traceback (most recent call last):
    ...
    arbiter.engine.errors.SetupError: new_game: seed -5 is negative: a new game's seed is a whole number from 0, ...
    """
    players, roles, seed = map(whole_number, (players, roles, seed))  # (numpy's integers: plain ints)
    deck = fs_path(deck)  # (any path ``load_game`` takes)
    for name, value, kind, wanted in (
            ("game", game, str, "a game's name (a str)"),
            ("variant", variant, str, "a mode's or scenario's name (a str, as '1')"),
            ("players", players, int, "a whole number"),
            ("roles", roles, int, "a level (a whole number)"),
            ("deck", deck, (str, Path), "a file's path (a str or a Path)")):
        if (value is not None or name == "game") and (isinstance(value, bool) or not isinstance(value, kind)):
            raise TypeError(f"new_game: {name} is {wanted}, not {type(value).__name__}")
        if kind is int and value is not None and not -1000 <= value <= 1000:  # (str() of a huge one is an error)
            raise SetupError(f"new_game: {name}: {number_named(value)} is far outside what any game takes",
                             option=f"--{name}")
    if isinstance(seed, int) and not isinstance(seed, bool) and -MAX_SEED < seed < 0:  # (past 100: Session's words)
        raise SetupError(_negative_seed(int(seed)), option="--seed")
    rules = registry.get(game)
    chosen, options = rules.choose_setup(variant, players, str(deck) if deck is not None else None, roles)
    return Game(Session(rules, chosen, seed=seed, options=options))


def load_game(path: str | Path) -> Game:
    """The game a transcript records, replayed to where it stands (finished or not)."""
    return Game(tr.replayed(tr.read(checked_path("load_game", path))))


def replay(path: str | Path) -> tr.ReplayReport:
    """Re-run a transcript and compare everything (``report.ok``, ``report.problems``)."""
    return tr.replay(tr.read(checked_path("replay", path)))


def games() -> dict[str, list[str]]:
    """Every game this version plays, with its modes or scenarios."""
    return {r.name: [v.name for v in r.variants()] for r in registry.games()}


def play_agents(game: Game, agents: dict[str, Agent], max_inputs: int = 100_000) -> Result | None:
    """Play ``game`` to its end with an agent on every seat (``agents``: seat -> an object with
    ``act(observation, choices)``); the result (None if ``max_inputs`` ran out first). The
    agents (and ``game``, and ``max_inputs`` as ``agent_iter`` checks it) are checked before
    anything is played: a seat the game does not have is an ``UnknownSeatError`` (a key that is
    not a ``str`` a ``TypeError``, as every call given such a seat says), a seat
    without an agent a ``ValueError`` (a ``KeyError`` once came mid-game, after the other seats
    had played). An agent with a ``new_game(info)`` method is
    given its ``info`` first, as the referee gives it (the seat, a seed for its own choices, the
    game's public settings: see docs/api.md); ``close()``, if it has one, is the caller's to call.

    >>> play_agents(new_game("mafia", players=6, seed=1), {"p1": None, "P2": None})
    Traceback (most recent call last):
    ...
    arbiter.engine.errors.UnknownSeatError: play_agents: no seat 'P2' in this game
    """
    if not isinstance(game, Game):  # (an AttributeError on ``.seats`` once)
        raise TypeError(f"play_agents: game is a Game (new_game, load_game), not {type(game).__name__}")
    max_inputs = checked_count("play_agents", max_inputs)  # (checked, as the agents are, before anything is played)
    if not isinstance(agents, Mapping):  # (a list in seat order was read as seats named by agents)
        raise TypeError(f"play_agents: agents is a dict, seat -> agent, not {type(agents).__name__}")
    for seat in agents:
        if not isinstance(seat, str):  # (a caller's mistake, as every other call says it: not a refused input)
            raise TypeError(f"play_agents: a seat is named by a str, not {type(seat).__name__}: {quoted(seat)}")
        if seat not in game.seats:
            raise UnknownSeatError(f"play_agents: no seat {quoted(seat)} in this game", game.seats)
    missing = [seat for seat in game.seats if seat not in agents]
    if missing:
        raise ValueError(f"play_agents: no agent for {', '.join(missing)}: every seat needs one")
    for seat in game.seats:  # (else an AttributeError once the seat was first asked, mid-game)
        if not callable(getattr(agents[seat], "act", None)):
            raise TypeError(f"play_agents: the agent of {seat} has no act(observation, choices) method: "
                            f"{type(agents[seat]).__name__}")
    for seat in game.seats:  # as the referee starts an agent it plays (``AgentBot``)
        start = getattr(agents[seat], "new_game", None)
        if callable(start):
            start(agent_info(game.session, seat))
    for seat, seen, choices in game.agent_iter(max_inputs):
        game.step(seat, agents[seat].act(seen, choices))
    return game.result


__all__ = ["Game", "new_game", "load_game", "replay", "games", "play_agents", "Agent", "Choices", "InputError",
           "SetupError", "seconds_name", "REFUSALS_IN_A_ROW"]


def _negative_seed(seed: int) -> str:
    """Why a new game refuses ``seed``, below 0: Python's generator deals ``-5`` as it deals ``5``,
    so two seeds would be one game (a transcript holding one, an older version's, still replays)."""
    if seed > -10**20:
        named, same = f"seed {seed}", f"{seed} as it deals {-seed}"
    else:  # (named by how many digits it has, as ``number_named`` names a number)
        named, same = f"seed of {len(str(-seed))} digits", "a negative seed as it deals its absolute value"
    return (f"new_game: {named} is negative: a new game's seed is a whole number from 0, of at most "
            f"{len(str(MAX_SEED)) - 1} digits (Python's generator deals {same}, the same game)")


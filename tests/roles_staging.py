"""Hidden Roles games staged for its tests (``test_roles_*.py``): the item game (scenario 1,
stack 6 7 8 9 2, the four item tiles around the start tile and tile 2, with the purple exit
at 2.a1, north of tile 6, all explored) with the role cards given, the theft and the escapes
made by real steps, and a game played line by line (``[@SECONDS] SEAT WORDS``), refused lines
shown to change nothing, and a game's transcript shown to replay it exactly. Cards are staged
through the recorded ``roles`` chance outcome (``tests.helpers.roles_game``); heroes are put on
squares as ``tests/maze_staging.py`` puts them.
"""

from __future__ import annotations

import pytest

from arbiter.engine import registry, transcript
from arbiter.engine.errors import InputError
from arbiter.engine.events import HOST
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import move_name
from arbiter.engine.games.magic_maze.roles import bot
from arbiter.engine.session import Session

from tests.helpers import roles_game
from tests.maze_staging import clear_centre, explore_at, item_of, put, step_onto

MAZE = registry.get("magic-maze")
D = mm.load()

EXIT = "2.a1"


def item_roles(cards: list[str], *, level: int = 3, scenario: str = "1", players: int | None = None,
               more: tuple[str, ...] = ("2",), deck: dict | None = None) -> Session:
    s = roles_game(scenario, cards, level=level, players=players, stack=["6", "7", "8", "9", *more], deck=deck)
    clear_centre(s)
    for sq in ("1a.c1", "1a.d3", "1a.b4", "1a.a2"):
        explore_at(s, sq)
    explore_at(s, "6.c1")
    return s


def theft(s: Session, last: str = "orange", time_ms: int | None = None):
    """Three heroes on their items (staging), then ``last`` steps onto its own: the theft."""
    for hero in ("purple", "yellow", "green", "orange"):
        if hero != last:
            s.state.heroes[hero] = None
    for hero in ("purple", "yellow", "green", "orange"):
        if hero != last:
            put(s, hero, item_of(s, hero))
    events = step_onto(s, last, item_of(s, last), time_ms)
    assert s.state.theft
    return events


def escape(s: Session, hero: str, time_ms: int | None = None):
    return step_onto(s, hero, EXIT, time_ms)


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def replays(s: Session) -> None:
    """The game's transcript replays it exactly (moves, events, result)."""
    report = transcript.replay(transcript.parse(transcript.dump(s)))
    assert report.ok, report.problems
    assert report.session is not None and report.session.events.digest() == s.events.digest()
    assert [e.to for e in report.session.events] == [e.to for e in s.events]


def play(s: Session, *lines: str) -> list:
    """``[@SECONDS] SEAT WORDS`` lines, in order; all the events they caused."""
    out = []
    for line in lines:
        words = line.split()
        at = None
        if words[0].startswith("@"):
            at = round(float(words.pop(0)[1:]) * 1000)
        out += s.submit(words[0], " ".join(words[1:]), at)
    return out


def refused(s: Session, line: str) -> str:
    before = (s.state.view(HOST), len(s.events), len(s.entries))
    with pytest.raises(InputError) as info:
        play(s, line)
    assert (s.state.view(HOST), len(s.events), len(s.entries)) == before, line
    return info.value.message


def game(scenario: str = "1", players: int = 4, level: int = 1, seed: int = 1) -> Session:
    return Session(MAZE, scenario, seed=seed, options={"players": players, "roles": level})


def plan_steps(s: Session, n: int) -> None:
    """``n`` inputs of the team plan, played by whoever holds them (the base planner)."""
    for _ in range(n):
        for seat in s.seats:
            move = planner.choose(s.state, seat)
            if move is not None:
                s.submit(seat, move_name(move))
                break
        bot.watch_of(s.state)  # the table watches every position, as a match's bots do


def traitor_of(s: Session) -> str:
    return next(x for x in s.seats if s.state.side_of(x) == "traitor")

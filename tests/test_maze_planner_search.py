"""The planner's fast search plays exactly as the plain one it replaced.

``engine/games/magic_maze/search.py`` searches the mall lazily with a tuned breadth-first
search, the mall keeps its runs across tiles, the board's ``slide`` answers from them, a team
seat reads only the plan's first step (``Analysis.best``), a solo step only whether it is the
first of a shortest way (``Search.through``), and the searches go on from one position to the
next on the same board. Kept in ``tests/maze_reference.py``, never in the engine, is the plain
way all of it was first written: ``reference_run`` walks the walls, ``reference_slide`` walks a
run square by square, ``reference_routes`` searches square by square to the end, and
``reference_analysis`` / ``reference_plans`` / ``reference_solo_step`` / ``reference_choices``
read whole maps. On
positions of seeded planner games (every scenario, solo and team, and Hidden Roles), the
engine's answers must be the reference's: each run and slide, each route (length, first input,
and the order squares are found in), searches read in part (a square, the nearest of some, the
first steps), the goal of the moment with its squares, the plans, the solo steps (a seeded solo
game of every scenario) and every seat's choice, as play leaves the analysis and from a fresh
one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from arbiter.engine import registry
from arbiter.engine.bots import RandomBot
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.mall import joined_origin, joined_quarters
from arbiter.engine.games.magic_maze.moves import Move
from arbiter.engine.games.magic_maze.planner import Route
from arbiter.engine.games.magic_maze.state import MazeState
from arbiter.engine.games.magic_maze.tiles import Cell, check_tile, parse_map
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.maze_reference import (
    reference_analysis, reference_candidates, reference_choices, reference_plans, reference_routes, reference_run,
    reference_slide, reference_solo_step,
)
from tests.maze_staging import act, find, g_of, game, put

MAZE = registry.get("magic-maze")
SOLO_ACTIONS = ("north", "south", "east", "west", "vortex", "escalator", "explore")


# ------------------------------------------------------------------------------------ positions
def numbered_positions(scenario: str, players: int, seed: int,
                       level: int | None = None) -> Iterator[tuple[int, MazeState]]:
    """Every position of a seeded game of planner bots (Hidden Roles at ``level``) with the
    number of inputs played to it, each handed out before the game goes on (the state changes
    in place)."""
    options: dict[str, Any] = {"players": players} | ({"roles": level} if level else {})
    session = Session(MAZE, scenario, seed=seed, options=options)
    bots = {s: RandomBot(s, seed, "planner") for s in session.seats}
    seen = -1
    for _ in Match(Protocol(session), dict(bots), None, max_moves=2000).run():
        n = len(session.moves)
        if n != seen and not session.over:
            seen = n
            yield n, session.state
    assert session.over, "the game did not end"


def positions(scenario: str, players: int, seed: int, level: int | None = None,
              every: int = 1) -> Iterator[MazeState]:
    """Every ``every``-th position of a seeded game of planner bots (Hidden Roles at ``level``):
    those after a multiple of ``every`` inputs."""
    for n, state in numbered_positions(scenario, players, seed, level):
        if n % every == 0:
            yield state


def hero_squares(state: MazeState) -> Iterator[tuple[str, Cell]]:
    for h, g in state.heroes.items():
        if g is not None:
            yield h, g


GAMES = [("1", 1, 1, 8), ("3", 1, 1, 12), ("5", 1, 3, 14), ("7", 1, 1, 18),
         ("1", 2, 3, 1), ("4", 3, 1, 2), ("6", 4, 2, 2), ("7", 4, 1, 3)]
"""Seeded planner games (scenario, players, seed) and how often a position is checked: solo
games are long (one tile drawn at a time), so one position in a few."""

SOLO = [*GAMES[:4], ("2", 1, 3, 18), ("4", 1, 2, 18), ("6", 1, 2, 18)]
"""A seeded solo game of every scenario (the solo ones above, and those of 2, 4 and 6)."""


# ------------------------------------------------------------------------------------ one walk a game
# Four tests check positions of the same seeded games (``GAMES_OF``), each at its own positions:
# those after a multiple of the game's ``every`` times its stride (``STRIDES``) of inputs, or
# for the memos every position where a tile has joined. Each game is played once a process
# (``walk``, the first of its tests to ask) and every check of it is made at its positions as
# play reaches them, the plans' first (they judge the analysis as play leaves it): the very
# positions each test played its own copy of the game to. The checks change nothing play
# reads but the memos it keeps (the plans' check drops the planner's analysis, as it did in a
# game of its own, and play goes on from the fresh one); a check that fails stops that test's
# checks, not the game, and the test raises its failure. The tests of one game run on one
# xdist worker (``WALKED`` in tests/conftest.py), which plays it once for all of them.
def check_plans(state: MazeState, k: int, counts: dict[str, int]) -> None:
    """``test_the_goal_plans_and_solo_steps_are_the_plain_planners`` at its ``k``-th position."""
    ref = reference_analysis(state)
    choices = reference_choices(state, ref)
    assert [planner.choose(state, s) for s in state.seats] == choices
    state.__dict__.pop("_planner_cache", None)  # a fresh analysis, read lazily first
    assert [planner.choose(state, s) for s in state.seats] == choices
    a = planner.analyse(state)
    assert (a.actions, a.flip, a.heroes, a.phase) == (ref.actions, ref.flip, ref.heroes, ref.phase)
    assert a.goals == ref.goals
    for h in ref.heroes:
        assert list(a.maps[h].items()) == list(ref.maps[h].items())
    assert a.candidates() == reference_candidates(ref)
    assert a.best == (a.candidates() or [None])[0]
    assert planner.plans(state) == reference_plans(state, ref)
    assert best_after_whole_maps(state) == a.best
    if state.solo:
        tops = {state.discard[-1] if state.discard else "explore", SOLO_ACTIONS[k % len(SOLO_ACTIONS)]}
        for top in sorted(tops):
            assert planner.solo_step(state, top) == reference_solo_step(state, top, ref), top


def check_memos(state: MazeState, k: int, counts: dict[str, int]) -> None:
    """``test_the_malls_memos_are_what_walking_the_walls_finds_after_every_tile`` at a position
    (where a tile has joined since the last it checked)."""
    mall = state.mall
    if len(mall.placed) == counts["tiles"]:
        return
    counts["tiles"] = len(mall.placed)
    for g in mall.squares():
        for dwarf in (False, True):
            runs = {d: reference_run(mall, g, d, dwarf) for d in "NESW"}
            for d in "NESW":
                assert list(mall.run(g, d, dwarf).squares) == runs[d], (g, d, dwarf)
            assert mall.openings(g, dwarf) == tuple((d, runs[d][0]) for d in "NESW" if runs[d])


def check_slides(state: MazeState, k: int, counts: dict[str, int]) -> None:
    """``test_slide_answers_as_the_rule_walked_square_by_square`` at a position."""
    for hero, _ in hero_squares(state):
        for g in state.mall.squares():
            if state.mall.kinds[g][0] == "blocked":
                continue
            for d in "NESW":
                assert list(state.slide(hero, g, d)) == reference_slide(state, hero, g, d), (hero, g, d)
                counts["checked"] += 1


def check_routes(state: MazeState, k: int, counts: dict[str, int]) -> None:
    """``test_every_route_is_the_plain_searchs`` at its ``k``-th position."""
    actions = planner.team_actions(state)
    for i, (hero, _) in enumerate(hero_squares(state)):
        for flip in (False, True):
            got = planner.routes(state, hero, actions, flip)
            assert list(got.items()) == list(reference_routes(state, hero, actions, flip).items())
            counts["checked"] += 1
        top = SOLO_ACTIONS[(k + i) % len(SOLO_ACTIONS)]
        one = planner.routes(state, hero, {top}, True)
        assert list(one.items()) == list(reference_routes(state, hero, {top}, True).items())
        for g, _ in list(one.items())[1:3]:
            got = planner.routes(state, hero, actions, True, start=g)
            assert list(got.items()) == list(reference_routes(state, hero, actions, True, start=g).items())


CHECKS: dict[str, Callable[[MazeState, int, dict[str, int]], None]] = {
    "plans": check_plans, "memos": check_memos, "slides": check_slides, "routes": check_routes}
STRIDES = {"plans": 2, "memos": None, "slides": 8, "routes": 3}
"""Each check's positions: those after a multiple of ``every`` times this many inputs (the
plans every other, the routes every third: each takes positions the other leaves, mostly);
the memos' at every position (where a tile has joined)."""
GAMES_OF = {"plans": SOLO + GAMES[4:], "memos": GAMES[3:], "slides": GAMES[3:], "routes": GAMES}


class Walked:
    """One check's part of a walk: the positions it was given, its counts, and the failure
    that stopped it (None: every position passed)."""

    def __init__(self) -> None:
        self.positions = 0
        self.counts: dict[str, int] = {"checked": 0, "tiles": 0}
        self.failure: Exception | None = None


_WALKS: dict[tuple[str, int, int, int], dict[str, Walked]] = {}


def walked(game: tuple[str, int, int, int], check: str) -> dict[str, int]:
    """The counts of ``check`` over ``game`` (scenario, players, seed, every), its failure
    raised: the game is played once a process (the first test of it to ask), every check of
    that game made along the way."""
    if game not in _WALKS:
        _WALKS[game] = walk(game)
    part = _WALKS[game][check]
    if part.failure is not None:
        raise part.failure
    return part.counts


def walk(game: tuple[str, int, int, int]) -> dict[str, Walked]:
    """``game`` played, each check of it made at its positions."""
    scenario, players, seed, every = game
    parts = {name: Walked() for name in CHECKS if game in GAMES_OF[name]}
    for n, state in numbered_positions(scenario, players, seed):
        for name, part in parts.items():
            stride = STRIDES[name]
            if part.failure is not None or (stride is not None and n % (every * stride)):
                continue
            try:
                CHECKS[name](state, part.positions, part.counts)
            except Exception as failure:  # noqa: BLE001 - that test's own failure, raised by it
                part.failure = failure
            part.positions += 1
    return parts


@pytest.mark.parametrize(("scenario", "players", "seed", "every"), GAMES_OF["slides"])
def test_slide_answers_as_the_rule_walked_square_by_square(scenario: str, players: int, seed: int,
                                                            every: int) -> None:
    """Every slide of every hero from every square, against the rule walked square by square
    (``check_slides``)."""
    assert walked((scenario, players, seed, every), "slides")["checked"] > 1000


@pytest.mark.parametrize(("scenario", "players", "seed", "every"), GAMES_OF["memos"])
def test_the_malls_memos_are_what_walking_the_walls_finds_after_every_tile(scenario: str, players: int, seed: int,
                                                                           every: int) -> None:
    """Runs and ways out are kept across tiles joining (only those a new door changes are
    dropped): each one kept is the one walked afresh (``check_memos``)."""
    assert walked((scenario, players, seed, every), "memos")["tiles"] > 4


@pytest.mark.parametrize(("scenario", "players", "seed", "every"), GAMES_OF["routes"])
def test_every_route_is_the_plain_searchs(scenario: str, players: int, seed: int, every: int) -> None:
    """Whole maps, in the order found: the team's actions (flip wanted or not); one action
    alone (each in turn), and the team's actions from two of the squares that action reaches in
    one input (as solo play asks) (``check_routes``)."""
    assert walked((scenario, players, seed, every), "routes")["checked"] > 50


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (4, 1)])
def test_the_barbarians_map_while_cameras_lock_is_the_plain_searchs(players: int, seed: int) -> None:
    """While two cameras lock, the barbarian's moves past a camera may reach further than a
    move from a square beyond it: the search stops at searched squares only before a camera."""
    checked = 0
    for state in positions("7", players, seed):
        if state.heroes["yellow"] is None or not state.cameras_lock():
            continue
        checked += 1
        if checked % 6:
            continue
        actions = planner.team_actions(state)
        for flip in (False, True):
            whole = reference_routes(state, "yellow", actions, flip)
            assert list(planner.routes(state, "yellow", actions, flip).items()) == list(whole.items())
            for g in list(whole)[1 + checked % 7::40]:
                got = planner.routes(state, "yellow", actions, flip, start=g)
                assert list(got.items()) == list(reference_routes(state, "yellow", actions, flip, start=g).items())
    assert checked >= 30


def staged(tile_map: str, hero: str, square: str) -> Session:
    """Scenario 6 (start tile 1B) with ``tile_map`` joined north of 1B at its door c1 as tile
    20, as drawn, and ``hero`` put on ``square`` (the others stay on 1B): a position made for
    one test (staging, no input)."""
    s = game("6")
    tile = parse_map("20", tile_map)
    check_tile(tile, start=False)
    door = g_of(s, "1b.c1")
    s.state.mall.place("20", tile, joined_origin(door, "N"), joined_quarters("N"))
    put(s, hero, square)
    return s


CAMERA_ROW = """\
+--+--+--+--+
|.. .. .. ..|
+  +  +  +  +
|.. Cm .. Hg|
+  +--+--+  +
|.. .. .. ..|
+  +  +  +  +
|Cm In .. ..|
+--+  +--+--+
"""
"""A tile made for the test: a2, the camera b2, c2 and the hourglass d2 in a row (walls south of
b2 and c2), a second camera at a4. No packaged tile has this: none holds both a camera and an
hourglass, and no straight line from a camera leaves its tile."""


def test_the_barbarian_past_a_live_camera_reaches_an_hourglass_locked_from_beyond_it() -> None:
    """While exactly two cameras lock, the barbarian's move over one of them disables it on the
    way, so an hourglass further on that line is no longer locked for that move; the same move
    from a square beyond the camera finds it locked. The search goes on past a square it has
    searched from when the line crossed a live camera before it: the hourglass is found, as the
    plain search finds it."""
    s = staged(CAMERA_ROW, "yellow", "20.c1")  # scenario 6: cameras in force
    state = s.state
    west, camera, beyond, hourglass = (g_of(s, f"20.{c}2") for c in "abcd")
    assert state.cameras_lock() and find(s, "Cm") == ["20.b2", "20.a4"]
    assert state.mall.code(hourglass) == "Hg" and hourglass not in state.used
    assert state.heroes["yellow"] == g_of(s, "20.c1")
    assert state.slide("yellow", west, "E") == (camera, beyond, hourglass)
    assert state.slide("yellow", beyond, "E") == ()  # locked: both cameras live
    # c2 is one input away (south) and searched from before a2 (two: south, then west over
    # the camera); from a2 east the move crosses the camera, then c2, and ends on the hourglass
    actions, south = planner.team_actions(state), Move("move", hero="yellow", direction="S", squares=1)
    for flip in (False, True):
        got = planner.routes(state, "yellow", actions, flip)
        assert list(got.items()) == list(reference_routes(state, "yellow", actions, flip).items())
        assert got[beyond] == Route(1, south) and got[west] == Route(2, south)
        assert got.get(hourglass) == (Route(3, south) if flip else None)  # the flip, only when wanted


@pytest.mark.parametrize("hero", ["purple", "green", "orange"])
def test_another_heros_move_over_a_live_camera_leaves_the_hourglass_locked(hero: str) -> None:
    """Only the barbarian disables a camera it crosses: another hero's move over the camera
    leaves both live, so it stops before the hourglass the barbarian's same move reaches."""
    s = staged(CAMERA_ROW, hero, "20.a2")
    state = s.state
    west, camera, beyond, hourglass = (g_of(s, f"20.{c}2") for c in "abcd")
    assert state.cameras_lock() and state.heroes[hero] == west
    assert state.slide(hero, west, "E") == (camera, beyond)
    events = act(s, f"move {hero} east")
    assert state.heroes[hero] == beyond and "camera" not in [e.kind for e in events] and state.cameras_lock()


HOURGLASS_SPLIT = """\
+--+--+--+--+
|.. .. ..|..|
+  +  +  +  +
|.. .. .. ..|
+  +  +  +  +
|.. .. Hg ..|
+  +  +  +  +
|.. In .. ..|
+--+  +--+--+
"""
"""A tile made for the test: the hourglass c3 on row 3 and under c1, a wall east of c1 (so d1,
above d3, is not one input from a1)."""


def test_a_move_over_an_hourglass_already_found_finds_nothing_beyond_it() -> None:
    """A straight move never slides over an unused hourglass: it stops on it (the flip) or
    before it. The search scans the squares of a move past squares already found, but not past
    an unused hourglass already found: a square beyond it on that line is found from the
    hourglass, one input later, as the plain search finds it."""
    s = staged(HOURGLASS_SPLIT, "purple", "20.a1")  # no camera on 1B or the tile: nothing locked
    state = s.state
    start, first, second = g_of(s, "20.a1"), g_of(s, "20.c1"), g_of(s, "20.a3")
    hourglass, beyond = g_of(s, "20.c3"), g_of(s, "20.d3")
    assert not state.cameras_lock() and find(s, "Cm") == []
    assert state.mall.code(hourglass) == "Hg" and hourglass not in state.used
    assert state.heroes["purple"] == start
    assert state.slide("purple", second, "E") == (g_of(s, "20.b3"), hourglass, beyond)
    # c1 (east) and a3 (south) are one input away, c1 searched from first: its move south ends
    # on the hourglass (two inputs); then a3's move east crosses it, already found, toward d3
    actions = planner.team_actions(state)
    east, south = (Move("move", hero="purple", direction=d, squares=2) for d in "ES")
    for flip in (False, True):
        got = planner.routes(state, "purple", actions, flip)
        assert list(got.items()) == list(reference_routes(state, "purple", actions, flip).items())
        assert got[first] == Route(1, east) and got[second] == Route(1, south)
        assert got.get(hourglass) == (Route(2, east) if flip else None)  # the flip, only when wanted
        if flip:
            assert got[beyond] == Route(3, east)  # from the hourglass, not from a3 over it


def test_a_search_read_square_by_square_searches_until_the_square_is_found() -> None:
    """A ``Search`` is a mapping read lazily: asking for one square (``search[g]``) searches on
    until that square is found, with the route the whole search gives it; a square it cannot
    reach is a ``KeyError``, and afterwards the search reads whole as if read whole at once.
    (The planner asks ``in`` before ``[]``, so only this test reads a square not found yet.)"""
    state = next(s for n, s in enumerate(positions("7", 4, 1)) if n == 40)
    actions = planner.team_actions(state)
    for hero, _ in hero_squares(state):
        whole = reference_routes(state, hero, actions, True)
        far = list(whole)[-1]  # found last: the whole search is needed to find it
        search = planner.routes(state, hero, actions, True)
        assert search[far] == whole[far]
        with pytest.raises(KeyError):
            search[(-99, -99)]
        assert list(search.items()) == list(whole.items())


def best_after_whole_maps(state: MazeState) -> Move | None:
    """``Analysis.best`` of a fresh analysis whose maps were all searched to their end first
    (as a Hidden Roles bot may read them before a seat chooses: the whole plan for a step its
    own rule refuses, a traitor's sabotage, an input judged against the plan)."""
    state.__dict__.pop("_planner_cache", None)
    a = planner.analyse(state)
    for search in a.maps.values():
        list(search)
    return a.best


@pytest.mark.parametrize(("scenario", "players", "seed", "every"), GAMES_OF["plans"])
def test_the_goal_plans_and_solo_steps_are_the_plain_planners(scenario: str, players: int, seed: int,
                                                               every: int) -> None:
    """Every seat's choice, first as play leaves the analysis (it follows the last position's:
    on the same board, after a solo draw say, the searches go on) and then from a fresh one;
    the analysis (its maps read whole), the plans, and in solo play the step for the action on
    top and for one other (each in turn) (``check_plans``; the routes test takes the other
    positions, mostly)."""
    walked((scenario, players, seed, every), "plans")


@pytest.mark.parametrize(("level", "players", "seed"), [(1, 4, 1), (3, 4, 2), (4, 5, 2), (5, 4, 3)])
def test_hidden_roles_positions_plan_as_the_plain_planner(level: int, players: int, seed: int) -> None:
    for state in positions("2", players, seed, level, every=2):
        ref = reference_analysis(state)
        state.__dict__.pop("_planner_cache", None)
        best = planner.analyse(state).best  # before anything reads the maps whole
        assert best == (reference_candidates(ref) or [None])[0]
        assert best_after_whole_maps(state) == best
        a = planner.analyse(state)
        assert (a.phase, a.goals) == (ref.phase, ref.goals)
        for h in ref.heroes:
            assert list(a.maps[h].items()) == list(ref.maps[h].items())
        assert planner.plans(state) == reference_plans(state, ref)

"""The ``planner`` bot: a team plan that actually tries to win, computed the same way by every
seat from public facts, so the seats cooperate without talking.

Each time a seat is asked, the team's next action is worked out: flip an hourglass when the
sand is low (and more than half has run), else explore while an item or exit is missing,
else bring heroes onto their items, else out through their exits. A hero's way there is a
breadth-first search over the mall with the actions the team holds (straight moves to every
square they can stop on, vortexes before the theft, escalators), other heroes standing still.
The seat holding the first action of that way plays it; the others wait (None). Solo: turn
action tiles (``draw``) until the one needed is on top.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from arbiter.engine.games.magic_maze.moves import DIR_NAME, Move, action_needed, move_name
from arbiter.engine.games.magic_maze.tiles import Cell

if TYPE_CHECKING:
    from arbiter.engine.games.magic_maze.state import MazeState

class Route(NamedTuple):
    """The shortest way found to a square: how many inputs, and the first of them (None for
    the square the hero stands on)."""

    length: int
    first: Move | None


new_route = partial(tuple.__new__, Route)
"""``new_route((length, first))`` is ``Route(length, first)``, made without a Python call (a
search makes one per square it searches from)."""


def team_actions(state: MazeState) -> set[str]:
    if state.solo:
        return set(state.data.solo)
    return {a for hand in state.hands for a in hand}


def flip_wanted(state: MazeState) -> bool:
    """Flipping gives back what has run: worth it once more than half has run."""
    return state.time_left_ms() * 2 < state.scenario.timer_ms


def routes(state: MazeState, hero: str, actions: set[str], flip_ok: bool,
           start: Cell | None = None) -> dict[Cell, Route]:
    """Every square ``hero`` can reach (from ``start``, by default where it stands), with the
    shortest way there, in the order found: a breadth-first search whose straight moves are the
    game's ``slide`` (the other heroes standing still), taking only the stops the team wants
    (up to an unused hourglass, and onto it only when a flip is wanted: one flip is the point
    of that move). It searches no further from an exit where the hero leaves."""
    start = start if start is not None else state.heroes[hero]
    assert start is not None
    best: dict[Cell, Route] = {start: Route(0, None)}
    queue = deque([start])
    push, pop = queue.append, queue.popleft
    context = state.slide_context(hero)
    others, slide, dwarf = context[0], state.slide, hero == "orange"
    openings, known = state.mall.openings, state.mall.known_openings(dwarf)
    fresh = {g for g in state.mall.with_kind("hourglass") if g not in state.used}  # unused hourglasses
    leaves = state.usable_exits(hero)
    directions = [d for d in "NESW" if DIR_NAME[d] in actions]
    vortexes = ([(v, Move("vortex", hero=hero, square=state.square_name(v))) for v in state.free_vortexes(hero)]
                if "vortex" in actions and not state.theft else [])
    ends = state.mall.escalators if "escalator" in actions else {}
    # A straight move that crosses a square already searched from goes nowhere new beyond it:
    # that square's own move the same way reached everything further, first. (Not so for the
    # barbarian while cameras lock: the cameras it crosses on the way change what lies beyond.)
    searched: set[Cell] = set()
    beyond_searched = not (hero == "yellow" and context[1] >= 2)
    while queue:
        g = pop()
        if beyond_searched:
            searched.add(g)
        length, first = best[g]
        # the way to every square first found from g: one input further, the same first input
        # (from the start: none yet, each square's own first input)
        ahead = new_route((length + 1, first)) if first is not None else None
        for d, step in known[g] if g in known else openings(g, dwarf):  # the ways out, walls aside
            if step in searched or d not in directions:  # the first square searched: nothing new
                continue
            line = slide(hero, g, d, context)
            for h in line:
                if h in best:
                    if h in searched or h in fresh:
                        break
                elif h in fresh:  # an unused hourglass: the move ends on it, or goes no further
                    if flip_ok:
                        best[h] = ahead or Route(1, Move("move", hero=hero, direction=d, squares=line.index(h) + 1))
                        push(h)
                    break
                else:
                    best[h] = ahead or Route(1, Move("move", hero=hero, direction=d, squares=line.index(h) + 1))
                    if h not in leaves:
                        push(h)
        for v, move in vortexes:
            if v != g and v not in best:
                best[v] = ahead or Route(1, move)
                if v not in leaves:
                    push(v)
        h = ends.get(g)
        if h is not None and h not in others and h not in best:
            best[h] = ahead or Route(1, Move("escalator", hero=hero))
            if h not in leaves:
                push(h)
    return best


def _missing_items(state: MazeState) -> list[str]:
    on_board = {state.kind(g)[1] for g in state.mall.squares() if state.kind(g)[0] == "item"}
    return [h for h in state.heroes if h not in on_board]


def _exit_for(state: MazeState, hero: str) -> list[Cell]:
    colour = "purple" if state.scenario.exits == "shared" else hero
    return [g for g in state.mall.squares() if state.kind(g) == ("exit", colour)]


def _missing_exits(state: MazeState) -> list[str]:
    return [h for h, g in state.heroes.items() if g is not None and not _exit_for(state, h)]


@dataclass
class Analysis:
    """What the team sees in one state: each hero's shortest ways, the goal of the moment
    (``phase``) and its target squares per hero."""

    actions: set[str]
    flip: bool
    heroes: list[str]
    maps: dict[str, dict[Cell, Route]]
    phase: str
    goals: dict[str, set[Cell]]

    def candidates(self) -> list[Move]:
        """The first steps toward the goal's squares, nearest first (ties: by hero, then by
        the inputs' text)."""
        out: list[tuple[int, int, str, Move]] = []
        for i, h in enumerate(self.heroes):
            for g in self.goals.get(h, ()):
                route = self.maps[h].get(g)
                if route is not None and route.first is not None:
                    out.append((route.length, i, move_name(route.first), route.first))
                elif route is not None and self.phase == "explore":
                    move = Move("explore", hero=h)
                    out.append((0, i, move_name(move), move))
        return [c[3] for c in sorted(out, key=lambda c: c[:3])]


def analyse(state: MazeState) -> Analysis:
    """The team's view of ``state``, computed once per position and shared by the seats (the
    cache lives on the state, so no other game can ever read it)."""
    cache: dict[tuple[int, int], Analysis] = state.__dict__.setdefault("_planner_cache", {})
    key = (len(state.events), state.now_ms)
    if key not in cache:
        cache.clear()
        actions = team_actions(state)
        flip = flip_wanted(state)
        heroes = [h for h, g in state.heroes.items() if g is not None]
        maps = {h: routes(state, h, actions, flip) for h in heroes}
        phase, goals = _goals(state, actions, flip, heroes, maps)
        cache[key] = Analysis(actions, flip, heroes, maps, phase, goals)
    return cache[key]


def _goals(state: MazeState, actions: set[str], flip: bool, heroes: list[str],
           maps: dict[str, dict[Cell, Route]]) -> tuple[str, dict[str, set[Cell]]]:
    """The first goal of the moment that some hero can reach, and its squares per hero."""

    def pick(test) -> dict[str, set[Cell]]:  # type: ignore[no-untyped-def]
        found = {h: {g for g in maps[h] if test(h, g)} for h in heroes}
        return {h: gs for h, gs in found.items() if gs}

    if flip and not state.cameras_lock():
        budget = state.time_left_ms() // max(1, state.scenario.step_ms)
        goals = pick(lambda h, g: state.kind(g)[0] == "hourglass" and g not in state.used
                     and maps[h][g].length < budget)
        if goals:
            return "flip", goals
    if flip and state.cameras_lock() and "yellow" in maps:
        goals = pick(lambda h, g: h == "yellow" and state.kind(g)[0] == "camera" and g not in state.used)
        if goals:
            return "camera", goals
    need_explore = state.stack and ((not state.theft and _missing_items(state)) or _missing_exits(state))
    if need_explore and "explore" in actions:
        goals = pick(lambda h, g: state.kind(g)[1] == h and state.joinable(g) is not None)
        if goals:
            return "explore", goals
    if not state.theft:
        goals = pick(lambda h, g: state.kind(g) == ("item", h) and state.kind(state.heroes[h])[:2] != ("item", h))  # type: ignore[index]
        return "items", goals
    exits = {h: set(_exit_for(state, h)) for h in heroes}
    return "escape", pick(lambda h, g: g in exits[h])


def plans(state: MazeState) -> list[Move]:
    """The team's next inputs worth playing, best first (the first step of the shortest way
    to each target of the current goal); when none, a step that unjams the heroes."""
    a = analyse(state)
    found = a.candidates()
    if found:
        return found
    unjam = _unjam(state, a.heroes, a.maps)
    return [unjam] if unjam else []


def solo_step(state: MazeState, top: str) -> Move | None:
    """Solo: an input with the action on top that brings a hero nearer its target, if any."""
    a = analyse(state)
    if top == "explore" and a.phase == "explore":
        for h in a.heroes:
            if state.heroes[h] in a.goals.get(h, ()):
                return Move("explore", hero=h)
    best: tuple[int, int, Move] | None = None
    for i, h in enumerate(a.heroes):
        targets = [g for g in a.goals.get(h, ()) if g in a.maps[h]]
        if not targets:
            continue
        now = min(a.maps[h][g].length for g in targets)
        for g, route in routes(state, h, {top}, a.flip).items():
            if route.length != 1 or route.first is None:
                continue
            after = routes(state, h, a.actions, a.flip, start=g)
            left = min((after[t].length for t in targets if t in after), default=None)
            if left is not None and left < now and (best is None or (left, i) < best[:2]):
                best = (left, i, route.first)
    return best[2] if best else None


def _unjam(state: MazeState, heroes: list[str], maps: dict[str, dict[Cell, Route]]) -> Move | None:
    """Nothing leads anywhere: step a hero that is not where it belongs somewhere new."""
    for h in heroes:
        g = state.heroes[h]
        assert g is not None
        if not state.theft and state.kind(g) == ("item", h):
            continue
        for target in sorted(maps[h]):
            if maps[h][target].first is not None:
                return maps[h][target].first
    return None


def choose(state: MazeState, seat: str) -> Move | None:
    """What ``seat`` plays now: its share of the team plan, or None (another seat's turn)."""
    if state.result is not None:
        return None
    options = plans(state)
    if not options:
        return None
    if state.solo:  # a step with the action on top that helps; else turn the next tile
        top = state.discard[-1] if state.discard else None
        if top is None:
            return Move("draw")
        if action_needed(options[0]) == top:
            return options[0]
        return solo_step(state, top) or Move("draw")
    wanted = options[0]
    for s, hand in zip(state.seats, state.hands):
        if action_needed(wanted) in hand:
            return wanted if s == seat else None
    return None

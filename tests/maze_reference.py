"""The plain way the planner's searches were first written, kept as the model its fast search
must answer as (``tests/test_maze_planner_search.py``), never in the engine: ``reference_run``
walks the walls, ``reference_slide`` walks a run square by square, ``reference_routes``
searches square by square to the end, and ``reference_analysis`` / ``reference_plans`` /
``reference_solo_step`` / ``reference_choices`` read whole maps."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from arbiter.engine.games.magic_maze.mall import Mall
from arbiter.engine.games.magic_maze.moves import DIR_NAME, Move, action_needed, move_name
from arbiter.engine.games.magic_maze.planner import Route
from arbiter.engine.games.magic_maze.state import MazeState
from arbiter.engine.games.magic_maze.tiles import STEP, Cell


def reference_run(mall: Mall, start: Cell, d: str, dwarf: bool) -> list[Cell]:
    """The squares a straight line crosses before a wall, walked afresh (no memo)."""
    out, g = [], start
    while True:
        side = mall.side(g, d)
        h = (g[0] + STEP[d][0], g[1] + STEP[d][1])
        if side == "wall" or (side == "orange" and not dwarf) or mall.kinds[h][0] == "blocked":
            return out
        out.append(h)
        g = h


def reference_slide(state: MazeState, hero: str, start: Cell, d: str,
                    run: Callable[[Mall, Cell, str, bool], list[Cell]] = reference_run) -> list[Cell]:
    """The straight-move rule square by square, as first written (``run``: ``reference_run``,
    or the runs it walked in this mall)."""
    others = {c for h, c in state.heroes.items() if c is not None and h != hero}
    live = state.live_cameras()
    out = []
    for h in run(state.mall, start, d, hero == "orange"):
        kind, colour = state.mall.kinds[h]
        if h in others or (kind == "hourglass" and live >= 2):
            break
        out.append(h)
        if live and hero == "yellow" and kind == "camera" and h not in state.used:
            live -= 1
        if state.theft and kind == "exit" and colour == ("purple" if state.scenario.exits == "shared" else hero):
            break
    return out


def mall_of(state: MazeState) -> tuple:
    """Everything ``reference_run`` reads of the mall, as a value: the mall (the object itself:
    held, so no other mall can take its place), its tiles and squares (a tile's walls are frozen
    data; a mall only ever gains tiles) and every square's kind. Equal values walk equal runs."""
    mall = state.mall
    return mall, len(mall.placed), len(mall.at), tuple(mall.kinds.items())


def position_of(state: MazeState) -> tuple:
    """Everything ``reference_slide`` reads of a position besides the mall, as a value: the
    state (the object itself, held), the heroes' squares, the used squares (flipped hourglasses
    and disabled cameras) and the theft. Equal values (and malls) slide equally."""
    return state, tuple(state.heroes.items()), frozenset(state.used), state.theft


def same(a: tuple | None, b: tuple) -> bool:
    """Two of those values are equal: the same object first, then equal facts."""
    return a is not None and a[0] is b[0] and a[1:] == b[1:]


_MEMO: dict[str, Any] = {"mall": None, "runs": {}, "position": None, "slides": {}, "routes": {}}
"""The reference's walks in the mall and at the position the searches last read (``slides_at``),
and its searches at that position (``reference_routes``)."""


def slides_at(state: MazeState) -> tuple[dict[tuple[str, Cell, str], list[Cell]],
                                         dict[tuple[Cell, str, bool], list[Cell]]]:
    """Memos of ``reference_slide`` at this position and of ``reference_run`` in this mall, for
    the searches made there (the routes of every hero, action set and start; the runs also for
    later positions in the same mall): each slide and run is walked once, as it was walked
    afresh for each search, and is the same list, since nothing it reads differs between them
    (what ``mall_of`` and ``position_of`` compare). Each is dropped when that differs."""
    mall, position = mall_of(state), position_of(state)
    if not same(_MEMO["mall"], mall):
        _MEMO["mall"], _MEMO["runs"], _MEMO["position"] = mall, {}, None
    if not same(_MEMO["position"], position):
        _MEMO["position"], _MEMO["slides"], _MEMO["routes"] = position, {}, {}
    return _MEMO["slides"], _MEMO["runs"]


def reference_routes(state: MazeState, hero: str, actions: set[str], flip_ok: bool,
                     start: Cell | None = None) -> Mapping[Cell, Route]:
    """The planner's breadth-first search, plain (``search_routes``), made once at a position
    for each hero, action set, flip and start: the checks of one position ask for the same
    search more than once (the analysis's maps, a solo step's searches, a seat's choice, the
    routes' own check), and get the same map, since nothing the search reads differs between
    them (what ``mall_of`` and ``position_of`` compare; ``slides_at`` drops the searches with
    the slides). The map is read-only: every caller reads the one search."""
    slides_at(state)  # (drops the searches of another position)
    key = (hero, frozenset(actions), flip_ok, start)
    found = _MEMO["routes"].get(key)
    if found is None:
        found = _MEMO["routes"][key] = MappingProxyType(search_routes(state, hero, actions, flip_ok, start))
    return found


def search_routes(state: MazeState, hero: str, actions: set[str], flip_ok: bool,
                  start: Cell | None = None) -> dict[Cell, Route]:
    """The planner's breadth-first search, plain: a Route made for every square, every straight
    move scanned to its end (no short cut past squares already searched from). Each slide is
    ``reference_slide``'s (its runs ``reference_run``'s), walked once for all searches that
    read it at the position (``slides_at``)."""
    slides, runs = slides_at(state)

    def run(mall: Mall, g: Cell, d: str, dwarf: bool) -> list[Cell]:
        out = runs.get((g, d, dwarf))
        if out is None:
            out = runs[(g, d, dwarf)] = reference_run(mall, g, d, dwarf)
        return out

    def slide(g: Cell, d: str) -> list[Cell]:
        out = slides.get((hero, g, d))
        if out is None:
            out = slides[(hero, g, d)] = reference_slide(state, hero, g, d, run)
        return out

    start = start if start is not None else state.heroes[hero]
    assert start is not None
    best: dict[Cell, Route] = {start: Route(0, None)}
    queue = deque([start])
    kinds, used = state.mall.kinds, state.used
    directions = [d for d in "NESW" if DIR_NAME[d] in actions]
    free = [g for g in state.mall.squares() if kinds[g] == ("vortex", hero) and state.hero_at(g) in (None, hero)]
    vortexes = ([(v, Move("vortex", hero=hero, square=state.square_name(v))) for v in free]
                if "vortex" in actions and not state.theft else [])
    escalator = "escalator" in actions

    def leaves(g: Cell) -> bool:
        return state.theft and kinds[g] == ("exit", "purple" if state.scenario.exits == "shared" else hero)

    while queue:
        g = queue.popleft()
        length, first = best[g]
        length += 1
        for d in directions:
            for n, h in enumerate(slide(g, d), start=1):
                fresh = kinds[h][0] == "hourglass" and h not in used
                if fresh and not flip_ok:
                    break
                if h not in best:
                    best[h] = Route(length, first or Move("move", hero=hero, direction=d, squares=n))
                    if not leaves(h):
                        queue.append(h)
                if fresh:
                    break
        for v, move in vortexes:
            if v != g and v not in best:
                best[v] = Route(length, first or move)
                if not leaves(v):
                    queue.append(v)
        if escalator:
            placed, local = state.mall.at[g]
            other = placed.tile.escalators.get(local)
            h = None if other is None else placed.glob(other)
            if h is not None and state.hero_at(h) in (None, hero) and h not in best:
                best[h] = Route(length, first or Move("escalator", hero=hero))
                if not leaves(h):
                    queue.append(h)
    return best


class Reference(NamedTuple):
    """The team's view of a position, as first written."""

    actions: set[str]
    flip: bool
    heroes: list[str]
    maps: dict[str, Mapping[Cell, Route]]
    phase: str
    goals: dict[str, set[Cell]]


def reference_analysis(state: MazeState) -> Reference:
    """Actions, flip, heroes, every hero's whole map, the goal of the moment and its squares,
    as first written (every map searched to its end and read square by square)."""
    actions = set(state.data.solo) if state.solo else {a for hand in state.hands for a in hand}
    flip = state.time_left_ms() * 2 < state.scenario.timer_ms
    heroes = [h for h, g in state.heroes.items() if g is not None]
    maps = {h: reference_routes(state, h, actions, flip) for h in heroes}
    squares = state.mall.squares()

    def exit_for(hero: str) -> list[Cell]:
        colour = "purple" if state.scenario.exits == "shared" else hero
        return [g for g in squares if state.kind(g) == ("exit", colour)]

    def pick(test) -> dict[str, set[Cell]]:  # type: ignore[no-untyped-def]
        found = {h: {g for g in maps[h] if test(h, g)} for h in heroes}
        return {h: gs for h, gs in found.items() if gs}

    def goals() -> tuple[str, dict[str, set[Cell]]]:
        if flip and not state.cameras_lock():
            budget = state.time_left_ms() // max(1, state.scenario.step_ms)
            found = pick(lambda h, g: state.kind(g)[0] == "hourglass" and g not in state.used
                         and maps[h][g].length < budget)
            if found:
                return "flip", found
        if flip and state.cameras_lock() and "yellow" in maps:
            found = pick(lambda h, g: h == "yellow" and state.kind(g)[0] == "camera" and g not in state.used)
            if found:
                return "camera", found
        on_board = {state.kind(g)[1] for g in squares if state.kind(g)[0] == "item"}
        missing_items = [h for h in state.heroes if h not in on_board]
        missing_exits = [h for h, g in state.heroes.items() if g is not None and not exit_for(h)]
        if state.stack and ((not state.theft and missing_items) or missing_exits) and "explore" in actions:
            found = pick(lambda h, g: state.kind(g)[1] == h and state.joinable(g) is not None)
            if found:
                return "explore", found
        if not state.theft:
            return "items", pick(lambda h, g: state.kind(g) == ("item", h)
                                 and state.kind(state.heroes[h])[:2] != ("item", h))  # type: ignore[index]
        exits = {h: set(exit_for(h)) for h in heroes}
        return "escape", pick(lambda h, g: g in exits[h])

    phase, found = goals()
    return Reference(actions, flip, heroes, maps, phase, found)


def reference_candidates(ref: Reference) -> list[Move]:
    """The first steps toward the goal's squares, nearest first, as first written."""
    out: list[tuple[int, int, str, Move]] = []
    for i, h in enumerate(ref.heroes):
        for g in ref.goals.get(h, ()):
            route = ref.maps[h].get(g)
            if route is not None and route.first is not None:
                out.append((route.length, i, move_name(route.first), route.first))
            elif route is not None and ref.phase == "explore":
                move = Move("explore", hero=h)
                out.append((0, i, move_name(move), move))
    return [c[3] for c in sorted(out, key=lambda c: c[:3])]


def reference_plans(state: MazeState, ref: Reference) -> list[Move]:
    """The team's inputs worth playing, best first, as first written."""
    heroes, maps = ref.heroes, ref.maps
    out = reference_candidates(ref)
    if out:
        return out
    for h in heroes:
        g = state.heroes[h]
        assert g is not None
        if not state.theft and state.kind(g) == ("item", h):
            continue
        for target in sorted(maps[h]):
            if maps[h][target].first is not None:
                return [maps[h][target].first]  # type: ignore[list-item]
    return []


def reference_solo_step(state: MazeState, top: str, ref: Reference) -> Move | None:
    """Solo: the input with the action on top that brings a hero nearest its target, as first
    written (a whole search from every square one input away)."""
    actions, flip, heroes, maps, phase, goals = ref
    if top == "explore" and phase == "explore":
        for h in heroes:
            if state.heroes[h] in goals.get(h, ()):
                return Move("explore", hero=h)
    best: tuple[int, int, Move] | None = None
    for i, h in enumerate(heroes):
        targets = [g for g in goals.get(h, ()) if g in maps[h]]
        if not targets:
            continue
        now = min(maps[h][g].length for g in targets)
        for g, route in reference_routes(state, h, {top}, flip).items():
            if route.length != 1 or route.first is None:
                continue
            after = reference_routes(state, h, actions, flip, start=g)
            left = min((after[t].length for t in targets if t in after), default=None)
            if left is not None and left < now and (best is None or (left, i) < best[:2]):
                best = (left, i, route.first)
    return best[2] if best else None


def reference_choices(state: MazeState, ref: Reference) -> list[Move | None]:
    """What each seat plays, as first written: the first of the whole plans."""
    if state.result is not None:
        return [None for _ in state.seats]
    options = reference_plans(state, ref)
    if not options:
        return [None for _ in state.seats]
    if state.solo:
        top = state.discard[-1] if state.discard else None
        if top is None:
            return [Move("draw")]
        if action_needed(options[0]) == top:
            return [options[0]]
        return [reference_solo_step(state, top, ref) or Move("draw")]
    holder = next((s for s, hand in zip(state.seats, state.hands) if action_needed(options[0]) in hand), None)
    return [options[0] if s == holder else None for s in state.seats]

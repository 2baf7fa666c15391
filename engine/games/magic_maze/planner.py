"""The ``planner`` bot: a team plan that actually tries to win, computed the same way by every
seat from public facts, so the seats cooperate without talking.

Each time a seat is asked, the team's next action is worked out: flip an hourglass when the
sand is low (and more than half has run), else explore while an item or exit is missing,
else bring heroes onto their items, else out through their exits. A hero's way there is a
breadth-first search over the mall with the actions the team holds (straight moves to every
square they can stop on, vortexes before the theft, escalators), other heroes standing still
(``search.py``): each search goes only as far as the plan reads it, and goes on at the next
position while the board is the same. The seat holding the first action of the nearest way
plays it; the others wait (None). Solo: turn action tiles (``draw``) until the one needed is
on top, or one that brings a hero nearer (``solo_step``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from arbiter.engine.games.magic_maze.moves import Move, action_needed, move_name
from arbiter.engine.games.magic_maze.search import Route, Search, routes
from arbiter.engine.games.magic_maze.tiles import Cell

if TYPE_CHECKING:
    from arbiter.engine.games.magic_maze.state import MazeState

__all__ = ["Analysis", "Route", "Search", "analyse", "choose", "flip_wanted", "plans", "routes", "solo_step",
           "team_actions"]


def team_actions(state: MazeState) -> set[str]:
    if state.solo:
        return set(state.data.solo)
    return {a for hand in state.hands for a in hand}


def flip_wanted(state: MazeState) -> bool:
    """Flipping gives back what has run: worth it once more than half has run."""
    return state.time_left_ms() * 2 < state.scenario.timer_ms


def _missing_items(state: MazeState) -> list[str]:
    on_board = {state.kind(g)[1] for g in state.mall.with_kind("item")}
    return [h for h in state.heroes if h not in on_board]


def _exit_for(state: MazeState, hero: str) -> list[Cell]:
    colour = "purple" if state.scenario.exits == "shared" else hero
    return [g for g in state.mall.with_kind("exit") if state.kind(g)[1] == colour]


def _missing_exits(state: MazeState) -> list[str]:
    return [h for h, g in state.heroes.items() if g is not None and not _exit_for(state, h)]


@dataclass
class Analysis:
    """What the team sees in one state: each hero's shortest ways (searched as far as they are
    read), the goal of the moment (``phase``) with each hero's squares for it (``targets``,
    reachable or not; for a flip, only those fewer than ``budget`` inputs away count), and the
    goal's squares each hero can reach (``goals``)."""

    actions: set[str]
    flip: bool
    heroes: list[str]
    maps: dict[str, Search]
    phase: str
    targets: dict[str, list[Cell]]
    budget: int | None

    @cached_property
    def goals(self) -> dict[str, set[Cell]]:
        """Per hero, the targets it can reach (only the heroes with some)."""
        budget = self.budget
        found = {h: {g for g in squares if g in self.maps[h] and (budget is None or self.maps[h][g].length < budget)}
                 for h, squares in self.targets.items()}
        return {h: gs for h, gs in found.items() if gs}

    def distance(self, hero: str) -> int | None:
        """How many inputs ``hero`` is from the nearest of its targets (None: it can reach none,
        ``goals`` lacks it), without reading its map whole."""
        squares = self.targets.get(hero)
        return self.maps[hero].nearest(squares, self.budget) if squares else None

    def reaches(self, hero: str, g: Cell) -> bool:
        """Whether ``g`` is one of ``goals[hero]``, without reading the map whole."""
        return g in self.targets.get(hero, ()) and self.maps[hero].nearest((g,), self.budget) is not None

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

    @cached_property
    def best(self) -> Move | None:
        """The first of ``candidates()`` (None when there are none), without reading the goals
        whole: the heroes' searches go on together, one input further at a time, until one
        reaches one of its targets (the first hero in order, at that length, comes first)."""
        ways: dict[str, list[Cell]] = {}
        for h in self.heroes:
            search, squares = self.maps[h], self.targets.get(h, [])
            if self.phase == "explore" and search.start in squares:  # standing on one: explore now
                return Move("explore", hero=h)
            if squares:
                ways[h] = [g for g in squares if g != search.start]  # the start is no way anywhere
        length = 1
        while ways and (self.budget is None or length < self.budget):
            for h in list(ways):
                search = self.maps[h]
                reached = search.at_length(ways[h], length)
                if reached:  # ties: by the inputs' text
                    firsts = [search[g].first for g in reached]
                    return min(firsts, key=move_name)  # type: ignore[arg-type]
                if not search.reaches_beyond(ways[h], length):
                    del ways[h]
            length += 1
        return None


def analyse(state: MazeState) -> Analysis:
    """The team's view of ``state``, computed once per position and shared by the seats (the
    memo lives on the state, so no other game can ever read it). The heroes' searches are kept
    while all they read stays the same (a solo draw changes none of it): they go on from where
    the last position left them."""
    memo: dict[str, Any] = state.__dict__.setdefault("_planner_cache", {})
    at = (len(state.events), state.now_ms)
    if memo.get("at") != at:
        actions = team_actions(state)
        flip = flip_wanted(state)
        heroes = [h for h, g in state.heroes.items() if g is not None]
        board = (state.snapshot_key(), flip, frozenset(actions))  # what the searches read
        if memo.get("board") != board:
            memo["board"], memo["maps"] = board, {h: routes(state, h, actions, flip) for h in heroes}
        maps = memo["maps"]
        phase, targets, budget = _phase(state, actions, flip, heroes, maps)
        memo["at"], memo["analysis"] = at, Analysis(actions, flip, heroes, maps, phase, targets, budget)
    return memo["analysis"]


def _phase(state: MazeState, actions: set[str], flip: bool, heroes: list[str],
           maps: dict[str, Search]) -> tuple[str, dict[str, list[Cell]], int | None]:
    """The first goal of the moment that some hero can reach (items or escape at the latest),
    each hero's squares for it, and for a flip the most inputs a way there may take (less)."""

    def reached(targets: dict[str, list[Cell]], below: int | None = None) -> bool:
        """Whether some hero can reach one of its targets (in fewer than ``below`` inputs)."""
        return any(maps[h].nearest(squares, below) is not None for h, squares in targets.items() if squares)

    kinds = state.mall.kinds
    if flip and not state.cameras_lock():
        budget = state.time_left_ms() // max(1, state.scenario.step_ms)
        hourglasses = state.unused("hourglass")
        targets = {h: hourglasses for h in heroes}
        if reached(targets, budget):
            return "flip", targets, budget
    if flip and state.cameras_lock() and "yellow" in maps:
        targets = {"yellow": state.unused("camera")}
        if reached(targets):
            return "camera", targets, None
    need_explore = state.stack and ((not state.theft and _missing_items(state)) or _missing_exits(state))
    if need_explore and "explore" in actions:  # a joinable square is an exploration square
        targets = {h: [g for g in state.mall.with_kind("explore") if kinds[g][1] == h and state.joinable(g) is not None]
                   for h in heroes}
        if reached(targets):
            return "explore", targets, None
    if not state.theft:  # each hero onto its item, but one standing on it already
        on_item = {h for h in heroes if kinds[state.heroes[h]][:2] == ("item", h)}  # type: ignore[index]
        return "items", {h: [] if h in on_item else [g for g in state.mall.with_kind("item") if kinds[g] == ("item", h)]
                         for h in heroes}, None
    return "escape", {h: _exit_for(state, h) for h in heroes}, None


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
    """Solo: an input with the action on top that brings a hero nearer its target, if any: the
    one that leaves a hero nearest (ties: the first hero, then the first input found). One
    input brings a hero one input nearer at most, as the first of a shortest way
    (``Search.through``); but an exit the hero leaves by is searched on from all the same."""
    a = analyse(state)
    if top == "explore" and a.phase == "explore":
        for h in a.heroes:
            if state.heroes[h] in a.targets.get(h, ()):
                return Move("explore", hero=h)
    best: tuple[int, int, Move] | None = None
    for i, h in enumerate(a.heroes):
        search, squares, now = a.maps[h], a.targets.get(h), a.distance(h)
        if now is None:
            continue
        for g, route in search.again(actions={top}).first_steps():
            if g in search.leaves:  # an exit the hero leaves by: searched on from all the same
                below = now if best is None else min(now, best[0])
                left = search.again(start=g).nearest(a.goals[h], below)
            else:  # nearer than now, and than the best so far (heroes come in order)
                left = now - 1 if (best is None or now <= best[0]) and search.through(g, squares) else None
            if left is not None:
                best = (left, i, route.first)  # type: ignore[assignment]
    return best[2] if best else None


def _unjam(state: MazeState, heroes: list[str], maps: dict[str, Search]) -> Move | None:
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
    wanted = analyse(state).best or next(iter(plans(state)), None)  # plans() first, read no further
    if wanted is None:
        return None
    if state.solo:  # a step with the action on top that helps; else turn the next tile
        top = state.discard[-1] if state.discard else None
        if top is None:
            return Move("draw")
        if action_needed(wanted) == top:
            return wanted
        return solo_step(state, top) or Move("draw")
    for s, hand in zip(state.seats, state.hands):
        if action_needed(wanted) in hand:
            return wanted if s == seat else None
    return None

"""What the rules read off the board: heroes on squares, the squares' kinds, live cameras,
free vortexes, escalators, joinable exploration squares, usable exits, and the one
straight-move rule (``slide``) that the state's moves and the planner both ask.

``BoardFacts`` is a base of ``MazeState``: it changes nothing, and reads the attributes the
state keeps (declared here).
"""

from __future__ import annotations

from arbiter.engine.games.magic_maze.data import Scenario
from arbiter.engine.games.magic_maze.mall import Mall, joined_origin
from arbiter.engine.games.magic_maze.tiles import Cell


class BoardFacts:
    scenario: Scenario
    mall: Mall
    heroes: dict[str, Cell | None]
    used: set[Cell]  # used hourglasses and crystal balls, disabled cameras
    theft: bool

    def snapshot(self) -> BoardFacts:
        """These facts as they are now, apart from the state: the heroes' squares, the used
        squares and the theft copied, the scenario and the mall shared (a mall changes only when
        a tile joins). What a planner's search reads while it goes on."""
        facts = BoardFacts()
        facts.scenario, facts.mall, facts.theft = self.scenario, self.mall, self.theft
        facts.heroes, facts.used = dict(self.heroes), set(self.used)
        return facts

    def snapshot_key(self) -> tuple:
        """What ``snapshot`` keeps, as a value: equal keys, equal snapshots (the mall is the
        same while no tile joins)."""
        return tuple(self.heroes.values()), frozenset(self.used), self.theft, len(self.mall.placed)

    def square_name(self, g: Cell) -> str:
        return self.mall.square_name(g)

    def hero_at(self, g: Cell) -> str | None:
        for h, c in self.heroes.items():
            if c == g:
                return h
        return None

    def kind(self, g: Cell) -> tuple[str, str | None]:
        return self.mall.kinds[g]

    def unused(self, kind: str) -> list[Cell]:
        """The squares of ``kind`` not used yet (an hourglass not flipped, a camera not
        disabled), sorted."""
        return [g for g in self.mall.with_kind(kind) if g not in self.used]

    def live_cameras(self) -> int:
        """The cameras on the board that are not disabled (none count without the camera rule)."""
        if not self.scenario.cameras:
            return 0
        return len(self.unused("camera"))

    def cameras_lock(self) -> bool:
        """Two or more live cameras on the board forbid every hourglass square."""
        return self.live_cameras() >= 2

    def free_vortexes(self, hero: str) -> list[Cell]:
        """The vortexes of ``hero``'s colour no other hero stands on."""
        kinds = self.mall.kinds
        return [g for g in self.mall.with_kind("vortex") if kinds[g][1] == hero and self.hero_at(g) in (None, hero)]

    def escalator_end(self, g: Cell) -> Cell | None:
        """The other end of the escalator whose end is ``g``; None when ``g`` is not one."""
        return self.mall.escalators.get(g)

    def joinable(self, g: Cell) -> str | None:
        """The side of ``g`` when a tile can join there now: an unexplored exploration square
        whose tile would overlap nothing."""
        side = self.mall.unexplored(g)
        return side if side and self.mall.overlap(joined_origin(g, side)) is None else None

    def exit_usable(self, g: Cell, hero: str) -> bool:
        kind, colour = self.kind(g)
        if kind != "exit" or not self.theft:
            return False
        return colour == "purple" if self.scenario.exits == "shared" else colour == hero

    def usable_exits(self, hero: str) -> set[Cell]:
        """The squares where ``hero`` would leave the mall now (see ``exit_usable``)."""
        return {g for g in self.mall.with_kind("exit") if self.exit_usable(g, hero)}

    def slide_context(self, hero: str) -> tuple[set[Cell], int]:
        """What ``slide`` reads of the heroes and cameras: the squares of the other heroes, and
        the live cameras. A caller that slides many times while nothing moves (a planner's
        search) may take it once and hand it to ``slide``."""
        return {c for h, c in self.heroes.items() if c is not None and h != hero}, self.live_cameras()

    def slide(self, hero: str, start: Cell, d: str,
              context: tuple[set[Cell], int] | None = None) -> tuple[Cell, ...]:
        """The squares a straight move of ``hero`` from ``start`` toward ``d`` enters, in order:
        each one a square the move may stop on (the other heroes standing still). It stops
        before a wall, a hero, a blocked square, a locked hourglass or the mall's edge, and on
        a usable exit (the hero leaves). Cameras the barbarian enters stop locking hourglasses
        at once. The one straight-move rule: ``path`` and the planner both ask it."""
        others, live = context if context is not None else self.slide_context(hero)
        squares, marks = self.mall.run(start, d, hero == "orange")  # the walls' part of the rule
        end = len(squares)
        if not others.isdisjoint(squares):  # the heroes' part: it stops before the first one in the way
            end = min(squares.index(g) for g in others if g in squares)
        for i, g, kind in marks:  # the locks' and the exits' part, square by square up to there
            if i >= end:
                break
            if kind == "hourglass":
                if live >= 2:
                    end = i
                    break
            elif kind == "camera":
                if live and hero == "yellow" and g not in self.used:
                    live -= 1
            elif self.theft and self.exit_usable(g, hero):  # an exit: the hero leaves there
                end = i + 1
                break
        return squares if end == len(squares) else squares[:end]

    def path(self, hero: str, d: str) -> list[Cell]:
        """The squares a straight move of ``hero`` toward ``d`` enters from where it stands, as
        far as it goes (see ``slide``)."""
        g = self.heroes[hero]
        assert g is not None
        return list(self.slide(hero, g, d))

"""The mall: placed tiles on one global grid of squares, and the geometry of joining a tile.

Global squares are (row, column), row growing southward, with the start tile's north-west
square at (0, 0). A tile joined at an exploration square on side D of its tile is turned so
its entrance faces back, and set so entrance and exploration square are neighbours; because
doors sit off-centre, the new tile is offset by one square (the staggered layout).

>>> [joined_origin(DOORS[side], side) for side in "NESW"]  # around a tile whose corner is (0, 0)
[(-4, 1), (1, 4), (4, -1), (-1, -4)]
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, NamedTuple

from arbiter.engine.games.magic_maze.tiles import (
    DIRECTIONS, DOOR_SIDE, DOORS, OPPOSITE, SIZE, STEP, Cell, Tile, cell_name, parse_cell,
)


@dataclass(frozen=True)
class Placed:
    """A tile on the grid: its name, the global square of its north-west corner, its turn."""

    name: str
    origin: Cell
    quarters: int
    tile: Tile  # already turned

    def cells(self) -> list[Cell]:
        return [(self.origin[0] + r, self.origin[1] + c) for r in range(SIZE) for c in range(SIZE)]

    def local(self, g: Cell) -> Cell:
        return g[0] - self.origin[0], g[1] - self.origin[1]

    def glob(self, local: Cell) -> Cell:
        return self.origin[0] + local[0], self.origin[1] + local[1]


def joined_origin(door_square: Cell, side: str) -> Cell:
    """Where a tile joined at the exploration square ``door_square`` (global) on ``side`` has its
    north-west corner: its entrance is the neighbour beyond that side."""
    beyond = door_square[0] + STEP[side][0], door_square[1] + STEP[side][1]
    entrance = DOORS[OPPOSITE[side]]
    return beyond[0] - entrance[0], beyond[1] - entrance[1]


def joined_quarters(side: str) -> int:
    """Quarter turns (clockwise) that bring a tile's entrance from south to face ``side``'s
    opposite: N -> 0, E -> 1, S -> 2, W -> 3."""
    return DIRECTIONS.index(side)


def is_door_code(code: str) -> bool:
    return code == "In" or code[0] == "E"


MARKED = frozenset({"hourglass", "camera", "exit"})
"""The kinds of square on which the rules may end or change a straight move that crosses them
(``BoardFacts.slide``): a locked hourglass, a camera the barbarian disables, a usable exit."""


class Run(NamedTuple):
    """A straight run of squares (``Mall.run``), and its ``MARKED`` squares: (index in the run,
    square, kind), in order."""

    squares: tuple[Cell, ...]
    marks: tuple[tuple[int, Cell, str], ...]


_ONE_LEVEL = frozenset(("placed", "at", "kinds", "by_kind", "escalators", "_runs", "_run_ends", "_openings"))
"""The mall's attributes a copy makes of its own one level down (``Mall.__deepcopy__``)."""


class Mall:
    """The placed tiles. What never changes until the next tile joins is kept at hand: each
    square's kind (``kinds``), the squares of each kind (``with_kind``), the escalators' ends
    (``escalators``), and the straight runs of squares a hero could cross with nothing in its
    way (``run``) with the ways out of each square (``openings``): those a new tile changes are
    dropped when it is placed."""

    def __init__(self) -> None:
        self.placed: list[Placed] = []
        self.at: dict[Cell, tuple[Placed, Cell]] = {}
        self.kinds: dict[Cell, tuple[str, str | None]] = {}  # (kind, colour) of every square
        self.by_kind: dict[str, tuple[Cell, ...]] = {}  # the squares of each kind, sorted
        self.escalators: dict[Cell, Cell] = {}  # each escalator end -> the other end
        self._runs: dict[tuple[Cell, str, bool], Run] = {}
        self._run_ends: dict[tuple[Cell, str], list[tuple[Cell, str, bool]]] = {}  # (last square, d) -> runs
        self._openings: dict[bool, dict[Cell, tuple[tuple[str, Cell], ...]]] = {False: {}, True: {}}

    # -- building ------------------------------------------------------------------------------
    def overlap(self, origin: Cell) -> Cell | None:
        """A square a tile at ``origin`` would share with a placed tile, if any."""
        for r in range(SIZE):
            for c in range(SIZE):
                g = (origin[0] + r, origin[1] + c)
                if g in self.at:
                    return g
        return None

    def place(self, name: str, tile: Tile, origin: Cell, quarters: int) -> Placed:
        clash = self.overlap(origin)
        if clash is not None:
            raise ValueError(f"tile {name} would overlap {self.square_name(clash)}")
        placed = Placed(name, origin, quarters, tile.turned(quarters))
        self.placed.append(placed)
        for g in placed.cells():
            self.at[g] = (placed, placed.local(g))
            self.kinds[g] = placed.tile.kind(placed.local(g))
            kind = self.kinds[g][0]
            self.by_kind[kind] = tuple(sorted((*self.by_kind.get(kind, ()), g)))
        for a, b in placed.tile.escalators.items():
            self.escalators[placed.glob(a)] = placed.glob(b)
        self._forget_doors_of(placed)
        return placed

    def _forget_doors_of(self, placed: Placed) -> None:
        """Drop what a newly placed tile changes of the memos: the runs that ended before a
        door it opens (they go on into the tile now), and the ways out of that door's square.
        Nothing else changes: within a tile walls stay, and tiles meet only where doors do."""
        for g in placed.cells():
            for d in DIRECTIONS:
                door = (g[0] + STEP[d][0], g[1] + STEP[d][1])  # g's neighbour toward d
                back = OPPOSITE[d]  # from there toward g
                if door in self.at and self.at[door][0] is not placed and self.side(door, back) != "wall":
                    # a square of another tile that opens onto the new one now
                    for key in self._run_ends.pop((door, back), ()):
                        del self._runs[key]
                    for memo in self._openings.values():
                        memo.pop(door, None)

    def __deepcopy__(self, memo: dict[int, Any]) -> Mall:
        """A copy of the mall (a game's copy, ``Session.copy``): dicts and lists of its own holding
        the same placed tiles, squares and runs, none of which changes once made (a tile is placed
        whole; a run is dropped, never changed, when a tile joins); its memos kept, as the copy
        reads the same mall. Any other attribute is copied deeply."""
        twin = Mall.__new__(Mall)
        memo[id(self)] = twin
        state = self.__dict__
        twin.__dict__.update({name: copy.deepcopy(value, memo) for name, value in state.items() if name not in _ONE_LEVEL})
        twin.placed, twin.at, twin.kinds = list(self.placed), dict(self.at), dict(self.kinds)
        twin.by_kind, twin.escalators, twin._runs = dict(self.by_kind), dict(self.escalators), dict(self._runs)
        twin._run_ends = {key: list(runs) for key, runs in self._run_ends.items()}
        twin._openings = {dwarf: dict(found) for dwarf, found in self._openings.items()}
        return twin

    def __getstate__(self) -> dict:
        """A copy or a snapshot of the mall leaves out the runs and the ways out: memos, not
        the mall."""
        return self.__dict__ | {"_runs": {}, "_run_ends": {}, "_openings": {False: {}, True: {}}}

    def run(self, start: Cell, d: str, dwarf: bool) -> Run:
        """The squares a straight line from ``start`` toward ``d`` crosses before a wall (an
        orange wall too, unless ``dwarf``), a blocked square or the mall's edge: where a move
        could go were nothing else in its way (heroes, locks and exits are the rules' to judge,
        on the run's ``MARKED`` squares)."""
        key = (start, d, dwarf)
        found = self._runs.get(key)
        if found is None:
            out: list[Cell] = []
            g = start
            while True:
                side = self.side(g, d)
                h = (g[0] + STEP[d][0], g[1] + STEP[d][1])
                if side == "wall" or (side == "orange" and not dwarf) or self.kinds[h][0] == "blocked":
                    break
                out.append(h)
                g = h
            marks = tuple((i, h, self.kinds[h][0]) for i, h in enumerate(out) if self.kinds[h][0] in MARKED)
            found = self._runs[key] = Run(tuple(out), marks)
            self._run_ends.setdefault((g, d), []).append(key)
        return found

    def openings(self, g: Cell, dwarf: bool) -> tuple[tuple[str, Cell], ...]:
        """The directions (N, E, S, W order) toward which ``run`` from ``g`` crosses a square,
        each with that first square, the neighbour of ``g``. Found once per square, and kept
        (``known_openings``) until a tile joins there."""
        memo = self._openings[dwarf]
        found = memo.get(g)
        if found is None:
            found = memo[g] = tuple((d, run[0]) for d in DIRECTIONS if (run := self.run(g, d, dwarf).squares))
        return found

    def known_openings(self, dwarf: bool) -> dict[Cell, tuple[tuple[str, Cell], ...]]:
        """The openings found so far (``openings``), by square: a search may read them here first."""
        return self._openings[dwarf]

    # -- reading -------------------------------------------------------------------------------
    def code(self, g: Cell) -> str | None:
        hit = self.at.get(g)
        return None if hit is None else hit[0].tile.code[hit[1]]

    def door_side(self, g: Cell) -> str | None:
        """The side a door square (entrance or exploration) opens to; None for other squares."""
        hit = self.at.get(g)
        if hit is None:
            return None
        placed, local = hit
        side = DOOR_SIDE.get(local)
        return side if side and is_door_code(placed.tile.code[local]) else None

    def side(self, g: Cell, d: str) -> str:
        """What lies between ``g`` and its neighbour toward ``d``: "open", "orange" or "wall"
        ("wall" too at the mall's edge, and between tiles except where two doors meet)."""
        hit = self.at.get(g)
        h = (g[0] + STEP[d][0], g[1] + STEP[d][1])
        other = self.at.get(h)
        if hit is None or other is None:
            return "wall"
        if other[0] is hit[0]:
            return hit[0].tile.side[(hit[1], d)]
        return "open" if self.door_side(g) == d and self.door_side(h) == OPPOSITE[d] else "wall"

    def unexplored(self, g: Cell) -> str | None:
        """The side of ``g`` if it is an exploration square with no tile beyond it yet."""
        code = self.code(g)
        side = self.door_side(g)
        if code is None or side is None or code[0] != "E":
            return None
        beyond = (g[0] + STEP[side][0], g[1] + STEP[side][1])
        return None if beyond in self.at else side

    def squares(self) -> list[Cell]:
        return sorted(self.at)

    def with_kind(self, kind: str) -> tuple[Cell, ...]:
        """The squares of ``kind`` (any colour), sorted."""
        return self.by_kind.get(kind, ())

    def square_name(self, g: Cell) -> str:
        """>>> m = Mall(); from arbiter.engine.games.magic_maze.tiles import EXAMPLE, parse_map
        >>> _ = m.place("2", parse_map("2", EXAMPLE), (-4, 1), 0)
        >>> m.square_name((-4, 3))
        '2.c1'
        """
        placed, local = self.at[g]
        return f"{placed.name.lower()}.{cell_name(local)}"

    def parse_square(self, text: str) -> Cell | None:
        """The global square a name like ``2.c1`` (tile 2, column c, row 1) stands for."""
        name, dot, cell = text.lower().partition(".")
        local = parse_cell(cell) if dot else None
        if local is None:
            return None
        for placed in self.placed:
            if placed.name.lower() == name:
                return placed.glob(local)
        return None

    def bounds(self) -> tuple[int, int, int, int]:
        rows = [g[0] for g in self.at]
        cols = [g[1] for g in self.at]
        return min(rows), max(rows), min(cols), max(cols)

"""Magic Maze mall tiles: parsing the ASCII maps of ``scenarios/magic_maze/tiles.yaml``,
turning tiles, and checking that every square of a tile can be reached from its entrance.

A tile is a 4x4 grid of squares, (row, column) from the north-west corner. Each square has a
2-character code (``..`` floor, ``##`` blocked, ``Ip`` purple item, ``Eo`` orange exploration
square, ...) and each of its four sides is open, a wall, or an orange wall.

>>> t = parse_map("x", EXAMPLE)
>>> t.code[(3, 1)], t.side[((3, 1), "S")], t.side[((1, 1), "E")]
('In', 'open', 'wall')
>>> t.turned(1).code[(1, 0)]  # a quarter turn clockwise takes the south door to the west door
'In'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Any

Cell = tuple[int, int]
SIZE = 4
COLOURS = {"p": "purple", "y": "yellow", "g": "green", "o": "orange"}
HERO_OF = {"purple": "mage", "yellow": "barbarian", "green": "elf", "orange": "dwarf"}
DIRECTIONS = ("N", "E", "S", "W")
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
DOORS: dict[str, Cell] = {"N": (0, 2), "E": (2, 3), "S": (3, 1), "W": (1, 0)}
DOOR_SIDE = {cell: side for side, cell in DOORS.items()}
CENTRE = ((1, 1), (1, 2), (2, 1), (2, 2))
FIXED_CODES = {"..": "floor", "##": "blocked", "In": "entrance", "Hg": "hourglass", "Cb": "crystal",
               "Cm": "camera"}
COLOURED = {"I": "item", "X": "exit", "V": "vortex", "E": "explore"}
WALLS_H = {"--": "wall", "==": "orange", "  ": "open"}
WALLS_V = {"|": "wall", "!": "orange", " ": "open"}

EXAMPLE = """\
+--+--+--+--+
|.. .. .. ..|
+  +--+  +  +
|.. ##|Vg ..|
+  +  +==+  +
|S1 .. .. S1|
+  +  +  +  +
|.. In .. ..|
+--+  +--+--+
"""


class TileError(ValueError):
    """A tile map breaks a rule; ``square`` is where, when there is one square to name."""

    def __init__(self, problem: str, square: Cell | None = None) -> None:
        where = f"square {cell_name(square)} (row {square[0]}, column {square[1]}): " if square else ""
        super().__init__(where + problem)
        self.problem = problem
        self.square = square


def cell_name(cell: Cell) -> str:
    """The square's name inside its tile: column a-d, row 1-4.

    >>> cell_name((0, 2))
    'c1'
    """
    return "abcd"[cell[1]] + str(cell[0] + 1)


def parse_cell(text: str) -> Cell | None:
    """The inverse of ``cell_name``; None for anything else.

    >>> parse_cell("c1"), parse_cell("e9")
    ((0, 2), None)
    """
    if len(text) == 2 and text[0] in "abcd" and text[1] in "1234":
        return int(text[1]) - 1, "abcd".index(text[0])
    return None


def kind_of(code: str) -> tuple[str, str | None]:
    """A square code's kind and colour: ``("vortex", "green")`` for ``Vg``."""
    if code in FIXED_CODES:
        return FIXED_CODES[code], None
    if code[0] in COLOURED and code[1] in COLOURS:
        return COLOURED[code[0]], COLOURS[code[1]]
    if code[0] == "S" and code[1].isdigit():
        return "escalator", None
    raise TileError(f"unknown square code {code!r}")


@dataclass(frozen=True)
class Tile:
    """One tile in one orientation: square codes and the state of each square's four sides."""

    name: str
    code: dict[Cell, str]
    side: dict[tuple[Cell, str], str]  # (square, direction) -> "open" | "wall" | "orange"

    def kind(self, cell: Cell) -> tuple[str, str | None]:
        return self.kinds[cell]

    @cached_property
    def kinds(self) -> dict[Cell, tuple[str, str | None]]:
        return {cell: kind_of(code) for cell, code in self.code.items()}

    def turned(self, quarters: int) -> Tile:
        """This tile turned clockwise ``quarters`` times: (r, c) -> (c, 3 - r), N -> E -> S -> W."""
        tile = self
        for _ in range(quarters % 4):
            code = {(c, SIZE - 1 - r): v for (r, c), v in tile.code.items()}
            side = {((c, SIZE - 1 - r), DIRECTIONS[(DIRECTIONS.index(d) + 1) % 4]): v
                    for ((r, c), d), v in tile.side.items()}
            tile = Tile(tile.name, code, side)
        return tile

    @cached_property
    def escalators(self) -> dict[Cell, Cell]:
        """Each escalator end -> the other end."""
        ends: dict[str, list[Cell]] = {}
        for cell in sorted(self.code):
            if self.code[cell][0] == "S":
                ends.setdefault(self.code[cell], []).append(cell)
        out = {}
        for pair in ends.values():
            out[pair[0]], out[pair[1]] = pair[1], pair[0]
        return out

    def __getstate__(self) -> dict[str, Any]:
        """A pickle or a copy of the tile leaves out ``kinds`` and ``escalators``: memos, worked
        out again when first read, not the tile (a tile is the game's data, which no input
        changes: the contract compares its pickles from the start and the end of a game)."""
        return {name: value for name, value in self.__dict__.items() if name not in ("kinds", "escalators")}


def parse_map(name: str, text: str) -> Tile:
    """Read one tile map (9 lines of 13 characters; see ``scenarios/magic_maze/tiles.yaml``)."""
    lines = text.rstrip("\n").split("\n")
    if len(lines) != 2 * SIZE + 1:
        raise TileError(f"a map has {2 * SIZE + 1} lines, this one {len(lines)}")
    width = 3 * SIZE + 1
    lines = [line.ljust(width) for line in lines]  # an open east door ends a line in a space editors strip
    for i, line in enumerate(lines):
        if len(line) != width:
            raise TileError(f"line {i + 1} has {len(line)} characters; every line has {3 * SIZE + 1}")
        if i % 2 == 0 and any(line[3 * k] != "+" for k in range(SIZE + 1)):
            raise TileError(f"line {i + 1}: wall lines have '+' at columns 1, 4, 7, 10 and 13")
    code: dict[Cell, str] = {}
    side: dict[tuple[Cell, str], str] = {}
    for r in range(SIZE):
        row = lines[2 * r + 1]
        for c in range(SIZE):
            cell = (r, c)
            text_code = row[3 * c + 1: 3 * c + 3]
            try:
                kind_of(text_code)
            except TileError as exc:
                raise TileError(exc.problem, cell) from None
            code[cell] = text_code
            for d, mark, table in (
                ("N", lines[2 * r][3 * c + 1: 3 * c + 3], WALLS_H),
                ("S", lines[2 * r + 2][3 * c + 1: 3 * c + 3], WALLS_H),
                ("W", row[3 * c], WALLS_V),
                ("E", row[3 * c + 3], WALLS_V),
            ):
                if mark not in table:
                    raise TileError(f"{mark!r} is not a wall mark on its {d} side "
                                    f"(use {' or '.join(repr(k) for k in table)})", cell)
                side[(cell, d)] = table[mark]
    return Tile(name, code, side)


def neighbours(tile: Tile, cell: Cell, *, dwarf: bool) -> list[Cell]:
    out = []
    for d in DIRECTIONS:
        r, c = cell[0] + STEP[d][0], cell[1] + STEP[d][1]
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            continue
        state = tile.side[(cell, d)]
        if state == "open" or (state == "orange" and dwarf):
            if tile.code[(r, c)] != "##":
                out.append((r, c))
    return out


def reachable(tile: Tile, starts: list[Cell], *, dwarf: bool) -> set[Cell]:
    seen = set(starts)
    queue = deque(starts)
    while queue:
        cell = queue.popleft()
        for n in neighbours(tile, cell, dwarf=dwarf):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def check_tile(tile: Tile, *, start: bool) -> None:
    """The rules a tile's map keeps (raises ``TileError`` naming the square and the reason):
    walls agree on both sides; the outer edge is a wall except at an entrance or exploration
    door; doors sit at their fixed squares; a start tile has four exploration doors and a clear
    centre, any other tile one entrance at the south door; escalators come in pairs; every square
    that is not blocked can be reached from the entrance (the centre, on a start tile), through
    orange walls only by the dwarf."""
    for (cell, d), state in sorted(tile.side.items()):
        r, c = cell[0] + STEP[d][0], cell[1] + STEP[d][1]
        if 0 <= r < SIZE and 0 <= c < SIZE:
            if tile.side[((r, c), OPPOSITE[d])] != state:
                raise TileError(f"its {d} side is {state} but the square beyond says otherwise", cell)
            continue
        door = DOOR_SIDE.get(cell) == d and (tile.code[cell] == "In" or tile.code[cell][0] == "E")
        if door and state != "open":
            raise TileError(f"the {d} edge at this door must be open", cell)
        if not door and state != "wall":
            raise TileError(f"the tile's {d} edge must be a wall here (only a door square opens it)", cell)
    for cell, code in sorted(tile.code.items()):
        if (code == "In" or code[0] == "E") and cell not in DOOR_SIDE:
            raise TileError(f"{code!r} must stand on a door square (c1, d3, b4, a2)", cell)
    entrances = [c for c, v in tile.code.items() if v == "In"]
    if start:
        if entrances:
            raise TileError("a start tile has no entrance", entrances[0])
        for s, cell in DOORS.items():
            if tile.code[cell][0] != "E":
                raise TileError(f"a start tile has an exploration square at its {s} door", cell)
        for cell in CENTRE:
            if tile.code[cell] != "..":
                raise TileError("the heroes start on the four centre squares: keep them plain floor", cell)
        starts = list(CENTRE)
    else:
        if entrances != [DOORS["S"]]:
            raise TileError("a tile has exactly one entrance, at its south door (b4)",
                            entrances[0] if entrances else DOORS["S"])
        starts = entrances
    ends: dict[str, list[Cell]] = {}
    for cell in sorted(tile.code):
        if tile.code[cell][0] == "S":
            ends.setdefault(tile.code[cell], []).append(cell)
    for link, cells in ends.items():
        if len(cells) != 2:
            raise TileError(f"escalator {link} has {len(cells)} ends; it needs 2", cells[0])
    normal = reachable(tile, starts, dwarf=False)
    dwarf = reachable(tile, starts, dwarf=True)
    for cell in sorted(tile.code):
        if tile.code[cell] == "##" or cell in normal:
            continue
        if cell in dwarf:
            kind, _ = tile.kind(cell)
            if kind in ("item", "exit", "hourglass"):
                raise TileError(f"this {kind} can be reached only through an orange wall", cell)
            continue
        raise TileError("no hero can reach this square from the " + ("centre" if start else "entrance"), cell)

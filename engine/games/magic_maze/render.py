"""The ASCII picture of the explored mall and the status block (everything here is public).

Squares are drawn as in ``tiles.yaml``: 2-character codes between walls (``|``, ``--``),
orange walls (``!``, ``==``) and open passages (spaces). A hero is its colour letter in
capitals (``P@`` the mage, ``Y@``, ``G@``, ``O@``); a used hourglass, camera or crystal ball
and an explored exploration square are written in lower case; each tile's name stands in its
north-west wall. ``LEGEND`` explains every symbol (``arbiter show --legend``).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from arbiter.engine.clock import seconds_name
from arbiter.engine.games.magic_maze.tiles import Cell

if TYPE_CHECKING:
    from arbiter.engine.games.magic_maze.state import MazeState

LEGEND = """\
Magic Maze board legend
  P@ Y@ G@ O@   the heroes: purple mage, yellow barbarian, green elf, orange dwarf
  Ip Iy Ig Io   items (p purple, y yellow, g green, o orange)
  Xp Xy Xg Xo   exits
  Vp Vy Vg Vo   vortexes
  Ep Ey Eg Eo   unexplored exploration squares (the open edge leads outward)
  ep ey eg eo   exploration squares with a tile beyond: explored, or shut
                (that tile was joined elsewhere: a wall between them, or a
                passage where its own door square meets this one)
  In            a tile's entrance
  Hg hg         hourglass, unused / used
  Cm cm         security camera, live / disabled
  Cb cb         crystal ball, unused / used
  S1 S2         escalator ends (same number, same escalator)
  ##            blocked square
  ..            floor
  | --          wall;   ! ==  orange wall (only the dwarf passes);   spaces: open
  +             a corner post where walls meet
  2- 1a         a tile's name, in its north-west corner wall
Squares are named TILE.CELL: column a-d, row 1-4 inside the tile as drawn, e.g. 1a.b2."""

HORIZONTAL = {"wall": "--", "orange": "==", "open": "  "}
VERTICAL = {"wall": "|", "orange": "!", "open": " "}


def _side(state: MazeState, g: Cell, d: str) -> str:
    """As ``Mall.side``, but an unexplored door shows open toward the unexplored."""
    if state.mall.unexplored(g) == d:
        return "open"
    return state.mall.side(g, d)


def _square(state: MazeState, g: Cell) -> str:
    hero = state.hero_at(g)
    if hero is not None:
        return hero[0].upper() + "@"
    code = state.mall.code(g)
    assert code is not None
    if g in state.used or (code[0] == "E" and state.mall.unexplored(g) is None):
        return code.lower()
    return code


def _corner_names(state: MazeState) -> dict[Cell, str]:
    return {p.origin: p.name.lower()[:2] for p in state.mall.placed}


def render_mall(state: MazeState) -> str:
    mall = state.mall
    r0, r1, c0, c1 = mall.bounds()
    names = _corner_names(state)
    lines = []
    for r in range(r0, r1 + 2):
        wall = []
        for c in range(c0, c1 + 1):
            above, below = (r - 1, c), (r, c)
            inside = above in mall.at or below in mall.at
            left = (r - 1, c - 1) in mall.at or (r, c - 1) in mall.at
            wall.append("+" if inside or left else " ")
            if not inside:
                wall.append("  ")
            elif below in names and below in mall.at:
                wall.append(names[below].ljust(2, "-"))
            else:
                g = above if above in mall.at else below
                wall.append(HORIZONTAL[_side(state, g, "S" if g == above else "N")])
        wall.append("+" if (r - 1, c1) in mall.at or (r, c1) in mall.at else " ")
        lines.append("".join(wall).rstrip())
        if r > r1:
            break
        row = []
        for c in range(c0, c1 + 1):
            g, west = (r, c), (r, c - 1)
            if g in mall.at or west in mall.at:
                h = g if g in mall.at else west
                row.append(VERTICAL[_side(state, h, "W" if h == g else "E")])
            else:
                row.append(" ")
            row.append(_square(state, g) if g in mall.at else "  ")
        last = (r, c1)
        row.append(VERTICAL[_side(state, last, "E")] if last in mall.at else " ")
        lines.append("".join(row).rstrip())
    lines = [line for line in lines if line.strip()]
    return "\n".join(_strips(lines) + _status(state))


WIDTH = 80
"""The widest line of a board: a wider mall is shown in strips side by side no more."""


def _strips(lines: list[str], width: int = WIDTH) -> list[str]:
    """A map wider than ``width`` as strips of whole squares, west to east, one under the
    other, each headed by which columns of squares it shows (its lines never wrap)."""
    widest = max((len(line) for line in lines), default=0)
    if widest <= width:
        return lines
    per = (width - 1) // 3  # squares a strip holds: three characters each, and the last wall
    squares = (widest - 1 + 2) // 3
    out: list[str] = []
    for first in range(0, squares, per):
        last = min(first + per, squares)
        part = [line[3 * first:3 * last + 1].rstrip() for line in lines]
        out.append(f"(squares {first + 1}-{last} of {squares}, west to east)")
        out += [line if line.strip() else "." for line in part]
    return out


def _status(state: MazeState) -> list[str]:
    s = state.scenario
    out = [f"Magic Maze, scenario {s.title}; {state.players} player(s)",
           f"time left {seconds_name(state.time_left_ms())} s of {seconds_name(s.timer_ms)} (clock "
           f"{seconds_name(state.now_ms)}); flips {state.flips}; stack {len(state.stack)}",
           "theft: " + ("done, escape!" if state.theft else "not yet")
           + ("; escaped: " + " ".join(state.escaped) if state.escaped else ""),
           "talk: " + ("open" if state.talk_open else "silence") + f"; pawn: {state.pawn or 'on the table'}"
           + ("; 2+ live cameras: hourglasses locked" if state.cameras_lock() else "")]
    if state.solo:
        top = state.discard[-1] if state.discard else "none (draw)"
        out.append(f"solo: usable action {top}; deck {len(state.deck)}, discard {len(state.discard)}")
    else:
        out += [f"{seat}: {' '.join(hand) or '-'}" for seat, hand in zip(state.seats, state.hands)]
    if state.result is not None:
        out += textwrap.wrap(f"result: {state.result.text}", 80, subsequent_indent="  ",
                             break_on_hyphens=False)
    return out

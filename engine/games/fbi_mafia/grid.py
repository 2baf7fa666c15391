"""Geometry of the suspect grid: cell names, neighbourhoods (no wrap), lines, and shifts
(with wrap). Pure functions on ``(row, col)`` pairs, 0-based, ``a1`` = ``(0, 0)`` top-left.

>>> parse_cell("c2", 6)
(1, 2)
>>> cell_name((1, 2))
'c2'
>>> sorted(cell_name(c) for c in neighbours((0, 0), 6))
['a2', 'b1', 'b2']
"""

from __future__ import annotations

import re
from functools import cache

from arbiter.engine.errors import SyntaxInputError, quoted

Cell = tuple[int, int]
_CELL = re.compile(r"^([a-z])([1-9][0-9]?)$")
_CELL_LIKE = re.compile(r"^[a-z][0-9]+$")  # a letter and digits: meant as a cell (a01, a0, a100 are refused as cells)
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


NAMES = [[f"{col}{r + 1}" for col in COLUMNS] for r in range(99)]
"""The name of every cell an input can name (rows 1 to 99), by row and column (``NAMES[r][c]``),
made once: names are asked millions of times (moves, views, events)."""


def cell_name(cell: Cell) -> str:
    """The name of ``cell``: its column letter, then its row counted from 1."""
    r, c = cell
    try:
        if r >= 0 and c >= 0:
            return NAMES[r][c]
    except (IndexError, TypeError):  # a cell no input names (a value's): written out below
        pass
    return f"{COLUMNS[c]}{r + 1}"


@cache
def cell_names(size: int) -> tuple[str, ...]:
    """The names of ``cells(size)``, in the same (reading) order."""
    return tuple(cell_name(cell) for cell in cells(size))


def looks_like_cell(text: str) -> bool:
    """Whether ``text`` is meant as a cell (a letter, then digits), well written or not: an input
    reads it as a cell, never as a suspect's name (``keep a01`` is refused as ``kill a01`` is),
    and no suspect may be so named."""
    return _CELL_LIKE.match(text.lower()) is not None


def parse_cell(text: str, size: int) -> Cell:
    """The cell ``text`` names (``a1`` .. on the board of ``size``). A row number is written as
    every number of an input is, without leading zeros, as the cells' names are (``a01`` is no
    cell), and a refusal says so.

    >>> parse_cell("a01", 6)
    Traceback (most recent call last):
    ...
    arbiter.engine.errors.SyntaxInputError: 'a01' is not a cell: a row number has no leading zero (cells are a1 .. f6)
    """
    m = _CELL.match(text.lower())
    if not m:
        last = cell_name((size - 1, size - 1))
        if _CELL_LIKE.match(text.lower()) and text[1] == "0" and len(text) > 2:
            raise SyntaxInputError(f"{quoted(text)} is not a cell: a row number has no leading zero "
                                   f"(cells are a1 .. {last})")
        raise SyntaxInputError(
            f"{quoted(text)} is not a cell: cells are a column letter and a row number, like a1 or {last}"
        )
    c, r = COLUMNS.index(m.group(1)), int(m.group(2)) - 1
    if not (0 <= r < size and 0 <= c < size):
        raise SyntaxInputError(
            f"{quoted(text)} is off the board: columns a..{COLUMNS[size - 1]}, rows 1..{size}"
        )
    return (r, c)


@cache
def cells(size: int) -> tuple[Cell, ...]:
    """Every cell in reading order (row by row, left to right)."""
    return tuple((r, c) for r in range(size) for c in range(size))


def on_board(cell: Cell, size: int) -> bool:
    return 0 <= cell[0] < size and 0 <= cell[1] < size


@cache
def neighbours(cell: Cell, size: int) -> tuple[Cell, ...]:
    """The up to 8 surrounding cells, in reading order; the board does not wrap."""
    r, c = cell
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and on_board((r + dr, c + dc), size):
                out.append((r + dr, c + dc))
    return tuple(out)


def adjacent(a: Cell, b: Cell) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


@cache
def orthogonal(cell: Cell, size: int, reach: int, include_self: bool) -> tuple[Cell, ...]:
    """Cells 1..reach steps away in a straight orthogonal line (and the cell itself if asked),
    in reading order."""
    r, c = cell
    out = [cell] if include_self else []
    for d in range(1, reach + 1):
        out.extend(p for p in ((r - d, c), (r + d, c), (r, c - d), (r, c + d)) if on_board(p, size))
    return tuple(sorted(out))


@cache
def diagonal(cell: Cell, size: int, reach: int) -> tuple[Cell, ...]:
    """Cells 1..reach steps away on the two diagonals, in reading order."""
    r, c = cell
    out = []
    for d in range(1, reach + 1):
        for dr, dc in ((-d, -d), (-d, d), (d, -d), (d, d)):
            if on_board((r + dr, c + dc), size):
                out.append((r + dr, c + dc))
    return tuple(sorted(out))


def shifted(line: list[str], delta: int) -> list[str]:
    """A row or column moved by ``delta`` cells (positive: right or down), wrapping around."""
    n = len(line)
    cut = n - delta % n if n else 0  # the card at ``cut`` comes first
    return [*line[cut:], *line[:cut]]


@cache
def line_cells(size: int) -> dict[str, tuple[tuple[Cell, ...], ...]]:
    """The cells of each row (``["row"][r]``) and of each column (``["col"][c]``), in order."""
    return {"row": tuple(tuple((r, c) for c in range(size)) for r in range(size)),
            "col": tuple(tuple((r, c) for r in range(size)) for c in range(size))}

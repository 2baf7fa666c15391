"""The words of FBI vs Mafia inputs: ``parse_move`` reads them (syntax only, no rules), and
``move_name`` writes the canonical text back.

>>> m = parse_move("shift row 3 right 2", 6)
>>> m
Move(verb='shift', line='row', index=2, delta=2)
>>> move_name(m)
'shift row 3 right 2'
>>> move_name(parse_move("KILL  C3", 6))
'kill c3'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

from arbiter.engine.errors import SyntaxInputError, UnknownActionError, quoted
from arbiter.engine.games.fbi_mafia.grid import COLUMNS, Cell, cell_name, looks_like_cell, parse_cell

TOKENS = ("protection", "bomb", "threat")

FORMS: dict[str, str] = {
    "shift": "shift row N left|right [1|2]  or  shift col X up|down [1|2]",
    "arrest": "arrest CELL",
    "defuse": "defuse CELL [bomb|threat]",
    "masquerade": "masquerade",
    "autopsy": "autopsy CELL",
    "inspect": "inspect",
    "keep": "keep CELL|NAME",
    "evidence": "evidence CELL|NAME",
    "kill": "kill CELL",
    "shoot": "shoot CELL",
    "swap": "swap CELL CELL",
    "plant": "plant CELL",
    "detonate": "detonate CELL  or, when asked, detonate yes|no",
    "prepare": "prepare FROM TO [bomb|threat|protection]",
    "threat": "threat CELL [CELL [CELL]]",
    "protect": "protect CELL (Operative's step)  or, when asked, protect yes|no",
    "unprotect": "unprotect CELL",
    "skip": "skip (the Operative's protection step: place or remove nothing)",
    "surrender": "surrender",
}


@dataclass(frozen=True, init=False)
class Move:
    """One FBI vs Mafia input. Only the fields its verb uses are set."""

    verb: str
    cells: tuple[Cell, ...] = field(default=(), repr=False)
    name: str | None = None
    line: str | None = None
    index: int | None = None
    delta: int | None = None
    token: str | None = None
    answer: bool | None = None

    def __init__(self, verb: str, cells: tuple[Cell, ...] = (), name: str | None = None, line: str | None = None,
                 index: int | None = None, delta: int | None = None, token: str | None = None,
                 answer: bool | None = None) -> None:
        """The move with these fields (as a frozen dataclass's own ``__init__`` sets them, but
        into the instance's dictionary at once: moves are made by the thousand a game)."""
        d = self.__dict__
        d["verb"] = verb
        d["cells"] = cells
        d["name"] = name
        d["line"] = line
        d["index"] = index
        d["delta"] = delta
        d["token"] = token
        d["answer"] = answer

    def __repr__(self) -> str:
        parts = [f"verb={self.verb!r}"]
        if self.cells:
            parts.append(f"cells={self.cells!r}")
        for attr in ("name", "line", "index", "delta", "token", "answer"):
            value = getattr(self, attr)
            if value is not None:
                parts.append(f"{attr}={value!r}")
        return f"Move({', '.join(parts)})"


def kept(move: Move) -> Move:
    """``move``, with its words (``move_name``) and the smallest board it is well formed on
    (``well_formed``) written on it (``_kept``, not a field: equality, hashing and the move's
    words ignore it), which are then read, not worked out, each time a bot plays it. For the
    moves the caches that make the legal moves hold for good. A move well formed on no board is
    left as it is."""
    if move.verb == "shift":
        least = (move.index if type(move.index) is int else 0) + 1
    else:
        least = max((max(cell) + 1 for cell in move.cells if type(cell) is tuple and cell), default=0)
    if _well_formed(move, least):
        move.__dict__["_kept"] = (least, _words(move))
    return move


@cache
def cell_move(verb: str, cell: Cell) -> Move:
    """The move of ``verb`` on the one cell ``cell``, made once (moves are frozen values, and the
    legal moves are listed many times a turn) and ``kept``."""
    return kept(Move(verb, cells=(cell,)))


@cache
def bare_move(verb: str, answer: bool | None = None) -> Move:
    """The move of ``verb`` alone (``surrender``, ``skip``), or answering ``answer``, made once
    and ``kept``."""
    return kept(Move(verb, answer=answer))


def _syntax(verb: str, problem: str) -> SyntaxInputError:
    return SyntaxInputError(f"{verb}: {problem}", [FORMS[verb]])


def _args(verb: str, args: list[str], low: int, high: int) -> None:
    if not low <= len(args) <= high:
        want = str(low) if low == high else f"{low} to {high}"
        raise _syntax(verb, f"expected {want} word(s) after {verb!r}, found {len(args)}")


def _cell(verb: str, word: str, size: int) -> Cell:
    try:
        return parse_cell(word, size)
    except SyntaxInputError as exc:
        raise _syntax(verb, exc.message) from None


def _token(verb: str, word: str, allowed: tuple[str, ...]) -> str:
    if word not in allowed:
        raise _syntax(verb, f"{quoted(word)} is not a token kind here; allowed: {', '.join(allowed)}")
    return word


def _yes_no(verb: str, word: str) -> bool:
    if word not in ("yes", "no"):
        raise _syntax(verb, f"answer yes or no, not {quoted(word)}")
    return word == "yes"


def _shift(args: list[str], size: int) -> Move:
    _args("shift", args, 3, 4)
    axis, where, direction = args[0], args[1], args[2]
    if axis == "column":
        axis = "col"
    if axis == "row":  # (a number of an input has no leading zero: a cell's row, a distance, a row)
        if re.fullmatch(r"0[0-9]+", where):
            raise _syntax("shift", f"row {quoted(where)} has a leading zero: rows are 1..{size}")
        if not re.fullmatch(r"[1-9][0-9]?", where) or not int(where) <= size:
            raise _syntax("shift", f"row {quoted(where)} does not exist: rows are 1..{size}")
        index = int(where) - 1
        signs = {"right": 1, "left": -1}
    elif axis == "col":
        if len(where) != 1 or where not in COLUMNS[:size]:
            raise _syntax("shift", f"column {quoted(where)} does not exist: columns are a..{COLUMNS[size - 1]}")
        index = COLUMNS.index(where)
        signs = {"down": 1, "up": -1}
    else:
        raise _syntax("shift", f"shift a row or a col, not {quoted(axis)}")
    if direction not in signs:
        raise _syntax("shift", f"a {axis} moves {' or '.join(signs)}, not {quoted(direction)}")
    distance = 1
    if len(args) == 4:
        if args[3] not in ("1", "2"):
            zero = " (a number has no leading zero)" if re.fullmatch(r"0[0-9]+", args[3]) else ""
            raise _syntax("shift", f"distance is 1 or 2, not {quoted(args[3])}{zero}")
        distance = int(args[3])
    return Move("shift", line=axis, index=index, delta=signs[direction] * distance)


@lru_cache(maxsize=1 << 14)
def parse_move(text: str, size: int) -> Move:
    """Read the words of one input (after the seat name). Raises ``SyntaxInputError``.

    The reading depends on nothing else, and a move is a frozen value: the last many texts'
    moves are kept, for a game's inputs repeat (a refusal is read again each time)."""
    words = text.lower().split()
    if not words:
        raise UnknownActionError("no action given", sorted(FORMS.values()))
    verb, args = words[0], words[1:]
    if verb not in FORMS:
        raise UnknownActionError(f"unknown action {quoted(verb)}", [FORMS[v] for v in sorted(FORMS)])
    if verb in ("surrender", "masquerade", "inspect", "skip"):
        _args(verb, args, 0, 0)
        return Move(verb)
    if verb == "shift":
        return _shift(args, size)
    if verb in ("protect", "detonate") and args and args[0] in ("yes", "no"):
        _args(verb, args, 1, 1)
        return Move(verb, answer=_yes_no(verb, args[0]))
    if verb in ("keep", "evidence"):
        _args(verb, args, 1, 1)
        if looks_like_cell(args[0]):
            return Move(verb, cells=(_cell(verb, args[0], size),))
        return Move(verb, name=args[0])
    if verb == "defuse":
        _args(verb, args, 1, 2)
        token = _token(verb, args[1], ("bomb", "threat")) if len(args) == 2 else None
        return Move(verb, cells=(_cell(verb, args[0], size),), token=token)
    if verb == "swap":
        _args(verb, args, 2, 2)
        return Move(verb, cells=(_cell(verb, args[0], size), _cell(verb, args[1], size)))
    if verb == "prepare":
        _args(verb, args, 2, 3)
        token = _token(verb, args[2], TOKENS) if len(args) == 3 else None
        return Move(verb, cells=(_cell(verb, args[0], size), _cell(verb, args[1], size)), token=token)
    if verb == "threat":
        _args(verb, args, 1, 3)
        return Move(verb, cells=tuple(_cell(verb, a, size) for a in args))
    _args(verb, args, 1, 1)
    return Move(verb, cells=(_cell(verb, args[0], size),))


def move_name(move: Move) -> str:
    """The canonical text of a move (what ``parse_move`` reads back to the same move)."""
    known = move.__dict__.get("_kept")
    return _words(move) if known is None else known[1]


def _words(move: Move) -> str:
    """``move_name``, worked out."""
    verb = move.verb
    if move.answer is not None:
        return f"{verb} {'yes' if move.answer else 'no'}"
    if verb == "shift":
        assert move.line is not None and move.index is not None and move.delta is not None
        line, delta = move.line, move.delta
        if line == "row":
            where, direction = str(move.index + 1), "right" if delta > 0 else "left"
        else:
            where, direction = COLUMNS[move.index], "down" if delta > 0 else "up"
        dist = f" {abs(delta)}" if abs(delta) != 1 else ""
        return f"shift {line} {where} {direction}{dist}"
    cells = move.cells
    if len(cells) == 1 and move.name is None and move.token is None:  # most inputs: a verb and a cell
        return f"{verb} {cell_name(cells[0])}"
    words = [verb] + [cell_name(c) for c in cells]
    if move.name is not None:
        words.append(move.name)
    if move.token is not None:
        words.append(move.token)
    return " ".join(words)


# What each verb's words may hold besides the verb (``parse_move`` reads them so): the number of
# cells, the tokens it may name; a shift and the answers to interrupts are checked apart.
_SHAPES: dict[str, tuple[int, int, tuple[str | None, ...]]] = {
    verb: (0, 0, (None,)) if verb in ("surrender", "masquerade", "inspect", "skip") else (1, 1, (None,))
    for verb in FORMS
}
_SHAPES.update(swap=(2, 2, (None,)), prepare=(2, 2, (None, *TOKENS)), threat=(1, 3, (None,)),
               defuse=(1, 1, (None, "bomb", "threat")))


def well_formed(move: object, size: int) -> bool:
    """Whether ``move`` is a ``Move`` exactly as ``parse_move`` reads its words ``move_name(move)``
    on a board of ``size``, down to the types of its fields (ints, not bools or floats): the
    verb's own fields set, within the board and the words' choices, and no other. A suspect
    named by name is not (names are read from words only), nor is any other value: ``apply_move``
    applies a well-formed value as it is and reads any other from its words."""
    known = move.__dict__.get("_kept") if type(move) is Move else None
    return _well_formed(move, size) if known is None else size >= known[0]


def _well_formed(move: object, size: int) -> bool:
    """``well_formed``, worked out."""
    if type(move) is not Move:
        return False
    verb = move.verb
    shape = _SHAPES.get(verb) if type(verb) is str else None
    if shape is None or move.name is not None:
        return False
    cells = move.cells
    if verb == "shift":
        line, index, delta = move.line, move.index, move.delta
        return (cells == () and move.token is None and move.answer is None
                and type(line) is str and (line == "row" or line == "col")
                and type(index) is int and 0 <= index < size and type(delta) is int and delta in (-2, -1, 1, 2))
    if move.line is not None or move.index is not None or move.delta is not None or type(cells) is not tuple:
        return False
    if move.answer is not None:
        return (type(move.answer) is bool and (verb == "protect" or verb == "detonate") and cells == ()
                and move.token is None)
    low, high, tokens = shape
    token = move.token
    if not (low <= len(cells) <= high) or (token is not None and (type(token) is not str or token not in tokens)):
        return False
    for cell in cells:
        if type(cell) is not tuple or len(cell) != 2:
            return False
        r, c = cell
        if type(r) is not int or type(c) is not int or not (0 <= r < size and 0 <= c < size):
            return False
    return True

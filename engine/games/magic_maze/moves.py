"""The words of Magic Maze inputs: ``parse_move`` reads them (syntax only, no rules) into a
``Move`` value, and ``move_name`` writes the canonical text back.

Syntax is the words, the hero names and their aliases, the directions, the numbers and the
seat names. A square stays its text token: what ``1a.b2`` means depends on the mall, so the
state reads it (and refuses a bad one) when it plans the move.

>>> SEATS = ("p1", "p2")
>>> m = parse_move("MOVE mage n 2", SEATS)
>>> m
Move(verb='move', hero='purple', direction='N', squares=2)
>>> move_name(m)
'move purple north 2'
>>> parse_move(move_name(m), SEATS) == m
True
>>> [move_name(parse_move(t, SEATS)) for t in ("vortex dwarf 1A.A4", "explore 2.C1", "say  hi  there", "stare P2")]
['vortex orange 1A.A4', 'explore 2.c1', 'say hi there', 'stare p2']
>>> action_needed(m), action_needed(parse_move("explore elf", SEATS)), action_needed(parse_move("pawn p1", SEATS))
('north', 'explore', None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

from arbiter.engine.errors import SyntaxInputError, UnknownActionError, quoted
from arbiter.engine.games.magic_maze.tiles import COLOURS, HERO_OF

HEROES = ("purple", "yellow", "green", "orange")
HERO_WORDS = {**{c: c for c in HEROES}, **{v: k for k, v in HERO_OF.items()},
              **{k: v for k, v in COLOURS.items()}}
DIR_WORDS = {"north": "N", "south": "S", "east": "E", "west": "W", "n": "N", "s": "S", "e": "E", "w": "W"}
DIR_NAME = {"N": "north", "S": "south", "E": "east", "W": "west"}
GAME_ACTIONS = ("move", "vortex", "escalator", "explore", "draw")
"""The verbs that are game actions: the first of them after a talk window closes it."""
FORMS: dict[str, str] = {
    "move": "move HERO DIRECTION [SQUARES]: straight, as far as it goes or SQUARES squares",
    "vortex": "vortex HERO [SQUARE]: to a free vortex of the hero's colour (before the theft)",
    "escalator": "escalator HERO: from one end of its escalator to the other",
    "explore": "explore HERO: join the next tile at the hero's exploration square; "
               "explore SQUARE: by the mage's crystal ball",
    "draw": "draw: (solo) turn the next action tile",
    "say": "say TEXT: talk, while talk is open",
    "pawn": "pawn SEAT: put the 'Do something!' pawn in front of another player, SEAT",
    "stare": "stare SEAT: stare at another player, SEAT",
}
"""Every form of input, by verb (refusals list them in ``allowed``)."""


@dataclass(frozen=True)
class Move:
    """One Magic Maze input. Only the fields its verb uses are set: ``hero`` (a colour),
    ``direction`` (N, E, S or W) and ``squares`` (None: as far as it goes) of a move;
    ``square``, the text of a square (a vortex, or an exploration square by the crystal
    ball); ``text``, what is said; ``seat``, whom the pawn or a stare is for."""

    verb: str
    hero: str | None = None
    direction: str | None = None
    squares: int | None = None
    square: str | None = None
    text: str | None = None
    seat: str | None = None

    def __repr__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if f.name == "verb" or getattr(self, f.name) is not None]
        return f"Move({', '.join(parts)})"


def hero_word(word: str) -> str:
    """The hero (colour) a word names: a colour, a hero's name or a colour's letter."""
    hero = HERO_WORDS.get(word.lower())
    if hero is None:
        raise SyntaxInputError(f"{quoted(word)} is not a hero (purple/mage, yellow/barbarian, green/elf, orange/dwarf)")
    return hero


def _move(args: list[str]) -> Move:
    if len(args) not in (2, 3):
        raise SyntaxInputError("move takes a hero, a direction and maybe a number", [FORMS["move"]])
    hero = hero_word(args[0])
    d = DIR_WORDS.get(args[1].lower())
    if d is None:
        raise SyntaxInputError(f"{quoted(args[1])} is not a direction (north, south, east, west)", [FORMS["move"]])
    n = None
    if len(args) == 3:
        # (more than 4 digits: no mall is that wide, and Python reads at most 4300 digits)
        if not args[2].isascii() or not args[2].isdigit() or len(args[2]) > 4 or int(args[2]) < 1:
            raise SyntaxInputError(f"{quoted(args[2])} is not a number of squares", [FORMS["move"]])
        n = int(args[2])
    return Move("move", hero=hero, direction=d, squares=n)


def _vortex(args: list[str]) -> Move:
    if len(args) not in (1, 2):
        raise SyntaxInputError("vortex takes a hero and maybe a square", [FORMS["vortex"]])
    return Move("vortex", hero=hero_word(args[0]), square=args[1] if len(args) == 2 else None)


def _escalator(args: list[str]) -> Move:
    if len(args) != 1:
        raise SyntaxInputError("escalator takes a hero", [FORMS["escalator"]])
    return Move("escalator", hero=hero_word(args[0]))


def _explore(args: list[str]) -> Move:
    if len(args) != 1:
        raise SyntaxInputError("explore takes a hero (or, by the crystal ball, a square)", [FORMS["explore"]])
    word = args[0].lower()
    if "." in word:
        return Move("explore", square=word)
    return Move("explore", hero=hero_word(word))


def _draw(args: list[str]) -> Move:
    if args:
        raise SyntaxInputError("draw takes no words after it", [FORMS["draw"]])
    return Move("draw")


def _say(args: list[str]) -> Move:
    if not args:
        raise SyntaxInputError("say what? 'say' needs words after it", [FORMS["say"]])
    return Move("say", text=" ".join(args))


def _seat_move(verb: str, args: list[str], seats: Sequence[str]) -> Move:
    if len(args) != 1 or args[0].lower() not in seats:
        raise SyntaxInputError(f"{verb} takes one seat ({' '.join(seats)})", [FORMS[verb]])
    return Move(verb, seat=args[0].lower())


_READERS = {"move": _move, "vortex": _vortex, "escalator": _escalator, "explore": _explore,
            "draw": _draw, "say": _say}


def parse_move(text: str, seats: Sequence[str], forms: Mapping[str, str] = FORMS,
               shown: Sequence[str] | None = None) -> Move:
    """Read the words of one input (after the seat name) of a game with ``seats``. Raises
    ``SyntaxInputError``; an empty input or an unknown verb lists the ``forms`` (a variant's
    state passes its own, which may hold more verbs than these) of the verbs ``shown`` (by
    default all: a game lists those a seat may type in it, not solo's ``draw`` at a table)."""
    words = text.split()
    listed = list(forms.values()) if shown is None else [forms[v] for v in shown]
    if not words:
        raise UnknownActionError("an empty input", listed)
    verb, args = words[0].lower(), words[1:]
    if verb not in forms or verb not in FORMS:
        raise UnknownActionError(f"{quoted(words[0])} is not an action of Magic Maze", listed)
    if verb in ("pawn", "stare"):
        return _seat_move(verb, args, seats)
    return _READERS[verb](args)


def move_name(move: Move) -> str:
    """The canonical text of a move (what ``parse_move`` reads back to the same move): the
    verb, then the words of the fields set, in field order, a direction by its name. A
    state's canonical text names every move in full: it fills in a move's count and a
    vortex's square when it plans them."""
    names = _ARGUMENTS.get(type(move))
    if names is None:  # the first move of its class (Hidden Roles' moves have fields of their own)
        names = _ARGUMENTS[type(move)] = tuple(f.name for f in fields(move))[1:]
    words = [move.verb]
    for name in names:
        value = getattr(move, name)
        if value is not None:
            words.append(DIR_NAME[value] if name == "direction" else str(value))
    return " ".join(words)


_ARGUMENTS: dict[type, tuple[str, ...]] = {}
"""A move class's fields after the verb, in order: read once a class, not at every
``move_name`` (``fields`` was two-thirds of a name's time: 2.2 -> 0.8 us), which names every
move of every legal listing."""


def action_needed(move: Move) -> str | None:
    """The action tile a move needs (``move purple north 2`` needs ``north``); None for the
    inputs every seat may always send (talk, the pawn, stares) and for ``draw``."""
    if move.verb == "move":
        assert move.direction is not None
        return DIR_NAME[move.direction]
    return move.verb if move.verb in GAME_ACTIONS and move.verb != "draw" else None

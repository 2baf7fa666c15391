"""The words of Hidden Roles' own inputs: ``parse_role_move`` reads them (syntax only, no
rules) into a ``RoleMove`` value, which the base game's ``move_name`` writes back in canonical
words (so the state's ``apply`` records them like any Magic Maze input).

>>> SEATS = ("p1", "p2", "p3", "p4")
>>> m = parse_role_move("Accuse P3 p2", SEATS, ("mage-first",))
>>> m
RoleMove(verb='accuse', accused=('p2', 'p3'))
>>> from arbiter.engine.games.magic_maze.moves import move_name
>>> [move_name(parse_role_move(t, SEATS, ("mage-first",))) for t in
...  ("accuse p3 p2", "vote YES", "eye p4", "flip", "pass", "abandon", "divine p2 mage-first")]
['accuse p2 p3', 'vote yes', 'eye p4', 'flip', 'pass', 'abandon', 'divine p2 mage-first']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbiter.engine.errors import SyntaxInputError, quoted
from arbiter.engine.games.magic_maze.moves import Move

FORMS: dict[str, str] = {
    "accuse": "accuse SEAT [SEAT ...]: accuse seats of treason; the others vote at once",
    "vote": "vote yes|no: your vote on the open accusation",
    "eye": "eye SEAT: put the 'I've got my eye on you!' card in front of SEAT",
    "flip": "flip: (the accuser of an upheld accusation) turn the sand timer over",
    "pass": "pass: let the accuser's flip go by, or your divining",
    "abandon": "abandon: (a hero, before the theft, level 2 on) abandon the heist",
    "divine": "divine SEAT MISSION: (a traitor, after the escape, level 5) name the hero mission of SEAT's card",
}
"""Every form of Hidden Roles' own inputs, by verb."""
ANSWERS = ("yes", "no")


class Seats(tuple[str, ...]):
    """Seats named by an input, written as words (``move_name`` writes ``str`` of each field)."""

    def __str__(self) -> str:
        return " ".join(self)


@dataclass(frozen=True, repr=False)
class RoleMove(Move):
    """One Hidden Roles input. Beside the base fields (``seat``: the eye's or the divining's
    target), ``accused``: the seats an accusation names, in seat order; ``answer``: ``yes`` or
    ``no`` of a vote; ``mission``: the card a divining names."""

    accused: Seats | None = None
    answer: str | None = None
    mission: str | None = None

    def __repr__(self) -> str:
        return "Role" + super().__repr__()


def _seat(word: str, seats: Sequence[str], form: str) -> str:
    if word.lower() not in seats:
        raise SyntaxInputError(f"{quoted(word)} is not a seat ({' '.join(seats)})", [form])
    return word.lower()


def parse_role_move(text: str, seats: Sequence[str], cards: Sequence[str]) -> RoleMove | None:
    """Read one of Hidden Roles' own inputs; None when ``text`` is not one of them (the base
    game reads it). ``cards``: the card names a divining may name. Raises ``SyntaxInputError``."""
    words = text.split()
    if not words or words[0].lower() not in FORMS:
        return None
    verb, args = words[0].lower(), words[1:]
    form = FORMS[verb]
    if verb == "accuse":
        if not args:
            raise SyntaxInputError("accuse whom? name one seat or more", [form])
        named = [_seat(w, seats, form) for w in args]
        if len(set(named)) != len(named):
            raise SyntaxInputError("a seat is named twice", [form])
        return RoleMove(verb, accused=Seats(s for s in seats if s in named))
    if verb == "vote":
        if len(args) != 1 or args[0].lower() not in ANSWERS:
            raise SyntaxInputError("vote yes or vote no", [form])
        return RoleMove(verb, answer=args[0].lower())
    if verb == "eye":
        if len(args) != 1:
            raise SyntaxInputError("eye takes one seat", [form])
        return RoleMove(verb, seat=_seat(args[0], seats, form))
    if verb == "divine":
        if len(args) != 2:
            raise SyntaxInputError("divine takes a seat and a mission card's name, e.g. divine p2 mage-first", [form])
        if args[1].lower() not in cards:
            raise SyntaxInputError(f"{quoted(args[1])} is not a card of the role deck", [form])
        return RoleMove(verb, seat=_seat(args[0], seats, form), mission=args[1].lower())
    if args:
        raise SyntaxInputError(f"{verb} takes no words after it", [form])
    return RoleMove(verb)

"""The words of Classic Mafia inputs: one frozen value per input, ``parse_move`` to read them
(syntax only, no rules) and ``move_name`` to write the canonical words back.

The action word is case-insensitive and so are seat names; what a player says keeps its case.

>>> seats = ("p1", "p2", "p3", "p4", "p5", "p6")
>>> parse_move("KILL  P3", seats)
Power(verb='kill', target='p3')
>>> move_name(parse_move("KILL  P3", seats))
'kill p3'
>>> move_name(parse_move("Say  Meet me at  dawn", seats))
'say Meet me at dawn'
>>> texts = ["say hi p2", "nominate p2", "pass", "vote p1", "abstain", "leave", "suggest p4",
...          "seduce p5", "protect p6", "kill p1", "shoot p2", "arrest p3", "ban p4"]
>>> all(move_name(parse_move(t, seats)) == t for t in texts)
True
>>> parse_move("vote p9", seats)
Traceback (most recent call last):
    ...
arbiter.engine.errors.SyntaxInputError: 'p9' is not a seat (seats: p1 p2 p3 p4 p5 p6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from arbiter.engine.errors import SyntaxInputError, UnknownActionError, quoted

VERBS = ("say", "nominate", "pass", "vote", "abstain", "leave", "suggest",
         "seduce", "protect", "kill", "shoot", "arrest", "ban")
POWER_VERBS = ("seduce", "protect", "kill", "shoot", "arrest", "ban")
FORMS = {
    "say": "say TEXT: talk (day: everyone; night: your team, during its step)",
    "nominate": "nominate SEAT: propose SEAT for today's vote",
    "pass": "pass: no nomination today / no suggestion / no night action (Agent, Police head, Fighter, "
            "or under arrest)",
    "vote": "vote SEAT: your vote in the roll-call",
    "abstain": "abstain: no vote in the roll-call",
    "suggest": "suggest SEAT: propose your team's target tonight",
    "seduce": "seduce SEAT: (Seducer) SEAT cannot be killed tonight",
    "protect": "protect SEAT: (Agent) SEAT cannot be expelled tomorrow",
    "kill": "kill SEAT: (Mafia head, Fighter) kill SEAT tonight",
    "shoot": "shoot SEAT: (Police head) kill SEAT tonight",
    "arrest": "arrest SEAT: (Police head) SEAT's night actions are skipped next night",
    "ban": "ban SEAT: (Chameleon) SEAT may not vote tomorrow",
    "leave": "leave: leave the game for good (your card is shown)",
}
"""Every input's form, in the order a refusal lists them."""


@dataclass(frozen=True)
class Say:
    """``say TEXT``: talk (by day to everyone, by night to the awake team)."""

    text: str
    verb: ClassVar[str] = "say"


@dataclass(frozen=True)
class Nominate:
    """``nominate SEAT``: propose SEAT for today's vote."""

    target: str
    verb: ClassVar[str] = "nominate"


@dataclass(frozen=True)
class Pass:
    """``pass``: no nomination today, no suggestion, or no night action."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Vote:
    """``vote SEAT``: a vote in the roll-call."""

    target: str
    verb: ClassVar[str] = "vote"


@dataclass(frozen=True)
class Abstain:
    """``abstain``: no vote in the roll-call."""

    verb: ClassVar[str] = "abstain"


@dataclass(frozen=True)
class Leave:
    """``leave``: leave the game for good."""

    verb: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Suggest:
    """``suggest SEAT``: propose the team's target tonight."""

    target: str
    verb: ClassVar[str] = "suggest"


@dataclass(frozen=True)
class Power:
    """A night power on SEAT: ``seduce``, ``protect``, ``kill``, ``shoot``, ``arrest`` or ``ban``
    (``POWER_VERBS``); which step may use which is the rules' business."""

    verb: str
    target: str


Move = Say | Nominate | Pass | Vote | Abstain | Leave | Suggest | Power
"""One Classic Mafia input."""

_BARE: dict[str, Move] = {"pass": Pass(), "abstain": Abstain(), "leave": Leave()}
_AT_SEAT = {"nominate": Nominate, "vote": Vote, "suggest": Suggest}


def read_verb(text: str) -> str:
    """The action word of an input, in lower case. Raises ``SyntaxInputError`` (listing every
    form) when there is none or it is not an action of the game.

    >>> read_verb("Nominate p2")
    'nominate'
    """
    words = text.split()
    if not words:
        raise UnknownActionError("an empty input", list(FORMS.values()))
    verb = words[0].lower()
    if verb not in VERBS:
        raise UnknownActionError(f"{quoted(words[0])} is not an action of Classic Mafia", list(FORMS.values()))
    return verb


def _one_seat(verb: str, args: list[str], seats: Sequence[str]) -> str:
    if len(args) != 1:
        raise SyntaxInputError(f"{verb} takes one seat, e.g. '{verb} {seats[-1]}'", [FORMS[verb]])
    target = args[0].lower()
    if target not in seats:
        raise SyntaxInputError(f"{quoted(args[0])} is not a seat (seats: {' '.join(seats)})", [FORMS[verb]])
    return target


def parse_move(text: str, seats: Sequence[str], say_max: int | None = None) -> Move:
    """Read the words of one input (after the seat name) at a table of ``seats``; a ``say``
    longer than ``say_max`` characters is refused. Raises ``SyntaxInputError`` with the form
    of the action in ``allowed`` (every form when the action word itself is wrong)."""
    verb = read_verb(text)
    args = text.split()[1:]
    if verb == "say":
        if not args:
            raise SyntaxInputError("say what? 'say' needs words after it", [FORMS["say"]])
        words = " ".join(args)
        if say_max is not None and len(words) > say_max:
            raise SyntaxInputError(f"say takes at most {say_max} characters; this line has {len(words)}",
                                   [FORMS["say"]])
        return Say(words)
    if verb in _BARE:
        if args:
            raise SyntaxInputError(f"{verb} takes no words after it", [FORMS[verb]])
        return _BARE[verb]
    target = _one_seat(verb, args, seats)
    if verb in _AT_SEAT:
        return _AT_SEAT[verb](target)
    return Power(verb, target)


def move_name(move: Move) -> str:
    """The canonical words of a move (what ``parse_move`` reads back to the same move)."""
    if isinstance(move, Say):
        return f"say {move.text}"
    if isinstance(move, (Pass, Abstain, Leave)):
        return move.verb
    return f"{move.verb} {move.target}"


def well_formed(move: object, seats: Sequence[str], say_max: int | None = None) -> bool:
    """Whether ``move`` is a value ``parse_move`` reads from its own name (``move_name``) at a
    table of ``seats``: a move of the game with a known action, a seat for a target, and words
    as ``parse_move`` leaves them (one space between words, not too long; printable, else they
    are checked as any input's words are, by ``words_of``). Such a value may be
    applied without writing and reading its words (``MafiaState.apply_move``).

    >>> seats = ("p1", "p2", "p3", "p4", "p5", "p6")
    >>> well_formed(Power("kill", "p3"), seats), well_formed(Power("kill", "P3"), seats)
    (True, False)
    >>> well_formed(Say("hi  there"), seats), well_formed(Say("hi there"), seats, 5)
    (False, False)
    """
    kind = type(move)
    if kind in _TARGETED:
        return move.target in seats and (kind is not Power or move.verb in POWER_VERBS)  # type: ignore[attr-defined]
    if kind is Say:
        words = move.text  # type: ignore[attr-defined]
        return (type(words) is str and words != "" and words.isprintable() and words == " ".join(words.split())
                and (say_max is None or len(words) <= say_max))
    return kind in _BARE_KINDS


_TARGETED = frozenset((Nominate, Vote, Suggest, Power))  # (sets: a class is found by its hash, not by
_BARE_KINDS = frozenset((Pass, Abstain, Leave))  # comparing it with each class in turn)


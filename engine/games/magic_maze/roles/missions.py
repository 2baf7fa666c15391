"""Missions and side switches, followed from the game's events.

Every mission card (a hero's or a traitor's) and every variable card holds one predicate of the
vocabulary (``data.PREDICATES``); here each one is a ``Tracker``: pending until the events
make it done or failed, once. ``Tracking.observe`` reads one event at a time, in the order the
game emitted them, with the input that caused it (its seat and move; None for a change time
alone made), and returns the trackers it settled; the state does the rest (tells the holder,
switches its side, or announces the failure and eliminates it). What each predicate means, and
the moment it is done or failed: ``docs/rules/hidden-roles.md``, "Missions".

>>> from arbiter.engine.games.magic_maze.roles.data import Predicate
>>> t = Tracker("p2", "nuisance", Predicate("pawn-in-front", (("times", 2),)), "mission")
>>> tracking = Tracking([t])
>>> class Facts:
...     stack, now_ms, hourglasses_left, hourglasses_to_come = ["5"], 3000, 1, 1
>>> from arbiter.engine.events import Event
>>> pawn = lambda by, to: Event(0, "pawn", "", {"seat": by, "target": to})
>>> [tracking.observe(e, Facts, None, None) for e in (pawn("p2", "p2"), pawn("p1", "p2"), pawn("p1", "p3"))]
[[], [], []]
>>> tracking.observe(pawn("p3", "p2"), Facts, None, None), t.count
([Tracker(p2 nuisance: done, 2)], 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from arbiter.engine.clock import parse_seconds
from arbiter.engine.events import Event
from arbiter.engine.games.magic_maze.moves import Move
from arbiter.engine.games.magic_maze.roles.data import Predicate

PENDING, DONE, FAILED = "pending", "done", "failed"


class Facts(Protocol):
    """What the trackers read of the game besides its events."""

    stack: list[str]
    now_ms: int

    @property
    def hourglasses_left(self) -> int:
        """Unused hourglasses on the board."""

    @property
    def hourglasses_to_come(self) -> int:
        """Hourglasses on the tiles still in the stack (which tiles are left is public: the
        scenario's tiles but those in the mall; only their order is hidden)."""


def words(pred: Predicate) -> str:
    """What a predicate asks, in words (for the holder's view and the failure's announcement).

    >>> words(Predicate("hero-never-uses", (("action", "vortex"), ("hero", "green"))))
    'the green hero never travels by vortex'
    """
    p = dict(pred.params)
    s = p.get("seconds")
    return {
        "hero-leaves-first": f"the {p.get('hero')} hero leaves the mall first",
        "hero-leaves-last": f"the {p.get('hero')} hero leaves the mall last",
        "completes-theft": "its holder's own input completes the theft",
        "theft-before": f"the theft before the clock shows {s} s",
        "no-theft-before": f"no theft before the clock shows {s} s",
        "explores": f"its holder explores {p.get('tiles')} tile(s)",
        "flip-with-under": f"a flip of the timer with under {s} s of sand left",
        "hero-never-uses": (f"the {p.get('hero')} hero never explores" if p.get("action") == "explore"
                            else f"the {p.get('hero')} hero never travels by {p.get('action')}"),
        "never-accused": "its holder is never accused",
        "pawn-in-front": f"the pawn is put in front of its holder {p.get('times')} time(s)",
        "eye-in-front": f"the eye card is put in front of its holder {p.get('times')} time(s)",
        "accused-and-cleared": "its holder is accused and cleared by the vote",
        "accusation-validated": "an accusation naming others is upheld",
        "camera-disabled": f"{p.get('times')} camera(s) are put out",
    }[pred.name]


@dataclass
class Tracker:
    """One card's predicate in one game: a ``mission`` or a ``switch`` (a variable card's
    trigger); ``count`` counts what the predicate counts (tiles, puts of the pawn, ...)."""

    seat: str
    card: str
    pred: Predicate
    purpose: str
    status: str = PENDING
    count: int = 0

    def __repr__(self) -> str:
        return f"Tracker({self.seat} {self.card}: {self.status}, {self.count})"

    @property
    def pending(self) -> bool:
        return self.status == PENDING

    def needed(self) -> int | None:
        """How many the predicate counts to (None when it counts nothing)."""
        p = dict(self.pred.params)
        return p.get("tiles", p.get("times"))

    def progress(self) -> str:
        """The status in words, with the count of a counting predicate."""
        need = self.needed()
        return self.status + (f" ({self.count} of {need})" if need is not None and self.pending else "")


def _ms(text: str) -> int:
    return parse_seconds(str(text))


class Tracking:
    """Every tracker of a game, and what they have seen so far of the events."""

    def __init__(self, trackers: Iterable[Tracker]) -> None:
        self.trackers = list(trackers)
        self.left: list[str] = []  # heroes out of the mall, in order

    def pending(self) -> list[Tracker]:
        return [t for t in self.trackers if t.pending]

    def of(self, seat: str) -> Tracker | None:
        return next((t for t in self.trackers if t.seat == seat), None)

    # ------------------------------------------------------------------------------- reading
    def observe(self, event: Event, facts: Facts, actor: str | None, move: Move | None,
                switches: bool = True) -> list[Tracker]:
        """Read one event (caused by ``actor``'s ``move``, or by time when None); the trackers it
        settled, in the order of ``trackers``. With ``switches`` False (the event ends the
        game) only the missions read it: the side switches it would trigger never happen."""
        if event.kind == "escape":
            self.left.append(event.data["hero"])
        settled = []
        for t in self.pending():
            if not switches and t.purpose == "switch":
                continue
            status = self._judge(t, event, facts, actor, move)
            if status is None and event.kind in ("explore", "flip"):
                status = self._impossible(t, facts)
            if status is not None:
                t.status = status
                settled.append(t)
        return settled

    def check(self, facts: Facts) -> list[Tracker]:
        """The trackers that are impossible already (at the deal)."""
        settled = []
        for t in self.pending():
            status = self._impossible(t, facts)
            if status is not None:
                t.status = status
                settled.append(t)
        return settled

    def at_mark(self, now_ms: int) -> list[Tracker]:
        """The clock reached ``now_ms`` with no theft: a theft before that time fails, none
        before it is done."""
        settled = []
        for t in self.pending():
            if t.pred.name in ("theft-before", "no-theft-before") and t.pred["seconds"] * 1000 <= now_ms:
                t.status = FAILED if t.pred.name == "theft-before" else DONE
                settled.append(t)
        return settled

    def at_end(self) -> list[Tracker]:
        """The game is over: a pending predicate kept to the end (the "never" kind, and no
        theft before a moment the game did not reach) was kept (done), any other one was not
        (failed)."""
        settled = self.pending()
        for t in settled:
            t.status = DONE if t.pred.never else FAILED
        return settled

    # ------------------------------------------------------------------------------- judging
    @staticmethod
    def _count(t: Tracker) -> str | None:
        t.count += 1
        need = t.needed()
        return DONE if need is not None and t.count >= need else None

    def _judge(self, t: Tracker, e: Event, facts: Facts, actor: str | None, move: Move | None) -> str | None:
        name, kind, data = t.pred.name, e.kind, e.data
        p = dict(t.pred.params)
        if name == "hero-leaves-first" and kind == "escape" and len(self.left) == 1:
            return DONE if data["hero"] == p["hero"] else FAILED
        if name == "hero-leaves-last" and kind == "escape" and data["hero"] == p["hero"]:
            return DONE if len(self.left) == 4 else FAILED
        if kind == "theft":
            if name == "completes-theft":
                return DONE if actor == t.seat else FAILED
            if name == "theft-before":
                return DONE if facts.now_ms < p["seconds"] * 1000 else FAILED
            if name == "no-theft-before":
                return FAILED if facts.now_ms < p["seconds"] * 1000 else DONE
        if name == "explores" and kind == "explore" and actor == t.seat:
            return self._count(t)
        if name == "flip-with-under" and kind == "flip" and _ms(data["before"]) < p["seconds"] * 1000:
            return DONE
        if name == "hero-never-uses" and move is not None and move.verb == p["action"] and move.hero == p["hero"]:
            used = kind == "explore" if p["action"] == "explore" else kind in ("hero", "escape")
            if used and data.get("hero", move.hero) == p["hero"]:
                return FAILED
        if name == "never-accused" and kind == "accuse" and t.seat in data["accused"]:
            return FAILED
        if name == "pawn-in-front" and kind == "pawn" and data["target"] == t.seat and data["seat"] != t.seat:
            return self._count(t)
        if name == "eye-in-front" and kind == "eye" and data["target"] == t.seat:
            return self._count(t)
        if name == "accused-and-cleared" and kind == "verdict" and not data["upheld"] and t.seat in data["accused"]:
            return DONE
        if name == "accusation-validated" and kind == "verdict" and data["upheld"] and t.seat not in data["accused"]:
            return DONE
        if name == "camera-disabled" and kind == "camera":
            return self._count(t)
        return None

    @staticmethod
    def _impossible(t: Tracker, facts: Facts) -> str | None:
        """Failed, when the board says the predicate can no longer be done: too few tiles left
        to explore, or no hourglass left to flip (none unused on the board, none on a tile
        still in the stack)."""
        if t.pred.name == "explores" and len(facts.stack) < t.pred["tiles"] - t.count:
            return FAILED
        if t.pred.name == "flip-with-under" and not facts.hourglasses_left and not facts.hourglasses_to_come:
            return FAILED
        return None

"""Accusations in Hidden Roles: the accusation and its vote, the verdict, the accuser's flip
of the timer after an upheld accusation, and the sand running out while either is open.

``Accusations`` is a base of ``HiddenRolesState``: it plans the inputs ``accuse``, ``vote``,
``flip`` and (the accuser's) ``pass``, and makes the timed changes of a vote closing and of
the accuser's flip window ending. It reads and changes the attributes the state keeps
(declared here) and asks the state to reveal, eliminate and end the game. Rules text:
``docs/rules/hidden-roles.md``, "Accusations".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from arbiter.engine.clock import seconds_name
from arbiter.engine.errors import IllegalMoveError
from arbiter.engine.events import EventLog
from arbiter.engine.games.magic_maze.data import Scenario
from arbiter.engine.games.magic_maze.roles.deal import RoleSetup
from arbiter.engine.games.magic_maze.roles.moves import RoleMove, Seats

Plan = Callable[[], None]


@dataclass
class Vote:
    """An open accusation: who accused whom, who votes, and until when (virtual ms)."""

    accuser: str
    accused: tuple[str, ...]
    voters: tuple[str, ...]
    opened_ms: int
    closes_ms: int
    yes: list[str] = field(default_factory=list)

    def waiting(self, out: dict[str, str]) -> list[str]:
        """The voters still to vote. A voter out of the game is none: leaving before its yes
        rejected the vote (``_settle_vote``), unless the game ended first."""
        return [v for v in self.voters if v not in self.yes and v not in out]

    def as_dict(self, out: dict[str, str]) -> dict[str, object]:
        return {"accuser": self.accuser, "accused": list(self.accused), "voters": list(self.voters),
                "yes": list(self.yes), "waiting": self.waiting(out), "until": seconds_name(self.closes_ms)}


@dataclass(frozen=True)
class FlipWindow:
    """After an upheld accusation against traitors: the accuser may flip the timer until then."""

    accuser: str
    until_ms: int


def names(seats: tuple[str, ...] | list[str]) -> str:
    """``p1``, ``p1 and p2``, ``p1, p2 and p3``."""
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


class Accusations:
    seats: tuple[str, ...]
    events: EventLog
    scenario: Scenario
    setup: RoleSetup
    now_ms: int
    deadline_ms: int
    flips: int
    talk_open: bool
    out: dict[str, str]
    side: dict[str, str]
    vote: Vote | None
    _final: int | None
    flip_window: FlipWindow | None
    sand_out: bool
    result: object

    if TYPE_CHECKING:  # the state's own (see state.py), declared for the type checker only
        def in_game(self, seat: str) -> bool: ...
        def time_left_ms(self, now_ms: int | None = None) -> int: ...
        def _follow(self) -> None: ...
        def _reveal(self, seat: str) -> None: ...
        def _eliminate(self, seats: tuple[str, ...], why: str) -> None: ...
        def _end(self, heroes_won: bool, reason: str, text: str) -> None: ...
        def finish(self, won: bool, reason: str, text: str) -> None: ...
        def sand_runs_out(self, text: str | None = None) -> None: ...

    # ---------------------------------------------------------------------------- what may be sent
    def _busy(self) -> str | None:
        """Why no accusation may start now (a vote or the accuser's flip is pending), if so."""
        if self.vote is not None:
            return f"a vote is open until {seconds_name(self.vote.closes_ms)} s: one accusation at a time"
        if self.flip_window is not None:
            return (f"{self.flip_window.accuser}'s flip of the timer is pending until "
                    f"{seconds_name(self.flip_window.until_ms)} s: accuse after it")
        return None

    def accusation_moves(self, seat: str) -> list[RoleMove]:
        """Every accusation ``seat`` may make now (one seat at level 1, any set of seats from
        level 2), smallest first, in seat order."""
        if self._busy() is not None:
            return []
        others = [s for s in self.seats if s != seat and self.in_game(s)]
        sizes = range(1, min(len(others) - 1, len(others) if self.setup.multi else 1) + 1)  # one voter at least
        return [RoleMove("accuse", accused=Seats(group)) for n in sizes for group in combinations(others, n)]

    def vote_moves(self, seat: str) -> list[RoleMove]:
        if self.vote is None or seat not in self.vote.waiting(self.out):
            return []
        return [RoleMove("vote", answer="yes"), RoleMove("vote", answer="no")]

    def flip_moves(self, seat: str) -> list[RoleMove]:
        if self.flip_window is None or self.flip_window.accuser != seat:
            return []
        return [RoleMove("flip"), RoleMove("pass")]

    # ---------------------------------------------------------------------------- plans
    def _plan_accuse(self, seat: str, move: RoleMove) -> Plan:
        busy = self._busy()
        if busy:
            raise IllegalMoveError(busy)
        accused = tuple(move.accused or ())
        if not self.setup.multi and len(accused) > 1:
            raise IllegalMoveError("at level 1 an accusation names exactly one seat")
        if seat in accused:
            raise IllegalMoveError(f"{seat} cannot accuse itself")
        gone = [s for s in accused if not self.in_game(s)]
        if gone:
            raise IllegalMoveError(f"{names(gone)} {'is' if len(gone) == 1 else 'are'} out of the game: accuse players "
                                   "still in it")
        voters = tuple(s for s in self.seats if self.in_game(s) and s != seat and s not in accused)
        if not voters:  # (else an accusation of every other seat would be upheld unasked: see docs/rules)
            raise IllegalMoveError(f"nobody would be left to vote on an accusation of {names(accused)}: an accusation "
                                   "needs one player at least who is neither the accuser nor accused")

        def accuse() -> None:
            self.vote = Vote(seat, accused, voters, self.now_ms, self.now_ms + self.setup.deck.timing.vote_ms)
            until = seconds_name(self.vote.closes_ms)
            asked = f"{names(voters)} vote yes or no until {until} s."
            self.events.emit("accuse", f"{seat} accuses {names(accused)} of treason! {asked}",
                             {"accuser": seat, "accused": list(accused), "voters": list(voters), "until": until})
            self._follow()
            self._settle_vote()
        return accuse

    def _plan_vote(self, seat: str, move: RoleMove) -> Plan:
        vote = self.vote
        if vote is None:
            raise IllegalMoveError("no vote is open")
        if seat == vote.accuser:
            raise IllegalMoveError(f"{seat} made the accusation: the accuser counts as a yes")
        if seat in vote.accused:
            raise IllegalMoveError(f"{seat} is accused: the accused do not vote")
        if seat in vote.yes:
            raise IllegalMoveError(f"{seat} has voted already")
        if seat not in vote.voters:
            raise IllegalMoveError(f"{seat} is not a voter of this accusation (voters: {' '.join(vote.voters)})")
        if seat in self.out:  # (its leaving closed the vote, or it had said yes; the sand lets votes past check_actor)
            raise IllegalMoveError(f"{seat} is out of the game: it has no inputs any more")
        answer = move.answer

        def cast() -> None:
            assert self.vote is not None
            self.events.emit("vote", f"{seat} votes {answer}.", {"seat": seat, "vote": answer})
            if answer == "no":
                self._close_vote(False, f"{seat} voted no")
                return
            self.vote.yes.append(seat)
            self._settle_vote()
        return cast

    def _plan_flip(self, seat: str, move: RoleMove) -> Plan:
        window = self.flip_window
        if window is None and move.verb == "pass":
            raise IllegalMoveError("nothing to pass: pass lets the accuser's flip go by, or (level 5) a divining")
        if window is None:
            raise IllegalMoveError("no flip is due: the accuser of an upheld accusation may flip the timer, "
                                   "within the flip window")
        if window.accuser != seat:
            raise IllegalMoveError(f"only {window.accuser}, the accuser, may flip the timer now")
        if move.verb == "pass":
            return lambda: self._flip_passed(f"{seat} lets the flip go.")
        return lambda: self._accuser_flip(seat)

    # ---------------------------------------------------------------------------- the vote closing
    def _settle_vote(self) -> None:
        """Close the open vote once its outcome is certain: upheld when every voter has said yes;
        rejected when a voter who had not is out of the game (its mission failed), its vote
        missing for good, for a missing vote rejects (a yes it gave before stands)."""
        vote = self.vote
        if vote is None or self.result is not None:
            return
        gone = [v for v in vote.voters if v not in vote.yes and v in self.out]
        if gone:
            self._close_vote(False, f"{names(gone)} left the game without voting")
        elif not vote.waiting(self.out):
            self._close_vote(True, "every voter said yes")

    def _vote_times_out(self) -> None:
        """The timed change: the vote's time is up; a missing vote rejects the accusation."""
        assert self.vote is not None
        missing = self.vote.waiting(self.out)
        self._close_vote(False, f"no vote in time from {names(missing)}")
        self._follow()

    def _close_vote(self, upheld: bool, why: str) -> None:
        """The verdict. When it ends the game (rejected with the sand out, upheld against a
        hero, or upheld with nobody to flip the empty timer or nobody left), the end is judged
        on the sides as they stand before it: a switch the verdict itself would trigger (a
        scared traitor's, a wronged hero's) does not happen."""
        vote = self.vote
        assert vote is not None
        self.vote = None
        self._follow()  # what came before the verdict (its switches included) counts first
        if self.result is not None:
            return
        accused = vote.accused
        self.events.emit("verdict", f"The accusation of {names(accused)} is {'upheld' if upheld else 'rejected'} "
                         f"({why}).", {"accuser": vote.accuser, "accused": list(accused), "upheld": upheld})
        if self._verdict_ends(vote, upheld):
            self._final = len(self.events) - 1
        self._follow()
        if self.result is not None:
            return
        if not upheld:
            if self.sand_out:
                self._end(False, "time", f"The sand had run out and the vote rejected the accusation at "
                          f"{seconds_name(self.now_ms)} s")
            return
        for s in accused:
            self._reveal(s)
        heroes = tuple(s for s in accused if self.side[s] == "hero")
        if heroes:
            self._end(False, "wrong-accusation", f"{vote.accuser}'s accusation is upheld, but {names(heroes)} "
                      f"{'is a hero' if len(heroes) == 1 else 'are heroes'}")
            return
        self._eliminate(tuple(s for s in accused if self.in_game(s)), "accused")
        if self.result is not None:
            return
        if self.in_game(vote.accuser):
            self.flip_window = FlipWindow(vote.accuser, self.now_ms + self.setup.deck.timing.flip_ms)
            self.events.emit("flip-window", f"{vote.accuser} may flip the sand timer until "
                             f"{seconds_name(self.flip_window.until_ms)} s (flip or pass).",
                             {"seat": vote.accuser, "until": seconds_name(self.flip_window.until_ms)})
        elif self.sand_out:
            self._end(False, "time", f"The sand had run out, and the accuser is out of the game at "
                      f"{seconds_name(self.now_ms)} s")

    def _verdict_ends(self, vote: Vote, upheld: bool) -> bool:
        """Whether the verdict on ``vote`` ends the game (sides as they stand now)."""
        if not upheld:
            return self.sand_out
        if any(self.side[s] == "hero" for s in vote.accused):
            return True
        left = [s for s in self.seats if self.in_game(s) and s not in vote.accused]
        return not self.in_game(vote.accuser) and (self.sand_out or not left)

    # ---------------------------------------------------------------------------- the accuser's flip
    def _accuser_flip(self, seat: str) -> None:
        """A flip like an hourglass's (time left becomes the timer's length minus what was left;
        talk opens), but on no hourglass square and with no passing of the action tiles."""
        left = self.time_left_ms()
        self.deadline_ms = self.now_ms + (self.scenario.timer_ms - left)
        self.sand_out = False
        self.flip_window = None
        self.flips += 1
        self.events.emit("flip", f"{seat}, the accuser, flips the sand timer: {seconds_name(self.time_left_ms())} s "
                         f"left (was {seconds_name(left)}).",
                         {"square": None, "seat": seat, "left": seconds_name(self.time_left_ms()),
                          "before": seconds_name(left)})
        if self.scenario.talk == "windows":
            self.talk_open = True
            self.events.emit("talk", "Talk is open until the next action.", {})
        if self.deadline_ms <= self.now_ms:
            self.sand_runs_out(f"The flip left no sand at {seconds_name(self.now_ms)} s: everyone loses.")

    def _flip_passed(self, text: str) -> None:
        window = self.flip_window
        assert window is not None
        self.flip_window = None
        self.events.emit("no-flip", text, {"seat": window.accuser})
        if self.sand_out:
            self._end(False, "time", f"The sand had run out and nobody flipped it at {seconds_name(self.now_ms)} s")

    def _flip_window_ends(self) -> None:
        """The timed change: the accuser's flip window closes unused."""
        assert self.flip_window is not None
        self._flip_passed(f"{self.flip_window.accuser} did not flip the timer in time.")
        self._follow()

    def _void_pending(self, why: str) -> None:
        """The game stops listening to accusations (the heroes are out, or the game is over):
        an open vote is never decided and the accuser's flip is gone, publicly (a ``void``
        event), so that no view or board goes on showing a vote or a flip that waits for
        inputs the game no longer takes. Nothing is revealed, nobody switches."""
        vote, window = self.vote, self.flip_window
        self.vote, self.flip_window = None, None
        if vote is not None:
            self.events.emit("void", f"{why}: {vote.accuser}'s accusation of {names(vote.accused)} is never "
                             "decided.", {"accuser": vote.accuser, "accused": list(vote.accused), "flip": None})
        if window is not None:
            self.events.emit("void", f"{why}: {window.accuser} may no longer flip the timer.",
                             {"accuser": None, "accused": [], "flip": window.accuser})

    # ---------------------------------------------------------------------------- the sand
    def _sand_waits(self) -> bool:
        """The sand ran out: if a vote or the accuser's flip is open, the game waits for it."""
        if self.vote is None and self.flip_window is None:
            return False
        self.sand_out = True
        waiting = "the vote" if self.vote is not None else f"{self.flip_window.accuser}'s flip"  # type: ignore[union-attr]
        self.events.emit("sand", f"The sand has run out at {seconds_name(self.now_ms)} s, but {waiting} decides: "
                         "the game waits for it.", {"time": seconds_name(self.now_ms)})
        return True

    def sand_closed(self) -> str:
        """The refusal of an input while the sand is out."""
        decides = "the vote decides" if self.vote is not None else "the accuser's flip decides"
        return f"the sand has run out; {decides}"

"""The day of Classic Mafia: the nominations (every living player at once), the roll-call vote
(one voter at a time, in seat order; a tied vote is held once more) and its verdict, and what a
player who leaves takes out of them. The day never starts the night itself: it says when it is
over, and ``MafiaState`` moves on.
"""

from __future__ import annotations

from functools import partial

from arbiter.engine.errors import IllegalMoveError, NotYourTurnError
from arbiter.engine.games.mafia.moves import Abstain, Move, Nominate, Pass, Vote
from arbiter.engine.games.mafia.table import NOMINATE, VOTE, Plan, Table


class Day(Table):
    """The rules of the day."""

    # ------------------------------------------------------------------------------- inputs
    def _need_phase(self, phase: str, verb: str) -> None:
        if self.phase != phase:
            when = "the nominations" if phase == NOMINATE else "the roll-call vote"
            raise IllegalMoveError(f"{verb} belongs to {when}; it is {self._phase_name()} now")

    def _plan_nominate(self, seat: str, target: str) -> Plan:
        self._check_living("nominate", target, seat)
        if seat in self.done_nominating:
            done = self.done_nominating[seat]
            raise IllegalMoveError(f"{seat} has already " + (f"nominated {done}" if done else "passed") + " today")
        if target in self.nominations:
            raise IllegalMoveError(f"{target} is already nominated (by {self.nominations[target]}); nominate someone else or pass")

        def nominate() -> None:
            self.nominations[target] = seat
            self.done_nominating[seat] = target
            self.events.emit("nominate", f"{seat} nominates {target}.", {"seat": seat, "nominee": target})
        return nominate

    def _plan_pass_day(self, seat: str) -> Plan:
        if seat in self.done_nominating:
            done = self.done_nominating[seat]
            raise IllegalMoveError(f"{seat} has already " + (f"nominated {done}" if done else "passed") + " today")

        def pass_day() -> None:
            self.done_nominating[seat] = None
            self.events.emit("pass", f"{seat} nominates nobody.", {"seat": seat})
        return pass_day

    def _plan_vote(self, seat: str, target: str) -> Plan:
        self._need_voter(seat)
        if target not in self.candidates:
            raise IllegalMoveError(f"{target} is not a candidate in this round (candidates: {' '.join(self.candidates)})",
                                   [f"vote {c}" for c in self.candidates] + ["abstain"])
        return partial(self._cast, seat, target)  # (a lambda calling it: one more call of Python, at every vote)

    def _plan_abstain(self, seat: str) -> Plan:
        self._need_phase(VOTE, "abstain")
        self._need_voter(seat)
        return partial(self._cast, seat, None)

    def _need_voter(self, seat: str) -> None:
        if seat in self.votes:
            cast = self.votes[seat]
            raise IllegalMoveError(f"{seat} has already " + (f"voted for {cast}" if cast else "abstained") + " in this round")
        if seat == self.no_vote:
            raise IllegalMoveError(f"{seat} may not vote today (the Chameleon's choice)")
        awaited = self._awaited  # in the roll-call, (the voter called,) as the state keeps it
        voter = awaited[0] if awaited else self.current_voter()
        if seat != voter:
            raise NotYourTurnError(f"the roll-call goes in seat order: {voter} votes now, not {seat}")

    def _cast(self, seat: str, target: str | None) -> None:
        self.votes[seat] = target
        text = f"{seat} votes for {target}." if target else f"{seat} abstains."
        self.events.emit("vote", text, {"seat": seat, "vote": target, "round": self.round})

    def _withdraw(self, seat: str) -> None:
        """What a player who leaves takes with them: their nomination and the votes for them."""
        if seat in self.nominations:
            nominator = self.nominations.pop(seat)
            self.done_nominating.pop(nominator, None)
            if self.phase == NOMINATE and self.alive[nominator]:
                self.events.emit("withdrawn", f"The nomination of {seat} is withdrawn; {nominator} may nominate again.",
                                 {"nominee": seat, "seat": nominator})
        if self.phase == VOTE and seat in self.candidates:
            self.candidates = tuple(c for c in self.candidates if c != seat)
            for voter, cast in list(self.votes.items()):
                if cast == seat:
                    self.votes[voter] = None
            self.events.emit("withdrawn", f"{seat} is no longer a candidate; votes for {seat} count as abstentions.",
                             {"nominee": seat})

    def _day_moves(self, seat: str, others: list[str]) -> list[Move]:
        """What ``seat`` may answer in today's nominations or roll-call."""
        if self.phase == NOMINATE:
            if seat not in self.done_nominating:
                return [Nominate(s) for s in others if s not in self.nominations] + [Pass()]
        elif seat == self.current_voter():
            return [Vote(c) for c in self.candidates] + [Abstain()]
        return []

    # ------------------------------------------------------------------------------- phases
    def _start_day(self, day: int) -> None:
        """A day begins (the Chameleon's ban, chosen last night, is announced with it)."""
        self._set_phase(NOMINATE)
        self.day = day
        self.nominations, self.done_nominating, self.votes, self.said = {}, {}, {}, {}
        self.round, self.candidates, self.voters = 0, (), ()
        self.events.emit("narration", f"Day {day}: discuss, then each living player nominates a player or passes.",
                         {"day": day})
        if self.no_vote:
            self.events.emit("morning", f"{self.no_vote} may not vote today (the Chameleon's choice).",
                             {"no_vote": self.no_vote})

    def _close_nominations(self) -> bool:
        """End the nominations; whether the day is over (nobody nominated: night falls)."""
        if not self.nominations:
            self.events.emit("verdict", f"Nobody is nominated on day {self.day}; nobody leaves today.", {"day": self.day})
            return True
        self._start_round(1, tuple(self.nominations))
        return False

    def _start_round(self, number: int, candidates: tuple[str, ...]) -> None:
        self._set_phase(VOTE)
        self.round = number
        self.candidates = candidates
        self.votes = {}
        alive, banned = self.alive, self.no_vote
        self.voters = tuple([s for s in self.seats if alive[s] and s != banned])  # the living, but the banned
        what = "Voting" if number == 1 else "The vote is tied: a re-vote"
        banned = f"; {self.no_vote} may not vote" if self.no_vote and self.alive[self.no_vote] else ""
        self.events.emit("narration", f"{what} among {' '.join(candidates)}; the host calls each player in seat order{banned}.",
                         {"round": number, "candidates": list(candidates)})

    def _tally(self) -> bool:
        """Count the round's votes; whether the day is over (night falls). Not after a first
        tie (the re-vote follows) nor when the expulsion ends the game."""
        counts = dict.fromkeys(self.candidates, 0)
        for cast in self.votes.values():
            if cast in counts:
                counts[cast] += 1
        listing = ", ".join([f"{c} {n}" for c, n in counts.items()])
        top = max(counts.values(), default=0)
        leaders = tuple([c for c, n in counts.items() if n == top])
        data = {"day": self.day, "round": self.round, "counts": counts}
        if not counts:
            self.events.emit("verdict", "Every candidate has left the game; nobody leaves today.", data)
        elif top == 0:
            self.events.emit("verdict", f"Votes: {listing}. Nobody has a vote; nobody leaves today.", data)
        elif len(leaders) > 1 and self.round == 1:
            self.events.emit("verdict", f"Votes: {listing}. A tie between {' '.join(leaders)}.", data | {"tied": list(leaders)})
            self._start_round(2, leaders)
            return False
        elif len(leaders) > 1:
            self.events.emit("verdict", f"Votes: {listing}. The re-vote is tied again; nobody leaves today.", data)
        elif leaders[0] == self.shielded:
            self.events.emit("verdict", f"Votes: {listing}. {leaders[0]} has the most votes, but a protection holds: "
                             "nobody leaves today.", data | {"protected": leaders[0]})
        else:
            self.events.emit("verdict", f"Votes: {listing}. {leaders[0]} is expelled.", data | {"expelled": leaders[0]})
            self._remove(leaders[0], f"expelled on day {self.day}", f"{leaders[0]} leaves the game")
            if self._check_win():
                return False
        return True

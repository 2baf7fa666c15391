"""The state of one Classic Mafia game, with the engine as host. Rules text:
``docs/rules/mafia.md``.

A game is a sequence of phases: the day's nominations and roll-call vote (``day.py``) and the
night's steps in calling order (``night.py``), over the table's facts (``table.py``). This
module ties them together: it reads each input (``moves.py``) and sends it to the rules that
judge it, moves on through every phase that awaits nothing more (``_settle``), so the state is
always waiting for someone, or over, and says what each seat awaits, may send and may know.
Every handler checks the whole input before it changes anything.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.errors import IllegalMoveError, UnknownActionError
from arbiter.engine.events import HOST, EventLog
from arbiter.engine.game import SECRET_SEAT, Awaiting, words_of
from arbiter.engine.games.mafia.data import MafiaData
from arbiter.engine.games.mafia.day import Day
from arbiter.engine.games.mafia.moves import (
    FORMS, POWER_VERBS, Abstain, Leave, Move, Nominate, Pass, Power, Say, Suggest, Vote, move_name, parse_move,
    read_verb, well_formed,
)
from arbiter.engine.games.mafia.night import Night
from arbiter.engine.games.mafia.table import NIGHT, NOMINATE, VOTE, Plan


_POWERS = frozenset(POWER_VERBS)  # (the action word is a str: found by its hash)
_TIMED = frozenset(("nominate", "vote", "suggest", *POWER_VERBS))
"""The actions whose timing ``_check_timing`` judges before their words; an input of another
action is not sent there at all (it would do nothing: ``tests/test_mafia_speed_paths.py``)."""


class MafiaState(Day, Night):
    """One game of Classic Mafia: the table, its days and its nights."""

    bot_memos = ("_sleuth_seen",)  # what each seat's sleuth bot has read of the log (``sleuth._acts``)
    constants = ("data", "deck", "title", "seats", "card", "_title", "_side", "_team", "_team_seats", "_holders")
    move_kinds = Move
    __slots__ = ("_accepted", "_awaited")  # as every attribute of the table (``Table.__slots__``)

    def __init__(self, data: MafiaData, deck: dict[str, int], title: str, chance: Chance, events: EventLog) -> None:
        super().__init__(data, deck, title, chance, events)
        self._accepted: tuple[str, str, str | None] | None = None  # the last input: seat, words, public form
        self._awaited: tuple[str, ...] | None = None  # awaited_seats as _settle left the state (None: unknown)
        self._introduction_night()
        self._start_day(1)
        self._settle()

    # -------------------------------------------------------------------------------- awaiting
    def awaited_seats(self) -> list[str]:
        """The seats ``awaiting`` names, in its order, without writing its hints: asked several
        times at every input (the bots, the session), so ``_settle`` keeps the answer it found
        for the state it leaves, and an input forgets it before it changes anything."""
        if self.result is not None:
            return []
        if self._awaited is not None:
            return list(self._awaited)
        return self._awaited_now()

    def _awaited_now(self) -> list[str]:
        """``awaited_seats`` read from the table: it reads the table once and builds nothing else."""
        if self.result is not None:
            return []
        phase = self.phase
        if phase == NOMINATE:
            alive, done = self.alive, self.done_nominating
            return [s for s in self.seats if alive[s] and s not in done]
        if phase == VOTE:
            voter = self.current_voter()
            return [] if voter is None else [voter]
        step = self._step
        if step is None:
            return []
        head = self._head
        if step.team is None:
            return [] if head is None else [head]
        alive, jailed, suggestions = self.alive, self.jailed, self.suggestions
        out = [s for s in self._team_seats.get(step.name, ())  # _conferring_with(step, head)
               if alive[s] and s != jailed and s != head and s not in suggestions]
        if not out and head is not None:  # the head is awaited once the team has spoken (it may act sooner)
            out.append(head)
        return out

    def awaiting(self) -> list[Awaiting]:
        seats = self.awaited_seats()
        if not seats:
            return []
        if self.phase == NOMINATE:
            hint = f"day {self.day}: nominate a player or pass; say TEXT to talk"
            return [Awaiting(s, "nominate", hint) for s in seats]
        if self.phase == VOTE:
            names = " ".join(self.candidates)
            return [Awaiting(seats[0], "vote", f"day {self.day}, round {self.round}: vote for {names}, or abstain")]
        step = self.step()
        assert step is not None
        head = self.step_head(step)
        if seats != [head]:  # the team confers first (a head is never among those conferring)
            hint = f"night {self.night}: suggest a target to {head}, or pass"
            return [Awaiting(s, "confer", hint) for s in seats]
        return [Awaiting(head, "night", f"night {self.night}: {self._power_hint(step, head)}")]

    def awaiting_seen_by(self, seat: str) -> list[Awaiting]:
        """By day every awaited input is public. By night a seat sees its own, its awake team's,
        and otherwise only that a role is awake: never who holds it."""
        awaited = self.awaiting()
        step = self.step()
        if seat == HOST or step is None:
            return awaited
        team = self.awake_team(step.team) if step.team else []
        seen = [a for a in awaited if a.seat == seat or seat in team]
        if len(seen) < len(awaited):
            seen.append(Awaiting(SECRET_SEAT, "night", f"night {self.night}: {step.wake}"))
        return seen

    # ---------------------------------------------------------------------------- input checks
    def apply(self, seat: str, text: str, now_ms: int) -> str:
        try:
            verb = read_verb(text)
        except UnknownActionError as wrong:  # list what this seat may send now (an out seat: nothing)
            if not self.alive.get(seat, True):
                raise UnknownActionError(f"{wrong.message}; {seat} is out of the game ({self.fate[seat]}) "
                                         "and sends nothing more") from None
            raise UnknownActionError(wrong.message, self._forms(seat)) from None
        if not self.alive[seat]:
            raise IllegalMoveError(f"{seat} is out of the game ({self.fate[seat]}): the out neither act nor speak")
        if verb in _TIMED:
            self._check_timing(seat, verb)
        return self._accept(seat, parse_move(text, self.seats, self.data.selection.say_max_chars))

    def apply_move(self, seat: str, move: Any, now_ms: int) -> str:
        """``apply`` of the input ``move_name(move)``, given as the move value it reads as (a bot
        that chose it from ``legal_moves``): the same checks in the same order, but the reading
        of the words. A value that is not one ``parse_move`` reads from its name (``well_formed``)
        goes through its words, and so do words (a ``str``). (``tests/test_mafia_move_path.py``
        holds them equal.)"""
        kind = type(move)
        if kind is Vote or kind is Nominate:  # well_formed(move, ...) for the commonest moves, without its call
            target = move.target  # in self.seats; a str by the dict keyed by seat (by its hash)
            formed = target in self.alive if type(target) is str else target in self.seats
        else:
            formed = kind is Pass or well_formed(move, self.seats, self.data.selection.say_max_chars)
        if not formed:
            return self.apply(seat, words_of(move, Move, move_name), now_ms)
        if not self.alive[seat]:
            raise IllegalMoveError(f"{seat} is out of the game ({self.fate[seat]}): the out neither act nor speak")
        if move.verb in _TIMED:  # (a well-formed move's verb is one of the game's, a str)
            self._check_timing(seat, move.verb)
        return self._accept(seat, move)

    def _accept(self, seat: str, move: Move) -> str:
        """Check the rest of ``move`` (its timing is checked), then apply it; its canonical words."""
        kind = type(move)
        # what applies it, with its canonical words (``move_name``'s, written here): by the move's
        # exact class, as ``parse_move`` and ``well_formed`` know the moves, the commonest first,
        # each sent straight to its plan (a ``match``'s class patterns tried in turn were a tenth
        # of a night input's cost; a dispatching method's call and ``move_name``'s, 1%)
        if kind is Vote:
            plan, text = self._plan_vote(seat, move.target), f"vote {move.target}"
        elif kind is Pass:
            plan, text = self._plan_pass(seat), "pass"
        elif kind is Nominate:
            plan, text = self._plan_nominate(seat, move.target), f"nominate {move.target}"
        elif kind is Power:
            plan, text = self._plan_power(seat, move.verb, move.target), f"{move.verb} {move.target}"
        elif kind is Say:
            plan, text = self._plan_say(seat, move.text), f"say {move.text}"
        elif kind is Suggest:
            plan, text = self._plan_suggest(seat, move.target), f"suggest {move.target}"
        elif kind is Abstain:
            plan, text = self._plan_abstain(seat), "abstain"
        elif kind is Leave:
            plan, text = self._plan_leave(seat), "leave"
        else:
            raise AssertionError(f"not a move of Classic Mafia: {move!r}")
        # what others may know of it, judged before it changes the phase (``public_input``): a
        # day input and leaving are public; a night input is secret, down to who sent it
        self._accepted = (seat, text, None if self.phase == NIGHT and kind is not Leave else text)
        if kind is Say:  # talk changes nothing ``awaited_seats`` reads: nothing to settle
            plan()
            return text
        before, phase = self._awaited, self.phase
        self._awaited = None
        plan()
        # _settle, for the commonest inputs that leave the phase awaiting someone, without its
        # calls: a nomination or a pass of the day leaves the others awaited; a vote, the next voter
        if phase == NOMINATE and (kind is Nominate or kind is Pass):
            if before is not None and len(before) > 1 and seat in before:
                i = before.index(seat)
                self._awaited = before[:i] + before[i + 1:]
                return text
        elif kind is Vote:
            voter = self.current_voter()
            if voter is not None:
                self._awaited = (voter,)
                return text
        self._settle()
        return text

    def _forms(self, seat: str) -> list[str]:
        now = self.legal_inputs(seat) + self.input_forms(seat)
        verbs = {m.split()[0] for m in now} if self.alive.get(seat) else set()
        return [FORMS[v] for v in FORMS if v in verbs] or [FORMS[v] for v in FORMS]

    def _check_timing(self, seat: str, verb: str) -> None:
        """The actions whose timing is judged before their words: a nomination or a vote out of
        its phase, a suggestion by a seat not conferring, a night power out of its step are
        refused as such, whatever follows the action word. (The other actions are read first,
        and not sent here: ``_TIMED`` names these.) A phase is checked here before its check's
        call, made only to refuse: the call was 1% of a bench game."""
        if verb == "nominate":
            if self.phase != NOMINATE:
                self._need_phase(NOMINATE, "nominate")
        elif verb == "vote":
            if self.phase != VOTE:
                self._need_phase(VOTE, "vote")
        elif verb == "suggest":
            self._need_conferring(seat)
        elif verb in _POWERS:
            self._need_power(seat, verb)

    # -- talk, passing and leaving: by day and by night ------------------------------------
    def _plan_say(self, seat: str, words: str) -> Plan:
        step = self._step
        if step is None:
            def talk() -> None:
                self.said[seat] = self.said.get(seat, 0) + 1
                self.events.emit("say", f"{seat}: {words}", {"seat": seat, "text": words})
            return talk
        team = step.team
        if team is None or self.team_of(seat) != team:
            raise IllegalMoveError(
                f"it is night {self.night} and {seat} may not talk now: only the Mafia and the Police "
                "talk at night, among themselves, while their team is awake")
        if seat == self.jailed:
            raise IllegalMoveError(f"{seat} is under arrest tonight and cannot confer")

        def team_talk() -> None:
            self.said[seat] = self.said.get(seat, 0) + 1
            self.events.emit("team-say", f"{seat} (to the {team.title()}): {words}",
                             {"seat": seat, "team": team, "text": words}, to=self.awake_team(team))
        return team_talk

    def _plan_pass(self, seat: str) -> Plan:
        if self.phase == NOMINATE:
            return self._plan_pass_day(seat)
        step = self._step
        if step is None:
            raise IllegalMoveError(f"pass is not an answer in {self._phase_name()}: vote SEAT or abstain")
        return self._plan_pass_night(seat, step)

    def _plan_leave(self, seat: str) -> Plan:
        def leave() -> None:
            when = f"day {self.day}" if self.phase != NIGHT else f"night {self.night}"
            self._remove(seat, f"left on {when}", f"{seat} leaves the game")
            self._withdraw(seat)
            self._check_win()
        return leave

    # -------------------------------------------------------------------------------- phases
    def _settle(self) -> None:
        """Move on through every phase that awaits nothing more; keep what the state then awaits."""
        self._awaited = None
        while self.result is None and not (awaited := self._awaited_now()):
            if self.phase == NOMINATE:
                if self._close_nominations():
                    self._nightfall()
            elif self.phase == VOTE:
                if self._tally():
                    self._nightfall()
            elif self._step is not None:
                self._next_step()
            elif self._dawn():
                self._start_day(self.day + 1)
        if self.result is None:
            self._awaited = tuple(awaited)

    # ------------------------------------------------------------------------------ legal inputs
    def legal_moves(self, seat: str) -> list[Move]:
        """Every move ``seat`` may make now, in the order ``legal_inputs`` names them."""
        if self.result is not None or not self.alive.get(seat, False):
            return []
        out: list[Move] = []
        others = [s for s in self.living() if s != seat]
        step = self.step()
        if self.phase != NIGHT:
            out += self._day_moves(seat, others)
        elif step is not None:
            out += self._night_moves(seat, step, others)
        out.append(Leave())
        return out

    def legal_inputs(self, seat: str) -> list[str]:
        return [move_name(m) for m in self.legal_moves(seat)]

    def input_forms(self, seat: str) -> list[str]:
        """``say TEXT`` exactly when a ``say`` of ``seat`` would be accepted now: by day any
        living player; by night an awake member of the team whose step it is."""
        if self.result is not None or not self.alive.get(seat, False):
            return []
        step = self.step()
        if step is None or (step.team and seat in self.awake_team(step.team)):
            return ["say TEXT"]
        return []

    def public_input(self, seat: str, text: str) -> str | None:
        """What others may know of the input ``apply`` has just accepted (judged in ``_accept``:
        a day input and leaving are public; a night input is secret, down to who sent it).

        It cannot be judged from the state now: the night's last action brings the morning,
        and a day's last vote brings the night. So ``apply`` judges it as it accepts the input,
        before anything changes, and keeps the answer with the input's seat and words; this
        only reads it back. Safe because the session asks once, right after ``apply``, and keeps
        the answer (``Move.public``); a refused input changes nothing, so the answer stands.
        Asked about any other input, it raises rather than answer from a later state."""
        accepted = self._accepted
        if accepted is None or accepted[0] != seat or accepted[1] != text:
            raise ValueError(f"public_input answers for the input just accepted, not {seat} {text!r}")
        return accepted[2]

    # ------------------------------------------------------------------------------ knowledge
    def view(self, seat: str) -> dict[str, Any]:
        host = seat == HOST
        out: dict[str, Any] = {
            "game": "mafia", "players": len(self.seats), "phase": self.phase_text(),
            "day": self.day, "night": self.night,
            "alive": self.living(),
            "out": {s: self.fate[s] for s in self.seats if not self.alive[s]},
            "cards": {s: self.card[s] for s in self.seats if self.knows_card(seat, s)},
            "deck": dict(self.deck),
        }
        if not host:
            out["you"] = seat
            out["card"] = self.card[seat]
            team = self.team_of(seat)
            if team:
                out["team"] = self.team_seats(team)
        if self.phase != NIGHT:
            out["nominations"] = dict(self.nominations)
            out["no_vote"] = self.no_vote
        if self.phase == VOTE:
            out["round"] = self.round
            out["candidates"] = list(self.candidates)
            out["votes"] = dict(self.votes)
        step = self.step()
        awake = self.awake_team(step.team) if step is not None and step.team else (
            self.step_holders(step) if step is not None else [])
        if step is not None and (host or seat in awake):
            out["step"] = step.name
            if step.team:
                out["suggestions"] = dict(self.suggestions)
        if host:
            out["night_acts"] = {k: list(v) for k, v in self.night_acts.items()}
            out["jailed"] = self.jailed
            out["arrested"] = list(self.arrested)
            out["shielded"] = self.shielded
        elif self.jailed == seat and self.arrest_told:
            out["under_arrest"] = True  # only once its role's turn told it so
        if self.result is not None:
            out["result"] = self.result.as_dict()
        return out

    def phase_text(self) -> str:
        if self.result is not None:
            return "game over"
        if self.phase == NOMINATE:
            return f"day {self.day}: nominations"
        if self.phase == VOTE:
            return f"day {self.day}: vote, round {self.round}"
        step = self.step()
        return f"night {self.night}" + (f": {step.name} step" if step else "")

    def score(self) -> dict[str, Any]:
        out: dict[str, Any] = {"day": self.day, "alive": len(self.living()), "out": len(self.seats) - len(self.living())}
        if self.result is not None:
            out["winners"] = list(self.result.winners)
        return out

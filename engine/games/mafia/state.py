"""The state of one Classic Mafia game, with the engine as host. Rules text:
``docs/rules/mafia.md``.

A game is a sequence of phases: the day's nominations (every living player at once), the
day's roll-call vote (one voter at a time, in seat order; a tied vote is held once more), and
the night's steps in calling order (one role, or one team, at a time). Every handler checks
the whole input before it changes anything; ``_settle`` then moves on through every phase
that awaits nothing more, so the state is always waiting for someone, or over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.chance import Chance
from engine.errors import IllegalMoveError, NotYourTurnError, SyntaxInputError
from engine.events import HOST, EventLog
from engine.game import SECRET_SEAT, Awaiting, GameState, Result
from engine.games.mafia.data import TEAMS, MafiaData, NightStep
from engine.games.mafia.moves import (
    FORMS, POWER_VERBS, Abstain, Leave, Move, Nominate, Pass, Power, Say, Suggest, Vote, move_name, parse_move,
    read_verb,
)

NOMINATE, VOTE, NIGHT = "nominate", "vote", "night"

# The power of each night step: its verbs, and which targets it refuses beyond the dead.
STEP_VERBS: dict[str, tuple[str, ...]] = {
    "seducer": ("seduce",), "agent": ("protect",), "mafia": ("kill",),
    "police": ("shoot", "arrest"), "chameleon": ("ban",), "fighter": ("kill",),
}
assert {v for verbs in STEP_VERBS.values() for v in verbs} == set(POWER_VERBS), "moves.py reads every power"

Plan = Callable[[], None]


class MafiaState(GameState):
    DAY_STEP_MS = 1000

    @property  # type: ignore[override]
    def clock_step_ms(self) -> int:
        """A day input takes a second of the virtual clock; a night input none, so the clock
        does not count the secret inputs of the night (a team's whispers) for other seats."""
        return 0 if self.phase == NIGHT else self.DAY_STEP_MS

    def __init__(self, data: MafiaData, deck: dict[str, int], title: str, chance: Chance, events: EventLog) -> None:
        self.data = data
        self.deck = dict(deck)
        self.title = title
        self.events = events
        cards = [name for name, n in deck.items() for _ in range(n)]
        self.seats = tuple(f"p{i}" for i in range(1, len(cards) + 1))
        dealt = chance.shuffle("deal", cards)
        self.card: dict[str, str] = dict(zip(self.seats, dealt))
        self.alive: dict[str, bool] = {s: True for s in self.seats}
        self.fate: dict[str, str] = {}  # seat -> how it left the game ("expelled on day 2", ...)
        self.shown: set[str] = set()  # seats whose card is public
        self.result: Result | None = None
        self.day = 0
        self.night = 0
        self.phase = NIGHT
        # the day
        self.nominations: dict[str, str] = {}  # nominee -> nominator, in nomination order
        self.done_nominating: dict[str, str | None] = {}  # seat -> its nominee, or None (passed)
        self.round = 0
        self.candidates: tuple[str, ...] = ()
        self.voters: tuple[str, ...] = ()
        self.votes: dict[str, str | None] = {}  # voter -> candidate, or None (abstained)
        self.said: dict[str, int] = {}  # lines each seat said in this phase or step
        self.no_vote: str | None = None  # the Chameleon's choice, for today
        self.shielded: str | None = None  # the Agent's choice, for today (secret until it holds)
        # the night
        self.steps: list[NightStep] = []
        self.step_index = 0
        self.suggestions: dict[str, str | None] = {}  # team member -> suggested target, or None
        self.night_acts: dict[str, tuple[str, str, str | None]] = {}  # step -> (seat, verb, target or None)
        self.jailed: str | None = None  # arrested last night: no night action tonight
        self.arrest_told = False  # whether the jailed player's role was called tonight (and told)
        self.arrested: list[str] = []  # everyone ever arrested (once per game)
        self.last_input_secret = False  # whether the input just applied was a night input

        self._introduction_night()
        self._settle()

    # ---------------------------------------------------------------------------- basic facts
    def title_of(self, seat: str) -> str:
        return self.data.cards[self.card[seat]].title

    def side_of(self, seat: str) -> str:
        return self.data.cards[self.card[seat]].side

    def team_of(self, seat: str) -> str | None:
        return self.data.cards[self.card[seat]].team

    def living(self) -> list[str]:
        return [s for s in self.seats if self.alive[s]]

    def team_seats(self, team: str) -> list[str]:
        return [s for s in self.seats if self.team_of(s) == team]

    def awake_team(self, team: str) -> list[str]:
        """Living members of ``team`` who are not under arrest tonight: who confers and hears."""
        return [s for s in self.team_seats(team) if self.alive[s] and s != self.jailed]

    def step(self) -> NightStep | None:
        if self.phase != NIGHT or self.step_index >= len(self.steps):
            return None
        return self.steps[self.step_index]

    def step_holders(self, step: NightStep) -> list[str]:
        return [s for s in self.living() if self.card[s] in step.cards]

    def step_head(self, step: NightStep) -> str | None:
        """Who uses the step's power: the head card's holder (Boss, Chief) or else the first
        living holder in seat order, skipping one under arrest while another may act; a lone
        holder under arrest is still called (and may only pass)."""
        holders = self.step_holders(step)
        free = [s for s in holders if s != self.jailed]
        for s in free:
            if self.card[s] == step.cards[0]:
                return s
        if free:
            return free[0]
        return holders[0] if holders else None

    def conferring(self, step: NightStep) -> list[str]:
        """Team members still expected to suggest or pass before the head acts."""
        if step.team is None:
            return []
        head = self.step_head(step)
        return [s for s in self.awake_team(step.name) if s != head and s not in self.suggestions]

    # -------------------------------------------------------------------------------- awaiting
    def awaiting(self) -> list[Awaiting]:
        if self.result is not None:
            return []
        if self.phase == NOMINATE:
            return [Awaiting(s, "nominate", f"day {self.day}: nominate a player or pass; say TEXT to talk")
                    for s in self.living() if s not in self.done_nominating]
        if self.phase == VOTE:
            voter = self.current_voter()
            if voter is None:
                return []
            names = " ".join(self.candidates)
            return [Awaiting(voter, "vote", f"day {self.day}, round {self.round}: vote for {names}, or abstain")]
        step = self.step()
        if step is None:
            return []
        head = self.step_head(step)
        out = [Awaiting(s, "confer", f"night {self.night}: suggest a target to {head}, or pass")
               for s in self.conferring(step)]
        if not out and head is not None:  # the head is awaited once the team has spoken (it may act sooner)
            out.append(Awaiting(head, "night", f"night {self.night}: {self._power_hint(step, head)}"))
        return out

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

    def current_voter(self) -> str | None:
        return next((v for v in self.voters if self.alive[v] and v not in self.votes), None)

    def _power_hint(self, step: NightStep, head: str) -> str:
        if head == self.jailed:
            return "you are under arrest tonight: pass"
        hints = {
            "seducer": "seduce a player (not yourself): nobody can kill them tonight",
            "agent": "protect a player (not yourself) from tomorrow's vote, or pass",
            "mafia": "kill: name the Mafia's victim",
            "police": "shoot a player, or arrest one (once per player), or pass",
            "chameleon": "ban a player (not yourself) from tomorrow's vote",
            "fighter": "kill a player, or pass",
        }
        return hints[step.name]

    # ---------------------------------------------------------------------------- input checks
    def apply(self, seat: str, text: str, now_ms: int) -> str:
        try:
            verb = read_verb(text)
        except SyntaxInputError as wrong:  # list what this seat may send now
            raise SyntaxInputError(wrong.message, self._forms(seat)) from None
        if not self.alive[seat]:
            raise IllegalMoveError(f"{seat} is out of the game ({self.fate[seat]}): the out neither act nor speak")
        self._check_timing(seat, verb)
        move = parse_move(text, self.seats, self.data.selection.say_max_chars)
        plan = self._plan(seat, move)
        self.last_input_secret = self.phase == NIGHT and not isinstance(move, Leave)
        plan()
        self._settle()
        return move_name(move)

    def _forms(self, seat: str) -> list[str]:
        now = self.legal_inputs(seat) + self.input_forms(seat)
        verbs = {m.split()[0] for m in now} if self.alive.get(seat) else set()
        return [FORMS[v] for v in FORMS if v in verbs] or [FORMS[v] for v in FORMS]

    def _check_timing(self, seat: str, verb: str) -> None:
        """The actions whose timing is judged before their words: a nomination or a vote out of
        its phase, a suggestion by a seat not conferring, a night power out of its step are
        refused as such, whatever follows the action word. (The other actions are read first.)"""
        if verb == "nominate":
            self._need_phase(NOMINATE, "nominate")
        elif verb == "vote":
            self._need_phase(VOTE, "vote")
        elif verb == "suggest":
            self._need_conferring(seat)
        elif verb in POWER_VERBS:
            self._need_power(seat, verb)

    def _plan(self, seat: str, move: Move) -> Plan:
        """Check the rest of ``move`` (its timing is checked) and return what applies it."""
        match move:
            case Say(words):
                return self._plan_say(seat, words)
            case Nominate(target):
                return self._plan_nominate(seat, target)
            case Pass():
                return self._plan_pass(seat)
            case Vote(target):
                return self._plan_vote(seat, target)
            case Abstain():
                return self._plan_abstain(seat)
            case Leave():
                return self._plan_leave(seat)
            case Suggest(target):
                return self._plan_suggest(seat, target)
            case Power(verb, target):
                return self._plan_power(seat, verb, target)
        raise AssertionError(f"not a move of Classic Mafia: {move!r}")

    def _check_living(self, verb: str, target: str, seat: str) -> None:
        if not self.alive[target]:
            raise IllegalMoveError(f"{target} is out of the game ({self.fate[target]}); choose a living player")
        if target == seat:
            raise IllegalMoveError(f"{seat} cannot {verb} themselves")

    def _phase_name(self) -> str:
        if self.phase == NOMINATE:
            return f"the nominations of day {self.day}"
        if self.phase == VOTE:
            return f"the vote of day {self.day} (round {self.round})"
        return f"night {self.night}"

    # -- talk -------------------------------------------------------------------------------
    def _plan_say(self, seat: str, words: str) -> Plan:
        step = self.step()
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

    # -- the day ----------------------------------------------------------------------------
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

    def _plan_pass(self, seat: str) -> Plan:
        if self.phase == NOMINATE:
            if seat in self.done_nominating:
                raise IllegalMoveError(f"{seat} has already nominated or passed today")

            def pass_day() -> None:
                self.done_nominating[seat] = None
                self.events.emit("pass", f"{seat} nominates nobody.", {"seat": seat})
            return pass_day
        step = self.step()
        if step is None:
            raise IllegalMoveError(f"pass is not an answer in {self._phase_name()}: vote SEAT or abstain")
        if seat in self.conferring(step):
            def no_suggestion() -> None:
                self.suggestions[seat] = None
                self.events.emit("suggest", f"{seat} suggests nobody.", {"seat": seat, "target": None},
                                 to=self.awake_team(step.name))
            return no_suggestion
        self._need_head(seat, step, "pass")
        if not step.optional and seat != self.jailed:
            raise IllegalMoveError(f"the {step.name} step cannot be passed: {self._power_hint(step, seat)}")

        def pass_night() -> None:
            self.night_acts[step.name] = (seat, "pass", None)
            team = self.awake_team(step.team) if step.team else []
            if seat in team:  # a head declining for its team: the team hears it, as it hears a choice
                self.events.emit("night-act", f"Night {self.night}: {seat} passes; the {step.team.title()} "
                                 "do nothing tonight.", {"step": step.name, "seat": seat, "verb": "pass"}, to=team)
            else:
                why = "are under arrest and do nothing" if seat == self.jailed else "do nothing"
                self.events.emit("night-act", f"Night {self.night}: you {why}.", {"step": step.name, "verb": "pass"},
                                 to=[seat])
            self._next_step()
        return pass_night

    def _need_phase(self, phase: str, verb: str) -> None:
        if self.phase != phase:
            when = "the nominations" if phase == NOMINATE else "the roll-call vote"
            raise IllegalMoveError(f"{verb} belongs to {when}; it is {self._phase_name()} now")

    def _plan_vote(self, seat: str, target: str) -> Plan:
        self._need_voter(seat)
        if target not in self.candidates:
            raise IllegalMoveError(f"{target} is not a candidate in this round (candidates: {' '.join(self.candidates)})",
                                   [f"vote {c}" for c in self.candidates] + ["abstain"])
        return lambda: self._cast(seat, target)

    def _plan_abstain(self, seat: str) -> Plan:
        self._need_phase(VOTE, "abstain")
        self._need_voter(seat)
        return lambda: self._cast(seat, None)

    def _need_voter(self, seat: str) -> None:
        if seat in self.votes:
            cast = self.votes[seat]
            raise IllegalMoveError(f"{seat} has already " + (f"voted for {cast}" if cast else "abstained") + " in this round")
        if seat == self.no_vote:
            raise IllegalMoveError(f"{seat} may not vote today (the Chameleon's choice)")
        voter = self.current_voter()
        if seat != voter:
            raise NotYourTurnError(f"the roll-call goes in seat order: {voter} votes now, not {seat}")

    def _cast(self, seat: str, target: str | None) -> None:
        self.votes[seat] = target
        text = f"{seat} votes for {target}." if target else f"{seat} abstains."
        self.events.emit("vote", text, {"seat": seat, "vote": target, "round": self.round})

    def _plan_leave(self, seat: str) -> Plan:
        def leave() -> None:
            when = f"day {self.day}" if self.phase != NIGHT else f"night {self.night}"
            self._remove(seat, f"left on {when}", f"{seat} leaves the game")
            self._withdraw(seat)
            self._check_win()
        return leave

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

    # -- the night --------------------------------------------------------------------------
    def _need_conferring(self, seat: str) -> None:
        step = self.step()
        if step is None or seat not in self.conferring(step):
            if step is not None and seat in self.suggestions:
                raise IllegalMoveError(f"{seat} has already made a suggestion tonight")
            raise NotYourTurnError(f"{seat} has no team to confer with now ({self._phase_name()})")

    def _plan_suggest(self, seat: str, target: str) -> Plan:
        step = self._awake_step()
        self._check_living("suggest", target, seat)
        self._check_team_target(step, target, "suggest")

        def suggest() -> None:
            self.suggestions[seat] = target
            self.events.emit("suggest", f"{seat} suggests {target}.", {"seat": seat, "target": target},
                             to=self.awake_team(step.name))
        return suggest

    def _awake_step(self) -> NightStep:
        step = self.step()
        assert step is not None, "a night input's timing is checked before its plan"
        return step

    def _need_head(self, seat: str, step: NightStep, verb: str) -> None:
        if self.step_head(step) != seat:
            raise NotYourTurnError(f"{seat} is not awake to {verb} now ({self._phase_name()})")

    def _check_team_target(self, step: NightStep, target: str, verb: str) -> None:
        if step.team is not None and self.team_of(target) == step.team:
            raise IllegalMoveError(f"the {step.name.title()} cannot {verb} one of its own ({target})")

    def _need_power(self, seat: str, verb: str) -> None:
        step = self.step()
        if step is None:
            raise IllegalMoveError(f"{verb} is a night action; it is {self._phase_name()} now")
        self._need_head(seat, step, verb)
        if verb not in STEP_VERBS[step.name]:
            raise IllegalMoveError(f"{verb} is not the power of the {step.name} step: {self._power_hint(step, seat)}")
        if seat == self.jailed:
            raise IllegalMoveError(f"{seat} is under arrest tonight: its night action is skipped (pass)")

    def _plan_power(self, seat: str, verb: str, target: str) -> Plan:
        step = self._awake_step()
        self._check_living(verb, target, seat)
        self._check_team_target(step, target, verb)
        if verb == "arrest" and target in self.arrested:
            raise IllegalMoveError(f"{target} has already been arrested once; a player is arrested only once per game")

        def act() -> None:
            self.night_acts[step.name] = (seat, verb, target)
            audience = self.awake_team(step.team) if step.team else [seat]
            self.events.emit("night-act", f"Night {self.night}: {seat} chooses to {verb} {target}.",
                             {"step": step.name, "seat": seat, "verb": verb, "target": target}, to=audience)
            self._next_step()
        return act

    # -------------------------------------------------------------------------------- phases
    def _settle(self) -> None:
        """Move on through every phase that awaits nothing more."""
        while self.result is None and not self.awaiting():
            if self.phase == NOMINATE:
                self._close_nominations()
            elif self.phase == VOTE:
                self._tally()
            elif self.step() is not None:
                self._next_step()
            else:
                self._dawn()

    def _introduction_night(self) -> None:
        n = len(self.seats)
        cards = ", ".join(f"{self.data.cards[c].title} x{k}" for c, k in self.deck.items())
        self.events.emit("setup", f"Classic Mafia, {self.title}: seats {' '.join(self.seats)}; "
                         f"the cards in play: {cards}.",
                         {"players": n, "deck": dict(self.deck)})
        for s in self.seats:
            self.events.emit("card", f"You are {s}: your card is the {self.title_of(s)}.",
                             {"seat": s, "card": self.card[s]}, to=[s])
        self.events.emit("narration", "Night falls; everyone sleeps. This first night nobody acts.", {"night": 0})
        for team in TEAMS:
            members = self.team_seats(team)
            if not members:
                continue
            self.events.emit("narration", f"The {team.title()} team wakes, and its members meet.", {"team": team})
            listing = ", ".join(f"{s} ({self.title_of(s)})" for s in members)
            self.events.emit("team", f"Your team, the {team.title()}: {listing}.",
                             {"team": team, "members": {s: self.card[s] for s in members}}, to=members)
        self.events.emit("narration", "Everyone sleeps again.", {})
        self._start_day(1)

    def _start_day(self, day: int) -> None:
        self.phase = NOMINATE
        self.day = day
        self.nominations, self.done_nominating, self.votes, self.said = {}, {}, {}, {}
        self.round, self.candidates, self.voters = 0, (), ()
        self.events.emit("narration", f"Day {day}: discuss, then each living player nominates a player or passes.",
                         {"day": day})

    def _close_nominations(self) -> None:
        if not self.nominations:
            self.events.emit("verdict", f"Nobody is nominated on day {self.day}; nobody leaves today.", {"day": self.day})
            self._nightfall()
            return
        self._start_round(1, tuple(self.nominations))

    def _start_round(self, number: int, candidates: tuple[str, ...]) -> None:
        self.phase = VOTE
        self.round = number
        self.candidates = candidates
        self.votes = {}
        self.voters = tuple(s for s in self.living() if s != self.no_vote)
        what = "Voting" if number == 1 else "The vote is tied: a re-vote"
        banned = f"; {self.no_vote} may not vote" if self.no_vote and self.alive[self.no_vote] else ""
        self.events.emit("narration", f"{what} among {' '.join(candidates)}; the host calls each player in seat order{banned}.",
                         {"round": number, "candidates": list(candidates)})

    def _tally(self) -> None:
        counts = {c: 0 for c in self.candidates}
        for cast in self.votes.values():
            if cast in counts:
                counts[cast] += 1
        listing = ", ".join(f"{c} {n}" for c, n in counts.items()) or "no candidates left"
        top = max(counts.values(), default=0)
        leaders = tuple(c for c, n in counts.items() if n == top)
        data = {"day": self.day, "round": self.round, "counts": counts}
        if top == 0:
            self.events.emit("verdict", f"Votes: {listing}. Nobody has a vote; nobody leaves today.", data)
        elif len(leaders) > 1 and self.round == 1:
            self.events.emit("verdict", f"Votes: {listing}. A tie between {' '.join(leaders)}.", data | {"tied": list(leaders)})
            self._start_round(2, leaders)
            return
        elif len(leaders) > 1:
            self.events.emit("verdict", f"Votes: {listing}. The re-vote is tied again; nobody leaves today.", data)
        elif leaders[0] == self.shielded:
            self.events.emit("verdict", f"Votes: {listing}. {leaders[0]} has the most votes, but a protection holds: "
                             "nobody leaves today.", data | {"protected": leaders[0]})
        else:
            self.events.emit("verdict", f"Votes: {listing}. {leaders[0]} is expelled.", data | {"expelled": leaders[0]})
            self._remove(leaders[0], f"expelled on day {self.day}", f"{leaders[0]} leaves the game")
            if self._check_win():
                return
        self._nightfall()

    def _nightfall(self) -> None:
        self.phase = NIGHT
        self.night += 1
        self.steps = [s for s in self.data.night if self.step_holders(s)]
        self.step_index = -1
        self.night_acts = {}
        self.events.emit("narration", f"Night {self.night} falls; everyone sleeps.", {"night": self.night})
        self._next_step()

    def _next_step(self) -> None:
        self.step_index += 1
        self.suggestions, self.said = {}, {}
        while self.step_index < len(self.steps) and self.step_head(self.steps[self.step_index]) is None:
            self.step_index += 1  # its holders left the game during the night
        step = self.step()
        if step is None:
            return
        self.events.emit("narration", step.wake, {"night": self.night, "step": step.name})
        if self.jailed in self.step_holders(step):
            self.arrest_told = True
            self.events.emit("arrested", "You are under arrest tonight: your night action is skipped.",
                             {"night": self.night}, to=[self.jailed])

    def _dawn(self) -> None:
        night = self.night
        seduced = self._act_target("seducer")
        victims = [self._act_target(s) for s in ("mafia", "police", "fighter")]
        _, police_verb, police_target = self.night_acts.get("police", ("", "pass", None))
        killed = [s for s in self.seats if s in victims and s != seduced and self.alive[s]]
        saved = [s for s in self.seats if s in victims and s == seduced and self.alive[s]]
        self._night_summary(saved)
        self.jailed = police_target if police_verb == "arrest" else None
        self.arrest_told = False
        if self.jailed:
            self.arrested.append(self.jailed)
        self.shielded = self._act_target("agent")
        ban = self._act_target("chameleon")
        self.no_vote = ban if ban and self.alive[ban] and ban not in killed else None
        self.events.emit("narration", f"Morning of day {self.day + 1}.", {"day": self.day + 1})
        if not killed:
            self.events.emit("morning", "Nobody died in the night.", {"night": night, "killed": []})
        for s in killed:
            self._remove(s, f"killed in night {night}", f"{s} was killed in the night")
        if self._check_win():
            return
        self._start_day(self.day + 1)
        if self.no_vote:
            self.events.emit("morning", f"{self.no_vote} may not vote today (the Chameleon's choice).",
                             {"no_vote": self.no_vote})

    def _act_target(self, step: str) -> str | None:
        _, verb, target = self.night_acts.get(step, ("", "pass", None))
        return None if verb in ("pass", "arrest") else target

    def _night_summary(self, saved: list[str]) -> None:
        """For the host (and a transcript's reader) only: what every role did tonight."""
        acts = [f"{step} {seat} {verb}" + (f" {target}" if target else "")
                for step, (seat, verb, target) in self.night_acts.items()]
        text = f"Night {self.night}, seen by the host: " + ("; ".join(acts) or "nobody acted")
        if saved:
            text += f"; the Seducer's protection saved {' '.join(saved)}"
        self.events.emit("night-summary", text + ".", {
            "night": self.night, "acts": {k: list(v) for k, v in self.night_acts.items()}, "saved": saved,
        }, to=())

    def _remove(self, seat: str, fate: str, text: str) -> None:
        self.alive[seat] = False
        self.fate[seat] = fate
        self.shown.add(seat)
        self.events.emit("out", f"{text}; their card: {self.title_of(seat)}.",
                         {"seat": seat, "card": self.card[seat], "fate": fate})

    # --------------------------------------------------------------------------------- winning
    def counts(self) -> dict[str, int]:
        out = {side: 0 for side in ("town", "mafia", "loner")}
        for s in self.living():
            out[self.side_of(s)] += 1
        return out

    def _check_win(self) -> bool:
        c = self.counts()
        if c["mafia"] == 0 and c["town"] > 0:
            winner, reason, why = "town", "no-mafia", "The town wins: no Mafia-side player is left."
        elif c["mafia"] > c["town"]:
            winner, reason, why = "mafia", "mafia-majority", (
                f"The Mafia wins: {c['mafia']} Mafia-side against {c['town']} town "
                + ("player." if c["town"] == 1 else "players."))
        elif c["mafia"] == 0:
            left = "only loners are left" if c["loner"] else "no town or Mafia player is left"
            winner, reason, why = None, "no-side", f"Neither side can win: {left}."
        else:
            return False
        loners = [s for s in self.seats if self.side_of(s) == "loner"]
        notes = [f"the {self.title_of(s)} ({s}) " + ("is alive and wins" if self.alive[s] else "is out and loses")
                 for s in loners]
        text = why + (" Loners: " + "; ".join(notes) + "." if notes else "")
        winners = tuple(s for s in self.seats if (winner and self.side_of(s) == winner)
                        or (self.side_of(s) == "loner" and self.alive[s]))
        self.result = Result(winner, reason, text, winners,
                             {s: ("won" if s in winners else "lost") for s in self.seats})
        self.events.emit("game-over", text, self.result.as_dict())
        for s in self.seats:
            if s not in self.shown:
                self.shown.add(s)
                self.events.emit("reveal", f"{s} was the {self.title_of(s)}.", {"seat": s, "card": self.card[s]})
        return True

    # ------------------------------------------------------------------------------ legal inputs
    def legal_moves(self, seat: str) -> list[Move]:
        """Every move ``seat`` may make now, in the order ``legal_inputs`` names them."""
        if self.result is not None or not self.alive.get(seat, False):
            return []
        out: list[Move] = []
        others = [s for s in self.living() if s != seat]
        step = self.step()
        if self.phase == NOMINATE:
            if seat not in self.done_nominating:
                out += [Nominate(s) for s in others if s not in self.nominations] + [Pass()]
        elif self.phase == VOTE:
            if seat == self.current_voter():
                out += [Vote(c) for c in self.candidates] + [Abstain()]
        elif step is not None:
            if seat in self.conferring(step):
                out += [Suggest(s) for s in others if self.team_of(s) != step.team] + [Pass()]
            elif self.step_head(step) == seat:
                out += self._power_moves(step, seat, others)
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

    def _power_moves(self, step: NightStep, seat: str, others: list[str]) -> list[Move]:
        if seat == self.jailed:
            return [Pass()]
        team = step.team
        targets = [s for s in others if team is None or self.team_of(s) != team]
        out: list[Move] = []
        for verb in STEP_VERBS[step.name]:
            out += [Power(verb, s) for s in targets if verb != "arrest" or s not in self.arrested]
        return out + ([Pass()] if step.optional else [])

    def public_input(self, seat: str, text: str) -> str | None:
        """Day inputs and leaving are public; a night input is secret, down to who sent it."""
        return None if self.last_input_secret else text

    # ------------------------------------------------------------------------------ knowledge
    def knows_card(self, viewer: str, seat: str) -> bool:
        if viewer == HOST or viewer == seat or seat in self.shown:
            return True
        team = self.team_of(viewer) if viewer in self.card else None
        return team is not None and self.team_of(seat) == team

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

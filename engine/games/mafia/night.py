"""The night of Classic Mafia: its steps in calling order (one role, or one team, at a time),
a team's conference (suggestions) before its head acts, each role's power and its limits, and
the dawn that resolves them. The night never starts the day itself: the dawn says whether a day
begins, and ``MafiaState`` moves on.
"""

from __future__ import annotations

from arbiter.engine.errors import IllegalMoveError, NotYourTurnError
from arbiter.engine.games.mafia.data import TEAMS, NightStep
from arbiter.engine.games.mafia.moves import POWER_VERBS, Move, Pass, Power, Suggest
from arbiter.engine.games.mafia.table import NIGHT, Plan, Table

# The power of each night step: its verbs, and which targets it refuses beyond the dead.
STEP_VERBS: dict[str, tuple[str, ...]] = {
    "seducer": ("seduce",), "agent": ("protect",), "mafia": ("kill",),
    "police": ("shoot", "arrest"), "chameleon": ("ban",), "fighter": ("kill",),
}
assert {v for verbs in STEP_VERBS.values() for v in verbs} == set(POWER_VERBS), "moves.py reads every power"


class Night(Table):
    """The rules of the night."""

    # ------------------------------------------------------------------------------- inputs
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

    def _need_conferring(self, seat: str) -> None:
        """Only a member of the awake team, not its head, suggests; each refusal says why, from
        what the seat knows: the phase and the step (public), its own card, arrest and input."""
        step = self.step()
        if step is None:
            raise IllegalMoveError(f"suggest is a night action (a team's conference); it is {self._phase_name()} now")
        if seat not in self.conferring(step):
            if step.team is not None and seat == self.step_head(step) and seat != self.jailed:
                verbs = " or ".join(f"{v} SEAT" for v in STEP_VERBS[step.name])
                raise NotYourTurnError(f"{seat} acts for the {step.team.title()} tonight and does not suggest: "
                                       f"{verbs}" + (", or pass" if step.optional else ""))
            if seat in self.suggestions:
                raise IllegalMoveError(f"{seat} has already made a suggestion tonight")
            self._need_free(seat, step)
            raise NotYourTurnError(f"{seat} has no team to confer with now ({self._phase_name()})")

    def _need_free(self, seat: str, step: NightStep) -> None:
        """A member of the awake team under arrest is told so, once it was told of its arrest (its
        team's step called, ``arrest_told``): the step is public, its card and arrest its own."""
        if seat == self.jailed and self.arrest_told and step.team is not None and self.team_of(seat) == step.team:
            if seat == self.step_head(step):  # a head alone in its team, arrested: it is awaited, to pass
                raise IllegalMoveError(f"{seat} is under arrest tonight: its night action is skipped (pass)")
            raise NotYourTurnError(f"{seat} is under arrest tonight: it sits out the {step.team.title()}'s "
                                   "conference and acts for nobody")

    def _plan_suggest(self, seat: str, target: str) -> Plan:
        step = self._awake_step()
        self._check_living("suggest", target, seat)
        self._check_team_target(step, target, "suggest")

        def suggest() -> None:
            self.suggestions[seat] = target
            self.events.emit("suggest", f"{seat} suggests {target}.", {"seat": seat, "target": target},
                             to=self.awake_team(step.name))
        return suggest

    def _plan_pass_night(self, seat: str, step: NightStep) -> Plan:
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

    def _awake_step(self) -> NightStep:
        step = self.step()
        assert step is not None, "a night input's timing is checked before its plan"
        return step

    def _need_head(self, seat: str, step: NightStep, verb: str) -> None:
        """Only the step's head uses its power (or declines it). An awake team member is told
        who acts for the team (it sees the team awaited, so this tells it nothing new); any
        other seat only that it is not awake to act, whoever holds the step."""
        head = self.step_head(step)
        if head == seat:
            return
        if step.team is not None and seat in self.awake_team(step.team):
            then = ("suggest a target or pass" if seat not in self.suggestions
                    else f"{seat} has already made its suggestion")
            raise NotYourTurnError(f"{head} acts for the {step.team.title()} tonight, not {seat}: {then}")
        self._need_free(seat, step)
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

    def _night_moves(self, seat: str, step: NightStep, others: list[str]) -> list[Move]:
        """What ``seat`` may do in ``step``: confer (suggest or pass), or use the step's power."""
        if seat in self.conferring(step):
            return [Suggest(s) for s in others if self.team_of(s) != step.team] + [Pass()]
        if self.step_head(step) == seat:
            return self._power_moves(step, seat, others)
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

    # ------------------------------------------------------------------------------- phases
    def _introduction_night(self) -> None:
        """Night 0: everyone learns their card, and each team its members. Nobody acts."""
        n = len(self.seats)
        emit, titles, card = self.events.emit, self._title, self.card
        cards = ", ".join([f"{self.data.cards[c].title} x{k}" for c, k in self.deck.items()])
        emit("setup", f"Classic Mafia, {self.title}: seats {' '.join(self.seats)}; "
             f"the cards in play: {cards}.",
             {"players": n, "deck": dict(self.deck)})
        for s in self.seats:
            emit("card", f"You are {s}: your card is the {titles[s]}.", {"seat": s, "card": card[s]}, to=(s,))
        emit("narration", "Night falls; everyone sleeps. This first night nobody acts.", {"night": 0})
        for team in TEAMS:
            members = self._team_seats.get(team, ())  # team_seats(team)
            if not members:
                continue
            emit("narration", f"The {team.title()} team wakes, and its members meet.", {"team": team})
            listing = ", ".join([f"{s} ({titles[s]})" for s in members])
            emit("team", f"Your team, the {team.title()}: {listing}.",
                 {"team": team, "members": {s: card[s] for s in members}}, to=members)
        emit("narration", "Everyone sleeps again.", {})

    def _nightfall(self) -> None:
        self._set_phase(NIGHT)
        self.night += 1
        alive, holders = self.alive.__getitem__, self._holders  # the steps with a living holder (step_holders)
        self.steps = [s for s in self.data.night if any(map(alive, holders.get(s.name, ())))]
        self.step_index = -1
        self.night_acts = {}
        self.events.emit("narration", f"Night {self.night} falls; everyone sleeps.", {"night": self.night})
        self._next_step()

    def _next_step(self) -> None:
        self.suggestions, self.said = {}, {}
        steps, index = self.steps, self.step_index + 1
        head = None
        while index < len(steps) and (head := self._head_of(steps[index])) is None:
            index += 1  # its holders left the game during the night
        self.step_index = index
        if index >= len(steps):
            self._step = self._head = None
            return
        self._step = step = steps[index]
        self._head = head
        self.events.emit("narration", step.wake, {"night": self.night, "step": step.name})
        jailed = self.jailed
        if jailed is not None and self.alive[jailed] and self.card[jailed] in step.cards:  # in step_holders(step)
            self.arrest_told = True
            self.events.emit("arrested", "You are under arrest tonight: your night action is skipped.",
                             {"night": self.night}, to=[self.jailed])

    def _dawn(self) -> bool:
        """Resolve the night's actions; whether a day begins (not when the deaths end the game)."""
        night, alive, acts = self.night, self.alive, self.night_acts
        targets = _power_targets(acts)  # each act read once (it was read once per step asked about)
        seduced = targets.get("seducer")
        victims = [t for t in (targets.get("mafia"), targets.get("police"), targets.get("fighter")) if t is not None]
        killed = [s for s in self.seats if s in victims and s != seduced and alive[s]] if victims else []
        saved = [seduced] if seduced is not None and seduced in victims and alive[seduced] else []
        self._night_summary(saved)
        police = acts.get("police")
        self.jailed = police[2] if police is not None and police[1] == "arrest" else None
        self.arrest_told = False
        if self.jailed:
            self.arrested.append(self.jailed)
        self.shielded = targets.get("agent")
        ban = targets.get("chameleon")
        self.no_vote = ban if ban and alive[ban] and ban not in killed else None
        self.events.emit("narration", f"Morning of day {self.day + 1}.", {"day": self.day + 1})
        if not killed:
            self.events.emit("morning", "Nobody died in the night.", {"night": night, "killed": []})
        for s in killed:
            self._remove(s, f"killed in night {night}", f"{s} was killed in the night")
        return not self._check_win()

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


def _power_targets(acts: dict[str, tuple[str, str, str | None]]) -> dict[str, str | None]:
    """The target of each step's act that has one (step -> target): not a pass, nor an arrest
    (which takes effect the next night, not at dawn)."""
    return {step: target for step, (_, verb, target) in acts.items() if verb != "pass" and verb != "arrest"}

"""Turns and the resolution of effects. An accepted input queues its consequences as effect
values (``Kill``, ``Explode``, ``Chain``, ``ThreatKill``, ``ThreatStep``, ``EndTurn``) in
``pending``; ``_run`` resolves them in order through one ``match`` until the queue is empty, an
interrupt (the Operative's protect, the Bomber's post-arrest detonate) pauses it, or the game
ends. A layer of ``FbiMafiaState`` over ``legality``.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.engine.game import Result
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.board import ALIVE, ARRESTED, DEAD, Prompt
from arbiter.engine.games.fbi_mafia.grid import cell_name
from arbiter.engine.games.fbi_mafia.legality import LegalityLayer


@dataclass(frozen=True)
class Kill:
    """``name`` suffers a kill by ``cause`` (the Operative may be asked to protect it first)."""

    name: str
    cause: str


@dataclass(frozen=True)
class Explode:
    """The bomb on ``name`` goes off: a kill on ``name``, then the chain."""

    name: str


@dataclass(frozen=True)
class Chain:
    """Every living neighbour of ``name`` that carries a bomb explodes, in reading order."""

    name: str


@dataclass(frozen=True)
class ThreatKill:
    """At the start of the Maniac's turn: ``name`` dies if it is still alive, threatened and next
    to the Maniac's identity."""

    name: str


@dataclass(frozen=True)
class ThreatStep:
    """After the Maniac's shift or swap: its threat step, or (no suspect can take one) the end of
    the turn."""


@dataclass(frozen=True)
class EndTurn:
    """The turn passes to the next character in turn order."""


Effect = Kill | Explode | Chain | ThreatKill | ThreatStep | EndTurn
END_TURN = EndTurn()
THREAT_STEP = ThreatStep()
"""The effects without fields, made once (every turn queues one)."""


class ResolutionLayer(LegalityLayer):
    """Turns, and the queue of effects resolved one by one."""

    pending: list[Effect]

    # ---------------------------------------------------------------------------- turns
    def _begin_turn(self) -> None:
        actor = self.actor
        facts = self._facts[actor]
        team, turn = facts.team, self.turn_number
        self.events.emit("turn", f"Turn {turn}: the {actor} ({team}) acts.",
                         {"turn": turn, "character": actor, "team": team})
        self.phase = "action"
        if facts.kills_at_start:  # (as _alive and _has: on the cards directly)
            rows, status, tokens = self.grid, self.status, self.tokens
            victims = [name for r, c in grid.neighbours(self._me(), self.size)
                       if status[name := rows[r][c]] == ALIVE and "threat" in tokens[name]]
            self.pending.extend([ThreatKill(v) for v in victims])
        if facts.protection_first:
            self.phase = "protection"

    def _end_turn(self) -> None:
        self.turn_index = (self.turn_index + 1) % len(self.characters)
        self.actor = self.characters[self.turn_index]
        self.turn_number += 1
        self._begin_turn()

    # ---------------------------------------------------------------------------- resolution
    def _run(self) -> None:
        """Resolve the queued effects in order until the queue is empty, an interrupt pauses it
        (its answer resumes it) or the game ends."""
        pending = self.pending
        while self.result is None and self.prompt is None and pending:
            effect = pending.pop(0)
            if effect is END_TURN:  # the commonest: every turn ends with one (no match to walk)
                self._end_turn()
                continue
            match effect:
                case EndTurn():
                    self._end_turn()
                case Kill(name, cause):
                    self._kill(name, cause)
                case ThreatStep():
                    self._threat_step()
                case Explode(name):
                    self._explode(name)
                case Chain(name):
                    self._chain(name)
                case ThreatKill(name):
                    self._threat_kill(name)
                case effect:
                    raise TypeError(f"not an effect: {effect!r}")

    def _threat_step(self) -> None:
        if self._has_targets("threat"):
            self.phase = "threat"
        else:
            self.events.emit(
                "threat-skipped",
                f"The {self.actor} has no suspect to threaten: step skipped.",
                {"character": self.actor},
            )
            self._end_turn()

    def _threat_kill(self, name: str) -> None:
        if self.status[name] != ALIVE or "threat" not in self.tokens[name]:
            return
        if not grid.adjacent(self.pos[name], self._me()):  # the Maniac's identity changed meanwhile
            return
        self.events.emit(
            "threat-kill",
            f"{self._at(name)} carries a threat next to the {self.actor}'s identity at the start of its turn.",
            {"suspect": name, "cell": cell_name(self.pos[name])},
        )
        self._kill(name, f"the {self.actor}'s threat")

    def _kill(self, name: str, cause: str) -> None:
        if self.status[name] != ALIVE:
            return
        operative = self._operative  # _with_step("protection-before-action"), fixed for the game
        if (
            operative is not None
            and "protection" in self.tokens[name]
            and self._me(operative)[0] == self.pos[name][0]
        ):
            self.prompt = Prompt("protect", operative, name, cause)
            self.events.emit(
                "protect-offered",
                f"{self._at(name)} is about to be killed by {cause}; it carries a protection token "
                f"and the {operative}'s identity shares its row: the {operative} may protect it.",
                {"suspect": name, "cell": cell_name(self.pos[name]), "character": operative},
            )
            return
        self._kill_now(name, cause)

    def _kill_now(self, name: str, cause: str) -> None:
        owner = self.owner(name)
        if owner is not None and self.team[owner] == "mafia":
            self.events.emit(
                "friendly-fire",
                f"{self._at(name)} is the {owner}'s identity: {cause} counts as an FBI arrest.",
                {"suspect": name, "character": owner},
            )
            self._arrest_now(name)
            return
        self.status[name] = DEAD
        self.tokens[name].clear()
        gained = 2 if owner is not None else 1
        self.kills += gained
        whose = f"the {owner}'s identity" if owner else "nobody's identity"
        self.events.emit(
            "kill",
            f"{self._at(name)} is killed by {cause}; it was {whose}. Mafia +{gained}: "
            f"{self.kills}/{self.mode.win_kills} kills.",
            {"suspect": name, "cell": cell_name(self.pos[name]), "character": owner,
             "cause": cause, "kills": self.kills},
        )
        if self._check_win() or owner is None:
            return
        self._redraw(owner)

    def _arrest_now(self, name: str) -> None:
        owner = self.owner(name)
        assert owner is not None
        self.status[name] = ARRESTED
        self.arrests += 1
        self.events.emit(
            "arrest",
            f"{self._at(name)} is arrested: it was the {owner}'s identity. FBI "
            f"{self.arrests}/{self.mode.win_arrests} arrests.",
            {"suspect": name, "cell": cell_name(self.pos[name]), "character": owner,
             "arrests": self.arrests},
        )
        if self._check_win():
            self.tokens[name].clear()
            return
        self._redraw(owner)
        bomber = self._holder("detonate")
        if "bomb" in self.tokens[name] and bomber is not None:
            self.prompt = Prompt("detonate", bomber, name, "arrest")
            self.events.emit(
                "detonate-offered",
                f"{self._at(name)} was arrested carrying a bomb: the {bomber} may detonate it now.",
                {"suspect": name, "cell": cell_name(self.pos[name]), "character": bomber},
            )
            return
        self.tokens[name].clear()

    def _explode(self, name: str) -> None:
        if "bomb" not in self.tokens[name]:
            return
        self.tokens[name].discard("bomb")
        self.events.emit(
            "explosion",
            f"The bomb on {self._at(name)} explodes.",
            {"suspect": name, "cell": cell_name(self.pos[name])},
        )
        self.pending[:0] = [Kill(name, "a bomb"), Chain(name)]

    def _chain(self, name: str) -> None:
        near = [
            self._name(c) for c in grid.neighbours(self.pos[name], self.size)
            if self._alive(c) and self._has(c, "bomb")
        ]
        self.pending[:0] = [Explode(n) for n in near]

    def _check_win(self) -> bool:
        if self.arrests >= self.mode.win_arrests:
            self._finish("fbi", "arrests", f"the FBI reached {self.arrests} arrests")
        elif self.kills >= self.mode.win_kills:
            self._finish("mafia", "kills", f"the Mafia reached {self.kills} kills")
        return self.result is not None

    def _finish(self, winner: str, reason: str, why: str) -> None:
        self.pending.clear()
        self.prompt = None
        winners = tuple(s for s in self.seats if any(self.team[c] == winner for c in self.characters_of(s)))
        text = f"{winner.upper()} wins: {why}. Score: FBI {self.arrests} arrests, Mafia {self.kills} kills."
        self.result = Result(winner, reason, text, winners, self.score())
        self.events.emit(
            "game-over",
            text + " Identities: " + ", ".join(f"{c}={self.identity[c]}" for c in self.characters) + ".",
            {"winner": winner, "reason": reason, "identities": dict(self.identity)},
        )

"""How a game of Hidden Roles ends: abandoning the heist, the traitors' divining after the
heroes' escape (level 5), and the result, one line per player.

``Ending`` is a base of ``HiddenRolesState``: it plans ``abandon``, ``divine`` and (a
traitor's) ``pass``, makes the timed change of the divining's end, and ends the game
(``_end``): every card revealed, every pending mission settled, each player's outcome. It reads
the attributes the state keeps (declared here). Rules text: ``docs/rules/hidden-roles.md``,
"Abandoning the heist", "Divining" and "The end and the result".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arbiter.engine.clock import seconds_name
from arbiter.engine.errors import IllegalMoveError
from arbiter.engine.events import EventLog
from arbiter.engine.game import Result
from arbiter.engine.games.magic_maze.roles.data import Card
from arbiter.engine.games.magic_maze.roles.deal import RoleSetup
from arbiter.engine.games.magic_maze.roles.missions import DONE, Tracker, Tracking, words
from arbiter.engine.games.magic_maze.roles.moves import RoleMove
from arbiter.engine.games.magic_maze.roles.votes import names

Plan = Callable[[], None]


@dataclass
class Divining:
    """The traitors' last chance at level 5: who may divine, who has, which cards were named."""

    traitors: tuple[str, ...]
    until_ms: int
    done: list[str] = field(default_factory=list)
    named: list[str] = field(default_factory=list)

    def waiting(self) -> list[str]:
        return [t for t in self.traitors if t not in self.done]


class Ending:
    seats: tuple[str, ...]
    events: EventLog
    setup: RoleSetup
    now_ms: int
    theft: bool
    escaped: list[str]
    out: dict[str, str]
    phantoms: list[str]
    side: dict[str, str]
    revealed: list[str]
    tracking: Tracking
    divining: Divining | None
    divined: dict[str, str]
    abandoned: str | None
    result: Result | None

    if TYPE_CHECKING:  # the state's own (see state.py), declared for the type checker only
        def in_game(self, seat: str) -> bool: ...
        def card_of(self, seat: str) -> Card: ...
        def mission_of(self, seat: str) -> Tracker | None: ...
        def _reveal(self, seat: str) -> None: ...
        def _void_pending(self, why: str) -> None: ...

    # ---------------------------------------------------------------------------- abandoning
    def _plan_abandon(self, seat: str, move: RoleMove) -> Plan:
        if not self.setup.multi:
            raise IllegalMoveError("abandoning the heist is a rule of level 2 on")
        if self.side[seat] != "hero":
            raise IllegalMoveError("you are a traitor: only a hero may abandon the heist")
        if self.theft:
            raise IllegalMoveError("the theft is done: too late to abandon the heist")

        def abandon() -> None:
            self.abandoned = seat
            self.events.emit("abandon", f"{seat} abandons the heist! Every card is revealed.", {"seat": seat})
            alone = self._abandoned_alone()
            self._end(False, "abandoned", f"{seat} abandoned the heist as the only hero left" if alone
                      else f"{seat} abandoned the heist, with other heroes in the game")
        return abandon

    def _abandoned_alone(self) -> bool:
        return self.abandoned is not None and [s for s in self.seats if self.in_game(s) and self.side[s] == "hero"] \
            == [self.abandoned]

    # ---------------------------------------------------------------------------- divining
    def hero_missions(self) -> list[str]:
        """The cards a divining may name: every hero mission of the deck."""
        return [c.id for c in self.setup.deck.cards.values() if c.kind == "hero-mission"]

    def divine_targets(self, seat: str) -> list[str]:
        assert self.divining is not None
        return [s for s in self.seats if s != seat and s not in self.revealed and s not in self.divining.named]

    def divining_moves(self, seat: str) -> list[RoleMove]:
        if self.divining is None or seat not in self.divining.waiting():
            return []
        return [RoleMove("divine", seat=target, mission=m) for target in self.divine_targets(seat)
                for m in self.hero_missions()] + [RoleMove("pass")]

    def _start_divining(self) -> bool:
        """The heroes are out at level 5: the traitors still in the game reveal their cards and
        may divine. False when there is no such traitor (the game ends)."""
        traitors = tuple(s for s in self.seats if self.in_game(s) and self.side[s] == "traitor")
        if not traitors:
            return False
        self._void_pending("The heroes are out")
        until = self.now_ms + self.setup.deck.timing.divining_ms
        self.divining = Divining(traitors, until)
        for s in traitors:
            self._reveal(s)
        self.events.emit("divining", f"The heroes are out, but not every traitor is caught: {names(traitors)} may each "
                         f"name the hero mission of a face-down card until {seconds_name(until)} s "
                         "(divine SEAT MISSION, or pass).", {"traitors": list(traitors), "until": seconds_name(until)})
        return True

    def _plan_divine(self, seat: str, move: RoleMove) -> Plan:
        div = self.divining
        if div is None:
            raise IllegalMoveError("divining comes after the heroes' escape, at level 5" if self.setup.divining
                                   else "divining is a rule of level 5")
        if seat not in div.traitors:
            raise IllegalMoveError(f"only the traitors still in the game divine ({' '.join(div.traitors)})")
        if seat in div.done:
            raise IllegalMoveError(f"{seat} has divined (or passed) already")
        if move.verb == "pass":
            return lambda: self._divined(seat, f"{seat} passes.", {"seat": seat, "target": None})
        target, mission = move.seat, move.mission
        assert target is not None and mission is not None
        if target == seat:
            raise IllegalMoveError("name another player's card")
        if target in self.revealed:
            raise IllegalMoveError(f"{target}'s card is face up: divine a face-down card")
        if target in div.named:
            raise IllegalMoveError(f"{target}'s card has been named already: each card can be named once")
        if mission not in self.hero_missions():
            raise IllegalMoveError(f"{mission} is not a hero mission: name one", self.hero_missions())
        title = self.setup.deck.cards[mission].title

        def divine() -> None:
            assert self.divining is not None
            right = self.card_of(target).id == mission
            self.divining.named.append(target)
            if right:
                self.divined[seat] = target
            self.events.emit("divine", f"{seat} names {target}'s card: {title} ({mission}). "
                             + (f"Right! {seat} and {target} swap cards: {seat} wins, {target} loses." if right
                                else "Wrong."), {"seat": seat, "target": target, "mission": mission, "right": right})
            self._reveal(target)
            self._divined(seat, None, None)
        return divine

    def _divined(self, seat: str, text: str | None, data: dict[str, Any] | None) -> None:
        assert self.divining is not None
        self.divining.done.append(seat)
        if text is not None:
            self.events.emit("divine", text, data)
        if not self.divining.waiting():
            self._end(True, "escape", "The heroes escaped with the loot; the divining is over")

    def _divining_ends(self) -> None:
        """The timed change: the divining's time is up."""
        assert self.divining is not None
        self.events.emit("divining-over", f"The divining is over at {seconds_name(self.now_ms)} s.",
                         {"waiting": self.divining.waiting()})
        self._end(True, "escape", "The heroes escaped with the loot; the divining is over")

    # ---------------------------------------------------------------------------- the end
    def _end(self, heroes_won: bool, reason: str, text: str) -> None:
        """End the game: every pending mission settled (kept if of the "never" kind, else
        failed), every card revealed, each player's outcome, the result."""
        if self.result is not None:
            return
        self.divining = None
        self._void_pending("The game is over")
        for t in self.tracking.at_end():
            if t.purpose == "mission":
                self.events.emit("mission", f"At the end, {t.seat}'s mission is {t.status}: {words(t.pred)}.",
                                 {"seat": t.seat, "card": t.card, "status": t.status}, to=(t.seat,))
        for s in self.seats:
            self._reveal(s)
        outcomes = {s: self.outcome(s, heroes_won) for s in self.seats}
        for s, (won, why) in outcomes.items():
            card = self.card_of(s)
            self.events.emit("outcome", f"{s}: {card.title} ({card.id}), {self.side[s]} at the end: "
                             f"{'won' if won else 'lost'} ({why}).",
                             {"seat": s, "card": card.id, "side": self.side[s], "won": won, "why": why})
        winners = tuple(s for s in self.seats if outcomes[s][0])
        if self._abandoned_alone():
            winner = self.abandoned
        elif not winners:
            winner = "nobody"
        else:  # the side the winners are on (after a divining, only traitors may have won)
            winner = "heroes" if heroes_won and any(self.side[s] == "hero" for s in winners) else "traitors"
        told = {"heroes": "the heroes win", "traitors": "the traitors win", "nobody": "nobody wins"}
        summary = f"{text}: {told.get(winner or '', f'{winner} wins alone')}" + (
            f" (winners: {' '.join(winners)})." if winners and winner in told else ".")
        self.result = Result(winner, reason, summary, winners, {
            "escaped": len(self.escaped), "theft": self.theft, "level": self.setup.level,
            "players": {s: {"card": self.card_of(s).id, "side": self.side[s], "won": outcomes[s][0],
                            "why": outcomes[s][1]} for s in self.seats}})
        self.events.emit("game-over", summary, self.result.as_dict())

    def outcome(self, seat: str, heroes_won: bool) -> tuple[bool, str]:
        """Whether ``seat`` won, and why (see the rules doc's list)."""
        if self.abandoned is not None and self._abandoned_alone():
            return (True, "abandoned the heist as the only hero left") if seat == self.abandoned else \
                (False, f"{self.abandoned} abandoned the heist as the only hero left")
        if seat in self.divined:
            return True, f"divined {self.divined[seat]}'s mission and took its place among the winners"
        by = next((t for t, target in self.divined.items() if target == seat), None)
        if by is not None:
            return False, f"{by} divined its mission"
        side = self.side[seat]
        if seat in self.out and seat not in self.phantoms:
            return False, "eliminated (its mission failed)" if self.out[seat] == "failed" else "eliminated"
        team = "the heroes escaped" if heroes_won else "the heroes lost"  # the same words for either side
        won = heroes_won if side == "hero" else not heroes_won
        if not won:
            return False, team
        mission = self.mission_of(seat)
        if mission is not None and mission.status != DONE:
            return False, f"{team}, but its mission failed: {words(mission.pred)}"
        return True, team + (", a phantom's partial victory" if seat in self.phantoms else "") + (
            "; mission done" if mission is not None else "")

"""The state of one game of Magic Maze: Hidden Roles: a Magic Maze game (``MazeState``) whose
seats are dealt secret role cards. Rules text: ``docs/rules/hidden-roles.md``.

Built on the base game's hooks: ``parse`` reads the expansion's own inputs, ``check_actor``
refuses what a seat may not send (an eliminated seat, a hero's special rule, everything but
the vote while the sand waits for it), ``plan`` plans them, ``legal_moves`` lists them,
``talk_open_for`` lets phantoms talk in silence, ``pass_hands`` skips eliminated seats,
``timers`` adds the vote's, the accuser's flip's and the divining's deadlines and the
deck's clock marks, ``after_change`` follows missions and switches from the new events, and
``finish`` computes each player's outcome. Accusations live in ``votes.py``, the end in
``ending.py``, the predicates in ``missions.py``.

For a host or a bot: ``card_of(seat)``, ``side_of(seat)``, ``mission_of(seat)``,
``in_game(seat)``, ``eliminated``, ``phantoms``, ``revealed``, ``vote``, ``flip_window``,
``eye``, ``divining`` and ``level``; a seat's ``view`` holds what it may know of them, and
``inputs`` who played what (public). The bots are in ``bot.py``.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.clock import seconds_name
from arbiter.engine.errors import IllegalMoveError, InputError
from arbiter.engine.events import HOST, EventLog
from arbiter.engine.game import Awaiting
from arbiter.engine.games.magic_maze.data import MazeData, Scenario
from arbiter.engine.games.magic_maze.moves import Move, move_name
from arbiter.engine.games.magic_maze.roles import data as rd
from arbiter.engine.games.magic_maze.roles.data import Card, Predicate
from arbiter.engine.games.magic_maze.roles.deal import RoleSetup, deal
from arbiter.engine.games.magic_maze.roles.ending import Divining, Ending
from arbiter.engine.games.magic_maze.roles.missions import DONE, Tracker, Tracking, words
from arbiter.engine.games.magic_maze.roles.moves import FORMS, RoleMove, parse_role_move
from arbiter.engine.games.magic_maze.roles.votes import Accusations, FlipWindow, Vote
from arbiter.engine.games.magic_maze.state import MazeState, Plan, Timer

HERO_VERBS = ("move", "vortex", "escalator", "explore")
"""The inputs that act on the heroes (what special rules restrict)."""


class HiddenRolesState(Accusations, Ending, MazeState):
    """One game of Hidden Roles (see the module)."""

    constants = (*MazeState.constants, "setup", "level")

    def __init__(self, data: MazeData, scenario: Scenario, players: int, chance: Chance, events: EventLog,
                 setup: RoleSetup) -> None:
        super().__init__(data, scenario, players, chance, events)
        self.setup = setup
        if setup.out_of_order_start:  # (the start tile has one hourglass: no flip there)
            self.used.update(self.mall.with_kind("hourglass"))
        self.level = setup.level
        self.out: dict[str, str] = {}  # eliminated seats: "accused" or "failed"
        self.phantoms: list[str] = []
        self.revealed: list[str] = []
        self.eye: str | None = None
        self.pawn_by: str | None = None  # who put the pawn where it is
        self.vote: Vote | None = None
        self.flip_window: FlipWindow | None = None
        self.sand_out = False  # the sand ran out while a vote (or the accuser's flip) was open
        self.divining: Divining | None = None
        self.divined: dict[str, str] = {}  # a traitor who divined right -> the seat it named
        self.abandoned: str | None = None
        self.escape_left_ms: int | None = None
        self.marks = setup.marks_ms()
        self.held: dict[str, list[tuple[str, ...]]] = {s: [hand] for s, hand in zip(self.seats, self.hands)}
        dealt = deal(chance.shuffle("roles", list(setup.cards)), players, scenario, data, setup.deck)
        self.cards: dict[str, str] = {s: card for s, (card, _) in zip(self.seats, dealt)}
        self.side = {s: self.card_of(s).side for s in self.seats}
        trackers = []
        for s in self.seats:
            card = self.card_of(s)
            if card.mission is not None:
                trackers.append(Tracker(s, card.id, card.mission, "mission"))
            elif card.switch is not None:
                trackers.append(Tracker(s, card.id, card.switch, "switch"))
        self.tracking = Tracking(trackers)
        self._actor: tuple[str, Move] | None = None
        self._final: int | None = None  # the index of the event that ends the game, once known
        self.inputs: list[tuple[str, str, int]] = []
        """Every accepted input, in order: (seat, canonical words, events before it). Public, as
        the transcript's moves are (Hidden Roles hides no input): what a bot may watch."""
        events.emit("roles", f"Hidden Roles, {setup.title}: every player is dealt a role card, face down.",
                    {"level": setup.level, "deck": setup.title})
        for s, (card_id, discarded) in zip(self.seats, dealt):
            card = self.card_of(s)
            redraw = (f" (you drew {', '.join(discarded)} first, which this game cannot use: discarded)"
                      if discarded else "")
            events.emit("card", f"Your card: {card.title}, {kind_words(card)}. {card.text}{redraw}",
                        {"seat": s, "card": card.id, "title": card.title, "kind": card.kind, "side": card.side,
                         "text": card.text, "discarded": list(discarded)}, to=(s,))
        self._seen = len(events)
        self._settle(self.tracking.check(self))

    # ---------------------------------------------------------------------------- facts
    def card_of(self, seat: str) -> Card:
        """The card dealt to ``seat`` (the host's knowledge; a seat's view holds only its own)."""
        return self.setup.deck.cards[self.cards[seat]]

    def side_of(self, seat: str) -> str:
        """``hero`` or ``traitor``, as ``seat`` stands now (a variable card may have switched)."""
        return self.side[seat]

    def mission_of(self, seat: str) -> Tracker | None:
        """The mission of ``seat``'s card and how it stands (None: the card has none)."""
        t = self.tracking.of(seat)
        return t if t is not None and t.purpose == "mission" else None

    def in_game(self, seat: str) -> bool:
        return seat not in self.out

    def may_be_dealt(self, card: str) -> bool:
        """Whether this game could have dealt ``card``: the deck holds it and the game meets its
        condition (a card it does not meet is discarded when dealt: ``pathfinder`` before scenario
        3). Public, as the deck and the game are."""
        held = self.setup.deck.cards.get(card)
        return held is not None and card in self.setup.cards and held.condition.met(
            self.players, rd.features(self.data, self.scenario))

    @property
    def eliminated(self) -> tuple[str, ...]:
        return tuple(s for s in self.seats if s in self.out)

    @property
    def hourglasses_left(self) -> int:
        """Unused hourglasses on the board (what a flip mission waits for)."""
        return len(self.unused("hourglass"))

    @property
    def hourglasses_to_come(self) -> int:
        """Hourglasses on the tiles still in the stack (public: which tiles are left is, not
        their order)."""
        return sum(1 for name in self.stack for kind, _ in self.data.tiles[name].kinds.values()
                   if kind == "hourglass")

    def rule_of(self, seat: str) -> Predicate | None:
        """The special rule binding ``seat``: a hero-rule card's, while its holder is in the game."""
        card = self.card_of(seat)
        return card.rule if card.rule is not None and self.in_game(seat) else None

    def time_left_ms(self, now_ms: int | None = None) -> int:
        if self.escape_left_ms is not None:  # the heroes are out: the sand no longer counts
            return self.escape_left_ms
        return super().time_left_ms(now_ms)

    # ---------------------------------------------------------------------------- reading inputs
    def forms(self) -> dict[str, str]:
        return {**super().forms(), **FORMS}

    def shown_verbs(self) -> list[str]:
        """Abandoning is a rule of level 2 on, divining of level 5."""
        return [v for v in super().shown_verbs()
                if not (v == "abandon" and self.level < 2 or v == "divine" and self.level < 5)]

    def parse(self, text: str) -> Move:
        move = parse_role_move(text, self.seats, tuple(self.setup.deck.cards))
        return move if move is not None else super().parse(text)

    def check_actor(self, seat: str, move: Move) -> None:
        """Refuse what ``seat`` may not send at all now: anything but the vote and the
        accuser's flip while the sand waits for them, anything but the divining after the
        escape, anything from an eliminated seat (a phantom's talk aside), and what breaks
        the seat's own special rule (a refusal only that seat sees)."""
        if self.sand_out:
            if move.verb == "vote" or (move.verb in ("flip", "pass") and self.flip_window is not None):
                return
            raise IllegalMoveError(self.sand_closed())
        if self.divining is not None:
            if move.verb in ("divine", "pass"):
                return
            raise IllegalMoveError(f"the heroes are out: the traitors are divining until "
                                   f"{seconds_name(self.divining.until_ms)} s")
        if not self.in_game(seat):
            if seat in self.phantoms and move.verb == "say":
                if self.scenario.talk != "windows":
                    raise IllegalMoveError("a phantom talks only while talk is forbidden, and in this scenario "
                                           "talk is always open")
                if self.talk_open:
                    raise IllegalMoveError("a phantom talks only while talk is forbidden; talk is open now")
                return
            raise IllegalMoveError(f"{seat} is out of the game: " + (
                "a phantom may only say something while talk is forbidden" if seat in self.phantoms
                else "it has no inputs any more"))
        rule = self.rule_of(seat)
        if rule is not None and self._breaks(seat, rule, move):
            card = self.card_of(seat)
            raise IllegalMoveError(f"your card, {card.title}: {card.text[0].lower()}{card.text[1:]}")

    def _breaks(self, seat: str, rule: Predicate, move: Move) -> bool:
        """Whether ``move`` breaks ``rule`` (from its words; a count it leaves out is judged
        once planned)."""
        if rule.name == "never-act-on":
            return move.verb in HERO_VERBS and move.hero == rule["hero"]
        if rule.name == "acts-only-with-pawn":
            return move.verb in HERO_VERBS and not (self.pawn == seat and self.pawn_by != seat)
        if rule.name == "silent":
            return move.verb == "say"
        if rule.name == "single-steps":
            return move.verb == "move" and move.squares is not None and move.squares > 1
        return rule.name == "never-accuses" and move.verb == "accuse"

    def talk_open_for(self, seat: str) -> bool:
        if self.sand_out or self.divining is not None:
            return False
        if not self.in_game(seat):
            return seat in self.phantoms and self.scenario.talk == "windows" and not self.talk_open
        rule = self.rule_of(seat)
        return (rule is None or rule.name != "silent") and super().talk_open_for(seat)

    # ---------------------------------------------------------------------------- planning
    def plan(self, seat: str, move: Move) -> tuple[Move, Plan]:
        if isinstance(move, RoleMove):
            verb = ("divine" if self.divining is not None else "flip") if move.verb == "pass" else move.verb
            effect = getattr(self, f"_plan_{verb}")(seat, move)
        else:
            move, effect = super().plan(seat, move)
            rule = self.rule_of(seat)
            if rule is not None and move.verb == "move" and self._breaks(seat, rule, move):
                card = self.card_of(seat)
                raise IllegalMoveError(f"your card, {card.title}: {card.text[0].lower()}{card.text[1:]}")
            if move.verb == "pawn":
                target = move.seat
                assert target is not None
                if not self.in_game(target):
                    raise IllegalMoveError(f"{target} is out of the game: put the pawn in front of a player still in it")
                effect = self._pawn_effect(seat, effect)
        return move, self._acting(seat, move, effect)

    def _acting(self, seat: str, move: Move, effect: Plan) -> Plan:
        """``effect``, with the input that causes it known to the missions' reading."""
        def run() -> None:
            self._actor = (seat, move)
            self.inputs.append((seat, move_name(move), len(self.events)))
            effect()
        return run

    def _pawn_effect(self, seat: str, effect: Plan) -> Plan:
        def run() -> None:
            effect()
            self.pawn_by = seat
        return run

    def _plan_eye(self, seat: str, move: RoleMove) -> Plan:
        target = move.seat
        assert target is not None
        if target == seat:
            raise IllegalMoveError("put the eye card in front of another player")
        if not self.in_game(target):
            raise IllegalMoveError(f"{target} is out of the game: put the eye card in front of a player still in it")
        if self.eye == target:
            raise IllegalMoveError(f"the eye card is in front of {target} already")

        def eye() -> None:
            self.eye = target
            self.events.emit("eye", f"{seat} puts the 'I've got my eye on you!' card in front of {target}.",
                             {"seat": seat, "target": target})
        return eye

    # ---------------------------------------------------------------------------- legal inputs
    def legal_moves(self, seat: str) -> list[Move]:
        if self.result is not None:
            return []
        if self.sand_out:
            return [*self.vote_moves(seat), *self.flip_moves(seat)]
        if self.divining is not None:
            return list(self.divining_moves(seat))
        if not self.in_game(seat):
            return []
        rule = self.rule_of(seat)
        # (what breaks the seat's rule is gone already: the base list keeps what check_actor lets pass)
        out = [m for m in super().legal_moves(seat)
               if not (m.verb == "pawn" and m.seat is not None and not self.in_game(m.seat))]
        if rule is None or rule.name != "never-accuses":
            out += self.accusation_moves(seat)
        out += self.vote_moves(seat) + self.flip_moves(seat)
        out += [RoleMove("eye", seat=s) for s in self.seats if s != seat and self.in_game(s) and s != self.eye]
        if self.setup.multi and self.side[seat] == "hero" and not self.theft:
            out.append(RoleMove("abandon"))
        return out

    def would_accept(self, seat: str, move: Move) -> bool:
        """Whether ``apply`` would accept ``move`` of ``seat`` now (nothing changes)."""
        try:
            self.check_actor(seat, move)
            self.plan(seat, move)
        except InputError:
            return False
        return True

    def awaiting(self) -> list[Awaiting]:
        if self.result is not None:
            return []
        vote = self.vote
        asked = [] if vote is None else [
            Awaiting(v, "vote", f"vote yes or no on {vote.accuser}'s accusation of {' '.join(vote.accused)} until "
                                f"{seconds_name(vote.closes_ms)} s") for v in vote.waiting(self.out)]
        if self.flip_window is not None:
            asked.append(Awaiting(self.flip_window.accuser, "flip",
                                  f"flip the sand timer, or pass, until {seconds_name(self.flip_window.until_ms)} s"))
        if self.divining is not None:
            return [Awaiting(t, "divine", f"divine SEAT MISSION, or pass, until {seconds_name(self.divining.until_ms)} s")
                    for t in self.divining.waiting()]
        if self.sand_out:
            return asked
        return [a for a in super().awaiting() if self.in_game(a.seat)] + asked

    # ---------------------------------------------------------------------------- time
    def timers(self) -> list[Timer]:
        if self.divining is not None:
            return [(self.divining.until_ms, self._divining_ends)]
        out = [] if self.sand_out else super().timers()
        if self.vote is not None:
            out.append((self.vote.closes_ms, self._vote_times_out))
        if self.flip_window is not None:
            out.append((self.flip_window.until_ms, self._flip_window_ends))
        if self.marks and not self.theft:
            out.append((self.marks[0], self._clock_mark))
        return out

    def _clock_mark(self) -> None:
        """The timed change at each moment a card of the deck names (public, dealt or not): the
        theft's missions and switches that this moment settles."""
        self.marks.pop(0)
        self._settle(self.tracking.at_mark(self.now_ms))
        self._follow()

    def sand_runs_out(self, text: str | None = None) -> None:
        """The sand runs out (by time, or a flip that left none): an open vote or accuser's
        flip holds the end back (``votes.Accusations._sand_waits``)."""
        if not self._sand_waits():
            super().sand_runs_out(text)

    # ---------------------------------------------------------------------------- following the game
    def after_change(self) -> None:
        self._follow()
        self._actor = None

    def _follow(self) -> None:
        """Read the events not read yet, in order, and settle what they decide. The event that
        ends the game (``_final``) switches no side: the end is judged on the sides as they
        stood when it happened."""
        while self._seen < len(self.events) and self.result is None:
            index, event = self._seen, self.events[self._seen]
            self._seen += 1
            actor, move = self._actor if self._actor is not None else (None, None)
            self._settle(self.tracking.observe(event, self, actor, move, switches=index != self._final))

    def _settle(self, trackers: list[Tracker]) -> None:
        for t in trackers:
            if self.result is not None:
                return
            card = self.card_of(t.seat)
            if t.purpose == "switch":
                if t.status == DONE and self.in_game(t.seat):
                    self.side[t.seat] = "hero" if self.side[t.seat] == "traitor" else "traitor"
                    self.events.emit("switch", f"Your card, {card.title}, switches: you are a {self.side[t.seat]} now.",
                                     {"seat": t.seat, "card": card.id, "side": self.side[t.seat]}, to=(t.seat,))
            elif t.status == DONE:
                self.events.emit("mission", f"Your mission is done: {words(t.pred)}.",
                                 {"seat": t.seat, "card": card.id, "status": DONE}, to=(t.seat,))
            elif not self.in_game(t.seat):
                self.events.emit("failed", f"{t.seat}, out of the game, has failed its mission: {words(t.pred)}.",
                                 {"seat": t.seat, "card": card.id})
            else:
                self.events.emit("failed", f"{t.seat} has failed! Its mission can no longer be done: "
                                 f"{words(t.pred)}.", {"seat": t.seat, "card": card.id})
                self._reveal(t.seat)
                self._eliminate((t.seat,), "failed")

    def _reveal(self, seat: str) -> None:
        if seat in self.revealed:
            return
        self.revealed.append(seat)
        card = self.card_of(seat)
        self.events.emit("reveal", f"{seat}'s card is revealed: {card.title} ({card.id}); {seat} is a "
                         f"{self.side[seat]}.",
                         {"seat": seat, "card": card.id, "kind": card.kind, "side": self.side[seat]})

    def _eliminate(self, seats: tuple[str, ...], why: str) -> None:
        """``seats`` leave the game together (``accused`` or ``failed``); in seat order, each
        one's action tiles go, one by one, to the first seat after it, round the table, still
        in the game with the fewest tiles."""
        for seat in seats:
            self.out[seat] = why
            if why == "accused" and self.setup.multi:
                self.phantoms.append(seat)
        for seat in seats:
            tiles, self.held[seat] = self.held[seat], []
            i = self.seats.index(seat)
            order = [s for s in self.seats[i + 1:] + self.seats[:i] if self.in_game(s)]
            given = []
            for tile in tiles:
                if not order:
                    break
                fewest = min(len(self.held[s]) for s in order)
                to = next(s for s in order if len(self.held[s]) == fewest)
                self.held[to].append(tile)
                given.append({"tile": list(tile), "to": to})
            self.hands = [tuple(a for tile in self.held[s] for a in tile) for s in self.seats]
            phantom = seat in self.phantoms
            self.events.emit("eliminate", f"{seat} is out of the game" + (", a phantom now" if phantom else "") + (
                ": " + "; ".join(f"its tile {'+'.join(g['tile'])} goes to {g['to']}" for g in given) if given
                else "") + ".", {"seat": seat, "why": why, "phantom": phantom, "tiles": given})
        if self.flip_window is not None and self.flip_window.accuser in seats:
            self._flip_passed(f"{self.flip_window.accuser}, the accuser, is out of the game: no flip.")
        if not any(self.in_game(s) for s in self.seats):
            self._end(False, "nobody-left", "Nobody is left in the game to play the heist")
            return
        self._settle_vote()

    def pass_hands(self) -> None:
        """Scenario 3 on, on an hourglass flip: each seat still in the game passes its tiles to
        the next one still in it."""
        live = [s for s in self.seats if self.in_game(s)]
        held = {s: [] for s in self.seats}
        for k, s in enumerate(live):
            held[live[(k + 1) % len(live)]] = self.held[s]
        self.held = held
        self.hands = [tuple(a for tile in self.held[s] for a in tile) for s in self.seats]
        self.events.emit("pass", "Every player still in the game passes their action tile(s) to the next one: "
                         + "; ".join(f"{s} {'+'.join(self.hands[self.seats.index(s)])}" for s in live) + ".",
                         {"hands": {s: list(self.hands[self.seats.index(s)]) for s in live}})

    def finish(self, won: bool, reason: str, text: str) -> None:
        """The base game ends (the heroes escaped, or the sand ran out): at level 5 the escape
        opens the divining; else the result (``Ending._end``)."""
        self._follow()
        if self.result is not None:
            return
        if won and self.setup.divining and self.divining is None and not self.divined:
            self.escape_left_ms = self.time_left_ms()
            if self._start_divining():
                return
        head = "The heroes escaped with the loot" if won else text.rsplit(":", 1)[0]
        self._end(won, reason, head)

    # ---------------------------------------------------------------------------- views
    def view(self, seat: str) -> dict[str, Any]:
        out = super().view(seat)
        out["roles"] = self.roles_view(seat)
        return out

    def roles_view(self, seat: str) -> dict[str, Any]:
        """The expansion's part of ``seat``'s view: the public facts, its own card, and for the
        host every card."""
        out: dict[str, Any] = {
            "level": self.level, "deck": self.setup.title, "dealt_from": self.dealt_from(), "eye": self.eye,
            "eliminated": {s: self.out[s] for s in self.eliminated}, "phantoms": list(self.phantoms),
            "revealed": {s: {"card": self.cards[s], "side": self.side[s]} for s in self.revealed},
            "vote": None if self.vote is None else self.vote.as_dict(self.out),
            "flip": None if self.flip_window is None else {
                "seat": self.flip_window.accuser, "until": seconds_name(self.flip_window.until_ms)},
            "divining": None if self.divining is None else {
                "traitors": list(self.divining.traitors), "waiting": self.divining.waiting(),
                "named": list(self.divining.named), "until": seconds_name(self.divining.until_ms)},
            "sand_out": self.sand_out,
        }
        if seat in self.seats:
            out["you"] = self.card_view(seat)
        elif seat == HOST:
            out["cards"] = {s: self.card_view(s) for s in self.seats}
        return out

    def dealt_from(self) -> dict[str, int]:
        """The cards the game was dealt from, before the shuffle, by name, how many of each (in
        the deck's order): public, as a level's are by its rules and a custom deck's by its file
        (the built-in bots read it; which seat holds which card is what is hidden)."""
        out: dict[str, int] = {}
        for name in self.setup.cards:
            out[name] = out.get(name, 0) + 1
        return out

    def card_view(self, seat: str) -> dict[str, Any]:
        card = self.card_of(seat)
        out: dict[str, Any] = {"card": card.id, "title": card.title, "kind": card.kind, "side": self.side[seat],
                               "text": card.text}
        t = self.tracking.of(seat)
        if t is not None:
            out["mission" if t.purpose == "mission" else "switch"] = {"asks": words(t.pred), "status": t.progress()}
        return out


def kind_words(card: Card) -> str:
    """A card's kind in words: ``a hero``, ``a hero with a mission``, ``a variable card (starts
    as a traitor)``, ..."""
    if card.kind == "variable":
        return f"a variable card, starting as a {card.side}"
    return {"hero": "a hero", "traitor": "a traitor", "hero-mission": "a hero with a mission",
            "traitor-mission": "a traitor with a mission", "hero-rule": "a hero with a special rule"}[card.kind]


__all__ = ["HiddenRolesState", "kind_words"]

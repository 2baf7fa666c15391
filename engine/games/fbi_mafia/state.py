"""The state of one FBI vs Mafia game and its rules.

Inputs are validated completely (``_plan``) before anything changes; the returned plan then
mutates the state. Kills, arrests and explosions resolve through a queue of effects that can
pause for an interrupt (the Operative's protect, the Bomber's post-arrest detonate); the
answer resumes the queue. Rules text: ``docs/rules/fbi-vs-mafia.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.chance import Chance
from engine.errors import AmbiguousMoveError, IllegalMoveError, NotYourTurnError, SyntaxInputError
from engine.events import HOST, EventLog
from engine.game import Awaiting, GameState, Result
from engine.games.fbi_mafia import grid
from engine.games.fbi_mafia.data import GameData, Limits, ModeSpec
from engine.games.fbi_mafia.grid import Cell, cell_name
from engine.games.fbi_mafia.moves import FORMS, TOKENS, Move, move_name, parse_move

ALIVE, DEAD, ARRESTED = "alive", "dead", "arrested"
Plan = Callable[[], None]


@dataclass(frozen=True)
class Prompt:
    """An interrupt: ``character``'s seat must answer ``kind`` about ``suspect``."""

    kind: str  # "protect" or "detonate"
    character: str
    suspect: str
    cause: str


# ------------------------------------------------------------------------------- legality table
# Where each verb may aim and what its target must be, written once: the legal moves are
# generated from it, an input is accepted when it is among them, and a refusal names the first
# condition of the table the input fails, in the table's words. Words may use {cell} (the
# target's cell), {at} (its suspect and cell), {status}, {teammate} (whose identity it is, when
# the actor's seat knows), {reach} (the reach's limit) and {source} (a two-cell move's first cell).


@dataclass(frozen=True)
class Reach:
    """Where a verb may aim, counted from a cell (the actor's identity, or the source card of a
    two-cell move): ``around`` (the cell itself and its 8 neighbours), ``adjacent`` (the 8),
    ``line`` (orthogonal, ``first`` to N cells away), ``diagonal`` (1 to N cells away) or
    ``anywhere``; N is the field ``limit`` of the scenario's limits. ``where`` says it in words."""

    shape: str
    where: str
    limit: str | None = None
    first: int = 1

    def cells(self, origin: Cell, size: int, limits: Limits) -> tuple[Cell, ...]:
        """The cells within reach, in reading order."""
        match self.shape:
            case "around":
                return tuple(sorted([origin, *grid.neighbours(origin, size)]))
            case "adjacent":
                return grid.neighbours(origin, size)
            case "line":
                return grid.orthogonal(origin, size, self.reach(limits), include_self=self.first == 0)
            case "diagonal":
                return grid.diagonal(origin, size, self.reach(limits))
            case "anywhere":
                return grid.cells(size)
        raise ValueError(f"unknown reach {self.shape!r}")

    def reach(self, limits: Limits) -> int:
        assert self.limit is not None
        return int(getattr(limits, self.limit))


@dataclass(frozen=True)
class Need:
    """What a target card must be, and the refusal when it is not."""

    holds: Callable[[FbiMafiaState, Cell], bool]
    refusal: str


@dataclass(frozen=True)
class Stock:
    """A limited supply: at most ``limit`` (a field of the limits) cards carry ``token``."""

    token: str
    limit: str
    refusal: str  # may use {cap}


@dataclass(frozen=True)
class Rule:
    """The legal targets of ``verb``: a card within ``reach`` of the actor's identity (or of the
    source card, for a verb with ``source`` needs) that meets each of ``needs``, while ``stock``
    lasts. ``tokens``: the verb moves one of these tokens (off the source card, or the target),
    and names it when the card carries several. ``far``: the refusal for a card out of reach."""

    verb: str
    reach: Reach
    needs: tuple[Need, ...] = ()
    source: tuple[Need, ...] = ()
    tokens: tuple[str, ...] = ()
    stock: Stock | None = None
    far: str = "{cell} is not {where}"


def living(state: FbiMafiaState, cell: Cell) -> bool:
    return state._alive(cell)


def dead(state: FbiMafiaState, cell: Cell) -> bool:
    return state.status[state._name(cell)] == DEAD


def carrying(*tokens: str) -> Callable[[FbiMafiaState, Cell], bool]:
    """The card carries one of ``tokens``."""
    return lambda state, cell: any(state._has(cell, t) for t in tokens)


def free_of(*tokens: str) -> Callable[[FbiMafiaState, Cell], bool]:
    """The card carries none of ``tokens``."""
    return lambda state, cell: not any(state._has(cell, t) for t in tokens)


def not_known_teammate(state: FbiMafiaState, cell: Cell) -> bool:
    """The card is not the identity of a teammate the actor's seat knows (Duel)."""
    return cell not in state._known_team_cells()


AROUND = Reach("around", "your identity's cell or adjacent to it")
ADJACENT = Reach("adjacent", "adjacent to your identity (not its own cell)")
DETECTIVE_LINE = Reach("line", "0 to {reach} cells in a straight line (not diagonal) from your identity",
                       "detective_reach", first=0)
SNIPER_DIAGONAL = Reach("diagonal", "1 to {reach} cells on a diagonal from your identity", "sniper_reach")
THREAT_LINE = Reach("line", "1 to {reach} cells in a straight line from your identity", "threat_reach")
ANYWHERE = Reach("anywhere", "on the board")
NEXT_TO_SOURCE = Reach("adjacent", "adjacent to {source}")

ALIVE_CARD = Need(living, "{at} is {status}")
STEP_REACH = "not your identity's cell nor adjacent to it"

RULES: dict[str, Rule] = {rule.verb: rule for rule in (
    Rule("arrest", AROUND, (ALIVE_CARD,)),
    Rule("kill", ADJACENT, (ALIVE_CARD,)),
    Rule("shoot", SNIPER_DIAGONAL, (ALIVE_CARD,)),
    Rule("plant", AROUND, (ALIVE_CARD, Need(free_of("bomb"), "{at} already carries bomb"))),
    Rule("detonate", ANYWHERE, (ALIVE_CARD, Need(carrying("bomb"), "{at} carries no bomb"))),
    Rule("autopsy", ADJACENT, (Need(dead, "{at} is not dead"),)),
    Rule("defuse", ADJACENT, (ALIVE_CARD, Need(carrying("bomb", "threat"), "{at} carries no bomb or threat")),
         tokens=("bomb", "threat")),
    Rule("prepare", NEXT_TO_SOURCE,
         (Need(living, "{cell} is not alive: only living suspects take tokens"),
          Need(free_of(*TOKENS), "{cell} already carries a token")),
         source=(Need(carrying(*TOKENS), "{cell} carries no token"),), tokens=TOKENS),
    Rule("protect", AROUND,
         (Need(living, "that suspect is not alive"), Need(free_of("protection"), "it already carries a protection token")),
         stock=Stock("protection", "protection_tokens", "the board already has {cap} protection tokens (the most)"),
         far=STEP_REACH),
    Rule("unprotect", AROUND, (Need(carrying("protection"), "it carries no protection token"),), far=STEP_REACH),
    Rule("threat", THREAT_LINE,
         (Need(living, "{cell} is not alive"), Need(free_of("threat"), "{cell} already carries a threat"),
          Need(not_known_teammate, "{cell} is the {teammate}'s identity: the Maniac never threatens its own team"))),
)}
# The Detective's arrest ("arrest: line" in its role) reaches along lines instead.
LINE_ARREST = Rule("arrest", DETECTIVE_LINE, (ALIVE_CARD,))


# ------------------------------------------------------------------------------- effects
# What the queue ``FbiMafiaState.pending`` holds: the consequences of an input still to resolve,
# in order. Each is resolved by ``_resolve`` (one ``match``); an interrupt pauses the queue.


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


class FbiMafiaState(GameState):
    clock_step_ms = 1000

    def __init__(self, data: GameData, mode: ModeSpec, chance: Chance, events: EventLog) -> None:
        self.mode = mode
        self.limits = data.limits
        self.roles = {c: data.roles[c] for c in mode.turn_order}
        self.size = mode.board
        self.characters = mode.turn_order
        self.team = {c: self.roles[c].team for c in self.characters}
        if mode.seating == "standard":
            self.seats = tuple(self.characters)
            self.seat_of = {c: c for c in self.characters}
        else:
            self.seats = tuple(dict.fromkeys(self.team[c] for c in self.characters))
            self.seat_of = dict(self.team)
        self.events = events
        self.chance = chance

        names = list(data.suspects[: self.size * self.size])
        self.suspects = names
        layout = chance.shuffle("board", names)
        self.grid: list[list[str]] = [layout[r * self.size : (r + 1) * self.size] for r in range(self.size)]
        self.pos: dict[str, Cell] = {}
        self._index_positions()
        self.status: dict[str, str] = {n: ALIVE for n in names}
        self.tokens: dict[str, set[str]] = {n: set() for n in names}
        self.cleared: list[str] = []
        self.deck: list[str] = chance.shuffle("identity-deck", names)
        self.discard: list[str] = []
        self.identity: dict[str, str] = {}
        self.hand: list[str] = []
        self.kept: list[str] = []
        self.autopsies: list[dict[str, Any]] = []
        self.inspecting: list[str] = []
        self.arrests = 0
        self.kills = 0
        self.turn_index = 0
        self.turn_number = 1
        self.phase = "action"
        self.pending: list[Effect] = []
        self.prompt: Prompt | None = None
        self.last_shift: Move | None = None
        self.result: Result | None = None

        events.emit(
            "setup",
            f"FBI vs Mafia, {mode.title}: {self.size}x{self.size} board; turn order "
            f"{', '.join(self.characters)}; FBI wins at {mode.win_arrests} arrests, Mafia at "
            f"{mode.win_kills} kills.",
            {"mode": mode.name, "size": self.size, "turn_order": list(self.characters),
             "board": [list(row) for row in self.grid]},
        )
        for c in self.characters:
            self.identity[c] = self._draw_living(c)
            self._tell_identity(c, "your secret identity")
        holder = self._holder("evidence")
        if mode.evidence_hand and holder is not None:
            self.hand = [self._draw_card() for _ in range(mode.evidence_hand)]
            events.emit(
                "hand",
                f"The {holder}'s evidence hand: {', '.join(self._at(n) for n in self.hand)}.",
                {"character": holder, "hand": list(self.hand)},
                to=[self.seat_of[holder]],
            )
        self._begin_turn()
        self._run()

    # ---------------------------------------------------------------------------- basic facts
    def _index_positions(self) -> None:
        self.pos = {name: (r, c) for r, row in enumerate(self.grid) for c, name in enumerate(row)}

    def _at(self, name: str) -> str:
        return f"{name} ({cell_name(self.pos[name])})"

    def _name(self, cell: Cell) -> str:
        return self.grid[cell[0]][cell[1]]

    def _holder(self, action: str) -> str | None:
        return next((c for c in self.characters if action in self.roles[c].actions), None)

    def _with_step(self, step: str) -> str | None:
        return next((c for c in self.characters if step in self.roles[c].steps), None)

    @property
    def actor(self) -> str:
        return self.characters[self.turn_index]

    def _me(self, character: str | None = None) -> Cell:
        return self.pos[self.identity[character or self.actor]]

    def owner(self, name: str) -> str | None:
        """The character whose identity ``name`` is, if any."""
        for c in self.characters:
            if self.identity.get(c) == name:
                return c
        return None

    def _mafia_identity(self, name: str) -> bool:
        owner = self.owner(name)
        return owner is not None and self.team[owner] == "mafia" and self.status[name] == ALIVE

    def _alive(self, cell: Cell) -> bool:
        return self.status[self._name(cell)] == ALIVE

    def _has(self, cell: Cell, token: str) -> bool:
        return token in self.tokens[self._name(cell)]

    def _token_count(self, token: str) -> int:
        return sum(1 for n in self.suspects if token in self.tokens[n])

    def characters_of(self, seat: str) -> list[str]:
        if seat == HOST:
            return list(self.characters)
        return [c for c in self.characters if self.seat_of[c] == seat]

    # ---------------------------------------------------------------------------- deck
    def _draw_card(self) -> str:
        if not self.deck:
            self._rebuild_deck()
        return self.deck.pop(0)

    def _rebuild_deck(self) -> None:
        taken = set(self.identity.values()) | set(self.hand)
        pool = [n for n in self.suspects if self.status[n] == ALIVE and n not in taken]
        self.deck = self.chance.shuffle("identity-deck-rebuilt", pool)
        self.discard = [n for n in self.discard if n not in pool]
        self.events.emit(
            "deck-rebuilt",
            f"The identity deck ran out: the {len(pool)} living suspects that are nobody's "
            "identity are shuffled into a new deck.",
            {"size": len(pool)},
        )

    def _deck_can_draw(self) -> bool:
        """Whether Masquerade and Inspect may draw now, judged on public facts only (their
        legality must not tell a seat anything it may not know): a card, or a rebuild sure to
        hold one. Every character's identity is a living card, and each evidence card counts
        as taken unless it was revealed and has died since (which of the rest are dead, only
        the hand's holder knows). The count is never above the real rebuild's size."""
        if self.deck:
            return True
        living = sum(1 for n in self.suspects if self.status[n] == ALIVE)
        hand = sum(1 for n in self.hand if n not in self.cleared or self.status[n] == ALIVE)
        return living - len(self.characters) - hand > 0

    def _draw_living(self, character: str) -> str:
        skipped = []
        while True:
            card = self._draw_card()
            if self.status[card] == ALIVE:
                break
            self.discard.append(card)
            skipped.append(card)
        if skipped:
            self.events.emit(
                "draw-skipped",
                f"The {character} skipped {', '.join(skipped)} ({'dead or arrested'}).",
                {"character": character, "skipped": skipped},
                to=[self.seat_of[character]],
            )
        return card

    def _tell_identity(self, character: str, what: str) -> None:
        name = self.identity[character]
        self.events.emit(
            "identity",
            f"The {character}'s identity: {self._at(name)} ({what}).",
            {"character": character, "suspect": name, "cell": cell_name(self.pos[name])},
            to=[self.seat_of[character]],
        )

    def _redraw(self, character: str) -> None:
        old = self.identity[character]
        self.discard.append(old)
        self.identity[character] = self._draw_living(character)
        self.events.emit(
            "redraw",
            f"The {character} draws a new identity.",
            {"character": character, "deck": len(self.deck)},
        )
        self._tell_identity(character, "new identity")

    # ---------------------------------------------------------------------------- turns
    def _begin_turn(self) -> None:
        actor = self.actor
        self.events.emit(
            "turn",
            f"Turn {self.turn_number}: the {actor} ({self.team[actor]}) acts.",
            {"turn": self.turn_number, "character": actor, "team": self.team[actor]},
        )
        self.phase = "action"
        steps = self.roles[actor].steps
        if "threat-kills-at-start" in steps:
            victims = [
                self._name(c) for c in grid.neighbours(self._me(), self.size)
                if self._alive(c) and self._has(c, "threat")
            ]
            self.pending.extend(ThreatKill(v) for v in victims)
        if "protection-before-action" in steps:
            if self._targets("protect") or self._targets("unprotect"):
                self.phase = "protection"
            else:
                self.events.emit(
                    "protection-skipped",
                    f"The {actor} can neither place nor remove a protection token: step skipped.",
                    {"character": actor},
                )

    def _end_turn(self) -> None:
        self.turn_index = (self.turn_index + 1) % len(self.characters)
        self.turn_number += 1
        self._begin_turn()

    # ---------------------------------------------------------------------------- resolution
    def _run(self) -> None:
        """Resolve the queued effects in order until the queue is empty, an interrupt pauses it
        (its answer resumes it) or the game ends."""
        while self.result is None and self.prompt is None and self.pending:
            self._resolve(self.pending.pop(0))

    def _resolve(self, effect: Effect) -> None:
        match effect:
            case Kill(name, cause):
                self._kill(name, cause)
            case Explode(name):
                self._explode(name)
            case Chain(name):
                self._chain(name)
            case ThreatKill(name):
                self._threat_kill(name)
            case ThreatStep():
                self._threat_step()
            case EndTurn():
                self._end_turn()
            case _:
                raise TypeError(f"not an effect: {effect!r}")

    def _threat_step(self) -> None:
        if self._targets("threat"):
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
        operative = self._with_step("protection-before-action")
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

    # ---------------------------------------------------------------------------- legality
    def _known_team_cells(self) -> dict[Cell, str]:
        """The cells of the identities the actor's seat knows to be its own team's, other than
        the actor's: the whole team in Duel, nobody in Standard (teammates do not know each
        other, so no legality may depend on where they are)."""
        seat = self.seat_of[self.actor]
        return {self._me(c): c for c in self.characters if c != self.actor and self.seat_of[c] == seat}

    def _rule(self, verb: str) -> Rule:
        """The table's rule of ``verb`` for the acting character."""
        if verb == "arrest" and self.roles[self.actor].arrest == "line":
            return LINE_ARREST
        return RULES[verb]

    def _in_stock(self, stock: Stock | None) -> bool:
        return stock is None or self._token_count(stock.token) < getattr(self.limits, stock.limit)

    def _meets(self, needs: tuple[Need, ...], cell: Cell) -> bool:
        return all(need.holds(self, cell) for need in needs)

    def _reachable(self, rule: Rule, origin: Cell) -> list[Cell]:
        """The legal targets of ``rule`` counted from ``origin``, in reading order."""
        if not self._in_stock(rule.stock):
            return []
        return [c for c in rule.reach.cells(origin, self.size, self.limits) if self._meets(rule.needs, c)]

    def _targets(self, verb: str) -> list[Cell]:
        """Cells a one-cell input of ``verb`` may target now (the actor's identity decides the range)."""
        return self._reachable(self._rule(verb), self._me())

    def _why_not(self, verb: str, target: Cell, source: Cell | None = None) -> str:
        """Why ``target`` (moved to from ``source``, for a two-cell verb) is not a legal target
        of ``verb``: the words of the first condition of the table it fails."""
        rule = self._rule(verb)
        if not self._in_stock(rule.stock):
            assert rule.stock is not None
            return rule.stock.refusal.format(cap=getattr(self.limits, rule.stock.limit))
        origin = self._me()
        if rule.source:
            assert source is not None
            origin = source
            for need in rule.source:
                if not need.holds(self, source):
                    return need.refusal.format_map(self._words(source))
        words = self._words(target)
        if target not in rule.reach.cells(origin, self.size, self.limits):
            words["source"] = cell_name(origin)
            words["reach"] = rule.reach.reach(self.limits) if rule.reach.limit else ""
            return rule.far.replace("{where}", rule.reach.where).format_map(words)
        for need in rule.needs:
            if not need.holds(self, target):
                return need.refusal.format_map(words)
        raise AssertionError(f"{verb} {cell_name(target)}: the table allows a target its moves left out")

    def _words(self, cell: Cell) -> dict[str, Any]:
        """What a refusal about ``cell`` may say of it (nothing the actor's seat may not know)."""
        name = self._name(cell)
        return {"cell": cell_name(cell), "at": self._at(name), "status": self.status[name],
                "teammate": self._known_team_cells().get(cell, "")}

    def _rule_moves(self, verb: str) -> list[Move]:
        """Every legal move of a verb of the table, in reading order of its source, then target."""
        rule = self._rule(verb)
        if rule.source:
            pairs = [(src, dst) for src in grid.cells(self.size) if self._meets(rule.source, src)
                     for dst in self._reachable(rule, src)]
        else:
            pairs = [(None, dst) for dst in self._targets(verb)]
        out: list[Move] = []
        for src, dst in pairs:
            move = Move(verb, cells=(dst,) if src is None else (src, dst))
            if rule.tokens:
                holder = dst if src is None else src
                out.extend(self._token_variants(move, [t for t in rule.tokens if self._has(holder, t)]))
            else:
                out.append(move)
        return out

    def _evidence_cards(self) -> list[str]:
        """The Criminalist's cards it may still reveal: its hand, less those revealed."""
        return [n for n in self.hand if n not in self.cleared]

    def _reverse_banned(self, move: Move) -> bool:
        last = self.last_shift
        return (
            last is not None and last.line == move.line and last.index == move.index
            and last.delta is not None and move.delta == -last.delta
        )

    def _shifts(self) -> list[Move]:
        out = []
        for line in ("row", "col"):
            for index in range(self.size):
                for dist in self.roles[self.actor].shifts:
                    for sign in (-1, 1):
                        m = Move("shift", line=line, index=index, delta=sign * dist)
                        if not self._reverse_banned(m):
                            out.append(m)
        return out

    def action_verbs(self) -> tuple[str, ...]:
        """The words the acting character's turn action may start with."""
        return ("shift", *self.roles[self.actor].actions)

    def action_options(self, verb: str) -> list[str]:
        """Every legal action input starting with ``verb`` for the acting character now."""
        return [move_name(m) for m in self._action_moves(verb)]

    def _action_moves(self, verb: str) -> list[Move]:
        """Every legal move of ``verb`` for the actor now."""
        if verb == "shift":
            return self._shifts()
        if verb in ("masquerade", "inspect"):
            return [Move(verb)] if self._deck_can_draw() else []
        if verb == "evidence":
            return [Move(verb, cells=(self.pos[n],)) for n in self._evidence_cards()]
        if verb == "swap":
            return [Move(verb, cells=(a, b)) for a in grid.cells(self.size)
                    for b in grid.neighbours(a, self.size) if a < b]
        return self._rule_moves(verb)

    def _threat_moves(self) -> list[Move]:
        """Every legal input of the Maniac's threat step: the allowed number of distinct targets."""
        targets = self._targets("threat")
        lo, hi = self.limits.threats_min, self.limits.threats_max
        return [Move("threat", cells=combo)
                for k in range(max(lo, 1), min(hi, len(targets)) + 1) for combo in combinations(targets, k)]

    def _form(self, verb: str) -> str:
        """The accepted form of ``verb`` for the acting character (its own shift distances)."""
        if verb == "shift":
            shifts = self.roles[self.actor].shifts
            dist = " [" + "|".join(map(str, shifts)) + "]" if len(shifts) > 1 else ""
            return f"shift row N left|right{dist}  or  shift col X up|down{dist}"
        return FORMS[verb]

    def _protection_options(self) -> list[str]:
        """Every input of the Operative's protection step: place, remove, or skip (the source's
        "or skip": always allowed)."""
        return ([f"{v} {cell_name(c)}" for v in ("protect", "unprotect") for c in self._targets(v)]
                + ["skip"])

    @staticmethod
    def _token_variants(move: Move, kinds: list[str]) -> list[Move]:
        """``move`` as a player writes it: without a token when the cell has one kind, else once
        per kind, naming it."""
        if len(kinds) == 1:
            return [move]
        return [Move(move.verb, cells=move.cells, token=t) for t in kinds]

    def _which_token(self, move: Move, cell: Cell, allowed: tuple[str, ...], options: list[str]) -> str:
        """The token ``move`` means on ``cell``: the one named, or the only one of ``allowed``
        there; ambiguous when the cell has several and none is named."""
        kinds = [t for t in allowed if self._has(cell, t)]
        if move.token is None:
            if len(kinds) > 1:
                raise AmbiguousMoveError(
                    f"{move_name(move)}: {cell_name(cell)} carries {' and '.join(kinds)}; say which",
                    [move_name(m) for m in self._token_variants(move, kinds)],
                )
            return kinds[0]
        if move.token not in kinds:
            raise self._refuse(move, f"{cell_name(cell)} carries no {move.token}", options)
        return move.token

    def _refuse(self, move: Move, why: str, options: list[str]) -> IllegalMoveError:
        return IllegalMoveError(f"{move_name(move)}: {why}", options or ["(none now)"])

    # ---------------------------------------------------------------------------- awaiting
    def awaiting(self) -> list[Awaiting]:
        if self.result is not None:
            return []
        if self.prompt is not None:
            p = self.prompt
            return [Awaiting(self.seat_of[p.character], p.kind,
                             f"{p.character}: {p.kind} {self._at(p.suspect)}? {p.kind} yes|no")]
        actor = self.actor
        hints = {
            "protection": f"{actor}: place or remove a protection token, or skip (protect CELL | unprotect CELL | skip)",
            "threat": f"{actor}: place {self.limits.threats_min} to {self.limits.threats_max} threat "
                      "tokens (threat CELL [CELL [CELL]])",
            "keep": f"{actor}: keep one of the {len(self.inspecting)} inspected cards (keep CELL)",
            "action": f"{actor}: shift or {', '.join(self.roles[actor].actions)}",
        }
        return [Awaiting(self.seat_of[actor], self.phase, hints[self.phase])]

    # ---------------------------------------------------------------------------- inputs
    def apply(self, seat: str, text: str, now_ms: int) -> str:
        move = parse_move(text, self.size)
        if move.verb == "surrender":
            plan = self._plan_surrender(seat)
        else:
            awaited = self.awaiting()[0]
            if seat != awaited.seat:
                raise NotYourTurnError(
                    f"{seat} is not awaited: waiting for {awaited.seat} ({awaited.kind}: {awaited.hint}); "
                    "any seat may surrender at any time"
                )
            plan = self._plan(move, awaited.kind)
        if move.name is not None:  # a suspect named by name: record its cell
            found = next(n for n in self.suspects if n.lower() == move.name)
            move = Move(move.verb, cells=(self.pos[found],))
        canonical = move_name(move)
        plan()
        self._run()
        return canonical

    def public_input(self, seat: str, text: str) -> str:
        if text.startswith("keep "):
            return "keep (one of the inspected cards)"
        return text

    def _plan_surrender(self, seat: str) -> Plan:
        teams = sorted({self.team[c] for c in self.characters_of(seat)})
        team = teams[0]
        other = "fbi" if team == "mafia" else "mafia"

        def run() -> None:
            self.events.emit("surrender", f"{seat} surrenders for the {team.upper()}.", {"seat": seat, "team": team})
            self._finish(other, "surrender", f"{seat} surrendered for the {team.upper()}")

        return run

    def _plan(self, move: Move, kind: str) -> Plan:
        if kind in ("protect", "detonate"):
            if move.verb != kind or move.answer is None:
                raise IllegalMoveError(
                    f"the {self.prompt.character if self.prompt else ''} must first answer: {kind} yes|no",
                    [f"{kind} yes", f"{kind} no"],
                )
            return self._plan_answer(move.answer)
        if kind == "keep":
            return self._plan_keep(move)
        if kind == "protection":
            return self._plan_protection(move)
        if kind == "threat":
            return self._plan_threat(move)
        return self._plan_action(move)

    def _suspect_ref(self, move: Move, choices: list[str]) -> str:
        if move.cells:
            name = self._name(move.cells[0])
        else:
            found = [n for n in self.suspects if n.lower() == (move.name or "")]
            if not found:
                raise SyntaxInputError(f"{move.verb}: no suspect named {move.name!r}", [FORMS[move.verb]])
            name = found[0]
        if name not in choices:
            raise self._refuse(move, f"{self._at(name)} is not one of the cards you may choose",
                               [f"{move.verb} {cell_name(self.pos[n])}" for n in choices])
        return name

    # -- interrupts and follow-up choices ------------------------------------------------------
    def _plan_answer(self, yes: bool) -> Plan:
        prompt = self.prompt
        assert prompt is not None

        def run() -> None:
            self.prompt = None
            name = prompt.suspect
            if prompt.kind == "protect":
                if yes:
                    self.tokens[name].discard("protection")
                    self.events.emit(
                        "protected",
                        f"The {prompt.character} protects {self._at(name)}: the kill is cancelled and "
                        "the protection token is removed.",
                        {"suspect": name, "character": prompt.character},
                    )
                else:
                    self.events.emit("protect-declined", f"The {prompt.character} does not protect {self._at(name)}.",
                                     {"suspect": name})
                    self._kill_now(name, prompt.cause)
            elif yes:
                self.events.emit("detonate-accepted", f"The {prompt.character} detonates the bomb on {self._at(name)}.",
                                 {"suspect": name})
                self.tokens[name].clear()
                self.events.emit("explosion", f"The bomb on {self._at(name)} explodes.",
                                 {"suspect": name, "cell": cell_name(self.pos[name])})
                self.pending[:0] = [Chain(name)]
            else:
                self.events.emit("detonate-declined", f"The {prompt.character} does not detonate.", {"suspect": name})
                self.tokens[name].clear()

        return run

    def _plan_keep(self, move: Move) -> Plan:
        if move.verb != "keep":
            raise IllegalMoveError(
                f"the {self.actor} must finish the inspect first: keep one of the cards",
                [f"keep {cell_name(self.pos[n])}" for n in self.inspecting],
            )
        chosen = self._suspect_ref(move, self.inspecting)

        def run() -> None:
            others = [n for n in self.inspecting if n != chosen]
            self.inspecting = []
            self.kept.append(chosen)
            self.deck.extend(others)
            seat = self.seat_of[self.actor]
            self.events.emit(
                "inspect-kept",
                f"The {self.actor} keeps {self._at(chosen)} (nobody's identity)"
                + (f"; {', '.join(others)} goes to the bottom of the deck." if others else "."),
                {"kept": chosen, "bottom": others},
                to=[seat],
            )
            self.events.emit("inspect-done", f"The {self.actor} keeps one card; the other goes under the deck.",
                             {"deck": len(self.deck)})
            self.pending.append(EndTurn())

        return run

    def _plan_protection(self, move: Move) -> Plan:
        options = self._protection_options()
        if move.verb == "skip":
            actor = self.actor

            def skip() -> None:
                self.events.emit("skip", f"The {actor} skips its protection step.", {"character": actor})
                self.phase = "action"

            return skip
        if move.verb not in ("protect", "unprotect") or move.answer is not None:
            raise IllegalMoveError(
                f"the {self.actor} must first place or remove a protection token, or skip", options
            )
        target = move.cells[0]
        if target not in self._targets(move.verb):
            raise self._refuse(move, self._why_not(move.verb, target), options)
        name = self._name(target)

        def run() -> None:
            if move.verb == "protect":
                self.tokens[name].add("protection")
                text = f"The {self.actor} places a protection token on {self._at(name)}."
            else:
                self.tokens[name].discard("protection")
                text = f"The {self.actor} removes the protection token from {self._at(name)}."
            self.events.emit(move.verb, text, {"cell": cell_name(target), "suspect": name})
            self.phase = "action"

        return run

    def _plan_threat(self, move: Move) -> Plan:
        targets = self._targets("threat")
        lo, hi = self.limits.threats_min, self.limits.threats_max
        options = [f"threat {cell_name(c)}" for c in targets]
        if move.verb != "threat":
            raise IllegalMoveError(f"the {self.actor} must place {lo} to {hi} threat tokens now", options)
        if len(set(move.cells)) != len(move.cells):
            raise self._refuse(move, "a cell is named twice (a card carries at most one threat)", options)
        if not lo <= len(move.cells) <= hi:
            raise self._refuse(move, f"place {lo} to {hi} threat tokens", options)
        for c in move.cells:
            if c not in targets:
                raise self._refuse(move, self._why_not("threat", c), options)

        def run() -> None:
            names = [self._name(c) for c in move.cells]
            for n in names:
                self.tokens[n].add("threat")
            self.events.emit(
                "threat",
                f"The {self.actor} places threat tokens on {', '.join(self._at(n) for n in names)}.",
                {"cells": [cell_name(c) for c in move.cells], "suspects": names},
            )
            self.pending.append(EndTurn())

        return run

    # -- the turn's action ---------------------------------------------------------------------
    def _plan_action(self, move: Move) -> Plan:
        actor = self.actor
        allowed = self.action_verbs()
        if move.verb not in allowed:
            raise IllegalMoveError(
                f"the {actor} cannot {move.verb} now; its actions: {', '.join(allowed)}",
                [self._form(v) for v in allowed],
            )
        if move.verb == "shift":
            if move in self._shifts():
                return lambda: self._do_shift(move)
            if abs(move.delta or 0) not in self.roles[actor].shifts:
                raise self._refuse(move, f"the {actor} shifts by {' or '.join(map(str, self.roles[actor].shifts))}",
                                   [self._form("shift")])
            assert self._reverse_banned(move)
            raise self._refuse(move, f"it would undo the last shift ({move_name(self.last_shift)})"  # type: ignore[arg-type]
                               , ["any other shift"])
        if move.verb in ("masquerade", "inspect"):
            if not self._deck_can_draw():
                held = " and evidence cards" if self.hand else ""
                raise self._refuse(move, "the identity deck is empty, and a rebuilt deck might hold no card: "
                                   f"there are no more living suspects than identities{held}", [])
            return self._do_masquerade if move.verb == "masquerade" else self._do_inspect
        if move.verb == "evidence":
            name = self._suspect_ref(move, self._evidence_cards())
            return lambda: self._do_evidence(name)
        if move.verb == "swap":
            a, b = move.cells
            if not grid.adjacent(a, b):
                raise self._refuse(move, "the two cards must be next to each other (8 neighbours)", [])
            return lambda: self._do_swap(a, b)
        if move.answer is not None:
            raise IllegalMoveError(
                f"{move_name(move)}: no {move.verb} question is pending; it answers the interrupt only",
                [FORMS[move.verb]],
            )
        return self._plan_targeted(move)

    def _plan_targeted(self, move: Move) -> Plan:
        """An action of the legality table: accepted when its cells are a generated move's (the
        token, when the card has several, named or asked for); refused in the table's words."""
        rule = self._rule(move.verb)
        *before, target = move.cells
        source = before[0] if before else None
        if source is None:
            legal = target in self._targets(move.verb)
        else:
            legal = self._meets(rule.source, source) and target in self._reachable(rule, source)
        if not legal:
            raise self._refuse(move, self._why_not(move.verb, target, source), self.action_options(move.verb))
        if not rule.tokens:
            return lambda: self._do_target(move.verb, target)
        holder = target if source is None else source
        token = self._which_token(move, holder, rule.tokens, self.action_options(move.verb))
        if source is None:
            return lambda: self._do_defuse(target, token)
        return lambda: self._do_prepare(source, target, token)

    # -- effects of actions ----------------------------------------------------------------------
    def _after_move(self) -> None:
        """After a shift or swap: the Maniac's threat step, or the end of the turn."""
        if "threats-after-move" in self.roles[self.actor].steps:
            self.pending.append(ThreatStep())
        else:
            self.pending.append(EndTurn())

    def _do_shift(self, move: Move) -> None:
        assert move.index is not None and move.delta is not None
        if move.line == "row":
            self.grid[move.index] = grid.shifted(self.grid[move.index], move.delta)
        else:
            column = grid.shifted([row[move.index] for row in self.grid], move.delta)
            for r, name in enumerate(column):
                self.grid[r][move.index] = name
        self._index_positions()
        self.last_shift = move
        self.events.emit("shift", f"The {self.actor} shifts: {move_name(move)}.",
                         {"line": move.line, "index": move.index, "delta": move.delta})
        self._after_move()

    def _do_swap(self, a: Cell, b: Cell) -> None:
        na, nb = self._name(a), self._name(b)
        self.grid[a[0]][a[1]], self.grid[b[0]][b[1]] = nb, na
        self._index_positions()
        self.events.emit("swap", f"The {self.actor} swaps {na} and {nb}: {na} now at {cell_name(b)}, "
                         f"{nb} now at {cell_name(a)}.", {"cells": [cell_name(a), cell_name(b)]})
        self._after_move()

    def _do_masquerade(self) -> None:
        actor = self.actor
        card = self._draw_card()
        self.events.emit("masquerade", f"The {actor} masquerades: draws the top identity card.",
                         {"character": actor, "deck": len(self.deck)})
        if self.status[card] == ALIVE:
            self.discard.append(self.identity[actor])
            old = self.identity[actor]
            self.identity[actor] = card
            self.events.emit("masquerade-draw", f"The {actor} drew {self._at(card)}, alive: it is the new "
                             f"identity; {self._at(old)} stays on the board as a citizen.",
                             {"drawn": card, "adopted": True, "old": old}, to=[self.seat_of[actor]])
        else:
            self.discard.append(card)
            self.events.emit("masquerade-draw", f"The {actor} drew {self._at(card)}, {self.status[card]}: "
                             "discarded; the identity is unchanged.",
                             {"drawn": card, "adopted": False}, to=[self.seat_of[actor]])
        self.pending.append(EndTurn())

    def _do_inspect(self) -> None:
        cards = [self._draw_card()]
        while len(cards) < self.limits.inspect_cards and self.deck:
            cards.append(self.deck.pop(0))
        self.inspecting = cards
        self.phase = "keep"
        self.events.emit("inspect", f"The {self.actor} inspects the top of the identity deck.",
                         {"count": len(cards)})
        self.events.emit("inspect-look", f"The {self.actor} sees {', '.join(self._at(n) for n in cards)}.",
                         {"cards": list(cards)}, to=[self.seat_of[self.actor]])

    def _do_defuse(self, target: Cell, token: str) -> None:
        name = self._name(target)
        self.tokens[name].discard(token)
        self.events.emit("defuse", f"The {self.actor} removes the {token} from {self._at(name)}.",
                         {"cell": cell_name(target), "suspect": name, "token": token})
        self.pending.append(EndTurn())

    def _do_prepare(self, src: Cell, dst: Cell, token: str) -> None:
        a, b = self._name(src), self._name(dst)
        self.tokens[a].discard(token)
        self.tokens[b].add(token)
        self.events.emit("prepare", f"The {self.actor} moves the {token} from {self._at(a)} to {self._at(b)}.",
                         {"from": cell_name(src), "to": cell_name(dst), "token": token})
        self.pending.append(EndTurn())

    def _do_evidence(self, name: str) -> None:
        self.cleared.append(name)
        self.events.emit("evidence", f"The {self.actor} reveals evidence: {self._at(name)} is cleared (innocent).",
                         {"suspect": name, "cell": cell_name(self.pos[name])})
        self.pending.append(EndTurn())

    def _do_target(self, verb: str, target: Cell) -> None:
        actor = self.actor
        name = self._name(target)
        if verb == "arrest":
            self.events.emit("arrest-attempt", f"The {actor} tries to arrest {self._at(name)}.",
                             {"cell": cell_name(target), "suspect": name})
            if self._mafia_identity(name):
                self._arrest_now(name)
            else:
                self.events.emit("arrest-failed", f"The arrest fails: {name} is not a Mafia identity.",
                                 {"suspect": name})
        elif verb == "autopsy":
            mafia = sorted(
                c for c in self.characters if self.team[c] == "mafia"
                and grid.adjacent(self.pos[self.identity[c]], target)
            )
            self.autopsies.append({"suspect": name, "cell": cell_name(target), "turn": self.turn_number,
                                   "mafia_adjacent": mafia})
            self.events.emit("autopsy", f"The {actor} performs an autopsy on {self._at(name)}.",
                             {"cell": cell_name(target), "suspect": name})
            found = ", ".join(mafia) if mafia else "no Mafia character"
            self.events.emit("autopsy-result", f"Autopsy of {self._at(name)}: {found} has an identity adjacent to it.",
                             {"suspect": name, "mafia_adjacent": mafia}, to=[self.seat_of[actor]])
        elif verb in ("kill", "shoot"):
            self.events.emit(f"{verb}-attempt", f"The {actor} {'attacks' if verb == 'kill' else 'shoots at'} {self._at(name)}.",
                             {"cell": cell_name(target), "suspect": name})
            self.pending.append(Kill(name, f"the {actor}"))
        elif verb == "plant":
            self.tokens[name].add("bomb")
            self.events.emit("plant", f"The {actor} plants a bomb on {self._at(name)}.",
                             {"cell": cell_name(target), "suspect": name})
        elif verb == "detonate":
            self.events.emit("detonate", f"The {actor} detonates the bomb on {self._at(name)}.",
                             {"cell": cell_name(target), "suspect": name})
            self.pending.append(Explode(name))
        self.pending.append(EndTurn())

    # ---------------------------------------------------------------------------- enumeration
    def legal_inputs(self, seat: str) -> list[str]:
        if self.result is not None:
            return []
        out: list[str] = []
        awaited = self.awaiting()[0]
        if seat == awaited.seat:
            kind = awaited.kind
            if kind in ("protect", "detonate"):
                out = [f"{kind} yes", f"{kind} no"]
            elif kind == "keep":
                out = [f"keep {cell_name(self.pos[n])}" for n in self.inspecting]
            elif kind == "protection":
                out = self._protection_options()
            elif kind == "threat":
                out = [move_name(m) for m in self._threat_moves()]
            else:
                for verb in self.action_verbs():
                    out.extend(self.action_options(verb))
        return out + ["surrender"]

    # ---------------------------------------------------------------------------- views
    def score(self) -> dict[str, Any]:
        return {
            "arrests": self.arrests, "arrests_to_win": self.mode.win_arrests,
            "kills": self.kills, "kills_to_win": self.mode.win_kills,
        }

    def view(self, seat: str) -> dict[str, Any]:
        mine = self.characters_of(seat)
        board = []
        for cell in grid.cells(self.size):
            name = self._name(cell)
            board.append({
                "cell": cell_name(cell), "suspect": name, "status": self.status[name],
                "tokens": [t for t in TOKENS if t in self.tokens[name]],
                "cleared": name in self.cleared,
            })
        v: dict[str, Any] = {
            "game": "fbi-mafia", "mode": self.mode.name, "seat": seat, "size": self.size,
            "turn": self.turn_number, "acting": self.actor, "phase": self.phase,
            "awaiting": [a.as_dict() for a in self.awaiting()],
            "score": self.score(), "board": board, "deck": len(self.deck),
            "cleared": list(self.cleared),
            "last_shift": move_name(self.last_shift) if self.last_shift else None,
            "identities": {c: {"suspect": self.identity[c], "cell": cell_name(self.pos[self.identity[c]])}
                           for c in mine},
            "result": self.result.as_dict() if self.result else None,
        }
        if self.result is not None:
            v["identities"] = {c: {"suspect": self.identity[c], "cell": cell_name(self.pos[self.identity[c]])}
                               for c in self.characters}
        if any("evidence" in self.roles[c].actions for c in mine):
            v["hand"] = list(self.hand)
        if any("inspect" in self.roles[c].actions for c in mine):
            v["kept"] = list(self.kept)
            v["inspecting"] = list(self.inspecting)
        if any("autopsy" in self.roles[c].actions for c in mine):
            v["autopsies"] = [dict(a) for a in self.autopsies]
        if seat == HOST:
            v["deck_order"] = list(self.deck)
            v["discard"] = list(self.discard)
        return v

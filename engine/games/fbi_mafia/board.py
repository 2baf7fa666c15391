"""What lies on the table in one FBI vs Mafia game, and the plain facts read from it: the
suspects' grid, their status and tokens, the characters with their seats and secret identities,
the identity deck as dealt, and where the turn stands. Nothing here decides a rule.

This is the lowest layer of ``FbiMafiaState``; each layer above adds one job and uses only the
layers below it: ``deck`` (identities and the deck), ``legality`` (the legality table and move
generation), ``effects`` (turns and the resolution of effects), ``inputs`` (each input validated
into a plan) and ``state`` (setup, inputs, views).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import contains
from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.events import HOST, EventLog
from arbiter.engine.game import GameState, Result
from arbiter.engine.games.fbi_mafia.data import GameData, Limits, ModeSpec, RoleSpec
from arbiter.engine.games.fbi_mafia.grid import NAMES, Cell
from arbiter.engine.games.fbi_mafia.moves import Move

ALIVE, DEAD, ARRESTED = "alive", "dead", "arrested"


@dataclass(frozen=True)
class Prompt:
    """An interrupt: ``character``'s seat must answer ``kind`` about ``suspect``."""

    kind: str  # "protect" or "detonate"
    character: str
    suspect: str
    cause: str


class BoardLayer(GameState):
    """The cards on the table and the facts about them (the first layer of ``FbiMafiaState``)."""

    # The facts fixed for the whole game are slots: the state's other attributes stay few enough
    # (under 30) for Python to keep their names shared by every game, which makes each attribute
    # and method of the state quicker to find (a quarter of the time), and the game is mostly that.
    # (What an input may change stays in the instance's dictionary, the contract's snapshot.)
    __slots__ = ("mode", "limits", "roles", "size", "characters", "team", "seats", "seat_of", "suspects", "_mates")

    def __init__(self, data: GameData, mode: ModeSpec, chance: Chance, events: EventLog) -> None:
        """Lay out the table: seats, the shuffled board and the shuffled identity deck (nothing
        is dealt yet, nothing is announced)."""
        self.mode = mode
        self.limits: Limits = data.limits
        self.roles: dict[str, RoleSpec] = {c: data.roles[c] for c in mode.turn_order}
        self.size = mode.board
        self.characters = mode.turn_order
        self.team = {c: self.roles[c].team for c in self.characters}
        if mode.seating == "standard":
            self.seats = tuple(self.characters)
            self.seat_of = {c: c for c in self.characters}
        else:
            self.seats = tuple(dict.fromkeys(self.team[c] for c in self.characters))
            self.seat_of = dict(self.team)
        self._mates = {c: tuple(o for o in self.characters if o != c and self.seat_of[o] == self.seat_of[c])
                       for c in self.characters}  # the others each character's seat plays
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
        self.actor = self.characters[0]  # the acting character: characters[turn_index], kept with it
        self.turn_number = 1
        self.phase = "action"
        self.pending: list[Any] = []  # of effects (``effects.Effect``)
        self.prompt: Prompt | None = None
        self.last_shift: Move | None = None
        self.result: Result | None = None

    def _index_positions(self) -> None:
        self.pos = {name: (r, c) for r, row in enumerate(self.grid) for c, name in enumerate(row)}

    def _at(self, name: str) -> str:
        """``name (cell)``: a suspect as events and refusals name it."""
        r, c = self.pos[name]
        return f"{name} ({NAMES[r][c]})"

    def _name(self, cell: Cell) -> str:
        return self.grid[cell[0]][cell[1]]

    def _holder(self, action: str) -> str | None:
        """The first character, in turn order, with the action ``action``, if any."""
        return next((c for c in self.characters if action in self.roles[c].actions), None)

    def _with_step(self, step: str) -> str | None:
        """The first character, in turn order, with the step ``step``, if any."""
        return next((c for c in self.characters if step in self.roles[c].steps), None)

    def _me(self, character: str | None = None) -> Cell:
        return self.pos[self.identity[character or self.actor]]

    def owner(self, name: str) -> str | None:
        """The character whose identity ``name`` is, if any."""
        for c, identity in self.identity.items():  # (drawn in turn order: the characters' order)
            if identity == name:
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
        """How many cards carry ``token`` (counted without a Python loop: every protection step asks)."""
        return sum(map(contains, self.tokens.values(), repeat(token)))  # (every suspect has its set)

    def characters_of(self, seat: str) -> list[str]:
        if seat == HOST:
            return list(self.characters)
        return [c for c in self.characters if self.seat_of[c] == seat]

    def _known_team_cells(self) -> dict[Cell, str]:
        """The cells of the identities the actor's seat knows to be its own team's, other than
        the actor's: the whole team in Duel, nobody in Standard (teammates do not know each
        other, so no legality may depend on where they are)."""
        mates = self._mates[self.actor]
        return {self._me(c): c for c in mates} if mates else {}

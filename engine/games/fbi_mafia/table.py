"""The legality table: where each verb may aim and what its target must be, written once
(``RULES``), and what it fixes for a whole game, worked out once rather than at each input (the
cells within each reach from each cell, each character's verbs, shifts and rules:
``ActorFacts``). Plain data and pure functions; the ``legality`` layer asks them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations
from math import comb
from typing import Literal

from arbiter.engine.game import slotted_state
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.board import ALIVE, DEAD
from arbiter.engine.games.fbi_mafia.data import Limits, RoleSpec
from arbiter.engine.games.fbi_mafia.grid import Cell
from arbiter.engine.games.fbi_mafia.moves import TOKENS, Move, kept


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

    shape: Literal["around", "adjacent", "line", "diagonal", "anywhere"]
    where: str
    limit: str | None = None
    first: int = 1

    def cells(self, origin: Cell, size: int, limits: Limits) -> tuple[Cell, ...]:
        """The cells within reach, in reading order."""
        match self.shape:
            case "around":
                return _around(origin, size)
            case "adjacent":
                return grid.neighbours(origin, size)
            case "line":
                return grid.orthogonal(origin, size, getattr(limits, self.limit), self.first == 0)  # type: ignore[arg-type]
            case "diagonal":
                return grid.diagonal(origin, size, getattr(limits, self.limit))  # type: ignore[arg-type]
            case "anywhere":
                return grid.cells(size)
        raise ValueError(f"unknown reach {self.shape!r}")

    def reach(self, limits: Limits) -> int:
        assert self.limit is not None
        return int(getattr(limits, self.limit))


@dataclass(frozen=True)
class Card:
    """A test of the card on a cell, written as data: its status is ``status`` (when set), it
    carries one of the tokens ``some`` (when set) and none of ``none``, and (``stranger``) it is
    not the identity of a teammate the actor's seat knows. The legality layer asks it of a whole
    list of cells at once (``_sift``) or of one cell (``_meets``), from these fields alone."""

    status: str | None = None
    some: frozenset[str] = frozenset()
    none: frozenset[str] = frozenset()
    stranger: bool = False
    fields: tuple[str | None, frozenset[str], frozenset[str], bool] = field(init=False, repr=False, compare=False)
    """The four, as one tuple (read at once by ``_meets``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", (self.status, self.some, self.none, self.stranger))


@dataclass(frozen=True)
class Need:
    """What a target card must be (``card``), and the refusal when it is not."""

    card: Card
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
    sieve: tuple[Need, ...] = field(init=False, repr=False, compare=False)
    """``needs`` in the order a listing asks them of its cells: those few cards meet (carrying a
    token) first, so that the others are asked of fewer cells (the order changes no answer)."""

    fused: tuple[str | None, frozenset[str], frozenset[str], bool] | None = field(init=False, repr=False, compare=False)
    """``needs`` as one test of ``Card``'s fields (``_fuse``), or None when they do not make one."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sieve", tuple(sorted(self.needs, key=lambda need: not need.card.some)))
        object.__setattr__(self, "fused", _fuse(self.needs))


def _fuse(needs: tuple[Need, ...]) -> tuple[str | None, frozenset[str], frozenset[str], bool] | None:
    """The needs as the fields of one ``Card`` that a card meets when it meets each of them
    (the status wanted, one set of tokens of which it carries some, the tokens it carries none
    of, and whether it is a stranger), or None when they do not make one (two statuses, or two
    sets of tokens to carry some of)."""
    wants = {need.card.status for need in needs if need.card.status is not None}
    somes = [need.card.some for need in needs if need.card.some]
    if len(wants) > 1 or len(somes) > 1:
        return None
    return (next(iter(wants), None), somes[0] if somes else frozenset(),
            frozenset().union(*[need.card.none for need in needs]), any(need.card.stranger for need in needs))


# The tests of the needs (read from the card on a cell: ``state.grid``, as ``_name`` does).
living = Card(status=ALIVE)
dead = Card(status=DEAD)
not_known_teammate = Card(stranger=True)
"""The card is not the identity of a teammate the actor's seat knows (Duel)."""


def carrying(*tokens: str) -> Card:
    """The card carries one of ``tokens``."""
    return Card(some=frozenset(tokens))


def free_of(*tokens: str) -> Card:
    """The card carries none of ``tokens``."""
    return Card(none=frozenset(tokens))


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
    Rule("kill", ADJACENT, (ALIVE_CARD, Need(not_known_teammate, "{cell} is the {teammate}'s identity: the Mafia "
                                              "never kills its own team"))),
    Rule("shoot", SNIPER_DIAGONAL, (ALIVE_CARD, Need(not_known_teammate, "{cell} is the {teammate}'s identity: the "
                                                      "Mafia never shoots its own team"))),
    Rule("plant", AROUND, (ALIVE_CARD, Need(free_of("bomb"), "{at} already carries bomb"))),
    Rule("detonate", ANYWHERE, (ALIVE_CARD, Need(carrying("bomb"), "{at} carries no bomb"))),
    Rule("autopsy", ADJACENT, (Need(dead, "{at} is not dead"),)),
    # (A dead or arrested card carries no token: every kill and arrest strips them.)
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


@cache
def _around(origin: Cell, size: int) -> tuple[Cell, ...]:
    """``origin`` and its neighbours, in reading order."""
    return tuple(sorted([origin, *grid.neighbours(origin, size)]))


@cache
def _all_shifts(size: int, distances: tuple[int, ...]) -> tuple[Move, ...]:
    """Every shift of a board of ``size`` by ``distances``, in the order the moves are listed."""
    return tuple(kept(Move("shift", line=line, index=index, delta=sign * dist))
                 for line in ("row", "col") for index in range(size) for dist in distances for sign in (-1, 1))


@cache
def _all_swaps(size: int) -> tuple[Move, ...]:
    """Every swap of two neighbouring cards on a board of ``size``, in reading order."""
    return tuple(kept(Move("swap", cells=(a, b))) for a in grid.cells(size) for b in grid.neighbours(a, size) if a < b)


def _nth_combination(pool: list[Cell], r: int, index: int) -> tuple[Cell, ...]:
    """``list(combinations(pool, r))[index]``, made directly (the itertools documentation's
    ``nth_combination`` recipe)."""
    n = len(pool)
    c = comb(n, r)
    if not 0 <= index < c:
        raise IndexError(index)
    out = []
    while r:
        c, n, r = c * r // n, n - 1, r - 1
        while index >= c:
            index -= c
            c, n = c * (n - r) // n, n - 1
        out.append(pool[-1 - n])
    return tuple(out)


@cache
def _index_combinations(n: int, low: int, stop: int) -> tuple[tuple[int, ...], ...]:
    """The combinations of ``range(n)`` of each size of ``range(low, stop)``, size by size, as
    ``combinations`` lists them: where the threat moves take their cells from the targets
    (``_threat_moves``' order; its ``k``-th is ``_nth_combination`` of its size's)."""
    return tuple(combo for k in range(low, stop) for combo in combinations(range(n), k))


@lru_cache(maxsize=8192)
def threat_move(cells: tuple[Cell, ...]) -> Move:
    """The threat on ``cells``, made once and ``kept`` (as ``cell_move``: the Maniac's picks repeat).
    Bounded: every set of 1 to 3 cells of a 6x6 board fits (7,806), where an unbounded cache grew
    with each set ever threatened, up to 44,000 on 8x8 (21 MiB) in a long run."""
    return kept(Move("threat", cells))


@cache
def _shift_places(size: int, distances: tuple[int, ...]) -> dict[tuple[str | None, int | None, int | None], int]:
    """Where each shift of ``_all_shifts`` stands in it, by its line, index and delta (one each)."""
    return {(m.line, m.index, m.delta): i for i, m in enumerate(_all_shifts(size, distances))}


@cache
def _verbs(actions: tuple[str, ...]) -> tuple[str, ...]:
    """The words a turn action of a role with ``actions`` may start with (a shift, or one of them)."""
    return ("shift", *actions)


@cache
def _reach_tables(size: int, limits: Limits) -> dict[int, dict[Cell, tuple[Cell, ...]]]:
    """The cells within each reach of the table (by the reach's ``id``: the table's reaches are
    made once, at import), from each cell of a board of ``size``: ``Reach.cells``, worked out
    once per board and limits instead of at each input."""
    reaches = {id(rule.reach): rule.reach for rule in (*RULES.values(), LINE_ARREST)}
    return {key: {cell: reach.cells(cell, size, limits) for cell in grid.cells(size)} for key, reach in reaches.items()}


class ActorFacts:
    """What a character's role fixes for the whole game, worked out once (``_actor_facts``):
    the words its action may start with, its shifts (all of them, and where each stands), the
    table's rule of each verb (with the cells within its reach from each cell) and its steps."""

    __slots__ = ("verbs", "distances", "shifts", "places", "rules", "team", "kills_at_start",
                 "protection_first", "threats_after")
    __getstate__ = slotted_state  # (pickle's protocols 0 and 1 need it said)

    def __init__(self, role: RoleSpec, size: int, limits: Limits) -> None:
        self.verbs = _verbs(role.actions)
        self.distances = role.shifts
        self.shifts = _all_shifts(size, role.shifts)
        self.places = _shift_places(size, role.shifts)
        reach = _reach_tables(size, limits)
        rules = dict(RULES)
        if role.arrest == "line":
            rules["arrest"] = LINE_ARREST
        self.rules: dict[str, tuple[Rule, dict[Cell, tuple[Cell, ...]]]] = {
            verb: (rule, reach[id(rule.reach)]) for verb, rule in rules.items()
        }
        self.team = role.team
        self.kills_at_start = "threat-kills-at-start" in role.steps
        self.protection_first = "protection-before-action" in role.steps
        self.threats_after = "threats-after-move" in role.steps


@cache
def _actor_facts(roles: tuple[tuple[str, RoleSpec], ...], size: int, limits: Limits) -> dict[str, ActorFacts]:
    """``ActorFacts`` of each character of ``roles``, on a board of ``size`` (made once a mode)."""
    return {c: ActorFacts(role, size, limits) for c, role in roles}

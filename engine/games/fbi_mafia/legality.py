"""The legality table and move generation: where each verb may aim and what its target must be,
written once (``RULES``). The legal moves are generated from the table, an input is accepted
when it is among them, and a refusal names, in the table's words, the first condition the input
fails. A layer of ``FbiMafiaState`` over ``deck``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from math import comb
from typing import Any, Literal

from arbiter.engine.errors import AmbiguousMoveError, IllegalMoveError
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.board import ALIVE, DEAD
from arbiter.engine.games.fbi_mafia.data import Limits
from arbiter.engine.games.fbi_mafia.deck import DeckLayer
from arbiter.engine.games.fbi_mafia.grid import Cell, cell_name
from arbiter.engine.games.fbi_mafia.moves import FORMS, TOKENS, Move, bare_move, cell_move, kept, move_name


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "sieve", tuple(sorted(self.needs, key=lambda need: not need.card.some)))


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
    Rule("kill", ADJACENT, (ALIVE_CARD,)),
    Rule("shoot", SNIPER_DIAGONAL, (ALIVE_CARD,)),
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
def _shift_places(size: int, distances: tuple[int, ...]) -> dict[tuple[str | None, int | None, int | None], int]:
    """Where each shift of ``_all_shifts`` stands in it, by its line, index and delta (one each)."""
    return {(m.line, m.index, m.delta): i for i, m in enumerate(_all_shifts(size, distances))}


@cache
def _verbs(actions: tuple[str, ...]) -> tuple[str, ...]:
    """The words a turn action of a role with ``actions`` may start with (a shift, or one of them)."""
    return ("shift", *actions)


class LegalityLayer(DeckLayer):
    """The legal moves of the acting character, generated from the table, and the refusals."""

    def _rule(self, verb: str) -> Rule:
        """The table's rule of ``verb`` for the acting character."""
        if verb == "arrest" and self.roles[self.actor].arrest == "line":
            return LINE_ARREST
        return RULES[verb]

    def _in_stock(self, stock: Stock | None) -> bool:
        return stock is None or self._token_count(stock.token) < getattr(self.limits, stock.limit)

    def _meets(self, needs: tuple[Need, ...], cell: Cell) -> bool:
        """Whether the card on ``cell`` meets each of ``needs`` (``Card``'s fields, asked of it)."""
        name = self.grid[cell[0]][cell[1]]
        status, held = self.status[name], self.tokens[name]
        for need in needs:
            want, some, none, stranger = need.card.fields
            if ((want is not None and status != want) or (some and some.isdisjoint(held))
                    or (none and not none.isdisjoint(held)) or (stranger and cell in self._known_team_cells())):
                return False
        return True

    def _sift(self, needs: tuple[Need, ...], cells: Sequence[Cell]) -> list[Cell]:
        """The cells of ``cells`` whose cards meet each of ``needs``, in order: ``_meets`` of each
        cell, asked a field of ``Card`` at a time of all the cells left (each a new list)."""
        rows, status, tokens = self.grid, self.status, self.tokens
        out = cells  # each test below makes a new list
        for need in needs:
            want, some, none, stranger = need.card.fields
            if want is not None:
                out = [c for c in out if status[rows[c[0]][c[1]]] == want]
            if some:
                out = [c for c in out if not some.isdisjoint(tokens[rows[c[0]][c[1]]])]
            if none:
                out = [c for c in out if none.isdisjoint(tokens[rows[c[0]][c[1]]])]
            if stranger:
                known = self._known_team_cells()
                if known:
                    out = [c for c in out if c not in known]
        return list(out) if out is cells else out  # type: ignore[return-value]

    def _reaches(self, rule: Rule, origin: Cell, target: Cell) -> bool:
        """Whether ``target`` is in ``_reachable(rule, origin)``, without listing the others:
        the same three conditions (stock, reach, needs), asked of one cell."""
        return (target in rule.reach.cells(origin, self.size, self.limits) and self._meets(rule.needs, target)
                and (rule.stock is None or self._in_stock(rule.stock)))

    def _reachable(self, rule: Rule, origin: Cell) -> list[Cell]:
        """The legal targets of ``rule`` counted from ``origin``, in reading order."""
        if rule.stock is not None and not self._in_stock(rule.stock):
            return []
        return self._sift(rule.sieve, rule.reach.cells(origin, self.size, self.limits))

    def _any_reachable(self, rule: Rule, origin: Cell) -> bool:
        """Whether ``_reachable(rule, origin)`` holds a cell, without listing them all: the same
        conditions, asked of the cells in reach until one meets them."""
        if rule.stock is not None and not self._in_stock(rule.stock):
            return False
        needs = rule.needs
        for cell in rule.reach.cells(origin, self.size, self.limits):
            if self._meets(needs, cell):
                return True
        return False

    def _targets(self, verb: str) -> list[Cell]:
        """Cells a one-cell input of ``verb`` may target now (the actor's identity decides the range)."""
        return self._reachable(self._rule(verb), self._me())

    def _has_targets(self, verb: str) -> bool:
        """Whether ``_targets(verb)`` holds a cell, without listing them all."""
        return self._any_reachable(self._rule(verb), self._me())

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
                if not self._meets((need,), source):
                    return need.refusal.format_map(self._words(source))
        words = self._words(target)
        if target not in rule.reach.cells(origin, self.size, self.limits):
            words["source"] = cell_name(origin)
            words["reach"] = rule.reach.reach(self.limits) if rule.reach.limit else ""
            return rule.far.replace("{where}", rule.reach.where).format_map(words)
        for need in rule.needs:
            if not self._meets((need,), target):
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
        if not rule.source and not rule.tokens:  # most verbs: a move per target
            return [cell_move(verb, dst) for dst in self._targets(verb)]
        if rule.source:
            pairs = [(src, dst) for src in self._sift(rule.source, grid.cells(self.size))
                     for dst in self._reachable(rule, src)]
        else:
            pairs = [(None, dst) for dst in self._targets(verb)]
        out: list[Move] = []
        for src, dst in pairs:
            move = cell_move(verb, dst) if src is None else Move(verb, cells=(src, dst))
            if rule.tokens:
                holder = dst if src is None else src
                out.extend(self._token_variants(move, [t for t in rule.tokens if self._has(holder, t)]))
            else:
                out.append(move)
        return out

    def _evidence_cards(self) -> list[str]:
        """The Criminalist's cards it may still reveal: its hand, less those revealed."""
        return [n for n in self.hand if n not in self.cleared]

    def _undo_at(self, distances: tuple[int, ...]) -> int | None:
        """Where, in ``_all_shifts`` of the actor's ``distances``, stands the one shift that
        would undo the last shift (its line and index, the opposite way, as far), if there is
        one: the rule that a shift may not undo the last one, stated here only."""
        last = self.last_shift
        if last is None or last.delta is None:
            return None
        return _shift_places(self.size, distances).get((last.line, last.index, -last.delta))

    def _shifts(self) -> list[Move]:
        """Every legal shift of the actor: its shifts on this board (made once per board size
        and distances, ``_all_shifts``) but the one that would undo the last shift."""
        distances = self.roles[self.actor].shifts
        shifts = _all_shifts(self.size, distances)
        at = self._undo_at(distances)
        return list(shifts) if at is None else [*shifts[:at], *shifts[at + 1:]]

    def _shift_legal(self, move: Move) -> bool:
        """Whether ``move`` is in ``_shifts()``, without listing them: one of the board's shifts
        (found by its line, index and delta) that does not undo the last shift."""
        distances = self.roles[self.actor].shifts
        at = _shift_places(self.size, distances).get((move.line, move.index, move.delta))
        if at is None:
            return False
        shift = _all_shifts(self.size, distances)[at]
        return (shift is move or shift == move) and at != self._undo_at(distances)

    def action_verbs(self) -> tuple[str, ...]:
        """The words the acting character's turn action may start with."""
        return _verbs(self.roles[self.actor].actions)

    def action_options(self, verb: str) -> list[str]:
        """Every legal action input starting with ``verb`` for the acting character now."""
        return [move_name(m) for m in self.action_moves(verb)]

    def action_choice(self, verb: str, pick: Callable[[int], int]) -> Move | None:
        """``action_moves(verb)[pick(len(action_moves(verb)))]`` (a bot's pick), without making
        the list where its moves are at hand: the board's shifts but the banned one, its swaps,
        a move per target; None, and ``pick`` not asked, when there is none."""
        if verb == "shift":
            distances = self.roles[self.actor].shifts
            shifts = _all_shifts(self.size, distances)
            at = self._undo_at(distances)
            if at is None:
                return shifts[pick(len(shifts))]
            k = pick(len(shifts) - 1)
            return shifts[k + 1 if k >= at else k]
        if verb == "swap":
            swaps = _all_swaps(self.size)
            return swaps[pick(len(swaps))]
        if verb in RULES:  # as action_moves lists them: the table's verbs by _rule_moves
            rule = self._rule(verb)
            if not rule.source and not rule.tokens:  # as _rule_moves lists them: a move per target
                targets = self._targets(verb)
                return cell_move(verb, targets[pick(len(targets))]) if targets else None
        moves = self.action_moves(verb)
        return moves[pick(len(moves))] if moves else None

    def action_moves(self, verb: str) -> list[Move]:
        """Every legal move of ``verb`` for the actor now."""
        if verb == "shift":
            return self._shifts()
        if verb in ("masquerade", "inspect"):
            return [bare_move(verb)] if self._deck_can_draw() else []
        if verb == "evidence":
            return [cell_move(verb, self.pos[n]) for n in self._evidence_cards()]
        if verb == "swap":
            return list(_all_swaps(self.size))
        return self._rule_moves(verb)

    def _threat_moves(self) -> list[Move]:
        """Every legal input of the Maniac's threat step: the allowed number of distinct targets."""
        targets = self._targets("threat")
        return [Move("threat", cells=combo)
                for k in self._threat_sizes(len(targets)) for combo in combinations(targets, k)]

    def _threat_sizes(self, targets: int) -> range:
        """How many distinct cells a threat input may name, with ``targets`` cells to threaten."""
        return range(max(self.limits.threats_min, 1), min(self.limits.threats_max, targets) + 1)

    def threat_choice(self, pick: Callable[[int], int]) -> Move | None:
        """``_threat_moves()[pick(len(_threat_moves()))]`` without listing them all (a bot's
        pick: there are up to n + C(n, 2) + C(n, 3) of them); None, and ``pick`` not asked,
        when there is none."""
        targets = self._targets("threat")
        sizes = self._threat_sizes(len(targets))
        total = sum([comb(len(targets), k) for k in sizes])
        if not total:
            return None
        index = pick(total)
        for k in sizes:
            if index < comb(len(targets), k):
                return Move("threat", cells=_nth_combination(targets, k, index))
            index -= comb(len(targets), k)
        raise IndexError(f"threat move {index} of {total}")

    def _form(self, verb: str) -> str:
        """The accepted form of ``verb`` for the acting character (its own shift distances)."""
        if verb == "shift":
            shifts = self.roles[self.actor].shifts
            dist = " [" + "|".join(map(str, shifts)) + "]" if len(shifts) > 1 else ""
            return f"shift row N left|right{dist}  or  shift col X up|down{dist}"
        return FORMS[verb]

    def _protection_moves(self) -> list[Move]:
        """Every input of the Operative's protection step: place, remove, or skip (the source's
        "or skip": always allowed)."""
        places, removals = self._targets("protect"), self._targets("unprotect")
        return ([cell_move("protect", c) for c in places] + [cell_move("unprotect", c) for c in removals]
                + [bare_move("skip")])

    def protection_choice(self, pick: Callable[[int], int]) -> Move:
        """One of ``_protection_moves()``, by ``pick`` of their number (a bot's pick)."""
        moves = self._protection_moves()
        return moves[pick(len(moves))]

    def _protection_options(self) -> list[str]:
        return [move_name(m) for m in self._protection_moves()]

    @staticmethod
    def _token_variants(move: Move, kinds: list[str]) -> list[Move]:
        """``move`` as a player writes it: without a token when the cell has one kind, else once
        per kind, naming it."""
        if len(kinds) == 1:
            return [move]
        return [Move(move.verb, cells=move.cells, token=t) for t in kinds]

    def _which_token(self, move: Move, cell: Cell, allowed: tuple[str, ...], options: Callable[[], list[str]]) -> str:
        """The token ``move`` means on ``cell``: the one named, or the only one of ``allowed``
        there; ambiguous when the cell has several and none is named (a refusal lists
        ``options()``)."""
        kinds = [t for t in allowed if self._has(cell, t)]
        if move.token is None:
            if len(kinds) > 1:
                raise AmbiguousMoveError(
                    f"{move_name(move)}: {cell_name(cell)} carries {' and '.join(kinds)}; say which",
                    [move_name(m) for m in self._token_variants(move, kinds)],
                )
            return kinds[0]
        if move.token not in kinds:
            raise self._refuse(move, f"{cell_name(cell)} carries no {move.token}", options())
        return move.token

    def _refuse(self, move: Move, why: str, options: list[str]) -> IllegalMoveError:
        return IllegalMoveError(f"{move_name(move)}: {why}", options or ["(none now)"])

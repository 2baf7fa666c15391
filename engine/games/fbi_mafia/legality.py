"""The legality table and move generation: where each verb may aim and what its target must be,
written once (``RULES``). The legal moves are generated from the table, an input is accepted
when it is among them, and a refusal names, in the table's words, the first condition the input
fails. A layer of ``FbiMafiaState`` over ``deck``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from arbiter.engine.errors import AmbiguousMoveError, IllegalMoveError
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.deck import DeckLayer
from arbiter.engine.games.fbi_mafia.grid import Cell, cell_name
from arbiter.engine.games.fbi_mafia.moves import FORMS, Move, bare_move, cell_move, move_name
from arbiter.engine.games.fbi_mafia.table import (
    Need, Reach, Rule, Stock, _actor_facts, _all_swaps, _index_combinations, _reach_tables, _shift_places, threat_move,
)
from arbiter.engine.games.fbi_mafia.table import RULES, _all_shifts, _nth_combination  # noqa: F401  (read here too)

# The legality table itself (``RULES``: where each verb may aim and what its target must be) is
# in ``table``, with what it fixes for a whole game; this layer asks it of the cards.


class LegalityLayer(DeckLayer):
    """The legal moves of the acting character, generated from the table, and the refusals."""

    __slots__ = ("_facts", "_reach", "_lines", "_operative")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._facts = _actor_facts(tuple(self.roles.items()), self.size, self.limits)
        self._reach = _reach_tables(self.size, self.limits)
        self._lines = grid.line_cells(self.size)
        self._operative = self._with_step("protection-before-action")

    def _rule(self, verb: str) -> Rule:
        """The table's rule of ``verb`` for the acting character."""
        return self._facts[self.actor].rules[verb][0]

    def _in_reach(self, reach: Reach, origin: Cell) -> tuple[Cell, ...]:
        """``reach.cells(origin, self.size, self.limits)``, read from ``_reach_tables``."""
        try:
            return self._reach[id(reach)][origin]
        except KeyError:
            return reach.cells(origin, self.size, self.limits)

    def _in_stock(self, stock: Stock | None) -> bool:
        return stock is None or self._token_count(stock.token) < getattr(self.limits, stock.limit)

    def _meets(self, needs: tuple[Need, ...], cell: Cell) -> bool:
        """Whether the card on ``cell`` meets each of ``needs`` (``Card``'s fields, asked of it)."""
        name = self.grid[cell[0]][cell[1]]
        status, held = self.status[name], self.tokens[name]
        for need in needs:
            want, some, none, stranger = need.card.fields
            if ((want is not None and status != want) or (some and some.isdisjoint(held))
                    or (none and not none.isdisjoint(held))
                    or (stranger and self._mates[self.actor] and cell in self._known_team_cells())):
                return False
        return True

    def _sift_rule(self, rule: Rule, cells: Sequence[Cell]) -> list[Cell]:
        """``_sift(rule.sieve, cells)``, asked of each cell in one pass where the needs make one
        test (``Rule.fused``; the same cells, in the same order)."""
        fused = rule.fused
        if fused is None:
            return self._sift(rule.sieve, cells)
        want, some, none, stranger = fused
        rows, status, tokens = self.grid, self.status, self.tokens
        if want is not None and not some:
            if none:
                out = [c for c in cells if status[n := rows[c[0]][c[1]]] == want and none.isdisjoint(tokens[n])]
            else:
                out = [c for c in cells if status[rows[c[0]][c[1]]] == want]
        elif want is not None and some and not none:
            out = [c for c in cells if not some.isdisjoint(tokens[n := rows[c[0]][c[1]]]) and status[n] == want]
        elif want is None and some and not none:
            out = [c for c in cells if not some.isdisjoint(tokens[rows[c[0]][c[1]]])]
        else:
            return self._sift(rule.sieve, cells)
        if stranger:
            known = self._known_team_cells()
            if known:
                out = [c for c in out if c not in known]
        return out

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

    def _meets_rule(self, rule: Rule, cell: Cell) -> bool:
        """``_meets(rule.needs, cell)``, asked as one test where the needs make one (``Rule.fused``)."""
        fused = rule.fused
        if fused is None:
            return self._meets(rule.needs, cell)
        want, some, none, stranger = fused
        name = self.grid[cell[0]][cell[1]]
        held = self.tokens[name]
        return ((want is None or self.status[name] == want) and (not some or not some.isdisjoint(held))
                and (not none or none.isdisjoint(held))
                and not (stranger and self._mates[self.actor] and cell in self._known_team_cells()))

    def _reaches(self, rule: Rule, origin: Cell, target: Cell) -> bool:
        """Whether ``target`` is in ``_reachable(rule, origin)``, without listing the others:
        the same three conditions (stock, reach, needs), asked of one cell."""
        return (target in self._in_reach(rule.reach, origin) and self._meets_rule(rule, target)
                and (rule.stock is None or self._in_stock(rule.stock)))

    def _reachable(self, rule: Rule, origin: Cell) -> list[Cell]:
        """The legal targets of ``rule`` counted from ``origin``, in reading order."""
        if rule.stock is not None and not self._in_stock(rule.stock):
            return []
        return self._sift_rule(rule, self._in_reach(rule.reach, origin))

    def _any_reachable(self, rule: Rule, origin: Cell) -> bool:
        """Whether ``_reachable(rule, origin)`` holds a cell, without listing them all: the same
        conditions, asked of the cells in reach until one meets them."""
        if rule.stock is not None and not self._in_stock(rule.stock):
            return False
        needs = rule.needs
        for cell in self._in_reach(rule.reach, origin):
            if self._meets(needs, cell):
                return True
        return False

    def _targets(self, verb: str) -> list[Cell]:
        """Cells a one-cell input of ``verb`` may target now (the actor's identity decides the range)."""
        rule, reach = self._facts[self.actor].rules[verb]
        if rule.stock is not None and not self._in_stock(rule.stock):
            return []
        return self._sift_rule(rule, reach[self.pos[self.identity[self.actor]]])

    def _has_targets(self, verb: str) -> bool:
        """Whether ``_targets(verb)`` holds a cell, without listing them all."""
        rule, reach = self._facts[self.actor].rules[verb]
        if rule.stock is not None and not self._in_stock(rule.stock):
            return False
        meets = self._meets_rule
        for cell in reach[self.pos[self.identity[self.actor]]]:
            if meets(rule, cell):
                return True
        return False

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
        facts = self._facts[self.actor]
        shifts = facts.shifts
        at = self._undo_at(facts.distances)
        return list(shifts) if at is None else [*shifts[:at], *shifts[at + 1:]]

    def _shift_legal(self, move: Move) -> bool:
        """Whether ``move`` is in ``_shifts()``, without listing them: one of the board's shifts
        (found by its line, index and delta) that does not undo the last shift."""
        facts = self._facts[self.actor]
        at = facts.places.get((move.line, move.index, move.delta))
        if at is None:
            return False
        shift = facts.shifts[at]
        if not (shift is move or shift == move):
            return False
        last = self.last_shift  # at != _undo_at(distances), read at once
        return last is None or last.delta is None or at != facts.places.get((last.line, last.index, -last.delta))

    def action_verbs(self) -> tuple[str, ...]:
        """The words the acting character's turn action may start with."""
        return self._facts[self.actor].verbs

    def action_options(self, verb: str) -> list[str]:
        """Every legal action input starting with ``verb`` for the acting character now."""
        return [move_name(m) for m in self.action_moves(verb)]

    def action_choice(self, verb: str, pick: Callable[[int], int]) -> Move | None:
        """``action_moves(verb)[pick(len(action_moves(verb)))]`` (a bot's pick), without making
        the list where its moves are at hand: the board's shifts but the banned one, its swaps,
        a move per target; None, and ``pick`` not asked, when there is none."""
        facts = self._facts[self.actor]
        if verb == "shift":
            shifts = facts.shifts
            last = self.last_shift  # at = _undo_at(facts.distances), read at once
            at = None if last is None or last.delta is None else facts.places.get((last.line, last.index, -last.delta))
            if at is None:
                return shifts[pick(len(shifts))]
            k = pick(len(shifts) - 1)
            return shifts[k + 1 if k >= at else k]
        if verb == "swap":
            swaps = _all_swaps(self.size)
            return swaps[pick(len(swaps))]
        found = facts.rules.get(verb)
        if found is not None:  # as action_moves lists them: the table's verbs by _rule_moves
            rule = found[0]
            if not rule.source and not rule.tokens:  # as _rule_moves lists them: a move per target
                if rule.stock is not None and not self._in_stock(rule.stock):  # _targets(verb), read at once
                    return None
                targets = self._sift_rule(rule, found[1][self.pos[self.identity[self.actor]]])
                return cell_move(verb, targets[pick(len(targets))]) if targets else None
            if not rule.source:  # a move per token kind on each target (defuse), as _rule_moves lists them
                if rule.stock is not None and not self._in_stock(rule.stock):
                    return None
                rows, tokens = self.grid, self.tokens
                variants = [(dst, kinds) for dst in self._sift_rule(rule, found[1][self.pos[self.identity[self.actor]]])
                            if (kinds := [t for t in rule.tokens if t in tokens[rows[dst[0]][dst[1]]]])]
                total = sum([len(kinds) for _, kinds in variants])  # (_token_variants: one move a kind)
                if not total:
                    return None
                index = pick(total)
                for dst, kinds in variants:
                    if index < len(kinds):
                        return cell_move(verb, dst) if len(kinds) == 1 else Move(verb, cells=(dst,), token=kinds[index])
                    index -= len(kinds)
                raise IndexError(index)
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
        combos = _index_combinations(len(targets), sizes.start, sizes.stop)
        if not combos:
            return None
        return threat_move(tuple(map(targets.__getitem__, combos[pick(len(combos))])))

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
        """One of ``_protection_moves()``, by ``pick`` of their number (a bot's pick), made
        without listing the others."""
        places, removals = self._targets("protect"), self._targets("unprotect")
        index = pick(len(places) + len(removals) + 1)
        if index < len(places):
            return cell_move("protect", places[index])
        index -= len(places)
        return cell_move("unprotect", removals[index]) if index < len(removals) else bare_move("skip")

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

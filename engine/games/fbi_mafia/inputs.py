"""Each input validated completely into a plan before anything changes (``_plan``), and what a
plan does when it runs: the interrupts' answers, the Detective's keep, the Operative's
protection step, the Maniac's threats and the turn's action. Legality and refusals come from
the ``legality`` layer; consequences are queued as effects for the ``effects`` layer. A layer of
``FbiMafiaState`` over ``effects``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from arbiter.engine.errors import IllegalMoveError, SyntaxInputError, quoted
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.board import ALIVE
from arbiter.engine.games.fbi_mafia.effects import END_TURN, THREAT_STEP, Chain, Explode, Kill, ResolutionLayer
from arbiter.engine.games.fbi_mafia.grid import Cell, cell_name
from arbiter.engine.games.fbi_mafia.moves import FORMS, Move, move_name

Plan = Callable[[], None]


class InputLayer(ResolutionLayer):
    """Inputs validated into plans, and the plans' effects on the game."""

    def _plan_surrender(self, seat: str) -> Plan:
        teams = sorted({self.team[c] for c in self.characters_of(seat)})
        team = teams[0]
        other = "fbi" if team == "mafia" else "mafia"

        def run() -> None:
            self.events.emit("surrender", f"{seat} surrenders for the {team.upper()}.", {"seat": seat, "team": team})
            self._finish(other, "surrender", f"{seat} surrendered for the {team.upper()}")

        return run

    def _plan(self, move: Move, kind: str) -> Plan:
        if kind == "action":  # the commonest (the kinds are apart: the order changes nothing)
            return self._plan_action(move)
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
                raise SyntaxInputError(f"{move.verb}: no suspect named {quoted(move.name)}", [FORMS[move.verb]])
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
            self.pending.append(END_TURN)

        return run

    def _plan_protection(self, move: Move) -> Plan:
        if move.verb == "skip":
            actor = self.actor

            def skip() -> None:
                self.events.emit("skip", f"The {actor} skips its protection step.", {"character": actor})
                self.phase = "action"

            return skip
        if move.verb not in ("protect", "unprotect") or move.answer is not None:
            raise IllegalMoveError(
                f"the {self.actor} must first place or remove a protection token, or skip",
                self._protection_options(),
            )
        target = move.cells[0]
        if not self._reaches(self._rule(move.verb), self._me(), target):  # target in self._targets(verb)
            raise self._refuse(move, self._why_not(move.verb, target), self._protection_options())
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

    def _threat_options(self) -> list[str]:
        """What a refused threat input lists: a threat on each legal target."""
        return [f"threat {cell_name(c)}" for c in self._targets("threat")]

    def _plan_threat(self, move: Move) -> Plan:
        lo, hi = self.limits.threats_min, self.limits.threats_max
        if move.verb != "threat":
            raise IllegalMoveError(f"the {self.actor} must place {lo} to {hi} threat tokens now", self._threat_options())
        if len(set(move.cells)) != len(move.cells):
            raise self._refuse(move, "a cell is named twice (a card carries at most one threat)", self._threat_options())
        if not lo <= len(move.cells) <= hi:
            raise self._refuse(move, f"place {lo} to {hi} threat tokens", self._threat_options())
        rule, reach = self._facts[self.actor].rules["threat"]  # _rule("threat"), and its reach
        around = reach[self._me()]
        for c in move.cells:  # _reaches(rule, me, c), read at once (c in self._targets("threat"))
            if not (c in around and self._meets_rule(rule, c) and (rule.stock is None or self._in_stock(rule.stock))):
                raise self._refuse(move, self._why_not("threat", c), self._threat_options())

        def run() -> None:
            names = [self._name(c) for c in move.cells]
            for n in names:
                self.tokens[n].add("threat")
            self.events.emit(
                "threat",
                f"The {self.actor} places threat tokens on {', '.join(self._at(n) for n in names)}.",
                {"cells": [cell_name(c) for c in move.cells], "suspects": names},
            )
            self.pending.append(END_TURN)

        return run

    # -- the turn's action ---------------------------------------------------------------------
    def _plan_action(self, move: Move) -> Plan:
        actor = self.actor
        allowed = self._facts[actor].verbs  # action_verbs()
        if move.verb not in allowed:
            raise IllegalMoveError(
                f"the {actor} cannot {move.verb} now; its actions: {', '.join(allowed)}",
                [self._form(v) for v in allowed],
            )
        if move.verb == "shift":
            if self._shift_legal(move):
                return partial(self._do_shift, move)
            if abs(move.delta or 0) not in self.roles[actor].shifts:
                raise self._refuse(move, f"the {actor} shifts by {' or '.join(map(str, self.roles[actor].shifts))}",
                                   [self._form("shift")])
            # of the actor's distances and not legal: it undoes the last shift (``_undo_at``)
            raise self._refuse(move, f"it would undo the last shift ({move_name(self.last_shift)}): "  # type: ignore[arg-type]
                               "any other shift is allowed", [self._form("shift")])
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
            if not grid.adjacent(a, b):  # (the swaps of the first card: any swap of neighbours is legal)
                swaps = [move_name(Move("swap", cells=tuple(sorted((a, n))))) for n in grid.neighbours(a, self.size)]
                raise self._refuse(move, "the two cards must be next to each other (8 neighbours)", swaps)
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
        rule, reach = self._facts[self.actor].rules[move.verb]  # _rule(move.verb), and its reach
        cells = move.cells
        if len(cells) == 1:  # the commonest: _reaches(rule, self._me(), target), read at once
            target, source = cells[0], None  # (target in self._targets(move.verb))
            legal = (target in reach[self.pos[self.identity[self.actor]]] and self._meets_rule(rule, target)
                     and (rule.stock is None or self._in_stock(rule.stock)))
        else:
            *before, target = cells
            source = before[0] if before else None
            if source is None:
                legal = self._reaches(rule, self._me(), target)  # target in self._targets(move.verb)
            else:
                legal = self._meets(rule.source, source) and self._reaches(rule, source, target)
        if not legal:
            raise self._refuse(move, self._why_not(move.verb, target, source), self.action_options(move.verb))
        if not rule.tokens:
            return partial(self._do_target, move.verb, target)
        holder = target if source is None else source
        token = self._which_token(move, holder, rule.tokens, lambda: self.action_options(move.verb))
        if source is None:
            return lambda: self._do_defuse(target, token)
        return lambda: self._do_prepare(source, target, token)

    # -- effects of actions ----------------------------------------------------------------------
    def _after_move(self) -> None:
        """After a shift or swap: the Maniac's threat step, or the end of the turn."""
        if self._facts[self.actor].threats_after:
            self.pending.append(THREAT_STEP)
        else:
            self.pending.append(END_TURN)

    def _do_shift(self, move: Move) -> None:
        kind, i, delta = move.line, move.index, move.delta
        assert kind is not None and i is not None and delta is not None
        rows = self.grid
        if kind == "row":
            line = rows[i] = grid.shifted(rows[i], delta)
        else:
            line = grid.shifted([row[i] for row in rows], delta)
            for row, name in zip(rows, line):
                row[i] = name
        self.pos.update(zip(line, self._lines[kind][i]))  # only the line's cards moved
        self.last_shift = move
        actor = self.actor
        self.events.emit("shift", f"The {actor} shifts: {move_name(move)}.", {"line": kind, "index": i, "delta": delta})
        self.pending.append(THREAT_STEP if self._facts[actor].threats_after else END_TURN)  # _after_move()

    def _do_swap(self, a: Cell, b: Cell) -> None:
        na, nb = self._name(a), self._name(b)
        self.grid[a[0]][a[1]], self.grid[b[0]][b[1]] = nb, na
        self.pos[na], self.pos[nb] = b, a
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
        self.pending.append(END_TURN)

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
        self.pending.append(END_TURN)

    def _do_prepare(self, src: Cell, dst: Cell, token: str) -> None:
        a, b = self._name(src), self._name(dst)
        self.tokens[a].discard(token)
        self.tokens[b].add(token)
        self.events.emit("prepare", f"The {self.actor} moves the {token} from {self._at(a)} to {self._at(b)}.",
                         {"from": cell_name(src), "to": cell_name(dst), "token": token})
        self.pending.append(END_TURN)

    def _do_evidence(self, name: str) -> None:
        self.cleared.append(name)
        self.events.emit("evidence", f"The {self.actor} reveals evidence: {self._at(name)} is cleared (innocent).",
                         {"suspect": name, "cell": cell_name(self.pos[name])})
        self.pending.append(END_TURN)

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
        self.pending.append(END_TURN)

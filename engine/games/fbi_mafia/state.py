"""The state of one FBI vs Mafia game: setup, the inputs awaited, applying an input, the legal
inputs and each seat's view. It ties together the layers it is built on (see ``board``):
inputs are validated completely (``inputs``) before anything changes; the plan then mutates the
state, and kills, arrests and explosions resolve through a queue of effects (``effects``) that
can pause for an interrupt; the answer resumes the queue. Rules text:
``docs/rules/fbi-vs-mafia.md``. Drawing the board is ``render``'s job, asked by the rules object.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.errors import NotYourTurnError, UnknownActionError
from arbiter.engine.events import HOST, EventLog
from arbiter.engine.game import Awaiting, words_of
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.data import GameData, ModeSpec
from arbiter.engine.games.fbi_mafia.grid import cell_name
from arbiter.engine.games.fbi_mafia.inputs import InputLayer
from arbiter.engine.games.fbi_mafia.moves import (
    FORMS, TOKENS, Move, bare_move, cell_move, move_name, parse_move, well_formed,
)


class FbiMafiaState(InputLayer):
    clock_step_ms = 1000
    move_kinds = Move
    constants = ("mode", "limits", "roles", "size", "characters", "team", "seats", "seat_of", "suspects", "_mates",
                 "_facts", "_reach", "_lines", "_operative")  # the table's facts and the tables worked out from them

    def __init__(self, data: GameData, mode: ModeSpec, chance: Chance, events: EventLog) -> None:
        super().__init__(data, mode, chance, events)
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

    # ---------------------------------------------------------------------------- awaiting
    def awaited(self) -> tuple[str, str] | None:
        """The seat awaited and the kind of its input (``awaiting`` without the hint, which is
        asked several times an input); None when the game is over."""
        if self.result is not None:
            return None
        p = self.prompt
        if p is not None:
            return self.seat_of[p.character], p.kind
        return self.seat_of[self.actor], self.phase

    def awaited_seats(self) -> list[str]:
        """The seat of ``awaited()``, if any."""
        awaited = self.awaited()
        return [] if awaited is None else [awaited[0]]

    def awaiting(self) -> list[Awaiting]:
        awaited = self.awaited()
        return [] if awaited is None else [Awaiting(*awaited, self._hint(awaited[1]))]

    def _hint(self, kind: str) -> str:
        """The hint of the input awaited now, of ``kind`` (``awaited``'s)."""
        if self.prompt is not None:
            p = self.prompt
            return f"{p.character}: {p.kind} {self._at(p.suspect)}? {p.kind} yes|no"
        actor = self.actor
        if kind == "action":
            return f"{actor}: shift or {', '.join(self.roles[actor].actions)}"
        if kind == "protection":
            return f"{actor}: place or remove a protection token, or skip (protect CELL | unprotect CELL | skip)"
        if kind == "threat":
            return (f"{actor}: place {self.limits.threats_min} to {self.limits.threats_max} threat "
                    "tokens (threat CELL [CELL [CELL]])")
        if kind == "keep":
            return f"{actor}: keep one of the {len(self.inspecting)} inspected cards (keep CELL | keep NAME)"
        raise KeyError(kind)

    # ---------------------------------------------------------------------------- inputs
    def apply(self, seat: str, text: str, now_ms: int) -> str:
        """Read the words of an input (``parse_move``) and accept them or refuse them (``_accept``)."""
        try:
            move = parse_move(text, self.size)
        except UnknownActionError as wrong:  # list what this seat may type, not every role's words
            raise UnknownActionError(wrong.message, self.seat_forms(seat)) from None
        return self._accept(seat, move)

    def seat_forms(self, seat: str) -> list[str]:
        """The forms ``seat`` may type in this mode: shift and surrender, its characters'
        actions and the words of their steps (the Maniac's threats, the Operative's protection,
        the Detective's keep). Which characters a seat plays is public, so the list is the same
        for every deal."""
        verbs = {"shift", "surrender"}
        for character in self.characters_of(seat):
            role = self.roles[character]
            verbs.update(role.actions)
            if "threats-after-move" in role.steps:
                verbs.add("threat")
            if "protection-before-action" in role.steps:
                verbs.update(("protect", "unprotect", "skip"))
            if "inspect" in role.actions:
                verbs.add("keep")
        return [FORMS[v] for v in sorted(FORMS) if v in verbs]

    def apply_move(self, seat: str, move: Any, now_ms: int) -> str:
        """``apply`` of the input ``move_name(move)``, given as the move value it reads as (a
        bot's choice among ``legal_moves``): the same checks in the same order, without writing
        the words and reading them back. A value that is not one ``parse_move`` reads
        (``well_formed``), or words, go through the words. (``tests/test_fbi_move_path.py``
        holds the two paths equal.)"""
        if type(move) is Move:  # well_formed(move, self.size) of a kept move, read at once
            known = move.__dict__.get("_kept")
            if known is not None and self.size >= known[0]:
                return self._accept(seat, move)
        if well_formed(move, self.size):
            return self._accept(seat, move)
        return self.apply(seat, words_of(move, Move, move_name), now_ms)

    def _accept(self, seat: str, move: Move) -> str:
        """Judge ``move`` of ``seat`` completely, then apply it; its canonical words."""
        if move.verb == "surrender":
            plan = self._plan_surrender(seat)
        else:
            awaited, kind = self.awaited()  # type: ignore[misc]  # the game is on (the session checks)
            if seat != awaited:
                raise NotYourTurnError(
                    f"{seat} is not awaited: waiting for {awaited} ({kind}: {self._hint(kind)}); "
                    "any seat may surrender at any time"
                )
            plan = self._plan_action(move) if kind == "action" else self._plan(move, kind)
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

    # ---------------------------------------------------------------------------- enumeration
    def legal_inputs(self, seat: str) -> list[str]:
        return [move_name(m) for m in self.legal_moves(seat)]

    def legal_moves(self, seat: str) -> list[Move]:
        """Every move ``seat`` may make now, as values (``legal_inputs`` names them)."""
        if self.result is not None:
            return []
        out: list[Move] = []
        awaited, kind = self.awaited()  # type: ignore[misc]
        if seat == awaited:
            if kind in ("protect", "detonate"):
                out = [bare_move(kind, True), bare_move(kind, False)]
            elif kind == "keep":
                out = [cell_move("keep", self.pos[n]) for n in self.inspecting]
            elif kind == "protection":
                out = self._protection_moves()
            elif kind == "threat":
                out = self._threat_moves()
            else:
                for verb in self.action_verbs():
                    out.extend(self.action_moves(verb))
        return out + [bare_move("surrender")]

    # ---------------------------------------------------------------------------- views
    def score(self) -> dict[str, Any]:
        return {
            "arrests": self.arrests, "arrests_to_win": self.mode.win_arrests,
            "kills": self.kills, "kills_to_win": self.mode.win_kills,
        }

    def view(self, seat: str) -> dict[str, Any]:
        """The state as ``seat`` may know it (``HOST``: everything): the public board and score,
        its own identities (every one once the game is over) and ``seat_lists``."""
        mine = self.characters_of(seat)
        status, tokens, cleared = self.status, self.tokens, self.cleared
        board = [  # a dictionary a card, row by row (the cells' reading order); tokens in TOKENS' order
            {"cell": cell, "suspect": name, "status": status[name],
             "tokens": [t for t in TOKENS if t in tokens[name]] if tokens[name] else [], "cleared": name in cleared}
            for cell, name in zip(grid.cell_names(self.size), chain.from_iterable(self.grid))
        ]
        shown = self.characters if self.result is not None else mine
        identity, pos = self.identity, self.pos
        v: dict[str, Any] = {
            "game": "fbi-mafia", "mode": self.mode.name, "seat": seat, "size": self.size,
            "turn": self.turn_number, "acting": self.actor, "phase": self.phase,
            "awaiting": [a.as_dict() for a in self.awaiting()],
            "score": self.score(), "board": board, "deck": len(self.deck),
            "cleared": list(cleared),
            "last_shift": move_name(self.last_shift) if self.last_shift else None,
            "identities": {c: {"suspect": identity[c], "cell": cell_name(pos[identity[c]])} for c in shown},
            "result": self.result.as_dict() if self.result else None,
        }
        v.update(self.seat_lists(seat, mine))
        return v

    def seat_lists(self, seat: str, mine: list[str] | None = None) -> dict[str, Any]:
        """The fields of ``view(seat)`` that only some seats have: the evidence hand (the
        Criminalist's seat), the inspect's kept and inspected cards (the Detective's), the
        autopsies (the Undercover's), the deck's order and the discard (the host). ``mine``:
        ``characters_of(seat)``, if known. Every list is a copy, an autopsy's list of Mafia
        characters too (a view's once was the state's, and its event's)."""
        if mine is None:
            mine = self.characters_of(seat)
        actions = [a for c in mine for a in self.roles[c].actions]
        v: dict[str, Any] = {}
        if "evidence" in actions:
            v["hand"] = list(self.hand)
        if "inspect" in actions:
            v["kept"] = list(self.kept)
            v["inspecting"] = list(self.inspecting)
        if "autopsy" in actions:
            v["autopsies"] = [{**a, "mafia_adjacent": list(a["mafia_adjacent"])} for a in self.autopsies]
        if seat == HOST:
            v["deck_order"] = list(self.deck)
            v["discard"] = list(self.discard)
        return v

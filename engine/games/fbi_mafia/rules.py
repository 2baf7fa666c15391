"""FBI vs Mafia: the rules object (modes from scenario data, setup, the random bot's choices)."""

from __future__ import annotations

import random
from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.errors import SyntaxInputError
from arbiter.engine.events import EventLog
from arbiter.engine.game import GameInfo, GameState, Rules, Variant
from arbiter.engine.games.fbi_mafia import data as fm_data
from arbiter.engine.games.fbi_mafia.moves import Move, move_name
from arbiter.engine.games.fbi_mafia.render import LEGEND, render_board
from arbiter.engine.games.fbi_mafia.state import FbiMafiaState


class FbiMafiaRules(Rules):
    info = GameInfo(
        name=fm_data.GAME, title="FBI vs Mafia", variant_label="mode", realtime=False, hidden_information=True,
        resign="surrender", bot_kinds=("random",), bench_bot="random", bench_games=50,
    )
    legend = LEGEND

    def variants(self) -> list[Variant]:
        d = fm_data.load()
        out = []
        for mode in d.modes.values():
            seats = mode.turn_order if mode.seating == "standard" else ("mafia", "fbi")
            data = {"mode": d.raw["modes"]["modes"][mode.name], "roles": d.raw["roles"],
                    "suspects": d.raw["suspects"]["suspects"][: mode.board ** 2]}
            out.append(Variant(
                name=mode.name, title=mode.title, seats=tuple(seats),
                description=f"{mode.board}x{mode.board}, {len(mode.turn_order)} characters, "
                            f"{len(seats)} seats; {mode.win_arrests} arrests or {mode.win_kills} kills",
                data=data,
            ))
        return out

    def new_state(self, variant: Variant, chance: Chance, events: EventLog, options: dict[str, Any]) -> GameState:
        if options:
            raise SyntaxInputError(f"FBI vs Mafia takes no options (got {', '.join(sorted(options))})")
        d = fm_data.load()
        return FbiMafiaState(d, d.modes[variant.name], chance, events)


    def validate_document(self, doc: Any) -> None:
        fm_data.validate_document(doc)

    def render(self, state: GameState, seat: str) -> str:
        """The ASCII board: the renderer reads the state; the state knows nothing of it."""
        assert isinstance(state, FbiMafiaState)
        return render_board(state, seat)

    def choose_input(self, state: GameState, seat: str, rng: random.Random) -> str | None:
        """The random bot's input: ``bot_move``'s choice, in words."""
        move = self.bot_move("random", state, seat, rng)
        return None if move is None else move_name(move)

    def bot_move(self, kind: str, state: GameState, seat: str, rng: random.Random) -> Move | None:
        """The random bot's choice as a move value (``FbiMafiaState.apply_move`` applies it), None
        when ``seat`` has nothing to do. Random but purposeful: pick the kind of action first
        (uniformly among those with a legal option), then its arguments; never surrender (a
        random surrender would end most games at once)."""
        assert isinstance(state, FbiMafiaState)
        awaited = state.awaited()
        if awaited is None or awaited[0] != seat:
            return None
        kind = awaited[1]
        # every count asked is above 0, where ``randrange(n)`` is ``_randbelow(n)``: the same
        # draws, without randrange's checks (a generator of another class keeps its own)
        pick = rng._randbelow if type(rng) is random.Random else rng.randrange  # type: ignore[attr-defined]
        if kind == "action":
            verbs = list(state._facts[state.actor].verbs)  # action_verbs()
            choice = state.action_choice
            while verbs:
                verb = verbs.pop(pick(len(verbs)))
                move = choice(verb, pick)  # a move of action_moves(verb), if any
                if move is not None:
                    return move
            return None
        if kind == "threat":  # the same pick among the threat moves, without listing them
            return state.threat_choice(pick)
        if kind == "protection":  # the same among the legal moves but surrender (the last)
            return state.protection_choice(pick)
        legal = [m for m in state.legal_moves(seat) if m.verb != "surrender"]
        return legal[pick(len(legal))] if legal else None

    def seat_sides(self, state: GameState) -> dict[str, tuple[str, str]]:
        """Each seat's team (fbi or mafia) and the character(s) it plays, joined by ``+``."""
        assert isinstance(state, FbiMafiaState)
        out = {}
        for seat in state.seats:
            characters = state.characters_of(seat)
            out[seat] = (state.team[characters[0]], "+".join(characters))
        return out

"""Magic Maze: the rules object (scenarios 1-7, 1-8 players, the built-in bots)."""

from __future__ import annotations

import random
from typing import Any

from engine.chance import Chance
from engine.errors import IllegalMoveError
from engine.events import EventLog
from engine.game import GameInfo, GameState, Rules, Variant
from engine.games.magic_maze import data as mm
from engine.games.magic_maze import planner
from engine.games.magic_maze.moves import GAME_ACTIONS, move_name
from engine.games.magic_maze.render import LEGEND, render_mall
from engine.games.magic_maze.state import MazeState
from engine.scenario import Node

MAX_PLAYERS = 8


class MagicMazeRules(Rules):
    info = GameInfo(
        name=mm.GAME, title="Magic Maze", variant_label="scenario", realtime=True, hidden_information=True,
        players=(1, MAX_PLAYERS), default_players=1, deck_kind="roles", levels=(1, 2, 3, 4, 5),
        bot_kinds=("random", "planner"), bench_bot="planner", bench_games=10, bench_players=4,
    )
    legend = LEGEND
    state_class: type[MazeState] = MazeState
    """The state ``new_state`` sets up: a variant's rules name their ``MazeState`` subclass."""

    def variants(self) -> list[Variant]:
        d = mm.load()
        out = []
        for s in d.scenarios.values():
            out.append(Variant(
                name=s.name, title=f"scenario {s.title}", seats=tuple(f"p{i}" for i in range(1, MAX_PLAYERS + 1)),
                description=f"start {s.start}, stack {len(s.on_top) + len(s.stack)} tiles, "
                            f"{s.timer_ms // 1000} s timer; 1-8 players (--players)",
                data={"scenario": d.raw["scenarios"]["scenarios"][s.name], "tiles": d.raw["tiles"],
                      "actions": d.raw["actions"]},
            ))
        return out

    def choose_setup(
        self, variant: str | None, players: int | None = None, deck_file: str | None = None,
        level: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        if deck_file is not None or level is not None:
            raise IllegalMoveError("Magic Maze has no decks to choose; pick --scenario and --players")
        chosen = variant or self.default_variant
        self.variant(chosen)
        if players is not None and not 1 <= players <= MAX_PLAYERS:
            raise IllegalMoveError(f"Magic Maze is played by 1 to {MAX_PLAYERS} players, not {players}",
                                   [f"--players {n}" for n in range(1, MAX_PLAYERS + 1)])
        return chosen, {"players": players if players is not None else 1}

    def new_state(self, variant: Variant, chance: Chance, events: EventLog, options: dict[str, Any]) -> GameState:
        node = Node(dict(options), "options")
        node.only_keys("players")
        players = node.optional("players", 1).integer(1, MAX_PLAYERS)
        d = mm.load()
        return self.state_class(d, d.scenarios[variant.name], players, chance, events)

    def validate_document(self, doc: Any) -> None:
        if isinstance(doc.value, dict) and doc.value.get("kind") == "roles":
            from engine.games.magic_maze.roles import data as roles_data

            roles_data.validate_document(doc)
        else:
            mm.validate_document(doc)

    def render(self, state: GameState, seat: str) -> str:
        """The explored mall and the status block; everything on it is public."""
        assert isinstance(state, MazeState)
        return render_mall(state)

    def bot_input(self, kind: str, state: GameState, seat: str, rng: random.Random) -> str | None:
        assert isinstance(state, MazeState)
        if kind == "planner":
            move = planner.choose(state, seat)
            return None if move is None else move_name(move)
        return self.choose_input(state, seat, rng)

    def choose_input(self, state: GameState, seat: str, rng: random.Random) -> str | None:
        """The random bot: a random game action it holds (or a draw), never talk or the pawn;
        None when it holds nothing it can use now."""
        assert isinstance(state, MazeState)
        legal = [m for m in state.legal_moves(seat) if m.verb in GAME_ACTIONS]
        return move_name(legal[rng.randrange(len(legal))]) if legal else None

    def seat_sides(self, state: GameState) -> dict[str, tuple[str, str]]:
        """Every seat is on one side, ``team``; its role is the action tiles it was dealt
        (``+``-joined; ``solo`` alone, where the tiles come from a deck)."""
        assert isinstance(state, MazeState)
        return {seat: ("team", "solo" if state.solo else "+".join(state.actions_of(seat))) for seat in state.seats}

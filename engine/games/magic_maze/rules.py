"""Magic Maze: the rules object (scenarios 1-7, 1-8 players, the built-in bots), and its
expansion Hidden Roles (``--roles LEVEL`` or ``--deck FILE``, 3-8 players)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.errors import SetupError
from arbiter.engine.events import EventLog
from arbiter.engine.game import GameInfo, GameState, Rules, Variant
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import GAME_ACTIONS, move_name
from arbiter.engine.games.magic_maze.render import LEGEND, render_mall
from arbiter.engine.games.magic_maze.roles import bot as roles_bot
from arbiter.engine.games.magic_maze.roles import data as roles_data
from arbiter.engine.games.magic_maze.roles.deal import LEVEL_TITLES, RoleSetup, options_for
from arbiter.engine.games.magic_maze.roles.render import render_roles
from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState
from arbiter.engine.games.magic_maze.state import MazeState
from arbiter.engine.scenario import Node

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
        self, variant: str | None, players: int | None = None, deck_file: str | Node | None = None,
        level: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """``--scenario`` and ``--players``; with ``--roles LEVEL`` or ``--deck FILE`` (a custom
        role deck), Hidden Roles (3 to 8 players, 4 when not said)."""
        chosen = self.default_variant if variant is None else variant
        self.variant(chosen)
        if deck_file is not None or level is not None:
            d = mm.load()
            return chosen, options_for(d.scenarios[chosen], d, players, level, deck_file)
        if players is not None and not 1 <= players <= MAX_PLAYERS:
            raise SetupError(f"Magic Maze is played by 1 to {MAX_PLAYERS} players, not {players}",
                             [f"--players {n}" for n in range(1, MAX_PLAYERS + 1)], "--players")
        return chosen, {"players": players if players is not None else 1}

    def new_state(self, variant: Variant, chance: Chance, events: EventLog, options: dict[str, Any]) -> GameState:
        node = Node(dict(options), "options")
        node.only_keys("players", "roles", "deck")
        d = mm.load()
        if self.has_roles(options):
            players = node.optional("players", 4).integer(roles_data.MIN_PLAYERS, roles_data.MAX_PLAYERS)
            return HiddenRolesState(d, d.scenarios[variant.name], players, chance, events, RoleSetup.from_options(options))
        players = node.optional("players", 1).integer(1, MAX_PLAYERS)
        return self.state_class(d, d.scenarios[variant.name], players, chance, events)

    @staticmethod
    def has_roles(options: dict[str, Any]) -> bool:
        """Whether ``options`` set up Hidden Roles (a level, or a custom role deck)."""
        return "roles" in options or "deck" in options

    def data_hash(self, variant: Variant, options: dict[str, Any]) -> str:
        """The scenario's data, and with Hidden Roles the role deck's too (a base game's digest
        is the scenario's alone, as it always was)."""
        if not self.has_roles(options):
            return variant.data_hash
        return replace(variant, data={**variant.data, "roles": roles_data.load().raw}).data_hash

    def extra_listing(self) -> list[list[str]]:
        """``arbiter games``: the expansion's levels, beside the scenarios."""
        rows = [[f"--roles {n}", "p1 .. p3-p8", f"Hidden Roles, level {n}: {LEVEL_TITLES[n]}"]
                for n in sorted(LEVEL_TITLES)]
        return rows + [["--deck FILE", "p1 .. p3-p8", "Hidden Roles with a custom role deck"]]

    def extra_setups(self) -> list[tuple[str, dict[str, Any]]]:
        """Setups beyond one per scenario that the generic contract test plays: Hidden Roles at
        every level, with a few player counts and scenarios."""
        return [("1", {"players": 3, "roles": 1}), ("3", {"players": 5, "roles": 2}),
                ("4", {"players": 4, "roles": 3}), ("7", {"players": 8, "roles": 3}),
                ("6", {"players": 6, "roles": 4}), ("2", {"players": 3, "roles": 4}),
                ("5", {"players": 7, "roles": 5}), ("3", {"players": 4, "roles": 5})]

    def validate_document(self, doc: Any) -> None:
        if isinstance(doc.value, dict) and doc.value.get("kind") == "roles":
            from arbiter.engine.games.magic_maze.roles import data as roles_data

            roles_data.validate_document(doc)
        else:
            mm.validate_document(doc)

    def render(self, state: GameState, seat: str) -> str:
        """The explored mall and the status block; everything on it is public. Hidden Roles
        adds its own block under it: public facts, and the seat's own card."""
        assert isinstance(state, MazeState)
        board = render_mall(state)
        if isinstance(state, HiddenRolesState):
            board += "\n" + "\n".join(render_roles(state, seat))
        return board

    def bot_input(self, kind: str, state: GameState, seat: str, rng: random.Random) -> str | None:
        assert isinstance(state, MazeState)
        if kind == "planner" and isinstance(state, HiddenRolesState):
            move = roles_bot.choose(state, seat, rng)  # role-aware: watches, votes, accuses, sabotages
            return None if move is None else move_name(move)
        if kind == "planner":
            move = planner.choose(state, seat)
            return None if move is None else move_name(move)
        return self.choose_input(state, seat, rng)

    def bench_tally(self, state: GameState) -> dict[str, int]:
        """Hidden Roles, for ``arbiter bench --roles``: the heroes' wins, the traitors (seats on
        that side at the end, or caught), those caught (eliminated by an upheld accusation),
        accusations upheld against a hero (wrong) or rejected, and failed missions."""
        if not isinstance(state, HiddenRolesState) or state.result is None:
            return {}
        out = {"games": 1, "heroes-won": int(state.result.winner == "heroes"), "accusations": 0, "wrong": 0,
               "rejected": 0, "failed": 0,
               "traitors": sum(1 for s in state.seats if state.side_of(s) == "traitor" or state.out.get(s) == "accused"),
               "caught": sum(1 for s in state.seats if state.out.get(s) == "accused")}
        for e in state.events:
            if e.kind == "accuse":
                out["accusations"] += 1
            elif e.kind == "verdict" and not e.data["upheld"]:
                out["rejected"] += 1
            elif e.kind == "failed":
                out["failed"] += 1
        out["wrong"] = int(state.result.reason == "wrong-accusation")
        return out

    def bench_legend(self, options: dict[str, Any]) -> str:
        """The Hidden Roles columns, headed by the level that ``options`` deal (``--roles``, or a
        custom deck's own)."""
        return (f"Hidden Roles, level {RoleSetup.from_options(options).level}. caught: traitors eliminated by "
                "an accusation, of all;\n"
                "per game: wrong (accusations upheld against a hero), rejected, failed missions")

    def bench_figures(self, tallies: dict[str, int]) -> dict[str, str]:
        """Hidden Roles' ``bench_tally`` as rates: the heroes' wins, the traitors caught (of all
        the traitors), and per game the wrong and rejected accusations and failed missions."""
        if not tallies:
            return {}
        games, traitors = max(1, tallies["games"]), tallies["traitors"]
        return {"heroes won": f"{100 * tallies['heroes-won'] / games:.0f}%",
                "caught": f"{tallies['caught']}/{traitors} {100 * tallies['caught'] / max(1, traitors):.0f}%",
                **{k: f"{tallies[k] / games:.2f}" for k in ("wrong", "rejected", "failed")}}

    def choose_input(self, state: GameState, seat: str, rng: random.Random) -> str | None:
        """The random bot: a random game action it holds (or a draw), never talk or the pawn;
        None when it holds nothing it can use now."""
        assert isinstance(state, MazeState)
        legal = [m for m in state.legal_moves(seat) if m.verb in GAME_ACTIONS]
        return move_name(legal[rng.randrange(len(legal))]) if legal else None

    def public_options(self, state: GameState) -> dict[str, str]:
        """The player count (the scenario does not fix it); in Hidden Roles also the level whose
        rules apply (a custom deck's own) and whether the start tile's hourglass is out of order
        from the start (a custom deck's ``out_of_order_start``; ``false`` at a level).

        >>> from arbiter.engine.session import Session
        >>> s = Session(MagicMazeRules(), "3", seed=1, options={"players": 5, "roles": 2})
        >>> MagicMazeRules().public_options(s.state)
        {'players': '5', 'level': '2', 'out_of_order_start': 'false'}
        """
        assert isinstance(state, MazeState)
        out = {"players": str(state.players)}
        if isinstance(state, HiddenRolesState):
            out["level"] = str(state.level)
            out["out_of_order_start"] = "true" if state.setup.out_of_order_start else "false"
        return out

    def public_deck(self, state: GameState) -> dict[str, int]:
        """In Hidden Roles, the role cards the game is dealt from (a level's, or a custom deck's):
        public, as ``view`` gives them (``dealt_from``); none in the base game."""
        return state.dealt_from() if isinstance(state, HiddenRolesState) else {}

    def seat_sides(self, state: GameState) -> dict[str, tuple[str, str]]:
        """Every seat is on one side, ``team``; its role is the action tiles it was dealt
        (``+``-joined; ``solo`` alone, where the tiles come from a deck). In Hidden Roles a seat's
        side is its card's at the end (heroes or traitors) and its role the card (every card is
        revealed by then)."""
        assert isinstance(state, MazeState)
        if isinstance(state, HiddenRolesState):
            return {seat: (state.side_of(seat), state.cards[seat]) for seat in state.seats}
        return {seat: ("team", "solo" if state.solo else "+".join(state.actions_of(seat))) for seat in state.seats}

#!/usr/bin/env python3
"""Hidden Roles' bots against the role-blind baseline: the figures of the "Bots" section of
``docs/rules/hidden-roles.md``.

For each level it plays the same seeded games twice with ``planner`` bots on every seat: the
role-aware bots (``engine/games/magic_maze/roles/bot.py``, what ``--bots planner`` plays) and
the role-blind planner they replaced (the base game's team plan, waiting when a step breaks
its own rule; it never accuses, votes or divines). The figures are those of ``arbiter bench
magic-maze --roles L`` (one round).

    PYTHONPATH=. python tools/roles_bench.py                      # scenario 2, 4 players, 50 games
    PYTHONPATH=. python tools/roles_bench.py --scenario 3 --players 5 --games 100
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tabulate as tabulating  # noqa: E402
from tabulate import tabulate  # noqa: E402

from arbiter.engine import registry  # noqa: E402
from arbiter.engine.bench import BenchResult, bench  # noqa: E402
from arbiter.engine.games.magic_maze import planner  # noqa: E402
from arbiter.engine.games.magic_maze.moves import move_name  # noqa: E402
from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState  # noqa: E402
from arbiter.engine.games.magic_maze.rules import MagicMazeRules  # noqa: E402



class BlindRules(MagicMazeRules):
    """The rules with the role-blind planner of before (the baseline)."""

    def bot_input(self, kind: str, state: Any, seat: str, rng: Any) -> str | None:
        move = planner.choose(state, seat)
        if move is not None and isinstance(state, HiddenRolesState) and not state.would_accept(seat, move):
            return None
        return None if move is None else move_name(move)


def row(rules: MagicMazeRules, level: int, name: str, r: BenchResult) -> list[str]:
    return [str(level), name, *rules.bench_figures(r.tallies).values(),
            f"{1000 / r.inputs_per_s:.2f}" if r.inputs_per_s else "-", f"{r.games_per_s:.1f}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="2")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="1,2,3,4,5")
    args = parser.parse_args(argv)
    rules = registry.get("magic-maze")
    blind = BlindRules()
    rows, headings = [], []
    for level in (int(x) for x in args.levels.split(",")):
        options = {"players": args.players, "roles": level}
        for name, r in (("role-aware", rules), ("blind", blind)):
            result = bench(r, args.scenario, args.games, args.seed, 1, kind="planner", options=options)
            rows.append(row(rules, level, name, result))
            headings = headings or list(rules.bench_figures(result.tallies))
    print(f"scenario {args.scenario}, {args.players} players, {args.games} games (seeds {args.seed}-"
          f"{args.seed + args.games - 1}) per level; planner bots on every seat")
    tabulating.MIN_PADDING = 0  # columns as narrow as their cells: the table fits 80 columns
    print(tabulate(rows, headers=["level", "bots", *headings, "ms/input", "games/s"], disable_numparse=True))
    print("caught: traitors eliminated by an accusation, of all the traitors; per game: wrong = accusations\n"
          "upheld against a hero (the traitors win), rejected ones, failed missions")
    return 0


if __name__ == "__main__":
    sys.exit(main())

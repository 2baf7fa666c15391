#!/usr/bin/env python3
"""Write the golden transcripts of Magic Maze (``transcripts/magic-maze/*.yaml``).

Each golden is one whole game written with ``engine.transcript.dump``. ``tools/maze_goldens.yaml``
lists them (the *recipes*). The base game's (``magic-maze:``): scenario, players, the built-in
bot on every seat, seed. Every scenario 1-7 needs a win (planner bots) and a loss (random
bots, which let the sand run out), and solo play a win and a loss too. Hidden Roles'
(``hidden-roles:``): level, scenario, players, a *plot* (``maze_roles_plots.py``: the planner on
every seat, and staged inputs of the expansion) and seed, and what the game must show
(``shows``); every level needs two. When the recipes no longer give that (after a rules change),
a search (lowest seed first) finds new ones and rewrites the recipes.

    python tools/make_maze_goldens.py            # write (searching only if a result changed)
    python tools/make_maze_goldens.py --check    # regenerate in memory, compare with the files
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, Path(__file__).resolve().parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import yaml  # noqa: E402

import golden_files  # noqa: E402
import maze_roles_plots as roles  # noqa: E402

from engine import registry  # noqa: E402
from engine.bench import play_random  # noqa: E402
from engine.session import Session  # noqa: E402
from engine.transcript import dump  # noqa: E402

GAME = "magic-maze"
OUT = ROOT / "transcripts" / GAME
RECIPES = Path(__file__).resolve().with_name("maze_goldens.yaml")
SEARCH_LIMIT = 60
# (scenario, players) of the wins and losses wanted: every scenario with a team, and solo.
WANTED = [(s, p) for s, p in zip("1234567", (2, 3, 4, 5, 6, 7, 8))] + [("1", 1), ("2", 1)]


def want() -> list[tuple[str, int, str]]:
    """(scenario, players, end) of every golden the tool requires."""
    return [(s, p, end) for s, p in WANTED for end in ("win", "loss")]


def play(recipe: dict[str, Any]) -> Session:
    session = play_random(registry.get(GAME), recipe["scenario"], recipe["seed"], kind=recipe["bots"],
                          options={"players": recipe["players"]})
    return session


def end_of(session: Session) -> str:
    result = session.state.result
    return "unfinished" if result is None else ("win" if result.winner else "loss")


def file_name(recipe: dict[str, Any], session: Session) -> str:
    return f"scenario{recipe['scenario']}-{recipe['players']}p-{recipe['bots']}-{end_of(session)}-seed{recipe['seed']}.yaml"


ROLES = "hidden-roles"
ROLES_LEVELS = (1, 2, 3, 4, 5)
ROLES_SHOWN = ("hero-accused", "traitor-eliminated", "failed-mission", "switch", "abandon", "divine-right")
"""What the Hidden Roles goldens must show between them (besides two games per level)."""


def load_recipes(key: str = GAME) -> list[dict[str, Any]]:
    if not RECIPES.exists():
        return []
    return list((yaml.safe_load(RECIPES.read_text(encoding="utf-8")) or {}).get(key) or [])


def save_recipes(recipes: list[dict[str, Any]], roles_recipes: list[dict[str, Any]] | None = None) -> None:
    roles_recipes = load_recipes(ROLES) if roles_recipes is None else roles_recipes
    lines = ["# The golden games of tools/make_maze_goldens.py: scenario, players, the bots on every",
             "# seat and the seed. Planner games are the wins, random games the losses.", f"{GAME}:"]
    lines += [f"- {{scenario: '{r['scenario']}', players: {r['players']}, bots: {r['bots']}, seed: {r['seed']}}}"
              for r in recipes]
    lines += ["# Hidden Roles: the level, scenario, players, the plot (tools/maze_roles_plots.py) and seed,",
              "# and what the game shows.", f"{ROLES}:"]
    lines += [f"- {{level: {r['level']}, scenario: '{r['scenario']}', players: {r['players']}, plot: {r['plot']}, "
              f"seed: {r['seed']}, shows: [{', '.join(r['shows'])}]}}" for r in roles_recipes]
    RECIPES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def roles_file_name(recipe: dict[str, Any], session: Session) -> str:
    result = session.state.result
    end = "unfinished" if result is None else result.winner
    return (f"roles-level{recipe['level']}-scenario{recipe['scenario']}-{recipe['players']}p-{recipe['plot']}-"
            f"{end}-seed{recipe['seed']}.yaml")


def generate_roles(recipes: list[dict[str, Any]]) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The Hidden Roles goldens, and the recipes that no longer show what they must."""
    files: dict[str, str] = {}
    broken = []
    for recipe in recipes:
        session = roles.play(recipe)
        if session.state.result is None or not set(recipe["shows"]) <= roles.shows(session):
            broken.append(recipe)
        session.note({"golden": f"planner bots on every seat; plot: {recipe['plot']}"})
        files[roles_file_name(recipe, session)] = dump(session)
    return files, broken


def roles_missing(recipes: list[dict[str, Any]]) -> list[str]:
    """What the Hidden Roles recipes lack: two games per level, and ``ROLES_SHOWN``."""
    levels = [r["level"] for r in recipes]
    shown = {item for r in recipes for item in r["shows"]}
    return ([f"level {n}" for n in ROLES_LEVELS if levels.count(n) < 2]
            + [item for item in ROLES_SHOWN if item not in shown])


def roles_search(recipe: dict[str, Any]) -> dict[str, Any]:
    for seed in range(1, SEARCH_LIMIT + 1):
        found = dict(recipe, seed=seed)
        session = roles.play(found)
        if session.state.result is not None and set(recipe["shows"]) <= roles.shows(session):
            print(f"+ {found}")
            return found
    raise SystemExit(f"no seed up to {SEARCH_LIMIT} makes {recipe} show {recipe['shows']}")


def generate(recipes: list[dict[str, Any]]) -> tuple[dict[str, str], list[tuple[str, int, str]]]:
    files: dict[str, str] = {}
    have = set()
    for recipe in recipes:
        session = play(recipe)
        session.note({"golden": f"{recipe['bots']} bots on every seat"})
        files[file_name(recipe, session)] = dump(session)
        have.add((recipe["scenario"], recipe["players"], end_of(session)))
    return files, [w for w in want() if w not in have]


def search(missing: list[tuple[str, int, str]]) -> list[dict[str, Any]]:
    found = []
    for scenario, players, end in missing:
        bots = "planner" if end == "win" else "random"
        for seed in range(1, SEARCH_LIMIT + 1):
            recipe = {"scenario": scenario, "players": players, "bots": bots, "seed": seed}
            if end_of(play(recipe)) == end:
                found.append(recipe)
                print(f"+ {recipe}")
                break
        else:
            raise SystemExit(f"no seed up to {SEARCH_LIMIT} gives a {end} in scenario {scenario} with {players}")
    return found


def check() -> list[str]:
    files, missing = generate(load_recipes())
    roles_files, broken = generate_roles(load_recipes(ROLES))
    problems = [f"the recipes no longer give {missing}"] if missing else []
    problems += [f"the Hidden Roles recipe {r} no longer shows {r['shows']}" for r in broken]
    problems += [f"no Hidden Roles recipe gives {m}" for m in roles_missing(load_recipes(ROLES))]
    return problems + golden_files.compare({**files, **roles_files}, OUT, f"transcripts/{GAME}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files on disk; write nothing")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        print("\n".join(problems) if problems else "goldens up to date")
        return 1 if problems else 0
    recipes = load_recipes()
    files, missing = generate(recipes)
    if missing:
        kept = [r for r in recipes if (r["scenario"], r["players"], "win" if r["bots"] == "planner" else "loss")
                not in missing]
        recipes = sorted(kept + search(missing), key=lambda r: (r["scenario"], r["players"], r["bots"]))
        save_recipes(recipes)
        files, missing = generate(recipes)
        assert not missing, missing
    roles_recipes = load_recipes(ROLES)
    problems = roles_missing(roles_recipes)
    if problems:
        raise SystemExit(f"add Hidden Roles recipes to {RECIPES.name} for: {', '.join(problems)}")
    roles_files, broken = generate_roles(roles_recipes)
    if broken:
        roles_recipes = [roles_search(r) if r in broken else r for r in roles_recipes]
        save_recipes(recipes, roles_recipes)
        roles_files, broken = generate_roles(roles_recipes)
        assert not broken, broken
    golden_files.write({**files, **roles_files}, OUT, f"transcripts/{GAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

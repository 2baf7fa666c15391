"""Magic Maze's goldens (``transcripts/magic-maze/``), base game and Hidden Roles.

The base game's recipes (``magic-maze``): scenario, players, the built-in bot on every seat,
seed. Every scenario 1-7 needs a win (planner bots) and a loss (random bots, which let the sand
run out), and solo play a win and a loss too. Hidden Roles' (``hidden-roles``): level,
scenario, players, a *plot* (``roles_plots.py``: the role-aware planner on every seat, and
what a plot stages that the bots seldom do) and seed, and what the game must show
(``shows``); a recipe with ``deck`` (card -> count) plays a custom role deck of its level, as
``--deck FILE`` does (with ``out_of_order_start: true``, the deck's harder start). Every level
needs two games, one game a custom deck, one a custom deck's harder start, and between them they
show ``ROLES_SHOWN``. A search (lowest seed first) replaces a recipe that no longer gives what it
was chosen for.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine import registry
from arbiter.engine.bench import play_random
from arbiter.engine.session import Session
from arbiter.engine.transcript import dump
from golden_games import roles_plots as roles

GAME = "magic-maze"
ROLES = "hidden-roles"
SECTIONS = {
    GAME: "Magic Maze: scenario, players, the bots on every seat and the seed. Planner games are the\n"
          "wins, random games the losses.",
    ROLES: "Hidden Roles: the level, scenario, players, the plot (tools/golden_games/roles_plots.py)\n"
           "and seed, and what the game shows.",
}
SEARCH_LIMIT = 60
# (scenario, players) of the wins and losses wanted: every scenario with a team, and solo.
WANTED = [(s, p) for s, p in zip("1234567", (2, 3, 4, 5, 6, 7, 8))] + [("1", 1), ("2", 1)]
ROLES_LEVELS = (1, 2, 3, 4, 5)
ROLES_SHOWN = ("hero-accused", "traitor-eliminated", "failed-mission", "switch", "abandon", "divine-right")
"""What the Hidden Roles goldens must show between them (besides two games per level)."""


# ------------------------------------------------------------------------------------ base game
def want() -> list[tuple[str, int, str]]:
    """(scenario, players, end) of every golden the tool requires."""
    return [(s, p, end) for s, p in WANTED for end in ("win", "loss")]


def play(recipe: dict[str, Any]) -> Session:
    return play_random(registry.get(GAME), recipe["scenario"], recipe["seed"], kind=recipe["bots"],
                       options={"players": recipe["players"]})


def end_of(session: Session) -> str:
    result = session.state.result
    return "unfinished" if result is None else ("win" if result.winner else "loss")


def file_name(recipe: dict[str, Any], session: Session) -> str:
    return f"scenario{recipe['scenario']}-{recipe['players']}p-{recipe['bots']}-{end_of(session)}-seed{recipe['seed']}.yaml"


def generate_base(recipes: list[dict[str, Any]]) -> tuple[dict[str, str], list[tuple[str, int, str]]]:
    files: dict[str, str] = {}
    have = set()
    for recipe in recipes:
        session = play(recipe)
        session.note({"golden": f"{recipe['bots']} bots on every seat"})
        files[file_name(recipe, session)] = dump(session)
        have.add((recipe["scenario"], recipe["players"], end_of(session)))
    return files, [w for w in want() if w not in have]


def search_base(missing: list[tuple[str, int, str]]) -> list[dict[str, Any]]:
    found = []
    for scenario, players, end in missing:
        bots = "planner" if end == "win" else "random"
        for seed in range(1, SEARCH_LIMIT + 1):
            recipe = {"scenario": scenario, "players": players, "bots": bots, "seed": seed}
            if end_of(play(recipe)) == end:
                found.append(recipe)
                print(f"{GAME}: + {recipe}")
                break
        else:
            raise SystemExit(f"no seed up to {SEARCH_LIMIT} gives a {end} in scenario {scenario} with {players}")
    return found


# ------------------------------------------------------------------------------------ Hidden Roles
def roles_file_name(recipe: dict[str, Any], session: Session) -> str:
    result = session.state.result
    end = "unfinished" if result is None else result.winner
    custom = ("-custom" if "deck" in recipe else "") + ("-out-of-order" if recipe.get("out_of_order_start") else "")
    return (f"roles-level{recipe['level']}{custom}-scenario{recipe['scenario']}-{recipe['players']}p-{recipe['plot']}-"
            f"{end}-seed{recipe['seed']}.yaml")


def shows_enough(recipe: dict[str, Any], session: Session) -> bool:
    return session.state.result is not None and set(recipe["shows"]) <= roles.shows(session)


def generate_roles(recipes: list[dict[str, Any]]) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The Hidden Roles goldens, and the recipes that no longer show what they must."""
    files: dict[str, str] = {}
    broken = []
    for recipe in recipes:
        session = roles.play(recipe)
        if not shows_enough(recipe, session):
            broken.append(recipe)
        session.note({"golden": f"planner bots on every seat; plot: {recipe['plot']}"})
        files[roles_file_name(recipe, session)] = dump(session)
    return files, broken


def roles_missing(recipes: list[dict[str, Any]]) -> list[str]:
    """What the Hidden Roles recipes lack: two games per level, a game of a custom role deck
    (``--deck FILE``), one of a deck's harder start (``out_of_order_start``), and ``ROLES_SHOWN``."""
    levels = [r["level"] for r in recipes]
    shown = {item for r in recipes for item in r["shows"]}
    return ([f"level {n}" for n in ROLES_LEVELS if levels.count(n) < 2]
            + ([] if any("deck" in r for r in recipes) else ["a custom role deck"])
            + ([] if any(r.get("out_of_order_start") for r in recipes) else ["a custom deck's harder start"])
            + [item for item in ROLES_SHOWN if item not in shown])


def roles_search(recipe: dict[str, Any]) -> dict[str, Any]:
    for seed in range(1, SEARCH_LIMIT + 1):
        found = dict(recipe, seed=seed)
        if shows_enough(found, roles.play(found)):
            print(f"{ROLES}: + {found}")
            return found
    raise SystemExit(f"no seed up to {SEARCH_LIMIT} makes {recipe} show {recipe['shows']}")


# ------------------------------------------------------------------------------------ both
def generate(doc: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Play every recipe of both lists: file name -> transcript text, and what they lack."""
    files, missing = generate_base(doc.get(GAME) or [])
    roles_recipes = doc.get(ROLES) or []
    roles_files, broken = generate_roles(roles_recipes)
    problems = [f"the recipes no longer give {missing}"] if missing else []
    problems += [f"the Hidden Roles recipe {r} no longer shows {r['shows']}" for r in broken]
    problems += [f"no Hidden Roles recipe gives {m}" for m in roles_missing(roles_recipes)]
    return {**files, **roles_files}, problems


def search(doc: dict[str, Any]) -> dict[str, Any]:
    """New seeds for broken recipes: base games per missing (scenario, players, end); a Hidden
    Roles recipe keeps its level, scenario, players, plot and what it shows. What no recipe
    asks for (a level without two games, an item nobody shows) needs a recipe written by hand."""
    recipes = list(doc.get(GAME) or [])
    _, missing = generate_base(recipes)
    if missing:
        kept = [r for r in recipes if (r["scenario"], r["players"], "win" if r["bots"] == "planner" else "loss")
                not in missing]
        recipes = sorted(kept + search_base(missing), key=lambda r: (r["scenario"], r["players"], r["bots"]))
    roles_recipes = list(doc.get(ROLES) or [])
    lacking = roles_missing(roles_recipes)
    if lacking:
        raise SystemExit(f"add Hidden Roles recipes to tools/goldens.yaml for: {', '.join(lacking)}")
    _, broken = generate_roles(roles_recipes)
    roles_recipes = [roles_search(r) if r in broken else r for r in roles_recipes]
    return {GAME: recipes, ROLES: roles_recipes}

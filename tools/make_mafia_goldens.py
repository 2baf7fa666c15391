#!/usr/bin/env python3
"""Write the golden transcripts of Classic Mafia (``transcripts/mafia/*.yaml``).

Each golden is one whole game written with ``engine.transcript.dump``. The games are listed
in ``tools/mafia_goldens.yaml`` (the *recipes*): player count, seed, and optionally a custom
deck, or a seat that leaves the game after some inputs. Every game is played by the built-in
random bot on every seat (what ``arbiter play mafia --bots random`` plays).

The recipes must give every player count (6-12) a town win and a Mafia win, and together
show everything in ``REQUIRED``: a tied vote and its re-vote, a re-vote tied again, the
Agent's protection holding, the Seducer's protection saving a victim, an arrest skipping a
night action, a Fighter's kill, a Chameleon's ban, team talk at night, the Agent and the
Police head declining their powers (pass), a player leaving, and a custom deck. When they no longer do (after a rules change), a deterministic search adds
games and rewrites the recipes. One command regenerates everything:

    python tools/make_mafia_goldens.py            # write (searching only if coverage broke)
    python tools/make_mafia_goldens.py --check    # regenerate in memory, compare with the files
    python tools/make_mafia_goldens.py --search   # forget the recipes and search afresh
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

from engine import registry  # noqa: E402
from engine.bots import RandomBot  # noqa: E402
from engine.games.mafia.rules import variant_name  # noqa: E402
from engine.session import Session  # noqa: E402
from engine.transcript import dump  # noqa: E402

GAME = "mafia"
OUT = ROOT / "transcripts" / GAME
RECIPES = Path(__file__).resolve().with_name("mafia_goldens.yaml")
MAX_INPUTS = 5000
SEARCH_LIMIT = 300
LEAVE_AFTER = 12
# A custom deck for the custom-deck golden: both loners, the Agent, a 9-player table.
CUSTOM_DECK = {"agent": 1, "civilian": 2, "chief": 1, "police": 1, "boss": 1, "mafia": 1,
               "chameleon": 1, "fighter": 1}
REQUIRED = ("revote", "revote-tied", "protection-held", "seducer-saved", "arrest-skip", "fighter-kill",
            "ban", "team-talk", "agent-pass", "police-pass", "leave", "custom-deck", "end: nobody")


def coverage(session: Session) -> set[str]:
    """What one game shows (see ``REQUIRED``) and how it ended (``end: town`` ...)."""
    items = set()
    for e in session.events:
        if e.kind == "verdict" and "tied" in e.data:
            items.add("revote")
        if e.kind == "verdict" and "re-vote is tied again" in e.text:
            items.add("revote-tied")
        if e.kind == "verdict" and "protected" in e.data:
            items.add("protection-held")
        if e.kind == "night-summary" and e.data["saved"]:
            items.add("seducer-saved")
        if e.kind == "arrested":
            items.add("arrest-skip")
        if e.kind == "night-summary" and e.data["acts"].get("fighter", [None, "pass"])[1] == "kill":
            items.add("fighter-kill")
        if e.kind == "morning" and "no_vote" in e.data:
            items.add("ban")
        if e.kind == "team-say":
            items.add("team-talk")
        if (e.kind == "night-act" and e.data["verb"] == "pass" and e.data["step"] in ("agent", "police")
                and "under arrest" not in e.text):
            items.add(f"{e.data['step']}-pass")  # declined by choice, not under arrest
    if any(m.text == "leave" for m in session.moves):
        items.add("leave")
    if "deck" in session.options:
        items.add("custom-deck")
    result = session.state.result
    items.add(f"end: {result.winner or 'nobody'}" if result else "unfinished")
    return items


def play(recipe: dict[str, Any]) -> Session:
    options: dict[str, Any] = {}
    if "deck" in recipe:
        options = {"deck": dict(recipe["deck"]), "title": "golden custom deck"}
    seed = recipe["seed"]
    session = Session(registry.get(GAME), variant_name(recipe["players"]), seed=seed, options=options)
    how = "random bots on every seat"
    if "leave" in recipe:
        how += f"; {recipe['leave']} leaves after {recipe['after']} inputs"
    session.note({"golden": how})
    bots = {seat: RandomBot(seat, seed) for seat in session.seats}
    left = False
    while not session.over:
        if len(session.moves) >= MAX_INPUTS:
            raise SystemExit(f"{recipe}: no end after {MAX_INPUTS} inputs")
        if "leave" in recipe and not left and len(session.moves) >= recipe["after"]:
            left = True
            if session.state.alive[recipe["leave"]]:
                session.submit(recipe["leave"], "leave")
                continue
        seat = session.state.awaiting()[0].seat
        text = bots[seat].choose(session)
        if text is None:
            raise SystemExit(f"{recipe}: {seat} has no legal input")
        session.submit(seat, text)
    return session


def file_name(recipe: dict[str, Any], session: Session) -> str:
    result = session.state.result
    end = (result.winner or "nobody") if result else "unfinished"
    extra = "-custom" if "deck" in recipe else f"-{recipe['leave']}-leaves" if "leave" in recipe else ""
    return f"{recipe['players']}-players{extra}-{end}-seed{recipe['seed']}.yaml"


# ------------------------------------------------------------------------------------ recipes
def counted(recipe: dict[str, Any], got: set[str]) -> set[str]:
    """What a game adds to its player count: a custom-deck or leaving game does not stand for
    the default deck's endings."""
    if "deck" in recipe or "leave" in recipe:
        return {g for g in got if not g.startswith("end: ")}
    return got


def player_counts() -> list[int]:
    return [len(v.seats) for v in registry.get(GAME).variants()]


def load_recipes() -> list[dict[str, Any]]:
    if not RECIPES.exists():
        return []
    doc = yaml.safe_load(RECIPES.read_text(encoding="utf-8")) or {}
    return list(doc.get(GAME) or [])


def save_recipes(recipes: list[dict[str, Any]]) -> None:
    lines = [
        "# The golden games of tools/make_mafia_goldens.py: player count and seed of each game",
        "# (random bots on every seat), with a custom deck or a seat that leaves where given.",
        "# Written by the generator's search; together they must cover what the tool requires.",
        f"{GAME}:",
    ]
    for r in recipes:
        body = ", ".join(f"{k}: {_flow(r[k])}" for k in ("players", "seed", "leave", "after", "deck") if k in r)
        lines.append(f"- {{{body}}}")
    RECIPES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


def missing(have_by_players: dict[int, set[str]]) -> set[str]:
    need = set()
    for n in player_counts():
        for end in ("town", "mafia"):
            if f"end: {end}" not in have_by_players.get(n, set()):
                need.add(f"{n}: end: {end}")
    every = set().union(*have_by_players.values()) if have_by_players else set()
    return need | (set(REQUIRED) - every)


def search(recipes: list[dict[str, Any]], log: list[str]) -> list[dict[str, Any]]:
    """Add games until ``missing`` is empty: per player count the first seeds that give each
    missing ending, then greedily (lowest seed first) games that show a missing item."""
    recipes = list(recipes)
    have: dict[int, set[str]] = {}
    for r in recipes:
        have.setdefault(r["players"], set()).update(counted(r, coverage(play(r))))
    used = {(r["players"], r["seed"]) for r in recipes}

    def add(recipe: dict[str, Any], got: set[str]) -> None:
        recipes.append(recipe)
        used.add((recipe["players"], recipe["seed"]))
        have.setdefault(recipe["players"], set()).update(counted(recipe, got))
        log.append(f"+ {recipe} shows {sorted(got)}")

    if "custom-deck" in missing(have):
        n = sum(CUSTOM_DECK.values())
        for seed in range(1, SEARCH_LIMIT + 1):
            recipe = {"players": n, "seed": seed, "deck": dict(CUSTOM_DECK)}
            got = coverage(play(recipe))
            if got & {"end: town", "end: mafia"}:
                add(recipe, got)
                break
    if "leave" in missing(have):
        recipe = {"players": 8, "seed": 1, "leave": "p3", "after": LEAVE_AFTER}
        add(recipe, coverage(play(recipe)))
    for seed in range(1, SEARCH_LIMIT + 1):
        need = missing(have)
        if not need:
            return recipes
        for n in player_counts():
            if (n, seed) in used:
                continue
            got = coverage(play({"players": n, "seed": seed}))
            gain = {f"{n}: {g}" for g in got if g.startswith("end: ")} | got
            if gain & need:
                add({"players": n, "seed": seed}, got)
                need = missing(have)
    raise SystemExit(f"no seed up to {SEARCH_LIMIT} covers {sorted(missing(have))}")


# ------------------------------------------------------------------------------------ main
def generate(recipes: list[dict[str, Any]]) -> tuple[dict[str, str], set[str]]:
    """Play every recipe: file name -> transcript text, and what is still missing."""
    files: dict[str, str] = {}
    have: dict[int, set[str]] = {}
    for recipe in recipes:
        session = play(recipe)
        name = file_name(recipe, session)
        if name in files:
            raise SystemExit(f"{RECIPES}: two games would be written to {name}; use another seed")
        files[name] = dump(session)
        have.setdefault(recipe["players"], set()).update(counted(recipe, coverage(session)))
    return files, missing(have)


def on_disk() -> dict[str, str]:
    return golden_files.on_disk(OUT)


def check() -> list[str]:
    """Differences between the regenerated goldens and the files; empty when they agree."""
    files, lacking = generate(load_recipes())
    problems = [f"the recipes no longer cover {sorted(lacking)}"] if lacking else []
    return problems + golden_files.compare(files, OUT, f"transcripts/{GAME}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory and compare with the files on disk; write nothing")
    parser.add_argument("--search", action="store_true", help="forget the recipes and search afresh")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        print("\n".join(problems) if problems else f"goldens up to date ({len(on_disk())} files)")
        return 1 if problems else 0
    recipes = [] if args.search else load_recipes()
    files, lacking = generate(recipes)
    if lacking:
        log: list[str] = []
        recipes = search(recipes, log)
        print("\n".join(log))
        recipes.sort(key=lambda r: (r["players"], "deck" in r, "leave" in r, r["seed"]))
        save_recipes(recipes)
        print(f"wrote {RECIPES.relative_to(ROOT)}")
        files, lacking = generate(recipes)
        assert not lacking, lacking
    golden_files.write(files, OUT, f"transcripts/{GAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

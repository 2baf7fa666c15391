"""Classic Mafia's goldens (``transcripts/mafia/``): the built-in random bot on every seat (what
``arbiter play mafia --bots random`` plays); a recipe gives the player count and seed, and
optionally a custom deck, or a seat that leaves the game after some inputs.

The recipes must give every player count (6-12) a town win and a Mafia win, and together show
everything in ``REQUIRED``: a tied vote and its re-vote, a re-vote tied again, the Agent's
protection holding, the Seducer's protection saving a victim, an arrest skipping a night action,
a Fighter's kill, a Chameleon's ban, team talk at night, the Agent and the Police head declining
their powers (pass), a player leaving, a custom deck, and a game nobody wins.
"""

from __future__ import annotations

from typing import Any

from arbiter.engine import registry
from arbiter.engine.bots import RandomBot
from arbiter.engine.games.mafia.rules import variant_name
from arbiter.engine.session import Session
from arbiter.engine.transcript import dump

GAME = "mafia"
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


SECTIONS = {GAME: "Classic Mafia: player count and seed of each game (random bots on every seat), with a\n"
                  "custom deck or a seat that leaves where given."}


def player_counts() -> list[int]:
    return [len(v.seats) for v in registry.get(GAME).variants()]


def missing(have_by_players: dict[int, set[str]]) -> set[str]:
    need = set()
    for n in player_counts():
        for end in ("town", "mafia"):
            if f"end: {end}" not in have_by_players.get(n, set()):
                need.add(f"{n}: end: {end}")
    every = set().union(*have_by_players.values()) if have_by_players else set()
    return need | (set(REQUIRED) - every)


def _search(recipes: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
        print(f"{GAME}: + {recipe} shows {sorted(got)}")

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


def _played(doc: dict[str, Any]) -> tuple[dict[str, str], set[str]]:
    files: dict[str, str] = {}
    have: dict[int, set[str]] = {}
    for recipe in doc.get(GAME) or []:
        session = play(recipe)
        name = file_name(recipe, session)
        if name in files:
            raise SystemExit(f"{GAME}: two games would be written to {name}; use another seed")
        files[name] = dump(session)
        have.setdefault(recipe["players"], set()).update(counted(recipe, coverage(session)))
    return files, missing(have)


def generate(doc: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Play every recipe: file name -> transcript text, and what the recipes no longer cover."""
    files, lacking = _played(doc)
    return files, [f"the recipes no longer cover {sorted(lacking)}"] if lacking else []


def search(doc: dict[str, Any]) -> dict[str, Any]:
    """Keep every recipe and add games until nothing is missing, sorted by player count."""
    recipes = _search(list(doc.get(GAME) or []))
    recipes.sort(key=lambda r: (r["players"], "deck" in r, "leave" in r, r["seed"]))
    return {GAME: recipes}

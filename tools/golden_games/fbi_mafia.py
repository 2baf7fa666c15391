"""FBI vs Mafia's goldens (``transcripts/fbi-mafia/``): per sub-mode, games played by a policy.

Policies:

- ``random``: the built-in random bot on every seat (what ``arbiter play --bots random`` plays);
- ``informed-fbi``: the Mafia plays randomly; an FBI character arrests a living Mafia identity
  whenever one is in its reach, using the host's knowledge (this only chooses inputs, which are
  recorded like any other), otherwise plays randomly; it gives FBI arrest wins;
- ``surrender``: random moves until ``after`` inputs were played, then ``seat`` surrenders.

Together the games of each sub-mode must cover every action of the mode, the protection step
(placing, removing and skipping), threat placement, both answers to both interrupts, friendly
fire, a chain detonation, threat kills and all three endings (kills, arrests, surrender); see
``required``. At least two games per sub-mode.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbiter.engine import registry
from arbiter.engine.bots import RandomBot
from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia import data as fm_data
from arbiter.engine.session import Session
from arbiter.engine.transcript import dump

GAME = "fbi-mafia"
POLICIES = ("random", "informed-fbi")
MAX_INPUTS = 5000  # a game that has not ended by then is a bug
SEARCH_WINDOW = 12  # seeds tried per search round (each with every policy)
SEARCH_LIMIT = 400  # highest seed the search tries
SURRENDER_AFTER = 40


# ------------------------------------------------------------------------------------ coverage
def required(mode: str) -> set[str]:
    """What the goldens of ``mode`` must show, from the mode's data (so a new action is required
    as soon as the data gives it to a character)."""
    d = fm_data.load()
    spec = d.modes[mode]
    roles = [d.roles[c] for c in spec.turn_order]
    actions = {"shift"} | {a for r in roles for a in r.actions}
    if "inspect" in actions:
        actions.add("keep")
    steps = {s for r in roles for s in r.steps}
    items = {f"input: {a}" for a in actions}
    if "protection-before-action" in steps:
        items |= {"input: protect CELL", "input: unprotect CELL", "input: skip", "input: protect yes",
                  "input: protect no"}
    if "threats-after-move" in steps:
        items.add("input: threat")
    if "threat-kills-at-start" in steps:
        items.add("event: threat-kill")
    if "detonate" in actions:
        items |= {"input: detonate yes", "input: detonate no", "chain detonation"}
    items |= {"event: friendly-fire", "end: kills", "end: arrests", "end: surrender"}
    return items


def coverage(session: Session) -> set[str]:
    """What one game shows: its inputs, some events, its ending."""
    items = set()
    for move in session.moves:
        words = move.text.split()
        if words[0] in ("protect", "detonate") and words[1:] in (["yes"], ["no"]):
            items.add(f"input: {words[0]} {words[1]}")
        elif words[0] in ("protect", "unprotect"):
            items.add(f"input: {words[0]} CELL")
        elif words[0] != "surrender":
            items.add(f"input: {words[0]}")
    kinds = [e.kind for e in session.events]
    for kind in ("friendly-fire", "threat-kill"):
        if kind in kinds:
            items.add(f"event: {kind}")
    if max(chains(kinds), default=0) >= 2:
        items.add("chain detonation")
    if session.state.result is not None:
        items.add(f"end: {session.state.result.reason}")
    return items


def chains(kinds: list[str]) -> Iterable[int]:
    """The number of explosions each Detonate action set off."""
    count = None
    for kind in kinds + ["turn"]:
        if kind == "detonate":
            count = 0
        elif kind == "explosion" and count is not None:
            count += 1
        elif kind in ("turn", "game-over") and count is not None:
            yield count
            count = None


# ------------------------------------------------------------------------------------ policies
def informed_arrest(session: Session, seat: str) -> str | None:
    """An arrest of a living Mafia identity, if the awaited FBI character has one in reach."""
    host = session.state.view(HOST)
    roles = fm_data.load().roles
    if host["phase"] != "action" or roles[host["acting"]].team != "fbi":
        return None
    awaited = session.state.awaiting()
    if not awaited or awaited[0].seat != seat or awaited[0].kind != "action":
        return None
    mafia_cells = {i["cell"] for c, i in host["identities"].items() if roles[c].team == "mafia"}
    for move in session.state.legal_inputs(seat):
        words = move.split()
        if words[0] == "arrest" and words[1] in mafia_cells:
            return move
    return None


def describe(recipe: dict[str, Any]) -> str:
    if recipe["policy"] == "random":
        return "random bots on every seat"
    if recipe["policy"] == "informed-fbi":
        return "random Mafia; the FBI arrests known Mafia identities in reach (host knowledge), else random"
    return f"random bots for {recipe['after']} inputs, then {recipe['seat']} surrenders"


def play(mode: str, recipe: dict[str, Any]) -> Session:
    policy, seed = recipe["policy"], recipe["seed"]
    if policy not in (*POLICIES, "surrender"):
        raise SystemExit(f"goldens.yaml: {GAME}: {mode}: unknown policy {policy!r}")
    session = Session(registry.get(GAME), mode, seed=seed)
    session.note({"golden": describe(recipe)})
    bots = {seat: RandomBot(seat, seed) for seat in session.seats}
    while not session.over:
        if policy == "surrender" and len(session.moves) >= recipe["after"]:
            session.submit(recipe["seat"], "surrender")
            break
        if len(session.moves) >= MAX_INPUTS:
            raise SystemExit(f"{mode} {recipe}: no end after {MAX_INPUTS} inputs")
        seat = session.state.awaiting()[0].seat
        text = informed_arrest(session, seat) if policy == "informed-fbi" else None
        if text is None:
            text = bots[seat].choose(session)
        if text is None:
            raise SystemExit(f"{mode} {recipe}: {seat} has no legal input")
        session.submit(seat, text)
    return session


def file_name(mode: str, recipe: dict[str, Any], session: Session) -> str:
    reason = session.state.result.reason if session.state.result else "unfinished"
    return f"{mode}-{reason}-seed{recipe['seed']}.yaml"


SECTIONS = {GAME: "FBI vs Mafia: per sub-mode, the policy and seed of each game (surrender games: after\n"
                  "how many inputs, and which seat); together they cover everything golden_games/fbi_mafia.py requires."}


# ------------------------------------------------------------------------------------ recipes
def modes() -> list[str]:
    return [v.name for v in registry.get(GAME).variants()]


def _search_mode(mode: str, recipes: list[dict[str, Any]], have: set[str]) -> list[dict[str, Any]]:
    """Add games to ``recipes`` until they cover ``required(mode)``; deterministic (greedy: each
    round plays a window of seeds with every policy and keeps the game covering most)."""
    recipes = list(recipes)
    need = required(mode) - have
    used = {r["seed"] for r in recipes}

    def unused() -> Iterable[int]:
        return (s for s in range(1, SEARCH_LIMIT + 1) if s not in used)

    if "end: surrender" in need:
        seats = registry.get(GAME).variant(mode).seats
        for seed in unused():
            recipe = {"policy": "surrender", "seed": seed, "after": SURRENDER_AFTER, "seat": seats[-1]}
            got = coverage(play(mode, recipe))
            if "end: surrender" in got:
                recipes.append(recipe)
                used.add(seed)
                need -= got
                print(f"{mode}: + {recipe} covers {sorted(got & required(mode))}")
                break
    seeds = list(unused())
    while need:
        if not seeds:
            raise SystemExit(f"{mode}: no seed up to {SEARCH_LIMIT} covers {sorted(need)}")
        window, seeds = seeds[:SEARCH_WINDOW], seeds[SEARCH_WINDOW:]
        best: tuple[int, dict[str, Any], set[str]] | None = None
        for seed in window:
            for policy in POLICIES:
                recipe = {"policy": policy, "seed": seed}
                gain = coverage(play(mode, recipe)) & need
                if gain and (best is None or len(gain) > best[0]):
                    best = (len(gain), recipe, gain)
        if best is not None:
            recipes.append(best[1])
            used.add(best[1]["seed"])
            need -= best[2]
            seeds = [s for s in seeds if s not in used] + [s for s in window if s not in used]
            seeds.sort()
            print(f"{mode}: + {best[1]} covers {sorted(best[2])}")
    if len(recipes) < 2:
        recipes.append({"policy": "random", "seed": next(iter(unused()))})
    return recipes


def _played(doc: dict[str, Any]) -> tuple[dict[str, str], dict[str, set[str]]]:
    files: dict[str, str] = {}
    missing: dict[str, set[str]] = {}
    sections = doc.get(GAME) or {}
    for mode in modes():
        have: set[str] = set()
        for recipe in sections.get(mode) or []:
            session = play(mode, recipe)
            name = file_name(mode, recipe, session)
            if name in files:
                raise SystemExit(f"{GAME}: two games would be written to {name}; use another seed")
            files[name] = dump(session)
            have |= coverage(session)
        missing[mode] = required(mode) - have
        if len(sections.get(mode) or []) < 2:
            missing[mode].add("a second game")
    return files, missing


def generate(doc: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Play every recipe: file name -> transcript text, and what each sub-mode still lacks."""
    files, missing = _played(doc)
    return files, [f"{mode}: the recipes no longer cover {sorted(m)}" for mode, m in missing.items() if m]


def search(doc: dict[str, Any]) -> dict[str, Any]:
    """Keep every recipe and add games to the sub-modes that lack something."""
    _, missing = _played(doc)
    sections = dict(doc.get(GAME) or {})
    for mode in modes():
        if missing[mode]:
            have = required(mode) - missing[mode]
            sections[mode] = _search_mode(mode, sections.get(mode) or [], have)
    return {GAME: {mode: sections.get(mode) or [] for mode in modes()}}

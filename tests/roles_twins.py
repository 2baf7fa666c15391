"""The twin games of Hidden Roles' hidden-information tests (``test_roles_hidden_info.py``) and
of its bot's (``test_roles_bot.py``): a game started from recorded chance outcomes, and the
deals that differ from its deal only in seats other than one (two other seats' cards swapped,
or another seat given a card left in the deck); what shows a card legitimately; and the next
input both twins of a pair (``pair.a``, ``pair.b``) are fed.
"""

from __future__ import annotations

import random
from typing import Any

from arbiter.engine.chance import ChanceRecord
from arbiter.engine.games.magic_maze.roles import data as rd
from arbiter.engine.session import Session

from tests.roles_staging import D, MAZE

REVEALING = ("reveal", "failed")


def start(scenario: str, players: int, level: int, seed: int, recs: list[ChanceRecord] = ()) -> Session:
    return Session(MAZE, scenario, seed=seed, options={"players": players, "roles": level}, recorded=recs)


def places(s: Session) -> dict[str, int]:
    """Where in the ``roles`` outcome each seat's card lies (after the cards it discarded)."""
    (deal,) = [r for r in s.chance.records if r.label == "roles"]
    feats = rd.features(D, s.state.scenario)
    out, k = {}, 0
    for seat in s.seats:
        while not rd.load().cards[deal.outcome[k]].condition.met(len(s.seats), feats):
            k += 1
        out[seat] = k
        k += 1
    return out


def twins(s: Session, me: str, rng: random.Random) -> list[tuple[str, list[ChanceRecord]]]:
    """Deals that differ from ``s``'s only in seats other than ``me``."""
    recs = list(s.chance.records)
    i = next(k for k, r in enumerate(recs) if r.label == "roles")
    outcome = list(recs[i].outcome)
    at = places(s)
    feats = rd.features(D, s.state.scenario)
    others = [x for x in s.seats if x != me]
    out = []
    pairs = [(x, y) for x in others for y in others if x < y and outcome[at[x]] != outcome[at[y]]]
    if pairs:
        x, y = rng.choice(pairs)
        twin = list(outcome)
        twin[at[x]], twin[at[y]] = twin[at[y]], twin[at[x]]
        out.append((f"swap {x} {y}", twin))
    last = max(at.values())
    spare = [k for k in range(last + 1, len(outcome))
             if rd.load().cards[outcome[k]].condition.met(len(s.seats), feats)]
    x = rng.choice(others)
    spare = [k for k in spare if outcome[k] != outcome[at[x]]]
    if spare:
        k = rng.choice(spare)
        twin = list(outcome)
        twin[at[x]], twin[k] = twin[k], twin[at[x]]
        out.append((f"{x} gets {outcome[k]}", twin))
    return [(name, recs[:i] + [ChanceRecord("roles", twin)] + recs[i + 1:]) for name, twin in out]


def both(pair: Any, seat: str) -> list[str]:
    """What ``seat`` may send in both twins (its card may differ between them)."""
    b = set(pair.b.state.legal_inputs(seat))
    return [m for m in pair.a.state.legal_inputs(seat) if m in b]


def next_input(pair: Any, rng: random.Random) -> tuple[str, str | int] | None:
    st = pair.a.state
    deadline = st.next_deadline()
    if deadline is not None and st.changes_by_time(pair.a.clock_ms + st.clock_step_ms):
        return "", max(0, deadline - pair.a.clock_ms)  # time acts before any input could land
    vote = st.vote
    if vote is not None and rng.random() < 0.6:
        waiting = [v for v in vote.waiting(st.out) if "vote no" in both(pair, v)]
        if waiting:
            return rng.choice(waiting), "vote " + ("yes" if rng.random() < 0.35 else "no")
    roll = rng.random()
    if roll < 0.65:
        for seat in st.seats:
            text = MAZE.bot_input("planner", st, seat, rng)
            if text is not None and text in both(pair, seat):
                return seat, text
    if roll < 0.72:
        return "", rng.randint(500, 5000)
    seat = rng.choice(st.seats)
    options = [m for m in both(pair, seat) if not m.startswith(("move", "vortex", "escalator", "explore"))]
    accusations = [m for m in options if m.startswith("accuse")]
    options = [m for m in options if not m.startswith(("accuse", "abandon"))]
    if accusations and rng.random() < 0.08:
        options = [rng.choice(accusations)]
    elif "abandon" in both(pair, seat) and rng.random() < 0.01:
        options = ["abandon"]
    talk = "say TEXT" in pair.a.state.input_forms(seat) and "say TEXT" in pair.b.state.input_forms(seat)
    if talk:
        options.append("say the dwarf, now")
    return (seat, rng.choice(options)) if options else None

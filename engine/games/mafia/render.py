"""The ASCII table of a Classic Mafia game as one seat (or the host) sees it. No empty lines.

One row per seat: alive or out (and how), the card if the viewer may know it, and today's
nominations and votes. A seat's table adds its own card, its team, and, while its team is
awake at night, the team's suggestions. The rules object draws it (``MafiaRules.render``); the
state never imports it.
"""

from __future__ import annotations

import textwrap

from arbiter.engine.events import HOST
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT, VOTE

HEADERS = ("seat", "status", "card", "nominated by", "vote", "note")
NOTE_COLUMN = 16
"""Notes longer than this are written under the table, so the table fits 80 columns."""


def _row(state: MafiaState, viewer: str, seat: str) -> tuple[str, ...]:
    status = "alive" if state.alive[seat] else "out: " + state.fate[seat]
    card = state.title_of(seat) if state.knows_card(viewer, seat) else "?"
    notes = []
    if seat == viewer:
        notes.append("you")
    elif viewer != HOST and state.team_of(viewer) is not None and state.team_of(viewer) == state.team_of(seat):
        notes.append("your team")
    if state.no_vote == seat and state.phase != NIGHT and state.alive[seat]:
        notes.append("may not vote today")
    if viewer == HOST and state.jailed == seat:
        notes.append("under arrest tonight" if state.phase == NIGHT else "arrested: skips next night")
    if viewer == HOST and state.shielded == seat and state.phase != NIGHT:
        notes.append("protected from today's vote")
    nominator = state.nominations.get(seat, "") if state.phase != NIGHT else ""
    vote = ""
    if state.phase == VOTE and seat in state.votes:
        vote = state.votes[seat] or "abstain"
    return (seat, status, card, nominator, vote, ", ".join(notes))


def render_table(state: MafiaState, viewer: str) -> str:
    rows = [HEADERS] + [_row(state, viewer, s) for s in state.seats]
    notes = [f"note: {r[0]}: {r[-1]}" for r in rows[1:] if len(r[-1]) > NOTE_COLUMN]
    rows = [r if len(r[-1]) <= NOTE_COLUMN else (*r[:-1], "(below)") for r in rows]
    widths = [max(map(len, column)) for column in zip(*rows)]
    lines = [f"Classic Mafia, {state.title}: {state.phase_text()}"]
    if state.phase == VOTE and state.result is None:
        lines.append(f"candidates: {' '.join(state.candidates)}   next to vote: {state.current_voter() or '-'}")
    for i, r in enumerate(rows):
        lines.append("  ".join([cell.ljust(w) for cell, w in zip(r, widths)]).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += notes
    step = state.step()
    if step is not None and state.result is None:
        lines.append(f"awake: {step.wake}")
        if step.team and (viewer == HOST or viewer in state.awake_team(step.team)):
            said = ", ".join(f"{s} {t or 'nobody'}" for s, t in state.suggestions.items()) or "none yet"
            lines.append(f"suggestions: {said}")
    if viewer != HOST:
        lines.append(f"your card: {state.title_of(viewer)}" + ("" if state.alive[viewer] else " (out)"))
    c = state.counts() if viewer == HOST or state.result is not None else None
    if c is not None:
        lines.append(f"alive: town {c['town']}, mafia {c['mafia']}, loners {c['loner']}")
    if state.result is not None:
        lines.append(f"result: {state.result.text}")
    return "\n".join(part for line in lines for part in
                     (textwrap.wrap(line, 80, subsequent_indent="  ") if len(line) > 80 else [line]))

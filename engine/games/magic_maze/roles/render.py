"""The Hidden Roles block drawn under Magic Maze's status block: the open vote, the accuser's
flip, the eye card, who is out, the revealed cards, the divining, and for a seat its own card
(for the host every card); at the end, one line per player. Every line fits 80 columns."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from arbiter.engine.clock import seconds_name
from arbiter.engine.events import HOST

if TYPE_CHECKING:
    from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState

WIDTH = 80


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_on_hyphens=False)


def render_roles(state: HiddenRolesState, seat: str) -> list[str]:
    lines = [f"Hidden Roles, {state.setup.title}",
             "dealt from: " + ", ".join(name if n == 1 else f"{name} x{n}" for name, n in state.dealt_from().items())]
    vote = state.vote
    if vote is not None:
        lines.append(f"vote: {vote.accuser} accuses {' '.join(vote.accused)} until {seconds_name(vote.closes_ms)} s; "
                     f"yes: {' '.join([vote.accuser, *vote.yes])}; waiting: {' '.join(vote.waiting(state.out)) or '-'}")
    if state.flip_window is not None:
        lines.append(f"flip: {state.flip_window.accuser} may flip the timer until "
                     f"{seconds_name(state.flip_window.until_ms)} s")
    if state.sand_out and state.result is None:  # (once the game is over it waits for nothing)
        waits = "the vote" if vote is not None else f"{state.flip_window.accuser}'s flip" if state.flip_window else "-"
        lines.append(f"the sand has run out: the game waits for {waits}")
    if state.divining is not None:
        d = state.divining
        lines.append(f"divining until {seconds_name(d.until_ms)} s: waiting for {' '.join(d.waiting())}"
                     + (f"; named: {' '.join(d.named)}" if d.named else ""))
    lines.append(f"eye card: {state.eye or 'on the table'}; pawn put by: {state.pawn_by or '-'}")
    if state.out:
        lines.append("out: " + ", ".join(f"{s} ({'phantom' if s in state.phantoms else state.out[s]})"
                                         for s in state.eliminated))
    if state.revealed and state.result is None:
        lines.append("revealed: " + ", ".join(f"{s} {state.cards[s]} ({state.side[s]})" for s in state.revealed))
    shown = state.seats if seat == HOST else (seat,) if seat in state.seats else ()
    if state.result is None:
        for s in shown:
            card = state.card_of(s)
            t = state.tracking.of(s)
            status = f" [{'mission' if t.purpose == 'mission' else 'switch'}: {t.progress()}]" if t else ""
            who = "your card" if seat != HOST else f"{s}'s card"
            lines.append(f"{who}: {card.title} ({card.id}), {state.side[s]}{status}. {card.text}")
    else:
        players = state.result.scores.get("players", {})
        for s in state.seats:
            p = players.get(s, {})
            lines.append(f"{s}: {p.get('card')}, {p.get('side')}: {'won' if p.get('won') else 'lost'} "
                         f"({p.get('why')})")
    return [wrapped for line in lines for wrapped in _wrap(line)]

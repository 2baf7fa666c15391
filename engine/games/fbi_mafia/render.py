"""ASCII board of FBI vs Mafia, as one seat (or the host) sees it. No empty lines."""

from __future__ import annotations

import textwrap
from functools import lru_cache

from typing import TYPE_CHECKING

from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia.grid import COLUMNS, cell_name
from arbiter.engine.games.fbi_mafia.moves import move_name

if TYPE_CHECKING:
    from arbiter.engine.games.fbi_mafia.state import FbiMafiaState

WIDTH = 8
LEGEND = "Legend: * identity shown to you  P protection  B bomb  T threat  ok cleared"


def _marks(state: FbiMafiaState, name: str) -> str:
    """The second line of a card's cell: dead, ARREST, or its tokens' letters and ``ok`` when cleared."""
    status = state.status[name]
    if status == "dead":
        return " dead"
    if status == "arrested":
        return " ARREST"
    held = state.tokens[name]
    tokens = (("P" if "protection" in held else " ") + ("B" if "bomb" in held else " ")
              + ("T" if "threat" in held else " ")) if held else "   "
    return f" {tokens} {'ok' if name in state.cleared else ''}"


def render_board(state: FbiMafiaState, seat: str) -> str:
    """The board as ``seat`` (or the host) sees it: the score, the grid of cards with their
    marks, the identities it knows, its own lists (``seat_lists``), what is awaited, the legend."""
    mine = state.characters_of(seat)
    shown = {state.identity[c]: c for c in (state.characters if state.result else mine)}
    size = state.size
    lines = [f"FBI vs Mafia, {state.mode.title}   turn {state.turn_number}"]
    s = state.score()
    lines.append(
        f"FBI {s['arrests']}/{s['arrests_to_win']} arrests   Mafia {s['kills']}/{s['kills_to_win']} kills"
        f"   deck {len(state.deck)}   last shift: "
        + (move_name(state.last_shift) if state.last_shift else "none")
    )
    border = "   +" + "+".join("-" * WIDTH for _ in range(size)) + "+"
    lines.append(("    " + " ".join(f" {COLUMNS[c]:<{WIDTH - 1}}" for c in range(size))).rstrip())
    lines.append(border)
    for r, row in enumerate(state.grid):
        lines.append(f"{r + 1:>2} |" + "|".join([f"{'*' if name in shown else ' '}{name:<{WIDTH - 1}}"[:WIDTH]
                                                 for name in row]) + "|")
        lines.append("   |" + "|".join([f"{_marks(state, name):<{WIDTH}}"[:WIDTH] for name in row]) + "|")
        lines.append(border)
    if seat == HOST or state.result is not None:
        lines.append("Identities: " + ", ".join(
            f"{c}={state.identity[c]} ({cell_name(state.pos[state.identity[c]])})" for c in state.characters))
    else:
        lines.append(f"You ({seat}): " + ", ".join(
            f"{c}={state.identity[c]} ({cell_name(state.pos[state.identity[c]])})" for c in mine))
    view = state.seat_lists(seat, mine)
    if "hand" in view and view["hand"]:
        lines.append("Evidence hand: " + ", ".join(
            n + (" (revealed)" if n in state.cleared else "") for n in view["hand"]))
    if view.get("kept"):
        lines.append("Kept by inspect (nobody's identity then): " + ", ".join(view["kept"]))
    if view.get("inspecting"):
        lines.append("Inspecting: " + ", ".join(view["inspecting"]))
    for a in view.get("autopsies", []):
        lines.append(f"Autopsy of {a['suspect']} (turn {a['turn']}): "
                     + (", ".join(a["mafia_adjacent"]) or "no Mafia character") + " adjacent")
    if state.result is not None:
        lines.append("Result: " + state.result.text)
    else:
        for a in state.awaiting():
            lines.append(f"Awaiting {a.seat} ({a.kind}): {a.hint}")
    lines.append(LEGEND)
    return "\n".join([part for line in lines for part in ((line,) if len(line) <= 80 else _fit(line))])


@lru_cache(maxsize=1024)
def _fit(line: str, width: int = 80) -> tuple[str, ...]:
    """A status line of the board longer than ``width``, wrapped (the grid's lines are
    narrower); a continuation starts with two spaces. (Long lines repeat from board to board: the last
    thousand are kept.)"""
    return tuple(textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False))

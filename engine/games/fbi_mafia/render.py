"""ASCII board of FBI vs Mafia, as one seat (or the host) sees it. No empty lines."""

from __future__ import annotations

import textwrap

from typing import TYPE_CHECKING

from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia.grid import COLUMNS, cell_name
from arbiter.engine.games.fbi_mafia.moves import move_name

if TYPE_CHECKING:
    from arbiter.engine.games.fbi_mafia.state import FbiMafiaState

WIDTH = 8
LEGEND = "Legend: * identity shown to you  P protection  B bomb  T threat  ok cleared"


def _marks(state: FbiMafiaState, name: str) -> str:
    status = state.status[name]
    if status == "dead":
        return " dead"
    if status == "arrested":
        return " ARREST"
    tokens = "".join(t[0].upper() if t in state.tokens[name] else " " for t in ("protection", "bomb", "threat"))
    return f" {tokens} {'ok' if name in state.cleared else ''}"


def render_board(state: FbiMafiaState, seat: str) -> str:
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
    lines.append("    " + " ".join(f" {COLUMNS[c]:<{WIDTH - 1}}" for c in range(size)))
    lines.append(border)
    for r in range(size):
        top, bottom = [], []
        for c in range(size):
            name = state.grid[r][c]
            mark = "*" if name in shown else " "
            top.append(f"{mark}{name:<{WIDTH - 1}}"[:WIDTH])
            bottom.append(f"{_marks(state, name):<{WIDTH}}"[:WIDTH])
        lines.append(f"{r + 1:>2} |" + "|".join(top) + "|")
        lines.append("   |" + "|".join(bottom) + "|")
        lines.append(border)
    if seat == HOST or state.result is not None:
        lines.append("Identities: " + ", ".join(
            f"{c}={state.identity[c]} ({cell_name(state.pos[state.identity[c]])})" for c in state.characters))
    else:
        lines.append(f"You ({seat}): " + ", ".join(
            f"{c}={state.identity[c]} ({cell_name(state.pos[state.identity[c]])})" for c in mine))
    view = state.view(seat)
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
    return "\n".join(part for line in lines for part in _fit(line))


def _fit(line: str, width: int = 80) -> list[str]:
    """A status line of the board, wrapped at ``width`` (the grid's lines are narrower); a
    continuation starts with two spaces."""
    return textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) if len(line) > width else [line]


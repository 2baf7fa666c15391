"""FBI vs Mafia's views and boards are what they were before they were made quicker: the view
and the ASCII board as first written (kept here as the reference) and the state's own give the
same dictionary, with its keys in the same order and the same types (compared as JSON), and the
same text, for the host and every seat, after every input of random games in every mode (the
protection step, threats, bombs, kills and arrests, cleared cards, the inspect's cards and the
autopsies among them) and at their ends."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import pytest

from arbiter.engine import registry
from arbiter.engine.bench import play_random
from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.grid import COLUMNS, cell_name
from arbiter.engine.games.fbi_mafia.moves import TOKENS, move_name
from arbiter.engine.games.fbi_mafia.render import LEGEND, WIDTH
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")
MODES = [v.name for v in FBI.variants()]


def reference_view(self, seat: str) -> dict[str, Any]:
    """``FbiMafiaState.view`` as first written."""
    mine = self.characters_of(seat)
    board = []
    for cell in grid.cells(self.size):
        name = self._name(cell)
        board.append({
            "cell": cell_name(cell), "suspect": name, "status": self.status[name],
            "tokens": [t for t in TOKENS if t in self.tokens[name]],
            "cleared": name in self.cleared,
        })
    v: dict[str, Any] = {
        "game": "fbi-mafia", "mode": self.mode.name, "seat": seat, "size": self.size,
        "turn": self.turn_number, "acting": self.actor, "phase": self.phase,
        "awaiting": [a.as_dict() for a in self.awaiting()],
        "score": self.score(), "board": board, "deck": len(self.deck),
        "cleared": list(self.cleared),
        "last_shift": move_name(self.last_shift) if self.last_shift else None,
        "identities": {c: {"suspect": self.identity[c], "cell": cell_name(self.pos[self.identity[c]])}
                       for c in mine},
        "result": self.result.as_dict() if self.result else None,
    }
    if self.result is not None:
        v["identities"] = {c: {"suspect": self.identity[c], "cell": cell_name(self.pos[self.identity[c]])}
                           for c in self.characters}
    if any("evidence" in self.roles[c].actions for c in mine):
        v["hand"] = list(self.hand)
    if any("inspect" in self.roles[c].actions for c in mine):
        v["kept"] = list(self.kept)
        v["inspecting"] = list(self.inspecting)
    if any("autopsy" in self.roles[c].actions for c in mine):
        v["autopsies"] = [dict(a) for a in self.autopsies]
    if seat == HOST:
        v["deck_order"] = list(self.deck)
        v["discard"] = list(self.discard)
    return v


def _marks(state, name: str) -> str:
    status = state.status[name]
    if status == "dead":
        return " dead"
    if status == "arrested":
        return " ARREST"
    tokens = "".join(t[0].upper() if t in state.tokens[name] else " " for t in ("protection", "bomb", "threat"))
    return f" {tokens} {'ok' if name in state.cleared else ''}"


def _fit(line: str, width: int = 80) -> list[str]:
    return textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) if len(line) > width else [line]


def reference_render(state, seat: str, view: dict[str, Any] | None = None) -> str:
    """``render.render_board`` as first written (reading the reference view: ``view``, when it
    was just made of this state for this seat)."""
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
    view = reference_view(state, seat) if view is None else view
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


@pytest.mark.parametrize("mode", MODES)
def test_views_and_boards_are_the_reference_ones(mode):
    seen: dict[str, int] = {"tokens": 0, "cleared": 0, "inspecting": 0, "autopsies": 0, "over": 0, "wrapped": 0}
    compared = 0
    for seed in (1, 2, 3):
        whole = play_random(FBI, mode, seed)
        s = Session(FBI, mode, seed=seed)
        for k in range(len(whole.moves) + 1):
            st = s.state
            for seat in (HOST, *st.seats):
                expected = reference_view(st, seat)
                expected_board = reference_render(st, seat, expected)  # both of the state as it is now
                view = st.view(seat)
                assert json.dumps(view) == json.dumps(expected), (seat, k)
                board = s.render(seat)
                assert board == expected_board, (seat, k)
                seen["tokens"] += any(cell["tokens"] for cell in view["board"])
                seen["cleared"] += bool(view["cleared"])
                seen["inspecting"] += bool(view.get("inspecting"))
                seen["autopsies"] += bool(view.get("autopsies"))
                seen["over"] += view["result"] is not None
                seen["wrapped"] += any(line.startswith("  ") and not line.startswith("   ") for line in board.split("\n"))
                compared += 1
            if k < len(whole.moves):
                m = whole.moves[k]
                s.submit(m.seat, m.text, m.time_ms)
    assert compared > 500, compared
    assert seen["tokens"] and seen["over"] and seen["wrapped"], seen
    if mode.endswith("4v4"):
        assert seen["cleared"] and seen["inspecting"] and seen["autopsies"], seen

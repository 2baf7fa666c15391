"""FBI vs Mafia checks one input against the legality table without listing every legal move
(``_reaches``, ``_shift_legal``) and makes a board's shifts and swaps once: over the states of
random games in every mode, each answers exactly what the listing answers, and the lists are
the ones the table's generation made before (same moves, same order)."""

from __future__ import annotations

import pytest

from arbiter.engine import registry
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.legality import RULES
from arbiter.engine.games.fbi_mafia.moves import Move
from tests.helpers import fbi_states as states

FBI = registry.get("fbi-mafia")
MODES = [v.name for v in FBI.variants()]


def listed_shifts(state) -> list[Move]:
    """The actor's shifts as the table generated them before they were made once per board."""
    out = []
    for line in ("row", "col"):
        for index in range(state.size):
            for dist in state.roles[state.actor].shifts:
                for sign in (-1, 1):
                    m = Move("shift", line=line, index=index, delta=sign * dist)
                    last = state.last_shift  # the rule written out: no undoing the last shift
                    if not (last is not None and (last.line, last.index, last.delta) == (line, index, -m.delta)):
                        out.append(m)
    return out


def check(state) -> int:
    """Compare the one-cell answers with the listings at ``state``; how many were compared."""
    compared = 0
    size = state.size
    cells = grid.cells(size)
    listed = listed_shifts(state)  # listed once for the checks below: nothing they ask changes the state
    assert state._shifts() == listed
    for line in ("row", "col", "diagonal"):
        for index in range(-1, size + 1):
            for delta in (-3, -2, -1, 0, 1, 2, 3):
                m = Move("shift", line=line, index=index, delta=delta)
                assert state._shift_legal(m) == (m in listed), m
                compared += 1
    assert listed_shifts(state) == listed  # (and the listing is still what the table generates)
    assert state.action_moves("swap") == [Move("swap", cells=(a, b)) for a in cells
                                          for b in grid.neighbours(a, size) if a < b]
    if state.identity.get(state.actor) is None:
        return compared
    me = state._me()
    for verb in RULES:
        rule = state._rule(verb)
        if rule.source:
            for src in cells:
                reach = state._reachable(rule, src)
                for dst in cells:
                    assert state._reaches(rule, src, dst) == (dst in reach), (verb, src, dst)
                    compared += 1
        else:
            reach = state._reachable(rule, me)
            for c in cells:
                assert state._reaches(rule, me, c) == (c in reach), (verb, c)
                compared += 1
    return compared


@pytest.mark.parametrize("mode", MODES)
def test_one_cell_checks_answer_as_the_listings_do(mode):
    compared = sum(check(state) for seed in (1, 2) for state in states(mode, seed, every=3))
    assert compared > 20_000

"""FBI vs Mafia keeps each card's cell (``pos``) as shifts and swaps move the cards, by the cards
that moved only: after every input of random games of every mode it is the board read anew."""

from __future__ import annotations

import pytest

from arbiter.engine.bench import play_random
from arbiter.engine.games.fbi_mafia.rules import FbiMafiaRules
from arbiter.engine.session import Session

FBI = FbiMafiaRules()


@pytest.mark.parametrize("mode", [v.name for v in FBI.variants()])
def test_the_cells_kept_are_the_boards(mode):
    moved = 0
    for seed in range(4):
        replay = Session(FBI, mode, seed=seed)
        for move in play_random(FBI, mode, seed).moves:
            replay.submit(move.seat, move.text, move.time_ms)
            state = replay.state
            assert state.pos == {name: (r, c) for r, row in enumerate(state.grid) for c, name in enumerate(row)}
            moved += move.text.startswith(("shift", "swap"))
    assert moved > 20

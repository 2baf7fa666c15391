"""FBI vs Mafia's random bot picks a threat move without listing them (``threat_choice``): the
move at the index it draws is the one at that index of the list the threat step's legal moves
make, at every threat step of random games of every mode, for every index."""

from __future__ import annotations

from itertools import combinations

import pytest

from arbiter.engine.bench import play_random
from arbiter.engine.games.fbi_mafia.legality import _nth_combination
from arbiter.engine.games.fbi_mafia.rules import FbiMafiaRules
from arbiter.engine.session import Session

FBI = FbiMafiaRules()


def test_the_nth_combination_is_the_listings():
    for n in range(0, 11):
        pool = [(i, i) for i in range(n)]
        for r in range(1, 4):
            listed = list(combinations(pool, r))
            assert [_nth_combination(pool, r, i) for i in range(len(listed))] == listed
            with pytest.raises(IndexError):
                _nth_combination(pool, r, len(listed))


@pytest.mark.parametrize("mode", [v.name for v in FBI.variants()])
def test_threat_choice_is_the_listed_move(mode):
    steps = 0
    for seed in range(6):
        moves = play_random(FBI, mode, seed).moves
        replay = Session(FBI, mode, seed=seed)
        for move in moves:
            state = replay.state
            if (state.awaited() or ("", ""))[1] == "threat":
                listed = state._threat_moves()
                asked: list[int] = []
                assert state.threat_choice(lambda n: asked.append(n) or 0) == (listed[0] if listed else None)
                assert asked == ([len(listed)] if listed else [])
                assert [state.threat_choice(lambda n, i=i: i) for i in range(len(listed))] == listed
                steps += 1
            replay.submit(move.seat, move.text, move.time_ms)
    assert steps > 20  # every mode has the Maniac

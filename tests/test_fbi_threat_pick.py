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


def test_the_threat_cache_is_bounded_and_holds_every_threat_a_mode_can_make():
    """``threat_move``'s cache is bounded (unbounded, it grew with every set of cells ever
    threatened: 44,000 of them on an 8x8 board in a long run) and, as its docstring says,
    holds every set of 1 to 3 cells of a 6x6 board (7,806): a 6x6 game never makes a threat
    move twice. Its keys are the cells in reading order (each reach lists them so), one key
    a set; every threat the shipped modes' Maniac can make, from any cell (their 7x7 boards'
    too), fits."""
    from functools import lru_cache
    from math import comb

    from arbiter.engine.games.fbi_mafia import grid
    from arbiter.engine.games.fbi_mafia.table import RULES, _reach_tables, threat_move

    maxsize = threat_move.cache_parameters()["maxsize"]
    every_6x6 = [cells for k in (1, 2, 3) for cells in combinations(grid.cells(6), k)]
    assert maxsize is not None and len(every_6x6) == 7806 <= maxsize
    assert maxsize < sum(comb(64, k) for k in (1, 2, 3)) == 43_744  # (8x8's: the bound bites there)
    sizes = set()
    for variant in FBI.variants():
        state = Session(FBI, variant.name, seed=0).state
        reach = _reach_tables(state.size, state.limits)[id(RULES["threat"].reach)]
        keys = {cells for targets in reach.values() for k in state._threat_sizes(len(targets))
                for cells in combinations(targets, k)}
        assert all(list(cells) == sorted(cells) for cells in keys), variant.name  # one key a set
        assert 0 < len(keys) <= maxsize, (variant.name, len(keys))
        sizes.add(state.size)
    assert sizes == {6, 7}
    bounded = lru_cache(maxsize=maxsize)(threat_move.__wrapped__)  # (the game's own cache left as it is)
    for _ in range(2):
        for cells in every_6x6:
            bounded(cells)
    info = bounded.cache_info()
    assert (info.hits, info.misses, info.currsize) == (7806, 7806, 7806)
    assert bounded(((0, 0), (0, 1))) is bounded(((0, 0), (0, 1))) == threat_move(((0, 0), (0, 1)))

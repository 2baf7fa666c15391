"""The arena's schedule: every entrant plays every seat of every deal equally often (a property
over games, seat counts and entrant counts), the same seed schedules the same games, and a deal's
seed is drawn from too many to try."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine.arena.schedule import Setup, rounded_games, schedule


# -- the schedule ----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(games=st.integers(1, 60), seat_counts=st.lists(st.integers(1, 10), min_size=1, max_size=3),
       k=st.integers(2, 6), seed=st.integers(0, 2**31 - 1))
def test_every_entrant_plays_every_seat_of_every_deal_equally_often(games, seat_counts, k, seed):
    setups = [Setup(f"mode{i}", {}, tuple(f"s{j}" for j in range(n))) for i, n in enumerate(seat_counts)]
    entrants = [f"e{i}" for i in range(k)]
    played = schedule(seed, setups, entrants, games)
    assert len(played) == rounded_games(games, k) and games <= len(played) < games + k
    assert [g.index for g in played] == list(range(len(played)))
    deals: dict[int, list] = {}
    for g in played:
        deals.setdefault(g.deal, []).append(g)
    seat_plays = Counter()
    for d, block in deals.items():
        assert len(block) == k, "whole blocks only"
        setup = setups[d % len(setups)]
        assert {g.seed for g in block} == {block[0].seed} and {g.variant for g in block} == {setup.variant}
        per_seat = Counter((seat, e) for g in block for seat, e in g.assignment.items())
        # every entrant on every seat of this deal exactly once
        assert per_seat == Counter({(seat, e): 1 for seat in setup.seats for e in entrants})
        # and the same multiset of seats-per-game for every entrant over the block
        counts = {e: sorted(list(g.entrants).count(e) for g in block) for e in entrants}
        assert len({tuple(c) for c in counts.values()}) == 1
        for g in block:
            seat_plays.update(g.entrants)
    assert len(set(seat_plays[e] for e in entrants)) == 1, "every entrant plays as many seats"
    assert len({g.seed for g in played}) == len(deals), "each deal its own seed"


def test_the_same_seed_schedules_the_same_games():
    setups = [Setup("m", {}, ("a", "b", "c"))]
    assert schedule(5, setups, ["x", "y"], 10) == schedule(5, setups, ["x", "y"], 10)
    assert schedule(5, setups, ["x", "y"], 10)[0].seed != schedule(6, setups, ["x", "y"], 10)[0].seed


def test_a_deals_seed_is_drawn_from_too_many_to_try():
    """A seat's board and the built-in bots' choices come from the deal's seed: below 2**31 an
    entrant could try them all (hours in Python) and learn every card of the deal, whatever the
    tournament's seed. Eight deals all below 2**31 would be a 1 in 2**176 chance from 2**53."""
    from arbiter.engine.arena.schedule import deal_seed
    from arbiter.engine.session import CHOSEN_SEEDS

    seeds = [deal_seed(1, d) for d in range(8)]
    assert max(seeds) >= 2**31, seeds
    assert all(0 <= x < CHOSEN_SEEDS for x in seeds)

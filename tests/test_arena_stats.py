"""The arena's arithmetic and bookkeeping: the schedule's balance (a property over games, seat
counts and entrant counts), Wilson intervals, head-to-head counts and their edges, OpenSkill
ratings against the library's own model, the SPRT on synthetic streams and at its bounds, the
tournament's folder (its results file's torn last line, its lock, its configuration), the
report's figures, and a run's stopping and progress with a pool that plays games at once."""

from __future__ import annotations

import json
import math
import threading
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from arbiter.engine.arena import rating, report, stats
from arbiter.engine.arena.results import Folder, FolderError, ResultsWriter, read_results
from arbiter.engine.arena.schedule import Setup, rounded_games, schedule
from arbiter.engine.arena.sprt import Sprt
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.tournament import Progress, Tournament, _leader, configuration
from arbiter.engine.errors import ArbiterError

from tests.arena_staging import DUEL, rec

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


# -- a small fixed results file ---------------------------------------------------------------------


def whole_rec(t, g, won):
    """The record a worker writes of ``t``'s finished game ``g``, ``won`` its winning seats
    (every key: a resumed run checks each line against its game)."""
    sides = {s: s for s in g.seats}
    return {"deal": g.deal, "rotation": g.rotation, "tournament_seed": t.config["seed"], "seed": g.seed,
            "variant": g.variant, "options": g.options, "result": {"winner": None, "reason": "r", "text": "t",
                                                                   "winners": sorted(won)},
            "names": {}, "moves": 1, "error": None, "transcript": f"transcripts/game-{g.index:05d}.yaml", "time": 0.1,
            **rec(g.index, g.assignment, sides, won)}


RECORDS = [
    rec(0, {"m": "A", "f": "B"}, DUEL, {"m"}),
    rec(1, {"m": "B", "f": "A"}, DUEL, {"f"}),
    rec(2, {"m": "A", "f": "B"}, DUEL, {"f"}),
    rec(3, {"m": "B", "f": "A"}, DUEL, {"f"}),
    # a three-seat game: A on both sides
    rec(4, {"t1": "A", "t2": "B", "x": "A"}, {"t1": "town", "t2": "town", "x": "mafia"}, {"x"},
        forfeits=[{"seat": "t2", "entrant": "B", "kind": "timeout", "reason": "no answer within 1 s"}]),
    {"game": 5, "finished": False, "seats": {"m": "A", "f": "B"}, "sides": DUEL, "roles": DUEL,
     "outcome": {"m": "none", "f": "none"}, "forfeits": []},
]


def test_win_rates_and_wilson_intervals_by_hand():
    table = stats.entrant_table(RECORDS, ["A", "B"])
    # A: seats m(won) f(won) m(lost) f(won) t1(lost) x(won) = 4 of 6; B: 1 of 5
    assert (table["A"]["games"], table["A"]["seats"], table["A"]["wins"]) == (5, 6, 4)
    assert (table["B"]["games"], table["B"]["seats"], table["B"]["wins"]) == (5, 5, 1)
    # game 4's two seats of A are one deal (a record without a deal is a deal of its own): the
    # deals' spread, 5/4 * sum((won - p seats)^2) / 6^2 over the 6 seats' own p(1 - p) / 6, is a
    # design effect of 5/6: Wilson's interval over 6 / (5/6) seats, with Student's t of 4 degrees
    z = 2.7764451051977934
    p, effect = 4 / 6, 5 / 4 * (3 * (1 / 3) ** 2 + (2 / 3) ** 2 + (1 / 3) ** 2) / 36 / (4 / 6 * (2 / 6) / 6)
    assert effect == pytest.approx(5 / 6)
    n = 6 / effect
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    assert table["A"]["low"] == pytest.approx(centre - half) and table["A"]["high"] == pytest.approx(centre + half)
    assert stats.wilson(0, 10)[0] == 0 and stats.wilson(10, 10)[1] == pytest.approx(1)
    # exactly, at every count: an interval end of all wins (or none) is an infinite Elo, never a
    # finite one from a rounding error (10 of 10 once read +6261)
    for n in range(1, 1001):
        assert stats.wilson(n, n)[1] == 1.0 and stats.wilson(0, n)[0] == 0.0, n
        assert stats.elo(stats.wilson(n, n)[1]) is None and stats.elo(stats.wilson(0, n)[0]) is None
    assert table["B"]["forfeits"] == 1 and stats.forfeit_table(RECORDS, ["A", "B"]) == {"A": {}, "B": {"timeout": 1}}
    sides = stats.by_key(RECORDS, ["A", "B"], "sides")
    assert sides["A"]["fbi"]["seats"] == 2 and sides["A"]["fbi"]["wins"] == 2
    assert sides["B"]["mafia"] == {**sides["B"]["mafia"], "seats": 2, "wins": 0}


def test_head_to_head_counts():
    [h] = stats.head_to_head(RECORDS, ["A", "B"])
    # games 0-3: A won 0, 1, 3 and lost 2; game 4: A's t1 and x against B's t2: x beat t2 (+1),
    # t1 and t2 are on one side: A wins it; game 5 is unfinished
    assert (h["games"], h["a_wins"], h["b_wins"], h["draws"]) == (5, 4, 1, 0)
    assert h["a_score"] == pytest.approx(0.8)
    assert h["elo"] == pytest.approx(-400 * math.log10(1 / 0.8 - 1))


def test_head_to_head_gives_each_interval_its_elo_and_none_for_entrants_who_never_met():
    [ab, ac, bc] = stats.head_to_head(RECORDS, ["A", "B", "C"])
    assert ab["elo_low"] == pytest.approx(stats.elo(ab["a_score_low"]))
    assert ab["elo_high"] == pytest.approx(stats.elo(ab["a_score_high"]))
    assert ab["elo_low"] < ab["elo"] < ab["elo_high"]
    for never in (ac, bc):
        assert (never["games"], never["a_score"], never["a_score_low"], never["a_score_high"]) == (0, None, None, None)
        assert never["elo"] is never["elo_low"] is never["elo_high"] is None


def _coverage(interval, win: float, draw: float, n: int) -> float:
    """The exact chance (every count of wins and draws, by the multinomial) that ``interval(wins,
    draws, n)`` holds the true score ``win + draw / 2`` of games won, drawn and lost at these rates."""
    true, loss, total = win + draw / 2, 1 - win - draw, 0.0
    for w in range(n + 1):
        for d in range(n - w + 1):
            chance = math.comb(n, w) * math.comb(n - w, d) * win**w * draw**d * loss ** (n - w - d)
            low, high = interval(w, d, n)
            total += chance * (low <= true <= high)
    return total


@pytest.mark.parametrize("win, draw", [(0.39, 0.4), (0.2, 0.6), (0.3, 0.2)])
def test_the_head_to_head_interval_holds_the_true_score_95_percent_of_the_time_with_draws(win, draw):
    """A draw is half a win and varies less than a win or a loss: Wilson's interval of the
    score with draws as half wins, which the pair's "95% CI" was, holds the true score 99.1% of
    the time at 40% draws over 100 games (99.8% at 60%, 97.5% at 20%). The trinomial one holds
    it 95% of the time (94.9% to 95.1% here)."""
    as_half_wins = _coverage(lambda w, d, n: stats.wilson(w + d / 2, n), win, draw, 100)
    trinomial = _coverage(stats.score_interval, win, draw, 100)
    assert 0.935 <= trinomial <= 0.965
    assert as_half_wins > trinomial + 0.02


def test_the_head_to_head_interval_of_a_pair_with_draws_is_the_trinomial_one():
    """Eight duels, A 3 won, 1 lost, 4 drawn (both sides lost): a score of 5/8 whose interval's
    ends p solve (5/8 - p)^2 = z^2 (p(1 - p) - (4/8)/4) / 8; without draws, Wilson's."""
    won = [{"m"}, {"f"}, {"m"}, {"m"}] + [set()] * 4  # A holds m in even games, f in odd ones
    records = [rec(i, {"m": "AB"[i % 2], "f": "BA"[i % 2]}, DUEL, w) for i, w in enumerate(won)]
    [h] = stats.head_to_head(records, ["A", "B"])
    assert (h["a_wins"], h["b_wins"], h["draws"], h["a_score"]) == (3, 1, 4, 0.625)
    z = 1.959963984540054
    for p in (h["a_score_low"], h["a_score_high"]):
        assert (0.625 - p) ** 2 == pytest.approx(z * z * (p * (1 - p) - 0.5 / 4) / 8)
    assert h["a_score_low"] < 0.625 < h["a_score_high"]
    assert (h["elo_low"], h["elo_high"]) == (stats.elo(h["a_score_low"]), stats.elo(h["a_score_high"]))
    decisive = stats.head_to_head(records[:4], ["A", "B"])[0]
    assert (decisive["a_score_low"], decisive["a_score_high"]) == pytest.approx(stats.wilson(3, 4))
    drawn = stats.head_to_head(records[4:], ["A", "B"])[0]  # all drawn: no spread seen, Wilson's
    assert (drawn["a_score_low"], drawn["a_score_high"]) == pytest.approx(stats.wilson(2, 4))


def test_students_t_quantiles_are_the_tables():
    """Two-sided 95% quantiles of Student's t (any statistics table), and the normal's at the limit."""
    table = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 9: 2.2622, 19: 2.0930, 29: 2.0452, 60: 2.0003,
             120: 1.9799, 200: 1.9719, 201: 1.9718, 1000: 1.9623}
    assert {df: round(stats.t_quantile(df), 4) for df in table} == table
    assert stats.t_quantile(10**9) == pytest.approx(stats.Z95, abs=1e-8)
    assert round(stats.t_quantile(5, 0.99), 4) == 4.0321
    with pytest.raises(ValueError, match="at least one degree of freedom"):
        stats.t_quantile(0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda t: t[0] + t[1] <= 4), min_size=1,
                max_size=30), st.integers(1, 4))
def test_the_deal_interval_holds_the_score_and_is_the_games_own_with_one_game_a_deal(deals, n):
    """Whatever the deals, the interval lies in [0, 1] around the score; with one game a deal
    (nothing to read a deal's spread from) it is the interval of independent games."""
    deals = [(w, d, max(n, w + d)) for w, d in deals]
    wins, draws, games = (sum(x[i] for x in deals) for i in range(3))
    score = (wins + draws / 2) / games
    low, high = stats.deal_score_interval(deals)
    assert 0 <= low <= score <= high <= 1
    singles = [(1, 0, 1)] * wins + [(0, 1, 1)] * draws + [(0, 0, 1)] * (games - wins - draws)
    assert stats.deal_score_interval(singles) == stats.score_interval(wins, draws, games)


def _simulated_coverage(deal_chances, true: float, deals: int, trials: int,
                        seed: int) -> tuple[float, float, float, float]:
    """Duels played in deals of two games, sides swapped: ``deal_chances(rng)`` gives the first
    entrant's chance of winning each game of a deal. How often each interval (the games' own,
    ``score_interval``, and ``deal_score_interval``) holds the ``true`` score, and their mean widths."""
    import random

    rng = random.Random(seed)
    held = {"games": 0, "deals": 0}
    width = {"games": 0.0, "deals": 0.0}
    for _ in range(trials):
        played = []
        for _ in range(deals):
            won = sum(rng.random() < p for p in deal_chances(rng))
            played.append((won, 0, 2))
        wins = sum(w for w, _, _ in played)
        for key, (low, high) in (("games", stats.score_interval(wins, 0, 2 * deals)),
                                 ("deals", stats.deal_score_interval(played))):
            held[key] += low <= true <= high
            width[key] += high - low
    return held["games"] / trials, held["deals"] / trials, width["games"] / trials, width["deals"] / trials


def test_the_deal_interval_holds_the_true_score_95_percent_of_the_time_when_games_of_a_deal_are_alike_or_opposite():
    """Sixty deals of two duels, by simulation (seeded). When the side decides most of a duel
    (the first entrant wins 85% on one side, 25% on the other), a deal's two games are
    opposite: the games' own interval holds the true score 98-99% of the time, wider than it
    needs; the deals' holds it 95% of the time and is narrower. When the deal decides (the first
    entrant wins both games of half the deals 90% of the time, of the others 30%), a deal's
    games are alike: the games' own interval holds the true score only about 90% of the time;
    the deals' 95%."""
    games, deals, w_games, w_deals = _simulated_coverage(lambda rng: (0.85, 0.25), 0.55, 60, 2000, 1)
    assert games > 0.975 and 0.935 <= deals <= 0.965 and w_deals < 0.9 * w_games
    games, deals, w_games, w_deals = _simulated_coverage(
        lambda rng: (0.9, 0.9) if rng.random() < 0.5 else (0.3, 0.3), 0.6, 60, 2000, 2)
    assert games < 0.925 and 0.935 <= deals <= 0.965 and w_deals > w_games


def test_head_to_head_reads_the_intervals_spread_from_the_deals():
    """Thirty deals of two duels, A on the strong side once a deal: A won both games of 18 deals
    and split 12. Counted as sixty independent games the score is 48/60; read by deal it varies
    less (a split deal is the side's luck cancelling), so the interval is narrower."""
    records = []
    for deal in range(30):  # A holds m (the strong side, which wins) and then f, which wins in 18 deals
        records.append(rec(2 * deal, {"m": "A", "f": "B"}, DUEL, {"m"}, deal=deal))
        records.append(rec(2 * deal + 1, {"m": "B", "f": "A"}, DUEL, {"f"} if deal < 18 else {"m"}, deal=deal))
    [h] = stats.head_to_head(records, ["A", "B"])
    assert (h["games"], h["deals"], h["a_wins"], h["b_wins"], h["a_score"]) == (60, 30, 48, 12, 0.8)
    expected = stats.deal_score_interval([(2, 0, 2)] * 18 + [(1, 0, 2)] * 12)
    assert (h["a_score_low"], h["a_score_high"]) == expected
    plain = stats.score_interval(48, 0, 60)
    assert plain[0] < expected[0] < 0.8 < expected[1] < plain[1]
    alone = stats.head_to_head([{k: v for k, v in r.items() if k != "deal"} for r in records], ["A", "B"])[0]
    assert (alone["deals"], alone["a_score_low"], alone["a_score_high"]) == (60, *plain)


def test_seats_that_share_their_deals_outcome_count_as_one_trial_a_deal():
    """An entrant holding four seats of one side in each of 30 deals, all four won or all lost
    together (18 deals won): 120 seats, but as much evidence as the deals. Its interval is
    Wilson's over B - 1 = 29 trials with Student's t of 29 degrees (the deals' variance of the
    rate, p(1 - p) / (B - 1), over the seats' own, p(1 - p) / 120: a design effect of 120/29),
    not Wilson's of 72 of 120 seats, which is much narrower."""
    tally = stats.Tally()
    for deal in range(30):
        for _ in range(4):
            tally.add(deal < 18, deal)
    assert (tally.seats, tally.wins, tally.rate) == (120, 72, 0.6)
    low, high = tally.interval
    assert (low, high) == pytest.approx(stats.wilson(0.6 * 29, 29, stats.t_quantile(29)))
    seats_own = stats.wilson(72, 120)
    assert high - low > 1.9 * (seats_own[1] - seats_own[0])
    alone = stats.Tally()  # the same seats without their deals: each its own deal, Wilson's of the seats
    for deal in range(30):
        for _ in range(4):
            alone.add(deal < 18)
    assert alone.interval == seats_own == stats.Tally(120, 72).interval
    assert alone.deals == {}  # counted, not kept: a long run's progress tallies every seat so


def test_the_entrant_and_side_tables_read_their_intervals_spread_from_the_deals():
    """Twelve deals of a three-seat game (two town seats against a loner) between two entrants,
    each holding both town seats in one game of a deal and the loner in the other; the town
    wins both games of the first eight deals, the loner both of the other four.

    - A's seats of one deal go one way and the other (2 of 3 won when the town wins, 1 of 3
      when the loner does): the swap cancels the deal's luck, and A's interval is narrower than
      Wilson's of its 36 seats.
    - A's town seats of a deal share their outcome (both won or both lost), and so do all the
      town seats of a deal: those intervals are wider than Wilson's of the seats.
    - Without their deals, each game is a deal of its own."""
    sides = {"t1": "town", "t2": "town", "x": "loner"}
    records = []
    for deal in range(12):
        for g, seats in enumerate(({"t1": "A", "t2": "A", "x": "B"}, {"t1": "B", "t2": "B", "x": "A"})):
            records.append(rec(2 * deal + g, seats, sides, {"t1", "t2"} if deal < 8 else {"x"}, deal=deal))
    a = stats.entrant_table(records, ["A", "B"])["A"]
    assert (a["seats"], a["wins"]) == (36, 20)
    tally = stats.Tally()
    for r in records:
        for seat, who in r["seats"].items():
            if who == "A":
                tally.add(r["outcome"][seat] == "won", r["deal"])
    assert (a["low"], a["high"]) == tally.interval
    seats_own = stats.wilson(20, 36)
    assert seats_own[0] < a["low"] < 20 / 36 < a["high"] < seats_own[1]
    town = stats.side_rates(records)["town"]
    assert (town["seats"], town["wins"]) == (48, 32) and town["low"] < stats.wilson(32, 48)[0]
    a_town = stats.by_key(records, ["A", "B"], "sides")["A"]["town"]
    assert (a_town["seats"], a_town["wins"]) == (24, 16) and a_town["low"] < stats.wilson(16, 24)[0]
    undealt = [{k: v for k, v in r.items() if k != "deal"} for r in records]
    alone = stats.Tally()
    for r in undealt[::2]:  # A's two town seats of a game are still one deal, the game
        alone.add(r["outcome"]["t1"] == "won", r["game"])
        alone.add(r["outcome"]["t2"] == "won", r["game"])
    assert stats.by_key(undealt, ["A", "B"], "sides")["A"]["town"]["low"] == alone.interval[0]


def test_elo_is_none_at_a_certain_score():
    assert stats.elo(1.0) is None and stats.elo(0.0) is None and stats.elo(0.5) == 0


def test_a_pair_of_seats_that_both_won_or_both_lost_gives_no_point():
    """Three seats: A's loner and town seat against B's town seat. The loner and the town can
    both win (or both lose): such a pair is met but gives no point; only a pair where one won
    and the other lost does."""
    sides = {"l": "loner", "t": "town", "u": "mafia"}

    def game(won):
        return rec(0, {"l": "A", "t": "B", "u": "A"}, sides, won)
    assert stats.pair_result(game({"l", "t"}), "A", "B") == "loss"  # l-t: both won, 0; u-t: t won
    assert stats.pair_result(game({"l", "t", "u"}), "A", "B") == "draw"  # every pair both won
    assert stats.pair_result(game(set()), "A", "B") == "draw"  # every pair both lost
    assert stats.pair_result(game({"l", "u"}), "A", "B") == "win"
    assert stats.pair_result(game({"u"}), "B", "A") == "loss"


def test_a_block_with_no_game_or_an_unfinished_one_has_no_result():
    done = rec(0, {"m": "A", "f": "B"}, DUEL, {"m"})
    assert stats.block_result([done], "A", "B") == "win"
    assert stats.block_result([], "A", "B") is None
    assert stats.block_result([done, RECORDS[5]], "A", "B") is None  # RECORDS[5] is unfinished


def test_side_rates_count_each_sides_seats_and_wins():
    rates = stats.side_rates(RECORDS)
    # mafia seats: m (games 0-3: won once), x (won) -> 2 of 5; fbi: 3 of 4; town: t1, t2 lost
    assert {side: (r["seats"], r["wins"]) for side, r in rates.items()} == {
        "fbi": (4, 3), "mafia": (5, 2), "town": (2, 0)}
    assert (rates["fbi"]["rate"], rates["mafia"]["rate"], rates["town"]["rate"]) == (0.75, 0.4, 0.0)
    assert stats.Tally().as_dict() == {"seats": 0, "wins": 0, "rate": None, "low": None, "high": None}  # no figure


def test_openskill_ratings_are_the_librarys_own():
    m = PlackettLuce()
    a, b = m.rating(name="A"), m.rating(name="B")
    for r in RECORDS[:4]:  # duels: one seat each, so exactly the library's update
        winner = r["seats"][next(s for s, o in r["outcome"].items() if o == "won")]
        [[na], [nb]] = m.rate([[a], [b]], ranks=[1, 2] if winner == "A" else [2, 1])
        a, b = na, nb
    got = rating.rate(RECORDS[:4], ["A", "B"])
    assert got["A"]["mu"] == pytest.approx(a.mu) and got["A"]["sigma"] == pytest.approx(a.sigma)
    assert got["B"]["mu"] == pytest.approx(b.mu) and got["B"]["ordinal"] == pytest.approx(b.ordinal())
    # game 4: teams town [A, B] (lost) and mafia [A] (won); A gets both teams' updates summed,
    # each seat handed to the library as a rating of its own (it updates its objects in place)
    [[ta, tb], [xa]] = m.rate([[m.rating(a.mu, a.sigma), b], [m.rating(a.mu, a.sigma)]], ranks=[2, 1])
    assert ta.mu < a.mu < xa.mu, "the losing seat's update and the winning seat's, not one object's"
    got = rating.rate(RECORDS, ["A", "B"])
    assert got["A"]["mu"] == pytest.approx(a.mu + (ta.mu - a.mu) + (xa.mu - a.mu))
    assert got["A"]["sigma"] == pytest.approx(min(ta.sigma, xa.sigma))
    assert got["B"]["mu"] == pytest.approx(tb.mu) and got["B"]["games"] == 5
    assert got["A"]["games"] == 5, "the unfinished game is not rated"


def test_an_entrant_on_two_seats_of_a_team_gets_that_teams_update_once():
    """Two seats of one side held by one entrant: the library rates the two seats (copies of its
    rating) and the entrant moves as one of them does; an entrant on both sides of a game of
    equal teams, one won and one lost, ends where it began."""
    m = PlackettLuce()
    two = rec(0, {"p1": "A", "p2": "A", "p3": "B"}, {"p1": "town", "p2": "town", "p3": "mafia"}, {"p1", "p2"})
    [[a1, a2], [b1]] = m.rate([[m.rating(), m.rating()], [m.rating()]], ranks=[1, 2])
    got = rating.rate([two], ["A", "B"])
    assert a1.mu == pytest.approx(a2.mu) and got["A"]["mu"] == pytest.approx(a1.mu)
    assert got["A"]["sigma"] == pytest.approx(a1.sigma) and got["B"]["mu"] == pytest.approx(b1.mu)
    both = rec(0, {"p1": "A", "p2": "B", "p3": "A", "p4": "B"},
               {"p1": "town", "p2": "town", "p3": "mafia", "p4": "mafia"}, {"p1", "p2"})
    got = rating.rate([both], ["A", "B"])
    assert got["A"]["mu"] == pytest.approx(25.0) and got["B"]["mu"] == pytest.approx(25.0)
    assert got["A"]["sigma"] < 25 / 3


def test_a_game_of_one_team_is_not_rated():
    coop = rec(0, {"p1": "A", "p2": "B"}, {"p1": "team", "p2": "team"}, {"p1", "p2"})
    got = rating.rate([coop], ["A", "B"])
    assert got["A"]["games"] == 0 and got["A"]["mu"] == pytest.approx(25.0)


# -- the SPRT -------------------------------------------------------------------------------------


def test_sprt_on_synthetic_streams():
    t = Sprt(0, 10, 0.05, 0.05)

    def first_decision(stream):
        w = l = 0
        for i, won in enumerate(stream, 1):
            w, l = w + won, l + (not won)
            if t.status(w, l):
                return t.status(w, l), i
        return None, len(stream)

    assert first_decision([True] * 500)[0] == "H1"
    assert first_decision([True, False] * 4000)[0] == "H0"
    assert first_decision([True, False] * 5) == (None, 10)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95)) and t.upper == pytest.approx(math.log(0.95 / 0.05))
    p0, p1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    assert t.llr(3, 1) == pytest.approx(3 * math.log(p1 / p0) + math.log((1 - p1) / (1 - p0)))
    with pytest.raises(ValueError):
        Sprt(10, 0)


@pytest.mark.parametrize("args, problem", [
    ((10, 10), "SPRT needs ELO0 < ELO1, not 10 and 10"), ((10, 0), "SPRT needs ELO0 < ELO1, not 10 and 0"),
    ((0, 10, 0, 0.05), "between 0 and 0.5"), ((0, 10, 0.5, 0.05), "between 0 and 0.5"),
    ((0, 10, 0.05, 0), "between 0 and 0.5"), ((0, 10, 0.05, 0.5), "between 0 and 0.5"),
    ((0, 10, 0.6, 0.05), "between 0 and 0.5"), ((0, 10, 0.05, -0.1), "between 0 and 0.5"),
])
def test_sprt_refuses_hypotheses_that_are_not_ordered_and_error_rates_outside_0_to_half(args, problem):
    with pytest.raises(ValueError, match=problem):
        Sprt(*args)


def test_sprt_accepts_error_rates_just_inside_the_bounds():
    assert Sprt(-1, 1, 0.001, 0.499).as_dict() == {"elo0": -1, "elo1": 1, "alpha": 0.001, "beta": 0.499}


def test_sprt_decides_when_the_llr_reaches_a_bound_exactly(monkeypatch):
    """H1 once the LLR is at or above the upper bound, H0 once at or below the lower one."""
    t = Sprt(0, 10)
    for value, status in ((t.upper, "H1"), (t.lower, "H0"), (math.nextafter(t.upper, 0), None),
                          (math.nextafter(t.lower, 0), None)):
        monkeypatch.setattr(Sprt, "llr", lambda self, w, l, v=value: v)
        assert t.status(3, 1) == status, value


def _duel_tournament(sprt=(0, 100)):
    config = {"game": "fbi-mafia", "modes": ["duel-3v3"], "players": None, "seed": 1, "games": 400,
              "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}],
              "bot_timeout": 1, "reuse": False, "max_moves": 100, "sprt": dict(zip(("elo0", "elo1"), sprt))}
    return Tournament(config)


def test_the_sprt_counts_whole_blocks_from_the_start_only():
    t = _duel_tournament()
    recs = {}
    for g in t.games[:40]:
        winner = "mafia" if g.entrants[0] == "A" else "fbi"  # A always wins
        recs[g.index] = rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {winner})
    state = t.sprt_state(recs)
    p0, p1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    first = math.ceil(t.sprt.upper / math.log(p1 / p0))  # the block after which it accepts H1, and stops counting
    assert (state["blocks"], state["games"], state["wins"], state["losses"], state["result"]) == \
        (first, 2 * first, first, 0, "H1")
    del recs[1]  # the first block is no longer whole: nothing counts yet
    assert t.sprt_state(recs)["games"] == 0 and t.sprt_state(recs)["result"] is None
    for g in t.games[:40]:  # the first seat always wins: every block is a draw
        recs[g.index] = rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {"mafia"})
    state = t.sprt_state(recs)
    assert (state["wins"], state["losses"], state["draws"], state["llr"]) == (0, 0, 20, 0)


def _recount(t, records):
    """The SPRT's counts taken afresh: every whole block from the start until one is missing or
    the test decides (the definition ``Tournament.sprt_state`` keeps)."""
    wins = losses = draws = blocks = 0
    for start in range(0, len(t.games), t.block):
        block = t.games[start:start + t.block]
        if any(g.index not in records for g in block):
            break
        res = stats.block_result([records[g.index] for g in block], "A", "B")
        blocks, wins, losses, draws = blocks + 1, wins + (res == "win"), losses + (res == "loss"), draws + (res == "draw")
        if t.sprt.status(wins, losses) is not None:
            break
    return blocks, wins, losses, draws, t.sprt.status(wins, losses)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), elo1=st.sampled_from([20, 100, 400]), skill=st.floats(0.3, 0.9))
def test_the_sprt_counted_as_records_arrive_is_the_sprt_counted_afresh(seed, elo1, skill):
    """A run's ``SprtCount`` (each block counted once, as records arrive in any order, some
    games unfinished) gives after every record the state counted afresh from the start."""
    import random

    from arbiter.engine.arena.tournament import SprtCount

    t = _duel_tournament((0, elo1))
    rng = random.Random(seed)
    games = list(t.games[:160])
    rng.shuffle(games)  # workers finish in any order
    count, recs = SprtCount(t), {}
    decided = None
    for g in games:
        a_wins = rng.random() < skill
        winner = ("mafia" if g.entrants[0] == "A" else "fbi") if a_wins else ("fbi" if g.entrants[0] == "A" else "mafia")
        r = rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {winner})
        if rng.random() < 0.05:
            r["finished"] = False
        recs[g.index] = r
        state = count.update(recs)
        assert state == t.sprt_state(recs)
        assert (state["blocks"], state["wins"], state["losses"], state["draws"], state["result"]) == _recount(t, recs)
        if state["result"] is not None and decided is None:
            decided = dict(state)
    if decided is not None:  # once it decides, later records change nothing
        assert count.update(recs) == decided


# -- the results file ------------------------------------------------------------------------------


def test_a_torn_last_line_is_ignored_and_cut_before_appending(tmp_path: Path):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"game": 0}) + "\n" + json.dumps({"game": 1}) + "\n" + '{"game": 2, "fin')
    records, end = read_results(path)
    assert [r["game"] for r in records] == [0, 1]
    w = ResultsWriter(path)
    w.append({"game": 2})
    w.close()
    assert [r["game"] for r in read_results(path)[0]] == [0, 1, 2]
    assert path.read_text().count("\n") == 3
    path.write_text(json.dumps({"game": 0}) + "\nnot json\n" + json.dumps({"game": 1}) + "\n")
    with pytest.raises(FolderError, match="line 2"):
        read_results(path)
    path.write_text(json.dumps({"game": 0}) + "\n" + json.dumps({"game": 0}) + "\n")
    assert len(read_results(path)[0]) == 1, "a game recorded twice counts once"


@pytest.mark.parametrize("line", ["", "[1]", '{"x": 1}', '{"game": "3"}', "null"])
def test_a_line_that_is_not_a_games_record_is_refused_before_the_last(tmp_path: Path, line: str):
    """Only the last line may be torn or garbled (a crash mid-write); any other line that is
    not a game's record (an empty line, JSON of another shape) means the file was changed by
    hand, and is refused rather than read past, or the rest cut off by the next append. So is
    a whole last line that reads as JSON (no crash writes one); one that does not is ignored."""
    path = tmp_path / "results.jsonl"
    path.write_text(line + "\n" + json.dumps({"game": 1}) + "\n")
    with pytest.raises(FolderError, match="line 1 is not a game's record"):
        read_results(path)
    path.write_text(json.dumps({"game": 1}) + "\n" + line + "\n" + '{"game": 2, "fin')  # then a torn line
    with pytest.raises(FolderError, match="line 2 is not a game's record"):
        read_results(path)
    path.write_text(json.dumps({"game": 1}) + "\n" + line + "\n")  # the last line
    if line:  # whole JSON: refused
        with pytest.raises(FolderError, match="line 2 is not a game's record"):
            read_results(path)
    else:  # not JSON: garbled by a crash, ignored
        assert read_results(path) == ([{"game": 1}], len(json.dumps({"game": 1})) + 1)


def test_a_folder_is_held_by_one_run_at_a_time(tmp_path: Path):
    first = Folder.create(tmp_path / "t", {"game": "mafia"})
    with pytest.raises(FolderError, match="being played by another run right now"):
        Folder.existing(tmp_path / "t")
    first.unlock()
    first.unlock()  # twice is harmless
    again, config = Folder.existing(tmp_path / "t")
    assert config == {"format": 2, "game": "mafia"}
    again.unlock()


@pytest.mark.parametrize("text", ['{"format": 3}', '{"format": true}', '{"format": 1.0}', "[1, 2]", '{"game": "mafia"}'])
def test_a_configuration_of_another_format_is_refused(tmp_path: Path, text: str):
    (tmp_path / "tournament.json").write_text(text)
    with pytest.raises(FolderError, match=r"not a tournament of this arbiter \(formats 1, 2; this file has "):
        Folder.existing(tmp_path)


def test_a_folder_that_cannot_be_made_is_refused_with_the_systems_reason(tmp_path: Path):
    long = tmp_path / ("x" * 300) / "t"
    with pytest.raises(FolderError) as err:
        Folder.create(long, {})
    assert str(err.value) == f"cannot make the tournament's folder {long}: File name too long"


@pytest.mark.parametrize("under", ["file/t", "file/a/t"])
def test_a_folder_under_a_file_is_refused_naming_the_file(tmp_path: Path, under: str):
    """The default ``arena/GAME-...`` with a file named ``arena`` once said only "File exists"
    (and a deeper path "Not a directory"): which file is in the way is said."""
    (tmp_path / "file").write_text("x")
    with pytest.raises(FolderError) as err:
        Folder.create(tmp_path / under, {})
    assert str(err.value) == f"cannot make the tournament's folder {tmp_path / under}: {tmp_path / 'file'} is a file, not a folder"
    assert (tmp_path / "file").read_text() == "x" and sorted(tmp_path.iterdir()) == [tmp_path / "file"]


@pytest.mark.parametrize("name", ["../escape.yaml", "sub/game.yaml", ".hidden", ".."])
def test_files_a_worker_returns_with_a_bad_name_are_refused(tmp_path: Path, name: str):
    folder = Folder.create(tmp_path / "t", {})
    with pytest.raises(FolderError, match="a worker returned a file with a bad name"):
        folder.write_files({name: "x"})
    folder.write_files({"game-00001.yaml": "text"})
    assert (folder.transcripts / "game-00001.yaml").read_text() == "text"
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(
        [".lock", "game-00001.yaml", "t", "tournament.json", "transcripts"])
    folder.unlock()


def test_forfeit_kinds():
    assert stats.forfeit_kind("no answer within 0.3 s") == "timeout"
    assert stats.forfeit_kind("the bot closed its output (exit status 3)") == "crash"
    assert stats.forfeit_kind("illegal input 'xyzzy': syntax: ...") == "illegal"
    assert stats.forfeit_kind("the bot sent a line it was not asked for: 'hi'") == "protocol"
    assert stats.forfeit_kind("something nobody foresaw") == "other"
    assert stats.forfeit_kind("something nobody foresaw; its stderr ends: the bot exited") == "other"


@pytest.mark.parametrize("reason, kind", [
    ("illegal input 'no answer within 1 s': syntax: unknown action 'no'", "illegal"),
    ("the bot sent a line it was not asked for: 'no answer within 1 s'", "protocol"),
    ("the bot sent a line that cannot be read: not UTF-8: 'killed by SIGKILL'", "protocol"),
    ("the agent m:Bot raised ValueError: no answer within 1 s, not asked for", "crash"),
    ("illegal input 'x; its stderr ends: no answer within 1 s': syntax: ...", "illegal"),
])
def test_a_bots_own_words_cannot_change_its_forfeits_kind(reason: str, kind: str):
    """A bot answering 'no answer within 1 s' to every go once had its illegal inputs counted as
    timeouts in results.jsonl and the report: the kind is read from the referee's words, before
    anything of the bot's (quoted, or after an agent's exception name)."""
    assert stats.forfeit_kind(reason) == kind


# -- a run's bookkeeping ---------------------------------------------------------------------------


class _Submissions:
    """A pool that takes games and never plays them: what a run asks of it."""

    workers = 1
    busy = 0

    def __init__(self) -> None:
        self.submitted: list[int] = []

    def submit(self, game) -> None:
        self.submitted.append(game.index)

    def done(self, timeout: float):
        return []

    def close(self, cancel: bool = False) -> None:
        pass

    def drop_waiting(self) -> None:
        pass


@pytest.mark.parametrize("decided", [True, False])
def test_a_resumed_run_plays_on_exactly_when_its_sprt_is_undecided(tmp_path: Path, decided: bool):
    t = _duel_tournament()
    folder = Folder.create(tmp_path / "t", {"format": 2, **t.config})
    writer = folder.writer()
    for g in t.games[:40]:  # A always wins (decided: H1), or the first seat always does (every block drawn)
        winner = ("mafia" if g.entrants[0] == "A" else "fbi") if decided else "mafia"
        writer.append(whole_rec(t, g, {winner}))
    writer.close()
    pool = _Submissions()
    outcome = t.run(folder, pool)
    folder.unlock()
    assert outcome.sprt["result"] == ("H1" if decided else None) and outcome.played == 0
    assert pool.submitted == ([] if decided else [g.index for g in t.games[40:]])


def test_an_sprt_needs_exactly_two_entrants():
    three = [Entrant("a", "random"), Entrant("b", "random"), Entrant("c", "random")]
    with pytest.raises(ArbiterError, match="an SPRT compares two entrants; this tournament has 3"):
        configuration("fbi-mafia", three, 6, sprt=Sprt(0, 10))
    assert configuration("fbi-mafia", three[:2], 6, sprt=Sprt(0, 10))["sprt"]["elo1"] == 10


def test_progress_has_no_rate_or_eta_before_time_has_passed_or_a_game_was_played():
    assert (Progress(3, 10, 0, 0.0, None).rate, Progress(3, 10, 0, 0.0, None).eta) == (0.0, None)
    assert (Progress(3, 10, 0, 2.0, None).rate, Progress(3, 10, 0, 2.0, None).eta) == (0.0, None)
    assert (Progress(4, 10, 2, 4.0, None).rate, Progress(4, 10, 2, 4.0, None).eta) == (0.5, 12.0)


def test_the_leader_is_the_best_seat_win_rate_among_entrants_that_played():
    assert _leader({"a": stats.Tally(), "b": stats.Tally()}) is None
    assert _leader({"a": stats.Tally(4, 1), "b": stats.Tally(2, 1), "c": stats.Tally()}) == ("b", 0.5)
    assert _leader({"b": stats.Tally(2, 1), "a": stats.Tally(4, 2)}) == ("a", 0.5)  # a tie: the first name


class _Playing(_Submissions):
    """Plays each game it takes as soon as asked: A's seats always win (``a_wins``), or else
    the mafia seat always does (every block a draw)."""

    def __init__(self, a_wins: bool) -> None:
        super().__init__()
        self.a_wins, self.pending = a_wins, []

    @property
    def busy(self) -> int:
        return len(self.pending)

    def submit(self, game) -> None:
        super().submit(game)
        self.pending.append(game)

    def played(self, g):
        winner = ("mafia" if g.entrants[0] == "A" else "fbi") if self.a_wins else "mafia"
        return g, rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {winner})

    def done(self, timeout: float):
        out = [self.played(g) for g in self.pending]
        self.pending = []
        return out


@pytest.mark.parametrize("a_wins", [True, False])
def test_a_run_stops_submitting_games_once_its_sprt_decides(tmp_path: Path, a_wins: bool):
    t = _duel_tournament()
    folder = Folder.create(tmp_path / "t", {"format": 2, **t.config})
    pool, seen = _Playing(a_wins), []
    outcome = t.run(folder, pool, on_progress=seen.append)
    folder.unlock()
    p0, p1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    blocks = math.ceil(t.sprt.upper / math.log(p1 / p0)) if a_wins else 200  # undecided: every game
    assert outcome.sprt["result"] == ("H1" if a_wins else None) and outcome.played == 2 * blocks
    assert pool.submitted == [g.index for g in t.games[:2 * blocks]]
    assert [p.done for p in seen] == list(range(1, 2 * blocks + 1))
    leader, rate = seen[-1].leader
    assert ((leader, rate) == ("A", 1.0)) if a_wins else (rate == 0.5)  # A won every game, or each won half


class _Holding(_Playing):
    """One worker: the first game submitted runs, the others wait; ``done`` ends the running
    one (A's seats win) and starts the next. ``drop_waiting`` drops those waiting."""

    workers = 3  # (a run keeps twice as many submitted)

    def __init__(self) -> None:
        super().__init__(a_wins=True)
        self.dropped: list[int] = []

    def done(self, timeout: float):
        return [self.played(self.pending.pop(0))]

    def drop_waiting(self) -> None:
        self.dropped += [g.index for g in self.pending[1:]]
        self.pending[1:] = []


def test_no_game_starts_once_the_sprt_decides(tmp_path: Path):
    t = _duel_tournament()
    folder = Folder.create(tmp_path / "t", {"format": 2, **t.config})
    pool = _Holding()
    outcome = t.run(folder, pool)
    folder.unlock()
    decided = outcome.sprt["games"]
    assert outcome.sprt["result"] == "H1" and pool.dropped, "games were waiting when it decided"
    assert [r["game"] for r in outcome.records] == list(range(decided + 1)), "the one running then, and no other"
    assert set(pool.dropped) == set(pool.submitted) - set(range(decided + 1))


def test_a_local_pool_drops_the_games_no_worker_has_taken(tmp_path: Path):
    from concurrent.futures import ThreadPoolExecutor

    from arbiter.engine.arena.pool import LocalPool

    pool = LocalPool.__new__(LocalPool)  # its bookkeeping, with threads for processes
    pool.workers, pool._running = 1, {}
    pool._executor = ThreadPoolExecutor(max_workers=1)
    gate = threading.Event()
    running = pool._executor.submit(gate.wait, 5)
    pool._running = {running: "g0", pool._executor.submit(int): "g1", pool._executor.submit(int): "g2"}
    pool.drop_waiting()
    assert list(pool._running.values()) == ["g0"] and not running.cancelled()
    gate.set()
    pool._executor.shutdown(wait=True)


def test_a_block_with_an_unfinished_game_is_counted_void():
    t = _duel_tournament()
    records = {g.index: rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"},
                            {"mafia" if g.entrants[0] == "A" else "fbi"}) for g in t.games[:6]}
    records[3].update(finished=False, outcome={"m": "none", "f": "none"})  # in the second block
    state = t.sprt_state(records)
    assert (state["blocks"], state["wins"], state["losses"], state["draws"], state["void"]) == (3, 2, 0, 0, 1)


def test_roles_and_sides_with_long_names_keep_a_row_each_with_the_whole_name():
    """Two roles alike in their first 24 characters (FBI vs Mafia joins a seat's characters
    with +) are two rows, each named whole; so are sides."""
    first, second = "Bartholomew+Cornelius+Dorothea", "Bartholomew+Cornelius+Dorian"
    records = [rec(0, {"m": "A", "f": "B"}, {"m": "the-long-side-one", "f": "the-long-side-two"}, {"m"})
               | {"roles": {"m": first, "f": second}}]
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    lines = report.tables(report.summary(config, records, 1)).splitlines()
    assert [line.split()[:3] for line in lines if line.startswith("Bartholomew")] == [
        [second, "-", "0/1"], [first, "1/1", "100.0%"]]
    assert [line.split()[:2] for line in lines if line.startswith("the-long-side")] == [
        ["the-long-side-one", "A"], ["the-long-side-two", "B"]]

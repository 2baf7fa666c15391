"""The arena's arithmetic: win rates and their Wilson and deal-based intervals, head-to-head
counts and their Elo with its edges, side and role rates, and OpenSkill ratings against the
library's own model."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from arbiter.engine.arena import rating, report, stats

from tests.arena_staging import DUEL, duel_tournament, rec

# -- a small fixed results file ---------------------------------------------------------------------


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


def test_seats_of_deals_that_all_went_alike_count_a_deal_as_one_trial():
    """Magic Maze's team wins or loses whole: 16 seats in 2 deals of 2 games, all lost, are two
    outcomes seen, not sixteen. With no spread to read, the interval is Wilson's of the deals
    (0-65.8%), not of the seats (0-19.4%), which was narrower than one more deal of 40 with a
    single game won allowed (there the spread is read: 0.2-7.1%, where all lost said 0-1.2%)."""
    lost = stats.Tally()
    for deal in range(2):
        for _ in range(8):
            lost.add(False, deal)
    assert lost.interval == pytest.approx(stats.wilson(0, 2)) and lost.interval[1] > 0.65
    many = stats.Tally()
    for deal in range(40):
        for seat in range(8):
            many.add(deal == 0 and seat < 4, deal)
    all_lost = stats.Tally()
    for deal in range(40):
        for _ in range(8):
            all_lost.add(False, deal)
    assert all_lost.interval == pytest.approx(stats.wilson(0, 40))
    assert all_lost.interval[1] > 0.08 > many.interval[1]  # (no more certain for having seen no win at all)


def test_deals_that_all_scored_alike_to_a_floats_rounding_show_no_spread():
    """Five deals of 11 games, each 4 won, 7 drawn: the spread is 0, but a float's rounding
    left 1e-31 of it, which read as a spread made the interval a point, [68.2%, 68.2%]."""
    assert stats.design_effect([(4, 7, 11)] * 5) is None
    low, high = stats.deal_score_interval([(4, 7, 11)] * 5)
    assert (low, high) == pytest.approx(stats.score_interval(5 * 4 / 11, 5 * 7 / 11, 5))
    assert high - low > 0.3
    both = stats.deal_score_interval([(2, 0, 2)] * 10)  # every pair won: ten trials, not twenty games
    assert both == pytest.approx(stats.score_interval(10, 0, 10)) and both[0] < stats.score_interval(20, 0, 20)[0]


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


def test_a_pair_that_met_on_unequal_sides_is_marked_in_the_table_and_the_json():
    """Three bots alike in a duel whose Mafia side wins 78%: the schedule puts a on the Mafia
    seat in every game against b, and the score read the side's edge as a's (+220 Elo)."""
    def game(mafia: str, fbi: str, deal: int) -> dict:
        return rec(deal, {"m": mafia, "f": fbi}, {"m": "mafia", "f": "fbi"}, {"m"}, deal=deal)
    one_way = [game("a", "b", d) for d in range(5)]
    both_ways = one_way + [game("b", "a", d) | {"game": 5 + d} for d in range(5)]
    (uneven,) = stats.head_to_head(one_way, ["a", "b"])
    (even,) = stats.head_to_head(both_ways, ["a", "b"])
    assert (uneven["sides_even"], uneven["a_score"], even["sides_even"], even["a_score"]) == (False, 1.0, True, 0.5)
    assert (uneven["sides_uneven"], even["sides_uneven"]) == (1.0, 0.0)
    assert stats.head_to_head([], ["a", "b"])[0]["sides_even"] is None  # they never met
    config = {"game": "fbi-mafia", "entrants": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "random"}]}
    text = report.tables(report.summary(config, one_way, 5))
    assert "a - b*" in text and "*: met on each side unequally often" in text
    text = report.tables(report.summary(config, both_ways, 10))
    assert "a - b*" not in text and "*: met" not in text


def test_a_whole_block_whose_seats_the_entrants_do_not_divide_may_meet_a_pair_unevenly():
    """The schedule gives each entrant every seat of a deal once, not each pair every side: three
    entrants on four seats (sides X X Y Y) meet a and b once with a on X against b on Y and
    twice the other way round, a third of their meetings not mirrored. Two or four entrants
    (dividing the seats) meet every pair evenly."""
    def block(k: int) -> list[dict]:
        names, seats = "abcd"[:k], ["s0", "s1", "s2", "s3"]
        return [rec(r, {s: names[(i + r) % k] for i, s in enumerate(seats)}, dict(zip(seats, "XXYY")), {"s0", "s1"},
                    deal=0) for r in range(k)]
    pair = stats.head_to_head(block(3), ["a", "b", "c"])[0]
    assert (pair["a"], pair["b"], pair["sides_even"]) == ("a", "b", False)
    assert pair["sides_uneven"] == pytest.approx(1 / 3)
    for k in (2, 4):
        assert all(h["sides_even"] for h in stats.head_to_head(block(k), list("abcd"[:k])))


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


def test_a_block_with_an_unfinished_game_is_counted_void():
    t = duel_tournament()
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


# -- the tables' one pass against their definitions, pair by pair and entrant by entrant -------------

_GAMES = st.lists(st.tuples(
    st.lists(st.tuples(st.sampled_from("ABCDE"), st.sampled_from(("town", "mafia", "loner")), st.booleans()),
             min_size=1, max_size=6),
    st.booleans(), st.integers(0, 3),  # finished; deal
    st.lists(st.sampled_from("ABCDEZ"), max_size=2)), max_size=25)  # forfeits (Z: no entrant of the run)


def _records(games):
    out = []
    for i, (seats, done, deal, forfeits) in enumerate(games):
        r = rec(i, {f"s{j}": e for j, (e, _, _) in enumerate(seats)}, {f"s{j}": side for j, (_, side, _) in
                                                                         enumerate(seats)},
                {f"s{j}" for j, (_, _, won) in enumerate(seats) if won}, deal=deal,
                forfeits=[{"seat": "s0", "entrant": e, "kind": "crash", "reason": "the bot exited"} for e in forfeits])
        r["finished"] = done
        out.append(r)
    return out


@settings(max_examples=150, deadline=None)
@given(_GAMES, st.lists(st.sampled_from("ABCDEF"), min_size=2, max_size=5, unique=True))
def test_head_to_head_and_the_entrant_table_are_their_definitions(games, entrants) -> None:
    """``head_to_head`` and ``entrant_table`` read the records once (a pass per pair of entrants
    was the report's whole cost at many entrants); each still says, pair by pair and entrant by
    entrant, what ``pair_result`` and the seats say (an entrant E of the records not in the run
    is left out, as the run's tables do)."""
    records = _records(games)
    rows = stats.head_to_head(records, entrants)
    assert [(h["a"], h["b"]) for h in rows] == [(a, b) for i, a in enumerate(entrants) for b in entrants[i + 1:]]
    for h in rows:
        results = [(p, stats.pair_result(r, h["a"], h["b"])) for p, r in enumerate(records)]
        met = [(p, res) for p, res in results if res is not None]
        assert (h["games"], h["a_wins"], h["b_wins"], h["draws"]) == (
            len(met), sum(res == "win" for _, res in met), sum(res == "loss" for _, res in met),
            sum(res == "draw" for _, res in met))
        assert h["deals"] == len({records[p]["deal"] for p, _ in met})
        if met:
            deals: dict = {}
            for p, res in met:  # in the order first met, as the interval reads them
                d = deals.setdefault(records[p]["deal"], [0, 0, 0])
                d[0] += res == "win"
                d[1] += res == "draw"
                d[2] += 1
            assert (h["a_score_low"], h["a_score_high"]) == stats.deal_score_interval([tuple(d) for d in deals.values()])
            faced: dict = {}  # (a's side, b's side) -> pairs of their seats so met, in the games they met
            for p, _ in met:
                r = records[p]
                for x in [r["sides"][s] for s, e in r["seats"].items() if e == h["a"]]:
                    for y in [r["sides"][s] for s, e in r["seats"].items() if e == h["b"]]:
                        if x != y:
                            faced[(x, y)] = faced.get((x, y), 0) + 1
            uneven = sum(abs(k - faced.get((y, x), 0)) for (x, y), k in faced.items() if (y, x) not in faced or x < y)
            assert h["sides_uneven"] == uneven / sum(faced.values()) and h["sides_even"] == (not uneven)
        else:
            assert h["a_score"] is None and h["sides_even"] is None
    table = stats.entrant_table(records, entrants)
    for name in entrants:
        done = [r for r in records if r["finished"]]
        seats = [(r, s) for r in done for s, e in r["seats"].items() if e == name]
        assert table[name]["games"] == len({r["game"] for r, _ in seats})
        assert (table[name]["seats"], table[name]["wins"]) == (len(seats), sum(r["outcome"][s] == "won" for r, s in seats))
        assert table[name]["forfeits"] == sum(f["entrant"] == name for r in records for f in r["forfeits"])

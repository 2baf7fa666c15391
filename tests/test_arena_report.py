"""The tournament report's text: its tables read as written, cut at the SPRT's decision, and
roles and sides that do not fit 80 columns (a row each, their names whole)."""

from __future__ import annotations

import sys
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine.arena import report
from arbiter.engine.arena.sprt import Sprt

from tests.arena_staging import DUEL, rec

def _report_records(first: str) -> list[dict]:
    """Four finished duels of ``first`` against random (its programs named twice) and one unfinished."""
    roles = {"m": "bandit", "f": "agent"}

    def game(n: int, mafia: str, fbi: str, won: set, finished: bool = True, **extra) -> dict:
        r = rec(n, {"m": mafia, "f": fbi}, DUEL, won, deal=n // 2, **extra)  # a deal: two games, sides swapped
        if not finished:
            r.update(finished=False, outcome={"m": "none", "f": "none"})
        return {**r, "roles": roles}
    return [game(0, first, "random", {"m"}, names={"m": "Greedy 1.0"}),
            game(1, "random", first, {"m"}, names={"f": "Greedy 1.0"}),
            game(2, first, "random", {"m"}, names={"m": "Greedy 1.1"}),
            game(3, "random", first, {"f"}, names={"f": "Greedy 1.1"}),
            game(4, first, "random", set(), finished=False)]


REPORT_TEXT = """\
entrant     games  seats  won  win%  95% CI    mu     sigma  ordinal
----------  -----  -----  ---  ----  --------  -----  -----  -------
greedy-wi~  4      4      3    75.0  1.0-99.9  29.06  7.36   6.98
random      4      4      1    25.0  0.1-99.0  20.94  7.36   -1.14
win% counts seats (an entrant may hold several seats of a game); 95% CI: its
  spread read from the deals (the seats of a deal are not independent);
  mu/sigma/ordinal: OpenSkill (Plackett-Luce), ordinal = mu - 3 sigma

side   entrant     seats  won  win%   95% CI      vs all
-----  ----------  -----  ---  -----  ----------  ------
fbi    greedy-wi~  2      1    50.0   9.4-90.6    +25.0
fbi    random      2      0    0.0    0.0-65.8    -25.0
mafia  greedy-wi~  2      2    100.0  34.2-100.0  +25.0
mafia  random      2      1    50.0   9.4-90.6    -25.0
vs all: the entrant's win% on the side minus the side's win% over every seat

role    greedy-wi~  random
------  ----------  ---------
agent   1/2 50.0%   0/2 0.0%
bandit  2/2 100.0%  1/2 50.0%
role: seats won / seats played, win%

forfeits: none

pair (a - b)         a won  b won  drawn  a score%  Elo   95% CI
-------------------  -----  -----  -----  --------  ----  ------------
greedy-wi~ - random  3      1      0      75.0      +191  [-794,+1175]
a won, b won, drawn: the games where they held seats on opposite sides (their
  sum: the games they met), each going to whose seats won more of those
  pairings; 95% CI: of the score, its spread read from the deals those games
  came from (the games of a deal are not independent)
unfinished games (no result; counted for no one): 1
1 game of blocks not played whole (the run stopped before their other rotations,
  or a game of them could not start): the entrants did not all hold their seats,
  so the tables' balance holds for the other games only
names the programs gave: greedy-with-a-long-name: Greedy 1.0, Greedy 1.1

SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR 0.13 (bounds -2.94, 2.94) after 2
  blocks of 2 games (+1 -0 =1; a block is won by whose seats won more of the
  same deal): no decision yet"""


def test_the_reports_tables_read_as_written():
    """The whole text of a small report: names cut to 10 characters, Elo signed, each side
    against all seats, roles one column per entrant, lines wrapped at 80 columns."""
    long = "greedy-with-a-long-name"
    config = {"game": "fbi-mafia", "entrants": [{"name": long, "spec": "exec:./greedy"}, {"name": "random", "spec": "random"}]}
    t = Sprt(0, 50)
    sprt = {"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05, "llr": t.llr(1, 0), "lower": t.lower,
            "upper": t.upper, "blocks": 2, "games": 4, "wins": 1, "losses": 0, "draws": 1, "result": None, "first": long}
    text = report.tables(report.summary(config, _report_records(long), 6, sprt))
    assert text == REPORT_TEXT


def test_games_the_machine_could_not_start_are_said_with_their_reason_and_how_to_go_on():
    """A run none of whose games could start (too many open files) printed empty tables and
    "unfinished games: 4", exit status 0: the reason was only in results.jsonl."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "a", "spec": "exec:./a"}, {"name": "random", "spec": "random"}]}
    records = _report_records("a")
    why = "cannot start bot for m: 'exec:./a': Too many open files"
    records[4]["error"] = why
    summary = {**report.summary(config, records, 6), "folder": "runs/t"}
    assert (summary["unfinished"], summary["not_started"], summary["not_started_why"]) == (1, 1, why)
    text = " ".join(report.tables(summary).split())
    assert ("unfinished games (no result; counted for no one): 1 of them, games the machine could not start (no "
            "file, memory or process to be had; arbiter tournament --resume runs/t plays them again): 1; the first: "
            f"{why}") in text
    assert "could not start (" not in report.tables(report.summary(config, _report_records("a"), 6))


def test_once_the_sprt_decides_the_tables_count_the_games_up_to_its_decision():
    """Games running when the test decided finish and are recorded, but how many depends on
    the workers and the timing: the tables count the blocks up to the decision, and say how
    many were left out; a block with an unfinished game is void, and said to be."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    t = Sprt(0, 50)
    records = [rec(i, {"m": "AB"[i % 2], "f": "BA"[i % 2]}, DUEL, {"m" if i % 2 == 0 else "f"}) for i in range(7)]
    sprt = {"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05, "llr": t.llr(2, 0), "lower": t.lower,
            "upper": t.upper, "blocks": 2, "games": 4, "wins": 1, "losses": 0, "draws": 0, "void": 1,
            "result": "H1", "first": "A"}
    got = report.summary(config, records, 8, sprt)
    assert (got["recorded"], got["after_decision"]) == (7, 3)
    assert got["table"] == report.summary(config, records[:4], 8, sprt)["table"]
    assert got["table"]["A"]["games"] == 4
    text = " ".join(report.tables(got).split())
    assert "(+1 -0 =0, 1 void: a game of it unfinished;" in text
    assert "H1 accepted (A +50 Elo rather than +0)" in text
    assert "3 games that were running when it decided: recorded, not counted in the tables above" in text
    undecided = report.summary(config, records, 8, {**sprt, "result": None})
    assert (undecided["after_decision"], undecided["table"]["A"]["games"]) == (0, 7)


def test_a_roles_table_too_wide_for_80_columns_has_a_row_per_role_and_entrant():
    names = [f"entrant-{i:02d}" for i in range(8)]  # 10 characters: shown whole
    records = [rec(i, {"m": names[i], "f": names[(i + 1) % 8]}, DUEL, {"m"}) | {"roles": {"m": "bandit", "f": "agent"}}
               for i in range(8)]
    config = {"game": "fbi-mafia", "entrants": [{"name": n, "spec": "random"} for n in names]}
    text = report.tables(report.summary(config, records, 8))
    assert max(len(line) for line in text.splitlines()) <= 80
    roles = text.split("\n\nrole ")[1].split("\n\n")[0].splitlines()
    assert roles[0].split() == ["entrant", "seats", "won", "win%"] and len(roles) == 2 + 16 + 1
    assert roles[2].split() == ["agent", "entrant-00", "1", "0", "0.0"]


@pytest.mark.parametrize("count, shown", [(1, False), (2, True), (40, True), (41, False)])
def test_roles_are_tabled_when_there_are_two_to_forty(count, shown):
    records = [rec(i, {"m": "A", "f": "B"}, DUEL, {"m"}) | {"roles": {"m": f"r{i:02d}", "f": f"r{(i + 1) % count:02d}"}}
               for i in range(count)]
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    text = report.tables(report.summary(config, records, count))
    assert ("role: seats won / seats played, win%" in text) == shown


def _pair_row(text: str) -> list[str]:
    """The head-to-head table's one row (a pair of two entrants), split into its cells."""
    lines = text.split("\npair (a - b)")[1].splitlines()
    return lines[2].split()


@pytest.mark.parametrize("a_won, shown", [(True, ["+inf", "[+7,+inf]"]), (False, ["-inf", "[-inf,-7]"])])
def test_a_pair_one_entrant_won_every_game_of_has_an_infinite_elo_not_a_dash(a_won, shown):
    """4-0: a score of 1 (0) is an infinitely large Elo difference, and so is its interval's
    upper (lower) end; the lower (upper) end is Wilson's at 4 of 4, 0.510 (0.490): +7 (-7).
    A dash is for a pair that never met, which has no figure at all."""
    records = [rec(i, {"m": "AB"[i % 2], "f": "BA"[i % 2]}, DUEL, {"m" if (i % 2 == 0) == a_won else "f"})
               for i in range(4)]
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    got = report.summary(config, records, 4)
    assert [got["head_to_head"][0][k] for k in ("elo", "elo_high" if a_won else "elo_low")] == [None, None]
    assert _pair_row(report.tables(got))[-2:] == shown
    never = report.summary(config, [], 4)
    assert _pair_row(report.tables(never))[-4:] == ["0", "-", "-", "-"]
    assert list(never["head_to_head"][0].items()) == [  # (the JSON's keys in the order of a pair that met)
        ("a", "A"), ("b", "B"), *dict.fromkeys(("games", "deals", "a_wins", "b_wins", "draws"), 0).items(),
        *dict.fromkeys(("sides_even", "sides_uneven", "a_score", "a_score_low", "a_score_high", "elo", "elo_low",
                        "elo_high")).items()]
    assert list(never["head_to_head"][0]) == list(got["head_to_head"][0])


def test_long_names_cut_alike_are_told_apart_in_every_table():
    """Two long names of one beginning (versions of a bot) were both cut to ``longername~``:
    every table had two rows, columns or pairs it could not tell apart. Each keeps enough of its
    end to be told apart; a long name that is alone keeps its cut beginning."""
    names = ["longername_1", "longername_2", "greedy-with-a-long-name"]
    records = [rec(i, {"m": names[i % 3], "f": names[(i + 1) % 3]}, DUEL, {"m"}) for i in range(6)]
    config = {"game": "fbi-mafia", "entrants": [{"name": n, "spec": "random"} for n in names]}
    text = report.tables(report.summary(config, records, 6))
    entrants = text.split("\n\n")[0].splitlines()[2:5]
    assert sorted(row.split()[0] for row in entrants) == ["greedy-wi~", "longerna~1", "longerna~2"]
    assert "longernam~" not in text
    pairs = text.split("\npair (a - b)")[1].splitlines()[2:5]
    assert [" ".join(row.split()[:3]) for row in pairs] == [
        "longerna~1 - longerna~2*", "longerna~1 - greedy-wi~*", "longerna~2 - greedy-wi~*"]  # (one way round each)


def test_an_sprt_before_its_first_whole_block_says_how_many_games_a_block_has():
    """Interrupted after the first game of a match with --sprt: no block is whole yet, and the
    line said "after 0 blocks of 0 games" (the games counted over the blocks). A block is one
    game per entrant: 2 games."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    t = Sprt(0, 50)
    sprt = {**t.as_dict(), "first": "A", "second": "B", "blocks": 0, "games": 0, "wins": 0, "losses": 0,
            "draws": 0, "void": 0, "llr": 0.0, "lower": t.lower, "upper": t.upper, "result": None}
    records = [rec(0, {"m": "A", "f": "B"}, DUEL, {"m"})]
    text = " ".join(report.tables(report.summary(config, records, 4, sprt)).split())
    assert "after 0 blocks of 2 games (+0 -0 =0;" in text
    one = {**sprt, "blocks": 1, "games": 2, "losses": 1, "llr": t.llr(0, 1)}
    text = " ".join(report.tables(report.summary(config, records, 4, one)).split())
    assert "after 1 block of 2 games (+0 -1 =0;" in text  # (not "1 blocks")


def test_an_undecided_sprt_on_mostly_drawn_blocks_says_why_it_moves_slowly():
    """Identical bots in a game the side decides draw every block (each wins on the strong
    side), and a drawn block adds nothing to the LLR: 300 drawn blocks and "no decision yet",
    with no word of why. The report now says so, when most counted blocks were drawn and the
    test has not decided; not otherwise."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    t = Sprt(0, 50)
    records = [rec(i, {"m": "AB"[i % 2], "f": "BA"[i % 2]}, DUEL, {"m"}, deal=i // 2) for i in range(4)]

    def text(wins: int, losses: int, draws: int, result: str | None) -> str:
        sprt = {**t.as_dict(), "first": "A", "second": "B", "blocks": wins + losses + draws, "games": 4,
                "wins": wins, "losses": losses, "draws": draws, "void": 0, "llr": t.llr(wins, losses),
                "lower": t.lower, "upper": t.upper, "result": result}
        return " ".join(report.tables(report.summary(config, records, 4, sprt)).split())

    hint = "300 of the 300 counted blocks were drawn, and a drawn block adds nothing to the LLR"
    assert hint in text(0, 0, 300, None) and "identical ones never decide" in text(0, 0, 300, None)
    assert "7 of the 12 counted blocks were drawn" in text(3, 2, 7, None)
    assert "counted blocks were drawn" not in text(3, 2, 5, None)  # half or fewer drawn
    assert "counted blocks were drawn" not in text(0, 0, 300, "H0")  # decided: nothing to explain


def test_an_entrant_with_no_seat_in_any_game_has_no_win_rate_not_a_zero():
    """Every game unfinished (a move limit): no entrant held a seat of a finished game. Its win%
    and interval were shown as 0.0 and 0.0-100.0, a figure where there is none; they are ``-``,
    and null in the JSON, as a pair's Elo is when the pair never met (whose score% is ``-`` too,
    not 50.0)."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    records = [{**rec(0, {"m": "A", "f": "B"}, DUEL, set()), "finished": False, "outcome": {"m": "none", "f": "none"}}]
    got = report.summary(config, records, 2)
    assert {k: got["table"]["A"][k] for k in ("seats", "rate", "low", "high")} == {
        "seats": 0, "rate": None, "low": None, "high": None}
    text = report.tables(got)
    rows = text.splitlines()[2:4]
    assert [row.split()[:6] for row in rows] == [["A", "0", "0", "0", "-", "-"], ["B", "0", "0", "0", "-", "-"]]
    pair = got["head_to_head"][0]
    assert (pair["games"], pair["a_score"], pair["a_score_low"], pair["a_score_high"]) == (0, None, None, None)
    assert _pair_row(text)[-4:] == ["0", "-", "-", "-"]


def test_a_difference_that_rounds_to_zero_is_shown_as_plus_zero_never_minus_zero():
    """vs all (and the ratings, and the SPRT's LLR) a value just below zero was printed ``-0.0``
    beside ``+25.0`` and ``-25.0``: it is ``+0.0`` (``0.00``)."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    records = [rec(i, {"m": "AB"[i % 2], "f": "BA"[i % 2]}, DUEL, {"m"}) for i in range(4)]
    got = report.summary(config, records, 4)
    got["side_rates"]["mafia"]["rate"] += 0.0004  # the entrants 0.04 points below the side
    got["ratings"]["A"]["ordinal"] = -0.001
    t = Sprt(0, 50)
    got["sprt"] = {**t.as_dict(), "first": "A", "second": "B", "blocks": 2, "games": 4, "wins": 0, "losses": 0,
                   "draws": 2, "void": 0, "llr": -0.001, "lower": t.lower, "upper": t.upper, "result": None}
    text = report.tables(got)
    sides = text.split("\nside ")[1].splitlines()[2:6]
    assert [row.split()[-1] for row in sides] == ["+0.0"] * 4
    assert "-0.0" not in text and "LLR 0.00 " in text


def test_games_of_a_block_cut_short_are_counted_and_said():
    """A run stopped after 473 games of blocks of 2 left its last deal played one way round:
    its seats count for one entrant without the swapped game for the other, and the tables'
    balance does not hold there. The report says how many games that is."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "random"}]}
    whole = [rec(i, {"m": "ab"[i % 2], "f": "ba"[i % 2]}, DUEL, {"m"}, deal=i // 2) for i in range(4)]
    got = report.summary(config, whole + [rec(4, {"m": "a", "f": "b"}, DUEL, {"m"}, deal=2)], 6)
    assert got["part_blocks"] == 1 and "1 game of blocks not played whole" in report.tables(got)
    assert "a - b*" in report.tables(got)  # (its last deal was played one way round: the pair met unevenly)
    got = report.summary(config, whole, 4)
    assert got["part_blocks"] == 0 and "not played whole" not in report.tables(got)


def test_a_game_the_machine_could_not_start_leaves_its_block_cut_short():
    """A record with an ``error`` (a game the machine could not start) is played again by a
    resume: its block is not whole until then, and the report counted it as whole."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "random"}]}
    played = rec(0, {"m": "a", "f": "b"}, DUEL, {"m"}, deal=0)
    failed = {"game": 1, "deal": 0, "finished": False, "error": "cannot start bot", "seats": {"m": "b", "f": "a"},
              "sides": DUEL, "roles": dict(DUEL), "outcome": {}, "forfeits": []}
    assert report.summary(config, [played, failed], 2)["part_blocks"] == 1


def test_a_rate_that_is_not_all_or_none_never_shows_as_100_or_0():
    """A score of 0.9995 was shown ``100.0`` beside a finite Elo figure (+1320), which reads as
    "won every game" when it did not; a rate just above 0 was ``0.0``. Every percentage of the
    report (win%, by side, by role, the pair's score) shows such a rate as
    ``>99.9`` (``<0.1``); only all won (none) is ``100.0`` (``0.0``)."""
    config = {"game": "fbi-mafia", "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}]}
    records = [rec(i, {"m": "AB"[i % 2], "f": "BA"[i % 2]}, DUEL, {"m"}, deal=i // 2) for i in range(4)]
    got = report.summary(config, records, 4)
    got["table"]["A"].update(rate=0.9995, low=0.0004, high=0.99999)
    got["table"]["B"].update(rate=0.0004, low=0.0, high=1.0)  # exactly none and all: as ever
    got["sides"]["A"]["mafia"].update(rate=0.99951, low=0.9996, high=1.0)
    got["roles"] = {"A": {"bandit": {"seats": 2000, "wins": 1999, "rate": 1999 / 2000}},
                    "B": {"bandit": {"seats": 3000, "wins": 1, "rate": 1 / 3000}, "agent": {"seats": 1, "wins": 0, "rate": 0.0}}}
    pair = got["head_to_head"][0]
    pair.update(a_score=0.9995, elo=report.stats.elo(0.9995))
    text = report.tables(got)
    entrants = {row.split()[0]: row.split()[4:6] for row in text.splitlines()[2:4]}
    assert entrants == {"A": [">99.9", "0.0-100.0"], "B": ["<0.1", "0.0-100.0"]}  # (an interval's ends rounded outward)
    sides = text.split("\nside ")[1].splitlines()[2:6]
    assert sides[2].split()[4:6] == [">99.9", "99.9-100.0"]  # (its low end, 99.96, rounded down)
    roles = text.split("\n\nrole ")[1].split("\n\n")[0].splitlines()
    assert roles[2].split() == ["agent", "-", "0/1", "0.0%"]
    assert roles[3].split() == ["bandit", "1999/2000", ">99.9%", "1/3000", "<0.1%"]
    row = _pair_row(text)
    assert row[row.index("+1320") - 1] == ">99.9"
    pair.update(a_score=0.0004, elo=report.stats.elo(0.0004))
    row = _pair_row(report.tables(got))
    assert row[row.index("-1359") - 1] == "<0.1"
    assert max(len(line) for line in text.splitlines()) <= 80


def test_the_head_to_head_table_fits_80_columns_at_its_widest():
    """A head-to-head row with 6-digit counts (a tournament plays at most 100,000 games, rounded up
    to whole blocks) and a lopsided pair's Elo and interval took 89 columns. At its widest (both
    names cut to 10 characters and the pair marked ``*``, every count of 6 digits, a score
    within a game of 0 or 1, Elo ends of five characters: -2885 is the farthest an interval's
    end can reach there, one win in two deals of 50,001 games) it fits 80, and says every count."""
    from arbiter.engine.arena import stats

    names = ["entrant-01", "entrant-02", "entrant-03"]
    config = {"game": "fbi-mafia", "entrants": [{"name": n, "spec": "random"} for n in names]}
    got = report.summary(config, [], 100_002)
    deals = {("entrant-01", "entrant-02"): [(50_001, 0, 50_001), (50_000, 0, 50_001)],
             ("entrant-01", "entrant-03"): [(1, 0, 50_001), (0, 0, 50_001)],
             ("entrant-02", "entrant-03"): [(0, 50_001, 50_001)] * 2}
    for h in got["head_to_head"]:
        counted = deals[h["a"], h["b"]]
        wins, draws, games = (sum(d[i] for d in counted) for i in range(3))
        low, high = stats.deal_score_interval(counted)
        score = (wins + draws / 2) / games
        h.update(games=games, deals=2, a_wins=wins, b_wins=games - wins - draws, draws=draws, sides_even=False,
                 a_score=score, a_score_low=low, a_score_high=high, elo=stats.elo(score), elo_low=stats.elo(low),
                 elo_high=stats.elo(high))
    text = report.tables(got)
    assert max(len(line) for line in text.splitlines()) <= 80
    table = text.split("\npair (a - b)")[1].split("\na won, b won, drawn: ")[0]
    rows = [row.split() for row in table.splitlines()[2:]]
    assert rows == [["entrant-01", "-", "entrant-02*", "100001", "1", "0", ">99.9", "+2000", "[+1115,+2885]"],
                    ["entrant-01", "-", "entrant-03*", "1", "100001", "0", "<0.1", "-2000", "[-2885,-1115]"],
                    ["entrant-02", "-", "entrant-03*", "0", "0", "100002", "50.0", "+0", "[-393,+393]"]]
    assert max(len(line) for line in ("pair (a - b)" + table).splitlines()) == 80  # (at its widest)


def test_the_entrants_table_fits_80_columns_at_its_widest():
    """Two entrants of a 100,000-game tournament of 12-seat games hold 600,000 seats each, and
    one that forfeits every seat has 600,000 forfeits: the entrants' table, with its forfeits'
    column, took 87 columns. Its forfeits are the forfeits table's; the widest row (6-digit
    counts, an interval's end past 99.9, ratings of seven characters) fits 80."""
    names = ["entrant-01", "entrant-02"]
    config = {"game": "mafia", "entrants": [{"name": n, "spec": "random"} for n in names]}
    got = report.summary(config, [], 100_000)
    for n in names:
        got["table"][n].update(games=100_000, seats=600_000, wins=599_999, rate=599_999 / 600_000, low=0.99996,
                               high=1.0, forfeits=600_000)
        got["ratings"][n].update(mu=-123.45, sigma=0.83, ordinal=-125.94)
        got["forfeits"][n] = {"crash": 600_000}
    text = report.tables(got)
    assert max(len(line) for line in text.splitlines()) <= 80
    rows = [row.split() for row in text.splitlines()[2:4]]
    assert rows[0] == ["entrant-01", "100000", "600000", "599999", ">99.9", "99.9-100.0", "-123.45", "0.83", "-125.94"]
    assert "\nforfeits    crash\n" in text and "\nentrant-01  600000\n" in text


def test_an_intervals_ends_are_rounded_outward_so_it_holds_the_one_computed():
    """An interval's ends were shown as they round, so a rate shown ``>99.9`` (not all won)
    sat beside an interval shown ``100.0-100.0``, its low end 99.996% rounded up, which reads
    as though the interval left the rate out. The low end is rounded down and the high end up,
    at the printed precision: the interval shown holds the one computed, and is no more than a
    tenth of a point wider at each end. ``>99.9``, ``<0.1`` and all or none as they were."""
    assert report._pct(599_999 / 600_000) == ">99.9" and report._interval({"low": 0.99996, "high": 1.0}) == "99.9-100.0"
    assert report._pct(1 / 600_000) == "<0.1" and report._interval({"low": 0.0, "high": 0.00004}) == "0.0-0.1"
    assert report._interval({"low": 0.0, "high": 1.0}) == "0.0-100.0" and report._interval({"low": None}) == "-"
    # an end on a figure of one decimal stays on it (the float 0.123 is a little less than 0.123)
    assert report._interval({"low": 0.123, "high": 0.877}) == "12.3-87.7"
    ends = [i / 7919 for i in range(7920)] + [0.1, 0.2, 0.3, 0.7, 0.9, 0.95, 0.999, 0.9999]
    for low, high in zip(ends, reversed(ends)):
        low, high = min(low, high), max(low, high)
        shown_low, shown_high = map(float, report._interval({"low": low, "high": high}).split("-"))
        assert shown_low <= 100 * low + 1e-9 and 100 * high - 1e-9 <= shown_high, (low, high)
        assert 100 * low - shown_low < 0.1 and shown_high - 100 * high < 0.1, (low, high)


class _Tabulating:
    """Stands in for the ``tabulate`` module: counts the tables asked of it, made by the real one."""

    MIN_PADDING = 0

    def __init__(self) -> None:
        import tabulate

        self.real, self.calls = tabulate, 0

    def tabulate(self, *args, **kwargs) -> str:
        self.calls += 1
        return self.real.tabulate(*args, **kwargs)


_ODD = st.sampled_from(["", " a", "b ", "a\tb", "x\ny", "é", "中文", "\x1b[31mred\x1b[0m", "\x01", " ", "True", "1.50"])
_PLAIN = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=5)


@settings(max_examples=300)
@given(headers=st.lists(_PLAIN | _ODD, min_size=1, max_size=4),
       rows=st.lists(st.lists(_PLAIN | _ODD | st.integers(-10**6, 10**6), min_size=1, max_size=4),
                     max_size=5))
def test_the_tables_are_laid_out_as_tabulate_lays_them_without_it(headers, rows):
    """``tabulate`` inferred each cell's type, stripped and measured it: nine tenths of the
    report's time with many entrants (17 s for the head-to-head table of 1,000, no game played,
    a row for each of their 499,500 pairs). Cells of printable ASCII without a space at either end (all the tables
    make) are laid out without it, as it lays them (``simple``, no padding, no number parsing):
    any other table, with a tab, a line break, an escape, a letter past ASCII, a cell with a
    space at an end or a row of another length, is still tabulate's. (A cell is a string or a
    whole number, as every table makes it: none is None.)"""
    import tabulate

    fake = _Tabulating()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tabulate, "MIN_PADDING", 0)
        expected = tabulate.tabulate(rows, headers=headers, disable_numparse=True, tablefmt="simple")
        patch.setitem(sys.modules, "tabulate", fake)
        got = report._grid(rows, headers)
    cells = [str(c) for c in chain(headers, *rows)]
    plain = (all(len(row) == len(headers) for row in rows)
             and all(c.isascii() and c.isprintable() and c == c.strip(" ") for c in cells))
    assert got == expected
    assert fake.calls == (0 if plain else 1)


_ENTRANT_NAMES = st.lists(st.one_of(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}", fullmatch=True),
    st.builds(lambda stem, n: f"{stem}-{n}", st.sampled_from(["bot-version", "a", "greedy-search-v"]),
              st.integers(0, 10**12))),  # (alike but for a number at the end, of any length)
    min_size=1, max_size=12, unique=True)


@settings(max_examples=300, deadline=None)
@given(names=_ENTRANT_NAMES)
def test_every_entrant_has_a_label_of_its_own_within_the_width(names: list[str]) -> None:
    """The tables' labels (``report._labels``): at most 10 characters, a name that fits is its
    own label, and no two entrants share one, however alike their names (a number at the end
    kept whole only where that still tells them apart)."""
    labels = report._labels(names)
    assert list(labels) == names and len(set(labels.values())) == len(names)
    assert all(len(label) <= 10 for label in labels.values())
    assert all(labels[n] == n for n in names if len(n) <= 10)

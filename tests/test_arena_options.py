"""The options of ``tournament`` and ``match`` past their bounds: ``--sprt``'s Elo points, ``--alpha``
and ``--beta``, ``--games``, ``--players``, the number of entrants and an ``exec:`` command that
cannot be read. Each is a usage error naming the option and what it allows, before any folder
is made or game scheduled; the help and docs/arena.md say where the bounds lie."""

from __future__ import annotations

import math

import pytest

from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.schedule import MAX_ENTRANTS, MAX_GAMES, Setup, schedule
from arbiter.engine.arena.sprt import MAX_ELO, Sprt
from arbiter.engine.arena.tournament import Tournament, configuration
from arbiter.engine.errors import ArbiterError

from tests.arena_staging import MATCH
from tests.helpers import REPO, run


NOT_DIGITS = "write it in digits 0-9, with one '.' at most"


@pytest.mark.parametrize("elos, why", [
    (("-inf", "inf"), f"'-inf' is not a number of Elo points: {NOT_DIGITS}"),
    (("0", "1e308"), f"'1e308' is not a number of Elo points: {NOT_DIGITS}"),
    (("nan", "5"), f"'nan' is not a number of Elo points: {NOT_DIGITS}"),
    (("-1001", "0"), f"finite numbers from -{MAX_ELO} to {MAX_ELO}"),
    (("0", "1000.5"), f"finite numbers from -{MAX_ELO} to {MAX_ELO}")])
def test_sprt_hypotheses_outside_finite_elo_bounds_are_a_usage_error_before_any_folder(tmp_path, elos, why):
    out = tmp_path / "t"
    r = run(*MATCH, "--games", "2", "--sprt", *elos, "--out", out)
    assert r.exit_code == 2, r.output
    assert "--sprt" in r.output and why in r.output, r.output
    assert not out.exists()


def test_sprt_of_three_entrants_is_a_usage_error_of_sprt_before_any_folder(tmp_path):
    """The test compares two entrants: with three the error names --sprt, and what it allows."""
    out = tmp_path / "t"
    r = run("tournament", "fbi-mafia", "--mode", "duel-3v3", *(f"--entrant={n}=random" for n in "abc"),
            "--games", "3", "--workers", "1", "--sprt", "0", "10", "--out", out)
    assert r.exit_code == 2, r.output
    assert "Invalid value for --sprt: an SPRT compares two entrants; this tournament has 3" in r.output, r.output
    assert not out.exists()


@pytest.mark.parametrize("game, players, allowed", [
    ("mafia", "3", "allowed: 6, 7, 8, 9, 10, 11, 12"),
    ("magic-maze", "9", "allowed: --players 1,"),
    ("fbi-mafia", "3", "leave out --players 3 (a mode fixes the seats: standard-3v3, standard-4v4, duel-3v3,"),
])
def test_a_player_count_the_game_does_not_allow_is_a_usage_error_of_players_before_any_folder(
        tmp_path, game, players, allowed):
    """--players 3 of Classic Mafia was refused without naming --players. The error names the
    option, the count given and the counts allowed (none, for a game set up by its mode)."""
    out = tmp_path / "t"
    r = run("tournament", game, "--players", players, "--entrant", "a=random", "--entrant", "b=random",
            "--games", "2", "--workers", "1", "--out", out)
    assert r.exit_code == 2, r.output
    error = " ".join(r.output.split("Error:")[1].split())
    assert error.startswith("Invalid value for --players: ") and players in error and allowed in error, r.output
    assert not out.exists()

def test_sprt_refuses_values_it_cannot_compute_with_and_computes_at_its_bounds():
    for elos in ((0, math.inf), (0, 1e308), (-math.inf, 0), ("0", 5), (False, True)):
        with pytest.raises(ArbiterError, match="ELO0 and ELO1 are finite numbers from -1000 to 1000, not"):
            Sprt(*elos)
    extreme = Sprt(-MAX_ELO, MAX_ELO)
    assert math.isfinite(extreme.llr(10**6, 10**6)) and extreme.status(5, 0) == "H1"


@pytest.mark.parametrize("option", ["--alpha", "--beta"])
@pytest.mark.parametrize("value, why", [("nan", f"'nan' is not a probability: {NOT_DIGITS}"),
                                        ("NaN", f"'NaN' is not a probability: {NOT_DIGITS}"),
                                        ("-inf", f"'-inf' is not a probability: {NOT_DIGITS}"),
                                        ("0.5", "0.5 is not in the range 0<x<0.5."),
                                        ("0", "0.0 is not in the range 0<x<0.5.")])
def test_alpha_and_beta_outside_their_range_are_a_usage_error_of_their_own(tmp_path, option, value, why):
    out = tmp_path / "t"
    r = run(*MATCH, "--games", "2", "--sprt", "0", "10", option, value, "--out", out)
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {why}" in r.output, r.output
    assert "--sprt" not in r.output.split("Error:")[1]
    assert not out.exists()


@pytest.mark.parametrize("spec", ['exec:python3 "bot.py', "exec:./bot 'it''s", "exec:''"])
def test_an_exec_command_that_cannot_be_read_is_a_usage_error_naming_it(tmp_path, spec):
    """An ``exec:`` command is split as a shell would (``shlex``): one with an unclosed quote,
    or naming no program, is refused before any folder is made, not in every game."""
    out = tmp_path / "t"
    for args in (("match", "mafia", "--players", "6", f"a={spec}", "b=random"),
                 ("tournament", "mafia", "--players", "6", "--entrant", f"a={spec}", "--entrant", "b=random")):
        r = run(*args, "--games", "2", "--workers", "1", "--out", out)
        assert r.exit_code == 2, r.output
        assert f"{spec!r}: the command " in r.output, r.output
        assert not out.exists()


def test_games_past_the_maximum_are_a_usage_error_and_never_scheduled(tmp_path):
    out = tmp_path / "t"
    r = run(*MATCH, "--games", "99999999999", "--out", out)
    assert r.exit_code == 2 and "--games" in r.output and f"1<=x<={MAX_GAMES}" in r.output, r.output
    assert not out.exists()
    setups = [Setup("duel", {}, ("x", "y"))]
    with pytest.raises(ArbiterError, match=f"from 1 to {MAX_GAMES} games, not {MAX_GAMES + 1}"):
        schedule(1, setups, ["a", "b"], MAX_GAMES + 1)  # refused before a game is built
    assert len(schedule(1, setups, ["a", "b"], MAX_GAMES - 1)) == MAX_GAMES  # rounded up to a whole block


def test_more_entrants_than_the_report_compares_are_a_usage_error_before_anything_is_written(tmp_path):
    """The report has a head-to-head row for each pair of entrants: with no game played it took
    1.5 s for 300 entrants and 17 s (and 0.8 GiB) for 1,000, yet up to 100,000 entrants were
    taken, a single deal of whom, played whatever ``--games`` says, made the most games a
    tournament may play. At most ``MAX_ENTRANTS`` (500) are taken: more are a usage error
    naming their count, the limit and why, before any folder is made (or game scheduled), and
    a tournament.json holding that many is refused. As many as the limit play one block."""
    from arbiter.engine.arena.config import check_configuration

    too_many = [Entrant(f"e{i}", "random") for i in range(MAX_ENTRANTS + 1)]
    words = ("501 entrants are too many: the report has a head-to-head row for each pair of entrants, 125250 here, "
             "past the 124750 of 500; give at most 500 entrants")
    with pytest.raises(ArbiterError) as caught:
        configuration("mafia", too_many, 1, players=6)
    assert caught.value.message == words
    with pytest.raises(ArbiterError, match="^" + words):  # refused before a game is built
        schedule(1, [Setup("duel", {}, ("x", "y"))], [e.name for e in too_many], 1)

    out = tmp_path / "t"
    entrants = [a for e in too_many for a in ("--entrant", f"{e.name}=random")]
    r = run("tournament", "mafia", "--players", "6", *entrants, "--games", "2", "--workers", "1", "--out", out)
    assert r.exit_code == 2, r.output
    assert f"Error: {words}\n" in r.output, r.output
    assert not out.exists()
    config = configuration("mafia", too_many[:MAX_ENTRANTS], 2, players=6)
    assert len(Tournament({"format": 2, **config}).games) == MAX_ENTRANTS  # as many as the limit: one block
    config["entrants"].append({"name": "e500", "spec": "random"})  # a tournament.json changed by hand
    with pytest.raises(ArbiterError, match=r'^t/tournament.json: "entrants": 501 entrants are too many: '):
        check_configuration({"format": 2, **config}, "t/tournament.json")
    assert "more (at most 500: the report compares every pair)." in " ".join(run("tournament", "--help").output.split())
    docs = " ".join((REPO / "docs" / "arena.md").read_text().split())
    assert "At most 500 entrants: the report compares every pair of them, a head-to-head row for each" in docs


def test_the_help_and_the_docs_say_the_rounding_may_pass_the_maximum_and_names_grow_a_digit():
    """``--games 100000`` with 3 entrants plays 100,002 games, past the limit the help stated
    alone, and games from 100000 on are named with six digits, which ``ls`` sorts among the
    five-digit ones. Neither changes (resumed folders and records name those files): the help
    of ``--games`` and docs/arena.md say both."""
    from arbiter.engine.arena.runner import log_name, transcript_name
    from arbiter.engine.arena.schedule import rounded_games

    assert [rounded_games(MAX_GAMES, k) for k in (2, 3, 7)] == [100_000, 100_002, 100_002]
    most = max(range(2, MAX_ENTRANTS + 1), key=lambda k: rounded_games(MAX_GAMES, k))
    assert (most, rounded_games(MAX_GAMES, most)) == (495, 100_485)  # as many entrants as a tournament may have
    assert (transcript_name(99_999), transcript_name(100_000)) == ("game-99999.yaml", "game-100000.yaml")
    assert log_name(100_001, "p1") == "game-100001.p1.stderr.log"
    text = " ".join(run("tournament", "--help").output.split())
    assert ("rounded up to whole blocks (one game per entrant for each deal), which "
            "may pass 100000 (3 entrants: 100002). Transcripts past game-99999 have six digits (ls -v sorts "
            "them).") in text
    docs = " ".join((REPO / "docs" / "arena.md").read_text().split())
    assert "`--games 100000` with 3 entrants plays 100002 games" in docs
    assert "at most 500 entrants (the most: 100485 games, with 495)" in docs
    assert "past `game-99999` they have six (`game-100000.yaml`)" in docs and "`ls -v` sorts them in order" in docs

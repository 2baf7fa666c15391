"""The Classic Mafia rules, one focused test per rule: talk by day and by night, leaving the game, and
winning.

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import GameOverError, IllegalMoveError

from tests.helpers import host, mafia_game, of_kind, play, refused, since
from tests.mafia_staging import (
    ALL,
    ALL_DECK,
    EIGHT,
    SEVEN,
    SIX,
    awaited,
    expel,
    nominate,
    quiet_day,
    vote_round,
)


# ================================================================================== talk


def test_day_talk_is_public_and_changes_no_phase():
    s = mafia_game(EIGHT)
    before = awaited(s)
    events = s.submit("p6", "say   hello   world")
    assert [(e.kind, e.data, e.to) for e in events] == [("say", {"seat": "p6", "text": "hello world"}, None)]
    assert awaited(s) == before
    assert s.moves[-1].text == "say hello world"


def test_day_talk_is_allowed_during_the_roll_call():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    events = s.submit("p7", "say vote p6!")
    assert events[0].kind == "say" and awaited(s) == [("p1", "vote")]


def test_night_talk_reaches_only_the_awake_team():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    events = s.submit("p1", "say take p6")
    assert [(e.kind, e.data, e.to) for e in events] == [
        ("team-say", {"seat": "p1", "team": "mafia", "text": "take p6"}, ("p1", "p2"))]
    s.submit("p1", "kill p6")
    events = s.submit("p5", "say arrest p8")
    assert [(e.kind, e.to) for e in events] == [("team-say", ("p4", "p5"))]


@pytest.mark.parametrize("seat, text", [
    ("p5", "say hello"),  # the Police during the Mafia step
    ("p6", "say hello"),  # a Civilian at night
    ("p3", "say hello"),  # the Seducer, whose step is over
    ("p8", "say hello"),  # the Chameleon
])
def test_night_talk_is_refused_outside_the_awake_team(seat, text):
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    refused(s, seat, text, IllegalMoveError)


def test_mafia_cannot_talk_during_the_seducer_step():
    s = mafia_game(EIGHT)
    quiet_day(s)
    refused(s, "p1", "say hello", IllegalMoveError)


def test_the_out_can_neither_talk_nor_act():
    s = mafia_game(EIGHT)
    expel(s, "p6")
    for text in ("say boo", "leave", "seduce p7", "kill p7", "pass"):
        refused(s, "p6", text, IllegalMoveError)
    assert s.state.legal_inputs("p6") == []
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p8", "p8 ban p2")
    refused(s, "p6", "say boo", IllegalMoveError)
    refused(s, "p6", "nominate p1", IllegalMoveError)
    refused(s, "p7", "pass", IllegalMoveError)  # killed in the night


# ================================================================================= leave


def test_leave_shows_the_card():
    s = mafia_game(EIGHT)
    events = s.submit("p2", "leave")
    out = of_kind(events, "out")
    assert [(e.data, e.to) for e in out] == [({"seat": "p2", "card": "mafia", "fate": "left on day 1"}, None)]
    assert s.state.view("p6")["cards"]["p2"] == "mafia"
    assert ("p2", "nominate") not in awaited(s)


def test_leave_by_night_is_public():
    s = mafia_game(EIGHT)
    quiet_day(s)
    events = s.submit("p6", "leave")
    assert [(e.data["fate"], e.to) for e in of_kind(events, "out")] == [("left on night 1", None)]
    assert s.moves[-1].text == "leave"


def test_a_leaver_nomination_is_withdrawn_and_its_nominator_nominates_again():
    s = mafia_game(EIGHT)
    s.submit("p1", "nominate p6")
    events = s.submit("p6", "leave")
    withdrawn = of_kind(events, "withdrawn")
    assert [(e.data, e.to) for e in withdrawn] == [({"nominee": "p6", "seat": "p1"}, None)]
    assert host(s)["nominations"] == {}
    assert ("p1", "nominate") in awaited(s)
    s.submit("p1", "nominate p7")
    assert host(s)["nominations"] == {"p7": "p1"}


def test_votes_for_a_leaving_candidate_count_as_abstentions():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    play(s, "p1 vote p6", "p2 vote p6", "p3 vote p7")
    events = s.submit("p6", "leave")
    assert [e.data for e in of_kind(events, "withdrawn")] == [{"nominee": "p6"}]
    assert host(s)["candidates"] == ["p7"]
    assert host(s)["votes"] == {"p1": None, "p2": None, "p3": "p7"}
    start = len(s.events)
    vote_round(s)
    verdict = of_kind(since(s, start), "verdict")[0]
    assert verdict.data == {"day": 1, "round": 1, "counts": {"p7": 1}, "expelled": "p7"}


def test_a_vote_cast_before_its_voter_leaves_stands():
    """As a night action taken before leaving stands (docs/rules/mafia.md, Leaving): the vote
    is counted, and here it decides the day (without it, a tie and a second round)."""
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    play(s, "p1 vote p6")
    s.submit("p1", "leave")
    assert host(s)["votes"]["p1"] == "p6"
    start = len(s.events)
    vote_round(s, p2="p6", p3="p7")
    verdict = of_kind(since(s, start), "verdict")[0]
    assert verdict.data == {"day": 1, "round": 1, "counts": {"p6": 2, "p7": 1}, "expelled": "p6"}


def test_when_every_candidate_leaves_the_roll_call_ends_and_nobody_is_expelled():
    """Nothing is left to vote on: the round ends at once, no voter is called to abstain."""
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    s.submit("p1", "vote p6")
    start = len(s.events)
    s.submit("p6", "leave")
    verdicts = of_kind(since(s, start), "verdict")
    assert [(e.text, e.data, e.to) for e in verdicts] == [
        ("Every candidate has left the game; nobody leaves today.", {"day": 1, "round": 1, "counts": {}}, None)]
    assert host(s)["phase"] == "night 1: seducer step"
    assert awaited(s) == [("p3", "night")]
    assert [e.data["seat"] for e in of_kind(since(s, start), "out")] == ["p6"]


def test_win_is_checked_after_a_departure():
    s = mafia_game(SIX)
    s.submit("p1", "leave")
    assert s.state.result is None
    events = s.submit("p2", "leave")
    result = s.state.result
    assert (result.winner, result.reason) == ("town", "no-mafia")
    assert result.winners == ("p3", "p4", "p5", "p6")
    assert of_kind(events, "game-over")
    assert awaited(s) == []


# =============================================================================== winning


def test_town_wins_when_no_mafia_side_player_is_alive_and_dead_town_win_too():
    s = mafia_game(SIX)
    expel(s, "p1", by="p3")
    play(s, "p3 seduce p4", "p2 kill p5", "p4 shoot p2")
    result = s.state.result
    assert (result.winner, result.reason) == ("town", "no-mafia")
    assert result.winners == ("p3", "p4", "p5", "p6")  # p5 died in the night and still wins
    assert result.scores == {"p1": "lost", "p2": "lost", "p3": "won", "p4": "won", "p5": "won", "p6": "won"}
    assert host(s)["phase"] == "game over" and awaited(s) == []


def test_mafia_wins_only_when_more_than_the_town():
    s = mafia_game(SIX)  # town 4, Mafia 2
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p5", "p4 arrest p6")  # town 3
    expel(s, "p6")  # town 2 against Mafia 2: equal is not enough
    assert s.state.result is None and host(s)["phase"] == "night 2: seducer step"
    play(s, "p3 seduce p4", "p1 kill p3", "p4 arrest p2")  # town 1 against Mafia 2
    result = s.state.result
    assert (result.winner, result.reason) == ("mafia", "mafia-majority")
    assert result.winners == ("p1", "p2")


def test_a_living_loner_wins_with_the_mafia():
    s = mafia_game(SEVEN)  # town 4, Mafia 2, the Fighter p7
    quiet_day(s)
    play(s, "p3 protect p4", "p1 kill p5", "p4 arrest p2", "p7 kill p6")  # town 2
    expel(s, "p3")  # town 1 against Mafia 2
    result = s.state.result
    assert result.winner == "mafia"
    assert result.winners == ("p1", "p2", "p7")


def test_a_living_loner_wins_with_the_town_and_a_dead_loner_loses():
    s = mafia_game(ALL, deck=ALL_DECK)
    expel(s, "p8")  # the Fighter
    play(s, "p3 seduce p6", "p1 kill p6", "p4 shoot p2", "p7 ban p1")
    expel(s, "p1", by="p3")
    result = s.state.result
    assert (result.winner, result.reason) == ("town", "no-mafia")
    assert result.winners == ("p3", "p4", "p5", "p6", "p7")
    assert result.scores["p7"] == "won" and result.scores["p8"] == "lost"
    assert "is out and loses" in result.text and "is alive and wins" in result.text


def test_only_loners_left_means_no_side_wins_and_the_living_loners_win():
    s = mafia_game(ALL, deck=ALL_DECK)
    play(s, "p2 leave", "p3 leave", "p5 leave", "p6 leave")  # left: p1 Boss, p4 Chief, two loners
    assert s.state.result is None
    quiet_day(s)
    play(s, "p1 kill p4", "p4 shoot p1", "p7 ban p8", "p8 kill p7")
    result = s.state.result
    assert (result.winner, result.reason) == (None, "no-side")
    assert result.winners == ("p8",)
    assert result.scores == {f"p{i}": ("won" if i == 8 else "lost") for i in range(1, 9)}


def test_every_card_is_shown_at_the_end():
    s = mafia_game(SIX)
    s.submit("p1", "leave")
    events = s.submit("p2", "leave")
    reveals = of_kind(events, "reveal")
    assert [(e.data, e.to) for e in reveals] == [({"seat": f"p{i}", "card": SIX[i - 1]}, None) for i in range(3, 7)]
    for seat in s.seats:
        assert s.state.view(seat)["cards"] == {f"p{i}": c for i, c in enumerate(SIX, 1)}


def test_no_input_after_the_game_is_over():
    s = mafia_game(SIX)
    play(s, "p1 leave", "p2 leave")
    with pytest.raises(GameOverError):
        s.submit("p3", "say gg")
    assert s.state.legal_inputs("p3") == []

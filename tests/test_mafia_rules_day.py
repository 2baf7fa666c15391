"""The Classic Mafia rules, one focused test per rule: the day's nominations and its roll-call vote.

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

from arbiter.engine.errors import IllegalMoveError, NotYourTurnError

from tests.helpers import host, mafia_game, of_kind, play, refused, since
from tests.mafia_staging import EIGHT, awaited, nominate, quiet_day, vote_round


# =========================================================================== nominations


def test_nomination_is_public_and_answers_that_seat():
    s = mafia_game(EIGHT)
    events = s.submit("p1", "nominate p6")
    assert [(e.kind, e.data, e.to) for e in events] == [("nominate", {"seat": "p1", "nominee": "p6"}, None)]
    assert host(s)["nominations"] == {"p6": "p1"}
    assert ("p1", "nominate") not in awaited(s) and len(awaited(s)) == 7


def test_a_seat_nominates_only_once():
    s = mafia_game(EIGHT)
    s.submit("p1", "nominate p6")
    assert refused(s, "p1", "nominate p7", IllegalMoveError) == "p1 has already nominated p6 today"
    assert refused(s, "p1", "pass", IllegalMoveError) == "p1 has already nominated p6 today"


def test_a_seat_passes_only_once():
    s = mafia_game(EIGHT)
    events = s.submit("p1", "pass")
    assert [(e.kind, e.data) for e in events] == [("pass", {"seat": "p1"})]
    assert refused(s, "p1", "pass", IllegalMoveError) == "p1 has already passed today"
    assert refused(s, "p1", "nominate p6", IllegalMoveError) == "p1 has already passed today"


def test_nobody_nominates_themselves():
    s = mafia_game(EIGHT)
    refused(s, "p3", "nominate p3", IllegalMoveError)
    assert "nominate p3" not in s.state.legal_inputs("p3")


def test_a_nominated_player_cannot_be_nominated_again():
    s = mafia_game(EIGHT)
    s.submit("p1", "nominate p6")
    refused(s, "p2", "nominate p6", IllegalMoveError)
    assert "nominate p6" not in s.state.legal_inputs("p2")
    s.submit("p2", "nominate p7")
    assert host(s)["nominations"] == {"p6": "p1", "p7": "p2"}


def test_the_out_cannot_be_nominated():
    s = mafia_game(EIGHT)
    s.submit("p8", "leave")
    refused(s, "p1", "nominate p8", IllegalMoveError)


def test_say_by_day_does_not_answer_the_nomination():
    s = mafia_game(EIGHT)
    s.submit("p1", "say I suspect p2")
    assert awaited(s)[0] == ("p1", "nominate")


def test_banned_player_may_still_nominate():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    assert host(s)["no_vote"] == "p2"
    s.submit("p2", "nominate p6")
    assert host(s)["nominations"] == {"p6": "p2"}


def test_no_nominee_means_nobody_leaves_and_night_one_falls():
    s = mafia_game(EIGHT)
    start = len(s.events)
    quiet_day(s)
    new = since(s, start)
    verdict = of_kind(new, "verdict")
    assert [(e.data, e.to) for e in verdict] == [({"day": 1}, None)]
    assert not of_kind(new, "out")
    assert host(s)["alive"] == [f"p{i}" for i in range(1, 9)]
    assert host(s)["phase"] == "night 1: seducer step"
    assert awaited(s) == [("p3", "night")]


# ============================================================================= roll-call


def test_roll_call_goes_in_seat_order():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    assert awaited(s) == [("p1", "vote")]
    refused(s, "p2", "vote p6", NotYourTurnError)
    s.submit("p1", "vote p6")
    assert awaited(s) == [("p2", "vote")]
    refused(s, "p3", "abstain", NotYourTurnError)


def test_votes_go_only_to_candidates():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    refused(s, "p1", "vote p7", IllegalMoveError)
    assert s.state.legal_inputs("p1") == ["vote p6", "abstain", "leave"]
    assert s.state.input_forms("p1") == ["say TEXT"]


def test_a_player_may_vote_for_themselves_if_nominated():
    s = mafia_game(EIGHT)
    nominate(s, p2="p1")
    events = s.submit("p1", "vote p1")
    assert events[0].data == {"seat": "p1", "vote": "p1", "round": 1}


def test_abstain_is_a_public_vote_for_nobody():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    events = s.submit("p1", "abstain")
    assert [(e.kind, e.data, e.to) for e in events] == [("vote", {"seat": "p1", "vote": None, "round": 1}, None)]
    assert host(s)["votes"] == {"p1": None}


def test_voting_twice_is_refused():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    s.submit("p1", "vote p6")
    assert refused(s, "p1", "vote p6", IllegalMoveError) == "p1 has already voted for p6 in this round"
    assert refused(s, "p1", "abstain", IllegalMoveError) == "p1 has already voted for p6 in this round"
    s.submit("p2", "abstain")
    assert refused(s, "p2", "vote p6", IllegalMoveError) == "p2 has already abstained in this round"


def test_a_unique_top_is_expelled_and_shows_the_card():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    start = len(s.events)
    vote_round(s, p1="p6", p2="p6", p3="p7", p4="p6")
    new = since(s, start)
    verdict = of_kind(new, "verdict")[0]
    assert verdict.data == {"day": 1, "round": 1, "counts": {"p6": 3, "p7": 1}, "expelled": "p6"}
    out = of_kind(new, "out")
    assert [(e.data, e.to) for e in out] == [({"seat": "p6", "card": "civilian", "fate": "expelled on day 1"}, None)]
    assert host(s)["out"] == {"p6": "expelled on day 1"}
    assert s.state.view("p7")["cards"]["p6"] == "civilian"
    assert host(s)["phase"] == "night 1: seducer step"


def test_a_tie_at_the_top_is_revoted_among_only_the_tied():
    s = mafia_game(EIGHT)
    nominate(s, p1="p5", p2="p6", p3="p7")
    start = len(s.events)
    vote_round(s, p1="p6", p2="p6", p3="p7", p4="p7", p5="p5")
    verdict = of_kind(since(s, start), "verdict")
    assert [e.data for e in verdict] == [{"day": 1, "round": 1, "counts": {"p5": 1, "p6": 2, "p7": 2},
                                          "tied": ["p6", "p7"]}]
    assert not of_kind(since(s, start), "out")
    assert (host(s)["round"], host(s)["candidates"], host(s)["votes"]) == (2, ["p6", "p7"], {})
    assert awaited(s) == [("p1", "vote")]
    refused(s, "p1", "vote p5", IllegalMoveError)
    vote_round(s, default="p7")
    assert host(s)["out"] == {"p7": "expelled on day 1"}


def test_a_tie_in_the_revote_means_nobody_leaves():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    vote_round(s, p1="p6", p2="p7")
    start = len(s.events)
    vote_round(s, p1="p6", p2="p7", p3="p6", p4="p7")
    new = since(s, start)
    assert [e.data for e in of_kind(new, "verdict")] == [{"day": 1, "round": 2, "counts": {"p6": 2, "p7": 2}}]
    assert not of_kind(new, "out")
    assert host(s)["alive"] == [f"p{i}" for i in range(1, 9)]
    assert host(s)["phase"] == "night 1: seducer step"


def test_when_every_vote_is_an_abstention_nobody_leaves():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    start = len(s.events)
    vote_round(s)
    new = since(s, start)
    assert [e.data for e in of_kind(new, "verdict")] == [{"day": 1, "round": 1, "counts": {"p6": 0}}]
    assert not of_kind(new, "out") and host(s)["out"] == {}
    assert host(s)["phase"] == "night 1: seducer step"


def test_banned_player_is_skipped_in_the_roll_call_and_may_not_vote():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    nominate(s, p1="p6")
    s.submit("p1", "abstain")
    assert awaited(s) == [("p3", "vote")]
    message = refused(s, "p2", "vote p6", IllegalMoveError)
    assert "may not vote" in message
    vote_round(s)
    assert "p2" not in host(s).get("votes", {})
    votes = [e.data["seat"] for e in of_kind(s.events, "vote")]
    assert votes == ["p1", "p3", "p4", "p5", "p6", "p8"]

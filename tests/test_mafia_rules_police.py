"""The Classic Mafia rules, one focused test per rule: the Police's nights (the Chief, the conference,
arrests).

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import IllegalMoveError, NotYourTurnError

from tests.helpers import host, mafia_game, of_kind, play, refused, since
from tests.mafia_staging import ALL, ALL_DECK, EIGHT, NINE, awaited, expel, quiet_day


# ================================================================================ Police


def test_chief_shoots_a_player():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7")
    assert awaited(s) == [("p5", "confer")]
    events = s.submit("p5", "suggest p2")
    assert [(e.kind, e.to) for e in events] == [("suggest", ("p4", "p5"))]
    events = s.submit("p4", "shoot p2")
    assert of_kind(events, "night-act")[0].to == ("p4", "p5")
    s.submit("p8", "ban p1")
    assert host(s)["out"] == {"p2": "killed in night 1", "p7": "killed in night 1"}


def test_police_cannot_shoot_or_arrest_the_police_team():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7")
    refused(s, "p4", "shoot p5", IllegalMoveError)
    refused(s, "p4", "arrest p5", IllegalMoveError)
    refused(s, "p4", "shoot p4", IllegalMoveError)
    refused(s, "p5", "suggest p4", IllegalMoveError)
    refused(s, "p4", "kill p6", IllegalMoveError)  # not the Police's power


def test_a_night_input_stays_secret_once_it_has_brought_the_morning():
    """What others may know of an input is judged as it is accepted, not from a later state."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p6")
    s.submit("p8", "ban p2")  # the night's last action: the morning and day 2 follow at once
    assert host(s)["phase"] == "day 2: nominations"
    assert s.moves[-1].public is None
    assert s.state.public_input("p8", "ban p2") is None
    s.submit("p1", "pass")
    assert s.moves[-1].public == "pass"
    with pytest.raises(ValueError):
        s.state.public_input("p8", "ban p2")  # no longer the input just accepted: no stale answer


def test_the_chief_may_pass_and_the_police_hear_it():
    """The source says the Chief "may" shoot or arrest: the head's pass ends the conference at
    once, is heard by the awake Police only, and is secret to everyone else."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7")
    assert awaited(s) == [("p5", "confer")]
    assert "pass" in s.state.legal_inputs("p4")
    events = s.submit("p4", "pass")  # before p5 has conferred: the head may act sooner
    act = of_kind(events, "night-act")
    assert [(e.text, e.data, e.to) for e in act] == [
        ("Night 1: p4 passes; the Police do nothing tonight.", {"step": "police", "seat": "p4", "verb": "pass"},
         ("p4", "p5"))]
    assert s.moves[-1].public is None
    for other in ("p1", "p3", "p6", "p8"):
        assert not [e for e in events if e.visible_to(other) and "pass" in e.text], other
    assert awaited(s) == [("p8", "night")]
    s.submit("p8", "ban p2")
    assert host(s)["out"] == {"p7": "killed in night 1"} and host(s)["jailed"] is None
    assert host(s)["arrested"] == []


def test_the_chief_may_pass_after_the_conference():
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p6", "p5 suggest p1")
    assert awaited(s) == [("p4", "night")]
    assert s.state.legal_inputs("p4")[-2:] == ["pass", "leave"]
    play(s, "p4 pass", "p7 ban p1", "p8 pass")
    assert host(s)["night_acts"]["police"] == ["p4", "pass", None]


def test_a_player_is_arrested_only_once_per_game():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    assert host(s)["arrested"] == ["p6"]
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p8")
    refused(s, "p4", "arrest p6", IllegalMoveError)
    legal = s.state.legal_inputs("p4")
    assert "arrest p6" not in legal and "shoot p6" in legal and "arrest p3" in legal
    play(s, "p4 shoot p6", "p8 ban p2")
    assert host(s)["arrested"] == ["p6"]
    assert "p6" in host(s)["out"]


def test_arrested_seducer_is_called_only_to_pass_and_seduces_nobody():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p3", "p8 ban p2")
    quiet_day(s)
    night2 = [e for e in s.events if e.kind == "narration" and e.data == {"night": 2}][0].index
    assert awaited(s) == [("p3", "night")]
    arrested = of_kind(since(s, night2), "arrested")
    assert [(e.to, e.data) for e in arrested] == [(("p3",), {"night": 2})]
    assert s.state.legal_inputs("p3") == ["pass", "leave"]
    refused(s, "p3", "seduce p6", IllegalMoveError)
    events = s.submit("p3", "pass")
    assert [(e.kind, e.text, e.data, e.to) for e in of_kind(events, "night-act")] == [
        ("night-act", "Night 2: you are under arrest and do nothing.", {"step": "seducer", "verb": "pass"}, ("p3",))]
    play(s, "p1 kill p6", "p4 arrest p8", "p8 ban p2")
    assert host(s)["out"]["p6"] == "killed in night 2"
    assert of_kind(s.events, "night-summary")[-1].data["saved"] == []


def test_arrest_is_not_announced():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p3", "p8 ban p2")
    quiet_day(s)
    seen = [e for e in since(s, start) if e.visible_to("p6") and "arrest" in e.text.lower()]
    assert [e.text for e in seen] == ["The Police wake; the Chief shoots or arrests."]
    assert "jailed" not in s.state.view("p6") and "under_arrest" not in s.state.view("p6")
    assert s.state.view("p3")["under_arrest"] is True


def test_arrest_affects_only_the_next_night():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p3", "p8 ban p2")
    quiet_day(s)
    play(s, "p3 pass", "p1 kill p6", "p4 arrest p8", "p8 ban p2")
    quiet_day(s)
    night3 = len(s.events)
    assert awaited(s) == [("p3", "night")]
    assert "seduce p4" in s.state.legal_inputs("p3")
    s.submit("p3", "seduce p4")
    assert host(s)["night_acts"]["seducer"] == ["p3", "seduce", "p4"]
    assert not of_kind(since(s, night3), "arrested")


def test_arrested_boss_hands_the_kill_to_the_next_mafia():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p2", "night")]
    refused(s, "p1", "kill p6", NotYourTurnError)
    refused(s, "p1", "say wait for me", IllegalMoveError)
    events = s.submit("p2", "say I am alone tonight")
    assert [(e.kind, e.to) for e in events] == [("team-say", ("p2",))]
    s.submit("p2", "kill p6")
    assert host(s)["night_acts"]["mafia"] == ["p2", "kill", "p6"]


def test_an_arrested_member_is_told_its_arrest_is_why_once_it_knows_of_it():
    """Its team's step called, an arrested member was refused as having "no team to confer
    with" or as "not awake": the arrest is the reason, which it was just told. Before the step
    it has not been told, and the refusal says no more than to anyone else."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    assert refused(s, "p1", "kill p6", NotYourTurnError) == "p1 is not awake to kill now (night 2)"
    assert refused(s, "p1", "suggest p6", NotYourTurnError) == "p1 has no team to confer with now (night 2)"
    s.submit("p3", "seduce p4")
    told = "p1 is under arrest tonight: it sits out the Mafia's conference and acts for nobody"
    for line in ("kill p6", "suggest p6", "pass"):
        assert refused(s, "p1", line, NotYourTurnError) == told
    assert refused(s, "p5", "kill p6", NotYourTurnError) == "p5 is not awake to kill now (night 2)"


def test_arrested_boss_learns_privately_of_the_arrest_at_the_mafia_step():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    start = len(s.events)
    s.submit("p3", "seduce p4")
    arrested = of_kind(since(s, start), "arrested")
    assert [(e.to, e.data) for e in arrested] == [(("p1",), {"night": 2})]


def test_arrested_boss_does_not_see_the_team_suggestions():
    s = mafia_game(NINE)
    quiet_day(s)
    play(s, "p4 protect p7", "p1 kill p8", "p5 arrest p1", "p9 pass")
    quiet_day(s)
    s.submit("p4", "protect p7")
    assert awaited(s) == [("p3", "confer")]
    events = s.submit("p3", "suggest p7")
    assert events[0].to == ("p2", "p3")  # the event stream already keeps it from p1
    assert "p7" not in str(s.state.view("p1").get("suggestions", {}))


def test_arrested_lone_boss_may_only_pass_and_the_mafia_kill_nobody():
    s = mafia_game(EIGHT)
    expel(s, "p2")
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p1", "p8 ban p6")
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p1", "night")]
    assert s.state.legal_inputs("p1") == ["pass", "leave"]
    refused(s, "p1", "kill p6", IllegalMoveError)
    # awaited to pass, not "sitting out" a conference of nobody (nor not-your-turn)
    assert refused(s, "p1", "suggest p6", IllegalMoveError) == "p1 is under arrest tonight: its night action is skipped (pass)"
    refused(s, "p1", "say hello", IllegalMoveError)
    start = len(s.events)
    play(s, "p1 pass", "p4 arrest p6", "p8 ban p6")
    assert host(s)["out"] == {"p2": "expelled on day 1", "p7": "killed in night 1"}
    assert [e.data for e in of_kind(since(s, start), "morning")] == [{"night": 2, "killed": []}, {"no_vote": "p6"}]


def test_arrested_chameleon_bans_nobody_the_next_day():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p8", "p8 ban p2")  # p8 still acts tonight
    assert host(s)["no_vote"] == "p2"
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p5", "p4 arrest p3")
    assert awaited(s) == [("p8", "night")]
    assert s.state.legal_inputs("p8") == ["pass", "leave"]
    refused(s, "p8", "ban p1", IllegalMoveError)
    events = s.submit("p8", "pass")
    assert host(s)["phase"] == "day 3: nominations" and host(s)["no_vote"] is None
    assert not [e for e in events if "no_vote" in e.data]


def test_arrested_boss_acts_again_the_night_after():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    play(s, "p3 seduce p4", "p2 kill p6", "p4 arrest p8", "p8 ban p2")
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p2", "confer")]


def test_without_the_chief_the_first_living_police_acts():
    s = mafia_game(EIGHT)
    expel(s, "p4")
    play(s, "p3 seduce p6", "p1 kill p7")
    assert awaited(s) == [("p5", "night")]
    s.submit("p5", "arrest p8")
    assert host(s)["night_acts"]["police"] == ["p5", "arrest", "p8"]

"""The Classic Mafia rules, one focused test per rule: the Chameleon's and the Fighter's nights, deaths
at dawn, and the order the night calls its steps in.

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

from arbiter.engine.errors import IllegalMoveError

from tests.helpers import host, mafia_game, of_kind, play, refused, since
from tests.mafia_staging import (
    ALL,
    ALL_AGENT,
    ALL_AGENT_DECK,
    ALL_DECK,
    EIGHT,
    SEVEN,
    awaited,
    expel,
    night_steps,
    nominate,
    quiet_day,
)


# ============================================================================= Chameleon


def test_chameleon_cannot_ban_themselves():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6")
    assert awaited(s) == [("p8", "night")]
    refused(s, "p8", "ban p8", IllegalMoveError)
    refused(s, "p8", "pass", IllegalMoveError)


def test_morning_announces_who_may_not_vote_today():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    ban = [e for e in since(s, start) if e.kind == "morning" and "no_vote" in e.data]
    assert [(e.data, e.to) for e in ban] == [({"no_vote": "p2"}, None)]
    assert "p2 may not vote today" in ban[0].text
    assert s.state.view("p6")["no_vote"] == "p2"


def test_ban_lasts_one_day():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p6", "p4 arrest p8", "p8 ban p1")
    assert host(s)["no_vote"] == "p1"
    nominate(s, p3="p8")
    assert awaited(s) == [("p2", "vote")]  # p1 banned today, p2 votes again


def test_ban_of_a_player_killed_that_night_is_not_announced():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p6", "p8 ban p7")
    assert not [e for e in since(s, start) if "no_vote" in e.data]
    assert host(s)["no_vote"] is None


# =============================================================================== Fighter


def test_fighter_may_pass():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    assert awaited(s) == [("p7", "night")]
    assert s.state.legal_inputs("p7")[-2:] == ["pass", "leave"]
    events = s.submit("p7", "pass")
    assert [(e.text, e.to) for e in of_kind(events, "night-act")] == [("Night 1: you do nothing.", ("p7",))]
    assert host(s)["out"] == {"p6": "killed in night 1"}


def test_fighter_kill_happens_at_dawn():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    events = s.submit("p7", "kill p1")
    act = of_kind(events, "night-act")[0]
    assert act.data == {"step": "fighter", "seat": "p7", "verb": "kill", "target": "p1"} and act.to == ("p7",)
    outs = of_kind(events, "out")
    assert [e.data["seat"] for e in outs] == ["p1", "p6"]
    assert all(e.data["fate"] == "killed in night 1" for e in outs)
    assert host(s)["phase"] == "day 2: nominations"


def test_fighter_cannot_kill_themselves():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    refused(s, "p7", "kill p7", IllegalMoveError)


# ========================================================================= deaths at dawn


def test_fighter_killed_by_the_mafia_still_acts_that_night():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6")
    assert "p7" in host(s)["alive"]
    assert awaited(s) == [("p7", "night")]
    events = s.submit("p7", "kill p5")
    assert [e.data["seat"] for e in of_kind(events, "out")] == ["p5", "p7"]
    assert host(s)["alive"] == ["p1", "p2", "p3", "p4", "p6"]


def test_chief_killed_by_the_mafia_still_shoots_that_night():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p4")
    assert awaited(s) == [("p5", "confer")]
    play(s, "p4 shoot p2", "p8 ban p1")
    assert host(s)["out"] == {"p2": "killed in night 1", "p4": "killed in night 1"}


# ============================================================================ night order


def test_night_steps_are_called_in_order_seducer_mafia_police_chameleon_fighter():
    s = mafia_game(ALL, deck=ALL_DECK)
    start = len(s.events)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p5", "p4 arrest p7", "p7 ban p1", "p8 pass")
    new = since(s, start)
    assert night_steps(new) == ["seducer", "mafia", "police", "chameleon", "fighter"]
    assert all(e.to is None for e in new if e.kind == "narration")


def test_night_steps_are_called_in_order_agent_mafia_police_chameleon_fighter():
    s = mafia_game(ALL_AGENT, deck=ALL_AGENT_DECK)
    start = len(s.events)
    quiet_day(s)
    play(s, "p3 protect p6", "p1 kill p5", "p4 arrest p7", "p7 ban p1", "p8 pass")
    assert night_steps(since(s, start)) == ["agent", "mafia", "police", "chameleon", "fighter"]


def test_steps_whose_holders_are_all_out_are_skipped():
    s = mafia_game(SEVEN)
    start = len(s.events)
    expel(s, "p7")  # the Fighter
    play(s, "p3 protect p5", "p1 kill p4", "p4 arrest p6")
    assert night_steps(since(s, start)) == ["agent", "mafia", "police"]
    start = len(s.events)
    quiet_day(s)  # the Chief died in night 1
    play(s, "p3 protect p5", "p1 kill p5")
    assert night_steps(since(s, start)) == ["agent", "mafia"]
    assert host(s)["phase"] == "day 3: nominations"


def test_a_step_whose_holder_leaves_during_the_night_is_skipped():
    s = mafia_game(SEVEN)
    start = len(s.events)
    quiet_day(s)
    play(s, "p7 leave", "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    assert night_steps(since(s, start)) == ["agent", "mafia", "police"]
    assert host(s)["phase"] == "day 2: nominations"


def test_a_night_action_taken_before_its_holder_leaves_stands():
    """docs/rules/mafia.md, Leaving: the Seducer seduced, then left; its guest is still saved
    from the Mafia's kill that night."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p3 leave", "p1 kill p6", "p5 pass", "p4 pass", "p8 ban p2")
    assert host(s)["out"] == {"p3": "left on night 1"} and host(s)["phase"] == "day 2: nominations"


def test_boss_leaving_during_the_mafia_step_hands_the_kill_on():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    s.submit("p1", "leave")
    assert awaited(s) == [("p2", "night")]

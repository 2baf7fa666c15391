"""The Classic Mafia rules, one focused test per rule: the Agent's, the Seducer's and the Mafia's
nights.

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import IllegalMoveError, NotYourTurnError

from tests.helpers import host, mafia_game, of_kind, play, refused, since
from tests.mafia_staging import (
    ALL,
    ALL_DECK,
    EIGHT,
    NINE,
    SEVEN,
    awaited,
    expel,
    nominate,
    public,
    quiet_day,
    vote_round,
)


# ================================================================================= Agent


def test_agent_cannot_protect_themselves():
    s = mafia_game(SEVEN)
    quiet_day(s)
    assert awaited(s) == [("p3", "night")]
    refused(s, "p3", "protect p3", IllegalMoveError)
    assert "protect p3" not in s.state.legal_inputs("p3")


def test_agent_may_pass():
    """The source says the Agent "may" choose: it may decline, secretly."""
    s = mafia_game(SEVEN)
    quiet_day(s)
    assert awaited(s) == [("p3", "night")]
    assert s.state.legal_inputs("p3")[-2:] == ["pass", "leave"]
    events = s.submit("p3", "pass")
    act = of_kind(events, "night-act")
    assert [(e.text, e.data, e.to) for e in act] == [
        ("Night 1: you do nothing.", {"step": "agent", "verb": "pass"}, ("p3",))]
    assert s.moves[-1].public is None  # secret, down to who sent it
    assert awaited(s) == [("p2", "confer")]
    play(s, "p1 kill p7", "p4 arrest p6", "p7 pass")
    assert host(s)["shielded"] is None
    expel(s, "p5")
    assert "p5" in host(s)["out"]


def test_protected_player_topping_the_vote_stays():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    start = len(s.events)
    expel(s, "p5")
    new = since(s, start)
    verdict = of_kind(new, "verdict")[0]
    assert verdict.data == {"day": 2, "round": 1, "counts": {"p5": 5}, "protected": "p5"}
    assert "protection holds" in verdict.text and "p3" not in verdict.text
    assert not of_kind(new, "out")
    assert "p5" in host(s)["alive"] and host(s)["phase"] == "night 2: agent step"


def test_protection_is_not_announced_in_the_morning():
    s = mafia_game(SEVEN)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    assert not any("p5" in e.text for e in public(since(s, start)))


def test_protection_lasts_only_the_next_day():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    quiet_day(s)  # day 2: p5 protected, unused
    play(s, "p3 protect p4", "p1 kill p6", "p4 arrest p5")
    start = len(s.events)
    expel(s, "p5")
    verdict = of_kind(since(s, start), "verdict")[0]
    assert verdict.data == {"day": 3, "round": 1, "counts": {"p5": 4}, "expelled": "p5"}
    assert "p5" in host(s)["out"]


def test_a_protected_player_tied_at_the_top_goes_to_the_revote():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    nominate(s, p1="p5", p2="p6")
    vote_round(s, p1="p5", p2="p6")
    assert host(s)["candidates"] == ["p5", "p6"] and host(s)["round"] == 2


def test_a_protected_player_topping_the_revote_stays():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    nominate(s, p1="p5", p2="p6")
    vote_round(s, p1="p5", p2="p6")
    start = len(s.events)
    vote_round(s, default="p5")
    verdict = of_kind(since(s, start), "verdict")[0]
    assert verdict.data == {"day": 2, "round": 2, "counts": {"p5": 6, "p6": 0}, "protected": "p5"}
    assert not of_kind(since(s, start), "out") and "p5" in host(s)["alive"]


# =============================================================================== Seducer


def test_seducer_cannot_seduce_themselves():
    s = mafia_game(EIGHT)
    quiet_day(s)
    refused(s, "p3", "seduce p3", IllegalMoveError)
    assert "seduce p3" not in s.state.legal_inputs("p3")


@pytest.mark.parametrize("attack", [
    ("p1 kill p6", "p4 arrest p7", "p8 pass"),   # the Mafia
    ("p1 kill p5", "p4 shoot p6", "p8 pass"),    # the Police
    ("p1 kill p5", "p4 arrest p2", "p8 kill p6"),  # the Fighter
    ("p1 kill p6", "p4 shoot p6", "p8 kill p6"),  # all three at once
], ids=["mafia", "police", "fighter", "all"])
def test_seduced_player_survives_every_attack_that_night(attack):
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    s.submit("p3", "seduce p6")
    mafia, police, fighter = attack
    play(s, mafia, police, "p7 ban p1", fighter)
    assert "p6" in host(s)["alive"]
    summary = of_kind(s.events, "night-summary")[-1]
    assert summary.to == () and summary.data["saved"] == ["p6"]


def test_seducer_protection_is_not_announced():
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p6", "p1 kill p6", "p4 shoot p6", "p7 ban p1", "p8 kill p6")
    new = since(s, start)
    morning = of_kind(new, "morning")
    assert [(e.data, e.to) for e in morning] == [({"night": 1, "killed": []}, None),
                                                 ({"no_vote": "p1"}, None)]
    assert morning[0].text == "Nobody died in the night."
    mentions = [e for e in new if "saved" in e.text or "Seducer" in e.text or e.data.get("saved")]
    assert [(e.kind, e.to) for e in mentions] == [("night-summary", ())]
    assert not any(e.visible_to(seat) for e in mentions for seat in s.seats)


def test_seducer_saves_only_the_guest():
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p6", "p4 arrest p7", "p7 ban p1", "p8 kill p5")
    assert host(s)["out"] == {"p5": "killed in night 1"}


# ================================================================================= Mafia


def test_only_the_boss_names_the_victim_and_mafia_confer():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p2", "confer")]
    refused(s, "p2", "kill p6", NotYourTurnError)
    events = s.submit("p2", "suggest p6")
    assert [(e.kind, e.data, e.to) for e in events] == [("suggest", {"seat": "p2", "target": "p6"}, ("p1", "p2"))]
    assert awaited(s) == [("p1", "night")]
    refused(s, "p2", "suggest p7", IllegalMoveError)
    events = s.submit("p1", "kill p7")
    act = of_kind(events, "night-act")[0]
    assert act.data == {"step": "mafia", "seat": "p1", "verb": "kill", "target": "p7"} and act.to == ("p1", "p2")
    assert host(s)["night_acts"]["mafia"] == ["p1", "kill", "p7"]


def test_a_team_member_using_the_power_is_told_who_acts_for_the_team():
    """An awake member is not told it is asleep: it hears who acts for its team; a seat outside
    the team hears only that it is not awake, whoever holds the step; the head, that it acts
    rather than suggests."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    why = refused(s, "p2", "kill p6", NotYourTurnError)
    assert why == "p1 acts for the Mafia tonight, not p2: suggest a target or pass"
    s.submit("p2", "suggest p6")
    why = refused(s, "p2", "pass", NotYourTurnError)
    assert why == "p1 acts for the Mafia tonight, not p2: p2 has already made its suggestion"
    assert refused(s, "p6", "kill p7", NotYourTurnError) == "p6 is not awake to kill now (night 1)"
    why = refused(s, "p1", "suggest p7", NotYourTurnError)
    assert why == "p1 acts for the Mafia tonight and does not suggest: kill SEAT"


def test_mafia_member_may_pass_the_suggestion():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    events = s.submit("p2", "pass")
    assert [(e.kind, e.data, e.to) for e in events] == [("suggest", {"seat": "p2", "target": None}, ("p1", "p2"))]


def test_boss_kill_ends_the_step_before_any_suggestion():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    s.submit("p1", "kill p6")
    assert host(s)["phase"] == "night 1: police step"
    assert awaited(s) == [("p5", "confer")]
    refused(s, "p2", "suggest p7", NotYourTurnError)
    refused(s, "p2", "say too late", IllegalMoveError)


def test_without_the_boss_the_first_living_mafia_in_seat_order_kills():
    s = mafia_game(NINE)
    expel(s, "p1", by="p4")
    s.submit("p4", "protect p7")
    assert awaited(s) == [("p3", "confer")]
    refused(s, "p3", "kill p7", NotYourTurnError)
    s.submit("p2", "kill p7")
    assert host(s)["night_acts"]["mafia"] == ["p2", "kill", "p7"]


def test_a_member_who_became_the_head_after_suggesting_is_told_it_acts_now():
    """The Boss left after p2 suggested: p2 now names the victim, and a second suggestion was
    refused as "already made a suggestion" where what it may do is act."""
    s = mafia_game(NINE)
    quiet_day(s)
    play(s, "p4 protect p7", "p2 suggest p7", "p1 leave")
    assert refused(s, "p2", "suggest p8", NotYourTurnError) == \
        "p2 acts for the Mafia tonight and does not suggest: kill SEAT"
    assert refused(s, "p3", "kill p8", NotYourTurnError).startswith("p2 acts for the Mafia tonight, not p3")


def test_mafia_cannot_kill_a_mafia_side_player_or_themselves():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    refused(s, "p1", "kill p2", IllegalMoveError)
    refused(s, "p1", "kill p1", IllegalMoveError)
    refused(s, "p2", "suggest p1", IllegalMoveError)
    refused(s, "p2", "suggest p2", IllegalMoveError)
    assert not {"kill p1", "kill p2"} & set(s.state.legal_inputs("p1"))


def test_the_mafia_step_cannot_be_passed_by_its_head():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    refused(s, "p1", "pass", IllegalMoveError)


def test_mafia_kill_happens_at_dawn_with_the_card_shown():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p4", "p1 kill p6", "p4 arrest p7", "p8 ban p2")
    new = since(s, start)
    out = of_kind(new, "out")
    assert [(e.data, e.to) for e in out] == [({"seat": "p6", "card": "civilian", "fate": "killed in night 1"}, None)]
    morning = [e for e in new if e.kind == "narration" and e.data == {"day": 2}]
    assert new.index(morning[0]) < new.index(out[0])

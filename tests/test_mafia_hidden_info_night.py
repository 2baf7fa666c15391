"""Hidden information in Classic Mafia: twins with the same deal whose night roles choose
otherwise, to the same public morning.

The method (twin games that differ only in what the seat may not know, compared after
every input) and the twins themselves: ``tests/mafia_twins.py``.
"""

from __future__ import annotations

import json
import re

import pytest

from arbiter.engine.game import SECRET_SEAT

from tests.helpers import mafia_game
from tests.mafia_twins import CARDS12, CARDS7, CARDS8, EIGHT, swapped, team_of, Twin, word


# ------------------------------------------------------------------- night choices (same deal)
def night_twin(cards: list[str], watchers: list[str], script_a: list[str], script_b: list[str],
               after: list[str]) -> list[Twin]:
    """Play the same deal twice: ``script_a`` / ``script_b`` (paired line by line) then
    ``after`` (the same public inputs in both), watched by every seat of ``watchers``."""
    assert len(script_a) == len(script_b)
    twins = []
    for seat in watchers:
        tw = Twin(mafia_game(cards), mafia_game(cards), seat, secret=set())
        for la, lb in zip(script_a, script_b):
            tw.step(la, lb)
        for line in after:
            if line == "*pass":
                tw.everyone("pass")
            elif line.startswith("*vote "):
                target = line.split()[1]
                tw.roll_call(lambda voter, t=target: t)
            else:
                tw.step(line)
        assert tw.stopped is None
        twins.append(tw)
    return twins


DAY_PASS = ["*pass"]
def test_mafia_talk_and_suggestions_never_reach_other_seats() -> None:
    a_night = ["p3 seduce p4", "p2 say let us take p6 tonight", "p2 suggest p6", "p1 say fine", "p1 kill p7",
               "p4 arrest p8", "p8 ban p3"]
    b_night = ["p3 seduce p4", "p2 say no, p7 is the danger", "p2 suggest p4", "p1 say hmm, p4 then?", "p1 kill p7",
               "p4 arrest p8", "p8 ban p3"]
    after = ["p6 say who did it?", "p6 nominate p1", "*pass", "*vote p1"]
    watchers = [s for s in EIGHT if s not in ("p1", "p2")]
    twins = night_twin(CARDS8, watchers, ["p1 pass", "p2 pass", "p3 pass", "p4 pass", "p5 pass", "p6 pass", "p7 pass",
                                           "p8 pass"] + a_night,
                       ["p1 pass", "p2 pass", "p3 pass", "p4 pass", "p5 pass", "p6 pass", "p7 pass", "p8 pass"] + b_night,
                       after)
    assert all(tw.compared >= 20 for tw in twins)
    s = twins[0].a
    assert not s.state.alive["p1"] and not s.state.alive["p7"]  # p7 killed, p1 expelled: all public
    talk = [e for e in s.events if e.kind in ("team-say", "suggest") or (e.kind == "night-act" and e.data["step"] == "mafia")]
    assert len(talk) == 4
    for e in talk:
        assert e.to is not None and set(e.to) <= {"p1", "p2"}, e
        for seat in watchers:
            assert not e.visible_to(seat)


def test_the_mafia_kill_choice_is_hidden_when_the_seducer_saves_the_victim() -> None:
    pass_all = [f"{s} pass" for s in EIGHT]
    a = pass_all + ["p3 seduce p6", "p2 suggest p6", "p1 kill p6", "p4 shoot p8", "p8 ban p3"]
    b = pass_all + ["p3 seduce p7", "p2 suggest p7", "p1 kill p7", "p4 shoot p8", "p8 ban p3"]
    twins = night_twin(CARDS8, ["p4", "p5", "p6", "p7"], a, b, ["*pass", "p3 seduce p5", "p1 kill p4"])
    s = twins[0].a
    assert s.state.alive["p6"] and s.state.alive["p7"] and not s.state.alive["p8"]
    saved = [e for e in s.events if e.kind == "night-summary" and e.data["saved"]]
    assert saved and saved[0].data["saved"] == ["p6"] and saved[0].to == ()


def test_police_conference_and_arrest_stay_with_the_police() -> None:
    pass_all = [f"{s} pass" for s in EIGHT]
    a = pass_all + ["p3 seduce p1", "p1 kill p6", "p5 say arrest p1?", "p5 suggest p1", "p4 say yes", "p4 arrest p1",
                    "p8 ban p3"]
    b = pass_all + ["p3 seduce p1", "p1 kill p6", "p5 say what about p2", "p5 suggest p2", "p4 say no", "p4 arrest p2",
                    "p8 ban p3"]
    # night 2: in A the Boss (p1) is under arrest and p2 kills; in B p2 is, and the Boss kills
    a2 = ["p3 seduce p4", "p2 kill p7", "p4 shoot p8", "p8 ban p3"]
    b2 = ["p3 seduce p4", "p1 kill p7", "p4 shoot p8", "p8 ban p3"]
    watchers = ["p3", "p6", "p7", "p8"]
    for seat in watchers:
        tw = Twin(mafia_game(CARDS8), mafia_game(CARDS8), seat, secret=set())
        for la, lb in zip(a, b):
            tw.step(la, lb)
        if tw.stopped is None and tw.a.state.alive[seat]:
            tw.everyone("pass")
            for la, lb in zip(a2, b2):
                tw.step(la, lb)
        assert tw.stopped is None and tw.compared >= 15
    s = tw.a
    assert s.state.day == 3 and not s.state.alive["p7"] and not s.state.alive["p8"]
    police = {"p4", "p5"}
    for e in s.events:
        if e.kind in ("team-say", "suggest") or (e.kind == "night-act" and e.data.get("step") == "police"):
            assert e.to is not None and set(e.to) <= police, e
        if e.to is None:
            assert e.kind not in ("night-act", "arrested", "night-summary"), e
            assert "arrest" not in json.dumps(e.data), e
            assert not re.search(r"arrest(ed)? p\d+|under arrest", e.text), e
    for seat in ("p3", "p6", "p7", "p8"):  # not even the words reach the others
        for e in s.events.visible_to(seat):
            assert "arrest p" not in e.text and "suggests" not in e.text and "(to the Police)" not in e.text, e


def test_an_arrested_mafia_member_neither_hears_nor_sees_the_team_that_night() -> None:
    """10 players, p1 Boss, p2 p3 Mafia: the Police arrest p2 in night 1. In night 2 the team
    confers without p2; p2's sessions are identical whatever p1 and p3 say and suggest."""
    cards = ["boss", "mafia", "mafia", "seducer", "chief", "police", "civilian", "civilian", "civilian", "chameleon"]
    ten = [f"p{i}" for i in range(1, 11)]
    pre = [f"{x} pass" for x in ten] + ["p4 seduce p7", "p1 kill p7", "p5 arrest p2", "p10 ban p4"]
    pre += [f"{x} pass" for x in ten] + ["p4 seduce p8"]
    a = pre + ["p3 say p9 is the Police", "p3 suggest p9", "p1 say no, p6", "p1 kill p6"]
    b = pre + ["p3 say let us wait", "p3 suggest p8", "p1 say fine", "p1 kill p6"]
    tw = Twin(mafia_game(cards), mafia_game(cards), "p2", secret=set())
    for i, (la, lb) in enumerate(zip(a, b)):
        if i == len(pre):
            st = tw.a.state
            assert st.jailed == "p2" and st.step().name == "mafia" and st.awake_team("mafia") == ["p1", "p3"]
            assert [x.seat for x in st.awaiting_seen_by("p2")] == [SECRET_SEAT]
            assert "suggestions" not in st.view("p2") and "suggestions:" not in tw.a.render("p2")
        tw.step(la, lb)
    assert tw.stopped is None and tw.compared > len(a)
    told = [e for e in tw.a.events.visible_to("p2") if e.kind == "arrested"]
    assert len(told) == 1 and told[0].data["night"] == 2  # told at its team's call, privately


def test_the_police_shot_stays_with_the_police_when_the_morning_is_the_same() -> None:
    """The Mafia and the Police hit p6 and p7, in one order or the other: the same two deaths."""
    pass_all = [f"{s} pass" for s in EIGHT]
    a = pass_all + ["p3 seduce p4", "p2 suggest p6", "p1 kill p6", "p5 suggest p7", "p4 shoot p7", "p8 ban p3"]
    b = pass_all + ["p3 seduce p4", "p2 suggest p7", "p1 kill p7", "p5 suggest p6", "p4 shoot p6", "p8 ban p3"]
    twins = night_twin(CARDS8, ["p3", "p6", "p7", "p8"], a, b, ["*pass", "p3 seduce p5"])
    s = twins[0].a
    assert not s.state.alive["p6"] and not s.state.alive["p7"] and s.state.night == 2
    assert all(tw.compared >= 20 for tw in twins)


@pytest.mark.parametrize("role", ["seducer", "agent", "chameleon", "fighter", "fighter-target"])
def test_the_night_choices_of_loners_and_leaders_stay_private(role: str) -> None:
    """A twin where the role chose another target, leading to the same public morning."""
    if role == "seducer":  # the Mafia's victim is not the Seducer's guest in either twin
        cards, actor = CARDS8, "p3"
        pre = [f"{s} pass" for s in EIGHT]
        a = pre + ["p3 seduce p6", "p1 kill p5", "p4 arrest p7", "p8 ban p2"]
        b = pre + ["p3 seduce p7", "p1 kill p5", "p4 arrest p7", "p8 ban p2"]
    elif role == "agent":  # the protected player does not top tomorrow's vote in either twin
        cards, actor = CARDS7, "p3"
        pre = [f"p{i} pass" for i in range(1, 8)]
        a = pre + ["p3 protect p5", "p1 kill p7", "p4 arrest p2"]
        b = pre + ["p3 protect p6", "p1 kill p7", "p4 arrest p2"]
    elif role == "chameleon":  # both banned players die tonight: no ban is announced
        cards, actor = CARDS8, "p8"
        pre = [f"{s} pass" for s in EIGHT]
        a = pre + ["p3 seduce p2", "p1 kill p6", "p4 shoot p7", "p8 ban p6"]
        b = pre + ["p3 seduce p2", "p1 kill p6", "p4 shoot p7", "p8 ban p7"]
    elif role == "fighter":  # the Fighter kills the Mafia's victim, or passes
        cards, actor = CARDS7, "p7"
        pre = [f"p{i} pass" for i in range(1, 8)]
        a = pre + ["p3 protect p4", "p1 kill p5", "p4 arrest p2", "p7 kill p5"]
        b = pre + ["p3 protect p4", "p1 kill p5", "p4 arrest p2", "p7 pass"]
    else:  # the Fighter and the Police shoot the same two players in the other order
        cards, actor = CARDS12, "p12"
        pre = [f"p{i} pass" for i in range(1, 13)]
        a = pre + ["p5 seduce p6", "p1 kill p5", "p6 shoot p9", "p12 kill p10"]
        b = pre + ["p5 seduce p6", "p1 kill p5", "p6 shoot p10", "p12 kill p9"]
    seats = [f"p{i}" for i in range(1, len(cards) + 1)]
    watchers = [s for s in seats if s != actor and not (role == "fighter-target" and team_of(cards[int(s[1:]) - 1]) == "police")]
    twins = night_twin(cards, watchers, a, b, ["*pass"])
    s = twins[0].a
    assert s.state.day == 2
    acts = [e for e in s.events if e.kind == "night-act" and e.data.get("step") in ("seducer", "agent", "chameleon", "fighter")]
    assert acts
    for e in acts:  # each goes to the one seat that acted
        assert e.to is not None and len(e.to) == 1 and s.state.card[e.to[0]] == e.data["step"], e
        assert e.data.get("seat", e.to[0]) == e.to[0], e
    for tw in twins:
        assert tw.compared >= len(a) + 1
    if role == "agent":  # the protection shows only when it holds, and never who gave it
        tw = Twin(mafia_game(CARDS7), mafia_game(swapped(CARDS7, "p3", "p6")), "p5", sigma={"p3": "p6", "p6": "p3"})
        tw.play(*pre, "p3 protect p2", "p1 kill p7", "p4 arrest p1", "p7 pass", "p5 nominate p2")
        tw.everyone("pass")
        tw.roll_call(lambda voter: "p2")
        assert tw.stopped is None
        verdict = [e for e in tw.a.events if e.kind == "verdict"][-1]
        assert verdict.data.get("protected") == "p2" and "protection holds" in verdict.text
        assert not word("p3").search(verdict.text) and "p3" not in json.dumps(verdict.data)

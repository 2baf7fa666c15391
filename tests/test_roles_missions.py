"""Hidden Roles: every predicate as a mission (done, and failed at the exact moment it became
impossible), every variable card's switch, and every special rule's refusals.

Authority: docs/rules/hidden-roles.md ("Missions", "Special rules"). Games are staged: the role
cards through the recorded ``roles`` chance outcome (``tests.helpers.roles_game``), heroes on
squares with ``put`` (staging only: ``tests/maze_staging.py``); every input under test
goes through ``Session.submit``.

The item game (scenario 1, stack 6 7 8 9 2, three or four players): the four item tiles around
the start tile and tile 2 (the purple exit, shared by every hero in scenario 1, at 2.a1) north
of tile 6, all joined by p2's explorations (p2 holds explore).
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import IllegalMoveError, InputError
from arbiter.engine.events import HOST
from arbiter.engine.session import Session
from tests.helpers import roles_game
from tests.maze_staging import (
    approach,
    clear_1b,
    clear_centre,
    explore_at,
    find,
    item_of,
    put,
    step_onto,
)
from tests.roles_staging import escape, item_roles, of_kind, theft


def mission(s: Session, seat: str) -> str:
    t = s.state.mission_of(seat)
    assert t is not None
    return t.status


def failed_now(events, seat: str) -> bool:
    """The failure was announced in these events, the card revealed and the seat eliminated."""
    failed = [e for e in of_kind(events, "failed") if e.data["seat"] == seat]
    reveal = [e for e in of_kind(events, "reveal") if e.data["seat"] == seat]
    out = [e for e in of_kind(events, "eliminate") if e.data["seat"] == seat]
    return bool(failed and reveal and out and failed[0].to is None)


def done_told(events, seat: str) -> bool:
    return any(e.kind == "mission" and e.data["status"] == "done" and e.to == (seat,) for e in events)


# ============================================================================ hero missions
def test_hero_leaves_first_done() -> None:
    s = item_roles(["mage-first", "traitor", "mute"])
    theft(s)
    events = escape(s, "purple")
    assert done_told(events, "p1") and mission(s, "p1") == "done"


def test_hero_leaves_first_fails_when_another_hero_leaves_first() -> None:
    s = item_roles(["traitor", "mage-first", "mute"])
    theft(s)
    events = escape(s, "yellow")
    assert failed_now(events, "p2") and "p2" in s.state.eliminated
    assert s.state.revealed == ["p2"] and not s.over


def test_hero_leaves_last_done_and_failed() -> None:
    s = item_roles(["elf-last", "dwarf-last", "mute"])
    theft(s)
    for hero in ("purple", "yellow"):
        escape(s, hero)
    events = escape(s, "orange")  # the dwarf leaves while the elf is inside: dwarf-last fails
    assert failed_now(events, "p2") and mission(s, "p1") == "pending"
    events = escape(s, "green")
    assert done_told(events, "p1") and s.over
    assert s.state.result.scores["players"]["p1"]["won"] is True


def test_completes_theft_done_by_the_holders_input() -> None:
    s = item_roles(["mute", "traitor", "master-thief"])  # p3 holds north and east
    for hero in ("purple", "yellow", "green"):
        s.state.heroes[hero] = None
        put(s, hero, item_of(s, hero))
    start, d = approach(s, item_of(s, "orange"), hero="orange")
    assert d == "N"  # the dwarf steps north onto its item: p3's move
    s.state.heroes["orange"] = None
    put(s, "orange", start)
    events = s.submit("p3", "move orange north 1")
    assert s.state.theft and done_told(events, "p3")


def test_completes_theft_fails_when_another_seat_completes_it() -> None:
    s = item_roles(["master-thief", "mute", "traitor"])
    events = theft(s)  # p3 or p2 moves the dwarf; p1 (vortex, west) does not
    assert failed_now(events, "p1")


def test_theft_before_done_in_time() -> None:
    s = item_roles(["quick-hands", "mute", "traitor"])
    events = theft(s, time_ms=99_000)
    assert done_told(events, "p1")


def test_theft_before_fails_the_moment_the_clock_shows_it() -> None:
    s = item_roles(["quick-hands", "mute", "traitor"])
    s.submit("p3", "stare p1", 99_999)
    assert mission(s, "p1") == "pending"
    events = s.advance_to(100_000)
    assert failed_now(events, "p1") and s.state.now_ms == 100_000
    assert {"tick": {"time": 100}} in s.entries


def test_an_input_at_exactly_the_mission_time_comes_after_the_failure() -> None:
    s = item_roles(["quick-hands", "mute", "traitor"])
    events = s.submit("p3", "stare p2", 100_000)
    assert failed_now(events, "p1") and [e.kind for e in events][-1] == "stare"


def test_explores_done_and_failed() -> None:
    s = roles_game("3", ["mute", "pathfinder", "traitor", "dwarf-averse"], level=3)
    clear_centre(s)
    assert s.state.view("p2")["roles"]["you"]["mission"]["status"] == "pending (0 of 2)"  # a counting mission shows its count
    explore_at(s, "1a.c1")
    assert s.state.view("p2")["roles"]["you"]["mission"]["status"] == "pending (1 of 2)"
    events = explore_at(s, "1a.d3")
    assert done_told(events, "p2") and s.state.mission_of("p2").count == 2
    assert s.state.view("p2")["roles"]["you"]["mission"]["status"] == "done"  # the count only while it counts
    s = roles_game("3", ["pathfinder", "mute", "traitor", "dwarf-averse"], level=3)
    s.state.stack = s.state.stack[:2]  # staging: two tiles left, p1 (no explore tile) still needs two
    clear_centre(s)
    assert mission(s, "p1") == "pending"
    events = explore_at(s, "1a.c1")  # one tile left: p1 can no longer explore two
    assert failed_now(events, "p1")


def test_flip_with_under_done() -> None:
    s = roles_game("1", ["close-call", "mute", "traitor"], level=3)
    events = s.submit("p3", "move purple north 1", 141_000)  # onto 1a.b1's hourglass with 39 s left
    assert of_kind(events, "flip") and done_told(events, "p1")


def test_flip_with_under_wants_strictly_less_than_its_time() -> None:
    s = roles_game("1", ["close-call", "mute", "traitor"], level=3)
    events = s.submit("p3", "move purple north 1", 140_000)  # a flip with exactly 40 s left: not under 40
    assert of_kind(events, "flip") and mission(s, "p1") == "pending"
    assert s.state.view("p1")["roles"]["you"]["mission"]["status"] == "pending"  # a mission that counts nothing: no count


def test_flip_with_under_fails_when_no_hourglass_and_no_tile_are_left() -> None:
    s = roles_game("1", ["close-call", "mute", "traitor"], level=3)
    s.state.stack = []  # staging: nothing left to explore; 1a.b1 is the last hourglass
    events = s.submit("p3", "move purple north 1", 100_000)  # a flip with 80 s left: not under 40
    assert of_kind(events, "flip") and failed_now(events, "p1")


def test_flip_with_under_fails_when_no_hourglass_is_left_on_the_board_or_in_the_stack() -> None:
    """Tiles 3, 4 and 5 joined, the stack holds tiles 2, 6, 7, 8 and 9 (no hourglass on any of
    them: public, as which tiles are left is): the flip of the last unused hourglass, with
    50 s left, makes close-call impossible though the stack is not empty."""
    s = roles_game("1", ["close-call", "mute", "traitor"], level=3, stack=["3", "4", "5"])
    clear_centre(s)
    for square in ("1a.c1", "1a.d3", "1a.b4"):
        explore_at(s, square)
    assert s.state.stack and s.state.hourglasses_to_come == 0 and s.state.hourglasses_left == 4
    glasses = find(s, "Hg")
    for k, glass in enumerate(glasses[:-1]):
        step_onto(s, "purple", glass, 100_000 + 50_000 * k)  # flips with 80 or 50 s left: not under 40
    assert mission(s, "p1") == "pending" and s.state.hourglasses_left == 1
    events = step_onto(s, "purple", glasses[-1], 250_000)
    assert of_kind(events, "flip") and failed_now(events, "p1") and s.state.stack


def test_flip_with_under_waits_while_a_tile_left_in_the_stack_has_an_hourglass() -> None:
    s = roles_game("1", ["close-call", "mute", "traitor"], level=3, stack=["6", "7"])
    assert s.state.hourglasses_to_come > 0
    events = s.submit("p3", "move purple north 1", 100_000)  # 1a.b1, the board's only hourglass: 80 s left
    assert of_kind(events, "flip") and s.state.hourglasses_left == 0 and mission(s, "p1") == "pending"


def test_hero_never_uses_fails_at_the_vortex_and_is_done_at_the_end() -> None:
    s = roles_game("1", ["traitor", "no-shortcuts", "mute"], level=3)
    events = s.submit("p1", "vortex green")  # p1 holds vortex; the green vortex at 1a.a4
    assert failed_now(events, "p2")
    s = roles_game("1", ["traitor", "no-shortcuts", "mute"], level=3)
    s.submit("p1", "vortex purple")  # another hero by vortex: nothing
    events = s.advance_to(180_000)
    assert s.over and mission(s, "p2") == "done"
    assert any(e.kind == "mission" and e.data == {"seat": "p2", "card": "no-shortcuts", "status": "done"}
               for e in events)


def test_never_accused_fails_at_the_accusation() -> None:
    s = roles_game("3", ["clean-record", "mute", "traitor", "dwarf-averse"], level=3)
    events = s.submit("p3", "accuse p1")
    assert failed_now(events, "p1") and events[0].kind == "accuse"
    assert s.state.vote is not None and s.state.vote.voters == ("p2", "p4")


def test_above_suspicion_is_kept_to_the_end() -> None:
    s = roles_game("3", ["above-suspicion", "mage-first", "quick-hands", "master-thief"], level=5)
    s.submit("p1", "accuse p2")
    s.advance_to(180_000)
    assert s.over and mission(s, "p1") == "done"
    line = s.state.result.scores["players"]["p1"]
    assert line["won"] is True and line["side"] == "traitor"


def test_pawn_in_front_counts_other_seats_puts_of_the_pawn() -> None:
    s = roles_game("3", ["nuisance", "mage-first", "quick-hands", "master-thief"], level=5)
    with pytest.raises(IllegalMoveError, match="cannot put the pawn in front of itself"):
        s.submit("p1", "pawn p1")  # (in front of another player only)
    s.submit("p2", "pawn p1")  # 1
    with pytest.raises(IllegalMoveError, match="the pawn is in front of p1 already"):
        s.submit("p3", "pawn p1")  # (not put again where it lies: a second put needs it moved on)
    assert s.state.mission_of("p1").count == 1
    s.submit("p1", "pawn p4")
    assert s.state.mission_of("p1").count == 1
    events = s.submit("p3", "pawn p1")  # 2
    assert done_told(events, "p1") and s.state.mission_of("p1").count == 2


def test_pawn_in_front_fails_only_at_the_end() -> None:
    s = roles_game("3", ["nuisance", "mage-first", "quick-hands", "master-thief"], level=5)
    s.submit("p2", "pawn p1")
    s.advance_to(180_000)
    assert mission(s, "p1") == "failed" and "p1" not in s.state.eliminated
    assert s.state.result.scores["players"]["p1"] == {"card": "nuisance", "side": "traitor", "won": False,
                                                      "why": "the heroes lost, but its mission failed: the pawn is "
                                                             "put in front of its holder 2 time(s)"}


def test_no_theft_before_done_when_the_clock_shows_it() -> None:
    s = roles_game("3", ["slow-fingers", "mage-first", "dwarf-last", "master-thief"], level=5)
    s.advance_to(109_999)
    assert mission(s, "p1") == "pending"
    events = s.advance_to(110_000)
    assert [(e.kind, e.to) for e in events] == [("mission", ("p1",))] and mission(s, "p1") == "done"


def test_no_theft_before_is_kept_when_the_game_ends_before_its_moment() -> None:
    """Over at 22 s (an accusation upheld against a hero) with no theft: no theft came before
    110 s, so slow-fingers is done and its traitor wins (a theft-before mission, pending then,
    fails)."""
    s = roles_game("1", ["slow-fingers", "mage-first", "barbarian-first", "elf-last"], level=5)
    s.submit("p1", "accuse p2", 20_000)
    s.submit("p3", "vote yes", 21_000)
    events = s.submit("p4", "vote yes", 22_000)
    assert s.over and not s.state.theft and s.state.result.reason == "wrong-accusation"
    assert mission(s, "p1") == "done" and mission(s, "p2") == "failed"
    assert [e.data["status"] for e in events if e.kind == "mission" and e.to == ("p1",)] == ["done"]
    assert s.state.result.winners == ("p1",) and s.state.result.winner == "traitors"
    assert s.state.result.scores["players"]["p1"]["why"] == "the heroes lost; mission done"


def test_no_theft_before_fails_at_an_early_theft() -> None:
    s = item_roles(["slow-fingers", "mage-first", "quick-hands"], level=5)
    events = theft(s)
    assert failed_now(events, "p1")


def test_a_failed_mission_hands_the_tiles_on_and_the_game_goes_on() -> None:
    s = item_roles(["traitor", "mage-first", "mute"])
    theft(s)
    events = escape(s, "yellow")
    (out,) = of_kind(events, "eliminate")
    assert out.data == {"seat": "p2", "why": "failed", "phantom": False,
                        "tiles": [{"tile": ["escalator", "explore", "south"], "to": "p3"}]}
    assert not s.over and s.state.legal_inputs("p2") == [] and s.state.input_forms("p2") == []


# ============================================================================ switches
def switched(events, seat: str, side: str) -> bool:
    return any(e.kind == "switch" and e.to == (seat,) and e.data["side"] == side for e in events)


def test_each_seat_sees_its_own_card_and_what_it_tracks_and_the_host_sees_every_card() -> None:
    s = roles_game("1", ["nervous-hero", "traitor", "hasty-traitor"], level=4)
    mine = s.state.view("p1")["roles"]
    assert "cards" not in mine and mine["you"]["card"] == "nervous-hero"
    assert mine["you"]["switch"] == {"asks": "a flip of the timer with under 30 s of sand left", "status": "pending"}
    assert "mission" not in mine["you"]  # a variable card tracks a switch, not a mission
    host_view = s.state.view(HOST)["roles"]
    assert "you" not in host_view and host_view["cards"] == {seat: s.state.card_view(seat) for seat in s.seats}
    assert [host_view["cards"][seat]["card"] for seat in s.seats] == ["nervous-hero", "traitor", "hasty-traitor"]


def test_nervous_hero_turns_traitor_at_a_flip_under_30_s() -> None:
    s = roles_game("1", ["nervous-hero", "traitor", "hasty-traitor"], level=4)
    events = s.submit("p3", "move purple north 1", 151_000)
    assert switched(events, "p1", "traitor") and s.state.side_of("p1") == "traitor"
    assert "abandon" not in s.state.legal_inputs("p1")


def test_watched_hero_turns_traitor_the_second_time_the_eye_card_is_put_in_front_of_it() -> None:
    s = roles_game("1", ["watched-hero", "traitor", "hasty-traitor"], level=4)
    s.submit("p2", "eye p1")
    s.submit("p3", "eye p2")
    assert s.state.side_of("p1") == "hero"
    events = s.submit("p3", "eye p1")
    assert switched(events, "p1", "traitor")


def test_wronged_hero_turns_traitor_when_cleared() -> None:
    s = roles_game("3", ["wronged-hero", "traitor", "hasty-traitor", "prodded-traitor"], level=4)
    s.submit("p2", "accuse p1")
    events = s.submit("p3", "vote no")
    assert switched(events, "p1", "traitor")


def test_hasty_traitor_turns_hero_if_the_theft_comes_before_90_s() -> None:
    s = item_roles(["hasty-traitor", "traitor", "nervous-hero"], level=4)
    events = theft(s, time_ms=89_000)
    assert switched(events, "p1", "hero")
    s = item_roles(["hasty-traitor", "traitor", "nervous-hero"], level=4)
    theft(s, time_ms=90_000)
    assert s.state.side_of("p1") == "traitor"


def test_prodded_traitor_turns_hero_the_second_time_the_pawn_is_put_in_front_of_it() -> None:
    s = roles_game("1", ["prodded-traitor", "traitor", "nervous-hero"], level=4)
    s.submit("p2", "pawn p1")
    s.submit("p2", "pawn p3")
    events = s.submit("p3", "pawn p1")
    assert switched(events, "p1", "hero") and "abandon" in s.state.legal_inputs("p1")


def test_explorer_traitor_turns_hero_at_its_first_exploration() -> None:
    s = roles_game("1", ["traitor", "explorer-traitor", "nervous-hero"], level=4)
    clear_centre(s)
    events = explore_at(s, "1a.c1")  # p2 holds explore
    assert switched(events, "p2", "hero")


def test_scared_traitor_turns_hero_when_an_accusation_of_another_is_upheld() -> None:
    s = roles_game("3", ["scared-traitor", "traitor", "nervous-hero", "watched-hero"], level=4)
    s.submit("p3", "accuse p2")
    s.submit("p1", "vote yes")
    events = s.submit("p4", "vote yes")
    assert switched(events, "p1", "hero") and "p2" in s.state.eliminated


def test_camera_shy_hero_turns_traitor_when_two_cameras_are_out() -> None:
    s = roles_game("6", ["camera-shy-hero", "traitor", "nervous-hero"], level=4, stack=("3", "16", "17"))
    clear_1b(s)
    for square in ("1b.c1", "1b.d3", "1b.a2"):  # tiles 3, 16 and 17
        explore_at(s, square)
    first, second = find(s, "Cm")[:2]
    events = step_onto(s, "yellow", first)
    assert of_kind(events, "camera") and s.state.side_of("p1") == "hero"
    events = step_onto(s, "yellow", second)
    assert switched(events, "p1", "traitor")


def test_a_switch_is_told_only_to_its_holder() -> None:
    s = roles_game("1", ["watched-hero", "traitor", "hasty-traitor"], level=4)
    s.submit("p2", "eye p1")
    s.submit("p3", "eye p2")
    s.submit("p3", "eye p1")
    (switch,) = of_kind(s.events, "switch")
    assert switch.to == ("p1",)
    assert s.state.view("p2")["roles"] == s.state.view("p3")["roles"] | {"you": s.state.view("p2")["roles"]["you"]}


# ============================================================================ special rules
def rule_refusal(s: Session, seat: str, text: str) -> str:
    before = (s.state.view(HOST), len(s.events), len(s.moves), list(s.entries))
    with pytest.raises(IllegalMoveError) as info:
        s.submit(seat, text)
    assert (s.state.view(HOST), len(s.events), len(s.moves), list(s.entries)) == before
    return info.value.message


def test_never_act_on_refuses_every_action_on_that_hero() -> None:
    s = roles_game("1", ["mage-averse", "mute", "traitor"], level=3)
    for text in ("move purple east 1", "move mage east", "vortex purple"):
        assert rule_refusal(s, "p1", text).startswith("your card, Hands off the mage: you never move")
    assert not [m for m in s.state.legal_inputs("p1") if "purple" in m]
    s.submit("p1", "vortex yellow")  # other heroes as ever


def test_never_act_on_leaves_the_crystal_ball_alone() -> None:
    s = roles_game("5", ["traitor", "mage-averse", "mute"], level=3, stack=("3", "4", "5"))
    clear_1b(s)
    explore_at(s, "1b.c1")  # tile 15, with the crystal ball at 15.a1, north of 1B
    s.state.heroes["purple"] = None
    put(s, "purple", "15.a1")
    assert "explore 1b.d3" in s.state.legal_inputs("p2")  # p2 holds explore
    s.submit("p2", "explore 1b.d3")


def test_dwarf_averse() -> None:
    s = roles_game("1", ["mute", "dwarf-averse", "traitor"], level=3)
    assert rule_refusal(s, "p2", "move orange south").startswith("your card, Hands off the dwarf")


def test_acts_only_with_the_pawn_put_by_another_seat() -> None:
    s = roles_game("1", ["needs-a-push", "mute", "traitor", "trusting"], level=3)
    assert rule_refusal(s, "p1", "move purple west").startswith("your card, Needs a push")
    assert not [m for m in s.state.legal_inputs("p1") if m.split()[0] in ("move", "vortex")]
    with pytest.raises(IllegalMoveError, match="cannot put the pawn in front of itself"):
        s.submit("p1", "pawn p1")  # (in front of another player only)
    assert rule_refusal(s, "p1", "vortex purple").startswith("your card, Needs a push")
    s.submit("p2", "pawn p1")
    s.submit("p1", "vortex purple")
    s.submit("p3", "pawn p2")
    assert rule_refusal(s, "p1", "move yellow west").startswith("your card, Needs a push")


def test_silent_refuses_talk_and_lists_no_form() -> None:
    s = roles_game("1", ["mute", "traitor", "trusting"], level=3)
    assert rule_refusal(s, "p1", "say hello") == ("your card, Sworn to silence: you never say a word, not even "
                                                  "when talk is open.")
    assert s.state.input_forms("p1") == [] and s.state.input_forms("p2") == ["say TEXT"]


def test_single_steps_refuses_longer_moves_said_or_not() -> None:
    s = roles_game("1", ["small-steps", "traitor", "mute"], level=3)
    clear_centre(s)  # the mage at 1a.a1 can go east 1 (1a.b1, the hourglass) ... only as far as the wall
    put(s, "yellow", "1a.d1")
    s.state.heroes["green"] = None
    put(s, "green", "1a.c3")
    assert rule_refusal(s, "p1", "move green west 2").startswith("your card, Small steps")
    assert rule_refusal(s, "p1", "move green west").startswith("your card, Small steps")  # as far as it goes: 2
    assert all(m.split()[-1] == "1" for m in s.state.legal_inputs("p1") if m.startswith("move "))
    s.submit("p1", "move green west 1")


def test_never_accuses() -> None:
    s = roles_game("1", ["trusting", "traitor", "mute"], level=3)
    assert rule_refusal(s, "p1", "accuse p2").startswith("your card, Trusting soul")
    assert not [m for m in s.state.legal_inputs("p1") if m.startswith("accuse")]
    assert [m for m in s.state.legal_inputs("p2") if m.startswith("accuse")]


def test_a_rule_refusal_is_a_refusal_no_one_else_sees() -> None:
    s = roles_game("1", ["trusting", "traitor", "mute"], level=3)
    with pytest.raises(InputError):
        s.submit("p1", "accuse p2")
    assert not s.moves and all(e.kind != "accuse" for e in s.events)

"""The Magic Maze rules, one focused test per rule: the security cameras and the crystal ball.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the engine's decisions; how games
are staged (every input under test through ``Session.submit``): ``tests/maze_staging.py``.
"""

from __future__ import annotations

import dataclasses

import pytest

from arbiter.engine.errors import IllegalMoveError
from arbiter.engine.session import Session

from tests.helpers import host, kinds, of_kind, refused
from tests.maze_staging import act, clear_1b, explore_at, find, game, heroes, put, step_onto


# ====================================================================== cameras
#
# Scenario 6 (start 1B: hourglass at 1b.a1): tile 3 north of 1B (hourglass 3.a3, a row
# a3-b3-c3 open), tiles 16 and 17 (one camera each) east and west.


def camera_game(scenario: str = "6") -> Session:
    s = game(scenario, stack=["3", "16", "17"])
    clear_1b(s)
    explore_at(s, "1b.c1")  # tile 3, as drawn
    assert host(s)["tiles"][-1] == {"tile": "3", "origin": [-4, 1], "quarters": 0}
    return s


def test_one_camera_does_not_lock_the_hourglasses():
    s = camera_game()
    explore_at(s, "1b.d3")  # tile 16
    assert find(s, "Cm") and not host(s)["cameras_lock"]
    put(s, "purple", "3.c3")
    events = s.submit("p2", "move purple west", 10_000)
    assert s.moves[-1].text == "move purple west 2" and "flip" in kinds(events)


def test_two_live_cameras_lock_every_hourglass_square():
    s = camera_game()
    explore_at(s, "1b.d3")  # tile 16
    explore_at(s, "1b.a2")  # tile 17
    assert len(find(s, "Cm")) == 2 and host(s)["cameras_lock"]
    put(s, "purple", "3.c3")
    s.submit("p2", "move purple west", 10_000)  # b3, then the hourglass a3: stops before
    assert s.moves[-1].text == "move purple west 1" and heroes(s)["purple"] == "3.b3"
    assert host(s)["time_left"] == "170" and s.state.flips == 0
    refused(s, "p2", "move purple west", IllegalMoveError)
    put(s, "purple", "1b.a2")
    refused(s, "p1", "move purple north", IllegalMoveError)  # 1b.a1 is an hourglass


def test_the_camera_lock_keeps_heroes_off_used_hourglass_squares_too():
    """The rule forbids entering an hourglass square while two cameras are live, not only
    flipping one: a used hourglass square is shut as well (and open again once unlocked)."""
    s = camera_game()
    put(s, "purple", "3.c3")
    s.submit("p2", "move purple west", 100_000)  # flips 3.a3 while no camera is out
    assert heroes(s)["purple"] == "3.a3" and "3.a3" in host(s)["used"]
    act(s, "move purple east")  # (the flip passed the action tiles)
    explore_at(s, "1b.d3")  # tile 16
    explore_at(s, "1b.a2")  # tile 17
    assert host(s)["cameras_lock"]
    put(s, "purple", "3.c3")
    act(s, "move purple west")
    assert s.moves[-1].text == "move purple west 1" and heroes(s)["purple"] == "3.b3"
    refused(s, "p1", "move purple west", IllegalMoveError)


def test_the_barbarian_entering_a_camera_disables_it_and_unlocks():
    s = camera_game()
    explore_at(s, "1b.d3")
    explore_at(s, "1b.a2")
    cameras = find(s, "Cm")
    events = step_onto(s, "yellow", cameras[0])
    assert kinds(events) == ["camera", "hero"] and events[0].data == {"square": cameras[0]}
    assert cameras[0] in host(s)["used"] and not host(s)["cameras_lock"]
    put(s, "purple", "3.c3")
    events = s.submit("p2", "move purple west")
    assert s.moves[-1].text == "move purple west 2" and "flip" in kinds(events)


def test_the_barbarian_running_over_a_camera_disables_it_on_the_way():
    s = game("6", stack=["17"])
    clear_1b(s)
    explore_at(s, "1b.c1")  # tile 17 north of 1B, as drawn: a1, b1 (camera), c1 in a row
    assert find(s, "Cm") == ["17.b1"]
    put(s, "yellow", "17.a1")
    events = s.submit("p1", "move yellow east")
    assert s.moves[-1].text == "move yellow east 2" and heroes(s)["yellow"] == "17.c1"
    # (the elf's exploring had opened talk; this move closes it)
    assert kinds(events) == ["silence", "camera", "hero"] and host(s)["used"] == ["17.b1"]


def test_with_three_cameras_one_disabled_still_locks():
    s = game("7", stack=["16", "17", "18"])
    clear_1b(s)
    for sq in ("1b.c1", "1b.d3", "1b.a2"):
        explore_at(s, sq)
    cameras = find(s, "Cm")
    assert len(cameras) == 3 and host(s)["cameras_lock"]
    step_onto(s, "yellow", cameras[0])
    assert host(s)["cameras_lock"]
    put(s, "purple", "1b.a2")
    refused(s, "p1", "move purple north", IllegalMoveError)  # the hourglass 1b.a1
    step_onto(s, "yellow", cameras[1])
    assert not host(s)["cameras_lock"] and set(cameras[:2]) <= set(host(s)["used"])
    events = s.submit("p1", "move purple north", 100_000)
    assert "flip" in kinds(events) and heroes(s)["purple"] == "1b.a1"


@pytest.mark.parametrize("hero", ["purple", "green", "orange"])
def test_other_heroes_on_a_camera_do_not_disable_it(hero):
    s = camera_game()
    explore_at(s, "1b.d3")
    explore_at(s, "1b.a2")
    cameras = find(s, "Cm")
    s.state.heroes[hero] = None
    events = step_onto(s, hero, cameras[0])
    assert kinds(events) == ["hero"] and heroes(s)[hero] == cameras[0]
    assert cameras[0] not in host(s)["used"] and host(s)["cameras_lock"]


# ====================================================================== crystal ball
#
# Scenario 5: tile 15 (crystal ball at a1) on top of the stack.


def crystal_game(stack=("3", "4", "5")) -> Session:
    s = game("5", stack=list(stack))
    clear_1b(s)
    explore_at(s, "1b.c1")  # tile 15 north of 1B, as drawn
    assert host(s)["tiles"][-1]["tile"] == "15" and find(s, "Cb") == ["15.a1"]
    s.state.heroes["purple"] = None
    put(s, "purple", "15.a1")
    return s


def test_the_mage_on_a_crystal_ball_explores_two_tiles_anywhere_and_the_ball_is_used():
    s = crystal_game()
    events = s.submit("p2", "explore 1b.d3")  # a yellow exploration square, no hero there
    assert s.moves[-1].text == "explore 1b.d3"
    assert [(e.kind, e.data) for e in of_kind(events, "explore")] == [
        ("explore", {"tile": "3", "at": "1b.d3", "origin": [1, 4], "quarters": 1})]
    assert "15.a1" in host(s)["used"]
    # the second tile may join the first
    second = next(n for n in find(s, "Ep") + find(s, "Ey") if n.startswith("3."))
    s.submit("p2", f"explore {second}")
    assert [t["tile"] for t in host(s)["tiles"]] == ["1B", "15", "3", "4"]
    message = refused(s, "p2", "explore 1b.a2", IllegalMoveError)
    assert message == "this crystal ball is used up"
    assert "15.a1" in host(s)["used"]


def test_the_second_crystal_tile_must_follow_while_the_mage_stays():
    s = crystal_game()
    s.submit("p2", "explore 1b.d3")
    s.submit("p2", "move purple south 1")
    s.submit("p1", "move purple north 1")  # back on the ball, now used
    message = refused(s, "p2", "explore 1b.a2", IllegalMoveError)
    assert message == "this crystal ball is used up"


def test_other_actions_between_the_two_crystal_tiles_are_fine_while_the_mage_stays():
    s = crystal_game()
    s.submit("p2", "explore 1b.d3")
    s.submit("p1", "move orange north")
    s.submit("p2", "explore 1b.a2")
    assert len(host(s)["tiles"]) == 4


def test_crystal_explore_needs_the_mage_on_the_ball_and_an_unexplored_square():
    s = crystal_game()
    refused(s, "p2", "explore 15.a1", IllegalMoveError)  # not an exploration square
    refused(s, "p2", "explore 1b.c1", IllegalMoveError)  # already explored
    refused(s, "p1", "explore 1b.d3", IllegalMoveError)  # p1 holds no explore
    s.state.heroes["purple"] = None
    put(s, "purple", "15.b1")
    message = refused(s, "p2", "explore 1b.d3", IllegalMoveError)
    assert "crystal ball" in message


def explores(s: Session, seat: str) -> list[str]:
    return [m for m in s.state.legal_inputs(seat) if m.startswith("explore ")]


def test_the_crystal_balls_explorations_are_listed_exactly_while_the_mage_may_use_it():
    """``legal`` lists a crystal ball's explorations (squares no hero stands on) to the seat
    holding explore, while the mage stands on an unused ball or may still place its second tile,
    and only in scenarios 5 and up; each one listed is accepted."""
    s = crystal_game()
    listed = explores(s, "p2")
    assert "explore 1b.d3" in listed and explores(s, "p1") == []  # p1 holds no explore
    for text in listed:
        fresh = crystal_game()
        fresh.submit("p2", text)
        assert fresh.moves[-1].text == text
    s.submit("p2", "explore 1b.d3")
    assert "explore 3.c1" in explores(s, "p2")  # the second tile, which may join the first
    s.submit("p2", "move purple south 1")
    assert "explore 1b.a2" not in explores(s, "p2")  # the mage left the ball
    s.submit("p1", "move purple north 1")
    assert explores(s, "p2") == []  # back on it, used up
    # the same position where crystal balls are not in force (as in scenarios 1 to 4)
    s = crystal_game()
    s.state.scenario = dataclasses.replace(s.state.scenario, crystal=False)
    assert "explore 1b.d3" not in explores(s, "p2")


def test_crystal_balls_are_not_in_force_before_scenario_5():
    s = game("4")
    refused(s, "p2", "explore 1a.c1", IllegalMoveError)

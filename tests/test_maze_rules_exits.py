"""The Magic Maze rules, one focused test per rule: the theft (every hero on its item) and the escape
through the exits.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the engine's decisions; how games
are staged (every input under test through ``Session.submit``): ``tests/maze_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import GameOverError, IllegalMoveError
from arbiter.engine.session import Session

from tests.helpers import host, kinds, of_kind, refused
from tests.maze_staging import (
    DIR_NAME,
    HEROES,
    act,
    approach,
    explore_at,
    find,
    heroes,
    item_game,
    item_of,
    put,
    step_onto,
    theft_game,
)


# ====================================================================== theft and exits
#
# Scenario 1, stack 6 7 8 9 2: item tiles on the four sides of 1A (6 north: yellow item,
# 7 east: orange item, 8 south: green item, 9 west: purple item), tile 2 north of tile 6
# (purple exit at 2.a1).


def test_one_hero_on_its_item_is_not_a_theft():
    s = item_game()
    events = step_onto(s, "purple", item_of(s, "purple"))
    assert "theft" not in kinds(events) and not host(s)["theft"]


def test_theft_only_when_all_four_stand_on_their_own_items_at_once():
    s = item_game()
    for hero in ("purple", "yellow", "green"):
        s.state.heroes[hero] = None
    for hero in ("purple", "yellow"):
        put(s, hero, item_of(s, hero))
    green_start, d = approach(s, item_of(s, "green"), hero="green")
    put(s, "green", green_start)
    events = step_onto(s, "orange", item_of(s, "orange"))
    assert "theft" not in kinds(events) and not host(s)["theft"]  # green is one square short
    events = act(s, f"move green {DIR_NAME[d]} 1")
    assert kinds(events) == ["hero", "theft"] and host(s)["theft"]
    assert len(of_kind(s.events, "theft")) == 1


def test_a_hero_that_runs_over_its_item_does_not_stand_on_it_and_makes_no_theft():
    """The theft needs the four standing on their items: a move that crosses the last hero's
    item and goes on (unlike an hourglass, an exit or a camera) does not make it."""
    s = item_game()
    for hero in HEROES:
        s.state.heroes[hero] = None
    for hero in ("purple", "yellow", "orange"):
        put(s, hero, item_of(s, hero))
    assert item_of(s, "green") == "8.a3"
    put(s, "green", "8.a1")
    events = s.submit("p2", "move green south")  # 8.a2, 8.a3 (its item), 8.a4
    assert kinds(events) == ["hero"] and heroes(s)["green"] == "8.a4" and not host(s)["theft"]
    events = s.submit("p1", "move green north 1")
    assert kinds(events) == ["hero", "theft"] and host(s)["theft"]


def test_a_hero_on_another_colours_item_does_not_count():
    s = item_game()
    for hero in ("purple", "yellow", "green"):
        s.state.heroes[hero] = None
    put(s, "purple", item_of(s, "green"))  # wrong colour
    put(s, "yellow", item_of(s, "yellow"))
    put(s, "green", item_of(s, "purple"))
    events = step_onto(s, "orange", item_of(s, "orange"))
    assert "theft" not in kinds(events) and not host(s)["theft"]


def test_before_the_theft_an_exit_is_just_a_square():
    s = item_game()
    put(s, "purple", "2.a2")
    s.submit("p1", "move purple north")
    assert heroes(s)["purple"] == "2.a1" and host(s)["escaped"] == []
    assert s.state.heroes["purple"] is not None


def test_after_the_theft_a_hero_leaves_by_the_shared_purple_exit_in_scenario_1():
    s = theft_game()
    assert host(s)["theft"]
    for hero in ("orange", "green"):
        s.state.heroes[hero] = None  # staging: lift them off their items
    put(s, "green", "2.a2")
    events = s.submit("p1", "move green north")
    assert s.moves[-1].text == "move green north 1"
    assert kinds(events) == ["escape"] and events[0].data == {"hero": "green", "square": "2.a1"}
    assert "green" not in heroes(s) and host(s)["escaped"] == ["green"]
    assert not s.over


def test_the_game_is_won_when_the_fourth_hero_leaves():
    s = theft_game()
    order = ["purple", "yellow", "orange", "green"]
    for i, hero in enumerate(order):
        assert not s.over
        events = step_onto(s, hero, "2.a1")
        assert "escape" in kinds(events)
        assert host(s)["escaped"] == order[: i + 1]
    assert s.over and kinds(events)[-2:] == ["escape", "game-over"]
    result = host(s)["result"]
    assert (result["winner"], result["reason"], result["winners"]) == ("team", "escape", ["p1", "p2"])
    with pytest.raises(GameOverError):
        s.submit("p1", "say well done")
    s.advance_to(s.state.deadline_ms + 10_000)  # the sand running out later changes nothing
    assert host(s)["result"]["reason"] == "escape"


def own_exit_game() -> Session:
    """Scenario 2: the item tiles, tile 2 (purple exit) north of tile 6, tile 10 (green exit)
    west of tile 6 (turned three times: a1 -> b1 (exit) -> c1 runs east)."""
    s = item_game("2", more=("2", "10"))
    explore_at(s, "6.a2")
    assert host(s)["tiles"][-1]["tile"] == "10" and find(s, "Xg") == ["10.b1"]
    for hero in ("purple", "yellow", "green"):
        s.state.heroes[hero] = None
    for hero in ("purple", "yellow", "green"):
        put(s, hero, item_of(s, hero))
    step_onto(s, "orange", item_of(s, "orange"))
    assert host(s)["theft"]
    return s


def test_a_hero_cannot_leave_by_its_exit_while_another_hero_stands_on_it():
    s = own_exit_game()
    for hero in HEROES:
        s.state.heroes[hero] = None  # staging: everyone off the items
    put(s, "green", "10.a1")
    put(s, "purple", "10.b1")  # on the green exit, which is only a square to the mage
    put(s, "yellow", "1a.c2")
    put(s, "orange", "1a.c3")
    refused(s, "p1", "move green east", IllegalMoveError)
    assert heroes(s)["green"] == "10.a1" and host(s)["escaped"] == []
    assert "move green east" not in " ".join(s.state.legal_inputs("p1"))


def test_before_the_theft_a_move_runs_over_an_exit():
    s = item_game("2", more=("2", "10"))
    explore_at(s, "6.a2")
    put(s, "green", "10.a1")
    s.submit("p1", "move green east")
    assert s.moves[-1].text == "move green east 2" and heroes(s)["green"] == "10.c1"


def test_from_scenario_2_a_hero_leaves_only_by_its_own_exit_and_the_move_stops_there():
    s = own_exit_game()
    for hero in HEROES:
        s.state.heroes[hero] = None  # staging: everyone off the items
    put(s, "purple", "1a.b2")
    put(s, "yellow", "1a.c2")
    put(s, "orange", "1a.c3")
    put(s, "green", "10.a1")
    events = s.submit("p1", "move green east")
    assert s.moves[-1].text == "move green east 1"
    assert kinds(events) == ["escape"] and host(s)["escaped"] == ["green"]
    # another hero runs over the green exit
    s.state.heroes["purple"] = None
    put(s, "purple", "10.a1")
    s.submit("p1", "move purple east")
    assert s.moves[-1].text == "move purple east 2" and heroes(s)["purple"] == "10.c1"
    # and a purple exit takes only the mage
    s.state.heroes["yellow"] = None
    put(s, "yellow", "2.a2")
    s.submit("p1", "move yellow north")
    assert heroes(s)["yellow"] == "2.a1" and "yellow" not in host(s)["escaped"]
    put(s, "yellow", "1a.c2")  # staging: out of the way again
    put(s, "purple", "2.b1")
    events = s.submit("p2", "move purple west")
    assert kinds(events) == ["escape"] and host(s)["escaped"] == ["green", "purple"]

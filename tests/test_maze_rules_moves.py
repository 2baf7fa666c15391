"""The Magic Maze rules, one focused test per rule: moving the heroes (a straight move enters every
square on its path: hourglasses flip, usable exits take the hero out and stop the move, the
barbarian disables cameras; a bare ``move HERO DIR`` goes as far as it can and is recorded with its
count), vortexes and escalators, and the explorations refused.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the engine's decisions; how games
are staged (every input under test through ``Session.submit``): ``tests/maze_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import AmbiguousMoveError, IllegalMoveError, SyntaxInputError
from arbiter.engine.games.magic_maze.mall import joined_origin

from tests.helpers import host, refused, snapshot
from tests.maze_staging import (
    clear_centre,
    escaped_game,
    explore_at,
    g_of,
    game,
    heroes,
    name_of,
    put,
    theft_game,
)


# ====================================================================== movement


def test_a_bare_move_goes_as_far_as_it_can_and_is_recorded_with_the_count():
    s = game("1")
    put(s, "purple", "1a.a2")
    put(s, "yellow", "1a.d1")
    events = s.submit("p1", "move purple east")  # b2, c2, d2, then the tile's east wall
    assert s.moves[-1].text == "move purple east 3"
    assert heroes(s)["purple"] == "1a.d2"
    assert [(e.kind, e.data) for e in events] == [("hero", {"hero": "purple", "from": "1a.a2", "to": "1a.d2"})]


def test_a_move_with_a_count_stops_after_that_many_squares():
    s = game("1")
    put(s, "purple", "1a.a2")
    put(s, "yellow", "1a.d1")
    s.submit("p1", "move purple east 1")
    assert s.moves[-1].text == "move purple east 1" and heroes(s)["purple"] == "1a.b2"


def test_long_names_of_heroes_and_directions_are_canonicalised():
    s = game("1")
    s.submit("p2", "move MAGE W")
    assert s.moves[-1].text == "move purple west 1" and heroes(s)["purple"] == "1a.a2"


def test_a_move_stops_before_a_wall():
    s = game("1")
    put(s, "purple", "1a.d1")
    s.submit("p2", "move purple west")  # c1, then the wall between b1 and c1
    assert s.moves[-1].text == "move purple west 1" and heroes(s)["purple"] == "1a.c1"


def test_a_move_straight_into_a_wall_is_refused():
    s = game("1")
    put(s, "purple", "1a.a2")
    message = refused(s, "p1", "move purple north", IllegalMoveError)  # wall between a1 and a2
    assert message == "the purple hero cannot move north: the way is shut"
    put(s, "purple", "1a.c1")
    refused(s, "p2", "move purple west", IllegalMoveError)
    put(s, "purple", "1a.a3")
    refused(s, "p2", "move purple south", IllegalMoveError)


def test_a_move_stops_before_another_hero():
    s = game("1")
    put(s, "purple", "1a.a2")  # yellow on c2
    s.submit("p1", "move purple east")
    assert s.moves[-1].text == "move purple east 1" and heroes(s)["purple"] == "1a.b2"


def test_a_move_into_an_adjacent_hero_is_refused():
    s = game("1")  # purple b2, yellow c2
    refused(s, "p1", "move purple east", IllegalMoveError)
    refused(s, "p2", "move yellow west", IllegalMoveError)
    refused(s, "p2", "move purple south", IllegalMoveError)  # green on b3


def test_a_move_stops_before_a_blocked_square_and_never_enters_one():
    s = game("1")
    clear_centre(s)  # purple a1, yellow d1, green a4, orange c4
    put(s, "orange", "1a.b2")
    s.submit("p1", "move green east")  # b4, c4, then d4 is blocked
    assert s.moves[-1].text == "move green east 2" and heroes(s)["green"] == "1a.c4"
    refused(s, "p1", "move green east", IllegalMoveError)
    put(s, "yellow", "1a.d3")
    refused(s, "p2", "move yellow south", IllegalMoveError)  # d4 blocked


def test_a_move_stops_at_the_edge_of_the_mall():
    s = game("1")
    put(s, "purple", "1a.a2")  # the west door, unexplored: nothing beyond
    message = refused(s, "p2", "move purple west", IllegalMoveError)
    assert "way is shut" in message
    clear_centre(s)
    put(s, "yellow", "1a.c2")
    s.submit("p1", "move yellow north")  # c1, then the unexplored north door: the edge
    assert s.moves[-1].text == "move yellow north 1" and heroes(s)["yellow"] == "1a.c1"
    refused(s, "p1", "move yellow north", IllegalMoveError)


def test_an_exact_count_beyond_the_reach_is_refused():
    s = game("1")
    put(s, "purple", "1a.a2")  # east: b2 only (yellow on c2)
    message = refused(s, "p1", "move purple east 2", IllegalMoveError)
    assert message == "the purple hero can move at most 1 square(s) east"
    refused(s, "p1", "move purple east 0", SyntaxInputError)
    refused(s, "p1", "move purple east -1", SyntaxInputError)


def test_a_move_needs_the_seats_action_tile_and_names_its_actions():
    s = game("1")
    message = refused(s, "p1", "move purple west", IllegalMoveError)
    assert message == "p1 cannot move west: p1's action tile(s) show vortex, north, east"
    message = refused(s, "p2", "move green north", IllegalMoveError)
    assert "escalator, explore, south, west" in message
    refused(s, "p2", "vortex purple", IllegalMoveError)
    refused(s, "p1", "escalator purple", IllegalMoveError)
    refused(s, "p1", "explore purple", IllegalMoveError)


def test_a_square_that_cannot_be_read_is_refused_as_words_whoever_sends_it():
    """The words are read before the rules: a square of no tile was refused as syntax only
    from a seat holding the action, and as the action's rule from the others."""
    s = game("1")
    bad = "'zz.q9' is not a square of the mall (TILE.CELL, e.g. 1a.b2; tiles: 1a)"
    for seat in ("p1", "p2"):
        assert refused(s, seat, "vortex orange zz.q9", SyntaxInputError) == bad
        assert refused(s, seat, "explore zz.q9", SyntaxInputError) == bad
    s = theft_game()
    assert refused(s, "p1", "vortex purple zz.q9", SyntaxInputError).startswith("'zz.q9' is not a square of the mall")


def test_four_players_each_hold_their_own_actions():
    s = game("1", players=4)
    assert host(s)["hands"] == {"p1": ["vortex", "west"], "p2": ["explore", "south"],
                                "p3": ["escalator", "east"], "p4": ["north"]}
    refused(s, "p4", "move purple west", IllegalMoveError)
    s.submit("p1", "move purple west")
    assert heroes(s)["purple"] == "1a.a2"


def test_orange_walls_stop_every_hero_but_the_dwarf():
    # scenario 4: tile 13 north of 1A, as drawn: an orange wall between b1 and c1
    s = game("4", stack=["13"])
    clear_centre(s)
    explore_at(s, "1a.c1")
    assert host(s)["tiles"][-1] == {"tile": "13", "origin": [-4, 1], "quarters": 0}
    assert s.state.mall.side(g_of(s, "13.c1"), "W") == "orange"
    put(s, "purple", "13.d1")
    s.submit("p2", "move purple west")
    assert s.moves[-1].text == "move purple west 1" and heroes(s)["purple"] == "13.c1"
    refused(s, "p2", "move purple west", IllegalMoveError)
    s.state.heroes["purple"] = None  # staging: make room
    put(s, "purple", "1a.b2")
    put(s, "orange", "13.d1")
    s.submit("p2", "move orange west")
    assert s.moves[-1].text == "move orange west 3" and heroes(s)["orange"] == "13.a1"


def test_a_hero_that_left_cannot_be_moved():
    s = escaped_game()
    left = host(s)["escaped"][0]
    refused(s, "p1", f"move {left} north", IllegalMoveError)


# ====================================================================== vortex / escalator


def test_vortex_takes_a_hero_to_its_only_free_vortex():
    s = game("1")
    events = s.submit("p1", "vortex yellow")
    assert s.moves[-1].text == "vortex yellow 1a.d1"
    assert heroes(s)["yellow"] == "1a.d1"
    assert [e.kind for e in events] == ["hero"]
    s.submit("p1", "vortex green 1a.a4")
    assert heroes(s)["green"] == "1a.a4"


def test_vortex_to_an_occupied_vortex_is_refused():
    s = game("1")
    put(s, "yellow", "1a.a1")  # on the purple vortex
    message = refused(s, "p1", "vortex purple", IllegalMoveError)
    assert message == "there is no free purple vortex in the mall"
    refused(s, "p1", "vortex purple 1a.a1", IllegalMoveError)


def test_a_hero_on_the_only_vortex_of_its_colour_is_told_so():
    """It was told "there is no free purple vortex in the mall" (standing on one), or, naming
    its own square, "1a.a1 is not a free purple vortex" with nothing allowed: now what is wrong
    (it stands there already, the only one) and what a vortex does."""
    s = game("1")
    put(s, "purple", "1a.a1")  # the purple vortex of the start tile, the only one yet
    before = snapshot(s)
    for text in ("vortex purple", "vortex mage", "vortex purple 1a.a1", "vortex purple 1A.A1"):
        message = refused(s, "p1", text, IllegalMoveError)
        assert message == ("the purple hero already stands on 1a.a1, the only purple vortex in the mall: a vortex "
                           "takes a hero to another vortex of its colour")
    assert not [i for i in s.state.legal_inputs("p1") if i.startswith("vortex purple")]
    assert snapshot(s) == before


def test_a_hero_on_its_vortex_is_told_the_other_is_taken_or_offered_it():
    s = game("1", stack=["2"])
    clear_centre(s)
    explore_at(s, "1a.c1")  # tile 2 north of 1A, as drawn: a purple vortex at 2.b2
    s.state.heroes["purple"] = None
    put(s, "purple", "1a.a1")
    with pytest.raises(IllegalMoveError) as info:
        s.submit("p1", "vortex purple 1a.a1")
    assert info.value.message == "the purple hero already stands on 1a.a1: a vortex takes it to another free purple vortex"
    assert info.value.allowed == ("vortex purple 2.b2",)
    put(s, "yellow", "2.b2")
    for text in ("vortex purple", "vortex purple 1a.a1"):
        message = refused(s, "p1", text, IllegalMoveError)
        assert message == ("the purple hero already stands on 1a.a1: a vortex takes a hero to another free vortex of "
                           "its colour, and the other purple vortex is taken: 2.b2 (the yellow hero)")


def test_vortex_to_another_colours_vortex_is_refused():
    s = game("1")
    message = refused(s, "p1", "vortex purple 1a.d1", IllegalMoveError)
    assert "not a free purple vortex" in message


def test_vortex_with_several_free_vortexes_is_ambiguous_and_lists_them():
    s = game("1", stack=["2"])
    clear_centre(s)
    explore_at(s, "1a.c1")  # tile 2 north of 1A, as drawn: a purple vortex at 2.b2
    s.state.heroes["purple"] = None
    put(s, "purple", "1a.b2")
    before = snapshot(s)
    with pytest.raises(AmbiguousMoveError) as info:
        s.submit("p1", "vortex purple")
    assert set(info.value.allowed) == {"vortex purple 1a.a1", "vortex purple 2.b2"}
    assert snapshot(s) == before
    s.submit("p1", "vortex purple 2.b2")
    assert heroes(s)["purple"] == "2.b2"


def test_vortex_is_refused_after_the_theft():
    s = theft_game()
    assert host(s)["theft"]
    message = refused(s, "p1", "vortex purple", IllegalMoveError)
    assert message == "the vortexes stopped working at the theft"
    assert not [i for i in s.state.legal_inputs("p1") if i.startswith("vortex")]


def test_escalator_goes_both_ways():
    s = game("1")
    put(s, "yellow", "1a.d2")
    s.submit("p2", "escalator yellow")
    assert heroes(s)["yellow"] == "1a.a3" and s.moves[-1].text == "escalator yellow"
    s.submit("p2", "escalator barbarian")
    assert heroes(s)["yellow"] == "1a.d2"


def test_escalator_on_a_turned_tile_joins_its_two_ends():
    s = game("1", stack=["7"])
    clear_centre(s)
    explore_at(s, "1a.d3")  # tile 7 east of 1A, turned once: escalator 7.b1 <-> 7.d4
    put(s, "orange", "7.b1")
    s.submit("p2", "escalator dwarf")
    assert heroes(s)["orange"] == "7.d4"
    s.submit("p2", "escalator orange")
    assert heroes(s)["orange"] == "7.b1"


def test_escalator_blocked_by_a_hero_at_the_other_end_is_refused():
    s = game("1")
    put(s, "yellow", "1a.d2")
    put(s, "green", "1a.a3")
    message = refused(s, "p2", "escalator yellow", IllegalMoveError)
    assert "1a.a3" in message and "taken" in message
    refused(s, "p2", "escalator green", IllegalMoveError)


def test_escalator_off_an_escalator_is_refused():
    s = game("1")
    message = refused(s, "p2", "escalator purple", IllegalMoveError)
    assert message == "the purple hero is not on an escalator"


# ====================================================================== explore refusals


def test_explore_by_the_wrong_colour_is_refused():
    s = game("1")
    put(s, "purple", "1a.c1")  # the orange exploration square
    message = refused(s, "p2", "explore purple", IllegalMoveError)
    assert "orange exploration square" in message


def test_explore_off_an_exploration_square_is_refused():
    s = game("1")
    message = refused(s, "p2", "explore purple", IllegalMoveError)
    assert message == "the purple hero is not on an unexplored exploration square"


def test_explore_an_explored_square_again_is_refused():
    s = game("1", stack=["3"])
    clear_centre(s)
    explore_at(s, "1a.a2")
    refused(s, "p2", "explore purple", IllegalMoveError)


def test_explore_with_an_empty_stack_is_refused():
    s = game("1")
    clear_centre(s)
    st = s.state
    while st.stack:
        for g in st.mall.squares():
            side = st.mall.unexplored(g)
            if side and st.mall.overlap(joined_origin(g, side)) is None:
                explore_at(s, name_of(s, g))
                break
        else:
            raise AssertionError("no square left to explore")
    assert host(s)["stack"] == 0 and len(host(s)["tiles"]) == 9
    # a hero on an unexplored square of its colour still cannot explore
    for g in st.mall.squares():
        if st.mall.unexplored(g):
            explore_hero = {"p": "purple", "y": "yellow", "g": "green", "o": "orange"}[st.mall.code(g)[1]]
            if st.hero_at(g) in (None, explore_hero):
                put(s, explore_hero, name_of(s, g))
                break
    message = refused(s, "p2", f"explore {explore_hero}", IllegalMoveError)
    assert message == "the stack is empty: no tile is left to explore with"

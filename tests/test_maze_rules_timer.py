"""The Magic Maze rules, one focused test per rule: the sand timer and its hourglasses, the action
tiles passed on a flip, and solo play's deck.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the engine's decisions; how games
are staged (every input under test through ``Session.submit``): ``tests/maze_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import GameOverError, IllegalMoveError, SyntaxInputError, TimeError
from arbiter.engine.clock import MAX_MS, seconds_name

from tests.helpers import host, kinds, of_kind, refused
from tests.maze_staging import D, clear_centre, explore_at, find, game, heroes, put, step_onto, theft_game


# ====================================================================== timer


@pytest.mark.parametrize("at_ms", [10_000, 90_000, 150_000, 179_999])
def test_a_flip_leaves_the_timer_minus_the_time_that_was_left(at_ms):
    s = game("1")  # purple on b2, the hourglass on b1
    events = s.submit("p1", "move purple north", at_ms)
    before = 180_000 - at_ms
    after = 180_000 - before
    (flip,) = of_kind(events, "flip")
    assert flip.data == {"square": "1a.b1", "left": seconds_name(after), "before": seconds_name(before)}
    assert s.state.deadline_ms == at_ms + after
    assert s.state.time_left_ms() == after
    assert "1a.b1" in host(s)["used"]


def test_a_flip_at_170_seconds_left_leaves_10_and_at_30_left_leaves_150():
    s = game("1")
    s.submit("p1", "move purple north", 10_000)
    assert host(s)["time_left"] == "10" and s.state.deadline_ms == 20_000
    s2 = game("1")
    s2.submit("p1", "move purple north", 150_000)
    assert host(s2)["time_left"] == "150" and s2.state.deadline_ms == 300_000


def test_a_used_hourglass_does_not_flip_again():
    s = game("1")
    s.submit("p1", "move purple north", 10_000)  # 10 s left, deadline 20 s
    s.submit("p2", "move purple south 1", 12_000)
    events = s.submit("p1", "move purple north", 14_000)
    assert heroes(s)["purple"] == "1a.b1" and not of_kind(events, "flip")
    assert s.state.deadline_ms == 20_000 and host(s)["time_left"] == "6"
    assert host(s)["used"] == ["1a.b1"]


def test_a_second_hourglass_flips_from_the_time_then_left():
    s = game("1", stack=["3"])
    s.submit("p1", "move purple north", 10_000)  # deadline 20 s
    explore_at(s, "1a.a2", 11_000)  # tile 3 west of 1A, hourglass inside
    (hg,) = [h for h in find(s, "Hg") if h.startswith("3.")]
    events = step_onto(s, "green", hg, 15_000)  # 5 s left -> 175 s left
    (flip,) = of_kind(events, "flip")
    assert flip.data == {"square": hg, "left": "175", "before": "5"}
    assert s.state.deadline_ms == 190_000
    assert s.state.flips == 2


def test_a_bare_move_ending_on_an_hourglass_flips_it():
    s = game("1")
    clear_centre(s)
    put(s, "purple", "1a.b3")
    events = s.submit("p1", "move purple north", 100_000)  # b2, b1 (hourglass), then the wall
    assert s.moves[-1].text == "move purple north 2"
    assert kinds(events) == ["flip", "hero"] and host(s)["time_left"] == "100"


def test_a_move_through_an_hourglass_flips_it_and_goes_on():
    s = game("1", stack=["5"])
    clear_centre(s)
    explore_at(s, "1a.c1")  # tile 5 north of 1A, as drawn: d1, d2 (hourglass), d3, d4 in a column
    assert find(s, "Hg") == ["5.d2", "1a.b1"]
    put(s, "purple", "5.d1")
    events = s.submit("p2", "move purple south", 60_000)
    assert s.moves[-1].text == "move purple south 3" and heroes(s)["purple"] == "5.d4"
    assert kinds(events) == ["flip", "hero"] and events[0].data["square"] == "5.d2"
    assert host(s)["time_left"] == "60" and host(s)["used"] == ["5.d2"]


def test_hourglasses_still_flip_after_the_theft():
    s = theft_game()
    assert host(s)["theft"]
    now = s.clock_ms + 1_000
    left = s.state.deadline_ms - now
    events = step_onto(s, "purple", "1a.b1", now)
    assert of_kind(events, "flip") and s.state.time_left_ms() == 180_000 - left


def test_the_clock_never_runs_backwards():
    s = game("1")
    s.submit("p2", "move purple west", 50_000)
    refused(s, "p1", "move purple east", TimeError, 49_999)
    with pytest.raises(TimeError):
        s.advance_to(10_000)
    assert s.clock_ms == 50_000


def test_an_input_at_the_deadline_is_refused_and_the_loss_is_recorded():
    s = game("1")
    s.submit("p1", "say hello", 179_999)  # 0.001 s left: still in time
    assert not s.over and host(s)["time_left"] == "0.001"
    moves = len(s.moves)
    with pytest.raises(GameOverError):
        s.submit("p2", "move purple west", 180_000)
    assert s.over and len(s.moves) == moves
    result = host(s)["result"]
    assert (result["winner"], result["reason"], result["winners"]) == (None, "time", [])
    assert s.entries[-1] == {"tick": {"time": 180}}
    assert of_kind(s.events, "game-over")[-1].data["reason"] == "time"
    assert heroes(s)["purple"] == "1a.b2"


def test_an_input_with_a_thousandth_of_a_second_left_is_accepted():
    s = game("1")
    s.submit("p2", "move purple west", 179_999)
    assert heroes(s)["purple"] == "1a.a2" and not s.over
    assert s.moves[-1].time_ms == 179_999


def test_the_deadline_moves_with_a_flip():
    s = game("1")
    s.submit("p1", "move purple north", 10_000)  # deadline 20 s
    s.submit("p2", "move green west", 19_999)
    with pytest.raises(GameOverError):
        s.submit("p2", "move yellow south", 20_000)
    assert host(s)["result"]["reason"] == "time" and s.state.now_ms == 20_000


def test_advance_to_exactly_the_deadline_ends_the_game():
    s = game("1")
    s.advance_to(179_999)
    assert not s.over
    events = s.advance_to(180_000)
    assert kinds(events) == ["game-over"] and host(s)["result"]["reason"] == "time"
    assert s.entries[-1] == {"tick": {"time": 180}}


def test_advance_past_the_deadline_ends_the_game_at_the_deadline():
    s = game("1")
    events = s.advance_to(179_000)
    assert events == [] and not s.over
    events = s.advance_to(250_000)
    assert kinds(events) == ["game-over"] and s.over
    assert host(s)["result"]["reason"] == "time" and s.state.now_ms == 180_000
    assert host(s)["time_left"] == "0"
    with pytest.raises(GameOverError):
        s.submit("p1", "say anyone?", 260_000)


def test_time_that_does_not_pass_records_nothing_and_the_clock_stops_at_its_largest_value():
    """Time recorded (a tick) is time that passed in a game going on: a stamp equal to the
    clock's, or any stamp once the game is over, records nothing and tells nothing. The clock
    may reach its largest value, and not pass it."""
    s = game("1")
    s.advance_to(1_000)
    entries = list(s.entries)
    assert s.advance_to(1_000) == [] and s.entries == entries
    s.advance_to(250_000)  # the sand ran out
    entries = list(s.entries)
    assert s.over and s.advance_to(300_000) == [] and s.entries == entries
    last = game("1")
    last.advance_to(MAX_MS)
    assert last.clock_ms == MAX_MS and last.over
    with pytest.raises(TimeError, match="cannot pass"):
        game("1").advance_to(MAX_MS + 1)


def test_inputs_without_a_time_take_the_scenario_step():
    s = game("1")
    s.submit("p1", "move purple north")  # at 1 s: 179 s left -> 1 s left
    assert s.moves[-1].time_ms == 1_000 and host(s)["time_left"] == "1"
    with pytest.raises(GameOverError):
        s.submit("p2", "move purple south")  # at 2 s, the deadline
    assert s.over


def test_a_flip_with_a_full_timer_leaves_no_time_and_the_game_is_lost():
    s = game("1")
    s.submit("p1", "move purple north", 0)  # 180 s left -> 0 s left: the sand has run out
    assert s.state.deadline_ms == 0
    with pytest.raises(GameOverError):
        s.submit("p2", "move purple south", 0)
    assert s.over and host(s)["result"]["reason"] == "time"


def test_a_flip_that_leaves_no_sand_ends_the_game_after_its_move():
    """The move onto the hourglass is told (its ``hero`` event) before the game is over."""
    s = game("2", players=2)
    events = s.submit("p1", "move purple north 1", 0)
    assert kinds(events) == ["silence", "flip", "talk", "hero", "game-over"]
    assert s.over and host(s)["result"]["reason"] == "time" and heroes(s)["purple"] == "1a.b1"
    assert s.state.result.text == "The flip left no sand at 0 s: everyone loses."


# ====================================================================== passing on a flip


def test_from_scenario_3_every_flip_passes_each_seats_tiles_to_the_next_seat():
    s = game("3")
    events = s.submit("p1", "move purple north", 100_000)
    # the first action ends the start's talk window; its flip passes the tiles, then opens talk
    assert kinds(events) == ["silence", "flip", "pass", "talk", "hero"]  # passing comes before talking
    assert of_kind(events, "pass")[0].data == {"hands": {"p1": ["escalator", "explore", "south", "west"],
                                                          "p2": ["vortex", "north", "east"]}}
    assert host(s)["hands"] == {"p1": ["escalator", "explore", "south", "west"],
                                "p2": ["vortex", "north", "east"]}
    refused(s, "p1", "move purple north", IllegalMoveError)
    s.submit("p2", "vortex green")


def test_passing_with_three_players_rotates_p1_to_p2_and_the_last_to_p1():
    s = game("3", players=3)
    assert host(s)["hands"] == {"p1": ["vortex", "west"], "p2": ["escalator", "explore", "south"],
                                "p3": ["north", "east"]}
    s.submit("p3", "move purple north", 100_000)
    assert host(s)["hands"] == {"p1": ["north", "east"], "p2": ["vortex", "west"],
                                "p3": ["escalator", "explore", "south"]}


@pytest.mark.parametrize("scenario", ["1", "2"])
def test_no_passing_in_scenarios_1_and_2(scenario):
    s = game(scenario)
    hands = host(s)["hands"]
    events = s.submit("p1", "move purple north", 100_000)
    assert "flip" in kinds(events) and "pass" not in kinds(events)
    assert host(s)["hands"] == hands


def test_no_passing_in_solo():
    s = game("3", players=1, extra=[ChanceRecord("solo-deck", list(D.solo))])
    s.submit("p1", "draw")  # north
    events = s.submit("p1", "move purple north", 100_000)
    assert "flip" in kinds(events) and "pass" not in kinds(events)
    assert "hands" not in host(s)


# ====================================================================== solo deck

DECK = ["explore", "north", "vortex", "south", "west", "escalator", "east"]


def test_solo_starts_with_nothing_in_hand_and_draw_turns_the_deck_top():
    s = game("1", players=1, deck=DECK)
    assert host(s)["deck"] == 7 and host(s)["discard_top"] is None
    message = refused(s, "p1", "move purple north", IllegalMoveError)
    assert "nothing yet (draw)" in message
    events = s.submit("p1", "draw")
    assert [(e.kind, e.data) for e in events] == [("draw", {"action": "explore"})]
    assert host(s)["deck"] == 6 and host(s)["discard_top"] == "explore"
    s.submit("p1", "draw")
    assert host(s)["deck"] == 5 and host(s)["discard_top"] == "north"


def test_solo_only_the_discard_top_is_usable():
    s = game("1", players=1, deck=DECK)
    s.submit("p1", "draw")
    s.submit("p1", "draw")  # north on top of explore
    refused(s, "p1", "explore purple", IllegalMoveError)
    put(s, "purple", "1a.a2")
    s.submit("p1", "move yellow north")
    assert heroes(s)["yellow"] == "1a.c1"


def test_solo_deck_draws_in_order_and_refills_unshuffled_from_the_discard():
    s = game("1", players=1, deck=DECK)
    seen = []
    for _ in range(7):
        s.submit("p1", "draw")
        seen.append(host(s)["discard_top"])
    assert seen == DECK and host(s)["deck"] == 0
    records = len(s.chance.records)
    events = s.submit("p1", "draw")
    assert kinds(events) == ["solo-deck", "draw"] and events[1].data == {"action": DECK[0]}
    assert host(s)["deck"] == 6 and len(s.chance.records) == records  # no shuffle
    for expected in DECK[1:]:
        s.submit("p1", "draw")
        assert host(s)["discard_top"] == expected


def test_solo_flip_shuffles_deck_and_discard_into_a_new_deck():
    reshuffled = ["west", "east", "south", "north", "vortex", "escalator", "explore"]
    s = game("1", players=1, deck=DECK, extra=[ChanceRecord("solo-deck", reshuffled)])
    s.submit("p1", "draw")
    s.submit("p1", "draw")  # north
    events = s.submit("p1", "move purple north", 100_000)
    assert kinds(events) == ["flip", "solo-deck", "hero"]
    assert s.chance.records[-1] == ChanceRecord("solo-deck", reshuffled)
    assert s.entries[-2]["move"]["text"] == "move purple north 1"
    assert s.entries[-1] == {"chance": {"what": "solo-deck", "outcome": reshuffled}}
    assert host(s)["deck"] == 7 and host(s)["discard_top"] is None
    refused(s, "p1", "move purple south", IllegalMoveError)
    for expected in reshuffled:
        s.submit("p1", "draw")
        assert host(s)["discard_top"] == expected


def test_draw_outside_solo_is_refused():
    s = game("1")
    refused(s, "p1", "draw", IllegalMoveError)
    refused(s, "p1", "draw now", SyntaxInputError)

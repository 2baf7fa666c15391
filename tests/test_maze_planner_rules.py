"""The Magic Maze planner's decisions, one rule a test (``engine/games/magic_maze/planner.py``;
how its searches match a plain search is ``test_maze_planner_search.py``)."""

from __future__ import annotations

from arbiter.engine import registry
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import move_name
from arbiter.engine.session import Session

MAZE = registry.get("magic-maze")


def test_an_hourglass_is_worth_a_flip_only_when_fewer_inputs_away_than_whole_steps_left() -> None:
    """Scenario 5, two players, seed 1: the green hero is two inputs from the only hourglass.
    With more than half the sand run, the team goes for it while the sand holds three whole
    steps; with two, the way would take all that is left, and the team plays for its items.
    The second position reads the same searches as the first (time alone passed), already
    grown past the hourglass, as in play: the bound is the planner's, not where a search stopped."""
    name, options = MAZE.choose_setup("5", 2)
    s = Session(MAZE, name, seed=1, options=options)
    state = s.state
    step, timer = state.scenario.step_ms, state.scenario.timer_ms
    for left_ms, phase, budget in ((3 * step + step // 2, "flip", 3), (2 * step + step // 2, "items", None)):
        s.advance_to(timer - left_ms)
        a = planner.analyse(state)
        assert planner.flip_wanted(state) and a.maps["green"].nearest(state.unused("hourglass")) == 2
        assert (a.phase, a.budget) == (phase, budget), left_ms
        first = planner.plans(state)[0]
        assert (first.hero == "green") == (phase == "flip"), first


def test_a_flips_steps_are_those_of_heroes_fewer_inputs_away_than_whole_steps_left() -> None:
    """Scenario 2, two players, seed 1: green is one input from the hourglass, purple two. With
    three whole steps left both heroes' ways are steps of the plan; with two, only green's."""
    name, options = MAZE.choose_setup("2", 2)
    s = Session(MAZE, name, seed=1, options=options)
    state = s.state
    step, timer = state.scenario.step_ms, state.scenario.timer_ms
    hourglass = state.unused("hourglass")
    for left_ms, goals, steps in ((3 * step + step // 2, {"purple": set(hourglass), "green": set(hourglass)},
                                   ["move green north 1", "vortex purple 1a.a1"]),
                                  (2 * step + step // 2, {"green": set(hourglass)}, ["move green north 1"])):
        s.advance_to(timer - left_ms)
        a = planner.analyse(state)
        assert (a.phase, a.goals) == ("flip", goals), left_ms
        assert [move_name(m) for m in planner.plans(state)] == steps, left_ms

"""The Magic Maze rules, one focused test per rule: the scenarios' data (start tile, stack, the
rules each scenario adds) and the action tiles dealt by player count, as the rules' tables give
them (docs/rules/magic-maze.md, "Scenario rules" and "Seats and actions").

The engine reads these from ``scenarios/magic_maze/*.yaml``; a scenario that lost a tile of its
stack, or a player count dealt the wrong tiles, would still play, so the tables are held here.
"""

from __future__ import annotations

import pytest

from tests.helpers import host
from tests.maze_staging import D, game

TILES = {n: [str(t) for t in range(2, n + 1)] for n in (9, 12, 14, 17, 19)}
SCENARIOS = {
    # name: (start, stack (shuffled), on top, exits, talk, passing, elf talk, crystal, cameras)
    "1": ("1A", TILES[9], [], "shared", "always", False, False, False, False),
    "2": ("1A", TILES[12], [], "own", "windows", False, False, False, False),
    "3": ("1A", TILES[12], [], "own", "windows", True, False, False, False),
    "4": ("1A", TILES[14], [], "own", "windows", True, True, False, False),
    "5": ("1B", TILES[14], ["15"], "own", "windows", True, True, True, False),
    "6": ("1B", TILES[17], [], "own", "windows", True, True, True, True),
    "7": ("1B", TILES[19], [], "own", "windows", True, True, True, True),
}
"""Each scenario's row of the rules' table: scenario 5 shuffles 2-14 and puts 15 on top."""

HANDS = {
    2: [["vortex", "north", "east"], ["escalator", "explore", "south", "west"]],
    3: [["vortex", "west"], ["escalator", "explore", "south"], ["north", "east"]],
    4: [["vortex", "west"], ["explore", "south"], ["escalator", "east"], ["north"]],
}
HANDS[5] = HANDS[4] + [["west"]]
HANDS[6] = HANDS[5] + [["east"]]
HANDS[7] = HANDS[6] + [["south"]]
HANDS[8] = HANDS[7] + [["north"]]
"""The action tiles by player count: 5 to 8 players add one direction each to the 4-player set."""


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_each_scenario_has_the_start_stack_and_rules_of_the_table(name):
    start, stack, on_top, exits, talk, passing, elf, crystal, cameras = SCENARIOS[name]
    sc = D.scenarios[name]
    assert (sc.start, sorted(sc.stack, key=int), list(sc.on_top)) == (start, stack, on_top)
    assert (sc.exits, sc.talk, sc.pass_on_flip, sc.elf_talk, sc.crystal, sc.cameras) == (
        exits, talk, passing, elf, crystal, cameras)
    assert sc.timer_ms == 180_000
    s = game(name)
    assert host(s)["tiles"] == [{"tile": start, "origin": [0, 0], "quarters": 0}]
    assert host(s)["stack"] == len(stack) + len(on_top)
    assert s.state.stack[:len(on_top)] == on_top


def test_only_the_tiles_of_scenario_4_on_have_orange_walls():
    """Orange walls come in with scenario 4: no tile of an earlier stack has one."""
    orange = {n for n, t in D.tiles.items() if "orange" in t.side.values()}
    for name in "123":
        assert not orange & set(D.scenarios[name].stack)
    assert orange <= set(D.scenarios["4"].stack) | {"15", "16", "19"}


@pytest.mark.parametrize("players", list(HANDS))
def test_each_player_count_is_dealt_the_action_tiles_of_the_table(players):
    assert [list(t) for t in D.actions[players]] == HANDS[players]
    s = game("2", players=players)
    assert host(s)["hands"] == {f"p{i + 1}": hand for i, hand in enumerate(HANDS[players])}


def test_solo_plays_from_a_deck_of_the_seven_one_action_tiles():
    assert sorted(D.solo) == sorted(["north", "south", "east", "west", "explore", "escalator", "vortex"])
    s = game("2", players=1)
    assert "hands" not in host(s) and host(s)["deck"] == 7 and host(s)["discard_top"] is None

"""The Magic Maze rules, one focused test per rule: the tiles' maps as the data gives them, and where
an explored tile is placed, turned and joined.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the engine's decisions; how games
are staged (every input under test through ``Session.submit``): ``tests/maze_staging.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from arbiter.engine.errors import IllegalMoveError, ScenarioError
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.mall import joined_origin
from arbiter.engine.games.magic_maze.tiles import DOORS, EXAMPLE, STEP, Tile, TileError, check_tile, parse_map
from arbiter.engine.scenario import Node

from tests.helpers import host, refused
from tests.maze_staging import (
    D,
    DIR_NAME,
    OPP,
    act,
    clear_1b,
    clear_centre,
    explore_at,
    g_of,
    game,
    heroes,
    name_of,
    put,
)


# ======================================================================= tiles: parsing

VALID = """\
+--+--+--+--+
|.. .. .. ..|
+  +  +  +  +
|.. .. .. ..|
+  +  +  +  +
|.. .. .. ..|
+  +  +  +  +
|.. In .. ..|
+--+  +--+--+
"""


def with_rows(base: str, **rows: str) -> str:
    """``base`` with some lines replaced: ``l3="..."`` replaces line 3 (1-based)."""
    lines = base.rstrip("\n").split("\n")
    for key, text in rows.items():
        lines[int(key[1:]) - 1] = text
    return "\n".join(lines) + "\n"


def test_the_example_map_parses_square_codes_and_wall_kinds():
    t = parse_map("x", EXAMPLE)
    assert t.code[(3, 1)] == "In" and t.code[(1, 1)] == "##" and t.code[(1, 2)] == "Vg"
    assert t.side[((1, 1), "E")] == "wall" and t.side[((1, 2), "W")] == "wall"
    assert t.side[((1, 2), "S")] == "orange" and t.side[((2, 2), "N")] == "orange"
    assert t.side[((3, 1), "S")] == "open" and t.side[((0, 0), "N")] == "wall"
    assert t.side[((0, 0), "E")] == "open" and t.kind((1, 2)) == ("vortex", "green")
    check_tile(t, start=False)


def test_a_valid_plain_tile_passes_the_check():
    check_tile(parse_map("x", VALID), start=False)


BROKEN = {
    "closed door edge": (with_rows(VALID, l2="|.. .. Eg ..|"), (0, 2), "the N edge at this door must be open"),
    "unreachable square": (with_rows(VALID, l2="|.. .. ..|..|", l3="+  +  +  +--+"), (0, 3),
                           "no hero can reach this square from the entrance"),
    "entrance not at b4": (with_rows(VALID, l1="+--+--+  +--+", l2="|.. .. In ..|", l8="|.. .. .. ..|",
                                     l9="+--+--+--+--+"), (0, 2),
                           "a tile has exactly one entrance, at its south door (b4)"),
    "entrance off the doors": (with_rows(VALID, l4="|.. In .. ..|"), (1, 1), "must stand on a door square"),
    "escalator with one end": (with_rows(VALID, l2="|S1 .. .. ..|"), (0, 0), "escalator S1 has 1 ends; it needs 2"),
    "item behind an orange wall": (with_rows(VALID, l2="|.. .. ..!Ip|", l3="+  +  +  +==+"), (0, 3),
                                   "this item can be reached only through an orange wall"),
    "exit behind an orange wall": (with_rows(VALID, l2="|.. .. ..!Xg|", l3="+  +  +  +==+"), (0, 3),
                                   "this exit can be reached only through an orange wall"),
    "hourglass behind an orange wall": (with_rows(VALID, l2="|.. .. ..!Hg|", l3="+  +  +  +==+"), (0, 3),
                                        "this hourglass can be reached only through an orange wall"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_map_raises_tile_error_naming_the_square(case):
    text, square, problem = BROKEN[case]
    with pytest.raises(TileError) as info:
        check_tile(parse_map("20", text), start=False)
    assert info.value.square == square
    assert problem in info.value.problem
    name = "abcd"[square[1]] + str(square[0] + 1)
    assert str(info.value).startswith(f"square {name} (row {square[0]}, column {square[1]}): ")


def test_a_vortex_behind_an_orange_wall_is_allowed():
    check_tile(parse_map("x", with_rows(VALID, l2="|.. .. ..!Vp|", l3="+  +  +  +==+")), start=False)


@pytest.mark.parametrize("code", ["Zz", "Vz", "Zg", "Sx"])  # neither part known; a kind with no colour; a colour with no kind
def test_an_unknown_square_code_is_refused_at_parse_time_with_its_square(code: str):
    with pytest.raises(TileError) as info:
        parse_map("x", with_rows(VALID, l4=f"|.. .. {code} ..|"))
    assert info.value.square == (1, 2) and f"unknown square code {code!r}" in info.value.problem


def test_a_bad_wall_mark_is_refused_with_its_square():
    with pytest.raises(TileError) as info:
        parse_map("x", with_rows(VALID, l4="|.. ..x.. ..|"))
    assert info.value.square == (1, 1) and "not a wall mark on its E side" in info.value.problem


def test_a_map_with_the_wrong_number_of_lines_is_refused():
    with pytest.raises(TileError) as info:
        parse_map("x", "\n".join(VALID.split("\n")[:7]))
    assert info.value.square is None and "9 lines" in str(info.value)


def test_a_start_tile_needs_four_exploration_doors_and_no_entrance():
    with pytest.raises(TileError) as info:
        check_tile(parse_map("1A", VALID), start=True)
    assert info.value.square == (3, 1) and "a start tile has no entrance" in info.value.problem


def _tiles_doc(extra_name: str, extra_map: str) -> Node:
    raw = D.raw["tiles"]
    tiles = {"1A": raw["tiles"]["1A"], "1B": raw["tiles"]["1B"], extra_name: {"map": extra_map}}
    return Node({"game": "magic-maze", "kind": "tiles", "tiles": tiles}, "tiles.yaml")


@pytest.mark.parametrize("case", ["unreachable square", "item behind an orange wall", "closed door edge"])
def test_parse_tiles_reports_a_broken_map_as_scenario_error_naming_tile_and_square(case):
    text, square, problem = BROKEN[case]
    with pytest.raises(ScenarioError) as info:
        mm.parse_tiles(_tiles_doc("20", text))
    name = "abcd"[square[1]] + str(square[0] + 1)
    assert info.value.source == "tiles.yaml" and info.value.path == "tiles.20.map"
    assert info.value.problem.startswith(f"tile 20: square {name} ")
    assert problem in info.value.message


def test_parse_tiles_accepts_a_good_extra_tile():
    tiles = mm.parse_tiles(_tiles_doc("20", VALID))
    assert set(tiles) == {"1A", "1B", "20"} and tiles["20"].code[(3, 1)] == "In"


def test_every_packaged_tile_parses_and_passes_the_check():
    raw = D.raw["tiles"]["tiles"]
    assert set(raw) == {"1A", "1B"} | {str(n) for n in range(2, 20)}
    for name, node in raw.items():
        tile = parse_map(name, node["map"])
        check_tile(tile, start=name in ("1A", "1B"))
        assert tile.code == D.tiles[name].code


# Per tile (the game's component table): exploration colours by door side (start tiles) or as a multiset,
# then the contents (items I, exits X, vortexes V, hourglass Hg, ball Cb, camera Cm), the
# number of escalators, and whether it has orange walls.
TABLE = {
    "1A": ({"N": "o", "E": "g", "S": "y", "W": "p"}, "Hg Vp Vy Vg Vo", 1, False),
    "1B": ({"N": "g", "E": "y", "S": "o", "W": "p"}, "Hg", 1, False),
    "2": ("o", "Xp Vp Vg", 1, False),
    "3": ("py", "Hg Vg Vo", 0, False),
    "4": ("pg", "Hg Vo Vy", 0, False),
    "5": ("yog", "Hg Vp", 0, False),
    "6": ("og", "Iy Vp", 0, False),
    "7": ("p", "Io Vg Vy", 1, False),
    "8": ("po", "Ig Vy", 0, False),
    "9": ("y", "Ip Vo", 0, False),
    "10": ("yp", "Xg Vo Vg", 1, False),
    "11": ("og", "Xy Vy", 0, False),
    "12": ("y", "Xo Vo Vp", 2, False),
    "13": ("gy", "Vp", 0, True),
    "14": ("go", "Vp Vy", 1, True),
    "15": ("go", "Vy Cb", 1, True),
    "16": ("po", "Cm Vg", 0, True),
    "17": ("o", "Cm Cb Vg", 0, False),
    "18": ("g", "Cm Vp", 0, False),
    "19": ("poy", "Cm Vg", 0, True),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_each_packaged_tile_has_the_features_of_the_table(name):
    explore, contents, escalators, orange = TABLE[name]
    tile = D.tiles[name]
    doors = {s: tile.code[c][1] for s, c in DOORS.items() if tile.code[c][0] == "E"}
    if isinstance(explore, dict):
        assert doors == explore
    else:
        assert sorted(doors.values()) == sorted(explore)
        assert "S" not in doors and tile.code[DOORS["S"]] == "In"
    found = Counter(v for v in tile.code.values() if v != "In" and (v[0] in "IXV" or v in ("Hg", "Cb", "Cm")))
    assert found == Counter(contents.split())
    assert len(tile.escalators) == 2 * escalators
    assert ("orange" in tile.side.values()) is orange


# ====================================================================== geometry


def test_turned_zero_to_three_quarters_moves_doors_north_east_south_west():
    t = parse_map("x", EXAMPLE)
    for q in range(4):
        turned = t.turned(q)
        # the south door (the entrance) goes S -> W -> N -> E
        assert turned.code[DOORS["SWNE"[q]]] == "In"
    assert t.turned(0).code == t.code and t.turned(0).side == t.side
    assert t.turned(4).code == t.code and t.turned(4).side == t.side


@pytest.mark.parametrize("q", range(4))
def test_turned_moves_every_code_by_r_c_to_c_3_minus_r(q):
    t = D.tiles["12"]
    turned = t.turned(q)
    for (r, c), v in t.code.items():
        rr, cc = r, c
        for _ in range(q):
            rr, cc = cc, 3 - rr
        assert turned.code[(rr, cc)] == v
    # walls turn with their squares: the north side of a square becomes the east side, ...
    dirs = "NESW"
    for ((r, c), d), v in t.side.items():
        rr, cc, dd = r, c, d
        for _ in range(q):
            rr, cc, dd = cc, 3 - rr, dirs[(dirs.index(dd) + 1) % 4]
        assert turned.side[((rr, cc), dd)] == v


@settings(max_examples=60, deadline=None)
@given(name=hs.sampled_from(sorted(D.tiles)), a=hs.integers(0, 7), b=hs.integers(0, 7))
def test_turning_adds_up_and_four_quarters_are_the_identity(name, a, b):
    t = D.tiles[name]
    assert t.turned(a).turned(b).code == t.turned(a + b).code
    assert t.turned(a).turned(b).side == t.turned(a + b).side
    assert t.turned(4 * a).code == t.code and t.turned(4 * a).side == t.side


def test_one_quarter_turn_takes_the_north_door_to_the_east_door():
    t = D.tiles["3"]  # Ep at the north door c1, Ey at the west door a2, In at b4
    one = t.turned(1)
    assert one.code[(2, 3)] == "Ep" and one.code[(0, 2)] == "Ey" and one.code[(1, 0)] == "In"
    assert isinstance(one, Tile) and one.name == "3"


# side of 1A -> (exploring hero, exploration square, origin, quarters, entrance as placed)
SIDES = {
    "N": ("orange", "1a.c1", (-4, 1), 0, "b4"),
    "E": ("green", "1a.d3", (1, 4), 1, "a2"),
    "S": ("yellow", "1a.b4", (4, -1), 2, "c1"),
    "W": ("purple", "1a.a2", (-1, -4), 3, "d3"),
}


@pytest.mark.parametrize("side", "NESW")
def test_joining_at_each_side_of_the_start_tile(side):
    hero, square, origin, quarters, entrance = SIDES[side]
    s = game("1", stack=["3"])
    clear_centre(s)
    put(s, hero, square)
    events = act(s, f"explore {hero}")
    assert s.moves[-1].text == f"explore {hero}"
    assert [(e.kind, e.data) for e in events] == [
        ("explore", {"tile": "3", "at": square, "origin": list(origin), "quarters": quarters})]
    assert host(s)["tiles"][-1] == {"tile": "3", "origin": list(origin), "quarters": quarters}
    assert host(s)["stack"] == 7
    assert joined_origin(g_of(s, square), side) == origin
    # the new tile's entrance is the neighbour of the exploration square, beyond it
    g = g_of(s, square)
    beyond = (g[0] + STEP[side][0], g[1] + STEP[side][1])
    assert s.state.mall.code(beyond) == "In" and name_of(s, beyond) == f"3.{entrance}"
    assert s.state.mall.side(g, side) == "open" and s.state.mall.side(beyond, OPP[side]) == "open"
    assert s.state.mall.unexplored(g) is None
    # the passage is open both ways
    act(s, f"move {hero} {DIR_NAME[side]} 1")
    assert heroes(s)[hero] == f"3.{entrance}"
    act(s, f"move {hero} {DIR_NAME[OPP[side]]} 1")
    assert heroes(s)[hero] == square


def test_a_long_move_crosses_from_the_start_tile_into_a_joined_tile():
    s = game("1", stack=["3"])
    clear_centre(s)
    explore_at(s, "1a.b4")  # tile 3 south of 1A, turned twice: its entrance at 3.c1
    put(s, "yellow", "1a.b2")
    act(s, "move yellow south")
    # b2 -> b3 -> b4 -> 3.c1 (tile 3's entrance, turned twice: a wall south of it)
    assert s.moves[-1].text == "move yellow south 3"
    assert heroes(s)["yellow"] == "3.c1"


def test_tiles_join_staggered_and_neighbour_tiles_do_not_share_squares():
    s = game("1", stack=["3", "4", "5", "6"])
    clear_centre(s)
    for sq in ("1a.c1", "1a.d3", "1a.b4", "1a.a2"):
        explore_at(s, sq)
    assert [t["origin"] for t in host(s)["tiles"]] == [[0, 0], [-4, 1], [1, 4], [4, -1], [-1, -4]]
    assert len(s.state.mall.at) == 5 * 16


def test_an_overlapping_placement_is_refused_and_the_tile_stays_on_top():
    s = game("1", stack=["5"])
    clear_centre(s)
    # Staging beyond the heroes (on the staggered grid no sequence of explorations overlaps, so
    # this cannot be reached by inputs): tile 19, not in scenario 1, laid directly at (-6, 4),
    # clear of the square beyond 1a.c1 but across the place a tile joined there would take.
    s.state.mall.place("19", D.tiles["19"], (-6, 4), 0)
    put(s, "orange", "1a.c1")
    assert s.state.mall.unexplored(g_of(s, "1a.c1")) == "N"
    message = refused(s, "p2", "explore orange", IllegalMoveError)
    assert message == "the next tile would overlap 19.a3 here; this square cannot be explored"  # not named
    assert s.state.stack[0] == "5" and host(s)["stack"] == 8
    assert s.state.mall.unexplored(g_of(s, "1a.c1")) == "N"
    assert "explore orange" not in s.state.legal_inputs("p2")


def test_on_the_staggered_grid_no_exploration_ever_overlaps():
    # every tile lies at a * (-4, 1) + b * (1, 4) from the start tile, and no two such places
    # share a square: exploring all 18 tiles of scenario 7 never meets an overlap
    s = game("7")
    clear_1b(s)
    st = s.state
    while st.stack:
        open_squares = [g for g in st.mall.squares() if st.mall.unexplored(g)]
        assert open_squares
        for g in open_squares:
            assert st.mall.overlap(joined_origin(g, st.mall.unexplored(g))) is None, name_of(s, g)
        explore_at(s, name_of(s, open_squares[0]), st.now_ms + 1)
    assert len(st.mall.placed) == 19 and len(st.mall.at) == 19 * 16
    for p in st.mall.placed:
        a, b = p.origin
        # (a, b) = x * (-4, 1) + y * (1, 4) with whole x, y
        assert (4 * a - b) % 17 == 0 and (a + 4 * b) % 17 == 0


def test_the_mall_refuses_to_place_a_tile_over_another():
    s = game("1")
    mall = s.state.mall
    with pytest.raises(ValueError, match="tile 3 would overlap 1a.d4"):
        mall.place("3", D.tiles["3"], (3, 3), 0)
    assert [p.name for p in mall.placed] == ["1A"] and len(mall.at) == 16

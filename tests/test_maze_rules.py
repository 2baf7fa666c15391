"""The Magic Maze rules, one focused test per rule.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the decisions taken by the engine
(a straight move enters every square on its path: hourglasses flip, usable exits take the hero
out and stop the move, the barbarian disables cameras; a bare ``move HERO DIR`` goes as far as
it can and is recorded with its count).

Games are staged with recorded chance outcomes (``stack``, ``heroes``, ``solo-deck``). Where a
test needs a hero on a particular square, ``put`` sets ``state.heroes`` directly (staging only;
every input under test goes through ``Session.submit``). Squares are read as ``TILE.CELL``.

The start tile 1A, as drawn (heroes in the default staging: purple b2, yellow c2, green b3,
orange c3):

    +--+--+  +--+
    |Vp Hg|Eo Vy|
    +--+  +  +  +
     Ep .. .. S1|
    +  +  +  +--+
    |S1 .. .. Eg
    +--+  +  +  +
    |Vg Ey Vo ##|
    +--+  +--+--+

Two players: p1 holds vortex, north, east; p2 holds escalator, explore, south, west.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from tests.helpers import host, kinds, of_kind, refused, snapshot
from arbiter.engine import registry
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    InputError,
    ScenarioError,
    SyntaxInputError,
    TimeError,
)
from arbiter.engine.clock import MAX_MS, seconds_name
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.mall import joined_origin
from arbiter.engine.games.magic_maze.moves import FORMS, Move, action_needed, parse_move
from arbiter.engine.games.magic_maze.tiles import (
    DOORS,
    EXAMPLE,
    STEP,
    Tile,
    TileError,
    check_tile,
    parse_map,
)
from arbiter.engine.scenario import Node
from arbiter.engine.session import Session

MAZE = registry.get("magic-maze")
D = mm.load()
HEROES = ("purple", "yellow", "green", "orange")
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
DIR_NAME = {"N": "north", "E": "east", "S": "south", "W": "west"}


# ============================================================================== helpers


def game(scenario: str = "1", *, players: int = 2, stack=(), heroes=HEROES, deck=None,
         extra=(), seed: int = 0) -> Session:
    """A game of ``scenario`` whose stack starts with ``stack`` (the rest in data order), whose
    heroes stand on b2, c2, b3, c3 of the start tile in ``heroes`` order, and (solo) whose deck
    is ``deck``; ``extra`` are later chance outcomes (solo reshuffles)."""
    sc = D.scenarios[scenario]
    order = list(stack) + [t for t in sc.stack if t not in stack]
    records = [ChanceRecord("stack", order), ChanceRecord("heroes", list(heroes))]
    if players == 1:
        records.append(ChanceRecord("solo-deck", list(deck or D.solo)))
    records += list(extra)
    return Session(MAZE, scenario, seed=seed, options={"players": players}, recorded=records)








def g_of(s: Session, name: str):
    g = s.state.mall.parse_square(name)
    assert g is not None and g in s.state.mall.at, name
    return g


def name_of(s: Session, g) -> str:
    return s.state.mall.square_name(g)


def find(s: Session, code: str) -> list[str]:
    """Names of the squares with ``code`` (e.g. ``Hg``, ``Ip``), in grid order."""
    return [name_of(s, g) for g in s.state.mall.squares() if s.state.mall.code(g) == code]


def put(s: Session, hero: str, square: str) -> None:
    """Staging: stand ``hero`` on ``square`` (directly in the state; not an input)."""
    g = g_of(s, square)
    other = s.state.hero_at(g)
    assert other in (None, hero), f"{square} is taken by {other}"
    s.state.heroes[hero] = g


def seat_with(s: Session, action: str) -> str:
    for seat in s.state.seats:
        if action in s.state.actions_of(seat):
            return seat
    raise AssertionError(f"no seat holds {action}")


def act(s: Session, text: str, time_ms: int | None = None):
    """Submit ``text`` from a seat that holds the action it needs."""
    words = text.split()
    need = {"move": lambda: {"n": "north", "e": "east", "s": "south", "w": "west"}.get(words[2][0]),
            "vortex": lambda: "vortex", "escalator": lambda: "escalator", "explore": lambda: "explore"}
    seat = seat_with(s, need[words[0]]()) if words[0] in need else "p1"
    return s.submit(seat, text, time_ms)


def heroes(s: Session) -> dict:
    return host(s)["heroes"]






def explore_at(s: Session, square: str, time_ms: int | None = None):
    """Stand the hero of the exploration square's colour on it (staging) and explore."""
    code = s.state.mall.code(g_of(s, square))
    assert code[0] == "E", square
    hero = {"p": "purple", "y": "yellow", "g": "green", "o": "orange"}[code[1]]
    put(s, hero, square)
    return act(s, f"explore {hero}", time_ms)


def approach(s: Session, target: str, *, hero: str):
    """A free square next to ``target`` with an open side toward it (not an hourglass, camera or
    exit), and the direction from there: where a one-square move onto ``target`` starts."""
    t = g_of(s, target)
    st = s.state
    for d in "NESW":
        n = (t[0] - STEP[d][0], t[1] - STEP[d][1])
        if n not in st.mall.at or st.hero_at(n) not in (None, hero):
            continue
        if st.kind(n)[0] in ("blocked", "hourglass", "camera", "exit"):
            continue
        if st.mall.side(n, d) == "open":
            return name_of(s, n), d
    raise AssertionError(f"no open approach to {target}")


def step_onto(s: Session, hero: str, target: str, time_ms: int | None = None):
    """Stand ``hero`` next to ``target`` (staging), then move it one square onto ``target``."""
    start, d = approach(s, target, hero=hero)
    put(s, hero, start)
    return act(s, f"move {hero} {DIR_NAME[d]} 1", time_ms)


def clear_centre(s: Session) -> None:
    """Staging: purple to 1a.a1, yellow 1a.d1, green 1a.a4, orange 1a.c4 (out of the centre)."""
    for hero in HEROES:
        s.state.heroes[hero] = None
    for hero, sq in zip(HEROES, ("1a.a1", "1a.d1", "1a.a4", "1a.c4")):
        put(s, hero, sq)


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
    assert message == "p1 cannot west: p1's action tile(s) show vortex, north, east"
    message = refused(s, "p2", "move green north", IllegalMoveError)
    assert "escalator, explore, south, west" in message
    refused(s, "p2", "vortex purple", IllegalMoveError)
    refused(s, "p1", "escalator purple", IllegalMoveError)
    refused(s, "p1", "explore purple", IllegalMoveError)


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


# ====================================================================== theft and exits
#
# Scenario 1, stack 6 7 8 9 2: item tiles on the four sides of 1A (6 north: yellow item,
# 7 east: orange item, 8 south: green item, 9 west: purple item), tile 2 north of tile 6
# (purple exit at 2.a1).


def item_game(scenario: str = "1", more=("2",)) -> Session:
    s = game(scenario, stack=["6", "7", "8", "9", *more])
    clear_centre(s)
    for sq in ("1a.c1", "1a.d3", "1a.b4", "1a.a2"):
        explore_at(s, sq)
    explore_at(s, "6.c1")  # tile 2, north of tile 6, as drawn
    return s


def item_of(s: Session, hero: str) -> str:
    (sq,) = find(s, "I" + hero[0])
    return sq


def theft_game() -> Session:
    s = item_game()
    for hero in ("purple", "yellow", "green"):
        s.state.heroes[hero] = None
    for hero in ("purple", "yellow", "green"):
        put(s, hero, item_of(s, hero))
    step_onto(s, "orange", item_of(s, "orange"))
    return s


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


def escaped_game() -> Session:
    s = theft_game()
    s.state.heroes["green"] = None
    put(s, "green", "2.a2")
    s.submit("p1", "move green north")
    return s


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


def clear_1b(s: Session) -> None:
    for hero in HEROES:
        s.state.heroes[hero] = None
    for hero, sq in zip(HEROES, ("1b.b1", "1b.d1", "1b.b3", "1b.d4")):
        put(s, hero, sq)


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


# ====================================================================== talk


def test_scenario_1_allows_talk_at_any_time():
    s = game("1")
    assert host(s)["talk"] == "open"
    s.submit("p1", "say go north")
    s.submit("p1", "move purple north", 100_000)
    s.submit("p2", "move green west")
    events = s.submit("p2", "say nice")
    assert [(e.kind, e.data) for e in events] == [("say", {"seat": "p2", "text": "nice"})]
    assert host(s)["talk"] == "open"


def any_action(s: Session) -> list:
    """Some seat makes some legal game action that flips no hourglass (a move, or a draw in
    solo play)."""
    st = s.state
    for seat in st.seats:
        for text in st.legal_inputs(seat):
            words = text.split()
            if words[0] == "draw":
                return s.submit(seat, text)
            if words[0] == "move":
                d = {"north": "N", "south": "S", "east": "E", "west": "W"}[words[2]]
                if all(st.kind(g)[0] != "hourglass" for g in st.path(words[1], d)[: int(words[3])]):
                    return s.submit(seat, text)
    raise AssertionError("no game action is legal")


@pytest.mark.parametrize("scenario, players", [("2", 2), ("3", 3), ("4", 4), ("5", 2), ("6", 5), ("7", 8), ("2", 1)])
def test_talk_is_open_from_the_start_until_the_first_action(scenario, players):
    """The start counts as the timer's first flip: talk is open until any player acts."""
    s = game(scenario, players=players)
    start = [e for e in s.events if e.kind == "talk"]
    assert [(e.text, e.to) for e in start] == [("The timer starts: talk is open until the first action.", None)]
    assert host(s)["talk"] == "open" and s.state.input_forms("p1") == ["say TEXT"]
    s.submit("p1", "say where are the items?")
    s.submit("p1", "pawn p1")  # the pawn and staring are not actions: talk stays open
    if players > 1:
        s.submit("p2", "stare p1")
        s.submit("p2", "say no idea")
    assert host(s)["talk"] == "open"
    events = any_action(s)
    assert kinds(events)[0] == "silence" and host(s)["talk"] == "silence"
    assert s.state.input_forms("p1") == []
    refused(s, "p1", "say too late", IllegalMoveError)


@pytest.mark.parametrize("scenario, players", [("1", 2), ("2", 1), ("4", 3)])
def test_say_text_is_a_form_exactly_when_talk_is_accepted(scenario, players):
    """``legal_inputs`` lists only inputs a bot can send as they are; ``say TEXT`` is listed by
    ``input_forms`` exactly when a ``say`` would be accepted (tried on a copy of the game)."""
    s = game(scenario, players=players)
    seen = Counter()
    for step in range(40):
        st = s.state
        # The game pickled once a step and each seat's copy read from it: a whole copy, as a
        # deepcopy made (nothing shared), of the game as it is (only the copies are submitted to).
        game_now = pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)
        for seat in st.seats:
            legal, forms = st.legal_inputs(seat), st.input_forms(seat)
            assert "say TEXT" not in legal and not [m for m in legal if any(w.isupper() for w in m.split())]
            try:
                pickle.loads(game_now).submit(seat, "say hello")
                accepted = True
            except InputError:
                accepted = False
            assert accepted == (forms == ["say TEXT"]) and forms in ([], ["say TEXT"]), (seat, forms)
            seen[accepted] += 1
        if step % 3 == 0:
            any_action(s)  # closes the talk window of the start
        else:
            s.submit("p1", "pawn p1")
    assert seen[True] >= 1 and (scenario == "1" or seen[False] >= 3), seen


def test_scenario_1_has_no_talk_window_at_the_start():
    s = game("1")
    assert not [e for e in s.events if e.kind == "talk"]
    s.submit("p2", "move green west")
    assert host(s)["talk"] == "open" and s.state.input_forms("p2") == ["say TEXT"]


def test_scenario_2_refuses_talk_after_the_first_action_until_a_flip_and_gives_the_reason():
    s = game("2")
    s.submit("p2", "move green west")
    assert host(s)["talk"] == "silence"
    message = refused(s, "p1", "say go north", IllegalMoveError)
    assert message.startswith("silence: talk is allowed only from the start of the game, after an hourglass flip, "
                              "until the next action")
    assert "staring and the pawn are always allowed" in message
    assert "elf" not in message
    any_action(s)
    refused(s, "p1", "say hello", IllegalMoveError)


def test_scenario_2_a_flip_opens_talk_until_the_next_game_action():
    s = game("2")
    s.submit("p2", "move green west")  # the start's talk window closes
    events = s.submit("p1", "move purple north", 100_000)
    assert kinds(events) == ["flip", "talk", "hero"] and host(s)["talk"] == "open"
    s.submit("p1", "say thanks")
    s.submit("p2", "pawn p1")
    s.submit("p2", "stare p1")
    s.submit("p2", "say still open")
    assert host(s)["talk"] == "open"
    events = s.submit("p2", "move yellow west")
    assert kinds(events) == ["silence", "hero"] and host(s)["talk"] == "silence"
    refused(s, "p1", "say too late", IllegalMoveError)


@pytest.mark.parametrize("action", ["vortex yellow", "escalator purple", "explore purple"])
def test_every_game_action_closes_the_talk_window(action):
    s = game("2", stack=["3"])
    s.submit("p1", "move purple north", 100_000)  # flip: talk open
    if action == "escalator purple":
        put(s, "purple", "1a.d2")  # staging: purple on the escalator
        s.state.heroes["yellow"] = None
        put(s, "yellow", "1a.d1")
    if action == "explore purple":
        put(s, "purple", "1a.a2")
    act(s, action)
    assert host(s)["talk"] == "silence"


def test_a_stare_at_oneself_is_refused_listing_the_others():
    s = game("2", players=3)
    err = refused(s, "p2", "stare p2", IllegalMoveError)
    assert err == "p2 cannot stare at itself; stare at another player"
    assert list(err.allowed) == ["stare p1", "stare p3"] == [m for m in s.state.legal_inputs("p2") if m.startswith("stare")]


def test_pawn_and_stare_are_always_allowed():
    s = game("2")
    events = s.submit("p1", "pawn p2")
    assert [(e.kind, e.data) for e in events] == [("pawn", {"seat": "p1", "target": "p2"})]
    assert host(s)["pawn"] == "p2"
    s.submit("p2", "pawn p1")  # passed on at once
    assert host(s)["pawn"] == "p1"
    events = s.submit("p2", "stare p1")
    assert [(e.kind, e.data) for e in events] == [("stare", {"seat": "p2", "target": "p1"})]
    refused(s, "p1", "stare p9", SyntaxInputError)
    refused(s, "p1", "stare p1", IllegalMoveError)  # not among its legal inputs either
    assert "stare p1" not in s.state.legal_inputs("p1")
    s.submit("p2", "move green west")  # the start's talk window closes
    refused(s, "p1", "say hi", IllegalMoveError)
    s.submit("p1", "pawn p2")
    s.submit("p1", "stare p2")


def test_scenario_4_the_elf_exploring_opens_talk():
    s = game("4", stack=["3", "4"])
    clear_centre(s)
    events = explore_at(s, "1a.c1")  # orange explores: the start's window closes, and stays closed
    assert kinds(events) == ["silence", "explore"] and host(s)["talk"] == "silence"
    refused(s, "p1", "say hi", IllegalMoveError)
    events = explore_at(s, "1a.d3")  # the elf explores
    assert kinds(events) == ["explore", "talk"] and host(s)["talk"] == "open"
    s.submit("p1", "say well found")
    s.submit("p2", "move green west")
    assert host(s)["talk"] == "silence"


def test_scenario_4_silence_reason_mentions_the_elf():
    s = game("4")
    s.submit("p2", "move green west")
    message = refused(s, "p1", "say hi", IllegalMoveError)
    assert "after an hourglass flip or after the elf explores" in message


def test_scenario_2_the_elf_exploring_does_not_open_talk():
    s = game("2", stack=["3"])
    clear_centre(s)
    events = explore_at(s, "1a.d3")
    assert kinds(events) == ["silence", "explore"] and host(s)["talk"] == "silence"


# ====================================================================== refusals change nothing


def test_unreadable_inputs_are_refused_without_change():
    s = game("1")
    refused(s, "p1", "", SyntaxInputError)
    refused(s, "p1", "jump purple", SyntaxInputError)
    refused(s, "p1", "move wizard north", SyntaxInputError)
    refused(s, "p1", "move purple up", SyntaxInputError)
    refused(s, "p1", "move purple", SyntaxInputError)
    refused(s, "p1", "vortex purple 9z.a1", SyntaxInputError)
    refused(s, "p1", "say", SyntaxInputError)


def test_a_verb_a_variant_lists_but_this_reader_does_not_know_is_unreadable_listing_the_forms():
    """A variant passes its own forms (more verbs) and reads its verbs itself; one of them
    reaching this reader is refused as unreadable, listing the variant's forms, not a crash."""
    forms = {**FORMS, "accuse": "accuse SEAT...: accuse players"}
    with pytest.raises(SyntaxInputError) as info:
        parse_move("accuse p2", ("p1", "p2"), forms)
    assert info.value.message == "'accuse' is not an action of Magic Maze"
    assert info.value.allowed == tuple(forms.values())


def test_each_input_names_the_action_tile_it_needs():
    seats = ("p1", "p2")
    needs = {"move purple north 2": "north", "move green west": "west", "vortex orange": "vortex",
             "escalator yellow": "escalator", "explore purple": "explore", "explore 1a.c1": "explore",
             "draw": None, "say hi": None, "pawn p2": None, "stare p1": None}
    assert {text: action_needed(parse_move(text, seats)) for text in needs} == needs


def test_a_move_shows_only_its_fields_that_are_set():
    assert repr(parse_move("move purple north 2", ("p1",))) == "Move(verb='move', hero='purple', direction='N', squares=2)"
    assert repr(Move("draw")) == "Move(verb='draw')"


def test_every_refusal_in_a_busy_position_leaves_everything_unchanged():
    s = game("2", stack=["3"])
    s.submit("p1", "move purple north", 5_000)
    for seat, text, error in [
        ("p1", "move purple north", IllegalMoveError),
        ("p2", "move purple west 3", IllegalMoveError),
        ("p1", "vortex purple 1a.d1", IllegalMoveError),
        ("p2", "escalator green", IllegalMoveError),
        ("p2", "explore yellow", IllegalMoveError),
        ("p1", "draw", IllegalMoveError),
        ("p1", "explore 1a.c1", IllegalMoveError),
        ("p2", "explore 1a.c1", IllegalMoveError),  # no crystal balls in scenario 2
        ("p1", "move orange north 9", IllegalMoveError),
    ]:
        refused(s, seat, text, error)
    assert host(s)["talk"] == "open"  # refusals do not close the talk window either

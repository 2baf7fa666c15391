"""Magic Maze games staged for the rules' tests (``test_maze_rules_*.py``) and the tests that
build on them (Hidden Roles' missions, the planner's search): a game with recorded chance
outcomes (``stack``, ``heroes``, ``solo-deck``), heroes put on squares, tiles explored, and the
staged positions several sections share (items found, a theft made, a hero escaped).

Where a test needs a hero on a particular square, ``put`` sets ``state.heroes`` directly
(staging only; every input under test goes through ``Session.submit``). Squares are read as
``TILE.CELL``.

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

from arbiter.engine import registry
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.tiles import STEP
from arbiter.engine.session import Session

from tests.helpers import host

MAZE = registry.get("magic-maze")
D = mm.load()
HEROES = ("purple", "yellow", "green", "orange")
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
DIR_NAME = {"N": "north", "E": "east", "S": "south", "W": "west"}


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


def escaped_game() -> Session:
    s = theft_game()
    s.state.heroes["green"] = None
    put(s, "green", "2.a2")
    s.submit("p1", "move green north")
    return s


def clear_1b(s: Session) -> None:
    for hero in HEROES:
        s.state.heroes[hero] = None
    for hero, sq in zip(HEROES, ("1b.b1", "1b.d1", "1b.b3", "1b.d4")):
        put(s, hero, sq)

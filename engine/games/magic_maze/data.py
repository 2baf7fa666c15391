"""Magic Maze scenario data: the tiles, the scenarios and the action tiles, loaded from YAML and
validated (a broken tile map is reported with its square and the reason)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from arbiter.engine.games.magic_maze.tiles import Tile, TileError, check_tile, parse_map
from arbiter.engine.scenario import Node, document, load_packaged, sibling

GAME = "magic-maze"
ACTIONS = ("north", "south", "east", "west", "vortex", "escalator", "explore")
START_TILES = ("1A", "1B")


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    start: str
    stack: tuple[str, ...]
    on_top: tuple[str, ...]
    exits: str  # "shared" | "own"
    talk: str  # "always" | "windows"
    pass_on_flip: bool
    elf_talk: bool
    crystal: bool
    cameras: bool
    timer_ms: int
    step_ms: int


@dataclass(frozen=True)
class MazeData:
    tiles: dict[str, Tile]
    scenarios: dict[str, Scenario]
    actions: dict[int, tuple[tuple[str, ...], ...]]
    solo: tuple[str, ...]
    raw: dict[str, Any]


def _checked(doc: Node, kind: str) -> Node:
    return document(doc, GAME, kind)


def parse_tiles(doc: Node) -> dict[str, Tile]:
    doc.only_keys("game", "kind", "tiles")
    tiles = {}
    for name, node in doc.key("tiles").items():
        node.only_keys("map")
        text = node.key("map").text(lines=True)
        try:
            tile = parse_map(name, text)
            check_tile(tile, start=name in START_TILES)
        except TileError as exc:
            raise node.key("map").fail(f"tile {name}: {exc}") from None
        tiles[name] = tile
    for name in START_TILES:
        if name not in tiles:
            raise doc.key("tiles").fail(f"the start tile {name} is missing")
    return tiles


def _flag(node: Node) -> bool:
    if not isinstance(node.value, bool):
        raise node.fail("expected true or false")
    return node.value


def _seconds_ms(node: Node, low: float) -> int:
    v = node.value
    # (``not low <= v``, not ``v < low``: YAML's .nan fails every comparison, and was rounded to a traceback)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= 3600:
        raise node.fail(f"expected a number of seconds from {low:g} to 3600")
    return round(v * 1000)


def parse_scenarios(doc: Node, tiles: dict[str, Tile]) -> dict[str, Scenario]:
    doc.only_keys("game", "kind", "scenarios")
    out = {}
    names = [t for t in tiles if t not in START_TILES]
    for name, node in doc.key("scenarios").items():
        node.only_keys("title", "start", "stack", "on_top", "exits", "talk", "pass_on_flip", "elf_talk",
                       "crystal", "cameras", "timer_seconds", "step_seconds")
        stack = tuple(node.key("stack").texts(names))
        on_top = tuple(node.optional("on_top", []).texts(names))
        both = set(stack) & set(on_top)
        if both:
            raise node.key("on_top").fail(f"{sorted(both)} are in the stack too")
        out[name] = Scenario(
            name=name, title=node.key("title").text(), start=node.key("start").text(START_TILES),
            stack=stack, on_top=on_top, exits=node.key("exits").text(("shared", "own")),
            talk=node.key("talk").text(("always", "windows")), pass_on_flip=_flag(node.key("pass_on_flip")),
            elf_talk=_flag(node.key("elf_talk")), crystal=_flag(node.key("crystal")),
            cameras=_flag(node.key("cameras")), timer_ms=_seconds_ms(node.key("timer_seconds"), 1),
            step_ms=_seconds_ms(node.key("step_seconds"), 0.001),
        )
    return out


def parse_actions(doc: Node) -> tuple[dict[int, tuple[tuple[str, ...], ...]], tuple[str, ...]]:
    doc.only_keys("game", "kind", "players", "solo")
    players: dict[int, tuple[tuple[str, ...], ...]] = {}
    for key, node in doc.key("players").entries():
        if isinstance(key, bool) or not isinstance(key, int) or not 2 <= key <= 8:
            raise node.fail("a player count is a whole number from 2 to 8")
        tiles = [tuple(t.texts(ACTIONS)) for t in node.sequence()]
        if len(tiles) != key:
            raise node.fail(f"{key} players get {key} action tiles, not {len(tiles)}")
        held = {a for t in tiles for a in t}
        if held != set(ACTIONS):
            raise node.fail(f"the tiles lack {sorted(set(ACTIONS) - held)}")
        players[key] = tuple(tiles)
    solo = tuple(doc.key("solo").texts(ACTIONS))
    if set(solo) != set(ACTIONS):
        raise doc.key("solo").fail(f"the solo deck needs every action once; it lacks {sorted(set(ACTIONS) - set(solo))}")
    return dict(sorted(players.items())), solo


@cache
def load() -> MazeData:
    tiles_doc = _checked(load_packaged("magic_maze/tiles.yaml"), "tiles")
    scen_doc = _checked(load_packaged("magic_maze/scenarios.yaml"), "scenarios")
    act_doc = _checked(load_packaged("magic_maze/actions.yaml"), "actions")
    tiles = parse_tiles(tiles_doc)
    players, solo = parse_actions(act_doc)
    raw = {"tiles": tiles_doc.value, "scenarios": scen_doc.value, "actions": act_doc.value}
    return MazeData(tiles, parse_scenarios(scen_doc, tiles), players, solo, raw)


def validate_document(doc: Node) -> None:
    """Check one Magic Maze YAML document (``arbiter validate FILE``); a scenarios file is
    checked against the tiles.yaml beside it, or the packaged tiles. (A ``kind: roles`` file,
    Hidden Roles' deck, is the expansion's to check: the kinds named are the game's every one.)"""
    kind = doc.key("kind").text(("tiles", "scenarios", "actions", "roles"))
    _checked(doc, kind)
    if kind == "tiles":
        parse_tiles(doc)
    elif kind == "actions":
        parse_actions(doc)
    else:
        tiles = sibling(doc.source, "tiles.yaml", "magic_maze/tiles.yaml", lambda d: parse_tiles(_checked(d, "tiles")))
        parse_scenarios(doc, tiles)

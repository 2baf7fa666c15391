"""FBI vs Mafia scenario data: suspects, roles and modes, loaded from YAML and validated."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from arbiter.engine.errors import quoted
from arbiter.engine.games.fbi_mafia.grid import looks_like_cell
from arbiter.engine.scenario import Node, load_packaged, sibling

GAME = "fbi-mafia"
TEAMS = ("mafia", "fbi")
ACTIONS = (
    "arrest", "defuse", "masquerade", "autopsy", "inspect", "evidence",
    "kill", "shoot", "swap", "plant", "detonate", "prepare",
)
STEPS = ("protection-before-action", "threats-after-move", "threat-kills-at-start")
SEATINGS = ("standard", "duel")


@dataclass(frozen=True)
class RoleSpec:
    name: str
    team: str
    actions: tuple[str, ...]
    shifts: tuple[int, ...]
    steps: tuple[str, ...]
    arrest: str  # "around": own cell and the 8 neighbours; "line": straight orthogonal line


@dataclass(frozen=True)
class Limits:
    protection_tokens: int
    threats_min: int
    threats_max: int
    threat_reach: int
    detective_reach: int
    sniper_reach: int
    inspect_cards: int


@dataclass(frozen=True)
class ModeSpec:
    name: str
    title: str
    seating: str
    board: int
    turn_order: tuple[str, ...]
    win_arrests: int
    win_kills: int
    evidence_hand: int


def parse_suspects(doc: Node) -> tuple[str, ...]:
    node = doc.key("suspects")
    names = node.texts()
    for i, name in enumerate(names):
        if " " in name or looks_like_cell(name) or name.lower() in ("yes", "no", "bomb", "threat", "protection"):
            raise node.sequence()[i].fail(
                f"{quoted(name)} cannot be a suspect name: one word that is not a cell or an action word"
            )
    lowered = [n.lower() for n in names]
    for i, low in enumerate(lowered):
        if low in lowered[:i]:
            raise node.sequence()[i].fail(f"{quoted(names[i])} repeats another name (names ignore case)")
    return tuple(names)


def parse_roles(doc: Node) -> tuple[dict[str, RoleSpec], Limits]:
    roles: dict[str, RoleSpec] = {}
    for name, node in doc.key("roles").items():
        node.only_keys("team", "actions", "shift", "steps", "arrest")
        shifts = tuple(n.integer(1, 3) for n in node.key("shift").sequence(min_len=1))
        roles[name] = RoleSpec(
            name=name,
            team=node.key("team").text(TEAMS),
            actions=tuple(node.key("actions").texts(ACTIONS)),
            shifts=shifts,
            steps=tuple(node.optional("steps", []).texts(STEPS)),
            arrest=node.optional("arrest", "around").text(("around", "line")),
        )
    lim = doc.key("limits")
    tmin, tmax = (n.integer(0, 9) for n in lim.key("threats_per_turn").sequence(min_len=2)[:2])
    if tmin > tmax:
        raise lim.key("threats_per_turn").fail(f"minimum {tmin} is above maximum {tmax}")
    limits = Limits(
        protection_tokens=lim.key("protection_tokens").integer(0, 99),
        threats_min=tmin,
        threats_max=tmax,
        threat_reach=lim.key("threat_reach").integer(1, 9),
        detective_reach=lim.key("detective_reach").integer(0, 9),
        sniper_reach=lim.key("sniper_reach").integer(1, 9),
        inspect_cards=lim.key("inspect_cards").integer(1, 9),
    )
    return roles, limits


def parse_modes(doc: Node, roles: dict[str, RoleSpec]) -> dict[str, ModeSpec]:
    modes: dict[str, ModeSpec] = {}
    for name, node in doc.key("modes").items():
        node.only_keys("title", "seating", "board", "turn_order", "win", "evidence_hand")
        order_node = node.key("turn_order")
        order = tuple(order_node.texts(list(roles)))
        win = node.key("win")
        win.only_keys("arrests", "kills")
        mode = ModeSpec(
            name=name,
            title=node.key("title").text(),
            seating=node.key("seating").text(SEATINGS),
            board=node.key("board").integer(3, 9),
            turn_order=order,
            win_arrests=win.key("arrests").integer(1),
            win_kills=win.key("kills").integer(1),
            evidence_hand=node.key("evidence_hand").integer(0, 9),
        )
        teams = [roles[r].team for r in order]
        for team in TEAMS:
            if team not in teams:
                raise order_node.fail(f"no {team} character in the turn order")
        if mode.evidence_hand and not any("evidence" in roles[r].actions for r in order):
            raise node.key("evidence_hand").fail("an evidence hand needs a character with the evidence action")
        if len(order) > mode.board * mode.board // 2:
            raise order_node.fail(f"{len(order)} characters do not fit a {mode.board}x{mode.board} board")
        modes[name] = mode
    return modes


@dataclass(frozen=True)
class GameData:
    suspects: tuple[str, ...]
    roles: dict[str, RoleSpec]
    limits: Limits
    modes: dict[str, ModeSpec]
    raw: dict[str, Any]


def _checked(doc: Node, kind: str) -> Node:
    game = doc.key("game").text()
    if game != GAME:
        raise doc.key("game").fail(f"expected {GAME!r}, found {quoted(game)}")
    doc.key("kind").text((kind,))
    return doc


def validate_document(doc: Node) -> None:
    """Check one FBI vs Mafia YAML document (for ``arbiter validate FILE``). A modes file is
    checked against the ``roles.yaml`` beside it, or the packaged roles when there is none."""
    kind = doc.key("kind").text(("suspects", "roles", "modes"))
    _checked(doc, kind)
    if kind == "suspects":
        parse_suspects(doc)
    elif kind == "roles":
        parse_roles(doc)
    else:
        parse_modes(doc, _roles_beside(Path(doc.source)))


def _roles_beside(modes_file: Path) -> dict[str, RoleSpec]:
    """The roles a modes file refers to: its sibling roles.yaml, or the packaged roles."""
    return sibling(str(modes_file), "roles.yaml", "fbi_mafia/roles.yaml",
                   lambda doc: parse_roles(_checked(doc, "roles"))[0])


@cache
def load() -> GameData:
    """The packaged data, cross-checked (every mode's roles exist, its board has enough names)."""
    sdoc = _checked(load_packaged("fbi_mafia/suspects.yaml"), "suspects")
    rdoc = _checked(load_packaged("fbi_mafia/roles.yaml"), "roles")
    mdoc = _checked(load_packaged("fbi_mafia/modes.yaml"), "modes")
    suspects = parse_suspects(sdoc)
    roles, limits = parse_roles(rdoc)
    modes = parse_modes(mdoc, roles)
    for name, mode in modes.items():
        if mode.board * mode.board > len(suspects):
            raise mdoc.key("modes").key(name).key("board").fail(
                f"a {mode.board}x{mode.board} board needs {mode.board ** 2} suspects; "
                f"suspects.yaml has {len(suspects)}"
            )
    raw = {"suspects": sdoc.value, "roles": rdoc.value, "modes": mdoc.value}
    return GameData(suspects, roles, limits, modes, raw)

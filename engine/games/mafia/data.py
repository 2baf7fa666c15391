"""Classic Mafia scenario data: the cards, the selection rules, the night order and the default
setups, loaded from YAML and validated; and the check of a deck against the selection rules.

>>> d = load()
>>> d.cards["boss"].side, d.setups[6]["civilian"]
('mafia', 2)
>>> deck_problem({"boss": 1, "civilian": 5}, d)
'exactly one leader (Seducer or Agent) is needed and it has none; the town side must be 1.5 to 2.5 times the Mafia side: town 5 (civilian 5) against Mafia 1 (boss 1) is 5.00 times'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from arbiter.engine.errors import ScenarioError, quoted
from arbiter.engine.scenario import Node, document, load_packaged, sibling

GAME = "mafia"
SIDES = ("town", "mafia", "loner")
TEAMS = ("mafia", "police")
# The night steps whose powers the engine implements (engine/games/mafia/state.py).
STEPS = ("seducer", "agent", "mafia", "police", "chameleon", "fighter")


@dataclass(frozen=True)
class Card:
    name: str
    title: str
    side: str
    copies: int
    leader: bool
    team: str | None


@dataclass(frozen=True)
class NightStep:
    name: str
    cards: tuple[str, ...]  # the first heads the team
    wake: str
    optional: bool

    def __post_init__(self) -> None:
        # ``team``: the team that wakes in this step (and confers), or None for a role of one
        # player. Kept as a plain attribute (not a field: equality, hash and repr are the
        # fields'), as it was a property read at every night input several times over.
        object.__setattr__(self, "team", self.name if self.name in TEAMS else None)

    team: ClassVar[str | None]  # set on each step by __post_init__ (see there)


@dataclass(frozen=True)
class Selection:
    ratio_min: float
    ratio_max: float
    leaders: int
    min_players: int
    max_players: int
    say_max_chars: int


@dataclass(frozen=True)
class MafiaData:
    cards: dict[str, Card]
    selection: Selection
    night: tuple[NightStep, ...]
    setups: dict[int, dict[str, int]]
    default_players: int
    raw: dict[str, Any]

    def card_title(self, name: str) -> str:
        return self.cards[name].title


def _checked(doc: Node, kind: str) -> Node:
    return document(doc, GAME, kind)


def parse_cards(doc: Node) -> tuple[dict[str, Card], Selection, tuple[NightStep, ...]]:
    doc.only_keys("game", "kind", "cards", "selection", "say_max_chars", "night")
    cards: dict[str, Card] = {}
    for name, node in doc.key("cards").items():
        node.only_keys("title", "side", "copies", "leader", "team")
        leader = node.optional("leader", False)
        if not isinstance(leader.value, bool):
            raise leader.fail("expected true or false")
        team = node.optional("team", None)
        side = node.key("side").text(SIDES)
        card = Card(
            name=name, title=node.key("title").text(), side=side,
            copies=node.key("copies").integer(1, 16), leader=leader.value,
            team=None if team.value is None else team.text(TEAMS),
        )
        if card.leader and side != "town":
            raise leader.fail("only a town card can be a leader")
        if card.team == "mafia" and side != "mafia" or card.team == "police" and side != "town":
            raise team.fail(f"a {card.team} team card must be on the {'mafia' if card.team == 'mafia' else 'town'} side")
        cards[name] = card
    sel = doc.key("selection")
    sel.only_keys("town_per_mafia", "leaders", "players")
    ratio = sel.key("town_per_mafia")
    ratio.only_keys("min", "max")
    lo, hi = (_number(ratio.key(k)) for k in ("min", "max"))
    if lo > hi:
        raise ratio.fail(f"min {lo} is above max {hi}")
    players = sel.key("players")
    players.only_keys("min", "max")
    selection = Selection(lo, hi, sel.key("leaders").integer(0, 16),
                          players.key("min").integer(1, 99), players.key("max").integer(1, 99),
                          doc.key("say_max_chars").integer(1, 10_000))
    if selection.min_players > selection.max_players:
        raise players.fail("min is above max")
    night: list[NightStep] = []
    for node in doc.key("night").sequence(min_len=1):
        node.only_keys("step", "cards", "wake", "optional")
        name = node.key("step").text(STEPS)
        if any(s.name == name for s in night):
            raise node.key("step").fail(f"step {name!r} is listed twice")
        step_cards = tuple(node.key("cards").texts(sorted(cards)))
        if not step_cards:
            raise node.key("cards").fail("a step needs at least one card")
        team = name if name in TEAMS else None
        for i, c in enumerate(step_cards):
            if cards[c].team != team:
                raise node.key("cards").sequence()[i].fail(
                    f"{c!r} cannot act in the {name} step" + (f": it is not on the {team} team" if team else ": it belongs to a team"))
        if team is None and (len(step_cards) != 1 or cards[step_cards[0]].copies != 1):
            raise node.key("cards").fail("a step of one role names exactly one card, of which the deck holds one")
        optional = node.optional("optional", False)
        if not isinstance(optional.value, bool):
            raise optional.fail("expected true or false")
        night.append(NightStep(name, step_cards, node.key("wake").text(), optional.value))
    return cards, selection, tuple(night)


def _number(node: Node) -> float:
    """A positive number a float holds: not YAML's .nan (which fails every comparison, so was
    taken), nor .inf, nor a whole number past a float's range (``float`` raised OverflowError)."""
    v = node.value
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < math.inf \
            or (isinstance(v, int) and v.bit_length() > 1023):
        raise node.fail("expected a positive number")
    return float(v)


def parse_deck(node: Node, cards: dict[str, Card]) -> dict[str, int]:
    """A deck: card name -> how many, in the order of the card list (so equal decks are equal)."""
    counts: dict[str, int] = {}
    for name, n in node.items():
        if name not in cards:
            raise n.fail(f"no card named {quoted(name)} (cards: {', '.join(cards)})")
        counts[name] = n.integer(0, 16)
    return {name: counts[name] for name in cards if counts.get(name)}


def _listing(deck: dict[str, int], names: list[str]) -> str:
    return ", ".join(f"{n} {deck[n]}" for n in names if deck.get(n))


def deck_problem(deck: dict[str, int], data: MafiaData) -> str | None:
    """Why ``deck`` breaks the selection rules (every broken rule with its counts, joined by
    "; "), or None when it keeps them all."""
    problems = []
    cards, sel = data.cards, data.selection
    size = sum(deck.values())
    if not sel.min_players <= size <= sel.max_players:
        problems.append(f"a game needs {sel.min_players} to {sel.max_players} players, one card each; "
                        f"this deck has {size} card{'' if size == 1 else 's'}")
    for name, n in deck.items():
        if n > cards[name].copies:
            problems.append(f"{n} {cards[name].title} cards, but the deck holds only {cards[name].copies}")
    leaders = [c for c in cards if cards[c].leader]
    led = sum(deck.get(c, 0) for c in leaders)
    if led != sel.leaders:
        titles = " or ".join(cards[c].title for c in leaders)
        has = "none" if not led else f"{led} ({_listing(deck, leaders)})"
        problems.append(f"exactly {'one' if sel.leaders == 1 else sel.leaders} leader ({titles}) is needed and it has {has}")
    town = [c for c in cards if cards[c].side == "town"]
    mafia = [c for c in cards if cards[c].side == "mafia"]
    t, m = sum(deck.get(c, 0) for c in town), sum(deck.get(c, 0) for c in mafia)
    if m == 0:
        problems.append("at least one Mafia-side card (" + " or ".join(cards[c].title for c in mafia) + ") is needed")
    elif not sel.ratio_min <= t / m <= sel.ratio_max:
        problems.append(
            f"the town side must be {sel.ratio_min:g} to {sel.ratio_max:g} times the Mafia side: "
            f"town {t} ({_listing(deck, town) or 'no cards'}) against Mafia {m} ({_listing(deck, mafia)}) "
            f"is {t / m:.2f} times")
    return "; ".join(problems) or None


def check_deck(node: Node, data: MafiaData) -> dict[str, int]:
    """Parse and check a deck mapping; a refused deck raises naming the rule and the counts."""
    deck = parse_deck(node, data.cards)
    problem = deck_problem(deck, data)
    if problem:
        raise node.fail(f"deck refused: {problem}")
    return deck


def parse_setups(doc: Node, data: MafiaData) -> tuple[dict[int, dict[str, int]], int]:
    doc.only_keys("game", "kind", "default", "setups")
    setups: dict[int, dict[str, int]] = {}
    for key, child in doc.key("setups").entries():
        if isinstance(key, bool) or not isinstance(key, int):
            raise child.fail("a setup is keyed by its player count (a whole number)")
        deck = check_deck(child, data)
        if sum(deck.values()) != key:
            raise child.fail(f"the setup for {key} players has {sum(deck.values())} cards")
        setups[key] = deck
    default = doc.key("default")
    players = default.integer()
    if players not in setups:
        raise default.fail(f"no setup for {players} players (setups: {', '.join(map(str, sorted(setups)))})")
    return dict(sorted(setups.items())), players


TITLE_MAX_CHARS = 80
"""A deck's title heads the board and the transcript: one short line."""


def parse_deck_document(doc: Node, data: MafiaData) -> tuple[str, dict[str, int]]:
    """A custom deck file: ``game: mafia``, ``kind: deck``, an optional ``title``, ``cards``."""
    _checked(doc, "deck")
    doc.only_keys("game", "kind", "title", "cards")
    title = doc.optional("title", "custom deck").text(max_len=TITLE_MAX_CHARS)
    return title, check_deck(doc.key("cards"), data)


@cache
def load() -> MafiaData:
    cards_doc = _checked(load_packaged("mafia/cards.yaml"), "cards")
    setups_doc = _checked(load_packaged("mafia/setups.yaml"), "setups")
    return _build(cards_doc, setups_doc)


def _build(cards_doc: Node, setups_doc: Node) -> MafiaData:
    cards, selection, night = parse_cards(cards_doc)
    partial = MafiaData(cards, selection, night, {}, 0, {})
    setups, default = parse_setups(setups_doc, partial)
    raw = {"cards": cards_doc.value, "setups": setups_doc.value}
    return MafiaData(cards, selection, night, setups, default, raw)


def parse_talk(doc: Node) -> dict[str, tuple[str, ...]]:
    """The random bot's lines: ``day`` (public) and ``night`` (to its team); ``{seat}`` is
    replaced by another living player."""
    doc.only_keys("game", "kind", "day", "night")
    talk = {}
    for when in ("day", "night"):
        node = doc.key(when)
        lines = node.texts()
        for i, line in enumerate(lines):
            if line.replace("{seat}", "").count("{") or line.replace("{seat}", "").count("}"):
                raise node.sequence()[i].fail("the only placeholder a line may hold is {seat}")
        talk[when] = tuple(lines)
    return talk


@cache
def load_talk() -> dict[str, tuple[str, ...]]:
    return parse_talk(_checked(load_packaged("mafia/talk.yaml"), "talk"))


def validate_document(doc: Node) -> None:
    """Check one Classic Mafia YAML document (for ``arbiter validate FILE``). A setups file is
    checked against the ``cards.yaml`` beside it (a data set being made), or the packaged cards;
    a custom deck against the packaged cards, by which ``--deck`` plays it, whatever lies beside
    it (a deck made in a copy of the packaged folder once passed here and was refused by play)."""
    kind = doc.key("kind").text(("cards", "setups", "deck", "talk"))
    _checked(doc, kind)
    if kind == "cards":
        parse_cards(doc)
        return
    if kind == "talk":
        parse_talk(doc)
        return
    if kind == "setups":
        parse_setups(doc, _data_beside(Path(doc.source)))
        return
    try:
        parse_deck_document(doc, load())
    except ScenarioError as exc:  # (said where other cards lie beside it, which a reader would take for these)
        if exc.problem.startswith("deck refused") and (Path(doc.source).parent / "cards.yaml").is_file():
            error = ScenarioError(exc.source, exc.path, exc.problem + " (by the packaged cards, by which --deck "
                                  "plays a deck; not the cards.yaml beside it)", exc.steps)
            error.place(exc.line)  # (its line, and the message naming it, where the refusal had one)
            raise error from None
        raise


def _data_beside(path: Path) -> MafiaData:
    """The cards a setups file is checked against: its sibling cards.yaml, or the packaged one
    (a deck is checked against the packaged cards, by which ``--deck`` plays it)."""
    def parse(doc: Node) -> MafiaData:
        cards, selection, night = parse_cards(_checked(doc, "cards"))
        return MafiaData(cards, selection, night, {}, 0, {})
    return sibling(str(path), "cards.yaml", "mafia/cards.yaml", parse)

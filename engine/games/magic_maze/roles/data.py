"""The role deck of Magic Maze: Hidden Roles, loaded from YAML and checked: every card's kind,
levels, copies and condition of use, and the predicate of each mission, rule and switch, chosen
from the small vocabulary the engine knows (``PREDICATES``, ``RULES``). A broken deck is
reported with its file, the path inside it and the problem.

>>> deck = load()
>>> deck.cards["mage-first"].mission
Predicate(name='hero-leaves-first', params=(('hero', 'purple'),))
>>> sorted({c.kind for c in deck.cards.values()})
['hero', 'hero-mission', 'hero-rule', 'traitor', 'traitor-mission', 'variable']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from arbiter.engine.errors import quoted
from arbiter.engine.games.magic_maze.data import GAME, MazeData, Scenario
from arbiter.engine.games.magic_maze.data import load as load_maze
from arbiter.engine.scenario import Node, document, load_file, load_packaged

HEROES = ("purple", "yellow", "green", "orange")
LEVELS = ("A", "B", "C", "D", "E")
"""The level letters; ``--roles N`` plays the cards of letter ``LEVELS[N - 1]``."""
KINDS = ("hero", "traitor", "hero-mission", "traitor-mission", "hero-rule", "variable")
SIDES = ("hero", "traitor")
FEATURES = ("own-exits", "passing", "elf-talk", "orange-walls", "crystal", "cameras")
MIN_PLAYERS, MAX_PLAYERS = 3, 8
TITLE_MAX_CHARS = 60
MAX_COUNT = 20
"""The most copies of one card a custom deck may name (and the packaged deck hold)."""
HERO_CARDS = "hero, a hero mission or rule, or a variable card that starts as a hero"
"""The cards that start on the hero side, as a refusal names them."""

# The vocabulary. Each predicate names its parameters and their types:
#   hero: a hero's colour; seconds: 1..3600; count: 1..20; action: vortex, escalator or explore.
# ``never``: done only when the game ends without it having failed.
PREDICATES: dict[str, dict[str, str]] = {
    "hero-leaves-first": {"hero": "hero"},
    "hero-leaves-last": {"hero": "hero"},
    "completes-theft": {},
    "theft-before": {"seconds": "seconds"},
    "no-theft-before": {"seconds": "seconds"},
    "explores": {"tiles": "count"},
    "flip-with-under": {"seconds": "seconds"},
    "hero-never-uses": {"hero": "hero", "action": "action"},
    "never-accused": {},
    "pawn-in-front": {"times": "count"},
    "eye-in-front": {"times": "count"},
    "accused-and-cleared": {},
    "accusation-validated": {},
    "camera-disabled": {"times": "count"},
}
NEVER = ("hero-never-uses", "never-accused", "no-theft-before")
"""The predicates kept to the end: pending when the game ends, they are done (nothing broke
them). ``no-theft-before`` is one: a game over before its moment had no theft before it."""
RULES: dict[str, dict[str, str]] = {
    "never-act-on": {"hero": "hero"},
    "acts-only-with-pawn": {},
    "silent": {},
    "single-steps": {},
    "never-accuses": {},
}
ACTIONS = ("vortex", "escalator", "explore")


@dataclass(frozen=True)
class Predicate:
    """A predicate of the vocabulary with its parameters (sorted ``(name, value)`` pairs)."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    def __getitem__(self, key: str) -> Any:
        return dict(self.params)[key]

    @property
    def never(self) -> bool:
        """Kept to the end: done only if it never failed."""
        return self.name in NEVER


@dataclass(frozen=True)
class Condition:
    """When a card may be used: at least ``players`` players, and the scenario features ``needs``."""

    players: int = 0
    needs: tuple[str, ...] = ()

    def met(self, players: int, features: frozenset[str]) -> bool:
        return players >= self.players and all(f in features for f in self.needs)

    def words(self) -> str:
        parts = [f"{self.players}+ players"] if self.players else []
        return ", ".join(parts + list(self.needs)) or "none"


@dataclass(frozen=True)
class Card:
    """One role card (``copies`` of it are in the deck)."""

    id: str
    title: str
    kind: str
    levels: tuple[str, ...]
    text: str
    copies: int = 1
    condition: Condition = field(default_factory=Condition)
    mission: Predicate | None = None
    rule: Predicate | None = None
    starts: str | None = None  # a variable card's first side
    switch: Predicate | None = None

    @property
    def side(self) -> str:
        """The side the card starts on."""
        if self.kind == "variable":
            assert self.starts is not None
            return self.starts
        return "traitor" if self.kind.startswith("traitor") else "hero"


@dataclass(frozen=True)
class Timing:
    """The windows of the expansion, in milliseconds of the game's clock: how long a vote stays
    open, how long the accuser of an upheld accusation has to flip the timer, and how long the
    traitors have to divine at level 5."""

    vote_ms: int = 5000
    flip_ms: int = 5000
    divining_ms: int = 30000


@dataclass(frozen=True)
class RoleDeck:
    cards: dict[str, Card]
    raw: dict[str, Any]
    timing: Timing = field(default_factory=Timing)

    def level(self, letter: str) -> list[Card]:
        """The cards of level ``letter``, in data order."""
        return [c for c in self.cards.values() if letter in c.levels]


def features(data: MazeData, scenario: Scenario) -> frozenset[str]:
    """The scenario features a card's condition may need."""
    tiles = [data.tiles[t] for t in (*scenario.on_top, *scenario.stack)]
    found = {
        "own-exits": scenario.exits == "own", "passing": scenario.pass_on_flip, "elf-talk": scenario.elf_talk,
        "crystal": scenario.crystal, "cameras": scenario.cameras,
        "orange-walls": any(state == "orange" for t in tiles for state in t.side.values()),
    }
    return frozenset(f for f, on in found.items() if on)


# ------------------------------------------------------------------------------------ parsing
def _param(node: Node, kind: str) -> Any:
    if kind == "hero":
        return node.text(HEROES)
    if kind == "seconds":
        return node.integer(1, 3600)
    if kind == "count":
        return node.integer(1, 20)
    return node.text(ACTIONS)


def parse_predicate(node: Node, vocabulary: dict[str, dict[str, str]], what: str) -> Predicate:
    """``{name: {param: value, ...}}`` with a name of ``vocabulary`` and exactly its parameters."""
    items = list(node.items())
    if len(items) != 1:
        raise node.fail(f"a {what} names one predicate, e.g. {{{next(iter(vocabulary))}: {{...}}}}")
    name, params = items[0]
    if name not in vocabulary:
        raise params.fail(f"unknown {what} predicate {quoted(name)}; known: {', '.join(vocabulary)}")
    wanted = vocabulary[name]
    if params.value is None:
        params = Node({}, params.source, params.path)
    given = params.mapping()
    for key in wanted:
        if key not in given:
            raise params.fail(f"{name} needs the parameter {key!r} ({wanted[key]})")
    for key in given:
        if key not in wanted:
            allowed = ", ".join(wanted) or "none"
            raise params.fail(f"{name} has no parameter {quoted(key)} (its parameters: {allowed})")
    return Predicate(name, tuple(sorted((key, _param(params.key(key), kind)) for key, kind in wanted.items())))


def parse_condition(node: Node) -> Condition:
    node.only_keys("players", "needs")
    players = node.optional("players", 0).integer(0, 99)
    needs = tuple(node.optional("needs", []).texts(FEATURES))
    return Condition(players, needs)


def parse_card(name: str, node: Node) -> Card:
    node.only_keys("title", "kind", "levels", "copies", "text", "condition", "mission", "rule", "starts", "switch")
    kind = node.key("kind").text(KINDS)
    levels = tuple(node.key("levels").texts(LEVELS))
    if not levels:
        raise node.key("levels").fail("a card belongs to at least one level")
    wants = {"hero-mission": "mission", "traitor-mission": "mission", "hero-rule": "rule", "variable": "switch"}
    for key in ("mission", "rule", "switch", "starts"):
        needed = wants.get(kind) == key or (kind == "variable" and key == "starts")
        if needed and not node.has(key):
            raise node.fail(f"a {kind} card needs {key!r}")
        if not needed and node.has(key):
            raise node.key(key).fail(f"a {kind} card has no {key!r}")
    condition = parse_condition(node.key("condition")) if node.has("condition") else Condition()
    return Card(
        id=name, title=node.key("title").text(max_len=TITLE_MAX_CHARS), kind=kind, levels=levels,
        text=node.key("text").text(max_len=400), copies=node.optional("copies", 1).integer(1, MAX_COUNT),
        condition=condition,
        mission=parse_predicate(node.key("mission"), PREDICATES, "mission") if node.has("mission") else None,
        rule=parse_predicate(node.key("rule"), RULES, "rule") if node.has("rule") else None,
        starts=node.key("starts").text(SIDES) if node.has("starts") else None,
        switch=parse_predicate(node.key("switch"), PREDICATES, "switch") if node.has("switch") else None,
    )


def parse_timing(node: Node) -> Timing:
    """``timing: {vote_seconds, flip_seconds, divining_seconds}`` (each 1 to 600 s; a missing
    one keeps the rules' value)."""
    node.only_keys("vote_seconds", "flip_seconds", "divining_seconds")
    default = Timing()
    return Timing(*(node.optional(key, ms // 1000).integer(1, 600) * 1000 for key, ms in (
        ("vote_seconds", default.vote_ms), ("flip_seconds", default.flip_ms),
        ("divining_seconds", default.divining_ms))))


def parse_roles(doc: Node, maze: MazeData) -> RoleDeck:
    """The packaged kind of document: every card, checked on its own and as decks."""
    document(doc, GAME, "roles")
    doc.only_keys("game", "kind", "timing", "cards")
    cards = {name: parse_card(name, node) for name, node in doc.key("cards").items()}
    timing = parse_timing(doc.key("timing")) if doc.has("timing") else Timing()
    deck = RoleDeck(cards, doc.value, timing)
    for name, card in cards.items():
        if not any(card.condition.met(players, features(maze, s)) for s in maze.scenarios.values()
                   for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)):
            raise doc.key("cards").key(name).key("condition").fail(
                f"this condition ({card.condition.words()}) is met by no scenario with {MIN_PLAYERS} to "
                f"{MAX_PLAYERS} players: the card could never be used")
    for number, letter in enumerate(LEVELS, start=1):
        problem = deal_problem(deck.level(letter), number, maze)
        if problem:
            raise doc.key("cards").fail(f"level {number} ({letter} cards): {problem}")
    return deck


def deal_problem(cards: list[Card], level: int, maze: MazeData) -> str | None:
    """Why ``cards`` cannot deal every player count in every scenario at ``level``, if so."""
    for scenario in maze.scenarios.values():
        feats = features(maze, scenario)
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            usable = [c for c in cards if c.condition.met(players, feats)]
            if level == 1:
                heroes = sum(c.copies for c in usable if c.kind == "hero")
                if not any(c.kind == "traitor" for c in usable) or heroes < players - 1:
                    return (f"scenario {scenario.name} with {players} players needs a traitor card and "
                            f"{players - 1} hero cards; it has {heroes} hero cards")
            elif sum(c.copies for c in usable) < players:
                return (f"scenario {scenario.name} with {players} players: only "
                        f"{sum(c.copies for c in usable)} cards meet their conditions")
    return None


@dataclass(frozen=True)
class CustomDeck:
    """A custom deck (``--deck FILE``, ``kind: roles`` with ``level`` and ``cards``), and
    whether the game starts with the start tile's hourglass out of order (the rulebook's tip
    for a harder game for the heroes: ``out_of_order_start: true``)."""

    title: str
    level: int
    counts: dict[str, int]
    out_of_order_start: bool = False

    def usable(self, deck: RoleDeck, players: int, feats: frozenset[str], side: str | None = None) -> int:
        """How many of its cards a game of ``players`` and features ``feats`` can deal (each
        card's condition met), of those that start on ``side`` when it is given: a game of
        fewer than ``players`` cannot be dealt from it, nor one of no hero (``no_hero``)."""
        return sum(n for name, n in self.counts.items() if deck.cards[name].condition.met(players, feats)
                   and side in (None, deck.cards[name].side))

    def listing(self, deck: RoleDeck, names: list[str] | None = None, why: bool = False) -> str:
        """``names`` (every card when None) as the deck holds them: ``traitor x2, decoy``; with
        ``why``, each card's condition of use too: ``clean-record x2 (4+ players)``."""
        out = []
        for name in self.counts if names is None else names:
            n, words = self.counts[name], deck.cards[name].condition.words()
            out.append(name + (f" x{n}" if n > 1 else "") + (f" ({words})" if why else ""))
        return ", ".join(out)

    def unusable(self, deck: RoleDeck, players: int, feats: frozenset[str]) -> list[str]:
        """Its cards whose condition a game of ``players`` and features ``feats`` does not meet."""
        return [name for name in self.counts if not deck.cards[name].condition.met(players, feats)]

    def no_hero(self, deck: RoleDeck, players: int, feats: frozenset[str], game: str = "the game") -> str | None:
        """Why a game of ``players`` and features ``feats`` dealt from this deck would have no
        hero, if so: every card it can use starts as a traitor. Every seat a traitor, and, the
        cards dealt from being public, every seat knowing it: nobody plays the heist, the sand
        running out wins it for all, and at level 5 the divining has no face-down card. ``game``
        names the game in the words."""
        if self.usable(deck, players, feats, "hero"):
            return None
        traitors = [name for name in self.counts if deck.cards[name].condition.met(players, feats)]  # (usable ones)
        return (f"every card {game} can use starts as a traitor ({self.listing(deck, traitors)}): every seat would be "
                f"a traitor and know it (the cards dealt from are public); a game needs a card it can use that "
                f"starts as a hero ({HERO_CARDS})")


def parse_custom_deck(doc: Node, deck: RoleDeck) -> CustomDeck:
    document(doc, GAME, "roles")
    doc.only_keys("game", "kind", "title", "level", "cards", "out_of_order_start")
    counts: dict[str, int] = {}
    zero: list[str] = []  # the cards counted 0, left out
    for name, node in doc.key("cards").items():
        if name not in deck.cards:
            raise node.fail(f"no card {quoted(name)} in the role deck; cards: {', '.join(deck.cards)}")
        n = node.integer(0, MAX_COUNT)
        if n:  # (a card counted 0 is left out, as a Classic Mafia deck's is: equal decks are recorded alike)
            counts[name] = n
        else:
            zero.append(name)
    if not counts:
        said = f" (each card it names is counted 0, which leaves it out: {', '.join(zero)})" if zero else ""
        raise doc.key("cards").fail(f"a deck needs cards{said}")
    title = doc.optional("title", "custom role deck").text(max_len=TITLE_MAX_CHARS)
    start = doc.optional("out_of_order_start", False)
    if type(start.value) is not bool:
        raise start.fail(f"true or false, not {quoted(start.value)}: whether the start tile's hourglass is out of order")
    return CustomDeck(title, doc.key("level").integer(1, len(LEVELS)), counts, start.value)


def is_custom(doc: Node) -> bool:
    """A ``kind: roles`` document is a custom deck when it has ``level`` or a ``title``, or counts
    its cards (``traitor: 2``): the packaged deck has every card's definition instead (a
    mapping). A custom deck whose ``level`` is at fault is still one (``validate`` leaves the
    key out to go on, and took the deck for the packaged one: every card wrong)."""
    value = doc.value
    if not isinstance(value, dict):
        return False
    cards = value.get("cards")
    return "level" in value or "title" in value or (
        isinstance(cards, dict) and any(not isinstance(c, dict) for c in cards.values()))


@cache
def load() -> RoleDeck:
    return parse_roles(load_packaged("magic_maze/roles.yaml"), load_maze())


def load_deck_file(path: str | Path) -> CustomDeck:
    return parse_custom_deck(load_file(path), load())


def validate_document(doc: Node) -> None:
    """``arbiter validate`` of a ``kind: roles`` file: the deck of cards, or a custom deck,
    which some game must be able to deal (``dealt_nowhere``), as ``--deck`` is refused where
    it cannot be."""
    if is_custom(doc):
        deck = load()
        custom = parse_custom_deck(doc, deck)
        problem = dealt_nowhere(custom, deck, load_maze())
        if problem is not None:
            raise doc.key("cards").fail(problem)
    else:
        parse_roles(doc, load_maze())


def dealt_nowhere(custom: CustomDeck, deck: RoleDeck, maze: MazeData) -> str | None:
    """Why no game of any scenario, with any number of players, can be dealt from ``custom``
    (each seat takes a card whose condition the game meets, and some card it can use starts as
    a hero: ``CustomDeck.no_hero``), if so; None when one can."""
    nearest: tuple[int, int, int] | None = None  # (cards short, players, cards usable then)
    enough = False  # some game has a card for each seat, but no hero among them
    for scenario in maze.scenarios.values():
        feats = features(maze, scenario)
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            usable = custom.usable(deck, players, feats)
            if usable >= players:
                if custom.no_hero(deck, players, feats) is None:
                    return None
                enough = True
            elif nearest is None or players - usable < nearest[0]:
                nearest = (players - usable, players, usable)
    if enough:
        heroes = [name for name in custom.counts if deck.cards[name].side == "hero"]
        return ("no game can be dealt from this deck with a hero in it: " + (
            f"every card of it starts as a traitor ({custom.listing(deck)})" if not heroes else
            f"wherever {MIN_PLAYERS} to {MAX_PLAYERS} players have a card each whose condition the game meets, "
            f"its cards that start as a hero are not usable ({custom.listing(deck, heroes, why=True)})")
            + f": every seat would be a traitor and know it (the cards dealt from are public); a deck needs a "
              f"card that starts as a hero ({HERO_CARDS})")
    assert nearest is not None
    _, players, usable = nearest
    return (f"no game can be dealt from this deck: each of {MIN_PLAYERS} to {MAX_PLAYERS} players takes a card "
            f"whose condition the game meets, and no scenario has enough with any player count (nearest: "
            f"{players} players, {usable} of its {sum(custom.counts.values())} cards usable)")

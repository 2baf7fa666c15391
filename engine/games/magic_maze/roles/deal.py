"""Setting up Hidden Roles: which cards a game is dealt from (a level's cards, or a custom
deck), the options that record it (what ``arbiter play`` chose, in the transcript), and the
deal itself with the redraw rule.

>>> from arbiter.engine.games.magic_maze import data as mm
>>> maze = mm.load()
>>> setup = RoleSetup.from_options({"players": 4, "roles": 1})
>>> setup.level, setup.cards
(1, ('traitor', 'hero', 'hero', 'hero'))
>>> deal(["hero", "clean-record", "mute", "traitor"], 3, maze.scenarios["1"], maze, setup.deck)
[('hero', ()), ('mute', ('clean-record',)), ('traitor', ())]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.engine.errors import ScenarioError, SetupError
from arbiter.engine.games.magic_maze.data import MazeData, Scenario
from arbiter.engine.games.magic_maze.roles import data as rd
from arbiter.engine.scenario import Node, deck_document, deck_kind, lines_named
from arbiter.engine.yamlio import line_of

LEVEL_TITLES = {
    1: "there is a traitor among you",
    2: "multiple traitors... could be!",
    3: "missions and special rules",
    4: "particular circumstances",
    5: "missions for traitors",
}
DEFAULT_PLAYERS = 4
"""The player count of a Hidden Roles game set up without ``--players``."""
ALLOWED_PLAYERS = [f"--players {n}" for n in range(rd.MIN_PLAYERS, rd.MAX_PLAYERS + 1)]


@dataclass(frozen=True)
class RoleSetup:
    """What a Hidden Roles game is dealt from: the level whose rules apply, the cards before
    the shuffle (card names, a name once per copy, in the deck's order), and a title; and
    whether the start tile's hourglass is out of order from the start (a custom deck's
    ``out_of_order_start``)."""

    level: int
    cards: tuple[str, ...]
    title: str
    custom: bool
    deck: rd.RoleDeck
    out_of_order_start: bool = False

    @property
    def multi(self) -> bool:
        """Accusations of several seats, phantoms and abandoning: level 2 on."""
        return self.level >= 2

    @property
    def divining(self) -> bool:
        return self.level >= 5

    def marks_ms(self) -> list[int]:
        """The moments a card of this deck may change by time alone (a theft before, or no
        theft before, N seconds), from every card the deck holds, dealt or not: public, so the
        game's timed changes never tell which cards were dealt."""
        out = set()
        for name in set(self.cards):
            card = self.deck.cards[name]
            for pred in (card.mission, card.switch):
                if pred is not None and pred.name in ("theft-before", "no-theft-before"):
                    out.add(pred["seconds"] * 1000)
        return sorted(out)

    @staticmethod
    def from_options(options: dict[str, Any]) -> RoleSetup:
        """The setup that ``options`` record (``roles``: a level; ``deck``: a custom deck)."""
        node = Node(dict(options), "options")
        deck = rd.load()
        if node.has("roles") and node.has("deck"):
            raise node.key("deck").fail("a custom deck has its own level; options hold roles or deck, not both")
        if node.has("roles"):
            level = node.key("roles").integer(1, len(rd.LEVELS))
            players = node.optional("players", DEFAULT_PLAYERS).integer(rd.MIN_PLAYERS, rd.MAX_PLAYERS)
            return RoleSetup(level, level_cards(deck, level, players), f"level {level}, {LEVEL_TITLES[level]}",
                             False, deck)
        d = node.key("deck")
        d.only_keys("title", "level", "cards", "out_of_order_start")
        custom = rd.parse_custom_deck(Node({"game": rd.GAME, "kind": "roles", **d.mapping()}, "options", "deck"), deck)
        cards = tuple(name for name in deck.cards if name in custom.counts for _ in range(custom.counts[name]))
        start = "; the start tile's hourglass out of order" if custom.out_of_order_start else ""
        return RoleSetup(custom.level, cards, f"{custom.title} (a custom deck, level {custom.level}{start})", True,
                         deck, custom.out_of_order_start)


def level_cards(deck: rd.RoleDeck, level: int, players: int) -> tuple[str, ...]:
    """The cards of ``level``: at level 1 one traitor and a hero for each other player; from
    level 2 every card of the level's letter, with its copies."""
    letter = rd.LEVELS[level - 1]
    if level == 1:
        traitor = next(c.id for c in deck.level(letter) if c.kind == "traitor")
        hero = next(c.id for c in deck.level(letter) if c.kind == "hero")
        return (traitor,) + (hero,) * (players - 1)
    return tuple(c.id for c in deck.level(letter) for _ in range(c.copies))


def _check_kind(doc: Node) -> None:
    """A usage error of ``--deck`` unless ``doc`` is a Hidden Roles deck (game and kind)."""
    game, kind, what = deck_kind(doc)
    if (game, kind) != (rd.GAME, "roles"):
        raise SetupError(f"{doc.source}: Magic Maze takes a Hidden Roles deck (game: {rd.GAME}, kind: "
                         f"roles, with a level); {what}", option="--deck")


def options_for(scenario: Scenario, maze: MazeData, players: int | None, level: int | None,
                deck_file: str | Node | None) -> dict[str, Any]:
    """The options of a Hidden Roles game (``--roles LEVEL`` or ``--deck FILE``, and
    ``--players``); refuses what cannot be dealt, naming what can."""
    if level is not None and deck_file is not None:
        try:  # a Classic Mafia deck has no level: that it is not the deck --deck takes is said first
            _check_kind(deck_document(deck_file))
        except ScenarioError:
            pass  # (a file that cannot be read: the clash of the options is said, as before)
        raise SetupError("--deck FILE brings its own level (its 'level:' key); leave out --roles", option="--roles")
    players = DEFAULT_PLAYERS if players is None else players
    if not rd.MIN_PLAYERS <= players <= rd.MAX_PLAYERS:
        raise SetupError(f"Magic Maze: Hidden Roles is played by {rd.MIN_PLAYERS} to {rd.MAX_PLAYERS} "
                         f"players, not {players}", ALLOWED_PLAYERS, "--players")
    if level is not None:
        try:  # (the level checked now, in the words the check of the options gives when the game is made)
            Node({"roles": level}, "options").key("roles").integer(1, len(rd.LEVELS))
        except ScenarioError as exc:
            raise SetupError(exc.message, option="--roles") from None
        return {"players": players, "roles": level}
    assert deck_file is not None
    deck = rd.load()
    doc = deck_document(deck_file)
    _check_kind(doc)
    with lines_named(doc):
        custom = rd.parse_custom_deck(doc, deck)
    feats = rd.features(maze, scenario)
    usable = custom.usable(deck, players, feats)
    game = f"scenario {scenario.name} with {players} players"
    unusable = custom.unusable(deck, players, feats)
    not_here = f"; {game} cannot use {custom.listing(deck, unusable, why=True)}" if unusable else ""
    if usable < players:
        raise SetupError(f"the deck of {doc.source} has {usable} card(s) that {game} can use (conditions met), "
                         f"too few for {players} players{not_here}", option="--deck")
    # (refused where a new game is set up, not where one is read: a game recorded with such a deck
    # replays, and a tournament an older version made with one resumes: its recorded deck)
    no_hero = None if doc.recorded else custom.no_hero(deck, players, feats, game)
    if no_hero is not None:
        line = None if doc.file_text is None else line_of(doc.file_text, ("cards",))
        where = f"{doc.source}:{line}: cards" if line is not None else f"{doc.source}: cards"
        raise SetupError(f"{where}: {no_hero}{not_here}", option="--deck")
    recorded = {"title": custom.title, "level": custom.level, "cards": dict(custom.counts)}
    if custom.out_of_order_start:  # (only when set: a deck without it is recorded as it always was)
        recorded["out_of_order_start"] = True
    return {"players": players, "deck": recorded}


def deal(shuffled: list[str], players: int, scenario: Scenario, maze: MazeData,
         deck: rd.RoleDeck) -> list[tuple[str, tuple[str, ...]]]:
    """Deal ``shuffled`` (top first) to ``players`` seats in seat order, with the redraw rule:
    a card whose condition the game does not meet is discarded and the seat takes the next.
    Each seat's card, with the cards it discarded first."""
    feats = rd.features(maze, scenario)
    pile = list(shuffled)
    out: list[tuple[str, tuple[str, ...]]] = []
    for _ in range(players):
        discarded: list[str] = []
        while pile and not deck.cards[pile[0]].condition.met(players, feats):
            discarded.append(pile.pop(0))
        if not pile:
            raise SetupError(f"the role cards ran out: too few of them meet their conditions in scenario "
                             f"{scenario.name} with {players} players")
        out.append((pile.pop(0), tuple(discarded)))
    return out

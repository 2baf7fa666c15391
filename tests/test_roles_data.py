"""The role deck of Hidden Roles is data the engine judges: every card's kind, levels and
condition, and a predicate from the engine's vocabulary for each mission, rule and switch.
A broken deck names the file, the path and the problem; the packaged deck deals every level
to 3-8 players in every scenario, and the rules doc lists every card."""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
from pathlib import Path

import pytest
import yaml

from arbiter.engine.errors import ScenarioError
from arbiter.engine.games.magic_maze.data import load as load_maze
from arbiter.engine.games.magic_maze.roles import data as rd
from arbiter.engine.scenario import load_text

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = (ROOT / "scenarios" / "magic_maze" / "roles.yaml").read_text(encoding="utf-8")


def parse(cards: dict) -> rd.RoleDeck:
    text = yaml.safe_dump({"game": "magic-maze", "kind": "roles", "cards": cards}, sort_keys=False)
    return rd.parse_roles(load_text(text, "roles.yaml"), load_maze())


@functools.cache
def _packaged_deck() -> dict:
    """The packaged deck as the YAML library reads it, read once a process (``packaged_cards``
    hands out copies: the tests change them)."""
    return yaml.safe_load(PACKAGED)


def packaged_cards() -> dict:
    return copy.deepcopy(_packaged_deck()["cards"])


def test_the_deck_has_the_counts_of_every_kind() -> None:
    deck = rd.load()
    count = {kind: sum(c.copies for c in deck.cards.values() if c.kind == kind) for kind in rd.KINDS}
    assert count["hero"] == 8 and count["traitor"] == 3
    assert count["hero-mission"] >= 10 and count["hero-rule"] >= 6
    assert count["variable"] >= 8 and count["traitor-mission"] >= 5
    assert all(set(c.levels) <= {"A", "B"} for c in deck.cards.values() if c.kind == "hero")
    assert all(set(c.levels) == {"A", "B", "C", "D"} for c in deck.cards.values() if c.kind == "traitor")
    assert all(set(c.levels) == {"C", "E"} for c in deck.cards.values() if c.kind == "hero-mission")
    assert all(c.levels == ("C",) for c in deck.cards.values() if c.kind == "hero-rule")
    assert all(c.levels == ("D",) for c in deck.cards.values() if c.kind == "variable")
    assert all(c.levels == ("E",) for c in deck.cards.values() if c.kind == "traitor-mission")


def test_every_predicate_and_rule_of_the_vocabulary_is_on_a_card() -> None:
    deck = rd.load()
    used = {p.name for c in deck.cards.values() for p in (c.mission, c.switch) if p is not None}
    rules = {c.rule.name for c in deck.cards.values() if c.rule is not None}
    assert rules == set(rd.RULES)
    assert used == set(rd.PREDICATES), sorted(set(rd.PREDICATES) - used)


def test_the_rules_doc_lists_every_card() -> None:
    doc = (ROOT / "docs" / "rules" / "hidden-roles.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z-]+)`", doc, re.MULTILINE))
    assert set(rd.load().cards) <= listed, sorted(set(rd.load().cards) - listed)


@pytest.mark.parametrize("card, problem", [
    ({"kind": "hero-mission", "levels": ["C"], "mission": {"hero-leaves-second": {"hero": "purple"}}},
     r"cards\.x\.mission\.hero-leaves-second: unknown mission predicate 'hero-leaves-second'; known: hero-leaves-first"),
    ({"kind": "hero-mission", "levels": ["C"], "mission": {"hero-leaves-first": {}}},
     r"cards\.x\.mission\.hero-leaves-first: hero-leaves-first needs the parameter 'hero' \(hero\)"),
    ({"kind": "hero-mission", "levels": ["C"], "mission": {"completes-theft": {"hero": "purple"}}},
     r"completes-theft has no parameter 'hero' \(its parameters: none\)"),
    ({"kind": "hero-mission", "levels": ["C"], "mission": {"hero-leaves-first": {"hero": "mage"}}},
     r"cards\.x\.mission\.hero-leaves-first\.hero: 'mage' is not one of: purple, yellow, green, orange"),
    ({"kind": "hero-mission", "levels": ["C"], "mission": {"theft-before": {"seconds": 0}}},
     r"theft-before\.seconds: 0 is out of range"),
    ({"kind": "hero-rule", "levels": ["C"], "rule": {"never-talks": {}}},
     r"cards\.x\.rule\.never-talks: unknown rule predicate 'never-talks'"),
    ({"kind": "hero-rule", "levels": ["C"]}, r"cards\.x: a hero-rule card needs 'rule'"),
    ({"kind": "hero", "levels": ["A"], "mission": {"completes-theft": {}}}, r"cards\.x\.mission: a hero card has no 'mission'"),
    ({"kind": "variable", "levels": ["D"], "switch": {"completes-theft": {}}}, r"cards\.x: a variable card needs 'starts'"),
    ({"kind": "hero", "levels": ["F"]}, r"cards\.x\.levels\[0\]: 'F' is not one of: A, B, C, D, E"),
    ({"kind": "hero", "levels": ["A"], "condition": {"players": 9}},
     r"cards\.x\.condition: this condition \(9\+ players\) is met by no scenario with 3 to 8 players"),
    ({"kind": "hero", "levels": ["A"], "condition": {"needs": ["lasers"]}},
     r"cards\.x\.condition\.needs\[0\]: 'lasers' is not one of: own-exits"),
])
def test_a_broken_card_is_named_with_its_path_and_problem(card: dict, problem: str) -> None:
    cards = packaged_cards()
    cards["x"] = {"title": "X", "text": "A test card.", **card}
    with pytest.raises(ScenarioError, match=problem):
        parse(cards)


def test_a_level_that_cannot_deal_eight_players_is_refused() -> None:
    cards = packaged_cards()
    for name, card in cards.items():  # D cards that need cameras: scenario 1 cannot deal 8 players
        if "D" in card["levels"] and card["kind"] == "variable":
            card["condition"] = {"needs": ["cameras"]}
    with pytest.raises(ScenarioError, match=r"level 4 \(D cards\): scenario 1 with 4 players: only 3 cards"):
        parse(cards)


def test_level_one_needs_a_traitor_and_heroes() -> None:
    cards = packaged_cards()
    cards["hero"]["copies"] = 5
    with pytest.raises(ScenarioError, match=r"level 1 \(A cards\): scenario 1 with 7 players needs a traitor card "
                                            r"and 6 hero cards; it has 5 hero cards"):
        parse(cards)


def test_level_one_without_a_traitor_card_is_refused() -> None:
    cards = packaged_cards()
    cards["traitor"]["levels"] = [level for level in cards["traitor"]["levels"] if level != "A"]
    with pytest.raises(ScenarioError, match=r"level 1 \(A cards\): scenario 1 with 3 players needs a traitor card "
                                            r"and 2 hero cards; it has 8 hero cards"):
        parse(cards)


def test_conditions_follow_the_scenario_features() -> None:
    maze = load_maze()
    assert rd.features(maze, maze.scenarios["1"]) == frozenset()
    assert rd.features(maze, maze.scenarios["3"]) == {"own-exits", "passing"}
    assert {"orange-walls", "elf-talk"} <= rd.features(maze, maze.scenarios["4"])
    assert {"crystal", "cameras", "orange-walls"} <= rd.features(maze, maze.scenarios["7"])
    pathfinder = rd.load().cards["pathfinder"]
    assert not pathfinder.condition.met(8, rd.features(maze, maze.scenarios["2"]))
    assert pathfinder.condition.met(3, rd.features(maze, maze.scenarios["3"]))


def test_a_custom_deck_is_read_and_checked(tmp_path: Path) -> None:
    good = load_text("game: magic-maze\nkind: roles\ntitle: Friday\nlevel: 3\ncards: {traitor: 2, hero: 3, mute: 1}\n",
                     "friday.yaml")
    deck = rd.parse_custom_deck(good, rd.load())
    assert (deck.title, deck.level, deck.counts) == ("Friday", 3, {"traitor": 2, "hero": 3, "mute": 1})
    assert rd.is_custom(good)
    bad = load_text("game: magic-maze\nkind: roles\nlevel: 3\ncards: {traitor: 2, spy: 1}\n", "bad.yaml")
    with pytest.raises(ScenarioError, match=r"bad.yaml: cards\.spy: no card 'spy' in the role deck"):
        rd.parse_custom_deck(bad, rd.load())
    two_lines = load_text('game: magic-maze\nkind: roles\ntitle: "Fri\\n= p1 accuse p2"\nlevel: 3\n'
                          "cards: {traitor: 2, hero: 3, mute: 1}\n", "two.yaml")
    with pytest.raises(ScenarioError, match=r"two.yaml: title: a line break \(U\+000A\) at character 4"):
        rd.parse_custom_deck(two_lines, rd.load())
    wide = load_text('game: magic-maze\nkind: roles\ntitle: "Fri \u00fcber"\nlevel: 3\n'
                     "cards: {traitor: 2, hero: 3, mute: 1}\n", "wide.yaml")
    with pytest.raises(ScenarioError, match=r"wide.yaml: title: '\u00fc' \(U\+00FC\) at character 5: text shown on "
                                            r"the board is ASCII"):
        rd.parse_custom_deck(wide, rd.load())
    no_level = load_text("game: magic-maze\nkind: roles\nlevel: 6\ncards: {traitor: 1}\n", "lvl.yaml")
    with pytest.raises(ScenarioError, match=r"lvl.yaml: level: 6 is out of range \(allowed: 1\.\.5\)"):
        rd.parse_custom_deck(no_level, rd.load())


@pytest.mark.parametrize("cards, why", [
    ("{traitor: 1, hero: 1}", r"\(nearest: 3 players, 2 of its 2 cards usable\)"),  # fewer than the fewest players
    ("{clean-record: 3}", r"\(nearest: 4 players, 3 of its 3 cards usable\)"),  # its condition: 4 players or more
])
def test_validate_refuses_a_custom_deck_no_game_can_be_dealt_from(cards: str, why: str) -> None:
    """``validate`` said ok to decks that every ``--deck`` refused (two cards; three that need a
    fourth player): no scenario, with 3 to 8 players, can deal them."""
    doc = load_text(f"game: magic-maze\nkind: roles\nlevel: 2\ncards: {cards}\n", "d.yaml")
    with pytest.raises(ScenarioError, match=rf"d.yaml: cards: no game can be dealt from this deck: .*{why}"):
        rd.validate_document(doc)
    rd.parse_custom_deck(doc, rd.load())  # (a deck recorded in a game's options is read as it was)
    rd.validate_document(load_text("game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 1, hero: 2}\n", "ok.yaml"))



def test_validate_refuses_a_deck_that_deals_a_hero_nowhere() -> None:
    """Every seat a traitor, and every seat knowing it (the cards dealt from are public): no game
    the rules mean. ``validate`` said ok to a deck of traitors alone; it names them now, or, where
    the deck holds heroes that no game with enough cards can use, those heroes' conditions."""
    doc = load_text("game: magic-maze\nkind: roles\nlevel: 5\ncards: {traitor: 2, decoy: 1, explorer-traitor: 1}\n",
                    "t.yaml")
    with pytest.raises(ScenarioError, match=r"^t.yaml: cards: no game can be dealt from this deck with a hero in it: "
                                            r"every card of it starts as a traitor \(traitor x2, decoy, "
                                            r"explorer-traitor\): every seat would be a traitor"):
        rd.validate_document(doc)
    # A hero card of a deck whose only games with a card for each seat cannot use it (data where a
    # card needs 5 players: three traitors deal three players, and five players lack a card).
    packaged = rd.load()
    five = dataclasses.replace(packaged.cards["clean-record"], condition=rd.Condition(players=5))
    deck = dataclasses.replace(packaged, cards={**packaged.cards, "clean-record": five})
    custom = rd.CustomDeck("t", 2, {"traitor": 3, "clean-record": 1})
    assert rd.dealt_nowhere(custom, deck, load_maze()) == (
        "no game can be dealt from this deck with a hero in it: wherever 3 to 8 players have a card each whose "
        "condition the game meets, its cards that start as a hero are not usable (clean-record (5+ players)): every "
        "seat would be a traitor and know it (the cards dealt from are public); a deck needs a card that starts as "
        "a hero (hero, a hero mission or rule, or a variable card that starts as a hero)")
    assert rd.dealt_nowhere(custom, packaged, load_maze()) is None  # (four players can use clean-record)

def test_a_magic_maze_file_of_no_kind_names_roles_among_the_kinds() -> None:
    """A Hidden Roles deck misnamed (``kind: rolez``) was told the kinds were tiles, scenarios
    and actions: the one it meant was missing."""
    from arbiter.engine import registry

    with pytest.raises(ScenarioError, match=r"kind: 'rolez' is not one of: tiles, scenarios, actions, roles$"):
        registry.get("magic-maze").validate_document(load_text("game: magic-maze\nkind: rolez\n", "k.yaml"))

"""The Classic Mafia rules, one focused test per rule: the deck a game is dealt from, and the
introduction night.

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import ScenarioError
from arbiter.engine.events import HOST
from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.rules import variant_name
from arbiter.engine.scenario import Node
from arbiter.engine.session import Session

from tests.helpers import MAFIA, host, mafia_game, of_kind
from tests.mafia_staging import ALL, ALL_DECK, EIGHT, SEVEN, awaited, quiet_day


# ========================================================================= deck selection

D = md.load()


@pytest.mark.parametrize("players", range(6, 13))
def test_each_default_setup_keeps_the_selection_rules(players):
    deck = D.setups[players]
    assert sum(deck.values()) == players
    assert md.deck_problem(deck, D) is None


def test_a_variant_describes_its_default_deck_with_counts_above_one():
    variants = {v.name: v for v in MAFIA.variants()}
    assert variants["9-players"].description == (
        "default deck: Agent, Civilian x2, Police Chief, Police, Mafia Boss, Mafia x2, Fighter")
    assert variants["9-players"].seats == tuple(f"p{i}" for i in range(1, 10))


def test_deck_with_two_leaders_is_refused_with_the_counts():
    deck = {"boss": 1, "mafia": 1, "seducer": 1, "agent": 1, "chief": 1, "civilian": 2}
    assert md.deck_problem(deck, D) == \
        "exactly one leader (Seducer or Agent) is needed and it has 2 (seducer 1, agent 1)"


def test_deck_with_no_leader_is_refused():
    deck = {"boss": 1, "mafia": 1, "chief": 1, "civilian": 3}
    assert md.deck_problem(deck, D) == "exactly one leader (Seducer or Agent) is needed and it has none"


def test_deck_ratio_below_one_and_a_half_is_refused_with_the_counts():
    deck = {"boss": 1, "mafia": 2, "seducer": 1, "civilian": 3}  # town 4 / Mafia 3
    assert md.deck_problem(deck, D) == (
        "the town side must be 1.5 to 2.5 times the Mafia side: town 4 (seducer 1, civilian 3) "
        "against Mafia 3 (boss 1, mafia 2) is 1.33 times")


def test_deck_ratio_above_two_and_a_half_is_refused_with_the_counts():
    deck = {"boss": 1, "mafia": 1, "seducer": 1, "chief": 1, "civilian": 4}  # town 6 / Mafia 2
    assert md.deck_problem(deck, D) == (
        "the town side must be 1.5 to 2.5 times the Mafia side: town 6 (seducer 1, civilian 4, chief 1) "
        "against Mafia 2 (boss 1, mafia 1) is 3.00 times")


def test_deck_ratio_of_exactly_one_and_a_half_is_accepted():
    deck = {"boss": 1, "mafia": 1, "seducer": 1, "chief": 1, "civilian": 1, "chameleon": 1, "fighter": 1}
    assert md.deck_problem(deck, D) is None  # town 3 / Mafia 2; loners count for neither


def test_deck_ratio_of_exactly_two_and_a_half_is_accepted():
    deck = {"boss": 1, "mafia": 1, "seducer": 1, "chief": 1, "civilian": 3}  # town 5 / Mafia 2
    assert md.deck_problem(deck, D) is None


def test_deck_with_more_copies_than_the_deck_holds_is_refused():
    deck = {"boss": 1, "mafia": 3, "seducer": 1, "civilian": 7}  # 6 Civilians exist
    assert md.deck_problem(deck, D) == "7 Civilian cards, but the deck holds only 6"


def test_deck_without_a_mafia_side_card_is_refused():
    deck = {"seducer": 1, "chief": 1, "civilian": 4}
    assert md.deck_problem(deck, D) == "at least one Mafia-side card (Mafia Boss or Mafia) is needed"


def test_deck_of_fewer_than_six_cards_is_refused():
    deck = {"boss": 1, "seducer": 1, "civilian": 1, "chameleon": 1, "fighter": 1}
    assert md.deck_problem(deck, D) == "a game needs 6 to 12 players, one card each; this deck has 5 cards"


def test_deck_of_more_than_twelve_cards_is_refused():
    deck = {"boss": 1, "mafia": 3, "seducer": 1, "chief": 1, "police": 2, "civilian": 5}  # 9 / 4
    assert md.deck_problem(deck, D) == "a game needs 6 to 12 players, one card each; this deck has 13 cards"
    assert md.deck_problem({"boss": 1}, D).startswith("a game needs 6 to 12 players, one card each; this deck has 1 card;")


def test_deck_breaking_several_rules_names_each_of_them():
    problem = md.deck_problem({"boss": 1, "civilian": 5}, D)
    assert problem.split("; ") == [
        "exactly one leader (Seducer or Agent) is needed and it has none",
        "the town side must be 1.5 to 2.5 times the Mafia side: town 5 (civilian 5) against Mafia 1 (boss 1) "
        "is 5.00 times",
    ]


def test_check_deck_refuses_a_bad_deck_node_with_scenario_error():
    node = Node({"boss": 1, "mafia": 1, "chief": 1, "civilian": 3}, "deck.yaml", "cards")
    with pytest.raises(ScenarioError) as info:
        md.check_deck(node, D)
    assert info.value.problem == "deck refused: exactly one leader (Seducer or Agent) is needed and it has none"
    assert "deck refused" in info.value.message


def test_check_deck_accepts_a_good_deck_in_card_order():
    node = Node({"fighter": 1, "civilian": 2, "boss": 1, "mafia": 1, "agent": 1, "chief": 1}, "deck.yaml", "cards")
    deck = md.check_deck(node, D)
    assert list(deck.items()) == [("agent", 1), ("civilian", 2), ("chief", 1), ("boss", 1), ("mafia", 1),
                                  ("fighter", 1)]


def test_session_refuses_a_custom_deck_of_the_wrong_size():
    seven = {"boss": 1, "mafia": 1, "agent": 1, "chief": 1, "civilian": 2, "fighter": 1}
    assert md.deck_problem(seven, D) is None
    with pytest.raises(ScenarioError) as info:
        Session(MAFIA, variant_name(8), seed=0, options={"deck": seven})
    assert "the deck has 7 cards for 8 players" in info.value.message


def test_session_refuses_a_custom_deck_breaking_the_rules():
    bad = {"boss": 1, "mafia": 1, "seducer": 1, "agent": 1, "chief": 1, "civilian": 3}
    with pytest.raises(ScenarioError) as info:
        Session(MAFIA, variant_name(8), seed=0, options={"deck": bad})
    assert "deck refused: exactly one leader" in info.value.message


def test_custom_deck_is_dealt_and_listed_in_the_opening_event():
    s = mafia_game(ALL, deck=ALL_DECK)
    assert host(s)["cards"] == {f"p{i}": c for i, c in enumerate(ALL, 1)}
    setup = s.events[0]
    assert (setup.kind, setup.to) == ("setup", None)
    assert setup.data == {"players": 8, "deck": {"seducer": 1, "civilian": 1, "chief": 1, "police": 1,
                                                 "boss": 1, "mafia": 1, "chameleon": 1, "fighter": 1}}


# ==================================================================== introduction night


def test_introduction_night_tells_each_seat_its_card_privately():
    s = mafia_game(EIGHT)
    cards = of_kind(s.events, "card")
    assert [(e.to, e.data) for e in cards] == [((f"p{i}",), {"seat": f"p{i}", "card": c})
                                               for i, c in enumerate(EIGHT, 1)]


def test_introduction_night_shows_each_team_to_exactly_its_members():
    s = mafia_game(EIGHT)
    teams = of_kind(s.events, "team")
    assert [(e.to, e.data) for e in teams] == [
        (("p1", "p2"), {"team": "mafia", "members": {"p1": "boss", "p2": "mafia"}}),
        (("p4", "p5"), {"team": "police", "members": {"p4": "chief", "p5": "police"}}),
    ]
    assert host(s)["night"] == 0 and not of_kind(s.events, "night-act")


def test_introduction_night_shows_a_lone_chief_a_police_team_of_one():
    s = mafia_game(SEVEN)
    assert [(e.to, e.data["team"]) for e in of_kind(s.events, "team")] == [(("p1", "p2"), "mafia"),
                                                                           (("p4",), "police")]


def test_a_seat_knows_its_team_cards_but_not_the_others():
    s = mafia_game(EIGHT)
    assert s.state.view("p2")["cards"] == {"p1": "boss", "p2": "mafia"}
    assert s.state.view("p5")["cards"] == {"p4": "chief", "p5": "police"}
    assert s.state.view("p6")["cards"] == {"p6": "civilian"}


def test_a_seats_view_names_its_team_and_shows_a_night_step_to_those_awake_in_it():
    """A team's members see its seats (the Seducer, town-side but acting alone, has none);
    at night the step is shown to those awake in it and the host, and a team's suggestions
    to the team."""
    s = mafia_game(EIGHT)
    teams = {seat: s.state.view(seat).get("team") for seat in ("p1", "p2", "p3", "p5", "p6", HOST)}
    assert teams == {"p1": ["p1", "p2"], "p2": ["p1", "p2"], "p3": None, "p5": ["p4", "p5"], "p6": None, HOST: None}

    def night(seat: str) -> tuple:
        view = s.state.view(seat)
        return view.get("step"), view.get("suggestions")
    quiet_day(s)
    seen = {seat: night(seat) for seat in ("p1", "p3", "p6", HOST)}
    assert seen == {"p1": (None, None), "p3": ("seducer", None), "p6": (None, None), HOST: ("seducer", None)}
    s.submit("p3", "seduce p4")
    s.submit("p2", "suggest p7")
    seen = {seat: night(seat) for seat in ("p1", "p2", "p3", "p6", HOST)}
    assert seen == {"p1": ("mafia", {"p2": "p7"}), "p2": ("mafia", {"p2": "p7"}), "p3": (None, None),
                    "p6": (None, None), HOST: ("mafia", {"p2": "p7"})}


def test_day_one_nominations_await_every_seat():
    s = mafia_game(EIGHT)
    assert awaited(s) == [(f"p{i}", "nominate") for i in range(1, 9)]
    assert host(s)["phase"] == "day 1: nominations"
    assert s.events[-1].data == {"day": 1}

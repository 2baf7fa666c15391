"""The Classic Mafia rules, one focused test per rule.

Authority: the rules as implemented, docs/rules/mafia.md. Deals are staged with
``tests.helpers.mafia_game`` (the recorded ``deal`` chance outcome); games are driven only
through ``Session.submit`` and read through the state's view, awaiting, legal inputs and
result, and the event log.

Deals used below (seat: card):

    EIGHT (default 8):  p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Police, p6 Civilian,
                        p7 Civilian, p8 Chameleon.   Night: p3, p1 (+p2), p4 (+p5), p8.
    SEVEN (default 7):  p1 Boss, p2 Mafia, p3 Agent, p4 Chief, p5 Civilian, p6 Civilian,
                        p7 Fighter.                  Night: p3, p1 (+p2), p4, p7.
    NINE (default 9):   p1 Boss, p2 Mafia, p3 Mafia, p4 Agent, p5 Chief, p6 Police,
                        p7 Civilian, p8 Civilian, p9 Fighter.
    SIX (default 6):    p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Civilian, p6 Civilian.
    ALL (custom 8):     p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Police, p6 Civilian,
                        p7 Chameleon, p8 Fighter.    Night: p3, p1 (+p2), p4 (+p5), p7, p8.
"""

from __future__ import annotations

import random

import pytest

from arbiter.engine.errors import (
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    ScenarioError,
    SyntaxInputError,
    UnknownSeatError,
)
from arbiter.engine.events import HOST
from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.moves import move_name, parse_move
from arbiter.engine.games.mafia.rules import variant_name
from arbiter.engine.scenario import Node
from arbiter.engine.session import Session
from tests.helpers import MAFIA, host, mafia_game, of_kind, play, refused, since

EIGHT = ["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"]
SEVEN = ["boss", "mafia", "agent", "chief", "civilian", "civilian", "fighter"]
NINE = ["boss", "mafia", "mafia", "agent", "chief", "police", "civilian", "civilian", "fighter"]
SIX = ["boss", "mafia", "seducer", "chief", "civilian", "civilian"]
ALL = ["boss", "mafia", "seducer", "chief", "police", "civilian", "chameleon", "fighter"]
ALL_DECK = {c: 1 for c in ALL}
ALL_AGENT = ["boss", "mafia", "agent", "chief", "police", "civilian", "chameleon", "fighter"]
ALL_AGENT_DECK = {c: 1 for c in ALL_AGENT}


# ============================================================================== helpers




def awaited(s: Session) -> list[tuple[str, str]]:
    return [(a.seat, a.kind) for a in s.state.awaiting()]










def public(events) -> list:
    return [e for e in events if e.to is None]


def nominate(s: Session, **nominees: str) -> None:
    """Day nominations: ``seat=nominee`` for the given seats (in seat order), everyone else passes."""
    for seat in [a.seat for a in s.state.awaiting()]:
        s.submit(seat, f"nominate {nominees[seat]}" if seat in nominees else "pass")


def quiet_day(s: Session) -> None:
    """Everyone passes the nominations: night falls."""
    nominate(s)


def vote_round(s: Session, default: str | None = None, **votes: str | None) -> None:
    """Play one roll-call round: each voter called votes per ``votes`` (else ``default``;
    None abstains)."""
    round_ = host(s)["round"]
    day = host(s)["day"]
    while s.state.awaiting() and host(s).get("round") == round_ and host(s)["day"] == day \
            and awaited(s)[0][1] == "vote":
        voter = awaited(s)[0][0]
        choice = votes.get(voter, default)
        s.submit(voter, f"vote {choice}" if choice else "abstain")


def expel(s: Session, seat: str, by: str = "p1") -> None:
    """A day on which ``by`` nominates ``seat`` and everyone else votes for it (``seat``
    abstains). ``by`` must differ from ``seat``."""
    nominate(s, **{by: seat})
    vote_round(s, default=seat, **{seat: None})


def night_steps(events) -> list[str]:
    return [e.data["step"] for e in events if e.kind == "narration" and "step" in e.data]


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


def test_introduction_night_with_a_lone_chief_shows_only_the_mafia_team():
    s = mafia_game(SEVEN)
    assert [(e.to, e.data["team"]) for e in of_kind(s.events, "team")] == [(("p1", "p2"), "mafia"),
                                                                           (("p4",), "police")]


def test_a_seat_knows_its_team_cards_but_not_the_others():
    s = mafia_game(EIGHT)
    assert s.state.view("p2")["cards"] == {"p1": "boss", "p2": "mafia"}
    assert s.state.view("p5")["cards"] == {"p4": "chief", "p5": "police"}
    assert s.state.view("p6")["cards"] == {"p6": "civilian"}


def test_a_seats_view_names_its_team_and_shows_a_night_step_to_those_awake_in_it():
    """A team's members see its seats (the Seducer, Mafia-side but acting alone, has none);
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


# =========================================================================== nominations


def test_nomination_is_public_and_answers_that_seat():
    s = mafia_game(EIGHT)
    events = s.submit("p1", "nominate p6")
    assert [(e.kind, e.data, e.to) for e in events] == [("nominate", {"seat": "p1", "nominee": "p6"}, None)]
    assert host(s)["nominations"] == {"p6": "p1"}
    assert ("p1", "nominate") not in awaited(s) and len(awaited(s)) == 7


def test_a_seat_nominates_only_once():
    s = mafia_game(EIGHT)
    s.submit("p1", "nominate p6")
    assert refused(s, "p1", "nominate p7", IllegalMoveError) == "p1 has already nominated p6 today"
    assert refused(s, "p1", "pass", IllegalMoveError) == "p1 has already nominated or passed today"


def test_a_seat_passes_only_once():
    s = mafia_game(EIGHT)
    events = s.submit("p1", "pass")
    assert [(e.kind, e.data) for e in events] == [("pass", {"seat": "p1"})]
    assert refused(s, "p1", "pass", IllegalMoveError) == "p1 has already nominated or passed today"
    assert refused(s, "p1", "nominate p6", IllegalMoveError) == "p1 has already passed today"


def test_nobody_nominates_themselves():
    s = mafia_game(EIGHT)
    refused(s, "p3", "nominate p3", IllegalMoveError)
    assert "nominate p3" not in s.state.legal_inputs("p3")


def test_a_nominated_player_cannot_be_nominated_again():
    s = mafia_game(EIGHT)
    s.submit("p1", "nominate p6")
    refused(s, "p2", "nominate p6", IllegalMoveError)
    assert "nominate p6" not in s.state.legal_inputs("p2")
    s.submit("p2", "nominate p7")
    assert host(s)["nominations"] == {"p6": "p1", "p7": "p2"}


def test_the_out_cannot_be_nominated():
    s = mafia_game(EIGHT)
    s.submit("p8", "leave")
    refused(s, "p1", "nominate p8", IllegalMoveError)


def test_say_by_day_does_not_answer_the_nomination():
    s = mafia_game(EIGHT)
    s.submit("p1", "say I suspect p2")
    assert awaited(s)[0] == ("p1", "nominate")


def test_banned_player_may_still_nominate():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    assert host(s)["no_vote"] == "p2"
    s.submit("p2", "nominate p6")
    assert host(s)["nominations"] == {"p6": "p2"}


def test_no_nominee_means_nobody_leaves_and_night_one_falls():
    s = mafia_game(EIGHT)
    start = len(s.events)
    quiet_day(s)
    new = since(s, start)
    verdict = of_kind(new, "verdict")
    assert [(e.data, e.to) for e in verdict] == [({"day": 1}, None)]
    assert not of_kind(new, "out")
    assert host(s)["alive"] == [f"p{i}" for i in range(1, 9)]
    assert host(s)["phase"] == "night 1: seducer step"
    assert awaited(s) == [("p3", "night")]


# ============================================================================= roll-call


def test_roll_call_goes_in_seat_order():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    assert awaited(s) == [("p1", "vote")]
    refused(s, "p2", "vote p6", NotYourTurnError)
    s.submit("p1", "vote p6")
    assert awaited(s) == [("p2", "vote")]
    refused(s, "p3", "abstain", NotYourTurnError)


def test_votes_go_only_to_candidates():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    refused(s, "p1", "vote p7", IllegalMoveError)
    assert s.state.legal_inputs("p1") == ["vote p6", "abstain", "leave"]
    assert s.state.input_forms("p1") == ["say TEXT"]


def test_a_player_may_vote_for_themselves_if_nominated():
    s = mafia_game(EIGHT)
    nominate(s, p2="p1")
    events = s.submit("p1", "vote p1")
    assert events[0].data == {"seat": "p1", "vote": "p1", "round": 1}


def test_abstain_is_a_public_vote_for_nobody():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    events = s.submit("p1", "abstain")
    assert [(e.kind, e.data, e.to) for e in events] == [("vote", {"seat": "p1", "vote": None, "round": 1}, None)]
    assert host(s)["votes"] == {"p1": None}


def test_voting_twice_is_refused():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    s.submit("p1", "vote p6")
    assert refused(s, "p1", "vote p6", IllegalMoveError) == "p1 has already voted for p6 in this round"
    assert refused(s, "p1", "abstain", IllegalMoveError) == "p1 has already voted for p6 in this round"
    s.submit("p2", "abstain")
    assert refused(s, "p2", "vote p6", IllegalMoveError) == "p2 has already abstained in this round"


def test_a_unique_top_is_expelled_and_shows_the_card():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    start = len(s.events)
    vote_round(s, p1="p6", p2="p6", p3="p7", p4="p6")
    new = since(s, start)
    verdict = of_kind(new, "verdict")[0]
    assert verdict.data == {"day": 1, "round": 1, "counts": {"p6": 3, "p7": 1}, "expelled": "p6"}
    out = of_kind(new, "out")
    assert [(e.data, e.to) for e in out] == [({"seat": "p6", "card": "civilian", "fate": "expelled on day 1"}, None)]
    assert host(s)["out"] == {"p6": "expelled on day 1"}
    assert s.state.view("p7")["cards"]["p6"] == "civilian"
    assert host(s)["phase"] == "night 1: seducer step"


def test_a_tie_at_the_top_is_revoted_among_only_the_tied():
    s = mafia_game(EIGHT)
    nominate(s, p1="p5", p2="p6", p3="p7")
    start = len(s.events)
    vote_round(s, p1="p6", p2="p6", p3="p7", p4="p7", p5="p5")
    verdict = of_kind(since(s, start), "verdict")
    assert [e.data for e in verdict] == [{"day": 1, "round": 1, "counts": {"p5": 1, "p6": 2, "p7": 2},
                                          "tied": ["p6", "p7"]}]
    assert not of_kind(since(s, start), "out")
    assert (host(s)["round"], host(s)["candidates"], host(s)["votes"]) == (2, ["p6", "p7"], {})
    assert awaited(s) == [("p1", "vote")]
    refused(s, "p1", "vote p5", IllegalMoveError)
    vote_round(s, default="p7")
    assert host(s)["out"] == {"p7": "expelled on day 1"}


def test_a_tie_in_the_revote_means_nobody_leaves():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    vote_round(s, p1="p6", p2="p7")
    start = len(s.events)
    vote_round(s, p1="p6", p2="p7", p3="p6", p4="p7")
    new = since(s, start)
    assert [e.data for e in of_kind(new, "verdict")] == [{"day": 1, "round": 2, "counts": {"p6": 2, "p7": 2}}]
    assert not of_kind(new, "out")
    assert host(s)["alive"] == [f"p{i}" for i in range(1, 9)]
    assert host(s)["phase"] == "night 1: seducer step"


def test_when_every_vote_is_an_abstention_nobody_leaves():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    start = len(s.events)
    vote_round(s)
    new = since(s, start)
    assert [e.data for e in of_kind(new, "verdict")] == [{"day": 1, "round": 1, "counts": {"p6": 0}}]
    assert not of_kind(new, "out") and host(s)["out"] == {}
    assert host(s)["phase"] == "night 1: seducer step"


def test_banned_player_is_skipped_in_the_roll_call_and_may_not_vote():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    nominate(s, p1="p6")
    s.submit("p1", "abstain")
    assert awaited(s) == [("p3", "vote")]
    message = refused(s, "p2", "vote p6", IllegalMoveError)
    assert "may not vote" in message
    vote_round(s)
    assert "p2" not in host(s).get("votes", {})
    votes = [e.data["seat"] for e in of_kind(s.events, "vote")]
    assert votes == ["p1", "p3", "p4", "p5", "p6", "p8"]


# ================================================================================= Agent


def test_agent_cannot_protect_themselves():
    s = mafia_game(SEVEN)
    quiet_day(s)
    assert awaited(s) == [("p3", "night")]
    refused(s, "p3", "protect p3", IllegalMoveError)
    assert "protect p3" not in s.state.legal_inputs("p3")


def test_agent_may_pass():
    """The source says the Agent "may" choose: it may decline, secretly."""
    s = mafia_game(SEVEN)
    quiet_day(s)
    assert awaited(s) == [("p3", "night")]
    assert s.state.legal_inputs("p3")[-2:] == ["pass", "leave"]
    events = s.submit("p3", "pass")
    act = of_kind(events, "night-act")
    assert [(e.text, e.data, e.to) for e in act] == [
        ("Night 1: you do nothing.", {"step": "agent", "verb": "pass"}, ("p3",))]
    assert s.moves[-1].public is None  # secret, down to who sent it
    assert awaited(s) == [("p2", "confer")]
    play(s, "p1 kill p7", "p4 arrest p6", "p7 pass")
    assert host(s)["shielded"] is None
    expel(s, "p5")
    assert "p5" in host(s)["out"]


def test_protected_player_topping_the_vote_stays():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    start = len(s.events)
    expel(s, "p5")
    new = since(s, start)
    verdict = of_kind(new, "verdict")[0]
    assert verdict.data == {"day": 2, "round": 1, "counts": {"p5": 5}, "protected": "p5"}
    assert "protection holds" in verdict.text and "p3" not in verdict.text
    assert not of_kind(new, "out")
    assert "p5" in host(s)["alive"] and host(s)["phase"] == "night 2: agent step"


def test_protection_is_not_announced_in_the_morning():
    s = mafia_game(SEVEN)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    assert not any("p5" in e.text for e in public(since(s, start)))


def test_protection_lasts_only_the_next_day():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    quiet_day(s)  # day 2: p5 protected, unused
    play(s, "p3 protect p4", "p1 kill p6", "p4 arrest p5")
    start = len(s.events)
    expel(s, "p5")
    verdict = of_kind(since(s, start), "verdict")[0]
    assert verdict.data == {"day": 3, "round": 1, "counts": {"p5": 4}, "expelled": "p5"}
    assert "p5" in host(s)["out"]


def test_a_protected_player_tied_at_the_top_goes_to_the_revote():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6", "p7 pass")
    nominate(s, p1="p5", p2="p6")
    vote_round(s, p1="p5", p2="p6")
    assert host(s)["candidates"] == ["p5", "p6"] and host(s)["round"] == 2


# =============================================================================== Seducer


def test_seducer_cannot_seduce_themselves():
    s = mafia_game(EIGHT)
    quiet_day(s)
    refused(s, "p3", "seduce p3", IllegalMoveError)
    assert "seduce p3" not in s.state.legal_inputs("p3")


@pytest.mark.parametrize("attack", [
    ("p1 kill p6", "p4 arrest p7", "p8 pass"),   # the Mafia
    ("p1 kill p5", "p4 shoot p6", "p8 pass"),    # the Police
    ("p1 kill p5", "p4 arrest p2", "p8 kill p6"),  # the Fighter
    ("p1 kill p6", "p4 shoot p6", "p8 kill p6"),  # all three at once
], ids=["mafia", "police", "fighter", "all"])
def test_seduced_player_survives_every_attack_that_night(attack):
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    s.submit("p3", "seduce p6")
    mafia, police, fighter = attack
    play(s, mafia, police, "p7 ban p1", fighter)
    assert "p6" in host(s)["alive"]
    summary = of_kind(s.events, "night-summary")[-1]
    assert summary.to == () and summary.data["saved"] == ["p6"]


def test_seducer_protection_is_not_announced():
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p6", "p1 kill p6", "p4 shoot p6", "p7 ban p1", "p8 kill p6")
    new = since(s, start)
    morning = of_kind(new, "morning")
    assert [(e.data, e.to) for e in morning] == [({"night": 1, "killed": []}, None),
                                                 ({"no_vote": "p1"}, None)]
    assert morning[0].text == "Nobody died in the night."
    mentions = [e for e in new if "saved" in e.text or "Seducer" in e.text or e.data.get("saved")]
    assert [(e.kind, e.to) for e in mentions] == [("night-summary", ())]
    assert not any(e.visible_to(seat) for e in mentions for seat in s.seats)


def test_seducer_saves_only_the_guest():
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p6", "p4 arrest p7", "p7 ban p1", "p8 kill p5")
    assert host(s)["out"] == {"p5": "killed in night 1"}


# ================================================================================= Mafia


def test_only_the_boss_names_the_victim_and_mafia_confer():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p2", "confer")]
    refused(s, "p2", "kill p6", NotYourTurnError)
    events = s.submit("p2", "suggest p6")
    assert [(e.kind, e.data, e.to) for e in events] == [("suggest", {"seat": "p2", "target": "p6"}, ("p1", "p2"))]
    assert awaited(s) == [("p1", "night")]
    refused(s, "p2", "suggest p7", IllegalMoveError)
    events = s.submit("p1", "kill p7")
    act = of_kind(events, "night-act")[0]
    assert act.data == {"step": "mafia", "seat": "p1", "verb": "kill", "target": "p7"} and act.to == ("p1", "p2")
    assert host(s)["night_acts"]["mafia"] == ["p1", "kill", "p7"]


def test_mafia_member_may_pass_the_suggestion():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    events = s.submit("p2", "pass")
    assert [(e.kind, e.data, e.to) for e in events] == [("suggest", {"seat": "p2", "target": None}, ("p1", "p2"))]


def test_boss_kill_ends_the_step_before_any_suggestion():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    s.submit("p1", "kill p6")
    assert host(s)["phase"] == "night 1: police step"
    assert awaited(s) == [("p5", "confer")]
    refused(s, "p2", "suggest p7", NotYourTurnError)
    refused(s, "p2", "say too late", IllegalMoveError)


def test_without_the_boss_the_first_living_mafia_in_seat_order_kills():
    s = mafia_game(NINE)
    expel(s, "p1", by="p4")
    s.submit("p4", "protect p7")
    assert awaited(s) == [("p3", "confer")]
    refused(s, "p3", "kill p7", NotYourTurnError)
    s.submit("p2", "kill p7")
    assert host(s)["night_acts"]["mafia"] == ["p2", "kill", "p7"]


def test_mafia_cannot_kill_a_mafia_side_player_or_themselves():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    refused(s, "p1", "kill p2", IllegalMoveError)
    refused(s, "p1", "kill p1", IllegalMoveError)
    refused(s, "p2", "suggest p1", IllegalMoveError)
    refused(s, "p2", "suggest p2", IllegalMoveError)
    assert not {"kill p1", "kill p2"} & set(s.state.legal_inputs("p1"))


def test_the_mafia_step_cannot_be_passed_by_its_head():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    refused(s, "p1", "pass", IllegalMoveError)


def test_mafia_kill_happens_at_dawn_with_the_card_shown():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p4", "p1 kill p6", "p4 arrest p7", "p8 ban p2")
    new = since(s, start)
    out = of_kind(new, "out")
    assert [(e.data, e.to) for e in out] == [({"seat": "p6", "card": "civilian", "fate": "killed in night 1"}, None)]
    morning = [e for e in new if e.kind == "narration" and e.data == {"day": 2}]
    assert new.index(morning[0]) < new.index(out[0])


# ================================================================================ Police


def test_chief_shoots_a_player():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7")
    assert awaited(s) == [("p5", "confer")]
    events = s.submit("p5", "suggest p2")
    assert [(e.kind, e.to) for e in events] == [("suggest", ("p4", "p5"))]
    events = s.submit("p4", "shoot p2")
    assert of_kind(events, "night-act")[0].to == ("p4", "p5")
    s.submit("p8", "ban p1")
    assert host(s)["out"] == {"p2": "killed in night 1", "p7": "killed in night 1"}


def test_police_cannot_shoot_or_arrest_the_police_team():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7")
    refused(s, "p4", "shoot p5", IllegalMoveError)
    refused(s, "p4", "arrest p5", IllegalMoveError)
    refused(s, "p4", "shoot p4", IllegalMoveError)
    refused(s, "p5", "suggest p4", IllegalMoveError)
    refused(s, "p4", "kill p6", IllegalMoveError)  # not the Police's power


def test_a_night_input_stays_secret_once_it_has_brought_the_morning():
    """What others may know of an input is judged as it is accepted, not from a later state."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p6")
    s.submit("p8", "ban p2")  # the night's last action: the morning and day 2 follow at once
    assert host(s)["phase"] == "day 2: nominations"
    assert s.moves[-1].public is None
    assert s.state.public_input("p8", "ban p2") is None
    s.submit("p1", "pass")
    assert s.moves[-1].public == "pass"
    with pytest.raises(ValueError):
        s.state.public_input("p8", "ban p2")  # no longer the input just accepted: no stale answer


def test_the_chief_may_pass_and_the_police_hear_it():
    """The source says the Chief "may" shoot or arrest: the head's pass ends the conference at
    once, is heard by the awake Police only, and is secret to everyone else."""
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7")
    assert awaited(s) == [("p5", "confer")]
    assert "pass" in s.state.legal_inputs("p4")
    events = s.submit("p4", "pass")  # before p5 has conferred: the head may act sooner
    act = of_kind(events, "night-act")
    assert [(e.text, e.data, e.to) for e in act] == [
        ("Night 1: p4 passes; the Police do nothing tonight.", {"step": "police", "seat": "p4", "verb": "pass"},
         ("p4", "p5"))]
    assert s.moves[-1].public is None
    for other in ("p1", "p3", "p6", "p8"):
        assert not [e for e in events if e.visible_to(other) and "pass" in e.text], other
    assert awaited(s) == [("p8", "night")]
    s.submit("p8", "ban p2")
    assert host(s)["out"] == {"p7": "killed in night 1"} and host(s)["jailed"] is None
    assert host(s)["arrested"] == []


def test_the_chief_may_pass_after_the_conference():
    s = mafia_game(ALL, deck=ALL_DECK)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p6", "p5 suggest p1")
    assert awaited(s) == [("p4", "night")]
    assert s.state.legal_inputs("p4")[-2:] == ["pass", "leave"]
    play(s, "p4 pass", "p7 ban p1", "p8 pass")
    assert host(s)["night_acts"]["police"] == ["p4", "pass", None]


def test_a_player_is_arrested_only_once_per_game():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    assert host(s)["arrested"] == ["p6"]
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p8")
    refused(s, "p4", "arrest p6", IllegalMoveError)
    legal = s.state.legal_inputs("p4")
    assert "arrest p6" not in legal and "shoot p6" in legal and "arrest p3" in legal
    play(s, "p4 shoot p6", "p8 ban p2")
    assert host(s)["arrested"] == ["p6"]
    assert "p6" in host(s)["out"]


def test_arrested_seducer_is_called_only_to_pass_and_seduces_nobody():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p3", "p8 ban p2")
    quiet_day(s)
    night2 = [e for e in s.events if e.kind == "narration" and e.data == {"night": 2}][0].index
    assert awaited(s) == [("p3", "night")]
    arrested = of_kind(since(s, night2), "arrested")
    assert [(e.to, e.data) for e in arrested] == [(("p3",), {"night": 2})]
    assert s.state.legal_inputs("p3") == ["pass", "leave"]
    refused(s, "p3", "seduce p6", IllegalMoveError)
    events = s.submit("p3", "pass")
    assert [(e.kind, e.text, e.data, e.to) for e in of_kind(events, "night-act")] == [
        ("night-act", "Night 2: you are under arrest and do nothing.", {"step": "seducer", "verb": "pass"}, ("p3",))]
    play(s, "p1 kill p6", "p4 arrest p8", "p8 ban p2")
    assert host(s)["out"]["p6"] == "killed in night 2"
    assert of_kind(s.events, "night-summary")[-1].data["saved"] == []


def test_arrest_is_not_announced():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p3", "p8 ban p2")
    quiet_day(s)
    seen = [e for e in since(s, start) if e.visible_to("p6") and "arrest" in e.text.lower()]
    assert [e.text for e in seen] == ["The Police wake; the Chief shoots or arrests."]
    assert "jailed" not in s.state.view("p6") and "under_arrest" not in s.state.view("p6")
    assert s.state.view("p3")["under_arrest"] is True


def test_arrest_affects_only_the_next_night():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p3", "p8 ban p2")
    quiet_day(s)
    play(s, "p3 pass", "p1 kill p6", "p4 arrest p8", "p8 ban p2")
    quiet_day(s)
    night3 = len(s.events)
    assert awaited(s) == [("p3", "night")]
    assert "seduce p4" in s.state.legal_inputs("p3")
    s.submit("p3", "seduce p4")
    assert host(s)["night_acts"]["seducer"] == ["p3", "seduce", "p4"]
    assert not of_kind(since(s, night3), "arrested")


def test_arrested_boss_hands_the_kill_to_the_next_mafia():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p2", "night")]
    refused(s, "p1", "kill p6", NotYourTurnError)
    refused(s, "p1", "say wait for me", IllegalMoveError)
    events = s.submit("p2", "say I am alone tonight")
    assert [(e.kind, e.to) for e in events] == [("team-say", ("p2",))]
    s.submit("p2", "kill p6")
    assert host(s)["night_acts"]["mafia"] == ["p2", "kill", "p6"]


def test_arrested_boss_learns_privately_of_the_arrest_at_the_mafia_step():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    start = len(s.events)
    s.submit("p3", "seduce p4")
    arrested = of_kind(since(s, start), "arrested")
    assert [(e.to, e.data) for e in arrested] == [(("p1",), {"night": 2})]


def test_arrested_boss_does_not_see_the_team_suggestions():
    s = mafia_game(NINE)
    quiet_day(s)
    play(s, "p4 protect p7", "p1 kill p8", "p5 arrest p1", "p9 pass")
    quiet_day(s)
    s.submit("p4", "protect p7")
    assert awaited(s) == [("p3", "confer")]
    events = s.submit("p3", "suggest p7")
    assert events[0].to == ("p2", "p3")  # the event stream already keeps it from p1
    assert "p7" not in str(s.state.view("p1").get("suggestions", {}))


def test_arrested_lone_boss_may_only_pass_and_the_mafia_kill_nobody():
    s = mafia_game(EIGHT)
    expel(s, "p2")
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p1", "p8 ban p6")
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p1", "night")]
    assert s.state.legal_inputs("p1") == ["pass", "leave"]
    refused(s, "p1", "kill p6", IllegalMoveError)
    refused(s, "p1", "say hello", IllegalMoveError)
    start = len(s.events)
    play(s, "p1 pass", "p4 arrest p6", "p8 ban p6")
    assert host(s)["out"] == {"p2": "expelled on day 1", "p7": "killed in night 1"}
    assert [e.data for e in of_kind(since(s, start), "morning")] == [{"night": 2, "killed": []}, {"no_vote": "p6"}]


def test_arrested_chameleon_bans_nobody_the_next_day():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p8", "p8 ban p2")  # p8 still acts tonight
    assert host(s)["no_vote"] == "p2"
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p5", "p4 arrest p3")
    assert awaited(s) == [("p8", "night")]
    assert s.state.legal_inputs("p8") == ["pass", "leave"]
    refused(s, "p8", "ban p1", IllegalMoveError)
    events = s.submit("p8", "pass")
    assert host(s)["phase"] == "day 3: nominations" and host(s)["no_vote"] is None
    assert not [e for e in events if "no_vote" in e.data]


def test_arrested_boss_acts_again_the_night_after():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p1", "p8 ban p2")
    quiet_day(s)
    play(s, "p3 seduce p4", "p2 kill p6", "p4 arrest p8", "p8 ban p2")
    quiet_day(s)
    s.submit("p3", "seduce p4")
    assert awaited(s) == [("p2", "confer")]


def test_without_the_chief_the_first_living_police_acts():
    s = mafia_game(EIGHT)
    expel(s, "p4")
    play(s, "p3 seduce p6", "p1 kill p7")
    assert awaited(s) == [("p5", "night")]
    s.submit("p5", "arrest p8")
    assert host(s)["night_acts"]["police"] == ["p5", "arrest", "p8"]


# ============================================================================= Chameleon


def test_chameleon_cannot_ban_themselves():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6")
    assert awaited(s) == [("p8", "night")]
    refused(s, "p8", "ban p8", IllegalMoveError)
    refused(s, "p8", "pass", IllegalMoveError)


def test_morning_announces_who_may_not_vote_today():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    ban = [e for e in since(s, start) if e.kind == "morning" and "no_vote" in e.data]
    assert [(e.data, e.to) for e in ban] == [({"no_vote": "p2"}, None)]
    assert "p2 may not vote today" in ban[0].text
    assert s.state.view("p6")["no_vote"] == "p2"


def test_ban_lasts_one_day():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p7", "p4 arrest p6", "p8 ban p2")
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p6", "p4 arrest p8", "p8 ban p1")
    assert host(s)["no_vote"] == "p1"
    nominate(s, p3="p8")
    assert awaited(s) == [("p2", "vote")]  # p1 banned today, p2 votes again


def test_ban_of_a_player_killed_that_night_is_not_announced():
    s = mafia_game(EIGHT)
    quiet_day(s)
    start = len(s.events)
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p6", "p8 ban p7")
    assert not [e for e in since(s, start) if "no_vote" in e.data]
    assert host(s)["no_vote"] is None


# =============================================================================== Fighter


def test_fighter_may_pass():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    assert awaited(s) == [("p7", "night")]
    assert s.state.legal_inputs("p7")[-2:] == ["pass", "leave"]
    events = s.submit("p7", "pass")
    assert [(e.text, e.to) for e in of_kind(events, "night-act")] == [("Night 1: you do nothing.", ("p7",))]
    assert host(s)["out"] == {"p6": "killed in night 1"}


def test_fighter_kill_happens_at_dawn():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    events = s.submit("p7", "kill p1")
    act = of_kind(events, "night-act")[0]
    assert act.data == {"step": "fighter", "seat": "p7", "verb": "kill", "target": "p1"} and act.to == ("p7",)
    outs = of_kind(events, "out")
    assert [e.data["seat"] for e in outs] == ["p1", "p6"]
    assert all(e.data["fate"] == "killed in night 1" for e in outs)
    assert host(s)["phase"] == "day 2: nominations"


def test_fighter_cannot_kill_themselves():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    refused(s, "p7", "kill p7", IllegalMoveError)


# ========================================================================= deaths at dawn


def test_fighter_killed_by_the_mafia_still_acts_that_night():
    s = mafia_game(SEVEN)
    quiet_day(s)
    play(s, "p3 protect p5", "p1 kill p7", "p4 arrest p6")
    assert "p7" in host(s)["alive"]
    assert awaited(s) == [("p7", "night")]
    events = s.submit("p7", "kill p5")
    assert [e.data["seat"] for e in of_kind(events, "out")] == ["p5", "p7"]
    assert host(s)["alive"] == ["p1", "p2", "p3", "p4", "p6"]


def test_chief_killed_by_the_mafia_still_shoots_that_night():
    s = mafia_game(EIGHT)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p4")
    assert awaited(s) == [("p5", "confer")]
    play(s, "p4 shoot p2", "p8 ban p1")
    assert host(s)["out"] == {"p2": "killed in night 1", "p4": "killed in night 1"}


# ============================================================================ night order


def test_night_steps_are_called_in_order_seducer_mafia_police_chameleon_fighter():
    s = mafia_game(ALL, deck=ALL_DECK)
    start = len(s.events)
    quiet_day(s)
    play(s, "p3 seduce p6", "p1 kill p5", "p4 arrest p7", "p7 ban p1", "p8 pass")
    new = since(s, start)
    assert night_steps(new) == ["seducer", "mafia", "police", "chameleon", "fighter"]
    assert all(e.to is None for e in new if e.kind == "narration")


def test_night_steps_are_called_in_order_agent_mafia_police_chameleon_fighter():
    s = mafia_game(ALL_AGENT, deck=ALL_AGENT_DECK)
    start = len(s.events)
    quiet_day(s)
    play(s, "p3 protect p6", "p1 kill p5", "p4 arrest p7", "p7 ban p1", "p8 pass")
    assert night_steps(since(s, start)) == ["agent", "mafia", "police", "chameleon", "fighter"]


def test_steps_whose_holders_are_all_out_are_skipped():
    s = mafia_game(SEVEN)
    start = len(s.events)
    expel(s, "p7")  # the Fighter
    play(s, "p3 protect p5", "p1 kill p4", "p4 arrest p6")
    assert night_steps(since(s, start)) == ["agent", "mafia", "police"]
    start = len(s.events)
    quiet_day(s)  # the Chief died in night 1
    play(s, "p3 protect p5", "p1 kill p5")
    assert night_steps(since(s, start)) == ["agent", "mafia"]
    assert host(s)["phase"] == "day 3: nominations"


def test_a_step_whose_holder_leaves_during_the_night_is_skipped():
    s = mafia_game(SEVEN)
    start = len(s.events)
    quiet_day(s)
    play(s, "p7 leave", "p3 protect p5", "p1 kill p6", "p4 arrest p2")
    assert night_steps(since(s, start)) == ["agent", "mafia", "police"]
    assert host(s)["phase"] == "day 2: nominations"


def test_boss_leaving_during_the_mafia_step_hands_the_kill_on():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    s.submit("p1", "leave")
    assert awaited(s) == [("p2", "night")]


# ================================================================================== talk


def test_day_talk_is_public_and_changes_no_phase():
    s = mafia_game(EIGHT)
    before = awaited(s)
    events = s.submit("p6", "say   hello   world")
    assert [(e.kind, e.data, e.to) for e in events] == [("say", {"seat": "p6", "text": "hello world"}, None)]
    assert awaited(s) == before
    assert s.moves[-1].text == "say hello world"


def test_day_talk_is_allowed_during_the_roll_call():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6")
    events = s.submit("p7", "say vote p6!")
    assert events[0].kind == "say" and awaited(s) == [("p1", "vote")]


def test_night_talk_reaches_only_the_awake_team():
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    events = s.submit("p1", "say take p6")
    assert [(e.kind, e.data, e.to) for e in events] == [
        ("team-say", {"seat": "p1", "team": "mafia", "text": "take p6"}, ("p1", "p2"))]
    s.submit("p1", "kill p6")
    events = s.submit("p5", "say arrest p8")
    assert [(e.kind, e.to) for e in events] == [("team-say", ("p4", "p5"))]


@pytest.mark.parametrize("seat, text", [
    ("p5", "say hello"),  # the Police during the Mafia step
    ("p6", "say hello"),  # a Civilian at night
    ("p3", "say hello"),  # the Seducer, whose step is over
    ("p8", "say hello"),  # the Chameleon
])
def test_night_talk_is_refused_outside_the_awake_team(seat, text):
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    refused(s, seat, text, IllegalMoveError)


def test_mafia_cannot_talk_during_the_seducer_step():
    s = mafia_game(EIGHT)
    quiet_day(s)
    refused(s, "p1", "say hello", IllegalMoveError)


def test_the_out_can_neither_talk_nor_act():
    s = mafia_game(EIGHT)
    expel(s, "p6")
    for text in ("say boo", "leave", "seduce p7", "kill p7", "pass"):
        refused(s, "p6", text, IllegalMoveError)
    assert s.state.legal_inputs("p6") == []
    play(s, "p3 seduce p4", "p1 kill p7", "p4 arrest p8", "p8 ban p2")
    refused(s, "p6", "say boo", IllegalMoveError)
    refused(s, "p6", "nominate p1", IllegalMoveError)
    refused(s, "p7", "pass", IllegalMoveError)  # killed in the night


# ================================================================================= leave


def test_leave_shows_the_card():
    s = mafia_game(EIGHT)
    events = s.submit("p2", "leave")
    out = of_kind(events, "out")
    assert [(e.data, e.to) for e in out] == [({"seat": "p2", "card": "mafia", "fate": "left on day 1"}, None)]
    assert s.state.view("p6")["cards"]["p2"] == "mafia"
    assert ("p2", "nominate") not in awaited(s)


def test_leave_by_night_is_public():
    s = mafia_game(EIGHT)
    quiet_day(s)
    events = s.submit("p6", "leave")
    assert [(e.data["fate"], e.to) for e in of_kind(events, "out")] == [("left on night 1", None)]
    assert s.moves[-1].text == "leave"


def test_a_leaver_nomination_is_withdrawn_and_its_nominator_nominates_again():
    s = mafia_game(EIGHT)
    s.submit("p1", "nominate p6")
    events = s.submit("p6", "leave")
    withdrawn = of_kind(events, "withdrawn")
    assert [(e.data, e.to) for e in withdrawn] == [({"nominee": "p6", "seat": "p1"}, None)]
    assert host(s)["nominations"] == {}
    assert ("p1", "nominate") in awaited(s)
    s.submit("p1", "nominate p7")
    assert host(s)["nominations"] == {"p7": "p1"}


def test_votes_for_a_leaving_candidate_count_as_abstentions():
    s = mafia_game(EIGHT)
    nominate(s, p1="p6", p2="p7")
    play(s, "p1 vote p6", "p2 vote p6", "p3 vote p7")
    events = s.submit("p6", "leave")
    assert [e.data for e in of_kind(events, "withdrawn")] == [{"nominee": "p6"}]
    assert host(s)["candidates"] == ["p7"]
    assert host(s)["votes"] == {"p1": None, "p2": None, "p3": "p7"}
    start = len(s.events)
    vote_round(s)
    verdict = of_kind(since(s, start), "verdict")[0]
    assert verdict.data == {"day": 1, "round": 1, "counts": {"p7": 1}, "expelled": "p7"}


def test_win_is_checked_after_a_departure():
    s = mafia_game(SIX)
    s.submit("p1", "leave")
    assert s.state.result is None
    events = s.submit("p2", "leave")
    result = s.state.result
    assert (result.winner, result.reason) == ("town", "no-mafia")
    assert result.winners == ("p3", "p4", "p5", "p6")
    assert of_kind(events, "game-over")
    assert awaited(s) == []


# =============================================================================== winning


def test_town_wins_when_no_mafia_side_player_is_alive_and_dead_town_win_too():
    s = mafia_game(SIX)
    expel(s, "p1", by="p3")
    play(s, "p3 seduce p4", "p2 kill p5", "p4 shoot p2")
    result = s.state.result
    assert (result.winner, result.reason) == ("town", "no-mafia")
    assert result.winners == ("p3", "p4", "p5", "p6")  # p5 died in the night and still wins
    assert result.scores == {"p1": "lost", "p2": "lost", "p3": "won", "p4": "won", "p5": "won", "p6": "won"}
    assert host(s)["phase"] == "game over" and awaited(s) == []


def test_mafia_wins_only_when_more_than_the_town():
    s = mafia_game(SIX)  # town 4, Mafia 2
    quiet_day(s)
    play(s, "p3 seduce p4", "p1 kill p5", "p4 arrest p6")  # town 3
    expel(s, "p6")  # town 2 against Mafia 2: equal is not enough
    assert s.state.result is None and host(s)["phase"] == "night 2: seducer step"
    play(s, "p3 seduce p4", "p1 kill p3", "p4 arrest p2")  # town 1 against Mafia 2
    result = s.state.result
    assert (result.winner, result.reason) == ("mafia", "mafia-majority")
    assert result.winners == ("p1", "p2")


def test_a_living_loner_wins_with_the_mafia():
    s = mafia_game(SEVEN)  # town 4, Mafia 2, the Fighter p7
    quiet_day(s)
    play(s, "p3 protect p4", "p1 kill p5", "p4 arrest p2", "p7 kill p6")  # town 2
    expel(s, "p3")  # town 1 against Mafia 2
    result = s.state.result
    assert result.winner == "mafia"
    assert result.winners == ("p1", "p2", "p7")


def test_a_living_loner_wins_with_the_town_and_a_dead_loner_loses():
    s = mafia_game(ALL, deck=ALL_DECK)
    expel(s, "p8")  # the Fighter
    play(s, "p3 seduce p6", "p1 kill p6", "p4 shoot p2", "p7 ban p1")
    expel(s, "p1", by="p3")
    result = s.state.result
    assert (result.winner, result.reason) == ("town", "no-mafia")
    assert result.winners == ("p3", "p4", "p5", "p6", "p7")
    assert result.scores["p7"] == "won" and result.scores["p8"] == "lost"
    assert "is out and loses" in result.text and "is alive and wins" in result.text


def test_only_loners_left_means_no_side_wins_and_the_living_loners_win():
    s = mafia_game(ALL, deck=ALL_DECK)
    play(s, "p2 leave", "p3 leave", "p5 leave", "p6 leave")  # left: p1 Boss, p4 Chief, two loners
    assert s.state.result is None
    quiet_day(s)
    play(s, "p1 kill p4", "p4 shoot p1", "p7 ban p8", "p8 kill p7")
    result = s.state.result
    assert (result.winner, result.reason) == (None, "no-side")
    assert result.winners == ("p8",)
    assert result.scores == {f"p{i}": ("won" if i == 8 else "lost") for i in range(1, 9)}


def test_every_card_is_shown_at_the_end():
    s = mafia_game(SIX)
    s.submit("p1", "leave")
    events = s.submit("p2", "leave")
    reveals = of_kind(events, "reveal")
    assert [(e.data, e.to) for e in reveals] == [({"seat": f"p{i}", "card": SIX[i - 1]}, None) for i in range(3, 7)]
    for seat in s.seats:
        assert s.state.view(seat)["cards"] == {f"p{i}": c for i, c in enumerate(SIX, 1)}


def test_no_input_after_the_game_is_over():
    s = mafia_game(SIX)
    play(s, "p1 leave", "p2 leave")
    with pytest.raises(GameOverError):
        s.submit("p3", "say gg")
    assert s.state.legal_inputs("p3") == []


# ============================================================================= bad input


def day_one() -> Session:
    return mafia_game(EIGHT)


def roll_call() -> Session:
    s = mafia_game(EIGHT)
    nominate(s, p2="p6")
    return s


def mafia_step() -> Session:
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    return s


def after_a_death() -> Session:
    s = mafia_game(EIGHT)
    expel(s, "p7")
    return s


@pytest.mark.parametrize("stage, seat, text, error", [
    # unknown verbs and empty input
    (day_one, "p1", "dance", SyntaxInputError),
    (day_one, "p1", "", SyntaxInputError),
    (mafia_step, "p1", "murder p6", SyntaxInputError),
    # wrong argument counts
    (day_one, "p1", "nominate", SyntaxInputError),
    (day_one, "p1", "nominate p2 p3", SyntaxInputError),
    (day_one, "p1", "pass p2", SyntaxInputError),
    (day_one, "p1", "leave now", SyntaxInputError),
    (day_one, "p1", "say", SyntaxInputError),
    (roll_call, "p1", "vote", SyntaxInputError),
    (roll_call, "p1", "vote p6 p7", SyntaxInputError),
    (roll_call, "p1", "abstain p6", SyntaxInputError),
    (mafia_step, "p1", "kill", SyntaxInputError),
    (mafia_step, "p1", "kill p6 p7", SyntaxInputError),
    # a target that is not a seat
    (day_one, "p1", "nominate p9", SyntaxInputError),
    (day_one, "p1", "nominate bob", SyntaxInputError),
    (roll_call, "p1", "vote p0", SyntaxInputError),
    (mafia_step, "p1", "kill host", SyntaxInputError),
    # out of phase
    (day_one, "p1", "vote p2", IllegalMoveError),
    (day_one, "p1", "abstain", IllegalMoveError),
    (day_one, "p1", "kill p6", IllegalMoveError),
    (day_one, "p3", "seduce p6", IllegalMoveError),
    (day_one, "p2", "suggest p6", NotYourTurnError),
    (roll_call, "p1", "nominate p7", IllegalMoveError),
    (roll_call, "p1", "pass", IllegalMoveError),
    (roll_call, "p1", "kill p6", IllegalMoveError),
    (mafia_step, "p1", "nominate p6", IllegalMoveError),
    (mafia_step, "p2", "vote p6", IllegalMoveError),
    (mafia_step, "p2", "abstain", IllegalMoveError),
    (mafia_step, "p3", "seduce p6", NotYourTurnError),
    (mafia_step, "p4", "shoot p1", NotYourTurnError),
    (mafia_step, "p6", "pass", NotYourTurnError),
    (mafia_step, "p1", "shoot p6", IllegalMoveError),
    # the dead as a target
    (after_a_death, "p1", "seduce p7", NotYourTurnError),
    (after_a_death, "p3", "seduce p7", IllegalMoveError),
    # the dead acting
    (after_a_death, "p7", "say hi", IllegalMoveError),
    # a seat that is not in the game
    (day_one, "p9", "pass", UnknownSeatError),
])
def test_bad_input_is_refused_and_changes_nothing(stage, seat, text, error):
    s = stage()
    refused(s, seat, text, error)


def test_targeting_the_dead_is_refused_everywhere():
    s = mafia_game(EIGHT)
    expel(s, "p7")
    refused(s, "p3", "seduce p7", IllegalMoveError)
    s.submit("p3", "seduce p4")
    refused(s, "p2", "suggest p7", IllegalMoveError)
    refused(s, "p1", "kill p7", IllegalMoveError)
    s.submit("p1", "kill p6")
    refused(s, "p4", "shoot p7", IllegalMoveError)
    refused(s, "p4", "arrest p7", IllegalMoveError)
    s.submit("p4", "arrest p8")
    refused(s, "p8", "ban p7", IllegalMoveError)
    s.submit("p8", "ban p2")
    refused(s, "p1", "nominate p7", IllegalMoveError)
    refused(s, "p1", "nominate p6", IllegalMoveError)  # killed in night 1


def test_targeting_oneself_is_refused_for_every_power():
    s = mafia_game(ALL_AGENT, deck=ALL_AGENT_DECK)
    refused(s, "p1", "nominate p1", IllegalMoveError)
    quiet_day(s)
    refused(s, "p3", "protect p3", IllegalMoveError)
    s.submit("p3", "protect p6")
    refused(s, "p2", "suggest p2", IllegalMoveError)
    refused(s, "p1", "kill p1", IllegalMoveError)
    s.submit("p1", "kill p6")
    refused(s, "p5", "suggest p5", IllegalMoveError)
    refused(s, "p4", "shoot p4", IllegalMoveError)
    refused(s, "p4", "arrest p4", IllegalMoveError)
    s.submit("p4", "arrest p2")
    refused(s, "p7", "ban p7", IllegalMoveError)
    s.submit("p7", "ban p1")
    refused(s, "p8", "kill p8", IllegalMoveError)


def test_words_are_case_insensitive_and_recorded_canonically():
    s = mafia_game(EIGHT)
    s.submit("p1", "NOMINATE P6")
    assert s.moves[-1].text == "nominate p6"
    assert host(s)["nominations"] == {"p6": "p1"}


def test_a_wrong_time_is_refused_before_wrong_words_for_nominations_votes_and_night_actions():
    """Nominate, vote, suggest and the night powers are judged on their timing before their words;
    pass, abstain, say and leave are read first."""
    s = day_one()
    assert refused(s, "p1", "kill", IllegalMoveError) == "kill is a night action; it is the nominations of day 1 now"
    assert refused(s, "p1", "vote", IllegalMoveError) == "vote belongs to the roll-call vote; it is the nominations of day 1 now"
    assert refused(s, "p2", "suggest", NotYourTurnError) == "p2 has no team to confer with now (the nominations of day 1)"
    assert refused(s, "p1", "abstain p6", SyntaxInputError) == "abstain takes no words after it"
    r = roll_call()
    assert refused(r, "p1", "nominate", IllegalMoveError) == (
        "nominate belongs to the nominations; it is the vote of day 1 (round 1) now")
    assert refused(r, "p1", "pass p6", SyntaxInputError) == "pass takes no words after it"


def test_every_legal_input_reads_back_as_the_move_it_names():
    for seed in (1, 2):
        s = Session(MAFIA, variant_name(8), seed=seed)
        rng = random.Random(seed)
        while not s.over:
            for seat in s.seats:
                for m in s.state.legal_moves(seat):
                    assert parse_move(move_name(m), s.seats) == m
            seat = s.state.awaiting()[0].seat
            s.submit(seat, MAFIA.choose_input(s.state, seat, rng))


def test_say_is_capped_at_the_data_limit_and_a_longer_line_changes_nothing():
    s = mafia_game(SIX)
    limit = s.state.data.selection.say_max_chars
    refused(s, "p1", "say " + "x" * (limit + 1), SyntaxInputError)
    s.submit("p1", "say " + "x" * limit)
    assert s.events[-1].data == {"seat": "p1", "text": "x" * limit}


def test_the_head_is_awaited_once_the_team_has_spoken_but_may_act_sooner():
    """Bots act only when awaited, so a human Mafia member always gets to suggest before a bot
    Boss kills; a human Boss may still end the conference at once."""
    s = mafia_game(SIX)
    quiet_day(s)
    s.submit("p3", "seduce p5")
    assert awaited(s) == [("p2", "confer")]
    assert "kill p5" in s.state.legal_inputs("p1")
    s.submit("p2", "suggest p5")
    assert awaited(s) == [("p1", "night")]
    early = mafia_game(SIX)
    quiet_day(early)
    early.submit("p3", "seduce p5")
    early.submit("p1", "kill p6")
    assert awaited(early) == [("p4", "night")]


# ========================================================================= the table, drawn
MAFIA_BOARDS = {
    "VOTE_HOST": """\
Classic Mafia, custom deck, 8 players: day 2: vote, round 1
candidates: p6 p4   next to vote: p3
seat  status                  card          nominated by  vote  note
----  ----------------------  ------------  ------------  ----  -------
p1    alive                   Mafia Boss                  p6
p2    alive                   Mafia                       p4
p3    alive                   Agent
p4    alive                   Police Chief  p2
p5    out: killed in night 1  Police
p6    alive                   Civilian      p1                  (below)
p7    alive                   Chameleon                         (below)
p8    alive                   Fighter                           (below)
note: p6: protected from today's vote
note: p7: arrested: skips next night
note: p8: may not vote today
alive: town 3, mafia 2, loners 2""",
    "VOTE_P2": """\
Classic Mafia, custom deck, 8 players: day 2: vote, round 1
candidates: p6 p4   next to vote: p3
seat  status                  card        nominated by  vote  note
----  ----------------------  ----------  ------------  ----  ---------
p1    alive                   Mafia Boss                p6    your team
p2    alive                   Mafia                     p4    you
p3    alive                   ?
p4    alive                   ?           p2
p5    out: killed in night 1  Police
p6    alive                   ?           p1
p7    alive                   ?
p8    alive                   ?                               (below)
note: p8: may not vote today
your card: Mafia""",
    "NIGHT_HOST": """\
Classic Mafia, custom deck, 8 players: night 2: mafia step
seat  status                  card          nominated by  vote  note
----  ----------------------  ------------  ------------  ----  -------
p1    alive                   Mafia Boss
p2    alive                   Mafia
p3    alive                   Agent
p4    alive                   Police Chief
p5    out: killed in night 1  Police
p6    alive                   Civilian
p7    alive                   Chameleon                         (below)
p8    alive                   Fighter
note: p7: under arrest tonight
awake: The Mafia wakes and chooses a victim.
suggestions: p2 p8
alive: town 3, mafia 2, loners 2""",
    "NIGHT_P1": """\
Classic Mafia, custom deck, 8 players: night 2: mafia step
seat  status                  card        nominated by  vote  note
----  ----------------------  ----------  ------------  ----  ---------
p1    alive                   Mafia Boss                      you
p2    alive                   Mafia                           your team
p3    alive                   ?
p4    alive                   ?
p5    out: killed in night 1  Police
p6    alive                   ?
p7    alive                   ?
p8    alive                   ?
awake: The Mafia wakes and chooses a victim.
suggestions: p2 p8
your card: Mafia Boss""",
    "NIGHT_P6": """\
Classic Mafia, custom deck, 8 players: night 2: mafia step
seat  status                  card      nominated by  vote  note
----  ----------------------  --------  ------------  ----  ----
p1    alive                   ?
p2    alive                   ?
p3    alive                   ?
p4    alive                   ?
p5    out: killed in night 1  Police
p6    alive                   Civilian                      you
p7    alive                   ?
p8    alive                   ?
awake: The Mafia wakes and chooses a victim.
your card: Civilian""",
}


def test_the_table_reads_as_written_for_the_host_a_team_and_a_civilian():
    """Whole tables at two moments of one game: a roll-call with the host's notes (a
    protection, an arrest, a ban), its votes and the next voter, as the host and a Mafia
    player see them ("you", "your team", unknown cards as "?"); at night the one under arrest,
    the step awake, and the team's suggestions, for the host and the Mafia but not a Civilian."""
    s = mafia_game(ALL_AGENT, deck=ALL_AGENT_DECK)
    quiet_day(s)
    play(s, "p3 protect p6", "p2 suggest p5", "p1 kill p5", "p4 arrest p7", "p7 ban p8", "p8 pass")
    nominate(s, p1="p6", p2="p4")
    play(s, "p1 vote p6", "p2 vote p4")
    assert (s.render(HOST), s.render("p2")) == (MAFIA_BOARDS["VOTE_HOST"], MAFIA_BOARDS["VOTE_P2"])
    play(s, "p3 vote p6", "p4 vote p6", "p6 vote p4", "p7 vote p6", "p3 protect p4", "p2 suggest p8")
    assert [s.render(seat) for seat in (HOST, "p1", "p6")] == [
        MAFIA_BOARDS["NIGHT_HOST"], MAFIA_BOARDS["NIGHT_P1"], MAFIA_BOARDS["NIGHT_P6"]]

"""Hidden Roles: eliminations and their tile hand-off, phantoms, abandoning,
divining, and the result.

Authority: docs/rules/hidden-roles.md. Cards are staged through the recorded ``roles`` chance
outcome (``tests.helpers.roles_game``); every input goes through ``Session.submit``. Games
that stage nothing are replayed from their transcript and must come out the same
(``tests/roles_staging.py``).
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import GameOverError
from arbiter.engine.events import HOST
from arbiter.engine.session import Session

from tests.helpers import roles_game
from tests.roles_staging import escape, item_roles, of_kind, play, refused, replays, theft


# ============================================================================ elimination
HAND_OFF = {  # players: (who is eliminated, in order), and every seat's tiles after
    3: (["p1"], {"p2": [["escalator", "explore", "south"], ["vortex", "west"]], "p3": [["north", "east"]]}),
    4: (["p2", "p3"], {"p1": [["vortex", "west"], ["escalator", "east"]], "p4": [["north"], ["explore", "south"]]}),
    5: (["p5"], {"p1": [["vortex", "west"], ["west"]], "p2": [["explore", "south"]], "p3": [["escalator", "east"]],
                 "p4": [["north"]]}),
    6: (["p3", "p4"], {"p1": [["vortex", "west"]], "p2": [["explore", "south"]], "p5": [["west"], ["escalator", "east"]],
                       "p6": [["east"], ["north"]]}),
    7: (["p7", "p1"], {"p2": [["explore", "south"], ["vortex", "west"]], "p3": [["escalator", "east"], ["south"]],
                       "p4": [["north"]], "p5": [["west"]], "p6": [["east"]]}),
    8: (["p8", "p1", "p2"], {"p3": [["escalator", "east"], ["vortex", "west"]], "p4": [["north"], ["explore", "south"]],
                             "p5": [["west"], ["north"]], "p6": [["east"]], "p7": [["south"]]}),
}


@pytest.mark.parametrize("players", sorted(HAND_OFF))
def test_an_eliminated_players_tiles_go_left_as_evenly_as_possible(players: int) -> None:
    gone, expected = HAND_OFF[players]
    cards = ["traitor" if f"p{i}" in gone else "hero" for i in range(1, players + 1)]
    s = roles_game("3", cards, level=2)
    accuser = next(x for x in s.seats if x not in gone)
    t = 10.0
    play(s, f"@{t} {accuser} accuse {' '.join(gone)}")
    for voter in s.state.vote.voters if s.state.vote else ():
        t += 0.5
        play(s, f"@{t} {voter} vote yes")
    assert set(s.state.eliminated) == set(gone)
    assert {x: [list(tile) for tile in s.state.held[x]] for x in s.seats if s.state.in_game(x)} == expected
    counts = [len(s.state.held[x]) for x in s.seats if s.state.in_game(x)]
    assert max(counts) - min(counts) <= 1
    for e in of_kind(s.events, "eliminate"):
        assert all(g["to"] not in gone for g in e.data["tiles"])


def test_an_eliminated_seat_is_skipped_when_tiles_pass_on_a_flip() -> None:
    s = roles_game("3", ["hero", "traitor", "hero", "hero"], level=2)
    play(s, "@10 p1 accuse p2", "@11 p3 vote yes", "@12 p4 vote yes", "@13 p1 pass")
    before = {x: list(s.state.held[x]) for x in s.seats}
    play(s, "@100 p4 move purple north 1")  # onto the hourglass at 1a.b1: a flip, and passing
    assert s.state.flips == 1
    assert s.state.held == {"p1": before["p4"], "p2": [], "p3": before["p1"], "p4": before["p3"]}
    replays(s)


def test_an_eliminated_seat_has_no_inputs() -> None:
    s = roles_game("1", ["traitor", "hero", "hero", "hero"], level=1)
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes")
    assert s.state.phantoms == []  # level 1: no phantoms
    assert s.state.legal_inputs("p1") == [] and s.state.input_forms("p1") == []
    assert refused(s, "@13 p1 stare p2") == "p1 is out of the game: it has no inputs any more"
    assert refused(s, "@13 p1 say hello") == "p1 is out of the game: it has no inputs any more"
    assert refused(s, "@13 p2 pawn p1") == "p1 is out of the game: put the pawn in front of a player still in it"
    assert refused(s, "@13 p2 eye p1") == "p1 is out of the game: put the eye card in front of a player still in it"
    assert refused(s, "@13 p3 accuse p1") == "p2's flip of the timer is pending until 17 s: accuse after it"
    assert [a.seat for a in s.state.awaiting() if a.kind == "any"] == ["p2", "p3", "p4"]


# ============================================================================ phantoms
def test_a_phantom_talks_only_while_talk_is_forbidden() -> None:
    s = roles_game("2", ["traitor", "hero", "hero", "hero"], level=2)  # scenario 2: talk windows
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes", "@13 p2 pass")
    assert s.state.talk_open  # the start's window: nobody has acted yet
    assert refused(s, "@14 p1 say boo") == "a phantom talks only while talk is forbidden; talk is open now"
    assert s.state.input_forms("p1") == []
    play(s, "@15 p2 move green south 1")  # the first action: silence
    assert s.state.input_forms("p1") == ["say TEXT"] and s.state.input_forms("p2") == []
    events = play(s, "@16 p1 say the dwarf is lying")
    assert events[0].kind == "say" and not s.state.talk_open
    assert refused(s, "@17 p1 stare p2").startswith("p1 is out of the game: a phantom may only say something")
    play(s, "@100 p4 move purple north 1")  # an hourglass: talk opens again
    assert s.state.talk_open and refused(s, "@101 p1 say hi").endswith("talk is open now")
    replays(s)


def test_a_phantom_never_talks_in_scenario_one() -> None:
    s = roles_game("1", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes", "@13 p2 move green south 1")
    assert refused(s, "@14 p1 say boo") == ("a phantom talks only while talk is forbidden, and in this scenario "
                                             "talk is always open")


def test_a_phantom_wins_a_partial_victory_when_the_heroes_lose() -> None:
    s = roles_game("2", ["traitor", "hero", "hero", "traitor"], level=2)
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes")
    s.advance_to(180_000)
    result = s.state.result
    assert result.winners == ("p1", "p4") and result.winner == "traitors"
    assert "partial victory" in result.scores["players"]["p1"]["why"]


# ============================================================================ abandoning
def test_abandoning_as_the_only_hero_wins_alone() -> None:
    s = roles_game("3", ["traitor", "hero", "traitor", "traitor"], level=2)
    assert "abandon" not in s.state.legal_inputs("p1")
    assert refused(s, "p1 abandon") == "you are a traitor: only a hero may abandon the heist"
    events = play(s, "@20 p2 abandon")
    result = s.state.result
    assert result.winner == "p2" and result.winners == ("p2",) and result.reason == "abandoned"
    assert len(of_kind(events, "reveal")) == 4 and set(s.state.revealed) == set(s.seats)
    replays(s)


def test_abandoning_with_another_hero_in_the_game_lets_the_traitors_win() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@20 p2 abandon")
    result = s.state.result
    assert result.winner == "traitors" and result.winners == ("p1",)
    assert result.scores["players"]["p2"] == {"card": "hero", "side": "hero", "won": False, "why": "the heroes lost"}


def test_abandoning_needs_level_two_and_comes_before_the_theft() -> None:
    s = roles_game("3", ["traitor", "hero", "hero"], level=1)
    assert refused(s, "p2 abandon") == "abandoning the heist is a rule of level 2 on"
    s = item_roles(["traitor", "hero", "hero"], level=2)
    theft(s)
    assert "abandon" not in s.state.legal_inputs("p2")
    assert refused(s, "p2 abandon") == "the theft is done: too late to abandon the heist"


# ============================================================================ divining and the result
def divining_game() -> Session:
    """Level 5, three players: p1 a traitor with a mission, p2 mage-first, p3 quick-hands; the
    heroes escaped (the mage first) at 60 s."""
    s = item_roles(["slow-fingers", "mage-first", "master-thief"], level=5)
    theft(s, time_ms=50_000)  # p3 (north, east) completes it: master-thief done; slow-fingers fails
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        escape(s, hero, 60_000 + n * 1000)
    return s


def test_an_early_theft_fails_the_traitors_mission_and_no_traitor_is_left_to_divine() -> None:
    s = divining_game()
    assert "p1" in s.state.eliminated and s.over and s.state.result.winner == "heroes"
    assert s.state.result.winners == ("p2", "p3")


def test_divining_before_the_escape_is_refused_by_level() -> None:
    early = roles_game("1", ["above-suspicion", "mage-first", "master-thief"], level=5)
    assert refused(early, "p1 divine p2 mage-first") == "divining comes after the heroes' escape, at level 5"
    other = roles_game("1", ["quick-hands", "traitor", "mute"], level=3)
    assert refused(other, "p2 divine p1 quick-hands") == "divining is a rule of level 5"


def test_divining_right_swaps_the_outcomes() -> None:
    s = item_roles(["above-suspicion", "mage-first", "master-thief"], level=5)
    theft(s, time_ms=50_000)
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        events = escape(s, hero, 60_000 + n * 1000)
    assert not s.over and s.state.divining is not None and "divining" in [e.kind for e in events]
    assert s.state.revealed == ["p1"] and s.state.legal_inputs("p2") == []
    legal = s.state.legal_inputs("p1")
    assert "divine p2 mage-first" in legal and legal[-1] == "pass" and not [m for m in legal if " p1 " in m + " "]
    assert refused(s, "@64 p1 divine p2 mute") == "mute is not a hero mission: name one"
    assert refused(s, "@64 p2 move purple north").startswith("the heroes are out: the traitors are divining")
    events = play(s, "@64 p1 divine p2 mage-first")
    assert of_kind(events, "divine")[0].data["right"] is True
    result = s.state.result
    assert result.winner == "heroes" and result.winners == ("p1", "p3") and result.reason == "escape"
    assert result.scores["players"]["p2"]["why"] == "p1 divined its mission"


def test_divining_wrong_changes_nothing_and_the_window_closes_after_thirty_seconds() -> None:
    s = item_roles(["above-suspicion", "mage-first", "nuisance", "master-thief"], level=5, players=4)
    theft(s, time_ms=50_000)  # four players: p4 (north) completes it
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        escape(s, hero, 60_000 + n * 1000)
    assert s.state.divining.traitors == ("p1", "p3") and s.state.next_deadline() == 93_000
    events = play(s, "@64 p1 divine p4 mage-first")
    assert of_kind(events, "divine")[0].data["right"] is False and "p4" in s.state.revealed
    assert refused(s, "@65 p3 divine p4 master-thief") == "p4's card is face up: divine a face-down card"
    assert refused(s, "@65 p1 pass") == "p1 has divined (or passed) already"
    assert refused(s, "@65 p2 pass") == "only the traitors still in the game divine (p1 p3)"
    events = s.advance_to(100_000)
    assert events[0].kind == "divining-over" and s.state.now_ms == 93_000
    result = s.state.result
    assert result.winners == ("p2", "p4") and result.winner == "heroes"


def test_when_every_winning_hero_is_divined_the_traitors_win_the_escape() -> None:
    """The heroes escaped, but both traitors name their heroes' missions right: each takes its
    hero's place among the winners, so only traitors won, and the game is the traitors'."""
    s = item_roles(["above-suspicion", "mage-first", "nuisance", "master-thief"], level=5, players=4)
    theft(s, time_ms=50_000)
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        escape(s, hero, 60_000 + n * 1000)
    play(s, "@64 p1 divine p2 mage-first", "@65 p3 divine p4 master-thief")
    result = s.state.result
    assert result.reason == "escape" and result.winners == ("p1", "p3") and result.winner == "traitors"
    assert result.text.endswith("the traitors win (winners: p1 p3).")


def test_the_result_has_one_line_per_player() -> None:
    s = roles_game("3", ["traitor", "trusting", "mute", "quick-hands"], level=3)
    s.advance_to(180_000)
    lines = [e.text for e in of_kind(s.events, "outcome")]
    assert lines == [
        "p1: Traitor (traitor), traitor at the end: won (the heroes lost).",
        "p2: Trusting soul (trusting), hero at the end: lost (the heroes lost).",
        "p3: Sworn to silence (mute), hero at the end: lost (the heroes lost).",
        "p4: Quick hands (quick-hands), hero at the end: lost (eliminated (its mission failed)).",
    ]
    board = s.render("p2").splitlines()
    assert board[-4:] == ["p1: traitor, traitor: won (the heroes lost)", "p2: trusting, hero: lost (the heroes lost)",
                          "p3: mute, hero: lost (the heroes lost)",
                          "p4: quick-hands, hero: lost (eliminated (its mission failed))"]
    assert all(len(line) <= 80 for line in s.render(HOST).splitlines()[-12:])
    assert s.state.result.text == "The sand ran out at 180 s: the traitors win (winners: p1)."
    with pytest.raises(GameOverError):
        s.submit("p1", "stare p2")
    replays(s)


def test_nobody_wins_when_the_heroes_lose_without_a_traitor() -> None:
    s = roles_game("3", ["hero", "hero", "hero"], level=2)
    s.advance_to(180_000)
    assert s.state.result.winner == "nobody" and s.state.result.winners == ()

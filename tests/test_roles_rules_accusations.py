"""Hidden Roles: accusations and votes (on the clock, during the sand's last
seconds).

Authority: docs/rules/hidden-roles.md. Cards are staged through the recorded ``roles`` chance
outcome (``tests.helpers.roles_game``); every input goes through ``Session.submit``. Games
that stage nothing are replayed from their transcript and must come out the same
(``tests/roles_staging.py``).
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import IllegalMoveError, SyntaxInputError

from tests.helpers import roles_game
from tests.roles_staging import escape, item_roles, of_kind, play, refused, replays, theft


# ============================================================================ accusations
def test_an_upheld_accusation_reveals_and_eliminates_a_traitor_who_becomes_a_phantom() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    events = play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes")
    assert [e.kind for e in events] == ["accuse", "vote", "vote", "verdict", "reveal", "eliminate", "flip-window"]
    assert of_kind(events, "verdict")[0].data == {"accuser": "p2", "accused": ["p1"], "upheld": True}
    assert s.state.phantoms == ["p1"] and s.state.revealed == ["p1"] and not s.over
    assert s.state.legal_inputs("p2")[:2] == ["flip", "pass"] or "flip" in s.state.legal_inputs("p2")
    play(s, "@13 p2 pass")
    assert s.state.flip_window is None
    replays(s)


def test_a_no_rejects_the_accusation_at_once() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    events = play(s, "@10 p2 accuse p1", "@11 p3 vote no")
    assert of_kind(events, "verdict")[0].data["upheld"] is False and s.state.vote is None
    assert s.state.revealed == [] and refused(s, "@12 p4 vote yes") == "no vote is open"
    replays(s)


def test_a_missing_vote_rejects_at_exactly_five_seconds() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes")
    assert s.state.next_deadline() == 15_000
    assert [a.seat for a in s.state.awaiting() if a.kind == "vote"] == ["p4"]
    assert "until 15 s" in next(a.hint for a in s.state.awaiting() if a.kind == "vote")
    play(s, "@14.999 p3 stare p1")
    assert s.state.vote is not None
    with pytest.raises(IllegalMoveError, match="no vote is open"):
        play(s, "@15 p4 vote yes")
    (verdict,) = of_kind(s.events, "verdict")
    assert verdict.data["upheld"] is False and verdict.text.endswith("(no vote in time from p4).")
    assert {"tick": {"time": 15}} in s.entries
    replays(s)


def test_one_vote_at_a_time() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1")
    assert refused(s, "@10.5 p3 accuse p4") == "a vote is open until 15 s: one accusation at a time"
    assert not [m for m in s.state.legal_inputs("p3") if m.startswith("accuse")]
    play(s, "@11 p2 move green south 1")  # the game goes on during the vote


def test_who_votes_and_who_may_not() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1")
    assert refused(s, "@11 p2 vote yes") == "p2 made the accusation: the accuser counts as a yes"
    assert refused(s, "@11 p1 vote no") == "p1 is accused: the accused do not vote"
    play(s, "@11 p3 vote yes")
    assert refused(s, "@12 p3 vote yes") == "p3 has voted already"
    assert refused(s, "@12 p2 accuse p2") == "a vote is open until 15 s: one accusation at a time"


def test_a_multi_accusation_with_a_hero_among_the_accused_ends_the_game() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero", "hero"], level=2)
    events = play(s, "@20 p2 accuse p1 p3", "@21 p4 vote yes", "@22 p5 vote yes")
    assert {e.data["seat"]: e.data["side"] for e in of_kind(events, "reveal")}.items() >= {"p1": "traitor",
                                                                                          "p3": "hero"}.items()
    result = s.state.result
    assert result.reason == "wrong-accusation" and result.winner == "traitors" and result.winners == ("p1",)
    assert set(s.state.revealed) == set(s.seats)
    replays(s)


def test_level_one_accuses_one_seat() -> None:
    s = roles_game("3", ["traitor", "hero", "hero"], level=1)
    assert refused(s, "p2 accuse p1 p3") == "at level 1 an accusation names exactly one seat"
    play(s, "@5 p2 accuse p1", "@6 p3 vote yes")
    assert s.state.eliminated == ("p1",)
    replays(s)


def test_an_accusation_of_every_other_seat_is_refused() -> None:
    """Upheld unasked, it would win the game for any traitor at once (one hero among the accused
    is enough): an accusation needs one voter at least, and the legal inputs list none without."""
    s = roles_game("3", ["traitor", "hero", "hero", "hero", "hero"], level=2)
    assert refused(s, "@0.5 p1 accuse p2 p3 p4 p5") == (
        "nobody would be left to vote on an accusation of p2, p3, p4 and p5: an accusation needs one player at least who "
        "is neither the accuser nor accused")
    legal = [m for m in s.state.legal_inputs("p1") if m.startswith("accuse")]
    assert "accuse p2 p3 p4" in legal and max(len(m.split()) for m in legal) == 4  # three accused, a voter left
    events = play(s, "@1 p1 accuse p2 p3 p4", "@2 p5 vote no")
    assert of_kind(events, "verdict")[0].data["upheld"] is False
    replays(s)


@pytest.mark.parametrize("level", [1, 2])
def test_three_players_accuse_one_seat_and_two_left_accuse_nobody(level: int) -> None:
    """With three players (at level 2 two of them traitors) one seat is accused and the third
    votes; once two are left in the game, neither may accuse the other (nobody would vote)."""
    s = roles_game("3", ["traitor", "hero", "traitor" if level == 2 else "hero"], level=level)
    assert refused(s, "@5 p2 accuse p1 p3").startswith("nobody would be left to vote" if level == 2 else "at level 1")
    assert [m for m in s.state.legal_inputs("p2") if m.startswith("accuse")] == ["accuse p1", "accuse p3"]
    play(s, "@6 p2 accuse p1", "@7 p3 vote yes")
    assert s.state.eliminated == ("p1",) and not s.over
    play(s, "@8 p2 pass")
    assert [m for m in s.state.legal_inputs("p2") if m.startswith("accuse")] == []
    assert refused(s, "@9 p2 accuse p3").startswith("nobody would be left to vote on an accusation of p3")
    assert refused(s, "@9 p3 accuse p2").startswith("nobody would be left to vote on an accusation of p2")
    replays(s)


def test_the_accusers_flip_after_the_sand_ran_out_during_the_vote() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@178 p2 accuse p1")
    events = s.advance_to(180_000)
    assert [e.kind for e in events] == ["sand"] and not s.over and s.state.sand_out
    assert refused(s, "@180.5 p2 move green south 1") == "the sand has run out; the vote decides"
    assert refused(s, "@180.5 p2 eye p3") == "the sand has run out; the vote decides"
    assert s.state.legal_inputs("p3") == ["vote yes", "vote no"] and s.state.legal_inputs("p2") == []
    assert s.state.input_forms("p3") == []
    play(s, "@181 p3 vote yes", "@182 p4 vote yes")
    assert s.state.flip_window is not None and s.state.legal_inputs("p2") == ["flip", "pass"]
    assert refused(s, "@182.5 p3 flip") == "only p2, the accuser, may flip the timer now"
    events = play(s, "@183 p2 flip")
    assert of_kind(events, "flip")[0].data == {"square": None, "seat": "p2", "left": "180", "before": "0"}
    assert s.state.time_left_ms() == 180_000 and s.state.deadline_ms == 363_000 and not s.state.sand_out
    play(s, "@184 p2 move green south 1")
    assert s.state.hands[2] == ("escalator", "east") and s.state.flips == 1  # no passing on this flip
    replays(s)


def test_an_accusers_flip_of_a_full_timer_leaves_no_sand_and_ends_the_game() -> None:
    """At 0 s the sand is full; an accusation upheld at once gives p2 its flip, which turns
    180 s left into none: the game ends there, as when the sand runs out."""
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@0 p2 accuse p1", "@0 p3 vote yes", "@0 p4 vote yes")
    assert s.state.flip_window is not None and s.state.time_left_ms() == 180_000
    events = play(s, "@0 p2 flip")
    assert of_kind(events, "flip")[0].data["left"] == "0" and s.over
    assert s.state.result.reason == "time" and s.state.result.text.startswith("The flip left no sand at 0 s")


def test_a_flip_that_empties_the_timer_during_a_vote_waits_for_the_vote() -> None:
    """At 0 s purple steps onto 1a.b1's hourglass while p2's accusation of p1 is open: the
    flip leaves no sand, and the game waits for the vote as when the sand runs out by time;
    the vote upholds, and p2's flip gives the whole timer back."""
    s = roles_game("3", ["traitor", "hero", "hero"], level=1)
    play(s, "@0 p2 accuse p1")
    events = play(s, "@0 p3 move purple north 1")
    assert [e.kind for e in events][-3:] == ["talk", "hero", "sand"] and not s.over and s.state.sand_out
    assert of_kind(events, "flip")[0].data["left"] == "0" and s.state.vote is not None
    assert refused(s, "@1 p3 move purple south 1") == "the sand has run out; the vote decides"
    play(s, "@3 p3 vote yes")
    assert s.state.flip_window is not None and "p1" in s.state.eliminated and not s.over
    play(s, "@4 p2 flip")
    assert s.state.time_left_ms() == 180_000 and not s.over
    replays(s)


def test_a_flip_that_empties_the_timer_during_a_vote_then_a_rejection_ends_the_game() -> None:
    s = roles_game("3", ["traitor", "hero", "hero"], level=1)
    play(s, "@0 p2 accuse p1", "@0 p3 move purple north 1")
    events = s.advance_to(10_000)
    assert [e.kind for e in events][:2] == ["verdict", "reveal"] and s.state.now_ms == 5_000
    assert s.over and s.state.result.reason == "time" and s.state.result.winners == ("p1",)
    replays(s)


# ============================================================================ verdicts that end the game
def test_an_upheld_accusation_of_a_hero_ends_the_game_before_a_scared_traitor_switches() -> None:
    """p3 (a traitor) accuses p2 (a hero); p1, a scared traitor, votes yes with p4. The verdict
    ends the game, and the end is judged on the sides as they stood: p1 is still a traitor
    and wins with p3 (the switch it would have made never happens)."""
    s = roles_game("1", ["scared-traitor", "nervous-hero", "traitor", "watched-hero"], level=4)
    events = play(s, "p3 accuse p2", "p1 vote yes", "p4 vote yes")
    assert not of_kind(events, "switch") and s.state.side_of("p1") == "traitor"
    result = s.state.result
    assert result.reason == "wrong-accusation" and result.winner == "traitors" and result.winners == ("p1", "p3")
    assert result.scores["players"]["p1"] == {"card": "scared-traitor", "side": "traitor", "won": True,
                                              "why": "the heroes lost"}
    assert s.state.view("p1")["roles"]["you"]["switch"]["status"] == "failed"
    replays(s)


def test_a_wronged_hero_cleared_after_the_sand_ran_out_loses_with_the_heroes() -> None:
    """The sand runs out during p1's accusation of p2 (a wronged hero); p3's no rejects it and
    ends the game: p2 was a hero then, and loses with the heroes."""
    s = roles_game("3", ["traitor", "wronged-hero", "nervous-hero", "watched-hero"], level=4)
    events = play(s, "@178 p1 accuse p2", "@181 p3 vote no")
    assert not of_kind(events, "switch") and s.state.side_of("p2") == "hero"
    result = s.state.result
    assert result.reason == "time" and result.winners == ("p1",)
    assert result.scores["players"]["p2"] == {"card": "wronged-hero", "side": "hero", "won": False,
                                              "why": "the heroes lost"}
    replays(s)


def test_an_upheld_accusation_with_nobody_to_flip_the_empty_timer_switches_no_side() -> None:
    """The sand runs out (staged at 99 s) during p1's accusation of p2; at 100 s p1's own
    mission fails and p1 leaves. Upheld against a traitor, the verdict ends the game (nobody
    may flip): the scared traitor p3 stays a traitor and wins, with p2 the phantom."""
    deck = {"title": "t", "level": 4, "cards": {"quick-hands": 1, "traitor": 1, "scared-traitor": 1, "hero": 1}}
    s = roles_game("1", ["quick-hands", "traitor", "scared-traitor", "hero"], deck=deck)
    s.state.deadline_ms = 99_000  # staging: the sand runs out before quick-hands' 100 s mark
    play(s, "@98 p1 accuse p2")
    s.advance_to(100_000)
    assert s.state.sand_out and s.state.eliminated == ("p1",) and s.state.vote is not None
    events = play(s, "@101 p3 vote yes", "@102 p4 vote yes")
    assert not of_kind(events, "switch") and s.state.side_of("p3") == "traitor"
    assert s.over and s.state.result.reason == "time" and s.state.result.winners == ("p2", "p3")


def test_a_scared_traitor_switches_when_the_game_goes_on_after_the_sand_ran_out() -> None:
    """Upheld against a traitor after the sand ran out, with the accuser still in the game: the
    game goes on (the accuser may flip), so the scared traitor turns hero at the verdict."""
    s = roles_game("3", ["scared-traitor", "traitor", "nervous-hero", "watched-hero"], level=4)
    events = play(s, "@178 p3 accuse p2", "@181 p1 vote yes", "@182 p4 vote yes")
    assert [e.to for e in of_kind(events, "switch")] == [("p1",)] and s.state.side_of("p1") == "hero"
    assert s.state.flip_window is not None and not s.over
    play(s, "@183 p3 pass")
    assert s.state.result.reason == "time" and s.state.result.scores["players"]["p1"]["won"] is False
    replays(s)


def test_a_voter_eliminated_before_voting_rejects_the_accusation_at_once() -> None:
    """A voter whose mission fails during the vote is out, its vote missing for good, and a
    missing vote rejects: the vote closes then, rejected. (It was no longer awaited, and the vote
    was upheld once the voters left had said yes: with nobody left, with no yes at all.)"""
    s = roles_game("1", ["traitor", "mute", "no-shortcuts"], level=3)  # p1 holds the vortex
    play(s, "@10 p1 accuse p2")  # p3 is the only voter
    events = play(s, "@11 p1 vortex green")  # p3's no-shortcuts fails: p3 is out
    assert [e.kind for e in events][-2:] == ["eliminate", "verdict"] and "p3" in s.state.eliminated
    verdict = of_kind(events, "verdict")[0]
    assert verdict.text == "The accusation of p2 is rejected (p3 left the game without voting)."
    assert verdict.data["upheld"] is False and not s.over and s.state.vote is None
    replays(s)


def test_a_yes_given_before_the_voter_left_stands() -> None:
    s = roles_game("1", ["traitor", "mute", "no-shortcuts", "mage-averse"], level=3)
    play(s, "@10 p1 accuse p2", "@10.5 p3 vote yes", "@11 p1 vortex green")  # p3 out, its yes given
    assert "p3" in s.state.eliminated and s.state.vote is not None and s.state.vote.waiting(s.state.out) == ["p4"]
    play(s, "@12 p4 vote yes")
    assert of_kind(s.events, "verdict")[0].data["upheld"] is True
    assert s.over and s.state.result.reason == "wrong-accusation"
    replays(s)


def test_a_voter_eliminated_while_the_sand_is_out_ends_the_game_with_the_vote() -> None:
    """While the sand is out only votes pass; a voter whose mission fails then rejects the
    accusation by leaving, and a rejected vote with the sand out ends the game."""
    s = roles_game("3", ["traitor", "quick-hands", "mute", "dwarf-averse", "mage-averse"], level=3)
    s.state.deadline_ms = 99_000  # staging: the sand runs out before quick-hands' 100 s mark
    play(s, "@97 p1 accuse p3", "@98 p4 vote yes")
    s.advance_to(100_000)
    assert s.state.sand_out and "p2" in s.state.eliminated and s.state.vote is None
    assert of_kind(s.events, "verdict")[0].text == "The accusation of p3 is rejected (p2 left the game without voting)."
    assert s.over and s.state.result.reason == "time" and s.state.result.winner == "traitors"
def test_the_sand_out_and_a_rejected_vote_end_the_game() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@178 p2 accuse p1", "@181 p3 vote no")
    assert s.over and s.state.result.reason == "time" and s.state.result.winners == ("p1",)
    replays(s)


@pytest.mark.parametrize("ending", ["pass", "silence"])
def test_the_sand_out_and_no_flip_end_the_game(ending: str) -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "traitor"], level=2)
    play(s, "@178 p2 accuse p1", "@181 p3 vote yes", "@182 p4 vote yes")
    if ending == "pass":
        play(s, "@183 p2 pass")
        assert s.state.now_ms == 183_000
    else:
        s.advance_to(200_000)
        assert s.state.now_ms == 187_000
    result = s.state.result
    assert result.reason == "time" and result.winner == "traitors" and result.winners == ("p1", "p4")
    assert "p1" in s.state.phantoms and "partial victory" in s.state.result.scores["players"]["p1"]["why"]
    replays(s)


def test_an_upheld_accusation_while_the_sand_runs_gives_a_flip_that_may_go_by() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes")
    assert s.state.next_deadline() == 17_000
    events = s.advance_to(17_000)
    assert [e.kind for e in events] == ["no-flip"] and s.state.flip_window is None and not s.over
    assert [m for m in s.state.legal_inputs("p2") if m.startswith("accuse")]  # accusing again


@pytest.mark.parametrize("accuser", ["p3", "p1"])
def test_the_flip_goes_by_when_its_accuser_leaves_the_game_and_only_then(accuser: str) -> None:
    """An upheld accusation at 98 s gives the accuser a flip until 103 s; at 100 s p1's
    mission (a theft before 100 s) fails and p1 leaves the game. The flip stays the accuser's
    while it is in the game, and goes by at once when the accuser is the one who left."""
    s = roles_game("1", ["quick-hands", "traitor", "mute", "trusting"], level=3)
    voters = [v for v in ("p1", "p3", "p4") if v != accuser]
    play(s, f"@96 {accuser} accuse p2", f"@97 {voters[0]} vote yes", f"@98 {voters[1]} vote yes")
    assert s.state.flip_window is not None and s.state.flip_window.until_ms == 103_000
    events = s.advance_to(100_000)
    assert [e.kind for e in events][:3] == ["failed", "reveal", "eliminate"] and "p1" in s.state.eliminated
    if accuser == "p1":
        assert [e.kind for e in events][3:] == ["no-flip"] and s.state.flip_window is None
        assert events[-1].text == "p1, the accuser, is out of the game: no flip."
    else:
        assert len(events) == 3 and s.state.flip_window.accuser == "p3"
        assert "flip" in s.state.legal_inputs("p3")


def test_an_accuser_who_left_during_the_vote_gets_no_flip_and_the_game_goes_on() -> None:
    """p1 accuses p2 at 98 s; at 100 s p1's own mission fails and p1 leaves the game; the vote
    goes on and upholds: p2 is out, nobody may flip, and the sand still runs."""
    s = roles_game("1", ["quick-hands", "traitor", "mute", "trusting"], level=3)
    play(s, "@98 p1 accuse p2")
    s.advance_to(100_000)
    assert s.state.eliminated == ("p1",) and s.state.vote is not None
    events = play(s, "@101 p3 vote yes", "@102 p4 vote yes")
    assert [e.kind for e in events] == ["vote", "vote", "verdict", "reveal", "eliminate"]
    assert s.state.eliminated == ("p1", "p2") and s.state.flip_window is None and not s.over


@pytest.mark.parametrize("line", ["p3 vote", "p3 vote yes no", "p3 vote maybe"])
def test_a_vote_is_one_word_yes_or_no(line: str) -> None:
    s = roles_game("1", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1")
    with pytest.raises(SyntaxInputError) as info:
        play(s, line)
    assert info.value.message == "vote yes or vote no"


def test_pass_and_flip_without_a_flip_due_say_so() -> None:
    s = roles_game("1", ["traitor", "hero", "hero", "hero"], level=2)
    assert refused(s, "p2 pass") == "nothing to pass: pass lets the accuser's flip go by, or (level 5) a divining"
    assert refused(s, "p2 flip") == ("no flip is due: the accuser of an upheld accusation may flip the timer, "
                                     "within the flip window")


def test_accusing_a_seat_out_of_the_game_is_refused_naming_it() -> None:
    s = roles_game("1", ["traitor", "hero", "hero", "hero", "hero"], level=2)
    s.state.out.update({"p2": "failed", "p3": "failed"})  # staging: two seats out
    assert refused(s, "p4 accuse p2") == "p2 is out of the game: accuse players still in it"
    assert refused(s, "p4 accuse p1 p2 p3") == "p2 and p3 are out of the game: accuse players still in it"


# ============================================================================ the end while a vote is open
def test_an_escape_during_a_vote_ends_the_game_and_the_vote_is_never_decided() -> None:
    """The fourth hero leaves while p1's accusation of p2 waits for p3: the heroes win, and the
    vote is void (publicly), not left open in the view and on the board of a game that is
    over."""
    s = item_roles(["traitor", "hero", "hero"], level=2)
    theft(s, time_ms=50_000)
    for n, hero in enumerate(("purple", "yellow", "green")):
        escape(s, hero, 60_000 + n * 1000)
    play(s, "@63 p1 accuse p2")
    events = escape(s, "orange", 63_500)
    (void,) = of_kind(events, "void")
    assert void.text == "The game is over: p1's accusation of p2 is never decided."
    assert s.state.result.winner == "heroes" and s.state.vote is None
    assert s.state.roles_view("p3")["vote"] is None and "vote:" not in s.render("p3")
    assert not of_kind(s.events, "verdict")


def test_the_divining_opens_with_no_vote_left_waiting() -> None:
    """Level 5: the heroes are out while a vote is open; the divining starts, which takes
    nothing but divinings, so the vote is void at once instead of showing p3 as awaited."""
    s = item_roles(["above-suspicion", "mage-first", "master-thief"], level=5)
    theft(s, time_ms=50_000)
    for n, hero in enumerate(("purple", "yellow", "green")):
        escape(s, hero, 60_000 + n * 1000)
    play(s, "@63 p1 accuse p2")
    events = escape(s, "orange", 63_500)
    assert [e.kind for e in events] == ["escape", "void", "reveal", "divining"]
    assert s.state.vote is None and s.state.roles_view("p3")["vote"] is None
    assert [a.seat for a in s.state.awaiting()] == ["p1"]


def test_abandoning_during_the_accusers_flip_leaves_no_flip_on_the_board() -> None:
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    play(s, "@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes")
    assert s.state.flip_window is not None
    events = play(s, "@13 p3 abandon")
    assert of_kind(events, "void")[0].text == "The game is over: p2 may no longer flip the timer."
    assert s.over and s.state.flip_window is None and "flip:" not in s.render("p2")
    replays(s)


# ============================================================================ the eye card
def test_the_eye_card_goes_in_front_of_another_player_and_moves_on() -> None:
    """Anyone still in the game may put the eye card in front of another player still in it,
    at any moment (talk forbidden or not, a vote open or not); it is public, closes no talk
    window, and moves from seat to seat. Putting it in front of oneself, or where it lies
    already, is refused and changes nothing."""
    s = roles_game("3", ["traitor", "hero", "hero", "hero"], level=2)
    events = play(s, "@1 p2 eye p1")
    assert [e.kind for e in events] == ["eye"] and events[0].to is None and s.state.eye == "p1"
    assert s.state.talk_open  # the start's talk window: the eye card is not an action
    assert refused(s, "@2 p3 eye p1") == "the eye card is in front of p1 already"
    assert refused(s, "@2 p3 eye p3") == "put the eye card in front of another player"
    assert "eye p3" not in s.state.legal_inputs("p3") and "eye p1" not in s.state.legal_inputs("p3")
    play(s, "@3 p1 accuse p2", "@4 p1 eye p4")
    assert s.state.eye == "p4" and s.state.vote is not None
    replays(s)

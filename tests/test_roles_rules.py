"""Hidden Roles: setting up by level (the deal, the redraw rule, custom decks), accusations
and votes (on the clock, during the sand's last seconds), eliminations and their tile
hand-off, phantoms, abandoning, divining, the result, and exact replays of such games.

Authority: docs/rules/hidden-roles.md. Cards are staged through the recorded ``roles`` chance
outcome (``tests.helpers.roles_game``); every input goes through ``Session.submit``. Games
that stage nothing are replayed from their transcript and must come out the same.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from arbiter.engine import registry, transcript
from arbiter.engine.errors import GameOverError, IllegalMoveError, InputError, ScenarioError, SyntaxInputError
from arbiter.engine.events import HOST
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.roles import data as rd
from arbiter.engine.session import Session
from tests.helpers import roles_game, run, write
from tests.test_roles_missions import escape, item_roles, of_kind, theft

MAZE = registry.get("magic-maze")
D = mm.load()


def replays(s: Session) -> None:
    """The game's transcript replays it exactly (moves, events, result)."""
    report = transcript.replay(transcript.parse(transcript.dump(s)))
    assert report.ok, report.problems
    assert report.session is not None and report.session.events.digest() == s.events.digest()
    assert [e.to for e in report.session.events] == [e.to for e in s.events]


def play(s: Session, *lines: str) -> list:
    """``[@SECONDS] SEAT WORDS`` lines, in order; all the events they caused."""
    out = []
    for line in lines:
        words = line.split()
        at = None
        if words[0].startswith("@"):
            at = round(float(words.pop(0)[1:]) * 1000)
        out += s.submit(words[0], " ".join(words[1:]), at)
    return out


def refused(s: Session, line: str) -> str:
    before = (s.state.view(HOST), len(s.events), len(s.entries))
    with pytest.raises(InputError) as info:
        play(s, line)
    assert (s.state.view(HOST), len(s.events), len(s.entries)) == before, line
    return info.value.message


# ============================================================================ setting up
def test_the_setup_is_chosen_by_level_or_deck_and_recorded() -> None:
    assert MAZE.choose_setup("3", 5, None, 2) == ("3", {"players": 5, "roles": 2})
    assert MAZE.choose_setup(None, None, None, 1) == ("1", {"players": 4, "roles": 1})
    for players in (1, 2, 9):
        with pytest.raises(IllegalMoveError) as info:
            MAZE.choose_setup("3", players, None, 2)
        assert info.value.message == f"Magic Maze: Hidden Roles is played by 3 to 8 players, not {players}"
        assert info.value.allowed == tuple(f"--players {n}" for n in range(3, 9))
    assert MAZE.choose_setup("3", 2) == ("3", {"players": 2})  # the base game as ever
    for players in (3, 8):  # both ends of the range
        assert MAZE.choose_setup("3", players, None, 2) == ("3", {"players": players, "roles": 2})


def test_the_digest_holds_the_role_deck_only_with_roles() -> None:
    v = MAZE.variant("3")
    assert MAZE.data_hash(v, {"players": 4}) == v.data_hash
    with_roles = MAZE.data_hash(v, {"players": 4, "roles": 2})
    assert with_roles != v.data_hash
    assert MAZE.data_hash(v, {"players": 5, "deck": {"title": "x", "level": 3, "cards": {"hero": 5}}}) == with_roles


@pytest.mark.parametrize("players", range(3, 9))
def test_level_one_always_deals_exactly_one_traitor(players: int) -> None:
    for seed in range(25):
        s = Session(MAZE, "2", seed=seed, options={"players": players, "roles": 1})
        cards = Counter(s.state.cards.values())
        assert cards == Counter({"traitor": 1, "hero": players - 1}), (seed, cards)
        (deal,) = [r for r in s.chance.records if r.label == "roles"]
        assert deal.outcome == [s.state.cards[x] for x in s.seats]


def test_level_two_deals_from_eleven_cards() -> None:
    traitors = Counter()
    for seed in range(40):
        s = Session(MAZE, "3", seed=seed, options={"players": 8, "roles": 2})
        (deal,) = [r for r in s.chance.records if r.label == "roles"]
        assert sorted(deal.outcome) == sorted(["hero"] * 8 + ["traitor"] * 3)
        traitors[sum(c == "traitor" for c in s.state.cards.values())] += 1
    assert set(traitors) <= {0, 1, 2, 3} and len(traitors) >= 3


def test_the_redraw_rule_discards_what_the_game_cannot_use() -> None:
    # three players in scenario 1: clean-record (4+ players) and pathfinder (passing) cannot be used
    s = roles_game("1", ["clean-record", "mute", "pathfinder", "traitor", "mage-first"], players=3, level=3)
    assert s.state.cards == {"p1": "mute", "p2": "traitor", "p3": "mage-first"}
    cards = {e.to[0]: e for e in of_kind(s.events, "card")}
    assert cards["p1"].data["discarded"] == ["clean-record"] and cards["p2"].data["discarded"] == ["pathfinder"]
    assert "discarded" in cards["p1"].text and cards["p3"].data["discarded"] == []
    assert all(e.to is not None for e in of_kind(s.events, "card"))
    public = [e.text for e in s.events if e.to is None]
    assert not any("clean-record" in t or "pathfinder" in t for t in public)


@pytest.mark.parametrize("level", range(1, 6))
def test_every_level_deals_every_scenario_and_player_count(level: int) -> None:
    for scenario in D.scenarios:
        for players in (3, 8):
            s = Session(MAZE, scenario, seed=level, options={"players": players, "roles": level})
            feats = rd.features(D, D.scenarios[scenario])
            letter = rd.LEVELS[level - 1]
            for seat in s.seats:
                card = s.state.card_of(seat)
                assert letter in card.levels and card.condition.met(players, feats)


def test_a_custom_deck_is_dealt_with_its_own_level(tmp_path: Path) -> None:
    deck = write(tmp_path / "friday.yaml", """
        game: magic-maze
        kind: roles
        title: Friday night
        level: 1
        cards: {traitor: 2, mute: 1, clean-record: 1, hero: 1}
    """)
    assert MAZE.choose_setup("1", 3, str(deck), None)[1] == {"players": 3, "deck": {"title": "Friday night", "level": 1,
                                              "cards": {"traitor": 2, "mute": 1, "clean-record": 1, "hero": 1}}}
    options = MAZE.choose_setup("1", 3, str(deck), None)[1]
    s = roles_game("1", ["clean-record", "traitor", "traitor", "mute"], players=3, deck=options["deck"])
    assert s.state.cards == {"p1": "traitor", "p2": "traitor", "p3": "mute"}  # clean-record needs 4 players
    assert s.state.level == 1 and "abandon" not in s.state.legal_inputs("p3")
    assert refused(s, "p3 accuse p1 p2") == "at level 1 an accusation names exactly one seat"
    assert s.state.setup.title == "Friday night (a custom deck, level 1)"
    replays(s)


def test_custom_decks_that_cannot_be_played_are_refused(tmp_path: Path) -> None:
    small = write(tmp_path / "small.yaml", """
        game: magic-maze
        kind: roles
        level: 3
        cards: {traitor: 1, clean-record: 2, pathfinder: 1}
    """)
    with pytest.raises(IllegalMoveError, match=r"has 1 card\(s\) that scenario 1 with 3 players can use"):
        MAZE.choose_setup("1", 3, str(small), None)
    assert MAZE.choose_setup("3", 4, str(small), None)[1]["players"] == 4  # all usable there
    with pytest.raises(IllegalMoveError, match="leave out --roles"):
        MAZE.choose_setup("3", 4, str(small), 2)
    spy = write(tmp_path / "spy.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {spy: 3}\n")
    with pytest.raises(ScenarioError, match="no card 'spy' in the role deck"):
        MAZE.choose_setup("3", 4, str(spy), None)
    with pytest.raises(ScenarioError, match="options hold roles or deck, not both"):
        Session(MAZE, "3", seed=1, options={"players": 4, "roles": 2, "deck": {"level": 2, "cards": {"hero": 4}}})


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


def test_level_one_accuses_one_seat_and_three_players_two_accused_have_no_voters() -> None:
    s = roles_game("3", ["traitor", "hero", "hero"], level=1)
    assert refused(s, "p2 accuse p1 p3") == "at level 1 an accusation names exactly one seat"
    s = roles_game("3", ["traitor", "hero", "traitor"], level=2)
    events = play(s, "@5 p2 accuse p1 p3")
    assert [e.kind for e in events][:2] == ["accuse", "verdict"] and "Nobody else is left to vote." in events[0].text
    assert set(s.state.eliminated) == {"p1", "p3"}
    assert s.state.hands == [(), ("escalator", "explore", "south", "vortex", "west", "north", "east"), ()]
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


def test_a_voter_eliminated_while_the_sand_is_out_may_not_vote() -> None:
    """A voter whose mission fails during the vote is no longer asked, and its vote is refused,
    even while the sand is out (when votes are the only inputs that pass)."""
    s = roles_game("3", ["traitor", "quick-hands", "mute", "dwarf-averse", "mage-averse"], level=3)
    s.state.deadline_ms = 99_000  # staging: the sand runs out before quick-hands' 100 s mark
    play(s, "@97 p1 accuse p3", "@98 p4 vote yes")
    s.advance_to(100_000)
    assert s.state.sand_out and "p2" in s.state.eliminated and s.state.vote is not None
    assert s.state.vote.waiting(s.state.out) == ["p5"] and s.state.legal_inputs("p2") == []
    assert refused(s, "@100.5 p2 vote no") == "p2 is out of the game: it has no inputs any more"
    play(s, "@101 p5 vote yes")
    assert of_kind(s.events, "verdict")[0].data["upheld"] is True  # (staged: no replay of it)


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


# ============================================================================ the command line
def test_play_sets_up_hidden_roles_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "g.yaml"
    r = run("play", "magic-maze", "--scenario", "3", "--players", "5", "--roles", "2", "--seed", "4",
            "--as", "p2", "--transcript", out, input="accuse p1\n@3 board\nlegal\n")
    assert r.exit_code == 4, r.output
    assert "# event: Your card:" in r.output and r.output.count("Your card") == 1
    assert "vote: p2 accuses p1 until 6 s" in r.output
    t = transcript.read(out)
    assert t.options == {"players": 5, "roles": 2} and [c.label for c in t.chance] == ["stack", "heroes", "roles"]
    r = run("play", "magic-maze", "--players", "2", "--roles", "1")
    assert r.exit_code == 2 and "played by 3 to 8 players, not 2" in r.output and "--players 3" in r.output


def test_games_lists_the_levels() -> None:
    r = run("games")
    assert r.exit_code == 0
    for level in range(1, 6):
        assert f"--roles {level}" in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80


def test_tournaments_see_each_seat_by_its_card() -> None:
    """The arena reports Hidden Roles by side and card, not as one team."""
    s = roles_game("3", ["traitor", "mute", "dwarf-averse"], level=3)
    assert s.rules.seat_sides(s.state) == {"p1": ("traitor", "traitor"), "p2": ("hero", "mute"),
                                           "p3": ("hero", "dwarf-averse")}


# ------------------------------------------------------------------------- the block, drawn
ROLES_BLOCKS = [
    ("level1-scenario1-4p-catch-heroes-seed1", 11, "p2", """\
Hidden Roles, level 1, there is a traitor among you
vote: p1 accuses p3 until 16 s; yes: p1; waiting: p2 p4
eye card: on the table; pawn put by: -
your card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out."""),
    ("level1-scenario1-4p-catch-heroes-seed1", 13, HOST, """\
Hidden Roles, level 1, there is a traitor among you
flip: p1 may flip the timer until 16.8 s
eye card: on the table; pawn put by: -
out: p3 (accused)
revealed: p3 traitor (traitor)
p1's card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out.
p2's card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out.
p3's card: Traitor (traitor), traitor. You are a traitor. The heroes must not
  get out in time, and nobody must find you out.
p4's card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out."""),
    ("level1-scenario1-4p-catch-heroes-seed1", 71, "p3", """\
Hidden Roles, level 1, there is a traitor among you
eye card: on the table; pawn put by: -
out: p3 (accused)
p1: hero, hero: won (the heroes escaped)
p2: hero, hero: won (the heroes escaped)
p3: traitor, traitor: lost (eliminated)
p4: hero, hero: won (the heroes escaped)"""),
    ("level2-scenario3-4p-late-vote-heroes-seed1", 14, HOST, """\
Hidden Roles, level 2, multiple traitors... could be!
vote: p2 accuses p1 until 183.6 s; yes: p2 p3; waiting: p4
the sand has run out: the game waits for the vote
eye card: on the table; pawn put by: -
p1's card: Traitor (traitor), traitor. You are a traitor. The heroes must not
  get out in time, and nobody must find you out.
p2's card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out.
p3's card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out.
p4's card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out."""),
    ("level2-scenario3-4p-late-vote-heroes-seed1", 15, "p1", """\
Hidden Roles, level 2, multiple traitors... could be!
flip: p2 may flip the timer until 185.6 s
the sand has run out: the game waits for the vote
eye card: on the table; pawn put by: -
out: p1 (phantom)
revealed: p1 traitor (traitor)
your card: Traitor (traitor), traitor. You are a traitor. The heroes must not
  get out in time, and nobody must find you out."""),
    ("level5-scenario1-4p-divine-heroes-seed18", 75, HOST, """\
Hidden Roles, level 5, missions for traitors
divining until 105 s: waiting for p4
eye card: on the table; pawn put by: -
revealed: p4 above-suspicion (traitor)
p1's card: Clean record (clean-record), hero [mission: pending]. Nobody may
  accuse you of treason, ever.
p2's card: The mage leads the way out (mage-first), hero [mission: done]. The
  purple mage must be the first hero to leave the mall.
p3's card: Quick hands (quick-hands), hero [mission: done]. The theft must
  happen before the clock shows 100 seconds.
p4's card: Above suspicion (above-suspicion), traitor [mission: pending]. Nobody
  may accuse you of treason, ever."""),
]


@pytest.mark.parametrize("name, moves, seat, block", ROLES_BLOCKS,
                         ids=[f"{name.split('-')[0]}-{moves}-{seat}" for name, moves, seat, _ in ROLES_BLOCKS])
def test_the_roles_block_reads_as_written(name, moves, seat, block):
    """The Hidden Roles block under the board, whole, at the moments that show each of its
    lines (goldens cut after ``moves`` inputs): an open vote and who it waits for, the
    accuser's flip, the sand run out while a vote is open, a phantom out, the revealed cards,
    the divining, each card's mission, a seat's own card, and the end's line per player."""
    path = Path(__file__).resolve().parents[1] / "transcripts" / "magic-maze" / f"roles-{name}.yaml"
    session = transcript.replayed(transcript.read(path).until(moves))
    board = session.render(seat)
    assert board[board.index("Hidden Roles, "):] == block

"""Hidden Roles: setting up by level (the deal, the redraw rule, custom decks), the
command line, and the block of roles as it is drawn.

Authority: docs/rules/hidden-roles.md. Cards are staged through the recorded ``roles`` chance
outcome (``tests.helpers.roles_game``); every input goes through ``Session.submit``. Games
that stage nothing are replayed from their transcript and must come out the same
(``tests/roles_staging.py``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from arbiter.engine import transcript
from arbiter.engine.errors import ScenarioError, SetupError
from arbiter.engine.events import HOST
from arbiter.engine.games.magic_maze.roles import data as rd
from arbiter.engine.scenario import load_text
from arbiter.engine.session import Session

from tests.helpers import precondition, roles_game, run, write
from tests.roles_staging import D, MAZE, escape, item_roles, of_kind, refused, replays, theft


# ============================================================================ setting up
def test_the_setup_is_chosen_by_level_or_deck_and_recorded() -> None:
    assert MAZE.choose_setup("3", 5, None, 2) == ("3", {"players": 5, "roles": 2})
    assert MAZE.choose_setup(None, None, None, 1) == ("1", {"players": 4, "roles": 1})
    for players in (1, 2, 9):
        with pytest.raises(SetupError) as info:
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


def test_the_cards_dealt_from_are_shown_to_every_seat_alike(tmp_path: Path) -> None:
    """What a game is dealt from is public (a level's cards by its rules, a custom deck's by its
    file), and the built-in bots read it (is a traitor alone? may a hero's rule forbid a
    step?); a seat's view and board did not show it, so a person at a seat, or an agent reading
    the view, knew less than the built-in bot beside it. Which seat holds which card stays
    hidden: every seat is shown the same."""
    deck = write(tmp_path / "lone.yaml", """
        game: magic-maze
        kind: roles
        level: 2
        cards: {traitor: 1, hero: 3}
    """)
    options = MAZE.choose_setup("1", 4, str(deck), None)[1]
    s = Session(MAZE, "1", seed=1, options=options)
    shown = [s.state.view(seat)["roles"]["dealt_from"] for seat in (*s.seats, HOST)]
    assert shown == [{"traitor": 1, "hero": 3}] * 5
    assert all("dealt from: hero x3, traitor" in s.render(seat) for seat in (*s.seats, HOST))
    level = Session(MAZE, "1", seed=1, options={"players": 5, "roles": 1})
    assert level.state.view("p1")["roles"]["dealt_from"] == {"traitor": 1, "hero": 4}


def test_a_custom_deck_may_start_with_the_start_tiles_hourglass_out_of_order(tmp_path: Path) -> None:
    """The rulebook's tip for a harder game for the heroes (shorter games): an Out of Order
    token on the start tile's sand timer space from the start. A custom deck says so with
    ``out_of_order_start: true``: that hourglass is used from the first instant (a hero on it
    flips nothing), the deck's title says so, and the transcript records it and replays."""
    text = "game: magic-maze\nkind: roles\ntitle: Hard start\nlevel: 2\ncards: {traitor: 1, hero: 4}\n"
    plain = MAZE.choose_setup("1", 4, str(write(tmp_path / "plain.yaml", text)), None)[1]
    hard = MAZE.choose_setup("1", 4, str(write(tmp_path / "hard.yaml", text + "out_of_order_start: true\n")), None)[1]
    assert "out_of_order_start" not in plain["deck"]  # a deck without it is recorded as it always was
    assert hard["deck"] == {**plain["deck"], "out_of_order_start": True}
    games = {name: Session(MAZE, "1", seed=3, options=options) for name, options in (("plain", plain), ("hard", hard))}
    start_hourglass = games["plain"].state.square_name(games["plain"].state.mall.with_kind("hourglass")[0])
    assert games["plain"].state.view(HOST)["used"] == []
    assert games["hard"].state.view(HOST)["used"] == games["hard"].state.view("p2")["used"] == [start_hourglass]
    assert games["hard"].state.setup.title == "Hard start (a custom deck, level 2; the start tile's hourglass out of order)"
    for s in games.values():  # the yellow barbarian steps onto the start tile's hourglass
        s.submit("p4", "move yellow north 1", 1000)
        assert s.state.heroes["yellow"] == s.state.mall.with_kind("hourglass")[0]
    assert (games["plain"].state.flips, games["hard"].state.flips) == (1, 0)
    # (flipped at 1 s, the timer has left the 1 s of sand that had run; unflipped, its 180 s)
    assert (games["plain"].state.deadline_ms, games["hard"].state.deadline_ms) == (2000, 180_000)
    replays(games["hard"])
    with pytest.raises(ScenarioError, match="true or false, not 'yes': whether the start tile's hourglass is out of order"):
        MAZE.choose_setup("1", 4, str(write(tmp_path / "bad.yaml", text + "out_of_order_start: 'yes'\n")), None)


def test_custom_decks_that_cannot_be_played_are_refused(tmp_path: Path) -> None:
    small = write(tmp_path / "small.yaml", """
        game: magic-maze
        kind: roles
        level: 3
        cards: {traitor: 1, clean-record: 2, pathfinder: 1}
    """)
    with pytest.raises(SetupError, match=r"has 1 card\(s\) that scenario 1 with 3 players can use \(conditions met\), "
                                         r"too few for 3 players; scenario 1 with 3 players cannot use clean-record x2 "
                                         r"\(4\+ players\), pathfinder \(passing\)$"):
        MAZE.choose_setup("1", 3, str(small), None)
    assert MAZE.choose_setup("3", 4, str(small), None)[1]["players"] == 4  # all usable there
    with pytest.raises(SetupError, match="leave out --roles"):
        MAZE.choose_setup("3", 4, str(small), 2)
    spy = write(tmp_path / "spy.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {spy: 3}\n")
    with pytest.raises(ScenarioError, match="no card 'spy' in the role deck"):
        MAZE.choose_setup("3", 4, str(spy), None)
    with pytest.raises(ScenarioError, match="options hold roles or deck, not both"):
        Session(MAZE, "3", seed=1, options={"players": 4, "roles": 2, "deck": {"level": 2, "cards": {"hero": 4}}})


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_a_deck_that_deals_no_hero_is_refused_where_a_game_is_set_up(tmp_path: Path, level: int) -> None:
    """A deck of traitors alone (variable ones that start as traitors count among them) dealt
    every seat a traitor, which every seat knew (the cards dealt from are public): nobody played
    the heist and at level 5 the divining opened with no face-down card to name. ``--deck`` and
    ``validate`` said ok; both refuse it now, naming the file and the line of its cards."""
    deck = write(tmp_path / "traitors.yaml", f"""
        game: magic-maze
        kind: roles
        level: {level}
        cards: {{traitor: 2, hasty-traitor: 1, slow-fingers: 1}}
    """)
    with pytest.raises(SetupError, match=r"/traitors\.yaml:4: cards: every card scenario 3 with 4 players can use "
                                         r"starts as a traitor \(traitor x2, hasty-traitor, slow-fingers\): every seat "
                                         r"would be a traitor and know it .*a game needs a card it can use that starts "
                                         r"as a hero \(hero, a hero mission or rule, or a variable card that starts as "
                                         r"a hero\)$") as info:
        MAZE.choose_setup("3", 4, str(deck), None)
    assert info.value.option == "--deck"
    with pytest.raises(ScenarioError, match=r"traitors\.yaml: cards: no game can be dealt from this deck with a hero "
                                            r"in it: every card of it starts as a traitor"):
        rd.validate_document(load_text(deck.read_text(encoding="utf-8"), "traitors.yaml"))
    # A game recorded with it (an older version set it up) is read as it was, and replays.
    recorded = {"title": "traitors", "level": level, "cards": {"traitor": 2, "hasty-traitor": 1, "slow-fingers": 1}}
    s = Session(MAZE, "3", seed=1, options={"players": 4, "deck": recorded})
    assert {s.state.side_of(seat) for seat in s.seats} == {"traitor"}
    s.submit("p1", "eye p2", 1000)
    replays(s)


def test_a_tournament_an_older_version_made_with_a_deck_that_deals_no_hero_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament folder holds its deck (``tournament.json``), set up by the version that made
    it: one made before such decks were refused was refused by ``--resume``, the one way to see
    its report (helper-128). Its recorded deck is not checked again; a new one is refused."""
    deck = write(tmp_path / "traitors.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 3, hero: 0}\n")
    args = ["match", "magic-maze", "--scenario", "1", "--players", "3", "--deck", str(deck), "a=random", "b=random",
            "--games", "2", "--workers", "1"]
    r = run(*args, "--out", tmp_path / "new")
    assert r.exit_code == 2 and "every card scenario 1 with 3 players can use starts as a traitor" in r.output, r.output
    with monkeypatch.context() as older:  # (what an older version did: no such check)
        older.setattr(rd.CustomDeck, "no_hero", lambda *a, **k: None)
        r = run(*args, "--out", tmp_path / "old")
        assert r.exit_code == 0, r.output
    (tmp_path / "old" / "results.jsonl").write_text(  # (the run cut short after its first game)
        (tmp_path / "old" / "results.jsonl").read_text().splitlines(keepends=True)[0])
    r = run("tournament", "--resume", tmp_path / "old", "--workers", "1")
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    assert len((tmp_path / "old" / "results.jsonl").read_text().splitlines()) == 2


def test_a_deck_whose_heroes_the_game_cannot_use_is_refused_for_that_game_only(tmp_path: Path) -> None:
    """Whether a game has a hero to deal depends on the player count and the scenario: the
    cards whose condition it does not meet are discarded. Three players cannot use
    ``clean-record`` (4 players on), so three traitors are all they would be dealt; four can."""
    deck = write(tmp_path / "few.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 3, clean-record: 1}\n")
    with pytest.raises(SetupError, match=r"/few\.yaml:4: cards: every card scenario 1 with 3 players can use starts "
                                         r"as a traitor \(traitor x3\).*; scenario 1 with 3 players cannot use "
                                         r"clean-record \(4\+ players\)$"):
        MAZE.choose_setup("1", 3, str(deck), None)
    assert MAZE.choose_setup("1", 4, str(deck), None)[1]["deck"]["cards"] == {"traitor": 3, "clean-record": 1}
    rd.validate_document(load_text(deck.read_text(encoding="utf-8"), "few.yaml"))  # some game can deal it


def test_a_card_counted_zero_is_left_out_as_in_a_classic_mafia_deck(tmp_path: Path) -> None:
    """A Classic Mafia deck may count a card 0 (left out); a Hidden Roles deck refused it ("0 is
    out of range (allowed: 1..20)"), for no reason. It is left out now: the deck is recorded as
    the same deck without it."""
    deck = write(tmp_path / "zero.yaml", "game: magic-maze\nkind: roles\nlevel: 2\n"
                                         "cards: {traitor: 1, mute: 0, hero: 3}\n")
    assert MAZE.choose_setup("1", 4, str(deck), None)[1]["deck"]["cards"] == {"traitor": 1, "hero": 3}
    none = write(tmp_path / "none.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 0, hero: 0}\n")
    with pytest.raises(ScenarioError, match=r"none\.yaml:4: cards: a deck needs cards \(each card it names is "
                                            r"counted 0, which leaves it out: traitor, hero\)$"):
        MAZE.choose_setup("1", 4, str(none), None)
    empty = write(tmp_path / "empty.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {}\n")
    with pytest.raises(ScenarioError, match=r"empty\.yaml:4: cards: a deck needs cards$"):
        MAZE.choose_setup("1", 4, str(empty), None)
    many = write(tmp_path / "many.yaml", "game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 21, hero: 3}\n")
    with pytest.raises(ScenarioError, match=r"many\.yaml:4: cards\.traitor: 21 is out of range \(allowed: 0\.\.20\)"):
        MAZE.choose_setup("1", 4, str(many), None)


def test_a_custom_deck_may_hold_more_copies_than_the_levels_and_each_is_judged_apart(tmp_path: Path) -> None:
    """The copies in roles.yaml are what the levels deal from, not a box's count: a custom deck
    (a variant, public) may name more, and each copy is a card of its own seat. Two
    ``mage-first`` are both done when the purple mage leaves first; of two ``master-thief`` only
    the seat whose input completes the theft succeeds (the other fails at once)."""
    deck = write(tmp_path / "copies.yaml", "game: magic-maze\nkind: roles\nlevel: 3\n"
                                           "cards: {traitor: 5, mage-first: 2, master-thief: 2}\n")
    recorded = MAZE.choose_setup("1", 4, str(deck), None)[1]["deck"]
    assert recorded["cards"] == {"traitor": 5, "mage-first": 2, "master-thief": 2}
    s = item_roles(["mage-first", "master-thief", "mage-first", "master-thief"], deck=recorded)
    theft(s, time_ms=50_000)  # four players: p4 (north) completes it
    assert [e.data["seat"] for e in of_kind(s.events, "failed")] == ["p2"]
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        escape(s, hero, 60_000 + n * 1000)
    assert s.state.result.winners == ("p1", "p3", "p4")  # both mage-first, and the master-thief who stole


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


def test_the_hosts_header_says_whose_each_card_is() -> None:
    """Every seat is told "Your card: ..."; the host, told all of them, read the same words once
    per seat with nothing to say whose: its lines name the seat each is for (``--as p2`` above
    is told its own card alone, without it)."""
    r = run("play", "magic-maze", "--scenario", "3", "--players", "5", "--roles", "2", "--seed", "4", input="quit\n")
    cards = [line for line in r.output.splitlines() if "Your card:" in line]
    assert [line.split(" Your card:")[0] for line in cards] == [f"# event: (to p{k})" for k in range(1, 6)]
    s = Session(MAZE, "3", seed=4, options={"players": 5, "roles": 2})
    assert [line.split("Your card: ")[1] for line in cards] == [
        e.text.split("Your card: ")[1] for e in s.events if e.kind == "card"]


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
dealt from: traitor, hero x3
vote: p1 accuses p3 until 16 s; yes: p1; waiting: p2 p4
eye card: on the table; pawn put by: -
your card: Hero (hero), hero. You are a hero. Steal the four items and get out
  before the sand runs out."""),
    ("level1-scenario1-4p-catch-heroes-seed1", 13, HOST, """\
Hidden Roles, level 1, there is a traitor among you
dealt from: traitor, hero x3
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
dealt from: traitor, hero x3
eye card: on the table; pawn put by: -
out: p3 (accused)
p1: hero, hero: won (the heroes escaped)
p2: hero, hero: won (the heroes escaped)
p3: traitor, traitor: lost (eliminated)
p4: hero, hero: won (the heroes escaped)"""),
    ("level2-scenario3-4p-late-vote-heroes-seed1", 14, HOST, """\
Hidden Roles, level 2, multiple traitors... could be!
dealt from: hero x8, traitor x3
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
dealt from: hero x8, traitor x3
flip: p2 may flip the timer until 185.6 s
the sand has run out: the game waits for p2's flip
eye card: on the table; pawn put by: -
out: p1 (phantom)
revealed: p1 traitor (traitor)
your card: Traitor (traitor), traitor. You are a traitor. The heroes must not
  get out in time, and nobody must find you out."""),
    ("level5-scenario1-4p-divine-heroes-seed18", 75, HOST, """\
Hidden Roles, level 5, missions for traitors
dealt from: mage-first, barbarian-first, elf-last, dwarf-last, master-thief,
  quick-hands, pathfinder, close-call, no-shortcuts, clean-record, slow-fingers,
  above-suspicion, decoy, nuisance, brinkman
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


def test_the_block_says_no_more_that_the_game_waits_once_it_is_over():
    """The sand ran out while the accuser could flip; the accuser passes and the game ends: the
    board once went on saying the game waits for the vote."""
    path = Path(__file__).resolve().parents[1] / "transcripts" / "magic-maze" / "roles-level2-scenario3-4p-late-vote-heroes-seed1.yaml"
    session = transcript.replayed(transcript.read(path).until(15))
    precondition("waits for p2's flip" in session.render(HOST), "the sand is out and p2 may flip")
    session.submit("p2", "pass")
    assert session.over and "waits" not in session.render(HOST) and "waits" not in session.render("p1")

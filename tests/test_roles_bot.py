"""The role-aware ``planner`` bot of Hidden Roles (engine/games/magic_maze/roles/bot.py).

It decides from its seat's knowledge only: twin games (as in tests/test_roles_hidden_info.py:
the same game, other seats' cards dealt otherwise) get the same choices from it until a card
it may not know shows; a bot that peeks is caught. Heroes accuse a seat that visibly
sabotaged, and vote by the record; traitors vote to protect themselves and lie low once
watched; whole bot games finish at every level and their transcripts replay.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import GameOverError, InputError
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import move_name
from arbiter.engine.games.magic_maze.roles import bot
from arbiter.engine.games.magic_maze.roles.state import HERO_VERBS, HiddenRolesState
from arbiter.engine.session import Session

from tests.roles_staging import game, plan_steps, traitor_of
from tests.roles_twins import REVEALING, start, twins

MAZE = registry.get("magic-maze")


def ask(s: Session, seat: str, rngs: dict[str, random.Random]) -> str | None:
    return MAZE.bot_input("planner", s.state, seat, rngs[seat])


def accepts(s: Session, seat: str, text: str) -> bool:
    st = s.state
    try:
        move = st.parse(text)
        st.check_actor(seat, move)
        st.plan(seat, move)
    except InputError:
        return False
    return True


def stream(s: Session, seat: str) -> list[tuple]:
    return [(e.kind, e.text, e.data, e.to) for e in s.events.visible_to(seat)]


def twin_choices(game: tuple, me: str, recs: list[ChanceRecord], twin: list[ChanceRecord], stats: Counter,
                 steps: int = 150) -> None:
    """Play the twins side by side, every seat's bot asked in both before every input (as a
    bots-only match asks them: in turn from the seat after the last to act); ``me``'s choices
    must be the same in both until its event streams part at a card shown. The input played is
    the first choice (twin a's) that both twins accept."""
    scenario, players, level, seed = game
    a, b = start(scenario, players, level, seed, recs), start(scenario, players, level, seed, twin)
    assert a.state.cards[me] == b.state.cards[me] and a.state.cards != b.state.cards
    rngs_a = {x: random.Random(f"bot:{seed}:{x}") for x in a.seats}
    rngs_b = {x: random.Random(f"bot:{seed}:{x}") for x in a.seats}
    last = len(a.seats) - 1
    for _ in range(steps):
        ea, eb = stream(a, me), stream(b, me)
        if ea != eb:
            first = next((x for x, y in zip(ea, eb) if x != y), None) or (ea[len(eb):] or eb[len(ea):])[0]
            assert first[0] in REVEALING, f"{me} sees {first[:2]} in one twin only"
            stats["parted at a card shown"] += 1
            return
        if a.over or b.over:
            assert a.over and b.over
            stats["game over"] += 1
            return
        order = [a.seats[(last + k) % len(a.seats)] for k in range(1, len(a.seats) + 1)]
        played = None
        for seat in order:
            ca, cb = ask(a, seat, rngs_a), ask(b, seat, rngs_b)
            if seat == me:
                assert ca == cb, f"{me} chose {ca!r} in one twin and {cb!r} in the other (input {len(a.moves)})"
                stats["choices compared"] += 1
                stats["inputs compared"] += ca is not None
                stats["role inputs compared"] += ca is not None and ca.split()[0] in ("accuse", "vote", "divine", "pass")
            if played is None and ca is not None and accepts(b, seat, ca):
                played = seat, ca
        if played is None:
            deadline = a.state.next_deadline()
            if deadline is None or deadline != b.state.next_deadline():
                stats["stuck"] += 1
                return
            for s in (a, b):
                s.advance_to(max(deadline, s.clock_ms))
            continue
        seat, text = played
        ends = []
        for s in (a, b):
            try:
                s.submit(seat, text)
                ends.append(None)
            except GameOverError as err:
                ends.append(err.message)
        assert (ends[0] is None) == (ends[1] is None)
        last = a.seats.index(seat)
    stats["step budget"] += 1


TWIN_GAMES = [  # (scenario, players, level, seed), viewer
    (("2", 4, 1, 1), "hero"), (("3", 5, 2, 5), "traitor"), (("3", 4, 2, 2), "p1"), (("4", 5, 3, 1), "p2"),
    (("2", 5, 4, 1), "p1"), (("1", 4, 5, 4), "p3"),
]


def viewer(s: Session, who: str) -> str:
    if who in s.seats:
        return who
    return next(x for x in s.seats if s.state.cards[x] == who)


@pytest.mark.parametrize("game, who", TWIN_GAMES, ids=[f"s{g[0]}-{g[1]}p-level{g[2]}-{w}" for g, w in TWIN_GAMES])
def test_the_bot_decides_from_its_seats_knowledge_only(game, who):
    """Two seeds of each setup, every twin of each (other seats' cards swapped, or one given
    a card left in the deck)."""
    stats: Counter = Counter()
    for seed in (game[3], game[3] + 10):
        g = (*game[:3], seed)
        base = start(*g)
        if who not in base.seats and who not in base.state.cards.values():
            continue
        me = viewer(base, who)
        for name, twin in twins(base, me, random.Random(f"{g}:{me}")):
            twin_choices(g, me, list(base.chance.records), twin, stats)
    assert stats["choices compared"] >= 80 and stats["inputs compared"] >= 10, stats
    assert stats["step budget"] + stats["game over"] + stats["parted at a card shown"] >= 2, stats


def test_a_bot_that_peeks_is_caught(monkeypatch):
    """The twin test has teeth: a hero bot that reads who the traitor is accuses it."""
    honest = bot.choose

    def peeking(state, seat, rng):
        move = honest(state, seat, rng)
        traitor = next((x for x in state.seats if x != seat and state.side_of(x) == "traitor"), None)
        if traitor is not None and state.vote is None and state.flip_window is None and len(state.inputs) > 8:
            return bot.RoleMove("accuse", accused=bot.Seats((traitor,)))
        return move

    monkeypatch.setattr(bot, "choose", peeking)
    game = ("2", 4, 1, 1)
    base = start(*game)
    me = viewer(base, "hero")
    with pytest.raises(AssertionError, match="chose"):
        for name, twin in twins(base, me, random.Random(f"{game}:{me}")):
            twin_choices(game, me, list(base.chance.records), twin, Counter())


# ------------------------------------------------------------------------------------ staged play


def sabotage(s: Session, seat: str, times: int) -> None:
    """``seat`` plays ``times`` wasted or misleading steps (the traitor's own choice of them)."""
    rng = random.Random(0)
    done = 0
    for _ in range(60):
        bot.watch_of(s.state)
        move = bot._sabotage(s.state, seat, rng)
        if move is None:
            plan_steps(s, 1)
            continue
        s.submit(seat, move_name(move))
        done += 1
        if done == times:
            bot.watch_of(s.state)
            return
    raise AssertionError(f"{seat} found no sabotage")


def test_a_hero_accuses_the_seat_that_visibly_sabotaged():
    s = game()
    t = traitor_of(s)
    plan_steps(s, 4)
    sabotage(s, t, 3)
    w = bot.watch_of(s.state)
    assert w.of(t) >= bot.THRESHOLD, w.notes
    assert all(w.of(x) < bot.VOTE_YES for x in s.seats if x != t), w.notes
    hero = next(x for x in s.seats if x != t)
    assert MAZE.bot_input("planner", s.state, hero, random.Random(0)) == f"accuse {t}"


def test_heroes_vote_by_the_record_and_the_traitor_is_caught():
    s = game()
    t = traitor_of(s)
    plan_steps(s, 4)
    sabotage(s, t, 3)
    heroes = [x for x in s.seats if x != t]
    s.submit(heroes[0], f"accuse {t}")
    for voter in heroes[1:]:
        assert MAZE.bot_input("planner", s.state, voter, random.Random(0)) == "vote yes"
        s.submit(voter, "vote yes")
    assert s.state.out.get(t) == "accused"


def test_a_hero_votes_no_on_a_seat_the_record_clears():
    s = game()
    t = traitor_of(s)
    plan_steps(s, 4)
    heroes = [x for x in s.seats if x != t]
    s.submit(t, f"accuse {heroes[0]}")  # the traitor frames a hero nobody suspects
    for voter in heroes[1:]:
        assert MAZE.bot_input("planner", s.state, voter, random.Random(0)) == "vote no"
    s.submit(heroes[1], "vote no")
    assert s.state.vote is None and not s.state.eliminated
    assert bot.watch_of(s.state).of(t) >= bot.VOTE  # accusing a seat the record clears is noted


def test_the_traitor_votes_to_protect_itself():
    """A traitor votes yes on every accusation of others (an upheld one against a hero wins the
    game for the traitors), and deflects: once watched, it accuses the most suspect other seat."""
    s = game(level=2, players=5, seed=3)
    t = traitor_of(s)
    others = [x for x in s.seats if x != t]
    s.submit(others[0], f"accuse {others[1]}")
    assert MAZE.bot_input("planner", s.state, t, random.Random(0)) == "vote yes"
    s.submit(others[2], "vote no")
    w = bot.watch_of(s.state)
    w.add(t, "planted", bot.VOTE_YES + 0.2)
    w.add(others[3], "planted", bot.VOTE_YES)
    assert MAZE.bot_input("planner", s.state, t, random.Random(0)) == f"accuse {others[3]}"


def test_a_watched_traitor_lies_low():
    """Beyond its caution, the traitor plays the team's plan: never a sabotage (unwatched, at
    the same position, it does sabotage now and then: the test can tell the two apart)."""
    s = game()
    t = traitor_of(s)
    for _ in range(40):  # on to a position where the plan's step is the traitor's to play
        if planner.choose(s.state, t) is not None:
            break
        plan_steps(s, 1)
    wanted = planner.choose(s.state, t)
    assert wanted is not None, "the traitor never held the plan's step"
    me = bot.seat_of(s.state, t)
    w = bot.watch_of(s.state)
    unwatched = {move_name(m) for k in range(60) if (m := bot._traitor_step(s.state, me, w, random.Random(k)))}
    assert unwatched - {move_name(wanted)}, "unwatched, the traitor never sabotaged: nothing to lie low from"
    w.add(t, "planted", bot.THRESHOLD + 1.0)
    for k in range(60):
        assert bot._traitor_step(s.state, me, w, random.Random(k)) == wanted


def test_the_accuser_flips_when_a_flip_is_worth_it():
    s = game()
    t = traitor_of(s)
    heroes = [x for x in s.seats if x != t]
    s.advance_to(120_000)
    s.submit(heroes[0], f"accuse {t}")
    for voter in heroes[1:]:
        s.submit(voter, "vote yes")
    assert s.state.flip_window is not None
    assert MAZE.bot_input("planner", s.state, heroes[0], random.Random(0)) == "flip"


# ------------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize("level, scenario, players", [(1, "2", 4), (2, "3", 5), (3, "4", 4), (4, "2", 5), (5, "1", 4)])
def test_a_whole_bot_game_finishes_and_replays(level, scenario, players):
    s = play_random(MAZE, scenario, 7, kind="planner", options={"players": players, "roles": level})
    assert s.over and s.state.result is not None
    report = tr.replay(tr.parse(tr.dump(s)))
    assert report.ok, report.problems
    again = play_random(MAZE, scenario, 7, kind="planner", options={"players": players, "roles": level})
    assert [m.text for m in again.moves] == [m.text for m in s.moves]


def test_bots_accuse_vote_and_catch_traitors_over_many_games():
    """Over a fixed set of games, the bots accuse, vote, and catch traitors (the figures are
    exact: the games are seeded)."""
    tally: Counter = Counter()
    for seed in range(1, 9):
        s = play_random(MAZE, "2", seed, kind="planner", options={"players": 4, "roles": 1})
        for k, v in MAZE.bench_tally(s.state).items():
            tally[k] += v
    assert tally["accusations"] >= 4 and tally["caught"] >= 3, tally
    assert isinstance(s.state, HiddenRolesState)


def test_a_hero_its_rule_blocks_asks_and_the_table_answers():
    """A ``needs-a-push`` hero holding the plan's step stares ("I cannot"); the seat it stared
    at puts the pawn in front of it, and then it plays; the heist goes on to the end, and the
    record holds the stare against it only once per step."""
    from arbiter.engine.bots import RandomBot
    from arbiter.engine.match import Match
    from arbiter.engine.protocol import Protocol
    from tests.helpers import roles_game

    s = roles_game("1", ["needs-a-push", "mage-first", "barbarian-first", "mute"])
    bots = {seat: RandomBot(seat, 0, "planner") for seat in s.seats}
    for _ in Match(Protocol(s), bots, None, max_moves=400).run():
        pass
    inputs = [(seat, text) for seat, text, _ in s.state.inputs]
    stares = [i for i, (seat, text) in enumerate(inputs) if seat == "p1" and text.startswith("stare")]
    pawns = [i for i, (seat, text) in enumerate(inputs) if text == "pawn p1"]
    acts = [i for i, (seat, text) in enumerate(inputs) if seat == "p1" and text.split()[0] in HERO_VERBS]
    assert stares and acts and any(a < p < b for a in stares for p in pawns for b in acts), inputs
    asked = inputs[stares[0]][1].split()[1]
    assert inputs[stares[0] + 1] == (asked, "pawn p1"), inputs  # the seat stared at answers at once
    assert s.state.result is not None and s.state.result.reason == "escape", s.state.result
    said = [n for n in bot.watch_of(s.state).notes if n[0] == "p1" and "cannot" in n[1]]
    assert len(said) <= len(stares)


def test_a_traitor_knows_the_others_only_when_the_deck_holds_one_traitor() -> None:
    """At level 1 the lone traitor knows everyone else is a hero; a custom level-1 deck with two
    traitor cards leaves each traitor unsure of the other."""
    from tests.helpers import roles_game

    lone = roles_game("3", ["traitor", "hero", "hero"], level=1)
    me = bot.seat_of(lone.state, "p1")
    assert me.known("p2") == me.known("p3") == "hero"
    deck = {"title": "two traitors", "level": 1, "cards": {"traitor": 2, "hero": 2}}
    pair = roles_game("3", ["traitor", "traitor", "hero", "hero"], deck=deck)
    me = bot.seat_of(pair.state, "p1")
    assert me.side == "traitor" and me.known("p2") is None and me.known("p3") is None


def test_the_bot_divines_only_a_hero_mission_the_deck_holds() -> None:
    """At level 5 a traitor may name any hero mission of the role cards (the rules page's
    decision), but a custom deck's cards are public: a mission the deck does not hold is never
    right. The bot drew its guess among all ten, and threw its one divining away."""
    from tests.roles_staging import escape, item_roles, theft

    deck = {"title": "three", "level": 5, "cards": {"above-suspicion": 1, "mage-first": 1, "quick-hands": 1, "hero": 1}}
    s = item_roles(["above-suspicion", "mage-first", "quick-hands"], level=5, deck=deck)
    theft(s, time_ms=50_000)
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        escape(s, hero, 60_000 + n * 1000)
    assert s.state.divining is not None and s.state.divining.traitors == ("p1",)
    assert len(s.state.hero_missions()) == 10  # (what the seat may name)
    named = {bot.choose(s.state, "p1", random.Random(n)).mission for n in range(40)}
    assert named == {"mage-first", "quick-hands"}


def test_the_bot_divines_no_mission_the_game_could_not_deal() -> None:
    """A card whose condition the game does not meet is discarded when dealt: before scenario 3,
    ``pathfinder`` (it needs passing) is never a seat's card, though the deck holds it. Naming
    it is allowed and always wrong; the bot drew it as often as any other."""
    from tests.roles_staging import escape, item_roles, theft

    deck = {"title": "with a pathfinder", "level": 5,
            "cards": {"above-suspicion": 1, "mage-first": 1, "pathfinder": 1, "quick-hands": 1, "hero": 1}}
    s = item_roles(["above-suspicion", "mage-first", "quick-hands"], level=5, deck=deck)
    assert not s.state.may_be_dealt("pathfinder") and s.state.may_be_dealt("mage-first")
    assert not s.state.may_be_dealt("master-thief")  # (not in this deck)
    theft(s, time_ms=50_000)
    for n, hero in enumerate(("purple", "yellow", "green", "orange")):
        escape(s, hero, 60_000 + n * 1000)
    assert s.state.divining is not None and s.state.divining.traitors == ("p1",)
    assert "pathfinder" in s.state.hero_missions()  # (what the seat may name)
    named = {bot.choose(s.state, "p1", random.Random(n)).mission for n in range(40)}
    assert named == {"mage-first", "quick-hands"}

"""The Hidden Roles bot's decisions from the record (``roles/bot.py``): whom a hero accuses and
with whom, when it votes yes, when it abandons, when a traitor strikes first, and which steps
a hero's own mission rules out; each at its bound, with scores planted in the watch as the
record would hold them (how the watch scores play is ``test_roles_watch.py``)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import Move, move_name
from arbiter.engine.games.magic_maze.roles import bot
from arbiter.engine.games.magic_maze.roles.bot import THRESHOLD, VOTE_YES
from arbiter.engine.session import Session

from tests.helpers import roles_game
from tests.roles_staging import MAZE, game, traitor_of

BELOW = 0.01
"""How far under a bound a score is planted to be under it."""


def planted(s: Session, scores: dict[str, float]) -> bot.Watch:
    w = bot.watch_of(s.state)
    for seat, score in scores.items():
        w.add(seat, "planted", score)
    return w


def chosen(s: Session, seat: str) -> str | None:
    return MAZE.bot_input("planner", s.state, seat, random.Random(0))


@pytest.mark.parametrize("score, accuses", [(THRESHOLD, True), (THRESHOLD - BELOW, False)])
def test_a_hero_accuses_the_top_suspect_from_the_threshold(score: float, accuses: bool) -> None:
    s = game()
    t = traitor_of(s)
    hero = next(x for x in s.seats if x != t)
    planted(s, {t: score})
    assert (chosen(s, hero) == f"accuse {t}") == accuses


@pytest.mark.parametrize("level, second, group", [
    (2, THRESHOLD + 1, True), (2, THRESHOLD + 1 - BELOW, False), (1, THRESHOLD + 1, False),
])
def test_from_level_2_a_hero_accuses_with_the_top_suspect_each_seat_past_threshold_plus_one(
        level: int, second: float, group: bool) -> None:
    players = 5 if level == 2 else 4
    s = game(level=level, players=players, seed=3)
    hero, a, b = s.seats[0], s.seats[1], s.seats[2]
    planted(s, {a: THRESHOLD + 2, b: second})
    assert chosen(s, hero) == (f"accuse {a} {b}" if group else f"accuse {a}")


def test_a_hero_whose_suspects_are_every_other_seat_leaves_the_least_suspect_one_to_vote() -> None:
    """An accusation needs one voter: with every other seat past the bound, the hero accuses
    all but the least suspect of them (an accusation of all would be refused, and then it
    accused nobody); with two seats left in the game, one each, it accuses nobody."""
    s = game(level=2, players=4, seed=3)
    hero, a, b, c = s.seats
    planted(s, {a: THRESHOLD + 3, b: THRESHOLD + 1.5, c: THRESHOLD + 2})
    assert chosen(s, hero) == f"accuse {a} {c}"
    s = game(level=2, players=3, seed=3)
    hero, a, b = s.seats
    planted(s, {a: THRESHOLD + 3, b: THRESHOLD + 2})
    assert chosen(s, hero) == f"accuse {a}"


@pytest.mark.parametrize("gain, accuses", [(1.0, True), (1.0 - BELOW, False)])
def test_an_accusation_rejected_once_comes_back_only_with_a_point_of_new_evidence(gain: float, accuses: bool) -> None:
    s = game()
    t = traitor_of(s)
    heroes = [x for x in s.seats if x != t]
    w = planted(s, {t: THRESHOLD})
    s.submit(heroes[0], f"accuse {t}")
    s.submit(heroes[1], "vote no")  # one no rejects it
    bot.watch_of(s.state)
    assert s.state.vote is None and w.rejected == {(t,): THRESHOLD}
    w.add(t, "planted", gain)
    assert (chosen(s, heroes[0]) == f"accuse {t}") == accuses


@pytest.mark.parametrize("score, strikes", [(VOTE_YES, True), (VOTE_YES - BELOW, False)])
def test_a_traitor_strikes_first_once_its_own_score_reaches_vote_yes(score: float, strikes: bool) -> None:
    s = game(level=2, players=5, seed=3)
    t = traitor_of(s)
    target = next(x for x in s.seats if x != t)
    planted(s, {t: score, target: 0.5})
    assert (chosen(s, t) == f"accuse {target}") == strikes


@pytest.mark.parametrize("score, answer", [(VOTE_YES, "yes"), (VOTE_YES - BELOW, "no")])
def test_a_hero_votes_yes_from_vote_yes(score: float, answer: str) -> None:
    s = game()
    t = traitor_of(s)
    heroes = [x for x in s.seats if x != t]
    planted(s, {t: score})
    s.submit(heroes[0], f"accuse {t}")
    assert chosen(s, heroes[1]) == f"vote {answer}"


def test_a_hero_abandons_only_from_level_2_before_the_theft_when_every_other_seat_is_a_suspect() -> None:
    s = game(level=2, players=5, seed=3)
    me = bot.seat_of(s.state, next(x for x in s.seats if x != traitor_of(s)))
    others = [x for x in s.seats if x != me.seat]
    w = planted(s, {x: THRESHOLD for x in others[1:]} | {others[0]: THRESHOLD - BELOW})
    assert not bot._abandon_wanted(s.state, me, w)  # one seat the record clears
    w.add(others[0], "planted", BELOW)
    assert bot._abandon_wanted(s.state, me, w)  # every other seat past the threshold
    one = game()  # level 1: no abandoning
    me1 = bot.seat_of(one.state, next(x for x in one.seats if x != traitor_of(one)))
    w1 = planted(one, {x: THRESHOLD + 1 for x in one.seats if x != me1.seat})
    assert not bot._abandon_wanted(one.state, me1, w1)
    s.state.theft = True  # after the theft the heroes leave: nobody abandons
    assert not bot._abandon_wanted(s.state, me, w)


def test_a_hero_whose_mission_forbids_a_heros_vortex_counts_only_that_step_as_failing_it() -> None:
    """``no-shortcuts``: the green hero never travels by vortex. Once the mission is no longer
    pending (the vortex taken), no step can fail it any more."""
    s = roles_game("1", ["no-shortcuts", "mage-first", "traitor", "elf-last"], level=3)
    me = bot.seat_of(s.state, "p1")
    moves = {move_name(m): m for m in s.state.legal_moves("p1")}
    assert [t for t in ("vortex green 1a.a4", "vortex purple 1a.a1", "move green west 1")
            if bot._fails_mission(s.state, me, moves[t])] == ["vortex green 1a.a4"]
    s.submit("p1", "vortex green 1a.a4")
    me = bot.seat_of(s.state, "p1")
    assert me.view["you"]["mission"]["status"] != "pending"
    assert not any(bot._fails_mission(s.state, me, m) for m in s.state.legal_moves("p1"))


def test_a_hero_keeps_its_leaving_order_mission_from_the_step_that_would_break_it() -> None:
    """Level 3, scenario 1: p1 must see the purple hero leave first, p2 the green hero leave
    last. Played on by the base planner (which knows no missions) to the first positions where
    a hero can leave: orange first (p1's mission fails by it; p2's does not), then green with
    others still inside (p2's fails by it; p1's, already failed, no longer counts)."""
    s = roles_game("1", ["mage-first", "elf-last", "traitor", "master-thief"], level=3)
    state = s.state
    seen: list[tuple[str, bool, bool]] = []
    for _ in range(400):
        if state.result is not None or len(seen) == 2:
            break
        a = planner.analyse(state)
        leaving = [r.first for h in a.heroes for g, r in a.maps[h].first_steps() if state.exit_usable(g, h)]
        if state.theft and leaving and (not seen or leaving[0].hero != seen[-1][0]):
            step = leaving[0]
            p1, p2 = bot.seat_of(state, "p1"), bot.seat_of(state, "p2")
            seen.append((step.hero, bot._fails_mission(state, p1, step), bot._fails_mission(state, p2, step)))
        seat, move = next((x, m) for x in s.seats if (m := planner.choose(state, x)) is not None)
        s.submit(seat, move_name(move))
    assert seen == [("orange", True, False), ("green", False, True)]


def divining_state(inputs: list[tuple[str, str, int]], theft_event: int | None,
                   targets: tuple[str, ...] = ("p1", "p2", "p4"),
                   missions: tuple[str, ...] = ("master-thief", "pathfinder", "quick-hands")) -> SimpleNamespace:
    """Just what a traitor's divining reads of the game, all of it public: whom it may name,
    the missions it may name (all of them cards the game can deal), the events it saw (the theft's index) and who played what (each
    input with the number of events before it)."""
    events = [SimpleNamespace(kind="theft" if i == theft_event else "moved", index=i) for i in range(12)]
    return SimpleNamespace(divine_targets=lambda seat: list(targets), hero_missions=lambda: list(missions),
                           may_be_dealt=lambda card: card in missions,
                           events=SimpleNamespace(visible_to=lambda seat: events), inputs=inputs)


def divined(state: SimpleNamespace, scores: dict[str, float] | None = None) -> str:
    w = bot.Watch()
    for seat, score in (scores or {}).items():
        w.add(seat, "planted", score)
    me = bot.Seat("p3", "traitor", "traitor", None, 5, {})
    return move_name(bot._divine(state, me, w, random.Random(0)))  # type: ignore[arg-type]


def test_a_traitor_divines_the_thief_for_master_thief_then_a_two_tile_explorer_for_pathfinder() -> None:
    """The public record points at a hero mission: the seat whose input came last before the
    theft's event (it made the theft) for ``master-thief``, then a seat that explored two tiles
    for ``pathfinder``; else a mission for the most trusted seat (the lowest score)."""
    moves = [("p1", "move purple north 1", 2), ("p4", "explore 2.b1", 3), ("p2", "move green west 1", 5),
             ("p4", "explore 3.a2", 6), ("p1", "move purple east 1", 8)]
    assert divined(divining_state(moves, theft_event=5)) == "divine p2 master-thief"  # p2's input made event 5
    assert divined(divining_state(moves, theft_event=4)) == "divine p4 master-thief"
    assert divined(divining_state(moves, theft_event=5, missions=("pathfinder", "quick-hands"))) == "divine p4 pathfinder"
    assert divined(divining_state(moves, theft_event=5, targets=("p1", "p4"))) == "divine p4 pathfinder"  # p2 named
    assert divined(divining_state(moves, theft_event=None)) == "divine p4 pathfinder"  # no theft yet
    once = [m for m in moves if m[2] != 6]  # p4 explored one tile only
    fallback = divined(divining_state(once, theft_event=None), {"p1": 0.5, "p2": 0.2, "p4": 1.0})
    assert fallback.startswith("divine p2 ") and fallback.split()[2] in ("master-thief", "pathfinder", "quick-hands")
    assert divined(divining_state(moves, theft_event=5, targets=())) == "pass"


class Draws:
    """A stand-in for the bot's generator with its draws chosen: ``random()`` always ``p``,
    ``uniform()`` the caution, ``randrange()`` the first."""

    def __init__(self, p: float, caution: float) -> None:
        self.p, self.caution = p, caution

    def random(self) -> float:
        return self.p

    def uniform(self, low: float, high: float) -> float:
        return self.caution

    def randrange(self, n: int) -> int:
        return 0


def test_a_traitor_holding_a_flips_step_sabotages_it_more_often() -> None:
    """Scenario 1 with 20 s of sand left: the team's goal is a flip, and p4, the traitor, holds
    its step. It sabotages a flip's step on a draw under 0.8 (another step under 0.4)."""
    s = roles_game("1", ["hero", "hero", "hero", "traitor"], level=1)
    s.advance_to(s.state.scenario.timer_ms - 20_000)
    w = bot.watch_of(s.state)
    wanted = planner.choose(s.state, "p4")
    assert w.snap.phase == "flip" and w.snap.holder == "p4" and wanted is not None
    me = bot.seat_of(s.state, "p4")
    for p, sabotages in ((0.6, True), (0.85, False)):
        step = bot._traitor_step(s.state, me, w, Draws(p, THRESHOLD + 1.0))  # type: ignore[arg-type]
        assert (step != wanted) == sabotages, (p, step)


def test_during_the_divining_only_the_traitors_still_to_divine_play() -> None:
    """A level-5 bot game whose heroes escape ends in a divining; at its first position (found
    by replaying the game's transcript one move shorter until none is open) the traitor still to
    divine names a mission or passes, and every other seat has nothing to play."""
    full = play_random(MAZE, "1", 1, kind="planner", options={"players": 4, "roles": 5})
    t = tr.parse(tr.dump(full))
    k = len(full.moves)
    while tr.replayed(t.until(k - 1)).state.divining is not None:
        k -= 1
    s = tr.replayed(t.until(k))
    divining = s.state.divining
    assert divining is not None and divining.waiting(), "precondition: a divining is open"
    for seat in s.seats:
        choice = chosen(s, seat)
        if seat in divining.waiting():
            assert choice is not None and choice.split()[0] in ("divine", "pass"), choice
        else:
            assert choice is None, (seat, choice)


def test_a_hero_its_rule_blocks_stares_at_each_next_seat_in_turn_never_at_itself() -> None:
    """p1 (``needs-a-push``: no action without the pawn in front of it) holds the plan's step
    and no other step it may play: it stares ("I cannot") at the next seat; unanswered, at the
    seat after the one it stared at, going round the table past itself."""
    s = roles_game("1", ["needs-a-push", "mage-first", "barbarian-first", "mute"])
    stares = []
    for _ in range(4):
        bot.watch_of(s.state)
        move = bot._hero_step(s.state, bot.seat_of(s.state, "p1"))
        assert move is not None
        stares.append(move_name(move))
        s.submit("p1", move_name(move))
    assert stares == ["stare p2", "stare p3", "stare p4", "stare p2"]


def test_a_heros_step_that_would_fail_its_mission_gives_way_to_the_next_step_of_the_plan_it_may_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``_keeping_mission``: when the plan's step would fail the seat's pending mission, the seat
    plays the first other step of the plan whose action it holds, that it may play now and that
    does not fail the mission; with none, the step all the same (the team's heist first). The
    plan and which steps fail are stand-ins; the holding and the playing are the game's (p1
    holds vortex and west, p2 explore and south)."""
    s = roles_game("1", ["mage-first", "elf-last", "traitor", "master-thief"], level=3)
    state, me = s.state, bot.seat_of(s.state, "p1")
    moves = {move_name(m): m for m in state.legal_moves("p1") + state.legal_moves("p2")}
    wanted, failing = moves["move purple west 1"], moves["vortex yellow 1a.d1"]
    theirs, good, also_good = moves["move orange south 1"], moves["vortex green 1a.a4"], moves["move green west 1"]
    monkeypatch.setattr(bot, "_fails_mission", lambda state, me, step: step in (wanted, failing))
    plan = [wanted, theirs, failing, good, also_good]
    monkeypatch.setattr(bot.planner, "plans", lambda state: plan)
    assert bot._keeping_mission(state, me, wanted) == good
    plan[:] = [wanted, theirs, failing]  # nothing else it may play: the plan's step
    assert bot._keeping_mission(state, me, wanted) == wanted
    plan[:] = [wanted, failing, also_good]
    monkeypatch.setattr(bot, "_fails_mission", lambda state, me, step: False)  # nothing fails: the step
    assert bot._keeping_mission(state, me, wanted) == wanted


def test_a_hero_leaving_last_breaks_nothing_once_it_is_the_last_inside() -> None:
    """``hero-leaves-last`` (p2: the green hero leaves last): the step that takes green out fails
    the mission while other heroes are inside, and fails nothing once green is the last one
    (the others staged out)."""
    s = roles_game("1", ["mage-first", "elf-last", "traitor", "master-thief"], level=3)
    state = s.state
    for _ in range(400):
        a = planner.analyse(state)
        greens = [r.first for g, r in a.maps["green"].first_steps() if state.exit_usable(g, "green")] \
            if "green" in a.maps else []
        if state.theft and greens:
            break
        seat, move = next((x, m) for x in s.seats if (m := planner.choose(state, x)) is not None)
        s.submit(seat, move_name(move))
    (step,) = greens
    assert [h for h, g in state.heroes.items() if g is not None] == ["purple", "yellow", "green"]
    assert bot._fails_mission(state, bot.seat_of(state, "p2"), step)
    for hero in ("purple", "yellow"):
        state.heroes[hero] = None
        state.escaped.append(hero)
    me = bot.seat_of(state, "p2")
    assert me.view["you"]["mission"]["status"] == "pending"
    assert not bot._fails_mission(state, me, step)


@pytest.mark.parametrize("card, played", [("small-steps", "move purple west 1"), ("mage-first", "vortex green 1a.a4")])
def test_a_hero_that_may_not_play_the_plans_step_plays_one_square_of_it_or_another_step_it_holds(
        monkeypatch: pytest.MonkeyPatch, card: str, played: str) -> None:
    """``_hero_step`` when the seat may not play the plan's step: a hero whose rule allows only
    single steps (``small-steps``) moves the step's hero one square its way; any other seat
    plays the plan's first other step whose action it holds and that it may play now. The plan
    is a stand-in: a move west too long for the wall (p1 holds vortex and west), a step of
    another seat's action (p2's south), one of p1's own that the wall refuses, then p1's
    vortex."""
    s = roles_game("1", [card, "elf-last", "traitor", "master-thief"], level=3)
    state, me = s.state, bot.seat_of(s.state, "p1")
    wanted = Move("move", hero="purple", direction="W", squares=3)
    theirs, refused = Move("move", hero="orange", direction="S", squares=1), Move("move", hero="green", direction="W", squares=2)
    vortex = next(m for m in state.legal_moves("p1") if move_name(m) == "vortex green 1a.a4")
    assert not state.would_accept("p1", wanted) and not state.would_accept("p1", refused)
    monkeypatch.setattr(bot.planner, "choose", lambda state, seat: wanted)
    monkeypatch.setattr(bot.planner, "plans", lambda state: [wanted, theirs, refused, vortex])
    assert move_name(bot._hero_step(state, me)) == played


def test_the_seat_a_blocked_holder_stares_at_gives_it_the_pawn_and_no_other_seat_does() -> None:
    """p1 (``needs-a-push``) holds the plan's step but may act only with the pawn in front of
    it: its stare at p2 ("I cannot") is answered by p2 giving it the pawn; p3 and p4, who might
    give it too, were not asked. A stare by a seat that holds no step of the plan asks nothing."""
    s = roles_game("1", ["needs-a-push", "mage-first", "barbarian-first", "mute"])
    state = s.state
    bot.watch_of(state)
    s.submit("p3", "stare p2")
    bot.watch_of(state)
    assert bot._help_blocked(state, bot.seat_of(state, "p2")) is None
    s.submit("p1", "stare p2")
    bot.watch_of(state)
    answers = {x: bot._help_blocked(state, bot.seat_of(state, x)) for x in ("p2", "p3", "p4")}
    assert {x: m and move_name(m) for x, m in answers.items()} == {"p2": "pawn p1", "p3": None, "p4": None}
    assert all(state.would_accept(x, Move("pawn", seat="p1")) for x in ("p3", "p4"))  # they could have

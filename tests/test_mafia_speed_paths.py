"""Classic Mafia's quick paths answer as the plain ones they stand for, over the states of random
games of every size (the bench's value path and the words' path, with talk and leaving seats):
the roll-call's voter the state keeps (``_awaited``) and the one ``current_voter`` finds from the
votes cast are the plain search's, and a vote is checked against the kept one; every game of one
size shares one tuple of seats; the random bot's move values are made once and equal fresh ones; a bot's
function (``Rules.bot_mover``) chooses as ``bot_move`` and ``bot_input`` with the same draws, and a
``RandomBot`` asks for it once; the state keeps its attributes in slots, which the contract's
snapshot reads."""

from __future__ import annotations

import random

import pytest

from arbiter.engine import registry
from arbiter.engine.bench import play_random
from arbiter.engine.bots import RandomBot
from arbiter.engine.contract import state_fields, state_snapshot
from arbiter.engine.games.mafia import bot, sleuth
from arbiter.engine.games.mafia.data import load_talk
from arbiter.engine.games.mafia.moves import Nominate, Power, Suggest, Vote, move_name
from arbiter.engine.games.mafia.table import VOTE, Table
from arbiter.engine.session import Session

MAFIA = registry.get("mafia")
SIZES = range(6, 13)


def plain_voter(state) -> str | None:
    """``current_voter`` as the plain search: the first living voter who has not voted."""
    return next((v for v in state.voters if state.alive[v] and v not in state.votes), None)


def states(players: int, seed: int):
    """The states of one random game (every input), replayed by words, then by values with a
    seat leaving now and then (a voter gone mid-roll-call, a nomination withdrawn)."""
    whole = play_random(MAFIA, f"{players}-players", seed)
    s = Session(MAFIA, f"{players}-players", seed=seed)
    for move in whole.moves:
        yield s.state
        s.submit(move.seat, move.text, move.time_ms)
    rng = random.Random(seed)
    s = Session(MAFIA, f"{players}-players", seed=seed)
    bots = {seat: RandomBot(seat, seed) for seat in s.seats}
    while not s.over:
        yield s.state
        seat = s.state.awaited_seats()[0]
        if rng.random() < 0.03:
            s.submit(rng.choice([x for x in s.seats if s.state.alive[x]]), "leave")
        else:
            s.submit_move(seat, bots[seat].choose_move(s))


@pytest.mark.parametrize("players", SIZES)
def test_the_kept_and_the_found_voter_are_the_plain_search(players):
    called = 0
    for seed in (1, 2, 3):
        for state in states(players, seed):
            if state._awaited is not None:
                assert list(state._awaited) == state._awaited_now()
            if state.phase == VOTE:
                assert state.current_voter() == plain_voter(state)
                called += 1
    assert called > 30


def test_a_vote_is_checked_against_the_voter_the_state_keeps(monkeypatch):
    """Checking a vote does not search the roll-call again: the voter called is kept (only
    finding the next one, once the vote is cast, searches)."""
    s = Session(MAFIA, "6-players", seed=4)
    for seat in s.seats:
        s.submit(seat, "pass" if seat != "p1" else "nominate p2")
    state = s.state
    assert state.phase == VOTE and state._awaited == ("p1",)
    monkeypatch.setattr(Table, "current_voter", lambda self: pytest.fail("the roll-call was searched"))
    state._plan_vote("p1", "p2")  # the check alone: nothing is applied
    with pytest.raises(Exception, match="p1 votes now, not p3"):
        state._plan_vote("p3", "p2")


def test_games_of_one_size_share_their_seats():
    for players in SIZES:
        a, b = (Session(MAFIA, f"{players}-players", seed=seed).state.seats for seed in (1, 2))
        assert a is b and a == tuple(f"p{i}" for i in range(1, players + 1))


def test_the_bots_move_values_are_made_once_and_equal_fresh_ones():
    """A value chosen twice is the one object; it is equal to a fresh one (frozen: nothing tells
    them apart but their identity)."""
    seen: dict[object, object] = {}
    for players in (6, 9, 12):
        for seed in (1, 2):
            for move in (m for m in _bot_moves(players, seed) if isinstance(m, (Nominate, Vote, Suggest, Power))):
                fresh = type(move)(*vars(move).values())
                assert move == fresh and hash(move) == hash(fresh) and repr(move) == repr(fresh)
                assert seen.setdefault(fresh, move) is move
    assert {type(m) for m in seen} == {Nominate, Vote, Suggest, Power}


def _bot_moves(players: int, seed: int):
    s = Session(MAFIA, f"{players}-players", seed=seed)
    bots = {seat: RandomBot(seat, seed) for seat in s.seats}
    while not s.over:
        seat = s.state.awaited_seats()[0]
        move = bots[seat].choose_move(s)
        yield move
        s.submit_move(seat, move)


@pytest.mark.parametrize("kind", MAFIA.bot_kinds)
def test_a_bots_function_chooses_as_the_bot_with_the_same_draws(kind):
    """``bot_mover(kind)`` is the bot's own function (``bot.choose`` with the packaged talk, or
    ``sleuth.choose``); ``bot_move`` and ``bot_input`` choose through it."""
    plain = sleuth.choose if kind == "sleuth" else lambda state, seat, rng: bot.choose(state, seat, rng, load_talk())
    compared = 0
    for players in (6, 8, 12):
        s = Session(MAFIA, f"{players}-players", seed=players)
        mover = MAFIA.bot_mover(kind)
        while not s.over:
            for seat in s.seats:
                a, b, c, d = (random.Random(seat) for _ in range(4))
                move = plain(s.state, seat, a)
                assert mover(s.state, seat, b) == move == MAFIA.bot_move(kind, s.state, seat, c)
                assert MAFIA.bot_input(kind, s.state, seat, d) == (None if move is None else move_name(move))
                assert a.getstate() == b.getstate() == c.getstate() == d.getstate()
                compared += 1
            seat = s.state.awaited_seats()[0]
            s.submit_move(seat, mover(s.state, seat, random.Random(compared)))
    assert compared > 200


def test_a_random_bot_asks_the_rules_for_its_function_once(monkeypatch):
    asked = []
    real = type(MAFIA).bot_mover
    monkeypatch.setattr(type(MAFIA), "bot_mover", lambda self, kind: asked.append(kind) or real(self, kind))
    s = Session(MAFIA, "8-players", seed=3)
    bots = {seat: RandomBot(seat, 3) for seat in s.seats}
    while not s.over:
        seat = s.state.awaited_seats()[0]
        s.submit_move(seat, bots[seat].choose_move(s))
    assert asked == ["random"] * 8  # one bot per seat, each once for the whole game
    asked.clear()
    bench = play_random(MAFIA, "8-players", 3)  # the bench asks once a game, for every seat's bot
    assert asked == ["random"] and bench.entries == s.entries


def test_the_state_keeps_its_attributes_in_slots():
    """Every attribute of the state is a slot (``Table.__slots__``): its dict holds nothing but
    the bots' memos, at every moment of a game (a new attribute must join the slots)."""
    for kind in MAFIA.bot_kinds:
        s = Session(MAFIA, "9-players", seed=5)
        bots = {seat: RandomBot(seat, 5, kind) for seat in s.seats}
        assert vars(s.state) == {}
        while not s.over:
            seat = s.state.awaited_seats()[0]
            s.submit_move(seat, bots[seat].choose_move(s))
            assert set(vars(s.state)) <= set(s.state.bot_memos)


def test_the_contracts_snapshot_sees_every_slot():
    """What the contract compares before and after a refused input (``state_snapshot``) holds
    the slots' values: a change to any of them shows."""
    s = Session(MAFIA, "7-players", seed=2)
    before = state_snapshot(s)
    fields = state_fields(s.state)
    assert {"alive", "phase", "votes", "_awaited", "events"} <= set(fields) and fields["alive"] is s.state.alive
    s.state.alive["p3"] = False
    assert state_snapshot(s) != before
    s.state.alive["p3"] = True
    assert state_snapshot(s) == before
    s.state.phase = "vote"
    assert state_snapshot(s) != before


def test_the_actions_not_sent_to_the_timing_check_are_never_refused_by_it():
    """``apply`` sends only the actions of ``_TIMED`` to ``_check_timing``: at every moment of
    random games, for every seat, the check passes every other action without a word (were a
    check added for one, this fails until it joins ``_TIMED``)."""
    from arbiter.engine.games.mafia.moves import VERBS
    from arbiter.engine.games.mafia.state import _TIMED

    untimed = [v for v in VERBS if v not in _TIMED]
    assert set(untimed) == {"say", "pass", "abstain", "leave"}
    checked = 0
    for players in (6, 9, 12):
        for state in states(players, 2):
            for seat in state.seats:
                for verb in untimed:
                    assert state._check_timing(seat, verb) is None
                    checked += 1
    assert checked > 1000


def plain_holders(state, step) -> list[str]:
    return [s for s in state.seats if state.alive[s] and state.card[s] in step.cards]


def plain_head(state, step) -> str | None:
    """``step_head`` as the plain search over every seat (the rules' words)."""
    holders = plain_holders(state, step)
    free = [s for s in holders if s != state.jailed]
    return next((s for s in free if state.card[s] == step.cards[0]), free[0] if free else
                (holders[0] if holders else None))


@pytest.mark.parametrize("players", SIZES)
def test_the_step_holders_the_deal_keeps_are_the_plain_search(players):
    """``step_holders`` and a step's head read the holders the deal keeps (``_holders``), not
    every seat: the same seats as the plain search, at every moment, for every step."""
    nights = 0
    for seed in (1, 2, 3):
        for state in states(players, seed):
            for step in state.data.night:
                assert state.step_holders(step) == plain_holders(state, step)
                assert state._head_of(step) == plain_head(state, step)
            nights += state.step() is not None
    assert nights > 10

"""The Classic Mafia random bot's short cuts for the nominations and the roll-call
(``bot._nominate``, ``bot._vote``) choose what the bot chose from its full list of legal moves
(kept here as ``reference_choose``, the bot as it was), drawing the same numbers: over random
games of every size, with talk and leaving seats, both are asked at every input and agree on
the move and on the generator's state after it."""

from __future__ import annotations

import random

import pytest

from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.bot import ABSTAIN_CHANCE, NOMINATE_CHANCE, TALK_CHANCE, _choose_any, _pick, _talk, choose
from arbiter.engine.games.mafia.moves import Abstain, Leave, Move, Pass, Vote, move_name
from arbiter.engine.games.mafia.rules import MafiaRules
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT, NOMINATE, VOTE
from arbiter.engine.session import Session


def reference_choose(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move | None:
    """The bot's ``choose`` in the nominations and a roll-call with candidates as it was before
    its short cuts: from the full list of legal moves (elsewhere it is the bot's own code)."""
    if seat not in state.awaited_seats():
        return None
    if not (state.phase == NOMINATE or (state.phase == VOTE and state.candidates)):
        return _choose_any(state, seat, rng, talk)
    acts = [m for m in state.legal_moves(seat) if not isinstance(m, Leave)]
    if not acts:
        return None
    if "say TEXT" in state.input_forms(seat) and state.said.get(seat, 0) == 0 and rng.random() < TALK_CHANCE:
        line = _talk(state, seat, rng, talk["day"])
        if line is not None:
            return line
    by_verb: dict[str, list[Move]] = {}
    for m in acts:
        by_verb.setdefault(m.verb, []).append(m)
    if state.phase == NOMINATE:
        if "nominate" in by_verb and rng.random() < NOMINATE_CHANCE:
            return _pick(by_verb["nominate"], rng)
        return Pass()
    others = [m for m in by_verb.get("vote", []) if m != Vote(seat)]
    if rng.random() < ABSTAIN_CHANCE or not others:
        return Abstain()
    return _pick(others, rng)


@pytest.mark.parametrize("players", range(6, 13))
def test_the_short_cuts_choose_as_the_full_listing(players):
    rules, talk = MafiaRules(), md.load_talk()
    asked = {"nominate": 0, "vote": 0, "night": 0}
    for seed in range(12):
        session = Session(rules, f"{players}-players", seed=seed)
        state = session.state
        assert isinstance(state, MafiaState)
        driver = random.Random(seed)
        while not session.over:
            for seat in state.seats:  # every seat, awaited or not, alive or out
                draw = driver.getrandbits(32)
                a, b = random.Random(draw), random.Random(draw)
                assert choose(state, seat, a, talk) == reference_choose(state, seat, b, talk)
                assert a.getstate() == b.getstate()
            awaited = state.awaited_seats()
            seat = awaited[driver.randrange(len(awaited))]
            asked["night" if state.phase == NIGHT else state.phase] += 1
            if driver.random() < 0.01:
                session.submit(seat, "leave")
                continue
            move = choose(state, seat, random.Random(driver.getrandbits(32)), talk)
            assert move is not None
            session.submit(seat, move_name(move))
    assert all(asked.values()), asked

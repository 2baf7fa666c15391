"""The Classic Mafia random bot's short cuts for the nominations, the roll-call and the night
(``bot._nominate``, ``bot._vote``, ``bot._night``) choose what the bot chose from its full list
of legal moves (kept here as ``reference_choose`` and ``reference_any``, the bot as it was),
drawing the same numbers: over random
games of every size, with talk and leaving seats, both are asked at every input and agree on
the move and on the generator's state after it."""

from __future__ import annotations

import random

import pytest

from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.bot import (
    ABSTAIN_CHANCE, DECLINE_CHANCE, FIGHTER_KILL_CHANCE, FOLLOW_CHANCE, NOMINATE_CHANCE, TALK_CHANCE, _pick, _talk, choose,
)
from arbiter.engine.games.mafia.moves import Abstain, Leave, Move, Pass, Power, Vote, move_name
from arbiter.engine.games.mafia.rules import MafiaRules
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT, NOMINATE, VOTE
from arbiter.engine.session import Session


def reference_any(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move | None:
    """The bot's choice outside the nominations and a roll-call with candidates as it was
    before its night short cut: from the full list of legal moves (the oracle ``_night`` and
    the bot's last fallback are compared with)."""
    acts = [m for m in state.legal_moves(seat) if not isinstance(m, Leave)]
    if not acts:
        return None
    if "say TEXT" in state.input_forms(seat) and state.said.get(seat, 0) == 0 and rng.random() < TALK_CHANCE:
        line = _talk(state, seat, rng, talk["night" if state.phase == NIGHT else "day"])
        if line is not None:
            return line
    by_verb: dict[str, list[Move]] = {}
    for m in acts:
        by_verb.setdefault(m.verb, []).append(m)
    step = state.step()
    if step is not None and step.team and "suggest" not in by_verb:
        wanted = [Power(verb, t) for t in state.suggestions.values() if t for verb in ("kill", "shoot")]
        followed = [m for m in acts if m in wanted]
        if followed and rng.random() < FOLLOW_CHANCE:
            return _pick(followed, rng)
    if step is not None and step.optional and seat == state.step_head(step) and Pass() in acts and len(acts) > 1:
        if step.name == "fighter":
            return Pass() if rng.random() >= FIGHTER_KILL_CHANCE else _pick([m for m in acts if m != Pass()], rng)
        if rng.random() < DECLINE_CHANCE:
            return Pass()
        del by_verb["pass"]
    verbs = sorted(by_verb)
    return _pick(by_verb[_pick(verbs, rng)], rng)


def reference_choose(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move | None:
    """The bot's ``choose`` in the nominations and a roll-call with candidates as it was before
    its short cuts: from the full list of legal moves (elsewhere it is the bot's own code)."""
    if seat not in state.awaited_seats():
        return None
    if not (state.phase == NOMINATE or (state.phase == VOTE and state.candidates)):
        return reference_any(state, seat, rng, talk)
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

"""Classic Mafia's value path (``Session.submit_move`` -> ``MafiaState.apply_move``, what the
bench's bots use) accepts and refuses exactly what the text path (``Session.submit`` of the
value's words, ``move_name``) does: over random games of every size, at random moments, every
seat (awaited or not, in or out) tries every legal move of any seat and values that are wrong
in every way the words can be (seats out of the game or not at the table, a target in capitals,
an unknown power, talk that is empty, spaced or too long, fields of the wrong type) and words
themselves (a ``str``, read as words), each on two copies of the game. Both
paths must raise the same error (kind, message and listed forms) and leave the game as it was,
or accept it with the same recorded move, the same events and the same state after."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arbiter.engine.contract import state_fields, state_snapshot, trial_copies
from arbiter.engine.errors import ArbiterError
from arbiter.engine.games.mafia.moves import (
    POWER_VERBS, Abstain, Leave, Nominate, Pass, Power, Say, Suggest, Vote, move_name, well_formed,
)
from arbiter.engine.games.mafia.rules import MafiaRules
from arbiter.engine.session import Session

RULES = MafiaRules()


def _candidates(session: Session, rng: random.Random) -> list[tuple[str, object]]:
    """Pairs of a seat and a value to try: some of the legal moves, by their seat, and values
    of every kind by any seat."""
    state = session.state
    seats = list(state.seats)
    legal = [(s, m) for s in seats for m in state.legal_moves(s)]
    out: list[object] = []
    say_max = state.data.selection.say_max_chars or 200
    targets = seats + ["P2", "p99", "", "p1 p2"]
    for target in targets:
        out += [Nominate(target), Vote(target), Suggest(target)]
        out += [Power(verb, target) for verb in (*POWER_VERBS, "fly", "KILL")]
    out += [Pass(), Abstain(), Leave(), Say("hello p2"), Say("Hi"), Say("hi  there"), Say(" hi"), Say(""),
            Say("x" * say_max), Say("x" * (say_max + 1)), Say("a\tb"), Say("kill p2"), Say(3), Say(None),  # type: ignore[arg-type]
            Nominate(None), Vote(2), Power(None, "p2"), Power("kill", None),  # type: ignore[arg-type]
            "pass", "nominate p2", "KILL  P2", "vote", "", "say hi  there"]  # words, read as words
    return rng.sample(legal, min(len(legal), 4)) + [(rng.choice(seats), m) for m in rng.sample(out, 12)]


def _facts(session: Session) -> tuple:
    """The game as it stands: every attribute of the state (its event log as its events'
    fields), the session's entries, moves and clock."""
    state = {k: v for k, v in state_fields(session.state).items() if k != "events"}
    events = [(e.index, e.kind, e.text, e.data, e.to) for e in session.events]
    return state, events, session.entries, [m.as_entry() | {"public": m.public} for m in session.moves], session.clock_ms


def _copies(session: Session) -> tuple[Callable[[], Session], bytes]:
    """Copies of the game, each the copy ``contract._copy(session)`` makes, read from one
    pickle of it (``contract.trial_copies``: the session is not changed while its copies are
    tried, only the copies are submitted to, so all copies are alike), and their
    ``state_snapshot`` (taken of a copy of its own)."""
    copy = trial_copies(session)
    return copy, state_snapshot(copy())


def _outcome(copy: Callable[[], Session], before: bytes, seat: str, move: object, by_value: bool):
    """What ``move`` of ``seat`` does to a copy of the game (``_copies``), by value or words."""
    trial = copy()
    try:
        words = move if isinstance(move, str) else move_name(move)  # type: ignore[arg-type]
        events = trial.submit_move(seat, move) if by_value else trial.submit(seat, words)
    except ArbiterError as exc:
        assert state_snapshot(trial) == before
        return ("refused", type(exc), exc.message, exc.allowed)
    return ("accepted", [(e.index, e.kind, e.text, e.data, e.to) for e in events], _facts(trial))


@pytest.mark.parametrize("players", range(6, 13))
def test_the_value_path_accepts_and_refuses_as_the_words(players):
    counts = {"accepted": 0, "refused": 0, "well-formed refused": 0, "malformed": 0}
    for seed in range(2):
        rng = random.Random(f"{players}:{seed}")
        session = Session(RULES, f"{players}-players", seed=seed)
        steps = 0
        while not session.over:
            if steps % 6 == 0:
                copy, before = _copies(session)
                for seat, move in _candidates(session, rng):
                    by_text = _outcome(copy, before, seat, move, by_value=False)
                    assert _outcome(copy, before, seat, move, by_value=True) == by_text, (seat, move)
                    counts[by_text[0]] += 1
                    if not well_formed(move, session.seats, session.state.data.selection.say_max_chars):
                        counts["malformed"] += 1
                    elif by_text[0] == "refused":
                        counts["well-formed refused"] += 1
            steps += 1
            seat = session.state.awaited_seats()[0]
            move = RULES.bot_move("random", session.state, seat, rng)
            session.submit_move(seat, move)
    assert all(counts.values()), counts


@pytest.mark.parametrize("move", [Say("a\x00b"), Say("a\nb"), Say("a\u2028b"), Say("a\ud800"), Say("x\x1b[2J"),
                                  "say a\x00b", "say a\nb", "say \udcff", Say("a\u200db")])
def test_talk_that_is_no_line_is_refused_by_value_as_by_words(move):
    """A ``Say`` of a control character or a lone surrogate was accepted by value
    (``well_formed`` checked its spaces, not its characters), and so were such words given to
    ``submit_move`` as a ``str``, though ``submit`` refused them: the game recorded a line
    that no transcript can hold or replay. A joiner in an emoji (not a control) is talk."""
    session = Session(RULES, "6-players", seed=0)
    copy, before = _copies(session)
    seat = session.state.awaited_seats()[0]
    by_text = _outcome(copy, before, seat, move, by_value=False)
    assert _outcome(copy, before, seat, move, by_value=True) == by_text
    assert by_text[0] == ("accepted" if move == Say("a\u200db") else "refused")


def test_bench_games_by_value_are_the_games_by_words():
    """``play_random`` (values) plays the very games the bots' words play."""
    from arbiter.engine.bench import play_random
    from arbiter.engine.bots import RandomBot

    for players, seed in [(6, 1), (8, 2), (12, 3)]:
        fast = play_random(RULES, f"{players}-players", seed)
        slow = Session(RULES, f"{players}-players", seed=seed)
        bots = {s: RandomBot(s, seed) for s in slow.seats}
        while not slow.over:
            seat = slow.state.awaited_seats()[0]
            slow.submit(seat, bots[seat].choose(slow))
        assert fast.entries == slow.entries and fast.events.digest() == slow.events.digest()

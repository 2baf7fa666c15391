"""Classic Mafia says who is awaited without writing the hints (``awaited_seats``, asked at
every input): over the states of random games of every size, it names the seats ``awaiting``
names, and ``awaiting`` is what it was before (written here as it was)."""

from __future__ import annotations

import pytest

from arbiter.engine import registry
from arbiter.engine.bench import play_random
from arbiter.engine.game import Awaiting
from arbiter.engine.games.mafia.table import NOMINATE, VOTE
from arbiter.engine.session import Session

MAFIA = registry.get("mafia")


def awaiting_as_before(state) -> list[Awaiting]:
    """``MafiaState.awaiting`` as it was written before ``awaited_seats``."""
    if state.result is not None:
        return []
    if state.phase == NOMINATE:
        return [Awaiting(s, "nominate", f"day {state.day}: nominate a player or pass; say TEXT to talk")
                for s in state.living() if s not in state.done_nominating]
    if state.phase == VOTE:
        voter = state.current_voter()
        if voter is None:
            return []
        names = " ".join(state.candidates)
        return [Awaiting(voter, "vote", f"day {state.day}, round {state.round}: vote for {names}, or abstain")]
    step = state.step()
    if step is None:
        return []
    head = state.step_head(step)
    out = [Awaiting(s, "confer", f"night {state.night}: suggest a target to {head}, or pass")
           for s in state.conferring(step)]
    if not out and head is not None:
        out.append(Awaiting(head, "night", f"night {state.night}: {state._power_hint(step, head)}"))
    return out


@pytest.mark.parametrize("variant", [v.name for v in MAFIA.variants()])
def test_awaited_seats_and_awaiting_answer_as_before(variant):
    checked = 0
    for seed in range(1, 7):
        whole = play_random(MAFIA, variant, seed)
        s = Session(MAFIA, variant, seed=seed)
        for move in whole.moves:
            state = s.state
            assert state.awaiting() == awaiting_as_before(state)
            assert state.awaited_seats() == [a.seat for a in awaiting_as_before(state)]
            checked += 1
            s.submit(move.seat, move.text, move.time_ms)
        assert s.state.awaiting() == [] and s.state.awaited_seats() == []
    assert checked > 200

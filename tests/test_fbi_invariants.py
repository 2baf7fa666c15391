"""Invariants of FBI vs Mafia that hold after every input of any game.

Hypothesis chooses the game (mode, seed) and every input, from the seat's legal inputs, so it
explores far stranger games than the random bot (long masquerade runs, deck rebuilds, token
pile-ups), and shrinks a failure to a short sequence of choices.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine.games.fbi_mafia.board import ALIVE, ARRESTED, DEAD
from arbiter.engine.games.fbi_mafia.state import FbiMafiaState
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")
MODES = ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]


def check_invariants(state: FbiMafiaState, before: tuple[int, int]) -> None:
    names = state.suspects
    # The board holds every suspect exactly once, and pos agrees with it.
    on_board = [n for row in state.grid for n in row]
    assert sorted(on_board) == sorted(names)
    for n in names:
        r, c = state.pos[n]
        assert state.grid[r][c] == n
    # Cards: no card is in two of deck / identities / hand / inspection at once.
    places = list(state.deck) + list(state.identity.values()) + list(state.hand) + list(state.inspecting)
    assert not [n for n, k in Counter(places).items() if k > 1], "a card is in two places"
    # Identities: one per character, distinct, living while the game goes on.
    assert set(state.identity) == set(state.characters)
    if state.result is None:
        assert all(state.status[n] == ALIVE for n in state.identity.values())
    # Tokens sit only on living suspects (but for the card the Bomber is asked to detonate
    # after its arrest: its tokens go only once the Bomber has answered); at most 6 protection
    # tokens; known kinds only.
    asked = state.prompt.suspect if state.prompt is not None and state.prompt.kind == "detonate" else None
    for n in names:
        assert state.tokens[n] <= {"protection", "bomb", "threat"}
        if state.status[n] != ALIVE and n != asked:
            assert not state.tokens[n], f"{n} is {state.status[n]} but carries {state.tokens[n]}"
    assert sum("protection" in state.tokens[n] for n in names) <= state.limits.protection_tokens
    # Scores: arrests count arrested cards exactly; kills count each dead card once or twice.
    statuses = Counter(state.status.values())
    assert state.arrests == statuses[ARRESTED]
    assert statuses[DEAD] <= state.kills <= 2 * statuses[DEAD]
    assert state.arrests >= before[0] and state.kills >= before[1]
    assert set(state.cleared) <= set(state.hand)
    # Liveness: a game in progress awaits exactly one seat, which has a move besides surrender.
    if state.result is None:
        awaited = state.awaiting()
        assert len(awaited) == 1
        assert [m for m in state.legal_inputs(awaited[0].seat) if m != "surrender"]
        assert state.arrests < state.mode.win_arrests and state.kills < state.mode.win_kills
    else:
        r = state.result
        assert (r.reason == "arrests") == (state.arrests >= state.mode.win_arrests)
        assert r.reason == "surrender" or state.arrests >= state.mode.win_arrests or state.kills >= state.mode.win_kills
        assert state.awaiting() == []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**31 - 1),
    choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=300),
    prefer_verb=st.sampled_from([None, "masquerade", "inspect", "plant", "protect", "kill", "swap"]),
)
@example(mode="standard-3v3", seed=306, choices=[0, 0, 0, 0, 0, 524289, 0, 31, 240, 0, 0, 0, 0, 0, 0, 100],
         prefer_verb=None)  # an arrest of a bombed card: the Bomber is asked before its tokens go
def test_invariants_hold_after_every_input(mode, seed, choices, prefer_verb):
    session = Session(FBI, mode, seed=seed)
    state = session.state
    assert isinstance(state, FbiMafiaState)
    check_invariants(state, (0, 0))
    for pick in choices:
        if session.over:
            break
        seat = state.awaiting()[0].seat
        legal = [m for m in state.legal_inputs(seat) if m != "surrender"]
        preferred = [m for m in legal if prefer_verb and m.startswith(prefer_verb)]
        pool = preferred if preferred and pick % 3 else legal
        before = (state.arrests, state.kills)
        session.submit(seat, pool[pick % len(pool)])
        check_invariants(state, before)


def test_the_invariant_check_catches_a_broken_state():
    session = Session(FBI, "standard-3v3", seed=1)
    state = session.state
    victim = state.grid[0][0]
    state.status[victim] = DEAD
    state.tokens[victim].add("bomb")
    try:
        check_invariants(state, (0, 0))
    except AssertionError:
        return
    raise AssertionError("a dead card carrying a bomb passed the invariant check")

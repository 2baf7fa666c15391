"""The FBI vs Mafia rules, one focused test per rule: winning and surrendering.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md; how positions are staged (every
input under test through ``Session.submit``): ``tests/fbi_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import GameOverError, NotYourTurnError

from tests.helpers import fbi_game, kinds, names, refused, since
from tests.fbi_staging import advance_to, do, game, kill_results, put, seat, status, tok


# =============================================================================== winning


@pytest.mark.parametrize("mode,arrests,kills", [
    ("standard-3v3", 4, 18), ("duel-3v3", 4, 18), ("standard-4v4", 5, 22), ("duel-4v4", 5, 22)])
def test_thresholds_per_mode(mode, arrests, kills):
    score = fbi_game(mode).state.score()
    assert (score["arrests_to_win"], score["kills_to_win"]) == (arrests, kills)


def default_at(mode: str, cell: str) -> str:
    """The suspect on ``cell`` in the default layout of ``mode``."""
    size = 7 if mode.endswith("4v4") else 6
    return names(mode)[(int(cell[1:]) - 1) * size + ord(cell[0]) - ord("a")]


@pytest.mark.parametrize("mode,preset,ends", [
    ("standard-3v3", 2, False), ("standard-3v3", 3, True), ("duel-3v3", 3, True),
    ("standard-4v4", 3, False), ("standard-4v4", 4, True), ("duel-4v4", 4, True)])
def test_arrest_threshold_ends_the_game_at_once(mode, preset, ends):
    # The Undercover on b1 arrests the Bandit on c2.
    s = game(mode, undercover="Boris", bandit=default_at(mode, "c2"))
    s.state.arrests = preset
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    st = s.state
    assert st.arrests == preset + 1
    if ends:
        assert (st.result.winner, st.result.reason) == ("fbi", "arrests")
        assert st.awaiting() == [] and st.legal_inputs(seat(s, "maniac")) == []
        with pytest.raises(GameOverError):
            do(s, "maniac", "shift row 1 right")
    else:
        assert st.result is None and st.actor == "maniac"


@pytest.mark.parametrize("mode", ["standard-3v3", "duel-3v3", "standard-4v4", "duel-4v4"])
def test_kill_threshold_ends_the_game_in_the_middle_of_a_chain(mode):
    # Real play: bombs on every card of rows 1-4 (24 or 28 citizens); one detonation chains
    # through all of them, but the game must stop at exactly the kill threshold.
    size = 7 if mode.endswith("4v4") else 6
    pool = names(mode)
    spare = pool[4 * size:]  # rows 5+ hold the identities
    chars = ["bandit", "undercover", "maniac", "detective", "bomber", "operative", "sniper", "criminalist"]
    ids = dict(zip(chars[: 6 if size == 6 else 8], spare))
    s = game(mode, **ids)
    for n in pool[: 4 * size]:
        s.state.tokens[n].add("bomb")
    advance_to(s, "bomber")
    start = len(s.events)
    do(s, "bomber", "detonate a1")
    st = s.state
    target = st.mode.win_kills
    assert st.kills == target
    assert (st.result.winner, st.result.reason) == ("mafia", "kills")
    assert len(kill_results(since(s, start))) == target
    assert sum(st.status[n] == "dead" for n in pool) == target
    still = [n for n in pool[: 4 * size] if st.status[n] == "alive"]
    assert len(still) == 4 * size - target and all("bomb" in st.tokens[n] for n in still)


def test_arrest_threshold_ends_the_game_in_the_middle_of_a_chain():
    # Chain a1 (citizen) -> b2 (the Bandit: friendly fire, FBI's 4th arrest) -> c3 (citizen).
    s = game(bomber="Cyril", bandit="Hugo")
    put(s, "bomb", "a1", "b2", "c3")
    s.state.arrests = 3
    advance_to(s, "bomber")
    do(s, "bomber", "detonate a1")
    st = s.state
    assert (st.result.winner, st.result.reason) == ("fbi", "arrests")
    assert (st.arrests, st.kills) == (4, 1)
    assert status(s, "c3") == "alive" and tok(s, "c3") == {"bomb"}


def test_fbi_identity_bonus_can_cross_the_kill_threshold():
    s = game(bandit="Olga", detective="Vera")
    s.state.kills = 16
    do(s, "bandit", "kill d4")
    st = s.state
    assert st.kills == 18 and (st.result.winner, st.result.reason) == ("mafia", "kills")
    assert st.identity["detective"] == "Vera"  # the game ended before any redraw


# =============================================================================== surrender


def test_any_standard_seat_may_surrender_out_of_turn_for_its_whole_team():
    s = game()
    assert s.state.legal_inputs("detective") == ["surrender"]
    start = len(s.events)
    do(s, "detective", "surrender")  # the Bandit is to act
    r = s.state.result
    assert (r.winner, r.reason) == ("mafia", "surrender")
    assert set(r.winners) == {"bandit", "maniac", "bomber"}
    assert "surrender" in kinds(since(s, start))
    with pytest.raises(GameOverError):
        do(s, "bandit", "kill b2")


def test_surrender_during_an_interrupt():
    s = game(bandit="Olga", operative="Mara")
    put(s, "protection", "d3")
    do(s, "bandit", "kill d3")
    assert s.state.awaiting()[0].kind == "protect"
    do(s, "bomber", "surrender")
    assert (s.state.result.winner, s.state.result.reason) == ("fbi", "surrender")
    assert status(s, "d3") == "alive"


def test_duel_seats_act_for_whichever_character_is_up_and_may_surrender():
    s = game("duel-3v3", bandit="Ada", undercover="Hugo")
    assert s.seats == ("mafia", "fbi")
    refused(s, "fbi", "arrest a1", NotYourTurnError)
    s.submit("mafia", "shift row 6 right")  # the Bandit
    assert s.state.actor == "undercover" and s.state.awaiting()[0].seat == "fbi"
    refused(s, "mafia", "shift row 6 right", NotYourTurnError)
    s.submit("fbi", "arrest a1")  # the Undercover arrests the Bandit
    assert s.state.arrests == 1
    s.submit("fbi", "surrender")  # out of turn: the Maniac is up
    r = s.state.result
    assert (r.winner, r.reason, r.winners) == ("mafia", "surrender", ("mafia",))

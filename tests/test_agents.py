"""In-process bots (``engine.agents``): a Python class plays a seat from its observation and
its legal inputs; its failures are forfeits like a program's; its observation holds only what
its seat may see."""

from __future__ import annotations

import pytest

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.agents import AgentBot, news, observation
from arbiter.engine.bench import play_random
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.agents_for_tests import Last
from tests.helpers import responses, run


def test_a_python_class_plays_a_seat_from_the_command_line(tmp_path) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 2, "--bot", "mafia=py:tests.agents_for_tests:Last",
            "--bot", "fbi=random", "--transcript", t)
    assert r.exit_code == 0, r.output
    assert any(x[0].startswith("= mafia ") for x in responses(r.output))
    assert run("replay", t).exit_code == 0
    # the class itself played: each of mafia's moves is the last input it was offered (Last)
    record = tr.read(t)
    s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    mafia = 0
    for move in tr.replayed(record).moves:
        if move.seat == "mafia":
            assert move.text == s.choices("mafia").legal[-1]
            mafia += 1
        s.submit(move.seat, move.text, move.time_ms)
    assert mafia > 3


def test_an_agent_that_raises_forfeits_with_the_reason() -> None:
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 2, "--bot", "mafia=py:tests.agents_for_tests:Broken",
            "--bot", "fbi=random")
    assert r.exit_code == 0, r.output
    assert "forfeit: mafia: the agent tests.agents_for_tests:Broken raised ValueError: it fell over" in r.output


def test_a_missing_agent_is_a_clear_error() -> None:
    r = run("play", "fbi-mafia", "--bots", "random", "--bot", "bandit=py:tests.agents_for_tests:Nobody")
    assert r.exit_code == 2 and "cannot make the agent: AttributeError" in r.output, r.output


def test_an_agent_is_told_the_game_and_sees_only_its_seats_stream() -> None:
    session = Session(registry.get("mafia"), "8-players", seed=3)
    agents = {s: Last() for s in session.seats}
    bots = {s: AgentBot(s, a) for s, a in agents.items()}
    for _ in Match(Protocol(session), bots, None, max_moves=60).run():
        pass
    for seat, agent in agents.items():
        assert agent.info == {"game": "mafia", "variant": "8-players", "seat": seat, "seed": 3,
                              "seats": list(session.seats)}
        told = [line for text in agent.seen for line in text.splitlines() if line.startswith("event: ")]
        stream = [f"event: {e.text}" for e in session.events.visible_to(seat)]
        assert told == stream[:len(told)], seat  # exactly its own stream, in order, nothing else
    assert tr.replay(tr.parse(tr.dump(session))).ok


def test_observation_is_the_news_since_last_time() -> None:
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    first, seen = observation(session, "fbi")
    assert first.splitlines()[-1].startswith("awaiting: mafia action")
    session.submit("mafia", "shift row 1 left")
    news, seen2 = observation(session, "fbi", seen)
    assert news.splitlines()[0] == "event: The bandit shifts: shift row 1 left." and seen2 > seen


@pytest.mark.parametrize("game,variant", [("fbi-mafia", "duel-3v3"), ("mafia", "8-players")])
def test_news_is_the_observation_counted_along_the_log(game: str, variant: str) -> None:
    """``news`` (the game's log index) tells each seat what ``observation`` (its stream's index)
    tells it, at every input of a whole game, each event once."""
    whole = play_random(registry.get(game), variant, 5)
    session = Session(registry.get(game), variant, seed=5)
    at = {s: (0, 0) for s in session.seats}
    told = {s: [] for s in session.seats}
    for move in [*whole.moves, None]:
        for seat in session.seats:
            start, since = at[seat]
            text, start = observation(session, seat, start)
            same, since = news(session, seat, since)
            assert same == text and since == len(session.events), (seat, len(session.moves))
            at[seat] = (start, since)
            told[seat] += [line for line in text.splitlines() if line.startswith("event: ")]
        if move is not None:
            session.submit(move.seat, move.text, move.time_ms)
    assert session.over
    for seat in session.seats:
        assert told[seat] == [f"event: {e.text}" for e in session.events.visible_to(seat)]

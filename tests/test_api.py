"""The Python API (``engine.api``, ``docs/api.md``): the guide's examples run as written, a
seat's observation holds nothing that seat may not know (twin games), and the outcomes and the
multi-agent loop (``agent_iter``, ``play_agents``) hold at their edges."""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import pytest

from arbiter.engine.api import Game, load_game, new_game, play_agents
from arbiter.engine.errors import UnknownSeatError
from tests.agents_for_tests import Idle
from tests.helpers import mafia_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_guide_runs_as_written() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 25 and result.failed == 0, result


def test_observations_are_the_same_in_twin_games_until_a_card_shows() -> None:
    """p2 (Mafia) and p7 (Civilian) swap cards; p6, a Civilian, is observed through the first
    day, where nothing reveals either card: its observations are identical."""
    cards = ["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"]
    twin = list(cards)
    twin[1], twin[6] = twin[6], twin[1]
    a, b = Game(mafia_game(cards)), Game(mafia_game(twin))
    assert a.observation("p6") == b.observation("p6")
    for seat in a.seats:
        if seat in a.awaiting():
            a.play(seat, "pass")
            b.play(seat, "pass")
            assert a.observation("p6") == b.observation("p6")
            assert a.choices("p6") == b.choices("p6")


def test_a_realtime_game_is_played_to_its_end_through_agent_iter() -> None:
    game = new_game("magic-maze", "1", players=2, seed=3)
    asked = 0
    for seat, seen, choices in game.agent_iter():
        asked += 1
        game.step(seat, None)  # agents that never act: time passes to the sand's end
    assert game.over and game.result.reason == "time" and asked == 2
    assert game.returns() == {"p1": 0, "p2": 0}


def test_a_game_loads_from_a_transcript_mid_way(tmp_path: Path) -> None:
    game = new_game("fbi-mafia", "duel-3v3", seed=4)
    game.play("mafia", "shift row 1 left")
    path = game.save(tmp_path / "g.yaml")
    again = load_game(path)
    assert again.awaiting() == ["fbi"] and again.legal("fbi") == game.legal("fbi") and not again.over


class Drawn:
    """Plays a legal input drawn by its own seeded generator (never the game's resign)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: str, choices):
        return self.rng.choice(choices.legal)


def test_a_seats_outcome_is_none_until_the_end_then_its_win_or_loss() -> None:
    game = new_game("fbi-mafia", "duel-3v3", seed=4)
    assert [game.outcome(s) for s in game.seats] == [None, None]
    with pytest.raises(ValueError, match="the game is not over"):
        game.returns()
    result = play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)})
    assert result is not None and result is game.result and len(result.winners) == 1
    outcomes = {s: game.outcome(s) for s in game.seats}
    assert outcomes == game.returns() == {s: int(s in result.winners) for s in game.seats}
    assert sorted(outcomes.values()) == [0, 1]
    with pytest.raises(UnknownSeatError):
        game.outcome("nobody")


def test_play_agents_stops_after_max_inputs_unfinished() -> None:
    game = new_game("mafia", "8-players", seed=2)
    assert play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)}, max_inputs=5) is None
    assert len(game.session.moves) == 5 and not game.over and game.outcome("p1") is None


def test_agent_iter_lets_each_change_of_time_pass_until_the_end_when_no_agent_acts() -> None:
    """A whole round with nothing to do lets time pass to its next change, again and again:
    here p5's mission fails at 100 s (it leaves the game, which goes on), the sand ends it at 180 s."""
    game = new_game("magic-maze", "1", players=5, roles=3, seed=1)
    assert play_agents(game, {s: Idle() for s in game.seats}) is game.result is not None
    assert game.result.reason == "time" and game.time == 180.0 and not game.session.moves
    assert [e.data["seat"] for e in game.events() if e.kind == "eliminate"] == ["p5"]


def test_agents_play_a_real_time_game_through_agent_iter() -> None:
    """Each answer lands a step of the clock after the last; time acts first only when it
    changes the game by then."""
    game = new_game("magic-maze", "1", players=2, seed=3)
    result = play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)}, max_inputs=40)
    moves = game.session.moves
    assert result is None and len(moves) == 40 and {m.seat for m in moves} == {"p1", "p2"}
    step = game.session.state.clock_step_ms
    assert [m.time_ms for m in moves] == [step * (i + 1) for i in range(40)]

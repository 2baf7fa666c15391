"""Magic Maze games played whole, for ``test_maze_play.py`` and ``test_maze_play_property.py``:
a game at its defaults, a game played by planner bots on every seat and whether it was won,
and the data the property test draws on.
"""

from __future__ import annotations

from pathlib import Path

from arbiter.engine import registry
from arbiter.engine.bench import play_random
from arbiter.engine.session import Session

REPO = Path(__file__).resolve().parents[1]
MAZE = registry.get("magic-maze")
SCENARIOS = [v.name for v in MAZE.variants()]
TIMER_MS = 180_000
USABLE_ONCE = {"hourglass", "camera", "crystal"}


def precondition(ok: bool, why: str) -> None:
    """A set-up check: fails the test as a set-up problem, never as the behaviour under test."""
    if not ok:
        raise RuntimeError(f"test set-up went wrong: {why}")


def maze(scenario: str = "1", players: int = 2, seed: int = 1) -> Session:
    return Session(MAZE, scenario, seed=seed, options={"players": players})


def planner_game(scenario: str, players: int, seed: int) -> Session:
    return play_random(MAZE, scenario, seed, kind="planner", options={"players": players})


def won(session: Session) -> bool:
    result = session.state.result
    return result is not None and result.winner == "team" and result.reason == "escape"

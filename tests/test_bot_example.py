"""The example bot in docs/examples plays whole games through the referee: the documented bot
protocol and the program agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "docs" / "examples" / "random_bot.py"


def test_example_bot_plays_a_whole_duel(tmp_path):
    transcript = tmp_path / "game.yaml"
    command = [
        sys.executable, "-m", "arbiter.cli.main", "play", "fbi-mafia", "--mode", "duel-3v3", "--seed", "5",
        "--bot", f"mafia=exec:{sys.executable} {BOT} 1", "--bot", "fbi=random",
        "--transcript", str(transcript),
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "result:" in done.stdout
    assert "forfeit" not in done.stdout
    record = yaml.safe_load(transcript.read_text())
    assert record["result"]["reason"] in ("kills", "arrests")
    assert any(e["move"]["seat"] == "mafia" for e in record["log"] if "move" in e)
    assert not any("note" in e for e in record["log"])


GAMES = {  # a game and every seat of it, each played by the example bot
    "fbi-mafia": (["fbi-mafia", "--mode", "duel-3v3", "--seed", "2"], ["mafia", "fbi"]),
    "mafia": (["mafia", "--players", "6", "--seed", "3"], [f"p{i}" for i in range(1, 7)]),
    "magic-maze": (["magic-maze", "--scenario", "1", "--players", "2", "--seed", "1"], ["p1", "p2"]),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_example_bot_plays_every_game_and_never_gives_up(tmp_path, game):
    """The give-up input (surrender, leave) comes on a resign: line, which the bot never picks;
    it plays Magic Maze (real time) as well as the turn-based games."""
    args, seats = GAMES[game]
    transcript = tmp_path / "game.yaml"
    bots = [a for i, seat in enumerate(seats) for a in ("--bot", f"{seat}=exec:{sys.executable} {BOT} {i}")]
    command = [sys.executable, "-m", "arbiter.cli.main", "play", *args, *bots, "--transcript", str(transcript)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "forfeit" not in done.stdout and "? bot" not in done.stdout
    record = yaml.safe_load(transcript.read_text())
    assert record["result"], "the game did not end"
    moves = [e["move"] for e in record["log"] if "move" in e]
    assert moves and not any(m["text"] in ("surrender", "leave") for m in moves)
    assert not any("note" in e for e in record["log"])

"""The example bot in docs/examples plays whole games through the referee: the documented bot
protocol and the program agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "docs" / "examples" / "random_bot.py"


def test_example_bot_plays_a_whole_duel(tmp_path):
    transcript = tmp_path / "game.yaml"
    command = [
        sys.executable, "-m", "cli.main", "play", "fbi-mafia", "--mode", "duel-3v3", "--seed", "5",
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

"""What the end-to-end tests of the ``arbiter`` command for Magic Maze (``test_maze_cli_*.py``)
share: the game's data and goldens, the board as printed (split into its parts, its squares'
codes and walls, and their legend), a transcript's moves and notes, a replay's verdict, and
the environment a referee child process runs in.

Commands run in-process with Click's ``CliRunner``; tests with external bots (``exec:``) or typed
lines arriving over time run the referee as a child process with a hard timeout, so a referee that
hangs fails the test instead of hanging the suite. A user mistake must never produce a Python
traceback: ``clean`` checks that for every result.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from arbiter.engine import registry
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.rules import MagicMazeRules

from tests.helpers import run

REPO = Path(__file__).resolve().parents[1]
GOLDENS = sorted((REPO / "transcripts" / "magic-maze").glob("*.yaml"))
TILES = REPO / "scenarios" / "magic_maze"
MAZE = registry.get("magic-maze")
MAZE_DATA = mm.load()
LEGEND = MagicMazeRules.legend
STATUS_HEAD = "Magic Maze, scenario "
TILE_NAME = re.compile(r"(1a|1b|[2-9]-|1[0-9])")
WIN = "result: Every hero is out with the loot: everyone wins."
LOSS = re.compile(r"result: The sand ran out at \d+(\.\d+)? s: everyone loses\.")


def referee_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def split_board(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the map's lines, the status block) of a rendered board; a map drawn in strips (too wide
    for 80 columns) is put back together."""
    i = next(i for i, line in enumerate(lines) if line.startswith(STATUS_HEAD))
    return unstrip(lines[:i]), lines[i:]


def unstrip(lines: list[str]) -> list[str]:
    """A map drawn in strips of whole squares ('(squares 1-26 of 29, west to east)' and its
    lines, then the next strip's) as one map again."""
    heads = [i for i, line in enumerate(lines) if line.startswith("(squares ")]
    if not heads:
        return lines
    strips = [lines[a + 1:b] for a, b in zip(heads, heads[1:] + [len(lines)])]
    firsts = [int(re.match(r"\(squares (\d+)-", lines[h]).group(1)) - 1 for h in heads]
    whole = []
    for row in zip(*strips):
        line = ""
        for first, part in zip(firsts, row):
            part = "" if part == "." else part
            line = line.ljust(3 * first)[:3 * first] + part
        whole.append(line.rstrip())
    return whole


def square_codes(map_lines: list[str]) -> set[str]:
    """The 2-character square codes of a map (rows of squares are its odd lines)."""
    codes = set()
    for line in map_lines[1::2]:
        for j in range(0, len(line), 3):
            code = line[j + 1: j + 3]
            if code.strip():
                codes.add(code)
    return codes


def wall_marks(map_lines: list[str]) -> tuple[set[str], set[str]]:
    """(the marks between squares on rows: walls, orange walls, passages; the 2-character marks
    of wall lines: walls, orange walls, passages and tile names)."""
    vertical, horizontal = set(), set()
    for k, line in enumerate(map_lines):
        for j in range(0, len(line), 3):
            if k % 2:
                vertical.add(line[j])
            else:
                assert line[j] in "+ ", (k, line)
                horizontal.add(line[j + 1: j + 3].ljust(2))
    return vertical, horizontal


def explained(code: str) -> bool:
    """Whether the legend explains a square code (explored exploration squares are the
    lower-case forms of the ``E.`` codes: "ep ... once explored")."""
    tokens = set(LEGEND.split())
    if code in tokens:
        return True
    return code[0] == "e" and code.capitalize() in tokens and "once explored" in LEGEND


def moves_of(transcript: Path) -> list[dict]:
    return [e["move"] for e in yaml.safe_load(transcript.read_text(encoding="utf-8"))["log"] if "move" in e]


def notes_of(transcript: Path) -> list[dict]:
    return [e["note"] for e in yaml.safe_load(transcript.read_text(encoding="utf-8"))["log"] if "note" in e]


def replay_ok(path: Path) -> str:
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"ok {path}: "), r.output
    return r.output

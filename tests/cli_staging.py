"""What the end-to-end tests of the ``arbiter`` command (``test_cli_play.py``, ``test_cli_bots.py``,
``test_cli_records.py``) share: FBI vs Mafia's data and seats, bot programs written as small scripts
(good, slow, deaf, crashing, illegal), a finished game's transcript, and readings of a printed
board.

Most commands run in-process with Click's ``CliRunner``. Tests with external bots (``--bot
SEAT=exec:...``) run the referee as a child process with a hard timeout instead, so a referee that
hangs on a bot fails the test rather than hanging the suite.

A user mistake must never produce a Python traceback: ``clean`` checks that for every result. Known
bugs are written as the correct behaviour and marked ``xfail(strict=True)``; set-up checks inside
those tests raise ``RuntimeError`` (not ``AssertionError``) so that only the bug's own assertion can
satisfy the xfail.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.helpers import run

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "scenarios" / "fbi_mafia"
MODES = ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]
STANDARD_SEATS = ["bandit", "undercover", "maniac", "detective", "bomber", "operative"]
GRID_ROW = re.compile(r"^\s*\d+ \|")


def grid_marks(board_lines: list[str]) -> list[str]:
    """Names marked with '*' in the grid rows of a rendered board."""
    return [m for line in board_lines if GRID_ROW.match(line) for m in re.findall(r"\*(\w+)", line)]


def identities(board_lines: list[str]) -> dict[str, str]:
    """character -> suspect from the 'Identities:' or 'You (seat):' line of a board."""
    for i, line in enumerate(board_lines):
        if line.startswith(("Identities: ", "You (")):
            for more in board_lines[i + 1:]:  # a long line wraps, its continuation indented
                if not more.startswith("  "):
                    break
                line += " " + more.strip()
            return dict(re.findall(r"(\w+)=(\w+) \(", line))
    raise AssertionError("no identities line on the board:\n" + "\n".join(board_lines))


def finished_transcript(path: Path, mode: str = "standard-3v3", seed: int = 1) -> Path:
    r = run("play", "fbi-mafia", "--mode", mode, "--bots", "random", "--seed", seed, "--transcript", path)
    assert r.exit_code == 0, r.output
    return path


def move_count(path: Path) -> int:
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    m = re.search(r"^ok .*: (\d+) moves", r.output, re.M)
    assert m, r.output
    return int(m.group(1))


# Seed 1, Standard 3v3: the board is fixed by the seed, and these moves are legal in turn.
OPENING = [
    "bandit shift row 1 left",
    "undercover masquerade",
    "maniac swap b5 c5",
    "maniac threat e2 b5 e6",
]

# Bot programs, written into tmp_path by the tests that use them.
GOOD_BOT = r'''
import sys
# Speaks the seat side of docs/protocol.md: collect legal: lines until `go SEAT KIND`, answer
# one line. It answers the first legal input that is not surrender, preferring actions to
# shifts (a bot that always shifts the same row never ends a game: there is no turn limit).
log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
with_seat = len(sys.argv) > 2 and sys.argv[2] == "with-seat"
legal = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if log:
        log.write(line + "\n")
        log.flush()
    if line.startswith("legal: "):
        legal.append(line[len("legal: "):])
    elif line.startswith("go "):
        seat = line.split()[1]
        moves = [m for m in legal if m != "surrender"]
        actions = [m for m in moves if not m.startswith("shift ")]
        pick = (actions or moves or ["surrender"])[0]
        print(f"{seat} {pick}" if with_seat else pick, flush=True)
        legal = []
'''

SLOW_BOT = r'''
import time
time.sleep(20)   # never answers within --bot-timeout; gives up by itself in the end
'''

CRASH_BOT = r'''
import sys
sys.exit(3)
'''

ILLEGAL_BOT = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        print("kill a1", flush=True)   # no seat but the bandit can kill; the undercover cannot
'''

DEAF_BOT = r'''
# Answers blindly and never reads its input, with a small input pipe: the referee's writes
# fill the pipe within a few turns. It exits by itself after a while.
import fcntl, sys, time
try:
    fcntl.fcntl(0, fcntl.F_SETPIPE_SZ, 4096)
except (AttributeError, OSError):
    pass
end = time.monotonic() + 8
while time.monotonic() < end:
    print("masquerade", flush=True)
    time.sleep(0.02)
'''


def bot_script(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"exec:{sys.executable} {path}"

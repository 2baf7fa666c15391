"""A worker's scratch folder (``engine.arena.scratch``): a folder whose worker was killed outright
(SIGKILL, as a cancelled Ray tournament kills a busy actor) is removed by the next worker made on
the same machine; a live worker's folder, a folder being made, and anything else in the
temporary folder are left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from arbiter.engine.arena.scratch import LOCK, PREFIX, Scratch, sweep

from tests.helpers import REPO

HOLDER = """
import sys
from arbiter.engine.arena.scratch import Scratch
s = Scratch(sys.argv[1])
(s.path / "game-1").mkdir()
(s.path / "game-1" / "log").write_text("a game's file")
print(s.path, flush=True)
sys.stdin.read()
"""


def holder(parent) -> tuple[subprocess.Popen, str]:
    """Another process holding a scratch folder under ``parent``, with a game's file in it."""
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(parent)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    return p, p.stdout.readline().strip()


def test_a_killed_workers_folder_is_removed_by_the_next_and_a_live_ones_is_kept(tmp_path):
    alive, alive_path = holder(tmp_path)
    killed, killed_path = holder(tmp_path)
    (tmp_path / "arbiter-game-else").mkdir()  # not a worker's: never touched
    (tmp_path / (PREFIX + "being-made")).mkdir()  # no lock yet: its maker may be between two steps
    try:
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait()
        assert os.path.exists(os.path.join(killed_path, "game-1", "log"))  # what the kill left
        mine = Scratch(tmp_path)
        assert not os.path.exists(killed_path)
        assert os.path.exists(os.path.join(alive_path, "game-1", "log"))
        assert (tmp_path / "arbiter-game-else").is_dir() and (tmp_path / (PREFIX + "being-made")).is_dir()
        assert sweep(tmp_path) == []  # mine and the live one's: held
        mine.close()
        assert not mine.path.exists()
    finally:
        alive.stdin.close()
        alive.wait()
    assert os.path.exists(alive_path)  # it ended without close(): its folder waits for the next sweep
    assert sweep(tmp_path) == [tmp_path / os.path.basename(alive_path)]


def test_a_folder_is_known_only_once_its_lock_is_held(tmp_path):
    s = Scratch(tmp_path)
    try:
        assert sorted(p.name for p in s.path.iterdir()) == [LOCK]
        fd = os.open(s.path / LOCK, os.O_RDONLY)
        try:
            import fcntl

            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                raise AssertionError("the lock was free")
            except BlockingIOError:
                pass
        finally:
            os.close(fd)
    finally:
        s.close()

"""A worker's scratch folder on a machine it may share: what a killed worker left is removed.

A worker whose games' files go back over the network (a Ray actor: the tournament's folder may be
on another machine) writes each game's files in a temporary folder, reads them back and removes
it. A cancelled tournament kills its busy actors outright, so the game in hand never reaches that
removal, and its folder stayed in the machine's temporary folder for ever, one per cancelled game.

So each such worker makes one folder for its life (``arbiter-worker-*`` in the system's temporary
folder) and holds an exclusive ``flock`` on a file in it (``.held``). The kernel lets a lock go
when its process dies, however it dies; a worker starting on the same machine removes every
folder of this kind, of its own user, whose lock it can take: one whose worker is gone. A folder
is known only once its lock is held (the lock file is made under another name, locked, then
renamed), so a sweep never takes a live worker's folder for a dead one's.

>>> import os, tempfile
>>> parent = tempfile.mkdtemp()
>>> s = Scratch(parent)
>>> s.path.name.startswith("arbiter-worker-") and sweep(parent) == []  # alive: kept
True
>>> s.close(); s.path.exists()
False
>>> os.rmdir(parent)
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path

PREFIX = "arbiter-worker-"
LOCK = ".held"


def sweep(parent: str | Path | None = None) -> list[Path]:
    """Remove the folders under ``parent`` (default: the system's temporary folder) that a worker
    of this user made and no live process holds; the folders removed."""
    parent = Path(parent or tempfile.gettempdir())
    removed = []
    try:
        names = sorted(n for n in os.listdir(parent) if n.startswith(PREFIX))
    except OSError:
        return removed
    for name in names:
        folder = parent / name
        try:
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            fd = os.open(folder / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:  # gone, not ours to read, or not yet locked by its maker
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: its worker is alive
            os.close(fd)
            continue
        try:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        finally:
            os.close(fd)
    return removed


class Scratch:
    """This process's scratch folder, ``path``, held until ``close`` or the process's end.
    Making one first sweeps away what dead workers left under the same ``parent``."""

    def __init__(self, parent: str | Path | None = None) -> None:
        parent = Path(parent or tempfile.gettempdir())
        sweep(parent)
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
        making = self.path / (LOCK + ".new")
        self._fd: int | None = os.open(making, os.O_CREAT | os.O_EXCL | os.O_RDWR | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        os.rename(making, self.path / LOCK)  # the lock goes with the file: known now, and held

    def close(self) -> None:
        """Remove the folder and let its lock go."""
        if self._fd is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            os.close(self._fd)
            self._fd = None

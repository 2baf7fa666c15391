"""Worker processes that do not outlive the process that started them.

A pool's worker waits on its pool's queue for work; when its parent is killed outright
(SIGKILL, the out-of-memory killer) nothing ever tells it to stop, and it would wait for ever.
Linux can kill it then (``PR_SET_PDEATHSIG``); elsewhere it is left as it was.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Called first thing in a worker: ask Linux to kill this process (SIGKILL) when its parent
    dies, and end it at once if its parent, ``parent`` (its process id, known to the parent),
    died before the request was made (the worker is then another process's child already).

    The signal follows the thread that started this process: the parent's caller of the pool,
    which lives as long as the pool (its main thread, in the command line)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes  # (~5 ms: paid by workers only)

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)

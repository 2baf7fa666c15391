"""Processes that do not outlive the process that started them.

A pool's worker waits on its pool's queue for work; when its parent is killed outright
(SIGKILL, the out-of-memory killer) nothing ever tells it to stop, and it would wait for ever.
Linux can kill it then (``PR_SET_PDEATHSIG``, ``die_with_parent``); elsewhere it is left as it was.

A bot (``engine.programs.ProcessBot``) runs in a process group of its own, which the referee ends
whole when it closes the bot. A referee killed outright closes nothing, and the parent-death
signal reaches only the bot's own process (not the programs it started), and only where it can
be asked for: Linux, from a lone main thread (not in a Ray actor, nor in a program with threads
of its own). So the referee also hands every bot's group to a *watcher* (``watch``): one small
process of its own, started with its first bot (and again, handed every group held, should it be
killed), that reads the groups to watch on its standard input. The other end of that pipe is the
referee's alone (a program it starts does not inherit it), so the watcher reads the end of its
input exactly when the referee is gone, however it went; it then kills (SIGKILL) every group
still handed to it, and exits. A bot the referee closes is taken back first (``unwatch``), so
nothing else is killed.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import threading

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


WATCHER = """\
import os, signal, sys
groups = set()
for line in sys.stdin.buffer:
    try:
        (groups.add if line[:1] == b"+" else groups.discard)(int(line[1:]))
    except ValueError:
        pass
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""
"""The watcher's program: ``+GROUP`` lines hand it a process group, ``-GROUP`` lines take one
back; at the end of its input it kills the groups it holds. (Run as ``python -I -S -c``: no
site packages, no environment, a few milliseconds to start.)"""

APART = "import os\nif os.fork():\n    os._exit(0)\n"
"""Put before ``WATCHER`` for a watcher started apart (``watch_apart``): its first process
forks and ends, and the fork, no child of this process, watches."""

_lock = threading.Lock()
_watcher: subprocess.Popen[bytes] | None = None
_owner = 0  # the process that started _watcher (a forked child starts its own, holding none of these)
_held: set[int] = set()  # the groups this process handed to its watcher and has not taken back
_apart = False  # (``watch_apart``)


def watch_apart() -> None:
    """Start this process's watcher apart from it: not its child but a grandchild, which init
    takes over. For a process whose end takes its direct children with it: a Ray worker, whose
    children Ray kills when it ends it, the watcher among them before it could end the groups it
    held (a cancelled tournament on Ray left its bots' children running). A watcher apart is
    known to be gone only when a write to it fails; it is then started again, handed every group
    held."""
    global _apart
    _apart = True


def _start() -> None:
    """Start a watcher for this process (none is running), handed every group held (none where
    none is held, or none can be started)."""
    global _watcher
    if not _held or os.name != "posix" or not sys.executable:
        return
    try:  # (a session of its own: a kill of the referee's whole group spares it)
        _watcher = subprocess.Popen([sys.executable, "-I", "-S", "-c", (APART if _apart else "") + WATCHER],
                                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    cwd="/", bufsize=0, start_new_session=True)
    except OSError:
        _watcher = None
        return
    if _apart:
        _watcher.wait()  # (its first process ends at once: reaped here; the fork reads the pipe)
    _write("".join(f"+{g}\n" for g in sorted(_held)))


def _write(lines: str) -> bool:
    """Tell the watcher ``lines``; False if it is gone (or this process is ending: its input
    closed by ``_stop``)."""
    try:
        _watcher.stdin.write(lines.encode("ascii"))  # type: ignore[union-attr]
        return True
    except (OSError, ValueError):
        return False


def _tell(sign: str, group: int) -> None:
    """Hand ``group`` to the watcher (``+``) or take it back (``-``), starting a watcher first
    where this process has none running (the first bot; or someone killed it: the new one is
    handed every group held)."""
    global _owner
    with _lock:
        if _owner != os.getpid():  # a forked child: its parent's groups are its parent's, and its
            _drop()  # copy of the parent watcher's input must not keep that watcher waiting
            _owner = os.getpid()
            _held.clear()
        (_held.add if sign == "+" else _held.discard)(group)
        if _watcher is not None and (_apart or _watcher.poll() is None) and _write(f"{sign}{group}\n"):
            return
        _drop()  # none yet, or gone (one apart is known gone when a write to it fails): another, handed all
        _start()


def _drop() -> None:
    """Let go of the watcher this process holds, if any (gone, or its parent's)."""
    global _watcher
    if _watcher is not None and _watcher.stdin is not None:
        try:
            _watcher.stdin.close()
        except OSError:
            pass
    _watcher = None


def watch(group: int) -> None:
    """Hand process group ``group`` (a bot's) to this process's watcher: it is killed if this
    process dies before ``unwatch(group)``."""
    _tell("+", group)


def unwatch(group: int) -> None:
    """Take ``group`` back from the watcher (the bot is closed: its group was ended)."""
    _tell("-", group)


def _stop() -> None:
    """At this process's normal end: the watcher's input ends, and it exits holding nothing (the
    bots were closed and taken back: ``engine.programs`` registers its closing at exit after this
    module is imported, so it runs first)."""
    watcher = _watcher
    if watcher is None or _owner != os.getpid():
        return
    try:
        if watcher.stdin is not None:
            watcher.stdin.close()
        watcher.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        pass


def _after_fork() -> None:
    global _lock
    _lock = threading.Lock()  # (another thread of the parent may have held it at the fork)


atexit.register(_stop)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

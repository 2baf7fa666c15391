"""Processes a bot left behind, found in ``/proc`` (Linux): what ``ProcessBot.close`` kills
once the bot's process group is ended (``ProcessBot._end_strays``).

A process is found by its session (the bot is started in a session of its own, so the session
id is the bot's pid, which the kernel does not reuse while a member of the session lives) or by
the bot's end of a pipe it holds (``/proc/PID/fd`` names a pipe ``pipe:[INODE]``, and
``/proc/PID/fdinfo/FD`` gives the access it was opened with); and only one started since the
bot (its start time, in clock ticks since boot) is the bot's. Every function reads ``/proc``
only and changes nothing; elsewhere than Linux the caller does not call them.
"""

from __future__ import annotations

import os

STARTED = 19
"""Where a process's start time (clock ticks since boot) is among the fields ``_stat`` returns."""


def _stat(pid: str) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the program's name: state, parent, group, session, ..."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[1].split()


def started(pid: int) -> int:
    """When process ``pid`` started, in clock ticks since boot (``OSError`` when it is gone)."""
    try:
        return int(_stat(str(pid))[STARTED])
    except (IndexError, ValueError):
        raise OSError(f"/proc/{pid}/stat: no start time") from None


def running(pid: int) -> bool:
    """Whether process ``pid`` is there and not dead (a zombie holds nothing and runs nothing)."""
    try:
        return _stat(str(pid))[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def strays(session: int, pipes: dict[str, int], born: int) -> list[int]:
    """The running processes, the caller aside, in ``session`` or holding the bot's end of any
    of ``pipes`` (as ``/proc/PID/fd`` names them, ``pipe:[INODE]``, with the access the bot's end
    has) and started no earlier than the bot (``born``), among those the caller may look into.
    Only the bot's end: a process the referee forked holds the referee's ends, and is none of
    the bot's. Only one started since the bot: one that was running before it (a server the bot
    handed its descriptors to, as a terminal multiplexer's client or an ssh connection sharing
    a master hands theirs) is the user's, not the bot's."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            fields = _stat(name)
            if fields[0] in (b"Z", b"X"):
                continue
            if int(fields[3]) == session or pipes and int(fields[STARTED]) >= born and holds(name, pipes):
                found.append(int(name))
        except (OSError, IndexError, ValueError):  # (another user's, or gone meanwhile)
            continue
    return found


def holds(pid: str, pipes: dict[str, int]) -> bool:
    """Whether process ``pid`` holds the bot's end of any of ``pipes`` (``strays``). A descriptor
    it closes while it is looked through is passed over, not taken for the process gone."""
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            mode = pipes.get(os.readlink(f"/proc/{pid}/fd/{fd}"))
            if mode is not None and _access(f"/proc/{pid}/fdinfo/{fd}") == mode:
                return True
        except FileNotFoundError:  # (closed meanwhile: its other descriptors may still hold a pipe)
            continue
    return False


def _access(fdinfo: str) -> int | None:
    """The access mode (``os.O_RDONLY``, ...) of the open file ``fdinfo`` (``/proc/PID/fdinfo/FD``) describes."""
    with open(fdinfo, encoding="ascii") as info:
        for line in info:
            if line.startswith("flags:"):
                return int(line.split()[1], 8) & os.O_ACCMODE
    return None

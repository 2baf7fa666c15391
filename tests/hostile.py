"""What the tests of misbehaving bots share (``test_bots_close.py``: a bot's close ends its
processes; ``test_bots_orphans.py``: a referee killed or stopped ends them too;
``test_bots_pipes.py``: its pipes and its lines; ``test_bots_failures.py``: why it failed, its
stderr; ``test_bots_talk.py``: lines nobody asked for, what a bot is told, a bot kept for the
next game): a watchdog for calls that might hang, bot programs written as tiny scripts and
started with this Python, sessions for them to play, and readings of ``/proc``.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import pytest

from arbiter.engine import registry
from arbiter.engine.bots import BotFailure
from arbiter.engine.programs import ProcessBot
from arbiter.engine.events import EventLog
from arbiter.engine.session import Choices, Session

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "random_bot.py"
T = TypeVar("T")


# -- helpers -------------------------------------------------------------------------------------


def within(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a watchdog thread: its result or its exception, or a failed test when it
    has not returned after ``seconds``."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"{getattr(fn, '__qualname__', fn)} hung: no return within {seconds} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def script(tmp_path: Path, name: str, source: str, *args: object) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return " ".join([sys.executable, str(path), *map(str, args)])


def launch(tmp_path: Path, name: str, source: str, *args: object, timeout: float, seat: str = "p",
           log: Path | None = None) -> ProcessBot:
    """A ``ProcessBot`` running ``source``, returned once the program calls ``READY()`` (by
    default its first statement), so that timings leave Python's start out."""
    ready = tmp_path / f"{name}.ready"
    prefix = f"import pathlib as _p\ndef READY():\n    _p.Path({str(ready)!r}).touch()\n"
    source = prefix + ("" if "READY()" in source else "READY()\n") + source
    bot = ProcessBot(seat, script(tmp_path, name, source, *args), timeout, **({"log": log} if log else {}))
    deadline = time.monotonic() + 10
    while not ready.exists():
        if time.monotonic() > deadline:
            bot.close()
            pytest.fail(f"the bot {name} did not start within 10 s")
        time.sleep(0.005)
    return bot


def duel() -> Session:
    """FBI vs Mafia, Duel 3v3, seed 5: the mafia seat acts first."""
    return Session(registry.get("fbi-mafia"), "duel-3v3", seed=5)


def fake_session(events: list[str], legal: tuple[str, ...] = ("pass",)) -> Any:
    """Just what ``ProcessBot.choose`` reads of a session, with events of any size."""
    log = EventLog()
    for text in events:
        log.emit("news", text)
    session = SimpleNamespace(
        events=log, moves=[], move_events=[], forfeits=[], clock_ms=0,
        state=SimpleNamespace(awaiting=lambda: [], realtime=False, result=None),
        choices=lambda seat: Choices(list(legal), [], None),
        settings=lambda: [],  # (a game without public settings)
    )
    session.told = lambda seat, since=(0, 0, 0): Session.told(session, seat, since)  # (the session's own telling)
    return session


def failure_of(bot: ProcessBot, session: Any, watchdog: float = 5) -> tuple[str, float]:
    """The reason ``bot.choose`` fails with, and the seconds it took."""
    start = time.monotonic()
    with pytest.raises(BotFailure) as caught:
        within(watchdog, bot.choose, session)
    return str(caught.value), time.monotonic() - start


def failure_then_close(bot: ProcessBot, session: Any, watchdog: float = 5) -> tuple[str, float]:
    """``failure_of`` the bot's turn; the bot closed whatever happens."""
    try:
        return failure_of(bot, session, watchdog)
    finally:
        within(3, bot.close)


def group_members(pgid: int) -> list[tuple[int, str, int]]:
    """(pid, state letter, parent's pid) of every process in group ``pgid``, from /proc."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                out.append((int(entry), fields[0], int(fields[1])))
    return out


def assert_group_ended(pgid: int) -> None:
    """Nothing of the group runs any more, and nothing of it is left for this process to reap:
    the referee has waited for the bot it started. What may remain a while is a killed child of
    the bot, a zombie whose parent is now the init process, which reaps it on its own schedule
    (a second or two on some machines; nothing the referee can hasten). SIGKILL takes effect a
    moment after it is sent, on a busy machine, hence the wait."""
    if not Path("/proc/self/stat").exists():
        return
    deadline = time.monotonic() + 2
    while True:
        members = group_members(pgid)
        alive = [m for m in members if m[1] != "Z"]
        ours = [m for m in members if m[2] == os.getpid()]
        if not alive and not ours:
            return
        assert time.monotonic() < deadline, f"processes of the bot's group still run or wait for us: {alive + ours}"
        time.sleep(0.01)


def stuck_bot(tmp_path: Path) -> tuple[str, Path]:
    """The command of a ``STUCK_NAMING_ITSELF`` bot, and the file it names its process in."""
    named = tmp_path / "stuck.pid"
    return script(tmp_path, "stuck", STUCK_NAMING_ITSELF, named), named


def pid_named_in(named: Path, running: Callable[[], bool] = lambda: True, seconds: float = 60) -> int:
    """The process a ``STUCK_NAMING_ITSELF`` bot named in ``named``, once it was asked to move;
    a set-up failure (``RuntimeError``) if it was not within ``seconds``, or once ``running``
    (its referee, say) says no."""
    deadline = time.monotonic() + seconds
    while not (named.exists() and named.read_text()):
        if time.monotonic() > deadline or not running():
            raise RuntimeError("test set-up went wrong: the stuck bot was never asked to move")
        time.sleep(0.02)
    return int(named.read_text())


def kill_group(pgid: int) -> None:
    """A test's clean-up: SIGKILL to what is left of process group ``pgid``, if anything."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def sleepers(token: int) -> list[int]:
    """Live (not zombie) processes running ``sleep TOKEN``."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if cmd[:2] == [b"sleep", str(token).encode()] and state != "Z":
                out.append(int(entry))
    return out


# -- bot programs --------------------------------------------------------------------------------

# Answers every go with the first legal input; logs what it was told to argv[1] when given.
PLAIN_BOT = r'''
import sys
log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
legal = []
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    if line.startswith("legal: "):
        legal.append(line[len("legal: "):].strip())
    elif line.startswith("go "):
        print(legal[0] if legal else "wait", flush=True)
        legal = []
'''

CHILD_THEN_EXIT = r'''
import subprocess, sys
subprocess.Popen(["sleep", sys.argv[1]])  # inherits stdin, stdout and stderr: it holds the pipes
'''

CHILD_THEN_HANG = r'''
import signal, subprocess, sys, time
subprocess.Popen(["sleep", sys.argv[1]])
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only SIGKILL ends this one
time.sleep(987654)
'''

CHILD_AT_GO_THEN_HANG = r'''
import signal, subprocess, sys, time
for line in sys.stdin:  # asked to act: the referee is in the game, its transcript open
    if line.startswith("go "):
        break
subprocess.Popen(["sleep", sys.argv[1]])
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only SIGKILL ends this one
time.sleep(987654)
'''
"""``CHILD_THEN_HANG``, its child started at its first ``go``: a referee stopped once the child
sleeps has begun the game (a bot starts before its game's transcript is opened: a stop before
then has no transcript to name)."""

DEAF = "import time\ntime.sleep(987654)\n"

ANSWER_BYTES = r'''
import sys, time
parts = [bytes.fromhex(a) for a in sys.argv[1:]]  # the answer's bytes, a pause between the parts
for line in sys.stdin:
    if line.startswith("go "):
        for i, part in enumerate(parts):
            time.sleep(0.2 if i else 0)
            sys.stdout.buffer.write(part)
            sys.stdout.flush()
'''

HALF_LINE_THEN_HANG = r'''
import sys, time
for line in sys.stdin:
    if line.startswith("go "):
        sys.stdout.write("x" * int(sys.argv[1]))  # no newline, ever
        sys.stdout.flush()
        time.sleep(987654)
'''

TEN_MB_LINE = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        sys.stdout.write("x" * 10_000_000 + "\n")
        sys.stdout.flush()
'''

BANNER = r'''
import sys
print("hello, I am a bot", flush=True)        # nobody asked
READY()
for line in sys.stdin:
    if line.startswith("go "):
        print("pass", flush=True)
'''

BANNER_MID_TURN = r'''
import sys, time
sys.stdin.buffer.readline()                     # the turn has begun to arrive, its go not yet
print("hello, I am a bot", flush=True)        # nobody asked
time.sleep(0.3)                                 # the rest of the turn waits in the referee
for line in sys.stdin.buffer:
    if line.startswith(b"go "):
        print("pass", flush=True)
'''

TWO_ANSWERS = r'''
import os, sys
for line in sys.stdin:
    if line.startswith("go "):
        os.write(1, b"one\ntwo\n")            # one write: both lines arrive together
'''

STDOUT_FLOOD = r'''
import sys
sys.stdout.write("spam\n" * 1000)            # before any go
sys.stdout.flush()
READY()
sys.stdout.write("spam\n" * 2_000_000)       # and 10 MB more
sys.stdout.flush()
'''

STDERR_TAIL_THEN_HANG = r'''
import sys, time
for i in range(1, 10):
    print(f"note {i}", file=sys.stderr)
print("y" * 1000, file=sys.stderr)
sys.stderr.flush()
READY()
for line in sys.stdin:
    pass
'''

STDERR_FLOOD = r'''
import sys
# 20 MB on stderr before anything else, 1 MB more after every answer (between turns, when
# nobody waits for this bot), and plays the first legal input otherwise
sys.stderr.write(("e" * 99 + "\n") * 200_000)
sys.stderr.flush()
legal = []
for line in sys.stdin:
    if line.startswith("legal: "):
        legal.append(line[len("legal: "):].strip())
    elif line.startswith("go "):
        print(legal[0], flush=True)
        legal = []
        sys.stderr.write(("f" * 99 + "\n") * 10_000)
        sys.stderr.flush()
'''

EXIT_EARLY = r'''
import sys
print("cannot find my opening book", file=sys.stderr, flush=True)
READY()
sys.exit(4)
'''

STUCK_NAMING_ITSELF = r'''
import os, sys, time
for line in sys.stdin:
    if line.startswith('go'):
        open(sys.argv[1], 'w').write(str(os.getpid()))
        time.sleep(120)
'''
"""A bot that names its process (in the file its argument names) when it is first asked to move,
then neither answers nor reads again for two minutes: a game stuck on it."""


def told_before_first_go(tmp_path: Path, session: Session, seat: str, name: str = "") -> list[str]:
    """Every line ``seat``'s ``exec:`` bot (``PLAIN_BOT``, which answers its first ``go``) is
    sent up to its first answer of ``session``; ``name`` tells apart the logs of several calls."""
    log = tmp_path / f"{seat}{name}.txt"
    bot = ProcessBot(seat, script(tmp_path, "plain", PLAIN_BOT, log), 5)
    try:
        within(10, bot.choose, session)
    finally:
        within(3, bot.close)
    return log.read_text(encoding="utf-8").splitlines()

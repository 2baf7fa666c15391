"""A bot's close ends it whole: its process group, and whoever else still holds its pipes (a
child in a session of its own), but no process that is not the bot's (the referee's own fork, a
server older than the bot); a bot deaf to SIGTERM gets SIGKILL, and a Ctrl-C or a stop that
lands inside a close leaves nothing running.

Most tests drive ``ProcessBot`` in-process, each call under a watchdog thread (``within``), so a
referee that hangs fails the test instead of hanging the suite. Bot programs are tiny scripts
written into ``tmp_path`` and run with this Python; they and the helpers the tests share are in
``tests/hostile.py``. A referee killed or stopped with its bots running: ``test_bots_orphans.py``.
"""

from __future__ import annotations

import os
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import run_referee
from tests.hostile import (
    within, script, launch, duel, failure_of, assert_group_ended, sleepers, EXAMPLE, CHILD_THEN_EXIT, CHILD_THEN_HANG,
)
from arbiter.engine import programs as programs_module
from arbiter.engine import procs
from arbiter.engine.programs import ProcessBot


@pytest.mark.parametrize("ending", ["exits", "hangs"])
def test_a_bot_whose_child_holds_its_pipes_cannot_hang_the_referee(tmp_path: Path, ending: str) -> None:
    """The bot starts ``sleep`` (which inherits its pipes) and exits, or hangs ignoring SIGTERM:
    the turn fails within the timeout, close() returns at once, and nothing of the group lives."""
    source = CHILD_THEN_EXIT if ending == "exits" else CHILD_THEN_HANG
    bot = launch(tmp_path, ending, source, 987654, timeout=0.5, seat="mafia")
    pgid = bot.proc.pid
    try:
        reason, took = failure_of(bot, duel())
        assert took < 1.5, f"the turn took {took:.1f} s with a 0.5 s timeout"
        if ending == "exits":
            assert "exit status 0" in reason, reason
        else:
            assert reason.startswith("no answer within 0.5 s"), reason
        start = time.monotonic()
        within(3, bot.close)
        assert time.monotonic() - start < 1.5
    finally:
        within(3, bot.close)
    assert_group_ended(pgid)


CHILD_OWN_SESSION = r'''
import subprocess, sys, time
subprocess.Popen(["sleep", sys.argv[1]], start_new_session=True)  # out of the group's reach, holding the pipes
if sys.argv[2] == "hangs":
    time.sleep(987654)
'''


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the pipes' holders are found in /proc")
@pytest.mark.parametrize("ending", ["exits", "hangs"])
def test_a_bots_child_in_a_session_of_its_own_holding_its_pipes_is_ended_too(tmp_path: Path, ending: str) -> None:
    """``setsid`` takes a child out of the bot's process group, which close() ends: the child,
    still holding the bot's pipes, outlived the referee (one more each game of a tournament).
    The pipes give it away: close() ends whoever still holds them."""
    token = random.randrange(10**6, 10**7)
    bot = launch(tmp_path, "apart", CHILD_OWN_SESSION, token, ending, timeout=0.5)
    closed_ends_child(bot, token, "the bot's child in a session of its own outlived the bot")


def closed_ends_child(bot, token: int, outlived: str) -> None:
    """Wait for the bot's child (a ``sleep`` of ``token`` seconds) to start, close the bot, and
    check the child is gone within two seconds (SIGKILL takes effect a moment after it is
    sent); ``outlived``: the failure's words. A failed test leaves nothing running either."""
    try:
        deadline = time.monotonic() + 5
        while not sleepers(token):
            assert time.monotonic() < deadline, "the child did not start"
            time.sleep(0.01)
    finally:
        within(3, bot.close)
    deadline = time.monotonic() + 2
    try:
        while sleepers(token):
            assert time.monotonic() < deadline, outlived
            time.sleep(0.01)
    finally:
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)


CHILD_OWN_GROUP = r'''
import subprocess, sys, time
subprocess.Popen(["sleep", sys.argv[1]], process_group=0, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)  # a group of its own in the bot's session, none of the bot's pipes
time.sleep(987654)
'''


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the pipes' holders are found in /proc")
def test_a_bot_whose_children_let_go_of_its_pipes_is_closed_without_a_search_of_every_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a bot's group is ended, the processes it left are looked for in /proc only when its
    output or stderr still has a writer: a search of every process cost each close a millisecond
    or more (0.1 s with 2,000 processes on the machine), paid by every game of bots that ended as
    asked. A child that left the group (``setpgid``) and let go of the bot's pipes is out of
    reach, as docs/protocol.md says: it is left running (and ended here)."""
    searched = []
    monkeypatch.setattr(procs, "strays", lambda *a: searched.append(a) or [])
    token = random.randrange(10**6, 10**7)
    bot = launch(tmp_path, "group", CHILD_OWN_GROUP, token, timeout=0.5)
    try:
        deadline = time.monotonic() + 5
        while not sleepers(token):
            assert time.monotonic() < deadline, "the child did not start"
            time.sleep(0.01)
        within(3, bot.close)
        assert searched == [] and sleepers(token)
    finally:
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the pipes' holders are found in /proc")
def test_a_process_the_referee_forked_holding_its_ends_of_the_pipes_is_spared(tmp_path: Path) -> None:
    """A fork of the referee (a library's caller may fork while a bot runs) holds the
    referee's ends of the bot's pipes, not the bot's: close() ends the bot's holders only."""
    token = random.randrange(10**6, 10**7)
    bot = launch(tmp_path, "apart", CHILD_OWN_SESSION, token, "exits", timeout=0.5)
    fork = os.fork()
    if fork == 0:  # (the fork holds every descriptor of this process: the referee's ends)
        try:
            time.sleep(30)
        finally:
            os._exit(0)
    try:
        within(3, bot.close)
        assert os.waitpid(fork, os.WNOHANG) == (0, 0), "the referee's own fork was killed"
    finally:
        os.kill(fork, signal.SIGKILL)
        os.waitpid(fork, 0)
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)


KEEPER = r'''
import pathlib, socket, sys
server = socket.socket(socket.AF_UNIX)
server.bind("\0" + sys.argv[1])
server.listen()
pathlib.Path(sys.argv[2]).touch()
kept = []
while True:
    client, _ = server.accept()
    kept += socket.recv_fds(client, 1, 3)[1]  # a client's descriptors, kept (as a terminal multiplexer's server does)
    pathlib.Path(sys.argv[3]).touch()
'''

HANDS_ITS_PIPES = r'''
import socket, sys, time
client = socket.socket(socket.AF_UNIX)
client.connect("\0" + sys.argv[1])
socket.send_fds(client, [b"x"], [0, 1, 2])
time.sleep(987654)
'''


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the pipes' holders are found in /proc")
def test_a_process_older_than_the_bot_it_handed_its_pipes_to_is_spared(tmp_path: Path) -> None:
    """A bot may hand its stdin and stdout to a server that was running before it (a terminal
    multiplexer's client, an ssh connection sharing a master do): the server then holds the
    bot's ends of its pipes, but it is the user's, and close() killed it."""
    name = f"arbiter-keeper-{os.getpid()}-{random.randrange(10**9)}"
    listening, kept = tmp_path / "listening", tmp_path / "kept"
    keeper = subprocess.Popen(shlex.split(script(tmp_path, "keeper", KEEPER, name, listening, kept)),
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while not listening.exists():
            assert time.monotonic() < deadline and keeper.poll() is None, "the server did not start"
            time.sleep(0.01)
        bot = launch(tmp_path, "hands", HANDS_ITS_PIPES, name, timeout=0.5)
        try:
            while not kept.exists():
                assert time.monotonic() < deadline, "the bot did not hand its pipes over"
                time.sleep(0.01)
        finally:
            within(3, bot.close)
        assert keeper.poll() is None, "close() killed a process that was running before the bot"
    finally:
        keeper.kill()
        keeper.wait()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the pipes' holders are found in /proc")
def test_a_holder_closing_a_descriptor_while_it_is_looked_through_is_still_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A holder's descriptors are listed, then read one by one: one it closed in between (a
    busy program's file) made the whole process pass for gone, and it was spared that round."""
    read_end, write_end = os.pipe()
    try:
        pipes = {f"pipe:[{os.fstat(write_end).st_ino}]": os.O_WRONLY}
        listdir = os.listdir

        def with_one_closed(path: str) -> list[str]:
            names = listdir(path)
            closed = str(max(map(int, names)) + 1000)  # (listed, and gone by the time it is read)
            return [closed, *names] if path.endswith("/fd") else names

        monkeypatch.setattr(os, "listdir", with_one_closed)
        assert procs.holds(str(os.getpid()), pipes)
    finally:
        os.close(read_end)
        os.close(write_end)


TERM_HANDLER = r'''
import pathlib, signal, sys, time
def bye(signum, frame):
    pathlib.Path(sys.argv[1]).write_text("terminated in good order")
    sys.exit(0)
signal.signal(signal.SIGTERM, bye)
READY()
while True:
    time.sleep(1)                      # deaf to its input closing: only a signal ends it
'''


def test_a_bot_is_given_a_moment_after_sigterm_before_sigkill(tmp_path: Path) -> None:
    note = tmp_path / "bye.txt"
    bot = launch(tmp_path, "term", TERM_HANDLER, note, timeout=2)
    within(5, bot.close)
    assert note.read_text(encoding="utf-8") == "terminated in good order"
    assert bot.proc.returncode == 0


def test_a_game_with_a_bot_whose_child_holds_its_pipes_ends(tmp_path: Path) -> None:
    token = random.randrange(10**6, 10**7)
    command = script(tmp_path, "hang", CHILD_THEN_HANG, token)
    proc, took = run_referee(["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot",
                              f"undercover=exec:{command}", "--bot-timeout", "0.5"], tmp_path, timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert "forfeit: undercover: no answer within 0.5 s" in proc.stdout
    assert took < 8, f"the game took {took:.1f} s"
    deadline = time.monotonic() + 2  # SIGKILL takes effect a moment after it is sent
    while sleepers(token):
        assert time.monotonic() < deadline, "the bot's child outlived the referee"
        time.sleep(0.01)


def test_a_bot_that_exits_when_its_input_closes_is_closed_at_once(tmp_path: Path) -> None:
    bot = ProcessBot("mafia", f"{sys.executable} {EXAMPLE} 1", 5)
    assert within(5, bot.choose, duel()) in duel().state.legal_inputs("mafia")
    start = time.monotonic()
    within(3, bot.close)
    assert time.monotonic() - start < 0.4
    assert bot.proc.returncode == 0
    within(1, bot.close)  # idempotent
    assert_group_ended(bot.proc.pid)


def test_a_ctrl_c_inside_the_pipes_bookkeeping_leaves_close_to_finish(tmp_path: Path) -> None:
    """A Ctrl-C landing just after the selector let go of a bot's pipe, before the bot noted
    it: the interrupt is the caller's to handle, and a close after it unregisters nothing twice
    (it once ended a run with a KeyError traceback instead of "interrupted")."""
    bot = launch(tmp_path, "idle", "import sys\nsys.stdin.read()\n", timeout=5)
    selector = type(programs_module._loop())
    real, calls = selector.unregister, []

    def interrupted_after(self, fileobj):
        key = real(self, fileobj)
        calls.append(fileobj)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return key

    selector.unregister = interrupted_after
    try:
        with pytest.raises(KeyboardInterrupt):
            bot.close()
        within(5, bot.close)  # the Ctrl-C path closes every bot again
    finally:
        selector.unregister = real
    assert bot.proc.poll() is not None, "and the bot is gone"


@pytest.mark.parametrize("child", ["in its group", "in a session of its own"])
def test_a_stop_that_lands_while_a_bot_is_closed_still_ends_its_children(tmp_path: Path, child: str) -> None:
    """A worker stopped twice (SIGTERM to the run's whole process group, then the run's own
    cancel) raised its second stop out of a bot's close while it waited for the bot to exit:
    the group was never killed, the watcher let go of it, and the bot's children ran on under
    init. Whatever interrupts a close, the bot's process group is ended before it is let go;
    and a child in a session of its own, holding the bot's pipes, with it (``arbiter play``
    sent SIGTERM twice, as ``timeout`` sends its signal to the command, then to its group, left
    it running under init)."""
    if child != "in its group" and not Path("/proc/self/fd").is_dir():
        pytest.skip("the pipes' holders are found in /proc")
    token = random.randrange(10**6, 10**7)
    if child == "in its group":
        bot = launch(tmp_path, "child", CHILD_THEN_HANG.replace("time.sleep(987654)", "READY()\ntime.sleep(987654)"),
                     token, timeout=5)
    else:
        bot = launch(tmp_path, "apart", CHILD_OWN_SESSION, token, "hangs", timeout=5)
    try:
        deadline = time.monotonic() + 10
        while not sleepers(token):
            assert time.monotonic() < deadline, "the bot never started its child"
            time.sleep(0.02)

        def stop_while_settling(seconds: float) -> None:
            raise SystemExit(143)

        bot._settle = stop_while_settling  # type: ignore[method-assign]
        with pytest.raises(SystemExit):
            bot.close()
        deadline = time.monotonic() + 3
        while sleepers(token):
            assert time.monotonic() < deadline, "the bot's child outlived its close"
            time.sleep(0.02)
    finally:
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)


class _Closing:
    """A bot whose close is noted, and raises ``stop`` (a worker's stop landing in it)."""

    def __init__(self, seat: str, closed: list[str], stop: BaseException | None = None) -> None:
        self.seat, self._closed, self._stop = seat, closed, stop

    def choose(self, session):  # pragma: no cover - never asked
        raise AssertionError

    def close(self) -> None:
        self._closed.append(self.seat)
        if self._stop is not None:
            stop, self._stop = self._stop, None
            raise stop


def test_a_stop_landing_in_one_bots_close_leaves_no_other_bot_unclosed() -> None:
    """A worker told to stop as its game ended, while it waited for a bot slow to exit (one
    deaf to SIGTERM): the stop raised out of that bot's close, the loop closing the game's bots
    ended there, and the next bot was never closed, so its child in a session of its own (out of
    the group the watcher kills) ran on after the run. Every closing loop goes on to the end and
    then lets the stop through: ``close_all``, the match's end, the worker's end of a game."""
    from arbiter.engine.arena.runner import Worker, _Seated
    from arbiter.engine.bots import close_all
    from arbiter.engine import registry
    from arbiter.engine.match import Match
    from arbiter.engine.protocol import Protocol
    from arbiter.engine.session import Session

    closed: list[str] = []
    with pytest.raises(SystemExit):
        close_all([_Closing("a", closed), _Closing("b", closed, SystemExit(143)), _Closing("c", closed)])
    assert closed == ["a", "b", "c"]

    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    closed.clear()
    match = Match(Protocol(session), {"mafia": _Closing("mafia", closed, KeyboardInterrupt()),
                                      "fbi": _Closing("fbi", closed)}, None, max_moves=0)
    with pytest.raises(KeyboardInterrupt):
        match.play()
    assert closed == ["mafia", "fbi"] and match.bots == {}

    closed.clear()
    seated = {s: _Seated(_Closing(s, closed, SystemExit(143) if s == "mafia" else None), session)
              for s in ("mafia", "fbi")}
    with pytest.raises(SystemExit):
        Worker.__new__(Worker)._settle(session, seated, {"mafia": "x", "fbi": "y"})
    assert sorted(closed) == ["fbi", "mafia"]

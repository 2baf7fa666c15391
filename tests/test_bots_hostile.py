"""External bots that misbehave on purpose: the referee must never hang on one, never drown in
what one writes, never leave one (or a child it started) running, and always say why it lost.

Most tests drive ``ProcessBot`` in-process, each call under a watchdog thread (``within``), so a
referee that hangs fails the test instead of hanging the suite. Bot programs are tiny scripts
written into ``tmp_path`` and run with this Python.

The helpers and the bot programs the tests share are in ``tests/hostile.py``; the lines a bot
sends unasked, what it is told before its turn, and a bot kept for the next game are tested in
``test_bots_talk.py``.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import REPO, run_referee, tree_env
from tests.hostile import (
    within, script, launch, duel, fake_session, failure_of, failure_then_close, assert_group_ended, sleepers,
    stuck_bot, pid_named_in, kill_group,
    EXAMPLE, PLAIN_BOT, CHILD_THEN_EXIT, CHILD_THEN_HANG, DEAF, ANSWER_BYTES, HALF_LINE_THEN_HANG, TEN_MB_LINE,
    STDERR_TAIL_THEN_HANG, STDERR_FLOOD, EXIT_EARLY,
)
from arbiter.engine import programs as programs_module
from arbiter.engine import procs
from arbiter.engine.arena.stats import forfeit_kind
from arbiter.engine.bots import make_bot
from arbiter.engine.programs import ProcessBot
from arbiter.engine.errors import ArbiterError
from arbiter.engine.lines import MAX_LINE_BYTES
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol


# -- 1. the bot's whole process group ends with it -----------------------------------------------


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


def test_a_referee_killed_outright_takes_its_bots_process_with_it(tmp_path: Path) -> None:
    """SIGKILL leaves the referee no moment to close its bots: Linux ends the bot's process for
    it (the parent-death signal), so a bot that neither answers nor reads does not run on."""
    command, named = stuck_bot(tmp_path)
    env = tree_env()
    referee = subprocess.Popen([sys.executable, "-m", "arbiter", "play", "fbi-mafia", "--mode", "duel-3v3", "--seed", "1",
                                "--bots", "random", "--bot", f"mafia=exec:{command}", "--bot-timeout", "120"],
                               cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        bot = pid_named_in(named, lambda: referee.poll() is None)
        referee.kill()
        referee.wait(10)
        try:
            assert_group_ended(bot)
        finally:
            kill_group(bot)
    finally:
        referee.kill()
        referee.wait(10)


CHILD_NAMING_ITSELF = r'''
import os, subprocess, sys, time
subprocess.Popen(["sleep", sys.argv[2]])  # a program the bot starts, in the bot's process group
for line in sys.stdin:
    if line.startswith('go'):
        open(sys.argv[1], 'w').write(str(os.getpid()))
        time.sleep(120)
'''
"""``STUCK_NAMING_ITSELF`` that first starts a ``sleep TOKEN`` of its own."""


def _killed_outright(referee: subprocess.Popen, started: Callable[[], int], token: int) -> None:
    """Kill ``referee`` (SIGKILL) once its bot has started (``started`` waits for it and gives
    its process), then wait (a few seconds at most: SIGKILL takes effect a moment after it is
    sent) until the bot's ``sleep TOKEN`` and the bot's whole group have ended; clean up
    whatever is left."""
    bot = 0
    try:
        bot = started()
        referee.kill()
        referee.wait(10)
        deadline = time.monotonic() + 5
        while sleepers(token):
            assert time.monotonic() < deadline, "the bot's child outlived the referee"
            time.sleep(0.02)
        assert_group_ended(bot)
    finally:
        referee.kill()
        referee.wait(10)
        if bot:
            kill_group(bot)
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)


def test_a_referee_killed_outright_takes_its_bots_children_with_it(tmp_path: Path) -> None:
    """The parent-death signal ends the bot's own process only; the programs the bot started
    ran on. The referee's watcher (``engine.orphans.watch``) kills the bot's whole group."""
    token = random.randrange(10**6, 10**7)
    named = tmp_path / "stuck.pid"
    command = script(tmp_path, "stuck_child", CHILD_NAMING_ITSELF, named, token)
    env = tree_env()
    referee = subprocess.Popen([sys.executable, "-m", "arbiter", "play", "fbi-mafia", "--mode", "duel-3v3", "--seed", "1",
                                "--bots", "random", "--bot", f"mafia=exec:{command}", "--bot-timeout", "120"],
                               cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)

    def started() -> int:
        bot = pid_named_in(named, lambda: referee.poll() is None)
        assert sleepers(token)
        return bot

    _killed_outright(referee, started, token)


THREADED_REFEREE = r'''
import sys, threading, time
from arbiter.engine.programs import ProcessBot
hold = threading.Event()
threading.Thread(target=hold.wait, daemon=True).start()  # a process with threads: no parent-death signal
bot = ProcessBot("p", sys.argv[1], 120)
print(bot.proc.pid, flush=True)
time.sleep(120)
'''


def test_a_referee_with_threads_killed_outright_takes_its_bots_with_it(tmp_path: Path) -> None:
    """A bot started while the referee runs other threads (a Ray actor, a program of a library
    user) gets no parent-death signal (code run between fork and exec is not safe there): the
    watcher alone ends it, and its children, when the referee is killed outright."""
    token = random.randrange(10**6, 10**7)
    command = script(tmp_path, "hang", CHILD_THEN_HANG, token)
    env = tree_env()
    referee = subprocess.Popen([sys.executable, "-c", THREADED_REFEREE, command], cwd=REPO, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def started() -> int:
        bot = int(within(30, referee.stdout.readline))  # type: ignore[union-attr]
        deadline = time.monotonic() + 10
        while not sleepers(token):
            assert time.monotonic() < deadline, "test set-up went wrong: the bot never started its child"
            time.sleep(0.02)
        return bot

    _killed_outright(referee, started, token)


WATCHING = r'''
import os, signal, sys, time
from arbiter.engine import orphans
kept, taken_back, later = (int(a) for a in sys.argv[1:])
orphans.watch(kept)
orphans.watch(taken_back)
orphans.unwatch(taken_back)
first = orphans._watcher
os.kill(first.pid, signal.SIGKILL)  # someone kills the watcher: the next bot starts another,
first.wait()
orphans.watch(later)  # which is handed every group held
assert orphans._watcher is not first
print("ready", flush=True)
time.sleep(120)
'''


@contextlib.contextmanager
def _groups_and_referee(program: str,
                        count: int) -> Iterator[tuple[subprocess.Popen, list[subprocess.Popen], list[int]]]:
    """``count`` process groups of this test's own (a ``sleep TOKEN`` each) and a referee running
    ``program`` with their pids, once it says ``ready``; all of them ended afterwards."""
    tokens = [random.randrange(10**6, 10**7) for _ in range(count)]
    groups = [subprocess.Popen(["sleep", str(t)], start_new_session=True) for t in tokens]
    env = tree_env()
    referee = subprocess.Popen([sys.executable, "-c", program, *(str(g.pid) for g in groups)], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert within(30, referee.stdout.readline) == b"ready\n"  # type: ignore[union-attr]
        yield referee, groups, tokens
    finally:
        referee.kill()
        referee.wait(10)
        for g in groups:
            g.kill()
            g.wait(10)


def test_the_watcher_kills_the_groups_it_holds_and_none_taken_back() -> None:
    """Process groups handed to a referee's watcher, one taken back (its bot closed), and the
    watcher killed (by someone) before a third is handed over: the referee killed outright,
    the watcher started anew kills the two groups held; the one taken back runs on."""
    with _groups_and_referee(WATCHING, 3) as (referee, groups, tokens):
        referee.kill()
        referee.wait(10)
        assert within(10, groups[0].wait) == within(10, groups[2].wait) == -signal.SIGKILL
        time.sleep(0.3)  # (the watcher is done by now: it killed at once)
        assert groups[1].poll() is None and sleepers(tokens[1])


FORKING_REFEREE = r'''
import os, sys, time
from arbiter.engine import orphans
parents, childs = int(sys.argv[1]), int(sys.argv[2])
orphans.watch(parents)
child = os.fork()
if child == 0:  # a forked child (multiprocessing's fork): a watcher of its own, holding its groups only
    orphans.watch(childs)
    os._exit(0)  # killed, as it were: no clean-up runs
os.waitpid(child, 0)
print("ready", flush=True)
time.sleep(120)
'''


def test_a_forked_referees_watcher_holds_its_own_groups_only() -> None:
    """A referee forked from another (without exec) starts a watcher of its own: when it dies,
    its watcher kills its groups, not its parent's; the parent's watcher kills the parent's
    when the parent dies."""
    with _groups_and_referee(FORKING_REFEREE, 2) as (referee, groups, _):
        assert within(10, groups[1].wait) == -signal.SIGKILL  # the child's, at the child's end
        assert groups[0].poll() is None  # the parent's lives on with the parent
        referee.kill()
        referee.wait(10)
        assert within(10, groups[0].wait) == -signal.SIGKILL


def test_the_parent_death_signal_is_asked_for_only_from_a_lone_main_thread() -> None:
    """Code run between fork and exec is safe only where no other thread may hold a lock, and
    the signal follows the thread that starts the child: a bot started from another thread, or
    while other threads run (as here: this test's own), gets no ``preexec_fn``; the killed
    referee's tests above start their bots from a lone main thread, where it is asked for."""
    import threading

    from arbiter.engine import programs

    found: list[object] = []
    worker = threading.Thread(target=lambda: found.append(programs._die_with_referee()))
    worker.start()
    worker.join(10)
    assert found == [None]
    hold = threading.Event()
    other = threading.Thread(target=hold.wait)
    other.start()
    try:
        assert programs._die_with_referee() is None  # this (the main) thread, but not alone
    finally:
        hold.set()
        other.join(10)


def test_a_bot_that_exits_when_its_input_closes_is_closed_at_once(tmp_path: Path) -> None:
    bot = ProcessBot("mafia", f"{sys.executable} {EXAMPLE} 1", 5)
    assert within(5, bot.choose, duel()) in duel().state.legal_inputs("mafia")
    start = time.monotonic()
    within(3, bot.close)
    assert time.monotonic() - start < 0.4
    assert bot.proc.returncode == 0
    within(1, bot.close)  # idempotent
    assert_group_ended(bot.proc.pid)


# -- 2. writing never blocks -------------------------------------------------------------------


CLOSES_ITS_INPUT = r'''
import os, time
os.close(0)
READY()
time.sleep(987654)
'''


def test_a_bot_that_closed_its_input_fails_saying_so(tmp_path: Path) -> None:
    bot = launch(tmp_path, "deafened", CLOSES_ITS_INPUT, timeout=5)
    reason, took = failure_then_close(bot, fake_session([]))
    assert (reason, took < 2) == ("the bot closed its input (still running)", True)


def test_a_bot_that_stops_reading_fails_once_its_unread_input_passes_the_cap(tmp_path: Path) -> None:
    bot = launch(tmp_path, "deaf", DEAF, timeout=10)
    try:
        reason, took = failure_of(bot, fake_session(["z" * 5000] * 300))  # 1.5 MB to send
        assert reason.startswith("the bot stopped reading its input"), reason
        assert took < 2
    finally:
        within(3, bot.close)


def test_a_large_turn_reaches_a_bot_that_reads_it(tmp_path: Path) -> None:
    """900 kB of events, under the cap: written as the bot reads, while the referee waits."""
    log = tmp_path / "told.txt"
    bot = ProcessBot("p", script(tmp_path, "plain", PLAIN_BOT, log), 10)
    try:
        assert within(15, bot.choose, fake_session(["z" * 5000] * 180)) == "pass"
    finally:
        within(3, bot.close)
    told = log.read_text(encoding="utf-8").splitlines()
    assert len(told) == 182 and told[-2:] == ["legal: pass", "go p any"]


# -- 3. lines are bytes, capped --------------------------------------------------------------------


def test_a_10_mb_line_fails_at_once_with_a_short_reason(tmp_path: Path) -> None:
    bot = launch(tmp_path, "long", TEN_MB_LINE, timeout=1, seat="mafia")
    reason, took = failure_then_close(bot, duel())
    assert took < 0.6, f"{took:.2f} s to refuse the line"
    assert reason.startswith(f"the bot sent a line longer than {MAX_LINE_BYTES} bytes"), reason
    assert len(reason) < 300, reason


@pytest.mark.parametrize("size, ending", [(MAX_LINE_BYTES, b"\n"), (MAX_LINE_BYTES, b"\r\n"),
                                          (MAX_LINE_BYTES + 1, b"\n")])
def test_the_line_cap_is_exact_and_a_long_line_fails_before_it_ends(tmp_path: Path, size: int,
                                                                     ending: bytes) -> None:
    if size == MAX_LINE_BYTES:  # the longest line a bot may send, held a moment, then its newline
        # (the \r of a CRLF ending is sent with the line: it is no part of it)
        answer = ("pass" + " " * (size - 4)).encode() + ending[:-1]
        bot = ProcessBot("p", script(tmp_path, "max", ANSWER_BYTES, answer.hex(), b"\n".hex()), 2)
        try:
            assert within(5, bot.choose, fake_session([])) == "pass"
        finally:
            within(3, bot.close)
        return
    bot = launch(tmp_path, "half", HALF_LINE_THEN_HANG, size, timeout=1)
    reason, took = failure_then_close(bot, fake_session([]))
    assert took < 0.6 and "longer than 8192 bytes" in reason, (took, reason)


@pytest.mark.parametrize("answer", [b"\n", b" \t \n", b"\r\n"])
def test_an_empty_answer_fails_at_once(tmp_path: Path, answer: bytes) -> None:
    bot = ProcessBot("p", script(tmp_path, "empty", ANSWER_BYTES, answer.hex()), 5)
    reason, took = failure_then_close(bot, fake_session([]))
    assert (reason, took < 2) == ("the bot sent an empty line", True)


@pytest.mark.parametrize("answer", [b"@3 pass\n", b"p @0.5 pass\n"])
def test_a_stamped_answer_fails_saying_the_referee_keeps_the_clock(tmp_path: Path, answer: bytes) -> None:
    """A bot's ``@3 pass`` was refused by the game as an unknown action ('@3')."""
    bot = ProcessBot("p", script(tmp_path, "stamp", ANSWER_BYTES, answer.hex()), 5)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason == (f"the bot stamped its line with a time: {answer.decode().strip()!r}; a bot sends its input "
                      "alone, and the referee keeps the clock")
    assert forfeit_kind(reason) == "protocol"


def test_a_line_that_is_not_utf8_fails_with_a_clear_reason(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "latin1", ANSWER_BYTES, b"pass caf\xe9\n".hex()), 2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason.startswith("the bot sent a line that cannot be read: the line is not UTF-8 text: byte 0xe9 "
                             "at column 9 cannot be read: 'pass caf"), reason


def test_a_line_with_a_control_character_fails_as_a_persons_would(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "ctl", ANSWER_BYTES, b"say \x1b[2J\n".hex()), 2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert "control character (U+001B) at column 5" in reason, reason


def test_a_carriage_return_is_white_space(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "cr", ANSWER_BYTES, b"p\rpass\rnow\r\n".hex()), 2)
    try:
        assert within(5, bot.choose, fake_session([])) == "pass now"  # seat p, then the input
    finally:
        within(3, bot.close)


# -- 5. stderr is kept ---------------------------------------------------------------------------


def test_a_bot_with_a_wrong_path_forfeits_with_pythons_message(tmp_path: Path) -> None:
    proc, _ = run_referee(["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot",
                           f"bandit=exec:{sys.executable} no/such/random_bot.py", "--bot-timeout", "5"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    forfeit = re.search(r"^forfeit: bandit: (.*)$", proc.stdout, re.M)
    assert forfeit, proc.stdout
    assert re.fullmatch(r"the bot closed its output \(exit status 2\); its stderr ends: .*can't open file "
                        r"'.*no/such/random_bot\.py': \[Errno 2\] No such file or directory", forfeit.group(1))


def test_a_failure_ends_with_the_last_stderr_lines_and_the_log_has_them_all(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    bot = launch(tmp_path, "tail", STDERR_TAIL_THEN_HANG, timeout=0.5, log=log)
    reason, _ = failure_then_close(bot, fake_session([]))
    head, _, tail = reason.partition("; its stderr ends: ")
    assert head == "no answer within 0.5 s"
    lines = tail.split(" | ")
    assert lines[:4] == ["note 6", "note 7", "note 8", "note 9"]
    assert len(lines) == 5 and lines[4].startswith("yyyy") and lines[4].endswith("…") and len(lines[4]) <= 201
    assert log.read_text(encoding="utf-8") == "".join(f"note {i}\n" for i in range(1, 10)) + "y" * 1000 + "\n"


def test_a_failures_stderr_lines_keep_their_control_characters_as_escapes(tmp_path: Path) -> None:
    """The reason quoted a bot's stderr with its control characters made spaces (``boom |
    line2  [2J``), where the protocol's lines and the record write them as escapes (``\\x1b``):
    what the bot wrote is kept, still one printable line."""
    bot = launch(tmp_path, "ctl", "import sys, time\nsys.stderr.write('boom\\tline\\nline2 \\x1b[2J\\x07\\n')\n"
                 "sys.stderr.flush()\ntime.sleep(60)\n", timeout=0.5)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason == "no answer within 0.5 s; its stderr ends: boom\\tline | line2 \\x1b[2J\\x07", reason
    assert reason.isprintable()


def test_a_bot_flooding_stderr_plays_on_and_its_log_is_capped(tmp_path: Path) -> None:
    log = tmp_path / "mafia.log"
    session = duel()
    bots = {"mafia": make_bot(f"exec:{script(tmp_path, 'noisy', STDERR_FLOOD)}", "mafia", 5, 5, log=log),
            "fbi": make_bot("random", "fbi", 5, 5)}
    out = within(60, lambda: "".join(Match(Protocol(session), bots, None, max_moves=40).run()))
    assert "forfeit" not in out and not any("note" in e for e in session.entries)
    assert sum(1 for m in session.moves if m.seat == "mafia") >= 10
    data = log.read_bytes()
    notice = b"[arbiter: log truncated, the bot wrote more than 8 MiB to stderr]\n"
    assert data.endswith(b"\n" + notice)  # on a line of its own
    assert 8 * 2**20 <= len(data) - len(notice) <= 8 * 2**20 + 1
    assert data[:200] == b"e" * 99 + b"\n" + b"e" * 99 + b"\n"


def test_a_bot_that_exits_before_its_first_go_fails_there_with_status_and_stderr(tmp_path: Path) -> None:
    bot = launch(tmp_path, "early", EXIT_EARLY, timeout=2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert re.fullmatch(r"the bot (closed its output|exited) \(exit status 4\); "
                        r"its stderr ends: cannot find my opening book", reason), reason


KILLS_ITSELF = r'''
import os, sys
for line in sys.stdin:
    if line.startswith("go "):
        os.kill(os.getpid(), int(sys.argv[1]))
'''


@pytest.mark.parametrize("signum, name", [(9, "SIGKILL"), (15, "SIGTERM"), (40, "signal 40")])
def test_a_bot_killed_by_a_signal_fails_naming_it(tmp_path: Path, signum: int, name: str) -> None:
    bot = ProcessBot("p", script(tmp_path, "killed", KILLS_ITSELF, signum), 5)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert re.fullmatch(rf"the bot (closed its output|exited) \(killed by {name}\)", reason), reason


def test_a_bot_that_cannot_start_is_an_arbiter_error(tmp_path: Path) -> None:
    with pytest.raises(ArbiterError, match="cannot start bot for p: '/no/such/bot'"):
        make_bot("exec:/no/such/bot", "p", 1, 1)
    deep = "/no/such/" + "folder/" * 20 + "bot --level 3"  # (a long command is named whole up to 200 characters)
    with pytest.raises(ArbiterError, match=re.escape(f"cannot start bot for p: {deep!r}: ")):
        make_bot(f"exec:{deep}", "p", 1, 1)
    with pytest.raises(ArbiterError) as caught:
        make_bot(f"exec:{sys.executable} {EXAMPLE}", "p", 1, 1, log=tmp_path / "no" / "such" / "p.log")
    assert caught.value.message == f"cannot open the log of p's bot: {tmp_path / 'no' / 'such' / 'p.log'}: " \
                                   "No such file or directory"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_referee_told_to_stop_ends_its_bots_children_too(tmp_path: Path, signum: int) -> None:
    """SIGTERM (``kill``) or SIGHUP (the terminal closed) stops ``play`` as Ctrl-C does: status
    130, the transcript named for resuming, and the bots ended with their whole process group.
    Before, the referee simply died: its bots' own processes went with it (the parent-death
    signal), their children ran on under init."""
    token = random.randrange(10**6, 10**7)
    command = script(tmp_path, "hang", CHILD_THEN_HANG, token)
    env = tree_env()
    referee = subprocess.Popen([sys.executable, "-m", "arbiter", "play", "fbi-mafia", "--seed", "1", "--bots", "random",
                                "--bot", f"bandit=exec:{command}", "--bot-timeout", "120", "--transcript", "t.yaml"],
                               cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not sleepers(token):
            assert referee.poll() is None and time.monotonic() < deadline, "the bot never started its child"
            time.sleep(0.02)
        referee.send_signal(signum)
        _, err = referee.communicate(timeout=30)
        assert referee.returncode == 130, err
        assert err.strip().endswith("interrupted; the transcript t.yaml can be resumed"), err
        deadline = time.monotonic() + 3
        while sleepers(token):
            assert time.monotonic() < deadline, "the bot's child outlived the referee"
            time.sleep(0.02)
    finally:
        referee.kill()
        referee.wait(10)
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)


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


REFEREE_OF_ONE_BOT = r'''
import sys, time
from arbiter.engine import orphans
from arbiter.engine.programs import ProcessBot
if sys.argv[2] == "apart":
    orphans.watch_apart()
bot = ProcessBot("p", sys.argv[1], 120)
print(bot.proc.pid, flush=True)
time.sleep(120)
'''


def children_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


@pytest.mark.parametrize("where", ["apart", "child"])
def test_a_watcher_apart_outlives_a_kill_of_its_referees_children(tmp_path: Path, where: str) -> None:
    """Ray ends a dying worker (a cancelled tournament's actor) with its direct children: the
    bot, and its watcher, killed before it could end the bot's group, whose other processes ran
    on under init. A watcher started apart (``orphans.watch_apart``, as Ray actors do) is no
    child of the referee: it outlives such a kill and ends the group. (Started as a child, the
    case the test stands for: the bot's child is left.)"""
    token = random.randrange(10**6, 10**7)
    command = script(tmp_path, "hang", CHILD_THEN_HANG, token)
    referee = subprocess.Popen([sys.executable, "-c", REFEREE_OF_ONE_BOT, command, where], cwd=REPO, env=tree_env(),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        within(30, referee.stdout.readline)  # type: ignore[union-attr]
        deadline = time.monotonic() + 10
        while not sleepers(token):
            assert time.monotonic() < deadline, "test set-up went wrong: the bot never started its child"
            time.sleep(0.02)
        for pid in children_of(referee.pid):  # as Ray does: the worker's children, then the worker
            os.kill(pid, signal.SIGKILL)
        referee.kill()
        referee.wait(10)
        deadline = time.monotonic() + (5 if where == "apart" else 0.5)  # (the watcher reads its end at once)
        while sleepers(token) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert bool(sleepers(token)) == (where == "child"), "the bot's child outlived its referee"
    finally:
        referee.kill()
        referee.wait(10)
        for pid in sleepers(token):
            os.kill(pid, signal.SIGKILL)

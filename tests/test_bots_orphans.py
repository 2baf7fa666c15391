"""A referee killed outright (SIGKILL) or told to stop (SIGTERM, SIGHUP) takes its external bots
and the programs they started with it: the parent-death signal ends a bot's own process, the
referee's watcher (``engine.orphans``) its whole process group, even when the watcher was
killed first, the referee forked or ran threads, or its children were killed before it (as
Ray ends a worker).

Each test runs a referee in a process of its own and stops it; the bots are tiny scripts
(``tests/hostile.py``), each starting a ``sleep TOKEN`` looked for in ``/proc`` afterwards.
A bot's own close: ``test_bots_close.py``.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import REPO, tree_env
from tests.hostile import (
    within, script, assert_group_ended, sleepers, stuck_bot, pid_named_in, kill_group, CHILD_THEN_HANG,
    CHILD_AT_GO_THEN_HANG,
)


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


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_referee_told_to_stop_ends_its_bots_children_too(tmp_path: Path, signum: int) -> None:
    """SIGTERM (``kill``) or SIGHUP (the terminal closed) stops ``play`` as Ctrl-C does: status
    130, the transcript named for resuming, and the bots ended with their whole process group.
    Before, the referee simply died: its bots' own processes went with it (the parent-death
    signal), their children ran on under init."""
    token = random.randrange(10**6, 10**7)
    command = script(tmp_path, "hang", CHILD_AT_GO_THEN_HANG, token)
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

"""The tournament's local pool when a run stops early (Ctrl-C, a failure): ``close(cancel=True)``
stops the games running, whatever their bots are doing, rather than wait for them; a worker
that ends its game and its bots when told to (SIGTERM) is let do so, and one that does not is
killed after ``STOP_GRACE_S``, its bots with it."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from arbiter.engine.arena import pool
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.pool import LocalPool
from arbiter.engine.arena.tournament import Tournament, configuration
from tests.hostile import assert_group_ended, within

# a bot that names its process when first asked to move, then neither answers nor reads again
STUCK = """
import sys, time
for line in sys.stdin:
    if line.startswith('go'):
        open(sys.argv[1], 'w').write(str(__import__('os').getpid()))
        time.sleep(120)
"""


def stuck_game(tmp_path: Path) -> tuple[LocalPool, Path]:
    """A local pool of one worker playing one game in which a bot is stuck (a time-out of two
    minutes, far longer than any test waits); the file that names the stuck bot's process,
    written once it is stuck."""
    (tmp_path / "stuck.py").write_text(STUCK, encoding="utf-8")
    named = tmp_path / "stuck.pid"
    entrants = [Entrant("stuck", f"exec:{sys.executable} {tmp_path / 'stuck.py'} {named}"), Entrant("rnd", "random")]
    config = configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), bot_timeout=120.0, cwd=str(tmp_path))
    t = Tournament({"format": 1, **config})
    (tmp_path / "t").mkdir()
    p = LocalPool(t.settings, 1, tmp_path / "t")
    game = next(g for g in t.games if g.entrants[0] == "stuck")  # the stuck bot moves first
    p.submit(game)
    deadline = time.monotonic() + 60
    while not (named.exists() and named.read_text()):
        assert time.monotonic() < deadline, "set-up: the stuck bot was never asked to move"
        time.sleep(0.02)
    return p, named


def workers_of(p: LocalPool) -> list:
    return list(p._executor._processes.values())  # type: ignore[attr-defined]


def exit_code(worker, seconds: float = 10) -> int | None:
    """The worker's exit code once it has ended (None: still running after ``seconds``). Read
    by polling: the executor's own thread may reap the worker too, and a ``join`` that loses
    that race returns before the code is known."""
    deadline = time.monotonic() + seconds
    while worker.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return worker.exitcode


def test_a_cancelled_pool_stops_its_running_game_and_its_bots(tmp_path: Path) -> None:
    p, named = stuck_game(tmp_path)
    (worker,) = workers_of(p)
    bot = int(named.read_text())
    within(30, p.close, True)  # waiting for the game would take the bot's two minutes
    code = exit_code(worker)
    assert code is not None and code != -signal.SIGKILL, code  # it ended itself
    assert_group_ended(bot)  # the worker unwound its game: the bot it started is ended and reaped
    assert p.busy == 0


def test_a_worker_that_does_not_stop_when_told_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "STOP_GRACE_S", 0.3)
    p, named = stuck_game(tmp_path)
    (worker,) = workers_of(p)
    bot = int(named.read_text())
    os.kill(worker.pid, signal.SIGSTOP)  # SIGTERM waits while it is stopped; SIGKILL does not
    try:
        within(30, p.close, True)
        assert exit_code(worker) == -signal.SIGKILL
        assert_group_ended(bot)  # the bot went with it (the parent-death signal), stuck as it was
    finally:
        try:
            os.kill(worker.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
        try:
            os.killpg(bot, signal.SIGKILL)  # (only if the test failed)
        except ProcessLookupError:
            pass

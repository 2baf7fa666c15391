"""A local pool's workers when a run stops early (Ctrl-C, a failure): ``close(cancel=True)``
stops the games running, whatever their bots are doing, rather than wait for them; a worker
that ends its game and its bots when told to (SIGTERM) is let do so, and one that does not is
killed after ``STOP_GRACE_S``, its bots with it. A worker told to stop as it starts, as it
starts a bot, or twice, ends quietly; one stopped from outside the run ends the run saying so;
a game it was told to stop in leaves no transcript. A bot that forfeits is ended at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arbiter.engine.arena import pool
from arbiter.engine.arena.pool import LocalPool

from tests.arena_staging import stuck_tournament
from tests.helpers import REPO, tree_env
from tests.hostile import assert_group_ended, kill_group, pid_named_in, stuck_bot, within


def stuck_game(tmp_path: Path) -> tuple[LocalPool, int]:
    """A local pool of one worker playing one game in which a bot is stuck; the bot's process."""
    t, game, named = stuck_tournament(tmp_path)
    (tmp_path / "t").mkdir()
    p = LocalPool(t.settings, 1, tmp_path / "t")
    p.submit(game)
    return p, pid_named_in(named)


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
    p, bot = stuck_game(tmp_path)
    (worker,) = workers_of(p)
    within(30, p.close, True)  # waiting for the game would take the bot's two minutes
    code = exit_code(worker)
    assert code is not None and code != -signal.SIGKILL, code  # it ended itself
    assert_group_ended(bot)  # the worker unwound its game: the bot it started is ended and reaped
    assert p.busy == 0


def test_a_second_ctrl_c_cutting_a_cancel_short_leaves_the_next_cancel_its_workers(tmp_path: Path) -> None:
    """A second Ctrl-C landing while a cancel waited for its workers: the command then cancelled
    again, but the executor, shut down, listed no process any more, and the workers were left to
    the kill at the command's exit, their bots' children out of the group to outlive it. The
    second cancel waits for the same workers: each unwinds its game and ends its bots."""
    p, bot = stuck_game(tmp_path)
    (worker,) = workers_of(p)
    join = worker.join

    def cut_short(timeout: float | None = None) -> None:
        worker.join = join  # (once)
        raise KeyboardInterrupt

    worker.join = cut_short
    with pytest.raises(KeyboardInterrupt):
        within(30, p.close, True)
    within(30, p.close, True)
    code = exit_code(worker)
    assert code is not None and code != -signal.SIGKILL, code  # it ended itself, its game unwound
    assert_group_ended(bot)


def test_a_worker_that_does_not_stop_when_told_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "STOP_GRACE_S", 0.3)
    p, bot = stuck_game(tmp_path)
    (worker,) = workers_of(p)
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
        kill_group(bot)  # (only if the test failed)


def test_a_worker_sent_ctrl_c_while_it_starts_goes_on_and_says_nothing(tmp_path: Path, capfd) -> None:
    """A Ctrl-C to the whole process group (a terminal's) while a worker is still starting, before
    its start-up code ignores Ctrl-C, once printed a traceback from the worker's imports and
    broke the pool; the worker starts with Ctrl-C held back and drops it, and plays its game."""
    t, game, named = stuck_tournament(tmp_path)
    (tmp_path / "t").mkdir()
    p = LocalPool(t.settings, 1, tmp_path / "t")
    p.submit(game)
    (worker,) = workers_of(p)
    os.kill(worker.pid, signal.SIGINT)  # at once: the new interpreter has not even imported its modules
    try:
        bot = pid_named_in(named, lambda: worker.exitcode is None)  # its game reached the stuck bot
    finally:
        within(30, p.close, True)
    assert_group_ended(bot)
    assert "Traceback" not in capfd.readouterr().err


def test_a_bot_that_forfeits_is_ended_at_once_not_at_the_games_end(tmp_path: Path, monkeypatch) -> None:
    """A forfeited bot is never reused, so the worker ends its process as it forfeits; it once
    ran on (spinning, flooding its stderr) until the game ended, seconds later."""
    from arbiter.engine.arena.entrants import Entrant
    from arbiter.engine.arena.runner import Worker
    from arbiter.engine.arena.tournament import Tournament, configuration
    from arbiter.engine.match import Match

    command, named = stuck_bot(tmp_path)
    entrants = [Entrant("stuck", f"exec:{command}"), Entrant("rnd", "random")]
    config = configuration("mafia", entrants, 2, players=6, bot_timeout=0.3, cwd=str(tmp_path), reuse=True)
    t = Tournament({"format": 2, **config})
    game = next(g for g in t.games if "stuck" in g.entrants)
    alive_after_forfeit = []
    real = Match._forfeit

    def forfeit(self, seat, why):
        out = real(self, seat, why)
        pid = int(named.read_text())
        alive_after_forfeit.append(Path(f"/proc/{pid}").exists())
        return out

    monkeypatch.setattr(Match, "_forfeit", forfeit)
    (tmp_path / "t" / "transcripts").mkdir(parents=True)
    worker = Worker(t.settings)
    try:
        record = worker.play(game, tmp_path / "t")
    finally:
        worker.close()
    assert [f["kind"] for f in record["forfeits"]] == ["timeout"] * len(alive_after_forfeit)
    assert alive_after_forfeit and not any(alive_after_forfeit)


def test_a_worker_told_to_stop_starts_no_other_game(tmp_path: Path) -> None:
    """A worker told to stop unwinds its game, but the executor took that for the game's
    failure and handed it the next game already queued, whose bots it started, only to be
    killed after the grace with them (their children left running): it now plays no other
    game and ends by itself."""
    t, _, named = stuck_tournament(tmp_path)
    (tmp_path / "t").mkdir()
    p = LocalPool(t.settings, 1, tmp_path / "t")
    for game in t.games:  # both games seat the stuck bot; the second waits in the worker's queue
        p.submit(game)
    (worker,) = workers_of(p)
    bot = pid_named_in(named)
    named.unlink()
    within(30, p.close, True)
    assert exit_code(worker) == 128 + signal.SIGTERM  # it ended itself, before the grace ran out
    assert not named.exists(), "the worker started the next game's bots"
    assert_group_ended(bot)


def run_worker_script(source: str) -> subprocess.CompletedProcess:
    """``source`` run by this Python with this tree first on the path (a fresh process: its
    signal handlers and fork hooks are its own)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    return subprocess.run([sys.executable, "-c", source], env=env, capture_output=True, text=True, timeout=60)


STOPPED_AS_A_BOT_STARTS = """
import os, signal, sys, time
from arbiter.engine.arena import pool
from arbiter.engine.programs import ProcessBot

pool._stop_when_told()  # as a worker, once started, in a game
pool._playing = True


def told_to_stop_in_a_fork_hook():
    os.kill(os.getpid(), signal.SIGTERM)  # the handler runs at the next line, inside this hook
    sum(range(10))


os.register_at_fork(after_in_parent=told_to_stop_in_a_fork_hook)
bot = ProcessBot("p1", f"{sys.executable} -c pass", 5.0)  # its start runs the fork hooks
bot.proc.wait()
time.sleep(3)
print("went on")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork hooks run for the parent-death signal")
def test_a_worker_told_to_stop_as_it_starts_a_bot_stops_and_says_nothing() -> None:
    """About one run in twenty, Ctrl-C (or a failure) as a worker started a bot printed
    "Exception ignored in: <function _releaseLock>... SystemExit: 143" from the worker, which
    then played on until it was killed: the exit raised by the stop came inside one of Python's
    fork hooks (logging's), which print it and go on. The stop now waits until the bot has
    started. The signal is sent from inside a fork hook, so the test hits that instant every
    time (the race it stands for needed many start/stop cycles to show)."""
    out = run_worker_script(STOPPED_AS_A_BOT_STARTS)
    assert (out.returncode, out.stdout, out.stderr) == (128 + signal.SIGTERM, "", "")


STOPPED_AS_THE_WORKER_STARTS = """
import os, signal
from concurrent.futures.process import _process_worker
from arbiter.engine.arena import pool
from arbiter.engine.arena.runner import Settings

real = pool.Worker


def told_to_stop_as_it_starts(settings):
    os.kill(os.getpid(), signal.SIGTERM)
    return real(settings)


pool.Worker = told_to_stop_as_it_starts
_process_worker(None, None, pool._start_worker, (Settings("mafia", {}, 1), ".", os.getppid()))
print("went on")
"""


def test_a_worker_told_to_stop_as_it_starts_ends_quietly() -> None:
    """A worker stopped in the middle of its start-up raised its exit there, which the executor
    logged as a traceback ("Exception in initializer"); until its start-up is done, SIGTERM now
    ends it outright (it has no game to unwind). Its start-up is run as the executor runs it."""
    out = run_worker_script(STOPPED_AS_THE_WORKER_STARTS)
    assert (out.returncode, out.stdout, out.stderr) == (-signal.SIGTERM, "", "")


def test_a_game_its_worker_was_told_to_stop_leaves_no_transcript(tmp_path: Path, monkeypatch) -> None:
    """A worker told to stop mid-game (the run cancelled: Ctrl-C, another worker's failure)
    unwinds its game; the transcript it held in memory was then put in place, unfinished and
    in no record. Nothing is written of a game that did not end as played (docs/arena.md: a
    worker stopped mid-game leaves no transcript of that game, or the one an earlier run left).
    A game the referee itself failed in, no stop told, keeps what it held, to see why."""
    from arbiter.engine import agents
    from arbiter.engine.arena.entrants import Entrant
    from arbiter.engine.arena.runner import Worker
    from arbiter.engine.arena.tournament import Tournament, configuration
    from arbiter.engine.match import Match

    monkeypatch.setattr(agents, "stopping", False)  # (set back after the test)

    config = configuration("fbi-mafia", [Entrant("a", "random"), Entrant("b", "random")], 2, modes=("duel-3v3",),
                           cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    real = Match.play

    def told_to_stop(self):
        for _, _ in zip(range(5), self.run()):  # some moves, then the worker's SIGTERM (pool._stop)
            pass
        agents.stopping = True  # (as pool._stop says it)
        raise SystemExit(128 + signal.SIGTERM)

    transcript = tmp_path / "t" / "transcripts" / "game-00000.yaml"
    monkeypatch.setattr(Match, "play", told_to_stop)
    with pytest.raises(SystemExit):
        Worker(t.settings).play(t.games[0], tmp_path / "t")
    assert not transcript.exists()
    agents.stopping = False
    monkeypatch.setattr(Match, "play", real)
    record = Worker(t.settings).play(t.games[0], tmp_path / "t")  # played whole: its transcript, in place
    assert record["finished"] and "\nformat: 1\n" in transcript.read_text()

    def fails(self):  # the referee's own failure mid-game, no stop told: what it held is kept, to see why
        for _, _ in zip(range(5), self.run()):
            pass
        raise RuntimeError("a referee's bug")

    transcript.unlink()
    monkeypatch.setattr(Match, "play", fails)
    with pytest.raises(RuntimeError):
        Worker(t.settings).play(t.games[0], tmp_path / "t")
    kept = transcript.read_text()
    assert "\nformat: 1\n" in kept and kept.count("move: {") == 5


STOPPED_TWICE = """
import os, signal
from arbiter.engine.arena import pool

pool._stop_when_told()  # as a worker, once started, in a game
pool._playing = True
try:
    os.kill(os.getpid(), signal.SIGTERM)
    sum(range(10))
except SystemExit as first:
    os.kill(os.getpid(), signal.SIGTERM)  # a second stop, while the first unwinds: no exit raised
    sum(range(10))
    print("unwound", first.code)
"""


def test_a_worker_stops_once_and_a_second_sigterm_leaves_the_first_to_unwind() -> None:
    """A second SIGTERM (the run's cancel after a stop that reached its whole process group, or
    the executor's own after another worker died) raised its exit out of a bot's close, which
    then never ended the bot's children (tests/test_bots_close.py)."""
    out = run_worker_script(STOPPED_TWICE)
    assert (out.returncode, out.stdout, out.stderr) == (0, "unwound 143\n", "")


STOPPED_AS_IT_READS_A_GAME = """
import array, fcntl, os, pickle, signal, struct, termios, time
from multiprocessing import get_context
from arbiter.engine.arena import pool

context = get_context("fork")
games = context.Queue()  # as the executor's queue of games, which every idle worker reads, one at a time
ready = context.Event()  # (a worker's stop is its own once it has said so)


def idle_worker():
    pool._stop_when_told()  # as a worker, once started, between games
    ready.set()
    games.get()
    print("read a game")


def unread():
    count = array.array("i", [0])
    fcntl.ioctl(games._reader.fileno(), termios.FIONREAD, count)
    return count[0]


game = pickle.dumps(("game", 7), protocol=pickle.HIGHEST_PROTOCOL)
games._sem.acquire()  # (as put counts what the queue holds; get counts it back)
first = context.Process(target=idle_worker)
first.start()
os.write(games._writer.fileno(), struct.pack("!i", len(game)))  # a game's length; its bytes to come
while unread():
    time.sleep(0.005)
os.kill(first.pid, signal.SIGTERM)  # stopped as it reads the game: between its length and its bytes
first.join()
ready.clear()
second = context.Process(target=idle_worker)
second.start()
ready.wait(60)
os.write(games._writer.fileno(), game)
deadline = time.monotonic() + 1
while second.exitcode is None and unread() and time.monotonic() < deadline:
    time.sleep(0.005)
if second.exitcode is None:
    os.kill(second.pid, signal.SIGTERM)
second.join()
print(first.exitcode, second.exitcode)
"""


def test_a_worker_stopped_as_it_reads_a_game_leaves_the_queue_to_no_other() -> None:
    """As a stopped run ended, a worker printed a traceback ("EOFError: Ran out of input"): an
    idle worker told to stop as it read a game from the queue all workers share raised its exit
    there, letting go of the queue's lock in the middle of the game's bytes, and the next worker
    to read took the rest for a new game's length. An idle worker now ends at once, lock held:
    the others read nothing more and end when told to, quietly."""
    out = run_worker_script(STOPPED_AS_IT_READS_A_GAME)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"{128 + signal.SIGTERM} {128 + signal.SIGTERM}\n", "")


def test_a_worker_stopped_from_outside_ends_the_run_saying_so_and_how_to_go_on(tmp_path: Path) -> None:
    """SIGTERM sent to one worker by something else than the run (``kill PID``, a supervisor)
    made the run exit with status 143 and no word: the worker's exit came back as its game's
    outcome and was raised in the main process. It is a worker's failure: status 1, what
    happened, and how to go on; the resumed run plays every game once."""
    (tmp_path / "slowagent.py").write_text("import time\n\nclass Slow:\n    def act(self, observation, choices):\n"
                                           "        time.sleep(0.02)\n        return choices.legal[0]\n")
    env = tree_env()
    out = tmp_path / "t"
    run = subprocess.Popen([sys.executable, "-m", "arbiter.cli.main", "match", "fbi-mafia", "--mode", "duel-3v3",
                            "s=py:slowagent:Slow", "r=random", "--games", "2", "--workers", "1", "--out", str(out)],
                           cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while not workers:
            assert run.poll() is None and time.monotonic() < deadline, "no worker started"
            children = subprocess.run(["pgrep", "-P", str(run.pid)], capture_output=True, text=True).stdout.split()
            workers = [int(c) for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
            time.sleep(0.05)
        time.sleep(0.3)  # into its first game (or between two: the executor then finds its worker gone)
        os.kill(workers[0], signal.SIGTERM)
        _, err = run.communicate(timeout=30)
    finally:
        kill_group(run.pid)
        run.wait(10)
    assert run.returncode == 1, err
    # (a stop between two games ends the worker outright: the pool finds it broken, and with a
    # py: entrant in the game cannot tell a kill from the agent's own doing, so it asks to mend it)
    assert "; every game recorded is kept: " in err and f"go on with: arbiter tournament --resume {out}" in err, err
    if "its worker was sent SIGTERM from outside the run" in err:  # a kill from outside: nothing to mend
        assert "once what failed is mended" not in err, err
    else:
        assert "BrokenProcessPool" in err and "once what failed is mended, go on with" in err, err
    done = subprocess.run([sys.executable, "-m", "arbiter.cli.main", "tournament", "--resume", str(out), "--json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = (out / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["game"] for line in lines) == [0, 1]


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc (Linux)")
def test_the_pools_resource_tracker_outlives_a_hangup() -> None:
    """The terminal closing sends SIGHUP to the whole job: the command stops as on Ctrl-C, but
    multiprocessing's resource tracker, deaf only to SIGINT and SIGTERM, died of it, and the one
    started in its place printed a "KeyError: '/mp-...'" traceback for each of the pool's locks.
    The pool starts the tracker with SIGHUP blocked for good; the command's own is not."""
    code = (
        "import os, signal, sys, tempfile\n"
        "from pathlib import Path\n"
        "from multiprocessing import resource_tracker\n"
        "from arbiter.engine.arena.pool import _tracker_deaf_to_hangup\n"
        "_tracker_deaf_to_hangup()\n"
        "def blocked(pid):\n"
        "    mask = next(l for l in open(f'/proc/{pid}/status') if l.startswith('SigBlk:')).split()[1]\n"
        "    return bool(int(mask, 16) >> (signal.SIGHUP - 1) & 1)\n"
        "pid = resource_tracker._resource_tracker._pid\n"
        "os.kill(pid, signal.SIGHUP)\n"
        "print(blocked(pid), blocked(os.getpid()), os.waitpid(pid, os.WNOHANG) == (0, 0))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=tree_env(), capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True False True\n", "")

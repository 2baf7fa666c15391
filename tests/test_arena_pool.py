"""The tournament's local pool when a run stops early (Ctrl-C, a failure): ``close(cancel=True)``
stops the games running, whatever their bots are doing, rather than wait for them; a worker
that ends its game and its bots when told to (SIGTERM) is let do so, and one that does not is
killed after ``STOP_GRACE_S``, its bots with it."""

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

from tests.arena_staging import InProcess, stuck_tournament
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

pool._stop_when_told()  # as a worker, once started


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


def test_games_ended_together_are_handed_back_in_schedule_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that ended games 0 and 1 before the main process looked handed them back in the
    order of a set of futures (their hashes, their addresses): results.jsonl held game 1 before
    game 0 in one CI run of four games on one worker. They come back by their index."""
    from concurrent.futures import Future
    from types import SimpleNamespace

    futures = []
    for index in (3, 0, 2, 1):
        future: Future = Future()
        future.set_result({"game": index})
        futures.append((future, SimpleNamespace(index=index)))
    local = LocalPool.__new__(LocalPool)  # (no processes: only done's bookkeeping is tried)
    for order in (futures, futures[::-1]):  # whatever order the wait gives them in
        local._running = dict(futures)
        monkeypatch.setattr(pool, "wait_futures", lambda fs, **_: ([f for f, _ in order], []))
        assert [record["game"] for _, record in local.done(0)] == [0, 1, 2, 3]


@pytest.mark.parametrize("next_call", ["done", "submit"])
def test_a_game_failed_in_the_look_that_saw_others_end_is_raised_after_they_are_handed_back(
        monkeypatch: pytest.MonkeyPatch, next_call: str) -> None:
    """A main process slow to look (a busy machine) found game 0 ended and game 2, the next
    game its worker played, failed, in one look: the failure was raised at once, and game 0's
    record was lost with it (a run stopped by a transcript past ``ulimit -f`` recorded no game,
    its transcript left in no record). The games that ended well come back; the failure is
    raised at the next call, and no game starts after it."""
    from concurrent.futures import Future
    from types import SimpleNamespace

    from arbiter.engine.arena.pool import WorkerFailed

    running = {}
    for index in (3, 2, 1, 0):
        future: Future = Future()
        if index == 2:
            future.set_exception(RuntimeError("the referee's own failure"))
        else:
            future.set_result({"game": index})
        running[future] = SimpleNamespace(index=index, entrants=("a", "b"))
    local = LocalPool.__new__(LocalPool)  # (no processes: only done's bookkeeping is tried)
    local._running, local._agents = running, set()
    local._executor = SimpleNamespace(submit=lambda *a: pytest.fail("a game started after one failed"))
    monkeypatch.setattr(pool, "wait_futures", lambda fs, **_: (list(fs), []))
    assert [record["game"] for _, record in local.done(0)] == [0, 1, 3]
    assert local.busy == 1  # (a run goes on to its next call, which raises)
    with pytest.raises(WorkerFailed, match=r"^game 2 failed in its worker: RuntimeError: the referee's own failure$"):
        local.done(0) if next_call == "done" else local.submit(SimpleNamespace(index=4, entrants=("a", "b")))
    assert local.busy == 0 and local.done(0) == []



def test_a_look_that_finds_only_failures_raises_the_first_in_schedule_order_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no game ended well to hand back, a failure is raised by the look that found it, not
    held to the next call; of two failed in one look, the earlier game's is the one said (the
    run's error names the game a user looks at first). Unchecked, ``done`` could return [] and
    keep the failure, or keep the later one, with every other test green."""
    from concurrent.futures import Future
    from types import SimpleNamespace

    from arbiter.engine.arena.pool import WorkerFailed

    running = {}
    for index in (5, 2):
        future: Future = Future()
        future.set_exception(RuntimeError(f"failure {index}"))
        running[future] = SimpleNamespace(index=index, entrants=("a", "b"))
    local = LocalPool.__new__(LocalPool)
    local._running, local._agents = running, set()
    monkeypatch.setattr(pool, "wait_futures", lambda fs, **_: (list(fs), []))
    with pytest.raises(WorkerFailed, match=r"^game 2 failed in its worker: RuntimeError: failure 2$"):
        local.done(0)
    assert local.busy == 0 and local.done(0) == []

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


def test_a_py_entrant_that_ends_its_worker_is_named_in_the_runs_error(tmp_path: Path, monkeypatch) -> None:
    """A ``py:`` agent runs in the game's worker: one that ends the process (``os._exit``) ends
    the run (status 1, as a worker's failure), and the error named neither it nor its entrant."""
    from tests.helpers import run

    (tmp_path / "quitting.py").write_text("import os\n\nclass Quits:\n    def act(self, observation, choices):\n"
                                          "        os._exit(3)\n")
    monkeypatch.chdir(tmp_path)
    r = run("match", "fbi-mafia", "--mode", "duel-3v3", "q=py:quitting:Quits", "base=random", "--games", "2",
            "--workers", "1", "--out", tmp_path / "t")
    assert r.exit_code == 1 and "failed in its worker: BrokenProcessPool" in r.output, r.output
    assert "(its py: entrants, which run in the worker: q); every game recorded is kept: once what failed is " \
           f"mended, go on with: arbiter tournament --resume {tmp_path / 't'}" in r.output, r.output
    assert "pending.;" not in r.output


STOPPED_TWICE = """
import os, signal
from arbiter.engine.arena import pool

pool._stop_when_told()  # as a worker, once started
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


def test_a_worker_gone_before_its_game_or_a_ray_actor_killed_is_a_kill_said_whole() -> None:
    """A local pool that found a worker dead as it handed on a game raised BrokenProcessPool
    from ``submit`` (a traceback); a Ray actor killed mid-game was asked to be mended before
    the resume, and its message read '.;'. Both are kills (a resume need not meet them again)."""
    from concurrent.futures.process import BrokenProcessPool
    from types import SimpleNamespace

    from arbiter.engine.arena.pool import RayPool, WorkerFailed

    game = SimpleNamespace(index=3, entrants=("a", "b"))
    local = LocalPool.__new__(LocalPool)
    local._executor = SimpleNamespace(submit=lambda *a: (_ for _ in ()).throw(BrokenProcessPool("pool broken.")))
    local._running = {}
    with pytest.raises(WorkerFailed, match=r"^a worker ended abruptly before game 3 began \(pool broken\): ") as caught:
        local.submit(game)
    assert caught.value.killed and local._running == {}

    class Died(Exception):
        pass

    def died(ref):
        raise Died("The actor died unexpectedly before finishing this task.")

    ray = SimpleNamespace(wait=lambda refs, num_returns, timeout: (refs[:1], refs[1:]), get=died,
                          exceptions=SimpleNamespace(RayActorError=Died))
    remote = RayPool.__new__(RayPool)
    remote.ray, remote._running, remote._free, remote._queue = ray, {"ref": ("actor", game)}, [], []
    with pytest.raises(WorkerFailed) as caught:
        remote.done(0)
    assert caught.value.killed and str(caught.value) == (
        "game 3 failed on Ray: Died: The actor died unexpectedly before finishing this task")


@pytest.mark.parametrize("stop", ["ctrl-c", "disk full"])
def test_a_failure_held_while_the_games_before_it_are_recorded_is_said_when_the_recording_stops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str) -> None:
    """One look found games 0 and 1 ended and game 2 failed in its worker; the pool held the
    failure while the run recorded 0 and 1. A Ctrl-C, or a results line the disk refused, as
    game 1 was recorded ended the run with that alone: the failure was never said (a resume met
    it again unwarned), and games 1 and 2 left transcripts in no record. The run's error now
    names both; the resumed run records game 1 from its transcript (it ended: it is not played
    again), replaces game 2's (it did not end) and records every game once."""
    import errno
    from concurrent.futures import Future
    from types import SimpleNamespace

    from arbiter.engine import replays
    from arbiter.engine.arena.entrants import Entrant
    from arbiter.engine.arena.pool import WorkerFailed
    from arbiter.engine.arena.results import Folder, FolderError, ResultsWriter, write_error
    from arbiter.engine.arena.runner import Worker
    from arbiter.engine.arena.tournament import Tournament, configuration
    from arbiter.engine.match import Match

    config = {"format": 2, **configuration("fbi-mafia", [Entrant("a", "random"), Entrant("b", "random")], 4,
                                           modes=("duel-3v3",), cwd=str(tmp_path))}
    t = Tournament(config)
    folder = Folder.create(tmp_path / "t", config)
    worker = Worker(t.settings)
    real = Match.play

    def fails(self):  # the referee's own failure mid-game: the worker keeps what it held, to see why
        for _ in zip(range(5), self.run()):
            pass
        raise RuntimeError("a referee's bug")

    def submit(play, game):  # (the games are played as they are submitted, as workers play them)
        future: Future = Future()
        if game.index < 2:  # ended well: their transcripts written, as a worker writes them
            future.set_result(worker.play(game, folder.path))
        elif game.index == 2:
            monkeypatch.setattr(Match, "play", fails)
            try:
                worker.play(game, folder.path)
            except RuntimeError as exc:
                future.set_exception(exc)
            finally:
                monkeypatch.setattr(Match, "play", real)
        return future  # (3: still running when the run stops)

    local = LocalPool.__new__(LocalPool)  # (no processes: the futures stand for its workers' games)
    local.workers, local._running, local._agents = 2, {}, set()
    local._executor = SimpleNamespace(submit=submit, shutdown=lambda **kw: None)
    results = folder.path / "results.jsonl"
    append = ResultsWriter.append

    def stopped_at_game_1(self, record):
        if record["game"] == 1:
            if stop == "ctrl-c":
                raise KeyboardInterrupt
            raise write_error(self.path, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
        append(self, record)

    monkeypatch.setattr(ResultsWriter, "append", stopped_at_game_1)
    failed = "game 2 failed in its worker: RuntimeError: a referee's bug"
    with pytest.raises(WorkerFailed if stop == "ctrl-c" else FolderError) as caught:
        t.run(folder, local)
    folder.unlock()
    if stop == "ctrl-c":  # (the command adds: every game recorded is kept, once mended go on with --resume)
        assert str(caught.value) == ("interrupted while the games that had ended before this failure were being "
                                     f"recorded: {failed}") and not caught.value.killed
    else:
        assert str(caught.value) == (f"cannot write {results}: No space left on device; free some space, then go on "
                                     f"with: arbiter tournament --resume {folder.path}; and before it, {failed} "
                                     "(mend that too, or the resumed run meets it again)")
    assert [json.loads(line)["game"] for line in results.read_text().splitlines()] == [0]
    left = sorted(p.name for p in folder.transcripts.glob("*.yaml"))
    assert left == ["game-00000.yaml", "game-00001.yaml", "game-00002.yaml"]  # 1 and 2 in no record
    assert not replays.check_file(folder.transcripts / "game-00002.yaml").finished

    monkeypatch.setattr(ResultsWriter, "append", append)
    again, config = Folder.existing(folder.path)
    ended = (folder.transcripts / "game-00001.yaml").read_bytes()
    outcome = Tournament(config).run(again, InProcess(t.settings, again.path))
    again.unlock()
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["game"] for r in lines] == [0, 1, 2, 3] and not outcome.interrupted
    assert (outcome.recovered, outcome.played, lines[1]["time"]) == ([1], 2, None)
    assert (folder.transcripts / "game-00001.yaml").read_bytes() == ended
    assert sorted(p.name for p in folder.transcripts.glob("*.yaml")) == sorted(
        r["transcript"].split("/")[1] for r in lines)
    for r in lines:  # each transcript is its record's game, played whole (2's part replaced)
        found = replays.check_file(folder.path / r["transcript"])
        assert found.ok and found.finished and r["finished"], r["transcript"]


def test_a_ctrl_c_as_the_games_before_a_failure_are_recorded_ends_the_command_naming_both(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's side of the test above: a Ctrl-C as game 1 was recorded, game 2 having
    failed in its worker in the same look, ended the command as interrupted (status 130, the
    tables, "go on with --resume") and never said the failure. It ends as the failure does,
    status 1, saying both and how to go on; the resumed command plays the rest, once each."""
    from concurrent.futures import Future
    from types import SimpleNamespace

    from arbiter.engine.arena.results import ResultsWriter
    from arbiter.engine.arena.runner import Worker
    from tests.helpers import run

    def made_by_hand(settings, workers, directory):  # a pool whose games end in one look: 0 and 1
        def submit(play, game):  # well, 2 failed in its worker, 3 still running
            future: Future = Future()
            if game.index < 2:
                future.set_result(Worker(settings).play(game, directory))
            elif game.index == 2:
                future.set_exception(RuntimeError("a referee's bug"))
            return future

        local = LocalPool.__new__(LocalPool)
        local.workers, local._running, local._agents = workers, {}, set()
        local._executor = SimpleNamespace(submit=submit, shutdown=lambda **kw: None)
        return local

    append = ResultsWriter.append

    def ctrl_c_at_game_1(self, record):
        if record["game"] == 1:
            raise KeyboardInterrupt
        append(self, record)

    monkeypatch.setattr(pool, "LocalPool", made_by_hand)
    monkeypatch.setattr(ResultsWriter, "append", ctrl_c_at_game_1)
    out = tmp_path / "t"
    r = run("match", "fbi-mafia", "--mode", "duel-3v3", "a=random", "b=random", "--games", "4", "--workers", "2",
            "--out", out)
    assert r.exit_code == 1, r.output
    assert r.output.endswith(
        "Error: interrupted while the games that had ended before this failure were being recorded: game 2 failed "
        "in its worker: RuntimeError: a referee's bug; every game recorded is kept: once what failed is mended, go "
        f"on with: arbiter tournament --resume {out}\n"), r.output
    monkeypatch.undo()
    r = run("tournament", "--resume", out, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output.splitlines()[-1])  # game 1 ended: recorded from its transcript, not played again
    assert (summary["played"], summary["from_transcripts"]) == (2, 1), r.output
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["game"] for r in lines) == [0, 1, 2, 3]
    assert sorted(p.name for p in (out / "transcripts").glob("*.yaml")) == sorted(
        r["transcript"].split("/")[1] for r in lines)

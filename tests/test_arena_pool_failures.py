"""What a tournament's pool hands back to the run: the games ended in one look, in schedule
order; a game failed in its worker raised once the games ended before it are handed back, the
first in schedule order; a worker gone before its game, or a Ray actor killed, as a kill; a
``py:`` entrant that ends its worker named in the run's error; and a failure held while those
games are recorded, said when the recording stops (Ctrl-C, a full disk), with how to go on."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arbiter.engine.arena import pool
from arbiter.engine.arena.pool import LocalPool

from tests.arena_staging import InProcess


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

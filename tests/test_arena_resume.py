"""A tournament's run stopped and resumed: killed with SIGKILL (its workers die with it), it
resumes and ends as an uninterrupted run; refused before its games, it lets its folder go;
interrupted while its report is made, it says where the games are and how to see it; a resume
reads the results file once, and again only when it changed; and the games a stopped run left
ended, without their records, are recorded from their transcripts, not played again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arbiter.engine.arena import report
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.tournament import Tournament, configuration

from tests.arena_staging import PY, InProcess, play, transcripts, without_time
from tests.helpers import REPO, run


SLOW_AGENT = """
import random, time

class Slow:
    def new_game(self, info):
        self.rng = random.Random(f"{info['seed']}:{info['seat']}")

    def act(self, observation, legal):
        time.sleep(0.004)
        return self.rng.choice(legal.legal) if legal.legal else None
"""


def test_a_run_killed_with_sigkill_resumes_and_ends_as_an_uninterrupted_one(tmp_path):
    (tmp_path / "slowagent.py").write_text(SLOW_AGENT)
    args = ["tournament", "mafia", "--players", "6", "--entrant", "slow=py:slowagent:Slow", "--entrant", "rnd=random",
            "--games", "16", "--workers", "2", "--seed", "3"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    killed = tmp_path / "killed"
    proc = subprocess.Popen([PY, "-m", "arbiter.cli.main", *args, "--out", str(killed)], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    results = killed / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before it could be killed: make its games slower"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.2)  # its workers die with it (the parent-death signal)
    before = {json.loads(line)["game"] for line in results.read_text().splitlines() if line.endswith("}")}
    assert 3 <= len(before) < 16
    done = subprocess.run([PY, "-m", "arbiter.cli.main", "tournament", "--resume", str(killed), "--json"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)  # (a game that ended as the run was killed is recorded from its transcript)
    assert resumed["played"] + resumed["from_transcripts"] == 16 - len(before) and resumed["recorded"] == 16
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["game"] for r in lines) == list(range(16)), "no game lost, none played twice"
    whole = subprocess.run([PY, "-m", "arbiter.cli.main", *args, "--out", str(tmp_path / "whole"), "--json"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=120)
    uninterrupted = json.loads(whole.stdout)
    keys = ("table", "sides", "roles", "forfeits", "ratings", "head_to_head", "side_rates")
    assert {k: resumed[k] for k in keys} == {k: uninterrupted[k] for k in keys}
    assert transcripts(killed) == transcripts(tmp_path / "whole")


PDEATHSIG = r'''
import ctypes, os, signal, sys
sys.path.insert(0, sys.argv[1])
from arbiter.engine.arena import pool
libc = ctypes.CDLL(None, use_errno=True)
asked = ctypes.c_int(-1)
libc.prctl(2, ctypes.byref(asked), 0, 0, 0)  # PR_GET_PDEATHSIG
before = asked.value
pool.die_with_parent(os.getppid())
libc.prctl(2, ctypes.byref(asked), 0, 0, 0)
print(before, asked.value, int(signal.SIGKILL))
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_local_worker_asks_to_be_killed_when_the_tournament_dies() -> None:
    """A worker whose tournament process is killed (SIGKILL, a crash) must not live on playing
    games nobody records: Linux kills it with its parent."""
    out = subprocess.run([sys.executable, "-c", PDEATHSIG, str(REPO)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    before, after, kill = map(int, out.stdout.split())
    assert (before, after) == (0, kill)


KILLED_WITH_WORKERS = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from arbiter.engine.arena.pool import LocalPool
from arbiter.engine.arena.runner import Settings
p = LocalPool(Settings("mafia", {"a": "random"}, 1, cwd="."), 2, Path("."))
for f in [p._executor.submit(time.sleep, 0.2) for _ in range(2)]:
    f.result()
print(*p._executor._processes, flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_tournaments_workers_die_at_once_when_it_is_killed_outright(tmp_path) -> None:
    """The whole of what the test above asks for: the workers of a pool whose process is killed
    with SIGKILL are gone within moments (a worker living on would wait for ever, or write a
    transcript a resumed run is replaying). The SIGKILL resume test passes with workers left."""
    main = subprocess.Popen([sys.executable, "-c", KILLED_WITH_WORKERS, str(REPO)], cwd=tmp_path,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        workers = [int(w) for w in main.stdout.readline().split()]  # type: ignore[union-attr]
        assert len(workers) == 2 and all(map(_alive, workers))
        os.kill(main.pid, signal.SIGKILL)
        main.wait()
        deadline = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any(map(_alive, workers)), "a worker outlived its tournament"
    finally:
        try:
            os.killpg(main.pid, signal.SIGKILL)
        except OSError:
            pass
        main.wait()


def test_a_run_refused_before_its_games_leaves_the_folder_free(tmp_path, monkeypatch):
    """A resumed tournament takes its folder's lock first; refused after that (a game that is
    not its game, a pool that cannot start), it lets the lock go, so the next run in the same
    process (a library caller's, a test's) may take it."""
    from arbiter.engine.arena import pool
    from arbiter.engine.errors import ArbiterError

    out = tmp_path / "t"
    assert run("match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "2", "--out", out,
               "--workers", "1").exit_code == 0

    def no_ray(*args):
        raise ArbiterError("no Ray here")

    monkeypatch.setattr(pool, "RayPool", no_ray)
    r = run("tournament", "--resume", out, "--ray", "local")
    assert r.exit_code == 1 and "no Ray here" in r.output, r.output
    r = run("tournament", "fbi-mafia", "--resume", out)
    assert r.exit_code == 2 and "not fbi-mafia" in r.output, r.output
    folder, _ = Folder.existing(out)  # not "being played by another run right now"
    folder.unlock()


def test_ctrl_c_while_the_report_is_made_says_where_the_games_are_and_how_to_see_it(tmp_path, monkeypatch):
    """Every game was played and recorded, then Ctrl-C landed while the report was worked out:
    the run ended with 'interrupted' alone, naming neither the folder nor --resume."""
    def interrupted_report(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "summary", interrupted_report)
    out = tmp_path / "t"
    r = run("match", "mafia", "--players", "6", "a=random", "b=random", "--games", "2", "--workers", "1",
            "--out", out)
    assert r.exit_code == 130, r.output
    assert r.output.rstrip().endswith(f"interrupted before the report; every game played is recorded in {out}: "
                                      f"arbiter tournament --resume {out} prints the report"), r.output
    monkeypatch.undo()
    again = run("tournament", "--resume", out)
    assert again.exit_code == 0 and "2 of 2 games recorded; 0 played by this run" in again.output, again.output


def test_a_resume_reads_the_results_once_and_again_only_when_they_changed(tmp_path, monkeypatch):
    """A resumed run read and checked the whole results file three times (whether it may go on
    here, what is left to play, where its writer appends): 2 s and twice the memory at 20,000
    games. It reads it once; a file changed since is read again."""
    from arbiter.engine.arena import results

    out = tmp_path / "t"
    assert run("match", "mafia", "--players", "6", "a=random", "b=random", "--games", "2", "--workers", "1",
               "--out", out).exit_code == 0
    reads = []
    real = results.read_results
    monkeypatch.setattr(results, "read_results", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    r = run("tournament", "--resume", out, "--json")
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[-1])["played"] == 0, r.output
    assert reads == [out / "results.jsonl"]
    config = json.loads((out / "tournament.json").read_text())
    t = Tournament(config)
    folder = Folder(out)
    first = folder.read_results(t.games, config["seed"])
    assert folder.read_results(t.games, config["seed"]) is first and len(reads) == 2
    with (out / "results.jsonl").open("ab") as f:
        f.write(b'{"torn')  # a crash's torn last line: the file changed, read again
    assert folder.read_results(t.games, config["seed"]) == first and len(reads) == 3
    folder.writer().close()  # its writer cuts the torn line off where the read found the end
    assert (out / "results.jsonl").read_bytes().endswith(b"}\n") and len(reads) == 3
    # a change of the same size whose modification time a tool gave back (cp -p, rsync -t): read again
    path = out / "results.jsonl"
    folder.read_results(t.games, config["seed"])
    before, stat = path.read_bytes(), os.stat(path)
    path.write_bytes(before.replace(b'"finished": true', b'"finished":  true', 1).replace(b', ', b',', 1))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    for _ in range(500):  # (a file system's clock may be coarse, 10 ms or more: the change time moves once it ticks)
        if os.stat(path).st_ctime_ns != stat.st_ctime_ns:
            break
        time.sleep(0.01)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert len(path.read_bytes()) == len(before) and os.stat(path).st_mtime_ns == stat.st_mtime_ns
    n = len(reads)
    folder.read_results(t.games, config["seed"])
    assert len(reads) == n + 1


# -- games a stopped run left ended, without their records ------------------------------------------


def _stopped(tmp_path: Path) -> tuple[Tournament, Folder, dict[int, tuple[int, bytes]]]:
    """A tournament of six Classic Mafia games that a Ctrl-C stopped as its main process found
    games 2 and 3 ended (their transcripts written, their lines not), its folder (held) and those
    two transcripts (inode, bytes)."""
    config = {"format": 2, **configuration("mafia", [Entrant("rnd", "random"), Entrant("sleuth", "sleuth")], 6,
                                           players=6, cwd=str(tmp_path))}
    t = Tournament(config)
    folder = Folder.create(tmp_path / "t", config)
    stopped = t.run(folder, InProcess(t.settings, folder.path, stop_at=2))
    folder.unlock()
    assert stopped.interrupted and [r["game"] for r in stopped.records] == [0, 1]
    left = {n: folder.transcripts / f"game-0000{n}.yaml" for n in (2, 3)}
    return t, Folder.existing(folder.path)[0], {n: (p.stat().st_ino, p.read_bytes()) for n, p in left.items()}


def test_a_resume_records_the_games_a_stopped_run_left_ended_from_their_transcripts(tmp_path):
    """A run stopped (Ctrl-C, ``kill -9``, a failure) after games ended and before their lines
    were written left their transcripts without a record, and the resume played them again,
    replacing the transcripts: with a bot that does not play the same way twice (a language
    model, a person) a real game was replaced by another. The resume records them from their
    transcripts before it schedules anything, and plays only the others; the report counts them,
    as it would have counted the lines the stopped run did not write."""
    t, folder, left = _stopped(tmp_path)
    pool = InProcess(t.settings, folder.path)
    outcome = t.run(folder, pool)
    folder.unlock()
    assert pool.submitted == [4, 5] and outcome.played == 2 and outcome.recovered == [2, 3]
    for n, (inode, data) in left.items():  # not played again: the very file, untouched
        path = folder.transcripts / f"game-0000{n}.yaml"
        assert (path.stat().st_ino, path.read_bytes()) == (inode, data)
    lines = [json.loads(line) for line in (folder.path / "results.jsonl").read_text().splitlines()]
    assert [r["game"] for r in lines] == [0, 1, 2, 3, 4, 5] and [r["time"] is None for r in lines] == [
        False, False, True, True, False, False]
    _, whole = play(tmp_path / "whole", 1)  # the same tournament, uninterrupted
    assert without_time(outcome.records) == without_time(whole) == without_time(lines)
    assert transcripts(folder.path) == transcripts(tmp_path / "whole")
    summary = report.summary(t.config, outcome.records, len(t.games))
    assert summary["recorded"] == 6 and summary == report.summary(t.config, whole, len(t.games))


def test_a_resumed_command_says_how_many_games_it_recorded_from_their_transcripts(tmp_path):
    """The command's side: the resume names the games it recorded from their transcripts, counts
    them on its last line and in ``--json``, and then a resume has nothing left to do."""
    t, folder, left = _stopped(tmp_path)
    folder.unlock()
    r = run("tournament", "--resume", folder.path, "--workers", "1")
    assert r.exit_code == 0, r.output
    assert ("# games 2, 3 ended without their records (a run stopped before writing them): recorded now from their "
            "transcripts, without the seconds they took or the names exec: programs gave (a transcript holds "
            "neither)\n") in r.stderr, r.stderr
    assert "6 of 6 games recorded; 2 from their transcripts, 2 played by this run\n" in r.stdout, r.stdout
    assert all((folder.transcripts / f"game-0000{n}.yaml").read_bytes() == data for n, (_, data) in left.items())
    again = run("tournament", "--resume", folder.path, "--workers", "1", "--json")
    assert again.exit_code == 0 and "# game" not in again.stderr, again.output
    summary = json.loads(again.stdout)
    assert (summary["recorded"], summary["played"], summary["from_transcripts"]) == (6, 0, 0)


def test_many_games_recorded_from_their_transcripts_are_named_a_few_and_counted(tmp_path):
    """A results file lost whole (a disk's error, a hand's rm) and resumed: every game is
    recorded from its transcript, and the line saying so named each, one line of 140,000
    characters at 20,000 games. It names the first few and counts the others."""
    out = tmp_path / "t"
    assert run("match", "mafia", "--players", "6", "a=random", "b=random", "--games", "12", "--workers", "1",
               "--out", out).exit_code == 0
    (out / "results.jsonl").write_bytes(b"")
    r = run("tournament", "--resume", out, "--workers", "1")
    assert r.exit_code == 0, r.output
    said = [line for line in r.stderr.splitlines() if "ended without" in line]
    assert said == ["# games 0, 1, 2, 3, 4, 5, 6, 7, 8 and 3 more ended without their records (a run stopped before "
                    "writing them): recorded now from their transcripts, without the seconds they took or the names "
                    "exec: programs gave (a transcript holds neither)"], r.stderr
    assert "12 of 12 games recorded; 12 from their transcripts, 0 played by this run" in r.stdout, r.stdout

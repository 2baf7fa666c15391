"""Tournaments played for real, small: the same results whatever the number of workers, a run
killed with SIGKILL and resumed, exec entrants that crash, hang or cheat, and the command's folder
rules. (The match lines of the protocol: ``test_arena_match_lines.py``.)

Speed is never asserted here; the games are few and short (timeouts of a fraction of a second)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arbiter.engine.arena import report
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.pool import LocalPool
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.runner import Worker
from arbiter.engine.arena.tournament import Tournament, configuration
from arbiter.engine import transcript as tr

from tests.arena_staging import InProcess, play, transcripts, without_time
from tests.helpers import REPO, run

PY = sys.executable


def test_the_same_seed_gives_the_same_results_with_one_or_two_workers(tmp_path):
    _, one = play(tmp_path / "one", 1, games=8)
    _, two = play(tmp_path / "two", 2, games=8)
    assert len(one) == 8 and without_time(one) == without_time(two)
    assert transcripts(tmp_path / "one") == transcripts(tmp_path / "two")
    lines = (tmp_path / "two" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["game"] for line in lines) == list(range(8))
    for r in one:  # each record says what the brief asks of it, and its transcript replays
        assert set(r) >= {"tournament_seed", "seed", "variant", "seats", "result", "outcome", "sides", "roles",
                          "forfeits", "moves", "time", "transcript"}
        t = tr.read(tmp_path / "one" / r["transcript"])
        assert tr.replay(t).ok and t.result["winners"] == r["result"]["winners"]
        assert t.settings()["entrants"] == r["seats"]


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


CRASH = "import sys\nsys.exit(3)\n"
HANG = "import sys, time\nfor line in sys.stdin:\n    if line.startswith('go'):\n        time.sleep(60)\n"
ILLEGAL = "import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n        print('xyzzy', flush=True)\n"


def test_crashing_hanging_and_cheating_entrants_forfeit_and_the_tournament_finishes(tmp_path):
    bots = {}
    for name, source in (("crash", CRASH), ("hang", HANG), ("illegal", ILLEGAL)):
        (tmp_path / f"{name}.py").write_text(source)
        bots[name] = f"exec:{PY} {tmp_path / name}.py"
    entrants = [Entrant(n, s) for n, s in bots.items()] + [Entrant("rnd", "random")]
    # 2 s: crash and illegal must start Python and exit or answer within it to forfeit as they
    # do, not by a timeout (0.3 s was 2-3 times what a start took on a busy machine)
    t, records = play(tmp_path / "t", 2, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=4, bot_timeout=2)
    assert len(records) == 4 and all(r["finished"] for r in records)  # each forfeit surrenders its game
    kinds = {f["entrant"]: f["kind"] for r in records for f in r["forfeits"]}
    assert kinds == {"crash": "crash", "hang": "timeout", "illegal": "illegal"}
    s = report.summary(t.config, records, len(t.games))
    # (crash - hang): crash, first to act, surrenders before hang is asked; (hang - illegal): hang times out
    assert s["forfeits"]["hang"] == {"timeout": 1} and s["table"]["rnd"]["wins"] == 2
    assert "forfeits" in report.tables(s) and "timeout" in report.tables(s)


def test_an_entrant_whose_program_cannot_start_loses_each_game_and_an_sprt_decides(tmp_path):
    """A bot that cannot start at all (no such program) is its entrant's fault, as cutechess-cli
    counts an engine that fails to start as its loss: its seat forfeits at its first input, as a
    program that crashed there would, and the game goes on to its end. Such games were recorded
    unfinished, counted for no one, so an SPRT against a missing program never decided."""
    out = tmp_path / "t"
    r = run("match", "fbi-mafia", "--mode", "duel-3v3", "gone=exec:/no/such/bot", "rnd=random", "--games", "200",
            "--workers", "1", "--sprt", "0", "100", "--json", "--out", out)
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["sprt"]["result"] == "H0" and s["unfinished"] == 0
    assert s["table"]["gone"]["seats"] > 0 and s["table"]["gone"]["wins"] == 0
    assert s["table"]["rnd"]["wins"] == s["table"]["rnd"]["seats"] > 0
    assert s["forfeits"] == {"gone": {"crash": s["recorded"] - s["after_decision"]}, "rnd": {}}
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for rec in records:
        seat = next(seat for seat, e in rec["seats"].items() if e == "gone")
        assert rec["finished"] and rec["outcome"][seat] == "lost" and rec["error"] is None
        assert [f["seat"] for f in rec["forfeits"]] == [seat]
        assert rec["forfeits"][0]["reason"].startswith(f"cannot start bot for {seat}: '/no/such/bot'")
        t = tr.read(out / rec["transcript"])  # the record replays, the forfeit in it
        assert tr.replay(t).ok and t.result["winners"] == rec["result"]["winners"]
    assert not list((out / "transcripts").glob("*.stderr.log"))  # a program that never ran leaves no log
    replayed = run("replay", out / records[0]["transcript"])
    assert replayed.exit_code == 0, replayed.output


BREAKS_IN_GAMES = """
import os

class Agent:
    def __init__(self):
        if os.environ.get("ARBITER_TEST_AGENT_BREAKS"):
            raise RuntimeError("no model file")

    def act(self, observation, legal):
        return legal.legal[0] if legal.legal else None
"""


def test_a_py_agent_that_cannot_be_made_in_its_games_forfeits_them_all(tmp_path, monkeypatch):
    """An agent made when the tournament is set up but not in its games (here: its constructor
    raises in the worker) forfeits each of its seats at its first input, of kind crash, in Classic
    Mafia too (several seats of one entrant in a game); every game is finished and replays."""
    (tmp_path / "breaksingames.py").write_text(BREAKS_IN_GAMES)
    entrants = [Entrant("brk", "py:breaksingames:Agent"), Entrant("rnd", "random")]
    config = configuration("mafia", entrants, 4, players=6, cwd=str(tmp_path))
    monkeypatch.setenv("ARBITER_TEST_AGENT_BREAKS", "1")  # the worker, spawned now, makes no agent
    folder = Folder.create(tmp_path / "t", {"format": 2, **config})
    t = Tournament({"format": 2, **config})
    records = t.run(folder, LocalPool(t.settings, 1, tmp_path / "t")).records
    folder.unlock()
    assert len(records) == 4 and all(r["finished"] and r["error"] is None for r in records)
    for rec in records:
        theirs = {seat for seat, e in rec["seats"].items() if e == "brk"}
        forfeited = {f["seat"] for f in rec["forfeits"]}
        assert forfeited and forfeited <= theirs and {f["kind"] for f in rec["forfeits"]} == {"crash"}
        assert all("cannot make the agent: RuntimeError: no model file" in f["reason"] for f in rec["forfeits"])
        assert tr.replay(tr.read(tmp_path / "t" / rec["transcript"])).ok


def test_a_bot_the_machine_cannot_start_is_no_fault_of_its_entrant(tmp_path, monkeypatch):
    """A program the system could not start for want of files, memory or processes is the
    machine's failure, not the entrant's: the game is recorded unfinished with the reason in
    ``error``, counted for no one, and no forfeit is put on the entrant."""
    import errno

    from arbiter.engine.arena.runner import Worker

    def no_more_files(*args, **kw):
        raise OSError(errno.EMFILE, "Too many open files")

    (tmp_path / "crash.py").write_text(CRASH)
    entrants = [Entrant("prog", f"exec:{PY} {tmp_path / 'crash.py'}"), Entrant("rnd", "random")]
    config = configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    monkeypatch.setattr(subprocess, "Popen", no_more_files)
    rec = Worker(t.settings).play(t.games[0], tmp_path)
    assert not rec["finished"] and rec["forfeits"] == []
    assert rec["error"].startswith("cannot start bot for ") and "Too many open files" in rec["error"]


def test_the_command_refuses_folders_it_must_not_fill_and_resumes_with_nothing_else(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    r = run("tournament", "mafia", "--players", "6", "--entrant", "a=random", "--entrant", "b=sleuth",
            "--games", "3", "--out", other, "--workers", "1")
    assert r.exit_code == 1 and "not empty" in r.output and (other / "notes.txt").read_text() == "mine"
    out = tmp_path / "t"
    r = run("match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "3", "--out", out,
            "--workers", "1")
    assert r.exit_code == 0, r.output
    assert "4 games (3 asked, rounded up to whole blocks of 2)" in r.output
    assert "\r" not in r.output, "no progress bar when the output is not a terminal"
    for line in ("entrant", "side", "role", "pair (a - b)", "forfeits: none"):
        assert line in r.output
    assert max(len(line) for line in r.output.splitlines() if not line.startswith("#")) <= 80
    before = (out / "results.jsonl").read_text()
    r = run("match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "3", "--out", out)
    assert r.exit_code == 1 and "--resume" in r.output and (out / "results.jsonl").read_text() == before
    r = run("tournament", "--resume", out, "--games", "10")
    assert r.exit_code == 2 and "--games" in r.output
    r = run("tournament", "--resume", out, "--entrant", "c=random")
    assert r.exit_code == 2 and "leave out --entrant" in r.output, r.output
    r = run("tournament", "fbi-mafia", "--resume", out)
    assert r.exit_code == 2 and "it is a tournament of mafia, not fbi-mafia" in r.output, r.output
    r = run("tournament", "mafia", "--resume", out, "--json", "--workers", "1")  # the game it is: accepted
    assert r.exit_code == 0, r.output
    report_ = json.loads(r.output.splitlines()[-1])
    assert report_["played"] == 0 and report_["recorded"] == 4 and report_["scheduled"] == 4
    r = run("match", "mafia", "a=random", "b=nosuchkind", "--games", "2", "--out", tmp_path / "x")
    assert r.exit_code == 2 and "sleuth" in r.output
    r = run("tournament", "mafia", "--entrant", "a=random", "--games", "2", "--out", tmp_path / "y")
    assert r.exit_code == 2 and "two or more" in r.output
    for extra in (["--alpha", "0.1"], ["--beta", "0.1"]):  # either alone, without --sprt
        r = run("match", "mafia", "a=random", "b=sleuth", "--games", "2", "--out", tmp_path / "z", *extra)
        assert r.exit_code == 2 and "--alpha and --beta belong to --sprt" in r.output, r.output


def test_a_py_agent_is_found_where_the_games_run_not_where_the_tournament_is_set_up(tmp_path):
    """``configuration(..., cwd=DIR)`` makes a ``py:`` agent up front from DIR, where its workers
    will play (the working directory of the process setting it up may be anywhere)."""
    games_dir = tmp_path / "bots"
    games_dir.mkdir()
    (games_dir / "agent_beside_the_games.py").write_text(
        "class First:\n    def act(self, observation, legal):\n        return legal.legal[0] if legal.legal else None\n", encoding="utf-8")
    assert Path.cwd() != games_dir
    entrants = [Entrant("first", "py:agent_beside_the_games:First"), Entrant("rnd", "random")]
    config = configuration("mafia", entrants, 2, players=6, cwd=str(games_dir))
    folder = Folder.create(tmp_path / "t", config)
    t = Tournament({"format": 2, **config})
    outcome = t.run(folder, LocalPool(t.settings, 1, tmp_path / "t"))
    folder.unlock()
    assert len(outcome.records) == 2 and not any(r["forfeits"] for r in outcome.records)


NOISY = """
import sys
legal = []
for line in sys.stdin:
    kind, _, rest = line.strip().partition(" ")
    if kind == "legal:":
        legal.append(rest)
    elif kind == "go":
        print("thinking", file=sys.stderr, flush=True)
        print(legal[0], flush=True)
        legal = []
"""


def test_a_game_played_again_replaces_what_a_crashed_run_left_of_it_and_nothing_else(tmp_path):
    """A worker replaying a game (a resumed run) removes that game's transcript and stderr logs,
    found by name, and leaves every other file of the folder as it is."""
    from arbiter.engine.arena.runner import Worker, log_name, transcript_name

    (tmp_path / "noisy.py").write_text(NOISY)
    config = configuration("fbi-mafia", [Entrant("noisy", f"exec:{PY} {tmp_path / 'noisy.py'}"), Entrant("rnd", "random")],
                           2, modes=("duel-3v3",), cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    game = t.games[1]
    seat = next(s for s, e in game.assignment.items() if e == "noisy")
    worker = Worker(t.settings)
    first = worker.play(game, tmp_path)
    files = tmp_path / "transcripts"
    transcript, log = files / transcript_name(game.index), files / log_name(game.index, seat)
    whole, told = transcript.read_text(), log.read_text()
    assert first["finished"] and told.startswith("thinking\n")
    transcript.write_text(whole[: len(whole) // 2])  # a crash mid-game: a cut transcript, a log to be appended to
    log.write_text("STALE\n")
    others = {files / transcript_name(0): "another game's", files / log_name(0, seat): "its log",
              files / "game-00001.notes": "not the worker's"}
    for path, text in others.items():
        path.write_text(text)
    again = worker.play(game, tmp_path)
    worker.close()
    assert {k: v for k, v in again.items() if k != "time"} == {k: v for k, v in first.items() if k != "time"}
    assert transcript.read_text() == whole and log.read_text() == told
    assert all(path.read_text() == text for path, text in others.items())


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


def test_a_tournament_records_its_defaults_and_names_the_option_a_bad_entrant_came_from(tmp_path):
    out = tmp_path / "t"
    r = run("match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "2", "--out", out,
            "--workers", "1", "--sprt", "0", "10")
    assert r.exit_code == 0, r.output
    config = json.loads((out / "tournament.json").read_text())
    assert (config["seed"], config["bot_timeout"], config["max_moves"], config["reuse"]) == (1, 10.0, 20000, False)
    assert config["sprt"] == {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}
    r = run("tournament", "mafia", "--entrant", "bad", "--entrant", "b=random", "--games", "2", "--out", tmp_path / "u")
    assert r.exit_code == 2 and "Invalid value for --entrant: 'bad': expected NAME=SPEC" in r.output, r.output
    r = run("match", "mafia", "bad", "b=random", "--games", "2", "--out", tmp_path / "v")
    assert r.exit_code == 2 and "'bad': expected NAME=SPEC" in r.output and "--entrant" not in r.output, r.output
    r = run("match", "fbi-mafia", "random", "sleuth", "--games", "2", "--out", tmp_path / "w")  # Classic Mafia's bot
    assert r.exit_code == 2 and "'sleuth': expected NAME=SPEC, e.g. mine=exec:./mybot or base=random, or one of " \
        "the game's built-in bots alone (random)" in r.output, r.output


def test_the_progress_bar_draws_on_a_terminal_at_most_every_tenth_of_a_second_and_always_the_end(capsys, monkeypatch):
    """``tournament``'s progress line (on a terminal only): done/total, games/s, the time left
    (minutes and seconds, hours past one, unknown before a game is timed) and the leader; one
    line redrawn in place, not more than every 0.1 s but for the last; a newline when it ends."""
    from arbiter.cli import tournament as command
    from arbiter.engine.arena.tournament import Progress

    clock = [100.0]
    monkeypatch.setattr(command.time, "monotonic", lambda: clock[0])
    hidden = command._Bar(False)  # not a terminal: nothing at all
    hidden.update(Progress(1, 4, 1, 2.0, None))
    hidden.close()
    assert capsys.readouterr().err == ""
    bar = command._Bar(True)
    bar.update(Progress(0, 4, 0, 0.0, None))
    assert capsys.readouterr().err == "\r" + "[....................] 0/4  0.0 games/s  ETA --:--".ljust(79)
    clock[0] += 0.05
    bar.update(Progress(1, 4, 1, 2.0, ("alpha", 0.5)))  # too soon: not drawn
    assert capsys.readouterr().err == ""
    clock[0] += 0.06
    bar.update(Progress(1, 4, 1, 2.0, ("alpha", 0.5)))  # 0.11 s after: 0.5 games/s, 3 games left, 6 s
    assert capsys.readouterr().err == "\r" + "[#####...............] 1/4  0.5 games/s  ETA 00:06  leader alpha 50%".ljust(79)
    bar.update(Progress(1, 9001, 1, 1.0, None))  # at once, but not the last: not drawn
    assert capsys.readouterr().err == ""
    clock[0] += 0.11
    bar.update(Progress(1, 9001, 1, 1.0, None))  # 9,000 s left
    assert capsys.readouterr().err.rstrip().endswith("ETA 2.5 h")
    clock[0] += 0.11
    bar.update(Progress(0, 3600, 1, 1.0, None))  # an hour exactly: in hours
    assert capsys.readouterr().err.rstrip().endswith("ETA 1.0 h")
    bar.update(Progress(4, 4, 4, 2.0, None))  # the last, at once
    assert capsys.readouterr().err.startswith("\r[####################] 4/4  2.0 games/s  ETA 00:00")
    bar.close()
    assert capsys.readouterr().err == "\n"


def test_a_tournament_reports_its_games_per_second_and_no_rate_when_no_time_passed(tmp_path, monkeypatch):
    """The last line and ``--json`` give the games played by this run per second of it; a run
    that took no time at all (here a frozen clock) gives no rate rather than dividing by 0."""
    args = ["match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "2", "--workers", "1"]
    r = run(*args, "--out", tmp_path / "t", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output.splitlines()[-1])
    assert summary["played"] == 2 and summary["seconds"] > 0
    assert summary["games_per_s"] == pytest.approx(2 / summary["seconds"], rel=0.01)
    r = run(*args, "--out", tmp_path / "u")
    assert r.exit_code == 0, r.output
    assert re.search(r"in \d+\.\d s, \d+\.\d games/s \(1 worker\)$", r.output.rstrip()), r.output  # not "1 workers"
    real = Tournament.run
    monkeypatch.setattr(Tournament, "run", lambda self, folder, pool, **kw: real(self, folder, pool, clock=lambda: 5.0, **kw))
    r = run(*args, "--out", tmp_path / "v", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output.splitlines()[-1])
    assert (summary["played"], summary["seconds"], summary["games_per_s"]) == (2, 0.0, None)
    r = run(*args, "--out", tmp_path / "w")
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith("played by this run\nin 0.0 s (1 worker)"), r.output
    r = run(*args[:-1], "2", "--out", tmp_path / "x")
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith("played by this run\nin 0.0 s (2 workers)"), r.output


def test_more_workers_than_games_start_one_for_each_game(tmp_path):
    """``--workers`` past a C int ended in an OverflowError's traceback (the pool's semaphore);
    a count far past the games started a process for each, every one but a few idle."""
    r = run("match", "mafia", "--players", "6", "a=random", "b=random", "--games", "2", "--workers",
            str(2 ** 63), "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith(" (2 workers)"), r.output


def test_a_folder_of_format_1_resumes_with_the_deals_it_began_with(tmp_path):
    """Format 1 folders (made before deals' seeds were drawn below 2**53) keep their deals: a
    run of one cut short and resumed by this arbiter plays the games a format-1 run plays, and
    a new folder is of format 2. (The seeds are those the format-1 arbiter drew.)"""
    from arbiter.engine.arena.schedule import deal_seed

    assert [deal_seed(1, d, 1) for d in range(3)] == [640032170, 426774304, 1115919524]
    out = tmp_path / "t"
    r = run("match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "6", "--out", out, "--workers", "1")
    assert r.exit_code == 0, r.output
    new = json.loads((out / "tournament.json").read_text())
    seeds = sorted({json.loads(line)["seed"] for line in (out / "results.jsonl").open()})
    assert new["format"] == 2 and seeds == sorted(deal_seed(1, d) for d in range(3)) and max(seeds) >= 2**31
    old = tmp_path / "old"
    _, whole = play(old, 1, games=6, form=1)
    assert json.loads((old / "tournament.json").read_text())["format"] == 1
    assert [g["seed"] for g in whole[::2]] == [640032170, 426774304, 1115919524]
    lines = (old / "results.jsonl").read_text().splitlines(keepends=True)
    (old / "results.jsonl").write_text("".join(lines[:3]))  # a run cut short after three games
    r = run("tournament", "--resume", old, "--workers", "1")
    assert r.exit_code == 0, r.output
    resumed = [json.loads(line) for line in (old / "results.jsonl").open()]
    assert without_time(sorted(resumed, key=lambda g: g["game"])) == without_time(sorted(whole, key=lambda g: g["game"]))


def test_a_hidden_roles_match_deals_roles_and_reports_by_side(tmp_path):
    """``--roles LEVEL`` on tournament and match: Hidden Roles could not be played in the arena
    at all. Each game is dealt its roles (recorded in its options and its transcript, which
    replays), results are by side (heroes, traitors), and the level is in tournament.json."""
    out = tmp_path / "t"
    r = run("match", "magic-maze", "--roles", "2", "--scenario", "1", "a=planner", "b=random", "--games", "4",
            "--workers", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("# Magic Maze, Hidden Roles level 2: 4 games; entrants a=planner, b=random"), r.stderr
    assert json.loads((out / "tournament.json").read_text())["roles"] == 2
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 4 and all(rec["options"] == {"players": 4, "roles": 2} for rec in records)
    assert {side for rec in records for side in rec["sides"].values()} <= {"hero", "traitor"}
    assert any("traitor" in rec["sides"].values() for rec in records)
    for rec in records:
        t = tr.read(out / rec["transcript"])
        assert t.options == {"players": 4, "roles": 2} and tr.replay(t).ok
    assert "traitor" in r.stdout and "hero" in r.stdout  # the table by side
    r = run("tournament", "--resume", out, "--roles", "3")  # the level is the folder's
    assert r.exit_code == 2 and "leave out --roles" in r.output, r.output
    r = run("match", "mafia", "a=random", "b=random", "--roles", "2", "--out", tmp_path / "m")
    assert r.exit_code == 2 and "Invalid value for --roles: Classic Mafia has no levels" in r.output, r.output
    assert not (tmp_path / "m").exists()


def test_a_tournament_plays_a_custom_deck_kept_in_its_folder(tmp_path):
    """``--deck FILE`` on tournament and match, as ``play`` takes it: every game is set up with
    the deck, whose document is kept in tournament.json, so the folder resumes with the file gone;
    a deck refused names the file, before any folder is made."""
    deck = tmp_path / "friday.yaml"
    deck.write_text("game: mafia\nkind: deck\ntitle: Friday table\n"
                    "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2, chameleon: 1, fighter: 1}\n")
    out = tmp_path / "t"
    r = run("match", "mafia", "--deck", deck, "a=random", "b=sleuth", "--games", "4", "--workers", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("# Classic Mafia, custom deck Friday table: 4 games;"), r.stderr
    assert json.loads((out / "tournament.json").read_text())["deck"]["title"] == "Friday table"
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {rec["variant"] for rec in records} == {"9-players"} and all(len(rec["seats"]) == 9 for rec in records)
    assert all(rec["options"]["title"] == "Friday table" for rec in records)
    deck.unlink()
    lines = (out / "results.jsonl").read_text().splitlines(keepends=True)
    (out / "results.jsonl").write_text("".join(lines[:2]))  # two games to play again: never ended, no transcript
    for n in (2, 3):
        (out / "transcripts" / f"game-0000{n}.yaml").unlink()
    r = run("tournament", "--resume", out, "--workers", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[-1])["played"] == 2, r.output
    roles = tmp_path / "roles.yaml"
    roles.write_text("game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 1, hero: 3}\n")
    r = run("match", "mafia", "--deck", roles, "a=random", "b=random", "--out", tmp_path / "m")
    assert r.exit_code == 2 and f"Invalid value for --deck: {roles}: Classic Mafia takes a deck" in r.output, r.output
    assert not (tmp_path / "m").exists()
    r = run("match", "magic-maze", "--deck", roles, "--scenario", "1", "a=planner", "b=random", "--games", "2",
            "--workers", "1", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    [rec, _] = [json.loads(line) for line in (tmp_path / "r" / "results.jsonl").read_text().splitlines()]
    assert rec["options"]["deck"]["level"] == 2 and set(rec["sides"].values()) <= {"hero", "traitor"}


def test_a_game_the_machine_could_not_start_is_played_again_by_a_resume(tmp_path, monkeypatch):
    """Such a game (its record's ``error``) stayed unfinished for good: a resume once the
    machine had files again played none of them, and an SPRT's block with one stayed void. A
    resume plays it again; its new record is the game's."""
    import errno

    (tmp_path / "bot.py").write_text((REPO / "docs" / "examples" / "random_bot.py").read_text())
    entrants = [Entrant("prog", f"exec:{PY} {tmp_path / 'bot.py'}"), Entrant("rnd", "random")]
    config = configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    folder = Folder.create(tmp_path / "t", t.config)

    def no_more_files(*args, **kw):
        raise OSError(errno.EMFILE, "Too many open files")

    with monkeypatch.context() as m:
        m.setattr(subprocess, "Popen", no_more_files)
        failed = Worker(t.settings).play(t.games[0], folder.path)
    assert failed["error"] and not failed["finished"]
    writer = folder.writer()
    writer.append(failed)
    writer.close()
    folder.unlock()
    r = run("tournament", "--resume", tmp_path / "t", "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[-1])["played"] == 2  # game 0 again, and game 1
    records = {r["game"]: r for r in map(json.loads, (tmp_path / "t" / "results.jsonl").read_text().splitlines()[1:])}
    assert sorted(records) == [0, 1] and all(r["finished"] and r["error"] is None for r in records.values())
    r = run("tournament", "--resume", tmp_path / "t", "--workers", "1", "--json")  # nothing more to play
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[-1])["played"] == 0, r.output


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


@pytest.mark.parametrize("reuse", [False, True])
def test_a_worker_without_a_folder_returns_no_empty_log(tmp_path, reuse):
    """A worker without a folder of its own (Ray's) returns a game's files in its record; a
    reused bot still holds its log open then, and its empty log came back and was written
    beside the transcripts. A log with the bot's stderr comes back."""
    (tmp_path / "bot.py").write_text((REPO / "docs" / "examples" / "random_bot.py").read_text())
    (tmp_path / "loud.py").write_text("import sys\nsys.stderr.write('hello\\n'); sys.stderr.flush()\n"
                                      + (REPO / "docs" / "examples" / "random_bot.py").read_text())
    for bot, logged in (("bot.py", False), ("loud.py", True)):
        entrants = [Entrant("prog", f"exec:{PY} {tmp_path / bot}"), Entrant("rnd", "random")]
        config = configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), cwd=str(tmp_path), reuse=reuse)
        t = Tournament({"format": 2, **config})
        worker = Worker(t.settings)
        try:
            record = worker.play(t.games[0], None)
        finally:
            worker.close()
        logs = {name: data for name, data in record["files"].items() if name.endswith(".stderr.log")}
        assert record["finished"] and (list(logs.values()) == [b"hello\n"] if logged else logs == {}), (bot, logs)


def test_the_first_line_names_a_few_entrants_of_many_and_counts_the_rest(tmp_path):
    """The run's first line listed every entrant: 500 of them made a line of about 9,000
    characters. Past six it names the first five and counts the others; six or fewer are
    listed as before."""
    many = [a for i in range(1, 8) for a in ("--entrant", f"e{i}=random")]
    r = run("tournament", "fbi-mafia", "--mode", "duel-3v3", *many, "--games", "1", "--workers", "1",
            "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    first = r.stderr.splitlines()[0]
    assert first == (f"# FBI vs Mafia: 7 games (1 asked, rounded up to whole blocks of 7); 7 entrants: e1=random, "
                     f"e2=random, e3=random, e4=random, e5=random and 2 more (tournament.json lists them); results in "
                     f"{tmp_path / 't'}"), first
    six = [a for i in range(1, 7) for a in ("--entrant", f"e{i}=random")]
    r = run("tournament", "fbi-mafia", "--mode", "duel-3v3", *six, "--games", "1", "--workers", "1",
            "--out", tmp_path / "u")
    assert r.exit_code == 0, r.output
    assert "; entrants e1=random, e2=random, e3=random, e4=random, e5=random, e6=random; results in " \
        in r.stderr.splitlines()[0], r.stderr


@pytest.mark.parametrize("max_moves", [20_000, 5])
def test_a_record_made_from_a_transcript_is_the_workers_but_for_its_time(tmp_path, max_moves):
    """``record_from_transcript`` (a game whose line a stopped run never wrote) gives the record
    the worker gave, of a game over or stopped at --max-moves, but for its time (null); the
    transcript of another game of the tournament is refused, naming the file."""
    from arbiter.engine.arena.runner import record_from_transcript
    from arbiter.engine.errors import TranscriptError

    entrants = [Entrant("rnd", "random"), Entrant("sleuth", "sleuth")]
    t = Tournament({"format": 2, **configuration("mafia", entrants, 2, players=6, max_moves=max_moves)})
    worker = Worker(t.settings)
    records = [worker.play(g, tmp_path) for g in t.games]
    assert [r["finished"] for r in records] == [max_moves > 5] * 2 and records[0]["forfeits"] == []
    for g, r in zip(t.games, records):
        assert record_from_transcript(g, tmp_path / r["transcript"], t.settings) == {**r, "time": None}
    with pytest.raises(TranscriptError, match=r"game-00001.yaml: not a transcript of this tournament's game 0 "):
        record_from_transcript(t.games[0], tmp_path / records[1]["transcript"], t.settings)


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

"""End-to-end tests of the ``arbiter`` command for Magic Maze (``docs/rules/magic-maze.md``): lines
typed over real time, and external bots.

How these tests run (in-process, or a child process with a hard timeout; never a traceback) and what
they share: ``tests/maze_cli_staging.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.helpers import precondition, responses, run, run_referee, write
from tests.maze_cli_staging import MAZE, moves_of, notes_of, referee_env, replay_ok


# -- real time --------------------------------------------------------------------------------------


def test_realtime_stamps_every_line_with_the_wall_clock_and_replays(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", """
        p1 draw
        board
        # a comment is not stamped
        p1 draw

        p1 draw
        @5 p1 draw
        p1 draw
    """)
    plain, live = tmp_path / "plain.yaml", tmp_path / "live.yaml"
    r = run("play", "magic-maze", "--scenario", 1, "--seed", 1, "--moves", moves, "--transcript", plain)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    r = run("play", "magic-maze", "--scenario", 1, "--seed", 1, "--realtime", "--moves", moves,
            "--transcript", live)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    assert all(x[0].startswith("= ") for x in responses(r.stdout))
    # without --realtime each line takes the scenario's step; with it, the time since the start
    assert [m["time"] for m in moves_of(plain)] == [1, 2, 3, 5, 6]
    times = [m["time"] for m in moves_of(live)]
    assert [m["text"] for m in moves_of(live)] == ["draw"] * 5
    assert times[:3] == sorted(times[:3]) and times[2] < 3, f"the lines were not stamped: {times}"
    assert times[3] == 5, "a line's own stamp is kept"
    assert times[4] >= 5, "a stamp never goes before the clock"
    assert times == sorted(times)
    ticks = [e["tick"]["time"] for e in yaml.safe_load(live.read_text(encoding="utf-8"))["log"] if "tick" in e]
    # the stamped 'board' lets time pass: a tick, unless it came in the same millisecond
    assert len(ticks) <= 1 and all(times[0] <= tick <= times[1] for tick in ticks), ticks
    assert "5 moves, unfinished (resumable)" in replay_ok(live)


def test_wall_clock_stamps_are_never_before_the_clock() -> None:
    session = Session(MAZE, "1", seed=1, options={"players": 1})
    now = [100.0]

    def typed():  # each line arrives at its wall-clock second
        for at, line in [(100.25, "p1 draw"), (100.5, "  "), (100.75, "# note"), (101.0, "@9 p1 draw"),
                         (101.5, "board"), (102.0, "p1 draw")]:
            now[0] = at
            yield line

    out = list(Match(Protocol(session), {}, typed(), realtime=True, clock=lambda: now[0]).run())
    assert len(out) == 4  # the blank line and the comment get no answer
    assert [m.time_ms for m in session.moves] == [250, 9000, 9000]  # the game's clock ran ahead of the wall


def test_realtime_lines_typed_over_time_are_recorded_with_their_times(tmp_path: Path) -> None:
    """A person types a line, reads the answer, waits 0.4 s, types the next: each line is
    stamped when it arrives, so the recorded times are at least 0.4 s apart."""
    args = [sys.executable, "-m", "arbiter.cli.main", "play", "magic-maze", "--scenario", "1", "--seed", "1",
            "--realtime", "--transcript", "t.yaml"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=referee_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(30, proc.kill)  # a referee that hangs fails the test, never the suite
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def read_until(test) -> list[str]:  # type: ignore[no-untyped-def]
            got = []
            while True:
                line = proc.stdout.readline()
                precondition(line != "", "the referee ended early: " + "".join(got))
                got.append(line)
                if test(line):
                    return got

        read_until(lambda line: line.startswith("# awaiting: p1"))  # the referee is ready
        answers = []
        for line in ("p1 draw", "p1 draw", "p1 draw"):
            time.sleep(0.4)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answers.append(read_until(lambda text: text == "\n")[0].rstrip("\n"))
        out, err = proc.communicate(timeout=30)  # closes the referee's input: end of the lines
    finally:
        watchdog.cancel()
    assert proc.returncode == 4 and "Traceback" not in err, err  # the input ended before the game did
    assert answers == ["= p1 draw"] * 3
    times = [m["time"] for m in moves_of(tmp_path / "t.yaml")]
    assert times[0] >= 0.35, times
    assert all(b - a >= 0.35 for a, b in zip(times, times[1:])), times
    assert times[-1] < 25, times
    replay_ok(tmp_path / "t.yaml")


def test_realtime_with_a_bot_seat_keeps_time_in_order(tmp_path: Path) -> None:
    """p2 is a planner bot; with --realtime its inputs and p1's typed lines are all stamped with
    the wall clock (never before the clock), so the record is in time order."""
    moves = write(tmp_path / "moves.txt", "p1 stare p2\np1 pawn p2\np1 stare p2\n")
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 1, "--players", 2, "--seed", 1, "--bot", "p2=planner",
            "--realtime", "--moves", moves, "--transcript", t)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    recorded = moves_of(t)
    seats = [m["seat"] for m in recorded]
    assert seats[0] == "p2" and seats.count("p1") == 3, seats
    times = [m["time"] for m in recorded]
    assert times == sorted(times), times
    assert times[-1] < 10, f"wall-clock stamps of a quick run, not the scenario's steps: {times}"
    replay_ok(t)


# -- external bots ----------------------------------------------------------------------------------


WAIT_BOT = r'''
import sys
# answers every `go` with `wait` (nothing to do now), and logs what it is told
log = open(sys.argv[1], "a", encoding="utf-8")
for line in sys.stdin:
    log.write(line)
    log.flush()
    if line.startswith("go "):
        print("wait", flush=True)
'''

STARE_THEN_CRASH_BOT = r'''
import sys
# stares at p1 twice, then falls over
answered = 0
for line in sys.stdin:
    if line.startswith("go "):
        if answered == 2:
            sys.exit(3)
        print("stare p1", flush=True)
        answered += 1
'''

ILLEGAL_BOT = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        print("move purple up", flush=True)
'''


def bot(tmp_path: Path, name: str, source: str, *args: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"exec:{sys.executable} {path}" + "".join(f" {a}" for a in args)


def test_an_exec_bot_that_answers_wait_is_idle_not_a_forfeit(tmp_path: Path) -> None:
    log = tmp_path / "p2.log"
    write(tmp_path / "moves.txt", """
        p1 stare p2
        p1 move yellow north
        p1 pawn p2
    """)
    proc, _ = run_referee(["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1",
                        "--bot", f"p2={bot(tmp_path, 'wait', WAIT_BOT, str(log))}", "--bot-timeout", "5",
                        "--moves", "moves.txt", "--transcript", "t.yaml"], tmp_path, timeout=60)
    assert proc.returncode == 4, proc.stderr  # the input ended before the game did
    assert [x[0] for x in responses(proc.stdout)] == ["= p1 stare p2", "= p1 move yellow north 1", "= p1 pawn p2"]
    assert "? bot" not in proc.stdout and "forfeit" not in proc.stdout
    told = log.read_text(encoding="utf-8").splitlines()
    assert told.count("go p2 any") == 4  # asked before each line and once more when they ran out
    assert "event: p1 stares at p2." in told
    assert "legal: move purple west 1" in told  # p2 holds west; the planner's opening
    t = tmp_path / "t.yaml"
    assert notes_of(t) == [] and [m["seat"] for m in moves_of(t)] == ["p1"] * 3
    assert "3 moves, unfinished (resumable)" in replay_ok(t)


def test_exec_bots_that_all_wait_let_the_sand_run_out(tmp_path: Path) -> None:
    logs = {s: tmp_path / f"{s}.log" for s in ("p1", "p2")}
    args = ["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1", "--transcript", "t.yaml"]
    for seat, log in logs.items():
        args += ["--bot", f"{seat}={bot(tmp_path, 'wait', WAIT_BOT, str(log))}"]
    proc, _ = run_referee(args, tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    assert [x[0] for x in resp] == ["= time 180", "= board"]
    assert "result: The sand ran out at 180 s: everyone loses." in resp[0]
    assert resp[1][-1] == "result: The sand ran out at 180 s: everyone loses."
    for seat, log in logs.items():
        assert log.read_text(encoding="utf-8").splitlines().count(f"go {seat} any") == 1
    t = tmp_path / "t.yaml"
    doc = yaml.safe_load(t.read_text(encoding="utf-8"))
    assert doc["log"][-1] == {"tick": {"time": 180}}
    assert doc["result"]["reason"] == "time" and notes_of(t) == [] and moves_of(t) == []
    assert "0 moves, finished: The sand ran out at 180 s" in replay_ok(t)


def test_an_exec_bot_that_crashes_leaves_its_seat_idle_and_the_game_goes_on(tmp_path: Path) -> None:
    """Magic Maze has no forfeit input: a failed bot is a note and one framed '? bot:' answer;
    its seat is idle from then on, the other seats play on to the end, and the transcript replays."""
    proc, _ = run_referee(["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1",
                        "--bot", "p1=planner", "--bot", f"p2={bot(tmp_path, 'crash', STARE_THEN_CRASH_BOT)}",
                        "--bot-timeout", "5", "--transcript", "t.yaml"], tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    heads = [x[0] for x in resp]
    assert heads[:2] == ["= p2 stare p1", "= p2 stare p1"]
    failed = [h for h in heads if h.startswith("? ")]
    assert len(failed) == 1 and re.fullmatch(
        r"\? bot: p2's bot failed \(the bot closed its output \(exit status 3\)\); the seat is idle from now on",
        failed[0]), failed
    after = heads[heads.index(failed[0]) + 1:]
    assert after and all(h.startswith(("= p1 ", "= time ")) for h in after[:-1]) and after[-1] == "= board"
    assert "result:" in proc.stdout
    t = tmp_path / "t.yaml"
    assert notes_of(t) == [{"seat": "p2", "forfeit": "the bot closed its output (exit status 3)"}]
    assert "finished: " in replay_ok(t)


def test_when_every_bot_has_failed_time_passes_to_the_end(tmp_path: Path) -> None:
    """With a bot on every seat and every one failed, no seat can act: the game ended there,
    unfinished, saying "the input ended before the game did" (status 4) though nothing was read,
    and a tournament counted it for no one. As when one seat is idle, time passes: the sand runs
    out and everyone loses."""
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "2", "--bots", "exec:false",
            "--transcript", t)
    assert r.exit_code == 0 and r.stderr == "", r.output
    assert r.stdout.count("the seat is idle from now on") == 2
    assert "result: The sand ran out at 180 s: everyone loses." in r.stdout
    assert [n["seat"] for n in notes_of(t)] == ["p1", "p2"] and moves_of(t) == []
    assert "0 moves, finished: The sand ran out at 180 s" in replay_ok(t)


def test_an_exec_bot_with_an_unreadable_input_is_a_note_and_an_idle_seat(tmp_path: Path) -> None:
    proc, _ = run_referee(["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1",
                        "--bot", "p1=planner", "--bot", f"p2={bot(tmp_path, 'bad', ILLEGAL_BOT)}",
                        "--transcript", "t.yaml"], tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    failed = [x for x in resp if x[0].startswith("? ")]
    assert len(failed) == 1, resp
    assert failed[0][0].startswith("? bot: p2's bot failed (illegal input 'move purple up': syntax: "
                                   "'up' is not a direction"), failed[0]
    assert failed[0][0].endswith("the seat is idle from now on")
    notes = notes_of(tmp_path / "t.yaml")
    assert len(notes) == 1 and notes[0]["seat"] == "p2" and "illegal input 'move purple up'" in notes[0]["forfeit"]
    assert "finished: " in replay_ok(tmp_path / "t.yaml")


def test_when_time_passes_as_the_bots_go_begins_the_bots_still_get_their_go(tmp_path: Path) -> None:
    """A person's move at 14 s, a vote closing at 15 s: the clock moved as the bots' round began,
    and their go was lost until the person's next line at 20 s ("each bot gets one go after each
    of the person's accepted moves and each time the clock moves")."""
    moves = write(tmp_path / "m.txt", "@10 p1 accuse p3\n@14 p1 eye p2\n@20 p1 eye p3\n")
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 2, "--players", 4, "--roles", 2, "--seed", 3, "--as", "p1",
            "--bots", "random", "--moves", moves, "--transcript", t)
    assert r.exit_code in (0, 4), r.output
    log = yaml.safe_load(t.read_text(encoding="utf-8"))["log"]
    after = [e for e in log if "tick" in e or "move" in e]
    i = next(i for i, e in enumerate(after) if e.get("tick", {}).get("time") == 15)
    precondition(after[i - 1]["move"]["text"] == "eye p2", "the person's move at 14 s, then the vote closing")
    assert after[i + 1]["move"]["seat"] != "p1", f"a bot plays before the person's move at 20 s: {after[i:i + 3]}"


def _ticks_and_moves(t: Path) -> list[tuple[str, object]]:
    log = yaml.safe_load(t.read_text(encoding="utf-8"))["log"]
    return [("tick", e["tick"]["time"]) if "tick" in e else (e["move"]["text"], e["move"]["time"])
            for e in log if "tick" in e or "move" in e]


def test_an_unstamped_move_past_two_moments_of_time_records_each_at_its_moment(tmp_path: Path) -> None:
    """A vote closing at 99.5 s and a mission's mark at 100 s, then an unstamped move from
    98.9 s: each change is recorded at its moment and announced before the move, which lands a
    step after the last (the mark was once recorded at 100.5 s, folded into the move's answer)."""
    moves = write(tmp_path / "m.txt", "@94.5 p1 accuse p2\n@98.9 time\np1 eye p4\n")
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 2, "--players", 4, "--roles", 3, "--seed", 1, "--moves", moves,
            "--transcript", t)
    assert _ticks_and_moves(t)[1:] == [("tick", 98.9), ("tick", 99.5), ("tick", 100), ("eye p4", 101)], r.output
    assert "= time 100\n" in r.output and r.output.index("= time 100\n") < r.output.index("= p1 eye p4")


@pytest.mark.parametrize("line", ["eye p3", "p1 eye p3"])
def test_a_seats_own_move_without_its_name_lets_time_pass_first_as_with_it(tmp_path: Path, line: str) -> None:
    moves = write(tmp_path / "m.txt", f"@10 accuse p2\n@14.5 time\n{line}\n")
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 2, "--players", 4, "--roles", 2, "--seed", 1, "--as", "p1",
            "--moves", moves, "--transcript", t)
    assert _ticks_and_moves(t) == [("accuse p2", 10), ("tick", 14.5), ("tick", 15), ("eye p3", 16)], r.output
    assert "= time 15\n" in r.output


@pytest.mark.parametrize("line", ["@200", "@200 xyzzy", "@200 legal p9", "@200 events p1 x"])
def test_a_stamped_line_refused_for_its_words_moves_no_time(tmp_path: Path, line: str) -> None:
    """As the library answers it: refused before time moves (it once ran the sand out, lost
    the game, then refused the line)."""
    moves = write(tmp_path / "m.txt", f"{line}\n")
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 2, "--players", 2, "--seed", 1, "--moves", moves, "--transcript", t)
    assert r.exit_code == 3 and "= time" not in r.output and _ticks_and_moves(t) == [], r.output
    session = Session(MAZE, "2", seed=1, options={"players": 2})
    assert Protocol(session).handle(line).startswith("? ") and session.clock_ms == 0


@pytest.mark.parametrize("leave, status", [("end of input", 4), ("ctrl-c", 130)])
def test_a_realtime_session_left_as_the_person_thinks_keeps_the_time_that_ran(tmp_path: Path, leave: str,
                                                                              status: int) -> None:
    """Left with ``quit``, the sand that ran while the person thought was recorded (the line's
    stamp); left by the end of the input (Ctrl-D) or Ctrl-C, it was not, and a resumed game had
    it back. The wall clock's moment is recorded then too."""
    import signal

    args = [sys.executable, "-m", "arbiter.cli.main", "play", "magic-maze", "--scenario", "1", "--seed", "1",
            "--realtime", "--transcript", "t.yaml"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=referee_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(30, proc.kill)
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        while not proc.stdout.readline().startswith("# awaiting: p1"):
            pass
        proc.stdin.write("p1 draw\n")
        proc.stdin.flush()
        while proc.stdout.readline() != "\n":  # its answer
            pass
        time.sleep(0.6)  # the person thinks
        if leave == "ctrl-c":
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        watchdog.cancel()
    assert proc.returncode == status and "Traceback" not in err, err
    log = yaml.safe_load((tmp_path / "t.yaml").read_text())["log"]
    move, tick = log[-2]["move"], log[-1].get("tick")
    assert tick is not None and tick["time"] - move["time"] >= 0.55, log[-2:]
    replay_ok(tmp_path / "t.yaml")

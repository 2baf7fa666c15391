"""Entrants that fail in a tournament's games: a program that crashes, hangs, cheats or cannot
start, and a ``py:`` agent that cannot be made, forfeit their seats and the tournament finishes
(an SPRT decides against a program that never starts); a ``py:`` agent is found where the
games run. A bot the machine could not start (no files, memory or processes left) is no
entrant's fault: its game is recorded unfinished, and a resume plays it again.

The failing bots are tiny Python programs; time-outs are short, and speed is never asserted."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from arbiter.engine.arena import report
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.pool import LocalPool
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.runner import Worker
from arbiter.engine.arena.tournament import Tournament, configuration
from arbiter.engine import transcript as tr

from tests.arena_staging import PY, play
from tests.helpers import REPO, run


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


def _could_not_start(tmp_path, monkeypatch) -> tuple[Folder, dict]:
    """A tournament's folder (an exec: entrant and a built-in one, two games) and the record of
    its game 0 played when the machine could not start the program (no more files): its
    transcript is written, its line is not."""
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
        return folder, Worker(t.settings).play(t.games[0], folder.path)


def test_a_game_the_machine_could_not_start_is_played_again_by_a_resume(tmp_path, monkeypatch):
    """Such a game (its record's ``error``) stayed unfinished for good: a resume once the
    machine had files again played none of them, and an SPRT's block with one stayed void. A
    resume plays it again; its new record is the game's."""
    folder, failed = _could_not_start(tmp_path, monkeypatch)
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


def test_a_game_the_machine_could_not_start_left_without_its_line_is_not_counted_as_ended(tmp_path, monkeypatch):
    """A run stopped after such a game's transcript was written and before its line: the resume
    writes its record from the transcript (its ``error``) and plays it again, as any such game.
    It said "game 0 ended without its record ... recorded now from its transcript" of a game
    that did not end, and counted it twice: "2 of 2 games recorded; 1 from their transcripts,
    2 played by this run". It is counted once, as played by the run."""
    folder, failed = _could_not_start(tmp_path, monkeypatch)  # its transcript written, its line not
    folder.unlock()
    assert failed["error"] and (folder.transcripts / "game-00000.yaml").exists()
    r = run("tournament", "--resume", tmp_path / "t", "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    assert "ended without" not in r.stderr, r.stderr
    summary = json.loads(r.stdout)
    assert (summary["recorded"], summary["played"], summary["from_transcripts"]) == (2, 2, 0)
    lines = [json.loads(line) for line in (tmp_path / "t" / "results.jsonl").read_text().splitlines()]
    assert [(r["game"], r["error"] is None, r["time"] is None) for r in lines] == [
        (0, False, True), (0, True, False), (1, True, False)]  # its error kept, then the game played again


def test_a_ctrl_c_as_such_a_game_played_again_is_recorded_counts_it_as_played(tmp_path, monkeypatch):
    """The same game, played again by the resume, its new record written just as a Ctrl-C came
    (before the run counted it): the interrupted run counts from the file, and a game whose
    line it had written from the transcript was left out of what it played. Its last record,
    the worker's (it has a time), is this run's play."""
    import errno

    from arbiter.engine.arena import results
    from tests.arena_staging import InProcess

    (tmp_path / "bot.py").write_text((REPO / "docs" / "examples" / "random_bot.py").read_text())
    entrants = [Entrant("prog", f"exec:{PY} {tmp_path / 'bot.py'}"), Entrant("rnd", "random")]
    config = {"format": 2, **configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), cwd=str(tmp_path))}
    t = Tournament(config)
    folder = Folder.create(tmp_path / "t", config)

    def no_more_files(*args, **kw):
        raise OSError(errno.EMFILE, "Too many open files")

    with monkeypatch.context() as m:
        m.setattr(subprocess, "Popen", no_more_files)
        Worker(t.settings).play(t.games[0], folder.path)  # its transcript written, its line not

    class Interrupted(results.ResultsWriter):
        def append(self, record: dict) -> None:
            super().append(record)
            if record["time"] is not None:  # game 0 played again: written whole, not yet counted
                raise KeyboardInterrupt

    monkeypatch.setattr(results, "ResultsWriter", Interrupted)
    outcome = t.run(folder, InProcess(t.settings, folder.path))
    folder.unlock()
    assert outcome.interrupted and (outcome.played, outcome.recovered) == (1, [])
    assert [(r["game"], r["error"]) for r in outcome.records] == [(0, None)]

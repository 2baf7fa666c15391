"""The ``tournament`` and ``match`` commands as their user sees them: the folders they refuse to
fill and the options a resume refuses, the defaults they record, the option a bad entrant came
from, their first line, the progress bar on a terminal, the games per second, and the workers
they start."""

from __future__ import annotations

import json
import re

import pytest

from arbiter.engine.arena.tournament import Tournament

from tests.helpers import run


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
    assert report_["requested"] == 3  # (the games asked, which the text says beside the scheduled ones)
    r = run("match", "mafia", "a=random", "b=nosuchkind", "--games", "2", "--out", tmp_path / "x")
    assert r.exit_code == 2 and "sleuth" in r.output
    r = run("tournament", "mafia", "--entrant", "a=random", "--games", "2", "--out", tmp_path / "y")
    assert r.exit_code == 2 and "two or more" in r.output
    for extra in (["--alpha", "0.1"], ["--beta", "0.1"]):  # either alone, without --sprt
        r = run("match", "mafia", "a=random", "b=sleuth", "--games", "2", "--out", tmp_path / "z", *extra)
        assert r.exit_code == 2 and "--alpha and --beta belong to --sprt" in r.output, r.output


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


def test_a_second_ctrl_c_as_the_workers_stop_still_says_how_to_go_on(capsys) -> None:
    """The second Ctrl-C of a double press (``timeout -s INT`` sends two, a third of the time)
    landed in the first one's wait for the workers: the run ended with "interrupted" alone,
    without the report or the way to go on, and without waiting for the workers. It says how to
    resume, after the workers' stop was waited for, with Ctrl-C held off meanwhile."""
    import signal
    from types import SimpleNamespace

    from arbiter.cli import tournament as command

    closes = []

    class Pool:
        def close(self, cancel: bool = False) -> None:
            closes.append((cancel, signal.getsignal(signal.SIGINT) is signal.SIG_IGN))

    def run(*args, **kwargs):
        raise KeyboardInterrupt

    t = SimpleNamespace(games=[1, 2], block=2, rules=SimpleNamespace(title="FBI vs Mafia"), entrants=[], run=run)
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(SystemExit) as ended:
        command._play(t, SimpleNamespace(path="runs/t"), Pool(), {"games": 2}, {"json_mode": True})
    assert ended.value.code == 130 and closes == [(True, True)] and signal.getsignal(signal.SIGINT) is before
    assert capsys.readouterr().err.endswith("interrupted; go on with: arbiter tournament --resume runs/t\n")

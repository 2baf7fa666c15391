"""How a command ends when it is stopped from outside: Ctrl-C (and SIGTERM, SIGHUP) at any
instant ends with status 130 and says what to resume from; a reader that went away (``| head``)
stops it quietly with status 141; a standard output that refuses writes ends the run with one
line and status 1, a standard error that does changes no status; a disk that fills up under a
transcript says so and how to resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arbiter.cli.main import main
from arbiter.engine import transcript as tr
from tests.helpers import REPO, run, tree_env


def test_a_handled_ctrl_c_ends_with_status_130_after_code_made_from_a_string(tmp_path: Path) -> None:
    """A Ctrl-C that left code compiled from a string (a named tuple being made as a module is
    imported) is marked unhandled by CPython 3.11 even once caught; every command's message and
    status 130 still end the run, not a kill by SIGINT after the message (``python -m``)."""
    (tmp_path / "ctrl_c_in_made_code.py").write_text(
        "from arbiter.cli.common import interrupted\n"
        "try:\n"
        "    eval('(_ for _ in ()).throw(KeyboardInterrupt)')\n"
        "except KeyboardInterrupt:\n"
        "    interrupted('interrupted: 0 of 2 checked')\n", encoding="utf-8")
    env = tree_env()
    proc = subprocess.run([sys.executable, "-m", "ctrl_c_in_made_code"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted: 0 of 2 checked\n")


def test_a_ctrl_c_a_command_does_not_handle_ends_with_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """``games`` and ``validate`` stop on Ctrl-C where they are: one line and the documented
    status 130 (Click alone says ``Aborted!`` with status 1)."""
    import arbiter.cli.data as data_cli

    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(data_cli, "tabulate", stop)
    monkeypatch.setattr(data_cli, "_report", stop)
    for command in ("games", "validate"):
        r = run(command)
        assert (r.exit_code, r.output) == (130, "interrupted\n"), command


def _made_while_importing() -> None:
    """A Ctrl-C landing in a descriptor's ``__set_name__`` while a class is made (a dataclass as
    its module is imported): CPython 3.11 raises it as the cause of a ``RuntimeError``."""
    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            raise KeyboardInterrupt

    type("Response", (), {"body": Field()})


def test_a_ctrl_c_wrapped_while_a_class_is_made_ends_with_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """Killing ``play`` with SIGINT as it loaded its code once ended in a traceback ending
    ``RuntimeError: Error calling __set_name__ ...``: a Ctrl-C all the same. Any other
    ``RuntimeError`` is still the error it is."""
    import arbiter.cli.data as data_cli

    monkeypatch.setattr(data_cli, "_report", lambda *a, **k: _made_while_importing())
    r = run("validate")
    assert (r.exit_code, r.output) == (130, "interrupted\n")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(data_cli, "_report", broken)
    r = CliRunner().invoke(main, ["validate"])
    assert isinstance(r.exception, RuntimeError) and str(r.exception) == "a bug"


def test_an_interrupted_run_without_a_stderr_still_ends_with_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """No stderr to say it on (None, as under pythonw, or closed): the status says it alone."""
    from arbiter.cli.entry import interrupted

    for stderr in (None, open(os.devnull, "w")):
        if stderr is not None:
            stderr.close()
        monkeypatch.setattr(sys, "stderr", stderr)
        with pytest.raises(SystemExit) as ended:
            interrupted("interrupted")
        assert ended.value.code == 130


def test_a_ctrl_c_during_play_ends_with_status_130_and_names_the_transcript_to_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` stopped by Ctrl-C mid-game: status 130, and where a transcript is being written,
    the message names it (the game can be resumed from it); without one, just ``interrupted``."""
    from arbiter.engine.match import Match

    def stop(self: Match):
        yield from ()
        raise KeyboardInterrupt

    monkeypatch.setattr(Match, "run", stop)
    path = tmp_path / "game.yaml"
    r = run("play", "mafia", "--seed", 1, "--bots", "random", "--transcript", path)
    assert r.exit_code == 130 and r.output.endswith(f"\ninterrupted; the transcript {path} can be resumed\n"), r.output
    r = run("play", "mafia", "--seed", 1, "--bots", "random")
    assert r.exit_code == 130 and r.output.endswith("\ninterrupted\n"), r.output


def test_a_ctrl_c_while_the_command_starts_ends_with_status_130(tmp_path: Path) -> None:
    """A Ctrl-C while the command's modules are imported (Click, ~30 ms) ends the run as one
    at any later instant does: one line, status 130, no traceback. Here it is raised by the
    import of Click itself, through the entry both ``arbiter`` and ``python -m arbiter`` run."""
    stop_click = (
        "import sys\n"
        "class Stop:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'click':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Stop())\n"
        "sys.argv = ['arbiter', 'games']\n"
        "from arbiter.cli.entry import run\n"
        "run()\n")
    env = tree_env()
    proc = subprocess.run([sys.executable, "-c", stop_click], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")
    wrapped = stop_click.replace("raise KeyboardInterrupt", "type('R', (), {'b': type('F', (), {'__set_name__': "
                                 "lambda *a: (_ for _ in ()).throw(KeyboardInterrupt)})()})")
    proc = subprocess.run([sys.executable, "-c", wrapped], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")
    whole = subprocess.run([sys.executable, "-m", "arbiter", "games"], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=60)
    assert whole.returncode == 0 and whole.stdout.startswith("game "), whole.stderr


def test_once_the_command_is_done_a_late_ctrl_c_or_kill_is_ignored() -> None:
    """A Ctrl-C in a run's last instants, after the command had returned, killed the process by
    SIGINT with nothing said (4 runs of 30 at a game's end); the exit status is set by then."""
    code = ("import signal, sys\nsys.argv = ['arbiter', 'games']\nfrom arbiter.cli.entry import run\n"
            "try:\n    run()\nexcept SystemExit as done:\n    status = done.code\n"
            "print(status, [signal.getsignal(s) is signal.SIG_IGN for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert proc.stdout.splitlines()[-1] == "0 [True, True, True]", proc.stdout + proc.stderr


def test_a_ctrl_c_after_the_game_ended_says_the_transcript_is_complete(tmp_path: Path) -> None:
    """A person's session reads on after the end (looks are still answered); a Ctrl-C then said
    the transcript "can be resumed", which --resume refused: the game was over."""
    t = tmp_path / "t.yaml"
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "play", "magic-maze", "--scenario", "1", "--players", "2",
                             "--seed", "1", "--transcript", str(t)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        proc.stdin.write(b"@200 time\n")  # past the sand: the game ends, its ending written
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while "\nresult:" not in (t.read_text(encoding="utf-8") if t.exists() else ""):
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err.decode().strip() == f"interrupted; the transcript {t} is complete", err


def test_a_command_whose_reader_went_away_stops_quietly_with_status_141(tmp_path: Path) -> None:
    goldens = sorted((REPO / "transcripts" / "mafia").glob("*.yaml"))[:3]
    assert len(goldens) == 3
    replay = _with_reader_gone(["replay", *map(str, goldens)], tmp_path)  # status 1 would say one did not replay
    assert (replay.returncode, replay.stderr) == (141, "")
    play = _with_reader_gone(["play", "mafia", "--players", "8", "--bots", "random", "--seed", "4",
                              "--transcript", "g.yaml"], tmp_path)
    assert (play.returncode, play.stderr) == (141, "")
    _, session = tr.resume(tmp_path / "g.yaml")  # stopped where it was: the transcript can be resumed
    assert not session.over
    bench = _with_reader_gone(["bench", "mafia", "--games", "20"], tmp_path)
    assert (bench.returncode, bench.stderr) == (141, "")
    run_folder = tmp_path / "t"
    tournament = _with_reader_gone(["tournament", "mafia", "--players", "8", "--entrant", "a=random", "--entrant",
                                    "b=sleuth", "--games", "4", "--workers", "1", "--out", str(run_folder)], tmp_path)
    assert tournament.returncode == 141
    assert tournament.stderr.splitlines()[-1] == (
        f"cannot write the report: Broken pipe; every result is in {run_folder}, and arbiter tournament --resume "
        f"{run_folder} prints the report again")
    assert len((run_folder / "results.jsonl").read_text(encoding="utf-8").splitlines()) == 4


def test_a_broken_pipe_that_is_not_the_output_is_not_taken_for_a_reader_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter.cli import entry

    read, write = os.pipe()
    try:
        with open(write, "w", closefd=False) as out:
            monkeypatch.setattr(sys, "stdout", out)
            assert not entry.output_gone()  # its reader is there
            os.close(read)
            read = -1
            assert entry.output_gone()
    finally:
        os.close(write)
        if read >= 0:
            os.close(read)

    def broken(*args: object, **kwargs: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")  # (as a bot's stdin that closed would)

    monkeypatch.setattr(click, "echo", broken)
    with pytest.raises(SystemExit) as ended:  # raised on to Click, whose status is 1: not taken for a reader gone
        main.main(["games"])
    assert ended.value.code == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_standard_output_that_refuses_writes_ends_the_run_with_one_line_and_status_1(tmp_path: Path) -> None:
    """``> /dev/full`` (a full disk, an I/O error) ended every command with a Python traceback."""
    t = tmp_path / "g.yaml"
    for args in (["games"], ["validate"], ["play", "mafia", "--players", "8", "--bots", "random", "--seed", "4",
                                            "--transcript", str(t)], ["replay", str(t)], ["show", str(t)]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "arbiter", *args], cwd=tmp_path, env=tree_env(), stdout=full,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=120)
        more = f"; the transcript {t} can be resumed" if args[0] == "play" else ""
        assert (done.returncode, done.stderr) == (1, f"Error: cannot write to standard output: No space left on "
                                                     f"device{more}\n"), args
    _, session = tr.resume(t)  # stopped at its first output: what the transcript holds resumes
    assert not session.over


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("status, said", [
    (0, "Error: cannot write to standard output: No space left on device\nended 1\n"),  # the refusal is the run's end
    (1, "ended 1\n"),  # said already, by the command that failed: its status stays
])
def test_output_left_in_the_buffer_is_flushed_while_a_refusal_can_be_said(status, said) -> None:
    """A buffered output that a full disk refused kept the text; the interpreter's last flush
    met the refusal again, printed "Exception ignored ..." and ended the run with status 120.
    The command's end flushes it first (``entry._last_flush``)."""
    code = ("import sys\nfrom arbiter.cli.entry import _last_flush\nsys.stdout.write('a line the disk refuses\\n')\n"
            f"try:\n    _last_flush({status})\n    sys.exit({status})\n"
            "except SystemExit as end:\n    sys.stderr.write(f'ended {end.code}\\n')\n    sys.exit(end.code)\n")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60, env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})
    assert (done.returncode, done.stderr) == (1, said)


def _started_without(streams: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``arbiter ARGS`` started with the shell's ``streams`` closed (``>&-``, ``2>&-``, ``<&-``),
    its standard error captured unless it is closed."""
    return subprocess.run(["sh", "-c", f'exec "$@" {streams}', "sh", sys.executable, "-m", "arbiter", *args],
                          cwd=cwd, env=tree_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, timeout=120)


def test_a_run_started_without_a_standard_output_says_so_with_status_1(tmp_path: Path) -> None:
    """``arbiter games >&-`` printed nothing and ended with status 0, as if it had shown the games."""
    t = tmp_path / "g.yaml"
    for args in (["games"], ["play", "mafia", "--players", "8", "--bots", "random", "--seed", "4",
                             "--transcript", str(t)]):
        done = _started_without(">&-", args, tmp_path)
        more = f"; the transcript {t} can be resumed" if args[0] == "play" else ""
        assert (done.returncode, done.stderr) == (1, f"Error: cannot write to standard output: Bad file "
                                                     f"descriptor{more}\n"), args
    _, session = tr.resume(t)
    assert not session.over


def test_a_run_started_without_standard_error_or_input_ends_as_before(tmp_path: Path) -> None:
    """No standard error: messages go nowhere, the status stays (a usage error's 2). No standard
    input: the input is over at once (status 4), and the transcript says how to resume."""
    assert _started_without("2>&-", ["play", "nosuch"], tmp_path).returncode == 2
    assert _started_without("2>&-", ["games"], tmp_path).returncode == 0
    t = tmp_path / "g.yaml"
    done = _started_without("<&-", ["play", "mafia", "--players", "8", "--seed", "3", "--transcript", str(t)], tmp_path)
    assert (done.returncode, done.stderr) == (4, f"the input ended before the game did; resume it with: arbiter play "
                                                 f"--resume {t}\n")


def test_a_closed_standard_stream_is_held_so_no_file_the_run_opens_takes_its_place(tmp_path: Path) -> None:
    """With descriptors 0 to 2 closed, the first file opened would take one of them, and what is
    written there (a fatal error's message, a child's inherited output) would go into that file."""
    code = ("import os, sys\nfrom arbiter.cli.entry import _hold_closed_streams\n"
            "_hold_closed_streams()\n"
            "fd = os.open('opened', os.O_WRONLY | os.O_CREAT)\n"
            "os.write(fd, f'{fd} {sys.stdin is None} {sys.stderr is not None}'.encode())\n")
    subprocess.run(["sh", "-c", 'exec "$@" <&- >&- 2>&-', "sh", sys.executable, "-c", code], cwd=tmp_path,
                   env=tree_env(), timeout=60, check=True)
    assert (tmp_path / "opened").read_bytes() == b"3 True True"


def test_play_whose_transcript_disk_fills_up_says_so_and_how_to_resume(tmp_path: Path, monkeypatch) -> None:
    """The disk refusing an entry mid-game ended ``play`` with two chained tracebacks."""
    import errno

    from arbiter.engine import logline

    written = []

    def entry_line(entry: dict) -> str:
        if len(written) == 12:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(entry)
        return logline.entry_line(entry)

    monkeypatch.setattr(tr, "entry_line", entry_line)
    t = tmp_path / "g.yaml"
    r = run("play", "mafia", "--players", "8", "--bots", "random", "--seed", "4", "--transcript", t)
    assert r.exit_code == 1
    assert r.output.splitlines()[-1] == (f"Error: cannot write the transcript {t}: No space left on device; what it "
                                         f"holds can be resumed: arbiter play --resume {t}")
    monkeypatch.undo()
    assert len(tr.read(t).log) == 12 and not tr.resume(t)[1].over


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_standard_error_that_refuses_writes_changes_no_status(tmp_path: Path) -> None:
    """Messages on stderr are for a person: ``2>/dev/full`` turned a usage error's status 2 and
    an input's end's 4 into 1 (the message's write failed, and Python said so, to no one)."""
    for args, status in ((["play", "nosuch"], 2), (["play", "mafia", "--players", "8", "--seed", "3"], 4),
                         (["games"], 0)):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "arbiter", *args], cwd=tmp_path, env=tree_env(),
                                  stdout=subprocess.DEVNULL, stderr=full, stdin=subprocess.DEVNULL, timeout=120)
        assert done.returncode == status, args


def _with_reader_gone(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``arbiter ARGS`` with standard output a pipe whose reader has already gone (as
    ``| head`` leaves it once it has its lines): its first write meets a broken pipe."""
    env = tree_env()
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "arbiter", *args], cwd=cwd, env=env, stdout=write,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=120)
    finally:
        os.close(write)


@pytest.mark.parametrize("args, option, said", [
    (["play", "fbi-mafia", "--force"], "--force", "no --transcript is named"),
    (["play", "fbi-mafia", "--transcript", "{tmp}/no/such/folder/t.yaml"], "--transcript",
     "there is no folder {tmp}/no/such/folder to write it in"),
])
def test_a_transcript_option_with_nothing_to_act_on_is_a_usage_error(tmp_path, args, option, said) -> None:
    """--force without a --transcript to replace was taken silently, and a --transcript in a
    folder that is not there ended as an error of the run (status 1) once the game was set up."""
    r = run(*[a.format(tmp=tmp_path) for a in args], "--moves", "/dev/null")
    assert r.exit_code == 2 and f"Invalid value for {option}: " in r.output and said.format(tmp=tmp_path) in r.output, \
        r.output

"""The record when a run is cut short at its edges: a transcript's creation stopped at any
instant, a last line cut inside a character, a target that is not a file, and a bot that
cannot start (docs/transcripts.md, "Crashes").

Each was found by killing ``arbiter play`` at random instants: a kill just after the file was
created left it empty (neither replayable nor resumable, and the same command then refused it
as existing); a last line cut inside a UTF-8 character made the whole file unreadable; a bot
that could not start had already replaced the file ``--force`` named, or appended its command
to the transcript ``--resume`` named, so that every later resume failed too.
"""

from __future__ import annotations

import os
import types
from pathlib import Path

import pytest

from arbiter.engine import files
from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.errors import TranscriptError
from arbiter.engine.session import Session

from tests.helpers import MAFIA, run
from tests.transcript_staging import FBI, moves_of

STEPS = ("open", "write", "fchmod", "fsync", "close", "link", "replace", "unlink")
"""The system calls a transcript's creation goes through (``files.write_whole``)."""


class Stopped(BaseException):
    """A kill, as the writer sees one: nothing after it runs."""


def stopping_at(k: int) -> types.SimpleNamespace:
    """``os`` whose ``k``-th call of ``STEPS`` (from 0) stops the run instead of happening."""
    calls = [0]

    def step(name: str):
        real = getattr(os, name)

        def call(*args, **kwargs):
            calls[0] += 1
            if calls[0] == k + 1:
                raise Stopped(name)
            return real(*args, **kwargs)
        return call

    names = {n: getattr(os, n) for n in dir(os) if not n.startswith("__")}
    return types.SimpleNamespace(**{**names, **{n: step(n) for n in STEPS}})


def test_a_transcript_stopped_at_any_instant_of_its_creation_is_absent_or_whole(tmp_path, monkeypatch):
    """Whatever system call of the creation the run is stopped at, the transcript is either not
    there (the same command starts the game again) or there with its whole opening, which reads
    and resumes; never empty, never a part of a header."""
    session_of = lambda: Session(FBI, "standard-3v3", seed=4)  # noqa: E731
    opening = tr.dump(session_of())
    outcomes = set()
    for k in range(20):
        path = tmp_path / f"t{k}.yaml"
        monkeypatch.setattr(files, "os", stopping_at(k))
        try:
            tr.TranscriptWriter(path, session_of()).close()
            stopped = False
        except Stopped:
            stopped = True
        finally:
            monkeypatch.setattr(files, "os", os)
        if not path.exists():
            outcomes.add("absent")
            assert stopped
            continue
        outcomes.add("whole")
        assert path.read_text(encoding="utf-8") == opening
        t, resumed = tr.resume(path)
        assert t.log == resumed.entries
        if not stopped:
            break
    assert outcomes == {"absent", "whole"}, outcomes  # both sides of the instant it appears were tried


def test_a_transcript_that_cannot_be_written_whole_leaves_no_file(tmp_path, monkeypatch):
    """A failure while the opening is written (a full disk) is an error, and leaves no file, not
    even a temporary one."""
    real = os.write
    monkeypatch.setattr(files.os, "write", lambda fd, data: (real(fd, bytes(data)[:10]), (_ for _ in ()).throw(
        OSError(28, "No space left on device")))[1])
    path = tmp_path / "t.yaml"
    with pytest.raises(TranscriptError, match="No space left on device"):
        tr.TranscriptWriter(path, Session(FBI, "standard-3v3", seed=4))
    assert list(tmp_path.iterdir()) == []


def test_a_target_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path):
    """``--transcript /dev/null --force`` once ended in a traceback from ``fsync``; writing a
    file whole over a device would replace the device. A pipe or a folder is refused, and stays."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    folder = tmp_path / "folder"
    folder.mkdir()
    for target in (pipe, folder):
        with pytest.raises(TranscriptError, match="not a regular file"):
            tr.TranscriptWriter(target, Session(FBI, "standard-3v3", seed=4), overwrite=True)
    assert pipe.is_fifo() and folder.is_dir() and list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "pipe"]


# ------------------------------------------------------------------- a line cut inside a character
def _with_words(tmp_path: Path) -> tuple[Path, bytes]:
    """A Classic Mafia game in progress whose last line says words outside ASCII."""
    path = tmp_path / "m.yaml"
    session = Session(MAFIA, "8-players", seed=3)
    writer = tr.TranscriptWriter(path, session)
    whole = play_random(MAFIA, "8-players", 3)
    for seat, text, at in moves_of(whole)[:6]:
        session.submit(seat, text, at)
    session.note({"seat": "p1", "said": "déjà vu… ça"})
    writer.close()
    return path, path.read_bytes()


def test_a_last_line_cut_inside_a_character_is_a_torn_line(tmp_path):
    """A crash may cut the file at any byte, inside a character too: the last line is torn, and
    left out like any torn line; the game resumes from the whole lines."""
    path, data = _with_words(tmp_path)
    start = data.rindex("ç".encode("utf-8"))
    path.write_bytes(data[:start + 1])  # one byte of the two of "ç"
    t = tr.read(path)
    assert t.notes == [f"{path}: its last line was cut off and is ignored"]
    assert t.log == tr.parse(data[:data.rindex(b"\n", 0, start) + 1].decode("utf-8")).log
    t, session = tr.resume(path)
    writer = tr.TranscriptWriter(path, session, resume=len(t.log))
    writer.close()
    assert tr.replay(tr.read(path)).ok
    assert path.read_bytes().endswith(b"\n") and "ç" not in path.read_text(encoding="utf-8")


def test_a_byte_that_is_not_utf8_before_the_last_line_is_refused_by_its_line(tmp_path):
    path, data = _with_words(tmp_path)
    lines = data.split(b"\n")
    lines[3] = lines[3] + b"\xff"
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(TranscriptError, match=r"line 4 is not UTF-8 text \(byte 0xff at column \d+\)"):
        tr.read(path)


# ------------------------------------------------------------------------ a bot that cannot start
NO_BOT = "exec:/nonexistent/arbiter-test-bot"


def test_a_bot_that_cannot_start_leaves_the_transcripts_as_they_were(tmp_path):
    """The bots start before the record is touched: a bot that cannot start ends the run (status
    1) with the file ``--force`` would replace intact, no new transcript or bot log made, and the
    transcript ``--resume`` names byte for byte as it was (it once recorded the bad command, so
    that every later resume failed too)."""
    old = tmp_path / "old.yaml"
    old.write_text("an earlier game\n", encoding="utf-8")
    r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--bot", f"p1={NO_BOT}",
            "--transcript", old, "--force")
    assert r.exit_code == 1 and "cannot start bot for p1" in r.output
    assert old.read_text(encoding="utf-8") == "an earlier game\n"
    new = tmp_path / "new.yaml"
    r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--bot", f"p1={NO_BOT}",
            "--transcript", new)
    assert r.exit_code == 1 and "cannot start bot for p1" in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.yaml"]
    unfinished = tmp_path / "unfinished.yaml"
    r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--transcript", unfinished,
            "--max-moves", "5")
    before = unfinished.read_bytes()
    r = run("play", "--resume", unfinished, "--bot", f"p1={NO_BOT}")
    assert r.exit_code == 1 and "cannot start bot for p1" in r.output
    assert unfinished.read_bytes() == before
    r = run("play", "--resume", unfinished)
    assert r.exit_code == 0, r.output
    assert tr.replay(tr.read(unfinished)).ok


def test_a_dangling_link_as_the_transcript_is_a_usage_error_saying_what_it_is(tmp_path):
    """A name taken by a link to nowhere is taken: a usage error (status 2), not a run that
    fails later with status 1. It said "the file exists; to go on with its game use --resume",
    which then said the link leads nowhere. With --force, the transcript is written where the
    link leads, when there is a folder there."""
    link, lost = tmp_path / "t.yaml", tmp_path / "lost.yaml"
    link.symlink_to(tmp_path / "nowhere" / "t.yaml")
    lost.symlink_to(tmp_path / "found.yaml")
    for force in ((), ("--force",)):
        r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--transcript", link, *force)
        assert r.exit_code == 2 and r.output.endswith(
            f"{link} is a symbolic link that leads nowhere (to {tmp_path / 'nowhere' / 't.yaml'}): it holds no game to "
            "resume; remove it or name another file\n"), r.output
    assert link.is_symlink() and not link.exists()
    r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--transcript", lost)
    assert r.exit_code == 2 and r.output.endswith("it holds no game to resume; remove it, or add --force to write the "
                                                  "transcript where it leads\n"), r.output
    r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--transcript", lost, "--force")
    assert r.exit_code == 0 and tr.replay(tr.read(tmp_path / "found.yaml")).ok


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_a_transcript_that_is_not_a_regular_file_is_a_usage_error_without_false_advice(tmp_path, force):
    """``--transcript /dev/null`` was told "the file exists; use --resume /dev/null or add
    --force", two ways that both fail (``--force`` then stopped with status 1 after the bots had
    started). A device or a pipe is a usage error of ``--transcript`` (status 2) saying what it is."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for target, kind in (("/dev/null", "a character device"), (pipe, "a FIFO")):
        r = run("play", "mafia", "--players", "6", "--seed", "1", "--bots", "random", "--transcript", target, *force)
        assert r.exit_code == 2, r.output
        assert f"not a regular file ({kind})" in r.output and "--resume" not in r.output
    assert pipe.is_fifo()


@pytest.mark.parametrize("option", ["--moves", "--deck", "stdin"])
def test_force_never_replaces_a_file_the_game_reads_with_its_transcript(tmp_path, option):
    """``--transcript F --force`` where F is the file of ``--moves`` (or a link to it), of
    ``--deck``, or standard input's: the game read its input, the transcript replaced it, and
    the moves or the deck were gone. A usage error of ``--transcript``, the file as it was."""
    deck = ("game: mafia\nkind: deck\ncards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2, "
            "chameleon: 1, fighter: 1}\n")
    source = tmp_path / "input.txt"
    source.write_text(deck if option == "--deck" else "pass\n", encoding="utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to(source)
    args = ["play", "mafia", "--seed", "1", "--bots", "random", "--transcript", link, "--force"]
    args += ["--deck", source] if option == "--deck" else ["--players", "6", "--as", "p1"]
    if option == "--moves":
        args += ["--moves", source]
    with source.open("rb") as stdin:
        r = run(*args, input=stdin if option == "stdin" else None)
    named = "standard input" if option == "stdin" else option
    assert r.exit_code == 2, r.output
    assert f"Invalid value for --transcript: {link} is the file of {named}, which the game reads" in r.output, r.output
    assert source.read_text(encoding="utf-8") == (deck if option == "--deck" else "pass\n")

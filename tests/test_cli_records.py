"""End-to-end tests of the ``arbiter`` command (``cli.main.main``): ``replay``, ``show``, resuming a
game, and ``validate``.

How these tests run (in-process, or a child process with a hard timeout for external bots; never a
traceback; known bugs as strict xfails) and what they share: ``tests/cli_staging.py``.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.cli.main import main
from arbiter.engine import transcript as tr

from tests.helpers import clean, precondition, responses, run, write
from tests.cli_staging import OPENING, SCENARIOS, finished_transcript, grid_marks, identities, move_count


# -- replay ------------------------------------------------------------------------------------


def test_replay_tampered_move_fails_and_names_the_problem(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    text = t.read_text(encoding="utf-8")
    tampered = re.sub(r"(- \{move: \{n: 1, seat: )bandit,", r"\1undercover,", text, count=1)
    assert tampered != text
    t.write_text(tampered, encoding="utf-8")
    r = run("replay", t)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == f"FAIL {t}:"
    assert re.search(r"log\[\d+\] .*'seat': 'undercover'.*refused on replay: not-your-turn", r.output)
    # --update cannot make an illegal game legal
    ru = run("replay", "--update", t)
    assert ru.exit_code == 1 and "FAIL" in ru.output
    assert t.read_text(encoding="utf-8") == tampered


def test_replay_update_rewrites_a_changed_transcript(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    text = t.read_text(encoding="utf-8")
    real = re.search(r"^  text: (.*)$", text, re.M)
    assert real
    t.write_text(text.replace(real.group(0), "  text: tampered"), encoding="utf-8")
    r = run("replay", t)
    assert r.exit_code == 1
    assert f"FAIL {t}:" in r.output and "result differs" in r.output
    ru = run("replay", "--update", t)
    assert ru.exit_code == 0, ru.output
    assert re.match(rf"updated {re.escape(str(t))}: \d+ moves", ru.output)
    assert "tampered" not in t.read_text(encoding="utf-8")
    assert real.group(0) in t.read_text(encoding="utf-8")
    rr = run("replay", t)
    assert rr.exit_code == 0 and rr.output.startswith(f"ok {t}:"), rr.output


def test_replay_update_removes_what_a_killed_rewrite_left_once_its_writer_is_gone(tmp_path: Path) -> None:
    """A rewrite killed outright leaves its hidden ``.NAME.PID-K.tmp``, which nothing removed."""
    import os
    import subprocess
    import sys

    t = finished_transcript(tmp_path / "t.yaml")
    with open("/proc/sys/kernel/pid_max", encoding="ascii") as f:  # (Linux: an id above it names no process)
        dead = int(f.read()) + 1
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        old = [tmp_path / f".t.yaml.{dead}-0.tmp", tmp_path / f".t.yaml.{dead}-1.tmp"]
        kept = [tmp_path / f".t.yaml.{dead}-2.tmp",  # a newer one: maybe of a writer on another machine
                tmp_path / f".t.yaml.{os.getpid()}-0.tmp",  # of this process
                tmp_path / f".t.yaml.{alive.pid}-0.tmp",  # of another process running
                tmp_path / f".u.yaml.{dead}-0.tmp",  # beside another transcript
                tmp_path / f".t.yaml.{dead}-x.tmp"]  # not a name write_whole gives
        for p in old + kept:
            p.write_text("part of a rewrite", encoding="utf-8")
        for p in old + kept[1:]:
            os.utime(p, (1_000_000_000, 1_000_000_000))
        assert run("replay", t).exit_code == 0 and all(p.exists() for p in old)  # a check removes nothing
        r = run("replay", "--update", t)
        assert r.exit_code == 0, r.output
        assert not any(p.exists() for p in old) and all(p.exists() for p in kept)
    finally:
        alive.kill()
        alive.wait()


def test_what_cannot_be_removed_of_a_killed_rewrite_leaves_the_rest_removed(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from arbiter.engine import files

    with open("/proc/sys/kernel/pid_max", encoding="ascii") as f:
        dead = int(f.read()) + 1
    left = [tmp_path / f".t.yaml.{dead}-{k}.tmp" for k in range(4)]
    for p in left:
        p.write_text("part", encoding="utf-8")
        os.utime(p, (1_000_000_000, 1_000_000_000))
    unlink, refused = os.unlink, []

    def unlink_once(path: str) -> None:  # the first file is not ours to remove (another user's, say)
        if not refused:
            refused.append(path)
            raise PermissionError(13, "Permission denied", path)
        unlink(path)

    monkeypatch.setattr(files.os, "unlink", unlink_once)
    assert files.remove_left_beside([tmp_path / "t.yaml"]) == 3
    assert [p for p in left if p.exists()] == [Path(refused[0])]



def test_what_a_killed_rewrite_left_is_looked_for_beside_a_links_target_and_kept_for_another_users_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``write_whole`` given a symbolic link rewrites the file it leads to, so a killed rewrite
    leaves its hidden file beside that file, not beside the link: that is where it is removed.
    A process the system will not signal (``PermissionError``: another user's) is running, and
    what it left is kept."""
    import os

    from arbiter.engine import files

    with open("/proc/sys/kernel/pid_max", encoding="ascii") as f:
        dead = int(f.read()) + 1
    (tmp_path / "real").mkdir()
    target = finished_transcript(tmp_path / "real" / "t.yaml")
    (tmp_path / "link.yaml").symlink_to(target)
    left = [tmp_path / "real" / f".t.yaml.{dead}-0.tmp", tmp_path / "real" / f".t.yaml.{dead + 1}-0.tmp"]
    for p in left:
        p.write_text("part", encoding="utf-8")
        os.utime(p, (1_000_000_000, 1_000_000_000))
    kill = os.kill

    def not_ours(pid: int, sig: int) -> None:  # (the second writer's id: a process of another user)
        if pid == dead + 1:
            raise PermissionError(1, "Operation not permitted")
        kill(pid, sig)

    monkeypatch.setattr(files.os, "kill", not_ours)
    assert files.remove_left_beside([tmp_path / "link.yaml"]) == 1
    assert [p.exists() for p in left] == [False, True] and target.exists()

def test_replay_several_files_reports_each(tmp_path: Path) -> None:
    a = finished_transcript(tmp_path / "a.yaml", "standard-3v3", 1)
    b = finished_transcript(tmp_path / "b.yaml", "duel-4v4", 2)
    r = run("replay", a, b)
    assert r.exit_code == 0
    assert [line.split()[:2] for line in r.output.splitlines()] == [["ok", f"{a}:"], ["ok", f"{b}:"]]
    bad = tmp_path / "bad.yaml"
    bad.write_text(re.sub(r"(\{n: 1, seat: )\w+", r"\1operative", a.read_text(encoding="utf-8"), count=1),
                   encoding="utf-8")
    r = run("replay", a, bad, b)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"ok {a}:")
    assert lines[1] == f"FAIL {bad}:"
    assert "not-your-turn" in lines[2]
    assert lines[-1].startswith(f"ok {b}:")


@pytest.mark.parametrize("content", [
    b"\xff\xfe\x00 binary garbage \x80",
    b"format: 1\nlog: [\n",
    b"\x00\x01 not yaml",
    b"",
    b"- just\n- a list\n",
    b"format: 1\ngame: fbi-mafia\n",
    b"format: 2\n",
], ids=["binary", "bad-yaml", "nul", "empty", "list", "incomplete", "format"])
def test_replay_unreadable_file_is_a_clear_fail(tmp_path: Path, content: bytes) -> None:
    good = finished_transcript(tmp_path / "good.yaml")
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(content)
    r = run("replay", junk, good)
    assert r.exit_code == 1
    first = r.output.splitlines()[0]
    assert first.startswith(f"FAIL {junk}: ") and len(first) > len(f"FAIL {junk}: ") + 5
    assert first.count(str(junk)) == 1  # the file named once, not again by the reader's message
    assert re.search(r"cannot read|not valid YAML|not a transcript|missing|not supported", first)
    assert f"ok {good}:" in r.output  # the other file was still checked


def test_replay_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    r = run("replay", tmp_path / "nope.yaml")
    assert r.exit_code == 2 and "does not exist" in r.output


@pytest.mark.parametrize("args", [("replay", "{}"), ("validate", "{}"), ("play", "mafia", "--deck", "{}"),
                                  ("play", "--resume", "{}"), ("bench", "mafia", "--deck", "{}"),
                                  ("tournament", "--resume", "{}")])
def test_a_symbolic_link_that_leads_nowhere_is_said_to_be_one(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Click said a path that ``ls`` lists "does not exist" when it was a link to a file gone
    (or to a path through a file, ``ENOTDIR``) or a loop of links: the user looks for what is
    there."""
    (tmp_path / "gone").symlink_to(tmp_path / "removed.yaml")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "file").write_text("a file, not a folder", encoding="utf-8")
    (tmp_path / "through").symlink_to(tmp_path / "file" / "x.yaml")  # (its target's way goes through a file)
    for name, why in (("gone", "No such file"), ("a", "symbolic links"), ("through", "Not a directory")):
        r = run(*(a.format(tmp_path / name) for a in args))
        assert r.exit_code == 2, r.output
        assert f"'{tmp_path / name}' is a symbolic link that leads nowhere (" in r.output and why in r.output, r.output
    r = run(*(a.format(tmp_path / "absent") for a in args))
    assert r.exit_code == 2 and "does not exist" in r.output


def test_a_moves_file_that_is_a_link_leading_nowhere_is_said_to_be_one(tmp_path: Path) -> None:
    """``--moves`` (a file Click opens, not a path it checks) said "No such file or directory"
    of a link ``ls`` lists; a file that is not there keeps those words."""
    (tmp_path / "gone").symlink_to(tmp_path / "removed.txt")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for name, why in (("gone", "No such file"), ("a", "symbolic links"), ("absent", None)):
        r = run("play", "mafia", "--players", "6", "--as", "p1", "--bots", "random", "--moves", tmp_path / name)
        assert r.exit_code == 2, r.output
        if why is None:
            assert f"'{tmp_path / name}': No such file or directory" in r.output, r.output
        else:
            assert f"Invalid value for '--moves': '{tmp_path / name}' is a symbolic link that leads nowhere (" \
                in r.output and why in r.output, r.output


def test_a_link_to_a_file_out_of_reach_is_not_said_to_lead_nowhere(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A link whose target is there but cannot be reached (a folder one may not read) keeps
    Click's words: only a target gone or a loop is a link that leads nowhere."""
    import os

    target = finished_transcript(tmp_path / "t.yaml")
    (tmp_path / "link").symlink_to(target)
    stat = os.stat

    def out_of_reach(path, *args, **kwargs):  # (as for a user who may not enter the target's folder)
        if str(path).endswith("link"):
            raise PermissionError(13, "Permission denied", str(path))
        return stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", out_of_reach)
    r = run("replay", tmp_path / "link")
    assert r.exit_code == 2 and "leads nowhere" not in r.output, r.output
    assert f"'{tmp_path / 'link'}' cannot be reached: a folder on its way may not be entered (permission denied)" \
        in r.output and "does not exist" not in r.output, r.output


_LOCKED_ARGS = [("replay", "{}"), ("show", "{}"), ("validate", "{}"), ("play", "mafia", "--deck", "{}"),
                ("play", "--resume", "{}"), ("bench", "mafia", "--deck", "{}"), ("tournament", "--resume", "{}")]


def _locked_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path/locked``, a folder holding ``x.yaml`` that the system refuses to enter, as
    ``chmod 000`` makes it for a user other than root (who enters any folder: the refusal is
    made here, as the system gives it, an ``EACCES`` from ``stat`` of anything inside)."""
    import errno

    locked = tmp_path / "locked"
    locked.mkdir()
    finished_transcript(locked / "x.yaml")
    stat, access = os.stat, os.access

    def refused(path, *args, **kwargs):
        if os.path.abspath(os.fsdecode(path)).startswith(str(locked) + os.sep):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return stat(path, *args, **kwargs)

    def may(path, mode, *args, **kwargs):
        return False if os.path.abspath(os.fsdecode(path)) == str(locked) else access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refused)
    monkeypatch.setattr(os, "access", may)
    return locked


@pytest.mark.parametrize("args", _LOCKED_ARGS)
def test_a_path_in_a_folder_one_may_not_enter_is_said_to_be_out_of_reach(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]) -> None:
    """Click said a file in a folder the user may not enter (``chmod 000``) "does not exist":
    the user, who put it there, looks for a typo. The path is named, and the folder."""
    locked = _locked_folder(tmp_path, monkeypatch)
    r = run(*(a.format(locked / "x.yaml") for a in args))
    assert r.exit_code == 2, r.output
    assert (f"'{locked / 'x.yaml'}' cannot be reached: the folder '{locked}' may not be entered (permission "
            "denied), so whether it exists cannot be told") in r.output, r.output
    assert "does not exist" not in r.output and "Traceback" not in r.output
    r = run(*(a.format(tmp_path / "absent.yaml") for a in args))  # (a folder that may be entered: as before)
    assert r.exit_code == 2 and "does not exist" in r.output, r.output


def test_a_relative_path_names_the_first_folder_on_its_way_that_may_not_be_entered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = _locked_folder(tmp_path, monkeypatch)
    (locked / "deeper").mkdir()
    monkeypatch.chdir(tmp_path)
    r = run("replay", Path("locked", "deeper", "x.yaml"))
    assert r.exit_code == 2 and f"'{Path('locked', 'deeper', 'x.yaml')}' cannot be reached: the folder 'locked' " \
        "may not be entered (permission denied)" in r.output, r.output


def test_only_a_permission_refused_is_said_to_be_out_of_reach() -> None:
    """The words are for ``EACCES`` and ``EPERM`` alone: a name too long, a file missing or a
    component that is a file keep Click's."""
    import errno

    from arbiter.cli.types import out_of_reach

    for code in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG, errno.ELOOP, errno.EIO):
        assert out_of_reach("a/b.yaml", OSError(code, "x")) is None
    for code in (errno.EACCES, errno.EPERM):
        assert out_of_reach("no-such-folder/b.yaml", OSError(code, "x")) == (
            "'no-such-folder/b.yaml' cannot be reached: a folder on its way may not be entered (permission denied), "
            "so whether it exists cannot be told")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root enters any folder: the refusal is made by hand in the tests above")
@pytest.mark.parametrize("args", _LOCKED_ARGS)
def test_a_path_in_a_folder_chmod_000_is_said_to_be_out_of_reach(tmp_path: Path, args: tuple[str, ...]) -> None:
    """The same, by the system's own refusal (for a user other than root)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    finished_transcript(locked / "x.yaml")
    locked.chmod(0)
    try:
        r = run(*(a.format(locked / "x.yaml") for a in args))
    finally:
        locked.chmod(0o755)
    assert r.exit_code == 2 and f"'{locked / 'x.yaml'}' cannot be reached: the folder '{locked}' may not be " \
        "entered (permission denied)" in r.output, r.output


def test_replay_of_a_folder_reads_its_files_and_looks_into_a_folder_named_like_one(tmp_path: Path) -> None:
    """A sub-folder named ``*.yaml`` is a folder: its transcripts are checked, it is not
    reported as a file that cannot be read."""
    (tmp_path / "old.yaml").mkdir()
    inner = finished_transcript(tmp_path / "old.yaml" / "t.yaml")
    outer = finished_transcript(tmp_path / "u.yaml")
    r = run("replay", tmp_path)
    assert r.exit_code == 0, r.output
    assert [line.split(":")[0] for line in r.output.splitlines()] == [f"ok {inner}", f"ok {outer}"]


def test_replay_transcript_with_bad_options_is_a_clear_fail(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    t.write_text(t.read_text(encoding="utf-8").replace("options: {}", "options: [1, 2]"), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(t)])
    precondition("options: [1, 2]" in t.read_text(encoding="utf-8"), "no options line to break")
    clean(result)
    assert result.exit_code == 1 and f"FAIL {t}" in result.output


# -- show --------------------------------------------------------------------------------------


def test_show_board_after_n_moves_as_a_seat(tmp_path: Path) -> None:
    t = tmp_path / "t.yaml"
    moves = write(tmp_path / "m.txt", "\n".join(OPENING[:2]) + "\nboard\nboard bandit\n" + OPENING[2] + "\n")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves, "--transcript", t)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    played = [x for x in responses(r.stdout) if x[0] == "= board"]
    host_board, bandit_board = played[0][1:], played[1][1:]

    s = run("show", t, "--at", 2)
    assert s.exit_code == 0, s.output
    assert s.output.splitlines() == host_board  # the same board the game showed after 2 moves
    assert len(grid_marks(host_board)) == 6

    s = run("show", t, "--seat", "bandit", "--at", 2)
    assert s.exit_code == 0, s.output
    lines = s.output.splitlines()
    assert lines == bandit_board
    bandit = identities(host_board)["bandit"]
    assert grid_marks(lines) == [bandit]
    assert any(line.startswith("You (bandit): ") for line in lines)
    assert run("show", t, "--as", "bandit", "--at", 2).output == s.output  # play's name for it

    start = run("show", t, "--at", 0)
    s0 = run("show", t, "--seat", "undercover", "--at", 0)
    assert start.exit_code == s0.exit_code == 0
    assert "turn 1" in s0.output.splitlines()[0]
    assert grid_marks(s0.output.splitlines()) == [identities(start.output.splitlines())["undercover"]]
    # without --at: the end of the transcript (3 moves)
    assert "Awaiting maniac (threat)" in run("show", t).output


def test_show_at_beyond_the_end_is_a_clear_error(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    n = move_count(t)
    r = run("show", t, "--at", n + 1)
    assert r.exit_code == 2  # a usage error, as every other bad option of show (it once exited 1)
    assert f"Invalid value for --at: {t} has {n} moves: there is no position after {n + 1} (allowed: 0 to {n})" \
        in r.output
    r = run("show", t, "--at", -1)
    assert r.exit_code == 2
    r = run("show", t, "--seat", "nobody")
    assert r.exit_code != 0 and "nobody" in r.output


def test_show_at_the_last_move_of_a_finished_game(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    n = move_count(t)
    end = run("show", t)
    precondition(end.exit_code == 0, end.output)
    r = run("show", t, "--at", n)
    assert r.exit_code == 0, r.output
    assert r.output == end.output


# -- resume -----------------------------------------------------------------------------------


def _unfinished(tmp_path: Path) -> Path:
    t = tmp_path / "t.yaml"
    moves = write(tmp_path / "m.txt", "\n".join(OPENING) + "\n")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves, "--transcript", t)
    assert r.exit_code == 4 and "result:" not in r.output, r.output  # the input ended before the game did
    rr = run("replay", t)
    assert rr.exit_code == 0 and rr.output.strip().endswith("4 moves, unfinished (resumable)"), rr.output
    return t


def test_resume_unfinished_game_and_finish_with_bots(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    before = t.read_text(encoding="utf-8")
    r = run("play", "--resume", t, "--bots", "random")
    assert r.exit_code == 0, r.output
    assert "seed 1" in r.output.splitlines()[0]
    assert len(re.findall(r"^result: ", r.output, re.M)) == 1
    heads = [x[0] for x in responses(r.stdout)]
    assert not any(h.startswith("= bandit shift row 1 left") for h in heads)  # not played again
    assert heads[0].startswith("= detective ")
    after = t.read_text(encoding="utf-8")
    assert after.startswith(before)  # appended to, the hand-written moves kept
    assert "\nresult:" in after
    rr = run("replay", t)
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output
    assert move_count(t) > 4

    again = run("play", "--resume", t, "--bots", "random")
    assert again.exit_code != 0
    ending = tr.read(t).result["text"]
    assert f"that game is over ({ending}); nothing to resume" in again.output and ending
    assert t.read_text(encoding="utf-8") == after


def test_a_resumed_transcripts_bot_that_cannot_start_is_named_as_the_transcripts(tmp_path: Path) -> None:
    """A ``session`` header edited to name a bot kind the game has not: ``--resume`` said only
    "unknown bot 'bogus' for bandit", not that the name came from the transcript, nor how to
    go on. A bot given anew for the seat plays it."""
    t = tmp_path / "t.yaml"
    assert run("play", "fbi-mafia", "--seed", 1, "--bots", "random", "--max-moves", 3, "--transcript", t).exit_code == 0
    t.write_text(t.read_text(encoding="utf-8").replace("bots: {bandit: random", "bots: {bandit: bogus"), encoding="utf-8")
    before = t.read_text(encoding="utf-8")
    r = run("play", "--resume", t)
    assert r.exit_code == 1 and r.stderr == (
        f"Error: {t}: the bot its session ran for bandit cannot start: unknown bot 'bogus' for bandit: use random, "
        "exec:COMMAND or py:MODULE:CLASS; give the seat another with --bot bandit=KIND\n"), r.output
    assert t.read_text(encoding="utf-8") == before
    r = run("play", "--resume", t, "--bot", "bandit=random")
    assert r.exit_code == 0 and tr.read(t).result is not None, r.output


def test_resume_with_moves_from_a_file(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    r = run("play", "--resume", t, "--moves", write(tmp_path / "more.txt", "awaiting\nquit\n"))
    assert r.exit_code == 0, r.output
    assert [x[0] for x in responses(r.stdout)] == ["= awaiting", "= bye"]
    assert "awaiting: detective action" in r.output
    assert move_count(t) == 4


def test_resume_after_a_cut_off_last_line(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    with t.open("a", encoding="utf-8") as f:
        f.write("- {move: {n: 5, seat: det")  # a crash in the middle of a line
    first = run("replay", t)
    assert first.exit_code == 0 and "cut off" in first.output, first.output
    r = run("play", "--resume", t, "--bots", "random")
    assert r.exit_code == 0, r.output
    assert "seat: det\n" not in t.read_text(encoding="utf-8")
    rr = run("replay", t)
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output
    assert "cut off" not in rr.output


def test_show_of_a_cut_off_last_line_says_so_as_replay_does(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    whole = run("show", t, "--at", 4)
    precondition(whole.exit_code == 0, whole.output)
    with t.open("a", encoding="utf-8") as f:
        f.write("- {move: {n: 5, seat: det")  # a crash in the middle of a line
    note = f"note {t}: its last line was cut off and is ignored\n"
    r = run("show", t)
    assert r.exit_code == 0, r.output
    assert r.output == note + whole.output  # the note (on stderr), then the board of the 4 whole moves
    r = run("show", t, "--at", 5)  # the file visibly holds "n: 5": the note says why it is not there
    assert r.exit_code == 2
    assert r.output.startswith(note)
    assert f"{t} has 4 moves: there is no position after 5 (allowed: 0 to 4)" in r.output


# -- validate ---------------------------------------------------------------------------------


def test_validate_packaged_data() -> None:
    r = run("validate")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for name in ("modes", "roles", "suspects"):
        assert f"ok scenarios/fbi_mafia/{name}.yaml" in lines
    assert "ok fbi-mafia: 4 modes load and cross-check" in lines
    assert "FAIL" not in r.output


def test_validate_a_good_copy(tmp_path: Path) -> None:
    copy = tmp_path / "fbi_mafia"
    shutil.copytree(SCENARIOS, copy)
    r = run("validate", copy)
    assert r.exit_code == 0, r.output
    assert sorted(r.output.splitlines()) == sorted(f"ok {copy / f}" for f in
                                                   ("modes.yaml", "roles.yaml", "suspects.yaml"))


def test_validate_names_a_transcript_as_one_and_the_command_that_checks_it(tmp_path: Path) -> None:
    """A transcript given to validate (or in a folder of them, a tournament's) was "kind:
    missing (required)"; it is named as a record of a game, pointing to ``replay``."""
    (tmp_path / "games").mkdir()
    t = finished_transcript(tmp_path / "games" / "t.yaml")
    r = run("validate", tmp_path / "games")
    assert r.exit_code == 1
    assert r.output == (f"FAIL {t}:2: this is a transcript (the record of a game), not scenario data: "
                        "check it with `arbiter replay FILE`\n")
    # and the other way round: game data given to replay or show is named as data
    deck = write(tmp_path / "deck.yaml", "game: mafia\nkind: deck\n"
                 "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, civilian: 2}\n")
    words = ("no format: not an arbiter transcript (one begins with 'format: 1'); it is game data (game, kind): "
             "`arbiter validate FILE` checks it")
    r = run("replay", deck)
    assert r.exit_code == 1 and r.output == f"FAIL {deck}: {words}\n", r.output
    r = run("show", deck)
    assert r.exit_code == 1 and f"{deck}: {words}" in r.output, r.output


BREAKAGES = {
    # id: (file, old text, new text, path inside the file, words of the problem)
    "wrong-type": ("modes.yaml", "seating: standard\n    board: 6", "seating: standard\n    board: six",
                   "modes.standard-3v3.board",
                   "expected a whole number, found text"),
    "unknown-key": ("modes.yaml", "    evidence_hand: 0\n  standard-4v4:",
                    "    evidence_hand: 0\n    colour: red\n  standard-4v4:",
                    "modes.standard-3v3.colour", "unknown key"),
    "bad-yaml": ("roles.yaml", "actions: [kill, masquerade]", "actions: [kill, masquerade",
                 "not valid YAML", "not valid YAML"),
    "cell-name": ("suspects.yaml", "Ada, Boris,", "Ada, c3,", "suspects[1]",
                  "'c3' cannot be a suspect name"),
    "role-unknown-key": ("roles.yaml", "    shift: [1, 2]\n  undercover:",
                         "    shift: [1, 2]\n    speed: 3\n  undercover:", "roles.bandit.speed", "unknown key"),
    "limit-type": ("roles.yaml", "protection_tokens: 6", "protection_tokens: [6]",
                   "limits.protection_tokens", "expected a whole number, found a list"),
    "bad-seating": ("modes.yaml", "seating: duel\n    board: 6", "seating: trio\n    board: 6",
                    "modes.duel-3v3.seating", "'trio' is not one of: standard, duel"),
}


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    copy = tmp_path / "fbi_mafia"
    shutil.copytree(SCENARIOS, copy)
    text = (copy / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {file}"
    (copy / file).write_text(text.replace(old, new), encoding="utf-8")
    return copy


@pytest.mark.parametrize("target", ["file", "folder"])
@pytest.mark.parametrize("case", list(BREAKAGES))
def test_validate_broken_copy_names_file_path_and_problem(tmp_path: Path, case: str, target: str) -> None:
    file, old, new, where, problem = BREAKAGES[case]
    copy = _broken_copy(tmp_path, file, old, new)
    r = run("validate", copy / file if target == "file" else copy)
    assert r.exit_code == 1, r.output
    fails = [line for line in r.output.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 1, r.output
    m = re.match(rf"FAIL {re.escape(str(copy / file))}:(\d+): {re.escape(where)}", fails[0])
    assert m, fails[0]
    assert problem in fails[0]
    if where != "not valid YAML":  # (a syntax error is where the parser notices it, maybe later)
        line = (copy / file).read_text(encoding="utf-8").splitlines()[int(m.group(1)) - 1]
        assert new.split("\n")[-1].strip() in line or where.split(".")[-1].split("[")[0] in line, f"line {m.group(1)}: {line!r}"
    if target == "folder":  # the other files are still checked
        assert len([line for line in r.output.splitlines() if line.startswith("ok ")]) == 2


@pytest.mark.parametrize("target", ["file", "folder"])
def test_validate_unknown_role_in_turn_order(tmp_path: Path, target: str) -> None:
    old = "turn_order: [bandit, undercover, maniac, detective, bomber, operative]\n    win: {arrests: 4, kills: 18}\n    evidence_hand: 0\n  standard-4v4"
    copy = _broken_copy(tmp_path, "modes.yaml", old, old.replace("maniac", "wizard", 1))
    r = run("validate", copy / "modes.yaml" if target == "file" else copy)
    assert r.exit_code == 1, r.output
    assert re.search(rf"{re.escape(str(copy / 'modes.yaml'))}:\d+: modes\.standard-3v3\.turn_order", r.output), r.output
    assert "wizard" in r.output


def test_replay_update_leaves_a_transcript_already_up_to_date_untouched_and_says_so(tmp_path: Path) -> None:
    """``--update`` once said "updated" of a file the current rules write as it is, and wrote it
    again (a new file in its place, its time changed): it leaves it as it is, and says so."""
    t = finished_transcript(tmp_path / "t.yaml")
    before = t.stat()
    ru = run("replay", "--update", t)
    assert ru.exit_code == 0, ru.output
    assert re.fullmatch(rf"unchanged {re.escape(str(t))}: \d+ moves, already as the current rules write it\n",
                        ru.output), ru.output
    after = t.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_show_legend_of_a_board_that_ends_with_its_legend_prints_it_once(tmp_path: Path) -> None:
    """FBI vs Mafia's board already ends with its legend line: ``--legend`` printed it twice."""
    t = finished_transcript(tmp_path / "t.yaml")
    board = run("show", t)
    r = run("show", t, "--legend")
    precondition(board.exit_code == 0 and board.output.rstrip().splitlines()[-1].startswith("Legend: "), board.output)
    assert r.exit_code == 0, r.output
    assert r.output == board.output
    # the help says the legend comes under FILE's board, not in its place
    assert "--legend Explain the board's symbols: under FILE's board, or alone (no FILE)" in \
        " ".join(run("show", "--help").output.split())


def test_show_legend_says_so_where_a_board_has_none_and_is_no_seats(tmp_path: Path) -> None:
    """Classic Mafia's board is words: ``--legend`` printed nothing more, as if taken; and
    ``--legend --as p1`` without a FILE took a seat for the legends, which are no one's."""
    t = tmp_path / "m.yaml"
    assert run("play", "mafia", "--bots", "random", "--seed", 2, "--transcript", t).exit_code == 0
    board, r = run("show", t), run("show", t, "--legend")
    assert r.exit_code == 0 and r.output == board.output + \
        "(Classic Mafia's board has no symbols to explain: it is written in words)\n", r.output
    r = run("show", "--legend", "--as", "p1")
    assert r.exit_code == 2 and "Invalid value for --as: --as shows a FILE's board as a seat saw it" in r.output


def test_a_resumed_seat_session_is_told_its_deal_again_as_a_fresh_one_is(tmp_path: Path) -> None:
    """The header of a resumed text session once left out the seat's card (a JSON session's
    opening object had it): the deal's events that seat may see are told again, no others."""
    t = tmp_path / "t.yaml"
    empty = write(tmp_path / "none.txt", "")
    args = ["mafia", "--players", 8, "--as", "p3", "--bots", "random", "--seed", 2, "--moves", empty]
    fresh = run("play", *args, "--transcript", t)
    precondition(fresh.exit_code == 4 and tr.read(t).move_count > 0, fresh.output)
    dealt = [line for line in fresh.output.splitlines() if line.startswith("# event: ")]
    precondition(any("You are p3: your card is" in line for line in dealt), fresh.output)
    resumed = run("play", "--resume", t, "--moves", empty)
    assert resumed.exit_code == 4, resumed.output
    header = resumed.output.splitlines()
    assert header[1] == "# resumed; the game began so (`board` shows it as it is now):"
    assert [line for line in header if line.startswith("# event: ")] == dealt

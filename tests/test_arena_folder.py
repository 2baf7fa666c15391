"""A tournament's folder as a run finds it: what a run killed before its configuration, or in
the middle, left (started again; its temporary files removed, no one else's), the default
folder's name, and a file, FIFO, device, dangling link or folder where the folder, its lock,
its configuration, its results or its transcripts/ should be: each refused, naming it and what
it is, without waiting on it, and nothing changes."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from arbiter.engine.arena import results
from arbiter.engine.arena.results import Folder, FolderError, read_results

from tests import arena_staging
from tests.arena_staging import MATCH, assert_free, copy_of, snapshot
from tests.helpers import run
from tests.hostile import within

played = arena_staging.played  # the finished match each test copies (played once a process)


# -- a run killed before it wrote its configuration -----------------------------------------------


def killed_before_configuration(folder: Path) -> Path:
    """What ``Folder.create`` leaves when killed before ``tournament.json`` is in place."""
    (folder / "transcripts").mkdir(parents=True)
    (folder / ".lock").write_bytes(b"")
    (folder / ".tournament.json.4242-0.tmp").write_text('{"format": 1, "ga')
    return folder


def test_a_folder_left_by_a_run_killed_before_its_configuration_is_started_again_not_resumed(tmp_path):
    folder = killed_before_configuration(tmp_path / "t")
    (folder / "transcripts" / "game-00000.yaml").write_text("mine")  # more than leftovers: refused
    before = snapshot(folder)
    r = run(*MATCH, "--games", "2", "--out", folder)
    assert r.exit_code == 1 and "not empty and holds no tournament" in r.output, r.output
    assert snapshot(folder) == before
    (folder / "transcripts" / "game-00000.yaml").unlink()
    before = snapshot(folder)
    r = run("tournament", "--resume", folder)
    assert r.exit_code == 1, r.output
    assert "stopped before it wrote its configuration" in r.output and "same command" in r.output, r.output
    assert snapshot(folder) == before
    r = run(*MATCH, "--games", "2", "--out", folder)
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in folder.iterdir()) == [".lock", "results.jsonl", "tournament.json", "transcripts"]
    assert json.loads((folder / "tournament.json").read_text())["games"] == 2
    assert len((folder / "results.jsonl").read_text().splitlines()) == 2


def test_a_folder_a_run_is_still_making_is_refused_as_being_played(tmp_path):
    folder = killed_before_configuration(tmp_path / "t")
    before = snapshot(folder)
    with (folder / ".lock").open("ab") as held:  # the run making it holds its lock
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        for args in (MATCH + ("--games", "2", "--out", folder), ("tournament", "--resume", folder)):
            r = run(*args)
            assert r.exit_code == 1 and "being played by another run right now" in r.output, (args, r.output)
            assert snapshot(folder) == before, args


def test_a_new_run_never_writes_over_the_configuration_another_run_wrote(tmp_path, monkeypatch):
    """Another run may write ``tournament.json`` after this one looked at the folder: this
    one refuses the folder rather than replace it, and lets its lock go."""
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "tournament.json").write_text("theirs\n")
    monkeypatch.setattr(results, "_fresh", lambda p: [])  # it looked before the other run wrote
    with pytest.raises(FolderError, match="already holds a tournament; go on with it with --resume"):
        Folder.create(folder, {"game": "mafia"})
    assert (folder / "tournament.json").read_text() == "theirs\n"
    assert sorted(p.name for p in folder.iterdir()) == [".lock", "tournament.json", "transcripts"]
    assert_free(folder)


# -- temporary files a killed run left ----------------------------------------------------------------


def test_a_resumed_run_removes_the_temporary_files_a_killed_run_left_and_no_other(played, tmp_path):
    folder = copy_of(played, tmp_path)
    path = folder / "results.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:2]))  # killed after two games
    (folder / "transcripts" / "game-00003.yaml").unlink()  # game 3 in progress; 2 ended, its line not written
    ours = [folder / ".tournament.json.4242-0.tmp", folder / "transcripts" / ".game-00002.yaml.4242-0.tmp",
            folder / "transcripts" / ".game-00003.p1.stderr.log.77-12.tmp"]
    for p in ours:
        p.write_text("part of a file")
    others = [folder / "transcripts" / "notes.txt", folder / "transcripts" / ".game-00002.yaml.tmp",
              folder / "transcripts" / ".game-2.yaml.1-0.tmp", folder / ".results.jsonl.1-0.tmp",
              folder / "transcripts" / ".game-00002.yaml.4242-0.tmp.bak", tmp_path / "elsewhere.txt"]
    for p in others:
        p.write_text("not the referee's to remove")
    (folder / "transcripts" / ".game-00001.yaml.1-0.tmp").symlink_to(tmp_path / "elsewhere.txt")
    (folder / "transcripts" / ".game-00000.yaml.1-0.tmp").mkdir()
    bad = path.read_text() + '{"game": 2}\n'  # a refused run changes nothing, leftovers included
    path.write_text(bad)
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1 and "line 3 is not a record of this tournament's game 2" in r.output, r.output
    assert snapshot(folder) == before
    path.write_text(bad[: bad.rindex('{"game": 2}')])
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output.splitlines()[-1])
    assert (summary["played"], summary["from_transcripts"]) == (1, 1)
    assert not any(p.exists() for p in ours)
    assert all(p.read_text() == "not the referee's to remove" for p in others)
    assert (folder / "transcripts" / ".game-00001.yaml.1-0.tmp").is_symlink()
    assert (folder / "transcripts" / ".game-00000.yaml.1-0.tmp").is_dir()


# -- the default folder ---------------------------------------------------------------------------


def test_runs_started_in_the_same_second_get_folders_of_their_own(tmp_path, monkeypatch):
    """The default --out is named by the second the run starts: a run that finds the name taken
    (made by another run that second) makes the next free one, ``-2``, ``-3``..., never sharing
    or refusing it."""
    from arbiter.engine.arena import tournament

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tournament.time, "strftime", lambda fmt: "20240101-120000")
    for _ in range(3):
        r = run(*MATCH, "--games", "2", "--json")
        assert r.exit_code == 0, r.output
    names = sorted(p.name for p in (tmp_path / "arena").iterdir())
    assert names == ["mafia-20240101-120000", "mafia-20240101-120000-2", "mafia-20240101-120000-3"]
    for name in names:
        assert len((tmp_path / "arena" / name / "results.jsonl").read_text().splitlines()) == 2
    (tmp_path / "arena" / "mafia-20240101-120000-4").write_text("a file: the name is taken too")
    assert tournament.folder_for("mafia", None) == Path("arena/mafia-20240101-120000-5")
    assert (tmp_path / "arena" / "mafia-20240101-120000-5").is_dir()


# -- files that are not what they should be --------------------------------------------------------


def test_a_file_in_the_way_of_the_tournaments_folder_is_named(tmp_path: Path, monkeypatch) -> None:
    """A file named ``arena`` where the default ``arena/GAME-...`` goes once got only "File
    exists"; an ``--out`` name too long for the system was a traceback. Nothing is made."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arena").write_text("x")
    r = run(*MATCH, "--games", "2")
    assert r.exit_code == 1, r.output
    assert r.output.startswith("Error: cannot make the tournament's folder arena/mafia-"), r.output
    assert r.output.endswith(": arena is a file, not a folder\n"), r.output
    long = "x" * 300 + "/t"
    r = run(*MATCH, "--games", "2", "--out", long)
    assert (r.exit_code, r.output) == (1, f"Error: cannot make the tournament's folder {long}: File name too long\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena"] and (tmp_path / "arena").read_text() == "x"


@pytest.mark.parametrize("name", ["tournament.json", "results.jsonl"])
@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_folders_file_that_is_no_regular_file_is_refused_without_reading_it(played, tmp_path, name, kind):
    """A FIFO in place of tournament.json or results.jsonl made the run wait for a writer for
    ever, /dev/zero filled memory (a MemoryError's traceback), a folder was "[Errno 21] ...":
    each is refused naming the file and what it is, before it is opened, and nothing changes."""
    folder = copy_of(played, tmp_path)
    path = folder / name
    what = put_special(path, kind)
    before = snapshot_links(folder)
    r = within(20, run, "tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: {path}: cannot read it: not a regular file ({what})\n")
    assert snapshot_links(folder) == before
    assert_free(folder)


@pytest.mark.parametrize("name, refusal", [
    ("tournament.json", "{path}: cannot read it: a symbolic link that leads nowhere; a tournament's configuration is "
                        "a file in its folder"),
    ("results.jsonl", "{path}: cannot read it: a symbolic link that leads nowhere; a tournament's results are a file "
                      "in its folder"),
    (".lock", "cannot hold the tournament's folder {folder}: its .lock is a symbolic link that leads nowhere; a "
              "tournament's lock is a file in its folder"),
])
def test_a_folders_file_that_is_a_link_leading_nowhere_is_refused_not_made_where_it_leads(played, tmp_path, name,
                                                                                          refusal):
    """A folder's file that is a symbolic link whose target is gone: results.jsonl read as no
    record at all (every game was played again, the new lines written where the link led, out
    of the folder); a .lock was opened to create, which made an empty file there and held it;
    tournament.json was "holds no tournament (no tournament.json)", of a name ``ls`` lists.
    Each is refused, naming the file; nothing is made and nothing changes."""
    folder = copy_of(played, tmp_path)
    path = folder / name
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    before = snapshot_links(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, "Error: " + refusal.format(path=path, folder=folder) + "\n")
    assert snapshot_links(folder) == before and not (tmp_path / "elsewhere").exists()
    if name != ".lock":  # (assert_free opens the lock: through this one, it would make its target)
        assert_free(folder)


@pytest.mark.parametrize("way", ["target gone", "loop", "through a file"])
def test_every_reader_of_a_folder_says_alike_which_link_leads_nowhere(tmp_path, way):
    """The results file, the lock, transcripts/ and a command's path (``cli.types.leads_nowhere``)
    each asked on its own whether a link leads nowhere, and not alike: a results.jsonl linked in
    a loop, or through a file, was "Too many levels of symbolic links" or "Not a directory"
    where the lock and transcripts/ named the link; tournament.json was one of those, or "no
    tournament.json". One test (``files.dangling_link``) now."""
    from arbiter.cli.types import leads_nowhere

    folder = tmp_path / "t"
    folder.mkdir()
    (tmp_path / "file").write_text("a file, not a folder")
    for name in ("tournament.json", "results.jsonl", ".lock", "transcripts"):
        path = folder / name
        path.symlink_to({"target gone": tmp_path / "gone", "loop": path,
                         "through a file": tmp_path / "file" / "x"}[way])
    nowhere = "is a symbolic link that leads nowhere"
    with pytest.raises(FolderError) as caught:
        Folder.existing(folder)
    assert caught.value.message == (f"{folder / 'tournament.json'}: cannot read it: a symbolic link that leads "
                                    "nowhere; a tournament's configuration is a file in its folder")
    with pytest.raises(FolderError) as caught:
        read_results(folder / "results.jsonl")
    assert caught.value.message == (f"{folder / 'results.jsonl'}: cannot read it: a symbolic link that leads nowhere; "
                                    "a tournament's results are a file in its folder")
    with pytest.raises(FolderError) as caught:
        Folder(folder).lock()
    assert caught.value.message == (f"cannot hold the tournament's folder {folder}: its .lock {nowhere}; a "
                                    "tournament's lock is a file in its folder")
    with pytest.raises(FolderError) as caught:
        Folder(folder)._open_transcripts()
    assert caught.value.message == (f"cannot open the tournament's folder {folder}: its transcripts/ {nowhere}, "
                                    "not a folder")
    for name in ("tournament.json", "results.jsonl", ".lock", "transcripts"):
        with pytest.raises(OSError) as stat_error:
            os.stat(folder / name)
        assert leads_nowhere(str(folder / name), stat_error.value).startswith(f"'{folder / name}' {nowhere} (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "t"]  # nothing made where a link led


@pytest.mark.parametrize("way", ["target gone", "loop", "through a file"])
def test_a_new_run_whose_configuration_is_a_link_leading_nowhere_names_it(tmp_path, way):
    """A new run (``--out``) into a folder whose tournament.json is a link that leads nowhere
    was refused with the general "is not empty and holds no tournament", though ``ls`` lists
    a tournament.json there (a folder whose configuration was moved, say). The refusal names
    the link; nothing is made, here or where it led."""
    folder = tmp_path / "t"
    folder.mkdir()
    (tmp_path / "file").write_text("a file, not a folder")
    link = folder / "tournament.json"
    link.symlink_to({"target gone": tmp_path / "gone", "loop": link, "through a file": tmp_path / "file" / "x"}[way])
    r = run(*MATCH, "--games", "2", "--out", folder)
    assert (r.exit_code, r.output) == (1, f"Error: {link} is a symbolic link that leads nowhere, so {folder} holds "
                                          "no tournament to go on with and is not empty; choose a new or empty --out\n")
    assert [p.name for p in folder.iterdir()] == ["tournament.json"] and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "t"]


def put_special(path: Path, kind: str) -> str:
    """Put in place of the file ``path`` a FIFO, a link to a device or a folder (``kind``); what
    a refusal calls it."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return {"fifo": "a FIFO", "device": "a character device", "folder": "a folder"}[kind]


def snapshot_links(folder: Path) -> dict[str, object]:
    """``snapshot``, a FIFO or a link named by what it is, never opened."""
    return {str(p.relative_to(folder)): (os.readlink(p) if p.is_symlink() else p.read_bytes() if p.is_file()
                                         else stat.S_IFMT(p.stat().st_mode)) for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_lock_that_is_no_regular_file_is_refused_without_waiting(played, tmp_path, kind):
    """A FIFO in place of the folder's .lock made the run wait for a reader for ever (the lock
    was opened for appending, which waits): it, a device and a folder are refused at once."""
    folder = copy_of(played, tmp_path)
    what = put_special(folder / ".lock", kind)
    before = snapshot_links(folder)
    r = within(20, run, "tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: cannot hold the tournament's folder {folder}: its .lock is not a "
                                          f"regular file ({what})\n")
    assert snapshot_links(folder) == before


@pytest.mark.parametrize("kind", ["file", "fifo", "dangling"])
def test_a_transcripts_folder_that_is_no_folder_is_named(played, tmp_path, kind):
    """A file in place of the folder's transcripts/ was refused as "File exists", naming
    nothing: which file, and what it is, are said; nothing changes."""
    folder = copy_of(played, tmp_path)
    transcripts = folder / "transcripts"
    shutil.rmtree(transcripts)
    what = {"file": "a file", "fifo": "a FIFO", "dangling": "a symbolic link that leads nowhere"}[kind]
    if kind == "file":
        transcripts.write_text("notes")
    elif kind == "fifo":
        os.mkfifo(transcripts)
    else:
        transcripts.symlink_to(tmp_path / "gone")
    before = snapshot_links(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: cannot open the tournament's folder {folder}: its transcripts/ is "
                                          f"{what}, not a folder\n")
    assert snapshot_links(folder) == before
    assert_free(folder)

"""Files written whole (``engine/files.py``): ``arbiter replay --update``, ``Game.save``, a
tournament's files and the tools' outputs are rewritten so that a kill at any instant, a crash
or a full disk leaves the old file or the new one, never a part.

- A writer killed (SIGKILL, in a child process) at each system call of the write leaves the old
  text until the rename and the new one after it; a failure at each call leaves the old text and
  no file beside it.
- ``replace=False`` never writes over a file; a file written over keeps its permission bits,
  a new one gets those ``open`` gives.
- ``arbiter replay --update`` killed while it writes leaves the transcript as it was, and a
  full disk is a refusal that names the file and says it is unchanged.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from arbiter.engine import files
from tests.faults import FailingOs
from tests.helpers import REPO, run, tree_env

OLD, NEW = "old text\n" * 2000, "new text, longer than the old\n" * 3000

# The system calls of one write over an existing file, in order, as (function, its n-th call):
# the new file made, written, its mode set, synced, closed, renamed over the target; the
# folder opened and synced for the rename's sake.
BEFORE_RENAME = [("open", 1), ("write", 1), ("fchmod", 1), ("fsync", 1), ("close", 1), ("replace", 1)]
AFTER_RENAME = [("open", 2), ("fsync", 2)]


KILLER = textwrap.dedent("""
    import os, signal, sys
    from arbiter.engine import files
    sys.path.insert(0, sys.argv[3])
    from tests.faults import FailingOs
    files.os = FailingOs(sys.argv[1], int(sys.argv[2]), lambda: os.kill(os.getpid(), signal.SIGKILL))
    what = sys.argv[4:]
    if what[0] == "write":
        files.write_whole(what[1], open(what[2], encoding="utf-8").read())
    else:
        from arbiter.cli.main import main
        main(what, prog_name="arbiter")
""")


def killed_at(name: str, nth: int, *what: object) -> subprocess.CompletedProcess:
    env = tree_env()
    return subprocess.run([sys.executable, "-c", KILLER, name, str(nth), str(REPO), *map(str, what)],
                          env=env, capture_output=True, text=True, timeout=60)


def beside(target: Path) -> list[str]:
    return sorted(p.name for p in target.parent.iterdir() if p != target)


@pytest.mark.parametrize(("name", "nth"), BEFORE_RENAME + AFTER_RENAME)
def test_a_writer_killed_at_any_call_leaves_the_old_text_or_the_new(tmp_path: Path, name: str, nth: int) -> None:
    target, source = tmp_path / "out" / "t.yaml", tmp_path / "new.txt"
    target.parent.mkdir()
    target.write_text(OLD, encoding="utf-8")
    source.write_text(NEW, encoding="utf-8")
    proc = killed_at(name, nth, "write", target, source)
    assert proc.returncode == -signal.SIGKILL, proc.stderr  # it was killed there, not before, not never
    expected = OLD if (name, nth) in BEFORE_RENAME else NEW
    assert target.read_text(encoding="utf-8") == expected
    assert all(n.startswith(".t.yaml.") and n.endswith(".tmp") for n in beside(target))  # a hidden leftover at most


@pytest.mark.parametrize(("name", "nth"), BEFORE_RENAME)
def test_a_failure_at_any_call_leaves_the_old_text_and_nothing_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, nth: int) -> None:
    target = tmp_path / "t.yaml"
    target.write_text(OLD, encoding="utf-8")

    def full() -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files, "os", FailingOs(name, nth, full))
    with pytest.raises(OSError) as caught:
        files.write_whole(target, NEW)
    assert caught.value.errno == errno.ENOSPC
    assert target.read_text(encoding="utf-8") == OLD
    assert beside(target) == []


def test_the_text_is_written_exactly_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "t.yaml"
    for text in (OLD, NEW, "", "é\r\n\x00 no translation\n"):
        files.write_whole(target, text)
        assert target.read_bytes() == text.encode("utf-8")
        assert beside(target) == []


def test_a_folder_that_is_not_there_is_named_by_the_file_asked_for(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as caught:
        files.write_whole(tmp_path / "no" / "t.yaml", NEW)
    assert caught.value.filename == str(tmp_path / "no" / "t.yaml")


def test_a_file_written_over_keeps_its_mode_and_a_new_one_gets_opens(tmp_path: Path) -> None:
    target = tmp_path / "t.yaml"
    target.write_text(OLD, encoding="utf-8")
    target.chmod(0o640)
    files.write_whole(target, NEW)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    made_by_open = tmp_path / "o.txt"
    made_by_open.write_text("x", encoding="utf-8")
    files.write_whole(tmp_path / "n.txt", NEW)
    assert stat.S_IMODE((tmp_path / "n.txt").stat().st_mode) == stat.S_IMODE(made_by_open.stat().st_mode)


def test_a_symbolic_link_stays_and_the_file_it_leads_to_is_rewritten(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target, link = tmp_path / "real" / "t.yaml", tmp_path / "link.yaml"
    target.write_text(OLD, encoding="utf-8")
    link.symlink_to(target)
    files.write_whole(link, NEW)
    assert link.is_symlink() and link.resolve() == target
    assert target.read_text(encoding="utf-8") == NEW
    assert beside(target) == []


def test_replace_false_never_writes_over_a_file(tmp_path: Path) -> None:
    target, link = tmp_path / "t.yaml", tmp_path / "dangling.yaml"
    target.write_text(OLD, encoding="utf-8")
    link.symlink_to(tmp_path / "nowhere")
    for path in (target, link):
        with pytest.raises(FileExistsError):
            files.write_whole(path, NEW, replace=False)
    assert target.read_text(encoding="utf-8") == OLD and not (tmp_path / "nowhere").exists()
    files.write_whole(tmp_path / "new.yaml", NEW, replace=False)
    assert (tmp_path / "new.yaml").read_text(encoding="utf-8") == NEW
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.yaml", "new.yaml", "t.yaml"]


def test_replace_false_does_not_take_a_file_made_meanwhile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that appears after the first look (another writer) is not written over: the hard
    link that puts the new file in place fails, and the new file is removed."""
    target = tmp_path / "t.yaml"

    class Racing:
        def __getattr__(self, attr: str) -> Any:
            if attr != "link":
                return getattr(os, attr)

            def link(source: Path, dest: Path) -> None:
                Path(dest).write_text(OLD, encoding="utf-8")  # between the look and the link
                os.link(source, dest)
            return link
    monkeypatch.setattr(files, "os", Racing())
    with pytest.raises(FileExistsError):
        files.write_whole(target, NEW, replace=False)
    assert target.read_text(encoding="utf-8") == OLD
    assert beside(target) == []


@pytest.mark.parametrize("code", [errno.EPERM, errno.EOPNOTSUPP])
def test_replace_false_without_hard_links_renames_after_a_last_look(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      code: int) -> None:
    """Where the file system has no hard links (``link`` refused with EPERM or EOPNOTSUPP, as
    on FAT or some network shares), ``replace=False`` looks once more and renames: a new file is
    written whole, a file there by the last look is left as it is; any other refusal of ``link``
    is an error. Nothing is left beside the target either way."""
    refusal = [code]

    class NoLinks:
        def __getattr__(self, attr: str) -> Any:
            if attr != "link":
                return getattr(os, attr)

            def link(source: Path, dest: Path) -> None:
                raise OSError(refusal[0], os.strerror(refusal[0]), str(dest))
            return link
    monkeypatch.setattr(files, "os", NoLinks())
    new, taken, other = (tmp_path / d / "t.yaml" for d in ("new", "taken", "other"))
    for path in (new, taken, other):
        path.parent.mkdir()
    files.write_whole(new, NEW, replace=False)
    assert new.read_text(encoding="utf-8") == NEW and beside(new) == []
    real_lexists, looks = os.path.lexists, []

    def look(p: Any) -> bool:  # the first look at it finds nothing; another writer's file is there by the last
        if Path(p) != taken:
            return real_lexists(p)
        looks.append(p)
        if len(looks) > 1 and not real_lexists(taken):
            taken.write_text(OLD, encoding="utf-8")
        return len(looks) > 1
    monkeypatch.setattr(os.path, "lexists", look)
    with pytest.raises(FileExistsError):
        files.write_whole(taken, NEW, replace=False)
    assert taken.read_text(encoding="utf-8") == OLD and beside(taken) == []
    refusal[0] = errno.EIO
    with pytest.raises(OSError) as caught:
        files.write_whole(other, NEW, replace=False)
    assert caught.value.errno == errno.EIO and not other.exists() and beside(other) == []


# -- arbiter replay --update --------------------------------------------------------------------


def tampered_transcript(path: Path) -> str:
    r = run("play", "fbi-mafia", "--mode", "standard-3v3", "--bots", "random", "--seed", 3, "--transcript", path)
    assert r.exit_code == 0, r.output
    text = path.read_text(encoding="utf-8")
    tampered = text.replace("\n  text: '", "\n  text: 'tampered ", 1)  # the result's text
    assert tampered != text
    path.write_text(tampered, encoding="utf-8")
    return tampered


def test_replay_update_killed_while_it_writes_leaves_the_transcript_as_it_was(tmp_path: Path) -> None:
    t = tmp_path / "t.yaml"
    tampered = tampered_transcript(t)
    proc = killed_at("fsync", 1, "replay", "--update", t)
    assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr
    assert t.read_text(encoding="utf-8") == tampered
    r = run("replay", tmp_path)  # the hidden leftover is no transcript of the folder
    assert r.exit_code == 1 and r.output.splitlines()[0] == f"FAIL {t}:" and "result differs" in r.output
    ru = run("replay", "--update", t)
    assert ru.exit_code == 0 and ru.output.startswith(f"updated {t}:"), ru.output
    assert run("replay", t).exit_code == 0


def test_replay_update_on_a_full_disk_names_the_file_and_leaves_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t, other = tmp_path / "t.yaml", tmp_path / "u.yaml"
    tampered = tampered_transcript(t)

    def full() -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files, "os", FailingOs("write", 1, full))
    ru = run("replay", "--update", t)
    assert ru.exit_code == 1
    assert ru.output == f"FAIL {t}: cannot write it: No space left on device; the file is as it was\n"
    assert t.read_text(encoding="utf-8") == tampered
    assert beside(t) == []
    monkeypatch.undo()
    other.write_text(tampered, encoding="utf-8")
    assert run("replay", "--update", t, other).exit_code == 0  # the next run writes both


def test_a_folder_that_cannot_be_looked_into_is_said_and_a_link_to_a_folder_followed_once(tmp_path, monkeypatch):
    """``replay FOLDER`` and ``validate FOLDER`` passed over a folder they could not read without
    a word (its files unchecked, status 0), and a link to a folder was not looked into."""
    import os


    from arbiter.engine.files import files_under

    (tmp_path / "a" / "shut").mkdir(parents=True)
    (tmp_path / "a" / "shut" / "g.yaml").write_text("x")
    (tmp_path / "a" / "g.yaml").write_text("x")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "h.yml").write_text("x")
    (tmp_path / "a" / "to-b").symlink_to(tmp_path / "b")
    (tmp_path / "b" / "back").symlink_to(tmp_path / "a")  # (a loop: each folder once)
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("shut"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found, missed = files_under(tmp_path / "a", (".yaml", ".yml"))
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["a/g.yaml", "a/to-b/h.yml"]
    assert missed == [f"{tmp_path / 'a' / 'shut'}: cannot read the folder: Permission denied"]
    for command in (["replay", str(tmp_path / "a")], ["validate", str(tmp_path / "a")]):
        r = run(*command)
        assert r.exit_code == 1 and f"FAIL {tmp_path / 'a' / 'shut'}: cannot read the folder: Permission denied\n" \
            in r.output, r.output

"""Transcripts checked in numbers (``engine/replays.py``, ``arbiter replay --workers``): the
report, its order, the exit status and the files ``--update`` writes are the same with one
worker or many; a worker that dies is an error that names the files; Ctrl-C stops the workers.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbiter.engine import registry, replays
from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.errors import ArbiterError
from tests.helpers import REPO, run
from tests.hostile import within

GAMES = [("fbi-mafia", "standard-3v3", None), ("mafia", "8-players", None), ("magic-maze", "1", "planner"),
         ("fbi-mafia", "duel-4v4", None), ("mafia", "12-players", None)]


def folder_of_every_kind(folder: Path) -> list[Path]:
    """Transcripts that replay (finished, unfinished, an ending cut off), one tampered with, one
    unreadable, one whose recorded result was edited (``--update`` repairs it): in name order."""
    folder.mkdir()
    texts: dict[str, str] = {}
    for i, (game, variant, kind) in enumerate(GAMES * 2):
        session = play_random(registry.get(game), variant, seed=10 + i, kind=kind or "random",
                              **({"max_inputs": 12} if i == 6 else {}))
        texts[f"g{i:02}.yaml"] = tr.dump(session)
    finished = texts["g00.yaml"]
    texts["g10-cut.yaml"] = finished[: finished.index("\nresult:") + 20]  # a crash while the ending was written
    texts["g11-tampered.yaml"] = re.sub(r"(\{move: \{n: 2, seat: )\w+", r"\1nobody", finished, count=1)
    texts["g12-unreadable.yaml"] = "format: [1\n"
    texts["g13-edited.yaml"] = texts["g01.yaml"].replace("\n  text: '", "\n  text: 'edited ", 1)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return sorted(folder.iterdir())


@pytest.fixture(autouse=True)
def workers_for_any_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start whenever two files are left after the timed ones, however fast they go
    (the tests' folders are small): what they find is what is compared here."""
    monkeypatch.setattr(replays, "POOL_WORTH_S", 0.0)


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return folder_of_every_kind(tmp_path_factory.mktemp("replays") / "t")[0].parent


@pytest.fixture(scope="module")
def found_alone(every_kind: Path) -> list[replays.FileCheck]:
    """What one process (``workers=1``, no pool) finds in ``every_kind``, in order: the
    reference the tests hold the workers' findings to, checked once a worker process (the
    files never change, and a finding is a frozen value)."""
    return list(replays.check_files(sorted(every_kind.iterdir()), workers=1))


def test_the_folder_holds_every_kind_of_finding(every_kind: Path) -> None:
    found = {Path(c.path).name: c for c in replays.check_files(sorted(every_kind.iterdir()))}
    assert found["g10-cut.yaml"].ok and found["g10-cut.yaml"].notes and not found["g10-cut.yaml"].ending_written
    assert found["g06.yaml"].ok and not found["g06.yaml"].finished
    assert not found["g11-tampered.yaml"].ok and found["g11-tampered.yaml"].diff
    assert found["g12-unreadable.yaml"].unreadable
    assert not found["g13-edited.yaml"].ok and "result differs" in found["g13-edited.yaml"].problems[0]
    assert sum(c.ok for c in found.values()) == 11


def test_each_kind_is_reported_in_its_own_words(every_kind: Path) -> None:
    """The line ``replay`` prints of a file that replays says how its game stands: finished by
    its written ending, finished by its moves though the ending was cut off (with the moves'
    result), or unfinished; and each names the moves."""
    whole, cut, short = (every_kind / n for n in ("g00.yaml", "g10-cut.yaml", "g06.yaml"))
    text = tr.read(whole).result["text"]
    moves = sum("move" in entry for entry in tr.read(whole).log)
    assert text and moves
    out = run("replay", "--workers", 1, whole, cut, short).output.splitlines()
    lines = [line for line in out if not line.startswith("note ")]
    assert lines == [f"ok {whole}: {moves} moves, finished: {text}",
                     f"ok {cut}: {moves} moves, finished: {text} (the transcript has no ending; the moves make it)",
                     f"ok {short}: 12 moves, unfinished (resumable)"]


def test_a_file_cut_inside_a_character_that_does_not_replay_is_shown_as_read(tmp_path: Path) -> None:
    """A crash can cut the last line inside a character; the reader leaves that line out. When
    such a file also did not replay, its diff once read it again as strict UTF-8 and ended the
    command with a traceback (UnicodeDecodeError): it shows the cut line as read, with U+FFFD."""
    finished = tr.dump(play_random(registry.get("fbi-mafia"), "standard-3v3", seed=10))
    tampered = re.sub(r"(\{move: \{n: 2, seat: )\w+", r"\1nobody", finished, count=1)
    path = tmp_path / "torn.yaml"
    path.write_bytes(tampered[: tampered.index("result:")].encode("utf-8") + "- {note: {x: caf\u00e9".encode("utf-8")[:-1])
    found = replays.check_file(path)
    assert found.unreadable is None and not found.ok and found.problems
    assert found.diff[-2:] == ("-- {note: {x: caf\ufffd\n", "\\ No newline at end of file\n")
    r = run("replay", path)
    assert r.exit_code == 1 and r.output.endswith("\\ No newline at end of file\n"), r.output


@pytest.mark.parametrize("workers", [2, 3, 20])
def test_any_number_of_workers_finds_the_same_in_the_same_order(every_kind: Path, found_alone: list[replays.FileCheck],
                                                                workers: int) -> None:
    paths = sorted(every_kind.iterdir())
    assert list(replays.check_files(paths, workers=workers)) == found_alone


def test_spawned_workers_find_the_same(every_kind: Path, found_alone: list[replays.FileCheck],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the process runs other threads (or off Linux) the workers are spawned, not forked:
    they import arbiter afresh and compile the game's data themselves, and find the same."""
    monkeypatch.setattr(replays.threading, "active_count", lambda: 2)
    assert replays._start_method() == "spawn"
    spawned = []
    real = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: spawned.append(method) or real(method))
    paths = sorted(every_kind.iterdir())
    assert list(replays.check_files(paths, workers=2)) == found_alone
    assert spawned == ["spawn"]


@pytest.mark.parametrize(("seconds", "pool"), [(0.002, False), (0.2, True)])
def test_workers_start_only_for_files_that_would_take_longer_here_than_starting_them(
        every_kind: Path, found_alone: list[replays.FileCheck], monkeypatch: pytest.MonkeyPatch, seconds: float,
        pool: bool) -> None:
    """The first file compiles the game's data; the next two are timed (``seconds`` for both, by
    a planted clock): 11 files left at that pace take 11 ms (no workers: they would cost more)
    or 1.1 s (workers), against ``POOL_WORTH_S``. The findings are the same either way."""
    paths = sorted(every_kind.iterdir())
    started: list[str] = []
    real = replays._start_method
    ticks = iter([0.0, seconds])
    monkeypatch.setattr(replays, "POOL_WORTH_S", 0.2)
    monkeypatch.setattr(replays, "_clock", lambda: next(ticks))
    monkeypatch.setattr(replays, "_start_method", lambda: started.append(real()) or started[-1])
    assert list(replays.check_files(paths, workers=2)) == found_alone
    assert bool(started) is pool


@pytest.mark.parametrize("args", [[], ["--no-diff"]])
def test_the_report_and_exit_status_are_the_same_with_any_number_of_workers(every_kind: Path, args: list[str]) -> None:
    one = run("replay", *args, "--workers", 1, every_kind)
    assert one.exit_code == 1
    assert [line.split()[0] for line in one.output.splitlines() if line.startswith(("ok", "FAIL"))].count("ok") == 11
    for workers in (2, 5):
        many = run("replay", *args, "--workers", workers, every_kind)
        assert (many.exit_code, many.output) == (one.exit_code, one.output)


def test_update_writes_the_same_files_with_any_number_of_workers(tmp_path: Path, every_kind: Path) -> None:
    outputs = {}
    for workers in (1, 3):
        copy = tmp_path / f"w{workers}"
        shutil.copytree(every_kind, copy)
        r = run("replay", "--update", "--workers", workers, copy)
        outputs[workers] = (r.exit_code, r.output.replace(str(copy), "DIR"),
                            {p.name: p.read_bytes() for p in sorted(copy.iterdir())})
    assert outputs[1] == outputs[3]
    exit_code, output, written = outputs[1]
    assert exit_code == 1  # the tampered and the unreadable stay failures
    assert "updated DIR/g13-edited.yaml" in output
    assert written["g13-edited.yaml"] == (every_kind / "g01.yaml").read_bytes()
    assert written["g11-tampered.yaml"] == (every_kind / "g11-tampered.yaml").read_bytes()


def dies_on_tampered(path: str | Path, **kwargs: object) -> replays.FileCheck:
    if "tampered" in str(path):
        os._exit(3)  # a worker killed at this file (a planted fault, inherited by forked workers)
    return checked(path, **kwargs)  # type: ignore[arg-type]


checked = replays.check_file


def test_a_worker_that_dies_is_an_error_naming_the_first_file_not_checked(
        every_kind: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "_start_method", lambda: "fork")  # so the workers have the fault
    monkeypatch.setattr(replays, "check_file", dies_on_tampered)
    paths = sorted(every_kind.iterdir())
    got: list[replays.FileCheck] = []
    with pytest.raises(ArbiterError) as caught:
        got.extend(replays.check_files(paths, workers=2))
    assert [c.path for c in got] == list(map(str, paths[:len(got)]))  # in order, up to the fault at most
    assert len(got) <= [p.name for p in paths].index("g11-tampered.yaml")
    left = len(paths) - len(got) - 1
    assert caught.value.message == (f"a worker process died (killed?): {paths[len(got)]} and the {left} files "
                                    "after it were not checked")
    assert multiprocessing.active_children() == []
    r = run("replay", "--workers", 2, every_kind)
    assert r.exit_code == 1
    error = re.search(r"^Error: a worker process died \(killed\?\): (\S+) and the (\d+) files after it were not "
                      r"checked$", r.output, re.M)
    assert error, r.output
    checked_lines = [line.split()[1].rstrip(":") for line in r.output.splitlines() if line.startswith(("ok ", "FAIL "))]
    assert checked_lines == list(map(str, paths[:len(checked_lines)]))
    assert error.group(1) == str(paths[len(checked_lines)])
    assert int(error.group(2)) == len(paths) - len(checked_lines) - 1


def test_stopping_early_stops_the_workers_and_drops_what_they_had_not_begun(every_kind: Path) -> None:
    found: Iterator[replays.FileCheck] = replays.check_files(sorted(every_kind.iterdir()) * 4, workers=2)
    assert [next(found).ok for _ in range(5)] == [True] * 5  # three here, then two from the workers
    assert len(multiprocessing.active_children()) == 2
    found.close()  # what a Ctrl-C in the loop that reads them does
    assert multiprocessing.active_children() == []


def test_ctrl_c_ends_the_replay_with_status_130_and_says_how_far_it_got(
        every_kind: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(paths: list[Path], **kwargs: object) -> Iterator[replays.FileCheck]:
        yield replays.check_file(paths[0])
        raise KeyboardInterrupt
    monkeypatch.setattr("arbiter.cli.records.check_files", interrupted)
    r = run("replay", every_kind)
    assert r.exit_code == 130
    assert r.output.splitlines()[0].startswith(f"ok {every_kind / 'g00.yaml'}: ")
    assert f"interrupted: 1 of {len(list(every_kind.iterdir()))} transcripts checked" in r.output


FILES = 300
"""Enough that the Ctrl-C, sent after the third line, lands while the run goes on (it would take
a second or two more). A run of the suite started by a shell in the background, without job
control, ignores Ctrl-C and so would the referee it starts, which would then check every file
and exit 1 with nothing on stderr; the test starts it with Ctrl-C at its default."""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])  # (SIGHUP: as SIGTERM, in the same code)
def test_ctrl_c_at_a_terminal_stops_the_parent_and_its_workers_without_a_traceback(tmp_path: Path,
                                                                                   every_kind: Path,
                                                                                   signum: int) -> None:
    """Ctrl-C reaches the whole process group, workers included: the run ends with status 130,
    says how many files it checked (those it reported, no more), and nothing prints a traceback.
    SIGTERM and SIGHUP to the group (``timeout``, a closed terminal) stop it the same way: the
    workers inherited the command's handler of them and each printed a traceback, and with
    many workers the pool once hung."""
    folder = tmp_path / "many"
    folder.mkdir()
    kinds = [p for p in sorted(every_kind.iterdir()) if "unreadable" not in p.name]
    for i in range(FILES):
        shutil.copy(kinds[i % len(kinds)], folder / f"c{i:03}-{kinds[i % len(kinds)].name}")
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # (it starts with Ctrl-C at its default, as a terminal's job does: tests/conftest.py sees to that)
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "replay", "--no-diff", "--workers", "32",
                             str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    assert proc.stdout is not None
    here = [proc.stdout.readline() for _ in range(5)]  # three checked here, then two from the workers
    os.killpg(proc.pid, signum)
    # (read through the text stream readline read from: communicate reads the pipe itself, and
    # would miss the lines readline took in beyond the ones it returned)
    out = within(60, proc.stdout.read)
    err = proc.stderr.read() if proc.stderr is not None else ""
    proc.wait(timeout=60)
    assert here[0].startswith(f"ok {folder / 'c000-g00.yaml'}: ")
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err, err
    told = re.fullmatch(rf"interrupted: (\d+) of {FILES} transcripts checked\n", err)
    assert told, err
    reported = [line for line in [*here, *out.splitlines()] if line.startswith(("ok ", "FAIL "))]
    assert len(reported) == int(told.group(1)) < FILES  # each file it says it checked, and no more


KILLED_MIDWAY = r'''
import multiprocessing, sys, time
from pathlib import Path
from arbiter.engine import replays
replays.POOL_WORTH_S = 0.0
found = replays.check_files(sorted(Path(sys.argv[1]).iterdir()) * 4, workers=2)
for _ in range(5):  # three here, then two from the workers
    next(found)
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
time.sleep(60)  # killed meanwhile
'''


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_replay_killed_outright(every_kind: Path) -> None:
    """A replay killed outright (SIGKILL, the out-of-memory killer) once left its workers
    waiting for work for ever; they die with it."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", KILLED_MIDWAY, str(every_kind)], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    workers = [int(pid) for pid in proc.stdout.readline().split()]
    try:
        assert len(workers) == 2 and all(map(alive, workers))
        proc.kill()
        proc.wait(timeout=30)
        for _ in range(500):  # a bounded wait: Linux kills them at once, then they are reaped
            if not any(map(alive, workers)):
                break
            time.sleep(0.01)
        assert not any(map(alive, workers)), "workers outlived the replay that started them"
    finally:
        proc.kill()
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)  # (the workers this test started, left over)


def test_a_move_of_megabytes_is_quoted_cut_in_the_report_and_its_diff(tmp_path: Path) -> None:
    """A transcript edited to hold a move of 10 MB was refused rightly, but the report quoted
    the move whole, twice (20 MB with the diff)."""
    t = tmp_path / "g.yaml"
    assert run("play", "mafia", "--players", 8, "--bots", "random", "--seed", 3, "--transcript", t,
               "--max-moves", 5).exit_code == 0
    text = t.read_text(encoding="utf-8")
    start = text.index("text: ", text.index("n: 3,")) + len("text: ")
    t.write_text(text[:start] + "z" * 1_000_000 + text[text.index(",", start):], encoding="utf-8")
    r = run("replay", t)
    assert r.exit_code == 1 and "refused on replay: syntax: the text is longer than 8192 bytes" in r.output
    assert len(r.output) < 5000 and "(1000045 characters)" in r.output


def test_update_leaves_a_transcript_another_process_is_writing_and_says_so(tmp_path: Path) -> None:
    """``play`` holds the file it writes; ``--update`` once replaced it meanwhile, and the moves
    the game went on with were appended to the file no longer there: lost. The file is left as
    it is, and the report says why (status 1); once the game's writer is closed, it updates."""
    from arbiter.engine.session import Session

    path = tmp_path / "g.yaml"
    session = Session(registry.get("mafia"), "8-players", seed=3)
    writer = tr.TranscriptWriter(path, session)
    session.submit("p1", "pass")
    path.write_text(path.read_text().replace("\nlog:\n", "\n# edited\nlog:\n"))  # (a rewrite would drop it)
    held = path.read_bytes()
    r = run("replay", "--update", path)
    assert r.exit_code == 1 and f"FAIL {path}: cannot write it: another arbiter process is writing it (a game " \
        "goes on in it); the file is as it was" in r.output, r.output
    session.submit("p2", "pass")  # the game goes on, in the same file
    assert path.read_bytes().startswith(held) and len(path.read_bytes()) > len(held)
    writer.close()
    r = run("replay", "--update", path)
    assert r.exit_code == 0 and "updated" in r.output and "# edited" not in path.read_text(), r.output
    assert [m.text for m in tr.replayed(tr.read(path)).moves] == ["pass", "pass"]

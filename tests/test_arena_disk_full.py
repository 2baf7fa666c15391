"""A tournament's main process that the system refuses a write (a full disk, a file size
limit): the results file, a file a Ray worker returned, the report on stdout. Each ends the run
with a clear error naming the file and the reason and saying how to go on (``--resume``), never
a traceback; the results file stays one a resumed run reads, and that run ends as an
uninterrupted one."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arbiter.engine import replays
from arbiter.engine.arena import results
from arbiter.engine.arena.results import Folder, FolderError, ResultsWriter, read_results

from tests import arena_staging
from tests.arena_staging import MATCH
from tests.helpers import REPO, run

played = arena_staging.played  # the finished match each test copies (played once a process)


def without_time(lines: list[str]) -> list[dict]:
    """The records of ``lines`` without their times, by game number: the match copied was
    played by two workers, whose lines are in the order the games ended, which varies with
    the machine's load (a resumed run with one worker writes the rest in the schedule's order)."""
    records = [{k: v for k, v in json.loads(line).items() if k != "time"} for line in lines]
    return sorted(records, key=lambda r: r["game"])


# Plays the games of the tournament in argv[1] with a pool handing back the records of argv[2]
# (what its workers would), with the results file limited to argv[3] bytes (RLIMIT_FSIZE).
LIMITED = textwrap.dedent("""
    import json, resource, signal, sys
    from arbiter.engine.arena.results import Folder, FolderError
    from arbiter.engine.arena.tournament import Tournament
    from tests.arena_staging import Replaying

    records = {r["game"]: r for r in map(json.loads, open(sys.argv[2]))}
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[3]), resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    folder, config = Folder.existing(sys.argv[1])
    try:
        Tournament(config).run(folder, Replaying(records))
        print("no error")
    except FolderError as exc:
        print(exc)
""")


def test_a_results_file_past_the_size_limit_ends_the_run_clearly_and_resumes_whole(played, tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(played, folder)
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    (tmp_path / "records.jsonl").write_text("".join(lines))
    path.write_text("")  # no game recorded yet (nor played: the pool below hands back the records)
    shutil.rmtree(folder / "transcripts")
    (folder / "transcripts").mkdir()
    limit = len(lines[0].encode()) + len(lines[1].encode()) // 2  # the second line is cut in the middle
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", LIMITED, str(folder), str(tmp_path / "records.jsonl"), str(limit)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.strip() == (f"cannot write {path}: File too large; the file is past the size this system "
                                   f"allows it (ulimit -f); raise the limit, then go on with: arbiter tournament "
                                   f"--resume {folder}"), proc.stdout
    assert path.read_text() == lines[0], "the part of the line written is cut off again"
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[-1])["played"] == 3
    assert without_time(path.read_text().splitlines()) == without_time(lines)


def _failing_write(monkeypatch, target: Path, line: int, written: int = 0) -> None:
    """``os.write`` to ``target`` writes its first ``line - 1`` lines, then ``written`` bytes of
    the next and fails with ENOSPC (a disk that fills there); every other write as the system
    does it. (Unhindered, a line goes to a file in one write.)"""
    real, state = os.write, {"lines": 0, "cut": False}

    def write(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}") != str(target):
            return real(fd, data)
        if not state["cut"]:
            state["lines"] += 1
            if state["lines"] < line:
                return real(fd, data)
            if written:
                state["cut"] = True
                return real(fd, bytes(data[:written]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(results.os, "write", write)


def test_a_full_disk_while_recording_ends_the_command_with_status_1_and_a_way_on(tmp_path, monkeypatch):
    folder = tmp_path / "t"
    _failing_write(monkeypatch, (folder / "results.jsonl").resolve(), line=3, written=100)
    r = run(*MATCH, "--games", "6", "--out", folder)
    assert r.exit_code == 1, r.output
    assert (f"Error: cannot write {folder / 'results.jsonl'}: No space left on device; free some space, then go on "
            f"with: arbiter tournament --resume {folder}\n") in r.output, r.output
    assert "games recorded" not in r.output
    monkeypatch.undo()
    assert len((folder / "results.jsonl").read_text().splitlines()) == 2, "the part of the third line is cut off"
    transcript = (folder / "transcripts" / "game-00002.yaml").read_bytes()  # its game ended: its record is due
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output.splitlines()[-1])  # (game 3, running as the run stopped, may have ended too)
    assert summary["played"] + summary["from_transcripts"] == 4 and summary["from_transcripts"] in (1, 2)
    assert "# game 2 ended without its record" in r.stderr or "# games 2, 3 ended without" in r.stderr, r.stderr
    assert (folder / "transcripts" / "game-00002.yaml").read_bytes() == transcript, "not played again"
    assert sorted(json.loads(line)["game"] for line in (folder / "results.jsonl").read_text().splitlines()) == \
        list(range(6))


def test_a_line_the_disk_cut_and_could_not_take_back_is_a_torn_line_and_close_is_safe(tmp_path, monkeypatch):
    path = tmp_path / "results.jsonl"
    writer = ResultsWriter(path)
    writer.append({"game": 0})
    _failing_write(monkeypatch, path.resolve(), line=1, written=5)

    def broken(fd, size):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(results.os, "ftruncate", broken)
    with pytest.raises(FolderError, match="No space left on device; free some space"):
        writer.append({"game": 1, "finished": True})
    writer.close()  # nothing left to flush: no second error
    monkeypatch.undo()
    assert path.read_bytes() == b'{"game": 0}\n{"gam'
    assert read_results(path) == ([{"game": 0}], len(b'{"game": 0}\n'))
    again = ResultsWriter(path)  # cuts the torn part off before it appends
    again.append({"game": 1})
    again.close()
    assert path.read_text() == '{"game": 0}\n{"game": 1}\n'


def test_a_file_a_worker_returned_that_cannot_be_written_is_a_folder_error(tmp_path, monkeypatch):
    folder = Folder.create(tmp_path / "t", {})

    def full(path, text, **kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(results, "write_whole", full)
    with pytest.raises(FolderError) as err:
        folder.write_files({"game-00001.yaml": "text"})
    assert str(err.value) == (f"cannot write {folder.transcripts / 'game-00001.yaml'}: No space left on device; "
                              f"free some space, then go on with: arbiter tournament --resume {folder.path}")
    folder.unlock()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_report_the_output_refuses_is_an_error_saying_where_the_results_are(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with open("/dev/full", "w") as full:  # every write: ENOSPC
        proc = subprocess.run([sys.executable, "-m", "arbiter.cli.main", *MATCH, "--games", "2", "--out", "t"],
                              cwd=tmp_path, env=env, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.endswith("Error: cannot write the report: No space left on device; every result is in t, "
                                "and arbiter tournament --resume t prints the report again\n"), proc.stderr
    assert len((tmp_path / "t" / "results.jsonl").read_text().splitlines()) == 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_stderr_that_refuses_the_progress_lines_stops_nothing(tmp_path):
    """The progress lines on stderr are decoration: a tournament whose stderr refused its first
    line (``2>/dev/full``) stopped there with status 1 before any game. It plays every game,
    records it and prints the report on stdout, with the status of a run that went well (0): what
    Python held of the refused lines does not fail again at its exit (status 120)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    (tmp_path / "printing.py").write_text(PRINTING_AGENT)
    for out, entrants in (("t", ()), ("u", ("p=py:printing:Loud",))):
        args = [*MATCH, *entrants] if not entrants else ["tournament", "mafia", "--players", "6", "--entrant",
                                                         "a=random", "--entrant", entrants[0], "--workers", "1"]
        with open("/dev/full", "w") as full:  # every write: ENOSPC
            proc = subprocess.run([sys.executable, "-m", "arbiter.cli.main", *args, "--games", "2", "--out", out],
                                  cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=full, text=True, timeout=60)
        assert proc.returncode == 0, proc.stdout
        assert proc.stdout.rstrip().splitlines()[-2] == "2 of 2 games recorded; 2 played by this run", proc.stdout
        records = [json.loads(line) for line in (tmp_path / out / "results.jsonl").read_text().splitlines()]
        assert len(records) == 2 and all(r["finished"] and not r["forfeits"] for r in records)  # (the agent prints)


PRINTING_AGENT = """
class Loud:
    def act(self, observation, legal):
        print("thinking about", len(legal.legal), "inputs")
        return legal.legal[0] if legal.legal else None
"""


def test_ctrl_c_between_a_records_write_and_its_count_is_reported_as_the_file_holds_it(played, tmp_path,
                                                                                       monkeypatch):
    """A Ctrl-C that landed once the results file had a game's line, before the run counted it,
    left that game out of the report ("559 of 3000 games recorded", the file holding 560): the
    report of an interrupted run is what the file holds."""
    from arbiter.engine.arena.tournament import Tournament

    folder = tmp_path / "t"
    shutil.copytree(played, folder)
    path = folder / "results.jsonl"
    records = {r["game"]: r for r in map(json.loads, path.read_text().splitlines())}
    path.write_text("")  # (nor played: the pool below hands back the records)
    shutil.rmtree(folder / "transcripts")
    (folder / "transcripts").mkdir()
    written = ResultsWriter.append

    def append_then_ctrl_c(self, record):
        written(self, record)
        if len(path.read_text().splitlines()) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(ResultsWriter, "append", append_then_ctrl_c)
    existing, config = Folder.existing(folder)
    outcome = Tournament(config).run(existing, arena_staging.Replaying(records))
    assert outcome.interrupted and len(path.read_text().splitlines()) == 2
    assert [r["game"] for r in outcome.records] == [0, 1] and outcome.played == 2  # (the schedule's order)


def test_a_workers_transcript_past_the_size_limit_ends_the_run_saying_how_to_go_on(tmp_path):
    """A game's transcript is written by its worker; a write the system refused there was told
    as the referee's own failure ("game 2 failed in its worker: TranscriptError: ...") without
    how to go on, and the game another worker was playing when the run stopped left a
    transcript of its own, unfinished and in no record. The error is the folder's own (the
    file, the reason, --resume), and only recorded games have a transcript."""
    import resource
    import signal

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # (a write past the limit fails with EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))

    # seed 1's deals (match's default seed, named here for the sizes): games 0 and 1 (one deal,
    # sides swapped) write 7,111 bytes, under the limit; games 2 and 3 write 9,970, past it. That
    # 'recorded' is never empty rests on the pool: a main process slow to look (a busy machine)
    # saw game 0 end and game 2 fail together, and the failure raised at once lost game 0's record
    out = tmp_path / "t"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "arbiter.cli.main", "match", "fbi-mafia", "--mode", "duel-3v3",
                           "random", "other=random", "--games", "6", "--workers", "2", "--seed", "1",
                           "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=120, preexec_fn=limited)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    error = proc.stderr.strip().splitlines()[-1]
    assert error.startswith(f"Error: cannot write {out / 'transcripts'}/game-") and error.endswith(
        f": File too large; the file is past the size this system allows it (ulimit -f); raise the limit, then "
        f"go on with: arbiter tournament --resume {out}"), error
    recorded = {json.loads(line)["transcript"] for line in (out / "results.jsonl").read_text().splitlines()}
    written = {f"transcripts/{p.name}" for p in (out / "transcripts").glob("*.yaml")}
    assert recorded and recorded <= written  # (the first games' transcripts fit under the limit)
    for name in written:  # a game stopped mid-way left none: each one there is a whole game (one that
        found = replays.check_file(out / name)  # ended as the run stopped may have no record yet: a
        assert found.ok and found.finished, name  # resume plays it again)

"""Transcripts checked in numbers: each file read, replayed, and with ``update`` rewritten
(whole, ``files.write_whole``), in worker processes when there are many, the findings handed
back in the files' order, so what is found, and in which order, is the same with one worker or
many.

The first files are checked here: the first compiles its game's data (which workers forked
after it inherit), the next two tell how long a file takes. Workers start only when the files
left would take longer than ``POOL_WORTH_S`` here, since starting them costs ~40 ms on a
2-core machine (imports, forks, each worker's first file); the clock decides only where files
are checked, never what is found or in which order. A worker is a process of its own:
``fork``ed on Linux when the calling process runs a single thread, else ``spawn``ed. Workers
ignore Ctrl-C: the caller decides to stop, and the files being checked are finished (a rewrite
is whole or not at all either way). Workers die with the process that started them (on Linux): a
replay killed outright leaves none behind.

>>> import tempfile
>>> from arbiter.engine import registry, transcript
>>> from arbiter.engine.bench import play_random
>>> folder = Path(tempfile.mkdtemp())
>>> session = play_random(registry.get("mafia"), "8-players", seed=3)
>>> _ = (folder / "g.yaml").write_text(transcript.dump(session), encoding="utf-8")
>>> [(c.ok, c.moves == len(session.moves), c.finished) for c in check_files([folder / "g.yaml"])]
[(True, True, True)]
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import difflib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.engine import transcript as tr
from arbiter.engine.errors import ArbiterError
from arbiter.engine.files import remove_left_beside, write_whole
from arbiter.engine.orphans import die_with_parent

if TYPE_CHECKING:
    from concurrent.futures import Future

CHUNK = 4
"""Files a worker is handed at once: few enough that stopping waits for little."""
POOL_WORTH_S = 0.2
"""Seconds of checking left, at the pace of the files checked here, that make workers worth
starting: about five times what starting them costs, so two workers gain a third or more."""
TIMED = 2
"""Files checked here after the first (which compiles its game's data), to time the pace."""
_clock = time.monotonic


@dataclass(frozen=True)
class FileCheck:
    """What checking one transcript file found (plain values: a worker sends it back)."""

    path: str
    unreadable: str | None = None
    """Why the file could not be read as a transcript (nothing else was done)."""
    notes: tuple[str, ...] = ()
    """What the reader noticed and went on (a cut-off ending, say)."""
    problems: tuple[str, ...] = ()
    """Why it does not replay exactly (none: it does)."""
    diff: tuple[str, ...] = ()
    """Where it diverges: the file against the transcript the replay makes, a unified diff."""
    moves: int = 0
    finished: bool = False
    """Whether the game is over (by its written ending, or by its moves)."""
    result_text: str = ""
    ending_written: bool = False
    """Whether the file has its ending (``result``); a game its moves finished may lack it."""
    updated: bool = False
    """Rewritten from the current rules (``update``)."""
    unchanged: bool = False
    """Left untouched by ``update``: it is already what the current rules write."""
    unwritten: str | None = None
    """Why the rewrite could not be written (the file is as it was)."""

    @property
    def ok(self) -> bool:
        return self.unreadable is None and not self.problems and self.unwritten is None


def check_file(path: str | Path, *, update: bool = False, diff: bool = True) -> FileCheck:
    """Read and replay the transcript at ``path``; with ``update``, rewrite it from the current
    rules when it replays (``transcript.replay``'s ``update``) and they write it otherwise; with
    ``diff``, show where one that does not replay diverges."""
    name = str(path)
    claimed, busy = None, None
    if update:  # claimed before it is read: no game is written to it while it is read and rewritten
        try:
            claimed = tr.claim(path)
        except tr.TranscriptInUse:
            busy = "another arbiter process is writing it (a game goes on in it)"
        except ArbiterError:
            pass  # (not a file that can be written: the reading says why)
    try:
        return _check(path, name, update, diff, busy)
    finally:
        if claimed is not None:
            claimed.close()


def _check(path: str | Path, name: str, update: bool, diff: bool, busy: str | None) -> FileCheck:
    """``check_file``'s work, the file claimed when it is to be rewritten (``busy``: why it may not be)."""
    try:
        t = tr.read(path)
    except ArbiterError as exc:
        return FileCheck(name, unreadable=exc.message)
    report = tr.replay(t, update=update)
    session, notes = report.session, tuple(t.notes)
    if not report.ok or session is None:
        lines = _diff(Path(path), t, report) if diff else []
        return FileCheck(name, notes=notes, problems=tuple(report.problems), diff=tuple(lines))
    result = session.state.result
    if t.finished:  # its written ending (the replay compared it with the moves' own)
        text = (t.result or {}).get("text", "")
    else:
        text = result.text if result is not None else ""
    found = FileCheck(name, notes=notes, moves=report.moves, finished=t.finished or result is not None,
                      result_text=text, ending_written=t.finished)
    if not update:
        return found
    if busy is not None:
        return replace(found, unwritten=busy)
    text = tr.dump(session, t.session)
    try:
        if Path(path).read_bytes() == text.encode("utf-8"):
            return replace(found, unchanged=True)  # not written again: its time and inode stay
    except OSError:
        pass  # written, or the reason it cannot be said, below
    try:
        write_whole(path, text)
    except OSError as exc:
        return replace(found, unwritten=str(exc.strerror or exc))
    return replace(found, updated=True)


def _diff(path: Path, t: tr.Transcript, report: tr.ReplayReport) -> list[str]:
    """The transcript as recorded against the transcript the replay makes, as a unified diff."""
    if report.session is None:
        return []
    try:  # as read: a last line cut inside a character (the reader's torn line) shows as \ufffd
        recorded = path.read_bytes().decode("utf-8", "replace").splitlines(keepends=True)
    except OSError as exc:  # gone or changed since it was read
        return [f"(no diff: {path} cannot be read again: {exc.strerror or exc})\n"]
    replayed = tr.dump(report.session, t.session).splitlines(keepends=True)
    lines = []
    for line in difflib.unified_diff(recorded, replayed, f"{path} (recorded)", f"{path} (replayed)", n=1):
        if len(line) > DIFF_LINE_CHARS:  # (an edited move of megabytes, say: shown whole, twice)
            line = line[:DIFF_LINE_CHARS] + f"... ({len(line.rstrip(chr(10)))} characters)" + \
                ("\n" if line.endswith("\n") else "")
        if line.endswith("\n"):
            lines.append(line)
        else:  # a file's last line without its newline (a cut one): said as diff says it
            lines += [line + "\n", "\\ No newline at end of file\n"]
    return lines


DIFF_LINE_CHARS = 1000
"""The longest line of a diff shown whole; a longer one is cut there, its length said."""


def check_files(paths: Sequence[str | Path], *, update: bool = False, diff: bool = True,
                workers: int = 1) -> Iterator[FileCheck]:
    """``check_file`` of each of ``paths``, in their order, by up to ``workers`` processes when
    the files are worth it (the module's text; one worker: here, one file after the other). A
    worker that dies raises ``ArbiterError``, naming the first file not checked (those before it
    were handed back)."""
    check = partial(check_file, update=update, diff=diff)
    paths = list(paths)
    if update:  # a rewrite of a run killed before left its hidden file beside the transcript
        remove_left_beside(paths)
    workers = max(1, min(workers, len(paths) - 1))
    if workers == 1:
        yield from map(check, paths)
        return
    yield check(paths[0])  # here: a forked worker starts with the game's data compiled
    timed, rest = paths[1:1 + TIMED], paths[1 + TIMED:]
    start = _clock()
    for path in timed:
        yield check(path)
    pace = (_clock() - start) / max(1, len(timed))
    workers = min(workers, len(rest))
    if workers < 2 or pace * len(rest) < POOL_WORTH_S:  # a few files: no worker pays its start
        yield from map(check, rest)
        return
    # imported here: ~15 ms that a replay of one file (the commonest) does not need
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    from multiprocessing import get_context

    method = _start_method()
    fork = method == "fork"
    # a worker dies with this process (Linux), unless a thread that may end before it starts them
    parent = os.getpid() if threading.current_thread() is threading.main_thread() else None
    executor = ProcessPoolExecutor(workers, mp_context=get_context(method), initializer=_start_worker,
                                   initargs=(parent,))
    try:
        chunks = [rest[i:i + CHUNK] for i in range(0, len(rest), CHUNK)]
        # the workers are forked at the first submit with Ctrl-C, SIGTERM and SIGHUP held back, until
        # their initializer sets them; here they are held only meanwhile (then let through)
        if fork:
            signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            futures: list[Future[list[FileCheck]]] = [executor.submit(_check_chunk, chunk, update, diff)
                                                      for chunk in chunks]
        finally:
            if fork:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
        done = len(paths) - len(rest)
        for chunk, future in zip(chunks, futures):
            try:
                found = future.result()
            except BrokenProcessPool:  # the pool stops every worker when one dies
                left = len(paths) - done - 1
                rest_of = f" and the {left} file{'s' if left > 1 else ''} after it were" if left else " was"
                raise ArbiterError(f"a worker process died (killed?): {chunk[0]}{rest_of} not checked") from None
            done += len(found)
            yield from found
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _start_method() -> str:
    """``fork`` where it is safe (Linux, and this process runs one thread), else ``spawn``."""
    return "fork" if sys.platform.startswith("linux") and threading.active_count() == 1 else "spawn"


def _check_chunk(paths: list[str | Path], update: bool, diff: bool) -> list[FileCheck]:
    return [check_file(p, update=update, diff=diff) for p in paths]


def _start_worker(parent: int | None) -> None:
    """A worker's start: it dies with ``parent`` (``orphans.die_with_parent``; a replay killed
    outright once left its workers waiting for ever), ignores Ctrl-C (then let through, if it
    was held back by the fork), and is ended by SIGTERM and SIGHUP as a process is by default:
    it inherited the command's handler, which stops a run as Ctrl-C does, so a SIGTERM to the
    whole group (``timeout``, a service manager) raised in every worker, each printed its
    traceback, and with many workers the pool once hung. The command stops them itself."""
    if parent is not None:
        die_with_parent(parent)
    for name in ("SIGTERM", "SIGHUP"):
        if (number := getattr(signal, name, None)) is not None and signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


_HELD = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}
"""The signals held back while the workers are forked, until each worker's start has set what
they do there (a signal that came meanwhile is let through then)."""


def default_workers() -> int:
    """The machine's cores (those this process may run on)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1

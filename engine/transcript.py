"""Transcripts: a human-readable YAML record of one game that replays exactly.

Layout (see ``docs/transcripts.md``)::

    format: 1
    game: fbi-mafia
    variant: standard-3v3
    data: sha256:...        # digest of the variant's scenario data
    seed: 7
    seats: [bandit, ...]
    options: {}
    log:                    # in order: chance outcomes, accepted moves, clock ticks, notes
    - chance: {what: board, outcome: [...]}
    - move: {n: 1, seat: bandit, text: shift row 2 right, time: 1}
    result: {...}           # written when the game ends
    events: {count: 120, digest: sha256:...}

The writer appends and flushes each log entry as it happens, so a crash loses nothing; a
transcript without ``result`` is a game in progress and can be resumed.
"""

from __future__ import annotations

import io
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import yaml

try:  # (an advisory lock on a transcript being written: ``claim``)
    from fcntl import LOCK_EX, LOCK_NB, flock as _flock

    _LOCK_EX_NB = LOCK_EX | LOCK_NB
except ImportError:  # (Windows)
    _flock, _LOCK_EX_NB = None, 0  # type: ignore[assignment]

from arbiter.engine import registry
from arbiter.engine.errors import ArbiterError, TranscriptError
from arbiter.engine.files import not_regular, write_whole
from arbiter.engine.logline import _flow, entry_line  # noqa: F401 (_flow: tests)
from arbiter.engine.session import Session
from arbiter.engine.transcript_reader import (  # noqa: F401 (reading: handed out here too)
    FORMAT, KEYS, MAX_BYTES, Transcript, _log_end, parse, read, time_ms,
)

HEADER = "# arbiter transcript. Replay it with: arbiter replay FILE\n"


def _block(value: dict[str, Any]) -> str:
    """``value`` in YAML's block style, as ``yaml.safe_dump`` writes it (the header, the ending).
    libyaml's emitter writes the same text five times faster where every text in ``value`` is
    plain (``_plain``); elsewhere the two may differ (an empty key, a quoted key near 128
    characters, a character past the Basic Multilingual Plane, a control character, ...), and
    the pure-Python emitter writes it, as always."""
    dumper = _C_DUMPER if _C_DUMPER is not None and _plain(value) else yaml.SafeDumper
    return yaml.dump(value, Dumper=dumper, default_flow_style=None, allow_unicode=True, width=100, sort_keys=False)


_C_DUMPER = getattr(yaml, "CSafeDumper", None)
_KEY_MAX = 64


def _plain(value: Any) -> bool:
    """Whether libyaml's and the pure-Python emitter write ``value`` alike (tests hold them to
    it): None, booleans, whole numbers, finite or infinite floats, printable ASCII texts, and
    lists and mappings of them whose keys are such texts of 1 to ``_KEY_MAX`` characters."""
    if value is None or type(value) in (bool, int):
        return True
    if type(value) is str:
        return value.isascii() and value.isprintable()
    if type(value) is float:
        return value == value  # not NaN
    if type(value) is list:
        return all(_plain(v) for v in value)
    if type(value) is dict:
        return all(type(k) is str and 0 < len(k) <= _KEY_MAX and _plain(k) and _plain(v) for k, v in value.items())
    return False


def header_of(session: Session, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    header = {
        "format": FORMAT,
        "game": session.rules.name,
        "variant": session.variant.name,
        "data": session.data_hash,
        "seed": session.seed,
        "seats": list(session.seats),
        "options": dict(session.options),
    }
    if settings:
        header["session"] = dict(settings)
    return header


def opening_of(session: Session, settings: dict[str, Any] | None = None) -> str:
    """The text before the first log entry; ``settings`` are how ``arbiter play`` ran the
    session (its seat, its bots), so ``--resume`` can run it the same way."""
    return HEADER + _block(header_of(session, settings)) + "log:\n"


def ending_of(session: Session) -> dict[str, Any]:
    assert session.state.result is not None
    return {
        "result": session.state.result.as_dict(),
        "events": {"count": len(session.events), "digest": session.events.digest()},
    }


SYNC_EVERY_S = 0.2
"""The longest a written entry waits before it is synced to disk (what a power cut may lose)."""


class TranscriptInUse(TranscriptError):
    """Another process holds the transcript's ``claim``: it is writing the file now."""


def claim(path: str | Path, *, to_replace: bool = False) -> IO[bytes]:
    """The transcript at ``path`` opened and locked for this process to write (an advisory
    ``flock``, which every arbiter process takes before it writes a transcript's log: a game
    being played in it, or resumed), or a ``TranscriptError`` saying another process holds it.
    Two ``play --resume`` of one file at once both appended to it, and what both wrote read
    neither way. The lock is the open file's: it goes when the file is closed, or the process
    ends however it ends. Where the system has no such lock (no ``fcntl``; a file system
    refusing it), the file is opened all the same. ``to_replace``: the file is only to be put
    out of the way (``--force``), not written: opened to read, which a file one may not write
    allows (its folder's leave to replace it is the writer's to find out)."""
    p = Path(path)
    kind = not_regular(p)  # (a FIFO opened to write waits for no reader, and is no transcript: as ``read`` says)
    if kind:
        raise TranscriptError(f"{p}: cannot read: not a regular file ({kind})")
    try:
        f = p.open("rb" if to_replace else "rb+")
    except OSError as exc:
        raise TranscriptError(f"cannot write the transcript {p}: {exc.strerror or exc}") from None
    if _flock is not None:
        try:
            _flock(f.fileno(), _LOCK_EX_NB)
        except BlockingIOError:
            f.close()
            then = ("replace it once that process has ended" if to_replace  # (--force, save's overwrite)
                    else "resume it once that process has ended")
            raise TranscriptInUse(f"{p} is being written by another arbiter process (its game goes on there): "
                                  f"one game, one writer; {then}") from None
        except OSError:  # (no locks here: NFS without them, say)
            pass
    return f


def put_whole(path: str | Path, text: str, *, replace: bool) -> None:
    """``files.write_whole`` of a transcript, never over one another process is writing: with
    ``replace`` (``--force``, ``Game.save(overwrite=True)``) a new file went in place while the
    game being written went on in the file put out of the way, its moves lost. A file this
    process cannot open to read, it cannot lock either: it is replaced as before."""
    held = None
    if replace and os.path.isfile(path):
        try:
            held = claim(path, to_replace=True)
        except TranscriptInUse:
            raise
        except TranscriptError:
            pass
    try:
        write_whole(path, text, replace=replace)
    finally:
        if held is not None:
            held.close()


class TranscriptWriter:
    """Writes a session's transcript incrementally. Every entry is appended and flushed before
    the game goes on (a killed process loses nothing it has answered), and synced to disk at most
    ``SYNC_EVERY_S`` later (a power cut loses at most that much); the ending (result and event
    digest) follows in one write, synced at once, the moment the game is over. Nothing is ever
    written after the ending.
    A new transcript is put in place whole with its opening (``files.write_whole``): a process
    killed at any instant leaves no file, or one that reads and resumes, never an empty or
    half-written header. With ``durable=False`` (a tournament's games, whose record is the
    results line written after the transcript is closed, and which a resumed tournament plays
    again if that line is missing) the whole transcript is kept in memory and put in place so,
    once, at ``close``: a process killed before then leaves no file (or the one it replaces).

    A new transcript never replaces a file unless ``overwrite``; ``resume`` appends to the
    transcript the session was replayed from (dropping a line or an ending a crash left torn),
    whose log holds the session's first ``resume`` entries (the rest, such as a chance outcome
    a crash kept from the file, the replay drew again: they are written now). Only a durable
    writer resumes. A durable writer holds its file's ``claim`` until it is closed: a resume
    claims the file before it reads it (``claimed``: what ``claim`` gave; claimed here if
    None), so no other process writes it meanwhile."""

    def __init__(self, path: str | Path, session: Session, *, resume: int | None = None, overwrite: bool = False,
                 settings: dict[str, Any] | None = None, durable: bool = True,
                 claimed: IO[bytes] | None = None) -> None:
        self.path = Path(path)
        self.session = session
        self.finished = False
        self.durable = durable  # flush each entry, sync within SYNC_EVERY_S (else both once, at close)
        self._file: IO[str]
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._synced = 0.0
        self._overwrite = overwrite
        self.error: OSError | None = None
        """The system's refusal of a write or a sync during the game (a full disk, an I/O error),
        once one came: the writer writes nothing more, and the file holds what it took (a torn
        last line at most: it resumes)."""
        if resume is not None and not durable:
            raise ValueError("only a durable writer resumes a transcript")
        self._claim: IO[bytes] | None = claimed
        try:
            if resume is not None:
                self._claim = self._claim or claim(self.path)
                _truncate_to_log(self.path)
                self._file = self.path.open("a", encoding="utf-8")
                self._file.write("".join(entry_line(e) for e in session.entries[resume:]))
            elif durable:
                put_whole(self.path, opening_of(session, settings) + "".join(entry_line(e) for e in session.entries),
                          replace=overwrite)
                self._synced = time.monotonic()
                self._claim = claim(self.path)  # (a resume of the new file waits for this one to end)
                self._file = self.path.open("a", encoding="utf-8")
            else:
                if not overwrite and os.path.lexists(self.path):
                    raise FileExistsError
                self._file = io.StringIO()
                self._file.write(opening_of(session, settings) + "".join(entry_line(e) for e in session.entries))
        except FileExistsError:
            self._unclaim()
            raise TranscriptError(f"{self.path} already exists") from None
        except OSError as exc:
            self._unclaim()
            raise TranscriptError(f"cannot write the transcript {self.path}: {exc.strerror or exc}") from None
        except TranscriptError:
            self._unclaim()
            raise
        self._flush()
        if resume is not None:
            self._fsync()
        session.listeners.append(self.append)

    def _flush(self) -> None:
        """Write the ending once the game is over; hand what is written to the system (a durable
        writer's every entry: a killed process loses none of them)."""
        if self.session.over and not self.finished:
            self._file.write(_block(ending_of(self.session)))
            self.finished = True
        if self.durable:
            self._file.flush()

    def _fsync(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if not self._file.closed and self.error is None:
                try:
                    os.fsync(self._file.fileno())
                except OSError as exc:  # (the timer's thread too: the next entry raises it)
                    self.error = exc
            self._synced = time.monotonic()

    def _fsync_soon(self) -> None:
        """Sync now if the last sync is old enough, else once ``SYNC_EVERY_S`` has passed."""
        waited = time.monotonic() - self._synced
        if waited >= SYNC_EVERY_S:
            self._fsync()
        elif self._timer is None:
            self._timer = threading.Timer(SYNC_EVERY_S - waited, self._fsync)
            self._timer.daemon = True
            self._timer.start()

    def append(self, entry: dict[str, Any]) -> None:
        """Write ``entry`` (a session's listener). The system's refusal (``error``) is raised as
        the ``OSError`` it is, which no protocol takes for a refused input."""
        if self.finished:  # the log is closed by the ending; nothing may follow it
            return
        if self.error is None:
            try:
                self._file.write(entry_line(entry))
                self._flush()
            except OSError as exc:
                self.error = exc
        if self.error is None and self.durable:  # (else synced once, at close)
            if self.finished:
                self._fsync()  # the end: on disk at once
            else:
                self._fsync_soon()
        if self.error is not None:
            raise self.error

    def _unclaim(self) -> None:
        """Let the file go (its lock with it)."""
        if self._claim is not None:
            self._claim.close()
            self._claim = None

    def discard(self) -> None:
        """Stop writing a game that did not end as played (its worker told to stop): a writer
        holding it in memory puts nothing in place (what was there, if anything, stays); a
        durable one closes as ``close`` does, its file holding every entry so far."""
        if self.durable:
            self.close()
            return
        if self.append in self.session.listeners:
            self.session.listeners.remove(self.append)
        self._file.close()

    def close(self) -> None:
        """Stop writing: the file synced (a durable writer's), or put in place whole (the other's)."""
        if self.append in self.session.listeners:
            self.session.listeners.remove(self.append)
        if self._file.closed:
            return
        if not self.durable:  # held in memory (an io.StringIO) until now
            assert isinstance(self._file, io.StringIO)
            text = self._file.getvalue()
            self._file.close()
            try:
                write_whole(self.path, text, replace=self._overwrite)
            except FileExistsError:
                raise TranscriptError(f"{self.path} already exists") from None
            except OSError as exc:  # (the system's reason kept as the cause: a tournament's worker tells it on)
                raise TranscriptError(f"cannot write the transcript {self.path}: {exc.strerror or exc}") from exc
            return
        if self.error is None:
            try:
                self._file.flush()
            except OSError as exc:
                self.error = exc
        self._fsync()
        with self._lock:
            try:
                self._file.close()
            except OSError:  # (what the system refused once it refuses again: error says so)
                pass
        self._unclaim()
        if self.error is not None:
            raise TranscriptError(f"cannot write the transcript {self.path}: {self.error.strerror or self.error}; "
                                  f"what it holds can be resumed: arbiter play --resume {self.path}")


def _truncate_to_log(path: Path) -> None:
    """Before appending, cut the file back to the end of its last whole log line: a last line a
    crash left without its newline goes, and so does an ending a crash left torn (a finished
    game's ending is then written anew from the moves)."""
    with path.open("rb+") as f:
        data = f.read()
        end = _log_end(data)
        if end < len(data):
            f.truncate(end)



def dump(session: Session, settings: dict[str, Any] | None = None) -> str:
    """The whole transcript of a session as text (what the writer would have written, with
    ``settings`` as its header's ``session``)."""
    out = opening_of(session, settings) + "".join(entry_line(e) for e in session.entries)
    if session.over:
        out += _block(ending_of(session))
    return out


@dataclass
class ReplayReport:
    """What a replay found. ``problems`` is empty when the transcript replays exactly."""

    session: Session | None
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def moves(self) -> int:
        """How many moves were replayed."""
        return len(self.session.moves) if self.session is not None else 0


def replay(t: Transcript, *, update: bool = False) -> ReplayReport:
    """Re-run a transcript with its recorded chance outcomes and compare everything.

    With ``update``, chance outcomes that no longer fit are drawn anew from the seed (after an
    intended rules change) and differences are not problems; write the session back with
    ``dump``.
    """
    problems: list[str] = []
    try:
        rules = registry.get(t.game)
        variant = rules.variant(t.variant)
    except ArbiterError as exc:
        return ReplayReport(None, [f"{t.source}: {exc.message}"])
    try:
        session = Session(rules, variant, seed=t.seed, options=t.options, recorded=t.chance, strict_chance=not update)
    except ArbiterError as exc:
        return ReplayReport(None, problems + [f"setup: {exc.message}"])
    if session.data_hash != t.data and not update:
        problems.append(f"scenario data changed: transcript has {t.data}, now {session.data_hash}")
    if list(session.seats) != t.seats and not update:
        problems.append(f"seats differ: transcript {t.seats}, now {list(session.seats)}")
    for i, entry in enumerate(t.log):
        try:
            if "move" in entry:
                body = entry["move"]
                session.submit(body["seat"], body["text"], time_ms(body["time"]))
            elif "tick" in entry:
                session.advance_to(time_ms(entry["tick"]["time"]))
            elif "note" in entry:
                session.note(dict(entry["note"]))
        except ArbiterError as exc:
            what = entry.get("move") or entry.get("tick")
            problems.append(f"log[{i}] {_cut(str(what))}: refused on replay: {exc.kind}: {_cut(exc.message)}")
            return ReplayReport(session, problems)
    if session.chance.unused and not update:
        problems.append(f"{len(session.chance.unused)} recorded chance outcome(s) were never used")
    elif not update and len(session.entries) == len(t.log) and session.entries != t.log:
        # every outcome used, in order, but not where the game drew it (a chance line moved):
        # ``show --at N``, which keeps the lines before move N + 1, would play another game
        i = next(i for i, (a, b) in enumerate(zip(session.entries, t.log)) if a != b)
        why = ("a note stands where it was written, as arbiter writes it: one printable line, a control "
               "character escaped" if "note" in t.log[i] or "note" in session.entries[i] else
               "a chance outcome stands where the game draws it")
        problems.append(f"log[{i}] is {_short_entry(t.log[i])}, where the replay has {_short_entry(session.entries[i])} "
                        f"({why})")
    if not update:
        problems.extend(_compare_ending(t, session))
    return ReplayReport(session, problems)


def _short_entry(entry: dict[str, Any]) -> str:
    return _cut(entry_line(entry).strip()[2:], 100)


def _cut(text: str, limit: int = 300) -> str:
    """``text`` for a problem's line, cut at ``limit`` characters (an edited move of megabytes
    was quoted whole, twice)."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def replayed(t: Transcript) -> Session:
    """The session a transcript describes; a ``TranscriptError`` when it does not replay."""
    report = replay(t)
    if report.session is None or not report.ok:
        raise TranscriptError(f"{t.source} does not replay: " + "; ".join(report.problems))
    return report.session


def resume(path: str | Path) -> tuple[Transcript, Session]:
    """The game of a transcript, replayed and ready to go on (attach a writer with
    ``resume=len(t.log)``, which also writes the ending of a game whose moves finished it but whose
    ending a crash cut off). A transcript that is whole and finished has nothing to resume."""
    t = read(path)
    with open(path, "rb") as f:  # (read whole just now: a regular file)
        if b"\r" in f.read(1 << 16):  # (the writer writes none: a text's is escaped)
            raise TranscriptError(f"{path}: its lines end in CRLF or CR (as a Windows checkout or editor writes them); "
                                  "resuming appends lines ending in LF, and a crash while it did would leave a "
                                  "file that reads neither way: convert it first (dos2unix, say)")
    if t.finished:
        raise TranscriptError(f"{path}: that game is over ({(t.result or {}).get('text', '')}); "
                              "nothing to resume")
    return t, replayed(t)


def _torn_ending_problem(torn: str, session: Session) -> list[str]:
    """Why the ending a crash cut off cannot be the start of the one the writer wrote for the
    replayed game (an edited ending, or a rules change): the writer writes the ending whole,
    in one go, the moment the game is over, so a crash leaves the start of exactly that text."""
    if not session.over:
        return ["the transcript holds the start of an ending, but its moves do not end the game"]
    torn = torn.rstrip("\0")  # (NUL bytes where the disk never got the last block: no text of the writer's)
    ending = _block(ending_of(session))
    if ending.startswith(torn):
        return []
    got, want = torn.split("\n"), ending.split("\n")[:-1]  # (the ending ends with a line break)
    line = next(i for i, (a, b) in enumerate(zip(got, want + [None] * len(got))) if a != b)
    return [f"the ending a crash cut off is not the start of the one the moves give (edited?): its line "
            f"{line + 1} is {got[line]!r:.100}, the replay's {(want[line] if line < len(want) else '(none)')!r:.100}"]


def _compare_ending(t: Transcript, session: Session) -> list[str]:
    problems = []
    got = session.state.result.as_dict() if session.state.result else None
    if t.result is None:  # a crash before the ending was written: the moves say how it ended
        if t.torn_ending is not None:  # ... or while it was: what it holds is the start of theirs
            problems.extend(_torn_ending_problem(t.torn_ending, session))
        return problems
    if got != t.result:
        problems.append(f"result differs: transcript {t.result}, replay {got}")
    digest = {"count": len(session.events), "digest": session.events.digest()}
    if t.events != digest:
        problems.append(f"event log differs: transcript {t.events}, replay {digest}")
    return problems

"""The tournament's folder: its configuration, its results file and its transcripts.

::

    DIR/tournament.json     the configuration: all that --resume DIR needs
    DIR/results.jsonl       one JSON line per finished game, appended as each game ends
    DIR/transcripts/        game-NNNNN.yaml for each game (and game-NNNNN.SEAT.stderr.log of exec bots)
    DIR/.lock               held while a run plays, so two runs never share a folder

Only the main process writes ``results.jsonl``: each line is written whole, flushed and synced
before the next game is recorded, so a crash, Ctrl-C or ``kill -9`` loses at most the line being
written. Reading it back, a last line without its newline (or that does not read as JSON) is
a torn write and is ignored (and cut off before anything is appended), but for a whole record
that lacks only its newline, which is the game's record (its newline is written before anything
is appended); a game is played again by a resumed run exactly when it has no whole record. A
whole line of a game the schedule does not have, or that is not a record of this tournament's
game of its number (``engine.arena.record``), is a file changed by hand, and refused like any
other line that is not a game's record.

A file written whole (``engine.files``) goes first to a hidden ``.NAME.PID-K.tmp`` beside it: a
run killed then leaves that file, which a resumed run removes (``Folder.remove_temporary``).

A run killed as it makes the folder, before ``tournament.json`` is written, leaves at most
``.lock``, an empty ``transcripts/`` and the configuration's temporary file (``engine.files``):
such a folder holds no tournament and counts as empty for a new run, which takes its lock first
(a run still making it is refused) and then removes those leftovers. The configuration is
written only where none is (``write_whole(..., replace=False)``), so a run never replaces the
one another run wrote.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import stat
import sys
from pathlib import Path
from collections.abc import Sequence
from typing import IO, Any

from arbiter.engine.arena.record import check_record
from arbiter.engine.arena.runner import transcript_name
from arbiter.engine.arena.schedule import FORMAT, Game
from arbiter.engine.errors import ArbiterError, quoted
from arbiter.engine.files import FileTooLarge, dangling_link, not_regular, not_utf8, read_bytes_capped, write_whole
from arbiter.engine.lines import BOM

CONFIG, RESULTS, LOCK = "tournament.json", "results.jsonl", ".lock"
CONFIG_MAX_BYTES = 16 * 1024 * 1024
"""The largest configuration read: a run writes a few hundred bytes, and a custom deck's
document (its file at most ``scenario.MAX_FILE_BYTES``)."""
RESULTS_MAX_BYTES = 1024 * 1024 * 1024
"""The largest results file read: a record is about 1.5 KB, a tournament at most 100,002 games
(some recorded twice, a game the machine could not start played again by a resume)."""
FORMATS = (1, 2)
"""The formats it resumes: they differ in how the deals' seeds are drawn
(``engine.arena.schedule.DEAL_SEEDS``), and a folder keeps its own."""


_TRANSCRIPT = re.compile(r"game-(\d{5,})\.yaml")
_GAME_TMP = re.compile(r"\.game-\d{5,}\.(?:yaml|.+\.stderr\.log)\.\d+-\d+\.tmp")
_CONFIG_TMP = re.compile(r"\.tournament\.json\.\d+-\d+\.tmp")
"""The temporary files ``engine.files.write_whole`` makes beside a game's transcript or log
(``.game-00007.yaml.PID-K.tmp``) and beside the configuration: a run killed while writing one
leaves it (nothing reads it); the run that resumes the folder, holding its lock, removes those
of these names only, never any other file."""


class FolderError(ArbiterError):
    pass


class Folder:
    """A tournament's folder. ``create`` starts a new one; ``existing`` opens one to resume."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: IO[bytes] | None = None
        # the last read of the results file: the file as it stood (device, inode, size, times: a
        # change of content a tool gave back its modification time still moves its change time), the
        # schedule and seed it was checked against, its records and the offset after its last
        # whole line (a resumed run read and checked the whole file three times: 2 s and twice
        # the memory at 20,000 games)
        self._read: tuple[tuple[int, ...], Any, Any, list[dict[str, Any]], int] | None = None

    @property
    def transcripts(self) -> Path:
        return self.path / "transcripts"

    @classmethod
    def create(cls, path: str | Path, config: dict[str, Any]) -> Folder:
        """A new tournament in ``path``: a new folder, or an empty one (or one holding only what
        an interrupted ``create`` left, removed once this run holds the folder). A folder holding
        anything else is refused (a tournament's: resume it; anything else: not ours to fill)."""
        p = Path(path)
        try:
            if p.exists() and not p.is_dir():
                raise FolderError(f"{p} is a file, not a folder")
            if p.is_dir():
                _fresh(p)
            p.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # (a name too long, a file in the way, no permission)
            raise cannot_make(p, exc) from None
        folder = cls(p)
        folder.lock()
        try:
            folder._start(config)
        except BaseException:
            folder.unlock()
            raise
        return folder

    def _start(self, config: dict[str, Any]) -> None:
        """Write the configuration of a new tournament into the folder this run holds, once
        more sure it is empty (another run may have filled it before this one took the lock),
        the leftovers of an interrupted start removed."""
        p = self.path
        try:
            for leftover in _fresh(p):
                if leftover.name != LOCK and leftover.is_file():  # the lock this run holds stays
                    leftover.unlink()
            self.transcripts.mkdir(exist_ok=True)
            write_whole(p / CONFIG, json.dumps({"format": FORMAT, **config}, indent=2) + "\n", replace=False)
        except FileExistsError:
            raise _holds_one(p) from None
        except OSError as exc:
            raise cannot_make(p, exc) from None

    @classmethod
    def existing(cls, path: str | Path) -> tuple[Folder, dict[str, Any]]:
        """The tournament in ``path``, held by this run, and its configuration as the file holds
        it (``engine.arena.config.check_configuration`` judges it; whoever refuses it unlocks)."""
        p = Path(path)
        try:  # a regular file only: a FIFO put there waited for a writer for ever, /dev/zero filled memory
            data = read_bytes_capped(p / CONFIG, CONFIG_MAX_BYTES)
        except FileTooLarge as exc:
            raise FolderError(f"{p / CONFIG}: cannot read it: {exc.size} bytes is more than a tournament's "
                              f"configuration can be ({CONFIG_MAX_BYTES // (1024 * 1024)} MiB at most)") from None
        except OSError as exc:
            # a link that leads nowhere was "holds no tournament (no tournament.json)", of a name ls lists
            if (kind := dangling_link(p / CONFIG, exc)) is not None:
                raise FolderError(f"{p / CONFIG}: cannot read it: {kind}; a tournament's configuration is a "
                                  "file in its folder") from None
            if isinstance(exc, FileNotFoundError):
                raise _no_tournament(p) from None
            raise FolderError(f"{p / CONFIG}: cannot read it: {exc.strerror or exc}") from None
        try:
            config = _json(data.removeprefix(BOM).decode("utf-8"), unique=True)
        except UnicodeDecodeError as exc:
            raise FolderError(f"{p / CONFIG}: cannot read it: {not_utf8(exc)}; the file is UTF-8") from None
        except ValueError as exc:
            raise FolderError(f"{p / CONFIG}: cannot read it: {exc}") from None
        form = config.get("format") if isinstance(config, dict) else None
        if type(form) is not int or form not in FORMATS:  # (not True, which Python counts as 1)
            raise FolderError(f"{p / CONFIG}: not a tournament of this arbiter (formats "
                              f"{', '.join(map(str, FORMATS))}; this file has {json.dumps(form)[:40]})")
        folder = cls(p)
        folder.lock()
        try:
            folder._open_transcripts()
        except BaseException:
            folder.unlock()
            raise
        return folder, config

    def _open_transcripts(self) -> None:
        """The transcripts' folder, made again if it was removed."""
        try:
            self.transcripts.mkdir(exist_ok=True)
        except OSError as exc:  # (a file in its place was only "File exists")
            t = self.transcripts
            kind = not_regular(t) or ("a file" if t.exists() else dangling_link(t))
            why = f"its transcripts/ is {kind}, not a folder" if exc.errno == errno.EEXIST and kind else \
                exc.strerror or str(exc)
            raise FolderError(f"cannot open the tournament's folder {self.path}: {why}") from None

    def remove_temporary(self) -> None:
        """Remove the temporary files a killed run left (``_GAME_TMP``, ``_CONFIG_TMP``): only
        files of those names, and only by the run that holds the folder (once its configuration
        and results are accepted: a run refused changes nothing)."""
        assert self._lock is not None
        try:
            for where, pattern in ((self.path, _CONFIG_TMP), (self.transcripts, _GAME_TMP)):
                with os.scandir(where) as entries:
                    for entry in entries:
                        if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                            os.unlink(entry.path)
        except OSError as exc:
            raise FolderError(f"cannot remove a temporary file a killed run left in {self.path}: "
                              f"{exc.strerror or exc}") from None

    def lock(self) -> None:
        """Hold the folder for this run; another run on it is refused. The lock is a regular
        file, opened without waiting: a FIFO put in its place waited for a reader for ever; a
        symbolic link that leads nowhere is refused, as ``read_results`` refuses one."""
        path = self.path / LOCK
        if (kind := dangling_link(path)) is not None:  # (opened, it made a file where it led, out of the folder)
            raise FolderError(f"cannot hold the tournament's folder {self.path}: its {LOCK} is {kind}; a tournament's "
                              "lock is a file in its folder")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
        except OSError as exc:  # (a FIFO without a reader: "No such device or address"; a folder)
            kind = not_regular(path)
            why = f"its {LOCK} is not a regular file ({kind})" if kind else exc.strerror or str(exc)
            raise FolderError(f"cannot hold the tournament's folder {self.path}: {why}") from None
        f = open(fd, "ab")  # noqa: SIM115 - held until unlock
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # (a device a link leads to)
            f.close()
            raise FolderError(f"cannot hold the tournament's folder {self.path}: its {LOCK} is not a regular file "
                              f"({not_regular(path) or 'of no known kind'})")
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise FolderError(f"{self.path} is being played by another run right now") from None
        self._lock = f

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def read_results(self, games: Sequence[Game] | None = None, tournament_seed: int | None = None
                     ) -> list[dict[str, Any]]:
        """The recorded games, each once (the first line of a game wins), a torn last line left
        out; with ``games``, the schedule of the tournament of ``tournament_seed``, every record
        is checked against its game (``engine.arena.record``) and one that does not fit refused."""
        return self._results(games, tournament_seed)[0]

    def _results(self, games: Sequence[Game] | None, tournament_seed: int | None) -> tuple[list[dict[str, Any]], int]:
        """``read_results`` of the results file, read again only when the file changed since
        the last read (or is to be checked against another schedule)."""
        path = self.path / RESULTS
        stood, last = _standing(path), self._read
        if (last is not None and stood is not None and last[0] == stood
                and (games is None or (last[1] is games and last[2] == tournament_seed))):
            return last[3], last[4]
        records, end = read_results(path, games, tournament_seed)
        if stood is not None and games is not None:
            self._read = (stood, games, tournament_seed, records, end)
        return records, end

    def writer(self) -> ResultsWriter:
        last, path = self._read, self.path / RESULTS
        stood = _standing(path)
        return ResultsWriter(path, last[4] if last is not None and stood is not None and last[0] == stood else None)

    def transcript_games(self) -> set[int]:
        """The numbers of the games ``transcripts/`` holds a transcript of (``game-NNNNN.yaml``,
        named exactly as a run names it), in one listing of the folder."""
        try:
            with os.scandir(self.transcripts) as entries:
                return {n for e in entries if (n := _transcript_game(e.name)) is not None}
        except OSError as exc:
            raise FolderError(f"cannot list {self.transcripts}: {exc.strerror or exc}") from None

    def write_files(self, files: dict[str, bytes]) -> None:
        """Files a worker returned (Ray): written whole into ``transcripts/``, byte for byte."""
        for name, data in files.items():
            if "/" in name or name.startswith("."):
                raise FolderError(f"a worker returned a file with a bad name: {quoted(name)}")
            try:
                write_whole(self.transcripts / name, data)
            except OSError as exc:
                raise write_error(self.transcripts / name, exc) from None


def _transcript_game(name: str) -> int | None:
    """The game a file of ``name`` is the transcript of, when a run names it so (``transcript_name``:
    ``game-00007.yaml``, not ``game-000007.yaml`` nor other scripts' digits), else None."""
    found = _TRANSCRIPT.fullmatch(name)
    return int(found[1]) if found and name == transcript_name(int(found[1])) else None


def _leftovers(p: Path) -> list[Path] | None:
    """What an interrupted ``Folder.create`` leaves in the folder ``p`` (``.lock``, an empty
    ``transcripts/``, the configuration's temporary files), or None when it holds anything else."""
    found = []
    for entry in p.iterdir():
        name = entry.name
        if entry.is_symlink():
            return None
        if name == LOCK or (name.startswith(f".{CONFIG}.") and name.endswith(".tmp")):
            if not entry.is_file():
                return None
        elif not (name == "transcripts" and entry.is_dir() and not any(entry.iterdir())):
            return None
        found.append(entry)
    return found


def cannot_make(p: Path, exc: OSError) -> FolderError:
    """The refusal of a tournament's folder ``p`` that ``exc`` stopped being made: the file in
    its way named (``arena``, a file, under the default ``arena/GAME-...``), else the system's
    reason ("File name too long", "Permission denied")."""
    in_the_way = None
    for above in [*reversed(p.parents), p]:
        try:
            if above.exists() and not above.is_dir():
                in_the_way = above
                break
        except OSError:
            break
    why = f"{in_the_way} is a file, not a folder" if in_the_way is not None else exc.strerror or str(exc)
    return FolderError(f"cannot make the tournament's folder {p}: {why}")


def _fresh(p: Path) -> list[Path]:
    """The leftovers (``_leftovers``) of the folder ``p`` a new tournament is to start in;
    refused when it holds a tournament or anything else."""
    if (p / CONFIG).exists():
        raise _holds_one(p)
    if (kind := dangling_link(p / CONFIG)) is not None:  # (else "holds no tournament" of a name ls lists)
        raise FolderError(f"{p / CONFIG} is {kind}, so {p} holds no tournament to go on with and is not "
                          "empty; choose a new or empty --out")
    found = _leftovers(p)
    if found is None:
        raise FolderError(f"{p} is not empty and holds no tournament; choose a new or empty --out")
    return found


def _holds_one(p: Path) -> FolderError:
    return FolderError(f"{p} already holds a tournament; go on with it with --resume {p} (or choose a new --out)")


def _no_tournament(p: Path) -> FolderError:
    """Why ``p`` cannot be resumed: no configuration; when it holds the leftovers of a run
    killed before writing one (and no run is making it now), how to start that run again."""
    if p.is_dir() and _leftovers(p):
        if (p / LOCK).is_file():  # "being played by another run" while one is making it
            probe = Folder(p)
            probe.lock()
            probe.unlock()
        return FolderError(f"{p} holds no tournament: its run was stopped before it wrote its configuration "
                           f"({CONFIG}), so no game was played; start it again with the same command "
                           f"(--out {p}), not with --resume")
    return FolderError(f"{p} holds no tournament (no {CONFIG})")


def _json(text: str | bytes, unique: bool = False) -> Any:
    """``json.loads``, with a value nested too deeply for it (a file changed by hand) refused as
    any other text that is no JSON is (a ``ValueError``), not the interpreter's ``RecursionError``;
    so are bytes that are not UTF-8 and a whole number too long for Python to read, in words of
    their own. With ``unique``, a
    key given twice in an object is refused too (JSON would keep the last one silently; no run
    writes one, so a hand did)."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys if unique else None)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
    except UnicodeDecodeError as exc:  # (bytes: a results line)
        raise ValueError(f"byte 0x{exc.object[exc.start]:02x} at column {exc.start + 1} is not UTF-8 text; "
                         "the file is UTF-8") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # (Python's words name its own setting)
            raise ValueError(f"a whole number of more than {sys.get_int_max_str_digits()} digits") from None
        raise


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys and values as a ``dict``; a ``ValueError`` for a key given twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {json.dumps(key)[:60]} is given twice in an object")
        found[key] = value
    return found


def _standing(path: Path) -> tuple[int, ...] | None:
    """How the file at ``path`` stands (device, inode, size, modification and change times: a
    change of content a tool gave back its modification time still moves its change time), to
    tell whether it changed since a read (``Folder._read``); None when it cannot be looked at."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _whole_last(data: bytes, offset: int) -> int | None:
    """Where the JSON ends of a last line without its newline (from ``offset``), when it reads as
    JSON: a record whole, which a crash cut after its last byte and before its newline (or left
    NUL bytes where the disk never got the newline's block): its game was played and its
    transcript written, so the record is kept, not played again (and JSON that is no record is
    a hand's, refused as on any line). Else None: a line torn within its record, ignored, as no
    prefix of a record reads as JSON (its object's brace closes last)."""
    text = data[offset:].rstrip(b"\0")
    try:
        _json(text)
    except ValueError:
        return None
    return offset + len(text)  # (JSON that is no record is no crash's: the reader refuses it)


class _NotARecord(ValueError):
    """A line of the results file that reads as JSON but is not a game's record."""


def read_results(path: Path, games: Sequence[Game] | None = None, tournament_seed: int | None = None
                 ) -> tuple[list[dict[str, Any]], int]:
    """The records of a results file and the offset after its last whole line (or after the
    record of a last line that lacks only its newline, ``_whole_last``); with ``games``
    (the schedule, game ``i`` at ``games[i]``) and ``tournament_seed``, a whole line of a game
    the schedule does not have is refused, and so is one that is not a record of this
    tournament's game of its number (``engine.arena.record.check_record``): the file, the
    line and what is wrong in it."""
    try:  # a regular file only: a FIFO put there waited for a writer for ever, /dev/zero filled memory
        data = read_bytes_capped(path, RESULTS_MAX_BYTES)
    except FileTooLarge as exc:
        raise FolderError(f"{path}: cannot read it: {exc.size} bytes is more than a results file can be "
                          f"({RESULTS_MAX_BYTES // (1024 * 1024)} MiB at most)") from None
    except OSError as exc:
        # a link that leads nowhere was read as no record: every game played again, its lines
        # written where it led
        if (kind := dangling_link(path, exc)) is not None:
            raise FolderError(f"{path}: cannot read it: {kind}; a tournament's results are a file in "
                              "its folder") from None
        if isinstance(exc, FileNotFoundError):
            return [], 0
        raise FolderError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    records: list[dict[str, Any]] = []
    seen: dict[int, tuple[int, int]] = {}  # game -> its record's place in ``records``, and its line
    offset = number = 0
    while offset < len(data):
        number += 1  # the line's number
        end = data.find(b"\n", offset)
        last = end < 0
        if last:  # a last line without its newline: torn by a crash (ignored), unless it is whole
            whole = _whole_last(data, offset)
            if whole is None:
                break
            end = whole
        line = data[offset:end]
        try:
            record = _json(line)
            if not isinstance(record, dict) or not isinstance(record.get("game"), int) \
                    or isinstance(record["game"], bool):
                raise _NotARecord('it reads as JSON, but a record is an object whose "game" is its game\'s number')
        except ValueError as exc:
            # the last line, garbled by a crash mid-write (blocks of it the disk never got read as
            # NUL bytes), or empty: ignored like a torn one (nothing is lost). Not a line of other
            # text: the writer writes a record and its newline last, so a whole line is no
            # crash's doing but a hand's, and cutting it off would lose what the hand wrote
            garbled = not isinstance(exc, _NotARecord) and (b"\0" in line or not line.strip())
            if garbled and data.find(b"\n", end + 1) < 0 and not data[end + 1:].strip():
                break
            raise FolderError(f"{path}: line {number} is not a game's record "
                              f"({exc}); the file was changed by hand?") from None
        if games is not None:
            if not 0 <= record["game"] < len(games):
                raise FolderError(f"{path}: line {number} records game {record['game']}, which the schedule does "
                                  f"not have (its games are 0 to {len(games) - 1}); the file was changed by hand?")
            assert tournament_seed is not None
            try:
                check_record(record, games[record["game"]], tournament_seed)
            except ValueError as exc:
                raise FolderError(f"{path}: line {number} is not a record of this tournament's game "
                                  f"{record['game']}: {exc}; the file was changed by hand?") from None
        game = record["game"]
        if game not in seen:
            seen[game] = (len(records), number)
            records.append(record)
        else:  # a game recorded again: a game the machine could not start, played again by a resume
            place, first = seen[game]
            if records[place].get("error") is not None:
                seen[game] = (place, number)
                records[place] = record
            elif record != records[place]:  # (a line written twice, the same, is that record)
                raise FolderError(f"{path}: line {number} records game {game} again, otherwise than line {first}; "
                                  "a run records a game once: the file was changed by hand?")
        if last:
            return records, end  # (the writer adds its newline before it appends)
        offset = end + 1
    return records, offset


class ResultsWriter:
    """Appends records to the results file, each line written, flushed and synced before
    ``append`` returns. A line the system refuses (a full disk, a file size limit, an I/O error)
    is cut off again where it can be (a part left behind is a torn last line, which a resumed
    run ignores) and ends the run with a ``FolderError`` naming the file, the reason and how
    to go on; the lines before it stay whole and counted."""

    def __init__(self, path: Path, end: int | None = None) -> None:
        """``end``: the offset after the file's last whole line, where the caller read it just
        now (else read here)."""
        self.path = path
        try:
            if end is None:
                _, end = read_results(path)
            self._file = path.open("a+b", buffering=0)  # unbuffered: nothing is left to flush at close
        except OSError as exc:
            raise write_error(path, exc) from None
        try:
            if self._file.tell() > end:  # a torn last line: cut it off before appending
                self._file.truncate(end)
            if end and os.pread(self._file.fileno(), 1, end - 1) != b"\n":  # a whole record without its newline
                os.write(self._file.fileno(), b"\n")
                os.fsync(self._file.fileno())
            self._end = self._file.seek(0, os.SEEK_END)
        except OSError as exc:
            self._file.close()
            raise write_error(path, exc) from None
        self._start = self._end

    def append(self, record: dict[str, Any]) -> None:
        data = memoryview((json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8"))
        fd = self._file.fileno()
        try:
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        except OSError as exc:
            try:  # the part written, if any: not the game's record
                os.ftruncate(fd, self._end)
                os.lseek(fd, self._end, os.SEEK_SET)
            except OSError:
                pass  # left as a torn last line: ignored and cut off by the next run
            raise write_error(self.path, exc) from None
        self._end = self._file.tell()

    def close(self) -> None:
        self._file.close()

    def written(self) -> set[int]:
        """The games of the whole lines appended since this writer opened the file, read from it
        as ``read_results`` reads it (the run that holds the folder writes them; a last record
        that lacks only its newline is whole): one written just as a Ctrl-C came, before
        ``append`` returned or its caller counted it, is among them."""
        try:
            with self.path.open("rb") as f:
                f.seek(self._start)
                data = f.read()
        except OSError as exc:
            raise FolderError(f"{self.path}: cannot read it: {exc.strerror or exc}") from None
        games = set()
        lines = data.split(b"\n")
        # the part after the last newline is a whole line when it is a record lacking only its
        # newline, as ``read_results`` takes it (``_whole_last``); else a torn one, none
        tail = _whole_last(lines[-1], 0)
        for line in lines[:-1] + ([lines[-1][:tail]] if tail else []):
            try:
                record = _json(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("game"), int):
                games.add(record["game"])
        return games


def write_error(path: Path, exc: OSError) -> FolderError:
    """A file of the tournament's folder that could not be written: the file, the system's
    reason, and how to go on (the games recorded before stay; ``--resume`` plays the rest)."""
    folder = path.parent.parent if path.parent.name == "transcripts" else path.parent
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        fix = "free some space, then go on with"
    elif exc.errno == errno.EFBIG:
        fix = "the file is past the size this system allows it (ulimit -f); raise the limit, then go on with"
    else:
        fix = "once it can be written, go on with"
    return FolderError(f"cannot write {path}: {reason}; {fix}: arbiter tournament --resume {folder}")

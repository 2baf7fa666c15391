"""The tournament's folder: its configuration, its results file and its transcripts.

::

    DIR/tournament.json     the configuration: all that --resume DIR needs
    DIR/results.jsonl       one JSON line per finished game, appended as each game ends
    DIR/transcripts/        game-NNNNN.yaml for each game (and game-NNNNN.SEAT.stderr.log of exec bots)
    DIR/.lock               held while a run plays, so two runs never share a folder

Only the main process writes ``results.jsonl``: each line is written whole, flushed and synced
before the next game is recorded, so a crash, Ctrl-C or ``kill -9`` loses at most the line being
written. Reading it back, a last line without its newline (or that does not read as JSON) is
a torn write and is ignored (and cut off before anything is appended); a game is played again
by a resumed run exactly when it has no whole line.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any

from arbiter.engine.errors import ArbiterError
from arbiter.engine.files import write_whole

CONFIG, RESULTS, LOCK = "tournament.json", "results.jsonl", ".lock"
FORMAT = 1


class FolderError(ArbiterError):
    pass


class Folder:
    """A tournament's folder. ``create`` starts a new one; ``existing`` opens one to resume."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: IO[bytes] | None = None

    @property
    def transcripts(self) -> Path:
        return self.path / "transcripts"

    @classmethod
    def create(cls, path: str | Path, config: dict[str, Any]) -> Folder:
        """A new tournament in ``path``: a new folder, or an empty one. A folder holding anything
        else is refused (a tournament's: resume it; anything else: not ours to fill)."""
        p = Path(path)
        if p.exists() and not p.is_dir():
            raise FolderError(f"{p} is a file, not a folder")
        if p.is_dir() and any(p.iterdir()):
            if (p / CONFIG).exists():
                raise FolderError(f"{p} already holds a tournament; go on with it with --resume {p} "
                                  "(or choose a new --out)")
            raise FolderError(f"{p} is not empty and holds no tournament; choose a new or empty --out")
        try:
            p.mkdir(parents=True, exist_ok=True)
            folder = cls(p)
            folder.lock()
            (p / "transcripts").mkdir(exist_ok=True)
            write_whole(p / CONFIG, json.dumps({"format": FORMAT, **config}, indent=2) + "\n")
        except OSError as exc:
            raise FolderError(f"cannot make the tournament's folder {p}: {exc.strerror or exc}") from None
        return folder

    @classmethod
    def existing(cls, path: str | Path) -> tuple[Folder, dict[str, Any]]:
        """The tournament in ``path`` and its configuration."""
        p = Path(path)
        try:
            config = json.loads((p / CONFIG).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FolderError(f"{p} holds no tournament (no {CONFIG})") from None
        except (OSError, ValueError) as exc:
            raise FolderError(f"{p / CONFIG}: cannot read it: {exc}") from None
        if not isinstance(config, dict) or config.get("format") != FORMAT:
            raise FolderError(f"{p / CONFIG}: not a tournament of this arbiter (format {FORMAT})")
        folder = cls(p)
        folder.lock()
        (p / "transcripts").mkdir(exist_ok=True)
        return folder, config

    def lock(self) -> None:
        """Hold the folder for this run; another run on it is refused."""
        f = (self.path / LOCK).open("ab")
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

    def read_results(self) -> list[dict[str, Any]]:
        """The recorded games, each once (the first line of a game wins), a torn last line left out."""
        records, _ = read_results(self.path / RESULTS)
        return records

    def writer(self) -> ResultsWriter:
        return ResultsWriter(self.path / RESULTS)

    def write_files(self, files: dict[str, str]) -> None:
        """Files a worker returned (Ray): written whole into ``transcripts/``."""
        for name, text in files.items():
            if "/" in name or name.startswith("."):
                raise FolderError(f"a worker returned a file with a bad name: {name!r}")
            write_whole(self.transcripts / name, text)


def read_results(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records of a results file and the offset after its last whole line."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], 0
    records: list[dict[str, Any]] = []
    seen: set[int] = set()
    offset = 0
    while offset < len(data):
        end = data.find(b"\n", offset)
        if end < 0:
            break  # a torn last line: ignored
        line = data[offset:end]
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("game"), int):
                raise ValueError("not a game's record")
        except ValueError as exc:
            if data.find(b"\n", end + 1) < 0 and not data[end + 1:].strip():
                break  # the last line, garbled by a crash mid-write: ignored like a torn one
            number = data[:offset].count(b"\n") + 1
            raise FolderError(f"{path}: line {number} is not a game's record "
                              f"({exc}); the file was changed by hand?") from None
        if record["game"] not in seen:
            seen.add(record["game"])
            records.append(record)
        offset = end + 1
    return records, offset


class ResultsWriter:
    """Appends records to the results file, each line flushed and synced before ``append`` returns."""

    def __init__(self, path: Path) -> None:
        _, end = read_results(path)
        self._file = path.open("ab")
        if self._file.tell() > end:  # a torn last line: cut it off before appending
            self._file.truncate(end)
        self._file.seek(0, os.SEEK_END)

    def append(self, record: dict[str, Any]) -> None:
        self._file.write((json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8"))
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

"""What the tournament tests (``test_arena_games.py``, ``test_arena_forfeits.py``,
``test_arena_resume.py``, ``test_arena_ray.py``, ``test_arena_pool_stop.py``,
``test_arena_pool_failures.py``) share: a small tournament played by local workers into a
folder, its records without their times, and the transcripts it wrote; the Python their
``exec:`` bots run with (``PY``); a pool playing in this process (``InProcess``); a tournament
whose game is stuck on a bot; and records made by hand (``rec``, ``whole_rec``) and a
two-entrant duel tournament (``duel_tournament``) for the arithmetic, the SPRT and the report
(``test_arena_stats.py``, ``test_arena_sprt.py``, ``test_arena_report.py``). For the tests of a
folder a run resumes (``test_arena_folder.py``, ``test_arena_config_edits.py``,
``test_arena_records.py``, ``test_arena_disk_full.py``): a finished match to copy (``played``,
``copy_of``), a folder's every file (``snapshot``), and its lock found free (``assert_free``).
"""

from __future__ import annotations

import fcntl
import shutil
import sys
from pathlib import Path

import pytest

from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.pool import LocalPool
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.schedule import Game
from arbiter.engine.arena.tournament import Tournament, configuration

from tests.helpers import run as run_cli
from tests.hostile import stuck_bot


PY = sys.executable
"""The Python the tests' ``exec:`` bots run with."""


DUEL = {"m": "mafia", "f": "fbi"}
"""The seats' sides of an FBI vs Mafia duel, as records name them."""


def rec(game, seats, sides, won, **extra):
    """A finished game's record: ``seats`` seat -> entrant, ``sides`` seat -> side, ``won`` the
    winning seats."""
    return {"game": game, "finished": True, "seats": seats, "sides": sides, "roles": dict(sides),
            "outcome": {s: "won" if s in won else "lost" for s in seats}, "forfeits": [], **extra}


MATCH = ("match", "mafia", "--players", "6", "a=random", "b=random", "--workers", "1")
"""A Classic Mafia match of random bots, one worker: ``played`` plays it, tests resume it."""


_PLAYED: list[Path] = []
"""The folder ``played`` made in this process, once made."""


@pytest.fixture(scope="module")  # (a fixture of each module that imports it; the match, once a process)
def played(tmp_path_factory) -> Path:
    """A finished match of 4 games, to be copied and changed by each test: played once a
    process, for every module that imports the fixture (every test copies the folder, none
    changes it, so each finds it as the match left it)."""
    if not _PLAYED:
        out = tmp_path_factory.mktemp("played") / "t"
        r = run_cli(*MATCH, "--games", "4", "--out", out)
        assert r.exit_code == 0, r.output
        _PLAYED.append(out)
    return _PLAYED[0]


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` (hidden ones too) and each file's bytes."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def assert_free(folder: Path) -> None:
    """No run holds ``folder`` (a refused run let its lock go)."""
    with (folder / ".lock").open("ab") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def copy_of(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "t"
    shutil.copytree(played, folder)
    return folder


class QuietPool:
    """What a pool made for a test leaves to its base: nothing to close, nothing waiting to
    drop, no failure held (``LocalPool.held_failure``)."""

    def close(self, cancel: bool = False) -> None:
        pass

    def drop_waiting(self) -> None:
        pass

    def held_failure(self) -> None:
        return None


class Replaying(QuietPool):
    """A pool of one worker handing back recorded games (``records``: by game number) as its
    workers would, every game submitted at once: a tournament's main process run alone."""

    workers = 1

    def __init__(self, records: dict[int, dict]) -> None:
        self.records, self.pending = records, []

    @property
    def busy(self) -> int:
        return len(self.pending)

    def submit(self, game: Game) -> None:
        self.pending.append(game)

    def done(self, timeout: float) -> list[tuple[Game, dict]]:
        out, self.pending = [(g, dict(self.records[g.index])) for g in self.pending], []
        return out


class InProcess(QuietPool):
    """A pool of one worker in this process, playing into ``directory``: the games submitted
    (``submitted``, in order) are played when ``done`` asks, all that wait in one look, as a
    main process slow to look finds several ended. ``stop_at``: a look whose games include that
    one ends in a Ctrl-C instead of handing them back: they ended, their transcripts are
    written, and no record is (a run stopped between the two)."""

    workers = 1

    def __init__(self, settings, directory: Path, stop_at: int | None = None) -> None:
        from arbiter.engine.arena.runner import Worker

        self.worker, self.directory, self.stop_at = Worker(settings), directory, stop_at
        self.pending: list[Game] = []
        self.submitted: list[int] = []

    @property
    def busy(self) -> int:
        return len(self.pending)

    def submit(self, game: Game) -> None:
        self.pending.append(game)
        self.submitted.append(game.index)

    def done(self, timeout: float) -> list[tuple[Game, dict]]:
        games, self.pending = self.pending, []
        out = [(g, self.worker.play(g, self.directory)) for g in games]
        if self.stop_at in {g.index for g in games}:
            raise KeyboardInterrupt
        return out


def stuck_tournament(tmp_path: Path) -> tuple[Tournament, Game, Path]:
    """A tournament of FBI vs Mafia duels whose bot time-out (two minutes) is far longer than
    any test waits, one of its games, whose first seat is a ``STUCK_NAMING_ITSELF`` bot, and
    the file that bot names its process in."""
    command, named = stuck_bot(tmp_path)
    entrants = [Entrant("stuck", f"exec:{command}"), Entrant("rnd", "random")]
    config = configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), bot_timeout=120.0, cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    return t, next(g for g in t.games if g.entrants[0] == "stuck"), named


def play(directory: Path, workers: int = 1, **kw) -> tuple[Tournament, list[dict]]:
    """A tournament played with ``workers`` local workers into ``directory``; its records."""
    entrants = kw.pop("entrants", [Entrant("rnd", "random"), Entrant("sleuth", "sleuth")])
    game = kw.pop("game", "mafia")
    form = kw.pop("form", 2)  # the folder's format
    config = configuration(game, entrants, kw.pop("games", 6), **{"players": 6, **kw}, cwd=str(directory.parent))
    folder = Folder.create(directory, {"format": form, **config})
    t = Tournament({"format": form, **config})
    outcome = t.run(folder, LocalPool(t.settings, workers, directory))
    folder.unlock()
    return t, outcome.records


def without_time(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "time"} for r in records]


def transcripts(directory: Path) -> dict[str, bytes]:
    """Every file of the tournament's ``transcripts/``, byte for byte."""
    return {p.name: p.read_bytes() for p in sorted((directory / "transcripts").iterdir())}


STDERR_BYTES = b"crlf\r\nnot utf-8: \xff\xfe\xc3(\nlone\rcarriage return\r"
"""What ``noisy_bot`` writes on stderr: line ends of Windows, bytes that are not UTF-8, and
carriage returns alone (a text reader would change all three)."""


def noisy_bot(tmp_path: Path) -> str:
    """An ``exec:`` command: ``docs/examples/random_bot.py`` that first writes ``STDERR_BYTES``
    on its stderr."""
    from tests.hostile import EXAMPLE, script

    return script(tmp_path, "noisy_bot", f"""
import os, sys
os.write(2, {STDERR_BYTES!r})
os.execv(sys.executable, [sys.executable, {str(EXAMPLE)!r}, "4"])
""")


def whole_rec(t, g, won):
    """The record a worker writes of ``t``'s finished game ``g``, ``won`` its winning seats
    (every key: a resumed run checks each line against its game)."""
    sides = {s: s for s in g.seats}
    return {"deal": g.deal, "rotation": g.rotation, "tournament_seed": t.config["seed"], "seed": g.seed,
            "variant": g.variant, "options": g.options, "result": {"winner": None, "reason": "r", "text": "t",
                                                                   "winners": sorted(won)},
            "names": {}, "moves": 1, "error": None, "transcript": f"transcripts/game-{g.index:05d}.yaml", "time": 0.1,
            **rec(g.index, g.assignment, sides, won)}


def duel_tournament(sprt=(0, 100)):
    """An FBI vs Mafia duel of two random entrants, A and B, of 400 games, with an SPRT of ``sprt``
    (elo0, elo1), not played."""
    config = {"game": "fbi-mafia", "modes": ["duel-3v3"], "players": None, "seed": 1, "games": 400,
              "entrants": [{"name": "A", "spec": "random"}, {"name": "B", "spec": "random"}],
              "bot_timeout": 1, "reuse": False, "max_moves": 100, "sprt": dict(zip(("elo0", "elo1"), sprt))}
    return Tournament(config)

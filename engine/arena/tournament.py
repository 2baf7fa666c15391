"""A tournament: its configuration, its games, and the loop that plays what is left of them.

``Tournament`` is made from the configuration (the dictionary ``tournament.json`` holds), so a
new run and a resumed one are the same thing: the schedule is computed again from the seed,
the games that have a record are left out, and the rest are played by a pool
(``engine.arena.pool``), each record appended to the results file as its game ends. With an
SPRT, the test is evaluated after each result on the longest run of whole blocks (a deal with
all its rotations) from the start of the schedule, so the moment it decides does not depend on
how many workers play nor on the order they finish in; once it decides, no new game starts
(those running finish and are recorded). A game a stopped run left with its transcript and
no record (it ended, its line was not written yet) is recorded from its transcript as the run
starts (``Tournament._account``), before anything is scheduled: an ended game is never played
twice. Each whole block is one outcome of the test
(``engine.arena.stats.block_result``): both entrants played every seat of the same deal in it,
so its result is the entrants' skill with the deal's luck cancelled, as chess's game pairs.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from arbiter.engine import registry
from arbiter.engine.arena.config import check_sprt, missing_cwd, recorded_deck
from arbiter.engine.arena.pool import WorkerFailed
from arbiter.engine.arena.entrants import Entrant, check_entrants, check_spec
from arbiter.engine.arena.results import Folder, FolderError, ResultsWriter, cannot_make
from arbiter.engine.arena.runner import MAX_MOVES, Settings, record_from_transcript, transcript_name
from arbiter.engine.arena.schedule import FORMAT, Game, Setup, block_size, schedule
from arbiter.engine.arena.sprt import Sprt
from arbiter.engine.arena.stats import Tally, block_result
from arbiter.engine.errors import ArbiterError, TranscriptError
from arbiter.engine.scenario import Node
from arbiter.engine.session import Session


class Pool(Protocol):
    workers: int

    def submit(self, game: Game) -> None: ...

    @property
    def busy(self) -> int: ...

    def done(self, timeout: float | None) -> list[tuple[Game, dict[str, Any]]]: ...

    def close(self, cancel: bool = False) -> None: ...

    def drop_waiting(self) -> None: ...

    def held_failure(self) -> ArbiterError | None: ...


def configuration(game: str, entrants: list[Entrant], games: int, *, modes: tuple[str, ...] = (),
                  players: int | None = None, roles: int | None = None, deck: Node | None = None,
                  seed: int = 1, bot_timeout: float = 10.0, reuse: bool = False,
                  max_moves: int = MAX_MOVES, sprt: Sprt | None = None, cwd: str | None = None) -> dict[str, Any]:
    """The configuration of a new tournament (what ``tournament.json`` holds), checked. A custom
    ``deck`` (``scenario.deck_document``) is kept as its document, and refused naming its file."""
    rules = registry.get(game)
    for e in check_entrants(list(entrants)):
        check_spec(e.spec, rules.bot_kinds, cwd)  # the workers run the games there
    check_sprt(sprt, len(entrants))
    config = {"game": game, "modes": list(modes), "players": players, "roles": roles,
              "deck": None if deck is None else deck.value,
              "entrants": [{"name": e.name, "spec": e.spec} for e in entrants],
              "games": games, "seed": seed, "bot_timeout": bot_timeout, "reuse": reuse, "max_moves": max_moves,
              "sprt": None if sprt is None else sprt.as_dict(), "cwd": cwd}
    Tournament(config, deck)  # every mode, player count, level and deck is checked here
    return config


@dataclass
class Progress:
    """Where a run stands, after each game."""

    done: int
    total: int
    played: int  # by this run
    elapsed: float
    leader: tuple[str, float] | None  # entrant and its seat win rate so far

    @property
    def rate(self) -> float:
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        return (self.total - self.done) / self.rate if self.rate > 0 else None


@dataclass
class Outcome:
    """How a run ended."""

    records: list[dict[str, Any]]
    played: int
    elapsed: float
    sprt: dict[str, Any] | None = None
    interrupted: bool = False
    recovered: list[int] = field(default_factory=list)
    """Games recorded from their transcripts as the run started (``Tournament._account``)."""
    unrecorded: list[tuple[int, str]] = field(default_factory=list)
    """Games whose transcripts are left without a record at the end, past the SPRT's decision,
    and why (``Tournament._account``)."""


class Tournament:
    def __init__(self, config: dict[str, Any], deck: Node | None = None) -> None:
        """``deck``: the configuration's custom deck as read from its file, whose refusals name
        the file (by default the one the configuration records)."""
        self.config = config
        self.deck = recorded_deck(config) if deck is None else deck
        self.rules = registry.get(config["game"])
        self.entrants = [Entrant(e["name"], e["spec"]) for e in config["entrants"]]
        self.names = [e.name for e in self.entrants]
        self.setups = self._setups()
        self.games = schedule(config["seed"], self.setups, self.names, config["games"],
                              config.get("format", FORMAT))  # (a new tournament's, before it has one)
        self.settings = Settings(config["game"], {e.name: e.spec for e in self.entrants}, config["seed"],
                                 config["bot_timeout"], config["reuse"], config["max_moves"], config.get("cwd"))
        sprt = config.get("sprt")
        self.sprt = Sprt(**sprt) if sprt else None

    def _setups(self) -> list[Setup]:
        out = []
        for mode in self.config["modes"] or [None]:
            variant, options = self.rules.choose_setup(mode, self.config.get("players"),
                                                       self.deck, self.config.get("roles"))
            seats = Session(self.rules, variant, seed=0, options=options).seats
            out.append(Setup(variant, options, tuple(seats)))
        return out

    @property
    def block(self) -> int:
        return block_size(len(self.names))

    # -- the SPRT ------------------------------------------------------------------------------
    def sprt_state(self, records: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
        """The SPRT on the whole blocks at the start of the schedule that are all recorded, up
        to the first block after which it decides (later blocks, finished by games that were
        running when it decided, do not change its verdict)."""
        return None if self.sprt is None else SprtCount(self).update(records)

    # -- playing -------------------------------------------------------------------------------
    def recorded(self, folder: Folder) -> dict[int, dict[str, Any]]:
        """The games ``folder`` records, by number; but not one the machine could not start (its
        record's ``error``: no file, memory or process to be had), which is played again, as a
        game without a record: the machine may have it now."""
        return {r["game"]: r for r in folder.read_results(self.games, self.config["seed"]) if r.get("error") is None}

    def cannot_go_on_here(self, folder: Folder) -> str | None:
        """Why the games ``folder`` has left to play cannot be played here (``missing_cwd``), or
        None: a run with nothing left to play (every game recorded, or the SPRT decided), or
        built-in bots only, needs no folder of its own. A game a stopped run left ended, which
        the run records from its transcript (``_account``), is not left to play (its
        transcripts are read only when the folder is missing)."""
        done = self.recorded(folder)
        if self._missing_cwd(done) is None:
            return None
        for n, record, _ in self._left_transcripts(folder, done):
            if record is not None and record["error"] is None:  # (a game the machine could not start is played again)
                done[n] = record
        return self._missing_cwd(done)

    def _left_transcripts(self, folder: Folder, done: dict[int, dict[str, Any]]
                          ) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
        """Each transcript in ``folder`` of a scheduled game without a record in ``done``, in
        the games' order: the game, its record made from the transcript
        (``record_from_transcript``) or None, and then why not."""
        for n in sorted(folder.transcript_games()):
            if n >= len(self.games) or n in done:
                continue
            try:
                record = record_from_transcript(self.games[n], folder.transcripts / transcript_name(n), self.settings)
            except TranscriptError as exc:
                yield n, None, exc.message
                continue
            yield n, record, None

    def _missing_cwd(self, done: dict[int, dict[str, Any]]) -> str | None:
        if self.sprt is not None and self.sprt_state(done)["result"] is not None:
            return None  # (the SPRT decided: no game is played, however many are left without a record)
        left = {name for g in self.games if g.index not in done for name in g.entrants}
        return missing_cwd(self.config, [e.spec for e in self.entrants if e.name in left])

    def run(self, folder: Folder, pool: Pool, on_progress: Callable[[Progress], None] | None = None,
            clock: Callable[[], float] = time.monotonic) -> Outcome:
        """Play every scheduled game without a record (until the SPRT decides); the records.
        First, every game a stopped run left ended, with its transcript and without its line, is
        recorded from that transcript (``_account``), so it is counted and never played again.

        Ctrl-C (``KeyboardInterrupt``) stops the pool, keeps every record written, and ends the
        run with ``interrupted`` set; so it does as the workers end after the last game, and while
        the games a stopped run left are recorded from their transcripts (``_account``). A
        worker's failure the pool held while the games that ended with it were recorded
        (``LocalPool.done``) is not lost when the run stops there: a Ctrl-C then raises that
        failure, saying the run was interrupted, and a write the system refused (an
        ``ArbiterError``) is raised naming the failure too."""
        recorded = self.recorded(folder)
        failed = {r["game"] for r in folder.read_results(self.games, self.config["seed"]) if r.get("error") is not None}
        folder.remove_temporary()  # of a killed run: the games it had in progress are played again
        start = clock()
        played = 0
        count = SprtCount(self) if self.sprt is not None else None  # counts each block once, as records come
        writer = folder.writer()
        interrupted = False
        recovered: list[int] = []  # (each named before its line is written: the file says which were)
        noted: list[int] = []  # (games the machine could not start, so recorded: played again)
        unrecorded: list[tuple[int, str]] = []
        try:
            unrecorded = self._account(folder, writer, recorded, failed, recovered, noted)
            todo: Iterator[Game] = iter([g for g in self.games if g.index not in recorded])
            standing = Standing(self.names)
            for r in recorded.values():
                standing.add(r)
            state = count.update(recorded) if count is not None else None
            stop = state is not None and state["result"] is not None
            more = True
            while True:
                while more and not stop and pool.busy < 2 * pool.workers:
                    game = next(todo, None)
                    if game is None:
                        more = False
                    else:
                        pool.submit(game)
                if not pool.busy:
                    break
                for game, record in pool.done(timeout=0.2):
                    files = record.pop("files", None)
                    if files:
                        folder.write_files(files)
                    writer.append(record)
                    recorded[game.index] = record
                    played += 1
                    standing.add(record)
                    if count is not None and not stop:
                        state = count.update(recorded)
                        stop = state["result"] is not None
                        if stop:  # no game starts once it decides: those submitted and waiting go
                            pool.drop_waiting()
                    if on_progress is not None:
                        on_progress(Progress(len(recorded), len(self.games), played, clock() - start,
                                             standing.leader()))
        except KeyboardInterrupt:
            interrupted = True
            pool.close(cancel=True)
        except ArbiterError as exc:  # (a failure raised by the pool itself is held no more)
            pool.close(cancel=True)
            held = pool.held_failure()
            if held is None:
                raise
            mend = " (mend that too, or the resumed run meets it again)" \
                if isinstance(held, WorkerFailed) and not held.killed else ""
            raise _restated(exc, f"{exc.message}; and before it, {held.message}{mend}") from None
        except BaseException:
            pool.close(cancel=True)
            raise
        else:
            try:  # (waiting for the workers to end: they close the bots kept for another game, --reuse)
                pool.close()
            except KeyboardInterrupt:  # (as in the games: every record written stays, and a resume goes on)
                interrupted = True
        finally:
            writer.close()
        held = pool.held_failure() if interrupted else None
        if held is not None:  # the failure is what the resumed run meets: said as the run's error
            raise _restated(held, "interrupted while the games that had ended before this failure were being "
                                  f"recorded: {held.message}") from None
        if interrupted:  # Ctrl-C may land between a record's write and its count here: the file is what counts
            counted = set(recorded)
            # (a record the machine could not start counts when this run wrote it, not one an earlier
            # run left to play again: which are this run's the file says, as it does of the others)
            mine = writer.written()
            recovered = [n for n in recovered if n in mine]
            recorded = {r["game"]: r for r in folder.read_results(self.games, self.config["seed"])
                        if r.get("error") is None or r["game"] in mine}
            # (a game's last record made from its transcript has no time: not played by this run)
            copied = set(recovered) | set(noted)
            played += sum(1 for n in set(recorded) - counted if n not in copied or recorded[n].get("time") is not None)
        # (a transcript left as it was is said when its game was not played again: past the decision)
        unrecorded = [] if interrupted else [(n, why) for n, why in unrecorded if n not in recorded]
        records = sorted(recorded.values(), key=lambda r: r["game"])
        return Outcome(records, played, clock() - start, count.update(recorded) if count is not None else None,
                       interrupted, recovered, unrecorded)

    def _account(self, folder: Folder, writer: ResultsWriter, recorded: dict[int, dict[str, Any]],
                 failed: set[int], recovered: list[int], noted: list[int]) -> list[tuple[int, str]]:
        """As a run starts, every transcript of a game without a record accounted for: a run
        stopped (Ctrl-C, ``kill -9``, a failure, a full disk) between a game's transcript and its
        line left it. A game that ended is recorded from its transcript
        (``record_from_transcript``: the game was played, its data is real; a bot that does not
        play the same way twice, a language model or a person, would play another game if it
        were played again), added to ``recorded`` and to ``recovered``. The transcript of a game
        the machine could not start is recorded so too, unless it has its line already
        (``failed``), and is played again, as any such game is (added to ``noted``, not to
        ``recorded`` nor to ``recovered``: it did not end, and the run plays it). Any
        other transcript (its game did not end: a worker failed in it; it does not replay; it is
        not the game of its name) is left as it is: its game is played again, which replaces it,
        unless the SPRT decides first. Returns those, with why (the run says them when their games
        were not played again)."""
        if len(recorded) == len(self.games):
            return []
        unrecorded = []
        for n, record, why in self._left_transcripts(folder, recorded):
            if record is None:
                unrecorded.append((n, why))
            elif record["error"] is None:
                recovered.append(n)
                writer.append(record)
                recorded[n] = record
            elif n not in failed:
                noted.append(n)
                writer.append(record)
        return unrecorded


class SprtCount:
    """The SPRT of a tournament counted along its schedule's whole blocks, from the start, each
    block once: ``update(records)`` goes on from the last block it counted while the next is
    whole in ``records`` (a run's records only grow), up to the block after which the test
    decides. (Counting again from the start at every record cost 3 ms a record at 1,000
    games of a Duel, 16 at 5,000, 70 at 20,000: the main process of a long test would have
    become its bottleneck.)"""

    def __init__(self, tournament: Tournament) -> None:
        assert tournament.sprt is not None
        self.tournament = tournament
        self.blocks = self.wins = self.losses = self.draws = self.void = 0
        self.decided = False

    def update(self, records: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """The SPRT's state (``Tournament.sprt_state``) with ``records``, which hold every record
        the earlier updates counted."""
        t, sprt = self.tournament, self.tournament.sprt
        assert sprt is not None
        a, b = t.names
        size = t.block
        while not self.decided:
            block = t.games[self.blocks * size:(self.blocks + 1) * size]
            if not block or any(g.index not in records for g in block):
                break
            res = block_result([records[g.index] for g in block], a, b)
            self.blocks += 1
            self.wins += res == "win"
            self.losses += res == "loss"
            self.draws += res == "draw"
            self.void += res is None  # a game of it unfinished: an outcome of neither kind
            self.decided = sprt.status(self.wins, self.losses) is not None
        wins, losses = self.wins, self.losses
        return {**sprt.as_dict(), "first": a, "second": b, "blocks": self.blocks, "games": self.blocks * size,
                "wins": wins, "losses": losses, "draws": self.draws, "void": self.void, "llr": sprt.llr(wins, losses),
                "lower": sprt.lower, "upper": sprt.upper, "result": sprt.status(wins, losses)}


def _restated(exc: ArbiterError, message: str) -> ArbiterError:
    """``exc`` (its kind, and what it carries: a worker's ``killed``) saying ``message``."""
    out = copy.copy(exc)
    out.message, out.args = message, (message,)
    return out


class Standing:
    """Each entrant's seats played and won in the finished games recorded so far (``add``), and
    the leader among them (``leader``), which the live progress names after each game."""

    def __init__(self, names: list[str]) -> None:
        self.tallies = {name: Tally() for name in names}

    def add(self, record: dict[str, Any]) -> None:
        if record.get("finished"):
            for seat, name in record["seats"].items():
                if name in self.tallies:
                    self.tallies[name].add(record["outcome"].get(seat) == "won")

    def leader(self) -> tuple[str, float] | None:
        """The entrant with the best seat win rate so far, and that rate; of a tie, the name
        that sorts first (as the tables list them); None before any entrant held a seat of a
        finished game."""
        played = [(-t.wins / t.seats, name) for name, t in self.tallies.items() if t.seats]
        if not played:
            return None
        rate, name = min(played)
        return name, -rate


def folder_for(game: str, out: str | None) -> Path:
    """``--out``, or a new folder ``arena/GAME-YYYYMMDD-HHMMSS`` in the current one, made here
    (``mkdir``, which fails when the name is taken, so two runs started in the same second
    never share one): when the name is taken, the first of ``...-2``, ``...-3``... that is not."""
    if out:
        return Path(out)
    base = Path("arena") / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        base.parent.mkdir(exist_ok=True)
        for n in range(1, 1000):
            path = base if n == 1 else base.with_name(f"{base.name}-{n}")
            try:
                path.mkdir()
                return path
            except FileExistsError:
                continue
    except OSError as exc:
        raise cannot_make(base, exc) from None
    raise FolderError(f"cannot make the tournament's folder {base}: every name up to {base.name}-999 is taken; "
                      "choose one with --out")

"""Plays one scheduled game in a worker and returns its record (one line of ``results.jsonl``).

The worker writes the game's transcript as it goes (``engine.transcript.TranscriptWriter``,
replacing a transcript a crashed run left without a result) and each ``exec:`` bot's stderr
beside it (``game-NNNNN.SEAT.stderr.log``). Built-in bots are seeded from the game's seed and
their seat (``engine.bots.RandomBot``), so a game's moves depend on its deal and assignment only,
never on the worker, the order or the number of workers.

An ``exec:`` bot gets the match lines of the protocol: a hello before its first ``go``, and
``result OUTCOME TEXT`` at the end. With ``reuse`` the worker keeps each ``exec:`` program that
finished its game in good order and starts its next game of that entrant with ``new-game``
instead of a new process; a worker plays one game at a time, so a bot process never serves two
games at once.

When no ``directory`` is given (Ray, where the tournament's folder may be on another machine),
the files are written to a temporary folder and returned in the record (``files``: name ->
bytes) for the main process to write, byte for byte what a local worker writes. A Ray worker
makes that folder in its ``scratch`` folder (``engine.arena.scratch``), so what a killed worker
left is removed by the next worker on its machine.

A game's record is made from its session (``game_record``); ``record_from_transcript`` makes
it again from the game's transcript, replayed, for a game whose line a stopped run never
wrote and that no run will play again (past an SPRT's decision).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.engine import agents, registry
from arbiter.engine.arena.schedule import Game
from arbiter.engine.arena.stats import forfeit_kind
from arbiter.engine.bots import Bot, BotFailure, MachineError, close_all, make_bot
from arbiter.engine.programs import ProcessBot
from arbiter.engine.errors import ArbiterError, TranscriptError, counted
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from arbiter.engine.transcript import TranscriptWriter, read, replayed

TRANSCRIPTS = "transcripts"
CANNOT_START = "the game could not start: "
"""How the note of a game the machine could not start begins (its record's ``error`` follows)."""
MAX_MOVES = 20_000
"""A game still going after this many moves is stopped and recorded unfinished (a pair of bots
that never end it); ``--max-moves`` changes it."""


@dataclass(frozen=True)
class Settings:
    """What every game of a tournament shares (a worker needs nothing else)."""

    game: str
    entrants: dict[str, str]
    """name -> spec"""
    tournament_seed: int
    bot_timeout: float = 10.0
    reuse: bool = False
    max_moves: int = MAX_MOVES
    cwd: str | None = None
    """Where bots start (an ``exec:`` command's relative paths, a ``py:`` module)."""


def transcript_name(index: int) -> str:
    return f"game-{index:05d}.yaml"


def log_name(index: int, seat: str) -> str:
    """The file of what ``seat``'s ``exec:`` bot wrote on stderr in game ``index``."""
    return f"game-{index:05d}.{seat}.stderr.log"


class _Unstarted:
    """The seat of a bot that could not start (no such program, an agent that cannot be made):
    the entrant's fault, as cutechess-cli counts an engine that fails to start as its loss. It
    fails when first asked for an input, so the match forfeits the seat there, as it does a
    program that crashed before its first answer, and the game goes on to its end."""

    def __init__(self, seat: str, why: str) -> None:
        self.seat = seat
        self.why = why

    def choose(self, session: Session) -> str | None:
        raise BotFailure(self.why)

    def close(self) -> None:
        pass


def _why_unstarted(spec: str, message: str) -> str:
    """The forfeit's reason for a bot that could not start, in the words ``forfeit_kind`` reads
    as a crash (an agent's message names its spec first, and its exception unquoted)."""
    return message if spec.startswith("exec:") else f"the agent could not start: {message}"


class _Seated:
    """A bot as the match sees it: the match may close it (a forfeit, the end), but a reusable
    bot's process stays with the worker, which decides at the end of the game. A bot that has
    forfeited is never reused: its process is ended at once (a forfeited bot spinning or
    flooding its stderr once ran on until the game's end).

    A process reused for this game (``fresh``: how to start a new one instead) that is found
    gone at its first go, having ended itself after its last ``result``, is replaced by a
    fresh process there: whether the worker saw it go before it picked it was a matter of
    timing, so the same bot lost some games as a crash and not others, depending on the
    workers' count."""

    def __init__(self, bot: Bot, session: Session, fresh: Callable[[], Bot] | None = None) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.session = session
        self.released = False
        self._fresh = fresh

    def choose(self, session: Session) -> str | None:
        fresh, self._fresh = self._fresh, None  # (its first go only)
        try:
            return self.bot.choose(session)
        except BotFailure:
            if fresh is None or not (isinstance(self.bot, ProcessBot) and self.bot.gone):
                raise
        self.bot.close()  # a reused process that had gone (or went as it was asked): a fresh one
        try:
            self.bot = fresh()
        except ArbiterError as exc:  # (it could not start again: the seat's loss, as any start's)
            raise BotFailure(exc.message) from None
        return self.bot.choose(session)

    def explained(self, reason: str) -> str:
        """``reason`` as the bot explains a forfeit (a process's stderr tail follows it)."""
        explain = getattr(self.bot, "explained", None)
        return explain(reason) if explain is not None else reason

    def close(self) -> None:
        self.released = True
        if any("forfeit" in e["note"] and e["note"].get("seat") == self.seat
               for e in self.session.entries if "note" in e):
            self.bot.close()


@dataclass
class Worker:
    """One worker's games, one at a time, and (with ``reuse``) its idle bot processes."""

    settings: Settings
    idle: dict[str, list[ProcessBot]] = field(default_factory=lambda: defaultdict(list))
    scratch: Path | None = None  # where the temporary folders of ``play`` without a folder go

    def _bot(self, entrant: str, seat: str, session: Session, log: Path) -> _Seated:
        spec = self.settings.entrants[entrant]
        if spec.startswith("exec:"):
            pool = self.idle[entrant]
            while pool:
                bot = pool.pop()
                if bot.reusable:
                    try:
                        bot.new_game(session.rules.name, session.variant.name, seat, log)
                    except BaseException:  # (its log cannot be opened): the process is no one's now
                        bot.close()
                        raise
                    return _Seated(bot, session, fresh=lambda: self._process(spec, seat, session, log))
                bot.close()
            return _Seated(self._process(spec, seat, session, log), session)
        return _Seated(make_bot(spec, seat, session.seed, self.settings.bot_timeout, session.rules.bot_kinds),
                       session)

    def _process(self, spec: str, seat: str, session: Session, log: Path) -> ProcessBot:
        """A new process of an ``exec:`` bot for ``seat``, greeted (``hello``)."""
        made = make_bot(spec, seat, session.seed, self.settings.bot_timeout, session.rules.bot_kinds, log=log)
        assert isinstance(made, ProcessBot)
        made.hello(session.rules.name, session.variant.name)
        return made

    def play(self, game: Game, directory: Path | None) -> dict[str, Any]:
        """Play ``game``; its record. Files go under ``directory`` (or come back in ``files``)."""
        start = time.perf_counter()
        temporary = None
        if directory is None:
            temporary = Path(tempfile.mkdtemp(prefix="arbiter-game-", dir=self.scratch))
        base = (directory or temporary) / TRANSCRIPTS  # type: ignore[operator]
        base.mkdir(parents=True, exist_ok=True)
        name = transcript_name(game.index)
        for old in (name, *(log_name(game.index, seat) for seat in game.assignment)):
            (base / old).unlink(missing_ok=True)  # what a crashed run left of this game (by name: no listing of
            # the folder, which holds every game's files: a glob cost 1 ms a game beside 1,000 files, 19 beside 20,000)
        try:
            record = self._play(game, base / name)
        finally:
            files = {}
            if temporary is not None:
                # bytes: a bot's log is its own; an empty log left out (a reused bot holds its log
                # open until its next game: the log would be removed then, of a folder gone)
                files = {p.name: data for p in sorted(base.iterdir())
                         if (data := p.read_bytes()) or not p.name.endswith(".stderr.log")}
                shutil.rmtree(temporary, ignore_errors=True)
        record["time"] = round(time.perf_counter() - start, 4)
        if temporary is not None:
            record["files"] = files
        return record

    def _play(self, game: Game, path: Path) -> dict[str, Any]:
        s = self.settings
        rules = registry.get(s.game)
        session = Session(rules, game.variant, seed=game.seed, options=game.options)
        assignment = game.assignment
        specs = {seat: s.entrants[e] for seat, e in assignment.items()}
        writer = TranscriptWriter(path, session, overwrite=True, settings={
            "as": None, "bots": specs, "json": False, "realtime": False, "bot_timeout": s.bot_timeout,
            "entrants": dict(assignment), "tournament": {"seed": s.tournament_seed, "game": game.index}},
            durable=False)  # the results line, written after the transcript is closed, is the game's record
        seated: dict[str, _Seated] = {}
        error: str | None = None  # why the machine could not start the game (no one's fault)
        names: dict[str, str] = {}
        played = False
        try:
            for seat, entrant in assignment.items():
                log = path.with_name(log_name(game.index, seat))
                try:
                    seated[seat] = self._bot(entrant, seat, session, log)
                except MachineError as exc:
                    error = exc.message
                    session.note({"seat": seat, "arena": CANNOT_START + exc.message})
                    break
                except ArbiterError as exc:  # the bot's own: it forfeits at its first input
                    seated[seat] = _Seated(_Unstarted(seat, _why_unstarted(s.entrants[entrant], exc.message)),
                                           session)
            if error is None:
                Match(Protocol(session), dict(seated), None, max_moves=s.max_moves).play()
            played = True
        finally:
            try:
                if played or not agents.stopping:  # (a failure of the referee's: what it held, to see why)
                    writer.close()
                else:  # told to stop mid-game (the run cancelled): no transcript of a game never recorded
                    writer.discard()
            except TranscriptError as exc:
                if isinstance(exc.__cause__, OSError):  # the system refused it: said as the folder's writes are
                    raise OSError(exc.__cause__.errno, exc.__cause__.strerror, str(path)) from None
                raise
            finally:
                names = self._settle(session, seated, assignment)
        return game_record(game, session, path, error, names, s.tournament_seed)

    def _settle(self, session: Session, seated: dict[str, _Seated], assignment: dict[str, str]) -> dict[str, str]:
        """After the game: tell every program that is still in it how it ended; keep it for the
        next game (``reuse``) or end it. The names the programs gave, by seat."""
        result = session.state.result
        forfeited = {e["note"]["seat"] for e in session.entries if "forfeit" in e.get("note", {})}
        names = {}
        left = dict(seated)  # (the bots not yet told, kept or closed)
        try:
            for seat, holder in seated.items():
                bot = holder.bot
                if isinstance(bot, ProcessBot):
                    if bot.name:
                        names[seat] = bot.name
                    if seat not in forfeited:
                        outcome = "none" if result is None else "won" if seat in result.winners else "lost"
                        bot.finish(outcome, result.text if result is not None else "the game did not finish")
                        if self.settings.reuse and bot.reusable:
                            self.idle[assignment[seat]].append(left.pop(seat).bot)
                            continue
                left.pop(seat)
                bot.close()
        finally:  # (a worker's stop raised while one bot was told or closed: the others are closed too)
            close_all(holder.bot for holder in left.values())
        return names

    def close(self) -> None:
        """End every idle bot process."""
        try:
            close_all(bot for pool in self.idle.values() for bot in pool)
        finally:
            self.idle.clear()


def record_from_transcript(game: Game, path: Path, settings: Settings) -> dict[str, Any]:
    """The record of ``game`` made from its transcript at ``path``, as its worker made it when
    the game ended, but for what a transcript does not hold: ``time`` is null and ``names``
    (those ``exec:`` programs gave) is empty. For a game that ended and whose record was lost
    with its run (stopped between the transcript and its line), which no run will play again
    (past an SPRT's decision). A ``TranscriptError`` saying why when the file holds no such
    game: it cannot be read or does not replay, it is not this tournament's game, or its
    game did not end (a worker that failed in it)."""
    t = read(path)
    said = t.session or {}
    got = (t.game, t.variant, t.seed, t.seats, json.loads(json.dumps(t.options)), said.get("tournament"),
           said.get("entrants"), said.get("bots"))
    # (the bots too: another tournament of the same seed and entrants' names, its games played
    # by other programs, has the same games, deals and seatings)
    wanted = (settings.game, game.variant, game.seed, list(game.seats), json.loads(json.dumps(game.options)),
              {"seed": settings.tournament_seed, "game": game.index}, dict(game.assignment),
              {seat: settings.entrants[name] for seat, name in game.assignment.items()})
    if got != wanted:
        raise TranscriptError(f"{path}: not a transcript of this tournament's game {game.index} (its header says "
                              "another game, deal, seating, bots or tournament)")
    session = replayed(t)
    notes = [e["note"]["arena"] for e in session.entries if "arena" in e.get("note", {})]
    error = notes[0].removeprefix(CANNOT_START) if notes else None
    if error is None and not session.over and len(session.moves) < settings.max_moves:
        raise TranscriptError(f"{path}: its game did not end (it stops after {counted(len(session.moves), 'move')}, "
                              "neither over nor at the tournament's --max-moves): its worker failed or was stopped in it")
    record = game_record(game, session, path, error, {}, settings.tournament_seed)
    record["time"] = None
    return record


def game_record(game: Game, session: Session, path: Path, error: str | None, names: dict[str, str],
                tournament_seed: int) -> dict[str, Any]:
    """The record (``results.jsonl``'s line, without its ``time``) of ``game``, played as
    ``session``, its transcript at ``path``."""
    rules = session.rules
    result = session.state.result
    sides = rules.seat_sides(session.state)
    assignment = game.assignment
    forfeits = []
    for entry in session.entries:
        note = entry.get("note", {})
        if "forfeit" in note:
            seat = note["seat"]
            forfeits.append({"seat": seat, "entrant": assignment[seat], "kind": forfeit_kind(note["forfeit"]),
                             "reason": note["forfeit"]})
    return {
        "game": game.index, "deal": game.deal, "rotation": game.rotation,
        "tournament_seed": tournament_seed, "seed": game.seed,
        "variant": game.variant, "options": dict(game.options),
        "seats": dict(assignment),
        "finished": result is not None,
        "result": None if result is None else {"winner": result.winner, "reason": result.reason,
                                               "text": result.text, "winners": list(result.winners)},
        "outcome": {seat: ("none" if result is None else "won" if seat in result.winners else "lost")
                    for seat in session.seats},
        "sides": {seat: side for seat, (side, _) in sides.items()},
        "roles": {seat: role for seat, (_, role) in sides.items()},
        "forfeits": forfeits,
        "names": names,
        "moves": len(session.moves),
        "error": error,
        "transcript": f"{TRANSCRIPTS}/{path.name}",
    }

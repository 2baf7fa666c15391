"""Running a session: input lines from a person, a file or a pipe, and bots for some seats.

``Match.run`` yields protocol responses (text ready to print, in order); it never prints.
A bot's move is answered like any other move, its headline naming seat and input, so the
output reads as a complete record of the game.

When bots act:

- a turn game: a bot plays whenever one of its seats is awaited; an input that leaves it
  awaited as before (talk, which answers nothing) may come ``UNANSWERED_LIMIT`` times in a row,
  and one more is a forfeit, so that no bot holds the game (and a person) by talking for ever;
- a real-time game with bots only: the bots are asked in turn; when none has anything to do,
  time passes to the end;
- a real-time game with a person: every bot gets one go after each of the person's accepted
  moves and each time the clock moves (a stamped command, or, with ``realtime``, every step of
  the wall clock), never after a look (``board``, ``legal``, ...), so looking changes nothing.

Once the game is over no bot is asked again; the remaining lines are still answered.

``Match.play`` drives the same match for a caller that reads the session, not the responses
(a tournament's worker, ``bench``): the same moves in the same order, without writing the
responses to the bots' moves and the person's lines that ``run`` would yield.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol as TypingProtocol

from arbiter.engine.bots import Bot, BotFailure, close_all
from arbiter.engine.clock import MAX_MS, seconds_name
from arbiter.engine.errors import ArbiterError, GameOverError, InputError, UnknownActionError
from arbiter.engine.events import HOST
from arbiter.engine.game import Awaiting
from arbiter.engine.lines import BadLine, Timeout, printable
from arbiter.engine.protocol import Protocol, Response
from arbiter.engine.session import Session

Line = str | BadLine

UNANSWERED_LIMIT = 20
"""How many inputs in a row a bot may send in a turn game while it stays awaited as it was (and
nobody else moves): talk (``say``), which answers nothing. The built-in bots talk at most once
a phase; a bot that talks on and on would hold the game for ever, other seats and a person
included. One more is a forfeit (a breach of the protocol)."""


class LineSource(TypingProtocol):
    def read_line(self, timeout: float | None) -> Line | Timeout | None:
        """The next line, ``TIMEOUT`` if none came within ``timeout`` seconds, None at the end."""


class _Lines:
    """A plain iterable of lines as a ``LineSource`` (it never times out)."""

    def __init__(self, lines: Iterable[Line]) -> None:
        self._it = iter(lines)

    def read_line(self, timeout: float | None) -> Line | None:
        return next(self._it, None)


class Match:
    """One session driven to its end (or to the end of its input).

    ``lines``: the person's input (a ``engine.lines.LineReader``, any iterable of lines, or
    None when bots play every seat). ``realtime``: stamp the person's lines with the wall clock
    (``clock`` gives seconds, ``time.monotonic`` by default), let the bots act as it runs, and
    announce the end the moment the sand runs out."""

    def __init__(
        self, protocol: Protocol, bots: dict[str, Bot], lines: LineSource | Iterable[Line] | None, *,
        max_moves: int | None = None, realtime: bool = False, clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.protocol = protocol
        self.session = protocol.session
        self.bots = dict(bots)
        self.lines: LineSource | None = None
        if lines is not None:
            self.lines = lines if hasattr(lines, "read_line") else _Lines(lines)  # type: ignore[arg-type]
        self.max_moves = max_moves
        self._counted_to = self._seen_moves = 0  # (``moves_seen``, counted as the moves come)
        self.stopped = False
        self.realtime = realtime and self.session.state.realtime
        self._clock = clock
        self._wall0 = clock()
        self._clock0 = self.session.clock_ms
        self._last: str | None = None
        self._round_due = True  # real time with a person: the bots' next go
        self._unanswered: tuple[str | None, int, int, str | None] = (None, 0, -1, None)
        """A turn game: (the seat last asked, inputs in a row that left it awaited, the moves then,
        what it was awaited for)."""
        self._echo = True  # write the responses (run); False: play
        self._bots_only = set(bots) == set(self.session.seats)
        """Every seat is a bot's: once the lines end (``--moves`` a file of looks), they play on."""

    # -- time -----------------------------------------------------------------------------------
    def _wall_ms(self) -> int:
        """The wall clock on the game's clock: where the game stood when the match began, plus
        the time since; never before the game's clock."""
        return max(self.session.clock_ms, self._clock0 + round((self._clock() - self._wall0) * 1000))

    def _bot_time(self) -> int:
        """When a bot's input asked for now would land."""
        return self._wall_ms() if self.realtime else self.session.clock_ms + self.session.state.clock_step_ms

    def _turn_time(self) -> int | None:
        """The time of an input the referee plays for a bot in a turn game (its move, its seat's
        forfeit): the clock plus the game's step, as an unstamped line's (None), but at the
        clock's last moment once a person's stamp has put the clock there: the bot did not move
        the clock, and it is not to blame that one more step would pass its end."""
        if self.session.clock_ms + self.session.state.clock_step_ms > MAX_MS:
            return MAX_MS
        return None

    def _timeout(self) -> float | None:
        """How long to wait for the person's next line: until the sand runs out or the bots'
        next go, with the wall clock; else as long as it takes."""
        state = self.session.state
        if not self.realtime or self.session.over:
            return None
        now = self._wall_ms()
        waits = [] if state.next_deadline() is None else [state.next_deadline() - now]  # type: ignore[operator]
        if self.bots:
            waits.append(state.clock_step_ms)
        return max(0, min(waits)) / 1000 if waits else None

    def _stamped(self, line: Line) -> Line:
        if not self.realtime or isinstance(line, BadLine):
            return line
        text = line.strip()
        if not text or text.startswith(("#", "@")):
            return line
        return f"@{seconds_name(self._wall_ms())} {text}"

    def _time_passes(self, at: int) -> Iterator[str]:
        """Let time pass to each moment before ``at`` when time alone changes the game (the sand
        runs out, a vote closes), each recorded as a tick then; yields the framed changes."""
        state = self.session.state
        while not self.session.over and state.changes_by_time(at):
            deadline = state.next_deadline()
            assert deadline is not None
            yield self.protocol.render(self.protocol.wait(max(deadline, self.session.clock_ms)))

    def _keep_time(self) -> None:
        """A ``--realtime`` session left as the person thinks (the input ended: Ctrl-D; Ctrl-C):
        the wall clock's moment is recorded, as a ``quit`` typed then is, so that a resumed game
        goes on from it: the sand that ran meanwhile was given back to a game left so."""
        if self.realtime and not self.session.over:
            try:
                self.session.advance_to(self._wall_ms())
            except ArbiterError:  # (the clock's end)
                pass

    # -- bots -----------------------------------------------------------------------------------
    def _bot_move(self, seat: str, *, realtime: bool) -> tuple[bool, str | None]:
        """Ask ``seat``'s bot for an input and play it: (acted, framed answer). The answer is
        None when the session may not know of the move at all (a secret input that caused
        nothing it may see: a night conference, say)."""
        bot = self.bots[seat]
        text = None
        try:
            text = bot.choose(self.session)
            if text is None:
                if realtime:
                    return False, None  # nothing to do now
                raise BotFailure("the bot had no input to give")
            at = self._bot_time()
            passed = "".join(self._time_passes(at)) if realtime else ""
            if passed:  # time changed the game while the bot thought (the sand, a vote): its input,
                return True, passed  # chosen for the game as it was, comes too late; it is asked again
            at_ms = at if self.realtime else self._turn_time()
            if not self._echo:  # what protocol.move does but its response: the move itself
                self.session.submit(seat, text, at_ms)
                self._last = seat
                return True, None
            response = self.protocol.move(seat, text, at_ms, referee=True)
        except BotFailure as exc:
            return True, self._forfeit(seat, str(exc))
        except GameOverError:
            return True, None
        except InputError as exc:
            why = f"illegal input {_short(text)}: {exc.kind}: {_short(exc.message, 300, quoted=False)}"
            other = _seat_named_first(text, self.session.seats) if isinstance(exc, UnknownActionError) else None
            if other is not None and other != seat:
                why += f" (the answer starts with the seat {other}: a bot answers for its own seat, {seat}, only)"
            explain = getattr(bot, "explained", None)  # (a process's, or the arena's seat holding one)
            return True, self._forfeit(seat, explain(why) if explain is not None else why)
        self._last = seat
        if response.payload["seat"] is None and not response.payload["events"]:
            return True, None
        return True, self.protocol.render(response)

    def _forfeit(self, seat: str, why: str) -> str:
        """A bot failed: record why and give its seat up (the game's forfeit input). A game
        without one goes on with the seat idle when it runs in real time; a turn game cannot
        wait for the seat, so the session ends. The transcript's note says why, whole; the
        response says it to the host's session and the seat's own only: the engine's refusal of
        a secret input, or even that the seat was asked at night, would tell another seat what
        it may not know (a Civilian once learned who was Mafia from a Mafia bot's refused kill)."""
        why = printable(why)  # an agent's exception may hold a newline: the response is protocol lines
        self.session.note({"seat": seat, "forfeit": why})
        self.bots.pop(seat).close()
        give_up = self.session.rules.forfeit_input(seat)
        refused = None
        if give_up is not None:
            try:
                response = self.protocol.move(seat, give_up, self._turn_time(), referee=True)
            except InputError as exc:
                refused = exc
            else:
                return self.protocol.render(with_forfeit(response, self.protocol.perspective, seat, why))
        if not self.session.state.realtime:
            self.protocol.done = True
        return self.protocol.render(bot_failed(self.session, self.protocol.perspective, seat, why, refused))

    def _unanswered_inputs(self, awaited: Awaiting) -> str | None:
        """Before a turn game asks a bot: count the inputs in a row its seat sent that left it
        awaited as it was (``awaited`` again, the last move its own, nobody else's since); past
        ``UNANSWERED_LIMIT``, the bot forfeits (the framed response), else None. (Counted with
        the ``awaiting`` the loop asks anyway: a tournament game pays nothing more.)"""
        moves = self.session.moves
        seat, count, then, kind = self._unanswered
        if (seat, kind, then + 1) == (awaited.seat, awaited.kind, len(moves)) and moves[-1].seat == seat:
            count += 1
        else:
            count = 0
        self._unanswered = (awaited.seat, count, len(moves), awaited.kind)
        if count <= UNANSWERED_LIMIT:
            return None
        self._unanswered = (None, 0, -1, None)
        return self._forfeit(awaited.seat, f"the bot sent {count} inputs in a row that answer nothing (its go: "
                                           f"{awaited.kind}; talk answers nothing, and a bot may send at most "
                                           f"{UNANSWERED_LIMIT} such in a row)")

    def _bot_seats(self) -> list[str]:
        return [s for s in self.session.seats if s in self.bots]

    def _bots_act(self) -> Iterator[str]:
        """Let the bots act as the game allows now; yields their framed answers. Sets
        ``self._acted`` when some bot (or time) did something, so the loop asks again."""
        self._acted = False
        state = self.session.state
        if not state.realtime:
            awaited = next((a for a in state.awaiting() if a.seat in self.bots), None)
            if awaited is not None:
                self._acted = True
                if (out := self._unanswered_inputs(awaited)) is None:
                    _, out = self._bot_move(awaited.seat, realtime=False)
                if out is not None:
                    yield out
            return
        if self.lines is not None:  # a person plays too: one go each, when it is due
            if not self._round_due:
                return
            self._round_due = False
            seats = self._bot_seats()
        else:  # bots only: in turn from the one after the last to act; the first with an input plays
            seats = self._bot_seats()
            start = (seats.index(self._last) + 1) % len(seats) if self._last in seats else 0
            seats = seats[start:] + seats[:start]
        for seat in seats:
            if self.session.over or self.protocol.done:
                return
            if seat not in self.bots:  # forfeited during this round
                continue
            passed = list(self._time_passes(self._bot_time()))
            if passed:  # time changes the game before a bot's input could land (the sand, a vote)
                self._acted = True
                self._round_due = True  # the clock moved: every bot's go is due again, this one's too
                yield from passed
                return
            acted, out = self._bot_move(seat, realtime=True)
            if out is not None:
                yield out
            if acted and self.lines is None:
                self._acted = True
                return

    # -- the loop -------------------------------------------------------------------------------
    def play(self) -> None:
        """Drive the match as ``run`` does, for the session alone: the bots' moves are played
        without their responses (measured: 14-19% of a tournament game's time in its worker,
        for responses nobody reads there), the person's lines answered without writing the
        answers. The rare responses to time passing and to a bot's forfeit are made as ``run``
        makes them, and dropped."""
        self._echo = False
        try:
            for _ in self.run():
                pass
        finally:
            self._echo = True

    def moves_seen(self) -> int:
        """The moves this session has been shown (``--max-moves`` counts these): every move for
        the host, a seat's own and the public ones for a seat, so that where a seat's session
        stops says nothing of the secret inputs (a night's) it was not shown."""
        moves, seat = self.session.moves, self.protocol.perspective
        if seat == HOST:
            return len(moves)
        for move in moves[self._counted_to:]:
            self._seen_moves += move.shown_to(seat)
        self._counted_to = len(moves)
        return self._seen_moves

    def run(self) -> Iterator[str]:
        try:
            while not self.protocol.done:
                if self.max_moves is not None and self.moves_seen() >= self.max_moves and not self.session.over:
                    self.stopped = True
                    break
                if not self.session.over and self.bots:
                    yield from self._bots_act()
                    if self._acted:
                        continue
                if self.lines is None:
                    deadline = self.session.state.next_deadline()
                    if self.session.over or not (self.bots or self._bots_only) or deadline is None:
                        break
                    # every seat is a bot's (or was: a failed one's seat is idle) and none has anything
                    # to do: time passes to the end
                    yield self.protocol.render(self.protocol.wait(max(deadline, self.session.clock_ms)))
                    continue
                try:
                    line = self.lines.read_line(self._timeout())
                except KeyboardInterrupt:
                    self._keep_time()
                    raise
                if line is None:
                    if self._bots_only and not self.session.over:  # (a real-time game's bots went one go a line)
                        self.lines = None
                        continue
                    self._keep_time()
                    break
                if isinstance(line, Timeout):
                    yield from self._time_passes(self._wall_ms())  # e.g. the sand ran out while nobody typed
                    self._round_due = True  # the clock moved on: the bots' next go
                    continue
                line = self._stamped(line)
                at = self.protocol.time_of(line)
                while at is not None:  # what time does before the line's moment is shown first
                    yield from self._time_passes(at)
                    # (an unstamped move's moment is a step after the clock, which may have moved)
                    at, was = self.protocol.time_of(line), at
                    if at == was:
                        break
                before = (len(self.session.moves), self.session.clock_ms)
                if self._echo:
                    out = self.protocol.handle(line)
                    if out is not None:
                        yield out
                else:
                    self.protocol.respond(line)
                if (len(self.session.moves), self.session.clock_ms) != before:
                    self._round_due = True
        finally:
            try:
                close_all(self.bots.values())  # (every one, whatever stops the game while one is closed)
            finally:
                self.bots.clear()


UNSAID = "its bot failed"
"""The reason of another seat's forfeit, as a seat's own session is told it (``Match._forfeit``)."""


def with_forfeit(response: Response, perspective: str, seat: str, why: str) -> Response:
    """The response to ``seat``'s give-up input after its bot failed, as ``perspective`` is
    told it: first the ``forfeit:`` line (JSON ``forfeit``), the reason whole to the host and
    the seat, ``UNSAID`` to another seat (``Match._forfeit``)."""
    why = why if perspective in (HOST, seat) else UNSAID
    response.body.insert(0, f"forfeit: {seat}: {why}")
    response.payload["forfeit"] = {"seat": seat, "reason": why}
    return response


def bot_failed(session: Session, perspective: str, seat: str, why: str, refused: InputError | None) -> Response:
    """What ``perspective`` is told when ``seat``'s bot failed and its seat could not give up
    (the game has no give-up input, or ``refused`` it): a real-time game goes on with the seat
    idle; a turn game, which cannot wait for it, ends the session."""
    failed = f"{seat}'s bot failed" + (f" ({why})" if perspective in (HOST, seat) and why != UNSAID else "")
    if session.state.realtime:
        message = f"{failed}; the seat is idle from now on"
    else:
        ended = ("this game has no forfeit" if refused is None else
                 f"its seat's forfeit ({session.rules.forfeit_input(seat)}) was refused ({refused.kind})")
        message = f"{failed}; {ended}, so the session ends"
    return Response(False, f"bot: {message}", [], {"error": {"kind": "bot", "message": message, "allowed": []}})


def _seat_named_first(text: str | None, seats: Iterable[str]) -> str | None:
    """The seat whose name ``text`` starts with (in any case), if any: a bot that wrote a full
    line for another seat is told so, not only that its first word is no action."""
    first = text.split(maxsplit=1)[0].lower() if text and text.strip() else None
    return next((s for s in seats if s.lower() == first), None)


def _short(text: str | None, limit: int = 200, quoted: bool = True) -> str:
    """A bot's input quoted for a note, cut to ``limit`` characters; or (not ``quoted``) the
    game's refusal of it, which may quote a word of it whole, cut so."""
    if text is None:
        return "None"
    if len(text) <= limit:
        return repr(text) if quoted else text
    if not quoted:
        return text[:limit] + f"... ({len(text)} characters)"
    return repr(text[:limit]) + f"... ({len(text.encode('utf-8', 'replace'))} bytes)"

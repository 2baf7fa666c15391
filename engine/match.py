"""Running a session: input lines from a person, a file or a pipe, and bots for some seats.

``Match.run`` yields protocol responses (text ready to print, in order); it never prints.
A bot's move is answered like any other move, its headline naming seat and input, so the
output reads as a complete record of the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.bots import Bot, BotFailure
from engine.errors import InputError
from engine.protocol import Protocol, Response


class Match:
    def __init__(
        self, protocol: Protocol, bots: dict[str, Bot], lines: Iterable[str] | None, *, max_moves: int | None = None
    ) -> None:
        self.protocol = protocol
        self.session = protocol.session
        self.bots = dict(bots)
        self.lines = iter(lines) if lines is not None else None
        self.max_moves = max_moves
        self.stopped = False
        self._last: str | None = None
        self._round_due = True  # real time with a person: the bots' one go before the next line

    def _realtime_bots(self, only: str | None = None) -> tuple[bool, str | None]:
        """A real-time game: ask the bots in turn (or just ``only``), from the one after the
        last to act; the first with an input plays it. (acted, framed answer); acted is False
        when every bot asked had nothing to do."""
        seats = [s for s in self.session.seats if s in self.bots]
        if only is not None:
            seats = [only] if only in self.bots else []
        if not seats:
            return False, None
        start = (seats.index(self._last) + 1) % len(seats) if self._last in seats else 0
        for seat in seats[start:] + seats[:start]:
            bot = self.bots[seat]
            try:
                text = bot.choose(self.session)
            except BotFailure as exc:
                return True, self._forfeit(seat, str(exc))
            if text is None:
                continue
            self._last = seat
            try:
                return True, self.protocol.render(self.protocol.move(seat, text, None, referee=True))
            except InputError as exc:
                return True, self._forfeit(seat, f"illegal input {text!r}: {exc.kind}: {exc.message}")
        return False, None

    def _bot_seat(self) -> str | None:
        for awaited in self.session.state.awaiting():
            if awaited.seat in self.bots:
                return awaited.seat
        return None

    def _bot_move(self, seat: str) -> str | None:
        """The framed answer to a bot's move; None when the session may not know of the move at
        all (a secret input that caused nothing it may see: a night conference, say)."""
        bot = self.bots[seat]
        try:
            text = bot.choose(self.session)
            if text is None:
                raise BotFailure("the bot had no input to give")
            response = self.protocol.move(seat, text, None, referee=True)
            if response.payload["seat"] is None and not response.payload["events"]:
                return None
            return self.protocol.render(response)
        except BotFailure as exc:
            return self._forfeit(seat, str(exc))
        except InputError as exc:
            return self._forfeit(seat, f"illegal input {text!r}: {exc.kind}: {exc.message}")

    def _forfeit(self, seat: str, why: str) -> str:
        self.session.note({"seat": seat, "forfeit": why})
        self.bots.pop(seat).close()
        give_up = self.session.rules.forfeit_input(seat)
        if give_up is None:
            self.protocol.done = True
            message = f"{seat}'s bot failed ({why}); this game has no forfeit, so the session ends"
            return self.protocol.render(Response(
                False, f"bot: {message}", [], {"error": {"kind": "bot", "message": message, "allowed": []}},
            ))
        response = self.protocol.move(seat, give_up, None, referee=True)
        response.body.insert(0, f"forfeit: {seat}: {why}")
        response.payload["forfeit"] = {"seat": seat, "reason": why}
        return self.protocol.render(response)

    def run(self) -> Iterator[str]:
        try:
            while not self.protocol.done:
                if self.max_moves is not None and len(self.session.moves) >= self.max_moves and not self.session.over:
                    self.stopped = True
                    break
                state = self.session.state
                if state.realtime and not self.session.over and self.bots and \
                        state.ends_by_time(self.session.clock_ms + state.clock_step_ms):
                    # the sand runs out before the bots' next input could land: record when
                    yield self.protocol.render(self.protocol.wait(max(state.next_deadline() or 0, self.session.clock_ms)))
                    continue
                if state.realtime and not self.session.over and self.lines is not None and self._round_due:
                    # a person types too: every bot gets one go per line typed, so none starves them
                    self._round_due = False
                    for seat in [s for s in self.session.seats if s in self.bots]:
                        if self.session.over or self.protocol.done:
                            break
                        acted, out = self._realtime_bots(only=seat)
                        if out is not None:
                            yield out
                    continue
                if state.realtime and not self.session.over and self.lines is None:
                    acted, out = self._realtime_bots()
                    if out is not None:
                        yield out
                    if acted:
                        continue
                    if self.lines is None:  # every seat is a bot, and none has anything to do
                        deadline = self.session.state.next_deadline()
                        if deadline is None:
                            break
                        yield self.protocol.render(self.protocol.wait(max(deadline, self.session.clock_ms)))
                        continue
                seat = None if self.session.over or self.session.state.realtime else self._bot_seat()
                if seat is not None:
                    out = self._bot_move(seat)
                    if out is not None:
                        yield out
                    continue
                if self.lines is None:
                    break
                line = next(self.lines, None)
                if line is None:
                    break
                out = self.protocol.handle(line)
                self._round_due = out is not None
                if out is not None:
                    yield out
        finally:
            for bot in self.bots.values():
                bot.close()
            self.bots.clear()

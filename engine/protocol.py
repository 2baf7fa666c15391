"""The line protocol of ``docs/protocol.md``: one command line in, one framed response out.

>>> from arbiter.engine import registry
>>> from arbiter.engine.session import Session
>>> p = Protocol(Session(registry.get("fbi-mafia"), "standard-3v3", seed=1))
>>> print(p.handle("time"), end="")
= time
time: 0
<BLANKLINE>
>>> p.handle("# a comment") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from arbiter.engine.clock import MAX_MS, parse_seconds, seconds_name
from arbiter.engine.errors import (
    ArbiterError, DeniedError, SyntaxInputError, UnknownActionError, UnknownCommandError, UnknownSeatError, quoted,
)
from arbiter.engine.events import HOST, Event
from arbiter.engine.game import SECRET_SEAT
from arbiter.engine.jsontext import compact
from arbiter.engine.lines import BadLine
from arbiter.engine.session import Session

META_COMMANDS: dict[str, str] = {
    "help": "help: this list",
    "seats": "seats: the seats of this game",
    "awaiting": "awaiting: who is awaited now, and for what",
    "legal": "legal SEAT: every input SEAT may send now (a seat's session: its own, by default)",
    "board": "board [SEAT]: the ASCII board as SEAT (or this session) sees it",
    "view": "view [SEAT]: the state as SEAT may know it",
    "events": "events [SEAT] [FROM]: SEAT's event stream from index FROM",
    "score": "score: the scores, and the result once the game is over",
    "time": "time: the virtual clock",
    "quit": "quit: end the session (an unfinished game can be resumed from its transcript)",
}
MOVE_FORM = "[@SECONDS] SEAT ACTION...: a move, the seat's name then its action (in a seat's session the seat may be left out)"


@dataclass
class Response:
    """One response: ``ok``, a headline, body lines and the JSON payload."""

    ok: bool
    headline: str
    body: list[str] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        mark = "=" if self.ok else "?"
        lines = [f"{mark} {self.headline}".rstrip()] + [line if line.strip() else "." for line in self.body]
        return "\n".join(lines) + "\n\n"

    def json(self) -> str:
        return compact({"ok": self.ok, **self.payload}) + "\n"


def error_response(exc: ArbiterError) -> Response:
    return Response(
        False,
        f"{exc.kind}: {exc.message}",
        [f"allowed: {a}" for a in exc.allowed],
        {"error": {"kind": exc.kind, "message": exc.message, "allowed": list(exc.allowed)}},
    )


def event_line(event: Event, perspective: str) -> str:
    """An event's ``event:`` line as ``perspective`` is told it. The host, who is told every
    seat's secrets, is also told whose they are: an event meant for some seats only starts
    with them, ``(to p1)``, or ``(to the host only)`` (Hidden Roles deals "Your card: ..." to
    every seat, and the host's stream had the same words once per seat, none saying whose).
    A seat's line is the event's text alone: who else was told is no business of the seat's.

    >>> from arbiter.engine.events import Event
    >>> card = Event(3, "card", "Your card: Hero.", {}, ("p2",))
    >>> event_line(card, HOST), event_line(card, "p2")
    ('event: (to p2) Your card: Hero.', 'event: Your card: Hero.')
    """
    if perspective == HOST and event.to is not None:
        return f"event: {addressee(event)} {event.text}"
    return f"event: {event.text}"


def addressee(event: Event) -> str:
    """Who an event that not everyone sees is meant for, as the host's lines say it."""
    return f"(to {' '.join(event.to)})" if event.to else "(to the host only)"


class Protocol:
    """Speaks the protocol for one session, as the host (``HOST``) or as one seat."""

    def __init__(self, session: Session, perspective: str = HOST, *, json_mode: bool = False) -> None:
        self.session = session
        self.perspective = session.check_seat(perspective)
        self.json_mode = json_mode
        self.done = False
        self.refused = 0  # lines answered with a refusal
        self._counted = 0  # events of the log examined so far ...
        self._visible_count = 0  # ... and how many of them this session may see

    # -- framing ------------------------------------------------------------------------------
    def handle(self, line: str | BadLine) -> str | None:
        """Answer one input line; None for blank lines and comments."""
        response = self.respond(line)
        return None if response is None else self.render(response)

    def render(self, response: Response) -> str:
        """A response framed for this session: one JSON line, or a text block."""
        return response.json() if self.json_mode else response.text()

    def respond(self, line: str | BadLine) -> Response | None:
        """The response to one line (a ``BadLine`` from the reader is refused as syntax)."""
        if isinstance(line, BadLine):
            self.refused += 1
            return error_response(SyntaxInputError(line.problem, [MOVE_FORM]))
        text = line.strip()  # a trailing \r\n goes with the other surrounding white space
        if not text or text.startswith("#"):
            return None
        try:
            return self._dispatch(text.split())
        except ArbiterError as exc:
            self.refused += 1
            return error_response(exc)

    def time_of(self, line: str | BadLine) -> int | None:
        """When ``line`` would happen on the game's clock: its stamp, or the clock plus the
        game's step for an unstamped move; None for an unstamped look or a line that will be
        refused for its time or its form."""
        if isinstance(line, BadLine):
            return None
        words = line.split()
        if not words or words[0].startswith("#"):
            return None
        if words[0].startswith("@"):
            try:
                at = parse_seconds(words[0][1:])
            except SyntaxInputError:
                return None
            if not self.session.clock_ms <= at <= MAX_MS or not self._dispatched_at_its_time(words[1:]):
                return None
            return at
        if self._is_move(words[0]):
            return self.session.clock_ms + self.session.state.clock_step_ms
        return None

    def _is_move(self, first: str) -> bool:
        """Whether a line beginning with ``first`` is a move (as ``_dispatch`` reads it): a seat's
        name, or in a seat's session any word that is not a meta-command (its own move)."""
        first = first.lower()
        return first in self.session.seats or (self.perspective != HOST and first not in META_COMMANDS)

    def _dispatched_at_its_time(self, words: list[str]) -> bool:
        """Whether a stamped line's command (``words``, the stamp left out) lets time pass to its
        stamp when answered: a move, or a meta-command whose words it reads (``_dispatch``
        refuses the others before time moves: no command, an unknown one, bad arguments)."""
        if not words:
            return False
        if self._is_move(words[0]):
            return True
        command = words[0].lower()
        if command not in META_COMMANDS:
            return False
        try:
            getattr(self, f"cmd_{command}")(words[1:])  # (a look: it changes nothing)
        except ArbiterError:
            return False
        return True

    # -- commands -----------------------------------------------------------------------------
    def _dispatch(self, words: list[str]) -> Response:
        time_ms = None
        if words[0].startswith("@"):
            time_ms = parse_seconds(words[0][1:])
            words = words[1:]
            if not words:
                raise SyntaxInputError("a time stamp must be followed by a command", [MOVE_FORM])
        command = words[0].lower()
        if command in self.session.seats:
            return self.move(command, " ".join(words[1:]), time_ms)
        if command not in META_COMMANDS and self.perspective != HOST:  # a seat's own move, its name left out
            try:
                return self.move(self.perspective, " ".join(words), time_ms)
            except UnknownActionError as exc:  # (the word may be a command mistyped: say those too)
                raise UnknownActionError(exc.message, [*exc.allowed, *META_COMMANDS.values()]) from None
        if command not in META_COMMANDS:
            raise UnknownCommandError(
                f"{quoted(words[0])} is neither a seat nor a command",
                [MOVE_FORM, "seats: " + " ".join(self.session.seats)] + list(META_COMMANDS.values()),
            )
        handler = getattr(self, f"cmd_{command}")
        if time_ms is None:
            response = handler(words[1:])
            self.done = self.done or command == "quit"
            return response
        handler(words[1:])  # refuses bad arguments before time moves; meta-commands change nothing
        start = len(self.session.events)
        self.session.advance_to(time_ms)
        response = handler(words[1:])
        self.done = self.done or command == "quit"
        events = self._visible(start)
        if events:  # passing time did something (the sand ran out): show it, as a move would
            status, status_payload = self._status()
            ended = status if self.session.over else []
            told = [event_line(e, self.perspective) for _, e in events]
            response.body[:0] = told + [x for x in ended if x not in response.body]
            response.payload["events"] = [self._event_dict(i, e) for i, e in events]
            response.payload.setdefault("result", status_payload["result"])
        return response

    def move(self, seat: str, text: str, time_ms: int | None, *, referee: bool = False) -> Response:
        """Apply a move; ``referee`` moves (a bot's, run by the referee) skip the seat check."""
        if not referee and self.perspective != HOST and seat != self.perspective:
            raise DeniedError(f"this session plays as {self.perspective}; it cannot move for {seat}")
        start = len(self.session.events)
        self.session.submit(seat, text, time_ms)
        move = self.session.moves[-1]
        shown: str | None = move.text
        if self.perspective not in (HOST, seat):
            shown = move.public
        mover = seat if shown is not None else None  # None: a secret input, down to who made it
        events = self._visible(start)
        status, status_payload = self._status()
        body = [event_line(e, self.perspective) for _, e in events] + status
        payload = {
            "command": "move", "seat": mover, "input": shown, "time": seconds_name(move.time_ms),
            "events": [self._event_dict(i, e) for i, e in events],
            **status_payload,
        }
        headline = f"{seat} {shown}" if shown is not None else f"{SECRET_SEAT} (a secret input)"
        return Response(True, headline, body, payload)

    def wait(self, time_ms: int) -> Response:
        """Let time pass with no input (everyone idle in a real-time game): the events it
        caused (time running out), then the status."""
        start = len(self.session.events)
        self.session.advance_to(time_ms)
        events = self._visible(start)
        status, status_payload = self._status()
        body = [event_line(e, self.perspective) for _, e in events] + status
        now = seconds_name(self.session.clock_ms)
        return Response(True, f"time {now}", body, {
            "command": "wait", "time": now, "events": [self._event_dict(i, e) for i, e in events],
            **status_payload})

    def opening(self) -> Response:
        """What a session is told before its first line: the game, the seats, this session's
        seat, every event it may see so far (its own card, say), what is awaited and, for a
        finished game, the result. JSON sessions get it as their first object."""
        s = self.session
        events = self._visible(0)
        self._counted, self._visible_count = len(s.events), len(events)
        status, status_payload = self._status()
        return Response(True, "open", [event_line(e, self.perspective) for _, e in events] + status, {
            "command": "open", "game": s.rules.name, "title": s.rules.title, "variant": s.variant.name,
            "variant_title": s.variant.title, "seat": self.perspective,
            # the seed decides every secret (the deal, the stack): a seat is told it once the game is over
            "seed": s.seed if self.perspective == HOST or s.over else None,
            "seats": list(s.seats), "time": seconds_name(s.clock_ms),
            "moves": sum(m.shown_to(self.perspective) for m in s.moves),  # a secret input's count is secret too
            "events": [self._event_dict(i, e) for i, e in events], **status_payload,
        })

    def _visible(self, start: int) -> list[tuple[int, Event]]:
        """Events from global index ``start`` on that this session may see, each with its index
        in the session's own stream. Counting is incremental: ``start`` never goes back."""
        log = self.session.events
        for i in range(self._counted, start):
            self._visible_count += log[i].visible_to(self.perspective)
        self._counted = max(self._counted, start)
        out = []
        seen = self._visible_count
        for e in log.since(start):
            if e.visible_to(self.perspective):
                out.append((seen, e))
                seen += 1
        return out

    def _event_dict(self, index: int, e: Event) -> dict[str, Any]:
        """An event as a JSON session is told it; the host's with ``to``, the seats it is
        meant for (``null``: every seat; ``[]``: the host only), as its text lines say."""
        if self.perspective == HOST:
            return {"index": index, "kind": e.kind, "text": e.text, "data": e.data,
                    "to": None if e.to is None else list(e.to)}
        return {"index": index, "kind": e.kind, "text": e.text, "data": e.data}

    def _status(self) -> tuple[list[str], dict[str, Any]]:
        """The status after a command: its text lines (the result, or what is awaited as this
        session may know it) and the same as the payload's ``awaiting`` and ``result``, from
        one reading of the state."""
        state = self.session.state
        result = state.result
        awaited = state.awaiting_seen_by(self.perspective)
        lines = ([f"result: {result.text}"] if result is not None
                 else [f"awaiting: {a.seat} {a.kind}: {a.hint}" for a in awaited])
        return lines, {"awaiting": [a.as_dict() for a in awaited], "result": result.as_dict() if result else None}

    def _seat_arg(self, args: list[str], command: str, *, required: bool = False, host: bool = True) -> str:
        """The seat a meta-command names (none: this session's); an unknown one is refused with
        the seats this session may name for it: its own in a seat's session, every seat (and the
        host, where ``host``: the host does not play, so has no ``legal``) in the host's."""
        if len(args) > 1:
            raise SyntaxInputError(f"{command} takes at most one seat", [META_COMMANDS[command]])
        if not args:
            if required:
                raise SyntaxInputError(f"{command} needs a seat", [META_COMMANDS[command]])
            return self.perspective
        seat = args[0].lower()
        if seat != HOST and seat not in self.session.seats:
            allowed = ([self.perspective] if self.perspective != HOST else
                       list(self.session.seats) + ([HOST] if host else []))
            raise UnknownSeatError(f"no seat {quoted(args[0])} in this game", allowed)
        if self.perspective != HOST and seat != self.perspective:
            raise DeniedError(f"this session plays as {self.perspective}; {seat}'s {command} is not yours to see")
        return seat

    @staticmethod
    def _no_args(args: list[str], command: str) -> None:
        """Refuse words after a meta-command that takes none (``quit please`` once quit)."""
        if args:
            raise SyntaxInputError(f"{command} takes no arguments, not {quoted(' '.join(args))}",
                                   [META_COMMANDS[command]])

    def cmd_help(self, args: list[str]) -> Response:
        self._no_args(args, "help")
        lines = [f"command: {v}" for v in META_COMMANDS.values()] + [f"command: {MOVE_FORM}"]
        return Response(True, "help", lines, {"command": "help", "commands": list(META_COMMANDS.values()) + [MOVE_FORM]})

    def cmd_seats(self, args: list[str]) -> Response:
        self._no_args(args, "seats")
        seats = list(self.session.seats)
        return Response(True, "seats", [f"seat: {s}" for s in seats], {"command": "seats", "seats": seats})

    def cmd_awaiting(self, args: list[str]) -> Response:
        self._no_args(args, "awaiting")
        status, status_payload = self._status()
        return Response(True, "awaiting", status, {"command": "awaiting", **status_payload})

    def cmd_legal(self, args: list[str]) -> Response:
        seat = self._seat_arg(args, "legal", required=self.perspective == HOST, host=False)
        if seat == HOST:
            raise UnknownSeatError("the host does not play; name a seat", list(self.session.seats))
        choices = self.session.choices(seat)
        return Response(True, f"legal {seat}", choices.lines(),
                        {"command": "legal", "seat": seat, **choices.as_dict()})

    def cmd_board(self, args: list[str]) -> Response:
        seat = self._seat_arg(args, "board")
        board = self.session.render(seat)
        return Response(True, "board", board.splitlines(), {"command": "board", "seat": seat, "board": board})

    def cmd_view(self, args: list[str]) -> Response:
        seat = self._seat_arg(args, "view")
        view = self.session.state.view(seat)
        lines = [f"{k}: {_value_text(v)}" for k, v in view.items()]
        return Response(True, f"view {seat}", lines, {"command": "view", "seat": seat, "view": view})

    def cmd_events(self, args: list[str]) -> Response:
        start = 0
        if args and re.fullmatch(r"[0-9]{1,9}", args[-1]):
            start = int(args[-1])
            args = args[:-1]
        elif len(args) == 2 or (args and re.fullmatch(r"[-+]?[0-9][0-9.,_]*", args[-1])):
            raise SyntaxInputError(f"events FROM is an index from 0 of at most 9 digits, not {quoted(args[-1])}",
                                   [META_COMMANDS["events"]])
        seat = self._seat_arg(args, "events")
        stream = self.session.events.visible_to(seat)
        chosen = list(enumerate(stream))[start:]
        return Response(
            True, f"events {seat} {start}", [event_line(e, self.perspective) for _, e in chosen],
            {"command": "events", "seat": seat, "events": [self._event_dict(i, e) for i, e in chosen]},
        )

    def cmd_score(self, args: list[str]) -> Response:
        self._no_args(args, "score")
        score = self.session.state.score()
        lines = [f"{k}: {_value_text(v)}" for k, v in score.items()]
        result = self.session.state.result
        if result is not None:
            lines.append(f"result: {result.text}")
        return Response(True, "score", lines,
                        {"command": "score", "score": score, "result": result.as_dict() if result else None})

    def cmd_time(self, args: list[str]) -> Response:
        self._no_args(args, "time")
        now = seconds_name(self.session.clock_ms)
        return Response(True, "time", [f"time: {now}"], {"command": "time", "time": now})

    def cmd_quit(self, args: list[str]) -> Response:
        """Its answer only: ``_dispatch`` ends the session (``done``) once it is given, so that
        checking a stamped ``@T quit`` before its time (``time_of``) ends nothing."""
        self._no_args(args, "quit")
        return Response(True, "bye", [], {"command": "quit"})


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) if value else "-"
    return compact(value)

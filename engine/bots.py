"""Bots the referee runs: the built-in random bot and external programs (``exec:COMMAND``).

An external bot speaks the seat's side of the protocol (``docs/protocol.md``): it reads
``event:`` and ``legal:`` lines and a ``go SEAT KIND`` line, and answers with one input line.
Timeouts, crashes and unreadable answers raise ``BotFailure``; the referee records them as a
forfeit and never hangs or crashes.
"""

from __future__ import annotations

import queue
import random
import shlex
import subprocess
import threading
from typing import Protocol as TypingProtocol

from engine.errors import ArbiterError
from engine.session import Session


class BotFailure(Exception):
    """A bot did not produce a usable input: timeout, crash, closed output, unreadable line."""


class Bot(TypingProtocol):
    seat: str

    def choose(self, session: Session) -> str | None:
        """The input words (without the seat) for the bot's seat, or None to pass."""

    def close(self) -> None:
        """Release whatever the bot holds."""


class RandomBot:
    """A built-in bot of the game (``random`` by default; see ``Rules.bot_kinds``), with its own
    generator seeded from the game's seed and the seat, so bot games are reproducible."""

    def __init__(self, seat: str, seed: int, kind: str = "random") -> None:
        self.seat = seat
        self.kind = kind
        self.rng = random.Random(f"arbiter-{kind}-bot:{seed}:{seat}" if kind != "random"
                                 else f"arbiter-random-bot:{seed}:{seat}")

    def choose(self, session: Session) -> str | None:
        return session.rules.bot_input(self.kind, session.state, self.seat, self.rng)

    def close(self) -> None:
        pass


class ProcessBot:
    """An external program playing one seat over stdin/stdout."""

    def __init__(self, seat: str, command: str, timeout: float) -> None:
        self.seat = seat
        self.command = command
        self.timeout = timeout
        self._told = 0
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._outbox: queue.Queue[str | None] = queue.Queue()
        self._broken = False
        self._closed = False
        try:
            self.proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, encoding="utf-8", bufsize=1,
            )
        except (OSError, ValueError) as exc:
            raise ArbiterError(f"cannot start bot for {seat}: {command!r}: {exc}") from None
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._post, daemon=True).start()

    def _post(self) -> None:
        """Write to the bot from a thread of its own: a bot that stops reading fills its pipe,
        and then only this thread waits, never the referee."""
        assert self.proc.stdin is not None
        while (text := self._outbox.get()) is not None:
            try:
                self.proc.stdin.write(text)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                self._broken = True
                return
        try:
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _status(self) -> str:
        try:
            return f"exit status {self.proc.wait(timeout=0.5)}"
        except subprocess.TimeoutExpired:
            return "still running"

    def _send(self, lines: list[str]) -> None:
        if self._broken:
            raise BotFailure(f"the bot stopped reading its input ({self._status()})")
        self._outbox.put("".join(line + "\n" for line in lines))

    def choose(self, session: Session) -> str | None:
        stream = session.events.visible_to(self.seat)
        news = [f"event: {e.text}" for e in stream[self._told :]]
        self._told = len(stream)
        awaited = [a for a in session.state.awaiting() if a.seat == self.seat]
        kind = awaited[0].kind if awaited else "any"
        legal = [f"legal: {m}" for m in session.state.legal_inputs(self.seat)]
        self._send(news + legal + [f"go {self.seat} {kind}"])
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise BotFailure(f"no answer within {self.timeout:g} s") from None
        if line is None:
            raise BotFailure(f"the bot closed its output ({self._status()})")
        words = line.replace("\r", "").split()
        if not words:
            raise BotFailure("the bot sent an empty line")
        if words == ["wait"] and session.state.realtime:
            return None  # a real-time game: nothing to do now
        if words[0].lower() == self.seat:
            words = words[1:]
        return " ".join(words)

    def close(self) -> None:
        """Ask the bot to end (its input closes), then kill it if it lingers. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._outbox.put(None)
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass


def make_bot(spec: str, seat: str, seed: int, timeout: float, kinds: tuple[str, ...] = ("random",)) -> Bot:
    """A bot from its command-line spec: a built-in kind of the game (``kinds``: random, ...)
    or ``exec:COMMAND``."""
    if spec in kinds:
        return RandomBot(seat, seed, spec)
    if spec.startswith("exec:") and spec[5:].strip():
        return ProcessBot(seat, spec[5:].strip(), timeout)
    raise ArbiterError(f"unknown bot {spec!r} for {seat}: use {' or '.join(kinds)} or exec:COMMAND")

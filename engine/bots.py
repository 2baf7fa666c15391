"""Bots the referee runs, as one interface (``Bot``): the game's built-in bots (``RandomBot``),
external programs (``exec:COMMAND``, ``engine.programs``) and in-process agents
(``py:MODULE:CLASS``, ``engine.agents``); ``make_bot`` makes one from its command-line spec.

A bot that does not produce a usable input raises ``BotFailure``, which the referee records as
a forfeit; a bot the machine kept from starting raises ``MachineError``.
"""

from __future__ import annotations

import errno
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from typing import Protocol as TypingProtocol

from arbiter.engine.errors import COMMAND_CHARS, ArbiterError, quoted
from arbiter.engine.session import Session

STDERR_TAIL = "; its stderr ends: "
"""What joins a failure's reason and the last lines the bot wrote to stderr (its own words)."""


class BotFailure(Exception):
    """A bot did not produce a usable input: timeout, crash, closed output, unreadable line."""


class MachineError(ArbiterError):
    """The machine, not the bot, kept a bot from starting: its log cannot be opened, or the
    system refused a new process for want of files, memory or processes (``MACHINE_ERRNOS``).
    A tournament counts such a game for no one; a bot that cannot start for a reason of its own
    (no such program) loses it (``engine.arena.runner``)."""


MACHINE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN})
"""The system's refusals of a new process that say nothing of the program asked for."""


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
        self.rng = random.Random(f"arbiter-{kind}-bot:{seed}:{seat}")
        self._mover: Callable[[Any, str, random.Random], object | None] | None = None
        self._mover_of: object = None  # the rules whose bot_mover(kind) _mover is

    def choose(self, session: Session) -> str | None:
        return session.rules.bot_input(self.kind, session.state, self.seat, self.rng)

    def choose_move(self, session: Session) -> object | None:
        """``choose`` as the game's move value, for ``Session.submit_move`` (``Rules.bot_move``,
        through the function ``Rules.bot_mover`` gives for this bot's kind, asked once per rules)."""
        rules = session.rules
        if rules is not self._mover_of:
            self._mover, self._mover_of = rules.bot_mover(self.kind), rules
        return self._mover(session.state, self.seat, self.rng)  # type: ignore[misc]

    def close(self) -> None:
        pass


def close_all(bots: Iterable[Bot]) -> None:
    """Close every one of ``bots``, even when closing one is interrupted (a worker's stop, a
    Ctrl-C, raised while a bot slow to exit is waited for): the loop once ended there, and the
    next bots were never closed, so a child of theirs that had left their process group outlived
    the run. The first exception goes on once every bot is closed."""
    first: BaseException | None = None
    for bot in list(bots):
        try:
            bot.close()
        except BaseException as exc:  # noqa: BLE001 - raised again below, once the others are closed
            first = first or exc
    if first is not None:
        raise first


def make_bot(spec: str, seat: str, seed: int, timeout: float, kinds: tuple[str, ...] = ("random",),
             *, log: Path | None = None) -> Bot:
    """A bot from its command-line spec: a built-in kind of the game (``kinds``: random, ...),
    ``exec:COMMAND`` (a program; ``log``: where its stderr goes, see ``ProcessBot``) or
    ``py:MODULE:CLASS`` (an in-process agent, see ``engine.agents``); ``timeout``: the seconds
    a program or an agent has to answer."""
    if spec in kinds:
        return RandomBot(seat, seed, spec)
    if spec.startswith("exec:") and spec[5:].strip():
        from arbiter.engine.programs import ProcessBot  # (its machinery is loaded when a program plays)

        return ProcessBot(seat, spec[5:].strip(), timeout, log=log)
    if spec.startswith("py:"):
        from arbiter.engine.agents import AgentBot, load_agent

        return AgentBot(seat, load_agent(spec[3:].strip()), spec[3:].strip(), timeout)
    raise ArbiterError(f"unknown bot {quoted(spec, COMMAND_CHARS)} for {seat}: use {', '.join(kinds)}, exec:COMMAND or py:MODULE:CLASS")

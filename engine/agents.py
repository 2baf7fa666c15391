"""In-process bots: a Python class plays a seat with no process and no protocol in between.

An agent is any object with ``act(observation, legal)``: given the text of what its seat has
learned since it last acted (``observation``, what a language-model agent is shown) and the
inputs it may send now (``legal``: the ``Choices`` of the seat, see ``engine.session``), it
returns one input, or None when it has nothing to do (real-time games only). It may also have
``new_game(info)`` (called once, with the game, variant, seat, seats, a seed for its own
choices, ``agent_seed``, and the game's public settings, ``options`` and ``deck``: what an
``exec:`` bot's ``option:`` and ``deck:`` lines tell) and ``close()``.

An agent is trusted code: it runs in the referee's process, with the referee's rights, and
nothing keeps it to its seat's view but its own good manners. It can reach the session (the
game's seed, every card, the other seats' hands) through the interpreter (``gc``, frames), and
from its own seed work back to the game's (``agent_seed``). Play only agents you would let
read the whole game; a bot you do not trust plays as an ``exec:`` program, sandboxed (another
user, no access to the transcript or the referee's command line), in a game with a secret seed.

>>> class First:
...     def act(self, observation, legal):
...         return legal.legal[0]
>>> from arbiter.engine import registry
>>> from arbiter.engine.session import Session
>>> s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
>>> bot = AgentBot("mafia", First())
>>> bot.choose(s)
'shift row 1 left'

On the command line an agent is ``--bot SEAT=py:MODULE:CLASS`` (``MODULE`` importable from the
current folder or the path, ``CLASS`` made with no arguments). There, as in a tournament, it has
the time an ``exec:`` bot has to answer (``--bot-timeout``): an agent still in its ``act``,
``new_game`` or ``close`` when the time is up has ``engine.deadline.TimeUp`` raised in its code,
and its seat forfeits (``AgentBot``'s ``timeout``).
"""

from __future__ import annotations

import hashlib
import importlib
import io
import signal
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Protocol

from arbiter.engine import deadline
from arbiter.engine.bots import BotFailure
from arbiter.engine.errors import COMMAND_CHARS, ArbiterError, quoted
from arbiter.engine.lines import printable
from arbiter.engine.session import Choices, Session, bot_timeout_seconds


class Agent(Protocol):
    def act(self, observation: str, legal: Choices) -> str | None:
        """One input for the seat (words without the seat's name), or None: nothing now."""


def observation(session: Session, seat: str) -> str:
    """What ``seat`` has learned in the whole game (``news`` from the start): a ``move:`` line for
    each other seat's input it may know of and an ``event:`` line for each event it may see, in
    the order they happened, then what is awaited as it may know it (or the result). It holds
    nothing the seat may not know.

    >>> from arbiter.engine import registry
    >>> s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    >>> observation(s, "fbi").splitlines()[-1]
    'awaiting: mafia action: bandit: shift or kill, masquerade'
    """
    return news(session, seat)[0]


def news(session: Session, seat: str, since: tuple[int, int, int] = (0, 0, 0)) -> tuple[str, tuple[int, int, int]]:
    """What ``seat`` has learned since ``since`` (``Session.told``: where the last news ended),
    as ``observation`` says it; and where to start next time: a bot or a loop asking at every
    turn is told each move and event once.

    >>> from arbiter.engine import registry
    >>> s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    >>> _, since = news(s, "fbi")
    >>> _ = s.submit("mafia", "shift row 1 left")
    >>> print(news(s, "fbi", since)[0])
    move: mafia shift row 1 left
    event: The bandit shifts: shift row 1 left.
    event: Turn 2: the undercover (fbi) acts.
    awaiting: fbi action: undercover: shift or arrest, defuse, masquerade, autopsy
    """
    lines, since = session.told(seat, since)
    result = session.state.result
    if result is not None:
        lines.append(f"result: {result.text}")
    else:  # (after the game's clock, told's last line in a real-time game)
        lines += [f"awaiting: {a.seat} {a.kind}: {a.hint}" for a in session.state.awaiting_seen_by(seat)]
    return "\n".join(lines), since


def agent_seed(game_seed: int, seat: str) -> int:
    """A seed for an agent's own choices: a whole number below 2**63 derived from the game's
    seed and the seat (SHA-256), so the same game gives the agent the same seed, and each seat
    its own, whatever else runs in the process.

    It hides nothing: being a function of the game's seed, it gives that seed away to whoever
    tries the seeds a game may have (a seed typed on a command line at once; a seed left out is
    drawn from 2**53, ``session.CHOSEN_SEEDS``, too many to try) and so every card and the order
    of every stack. Any derivation
    that keeps a game the same from the same seed could be so undone; and an agent, which runs
    in the referee's process, need not even try (the module's text).

    >>> agent_seed(1, "p1") == agent_seed(1, "p1") != agent_seed(1, "p2")
    True
    >>> next(seed for seed in range(10_000) if agent_seed(seed, "p1") == agent_seed(4321, "p1"))
    4321
    """
    return int.from_bytes(hashlib.sha256(f"arbiter-agent:{game_seed}:{seat}".encode()).digest()[:8], "big") >> 1


class _Stderr(io.TextIOBase):
    """Where an agent's prints go: the referee's stderr, as it is at each write. A stderr that
    refuses them (``2>/dev/full``, a full disk, a closed pipe) is the referee's affair, not the
    agent's exception: its words are lost and it plays on."""

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(sys.stderr, "encoding", None) or "utf-8"

    def isatty(self) -> bool:
        try:
            return bool(sys.stderr.isatty())
        except (AttributeError, OSError, ValueError):
            return False

    def fileno(self) -> int:
        return sys.stderr.fileno()  # (what it raises for a stderr without one, as the stream itself would)

    def write(self, text: str) -> int:
        try:
            sys.stderr.write(text)
        except (AttributeError, OSError, ValueError):  # (None, refused, closed)
            pass
        return len(text)

    def flush(self) -> None:
        try:
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            pass


_STDERR = _Stderr()


def agent_info(session: Session, seat: str) -> dict[str, Any]:
    """What an agent's ``new_game(info)`` is given for ``seat`` of ``session``: the game, its
    mode, the seat, the seats, a seed for its own choices (``agent_seed``) and the game's public
    settings, ``options`` and ``deck`` (what an ``exec:`` bot's ``option:`` and ``deck:`` lines
    tell, ``Session.settings``)."""
    rules, state = session.rules, session.state
    return {"game": rules.name, "variant": session.variant.name, "seat": seat, "seed": agent_seed(session.seed, seat),
            "seats": list(session.seats), "options": dict(rules.public_options(state)),
            "deck": dict(rules.public_deck(state))}


def _seconds(timeout: object) -> float | None:
    """``AgentBot``'s ``timeout``: None, or seconds as ``bot_timeout_seconds`` takes them (as
    ``--bot-timeout`` does), as a float; else a ``TypeError`` (not a number) or ``ValueError`` (out of range,
    NaN), raised as the bot is made: NaN, infinity or a text were the agent's forfeit at its first
    call, blamed on it, and 0 or less a forfeit for its time at once."""
    if timeout is None:
        return None
    try:
        return bot_timeout_seconds(timeout)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"timeout: expected None or {exc}, not {quoted(timeout)}") from None


def answer_words(answer: str, seat: str) -> str:
    """An agent's answer (a ``str``) as the words the seat plays: its text as a plain ``str`` (a
    subclass's methods are the agent's code), white space collapsed (a line's end too, which a
    language model's answer often has) and the seat's own name in front left out. How the
    referee reads a ``py:`` agent's answer (``AgentBot``), and the library an agent's ``step``.

    >>> answer_words("p1 Vote  yes\\n", "p1")
    'Vote yes'
    """
    words = str.__str__(answer).split()
    if words and words[0].lower() == seat:
        words = words[1:]
    return " ".join(words)


def _agent_call(agent: Any, method: str, args: tuple[Any, ...], needed: bool = True) -> Any:
    """The agent's ``method`` called with ``args`` (not ``needed``: None where the agent has no
    such method). Looking the method up runs the agent's code too (a property, ``__getattr__``)."""
    fn = getattr(agent, method) if needed else getattr(agent, method, None)
    return fn(*args) if needed or callable(fn) else None


class AgentBot:
    """An agent playing ``seat`` through the referee (the ``engine.bots.Bot`` interface). An
    exception raised by the agent, or an answer that is not text, is the agent's failure: its
    seat forfeits, as a program's would. What the agent prints (``sys.stdout``) while it runs
    goes to ``sys.stderr``: the referee's stdout carries the game (its protocol, ``--json``).

    ``timeout``: the seconds each call of the agent (``new_game``, ``act``, ``close``) may take,
    from 0.01 to 3600 as ``--bot-timeout``'s (another value: ``TypeError``, ``ValueError``), or
    None (the default): untimed. An agent still running when they are up has
    ``engine.deadline.TimeUp`` raised in its code, and fails, whatever it answers then: "gave no
    answer within 10 s". The limit holds where the agent runs in the main thread; elsewhere it is
    untimed. A call into C code that does not return to Python ends only when it ends, and
    fails all the same if it ended late."""

    def __init__(self, seat: str, agent: Any, name: str = "", timeout: float | None = None) -> None:
        self.seat = seat
        self.agent = agent
        self.name = name or type(agent).__name__
        self.timeout = _seconds(timeout)
        self._seen = (0, 0, 0)  # the game's event log, moves and forfeits told so far (``news``)
        self._started = False
        self._closed = False

    def choose(self, session: Session) -> str | None:
        if not self._started:
            self._started = True
            self._call("new_game", agent_info(session, self.seat), needed=False)
        text, self._seen = news(session, self.seat, self._seen)
        answer = self._call("act", text, session.choices(self.seat))
        if answer is None:
            if session.state.realtime:
                return None
            raise BotFailure(f"the agent {self.name} had no input to give")
        if not issubclass(type(answer), str):  # (isinstance would ask the answer its __class__: its code)
            raise BotFailure(f"the agent {self.name} answered {type(answer).__name__}, not text")
        return answer_words(answer, self.seat)

    def _call(self, method: str, *args: Any, needed: bool = True) -> Any:
        """``_agent_call`` of the agent's ``method``, held to its time (``engine.deadline``);
        whatever it raises, and its time running out, its failure."""
        expired = [False]
        try:
            with deadline.limited(self.timeout) as expired, redirect_stdout(_STDERR):  # its print()s: the referee's stdout is the protocol's
                answer = deadline.run(_agent_call, self.agent, method, args, needed)
        except BaseException as exc:  # noqa: BLE001 - an agent's bug is its forfeit, never the referee's end
            if isinstance(exc, KeyboardInterrupt) and ctrl_c_reaches_here():  # the user's Ctrl-C: the referee's
                raise
            if stopping:  # (its worker told to stop: the run's SystemExit, whatever the agent made of it)
                raise _the_stop(exc) from None
            raise self._failure(expired, f"raised {described(exc)}") from None  # (a KeyboardInterrupt too: its own)
        if stopping:  # (a stop that came as it played, which it swallowed and answered: the run's all the same)
            raise _the_stop(None)
        if expired[0]:
            raise self._failure(expired, "")
        return answer

    def _failure(self, expired: list[bool], why: str) -> BotFailure:
        if expired[0]:  # (the time-up, or what the agent made of it: the time ran out all the same)
            return BotFailure(f"the agent {self.name} gave no answer within {self.timeout:g} s")
        return BotFailure(f"the agent {self.name} {why}")

    def close(self) -> None:
        """Close the agent (its ``close``, if it has one). Whatever that raises is swallowed:
        nothing is left to forfeit; but the user's Ctrl-C, and a worker's stop that came as it
        closed, are the run's (as ``_call``'s). A stop under way before (the game unwinds) is
        not the agent's to end: its own failure then is swallowed too, so the other bots close.
        Once: a bot closed again (``arbiter play`` closes its bots as the match ends and on its
        way out) does not close its agent again."""
        if self._closed:
            return
        self._closed = True
        told = stopping
        try:
            with deadline.limited(self.timeout), redirect_stdout(_STDERR):
                deadline.run(_agent_call, self.agent, "close", (), False)
        except BaseException as exc:  # noqa: BLE001 - as _call's, and nothing is left to forfeit
            if isinstance(exc, KeyboardInterrupt) and ctrl_c_reaches_here():
                raise
            if stopping and (not told or isinstance(exc, SystemExit)):  # (a SystemExit: the stop's retry, pool._stop)
                raise _the_stop(exc) from None


_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))

stopping = False
"""Set by a tournament's worker told to stop (``arena.pool``): the ``SystemExit`` its handler
raises while an agent plays is the run's, not the agent's."""

stop_raised = False
"""Set once an agent's call has raised the worker's stop (``_the_stop``): a stop that came as a
process started is tried again a moment later (``arena.pool``), and that retry must not raise it
a second time as the game unwinds (out of a bot's close, before its process group is ended)."""


def _the_stop(exc: BaseException | None) -> SystemExit:
    """What an agent's call raises in a worker told to stop (``stopping``): the ``SystemExit``
    the stop raised in the agent's code, or one in place of whatever the agent made of it
    (caught it, then raised another exception, its time-up say, or swallowed it and answered:
    None). The worker hands what its game raised to the run: a ``TimeUp`` (a ``BaseException``)
    ended the run's main process with a traceback, a ``KeyboardInterrupt`` looked like its
    Ctrl-C; a ``SystemExit`` is the stop. Sets ``stop_raised``."""
    global stop_raised
    stop_raised = True
    return exc if isinstance(exc, SystemExit) else SystemExit(128 + signal.SIGTERM)


def ctrl_c_reaches_here() -> bool:
    """Whether a ``KeyboardInterrupt`` may be the user's: Python raises one for a signal whose
    handler is its default SIGINT one (Ctrl-C; the command sets it for SIGTERM and SIGHUP too,
    so that a kill stops a run as Ctrl-C does, even where a shell's ``&`` left SIGINT ignored).
    A tournament's worker handles none of them so, so one raised while its agent plays is the
    agent's own doing, a forfeit like any exception: taken for Ctrl-C, it stopped the whole run
    at that game at every resume."""
    return any(signal.getsignal(s) is signal.default_int_handler for s in _STOP_SIGNALS)


def described(exc: BaseException) -> str:
    """``TYPE: message`` of an exception an agent raised, the message cut to 200 characters;
    never an exception itself (a message that cannot be made is said to be so).

    Every exception but Ctrl-C's is the agent's own: ``SystemExit`` (``sys.exit()``) too, and
    ``GeneratorExit``, which Python throws only into a generator paused at a ``yield``, never into
    a call running as the agent's does, so one that reaches the referee the agent raised."""
    try:
        name = type(exc).__name__
        try:
            message = str(exc)[:200]
        except KeyboardInterrupt:
            raise
        except BaseException as inner:  # noqa: BLE001
            message = f"(its message cannot be shown: {type(inner).__name__} making it)"
        return f"{name}: {message}" if message else name
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a type whose name cannot be read
        return "an exception that cannot be described"


def load_agent(spec: str, directory: str | None = None) -> Any:
    """An agent from ``MODULE:CLASS`` (``py:`` taken off): the class, made with no arguments; its
    module is looked for in ``directory`` (by default the working directory) first."""
    module_name, sep, class_name = spec.rpartition(":")
    named = quoted(f"py:{spec}", COMMAND_CHARS)  # (as an exec: bot's command is: a terminal shows it as typed)
    if not sep or not module_name or not class_name:
        raise ArbiterError(f"{named}: expected py:MODULE:CLASS, e.g. py:mybots:Greedy")
    if directory is not None:
        if directory not in sys.path:
            sys.path.insert(0, directory)
    elif "." not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        with redirect_stdout(_STDERR):  # what it prints as it starts: as ``AgentBot``'s
            module = importlib.import_module(module_name)
            cls = getattr(module, class_name)
            agent = cls()
            acts = callable(getattr(agent, "act", None))  # (a property's code is the agent's too)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - whatever the import does (sys.exit too), it is the user's code
        raise ArbiterError(f"{named}: cannot make the agent: {printable(described(exc))}") from None
    if not acts:
        raise ArbiterError(f"{named}: {quoted(class_name)} has no act(observation, legal) method")
    return agent

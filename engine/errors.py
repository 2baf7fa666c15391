"""The exceptions the engine raises for user mistakes, and how their messages word what they
name: ``quoted`` (a word or a value, cut when long) and ``counted`` (a count and its noun).

Every refusal of an input is one of these, so callers can frame it (``? KIND: message``) and
carry on. A refused input never changes the state.
"""

from __future__ import annotations

from typing import Any


QUOTED_CHARS = 40
"""How much of a word a refusal (or a data file's error) quotes back: a pasted page comes back as
its start."""
COMMAND_CHARS = 200
"""How much of a bot's command (or an address) an error quotes back: its program's path and
arguments are what the user needs to see to mend it."""


def quoted(word: object, limit: int = QUOTED_CHARS) -> str:
    """A word of an input as a refusal names it, or a value of a data file as its error does:
    its ``repr``, cut after ``limit`` characters (saying how long it was), so the message
    stays a line a person can read. A value that is not text is cut in its ``repr``.

    >>> quoted("fly")
    "'fly'"
    >>> quoted("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100 characters)"
    >>> quoted(10 ** 50)
    '1000000000000000000000000000000000000000... (51 characters)'
    >>> quoted(10 ** 5000)
    'a number of over 4000 digits'
    """
    if not isinstance(word, str):
        if isinstance(word, int) and word.bit_length() > 14_000:  # (repr of over 4300 digits is itself an error)
            return "a number of over 4000 digits"
        text = repr(word)
        return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
    return repr(word) if len(word) <= limit else f"{word[:limit]!r}... ({len(word)} characters)"


def counted(n: int, noun: str) -> str:
    """A count and its noun, as a message says it: ``1 move``, ``2 moves``, ``0 moves``.

    >>> counted(1, "move"), counted(3, "round")
    ('1 move', '3 rounds')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class ArbiterError(Exception):
    """Base of every error arbiter reports to a user; ``kind`` is the protocol's error kind."""

    kind = "error"

    def __init__(self, message: str, allowed: tuple[str, ...] | list[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.allowed = tuple(allowed)


class InputError(ArbiterError):
    """An input line was refused; the state is unchanged."""


class SyntaxInputError(InputError):
    """The line cannot be read: unknown words, wrong argument count, a bad cell or time."""

    kind = "syntax"


class UnknownActionError(SyntaxInputError):
    """An input with no action word, or one the game does not have; ``allowed`` lists the
    forms the seat may type (a seat's session, its name left out, adds the meta-commands)."""


class UnknownCommandError(InputError):
    """The first word is neither a seat nor a meta-command."""

    kind = "unknown-command"


class UnknownSeatError(InputError):
    """A seat name that this game does not have."""

    kind = "unknown-seat"


class NotYourTurnError(InputError):
    """The seat is not awaited now."""

    kind = "not-your-turn"


class IllegalMoveError(InputError):
    """The input is well formed but the rules forbid it now."""

    kind = "illegal"


class AmbiguousMoveError(InputError):
    """The input could mean more than one thing."""

    kind = "ambiguous"


class TimeError(InputError):
    """A time stamp earlier than the virtual clock."""

    kind = "time"


class GameOverError(InputError):
    """A move after the game has ended."""

    kind = "game-over"


class DeniedError(InputError):
    """A seat's session asked for another seat's secrets."""

    kind = "denied"


class SetupError(ArbiterError, ValueError):
    """A game asked for that cannot be set up: a game, mode or scenario this version does not
    have, a player count, level or deck that does not fit it, options that contradict each
    other. Not an ``InputError``: nothing was played, and a caller catching refused moves
    (``IllegalMoveError``, ``InputError``) does not catch a game misconfigured. Also a
    ``ValueError`` (an argument's value is wrong). Before this class, arbiter raised these, with the same
    messages, as ``UnknownCommandError`` (a game, mode or scenario unknown; a game not set up
    by player count) and ``IllegalMoveError`` (the rest; a Hidden Roles level out of range, found
    later, as ``ScenarioError``): code that caught those around ``new_game`` catches this now."""

    kind = "setup"

    def __init__(self, message: str, allowed: tuple[str, ...] | list[str] = (), option: str | None = None) -> None:
        super().__init__(message, allowed)
        self.option = option  # the command-line option the value came from ("--players"), if one did


class ScenarioError(ArbiterError):
    """Scenario data is broken: names the file, the path inside it and what is wrong."""

    kind = "scenario"

    def __init__(self, source: str, path: str, problem: str, steps: tuple[str | int, ...] | None = None) -> None:
        where = f"{source}: {path}" if path else source
        super().__init__(f"{where}: {problem}")
        self.source = source
        self.path = path
        self.problem = problem
        self.steps = steps  # the path as keys and indexes, when the data's reader knows them
        self.line: int | None = None  # where the path stands in the file, when known

    def place(self, line: int | None) -> None:
        """Name the ``line`` of the file where the path stands, as ``validate`` does: the
        message becomes ``source:line: path: problem``. (Nothing changes for no line.)"""
        if line is not None:
            self.line = line
            self.message = f"{self.source}:{line}: " + (f"{self.path}: " if self.path else "") + self.problem
            self.args = (self.message,)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its own arguments (an exception's are its message alone, which this
        ``__init__`` does not take): one raised in a worker process reaches the caller whole,
        not as a pool broken by a failed unpickling."""
        return type(self), (self.source, self.path, self.problem, self.steps), self.__dict__

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The attributes as pickled, and the message they hold (placed on its line: ``place``)."""
        self.__dict__.update(state)
        self.args = (self.message,)


class TranscriptError(ArbiterError):
    """A transcript file cannot be read or does not fit the game it names."""

    kind = "transcript"


class ChanceMismatchError(ArbiterError):
    """A replayed chance outcome does not fit what the game asked for."""

    kind = "chance"

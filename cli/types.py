"""Typed command-line parameters: games, modes, seats and bot kinds, each with its name in
``--help`` (GAME, MODE, SEAT, KIND) and shell completion of the values this version has.

A game is checked as it is parsed (an unknown one is a usage error naming the games); a mode,
a seat or a bot kind depends on the game, so the command checks it once the game is known
(``check_variant``, ``check_seat``, ``check_kind``), also as a usage error naming the values.
"""

from __future__ import annotations

import errno
import io
import os
import re
import sys
from typing import IO, Any

import click
from click.shell_completion import CompletionItem

from arbiter.engine.errors import quoted
from arbiter.engine.files import dangling_link


def _rules(ctx: click.Context | None) -> Any:
    """The rules of the game named so far on the command line, if any. While an option still
    waits for the value being completed (``play fbi-mafia --mode <TAB>``), Click stops parsing
    before it takes the game argument and leaves the words in ``ctx.args``: the game is the
    first of them that names one."""
    from arbiter.engine import registry

    if ctx is None:
        return None
    name = ctx.params.get("game") or next((w for w in ctx.args if w in registry.names()), None)
    try:
        return registry.get(name) if name else None
    except Exception:  # noqa: BLE001 - completion never fails
        return None


def _items(values: list[str], incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(v) for v in values if v.startswith(incomplete)]


class GameType(click.ParamType):
    name = "game"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from arbiter.engine import registry

        names = registry.names()
        if value not in names:
            self.fail(f"no game named {quoted(value)}; the games: {', '.join(names)}", param, ctx)
        return str(value)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from arbiter.engine import registry

        return _items(registry.names(), incomplete)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "GAME"


class _Named(click.ParamType):
    """A word whose allowed values depend on the game (checked by the command)."""

    metavar = "WORD"

    def values(self, rules: Any) -> list[str]:
        return []

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        rules = _rules(ctx)
        return _items(self.values(rules), incomplete) if rules is not None else []

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return self.metavar


class VariantType(_Named):
    name, metavar = "mode", "MODE"

    def values(self, rules: Any) -> list[str]:
        return [v.name for v in rules.variants()]


class BotKindType(_Named):
    name, metavar = "kind", "KIND"

    def values(self, rules: Any) -> list[str]:
        return [*rules.bot_kinds, "exec:", "py:"]


class SeatType(_Named):
    name, metavar = "seat", "SEAT"

    def values(self, rules: Any) -> list[str]:
        return list(dict.fromkeys(s for v in rules.variants() for s in v.seats))

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        rules = _rules(ctx)
        return _items(seats_of(rules, ctx), incomplete) if rules is not None else []


def seats_of(rules: Any, ctx: click.Context) -> list[str]:
    """The seats of the game the command line sets up so far (its ``--mode``, ``--players``):
    those of every mode offered ``bandit`` for ``--mode duel-3v3 --as``, which then refused it.
    Every mode's, where what is typed sets up none."""
    mode, players = ctx.params.get("variant"), ctx.params.get("players")
    if mode is None and players is None:
        return SeatType().values(rules)
    try:
        from arbiter.engine.session import Session

        chosen, options = rules.choose_setup(mode, players, None, ctx.params.get("level"))
        return list(Session(rules, chosen, seed=0, options=options).seats)
    except Exception:  # noqa: BLE001 (a completion never fails: what was typed sets up no game yet)
        return SeatType().values(rules)


class BotSpecType(_Named):
    """``SEAT=KIND``: completes seats, then the game's bot kinds after the ``=``."""

    name, metavar = "bot", "SEAT=KIND"

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        rules = _rules(ctx)
        if rules is None:
            return []
        seat, eq, kind = incomplete.partition("=")
        if not eq:
            return _items([f"{s}=" for s in seats_of(rules, ctx)], incomplete)
        return _items([f"{seat}={k}" for k in BotKindType().values(rules)], incomplete)


class SeedType(click.ParamType):
    """A seed of new games: a whole number from 0, of at most 100 digits. (A transcript may
    hold a negative seed, and replays it; a new game is not given one: Python's generator deals
    ``-5`` as it deals ``5``, so ``bench --seed -2`` would play its first games twice over.)
    ``negative=True``: a seed that is never a generator's own (a tournament's, whose deals'
    seeds are hashed from it), which may be negative."""

    name = "seed"

    def __init__(self, negative: bool = False) -> None:
        self.negative = negative

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from arbiter.engine.session import MAX_SEED

        lowest = -MAX_SEED + 1 if self.negative else 0
        if isinstance(value, int) and not isinstance(value, bool) and lowest <= value < MAX_SEED:
            return value
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(MAX_SEED)) - 1:
            self.fail(f"{quoted(text)} is not a whole number of at most "
                      f"{len(str(MAX_SEED)) - 1} digits", param, ctx)
        if int(text) < 0 and not self.negative:
            self.fail(f"{text} is negative: a seed is 0 or more (the generator deals {text} as it deals "
                      f"{digits.lstrip('0') or '0'}, the same game)", param, ctx)
        return int(text)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "N"


_WHOLE = re.compile(r"-?[0-9]{1,30}")
_DECIMAL = re.compile(r"-?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})")


class Count(click.IntRange):
    """A whole number in a range, written in ASCII digits (as every number arbiter reads is):
    ``int()`` would also take ``1_0``, ``+3`` and other scripts' digits.

    >>> Count(min=1).convert("12", None, None)
    12
    """

    name = "whole number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not _WHOLE.fullmatch(value.strip()):
            self.fail(f"{quoted(value)} is not a whole number (digits 0-9, at most 30)", param, ctx)
        return super().convert(value, param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "N"


class Decimal(click.FloatRange):
    """A number in a range, written as ASCII digits with an optional sign and decimal point (not
    ``inf``, ``nan`` (which passes any range check), ``1e3``, ``1_0`` or other scripts' digits).
    ``what`` names it in the error and ``--help``.

    >>> Decimal(0, 10, what="number of seconds").convert("2.5", None, None)
    2.5
    """

    name = "number"

    def __init__(self, *args: Any, what: str = "number", metavar: str = "X", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.what, self.metavar = what, metavar

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not _DECIMAL.fullmatch(value.strip()):
            self.fail(f"{quoted(value)} is not a {self.what}: write it in digits 0-9, with one '.' at most",
                      param, ctx)
        return super().convert(value, param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return self.metavar

    def _describe_range(self) -> str:
        """The range ``--help`` shows; none for a number without bounds (``--sprt``'s are checked
        with the test's), where Click would show ``[x<=None]``."""
        return "" if self.min is None and self.max is None else super()._describe_range()


class BotTimeout(Decimal):
    """``--bot-timeout``: seconds as ``engine.session.bot_timeout_seconds`` takes them, a number
    outside its range refused in its words, as a tournament's configuration, a transcript's
    header and ``AgentBot`` word it (not Click's "-1.0 is not in the range 0.01<=x<=3600"), with
    the number as it was typed. ``--help`` shows the range as Click does for every number.

    >>> BotTimeout().convert("2.5", None, None)
    2.5
    >>> BotTimeout().convert("-1", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: seconds from 0.01 to 3600, not -1
    """

    def __init__(self) -> None:
        from arbiter.engine.session import BOT_TIMEOUT  # (here: `arbiter games` reads this module, not the session's)

        super().__init__(*BOT_TIMEOUT, what="number of seconds", metavar="SECONDS")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
            try:
                from arbiter.engine.session import bot_timeout_seconds

                return bot_timeout_seconds(float(value))
            except ValueError as exc:
                self.fail(f"{exc}, not {value.strip()}", param, ctx)
        return super().convert(value, param, ctx)


def check_variant(rules: Any, name: str | None) -> None:
    names = [v.name for v in rules.variants()]
    if name is not None and name not in names:
        raise click.BadParameter(f"{rules.title} has no {rules.variant_label} {quoted(name)}; "
                                 f"its {rules.variant_label}s: {', '.join(names)}", param_hint="--mode/--scenario")


def check_kind(rules: Any, kind: str, hint: str) -> None:
    """A usage error unless ``kind`` names a bot (``check_spec``: a ``py:`` agent is made once)."""
    from arbiter.engine.arena.entrants import check_spec  # only when a command checks its bots
    from arbiter.engine.errors import ArbiterError

    try:
        check_spec(kind, rules.bot_kinds)
    except ArbiterError as exc:
        raise click.BadParameter(f"{rules.title}: {exc.message}", param_hint=hint) from None


def check_seat(seats: tuple[str, ...], seat: str, hint: str) -> str:
    seat = seat.strip().lower()
    if seat not in seats:
        raise click.BadParameter(f"no seat {quoted(seat)} in this game; its seats: {', '.join(seats)}", param_hint=hint)
    return seat


def stdin_bytes() -> IO[bytes]:
    """Standard input as bytes; a closed one (``<&-``) reads as empty, as ``</dev/null`` does."""
    stream = sys.stdin
    if stream is None:
        return io.BytesIO(b"")
    return getattr(stream, "buffer", stream)


class MovesFile(click.File):
    """A file of input lines opened for bytes; ``-`` is standard input (see ``stdin_bytes``).
    A symbolic link that leads nowhere is said to be one (``leads_nowhere``), as ``ExistingPath``
    says it."""

    def __init__(self) -> None:
        super().__init__("rb")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-":
            return stdin_bytes()
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            try:
                if isinstance(value, (str, bytes)):
                    os.stat(value)
            except OSError as exc:
                if (why := leads_nowhere(value, exc)) is not None:
                    self.fail(why, param, ctx)
            raise


class NewPath(click.Path):
    """A path the command will write (a transcript, a results folder): as ``click.Path``, but
    an empty one is refused (a usage error). Without this, ``--transcript ""`` (an unset shell
    variable) read as no option at all: the game ran and nothing was kept."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "":
            self.fail("an empty path names nothing to write to (an unset shell variable?)", param, ctx)
        return super().convert(value, param, ctx)


def out_of_reach(path: str | bytes, exc: OSError) -> str | None:
    """Why ``path`` could not be looked at, when ``exc`` (what ``os.stat`` raised) is a folder on
    its way the user may not enter (no permission: ``EACCES``, ``EPERM``), else None. Click
    said such a file "does not exist", though it may well be there: whether it is cannot be
    told. The folder is named when it is one of ``path``'s own (the first on the way that may
    not be entered); else (a folder a link leads through, a rule of the system) it is "a folder
    on its way"."""
    if exc.errno not in (errno.EACCES, errno.EPERM):
        return None
    folders: list[str | bytes] = []
    head = os.path.dirname(path)
    while head and head not in folders:  # (up to the top, or to the folder it is relative to)
        folders.append(head)
        head = os.path.dirname(head)
    locked = next((f for f in reversed(folders) if os.path.isdir(f) and not os.access(f, os.X_OK)), None)
    where = "a folder on its way" if locked is None else f"the folder {click.format_filename(locked)!r}"
    return (f"{click.format_filename(path)!r} cannot be reached: {where} may not be entered (permission "
            "denied), so whether it exists cannot be told")


def leads_nowhere(path: str | bytes, exc: OSError) -> str | None:
    """That ``path`` is a symbolic link that leads nowhere (its target gone, or a loop of links),
    when ``exc`` (what ``os.stat`` raised) says so (``engine.files.dangling_link``), else None: Click
    said "No such file or directory" of a name ``ls`` lists."""
    kind = dangling_link(path, exc)
    return None if kind is None else f"{click.format_filename(path)!r} is {kind} ({exc.strerror or exc})"


class ExistingPath(click.Path):
    """A path that must exist (a file to read, a folder to resume): ``click.Path(exists=True)``,
    but a symbolic link that leads nowhere (its target gone, or a loop of links) is said to be
    one, and a path in a folder the user may not enter is said to be out of reach
    (``out_of_reach``), where Click says either does not exist (the user sees the link in
    ``ls``; the file may be there)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(exists=True, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            try:  # (why, where Click's words are wrong: else they stand)
                if isinstance(value, (str, bytes)):
                    os.stat(value)
            except OSError as exc:
                why = out_of_reach(value, exc)
                if why is not None:
                    self.fail(f"{self.name.title()} {why}", param, ctx)
                if (why := leads_nowhere(value, exc)) is not None:
                    self.fail(why, param, ctx)
            raise

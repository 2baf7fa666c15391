"""What every command shares: the exit statuses, engine errors as Click errors, UTF-8 output.

Exit statuses (also in ``arbiter --help`` and the README):

====  =========================================================================
0     success
1     an error: a file that cannot be read or does not replay, a data problem
2     a usage error: an unknown game, mode, seat or bot kind, contradicting options
3     ``play --moves FILE``: a line of the file was refused
4     ``play``: the input ended before the game did (its transcript can be resumed)
130   interrupted (Ctrl-C, or SIGTERM or SIGHUP)
141   the output's reader went away (``| head``): stopped quietly
====  =========================================================================
"""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from arbiter.cli.entry import interrupted  # noqa: F401 (re-exported: the commands import it from here)
from arbiter.engine.errors import ArbiterError, SetupError

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_REFUSED, EXIT_UNFINISHED = 0, 1, 2, 3, 4
EXIT_HELP = """\b
Exit statuses:
  0    success
  1    an error: a file unreadable or not replaying, bad data
  2    a usage error: unknown game, mode, seat or bot kind; clashing options
  3    play --moves FILE: a line of the file was refused
  4    play: the input ended before the game did (resume it)
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP)
  141  the output's reader went away (| head): stopped quietly"""


def explain(exc: ArbiterError) -> str:
    """An engine error as one message, with what is allowed when the engine says."""
    if not exc.allowed:
        return exc.message
    return f"{exc.message} (allowed: {', '.join(exc.allowed)})"


def setup_usage(exc: ArbiterError) -> NoReturn:
    """A game that cannot be set up as asked: a usage error, naming the option the value came
    from when the game says (``SetupError.option``: ``Invalid value for --players: ...``)."""
    usage(explain(exc), getattr(exc, "option", None))


def fail(message: str) -> NoReturn:
    """An error of the run (exit status 1)."""
    raise click.ClickException(message)


SETUP_ERRORS = (SetupError,)
"""What a game says of options that do not fit it (a mode, a player count): usage errors."""


def usage(message: str, hint: str | None = None) -> NoReturn:
    """A usage error (exit status 2), naming the option it is about."""
    if hint:
        raise click.BadParameter(message, param_hint=hint)
    raise click.UsageError(message)


def utf8_output() -> None:
    """The protocol's output is UTF-8, whatever the locale says. A stream that names no
    encoding (None: an ``io.StringIO`` a program calling ``main`` put in place) is left as it is."""
    for stream in (sys.stdout, sys.stderr):
        if (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "") != "utf8":
            try:
                stream.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
            except (AttributeError, ValueError):
                pass


def echo_counted(text: str, count: list[int]) -> None:
    """``click.echo(text, nl=False)`` to standard output, counted in ``count[0]`` with no
    instant between the count and the write where Python can raise a Ctrl-C (it does as Python
    code is called, as echo's own code is, and once a call has returned): a run interrupted as
    it reports says exactly the lines it reported. A write refused is said as echo's is
    (``entry.output_refused``)."""
    file = sys.stdout
    count[0] += 1
    file.write(text)
    file.flush()

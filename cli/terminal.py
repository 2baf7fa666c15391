"""Playing by hand at a terminal: a prompt, line editing and history (readline), and tab
completion of the commands and of the inputs the session's seat may send now. Used only when
stdin is a terminal; piped input goes through ``engine.lines.LineReader``, untouched.

The line is read in a thread of its own, so the referee can keep time while the player types
(the sand running out, bots acting on the wall clock) and still take the line when it comes.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import unicodedata
from typing import Any

import click

from arbiter.engine.errors import ArbiterError
from arbiter.engine.events import HOST
from arbiter.engine.lines import TIMEOUT, BadLine, Timeout, check_text
from arbiter.engine.protocol import META_COMMANDS, Protocol

try:  # not on every platform; without it the prompt still works, without editing
    import readline
except ImportError:  # pragma: no cover
    readline = None  # type: ignore[assignment]
try:
    import termios
except ImportError:  # pragma: no cover
    termios = None  # type: ignore[assignment]


_RL_POINT: Any = None
"""readline's ``rl_point`` (where its cursor is in the line), read through ctypes, found at the
first redraw; False where it cannot be (a readline module without it: libedit, say). Only read:
readline runs in the reader's thread, and none of its functions is called from another."""


def _point(typed: str) -> int:
    """Where readline's cursor is in the half-typed line ``typed`` (as ``get_line_buffer`` gives
    it), in characters: ``rl_point`` counts the line's bytes (``café`` is five). Its end where
    that cannot be read."""
    global _RL_POINT
    if _RL_POINT is None:
        try:
            import ctypes

            _RL_POINT = ctypes.c_int.in_dll(ctypes.CDLL(readline.__file__), "rl_point")
        except (OSError, ValueError, AttributeError, TypeError):
            _RL_POINT = False
    raw = typed.encode("utf-8", "surrogateescape")
    point = _RL_POINT.value if _RL_POINT else len(raw)
    if not 0 <= point <= len(raw):
        return len(typed)
    return len(raw[:point].decode("utf-8", "surrogateescape"))


def _escapes() -> bool:
    """Whether the terminal takes ANSI escapes: not one that says it has none (``TERM=dumb``, or
    no ``TERM``: an editor's shell), where an erase would print as ``^[[K``."""
    return os.environ.get("TERM", "dumb") != "dumb"


def _columns() -> int:
    """The terminal's width (one that says none, a pseudo-terminal never sized: ``$COLUMNS``, or 80).
    ``$COLUMNS`` counts only as ASCII digits, five at most: ``str.isdigit`` also takes ``²``,
    which ``int`` refuses, and ``int`` refuses a number of thousands of digits too (a traceback at
    the first redraw)."""
    try:
        columns = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError, AttributeError):
        columns = 0
    if columns <= 0:
        given = os.environ.get("COLUMNS", "")
        columns = int(given) if given.isascii() and given.isdigit() and len(given) <= 5 else 80
    return max(columns, 1)


def _cells(text: str) -> int:
    """How many of a terminal's columns ``text`` takes: two for a wide character (CJK, most
    emoji: East Asian width W or F), none for a mark drawn on the character before it (a
    combining accent, a Thai or Devanagari vowel sign, a variation selector: category Mn or Me,
    whatever its combining class), a format character (a zero-width joiner) or a Hangul vowel
    or final consonant that joins the syllable before it; one for the others, as the C
    library's ``wcwidth`` counts them, which readline draws by. Counted one a character, a
    half-typed line of wide characters was drawn again with the cursor left in its middle. (A
    wide character that does not fit in a row's last column goes to the next row, leaving that
    column empty: not counted.)

    >>> _cells("say 你好"), _cells("cafe\u0301"), _cells("p1> "), _cells("\u2764\ufe0f")
    (8, 4, 4, 1)
    """
    n = 0
    for c in text:
        if c < "\u0300":  # (ASCII and Latin letters: one column, without a lookup)
            n += 1
        elif unicodedata.category(c) in ("Mn", "Me", "Cf") or "\u1160" <= c <= "\u11ff" or "\ud7b0" <= c <= "\ud7ff":
            continue
        else:
            n += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return n


def _up_to_the_line(cells: int, columns: int) -> str:
    """From the cursor, ``cells`` into the prompt's line, to that line's start, everything from
    there on cleared: a line wider than the terminal takes more than the cursor's row (the
    erase of that row alone left the others on the screen at every redraw)."""
    rows = cells // columns
    return (f"\x1b[{rows}A" if rows else "") + "\r\x1b[J"


def _back_to(cells: int, end: int, columns: int) -> str:
    """From the end of the prompt and line just drawn (``end`` cells) to ``cells`` into it,
    where readline's cursor is: drawn by hand, the cursor was left at the line's end while
    readline's was where the person had moved it, and the next key edited another line than the
    one on the screen."""
    out = " \r" if end and end % columns == 0 else ""  # (at the last column a terminal waits to wrap)
    rows, column = end // columns - cells // columns, cells % columns
    return out + (f"\x1b[{rows}A" if rows else "") + "\r" + (f"\x1b[{column}C" if column else "")


class TerminalLines:
    """Lines typed at a terminal, as a ``LineSource`` (``read_line(timeout)``)."""

    def __init__(self, protocol: Protocol) -> None:
        self.protocol = protocol
        seat = protocol.perspective
        self.prompt = f"{seat}> " if seat != HOST else "arbiter> "
        self._lines: queue.Queue[str | BaseException | None] = queue.Queue()
        self._wanted = threading.Event()
        self._asking = False
        self._at_prompt = False  # the prompt is on the screen and readline reads keys after it
        self._thread: threading.Thread | None = None
        self._modes = _modes()  # the terminal as the person had it: ``restore`` puts it back
        if readline is not None:
            readline.set_pre_input_hook(self._prompt_shown)
            readline.set_completer(self._complete)
            readline.set_completer_delims(" ")
            readline.parse_and_bind("tab: complete")
        # A byte that is not UTF-8 must reach ``check_text``, which refuses the line as a file's
        # or a pipe's is refused; a strict decoder in ``input()`` would raise in the reader.
        reconfigure = getattr(sys.stdin, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="surrogateescape")
            except (ValueError, OSError):  # pragma: no cover (a stream already read from)
                pass

    def restore(self) -> None:
        """Give the terminal back as it was before the session: readline, in the middle of a
        line when Ctrl-C, a kill or the game's end stops the session, leaves it without echo
        and line editing. Every exit of ``play`` calls this."""
        if self._modes is not None:
            fd, modes = self._modes
            try:
                termios.tcsetattr(fd, termios.TCSANOW, modes)
            except (termios.error, OSError):  # the terminal is gone (SIGHUP): nothing to give back
                pass

    def show(self, text: str) -> None:
        """Print ``text`` (answers, a bot's move, what time did) while the person may be typing:
        in a real-time game it comes at any moment, and once landed after the prompt and the
        half-typed line. With the prompt on the screen, its line is cleared, ``text`` printed,
        and the prompt drawn again below it with what was typed so far, which is kept."""
        if self._at_prompt and readline is not None:
            # the half-typed line as typed: a byte that is not UTF-8 in it, kept as a lone
            # surrogate for check_text to refuse once the line is sent, is drawn as U+FFFD (a
            # strict UTF-8 terminal refused it, a traceback)
            raw = readline.get_line_buffer()
            typed = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in raw)
            if not _escapes():  # (a new line, the line at its end)
                click.echo("\n" + text + self.prompt + typed, nl=False)
                return
            columns, cells = _columns(), _cells(self.prompt + typed[:_point(raw)])
            end = _cells(self.prompt + typed)
            click.echo(_up_to_the_line(cells, columns) + text + self.prompt + typed + _back_to(cells, end, columns),
                       nl=False)
        else:
            click.echo(text, nl=False)

    def finish(self) -> None:
        """The session is over: a prompt left on the screen (a real-time game ended by time or
        bots while the person was at it) is cleared, so what follows is not printed after it."""
        if self._at_prompt:
            self._at_prompt = False
            if not _escapes() or readline is None:
                click.echo("\n", nl=False)
            else:
                typed = readline.get_line_buffer()
                click.echo(_up_to_the_line(_cells(self.prompt + typed[:_point(typed)]), _columns()), nl=False)

    def _prompt_shown(self) -> None:
        """readline's hook, called in the reader once the prompt is printed, before any key."""
        self._at_prompt = True

    def _read(self) -> None:
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                try:
                    line: str | None = input(self.prompt)
                except (EOFError, KeyboardInterrupt, OSError):
                    line = None
                self._at_prompt = False
                self._lines.put(line)
                if line is None:
                    return
        except BaseException as exc:  # anything else: the main thread reports it, never a silent freeze
            self._lines.put(exc)

    def read_line(self, timeout: float | None) -> str | BadLine | Timeout | None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, daemon=True)
            self._thread.start()
        if not self._asking:  # prompt once the answers to the last line are out
            self._asking = True
            self._wanted.set()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return TIMEOUT  # still asking: the prompt stays
        self._asking = False
        if isinstance(line, BaseException):
            raise ArbiterError(f"the terminal could not be read: {type(line).__name__}: {line}") from line
        if line is None:
            return None
        return check_text(line.encode("utf-8", "surrogateescape"))

    # -- completion -----------------------------------------------------------------------------
    def candidates(self) -> list[str]:
        """Whole lines one may type now: the commands, and the inputs the session may send."""
        session = self.protocol.session
        out = [name for name in META_COMMANDS]
        seats = session.seats if self.protocol.perspective == HOST else (self.protocol.perspective,)
        for seat in seats:
            choices = session.choices(seat)
            mine = [*choices.legal, *(f.split()[0] + " " for f in choices.forms),
                    *([choices.resign] if choices.resign else [])]
            out += [f"{seat} {m}" for m in mine]
            if self.protocol.perspective != HOST:
                out += mine  # a seat's session may leave its own name out
        return out

    def _complete(self, text: str, state: int) -> Any:
        if readline is None:
            return None
        line = readline.get_line_buffer()
        begin = readline.get_begidx()
        # the words after a time stamp (@SECONDS) and the spaces before them, the seat's name in
        # any case, as the protocol reads them: there Tab offered nothing
        lead = len(line) - len(line.lstrip())
        if line[lead:].startswith("@") and " " in line[lead:]:
            lead = len(line) - len(line[lead:].split(" ", 1)[1].lstrip())
        if begin < lead:
            return None
        typed, begin = line[lead:].lower(), begin - lead
        words = {c[begin:].split(" ")[0] + (" " if " " in c[begin:] else "")
                 for c in self.candidates() if c.lower().startswith(typed)}
        # a word that ends one input and goes on in another (accuse p1, accuse p1 p3) is offered
        # once, as ending there: offered both ways, each was listed twice and none completed
        matches = sorted(w for w in words if not (w.endswith(" ") and w[:-1] in words))
        return matches[state] if state < len(matches) else None


def _modes() -> tuple[int, list[Any]] | None:
    """stdin's file descriptor and terminal modes, when it is a terminal."""
    if termios is None or sys.stdin is None:
        return None
    try:
        fd = sys.stdin.fileno()
        return (fd, termios.tcgetattr(fd)) if sys.stdin.isatty() else None
    except (termios.error, OSError, ValueError, AttributeError):
        return None

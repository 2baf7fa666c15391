"""Reading protocol lines: one reader for a terminal, a pipe and a file of moves.

Lines are read as bytes and split on ``\\n`` only (a stray ``\\r`` inside a line is white space,
as the protocol says), capped at ``MAX_LINE_BYTES`` and decoded as UTF-8 here, so a line that
is too long, not UTF-8 or holds a control character becomes a ``BadLine`` the session answers
with a refusal, never a crash or a misread.

>>> reader = LineReader(io.BytesIO(b"time\\r\\np1 say a\\rb\\n\\xff\\nlast"))
>>> [line if isinstance(line, str) else line.problem for line in reader]
['time', 'p1 say a b', 'the line is not UTF-8 text: byte 0xff at column 1 cannot be read', 'last']
"""

from __future__ import annotations

import io
import os
import select
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

MAX_LINE_BYTES = 8192
"""The longest protocol line, in bytes without its newline, that the referee reads from a
person, a file of moves or a bot; a longer one is refused (a bot that sends one forfeits)."""

_CHUNK = 65536
BOM = "\ufeff".encode()
"""A byte order mark, which some editors and runtimes write at the start of a file or output
(Notepad, .NET, PowerShell): read as nothing where text starts."""


@dataclass(frozen=True)
class BadLine:
    """A line the referee cannot read as text: what is wrong with it, in words."""

    problem: str


class Timeout:
    """``LineReader.read_line`` found no whole line before its timeout."""


TIMEOUT = Timeout()

# White space a line may hold besides the space: tabs and a stray carriage return.
_SPACES = {"\t": " ", "\r": " "}
# Characters a line may not hold, by Unicode category, as a refusal names them: control
# characters (they would garble a terminal or a transcript) and the Unicode line and paragraph
# separators (some readers split lines there).
_REFUSED = {"Cc": "a control character", "Zl": "a line separator", "Zp": "a paragraph separator"}


def check_text(raw: bytes) -> str | BadLine:
    """One line's bytes (without the newline; the ``\\r`` of a CRLF goes too) as protocol text,
    or what is wrong with them.

    >>> check_text(b"p1 say caf\\xc3\\xa9\\r")
    'p1 say café'
    >>> check_text(b"p1 say \\x00").problem
    'the line holds a control character (U+0000) at column 8; only printable text is read'
    >>> check_text("p1 say a\\u2028b".encode()).problem
    'the line holds a line separator (U+2028) at column 9; only printable text is read'
    """
    if raw.endswith(b"\r"):  # a CRLF line end
        raw = raw[:-1]
    if len(raw) > MAX_LINE_BYTES:
        return BadLine(too_long())
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return BadLine(f"the line is not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {exc.start + 1} "
                       "cannot be read")
    if text.isprintable():
        return text
    if (found := refused_character(text, keep="\t\r")) is not None:
        i, what = found
        return BadLine(f"the line holds {what} (U+{ord(text[i]):04X}) at column {i + 1}; only printable text is read")
    return "".join(_SPACES.get(ch, ch) for ch in text)


def refused_character(text: str, keep: str = "") -> tuple[int, str] | None:
    """Where ``text`` holds a character no line may hold (``_REFUSED``: a control character, a
    line or paragraph separator), and what it is in words; None if it holds none but those
    in ``keep``. (Other characters Python will not call printable, a zero-width joiner in an
    emoji, say, are text.)

    >>> refused_character("Friday\x1b[2J")
    (6, 'a control character')
    >>> refused_character("a\tb", keep="\t") is None
    True
    """
    for i, ch in enumerate(text):
        if ch not in keep and (what := _REFUSED.get(unicodedata.category(ch))) is not None:
            return i, what
    return None


def check_str(text: str) -> str | BadLine:
    """Text given as a ``str`` (the library's inputs) checked as ``check_text`` checks a line's
    bytes: at most ``MAX_LINE_BYTES`` in UTF-8, no control character; and no lone surrogate
    (``"\\udcff"``), which no UTF-8 line holds and no transcript could store.

    >>> check_str("say caf\u00e9")
    'say caf\u00e9'
    >>> check_str("say \\udcff").problem
    'the text holds U+DCFF, a lone surrogate, at column 5; only characters are read'
    """
    if len(text) <= MAX_LINE_BYTES // 4 and text.isprintable():  # (at most 4 bytes a character)
        return text
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return BadLine(f"the text holds U+{ord(text[exc.start]):04X}, a lone surrogate, at column "
                       f"{exc.start + 1}; only characters are read")
    if len(raw) > MAX_LINE_BYTES:
        return BadLine(f"the text is longer than {MAX_LINE_BYTES} bytes (in UTF-8)")
    checked = check_text(raw)
    return BadLine(checked.problem.replace("the line ", "the text ", 1)) if isinstance(checked, BadLine) else checked


_ESCAPED = ("Cc", "Cs", "Zl", "Zp")


def printable(text: str) -> str:
    """``text`` as one printable line: each control character, line or paragraph separator and
    lone surrogate written as its escape (``\\n``, ``\\x1b``, ``\\u2028``, ``\\udc80``), so that
    it can be a line of the protocol, a terminal shows it as written and a transcript stores it.
    For text from outside the referee's words (a bot's exception, say) that goes on record.

    >>> printable("caf\u00e9 ok")
    'caf\u00e9 ok'
    >>> print(printable("one\\ntwo \\x1b[31m \\udc80"))
    one\\ntwo \\x1b[31m \\udc80
    """
    if text.isprintable():
        return text
    return "".join(ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in _ESCAPED else ch
                   for ch in text)


def too_long() -> str:
    return f"the line is longer than {MAX_LINE_BYTES} bytes; it is skipped up to its end"


class LineReader:
    """Protocol lines from a binary stream: iterate for every line, or ``read_line(timeout)`` for
    the next one within ``timeout`` seconds (a pipe or terminal with a file descriptor).

    Each line is a ``str`` (the text, without its newline) or a ``BadLine``. A line over the
    cap is reported once and skipped up to its newline without being held in memory. A last
    line without a newline is still a line. A byte order mark at the very start of the input
    (some editors begin a UTF-8 file with one) is dropped; anywhere else it is text."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        try:
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            self.fd = None
        self._buffer = bytearray()
        self._skipping = False  # inside a line that was too long: drop bytes up to its newline
        self._eof = False
        self._first = True  # no line read yet: a byte order mark before it is dropped

    def __iter__(self) -> Iterator[str | BadLine]:
        while True:
            line = self.read_line(None)
            if line is None:
                return
            assert not isinstance(line, Timeout)
            yield line

    def read_line(self, timeout: float | None) -> str | BadLine | Timeout | None:
        """The next line; None at the end of input; ``TIMEOUT`` when no whole line came within
        ``timeout`` seconds (None: wait as long as it takes)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._first and (self._eof or not BOM.startswith(bytes(self._buffer[:3]))
                                or len(self._buffer) >= 3):  # (else too few bytes yet to tell)
                self._first = False  # a file saved by an editor that marks UTF-8 with a BOM (U+FEFF)
                if self._buffer.startswith(BOM):
                    del self._buffer[:3]
            line = None if self._first else self._take()
            if line is not None:
                return line
            if self._eof:
                return None
            if end is not None and self.fd is not None:
                ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
                if not ready:
                    return TIMEOUT
            chunk = self._chunk()
            if not chunk:
                self._eof = True
            self._buffer += chunk

    def _chunk(self) -> bytes:
        if self.fd is not None:
            try:
                return os.read(self.fd, _CHUNK)
            except OSError:
                return b""
        read1 = getattr(self.stream, "read1", None)
        return (read1 or self.stream.read)(_CHUNK)

    def _take(self) -> str | BadLine | None:
        """A whole line from the buffer, if there is one (or the last, cut-off one at the end)."""
        while True:
            end = self._buffer.find(b"\n")
            if self._skipping:
                if end < 0:
                    self._buffer.clear()
                    return None
                del self._buffer[: end + 1]
                self._skipping = False
                continue
            if end < 0:
                # (the \r of a CRLF ending, its \n still to come, is no part of the line)
                if len(self._buffer) > MAX_LINE_BYTES + self._buffer.endswith(b"\r"):
                    self._buffer.clear()
                    self._skipping = True
                    return BadLine(too_long())
                if self._eof and self._buffer:
                    raw = bytes(self._buffer)
                    self._buffer.clear()
                    return check_text(raw)
                return None
            raw = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            return check_text(raw)

"""External programs as bots (``exec:COMMAND``, ``engine.bots.make_bot``): ``ProcessBot``.

An external bot speaks the seat's side of the protocol (``docs/protocol.md``, "Bots run by the
referee"): before its first ``go`` of a game it is sent the game's public settings
(``option:`` and ``deck:`` lines, ``Session.settings``), before each ``go SEAT KIND`` line the
``event:`` lines its seat may see and its ``legal:``, ``form:`` and ``resign:`` lines, and it
answers with one line.

The referee never blocks on a bot and no bot outlives it. Each bot runs in a process group of
its own, which ``close`` ends whole (SIGTERM, then SIGKILL), with, on Linux, when the bot's
output or stderr still has a writer, the processes started since the bot that hold them or
are in the bot's session (``_end_strays``); a referee killed outright (SIGKILL, so nothing
of it runs) takes its bots' groups with it (``engine.orphans.watch``: a watcher process kills
them; and, on Linux, the parent-death signal ends the bot itself). There are no threads: the
bots' pipes are non-blocking and one selector loop (``_pump``) serves every bot whenever the
referee waits for any of them. Input goes through an outbox, written as the bot reads; output is read
as bytes and split into lines of at most ``MAX_LINE_BYTES``; stderr is drained all along, its
last lines end every failure reason and all of it may go to a log file (capped). A timeout, an
exit, a line too long, not UTF-8 or not asked for, a bot that stops reading: each raises
``BotFailure``, which the referee records as a forfeit.

In a match (``engine.arena``) a bot also gets the match lines (``docs/protocol.md``,
"Matches"): ``hello`` before its first ``go``, to which a ``name NAME`` line is the one answer
asked for before its first answer; ``finish`` (``result ...``) at the end; and ``new-game`` when
its process is kept for another game. ``arbiter play`` sends none of them.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from arbiter.engine import orphans
from arbiter.engine import procs
from arbiter.engine.bots import MACHINE_ERRNOS, STDERR_TAIL, BotFailure, MachineError
from arbiter.engine.errors import COMMAND_CHARS, ArbiterError, quoted
from arbiter.engine.lines import BOM, MAX_LINE_BYTES, BadLine, check_text, printable
from arbiter.engine.session import Session

MAX_UNSENT = 1 << 20
"""Bytes of input waiting for a bot that does not read them; beyond this it forfeits."""
LOG_CAP = 8 << 20
"""Bytes of a bot's stderr written to its log; the rest is dropped, after one notice line."""
LOG_NOTICE = b"[arbiter: log truncated, the bot wrote more than 8 MiB to stderr]\n"
EXIT_GRACE_S = 0.5  # how long a bot may take to exit once its input is closed, before SIGTERM
TERM_GRACE_S = 0.2  # ... and after SIGTERM, before SIGKILL
TAIL_LINES, TAIL_CHARS = 5, 200  # the stderr lines quoted in a failure reason
NAME_CHARS = 64  # the most of a bot's ``name`` kept
MATCH_PROTOCOL = 1  # the version a match's hello line announces
QUOTE_CHARS = 200  # the most of a bot's line quoted in a failure reason
_CHUNK = 1 << 16
_TICK_S = 0.05  # how often a waiting referee checks whether the bot's main process has exited


_selector: selectors.BaseSelector | None = None
_live: set[ProcessBot] = set()
_prctl: Any = None
"""libc's ``prctl``, loaded (ctypes: ~5 ms a command need not pay) when the first bot starts;
False where it cannot be."""


def _die_with_referee() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking Linux to kill the bot (SIGKILL) when the referee dies, or None
    where that is not to be had: not Linux, no ``prctl``, or where running code between fork
    and exec is not safe or not meant. The signal follows the thread that starts the child, so
    only the main thread asks (it lives as long as the process), and only while it is the one
    thread (the child of a process with threads may find a lock held for ever)."""
    global _prctl
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread() \
            or threading.active_count() != 1:
        return None
    if _prctl is None:
        try:
            import ctypes

            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            _prctl = False
    if not _prctl:
        return None
    prctl, parent = _prctl, os.getpid()

    def in_the_child() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the referee died before the signal was asked for
            os._exit(1)

    return in_the_child


def _loop() -> selectors.BaseSelector:
    global _selector
    if _selector is None:
        _selector = selectors.DefaultSelector()
        atexit.register(lambda: [bot.close() for bot in list(_live)])
    return _selector


def _pump(timeout: float) -> bool:
    """Serve the pipes of every running bot: wait up to ``timeout`` s for one to be ready, then
    read and write all that is ready. Whether any was."""
    sel = _loop()
    if not sel.get_map():
        time.sleep(timeout)
        return False
    ready = sel.select(timeout)
    for key, _ in ready:
        bot, stream = key.data
        bot._serve(stream)
    return bool(ready)


def _drain() -> None:
    """Take in what the bots have written so far, without waiting (bounded: a bot may write on)."""
    for _ in range(64):
        if not _pump(0):
            return


def _quote(data: bytes | bytearray, size: bool = True) -> str:
    """A bot's line for a failure reason: quoted, at most ``QUOTE_CHARS`` characters of it
    (then its size in bytes, if ``size``)."""
    text = bytes(data[: QUOTE_CHARS * 4]).decode("utf-8", "replace")
    if len(text) <= QUOTE_CHARS and len(data) <= QUOTE_CHARS * 4:
        return repr(text)
    return f"{text[:QUOTE_CHARS] + '…'!r}" + (f" ({len(data)} bytes)" if size else "")


def _open_log(seat: str, log: str | Path) -> BinaryIO:
    """The file a bot's stderr is appended to, unbuffered; an ``ArbiterError`` saying why not."""
    try:
        return open(log, "ab", buffering=0)  # noqa: SIM115 - the bot closes it in close()
    except OSError as exc:
        raise MachineError(f"cannot open the log of {seat}'s bot: {log}: {exc.strerror or exc}") from None



_BIDI_ESCAPES = {c: f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
"""The characters that reorder the text after them (embeddings, overrides, isolates) and their
escapes."""


def _name(text: str) -> str:
    """A bot's ``name NAME`` as the tournament keeps and reports it: at most ``NAME_CHARS``
    characters, a character that reorders the text after it (U+202E, a right-to-left override,
    say) written as its escape, so that a name cannot make the report's line around it read as
    something else. (Other characters Python does not call printable, a zero-width joiner in an
    emoji, are text, as in any line.)

    >>> _name("  evil\\u202etxt.exe ")
    'evil\\\\u202etxt.exe'
    """
    return printable(text.strip()).translate(_BIDI_ESCAPES)[:NAME_CHARS]


def _printable(data: bytes) -> str:
    """A line of a bot's stderr as its failure's reason quotes it: one printable line, a control
    character written as its escape (``\x1b``: the record keeps what the bot wrote, and a
    terminal shows it as written), cut at ``TAIL_CHARS`` characters (never inside an escape)."""
    text = data.decode("utf-8", "replace").strip()
    if text.isprintable() and len(text) <= TAIL_CHARS:
        return text
    out, size = [], 0
    for ch in text:
        piece = printable(ch)
        if size + len(piece) > TAIL_CHARS:
            return "".join(out) + "…"
        out.append(piece)
        size += len(piece)
    return "".join(out)


class ProcessBot:
    """An external program playing one seat over its stdin and stdout; see the module's text.

    ``log``: a file (in an existing folder) to append all of the bot's stderr to, up to
    ``LOG_CAP`` bytes."""

    def __init__(self, seat: str, command: str, timeout: float, log: Path | None = None) -> None:
        self.seat = seat
        self.command = command
        self.timeout = timeout
        self._told = (0, 0, 0)  # the game's log, moves and forfeits looked through so far (``Session.told``)
        self._set_up = False  # the game's settings were told (``Session.settings``, at its first go)
        self._closed = False
        self._outbox = bytearray()
        self._go_unsent = False  # the outbox ends with a go line
        self._asked = False  # a go line reached the bot and it has not answered yet
        self._answer: bytes | None = None
        self._bom_unseen = True  # a byte order mark at the start of its output is dropped, as a person's input's
        self._partial = bytearray()  # the start of the bot's next line
        self._eof = self._input_gone = False
        self._problem: str | None = None  # a line that breaks the protocol, noted when read
        self._code: int | None = None
        self._err_tail: deque[bytes] = deque(maxlen=TAIL_LINES)
        self._err_partial = bytearray()
        self._logged, self._log_nl, self._log_full = 0, True, False
        self._log: BinaryIO | None = None
        self._log_made: Path | None = None  # the log, where this bot made it (``_end_log``)
        self._watching: set[str] = set()
        self.name: str | None = None  # what the bot called itself (``name NAME``, in a match)
        self._name_open = False  # a ``name`` line is asked for (after a hello, until the first answer)
        try:
            argv = shlex.split(command)
            self._start_log(seat, log)
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0, start_new_session=True,
                                         preexec_fn=_die_with_referee())
            orphans.watch(self.proc.pid)  # its group (its pid: a session of its own) ends with the referee
        except (OSError, ValueError) as exc:
            self._end_log()  # a bot that never ran leaves no log behind
            machine = isinstance(exc, OSError) and exc.errno in MACHINE_ERRNOS
            error = MachineError if machine else ArbiterError
            # (the system's words alone: the program's name, in the command, was repeated whole)
            why = (exc.strerror or exc) if isinstance(exc, OSError) else exc
            raise error(f"cannot start bot for {seat}: {quoted(command, COMMAND_CHARS)}: {why}") from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._fd = {"in": self.proc.stdin.fileno(), "out": self.proc.stdout.fileno(),
                    "err": self.proc.stderr.fileno()}
        for fd in self._fd.values():
            os.set_blocking(fd, False)
        self._pipes = {f"pipe:[{os.fstat(fd).st_ino}]": os.O_RDONLY if stream == "in" else os.O_WRONLY
                       for stream, fd in self._fd.items()}  # the bot's ends of its pipes (``_end_strays``)
        _live.add(self)
        self._watch("out", True)
        self._watch("err", True)

    # -- the selector's side -------------------------------------------------------------------

    def _watch(self, stream: str, on: bool) -> None:
        if on and stream not in self._watching:
            events = selectors.EVENT_WRITE if stream == "in" else selectors.EVENT_READ
            _loop().register(self._fd[stream], events, (self, stream))
            self._watching.add(stream)
        elif not on and stream in self._watching:
            self._watching.discard(stream)  # first: a Ctrl-C between the two must not leave it to unregister twice
            with contextlib.suppress(KeyError):  # (unregistered already, when an interrupt came just after)
                _loop().unregister(self._fd[stream])

    def _serve(self, stream: str) -> None:
        if stream in self._watching:
            {"in": self._write, "out": self._read_out, "err": self._read_err}[stream]()

    def _write(self) -> None:
        try:
            while self._outbox:
                del self._outbox[: os.write(self._fd["in"], bytes(self._outbox[:_CHUNK]))]
        except BlockingIOError:
            pass
        except OSError:  # the bot closed its input (or died): nothing more will reach it
            self._input_gone = True
            self._outbox.clear()
            self._go_unsent = False
        if not self._outbox and self._go_unsent:
            self._go_unsent, self._asked = False, True
        self._watch("in", bool(self._outbox))

    def _read(self, stream: str) -> bytes | None:
        """What the bot wrote on ``stream`` (b"" at its end), None when nothing is there yet."""
        try:
            data = os.read(self._fd[stream], _CHUNK)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self._watch(stream, False)
        return data

    def _read_out(self) -> None:
        if not (data := self._read("out")):
            self._eof = self._eof or data == b""
            return
        self._partial += data
        if self._bom_unseen and (len(self._partial) >= len(BOM) or b"\n" in self._partial):
            self._bom_unseen = False  # (the very start of its output, a process's once: .NET writes one there)
            if self._partial.startswith(BOM):
                del self._partial[:len(BOM)]
        while self._problem is None and (end := self._partial.find(b"\n")) >= 0:
            line = bytes(self._partial[:end])
            del self._partial[: end + 1]
            if len(line) > MAX_LINE_BYTES + line.endswith(b"\r"):  # the \r of a CRLF is no part of the line
                self._violation(line)
            elif self._name_open and line.startswith(b"name ") and self._answer is None:
                self._name_open = False  # asked for by the hello; the first answer closes the offer
                text = check_text(line[5:])
                self.name = _name(text) if isinstance(text, str) and text.strip() else None
            elif line.startswith(b"name ") and self._answer is None:  # (no game has an input 'name')
                self._violation(line, f"the bot sent a name it was not asked for: {_quote(line)}")
            elif self._asked and self._answer is None:
                self._answer, self._asked, self._name_open = line, False, False
            else:  # (with the answer it came after, when that is not taken yet: the answer may be the fault)
                after = "" if self._answer is None else f" (after its answer {_quote(self._answer)})"
                self._violation(line, f"the bot sent a line it was not asked for: {_quote(line)}{after}")
        if self._problem is None and len(self._partial) > MAX_LINE_BYTES + self._partial.endswith(b"\r"):
            self._violation(self._partial)

    def _violation(self, line: bytes | bytearray, why: str | None = None) -> None:
        """Note the bot's first breach of the protocol and read no more of its output (which
        keeps what the referee holds of it bounded); the bot fails at its next turn."""
        self._problem = why or f"the bot sent a line longer than {MAX_LINE_BYTES} bytes: {_quote(line, False)}"
        self._partial.clear()
        self._watch("out", False)

    def _read_err(self) -> None:
        if (data := self._read("err")) is None:
            return
        self._log_write(data)
        data = data or b"\n"  # its end ends the last line
        *whole, rest = data.split(b"\n")
        if whole:
            self._err_partial += whole[0]
            whole[0] = bytes(self._err_partial)
            self._err_tail.extend([line[:1024] for line in whole[-TAIL_LINES * 4:] if line.strip()][-TAIL_LINES:])
            self._err_partial = bytearray()
        self._err_partial += rest[: 1024 - len(self._err_partial)]

    def _log_write(self, data: bytes) -> None:
        if self._log is None or self._log_full:
            return
        part = data[: LOG_CAP - self._logged]
        try:
            if part:
                self._log.write(part)
                self._logged += len(part)
                self._log_nl = part.endswith(b"\n")
            if len(part) < len(data):
                self._log.write((b"" if self._log_nl else b"\n") + LOG_NOTICE)
                self._log_full = True
        except OSError:  # a full disk, say: the game goes on without the log
            self._log_full = True

    # -- the referee's side ----------------------------------------------------------------------

    def _exit_code(self) -> int | None:
        """The main process's exit status once it has ended (negative: the signal that killed
        it). It is left unreaped until ``close``, so its pid, the group's id, is not reused."""
        if self._code is None:
            try:
                info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                if info is not None:
                    self._code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
            except AttributeError:  # no waitid (macOS before Python 3.13)
                self._code = self.proc.poll()
            except ChildProcessError:
                self._code = self.proc.returncode
        return self._code

    def _status(self) -> str:
        code = self._exit_code()
        if code is None or code >= 0:
            return "still running" if code is None else f"exit status {code}"
        return "killed by " + next((s.name for s in signal.Signals if s.value == -code), f"signal {-code}")

    def _settle(self, grace: float) -> None:
        """Serve the pipes until the bot's main process has exited, or ``grace`` s have passed."""
        end = time.monotonic() + grace
        while self._exit_code() is None and (left := end - time.monotonic()) > 0:
            _pump(min(left, 0.01))
        _drain()

    def _failure(self, reason: str) -> BotFailure:
        return BotFailure(self.explained(reason))

    def explained(self, reason: str) -> str:
        """``reason`` (why the bot loses), followed by the last lines the bot wrote on stderr if
        it wrote any: what every forfeit of the bot says, an illegal input's too (``Match``)."""
        _drain()
        lines = [*self._err_tail, bytes(self._err_partial)]
        tail = [text for text in map(_printable, lines) if text][-TAIL_LINES:]
        return reason + (STDERR_TAIL + " | ".join(tail) if tail else "")

    def _trouble(self) -> str | None:
        """Why the bot cannot answer (any more), or None while it still may."""
        if self._problem is None and self._answer is None and \
                (self._eof or self._input_gone or self._exit_code() is not None):
            self._settle(EXIT_GRACE_S)  # for its exit status, and what it wrote before it left
            if self._problem is None and self._answer is None:
                if self._eof:
                    return f"the bot closed its output ({self._status()})"
                return f"the bot {'closed its input' if self._input_gone else 'exited'} ({self._status()})"
        return self._problem

    def _block(self, session: Session) -> list[str]:
        """The lines before a go: at the game's first, its settings (``option:``, ``deck:``);
        news (the others' moves and the events, since the last go: a game's log is read once,
        not at every go), then what the seat may send, then the go."""
        settings = [] if self._set_up else session.settings()
        self._set_up = True
        lines, self._told = session.told(self.seat, self._told)  # (in a real-time game, its clock last)
        lines = settings + lines
        lines += session.choices(self.seat).lines()
        awaited = [a for a in session.state.awaiting() if a.seat == self.seat]
        return [*lines, f"go {self.seat} {awaited[0].kind if awaited else 'any'}"]

    # -- a match's lines (docs/protocol.md, "Matches") ------------------------------------------

    def _send(self, line: str) -> None:
        self._outbox += (line + "\n").encode("utf-8", "replace")
        self._write()

    def hello(self, game: str, variant: str) -> None:
        """Open a match: ``arbiter 1 GAME VARIANT SEAT``. The bot may answer ``name NAME``
        at any moment before its answer to its first ``go`` (nobody waits for it)."""
        self._name_open = True
        self._send(f"arbiter {MATCH_PROTOCOL} {game} {variant} {self.seat}")

    @property
    def reusable(self) -> bool:
        """Whether the bot may play another game: running, reading, and nothing it owes or broke."""
        _drain()
        return not (self._closed or self._problem is not None or self._eof or self._input_gone
                    or self._answer is not None or self._asked or self._exit_code() is not None)

    @property
    def gone(self) -> bool:
        """Whether the process has left (exited, or closed its output or input) without
        breaking the protocol and owing no answer: a reused bot that ended itself after its
        ``result``, which the worker may have picked for the next game before it was seen to."""
        _drain()
        return (self._problem is None and self._answer is None
                and (self._eof or self._input_gone or self._exit_code() is not None))

    def _start_log(self, seat: str, log: Path | None) -> None:
        """Open ``log`` (if any) for the bot's stderr, noting whether this bot makes it."""
        if log is not None:
            made = not os.path.lexists(log)
            self._log = _open_log(seat, log)
            self._log_made = Path(log) if made else None

    def _end_log(self) -> None:
        """Close the stderr log. One this bot made and left empty is removed: a bot silent on
        stderr leaves no file (a tournament of ``exec:`` bots kept an empty one per seat and game);
        one it appended to (a resumed game's) stays as it is."""
        log, made = self._log, self._log_made
        self._log = self._log_made = None
        if log is None:
            return
        try:
            empty = os.fstat(log.fileno()).st_size == 0
        except OSError:
            empty = False
        log.close()
        if empty and made is not None:
            with contextlib.suppress(OSError):
                os.unlink(made)

    def new_game(self, game: str, variant: str, seat: str, log: Path | None = None) -> None:
        """Play another game with the same process (``--reuse``): ``new-game GAME VARIANT SEAT``,
        a new seat, its events told from the new game's start, and its stderr appended to
        ``log`` from now on. It may answer ``name NAME`` again, as after the hello. What it
        wrote on stderr before is the last game's: a reason of this game does not quote it."""
        _drain()  # (what it wrote meanwhile goes to the last game's log)
        self._err_tail.clear()
        self._err_partial.clear()
        self.seat = seat
        self._told = (0, 0, 0)
        self._set_up = False
        self._go_unsent = self._asked = False
        self._answer = None
        self._end_log()
        self._start_log(seat, log)
        self._logged, self._log_nl, self._log_full = 0, True, False
        self._name_open = True  # it may name itself again, before its first answer of this game
        self._send(f"new-game {game} {variant} {seat}")

    def finish(self, outcome: str, text: str, grace: float = 1.0) -> None:
        """Tell the bot how the game ended, ``result OUTCOME TEXT`` (``won``, ``lost`` or
        ``none``), and give it up to ``grace`` s (at most its timeout) to read the line."""
        if self._closed:
            return
        self._send(f"result {outcome} {' '.join(text.split())}")
        end = time.monotonic() + min(grace, self.timeout)
        while self._outbox and not self._input_gone and (left := end - time.monotonic()) > 0:
            _pump(min(left, _TICK_S))

    # -- a turn -----------------------------------------------------------------------------

    def choose(self, session: Session) -> str | None:
        if self._closed:
            raise BotFailure("the bot was closed")
        _drain()  # whatever it wrote since its last turn is not an answer to this one
        if (why := self._trouble()) is not None:
            raise self._failure(why)
        deadline = time.monotonic() + self.timeout
        self._outbox += "".join(line + "\n" for line in self._block(session)).encode("utf-8", "replace")
        self._go_unsent = True
        self._write()
        while self._answer is None:
            if (why := self._trouble()) is not None:
                raise self._failure(why)
            if len(self._outbox) > MAX_UNSENT:
                raise self._failure(f"the bot stopped reading its input ({len(self._outbox)} bytes wait for it)")
            if (left := deadline - time.monotonic()) <= 0:
                raise self._failure(f"no answer within {self.timeout:g} s")
            _pump(min(left, _TICK_S))
        if self._problem is not None:  # more lines came with the answer
            raise self._failure(self._problem)
        line, self._answer = self._answer, None
        text = check_text(line)  # the same rules as a person's line: UTF-8, no control characters
        if isinstance(text, BadLine):
            raise self._failure(f"the bot sent a line that cannot be read: {text.problem}: {_quote(line)}")
        words = text.split()
        if not words:
            raise self._failure("the bot sent an empty line")
        if words[0].lower() == self.seat.lower():  # a full line, its seat first
            words = words[1:]
        if len(words) == 1 and words[0].lower() == "wait" and session.state.realtime:
            return None  # a real-time game: nothing to do now (words are read in any case)
        if words and words[0].startswith("@"):  # (the game would call '@3' an unknown action)
            raise self._failure(f"the bot stamped its line with a time: {_quote(line)}; a bot sends its input "
                                "alone, and the referee keeps the clock")
        return " ".join(words)

    def _held(self) -> bool:
        """Whether a process still holds the bot's end of its output or its stderr (the pipe has
        a writer left) after its group was ended."""
        poller = select.poll()
        for stream in ("out", "err"):
            poller.register(self._fd[stream], select.POLLIN)
        hung_up = {fd for fd, mask in poller.poll(0) if mask & select.POLLHUP}  # (a pipe with no writer left)
        return hung_up != {self._fd["out"], self._fd["err"]}

    def _end_strays(self) -> None:
        """Kill (SIGKILL) what is left of the bot once its process group is ended, when its
        output or its stderr still has a writer: each process started since the bot (one older
        is spared: the bot may hand its pipes to a server) that holds the bot's end of one of
        its pipes, having left the bot's session (``setsid``), or that is still in the bot's
        session, having left its group (``setpgid``). Out of the group's reach, either outlived
        the referee, one more each game of a tournament. Found in ``/proc`` (Linux; elsewhere
        they are left as they are), and only where a pipe shows a writer left: a search of every
        process costs a millisecond or more a bot (0.1 s with 2,000 processes), which every game
        of bots that ended as asked would pay. A process that let go of the bot's output and
        stderr is no longer the bot's to the referee."""
        if not (os.path.isdir("/proc/self/fd") and hasattr(select, "poll") and self._held()):
            return
        try:
            born = procs.started(self.proc.pid)  # (the bot is unreaped yet: its pid is its own)
        except OSError:
            return
        for _ in range(3):  # (again, for a child one forked just before it was killed)
            strays = procs.strays(self.proc.pid, self._pipes, born)
            if not strays:
                return
            for pid in strays:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            end = time.monotonic() + TERM_GRACE_S
            while any(map(procs.running, strays)) and time.monotonic() < end:  # (SIGKILL takes a moment)
                time.sleep(0.005)
            if not self._held():
                return

    def close(self) -> None:
        """Close the bot's input and give it ``EXIT_GRACE_S`` to exit (no wait if it does), then
        end its whole process group: SIGTERM, SIGKILL, and reap it. Idempotent."""
        if self._closed:
            return
        self._closed = True
        _live.discard(self)
        ended = False
        try:
            self._watch("in", False)
            self._outbox.clear()
            self.proc.stdin.close()  # type: ignore[union-attr]
            self._settle(EXIT_GRACE_S)
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                if sig == signal.SIGTERM:
                    self._settle(TERM_GRACE_S)
            self._end_strays()
            ended = True
            _drain()  # the last of its stderr, for the log
        finally:
            if not ended:  # an exception (a worker's stop) came before the group was ended: end it now,
                try:  # before the watcher lets go of it below, or the bot's children outlive the run
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                self._end_strays()  # (and its children out of the group: a second stop left them running)
            self._watch("out", False)
            self._watch("err", False)
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
            self._end_log()
            orphans.unwatch(self.proc.pid)  # (before its pid is freed for another process's use)
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:  # stuck in the kernel: Popen reaps it later
                pass

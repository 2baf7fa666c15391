"""The ``arbiter`` command's first code (its console script, ``python -m arbiter``): a Ctrl-C
at any instant of the run ends it with one line on stderr and status 130, as ``arbiter --help``
documents, never with a Python traceback.

The command's modules are imported here, inside the handler, not by the script's own import
line (Click alone is ~30 ms to import, a window a Ctrl-C can land in); and ``LazyGroup.invoke``
(``cli/main.py``) takes over once Click runs a command, which Click would otherwise end with
``Aborted!`` and status 1; both count a Ctrl-C that CPython 3.11 wrapped on its way out as
one (``is_interrupt``). Commands that stop cleanly on Ctrl-C say how far they got themselves
(``common.interrupted``). Only the interpreter's own start-up, before this module runs, is
beyond reach. SIGTERM and SIGHUP stop a run as Ctrl-C does (``_stop_on_termination``). This
module imports nothing but ``sys`` (and the C ``_signal``).
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

EXIT_INTERRUPTED = 130
"""The status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)."""

EXIT_READER_GONE = 141
"""The status of a run whose output's reader went away (``arbiter replay *.yaml | head``):
128 + SIGPIPE, what a shell reports for any program stopped that way."""


class _Stderr:
    """Standard error as the command writes it: messages and decoration, which a stderr that
    refuses writes (``2>/dev/full``, a full disk) must not turn into another exit status (a
    usage error's 2 became 1) or a Python traceback. Everything else is the stream's own."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)  # type: ignore[no-any-return]
        except OSError:
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError:
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run() -> None:
    """Run the ``arbiter`` command on ``sys.argv``."""
    _stop_on_termination()
    _hold_closed_streams()
    if sys.stderr is not None:
        sys.stderr = _Stderr(sys.stderr)
    try:
        from arbiter.cli.main import main
    except (KeyboardInterrupt, RuntimeError) as exc:
        if not is_interrupt(exc):
            raise
        interrupted("interrupted")
    status: object = _RUNNING
    try:
        main()
    except SystemExit as end:  # (Click ends every run so, with the command's status)
        status = end.code
        raise
    finally:  # the command is done (its status set): a late Ctrl-C or kill changes nothing now
        import _signal

        for name in ("SIGINT", "SIGTERM", "SIGHUP"):
            if (number := getattr(_signal, name, None)) is not None:
                _signal.signal(number, _signal.SIG_IGN)
        if status is not _RUNNING:  # (once the signals are ignored: a Ctrl-C while a slow reader holds
            _last_flush(status)  # the flush up is no traceback, as the interpreter's own flush was none)


_RUNNING = object()
"""``run``'s status while the command has not ended."""


def _last_flush(status: object) -> None:
    """Flush standard output as the command ends, where a refusal can still be said: left to
    the interpreter's own last flush, it prints "Exception ignored ..." and turns the status
    into 120. A write that a full disk refused can stay in the stream's buffer (when the output
    is buffered, as it is in a file or a pipe), so even a command that said the refusal would
    meet it again there. After a run that succeeded (status 0), the refusal ends it as any refused
    write does (``output_failed``: one line, status 1; the reader gone, status 141); after one
    that failed, and said why, standard output goes to ``/dev/null`` and the status stays."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError) as exc:  # (ValueError: a stream some code closed; nothing is left)
        if isinstance(exc, OSError) and status in (None, 0):
            if isinstance(exc, BrokenPipeError) and output_gone():
                reader_gone()
            output_failed(exc)
        _stdout_to_null()


def _hold_closed_streams() -> None:
    """Hold each standard stream the command was started without (``>&-``, ``2>&-``, ``<&-``).
    Python leaves such a stream None in ``sys``, and writes to it go nowhere: ``arbiter games
    >&-`` ended with status 0, having shown nothing. Its descriptor is free, too: the first file
    the command opens (a transcript) would take it, and whatever writes there (a fatal error's
    message on descriptor 2, a child that inherits it) would write into that file. Each closed
    one is held by ``/dev/null``: standard output opened for reading, so that every write to it
    is refused with the system's "Bad file descriptor", and the command says so as for any
    output that refuses writes (one line, status 1); standard error opened for writing, taking
    messages nowhere, as before; standard input opened for reading, left None in ``sys`` (the
    input is over before it starts, as before)."""
    import os

    held = []
    for fd, flags in ((0, os.O_RDONLY), (1, os.O_RDONLY), (2, os.O_WRONLY)):  # (lowest first: open takes it)
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        try:
            null = os.open(os.devnull, flags)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            os.set_inheritable(fd, True)
        except OSError:
            continue
        held.append(fd)
    if 1 in held and sys.stdout is None:  # (every write fails, and nothing else: no encoding can)
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    if 2 in held and sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)


def _stop_on_termination() -> None:
    """SIGTERM (``kill``, a service manager) and SIGHUP (the terminal closed) stop the run as a
    Ctrl-C does, so it ends the same clean way: ``play`` ends its bots and their children in
    good order (SIGTERM first; a referee that simply died leaves that to its watcher, which
    kills them outright, ``engine.orphans``) and names the transcript to resume, a tournament
    stops its workers. A signal the parent set to be ignored (``nohup``) stays ignored. (The
    C module, not ``signal``: nothing more to import before the handler is in place.)"""
    import _signal

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(_signal, name, None)
        if number is not None and _signal.getsignal(number) == _signal.SIG_DFL:
            _signal.signal(number, _signal.default_int_handler)


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C: a ``KeyboardInterrupt``, or one that CPython 3.11 wrapped on
    its way out of a class being made while a module imports (``RuntimeError: Error calling
    __set_name__ ...``, the interrupt its cause)."""
    seen: BaseException | None = exc
    while isinstance(seen, RuntimeError):
        seen = seen.__cause__
    return isinstance(seen, KeyboardInterrupt)


def output_gone() -> bool:
    """Whether standard output is a pipe whose reader has gone (closed its end): on Linux a
    poll of the write end says so with ``POLLERR``. A broken pipe elsewhere (a bot's stdin)
    is not this, and is not hidden by it."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(flags & select.POLLERR for _, flags in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def reader_gone() -> NoReturn:
    """End the run quietly with status 141 once standard output's reader has gone: the
    conventional end of a program piped into ``head``. Standard output is pointed at
    ``/dev/null`` first, so the interpreter's last flush has nowhere to fail."""
    _stdout_to_null()
    sys.exit(EXIT_READER_GONE)


def _stdout_to_null() -> None:
    """Point standard output at ``/dev/null``: what is left to write (the interpreter's last
    flush) goes nowhere, and cannot fail."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (AttributeError, OSError, ValueError):
        pass


def output_refused(exc: OSError) -> bool:
    """Whether ``exc`` came from writing standard output that refuses writes (a full disk,
    ``> /dev/full``, an I/O error): the innermost code it passed through is Click's ``echo``
    (or ``common.echo_counted``) writing to standard output. Another file's failure is not
    this, and is not hidden by it; nor is a broken pipe, its reader gone (``reader_gone``)."""
    if isinstance(exc, BrokenPipeError):
        return False
    frame, tb = None, exc.__traceback__
    while tb is not None:
        frame, tb = tb.tb_frame, tb.tb_next
    if frame is None or frame.f_code.co_name not in ("echo", "echo_counted"):
        return False
    stream = frame.f_locals.get("file")
    try:
        return stream is not None and stream.fileno() == sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False


def output_failed(exc: OSError, more: str = "") -> NoReturn:
    """End the run with status 1 and one line on stderr once standard output refused a write:
    what was wrong (the system's words) and ``more`` (what the run leaves, to resume it, say).
    Standard output is pointed at ``/dev/null`` then, as ``reader_gone`` does."""
    try:
        sys.stderr.write(f"Error: cannot write to standard output: {exc.strerror or exc}{more}\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass
    _stdout_to_null()
    sys.exit(1)


def interrupted(message: str) -> NoReturn:
    """Say ``message`` on stderr and end with status 130 (after a Ctrl-C the command handled).

    The ``exec("")`` first clears CPython 3.11's mark of an unhandled Ctrl-C: a KeyboardInterrupt
    that left code compiled from a string (a named tuple being made while a module imports, say)
    sets the mark even when a caller catches it, and ``python -m arbiter`` would then end killed
    by SIGINT after its message instead of with this status. Running such code resets the mark.
    """
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # stderr None, closed or gone: the status still says it
        pass
    exec("")  # a constant, empty: see the docstring
    sys.exit(EXIT_INTERRUPTED)

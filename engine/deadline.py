"""A time limit on Python code called in the main thread: when the time is up, ``TimeUp`` is
raised in that code, and again every ``REPEAT_S`` while it goes on, whether it computes or waits
in the system (a ``sleep``, a socket read: a signal ends the wait). ``engine.agents`` holds a
``py:`` agent to its seat's time with it.

The limited code runs under ``run``'s frame, inside ``limited(seconds)``. When the time is up a
signal (``SIGNAL``) comes to the main thread, and its handler raises ``TimeUp`` only if the
thread is in code that frame called: never in the caller's code around it (a signal that came
just as the call returned does nothing but mark the time as run out). On Linux the signal comes
from a POSIX timer aimed at the main thread (``engine.threadtimer``: a few microseconds a call,
which an agent that answers in microseconds would feel); elsewhere from a thread started for the
call (a few hundred). Where neither can be had (not the main thread, which alone runs signal
handlers; a system without the signal) the code runs untimed.

>>> import time
>>> with limited(0.05) as expired:
...     try:
...         run(time.sleep, 5)
...     except TimeUp:
...         print("time up")
time up
>>> expired
[True]
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arbiter.engine.threadtimer import MainThreadTimer

SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR2", None)
"""The signal that brings the time-up. Its handler is this module's from the first limit on
(put back, a signal sent as a limit ended would meet the signal's default action, the end of the
process), and does nothing outside limited code. Each limit unblocks it in the main thread: a
process starts with the signal mask of the thread that started it, and a referee started with
it blocked never took the time-up (an agent past its time played on, its late answer taken)."""
REPEAT_S = 0.5
"""How often ``TimeUp`` is raised again in code that caught it and went on."""

try:  # the C functions under ``signal``'s: its wrappers make enums of what they return, 2 us of the
    from _signal import getsignal as _getsignal  # 10 a limit cost (an agent answering in 20 us feels it)
    from _signal import pthread_sigmask as _sigmask
except ImportError:  # (another Python, or a system without the mask)
    _getsignal = signal.getsignal
    _sigmask = getattr(signal, "pthread_sigmask", None)


class TimeUp(BaseException):
    """Raised in limited code when its time is up: a ``BaseException``, as ``KeyboardInterrupt``
    is, so that the code's ``except Exception`` lets it through."""


def run(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``: what ``limited`` limits is what this frame calls, through ``_called``'s
    frame: a C function (``time.sleep``) runs in its caller's frame, and this one's is where the
    call has not begun or has returned."""
    return _called(fn, args)


def _called(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    return fn(*args)


_RUN = run.__code__
_flag: list[bool] | None = None  # the running limit's flag (``limited`` yields it), set when a time-up comes


def _time_up(signum: int, frame: FrameType | None) -> None:
    """The signal's handler: mark the running limit's time as run out, and raise ``TimeUp`` if
    the main thread is in limited code (a frame called from ``run``'s, not that frame itself,
    where the call has not begun or has returned). With no limit running (a signal left from one
    that ended, or not arbiter's) it does nothing."""
    if _flag is None:
        return
    _flag[0] = True
    if frame is None or frame.f_code is _RUN:
        return
    f = frame.f_back
    while f is not None:
        if f.f_code is _RUN:
            raise TimeUp
        f = f.f_back


class limited:
    """``with limited(seconds) as flag:`` runs the block, whose ``run`` calls are the limited
    code, with ``seconds`` to end in (None: untimed). The flag is ``[True]`` once the time has
    run out (whatever the code did then): set by the signal's handler, and, at the block's end,
    by the clock, should the signal not have ended it (code that blocked or replaced the signal,
    a long call into C code: it ends late, and late it is). A limit inside another's block
    (limited code that limits code of its own) is not kept: the outer one is, and there is one
    timer. (A class, not a generator's context: a limit is paid at every call of an agent.)"""

    __slots__ = ("seconds", "flag", "_start", "_timer", "_watch")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.flag = [False]
        self._start: float | None = None

    def __enter__(self) -> list[bool]:
        global _flag
        seconds = self.seconds
        if seconds is None or SIGNAL is None or not hasattr(signal, "pthread_kill") or _flag is not None \
                or threading.current_thread() is not threading.main_thread():
            return self.flag
        if _getsignal(SIGNAL) is not _time_up:
            signal.signal(SIGNAL, _time_up)
        if _sigmask is not None:  # (a process starts with its starter's mask, which may block it)
            _sigmask(signal.SIG_UNBLOCK, (SIGNAL,))
        timer = _timer()
        self._timer, self._watch = timer, None
        self._start = time.monotonic()
        _flag = self.flag
        try:
            if timer is None or not timer.arm(seconds):
                self._timer = None
                self._watch = _Watch(seconds)
                self._watch.start()
        except BaseException:  # (a signal's exception, Ctrl-C, between the steps; a thread that
            self.__exit__()  # cannot start): no limit left running, which disabled every later one
            raise
        return self.flag

    def __exit__(self, *exc: object) -> None:
        global _flag
        if self._start is None:  # (untimed)
            return
        try:
            if self._watch is not None:
                self._watch.stop()
            elif self._timer is not None:
                self._timer.disarm()
        finally:
            _flag = None
            if time.monotonic() - self._start >= self.seconds:  # type: ignore[operator]
                self.flag[0] = True


class _Watch:
    """Where there is no timer: a thread that sends the main thread the signal when the time is
    up, and again every ``REPEAT_S``, from ``start`` until ``stop``."""

    def __init__(self, seconds: float) -> None:
        main, self._done = threading.get_ident(), threading.Event()
        done = self._done

        def watch() -> None:
            if done.wait(seconds):
                return
            while True:
                signal.pthread_kill(main, SIGNAL)  # type: ignore[arg-type]
                if done.wait(REPEAT_S):
                    return

        self._thread = threading.Thread(target=watch, name="arbiter-deadline", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        try:
            self._thread.join()
        except RuntimeError:  # (never started: it ends at once, its time over before it began)
            pass


_the_timer: MainThreadTimer | None | bool = None  # made at the first limit; False where none can be


def _timer() -> MainThreadTimer | None:
    """This process's timer (a process made by ``fork`` makes its own: timers are not inherited),
    or None where there is none to be had (not Linux, or the system refused one)."""
    global _the_timer
    timer = _the_timer
    if timer is False:
        return None
    if timer is not None and timer.pid == os.getpid():  # type: ignore[union-attr]
        return timer  # type: ignore[return-value]
    if not sys.platform.startswith("linux"):
        _the_timer = False
        return None
    try:
        from arbiter.engine.threadtimer import MainThreadTimer  # (ctypes: at the first limit, not at start-up)
        _the_timer = MainThreadTimer(SIGNAL, REPEAT_S)  # type: ignore[arg-type]
    except (OSError, AttributeError, ImportError):  # (no such function in this libc, no timer for this
        # process, or no ctypes in this Python: then the limit is kept by a thread, not blamed on the agent)
        _the_timer = False
        return None
    return _the_timer

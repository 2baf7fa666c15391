"""A POSIX timer aimed at this process's main thread (Linux's ``timer_create`` with
``SIGEV_THREAD_ID``, through ``ctypes``): its expiry sends a signal to that thread alone, with no
thread of Python's to wait for it. ``engine.deadline`` keeps a ``py:`` agent's time with it, and
imports this module at the first limit only: ``ctypes`` cost every ``arbiter play`` about 2 ms
of its start-up, with or without an agent to time.
"""

from __future__ import annotations

import ctypes
import os
import threading


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


class _Sigevent(ctypes.Structure):
    """Linux's ``struct sigevent`` (64 bytes), as far as a signal aimed at one thread needs."""

    _fields_ = [("sigev_value", ctypes.c_void_p), ("sigev_signo", ctypes.c_int), ("sigev_notify", ctypes.c_int),
                ("sigev_notify_thread_id", ctypes.c_int),
                ("_pad", ctypes.c_byte * (64 - ctypes.sizeof(ctypes.c_void_p) - 3 * ctypes.sizeof(ctypes.c_int)))]


_CLOCK_MONOTONIC, _SIGEV_THREAD_ID = 1, 4


def _spec(seconds: float, repeat: float) -> _Itimerspec:
    """The timer's setting: first after ``seconds``, then every ``repeat``, each in whole
    nanoseconds below a second (0.9999999999 s is 1 s 0 ns: 1,000,000,000 ns the system refuses).

    >>> t = _spec(0.9999999999, 0.5)
    >>> (t.it_value.tv_sec, t.it_value.tv_nsec), (t.it_interval.tv_sec, t.it_interval.tv_nsec)
    ((1, 0), (0, 500000000))
    """
    def ts(s: float) -> _Timespec:
        whole, ns = divmod(round(s * 1e9), 1_000_000_000)
        return _Timespec(whole, ns)
    return _Itimerspec(ts(repeat), ts(seconds))


class MainThreadTimer:
    """A POSIX timer of this process's (Linux) whose expiry sends ``signo`` to the main thread,
    first after the time ``arm`` gives it, then every ``repeat`` seconds until ``disarm``."""

    def __init__(self, signo: int, repeat: float) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        self._settime = libc.timer_settime
        self._settime.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_Itimerspec), ctypes.c_void_p]
        create = libc.timer_create
        create.argtypes = [ctypes.c_int, ctypes.POINTER(_Sigevent), ctypes.POINTER(ctypes.c_void_p)]
        event = _Sigevent(sigev_signo=signo, sigev_notify=_SIGEV_THREAD_ID,
                          sigev_notify_thread_id=threading.main_thread().native_id)
        self.id = ctypes.c_void_p()
        if create(_CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(self.id)) != 0:
            raise OSError(ctypes.get_errno(), "timer_create")
        self.pid, self.repeat = os.getpid(), repeat
        self._off = _spec(0, 0)
        self._armed: tuple[float, _Itimerspec] | None = None

    def arm(self, seconds: float) -> bool:
        """Start the time (False: the system refused, and the limit must be kept otherwise)."""
        if self._armed is None or self._armed[0] != seconds:  # (made once for a bot's time)
            self._armed = (seconds, _spec(max(seconds, 1e-9), self.repeat))
        return self._settime(self.id, 0, ctypes.byref(self._armed[1]), None) == 0

    def disarm(self) -> None:
        self._settime(self.id, 0, ctypes.byref(self._off), None)

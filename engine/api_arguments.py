"""The library's arguments checked (``engine/api.py``, ``engine/api_game.py``): a time in
seconds given to ``play`` or ``wait``, a count of inputs, a file's path, and a time written back
in seconds (``seconds_name``). A value of the wrong type is a ``TypeError`` naming the call and
what it takes; one out of range a ``ValueError`` (a ``TimeError``, for a time), never an error
from deep inside Python.
"""

from __future__ import annotations

import decimal
import numbers
import os
from pathlib import Path
from typing import Any

from arbiter.engine import clock
from arbiter.engine.clock import MAX_MS, parse_seconds
from arbiter.engine.errors import SyntaxInputError, TimeError
from arbiter.engine.session import clipped, whole_number


def checked_time(method: str, time: Any) -> int:
    """A time in seconds given to ``play`` or ``wait``, in milliseconds (to the nearest one).
    A number that is no moment of the game's clock (negative, past its last moment, NaN or
    infinite) is a ``TimeError``, as a time before the clock is: it was a ``SyntaxInputError``,
    the protocol's refusal of a stamp's unreadable text (``@-1``), though no text was read.

    >>> checked_time("play", 1.5), checked_time("wait", -0.0)
    (1500, 0)
    >>> checked_time("play", -1)
    Traceback (most recent call last):
    ...
    arbiter.engine.errors.TimeError: play: time -1 is not a moment of the game: a time is seconds from 0 to ...
    """
    time = whole_number(time)  # (an int of numpy's, or of any class with ``__index__``: a plain int)
    if isinstance(time, bool) or not isinstance(time, (numbers.Real, decimal.Decimal)):
        raise TypeError(f"{method}: time is seconds (a number), not {type(time).__name__}")
    if isinstance(time, int) and 0 <= time <= MAX_MS // 1000:
        return int(time) * 1000  # (what parse_seconds reads of "N.000"; a float of a huge int overflows)
    try:
        if not isinstance(time, int):  # (a float, a Fraction, a Decimal: to the millisecond)
            return parse_seconds(f"{float(time) + 0.0:.3f}")  # (-0.0 + 0.0 is 0.0, read as 0, not '-0.000')
    except (SyntaxInputError, OverflowError, ValueError):
        pass
    shown = number_named(time) if isinstance(time, int) else repr(time) if len(repr(time)) <= 24 else f"{repr(time)[:20]}..."
    raise TimeError(f"{method}: time {shown} is not a moment of the game: a time is seconds from 0 to "
                    f"{seconds_name(MAX_MS)}, not before the clock")


def seconds_name(ms: int) -> str:
    """A time in milliseconds as the protocol and the events write it, in seconds: the shortest
    exact decimal (``clock.seconds_name``). A value that is not a whole number is a
    ``TypeError`` (``1.5`` was a ``ValueError`` from a format code, ``True`` read as 1 ms).

    >>> seconds_name(1500), seconds_name(180000), seconds_name(-1500)
    ('1.5', '180', '-1.5')
    """
    ms = whole_number(ms)
    if type(ms) is not int:
        raise TypeError(f"seconds_name: a time is whole milliseconds (an int), not {type(ms).__name__}")
    if ms.bit_length() > 13_000:  # (str() of over 4,300 digits is Python's own ValueError)
        raise ValueError(f"seconds_name: {clipped(ms)} is too long to write as a time")
    return clock.seconds_name(ms)


def checked_count(method: str, max_inputs: Any) -> int:
    """``max_inputs``, a whole number from 0, as a plain int: a str was a ``TypeError`` comparing
    it with an int, and a negative one (or ``True``, or ``1.5``) was taken, the loop ending at
    once or running one input more than was said.

    >>> checked_count("agent_iter", -1)
    Traceback (most recent call last):
    ...
    ValueError: agent_iter: max_inputs is a whole number from 0, not -1
    """
    count = whole_number(max_inputs)
    if type(count) is not int:
        raise TypeError(f"{method}: max_inputs is a whole number (an int), not {type(max_inputs).__name__}")
    if count < 0:
        raise ValueError(f"{method}: max_inputs is a whole number from 0, not {number_named(count)}")
    return count


def checked_path(method: str, path: Any) -> str | Path:
    """``path``, a file's path (a ``str``, kept as written for the messages that name it, or an
    ``os.PathLike``, as a ``Path``): another value was refused by ``pathlib`` or ``open``, in
    words that named neither the method nor what it takes (``expected str, bytes or os.PathLike
    object, not NoneType``)."""
    path = fs_path(path)
    if isinstance(path, (str, Path)):
        return path
    raise TypeError(f"{method}: path is a file's path (a str or a Path), not {type(path).__name__}")


def fs_path(path: Any) -> Any:
    """A path object naming a file by text (an ``os.PathLike``: a ``PurePosixPath``, another
    library's) as a ``Path``; anything else (a ``str``, a ``Path``, ``bytes``) as it is."""
    if isinstance(path, os.PathLike) and not isinstance(path, Path):
        named = os.fspath(path)
        if isinstance(named, str):
            return Path(named)
    return path


def number_named(value: int) -> str:
    """A whole number as an error names it: its digits, or how many of them past 20."""
    return str(int(value)) if abs(value) < 10 ** 20 else clipped(int(value))


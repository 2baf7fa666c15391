"""Virtual time: milliseconds inside, decimal seconds in the protocol and transcripts.

>>> parse_seconds("12.5")
12500
>>> seconds_name(12500)
'12.5'
"""

from __future__ import annotations

import re

from arbiter.engine.errors import SyntaxInputError, quoted

_SECONDS = re.compile(r"^([0-9]{1,9})(?:\.([0-9]{1,3}))?$")
MAX_MS = 999_999_999_999
"""The latest time a stamp can name; the clock never goes past it."""


def parse_seconds(text: str) -> int:
    """Decimal seconds (from 0 to ``MAX_MS``'s, at most 3 decimals) to milliseconds."""
    m = _SECONDS.match(text)
    if not m:
        raise SyntaxInputError(
            f"bad time {quoted(text)}: expected seconds like 12 or 12.5 (from 0 to {seconds_name(MAX_MS)}, "
            "at most 3 decimals)",
            ["@SECONDS COMMAND"],
        )
    whole, frac = m.group(1), (m.group(2) or "").ljust(3, "0")
    return int(whole) * 1000 + int(frac)


def seconds_name(ms: int) -> str:
    """Milliseconds as the shortest exact decimal seconds (below 0 too: ``divmod`` rounds toward
    minus infinity, which wrote ``-1500`` as ``-2.5``).

    >>> seconds_name(1500), seconds_name(180000), seconds_name(-1500)
    ('1.5', '180', '-1.5')
    """
    if ms < 0:
        return "-" + seconds_name(-ms)
    whole, frac = divmod(ms, 1000)
    return f"{whole}.{frac:03d}".rstrip("0").rstrip(".") if frac else str(whole)

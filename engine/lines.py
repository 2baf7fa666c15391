"""Reading protocol lines: one reader for a terminal, a pipe and a file of moves.

Lines are read as bytes and split on ``\\n`` only (a stray ``\\r`` inside a line is white space,
as the protocol says), capped at ``MAX_LINE_BYTES``, and decoded as UTF-8 by the reader, so a
line that is too long or not UTF-8 becomes a refusal the session answers, never a crash.
"""

from __future__ import annotations

MAX_LINE_BYTES = 8192
"""The longest protocol line, in bytes without its newline, that the referee reads from a
person, a file of moves or a bot; a longer one is refused (a bot that sends one forfeits)."""

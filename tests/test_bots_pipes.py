"""What passes through an external bot's pipes: the referee's writing never blocks on a bot that
stops reading (its unread input is capped) or closed its input, and a bot's lines are bytes,
capped at ``MAX_LINE_BYTES`` and checked as a person's are (UTF-8, no control characters, no
time stamp): a line refused is a forfeit at once, with a short, clear reason.

Each call runs under a watchdog thread (``within``, ``tests/hostile.py``), so a referee that
hangs fails the test instead of hanging the suite; the bots are tiny scripts run with this Python.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import (
    within, script, launch, duel, fake_session, failure_of, failure_then_close, PLAIN_BOT, DEAF, ANSWER_BYTES,
    HALF_LINE_THEN_HANG, TEN_MB_LINE,
)
from arbiter.engine.arena.stats import forfeit_kind
from arbiter.engine.programs import ProcessBot
from arbiter.engine.lines import MAX_LINE_BYTES


# -- writing never blocks ----------------------------------------------------------------------


CLOSES_ITS_INPUT = r'''
import os, time
os.close(0)
READY()
time.sleep(987654)
'''


def test_a_bot_that_closed_its_input_fails_saying_so(tmp_path: Path) -> None:
    bot = launch(tmp_path, "deafened", CLOSES_ITS_INPUT, timeout=5)
    reason, took = failure_then_close(bot, fake_session([]))
    assert (reason, took < 2) == ("the bot closed its input (still running)", True)


def test_a_bot_that_stops_reading_fails_once_its_unread_input_passes_the_cap(tmp_path: Path) -> None:
    bot = launch(tmp_path, "deaf", DEAF, timeout=10)
    try:
        reason, took = failure_of(bot, fake_session(["z" * 5000] * 300))  # 1.5 MB to send
        assert reason.startswith("the bot stopped reading its input"), reason
        assert took < 2
    finally:
        within(3, bot.close)


def test_a_large_turn_reaches_a_bot_that_reads_it(tmp_path: Path) -> None:
    """900 kB of events, under the cap: written as the bot reads, while the referee waits."""
    log = tmp_path / "told.txt"
    bot = ProcessBot("p", script(tmp_path, "plain", PLAIN_BOT, log), 10)
    try:
        assert within(15, bot.choose, fake_session(["z" * 5000] * 180)) == "pass"
    finally:
        within(3, bot.close)
    told = log.read_text(encoding="utf-8").splitlines()
    assert len(told) == 182 and told[-2:] == ["legal: pass", "go p any"]


# -- lines are bytes, capped -----------------------------------------------------------------------


def test_a_10_mb_line_fails_at_once_with_a_short_reason(tmp_path: Path) -> None:
    bot = launch(tmp_path, "long", TEN_MB_LINE, timeout=1, seat="mafia")
    reason, took = failure_then_close(bot, duel())
    assert took < 0.6, f"{took:.2f} s to refuse the line"
    assert reason.startswith(f"the bot sent a line longer than {MAX_LINE_BYTES} bytes"), reason
    assert len(reason) < 300, reason


@pytest.mark.parametrize("size, ending", [(MAX_LINE_BYTES, b"\n"), (MAX_LINE_BYTES, b"\r\n"),
                                          (MAX_LINE_BYTES + 1, b"\n")])
def test_the_line_cap_is_exact_and_a_long_line_fails_before_it_ends(tmp_path: Path, size: int,
                                                                     ending: bytes) -> None:
    if size == MAX_LINE_BYTES:  # the longest line a bot may send, held a moment, then its newline
        # (the \r of a CRLF ending is sent with the line: it is no part of it)
        answer = ("pass" + " " * (size - 4)).encode() + ending[:-1]
        bot = ProcessBot("p", script(tmp_path, "max", ANSWER_BYTES, answer.hex(), b"\n".hex()), 2)
        try:
            assert within(5, bot.choose, fake_session([])) == "pass"
        finally:
            within(3, bot.close)
        return
    bot = launch(tmp_path, "half", HALF_LINE_THEN_HANG, size, timeout=1)
    reason, took = failure_then_close(bot, fake_session([]))
    assert took < 0.6 and "longer than 8192 bytes" in reason, (took, reason)


@pytest.mark.parametrize("answer", [b"\n", b" \t \n", b"\r\n"])
def test_an_empty_answer_fails_at_once(tmp_path: Path, answer: bytes) -> None:
    bot = ProcessBot("p", script(tmp_path, "empty", ANSWER_BYTES, answer.hex()), 5)
    reason, took = failure_then_close(bot, fake_session([]))
    assert (reason, took < 2) == ("the bot sent an empty line", True)


@pytest.mark.parametrize("answer", [b"@3 pass\n", b"p @0.5 pass\n"])
def test_a_stamped_answer_fails_saying_the_referee_keeps_the_clock(tmp_path: Path, answer: bytes) -> None:
    """A bot's ``@3 pass`` was refused by the game as an unknown action ('@3')."""
    bot = ProcessBot("p", script(tmp_path, "stamp", ANSWER_BYTES, answer.hex()), 5)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason == (f"the bot stamped its line with a time: {answer.decode().strip()!r}; a bot sends its input "
                      "alone, and the referee keeps the clock")
    assert forfeit_kind(reason) == "protocol"


def test_a_line_that_is_not_utf8_fails_with_a_clear_reason(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "latin1", ANSWER_BYTES, b"pass caf\xe9\n".hex()), 2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason.startswith("the bot sent a line that cannot be read: the line is not UTF-8 text: byte 0xe9 "
                             "at column 9 cannot be read: 'pass caf"), reason


def test_a_line_with_a_control_character_fails_as_a_persons_would(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "ctl", ANSWER_BYTES, b"say \x1b[2J\n".hex()), 2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert "control character (U+001B) at column 5" in reason, reason


def test_a_carriage_return_is_white_space(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "cr", ANSWER_BYTES, b"p\rpass\rnow\r\n".hex()), 2)
    try:
        assert within(5, bot.choose, fake_session([])) == "pass now"  # seat p, then the input
    finally:
        within(3, bot.close)

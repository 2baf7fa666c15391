"""The lines that pass between the referee and an external bot besides its answers: a line the
bot sends that nobody asked for (before its first turn, in the middle of one, a second answer,
a second name, a flood) and how a bot's words are quoted in a reason; what the bot is told
before its turn; and a bot process kept for the next game (``--reuse``). Helpers and shared
bot programs: ``tests/hostile.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.hostile import (
    within, script, launch, duel, fake_session, failure_of, failure_then_close,
    EXAMPLE, BANNER, BANNER_MID_TURN, TWO_ANSWERS, STDOUT_FLOOD, EXIT_EARLY, ANSWER_BYTES, told_before_first_go,
)
from arbiter.engine import registry
from arbiter.engine.bots import BotFailure
from arbiter.engine.programs import QUOTE_CHARS, TAIL_CHARS, ProcessBot, _printable, _quote
from arbiter.engine.session import Session


# -- 4. lines nobody asked for -----------------------------------------------------------------------


def test_a_line_before_the_first_go_is_not_taken_as_its_answer(tmp_path: Path) -> None:
    bot = launch(tmp_path, "banner", BANNER, timeout=2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason == "the bot sent a line it was not asked for: 'hello, I am a bot'"


def test_a_line_sent_while_a_large_turn_is_still_written_is_not_its_answer(tmp_path: Path) -> None:
    """900 kB of events fill the pipe: the bot has its first line, not its go, when it speaks."""
    bot = ProcessBot("p", script(tmp_path, "mid", BANNER_MID_TURN), 10)
    reason, _ = failure_then_close(bot, fake_session(["z" * 5000] * 180), watchdog=15)
    assert reason == "the bot sent a line it was not asked for: 'hello, I am a bot'"


@pytest.mark.parametrize("line, size, quoted", [
    ("x" * QUOTE_CHARS, True, repr("x" * QUOTE_CHARS)),
    ("x" * (QUOTE_CHARS + 1), True, repr("x" * QUOTE_CHARS + "…") + f" ({QUOTE_CHARS + 1} bytes)"),
    ("x" * (QUOTE_CHARS + 1), False, repr("x" * QUOTE_CHARS + "…")),
    ("é" * QUOTE_CHARS, True, repr("é" * QUOTE_CHARS)),  # 2 bytes a character: whole
    ("😀" * QUOTE_CHARS, True, repr("😀" * QUOTE_CHARS)),  # 4 bytes a character: the most quoted whole
    ("😀" * QUOTE_CHARS + "x", True, repr("😀" * QUOTE_CHARS + "…") + f" ({4 * QUOTE_CHARS + 1} bytes)"),
])
def test_a_bots_line_in_a_reason_is_quoted_whole_up_to_its_cap(line: str, size: bool, quoted: str) -> None:
    assert _quote(line.encode(), size) == quoted


def test_a_stderr_line_in_a_reason_is_printable_and_capped() -> None:
    assert _printable(b"  a\tb\x1bc  ") == "a\\tb\\x1bc"  # (escaped, as the protocol's lines are)
    assert _printable(b"y" * TAIL_CHARS) == "y" * TAIL_CHARS
    assert _printable(b"y" * (TAIL_CHARS + 1)) == "y" * TAIL_CHARS + "…"
    assert _printable(b"y" * (TAIL_CHARS - 2) + b"\x1b") == "y" * (TAIL_CHARS - 2) + "…"  # never half an escape


NAMES_ITSELF = r'''
import sys
name = bytes.fromhex(sys.argv[1])
for line in sys.stdin.buffer:
    if line.startswith(b"arbiter "):               # the hello
        sys.stdout.buffer.write(name)
        sys.stdout.flush()
    elif line.startswith(b"go "):
        if len(sys.argv) > 2:                      # the name again, unasked
            sys.stdout.buffer.write(name)
        sys.stdout.buffer.write(b"pass\n")
        sys.stdout.flush()
'''


@pytest.mark.parametrize("line, name", [
    (b"name  Deep  Blue \n", "Deep  Blue"), (b"name    \n", None), (b"name \xff\xfe\n", None),
    (b"name " + b"n" * 100 + b"\n", "n" * 64),
    # a right-to-left override would turn the rest of the report's line around; an emoji's joiner is text
    ("name evil\u202etxt.exe\tv2 \U0001f468\u200d\U0001f469\n".encode(), "evil\\u202etxt.exe v2 \U0001f468\u200d\U0001f469"),
])
def test_a_bot_names_itself_after_the_hello_with_readable_words_or_not_at_all(
        tmp_path: Path, line: bytes, name: str | None) -> None:
    bot = ProcessBot("p", script(tmp_path, "named", NAMES_ITSELF, line.hex()), 5)
    try:
        bot.hello("fbi-mafia", "duel-3v3")
        assert within(5, bot.choose, fake_session([])) == "pass"
        assert bot.name == name
    finally:
        within(3, bot.close)


def test_a_second_name_is_one_nobody_asked_for(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "renamed", NAMES_ITSELF, b"name Bob\n".hex(), "again"), 5)
    try:
        bot.hello("fbi-mafia", "duel-3v3")
        reason, _ = failure_of(bot, fake_session([]))
    finally:
        within(3, bot.close)
    assert (reason, bot.name) == ("the bot sent a name it was not asked for: 'name Bob'", "Bob")


def test_a_second_answer_is_never_the_answer_to_the_next_go(tmp_path: Path) -> None:
    bot = ProcessBot("p", script(tmp_path, "two", TWO_ANSWERS), 2)
    answers = []
    try:
        with pytest.raises(BotFailure, match="^the bot sent a line it was not asked for: 'two'") as failure:
            for _ in range(2):
                answers.append(within(5, bot.choose, fake_session([])))
    finally:
        within(3, bot.close)
    assert answers in ([], ["one"])
    # the answer the line came after is named while it was not yet taken (it may be the fault)
    after = " (after its answer 'one')"
    assert str(failure.value).endswith("'two'" + ("" if answers else after)), str(failure.value)


def test_a_bot_flooding_its_output_fails_fast(tmp_path: Path) -> None:
    bot = launch(tmp_path, "flood", STDOUT_FLOOD, timeout=2)
    reason, took = failure_then_close(bot, fake_session([]))
    assert reason == "the bot sent a line it was not asked for: 'spam'"
    assert took < 0.5


# -- 6. what the bot is told before go ---------------------------------------------------------------


def test_the_give_up_input_is_a_resign_line_after_the_legal_and_form_lines(tmp_path: Path, monkeypatch) -> None:
    session = duel()
    monkeypatch.setattr(type(session.state), "input_forms", lambda self, seat: ["say TEXT"], raising=True)
    told = told_before_first_go(tmp_path, session, "mafia")
    legal = [m for m in session.state.legal_inputs("mafia") if m != "surrender"]
    events = [e.text for e in session.events.visible_to("mafia")]
    assert told == [f"event: {e}" for e in events] + [f"legal: {m}" for m in legal] + \
        ["form: say TEXT", "resign: surrender", "go mafia action"]


def test_mafia_bots_are_told_their_give_up_input_apart(tmp_path: Path) -> None:
    session = Session(registry.get("mafia"), "6-players", seed=3)
    told = told_before_first_go(tmp_path, session, "p1")
    deck = ["deck: seducer 1", "deck: civilian 2", "deck: chief 1", "deck: boss 1", "deck: mafia 1"]
    assert told[:len(deck)] == deck  # (the game's settings first, at its first go)
    told = told[len(deck):]
    block = told[told.index(next(t for t in told if not t.startswith("event: "))):]
    assert {f"nominate p{i}" for i in range(2, 7)} | {"pass", "leave"} <= set(session.state.legal_inputs("p1"))
    assert block == [f"legal: {m}" for m in session.state.legal_inputs("p1") if m != "leave"] + \
        [f"form: {t}" for t in session.state.input_forms("p1")] + ["resign: leave", "go p1 nominate"]


# -- 7. a process kept for the next game (--reuse) ------------------------------------------------------------


TURNS_ON_STDERR = r'''
import sys
n = 0
for line in sys.stdin:
    if line.startswith("new-game "):
        print("told: " + line.strip(), file=sys.stderr, flush=True)
    elif line.startswith("go "):
        n += 1
        print(f"turn {n}", file=sys.stderr, flush=True)  # before the answer: read with it
        print("pass", flush=True)
'''


def test_a_reused_bot_logs_each_game_to_its_own_file(tmp_path: Path) -> None:
    first, second = tmp_path / "game1.log", tmp_path / "game2.log"
    bot = ProcessBot("p", script(tmp_path, "turns", TURNS_ON_STDERR), 5, log=first)
    try:
        assert within(5, bot.choose, fake_session([])) == "pass"
        assert bot.reusable
        bot.new_game("mafia", "6-players", "p3", log=second)
        assert within(5, bot.choose, fake_session([])) == "pass"
    finally:
        within(3, bot.close)
    assert first.read_text(encoding="utf-8") == "turn 1\n"
    assert second.read_text(encoding="utf-8") == "told: new-game mafia 6-players p3\nturn 2\n"


def test_a_reused_bots_reason_quotes_the_stderr_of_its_game_only(tmp_path: Path) -> None:
    """A reason in the second game of a reused process quoted what it wrote on stderr in the
    first, which that game's own log does not hold."""
    bot = ProcessBot("p", script(tmp_path, "turns", TURNS_ON_STDERR), 5, log=tmp_path / "game1.log")
    try:
        assert within(5, bot.choose, fake_session([])) == "pass"
        assert bot.explained("why") == "why; its stderr ends: turn 1"
        bot.new_game("mafia", "6-players", "p3", log=tmp_path / "game2.log")
        within(5, bot.choose, fake_session([]))
        assert bot.explained("why") == "why; its stderr ends: told: new-game mafia 6-players p3 | turn 2"
    finally:
        within(3, bot.close)


@pytest.mark.parametrize("answer", [b"wait\n", b"WAIT\n", b"p wait\n", b"P Wait\n"])
def test_wait_is_read_as_any_words_are_in_any_case_after_the_seat(tmp_path: Path, answer: bytes) -> None:
    """A real-time bot's ``p2 wait`` (a full line) or ``WAIT`` lost for an illegal input: only
    ``wait`` exactly was read, before the seat was taken off."""
    session = fake_session([])
    session.state.realtime = True
    bot = ProcessBot("p", script(tmp_path, "waits", ANSWER_BYTES, answer.hex()), 5)
    try:
        assert within(5, bot.choose, session) is None
    finally:
        within(3, bot.close)


@pytest.mark.parametrize("parts", [[b"\xef\xbb\xbfpass\n"], [b"\xef", b"\xbb\xbfpass\n"]])
def test_a_byte_order_mark_at_the_start_of_a_bots_output_is_dropped(tmp_path: Path, parts: list[bytes]) -> None:
    """Some runtimes (.NET, PowerShell) write a byte order mark before their first output: the
    bot lost for an illegal input, where a person's input is read without it (docs/protocol.md).
    It is dropped at the very start of the output, in one read or in two."""
    bot = ProcessBot("p", script(tmp_path, "bom", ANSWER_BYTES, *(p.hex() for p in parts)), 5)
    try:
        assert within(5, bot.choose, fake_session([])) == "pass"
    finally:
        within(3, bot.close)


def test_a_reused_bot_without_a_log_plays_on() -> None:
    bot = ProcessBot("mafia", f"{sys.executable} {EXAMPLE}", 5)
    try:
        assert within(5, bot.choose, duel()) is not None
        bot.new_game("fbi-mafia", "duel-3v3", "mafia")
        assert within(5, bot.choose, duel()) is not None and bot.reusable
    finally:
        within(3, bot.close)


def test_a_bot_that_failed_exited_or_was_closed_is_not_reused(tmp_path: Path) -> None:
    exited = launch(tmp_path, "early", EXIT_EARLY, timeout=2)
    flooding = launch(tmp_path, "flood", STDOUT_FLOOD, timeout=2)
    closed = ProcessBot("p", f"{sys.executable} {EXAMPLE}", 5)
    try:
        for bot in (exited, flooding):
            failure_of(bot, fake_session([]))
            assert not bot.reusable
        assert closed.reusable
        within(3, closed.close)
        assert not closed.reusable
    finally:
        for bot in (exited, flooding, closed):
            within(3, bot.close)

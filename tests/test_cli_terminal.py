"""``arbiter play`` at a terminal (``cli/terminal.py``): what a person typing at a shell meets,
run at a pseudo-terminal of its own (``tests/terminal_staging.py``)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from arbiter.cli.terminal import TerminalLines
from arbiter.engine import registry
from arbiter.engine.errors import ArbiterError
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.helpers import system_can_name
from tests.terminal_staging import Terminal, terminal_env

DUEL = ["play", "fbi-mafia", "--mode", "duel-3v3", "--as", "fbi", "--bot", "mafia=random", "--seed", "1"]


@pytest.fixture
def terminals(tmp_path: Path):
    started: list[Terminal] = []

    def start(args: list[str], **env: str | None) -> Terminal:
        started.append(Terminal(args, tmp_path, terminal_env(**env)))
        return started[-1]

    yield start
    for t in started:
        t.close()


def test_a_line_that_is_not_utf8_is_refused_at_a_strict_terminal_and_the_session_goes_on(terminals) -> None:
    """A strict UTF-8 decoder (PYTHONIOENCODING=utf-8, or a locale such as en_US.UTF-8) once
    killed the reader thread with a traceback on a byte such as 0xff, and the session froze.
    The line is refused as a file's or a pipe's is, and the next line is answered."""
    t = terminals(DUEL, PYTHONIOENCODING="utf-8")
    t.expect("fbi> ")
    t.send(b"\xff\n")
    t.expect("? syntax: the line is not UTF-8 text: byte 0xff at column 1 cannot be read")
    t.send(b"time\n")
    out = t.expect("= time")
    t.send(b"quit\n")
    assert t.wait() == 0
    assert "Traceback" not in t.text(), out


def test_a_reader_that_fails_is_reported_by_the_main_thread_not_a_freeze(monkeypatch) -> None:
    """Anything unexpected in the reader thread reaches the session as an error it reports."""
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    lines = TerminalLines(Protocol(session, "fbi"))

    def broken(prompt: str) -> str:
        raise RuntimeError("the line discipline broke")

    monkeypatch.setattr("builtins.input", broken)
    with pytest.raises(ArbiterError, match="the terminal could not be read: RuntimeError: the line discipline broke"):
        lines.read_line(5)


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_the_terminal_modes_are_given_back_however_the_session_stops(terminals, stop: str) -> None:
    """readline turns echo and line editing (ICANON) off while it reads a line; a Ctrl-C or a
    kill at the prompt once left the person's shell so, typing blind. The modes the terminal
    had before the command are put back on every way out."""
    t = terminals(DUEL)
    t.expect("fbi> ")
    t.send(b"boa")  # half a line typed: readline has the terminal
    t.expect("fbi> boa")
    if stop == "ctrl-c":
        t.send(b"\x03")
    else:
        os.kill(t.pid, signal.SIGTERM)
    assert t.wait() == 130
    assert t.text().rstrip().endswith("interrupted")
    assert t.modes() == t.initial


@pytest.mark.parametrize("kept", [True, False])
def test_ctrl_d_in_the_middle_of_a_game_says_the_game_is_unfinished_and_how_to_resume(terminals, kept: bool) -> None:
    """End of input at the prompt once ended the command with status 4 and not a word: the
    person is told the game did not end, and how to go on with it (or that nothing was kept)."""
    t = terminals(DUEL + (["--transcript", "game.yaml"] if kept else []))
    t.expect("fbi> ")
    t.send(b"\x04")
    assert t.wait() == 4
    last = t.text().rstrip().splitlines()[-1]
    if kept:
        assert last == "the input ended before the game did; resume it with: arbiter play --resume game.yaml"
    else:
        assert last == ("the input ended before the game did; no transcript was kept to resume it from "
                        "(--transcript FILE keeps one)")


def test_a_real_time_game_prints_above_the_prompt_and_keeps_the_half_typed_line(terminals) -> None:
    """In a real-time game the bots' moves and time's events come while the person types: they
    once landed after the prompt and the half-typed line ("p1> boa= p2 explore purple"), and
    the prompt was not drawn again. The prompt's line is cleared, the answer printed, the prompt
    drawn below it with the typed text, which readline still holds."""
    t = terminals(["play", "magic-maze", "--scenario", "1", "--players", "2", "--as", "p1", "--bots", "planner",
                   "--seed", "1", "--realtime"])
    t.expect("p1> ")
    t.send(b"boa")
    t.expect("p1> boa")
    typed = t.output.rindex(b"p1> boa")
    t.expect("\r\x1b[J= p2 ", since=typed)  # a bot's move: the prompt's line cleared first
    bot = t.output.index(b"\r\x1b[J= p2 ", typed)
    t.expect("\n\r\np1> boa", since=bot)  # (the answer's blank line, the prompt again with the text)
    assert t.output[typed:bot] == b"p1> boa", t.output[typed:bot]
    t.send(b"rd\n")  # "boa" + "rd": the line readline kept
    t.expect("time left ", since=bot)
    t.send(b"quit\n")
    assert t.wait() == 0


def test_a_redraw_puts_the_cursor_back_where_the_person_left_it(terminals) -> None:
    """The half-typed line drawn again above a bot's move left the cursor at its end, while
    readline's stayed where the person had moved it: the next key edited a line other than the
    one on the screen. The cursor is put back where readline's is (one column back here)."""
    t = terminals(["play", "magic-maze", "--scenario", "1", "--players", "2", "--as", "p1", "--bots", "planner",
                   "--seed", "1", "--realtime"])
    t.expect("p1> ")
    t.send(b"boad\x1b[D")  # the cursor one left, before the d
    t.expect("p1> boad")
    typed = t.output.rindex(b"p1> boad")
    t.expect("\r\x1b[J= p2 ", since=typed)
    bot = t.output.index(b"\r\x1b[J= p2 ", typed)
    t.expect("\n\r\np1> boad", since=bot)
    redrawn = t.output.index(b"\n\r\np1> boad", bot) + len(b"\n\r\np1> boad")
    t.expect("\r\x1b[7C", since=redrawn)  # (back to the line's start, then 7 columns on: "p1> boa")
    assert t.output[redrawn:redrawn + 5] == b"\r\x1b[7C", t.output[redrawn:redrawn + 20]
    t.send(b"r\n")  # typed where the cursor is: "board"
    t.expect("time left ", since=redrawn)
    t.send(b"quit\n")
    assert t.wait() == 0


def test_a_half_typed_line_wider_than_the_terminal_is_cleared_whole_before_a_redraw(terminals) -> None:
    """The erase cleared the cursor's row only: a half-typed line that wrapped left its first
    row on the screen above every bot's move. Every row the line takes is cleared (the cursor
    goes up to the first one, and everything from there on is erased)."""
    t = terminals(["play", "magic-maze", "--scenario", "1", "--players", "2", "--as", "p1", "--bots", "planner",
                   "--seed", "1", "--realtime"])
    t.expect("p1> ")
    t.send(b"p1 say " + b"x" * 100)  # 107 characters after the prompt: two rows of 80 columns
    t.expect("x" * 20)
    typed = len(t.output)
    t.expect("= p2 ", since=typed)
    bot = t.output.index(b"= p2 ", typed)
    cleared = t.output[typed:bot]
    assert b"\x1b[A" in cleared or b"\x1b[1A" in cleared, cleared  # up to the line's first row, to clear it
    t.send(b"\x03")
    t.wait()


def test_a_byte_not_utf8_in_the_half_typed_line_is_drawn_again_as_a_replacement(monkeypatch) -> None:
    """readline holds such a byte as a lone surrogate (for the line's check to refuse once it is
    sent); drawing the half-typed line again above a bot's move wrote it to a strict UTF-8
    terminal, and the session ended in a traceback."""
    import io
    import sys

    from arbiter.cli import terminal

    monkeypatch.setenv("TERM", "xterm")  # (a terminal with escapes: TERM=dumb draws no prompt again)
    session = Session(registry.get("magic-maze"), "1", seed=3, options={"players": 3})
    lines = TerminalLines(Protocol(session, "p1"))
    strict = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdout", strict)
    monkeypatch.setattr(terminal.readline, "get_line_buffer", lambda: "p1 say caf\udcff")
    monkeypatch.setattr(terminal, "_point", lambda typed: len(typed))  # (readline's cursor at the line's end)
    lines._at_prompt = True
    lines.show("= p2 move green east 1\n\n")
    strict.flush()
    assert "= p2 move green east 1\n\np1> p1 say caf\ufffd\r" in strict.buffer.getvalue().decode("utf-8")


def test_a_half_typed_line_of_wide_characters_is_drawn_again_with_the_cursor_where_it_was(monkeypatch) -> None:
    """A wide character (CJK) takes two columns: counted as one, the redraw above a bot's move
    went up too few rows and put the cursor back in the middle of the line, where the next key
    edited another place than the one on the screen."""
    import io
    import sys

    from arbiter.cli import terminal

    monkeypatch.setenv("TERM", "xterm")
    session = Session(registry.get("magic-maze"), "1", seed=3, options={"players": 3})
    lines = TerminalLines(Protocol(session, "p1"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(terminal, "_columns", lambda: 16)
    monkeypatch.setattr(terminal.readline, "get_line_buffer", lambda: "p1 say 你好你好")  # 4 + 7 + 8 = 19 columns
    monkeypatch.setattr(terminal, "_point", lambda typed: len("p1 say "))  # the cursor before the first 你
    drawn = []
    for name in ("_up_to_the_line", "_back_to"):  # (what they are asked; click strips escapes off a non-terminal)
        monkeypatch.setattr(terminal, name, lambda *a, f=getattr(terminal, name), n=name: drawn.append((n, a)) or f(*a))
    lines._at_prompt = True
    lines.show("= p2 move green east 1\n")
    # the cursor 11 columns in (its row's start: nothing above to clear); after the redraw, 19
    # columns on 16 a row, back up a row and right 11 columns, before the first wide character
    assert drawn == [("_up_to_the_line", (11, 16)), ("_back_to", (11, 19, 16))]
    assert terminal._back_to(11, 19, 16) == "\x1b[1A\r\x1b[11C"
    assert out.getvalue() == "\r= p2 move green east 1\np1> p1 say 你好你好\r"  # (the escapes stripped)
    monkeypatch.setattr(terminal, "_point", lambda typed: len(typed))  # at the line's end: a row up to clear it
    drawn.clear()
    lines.show("= p3 move green east 1\n")
    assert drawn[0] == ("_up_to_the_line", (19, 16)) and terminal._up_to_the_line(19, 16) == "\x1b[1A\r\x1b[J"
    assert terminal._cells("say 你好") == 8 and terminal._cells("cafe\u0301") == 4 and terminal._cells("a\u200db") == 2


def test_a_word_that_ends_one_input_and_goes_on_in_another_is_offered_once(monkeypatch) -> None:
    """``accuse p1`` and ``accuse p1 p3`` both legal: Tab listed ``p1`` and ``p1 `` (each word
    twice) and never completed."""
    from arbiter.cli import terminal

    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    lines = TerminalLines(Protocol(session, "mafia"))
    monkeypatch.setattr(lines, "candidates", lambda: ["accuse p1", "accuse p1 p3", "accuse p4 p5", "pass"])
    monkeypatch.setattr(terminal.readline, "get_line_buffer", lambda: "accuse p")
    monkeypatch.setattr(terminal.readline, "get_begidx", lambda: 7)
    offered = [lines._complete("p", i) for i in range(4)]
    assert offered == ["p1", "p4 ", None, None]


@pytest.mark.parametrize("line, begin", [("@5 mafia sh", 9), ("  mafia sh", 8), ("MAFIA sh", 6), ("@5   Mafia sh", 11)])
def test_completion_reads_the_words_as_the_protocol_does(monkeypatch, line: str, begin: int) -> None:
    """After a time stamp (``@5 ``), leading spaces or the seat's name in capitals, all of which
    the protocol reads, Tab offered nothing."""
    from arbiter.cli import terminal

    lines = TerminalLines(Protocol(Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)))
    monkeypatch.setattr(terminal.readline, "get_line_buffer", lambda: line)
    monkeypatch.setattr(terminal.readline, "get_begidx", lambda: begin)
    assert lines._complete("sh", 0) == "shift " and lines._complete("sh", 1) is None


def test_readlines_cursor_is_counted_in_characters_not_bytes(monkeypatch) -> None:
    """``rl_point`` counts the line's bytes: after ``say café`` the cursor sat one column too far
    right in every redraw of a line with a letter outside ASCII before it."""
    from types import SimpleNamespace

    from arbiter.cli import terminal

    monkeypatch.setattr(terminal, "_RL_POINT", SimpleNamespace(value=len("say café".encode())))
    assert terminal._point("say café au lait") == len("say café")
    monkeypatch.setattr(terminal, "_RL_POINT", SimpleNamespace(value=len("caf\udcff".encode("utf-8", "surrogateescape"))))
    assert terminal._point("caf\udcff x") == 4  # (a byte not UTF-8: one character, one byte)
    monkeypatch.setattr(terminal, "_RL_POINT", SimpleNamespace(value=999))
    assert terminal._point("abc") == 3  # (out of reach: the line's end)


def test_a_mark_drawn_on_the_character_before_it_takes_no_column(monkeypatch) -> None:
    """A mark whose combining class is 0 takes no column all the same: a variation selector
    (the emoji form of a heart), a Thai or Devanagari vowel sign, an enclosing keycap, a
    Hangul vowel and final consonant that join a syllable. Counted one each, as
    ``unicodedata.combining`` left them, a half-typed line holding them was drawn again with
    the cursor columns to the right of readline's."""
    from arbiter.cli import terminal

    assert terminal._cells("\u2764\ufe0f") == 1  # ❤️: the heart, and U+FE0F
    assert terminal._cells("\u0e01\u0e31") == 1  # Thai: a consonant and a vowel sign above it
    assert terminal._cells("\u0915\u0941") == 1  # Devanagari: ka, and the vowel sign u below it
    assert terminal._cells("1\ufe0f\u20e3") == 1  # a keycap: the digit, U+FE0F, the enclosing keycap
    assert terminal._cells("\u1100\u1161\u11a8") == 2  # 각 spelled in jamo: one wide syllable
    assert terminal._cells("\u0915\u093f") == 2  # a vowel sign that takes a column of its own (Mc) still does
    assert terminal._cells("p1 say \u2764\ufe0f\u4f60") == 10


def test_a_fullwidth_letter_takes_two_columns_and_an_extended_jamo_none() -> None:
    """East Asian width F (fullwidth Latin letters and digits, the ideographic space) is wide as
    W is, and the Hangul Jamo Extended-B vowels and final consonants (U+D7B0 to U+D7FF) join
    the syllable before them as the basic block's do: as the C library's ``wcwidth`` counts them.
    No other test held a character of either, so ``"WF"`` read as ``"W"``, or the extended
    block left out, went unseen."""
    from arbiter.cli import terminal

    assert terminal._cells("\uff21\uff22") == 4 and terminal._cells("\u3000") == 2  # ＡＢ, the ideographic space
    assert terminal._cells("\u1100\ud7b0") == 2  # a leading consonant and an extended vowel: one syllable
    assert terminal._cells("\u1100\u1161\ud7cb") == 2  # 가 and an extended final consonant


@pytest.mark.parametrize("given, columns", [("100", 100), ("²", 80), ("٣٠", 80), ("9" * 5000, 80), ("123456", 80),
                                            ("", 80), ("0", 1)])
def test_a_terminal_that_says_no_width_takes_columns_only_as_a_short_ascii_number(
        monkeypatch: pytest.MonkeyPatch, given: str, columns: int) -> None:
    """A pseudo-terminal never sized says no width, and ``$COLUMNS`` stands in. ``str.isdigit``
    took ``²`` (and Arabic-Indic digits, which ``int`` reads, but no terminal sets), and ``int``
    then refused it, or a number of thousands of digits: a traceback at the first redraw."""
    import io
    import sys

    from arbiter.cli import terminal

    if not system_can_name(given):
        pytest.skip(f"the locale's encoding ({sys.getfilesystemencoding()}) cannot set $COLUMNS to {given!r}")
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # (no file behind it: no terminal's own width)
    monkeypatch.setenv("COLUMNS", given)
    assert terminal._columns() == columns

"""The one line reader of people, files of moves and pipes: lines split on newlines only, a
stray carriage return is white space, and a line too long, not UTF-8 or holding a control
character is refused by the session instead of crashing it or being misread."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine.lines import MAX_LINE_BYTES, TIMEOUT, BadLine, LineReader
from tests.helpers import responses, run

REPO = Path(__file__).resolve().parents[1]


def read_all(data: bytes) -> list[str | BadLine]:
    return list(LineReader(io.BytesIO(data)))


def test_lines_split_on_newlines_only() -> None:
    assert read_all(b"a\nb\r\nc\rd\n\ne") == ["a", "b", "c d", "", "e"]


def test_a_line_that_is_not_utf8_is_a_bad_line_and_reading_goes_on() -> None:
    lines = read_all(b"time\n\xff\xfe\nscore\n")
    assert lines[0] == "time" and lines[2] == "score"
    assert isinstance(lines[1], BadLine) and "not UTF-8" in lines[1].problem and "0xff" in lines[1].problem


def test_control_characters_and_line_separators_are_refused() -> None:
    for bad in ("say \x00", "say \x1b[2J", "say \x85"):
        (line,) = read_all(bad.encode("utf-8") + b"\n")
        assert isinstance(line, BadLine) and "control character" in line.problem, bad
    # the Unicode separators are named as what they are (U+2028 was once "a control character")
    (line,) = read_all("say a\u2028b\n".encode())
    assert line == BadLine("the line holds a line separator (U+2028) at column 6; only printable text is read")
    (line,) = read_all("say \u2029\n".encode())
    assert line == BadLine("the line holds a paragraph separator (U+2029) at column 5; only printable text is read")
    assert read_all("say caf\u00e9\tnoir\n".encode()) == ["say café noir"]


def test_a_huge_line_is_refused_once_and_skipped_without_being_held() -> None:
    data = b"a\n" + b"x" * (10 * 1024 * 1024) + b"\nb\n" + b"y" * MAX_LINE_BYTES + b"\n"
    reader = LineReader(io.BytesIO(data))
    lines = list(reader)
    assert lines[0] == "a" and lines[2] == "b" and lines[3] == "y" * MAX_LINE_BYTES
    assert isinstance(lines[1], BadLine) and str(MAX_LINE_BYTES) in lines[1].problem
    assert len(reader._buffer) == 0


class Arriving(io.RawIOBase):
    """A stream whose bytes arrive in the pieces given (as from a pipe, one read a piece)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = list(pieces)

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""


def test_the_cap_and_the_skip_hold_wherever_the_bytes_break() -> None:
    """A line of exactly the cap is a line, even when its bytes stop at the cap before the
    newline comes; a line over it is refused once, and a newline arriving first in the next
    piece ends the skipping there: the line after it is read."""
    at_cap = b"x" * MAX_LINE_BYTES
    assert list(LineReader(Arriving([at_cap, b"\nnext\n"]))) == ["x" * MAX_LINE_BYTES, "next"]
    # a CRLF ending's \r is no part of the line, even when its \n comes in the next piece
    assert list(LineReader(Arriving([at_cap + b"\r", b"\nnext\n"]))) == ["x" * MAX_LINE_BYTES, "next"]
    assert list(LineReader(Arriving([at_cap + b"\r\nnext\n"]))) == ["x" * MAX_LINE_BYTES, "next"]
    lines = list(LineReader(Arriving([at_cap + b"\ry", b"\nnext\n"])))
    assert len(lines) == 2 and isinstance(lines[0], BadLine) and lines[1] == "next"
    lines = list(LineReader(Arriving([b"y" * (MAX_LINE_BYTES + 1), b"\nnext\n"])))
    assert len(lines) == 2 and isinstance(lines[0], BadLine) and lines[1] == "next"


def test_read_times_out_on_a_pipe_with_no_whole_line() -> None:
    r, w = os.pipe()
    reader = LineReader(os.fdopen(r, "rb"))
    os.write(w, b"half a li")
    start = time.monotonic()
    assert reader.read_line(0.1) is TIMEOUT
    assert time.monotonic() - start >= 0.09
    threading.Timer(0.05, lambda: os.write(w, b"ne\n")).start()
    assert reader.read_line(2) == "half a line"
    os.close(w)
    assert reader.read_line(1) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=8))
def test_any_bytes_give_one_item_per_line(chunks: list[bytes]) -> None:
    data = b"\n".join(chunks)
    lines = read_all(data)
    expected = data.split(b"\n")
    if expected and expected[-1] == b"":
        expected.pop()
    if expected and expected[0].startswith(b"\xef\xbb\xbf"):  # the input's byte order mark
        expected[0] = expected[0][3:]
    assert len(lines) == len(expected)
    for raw, line in zip(expected, lines):
        if isinstance(line, str):
            assert "\n" not in line and "\r" not in line
            assert line.encode("utf-8") == raw.rstrip(b"\r").replace(b"\r", b" ").replace(b"\t", b" ")


def test_a_byte_order_mark_is_dropped_at_the_start_of_the_input_only() -> None:
    """Some editors begin a UTF-8 file with U+FEFF: the first command was refused as
    '\\ufeffmafia', an unknown command. Later in the input the mark is text, as in a say."""
    bom = "\ufeff".encode()
    assert read_all(bom + b"time\n" + b"p1 say " + bom + b"x\n") == ["time", "p1 say \ufeffx"]
    assert read_all(bom) == [] and read_all(bom + b"\n") == [""] and read_all(b"a\n" + bom + b"b") == ["a", "\ufeffb"]
    reader = LineReader(io.BytesIO(bom + bom + b"twice\n"))  # one mark is the file's; a second is text
    assert list(reader) == ["\ufefftwice"]
    # however its bytes arrive, and a first line shorter than a mark is read as it is
    assert list(LineReader(Arriving([bom[:1], bom[1:2], bom[2:] + b"time\n"]))) == ["time"]
    assert list(LineReader(Arriving([b"a", b"\n"]))) == ["a"]
    cut = list(LineReader(Arriving([bom[:2]])))  # half a mark, then the end: bytes that are not UTF-8
    assert len(cut) == 1 and isinstance(cut[0], BadLine) and "not UTF-8" in cut[0].problem


def test_a_moves_file_saved_with_a_byte_order_mark_plays(tmp_path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_bytes("\ufeffmafia shift row 1 left\n".encode())
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 1, "--moves", moves)
    assert r.exit_code == 4 and "= mafia shift row 1 left" in r.output, r.output


def test_invalid_utf8_under_moves_is_answered_and_the_session_goes_on(tmp_path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_bytes(b"time\n\xff\nscore\n")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves, "--json")
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    objects = [line for line in r.stdout.splitlines()]
    assert len(objects) == 4  # the opening, then one answer per line (stderr says the input ended)
    assert '"command":"time"' in objects[1]
    assert '"kind":"syntax"' in objects[2] and "not UTF-8" in objects[2]
    assert '"command":"score"' in objects[3]
    r.output.encode("utf-8")


def test_a_stray_carriage_return_does_not_split_a_line_under_moves(tmp_path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_bytes(b"p1 say a\rp2 say b\n")
    r = run("play", "mafia", "--players", 8, "--seed", 3, "--moves", moves)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    assert len(responses(r.stdout)) == 1  # one line, one answer (said by p1: "a p2 say b")


def test_stdin_and_moves_read_alike(tmp_path) -> None:
    data = b"time\n\xff\np1 say a\rb\n" + b"z" * (MAX_LINE_BYTES + 1) + b"\nscore\n"
    moves = tmp_path / "moves.txt"
    moves.write_bytes(data)
    by_file = run("play", "mafia", "--players", 8, "--seed", 3, "--moves", moves)
    by_stdin = run("play", "mafia", "--players", 8, "--seed", 3, input=data)
    by_dash = run("play", "mafia", "--players", 8, "--seed", 3, "--moves", "-", input=data)
    assert responses(by_file.stdout) == responses(by_stdin.stdout) == responses(by_dash.stdout)
    assert len(responses(by_file.stdout)) == 5


@pytest.mark.parametrize("moves", [[], ["--moves", "-"]], ids=["stdin", "moves-dash"])
def test_a_closed_stdin_reads_as_an_empty_one(moves: list[str]) -> None:
    """``<&-`` leaves Python no ``sys.stdin``: the game waits for input that has ended (exit 4),
    exactly as with ``</dev/null``, where it once ended in a traceback."""
    args = [sys.executable, "-m", "arbiter.cli.main", "play", "fbi-mafia", "--seed", "1", *moves]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    empty = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    closed = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *args], env=env, capture_output=True, text=True,
                            timeout=60)
    assert "Traceback" not in closed.stderr, closed.stderr
    assert (closed.returncode, closed.stdout, closed.stderr) == (empty.returncode, empty.stdout, empty.stderr)
    assert closed.returncode == 4 and "awaiting: bandit action" in closed.stdout

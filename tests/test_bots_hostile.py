"""External bots that misbehave on purpose: the referee must never hang on one, never drown in
what one writes, never leave one (or a child it started) running, and always say why it lost.

Most tests drive ``ProcessBot`` in-process, each call under a watchdog thread (``within``), so a
referee that hangs fails the test instead of hanging the suite. Bot programs are tiny scripts
written into ``tmp_path`` and run with this Python.
"""

from __future__ import annotations

import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import pytest

from tests.helpers import run_referee
from arbiter.engine import registry
from arbiter.engine.bots import QUOTE_CHARS, TAIL_CHARS, BotFailure, ProcessBot, _printable, _quote, make_bot
from arbiter.engine.errors import ArbiterError
from arbiter.engine.events import EventLog
from arbiter.engine.lines import MAX_LINE_BYTES
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Choices, Session

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "random_bot.py"
T = TypeVar("T")


# -- helpers -------------------------------------------------------------------------------------


def within(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a watchdog thread: its result or its exception, or a failed test when it
    has not returned after ``seconds``."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"{getattr(fn, '__qualname__', fn)} hung: no return within {seconds} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def script(tmp_path: Path, name: str, source: str, *args: object) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return " ".join([sys.executable, str(path), *map(str, args)])


def launch(tmp_path: Path, name: str, source: str, *args: object, timeout: float, seat: str = "p",
           log: Path | None = None) -> ProcessBot:
    """A ``ProcessBot`` running ``source``, returned once the program calls ``READY()`` (by
    default its first statement), so that timings leave Python's start out."""
    ready = tmp_path / f"{name}.ready"
    prefix = f"import pathlib as _p\ndef READY():\n    _p.Path({str(ready)!r}).touch()\n"
    source = prefix + ("" if "READY()" in source else "READY()\n") + source
    bot = ProcessBot(seat, script(tmp_path, name, source, *args), timeout, **({"log": log} if log else {}))
    deadline = time.monotonic() + 10
    while not ready.exists():
        if time.monotonic() > deadline:
            bot.close()
            pytest.fail(f"the bot {name} did not start within 10 s")
        time.sleep(0.005)
    return bot


def duel() -> Session:
    """FBI vs Mafia, Duel 3v3, seed 5: the mafia seat acts first."""
    return Session(registry.get("fbi-mafia"), "duel-3v3", seed=5)


def fake_session(events: list[str], legal: tuple[str, ...] = ("pass",)) -> Any:
    """Just what ``ProcessBot.choose`` reads of a session, with events of any size."""
    log = EventLog()
    for text in events:
        log.emit("news", text)
    return SimpleNamespace(
        events=log,
        state=SimpleNamespace(awaiting=lambda: [], realtime=False),
        choices=lambda seat: Choices(list(legal), [], None),
    )


def failure_of(bot: ProcessBot, session: Any, watchdog: float = 5) -> tuple[str, float]:
    """The reason ``bot.choose`` fails with, and the seconds it took."""
    start = time.monotonic()
    with pytest.raises(BotFailure) as caught:
        within(watchdog, bot.choose, session)
    return str(caught.value), time.monotonic() - start


def failure_then_close(bot: ProcessBot, session: Any, watchdog: float = 5) -> tuple[str, float]:
    """``failure_of`` the bot's turn; the bot closed whatever happens."""
    try:
        return failure_of(bot, session, watchdog)
    finally:
        within(3, bot.close)


def group_members(pgid: int) -> list[tuple[int, str, int]]:
    """(pid, state letter, parent's pid) of every process in group ``pgid``, from /proc."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                out.append((int(entry), fields[0], int(fields[1])))
    return out


def assert_group_ended(pgid: int) -> None:
    """Nothing of the group runs any more, and nothing of it is left for this process to reap:
    the referee has waited for the bot it started. What may remain a while is a killed child of
    the bot, a zombie whose parent is now the init process, which reaps it on its own schedule
    (a second or two on some machines; nothing the referee can hasten). SIGKILL takes effect a
    moment after it is sent, on a busy machine, hence the wait."""
    if not Path("/proc/self/stat").exists():
        return
    deadline = time.monotonic() + 2
    while True:
        members = group_members(pgid)
        alive = [m for m in members if m[1] != "Z"]
        ours = [m for m in members if m[2] == os.getpid()]
        if not alive and not ours:
            return
        assert time.monotonic() < deadline, f"processes of the bot's group still run or wait for us: {alive + ours}"
        time.sleep(0.01)


def sleepers(token: int) -> list[int]:
    """Live (not zombie) processes running ``sleep TOKEN``."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if cmd[:2] == [b"sleep", str(token).encode()] and state != "Z":
                out.append(int(entry))
    return out


# -- bot programs --------------------------------------------------------------------------------

# Answers every go with the first legal input; logs what it was told to argv[1] when given.
PLAIN_BOT = r'''
import sys
log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
legal = []
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    if line.startswith("legal: "):
        legal.append(line[len("legal: "):].strip())
    elif line.startswith("go "):
        print(legal[0] if legal else "wait", flush=True)
        legal = []
'''

CHILD_THEN_EXIT = r'''
import subprocess, sys
subprocess.Popen(["sleep", sys.argv[1]])  # inherits stdin, stdout and stderr: it holds the pipes
'''

CHILD_THEN_HANG = r'''
import signal, subprocess, sys, time
subprocess.Popen(["sleep", sys.argv[1]])
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only SIGKILL ends this one
time.sleep(987654)
'''

DEAF = "import time\ntime.sleep(987654)\n"

ANSWER_BYTES = r'''
import sys, time
parts = [bytes.fromhex(a) for a in sys.argv[1:]]  # the answer's bytes, a pause between the parts
for line in sys.stdin:
    if line.startswith("go "):
        for i, part in enumerate(parts):
            time.sleep(0.2 if i else 0)
            sys.stdout.buffer.write(part)
            sys.stdout.flush()
'''

HALF_LINE_THEN_HANG = r'''
import sys, time
for line in sys.stdin:
    if line.startswith("go "):
        sys.stdout.write("x" * int(sys.argv[1]))  # no newline, ever
        sys.stdout.flush()
        time.sleep(987654)
'''

TEN_MB_LINE = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        sys.stdout.write("x" * 10_000_000 + "\n")
        sys.stdout.flush()
'''

BANNER = r'''
import sys
print("hello, I am a bot", flush=True)        # nobody asked
READY()
for line in sys.stdin:
    if line.startswith("go "):
        print("pass", flush=True)
'''

BANNER_MID_TURN = r'''
import sys, time
sys.stdin.buffer.readline()                     # the turn has begun to arrive, its go not yet
print("hello, I am a bot", flush=True)        # nobody asked
time.sleep(0.3)                                 # the rest of the turn waits in the referee
for line in sys.stdin.buffer:
    if line.startswith(b"go "):
        print("pass", flush=True)
'''

TWO_ANSWERS = r'''
import os, sys
for line in sys.stdin:
    if line.startswith("go "):
        os.write(1, b"one\ntwo\n")            # one write: both lines arrive together
'''

STDOUT_FLOOD = r'''
import sys
sys.stdout.write("spam\n" * 1000)            # before any go
sys.stdout.flush()
READY()
sys.stdout.write("spam\n" * 2_000_000)       # and 10 MB more
sys.stdout.flush()
'''

STDERR_TAIL_THEN_HANG = r'''
import sys, time
for i in range(1, 10):
    print(f"note {i}", file=sys.stderr)
print("y" * 1000, file=sys.stderr)
sys.stderr.flush()
READY()
for line in sys.stdin:
    pass
'''

STDERR_FLOOD = r'''
import sys
# 20 MB on stderr before anything else, 1 MB more after every answer (between turns, when
# nobody waits for this bot), and plays the first legal input otherwise
sys.stderr.write(("e" * 99 + "\n") * 200_000)
sys.stderr.flush()
legal = []
for line in sys.stdin:
    if line.startswith("legal: "):
        legal.append(line[len("legal: "):].strip())
    elif line.startswith("go "):
        print(legal[0], flush=True)
        legal = []
        sys.stderr.write(("f" * 99 + "\n") * 10_000)
        sys.stderr.flush()
'''

EXIT_EARLY = r'''
import sys
print("cannot find my opening book", file=sys.stderr, flush=True)
READY()
sys.exit(4)
'''


# -- 1. the bot's whole process group ends with it -----------------------------------------------


@pytest.mark.parametrize("ending", ["exits", "hangs"])
def test_a_bot_whose_child_holds_its_pipes_cannot_hang_the_referee(tmp_path: Path, ending: str) -> None:
    """The bot starts ``sleep`` (which inherits its pipes) and exits, or hangs ignoring SIGTERM:
    the turn fails within the timeout, close() returns at once, and nothing of the group lives."""
    source = CHILD_THEN_EXIT if ending == "exits" else CHILD_THEN_HANG
    bot = launch(tmp_path, ending, source, 987654, timeout=0.5, seat="mafia")
    pgid = bot.proc.pid
    try:
        reason, took = failure_of(bot, duel())
        assert took < 1.5, f"the turn took {took:.1f} s with a 0.5 s timeout"
        if ending == "exits":
            assert "exit status 0" in reason, reason
        else:
            assert reason.startswith("no answer within 0.5 s"), reason
        start = time.monotonic()
        within(3, bot.close)
        assert time.monotonic() - start < 1.5
    finally:
        within(3, bot.close)
    assert_group_ended(pgid)


TERM_HANDLER = r'''
import pathlib, signal, sys, time
def bye(signum, frame):
    pathlib.Path(sys.argv[1]).write_text("terminated in good order")
    sys.exit(0)
signal.signal(signal.SIGTERM, bye)
READY()
while True:
    time.sleep(1)                      # deaf to its input closing: only a signal ends it
'''


def test_a_bot_is_given_a_moment_after_sigterm_before_sigkill(tmp_path: Path) -> None:
    note = tmp_path / "bye.txt"
    bot = launch(tmp_path, "term", TERM_HANDLER, note, timeout=2)
    within(5, bot.close)
    assert note.read_text(encoding="utf-8") == "terminated in good order"
    assert bot.proc.returncode == 0


def test_a_game_with_a_bot_whose_child_holds_its_pipes_ends(tmp_path: Path) -> None:
    token = random.randrange(10**6, 10**7)
    command = script(tmp_path, "hang", CHILD_THEN_HANG, token)
    proc, took = run_referee(["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot",
                              f"undercover=exec:{command}", "--bot-timeout", "0.5"], tmp_path, timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert "forfeit: undercover: no answer within 0.5 s" in proc.stdout
    assert took < 8, f"the game took {took:.1f} s"
    deadline = time.monotonic() + 2  # SIGKILL takes effect a moment after it is sent
    while sleepers(token):
        assert time.monotonic() < deadline, "the bot's child outlived the referee"
        time.sleep(0.01)


def test_a_bot_that_exits_when_its_input_closes_is_closed_at_once(tmp_path: Path) -> None:
    bot = ProcessBot("mafia", f"{sys.executable} {EXAMPLE} 1", 5)
    assert within(5, bot.choose, duel()) in duel().state.legal_inputs("mafia")
    start = time.monotonic()
    within(3, bot.close)
    assert time.monotonic() - start < 0.4
    assert bot.proc.returncode == 0
    within(1, bot.close)  # idempotent
    assert_group_ended(bot.proc.pid)


# -- 2. writing never blocks -------------------------------------------------------------------


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


# -- 3. lines are bytes, capped --------------------------------------------------------------------


def test_a_10_mb_line_fails_at_once_with_a_short_reason(tmp_path: Path) -> None:
    bot = launch(tmp_path, "long", TEN_MB_LINE, timeout=1, seat="mafia")
    reason, took = failure_then_close(bot, duel())
    assert took < 0.6, f"{took:.2f} s to refuse the line"
    assert reason.startswith(f"the bot sent a line longer than {MAX_LINE_BYTES} bytes"), reason
    assert len(reason) < 300, reason


@pytest.mark.parametrize("size", [MAX_LINE_BYTES, MAX_LINE_BYTES + 1])
def test_the_line_cap_is_exact_and_a_long_line_fails_before_it_ends(tmp_path: Path, size: int) -> None:
    if size == MAX_LINE_BYTES:  # the longest line a bot may send, held a moment, then its newline
        answer = ("pass" + " " * (size - 4)).encode()
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
    assert _printable(b"  a\tb\x1bc  ") == "a b c"
    assert _printable(b"y" * TAIL_CHARS) == "y" * TAIL_CHARS
    assert _printable(b"y" * (TAIL_CHARS + 1)) == "y" * TAIL_CHARS + "…"


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
        with pytest.raises(BotFailure, match="^the bot sent a line it was not asked for: 'two'$"):
            for _ in range(2):
                answers.append(within(5, bot.choose, fake_session([])))
    finally:
        within(3, bot.close)
    assert answers in ([], ["one"])


def test_a_bot_flooding_its_output_fails_fast(tmp_path: Path) -> None:
    bot = launch(tmp_path, "flood", STDOUT_FLOOD, timeout=2)
    reason, took = failure_then_close(bot, fake_session([]))
    assert reason == "the bot sent a line it was not asked for: 'spam'"
    assert took < 0.5


# -- 5. stderr is kept ---------------------------------------------------------------------------


def test_a_bot_with_a_wrong_path_forfeits_with_pythons_message(tmp_path: Path) -> None:
    proc, _ = run_referee(["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot",
                           f"bandit=exec:{sys.executable} no/such/random_bot.py", "--bot-timeout", "5"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    forfeit = re.search(r"^forfeit: bandit: (.*)$", proc.stdout, re.M)
    assert forfeit, proc.stdout
    assert re.fullmatch(r"the bot closed its output \(exit status 2\); its stderr ends: .*can't open file "
                        r"'.*no/such/random_bot\.py': \[Errno 2\] No such file or directory", forfeit.group(1))


def test_a_failure_ends_with_the_last_stderr_lines_and_the_log_has_them_all(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    bot = launch(tmp_path, "tail", STDERR_TAIL_THEN_HANG, timeout=0.5, log=log)
    reason, _ = failure_then_close(bot, fake_session([]))
    head, _, tail = reason.partition("; its stderr ends: ")
    assert head == "no answer within 0.5 s"
    lines = tail.split(" | ")
    assert lines[:4] == ["note 6", "note 7", "note 8", "note 9"]
    assert len(lines) == 5 and lines[4].startswith("yyyy") and lines[4].endswith("…") and len(lines[4]) <= 201
    assert log.read_text(encoding="utf-8") == "".join(f"note {i}\n" for i in range(1, 10)) + "y" * 1000 + "\n"


def test_a_bot_flooding_stderr_plays_on_and_its_log_is_capped(tmp_path: Path) -> None:
    log = tmp_path / "mafia.log"
    session = duel()
    bots = {"mafia": make_bot(f"exec:{script(tmp_path, 'noisy', STDERR_FLOOD)}", "mafia", 5, 5, log=log),
            "fbi": make_bot("random", "fbi", 5, 5)}
    out = within(60, lambda: "".join(Match(Protocol(session), bots, None, max_moves=40).run()))
    assert "forfeit" not in out and not any("note" in e for e in session.entries)
    assert sum(1 for m in session.moves if m.seat == "mafia") >= 10
    data = log.read_bytes()
    notice = b"[arbiter: log truncated, the bot wrote more than 8 MiB to stderr]\n"
    assert data.endswith(b"\n" + notice)  # on a line of its own
    assert 8 * 2**20 <= len(data) - len(notice) <= 8 * 2**20 + 1
    assert data[:200] == b"e" * 99 + b"\n" + b"e" * 99 + b"\n"


def test_a_bot_that_exits_before_its_first_go_fails_there_with_status_and_stderr(tmp_path: Path) -> None:
    bot = launch(tmp_path, "early", EXIT_EARLY, timeout=2)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert re.fullmatch(r"the bot (closed its output|exited) \(exit status 4\); "
                        r"its stderr ends: cannot find my opening book", reason), reason


KILLS_ITSELF = r'''
import os, sys
for line in sys.stdin:
    if line.startswith("go "):
        os.kill(os.getpid(), int(sys.argv[1]))
'''


@pytest.mark.parametrize("signum, name", [(9, "SIGKILL"), (15, "SIGTERM"), (40, "signal 40")])
def test_a_bot_killed_by_a_signal_fails_naming_it(tmp_path: Path, signum: int, name: str) -> None:
    bot = ProcessBot("p", script(tmp_path, "killed", KILLS_ITSELF, signum), 5)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert re.fullmatch(rf"the bot (closed its output|exited) \(killed by {name}\)", reason), reason


def test_a_bot_that_cannot_start_is_an_arbiter_error(tmp_path: Path) -> None:
    with pytest.raises(ArbiterError, match="cannot start bot for p: '/no/such/bot'"):
        make_bot("exec:/no/such/bot", "p", 1, 1)
    with pytest.raises(ArbiterError) as caught:
        make_bot(f"exec:{sys.executable} {EXAMPLE}", "p", 1, 1, log=tmp_path / "no" / "such" / "p.log")
    assert caught.value.message == f"cannot open the log of p's bot: {tmp_path / 'no' / 'such' / 'p.log'}: " \
                                   "No such file or directory"


# -- 6. what the bot is told before go ---------------------------------------------------------------


def told_before_first_go(tmp_path: Path, session: Session, seat: str) -> list[str]:
    log = tmp_path / f"{seat}.txt"
    bot = ProcessBot(seat, script(tmp_path, "plain", PLAIN_BOT, log), 5)
    try:
        within(10, bot.choose, session)
    finally:
        within(3, bot.close)
    return log.read_text(encoding="utf-8").splitlines()


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

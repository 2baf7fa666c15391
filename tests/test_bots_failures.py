"""An external bot that fails says why in its forfeit's reason: its exit status or the signal
that killed it, the last lines of its stderr (all of which, capped, are kept in its log), or
why it could not start at all.

The bots are tiny scripts (``tests/hostile.py``) run with this Python.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.helpers import run_referee
from tests.hostile import (
    within, script, launch, duel, fake_session, failure_then_close, EXAMPLE, STDERR_TAIL_THEN_HANG, STDERR_FLOOD,
    EXIT_EARLY,
)
from arbiter.engine.bots import make_bot
from arbiter.engine.programs import ProcessBot
from arbiter.engine.errors import ArbiterError
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol


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


def test_a_failures_stderr_lines_keep_their_control_characters_as_escapes(tmp_path: Path) -> None:
    """The reason quoted a bot's stderr with its control characters made spaces (``boom |
    line2  [2J``), where the protocol's lines and the record write them as escapes (``\\x1b``):
    what the bot wrote is kept, still one printable line."""
    bot = launch(tmp_path, "ctl", "import sys, time\nsys.stderr.write('boom\\tline\\nline2 \\x1b[2J\\x07\\n')\n"
                 "sys.stderr.flush()\ntime.sleep(60)\n", timeout=0.5)
    reason, _ = failure_then_close(bot, fake_session([]))
    assert reason == "no answer within 0.5 s; its stderr ends: boom\\tline | line2 \\x1b[2J\\x07", reason
    assert reason.isprintable()


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
    deep = "/no/such/" + "folder/" * 20 + "bot --level 3"  # (a long command is named whole up to 200 characters)
    with pytest.raises(ArbiterError, match=re.escape(f"cannot start bot for p: {deep!r}: ")):
        make_bot(f"exec:{deep}", "p", 1, 1)
    with pytest.raises(ArbiterError) as caught:  # (the system's error named the program whole a second time)
        make_bot("exec:" + "p" * 5000, "p", 1, 1)
    assert caught.value.message == f"cannot start bot for p: {'p' * 200!r}... (5000 characters): File name too long"
    with pytest.raises(ArbiterError) as caught:
        make_bot(f"exec:{sys.executable} {EXAMPLE}", "p", 1, 1, log=tmp_path / "no" / "such" / "p.log")
    assert caught.value.message == f"cannot open the log of p's bot: {tmp_path / 'no' / 'such' / 'p.log'}: " \
                                   "No such file or directory"

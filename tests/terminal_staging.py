"""Running ``arbiter`` at a pseudo-terminal, as a person at a shell does: what the tests of the
terminal session (``test_cli_terminal.py``) share.

``Terminal`` starts the command in a child process whose stdin, stdout and stderr are the
slave side of a new pty (its controlling terminal, so Ctrl-C typed there is a SIGINT), keeps
the terminal's modes from before the command ran, and reads what the command writes with a
deadline, so a command that freezes fails the test instead of hanging the suite.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def terminal_env(**changes: str | None) -> dict[str, str]:
    """The environment of a person's shell: a UTF-8 locale, the repository importable, and
    none of Python's own encoding overrides unless ``changes`` sets them (None removes one)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LC_CTYPE", "LANG")}
    env.update(LC_ALL="C.UTF-8", TERM="xterm", INPUTRC="/dev/null",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


class Terminal:
    """``arbiter ARGS`` at a terminal of its own (see the module's docstring)."""

    def __init__(self, args: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        ready_r, ready_w = os.pipe()
        pid, fd = pty.fork()
        if pid == 0:  # the child: wait until the parent has seen the terminal's first modes
            try:
                os.close(ready_w)
                os.read(ready_r, 1)
                os.chdir(cwd)
                os.execve(sys.executable, [sys.executable, "-m", "arbiter", *args], env or terminal_env())
            finally:
                os._exit(127)
        os.close(ready_r)
        self.pid, self.fd = pid, fd
        self.initial = termios.tcgetattr(fd)
        self.output = b""
        self.status: int | None = None
        os.write(ready_w, b"x")
        os.close(ready_w)

    def modes(self) -> list:
        return termios.tcgetattr(self.fd)

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def _pump(self, wait: float) -> bool:
        """Read what is there within ``wait`` seconds; False once the command closed the terminal."""
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: every slave side closed
            return False
        self.output += chunk
        return bool(chunk)

    def expect(self, text: str, timeout: float = 20.0, since: int = 0) -> str:
        """Everything written so far, once it holds ``text`` (in what came after the first
        ``since`` bytes)."""
        wanted = text.encode()
        deadline = time.monotonic() + timeout
        while wanted not in self.output[since:]:
            if time.monotonic() > deadline or not self._pump(0.05):
                if wanted in self.output[since:]:
                    break
                raise AssertionError(f"never wrote {text!r}; wrote:\n{self.text()}")
        return self.text()

    def wait(self, timeout: float = 20.0) -> int:
        """The command's exit status (after it ended, reading the rest of its output)."""
        deadline = time.monotonic() + timeout
        while self.status is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                self.close()
                raise AssertionError(f"the command never ended; wrote:\n{self.text()}")
            self._pump(0.02)
        while self._pump(0.0) and select.select([self.fd], [], [], 0)[0]:
            pass
        return self.status

    def text(self) -> str:
        return self.output.decode("utf-8", "replace").replace("\r\n", "\n")

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = -signal.SIGKILL
        os.close(self.fd)

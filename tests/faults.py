"""A planted system-call fault for the tests of files written whole (``test_files.py``), kept
apart so the child processes those tests kill import nothing else."""

from __future__ import annotations

import os
from typing import Any


class FailingOs:
    """``os`` for ``engine.files``, but its ``name``-th call of ``name`` does ``act`` instead
    (a ``write`` writes half of what it is given first: a kill in the middle of the data)."""

    def __init__(self, name: str, nth: int, act: Any) -> None:
        self.name, self.nth, self.act, self.calls = name, nth, act, 0

    def __getattr__(self, attr: str) -> Any:
        real = getattr(os, attr)
        if attr != self.name:
            return real

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls != self.nth:
                return real(*args, **kwargs)
            if attr == "write":
                real(args[0], bytes(args[1][: len(args[1]) // 2]))
            return self.act()
        return call

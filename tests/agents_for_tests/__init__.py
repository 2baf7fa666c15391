"""Agents (in-process bots) the tests play with ``py:tests.agents_for_tests:NAME``."""


class Last:
    """Plays the last input it may send; remembers what it was told."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.info: dict | None = None

    def new_game(self, info: dict) -> None:
        self.info = info

    def act(self, observation: str, legal):
        self.seen.append(observation)
        return legal.legal[-1] if legal.legal else None


class Idle:
    """Has nothing to say, ever; counts how often it is closed."""

    def __init__(self) -> None:
        self.closed = 0

    def act(self, observation: str, legal):
        return None

    def close(self) -> None:
        self.closed += 1


class Broken:
    def act(self, observation: str, legal):
        raise ValueError("it fell over")


SLOW_S = 5.0
"""How long the slow agents below take, at most: far past the time the tests give them, and
short enough that a referee that does not stop them fails its test rather than hanging."""


class Spins:
    """Computes (pure Python, no wait) for ``SLOW_S``, then plays its last input."""

    def act(self, observation: str, legal):
        import time

        end = time.monotonic() + SLOW_S
        while time.monotonic() < end:
            pass
        return legal.legal[-1]


class Sleeps:
    """Waits in the system (``time.sleep``) for ``SLOW_S``, then plays its last input."""

    def act(self, observation: str, legal):
        import time

        time.sleep(SLOW_S)
        return legal.legal[-1]


class Stubborn:
    """Catches whatever is raised in it (``except BaseException``) twice while it computes, then
    answers at once: an answer after its time is up."""

    def __init__(self) -> None:
        self.caught: list[str] = []

    def act(self, observation: str, legal):
        import time

        end = time.monotonic() + SLOW_S
        while len(self.caught) < 2 and time.monotonic() < end:
            try:
                _spin_until(end)
            except BaseException as exc:  # noqa: BLE001 - the point of this agent
                self.caught.append(type(exc).__name__)
        return legal.legal[-1]


def _spin_until(end: float) -> None:
    """Computes until ``end``, in a frame of its own: an exception a signal's handler raises
    here reaches the caller's ``try`` through this call, at whatever instruction it was raised.
    Raised at a loop's back-edge, it would escape a ``try`` in the loop's own frame on some
    CPythons (python/cpython#130279: 3.13 with ``while COND``, 3.14.10 with ``while True: if
    COND: break``), and the agent would catch nothing."""
    import time

    while time.monotonic() < end:
        pass


class SlowClose(Last):
    """Plays as ``Last``; its ``close`` waits ``SLOW_S``."""

    def close(self) -> None:
        import time

        time.sleep(SLOW_S)

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

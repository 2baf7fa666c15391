"""The seconds a bot is given to answer (``--bot-timeout``) are read in three more places, each
refusing in its own kind: a tournament's configuration (an ``ArbiterError`` naming the key), a
transcript's ``session`` header (a problem text) and ``AgentBot``'s ``timeout`` (``TypeError``
or ``ValueError``). One rule, ``session.bot_timeout_seconds``, decides for all three: they take
the same values and say the same allowed range of the same wrong one."""

from __future__ import annotations

import pytest

from arbiter.engine.agents import AgentBot
from arbiter.engine.arena.config import check_configuration
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.tournament import configuration
from arbiter.engine.errors import ArbiterError, quoted
from arbiter.engine.transcript_reader import settings_problem
from tests.agents_for_tests import Last


def _config(value: object) -> dict:
    entrants = [Entrant("a", "random"), Entrant("b", "random")]
    return {"format": 2, **configuration("mafia", entrants, 2, players=6), "bot_timeout": value}


def refusals(value: object) -> list[str | None]:
    """What each of the three says of ``value`` (None where it takes it)."""
    said: list[str | None] = []
    try:
        check_configuration(_config(value), "t/tournament.json")
        said.append(None)
    except ArbiterError as exc:
        said.append(exc.message)
    said.append(settings_problem({"bot_timeout": value}, ["p1", "p2"]))
    try:
        AgentBot("mafia", Last(), timeout=value)
        said.append(None)
    except (TypeError, ValueError) as exc:
        said.append(f"{type(exc).__name__}: {exc}")
    return said


@pytest.mark.parametrize("value, kind", [
    (0, "ValueError"), (-1, "ValueError"), (0.009, "ValueError"), (3600.5, "ValueError"), (10**400, "ValueError"),
    (float("nan"), "ValueError"), (float("inf"), "ValueError"), (True, "TypeError"), ("10", "TypeError"),
    ([10], "TypeError"),
])
def test_every_refusal_of_a_bots_time_says_the_same_allowed_range(value: object, kind: str) -> None:
    shown = quoted(value)
    assert refusals(value) == [f't/tournament.json: "bot_timeout": seconds from 0.01 to 3600, not {shown}',
                               f"bot_timeout: expected seconds from 0.01 to 3600, found {shown}",
                               f"{kind}: timeout: expected None or seconds from 0.01 to 3600, not {shown}"]


@pytest.mark.parametrize("value", [0.01, 1, 2.5, 3600])
def test_every_reader_of_a_bots_time_takes_the_same_seconds(value: float) -> None:
    assert refusals(value) == [None, None, None]

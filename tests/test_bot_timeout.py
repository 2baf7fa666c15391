"""The seconds a bot is given to answer (``--bot-timeout``) are read in three more places, each
refusing in its own kind: a tournament's configuration (an ``ArbiterError`` naming the key), a
transcript's ``session`` header (a problem text) and ``AgentBot``'s ``timeout`` (``TypeError``
or ``ValueError``). One rule, ``session.bot_timeout_seconds``, decides for all three: they take
the same values and say the same allowed range of the same wrong one. The command line's
``--bot-timeout``, of every command that takes it, says that range in the same words too."""

from __future__ import annotations

import pytest

from arbiter.engine.agents import AgentBot
from arbiter.engine.arena.config import check_configuration
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.tournament import configuration
from arbiter.engine.errors import ArbiterError, quoted
from arbiter.engine.session import BOT_TIMEOUT_WORDS
from arbiter.engine.transcript_reader import settings_problem
from tests.agents_for_tests import Last
from tests.arena_staging import MATCH
from tests.helpers import run


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


@pytest.mark.parametrize("command", [
    ("play", "mafia", "--players", "6", "--bots", "random"),
    ("tournament", "mafia", "--players", "6", "--entrant", "a=random", "--entrant", "b=random", "--games", "2"),
    MATCH,
], ids=["play", "tournament", "match"])
@pytest.mark.parametrize("value", ["-1", "0", "0.009", "3600.5", "4000"])
def test_every_command_refuses_a_bots_time_in_the_same_words(tmp_path, command: tuple[str, ...], value: str) -> None:
    """``--bot-timeout -1`` was Click's "-1.0 is not in the range 0.01<=x<=3600", the number
    not as typed and the range in words no other refusal of a bot's time uses. It is still a
    usage error of the option, before anything is made, in ``bot_timeout_seconds``' words."""
    out = tmp_path / "out"
    where = ("--transcript", out) if command[0] == "play" else ("--out", out)
    r = run(*command, "--bot-timeout", value, *where)
    assert r.exit_code == 2, r.output
    assert r.output.splitlines()[-1] == (f"Error: Invalid value for '--bot-timeout': {BOT_TIMEOUT_WORDS}, "
                                         f"not {value.strip()}")
    assert not out.exists()

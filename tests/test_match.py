"""The Match driver's handling of a bot that fails in a game with no way to forfeit: the
session ends with one framed refusal (valid JSON in JSON mode), never a stray line."""

from __future__ import annotations

import json

import pytest

from arbiter.engine import registry
from arbiter.engine.bots import BotFailure
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session


class BrokenBot:
    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.closed = False

    def choose(self, session: Session) -> str | None:
        raise BotFailure("it fell over")

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_failed_bot_in_a_game_without_forfeit_ends_the_session_framed(monkeypatch, json_mode):
    session = Session(registry.get("fbi-mafia"), "standard-3v3", seed=1)
    monkeypatch.setattr(session.rules, "forfeit_input", lambda seat: None)
    bot = BrokenBot("bandit")
    protocol = Protocol(session, json_mode=json_mode)
    out = list(Match(protocol, {"bandit": bot}, ["awaiting\n"]).run())
    assert len(out) == 1, out  # the session ended: the queued line was never read
    if json_mode:
        body = json.loads(out[0])
        assert out[0].endswith("\n") and out[0].count("\n") == 1
        assert body["ok"] is False and body["error"]["kind"] == "bot"
        assert "it fell over" in body["error"]["message"]
    else:
        assert out[0].startswith("? bot: bandit's bot failed (it fell over)") and out[0].endswith("\n\n")
    assert protocol.done and bot.closed
    assert session.entries[-1] == {"note": {"seat": "bandit", "forfeit": "it fell over"}}
    assert not session.moves

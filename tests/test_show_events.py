"""``arbiter show --events`` (``engine/retell.py``): a recorded game told again as one session
was told it. The property: a game played live by bots, seen through one seat's session (or the
host's), and its transcript told again as that seat, give the same answers, byte for byte,
forfeits included; every event the seat may see is told once, in order."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bots import BotFailure, RandomBot
from arbiter.engine.errors import TranscriptError, UnknownSeatError
from arbiter.engine.events import HOST
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.retell import retold
from arbiter.engine.session import Session
from tests.helpers import run


class FailsAt(RandomBot):
    """A built-in bot that fails at its ``at``-th choice (a crash, a hang, a cheat alike)."""

    def __init__(self, seat: str, seed: int, kind: str, at: int) -> None:
        super().__init__(seat, seed, kind)
        self.at, self.asked = at, 0

    def choose(self, session: Session) -> str | None:
        self.asked += 1
        if self.asked == self.at:
            raise BotFailure("it fell over")
        return super().choose(session)


def live_and_retold(game: str, variant: str, options: dict | None, kind: str, perspective: str, seed: int,
                    fails: tuple[str, int] | None = None, json_mode: bool = False) -> tuple[list[str], list[str], Session]:
    s = Session(registry.get(game), variant, seed=seed, options=options)
    protocol = Protocol(s, perspective, json_mode=json_mode)
    bots = {seat: FailsAt(seat, seed + i, kind, fails[1]) if fails and seat == fails[0] else RandomBot(seat, seed + i, kind)
            for i, seat in enumerate(s.seats)}
    live = [protocol.render(protocol.opening()), *Match(protocol, bots, None, max_moves=400).run()]
    return live, list(retold(tr.parse(tr.dump(s)), perspective, json_mode=json_mode)), s


def told_events(told: list[str]) -> list[str]:
    """The event lines told, without the host's ``(to ...)``."""
    return [re.sub(r"^event: \(to [^)]*\) ", "event: ", line)
            for answer in told for line in answer.splitlines() if line.startswith("event: ")]


GAMES = [  # (game, variant, options, bots, seats to look from, a seat whose bot fails at its Nth choice)
    ("mafia", "8-players", None, "random", (HOST, "p3", "p5"), ("p5", 3)),
    ("mafia", "12-players", None, "random", ("p1",), None),
    ("fbi-mafia", "duel-3v3", None, "random", (HOST, "fbi", "mafia"), ("fbi", 5)),
    ("fbi-mafia", "standard-3v3", None, "random", ("bandit", "undercover"), ("undercover", 4)),
    ("magic-maze", "1", {"players": 3}, "planner", (HOST, "p2"), ("p2", 5)),
    ("magic-maze", "3", {"players": 4, "roles": 2}, "planner", (HOST, "p2"), ("p1", 6)),
]


@pytest.mark.parametrize("game, variant, options, kind, seats, fails", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_a_recorded_game_is_told_as_each_seat_was_told_it_live(game, variant, options, kind, seats, fails) -> None:
    for perspective in seats:
        for failing in (None, fails):
            live, told, s = live_and_retold(game, variant, options, kind, perspective, 2, failing)
            assert told == live, (perspective, failing)
            assert told_events(told) == [f"event: {e.text}" for e in s.events.visible_to(perspective)]
            if failing is not None:
                assert {"seat": failing[0], "forfeit": "it fell over"} in [e.get("note") for e in s.entries]
                said = [line for answer in told for line in answer.splitlines() if "fell over" in line]
                assert bool(said) == (perspective in (HOST, failing[0])), (perspective, said)  # (another: "its bot failed")


@pytest.mark.parametrize("give_up", [None, "fly away"])
@pytest.mark.parametrize("perspective", [HOST, "bandit", "undercover"])
def test_a_forfeit_its_seat_could_not_give_up_is_told_as_it_was(monkeypatch: pytest.MonkeyPatch, give_up: str | None,
                                                               perspective: str) -> None:
    """A failed bot whose seat has no give-up input, or one the game refuses, ends a turn game's
    session; the retelling finds which on a copy of the game and says it as the live one did."""
    monkeypatch.setattr(registry.get("fbi-mafia"), "forfeit_input", lambda seat: give_up)
    live, told, s = live_and_retold("fbi-mafia", "standard-3v3", None, "random", perspective, 1, ("bandit", 2))
    assert told == live and s.entries[-1] == {"note": {"seat": "bandit", "forfeit": "it fell over"}}
    ended = "this game has no forfeit" if give_up is None else "its seat's forfeit (fly away) was refused (syntax)"
    assert told[-1].startswith("? bot: bandit's bot failed") and f"{ended}, so the session ends" in told[-1]
    assert ("it fell over" in told[-1]) == (perspective in (HOST, "bandit"))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(1, 10_000), seat=st.sampled_from(["p1", "p4", "p6"]), at=st.integers(1, 12),
       json_mode=st.booleans())
def test_any_mafia_game_with_a_failing_bot_is_told_as_it_was(seed: int, seat: str, at: int, json_mode: bool) -> None:
    live, told, _ = live_and_retold("mafia", "7-players", None, "random", seat, seed, (f"p{1 + seed % 7}", at), json_mode)
    assert told == live


def test_a_seat_is_told_nothing_of_whom_else_a_secret_was_for() -> None:
    _, told, s = live_and_retold("mafia", "8-players", None, "random", "p2", 3)
    assert not any(line.startswith("event: (to ") for answer in told for line in answer.splitlines())
    _, host, _ = live_and_retold("mafia", "8-players", None, "random", HOST, 3)
    assert any(line.startswith("event: (to p2") for answer in host for line in answer.splitlines())


def test_a_transcript_that_does_not_replay_or_a_seat_the_game_lacks_tells_nothing() -> None:
    s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    s.submit("mafia", "shift row 1 left")
    text = tr.dump(s)
    with pytest.raises(UnknownSeatError):
        next(retold(tr.parse(text), "bandit"))
    with pytest.raises(TranscriptError, match="does not replay"):
        next(retold(tr.parse(text.replace("shift row 1 left", "fly away"))))


@pytest.mark.parametrize("note", ["{forfeit: x}", "{seat: zz, forfeit: x}", "{seat: [1, 2], forfeit: {a: 1}}",
                                  "{seat: fbi, forfeit: [x]}", "{seat: fbi, forfeit: x}", "{arena: x}"])
def test_a_note_no_live_session_was_told_of_is_not_retold(note: str) -> None:
    """Notes are remarks replay ignores; one edited in (no seat, not a seat, a reason that is
    not text, a forfeit the seat's give-up did not follow though the game would take it) is told
    as nothing: a note without a seat stopped the telling with a KeyError."""
    s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=3)
    for seat, text in [("mafia", "shift row 1 left"), ("fbi", "shift row 2 right")]:
        s.submit(seat, text)
    plain = tr.dump(s)
    edited = tr.parse(plain + f"- {{note: {note}}}\n")
    assert list(retold(edited, "fbi")) == list(retold(tr.parse(plain), "fbi"))


# ============================================================================ the command line
@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("show") / "game.yaml"
    r = run("play", "mafia", "--players", "8", "--seed", 4, "--bots", "random", "--transcript", path)
    assert r.exit_code == 0, r.output
    return path


def test_show_events_prints_the_game_as_the_seat_was_told_it(recorded: Path) -> None:
    t = tr.read(recorded)
    r = run("show", recorded, "--as", "p3", "--events")
    assert r.exit_code == 0, r.output
    assert r.output == "".join(retold(t, "p3"))
    blocks = r.output.split("\n\n")
    assert blocks[0].startswith("= open\n") and "event: You are p3: your card is" in blocks[0]
    assert blocks[-2].splitlines()[-1] == f"result: {t.result['text']}"
    host = run("show", recorded, "--events")
    assert host.exit_code == 0 and host.output.count("\n= ") == t.move_count  # (the host is told every move)


def test_show_events_at_n_stops_after_n_moves_and_json_gives_one_object_an_answer(recorded: Path) -> None:
    r = run("show", recorded, "--events", "--at", 10, "--json")
    assert r.exit_code == 0, r.output
    objects = [json.loads(line) for line in r.output.splitlines()]
    assert objects[0]["command"] == "open" and [o["command"] for o in objects[1:]] == ["move"] * 10
    assert all(o["ok"] for o in objects) and objects[0]["events"][1]["to"] == ["p1"]


@pytest.mark.parametrize("args, said", [
    (["--json"], "--json is for --events (the board is text)"),
    (["--events", "--as", "p9"], "no seat 'p9'"),
    (["--events", "--legend"], "--legend explains the board's symbols, and --events tells no board"),
])
def test_show_events_usage_errors(recorded: Path, args: list[str], said: str) -> None:
    r = run("show", recorded, *args)
    assert r.exit_code == 2 and said in r.output, r.output

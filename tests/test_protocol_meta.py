"""The line protocol of docs/protocol.md: the meta-commands' fields in JSON mode, and ``legal SEAT``.

Authority: docs/protocol.md. Sessions, frames and staged positions: ``tests/protocol_staging.py``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine.clock import parse_seconds
from arbiter.engine.events import HOST
from arbiter.engine.protocol import META_COMMANDS, Protocol
from arbiter.engine.session import Session

from tests.helpers import play, precondition
from tests.protocol_staging import (
    FBI,
    POSITIONS,
    SEATS_3V3,
    advance_random,
    body_values,
    jframe,
    new_session,
    ok_frame,
    sendable,
)


# =========================================================================== meta-commands: JSON fields
def _json(session: Session, line: str, perspective: str = HOST) -> dict:
    obj = jframe(Protocol(session, perspective, json_mode=True).handle(line))
    assert obj["ok"] is True, obj
    return obj


def test_json_move_fields():
    session = new_session(1)
    obj = _json(session, "@3 bandit shift row 1 right")
    assert obj["command"] == "move"
    assert obj["seat"] == "bandit"
    assert obj["input"] == "shift row 1 right"
    assert parse_seconds(str(obj["time"])) == 3000
    assert isinstance(obj["events"], list) and obj["events"]
    for e in obj["events"]:  # (the host is told whom each is for: None, every seat)
        assert set(e) == {"index", "kind", "text", "data", "to"} and e["to"] is None
        assert isinstance(e["index"], int) and isinstance(e["kind"], str) and isinstance(e["text"], str)
        assert isinstance(e["data"], dict)
    assert [e["kind"] for e in obj["events"]] == ["shift", "turn"]
    # a seat is told its secrets without ``to``: who else was told is not its business
    told = Protocol(new_session(1), "bandit", json_mode=True).opening().payload["events"]
    assert any("your secret identity" in e["text"] for e in told) and {frozenset(e) for e in told} == {
        frozenset({"index", "kind", "text", "data"})}
    assert obj["awaiting"] == [{"seat": "undercover", "kind": "action",
                                "hint": session.state.awaiting()[0].hint}]
    for a in obj["awaiting"]:
        assert set(a) == {"seat", "kind", "hint"}
    assert obj["result"] is None
    end = _json(session, "undercover surrender")
    assert end["awaiting"] == []
    assert end["result"]["winner"] == "mafia"
    assert {"winner", "reason", "text"} <= set(end["result"])


def test_json_meta_command_fields():
    session = new_session(1)
    play(session, "bandit shift row 1 right")
    obj = _json(session, "awaiting")
    assert obj["awaiting"] == [a.as_dict() for a in session.state.awaiting()] and obj["result"] is None

    obj = _json(session, "legal undercover")
    assert obj["seat"] == "undercover" and obj["legal"] + [obj["resign"]] == session.state.legal_inputs("undercover")
    assert all(isinstance(m, str) for m in obj["legal"]) and obj["resign"] == "surrender" and obj["forms"] == []

    obj = _json(session, "board")
    assert obj["seat"] == HOST and obj["board"] == session.render(HOST)
    obj = _json(session, "board maniac")
    assert obj["seat"] == "maniac" and obj["board"] == session.render("maniac")

    obj = _json(session, "view")
    assert obj["seat"] == HOST and obj["view"] == json.loads(json.dumps(session.state.view(HOST)))
    obj = _json(session, "view detective")
    assert obj["seat"] == "detective" and obj["view"] == json.loads(json.dumps(session.state.view("detective")))

    obj = _json(session, "events")
    assert obj["seat"] == HOST and [e["text"] for e in obj["events"]] == [e.text for e in session.events]
    obj = _json(session, "events bandit 2")
    stream = session.events.visible_to("bandit")
    assert obj["seat"] == "bandit" and [e["text"] for e in obj["events"]] == [e.text for e in stream[2:]]
    assert [e["index"] for e in obj["events"]] == list(range(2, len(stream)))

    obj = _json(session, "score")
    assert obj["score"] == session.state.score() and obj["result"] is None

    assert _json(session, "seats")["seats"] == list(session.seats)
    assert str(_json(session, "time")["time"]) == "1"
    commands = _json(session, "help")["commands"]
    assert isinstance(commands, list)
    for name in META_COMMANDS:
        assert any(c.split()[0].rstrip(":") == name for c in commands), name
    p = Protocol(session, json_mode=True)
    assert jframe(p.handle("quit"))["command"] == "quit"
    assert p.done

    play(session, "maniac surrender")
    obj = _json(session, "score")
    assert obj["result"]["winner"] == "fbi"
    assert _json(session, "awaiting")["result"] == session.state.result.as_dict()


def test_text_meta_command_bodies():
    session = new_session(1)
    p = Protocol(session)
    assert body_values(ok_frame(p.handle("seats"))[1], "seat") == list(SEATS_3V3)
    assert body_values(ok_frame(p.handle("time"))[1], "time") == ["0"]
    _, body = ok_frame(p.handle("awaiting"))
    assert body == [f"awaiting: {a.seat} {a.kind}: {a.hint}" for a in session.state.awaiting()]
    _, body = ok_frame(p.handle("legal bandit"))
    assert sendable(body) == session.state.legal_inputs("bandit") and len(body) == len(
        session.state.legal_inputs("bandit"))
    assert body[-1] == "resign: surrender" and "legal: surrender" not in body
    headline, body = ok_frame(p.handle("board"))
    assert headline == "board" and body == session.render(HOST).splitlines()
    _, body = ok_frame(p.handle("view bandit"))
    view = session.state.view("bandit")
    assert [line.split(":", 1)[0] for line in body] == list(view)
    assert body_values(body, "mode") == ["standard-3v3"]
    _, body = ok_frame(p.handle("score"))
    assert body_values(body, "kills") == ["0"] and body_values(body, "arrests") == ["0"]
    _, body = ok_frame(p.handle("help"))
    listed = body_values(body, "command")
    for name in META_COMMANDS:
        assert any(c.split()[0].rstrip(":") == name for c in listed), name
    _, body = ok_frame(p.handle("events bandit 1"))
    stream = session.events.visible_to("bandit")[1:]
    assert stream[0].to == ("bandit",)  # (the host is told whom a secret is for)
    assert body_values(body, "event") == [e.text if e.to is None else f"(to bandit) {e.text}" for e in stream]


@pytest.mark.parametrize("command", ["help", "seats", "awaiting", "score", "time", "quit"])
@pytest.mark.parametrize("perspective", [HOST, "bandit"])
def test_a_meta_command_that_takes_no_arguments_refuses_extra_words(command: str, perspective: str):
    """docs/protocol.md: wrong arguments are a syntax error. ``quit please`` once quit, and
    ``time now`` told the time: the words after them were ignored."""
    session = new_session(1)
    p = Protocol(session, perspective, json_mode=True)
    obj = jframe(p.handle(f"{command} please"))
    assert obj["ok"] is False and not p.done
    assert obj["error"] == {"kind": "syntax", "message": f"{command} takes no arguments, not 'please'",
                            "allowed": [META_COMMANDS[command]]}
    assert len(session.moves) == 0 and p.refused == 1


def test_a_stamped_quit_ends_the_session_when_it_is_answered_not_when_it_is_looked_at():
    """``time_of`` (the real-time loop asks it when a stamped line is due) and the check of a
    stamped line's words before time passes once ran ``quit`` itself: ``@30 quit`` ended the
    session at once, and a refused ``@T quit`` (time gone back) ended it too."""
    session = new_session(1)
    p = Protocol(session, HOST, json_mode=True)
    jframe(p.handle("@5 bandit shift row 1 right"))
    precondition(session.clock_ms == 5000, session.clock_ms)
    assert p.time_of("@30 quit") == 30_000 and not p.done
    refused = jframe(p.handle("@2 quit"))
    assert refused["ok"] is False and not p.done, refused
    answered = jframe(p.handle("@30 quit"))
    assert answered["ok"] is True and answered["command"] == "quit" and p.done
    assert session.clock_ms == 30_000
    q = Protocol(new_session(1), HOST, json_mode=True)
    assert jframe(q.handle("quit"))["ok"] is True and q.done


def test_a_views_list_of_words_is_one_line_and_an_empty_one_a_dash():
    session = Session(registry.get("magic-maze"), "1", seed=1, options={"players": 2})
    p = Protocol(session)
    _, body = ok_frame(p.handle("view host"))
    assert body_values(body, "escaped") == ["-"] and body_values(body, "used") == ["-"]  # nobody, nothing yet
    mafia = Protocol(Session(registry.get("mafia"), "6-players", seed=1))
    _, body = ok_frame(mafia.handle("view host"))
    assert body_values(body, "alive") == ["p1 p2 p3 p4 p5 p6"]


@pytest.mark.parametrize("line,canonical", [
    ("BANDIT SHIFT ROW 1 RIGHT", "bandit shift row 1 right"),
    ("bandit shift row 1 right 1", "bandit shift row 1 right"),
    ("bandit shift column a up", "bandit shift col a up"),
    ("bandit KILL B2", "bandit kill b2"),
])
def test_move_headline_is_canonical(line, canonical):
    headline, _ = ok_frame(Protocol(new_session(1)).handle(line))
    assert headline == canonical


# =========================================================================== legal SEAT
def _replayable(make):
    """A factory for copies of a staged session (so every legal input can be tried on a fresh copy)."""
    base = make()
    moves = [(m.seat, m.text, m.time_ms) for m in base.moves]
    chance = list(base.chance.records)

    def copy_of() -> Session:
        s = Session(FBI, base.variant, seed=base.seed, recorded=chance)
        for seat, text, t in moves:
            s.submit(seat, text, t)
        return s

    return base, copy_of


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_every_legal_input_is_accepted(position):
    base, copy_of = _replayable(POSITIONS[position])
    for seat in base.seats:
        out = Protocol(base).handle(f"legal {seat}")
        legal = sendable(ok_frame(out)[1])
        assert legal == base.state.legal_inputs(seat)
        assert body_values(ok_frame(out)[1], "resign") == (["surrender"] if legal else [])
        if base.over:
            assert legal == []
            continue
        assert "surrender" in legal
        awaited = {a.seat for a in base.state.awaiting()}
        if seat not in awaited:
            assert legal == ["surrender"]
        for move in legal:
            s = copy_of()
            headline, _ = ok_frame(Protocol(s).handle(f"{seat} {move}"))
            assert len(s.moves) == len(base.moves) + 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]),
       seed=st.integers(0, 10_000), n=st.integers(0, 60), pick=st.integers(0, 10_000))
def test_legal_inputs_are_accepted_at_random_positions(mode, seed, n, pick):
    def make():
        s = new_session(seed, mode)
        advance_random(s, n, seed=seed)
        return s

    base, copy_of = _replayable(make)
    if base.over:
        return
    seat = base.state.awaiting()[0].seat
    legal = sendable(ok_frame(Protocol(base).handle(f"legal {seat}"))[1])
    assert legal
    for move in {legal[pick % len(legal)], legal[(pick * 7 + 3) % len(legal)], legal[0], legal[-1]}:
        s = copy_of()
        ok_frame(Protocol(s).handle(f"{seat} {move}"))


def test_a_time_past_the_latest_stamp_is_refused_saying_the_range() -> None:
    """``@1000000000`` was refused as "at most 3 decimals, not negative", which it is: the
    answer did not say that the latest time a stamp may name is 999999999.999."""
    from arbiter.engine.errors import SyntaxInputError

    assert parse_seconds("999999999.999") == 999_999_999_999
    for text in ("1000000000", "-1", "1.0001"):
        with pytest.raises(SyntaxInputError) as refused:
            parse_seconds(text)
        assert str(refused.value).endswith("expected seconds like 12 or 12.5 (from 0 to 999999999.999, at most "
                                           "3 decimals)")

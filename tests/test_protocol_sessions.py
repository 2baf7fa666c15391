"""The line protocol of docs/protocol.md: a seat's session, the Match driver at the end of its input,
and interrupts.

Authority: docs/protocol.md. Sessions, frames and staged positions: ``tests/protocol_staging.py``.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from arbiter.engine import transcript as tr
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.helpers import fbi_game, play
from tests.protocol_staging import (
    OPENING,
    advance_random,
    body_values,
    err_frame,
    frame,
    jframe,
    new_session,
    ok_frame,
    sendable,
    snapshot,
    staged_before_arrest,
    staged_keep,
    staged_protect,
)


# =========================================================================== seat sessions
@pytest.mark.parametrize("line", ["board undercover", "view undercover", "events undercover", "legal undercover",
                                  "events undercover 2", "board host", "view host", "events host",
                                  "BOARD Operative"])
def test_a_seats_session_is_denied_other_seats_secrets(line):
    session = new_session()
    before = snapshot(session)
    err_frame(Protocol(session, "bandit").handle(line), "denied")
    assert snapshot(session) == before


def test_a_seats_session_cannot_move_for_another_seat():
    session = new_session()
    p = Protocol(session, "undercover")
    play(session, "bandit shift row 1 right")  # the undercover is awaited now
    before = snapshot(session)
    for line in ("maniac shift row 1 right", "bandit surrender", "operative surrender", "@9 bandit kill a1"):
        err_frame(p.handle(line), "denied")
        assert snapshot(session) == before
    ok_frame(p.handle("undercover shift row 2 right"))


def test_a_seats_session_sees_its_own_things():
    session = new_session(1)
    p = Protocol(session, "bandit")
    for line in ("board", "board bandit", "view", "view bandit", "events", "events bandit", "events bandit 1",
                 "legal bandit", "awaiting", "score", "time", "seats", "help"):
        ok_frame(p.handle(line))
    _, body = ok_frame(p.handle("events"))
    mine = [e.text for e in session.events.visible_to("bandit")]
    assert body_values(body, "event") == mine
    hidden = [e.text for e in session.events if not e.visible_to("bandit")]
    assert hidden, "precondition: some events are secret from the bandit"
    assert not set(hidden) & set(body_values(body, "event"))
    view = json.loads(Protocol(session, "bandit", json_mode=True).handle("view"))["view"]
    assert set(view["identities"]) == {"bandit"}
    board = "\n".join(ok_frame(p.handle("board"))[1])
    assert "Identities:" not in board
    for c in ("undercover", "maniac", "detective", "bomber", "operative"):
        assert f"{c}=" not in board


def test_a_seats_move_response_shows_only_events_it_may_see():
    session = staged_before_arrest()
    p = Protocol(session, "operative")
    j = Protocol(session, "operative", json_mode=True)
    start = len(session.events)
    obj = jframe(j.handle("operative arrest b2"))
    assert obj["ok"]
    caused = session.events.since(start)
    secret = [e for e in caused if not e.visible_to("operative")]
    assert secret, "precondition: the arrest makes the bandit draw a secret new identity"
    texts = [e["text"] for e in obj["events"]]
    assert texts == [e.text for e in caused if e.visible_to("operative")]
    # indices count in the operative's own event stream
    stream = session.events.visible_to("operative")
    for e in obj["events"]:
        assert stream[e["index"]].text == e["text"]
    _, body = ok_frame(p.handle(f"events operative {obj['events'][0]['index']}"))
    assert body_values(body, "event") == texts
    all_mine = jframe(j.handle("events"))["events"]
    assert [e["index"] for e in all_mine] == list(range(len(stream)))


def test_duel_seats_session():
    session = new_session(4, "duel-3v3")
    p = Protocol(session, "mafia")
    awaited = session.state.awaiting()[0].seat
    assert awaited == "mafia"
    err_frame(p.handle("fbi shift row 1 right"), "denied")
    err_frame(p.handle("view fbi"), "denied")
    ok_frame(p.handle("mafia shift row 1 right"))
    err_frame(p.handle("mafia shift row 2 right"), "not-your-turn")
    view = json.loads(Protocol(session, "mafia", json_mode=True).handle("view"))["view"]
    assert set(view["identities"]) == {"bandit", "maniac", "bomber"}


# =========================================================================== Match and end of input
def test_a_half_line_at_end_of_input_is_still_answered():
    session = new_session()
    p = Protocol(session)
    outs = list(Match(p, {}, io.StringIO("awaiting\n# c\nbandit shift row 1 right\nundercover shift row 2 right")).run())
    assert len(outs) == 3
    headline, _ = ok_frame(outs[-1])
    assert headline == "undercover shift row 2 right"
    assert len(session.moves) == 2
    j = Protocol(new_session(), json_mode=True)
    outs = list(Match(j, {}, io.StringIO("time\r\nbandit shift row 1 right")).run())
    assert [jframe(o)["ok"] for o in outs] == [True, True]


def test_input_ending_mid_game_leaves_a_resumable_transcript(tmp_path):
    path = tmp_path / "game.yaml"
    seed = 8
    whole = new_session(seed)
    advance_random(whole, 40, seed=seed)
    assert not whole.over
    lines = [f"{m.seat} {m.text}" for m in whole.moves]

    session = new_session(seed)
    writer = tr.TranscriptWriter(path, session)
    p = Protocol(session)
    outs = list(Match(p, {}, iter(lines[:17] + ["board"])).run())  # ends mid-game, no quit
    assert len(outs) == 18 and all(frame(o)[0] == "=" for o in outs)
    writer.close()

    t = tr.read(path)
    assert not t.finished and t.notes == []
    report = tr.replay(t)
    assert report.ok, report.problems
    assert report.moves == 17
    resumed = report.session
    w2 = tr.TranscriptWriter(path, resumed, resume=len(t.log))
    p2 = Protocol(resumed)
    outs = list(Match(p2, {}, iter(lines[17:])).run())
    assert all(frame(o)[0] == "=" for o in outs)
    w2.close()
    assert path.read_text(encoding="utf-8") == tr.dump(whole)


# =========================================================================== interrupts
def _awaiting_lines(session: Session) -> list[str]:
    return body_values(ok_frame(Protocol(session).handle("awaiting"))[1], "awaiting")


def test_protect_interrupt_surfaces_in_awaiting():
    session = staged_protect()
    lines = _awaiting_lines(session)
    assert len(lines) == 1 and re.match(r"^operative protect: .*protect yes\|no", lines[0]), lines
    assert "b3" in lines[0]
    p = Protocol(session)
    # the move that caused it said so too
    s2 = fbi_game(identities={"bandit": "Hugo", "operative": "Mara", "maniac": "Dario", "bomber": "Ines"})
    play(s2, *OPENING, "maniac threat f1", "detective shift row 6 right", "bomber shift row 6 right",
         "operative protect b3", "operative shift row 6 right")
    _, body = ok_frame(Protocol(s2).handle("bandit kill b3"))
    assert body_values(body, "awaiting") == lines
    assert json.loads(Protocol(session, json_mode=True).handle("awaiting"))["awaiting"][0]["kind"] == "protect"
    # only that answer is accepted until it comes
    before = snapshot(session)
    _, body = err_frame(p.handle("operative shift row 1 right"), "illegal")
    assert sorted(body_values(body, "allowed")) == ["protect no", "protect yes"]
    err_frame(p.handle("undercover shift row 1 right"), "not-your-turn")
    err_frame(p.handle("bandit kill b2"), "not-your-turn")
    err_frame(p.handle("operative protect maybe"), "syntax")
    assert snapshot(session) == before
    assert sendable(ok_frame(p.handle("legal operative"))[1]) == ["protect yes", "protect no", "surrender"]
    _, body = ok_frame(p.handle("operative protect yes"))
    assert any("protects Nico" in e for e in body_values(body, "event"))
    assert not _awaiting_lines(session)[0].startswith("operative protect")


def test_protect_interrupt_surrender_excepted():
    session = staged_protect()
    _, body = ok_frame(Protocol(session).handle("bomber surrender"))
    assert body_values(body, "result")


def test_detonate_interrupt_surfaces_in_awaiting():
    session = staged_before_arrest()
    _, body = ok_frame(Protocol(session).handle("operative arrest b2"))
    lines = body_values(body, "awaiting")
    assert len(lines) == 1 and re.match(r"^bomber detonate: .*detonate yes\|no", lines[0]), lines
    assert _awaiting_lines(session) == lines
    p = Protocol(session)
    before = snapshot(session)
    _, body = err_frame(p.handle("bomber plant a1"), "illegal")
    assert sorted(body_values(body, "allowed")) == ["detonate no", "detonate yes"]
    err_frame(p.handle("maniac shift row 1 right"), "not-your-turn")
    assert snapshot(session) == before
    ok_frame(p.handle("bomber detonate no"))
    assert session.state.awaiting()[0].kind != "detonate"


def test_keep_interrupt_surfaces_in_awaiting():
    session = staged_keep()
    lines = _awaiting_lines(session)
    assert len(lines) == 1 and lines[0].startswith("detective keep: "), lines
    legal = sendable(ok_frame(Protocol(session).handle("legal detective"))[1])
    keeps = [m for m in legal if m.startswith("keep ")]
    assert len(keeps) == 2 and legal[-1] == "surrender"
    p = Protocol(session)
    before = snapshot(session)
    err_frame(p.handle("detective shift row 1 right"), "illegal")
    err_frame(p.handle("bomber shift row 1 right"), "not-your-turn")
    assert snapshot(session) == before
    # the inspected cards are the detective's secret
    seen = session.events.visible_to("detective")[-1]
    assert seen.kind == "inspect-look"
    _, body = ok_frame(Protocol(session, "bomber").handle("events"))
    assert seen.text not in body_values(body, "event")
    ok_frame(p.handle(f"detective {keeps[1]}"))
    assert session.state.awaiting()[0].seat == "bomber"


def test_interrupt_in_a_duel_names_the_team_seat():
    s = fbi_game("duel-3v3", identities={"bandit": "Hugo", "operative": "Mara", "maniac": "Dario", "bomber": "Ines"})
    play(s, "mafia shift row 6 right", "fbi shift row 6 right", "mafia shift row 6 right", "mafia threat f1",
         "fbi shift row 6 right", "mafia plant b2", "fbi protect a3", "fbi arrest b2")
    lines = _awaiting_lines(s)
    assert len(lines) == 1 and lines[0].startswith("mafia detonate: "), lines
    assert sendable(ok_frame(Protocol(s, "mafia").handle("legal mafia"))[1]) == [
        "detonate yes", "detonate no", "surrender"]
